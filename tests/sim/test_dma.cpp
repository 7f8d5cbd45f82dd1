/* The asynchronous DMA ring: the kernel's DMA checker (src/sim/cp/dma_checker) and the DMA
 * engine (src/sim/cp/dma_engine) on streams built the way r600g builds them
 * (evergreen_dma_copy_buffer, evergreen_dma_copy_tile). Tiled copies are checked against the
 * texel addresses of src/hw/surface (what the texture unit reads), not against the engine's
 * own walk; every refusal is checked for the kernel's message. */
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "cp/dma_checker.h"
#include "cp/dma_engine.h"
#include "hw/dma_packets.h"
#include "hw/surface.h"
#include "test_memory.h"

using namespace terakan;
using namespace terakan::hw;
using terakan::sim::CsReloc;
using terakan::test::TestMemory;

namespace {

constexpr uint64_t src_address = 0x100000, dst_address = 0x200000, dst2_address = 0x300000;

/* A board's memory with buffers at fixed addresses, and the reloc list entry for each. */
struct Board {
   TestMemory memory;
   sim::DmaEngine engine{memory, TilingConfig{}};

   CsReloc add(uint64_t address, size_t size)
   {
      memory.add(address, size);
      return {address, size, 0};
   }
   uint8_t *bytes(uint64_t address)
   {
      std::string error;
      return memory.resolve(address, 1, error);
   }
   /* Check, patch and run; the checker's refusal or the engine's fault, or "". */
   std::string submit(std::vector<uint32_t> ib, const std::vector<CsReloc> &relocs,
                      IsaClass isa = IsaClass::Cayman)
   {
      std::string refused = sim::check_and_patch_dma(ib, relocs, isa);
      if (!refused.empty())
         return "refused: " + refused;
      return engine.execute(ib);
   }
};

void fill_pattern(uint8_t *bytes, size_t size, uint32_t seed)
{
   for (size_t i = 0; i < size; i++)
      bytes[i] = uint8_t((i * 131 + seed) ^ (i >> 8));
}

/* ---------------------------------------------------------------- linear */

TEST(DmaRing, DwordCopyAddsTheRelocationsInOrder)
{
   Board board;
   const CsReloc src = board.add(src_address, 4096), dst = board.add(dst_address, 4096);
   fill_pattern(board.bytes(src_address), 4096, 1);
   /* Offsets inside the buffers: the kernel adds each buffer's address. */
   const std::vector<uint32_t> ib = {dma::header(dma::COPY, dma::COPY_LINEAR_DWORDS, 256), 0x400, 0x100, 0, 0,
                                     dma::nop, dma::nop, dma::nop};
   ASSERT_EQ(board.submit(ib, {src, dst}), "");
   EXPECT_EQ(std::memcmp(board.bytes(dst_address + 0x400), board.bytes(src_address + 0x100), 1024), 0);
   EXPECT_EQ(board.bytes(dst_address + 0x3ff)[0], 0);
   EXPECT_EQ(board.bytes(dst_address + 0x800)[0], 0);
   EXPECT_EQ(board.engine.statistics().bytes, 1024u);
}

TEST(DmaRing, ByteCopyMovesUnalignedBytes)
{
   Board board;
   const CsReloc src = board.add(src_address, 4096), dst = board.add(dst_address, 4096);
   fill_pattern(board.bytes(src_address), 4096, 2);
   const std::vector<uint32_t> ib = {dma::header(dma::COPY, dma::COPY_LINEAR_BYTES, 7), 3, 5, 0, 0};
   ASSERT_EQ(board.submit(ib, {src, dst}), "");
   EXPECT_EQ(std::memcmp(board.bytes(dst_address + 3), board.bytes(src_address + 5), 7), 0);
   EXPECT_EQ(board.bytes(dst_address + 10)[0], 0);
}

TEST(DmaRing, BroadcastCopyWritesBothDestinations)
{
   Board board;
   const CsReloc src = board.add(src_address, 4096), dst = board.add(dst_address, 4096),
                 dst2 = board.add(dst2_address, 4096);
   fill_pattern(board.bytes(src_address), 4096, 3);
   const std::vector<uint32_t> ib = {dma::header(dma::COPY, dma::COPY_LINEAR_BROADCAST, 16), 0, 64, 128, 0, 0, 0};
   ASSERT_EQ(board.submit(ib, {src, dst, dst2}), "");
   EXPECT_EQ(std::memcmp(board.bytes(dst_address), board.bytes(src_address + 128), 64), 0);
   EXPECT_EQ(std::memcmp(board.bytes(dst2_address + 64), board.bytes(src_address + 128), 64), 0);
}

TEST(DmaRing, ConstantFillAndWrite)
{
   Board board;
   const CsReloc dst = board.add(dst_address, 4096);
   const std::vector<uint32_t> ib = {dma::header(dma::CONSTANT_FILL, 0, 10), 0x20, 0xdeadbeef, 0,
                                     dma::header(dma::WRITE, dma::write_linear, 3), 0x100, 0, 1, 2, 3};
   /* Each packet takes its own relocation, even for the same buffer. */
   ASSERT_EQ(board.submit(ib, {dst, dst}), "");
   uint32_t words[10];
   std::memcpy(words, board.bytes(dst_address + 0x20), sizeof(words));
   for (uint32_t word : words)
      EXPECT_EQ(word, 0xdeadbeefu);
   EXPECT_EQ(board.bytes(dst_address + 0x1f)[0], 0);
   EXPECT_EQ(board.bytes(dst_address + 0x48)[0], 0);
   uint32_t written[3];
   std::memcpy(written, board.bytes(dst_address + 0x100), sizeof(written));
   EXPECT_EQ(written[0], 1u);
   EXPECT_EQ(written[1], 2u);
   EXPECT_EQ(written[2], 3u);
}

/* ---------------------------------------------------------------- tiled */

struct TiledCase {
   const char *name;
   ArrayMode mode;
   unsigned width, height, layers, bpe;
   unsigned first_row, rows, layer;
};

/* The words r600g's evergreen_dma_copy_tile writes for one level of `layout`. */
void tiled_words(const SurfaceLayout &layout, const SurfaceDescription &desc, const TiledCase &c, bool detile,
                 uint32_t out[5])
{
   const SurfaceLevel &level = layout.levels[0];
   dma::tiled::Fields f;
   f.detile = detile;
   f.array_mode = uint32_t(level.mode);
   f.log2_bpe = __builtin_ctz(c.bpe);
   f.pitch_tile_max = level.pitch / 8 - 1;
   f.height_minus_one = c.height - 1;
   f.slice_tile_max = level.pitch * level.aligned_height / 64 - 1;
   f.x = 0;
   f.y = c.first_row;
   f.z = c.layer;
   f.non_displayable = desc.non_displayable_order;
   if (level.mode == ArrayMode::Tiled2DThin1) {
      f.bank_width = __builtin_ctz(layout.macro.bank_width);
      f.bank_height = __builtin_ctz(layout.macro.bank_height);
      f.macro_tile_aspect = __builtin_ctz(layout.macro.macro_tile_aspect);
      f.tile_split = __builtin_ctz(layout.macro.tile_split_bytes / 64);
      f.num_banks = __builtin_ctz(layout.macro.banks / 2);
   }
   dma::tiled::encode(f, out);
}

class TiledCopy : public testing::TestWithParam<TiledCase> {};

TEST_P(TiledCopy, LinearToTiledAndBackFollowsTheSurfaceAddressing)
{
   const TiledCase &c = GetParam();
   SurfaceDescription desc;
   desc.width = c.width;
   desc.height = c.height;
   desc.layers = c.layers;
   desc.bytes_per_element = c.bpe;
   desc.mode = c.mode;
   SurfaceLayout layout;
   std::string error;
   ASSERT_TRUE(compute_surface_layout(Family::Cayman, desc, layout, error)) << error;
   ASSERT_EQ(layout.levels[0].mode, c.mode);
   const unsigned pitch = layout.levels[0].pitch;
   const size_t row_bytes = size_t(pitch) * c.bpe, linear_bytes = row_bytes * c.rows;

   Board board;
   const CsReloc linear = board.add(src_address, linear_bytes + 4096);
   const CsReloc tiled = board.add(dst_address, layout.size);
   const CsReloc back = board.add(dst2_address, linear_bytes + 4096);
   fill_pattern(board.bytes(src_address), linear_bytes, 4);

   /* L2T: the linear rows start at byte 256 of their buffer. */
   uint32_t words[5];
   tiled_words(layout, desc, c, false, words);
   const uint32_t dwords = uint32_t(linear_bytes / 4);
   std::vector<uint32_t> ib = {dma::header(dma::COPY, dma::COPY_TILED, dwords), 0, words[0], words[1], words[2],
                               words[3], words[4], 256, 0};
   ASSERT_EQ(board.submit(ib, {linear, tiled}), "");
   for (unsigned row = 0; row < c.rows; row++)
      for (unsigned x = 0; x < pitch; x++) {
         const uint64_t offset = surface_texel_offset(layout, desc, 0, x, c.first_row + row, c.layer);
         ASSERT_EQ(std::memcmp(board.bytes(dst_address + offset),
                               board.bytes(src_address + 256 + row * row_bytes + x * c.bpe), c.bpe), 0)
            << "texel " << x << ", " << c.first_row + row;
      }

   /* T2L into a third buffer: the same bytes come back. */
   tiled_words(layout, desc, c, true, words);
   ib = {dma::header(dma::COPY, dma::COPY_TILED, dwords), 0, words[0], words[1], words[2], words[3], words[4], 0, 0};
   ASSERT_EQ(board.submit(ib, {tiled, back}), "");
   EXPECT_EQ(std::memcmp(board.bytes(dst2_address), board.bytes(src_address + 256), linear_bytes), 0);
}

INSTANTIATE_TEST_SUITE_P(
   Surfaces, TiledCopy,
   testing::Values(TiledCase{"Tiled1D_32x16_2bytes", ArrayMode::Tiled1DThin1, 32, 16, 1, 2, 0, 16, 0},
                   TiledCase{"Tiled1D_16x24_16bytes_rows8to15", ArrayMode::Tiled1DThin1, 16, 24, 1, 16, 8, 8, 0},
                   TiledCase{"Tiled1D_8x8x4_4bytes_layer2", ArrayMode::Tiled1DThin1, 8, 8, 4, 4, 0, 8, 2},
                   TiledCase{"Tiled2D_128x128_4bytes", ArrayMode::Tiled2DThin1, 128, 128, 1, 4, 0, 128, 0},
                   TiledCase{"Tiled2D_256x256x3_1byte_layer1_rows5to40", ArrayMode::Tiled2DThin1, 256, 256, 3, 1, 5, 36, 1},
                   TiledCase{"Tiled2D_64x64_8bytes", ArrayMode::Tiled2DThin1, 64, 64, 1, 8, 0, 64, 0}),
   [](const testing::TestParamInfo<TiledCase> &info) { return std::string(info.param.name); });

/* ---------------------------------------------------------------- refusals */

TEST(DmaRingRefusals, CopyPastTheEndOfABuffer)
{
   Board board;
   const CsReloc src = board.add(src_address, 4096), dst = board.add(dst_address, 4096);
   std::vector<uint32_t> ib = {dma::header(dma::COPY, dma::COPY_LINEAR_DWORDS, 256), 0, 3076, 0, 0};
   EXPECT_EQ(board.submit(ib, {src, dst}), "refused: DMA L2L, dw src buffer too small (4100 4096)");
   ib = {dma::header(dma::COPY, dma::COPY_LINEAR_BYTES, 100), 4000, 0, 0, 0};
   EXPECT_EQ(board.submit(ib, {src, dst}), "refused: DMA L2L, byte dst buffer too small (4100 4096)");
   ib = {dma::header(dma::CONSTANT_FILL, 0, 2), 4092, 0, 0};
   EXPECT_EQ(board.submit(ib, {dst}), "refused: DMA constant fill buffer too small (4092 4096)");
   ib = {dma::header(dma::WRITE, dma::write_linear, 2), 4092, 0, 7, 7};
   EXPECT_EQ(board.submit(ib, {dst}), "refused: DMA write buffer too small (4092 4096)");
   uint32_t words[5];
   dma::tiled::encode({}, words);
   ib = {dma::header(dma::COPY, dma::COPY_TILED, 1024), 1, words[0], words[1], words[2], words[3], words[4], 0, 0};
   EXPECT_EQ(board.submit(ib, {src, dst}), "refused: DMA L2T, dst buffer too small (4352 4096)");
   /* Nothing ran. */
   EXPECT_EQ(board.engine.statistics().packets, 0u);
}

TEST(DmaRingRefusals, UnknownPacketsAndSubCommands)
{
   Board board;
   const CsReloc src = board.add(src_address, 4096), dst = board.add(dst_address, 4096);
   EXPECT_EQ(board.submit({dma::nop, dma::header(dma::FENCE, 0, 0), 0, 0, 0}, {src}),
             "refused: Unknown packet type 6 at 1 !");
   EXPECT_EQ(board.submit({0x10000000}, {src}), "refused: Unknown packet type 1 at 0 !");
   EXPECT_EQ(board.submit({dma::header(dma::COPY, 0x10, 1), 0, 0, 0, 0}, {src, dst}),
             "refused: bad DMA_PACKET_COPY [     0] 0x31000001 invalid sub cmd");
   EXPECT_EQ(board.submit({dma::header(dma::WRITE, 4, 1), 0, 0, 0}, {dst}),
             "refused: bad DMA_PACKET_WRITE [     0] 0x20400001 sub cmd is not 0 or 8");
   EXPECT_EQ(board.submit({dma::header(dma::COPY, dma::COPY_LINEAR_PARTIAL, 1), 0, 0, 0, 0, 0, 0, 0, 0}, {src, dst},
                          IsaClass::Evergreen),
             "refused: L2L Partial is cayman only !");
}

TEST(DmaRingRefusals, RelocationsRunOut)
{
   Board board;
   const CsReloc src = board.add(src_address, 4096);
   EXPECT_EQ(board.submit({dma::header(dma::COPY, 0, 1), 0, 0, 0, 0}, {src}),
             "refused: Relocs at 1 after relocations chunk end 1 ! (bad DMA_PACKET_COPY)");
   EXPECT_EQ(board.submit({dma::header(dma::CONSTANT_FILL, 0, 1), 0, 0, 0}, {}),
             "refused: No relocation chunk ! (bad DMA_PACKET_CONSTANT_FILL)");
}

TEST(DmaRingRefusals, SimulatorRules)
{
   Board board;
   const CsReloc src = board.add(src_address, 4096), dst = board.add(dst_address, 4096);
   /* A packet cut off by the end of the IB. */
   EXPECT_NE(board.submit({dma::header(dma::COPY, 0, 1), 0, 0}, {src, dst}).find("needs 5 dwords but the CS ends at 3"),
             std::string::npos);
   /* A NOP with a count. */
   EXPECT_NE(board.submit({dma::header(dma::NOP, 0, 3)}, {}).find("not documented"), std::string::npos);
   /* Overlapping ranges inside one buffer: accepted by the kernel, undefined on the engine. */
   EXPECT_NE(board.submit({dma::header(dma::COPY, 0, 64), 16, 0, 0, 0}, {src, src}).find("overlapping"),
             std::string::npos);
}

TEST(DmaRingRefusals, TiledCopyOfPartialRows)
{
   Board board;
   const CsReloc src = board.add(src_address, 65536), dst = board.add(dst_address, 65536);
   dma::tiled::Fields f;
   f.pitch_tile_max = 3; /* 32 elements of 4 bytes: 128-byte rows */
   f.height_minus_one = 31;
   f.slice_tile_max = 15;
   uint32_t words[5];
   dma::tiled::encode(f, words);
   const std::string failed = board.submit(
      {dma::header(dma::COPY, dma::COPY_TILED, 40), 0, words[0], words[1], words[2], words[3], words[4], 0, 0},
      {src, dst});
   EXPECT_NE(failed.find("is not whole rows of 128 bytes"), std::string::npos) << failed;
}

} // namespace
