/* Text form of the backend IR (TERAKAN_DEBUG=ir). */
#pragma once

#include <string>

#include "backend_ir.h"

namespace terakan::compiler {

std::string print_selected(const SelectedProgram &program);
std::string print_scheduled(const ScheduledProgram &program);

} // namespace terakan::compiler
