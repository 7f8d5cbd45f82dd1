/* Alpha to coverage (DB_ALPHA_TO_MASK).
 *
 * Facts (Mesa evergreend.h, r600g evergreen_create_blend_state and cayman_emit_msaa_state,
 * radeonsi and RADV for the same register on later chips): ALPHA_TO_MASK_ENABLE [0],
 * ALPHA_TO_MASK_OFFSET0-3 [9:8], [11:10], [13:12], [15:14], OFFSET_ROUND [16];
 * DB_SHADER_CONTROL.ALPHA_TO_MASK_DISABLE [12] (r600g sets it when colour buffer 0 holds
 * integers); Cayman's DB_EQAA.ALPHA_TO_MASK_NUM_SAMPLES [14:12] (log2, r600g writes the
 * rasterization's sample count). r600g and RADV without dithering program every offset 2 and
 * OFFSET_ROUND 0; radeonsi and RADV's dithered setting is offsets 3, 1, 0, 2 with OFFSET_ROUND 1.
 *
 * *Derived* (no document describes the arithmetic): the offsets are a 2x2 ordered dither in
 * quarters of a sample, so a pixel covers n = floor(alpha * samples + (offset + round / 2) / 4)
 * samples, clamped to [0, samples]: offset 2 without rounding rounds alpha * samples to the
 * nearest count (ties up), and the dithered offsets 3, 1, 0, 2 with rounding give thresholds
 * 7/8, 3/8, 1/8, 5/8 of a sample, centred as a dither is; the offsets belong to the quad's
 * pixels in the order PA_SC_AA_MASK uses (X0Y0, X1Y0, X0Y1, X1Y1); the n covered samples are
 * the lowest-numbered ones (llvmpipe's choice; the hardware's is not known). A non-finite or
 * negative alpha covers nothing; alpha above 1 covers everything. */
#include "gfx/alpha_to_mask.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "hw/graphics_registers.h"
#include "hw/msaa.h"

namespace terakan::sim {

bool decode_alpha_to_mask(const PipelineState &state, unsigned samples, AlphaToMask &out, std::string &error)
{
   out = {};
   const uint32_t value = state.get(hw::msaa::DB_ALPHA_TO_MASK);
   if (!(value & 1) || ((state.get(hw::gfx::DB_SHADER_CONTROL) >> 12) & 1))
      return true;
   out.enabled = true;
   out.samples = samples;
   for (unsigned i = 0; i < 4; i++)
      out.offsets[i] = (value >> (8 + 2 * i)) & 3;
   out.round = (value >> 16) & 1;
   if (state.isa == hw::IsaClass::Cayman && samples > 1) {
      const unsigned log_samples = (state.get(hw::msaa::CM_DB_EQAA) >> 12) & 7;
      if ((1u << log_samples) != samples) {
         char text[160];
         std::snprintf(text, sizeof(text),
                       "DB_EQAA.ALPHA_TO_MASK_NUM_SAMPLES (%u samples) other than the rasterization's %u is not "
                       "simulated",
                       1u << log_samples, samples);
         error = text;
         return false;
      }
   }
   return true;
}

uint16_t alpha_to_mask(const AlphaToMask &rule, float alpha, unsigned quad_pixel)
{
   const unsigned all = (1u << rule.samples) - 1;
   if (!(alpha > 0.0f))
      return 0; /* also NaN */
   if (alpha >= 1.0f)
      return uint16_t(all);
   const double offset = (double(rule.offsets[quad_pixel & 3]) + (rule.round ? 0.5 : 0.0)) / 4.0;
   const double n = std::floor(double(alpha) * rule.samples + offset);
   const unsigned count = unsigned(std::clamp(n, 0.0, double(rule.samples)));
   return uint16_t((1u << count) - 1);
}

} // namespace terakan::sim
