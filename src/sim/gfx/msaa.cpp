#include "gfx/msaa.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "core/alu_semantics.h"
#include "gfx/colour_buffer.h"
#include "hw/graphics_registers.h"
#include "hw/msaa.h"
#include "hw/registers.h"

namespace terakan::sim {

using namespace hw::msaa;

namespace {

int signed_nibble(uint32_t value, unsigned at)
{
   const int v = int((value >> at) & 0xf);
   return v >= 8 ? v - 16 : v;
}

bool refuse(std::string &error, const char *format, unsigned n, uint32_t value)
{
   char text[240];
   std::snprintf(text, sizeof(text), format, n, value);
   error = text;
   return false;
}

/* CMASK (derived layout: r600g only ever fills the whole buffer, with 0xCC or 0, so no
 * observable placement exists; one nibble per 8x8 tile in rows of pitch / 8 tiles, the
 * lower nibble first). */
unsigned cmask_nibble(const ColourMetadata &m, unsigned x, unsigned y)
{
   const uint64_t tile = uint64_t(y / 8) * m.cmask_tiles_per_row + x / 8;
   return (m.cmask[tile / 2] >> (4 * (tile % 2))) & 0xf;
}

void set_cmask_nibble(ColourMetadata &m, unsigned x, unsigned y, unsigned value)
{
   const uint64_t tile = uint64_t(y / 8) * m.cmask_tiles_per_row + x / 8;
   uint8_t &byte = m.cmask[tile / 2];
   const unsigned shift = 4 * (tile % 2);
   byte = uint8_t((byte & ~(0xf << shift)) | (value << shift));
}

bool tile_fast_cleared(const ColourMetadata &m, unsigned x, unsigned y)
{
   return m.fast_clear && cmask_nibble(m, x, y) == cmask_fast_cleared;
}

uint32_t load_fmask(const ColourMetadata &m, unsigned x, unsigned y)
{
   uint32_t value = 0;
   std::memcpy(&value, m.fmask + hw::surface_level_texel_offset(m.fmask_addressing, x, y, m.slice),
               m.fmask_addressing.bytes_per_element);
   return value;
}

void store_fmask(ColourMetadata &m, unsigned x, unsigned y, uint32_t value)
{
   std::memcpy(m.fmask + hw::surface_level_texel_offset(m.fmask_addressing, x, y, m.slice), &value,
               m.fmask_addressing.bytes_per_element);
}

uint8_t *fragment_at(const ColourTarget &t, unsigned x, unsigned y, unsigned fragment)
{
   return t.data + hw::surface_level_sample_offset(t.addressing, x, y, t.msaa.slice, fragment);
}

using Element = std::array<uint8_t, 16>;

/* Stores a pixel's samples. With FMASK the distinct values become fragments 0, 1, ... in the
 * order of the first sample holding each, and FMASK records each sample's fragment: a valid
 * encoding whatever the hardware's own allocation is, which no reader outside the CB sees
 * (*derived*). Without FMASK sample s is fragment s. */
void store_pixel(ColourTarget &t, unsigned x, unsigned y, const std::array<Element, 16> &samples)
{
   ColourMetadata &m = t.msaa;
   const unsigned bytes = t.element_bytes;
   if (!m.compressed) {
      for (unsigned s = 0; s < m.samples; s++)
         std::memcpy(fragment_at(t, x, y, s), samples[s].data(), bytes);
      return;
   }
   const unsigned bits = fmask_bits_per_sample(m.samples);
   unsigned fragments = 0;
   std::array<unsigned, 16> first_holder{};
   uint32_t fmask = 0;
   for (unsigned s = 0; s < m.samples; s++) {
      unsigned f = 0;
      while (f < fragments && std::memcmp(samples[first_holder[f]].data(), samples[s].data(), bytes) != 0)
         f++;
      if (f == fragments) {
         first_holder[fragments++] = s;
         std::memcpy(fragment_at(t, x, y, f), samples[s].data(), bytes);
      }
      fmask |= uint32_t(f) << (bits * s);
   }
   store_fmask(m, x, y, fmask);
}

/* Before a fast-cleared tile takes its first write, every pixel of it gets the clear colour
 * stored for real and the tile leaves the fast-cleared state (*derived*: what keeps the
 * tile's other pixels the clear colour). */
void expand_fast_cleared_tile(ColourTarget &t, unsigned x, unsigned y)
{
   ColourMetadata &m = t.msaa;
   const unsigned x0 = x & ~7u, y0 = y & ~7u;
   std::array<Element, 16> cleared{};
   for (Element &e : cleared)
      std::copy(m.clear_element.begin(), m.clear_element.end(), e.begin());
   for (unsigned ty = y0; ty < std::min(y0 + 8, t.height); ty++)
      for (unsigned tx = x0; tx < std::min(x0 + 8, t.width); tx++)
         store_pixel(t, tx, ty, cleared);
   set_cmask_nibble(m, x, y, cmask_compressed);
}

} // namespace

bool decode_sample_pattern(const PipelineState &state, SamplePattern &pattern, std::string &error)
{
   const bool cayman = state.isa == hw::IsaClass::Cayman;
   const uint32_t config = state.get(cayman ? PA_SC_AA_CONFIG_CAYMAN : PA_SC_AA_CONFIG_EVERGREEN);
   const unsigned log_samples = aa_config_log_samples(config, cayman);
   if (log_samples > 4)
      return refuse(error, "PA_SC_AA_CONFIG.MSAA_NUM_SAMPLES %u is not defined (0x%08x)", log_samples, config);
   pattern.samples = 1u << log_samples;
   pattern.per_sample_coverage = pattern.samples > 1 && (state.get(hw::gfx::PA_SC_MODE_CNTL_0) & 1);
   if (pattern.samples == 1)
      return true;
   if (mode_cntl_1_ps_iter_sample(state.get(PA_SC_MODE_CNTL_1))) {
      /* Per-sample shading (r600g: ARB_sample_shading). Spreading a pixel's samples over
       * fewer invocations than samples (Cayman's DB_EQAA.PS_ITER_SAMPLES below the sample
       * count) has no document saying which samples an invocation takes: refused. */
      if (!pattern.per_sample_coverage)
         return refuse(error, "PA_SC_MODE_CNTL_1.PS_ITER_SAMPLE without PA_SC_MODE_CNTL_0.MSAA_ENABLE (%u samples) "
                       "is not simulated (0x%08x)", pattern.samples, state.get(hw::gfx::PA_SC_MODE_CNTL_0));
      if (cayman && (1u << db_eqaa_log_ps_iter_samples(state.get(CM_DB_EQAA))) != pattern.samples)
         return refuse(error, "DB_EQAA.PS_ITER_SAMPLES below the %u samples (invocations that shade several "
                       "samples each) is not simulated (0x%08x)", pattern.samples, state.get(CM_DB_EQAA));
      pattern.iterate_samples = true;
   }
   /* DB_ALPHA_TO_MASK: gfx/alpha_to_mask.cpp. */
   for (unsigned pixel = 0; pixel < 4; pixel++) {
      for (unsigned s = 0; s < pattern.samples; s++) {
         /* hw::msaa::sample_locs_register: Evergreen's assignment is *derived*. */
         const uint32_t locations = state.get(sample_locs_register(cayman, pattern.samples, pixel, s));
         pattern.offsets[pixel][s] = {signed_nibble(locations, 8 * (s % 4)), signed_nibble(locations, 8 * (s % 4) + 4)};
      }
      if (cayman) {
         const uint32_t mask = state.get(pixel < 2 ? CM_PA_SC_AA_MASK_X0Y0_X1Y0 : CM_PA_SC_AA_MASK_X0Y1_X1Y1);
         pattern.mask[pixel] = uint16_t(mask >> (16 * (pixel % 2)));
      } else {
         pattern.mask[pixel] = uint16_t((state.get(PA_SC_AA_MASK) >> (8 * pixel)) & 0xff);
      }
      pattern.mask[pixel] &= pattern.all_samples();
   }
   return true;
}

bool decode_colour_metadata(const PipelineState &state, unsigned n, unsigned element_bytes, GpuMemory &memory,
                            ColourMetadata &m, std::string &error)
{
   const uint32_t base_reg = hw::reg::CB_COLOR0_BASE + hw::reg::CB_COLOR_STRIDE * n;
   const uint32_t info = state.get(base_reg + hw::reg::Info), attrib = state.get(base_reg + hw::reg::Attrib);
   const bool cayman = state.isa == hw::IsaClass::Cayman;
   const CbMode mode = CbMode((state.get(hw::gfx::CB_COLOR_CONTROL) >> 4) & 7);
   const bool resolve_destination = mode == CbMode::Resolve && n == 1;
   if (cayman) {
      m.samples = 1u << cb_attrib_log_samples(attrib);
      m.fragments = 1u << cb_attrib_log_fragments(attrib);
   } else {
      /* Evergreen's CB_COLORn_ATTRIB has no sample count: the buffers take PA_SC_AA_CONFIG's,
       * except the single-sample destination of a resolve (*derived*: r600g binds it beside
       * the multisampled source with the same PA_SC_AA_CONFIG). */
      m.samples = resolve_destination ? 1 : 1u << aa_config_log_samples(state.get(PA_SC_AA_CONFIG_EVERGREEN), false);
      m.fragments = m.samples;
   }
   if (m.samples > 8)
      return refuse(error, "CB_COLOR%u: more than 8 samples are not simulated (ATTRIB 0x%08x)", n, attrib);
   if (m.fragments != m.samples)
      return refuse(error, "CB_COLOR%u: fewer fragments than samples (EQAA) is not simulated (ATTRIB 0x%08x)", n, attrib);
   if (resolve_destination && m.samples > 1)
      return refuse(error, "CB_COLOR%u: a resolve destination must have one sample (ATTRIB 0x%08x)", n, attrib);

   const uint32_t pitch = state.get(base_reg + hw::reg::Pitch), slice = state.get(base_reg + hw::reg::Slice);
   const unsigned width = ((pitch & 0x7ff) + 1) * 8;
   const unsigned height = unsigned((uint64_t(slice & 0x3fffff) + 1) * 64 / width);
   const unsigned array_mode = hw::gfx::cb_info_array_mode(info);

   /* SLICE_START (r600g renders a layer so); CMASK slices are not modelled. */
   const uint32_t view = state.get(base_reg + hw::reg::View);
   m.slice = m.last_slice = m.samples > 1 ? view & 0x7ff : 0;
   const bool layered = (state.get(hw::gfx::PA_CL_VS_OUT_CNTL) & hw::gfx::vs_out_use_render_target_index) != 0;
   if (m.samples > 1 && layered)
      m.last_slice = std::max(m.slice, (view >> 13) & 0x7ff);
   m.compressed = m.samples > 1 && cb_info_compression(info);
   if (m.compressed) {
      /* FMASK: r600g allocates it as a 2D-tiled surface of 1 (2, 4 samples) or 4 (8 samples)
       * bytes a pixel with the colour surface's bank width, macro-tile aspect and tile split,
       * bank height FMASK_BANK_HEIGHT, non-displayable order (r600_texture_get_fmask_info,
       * evergreen_init_color_surface); its pitch is the colour pitch (the same macro-tile
       * width). */
      if (array_mode != 4)
         return refuse(error, "CB_COLOR%u: FMASK of a buffer that is not 2D tiled is not simulated (INFO 0x%08x)", n,
                       info);
      hw::LevelAddressing &a = m.fmask_addressing;
      a.mode = hw::ArrayMode::Tiled2DThin1;
      a.pitch = width;
      a.bytes_per_element = fmask_bytes_per_pixel(m.samples);
      a.non_displayable_order = true;
      a.tiling = state.tiling;
      /* FMASK has its own bank height (FMASK_BANK_HEIGHT); the other codes are the colour's. */
      const hw::gfx::TilingCodes codes = hw::gfx::cb_attrib_tiling(attrib);
      a.macro = hw::macro_tiling_from_codes(codes.tile_split, codes.banks, codes.bank_width,
                                            cb_attrib_fmask_bank_height(attrib), codes.macro_tile_aspect);
      const uint64_t fmask_tiles = uint64_t(slice_tile_max(state.get(base_reg + FmaskSlice))) + 1;
      if (fmask_tiles * 64 < uint64_t(width) * height)
         return refuse(error, "CB_COLOR%u: FMASK_SLICE is smaller than the colour buffer (0x%08x)", n,
                       state.get(base_reg + FmaskSlice));
      /* FMASK's own rows: its macro tile (FMASK_BANK_HEIGHT; r600g uses 4 for up to 4 samples)
       * may be taller than the colour's, and FMASK_SLICE counts the surface's 8x8 tiles. */
      a.aligned_height = unsigned(fmask_tiles * 64 / width);
      const uint64_t start = hw::macro_tiled_surface_start(uint64_t(state.get(base_reg + Fmask)) << 8, state.tiling,
                                                           a.macro.banks, a.swizzle);
      std::string memory_error;
      m.fmask = memory.resolve(start, uint64_t(width) * a.aligned_height * a.bytes_per_element * (m.last_slice + 1),
                               memory_error);
      if (!m.fmask)
         return refuse(error, ("CB_COLOR%u: FMASK memory: " + memory_error + " (0x%08x)").c_str(), n,
                       state.get(base_reg + Fmask));
   }

   m.fast_clear = cb_info_fast_clear(info);
   if (m.fast_clear && layered)
      return refuse(error, "CB_COLOR%u: FAST_CLEAR (CMASK) with a render target index from the vertex shader is not "
                           "simulated (VIEW 0x%08x)", n, view);
   if (m.fast_clear && m.slice)
      return refuse(error, "CB_COLOR%u: FAST_CLEAR (CMASK) with SLICE_START %u above 0 is not simulated", n, m.slice);
   if (m.fast_clear) {
      const uint64_t bytes = (uint64_t(slice_tile_max(state.get(base_reg + CmaskSlice))) + 1) * 128;
      m.cmask_tiles_per_row = width / 8;
      const uint64_t needed = (uint64_t(m.cmask_tiles_per_row) * ((height + 7) / 8) + 1) / 2;
      if (needed > bytes)
         return refuse(error, "CB_COLOR%u: CMASK_SLICE is too small for the colour buffer (0x%08x)", n,
                       state.get(base_reg + CmaskSlice));
      std::string memory_error;
      m.cmask = memory.resolve(uint64_t(state.get(base_reg + Cmask)) << 8, needed, memory_error);
      if (!m.cmask)
         return refuse(error, ("CB_COLOR%u: CMASK memory: " + memory_error + " (0x%08x)").c_str(), n,
                       state.get(base_reg + Cmask));
      if (element_bytes > m.clear_element.size())
         return refuse(error, "CB_COLOR%u: fast clears of elements wider than 64 bits are not simulated (INFO 0x%08x)", n,
                       info);
      const uint32_t words[2] = {state.get(base_reg + ClearWord0), state.get(base_reg + ClearWord1)};
      std::memcpy(m.clear_element.data(), words, sizeof(words));
      /* The nibbles r600g writes are 0 and 0xC; any other value is a state it never makes. */
      for (uint64_t i = 0; i < needed; i++)
         for (unsigned half = 0; half < 2; half++) {
            const unsigned nibble = (m.cmask[i] >> (4 * half)) & 0xf;
            if (nibble != cmask_fast_cleared && nibble != cmask_compressed)
               return refuse(error, "CB_COLOR%u: CMASK holds a nibble other than 0 and 0xC (%u), not simulated", n,
                             nibble);
         }
   }
   return true;
}

uint64_t colour_surface_bytes(const ColourTarget &t)
{
   return uint64_t(t.width) * t.height * t.element_bytes * t.msaa.fragments;
}

std::array<uint8_t, 16> read_sample_element(const ColourTarget &t, unsigned x, unsigned y, unsigned sample)
{
   const ColourMetadata &m = t.msaa;
   Element out{};
   if (tile_fast_cleared(m, x, y)) {
      std::copy(m.clear_element.begin(), m.clear_element.end(), out.begin());
      return out;
   }
   unsigned fragment = sample;
   if (m.compressed) {
      const unsigned bits = fmask_bits_per_sample(m.samples);
      fragment = (load_fmask(m, x, y) >> (bits * sample)) & ((1u << bits) - 1);
      /* A fragment index past the fragments is GCN's "unwritten"; here it cannot be read. */
      if (fragment >= m.fragments)
         fragment = 0;
   }
   std::memcpy(out.data(), fragment_at(t, x, y, fragment), t.element_bytes);
   return out;
}

void write_colour_samples(ColourTarget &t, unsigned x, unsigned y, uint16_t coverage,
                          const std::array<uint32_t, 4> &exported, const std::array<uint32_t, 4> *second)
{
   ColourMetadata &m = t.msaa;
   coverage &= uint16_t((1u << m.samples) - 1);
   if (!coverage)
      return;
   std::array<Element, 16> samples{};
   for (unsigned s = 0; s < m.samples; s++)
      samples[s] = read_sample_element(t, x, y, s);
   for (unsigned s = 0; s < m.samples; s++)
      if ((coverage >> s) & 1)
         write_element(t, samples[s].data(), exported, second);
   if (tile_fast_cleared(m, x, y))
      expand_fast_cleared_tile(t, x, y);
   store_pixel(t, x, y, samples);
}

void fmask_decompress_pixel(ColourTarget &t, unsigned x, unsigned y)
{
   if (tile_fast_cleared(t.msaa, x, y))
      expand_fast_cleared_tile(t, x, y);
}

void resolve_pixel(const ColourTarget &source, ColourTarget &destination, unsigned x, unsigned y)
{
   /* The average of the samples in the source's number format, converted into the
    * destination's as a shader export would be (round to nearest for normalized formats:
    * *derived*, it is what llvmpipe's resolve shader gives). The sum is taken in doubles, where
    * the decoded values of normalized formats (codes / (2^bits - 1) as floats) add up without
    * rounding, so the average depends only on the samples' values, not on which samples hold
    * them: summed in floats, two pixels with the same colours on different samples could round
    * a tie apart (dEQP's sample_locations_ext draw.color.samples_8 cases count the distinct
    * resolved colours). */
   std::array<double, 4> sum{};
   for (unsigned s = 0; s < source.msaa.samples; s++) {
      const Element element = read_sample_element(source, x, y, s);
      const std::array<uint32_t, 4> value = read_element(source, element.data());
      for (unsigned c = 0; c < 4; c++)
         sum[c] += as_float(value[c]);
   }
   std::array<uint32_t, 4> average{};
   for (unsigned c = 0; c < 4; c++)
      average[c] = as_bits(float(sum[c] / double(source.msaa.samples)));
   write_colour(destination, x, y, average);
}

} // namespace terakan::sim
