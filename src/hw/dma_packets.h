/* Packets of the asynchronous DMA engine of Evergreen and Cayman (the ring the radeon kernel
 * offers as RADEON_CS_RING_DMA; Cayman has two such engines). Written once here for the
 * simulator's DMA checker and engine, and for any driver that builds DMA streams.
 *
 * Facts: Linux drivers/gpu/drm/radeon/evergreend.h and nid.h (DMA_PACKET header, GET_DMA_*,
 * the packet numbers), evergreen_cs.c evergreen_dma_cs_parse (the sub-commands, their sizes and
 * where their addresses sit), evergreen_dma.c (the dword copy), Mesa 22.3.6
 * evergreen_hw_context.c evergreen_dma_copy_buffer and evergreen_state.c evergreen_dma_copy_tile
 * (the fields of the tiled copy; the field widths below are the room r600g's packing leaves
 * between fields: no document we could read states them).
 */
#pragma once

#include <cstdint>

namespace terakan::hw::dma {

/* Header: packet number [31:28], sub-command [27:20], count [19:0] (dwords for most packets,
 * bytes for the byte-aligned linear copy). */
constexpr uint32_t command_of(uint32_t header) { return header >> 28; }
constexpr uint32_t sub_command_of(uint32_t header) { return (header >> 20) & 0xff; }
constexpr uint32_t count_of(uint32_t header) { return header & 0xfffff; }
constexpr uint32_t header(uint32_t command, uint32_t sub_command, uint32_t count)
{
   return (command & 0xf) << 28 | (sub_command & 0xff) << 20 | (count & 0xfffff);
}

enum Command : uint32_t {
   WRITE = 0x2,
   COPY = 0x3,
   INDIRECT_BUFFER = 0x4, /* kernel only (ring), refused in a CS */
   SEMAPHORE = 0x5,       /* kernel only */
   FENCE = 0x6,           /* kernel only */
   TRAP = 0x7,            /* kernel only */
   SRBM_WRITE = 0x9,      /* kernel only */
   CONSTANT_FILL = 0xd,
   NOP = 0xf,
};

/* What a NOP dword looks like (r600g pads and waits for idle with it). */
constexpr uint32_t nop = 0xf0000000u;

/* DMA_PACKET_WRITE sub-commands. */
constexpr uint32_t write_linear = 0x00, write_tiled = 0x08;

/* DMA_PACKET_COPY sub-commands and the number of dwords each packet takes, header included
 * (evergreen_dma_cs_parse's p->idx steps). */
enum CopyKind : uint32_t {
   COPY_LINEAR_DWORDS = 0x00,          /* 5: dst lo, src lo, dst hi, src hi */
   COPY_TILED = 0x08,                  /* 9: L2T or T2L by the detile bit */
   COPY_LINEAR_BYTES = 0x40,           /* 5: like 0x00, count in bytes */
   COPY_LINEAR_PARTIAL = 0x41,         /* 9, Cayman only */
   COPY_LINEAR_BROADCAST = 0x44,       /* 7: dst lo, dst2 lo, src lo, dst hi, dst2 hi, src hi */
   COPY_TILED_FRAME_TO_FIELD = 0x48,   /* 10 */
   COPY_TILED_PARTIAL = 0x49,          /* 12, Cayman only */
   COPY_TILED_BROADCAST = 0x4b,        /* 10 */
   COPY_TILED_TILE_UNITS = 0x4c,       /* 9 */
   COPY_TILED_TO_TILED_PARTIAL = 0x4d, /* 13, Cayman only */
   COPY_TILED_BROADCAST_TILE_UNITS = 0x4f, /* 10 */
};

/* The dword copy moves at most this many units per packet (EG_DMA_COPY_MAX_SIZE). */
constexpr uint32_t copy_max_count = 0xfffff;

/* DMA_PACKET_COPY with COPY_TILED, after the header:
 *   dw1: tiled surface base >> 8
 *   dw2: DETILE [31] (1: tiled source, linear destination), ARRAY_MODE [30:27] (2: 1D tiled
 *        thin1, 4: 2D tiled thin1), log2(bytes per element) [26:24], BANK_HEIGHT [23:21],
 *        BANK_WIDTH [20:18], MACRO_TILE_ASPECT [17:16] (codes 0-3 for 1, 2, 4, 8)
 *   dw3: PITCH_TILE_MAX [15:0] (pitch / 8 - 1), HEIGHT - 1 [31:16] (rows of the tiled level)
 *   dw4: SLICE_TILE_MAX (pitch * height / 64 - 1)
 *   dw5: X [17:0], Z [31:18] (elements, slice)
 *   dw6: Y [20:0], TILE_SPLIT [24:21] (64 << code bytes), NUM_BANKS [26:25] (2 << code),
 *        NON_DISP_TILING [28]
 *   dw7: linear address [31:2] (dword aligned), dw8: linear address [39:32]
 * The count in the header is the number of dwords moved. */
namespace tiled {
constexpr bool detile(uint32_t dw2) { return dw2 >> 31; }
constexpr uint32_t array_mode(uint32_t dw2) { return (dw2 >> 27) & 0xf; }
constexpr uint32_t log2_bytes_per_element(uint32_t dw2) { return (dw2 >> 24) & 0x7; }
constexpr uint32_t bank_height_code(uint32_t dw2) { return (dw2 >> 21) & 0x7; }
constexpr uint32_t bank_width_code(uint32_t dw2) { return (dw2 >> 18) & 0x7; }
constexpr uint32_t macro_tile_aspect_code(uint32_t dw2) { return (dw2 >> 16) & 0x3; }
constexpr uint32_t pitch_tile_max(uint32_t dw3) { return dw3 & 0xffff; }
constexpr uint32_t height_minus_one(uint32_t dw3) { return dw3 >> 16; }
constexpr uint32_t x(uint32_t dw5) { return dw5 & 0x3ffff; }
constexpr uint32_t z(uint32_t dw5) { return dw5 >> 18; }
constexpr uint32_t y(uint32_t dw6) { return dw6 & 0x1fffff; }
constexpr uint32_t tile_split_code(uint32_t dw6) { return (dw6 >> 21) & 0xf; }
constexpr uint32_t num_banks_code(uint32_t dw6) { return (dw6 >> 25) & 0x3; }
constexpr bool non_displayable(uint32_t dw6) { return (dw6 >> 28) & 1; }

struct Fields {
   bool detile = false;
   uint32_t array_mode = 2, log2_bpe = 2, bank_height = 0, bank_width = 0, macro_tile_aspect = 0;
   uint32_t pitch_tile_max = 0, height_minus_one = 0, slice_tile_max = 0;
   uint32_t x = 0, y = 0, z = 0, tile_split = 4, num_banks = 2;
   bool non_displayable = false;
};
/* dw2..dw6 of a tiled copy from its fields (for tests and drivers). */
constexpr void encode(const Fields &f, uint32_t out[5])
{
   out[0] = uint32_t(f.detile) << 31 | (f.array_mode & 0xf) << 27 | (f.log2_bpe & 7) << 24 |
            (f.bank_height & 7) << 21 | (f.bank_width & 7) << 18 | (f.macro_tile_aspect & 3) << 16;
   out[1] = (f.pitch_tile_max & 0xffff) | f.height_minus_one << 16;
   out[2] = f.slice_tile_max;
   out[3] = (f.x & 0x3ffff) | f.z << 18;
   out[4] = (f.y & 0x1fffff) | (f.tile_split & 0xf) << 21 | (f.num_banks & 3) << 25 |
            uint32_t(f.non_displayable) << 28;
}
} // namespace tiled

} // namespace terakan::hw::dma
