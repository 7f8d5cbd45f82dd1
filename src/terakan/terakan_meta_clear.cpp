/* Clears as draws (the meta rule of the design: the driver's own shaders are built with
 * nir_builder and compiled by Terakan's compiler, never hand-assembled): a RECTLIST over the
 * cleared rectangle, a vertex shader that places its three corners from the push constants,
 * and a pixel shader that exports each cleared attachment's value from the push constants.
 * Depth is cleared by the rectangle's own depth with the test ALWAYS and writes on; stencil by
 * the stencil test ALWAYS with every operation REPLACE, the reference the clear value and all
 * eight bits written.
 *
 * Push constants of a clear: bytes 16 i .. 16 i + 15 the value of colour attachment i (its
 * 32-bit channels as the attachment's numeric type, which the CB converts), bytes 128 .. 175
 * the three corners (clip-space x, y, z, w).
 *
 * vkCmdClearAttachments and load-op clears that do not cover whole attachments come here;
 * whole-attachment load-op clears stay CP DMA fills (terakan_cmd_draw.cpp), which need no
 * draw state at all. */
#include "terakan_meta.h"

#include <algorithm>
#include <cstring>

#include "hw/graphics_registers.h"
#include "vk_format.h"

using terakan::compiler::ShaderStage;

/* Per attachment, how the pixel shader declares its output: not cleared, float, uint, sint. */
enum class ClearKind : uint32_t { None = 0, Float = 1, Uint = 2, Sint = 3 };

terakan_meta *terakan_meta_create()
{
   return new (std::nothrow) terakan_meta();
}

void terakan_meta_destroy(terakan_meta *meta)
{
   if (!meta)
      return;
   for (auto &[key, pipeline] : meta->clears)
      terakan_graphics_pipeline_destroy(pipeline);
   for (auto &[key, pipeline] : meta->blits)
      terakan_graphics_pipeline_destroy(pipeline);
   for (auto &[key, pipeline] : meta->depth_resolves)
      terakan_graphics_pipeline_destroy(pipeline);
   for (auto &[key, pipeline] : meta->msaa_copies)
      terakan_graphics_pipeline_destroy(pipeline);
   delete meta;
}

static constexpr unsigned corner_bytes = terakan_meta_corner_bytes;

nir_shader *terakan_meta_vertex_shader()
{
   nir_builder b = terakan::compiler::begin_graphics_nir(ShaderStage::Vertex, "terakan clear vertex shader");
   nir_ssa_def *offset = nir_imul_imm(&b, nir_load_vertex_id(&b), 16);
   nir_ssa_def *corner = nir_load_push_constant(&b, 4, 32, offset, int(corner_bytes), 48u); /* base, range */
   nir_variable *position = nir_variable_create(b.shader, nir_var_shader_out, glsl_vec4_type(), "position");
   position->data.location = VARYING_SLOT_POS;
   nir_store_var(&b, position, corner, 0xf);
   return b.shader;
}

static nir_shader *clear_pixel_shader(uint32_t key)
{
   nir_builder b = terakan::compiler::begin_graphics_nir(ShaderStage::Fragment, "terakan clear pixel shader");
   for (unsigned i = 0; i < 8; i++) {
      const ClearKind kind = ClearKind((key >> (2 * i)) & 3);
      if (kind == ClearKind::None)
         continue;
      const glsl_type *type = kind == ClearKind::Float ? glsl_vec4_type()
                              : kind == ClearKind::Uint ? glsl_uvec4_type()
                                                        : glsl_ivec4_type();
      nir_variable *out = nir_variable_create(b.shader, nir_var_shader_out, type, "colour");
      out->data.location = FRAG_RESULT_DATA0 + i;
      nir_ssa_def *value = nir_load_push_constant(&b, 4, 32, nir_imm_int(&b, 0), int(16 * i), 16u);
      nir_store_var(&b, out, value, 0xf);
   }
   return b.shader;
}

VkResult terakan_meta_build_stage(terakan_device *device, nir_shader *shader, ShaderStage stage,
                                  terakan_graphics_stage &out,
                                  const std::vector<terakan::compiler::TextureBinding> &textures)
{
   terakan::compiler::CompileOptions options;
   options.texture_bindings = textures;
   options.family = device->physical->pci->family;
   options.debug = terakan::compiler::debug_options_from_environment();
   std::string error;
   if (!terakan::compiler::compile_graphics_nir(shader, stage, options, out.binary, error))
      return terakan_errorf(device, VK_ERROR_UNKNOWN, "terakan: the driver's own shaders do not compile: %s",
                            error.c_str());
   return terakan_upload_code(device, out.binary.code, out.code_bo);
}

