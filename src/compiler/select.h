/* Instruction selection: NIR -> the backend IR. */
#pragma once

#include <string>

#include "backend_ir.h"
#include "compiler/compiler.h"
#include "compiler/nir/nir.h"

namespace terakan::compiler {

bool select_program(nir_shader *shader, hw::IsaClass isa, const CompileOptions &options,
                    SelectedProgram &out, std::string &error);

} // namespace terakan::compiler
