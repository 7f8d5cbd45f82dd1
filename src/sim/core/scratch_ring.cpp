#include "scratch_ring.h"

#include <cinttypes>
#include <cstdio>

namespace terakan::sim {

uint32_t *ScratchLanes::dword(unsigned lane, int64_t element, unsigned channel, uint64_t &address,
                              std::string &error)
{
   char text[256];
   if (!ring.address) {
      error = "no scratch ring: the stage's SQ_xTMP_RING_BASE (compute: SQ_LSTMP_RING_BASE) was never written";
      return nullptr;
   }
   if (!ring.item_dwords) {
      error = "the scratch ring's ITEMSIZE (SQ_LSTMP_RING_ITEMSIZE) is 0";
      return nullptr;
   }
   const uint64_t wave_bytes = uint64_t(ring.item_dwords) * 4 * width;
   if ((uint64_t(wave_in_group) + 1) * wave_bytes > ring.bytes) {
      std::snprintf(text, sizeof(text),
                    "the scratch ring of %" PRIu64 " bytes (SIZE) holds %" PRIu64 " waves of %u lanes x %u dwords "
                    "(ITEMSIZE); wave %u of the thread group does not fit",
                    ring.bytes, ring.bytes / wave_bytes, width, ring.item_dwords, wave_in_group);
      error = text;
      return nullptr;
   }
   const int64_t index = element * 4 + channel;
   if (element < 0 || index >= int64_t(ring.item_dwords)) {
      std::snprintf(text, sizeof(text),
                    "scratch element %" PRId64 " lies outside the lane's item of %u dwords (ITEMSIZE)", element,
                    ring.item_dwords);
      error = text;
      return nullptr;
   }
   address = ring.address + uint64_t(wave_in_group) * wave_bytes + (uint64_t(lane) * ring.item_dwords + uint64_t(index)) * 4;
   uint8_t *bytes = memory.resolve(address, 4, error);
   if (!bytes) {
      error = "the scratch ring reaches " + error;
      return nullptr;
   }
   return reinterpret_cast<uint32_t *>(bytes);
}

void ScratchLanes::wait_ack()
{
   for (auto it = outstanding.begin(); it != outstanding.end();)
      it = it->second ? outstanding.erase(it) : std::next(it);
}

} // namespace terakan::sim
