/* The simulated GPU's view of memory: GPU addresses resolved to the bytes of buffer objects.
 * Every access names the whole range it touches; an access that does not lie inside one buffer
 * is an error for the submission (design rule 3), never a host crash. */
#pragma once

#include <cstdint>
#include <string>

namespace terakan::sim {

class GpuMemory {
public:
   virtual ~GpuMemory() = default;
   /* Host pointer to `size` bytes at `address`, all inside one buffer, or nullptr (with
    * `error` set) if they are not. */
   virtual uint8_t *resolve(uint64_t address, uint64_t size, std::string &error) = 0;
   /* Bytes from `address` to the end of the buffer holding it; 0 if none does. */
   virtual uint64_t bytes_after(uint64_t address) = 0;

   bool read(uint64_t address, void *out, uint64_t size, std::string &error);
   bool write(uint64_t address, const void *data, uint64_t size, std::string &error);
};

} // namespace terakan::sim
