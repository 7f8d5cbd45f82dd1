/* Copies between multisampled images as draws (vkCmdCopyImage2 of 2, 4 or 8 samples; issue 15
 * item 1).
 *
 * Multisampled images cannot be RAT-stored here (no multisampled typed RAT, and a store would
 * have to keep FMASK right), so a region is drawn instead: for each of its layers, a RECTLIST
 * over the destination rectangle into a rendering of that layer of the destination alone, at
 * the images' sample count. The pixel shader reads SampleId, so the draw shades every sample
 * with an invocation of its own (terakan_cmd_draw.cpp lets a driver draw iterate exactly when
 * its shader reads SampleId), and each invocation reads the same sample of the source texel
 * with texelFetch (LDFPTR and LD of a one-layer 2D_ARRAY_MSAA view: FMASK for colour, the DB's
 * sample order for depth and stencil) and writes it:
 *   - colour: both images viewed with the unsigned integer format of their texel's size (R8,
 *     R16, R32, R32G32, R32G32B32A32 UINT, as the single-sample copy shader views them), so
 *     bits are copied, not values; the CB writes the sample and its FMASK entry;
 *   - depth: the sample as FragDepth (PIXEL 61 x), the depth test ALWAYS with writes on. A
 *     depth value survives the trip through a 32-bit float exactly for D16, D32F, and for
 *     D24 when the DB rounds x / (2^24 - 1) back to the nearest code (|error| < 1/2);
 *   - stencil: the sample as FragStencilRefEXT (PIXEL 61 y), the stencil test ALWAYS with
 *     REPLACE and every bit written, as the stencil resolves draw.
 * The region's offsets move the read: source texel = destination pixel + (srcOffset -
 * dstOffset), from the push constants; FragCoord sits at the shaded sample, inside its pixel,
 * so its floor is the pixel.
 *
 * Whole images laid out alike stay one CP DMA run of their slices and FMASK (terakan_cmd_buffer.cpp
 * copy_identical_levels): that is not done here.
 *
 * Push constants: bytes 0-7 srcOffset - dstOffset (x, y as 32-bit integers), 128-175 the
 * rectangle's corners (terakan_meta.h). */
#include "terakan_meta_copy.h"

#include <cstdio>
#include <cstring>

#include "terakan_meta.h"
#include "hw/graphics_registers.h"

using terakan::compiler::ShaderStage;

