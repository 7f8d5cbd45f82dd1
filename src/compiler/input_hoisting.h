/* Pixel-shader inputs read at the start of the shader (see input_hoisting.cpp). */
#pragma once

#include "compiler/nir/nir.h"

namespace terakan::compiler {

/* Moves every interpolated or flat input read whose operands are known at the start (a
 * barycentric pair at the pixel centre, centroid or sample, a constant slot offset) to the
 * top of the entry block. Runs after nir_lower_io, before the optimization loop. */
bool hoist_fragment_inputs(nir_shader *shader);

} // namespace terakan::compiler
