/* The texture unit. Rules and sources: docs/sim-semantics.md, "Textures". */
#include "texture_unit.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "hw/msaa.h"
#include "hw/surface.h"
#include "util/format/u_format.h"
#include "core/message.h"

namespace terakan::sim {

using namespace hw;

namespace {

uint32_t bits_of(float f)
{
   uint32_t u;
   std::memcpy(&u, &f, 4);
   return u;
}

float float_of(uint32_t u)
{
   float f;
   std::memcpy(&f, &u, 4);
   return f;
}

unsigned minify(unsigned size, unsigned level)
{
   return std::max(1u, size >> level);
}

/* A decoded texel: floats, or integers (NUM_FORMAT_ALL = INT). */
struct Texel {
   std::array<float, 4> f{};
   std::array<uint32_t, 4> i{};
};

using Kind = ComponentKind;
using Layout = ComponentLayout;

uint32_t extract_bits(const uint8_t *element, unsigned first_bit, unsigned width)
{
   uint64_t value = 0;
   const unsigned first_byte = first_bit / 8, last_byte = (first_bit + width - 1) / 8;
   for (unsigned b = first_byte; b <= last_byte; b++)
      value |= uint64_t(element[b]) << (8 * (b - first_byte));
   value >>= first_bit % 8;
   return uint32_t(value & (width == 32 ? 0xffffffffull : ((1ull << width) - 1)));
}

/* Unsigned small floats of R11G11B10F: 5-bit exponent (bias 15), 6 or 5 mantissa bits. */
float small_float(uint32_t bits, unsigned mantissa_bits)
{
   const uint32_t exponent = bits >> mantissa_bits, mantissa = bits & ((1u << mantissa_bits) - 1);
   const float m = float(mantissa) / float(1u << mantissa_bits);
   if (exponent == 0)
      return std::ldexp(m, -14);
   if (exponent == 31)
      return mantissa ? NAN : INFINITY;
   return std::ldexp(1.0f + m, int(exponent) - 15);
}

/* An unsigned normalized component: raw / (2^width - 1), computed in double and rounded to
 * float. 8-bit components (the common case, four per texel and four texels per bilinear tap)
 * come from a table of the very same quotients, made once. */
float unorm_to_float(uint32_t raw, unsigned width)
{
   static const std::array<float, 256> eight_bits = [] {
      std::array<float, 256> table{};
      for (unsigned i = 0; i < 256; i++)
         table[i] = float(double(i) / 255.0);
      return table;
   }();
   if (width == 8)
      return eight_bits[raw];
   return float(double(raw) / double((uint64_t(1) << width) - 1));
}

bool is_integer_result(const TextureResource &r, const Layout &layout)
{
   return layout.kind == Kind::Int && r.num_format == NumFormat::Int;
}

/* Converts one stored texel to four values, before the resource's DST_SEL. */
Texel decode_texel(const TextureResource &r, const Layout &layout, const uint8_t *element, bool degamma)
{
   Texel t;
   const bool integer = is_integer_result(r, layout);
   if (layout.kind == Kind::SharedExponent) {
      /* Three 9-bit mantissas from bit 0 and a 5-bit exponent on top: m * 2^(e - 15 - 9)
       * (EXT_texture_shared_exponent's and Vulkan's decoding). */
      const uint32_t word = extract_bits(element, 0, 32);
      const int exponent = int(word >> 27) - 15 - 9;
      for (unsigned c = 0; c < 3; c++)
         t.f[c] = std::ldexp(float((word >> (9 * c)) & 0x1ff), exponent);
      t.f[3] = 1.0f;
      return t;
   }
   unsigned bit = 0;
   for (unsigned c = 0; c < 4; c++) {
      if (c >= layout.count) {
         /* Components the format lacks read as 0, alpha as 1 (derived, see the docs). */
         t.f[c] = c == 3 ? 1.0f : 0.0f;
         t.i[c] = c == 3 ? 1u : 0u;
         continue;
      }
      const unsigned width = layout.widths[c];
      const uint32_t raw = extract_bits(element, bit, width);
      bit += width;
      switch (layout.kind) {
      case Kind::Float:
         t.f[c] = float_of(raw);
         break;
      case Kind::Half:
         t.f[c] = half_to_float(uint16_t(raw));
         break;
      case Kind::R11G11B10Float:
         t.f[c] = small_float(raw, width == 11 ? 6 : 5);
         break;
      case Kind::SharedExponent: /* decoded above */
         break;
      case Kind::Int: {
         const bool is_signed = r.format_signed[c];
         int64_t value = raw;
         if (is_signed && width < 64 && (raw >> (width - 1)) & 1)
            value = int64_t(raw) - (int64_t(1) << width);
         if (integer) {
            t.i[c] = uint32_t(value);
         } else if (r.num_format == NumFormat::Scaled) {
            t.f[c] = float(value);
         } else if (!is_signed) {
            t.f[c] = unorm_to_float(raw, width);
         } else if (r.srf_mode_no_zero) {
            /* SRF_MODE_NO_ZERO: (2c + 1) / (2^b - 1), no exact zero (OpenGL 2 rule). */
            t.f[c] = float((2.0 * double(value) + 1.0) / double((uint64_t(1) << width) - 1));
         } else {
            /* ZERO_CLAMP_MINUS_ONE: c / (2^(b-1) - 1), the most negative value clamped to -1. */
            t.f[c] = float(std::max(double(value) / double((uint64_t(1) << (width - 1)) - 1), -1.0));
         }
         break;
      }
      }
   }
   if (degamma && !integer)
      for (unsigned c = 0; c < 3; c++)
         t.f[c] = srgb_to_linear(t.f[c]);
   return t;
}

/* How each cube face sits in direction space: the major axis (its component and sign) and
 * which signed direction components sc and tc are. This is the Vulkan specification's table
 * "Cube map face selection and transformations" (the OpenGL table is the same): +X: sc = -z,
 * tc = -y; -X: sc = +z, tc = -y; +Y: sc = +x, tc = +z; -Y: sc = +x, tc = -z; +Z: sc = +x,
 * tc = -y; -Z: sc = -x, tc = -y. The CUBE instruction produces exactly these (alu_semantics). */
struct CubeFace {
   unsigned major_axis; int major_sign;
   unsigned s_axis; int s_sign;
   unsigned t_axis; int t_sign;
};
constexpr CubeFace cube_faces[6] = {
   {0, +1, 2, -1, 1, -1}, /* +X */
   {0, -1, 2, +1, 1, -1}, /* -X */
   {1, +1, 0, +1, 2, +1}, /* +Y */
   {1, -1, 0, +1, 2, -1}, /* -Y */
   {2, +1, 0, +1, 1, -1}, /* +Z */
   {2, -1, 0, -1, 1, -1}, /* -Z */
};

/* One axis of a lookup: the texel(s) to read and the weight of the second. `border` marks a
 * texel that is outside the image and reads as the border colour. */
struct AxisTaps {
   int i0 = 0, i1 = 0;
   bool border0 = false, border1 = false;
   float weight = 0.0f; /* of i1 */
};

int mirror_index(int i) { return i >= 0 ? i : -1 - i; }

/* The integer wrap of the non-half-border modes: a texel index to an index in [0, n), or
 * border. */
int wrap_index(int i, int n, ClampMode mode, bool &border)
{
   border = false;
   switch (mode) {
   case ClampMode::Wrap:
      return ((i % n) + n) % n;
   case ClampMode::Mirror: {
      const int t = ((i % (2 * n)) + 2 * n) % (2 * n);
      return t < n ? t : 2 * n - 1 - t;
   }
   case ClampMode::ClampLastTexel:
      return std::clamp(i, 0, n - 1);
   case ClampMode::MirrorOnceLastTexel:
      return std::clamp(mirror_index(i), 0, n - 1);
   case ClampMode::ClampBorder:
      border = i < 0 || i >= n;
      return i;
   case ClampMode::MirrorOnceBorder:
      i = mirror_index(i);
      border = i >= n;
      return i;
   default:
      return i; /* half-border modes are handled on the coordinate */
   }
}

int floor_to_int(float u)
{
   const float f = std::floor(u);
   /* Keep far-away coordinates finite; they wrap or clamp the same. */
   return int(std::clamp(f, -1.0e9f, 1.0e9f));
}

AxisTaps axis_taps(float u, int n, ClampMode mode, bool linear)
{
   AxisTaps taps;
   const bool half_border = mode == ClampMode::ClampHalfBorder || mode == ClampMode::MirrorOnceHalfBorder;
   if (half_border) {
      /* The coordinate is clamped to the image's edge, so a bilinear footprint reaches half a
       * texel into the border (GL_CLAMP, which Mesa r600 maps to these modes). */
      if (mode == ClampMode::MirrorOnceHalfBorder)
         u = std::fabs(u);
      u = std::clamp(u, 0.0f, float(n));
      if (!linear) {
         taps.i0 = std::min(floor_to_int(u), n - 1);
         return taps;
      }
      const float v = u - 0.5f;
      taps.i0 = floor_to_int(v);
      taps.i1 = taps.i0 + 1;
      taps.weight = v - std::floor(v);
      taps.border0 = taps.i0 < 0 || taps.i0 >= n;
      taps.border1 = taps.i1 < 0 || taps.i1 >= n;
      return taps;
   }
   if (!linear) {
      taps.i0 = wrap_index(floor_to_int(u), n, mode, taps.border0);
      return taps;
   }
   const float v = u - 0.5f;
   const int i0 = floor_to_int(v);
   taps.weight = v - std::floor(v);
   taps.i0 = wrap_index(i0, n, mode, taps.border0);
   taps.i1 = wrap_index(i0 + 1, n, mode, taps.border1);
   return taps;
}

/* The block-compressed formats as Mesa's util formats, whose decoders the simulator uses
 * (the hardware's own decoding arithmetic has no public description; the BCn formats are
 * defined bit for bit by the D3D and Vulkan specifications, and util's decoders are the ones
 * lavapipe's results are checked against in Mesa). Signedness comes from FORMAT_COMP_X;
 * sRGB is the resource's degamma, applied after decoding like for any other format. */
enum pipe_format compressed_format(const TextureResource &r)
{
   const bool is_signed = r.format_signed[0];
   switch (r.format) {
   case FmtBC1: return is_signed ? PIPE_FORMAT_NONE : PIPE_FORMAT_DXT1_RGBA;
   case FmtBC2: return is_signed ? PIPE_FORMAT_NONE : PIPE_FORMAT_DXT3_RGBA;
   case FmtBC3: return is_signed ? PIPE_FORMAT_NONE : PIPE_FORMAT_DXT5_RGBA;
   case FmtBC4: return is_signed ? PIPE_FORMAT_RGTC1_SNORM : PIPE_FORMAT_RGTC1_UNORM;
   case FmtBC5: return is_signed ? PIPE_FORMAT_RGTC2_SNORM : PIPE_FORMAT_RGTC2_UNORM;
   case FmtBC6: return is_signed ? PIPE_FORMAT_BPTC_RGB_FLOAT : PIPE_FORMAT_BPTC_RGB_UFLOAT;
   case FmtBC7: return is_signed ? PIPE_FORMAT_NONE : PIPE_FORMAT_BPTC_RGBA_UNORM;
   default: return PIPE_FORMAT_NONE;
   }
}

/* Layouts the texture unit reads and the colour block does not write: the depth formats' and
 * the shared-exponent one. The depth formats: Mesa's r600 driver samples the surfaces the DB wrote
 * directly on Evergreen and Cayman (r600_texture.c: can_sample_z/can_sample_s, with no flushed
 * copy unless libdrm had to adjust the depth or stencil pitch) with these formats
 * (r600_state_common.c r600_translate_texformat): Z24X8 as FMT_8_24 reading x (the low 24 bits,
 * as unorm), X24S8 as FMT_8_24 reading y (the top 8 bits, NUM_FORMAT_ALL INT), X8Z24 as
 * FMT_24_8 reading y. Z16 is FMT_16 and Z32F FMT_32_FLOAT, already colour layouts. Kept out of
 * hw::format_component_layout so that the colour block does not start accepting COLOR_8_24. */
bool texture_only_component_layout(TextureFormat format, Layout &out)
{
   switch (format) {
   case Fmt8_24: out = {Kind::Int, 2, {24, 8}}; return true;
   case Fmt24_8: out = {Kind::Int, 2, {8, 24}}; return true;
   /* Not a depth format, but a layout the colour block does not share either. */
   case Fmt5_9_9_9SharedExp: out = {Kind::SharedExponent, 3, {9, 9, 9}}; return true;
   default: return false;
   }
}

/* SQ_TEX_DEPTH_COMPARE_* (Mesa r600_state_common.c r600_tex_compare translates OpenGL's
 * functions straight: NEVER, LESS, EQUAL, LEQUAL, GREATER, NOTEQUAL, GEQUAL, ALWAYS), read as
 * `reference FUNC texel` like OpenGL's and Vulkan's depth comparison. */
bool depth_compare_passes(unsigned func, float reference, float texel)
{
   switch (func) {
   case 0: return false;
   case 1: return reference < texel;
   case 2: return reference == texel;
   case 3: return reference <= texel;
   case 4: return reference > texel;
   case 5: return reference != texel;
   case 6: return reference >= texel;
   default: return true;
   }
}

class Lookup {
public:
   Lookup(const TextureView &view, const Sampler &sampler, const std::array<float, 4> &register_border)
      : view(view), r(view.resource), sampler(sampler), register_border(register_border)
   {
      if (view.block_dim != 1) {
         const enum pipe_format format = compressed_format(r);
         if (format == PIPE_FORMAT_NONE || r.num_format == NumFormat::Int || r.num_format == NumFormat::Scaled)
            fault("block-compressed format %u with these number and sign settings is not simulated",
                  unsigned(r.format));
         decode_block = util_format_fetch_rgba_func(format);
         integer = false;
      } else {
         if (!format_component_layout(r.format, layout) && !texture_only_component_layout(r.format, layout))
            fault("texture data format %u is not simulated", unsigned(r.format));
         integer = is_integer_result(r, layout);
      }
      degamma = r.force_degamma || sampler.force_degamma;
   }

