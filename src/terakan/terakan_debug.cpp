#include "terakan_debug.h"

#include "terakan_unimplemented.h"

#include "util/log.h"
#include "util/u_debug.h"

#include <atomic>
#include <cstdlib>

uint64_t terakan_debug_flags()
{
   static const debug_control controls[] = {
      {"startup", TERAKAN_DEBUG_STARTUP},
      {"variants", TERAKAN_DEBUG_VARIANTS},
      {"errors", TERAKAN_DEBUG_ERRORS},
      {"dmacopies", TERAKAN_DEBUG_DMA_COPIES},
      {"copies", TERAKAN_DEBUG_COPIES},
      {"streams", TERAKAN_DEBUG_STREAMS},
      {nullptr, 0},
   };
   /* Function-local statics are initialized once, thread-safely. */
   static const uint64_t flags = parse_debug_string(std::getenv("TERAKAN_DEBUG"), controls);
   return flags;
}

extern "C" void terakan_report_unimplemented(const char *command, int *reported)
{
   std::atomic_ref<int> flag(*reported);
   if (flag.exchange(1) == 0)
      mesa_loge("terakan: %s is not implemented by Terakan yet", command);
}
