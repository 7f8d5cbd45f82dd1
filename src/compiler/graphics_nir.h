/* The NIR side of vertex and pixel shaders: which entry point the module has, and the lowering
 * of their inputs, outputs and system values to what select_graphics.cpp takes. */
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "compiler.h"
#include "compiler/nir/nir.h"

namespace terakan::compiler {

/* Whether `spirv` has an entry point `entry` of `stage`; otherwise says what it has instead
 * (a geometry shader, say) in `error`. Reads the OpEntryPoint instructions only; the module is
 * validated afterwards. */
bool check_entry_point(std::span<const uint32_t> spirv, const char *entry, ShaderStage stage,
                       std::string &error);

/* Before nir_lower_system_values: InstanceIndex becomes load_instance_id, whose value (R0.w)
 * already includes the first instance (docs/compiler.md, "Graphics ABI"). */
bool lower_instance_index(nir_shader *shader);

/* Output variables become temporaries stored once at the end (exports happen there). Call
 * before the variables are lowered to SSA. */
void lower_outputs_to_temporaries(nir_shader *shader);

/* Inputs and outputs become load_input / load_interpolated_input / store_output with
 * io_semantics (vec4 slots); conditional discards become discard_if. */
void lower_graphics_io(nir_shader *shader);

} // namespace terakan::compiler
