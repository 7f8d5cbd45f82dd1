/* terakan-bench-sim's pixel part: draws through the simulator's fixed-function path
 * (src/sim/gfx/draw.h run_draw) with hand-assembled shaders and prints shaded pixels per
 * second, for a simple pixel shader and a texture-heavy one. */
#pragma once

#include "hw/chips.h"

namespace terakan::bench {

/* Returns false (after printing why) if a draw failed. */
bool run_pixel_benchmarks(hw::IsaClass isa, int repeat);

} // namespace terakan::bench
