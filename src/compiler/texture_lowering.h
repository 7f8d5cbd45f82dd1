/* Texture operations as the backend wants them: every sample names a constant texture
 * resource and sampler slot, and carries how its coordinates are chosen (seed 004, the
 * unnormalized-coordinate variants):
 *
 *  - a sampler known at compile time (immutable), or a chip whose sampler words force
 *    unnormalized coordinates: fixed;
 *  - a sampler reached through a run-time index: one branch per array element, and per element
 *    an if/else between an unnormalized and a normalized sample on a bit of the driver's mask;
 *  - otherwise: compiled normalized and recorded, so that the driver can make a variant with
 *    the COORD_TYPE bits cleared without recompiling.
 *
 * The choice travels on the tex instruction as a constant nir_tex_src_backend1 source. */
#pragma once

#include <string>
#include <vector>

#include "compiler/compiler.h"
#include "compiler/nir/nir.h"

namespace terakan::compiler {

/* Values of the backend1 source. */
inline constexpr unsigned coordinates_normalized = 0;
inline constexpr unsigned coordinates_unnormalized = 1;
inline constexpr unsigned coordinates_recorded = 2; /* + the SamplerRecord's index */

bool lower_textures(nir_shader *shader, const CompileOptions &options,
                    std::vector<SamplerRecord> &records, std::string &error);

} // namespace terakan::compiler
