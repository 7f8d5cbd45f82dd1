/* SPIR-V -> NIR ready for instruction selection (nir_frontend.cpp says which passes and why). */
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "compiler.h"
#include "compiler/nir/nir.h"

namespace terakan::compiler {

/* Returns nullptr with `error` set when the module cannot be translated. The shader holds a
 * reference on Mesa's GLSL type singleton until release_nir(). */
nir_shader *spirv_to_terakan_nir(std::span<const uint32_t> spirv, ShaderStage stage, const char *entry,
                                 const CompileOptions &options,
                                 std::vector<SamplerRecord> &sampler_records, std::string &error);
void release_nir(nir_shader *shader);

/* The NIR options every shader the compiler takes is made with. */
const nir_shader_compiler_options &compiler_nir_options();

/* The passes after translation, for a shader from spirv_to_nir or built with nir_builder
 * (the driver's own shaders): variables, system values, I/O and textures lowered, optimized,
 * out of SSA. On failure the shader is released. */
bool finish_terakan_nir(nir_shader *shader, ShaderStage stage, const CompileOptions &options,
                        std::vector<SamplerRecord> &sampler_records, std::string &error);

/* For nir_shader_instructions_pass callbacks: `instr` if it loads system value `value` through
 * a variable deref (before nir_lower_system_values), else nullptr. */
nir_intrinsic_instr *system_value_deref_load(nir_instr *instr, gl_system_value value);

/* Replaces such a load with `replacement` and removes it. */
void replace_system_value_load(nir_intrinsic_instr *load, nir_ssa_def *replacement);

} // namespace terakan::compiler
