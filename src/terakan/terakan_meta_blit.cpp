/* vkCmdBlitImage2 as draws: for each region and layer, a RECTLIST over the destination
 * rectangle into a rendering of the destination subresource, whose pixel shader samples the
 * source subresource (pixel shader texture resource 0, sampler 0, set by the draw setup).
 *
 * Vulkan's blit maps destination pixel centre x to source coordinate
 *    u = srcOffset0 + (x - dstOffset0) * (srcOffset1 - srcOffset0) / (dstOffset1 - dstOffset0)
 * (texels, per axis), which mirrors when the offsets are reversed, and filters there with
 * the blit's filter. The pixel shader computes u = FragCoord * scale + bias from the push
 * constants and samples at u / the source level's size, level of detail 0 of a one-level view.
 * The CB converts to the destination's format (sRGB encoding included), the texture unit
 * decodes the source's (block-compressed and sRGB included). Depth (D16 and D32_SFLOAT, whose
 * values survive the trip through a float exactly: terakan_format_blits_depth) is sampled
 * through the depth aspect's view and exported as the pixel's depth into a rendering with
 * only that depth attachment, tested ALWAYS.
 *
 * Push constants: bytes 0-15 scale.xy and bias.xy, 16-23 1 / the source level's size,
 * 128-175 the rectangle's corners (terakan_meta.h). */
#include "terakan_meta.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "hw/graphics_registers.h"
#include "vk_format.h"

using terakan::compiler::ShaderStage;

