/* The asynchronous DMA engine of Evergreen and Cayman: runs a command stream that the DMA
 * checker (dma_checker.h) accepted and patched, against GPU memory. It has no register state
 * that outlives a packet, so nothing persists between submissions.
 *
 * What it moves, and on whose word (docs/sim-semantics.md, "The DMA ring"):
 *  - WRITE (linear): the packet's dwords to memory.
 *  - COPY linear, dword or byte units (and the dword broadcast to two destinations).
 *  - COPY tiled <-> linear (sub-command 8, what r600g's evergreen_dma_copy_tile emits): whole
 *    rows of one slice of a 1D- or 2D-tiled level, the linear side packed with the tiled
 *    pitch; texels are addressed with src/hw/surface.h, as the texture unit addresses them.
 *  - CONSTANT_FILL: one dword repeated.
 *  - NOP.
 * Everything else the checker passes (tiled writes, partial, frame-to-field and tiled
 * broadcast copies, tiled copies that start inside a row or run past the level's last row,
 * overlapping linear copies) stops the submission as not simulated or undefined: no source
 * we could read says what the engine does there. */
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "core/gpu_memory.h"
#include "hw/surface.h"

namespace terakan::sim {

struct DmaStatistics {
   uint64_t submissions = 0, packets = 0, bytes = 0;
};

class DmaEngine {
public:
   /* `tiling`: the board's tiling parameters (the kernel programs DMA_TILING_CONFIG with the
    * same GB_ADDR_CONFIG value as the GFX blocks: evergreen_gpu_init, cayman_gpu_init). */
   DmaEngine(GpuMemory &memory, const hw::TilingConfig &tiling) : memory(memory), tiling(tiling) {}

   /* Runs one checked and patched IB. Returns an empty string on success, otherwise what the
    * engine would fault or hang on (the device is then lost). */
   std::string execute(std::span<const uint32_t> ib);

   const DmaStatistics &statistics() const { return totals; }
   /* One line per packet other than NOP on stderr (TERAKAN_SIM_TRACE). */
   void set_trace(bool on) { trace = on; }

private:
   GpuMemory &memory;
   hw::TilingConfig tiling;
   bool trace = false;
   DmaStatistics totals;

   std::string copy_linear(uint64_t dst, uint64_t src, uint64_t bytes, bool dword_units);
   std::string copy_tiled(std::span<const uint32_t> packet, uint32_t dwords);
};

} // namespace terakan::sim
