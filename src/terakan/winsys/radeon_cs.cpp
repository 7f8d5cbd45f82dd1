#include "radeon_cs.h"

#include <cstring>

#include <xf86drm.h>
#include <radeon_drm.h>

#include "radeon_bo.h"
#include "radeon_device.h"

namespace terakan::winsys {

void CommandStream::clear()
{
   dwords.clear();
   buffers_.clear();
   index_of_handle_.clear();
}

uint32_t CommandStream::relocation_index(RadeonBo &bo)
{
   auto [entry, inserted] = index_of_handle_.try_emplace(bo.handle(), uint32_t(buffers_.size()));
   if (inserted)
      buffers_.push_back(&bo);
   return entry->second;
}

void CommandStream::relocation(RadeonBo &bo)
{
   const uint32_t index = relocation_index(bo);
   /* The NOP's body is the relocation's dword offset in the RELOCS chunk (4 dwords each). */
   packet(hw::pm4::NOP, 1);
   emit(index * 4);
}

static void set_registers(CommandStream &cs, uint32_t opcode, hw::pm4::RegisterWindow window,
                          uint32_t reg, std::initializer_list<uint32_t> values, bool compute)
{
   cs.emit(hw::pm4::packet3(opcode, uint32_t(values.size()), compute));
   cs.emit((reg - window.start) >> 2);
   cs.dwords.insert(cs.dwords.end(), values);
}

void CommandStream::config_registers(uint32_t reg, std::initializer_list<uint32_t> values)
{
   set_registers(*this, hw::pm4::SET_CONFIG_REG, hw::pm4::config_window, reg, values, false);
}

void CommandStream::context_registers(uint32_t reg, std::initializer_list<uint32_t> values,
                                      bool compute)
{
   set_registers(*this, hw::pm4::SET_CONTEXT_REG, hw::pm4::context_window, reg, values, compute);
}

int CommandStream::submit(RadeonDevice &device, std::string &error) const
{
   if (dwords.empty())
      return 0;
   if (dwords.size() > max_ib_dwords) {
      error = "command stream of " + std::to_string(dwords.size()) + " dwords is larger than "
              "the kernel's IB limit";
      return EINVAL;
   }
   std::vector<drm_radeon_cs_reloc> relocs(buffers_.size());
   for (size_t i = 0; i < buffers_.size(); i++) {
      relocs[i].handle = buffers_[i]->handle();
      relocs[i].read_domains = buffers_[i]->domain();
      relocs[i].write_domain = buffers_[i]->domain();
      relocs[i].flags = 0;
   }
   /* KEEP_TILING_FLAGS: the driver writes the tiling fields itself (as Mesa's r600 does). */
   const uint32_t flags[2] = {RADEON_CS_KEEP_TILING_FLAGS, RADEON_CS_RING_GFX};
   drm_radeon_cs_chunk chunks[3] = {
      {RADEON_CHUNK_ID_IB, uint32_t(dwords.size()), uint64_t(uintptr_t(dwords.data()))},
      {RADEON_CHUNK_ID_RELOCS, uint32_t(relocs.size() * 4), uint64_t(uintptr_t(relocs.data()))},
      {RADEON_CHUNK_ID_FLAGS, 2, uint64_t(uintptr_t(flags))},
   };
   uint64_t chunk_pointers[3] = {uint64_t(uintptr_t(&chunks[0])), uint64_t(uintptr_t(&chunks[1])),
                                 uint64_t(uintptr_t(&chunks[2]))};
   drm_radeon_cs cs = {};
   cs.num_chunks = 3;
   cs.chunks = uint64_t(uintptr_t(chunk_pointers));
   const int result = drmCommandWriteRead(device.fd(), DRM_RADEON_CS, &cs, sizeof(cs));
   if (result != 0) {
      error = std::string("DRM_RADEON_CS failed: ") + std::strerror(-result);
      return -result;
   }
   return 0;
}

} // namespace terakan::winsys