namespace {

/* Numeric type of the sampled value and of the written one (Vulkan allows blits only within
 * float-like, unsigned or signed integer formats). */
enum class BlitKind : uint32_t { Float = 0, Uint = 1, Sint = 2, Depth = 3 };

BlitKind kind_of(VkFormat format)
{
   if (vk_format_is_depth_or_stencil(format))
      return BlitKind::Depth;
   if (!vk_format_is_int(format))
      return BlitKind::Float;
   return vk_format_is_sint(format) ? BlitKind::Sint : BlitKind::Uint;
}

nir_shader *blit_pixel_shader(BlitKind kind)
{
   nir_builder b = terakan::compiler::begin_graphics_nir(ShaderStage::Fragment, "terakan blit pixel shader");
   const glsl_base_type base = kind == BlitKind::Float  ? GLSL_TYPE_FLOAT
                               : kind == BlitKind::Uint ? GLSL_TYPE_UINT
                                                        : GLSL_TYPE_INT;

   nir_ssa_def *position = nir_channels(&b, nir_load_frag_coord(&b), 0x3);
   nir_ssa_def *transform = nir_load_push_constant(&b, 4, 32, nir_imm_int(&b, 0), 0, 24u);
   nir_ssa_def *inverse_size = nir_load_push_constant(&b, 2, 32, nir_imm_int(&b, 16), 0, 24u);
   nir_ssa_def *texels = nir_ffma(&b, position, nir_channels(&b, transform, 0x3), nir_channels(&b, transform, 0xc));
   nir_ssa_def *coordinate = nir_fmul(&b, texels, inverse_size);

   const glsl_type *sampler_type = glsl_sampler_type(GLSL_SAMPLER_DIM_2D, false, false, base);
   nir_variable *source = nir_variable_create(b.shader, nir_var_uniform, sampler_type, "source");
   source->data.descriptor_set = 0;
   source->data.binding = 0;
   nir_deref_instr *deref = nir_build_deref_var(&b, source);

   nir_tex_instr *tex = nir_tex_instr_create(b.shader, 4);
   tex->op = nir_texop_txl;
   tex->sampler_dim = GLSL_SAMPLER_DIM_2D;
   tex->coord_components = 2;
   tex->dest_type = kind == BlitKind::Float ? nir_type_float32 : kind == BlitKind::Uint ? nir_type_uint32 : nir_type_int32;
   tex->src[0].src_type = nir_tex_src_coord;
   tex->src[0].src = nir_src_for_ssa(coordinate);
   tex->src[1].src_type = nir_tex_src_lod;
   tex->src[1].src = nir_src_for_ssa(nir_imm_float(&b, 0.0f));
   tex->src[2].src_type = nir_tex_src_texture_deref;
   tex->src[2].src = nir_src_for_ssa(&deref->dest.ssa);
   tex->src[3].src_type = nir_tex_src_sampler_deref;
   tex->src[3].src = nir_src_for_ssa(&deref->dest.ssa);
   nir_ssa_dest_init(&tex->instr, &tex->dest, 4, 32, nullptr);
   nir_builder_instr_insert(&b, &tex->instr);

   if (kind == BlitKind::Depth) {
      /* The source's depth aspect reads as x; the pixel shader exports it as the depth. */
      nir_variable *out = nir_variable_create(b.shader, nir_var_shader_out, glsl_float_type(), "depth");
      out->data.location = FRAG_RESULT_DEPTH;
      nir_store_var(&b, out, nir_channel(&b, &tex->dest.ssa, 0), 0x1);
      return b.shader;
   }
   const glsl_type *out_type = glsl_vector_type(base, 4);
   nir_variable *out = nir_variable_create(b.shader, nir_var_shader_out, out_type, "colour");
   out->data.location = FRAG_RESULT_DATA0;
   nir_store_var(&b, out, &tex->dest.ssa, 0xf);
   return b.shader;
}

nir_shader *blit_pixel_shader_for_key(uint32_t key)
{
   return blit_pixel_shader(BlitKind(key));
}

terakan_graphics_pipeline *blit_pipeline(terakan_device *device, BlitKind kind, VkResult &result)
{
   /* The source: texture resource 0 and sampler 0, always normalized coordinates. */
   terakan::compiler::TextureBinding source;
   source.has_image = source.has_sampler = true;
   source.immutable = {terakan::compiler::SamplerCoordinates::Normalized};
   return terakan_meta_program_pair(device, device->meta->blits, uint32_t(kind), blit_pixel_shader_for_key, {source},
                                    result);
}

/* One region's layer: the rendering of the destination subresource, the draw. */
bool blit_layer(terakan_cmd_buffer *cmd, const terakan_graphics_pipeline *pipeline, terakan_image *source,
                terakan_image *destination, const VkImageBlit2 &region, uint32_t layer, VkFilter filter)
{
   terakan_image_view from = terakan_meta_subresource_view(source, region.srcSubresource.mipLevel,
                                                           region.srcSubresource.baseArrayLayer + layer);
   terakan_image_view to = terakan_meta_subresource_view(destination, region.dstSubresource.mipLevel,
                                                         region.dstSubresource.baseArrayLayer + layer);
   const VkOffset3D *s = region.srcOffsets, *d = region.dstOffsets;
   const int32_t x0 = std::min(d[0].x, d[1].x), x1 = std::max(d[0].x, d[1].x);
   const int32_t y0 = std::min(d[0].y, d[1].y), y1 = std::max(d[0].y, d[1].y);
   if (x0 == x1 || y0 == y1)
      return true;

   const terakan_rendering saved = cmd->rendering;
   terakan_rendering &r = cmd->rendering;
   r = {};
   r.active = true;
   r.layer_count = 1;
   const bool depth = destination->format->depth;
   if (depth) {
      r.depth = &to;
   } else {
      r.colour_count = 1;
      r.colour[0] = &to;
   }
   r.extent = {to.vk.extent.width, to.vk.extent.height};
   r.area = {{0, 0}, r.extent};
   const VkRect2D rect = {{x0, y0}, {uint32_t(x1 - x0), uint32_t(y1 - y0)}};

   uint8_t push[256] = {};
   const float scale[2] = {float(s[1].x - s[0].x) / float(d[1].x - d[0].x),
                           float(s[1].y - s[0].y) / float(d[1].y - d[0].y)};
   const float transform[6] = {scale[0],
                               scale[1],
                               float(s[0].x) - float(d[0].x) * scale[0],
                               float(s[0].y) - float(d[0].y) * scale[1],
                               1.0f / float(from.vk.extent.width),
                               1.0f / float(from.vk.extent.height)};
   std::memcpy(push, transform, sizeof(transform));
   struct vk_dynamic_graphics_state dynamic;
   terakan_meta_rectangle(r, rect, 0.0f, push, dynamic);
   if (depth) {
      /* Every covered pixel takes the exported depth. */
      dynamic.ds.depth.test_enable = true;
      dynamic.ds.depth.write_enable = true;
      dynamic.ds.depth.compare_op = VK_COMPARE_OP_ALWAYS;
   } else {
      dynamic.cb.attachment_count = 1;
      dynamic.cb.color_write_enables = 0x1;
      dynamic.cb.attachments[0].write_mask = 0xf;
   }

   /* Clamp to edge, no mipmapping: the view has one level. */
   VkSamplerCreateInfo sampler_info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
   sampler_info.magFilter = sampler_info.minFilter = filter;
   sampler_info.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
   sampler_info.addressModeU = sampler_info.addressModeV = sampler_info.addressModeW =
      VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
   const terakan_sampler_state sampler = terakan_sampler_state_of(cmd->device->physical, &sampler_info);

   terakan_draw_setup setup;
   setup.pipeline = pipeline;
   setup.dynamic = &dynamic;
   setup.push_constants = push;
   setup.primitive_type = terakan::hw::gfx::RectList;
   setup.meta_texture = &from;
   setup.meta_sampler = &sampler.words;
   const bool ok = terakan_meta_draw_rectangle(cmd, setup);
   cmd->rendering = saved;
   return ok;
}

} // namespace

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdBlitImage2(VkCommandBuffer commandBuffer, const VkBlitImageInfo2 *info)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   VK_FROM_HANDLE(terakan_image, source, info->srcImage);
   VK_FROM_HANDLE(terakan_image, destination, info->dstImage);
   if (!source->memory || !destination->memory)
      return;
   terakan_colour_target target;
   const bool depth = source->format->depth || destination->format->depth;
   const bool supported = depth ? terakan_format_blits_depth(source->format) && source->vk.format == destination->vk.format
                                : terakan_colour_target_format(destination->vk.format, target);
   if (!supported || source->surface.is_3d || destination->surface.is_3d) {
      vk_command_buffer_set_error(&cmd->vk, terakan_errorf(cmd, VK_ERROR_FEATURE_NOT_PRESENT,
                                                           "terakan: vkCmdBlitImage of stencil, 24-bit depth or 3D "
                                                           "images, or into a format the colour buffer cannot write, "
                                                           "is not supported"));
      return;
   }
   VkResult result = VK_SUCCESS;
   const terakan_graphics_pipeline *pipeline = blit_pipeline(cmd->device, kind_of(source->vk.format), result);
   if (!pipeline) {
      vk_command_buffer_set_error(&cmd->vk, result);
      return;
   }
   /* Blits follow earlier writes of the source and destination and precede later uses. */
   terakan_emit_full_barrier(terakan_cmd_stream(cmd));
   for (uint32_t i = 0; i < info->regionCount; i++) {
      const VkImageBlit2 &region = info->pRegions[i];
      const uint32_t layers = vk_image_subresource_layer_count(&source->vk, &region.srcSubresource);
      for (uint32_t layer = 0; layer < layers; layer++)
         if (!blit_layer(cmd, pipeline, source, destination, region, layer, info->filter))
            return;
   }
   terakan_emit_full_barrier(terakan_cmd_stream(cmd));
   if (destination->format->depth)
      for (uint32_t i = 0; i < info->regionCount; i++) {
         const VkImageSubresourceLayers &to = info->pRegions[i].dstSubresource;
         terakan_cmd_refresh_sampling_copy(cmd, destination, to.mipLevel, 1, to.baseArrayLayer,
                                           vk_image_subresource_layer_count(&destination->vk, &to));
      }
}
