/* Draws: vertex and index buffers, vkCmdDraw, DrawIndexed and the indirect forms, and the
 * state every draw emits (terakan_cmd_rendering.cpp has the render pass instance).
 *
 * Like a dispatch, every draw writes all the state it relies on: the programs and their
 * interface registers (from the compiler's GraphicsInterface), constants, fetch resources,
 * textures, the viewport, scissors, rasterizer, depth and colour blocks, then the draw packet.
 * The kernel validates each submission alone and a long command buffer is split into several,
 * so nothing may be assumed to survive from an earlier packet. Register fields are facts from
 * Mesa's evergreend.h (cited in src/hw/graphics_registers.h where they are named); the values
 * each Vulkan state maps to are written next to the code.
 *
 * Multisampling (2, 4 or 8 samples; docs/sim-semantics.md "Multisampling" for what the simulator
 * models, Mesa's evergreend.h and hw/msaa.h for the fields): the sample count comes from the
 * attachments (PA_SC_AA_CONFIG, Cayman's CB_COLORn_ATTRIB and DB_Z_INFO counts), the
 * locations are Vulkan's standard ones, PA_SC_AA_MASK is the pipeline's or dynamic sample
 * mask, and colour attachments with an FMASK run with CB_COLORn_INFO.COMPRESSION. */
#include "terakan_private.h"
#include "terakan_conservative_draw.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "hw/graphics_registers.h"
#include "hw/msaa.h"
#include "hw/pm4.h"
#include "hw/registers.h"
#include "hw/streamout.h"
#include "util/format/u_format.h"
#include "vk_format.h"

namespace pm4 = terakan::hw::pm4;
namespace reg = terakan::hw::reg;
namespace gfx = terakan::hw::gfx;
namespace hw = terakan::hw;
using terakan::compiler::GraphicsInterface;
using terakan::compiler::ShaderBinary;
using terakan::winsys::CommandStream;
using terakan::winsys::RadeonBo;

void terakan_reset_graphics_state(terakan_cmd_buffer *cmd)
{
   cmd->graphics_pipeline = nullptr;
   cmd->graphics_sets = {};
   cmd->rendering = {};
   cmd->vertex_bindings = {};
   cmd->index_buffer = nullptr;
   cmd->index_offset = 0;
   cmd->index_type = VK_INDEX_TYPE_UINT16;
   cmd->conservative_scratch = {};
   cmd->conservative_checks.clear();
   cmd->xfb = {};
}

void terakan_cmd_fail(terakan_cmd_buffer *cmd, VkResult result, const char *message)
{
   vk_command_buffer_set_error(&cmd->vk, terakan_errorf(cmd, result, "terakan: %s", message));
}

static uint32_t float_bits(float value)
{
   uint32_t bits;
   std::memcpy(&bits, &value, 4);
   return bits;
}

/* SET_CONTEXT_REG of graphics state (the compute bit clear). */
static void set_context(CommandStream &cs, uint32_t reg, const std::vector<uint32_t> &values)
{
   if (values.empty())
      return;
   cs.packet(pm4::SET_CONTEXT_REG, uint32_t(values.size()) + 1);
   cs.emit((reg - pm4::context_window.start) >> 2);
   for (uint32_t value : values)
      cs.emit(value);
}

static void set_context(CommandStream &cs, uint32_t reg, uint32_t value)
{
   cs.context_registers(reg, {value}, false);
}

/* ---- vertex and index buffers ---- */

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdBindVertexBuffers2(VkCommandBuffer commandBuffer, uint32_t firstBinding, uint32_t bindingCount,
                              const VkBuffer *pBuffers, const VkDeviceSize *pOffsets, const VkDeviceSize *pSizes,
                              const VkDeviceSize *pStrides)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   for (uint32_t i = 0; i < bindingCount && firstBinding + i < cmd->vertex_bindings.size(); i++) {
      VK_FROM_HANDLE(terakan_buffer, buffer, pBuffers[i]);
      terakan_vertex_binding &b = cmd->vertex_bindings[firstBinding + i];
      b.buffer = buffer;
      b.offset = pOffsets[i];
      b.size = buffer ? vk_buffer_range(&buffer->vk, pOffsets[i], pSizes ? pSizes[i] : VK_WHOLE_SIZE) : 0;
   }
   if (pStrides)
      vk_cmd_set_vertex_binding_strides(&cmd->vk, firstBinding, bindingCount, pStrides);
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdBindIndexBuffer(VkCommandBuffer commandBuffer, VkBuffer buffer, VkDeviceSize offset,
                           VkIndexType indexType)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   cmd->index_buffer = terakan_buffer_from_handle(buffer);
   cmd->index_offset = offset;
   cmd->index_type = indexType;
}

/* ---- state ---- */

/* VGT_PRIMITIVE_TYPE (DI_PT_*) of a Vulkan topology; 0 if the hardware has none. */
static uint32_t primitive_type(VkPrimitiveTopology topology)
{
   switch (topology) {
   case VK_PRIMITIVE_TOPOLOGY_POINT_LIST: return gfx::PointList;
   case VK_PRIMITIVE_TOPOLOGY_LINE_LIST: return gfx::LineList;
   case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP: return gfx::LineStrip;
   case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST: return gfx::TriangleList;
   case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP: return gfx::TriangleStrip;
   case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN: return gfx::TriangleFan;
   default: return 0; /* adjacency: the simulator does not draw it yet; patches: no tessellation */
   }
}

/* Vulkan's blend factors and operations as CB_BLENDn_CONTROL's (src/hw/graphics_registers.h).
 * Vulkan's SUBTRACT is source minus destination. */
static uint32_t blend_factor(VkBlendFactor factor)
{
   switch (factor) {
   case VK_BLEND_FACTOR_ZERO: return gfx::BlendZero;
   case VK_BLEND_FACTOR_ONE: return gfx::BlendOne;
   case VK_BLEND_FACTOR_SRC_COLOR: return gfx::BlendSrcColour;
   case VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR: return gfx::BlendInvSrcColour;
   case VK_BLEND_FACTOR_SRC_ALPHA: return gfx::BlendSrcAlpha;
   case VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA: return gfx::BlendInvSrcAlpha;
   case VK_BLEND_FACTOR_DST_ALPHA: return gfx::BlendDstAlpha;
   case VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA: return gfx::BlendInvDstAlpha;
   case VK_BLEND_FACTOR_DST_COLOR: return gfx::BlendDstColour;
   case VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR: return gfx::BlendInvDstColour;
   case VK_BLEND_FACTOR_SRC_ALPHA_SATURATE: return gfx::BlendSrcAlphaSaturate;
   case VK_BLEND_FACTOR_CONSTANT_COLOR: return gfx::BlendConstantColour;
   case VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_COLOR: return gfx::BlendInvConstantColour;
   case VK_BLEND_FACTOR_SRC1_COLOR: return gfx::BlendSrc1Colour;
   case VK_BLEND_FACTOR_ONE_MINUS_SRC1_COLOR: return gfx::BlendInvSrc1Colour;
   case VK_BLEND_FACTOR_SRC1_ALPHA: return gfx::BlendSrc1Alpha;
   case VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA: return gfx::BlendInvSrc1Alpha;
   case VK_BLEND_FACTOR_CONSTANT_ALPHA: return gfx::BlendConstantAlpha;
   case VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_ALPHA: return gfx::BlendInvConstantAlpha;
   default: return gfx::BlendOne;
   }
}

static uint32_t blend_op(VkBlendOp op)
{
   switch (op) {
   case VK_BLEND_OP_SUBTRACT: return gfx::CombineSrcMinusDst;
   case VK_BLEND_OP_MIN: return gfx::CombineMin;
   case VK_BLEND_OP_MAX: return gfx::CombineMax;
   case VK_BLEND_OP_REVERSE_SUBTRACT: return gfx::CombineDstMinusSrc;
   default: return gfx::CombineDstPlusSrc;
   }
}

/* CB_COLOR_CONTROL.ROP3 of a logic op: the operation's truth table over the source (0xCC)
 * and destination (0xAA) patterns. */
static uint32_t rop3(VkLogicOp op)
{
   static const uint8_t table[] = {0x00, 0x88, 0x44, 0xCC, 0x22, 0xAA, 0x66, 0xEE,
                                   0x11, 0x99, 0x55, 0xDD, 0x33, 0xBB, 0x77, 0xFF};
   return op < 16 ? table[op] : 0xCC;
}

