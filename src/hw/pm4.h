/* PM4 command packets and the register windows they write, for Evergreen and Cayman.
 *
 * Facts from Linux drivers/gpu/drm/radeon/evergreend.h (PACKET3_* opcodes and the SET_*
 * register windows), radeon_cs.c (header fields), and Mesa 22.3.6 r600_pipe.h (the compute
 * "shader type" bit 1 of the type-3 header).
 */
#pragma once

#include <cstdint>

namespace terakan::hw::pm4 {

constexpr uint32_t type_of(uint32_t header) { return header >> 30; }
constexpr uint32_t count_of(uint32_t header) { return (header >> 16) & 0x3fff; }
constexpr uint32_t opcode_of(uint32_t header) { return (header >> 8) & 0xff; }
constexpr bool compute_bit(uint32_t header) { return header & 2; }
constexpr bool predicate_bit(uint32_t header) { return header & 1; }

/* A type-3 header: `count` is the number of body dwords minus one. */
constexpr uint32_t packet3(uint32_t opcode, uint32_t count, bool compute = false)
{
   return (3u << 30) | ((count & 0x3fff) << 16) | ((opcode & 0xff) << 8) | (compute ? 2u : 0u);
}
constexpr uint32_t packet2 = 0x80000000u;

enum Opcode : uint32_t {
   NOP = 0x10,
   SET_BASE = 0x11,
   CLEAR_STATE = 0x12,
   INDEX_BUFFER_SIZE = 0x13,
   DEALLOC_STATE = 0x14, /* Cayman */
   DISPATCH_DIRECT = 0x15,
   DISPATCH_INDIRECT = 0x16,
   INDIRECT_BUFFER_END = 0x17,
   MODE_CONTROL = 0x18,
   SET_PREDICATION = 0x20,
   REG_RMW = 0x21,
   COND_EXEC = 0x22,
   PRED_EXEC = 0x23,
   DRAW_INDIRECT = 0x24,
   DRAW_INDEX_INDIRECT = 0x25,
   INDEX_BASE = 0x26,
   DRAW_INDEX_2 = 0x27,
   CONTEXT_CONTROL = 0x28,
   DRAW_INDEX_OFFSET = 0x29,
   INDEX_TYPE = 0x2A,
   DRAW_INDEX = 0x2B,
   DRAW_INDEX_AUTO = 0x2D,
   DRAW_INDEX_IMMD = 0x2E,
   NUM_INSTANCES = 0x2F,
   DRAW_INDEX_MULTI_AUTO = 0x30,
   INDIRECT_BUFFER = 0x32,
   STRMOUT_BUFFER_UPDATE = 0x34,
   DRAW_INDEX_OFFSET_2 = 0x35,
   COPY_DW = 0x3B,
   WAIT_REG_MEM = 0x3C,
   MEM_WRITE = 0x3D,
   CP_DMA = 0x41,
   PFP_SYNC_ME = 0x42,
   SURFACE_SYNC = 0x43,
   ME_INITIALIZE = 0x44,
   COND_WRITE = 0x45,
   EVENT_WRITE = 0x46,
   EVENT_WRITE_EOP = 0x47,
   EVENT_WRITE_EOS = 0x48,
   SET_CONFIG_REG = 0x68,
   SET_CONTEXT_REG = 0x69,
   SET_ALU_CONST = 0x6A,
   SET_BOOL_CONST = 0x6B,
   SET_LOOP_CONST = 0x6C,
   SET_RESOURCE = 0x6D,
   SET_SAMPLER = 0x6E,
   SET_CTL_CONST = 0x6F,
   SET_APPEND_CNT = 0x75,
};

/* SURFACE_SYNC / CP_COHER_CNTL bits (evergreend.h, PACKET3_*_ENA). */
namespace coher {
constexpr uint32_t cb_dest_base(unsigned n) { return 1u << (6 + n); } /* CB0-7 */
constexpr uint32_t FULL_CACHE = 1u << 20, TC_ACTION = 1u << 23, VC_ACTION = 1u << 24,
                   CB_ACTION = 1u << 25, DB_ACTION = 1u << 26, SH_ACTION = 1u << 27,
                   SX_ACTION = 1u << 28;
} // namespace coher

/* EVENT_WRITE event types and indices (evergreend.h EVENT_TYPE/EVENT_INDEX; the type numbers
 * from Mesa's r600 evergreend.h). */
constexpr uint32_t event(uint32_t type, uint32_t index) { return type | (index << 8); }
constexpr uint32_t EVENT_CS_PARTIAL_FLUSH = event(0x07, 4);
/* Waits for pixel shaders (and so every draw) to finish; flushes and invalidates the CB and
 * DB caches (Mesa evergreend.h EVENT_TYPE_PS_PARTIAL_FLUSH, _CACHE_FLUSH_AND_INV_EVENT). */
constexpr uint32_t EVENT_PS_PARTIAL_FLUSH = event(0x10, 4);
constexpr uint32_t EVENT_CACHE_FLUSH_AND_INV = event(0x16, 0);
constexpr uint32_t event_type_zpass_done = 0x15; /* EVENT_INDEX 1; writes the DB's sample counts */
constexpr uint32_t EVENT_CACHE_FLUSH_AND_INV_TS = event(0x14, 5);
/* Pipeline statistics (Mesa r600d_common.h EVENT_TYPE_PIPELINESTAT_START 25, _STOP 26,
 * EVENT_TYPE_SAMPLE_PIPELINESTAT 30; r600g sends START in every command stream's preamble and
 * STOP when no statistics query is active, and SAMPLE_PIPELINESTAT with EVENT_INDEX 2 and an
 * address, which receives eleven 64-bit counters in this order (Mesa r600_query.c
 * r600_query_hw_add_result on Evergreen and later; no written flag: r600g fences them). */
constexpr uint32_t EVENT_PIPELINESTAT_START = event(25, 0), EVENT_PIPELINESTAT_STOP = event(26, 0);
constexpr uint32_t event_type_sample_pipelinestat = 30; /* EVENT_INDEX 2 */
enum PipelineStatistic : unsigned {
   stat_ps_invocations,
   stat_clipper_primitives,
   stat_clipper_invocations,
   stat_vs_invocations,
   stat_gs_invocations,
   stat_gs_primitives,
   stat_ia_primitives,
   stat_ia_vertices,
   stat_hs_invocations,
   stat_ds_invocations,
   stat_cs_invocations,
   pipeline_statistic_count
};

/* CP_DMA (evergreend.h PACKET3_CP_DMA_*): word 1 holds the selects, word 4 the command. */
namespace cp_dma {
constexpr uint32_t CP_SYNC = 1u << 31;
constexpr uint32_t src_sel(uint32_t s) { return s << 29; } /* 0: memory, 2: the data dword */
constexpr uint32_t dst_sel(uint32_t s) { return s << 20; } /* 0: memory */
constexpr uint32_t max_bytes = (1u << 21) - 1;              /* command BYTE_COUNT field */
constexpr uint32_t src_sel_of(uint32_t word1) { return (word1 >> 29) & 3; }
constexpr uint32_t dst_sel_of(uint32_t word1) { return (word1 >> 20) & 3; }
constexpr uint32_t byte_count_of(uint32_t command) { return command & max_bytes; }
/* Command bits: source/destination address space is a register (SAS/DAS), and the register
 * address does not increment (SAIC/DAIC). */
constexpr uint32_t SAS = 1u << 26, DAS = 1u << 27, SAIC = 1u << 28, DAIC = 1u << 29;
} // namespace cp_dma

/* EVENT_WRITE_EOP word 2: DATA_SEL (1: low 32 bits of the data, 2: 64 bits, 3: the GPU clock). */
constexpr uint32_t eop_data_sel(uint32_t sel) { return sel << 29; }

/* The initiator word of DISPATCH_DIRECT/INDIRECT (VGT_DISPATCH_INITIATOR): COMPUTE_SHADER_EN. */
constexpr uint32_t DISPATCH_INITIATOR_COMPUTE_SHADER_EN = 1;

/* MEM_WRITE word 1: write only the low dword (DATA32). */
constexpr uint32_t MEM_WRITE_DATA32 = 1u << 18;

/* WAIT_REG_MEM word 0: FUNCTION (bits 0-2; 3 = equal) and MEM_SPACE (bit 4: memory, not a
 * register). */
namespace wait_reg_mem {
constexpr uint32_t FUNCTION_EQUAL = 3, MEM_SPACE = 1u << 4;
constexpr uint32_t function_of(uint32_t word0) { return word0 & 7; }
} // namespace wait_reg_mem

/* COND_WRITE (8 body dwords): word 0 FUNCTION (bits 0-2, WAIT_REG_MEM's comparisons of
 * (polled value & mask) with the reference: 0 always, 1 <, 2 <=, 3 ==, 4 !=, 5 >=, 6 >),
 * POLL_SPACE (bit 4: memory) and WRITE_SPACE (bit 8: memory); words 1-2 the polled address (or
 * register), 3 the reference, 4 the mask, 5-6 the written address (or register), 7 the data
 * written when the comparison holds. Layout and space bits: Linux evergreen_cs.c
 * (evergreen_packet3_check, PACKET3_COND_WRITE); field names and the function values: AMD's
 * public PM4 headers (PM4_ME_COND_WRITE, ME_COND_WRITE_function_enum), whose packet keeps the
 * opcode and layout the Evergreen kernel checks. */
namespace cond_write {
constexpr uint32_t POLL_MEMORY = 1u << 4, WRITE_MEMORY = 1u << 8;
constexpr uint32_t FUNCTION_EQUAL = 3, FUNCTION_NOT_EQUAL = 4, FUNCTION_GREATER = 6;
constexpr uint32_t function_of(uint32_t word0) { return word0 & 7; }
} // namespace cond_write

/* The comparison WAIT_REG_MEM and COND_WRITE share. */
constexpr bool compare_function_passes(uint32_t function, uint32_t value, uint32_t reference)
{
   switch (function) {
   case 0: return true;
   case 1: return value < reference;
   case 2: return value <= reference;
   case 3: return value == reference;
   case 4: return value != reference;
   case 5: return value >= reference;
   case 6: return value > reference;
   default: return false;
   }
}

struct RegisterWindow {
   uint32_t start, end; /* byte register offsets, end exclusive */
};

constexpr RegisterWindow config_window{0x8000, 0xAC00};
constexpr RegisterWindow context_window{0x28000, 0x29000};
constexpr RegisterWindow resource_window{0x30000, 0x38000};
constexpr RegisterWindow loop_const_window{0x3A200, 0x3A500};
constexpr RegisterWindow bool_const_window{0x3A500, 0x3A518};
constexpr RegisterWindow sampler_window{0x3C000, 0x3C600};
constexpr RegisterWindow ctl_const_window{0x3CFF0, 0x3FF0C};

} // namespace terakan::hw::pm4
