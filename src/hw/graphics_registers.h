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
/* PA_CL_VTE_CNTL: VPORT_{X,Y,Z}_{SCALE,OFFSET}_ENA [5:0], VTX_XY_FMT [8] and VTX_Z_FMT [9] (the
 * position is already divided), VTX_W0_FMT [10]: 1 = the exported w is w and the PA divides by
 * it, 0 = it already holds 1/w. r600g (evergreen_state.c) sets it with clip-space positions and
 * leaves it clear only with window-space ones, as r300's driver does for VAP_VTE_CNTL. */
constexpr uint32_t vte_viewport_enables = 0x3f, vte_w0_is_w = 1u << 10;
/* PA_CL_CLIP_CNTL fields (Mesa evergreend.h): CLIP_DISABLE [16], DX_CLIP_SPACE_DEF [19] (z in
 * [0, w]), ZCLIP_NEAR_DISABLE [26], ZCLIP_FAR_DISABLE [27]; DX_RASTERIZATION_KILL [22] is
 * streamout.h's clip_cntl_rasterization_kill. */
constexpr uint32_t clip_cntl_clip_disable = 1u << 16, clip_cntl_dx_clip_space = 1u << 19,
                   clip_cntl_zclip_near_disable = 1u << 26, clip_cntl_zclip_far_disable = 1u << 27;
/* PA_CL_CLIP_CNTL.BOUNDARY_EDGE_FLAG_ENA [18] (Mesa evergreend.h; r600g never sets it): taken
 * to mark the edges clipping creates as drawn in polygon modes (*derived* from its name). */
constexpr uint32_t clip_cntl_boundary_edge_flag = 1u << 18;
/* PA_SU_SC_MODE_CNTL polygon modes (Mesa evergreend.h; values as r600_translate_fill and
 * AMD's R5xx register reference GA_POLY_MODE give them): POLY_MODE [4:3] (0 fill, 1 "dual
 * mode": each face takes its PTYPE), POLYMODE_FRONT_PTYPE [7:5], POLYMODE_BACK_PTYPE [10:8]
 * (0 points, 1 lines, 2 triangles), POLY_OFFSET_PARA_ENABLE [13] (r600g sets it with GL's
 * POLYGON_OFFSET_POINT/LINE). */
constexpr unsigned su_sc_mode_poly_mode_shift = 3, su_sc_mode_front_ptype_shift = 5, su_sc_mode_back_ptype_shift = 8;
constexpr uint32_t su_sc_mode_poly_offset_para_enable = 1u << 13;
enum PolygonPrimitive : uint32_t { PolygonPoints = 0, PolygonLines = 1, PolygonTriangles = 2 };
constexpr uint32_t PA_CL_VS_OUT_CNTL = 0x2881C;
/* PA_CL_VS_OUT_CNTL fields (Mesa evergreend.h): CLIP_DIST_ENA_0-7 [7:0], CULL_DIST_ENA_0-7
 * [15:8], USE_VTX_POINT_SIZE [16], USE_VTX_EDGE_FLAG [17], USE_VTX_RENDER_TARGET_INDX [18],
 * USE_VTX_VIEWPORT_INDX [19], VS_OUT_MISC_VEC_ENA [21], VS_OUT_CCDIST0_VEC_ENA [22] and
 * VS_OUT_CCDIST1_VEC_ENA [23] (the second distance vector is vs_out_ccdist0_vec_ena << 1). */
constexpr uint32_t vs_out_clip_distance_enables = 0xff, vs_out_cull_distance_shift = 8,
                   vs_out_distance_enables = 0xffff;
constexpr uint32_t vs_out_use_point_size = 1u << 16, vs_out_use_edge_flag = 1u << 17,
                   vs_out_use_render_target_index = 1u << 18, vs_out_use_viewport_index = 1u << 19,
                   vs_out_misc_vector_enable = 1u << 21, vs_out_ccdist0_vec_ena = 1u << 22;
/* Points and lines, in 12.4 fixed point and in half sizes (a 1-pixel point holds 0.5; Mesa r600g):
 * PA_SU_POINT_SIZE HEIGHT [15:0], WIDTH [31:16]; PA_SU_POINT_MINMAX MIN_SIZE [15:0], MAX_SIZE
 * [31:16]; PA_SU_LINE_CNTL WIDTH [15:0]. */
