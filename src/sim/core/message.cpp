#include "message.h"

#include <cstdio>

namespace terakan::sim {

std::string vformat_message(const char *format, va_list args)
{
   va_list copy;
   va_copy(copy, args);
   const int length = std::vsnprintf(nullptr, 0, format, copy);
   va_end(copy);
   if (length <= 0)
      return {};
   std::string text(size_t(length) + 1, '\0');
   std::vsnprintf(text.data(), text.size(), format, args);
   text.resize(size_t(length));
   return text;
}

std::string format_message(const char *format, ...)
{
   va_list args;
   va_start(args, format);
   std::string text = vformat_message(format, args);
   va_end(args);
   return text;
}

void fault(const char *format, ...)
{
   va_list args;
   va_start(args, format);
   SimulatorFault failure{vformat_message(format, args)};
   va_end(args);
   throw failure;
}

std::string hex_string(uint64_t value)
{
   return format_message("0x%llx", (unsigned long long)value);
}

} // namespace terakan::sim
