/* Register offsets and fields the compute path uses, Evergreen and Cayman.
 *
 * Facts from Linux drivers/gpu/drm/radeon/evergreend.h and nid.h, and Mesa 22.3.6
 * src/gallium/drivers/r600/evergreend.h (field layouts).
 */
#pragma once

#include <array>
#include <cstdint>

namespace terakan::hw::reg {

/* config */
constexpr uint32_t WAIT_UNTIL = 0x8040;
constexpr uint32_t CP_COHER_CNTL = 0x85F0, CP_COHER_SIZE = 0x85F4, CP_COHER_BASE = 0x85F8;
constexpr uint32_t VGT_PRIMITIVE_TYPE = 0x8958, VGT_NUM_INDICES = 0x8970;
constexpr uint32_t VGT_COMPUTE_START_X = 0x899C, VGT_COMPUTE_START_Y = 0x89A0, VGT_COMPUTE_START_Z = 0x89A4;
constexpr uint32_t VGT_COMPUTE_INDEX = 0x89A8, VGT_COMPUTE_THREAD_GROUP_SIZE = 0x89AC;
constexpr uint32_t SQ_CONFIG = 0x8C00;
constexpr uint32_t SQ_GPR_RESOURCE_MGMT_1 = 0x8C04, SQ_GPR_RESOURCE_MGMT_3 = 0x8C0C;
constexpr uint32_t SQ_GLOBAL_GPR_RESOURCE_MGMT_1 = 0x8C10, SQ_GLOBAL_GPR_RESOURCE_MGMT_2 = 0x8C14;
constexpr uint32_t SQ_THREAD_RESOURCE_MGMT_1 = 0x8C18, SQ_STACK_RESOURCE_MGMT_3 = 0x8C28;
constexpr uint32_t SQ_DYN_GPR_CNTL_PS_FLUSH_REQ = 0x8D8C;
constexpr uint32_t SQ_LDS_RESOURCE_MGMT = 0x8E2C;
/* The compute (LS) stage's scratch ring: BASE and SIZE in 256-byte units, config space (the
 * kernel relocates BASE and checks neither: Linux evergreen_cs.c evergreen_cs_handle_reg);
 * ITEMSIZE, context space, in dwords per lane (Mesa r600_state_common.c
 * r600_setup_scratch_area_for_shader writes 4 dwords per scratch element). Multi-engine chips
 * take BASE/SIZE per shader engine through GRBM_GFX_INDEX (same function). */
constexpr uint32_t SQ_LSTMP_RING_BASE = 0x8E10, SQ_LSTMP_RING_SIZE = 0x8E14;
constexpr uint32_t SQ_LSTMP_RING_ITEMSIZE = 0x28830;
/* The vertex (VS) and pixel (PS) stages' rings, as r600g programs them for its draws
 * (evergreen_state.c evergreen_setup_scratch_buffers). */
constexpr uint32_t SQ_VSTMP_RING_BASE = 0x8C60, SQ_VSTMP_RING_SIZE = 0x8C64, SQ_VSTMP_RING_ITEMSIZE = 0x28910;
constexpr uint32_t SQ_PSTMP_RING_BASE = 0x8C68, SQ_PSTMP_RING_SIZE = 0x8C6C, SQ_PSTMP_RING_ITEMSIZE = 0x28914;
/* GRBM_GFX_INDEX: INSTANCE_INDEX 15:0, SE_INDEX 29:16, INSTANCE_BROADCAST_WRITES 30,
 * SE_BROADCAST_WRITES 31 (Mesa r600d.h S_0802C_*). */
constexpr uint32_t GRBM_GFX_INDEX = 0x802C;
constexpr uint32_t grbm_gfx_index_se(unsigned se) { return (se & 0x3fff) << 16; }
constexpr uint32_t GRBM_GFX_INDEX_INSTANCE_BROADCAST = 1u << 30, GRBM_GFX_INDEX_SE_BROADCAST = 1u << 31;

/* context */
constexpr uint32_t DB_DEPTH_CONTROL = 0x28800, DB_Z_INFO = 0x28040, DB_STENCIL_INFO = 0x28044;
constexpr uint32_t CB_TARGET_MASK = 0x28238, CB_SHADER_MASK = 0x2823C;
constexpr uint32_t SX_MISC = 0x28350, SX_SURFACE_SYNC = 0x28354;
constexpr uint32_t SPI_COMPUTE_INPUT_CNTL = 0x286E8;
constexpr uint32_t SPI_COMPUTE_NUM_THREAD_X = 0x286EC, SPI_COMPUTE_NUM_THREAD_Y = 0x286F0,
                   SPI_COMPUTE_NUM_THREAD_Z = 0x286F4;
constexpr uint32_t SPI_LDS_MGMT = 0x286FC; /* Cayman */
constexpr uint32_t SQ_DYN_GPR_RESOURCE_LIMIT_1 = 0x28838; /* Evergreen */
constexpr uint32_t SQ_PGM_START_LS = 0x288D0, SQ_PGM_RESOURCES_LS = 0x288D4,
                   SQ_PGM_RESOURCES_2_LS = 0x288D8;
constexpr uint32_t SQ_LDS_ALLOC = 0x288E8, SQ_LDS_ALLOC_PS = 0x288EC;
constexpr uint32_t VGT_GS_MODE = 0x28A40, VGT_SHADER_STAGES_EN = 0x28B54;
constexpr uint32_t SQ_ALU_CONST_CACHE_LS_0 = 0x28F40, SQ_ALU_CONST_BUFFER_SIZE_LS_0 = 0x28FC0;
constexpr uint32_t CB_COLOR0_BASE = 0x28C60; /* + 0x3C * n for n < 8 */
constexpr uint32_t CB_COLOR_STRIDE = 0x3C;
/* CB_IMMEDn_BASE: where RAT n's returning operations (*_RTN) write the old values, in 256-byte
 * units (Linux evergreen_reg.h / Mesa evergreend.h R_028B9C_CB_IMMED0_BASE, 4 bytes apart). */
constexpr uint32_t CB_IMMED0_BASE = 0x28B9C;
/* SQ_VTX_CONSTANT_WORD3.UNCACHED (bit 2; Mesa evergreend.h S_03000C_UNCACHED). */
constexpr uint32_t buffer_resource_uncached = 1u << 2;
enum CbColorRegister : uint32_t { Base = 0, Pitch = 4, Slice = 8, View = 0xC, Info = 0x10, Attrib = 0x14, Dim = 0x18 };
constexpr uint32_t CB_COLOR_INFO_RAT = 1u << 26;
constexpr uint32_t cb_color_info_format(uint32_t info) { return (info >> 2) & 0x3f; }

/* A RAT over a buffer, as Mesa 22.3.6's r600 compute path programs it (evergreen_set_rat):
 * CB_COLORn_INFO = COLOR_32 (format 0xD), NUMBER_UINT, linear, RAT; CB_COLORn_ATTRIB =
 * non-displayable tiling order. */
constexpr uint32_t rat_buffer_color_info = 0x04104134u;
constexpr uint32_t rat_buffer_color_attrib = 0x10u;

/* fetch resources: 8 dwords per slot; compute (LS) buffers start at slot 816 */
constexpr unsigned compute_fetch_resource_base = 816;
constexpr uint32_t resource_type(uint32_t word7) { return word7 >> 30; } /* 3: VALID_BUFFER */

/* The SQ_VTX_CONSTANT_WORD0-7 of a buffer (Mesa 22.3.6 r600 evergreen_state.c layout): base
 * address (the kernel adds the buffer object's), size - 1, stride in bits 8-18 of word 2 with
 * the address's high byte in bits 0-7, the destination swizzle word r600 uses, VALID_BUFFER. */
constexpr std::array<uint32_t, 8> buffer_fetch_resource(uint64_t address, uint32_t size,
                                                        uint32_t stride)
{
   return {uint32_t(address), size ? size - 1 : 0, (stride << 8) | (uint32_t(address >> 32) & 0xff),
           0x1A00u, 0, 0, 0, 3u << 30};
}
/* A uniform texel buffer: the same words with the element format and swizzle the fetch unit
 * converts through when a VFETCH sets USE_CONST_FIELDS. WORD2: DATA_FORMAT 25:20,
 * NUM_FORMAT_ALL 27:26, FORMAT_COMP_ALL 28; WORD3: DST_SEL_X/Y/Z/W at 3, 6, 9, 12 (Linux
 * evergreend.h SQ_VTX_CONSTANT_WORD2/3, Mesa evergreend.h S_030008_*). */
constexpr std::array<uint32_t, 8> texel_buffer_fetch_resource(uint64_t address, uint32_t size,
                                                              uint32_t stride, uint32_t data_format,
                                                              uint32_t num_format, bool is_signed,
                                                              const std::array<uint32_t, 4> &dst_sel)
{
   return {uint32_t(address), size ? size - 1 : 0,
           (stride << 8) | (uint32_t(address >> 32) & 0xff) | ((data_format & 0x3f) << 20) |
              ((num_format & 3) << 26) | (uint32_t(is_signed) << 28),
           (dst_sel[0] << 3) | (dst_sel[1] << 6) | (dst_sel[2] << 9) | (dst_sel[3] << 12), 0, 0, 0,
           3u << 30};
}
constexpr uint32_t buffer_resource_dst_sel(uint32_t word3, unsigned component)
{
   return (word3 >> (3 + 3 * component)) & 7;
}

constexpr unsigned compute_loop_const = 160; /* SQ_LOOP_CONST for the LS/CS stage */

} // namespace terakan::hw::reg
