#include "colour_buffer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "util/format_r11g11b10f.h"
#include "util/format_srgb.h"
#include "util/half_float.h"

#include "core/alu_semantics.h"
#include "hw/graphics_registers.h"
#include "hw/registers.h"
#include "hw/texture.h"

namespace terakan::sim {

using namespace hw::gfx;

namespace {

/* The shader channel each memory component holds, for each CB_COLORn_INFO.COMP_SWAP, by the
 * number of components (component 0 is the lowest in the element). The AMD R6xx/Evergreen
 * register reference describes the modes: STD keeps r, g, b, a in order, ALT is BGRA on four
 * components and adds alpha on two, the REV modes reverse the order. Which channel each mode
 * selects is read from the pixel formats Mesa's r600_translate_colorswap (r600_texture.c)
 * gives each mode: B8G8R8A8 ALT, A8B8G8R8 STD_REV, A8R8G8B8 ALT_REV, B5G6R5 STD_REV, R8A8 ALT,
 * G8R8 STD_REV, A8 ALT_REV. A mode r600g never uses for a component count is not known from
 * any source and is refused (the entry is empty). */
struct SwapMapping {
   bool known;
   unsigned channel[4];
};
constexpr SwapMapping swap_mappings[5][4] = {
   {},
   /* one component: STD r, ALT_REV a (A8); ALT and STD_REV pick another channel each, which
    * the documents do not name */
   {{true, {0}}, {false, {}}, {false, {}}, {true, {3}}},
   {{true, {0, 1}}, {true, {0, 3}}, {true, {1, 0}}, {true, {3, 0}}},
   {{true, {0, 1, 2}}, {false, {}}, {true, {2, 1, 0}}, {false, {}}},
   {{true, {0, 1, 2, 3}}, {true, {2, 1, 0, 3}}, {true, {3, 2, 1, 0}}, {true, {3, 0, 1, 2}}},
};

bool reads_second_source(uint32_t factor)
{
   return factor >= hw::gfx::BlendSrc1Colour && factor <= hw::gfx::BlendInvSrc1Alpha;
}

float blend_factor(uint32_t factor, const std::array<float, 4> &src, const std::array<float, 4> &src1,
                   const std::array<float, 4> &dst, const std::array<float, 4> &constant, unsigned channel)
{
   const bool alpha = channel == 3;
   switch (factor) {
   case hw::gfx::BlendZero: return 0.0f;
   case hw::gfx::BlendOne: return 1.0f;
   case hw::gfx::BlendSrcColour: return src[channel];
   case hw::gfx::BlendInvSrcColour: return 1.0f - src[channel];
   case hw::gfx::BlendSrcAlpha: return src[3];
   case hw::gfx::BlendInvSrcAlpha: return 1.0f - src[3];
   case hw::gfx::BlendDstAlpha: return dst[3];
   case hw::gfx::BlendInvDstAlpha: return 1.0f - dst[3];
   case hw::gfx::BlendDstColour: return dst[channel];
   case hw::gfx::BlendInvDstColour: return 1.0f - dst[channel];
   case hw::gfx::BlendSrcAlphaSaturate: return alpha ? 1.0f : std::min(src[3], 1.0f - dst[3]);
   case hw::gfx::BlendConstantColour: return constant[channel];
   case hw::gfx::BlendInvConstantColour: return 1.0f - constant[channel];
   case hw::gfx::BlendSrc1Colour: return src1[channel];
   case hw::gfx::BlendInvSrc1Colour: return 1.0f - src1[channel];
   case hw::gfx::BlendSrc1Alpha: return src1[3];
   case hw::gfx::BlendInvSrc1Alpha: return 1.0f - src1[3];
   case hw::gfx::BlendConstantAlpha: return constant[3];
   case hw::gfx::BlendInvConstantAlpha: return 1.0f - constant[3];
   default: return NAN; /* BOTH_*: refused when the state is decoded */
   }
}

float combine(uint32_t function, float s, float sf, float d, float df)
{
   switch (function) {
   case hw::gfx::CombineDstPlusSrc: return s * sf + d * df;
   case hw::gfx::CombineSrcMinusDst: return s * sf - d * df;
   case hw::gfx::CombineMin: return std::min(s, d);
   case hw::gfx::CombineMax: return std::max(s, d);
   default: return d * df - s * sf; /* CombineDstMinusSrc */
   }
}

uint64_t pixel_offset(const ColourTarget &target, unsigned x, unsigned y)
{
   return hw::surface_level_texel_offset(target.addressing, x, y, target.slice);
}

uint64_t low_bits(unsigned width)
{
   return width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
}

/* A component of width bits (at most 32) starting at bit `at` of the element, little endian:
 * packed formats put component 0 in the lowest bits, byte-array formats in the first byte,
 * which is the same thing. */
uint64_t load_field(const uint8_t *element, unsigned at, unsigned width)
{
   const unsigned first = at / 8, last = (at + width - 1) / 8;
   uint64_t bytes = 0;
   for (unsigned b = last + 1; b-- > first;)
      bytes = (bytes << 8) | element[b];
   return (bytes >> (at % 8)) & low_bits(width);
}

void store_field(uint8_t *element, unsigned at, unsigned width, uint64_t value)
{
   const unsigned first = at / 8, last = (at + width - 1) / 8;
   uint64_t bytes = 0;
   for (unsigned b = last + 1; b-- > first;)
      bytes = (bytes << 8) | element[b];
   const unsigned shift = at % 8;
   bytes = (bytes & ~(low_bits(width) << shift)) | ((value & low_bits(width)) << shift);
   for (unsigned b = first; b <= last; b++, bytes >>= 8)
      element[b] = uint8_t(bytes);
}

/* ROP3 applied bit by bit: each result bit is the bit of the code that the source and
 * destination bits index (bit 2S + D of the low nibble; decode refuses codes whose high nibble,
 * the pattern's half, differs). 0xcc copies the source, 0x66 is S xor D, 0x88 S and D. */
uint64_t apply_rop3(uint32_t rop3, uint64_t source, uint64_t destination)
{
   uint64_t result = 0;
   for (unsigned s = 0; s < 2; s++)
      for (unsigned d = 0; d < 2; d++)
         if ((rop3 >> (2 * s + d)) & 1)
            result |= (s ? source : ~source) & (d ? destination : ~destination);
   return result;
}

/* The stored bits of one component for a shader value (a float, or integer bits for
 * UINT/SINT targets). */
uint64_t encode_component(const ColourTarget &target, unsigned width, unsigned channel, uint32_t v)
{
   const float f = as_float(v);
   const double max_unsigned = double(low_bits(width));
   const double max_signed = double(low_bits(width - 1));
   switch (target.number_type) {
   case Float:
      if (target.packed_float) /* util's conversions: round to nearest, negative to 0 */
         return width == 11 ? f32_to_uf11(f) : f32_to_uf10(f);
      return width == 16 ? _mesa_float_to_half(f) : v;
   case Unorm:
      return uint64_t(std::nearbyint(std::clamp(double(f), 0.0, 1.0) * max_unsigned));
   case Srgb:
      return channel == 3 ? uint64_t(std::nearbyint(std::clamp(double(f), 0.0, 1.0) * max_unsigned))
                          : util_format_linear_float_to_srgb_8unorm(f);
   case Snorm:
      return uint64_t(int64_t(std::nearbyint(std::clamp(double(f), -1.0, 1.0) * max_signed))) & low_bits(width);
   case Uint:
      return width == 32 ? v : std::min<uint64_t>(v, uint64_t(max_unsigned));
   default: /* Sint */
      return width == 32 ? v
                         : uint64_t(std::clamp<int64_t>(int32_t(v), -int64_t(max_signed) - 1, int64_t(max_signed))) &
                              low_bits(width);
   }
}

/* A typed RAT's extent (decode_rat_colour_target); null when decoding a render target. */
struct RatExtent {
   unsigned layers = 1;
   uint64_t buffer_elements = 0;
};

bool decode_target(const PipelineState &state, unsigned n, GpuMemory &memory, ColourTarget &target,
                   std::string &error, bool ignore_target_mask, const RatExtent *rat)
{
   const uint32_t base_reg = hw::reg::CB_COLOR0_BASE + n * hw::reg::CB_COLOR_STRIDE;
   const uint32_t info = state.get(base_reg + hw::reg::Info);
   const uint32_t format = hw::reg::cb_color_info_format(info);
   const uint32_t mask = ignore_target_mask ? 0xf : (state.get(hw::reg::CB_TARGET_MASK) >> (4 * n)) & 0xf;
   if (!format || !mask)
      return false;
   char text[200];
   auto refuse = [&](const char *what) {
      std::snprintf(text, sizeof(text), "CB_COLOR%u: %s (INFO 0x%08x)", n, what, info);
      error = text;
      return false;
   };
   if ((info & hw::reg::CB_COLOR_INFO_RAT) && !rat)
      return refuse("a RAT bound while drawing is not simulated");
   target.index = n;
   target.format = format;
   target.number_type = cb_info_number_type(info);
   target.swap = cb_info_comp_swap(info);
   target.blend_clamp = cb_info_blend_clamp(info);
   target.blend_bypass = cb_info_blend_bypass(info);
   target.write_mask = mask;
   /* COLOR_* numbers are the texture FMT_* numbers: one component table serves both. Packed
    * components are at most 11 bits wide, so a packed element is at most 32 bits. */
   hw::ComponentLayout layout;
   if (!hw::format_component_layout(hw::TextureFormat(format), layout))
      return refuse("colour format not simulated yet (shared-exponent, depth and 24-bit formats)");
   target.components = layout.count;
   std::copy(layout.widths.begin(), layout.widths.begin() + layout.count, target.bits);
   target.is_float = layout.kind != hw::ComponentKind::Int;
   target.packed_float = layout.kind == hw::ComponentKind::R11G11B10Float;
   const SwapMapping &mapping = swap_mappings[target.components][target.swap];
   if (!mapping.known)
      return refuse("COMP_SWAP not known for this number of components (r600g never uses it)");
   std::copy(mapping.channel, mapping.channel + target.components, target.channel);
   if (target.number_type == Uscaled || target.number_type == Sscaled)
      return refuse("SCALED number types are not simulated");
   if (target.is_float != (target.number_type == Float))
      return refuse("the number type does not match the format's float-ness");
   if (target.number_type == Srgb)
      for (unsigned c = 0; c < target.components; c++)
         if (target.channel[c] != 3 && target.bits[c] != 8)
            return refuse("SRGB with colour components other than 8 bits is not simulated");

   const uint32_t pitch = state.get(base_reg + hw::reg::Pitch), slice = state.get(base_reg + hw::reg::Slice);
   const unsigned pitch_pixels = ((pitch & 0x7ff) + 1) * 8;
   const uint64_t slice_pixels = (uint64_t(slice & 0x3fffff) + 1) * 64;
   target.width = pitch_pixels;
   target.height = unsigned(slice_pixels / pitch_pixels);
   if (rat && rat->buffer_elements) {
      /* A buffer RAT is one row of elements from BASE, however PITCH and SLICE describe the
       * layer the kernel checks (r600g leaves SLICE 0). */
      if (cb_info_array_mode(info) > 1)
         return refuse("a buffer RAT must be linear");
      /* Cut to the buffer object below, once the element size is known. */
      target.width = unsigned(std::min<uint64_t>(rat->buffer_elements, 0xffffffffu));
      target.height = 1;
   }
   unsigned bytes = 0;
   for (unsigned c = 0; c < target.components; c++)
      bytes += target.bits[c];
   bytes /= 8;
   const unsigned mode = cb_info_array_mode(info);
   hw::LevelAddressing &a = target.addressing;
   a.pitch = target.width;
   a.aligned_height = target.height;
   a.bytes_per_element = bytes;
   const uint32_t attrib = state.get(base_reg + hw::reg::Attrib);
   a.non_displayable_order = (attrib >> 4) & 1;
   target.address = uint64_t(state.get(base_reg + hw::reg::Base)) << 8;
   uint64_t start = target.address;
   if (mode == 0 || mode == 1) {
      a.mode = hw::ArrayMode(mode);
   } else if (mode == 2) {
      a.mode = hw::ArrayMode::Tiled1DThin1;
   } else if (mode == 4) {
      /* 2D tiled thin: CB_COLORn_ATTRIB's tiling codes with the board's pipes and group size;
       * the base's pipe and bank bits select a swizzle and the surface starts with them
       * cleared, as the texture unit reads 2D levels. */
      const TilingCodes codes = cb_attrib_tiling(attrib);
      if (codes.tile_split > 6)
         return refuse("undefined TILE_SPLIT in CB_COLOR_ATTRIB");
      a.mode = hw::ArrayMode::Tiled2DThin1;
      a.tiling = state.tiling;
      a.macro = hw::macro_tiling_from_codes(codes.tile_split, codes.banks, codes.bank_width, codes.bank_height,
                                            codes.macro_tile_aspect);
      start = hw::macro_tiled_surface_start(target.address, state.tiling, a.macro.banks, a.swizzle);
   } else {
      return refuse("undefined ARRAY_MODE");
   }

   target.element_bytes = bytes;
   if (rat && rat->buffer_elements && bytes) {
      /* r600g's shader-buffer RATs give DIM in bytes (evergreen_set_shader_buffers passes byte
       * offsets where evergreen_set_color_surface_buffer takes elements): the row ends with
       * the buffer object at the latest. */
      target.width = unsigned(std::min<uint64_t>(target.width, memory.bytes_after(target.address) / bytes));
      a.pitch = std::max(target.width, 1u);
   }
   if (!decode_colour_metadata(state, n, bytes, memory, target.msaa, error))
      return false;
   a.samples = target.msaa.fragments;
   if (a.samples > 1 && a.mode != hw::ArrayMode::Tiled1DThin1 && a.mode != hw::ArrayMode::Tiled2DThin1)
      return refuse("a multisampled colour buffer must be tiled");
   if (!rat) {
      /* SLICE_START [10:0] (the kernel's check covers SLICE_MAX + 1 slices from BASE). */
      const uint32_t view = state.get(base_reg + hw::reg::View);
      target.slice = target.first_slice = target.last_slice = view & 0x7ff; /* multisampled: msaa.cpp, FMASK too */
      /* Layered rendering: the vertex's render target index counts from SLICE_START and may
       * reach SLICE_MAX [23:13] (draw.cpp). */
      if (state.get(PA_CL_VS_OUT_CNTL) & vs_out_use_render_target_index) {
         target.last_slice = (view >> 13) & 0x7ff;
         if (target.last_slice < target.first_slice)
            return refuse("SLICE_MAX below SLICE_START with a render target index from the vertex shader");
      }
   }
   target.size = colour_surface_bytes(target) * (rat ? rat->layers : target.last_slice + 1);
   std::string memory_error;
   target.data = memory.resolve(start, target.size, memory_error);
   if (!target.data)
      return refuse(("colour buffer memory: " + memory_error).c_str());
   if (rat)
      return true; /* a RAT neither blends nor applies a logic operation */

   const uint32_t blend = state.get(CB_BLEND0_CONTROL + 4 * n);
   BlendState &b = target.blend;
   b.enable = (blend >> 30) & 1;
   b.colour_src = blend & 0x1f;
   b.colour_func = (blend >> 5) & 7;
   b.colour_dst = (blend >> 8) & 0x1f;
   const bool separate = (blend >> 29) & 1;
   b.alpha_src = separate ? (blend >> 16) & 0x1f : b.colour_src;
   b.alpha_func = separate ? (blend >> 21) & 7 : b.colour_func;
   b.alpha_dst = separate ? (blend >> 24) & 0x1f : b.colour_dst;
   for (unsigned c = 0; c < 4; c++)
      b.constant[c] = as_float(state.get(CB_BLEND_RED + 4 * c));
   if (target.number_type == Uint || target.number_type == Sint)
      b.enable = false; /* integer targets do not blend (GL and Vulkan alike) */
   if (target.blend_bypass)
      b.enable = false;
   if (b.enable) {
      for (uint32_t f : {b.colour_src, b.colour_dst, b.alpha_src, b.alpha_dst}) {
         if (f == BlendBothSrcAlpha || f == BlendBothInvSrcAlpha)
            return refuse("BOTH_SRC_ALPHA/BOTH_INV_SRC_ALPHA blend factors are not simulated yet");
         if (f > BlendInvConstantAlpha)
            return refuse("undefined blend factor");
         target.dual_source |= reads_second_source(f);
      }
      if (b.colour_func > 4 || b.alpha_func > 4)
         return refuse("undefined blend function");
      /* The second colour is the export to PIXEL 1 (Mesa sfn_shader_fs.cpp exports the
       * dual-source index as the target number; GL and r600g allow one target then). A second
       * target bound beside it would receive that export as well: not known, refused. */
      if (target.dual_source && n != 0)
         return refuse("dual-source blend factors on a target other than 0");
      if (target.dual_source && ((state.get(hw::reg::CB_TARGET_MASK) >> 4) & 0xf) &&
          hw::reg::cb_color_info_format(state.get(base_reg + hw::reg::CB_COLOR_STRIDE + hw::reg::Info)))
         return refuse("dual-source blending with CB_COLOR1 enabled as well");
   }
   /* ROP3 (Mesa evergreen_create_blend_state writes the GL logic op into both nibbles of
    * CB_COLOR_CONTROL bits 16-23): the high nibble is the case where the pattern bit is set,
    * and 3D drawing has no pattern; a code whose halves differ is refused. */
   const uint32_t control = state.get(CB_COLOR_CONTROL);
   target.rop3 = (control >> 16) & 0xff;
   if (target.rop3 != 0xcc) {
      if ((target.rop3 >> 4) != (target.rop3 & 0xf))
         return refuse("ROP3 that depends on the pattern (its two nibbles differ) is not simulated");
      if (target.is_float)
         return refuse("logic operations on a float target are not simulated (GL ignores them there)");
      if (b.enable)
         return refuse("logic operation and blending at once are not simulated (GL allows one)");
   }
   return true;
}

} // namespace

bool decode_colour_target(const PipelineState &state, unsigned n, GpuMemory &memory, ColourTarget &target,
                          std::string &error, bool ignore_target_mask)
{
   return decode_target(state, n, memory, target, error, ignore_target_mask, nullptr);
}

bool decode_rat_colour_target(const PipelineState &state, unsigned n, GpuMemory &memory, ColourTarget &target,
                              std::string &error, unsigned layers, uint64_t buffer_elements)
{
   const RatExtent extent{layers, buffer_elements};
   return decode_target(state, n, memory, target, error, true, &extent);
}

std::array<uint32_t, 4> read_colour(const ColourTarget &target, unsigned x, unsigned y)
{
   if (target.msaa.needs_metadata_path()) {
      const std::array<uint8_t, 16> element = read_sample_element(target, x, y, 0);
      return read_element(target, element.data());
   }
   return read_element(target, target.data + pixel_offset(target, x, y));
}

std::array<uint32_t, 4> read_element(const ColourTarget &target, const uint8_t *pixel)
{
   std::array<uint32_t, 4> out{0, 0, 0, as_bits(1.0f)};
   if (target.number_type == Uint || target.number_type == Sint)
      out[3] = 1;
   unsigned bit = 0;
   for (unsigned c = 0; c < target.components; c++) {
      const unsigned width = target.bits[c];
      const uint64_t raw = load_field(pixel, bit, width);
      bit += width;
      uint32_t value;
      const float max_unsigned = float(low_bits(width));
      const float max_signed = float(low_bits(width - 1));
      switch (target.number_type) {
      case Float:
         if (target.packed_float)
            value = as_bits(width == 11 ? uf11_to_f32(uint16_t(raw)) : uf10_to_f32(uint16_t(raw)));
         else
            value = width == 16 ? as_bits(_mesa_half_to_float(uint16_t(raw))) : uint32_t(raw);
         break;
      case Unorm: value = as_bits(float(raw) / max_unsigned); break;
      case Srgb: /* colour channels are sRGB-encoded, alpha is linear */
         value = target.channel[c] == 3 ? as_bits(float(raw) / max_unsigned)
                                        : as_bits(util_format_srgb_8unorm_to_linear_float(uint8_t(raw)));
         break;
      case Snorm: {
         const int64_t s = int64_t(raw << (64 - width)) >> (64 - width);
         value = as_bits(std::max(float(s) / max_signed, -1.0f));
         break;
      }
      case Sint: value = uint32_t(int32_t(int64_t(raw << (64 - width)) >> (64 - width))); break;
      default: value = uint32_t(raw); break;
      }
      out[target.channel[c]] = value;
   }
   return out;
}

void write_colour(ColourTarget &target, unsigned x, unsigned y, const std::array<uint32_t, 4> &exported,
                  const std::array<uint32_t, 4> *second)
{
   if (target.msaa.needs_metadata_path()) {
      write_colour_samples(target, x, y, 1, exported, second);
      return;
   }
   write_element(target, target.data + pixel_offset(target, x, y), exported, second);
}

void write_element(const ColourTarget &target, uint8_t *pixel, const std::array<uint32_t, 4> &exported,
                   const std::array<uint32_t, 4> *second)
{
   const bool integer = target.number_type == Uint || target.number_type == Sint;
   std::array<uint32_t, 4> value = exported;
   if (target.blend.enable && !integer) {
      const std::array<uint32_t, 4> dst_bits = read_element(target, pixel);
      std::array<float, 4> src, src1{}, dst;
      for (unsigned c = 0; c < 4; c++) {
         src[c] = as_float(exported[c]);
         if (second)
            src1[c] = as_float((*second)[c]);
         dst[c] = as_float(dst_bits[c]);
         /* BLEND_CLAMP: normalized targets clamp the sources before blending; sRGB ones too
          * (r600g sets BLEND_CLAMP for UNORM, SNORM and SRGB alike, and Vulkan clamps the
          * sources of every fixed-point attachment; the destination is decoded to linear by
          * read_element, so the blend works on linear values). */
         if (target.blend_clamp && (target.number_type == Unorm || target.number_type == Srgb)) {
            src[c] = std::clamp(src[c], 0.0f, 1.0f);
            src1[c] = std::clamp(src1[c], 0.0f, 1.0f);
         } else if (target.blend_clamp && target.number_type == Snorm) {
            src[c] = std::clamp(src[c], -1.0f, 1.0f);
            src1[c] = std::clamp(src1[c], -1.0f, 1.0f);
         }
      }
      const BlendState &b = target.blend;
      for (unsigned c = 0; c < 4; c++) {
         const bool alpha = c == 3;
         const uint32_t sf = alpha ? b.alpha_src : b.colour_src, df = alpha ? b.alpha_dst : b.colour_dst;
         const uint32_t function = alpha ? b.alpha_func : b.colour_func;
         value[c] = as_bits(combine(function, src[c], blend_factor(sf, src, src1, dst, b.constant, c), dst[c],
                                    blend_factor(df, src, src1, dst, b.constant, c)));
      }
   }
   unsigned bit = 0;
   for (unsigned c = 0; c < target.components; c++) {
      const unsigned width = target.bits[c];
      const unsigned channel = target.channel[c];
      const unsigned at = bit;
      bit += width;
      if (!((target.write_mask >> channel) & 1))
         continue;
      uint64_t raw = encode_component(target, width, channel, value[channel]);
      if (target.rop3 != 0xcc)
         raw = apply_rop3(target.rop3, raw, load_field(pixel, at, width));
      store_field(pixel, at, width, raw);
   }
}

} // namespace terakan::sim
