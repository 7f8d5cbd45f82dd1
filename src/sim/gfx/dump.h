/* TERAKAN_SIM_DUMP: pictures of the bound colour, depth and stencil buffers after each draw,
 * as PNG files, so that what the simulated card drew can be looked at (docs/sim-semantics.md,
 * "Seeing it"). */
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/gpu_memory.h"
#include "gfx/colour_buffer.h"
#include "gfx/draw.h"

namespace terakan::sim {

/* 8 bits per channel, RGBA, row y = 0 first (the buffer's first row in memory). */
struct Rgba8Picture {
   unsigned width = 0, height = 0;
   std::vector<uint8_t> pixels; /* width * height * 4 */
};

/* The whole buffer as PITCH and SLICE describe it (padding included), each pixel read as the
 * colour block reads it for blending and then made displayable: normalized and float channels
 * clamped to [0, 1] and scaled to 255 (so 8-bit UNORM comes out exactly as stored), sRGB
 * channels as stored (encoded), integer channels clamped to 0..255; a format without alpha
 * gets opaque alpha. */
Rgba8Picture read_back_rgba8(const ColourTarget &);

/* PNG with one zlib stream of unfiltered rows (RFC 2083). */
bool write_png(const std::string &path, const Rgba8Picture &, std::string &error);

/* Writes, into DIRECTORY:
 * - draw-NNNN-CHIP-cbN.png for every colour buffer 0-7 that CB_TARGET_MASK and CB_SHADER_MASK
 *   enable and that decodes (a format, a base inside a buffer object);
 * - draw-NNNN-CHIP-depth.png (depth 0..1 as grey 0..255) and draw-NNNN-CHIP-stencil.png (the
 *   stencil value as grey) when the draw runs a depth or stencil test: the depth block binds
 *   its buffers only then (gfx/depth_buffer.cpp), so a draw without either test dumps neither.
 *   TODO(depth): 8 bits of grey hide small depth differences; a 16-bit grey PNG would keep
 *   Z_16 exactly and most of Z_24.
 * Returns a line per buffer that could not be dumped, or an empty string. Dumping never
 * changes what is simulated. */
std::string dump_draw_buffers(const PipelineState &, GpuMemory &, const std::string &directory,
                              const std::string &chip, uint64_t draw_number);

} // namespace terakan::sim
