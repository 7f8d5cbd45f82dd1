/* Vulkan 1.1's subgroups on TeraScale: subgroups of one invocation (subgroups.cpp says why).
 * Every subgroup operation the driver advertises (basic, vote, arithmetic, ballot, shuffle,
 * relative shuffle; not clustered or quad) becomes its answer for one invocation. */
#pragma once

#include "nir.h"

namespace terakan::compiler {

/* Size one, invocation 0, one subgroup per invocation of the workgroup. */
inline constexpr unsigned subgroup_size = 1;

bool lower_subgroups_of_one(nir_shader *shader);

} // namespace terakan::compiler
