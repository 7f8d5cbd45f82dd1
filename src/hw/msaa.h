/* Multisampling registers and encodings of Evergreen and Cayman, as r600g programs them.
 *
 * Sources: Mesa's evergreend.h (offsets and fields), evergreen_state.c and cayman_msaa.c (what
 * r600g writes: PA_SC_AA_CONFIG, the sample locations, PA_SC_AA_MASK, CB_COLORn_ATTRIB
 * NUM_SAMPLES/NUM_FRAGMENTS, CB_COLORn_INFO COMPRESSION/FAST_CLEAR, CB_COLOR_CONTROL.MODE),
 * r600_texture.c (FMASK and CMASK sizes: FMASK 1 byte a pixel for 2 and 4 samples, 4 bytes
 * for 8; CMASK 4 bits per 8x8 tile, initialised to 0xC in every nibble, the "compressed"
 * state, and cleared to 0 for a fast clear), radeonsi's si_compute_blit.c (the fully expanded
 * FMASK values 0x02, 0xE4, 0x76543210, which give each sample's fragment index 1, 2 and 4 bits
 * wide, sample 0 lowest). */
#pragma once

#include <cstdint>

namespace terakan::hw::msaa {

/* PA_SC_AA_CONFIG: MSAA_NUM_SAMPLES [2:0] = log2(samples) (Evergreen's field is 2 bits),
 * MAX_SAMPLE_DIST [16:13], MSAA_EXPOSED_SAMPLES [22:20] (Cayman). */
constexpr uint32_t PA_SC_AA_CONFIG_EVERGREEN = 0x28C04, PA_SC_AA_CONFIG_CAYMAN = 0x28BE0;
constexpr unsigned aa_config_log_samples(uint32_t v, bool cayman) { return v & (cayman ? 7 : 3); }

/* Sample locations: signed 4-bit offsets from the pixel centre in 1/16 pixel, x in the low
 * nibble and y in the high nibble of each byte, four samples a register.
 * Evergreen: PA_SC_AA_SAMPLE_LOCS_0..7 at 0x28C1C; r600g writes registers 0-3 with the same
 * value for 2x and 4x, and for 8x alternates samples 0-3 and 4-7 over all eight.
 * Cayman: PA_SC_AA_SAMPLE_LOCS_PIXEL_<quad pixel>_<samples / 4>, four registers per pixel of
 * the 2x2 quad: X0Y0 at 0x28BF8, X1Y0 0x28C08, X0Y1 0x28C18, X1Y1 0x28C28. */
constexpr uint32_t PA_SC_AA_SAMPLE_LOCS_0 = 0x28C1C;
/* The register holding sample `sample`'s location for quad pixel `pixel` (0 X0Y0, 1 X1Y0,
 * 2 X0Y1, 3 X1Y1) at `samples` samples, in the byte (sample % 4). Cayman: the pixel's four
 * registers, samples 0-3 in the first, 4-7 in the second (cayman_emit_msaa_sample_locs writes
 * cm_sample_locs_8x[0] and [4] into X0Y0_0 and X0Y0_1). Evergreen: one register per quad pixel
 * for 2 and 4 samples; for 8, two per pixel, samples 0-3 then 4-7 (*derived*: r600g's
 * evergreen_emit_msaa_state writes the same pair into 0/1, 2/3, 4/5 and 6/7, so no GL program
 * can tell which pixel reads which register). */
constexpr uint32_t sample_locs_register(bool cayman, unsigned samples, unsigned pixel, unsigned sample)
{
   if (cayman)
      return 0x28BF8 + 0x10 * pixel + 4 * (sample / 4);
   return samples <= 4 ? PA_SC_AA_SAMPLE_LOCS_0 + 4 * pixel : PA_SC_AA_SAMPLE_LOCS_0 + 4 * (2 * pixel + sample / 4);
}

/* A sample location as PA_SC_AA_SAMPLE_LOCS holds it: 1/16 pixel from the centre, y down. */
struct SampleOffset {
   int8_t x, y;
};
/* Vulkan's standard sample locations (the specification's table "Standard sample locations",
 * (x, y) in [0, 1) of the pixel) as offsets: coordinate x 16 - 8. r600g programs exactly these
 * for 2 and 4 samples on both families (cayman_msaa.c eg_sample_locs_2x: (4, 4), (-4, -4);
 * eg_sample_locs_4x: (-2, -6), (6, -2), (-6, 2), (2, 6)) and for 8 samples on Cayman
 * (cm_sample_locs_8x, the same eight in the same order). Its Evergreen 8x pattern
 * (evergreen_state.c sample_locs_8x: (-1, 1), (1, 5), (3, -5), (5, 3), (-7, -1), (-3, -7),
 * (7, -3), (-5, 7)) is another one; the locations are registers, so Terakan programs Vulkan's
 * on every chip and reports standardSampleLocations. */
constexpr SampleOffset standard_locations_2x[2] = {{4, 4}, {-4, -4}};
constexpr SampleOffset standard_locations_4x[4] = {{-2, -6}, {6, -2}, {-6, 2}, {2, 6}};
constexpr SampleOffset standard_locations_8x[8] = {{1, -3}, {-1, 3}, {5, 1}, {-3, -5},
                                                   {-5, 5}, {-7, -1}, {3, 7}, {7, -7}};
/* The standard location of `sample` at `samples` (1, 2, 4 or 8); the centre for one sample. */
constexpr SampleOffset standard_location(unsigned samples, unsigned sample)
{
   switch (samples) {
   case 2: return standard_locations_2x[sample % 2];
   case 4: return standard_locations_4x[sample % 4];
   case 8: return standard_locations_8x[sample % 8];
   default: return {0, 0};
   }
}
/* PA_SC_AA_CONFIG.MAX_SAMPLE_DIST r600g programs with its patterns: 4 (2x), 6 (4x), 7
 * (Evergreen 8x), 8 (Cayman 8x, whose farthest coordinate is 7): the largest coordinate, and
 * one more for Cayman's 8x. */
constexpr unsigned r600g_max_sample_dist(bool cayman, unsigned samples)
{
   return samples == 2 ? 4 : samples == 4 ? 6 : samples == 8 ? (cayman ? 8 : 7) : 0;
}
constexpr uint32_t CM_PA_SC_AA_SAMPLE_LOCS_PIXEL_X0Y0_0 = 0x28BF8;
constexpr uint32_t cm_sample_locs_pixel_stride = 0x10;

/* PA_SC_AA_MASK (Evergreen, 0x28C3C): one byte per quad pixel (X0Y0 lowest). Cayman:
 * PA_SC_AA_MASK_X0Y0_X1Y0 (0x28C38) and _X0Y1_X1Y1 (0x28C3C), 16 bits per quad pixel. */
constexpr uint32_t PA_SC_AA_MASK = 0x28C3C;
constexpr uint32_t CM_PA_SC_AA_MASK_X0Y0_X1Y0 = 0x28C38, CM_PA_SC_AA_MASK_X0Y1_X1Y1 = 0x28C3C;

/* PA_SC_MODE_CNTL_0.MSAA_ENABLE [0]; PA_SC_MODE_CNTL_1.PS_ITER_SAMPLE [16] (per-sample
 * shading); DB_ALPHA_TO_MASK.ALPHA_TO_MASK_ENABLE [0]. */
constexpr uint32_t PA_SC_MODE_CNTL_1 = 0x28A4C, DB_ALPHA_TO_MASK = 0x28B70;
constexpr bool mode_cntl_1_ps_iter_sample(uint32_t v) { return (v >> 16) & 1; }
/* DB_EQAA (Cayman only, 0x28804): PS_ITER_SAMPLES [6:4] = log2 of the samples a pixel's shader
 * invocations are spread over (r600g, cayman_emit_msaa_state: log2 of the next power of two of
 * min_samples, beside MAX_ANCHOR_SAMPLES [2:0], MASK_EXPORT_NUM_SAMPLES [10:8],
 * ALPHA_TO_MASK_NUM_SAMPLES [14:12], HIGH_QUALITY_INTERSECTIONS [16] and
 * STATIC_ANCHOR_ASSOCIATIONS [20], all log2(samples) or 1). */
constexpr uint32_t CM_DB_EQAA = 0x28804;
constexpr unsigned db_eqaa_log_ps_iter_samples(uint32_t v) { return (v >> 4) & 7; }

/* CB_COLORn registers past the ones hw/registers.h names, as offsets in the colour buffer's
 * 0x3C block. */
enum CbMsaaRegister : uint32_t { Cmask = 0x1C, CmaskSlice = 0x20, Fmask = 0x24, FmaskSlice = 0x28,
                                 ClearWord0 = 0x2C, ClearWord1 = 0x30 };
/* CB_COLORn_INFO.FAST_CLEAR [17] (CMASK holds fast-clear state), COMPRESSION [18] (FMASK
 * maps samples to fragments). */
constexpr bool cb_info_fast_clear(uint32_t v) { return (v >> 17) & 1; }
constexpr bool cb_info_compression(uint32_t v) { return (v >> 18) & 1; }
/* CB_COLORn_ATTRIB (Cayman): NUM_SAMPLES [26:24], NUM_FRAGMENTS [28:27], both log2;
 * FMASK_BANK_HEIGHT [23:22] (a bank height code, as BANK_HEIGHT). */
constexpr unsigned cb_attrib_log_samples(uint32_t v) { return (v >> 24) & 7; }
constexpr unsigned cb_attrib_log_fragments(uint32_t v) { return (v >> 27) & 3; }
constexpr unsigned cb_attrib_fmask_bank_height(uint32_t v) { return (v >> 22) & 3; }
/* CMASK_SLICE / FMASK_SLICE: TILE_MAX [21:0]. CMASK_SLICE counts 128x128-pixel blocks (r600g:
 * pitch x height / (128 x 128) - 1), FMASK_SLICE 8x8 tiles (as CB_COLORn_SLICE). */
constexpr uint32_t slice_tile_max(uint32_t v) { return v & 0x3fffff; }

/* CB_COLOR_CONTROL.MODE [6:4]. */
enum class CbMode : uint32_t { Disable = 0, Normal = 1, EliminateFastClear = 2, Resolve = 3, Decompress = 4,
                               FmaskDecompress = 5 };

/* FMASK's bank height: 4 for 2 and 4 samples, the colour surface's for 8 (r600_texture.c
 * r600_texture_get_fmask_info; evergreen_cs.c takes CB_COLORn_FMASK with a relocation only). */
constexpr unsigned fmask_bank_height(unsigned samples, unsigned colour_bank_height)
{
   return samples <= 4 ? 4 : colour_bank_height;
}

/* FMASK: each sample's fragment index, sample 0 in the lowest bits. */
constexpr unsigned fmask_bits_per_sample(unsigned samples) { return samples <= 2 ? 1 : samples <= 4 ? 2 : 4; }
constexpr unsigned fmask_bytes_per_pixel(unsigned samples) { return samples <= 4 ? 1 : 4; }

/* CMASK: one nibble per 8x8 tile; r600g writes only these two values. */
constexpr unsigned cmask_fast_cleared = 0x0, cmask_compressed = 0xC;

} // namespace terakan::hw::msaa
