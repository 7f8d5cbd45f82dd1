/* The scratch ring (docs/sim-semantics.md, "Scratch"): MEM_SCRATCH writes and READ_SCRATCH
 * fetches built word by word (not by Terakan's compiler), run by the shader core on the three
 * ISA classes, and the ring registers through the kernel checker and the command processor.
 * Every refusal the simulator makes for scratch has its own case. */
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <numeric>
#include <random>

#include "compiler/isa/words.h"
#include "core/shader_core.h"
#include "hw/texture.h"
#include "pm4_harness.h"
#include "test_memory.h"

using namespace terakan;
using namespace terakan::isa;
using namespace terakan::test;
using hw::IsaClass;

namespace {

constexpr uint64_t code_address = 0x10000, data_address = 0x20000, index_address = 0x30000,
                   out_index_address = 0x40000, output_address = 0x50000, ring_address = 0x100000;

/* What a case changes in the program. */
struct ScratchOptions {
   unsigned write_type = 3;  /* CF_ALLOC_EXPORT TYPE of the indexed write: WRITE_IND_ACK */
   bool mark = true;
   bool wait_ack = true;
   bool uncached = true;
   unsigned array_size = 64; /* elements 0-63 indexed, element 64 direct */
};

/* The program:
 *   TEX clause: R2 = data[t] (4 dwords), R4.x = index[t], R6.x = 8t, R7.x = 8t + 4 (output slots);
 *   MEM_SCRATCH (indexed by R4.x) of R2; MEM_SCRATCH (element 64, direct) of R4 = (index, 0, 0, 1);
 *   WAIT_ACK;
 *   TEX clause: R3 = READ_SCRATCH indexed by R4.x, R5 = READ_SCRATCH of element 64;
 *   RAT STORE_RAW of R3 at R6.x and of R5 at R7.x, then the end. */
std::vector<uint32_t> scratch_program(IsaClass isa, const ScratchOptions &o)
{
   constexpr unsigned first_fetches = 16, scratch_reads = 32; /* dwords, 128-bit aligned */
   std::vector<uint32_t> p(scratch_reads + 8, 0);
   unsigned next = 0;
   auto put = [&](const std::array<uint32_t, 2> &w) { p[next * 2] = w[0], p[next * 2 + 1] = w[1], next++; };
   auto clause = [&](unsigned at, unsigned count) {
      std::array<uint32_t, 2> w{};
      cf::addr.set(w, at / 2);
      cf::count.set(w, count - 1);
      cf::inst.set(w, 0x01); /* TEX */
      cf::barrier.set(w, 1);
      put(w);
   };
   auto scratch_write = [&](unsigned type, unsigned gpr, unsigned base) {
      std::array<uint32_t, 2> w{};
      cf_export::array_base.set(w, base);
      cf_export::type.set(w, type);
      cf_export::rw_gpr.set(w, gpr);
      cf_export::index_gpr.set(w, 4);
      cf_export::elem_size.set(w, 3);
      cf_export::array_size.set(w, o.array_size);
      cf_export::comp_mask.set(w, 0xf);
      cf_export::inst.set(w, 0x50); /* MEM_SCRATCH */
      cf_export::mark.set(w, o.mark);
      cf_export::barrier.set(w, 1);
      put(w);
   };
   auto rat_store = [&](unsigned gpr, unsigned index_gpr, bool last) {
      std::array<uint32_t, 2> w{};
      cf_export::rat_inst.set(w, 2); /* STORE_RAW */
      cf_export::type.set(w, 1);
      cf_export::rw_gpr.set(w, gpr);
      cf_export::index_gpr.set(w, index_gpr);
      cf_export::elem_size.set(w, 3);
      cf_export::comp_mask.set(w, 0xf);
      cf_export::inst.set(w, 0x56); /* MEM_RAT */
      cf_export::barrier.set(w, 1);
      if (last && isa == IsaClass::Evergreen)
         cf_export::end_of_program.set(w, 1);
      put(w);
   };
   clause(first_fetches, 4);
   scratch_write(o.write_type, 2, 0);
   scratch_write(2, 4, 64);
   if (o.wait_ack) {
      std::array<uint32_t, 2> w{};
      cf::inst.set(w, 0x1A); /* WAIT_ACK */
      cf::barrier.set(w, 1);
      put(w);
   }
   clause(scratch_reads, 2);
   rat_store(3, 6, false);
   rat_store(5, 7, true);
   if (isa == IsaClass::Cayman) {
      std::array<uint32_t, 2> end{};
      cf::inst.set(end, 0x20); /* CF_END */
      cf::barrier.set(end, 1);
      put(end);
   }
   EXPECT_LE(next * 2, first_fetches);

   auto vfetch = [&](unsigned at, unsigned buffer, unsigned dst, unsigned format, std::array<unsigned, 4> sel) {
      std::array<uint32_t, 4> w{};
      vtx::fetch_type.set(w, 2);
      vtx::buffer_id.set(w, buffer);
      if (isa == IsaClass::Evergreen)
         vtx::mega_fetch_count.set(w, 15);
      vtx::dst_gpr.set(w, dst);
      vtx::dst_sel_x.set(w, sel[0]);
      vtx::dst_sel_y.set(w, sel[1]);
      vtx::dst_sel_z.set(w, sel[2]);
      vtx::dst_sel_w.set(w, sel[3]);
      vtx::data_format.set(w, format);
      vtx::num_format_all.set(w, 1); /* INT */
      if (isa == IsaClass::Evergreen)
         vtx::mega_fetch.set(w, 1);
      std::copy(w.begin(), w.end(), p.begin() + at);
   };
   vfetch(first_fetches, 0, 2, hw::Fmt32_32_32_32, {0, 1, 2, 3});
   vfetch(first_fetches + 4, 1, 4, hw::Fmt32, {0, 4, 4, 5});
   vfetch(first_fetches + 8, 2, 6, hw::Fmt32, {0, 7, 7, 7});
   vfetch(first_fetches + 12, 3, 7, hw::Fmt32, {0, 7, 7, 7});

   /* READ_SCRATCH: MEM_RD words (fetch opcode 2, MEM_OP 0; Mesa r700_asm.c
    * r700_bytecode_fetch_mem_build, eg_sq.h field positions). */
   auto read_scratch = [&](unsigned at, bool indexed, unsigned base, unsigned dst) {
      std::array<uint32_t, 4> w{};
      mem_rd::inst.set(w, 2);
      mem_rd::elem_size.set(w, 3);
      mem_rd::mem_op.set(w, 0);
      mem_rd::uncached.set(w, o.uncached);
      mem_rd::indexed.set(w, indexed);
      mem_rd::src_gpr.set(w, 4);
      mem_rd::src_sel_x.set(w, 0);
      mem_rd::dst_gpr.set(w, dst);
      mem_rd::dst_sel_x.set(w, 0);
      mem_rd::dst_sel_y.set(w, 1);
      mem_rd::dst_sel_z.set(w, 2);
      mem_rd::dst_sel_w.set(w, 3);
      mem_rd::data_format.set(w, hw::Fmt32_32_32_32);
      mem_rd::num_format_all.set(w, 1);
      mem_rd::array_base.set(w, base);
      mem_rd::array_size.set(w, o.array_size);
      std::copy(w.begin(), w.end(), p.begin() + at);
   };
   read_scratch(scratch_reads, true, 0, 3);
   read_scratch(scratch_reads + 4, false, 64, 5);
   return p;
}

struct ScratchRun {
   IsaClass isa = IsaClass::Cayman;
   ScratchOptions options;
   unsigned threads = 64;
   /* The ring: its dwords per lane (65 elements of 4 dwords) and how many waves it holds. */
   unsigned item_dwords = 65 * 4, ring_waves = 2;
   bool program_ring = true;
   std::vector<std::array<uint32_t, 4>> data;
   std::vector<uint32_t> index;
   std::string error;

