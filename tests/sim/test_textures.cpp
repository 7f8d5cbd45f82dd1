/* Textures: the shared resource/sampler words (src/hw/texture), the surface layout
 * (src/hw/surface) against hand-computed layouts, the kernel checker's texture rules, and the
 * shader core's TEX instructions on small textures. Every expected value is computed here from
 * the rules (docs/sim-semantics.md, "Textures"), not read back from the simulator. */
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>

#include "../isa/alu_builder.h"
#include "compiler/isa/words.h"
#include "core/shader_core.h"
#include "core/texture_unit.h"
#include "hw/msaa.h"
#include "hw/surface.h"
#include "hw/texture.h"
#include "pm4_harness.h"

using namespace terakan;
using namespace terakan::hw;
using terakan::test::TestMemory;

namespace {

/* ---------------------------------------------------------------- words */

TEST(TextureWords, ResourceFieldsLandWhereTheHeadersSay)
{
   TextureResource r;
   r.dim = TextureDim::Dim2DArray;
   r.pitch = 128;
   r.width = 100;
   r.height = 50;
   r.depth = 6;
   r.array_mode = ArrayMode::Tiled1DThin1;
   r.base_address = 0x12345600;
   r.mip_address = 0xABCDEF00;
   r.format = Fmt16_16_16_16Float;
   r.num_format = NumFormat::Int;
   r.format_signed[1] = true;
   r.force_degamma = true;
   r.dst_sel[0] = Select::W;
   r.dst_sel[3] = Select::One;
   r.base_level = 2;
   r.last_level = 5;
   r.base_array = 1;
   r.last_array = 5;
   const auto w = encode_texture_resource(r);
   EXPECT_EQ(w[0] & 7, 5u);                   /* DIM */
   EXPECT_EQ((w[0] >> 6) & 0xfff, 128u / 8 - 1); /* PITCH */
   EXPECT_EQ(w[0] >> 18, 99u);                /* TEX_WIDTH */
   EXPECT_EQ(w[1] & 0x3fff, 49u);             /* TEX_HEIGHT */
   EXPECT_EQ((w[1] >> 14) & 0x1fff, 5u);      /* TEX_DEPTH */
   EXPECT_EQ(w[1] >> 28, 2u);                 /* ARRAY_MODE */
   EXPECT_EQ(w[2], 0x123456u);
   EXPECT_EQ(w[3], 0xABCDEFu);
   EXPECT_EQ(w[4] & 0xff, 1u << 2);           /* FORMAT_COMP_Y signed */
   EXPECT_EQ((w[4] >> 8) & 3, 1u);            /* NUM_FORMAT_ALL INT */
   EXPECT_EQ((w[4] >> 11) & 1, 1u);           /* FORCE_DEGAMMA */
   EXPECT_EQ((w[4] >> 16) & 7, 3u);           /* DST_SEL_X = W */
   EXPECT_EQ((w[4] >> 25) & 7, 5u);           /* DST_SEL_W = 1 */
   EXPECT_EQ(w[4] >> 28, 2u);                 /* BASE_LEVEL */
   EXPECT_EQ(w[5] & 0xf, 5u);                 /* LAST_LEVEL */
   EXPECT_EQ((w[5] >> 4) & 0x1fff, 1u);       /* BASE_ARRAY */
   EXPECT_EQ((w[5] >> 17) & 0x1fff, 5u);      /* LAST_ARRAY */
   EXPECT_EQ(w[7] & 0x3f, 0x20u);             /* DATA_FORMAT */
   EXPECT_EQ(w[7] >> 30, 2u);                 /* TYPE = VALID_TEXTURE */

   const TextureResource d = decode_texture_resource(w);
   EXPECT_EQ(encode_texture_resource(d), w);
   EXPECT_EQ(d.width, 100u);
   EXPECT_EQ(d.depth, 6u);
   EXPECT_EQ(d.base_address, 0x12345600u);
   EXPECT_EQ(d.dst_sel[0], Select::W);
}

/* The multisampled fields (Mesa evergreend.h: LOG2_NUM_FRAGMENTS [15:14] of WORD4, Cayman;
 * FMASK_BANK_HEIGHT in WORD6's MAX_ANISO_RATIO bits; DEPTH_SAMPLE_ORDER [15] of WORD7), and
 * NON_DISP_TILING_ORDER, bit 5 on the Evergreen class and a two-bit field 5:4 = 1 on Cayman
 * (CM_S_030000_NON_DISP_TILING_ORDER). */
TEST(TextureWords, MultisampledFieldsAndCaymanTileType)
{
   TextureResource r;
   r.dim = TextureDim::Dim2DArrayMsaa;
   r.last_level = 2;
   r.log2_fragments = 2;
   r.max_aniso_ratio = 2;
   r.depth_sample_order = true;
   r.non_disp_tiling_order = true;
   const auto evergreen = encode_texture_resource(r, IsaClass::Evergreen);
   EXPECT_EQ(evergreen[0] & 7, 7u);
   EXPECT_EQ((evergreen[0] >> 4) & 3, 2u);
   EXPECT_EQ((evergreen[4] >> 14) & 3, 2u);
   EXPECT_EQ(evergreen[5] & 0xf, 2u);
   EXPECT_EQ(evergreen[6] & 3, 2u);
   EXPECT_EQ((evergreen[7] >> 15) & 1, 1u);
   const auto cayman = encode_texture_resource(r, IsaClass::Cayman);
   EXPECT_EQ((cayman[0] >> 4) & 3, 1u);
   EXPECT_TRUE(decode_texture_resource(cayman, IsaClass::Cayman).non_disp_tiling_order);
   EXPECT_FALSE(decode_texture_resource(evergreen, IsaClass::Cayman).non_disp_tiling_order); /* value 2 */
   EXPECT_TRUE(decode_texture_resource(evergreen, IsaClass::Evergreen).non_disp_tiling_order);
   const TextureResource d = decode_texture_resource(cayman, IsaClass::Cayman);
   EXPECT_EQ(d.log2_fragments, 2u);
   EXPECT_TRUE(d.depth_sample_order);
   EXPECT_EQ(encode_texture_resource(d, IsaClass::Cayman), cayman);
}

TEST(TextureWords, SamplerFieldsAndLodFixedPoint)
{
   Sampler s;
   s.clamp[0] = ClampMode::MirrorOnceBorder;
   s.clamp[1] = ClampMode::ClampLastTexel;
   s.clamp[2] = ClampMode::Mirror;
   s.mag_filter = TexFilter::Bilinear;
   s.min_filter = TexFilter::Point;
   s.mip_filter = MipFilter::Linear;
   s.border = BorderColor::OpaqueWhite;
   s.min_lod = 1.5f;
   s.max_lod = 3.25f;
   s.lod_bias = -2.5f;
   s.truncate_coord = true;
   s.force_unnormalized = true;
   const auto w = encode_sampler(s, IsaClass::Cayman);
   EXPECT_EQ(w[0] & 7, 7u);
   EXPECT_EQ((w[0] >> 3) & 7, 2u);
   EXPECT_EQ((w[0] >> 6) & 7, 1u);
   EXPECT_EQ((w[0] >> 9) & 3, 1u);
   EXPECT_EQ((w[0] >> 15) & 3, 2u);
   EXPECT_EQ((w[0] >> 20) & 3, 2u);
   EXPECT_EQ((w[0] >> 25) & 1, 1u);            /* FORCE_UNNORMALIZED */
   EXPECT_EQ(w[1] & 0xfff, 0x180u);            /* 1.5 in 4.8 */
   EXPECT_EQ((w[1] >> 12) & 0xfff, 0x340u);    /* 3.25 */
   EXPECT_EQ(w[2] & 0x3fff, 0x4000u - 0x280u); /* -2.5 in signed 6.8 */
   EXPECT_EQ((w[2] >> 28) & 1, 1u);
   EXPECT_EQ(w[2] >> 31, 1u);                  /* TYPE, as Mesa sets it */
   const Sampler d = decode_sampler(w, IsaClass::Cayman);
   EXPECT_EQ(d.lod_bias, -2.5f);
   EXPECT_EQ(d.max_lod, 3.25f);
   EXPECT_TRUE(d.force_unnormalized);
   EXPECT_EQ(encode_sampler(d, IsaClass::Cayman), w);
}

TEST(TextureWords, ForceUnnormalizedIsCaymanOnly)
{
   EXPECT_TRUE(sampler_has_force_unnormalized(Family::Cayman));
   EXPECT_TRUE(sampler_has_force_unnormalized(Family::Aruba));
   for (Family f : {Family::Cypress, Family::Barts, Family::Turks, Family::Caicos, Family::Juniper, Family::Sumo})
      EXPECT_FALSE(sampler_has_force_unnormalized(f));
   /* On Evergreen-class chips bit 25 is CHROMA_KEY's low bit. */
   const std::array<uint32_t, 3> words = {1u << 25, 0, 0};
   const Sampler evergreen = decode_sampler(words, IsaClass::Evergreen);
   EXPECT_FALSE(evergreen.force_unnormalized);
   EXPECT_EQ(evergreen.chroma_key, 1u);
   EXPECT_TRUE(decode_sampler(words, IsaClass::Cayman).force_unnormalized);
   Sampler s;
   s.force_unnormalized = true;
   EXPECT_DEBUG_DEATH(encode_sampler(s, IsaClass::Evergreen), "Cayman/Aruba only");
}

TEST(TextureWords, FormatSizesFollowTheKernelTable)
{
   EXPECT_EQ(format_bytes_per_element(Fmt8), 1u);
   EXPECT_EQ(format_bytes_per_element(Fmt5_6_5), 2u);
   EXPECT_EQ(format_bytes_per_element(Fmt8_8_8_8), 4u);
   EXPECT_EQ(format_bytes_per_element(Fmt32_32Float), 8u);
   EXPECT_EQ(format_bytes_per_element(Fmt32_32_32_32), 16u);
   EXPECT_EQ(format_bytes_per_element(FmtBC1), 8u);
   EXPECT_EQ(format_block_dimension(FmtBC3), 4u);
   EXPECT_FALSE(format_is_valid_texture(TextureFormat(4), Family::Cayman));
   EXPECT_FALSE(format_is_valid_texture(TextureFormat(0x21), Family::Cypress));
   EXPECT_TRUE(format_is_valid_texture(FmtBC7, Family::Cedar));
}

/* ---------------------------------------------------------------- layout */

TEST(SurfaceLayout, LinearAlignedMipChain)
{
   SurfaceDescription d;
   d.width = 100, d.height = 50, d.levels = 3, d.bytes_per_element = 4;
   d.mode = ArrayMode::LinearAligned;
   SurfaceLayout l;
   std::string error;
   ASSERT_TRUE(compute_surface_layout(Family::Cayman, d, l, error)) << error;
   /* Pitch multiple of max(64, 256 / 4) = 64. Level 0: 128 x 50. Level 1: 50 -> 64 (power of
    * two), 25 -> 32 rows. Level 2: 25 -> 32 -> pitch 64, 12 -> 16 rows. */
   ASSERT_EQ(l.levels.size(), 3u);
   EXPECT_EQ(l.levels[0].pitch, 128u);
   EXPECT_EQ(l.levels[0].aligned_height, 50u);
   EXPECT_EQ(l.levels[1].pitch, 64u);
   EXPECT_EQ(l.levels[1].aligned_height, 32u);
   EXPECT_EQ(l.levels[1].offset, 128u * 50 * 4);
   EXPECT_EQ(l.mip_offset, 25600u);
   EXPECT_EQ(l.levels[2].pitch, 64u);
   EXPECT_EQ(l.levels[2].aligned_height, 16u);
   EXPECT_EQ(l.levels[2].offset, 25600u + 64 * 32 * 4);
   EXPECT_EQ(l.size, 25600u + 8192 + 4096);
   EXPECT_EQ(l.levels[1].width, 50u); /* the level's own size stays unrounded */
   EXPECT_EQ(l.alignment, 256u);
   EXPECT_EQ(surface_texel_offset(l, d, 1, 3, 2, 0), 25600u + (2 * 64 + 3) * 4);
}

TEST(SurfaceLayout, OneByteLinearPitchIsAGroup)
{
   SurfaceDescription d;
   d.width = 10, d.height = 3, d.layers = 4, d.bytes_per_element = 1;
   SurfaceLayout l;
   std::string error;
   ASSERT_TRUE(compute_surface_layout(Family::Barts, d, l, error));
   EXPECT_EQ(l.levels[0].pitch, 256u); /* max(64, 256 / 1) */
   EXPECT_EQ(l.size, 256u * 3 * 4);
   EXPECT_EQ(surface_texel_offset(l, d, 0, 5, 1, 2), 256u * 3 * 2 + 256 + 5);
}

TEST(SurfaceLayout, ArrayLevelsReserveAPowerOfTwoOfLayers)
{
   SurfaceDescription d;
   d.width = 64, d.height = 8, d.layers = 3, d.levels = 2, d.bytes_per_element = 4;
   SurfaceLayout l;
   std::string error;
   ASSERT_TRUE(compute_surface_layout(Family::Cayman, d, l, error));
   EXPECT_EQ(l.levels[0].slices, 4u);
   EXPECT_EQ(l.mip_offset, 64u * 8 * 4 * 4); /* after 4 slices of level 0, not 3 */
   EXPECT_EQ(l.levels[1].offset, l.mip_offset);
   EXPECT_EQ(surface_texel_offset(l, d, 1, 0, 0, 2), l.mip_offset + 2 * (64 * 4 * 4));
}

TEST(SurfaceLayout, Tiled1DAlignmentAndMicroTileOrder)
{
   SurfaceDescription d;
   d.width = 100, d.height = 50, d.levels = 2, d.bytes_per_element = 4;
   d.mode = ArrayMode::Tiled1DThin1;
   SurfaceLayout l;
   std::string error;
   ASSERT_TRUE(compute_surface_layout(Family::Cypress, d, l, error)) << error;
   /* Pitch multiple of max(8, 256 / (8 * 4)) = 8; height multiple of 8. */
   EXPECT_EQ(l.levels[0].pitch, 104u);
   EXPECT_EQ(l.levels[0].aligned_height, 56u);
   EXPECT_EQ(l.mip_offset, 104u * 56 * 4); /* 23296, already 256-aligned */
   EXPECT_EQ(l.levels[1].pitch, 64u);      /* 50 -> 64 */
   EXPECT_EQ(l.levels[1].aligned_height, 32u);
   /* 32-bit displayable order: index bits x0 x1 y0 x2 y1 y2 (low to high). (3, 2): x0=1 x1=1
    * y1=1 -> 1 + 2 + 16 = 19. */
   EXPECT_EQ(surface_texel_offset(l, d, 0, 3, 2, 0), 19u * 4);
   /* (9, 10): tile row 1 of 13 tiles, tile column 1 -> tile 14; inside (1, 2) -> 1 + 16 = 17. */
   EXPECT_EQ(surface_texel_offset(l, d, 0, 9, 10, 0), 14u * 256 + 17 * 4);
   /* 8-bit: x0 x1 x2 y1 y0 y2. (5, 1): 1 + 4 + y0 at bit 4 = 16 -> 21. */
   EXPECT_EQ(surface_level_texel_offset(ArrayMode::Tiled1DThin1, 32, 8, 1, false, 5, 1, 0), 21u);
   /* Non-displayable: x0 y0 x1 y1 x2 y2. (5, 1) -> 1 + 2 + 16 = 19. */
   EXPECT_EQ(surface_level_texel_offset(ArrayMode::Tiled1DThin1, 32, 8, 1, true, 5, 1, 0), 19u);
}

TEST(SurfaceLayout, ThreeDLevelsStoreTheirRoundedDepth)
{
   SurfaceDescription d;
   d.width = 64, d.height = 4, d.depth = 5, d.levels = 2, d.bytes_per_element = 4, d.is_3d = true;
   SurfaceLayout l;
   std::string error;
   ASSERT_TRUE(compute_surface_layout(Family::Cayman, d, l, error));
   EXPECT_EQ(l.levels[0].slices, 5u);
   EXPECT_EQ(l.levels[1].slices, 2u); /* 5 >> 1 = 2 */
   EXPECT_EQ(l.levels[1].offset, 64u * 4 * 4 * 5);
}

/* Cayman's (and Barts's, Cypress's) tiling: 8 pipes, 2 shader engines with SE tile 32, 8
 * banks, 256-byte groups, 1 KiB rows: the TilingConfig defaults. */
TEST(SurfaceLayout, TwoDTiledParametersAndFallBack)
{
   SurfaceDescription d;
   d.width = 256, d.height = 256, d.levels = 4, d.bytes_per_element = 4;
   d.mode = ArrayMode::Tiled2DThin1;
   SurfaceLayout l;
   std::string error;
   ASSERT_TRUE(compute_surface_layout(Family::Cayman, d, l, error)) << error;
   /* libdrm's choice for 4-byte elements: 256-byte micro tiles -> bank height 2, bank width
    * 1, aspect 1 << (log2(2 * 8 / 8) >> 1) = 1, tile split = row = 1024. Macro tile
    * 8 * 1 * 8 x 8 * 2 * 8 = 64 x 128 elements, 8 * 8 * 2 * 256 = 32768 bytes. */
   EXPECT_EQ(l.macro.bank_width, 1u);
   EXPECT_EQ(l.macro.bank_height, 2u);
   EXPECT_EQ(l.macro.macro_tile_aspect, 1u);
   EXPECT_EQ(l.macro.tile_split_bytes, 1024u);
   EXPECT_EQ(l.macro_tile_width, 64u);
   EXPECT_EQ(l.macro_tile_height, 128u);
   EXPECT_EQ(l.alignment, 32768u);
   /* 256 and 128 rows hold a macro tile; 64 does not: levels 2 and 3 are 1D. */
   EXPECT_EQ(unsigned(l.levels[0].mode), unsigned(ArrayMode::Tiled2DThin1));
   EXPECT_EQ(unsigned(l.levels[1].mode), unsigned(ArrayMode::Tiled2DThin1));
   EXPECT_EQ(unsigned(l.levels[2].mode), unsigned(ArrayMode::Tiled1DThin1));
   EXPECT_EQ(unsigned(l.levels[3].mode), unsigned(ArrayMode::Tiled1DThin1));
   EXPECT_EQ(l.mip_offset, 262144u);
   EXPECT_EQ(l.levels[2].offset, 262144u + 65536);
   EXPECT_EQ(l.levels[3].offset, 262144u + 65536 + 16384);
   EXPECT_EQ(l.size, 262144u + 65536 + 16384 + 4096);

   TextureResource r;
   fill_texture_resource_tiling(l, r);
   EXPECT_EQ(unsigned(r.array_mode), 4u);
   EXPECT_EQ(r.tile_split, 4u); /* 1024 = 64 << 4 */
   EXPECT_EQ(r.bank_width, 0u);
   EXPECT_EQ(r.bank_height, 1u);
   EXPECT_EQ(r.macro_tile_aspect, 0u);
   EXPECT_EQ(r.num_banks, 2u); /* 8 banks */

   /* Too small for one macro tile: the whole surface is 1D, still macro-tile aligned. */
   d.width = 32, d.height = 32, d.levels = 1;
   ASSERT_TRUE(compute_surface_layout(Family::Cayman, d, l, error)) << error;
   EXPECT_EQ(unsigned(l.levels[0].mode), unsigned(ArrayMode::Tiled1DThin1));
   EXPECT_EQ(l.alignment, 32768u);
   fill_texture_resource_tiling(l, r);
   EXPECT_EQ(unsigned(r.array_mode), 2u);
}

TEST(SurfaceLayout, KernelTilingConfigDecode)
{
   /* Cayman golden: pipes code 3, banks code 1, group 0, row 0. */
   TilingConfig t = tiling_config_from_kernel(Family::Cayman, 0x0013);
   EXPECT_TRUE(t.valid);
   EXPECT_EQ(t.pipes, 8u);
   EXPECT_EQ(t.banks, 8u);
   EXPECT_EQ(t.group_bytes, 256u);
   EXPECT_EQ(t.row_bytes, 1024u);
   EXPECT_EQ(t.shader_engines, 2u);
   /* Aruba: 2 pipes, 8 banks, 2 KiB rows. */
   t = tiling_config_from_kernel(Family::Aruba, 0x1011);
   EXPECT_EQ(t.pipes, 2u);
   EXPECT_EQ(t.row_bytes, 2048u);
   EXPECT_EQ(t.shader_engines, 1u);
   /* 16 banks, 512-byte groups, 4 KiB rows; then an invalid bank code. */
   t = tiling_config_from_kernel(Family::Cayman, 0x2122);
   EXPECT_EQ(t.pipes, 4u);
   EXPECT_EQ(t.banks, 16u);
   EXPECT_EQ(t.group_bytes, 512u);
   EXPECT_EQ(t.row_bytes, 4096u);
   EXPECT_FALSE(tiling_config_from_kernel(Family::Cayman, 0x0033).valid);
}

/* Addresses computed by hand from the addrlib formula (docs/hardware-notes.md, "2D tiled
 * thin1"), not by the code under test: Cayman tiling, 4-byte elements, bank width 1, bank
 * height 2, aspect 1 (macro tile 64 x 128, 512 bytes per pipe and bank), 128 x 128, 2 layers.
 * No other implementation of this formula was available to compare with. */
TEST(SurfaceLayout, TwoDTiledHandComputedAddresses)
{
   LevelAddressing a;
   a.mode = ArrayMode::Tiled2DThin1;
   a.pitch = 128, a.aligned_height = 128, a.bytes_per_element = 4;
   a.macro.bank_width = 1, a.macro.bank_height = 2, a.macro.macro_tile_aspect = 1;
   a.macro.tile_split_bytes = 1024, a.macro.banks = 8;
   EXPECT_EQ(surface_level_texel_offset(a, 0, 0, 0), 0u);
   /* (3, 2): micro tile index x0 x1 y0 x2 y1 y2 = 1 + 2 + 16 = 19 -> 76 bytes, pipe 0, bank 0. */
   EXPECT_EQ(surface_level_texel_offset(a, 3, 2, 0), 76u);
   /* (8, 0): micro tile x = 1: pipe bit 1 = x3 ^ y4 = 1 -> pipe 2 -> 2 << 8. */
   EXPECT_EQ(surface_level_texel_offset(a, 8, 0, 0), 512u);
   /* (0, 8): second micro tile row of the bank (offset 256), pipe bit 0 = x4 ^ y3 ^ x5 = 1;
    * bank 0; 256 bytes -> the low 8 bits 0, then (256 >> 8) << (8 + 3 + 3). */
   EXPECT_EQ(surface_level_texel_offset(a, 0, 8, 0), 256u + 16384);
   /* (64, 16): macro tile 1 of the row (512 bytes), micro tile (8, 2): pipe 2; bank block
    * (1, 1): b0 = x3 ^ y5 = 1, b1 = 0, b2 = x5 ^ y3 = 1 -> bank 5.
    * 2 << 8 | 5 << 11 | (512 >> 8) << 14. */
   EXPECT_EQ(surface_level_texel_offset(a, 64, 16, 0), 512u + 10240 + 32768);
   /* Layer 1 at (0, 0): slice bytes 2 * 1 * 512 = 1024; bank rotated by (8 / 2 - 1) * 1 = 3:
    * 3 << 11 | (1024 >> 8) << 14. */
   EXPECT_EQ(surface_level_texel_offset(a, 0, 0, 1), 6144u + 65536);
   /* A base whose pipe bits are 1 and bank bits 2 (address 0x1100 = group 17 = pipe 1,
    * bank 2) selects that swizzle; (0, 0) then lands in pipe 1, bank 2. */
   TilingConfig t;
   const BankPipeSwizzle sw = bank_pipe_swizzle_from_base(0x1100, t, 8);
   EXPECT_EQ(sw.pipe, 1u);
   EXPECT_EQ(sw.bank, 2u);
   a.swizzle = sw;
   EXPECT_EQ(surface_level_texel_offset(a, 0, 0, 0), (1u << 8) | (2u << 11));
}

/* ---------------------------------------------------------------- checker */

struct CheckerCase {
   std::vector<uint32_t> ib;
   std::vector<sim::CsReloc> relocs{{0x100000, 0x10000, 0}, {0x200000, 0x10000, 0}};
};

std::string check(CheckerCase &c)
{
   sim::CsCheckOptions options;
   options.isa = IsaClass::Cayman;
   options.keep_tiling_flags = true;
   return sim::check_and_patch(c.ib, c.relocs, options);
}

void texture_packet(CheckerCase &c, const TextureResource &r, std::initializer_list<unsigned> relocs)
{
   c.ib.push_back(pm4::packet3(pm4::SET_RESOURCE, 8, true));
   c.ib.push_back(compute_texture_resource_base * 8);
   for (uint32_t w : encode_texture_resource(r))
      c.ib.push_back(w);
   for (unsigned reloc : relocs) {
      c.ib.push_back(pm4::packet3(pm4::NOP, 0));
      c.ib.push_back(reloc * 4);
   }
}

TextureResource small_texture()
{
   TextureResource r;
   r.dim = TextureDim::Dim2D;
   r.width = 64, r.height = 64, r.pitch = 64;
   r.format = Fmt8_8_8_8;
   r.last_level = 0;
   return r;
}

TEST(TextureChecker, AcceptsAndPatchesBothAddresses)
{
   CheckerCase c;
   TextureResource r = small_texture();
   r.base_address = 0x100;
   r.last_level = 2; /* 32x32 + 16x16 texels of mips: 4096 + 1024 bytes at mip offset 0 */
   texture_packet(c, r, {0, 1});
   ASSERT_EQ(check(c), "");
   EXPECT_EQ(c.ib[2 + 2], (0x100000u + 0x100) >> 8);
   EXPECT_EQ(c.ib[2 + 3], 0x200000u >> 8);
}

TEST(TextureChecker, TooBigForItsBuffer)
{
   CheckerCase c;
   TextureResource r = small_texture();
   r.height = 65; /* 64 * 65 * 4 = 16640 > 16384... with the offset below */
   r.base_address = 0x100;
   texture_packet(c, r, {0, 1});
   c.relocs[0].size = 64 * 64 * 4;
   EXPECT_NE(check(c).find("texture bo too small"), std::string::npos) << check(c);
}

TEST(TextureChecker, MipChainTooBigForItsBuffer)
{
   CheckerCase c;
   TextureResource r = small_texture();
   r.last_level = 1;
   r.mip_address = 0x1000;
   texture_packet(c, r, {0, 1});
   c.relocs[1].size = 0x1000 + 32 * 32 * 4 - 4;
   EXPECT_NE(check(c).find("mipmap [1] bo too small"), std::string::npos) << check(c);
}

TEST(TextureChecker, NeedsTheMipRelocation)
{
   CheckerCase c;
   texture_packet(c, small_texture(), {0});
   EXPECT_NE(check(c).find("bad SET_RESOURCE (tex)"), std::string::npos) << check(c);
}

TEST(TextureChecker, LinearAlignedPitch)
{
   CheckerCase c;
   TextureResource r = small_texture();
   r.pitch = 72; /* not a multiple of 64 */
   r.width = 70;
   texture_packet(c, r, {0, 1});
   EXPECT_NE(check(c).find("pitch 72 invalid must be aligned with 64"), std::string::npos) << check(c);
   /* 1D tiled only needs a multiple of 8 for 4-byte texels, but a height of 8. */
   CheckerCase tiled;
   r.array_mode = ArrayMode::Tiled1DThin1;
   texture_packet(tiled, r, {0, 1});
   EXPECT_EQ(check(tiled), "");
}

TEST(TextureChecker, BadFormatAndBaseAlignment)
{
   CheckerCase c;
   TextureResource r = small_texture();
   r.format = TextureFormat(4);
   texture_packet(c, r, {0, 1});
   EXPECT_NE(check(c).find("texture invalid format 4"), std::string::npos) << check(c);
   /* The mip address must be group (256-byte) aligned too; the words hold address >> 8, so a
    * misaligned one cannot even be written: LINEAR_GENERAL only needs the element size. */
   CheckerCase mode;
   r = small_texture();
   r.array_mode = ArrayMode(3);
   texture_packet(mode, r, {0, 1});
   EXPECT_NE(check(mode).find("invalid array mode 3"), std::string::npos) << check(mode);
}

/* A 256 x 256 RGBA8 2D-tiled texture with 4 levels on Cayman tiling (see
 * TwoDTiledParametersAndFallBack): level 0 262144 bytes, levels 1-3 65536 + 16384 + 4096. */
TextureResource tiled_2d_texture()
{
   TextureResource r;
   r.dim = TextureDim::Dim2D;
   r.width = 256, r.height = 256, r.pitch = 256;
   r.format = Fmt8_8_8_8;
   r.last_level = 3;
   r.array_mode = ArrayMode::Tiled2DThin1;
   r.tile_split = 4, r.bank_width = 0, r.bank_height = 1, r.macro_tile_aspect = 0, r.num_banks = 2;
   return r;
}

TEST(TextureChecker, TwoDTiledAcceptedWithExactBuffers)
{
   CheckerCase c;
   c.relocs = {{0x100000, 262144, 0}, {0x200000, 65536 + 16384 + 4096, 0}};
   texture_packet(c, tiled_2d_texture(), {0, 1});
   EXPECT_EQ(check(c), "");
}

TEST(TextureChecker, TwoDTiledMipChainIncludesTheOneDLevels)
{
   CheckerCase c;
   c.relocs = {{0x100000, 262144, 0}, {0x200000, 65536 + 16384 + 4096 - 1, 0}};
   texture_packet(c, tiled_2d_texture(), {0, 1});
   EXPECT_NE(check(c).find("mipmap [3] bo too small"), std::string::npos) << check(c);
}

TEST(TextureChecker, TwoDTiledRefusals)
{
   {
      /* Pitch 96: a multiple of 8 texels, not of the macro tile width 64. */
      CheckerCase c;
      c.relocs = {{0x100000, 0x100000, 0}, {0x200000, 0x100000, 0}};
      TextureResource r = tiled_2d_texture();
      r.pitch = 96, r.width = 96, r.last_level = 0;
      texture_packet(c, r, {0, 1});
      EXPECT_NE(check(c).find("pitch 96 invalid must be aligned with 64"), std::string::npos) << check(c);
   }
   {
      /* Base 0x4000: 256-aligned but not aligned to the 32768-byte macro tile. */
      CheckerCase c;
      c.relocs = {{0x100000, 0x100000, 0}, {0x200000, 0x100000, 0}};
      TextureResource r = tiled_2d_texture();
      r.base_address = 0x4000;
      texture_packet(c, r, {0, 1});
      EXPECT_NE(check(c).find("texture bo base 16384 not aligned with 32768"), std::string::npos) << check(c);
   }
   {
      CheckerCase c;
      c.relocs = {{0x100000, 0x100000, 0}, {0x200000, 0x100000, 0}};
      TextureResource r = tiled_2d_texture();
      r.tile_split = 7;
      texture_packet(c, r, {0, 1});
      EXPECT_NE(check(c).find("invalid tile split 7"), std::string::npos) << check(c);
   }
   {
      /* 16 banks from the words: macro tile 64 x 256 (bank height 2). The kernel aligns level
       * 0's 129 rows up to 256 silently; 256 x 256 x 4 bytes then fit exactly, 257 rows would
       * not, so use a buffer one row short. */
      CheckerCase c;
      c.relocs = {{0x100000, 262144 - 1024, 0}, {0x200000, 0x100000, 0}};
      TextureResource r = tiled_2d_texture();
      r.num_banks = 3;
      r.height = 129;
      r.last_level = 0;
      texture_packet(c, r, {0, 1});
      EXPECT_NE(check(c).find("texture bo too small"), std::string::npos) << check(c);
   }
}

TEST(TextureChecker, SamplerCountMultipleOfThree)
{
   CheckerCase c;
   c.ib = {pm4::packet3(pm4::SET_SAMPLER, 4, true), compute_sampler_base * 3, 0, 0, 0, 0};
   EXPECT_EQ(check(c), "bad SET_SAMPLER");
   CheckerCase ok;
   ok.ib = {pm4::packet3(pm4::SET_SAMPLER, 3, true), compute_sampler_base * 3, 0, 0, 0};
   EXPECT_EQ(check(ok), "");
}

/* ---------------------------------------------------------------- shader core */

constexpr unsigned texture_id = 2, sampler_id = 3;
constexpr uint64_t code_address = 0x10000, coords_address = 0x20000, index_address = 0x30000,
                   output_address = 0x40000, texture_address = 0x100000, mip_address = 0x200000;

uint32_t bits(float f)
{
   uint32_t u;
   std::memcpy(&u, &f, 4);
   return u;
}
float as_float(uint32_t u)
{
   float f;
   std::memcpy(&f, &u, 4);
   return f;
}

struct TexOptions {
   std::string op = "SAMPLE_LZ";
   unsigned coord_normalized_mask = 0xf; /* COORD_TYPE_X..W */
   std::array<unsigned, 4> src_sel{0, 1, 2, 3};
   std::array<unsigned, 4> dst_sel{0, 1, 2, 3};
   std::array<int, 3> offset_halves{0, 0, 0};
   unsigned inst_mod = 0; /* GATHER4's component; LDFPTR sets its own 1 */
   unsigned src_gpr = 2;
   /* An ALU clause run between the fetches and the TEX (its words, literals included, and its
    * count of 64-bit slots); with `tex` false there is no TEX clause and the ALU clause leaves
    * the result in R3. */
   std::vector<uint32_t> alu;
   unsigned alu_slots = 0;
   bool tex = true;
};

uint32_t opcode_of(const std::string &op)
{
   if (op == "SAMPLE") return 0x10;
   if (op == "SAMPLE_L") return 0x11;
   if (op == "SAMPLE_LZ") return 0x13;
   if (op == "LD" || op == "LDFPTR") return 0x03; /* LDFPTR: LD with INST_MOD 1 */
   if (op == "GET_NUMBER_OF_SAMPLES") return 0x05;
   if (op == "GET_TEXTURE_RESINFO") return 0x04;
   if (op == "SAMPLE_LB") return 0x12;
   /* The depth-comparing forms (LLVM R600 EvergreenInstructions.td TEX_SAMPLE_C*). */
   if (op == "SAMPLE_C") return 0x18;
   if (op == "SAMPLE_C_L") return 0x19;
   if (op == "SAMPLE_C_LB") return 0x1A;
   if (op == "SAMPLE_C_LZ") return 0x1B;
   if (op == "GATHER4") return 0x15;
   if (op == "GATHER4_C") return 0x1D;
   if (op == "SAMPLE_G_LB") return 0x16; /* not simulated */
   return 0x14; /* SAMPLE_G */
}

/* The program: a TEX clause of two VFETCHes (R2 = coordinates[thread], R4.x = thread * 4),
 * a TEX clause with the instruction under test (R2 -> R3), a RAT STORE_RAW of R3 at R4.x,
 * then the end. */
std::vector<uint32_t> tex_program(IsaClass isa, const TexOptions &o)
{
   using namespace terakan::isa;
   /* Without an ALU clause: CF at dwords 0-7, fetches at 8, TEX at 16. With one: CF at 0-11,
    * fetches at 16, TEX at 24, the ALU clause from 28. */
   const bool has_alu = !o.alu.empty();
   const unsigned vfetch_at = has_alu ? 16 : 8, tex_at = has_alu ? 24 : 16, alu_at = 28;
   std::vector<uint32_t> p(has_alu ? alu_at + o.alu.size() : 20, 0);
   std::copy(o.alu.begin(), o.alu.end(), p.begin() + alu_at);
   auto cf = [&](unsigned slot, uint32_t inst, uint32_t addr, uint32_t count) {
      std::array<uint32_t, 2> w{};
      cf::addr.set(w, addr);
      cf::count.set(w, count - 1);
      cf::inst.set(w, inst);
      cf::barrier.set(w, 1);
      p[slot * 2] = w[0], p[slot * 2 + 1] = w[1];
   };
   unsigned next_cf = 0;
   cf(next_cf++, 0x01, vfetch_at / 2, 2);
   if (has_alu) {
      std::array<uint32_t, 2> w{};
      cf_alu::addr.set(w, alu_at / 2);
      cf_alu::count.set(w, o.alu_slots - 1);
      cf_alu::inst.set(w, 8); /* CF_INST_ALU */
      cf_alu::barrier.set(w, 1);
      p[next_cf * 2] = w[0], p[next_cf * 2 + 1] = w[1];
      next_cf++;
   }
   if (o.tex)
      cf(next_cf++, 0x01, tex_at / 2, 1);
   std::array<uint32_t, 2> rat{};
   cf_export::rat_id.set(rat, 0);
   cf_export::rat_inst.set(rat, 2); /* STORE_RAW */
   cf_export::type.set(rat, 1);
   cf_export::rw_gpr.set(rat, 3);
   cf_export::index_gpr.set(rat, 4);
   cf_export::elem_size.set(rat, 3);
   cf_export::comp_mask.set(rat, 0xf);
   cf_export::inst.set(rat, 0x56);
   cf_export::barrier.set(rat, 1);
   if (isa == IsaClass::Evergreen)
      cf_export::end_of_program.set(rat, 1);
   p[next_cf * 2] = rat[0], p[next_cf * 2 + 1] = rat[1];
   next_cf++;
   if (isa == IsaClass::Cayman) {
      std::array<uint32_t, 2> end{};
      cf::inst.set(end, 0x20);
      cf::barrier.set(end, 1);
      p[next_cf * 2] = end[0], p[next_cf * 2 + 1] = end[1];
   }
   auto vfetch = [&](unsigned at, unsigned buffer, unsigned dst, unsigned format, unsigned num_format,
                     std::array<unsigned, 4> sel) {
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
      vtx::num_format_all.set(w, num_format);
      if (isa == IsaClass::Evergreen)
         vtx::mega_fetch.set(w, 1);
      std::copy(w.begin(), w.end(), p.begin() + at);
   };
   vfetch(vfetch_at, 0, 2, 35, 2, {0, 1, 2, 3});
   vfetch(vfetch_at + 4, 1, 4, 13, 1, {0, 7, 7, 7});
   std::array<uint32_t, 4> t{};
   tex::inst.set(t, opcode_of(o.op));
   tex::inst_mod.set(t, o.op == "LDFPTR" ? 1 : o.inst_mod);
   tex::resource_id.set(t, texture_id); /* buffers 0 and 1 hold coordinates and indices */
   tex::src_gpr.set(t, o.src_gpr);
   tex::dst_gpr.set(t, 3);
   tex::dst_sel_x.set(t, o.dst_sel[0]);
   tex::dst_sel_y.set(t, o.dst_sel[1]);
   tex::dst_sel_z.set(t, o.dst_sel[2]);
   tex::dst_sel_w.set(t, o.dst_sel[3]);
   tex::coord_type_x.set(t, o.coord_normalized_mask & 1);
   tex::coord_type_y.set(t, (o.coord_normalized_mask >> 1) & 1);
   tex::coord_type_z.set(t, (o.coord_normalized_mask >> 2) & 1);
   tex::coord_type_w.set(t, (o.coord_normalized_mask >> 3) & 1);
   tex::offset_x.set(t, uint32_t(o.offset_halves[0]) & 31);
   tex::offset_y.set(t, uint32_t(o.offset_halves[1]) & 31);
   tex::offset_z.set(t, uint32_t(o.offset_halves[2]) & 31);
   tex::sampler_id.set(t, sampler_id);
   tex::src_sel_x.set(t, o.src_sel[0]);
   tex::src_sel_y.set(t, o.src_sel[1]);
   tex::src_sel_z.set(t, o.src_sel[2]);
   tex::src_sel_w.set(t, o.src_sel[3]);
   std::copy(t.begin(), t.end(), p.begin() + tex_at);
   return p;
}

/* One dispatch: one thread per coordinate; returns each thread's four result dwords. */
struct TexRun {
   IsaClass isa = IsaClass::Cayman;
   TextureResource resource = small_texture();
   Sampler sampler;
   std::array<float, 4> border{};
   std::vector<uint8_t> level0, mips; /* texture bytes at texture_address and mip_address */
   TexOptions options;
   std::string error;

