#include "command_processor.h"

#include <chrono>
#include <thread>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "core/shader_core.h"
#include "gfx/draw.h"
#include "gfx/dump.h"
#include "gfx/typed_rat.h"
#include "hw/graphics_registers.h"
#include "hw/pm4.h"
#include "hw/registers.h"

namespace terakan::sim {

using namespace hw;

CommandProcessor::CommandProcessor(Family family_, GpuMemory &memory_, const hw::TilingConfig &tiling_)
   : family(family_), isa(family_info(family_).isa_class), tiling(tiling_),
     /* Wavefronts are 32 wide on Cedar and Palm, 64 elsewhere (Mesa r600_wavefront_size,
      * LLVM R600Processors.td). */
     wave_size(family_ == Family::Cedar || family_ == Family::Palm ? 32 : 64), memory(memory_),
     resources((pm4::resource_window.end - pm4::resource_window.start) / 4, 0),
     loop_consts((pm4::loop_const_window.end - pm4::loop_const_window.start) / 4, 0),
     samplers((pm4::sampler_window.end - pm4::sampler_window.start) / 4, 0)
{
}

/* SQ_{ES,GS,VS,PS}TMP_RING_BASE/SIZE (0x8C50-0x8C6C) and SQ_{LS,HS}TMP_RING_BASE/SIZE
 * (0x8E10-0x8E1C): Mesa evergreend.h. */
static bool is_scratch_ring_register(uint32_t reg)
{
   return (reg >= 0x8C50 && reg <= 0x8C6C) || (reg >= 0x8E10 && reg <= 0x8E1C);
}

uint32_t CommandProcessor::get(const std::map<uint32_t, uint32_t> &registers, uint32_t reg) const
{
   const auto found = registers.find(reg);
   return found == registers.end() ? 0 : found->second;
}

std::string CommandProcessor::write_memory(uint64_t address, const void *data, size_t size,
                                           const char *packet)
{
   std::string error;
   if (!memory.write(address, data, size, error)) {
      char text[160];
      std::snprintf(text, sizeof(text), "%s writes 0x%llx: ", packet, (unsigned long long)address);
      return text + error;
   }
   return {};
}

std::string CommandProcessor::execute(std::span<const uint32_t> ib)
{
   size_t idx = 0;
   while (idx < ib.size()) {
      const uint32_t header = ib[idx];
      if (pm4::type_of(header) == 2) {
         idx++;
         continue;
      }
      const uint32_t count = pm4::count_of(header), opcode = pm4::opcode_of(header);
      const std::span<const uint32_t> body = ib.subspan(idx + 1, count + 1);
      if (trace >= TraceLevel::Packets)
         std::fprintf(stderr, "terakan-sim: [%zu] PKT3 0x%02x count %u%s\n", idx, opcode, count,
                      pm4::compute_bit(header) ? " (compute)" : "");
      idx += count + 2;
      /* The header's predicate bit: r600g sets it on its draws and dispatches while a render
       * condition is active (Mesa r600_state_common.c r600_draw_vbo, evergreen_compute.c);
       * SET_PREDICATION decides whether they run. */
      if (pm4::predicate_bit(header)) {
         const bool predicable = opcode == pm4::DRAW_INDEX_AUTO || opcode == pm4::DRAW_INDEX ||
                                 opcode == pm4::DRAW_INDEX_2 || opcode == pm4::DRAW_INDEX_OFFSET_2 ||
                                 opcode == pm4::DRAW_INDEX_IMMD || opcode == pm4::DRAW_INDIRECT ||
                                 opcode == pm4::DRAW_INDEX_INDIRECT || opcode == pm4::DISPATCH_DIRECT ||
                                 opcode == pm4::DISPATCH_INDIRECT;
         if (!predicable) {
            char text[112];
            std::snprintf(text, sizeof(text),
                          "PM4 packet 0x%02x has the predicate bit set: predicating it is not simulated", opcode);
            return text;
         }
         if (!predication.passes) {
            if (trace >= TraceLevel::Packets || trace_draws)
               std::fprintf(stderr, "terakan-sim: [%zu] PKT3 0x%02x skipped: SET_PREDICATION says no\n",
                            idx - count - 2, opcode);
            continue;
         }
      }
      std::string error;
      switch (opcode) {
      case pm4::NOP:
      case pm4::CONTEXT_CONTROL:
      case pm4::PFP_SYNC_ME:
      case pm4::SURFACE_SYNC: /* caches are coherent in the simulator */
      case pm4::DEALLOC_STATE:
      case pm4::SET_ALU_CONST:
      case pm4::SET_BOOL_CONST:
         break;
      case pm4::SET_CTL_CONST:
         for (uint32_t i = 0; i < count; i++)
            ctl_consts[pm4::ctl_const_window.start + (body[0] << 2) + 4 * i] = body[1 + i];
         break;
      case pm4::INDEX_TYPE:
         index_type = body[0] & 3;
         if (index_type > 1)
            return "INDEX_TYPE: index type " + std::to_string(index_type) + " is not defined";
         if (body[0] & 0xc)
            return "INDEX_TYPE: index byte swapping is not simulated";
         break;
      case pm4::NUM_INSTANCES:
         num_instances = body[0];
         break;
      case pm4::SET_BASE:
         if (body[0] != 1)
            return "SET_BASE: base index " + std::to_string(body[0]) + " is not simulated";
         indirect_base = (body[1] & ~7u) | (uint64_t(body[2] & 0xff) << 32);
         break;
      case pm4::INDEX_BASE:
         index_base = body[0] | (uint64_t(body[1] & 0xff) << 32);
         break;
      case pm4::INDEX_BUFFER_SIZE:
         index_buffer_size = body[0];
         break;
      case pm4::DRAW_INDIRECT:
      case pm4::DRAW_INDEX_INDIRECT:
         error = draw_indirect(opcode, body);
         break;
      case pm4::DRAW_INDEX_AUTO:
      case pm4::DRAW_INDEX:
      case pm4::DRAW_INDEX_2:
      case pm4::DRAW_INDEX_OFFSET_2:
      case pm4::DRAW_INDEX_IMMD:
         error = draw(opcode, body);
         break;
      case pm4::CLEAR_STATE:
         context_compute.clear();
         context_graphics.clear();
         ctl_consts.clear();
         border_colours.clear();
         break;
      case pm4::EVENT_WRITE:
         /* SO_VGTSTREAMOUT_FLUSH: the VGT's offsets are final at once here, so the CP reports
          * OFFSET_UPDATE_DONE right away (r600g clears CP_STRMOUT_CNTL, sends the event and
          * waits for the bit, Mesa r600_flush_vgt_streamout). */
         if (count == 0 && (body[0] & 0x3f) == streamout::event_so_vgtstreamout_flush)
            config[streamout::CP_STRMOUT_CNTL] |= streamout::CP_STRMOUT_CNTL_OFFSET_UPDATE_DONE;
         if (count == 0 && (body[0] & 0x3f) == (pm4::EVENT_PIPELINESTAT_START & 0x3f))
            pipeline_statistics_counting = true;
         if (count == 0 && (body[0] & 0x3f) == (pm4::EVENT_PIPELINESTAT_STOP & 0x3f))
            pipeline_statistics_counting = false;
         if (count == 2 && (body[0] & 0x3f) == pm4::event_type_sample_pipelinestat) {
            /* Eleven 64-bit counters from the 8-byte aligned address, no written flag. */
            const uint64_t address = (body[1] & ~7u) | (uint64_t(body[2] & 0xff) << 32);
            error = write_memory(address, pipeline_statistics.data(), 8 * pipeline_statistics.size(),
                                 "EVENT_WRITE SAMPLE_PIPELINESTAT");
         } else if (count == 2 && streamout::stream_of_stats_event(body[0] & 0x3f) >= 0) {
            const uint64_t address = (body[1] & ~7u) | (uint64_t(body[2] & 0xff) << 32);
            error = sample_streamout_stats(unsigned(streamout::stream_of_stats_event(body[0] & 0x3f)), address,
                                           streamout, memory);
         } else if (count == 2) {
            /* ZPASS_DONE: every render backend writes its 64-bit sample count with bit 63 set
             * (the "written" flag r600g's occlusion queries wait for), 16 bytes apart (Mesa
             * r600_query.c: pair stride 16, one pair per backend). */
            const uint32_t type = body[0] & 0x3f;
            if (type != pm4::event_type_zpass_done)
               return "EVENT_WRITE: event type " + std::to_string(type) + " with an address is not simulated yet";
            const uint64_t address = (body[1] & ~7u) | (uint64_t(body[2] & 0xff) << 32);
            for (size_t backend = 0; backend < zpass_counts.size() && error.empty(); backend++) {
               const uint64_t value = zpass_counts[backend] | (uint64_t(1) << 63);
               error = write_memory(address + 16 * backend, &value, 8, "EVENT_WRITE ZPASS_DONE");
            }
         }
         break;
      case pm4::EVENT_WRITE_EOP: {
         const uint64_t address = body[1] | (uint64_t(body[2] & 0xff) << 32);
         const uint32_t data_sel = (body[2] >> 29) & 7;
         if (data_sel == 1) {
            error = write_memory(address, &body[3], 4, "EVENT_WRITE_EOP");
         } else if (data_sel == 2) {
            const uint32_t data[2] = {body[3], body[4]};
            error = write_memory(address, data, 8, "EVENT_WRITE_EOP");
         } else if (data_sel == 3) {
            /* The GPU timestamp, in reference-clock ticks: the modelled time of the work so
             * far (cp/timing_model.h), at least one tick after the previous timestamp; without
             * a model, 1000 ticks per timestamp. */
            uint64_t ticks = timestamp_ticks + 1000;
            if (timing.engine_clock_khz && timing.crystal_clock_khz) {
               const unsigned __int128 scaled =
                  (unsigned __int128)modelled_clocks * timing.crystal_clock_khz / timing.engine_clock_khz;
               ticks = std::max<uint64_t>(uint64_t(scaled), timestamp_ticks + 1);
            }
            timestamp_ticks = ticks;
            error = write_memory(address, &ticks, 8, "EVENT_WRITE_EOP");
         }
         break;
      }
      case pm4::MEM_WRITE: {
         const uint64_t address = body[0] | (uint64_t(body[1] & 0xff) << 32);
         const bool dword_only = body[1] & pm4::MEM_WRITE_DATA32;
         const uint32_t data[2] = {body[2], body[3]};
         error = write_memory(address, data, dword_only ? 4 : 8, "MEM_WRITE");
         break;
      }
      case pm4::WAIT_REG_MEM: {
         const bool on_register = !(body[0] & pm4::wait_reg_mem::MEM_SPACE);
         /* Register waits: CP_STRMOUT_CNTL only (body[1] is its dword address), which r600g
          * polls after SO_VGTSTREAMOUT_FLUSH. */
         if (on_register && body[1] != streamout::CP_STRMOUT_CNTL >> 2) {
            char text[80];
            std::snprintf(text, sizeof(text), "WAIT_REG_MEM on register 0x%x is not simulated", body[1] << 2);
            return text;
         }
         const uint64_t address = (body[1] & ~3u) | (uint64_t(body[2] & 0xff) << 32);
         uint32_t value = on_register ? get(config, streamout::CP_STRMOUT_CNTL) : 0;
         std::string read_error;
         if (!on_register && !memory.read(address, &value, 4, read_error))
            return "WAIT_REG_MEM reads " + read_error;
         const uint32_t reference = body[3], mask = body[4],
                        function = pm4::wait_reg_mem::function_of(body[0]);
         bool passes = pm4::compare_function_passes(function, value & mask, reference);
         /* The program runs beside the GPU thread and may still write the dword (vkSetEvent):
          * poll it, every 100 us, until the kernel would call the GPU locked up. Without a
          * concurrent program nothing can change it: the ring would hang. */
         if (!passes && !on_register && concurrent_host) {
            const auto give_up = std::chrono::steady_clock::now() + std::chrono::milliseconds(lockup_timeout_ms);
            while (!passes && std::chrono::steady_clock::now() < give_up) {
               std::this_thread::sleep_for(std::chrono::microseconds(100));
               if (!memory.read(address, &value, 4, read_error))
                  return "WAIT_REG_MEM reads " + read_error;
               passes = pm4::compare_function_passes(function, value & mask, reference);
            }
         }
         if (!passes) {
            char text[200];
            std::snprintf(text, sizeof(text),
                          "WAIT_REG_MEM at 0x%llx would wait forever (value 0x%x, mask 0x%x, "
                          "reference 0x%x, function %u%s)",
                          (unsigned long long)address, value, mask, reference, function,
                          concurrent_host && !on_register ? "; the kernel's lockup time-out passed" : "");
            return text;
         }
         break;
      }
      case pm4::COND_WRITE: {
         /* Polls a dword, compares (value & mask) with the reference, writes the data dword
          * when the comparison holds. Registers on either side are not simulated. */
         if (!(body[0] & pm4::cond_write::POLL_MEMORY) || !(body[0] & pm4::cond_write::WRITE_MEMORY))
            return "COND_WRITE polling or writing a register is not simulated";
         if (pm4::cond_write::function_of(body[0]) == 7)
            return "COND_WRITE function 7 is not defined";
         const uint64_t poll = (body[1] & ~3u) | (uint64_t(body[2] & 0xff) << 32);
         uint32_t value = 0;
         std::string read_error;
         if (!memory.read(poll, &value, 4, read_error))
            return "COND_WRITE reads " + read_error;
         if (pm4::compare_function_passes(pm4::cond_write::function_of(body[0]), value & body[4], body[3])) {
            const uint64_t target = (body[5] & ~3u) | (uint64_t(body[6] & 0xff) << 32);
            error = write_memory(target, &body[7], 4, "COND_WRITE");
         }
         break;
      }
      case pm4::CP_DMA: {
         const uint32_t info = body[1], command = body[4];
         const uint32_t size = pm4::cp_dma::byte_count_of(command),
                        src_sel = pm4::cp_dma::src_sel_of(info);
         const uint64_t destination = body[2] | (uint64_t(body[3] & 0xff) << 32);
         std::vector<uint8_t> data(size);
         if (src_sel == 2) { /* fill with the data dword */
            for (uint32_t i = 0; i < size; i++)
               data[i] = uint8_t(body[0] >> (8 * (i % 4)));
         } else {
            const uint64_t source = body[0] | (uint64_t(info & 0xff) << 32);
            std::string read_error;
            if (!memory.read(source, data.data(), size, read_error))
               return "CP_DMA reads " + read_error;
         }
         error = write_memory(destination, data.data(), size, "CP_DMA");
         break;
      }
      case pm4::SET_CONFIG_REG:
      case pm4::SET_CONTEXT_REG: {
         const bool is_config = opcode == pm4::SET_CONFIG_REG;
         const uint32_t start = (body[0] << 2) + (is_config ? pm4::config_window.start
                                                            : pm4::context_window.start);
         auto &registers = is_config ? config
                           : pm4::compute_bit(header) ? context_compute
                                                      : context_graphics;
         for (uint32_t i = 0; i < count; i++) {
            const uint32_t reg = start + 4 * i;
            /* The scratch rings' BASE and SIZE are per shader engine: written for one engine
             * (GRBM_GFX_INDEX without SE_BROADCAST_WRITES) they reach that engine only, and
             * the simulator runs every wave on engine 0 (r600_setup_scratch_area_for_shader
             * programs each engine its own part of the ring). */
            if (is_config && is_scratch_ring_register(reg) && config.count(reg::GRBM_GFX_INDEX)) {
               const uint32_t index = config[reg::GRBM_GFX_INDEX];
               if (!(index & reg::GRBM_GFX_INDEX_SE_BROADCAST) && ((index >> 16) & 0x3fff) != 0)
                  continue;
            }
            registers[reg] = body[1 + i];
            if (trace >= TraceLevel::Packets)
               std::fprintf(stderr, "terakan-sim:   0x%05x = 0x%08x\n", reg, body[1 + i]);
            /* The border colour registers of each stage: INDEX names the sampler (within the
             * stage), RED..ALPHA are its colour as floats (Mesa evergreen_emit_sampler_states
             * writes all five in one packet). Kept by sampler slot. */
            if (is_config)
               for (const hw::BorderColourRegisters &stage : hw::border_colour_registers)
                  if (reg > stage.index && reg <= stage.index + 16) {
                     const unsigned slot = stage.sampler_base + get(config, stage.index);
                     float value;
                     std::memcpy(&value, &body[1 + i], 4);
                     border_colours[slot][(reg - stage.index - 4) / 4] = value;
                  }
         }
         break;
      }
      case pm4::SET_RESOURCE:
      case pm4::SET_SAMPLER:
      case pm4::SET_LOOP_CONST: {
         const bool is_resource = opcode == pm4::SET_RESOURCE;
         auto &window = is_resource ? resources : opcode == pm4::SET_SAMPLER ? samplers : loop_consts;
         for (uint32_t i = 0; i < count; i++)
            window[body[0] + i] = body[1 + i];
         break;
      }
      case pm4::STRMOUT_BUFFER_UPDATE:
         error = streamout_buffer_update(body, streamout, memory);
         break;
      case pm4::COPY_DW:
         error = copy_dword(body);
         break;
      case pm4::SET_PREDICATION:
         error = set_predication(body);
         break;
      case pm4::DISPATCH_DIRECT:
         error = dispatch(body);
         break;
      case pm4::DISPATCH_INDIRECT: {
         /* The group counts come from memory: three dwords at the (relocated) address. */
         uint32_t grid[3];
         std::string read_error;
         if (!memory.read(body[0], grid, sizeof(grid), read_error))
            return "DISPATCH_INDIRECT reads " + read_error;
         const uint32_t direct[4] = {grid[0], grid[1], grid[2], body[1]};
         error = dispatch(direct);
         break;
      }
      default: {
         char text[96];
         std::snprintf(text, sizeof(text), "PM4 packet 0x%02x is not simulated yet", opcode);
         return text;
      }
      }
      if (!error.empty())
         return error;
   }
   return {};
}

/* DRAW_INDIRECT and DRAW_INDEX_INDIRECT read their arguments from SET_BASE's buffer at the
 * packet's offset, D3D11's layouts: vertex count per instance, instance count, start vertex,
 * start instance; or index count per instance, instance count, start index, base vertex, start
 * instance (the dword comments in Linux evergreen_cs.c name the packets; the layouts are what
 * r600g hands over from GL's indirect commands unchanged). The CP writes the start or base
 * vertex to VGT_INDX_OFFSET and the start instance to SQ_VTX_START_INST_LOC, where the vertex
 * shader's indices come from, and they stay there (*derived*: r600g programs both again after
 * every indirect draw). */
std::string CommandProcessor::draw_indirect(uint32_t opcode, std::span<const uint32_t> body)
{
   const bool indexed = opcode == pm4::DRAW_INDEX_INDIRECT;
   uint32_t arguments[5] = {};
   std::string error;
   const uint8_t *data = memory.resolve(indirect_base + body[0], indexed ? 20 : 16, error);
   if (!data)
      return std::string(indexed ? "DRAW_INDEX_INDIRECT" : "DRAW_INDIRECT") + " arguments: " + error;
   std::memcpy(arguments, data, indexed ? 20 : 16);
   context_graphics[gfx::VGT_INDX_OFFSET] = indexed ? arguments[3] : arguments[2];
   ctl_consts[gfx::SQ_VTX_START_INST_LOC] = indexed ? arguments[4] : arguments[3];
   if (!indexed) {
      const uint32_t direct[2] = {arguments[0], body[1]};
      const uint32_t saved_instances = num_instances;
      num_instances = arguments[1];
      error = draw(pm4::DRAW_INDEX_AUTO, direct);
      num_instances = saved_instances;
      return error;
   }
   const unsigned index_bytes = index_type == 1 ? 4 : 2;
   if (arguments[2] > index_buffer_size)
      return "DRAW_INDEX_INDIRECT: start index " + std::to_string(arguments[2]) + " beyond INDEX_BUFFER_SIZE " +
             std::to_string(index_buffer_size);
   const uint64_t address = index_base + uint64_t(arguments[2]) * index_bytes;
   const uint32_t direct[4] = {uint32_t(address), uint32_t(address >> 32) & 0xff, arguments[0], body[1]};
   const uint32_t saved_instances = num_instances;
   const uint32_t saved_limit = index_limit;
   num_instances = arguments[1];
   index_limit = index_buffer_size - arguments[2];
   error = draw(pm4::DRAW_INDEX, direct);
   num_instances = saved_instances;
   index_limit = saved_limit;
   return error;
}

/* COPY_DW (five body dwords: control, source low/high, destination low/high; Linux
 * evergreen_cs.c's checks, Mesa r600d.h's control bits): one dword from memory (relocated
 * address) or a register (dword address) to memory or a register. Simulated: from memory
 * into a context register, as r600g's DrawTransformFeedback loads
 * VGT_STRMOUT_DRAW_OPAQUE_BUFFER_FILLED_SIZE. */
std::string CommandProcessor::copy_dword(std::span<const uint32_t> body)
{
   if (!(body[0] & streamout::copy_dw_source_memory) || (body[0] & streamout::copy_dw_destination_memory))
      return "COPY_DW other than from memory into a register is not simulated";
   const uint64_t source = body[1] | (uint64_t(body[2] & 0xff) << 32);
   const uint32_t reg = body[3] << 2;
   if (reg < pm4::context_window.start || reg >= pm4::context_window.end)
      return "COPY_DW into a register outside the context registers is not simulated";
   uint32_t value = 0;
   std::string error;
   if (!memory.read(source, &value, 4, error))
      return "COPY_DW reads " + error;
   context_graphics[reg] = value;
   return {};
}

std::string CommandProcessor::draw(uint32_t opcode, std::span<const uint32_t> body)
{
   DrawCall call;
   call.instances = std::max(num_instances, 1u);
   uint32_t initiator;
   if (opcode == pm4::DRAW_INDEX_AUTO) {
      call.count = body[0];
      initiator = body[1];
      if (initiator & streamout::draw_initiator_use_opaque) {
         /* Draws what streamout wrote: the filled size COPY_DW put in the register over the
          * vertex stride, in whole vertices (the packet's count is ignored). */
         if (get(context_graphics, streamout::VGT_STRMOUT_DRAW_OPAQUE_OFFSET) != 0)
            return "DRAW_INDEX_AUTO with USE_OPAQUE: a VGT_STRMOUT_DRAW_OPAQUE_OFFSET other than 0 is not simulated "
                   "(no driver sets one)";
         const uint32_t stride = get(context_graphics, streamout::VGT_STRMOUT_DRAW_OPAQUE_VERTEX_STRIDE);
         if (!stride)
            return "DRAW_INDEX_AUTO with USE_OPAQUE and VGT_STRMOUT_DRAW_OPAQUE_VERTEX_STRIDE 0";
         call.count = get(context_graphics, streamout::VGT_STRMOUT_DRAW_OPAQUE_BUFFER_FILLED_SIZE) / stride;
         initiator &= ~streamout::draw_initiator_use_opaque;
      }
   } else if (opcode == pm4::DRAW_INDEX) {
      call.indexed = true;
      call.index_address = body[0] | (uint64_t(body[1] & 0xff) << 32);
      call.index_bytes_available = memory.bytes_after(call.index_address);
      if (index_limit != UINT32_MAX)
         call.index_bytes_available =
            std::min<uint64_t>(call.index_bytes_available, uint64_t(index_limit) * (index_type == 1 ? 4 : 2));
      call.count = body[2];
      initiator = body[3];
   } else if (opcode == pm4::DRAW_INDEX_2 || opcode == pm4::DRAW_INDEX_OFFSET_2) {
      /* DRAW_INDEX_2: VGT_DMA_MAX_SIZE, the index address (low, high byte), the count, the
       * initiator; DRAW_INDEX_OFFSET_2: VGT_DMA_MAX_SIZE, the first index's offset in indices
       * from INDEX_BASE, the count, the initiator (dword order: Mesa eg_debug.c's DRAW_INDEX_2
       * dump, Linux evergreen_cs.c's counts; OFFSET_2's order and MAX_SIZE counting from
       * INDEX_BASE as RADV's generated commands emit them on GCN, *derived* for TeraScale).
       * MAX_SIZE bounds the indices the VGT fetches; what it returns beyond them is not
       * documented for TeraScale (GCN reads 0), so a draw reaching past it is refused. */
      const bool from_index_base = opcode == pm4::DRAW_INDEX_OFFSET_2;
      const char *name = from_index_base ? "DRAW_INDEX_OFFSET_2" : "DRAW_INDEX_2";
      const uint32_t max_size = body[0], first = from_index_base ? body[1] : 0;
      call.indexed = true;
      call.index_address = from_index_base ? index_base + uint64_t(first) * (index_type == 1 ? 4 : 2)
                                           : body[1] | (uint64_t(body[2] & 0xff) << 32);
      call.count = body[from_index_base ? 2 : 3];
      initiator = body[from_index_base ? 3 : 4];
      if (uint64_t(first) + call.count > max_size)
         return std::string(name) + ": indices " + std::to_string(first) + " to " +
                std::to_string(uint64_t(first) + call.count) + " reach past VGT_DMA_MAX_SIZE " +
                std::to_string(max_size) + " (what the VGT reads there is not documented)";
      call.index_bytes_available = memory.bytes_after(call.index_address);
   } else {
      call.indexed = true;
      call.immediate_indices = true;
      call.count = body[0];
      initiator = body[1];
      call.immediate.assign(body.begin() + 2, body.end());
   }
   call.index_32bit = index_type == 1;
   /* VGT_DRAW_INITIATOR.SOURCE_SELECT: 0 DMA (memory), 1 immediate, 2 auto index. */
   const uint32_t source = initiator & 3;
   const uint32_t expected = opcode == pm4::DRAW_INDEX_AUTO ? 2 : opcode == pm4::DRAW_INDEX_IMMD ? 1 : 0;
   if (source != expected) {
      char text[96];
      std::snprintf(text, sizeof(text), "draw packet 0x%02x: VGT_DRAW_INITIATOR.SOURCE_SELECT %u does not match the packet",
                    opcode, source);
      return text;
   }
   if (initiator & ~3u & ~(3u << 2))
      return "draw packet: VGT_DRAW_INITIATOR bits beyond SOURCE_SELECT and MAJOR_MODE are not simulated";
   PipelineState state;
   state.isa = isa;
   state.wave_size = wave_size;
   state.tiling = tiling;
   state.point_at(config, context_graphics, ctl_consts, resources, samplers, loop_consts);
   state.border_colours = &border_colours;
   state.streamout = &streamout;
   DrawStatistics statistics;
   const DispatchStatistics before = totals;
   const std::string error = run_draw(state, call, memory, trace, totals, statistics);
   draws++;
   account_time({totals.wavefronts - before.wavefronts, totals.alu_groups - before.alu_groups,
                 totals.fetches - before.fetches, statistics.pixels_written, statistics.primitives});
   zpass_counts[0] += statistics.samples_passed;
   if (pipeline_statistics_counting) {
      pipeline_statistics[pm4::stat_ia_vertices] += statistics.input_vertices;
      pipeline_statistics[pm4::stat_ia_primitives] += statistics.primitives;
      pipeline_statistics[pm4::stat_vs_invocations] += statistics.vertices;
      pipeline_statistics[pm4::stat_clipper_invocations] += statistics.clipper_invocations;
      pipeline_statistics[pm4::stat_clipper_primitives] += statistics.clipper_primitives;
      pipeline_statistics[pm4::stat_ps_invocations] += statistics.pixels_shaded;
   }
   /* Also after a failed draw: what it drew before the hang is what one wants to see. */
   if (!dump_directory.empty()) {
      const std::string problems = dump_draw_buffers(state, memory, dump_directory, dump_chip, draws);
      if (!problems.empty())
         std::fprintf(stderr, "terakan-sim: TERAKAN_SIM_DUMP, draw %llu: %s", (unsigned long long)draws,
                      problems.c_str());
   }
   if (trace >= TraceLevel::Packets || trace_draws)
      std::fprintf(stderr, "terakan-sim: draw %llu: primitive type %u, %u indices x %u instances: %llu vertices, "
                   "%llu primitives, %llu pixels shaded, %llu written%s%s\n",
                   (unsigned long long)draws, get(config, reg::VGT_PRIMITIVE_TYPE), call.count, call.instances,
                   (unsigned long long)statistics.vertices, (unsigned long long)statistics.primitives,
                   (unsigned long long)statistics.pixels_shaded, (unsigned long long)statistics.pixels_written,
                   error.empty() ? "" : ": ", error.c_str());
   if (!error.empty())
      return "draw: " + error;
   return {};
}

/* SET_PREDICATION as r600g emits it (Mesa r600_query.c r600_emit_query_predication, fields in
 * r600d_common.h) and the kernel relocates it (Linux evergreen_cs.c): word 0 is the low address
 * of a query result (16-byte aligned), word 1 holds the address's high byte, DRAW_VISIBLE (bit
 * 8: predicated packets run when the result says "visible"; clear: when it says "not
 * visible"), the hint (bit 12: 0 wait for the result, 1 draw while it is not ready), the
 * operation (bits 16-18: 0 clear, 1 ZPASS, 2 PRIMCOUNT) and CONTINUE (bit 31: fold this result
 * into the previous packets' instead of starting a new one; r600g sends one packet per query
 * result block, CONTINUE on all but the first).
 *
 * Derived, not documented: a ZPASS result is the block EVENT_WRITE ZPASS_DONE fills, one
 * 16-byte {begin, end} pair of 64-bit counts per render backend, bit 63 of each the "written"
 * flag (what r600g's own result reading, r600_query_hw_add_result, relies on); it says
 * "visible" when any backend's end differs from its begin, across the CONTINUE chain. The CP
 * reads as many pairs as the board has render backends, on Juniper eight (r600g's
 * r600_query_fix_enabled_rb_mask: its predication logic assumes eight and locks up on unwritten
 * pairs). A pair without the written flag hangs a waiting CP, so it is refused here; with the
 * no-wait hint the draws run. */
std::string CommandProcessor::set_predication(std::span<const uint32_t> body)
{
   const uint32_t control = body[1];
   const uint32_t operation = (control >> 16) & 7;
   if (operation == 0) {
      predication = {};
      return {};
   }
   if (operation == 2)
      return "SET_PREDICATION: PRIMCOUNT (streamout overflow) predication is not simulated: how the CP "
             "reads and combines its counts is not known well enough";
   if (operation != 1)
      return "SET_PREDICATION: operation " + std::to_string(operation) + " is not defined";
   const bool continues = control >> 31, wait = !(control & (1u << 12));
   if (continues && !predication.active)
      return "SET_PREDICATION: CONTINUE with no predicate before it to continue";
   if (!continues) {
      predication.chain_visible = false;
      predication.chain_unavailable = false;
   }
   predication.active = true;
   predication.draw_if_visible = control & (1u << 8);

   const uint64_t address = (body[0] & ~0xfu) | (uint64_t(control & 0xff) << 32);
   const size_t pairs = family == hw::Family::Juniper ? std::max<size_t>(8, zpass_counts.size())
                                                      : zpass_counts.size();
   constexpr uint64_t written = uint64_t(1) << 63;
   for (size_t backend = 0; backend < pairs; backend++) {
      uint64_t pair[2];
      std::string read_error;
      if (!memory.read(address + 16 * backend, pair, sizeof(pair), read_error))
         return "SET_PREDICATION reads " + read_error;
      if (!(pair[0] & written) || !(pair[1] & written)) {
         if (wait) {
            char text[200];
            std::snprintf(text, sizeof(text),
                          "SET_PREDICATION (ZPASS, wait) at 0x%llx would wait forever: render backend "
                          "%zu's %s count has no written flag (bit 63)",
                          (unsigned long long)address, backend, pair[0] & written ? "end" : "begin");
            return text;
         }
         predication.chain_unavailable = true;
         continue;
      }
      if ((pair[1] & ~written) != (pair[0] & ~written))
         predication.chain_visible = true;
   }
   predication.passes = predication.chain_unavailable ||
                        predication.chain_visible == predication.draw_if_visible;
   if (trace >= TraceLevel::Packets || trace_draws)
      std::fprintf(stderr, "terakan-sim: SET_PREDICATION ZPASS at 0x%llx%s: %s, predicated packets %s\n",
                   (unsigned long long)address, continues ? " (continued)" : "",
                   predication.chain_unavailable ? "not ready"
                   : predication.chain_visible   ? "visible"
                                                 : "not visible",
                   predication.passes ? "run" : "are skipped");
   return {};
}

std::string CommandProcessor::dispatch(std::span<const uint32_t> body)
{
   const auto &ctx = context_compute;
   if (!ctx.count(reg::SQ_PGM_START_LS)) {
      if (context_graphics.count(reg::SQ_PGM_START_LS))
         return "DISPATCH_DIRECT: SQ_PGM_START_LS was written without the compute (shader "
                "type) bit of SET_CONTEXT_REG, so the compute context has no program";
      return "DISPATCH_DIRECT: no compute program (SQ_PGM_START_LS never written)";
   }
   ComputeDispatch dispatch;
   dispatch.isa = isa;
   dispatch.tiling = tiling;
   dispatch.wave_size = wave_size;
   dispatch.program_address = uint64_t(get(ctx, reg::SQ_PGM_START_LS)) << 8;
   const uint32_t resources_ls = get(ctx, reg::SQ_PGM_RESOURCES_LS);
   dispatch.num_gprs = resources_ls & 0xff;
   dispatch.stack_size = (resources_ls >> 8) & 0xff;
   dispatch.lds_dwords = get(ctx, reg::SQ_LDS_ALLOC) & 0x3fff;
   dispatch.group_size = {get(ctx, reg::SPI_COMPUTE_NUM_THREAD_X), get(ctx, reg::SPI_COMPUTE_NUM_THREAD_Y),
                          get(ctx, reg::SPI_COMPUTE_NUM_THREAD_Z)};
   dispatch.grid = {body[0], body[1], body[2]};
   dispatch.start = {get(config, reg::VGT_COMPUTE_START_X), get(config, reg::VGT_COMPUTE_START_Y),
                     get(config, reg::VGT_COMPUTE_START_Z)};
   const uint32_t input = get(ctx, reg::SPI_COMPUTE_INPUT_CNTL);
   dispatch.load_thread_id = input & 1;
   dispatch.load_group_id = input & 2;
   dispatch.loop_count = loop_consts[reg::compute_loop_const] & 0xfff;
   if (!(body[3] & pm4::DISPATCH_INITIATOR_COMPUTE_SHADER_EN))
      return "DISPATCH_DIRECT: VGT_DISPATCH_INITIATOR.COMPUTE_SHADER_EN is not set";
   if (dispatch.lds_dwords > hw::max_compute_lds_dwords(isa))
      return "DISPATCH_DIRECT: SQ_LDS_ALLOC asks for more than the LDS the stage has";

   /* The program: from its start address to the end of its buffer (the shader core finds
    * where it ends). */
   std::string error;
   const uint64_t available = std::min<uint64_t>(memory.bytes_after(dispatch.program_address), 1u << 24);
   if (available < 8)
      return "DISPATCH_DIRECT: SQ_PGM_START_LS points outside every buffer";
   const uint8_t *code = memory.resolve(dispatch.program_address, available, error);
   dispatch.program.resize(available / 4);
   std::memcpy(dispatch.program.data(), code, available & ~uint64_t(3));

   for (unsigned b = 0; b < 16; b++) {
      const uint32_t size = get(ctx, reg::SQ_ALU_CONST_BUFFER_SIZE_LS_0 + 4 * b);
      if (!size)
         continue;
      dispatch.constant_buffers[b] = {true, uint64_t(get(ctx, reg::SQ_ALU_CONST_CACHE_LS_0 + 4 * b)) << 8,
                                      uint64_t(size) * 256};
   }
   for (unsigned id = 0; id < 176; id++) {
      const uint32_t *words = &resources[(reg::compute_fetch_resource_base + id) * 8];
      if (reg::resource_type(words[7]) != 3)
         continue;
      dispatch.fetch_resources[id] = decode_fetch_resource(words);
   }
   /* Texture resources share the compute slots with buffers (type VALID_TEXTURE in word 7). */
   for (unsigned id = 0; id < 176; id++) {
      const uint32_t *words = &resources[(compute_texture_resource_base + id) * 8];
      if (reg::resource_type(words[7]) != texture_resource_type_valid_texture)
         continue;
      TextureBinding binding;
      std::copy(words, words + 8, binding.words.begin());
      binding.resource = decode_texture_resource(binding.words, isa);
      dispatch.textures[id] = binding;
   }
   for (unsigned id = 0; id < compute_sampler_count; id++) {
      const uint32_t *words = &samplers[(compute_sampler_base + id) * 3];
      SamplerBinding binding;
      std::copy(words, words + 3, binding.words.begin());
      binding.sampler = decode_sampler(binding.words, isa);
      if (const auto colour = border_colours.find(compute_sampler_base + id); colour != border_colours.end())
         binding.border = colour->second;
      dispatch.samplers[id] = binding;
   }
   dispatch.scratch = {uint64_t(get(config, reg::SQ_LSTMP_RING_BASE)) << 8,
                       uint64_t(get(config, reg::SQ_LSTMP_RING_SIZE)) << 8,
                       get(ctx, reg::SQ_LSTMP_RING_ITEMSIZE) & 0x7fff};
   const uint32_t target_mask = get(ctx, reg::CB_TARGET_MASK);
   for (unsigned n = 0; n < 8; n++) {
      const uint32_t base_reg = reg::CB_COLOR0_BASE + n * reg::CB_COLOR_STRIDE;
      const uint32_t info = get(ctx, base_reg + reg::Info);
      if (!(info & reg::CB_COLOR_INFO_RAT) || !((target_mask >> (4 * n)) & 0xf))
         continue;
      RatBinding rat;
      rat.address = uint64_t(get(ctx, base_reg + reg::Base)) << 8;
      rat.format = reg::cb_color_info_format(info);
      rat.size_limit = memory.bytes_after(rat.address);
      rat.return_address = uint64_t(get(ctx, reg::CB_IMMED0_BASE + 4 * n)) << 8;
      /* Decoded as a typed surface too (STORE_TYPED); raw operations need COLOR_32. */
      auto typed = std::make_shared<TypedRat>();
      if (decode_typed_rat(ctx, n, tiling, memory, *typed, rat.typed_error))
         rat.typed = std::move(typed);
      dispatch.rats[n] = rat;
   }

   const DispatchResult result = run_compute_dispatch(dispatch, memory, trace);
   if (pipeline_statistics_counting)
      pipeline_statistics[pm4::stat_cs_invocations] += uint64_t(dispatch.grid[0]) * dispatch.grid[1] *
                                                      dispatch.grid[2] * dispatch.group_size[0] *
                                                      dispatch.group_size[1] * dispatch.group_size[2];
   totals.wavefronts += result.statistics.wavefronts;
   totals.alu_groups += result.statistics.alu_groups;
   totals.alu_lane_operations += result.statistics.alu_lane_operations;
   totals.fetches += result.statistics.fetches;
   account_time({result.statistics.wavefronts, result.statistics.alu_groups, result.statistics.fetches, 0, 0});
   if (!result.ok) {
      char text[64];
      std::snprintf(text, sizeof(text), "compute program at 0x%llx: ",
                    (unsigned long long)dispatch.program_address);
      return text + result.error;
   }
   return {};
}

} // namespace terakan::sim
