/* The render pass instance: vkCmdBeginRendering and vkCmdEndRendering (render passes come
 * through the runtime's implementation over them). Begin keeps the attachments the draws
 * program (terakan_cmd_draw.cpp) and does the load-op clears: CP DMA fills of an attachment's
 * whole level when the render area covers it and the clear value repeats every 32 bits (a
 * multisampled attachment's fill stores every sample; the stencil plane is filled on its
 * own), else one clear draw over the render area (terakan_meta_clear.cpp). End resolves the
 * resolve attachments with draws in the CB's RESOLVE mode and flushes the CB and DB. */
#include "terakan_private.h"

#include <string>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "util/format/u_format.h"
#include "vk_format.h"

namespace hw = terakan::hw;
using terakan::winsys::CommandStream;

/* ---- attachments ---- */

uint64_t terakan_view_offset(const terakan_image_view *view, uint32_t layer)
{
   const terakan_image *image = view->image;
   const hw::SurfaceLevel &level = image->layout.levels[view->vk.base_mip_level];
   return image->offset + level.offset + uint64_t(view->vk.base_array_layer + layer) * level.slice_bytes;
}

VkExtent2D terakan_view_extent(const terakan_image_view *view)
{
   return {view->vk.extent.width, view->vk.extent.height};
}

/* The layers of a view a load operation applies to, as runs of consecutive layers: every view
 * of the view mask under multiview, else the instance's layerCount (at most the view's). */
template <typename Run>
static void for_each_loaded_run(const terakan_rendering &r, const terakan_image_view *view, Run run)
{
   if (!r.view_mask) {
      run(0u, std::clamp(r.layer_count, 1u, view->vk.layer_count));
      return;
   }
   for (uint32_t mask = r.view_mask; mask;) {
      const uint32_t first = uint32_t(__builtin_ctz(mask));
      uint32_t count = 0;
      while (first + count < 32 && (mask & (1u << (first + count))))
         count++;
      mask &= ~(((count < 32 ? 1u << count : 0u) - 1u) << first);
      run(first, count);
   }
}

/* Fills an attachment's loaded layers with a 32-bit value. */
static void fill_view(terakan_cmd_buffer *cmd, const terakan_image_view *view, uint32_t pattern)
{
   const terakan_image *image = view->image;
   const hw::SurfaceLevel &level = image->layout.levels[view->vk.base_mip_level];
   for_each_loaded_run(cmd->rendering, view, [&](uint32_t first, uint32_t count) {
      terakan_cmd_fill(cmd, *image->memory->bo, terakan_view_offset(view, first), level.slice_bytes * count, pattern);
   });
}

/* The clear value as the attachment stores it, if it is one 32-bit value repeated. */
bool terakan_clear_pattern(VkFormat format, const VkClearValue &value, bool depth, uint32_t &pattern)
{
   uint8_t bytes[16] = {};
   const enum pipe_format pipe = vk_format_to_pipe_format(format);
   unsigned size = util_format_get_blocksize(pipe);
   if (depth) {
      /* The depth plane: Z_16, Z_24 in the low 24 bits of a dword (the top byte 0), or the
       * float; rounded to nearest as the DB stores unorm depth. */
      const double z = std::clamp(double(value.depthStencil.depth), 0.0, 1.0);
      if (format == VK_FORMAT_D16_UNORM) {
         const uint16_t z16 = uint16_t(std::lround(std::clamp(value.depthStencil.depth, 0.0f, 1.0f) * 65535.0f));
         std::memcpy(bytes, &z16, 2);
         size = 2;
      } else if (terakan_depth_z_format(format) == 2) {
         const uint32_t z24 = uint32_t(std::nearbyint(z * 16777215.0));
         std::memcpy(bytes, &z24, 4);
         size = 4;
      } else {
         std::memcpy(bytes, &value.depthStencil.depth, 4);
         size = 4;
      }
   } else if (vk_format_is_int(format)) {
      if (vk_format_is_sint(format))
         util_format_pack_rgba(pipe, bytes, value.color.int32, 1);
      else
         util_format_pack_rgba(pipe, bytes, value.color.uint32, 1);
   } else {
      util_format_pack_rgba(pipe, bytes, value.color.float32, 1);
   }
   if (size == 0 || size > 16)
      return false;
   for (unsigned b = 0; b < 4; b++)
      bytes[b] = bytes[b % size];
   for (unsigned b = 4; b < size; b++)
      if (bytes[b] != bytes[b % 4])
         return false;
   std::memcpy(&pattern, bytes, 4);
   return true;
}

