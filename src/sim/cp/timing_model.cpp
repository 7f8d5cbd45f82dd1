#include "timing_model.h"

#include <algorithm>

namespace terakan::sim {

uint64_t modelled_engine_clocks(const TimingModel &model, const WorkDone &work)
{
   /* The SIMDs that get work: no more than there are waves. */
   const uint64_t simds = std::max<uint64_t>(1, std::min<uint64_t>(model.simds, work.wavefronts));
   const uint64_t alu = (work.alu_groups * 4 + simds - 1) / simds;
   const uint64_t fetch = (work.lane_fetches + 4 * simds - 1) / (4 * simds);
   const uint64_t backends = std::max(1u, model.render_backends);
   const uint64_t pixels = (work.pixels_written + 4 * backends - 1) / (4 * backends);
   const uint64_t primitives = (work.primitives + std::max(1u, model.primitives_per_clock) - 1) /
                               std::max(1u, model.primitives_per_clock);
   return std::max({alu, fetch, pixels, primitives});
}

} // namespace terakan::sim
