/* Streamout (transform feedback) on Evergreen and Cayman: the VGT's registers, the
 * STRMOUT_BUFFER_UPDATE packet and the events that go with them. Offsets and fields are facts
 * from Mesa's src/gallium/drivers/r600/evergreend.h and r600d_common.h (PKT3_STRMOUT_*,
 * EVENT_TYPE_*); how the kernel checks them is in Linux's radeon evergreen_cs.c. */
#pragma once

#include <cstdint>

namespace terakan::hw::streamout {

constexpr unsigned buffer_count = 4, stream_count = 4;

/* Per buffer n, 16 bytes apart: BUFFER_SIZE (the end of the buffer's range, in dwords from
 * BUFFER_BASE), VTX_STRIDE (dwords per vertex), BUFFER_BASE (address >> 8, relocated) and
 * BUFFER_OFFSET (which the kernel forbids; STRMOUT_BUFFER_UPDATE sets the offset instead). */
constexpr uint32_t VGT_STRMOUT_BUFFER_SIZE_0 = 0x28AD0, VGT_STRMOUT_VTX_STRIDE_0 = 0x28AD4,
                   VGT_STRMOUT_BUFFER_BASE_0 = 0x28AD8, VGT_STRMOUT_BUFFER_OFFSET_0 = 0x28ADC;
constexpr uint32_t buffer_register_stride = 16;
/* VGT_STRMOUT_CONFIG: STREAMOUT_n_EN in bit n. VGT_STRMOUT_BUFFER_CONFIG: a nibble per stream,
 * the buffers that stream writes (STREAM_n_BUFFER_EN in bits 4n..4n+3). */
constexpr uint32_t VGT_STRMOUT_CONFIG = 0x28B94, VGT_STRMOUT_BUFFER_CONFIG = 0x28B98;
/* Config register r600g clears before SO_VGTSTREAMOUT_FLUSH and then waits on for
 * OFFSET_UPDATE_DONE (bit 0). */
constexpr uint32_t CP_STRMOUT_CNTL = 0x84FC, CP_STRMOUT_CNTL_OFFSET_UPDATE_DONE = 1;

/* STRMOUT_BUFFER_UPDATE control word (the packet's first dword). */
constexpr uint32_t update_store_filled_size = 1; /* STORE_BUFFER_FILLED_SIZE */
constexpr uint32_t update_offset_source(uint32_t control) { return (control >> 1) & 3; }
enum OffsetSource : uint32_t { from_packet = 0, from_filled_size = 1, from_memory = 2, source_none = 3 };
constexpr uint32_t update_select_buffer(uint32_t control) { return (control >> 8) & 3; }
/* DATA_TYPE (bit 7; "offset in bytes" when set, Mesa's amd/common sid.h and RADV's use). r600g
 * leaves it 0: offsets and filled sizes in dwords. */
constexpr uint32_t update_data_type_bytes = 1u << 7;

/* EVENT_WRITE types: SO_VGTSTREAMOUT_FLUSH (no address) and SAMPLE_STREAMOUTSTATS for stream
 * 0 (0x20) and streams 1..3 (0x1..0x3), which write a counter pair to memory. */
constexpr uint32_t event_so_vgtstreamout_flush = 0x1f;
constexpr uint32_t event_sample_streamoutstats = 0x20;
constexpr int stream_of_stats_event(uint32_t type)
{
   return type == event_sample_streamoutstats ? 0 : type >= 1 && type <= 3 ? int(type) : -1;
}

/* Drawing what streamout wrote (GL's DrawTransformFeedback in r600g's r600_draw_vbo): COPY_DW
 * puts a buffer's filled size into DRAW_OPAQUE_BUFFER_FILLED_SIZE, DRAW_OPAQUE_VERTEX_STRIDE
 * holds the vertex size in the same unit, and DRAW_INDEX_AUTO with VGT_DRAW_INITIATOR.USE_OPAQUE
 * (bit 6) draws filled size / stride vertices. Every driver leaves DRAW_OPAQUE_OFFSET 0
 * (r600g's and RADV's initial state). Mesa evergreend.h, r600d.h (COPY_DW_*). */
constexpr uint32_t VGT_STRMOUT_DRAW_OPAQUE_OFFSET = 0x28B28, VGT_STRMOUT_DRAW_OPAQUE_BUFFER_FILLED_SIZE = 0x28B2C,
                   VGT_STRMOUT_DRAW_OPAQUE_VERTEX_STRIDE = 0x28B30;
constexpr uint32_t draw_initiator_use_opaque = 1u << 6;
/* COPY_DW control (the packet's first dword): the source is memory (else a register), the
 * destination is memory (else a register). */
constexpr uint32_t copy_dw_source_memory = 1u << 0, copy_dw_destination_memory = 1u << 1;

/* PA_CL_CLIP_CNTL.DX_RASTERIZATION_KILL: primitives go to streamout and stop there (r600g's
 * GL_RASTERIZER_DISCARD, evergreen_create_rs_state). */
constexpr uint32_t clip_cntl_rasterization_kill = 1u << 22;

} // namespace terakan::hw::streamout
