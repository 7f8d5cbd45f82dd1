/* Depth and stencil resolves (VK_KHR_depth_stencil_resolve) as draws. The CB's RESOLVE mode
 * averages colour only, and the DB has no resolve, so each layer of a multisampled depth or
 * stencil attachment is resolved by a RECTLIST over the render area into a rendering of the
 * single-sample destination alone, whose pixel shader reads every sample of its pixel with
 * texelFetch (LD of the source's 2D_ARRAY_MSAA view, as api-msaa-sampling reads them) and
 * exports the result:
 *   - depth: SAMPLE_ZERO, AVERAGE, MIN or MAX of the samples as FragDepth (PIXEL 61 x), the
 *     depth test ALWAYS with writes on;
 *   - stencil: SAMPLE_ZERO, MIN or MAX as FragStencilRefEXT (PIXEL 61 y, STENCIL_REF_EXPORT),
 *     the stencil test ALWAYS with REPLACE and every bit written, depth untouched.
 * A format with both aspects resolving both takes two draws, one per aspect. */
#include "terakan_meta.h"

#include <cstring>

#include "hw/graphics_registers.h"

using terakan::compiler::ShaderStage;

namespace {

/* The program key: the aspect (bit 0: stencil), the mode (VkResolveModeFlagBits, bits 1-4),
 * the sample count (bits 8-15). */
uint32_t key_of(bool stencil, VkResolveModeFlagBits mode, uint32_t samples)
{
   return uint32_t(stencil) | (uint32_t(mode) << 1) | (samples << 8);
}

nir_shader *resolve_pixel_shader(uint32_t key)
{
   const bool stencil = key & 1;
   const auto mode = VkResolveModeFlagBits((key >> 1) & 0xf);
   const uint32_t samples = (key >> 8) & 0xff;
   nir_builder b = terakan::compiler::begin_graphics_nir(ShaderStage::Fragment, "terakan depth/stencil resolve");
   const glsl_base_type base = stencil ? GLSL_TYPE_UINT : GLSL_TYPE_FLOAT;
   nir_variable *source = nir_variable_create(b.shader, nir_var_uniform,
                                              glsl_sampler_type(GLSL_SAMPLER_DIM_MS, false, true, base), "source");
   source->data.descriptor_set = 0;
   source->data.binding = 0;
   nir_deref_instr *deref = nir_build_deref_var(&b, source);
   nir_ssa_def *pixel = nir_f2i32(&b, nir_channels(&b, nir_load_frag_coord(&b), 0x3));
   /* Layer 0 of the one-layer view, which starts at the resolved layer. */
   nir_ssa_def *coordinate = nir_vec3(&b, nir_channel(&b, pixel, 0), nir_channel(&b, pixel, 1), nir_imm_int(&b, 0));

   nir_ssa_def *result = nullptr;
   const uint32_t reads = mode == VK_RESOLVE_MODE_SAMPLE_ZERO_BIT ? 1 : samples;
   for (uint32_t s = 0; s < reads; s++) {
      nir_tex_instr *tex = nir_tex_instr_create(b.shader, 3);
      tex->op = nir_texop_txf_ms;
      tex->sampler_dim = GLSL_SAMPLER_DIM_MS;
      tex->is_array = true;
      tex->coord_components = 3;
      tex->dest_type = stencil ? nir_type_uint32 : nir_type_float32;
      tex->src[0].src_type = nir_tex_src_coord;
      tex->src[0].src = nir_src_for_ssa(coordinate);
      tex->src[1].src_type = nir_tex_src_ms_index;
      tex->src[1].src = nir_src_for_ssa(nir_imm_int(&b, int(s)));
      tex->src[2].src_type = nir_tex_src_texture_deref;
      tex->src[2].src = nir_src_for_ssa(&deref->dest.ssa);
      nir_ssa_dest_init(&tex->instr, &tex->dest, 4, 32, nullptr);
      nir_builder_instr_insert(&b, &tex->instr);
      nir_ssa_def *value = nir_channel(&b, &tex->dest.ssa, 0);
      if (!result)
         result = value;
      else if (mode == VK_RESOLVE_MODE_AVERAGE_BIT)
         result = nir_fadd(&b, result, value);
      else if (mode == VK_RESOLVE_MODE_MIN_BIT)
         result = stencil ? nir_umin(&b, result, value) : nir_fmin(&b, result, value);
      else
         result = stencil ? nir_umax(&b, result, value) : nir_fmax(&b, result, value);
   }
   if (mode == VK_RESOLVE_MODE_AVERAGE_BIT)
      result = nir_fmul_imm(&b, result, 1.0 / double(samples));

   nir_variable *out = nir_variable_create(b.shader, nir_var_shader_out, stencil ? glsl_int_type() : glsl_float_type(),
                                           stencil ? "stencil" : "depth");
   out->data.location = stencil ? FRAG_RESULT_STENCIL : FRAG_RESULT_DEPTH;
   nir_store_var(&b, out, result, 0x1);
   return b.shader;
}

terakan_graphics_pipeline *resolve_pipeline(terakan_device *device, uint32_t key, VkResult &result)
{
   /* The source: texture resource 0, read by texelFetch only (its sampler slot is filled but
    * unused). */
   terakan::compiler::TextureBinding source;
   source.has_image = true;
   source.has_sampler = true;
   source.immutable = {terakan::compiler::SamplerCoordinates::Normalized};
   return terakan_meta_program_pair(device, device->meta->depth_resolves, key, resolve_pixel_shader, {source}, result);
}

} // namespace

