/* The simulated GPU end to end below the ioctls: LLVM-compiled kernels dispatched through PM4
 * command streams built the way Mesa's r600 driver builds them, checked and patched by the
 * kernel CS checker model, executed by the command processor; and one test per refusal class,
 * each producing its own message while the process carries on. */
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <random>

#include "../isa/alu_builder.h"
#include "llvm_kernels.h"
#include "pm4_harness.h"
#include "hw/graphics_registers.h"
#include "hw/streamout.h"

using namespace terakan;
using namespace terakan::test;

namespace {

struct Chip {
   const char *cpu;
   hw::Family family;
};
constexpr Chip chips[] = {{"cypress", hw::Family::Cypress}, {"barts", hw::Family::Barts},
                          {"cayman", hw::Family::Cayman}};

constexpr uint64_t code_address = 0x100000, params_address = 0x200000,
                   fence_address = 0x300000, pool_address = 0x1000000;
constexpr uint32_t pool_size = 0x40000, output_offset = 0x20000;

/* Everything for one dispatch of a corpus kernel over 256 threads. */
struct Job {
   TestMemory memory;
   ComputeJob job;
   DispatchSetup setup{};
   const isa::ElfFunction *kernel = nullptr;
   std::vector<uint32_t> inputs;

   Job(const Chip &chip, const std::string &name, uint32_t n = 5)
   {
      kernel = find_kernel(chip.cpu, name);
      EXPECT_NE(kernel, nullptr) << name;
      if (!kernel)
         return;
      const size_t code_size = (kernel->dwords.size() * 4 + 255) & ~size_t(255);
      setup.code = job.add_bo(memory, code_address, code_size);
      std::memcpy(memory.buffers.back().bytes.data(), kernel->dwords.data(), kernel->dwords.size() * 4);
      setup.params = job.add_bo(memory, params_address, 256);
      setup.pool = job.add_bo(memory, pool_address, pool_size);
      setup.fence = job.add_bo(memory, fence_address, 8);
      setup.pool_size = pool_size;
      setup.resources_ls = config_value(*kernel, 0x288D4);
      setup.lds_dwords = config_value(*kernel, 0x288E8);
      setup.group = {64, 1, 1};
      setup.grid = {4, 1, 1};
      const uint32_t implicit[12] = {4, 1, 1, 256, 1, 1, 64, 1, 1, output_offset, 0, n};
      std::memcpy(memory.buffers[setup.params].bytes.data(), implicit, sizeof(implicit));
      std::mt19937 random(7);
      inputs.resize(256);
      for (uint32_t &v : inputs)
         v = random();
      std::memcpy(memory.buffers[setup.pool].bytes.data(), inputs.data(), inputs.size() * 4);
   }