/* The registers of the colour targets; returns CB_TARGET_MASK. */
static uint32_t emit_colour_targets(terakan_cmd_buffer *cmd, CommandStream &cs,
                                    const struct vk_dynamic_graphics_state &dyn, const GraphicsInterface &ps,
                                    bool resolve, bool layered)
{
   const terakan_rendering &r = cmd->rendering;
   const bool cayman = cmd->device->physical->family->isa_class == hw::IsaClass::Cayman;
   uint32_t target_mask = 0;
   for (uint32_t i = 0; i < 8; i++) {
      const uint32_t cb = reg::CB_COLOR0_BASE + i * reg::CB_COLOR_STRIDE;
      terakan_image_view *view = i < r.colour_count ? r.colour[i] : nullptr;
      terakan_colour_target target;
      if (!view || !view->image->memory || !terakan_colour_target_format(view->vk.format, target)) {
         set_context(cs, cb + reg::Info, 0); /* FORMAT 0: no target */
         continue;
      }
      const terakan_image *image = view->image;
      const hw::SurfaceLevel &level = image->layout.levels[view->vk.base_mip_level];
      const uint32_t info = (uint32_t(target.format) << 2) | (uint32_t(level.mode) << 8) |
                            (target.number_type << 12) | (target.comp_swap << 15) |
                            (uint32_t(target.normalized) << 19) /* BLEND_CLAMP */ |
                            (uint32_t(target.integer) << 20) /* BLEND_BYPASS */;
      uint32_t attrib = 0;
      if (level.mode == hw::ArrayMode::Tiled2DThin1) {
         hw::TextureResource codes;
         hw::fill_texture_resource_tiling(image->layout, codes);
         attrib = (codes.tile_split << 5) | (codes.num_banks << 10) | (codes.bank_width << 13) |
                  (codes.bank_height << 16) | (codes.macro_tile_aspect << 19);
      }
      /* Multisampled: Cayman's ATTRIB carries NUM_SAMPLES [26:24] and NUM_FRAGMENTS [28:27]
       * (log2, equal: no EQAA); Evergreen's CB takes PA_SC_AA_CONFIG's count. With the image's
       * FMASK: COMPRESSION [18] and FMASK_BANK_HEIGHT [23:22], FMASK's own (terakan_image.cpp
       * lays it out with the colour's pitch and its own height, as r600g does). */
      const unsigned samples = image->vk.samples;
      const uint32_t log_samples = uint32_t(__builtin_ctz(samples));
      if (cayman)
         attrib |= (log_samples << 24) | (log_samples << 27);
      const bool fmask = samples > 1 && image->fmask_offset && level.mode == hw::ArrayMode::Tiled2DThin1;
      if (fmask)
         attrib |= uint32_t(__builtin_ctz(image->fmask_bank_height)) << 22;
      /* The layer: CB_COLORn_VIEW.SLICE_START [10:0] and SLICE_MAX [23:13] over BASE at the
       * level's first slice, as r600g renders to a layer, so that the CB rotates a 2D-tiled
       * slice's banks as the texture unit reads them; multisampled ones with FMASK too (FMASK's
       * slices follow from CB_COLORn_FMASK, FMASK_SLICE apart). Those without FMASK (1D tiled)
       * keep BASE at their layer and slice 0. A pipeline writing Layer draws to every layer of
       * the instance at once: SLICE_MAX is the last, and the vertex's render target index counts
       * from SLICE_START (docs/sim-semantics.md, "Layered rendering"). */
      const uint32_t layer = view->vk.base_array_layer + r.layer;
      const uint32_t extra = layered ? std::min(std::max(r.layer_count, 1u), view->vk.layer_count) - 1 : 0;
      const bool by_slice = samples == 1 || fmask;
      const uint64_t base = by_slice ? image->offset + level.offset : terakan_view_offset(view, r.layer);
      const uint32_t slice_view = by_slice ? layer | (layer + extra) << 13 : extra << 13;
      cs.context_registers(cb + reg::Base,
                           {uint32_t(base >> 8), level.pitch / 8 - 1,
                            uint32_t(uint64_t(level.pitch) * level.aligned_height / 64 - 1), slice_view,
                            info | (uint32_t(fmask) << 18), attrib},
                           false);
      cs.relocation(*image->memory->bo); /* BASE */
      cs.relocation(*image->memory->bo); /* ATTRIB */
      if (fmask) {
         /* CB_COLORn_FMASK (relocated) and FMASK_SLICE (TILE_MAX: 8x8 tiles - 1). */
         const uint64_t address = image->offset + image->fmask_offset; /* its slice: SLICE_START */
         cs.context_registers(cb + hw::msaa::Fmask,
                              {uint32_t(address >> 8), uint32_t(uint64_t(level.pitch) * image->fmask_aligned_height / 64 - 1)},
                              false);
         cs.relocation(*image->memory->bo);
      }

      uint32_t write_mask = 0;
      uint32_t blend = 0;
      if (i < dyn.cb.attachment_count) {
         const vk_color_blend_attachment_state &a = dyn.cb.attachments[i];
         write_mask = a.write_mask & 0xf;
         if (a.blend_enable && target.blendable && !(dyn.cb.logic_op_enable && !target.integer)) {
            blend = blend_factor(VkBlendFactor(a.src_color_blend_factor)) |
                    (blend_op(VkBlendOp(a.color_blend_op)) << 5) |
                    (blend_factor(VkBlendFactor(a.dst_color_blend_factor)) << 8) |
                    (blend_factor(VkBlendFactor(a.src_alpha_blend_factor)) << 16) |
                    (blend_op(VkBlendOp(a.alpha_blend_op)) << 21) |
                    (blend_factor(VkBlendFactor(a.dst_alpha_blend_factor)) << 24) | (1u << 29) /* SEPARATE_ALPHA */ |
                    (1u << 30) /* ENABLE */;
         }
      }
      if (!(dyn.cb.color_write_enables & (1u << i)))
         write_mask = 0;
      set_context(cs, gfx::CB_BLEND0_CONTROL + 4 * i, blend);
      target_mask |= write_mask << (4 * i);
   }
   set_context(cs, gfx::CB_BLEND_RED,
               {float_bits(dyn.cb.blend_constants[0]), float_bits(dyn.cb.blend_constants[1]),
                float_bits(dyn.cb.blend_constants[2]), float_bits(dyn.cb.blend_constants[3])});
   /* MODE 1 (normal; 3, RESOLVE, for terakan_meta_resolve's draws), ROP3: copy, or the logic
    * op (integer and normalized targets alike; Vulkan applies logic ops to every non-float
    * attachment). */
   const uint32_t rop = dyn.cb.logic_op_enable ? rop3(VkLogicOp(dyn.cb.logic_op)) : 0xCC;
   const uint32_t mode = uint32_t(resolve ? hw::msaa::CbMode::Resolve : hw::msaa::CbMode::Normal);
   set_context(cs, gfx::CB_COLOR_CONTROL, (mode << 4) | (rop << 16));
   set_context(cs, reg::CB_SHADER_MASK, ps.cb_shader_mask);
   return target_mask;
}

/* DB_DEPTH_CONTROL, the depth and stencil buffers and the stencil reference and masks. Field
 * positions: Mesa evergreend.h (R_028800_DB_DEPTH_CONTROL, R_028044_DB_STENCIL_INFO,
 * R_028430_DB_STENCILREFMASK, R_028434_DB_STENCILREFMASK_BF). */
static void emit_depth(terakan_cmd_buffer *cmd, CommandStream &cs, const struct vk_dynamic_graphics_state &dyn,
                       bool layered)
{
   const terakan_rendering &r = cmd->rendering;
   terakan_image_view *depth = r.depth && r.depth->image->memory ? r.depth : nullptr;
   terakan_image_view *stencil = r.stencil && r.stencil->image->memory ? r.stencil : nullptr;
   const uint32_t z_format = depth ? terakan_depth_z_format(depth->vk.format) : 0;
   terakan_image_view *view = z_format ? depth : stencil;
   if (!view) {
      set_context(cs, reg::DB_DEPTH_CONTROL, 0);
      set_context(cs, reg::DB_Z_INFO, 0);
      set_context(cs, reg::DB_STENCIL_INFO, 0);
      return;
   }
   const terakan_image *image = view->image;
   const hw::SurfaceLevel &level = image->layout.levels[view->vk.base_mip_level];
   RadeonBo &bo = *image->memory->bo;
   const uint32_t base = uint32_t(terakan_view_offset(view, r.layer) >> 8);
   /* A stencil attachment without a depth attachment: FORMAT invalid, the depth test off; the
    * DB still takes the pitch, height and tiling of the depth buffer for the stencil. */
   /* Cayman's DB_Z_INFO.NUM_SAMPLES [3:2] (log2); Evergreen's DB takes PA_SC_AA_CONFIG's. */
   const bool cayman = cmd->device->physical->family->isa_class == hw::IsaClass::Cayman;
   const uint32_t num_samples = cayman ? uint32_t(__builtin_ctz(image->vk.samples)) << 2 : 0;
   set_context(cs, reg::DB_Z_INFO, z_format | num_samples | (uint32_t(level.mode) << 4));
   /* DB_STENCIL_INFO: FORMAT [0] STENCIL_8; TILE_SPLIT [10:8] is for 2D tiling only. */
   set_context(cs, reg::DB_STENCIL_INFO, stencil ? 1u : 0u);
   set_context(cs, gfx::DB_Z_READ_BASE, base);
   cs.relocation(bo);
   set_context(cs, gfx::DB_Z_WRITE_BASE, base);
   cs.relocation(bo);
   if (stencil) {
      const uint32_t stencil_base = uint32_t(terakan_stencil_view_offset(stencil, r.layer) >> 8);
      set_context(cs, gfx::DB_STENCIL_READ_BASE, stencil_base);
      cs.relocation(bo);
      set_context(cs, gfx::DB_STENCIL_WRITE_BASE, stencil_base);
      cs.relocation(bo);
   }
   set_context(cs, gfx::DB_DEPTH_SIZE, {(level.pitch / 8 - 1) | ((level.aligned_height / 8 - 1) << 11),
                                        uint32_t(uint64_t(level.pitch) * level.aligned_height / 64 - 1)});
   /* BASE at the layer; a pipeline writing Layer reaches the instance's other layers through
    * DB_DEPTH_VIEW.SLICE_MAX [23:13] (SLICE_START 0), as the colour targets do. */
   const uint32_t extra = layered ? std::min(std::max(r.layer_count, 1u), view->vk.layer_count) - 1 : 0;
   set_context(cs, gfx::DB_DEPTH_VIEW, extra << 13);
   /* Z_ENABLE [1], Z_WRITE_ENABLE [2] (only while testing: Vulkan writes nothing when the test
    * is off), ZFUNC [6:4]: Vulkan's compare ops have the hardware's numbers (NEVER 0 ..
    * ALWAYS 7). */
   const bool test = z_format && dyn.ds.depth.test_enable;
   uint32_t control = (uint32_t(test) << 1) | (uint32_t(test && dyn.ds.depth.write_enable) << 2) |
                      (uint32_t(dyn.ds.depth.compare_op & 7) << 4);
   /* Stencil: STENCIL_ENABLE [0] and BACKFACE_ENABLE [7] (Vulkan always has a back-face state of
    * its own); STENCILFUNC, STENCILFAIL, STENCILZPASS, STENCILZFAIL at [10:8], [13:11],
    * [16:14], [19:17], the back face's at [22:20] .. [31:29]. VkStencilOp numbers KEEP, ZERO,
    * REPLACE, INCREMENT_AND_CLAMP, DECREMENT_AND_CLAMP, INVERT, INCREMENT_AND_WRAP,
    * DECREMENT_AND_WRAP are the DB's (V_028800_STENCIL_*), and the DB compares
    * (reference & mask) FUNC (stored & mask) as Vulkan does. */
   const bool stencil_test = stencil && dyn.ds.stencil.test_enable;
   auto face_bits = [](const vk_stencil_test_face_state &face) {
      return uint32_t(face.op.compare & 7) | (uint32_t(face.op.fail & 7) << 3) | (uint32_t(face.op.pass & 7) << 6) |
             (uint32_t(face.op.depth_fail & 7) << 9);
   };
   if (stencil_test)
      control |= 1u | (1u << 7) | (face_bits(dyn.ds.stencil.front) << 8) | (face_bits(dyn.ds.stencil.back) << 20);
   set_context(cs, reg::DB_DEPTH_CONTROL, control);
   /* DB_STENCILREFMASK(_BF): reference [7:0], compare mask [15:8], write mask [23:16]. */
   auto ref_mask = [](const vk_stencil_test_face_state &face) {
      return uint32_t(face.reference) | (uint32_t(face.compare_mask) << 8) | (uint32_t(face.write_mask) << 16);
   };
   set_context(cs, gfx::DB_STENCILREFMASK, stencil_test ? ref_mask(dyn.ds.stencil.front) : 0);
   set_context(cs, gfx::DB_STENCILREFMASK_BF, stencil_test ? ref_mask(dyn.ds.stencil.back) : 0);
   set_context(cs, gfx::DB_RENDER_CONTROL, 0);
}

