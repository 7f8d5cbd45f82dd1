/* What the kernel-side checkers (cs_checker.cpp, dma_checker.cpp) throw when they refuse a
 * command stream, and the printf they build the kernel's messages with. */
#pragma once

#include <cstdarg>
#include <cstdio>
#include <string>

namespace terakan::sim::check {

struct Failure {
   std::string message;
};

inline std::string format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
inline std::string format(const char *fmt, ...)
{
   char buffer[256];
   va_list args;
   va_start(args, fmt);
   std::vsnprintf(buffer, sizeof(buffer), fmt, args);
   va_end(args);
   return buffer;
}

} // namespace terakan::sim::check
