/* Kernel-safe context registers that no simulated block reads, but whose value would change
 * what a draw produces: the draw is refused ("not simulated: NAME = value") when a command
 * stream wrote one of them with a value the simulator does not model. A register never
 * written holds the value the kernel's default state gives it at ring start, which is the
 * modelled one for every register here (Linux evergreen_blit_shaders.c / cayman_blit_shaders.c
 * default state; *derived* for the registers that list leaves out). The registers that
 * cannot change the picture, and why, are listed in docs/sim-semantics.md ("Registers
 * accepted with no effect modelled"). */
#pragma once

#include <string>

#include "gfx/draw.h"

namespace terakan::sim {

/* Returns the refusal for the draw's register state, or an empty string. */
std::string check_unmodelled_state(const PipelineState &state);

} // namespace terakan::sim