   /* Two output records per thread: what READ_SCRATCH gave back from the indexed and the direct
    * element. */
   std::vector<std::array<uint32_t, 4>> run()
   {
      TestMemory memory;
      const unsigned n = threads;
      std::mt19937 random(1234);
      data.resize(n);
      for (auto &d : data)
         for (uint32_t &v : d)
            v = random();
      /* Every lane its own shuffled element: a permutation of 0-63 per wave. */
      index.resize(n);
      for (unsigned w = 0; w < n; w += 64) {
         std::vector<uint32_t> order(64);
         std::iota(order.begin(), order.end(), 0u);
         std::shuffle(order.begin(), order.end(), random);
         for (unsigned l = 0; l < 64 && w + l < n; l++)
            index[w + l] = order[l];
      }
      const auto program = scratch_program(isa, options);
      std::memcpy(memory.add(code_address, 512).bytes.data(), program.data(), program.size() * 4);
      std::memcpy(memory.add(data_address, n * 16).bytes.data(), data.data(), n * 16);
      std::memcpy(memory.add(index_address, n * 4).bytes.data(), index.data(), n * 4);
      auto &slots = memory.add(out_index_address, n * 8);
      for (uint32_t t = 0; t < n; t++) {
         const uint32_t s[2] = {8 * t, 8 * t + 4};
         std::memcpy(slots.bytes.data() + 8 * t, s, 8);
      }
      memory.add(output_address, n * 32);
      const uint64_t ring_bytes = uint64_t(item_dwords) * 4 * 64 * ring_waves;
      memory.add(ring_address, ring_bytes);

      sim::ComputeDispatch d;
      d.isa = isa;
      d.program = program;
      d.program_address = code_address;
      d.num_gprs = 8;
      d.stack_size = 1;
      d.group_size = {n, 1, 1};
      d.fetch_resources[0] = {data_address, n * 16 - 1, 16, hw::Fmt32_32_32_32, 1, 0, 0, 0, {0, 1, 2, 3}};
      d.fetch_resources[1] = {index_address, n * 4 - 1, 4, hw::Fmt32, 1, 0, 0, 0, {0, 1, 2, 3}};
      d.fetch_resources[2] = {out_index_address, n * 8 - 1, 8, hw::Fmt32, 1, 0, 0, 0, {0, 1, 2, 3}};
      d.fetch_resources[3] = {out_index_address + 4, n * 8 - 5, 8, hw::Fmt32, 1, 0, 0, 0, {0, 1, 2, 3}};
      d.rats[0] = {output_address, 0xD, n * 32u};
      if (program_ring)
         d.scratch = {ring_address, ring_bytes, item_dwords};
      const sim::DispatchResult result = sim::run_compute_dispatch(d, memory);
      error = result.error;
      std::vector<std::array<uint32_t, 4>> out(2 * n);
      if (result.ok)
         for (const auto &b : memory.buffers)
            if (b.address == output_address)
               std::memcpy(out.data(), b.bytes.data(), n * 32);
      return out;
   }
};

class ScratchOnEachIsa : public ::testing::TestWithParam<IsaClass> {};

/* Each lane reads back what it wrote, at a shuffled element and at a fixed one, though the
 * other 63 lanes of the wave (and a second wave of the group) wrote the same elements. */
TEST_P(ScratchOnEachIsa, LanesReadBackTheirOwnElements)
{
   for (unsigned threads : {64u, 128u}) {
      ScratchRun run;
      run.isa = GetParam();
      run.threads = threads;
      const auto out = run.run();
      ASSERT_EQ(run.error, "") << threads << " threads";
      for (unsigned t = 0; t < threads; t++) {
         EXPECT_EQ(out[2 * t], run.data[t]) << "thread " << t;
         /* SEL_1 of an integer-format fetch is the integer 1. */
         const std::array<uint32_t, 4> direct{run.index[t], 0, 0, 1};
         EXPECT_EQ(out[2 * t + 1], direct) << "thread " << t;
      }
   }
}

INSTANTIATE_TEST_SUITE_P(Isa, ScratchOnEachIsa, ::testing::Values(IsaClass::Evergreen, IsaClass::Cayman),
                         [](const auto &info) { return info.param == IsaClass::Evergreen ? "Evergreen" : "Cayman"; });

TEST(ScratchRefusals, NoRing)
{
   ScratchRun run;
   run.program_ring = false;
   run.run();
   EXPECT_NE(run.error.find("no scratch ring: the stage's SQ_xTMP_RING_BASE (compute: SQ_LSTMP_RING_BASE) was never written"), std::string::npos) << run.error;
}

TEST(ScratchRefusals, ReadBeforeTheAcknowledgement)
{
   ScratchRun run;
   run.options.wait_ack = false;
   run.run();
   EXPECT_NE(run.error.find("before the write to it was acknowledged"), std::string::npos) << run.error;
}

/* WRITE_IND (no _ACK) is never acknowledged, MARK or not; WRITE_IND_ACK without MARK is, as
 * r600g's scratch writes come (MARK 0: eg_asm.c). */
TEST(ScratchRefusals, WriteWithoutAnAcknowledgementIsNeverSafeToRead)
{
   for (const bool mark : {true, false}) {
      ScratchRun run;
      run.options.write_type = 1;
      run.options.mark = mark;
      run.run();
      EXPECT_NE(run.error.find("before the write to it was acknowledged"), std::string::npos)
         << "mark " << mark << ": " << run.error;
   }
   ScratchRun unmarked;
   unmarked.options.mark = false;
   unmarked.run();
   EXPECT_EQ(unmarked.error, "");
}

TEST(ScratchRefusals, ElementBeyondArraySize)
{
   ScratchRun run;
   run.options.array_size = 62; /* the lanes indexing 63 and the direct element 64 reach past it */
   run.run();
   EXPECT_NE(run.error.find("beyond ARRAY_SIZE 62"), std::string::npos) << run.error;
}

TEST(ScratchRefusals, ElementBeyondTheItem)
{
   ScratchRun run;
   run.item_dwords = 64 * 4; /* element 64 lies past the lane's item */
   run.run();
   EXPECT_NE(run.error.find("outside the lane's item of 256 dwords"), std::string::npos) << run.error;
}

TEST(ScratchRefusals, RingTooSmallForTheGroup)
{
   ScratchRun run;
   run.threads = 128;
   run.ring_waves = 1;
   run.run();
   EXPECT_NE(run.error.find("holds 1 waves of 64 lanes x 260 dwords (ITEMSIZE); wave 1 of the thread group does not fit"),
             std::string::npos)
      << run.error;
}

TEST(ScratchRefusals, CachedRead)
{
   ScratchRun run;
   run.options.uncached = false;
   run.run();
   EXPECT_NE(run.error.find("READ_SCRATCH without UNCACHED is not simulated"), std::string::npos) << run.error;
}

/* ---- the ring registers through the kernel checker and the command processor ---- */

/* A dispatch whose whole program is one MEM_SCRATCH write of R0 (the thread ids) to element 0,
 * so that the ring's contents show where the command processor put it. */
struct RingPm4 {
   TestMemory memory;
   ComputeJob job;
   IbBuilder ib;
   unsigned code = 0, ring = 0;
   static constexpr uint64_t code_at = 0x100000, ring_at = 0x400000;
   static constexpr uint32_t ring_bytes = 64 * 16 * 2; /* two waves of one 4-dword element */

