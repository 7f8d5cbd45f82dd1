/* Typed RAT stores (src/sim/gfx/typed_rat.cpp): CB_COLORn registers of a RAT decoded as r600g
 * programs them for images and buffers (evergreen_set_shader_images), and single elements
 * stored through them. Expected bytes are computed here from the format rules (UNORM rounding,
 * component swap, IEEE half), the linear layout (row pitch x height per slice) and the
 * registers' meaning, not read back from the simulator's own conversion code. */
#include <gtest/gtest.h>

#include <cstring>

#include "gfx/typed_rat.h"
#include "hw/graphics_registers.h"
#include "hw/registers.h"
#include "hw/texture.h"
#include "test_memory.h"

using namespace terakan;
using terakan::test::TestMemory;

namespace {

constexpr uint64_t base = 0x100000;

/* CB_COLOR0_INFO for a RAT: FORMAT 7:2, ARRAY_MODE 11:8 (1: linear aligned), NUMBER_TYPE
 * 14:12, COMP_SWAP 16:15, RAT 26, RESOURCE_TYPE 29:27 (Mesa evergreend.h). */
uint32_t rat_info(hw::TextureFormat format, uint32_t number_type, uint32_t swap, sim::RatResourceType type)
{
   return (uint32_t(format) << 2) | (1u << 8) | (number_type << 12) | (swap << 15) | hw::reg::CB_COLOR_INFO_RAT |
          (uint32_t(type) << 27);
}

struct Rat {
   std::map<uint32_t, uint32_t> context;
   TestMemory memory;

   /* A linear surface of `pitch` x `height` elements per slice, `slices` slices from `base`. */
   Rat(uint32_t info, unsigned pitch, unsigned height, uint32_t view, uint32_t dim, size_t bytes)
   {
      memory.add(base, bytes);
      const uint32_t cb = hw::reg::CB_COLOR0_BASE;
      context[cb + hw::reg::Base] = uint32_t(base >> 8);
      context[cb + hw::reg::Pitch] = pitch / 8 - 1;
      context[cb + hw::reg::Slice] = pitch * height / 64 - 1;
      context[cb + hw::reg::View] = view;
      context[cb + hw::reg::Info] = info;
      context[cb + hw::reg::Attrib] = 0;
      context[cb + hw::reg::Dim] = dim;
   }