terakan_graphics_pipeline *terakan_meta_program_pair(terakan_device *device,
                                                     std::map<uint32_t, terakan_graphics_pipeline *> &programs,
                                                     uint32_t key, nir_shader *(*make_pixel_shader)(uint32_t),
                                                     const std::vector<terakan::compiler::TextureBinding> &textures,
                                                     VkResult &result)
{
   std::lock_guard<std::mutex> guard(device->meta->lock);
   auto found = programs.find(key);
   if (found != programs.end())
      return found->second;
   auto *pipeline = new (std::nothrow) terakan_graphics_pipeline();
   if (!pipeline) {
      result = VK_ERROR_OUT_OF_HOST_MEMORY;
      return nullptr;
   }
   result = terakan_meta_build_stage(device, terakan_meta_vertex_shader(), ShaderStage::Vertex, pipeline->vertex);
   if (result == VK_SUCCESS)
      result = terakan_meta_build_stage(device, make_pixel_shader(key), ShaderStage::Fragment, pipeline->fragment,
                                        textures);
   if (result != VK_SUCCESS) {
      terakan_graphics_pipeline_destroy(pipeline);
      return nullptr;
   }
   programs[key] = pipeline;
   return pipeline;
}

/* The clear program pair for `key` (the 2-bit kinds of targets 0-7). */
static terakan_graphics_pipeline *clear_pipeline(terakan_device *device, uint32_t key, VkResult &result)
{
   return terakan_meta_program_pair(device, device->meta->clears, key, clear_pixel_shader, {}, result);
}

static ClearKind kind_of(VkFormat format)
{
   return vk_format_is_int(format) ? (vk_format_is_sint(format) ? ClearKind::Sint : ClearKind::Uint)
                                   : ClearKind::Float;
}

void terakan_meta_rectangle(const terakan_rendering &r, const VkRect2D &rect, float depth, uint8_t *push,
                            struct vk_dynamic_graphics_state &dynamic)
{
   const float width = float(r.extent.width), height = float(r.extent.height);
   auto clip_x = [&](float x) { return 2.0f * x / width - 1.0f; };
   auto clip_y = [&](float y) { return 2.0f * y / height - 1.0f; };
   const float x0 = clip_x(float(rect.offset.x)), x1 = clip_x(float(rect.offset.x) + float(rect.extent.width));
   const float y0 = clip_y(float(rect.offset.y)), y1 = clip_y(float(rect.offset.y) + float(rect.extent.height));
   const float corners[12] = {x0, y0, depth, 1.0f, x1, y0, depth, 1.0f, x0, y1, depth, 1.0f};
   std::memcpy(push + corner_bytes, corners, sizeof(corners));
   vk_dynamic_graphics_state_init(&dynamic);
   dynamic.vp.viewport_count = dynamic.vp.scissor_count = 1;
   dynamic.vp.viewports[0] = {0, 0, width, height, 0, 1};
   dynamic.vp.scissors[0] = rect;
   dynamic.rs.cull_mode = VK_CULL_MODE_NONE;
   dynamic.rs.line.width = 1.0f;
}