constexpr uint32_t PA_SU_POINT_SIZE = 0x28A00, PA_SU_POINT_MINMAX = 0x28A04, PA_SU_LINE_CNTL = 0x28A08;
/* PA_SC_MODE_CNTL_0: MSAA_ENABLE [0], VPORT_SCISSOR_ENABLE [1], LINE_STIPPLE_ENABLE [2]. */
constexpr uint32_t PA_SC_MODE_CNTL_0 = 0x28A48;
/* SPI_INTERP_CONTROL_0: FLAT_SHADE_ENA [0], PNT_SPRITE_ENA [1], PNT_SPRITE_OVRD_X/Y/Z/W [4:2],
 * [7:5], [10:8], [13:11] (0 = 0.0, 1 = 1.0, 2 = S, 3 = T), PNT_SPRITE_TOP_1 [14]. */
constexpr uint32_t SPI_INTERP_CONTROL_0 = 0x286D4;
/* The VS's misc vector (x = point size) and clip/cull distance vectors follow the position
 * (EXPORT POS 60) in the POS exports 61-63, each present when PA_CL_VS_OUT_CNTL enables it. */
/* User clip planes: PA_CL_UCP_n_X, _Y, _Z, _W at 0x285BC + 16 n, n < 6 (Mesa evergreend.h). */
constexpr uint32_t PA_CL_UCP_0_X = 0x285BC;
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
/* CB_BLENDn_CONTROL: COLOR_SRCBLEND [4:0], COLOR_COMB_FCN [7:5], COLOR_DESTBLEND [12:8],
 * ALPHA_SRCBLEND [20:16], ALPHA_COMB_FCN [23:21], ALPHA_DESTBLEND [28:24],
 * SEPARATE_ALPHA_BLEND [29], BLEND_CONTROL_ENABLE [30]; the factors (V_028780_BLEND_*) and
 * functions (V_028780_COMB_*). */
enum BlendFactor : uint32_t {
   BlendZero = 0, BlendOne, BlendSrcColour, BlendInvSrcColour, BlendSrcAlpha, BlendInvSrcAlpha, BlendDstAlpha,
   BlendInvDstAlpha, BlendDstColour, BlendInvDstColour, BlendSrcAlphaSaturate, BlendBothSrcAlpha,
   BlendBothInvSrcAlpha, BlendConstantColour, BlendInvConstantColour, BlendSrc1Colour, BlendInvSrc1Colour,
   BlendSrc1Alpha, BlendInvSrc1Alpha, BlendConstantAlpha, BlendInvConstantAlpha,
};
enum BlendFunction : uint32_t {
   CombineDstPlusSrc = 0, CombineSrcMinusDst = 1, CombineMin = 2, CombineMax = 3, CombineDstMinusSrc = 4,
};
constexpr uint32_t CB_COLOR_CONTROL = 0x28808;
/* The 2D tiling codes a colour or depth surface register holds (the values are decoded by
 * hw::macro_tiling_from_codes): CB_COLORn_ATTRIB TILE_SPLIT [8:5], NUM_BANKS [11:10],
 * BANK_WIDTH [14:13], BANK_HEIGHT [17:16], MACRO_TILE_ASPECT [20:19]; DB_Z_INFO TILE_SPLIT
 * [10:8], NUM_BANKS [13:12], BANK_WIDTH [17:16], BANK_HEIGHT [21:20], MACRO_TILE_ASPECT
 * [25:24], with the stencil's own TILE_SPLIT in DB_STENCIL_INFO [10:8]. */
struct TilingCodes {
   unsigned tile_split, banks, bank_width, bank_height, macro_tile_aspect;
};
constexpr TilingCodes cb_attrib_tiling(uint32_t attrib)
{
   return {(attrib >> 5) & 0xf, (attrib >> 10) & 3, (attrib >> 13) & 3, (attrib >> 16) & 3, (attrib >> 19) & 3};
}
constexpr TilingCodes db_info_tiling(uint32_t z_info, uint32_t tile_split_register)
{
   return {(tile_split_register >> 8) & 7, (z_info >> 12) & 3, (z_info >> 16) & 3, (z_info >> 20) & 3,
           (z_info >> 24) & 3};
}

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
/* DB_COUNT_CONTROL: ZPASS_INCREMENT_DISABLE [0], PERFECT_ZPASS_COUNTS [1], SAMPLE_RATE [6:4]
 * (Cayman). */
