#include "colour_buffer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "util/format_srgb.h"
#include "util/half_float.h"

#include "core/alu_semantics.h"
#include "hw/graphics_registers.h"
#include "hw/registers.h"
#include "hw/texture.h"

namespace terakan::sim {

using namespace hw::gfx;

namespace {

/* Which shader channel (0 r .. 3 a) memory component c holds. SWAP_STD keeps the order;
 * SWAP_ALT on four components is BGRA (Mesa r600_translate_colorswap: swizzle ZYXW -> ALT). */
unsigned channel_of(const ColourTarget &target, unsigned c)
{
   if (target.swap == 0)
      return c;
   /* ALT on four components */
   static constexpr unsigned bgra[4] = {2, 1, 0, 3};
   return bgra[c];
}

float blend_factor(uint32_t factor, const std::array<float, 4> &src, const std::array<float, 4> &dst,
                   const std::array<float, 4> &constant, unsigned channel)
{
   const bool alpha = channel == 3;
   switch (factor) {
   case 0: return 0.0f;
   case 1: return 1.0f;
   case 2: return src[channel];
   case 3: return 1.0f - src[channel];
   case 4: return src[3];
   case 5: return 1.0f - src[3];
   case 6: return dst[3];
   case 7: return 1.0f - dst[3];
   case 8: return dst[channel];
   case 9: return 1.0f - dst[channel];
   case 10: return alpha ? 1.0f : std::min(src[3], 1.0f - dst[3]);
   case 13: return constant[channel];
   case 14: return 1.0f - constant[channel];
   case 19: return constant[3];
   case 20: return 1.0f - constant[3];
   default: return NAN; /* dual-source factors: refused when the state is decoded */
   }
}

float combine(uint32_t function, float s, float sf, float d, float df)
{
   switch (function) {
   case 0: return s * sf + d * df;
   case 1: return s * sf - d * df;
   case 2: return std::min(s, d);
   case 3: return std::max(s, d);
   default: return d * df - s * sf;
   }
}

uint64_t pixel_offset(const ColourTarget &target, unsigned x, unsigned y)
{
   return hw::surface_level_texel_offset(target.addressing, x, y, 0);
}

} // namespace

bool decode_colour_target(const PipelineState &state, unsigned n, GpuMemory &memory, ColourTarget &target,
                          std::string &error)
{
   const uint32_t base_reg = hw::reg::CB_COLOR0_BASE + n * hw::reg::CB_COLOR_STRIDE;
   const uint32_t info = state.get(base_reg + hw::reg::Info);
   const uint32_t format = hw::reg::cb_color_info_format(info);
   const uint32_t mask = (state.get(hw::reg::CB_TARGET_MASK) >> (4 * n)) & 0xf;
   if (!format || !mask)
      return false;
   char text[200];
   auto refuse = [&](const char *what) {
      std::snprintf(text, sizeof(text), "CB_COLOR%u: %s (INFO 0x%08x)", n, what, info);
      error = text;
      return false;
   };
   if (info & hw::reg::CB_COLOR_INFO_RAT)
      return refuse("a RAT bound while drawing is not simulated");
   target.index = n;
   target.format = format;
   target.number_type = cb_info_number_type(info);
   target.swap = cb_info_comp_swap(info);
   target.blend_clamp = cb_info_blend_clamp(info);
   target.blend_bypass = cb_info_blend_bypass(info);
   target.write_mask = mask;
   /* COLOR_* numbers are the texture FMT_* numbers: one component table serves both. */
   hw::ComponentLayout layout;
   if (!hw::format_component_layout(hw::TextureFormat(format), layout) ||
       layout.kind == hw::ComponentKind::R11G11B10Float ||
       std::any_of(layout.widths.begin(), layout.widths.begin() + layout.count,
                   [](unsigned width) { return width % 8 != 0; }))
      return refuse("colour format not simulated yet (packed and shared-exponent formats)");
   target.components = layout.count;
   std::copy(layout.widths.begin(), layout.widths.begin() + layout.count, target.bits);
   target.is_float = layout.kind != hw::ComponentKind::Int;
   if (target.swap != 0 && !(target.swap == 1 && target.components == 4))
      return refuse("component swap not simulated yet for this format");
   if (target.number_type == Uscaled || target.number_type == Sscaled)
      return refuse("SCALED number types are not simulated");
   if (target.is_float != (target.number_type == Float))
      return refuse("the number type does not match the format's float-ness");

   const uint32_t pitch = state.get(base_reg + hw::reg::Pitch), slice = state.get(base_reg + hw::reg::Slice);
   const unsigned pitch_pixels = ((pitch & 0x7ff) + 1) * 8;
   const uint64_t slice_pixels = (uint64_t(slice & 0x3fffff) + 1) * 64;
   target.width = pitch_pixels;
   target.height = unsigned(slice_pixels / pitch_pixels);
   unsigned bytes = 0;
   for (unsigned c = 0; c < target.components; c++)
      bytes += target.bits[c];
   bytes /= 8;
   const unsigned mode = cb_info_array_mode(info);
   hw::LevelAddressing &a = target.addressing;
   a.pitch = pitch_pixels;
   a.aligned_height = target.height;
   a.bytes_per_element = bytes;
   if (mode == 0 || mode == 1)
      a.mode = hw::ArrayMode(mode);
   else if (mode == 2)
      a.mode = hw::ArrayMode::Tiled1DThin1;
   else
      return refuse("2D-tiled colour buffers are not simulated yet (R600_DEBUG=no2d)");
   const uint32_t attrib = state.get(base_reg + hw::reg::Attrib);
   a.non_displayable_order = (attrib >> 4) & 1;

   target.address = uint64_t(state.get(base_reg + hw::reg::Base)) << 8;
   target.size = uint64_t(pitch_pixels) * target.height * bytes;
   std::string memory_error;
   target.data = memory.resolve(target.address, target.size, memory_error);
   if (!target.data)
      return refuse(("colour buffer memory: " + memory_error).c_str());

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
   if (b.enable) {
      for (uint32_t f : {b.colour_src, b.colour_dst, b.alpha_src, b.alpha_dst})
         if (f == 11 || f == 12 || (f >= 15 && f <= 18) || f > 20)
            return refuse("blend factor not simulated yet (dual source or BOTH_*)");
      if (b.colour_func > 4 || b.alpha_func > 4)
         return refuse("undefined blend function");
      if (target.number_type == Uint || target.number_type == Sint)
         b.enable = false; /* integer targets do not blend (GL and Vulkan alike) */
      if (target.blend_bypass)
         b.enable = false;
   }
   const uint32_t control = state.get(CB_COLOR_CONTROL);
   target.rop3 = (control >> 16) & 0xff;
   if (target.rop3 != 0xcc)
      return refuse("logic operations (ROP3 other than copy) are not simulated yet");
   return true;
}

std::array<uint32_t, 4> read_colour(const ColourTarget &target, unsigned x, unsigned y)
{
   std::array<uint32_t, 4> out{0, 0, 0, as_bits(1.0f)};
   if (target.number_type == Uint || target.number_type == Sint)
      out[3] = 1;
   const uint8_t *pixel = target.data + pixel_offset(target, x, y);
   unsigned bit = 0;
   for (unsigned c = 0; c < target.components; c++) {
      const unsigned width = target.bits[c];
      uint64_t raw = 0;
      std::memcpy(&raw, pixel + bit / 8, width / 8);
      bit += width;
      uint32_t value;
      const float max_unsigned = float((uint64_t(1) << width) - 1);
      const float max_signed = float((uint64_t(1) << (width - 1)) - 1);
      switch (target.number_type) {
      case Float:
         value = width == 16 ? as_bits(_mesa_half_to_float(uint16_t(raw))) : uint32_t(raw);
         break;
      case Unorm: value = as_bits(float(raw) / max_unsigned); break;
      case Srgb: /* colour channels are sRGB-encoded, alpha is linear */
         value = channel_of(target, c) == 3 ? as_bits(float(raw) / max_unsigned)
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
      out[channel_of(target, c)] = value;
   }
   return out;
}

void write_colour(ColourTarget &target, unsigned x, unsigned y, const std::array<uint32_t, 4> &exported)
{
   const bool integer = target.number_type == Uint || target.number_type == Sint;
   std::array<uint32_t, 4> value = exported;
   if (target.blend.enable && !integer) {
      const std::array<uint32_t, 4> dst_bits = read_colour(target, x, y);
      std::array<float, 4> src, dst;
      for (unsigned c = 0; c < 4; c++) {
         src[c] = as_float(exported[c]);
         dst[c] = as_float(dst_bits[c]);
         /* BLEND_CLAMP: normalized targets clamp the source before blending. */
         if (target.blend_clamp && target.number_type == Unorm)
            src[c] = std::clamp(src[c], 0.0f, 1.0f);
         else if (target.blend_clamp && target.number_type == Snorm)
            src[c] = std::clamp(src[c], -1.0f, 1.0f);
      }
      const BlendState &b = target.blend;
      for (unsigned c = 0; c < 4; c++) {
         const bool alpha = c == 3;
         const uint32_t sf = alpha ? b.alpha_src : b.colour_src, df = alpha ? b.alpha_dst : b.colour_dst;
         const uint32_t function = alpha ? b.alpha_func : b.colour_func;
         value[c] = as_bits(combine(function, src[c], blend_factor(sf, src, dst, b.constant, c), dst[c],
                                    blend_factor(df, src, dst, b.constant, c)));
      }
   }
   uint8_t *pixel = target.data + pixel_offset(target, x, y);
   unsigned bit = 0;
   for (unsigned c = 0; c < target.components; c++) {
      const unsigned width = target.bits[c];
      const unsigned channel = channel_of(target, c);
      const unsigned at = bit / 8;
      bit += width;
      if (!((target.write_mask >> channel) & 1))
         continue;
      const uint32_t v = value[channel];
      const float f = as_float(v);
      const double max_unsigned = double((uint64_t(1) << width) - 1);
      const double max_signed = double((uint64_t(1) << (width - 1)) - 1);
      uint64_t raw;
      switch (target.number_type) {
      case Float:
         raw = width == 16 ? _mesa_float_to_half(f) : v;
         break;
      case Unorm:
         raw = uint64_t(std::nearbyint(std::clamp(double(f), 0.0, 1.0) * max_unsigned));
         break;
      case Srgb:
         raw = channel == 3 ? uint64_t(std::nearbyint(std::clamp(double(f), 0.0, 1.0) * max_unsigned))
                            : util_format_linear_float_to_srgb_8unorm(f);
         break;
      case Snorm:
         raw = uint64_t(int64_t(std::nearbyint(std::clamp(double(f), -1.0, 1.0) * max_signed)));
         break;
      case Uint:
         raw = width == 32 ? v : std::min<uint64_t>(v, uint64_t(max_unsigned));
         break;
      default: /* Sint */
         raw = width == 32 ? v
                           : uint64_t(std::clamp<int64_t>(int32_t(v), -int64_t(max_signed) - 1, int64_t(max_signed)));
         break;
      }
      std::memcpy(pixel + at, &raw, width / 8); /* little endian: the low bytes */
   }
}

} // namespace terakan::sim
