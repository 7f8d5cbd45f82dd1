/* The shader core's side of geometry shaders (docs/sim-semantics.md, "Geometry shaders"):
 * MEM_RING writes into a lane's ring item, EMIT_VERTEX / CUT_VERTEX / EMIT_CUT_VERTEX events,
 * and the per-channel hazard rule of fetch clauses that r600g's geometry shaders rely on. The
 * words are built by hand (not by a compiler), run as a geometry-stage wave on both ISA
 * classes; every refusal has a case. The whole draw path is checked against llvmpipe by the
 * gs_* GL scenes (tests/gl/scenes_geometry.cpp). */
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstring>

#include "compiler/isa/words.h"
#include "core/shader_core.h"
#include "hw/texture.h"
#include "pm4_harness.h"
#include "test_memory.h"

using namespace terakan;
using namespace terakan::isa;
using namespace terakan::test;
using hw::IsaClass;
using Event = sim::WaveExports::GsEvent;

namespace {

constexpr uint64_t code_address = 0x10000, ring_address = 0x100000, data_address = 0x200000;
constexpr unsigned lanes = 64;

struct RingOptions {
   unsigned item_dwords = 16;
   unsigned ring_op = 0x52;    /* MEM_RING */
   unsigned emit_stream = 0;   /* EMIT_VERTEX's COUNT */
   bool give_ring = true;
   /* The fetch clause: a VFETCH into R2.xy, then one through R2.<read_channel>. */
   unsigned read_channel = 2;
};

/* The program:
 *   TEX clause: R2.xy = data[R0.x], then R3.x = data[R2.<read_channel>];
 *   MEM_RING WRITE_IND of R0 at ARRAY_BASE 4, indexed by R1.x; EMIT_VERTEX;
 *   MEM_RING WRITE of R0.xy at ARRAY_BASE 0; EMIT_CUT_VERTEX; CUT_VERTEX (the end). */
std::vector<uint32_t> ring_program(IsaClass isa, const RingOptions &o)
{
   constexpr unsigned fetches = 16;
   std::vector<uint32_t> p(fetches + 8, 0);
   unsigned next = 0;
   auto put = [&](const std::array<uint32_t, 2> &w) { p[next * 2] = w[0], p[next * 2 + 1] = w[1], next++; };
   {
      std::array<uint32_t, 2> w{};
      cf::addr.set(w, fetches / 2);
      cf::count.set(w, 1);
      cf::inst.set(w, 0x01); /* TEX */
      cf::barrier.set(w, 1);
      put(w);
   }
   auto ring_write = [&](unsigned type, unsigned base, unsigned mask) {
      std::array<uint32_t, 2> w{};
      cf_export::array_base.set(w, base);
      cf_export::type.set(w, type);
      cf_export::rw_gpr.set(w, 0);
      cf_export::index_gpr.set(w, 1);
      cf_export::elem_size.set(w, 3);
      cf_export::comp_mask.set(w, mask);
      cf_export::inst.set(w, o.ring_op);
      cf_export::barrier.set(w, 1);
      put(w);
   };
   auto emit = [&](unsigned op, bool last) {
      std::array<uint32_t, 2> w{};
      cf::inst.set(w, op);
      cf::count.set(w, o.emit_stream);
      cf::barrier.set(w, 1);
      if (last && isa == IsaClass::Evergreen)
         cf::end_of_program.set(w, 1);
      put(w);
   };
   ring_write(1, 4, 0xf);
   emit(0x15, false); /* EMIT_VERTEX */
   ring_write(0, 0, 0x3);
   emit(0x16, false); /* EMIT_CUT_VERTEX */
   emit(0x17, true);  /* CUT_VERTEX */
   if (isa == IsaClass::Cayman) {
      std::array<uint32_t, 2> end{};
      cf::inst.set(end, 0x20); /* CF_END */
      cf::barrier.set(end, 1);
      put(end);
   }
   EXPECT_LE(next * 2, fetches);
   auto vfetch = [&](unsigned at, unsigned src, unsigned src_sel, unsigned dst, std::array<unsigned, 4> sel) {
      std::array<uint32_t, 4> w{};
      vtx::fetch_type.set(w, 2);
      vtx::buffer_id.set(w, 0);
      vtx::src_gpr.set(w, src);
      vtx::src_sel_x.set(w, src_sel);
      if (isa == IsaClass::Evergreen)
         vtx::mega_fetch_count.set(w, 15);
      vtx::dst_gpr.set(w, dst);
      vtx::dst_sel_x.set(w, sel[0]);
      vtx::dst_sel_y.set(w, sel[1]);
      vtx::dst_sel_z.set(w, sel[2]);
      vtx::dst_sel_w.set(w, sel[3]);
      vtx::data_format.set(w, hw::Fmt32);
      vtx::num_format_all.set(w, 1); /* INT */
      if (isa == IsaClass::Evergreen)
         vtx::mega_fetch.set(w, 1);
      std::copy(w.begin(), w.end(), p.begin() + at);
   };
   vfetch(fetches, 0, 0, 2, {0, 0, 7, 7});
   vfetch(fetches + 4, 2, o.read_channel, 3, {0, 7, 7, 7});
   return p;
}

struct RingRun {
   IsaClass isa = IsaClass::Cayman;
   RingOptions options;
   std::string error;
   sim::WaveExports exports;
   TestMemory memory;