constexpr uint32_t DB_COUNT_CONTROL = 0x28004;
constexpr uint32_t DB_HTILE_DATA_BASE = 0x28014, DB_HTILE_SURFACE = 0x28ABC;
/* DB_Z_INFO fields; FORMAT: 0 invalid, 1 Z_16, 2 Z_24, 3 Z_32_FLOAT. */
enum DepthFormat : uint32_t { DepthInvalid = 0, Depth16 = 1, Depth24 = 2, Depth32Float = 3 };
constexpr uint32_t db_z_info_format(uint32_t v) { return v & 3; }
constexpr uint32_t db_z_info_num_samples(uint32_t v) { return (v >> 2) & 3; } /* Cayman */
constexpr uint32_t db_z_info_array_mode(uint32_t v) { return (v >> 4) & 0xf; }
constexpr bool db_z_info_tile_surface_enable(uint32_t v) { return (v >> 29) & 1; } /* HTILE */
/* DB_STENCIL_INFO: FORMAT [0] (1 = STENCIL_8). */
constexpr bool db_stencil_info_valid(uint32_t v) { return v & 1; }
/* DB_DEPTH_SIZE: PITCH_TILE_MAX [10:0] (pitch / 8 - 1); DB_DEPTH_SLICE: SLICE_TILE_MAX
 * [21:0] (pitch * height / 64 - 1); DB_DEPTH_VIEW: SLICE_START [10:0], SLICE_MAX [23:13]. */
constexpr uint32_t db_depth_size_pitch_tile_max(uint32_t v) { return v & 0x7ff; }
constexpr uint32_t db_depth_slice_tile_max(uint32_t v) { return v & 0x3fffff; }
constexpr uint32_t db_depth_view_slice_start(uint32_t v) { return v & 0x7ff; }
constexpr uint32_t db_depth_view_slice_max(uint32_t v) { return (v >> 13) & 0x7ff; }
/* DB_DEPTH_CONTROL fields. Compare functions (ZFUNC, STENCILFUNC*) are NEVER, LESS, EQUAL,
 * LEQUAL, GREATER, NOTEQUAL, GEQUAL, ALWAYS = 0..7; stencil operations KEEP, ZERO, REPLACE,
 * INCR (clamped), DECR (clamped), INVERT, INCR_WRAP, DECR_WRAP = 0..7. */
constexpr bool db_stencil_enable(uint32_t v) { return v & 1; }
constexpr bool db_z_enable(uint32_t v) { return (v >> 1) & 1; }
constexpr bool db_z_write_enable(uint32_t v) { return (v >> 2) & 1; }
constexpr uint32_t db_z_func(uint32_t v) { return (v >> 4) & 7; }
constexpr bool db_backface_enable(uint32_t v) { return (v >> 7) & 1; }
/* Front stencil func/fail/zpass/zfail at bits 8, 11, 14, 17; back faces' at 20, 23, 26, 29. */
constexpr uint32_t db_stencil_field(uint32_t v, bool back, unsigned which)
{
   return (v >> ((back ? 20 : 8) + 3 * which)) & 7;
}
/* DB_STENCILREFMASK(_BF): REF [7:0], MASK [15:8], WRITEMASK [23:16]. */
/* DB_RENDER_CONTROL bits. */
constexpr uint32_t db_render_depth_clear = 1u << 0, db_render_stencil_clear = 1u << 1,
                   db_render_depth_copy = 1u << 2, db_render_stencil_copy = 1u << 3,
                   db_render_resummarize = 1u << 4, db_render_color_disable = 1u << 12;
/* DB_SHADER_CONTROL: Z_EXPORT_ENABLE [0], STENCIL_EXPORT_ENABLE [1], MASK_EXPORT_ENABLE [8]. */
constexpr bool db_shader_z_export(uint32_t v) { return v & 1; }
constexpr bool db_shader_stencil_export(uint32_t v) { return (v >> 1) & 1; }
constexpr bool db_shader_mask_export(uint32_t v) { return (v >> 8) & 1; }
/* The pixel shader's depth/stencil/mask export target (EXPORT PIXEL 61, Mesa sfn). */
constexpr unsigned pixel_export_depth = 61;

/* Polygon offset: PA_SU_POLY_OFFSET_DB_FMT_CNTL (POLY_OFFSET_NEG_NUM_DB_BITS [7:0], signed;
 * POLY_OFFSET_DB_IS_FLOAT_FMT [8]), the clamp, then front and back scale and offset (floats). */
constexpr uint32_t PA_SU_POLY_OFFSET_DB_FMT_CNTL = 0x28B78, PA_SU_POLY_OFFSET_CLAMP = 0x28B7C;
constexpr uint32_t PA_SU_POLY_OFFSET_FRONT_SCALE = 0x28B80, PA_SU_POLY_OFFSET_FRONT_OFFSET = 0x28B84;
constexpr uint32_t PA_SU_POLY_OFFSET_BACK_SCALE = 0x28B88, PA_SU_POLY_OFFSET_BACK_OFFSET = 0x28B8C;

/* SX alpha test: SX_ALPHA_TEST_CONTROL ALPHA_FUNC [2:0] (the compare functions above),
 * ALPHA_TEST_ENABLE [3]; SX_ALPHA_REF is a float. */
constexpr uint32_t SX_ALPHA_TEST_CONTROL = 0x28410, SX_ALPHA_REF = 0x28438;

} // namespace terakan::hw::gfx