bool terakan_depth_resolve_mode_supported(bool stencil, VkResolveModeFlagBits mode)
{
   return mode == VK_RESOLVE_MODE_SAMPLE_ZERO_BIT || mode == VK_RESOLVE_MODE_MIN_BIT ||
          mode == VK_RESOLVE_MODE_MAX_BIT || (!stencil && mode == VK_RESOLVE_MODE_AVERAGE_BIT);
}

bool terakan_meta_depth_stencil_resolve(terakan_cmd_buffer *cmd, terakan_image_view *source,
                                        terakan_image_view *destination, bool stencil, VkResolveModeFlagBits mode,
                                        const VkRect2D &area, uint32_t layer)
{
   VkResult result = VK_SUCCESS;
   const terakan_graphics_pipeline *pipeline =
      resolve_pipeline(cmd->device, key_of(stencil, mode, source->image->vk.samples), result);
   if (!pipeline) {
      vk_command_buffer_set_error(&cmd->vk, result);
      return false;
   }
   /* The source's layer as a one-layer 2D-array multisampled view of the resolved aspect. */
   terakan_image_view from =
      terakan_meta_subresource_view(source->image, source->vk.base_mip_level, source->vk.base_array_layer + layer);
   from.vk.view_type = VK_IMAGE_VIEW_TYPE_2D_ARRAY;
   from.vk.aspects = stencil ? VK_IMAGE_ASPECT_STENCIL_BIT : VK_IMAGE_ASPECT_DEPTH_BIT;
   from.resource_words = terakan_image_view_words(from.image, &from);
   terakan_image_view to = terakan_meta_subresource_view(destination->image, destination->vk.base_mip_level,
                                                         destination->vk.base_array_layer + layer);

   const terakan_rendering saved = cmd->rendering;
   terakan_rendering &r = cmd->rendering;
   r = {};
   r.active = true;
   r.layer_count = 1;
   if (stencil)
      r.stencil = &to;
   else
      r.depth = &to;
   r.extent = {to.vk.extent.width, to.vk.extent.height};
   r.area = {{0, 0}, r.extent};

   uint8_t push[256] = {};
   struct vk_dynamic_graphics_state dynamic;
   terakan_meta_rectangle(r, area, 0.0f, push, dynamic);
   terakan_meta_write_depth_or_stencil(dynamic, stencil);
   const bool ok = terakan_meta_draw_reading(cmd, pipeline, dynamic, push, from);
   cmd->rendering = saved;
   return ok;
}