/* Viewport n's transform and depth range, and its scissor: the application's, kept inside the
 * attachments (the simulator, like the DB and CB, must never see a pixel outside them) and
 * inside the viewport's own rectangle. */
static void emit_one_viewport(terakan_cmd_buffer *cmd, CommandStream &cs, const struct vk_dynamic_graphics_state &dyn,
                              uint32_t n)
{
   const bool has_viewport = n < dyn.vp.viewport_count;
   const VkViewport vp = has_viewport ? dyn.vp.viewports[n] : VkViewport{0, 0, 1, 1, 0, 1};
   /* PA_CL_VPORT_XSCALE_n.. 0x18 bytes apart, PA_SC_VPORT_ZMIN_n/ZMAX_n and
    * PA_SC_VPORT_SCISSOR_n_TL/BR 8 apart (evergreend.h). */
   set_context(cs, gfx::PA_CL_VPORT_XSCALE_0 + 0x18 * n,
               {float_bits(vp.width / 2), float_bits(vp.x + vp.width / 2), float_bits(vp.height / 2),
                float_bits(vp.y + vp.height / 2), float_bits(vp.maxDepth - vp.minDepth), float_bits(vp.minDepth)});
   set_context(cs, gfx::PA_SC_VPORT_ZMIN_0 + 8 * n,
               {float_bits(std::min(vp.minDepth, vp.maxDepth)), float_bits(std::max(vp.minDepth, vp.maxDepth))});

   const VkExtent2D extent = cmd->rendering.extent;
   int32_t x0 = 0, y0 = 0, x1 = int32_t(extent.width), y1 = int32_t(extent.height);
   if (n < dyn.vp.scissor_count) {
      const VkRect2D &s = dyn.vp.scissors[n];
      x0 = std::max(x0, s.offset.x);
      y0 = std::max(y0, s.offset.y);
      x1 = std::min<int64_t>(x1, int64_t(s.offset.x) + s.extent.width);
      y1 = std::min<int64_t>(y1, int64_t(s.offset.y) + s.extent.height);
   }
   /* Vulkan rasterizes inside the viewport only (primitives are clipped to the clip volume);
    * the hardware clips against its guard band instead, so the viewport's rectangle, widened
    * to whole pixels, bounds the scissor too (r600g does the same: evergreen_get_scissor_from_
    * viewport). A negative height (maintenance1) puts y + height above y. */
   if (has_viewport) {
      const double vx0 = std::min(double(vp.x), double(vp.x) + vp.width);
      const double vx1 = std::max(double(vp.x), double(vp.x) + vp.width);
      const double vy0 = std::min(double(vp.y), double(vp.y) + vp.height);
      const double vy1 = std::max(double(vp.y), double(vp.y) + vp.height);
      x0 = int32_t(std::max<double>(x0, std::floor(vx0)));
      y0 = int32_t(std::max<double>(y0, std::floor(vy0)));
      x1 = int32_t(std::max<double>(std::min<double>(x1, std::ceil(vx1)), 0));
      y1 = int32_t(std::max<double>(std::min<double>(y1, std::ceil(vy1)), 0));
   }
   x1 = std::max(x1, x0);
   y1 = std::max(y1, y0);
   const uint32_t window_offset_disable = 1u << 31;
   set_context(cs, gfx::PA_SC_VPORT_SCISSOR_0_TL + 8 * n,
               {window_offset_disable | uint32_t(x0) | (uint32_t(y0) << 16), uint32_t(x1) | (uint32_t(y1) << 16)});
}

static void emit_viewport_and_scissor(terakan_cmd_buffer *cmd, CommandStream &cs,
                                      const struct vk_dynamic_graphics_state &dyn)
{
   /* Every viewport the pipeline uses (multiViewport: a vertex shader's ViewportIndex picks
    * one per primitive, PA_CL_VS_OUT_CNTL.USE_VTX_VIEWPORT_INDX); at least viewport 0. */
   const uint32_t count = std::max<uint32_t>(1, std::max(dyn.vp.viewport_count, dyn.vp.scissor_count));
   for (uint32_t n = 0; n < count && n < 16; n++)
      emit_one_viewport(cmd, cs, dyn, n);
   /* Every scale and offset enabled; x, y, z divided by the exported w (VTX_W0_FMT). */
   set_context(cs, gfx::PA_CL_VTE_CNTL, gfx::vte_viewport_enables | gfx::vte_w0_is_w);
   const VkExtent2D extent = cmd->rendering.extent;
   const uint32_t window_offset_disable = 1u << 31;
   const uint32_t whole_br = extent.width | (extent.height << 16);
   set_context(cs, gfx::PA_SC_SCREEN_SCISSOR_TL, {0, whole_br});
   set_context(cs, gfx::PA_SC_WINDOW_OFFSET, 0);
   set_context(cs, gfx::PA_SC_WINDOW_SCISSOR_TL, {window_offset_disable, whole_br});
   set_context(cs, gfx::PA_SC_GENERIC_SCISSOR_TL, {window_offset_disable, whole_br});
}

uint32_t terakan_rendering_samples(const terakan_cmd_buffer *cmd)
{
   const terakan_rendering &r = cmd->rendering;
   for (uint32_t i = 0; i < r.colour_count; i++)
      if (r.colour[i])
         return r.colour[i]->image->vk.samples;
   if (r.depth)
      return r.depth->image->vk.samples;
   if (r.stencil)
      return r.stencil->image->vk.samples;
   return 1;
}

/* Each sample's offset from the pixel centre in 1/16 pixel, as the scan converter takes them
 * (y down, as both APIs' window space is here); samples past the draw's count are unused. */
using SampleOffsets = std::array<std::array<int8_t, 2>, 8>;

/* The draw's sample offsets: Vulkan's standard ones for its count (hw::msaa::standard_location,
 * where the specification's table and r600g's patterns are compared), or the application's
 * (VK_EXT_sample_locations, one pixel grid) when it enabled them for that count: each
 * coordinate in [0, 1) truncated to the 1/16 grid (sampleLocationSubPixelBits 4) and clamped
 * to [0, 15/16], the range a signed 4-bit offset reaches (sampleLocationCoordinateRange). The
 * driver's own draws keep the standard ones. */
static SampleOffsets draw_sample_offsets(const struct vk_dynamic_graphics_state &dyn, uint32_t samples,
                                         bool application_draw)
{
   SampleOffsets offsets{};
   for (unsigned s = 0; s < samples && s < 8; s++) {
      const hw::msaa::SampleOffset standard = hw::msaa::standard_location(samples, s);
      offsets[s] = {standard.x, standard.y};
   }
   const struct vk_sample_locations_state *custom = dyn.ms.sample_locations;
   if (!application_draw || samples < 2 || !dyn.ms.sample_locations_enable || !custom ||
       custom->per_pixel != samples)
      return offsets;
   for (unsigned s = 0; s < samples; s++) {
      const float coordinates[2] = {custom->locations[s].x, custom->locations[s].y};
      for (unsigned c = 0; c < 2; c++) {
         const int sixteenths = std::clamp(int(std::floor(coordinates[c] * 16.0f)), 0, 15);
         offsets[s][c] = int8_t(sixteenths - 8);
      }
   }
   return offsets;
}

/* Vulkan shades per sample when the fragment shader reads SampleId or SamplePosition or has a
 * Sample-decorated input, or when sample shading asks for more than one invocation per pixel
 * (minSampleShading x samples > 1). Running every sample then is allowed: the specification
 * asks for at least that many. */
static bool shades_per_sample(const terakan_graphics_pipeline &g, uint32_t samples)
{
   if (samples < 2)
      return false;
   if (g.fragment.binary.graphics.sample_shading)
      return true;
   return g.state.ms && g.state.ms->sample_shading_enable && g.state.ms->min_sample_shading * float(samples) > 1.0f;
}

/* The pixel shader's sample constants (compiler.h): the SampleMaskIn keep mask, the mask of
 * the draw's samples (for the SampleMask output) and the table of sample positions (the
 * locations emit_multisample programs, in [0, 1) of the pixel). */
static void write_sample_constants(uint8_t *driver_constants, uint32_t samples, bool per_sample,
                                   const SampleOffsets &offsets)
{
   namespace compiler = terakan::compiler;
   const uint32_t keep = per_sample ? 0u : ~0u;
   std::memcpy(driver_constants + 4 * compiler::sample_mask_keep_constant, &keep, 4);
   const uint32_t all_samples = (1u << samples) - 1;
   std::memcpy(driver_constants + 4 * compiler::sample_count_mask_constant, &all_samples, 4);
   float positions[2 * compiler::max_sample_positions] = {0.5f, 0.5f};
   static_assert(compiler::max_sample_positions >= std::tuple_size_v<SampleOffsets>);
   if (samples > 1)
      for (unsigned s = 0; s < samples; s++) {
         positions[2 * s] = 0.5f + float(offsets[s][0]) / 16.0f;
         positions[2 * s + 1] = 0.5f + float(offsets[s][1]) / 16.0f;
      }
   std::memcpy(driver_constants + 4 * compiler::sample_positions_constant, positions, sizeof(positions));
}

/* PA_SC_AA_CONFIG, the sample locations, PA_SC_AA_MASK and PA_SC_MODE_CNTL_0 for `samples`
 * (1, 2, 4 or 8). */
