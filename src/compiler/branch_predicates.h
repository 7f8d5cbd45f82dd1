/* Each If's predicate as an ALU operation of its own, with the comparison folded in where the
 * condition is a comparison read by that If only (see branch_predicates.cpp). */
#pragma once

#include "backend_ir.h"

namespace terakan::compiler {

void form_branch_predicates(SelectedProgram &program);

} // namespace terakan::compiler
