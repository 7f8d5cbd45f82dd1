/* The multisample discard of VK_EXT_conservative_rasterization's emulation (issue 17,
 * docs/architecture.md "Conservative rasterization"): with several samples the driver's
 * polygon is pushed out by a whole pixel so that every sample of a touched pixel is covered,
 * and the pixel shader then discards the pixels the triangle does not touch. The polygon's
 * vertices carry the triangle's three edges as flat vec4s (a, b, c, 0) at three consecutive
 * varying locations: a x + b y + c >= 0 at a pixel centre (x, y) that belongs to the pixel
 * square's Minkowski sum with the triangle (terakan_conservative_shader.h). */
#pragma once

#include "compiler/nir/nir.h"

namespace terakan::compiler {

/* Adds, at the start of the fragment shader, the three flat inputs at locations first_location
 * .. first_location + 2 and a discard when FragCoord is outside any of their edges. Runs on the
 * shader's variables (before its I/O is lowered). */
void add_conservative_discard(nir_shader *shader, unsigned first_location);

} // namespace terakan::compiler
