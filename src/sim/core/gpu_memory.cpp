#include "gpu_memory.h"

#include <cstring>

namespace terakan::sim {

bool GpuMemory::read(uint64_t address, void *out, uint64_t size, std::string &error)
{
   uint8_t *bytes = resolve(address, size, error);
   if (!bytes)
      return false;
   std::memcpy(out, bytes, size);
   return true;
}

bool GpuMemory::write(uint64_t address, const void *data, uint64_t size, std::string &error)
{
   uint8_t *bytes = resolve(address, size, error);
   if (!bytes)
      return false;
   std::memcpy(bytes, data, size);
   return true;
}

} // namespace terakan::sim