/* Where the stencil plane of a view's first layer starts in its buffer object. */
uint64_t terakan_stencil_view_offset(const terakan_image_view *view, uint32_t layer)
{
   return view->image->offset +
          terakan_image_stencil_offset(view->image, view->vk.base_mip_level, view->vk.base_array_layer + layer);
}

static bool covers_view(const VkRect2D &area, const terakan_image_view *view)
{
   const VkExtent2D extent = terakan_view_extent(view);
   return area.offset.x == 0 && area.offset.y == 0 && area.extent.width >= extent.width &&
          area.extent.height >= extent.height;
}

/* A load-op clear: a CP DMA fill when it covers the whole attachment with a value that
 * repeats every 32 bits (no draw state needed, every layer at once); false when it must be
 * drawn instead. */
static bool clear_by_fill(terakan_cmd_buffer *cmd, const terakan_image_view *view, const VkClearValue &value,
                          bool depth)
{
   uint32_t pattern;
   if (!covers_view(cmd->rendering.area, view) || !terakan_clear_pattern(view->vk.format, value, depth, pattern))
      return false;
   fill_view(cmd, view, pattern);
   return true;
}

/* The same for the stencil plane: the 8-bit value four times. */
static bool clear_stencil_by_fill(terakan_cmd_buffer *cmd, const terakan_image_view *view, uint32_t value)
{
   if (!covers_view(cmd->rendering.area, view))
      return false;
   const hw::SurfaceLevel &level = view->image->stencil_layout.levels[view->vk.base_mip_level];
   for_each_loaded_run(cmd->rendering, view, [&](uint32_t first, uint32_t count) {
      terakan_cmd_fill(cmd, *view->image->memory->bo, terakan_stencil_view_offset(view, first),
                       level.slice_bytes * count, (value & 0xff) * 0x01010101u);
   });
   return true;
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdBeginRendering(VkCommandBuffer commandBuffer, const VkRenderingInfo *info)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   terakan_rendering &r = cmd->rendering;
   r = {};
   r.active = true;
   r.area = info->renderArea;
   r.layer_count = info->layerCount;
   r.view_mask = info->viewMask;
   r.extent = {16384, 16384};
   if (info->colorAttachmentCount > r.colour.size())
      return terakan_cmd_fail(cmd, VK_ERROR_FEATURE_NOT_PRESENT, "more than 8 colour attachments");
   auto shrink = [&](const terakan_image_view *view) {
      const VkExtent2D e = terakan_view_extent(view);
      r.extent.width = std::min(r.extent.width, e.width);
      r.extent.height = std::min(r.extent.height, e.height);
   };

   r.colour_count = info->colorAttachmentCount;
   for (uint32_t i = 0; i < info->colorAttachmentCount; i++) {
      const VkRenderingAttachmentInfo &a = info->pColorAttachments[i];
      VK_FROM_HANDLE(terakan_image_view, view, a.imageView);
      r.colour[i] = view;
      if (!view)
         continue;
      if (a.resolveMode != VK_RESOLVE_MODE_NONE && a.resolveImageView) {
         VK_FROM_HANDLE(terakan_image_view, resolve, a.resolveImageView);
         /* The CB averages the samples as floats (the RESOLVE mode), into a destination of the
          * source's format: integer formats (SAMPLE_ZERO) and other modes are not drawn. */
         if (a.resolveMode != VK_RESOLVE_MODE_AVERAGE_BIT || vk_format_is_int(view->vk.format))
            return terakan_cmd_fail(cmd, VK_ERROR_FEATURE_NOT_PRESENT,
                        "resolve modes other than AVERAGE of float and normalized formats are not supported");
         if (view->image->vk.samples == 1 || resolve->image->vk.samples != 1 || resolve->vk.format != view->vk.format)
            return terakan_cmd_fail(cmd, VK_ERROR_FEATURE_NOT_PRESENT,
                        "a resolve needs a multisampled source and a single-sample destination of its format");
         r.resolve[i] = resolve;
      }
      shrink(view);
   }
   const VkRenderingAttachmentInfo *depth = info->pDepthAttachment;
   if (depth && depth->imageView) {
      VK_FROM_HANDLE(terakan_image_view, view, depth->imageView);
      r.depth = view;
      shrink(view);
      if (depth->resolveMode != VK_RESOLVE_MODE_NONE && depth->resolveImageView) {
         VK_FROM_HANDLE(terakan_image_view, resolve, depth->resolveImageView);
         if (!terakan_depth_resolve_mode_supported(false, depth->resolveMode))
            return terakan_cmd_fail(cmd, VK_ERROR_FEATURE_NOT_PRESENT,
                                    ("depth resolve mode " + std::to_string(unsigned(depth->resolveMode)) +
                                     " is not supported").c_str());
         if (view->image->vk.samples == 1 || resolve->image->vk.samples != 1 ||
             resolve->image->vk.format != view->image->vk.format)
            return terakan_cmd_fail(cmd, VK_ERROR_FEATURE_NOT_PRESENT,
                                    "a depth resolve needs a multisampled source and a single-sample destination of "
                                    "its format");
         r.depth_resolve = resolve;
         r.depth_resolve_mode = depth->resolveMode;
      }
   }
   /* Vulkan makes a depth and a stencil attachment given together one image view; a stencil
    * attachment of a depth-only format has no stencil to act on (not kept). */
   const VkRenderingAttachmentInfo *stencil = info->pStencilAttachment;
   if (stencil && stencil->imageView) {
      VK_FROM_HANDLE(terakan_image_view, view, stencil->imageView);
      if (view->image->format->stencil) {
         r.stencil = view;
         shrink(view);
      }
      if (stencil->resolveMode != VK_RESOLVE_MODE_NONE && stencil->resolveImageView && view->image->format->stencil) {
         VK_FROM_HANDLE(terakan_image_view, resolve, stencil->resolveImageView);
         if (!terakan_depth_resolve_mode_supported(true, stencil->resolveMode))
            return terakan_cmd_fail(cmd, VK_ERROR_FEATURE_NOT_PRESENT,
                                    ("stencil resolve mode " + std::to_string(unsigned(stencil->resolveMode)) +
                                     " is not supported").c_str());
         if (view->image->vk.samples == 1 || resolve->image->vk.samples != 1 ||
             resolve->image->vk.format != view->image->vk.format)
            return terakan_cmd_fail(cmd, VK_ERROR_FEATURE_NOT_PRESENT,
                                    "a stencil resolve needs a multisampled source and a single-sample destination "
                                    "of its format");
         r.stencil_resolve = resolve;
         r.stencil_resolve_mode = stencil->resolveMode;
      }
   }

   /* Load-op clears: whole attachments by fills, the rest by a clear draw over the render area
    * on each loaded layer. */
   CommandStream &cs = terakan_cmd_stream(cmd);
   bool filled = false;
   uint32_t drawn_mask = 0;
   VkClearColorValue values[8] = {};
   bool draw_depth = false;
   for (uint32_t i = 0; i < r.colour_count; i++) {
      const VkRenderingAttachmentInfo &a = info->pColorAttachments[i];
      if (!r.colour[i] || a.loadOp != VK_ATTACHMENT_LOAD_OP_CLEAR)
         continue;
      if (!filled)
         terakan_emit_full_barrier(cs);
      if (clear_by_fill(cmd, r.colour[i], a.clearValue, false)) {
         filled = true;
         continue;
      }
      filled = true;
      drawn_mask |= 1u << i;
      values[i] = a.clearValue.color;
   }
   if (r.depth && depth->loadOp == VK_ATTACHMENT_LOAD_OP_CLEAR) {
      if (!filled)
         terakan_emit_full_barrier(cs);
      filled = true;
      draw_depth = !clear_by_fill(cmd, r.depth, depth->clearValue, true);
   }
   bool draw_stencil = false;
   if (r.stencil && stencil->loadOp == VK_ATTACHMENT_LOAD_OP_CLEAR) {
      if (!filled)
         terakan_emit_full_barrier(cs);
      filled = true;
      draw_stencil = !clear_stencil_by_fill(cmd, r.stencil, stencil->clearValue.depthStencil.stencil);
   }
   /* The fills must land before the first draw's CB and DB read or write the memory. */
   if (filled)
      terakan_emit_full_barrier(cs);
   if (drawn_mask || draw_depth || draw_stencil)
      terakan_for_each_layer(cmd, true, [&] {
         return terakan_meta_clear(cmd, r.area, drawn_mask, values, draw_depth,
                                   depth ? depth->clearValue.depthStencil.depth : 0.0f, draw_stencil,
                                   stencil ? stencil->clearValue.depthStencil.stencil : 0);
      });
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdEndRendering(VkCommandBuffer commandBuffer)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   /* Resolve attachments: one RESOLVE draw per attachment and layer over the render area,
    * after every draw of the rendering (the same CB reads what it wrote). */
   for (uint32_t i = 0; i < cmd->rendering.colour_count && vk_command_buffer_get_record_result(&cmd->vk) == VK_SUCCESS;
        i++)
      if (cmd->rendering.resolve[i] && cmd->rendering.colour[i])
         terakan_for_each_layer(cmd, true, [&] {
            return terakan_meta_resolve(cmd, cmd->rendering.colour[i], cmd->rendering.resolve[i],
                                        cmd->rendering.area, cmd->rendering.layer);
         });
   /* Depth and stencil resolves: the DB's writes reach memory first, then one draw per aspect
    * and layer reads them as a texture. */
   terakan_rendering &r = cmd->rendering;
   if (r.depth_resolve || r.stencil_resolve) {
      terakan_emit_full_barrier(terakan_cmd_stream(cmd));
      for (const bool stencil : {false, true}) {
         terakan_image_view *destination = stencil ? r.stencil_resolve : r.depth_resolve;
         terakan_image_view *source = stencil ? r.stencil : r.depth;
         if (!destination || !source || vk_command_buffer_get_record_result(&cmd->vk) != VK_SUCCESS)
            continue;
         const VkResolveModeFlagBits mode = stencil ? r.stencil_resolve_mode : r.depth_resolve_mode;
         const VkRect2D area = r.area;
         terakan_for_each_layer(cmd, true, [&] {
            return terakan_meta_depth_stencil_resolve(cmd, source, destination, stencil, mode, area, cmd->rendering.layer);
         });
      }
   }
   /* Store ops: the CB and DB caches are flushed to memory, so later transfers and sampling
    * see the pixels (the barrier the application records may not name the CB at all when the
    * next use is a copy in the same submission). */
   terakan_emit_full_barrier(terakan_cmd_stream(cmd));
   if (terakan_image_view *resolved = cmd->rendering.depth_resolve)
      terakan_cmd_refresh_sampling_copy(cmd, resolved->image, resolved->vk.base_mip_level, 1,
                                        resolved->vk.base_array_layer, resolved->vk.layer_count);
   if (terakan_image_view *depth = cmd->rendering.depth)
      terakan_cmd_refresh_sampling_copy(cmd, depth->image, depth->vk.base_mip_level, 1, depth->vk.base_array_layer,
                                        depth->vk.layer_count);
   cmd->rendering = {};
}