   Texel fetch(unsigned level, int x, int y, int slice) const
   {
      const TextureView::Level &l = view.levels[level];
      /* Compressed levels are addressed in blocks; the texel is decoded from its block. */
      const unsigned block = view.block_dim;
      const unsigned texel_x = unsigned(x) % block, texel_y = unsigned(y) % block;
      x /= int(block);
      y /= int(block);
      LevelAddressing a;
      a.mode = l.mode;
      a.pitch = l.pitch;
      a.aligned_height = l.aligned_height;
      a.bytes_per_element = view.bytes_per_element;
      a.non_displayable_order = r.non_disp_tiling_order;
      a.tiling = view.tiling;
      a.macro = view.macro;
      a.swizzle = l.swizzle;
      const uint64_t offset = surface_level_texel_offset(a, unsigned(x), unsigned(y),
                                                         unsigned(slice));
      if (offset + view.bytes_per_element > l.size)
         fault("texel (%d, %d, %d) of level %u lies beyond the level's memory", x, y, slice, level);
      if (!decode_block)
         return compared(decode_texel(r, layout, l.data + offset, degamma));
      Texel t;
      decode_block(t.f.data(), l.data + offset, texel_x, texel_y);
      if (degamma)
         for (unsigned c = 0; c < 3; c++)
            t.f[c] = srgb_to_linear(t.f[c]);
      return t;
   }

   /* Fragment `fragment` of pixel (x, y) of a multisampled resource's array slice. */
   Texel fetch_fragment(int x, int y, int slice, unsigned fragment) const
   {
      const uint64_t offset = surface_level_sample_offset(view.colour_addressing, unsigned(x), unsigned(y),
                                                          unsigned(slice), fragment);
      const TextureView::Level &l = view.levels[0];
      if (offset + view.bytes_per_element > l.size)
         fault("fragment %u of texel (%d, %d, %d) lies beyond the surface's memory", fragment, x, y, slice);
      return decode_texel(r, layout, l.data + offset, degamma);
   }

   Texel border_texel() const
   {
      Texel t;
      std::array<float, 4> colour{};
      switch (sampler.border) {
      case BorderColor::TransparentBlack: colour = {0, 0, 0, 0}; break;
      case BorderColor::OpaqueBlack: colour = {0, 0, 0, 1}; break;
      case BorderColor::OpaqueWhite: colour = {1, 1, 1, 1}; break;
      case BorderColor::Register:
         if (integer)
            fault("a register border colour with an integer format is not simulated");
         colour = register_border;
         break;
      }
      for (unsigned c = 0; c < 4; c++) {
         t.f[c] = colour[c];
         t.i[c] = uint32_t(colour[c]);
      }
      return compared(t);
   }

   /* The SAMPLE_C forms: from here on every texel (border texels too) reads as the 0 or 1 of
    * its comparison with `reference`, so filters average the results (percentage-closer
    * filtering, as Vulkan's "Depth Compare Operation" places the comparison before
    * filtering). The compared value is the one DST_SEL_X selects: r600g's depth views select
    * the depth in every channel, so before or after the swizzle is the same for them. A
    * reference for a unorm format is clamped to [0, 1] first (Vulkan's and Direct3D's rule;
    * derived, no AMD document says it). */
   void compare_with(unsigned func, float reference)
   {
      if (decode_block || integer)
         fault("depth comparison (SAMPLE_C forms) of a %s texture has no defined result",
               decode_block ? "block-compressed" : "NUM_FORMAT_ALL = INT");
      comparing = true;
      compare_func = func;
      compare_reference = reference;
      if (layout.kind == Kind::Int && r.num_format == NumFormat::Norm)
         compare_reference = std::clamp(reference, r.format_signed[0] ? -1.0f : 0.0f, 1.0f);
   }
   /* One level, filtered in x/y (and z for 3D). Coordinates are in texels of that level. */
   Texel sample_level(unsigned level, const std::array<float, 3> &u, int slice, bool linear, bool linear_z) const
   {
      const TextureView::Level &l = view.levels[level];
      const bool is_3d = r.dim == TextureDim::Dim3D;
      const bool is_1d = r.dim == TextureDim::Dim1D || r.dim == TextureDim::Dim1DArray;
      const AxisTaps tx = axis_taps(u[0], int(l.width), sampler.clamp[0], linear);
      AxisTaps ty, tz;
      if (!is_1d)
         ty = axis_taps(u[1], int(l.height), sampler.clamp[1], linear);
      if (is_3d)
         tz = axis_taps(u[2], int(l.depth), sampler.clamp[2], linear_z);
      else
         tz.i0 = slice;
      auto tap = [&](bool xi, bool yi, bool zi) {
         const bool border = (xi ? tx.border1 : tx.border0) || (yi ? ty.border1 : ty.border0) ||
                             (zi ? tz.border1 : tz.border0);
         if (border)
            return border_texel();
         return fetch(level, xi ? tx.i1 : tx.i0, yi ? ty.i1 : ty.i0, zi ? tz.i1 : tz.i0);
      };
      const unsigned nx = linear ? 2 : 1, ny = linear && !is_1d ? 2 : 1, nz = is_3d && linear_z ? 2 : 1;
      if (integer && (nx * ny * nz) > 1)
         fault("linear filtering of an integer texture (NUM_FORMAT_ALL = INT) has no defined result");
      Texel sum;
      for (unsigned z = 0; z < nz; z++)
         for (unsigned y = 0; y < ny; y++)
            for (unsigned x = 0; x < nx; x++) {
               const float w = (nx == 2 ? (x ? tx.weight : 1.0f - tx.weight) : 1.0f) *
                               (ny == 2 ? (y ? ty.weight : 1.0f - ty.weight) : 1.0f) *
                               (nz == 2 ? (z ? tz.weight : 1.0f - tz.weight) : 1.0f);
               const Texel t = tap(x, y, z);
               if (nx * ny * nz == 1)
                  return t;
               for (unsigned c = 0; c < 4; c++)
                  sum.f[c] += w * t.f[c];
            }
      return sum;
   }

