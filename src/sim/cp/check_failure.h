/* What the kernel-side checkers (cs_checker.cpp, dma_checker.cpp) throw when they refuse a
 * command stream; its messages are built with format_message (core/message.h). */
#pragma once

#include <string>

#include "core/message.h"

namespace terakan::sim::check {

struct Failure {
   std::string message;
};

} // namespace terakan::sim::check