bool terakan_meta_clear(terakan_cmd_buffer *cmd, const VkRect2D &rect, uint32_t colour_mask,
                        const VkClearColorValue *values, bool clear_depth, float depth, bool clear_stencil,
                        uint32_t stencil)
{
   const terakan_rendering &r = cmd->rendering;
   uint32_t key = 0;
   for (uint32_t i = 0; i < r.colour_count; i++)
      if ((colour_mask & (1u << i)) && r.colour[i])
         key |= uint32_t(kind_of(r.colour[i]->vk.format)) << (2 * i);
   clear_depth = clear_depth && r.depth;
   clear_stencil = clear_stencil && r.stencil;
   if (!key && !clear_depth && !clear_stencil)
      return true;
   VkResult result = VK_SUCCESS;
   const terakan_graphics_pipeline *pipeline = clear_pipeline(cmd->device, key, result);
   if (!pipeline) {
      vk_command_buffer_set_error(&cmd->vk, result);
      return false;
   }

   uint8_t push[256] = {};
   for (uint32_t i = 0; i < 8; i++)
      if (key >> (2 * i) & 3)
         std::memcpy(push + 16 * i, &values[i], 16);
   struct vk_dynamic_graphics_state dynamic;
   terakan_meta_rectangle(r, rect, depth, push, dynamic);
   dynamic.ds.depth.test_enable = clear_depth;
   dynamic.ds.depth.write_enable = clear_depth;
   dynamic.ds.depth.compare_op = VK_COMPARE_OP_ALWAYS;
   dynamic.ds.stencil.test_enable = clear_stencil;
   for (vk_stencil_test_face_state *face : {&dynamic.ds.stencil.front, &dynamic.ds.stencil.back}) {
      face->op.fail = face->op.pass = face->op.depth_fail = VK_STENCIL_OP_REPLACE;
      face->op.compare = VK_COMPARE_OP_ALWAYS;
      face->compare_mask = face->write_mask = 0xff;
      face->reference = uint8_t(stencil);
   }
   dynamic.cb.attachment_count = 8;
   dynamic.cb.color_write_enables = 0xff;
   for (uint32_t i = 0; i < 8; i++)
      dynamic.cb.attachments[i].write_mask = (key >> (2 * i) & 3) ? 0xf : 0;

   terakan_draw_setup setup;
   setup.pipeline = pipeline;
   setup.dynamic = &dynamic;
   setup.push_constants = push;
   setup.primitive_type = terakan::hw::gfx::RectList;
   return terakan_meta_draw_rectangle(cmd, setup);
}

bool terakan_meta_draw_rectangle(terakan_cmd_buffer *cmd, const terakan_draw_setup &setup)
{
   terakan::winsys::CommandStream &cs = terakan_cmd_stream(cmd);
   if (!terakan_emit_draw_state(cmd, cs, setup, 0, 0, false))
      return false;
   cs.packet(terakan::hw::pm4::NUM_INSTANCES, 1);
   cs.emit(1);
   terakan_draw_packet(cmd, cs, terakan::hw::pm4::DRAW_INDEX_AUTO, 2, false, cmd->meta_draws_conditional);
   cs.emit(3);
   cs.emit(2); /* SOURCE_SELECT: auto index */
   return true;
}

void terakan_meta_write_depth_or_stencil(struct vk_dynamic_graphics_state &dynamic, bool stencil)
{
   if (!stencil) {
      dynamic.ds.depth.test_enable = true;
      dynamic.ds.depth.write_enable = true;
      dynamic.ds.depth.compare_op = VK_COMPARE_OP_ALWAYS;
      return;
   }
   dynamic.ds.stencil.test_enable = true;
   for (vk_stencil_test_face_state *face : {&dynamic.ds.stencil.front, &dynamic.ds.stencil.back}) {
      face->op.fail = VK_STENCIL_OP_KEEP;
      face->op.depth_fail = VK_STENCIL_OP_KEEP;
      face->op.pass = VK_STENCIL_OP_REPLACE;
      face->op.compare = VK_COMPARE_OP_ALWAYS;
      face->compare_mask = face->write_mask = 0xff;
      face->reference = 0; /* the shader's reference replaces it */
   }
}

