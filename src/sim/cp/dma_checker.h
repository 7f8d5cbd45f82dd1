/* What the radeon kernel does to a command stream submitted to the asynchronous DMA ring
 * (RADEON_CS_RING_DMA) before the engine sees it: Linux evergreen_cs.c evergreen_dma_cs_parse
 * and r600_cs.c r600_dma_cs_next_reloc, read for facts (our own code). Unlike the GFX ring
 * there are no relocation NOPs: each address in the stream takes the next entry of the
 * relocation list in order, and the kernel adds that buffer's GPU address to it. The GFX
 * ring's checker (cs_checker.h) and its register table have nothing to do with this ring.
 *
 * Beyond the kernel, the simulator refuses a packet whose body runs past the end of the IB
 * (the kernel would read stale dwords there) and a NOP with a count (what the engine does
 * with one is not documented to us); each such message says it is the simulator's rule. */
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "cs_checker.h" /* CsReloc */
#include "hw/chips.h"

namespace terakan::sim {

/* Checks `ib` and patches its addresses in place. Returns an empty string if the kernel would
 * accept it, otherwise the kernel's message (dev_warn/DRM_ERROR text) naming the packet. */
std::string check_and_patch_dma(std::span<uint32_t> ib, std::span<const CsReloc> relocs, hw::IsaClass isa);

} // namespace terakan::sim