   uint32_t output(unsigned i) const
   {
      uint32_t v;
      std::memcpy(&v, memory.buffers[setup.pool].bytes.data() + output_offset + i * 4, 4);
      return v;
   }
   uint32_t fence() const
   {
      uint32_t v;
      std::memcpy(&v, memory.buffers[setup.fence].bytes.data(), 4);
      return v;
   }
};

std::string run(Job &job, const Chip &chip, const IbBuilder &builder)
{
   sim::CommandProcessor cp(chip.family, job.memory);
   return submit(builder.ib, job.job.relocs, cp, hw::family_info(chip.family).isa_class);
}

class Pm4Dispatch : public ::testing::TestWithParam<Chip> {};

TEST_P(Pm4Dispatch, LlvmKernelsThroughCommandStreams)
{
   const Chip chip = GetParam();
   const std::pair<const char *, std::function<uint32_t(uint32_t, unsigned, const std::vector<uint32_t> &)>> kernels[] = {
      {"add_const", [](uint32_t x, unsigned, const auto &) { return x + 5; }},
      {"udiv_urem", [](uint32_t x, unsigned, const auto &) { return x / 7 + x % 7; }},
      {"lds_reverse", [](uint32_t, unsigned i, const auto &in) { return in[(i / 64) * 64 + 63 - i % 64]; }},
      {"loop_sum", [](uint32_t x, unsigned, const auto &) {
          uint32_t acc = 0, i = 0, n = x & 63;
          do { acc += i; i++; } while (i < n);
          return acc; }},
   };
   for (const auto &[name, reference] : kernels) {
      Job job(chip, name);
      ASSERT_NE(job.kernel, nullptr);
      const std::string error = run(job, chip, build_dispatch(job.setup));
      ASSERT_EQ(error, "") << name;
      EXPECT_EQ(job.fence(), 0x1234u) << name << ": the EOP fence was not written";
      for (unsigned i = 0; i < 256; i++)
         ASSERT_EQ(job.output(i), reference(job.inputs[i], i, job.inputs)) << name << " thread " << i;
   }
}

INSTANTIATE_TEST_SUITE_P(Sim, Pm4Dispatch, ::testing::ValuesIn(chips),
                         [](const auto &info) { return std::string(info.param.cpu); });

TEST_P(Pm4Dispatch, IndirectDispatchReadsTheGridFromMemory)
{
   const Chip chip = GetParam();
   Job job(chip, "add_const");
   IbBuilder b = build_dispatch(job.setup);
   /* Replace DISPATCH_DIRECT with DISPATCH_INDIRECT reading (4, 1, 1) from byte 128 of the
    * parameter buffer. */
   const uint32_t grid[3] = {4, 1, 1};
   std::memcpy(job.memory.buffers[job.setup.params].bytes.data() + 128, grid, sizeof(grid));
   for (size_t i = 0; i < b.ib.size(); i++) {
      if (b.ib[i] == hw::pm4::packet3(hw::pm4::DISPATCH_DIRECT, 3, true)) {
         std::vector<uint32_t> indirect = {hw::pm4::packet3(hw::pm4::DISPATCH_INDIRECT, 1, true), 128, 1,
                                           hw::pm4::packet3(hw::pm4::NOP, 0), job.setup.params * 4};
         b.ib.erase(b.ib.begin() + i, b.ib.begin() + i + 5);
         b.ib.insert(b.ib.begin() + i, indirect.begin(), indirect.end());
         break;
      }
   }
   ASSERT_EQ(run(job, chip, b), "");
   for (unsigned i = 0; i < 256; i++)
      ASSERT_EQ(job.output(i), job.inputs[i] + 5) << i;
}

/* ---- predication: SET_PREDICATION and the predicate bit of the dispatch header ---- */

constexpr uint64_t query_address = 0x400000;
constexpr uint32_t pred_zpass = 1u << 16, pred_primcount = 2u << 16, pred_draw_visible = 1u << 8,
                   pred_nowait = 1u << 12, pred_continue = 1u << 31;

/* The add_const job with a query result buffer of two blocks (at 0 and 128) of eight
 * {begin, end} pairs, one per render backend, and SET_PREDICATION packets (each with its
 * relocation) in front of a predicated DISPATCH_DIRECT. */
struct PredicatedJob : Job {
   unsigned query;

