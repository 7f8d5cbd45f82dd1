#include "texture.h"

#include <cassert>
#include <cmath>

namespace terakan::hw {

namespace {

/* A field of a word: `width` bits from bit `shift`. */
struct Field {
   unsigned word, shift, width;
   constexpr uint32_t mask() const { return width == 32 ? 0xffffffffu : (1u << width) - 1; }
};

template <size_t N> void put(std::array<uint32_t, N> &words, Field field, uint32_t value)
{
   assert((value & ~field.mask()) == 0 && "value does not fit its field");
   words[field.word] |= (value & field.mask()) << field.shift;
}

template <size_t N> uint32_t get(const std::array<uint32_t, N> &words, Field field)
{
   return (words[field.word] >> field.shift) & field.mask();
}

/* SQ_TEX_RESOURCE_WORD0-7 (Mesa 22.3.6 evergreend.h, R_030000..R_03001C). */
namespace tex {
constexpr Field dim{0, 0, 3};
constexpr Field non_disp_tiling_order{0, 5, 1};
constexpr Field pitch{0, 6, 12};          /* pitch / 8 - 1 */
constexpr Field width{0, 18, 14};         /* width - 1 */
constexpr Field height{1, 0, 14};         /* height - 1 */
constexpr Field depth{1, 14, 13};         /* depth - 1 */
constexpr Field array_mode{1, 28, 4};
constexpr Field base_address{2, 0, 32};   /* bytes >> 8 */
constexpr Field mip_address{3, 0, 32};    /* bytes >> 8 */
constexpr Field format_comp[4] = {{4, 0, 2}, {4, 2, 2}, {4, 4, 2}, {4, 6, 2}};
constexpr Field num_format_all{4, 8, 2};
constexpr Field srf_mode_all{4, 10, 1};
constexpr Field force_degamma{4, 11, 1};
constexpr Field endian_swap{4, 12, 2};
constexpr Field dst_sel[4] = {{4, 16, 3}, {4, 19, 3}, {4, 22, 3}, {4, 25, 3}};
constexpr Field base_level{4, 28, 4};
constexpr Field last_level{5, 0, 4};
constexpr Field base_array{5, 4, 13};
constexpr Field last_array{5, 17, 13};
constexpr Field max_aniso_ratio{6, 0, 3};
constexpr Field perf_modulation{6, 3, 3};
constexpr Field interlaced{6, 6, 1};
constexpr Field tile_split{6, 29, 3};
constexpr Field data_format{7, 0, 6};
constexpr Field macro_tile_aspect{7, 6, 2};
constexpr Field bank_width{7, 8, 2};
constexpr Field bank_height{7, 10, 2};
constexpr Field num_banks{7, 16, 2};
constexpr Field type{7, 30, 2};
constexpr Field log2_fragments{4, 14, 2};    /* Cayman */
constexpr Field depth_sample_order{7, 15, 1};
} // namespace tex

/* SQ_TEX_SAMPLER_WORD0-2 (Mesa 22.3.6 evergreend.h, R_03C000..R_03C008; FORCE_UNNORMALIZED
 * from the Terakan fork's evergreend.h). */
namespace smp {
constexpr Field clamp[3] = {{0, 0, 3}, {0, 3, 3}, {0, 6, 3}};
constexpr Field xy_mag_filter{0, 9, 2};
constexpr Field xy_min_filter{0, 11, 2};
constexpr Field z_filter{0, 13, 2};
constexpr Field mip_filter{0, 15, 2};
constexpr Field max_aniso_ratio{0, 17, 3};
constexpr Field border_color_type{0, 20, 2};
constexpr Field depth_compare{0, 22, 3};
constexpr Field chroma_key{0, 25, 2};          /* Evergreen class */
constexpr Field force_unnormalized{0, 25, 1};  /* Cayman class */
constexpr Field min_lod{1, 0, 12};
constexpr Field max_lod{1, 12, 12};
constexpr Field lod_bias{2, 0, 14};
constexpr Field mc_coord_truncate{2, 20, 1};
constexpr Field force_degamma{2, 21, 1};
constexpr Field truncate_coord{2, 28, 1};
constexpr Field disable_cube_wrap{2, 29, 1};
constexpr Field type{2, 31, 1};
} // namespace smp

/* Unsigned 4.8 fixed point, clamped to [0, 15] the way Mesa clamps LODs before encoding. */
uint32_t lod_to_fixed(float lod)
{
   const float clamped = std::fmin(std::fmax(lod, 0.0f), 15.0f);
   return uint32_t(std::lround(clamped * 256.0f)) & 0xfff;
}

/* Signed 6.8 fixed point (14 bits, two's complement), clamped to [-16, 16]. */
uint32_t bias_to_fixed(float bias)
{
   const float clamped = std::fmin(std::fmax(bias, -16.0f), 16.0f);
   return uint32_t(int32_t(std::lround(clamped * 256.0f))) & 0x3fff;
}

float bias_from_fixed(uint32_t bits)
{
   const int32_t value = (bits & 0x2000) ? int32_t(bits) - 0x4000 : int32_t(bits);
   return float(value) / 256.0f;
}

} // namespace

std::array<uint32_t, 8> encode_texture_resource(const TextureResource &r)
{
   assert(r.pitch >= 8 && r.pitch % 8 == 0 && "the pitch field counts groups of 8 texels");
   assert(r.width >= 1 && r.height >= 1 && r.depth >= 1);
   assert((r.base_address & 0xff) == 0 && (r.mip_address & 0xff) == 0);
   std::array<uint32_t, 8> w{};
   put(w, tex::dim, uint32_t(r.dim));
   put(w, tex::non_disp_tiling_order, r.non_disp_tiling_order);
   put(w, tex::pitch, r.pitch / 8 - 1);
   put(w, tex::width, r.width - 1);
   put(w, tex::height, r.height - 1);
   put(w, tex::depth, r.depth - 1);
   put(w, tex::array_mode, uint32_t(r.array_mode));
   put(w, tex::base_address, uint32_t(r.base_address >> 8));
   put(w, tex::mip_address, uint32_t(r.mip_address >> 8));
   for (unsigned c = 0; c < 4; c++) {
      put(w, tex::format_comp[c], r.format_signed[c] ? 1 : 0);
      put(w, tex::dst_sel[c], uint32_t(r.dst_sel[c]));
   }
   put(w, tex::num_format_all, uint32_t(r.num_format));
   put(w, tex::srf_mode_all, r.srf_mode_no_zero);
   put(w, tex::force_degamma, r.force_degamma);
   put(w, tex::endian_swap, r.endian_swap);
   put(w, tex::base_level, r.base_level);
   put(w, tex::last_level, r.last_level);
   put(w, tex::base_array, r.base_array);
   put(w, tex::last_array, r.last_array);
   put(w, tex::max_aniso_ratio, r.max_aniso_ratio);
   put(w, tex::perf_modulation, r.perf_modulation);
   put(w, tex::interlaced, r.interlaced);
   put(w, tex::tile_split, r.tile_split);
   put(w, tex::data_format, uint32_t(r.format));
   put(w, tex::macro_tile_aspect, r.macro_tile_aspect);
   put(w, tex::bank_width, r.bank_width);
   put(w, tex::bank_height, r.bank_height);
   put(w, tex::num_banks, r.num_banks);
   put(w, tex::type, texture_resource_type_valid_texture);
   put(w, tex::log2_fragments, r.log2_fragments);
   put(w, tex::depth_sample_order, r.depth_sample_order);
   return w;
}

TextureResource decode_texture_resource(const std::array<uint32_t, 8> &w)
{
   TextureResource r;
   r.dim = TextureDim(get(w, tex::dim));
   r.non_disp_tiling_order = get(w, tex::non_disp_tiling_order);
   r.pitch = (get(w, tex::pitch) + 1) * 8;
   r.width = get(w, tex::width) + 1;
   r.height = get(w, tex::height) + 1;
   r.depth = get(w, tex::depth) + 1;
   r.array_mode = ArrayMode(get(w, tex::array_mode));
   r.base_address = uint64_t(get(w, tex::base_address)) << 8;
   r.mip_address = uint64_t(get(w, tex::mip_address)) << 8;
   for (unsigned c = 0; c < 4; c++) {
      /* UNSIGNED_BIASED (2) is decoded as unsigned: no path produces it. */
      r.format_signed[c] = get(w, tex::format_comp[c]) == 1;
      r.dst_sel[c] = Select(get(w, tex::dst_sel[c]));
   }
   r.num_format = NumFormat(get(w, tex::num_format_all));
   r.srf_mode_no_zero = get(w, tex::srf_mode_all);
   r.force_degamma = get(w, tex::force_degamma);
   r.endian_swap = get(w, tex::endian_swap);
   r.base_level = get(w, tex::base_level);
   r.last_level = get(w, tex::last_level);
   r.base_array = get(w, tex::base_array);
   r.last_array = get(w, tex::last_array);
   r.max_aniso_ratio = get(w, tex::max_aniso_ratio);
   r.perf_modulation = get(w, tex::perf_modulation);
   r.interlaced = get(w, tex::interlaced);
   r.tile_split = get(w, tex::tile_split);
   r.format = TextureFormat(get(w, tex::data_format));
   r.macro_tile_aspect = get(w, tex::macro_tile_aspect);
   r.bank_width = get(w, tex::bank_width);
   r.bank_height = get(w, tex::bank_height);
   r.num_banks = get(w, tex::num_banks);
   r.log2_fragments = get(w, tex::log2_fragments);
   r.depth_sample_order = get(w, tex::depth_sample_order);
   return r;
}

std::array<uint32_t, 8> encode_texture_resource(const TextureResource &r, IsaClass isa)
{
   std::array<uint32_t, 8> w = encode_texture_resource(r);
   if (isa == IsaClass::Cayman)
      w[0] = (w[0] & ~0x30u) | (r.non_disp_tiling_order ? 0x10u : 0u);
   return w;
}

TextureResource decode_texture_resource(const std::array<uint32_t, 8> &w, IsaClass isa)
{
   TextureResource r = decode_texture_resource(w);
   if (isa == IsaClass::Cayman)
      r.non_disp_tiling_order = ((w[0] >> 4) & 3) == 1;
   return r;
}

std::array<uint32_t, 3> encode_sampler(const Sampler &s, IsaClass isa)
{
   std::array<uint32_t, 3> w{};
   for (unsigned c = 0; c < 3; c++)
      put(w, smp::clamp[c], uint32_t(s.clamp[c]));
   put(w, smp::xy_mag_filter, uint32_t(s.mag_filter));
   put(w, smp::xy_min_filter, uint32_t(s.min_filter));
   put(w, smp::z_filter, uint32_t(s.z_filter));
   put(w, smp::mip_filter, uint32_t(s.mip_filter));
   put(w, smp::max_aniso_ratio, s.max_aniso_ratio);
   put(w, smp::border_color_type, uint32_t(s.border));
   put(w, smp::depth_compare, s.depth_compare);
   if (isa == IsaClass::Cayman) {
      assert(s.chroma_key == 0 && "Cayman has no CHROMA_KEY field");
      put(w, smp::force_unnormalized, s.force_unnormalized);
   } else {
      /* Bit 25 is CHROMA_KEY's low bit here: setting it would turn on chroma-key KILL. */
      assert(!s.force_unnormalized && "FORCE_UNNORMALIZED exists on Cayman/Aruba only");
      put(w, smp::chroma_key, s.chroma_key);
   }
   put(w, smp::min_lod, lod_to_fixed(s.min_lod));
   put(w, smp::max_lod, lod_to_fixed(s.max_lod));
   put(w, smp::lod_bias, bias_to_fixed(s.lod_bias));
   put(w, smp::mc_coord_truncate, s.mc_coord_truncate);
   put(w, smp::force_degamma, s.force_degamma);
   put(w, smp::truncate_coord, s.truncate_coord);
   put(w, smp::disable_cube_wrap, s.disable_cube_wrap);
   put(w, smp::type, s.type);
   return w;
}

Sampler decode_sampler(const std::array<uint32_t, 3> &w, IsaClass isa)
{
   Sampler s;
   for (unsigned c = 0; c < 3; c++)
      s.clamp[c] = ClampMode(get(w, smp::clamp[c]));
   s.mag_filter = TexFilter(get(w, smp::xy_mag_filter));
   s.min_filter = TexFilter(get(w, smp::xy_min_filter));
   s.z_filter = MipFilter(get(w, smp::z_filter));
   s.mip_filter = MipFilter(get(w, smp::mip_filter));
   s.max_aniso_ratio = get(w, smp::max_aniso_ratio);
   s.border = BorderColor(get(w, smp::border_color_type));
   s.depth_compare = get(w, smp::depth_compare);
   if (isa == IsaClass::Cayman) {
      s.force_unnormalized = get(w, smp::force_unnormalized);
      s.chroma_key = 0;
   } else {
      s.force_unnormalized = false;
      s.chroma_key = get(w, smp::chroma_key);
   }
   s.min_lod = float(get(w, smp::min_lod)) / 256.0f;
   s.max_lod = float(get(w, smp::max_lod)) / 256.0f;
   s.lod_bias = bias_from_fixed(get(w, smp::lod_bias));
   s.mc_coord_truncate = get(w, smp::mc_coord_truncate);
   s.force_degamma = get(w, smp::force_degamma);
   s.truncate_coord = get(w, smp::truncate_coord);
   s.disable_cube_wrap = get(w, smp::disable_cube_wrap);
   s.type = get(w, smp::type);
   return s;
}

bool sampler_has_force_unnormalized(IsaClass isa)
{
   return isa == IsaClass::Cayman;
}

bool sampler_has_force_unnormalized(Family family)
{
   return sampler_has_force_unnormalized(family_info(family).isa_class);
}

namespace {

struct FormatInfo {
   uint8_t bytes;       /* per element; 0: not a texture format */
   uint8_t block;       /* block width and height in texels */
   bool evergreen_only; /* min_family CHIP_CEDAR in the kernel's table */
};

/* Element sizes as the kernel's color_formats_table (Linux drivers/gpu/drm/radeon/r600_cs.c)
 * gives them: it is what r600_fmt_get_blocksize returns to the texture checker. Note that it
 * counts FMT_8_8_8 as 4 bytes. FMT_GB_GR / FMT_BG_RG are 2x1 blocks of 4 bytes; treated here as
 * width 1 (they are not used by the driver). */
constexpr FormatInfo format_info(TextureFormat format)
{
   switch (format) {
   case Fmt8: case Fmt4_4: case Fmt3_3_2: case Fmt1:
      return {1, 1, false};
   case Fmt16: case Fmt16Float: case Fmt8_8: case Fmt5_6_5: case Fmt6_5_5: case Fmt1_5_5_5:
   case Fmt4_4_4_4: case Fmt5_5_5_1:
      return {2, 1, false};
   case Fmt8_8_8:
   case Fmt32: case Fmt32Float: case Fmt16_16: case Fmt16_16Float: case Fmt8_24: case Fmt8_24Float:
   case Fmt24_8: case Fmt24_8Float: case Fmt10_11_11: case Fmt10_11_11Float: case Fmt11_11_10:
   case Fmt11_11_10Float: case Fmt2_10_10_10: case Fmt8_8_8_8: case Fmt10_10_10_2:
   case Fmt5_9_9_9SharedExp: case Fmt32As8: case Fmt32As8_8: case FmtGB_GR: case FmtBG_RG:
      return {4, 1, false};
   case Fmt32As32_32_32_32:
      return {4, 1, true};
   case Fmt16_16_16: case Fmt16_16_16Float:
   case FmtX24_8_32Float: case Fmt32_32: case Fmt32_32Float: case Fmt16_16_16_16:
   case Fmt16_16_16_16Float:
      return {8, 1, false};
   case Fmt32_32_32: case Fmt32_32_32Float:
      return {12, 1, false};
   case Fmt32_32_32_32: case Fmt32_32_32_32Float:
      return {16, 1, false};
   case FmtBC1: case FmtBC4:
      return {8, 4, false};
   case FmtBC2: case FmtBC3: case FmtBC5:
      return {16, 4, false};
   case FmtBC6: case FmtBC7:
      return {16, 4, true};
   default:
      return {0, 0, false};
   }
}

} // namespace

bool format_component_layout(TextureFormat format, ComponentLayout &out)
{
   switch (format) {
   case Fmt8: out = {ComponentKind::Int, 1, {8}}; return true;
   case Fmt8_8: out = {ComponentKind::Int, 2, {8, 8}}; return true;
   case Fmt8_8_8_8: out = {ComponentKind::Int, 4, {8, 8, 8, 8}}; return true;
   case Fmt16: out = {ComponentKind::Int, 1, {16}}; return true;
   case Fmt16_16: out = {ComponentKind::Int, 2, {16, 16}}; return true;
   case Fmt16_16_16_16: out = {ComponentKind::Int, 4, {16, 16, 16, 16}}; return true;
   case Fmt32: out = {ComponentKind::Int, 1, {32}}; return true;
   case Fmt32_32: out = {ComponentKind::Int, 2, {32, 32}}; return true;
   case Fmt32_32_32_32: out = {ComponentKind::Int, 4, {32, 32, 32, 32}}; return true;
   case Fmt4_4: out = {ComponentKind::Int, 2, {4, 4}}; return true;
   case Fmt3_3_2: out = {ComponentKind::Int, 3, {2, 3, 3}}; return true;
   case Fmt5_6_5: out = {ComponentKind::Int, 3, {5, 6, 5}}; return true;
   case Fmt6_5_5: out = {ComponentKind::Int, 3, {5, 5, 6}}; return true;
   case Fmt1_5_5_5: out = {ComponentKind::Int, 4, {5, 5, 5, 1}}; return true;
   case Fmt5_5_5_1: out = {ComponentKind::Int, 4, {1, 5, 5, 5}}; return true;
   case Fmt4_4_4_4: out = {ComponentKind::Int, 4, {4, 4, 4, 4}}; return true;
   case Fmt2_10_10_10: out = {ComponentKind::Int, 4, {10, 10, 10, 2}}; return true;
   case Fmt10_10_10_2: out = {ComponentKind::Int, 4, {2, 10, 10, 10}}; return true;
   case Fmt16Float: out = {ComponentKind::Half, 1, {16}}; return true;
   case Fmt16_16Float: out = {ComponentKind::Half, 2, {16, 16}}; return true;
   case Fmt16_16_16_16Float: out = {ComponentKind::Half, 4, {16, 16, 16, 16}}; return true;
   case Fmt32Float: out = {ComponentKind::Float, 1, {32}}; return true;
   case Fmt32_32Float: out = {ComponentKind::Float, 2, {32, 32}}; return true;
   case Fmt32_32_32_32Float: out = {ComponentKind::Float, 4, {32, 32, 32, 32}}; return true;
   case Fmt10_11_11Float: out = {ComponentKind::R11G11B10Float, 3, {11, 11, 10}}; return true;
   default: return false;
   }
}

unsigned format_bytes_per_element(TextureFormat format)
{
   return format_info(format).bytes;
}

unsigned format_block_dimension(TextureFormat format)
{
   return format_info(format).block;
}

bool format_is_valid_texture(TextureFormat format, Family)
{
   /* Every family served here is CHIP_CEDAR or later, so the Evergreen-only formats pass. */
   return format_info(format).bytes != 0;
}

} // namespace terakan::hw
