/* Saturation folded into the operation that computes the value (see clamp_folding.cpp). */
#pragma once

#include "backend_ir.h"

namespace terakan::compiler {

void fold_clamps(SelectedProgram &program);

} // namespace terakan::compiler