   /* One level of a cube, at (u, v) in texels of that level on `face` (already clamped to the
    * face). Linear footprints that cross an edge read the adjacent face (seamless, Vulkan's
    * "Cube Map Edge Handling"), or clamp to the face's edge when the sampler's
    * DISABLE_CUBE_WRAP is set. A footprint over a corner has one texel outside both edges; it
    * is replaced by the average of the footprint's other three texels, the three that meet at
    * that corner of the cube (OpenGL's seamless-cube rule; Vulkan leaves corners to the
    * implementation). Sampler clamp modes and border colours play no part. */
   Texel sample_cube_level(unsigned level, float u, float v, unsigned face, int first_slice, bool linear) const
   {
      const int n = int(view.levels[level].width);
      auto read = [&](const CubeTexel &t) { return fetch(level, t.i, t.j, first_slice + int(t.face)); };
      if (!linear)
         return read({face, std::min(floor_to_int(u), n - 1), std::min(floor_to_int(v), n - 1)});
      if (integer)
         fault("linear filtering of an integer texture (NUM_FORMAT_ALL = INT) has no defined result");
      const float fu = u - 0.5f, fv = v - 0.5f;
      const float wu = fu - std::floor(fu), wv = fv - std::floor(fv);
      const auto taps = cube_footprint(level, u, v, face, first_slice);
      Texel sum;
      for (int y = 0; y < 2; y++)
         for (int x = 0; x < 2; x++) {
            const float w = (x ? wu : 1.0f - wu) * (y ? wv : 1.0f - wv);
            for (unsigned c = 0; c < 4; c++)
               sum.f[c] += w * taps[y][x].f[c];
         }
      return sum;
   }

   /* The 2 x 2 texels of the bilinear footprint at (u, v) on `face` of one level, [j][i] from
    * the lower i and j, across edges and corners as sample_cube_level describes (GATHER4 on a
    * cube returns these: derived, the same footprint as filtering). */
   std::array<std::array<Texel, 2>, 2> cube_footprint(unsigned level, float u, float v, unsigned face,
                                                      int first_slice) const
   {
      const int n = int(view.levels[level].width);
      auto read = [&](const CubeTexel &t) { return fetch(level, t.i, t.j, first_slice + int(t.face)); };
      const int i0 = floor_to_int(u - 0.5f), j0 = floor_to_int(v - 0.5f);
      auto outside = [n](int k) { return k < 0 || k >= n; };
      std::array<std::array<Texel, 2>, 2> taps;
      int corner_x = -1, corner_y = -1;
      for (int y = 0; y < 2; y++)
         for (int x = 0; x < 2; x++) {
            CubeTexel t{face, i0 + x, j0 + y};
            if (sampler.disable_cube_wrap) {
               t.i = std::clamp(t.i, 0, n - 1);
               t.j = std::clamp(t.j, 0, n - 1);
            } else if (outside(t.i) && outside(t.j)) {
               corner_x = x, corner_y = y;
               continue;
            } else if (outside(t.i) || outside(t.j)) {
               t = cube_texel_across_edge(t, n);
            }
            taps[y][x] = read(t);
         }
      if (corner_x >= 0) {
         Texel &corner = taps[corner_y][corner_x];
         corner = Texel{};
         for (int y = 0; y < 2; y++)
            for (int x = 0; x < 2; x++)
               if (x != corner_x || y != corner_y)
                  for (unsigned c = 0; c < 4; c++)
                     corner.f[c] += taps[y][x].f[c] / 3.0f;
      }
      return taps;
   }

   std::array<uint32_t, 4> swizzle(const Texel &t) const
   {
      std::array<uint32_t, 4> out{};
      for (unsigned c = 0; c < 4; c++) {
         switch (r.dst_sel[c]) {
         case Select::X: case Select::Y: case Select::Z: case Select::W: {
            const unsigned s = unsigned(r.dst_sel[c]);
            out[c] = integer ? t.i[s] : bits_of(t.f[s]);
            break;
         }
         case Select::Zero: out[c] = 0; break;
         case Select::One: out[c] = integer ? 1u : bits_of(1.0f); break;
         default: fault("resource DST_SEL %u is not defined", unsigned(r.dst_sel[c]));
         }
      }
      return out;
   }

   bool integer = false;

private:
   Texel compared(const Texel &t) const
   {
      if (!comparing)
         return t;
      float value = 0.0f;
      switch (r.dst_sel[0]) {
      case Select::X: case Select::Y: case Select::Z: case Select::W: value = t.f[unsigned(r.dst_sel[0])]; break;
      case Select::One: value = 1.0f; break;
      default: break;
      }
      const bool passes = depth_compare_passes(compare_func, compare_reference, value);
      Texel result;
      result.f.fill(passes ? 1.0f : 0.0f);
      result.i.fill(passes ? 1u : 0u);
      return result;
   }

