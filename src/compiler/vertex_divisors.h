/* VK_EXT_vertex_attribute_divisor in the vertex shader: per-instance inputs whose binding has a
 * divisor other than 1 read element firstInstance + (InstanceIndex - firstInstance) / divisor
 * (firstInstance alone for divisor 0), computed in the shader (docs/compiler.md, "Vertex
 * inputs"). */
#pragma once

#include <vector>

#include "compiler.h"
#include "compiler/nir/nir.h"

namespace terakan::compiler {

/* After nir_lower_io: each load_input of such a location becomes load_per_vertex_input whose
 * first source is the element index (select_graphics.cpp fetches with it instead of R0.w).
 * Divisors are pipeline state, so they are constants here: the division is by an immediate. */
bool lower_instance_divisors(nir_shader *shader, const std::vector<VertexInputOption> &inputs);

/* Dynamic vertex input (CompileOptions::dynamic_vertex_input): every load_input of a location
 * becomes load_per_vertex_input whose element is chosen at run time from the driver constants
 * (compiler.h, vertex_input_instance_mask_constant), once per location at the program's top:
 * VertexIndex for a per-vertex location, InstanceIndex for a per-instance one, and inside a
 * uniform branch taken only when some location's divisor is not 1, the divided instance
 * element above with the divisor read from the constants (a run-time division, nir_lower_idiv). */
bool lower_dynamic_vertex_input(nir_shader *shader);

} // namespace terakan::compiler