bool terakan_meta_draw_reading(terakan_cmd_buffer *cmd, const terakan_graphics_pipeline *pipeline,
                               const struct vk_dynamic_graphics_state &dynamic, const uint8_t *push,
                               const terakan_image_view &texture)
{
   VkSamplerCreateInfo sampler_info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
   const terakan_sampler_state sampler = terakan_sampler_state_of(cmd->device->physical, &sampler_info);
   terakan_draw_setup setup;
   setup.pipeline = pipeline;
   setup.dynamic = &dynamic;
   setup.push_constants = push;
   setup.primitive_type = terakan::hw::gfx::RectList;
   setup.meta_texture = &texture;
   setup.meta_sampler = &sampler.words;
   return terakan_meta_draw_rectangle(cmd, setup);
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdClearAttachments(VkCommandBuffer commandBuffer, uint32_t attachmentCount,
                            const VkClearAttachment *pAttachments, uint32_t rectCount, const VkClearRect *pRects)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   uint32_t mask = 0;
   VkClearColorValue values[8] = {};
   bool depth = false, stencil = false;
   float depth_value = 0;
   uint32_t stencil_value = 0;
   for (uint32_t a = 0; a < attachmentCount; a++) {
      const VkClearAttachment &attachment = pAttachments[a];
      if (attachment.aspectMask & VK_IMAGE_ASPECT_COLOR_BIT) {
         if (attachment.colorAttachment < 8) {
            mask |= 1u << attachment.colorAttachment;
            values[attachment.colorAttachment] = attachment.clearValue.color;
         }
      }
      if (attachment.aspectMask & VK_IMAGE_ASPECT_DEPTH_BIT) {
         depth = true;
         depth_value = attachment.clearValue.depthStencil.depth;
      }
      if (attachment.aspectMask & VK_IMAGE_ASPECT_STENCIL_BIT) {
         stencil = true;
         stencil_value = attachment.clearValue.depthStencil.stencil;
      }
   }
   /* Each rectangle on its layers, one clear draw per layer; under multiview on every view
    * of the view mask instead (Vulkan then requires layer 0 and one layer). */
   terakan_rendering &r = cmd->rendering;
   /* Conditional rendering applies to vkCmdClearAttachments (and not to load-op clears). */
   cmd->meta_draws_conditional = true;
   struct Restore {
      terakan_cmd_buffer *cmd;
      ~Restore() { cmd->meta_draws_conditional = false; }
   } restore{cmd};
   for (uint32_t i = 0; i < rectCount; i++) {
      const VkClearRect &rect = pRects[i];
      auto clear = [&] { return terakan_meta_clear(cmd, rect.rect, mask, values, depth, depth_value, stencil, stencil_value); };
      if (r.view_mask) {
         if (!terakan_for_each_layer(cmd, true, clear))
            return;
         continue;
      }
      const uint32_t saved_layer = r.layer;
      bool ok = true;
      for (uint32_t layer = rect.baseArrayLayer; layer < rect.baseArrayLayer + rect.layerCount && ok; layer++) {
         r.layer = layer;
         ok = clear();
      }
      r.layer = saved_layer;
      if (!ok)
         return;
   }
}

/* ---- resolves ---- */

bool terakan_meta_resolve(terakan_cmd_buffer *cmd, terakan_image_view *source, terakan_image_view *destination,
                          const VkRect2D &area, uint32_t layer)
{
   const VkRect2D rect = area; /* `area` may be the rendering's, which is replaced below */
   /* The clear pair of one float target serves: in RESOLVE mode the CB writes no export, the
    * draw only names the pixels (a RECTLIST over `rect`). */
   VkResult result = VK_SUCCESS;
   const terakan_graphics_pipeline *pipeline = clear_pipeline(cmd->device, uint32_t(ClearKind::Float), result);
   if (!pipeline) {
      vk_command_buffer_set_error(&cmd->vk, result);
      return false;
   }
   const terakan_rendering saved = cmd->rendering;
   terakan_rendering &r = cmd->rendering;
   r = {};
   r.active = true;
   r.layer_count = 1;
   r.colour_count = 2;
   r.colour[0] = source;
   r.colour[1] = destination;
   r.layer = layer; /* of both views */
   r.extent = {std::min(source->vk.extent.width, destination->vk.extent.width),
               std::min(source->vk.extent.height, destination->vk.extent.height)};
   r.area = rect;

   uint8_t push[256] = {};
   struct vk_dynamic_graphics_state dynamic;
   terakan_meta_rectangle(r, rect, 0.0f, push, dynamic);
   /* CB_TARGET_MASK: CB_COLOR0 (the source) only, all channels; the destination takes the
    * resolved pixels. */
   dynamic.cb.attachment_count = 8;
   dynamic.cb.color_write_enables = 0xff;
   dynamic.cb.attachments[0].write_mask = 0xf;

   terakan_draw_setup setup;
   setup.pipeline = pipeline;
   setup.dynamic = &dynamic;
   setup.push_constants = push;
   setup.primitive_type = terakan::hw::gfx::RectList;
   setup.resolve = true;
   const bool ok = terakan_meta_draw_rectangle(cmd, setup);
   cmd->rendering = saved;
   return ok;
}