namespace {

/* The program key: what the pixel shader reads and exports. */
enum class MsaaCopyKind : uint32_t { Colour = 0, Depth = 1, Stencil = 2 };

const char *name_of(MsaaCopyKind kind)
{
   return kind == MsaaCopyKind::Colour ? "colour" : kind == MsaaCopyKind::Depth ? "depth" : "stencil";
}

nir_shader *msaa_copy_pixel_shader(uint32_t key)
{
   const auto kind = MsaaCopyKind(key);
   nir_builder b = terakan::compiler::begin_graphics_nir(ShaderStage::Fragment, "terakan multisampled copy");
   const bool depth = kind == MsaaCopyKind::Depth;
   const glsl_base_type base = depth ? GLSL_TYPE_FLOAT : GLSL_TYPE_UINT;
   nir_variable *source = nir_variable_create(b.shader, nir_var_uniform,
                                              glsl_sampler_type(GLSL_SAMPLER_DIM_MS, false, true, base), "source");
   source->data.descriptor_set = 0;
   source->data.binding = 0;
   nir_deref_instr *deref = nir_build_deref_var(&b, source);

   /* The source texel: this pixel moved by the region's offsets, in layer 0 of the one-layer
    * view (which starts at the copied layer). */
   nir_ssa_def *pixel = nir_f2i32(&b, nir_channels(&b, nir_load_frag_coord(&b), 0x3));
   nir_ssa_def *shift = nir_load_push_constant(&b, 2, 32, nir_imm_int(&b, 0), 0, 8u);
   nir_ssa_def *texel = nir_iadd(&b, pixel, shift);
   nir_ssa_def *coordinate = nir_vec3(&b, nir_channel(&b, texel, 0), nir_channel(&b, texel, 1), nir_imm_int(&b, 0));

   nir_tex_instr *tex = nir_tex_instr_create(b.shader, 3);
   tex->op = nir_texop_txf_ms;
   tex->sampler_dim = GLSL_SAMPLER_DIM_MS;
   tex->is_array = true;
   tex->coord_components = 3;
   tex->dest_type = depth ? nir_type_float32 : nir_type_uint32;
   tex->src[0].src_type = nir_tex_src_coord;
   tex->src[0].src = nir_src_for_ssa(coordinate);
   tex->src[1].src_type = nir_tex_src_ms_index;
   tex->src[1].src = nir_src_for_ssa(nir_load_sample_id(&b)); /* the shaded sample */
   tex->src[2].src_type = nir_tex_src_texture_deref;
   tex->src[2].src = nir_src_for_ssa(&deref->dest.ssa);
   nir_ssa_dest_init(&tex->instr, &tex->dest, 4, 32, nullptr);
   nir_builder_instr_insert(&b, &tex->instr);

   if (kind == MsaaCopyKind::Colour) {
      nir_variable *out = nir_variable_create(b.shader, nir_var_shader_out, glsl_vector_type(GLSL_TYPE_UINT, 4), "colour");
      out->data.location = FRAG_RESULT_DATA0;
      nir_store_var(&b, out, &tex->dest.ssa, 0xf);
      return b.shader;
   }
   nir_variable *out = nir_variable_create(b.shader, nir_var_shader_out, depth ? glsl_float_type() : glsl_int_type(),
                                           depth ? "depth" : "stencil");
   out->data.location = depth ? FRAG_RESULT_DEPTH : FRAG_RESULT_STENCIL;
   nir_store_var(&b, out, nir_channel(&b, &tex->dest.ssa, 0), 0x1);
   return b.shader;
}

terakan_graphics_pipeline *msaa_copy_pipeline(terakan_device *device, MsaaCopyKind kind, VkResult &result)
{
   /* The source: texture resource 0, read by texelFetch only (its sampler slot is filled but
    * unused). */
   terakan::compiler::TextureBinding source;
   source.has_image = true;
   source.has_sampler = true;
   source.immutable = {terakan::compiler::SamplerCoordinates::Normalized};
   return terakan_meta_program_pair(device, device->meta->msaa_copies, uint32_t(kind), msaa_copy_pixel_shader,
                                    {source}, result);
}

/* `view` (one level and layer of its image) seen as `format` with `aspect`, its texture
 * resource words made again (a one-layer 2D_ARRAY_MSAA view for texelFetch). */
void reformat(terakan_image_view &view, VkFormat format, VkImageAspectFlags aspect, bool array)
{
   view.vk.format = view.vk.view_format = format;
   view.vk.aspects = aspect;
   if (array)
      view.vk.view_type = VK_IMAGE_VIEW_TYPE_2D_ARRAY;
   view.resource_words = terakan_image_view_words(view.image, &view);
}

/* One layer of a region: the rendering of the destination layer and the draw. */
bool copy_layer(terakan_cmd_buffer *cmd, const terakan_graphics_pipeline *pipeline, MsaaCopyKind kind,
                terakan_image *src, terakan_image *dst, const VkImageCopy2 &region, VkFormat element, uint32_t layer)
{
   const VkImageSubresourceLayers &a = region.srcSubresource, &b = region.dstSubresource;
   terakan_image_view from = terakan_meta_subresource_view(src, a.mipLevel, a.baseArrayLayer + layer);
   terakan_image_view to = terakan_meta_subresource_view(dst, b.mipLevel, b.baseArrayLayer + layer);
   const VkImageAspectFlags aspect = kind == MsaaCopyKind::Colour  ? VK_IMAGE_ASPECT_COLOR_BIT
                                     : kind == MsaaCopyKind::Depth ? VK_IMAGE_ASPECT_DEPTH_BIT
                                                                   : VK_IMAGE_ASPECT_STENCIL_BIT;
   reformat(from, element, aspect, true);
   reformat(to, element, aspect, false);

   const terakan_rendering saved = cmd->rendering;
   terakan_rendering &r = cmd->rendering;
   r = {};
   r.active = true;
   r.layer_count = 1;
   if (kind == MsaaCopyKind::Colour) {
      r.colour_count = 1;
      r.colour[0] = &to;
   } else if (kind == MsaaCopyKind::Depth) {
      r.depth = &to;
   } else {
      r.stencil = &to;
   }
   r.extent = {to.vk.extent.width, to.vk.extent.height};
   r.area = {{0, 0}, r.extent};
   const VkRect2D rect = {{region.dstOffset.x, region.dstOffset.y}, {region.extent.width, region.extent.height}};

   uint8_t push[256] = {};
   const int32_t shift[2] = {region.srcOffset.x - region.dstOffset.x, region.srcOffset.y - region.dstOffset.y};
   std::memcpy(push, shift, sizeof(shift));
   struct vk_dynamic_graphics_state dynamic;
   terakan_meta_rectangle(r, rect, 0.0f, push, dynamic);
   if (kind == MsaaCopyKind::Colour) {
      dynamic.cb.attachment_count = 1;
      dynamic.cb.color_write_enables = 0x1;
      dynamic.cb.attachments[0].write_mask = 0xf;
   } else {
      terakan_meta_write_depth_or_stencil(dynamic, kind == MsaaCopyKind::Stencil);
   }
   const bool ok = terakan_meta_draw_reading(cmd, pipeline, dynamic, push, from);
   cmd->rendering = saved;
   return ok;
}

bool refuse(terakan_cmd_buffer *cmd, const char *why)
{
   vk_command_buffer_set_error(&cmd->vk,
                               terakan_errorf(cmd, VK_ERROR_FEATURE_NOT_PRESENT, "terakan: multisampled copy: %s", why));
   return true;
}

} // namespace

