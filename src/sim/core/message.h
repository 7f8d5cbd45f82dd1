/* Messages the simulator builds for refusals and faults: a printf into a std::string. */
#pragma once

#include <cstdarg>
#include <cstdint>
#include <string>

namespace terakan::sim {

std::string vformat_message(const char *format, va_list args);
std::string format_message(const char *format, ...) __attribute__((format(printf, 1, 2)));
/* A refusal or fault on its way to the entry point that reports it (a draw, a texture
 * lookup): thrown by fault(), caught there. */
struct SimulatorFault {
   std::string message;
};
[[noreturn]] void fault(const char *format, ...) __attribute__((format(printf, 1, 2)));

/* "0x" and the value in lower-case hex, as addresses appear in messages. */
std::string hex_string(uint64_t value);

} // namespace terakan::sim
