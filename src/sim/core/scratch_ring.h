/* A wave's view of its stage's scratch ring: where MEM_SCRATCH writes and READ_SCRATCH
 * fetches of each lane land, the limits a program must respect, and the acknowledgements a
 * read must wait for (docs/sim-semantics.md, "Scratch").
 *
 * How the hardware places a wave's items in the ring is not public. The simulator gives the
 * waves in flight together (one thread group's) consecutive slots of ITEMSIZE dwords x lanes,
 * lane after lane; a program cannot tell, since only its own lane reads an item back. */
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "compute_dispatch.h"
#include "gpu_memory.h"

namespace terakan::sim {

class ScratchLanes {
public:
   ScratchLanes(const ScratchRing &ring, GpuMemory &memory, unsigned wave_in_group, unsigned width)
      : ring(ring), memory(memory), wave_in_group(wave_in_group), width(width)
   {
   }

   /* The dword of `lane`'s item that `element` (four dwords each: ELEM_SIZE 3) and `channel`
    * name, or nullptr with `error` set (no ring, a ring too small for this wave, an element
    * beyond ITEMSIZE, memory outside every buffer). `address` receives its GPU address. */
   uint32_t *dword(unsigned lane, int64_t element, unsigned channel, uint64_t &address, std::string &error);

   /* A write reached `address`; `acknowledged` when it asked for an acknowledgement (an _ACK
    * type), which a later WAIT_ACK waits for. */
   void wrote(uint64_t address, bool acknowledged) { outstanding[address] = acknowledged; }
   /* WAIT_ACK: every acknowledged write has arrived. */
   void wait_ack();
   /* Whether a read of `address` could overtake a write that has not arrived: a write with no
    * acknowledgement, or one no WAIT_ACK has waited for since. */
   bool racing(uint64_t address) const { return outstanding.count(address) != 0; }

private:
   const ScratchRing &ring;
   GpuMemory &memory;
   unsigned wave_in_group, width;
   std::map<uint64_t, bool> outstanding;
};

} // namespace terakan::sim