terakan_image_view terakan_meta_subresource_view(terakan_image *image, uint32_t level, uint32_t layer)
{
   terakan_image_view view{};
   view.image = image;
   view.vk.image = &image->vk;
   view.vk.view_type = VK_IMAGE_VIEW_TYPE_2D;
   view.vk.format = image->vk.format;
   view.vk.view_format = image->vk.format;
   view.vk.base_mip_level = level;
   view.vk.level_count = 1;
   view.vk.base_array_layer = layer;
   view.vk.layer_count = 1;
   view.vk.extent = vk_image_mip_level_extent(&image->vk, level);
   view.resource_words = terakan_image_view_words(image, &view);
   return view;
}

/* vkCmdResolveImage: each region's layers by a RESOLVE draw over its rectangle. The CB writes
 * pixel (x, y) of the source to (x, y) of the destination, so a region must not move. */
extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdResolveImage2(VkCommandBuffer commandBuffer, const VkResolveImageInfo2 *info)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   VK_FROM_HANDLE(terakan_image, source, info->srcImage);
   VK_FROM_HANDLE(terakan_image, destination, info->dstImage);
   if (!source->memory || !destination->memory)
      return;
   if (vk_format_is_int(source->vk.format) || source->vk.format != destination->vk.format) {
      vk_command_buffer_set_error(&cmd->vk, terakan_errorf(cmd, VK_ERROR_FEATURE_NOT_PRESENT,
                                                           "terakan: vkCmdResolveImage of integer formats or "
                                                           "between formats is not supported"));
      return;
   }
   terakan::winsys::CommandStream &cs = terakan_cmd_stream(cmd);
   terakan_emit_full_barrier(cs);
   for (uint32_t i = 0; i < info->regionCount; i++) {
      const VkImageResolve2 &region = info->pRegions[i];
      if (region.srcOffset.x != region.dstOffset.x || region.srcOffset.y != region.dstOffset.y) {
         vk_command_buffer_set_error(&cmd->vk, terakan_errorf(cmd, VK_ERROR_FEATURE_NOT_PRESENT,
                                                              "terakan: vkCmdResolveImage to another offset is not "
                                                              "supported (the CB resolves in place)"));
         return;
      }
      const VkRect2D rect = {{region.srcOffset.x, region.srcOffset.y}, {region.extent.width, region.extent.height}};
      const uint32_t layers = vk_image_subresource_layer_count(&source->vk, &region.srcSubresource);
      for (uint32_t l = 0; l < layers; l++) {
         terakan_image_view from = terakan_meta_subresource_view(source, region.srcSubresource.mipLevel,
                                                    region.srcSubresource.baseArrayLayer + l);
         terakan_image_view to = terakan_meta_subresource_view(destination, region.dstSubresource.mipLevel,
                                                  region.dstSubresource.baseArrayLayer + l);
         if (!terakan_meta_resolve(cmd, &from, &to, rect))
            return;
      }
   }
   terakan_emit_full_barrier(terakan_cmd_stream(cmd));
}

/* ---- clears of images outside rendering ---- */

/* Clears one level and layer of `image` by a clear draw over a rendering of just that
 * subresource (the command buffer is outside any rendering, as Vulkan requires). */
static bool clear_subresource(terakan_cmd_buffer *cmd, terakan_image *image, uint32_t level, uint32_t layer,
                              bool depth, bool stencil, const VkClearValue &value)
{
   terakan_image_view view = terakan_meta_subresource_view(image, level, layer);

   const terakan_rendering saved = cmd->rendering;
   terakan_rendering &r = cmd->rendering;
   r = {};
   r.active = true;
   r.layer_count = 1;
   r.extent = {view.vk.extent.width, view.vk.extent.height};
   r.area = {{0, 0}, r.extent};
   const bool colour = !depth && !stencil;
   if (depth)
      r.depth = &view;
   if (stencil)
      r.stencil = &view;
   if (colour) {
      r.colour_count = 1;
      r.colour[0] = &view;
   }
   VkClearColorValue values[8] = {value.color};
   const bool ok = terakan_meta_clear(cmd, r.area, colour ? 1 : 0, values, depth, value.depthStencil.depth, stencil,
                                      value.depthStencil.stencil);
   cmd->rendering = saved;
   return ok;
}

/* Clears `ranges` of `image`: each level's layers by one CP DMA fill when the value repeats
 * every 32 bits, else by a clear draw per layer (formats the CB or DB writes). Depth/stencil
 * images: the ranges' depth aspect in the depth plane, their stencil aspect in the stencil
 * plane (always a fill: one byte repeated). */
