/* What the radeon kernel does to a command stream before the GPU sees it
 * (drivers/gpu/drm/radeon/radeon_cs.c and evergreen_cs.c, read for facts; our own code):
 * walk the PM4 packets, refuse anything the kernel refuses, and patch every address that
 * comes with a relocation (the NOP packet after it names the reloc) with the buffer's GPU
 * address. Only the non-VM path exists here: Evergreen has no VM, and Cayman's VM mode
 * (RADEON_CS_USE_VM) is refused as not simulated. */
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "hw/chips.h"
#include "hw/surface.h"

namespace terakan::sim {

struct CsReloc {
   uint64_t gpu_address = 0; /* where the buffer is placed */
   uint64_t size = 0;        /* bytes */
   uint32_t tiling_flags = 0;
};

struct CsCheckOptions {
   hw::IsaClass isa = hw::IsaClass::Cayman;
   bool keep_tiling_flags = false; /* RADEON_CS_KEEP_TILING_FLAGS */
   /* The board's tiling parameters; the kernel checks 2D-tiled surfaces with its pipe count
    * and group size (the bank count comes from the words). */
   hw::TilingConfig tiling;
};

/* Checks `ib` and patches it in place. Returns an empty string if the kernel would accept it,
 * otherwise the kernel-style message naming the packet, register and rule. */
std::string check_and_patch(std::span<uint32_t> ib, std::span<const CsReloc> relocs,
                            const CsCheckOptions &options);

} // namespace terakan::sim