   std::vector<std::array<uint32_t, 4>> run(const std::vector<std::array<uint32_t, 4>> &coords)
   {
      TestMemory memory;
      const unsigned n = unsigned(coords.size());
      const auto program = tex_program(isa, options);
      auto &code = memory.add(code_address, 512);
      std::memcpy(code.bytes.data(), program.data(), program.size() * 4);
      auto &c = memory.add(coords_address, n * 16);
      std::memcpy(c.bytes.data(), coords.data(), n * 16);
      auto &idx = memory.add(index_address, n * 4);
      for (uint32_t i = 0; i < n; i++)
         std::memcpy(idx.bytes.data() + 4 * i, &(const uint32_t &)(i * 4), 4);
      memory.add(output_address, n * 16);
      memory.add(texture_address, std::max<size_t>(level0.size(), 256)).bytes = level0.empty() ? std::vector<uint8_t>(256) : level0;
      if (!mips.empty())
         memory.add(mip_address, mips.size()).bytes = mips;

      sim::ComputeDispatch d;
      d.isa = isa;
      d.program = program;
      d.program_address = code_address;
      d.num_gprs = 8;
      d.stack_size = 1;
      d.group_size = {n, 1, 1};
      d.fetch_resources[0] = {coords_address, n * 16 - 1, 16, 35, 2, 0, 0, 0, {0, 1, 2, 3}};
      d.fetch_resources[1] = {index_address, n * 4 - 1, 4, 13, 1, 0, 0, 0, {0, 1, 2, 3}};
      d.rats[0] = {output_address, 0xD, n * 16u};
      TextureResource r = resource;
      r.base_address = texture_address;
      if (!mips.empty())
         r.mip_address = mip_address;
      sim::TextureBinding binding;
      binding.words = encode_texture_resource(r);
      binding.resource = decode_texture_resource(binding.words);
      d.textures[texture_id] = binding;
      sim::SamplerBinding s;
      s.words = encode_sampler(sampler, isa);
      s.sampler = decode_sampler(s.words, isa);
      s.border = border;
      d.samplers[sampler_id] = s;
      const sim::DispatchResult result = sim::run_compute_dispatch(d, memory);
      error = result.error;
      std::vector<std::array<uint32_t, 4>> out(n);
      if (result.ok)
         for (const auto &b : memory.buffers)
            if (b.address == output_address)
               std::memcpy(out.data(), b.bytes.data(), n * 16);
      return out;
   }