   RingPm4()
   {
      code = job.add_bo(memory, code_at, 256);
      ring = job.add_bo(memory, ring_at, ring_bytes);
      std::array<uint32_t, 2> w{}, end{};
      cf_export::type.set(w, 2); /* WRITE_ACK */
      cf_export::rw_gpr.set(w, 0);
      cf_export::elem_size.set(w, 3);
      cf_export::comp_mask.set(w, 0x7);
      cf_export::inst.set(w, 0x50);
      cf_export::mark.set(w, 1);
      cf_export::barrier.set(w, 1);
      cf::inst.set(end, 0x20);
      cf::barrier.set(end, 1);
      const uint32_t words[4] = {w[0], w[1], end[0], end[1]};
      std::memcpy(memory.buffers[0].bytes.data(), words, sizeof(words));
      ib.packet(hw::pm4::CONTEXT_CONTROL, {0x80000000u, 0x80000000u});
      ib.context(hw::reg::DB_DEPTH_CONTROL, {0}); /* the kernel checks depth state at every dispatch */
   }

   void finish()
   {
      using namespace hw;
      ib.context(reg::SQ_PGM_START_LS, {0, 1, 0});
      ib.reloc(code);
      ib.context(reg::SPI_COMPUTE_INPUT_CNTL, {1});
      ib.context(reg::SPI_COMPUTE_NUM_THREAD_X, {64, 1, 1});
      ib.packet(pm4::DISPATCH_DIRECT, {1, 1, 1, pm4::DISPATCH_INITIATOR_COMPUTE_SHADER_EN}, true);
   }

