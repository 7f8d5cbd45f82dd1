#include "depth_buffer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "core/alu_semantics.h"
#include "hw/graphics_registers.h"
#include "hw/msaa.h"
#include "hw/registers.h"

namespace terakan::sim {

using namespace hw::gfx;

namespace {

/* NEVER, LESS, EQUAL, LEQUAL, GREATER, NOTEQUAL, GEQUAL, ALWAYS: `a FUNC b`. */
template <typename T> bool compare(uint32_t func, T a, T b)
{
   switch (func) {
   case 0: return false;
   case 1: return a < b;
   case 2: return a == b;
   case 3: return a <= b;
   case 4: return a > b;
   case 5: return a != b;
   case 6: return a >= b;
   default: return true;
   }
}

uint8_t stencil_operation(uint32_t operation, uint8_t value, uint8_t reference)
{
   switch (operation) {
   case 0: return value;
   case 1: return 0;
   case 2: return reference;
   case 3: return value == 0xff ? value : uint8_t(value + 1);
   case 4: return value == 0 ? value : uint8_t(value - 1);
   case 5: return uint8_t(~value);
   case 6: return uint8_t(value + 1);
   default: return uint8_t(value - 1);
   }
}

unsigned depth_bytes(uint32_t format)
{
   return format == Depth16 ? 2 : 4;
}

/* The stored form of a depth value: unorm formats keep round(z * (2^n - 1)) (Z_24 in the low
 * 24 bits of each dword: Mesa r600g's evergreen_state.c samples the Z24 buffers the DB wrote
 * as Z24X8), Z_32_FLOAT the float. Rounding to nearest is derived (it is what
 * util_format's unorm packing does, which llvmpipe, the reference, uses too). */
uint32_t encode_depth(uint32_t format, float z)
{
   switch (format) {
   case Depth16: return uint32_t(std::nearbyint(double(std::clamp(z, 0.0f, 1.0f)) * 65535.0));
   case Depth24: return uint32_t(std::nearbyint(double(std::clamp(z, 0.0f, 1.0f)) * 16777215.0));
   default: return as_bits(z);
   }
}

float decode_depth(uint32_t format, uint32_t raw)
{
   switch (format) {
   case Depth16: return float(double(raw & 0xffff) / 65535.0);
   case Depth24: return float(double(raw & 0xffffff) / 16777215.0);
   default: return as_float(raw);
   }
}

uint8_t *depth_at(const DepthStencilTarget &t, unsigned x, unsigned y, unsigned sample)
{
   return t.depth_data + hw::surface_level_sample_offset(t.depth_addressing, x, y, t.slice, sample);
}

uint32_t load_depth(const DepthStencilTarget &t, unsigned x, unsigned y, unsigned sample)
{
   uint32_t raw = 0;
   std::memcpy(&raw, depth_at(t, x, y, sample), depth_bytes(t.depth_format));
   return raw;
}

uint8_t &stencil_at(const DepthStencilTarget &t, unsigned x, unsigned y, unsigned sample)
{
   return t.stencil_data[hw::surface_level_sample_offset(t.stencil_addressing, x, y, t.slice, sample)];
}

} // namespace

bool decode_depth_stencil(const PipelineState &state, GpuMemory &memory, DepthStencilTarget &target,
                          std::string &error)
{
   char text[256];
   auto refuse = [&](const char *what, uint32_t value) {
      std::snprintf(text, sizeof(text), "DB: %s (0x%08x)", what, value);
      error = text;
      return false;
   };
   const uint32_t alpha_control = state.get(SX_ALPHA_TEST_CONTROL);
   target.alpha_test = (alpha_control >> 3) & 1;
   target.alpha_func = alpha_control & 7;
   target.alpha_reference = as_float(state.get(SX_ALPHA_REF));

   const uint32_t control = state.get(hw::reg::DB_DEPTH_CONTROL);
   const uint32_t z_info = state.get(hw::reg::DB_Z_INFO), s_info = state.get(hw::reg::DB_STENCIL_INFO);
   const uint32_t render_control = state.get(DB_RENDER_CONTROL);
   const uint32_t shader_control = state.get(DB_SHADER_CONTROL);
   /* The DB's other jobs r600g asks for (HTILE clears, depth copies through the CB, HTILE
    * summaries) are not modelled; r600g runs with R600_DEBUG=nohyperz in the tests. */
   if (render_control & (db_render_depth_clear | db_render_stencil_clear | db_render_resummarize))
      return refuse("HTILE clears and resummarize (DB_RENDER_CONTROL) are not simulated yet", render_control);
   if (render_control & (db_render_depth_copy | db_render_stencil_copy))
      return refuse("depth/stencil copies to the colour buffer (DB_RENDER_CONTROL) are not simulated yet",
                    render_control);
   target.stencil_from_shader = db_shader_stencil_export(shader_control);
   target.depth_from_shader = db_shader_z_export(shader_control);
   /* MASK_EXPORT_ENABLE: the pixel shader's PIXEL 61 z (an integer) masks the fragment's
    * coverage (r600g sets it for gl_SampleMask on multisampled framebuffers; sfn exports the
    * mask in z). */
   target.mask_from_shader = db_shader_mask_export(shader_control);
   target.depth_min = as_float(state.get(PA_SC_VPORT_ZMIN_0));
   target.depth_max = as_float(state.get(PA_SC_VPORT_ZMAX_0));

   /* The kernel's rule (evergreen_cs_track_check): a test only counts with a buffer format. */
   const uint32_t format = db_z_info_format(z_info);
   target.depth_test = db_z_enable(control) && format != DepthInvalid;
   target.depth_write = target.depth_test && db_z_write_enable(control);
   target.depth_func = db_z_func(control);
   target.stencil_test = db_stencil_enable(control) && db_stencil_info_valid(s_info);
   const bool separate_back = db_backface_enable(control);
   const uint32_t ref_front = state.get(DB_STENCILREFMASK), ref_back = state.get(DB_STENCILREFMASK_BF);
   for (bool back : {false, true}) {
      StencilFace &face = back ? target.back : target.front;
      const bool use_back = back && separate_back;
      face.func = db_stencil_field(control, use_back, 0);
      face.fail = db_stencil_field(control, use_back, 1);
      face.depth_pass = db_stencil_field(control, use_back, 2);
      face.depth_fail = db_stencil_field(control, use_back, 3);
      /* The back reference and masks apply to back faces only with BACKFACE_ENABLE (r600g
       * writes both registers the same otherwise). */
      const uint32_t ref = use_back ? ref_back : ref_front;
      face.reference = uint8_t(ref), face.mask = uint8_t(ref >> 8), face.write_mask = uint8_t(ref >> 16);
   }
   if (!target.any_test())
      return true;

   if (db_z_info_tile_surface_enable(z_info))
      return refuse("HTILE (DB_Z_INFO.TILE_SURFACE_ENABLE) is not simulated yet (R600_DEBUG=nohyperz)", z_info);
   /* Samples: Cayman's DB_Z_INFO.NUM_SAMPLES (r600g sets it on Cayman only); Evergreen's DB
    * follows PA_SC_AA_CONFIG (r600g programs nothing else there). */
   if (state.isa == hw::IsaClass::Cayman) {
      target.samples = 1u << db_z_info_num_samples(z_info);
   } else {
      target.samples = 1u << hw::msaa::aa_config_log_samples(state.get(hw::msaa::PA_SC_AA_CONFIG_EVERGREEN), false);
   }
   const uint32_t mode = db_z_info_array_mode(z_info);
   if (mode != 2 && mode != 4)
      return refuse("depth buffers must be tiled (DB_Z_INFO.ARRAY_MODE 1D or 2D)", z_info);
   const uint32_t size = state.get(DB_DEPTH_SIZE), slice = state.get(DB_DEPTH_SLICE);
   const unsigned pitch = (db_depth_size_pitch_tile_max(size) + 1) * 8;
   const uint64_t pixels = (uint64_t(db_depth_slice_tile_max(slice)) + 1) * 64;
   target.width = pitch;
   target.height = unsigned(pixels / pitch);
   /* SLICE_START; with a render target index from the vertex shader, up to SLICE_MAX (the same
    * rule as the colour buffers', *derived*: docs/sim-semantics.md). */
   const uint32_t view = state.get(DB_DEPTH_VIEW);
   const unsigned layer = db_depth_view_slice_start(view);
   target.slice = target.first_slice = target.last_slice = layer;
   if (state.get(PA_CL_VS_OUT_CNTL) & vs_out_use_render_target_index) {
      target.last_slice = db_depth_view_slice_max(view);
      if (target.last_slice < layer)
         return refuse("SLICE_MAX below SLICE_START with a render target index from the vertex shader", view);
   }
   /* Depth micro tiles use the non-displayable texel order (AMD's addrlib: depth surfaces take
    * the "depth sample order" micro tile type, which orders a thin tile's texels like the
    * non-displayable one). */
   /* 2D tiling: the bank and macro-tile codes of DB_Z_INFO (the stencil has its own tile
    * split in DB_STENCIL_INFO), the board's pipes and group size, and the swizzle the base
    * address selects (hw/surface.h). */
   auto bind = [&](uint32_t read_reg, uint32_t write_reg, unsigned bytes, uint32_t tile_split_register,
                   uint8_t *&data, hw::LevelAddressing &addressing, const char *what) {
      const uint64_t read = uint64_t(state.get(read_reg)) << 8, write = uint64_t(state.get(write_reg)) << 8;
      if (read != write) {
         std::snprintf(text, sizeof(text), "DB: different %s read and write bases are not simulated", what);
         error = text;
         return false;
      }
      addressing.mode = mode == 4 ? hw::ArrayMode::Tiled2DThin1 : hw::ArrayMode::Tiled1DThin1;
      addressing.pitch = pitch;
      addressing.aligned_height = target.height;
      addressing.bytes_per_element = bytes;
      addressing.non_displayable_order = true;
      addressing.samples = target.samples;
      addressing.depth_sample_order = true;
      const uint64_t slice_bytes = uint64_t(pitch) * target.height * bytes * target.samples;
      uint64_t base = read;
      if (mode == 4) {
         const TilingCodes codes = db_info_tiling(z_info, tile_split_register);
         if (codes.tile_split > 6) {
            std::snprintf(text, sizeof(text), "DB: %s tile split code %u is not defined", what, codes.tile_split);
            error = text;
            return false;
         }
         addressing.tiling = state.tiling;
         addressing.macro = hw::macro_tiling_from_codes(codes.tile_split, codes.banks, codes.bank_width,
                                                        codes.bank_height, codes.macro_tile_aspect);
         if (target.last_slice != 0) {
            std::snprintf(text, sizeof(text), "DB: layered 2D-tiled %s buffers are not simulated yet", what);
            error = text;
            return false;
         }
         /* The base's pipe and bank bits select a swizzle; the surface starts at the address
          * with them cleared (as the texture unit reads 2D levels). */
         base = hw::macro_tiled_surface_start(read, state.tiling, addressing.macro.banks, addressing.swizzle);
      }
      std::string memory_error;
      data = memory.resolve(base, slice_bytes * (target.last_slice + 1), memory_error);
      if (!data) {
         std::snprintf(text, sizeof(text), "DB: %s buffer memory: %s", what, memory_error.c_str());
         error = text;
         return false;
      }
      return true;
   };
   if (target.depth_test) {
      target.depth_format = format;
      if (!bind(DB_Z_READ_BASE, DB_Z_WRITE_BASE, depth_bytes(format), z_info, target.depth_data,
                target.depth_addressing, "depth"))
         return false;
   }
   if (target.stencil_test &&
       !bind(DB_STENCIL_READ_BASE, DB_STENCIL_WRITE_BASE, 1, s_info, target.stencil_data,
             target.stencil_addressing, "stencil"))
      return false;
   return true;
}

bool alpha_test_passes(const DepthStencilTarget &target, float alpha)
{
   return !target.alpha_test || compare(target.alpha_func, alpha, target.alpha_reference);
}

bool depth_stencil_test(DepthStencilTarget &target, unsigned x, unsigned y, unsigned sample, float z,
                        bool front_facing, int exported_reference)
{
   if (!target.any_test())
      return true;
   /* The DB clamps the fragment's depth to the viewport's range (PA_SC_VPORT_ZMIN/ZMAX;
    * r600g relies on it for depth clamping, which it does by turning z clipping off). */
   z = std::clamp(z, target.depth_min, target.depth_max);
   bool depth_passes = true;
   uint32_t new_depth = 0;
   if (target.depth_test) {
      new_depth = encode_depth(target.depth_format, z);
      const uint32_t stored = load_depth(target, x, y, sample);
      depth_passes = target.depth_format == Depth32Float
                        ? compare(target.depth_func, as_float(new_depth), as_float(stored))
                        : compare(target.depth_func, new_depth, stored & (target.depth_format == Depth16 ? 0xffffu
                                                                                                        : 0xffffffu));
   }
   bool stencil_passes = true;
   if (target.stencil_test) {
      const StencilFace &face = front_facing ? target.front : target.back;
      const uint8_t reference = exported_reference >= 0 ? uint8_t(exported_reference) : face.reference;
      uint8_t &stored = stencil_at(target, x, y, sample);
      stencil_passes = compare(face.func, uint8_t(reference & face.mask), uint8_t(stored & face.mask));
      const uint32_t operation = !stencil_passes ? face.fail : depth_passes ? face.depth_pass : face.depth_fail;
      const uint8_t updated = stencil_operation(operation, stored, reference);
      stored = uint8_t((stored & ~face.write_mask) | (updated & face.write_mask));
   }
   const bool passes = depth_passes && stencil_passes;
   if (passes && target.depth_write) {
      uint8_t *pixel = depth_at(target, x, y, sample);
      if (target.depth_format == Depth24) {
         /* The top byte of a Z_24 dword is left as it is. */
         uint32_t raw;
         std::memcpy(&raw, pixel, 4);
         raw = (raw & 0xff000000u) | new_depth;
         std::memcpy(pixel, &raw, 4);
      } else {
         std::memcpy(pixel, &new_depth, depth_bytes(target.depth_format));
      }
   }
   return passes;
}

float read_depth(const DepthStencilTarget &target, unsigned x, unsigned y)
{
   return decode_depth(target.depth_format, load_depth(target, x, y, 0));
}

uint8_t read_stencil(const DepthStencilTarget &target, unsigned x, unsigned y)
{
   return stencil_at(target, x, y, 0);
}

} // namespace terakan::sim
