/* A GPU address space for shader-core tests: a few buffers at fixed addresses. */
#pragma once

#include <cstdint>
#include <cstdio>
#include <vector>

#include "core/gpu_memory.h"

namespace terakan::test {

class TestMemory : public sim::GpuMemory {
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
      for (Buffer &buffer : buffers) {
         if (address >= buffer.address && address - buffer.address <= buffer.bytes.size() &&
             size <= buffer.bytes.size() - (address - buffer.address))
            return buffer.bytes.data() + (address - buffer.address);
      }
      char text[96];
      std::snprintf(text, sizeof(text), "0x%llx+%llu is not inside one buffer",
                    (unsigned long long)address, (unsigned long long)size);
      error = text;
      return nullptr;
   }

   uint64_t bytes_after(uint64_t address) override
   {
      for (Buffer &buffer : buffers)
         if (address >= buffer.address && address - buffer.address < buffer.bytes.size())
            return buffer.bytes.size() - (address - buffer.address);
      return 0;
   }

   std::vector<Buffer> buffers;
};

} // namespace terakan::test