   std::string submit()
   {
      sim::CommandProcessor cp(hw::Family::Cayman, memory, hw::TilingConfig{});
      return test::submit(ib.ib, job.relocs, cp, IsaClass::Cayman);
   }

   uint32_t ring_dword(size_t i) const
   {
      uint32_t v;
      std::memcpy(&v, memory.buffers[1].bytes.data() + 4 * i, 4);
      return v;
   }
};

TEST(ScratchRingRegisters, RelocatedBaseSizeAndItemSize)
{
   using namespace hw;
   RingPm4 t;
   t.ib.config(reg::SQ_LSTMP_RING_BASE, {0});
   t.ib.reloc(t.ring);
   t.ib.config(reg::SQ_LSTMP_RING_SIZE, {RingPm4::ring_bytes >> 8});
   t.ib.context(reg::SQ_LSTMP_RING_ITEMSIZE, {4}, true);
   t.finish();
   ASSERT_EQ(t.submit(), "");
   /* Lane l's item is dwords 4l..4l+3; the write put its thread id in the first. */
   for (unsigned lane = 0; lane < 64; lane++)
      EXPECT_EQ(t.ring_dword(4 * lane), lane) << lane;
}

/* The kernel says SET_CONTEXT_REG for config registers too (evergreen_cs_handle_reg). */
TEST(ScratchRingRegisters, BaseWithoutRelocationIsRefusedByTheKernel)
{
   using namespace hw;
   RingPm4 t;
   t.ib.config(reg::SQ_LSTMP_RING_BASE, {0});
   t.finish();
   const std::string error = t.submit();
   EXPECT_NE(error.find("No packet3 for relocation for packet at 9.; bad SET_CONTEXT_REG 0x8E10"), std::string::npos) << error;
}

/* r600g programs each shader engine its own part of the ring (GRBM_GFX_INDEX with
 * SE_BROADCAST_WRITES clear); what is written for engine 1 does not reach engine 0, which runs
 * the simulator's waves. */
TEST(ScratchRingRegisters, PerEngineWritesReachOnlyTheirEngine)
{
   using namespace hw;
   RingPm4 t;
   const uint32_t half = RingPm4::ring_bytes / 2;
   for (unsigned se = 0; se < 2; se++) {
      t.ib.config(reg::GRBM_GFX_INDEX, {reg::grbm_gfx_index_se(se) | reg::GRBM_GFX_INDEX_INSTANCE_BROADCAST});
      t.ib.config(reg::SQ_LSTMP_RING_BASE, {(se * half) >> 8});
      t.ib.reloc(t.ring);
      t.ib.context(reg::SQ_LSTMP_RING_ITEMSIZE, {4}, true);
      t.ib.config(reg::SQ_LSTMP_RING_SIZE, {half >> 8});
   }
   t.ib.config(reg::GRBM_GFX_INDEX, {reg::GRBM_GFX_INDEX_INSTANCE_BROADCAST | reg::GRBM_GFX_INDEX_SE_BROADCAST});
   t.finish();
   ASSERT_EQ(t.submit(), "");
   for (unsigned lane = 0; lane < 64; lane++) {
      EXPECT_EQ(t.ring_dword(4 * lane), lane) << lane;
      EXPECT_EQ(t.ring_dword(half / 4 + 4 * lane), 0u) << "engine 1's half was written, lane " << lane;
   }
}

} // namespace