   PredicatedJob(const Chip &chip) : Job(chip, "add_const")
   {
      query = job.add_bo(memory, query_address, 256);
      for (unsigned block = 0; block < 2; block++)
         for (unsigned backend = 0; backend < 8; backend++)
            set_pair(block, backend, 1000, 1000);
   }
   /* Counts with the "written" flag (bit 63) unless `written` is false. */
   void set_pair(unsigned block, unsigned backend, uint64_t begin, uint64_t end, bool written = true)
   {
      const uint64_t flag = written ? uint64_t(1) << 63 : 0;
      const uint64_t pair[2] = {begin | flag, end | flag};
      std::memcpy(memory.buffers[query].bytes.data() + 128 * block + 16 * backend, pair, sizeof(pair));
   }
   /* Returns the dispatch's error, or "" (then ran() says whether it ran). `before` goes
    * ahead of the predications. */
   std::string run_with(const Chip &chip, std::initializer_list<std::pair<uint32_t, uint32_t>> predications,
                        const IbBuilder &before = {})
   {
      IbBuilder b = build_dispatch(setup);
      IbBuilder prefix = before;
      for (const auto &[offset, control] : predications) {
         prefix.packet(hw::pm4::SET_PREDICATION, {offset, control});
         if ((control >> 16) & 7)
            prefix.reloc(query);
      }
      const uint32_t dispatch_header = hw::pm4::packet3(hw::pm4::DISPATCH_DIRECT, 3, true);
      for (size_t i = 0; i < b.ib.size(); i++)
         if (b.ib[i] == dispatch_header) {
            b.ib[i] |= 1; /* the predicate bit */
            b.ib.insert(b.ib.begin() + i, prefix.ib.begin(), prefix.ib.end());
            break;
         }
      sim::CommandProcessor cp(chip.family, memory);
      cp.set_render_backends(8);
      return submit(b.ib, job.relocs, cp, hw::family_info(chip.family).isa_class);
   }
   bool ran() const { return output(0) == inputs[0] + 5; }
};

TEST_P(Pm4Dispatch, PredicatedDispatchFollowsZpassResults)
{
   const Chip chip = GetParam();
   const uint32_t draw_if_visible = pred_zpass | pred_draw_visible;
   {
      /* No backend counted a sample: not visible, the dispatch is skipped; the fence after it
       * is still written. */
      PredicatedJob job(chip);
      ASSERT_EQ(job.run_with(chip, {{0, draw_if_visible}}), "");
      EXPECT_FALSE(job.ran());
      EXPECT_EQ(job.fence(), 0x1234u);
   }
   {
      /* Backend 5 counted two samples: visible. */
      PredicatedJob job(chip);
      job.set_pair(0, 5, 1000, 1002);
      ASSERT_EQ(job.run_with(chip, {{0, draw_if_visible}}), "");
      EXPECT_TRUE(job.ran());
   }
   {
      /* DRAW_NOT_VISIBLE (inverted): runs when nothing was counted. */
      PredicatedJob job(chip);
      ASSERT_EQ(job.run_with(chip, {{0, pred_zpass | pred_nowait}}), "");
      EXPECT_TRUE(job.ran());
   }
   {
      /* A CONTINUE chain: only the second block counted samples, which makes it visible. */
      PredicatedJob job(chip);
      job.set_pair(1, 0, 7, 8);
      ASSERT_EQ(job.run_with(chip, {{0, draw_if_visible}, {128, draw_if_visible | pred_continue}}), "");
      EXPECT_TRUE(job.ran());
   }
   {
      /* The same blocks without CONTINUE: the second packet starts afresh (visible), a third
       * over the first block alone decides (not visible). */
      PredicatedJob job(chip);
      job.set_pair(1, 0, 7, 8);
      ASSERT_EQ(job.run_with(chip, {{128, draw_if_visible}, {0, draw_if_visible}}), "");
      EXPECT_FALSE(job.ran());
   }
   {
      /* Operation 0 clears the predicate (no relocation): everything runs again. */
      PredicatedJob job(chip);
      ASSERT_EQ(job.run_with(chip, {{0, draw_if_visible}, {0, 0}}), "");
      EXPECT_TRUE(job.ran());
   }
   {
      /* The no-wait hint with a result not yet written: the dispatch runs. */
      PredicatedJob job(chip);
      job.set_pair(0, 2, 0, 0, false);
      ASSERT_EQ(job.run_with(chip, {{0, draw_if_visible | pred_nowait}}), "");
      EXPECT_TRUE(job.ran());
   }
}

/* COND_WRITE as the driver's vkCmdDrawIndirectCount uses it: backend 0's end count of an
 * all-zero block becomes 1 when the polled count is greater than the draw's index, and the
 * predicated dispatch runs exactly then. */
TEST_P(Pm4Dispatch, CondWriteMakesAPredicateFromACount)
{
   const Chip chip = GetParam();
   constexpr uint32_t count_at = 200;
   for (const uint32_t count : {0u, 3u})
      for (const uint32_t index : {0u, 2u, 3u, 7u}) {
         SCOPED_TRACE("count " + std::to_string(count) + ", index " + std::to_string(index));
         PredicatedJob job(chip);
         for (unsigned backend = 0; backend < 8; backend++)
            job.set_pair(0, backend, 0, 0);
         std::memcpy(job.memory.buffers[job.query].bytes.data() + count_at, &count, 4);
         IbBuilder before;
         before.packet(hw::pm4::COND_WRITE,
                       {hw::pm4::cond_write::FUNCTION_GREATER | hw::pm4::cond_write::POLL_MEMORY |
                           hw::pm4::cond_write::WRITE_MEMORY,
                        count_at, 0, index, 0xffffffffu, 8, 0, 1});
         before.reloc(job.query);
         before.reloc(job.query);
         ASSERT_EQ(job.run_with(chip, {{0, pred_zpass | pred_draw_visible}}, before), "");
         EXPECT_EQ(job.ran(), count > index);
         uint32_t end_low;
         std::memcpy(&end_low, job.memory.buffers[job.query].bytes.data() + 8, 4);
         EXPECT_EQ(end_low, count > index ? 1u : 0u);
      }
}

/* ---- refusals: one per class, each with its own message ---- */

const Chip cayman = chips[2];
const Chip cypress = chips[0];

std::string refusal(const Chip &chip, const std::function<void(Job &, IbBuilder &)> &edit,
                    const char *kernel = "add_const")
{
   Job job(chip, kernel);
   IbBuilder builder = build_dispatch(job.setup);
   edit(job, builder);
   return run(job, chip, builder);
}

#define EXPECT_REFUSED(text, expected)                                                         \
   do {                                                                                        \
      const std::string message_ = (text);                                                     \
      EXPECT_NE(message_.find(expected), std::string::npos) << "message: " << message_;        \
   } while (0)

TEST(Pm4Refusals, TypeZeroPacket)
{
   EXPECT_REFUSED(refusal(cayman, [](Job &, IbBuilder &b) { b.ib.insert(b.ib.begin(), {0x00002000u, 0}); }),
                  "Forbidden register 0x8000 in cs at 0");
}

TEST(Pm4Refusals, UnknownPacketType)
{
   EXPECT_REFUSED(refusal(cayman, [](Job &, IbBuilder &b) { b.ib.insert(b.ib.begin(), 0x40000000u); }),
                  "Unknown packet type 1 at 0");
}

TEST(Pm4Refusals, PacketPastTheEnd)
{
   EXPECT_REFUSED(refusal(cayman, [](Job &, IbBuilder &b) { b.ib.push_back(hw::pm4::packet3(hw::pm4::NOP, 5)); }),
                  "end after CS buffer");
}

TEST(Pm4Refusals, IndirectBuffer)
{
   EXPECT_REFUSED(refusal(cayman, [](Job &, IbBuilder &b) { b.packet(hw::pm4::INDIRECT_BUFFER, {0, 0, 4}); }),
                  "Packet3 opcode 32 not supported");
}

TEST(Pm4Refusals, ForbiddenRegister)
{
   /* GRBM_STATUS: a read-only status register, in neither safe list. */
   EXPECT_REFUSED(refusal(cayman, [](Job &, IbBuilder &b) { b.config(0x8010, {1}); }),
                  "forbidden register 0x00008010");
}

TEST(Pm4Refusals, MissingRelocation)
{
   /* SQ_PGM_START_LS with the NOP that names its buffer removed. */
   EXPECT_REFUSED(refusal(cayman, [](Job &, IbBuilder &b) {
                     IbBuilder fresh;
                     fresh.packet(hw::pm4::CONTEXT_CONTROL, {0x80000000u, 0x80000000u});
                     fresh.context(hw::reg::SQ_PGM_START_LS, {0, 0, 0});
                     b = fresh;
                  }),
                  "bad SET_CONTEXT_REG 0x288D0");
}

TEST(Pm4Refusals, RelocationBeyondTheChunk)
{
   EXPECT_REFUSED(refusal(cayman, [](Job &job, IbBuilder &b) {
                     IbBuilder fresh;
                     fresh.context(hw::reg::SQ_PGM_START_LS, {0, 0, 0});
                     fresh.reloc(unsigned(job.job.relocs.size()) + 3);
                     b = fresh;
                  }),
                  "after relocations chunk end");
}

TEST(Pm4Refusals, DispatchBadCount)
{
   EXPECT_REFUSED(refusal(cayman, [](Job &, IbBuilder &b) { b.packet(hw::pm4::DISPATCH_DIRECT, {1, 1, 1}, true); }),
                  "bad DISPATCH_DIRECT");
}

TEST(Pm4Refusals, DepthStateTrap)
{
   /* The kernel's tracker starts with depth and stencil "enabled" and invalid; a dispatch
    * before DB_DEPTH_CONTROL is written is refused. */
   EXPECT_REFUSED(refusal(cayman, [](Job &, IbBuilder &b) { b.ib.erase(b.ib.begin() + 3, b.ib.begin() + 6); }),
                  "invalid array mode");
}

TEST(Pm4Refusals, MemWriteMisaligned)
{
   EXPECT_REFUSED(refusal(cayman, [](Job &job, IbBuilder &b) {
                     b.packet(hw::pm4::MEM_WRITE, {4, 0, 1, 2});
                     b.reloc(job.setup.fence);
                  }),
                  "bad MEM_WRITE (address not qwords aligned)");
}

TEST(Pm4Refusals, MemWriteBeyondBuffer)
{
   EXPECT_REFUSED(refusal(cayman, [](Job &job, IbBuilder &b) {
                     b.packet(hw::pm4::MEM_WRITE, {8, 0, 1, 2});
                     b.reloc(job.setup.fence);
                  }),
                  "bad MEM_WRITE bo too small");
}

TEST(Pm4Refusals, CpDmaSourceTooSmall)
{
   EXPECT_REFUSED(refusal(cayman, [](Job &job, IbBuilder &b) {
                     b.packet(hw::pm4::CP_DMA, {0, 0, 0, 0, 64});
                     b.reloc(job.setup.fence);
                     b.reloc(job.setup.pool);
                  }),
                  "CP DMA src buffer too small");
}

TEST(Pm4Refusals, TextureResource)
{
   EXPECT_REFUSED(refusal(cayman, [](Job &, IbBuilder &b) {
                     b.ib.push_back(hw::pm4::packet3(hw::pm4::SET_RESOURCE, 8, true));
                     b.ib.push_back(0);
                     for (uint32_t w : {0u, 0u, 0u, 0u, 0u, 0u, 0u, 0x80000000u})
                        b.ib.push_back(w);
                  }),
                  /* A texture needs two relocations (base and mip): none follow. */
                  "bad SET_RESOURCE (tex)");
}

TEST(Pm4Refusals, CondWriteBadCount)
{
   EXPECT_REFUSED(refusal(cayman, [](Job &, IbBuilder &b) { b.packet(hw::pm4::COND_WRITE, {0, 0, 0, 0, 0, 0, 0}); }),
                  "bad COND_WRITE (invalid count)");
}

TEST(Pm4Refusals, CondWriteBeyondItsBuffer)
{
   /* The written dword must have 8 bytes of its buffer from its address (the fence has 8). */
   EXPECT_REFUSED(refusal(cayman, [](Job &job, IbBuilder &b) {
                     b.packet(hw::pm4::COND_WRITE, {hw::pm4::cond_write::POLL_MEMORY | hw::pm4::cond_write::WRITE_MEMORY,
                                                    0, 0, 0, 0, 4, 0, 1});
                     b.reloc(job.setup.fence);
                     b.reloc(job.setup.fence);
                  }),
                  "bad COND_WRITE dst bo too small");
}

TEST(Pm4Refusals, WaitForever)
{
   EXPECT_REFUSED(refusal(cayman, [](Job &job, IbBuilder &b) {
                     b.packet(hw::pm4::WAIT_REG_MEM, {0x13, 0, 0, 0x9999, 0xffffffff, 4});
                     b.reloc(job.setup.fence);
                  }),
                  "would wait forever");
}

TEST(Pm4Refusals, ComputeStateWithoutComputeBit)
{
   EXPECT_REFUSED(refusal(cayman, [](Job &job, IbBuilder &b) {
                     IbBuilder fresh;
                     fresh.context(hw::reg::DB_DEPTH_CONTROL, {0});
                     fresh.context(hw::reg::SQ_PGM_START_LS, {0, job.setup.resources_ls, 0}, false);
                     fresh.reloc(job.setup.code);
                     fresh.packet(hw::pm4::DISPATCH_DIRECT, {1, 1, 1, 1}, true);
                     b = fresh;
                  }),
                  "without the compute (shader type) bit");
}

TEST(Pm4Refusals, DrawPacket)
{
   /* A draw with no vertex shader: the GPU would fetch its program from nowhere. */
   EXPECT_REFUSED(refusal(cayman, [](Job &, IbBuilder &b) { b.packet(hw::pm4::DRAW_INDEX_AUTO, {3, 2}); }),
                  "SQ_PGM_START_VS points outside every buffer");
}

TEST(Pm4Refusals, DrawIntoTooSmallColourBuffer)
{
   /* A 64x64 RGBA8 linear colour buffer (16 KiB) over the 8-byte fence buffer: the kernel's
    * draw-time check (evergreen_cs_track_validate_cb) refuses it. */
   EXPECT_REFUSED(refusal(cayman, [](Job &job, IbBuilder &b) {
                     b.context(hw::reg::CB_COLOR0_BASE, {0, 64 / 8 - 1, 64 * 64 / 64 - 1, 0, (0x1Au << 2) | (1u << 8), 0},
                               false);
                     b.reloc(job.setup.fence);
                     b.reloc(job.setup.fence);
                     b.packet(hw::pm4::DRAW_INDEX_AUTO, {3, 2});
                  }),
                  "evergreen_cs_track_validate_cb: cb[0] bo too small");
}

TEST(Pm4Refusals, DrawWithTooSmallDepthBuffer)
{
   /* A 64x64 Z_24 depth buffer, 1D tiled (16 KiB), over the 8-byte fence buffer, with the
    * depth test on: the kernel's evergreen_cs_track_validate_depth refuses it. */
   EXPECT_REFUSED(refusal(cayman, [](Job &job, IbBuilder &b) {
                     b.context(hw::reg::CB_TARGET_MASK, {0}, false);
                     b.context(hw::gfx::DB_DEPTH_VIEW, {0}, false);
                     b.context(hw::reg::DB_Z_INFO, {2u | (2u << 4), 0, 0, 0, 0, 0, 64 / 8 - 1, 64 * 64 / 64 - 1},
                               false);
                     for (int base = 0; base < 4; base++)
                        b.reloc(job.setup.fence);
                     b.context(hw::reg::DB_DEPTH_CONTROL, {2}, false);
                     b.packet(hw::pm4::DRAW_INDEX_AUTO, {3, 2});
                  }),
                  "evergreen_cs_track_validate_depth: depth read bo too small");
}

TEST(Pm4Refusals, DrawWithMisalignedStencilHeight)
{
   /* A 64x12 stencil buffer, 1D tiled: a 1D-tiled surface's height must be a whole number of
    * 8-row micro tiles (evergreen_surface_check_1d), as 8-bit and as 32-bit elements. */
   EXPECT_REFUSED(refusal(cayman, [](Job &job, IbBuilder &b) {
                     b.context(hw::reg::CB_TARGET_MASK, {0}, false);
                     b.context(hw::gfx::DB_DEPTH_VIEW, {0}, false);
                     b.context(hw::reg::DB_Z_INFO, {0u | (2u << 4), 1, 0, 0, 0, 0, 64 / 8 - 1, 64 * 12 / 64 - 1},
                               false);
                     for (int base = 0; base < 4; base++)
                        b.reloc(job.setup.fence);
                     b.context(hw::reg::DB_DEPTH_CONTROL, {1}, false);
                     b.packet(hw::pm4::DRAW_INDEX_AUTO, {3, 2});
                  }),
                  "stencil height 12 invalid must be aligned with 8");
}

TEST(Pm4Refusals, DrawWithTooSmallStreamoutBuffer)
{
   /* Stream 0 writes buffer 0, whose 16 dwords (64 bytes) lie over the 8-byte fence buffer:
    * evergreen_cs_track_check refuses the draw before anything else. */
   EXPECT_REFUSED(refusal(cayman, [](Job &job, IbBuilder &b) {
                     using namespace hw::streamout;
                     b.context(hw::reg::CB_TARGET_MASK, {0}, false);
                     b.context(VGT_STRMOUT_BUFFER_SIZE_0, {16, 4, 0}, false);
                     b.reloc(job.setup.fence);
                     b.context(VGT_STRMOUT_CONFIG, {1, 1}, false);
                     b.packet(hw::pm4::DRAW_INDEX_AUTO, {3, 2});
                  }),
                  "streamout 0 bo too small: 0x40, 0x8");
}

TEST(Pm4Refusals, StreamoutFilledSizeBeyondItsBuffer)
{
   /* STRMOUT_BUFFER_UPDATE storing buffer 0's filled size at byte 8 of the 8-byte fence
    * buffer. */
   EXPECT_REFUSED(refusal(cayman, [](Job &job, IbBuilder &b) {
                     using namespace hw::streamout;
                     b.packet(hw::pm4::STRMOUT_BUFFER_UPDATE, {update_store_filled_size | (source_none << 1), 8, 0, 0, 0});
                     b.reloc(job.setup.fence);
                  }),
                  "bad STRMOUT_BUFFER_UPDATE dst bo too small: 0xc, 0x8");
}

TEST(Pm4Refusals, DrawIndirectPastItsArgumentBuffer)
{
   /* SET_BASE names the 8-byte fence buffer as the argument buffer; DRAW_INDIRECT's 16 bytes
    * of arguments do not fit (Linux evergreen_cs.c's check). */
   EXPECT_REFUSED(refusal(cayman, [](Job &job, IbBuilder &b) {
                     b.context(hw::reg::CB_TARGET_MASK, {0}, false);
                     b.packet(hw::pm4::SET_BASE, {1, 0, 0});
                     b.reloc(job.setup.fence);
                     b.packet(hw::pm4::DRAW_INDIRECT, {0, 2});
                  }),
                  "DRAW_INDIRECT buffer too small 0 + 16 > 8");
}

TEST(Pm4Refusals, DrawWithTooSmallIndexBuffer)
{
   /* 1000 16-bit indices from the 8-byte fence buffer: the kernel does not check index
    * buffers on Evergreen, the VGT would read past the buffer: the simulator stops. */
   EXPECT_REFUSED(refusal(cayman, [](Job &job, IbBuilder &b) {
                     b.context(hw::reg::CB_TARGET_MASK, {0}, false);
                     b.packet(hw::pm4::INDEX_TYPE, {0});
                     b.packet(hw::pm4::DRAW_INDEX, {0, 0, 1000, 0});
                     b.reloc(job.setup.fence);
                  }),
                  "index buffer: 1000 indices of 2 bytes run past the buffer");
}

TEST(Pm4Refusals, GprBeyondAllocation)
{
   /* A program that uses R1 and R2 with NUM_GPRS = 1. */
   Job job(cayman, "add_const");
   job.setup.resources_ls = 1;
   EXPECT_REFUSED(run(job, cayman, build_dispatch(job.setup)), "beyond the 1 GPRs the program allocates");
}

TEST(Pm4Refusals, StackOverflow)
{
   Job job(cypress, "nested_if");
   job.setup.resources_ls &= 0xff; /* STACK_SIZE 0 for a program with branches */
   EXPECT_REFUSED(run(job, cypress, build_dispatch(job.setup)), "stack overflow");
}

TEST(Pm4Refusals, LdsBeyondAllocation)
{
   Job job(cayman, "lds_reverse");
   job.setup.lds_dwords = 16; /* the kernel uses 64 dwords */
   EXPECT_REFUSED(run(job, cayman, build_dispatch(job.setup)), "outside the 64 bytes allocated");
}

TEST(Pm4Refusals, RatWriteOutsideItsBuffer)
{
   Job job(cayman, "add_const");
   /* The output pointer argument points past the pool. */
   const uint32_t bad_output = pool_size + 0x1000;
   std::memcpy(job.memory.buffers[job.setup.params].bytes.data() + 36, &bad_output, 4);
   EXPECT_REFUSED(run(job, cayman, build_dispatch(job.setup)), "beyond the bound buffer");
}

TEST(Pm4Refusals, ConstantBeyondItsBuffer)
{
   Job job(cayman, "add_const");
   IbBuilder b = build_dispatch(job.setup);
   /* SQ_ALU_CONST_BUFFER_SIZE_LS_0 = 0: constant buffer 0 is not bound. */
   for (size_t i = 0; i + 2 < b.ib.size(); i++)
      if (b.ib[i + 1] == (hw::reg::SQ_ALU_CONST_BUFFER_SIZE_LS_0 - 0x28000) / 4)
         b.ib[i + 2] = 0;
   EXPECT_REFUSED(run(job, cayman, b), "which is not bound");
}

TEST(Pm4Refusals, IllegalInstructionGroup)
{
   /* A hand-built program whose only group reads R1.x and R3.x in cycle 0: two GPRs through
    * the x read port at once. */
   Job job(cayman, "add_const");
   auto x = make_alu(hw::IsaClass::Cayman, "ADD", 0, 'x', {gpr(1, 'x'), gpr(2, 'y')});
   auto y = make_alu(hw::IsaClass::Cayman, "ADD", 0, 'y', {gpr(3, 'x'), gpr(4, 'z')});
   y.set(isa::alu::last, 1);
   const std::vector<uint32_t> code = {
      0x00000002, 0xa0040000, /* ALU @2, two slots */
      0x00000000, 0x88000000, /* CF_END */
      x.words[0], x.words[1], y.words[0], y.words[1],
   };
   std::memcpy(job.memory.buffers[job.setup.code].bytes.data(), code.data(), code.size() * 4);
   job.setup.resources_ls = 5;
   EXPECT_REFUSED(run(job, cayman, build_dispatch(job.setup)), "GPR_READ_PORTS");
}

TEST(Pm4Refusals, CorruptProgram)
{
   Job job(cayman, "add_const");
   uint32_t junk[2] = {0xffffffff, 0xffffffff};
   std::memcpy(job.memory.buffers[job.setup.code].bytes.data(), junk, sizeof(junk));
   EXPECT_REFUSED(run(job, cayman, build_dispatch(job.setup)), "compute program at 0x100000");
}

TEST(Pm4Refusals, ProgramOutsideBuffers)
{
   Job job(cayman, "add_const");
   job.job.relocs[job.setup.code].gpu_address = 0x7000000; /* a place no buffer covers */
   EXPECT_REFUSED(run(job, cayman, build_dispatch(job.setup)), "points outside every buffer");
}

TEST(Pm4Refusals, SetPredication)
{
   /* The kernel's checks (Linux evergreen_cs.c): the count, the operation. */
   EXPECT_REFUSED(refusal(cayman, [](Job &, IbBuilder &b) { b.packet(hw::pm4::SET_PREDICATION, {0, pred_zpass, 0}); }),
                  "bad SET PREDICATION");
   EXPECT_REFUSED(refusal(cayman, [](Job &job, IbBuilder &b) {
                     b.packet(hw::pm4::SET_PREDICATION, {0, 3u << 16});
                     b.reloc(job.setup.fence);
                  }),
                  "bad SET PREDICATION operation 3");
   /* Waiting on a result no backend ever wrote would hang the CP. */
   {
      PredicatedJob job(cayman);
      job.set_pair(0, 6, 0, 0, false);
      EXPECT_REFUSED(job.run_with(cayman, {{0, pred_zpass | pred_draw_visible}}), "would wait forever");
   }
   /* What is not simulated says so. */
   {
      PredicatedJob job(cayman);
      EXPECT_REFUSED(job.run_with(cayman, {{0, pred_primcount}}), "PRIMCOUNT");
   }
   {
      PredicatedJob job(cayman);
      EXPECT_REFUSED(job.run_with(cayman, {{0, pred_zpass | pred_continue}}), "CONTINUE with no predicate");
   }
   EXPECT_REFUSED(refusal(cayman, [](Job &, IbBuilder &b) {
                     b.context(hw::reg::CB_TARGET_MASK, {0xF});
                     b.ib[b.ib.size() - 3] |= 1;
                  }),
                  "has the predicate bit set");
}

TEST(Pm4Refusals, DeallocStateOnEvergreen)
{
   EXPECT_REFUSED(refusal(cypress, [](Job &, IbBuilder &b) { b.packet(hw::pm4::DEALLOC_STATE, {0}, true); }),
                  "bad PACKET3_DEALLOC_STATE");
}

} // namespace