   bool comparing = false;
   unsigned compare_func = 0;
   float compare_reference = 0.0f;
   const TextureView &view;
   const TextureResource &r;
   const Sampler &sampler;
   const std::array<float, 4> &register_border;
   Layout layout{};
   bool degamma = false;
   /* Set for block-compressed formats: decodes texel (i, j) of a block to four floats. */
   util_format_fetch_rgba_func_ptr decode_block = nullptr;
};

bool is_array(TextureDim dim)
{
   return dim == TextureDim::Dim1DArray || dim == TextureDim::Dim2DArray || dim == TextureDim::Dim2DArrayMsaa;
}

/* The coordinate channel holding the array layer: y for 1D arrays, z for 2D arrays. */
unsigned layer_channel(TextureDim dim)
{
   return dim == TextureDim::Dim1DArray ? 1 : 2;
}

/* Array slice a layer coordinate selects: BASE_ARRAY + the layer clamped to the view. */
int select_layer(const TextureResource &r, float value, bool normalized)
{
   if (normalized)
      fault("array layer coordinate with COORD_TYPE normalized is not simulated (the layer must be "
           "unnormalized, as Mesa's r600 compiler emits it)");
   if (!(value == std::nearbyint(value)))
      fault("array layer coordinate %g is not an integer: the hardware's rounding is not known "
           "(round it with RNDNE before the TEX, as Mesa does)",
           double(value));
   const int last = int(r.last_array) - int(r.base_array);
   return int(r.base_array) + std::clamp(int(std::clamp(value, -1.0e9f, 1.0e9f)), 0, last);
}

/* The face and the first slice of its cube, from a cube TEX instruction's z: the face id the
 * CUBE instruction produced (0..5), plus 8 * the cube's index within a cube-array view (Mesa
 * r600 merges the array index that way: r600_shader.c tgsi_tex and sfn
 * r600_nir_lower_cube_to_2darray compute z = face + 8 * max(rndne(layer), 0) and mark z
 * unnormalized). Faces are slices BASE_ARRAY + 6 * cube + face (derived: the resource's
 * TEX_DEPTH counts cubes and LAST_ARRAY counts slices). A fractional or out-of-range face has no
 * documented result and stops the dispatch; the cube index is clamped to the view like an array
 * layer (derived, Vulkan). */
struct CubeLocation {
   unsigned face = 0;
   int first_slice = 0;
};

CubeLocation cube_location(const TextureResource &r, float z, bool normalized)
{
   if (normalized)
      fault("cube face coordinate (z) with COORD_TYPE normalized is not simulated (Mesa's r600 compiler "
           "marks it unnormalized)");
   if (!(z == std::nearbyint(z)) || z < 0.0f || z > 8.0f * 8192.0f)
      fault("cube face coordinate %g is not a face id (0..5) plus 8 times a cube index", double(z));
   const int merged = int(z);
   const int face = merged % 8, cube = merged / 8;
   if (face > 5)
      fault("cube face coordinate %d names face %d; faces are 0..5", merged, face);
   const int last_cube = int(r.last_array - r.base_array + 1) / 6 - 1;
   CubeLocation location;
   location.face = unsigned(face);
   location.first_slice = int(r.base_array) + 6 * std::clamp(cube, 0, last_cube);
   return location;
}

void check_dim(const TextureResource &r)
{
   switch (r.dim) {
   case TextureDim::Dim1D: case TextureDim::Dim2D: case TextureDim::Dim3D:
   case TextureDim::Dim1DArray: case TextureDim::Dim2DArray:
      break;
   case TextureDim::Cube:
      /* A cube view is whole cubes of six faces: BASE_ARRAY..LAST_ARRAY, six slices per cube
       * (Mesa evergreen_fill_tex_resource_words: LAST_ARRAY = last layer, 5 for a plain
       * cube). Faces are square in every API; what the hardware does otherwise is unknown. */
      if (r.base_array > r.last_array || (r.last_array - r.base_array + 1) % 6)
         fault("cube view BASE_ARRAY %u .. LAST_ARRAY %u is not whole cubes of six faces", r.base_array,
              r.last_array);
      if (r.width != r.height)
         fault("cube faces of %ux%u texels are not square", r.width, r.height);
      break;
   case TextureDim::Dim2DMsaa: case TextureDim::Dim2DArrayMsaa:
      /* prepare_texture_view checked the sample count and the layout. */
      break;
   default:
      fault("SQ_TEX_DIM %u is not defined", unsigned(r.dim));
   }
   if (r.base_level > r.last_level)
      fault("BASE_LEVEL %u is above LAST_LEVEL %u", r.base_level, r.last_level);
   if (is_array(r.dim) && r.base_array > r.last_array)
      fault("BASE_ARRAY %u is above LAST_ARRAY %u", r.base_array, r.last_array);
}

/* The level of detail before biases and clamps, from the coordinates' differences across the
 * quad: log2 of the larger of the lengths of d(u, v, w)/dx and d(u, v, w)/dy, measured in
 * texels of the base level (normalized coordinates times the base level's size; unnormalized
 * ones as they are; cube face coordinates in face texels). Vulkan's "Scale Factor Operation"
 * with the exact lengths (the hardware's approximation is not documented to us, derived).
 * A zero or NaN scale gives -infinity, which the clamps turn into MIN_LOD. */
/* A cube's face coordinates (x, y in [1, 2], as the CUBE sequence gives them) of the direction
 * that (x, y) on face `from` points at, seen from face `to`: the direction is rebuilt from the
 * face table and divided by its component along `to`'s major axis. False when the direction
 * does not point into `to`'s half of space. */
bool cube_coordinates_on(unsigned from, double x, double y, unsigned to, double &out_x, double &out_y)
{
   const CubeFace &f = cube_faces[from], &t = cube_faces[to];
   double d[3];
   d[f.major_axis] = f.major_sign;
   d[f.s_axis] = f.s_sign * 2.0 * (x - 1.5);
   d[f.t_axis] = f.t_sign * 2.0 * (y - 1.5);
   const double major = d[t.major_axis] * t.major_sign;
   if (!(major > 0.0))
      return false;
   out_x = t.s_sign * d[t.s_axis] / (2.0 * major) + 1.5;
   out_y = t.t_sign * d[t.t_axis] / (2.0 * major) + 1.5;
   return true;
}

/* The lengths of d(u, v, w)/dx and d(u, v, w)/dy in base-level texels (Vulkan's ρx and ρy),
 * the scale factors implicit_lod and the anisotropic footprint start from. */
std::array<double, 2> footprint_lengths(const TextureView &view, const Sampler &sampler, const TexRequest &q)
{
   const TextureResource &r = view.resource;
   const TextureView::Level &base = view.levels[r.base_level];
   const unsigned sizes[3] = {base.width, base.height, base.depth};
   const unsigned spatial = r.dim == TextureDim::Dim3D ? 3
                            : (r.dim == TextureDim::Dim1D || r.dim == TextureDim::Dim1DArray) ? 1 : 2;
   /* Cubes: a quad whose pixels lie on different faces has face coordinates that jump at the
    * edge; the differences are taken with every pixel's direction seen from this lane's face,
    * so they stay what the direction's change across the quad makes them (Vulkan computes the
    * LOD from the face coordinates' derivatives; how the hardware treats such quads is not
    * documented to us: derived). */
   std::array<std::array<float, 3>, 2> derivatives = q.derivatives;
   if (r.dim == TextureDim::Cube && q.explicit_gradients)
      fault("SAMPLE_G on a cube is not simulated (its gradients' relation to the face coordinates is not "
            "documented)");
   if (r.dim == TextureDim::Cube) {
      const unsigned face = unsigned(float_of(q.source[2])) % 8;
      std::array<std::array<double, 2>, 3> on_face{};
      bool seen = true;
      for (unsigned p = 0; p < 3 && seen; p++) {
         const unsigned from = unsigned(float_of(q.quad[p][2])) % 8;
         seen = from < 6 && face < 6 &&
                cube_coordinates_on(from, float_of(q.quad[p][0]), float_of(q.quad[p][1]), face, on_face[p][0],
                                    on_face[p][1]);
      }
      if (seen)
         for (unsigned d = 0; d < 2; d++)
            for (unsigned a = 0; a < 2; a++)
               derivatives[d][a] = float(on_face[d + 1][a] - on_face[0][a]);
   }
   std::array<double, 2> lengths{};
   for (unsigned d = 0; d < 2; d++) {
      double sum = 0.0;
      for (unsigned a = 0; a < spatial; a++) {
         const bool normalized = q.normalized[a] && !(sampler.force_unnormalized && a < 2);
         const double v = double(derivatives[d][a]) * (normalized ? double(sizes[a]) : 1.0);
         sum += v * v;
      }
      lengths[d] = std::sqrt(sum);
   }
   return lengths;
}

float implicit_lod(const TextureView &view, const Sampler &sampler, const TexRequest &q)
{
   const std::array<double, 2> lengths = footprint_lengths(view, sampler, q);
   const double rho = std::max(lengths[0], lengths[1]);
   if (!(rho > 0.0))
      return -std::numeric_limits<float>::infinity();
   return float(std::log2(rho));
}

/* The most probes the sampler and the resource allow, 1 when filtering is isotropic. The
 * sampler asks for anisotropy with XY_MAG/MIN_FILTER ANISO_POINT or ANISO_BILINEAR and
 * MAX_ANISO_RATIO 0..4 (1x..16x; r600g programs both filters aniso and the ratio from GL's
 * maximum: r600_pipe_common.h eg_tex_filter, r600_tex_aniso_filter). The resource's WORD6
 * MAX_ANISO_RATIO limits it (derived: r600g writes 4 there for views with mip levels and 0
 * for single-level views, evergreen_fill_tex_resource_words; the smaller ratio is used). */
unsigned anisotropic_probe_limit(const TextureView &view, const Sampler &sampler)
{
   const bool mag = sampler.mag_filter == TexFilter::AnisoPoint || sampler.mag_filter == TexFilter::AnisoBilinear;
   const bool min = sampler.min_filter == TexFilter::AnisoPoint || sampler.min_filter == TexFilter::AnisoBilinear;
   if (!mag && !min)
      return 1;
   if (mag != min)
      fault("an anisotropic XY_%s_FILTER with an isotropic XY_%s_FILTER is not simulated (r600g sets both or "
            "neither)",
            mag ? "MAG" : "MIN", mag ? "MIN" : "MAG");
   const unsigned resource_ratio = view.resource.max_aniso_ratio;
   if (sampler.max_aniso_ratio > 4 || resource_ratio > 4)
      fault("MAX_ANISO_RATIO %u (sampler) / %u (resource WORD6) is not defined: 0..4 mean 1x..16x",
            sampler.max_aniso_ratio, resource_ratio);
   return 1u << std::min(sampler.max_aniso_ratio, resource_ratio);
}

std::array<uint32_t, 4> run_sample(const TextureView &view, const Sampler &sampler,
                                   const std::array<float, 4> &register_border, const TexRequest &q)
{
   const TextureResource &r = view.resource;
   Lookup lookup(view, sampler, register_border);
   if (sampler.chroma_key)
      fault("sampler CHROMA_KEY (WORD0 bits 26:25 on Evergreen-class chips) is not simulated");
   if (sampler.mc_coord_truncate)
      fault("sampler MC_COORD_TRUNCATE is not simulated");
   /* DEPTH_COMPARE_FUNCTION is used by the SAMPLE_C forms only; r600g fills it in for every
    * sampler, so plain SAMPLE ignores it. The reference is in w, or in z for SAMPLE_C_L and
    * SAMPLE_C_LB whose w is the LOD or bias (Mesa r600 sfn TexInstr::prepare_source and
    * r600_shader.c tgsi_tex place it so). Where z also holds a 2D array's layer or a cube's
    * face the two cannot both be given: r600g turns those into SAMPLE_C_G instead
    * (r600_nir_lower_txl_txf_array_or_cube), so what the hardware reads there is unknown. */
   /* A comparison's result is the filtered 0/1 in x (the resource's DST_SEL does not move it). */
   auto finish = [&](const Texel &t) {
      return q.compare ? std::array<uint32_t, 4>{bits_of(t.f[0]), 0, 0, 0} : lookup.swizzle(t);
   };
   if (q.compare) {
      const bool reference_in_z = q.op == TexOp::SampleL || q.op == TexOp::SampleLB;
      if (reference_in_z && (r.dim == TextureDim::Dim2DArray || r.dim == TextureDim::Cube))
         fault("SAMPLE_C_L/SAMPLE_C_LB on a 2D array or cube: z would hold both the layer or face and the "
               "reference; what the hardware reads is not known (Mesa uses SAMPLE_C_G there)");
      lookup.compare_with(sampler.depth_compare, float_of(q.source[reference_in_z ? 2 : 3]));
      for (unsigned c = 1; c < 4; c++)
         if (q.result_used[c])
            fault("a SAMPLE_C form's result %c has no documented value (only x, the comparison, is "
                  "defined here); mask it with DST_SEL 7", "xyzw"[c]);
   }

   /* LOD: SAMPLE_L takes it from the w source; SAMPLE and SAMPLE_LB compute it from the
    * quad's derivatives in pixel shaders (0 without them: compute and vertex shaders), and
    * SAMPLE_LB adds the w source as a bias. The sampler's bias is added to all, then min/max
    * LOD clamp. */
   /* Anisotropic filtering takes N probes and λ from the footprint (AnisotropicFootprint), on
    * 1D, 2D and 2D array textures with an implicit LOD; 3D and cube textures stay isotropic
    * (derived: Vulkan describes the 2D case only). With one probe allowed this is the
    * isotropic path, unchanged. */
   AnisotropicFootprint footprint;
   float lod = 0.0f;
   if (q.op == TexOp::SampleL) {
      lod = float_of(q.source[3]);
   } else if ((q.op == TexOp::Sample || q.op == TexOp::SampleLB) && q.has_derivatives) {
      const unsigned max_probes = anisotropic_probe_limit(view, sampler);
      const bool planar = r.dim == TextureDim::Dim2D || r.dim == TextureDim::Dim2DArray ||
                          r.dim == TextureDim::Dim1D || r.dim == TextureDim::Dim1DArray;
      if (max_probes > 1 && planar) {
         const std::array<double, 2> lengths = footprint_lengths(view, sampler, q);
         footprint = anisotropic_footprint(lengths[0], lengths[1], max_probes);
         lod = footprint.lod;
      } else {
         lod = implicit_lod(view, sampler, q);
      }
   }
   if (q.op == TexOp::SampleLB)
      lod += float_of(q.source[3]);
   lod += sampler.lod_bias;
   lod = std::clamp(lod, sampler.min_lod, std::max(sampler.min_lod, sampler.max_lod));
   const TexFilter xy_filter = lod <= 0.0f ? sampler.mag_filter : sampler.min_filter;
   const bool linear = xy_filter == TexFilter::Bilinear || xy_filter == TexFilter::AnisoBilinear;
   const bool linear_z = sampler.z_filter == MipFilter::None ? linear : sampler.z_filter == MipFilter::Linear;

   const unsigned q_levels = r.last_level - r.base_level;
   const float d = std::clamp(lod, 0.0f, float(q_levels));
   unsigned level0 = r.base_level, level1 = r.base_level;
   float level_weight = 0.0f;
   switch (sampler.mip_filter) {
   case MipFilter::None:
      break;
   case MipFilter::Point:
      level0 = level1 = r.base_level + unsigned(std::ceil(d + 0.5f) - 1.0f);
      break;
   case MipFilter::Linear:
      level0 = r.base_level + unsigned(std::floor(d));
      level1 = std::min(level0 + 1, r.last_level);
      level_weight = d - std::floor(d);
      break;
   default:
      fault("sampler MIP_FILTER 3 is not defined");
   }
   if (lookup.integer && level_weight != 0.0f)
      fault("linear mip filtering of an integer texture (NUM_FORMAT_ALL = INT) has no defined result");

   if (r.dim == TextureDim::Cube) {
      /* x and y are the face coordinates CUBE + RECIP + MULADD produce, sc / |2 ma| + 1.5 and
       * tc / |2 ma| + 1.5, in [1, 2]: u = x - 1 and v = y - 1 on the face, which is Vulkan's
       * (sc / |ma| + 1) / 2. Clamped to the face (a rounding error must not reach the next
       * texel; derived). */
      if (!q.normalized[0] || !q.normalized[1] || sampler.force_unnormalized)
         fault("cube face coordinates (x, y) must be normalized (COORD_TYPE_X/Y = 1, no FORCE_UNNORMALIZED)");
      if (q.offset_halves[0] || q.offset_halves[1] || q.offset_halves[2])
         fault("texel offsets on a cube are not simulated (no API allows them)");
      const CubeLocation at = cube_location(r, float_of(q.source[2]), q.normalized[2]);
      const float u = std::clamp(float_of(q.source[0]) - 1.0f, 0.0f, 1.0f);
      const float v = std::clamp(float_of(q.source[1]) - 1.0f, 0.0f, 1.0f);
      auto one_level = [&](unsigned level) {
         const float n = float(view.levels[level].width);
         return lookup.sample_cube_level(level, u * n, v * n, at.face, at.first_slice, linear);
      };
      Texel t = one_level(level0);
      if (level_weight != 0.0f) {
         const Texel t1 = one_level(level1);
         for (unsigned c = 0; c < 4; c++)
            t.f[c] = t.f[c] * (1.0f - level_weight) + t1.f[c] * level_weight;
      }
      return finish(t);
   }

   /* FORCE_UNNORMALIZED (Cayman/Aruba sampler WORD0 bit 25) makes x and y unnormalized
    * whatever COORD_TYPE says. */
   std::array<bool, 3> normalized = {q.normalized[0], q.normalized[1], q.normalized[2]};
   if (sampler.force_unnormalized)
      normalized[0] = normalized[1] = false;

   int slice = int(r.base_array);
   if (is_array(r.dim)) {
      const unsigned channel = layer_channel(r.dim);
      slice = select_layer(r, float_of(q.source[channel]), q.normalized[channel]);
   }
   const unsigned spatial = r.dim == TextureDim::Dim3D ? 3
                            : (r.dim == TextureDim::Dim1D || r.dim == TextureDim::Dim1DArray) ? 1 : 2;

   /* `probe` >= 0: the coordinates moved by anisotropic_probe_offset(probe) times the major
    * difference, in the coordinates' own units. */
   auto level_coords = [&](unsigned level, int probe) {
      const TextureView::Level &l = view.levels[level];
      const unsigned sizes[3] = {l.width, l.height, l.depth};
      std::array<float, 3> u{};
      for (unsigned a = 0; a < spatial; a++) {
         float s = float_of(q.source[a]);
         if (probe >= 0)
            s += anisotropic_probe_offset(unsigned(probe), footprint.probes) * q.derivatives[footprint.major][a];
         u[a] = (normalized[a] ? s * float(sizes[a]) : s) + float(q.offset_halves[a]) * 0.5f;
      }
      return u;
   };
   auto filtered = [&](int probe) {
      Texel t = lookup.sample_level(level0, level_coords(level0, probe), slice, linear, linear_z);
      if (level_weight != 0.0f) {
         const Texel t1 = lookup.sample_level(level1, level_coords(level1, probe), slice, linear, linear_z);
         for (unsigned c = 0; c < 4; c++)
            t.f[c] = t.f[c] * (1.0f - level_weight) + t1.f[c] * level_weight;
      }
      return t;
   };
   if (footprint.probes == 1)
      return finish(filtered(-1));
   /* The probes' average (Vulkan's τ2Daniso), each filtered as the isotropic path filters. */
   if (lookup.integer)
      fault("anisotropic filtering of an integer texture (NUM_FORMAT_ALL = INT) has no defined result");
   Texel sum;
   for (unsigned i = 0; i < footprint.probes; i++) {
      const Texel t = filtered(int(i));
      for (unsigned c = 0; c < 4; c++)
         sum.f[c] += t.f[c];
   }
   for (unsigned c = 0; c < 4; c++)
      sum.f[c] /= float(footprint.probes);
   return finish(sum);
}

/* GET_LOD (textureQueryLod): the level of detail SAMPLE would take at these coordinates, in
 * two results. Which result is which comes from r600g: it reads GL's first value (the level
 * accessed) from y and GL's second (the computed level of detail) from x (r600_shader.c
 * tgsi_tex's LODQ swizzle, sfn TexInstr::emit_tex_lod's {1, 0, 7, 7}). What the values are is
 * derived, with r600g's `texture_query_lod` GL scene against llvmpipe as the check
 * (docs/sim-semantics.md): x is λ from the quad as SAMPLE computes it (anisotropic footprints
 * included) plus the sampler's LOD_BIAS, before MIN_LOD/MAX_LOD; y is GL's "accessed level"
 * (ARB_texture_query_lod's ComputeAccessedLod): λ clamped to MIN_LOD..MAX_LOD and then to the
 * view's levels 0..LAST_LEVEL - BASE_LEVEL, 0 without mipmapping, the level a nearest mip
 * filter picks, or the fractional level a linear one blends. z and w have no known value. */
std::array<uint32_t, 4> run_get_lod(const TextureView &view, const Sampler &sampler, const TexRequest &q)
{
   const TextureResource &r = view.resource;
   if (!q.has_derivatives)
      fault("GET_LOD outside a pixel shader's quads (or of a killed quad) has no level of detail to report");
   if (q.explicit_gradients)
      fault("GET_LOD after SET_GRADIENTS is not simulated");
   for (unsigned c = 2; c < 4; c++)
      if (q.result_used[c])
         fault("GET_LOD's result %c has no documented value (x and y only); mask it with DST_SEL 7", "xyzw"[c]);
   if (texture_dim_is_msaa(r.dim))
      fault("GET_LOD of SQ_TEX_DIM %u has no level of detail", unsigned(r.dim));
   const unsigned max_probes = anisotropic_probe_limit(view, sampler);
   const bool planar = r.dim == TextureDim::Dim2D || r.dim == TextureDim::Dim2DArray || r.dim == TextureDim::Dim1D ||
                       r.dim == TextureDim::Dim1DArray;
   float lod;
   if (max_probes > 1 && planar) {
      const std::array<double, 2> lengths = footprint_lengths(view, sampler, q);
      lod = anisotropic_footprint(lengths[0], lengths[1], max_probes).lod;
   } else {
      lod = implicit_lod(view, sampler, q);
   }
   lod += sampler.lod_bias;
   const float clamped = std::clamp(lod, sampler.min_lod, std::max(sampler.min_lod, sampler.max_lod));
   const float d = std::clamp(clamped, 0.0f, float(r.last_level - r.base_level));
   float accessed = 0.0f;
   switch (sampler.mip_filter) {
   case MipFilter::None: break;
   case MipFilter::Point: accessed = std::ceil(d + 0.5f) - 1.0f; break;
   case MipFilter::Linear: accessed = d; break;
   default: fault("sampler MIP_FILTER 3 is not defined");
   }
   return {bits_of(lod), bits_of(accessed), 0, 0};
}

/* GATHER4 / GATHER4_C: the four texels of the bilinear footprint at the base level (Vulkan's
 * and GL's level 0 for gathers), one component of each: the resource-swizzled component
 * INST_MOD selects (Mesa r600 puts textureGather's component in INST_MOD: r600_shader.c
 * tgsi_tex, sfn TexInstr::set_gather_comp), or with GATHER4_C each texel's 0/1 depth comparison
 * with the reference in w (as for SAMPLE_C). The footprint is the bilinear one whatever the
 * sampler's filters (derived), except for NUM_FORMAT_ALL = INT, where the hardware uses the
 * nearest filter's rounding, so the footprint is half a texel further on (Mesa r600's comment
 * and workaround: r600_nir_lower_int_tg4 subtracts half a texel before integer gathers).
 * Order: Cayman returns Vulkan's (i0,j1), (i1,j1), (i1,j0), (i0,j0); the Evergreen class
 * returns (i1,j0), (i0,j1), (i1,j1), (i0,j0) (Mesa r600 reads TG4 x, y, z, w from result y, z,
 * x, w before Cayman and straight on Cayman: r600_shader.c tgsi_tex, sfn lower_tg4's
 * dest_swizzle). */
std::array<uint32_t, 4> run_gather(const TextureView &view, const Sampler &sampler,
                                   const std::array<float, 4> &register_border, const TexRequest &q)
{
   const TextureResource &r = view.resource;
   if (r.dim != TextureDim::Dim2D && r.dim != TextureDim::Dim2DArray && r.dim != TextureDim::Cube)
      fault("GATHER4 of SQ_TEX_DIM %u is not simulated (2D, 2D array and cube resources are)", unsigned(r.dim));
   if (sampler.chroma_key)
      fault("sampler CHROMA_KEY (WORD0 bits 26:25 on Evergreen-class chips) is not simulated");
   if (sampler.mc_coord_truncate)
      fault("sampler MC_COORD_TRUNCATE is not simulated");
   if (q.gather_component > 3)
      fault("GATHER4 INST_MOD %u names no component", q.gather_component);
   Lookup lookup(view, sampler, register_border);
   if (q.compare)
      lookup.compare_with(sampler.depth_compare, float_of(q.source[3]));
   auto ordered = [&](const std::array<uint32_t, 4> &vulkan_order) {
      if (q.cayman_gather_order)
         return vulkan_order;
      return std::array<uint32_t, 4>{vulkan_order[2], vulkan_order[0], vulkan_order[1], vulkan_order[3]};
   };
   if (r.dim == TextureDim::Cube) {
      /* Face coordinates and face as SAMPLE takes them on a cube (run_sample); the footprint
       * at the base level crosses edges as filtering does (seamless; derived). r600g gathers
       * from cubes this way (sfn r600_nir_lower_cube_to_2darray keeps tg4) but leaves integer
       * cube gathers unshifted, unlike 2D ones, so where the hardware puts their footprint is
       * not known. */
      if (lookup.integer)
         fault("GATHER4 of an integer cube (NUM_FORMAT_ALL = INT) is not simulated: its footprint's place "
               "is not known");
      if (!q.normalized[0] || !q.normalized[1] || sampler.force_unnormalized)
         fault("cube face coordinates (x, y) must be normalized (COORD_TYPE_X/Y = 1, no FORCE_UNNORMALIZED)");
      if (q.offset_halves[0] || q.offset_halves[1] || q.offset_halves[2])
         fault("texel offsets on a cube are not simulated (no API allows them)");
      const CubeLocation at = cube_location(r, float_of(q.source[2]), q.normalized[2]);
      const float n = float(view.levels[r.base_level].width);
      const float u = std::clamp(float_of(q.source[0]) - 1.0f, 0.0f, 1.0f) * n;
      const float v = std::clamp(float_of(q.source[1]) - 1.0f, 0.0f, 1.0f) * n;
      const auto taps = lookup.cube_footprint(r.base_level, u, v, at.face, at.first_slice);
      auto component = [&](int i, int j) {
         return q.compare ? bits_of(taps[j][i].f[0]) : lookup.swizzle(taps[j][i])[q.gather_component];
      };
      return ordered({component(0, 1), component(1, 1), component(1, 0), component(0, 0)});
   }
   std::array<bool, 2> normalized = {q.normalized[0], q.normalized[1]};
   if (sampler.force_unnormalized)
      normalized[0] = normalized[1] = false;
   int slice = int(r.base_array);
   if (r.dim == TextureDim::Dim2DArray)
      slice = select_layer(r, float_of(q.source[2]), q.normalized[2]);
   const unsigned level = r.base_level;
   const TextureView::Level &l = view.levels[level];
   const int sizes[2] = {int(l.width), int(l.height)};
   AxisTaps taps[2];
   for (unsigned a = 0; a < 2; a++) {
      const float s = float_of(q.source[a]);
      float u = (normalized[a] ? s * float(sizes[a]) : s) + float(q.offset_halves[a]) * 0.5f;
      if (lookup.integer)
         u += 0.5f;
      taps[a] = axis_taps(u, sizes[a], sampler.clamp[a], true);
   }
   auto component = [&](bool xi, bool yi) {
      const bool border = (xi ? taps[0].border1 : taps[0].border0) || (yi ? taps[1].border1 : taps[1].border0);
      const Texel t = border ? lookup.border_texel()
                             : lookup.fetch(level, xi ? taps[0].i1 : taps[0].i0, yi ? taps[1].i1 : taps[1].i0, slice);
      return q.compare ? bits_of(t.f[0]) : lookup.swizzle(t)[q.gather_component];
   };
   return ordered({component(false, true), component(true, true), component(true, false), component(false, false)});
}

std::array<uint32_t, 4> run_ld_msaa(const TextureView &view, const Sampler &sampler, const TexRequest &q);

std::array<uint32_t, 4> run_ld(const TextureView &view, const Sampler &sampler, const TexRequest &q)
{
   const TextureResource &r = view.resource;
   if (r.dim == TextureDim::Cube)
      fault("LD from a cube view is not simulated (no API fetches from a cube; view the faces as a 2D "
           "array instead)");
   if (texture_dim_is_msaa(r.dim))
      return run_ld_msaa(view, sampler, q);
   static const std::array<float, 4> no_border{};
   Lookup lookup(view, sampler, no_border);
   const int lod = int32_t(q.source[3]);
   Texel zero;
   zero.f = {0, 0, 0, 0};
   zero.i = {0, 0, 0, 0};
   if (lod < 0 || unsigned(lod) > r.last_level - r.base_level)
      return lookup.swizzle(zero);
   const unsigned level = r.base_level + unsigned(lod);
   const TextureView::Level &l = view.levels[level];
   int coord[3] = {0, 0, 0};
   const unsigned spatial = r.dim == TextureDim::Dim3D ? 3
                            : (r.dim == TextureDim::Dim1D || r.dim == TextureDim::Dim1DArray) ? 1 : 2;
   const unsigned sizes[3] = {l.width, l.height, l.depth};
   for (unsigned a = 0; a < spatial; a++) {
      if (q.offset_halves[a] % 2)
         fault("LD with a half-texel offset has no defined result");
      coord[a] = int32_t(q.source[a]) + q.offset_halves[a] / 2;
      if (coord[a] < 0 || unsigned(coord[a]) >= sizes[a])
         return lookup.swizzle(zero);
   }
   int slice = r.dim == TextureDim::Dim3D ? coord[2] : int(r.base_array);
   if (is_array(r.dim)) {
      const int layer = int32_t(q.source[layer_channel(r.dim)]);
      if (layer < 0 || layer > int(r.last_array) - int(r.base_array))
         return lookup.swizzle(zero);
      slice = int(r.base_array) + layer;
   }
   return lookup.swizzle(lookup.fetch(level, coord[0], coord[1], slice));
}

/* The pixel an LD or LDFPTR of a multisampled resource addresses: x and y (integers, plus
 * the instruction's whole-texel offsets), and the layer in z for 2D_ARRAY_MSAA. False outside
 * the surface (LD then returns zeros as it does for other resources; derived). */
bool msaa_pixel(const TextureView &view, const TexRequest &q, int &x, int &y, int &slice)
{
   const TextureResource &r = view.resource;
   int coord[2];
   const unsigned sizes[2] = {r.width, r.height};
   for (unsigned a = 0; a < 2; a++) {
      if (q.offset_halves[a] % 2)
         fault("LD with a half-texel offset has no defined result");
      coord[a] = int32_t(q.source[a]) + q.offset_halves[a] / 2;
      if (coord[a] < 0 || unsigned(coord[a]) >= sizes[a])
         return false;
   }
   x = coord[0];
   y = coord[1];
   slice = int(r.base_array);
   if (r.dim == TextureDim::Dim2DArrayMsaa) {
      const int layer = int32_t(q.source[2]);
      if (layer < 0 || layer > int(r.last_array) - int(r.base_array))
         return false;
      slice = int(r.base_array) + layer;
   }
   return true;
}

/* LD of a multisampled resource: w names the fragment to read, the index FMASK gives for a
 * sample (Mesa r600_shader.c tgsi_tex and sfn lower_txf_ms read FMASK with LDFPTR first and
 * pass the sample's nibble as w); the fragment is decoded like any texel. */
std::array<uint32_t, 4> run_ld_msaa(const TextureView &view, const Sampler &sampler, const TexRequest &q)
{
   static const std::array<float, 4> no_border{};
   Lookup lookup(view, sampler, no_border);
   Texel zero;
   int x, y, slice;
   const uint32_t fragment = q.source[3];
   if (!msaa_pixel(view, q, x, y, slice) || fragment >= view.samples)
      return lookup.swizzle(zero);
   return lookup.swizzle(lookup.fetch_fragment(x, y, slice, fragment));
}

/* LDFPTR: the pixel's FMASK with each sample's fragment index widened to a nibble, sample 0
 * in bits 3:0 (r600_shader.c: "ldfptr ... Each nibble says which physical sample should be
 * fetched"; an uncompressed 8x surface reads 0x76543210), in x, before the resource's DST_SEL
 * (r600g reads x whatever the format's swizzle). Nibbles past the sample count read 0
 * (derived: no reader looks at them). y, z and w have no documented value. */
std::array<uint32_t, 4> run_ld_fmask(const TextureView &view, const TexRequest &q)
{
   if (!texture_dim_is_msaa(view.resource.dim))
      fault("LDFPTR (LD with INST_MOD 1) of a resource that is not multisampled (SQ_TEX_DIM %u) has no defined "
           "result",
           unsigned(view.resource.dim));
   if (q.result_used[1] || q.result_used[2] || q.result_used[3])
      fault("LDFPTR's y, z and w have no documented value; mask them with DST_SEL 7");
   int x, y, slice;
   if (!msaa_pixel(view, q, x, y, slice))
      return {0, 0, 0, 0}; /* derived, as LD outside a surface */
   if (!view.fmask.data) {
      /* FMASK disabled (MIP_ADDRESS 0, as r600g programs multisampled depth: "disable FMASK
       * (0 = disabled)"): the identity, sample s in fragment s (r600_shader.c: an uncompressed
       * surface reads 0x76543210 with 8 samples; r600g reads its multisampled depth textures
       * through LDFPTR so). */
      uint32_t identity = 0;
      for (unsigned s = 0; s < view.samples; s++)
         identity |= s << (4 * s);
      return {identity, 0, 0, 0};
   }
   const uint64_t offset = surface_level_texel_offset(view.fmask.addressing, unsigned(x), unsigned(y), unsigned(slice));
   const unsigned bytes = view.fmask.addressing.bytes_per_element;
   if (offset + bytes > view.fmask.size)
      fault("the FMASK of texel (%d, %d, %d) lies beyond its memory", x, y, slice);
   uint32_t stored = 0;
   std::memcpy(&stored, view.fmask.data + offset, bytes);
   const unsigned bits = msaa::fmask_bits_per_sample(view.samples);
   uint32_t nibbles = 0;
   for (unsigned s = 0; s < view.samples; s++) {
      const uint32_t fragment = (stored >> (bits * s)) & ((1u << bits) - 1);
      if (fragment >= view.samples)
         fault("FMASK of texel (%d, %d, %d) names fragment %u of %u (not simulated)", x, y, slice, fragment,
              view.samples);
      nibbles |= fragment << (4 * s);
   }
   return {nibbles, 0, 0, 0};
}

/* GET_NUMBER_OF_SAMPLES: the resource's sample count in w (r600g's TXQS reads w with the
 * sources masked); x, y and z have no documented value, nor has a resource that is not
 * multisampled. */
std::array<uint32_t, 4> run_num_samples(const TextureView &view, const TexRequest &q)
{
   if (!texture_dim_is_msaa(view.resource.dim))
      fault("GET_NUMBER_OF_SAMPLES of a resource that is not multisampled (SQ_TEX_DIM %u) has no documented value",
           unsigned(view.resource.dim));
   if (q.result_used[0] || q.result_used[1] || q.result_used[2])
      fault("GET_NUMBER_OF_SAMPLES's x, y and z have no documented value; mask them with DST_SEL 7");
   return {0, 0, 0, view.samples};
}

std::array<uint32_t, 4> run_resinfo(const TextureView &view, const TexRequest &q)
{
   const TextureResource &r = view.resource;
   if (texture_dim_is_msaa(r.dim)) {
      /* Width and height of the surface, and the layers of an array in z as for 2D arrays
       * (derived from the other dimensions). LAST_LEVEL holds the sample count here, so the
       * level count in w and other levels have no defined value. */
      if (int32_t(q.source[0]) != 0)
         fault("GET_TEXTURE_RESINFO of level %d of a multisampled resource has no defined value",
              int32_t(q.source[0]));
      if (q.result_used[3])
         fault("GET_TEXTURE_RESINFO's w (levels) of a multisampled resource has no defined value; mask it with "
              "DST_SEL 7");
      return {r.width, r.height, r.dim == TextureDim::Dim2DArrayMsaa ? r.depth : 1u, 0};
   }
   const int lod = int32_t(q.source[0]);
   if (lod < 0 || unsigned(lod) > r.last_level - r.base_level)
      return {0, 0, 0, r.last_level - r.base_level + 1};
   const unsigned level = r.base_level + unsigned(lod);
   const uint32_t width = minify(r.width, level);
   uint32_t height = minify(r.height, level), depth = 1;
   switch (r.dim) {
   case TextureDim::Dim1D: height = 1; break;
   case TextureDim::Dim1DArray: height = r.depth; break;
   case TextureDim::Dim3D: depth = minify(r.depth, level); break;
   case TextureDim::Dim2DArray: depth = r.depth; break;
   case TextureDim::Cube:
      /* Width and height of a face are the query's answer for a cube. What the hardware puts
       * in z is not documented to us, and Mesa never reads it: for cube arrays it takes the
       * number of cubes from a driver constant buffer instead (r600_shader.c
       * has_txq_cube_array_z, sfn emit_tex_txs), and a plain cube's size has two components.
       * So reading z stops the dispatch. */
      if (q.result_used[2])
         fault("GET_TEXTURE_RESINFO's z on a cube has no documented value (Mesa reads the number of "
              "cubes from a constant instead); mask it with DST_SEL 7");
      break;
   default: break;
   }
   return {width, height, depth, r.last_level - r.base_level + 1};
}

} // namespace

AnisotropicFootprint anisotropic_footprint(double rho_x, double rho_y, unsigned max_probes)
{
   AnisotropicFootprint footprint;
   footprint.major = rho_x > rho_y ? 0 : 1;
   const double rho_max = std::max(rho_x, rho_y), rho_min = std::min(rho_x, rho_y);
   if (!(rho_max > 0.0)) {
      footprint.lod = -std::numeric_limits<float>::infinity();
      return footprint;
   }
   /* η = ρmax / ρmin, limited to the sampler's ratio; a line footprint (ρmin 0) takes the
    * limit, as Vulkan says. */
   const double ratio = rho_min > 0.0 ? rho_max / rho_min : double(max_probes);
   footprint.probes = unsigned(std::min(std::ceil(ratio), double(max_probes)));
   footprint.lod = float(std::log2(rho_max / double(footprint.probes)));
   return footprint;
}

float anisotropic_probe_offset(unsigned i, unsigned probes)
{
   return float(i + 1) / float(probes + 1) - 0.5f;
}

float srgb_to_linear(float c)
{
   /* The sRGB EOTF (IEC 61966-2-1), as Vulkan's sRGB formats define it. */
   if (c <= 0.04045f)
      return c / 12.92f;
   return float(std::pow((double(c) + 0.055) / 1.055, 2.4));
}

float half_to_float(uint16_t h)
{
   const uint32_t sign = h >> 15, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
   float value;
   if (exponent == 0)
      value = std::ldexp(float(mantissa), -24);
   else if (exponent == 31)
      value = mantissa ? NAN : INFINITY;
   else
      value = std::ldexp(float(mantissa | 0x400), int(exponent) - 25);
   return sign ? -value : value;
}

CubeTexel cube_texel_across_edge(const CubeTexel &outside, int size)
{
   /* Work in half-texel units where a face spans [-size, size]: texel k has its centre at
    * 2k + 1 - size. The position outside the face is moved onto the shared edge (its
    * out-of-range coordinate becomes +-size), giving a point of the cube's edge in direction
    * space; the adjacent face is the one whose major axis that coordinate ran along. On that
    * face the point is on the edge again, and the texel across is the first row or column
    * there, at the same place along the edge. */
   const CubeFace &from = cube_faces[outside.face];
   const bool i_out = outside.i < 0 || outside.i >= size;
   auto centre = [size](int k) { return 2 * k + 1 - size; };
   int sc = centre(outside.i), tc = centre(outside.j);
   if (i_out)
      sc = sc < 0 ? -size : size;
   else
      tc = tc < 0 ? -size : size;
   int point[3];
   point[from.major_axis] = from.major_sign * size;
   point[from.s_axis] = from.s_sign * sc;
   point[from.t_axis] = from.t_sign * tc;
   const unsigned axis = i_out ? from.s_axis : from.t_axis;
   const unsigned face = axis * 2 + (point[axis] < 0 ? 1 : 0);
   const CubeFace &to = cube_faces[face];
   auto index = [size](int c) {
      if (c <= -size)
         return 0;
      if (c >= size)
         return size - 1;
      return (c + size - 1) / 2;
   };
   return {face, index(to.s_sign * point[to.s_axis]), index(to.t_sign * point[to.t_axis])};
}

namespace {

/* A multisampled resource: one level at BASE_ADDRESS in the layout the colour block writes
 * (gfx/msaa.cpp: PITCH x the height aligned to a micro or macro tile x bytes x samples a
 * layer, LAST_ARRAY + 1 layers), and FMASK at MIP_ADDRESS as the colour block keeps it for
 * such a surface (CB_COLORn_FMASK: 2D tiled in the non-displayable order, 1 byte a pixel for
 * 2 and 4 samples, 4 for 8, the colour's pitch, height and tiling codes with
 * FMASK_BANK_HEIGHT from WORD6; Mesa evergreen_fill_tex_resource_words puts
 * r600_texture_get_fmask_info's surface there). */
bool prepare_msaa_view(const TextureResource &r, const TilingConfig &tiling, GpuMemory &memory, TextureView &view,
                       std::string &error)
{
   view.samples = 1u << r.last_level;
   if (view.samples < 2 || view.samples > 8) {
      error = "multisampled resource with LAST_LEVEL " + std::to_string(r.last_level) + " (" +
              std::to_string(view.samples) + " samples): 2, 4 and 8 are simulated";
      return false;
   }
   if (r.log2_fragments && (1u << r.log2_fragments) != view.samples) {
      error = "LOG2_NUM_FRAGMENTS " + std::to_string(r.log2_fragments) +
              " below the sample count (EQAA) is not simulated";
      return false;
   }
   if (r.base_level) {
      error = "multisampled resource with BASE_LEVEL " + std::to_string(r.base_level) + " (it has one level)";
      return false;
   }
   if (view.block_dim != 1) {
      error = "multisampled block-compressed resources are not simulated";
      return false;
   }
   if (r.array_mode != ArrayMode::Tiled1DThin1 && r.array_mode != ArrayMode::Tiled2DThin1) {
      error = "a multisampled resource must be tiled (ARRAY_MODE " + std::to_string(unsigned(r.array_mode)) + ")";
      return false;
   }
   LevelAddressing &a = view.colour_addressing;
   a.mode = r.array_mode;
   a.pitch = r.pitch;
   a.bytes_per_element = view.bytes_per_element;
   a.non_displayable_order = r.non_disp_tiling_order;
   a.tiling = tiling;
   a.samples = view.samples;
   /* DEPTH_SAMPLE_ORDER: a surface the DB wrote, a pixel's samples side by side (hw/surface.h). */
   a.depth_sample_order = r.depth_sample_order;
   uint64_t address = r.base_address;
   unsigned height_alignment = 8;
   if (a.mode == ArrayMode::Tiled2DThin1) {
      a.macro = macro_tiling_from_resource(r);
      view.macro = a.macro;
      const SurfaceAlignment align = surface_alignment_2d(tiling, a.macro, view.bytes_per_element * view.samples);
      height_alignment = align.height;
      if (r.pitch % align.pitch) {
         error = "2D-tiled multisampled PITCH " + std::to_string(r.pitch) + " is not a multiple of the macro tile width " +
                 std::to_string(align.pitch);
         return false;
      }
      address = macro_tiled_surface_start(address, tiling, a.macro.banks, a.swizzle);
   }
   a.aligned_height = (r.height + height_alignment - 1) / height_alignment * height_alignment;
   TextureView::Level l;
   l.width = r.width;
   l.height = r.height;
   l.pitch = r.pitch;
   l.aligned_height = a.aligned_height;
   l.mode = a.mode;
   l.swizzle = a.swizzle;
   l.size = uint64_t(a.pitch) * a.aligned_height * view.bytes_per_element * view.samples * view.layers;
   std::string resolve_error;
   l.data = memory.resolve(address, l.size, resolve_error);
   if (!l.data) {
      error = "multisampled texture at BASE_ADDRESS: " + resolve_error;
      return false;
   }
   view.levels.push_back(l);

   if (!r.mip_address)
      return true; /* no FMASK: each sample is its own fragment (run_ld_fmask) */
   if (a.mode != ArrayMode::Tiled2DThin1) {
      error = "FMASK (MIP_ADDRESS) of a multisampled resource that is not 2D tiled is not simulated";
      return false;
   }
   LevelAddressing &f = view.fmask.addressing;
   f.mode = ArrayMode::Tiled2DThin1;
   f.pitch = a.pitch;
   f.bytes_per_element = msaa::fmask_bytes_per_pixel(view.samples);
   f.non_displayable_order = true;
   f.tiling = tiling;
   f.macro = macro_tiling_from_codes(r.tile_split, r.num_banks, r.bank_width, r.max_aniso_ratio & 3,
                                     r.macro_tile_aspect);
   /* Its rows: the height aligned to FMASK's own macro tile (its bank height may differ from
    * the colour's), as an ordinary 2D surface of its element size (r600g allocates it so). */
   const unsigned fmask_rows = surface_alignment_2d(tiling, f.macro, f.bytes_per_element).height;
   f.aligned_height = (r.height + fmask_rows - 1) / fmask_rows * fmask_rows;
   if (f.pitch % surface_alignment_2d(tiling, f.macro, f.bytes_per_element).pitch) {
      error = "FMASK's macro tile (FMASK_BANK_HEIGHT) does not fit PITCH " + std::to_string(f.pitch);
      return false;
   }
   view.fmask.size = uint64_t(f.pitch) * f.aligned_height * f.bytes_per_element * view.layers;
   const uint64_t fmask_start = macro_tiled_surface_start(r.mip_address, tiling, f.macro.banks, f.swizzle);
   view.fmask.data = memory.resolve(fmask_start, view.fmask.size, resolve_error);
   if (!view.fmask.data) {
      error = "FMASK at MIP_ADDRESS: " + resolve_error;
      return false;
   }
   return true;
}

} // namespace

bool prepare_texture_view(const TextureResource &r, const TilingConfig &tiling, GpuMemory &memory,
                          TextureView &view, std::string &error)
{
   view = {};
   view.resource = r;
   view.tiling = tiling;
   view.bytes_per_element = format_bytes_per_element(r.format);
   view.block_dim = format_block_dimension(r.format);
   if (!view.bytes_per_element) {
      error = "texture data format " + std::to_string(unsigned(r.format)) + " is not a texture format";
      return false;
   }
   const bool is_3d = r.dim == TextureDim::Dim3D;
   /* Slices in memory, as the kernel's checker counts them (LAST_ARRAY + 1 for every
    * non-3D dimension): a 2D view of one layer of an array keeps BASE_ARRAY/LAST_ARRAY. */
   view.layers = is_3d ? 1 : r.last_array + 1;
   if (texture_dim_is_msaa(r.dim))
      return prepare_msaa_view(r, tiling, memory, view, error);

   SurfaceDescription desc;
   desc.width = r.width;
   desc.height = r.height;
   desc.depth = is_3d ? r.depth : 1;
   desc.layers = is_3d ? 1 : view.layers;
   desc.levels = r.last_level + 1;
   desc.bytes_per_element = view.bytes_per_element;
   desc.block_dim = view.block_dim;
   desc.is_3d = is_3d;
   desc.mode = r.array_mode;
   desc.non_displayable_order = r.non_disp_tiling_order;
   desc.tiling = tiling;
   if (r.array_mode == ArrayMode::Tiled2DThin1) {
      /* The words carry the surface's own parameters (bank count included); pipes and group
       * size are the board's. */
      desc.choose_macro_tiling = false;
      desc.macro = macro_tiling_from_resource(r);
      view.macro = desc.macro;
   }
   SurfaceLayout layout;
   if (!compute_surface_layout(Family::Cayman, desc, layout, error))
      return false;

   for (unsigned level = 0; level <= r.last_level; level++) {
      const SurfaceLevel &s = layout.levels[level];
      TextureView::Level l;
      l.width = s.width;
      l.height = s.height;
      l.depth = s.depth;
      l.mode = s.mode;
      l.aligned_height = s.aligned_height;
      l.pitch = s.pitch;
      uint64_t address = r.mip_address + (s.offset - layout.mip_offset);
      if (level == 0) {
         /* Level 0 uses the resource's PITCH (in texels; the kernel counts it in blocks). */
         l.pitch = r.pitch / view.block_dim;
         address = r.base_address;
      }
      /* Only the layers the resource names must be in memory (the kernel checks LAST_ARRAY + 1);
       * the power-of-two reservation only places the next level. */
      l.size = uint64_t(l.pitch) * l.aligned_height * view.bytes_per_element * (is_3d ? s.slices : view.layers);
      if (l.mode == ArrayMode::Tiled2DThin1) {
         if (level == 0 && (l.pitch % layout.macro_tile_width || l.pitch < layout.macro_tile_width)) {
            error = "2D-tiled level 0 PITCH " + std::to_string(l.pitch) + " is not a multiple of the macro tile width " +
                    std::to_string(layout.macro_tile_width);
            return false;
         }
         /* The pipe and bank bits of the level's address select a swizzle (addrlib's reading);
          * the level starts at the address with those bits cleared. */
         address = macro_tiled_surface_start(address, tiling, view.macro.banks, l.swizzle);
      }
      std::string resolve_error;
      uint8_t *data = memory.resolve(address, l.size, resolve_error);
      if (!data) {
         char text[160];
         std::snprintf(text, sizeof(text), "texture level %u at 0x%llx (%llu bytes, from %s): ", level,
                       (unsigned long long)address, (unsigned long long)l.size,
                       level == 0 ? "BASE_ADDRESS" : "MIP_ADDRESS");
         error = text + resolve_error;
         return false;
      }
      l.data = data;
      view.levels.push_back(l);
   }
   return true;
}

bool texture_execute(const TextureView &view, const Sampler &sampler, const std::array<float, 4> &register_border,
                     const TexRequest &request, std::array<uint32_t, 4> &result, std::string &error)
{
   try {
      check_dim(view.resource);
      switch (request.op) {
      case TexOp::Sample:
      case TexOp::SampleL:
      case TexOp::SampleLB:
      case TexOp::SampleLZ:
         if (texture_dim_is_msaa(view.resource.dim))
            fault("sampling a multisampled resource (SQ_TEX_DIM %u) has no defined result: read its fragments "
                 "with LD",
                 unsigned(view.resource.dim));
         result = run_sample(view, sampler, register_border, request);
         break;
      case TexOp::Gather:
         result = run_gather(view, sampler, register_border, request);
         break;
      case TexOp::GetLod:
         result = run_get_lod(view, sampler, request);
         break;
      case TexOp::LdFmask:
         result = run_ld_fmask(view, request);
         break;
      case TexOp::NumSamples:
         result = run_num_samples(view, request);
         break;
      case TexOp::Ld:
         result = run_ld(view, sampler, request);
         break;
      case TexOp::ResInfo:
         result = run_resinfo(view, request);
         break;
      }
   } catch (const SimulatorFault &failure) {
      error = failure.message;
      return false;
   }
   return true;
}

} // namespace terakan::sim
