/* Shader inputs read through an array index known only at run time (`in vec4 v[4]; ... v[i]`,
 * interpolateAt*(v[i], ...), gl_ClipDistance[i] in a pixel shader). */
#pragma once

#include "compiler/nir/nir.h"

namespace terakan::compiler {

/* Every such read becomes a read of each element the index could name (constant indices),
 * followed by a chain of selects on the index; an index past the end reads the last element
 * (undefined in Vulkan). Call on variables, before nir_lower_io. Why selects rather than
 * branches: docs/compiler.md, "Inputs and outputs indexed at run time". */
bool lower_indexed_inputs(nir_shader *shader);

/* Every store through a run-time index into an output array becomes a store to each element
 * the index could name, of the new value where the index names it and of the element's own
 * value elsewhere (selects once the outputs are SSA temporaries), instead of the branches
 * nir_lower_indirect_derefs would make of the temporary array. Call before
 * lower_outputs_to_temporaries. */
bool lower_indexed_outputs(nir_shader *shader);

} // namespace terakan::compiler