static void emit_multisample(terakan_cmd_buffer *cmd, CommandStream &cs, const struct vk_dynamic_graphics_state &dyn,
                             uint32_t samples, bool application_draw, bool per_sample, const SampleOffsets &offsets)
{
   namespace msaa = hw::msaa;
   const bool cayman = cmd->device->physical->family->isa_class == hw::IsaClass::Cayman;
   const uint32_t log_samples = uint32_t(__builtin_ctz(samples));
   /* MSAA_NUM_SAMPLES [2:0], MAX_SAMPLE_DIST [16:13] (the farthest location from the centre
    * in 1/16 pixel along either axis, at least what r600g programs for the standard pattern of
    * the count: 4, 6, and for 8 samples 7 on Evergreen, 8 on Cayman), Cayman's
    * MSAA_EXPOSED_SAMPLES [22:20]. */
   uint32_t config = 0, farthest = hw::msaa::r600g_max_sample_dist(cayman, samples);
   for (unsigned s = 0; s < samples && s < offsets.size(); s++)
      farthest = std::max({farthest, uint32_t(std::abs(offsets[s][0])), uint32_t(std::abs(offsets[s][1]))});
   if (samples > 1)
      config = log_samples | (farthest << 13) | (cayman ? log_samples << 20 : 0);
   set_context(cs, cayman ? msaa::PA_SC_AA_CONFIG_CAYMAN : msaa::PA_SC_AA_CONFIG_EVERGREEN, config);
   /* PA_SC_MODE_CNTL_1.PS_ITER_SAMPLE [16]: the pixel shader runs once per covered sample;
    * Cayman's DB_EQAA.PS_ITER_SAMPLES [6:4] names all of them (log2), with MAX_ANCHOR_SAMPLES,
    * MASK_EXPORT_NUM_SAMPLES and ALPHA_TO_MASK_NUM_SAMPLES at the sample count,
    * HIGH_QUALITY_INTERSECTIONS and STATIC_ANCHOR_ASSOCIATIONS as r600g sets them
    * (cayman_emit_msaa_state). */
   set_context(cs, msaa::PA_SC_MODE_CNTL_1, per_sample && samples > 1 ? 1u << 16 : 0);
   if (cayman) {
      const uint32_t iterated = per_sample ? log_samples : 0;
      set_context(cs, msaa::CM_DB_EQAA,
                  log_samples | (iterated << 4) | (log_samples << 8) | (log_samples << 12) | (1u << 16) | (1u << 20));
   }
   /* DB_ALPHA_TO_MASK: ALPHA_TO_MASK_ENABLE [0] with ALPHA_TO_MASK_OFFSET0-3 [15:8] all 2 and
    * OFFSET_ROUND [16] clear, as r600g programs it (evergreen_create_blend_state: no dither);
    * the count of samples alpha covers is docs/sim-semantics.md's "Alpha to coverage". */
   const bool alpha_to_coverage = application_draw && dyn.ms.alpha_to_coverage_enable;
   set_context(cs, msaa::DB_ALPHA_TO_MASK, alpha_to_coverage ? 1u | (2u << 8) | (2u << 10) | (2u << 12) | (2u << 14) : 0u);
   uint16_t mask = 0xffff;
   if (samples > 1) {
      /* Sample s in byte s % 4 of its register (hw::msaa::sample_locs_register: per quad
       * pixel, samples 4-7 in a second one): x offset in the low nibble, y in the high one; the
       * same for the four pixels of a quad. Bytes past the count stay zero. */
      std::array<uint32_t, 2> locations{};
      for (unsigned s = 0; s < samples; s++)
         locations[s / 4] |= (uint32_t(offsets[s][0] & 0xf) | (uint32_t(offsets[s][1] & 0xf) << 4)) << (8 * (s % 4));
      for (unsigned pixel = 0; pixel < 4; pixel++)
         for (unsigned half = 0; half < (samples > 4 ? 2u : 1u); half++)
            set_context(cs, msaa::sample_locs_register(cayman, samples, pixel, 4 * half), locations[half]);
      /* The pipeline's (or dynamic) sample mask; the driver's own draws cover every sample. */
      mask = application_draw ? uint16_t(dyn.ms.sample_mask & ((1u << samples) - 1)) : uint16_t((1u << samples) - 1);
   }
   /* PA_SC_AA_MASK: Evergreen a byte per quad pixel, Cayman 16 bits per pixel in two registers. */
   if (cayman) {
      const uint32_t two = uint32_t(mask) | (uint32_t(mask) << 16);
      set_context(cs, msaa::CM_PA_SC_AA_MASK_X0Y0_X1Y0, {two, two});
   } else {
      const uint32_t byte = mask & 0xff;
      set_context(cs, msaa::PA_SC_AA_MASK, byte * 0x01010101u);
   }
   /* PA_SC_MODE_CNTL_0: MSAA_ENABLE [0] (Vulkan rasterizes multisampled whenever there are
    * several samples), VPORT_SCISSOR_ENABLE [1]. */
   set_context(cs, gfx::PA_SC_MODE_CNTL_0, (uint32_t(samples > 1) << 0) | (1u << 1));
}

static void emit_rasterizer(terakan_cmd_buffer *cmd, CommandStream &cs, const struct vk_dynamic_graphics_state &dyn,
                            bool depth_clamp)
{
   /* PA_SU_SC_MODE_CNTL: CULL_FRONT [0], CULL_BACK [1], FACE [2] (1: clockwise is front, in
    * the y-down window space both APIs' viewports produce here), PROVOKING_VTX_LAST [19]. */
   const uint32_t mode = (uint32_t((dyn.rs.cull_mode & VK_CULL_MODE_FRONT_BIT) != 0) << 0) |
                         (uint32_t((dyn.rs.cull_mode & VK_CULL_MODE_BACK_BIT) != 0) << 1) |
                         (uint32_t(dyn.rs.front_face == VK_FRONT_FACE_CLOCKWISE) << 2) |
                         (uint32_t(dyn.rs.provoking_vertex == VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT) << 19);
   /* POLY_OFFSET_FRONT_ENABLE [11], POLY_OFFSET_BACK_ENABLE [12]: Vulkan biases polygons
    * only, as GL does, but in every polygon mode: the points and lines a polygon mode makes
    * take their triangle's offset with POLY_OFFSET_PARA_ENABLE, as r600g sets it for GL's
    * POLYGON_OFFSET_POINT/LINE. */
   const bool bias = dyn.rs.depth_bias.enable;
   /* Polygon modes: POLY_MODE 1 with the same PTYPE for both faces (Vulkan has one mode). */
   const bool outline = dyn.rs.polygon_mode != VK_POLYGON_MODE_FILL;
   const uint32_t ptype = dyn.rs.polygon_mode == VK_POLYGON_MODE_POINT ? gfx::PolygonPoints
                          : dyn.rs.polygon_mode == VK_POLYGON_MODE_LINE ? gfx::PolygonLines
                                                                         : gfx::PolygonTriangles;
   const uint32_t polygon = outline ? (1u << gfx::su_sc_mode_poly_mode_shift) |
                                         (ptype << gfx::su_sc_mode_front_ptype_shift) |
                                         (ptype << gfx::su_sc_mode_back_ptype_shift) |
                                         (bias ? gfx::su_sc_mode_poly_offset_para_enable : 0u)
                                    : 0u;
   set_context(cs, gfx::PA_SU_SC_MODE_CNTL, mode | polygon | (uint32_t(bias) << 11) | (uint32_t(bias) << 12));
   if (bias) {
      /* The slope factor times 16 (the hardware measures slopes per 1/16 pixel; r600g's and
       * RADV's programming). The constant factor counts units of 2^POLY_OFFSET_NEG_NUM_DB_BITS
       * for unorm depth; Vulkan's r for an n-bit unorm buffer is k x 2^-n with k an
       * implementation's constant in [1, 2] (the depth_bias_control proposal's "2x scaling
       * factor"; dEQP rasterization.depth_bias.* accepts both). Terakan takes k = 2 for both
       * unorm formats: twice the constant with -16 and -24 bits, as r600g does for 24-bit
       * depth and as lavapipe's r (2 / (2^n - 1)) nearly is. r600g's four times the constant
       * for 16-bit depth (GL leaves r open) is 2^-14 per unit with the unit 2^-16 the
       * simulator takes (docs/sim-semantics.md "Polygon offset"), outside Vulkan's range:
       * dEQP rasterization.depth_bias.d16_unorm failed with it. RADV writes the constant
       * unscaled with -16 bits into GCN's register of the same layout. Float depth: the
       * constant unchanged with -23 bits and DB_IS_FLOAT_FMT. */
      const uint32_t z_format = cmd->rendering.depth ? terakan_depth_z_format(cmd->rendering.depth->vk.format) : 0;
      const bool d16 = z_format == gfx::Depth16, d24 = z_format == gfx::Depth24;
      const float units = dyn.rs.depth_bias.constant * (d16 || d24 ? 2.0f : 1.0f);
      const float scale = dyn.rs.depth_bias.slope * 16.0f;
      /* POLY_OFFSET_NEG_NUM_DB_BITS [7:0] (signed): -16 and -24 for unorm depth, -23 with
       * DB_IS_FLOAT_FMT [8] for float depth. */
      const int8_t bits = d16 ? -16 : d24 ? -24 : -23;
      set_context(cs, gfx::PA_SU_POLY_OFFSET_DB_FMT_CNTL, uint32_t(uint8_t(bits)) | (d16 || d24 ? 0u : 1u << 8));
      set_context(cs, gfx::PA_SU_POLY_OFFSET_CLAMP, float_bits(dyn.rs.depth_bias.clamp));
      set_context(cs, gfx::PA_SU_POLY_OFFSET_FRONT_SCALE,
                  {float_bits(scale), float_bits(units), float_bits(scale), float_bits(units)});
   }
   /* DX_CLIP_SPACE_DEF [19]: z in [0, w]; DX_RASTERIZATION_KILL [22] for rasterizer discard;
    * depth clamp: ZCLIP_NEAR_DISABLE [26] and ZCLIP_FAR_DISABLE [27] (Mesa evergreend.h), the
    * DB then clamping depth to the viewport's range (PA_SC_VPORT_ZMIN/ZMAX), as r600g does for
    * GL_DEPTH_CLAMP (the depth_clamp GL scene). */
   set_context(cs, gfx::PA_CL_CLIP_CNTL,
               gfx::clip_cntl_dx_clip_space |
                  (dyn.rs.rasterizer_discard_enable ? hw::streamout::clip_cntl_rasterization_kill : 0u) |
                  (depth_clamp ? gfx::clip_cntl_zclip_near_disable | gfx::clip_cntl_zclip_far_disable : 0u));
   /* PIX_CENTER 1 (pixel centres at .5), QUANT_MODE 5 (1/256 pixel), as subPixelPrecisionBits
    * reports. */
   const bool cayman = cmd->device->physical->family->isa_class == hw::IsaClass::Cayman;
   set_context(cs, cayman ? gfx::CM_PA_SU_VTX_CNTL : gfx::PA_SU_VTX_CNTL, 1 | (5u << 3));
   /* Points of one pixel unless the shader writes PointSize; lines of the dynamic width (12.4
    * fixed point, half sizes). */
   set_context(cs, gfx::PA_SU_POINT_SIZE, (8u << 16) | 8u);
   set_context(cs, gfx::PA_SU_POINT_MINMAX, 0xffffu << 16);
   const float line = std::clamp(dyn.rs.line.width, 0.0f, 4095.0f);
   set_context(cs, gfx::PA_SU_LINE_CNTL, uint32_t(std::lround(line * 8.0f)) & 0xffff);
}

