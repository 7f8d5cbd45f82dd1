#include "dump.h"

#include <png.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "util/format_srgb.h"

#include "core/alu_semantics.h"
#include "gfx/depth_buffer.h"
#include "hw/graphics_registers.h"
#include "hw/registers.h"

namespace terakan::sim {

using namespace hw::gfx;

namespace {

uint8_t unit_to_byte(float value)
{
   if (!(value > 0.0f)) /* NaN too */
      return 0;
   return uint8_t(std::lround(std::min(value, 1.0f) * 255.0f));
}

} // namespace

Rgba8Picture read_back_rgba8(const ColourTarget &target)
{
   Rgba8Picture picture;
   picture.width = target.width;
   picture.height = target.height;
   picture.pixels.resize(size_t(target.width) * target.height * 4);
   const bool has_alpha = target.components == 4;
   for (unsigned y = 0; y < target.height; y++)
      for (unsigned x = 0; x < target.width; x++) {
         const std::array<uint32_t, 4> value = read_colour(target, x, y);
         uint8_t *out = &picture.pixels[(size_t(y) * target.width + x) * 4];
         for (unsigned c = 0; c < 4; c++) {
            switch (target.number_type) {
            case Uint:
               out[c] = uint8_t(std::min<uint32_t>(value[c], 255));
               break;
            case Sint:
               out[c] = uint8_t(std::clamp<int32_t>(int32_t(value[c]), 0, 255));
               break;
            case Srgb:
               /* read_colour decodes sRGB to linear, as blending needs; a picture shows the
                * encoded values (the 8-bit round trip is exact). */
               out[c] = c < 3 ? util_format_linear_float_to_srgb_8unorm(as_float(value[c]))
                              : unit_to_byte(as_float(value[c]));
               break;
            default: /* UNORM, SNORM, FLOAT */
               out[c] = unit_to_byte(as_float(value[c]));
               break;
            }
         }
         if (!has_alpha)
            out[3] = 255;
      }
   return picture;
}

bool write_png(const std::string &path, const Rgba8Picture &picture, std::string &error)
{
   /* libpng's simplified API (the GL scenes write theirs with it too). */
   png_image image{};
   image.version = PNG_IMAGE_VERSION;
   image.width = picture.width;
   image.height = picture.height;
   image.format = PNG_FORMAT_RGBA;
   if (!png_image_write_to_file(&image, path.c_str(), 0, picture.pixels.data(), 0, nullptr)) {
      error = "writing " + path + ": " + image.message;
      return false;
   }
   return true;
}

std::string dump_draw_buffers(const PipelineState &state, GpuMemory &memory, const std::string &directory,
                              const std::string &chip, uint64_t draw_number)
{
   std::string problems;
   auto file_name = [&](const std::string &buffer) {
      char number[24];
      std::snprintf(number, sizeof(number), "%04llu", (unsigned long long)draw_number);
      return directory + "/draw-" + number + "-" + chip + "-" + buffer + ".png";
   };
   auto write = [&](const std::string &buffer, const Rgba8Picture &picture) {
      std::string error;
      if (!write_png(file_name(buffer), picture, error))
         problems += error + "\n";
   };

   const uint32_t shader_mask = state.get(hw::reg::CB_SHADER_MASK);
   for (unsigned n = 0; n < 8; n++) {
      if (!((shader_mask >> (4 * n)) & 0xf))
         continue; /* the pixel shader writes nothing there (CB_TARGET_MASK is checked below) */
      ColourTarget target;
      std::string error;
      if (!decode_colour_target(state, n, memory, target, error)) {
         if (!error.empty())
            problems += "CB" + std::to_string(n) + " not dumped: " + error + "\n";
         continue;
      }
      write("cb" + std::to_string(n), read_back_rgba8(target));
   }

   DepthStencilTarget depth;
   std::string error;
   if (!decode_depth_stencil(state, memory, depth, error)) {
      problems += "depth and stencil not dumped: " + error + "\n";
      return problems;
   }
   auto grey = [&](auto value_at) {
      Rgba8Picture picture;
      picture.width = depth.width;
      picture.height = depth.height;
      picture.pixels.resize(size_t(depth.width) * depth.height * 4);
      for (unsigned y = 0; y < depth.height; y++)
         for (unsigned x = 0; x < depth.width; x++) {
            uint8_t *out = &picture.pixels[(size_t(y) * depth.width + x) * 4];
            out[0] = out[1] = out[2] = value_at(x, y);
            out[3] = 255;
         }
      return picture;
   };
   if (depth.depth_data)
      write("depth", grey([&](unsigned x, unsigned y) { return unit_to_byte(read_depth(depth, x, y)); }));
   if (depth.stencil_data)
      write("stencil", grey([&](unsigned x, unsigned y) { return read_stencil(depth, x, y); }));
   return problems;
}

} // namespace terakan::sim
