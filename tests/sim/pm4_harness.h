/* A small PM4 harness for simulator tests: builds compute command streams the way Mesa's r600
 * driver does (docs/sim-semantics.md lists the sequence), with BO-relative addresses and
 * relocation NOPs, then runs them through the kernel checker and the command processor. */
#pragma once

#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

#include "cp/command_processor.h"
#include "cp/cs_checker.h"
#include "hw/pm4.h"
#include "hw/registers.h"
#include "test_memory.h"

namespace terakan::test {

struct IbBuilder {
   std::vector<uint32_t> ib;

   void packet(uint32_t opcode, std::initializer_list<uint32_t> body, bool compute = false)
   {
      ib.push_back(hw::pm4::packet3(opcode, uint32_t(body.size()) - 1, compute));
      ib.insert(ib.end(), body);
   }
   void reloc(unsigned index) { packet(hw::pm4::NOP, {index * 4}); }
   void registers(uint32_t opcode, uint32_t window_start, uint32_t reg,
                  std::initializer_list<uint32_t> values, bool compute)
   {
      ib.push_back(hw::pm4::packet3(opcode, uint32_t(values.size()), compute));
      ib.push_back((reg - window_start) >> 2);
      ib.insert(ib.end(), values);
   }
   void config(uint32_t reg, std::initializer_list<uint32_t> values)
   {
      registers(hw::pm4::SET_CONFIG_REG, hw::pm4::config_window.start, reg, values, false);
   }
   void context(uint32_t reg, std::initializer_list<uint32_t> values, bool compute = true)
   {
      registers(hw::pm4::SET_CONTEXT_REG, hw::pm4::context_window.start, reg, values, compute);
   }
   void buffer_resource(unsigned slot, uint32_t offset, uint32_t size, uint32_t stride)
   {
      ib.push_back(hw::pm4::packet3(hw::pm4::SET_RESOURCE, 8, true));
      ib.push_back(slot * 8);
      const auto words = hw::reg::buffer_fetch_resource(offset, size, stride);
      ib.insert(ib.end(), std::begin(words), std::end(words));
   }
};

/* The buffers and relocations of one compute job. */
struct ComputeJob {
   struct Bo {
      uint64_t address;
      size_t size;
   };
   std::vector<Bo> bos;
   std::vector<sim::CsReloc> relocs;

   unsigned add_bo(TestMemory &memory, uint64_t address, size_t size)
   {
      memory.add(address, size);
      bos.push_back({address, size});
      relocs.push_back({address, size, 0});
      return unsigned(relocs.size() - 1);
   }
};

struct DispatchSetup {
   unsigned code, params, pool, fence; /* reloc indices */
   uint32_t pool_size;
   uint32_t resources_ls;  /* NUM_GPRS | STACK_SIZE << 8 */
   uint32_t lds_dwords;
   std::array<unsigned, 3> group, grid;
};

/* Mesa's compute dispatch sequence (evergreen_compute.c), reduced to what compute needs. */
inline IbBuilder build_dispatch(const DispatchSetup &s)
{
   using namespace hw;
   IbBuilder b;
   b.packet(pm4::CONTEXT_CONTROL, {0x80000000u, 0x80000000u});
   b.context(reg::DB_DEPTH_CONTROL, {0});
   b.config(reg::VGT_COMPUTE_START_X, {0, 0, 0});
   /* RAT 0 over the global pool: CB_COLOR0 BASE..DIM, relocations for BASE and ATTRIB. */
   b.context(reg::CB_COLOR0_BASE, {0, s.pool_size / 8 - 1, 0, 0, reg::rat_buffer_color_info,
                                   reg::rat_buffer_color_attrib, s.pool_size - 1});
   b.reloc(s.pool);
   b.reloc(s.pool);
   b.context(reg::CB_TARGET_MASK, {0xF});
   /* Fetch buffer 1 = the pool (global loads), 3 = the parameters; compute slots 816 + n. */
   b.buffer_resource(reg::compute_fetch_resource_base + 1, 0, s.pool_size, 1);
   b.reloc(s.pool);
   b.buffer_resource(reg::compute_fetch_resource_base + 3, 0, 256, 1);
   b.reloc(s.params);
   b.context(reg::SQ_ALU_CONST_BUFFER_SIZE_LS_0, {1});
   b.context(reg::SQ_ALU_CONST_CACHE_LS_0, {0});
   b.reloc(s.params);
   b.context(reg::SQ_PGM_START_LS, {0, s.resources_ls, 0});
   b.reloc(s.code);
   b.context(reg::SPI_COMPUTE_INPUT_CNTL, {7});
   b.context(reg::SPI_COMPUTE_NUM_THREAD_X, {s.group[0], s.group[1], s.group[2]});
   b.context(reg::SQ_LDS_ALLOC, {s.lds_dwords});
   b.packet(pm4::DISPATCH_DIRECT, {s.grid[0], s.grid[1], s.grid[2], pm4::DISPATCH_INITIATOR_COMPUTE_SHADER_EN}, true);
   /* The fence: EVENT_WRITE_EOP of 32-bit data 0x1234 (DATA_SEL 1). */
   b.packet(pm4::EVENT_WRITE_EOP, {pm4::EVENT_CACHE_FLUSH_AND_INV_TS, 0, pm4::eop_data_sel(1), 0x1234, 0});
   b.reloc(s.fence);
   return b;
}

/* Check, patch and execute; returns the first error, or "". */
inline std::string submit(std::vector<uint32_t> ib, const std::vector<sim::CsReloc> &relocs,
                          sim::CommandProcessor &cp, hw::IsaClass isa)
{
   sim::CsCheckOptions options;
   options.isa = isa;
   options.keep_tiling_flags = true;
   const std::string refused = sim::check_and_patch(ib, relocs, options);
   if (!refused.empty())
      return "kernel: " + refused;
   return cp.execute(ib);
}

} // namespace terakan::test