/* SET_RESOURCE of a buffer fetch in a graphics stage's window. */
static void emit_buffer_resource(CommandStream &cs, unsigned slot, RadeonBo &bo, const std::array<uint32_t, 8> &words)
{
   cs.packet(pm4::SET_RESOURCE, 9);
   cs.emit(slot * 8);
   for (uint32_t word : words)
      cs.emit(word);
   cs.relocation(bo);
}

/* The descriptors one stage reads: uniform buffers (fetched, and/or as ALU constant buffers
 * 2-15 at `const_cache_reg` / `const_size_reg`), uniform texel buffers, images, samplers, and the
 * push constants when indexed at run time. */
static void emit_stage_descriptors(terakan_cmd_buffer *cmd, CommandStream &cs, const terakan_graphics_stage &stage,
                                   unsigned resource_base, unsigned sampler_base, RadeonBo &push_bo,
                                   uint64_t push_offset, uint32_t const_cache_reg, uint32_t const_size_reg)
{
   for (const terakan_slot_source &slot : stage.slots) {
      terakan_descriptor d;
      if ((!slot.fetch && slot.kcache < 0) || !terakan_slot_descriptor(cmd->graphics_sets, slot, d))
         continue;
      if (slot.kcache >= 0)
         terakan_emit_constant_buffer(cs, const_cache_reg, const_size_reg, unsigned(slot.kcache), *d.bo, d.offset,
                                      d.range, false);
      if (slot.fetch)
         emit_buffer_resource(cs, resource_base + slot.slot, *d.bo,
                              reg::buffer_fetch_resource(d.offset, uint32_t(std::min<uint64_t>(d.range, UINT32_MAX)), 1));
   }
   for (const terakan_texture_source &source : stage.textures) {
      const terakan_bound_set &bound = cmd->graphics_sets[source.set];
      if (!bound.set || source.descriptor >= bound.set->descriptors.size())
         continue;
      const terakan_descriptor &d = bound.set->descriptors[source.descriptor];
      if (source.sampler) {
         if (!d.sampler)
            continue;
         cs.packet(pm4::SET_SAMPLER, 4);
         cs.emit((sampler_base + source.slot) * 3);
         for (uint32_t word : d.sampler->words)
            cs.emit(word);
         continue;
      }
      if (d.texel_format && d.bo) {
         const terakan_format &f = *d.texel_format;
         std::array<uint32_t, 4> swizzle;
         for (unsigned c = 0; c < 4; c++)
            swizzle[c] = uint32_t(f.swizzle[c]);
         emit_buffer_resource(cs, resource_base + source.slot, *d.bo,
                              reg::texel_buffer_fetch_resource(d.offset, uint32_t(std::min<uint64_t>(d.range, UINT32_MAX)),
                                                               f.bytes, f.hw, uint32_t(f.num_format), f.is_signed,
                                                               swizzle));
         continue;
      }
      if (!d.image_view || !d.image_view->image->memory)
         continue;
      RadeonBo &bo = *d.image_view->image->memory->bo;
      cs.packet(pm4::SET_RESOURCE, 9);
      cs.emit((resource_base + source.slot) * 8);
      for (uint32_t word : d.image_view->resource_words)
         cs.emit(word);
      cs.relocation(bo); /* BASE_ADDRESS */
      if (terakan_resource_words_need_mip_relocation(d.image_view->resource_words))
         cs.relocation(bo); /* MIP_ADDRESS */
   }
   if (stage.binary.push_constants_fetched)
      emit_buffer_resource(cs, resource_base + terakan::compiler::push_constant_fetch_resource, push_bo,
                           reg::buffer_fetch_resource(push_offset, 256, 1));
}

/* The vertex input state a draw uses: the command buffer's (vkCmdSetVertexInputEXT, or the
 * bound pipeline's static state copied there when it was bound), or for the driver's own
 * draws, whose dynamic state has none, their pipeline's. */
static const struct vk_vertex_input_state *draw_vertex_input(const terakan_graphics_pipeline &g,
                                                             const struct vk_dynamic_graphics_state &dyn)
{
   return dyn.vi ? dyn.vi : g.state.vi;
}

/* Vertex shaders compiled for dynamic vertex input choose each location's element at run
 * time (compiler.h, vertex_input_instance_mask_constant): the per-instance mask, the mask of
 * locations with a divisor other than 1, and each location's divisor. Written for every draw: in other vertex shaders these dwords are unused. */
static void write_vertex_input_constants(const struct vk_vertex_input_state *vi, uint8_t *driver_constants)
{
   namespace compiler = terakan::compiler;
   uint32_t per_instance = 0, divided = 0;
   uint32_t divisors[compiler::max_dynamic_vertex_inputs];
   for (unsigned location = 0; location < compiler::max_dynamic_vertex_inputs; location++) {
      divisors[location] = 1;
      if (!vi || !(vi->attributes_valid & (1u << location)))
         continue;
      const uint32_t binding = vi->attributes[location].binding;
      if (vi->bindings[binding].input_rate != VK_VERTEX_INPUT_RATE_INSTANCE)
         continue;
      per_instance |= 1u << location;
      divisors[location] = vi->bindings[binding].divisor;
      if (divisors[location] != 1)
         divided |= 1u << location;
   }
   std::memcpy(driver_constants + 4 * compiler::vertex_input_instance_mask_constant, &per_instance, 4);
   std::memcpy(driver_constants + 4 * compiler::vertex_input_divided_mask_constant, &divided, 4);
   std::memcpy(driver_constants + 4 * compiler::vertex_input_divisor_constants, divisors, sizeof(divisors));
}

/* One fetch resource per vertex input the program reads (compiler.h: VS buffer id
 * vertex_input_first_resource + location): the binding's buffer from the attribute's offset,
 * the binding's stride, the attribute's format. */
static bool emit_vertex_inputs(terakan_cmd_buffer *cmd, CommandStream &cs, const terakan_graphics_pipeline &g,
                               const terakan_graphics_stage &vertex, const terakan_draw_setup &setup,
                               const struct vk_dynamic_graphics_state &dyn)
{
   if (setup.fan_bo) {
      /* A conservative draw's fans: input l is the vertex's vec4 l, as floats. */
      terakan_vertex_fetch_format format;
      terakan_vertex_format(VK_FORMAT_R32G32B32A32_SFLOAT, format);
      const uint32_t stride = 16 * setup.fan_vec4s;
      for (unsigned location : vertex.binary.graphics.vertex_inputs) {
         const uint64_t start = setup.fan_offset + 16 * location;
         emit_buffer_resource(cs, gfx::vs_resource_base + terakan::compiler::vertex_input_first_resource + location,
                              *setup.fan_bo,
                              reg::texel_buffer_fetch_resource(start, uint32_t(setup.fan_bo->size() - start), stride,
                                                               format.data_format, format.num_format, format.is_signed,
                                                               format.dst_sel));
      }
      return true;
   }
   const struct vk_vertex_input_state *vi = draw_vertex_input(g, dyn);
   for (unsigned location : vertex.binary.graphics.vertex_inputs) {
      if (!vi || !(vi->attributes_valid & (1u << location))) {
         terakan_cmd_fail(cmd, VK_ERROR_UNKNOWN,
                          "the vertex shader reads an input the vertex input state (the pipeline's, or "
                          "vkCmdSetVertexInputEXT's) lacks");
         return false;
      }
      const uint32_t binding = vi->attributes[location].binding;
      const terakan_vertex_binding &vb = cmd->vertex_bindings[binding];
      terakan_vertex_fetch_format format;
      /* A static vertex input state was checked when the pipeline was made; a dynamic one
       * (vkCmdSetVertexInputEXT) only now. */
      if (!terakan_vertex_format(vi->attributes[location].format, format)) {
         char message[96];
         snprintf(message, sizeof(message), "vertex attribute %u: format %d cannot be fetched", location,
                  int(vi->attributes[location].format));
         terakan_cmd_fail(cmd, VK_ERROR_FEATURE_NOT_PRESENT, message);
         return false;
      }
      if (!vb.buffer || !vb.buffer->memory)
         continue;
      const uint32_t stride = dyn.vi_binding_strides[binding];
      if (stride > 2047) {
         /* SQ_VTX_CONSTANT_WORD2.STRIDE has 11 bits. */
         terakan_cmd_fail(cmd, VK_ERROR_FEATURE_NOT_PRESENT, "vertex binding strides above 2047 bytes are not supported yet");
         return false;
      }
      const uint64_t start = vb.offset + vi->attributes[location].offset;
      const uint64_t available = vb.offset + vb.size > start ? vb.offset + vb.size - start : 0;
      emit_buffer_resource(cs, gfx::vs_resource_base + terakan::compiler::vertex_input_first_resource + location,
                           *vb.buffer->memory->bo,
                           reg::texel_buffer_fetch_resource(vb.buffer->offset + start,
                                                            uint32_t(std::clamp<uint64_t>(available, 1, UINT32_MAX)),
                                                            stride, format.data_format, format.num_format,
                                                            format.is_signed, format.dst_sel));
   }
   return true;
}

/* A stage's code for the bound samplers (seed 004): the variant whose TEX instructions take
 * unnormalized coordinates where the sampler at a constant index asks for them, and the mask
 * for elements reached through run-time indices. */
struct StageCode {
   RadeonBo *bo = nullptr;
   uint32_t dynamic_mask = 0;
};

static bool select_stage_code(terakan_cmd_buffer *cmd, const terakan_graphics_stage &stage, StageCode &out)
{
   uint32_t key = 0;
   for (const terakan_unnormalized_source &source : stage.unnormalized) {
      const terakan_bound_set &bound = cmd->graphics_sets[source.set];
      if (!bound.set || source.descriptor >= bound.set->descriptors.size())
         continue;
      const terakan_descriptor &d = bound.set->descriptors[source.descriptor];
      if (!d.sampler || !d.sampler->unnormalized)
         continue;
      (source.dynamic ? out.dynamic_mask : key) |= 1u << source.bit;
   }
   out.bo = stage.code_bo;
   if (stage.variants && (key & stage.variants->relevant_bits())) {
      std::string error;
      out.bo = static_cast<RadeonBo *>(stage.variants->get(key & stage.variants->relevant_bits(), error));
      if (!out.bo) {
         vk_command_buffer_set_error(&cmd->vk, terakan_errorf(cmd, VK_ERROR_OUT_OF_DEVICE_MEMORY,
                                                              "terakan: shader variant: %s", error.c_str()));
         return false;
      }
   }
   return true;
}

