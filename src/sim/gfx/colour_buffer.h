/* The colour block (CB): a bound colour buffer decoded from CB_COLORn_*, its formats and
 * number types, and the blend and write of one pixel. */
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "core/gpu_memory.h"
#include "gfx/draw.h"
#include "gfx/msaa.h"
#include "hw/surface.h"

namespace terakan::sim {

struct BlendState {
   bool enable = false;
   uint32_t colour_src = 1, colour_dst = 0, colour_func = 0;
   uint32_t alpha_src = 1, alpha_dst = 0, alpha_func = 0;
   std::array<float, 4> constant{};
};

struct ColourTarget {
   unsigned index = 0;
   uint64_t address = 0;
   uint8_t *data = nullptr;
   uint64_t size = 0;
   hw::LevelAddressing addressing;
   unsigned width = 0, height = 0; /* from PITCH and SLICE: the pixels the buffer holds */
   /* The slice draws write: CB_COLORn_VIEW.SLICE_START (r600g renders to a layer so, with BASE
    * at the level's first slice; 2D-tiled slices rotate their banks, hw/surface). */
   unsigned slice = 0;
   /* The slices a primitive's render target index (PA_CL_VS_OUT_CNTL.USE_VTX_RENDER_TARGET_INDX)
    * may select: SLICE_START to SLICE_MAX (only SLICE_START without a vertex-chosen index). */
   unsigned first_slice = 0, last_slice = 0;
   uint32_t format = 0, number_type = 0, swap = 0;
   /* Memory order: component 0 holds the lowest bits of the element. */
   unsigned components = 0, bits[4] = {};
   unsigned channel[4] = {}; /* the shader channel (0 r .. 3 a) each component holds */
   bool is_float = false;
   bool packed_float = false; /* 10_11_11_FLOAT: unsigned 11- and 10-bit floats */
   bool blend_clamp = false, blend_bypass = false;
   uint32_t write_mask = 0xf; /* CB_TARGET_MASK nibble */
   BlendState blend;
   /* The blend factors read the second colour (PIXEL 1): only CB_COLOR0 may blend so. */
   bool dual_source = false;
   /* CB_COLOR_CONTROL.ROP3 over the source (S) and destination (D) bits; 0xcc copies S. */
   uint32_t rop3 = 0xcc;
   unsigned element_bytes = 0;
   /* Samples, FMASK, CMASK (gfx/msaa.h). */
   ColourMetadata msaa;
};

/* Decodes colour buffer n; returns false (no error) if it is not enabled, false with a message
 * if its state is something the simulator refuses. */
bool decode_colour_target(const PipelineState &, unsigned n, GpuMemory &, ColourTarget &, std::string &error,
                          bool ignore_target_mask = false);

/* The same for a colour buffer bound as a typed RAT (CB_COLORn_INFO.RAT, gfx/typed_rat.h): the
 * format, number type and swap as for drawing, `layers` slices of the level from BASE (or,
 * `buffer_elements` > 0, one linear row of that many elements), and no blending or logic
 * operation (image stores write their data). */
bool decode_rat_colour_target(const PipelineState &, unsigned n, GpuMemory &, ColourTarget &, std::string &error,
                              unsigned layers, uint64_t buffer_elements);

/* Blends and writes the shader's export for pixel (x, y). The export holds floats, or integers
 * for UINT/SINT targets. second is the export to PIXEL 1, which dual-source blend factors
 * read; nullptr unless the target's dual_source is set. */
void write_colour(ColourTarget &, unsigned x, unsigned y, const std::array<uint32_t, 4> &exported,
                  const std::array<uint32_t, 4> *second = nullptr);

/* Reads a pixel back as the shader would see it (floats, or integer bits); sample 0 of a
 * multisampled pixel. */
std::array<uint32_t, 4> read_colour(const ColourTarget &, unsigned x, unsigned y);

/* The same two steps on one stored element (a pixel, or one fragment of a multisampled
 * pixel), wherever it is held. */
std::array<uint32_t, 4> read_element(const ColourTarget &, const uint8_t *element);
void write_element(const ColourTarget &, uint8_t *element, const std::array<uint32_t, 4> &exported,
                   const std::array<uint32_t, 4> *second);

} // namespace terakan::sim
