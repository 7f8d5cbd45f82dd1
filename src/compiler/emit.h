/* Encoding: scheduled and allocated IR -> verified microcode. */
#pragma once

#include <string>

#include "backend_ir.h"
#include "compiler.h"

namespace terakan::compiler {

bool emit_program(ScheduledProgram &scheduled, const Allocation &allocation,
                  const SelectedProgram &selected, ShaderBinary &binary, std::string &error);

} // namespace terakan::compiler