/* Everything a draw relies on, then VGT state; false if the draw must not be emitted. The
 * pipeline, dynamic state and push constants are the application's for its draws, and the
 * driver's own for meta draws (terakan_meta_clear.cpp), which also choose the primitive type
 * (a RECTLIST). */
bool terakan_emit_draw_state(terakan_cmd_buffer *cmd, CommandStream &cs, const terakan_draw_setup &setup,
                             uint32_t first_vertex_or_offset, uint32_t first_instance, bool indexed)
{
   if (!cmd->rendering.active) {
      terakan_cmd_fail(cmd, VK_ERROR_UNKNOWN, "a draw outside vkCmdBeginRendering");
      return false;
   }
   const terakan_graphics_pipeline &g = *setup.pipeline;
   const struct vk_dynamic_graphics_state &dyn = *setup.dynamic;
   const terakan_graphics_stage &vertex = setup.vertex_stage ? *setup.vertex_stage : g.vertex;
   const GraphicsInterface &vs = vertex.binary.graphics, &ps = g.fragment.binary.graphics;

   const uint32_t topology =
      setup.primitive_type ? setup.primitive_type : primitive_type(VkPrimitiveTopology(dyn.ia.primitive_topology));
   if (!topology) {
      terakan_cmd_fail(cmd, VK_ERROR_FEATURE_NOT_PRESENT, "adjacency and patch topologies are not supported");
      return false;
   }
   /* BaryCoordKHR and PerVertexKHR: the program puts the SPI's triangle vertices in Vulkan's
    * order (starting at the provoking vertex, found through the vertex shader's vertex-order
    * parameter); lines and points have weights of their own that it does not make
    * (docs/compiler.md, "Fragment-shader barycentrics"). */
   const VkPrimitiveTopology application_topology = VkPrimitiveTopology(dyn.ia.primitive_topology);
   if (ps.uses_vertex_order && !setup.primitive_type && application_topology != VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST &&
       application_topology != VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP &&
       application_topology != VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN) {
      terakan_cmd_fail(cmd, VK_ERROR_FEATURE_NOT_PRESENT,
                       "a fragment shader reading BaryCoordKHR or PerVertexKHR inputs is drawn with triangle "
                       "lists, strips and fans only (lines and points are not supported yet)");
      return false;
   }
   /* The same for the lines and points of polygon modes. */
   if (ps.uses_vertex_order && !setup.primitive_type && dyn.rs.polygon_mode != VK_POLYGON_MODE_FILL) {
      terakan_cmd_fail(cmd, VK_ERROR_FEATURE_NOT_PRESENT,
                       "a fragment shader reading BaryCoordKHR or PerVertexKHR inputs is drawn in polygon mode "
                       "FILL only (the lines and points of LINE and POINT are not supported yet)");
      return false;
   }

   const bool application = cmd->graphics_pipeline && setup.pipeline == cmd->graphics_pipeline->graphics;
   uint32_t samples = terakan_rendering_samples(cmd);
   if (!cmd->rendering.colour_count && !cmd->rendering.depth && !cmd->rendering.stencil && g.state.ms)
      samples = dyn.ms.rasterization_samples ? dyn.ms.rasterization_samples : g.state.ms->rasterization_samples;
   if (!(samples & terakan_supported_sample_counts) || __builtin_popcount(samples) != 1) {
      terakan_cmd_fail(cmd, VK_ERROR_FEATURE_NOT_PRESENT, "sample counts other than 1, 2, 4 and 8 are not supported");
      return false;
   }
   /* The driver's own draws shade per sample only when their pixel shader reads SampleId (the
    * multisampled copies: terakan_meta_copy_msaa.cpp). */
   const bool per_sample =
      shades_per_sample(g, samples) && (application || g.fragment.binary.graphics.sample_shading);

   /* Each stage's program: the pipeline's, or its variant for the bound samplers. */
   StageCode vs_code, ps_code;
   if (!select_stage_code(cmd, vertex, vs_code) || !select_stage_code(cmd, g.fragment, ps_code))
      return false;

   /* Constants: push constants (constant buffer 0, both stages) and each stage's driver
    * constants (constant buffer 1; the vertex shader's: base vertex, base instance, draw
    * index; both: the mask of dynamically indexed unnormalized samplers). */
   RadeonBo *bo = nullptr;
   uint64_t offset = 0;
   uint8_t *constants = terakan_cmd_upload(cmd, 768, 256, bo, offset);
   if (!constants)
      return false;
   std::memcpy(constants, setup.push_constants, 256);
   std::memset(constants + 256, 0, 512);
   std::memcpy(constants + 256 + 4 * terakan::compiler::unnormalized_mask_constant, &vs_code.dynamic_mask, 4);
   std::memcpy(constants + 512 + 4 * terakan::compiler::unnormalized_mask_constant, &ps_code.dynamic_mask, 4);
   const uint32_t draw_constants[3] = {first_vertex_or_offset, first_instance, setup.draw_index};
   std::memcpy(constants + 256 + 4 * terakan::compiler::base_vertex_constant, draw_constants, sizeof(draw_constants));
   /* ViewIndex: the view this replay of the draw is for (0 without multiview). */
   const uint32_t view_index = cmd->rendering.view_mask ? cmd->rendering.layer : 0;
   std::memcpy(constants + 256 + 4 * terakan::compiler::view_index_constant, &view_index, 4);
   std::memcpy(constants + 512 + 4 * terakan::compiler::view_index_constant, &view_index, 4);
   const SampleOffsets sample_offsets = draw_sample_offsets(dyn, samples, application);
   write_sample_constants(constants + 512, samples, per_sample, sample_offsets);
   terakan_write_resource_sizes(vertex.binary, vertex.textures, cmd->graphics_sets, constants + 256);
   write_vertex_input_constants(draw_vertex_input(g, dyn), constants + 256);
   terakan_write_resource_sizes(g.fragment.binary, g.fragment.textures, cmd->graphics_sets, constants + 512);
   if (setup.indirect_bo && vertex.binary.uses_driver_constants) {
      /* VkDrawIndirectCommand: firstVertex at 8, firstInstance at 12; VkDrawIndexedIndirect-
       * Command: vertexOffset at 12, firstInstance at 16. Copied next to each other into the
       * base vertex and base instance constants, before the draw reads them (CP_SYNC). */
      static_assert(terakan::compiler::base_instance_constant == terakan::compiler::base_vertex_constant + 1);
      terakan_emit_cp_dma_copy(cs, *setup.indirect_bo, setup.indirect_offset + (indexed ? 12 : 8), *bo,
                               offset + 256 + 4 * terakan::compiler::base_vertex_constant, 8, true);
   }
   const uint32_t push_address = uint32_t(offset >> 8), driver_address = uint32_t((offset + 256) >> 8);
   cs.context_registers(gfx::SQ_ALU_CONST_BUFFER_SIZE_VS_0, {1, 1}, false); /* 256 bytes each */
   cs.context_registers(gfx::SQ_ALU_CONST_CACHE_VS_0, {push_address, driver_address}, false);
   cs.relocation(*bo);
   cs.relocation(*bo);
   cs.context_registers(gfx::SQ_ALU_CONST_BUFFER_SIZE_PS_0, {1, 1}, false);
   cs.context_registers(gfx::SQ_ALU_CONST_CACHE_PS_0, {push_address, uint32_t((offset + 512) >> 8)}, false);
   cs.relocation(*bo);
   cs.relocation(*bo);

   /* Programs. */
   set_context(cs, gfx::SQ_PGM_START_VS, 0);
   cs.relocation(*vs_code.bo);
   set_context(cs, gfx::SQ_PGM_RESOURCES_VS, vertex.binary.gprs | (vertex.binary.stack_entries << 8));
   set_context(cs, gfx::SQ_PGM_START_PS, 0);
   cs.relocation(*ps_code.bo);
   set_context(cs, gfx::SQ_PGM_RESOURCES_PS, g.fragment.binary.gprs | (g.fragment.binary.stack_entries << 8));
   set_context(cs, gfx::SQ_PGM_EXPORTS_PS, ps.sq_pgm_exports_ps);
   set_context(cs, reg::VGT_SHADER_STAGES_EN, 0); /* VS and PS only */

   /* The parameters the vertex shader exports and the pixel shader's inputs. */
   std::vector<uint32_t> out_ids(10, 0);
   for (size_t p = 0; p < vs.param_semantics.size() && p / 4 < out_ids.size(); p++)
      out_ids[p / 4] |= uint32_t(vs.param_semantics[p]) << (8 * (p % 4));
   set_context(cs, gfx::SPI_VS_OUT_ID_0, out_ids);
   set_context(cs, gfx::SPI_VS_OUT_CONFIG, vs.spi_vs_out_config);
   set_context(cs, gfx::PA_CL_VS_OUT_CNTL, vs.pa_cl_vs_out_cntl);
   set_context(cs, gfx::SPI_PS_INPUT_CNTL_0, ps.spi_ps_input_cntl);
   /* SPI_PS_IN_CONTROL_0.POSITION_SAMPLE [30]: FragCoord at the shaded sample when the draw
    * shades per sample (Vulkan's FragCoord rule), at the pixel centre otherwise. */
   const uint32_t position_sample = per_sample ? 1u << 30 : 0;
   set_context(cs, gfx::SPI_PS_IN_CONTROL_0, {ps.spi_ps_in_control_0 | position_sample, ps.spi_ps_in_control_1});
   set_context(cs, gfx::SPI_INTERP_CONTROL_0, ps.spi_interp_control_0);
   set_context(cs, gfx::SPI_INPUT_Z, ps.spi_input_z);
   set_context(cs, gfx::SPI_BARYC_CNTL, ps.spi_baryc_cntl);
   /* MASK_EXPORT_ENABLE [8] only for multisampled draws, as r600g (the shader itself discards
    * a single-sample fragment whose SampleMask clears bit 0). */
   set_context(cs, gfx::DB_SHADER_CONTROL, ps.db_shader_control & ~(samples > 1 ? 0u : 1u << 8));

   emit_stage_descriptors(cmd, cs, vertex, gfx::vs_resource_base, hw::vs_sampler_base, *bo, offset,
                          gfx::SQ_ALU_CONST_CACHE_VS_0, gfx::SQ_ALU_CONST_BUFFER_SIZE_VS_0);
   emit_stage_descriptors(cmd, cs, g.fragment, gfx::ps_resource_base, hw::ps_sampler_base, *bo, offset,
                          gfx::SQ_ALU_CONST_CACHE_PS_0, gfx::SQ_ALU_CONST_BUFFER_SIZE_PS_0);
   if (setup.meta_texture && setup.meta_sampler) {
      RadeonBo &texture_bo = *setup.meta_texture->image->memory->bo;
      cs.packet(pm4::SET_RESOURCE, 9);
      cs.emit(gfx::ps_resource_base * 8);
      for (uint32_t word : setup.meta_texture->resource_words)
         cs.emit(word);
      cs.relocation(texture_bo); /* BASE_ADDRESS */
      if (terakan_resource_words_need_mip_relocation(setup.meta_texture->resource_words))
         cs.relocation(texture_bo); /* MIP_ADDRESS */
      cs.packet(pm4::SET_SAMPLER, 4);
      cs.emit(hw::ps_sampler_base * 3);
      for (uint32_t word : *setup.meta_sampler)
         cs.emit(word);
   }
   if (!emit_vertex_inputs(cmd, cs, g, vertex, setup, dyn))
      return false;
   /* Private arrays (and spills) in scratch: the VS and PS rings (terakan_scratch.cpp). */
   if (!terakan_emit_graphics_scratch(cmd, cs, vertex.binary, g.fragment.binary))
      return false;

   emit_viewport_and_scissor(cmd, cs, dyn);
   emit_multisample(cmd, cs, dyn, samples, application && g.state.ms, per_sample, sample_offsets);
   emit_rasterizer(cmd, cs, dyn, g.state.rs && g.state.rs->depth_clamp_enable);
   /* Layered rendering: the vertex shader's Layer picks the layer per primitive, so every
    * layer of the instance is bound (multiview binds one view's layer per replay instead). */
   const bool layered = (vs.pa_cl_vs_out_cntl & gfx::vs_out_use_render_target_index) && !cmd->rendering.view_mask;
   emit_depth(cmd, cs, dyn, layered);
   /* Queries (terakan_query.cpp): whether the DB counts this draw's samples. */
   set_context(cs, gfx::DB_COUNT_CONTROL, terakan_db_count_control(cmd, application, samples));
   /* The pixel shader's RATs after the colour targets, whose loop clears the unused slots. */
   uint32_t target_mask = emit_colour_targets(cmd, cs, dyn, ps, setup.resolve, layered);
   if (application && !terakan_emit_pixel_shader_rats(cmd, cs, g.fragment, constants + 512, target_mask))
      return false;
   set_context(cs, reg::CB_TARGET_MASK, target_mask);
   /* Transform feedback: the application's draws (not a conservative draw's passes, whose
    * capture uses the streamout itself). */
   if (cmd->xfb.active && application && g.conservative) {
      terakan_cmd_fail(cmd, VK_ERROR_FEATURE_NOT_PRESENT,
                       "conservative rasterization while transform feedback is active is not supported");
      return false;
   }
   if (!terakan_emit_xfb_draw_state(cmd, cs, application && !setup.vertex_stage ? &vs : nullptr, topology))
      return false;

   /* VGT: the topology, restart, the index offset (firstVertex or vertexOffset) and the first
    * instance, which the vertex shader's VertexIndex and InstanceIndex include. */
   cs.config_registers(reg::VGT_PRIMITIVE_TYPE, {topology});
   const bool restart = indexed && dyn.ia.primitive_restart_enable;
   set_context(cs, gfx::VGT_MULTI_PRIM_IB_RESET_EN, restart ? 1 : 0);
   set_context(cs, gfx::VGT_MULTI_PRIM_IB_RESET_INDX, cmd->index_type == VK_INDEX_TYPE_UINT32 ? 0xffffffffu : 0xffffu);
   set_context(cs, gfx::VGT_MAX_VTX_INDX, {0xffffffffu, 0, first_vertex_or_offset});
   cs.packet(pm4::SET_CTL_CONST, 2);
   cs.emit((gfx::SQ_VTX_START_INST_LOC - pm4::ctl_const_window.start) >> 2);
   cs.emit(first_instance);
   return true;
}

