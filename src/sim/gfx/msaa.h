/* Multisampling on the simulated card: where the scan converter samples a pixel (PA_SC_AA_*)
 * and how the colour block keeps a multisampled pixel (FMASK fragments, CMASK fast clears)
 * and resolves it. The register facts are in hw/msaa.h; the rules and which of them are
 * derived are in docs/sim-semantics.md ("Multisampling"). */
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "core/gpu_memory.h"
#include "gfx/draw.h"
#include "hw/surface.h"

namespace terakan::sim {

struct ColourTarget; /* gfx/colour_buffer.h */

/* The scan converter's samples: PA_SC_AA_CONFIG's count, the locations of each pixel of the
 * 2x2 quad (x & 1, y & 1) and PA_SC_AA_MASK. With one sample, or with PA_SC_MODE_CNTL_0's
 * MSAA_ENABLE off, a pixel is sampled at its centre and that sample's coverage stands for all
 * of its samples. */
struct SamplePattern {
   unsigned samples = 1;
   bool per_sample_coverage = false;
   /* PA_SC_MODE_CNTL_1.PS_ITER_SAMPLE with per-sample coverage: the pixel shader runs once per
    * covered sample (on Cayman DB_EQAA.PS_ITER_SAMPLES must name every sample). */
   bool iterate_samples = false;
   /* Offsets from the pixel centre in 1/16 pixel, y down the screen: [quad pixel][sample]. */
   std::array<std::array<std::array<int, 2>, 16>, 4> offsets{};
   std::array<uint16_t, 4> mask{};

   static unsigned quad_pixel(unsigned x, unsigned y) { return (x & 1) | (y & 1) << 1; }
   uint16_t all_samples() const { return uint16_t((1u << samples) - 1); }
};

/* Decodes the pattern; false with a message for state the simulator refuses (alpha to
 * coverage, undefined counts, iterating over fewer samples than the pixel has). */
bool decode_sample_pattern(const PipelineState &, SamplePattern &, std::string &error);

/* The colour block's view of a multisampled or fast-clearable colour buffer. */
struct ColourMetadata {
   unsigned samples = 1, fragments = 1;
   /* COMPRESSION: FMASK maps each sample to one of the pixel's fragments; without it a
    * multisampled pixel keeps one fragment per sample. */
   bool compressed = false;
   uint8_t *fmask = nullptr;
   hw::LevelAddressing fmask_addressing;
   /* CB_COLORn_VIEW.SLICE_START: the slice drawn, of the colour surface and of FMASK alike
    * (each a 2D-tiled array from its base, FMASK's slices FMASK_SLICE's tiles apart). */
   unsigned slice = 0;
   /* With a render target index from the vertex shader (draw.cpp), `slice` moves per
    * primitive up to SLICE_MAX, and FMASK is held that far. */
   unsigned last_slice = 0;
   /* FAST_CLEAR: a CMASK nibble per 8x8 tile; a fast-cleared tile reads as the clear colour. */
   bool fast_clear = false;
   uint8_t *cmask = nullptr;
   unsigned cmask_tiles_per_row = 0;
   std::array<uint8_t, 8> clear_element{}; /* CLEAR_WORD0, CLEAR_WORD1 */

   bool needs_metadata_path() const { return samples > 1 || fast_clear; }
};

/* Decodes CB_COLORn's sample count (Cayman: ATTRIB.NUM_SAMPLES; Evergreen: PA_SC_AA_CONFIG,
 * except the destination of a resolve) and its FMASK and CMASK. Returns false with a message
 * if the state is refused. `element_bytes` is the colour element's size. */
bool decode_colour_metadata(const PipelineState &, unsigned n, unsigned element_bytes, GpuMemory &,
                            ColourMetadata &, std::string &error);

/* Bytes the colour surface itself spans for its pitch and height: each pixel keeps
 * `fragments` elements. */
uint64_t colour_surface_bytes(const ColourTarget &);

/* The element sample `sample` of pixel (x, y) holds, through CMASK and FMASK. */
std::array<uint8_t, 16> read_sample_element(const ColourTarget &, unsigned x, unsigned y, unsigned sample);

/* Blends and writes the shader's export into the samples of pixel (x, y) that `coverage`
 * names, each against its own stored colour, then stores the pixel back through FMASK (a
 * fast-cleared tile is expanded first). */
void write_colour_samples(ColourTarget &, unsigned x, unsigned y, uint16_t coverage,
                          const std::array<uint32_t, 4> &exported, const std::array<uint32_t, 4> *second);

/* CB_COLOR_CONTROL.MODE FMASK_DECOMPRESS (r600g's decompress blend on Evergreen and Cayman,
 * drawn over a multisampled colour buffer before the texture unit reads it): pixel (x, y)
 * left readable through FMASK alone. Only fast-cleared tiles (CMASK) are compressed beyond
 * FMASK here; such a tile is expanded (*derived*: what the texture unit, which reads no
 * CMASK, needs). */
void fmask_decompress_pixel(ColourTarget &, unsigned x, unsigned y);

/* CB_COLOR_CONTROL.MODE RESOLVE: the average of `source`'s samples at (x, y) written to the
 * single-sample `destination`. */
void resolve_pixel(const ColourTarget &source, ColourTarget &destination, unsigned x, unsigned y);

} // namespace terakan::sim
