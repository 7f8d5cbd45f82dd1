/* textureGather* before texture slots are assigned (see gather_lowering.cpp). */
#pragma once

#include "compiler/nir/nir.h"

namespace terakan::compiler {

/* Splits textureGatherOffsets into one gather per offset and moves the coordinates of gathers
 * from integer textures back by half a texel (the texture unit's integer footprint). Runs
 * while the gathers still name their variables. */
bool lower_gathers(nir_shader *shader);

} // namespace terakan::compiler