   std::vector<std::array<float, 4>> sample(const std::vector<std::array<float, 4>> &coords)
   {
      std::vector<std::array<uint32_t, 4>> raw;
      for (const auto &c : coords)
         raw.push_back({bits(c[0]), bits(c[1]), bits(c[2]), bits(c[3])});
      std::vector<std::array<float, 4>> out;
      for (const auto &r : run(raw))
         out.push_back({as_float(r[0]), as_float(r[1]), as_float(r[2]), as_float(r[3])});
      return out;
   }
};

/* A linear-aligned RGBA8 texture whose texel (x, y) holds (x * 16 + 1, y * 16 + 2, 100, 255). */
std::vector<uint8_t> rgba_texture(unsigned w, unsigned h, unsigned pitch)
{
   std::vector<uint8_t> bytes(size_t(pitch) * h * 4);
   for (unsigned y = 0; y < h; y++)
      for (unsigned x = 0; x < w; x++) {
         uint8_t *t = &bytes[(size_t(y) * pitch + x) * 4];
         t[0] = uint8_t(x * 16 + 1), t[1] = uint8_t(y * 16 + 2), t[2] = 100, t[3] = 255;
      }
   return bytes;
}

TexRun rgba_run(unsigned w = 4, unsigned h = 4)
{
   TexRun run;
   run.resource.width = w, run.resource.height = h, run.resource.pitch = 64;
   run.level0 = rgba_texture(w, h, 64);
   return run;
}

float red(int x) { return float(x * 16 + 1) / 255.0f; }
float green(int y) { return float(y * 16 + 2) / 255.0f; }

TEST(TexSample, NearestNormalizedAndUnnormalized)
{
   TexRun run = rgba_run();
   auto out = run.sample({{(2 + 0.5f) / 4, (1 + 0.5f) / 4, 0, 0}, {0.99f, 0.01f, 0, 0}});
   ASSERT_EQ(run.error, "");
   EXPECT_FLOAT_EQ(out[0][0], red(2));
   EXPECT_FLOAT_EQ(out[0][1], green(1));
   EXPECT_FLOAT_EQ(out[0][2], 100 / 255.0f);
   EXPECT_FLOAT_EQ(out[0][3], 1.0f);
   EXPECT_FLOAT_EQ(out[1][0], red(3));
   EXPECT_FLOAT_EQ(out[1][1], green(0));
   run.options.coord_normalized_mask = 0; /* texel space */
   out = run.sample({{2.5f, 3.9f, 0, 0}, {0.2f, 1.0f, 0, 0}});
   ASSERT_EQ(run.error, "");
   EXPECT_FLOAT_EQ(out[0][0], red(2));
   EXPECT_FLOAT_EQ(out[0][1], green(3));
   EXPECT_FLOAT_EQ(out[1][0], red(0));
   EXPECT_FLOAT_EQ(out[1][1], green(1));
}

TEST(TexSample, Bilinear)
{
   TexRun run = rgba_run();
   run.sampler.mag_filter = run.sampler.min_filter = TexFilter::Bilinear;
   run.sampler.clamp[0] = run.sampler.clamp[1] = ClampMode::ClampLastTexel;
   const float u = 0.3f, v = 0.55f;
   auto out = run.sample({{u, v, 0, 0}});
   ASSERT_EQ(run.error, "");
   /* Texel space 1.2, 2.2 -> x between texels 0 and 1 at 0.7, y between 1 and 2 at 0.7. */
   const double a = double(u) * 4 - 0.5 - 0, b = double(v) * 4 - 0.5 - 1;
   const double expected_r = (1 - a) * red(0) + a * red(1);
   const double expected_g = (1 - b) * green(1) + b * green(2);
   EXPECT_NEAR(out[0][0], expected_r, 1e-6);
   EXPECT_NEAR(out[0][1], expected_g, 1e-6);
   EXPECT_NEAR(out[0][2], 100 / 255.0, 1e-6);
}

/* Expected texel index (or -1 for border) for nearest sampling at texel coordinate u of a
 * 4-texel axis, written out by hand per mode. */
struct ClampCase {
   ClampMode mode;
   std::array<int, 4> expected; /* at u = -0.5, 4.5, 9.5, -5.5 */
};

TEST(TexSample, EveryClampModeNearest)
{
   const ClampCase cases[] = {
      {ClampMode::Wrap, {3, 0, 1, 2}},
      {ClampMode::Mirror, {0, 3, 1, 2}},
      {ClampMode::ClampLastTexel, {0, 3, 3, 0}},
      {ClampMode::MirrorOnceLastTexel, {0, 3, 3, 3}},
      {ClampMode::ClampHalfBorder, {0, 3, 3, 0}},
      {ClampMode::MirrorOnceHalfBorder, {0, 3, 3, 3}},
      {ClampMode::ClampBorder, {-1, -1, -1, -1}},
      {ClampMode::MirrorOnceBorder, {0, -1, -1, -1}},
   };
   for (const ClampCase &c : cases) {
      TexRun run = rgba_run();
      run.sampler.clamp[0] = c.mode;
      run.sampler.border = BorderColor::OpaqueWhite;
      run.options.coord_normalized_mask = 0;
      auto out = run.sample({{-0.5f, 0.5f, 0, 0}, {4.5f, 0.5f, 0, 0}, {9.5f, 0.5f, 0, 0}, {-5.5f, 0.5f, 0, 0}});
      ASSERT_EQ(run.error, "");
      for (unsigned i = 0; i < 4; i++) {
         const int e = c.expected[i];
         EXPECT_FLOAT_EQ(out[i][0], e < 0 ? 1.0f : red(e)) << "mode " << int(c.mode) << " case " << i;
         EXPECT_FLOAT_EQ(out[i][1], e < 0 ? 1.0f : green(0)) << "mode " << int(c.mode) << " case " << i;
      }
   }
}

TEST(TexSample, HalfBorderAndBorderWithBilinear)
{
   /* At u = -1 texels: half border clamps the coordinate to the edge (half border, half texel
    * 0); full border reads two border texels. */
   for (ClampMode mode : {ClampMode::ClampHalfBorder, ClampMode::ClampBorder}) {
      TexRun run = rgba_run();
      run.sampler.mag_filter = run.sampler.min_filter = TexFilter::Bilinear;
      run.sampler.clamp[0] = mode;
      run.sampler.clamp[1] = ClampMode::ClampLastTexel;
      run.sampler.border = BorderColor::OpaqueWhite;
      run.options.coord_normalized_mask = 0;
      auto out = run.sample({{-1.0f, 0.5f, 0, 0}});
      ASSERT_EQ(run.error, "");
      const float expected = mode == ClampMode::ClampHalfBorder ? 0.5f * 1.0f + 0.5f * red(0) : 1.0f;
      EXPECT_NEAR(out[0][0], expected, 1e-6) << int(mode);
   }
}

TEST(TexSample, BorderColours)
{
   const std::pair<BorderColor, std::array<float, 4>> cases[] = {
      {BorderColor::TransparentBlack, {0, 0, 0, 0}},
      {BorderColor::OpaqueBlack, {0, 0, 0, 1}},
      {BorderColor::OpaqueWhite, {1, 1, 1, 1}},
      {BorderColor::Register, {0.25f, 0.5f, 0.75f, 0.125f}},
   };
   for (const auto &[type, colour] : cases) {
      TexRun run = rgba_run();
      run.sampler.clamp[0] = run.sampler.clamp[1] = ClampMode::ClampBorder;
      run.sampler.border = type;
      run.border = {0.25f, 0.5f, 0.75f, 0.125f};
      auto out = run.sample({{1.5f, 0.5f, 0, 0}});
      ASSERT_EQ(run.error, "");
      for (unsigned c = 0; c < 4; c++)
         EXPECT_EQ(out[0][c], colour[c]) << int(type) << " channel " << c;
   }
}

/* Three levels (4x4, 2x2, 1x1), each one colour: level L has red = (L + 1) * 50. */
TexRun mip_run()
{
   TexRun run;
   run.resource.width = 4, run.resource.height = 4, run.resource.pitch = 64;
   run.resource.format = Fmt8;
   run.resource.last_level = 2;
   run.resource.dst_sel[1] = run.resource.dst_sel[2] = Select::Zero;
   run.resource.dst_sel[3] = Select::One;
   /* Fmt8: pitch multiple of 256; level 0 at the base; levels 1 (2x2) and 2 (1x1) from MIP_ADDRESS. */
   run.resource.pitch = 256;
   run.level0.assign(256 * 4, 50);
   run.mips.assign(256 * 2 + 256 * 1, 0);
   std::fill(run.mips.begin(), run.mips.begin() + 512, 100);
   std::fill(run.mips.begin() + 512, run.mips.end(), 150);
   run.options.op = "SAMPLE_L";
   return run;
}

float level_value(int level) { return float((level + 1) * 50) / 255.0f; }

TEST(TexSample, LodSelectionWithMips)
{
   TexRun run = mip_run();
   run.sampler.mip_filter = MipFilter::Point;
   auto out = run.sample({{0.5f, 0.5f, 0, 0.0f}, {0.5f, 0.5f, 0, 1.0f}, {0.5f, 0.5f, 0, 2.0f},
                          {0.5f, 0.5f, 0, 0.4f}, {0.5f, 0.5f, 0, 0.6f}, {0.5f, 0.5f, 0, 7.0f},
                          {0.5f, 0.5f, 0, 1.5f}});
   ASSERT_EQ(run.error, "");
   const int expected[] = {0, 1, 2, 0, 1, 2, 1}; /* 1.5 rounds down (Vulkan's nearest rule) */
   for (unsigned i = 0; i < 7; i++)
      EXPECT_FLOAT_EQ(out[i][0], level_value(expected[i])) << i;
   EXPECT_FLOAT_EQ(out[0][3], 1.0f);

   run.sampler.mip_filter = MipFilter::Linear;
   out = run.sample({{0.5f, 0.5f, 0, 0.25f}, {0.5f, 0.5f, 0, 1.5f}});
   ASSERT_EQ(run.error, "");
   EXPECT_NEAR(out[0][0], 0.75 * level_value(0) + 0.25 * level_value(1), 1e-6);
   EXPECT_NEAR(out[1][0], 0.5 * level_value(1) + 0.5 * level_value(2), 1e-6);

   /* min LOD, bias, base level, no mip filter. */
   run.sampler.mip_filter = MipFilter::Point;
   run.sampler.min_lod = 1.0f;
   out = run.sample({{0.5f, 0.5f, 0, 0.0f}});
   EXPECT_FLOAT_EQ(out[0][0], level_value(1));
   run.sampler.min_lod = 0.0f;
   run.sampler.max_lod = 1.0f;
   run.sampler.lod_bias = 5.0f;
   out = run.sample({{0.5f, 0.5f, 0, 0.0f}});
   EXPECT_FLOAT_EQ(out[0][0], level_value(1));
   run.sampler = {};
   run.sampler.mip_filter = MipFilter::Point;
   run.resource.base_level = 1;
   out = run.sample({{0.5f, 0.5f, 0, 0.0f}, {0.5f, 0.5f, 0, 1.0f}});
   EXPECT_FLOAT_EQ(out[0][0], level_value(1));
   EXPECT_FLOAT_EQ(out[1][0], level_value(2));
   run.resource.base_level = 0;
   run.sampler.mip_filter = MipFilter::None;
   out = run.sample({{0.5f, 0.5f, 0, 2.0f}});
   EXPECT_FLOAT_EQ(out[0][0], level_value(0));
}

/* SAMPLE_LB outside a pixel shader: no derivatives, so the level of detail is the w bias
 * (plus the sampler's), as SAMPLE_L's would be. */
TEST(TexSample, BiasWithoutDerivatives)
{
   TexRun run = mip_run();
   run.options.op = "SAMPLE_LB";
   run.sampler.mip_filter = MipFilter::Point;
   auto out = run.sample({{0.5f, 0.5f, 0, 0.0f}, {0.5f, 0.5f, 0, 1.0f}, {0.5f, 0.5f, 0, 2.0f}});
   ASSERT_EQ(run.error, "");
   const int expected[] = {0, 1, 2};
   for (unsigned i = 0; i < 3; i++)
      EXPECT_FLOAT_EQ(out[i][0], level_value(expected[i])) << i;
   run.options.op = "SAMPLE";
   out = run.sample({{0.5f, 0.5f, 0, 2.0f}});
   ASSERT_EQ(run.error, "");
   EXPECT_FLOAT_EQ(out[0][0], level_value(0)); /* SAMPLE ignores w */
}

TEST(TexSample, MagnificationVersusMinificationFilter)
{
   TexRun run = rgba_run();
   run.options.op = "SAMPLE_L";
   run.sampler.mag_filter = TexFilter::Point;
   run.sampler.min_filter = TexFilter::Bilinear;
   run.sampler.clamp[0] = run.sampler.clamp[1] = ClampMode::ClampLastTexel;
   auto out = run.sample({{0.25f, 0.125f, 0, 0.0f}, {0.25f, 0.125f, 0, 0.5f}});
   ASSERT_EQ(run.error, "");
   EXPECT_FLOAT_EQ(out[0][0], red(1)); /* LOD 0: magnification, point */
   EXPECT_NEAR(out[1][0], 0.5 * red(0) + 0.5 * red(1), 1e-6); /* LOD 0.5: minification, bilinear */
}

TEST(TexSample, OneDThreeDAndArrays)
{
   /* 1D: 8 texels of Fmt8 with value 10 * x. */
   TexRun one;
   one.resource.dim = TextureDim::Dim1D;
   one.resource.format = Fmt8;
   one.resource.width = 8, one.resource.height = 1, one.resource.pitch = 256;
   one.level0.assign(256, 0);
   for (unsigned x = 0; x < 8; x++)
      one.level0[x] = uint8_t(10 * x);
   auto out = one.sample({{(5 + 0.5f) / 8, 123.0f, 0, 0}});
   ASSERT_EQ(one.error, "");
   EXPECT_FLOAT_EQ(out[0][0], 50 / 255.0f);

   /* 1D array: 3 layers of 8 texels, value 10 * x + layer; the layer comes from y. */
   TexRun array1;
   array1.resource = one.resource;
   array1.resource.dim = TextureDim::Dim1DArray;
   array1.resource.depth = 3, array1.resource.last_array = 2;
   array1.level0.assign(256 * 3, 0);
   for (unsigned l = 0; l < 3; l++)
      for (unsigned x = 0; x < 8; x++)
         array1.level0[256 * l + x] = uint8_t(10 * x + l);
   array1.options.coord_normalized_mask = 0x1; /* layer unnormalized */
   out = array1.sample({{(2 + 0.5f) / 8, 1.0f, 0, 0}, {(2 + 0.5f) / 8, 7.0f, 0, 0}, {(2 + 0.5f) / 8, -3.0f, 0, 0}});
   ASSERT_EQ(array1.error, "");
   EXPECT_FLOAT_EQ(out[0][0], 21 / 255.0f);
   EXPECT_FLOAT_EQ(out[1][0], 22 / 255.0f); /* clamped to the last layer */
   EXPECT_FLOAT_EQ(out[2][0], 20 / 255.0f);
   out = array1.sample({{0.5f, 1.5f, 0, 0}});
   EXPECT_NE(array1.error.find("not an integer"), std::string::npos) << array1.error;

   /* 2D array with BASE_ARRAY 1: layer 0 of the view is slice 1. Layer from z. */
   TexRun array2 = rgba_run();
   array2.resource.dim = TextureDim::Dim2DArray;
   array2.resource.depth = 3, array2.resource.base_array = 1, array2.resource.last_array = 2;
   array2.level0.resize(64 * 4 * 4 * 3);
   for (unsigned l = 1; l < 3; l++)
      for (unsigned i = 0; i < 64 * 4; i++)
         array2.level0[64 * 4 * 4 * l + i * 4 + 2] = uint8_t(200 + l);
   array2.options.coord_normalized_mask = 0x3;
   out = array2.sample({{0.1f, 0.1f, 0.0f, 0}, {0.1f, 0.1f, 1.0f, 0}, {0.1f, 0.1f, 9.0f, 0}});
   ASSERT_EQ(array2.error, "");
   EXPECT_FLOAT_EQ(out[0][2], 201 / 255.0f);
   EXPECT_FLOAT_EQ(out[1][2], 202 / 255.0f);
   EXPECT_FLOAT_EQ(out[2][2], 202 / 255.0f);
   array2.options.coord_normalized_mask = 0x7;
   array2.sample({{0.1f, 0.1f, 0.0f, 0}});
   EXPECT_NE(array2.error.find("COORD_TYPE normalized"), std::string::npos) << array2.error;

   /* 3D 2x2x2 of Fmt8 (pitch 256): value = 10 + x + 2y + 4z; trilinear at the centre is the
    * mean of all eight. */
   TexRun three;
   three.resource.dim = TextureDim::Dim3D;
   three.resource.format = Fmt8;
   three.resource.width = three.resource.height = three.resource.depth = 2;
   three.resource.pitch = 256;
   three.level0.assign(256 * 2 * 2, 0);
   for (unsigned z = 0; z < 2; z++)
      for (unsigned y = 0; y < 2; y++)
         for (unsigned x = 0; x < 2; x++)
            three.level0[256 * 2 * z + 256 * y + x] = uint8_t(10 + x + 2 * y + 4 * z);
   out = three.sample({{0.75f, 0.25f, 0.75f, 0}});
   ASSERT_EQ(three.error, "");
   EXPECT_FLOAT_EQ(out[0][0], (10 + 1 + 0 + 4) / 255.0f);
   three.sampler.mag_filter = three.sampler.min_filter = TexFilter::Bilinear;
   three.sampler.clamp[0] = three.sampler.clamp[1] = three.sampler.clamp[2] = ClampMode::ClampLastTexel;
   out = three.sample({{0.5f, 0.5f, 0.5f, 0}});
   EXPECT_NEAR(out[0][0], (10 + 0.5 + 1 + 2) / 255.0, 1e-6);
}

struct FormatCase {
   const char *name;
   TextureFormat format;
   NumFormat num;
   bool is_signed;
   std::vector<uint8_t> bytes; /* texel 0 */
   std::array<uint32_t, 4> expected;
   bool degamma = false;
};

TEST(TexSample, FormatDecode)
{
   auto f = [](float v) { return bits(v); };
   const float srgb_128 = float(std::pow((128 / 255.0 + 0.055) / 1.055, 2.4));
   const FormatCase cases[] = {
      {"8 unorm", Fmt8, NumFormat::Norm, false, {51}, {f(0.2f), 0, 0, f(1.0f)}},
      {"8888 snorm", Fmt8_8_8_8, NumFormat::Norm, true, {0x80, 0x81, 0x7f, 0x00}, {f(-1.0f), f(-1.0f), f(1.0f), 0}},
      {"8888 uint", Fmt8_8_8_8, NumFormat::Int, false, {200, 1, 2, 3}, {200, 1, 2, 3}},
      {"16 sint", Fmt16, NumFormat::Int, true, {0xfe, 0xff}, {0xfffffffe, 0, 0, 1}},
      {"16 unorm", Fmt16, NumFormat::Norm, false, {0xff, 0xff}, {f(1.0f), 0, 0, f(1.0f)}},
      {"16_16 scaled", Fmt16_16, NumFormat::Scaled, true, {0xfb, 0xff, 7, 0}, {f(-5.0f), f(7.0f), 0, f(1.0f)}},
      {"16 float", Fmt16Float, NumFormat::Norm, false, {0x00, 0x3e}, {f(1.5f), 0, 0, f(1.0f)}},
      {"32 float", Fmt32Float, NumFormat::Norm, false, {0x00, 0x00, 0x20, 0xc1}, {f(-10.0f), 0, 0, f(1.0f)}},
      {"32_32 uint", Fmt32_32, NumFormat::Int, false, {1, 2, 3, 4, 5, 6, 7, 8}, {0x04030201, 0x08070605, 0, 1}},
      /* 5_6_5: x in bits 0-4 = 31, y bits 5-10 = 0, z bits 11-15 = 16. */
      {"565", Fmt5_6_5, NumFormat::Norm, false, {0x1f, 0x80}, {f(1.0f), 0, f(16 / 31.0f), f(1.0f)}},
      /* 2_10_10_10: x bits 0-9 = 1023, w bits 30-31 = 1. */
      {"2_10_10_10", Fmt2_10_10_10, NumFormat::Norm, false, {0xff, 0x03, 0x00, 0x40}, {f(1.0f), 0, 0, f(1 / 3.0f)}},
      {"srgb", Fmt8_8_8_8, NumFormat::Norm, false, {128, 0, 255, 128}, {f(srgb_128), 0, f(1.0f), f(128 / 255.0f)}, true},
   };
   for (const FormatCase &c : cases) {
      TexRun run;
      run.resource.format = c.format;
      run.resource.num_format = c.num;
      for (bool &s : run.resource.format_signed)
         s = c.is_signed;
      run.resource.force_degamma = c.degamma;
      run.resource.width = run.resource.height = 1;
      run.resource.pitch = 256;
      run.level0.assign(4096, 0);
      std::copy(c.bytes.begin(), c.bytes.end(), run.level0.begin());
      auto out = run.run({{bits(0.5f), bits(0.5f), 0, 0}});
      ASSERT_EQ(run.error, "") << c.name;
      for (unsigned i = 0; i < 4; i++) {
         if (c.num == NumFormat::Int)
            EXPECT_EQ(out[0][i], c.expected[i]) << c.name << " channel " << i;
         else /* the sRGB curve is evaluated in double, then rounded to float: within 2 ulp */
            EXPECT_NEAR(as_float(out[0][i]), as_float(c.expected[i]), 2e-7) << c.name << " channel " << i;
      }
   }
}

/* GATHER4 (texture_unit.cpp, run_gather): the bilinear footprint's four texels, one component
 * (INST_MOD), in Vulkan's order on Cayman and in the Evergreen class's (i1j0, i0j1, i1j1, i0j0)
 * on the others, whatever the sampler's filter. At (0.3, 0.55) of the 4 x 4 texture the
 * footprint is columns 0-1, rows 1-2. */
TEST(TexGather, FootprintComponentAndOrderPerChip)
{
   for (IsaClass isa : {IsaClass::Cayman, IsaClass::Evergreen}) {
      SCOPED_TRACE(isa == IsaClass::Cayman ? "Cayman" : "Evergreen");
      TexRun run = rgba_run();
      run.isa = isa;
      run.options.op = "GATHER4";
      const std::array<float, 4> reds = {red(0), red(1), red(1), red(0)};
      const std::array<float, 4> greens = {green(2), green(2), green(1), green(1)};
      for (unsigned component : {0u, 1u}) {
         run.options.inst_mod = component;
         const auto out = run.sample({{0.3f, 0.55f, 0, 0}});
         ASSERT_EQ(run.error, "");
         const std::array<float, 4> &vulkan = component ? greens : reds;
         const std::array<float, 4> expected =
            isa == IsaClass::Cayman ? vulkan : std::array<float, 4>{vulkan[2], vulkan[0], vulkan[1], vulkan[3]};
         for (unsigned c = 0; c < 4; c++)
            EXPECT_FLOAT_EQ(out[0][c], expected[c]) << "component " << component << " texel " << c;
      }
   }
}

/* NUM_FORMAT_ALL = INT: the footprint nearest filtering's rounding gives, half a texel further
 * on (columns 1-2, rows 2-3 at the same point), as Mesa r600's workaround says. */
TEST(TexGather, IntegerFormatsShiftTheFootprint)
{
   TexRun run = rgba_run();
   run.resource.num_format = NumFormat::Int;
   run.options.op = "GATHER4";
   const auto out = run.run({{bits(0.3f), bits(0.55f), 0, 0}});
   ASSERT_EQ(run.error, "");
   const std::array<uint32_t, 4> expected = {17, 33, 33, 17};
   EXPECT_EQ(out[0], expected);
}

/* GATHER4_C: each texel's comparison with the reference in w (LESS: reference < texel). */
TEST(TexGather, CompareEachTexel)
{
   TexRun run = rgba_run();
   run.options.op = "GATHER4_C";
   run.sampler.depth_compare = 1;
   const auto out = run.sample({{0.55f, 0.55f, 0, 20 / 255.0f}});
   ASSERT_EQ(run.error, "");
   const std::array<float, 4> expected = {0, 1, 1, 0}; /* columns 1 (17) and 2 (33) */
   EXPECT_EQ(out[0], expected);
}

TEST(TexSample, ResourceAndInstructionSwizzles)
{
   TexRun run = rgba_run();
   run.resource.dst_sel[0] = Select::W;
   run.resource.dst_sel[1] = Select::Zero;
   run.resource.dst_sel[2] = Select::One;
   run.resource.dst_sel[3] = Select::X;
   run.options.dst_sel = {3, 0, 7, 5}; /* .w .x masked 1.0 */
   auto out = run.run({{bits(0.6f), bits(0.1f), 0, 0}});
   ASSERT_EQ(run.error, "");
   EXPECT_EQ(as_float(out[0][0]), red(2));  /* instruction x <- resource w <- texel x */
   EXPECT_EQ(as_float(out[0][1]), 1.0f);    /* resource x <- texel w */
   EXPECT_EQ(out[0][2], 0u);                /* masked: the register keeps its (zero) value */
   EXPECT_EQ(as_float(out[0][3]), 1.0f);
}

TEST(TexLd, IntegerCoordinatesAndOutOfRange)
{
   TexRun run = mip_run();
   run.options.op = "LD";
   auto out = run.run({{1, 2, 0, 0}, {0, 0, 0, 1}, {0, 0, 0, 2}, {4, 0, 0, 0}, {0, 0, 0, 3}, {uint32_t(-1), 0, 0, 0}});
   ASSERT_EQ(run.error, "");
   EXPECT_EQ(as_float(out[0][0]), level_value(0));
   EXPECT_EQ(as_float(out[1][0]), level_value(1));
   EXPECT_EQ(as_float(out[2][0]), level_value(2));
   for (unsigned i = 3; i < 6; i++) {
      EXPECT_EQ(out[i][0], 0u) << i;              /* out of range: a zero texel */
      EXPECT_EQ(as_float(out[i][3]), 1.0f) << i;  /* ... then the resource swizzle (w = 1) */
   }
}

TEST(TexResinfo, SizesLayersAndLevels)
{
   TexRun run;
   run.resource.width = 100, run.resource.height = 50, run.resource.pitch = 128;
   run.resource.last_level = 2;
   run.level0.assign(128 * 50 * 4, 0);
   run.mips.assign(64 * 32 * 4 + 64 * 16 * 4, 0);
   run.options.op = "GET_TEXTURE_RESINFO";
   auto out = run.run({{0, 0, 0, 0}, {1, 0, 0, 0}, {2, 0, 0, 0}});
   ASSERT_EQ(run.error, "");
   EXPECT_EQ(out[0], (std::array<uint32_t, 4>{100, 50, 1, 3}));
   EXPECT_EQ(out[1], (std::array<uint32_t, 4>{50, 25, 1, 3}));
   EXPECT_EQ(out[2], (std::array<uint32_t, 4>{25, 12, 1, 3}));

   TexRun array;
   array.resource.dim = TextureDim::Dim1DArray;
   array.resource.width = 64, array.resource.height = 1, array.resource.pitch = 64;
   array.resource.depth = 5, array.resource.last_array = 4;
   array.level0.assign(64 * 4 * 5, 0);
   array.options.op = "GET_TEXTURE_RESINFO";
   out = array.run({{0, 0, 0, 0}});
   ASSERT_EQ(array.error, "");
   EXPECT_EQ(out[0], (std::array<uint32_t, 4>{64, 5, 1, 1}));
}

TEST(TexSample, Tiled1DAddressing)
{
   /* An 16x16 RGBA8 texture in 1D tiles, written with the micro-tile order computed here. */
   TexRun run;
   run.resource.array_mode = ArrayMode::Tiled1DThin1;
   run.resource.width = run.resource.height = 16;
   run.resource.pitch = 16;
   run.level0.assign(16 * 16 * 4, 0);
   auto tiled_offset = [](unsigned x, unsigned y) {
      const unsigned tile = (y / 8) * 2 + x / 8;
      const unsigned tx = x % 8, ty = y % 8;
      /* 32-bit displayable: x0 x1 y0 x2 y1 y2. */
      const unsigned index = (tx & 1) | ((tx >> 1 & 1) << 1) | ((ty & 1) << 2) | ((tx >> 2 & 1) << 3) |
                             ((ty >> 1 & 1) << 4) | ((ty >> 2 & 1) << 5);
      return tile * 256 + index * 4;
   };
   for (unsigned y = 0; y < 16; y++)
      for (unsigned x = 0; x < 16; x++) {
         uint8_t *t = &run.level0[tiled_offset(x, y)];
         t[0] = uint8_t(x), t[1] = uint8_t(y), t[2] = uint8_t(x ^ y), t[3] = 7;
      }
   run.resource.num_format = NumFormat::Int;
   run.options.op = "LD";
   std::vector<std::array<uint32_t, 4>> coords;
   for (unsigned y = 0; y < 16; y++)
      for (unsigned x = 0; x < 16; x++)
         coords.push_back({x, y, 0, 0});
   auto out = run.run(coords);
   ASSERT_EQ(run.error, "");
   for (unsigned i = 0; i < 256; i++)
      ASSERT_EQ(out[i], (std::array<uint32_t, 4>{i % 16, i / 16, (i % 16) ^ (i / 16), 7})) << i;
}

TEST(TexSample, ForceUnnormalizedOnCaymanAndChromaKeyElsewhere)
{
   TexRun cayman = rgba_run();
   cayman.sampler.force_unnormalized = true;
   cayman.options.coord_normalized_mask = 0xf; /* the sampler overrides x and y */
   auto out = cayman.sample({{2.5f, 1.5f, 0, 0}});
   ASSERT_EQ(cayman.error, "");
   EXPECT_FLOAT_EQ(out[0][0], red(2));
   EXPECT_FLOAT_EQ(out[0][1], green(1));

   for (IsaClass isa : {IsaClass::Evergreen}) {
      TexRun evergreen = rgba_run();
      evergreen.isa = isa;
      evergreen.sampler.chroma_key = 1; /* what bit 25 means on Cypress and Barts */
      evergreen.sample({{0.5f, 0.5f, 0, 0}});
      EXPECT_NE(evergreen.error.find("CHROMA_KEY"), std::string::npos) << evergreen.error;
   }
}

TEST(TexSample, UnsimulatedAndUnboundAreStops)
{
   TexRun run = rgba_run();
   run.options.op = "SAMPLE_G_LB";
   run.sample({{0.5f, 0.5f, 0, 0}});
   EXPECT_NE(run.error.find("SAMPLE_G_LB is not simulated"), std::string::npos) << run.error;
   /* SAMPLE_G needs SET_GRADIENTS_H and _V earlier in its clause. */
   run.options.op = "SAMPLE_G";
   run.sample({{0.5f, 0.5f, 0, 0}});
   EXPECT_NE(run.error.find("SAMPLE_G without SET_GRADIENTS_H and SET_GRADIENTS_V"), std::string::npos) << run.error;
   TexRun msaa = rgba_run();
   msaa.resource.dim = TextureDim::Dim2DMsaa; /* LAST_LEVEL 0: one sample */
   msaa.sample({{0.5f, 0.5f, 0, 0}});
   EXPECT_NE(msaa.error.find("1 samples): 2, 4 and 8 are simulated"), std::string::npos) << msaa.error;
   TexRun missing = rgba_run();
   missing.level0.resize(256); /* the texture's memory is smaller than level 0 */
   missing.sample({{0.5f, 0.5f, 0, 0}});
   EXPECT_NE(missing.error.find("texture level 0"), std::string::npos) << missing.error;
}

/* ---------------------------------------------------------------- multisampled resources */

/* A 4-sample (or `samples`: 2, 8) RGBA8 2D_MSAA resource of 16x8 pixels, 2D tiled as the
 * colour block keeps it (fragments of a pixel in one micro tile, hw::surface_level_sample_offset),
 * with its FMASK (1 byte a pixel, bank height 4; at 8 samples 4 bytes, the colour's bank
 * height: hw::msaa::fmask_bank_height, r600g's) at MIP_ADDRESS; fragment f of pixel (x, y)
 * holds (x, y, f, 10 + f). At 4 samples pixel (1, 0)'s FMASK maps samples 0-3 to fragments
 * 0, 1, 1, 0 and pixel (2, 0)'s to 3, 2, 1, 0; at 2 samples pixel (1, 0)'s to 1, 0; at 8
 * samples pixel (1, 0)'s to 0, 1, 1, 0, 7, 6, 5, 4 and pixel (2, 0)'s to 7, 6, ..., 0; every
 * other pixel's to 0. */
TexRun msaa_run(unsigned samples = 4)
{
   const TilingConfig tiling;
   const MacroTiling colour_macro = choose_macro_tiling(tiling, 4);
   const SurfaceAlignment colour_align = surface_alignment_2d(tiling, colour_macro, 4 * samples);
   LevelAddressing colour;
   colour.mode = ArrayMode::Tiled2DThin1;
   colour.pitch = colour_align.pitch;
   colour.aligned_height = colour_align.height;
   colour.bytes_per_element = 4;
   colour.tiling = tiling;
   colour.macro = colour_macro;
   colour.samples = samples;
   LevelAddressing fmask = colour;
   fmask.samples = 1;
   fmask.bytes_per_element = msaa::fmask_bytes_per_pixel(samples);
   fmask.non_displayable_order = true;
   fmask.macro.bank_height = msaa::fmask_bank_height(samples, colour_macro.bank_height);
   fmask.aligned_height = surface_alignment_2d(tiling, fmask.macro, fmask.bytes_per_element).height;
   TexRun run;
   run.level0.assign(uint64_t(colour.pitch) * colour.aligned_height * 4 * samples, 0);
   run.mips.assign(uint64_t(fmask.pitch) * fmask.aligned_height * fmask.bytes_per_element, 0);
   for (unsigned y = 0; y < 8; y++)
      for (unsigned x = 0; x < 16; x++)
         for (unsigned f = 0; f < samples; f++) {
            const uint8_t texel[4] = {uint8_t(x), uint8_t(y), uint8_t(f), uint8_t(10 + f)};
            std::memcpy(&run.level0[surface_level_sample_offset(colour, x, y, 0, f)], texel, 4);
         }
   auto set_fmask = [&](unsigned x, uint32_t value) {
      std::memcpy(&run.mips[surface_level_texel_offset(fmask, x, 0, 0)], &value, fmask.bytes_per_element);
   };
   if (samples == 2) {
      set_fmask(1, 1 | 0 << 1);
   } else if (samples == 4) {
      set_fmask(1, 0 | 1 << 2 | 1 << 4 | 0 << 6);
      set_fmask(2, 3 | 2 << 2 | 1 << 4 | 0 << 6);
   } else {
      set_fmask(1, 0x45670110u);
      set_fmask(2, 0x01234567u);
   }
   TextureResource &r = run.resource;
   r = TextureResource{};
   r.dim = TextureDim::Dim2DMsaa;
   r.array_mode = ArrayMode::Tiled2DThin1;
   r.width = 16, r.height = 8, r.pitch = colour.pitch;
   r.format = Fmt8_8_8_8;
   r.num_format = NumFormat::Int;
   r.last_level = unsigned(__builtin_ctz(samples)); /* log2 of the samples */
   r.log2_fragments = r.last_level;
   r.tile_split = unsigned(__builtin_ctz(colour_macro.tile_split_bytes / 64));
   r.num_banks = unsigned(__builtin_ctz(colour_macro.banks)) - 1;
   r.bank_width = unsigned(__builtin_ctz(colour_macro.bank_width));
   r.bank_height = unsigned(__builtin_ctz(colour_macro.bank_height));
   r.macro_tile_aspect = unsigned(__builtin_ctz(colour_macro.macro_tile_aspect));
   r.max_aniso_ratio = unsigned(__builtin_ctz(fmask.macro.bank_height)); /* FMASK_BANK_HEIGHT */
   run.options.coord_normalized_mask = 0;
   return run;
}

TEST(TexMsaa, LdfptrWidensEachSamplesFragmentToANibble)
{
   TexRun run = msaa_run();
   run.options.op = "LDFPTR";
   run.options.dst_sel = {0, 7, 7, 7};
   const auto out = run.run({{0, 0, 0, 0}, {1, 0, 0, 0}, {2, 0, 0, 0}, {16, 0, 0, 0}});
   ASSERT_EQ(run.error, "");
   EXPECT_EQ(out[0][0], 0x0000u);
   EXPECT_EQ(out[1][0], 0x0110u);
   EXPECT_EQ(out[2][0], 0x0123u);
   EXPECT_EQ(out[3][0], 0u); /* outside the surface */

   TexRun other_channels = msaa_run();
   other_channels.options.op = "LDFPTR";
   other_channels.run({{0, 0, 0, 0}});
   EXPECT_NE(other_channels.error.find("LDFPTR's y, z and w have no documented value"), std::string::npos)
      << other_channels.error;
   TexRun no_fmask = msaa_run();
   no_fmask.options.op = "LDFPTR";
   no_fmask.options.dst_sel = {0, 7, 7, 7};
   no_fmask.mips.clear(); /* MIP_ADDRESS 0: FMASK disabled, each sample its own fragment */
   const auto identity = no_fmask.run({{2, 0, 0, 0}});
   ASSERT_EQ(no_fmask.error, "");
   EXPECT_EQ(identity[0][0], 0x3210u);
}

/* 2 samples: 1-bit FMASK fields; 8 samples: 4-bit fields in a 4-byte FMASK element with the
 * colour's bank height. LDFPTR widens each to a nibble; LD then reads the fragment. */
TEST(TexMsaa, TwoAndEightSamples)
{
   TexRun two = msaa_run(2);
   two.options.op = "LDFPTR";
   two.options.dst_sel = {0, 7, 7, 7};
   auto out = two.run({{0, 0, 0, 0}, {1, 0, 0, 0}});
   ASSERT_EQ(two.error, "");
   EXPECT_EQ(out[0][0], 0x00u);
   EXPECT_EQ(out[1][0], 0x01u);
   TexRun eight = msaa_run(8);
   eight.options.op = "LDFPTR";
   eight.options.dst_sel = {0, 7, 7, 7};
   out = eight.run({{0, 0, 0, 0}, {1, 0, 0, 0}, {2, 0, 0, 0}});
   ASSERT_EQ(eight.error, "");
   EXPECT_EQ(out[0][0], 0u);
   EXPECT_EQ(out[1][0], 0x45670110u);
   EXPECT_EQ(out[2][0], 0x01234567u);
   TexRun identity = msaa_run(8);
   identity.options.op = "LDFPTR";
   identity.options.dst_sel = {0, 7, 7, 7};
   identity.mips.clear(); /* MIP_ADDRESS 0: FMASK disabled */
   out = identity.run({{3, 1, 0, 0}});
   ASSERT_EQ(identity.error, "");
   EXPECT_EQ(out[0][0], 0x76543210u);

   TexRun ld = msaa_run(8);
   ld.options.op = "LD";
   out = ld.run({{0, 0, 0, 7}, {15, 7, 0, 5}, {1, 0, 0, 8}});
   ASSERT_EQ(ld.error, "");
   EXPECT_EQ(out[0], (std::array<uint32_t, 4>{0, 0, 7, 17}));
   EXPECT_EQ(out[1], (std::array<uint32_t, 4>{15, 7, 5, 15}));
   EXPECT_EQ(out[2], (std::array<uint32_t, 4>{0, 0, 0, 0})); /* fragment 8 of 8 */
   TexRun count = msaa_run(8);
   count.options.op = "GET_NUMBER_OF_SAMPLES";
   count.options.dst_sel = {3, 7, 7, 7};
   out = count.run({{0, 0, 0, 0}});
   ASSERT_EQ(count.error, "");
   EXPECT_EQ(out[0][0], 8u);

   /* 16 samples (LAST_LEVEL 4): not a count the texture unit reads. */
   TexRun sixteen = msaa_run(8);
   sixteen.options.op = "LD";
   sixteen.resource.last_level = 4;
   sixteen.resource.log2_fragments = 0;
   sixteen.run({{0, 0, 0, 0}});
   EXPECT_NE(sixteen.error.find("16 samples): 2, 4 and 8 are simulated"), std::string::npos) << sixteen.error;
}

TEST(TexMsaa, LdReadsTheFragmentInW)
{
   TexRun run = msaa_run();
   run.options.op = "LD";
   const auto out = run.run({{0, 0, 0, 0}, {5, 3, 0, 2}, {15, 7, 0, 3}, {2, 1, 0, 4}, {3, 8, 0, 0}});
   ASSERT_EQ(run.error, "");
   EXPECT_EQ(out[0], (std::array<uint32_t, 4>{0, 0, 0, 10}));
   EXPECT_EQ(out[1], (std::array<uint32_t, 4>{5, 3, 2, 12}));
   EXPECT_EQ(out[2], (std::array<uint32_t, 4>{15, 7, 3, 13}));
   EXPECT_EQ(out[3], (std::array<uint32_t, 4>{0, 0, 0, 0})); /* fragment 4 of 4 */
   EXPECT_EQ(out[4], (std::array<uint32_t, 4>{0, 0, 0, 0})); /* outside the surface */

   TexRun sampled = msaa_run();
   sampled.options.op = "SAMPLE_LZ";
   sampled.run({{0, 0, 0, 0}});
   EXPECT_NE(sampled.error.find("sampling a multisampled resource"), std::string::npos) << sampled.error;
}

TEST(TexMsaa, SizeAndSampleCount)
{
   TexRun size = msaa_run();
   size.options.op = "GET_TEXTURE_RESINFO";
   size.options.dst_sel = {0, 1, 2, 7};
   auto out = size.run({{0, 0, 0, 0}});
   ASSERT_EQ(size.error, "");
   EXPECT_EQ(out[0][0], 16u);
   EXPECT_EQ(out[0][1], 8u);
   EXPECT_EQ(out[0][2], 1u);
   TexRun levels = msaa_run();
   levels.options.op = "GET_TEXTURE_RESINFO";
   levels.run({{0, 0, 0, 0}});
   EXPECT_NE(levels.error.find("w (levels) of a multisampled resource"), std::string::npos) << levels.error;

   TexRun samples = msaa_run();
   samples.options.op = "GET_NUMBER_OF_SAMPLES";
   samples.options.dst_sel = {3, 7, 7, 7};
   out = samples.run({{0, 0, 0, 0}});
   ASSERT_EQ(samples.error, "");
   EXPECT_EQ(out[0][0], 4u);
   TexRun single = rgba_run();
   single.options.op = "GET_NUMBER_OF_SAMPLES";
   single.options.dst_sel = {3, 7, 7, 7};
   single.run({{0, 0, 0, 0}});
   EXPECT_NE(single.error.find("not multisampled"), std::string::npos) << single.error;
}

/* ---------------------------------------------------------------- cube maps */

/* An ALU clause built from groups: each group gets its slots and must pass the bundle
 * checker; literals follow their group, padded to a pair. */
struct AluClause {
   std::vector<uint32_t> words;
   unsigned slots = 0;
};

AluClause alu_clause(std::vector<test::TestGroup> groups)
{
   AluClause clause;
   for (auto &group : groups) {
      const auto violations = group.check();
      EXPECT_TRUE(violations.empty()) << test::describe(violations);
      for (const auto &instruction : group.instructions) {
         clause.words.push_back(instruction.words[0]);
         clause.words.push_back(instruction.words[1]);
         clause.slots++;
      }
      std::vector<uint32_t> literals = group.literals;
      if (literals.size() % 2)
         literals.push_back(0);
      clause.words.insert(clause.words.end(), literals.begin(), literals.end());
      clause.slots += unsigned(literals.size() / 2);
   }
   return clause;
}

test::Src gpr_abs(unsigned n, char c)
{
   test::Src s = test::gpr(n, c);
   s.abs = true;
   return s;
}

/* The CUBE group as Mesa's r600 backend and LLVM emit it: out.xyzw = CUBE(dir.zzxy, dir.yxzz).
 * `bad_w_src0` replaces slot w's first operand (dir.y) to break the pattern. */
test::TestGroup cube_group(IsaClass isa, unsigned dir, unsigned out, char bad_w_src0 = 0)
{
   test::TestGroup g(isa);
   g.add(test::make_alu(isa, "CUBE", out, 'x', {test::gpr(dir, 'z'), test::gpr(dir, 'y')}));
   g.add(test::make_alu(isa, "CUBE", out, 'y', {test::gpr(dir, 'z'), test::gpr(dir, 'x')}));
   g.add(test::make_alu(isa, "CUBE", out, 'z', {test::gpr(dir, 'x'), test::gpr(dir, 'z')}));
   g.add(test::make_alu(isa, "CUBE", out, 'w', {test::gpr(dir, bad_w_src0 ? bad_w_src0 : 'y'), test::gpr(dir, 'z')}));
   return g;
}

/* Direction in R2.xyz (LOD in R2.w) to TEX coordinates in R6, the way the compiler does it:
 * R5 = CUBE; R5.z = 1 / |R5.z|; R6.x = R5.y * R5.z + 1.5 (s), R6.y = R5.x * R5.z + 1.5 (t),
 * R6.z = R5.w (face), R6.w = R2.w (LOD). */
AluClause cube_coordinate_clause(IsaClass isa)
{
   using test::gpr;
   test::TestGroup recip(isa);
   if (isa == IsaClass::Cayman) {
      /* Cayman: a transcendental fills x, y and z; only z is written. */
      for (char c : {'x', 'y', 'z'}) {
         auto r = test::make_alu(isa, "RECIP_IEEE", 5, c, {gpr_abs(5, 'z')});
         r.set(isa::alu::write_mask, c == 'z');
         recip.add(r);
      }
      recip.add(test::make_alu(isa, "MOV", 6, 'w', {gpr(2, 'w')}));
   } else {
      recip.add(test::make_alu(isa, "MOV", 6, 'w', {gpr(2, 'w')}));
      recip.add(test::make_alu(isa, "RECIP_IEEE", 5, 'z', {gpr_abs(5, 'z')})); /* t slot */
   }
   test::TestGroup muladd(isa);
   muladd.add(test::make_alu(isa, "MULADD", 6, 'x', {gpr(5, 'y'), gpr(5, 'z'), test::literal('x')}));
   muladd.add(test::make_alu(isa, "MULADD", 6, 'y', {gpr(5, 'x'), gpr(5, 'z'), test::literal('x')}));
   muladd.add(test::make_alu(isa, "MOV", 6, 'z', {gpr(5, 'w')}));
   muladd.literals = {bits(1.5f)};
   return alu_clause({cube_group(isa, 2, 5), recip, muladd});
}

/* What the CUBE instruction must give, written out per face from the OpenGL/Vulkan table:
 * {tc, sc, 2 * ma, face}. */
struct CubeAluCase {
   std::array<float, 3> dir;
   std::array<float, 4> expected;
};

TEST(CubeAlu, FacesSignsAndTies)
{
   const CubeAluCase cases[] = {
      /* one axis dominant: +X sc = -z, tc = -y; -X sc = z, tc = -y; +Y sc = x, tc = z;
       * -Y sc = x, tc = -z; +Z sc = x, tc = -y; -Z sc = -x, tc = -y */
      {{2, 0.5f, -0.25f}, {-0.5f, 0.25f, 4, 0}},
      {{-2, 0.5f, -0.25f}, {-0.5f, -0.25f, -4, 1}},
      {{0.5f, 3, 0.25f}, {0.25f, 0.5f, 6, 2}},
      {{0.5f, -3, 0.25f}, {-0.25f, 0.5f, -6, 3}},
      {{0.5f, -0.25f, 1}, {0.25f, 0.5f, 2, 4}},
      {{0.5f, -0.25f, -1}, {0.25f, -0.5f, -2, 5}},
      /* ties: z wins over x and y, y over x */
      {{1, 1, 0}, {0, 1, 2, 2}},
      {{-1, -1, 0.5f}, {-0.5f, -1, -2, 3}},
      {{1, 0, -1}, {0, -1, -2, 5}},
      {{-1, 1, 1}, {-1, -1, 2, 4}},
      {{0, -1, -1}, {1, 0, -2, 5}},
      {{0, 0, 0}, {0, 0, 0, 4}}, /* the zero vector: z, and 0 is not negative */
   };
   for (IsaClass isa : {IsaClass::Evergreen, IsaClass::Cayman}) {
      TexRun run;
      run.isa = isa;
      const AluClause clause = alu_clause({cube_group(isa, 2, 3)});
      run.options.alu = clause.words;
      run.options.alu_slots = clause.slots;
      run.options.tex = false;
      std::vector<std::array<float, 4>> coords;
      for (const auto &c : cases)
         coords.push_back({c.dir[0], c.dir[1], c.dir[2], 0});
      const auto out = run.sample(coords);
      ASSERT_EQ(run.error, "") << int(isa);
      for (size_t i = 0; i < std::size(cases); i++)
         for (unsigned c = 0; c < 4; c++)
            EXPECT_EQ(out[i][c], cases[i].expected[c]) << "isa " << int(isa) << " case " << i << " channel " << c;
   }
}

TEST(CubeAlu, OperandsMustRepeatOneDirection)
{
   TexRun run;
   const AluClause clause = alu_clause({cube_group(IsaClass::Cayman, 2, 3, 'x')});
   run.options.alu = clause.words;
   run.options.alu_slots = clause.slots;
   run.options.tex = false;
   run.sample({{1, 2, 3, 0}});
   EXPECT_NE(run.error.find("does not repeat one direction"), std::string::npos) << run.error;
}

constexpr unsigned cube_size = 4;

/* Texel (i, j) of `face` at `level`: red tells the face, green and blue the position. */
std::array<uint8_t, 4> cube_texel(unsigned face, unsigned level, unsigned i, unsigned j)
{
   return {uint8_t(face * 40 + 10), uint8_t(i * 16 + 1 + 128 * level), uint8_t(j * 16 + 2 + 128 * level), 255};
}

std::array<float, 4> cube_texel_float(unsigned face, unsigned i, unsigned j, unsigned level = 0)
{
   const auto t = cube_texel(face, level, i, j);
   return {t[0] / 255.0f, t[1] / 255.0f, t[2] / 255.0f, t[3] / 255.0f};
}

/* A 4x4 RGBA8 cube with two levels, linear aligned, laid out with src/hw/surface. */
TexRun cube_run(IsaClass isa)
{
   TexRun run;
   run.isa = isa;
   SurfaceDescription desc;
   desc.width = desc.height = cube_size;
   desc.layers = 6;
   desc.levels = 2;
   desc.bytes_per_element = 4;
   desc.mode = ArrayMode::LinearAligned;
   SurfaceLayout layout;
   std::string error;
   EXPECT_TRUE(compute_surface_layout(Family::Cayman, desc, layout, error)) << error;
   std::vector<uint8_t> bytes(layout.size, 0);
   for (unsigned level = 0; level < 2; level++)
      for (unsigned face = 0; face < 6; face++)
         for (unsigned j = 0; j < (cube_size >> level); j++)
            for (unsigned i = 0; i < (cube_size >> level); i++) {
               const auto t = cube_texel(face, level, i, j);
               std::memcpy(&bytes[surface_texel_offset(layout, desc, level, i, j, face)], t.data(), 4);
            }
   run.level0.assign(bytes.begin(), bytes.begin() + long(layout.mip_offset));
   run.mips.assign(bytes.begin() + long(layout.mip_offset), bytes.end());
   run.resource.dim = TextureDim::Cube;
   run.resource.width = run.resource.height = cube_size;
   run.resource.pitch = layout.levels[0].pitch;
   run.resource.depth = 1; /* TEX_DEPTH = cubes - 1 */
   run.resource.last_array = 5;
   run.resource.last_level = 1;
   const AluClause clause = cube_coordinate_clause(isa);
   run.options.alu = clause.words;
   run.options.alu_slots = clause.slots;
   run.options.op = "SAMPLE_L";
   run.options.src_gpr = 6;
   run.options.coord_normalized_mask = 0xb; /* x, y normalized; the face (z) unnormalized */
   return run;
}

/* A direction hitting `face` at (u, v) in [0, 1], from the Vulkan table with |ma| = scale:
 * sc = (2u - 1) * scale, tc = (2v - 1) * scale. */
std::array<float, 4> cube_direction(unsigned face, float u, float v, float lod = 0, float scale = 2)
{
   const float sc = (2 * u - 1) * scale, tc = (2 * v - 1) * scale, m = scale;
   switch (face) {
   case 0: return {m, -tc, -sc, lod};
   case 1: return {-m, -tc, sc, lod};
   case 2: return {sc, m, tc, lod};
   case 3: return {sc, -m, -tc, lod};
   case 4: return {sc, -tc, m, lod};
   default: return {-sc, -tc, -m, lod};
   }
}

void expect_texel(const std::array<float, 4> &got, const std::array<float, 4> &want, const std::string &what)
{
   for (unsigned c = 0; c < 4; c++)
      EXPECT_NEAR(got[c], want[c], 1e-5f) << what << " channel " << c;
}

std::array<float, 4> mix(std::initializer_list<std::pair<float, std::array<float, 4>>> parts)
{
   std::array<float, 4> sum{};
   for (const auto &[weight, texel] : parts)
      for (unsigned c = 0; c < 4; c++)
         sum[c] += weight * texel[c];
   return sum;
}

TEST(CubeSample, NearestOnEveryFaceAndMipLevel)
{
   for (IsaClass isa : {IsaClass::Evergreen, IsaClass::Cayman}) {
      TexRun run = cube_run(isa);
      run.sampler.mip_filter = MipFilter::Point;
      std::vector<std::array<float, 4>> coords;
      for (unsigned face = 0; face < 6; face++) {
         const unsigned i = face % 4, j = 3 - face % 4;
         coords.push_back(cube_direction(face, (i + 0.5f) / 4, (j + 0.5f) / 4, 0, face == 3 ? 2.5f : 2.0f));
         coords.push_back(cube_direction(face, 0.8f, 0.2f, 1)); /* level 1: texel (1, 0) */
      }
      const auto out = run.sample(coords);
      ASSERT_EQ(run.error, "") << int(isa);
      for (unsigned face = 0; face < 6; face++) {
         const unsigned i = face % 4, j = 3 - face % 4;
         expect_texel(out[face * 2], cube_texel_float(face, i, j), "face " + std::to_string(face));
         expect_texel(out[face * 2 + 1], cube_texel_float(face, 1, 0, 1), "level 1 face " + std::to_string(face));
      }
   }
}

TEST(CubeSample, BilinearInsideAFaceAndSeamlessAtEdges)
{
   for (IsaClass isa : {IsaClass::Evergreen, IsaClass::Cayman}) {
      TexRun run = cube_run(isa);
      run.sampler.mag_filter = run.sampler.min_filter = TexFilter::Bilinear;
      /* Clamp modes play no part on cubes: a wrapping sampler must not wrap. */
      run.sampler.clamp[0] = run.sampler.clamp[1] = ClampMode::Wrap;
      const auto out = run.sample({
         cube_direction(2, 0.4f, 0.55f),        /* +Y, inside */
         cube_direction(4, 0.9375f, 0.375f),    /* +Z, right edge */
         cube_direction(2, 0.375f, 0.0625f),    /* +Y, top edge */
         cube_direction(4, 0.9375f, 0.9375f),   /* +Z, bottom right corner */
      });
      ASSERT_EQ(run.error, "") << int(isa);
      /* +Y at texel coordinates (1.6, 2.2): taps i 1, 2 (weight of 2: 0.1), j 1, 2 (0.7). */
      expect_texel(out[0], mix({{0.9f * 0.3f, cube_texel_float(2, 1, 1)}, {0.1f * 0.3f, cube_texel_float(2, 2, 1)},
                                {0.9f * 0.7f, cube_texel_float(2, 1, 2)}, {0.1f * 0.7f, cube_texel_float(2, 2, 2)}}),
                   "inside +Y");
      /* +Z at (3.75, 1.5): taps i 3 and 4 (0.25), j 1 only. i = 4 is past +Z's right edge (+x
       * side): on +X (sc = -z = -n) that is column 0, same row. */
      expect_texel(out[1], mix({{0.75f, cube_texel_float(4, 3, 1)}, {0.25f, cube_texel_float(0, 0, 1)}}),
                   "+Z right edge");
      /* +Y at (1.5, 0.25): taps j -1 (0.25) and 0, i 1 only. j = -1 is past +Y's top (tc = z
       * = -n): -Z, where tc = -y = -n is row 0 and sc = -x puts column i at n - 1 - i. */
      expect_texel(out[2], mix({{0.25f, cube_texel_float(5, 2, 0)}, {0.75f, cube_texel_float(2, 1, 0)}}),
                   "+Y top edge");
      /* +Z at (3.75, 3.75): taps (3,3), (4,3) -> +X (0,3), (3,4) -> -Y (3,0) (tc = -y = n means
       * y = -n; on -Y tc = -z = -n is row 0, sc = x keeps the column), and the corner (4,4),
       * which is the average of the other three. */
      const auto a = cube_texel_float(4, 3, 3), b = cube_texel_float(0, 0, 3), c = cube_texel_float(3, 3, 0);
      const auto corner = mix({{1 / 3.0f, a}, {1 / 3.0f, b}, {1 / 3.0f, c}});
      expect_texel(out[3], mix({{0.5625f, a}, {0.1875f, b}, {0.1875f, c}, {0.0625f, corner}}), "+Z corner");

      /* DISABLE_CUBE_WRAP: clamp to the face's edge instead. */
      run.sampler.disable_cube_wrap = true;
      const auto clamped = run.sample({cube_direction(4, 0.9375f, 0.375f)});
      ASSERT_EQ(run.error, "");
      expect_texel(clamped[0], cube_texel_float(4, 3, 1), "+Z right edge, DISABLE_CUBE_WRAP");
   }
}

TEST(CubeSample, EdgeMappingIsSymmetricOnEveryEdge)
{
   /* Stepping off any face edge and then back off the adjacent face's edge must return to the
    * texel we started next to. */
   const int n = 4;
   for (unsigned face = 0; face < 6; face++)
      for (int k = 0; k < n; k++)
         for (int edge = 0; edge < 4; edge++) {
            sim::CubeTexel out{face, edge == 0 ? -1 : edge == 1 ? n : k, edge == 2 ? -1 : edge == 3 ? n : k};
            const sim::CubeTexel inside{face, std::clamp(out.i, 0, n - 1), std::clamp(out.j, 0, n - 1)};
            const sim::CubeTexel across = sim::cube_texel_across_edge(out, n);
            ASSERT_NE(across.face / 2, face / 2) << face << " " << edge << " " << k;
            ASSERT_TRUE(across.i >= 0 && across.i < n && across.j >= 0 && across.j < n);
            bool returned = false;
            const int steps[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
            for (const auto &step : steps) {
               sim::CubeTexel back{across.face, across.i + step[0], across.j + step[1]};
               if (back.i >= 0 && back.i < n && back.j >= 0 && back.j < n)
                  continue;
               const sim::CubeTexel again = sim::cube_texel_across_edge(back, n);
               if (again.face == face && again.i == inside.i && again.j == inside.j)
                  returned = true;
            }
            EXPECT_TRUE(returned) << "face " << face << " edge " << edge << " k " << k;
         }
}

TEST(CubeResinfo, FaceSizeAndLevelsButNoDepth)
{
   for (IsaClass isa : {IsaClass::Evergreen, IsaClass::Cayman}) {
      TexRun run = cube_run(isa);
      run.options.alu.clear();
      run.options.src_gpr = 2;
      run.options.op = "GET_TEXTURE_RESINFO";
      run.options.dst_sel = {0, 1, 4, 3}; /* z masked to 0 */
      auto out = run.run({{0, 0, 0, 0}, {1, 0, 0, 0}});
      ASSERT_EQ(run.error, "");
      EXPECT_EQ(out[0], (std::array<uint32_t, 4>{4, 4, 0, 2}));
      EXPECT_EQ(out[1], (std::array<uint32_t, 4>{2, 2, 0, 2}));
      run.options.dst_sel = {0, 1, 2, 3};
      run.run({{0, 0, 0, 0}});
      EXPECT_NE(run.error.find("z on a cube has no documented value"), std::string::npos) << run.error;
   }
}

/* Implicit LOD on a cube when the quad straddles two faces: the top-left pixel (this lane) is
 * on +X next to its edge with +Z, the top-right one just across on +Z. Their face coordinates
 * jump by almost a whole face (level 2 of a 4x4 cube), but their directions are a hundredth of
 * a face apart: seen from +X the difference is tiny and the LOD picks level 0 (each level of
 * this texture holds its own number). */
TEST(CubeSample, ImplicitLodAcrossAFaceEdgeUsesTheDirections)
{
   sim::TextureView view;
   view.resource.dim = TextureDim::Cube;
   view.resource.width = view.resource.height = 4;
   view.resource.pitch = 8;
   view.resource.format = Fmt32Float;
   view.resource.last_level = 2;
   view.resource.last_array = 5;
   view.bytes_per_element = 4;
   view.layers = 6;
   std::vector<std::vector<float>> storage;
   for (unsigned level = 0; level < 3; level++) {
      sim::TextureView::Level l;
      l.width = l.height = 4 >> level;
      l.pitch = 8;
      l.aligned_height = l.height;
      l.mode = ArrayMode::LinearAligned;
      storage.emplace_back(size_t(l.pitch) * l.aligned_height * 6, float(level));
      l.data = reinterpret_cast<const uint8_t *>(storage.back().data());
      l.size = storage.back().size() * 4;
      view.levels.push_back(l);
   }
   Sampler sampler;
   sampler.mip_filter = MipFilter::Point;
   sampler.clamp[0] = sampler.clamp[1] = sampler.clamp[2] = ClampMode::ClampLastTexel;
   /* face coordinates as the CUBE sequence makes them: sc / |2 ma| + 1.5 */
   const std::array<uint32_t, 4> on_x = {bits(-0.99f / 2 + 1.5f), bits(1.5f), bits(0.0f), 0}; /* (1, 0, 0.99) */
   const std::array<uint32_t, 4> on_z = {bits(0.99f / 2 + 1.5f), bits(1.5f), bits(4.0f), 0};  /* (0.99, 0, 1) */
   sim::TexRequest q;
   q.op = sim::TexOp::Sample;
   q.normalized = {true, true, false, false};
   q.source = on_x;
   q.has_derivatives = true;
   q.quad = {on_x, on_z, on_x};
   for (unsigned c = 0; c < 3; c++) {
      q.derivatives[0][c] = as_float(on_z[c]) - as_float(on_x[c]);
      q.derivatives[1][c] = 0.0f;
   }
   std::array<uint32_t, 4> result{};
   std::string error;
   ASSERT_TRUE(sim::texture_execute(view, sampler, {}, q, result, error)) << error;
   EXPECT_EQ(as_float(result[0]), 0.0f);
   /* The same quad with both pixels on +X at the same distance apart does pick level 2. */
   q.quad[1] = {bits(0.99f / 2 + 1.5f), bits(1.5f), bits(0.0f), 0};
   ASSERT_TRUE(sim::texture_execute(view, sampler, {}, q, result, error)) << error;
   EXPECT_EQ(as_float(result[0]), 2.0f);
}

TEST(CubeSample, Refusals)
{
   TexRun partial = cube_run(IsaClass::Cayman);
   partial.resource.last_array = 4;
   partial.sample({cube_direction(0, 0.5f, 0.5f)});
   EXPECT_NE(partial.error.find("not whole cubes"), std::string::npos) << partial.error;

   TexRun normalized_face = cube_run(IsaClass::Cayman);
   normalized_face.options.coord_normalized_mask = 0xf;
   normalized_face.sample({cube_direction(0, 0.5f, 0.5f)});
   EXPECT_NE(normalized_face.error.find("COORD_TYPE normalized"), std::string::npos) << normalized_face.error;

   /* A face id of 6 (TEX straight from R2, no CUBE). */
   TexRun bad_face = cube_run(IsaClass::Evergreen);
   bad_face.options.alu.clear();
   bad_face.options.src_gpr = 2;
   bad_face.sample({{1.5f, 1.5f, 6, 0}});
   EXPECT_NE(bad_face.error.find("faces are 0..5"), std::string::npos) << bad_face.error;

   TexRun ld = cube_run(IsaClass::Evergreen);
   ld.options.alu.clear();
   ld.options.src_gpr = 2;
   ld.options.op = "LD";
   ld.run({{0, 0, 0, 0}});
   EXPECT_NE(ld.error.find("LD from a cube"), std::string::npos) << ld.error;
}

TEST(TextureChecker, CubeNeedsSixFacesInItsBuffer)
{
   /* The kernel counts LAST_ARRAY + 1 slices for a cube (depth only for 3D). */
   TextureResource r = small_texture();
   r.dim = TextureDim::Cube;
   r.last_array = 5;
   CheckerCase fits;
   fits.relocs[0].size = 64 * 64 * 4 * 6;
   texture_packet(fits, r, {0, 1});
   EXPECT_EQ(check(fits), "");
   CheckerCase small;
   small.relocs[0].size = 64 * 64 * 4 * 6 - 4;
   texture_packet(small, r, {0, 1});
   EXPECT_NE(check(small).find("texture bo too small"), std::string::npos) << check(small);
}

/* ---------------------------------------------------------------- through PM4 */

TEST(TexPm4, TextureSamplerAndBorderThroughTheCommandProcessor)
{
   /* The TEX program above, set up through SET_RESOURCE/SET_SAMPLER/TD_CS border registers,
    * checked and patched by the kernel model and run by the command processor. */
   TestMemory memory;
   test::ComputeJob job;
   const auto program = tex_program(IsaClass::Cayman, TexOptions{});
   const unsigned code = job.add_bo(memory, 0x100000, 256);
   std::memcpy(memory.buffers.back().bytes.data(), program.data(), program.size() * 4);
   const unsigned coords = job.add_bo(memory, 0x200000, 256);
   const float c[8] = {1.5f, 0.5f, 0, 0, 0.5f, 0.5f, 0, 0};
   std::memcpy(memory.buffers.back().bytes.data(), c, sizeof(c));
   const unsigned index = job.add_bo(memory, 0x300000, 256);
   const uint32_t idx[2] = {0, 4};
   std::memcpy(memory.buffers.back().bytes.data(), idx, sizeof(idx));
   const unsigned output = job.add_bo(memory, 0x400000, 256);
   const unsigned texture = job.add_bo(memory, 0x500000, 64 * 4 * 4);
   const auto texels = rgba_texture(4, 4, 64);
   std::memcpy(memory.buffers.back().bytes.data(), texels.data(), texels.size());

   test::IbBuilder b;
   b.packet(pm4::CONTEXT_CONTROL, {0x80000000u, 0x80000000u});
   b.context(reg::DB_DEPTH_CONTROL, {0});
   b.context(reg::CB_COLOR0_BASE, {0, 256 / 4 / 8 - 1, 0, 0, reg::rat_buffer_color_info, reg::rat_buffer_color_attrib, 63});
   b.reloc(output);
   b.reloc(output);
   b.context(reg::CB_TARGET_MASK, {0xF});
   b.buffer_resource(compute_texture_resource_base + 0, 0, 32, 16);
   b.reloc(coords);
   b.buffer_resource(compute_texture_resource_base + 1, 0, 8, 4);
   b.reloc(index);
   /* The texture: 4x4 RGBA8, linear aligned (pitch 64), mip relocation to the same buffer. */
   TextureResource r = small_texture();
   r.width = r.height = 4;
   b.ib.push_back(pm4::packet3(pm4::SET_RESOURCE, 8, true));
   b.ib.push_back((compute_texture_resource_base + texture_id) * 8);
   for (uint32_t w : encode_texture_resource(r))
      b.ib.push_back(w);
   b.reloc(texture);
   b.reloc(texture);
   /* Sampler 3 of the compute stage: clamp to border, register colour. */
   Sampler s;
   s.clamp[0] = s.clamp[1] = ClampMode::ClampBorder;
   s.border = BorderColor::Register;
   const auto sw = encode_sampler(s, IsaClass::Cayman);
   b.packet(pm4::SET_SAMPLER, {(compute_sampler_base + sampler_id) * 3, sw[0], sw[1], sw[2]}, true);
   b.config(TD_CS_BORDER_COLOR_INDEX, {sampler_id, bits(0.25f), bits(0.5f), bits(0.75f), bits(1.0f)});
   b.context(reg::SQ_PGM_START_LS, {0, 5 | (1 << 8), 0});
   b.reloc(code);
   b.context(reg::SPI_COMPUTE_INPUT_CNTL, {7});
   b.context(reg::SPI_COMPUTE_NUM_THREAD_X, {2, 1, 1});
   b.context(reg::SQ_LDS_ALLOC, {0});
   b.packet(pm4::DISPATCH_DIRECT, {1, 1, 1, pm4::DISPATCH_INITIATOR_COMPUTE_SHADER_EN}, true);

   sim::CommandProcessor cp(Family::Cayman, memory);
   ASSERT_EQ(test::submit(b.ib, job.relocs, cp, IsaClass::Cayman), "");
   float out[8];
   std::memcpy(out, memory.buffers[output].bytes.data(), sizeof(out));
   /* Thread 0 at u = 1.5 (normalized): outside, the register border colour. */
   EXPECT_EQ(out[0], 0.25f);
   EXPECT_EQ(out[1], 0.5f);
   EXPECT_EQ(out[2], 0.75f);
   EXPECT_EQ(out[3], 1.0f);
   /* Thread 1 at (0.5, 0.5): texel (2, 2). */
   EXPECT_FLOAT_EQ(out[4], red(2));
   EXPECT_FLOAT_EQ(out[5], green(2));
}

/* A 256 x 256 RGBA8 2D-tiled texture with 4 levels (levels 0 and 1 2D, 2 and 3 1D tiled):
 * every texel written at the address surface_texel_offset gives, and one texel also at the
 * hand-computed address of TwoDTiledHandComputedAddresses scaled to this pitch; nearest
 * sampling with an explicit LOD returns the texels. */
TEST(TexSample, TwoDTiledLevelsNearest)
{
   SurfaceDescription d;
   d.width = 256, d.height = 256, d.levels = 4, d.bytes_per_element = 4;
   d.mode = ArrayMode::Tiled2DThin1;
   SurfaceLayout layout;
   std::string error;
   ASSERT_TRUE(compute_surface_layout(Family::Cayman, d, layout, error)) << error;
   std::vector<uint8_t> bytes(layout.size, 0);
   auto texel_value = [](unsigned x, unsigned y, unsigned level) {
      return std::array<uint8_t, 4>{uint8_t(x), uint8_t(y), uint8_t(40 * level + 10), 255};
   };
   for (unsigned level = 0; level < 4; level++) {
      const unsigned size = 256 >> level;
      for (unsigned y = 0; y < size; y++)
         for (unsigned x = 0; x < size; x++) {
            const auto v = texel_value(x, y, level);
            std::memcpy(&bytes[surface_texel_offset(layout, d, level, x, y, 0)], v.data(), 4);
         }
   }
   /* Hand-computed: (64, 16) of level 0 with pitch 256 (4 macro tiles per row): macro tile 1
    * -> 512 bytes per channel, pipe 2, bank 5 (as in the 128-pitch case, the macro tile row
    * index is the same), so 2 << 8 | 5 << 11 | 2 << 14 = 43520. Mark it. */
   const uint8_t marker[4] = {7, 7, 7, 7};
   std::memcpy(&bytes[43520], marker, 4);

   TexRun run;
   TextureResource r;
   r.dim = TextureDim::Dim2D;
   r.width = 256, r.height = 256, r.pitch = layout.levels[0].pitch;
   r.format = Fmt8_8_8_8;
   r.last_level = 3;
   fill_texture_resource_tiling(layout, r);
   run.resource = r;
   run.level0.assign(bytes.begin(), bytes.begin() + layout.mip_offset);
   run.mips.assign(bytes.begin() + layout.mip_offset, bytes.end());
   run.sampler.mip_filter = MipFilter::Point;
   run.options.op = "SAMPLE_L";

   struct Probe {
      unsigned x, y, level;
   };
   const Probe probes[] = {{0, 0, 0},   {3, 2, 0},   {8, 0, 0},   {0, 8, 0},    {200, 129, 0}, {255, 255, 0},
                           {64, 16, 0}, {5, 100, 1}, {127, 64, 1}, {63, 63, 2}, {17, 40, 2},  {31, 0, 3}};
   std::vector<std::array<float, 4>> coords;
   for (const Probe &p : probes) {
      const float size = float(256 >> p.level);
      coords.push_back({(float(p.x) + 0.5f) / size, (float(p.y) + 0.5f) / size, 0, float(p.level)});
   }
   const auto out = run.sample(coords);
   ASSERT_EQ(run.error, "");
   for (size_t i = 0; i < std::size(probes); i++) {
      const Probe &p = probes[i];
      if (p.x == 64 && p.y == 16 && p.level == 0) {
         EXPECT_FLOAT_EQ(out[i][0], 7.0f / 255.0f) << "the hand-computed address";
         continue;
      }
      const auto v = texel_value(p.x, p.y, p.level);
      EXPECT_FLOAT_EQ(out[i][0], float(v[0]) / 255.0f) << i;
      EXPECT_FLOAT_EQ(out[i][1], float(v[1]) / 255.0f) << i;
      EXPECT_FLOAT_EQ(out[i][2], float(v[2]) / 255.0f) << i;
   }
}

/* ---------------------------------------------------------------- depth textures and SAMPLE_C */

/* A linear-aligned 4x4 FMT_8_24 texture as the DB's Z_24 leaves it: depth in the low 24 bits
 * (texel (x, y) holds (x + 4 y) * 1,000,000), a stray top byte that must not be read. */
TexRun depth24_run()
{
   TexRun run;
   run.resource.width = run.resource.height = 4, run.resource.pitch = 64;
   run.resource.format = Fmt8_24;
   run.resource.dst_sel[0] = run.resource.dst_sel[1] = run.resource.dst_sel[2] = run.resource.dst_sel[3] = Select::X;
   run.level0.assign(64 * 4 * 4, 0);
   for (unsigned y = 0; y < 4; y++)
      for (unsigned x = 0; x < 4; x++) {
         const uint32_t value = (x + 4 * y) * 1000000u | 0xAB000000u;
         std::memcpy(&run.level0[(y * 64 + x) * 4], &value, 4);
      }
   run.options.dst_sel = {0, 7, 7, 7};
   return run;
}

float depth24(unsigned x, unsigned y)
{
   return float(double((x + 4 * y) * 1000000u) / 16777215.0);
}

bool passes(unsigned func, float reference, float texel)
{
   const bool results[8] = {false, reference < texel, reference == texel, reference <= texel,
                            reference > texel, reference != texel, reference >= texel, true};
   return results[func];
}

TEST(TexDepth, Z24ReadAsUnormAndTheStencilByteAsInteger)
{
   TexRun run = depth24_run();
   run.options.dst_sel = {0, 1, 2, 3};
   auto out = run.sample({{(2 + 0.5f) / 4, (3 + 0.5f) / 4, 0, 0}});
   ASSERT_EQ(run.error, "");
   EXPECT_EQ(out[0][0], depth24(2, 3));
   /* X24S8-style: FMT_8_24 with NUM_FORMAT_ALL INT, y is the top byte (r600g's stencil view of
    * a combined surface reads y). */
   TexRun stencil = depth24_run();
   stencil.options.dst_sel = {0, 1, 2, 3};
   stencil.resource.num_format = NumFormat::Int;
   stencil.resource.dst_sel[0] = Select::Y;
   auto raw = stencil.run({{bits(0.1f), bits(0.1f), 0, 0}});
   ASSERT_EQ(stencil.error, "");
   EXPECT_EQ(raw[0][0], 0xABu);
   /* FMT_24_8: x is the low byte, y the upper 24 bits. */
   TexRun upper = depth24_run();
   upper.options.dst_sel = {0, 1, 2, 3};
   upper.resource.format = Fmt24_8;
   upper.resource.dst_sel[0] = Select::Y;
   upper.resource.dst_sel[1] = Select::X;
   out = upper.sample({{(1 + 0.5f) / 4, 0.1f, 0, 0}});
   ASSERT_EQ(upper.error, "");
   const uint32_t stored = 1000000u | 0xAB000000u;
   EXPECT_EQ(out[0][0], float(double(stored >> 8) / 16777215.0));
   EXPECT_EQ(out[0][1], float(double(stored & 0xff) / 255.0));
}

TEST(TexDepth, EveryCompareFunctionNearest)
{
   const float references[] = {0.0f, depth24(1, 1), 0.3f, 1.0f};
   for (unsigned func = 0; func < 8; func++)
      for (const float reference : references) {
         TexRun run = depth24_run();
         run.options.op = "SAMPLE_C_LZ";
         run.sampler.depth_compare = func;
         std::vector<std::array<float, 4>> coords;
         for (unsigned y = 0; y < 4; y++)
            for (unsigned x = 0; x < 4; x++)
               coords.push_back({(x + 0.5f) / 4, (y + 0.5f) / 4, 0, reference});
         auto out = run.sample(coords);
         ASSERT_EQ(run.error, "") << func;
         for (unsigned i = 0; i < 16; i++) {
            EXPECT_EQ(out[i][0], passes(func, reference, depth24(i % 4, i / 4)) ? 1.0f : 0.0f)
               << "function " << func << " reference " << reference << " texel " << i;
            EXPECT_EQ(out[i][1], 0.0f); /* masked */
         }
      }
}

TEST(TexDepth, BilinearAveragesTheComparisonsNotTheDepths)
{
   TexRun run = depth24_run();
   run.options.op = "SAMPLE_C_LZ";
   run.sampler.mag_filter = run.sampler.min_filter = TexFilter::Bilinear;
   run.sampler.depth_compare = 6; /* GEQUAL: reference >= texel */
   /* Texel space (1.75, 1.25): x between 1 and 2 at 0.25, y between 0 and 1 at 0.75. The
    * reference lies between texels (1, 0)/(2, 0) and (1, 1)/(2, 1): the top row passes, the
    * bottom fails. Filtering the depths first would give another value. */
   const float reference = (depth24(2, 0) + depth24(1, 1)) / 2;
   auto out = run.sample({{1.75f / 4, 1.25f / 4, 0, reference}});
   ASSERT_EQ(run.error, "");
   EXPECT_FLOAT_EQ(out[0][0], 0.25f);
   /* Every weight combination: the result is the sum of the weights of the passing texels. */
   const float u = 2.2f, v = 1.6f;
   const double fx = double(u) - 0.5 - 1, fy = double(v) - 0.5 - 1;
   const float reference2 = depth24(2, 1) + 1e-4f; /* passes (1, 1), (2, 1) only */
   out = run.sample({{u / 4, v / 4, 0, reference2}});
   ASSERT_EQ(run.error, "");
   EXPECT_NEAR(out[0][0], (1 - fy) * 1.0, 1e-6) << fx;
}

TEST(TexDepth, ReferenceInWOrInZBesideALod)
{
   /* SAMPLE_C_L and SAMPLE_C_LB take the reference from z (w is the LOD or bias), SAMPLE_C and
    * SAMPLE_C_LZ from w. LESS with reference 1.0 fails everywhere, with 0 passes (texel 1, 1). */
   for (const char *op : {"SAMPLE_C_L", "SAMPLE_C_LB", "SAMPLE_C", "SAMPLE_C_LZ"}) {
      const bool in_z = std::string(op) == "SAMPLE_C_L" || std::string(op) == "SAMPLE_C_LB";
      TexRun run = depth24_run();
      run.options.op = op;
      run.sampler.depth_compare = 1;
      const float at = 1.5f / 4;
      auto out = run.sample({{at, at, in_z ? 1.0f : 0.0f, in_z ? 0.0f : 1.0f},
                             {at, at, in_z ? 0.0f : 1.0f, in_z ? 0.0f : 0.0f}});
      ASSERT_EQ(run.error, "") << op;
      EXPECT_EQ(out[0][0], 0.0f) << op;
      EXPECT_EQ(out[1][0], 1.0f) << op;
   }
}

TEST(TexDepth, UnormReferencesAreClampedFloatOnesAreNot)
{
   /* A texel of 1.0 and a reference of 1.5 with LEQUAL: clamped to 1.0 for a unorm format
    * (passes), kept for a float one (fails). */
   for (const bool is_float : {false, true}) {
      TexRun run;
      run.resource.width = run.resource.height = 1, run.resource.pitch = 64;
      run.resource.format = is_float ? Fmt32Float : Fmt16;
      run.level0.assign(1024, 0);
      const float one = 1.0f;
      if (is_float)
         std::memcpy(run.level0.data(), &one, 4);
      else
         run.level0[0] = run.level0[1] = 0xff;
      run.options.op = "SAMPLE_C_LZ";
      run.options.dst_sel = {0, 7, 7, 7};
      run.sampler.depth_compare = 3;
      auto out = run.sample({{0.5f, 0.5f, 0, 1.5f}, {0.5f, 0.5f, 0, 0.75f}});
      ASSERT_EQ(run.error, "");
      EXPECT_EQ(out[0][0], is_float ? 0.0f : 1.0f) << is_float;
      EXPECT_EQ(out[1][0], 1.0f) << is_float;
   }
}

TEST(TexDepth, ArrayLayerInZAndTheRefusals)
{
   /* A 2D array: SAMPLE_C_LZ reads the layer from z and the reference from w. */
   TexRun run = depth24_run();
   run.resource.dim = TextureDim::Dim2DArray;
   run.resource.depth = 2, run.resource.last_array = 1;
   run.level0.resize(64 * 4 * 4 * 2, 0); /* layer 1: zeros */
   run.options.op = "SAMPLE_C_LZ";
   run.options.coord_normalized_mask = 0x3;
   run.sampler.depth_compare = 4; /* GREATER */
   auto out = run.sample({{0.9f, 0.9f, 0, 0.5f}, {0.9f, 0.9f, 1, 0.5f}});
   ASSERT_EQ(run.error, "");
   EXPECT_EQ(out[0][0], 0.0f); /* 0.5 > depth of (3, 3) = 0.89: no */
   EXPECT_EQ(out[1][0], 1.0f); /* 0.5 > 0 */

   run.options.op = "SAMPLE_C_L";
   run.sample({{0.5f, 0.5f, 0, 0}});
   EXPECT_NE(run.error.find("z would hold both"), std::string::npos) << run.error;

   TexRun all = depth24_run();
   all.options.op = "SAMPLE_C_LZ";
   all.options.dst_sel = {0, 1, 7, 7};
   all.sample({{0.5f, 0.5f, 0, 0}});
   EXPECT_NE(all.error.find("result y has no documented value"), std::string::npos) << all.error;

   TexRun integer = depth24_run();
   integer.options.op = "SAMPLE_C_LZ";
   integer.resource.num_format = NumFormat::Int;
   integer.sample({{0.5f, 0.5f, 0, 0}});
   EXPECT_NE(integer.error.find("NUM_FORMAT_ALL = INT"), std::string::npos) << integer.error;
}

} // namespace
