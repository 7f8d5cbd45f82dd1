/* A GPU address space made of plain host buffers at fixed addresses: for tests, benchmarks and
 * tools that drive the shader core or the command processor without the kernel interface. */
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "gpu_memory.h"

namespace terakan::sim {

class HostMemory : public GpuMemory {
public:
   struct Buffer {
      uint64_t address;
      std::vector<uint8_t> bytes;
   };

   Buffer &add(uint64_t address, size_t size)
   {
      buffers.push_back({address, std::vector<uint8_t>(size, 0)});
      return buffers.back();
   }

   uint8_t *resolve(uint64_t address, uint64_t size, std::string &error) override
   {
      if (Buffer *buffer = find(address); buffer && size <= buffer->bytes.size() - (address - buffer->address))
         return buffer->bytes.data() + (address - buffer->address);
      char text[96];
      std::snprintf(text, sizeof(text), "0x%llx+%llu is not inside one buffer",
                    (unsigned long long)address, (unsigned long long)size);
      error = text;
      return nullptr;
   }

   uint64_t bytes_after(uint64_t address) override
   {
      Buffer *buffer = find(address);
      return buffer ? buffer->bytes.size() - (address - buffer->address) : 0;
   }

   std::vector<Buffer> buffers;

private:
   Buffer *find(uint64_t address)
   {
      for (Buffer &buffer : buffers)
         if (address >= buffer.address && address - buffer.address < buffer.bytes.size())
            return &buffer;
      return nullptr;
   }
};

} // namespace terakan::sim
