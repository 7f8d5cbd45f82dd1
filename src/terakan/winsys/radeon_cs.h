/* A command stream for DRM_RADEON_CS: PM4 dwords plus the relocation list the kernel checks
 * them against. Each buffer a packet addresses is named by a relocation NOP that follows the
 * packet; the kernel patches the packet with the buffer's GPU address (evergreen_cs.c). */
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "hw/pm4.h"

namespace terakan::winsys {

class RadeonBo;
class RadeonDevice;

/* The kernel accepts at most this many IB dwords per submission (its 1 MiB IB pool). */
inline constexpr size_t max_ib_dwords = 256 * 1024;

class CommandStream {
public:
   std::vector<uint32_t> dwords;

   void clear();
   size_t size() const { return dwords.size(); }

   void emit(uint32_t dword) { dwords.push_back(dword); }
   /* A type-3 packet header for `body_dwords` dwords of body. */
   void packet(uint32_t opcode, uint32_t body_dwords, bool compute = false)
   {
      dwords.push_back(hw::pm4::packet3(opcode, body_dwords - 1, compute));
   }
   /* The relocation NOP that names `bo` for the packet just emitted. */
   void relocation(RadeonBo &bo);

   /* Registers in the config, context or resource windows. */
   void config_registers(uint32_t reg, std::initializer_list<uint32_t> values);
   void context_registers(uint32_t reg, std::initializer_list<uint32_t> values,
                          bool compute = true);

   /* Every buffer the stream names, in relocation order. */
   const std::vector<RadeonBo *> &buffers() const { return buffers_; }

   /* Submits to the GFX ring (compute on these chips goes there too). Returns 0, or the
    * kernel's errno with a message in `error`. */
   int submit(RadeonDevice &device, std::string &error) const;

private:
   uint32_t relocation_index(RadeonBo &bo);

   std::vector<RadeonBo *> buffers_;
   std::unordered_map<uint32_t, uint32_t> index_of_handle_;
};

} // namespace terakan::winsys