/* The application's pipeline, dynamic state and push constants. */
static bool application_draw(terakan_cmd_buffer *cmd, terakan_draw_setup &setup)
{
   terakan_pipeline *pipeline = cmd->graphics_pipeline;
   if (!pipeline || !pipeline->graphics) {
      terakan_cmd_fail(cmd, VK_ERROR_UNKNOWN, "a draw without a graphics pipeline");
      return false;
   }
   setup.pipeline = pipeline->graphics;
   setup.dynamic = &cmd->vk.dynamic_graphics_state;
   setup.push_constants = cmd->push_constants.data();
   return true;
}

/* One draw of vkCmdDraw or of vkCmdDrawMultiEXT, whose draws are numbered by DrawIndex. */
static void direct_draw(terakan_cmd_buffer *cmd, uint32_t vertexCount, uint32_t instanceCount, uint32_t firstVertex,
                        uint32_t firstInstance, uint32_t draw_index)
{
   if (vk_command_buffer_get_record_result(&cmd->vk) != VK_SUCCESS || !vertexCount || !instanceCount)
      return;
   /* Strips and fans under transform feedback: drawn as lists (terakan_transform_feedback.cpp). */
   if (terakan_xfb_direct_draw(cmd, vertexCount, instanceCount, firstVertex, firstInstance, draw_index))
      return;
   auto packets = [&](CommandStream &cs) {
      cs.packet(pm4::NUM_INSTANCES, 1);
      cs.emit(instanceCount);
      /* VGT_DRAW_INITIATOR: SOURCE_SELECT 2 (auto index). */
      terakan_draw_packet(cmd, cs, pm4::DRAW_INDEX_AUTO, 2, false);
      cs.emit(vertexCount);
      cs.emit(2);
   };
   terakan_for_each_layer(cmd, false, [&] {
      terakan_draw_setup setup;
      if (!application_draw(cmd, setup))
         return false;
      setup.draw_index = draw_index;
      if (setup.pipeline->conservative)
         return terakan_conservative_draw(cmd, setup, firstVertex, firstInstance, false, vertexCount, instanceCount,
                                          packets);
      CommandStream &cs = terakan_cmd_stream(cmd);
      if (!terakan_emit_draw_state(cmd, cs, setup, firstVertex, firstInstance, false))
         return false;
      packets(cs);
      return true;
   });
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdDraw(VkCommandBuffer commandBuffer, uint32_t vertexCount, uint32_t instanceCount, uint32_t firstVertex,
                uint32_t firstInstance)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   direct_draw(cmd, vertexCount, instanceCount, firstVertex, firstInstance, 0);
}

/* VK_EXT_multi_draw: the draws one after the other, each with its DrawIndex (the CP has no
 * packet that takes a list of draws). */
extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdDrawMultiEXT(VkCommandBuffer commandBuffer, uint32_t drawCount, const VkMultiDrawInfoEXT *pVertexInfo,
                        uint32_t instanceCount, uint32_t firstInstance, uint32_t stride)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   const auto *bytes = reinterpret_cast<const uint8_t *>(pVertexInfo);
   for (uint32_t i = 0; i < drawCount; i++) {
      const auto *draw = reinterpret_cast<const VkMultiDrawInfoEXT *>(bytes + size_t(i) * stride);
      direct_draw(cmd, draw->vertexCount, instanceCount, draw->firstVertex, firstInstance, i);
   }
}

/* One draw of vkCmdDrawIndexed or of vkCmdDrawMultiIndexedEXT, numbered by DrawIndex. */
static void indexed_draw(terakan_cmd_buffer *cmd, uint32_t indexCount, uint32_t instanceCount, uint32_t firstIndex,
                         int32_t vertexOffset, uint32_t firstInstance, uint32_t draw_index)
{
   if (vk_command_buffer_get_record_result(&cmd->vk) != VK_SUCCESS || !indexCount || !instanceCount)
      return;
   if (!cmd->index_buffer || !cmd->index_buffer->memory)
      return terakan_cmd_fail(cmd, VK_ERROR_UNKNOWN, "vkCmdDrawIndexed without an index buffer");
   if (cmd->index_type != VK_INDEX_TYPE_UINT16 && cmd->index_type != VK_INDEX_TYPE_UINT32)
      return terakan_cmd_fail(cmd, VK_ERROR_FEATURE_NOT_PRESENT, "8-bit indices are not supported");
   auto packets = [&](CommandStream &cs) {
      const bool wide = cmd->index_type == VK_INDEX_TYPE_UINT32;
      const uint64_t address = cmd->index_buffer->offset + cmd->index_offset + uint64_t(firstIndex) * (wide ? 4 : 2);
      cs.packet(pm4::INDEX_TYPE, 1);
      cs.emit(wide ? 1 : 0);
      cs.packet(pm4::NUM_INSTANCES, 1);
      cs.emit(instanceCount);
      /* DRAW_INDEX: the indices' address (the kernel adds the buffer's), count, initiator
       * SOURCE_SELECT 0 (memory). */
      terakan_draw_packet(cmd, cs, pm4::DRAW_INDEX, 4, false);
      cs.emit(uint32_t(address));
      cs.emit(uint32_t(address >> 32) & 0xff);
      cs.emit(indexCount);
      cs.emit(0);
      cs.relocation(*cmd->index_buffer->memory->bo);
   };
   terakan_for_each_layer(cmd, false, [&] {
      terakan_draw_setup setup;
      if (!application_draw(cmd, setup))
         return false;
      setup.draw_index = draw_index;
      if (setup.pipeline->conservative)
         return terakan_conservative_draw(cmd, setup, uint32_t(vertexOffset), firstInstance, true, indexCount,
                                          instanceCount, packets);
      CommandStream &cs = terakan_cmd_stream(cmd);
      if (!terakan_emit_draw_state(cmd, cs, setup, uint32_t(vertexOffset), firstInstance, true))
         return false;
      packets(cs);
      return true;
   });
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdDrawIndexed(VkCommandBuffer commandBuffer, uint32_t indexCount, uint32_t instanceCount,
                       uint32_t firstIndex, int32_t vertexOffset, uint32_t firstInstance)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   indexed_draw(cmd, indexCount, instanceCount, firstIndex, vertexOffset, firstInstance, 0);
}

/* VK_EXT_multi_draw, indexed: one draw per record; `pVertexOffset`, when given, replaces every
 * record's vertex offset. */
extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdDrawMultiIndexedEXT(VkCommandBuffer commandBuffer, uint32_t drawCount,
                               const VkMultiDrawIndexedInfoEXT *pIndexInfo, uint32_t instanceCount,
                               uint32_t firstInstance, uint32_t stride, const int32_t *pVertexOffset)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   const auto *bytes = reinterpret_cast<const uint8_t *>(pIndexInfo);
   for (uint32_t i = 0; i < drawCount; i++) {
      const auto *draw = reinterpret_cast<const VkMultiDrawIndexedInfoEXT *>(bytes + size_t(i) * stride);
      indexed_draw(cmd, draw->indexCount, instanceCount, draw->firstIndex,
                   pVertexOffset ? *pVertexOffset : draw->vertexOffset, firstInstance, i);
   }
}

