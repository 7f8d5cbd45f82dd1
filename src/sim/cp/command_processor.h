/* The command processor: executes a checked and patched command stream against the GPU's
 * register state, which persists across submissions as on the hardware (until CLEAR_STATE).
 * Compute dispatches go to the shader core. Anything the real GPU would hang on or fault on
 * stops the submission with a message; the device is then lost (as after a GPU reset). */
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/compute_dispatch.h"
#include "core/gpu_memory.h"
#include "cp/timing_model.h"
#include "gfx/streamout.h"
#include "hw/chips.h"
#include "hw/pm4.h"

namespace terakan::sim {

class CommandProcessor {
public:
   /* `tiling`: the board's tiling parameters (what RADEON_INFO_TILING_CONFIG reports, decoded);
    * the default is an 8-pipe, 8-bank board such as the simulated Cayman, Barts or Cypress. */
   CommandProcessor(hw::Family family, GpuMemory &memory, const hw::TilingConfig &tiling = {});

   /* Runs one IB. Returns an empty string on success. */
   std::string execute(std::span<const uint32_t> ib);

   const DispatchStatistics &statistics() const { return totals; }
   void set_trace(TraceLevel level) { trace = level; }
   /* One line per draw on stderr, without the packet trace (TERAKAN_SIM_TRACE=draws). */
   void set_trace_draws(bool on) { trace_draws = on; }
   /* After every draw, PNGs of the bound colour, depth and stencil buffers into `directory`
    * (gfx/dump.h); `chip` goes into the file names. An empty directory turns it off. */
   /* The board's render backends (RADEON_INFO_NUM_BACKENDS): ZPASS_DONE writes one counter
    * pair slot per backend. */
   void set_render_backends(unsigned count) { zpass_counts.assign(count ? count : 1, 0); }
   /* Whether the program runs while the CP does (the shim's GPU thread), and so may still
    * change a dword a WAIT_REG_MEM polls: the CP then polls memory until the condition holds
    * or `lockup_ms` have passed (the kernel's lockup detection), instead of calling the wait
    * endless at once. */
   /* The board's figures for GPU timestamps (cp/timing_model.h); without them the timestamp
    * counter steps by 1000 per timestamp written. */
   void set_timing_model(const TimingModel &model) { timing = model; }
   void set_concurrent_host(bool concurrent, unsigned lockup_ms)
   {
      concurrent_host = concurrent;
      lockup_timeout_ms = lockup_ms;
   }
   void set_dump(std::string directory, std::string chip)
   {
      dump_directory = std::move(directory);
      dump_chip = std::move(chip);
   }

private:
   /* Adds one dispatch's or draw's modelled time. */
   void account_time(const WorkDone &work) { modelled_clocks += modelled_engine_clocks(timing, work); }
   TimingModel timing;
   uint64_t modelled_clocks = 0, timestamp_ticks = 0;
   bool concurrent_host = false;
   unsigned lockup_timeout_ms = 0;
   hw::Family family;
   hw::IsaClass isa;
   hw::TilingConfig tiling;
   unsigned wave_size;
   GpuMemory &memory;
   TraceLevel trace = TraceLevel::None;
   bool trace_draws = false;
   std::string dump_directory, dump_chip;
   DispatchStatistics totals;

   std::map<uint32_t, uint32_t> config;
   std::map<uint32_t, uint32_t> context_compute, context_graphics;
   std::vector<uint32_t> resources;   /* the SET_RESOURCE window, in dwords */
   std::vector<uint32_t> loop_consts; /* the SET_LOOP_CONST window */
   std::vector<uint32_t> samplers;    /* the SET_SAMPLER window, in dwords */
   std::map<uint32_t, uint32_t> ctl_consts; /* SET_CTL_CONST, by register address */
   /* Each render backend's count of samples that passed the depth and stencil tests. The
    * simulator counts every sample in backend 0: the hardware splits the screen between them,
    * and readers (occlusion queries) add the backends up. */
   std::vector<uint64_t> zpass_counts = std::vector<uint64_t>(1, 0);
   /* The pipeline statistics counters, in SAMPLE_PIPELINESTAT's order (hw/pm4.h), counting
    * between EVENT_WRITE PIPELINESTAT_START and _STOP (stopped at power-on: *derived* from
    * r600g starting them in every command stream). What each counts is the simulator's
    * reading of its name (docs/sim-semantics.md, "Pipeline statistics"). */
   std::array<uint64_t, hw::pm4::pipeline_statistic_count> pipeline_statistics{};
   bool pipeline_statistics_counting = false;
   uint32_t index_type = 0;    /* INDEX_TYPE: 0 16-bit, 1 32-bit */
   uint32_t num_instances = 1; /* NUM_INSTANCES */
   uint64_t indirect_base = 0;     /* SET_BASE index 1: the draw-indirect argument buffer */
   uint64_t index_base = 0;        /* INDEX_BASE: the index buffer of DRAW_INDEX_INDIRECT and _OFFSET_2 */
   uint32_t index_buffer_size = 0; /* INDEX_BUFFER_SIZE: its length in indices */
   /* While a DRAW_INDEX_INDIRECT runs: how many indices INDEX_BUFFER_SIZE leaves it. */
   uint32_t index_limit = UINT32_MAX;
   uint64_t draws = 0;
   /* TD_{PS,VS,CS}_SAMPLER*_BORDER_*: the colour written for each sampler, by sampler slot
    * (stage base + index). */
   std::map<unsigned, std::array<float, 4>> border_colours;
   /* The VGT's streamout buffer offsets and primitive counters (gfx/streamout.h). */
   StreamoutCounters streamout;
   /* SET_PREDICATION's verdict on packets whose header has the predicate bit (bit 0) set:
    * whether they run. Cleared (operation 0, and before any SET_PREDICATION) they all run.
    * `chain_visible`/`chain_unavailable` carry a ZPASS evaluation on to the next packet with
    * the CONTINUE bit. */
   struct Predication {
      bool active = false;
      bool draw_if_visible = true;
      bool chain_visible = false, chain_unavailable = false;
      bool passes = true;
   } predication;

   uint32_t get(const std::map<uint32_t, uint32_t> &registers, uint32_t reg) const;
   std::string dispatch(std::span<const uint32_t> body);
   std::string draw(uint32_t opcode, std::span<const uint32_t> body);
   std::string draw_indirect(uint32_t opcode, std::span<const uint32_t> body);
   std::string copy_dword(std::span<const uint32_t> body);
   std::string set_predication(std::span<const uint32_t> body);
   std::string write_memory(uint64_t address, const void *data, size_t size, const char *packet);
};

} // namespace terakan::sim