bool terakan_meta_copy_multisampled(terakan_cmd_buffer *cmd, terakan_image *src, terakan_image *dst,
                                    const VkImageCopy2 &region, VkImageAspectFlags src_aspect,
                                    VkImageAspectFlags dst_aspect)
{
   if (src->vk.samples != dst->vk.samples)
      return refuse(cmd, "the images' sample counts differ");
   if (src_aspect != dst_aspect)
      return refuse(cmd, "between different aspects");
   const bool colour = src_aspect == VK_IMAGE_ASPECT_COLOR_BIT;
   const MsaaCopyKind kind = colour                                   ? MsaaCopyKind::Colour
                             : src_aspect == VK_IMAGE_ASPECT_DEPTH_BIT ? MsaaCopyKind::Depth
                                                                       : MsaaCopyKind::Stencil;
   VkFormat element = src->vk.format;
   if (colour) {
      /* Colour is read through FMASK (a 1D-tiled multisampled image, made when the board's
       * tiling configuration allows no 2D tiling, has none) and written as unsigned integers
       * of the texel's size. */
      if (!src->fmask_offset || !dst->fmask_offset)
         return refuse(cmd, "an image without FMASK (no 2D tiling on this board) cannot be read per sample");
      const terakan_format *format = terakan_copy_element_format(src->format->bytes);
      if (!format || src->format->bytes != dst->format->bytes)
         return refuse(cmd, "texels of this size have no unsigned integer colour format");
      element = format->vk;
   } else if (src->vk.format != dst->vk.format) {
      return refuse(cmd, "between different depth/stencil formats");
   }
   if (!region.extent.width || !region.extent.height)
      return true;
   VkResult result = VK_SUCCESS;
   const terakan_graphics_pipeline *pipeline = msaa_copy_pipeline(cmd->device, kind, result);
   if (!pipeline) {
      vk_command_buffer_set_error(&cmd->vk, result);
      return true;
   }
   /* The draws follow earlier writes of both images and precede later uses, as blits do. */
   terakan_emit_full_barrier(terakan_cmd_stream(cmd));
   const uint32_t layers = vk_image_subresource_layer_count(&src->vk, &region.srcSubresource);
   for (uint32_t layer = 0; layer < layers; layer++)
      if (!copy_layer(cmd, pipeline, kind, src, dst, region, element, layer))
         return true;
   terakan_emit_full_barrier(terakan_cmd_stream(cmd));
   if (terakan_debug(TERAKAN_DEBUG_COPIES))
      std::fprintf(stderr, "terakan: copy: multisampled draw, %s, %ux%u x %u layers, %u samples\n", name_of(kind),
                   region.extent.width, region.extent.height, layers, unsigned(src->vk.samples));
   return true;
}