static void clear_image(terakan_cmd_buffer *cmd, terakan_image *image, bool depth_stencil, const VkClearValue &value,
                        uint32_t range_count, const VkImageSubresourceRange *ranges)
{
   if (!image->memory)
      return;
   terakan::winsys::CommandStream &cs = terakan_cmd_stream(cmd);
   /* The clear must follow earlier writes and reads of the image, and precede later ones. */
   terakan_emit_full_barrier(cs);
   uint32_t pattern = 0;
   const bool fillable = terakan_clear_pattern(image->vk.format, value, depth_stencil, pattern);
   terakan_colour_target target;
   const bool drawable = depth_stencil ? terakan_depth_z_format(image->vk.format) != 0
                                       : terakan_colour_target_format(image->vk.format, target);
   for (uint32_t i = 0; i < range_count; i++) {
      const VkImageSubresourceRange &range = ranges[i];
      const uint32_t levels = vk_image_subresource_level_count(&image->vk, &range);
      const uint32_t layers = vk_image_subresource_layer_count(&image->vk, &range);
      const bool colour_or_depth = !depth_stencil || (range.aspectMask & VK_IMAGE_ASPECT_DEPTH_BIT);
      const bool stencil = depth_stencil && image->format->stencil && (range.aspectMask & VK_IMAGE_ASPECT_STENCIL_BIT);
      for (uint32_t l = 0; l < levels; l++) {
         const uint32_t level = range.baseMipLevel + l;
         if (stencil) {
            const terakan::hw::SurfaceLevel &placement = image->stencil_layout.levels[level];
            terakan_cmd_fill(cmd, *image->memory->bo,
                             image->offset + terakan_image_stencil_offset(image, level, range.baseArrayLayer),
                             placement.slice_bytes * layers, (value.depthStencil.stencil & 0xff) * 0x01010101u);
         }
         if (!colour_or_depth)
            continue;
         const terakan::hw::SurfaceLevel &placement = image->layout.levels[level];
         if (fillable) {
            const uint64_t start = image->offset + placement.offset + uint64_t(range.baseArrayLayer) * placement.slice_bytes;
            const uint64_t slices = image->surface.is_3d ? placement.slices : layers;
            terakan_cmd_fill(cmd, *image->memory->bo, start, placement.slice_bytes * slices, pattern);
            continue;
         }
         if (!drawable || image->surface.is_3d) {
            vk_command_buffer_set_error(&cmd->vk,
                                        terakan_errorf(cmd, VK_ERROR_FEATURE_NOT_PRESENT,
                                                       "terakan: clearing format %d to a value that does not repeat "
                                                       "every 32 bits needs a clear draw, which this format or image "
                                                       "type cannot have yet",
                                                       image->vk.format));
            return;
         }
         for (uint32_t layer = 0; layer < layers; layer++)
            if (!clear_subresource(cmd, image, level, range.baseArrayLayer + layer, depth_stencil, false, value))
               return;
      }
   }
   terakan_emit_full_barrier(terakan_cmd_stream(cmd));
   for (uint32_t i = 0; i < range_count && depth_stencil; i++)
      if (ranges[i].aspectMask & VK_IMAGE_ASPECT_DEPTH_BIT)
         terakan_cmd_refresh_sampling_copy(cmd, image, ranges[i].baseMipLevel,
                                           vk_image_subresource_level_count(&image->vk, &ranges[i]),
                                           ranges[i].baseArrayLayer,
                                           vk_image_subresource_layer_count(&image->vk, &ranges[i]));
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdClearColorImage(VkCommandBuffer commandBuffer, VkImage _image, VkImageLayout,
                           const VkClearColorValue *pColor, uint32_t rangeCount, const VkImageSubresourceRange *pRanges)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   VK_FROM_HANDLE(terakan_image, image, _image);
   VkClearValue value;
   value.color = *pColor;
   clear_image(cmd, image, false, value, rangeCount, pRanges);
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdClearDepthStencilImage(VkCommandBuffer commandBuffer, VkImage _image, VkImageLayout,
                                  const VkClearDepthStencilValue *pDepthStencil, uint32_t rangeCount,
                                  const VkImageSubresourceRange *pRanges)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   VK_FROM_HANDLE(terakan_image, image, _image);
   VkClearValue value;
   value.depthStencil = *pDepthStencil;
   clear_image(cmd, image, true, value, rangeCount, pRanges);
}