   std::vector<uint32_t> run()
   {
      const auto program = ring_program(isa, options);
      std::memcpy(memory.add(code_address, 512).bytes.data(), program.data(), program.size() * 4);
      const uint64_t ring_bytes = uint64_t(options.item_dwords) * 4 * lanes;
      memory.add(ring_address, ring_bytes);
      /* data[i] = i: the fetch through R2.z reads index 0 (R2.z is 0), harmlessly. */
      std::vector<uint32_t> data(lanes);
      for (unsigned i = 0; i < lanes; i++)
         data[i] = i;
      std::memcpy(memory.add(data_address, lanes * 4).bytes.data(), data.data(), lanes * 4);

      sim::ComputeDispatch d;
      d.isa = isa;
      d.stage = sim::ShaderStage::Geometry;
      d.program = program;
      d.program_address = code_address;
      d.num_gprs = 4;
      d.stack_size = 1;
      d.fetch_resources[0] = {data_address, lanes * 4 - 1, 4, hw::Fmt32, 1, 0, 0, 0, {0, 1, 2, 3}};
      sim::ShaderRunner runner(d, memory, sim::TraceLevel::None);
      EXPECT_EQ(runner.error(), "");
      sim::GraphicsWave wave;
      wave.lanes = lanes;
      for (unsigned lane = 0; lane < lanes; lane++) {
         for (unsigned c = 0; c < 4; c++)
            wave.gprs[{0, c}].push_back(lane + 100 * c);
         wave.gprs[{1, 0}].push_back(lane % 3);
         if (options.give_ring)
            wave.ring.lane_item.push_back(lane * options.item_dwords);
      }
      wave.ring.address = ring_address;
      wave.ring.bytes = ring_bytes;
      wave.ring.item_dwords = options.item_dwords;
      runner.run(wave, exports, error);
      std::vector<uint32_t> ring(ring_bytes / 4);
      for (const auto &b : memory.buffers)
         if (b.address == ring_address)
            std::memcpy(ring.data(), b.bytes.data(), ring_bytes);
      return ring;
   }
};

class RingsOnEachIsa : public ::testing::TestWithParam<IsaClass> {};

/* Each lane's indexed write lands at ARRAY_BASE + INDEX * 4 dwords of its own item, the
 * unindexed one at ARRAY_BASE with COMP_MASK's channels only; the events come in program order. */
TEST_P(RingsOnEachIsa, WritesLandInTheLaneItemAndEventsAreKept)
{
   RingRun run;
   run.isa = GetParam();
   const auto ring = run.run();
   ASSERT_EQ(run.error, "");
   ASSERT_EQ(run.exports.gs_events.size(), lanes);
   for (unsigned lane = 0; lane < lanes; lane++) {
      const uint32_t *item = &ring[lane * 16];
      const unsigned indexed = 4 + 4 * (lane % 3);
      for (unsigned dword = 0; dword < 16; dword++) {
         uint32_t expected = 0;
         if (dword >= indexed && dword < indexed + 4)
            expected = lane + 100 * (dword - indexed);
         else if (dword < 2)
            expected = lane + 100 * dword;
         EXPECT_EQ(item[dword], expected) << "lane " << lane << " dword " << dword;
      }
      const std::vector<Event> events{Event::Emit, Event::Emit, Event::Cut, Event::Cut};
      EXPECT_EQ(run.exports.gs_events[lane], events) << "lane " << lane;
   }
}

INSTANTIATE_TEST_SUITE_P(Isa, RingsOnEachIsa, ::testing::Values(IsaClass::Evergreen, IsaClass::Cayman),
                         [](const auto &info) { return info.param == IsaClass::Evergreen ? "Evergreen" : "Cayman"; });

TEST(RingRefusals, WriteBeyondTheLaneItem)
{
   RingRun run;
   run.options.item_dwords = 12; /* lanes with R1.x = 2 write dwords 12-15 */
   run.run();
   EXPECT_NE(run.error.find("writes dword 12 of its ring item of 12 dwords"), std::string::npos) << run.error;
}

TEST(RingRefusals, NoRing)
{
   RingRun run;
   run.options.give_ring = false;
   run.run();
   EXPECT_NE(run.error.find("MEM_RING outside an export or geometry shader"), std::string::npos) << run.error;
}

TEST(RingRefusals, OtherStreams)
{
   RingRun run;
   run.options.ring_op = 0x58; /* MEM_RING1 */
   run.run();
   EXPECT_NE(run.error.find("MEM_RING1 (geometry shader streams 1-3) is not simulated"), std::string::npos)
      << run.error;
   RingRun emit;
   emit.options.emit_stream = 1;
   emit.run();
   EXPECT_NE(emit.error.find("EMIT_VERTEX to stream 1 is not simulated"), std::string::npos) << emit.error;
}

/* A fetch may read a channel of a register that an earlier fetch of its clause leaves alone
 * (R2.z after R2.xy), not one it writes (R2.y). */
TEST(FetchClauseHazard, IsPerChannel)
{
   RingRun untouched;
   untouched.run();
   EXPECT_EQ(untouched.error, "");
   RingRun written;
   written.options.read_channel = 1;
   written.run();
   EXPECT_NE(written.error.find("VFETCH reads R2, written by an earlier fetch of the same clause"), std::string::npos)
      << written.error;
}

/* The ring bases through the kernel checker: like every base register, SQ_ESGS_RING_BASE and
 * SQ_GSVS_RING_BASE need a relocation and get the buffer's address >> 8 added
 * (evergreen_cs_handle_reg, "bad SET_CONTEXT_REG" even for these config registers); r600g
 * emits them so (evergreen_emit_gs_rings). */
std::string submit_ring_base(uint32_t reg, bool relocated, std::vector<uint32_t> *patched = nullptr)
{
   TestMemory memory;
   ComputeJob job;
   const unsigned ring = job.add_bo(memory, 0x400000, 0x10000);
   IbBuilder ib;
   ib.config(reg, {0x10});
   if (relocated)
      ib.reloc(ring);
   ib.config(reg + 4, {0x10000 >> 8});
   sim::CsCheckOptions options;
   options.isa = IsaClass::Cayman;
   std::vector<uint32_t> words = ib.ib;
   const std::string refused = sim::check_and_patch(words, job.relocs, options);
   if (patched)
      *patched = words;
   return refused;
}

TEST(RingBasesInTheKernel, NeedARelocationAndGetTheBufferAddress)
{
   for (uint32_t reg : {0x8C40u, 0x8C48u}) { /* SQ_ESGS_RING_BASE, SQ_GSVS_RING_BASE */
      std::vector<uint32_t> patched;
      ASSERT_EQ(submit_ring_base(reg, true, &patched), "") << std::hex << reg;
      EXPECT_EQ(patched[2], 0x10u + (0x400000u >> 8)) << std::hex << reg;
      char expected[64];
      std::snprintf(expected, sizeof(expected), "bad SET_CONTEXT_REG 0x%X", reg);
      const std::string error = submit_ring_base(reg, false);
      EXPECT_NE(error.find(expected), std::string::npos) << error;
   }
}

} // namespace
