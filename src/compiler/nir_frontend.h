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

} // namespace terakan::compiler