/* SET_BASE: the indirect arguments' buffer object (base index 1, the kernel's only one); the
 * draw packets then name offsets into it. */
static void emit_indirect_base(CommandStream &cs, RadeonBo &bo)
{
   cs.packet(pm4::SET_BASE, 3);
   cs.emit(1);
   cs.emit(0);
   cs.emit(0);
   cs.relocation(bo);
}

/* An application draw whose parameters are at `offset` in `buffer`. */
static bool indirect_draw(terakan_cmd_buffer *cmd, terakan_buffer *buffer, VkDeviceSize offset, uint32_t draw_index,
                          terakan_draw_setup &setup)
{
   if (!application_draw(cmd, setup))
      return false;
   setup.indirect_bo = buffer->memory->bo;
   setup.indirect_offset = buffer->offset + offset;
   setup.draw_index = draw_index;
   return true;
}

/* vkCmdDraw(Indexed)IndirectCount (VK_KHR_draw_indirect_count): the draw count comes from
 * a buffer, which the command processor cannot loop on. Each of the maxDrawCount records gets
 * its own predicate: a ZPASS block as VK_EXT_conditional_rendering makes one (terakan_
 * conditional_rendering.cpp), all zero, on which a COND_WRITE writes backend 0's end count 1
 * when the count (copied next to it: COND_WRITE wants 8 bytes inside its buffer) is greater
 * than the record's index; with conditional rendering active a second COND_WRITE puts 0 back
 * when the application's condition says no. The draw is then predicated on that block. */
struct IndirectCount {
   terakan_buffer *buffer;
   VkDeviceSize offset;
};

static bool predicate_on_count(terakan_cmd_buffer *cmd, CommandStream &cs, RadeonBo &count_bo, uint64_t count_offset,
                               uint32_t index)
{
   RadeonBo *block_bo;
   uint64_t block_offset;
   uint8_t *block = terakan_cmd_upload(cmd, terakan_predicate_block_bytes, 16, block_bo, block_offset);
   if (!block)
      return false;
   terakan_fill_predicate_block(block);
   auto cond_write = [&](RadeonBo &poll_bo, uint64_t poll, uint32_t function, uint32_t reference, uint32_t data) {
      cs.packet(pm4::COND_WRITE, 8);
      cs.emit(function | pm4::cond_write::POLL_MEMORY | pm4::cond_write::WRITE_MEMORY);
      cs.emit(uint32_t(poll));
      cs.emit(uint32_t(poll >> 32) & 0xff);
      cs.emit(reference);
      cs.emit(0xffffffffu); /* mask */
      cs.emit(uint32_t(block_offset + 8));
      cs.emit(uint32_t((block_offset + 8) >> 32) & 0xff);
      cs.emit(data);
      cs.relocation(poll_bo);
      cs.relocation(*block_bo);
   };
   cond_write(count_bo, count_offset, pm4::cond_write::FUNCTION_GREATER, index, 1);
   if (cmd->condition.active)
      cond_write(*cmd->condition.bo, cmd->condition.offset + 8,
                 cmd->condition.inverted ? pm4::cond_write::FUNCTION_NOT_EQUAL : pm4::cond_write::FUNCTION_EQUAL, 0,
                 0);
   /* The writes land before the predicate is read. */
   cs.packet(pm4::PFP_SYNC_ME, 1);
   cs.emit(0);
   cmd->draw_predicate.bo = block_bo;
   cmd->draw_predicate.offset = block_offset;
   return true;
}

static void emit_indirect_packets(terakan_cmd_buffer *cmd, CommandStream &cs, const terakan_draw_setup &setup,
                                  bool indexed);

/* Indirect draws of `draw_count` records `stride` bytes apart from `offset` in `buffer`, all of
 * them, or as many as `count` says (up to draw_count). */
static void indirect_draws(terakan_cmd_buffer *cmd, terakan_buffer *buffer, VkDeviceSize offset, uint32_t draw_count,
                           uint32_t stride, bool indexed, const IndirectCount *count)
{
   if (vk_command_buffer_get_record_result(&cmd->vk) != VK_SUCCESS || !buffer->memory)
      return;
   if (count && !count->buffer->memory)
      return;
   if (indexed) {
      if (!cmd->index_buffer || !cmd->index_buffer->memory)
         return terakan_cmd_fail(cmd, VK_ERROR_UNKNOWN, "vkCmdDrawIndexedIndirect without an index buffer");
      if (cmd->index_type != VK_INDEX_TYPE_UINT16 && cmd->index_type != VK_INDEX_TYPE_UINT32)
         return terakan_cmd_fail(cmd, VK_ERROR_FEATURE_NOT_PRESENT, "8-bit indices are not supported");
   }
   RadeonBo *count_bo = nullptr;
   uint64_t count_offset = 0;
   if (count) {
      if (!terakan_cmd_upload(cmd, 8, 8, count_bo, count_offset))
         return;
      terakan_emit_cp_dma_copy(terakan_cmd_stream(cmd), *count->buffer->memory->bo,
                               count->buffer->offset + count->offset, *count_bo, count_offset, 4, true);
   }
   for (uint32_t i = 0; i < draw_count; i++) {
      const bool ok = terakan_for_each_layer(cmd, false, [&] {
         terakan_draw_setup setup;
         if (!indirect_draw(cmd, buffer, offset + uint64_t(i) * stride, i, setup))
            return false;
         if (setup.pipeline->conservative) {
            /* The record's triangles are counted on the GPU (terakan_conservative_draw.h); a
             * record past the count is not captured, and its count of triangles is then 0. */
            if (count && !predicate_on_count(cmd, terakan_cmd_stream(cmd), *count_bo, count_offset, i))
               return false;
            const bool drawn = terakan_conservative_draw_indirect(
               cmd, setup, indexed, [&](CommandStream &cs) { emit_indirect_packets(cmd, cs, setup, indexed); });
            cmd->draw_predicate = {};
            return drawn;
         }
         CommandStream &cs = terakan_cmd_stream(cmd);
         if (!terakan_emit_draw_state(cmd, cs, setup, 0, 0, indexed))
            return false;
         if (count && !predicate_on_count(cmd, cs, *count_bo, count_offset, i))
            return false;
         emit_indirect_packets(cmd, cs, setup, indexed);
         cmd->draw_predicate = {};
         return true;
      });
      if (!ok) {
         cmd->draw_predicate = {};
         return;
      }
   }
}

/* The packets of one indirect draw after its state: SET_BASE, the index buffer for an indexed
 * one, and DRAW_INDIRECT or DRAW_INDEX_INDIRECT on the record at setup.indirect_offset. */
static void emit_indirect_packets(terakan_cmd_buffer *cmd, CommandStream &cs, const terakan_draw_setup &setup,
                                  bool indexed)
{
   bool wide = false;
   uint64_t index_start = 0, index_count = 0;
   if (indexed) {
      wide = cmd->index_type == VK_INDEX_TYPE_UINT32;
      index_start = cmd->index_buffer->offset + cmd->index_offset;
      index_count = (cmd->index_buffer->vk.size > cmd->index_offset ? cmd->index_buffer->vk.size - cmd->index_offset
                                                                     : 0) /
                    (wide ? 4 : 2);
   }
   emit_indirect_base(cs, *setup.indirect_bo);
   if (!indexed) {
      /* DRAW_INDIRECT: the arguments' offset, VGT_DRAW_INITIATOR (auto index); the CP
       * sets the first vertex and instance registers from the arguments. */
      terakan_draw_packet(cmd, cs, pm4::DRAW_INDIRECT, 2, false);
      cs.emit(uint32_t(setup.indirect_offset));
      cs.emit(2);
   } else {
      cs.packet(pm4::INDEX_TYPE, 1);
      cs.emit(wide ? 1 : 0);
      /* INDEX_BASE (the bound index buffer; the kernel adds its address) and its size in
       * indices: the CP adds firstIndex from the arguments and keeps the draw inside. */
      cs.packet(pm4::INDEX_BASE, 2);
      cs.emit(uint32_t(index_start));
      cs.emit(uint32_t(index_start >> 32) & 0xff);
      cs.relocation(*cmd->index_buffer->memory->bo);
      cs.packet(pm4::INDEX_BUFFER_SIZE, 1);
      cs.emit(uint32_t(std::min<uint64_t>(index_count, UINT32_MAX)));
      terakan_draw_packet(cmd, cs, pm4::DRAW_INDEX_INDIRECT, 2, false);
      cs.emit(uint32_t(setup.indirect_offset));
      cs.emit(0); /* SOURCE_SELECT: memory */
   }
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdDrawIndirect(VkCommandBuffer commandBuffer, VkBuffer _buffer, VkDeviceSize offset, uint32_t drawCount,
                        uint32_t stride)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   VK_FROM_HANDLE(terakan_buffer, buffer, _buffer);
   indirect_draws(cmd, buffer, offset, drawCount, stride, false, nullptr);
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdDrawIndexedIndirect(VkCommandBuffer commandBuffer, VkBuffer _buffer, VkDeviceSize offset,
                               uint32_t drawCount, uint32_t stride)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   VK_FROM_HANDLE(terakan_buffer, buffer, _buffer);
   indirect_draws(cmd, buffer, offset, drawCount, stride, true, nullptr);
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdDrawIndirectCount(VkCommandBuffer commandBuffer, VkBuffer _buffer, VkDeviceSize offset,
                             VkBuffer countBuffer, VkDeviceSize countBufferOffset, uint32_t maxDrawCount,
                             uint32_t stride)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   VK_FROM_HANDLE(terakan_buffer, buffer, _buffer);
   const IndirectCount count{terakan_buffer_from_handle(countBuffer), countBufferOffset};
   indirect_draws(cmd, buffer, offset, maxDrawCount, stride, false, &count);
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdDrawIndexedIndirectCount(VkCommandBuffer commandBuffer, VkBuffer _buffer, VkDeviceSize offset,
                                    VkBuffer countBuffer, VkDeviceSize countBufferOffset, uint32_t maxDrawCount,
                                    uint32_t stride)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   VK_FROM_HANDLE(terakan_buffer, buffer, _buffer);
   const IndirectCount count{terakan_buffer_from_handle(countBuffer), countBufferOffset};
   indirect_draws(cmd, buffer, offset, maxDrawCount, stride, true, &count);
}
