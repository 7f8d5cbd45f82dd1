/* Graphics (VS/PS, fixed-function) register offsets and fields of Evergreen and Cayman, the
 * ones the simulator's draw path decodes. Offsets and bit positions are facts taken from Mesa's
 * src/gallium/drivers/r600/evergreend.h and Linux's drivers/gpu/drm/radeon/evergreend.h. */
#pragma once

#include <cstdint>

namespace terakan::hw::gfx {

/* VGT_PRIMITIVE_TYPE, DB_DEPTH_CONTROL, DB_Z_INFO, DB_STENCIL_INFO, CB_TARGET_MASK and the
 * CB_COLORn block are in registers.h (the compute path uses them too). */

/* Shader programs (context registers). */
constexpr uint32_t SQ_PGM_START_PS = 0x28840, SQ_PGM_RESOURCES_PS = 0x28844, SQ_PGM_EXPORTS_PS = 0x2884C;
constexpr uint32_t SQ_PGM_START_VS = 0x2885C, SQ_PGM_RESOURCES_VS = 0x28860;
constexpr uint32_t SQ_PGM_START_FS = 0x288A4, SQ_PGM_RESOURCES_FS = 0x288A8;
constexpr uint32_t SQ_ALU_CONST_BUFFER_SIZE_PS_0 = 0x28140, SQ_ALU_CONST_BUFFER_SIZE_VS_0 = 0x28180;
constexpr uint32_t SQ_ALU_CONST_CACHE_PS_0 = 0x28940, SQ_ALU_CONST_CACHE_VS_0 = 0x28980;
/* SQ_PGM_RESOURCES_*: NUM_GPRS [7:0], STACK_SIZE [15:8]. */

/* Resource, sampler and loop-constant ranges per stage (Mesa evergreend.h
 * EG_FETCH_CONSTANTS_OFFSET_*; the sampler slots are in texture.h). The fetch shader reads the
 * vertex buffers at 992 + n. */
constexpr unsigned ps_resource_base = 0, vs_resource_base = 176, fs_resource_base = 992;
constexpr unsigned ps_loop_const = 0, vs_loop_const = 32;

/* SPI: VS outputs and PS inputs. */
constexpr uint32_t SPI_VS_OUT_ID_0 = 0x2861C;     /* 10 registers, a semantic byte per parameter */
constexpr uint32_t SPI_PS_INPUT_CNTL_0 = 0x28644; /* 32 registers */
constexpr uint32_t SPI_VS_OUT_CONFIG = 0x286C4;   /* VS_EXPORT_COUNT [5:1] = count - 1 */
constexpr uint32_t SPI_PS_IN_CONTROL_0 = 0x286CC, SPI_PS_IN_CONTROL_1 = 0x286D0;
constexpr uint32_t SPI_INPUT_Z = 0x286D8, SPI_BARYC_CNTL = 0x286E0;
/* SPI_PS_INPUT_CNTL_n */
constexpr uint32_t ps_input_semantic(uint32_t v) { return v & 0xff; }
constexpr uint32_t ps_input_default(uint32_t v) { return (v >> 8) & 3; }
constexpr bool ps_input_flat(uint32_t v) { return (v >> 10) & 1; }
constexpr bool ps_input_centroid(uint32_t v) { return (v >> 11) & 1; }
constexpr bool ps_input_linear(uint32_t v) { return (v >> 12) & 1; }
constexpr uint32_t ps_input_cyl_wrap(uint32_t v) { return (v >> 13) & 0xf; }
constexpr bool ps_input_point_sprite(uint32_t v) { return (v >> 17) & 1; }
constexpr bool ps_input_sample(uint32_t v) { return (v >> 18) & 1; }

/* PA: clipper, viewport, setup, scan converter. */
constexpr uint32_t PA_SC_SCREEN_SCISSOR_TL = 0x28030, PA_SC_SCREEN_SCISSOR_BR = 0x28034;
constexpr uint32_t PA_SC_WINDOW_OFFSET = 0x28200, PA_SC_WINDOW_SCISSOR_TL = 0x28204,
                   PA_SC_WINDOW_SCISSOR_BR = 0x28208;
constexpr uint32_t PA_SC_GENERIC_SCISSOR_TL = 0x28240, PA_SC_GENERIC_SCISSOR_BR = 0x28244;
constexpr uint32_t PA_SC_VPORT_SCISSOR_0_TL = 0x28250, PA_SC_VPORT_SCISSOR_0_BR = 0x28254;
constexpr uint32_t PA_SC_VPORT_ZMIN_0 = 0x282D0, PA_SC_VPORT_ZMAX_0 = 0x282D4;
constexpr uint32_t PA_CL_VPORT_XSCALE_0 = 0x2843C; /* XSCALE, XOFFSET, YSCALE, YOFFSET, ZSCALE, ZOFFSET */
constexpr uint32_t PA_CL_CLIP_CNTL = 0x28810, PA_SU_SC_MODE_CNTL = 0x28814, PA_CL_VTE_CNTL = 0x28818;
constexpr uint32_t PA_CL_VS_OUT_CNTL = 0x2881C;
constexpr uint32_t PA_SU_VTX_CNTL = 0x28C08;
constexpr uint32_t CM_PA_SU_VTX_CNTL = 0x28BE4; /* Cayman moved it (Mesa CM_R_028BE4_PA_SU_VTX_CNTL) */
constexpr uint32_t PA_CL_GB_VERT_CLIP_ADJ = 0x28BE8;

/* VGT. */
constexpr uint32_t VGT_MAX_VTX_INDX = 0x28400, VGT_MIN_VTX_INDX = 0x28404, VGT_INDX_OFFSET = 0x28408;
constexpr uint32_t VGT_MULTI_PRIM_IB_RESET_INDX = 0x2840C, VGT_MULTI_PRIM_IB_RESET_EN = 0x28A94;
/* SET_CTL_CONST registers r600g writes with the base vertex and start instance. */
constexpr uint32_t SQ_VTX_BASE_VTX_LOC = 0x3CFF0, SQ_VTX_START_INST_LOC = 0x3CFF4;

/* Primitive types (VGT_PRIMITIVE_TYPE, DI_PT_*). */
enum PrimitiveType : uint32_t {
   PointList = 1, LineList = 2, LineStrip = 3, TriangleList = 4, TriangleFan = 5, TriangleStrip = 6,
   LineListAdjacency = 0xA, LineStripAdjacency = 0xB, TriangleListAdjacency = 0xC,
   TriangleStripAdjacency = 0xD, RectList = 0x11, LineLoop = 0x12, QuadList = 0x13,
   QuadStrip = 0x14, Polygon = 0x15,
};

/* CB. */
constexpr uint32_t CB_BLEND_RED = 0x28414; /* RED, GREEN, BLUE, ALPHA */
constexpr uint32_t CB_BLEND0_CONTROL = 0x28780; /* + 4n */
constexpr uint32_t CB_COLOR_CONTROL = 0x28808;
/* CB_COLORn_INFO fields */
constexpr uint32_t cb_info_array_mode(uint32_t v) { return (v >> 8) & 0xf; }
constexpr uint32_t cb_info_number_type(uint32_t v) { return (v >> 12) & 7; }
constexpr uint32_t cb_info_comp_swap(uint32_t v) { return (v >> 15) & 3; }
constexpr bool cb_info_blend_clamp(uint32_t v) { return (v >> 19) & 1; }
constexpr bool cb_info_blend_bypass(uint32_t v) { return (v >> 20) & 1; }
enum NumberType : uint32_t { Unorm = 0, Snorm = 1, Uscaled = 2, Sscaled = 3, Uint = 4, Sint = 5, Srgb = 6, Float = 7 };

/* DB. */
constexpr uint32_t DB_RENDER_CONTROL = 0x28000, DB_DEPTH_VIEW = 0x28008, DB_RENDER_OVERRIDE = 0x2800C;
constexpr uint32_t DB_DEPTH_SIZE = 0x28058, DB_DEPTH_SLICE = 0x2805C;
constexpr uint32_t DB_Z_READ_BASE = 0x28048,
                   DB_STENCIL_READ_BASE = 0x2804C, DB_Z_WRITE_BASE = 0x28050,
                   DB_STENCIL_WRITE_BASE = 0x28054;
constexpr uint32_t DB_STENCIL_CLEAR = 0x28028, DB_DEPTH_CLEAR = 0x2802C;
constexpr uint32_t DB_STENCILREFMASK = 0x28430, DB_STENCILREFMASK_BF = 0x28434;
constexpr uint32_t DB_SHADER_CONTROL = 0x2880C;

} // namespace terakan::hw::gfx