   bool decode(sim::TypedRat &rat, std::string &error)
   {
      return sim::decode_typed_rat(context, 0, hw::TilingConfig{}, memory, rat, error);
   }
   const uint8_t *at(uint64_t offset) const { return memory.buffers[0].bytes.data() + offset; }
};

uint32_t bits(float f)
{
   uint32_t u;
   std::memcpy(&u, &f, 4);
   return u;
}

TEST(TypedRat, Rgba8UnormRoundsAndSwapsLikeTheColourBlock)
{
   for (uint32_t swap : {0u, 1u}) {
      SCOPED_TRACE(swap);
      /* 2D, 64 x 4 elements, DIM 20 x 4. */
      Rat r(rat_info(hw::Fmt8_8_8_8, hw::gfx::Unorm, swap, sim::RatResourceType::Texture2D), 64, 4, 0,
            19 | (3u << 16), 64 * 4 * 4);
      sim::TypedRat rat;
      std::string error;
      ASSERT_TRUE(r.decode(rat, error)) << error;
      ASSERT_TRUE(sim::store_typed(rat, {3, 2, 0, 0}, {bits(0.0f), bits(0.5f), bits(1.5f), bits(0.25f)}, 0xf, error))
         << error;
      /* 0.5 x 255 = 127.5 rounds to even, 128; 1.5 clamps to 255; 0.25 x 255 = 63.75 -> 64.
       * SWAP_STD keeps RGBA in memory order, SWAP_ALT puts B first (r600g's BGRA). */
      const uint8_t *texel = r.at((2 * 64 + 3) * 4);
      const uint8_t expected_std[4] = {0, 128, 255, 64}, expected_alt[4] = {255, 128, 0, 64};
      EXPECT_EQ(0, std::memcmp(texel, swap ? expected_alt : expected_std, 4));
      /* Nothing else was written. */
      for (size_t i = 0; i < 64 * 4 * 4; i++)
         if (i < (2 * 64 + 3) * 4 || i >= (2 * 64 + 4) * 4)
            ASSERT_EQ(r.at(i)[0], 0) << "byte " << i;
   }
}

TEST(TypedRat, ArraySliceCountsFromSliceStart)
{
   /* 2D array of R32 float, 64 x 4 per slice, VIEW slices 1..3. */
   Rat r(rat_info(hw::Fmt32Float, hw::gfx::Float, 0, sim::RatResourceType::Texture2DArray), 64, 4,
         1 | (3u << 13), 63 | (3u << 16), 64 * 4 * 4 * 4);
   sim::TypedRat rat;
   std::string error;
   ASSERT_TRUE(r.decode(rat, error)) << error;
   ASSERT_TRUE(sim::store_typed(rat, {5, 1, 1, 0}, {bits(-2.75f), 0, 0, 0}, 0xf, error)) << error;
   uint32_t stored;
   std::memcpy(&stored, r.at(2 * (64 * 4 * 4) + (1 * 64 + 5) * 4), 4);
   EXPECT_EQ(stored, bits(-2.75f));
   /* z 2 would be slice 3, the last; z 3 is past SLICE_MAX. */
   EXPECT_TRUE(sim::store_typed(rat, {0, 0, 2, 0}, {0, 0, 0, 0}, 0xf, error)) << error;
   EXPECT_FALSE(sim::store_typed(rat, {0, 0, 3, 0}, {0, 0, 0, 0}, 0xf, error));
   EXPECT_NE(error.find("outside the RAT"), std::string::npos) << error;
}

TEST(TypedRat, OneDimensionalArrayTakesTheLayerFromZ)
{
   Rat r(rat_info(hw::Fmt32, hw::gfx::Uint, 0, sim::RatResourceType::Texture1DArray), 64, 1, 2u << 13, 39,
         64 * 4 * 3);
   sim::TypedRat rat;
   std::string error;
   ASSERT_TRUE(r.decode(rat, error)) << error;
   /* y is ignored; the layer is z (r600g moves it there, sfn emit_image_store). */
   ASSERT_TRUE(sim::store_typed(rat, {7, 99, 2, 0}, {0xdeadbeef, 0, 0, 0}, 0xf, error)) << error;
   uint32_t stored;
   std::memcpy(&stored, r.at(2 * 64 * 4 + 7 * 4), 4);
   EXPECT_EQ(stored, 0xdeadbeefu);
}

TEST(TypedRat, HalfFloatsAndIntegerClamps)
{
   Rat half(rat_info(hw::Fmt16_16_16_16Float, hw::gfx::Float, 0, sim::RatResourceType::Texture2D), 64, 1, 0, 63,
            64 * 8);
   sim::TypedRat rat;
   std::string error;
   ASSERT_TRUE(half.decode(rat, error)) << error;
   ASSERT_TRUE(sim::store_typed(rat, {1, 0, 0, 0}, {bits(1.5f), bits(-2.0f), bits(0.0f), bits(65504.0f)}, 0xf, error));
   const uint16_t expected_half[4] = {0x3e00, 0xc000, 0x0000, 0x7bff}; /* IEEE binary16 */
   EXPECT_EQ(0, std::memcmp(half.at(8), expected_half, 8));

   Rat bytes(rat_info(hw::Fmt8_8_8_8, hw::gfx::Sint, 0, sim::RatResourceType::Texture2D), 64, 1, 0, 63, 64 * 4);
   ASSERT_TRUE(bytes.decode(rat, error)) << error;
   ASSERT_TRUE(sim::store_typed(rat, {0, 0, 0, 0}, {uint32_t(-300), 5, uint32_t(-5), 300}, 0xf, error));
   const uint8_t expected_sint[4] = {0x80, 5, 0xfb, 0x7f}; /* clamped to -128..127 */
   EXPECT_EQ(0, std::memcmp(bytes.at(0), expected_sint, 4));
}

TEST(TypedRat, BufferIsOneRowOfDimPlusOneElements)
{
   /* A buffer RAT as r600g programs one: PITCH 64 elements, SLICE 0, DIM = elements - 1. */
   Rat r(rat_info(hw::Fmt32, hw::gfx::Uint, 0, sim::RatResourceType::Buffer), 64, 1, 0, 99, 400);
   sim::TypedRat rat;
   std::string error;
   ASSERT_TRUE(r.decode(rat, error)) << error;
   ASSERT_TRUE(sim::store_typed(rat, {99, 0, 0, 0}, {42, 0, 0, 0}, 0xf, error)) << error;
   uint32_t stored;
   std::memcpy(&stored, r.at(396), 4);
   EXPECT_EQ(stored, 42u);
   EXPECT_FALSE(sim::store_typed(rat, {100, 0, 0, 0}, {42, 0, 0, 0}, 0xf, error));
}

TEST(TypedRat, CompMaskWritesOnlyTheChannelsItNames)
{
   Rat r(rat_info(hw::Fmt8_8_8_8, hw::gfx::Uint, 0, sim::RatResourceType::Texture2D), 64, 1, 0, 63, 256);
   sim::TypedRat rat;
   std::string error;
   ASSERT_TRUE(r.decode(rat, error)) << error;
   ASSERT_TRUE(sim::store_typed(rat, {2, 0, 0, 0}, {1, 2, 3, 4}, 0x5, error)) << error;
   const uint8_t expected[4] = {1, 0, 3, 0};
   EXPECT_EQ(0, std::memcmp(r.at(8), expected, 4));
}

/* r600g's shader-buffer RAT: R32 UINT, DIM in bytes (evergreen_set_shader_buffers) and so past
 * the buffer object's end; its stores are STORE_TYPED with COMP_MASK 0x1 at dword indices. */
TEST(TypedRat, ShaderBufferRatsAsR600gProgramsThem)
{
   Rat r(rat_info(hw::Fmt32, hw::gfx::Uint, 0, sim::RatResourceType::Buffer), 64, 1, 0, 1024, 256);
   sim::TypedRat rat;
   std::string error;
   ASSERT_TRUE(r.decode(rat, error)) << error;
   ASSERT_TRUE(sim::store_typed(rat, {63, 0, 0, 0}, {7, 8, 9, 10}, 0x1, error)) << error;
   uint32_t stored;
   std::memcpy(&stored, r.at(252), 4);
   EXPECT_EQ(stored, 7u);
   EXPECT_FALSE(sim::store_typed(rat, {64, 0, 0, 0}, {7, 0, 0, 0}, 0x1, error)) << "past the buffer object";
}

TEST(TypedRat, RefusesWhatIsNotDefined)
{
   sim::TypedRat rat;
   std::string error;
   Rat undefined_type(rat_info(hw::Fmt32, hw::gfx::Uint, 0, sim::RatResourceType(6)), 64, 1, 0, 63, 256);
   EXPECT_FALSE(undefined_type.decode(rat, error));
   EXPECT_NE(error.find("RESOURCE_TYPE"), std::string::npos) << error;
   Rat backwards_view(rat_info(hw::Fmt32, hw::gfx::Uint, 0, sim::RatResourceType::Texture2DArray), 64, 1,
                      2 | (1u << 13), 63, 256 * 3);
   EXPECT_FALSE(backwards_view.decode(rat, error));
   EXPECT_NE(error.find("SLICE_START"), std::string::npos) << error;
   /* DIM wider than the surface PITCH describes. */
   Rat too_wide(rat_info(hw::Fmt32, hw::gfx::Uint, 0, sim::RatResourceType::Texture2D), 64, 1, 0, 64, 256);
   EXPECT_FALSE(too_wide.decode(rat, error));
   /* More slices than the buffer holds. */
   Rat too_small(rat_info(hw::Fmt32, hw::gfx::Uint, 0, sim::RatResourceType::Texture2DArray), 64, 1, 3u << 13, 63,
                 256 * 3);
   EXPECT_FALSE(too_small.decode(rat, error));
   /* An out-of-range coordinate in 2D. */
   Rat small(rat_info(hw::Fmt32, hw::gfx::Uint, 0, sim::RatResourceType::Texture2D), 64, 1, 0, 9, 256);
   ASSERT_TRUE(small.decode(rat, error)) << error;
   EXPECT_FALSE(sim::store_typed(rat, {10, 0, 0, 0}, {1, 0, 0, 0}, 0xf, error));
   EXPECT_FALSE(sim::store_typed(rat, {0, 1, 0, 0}, {1, 0, 0, 0}, 0xf, error));
}

} // namespace
