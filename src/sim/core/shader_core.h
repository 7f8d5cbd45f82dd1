/* The shader core for compute: runs a dispatch's thread groups as wavefronts over the decoded
 * program, with VLIW ALU groups, the control-flow stack, LDS and barriers, buffer fetches and
 * RAT writes. Every ALU clause passes the bundle-rule checker before the dispatch starts; any
 * rule violation, GPR beyond the allocation, stack overflow, unsimulated instruction or memory
 * access outside a buffer stops the dispatch with a message naming the program address. */
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "compute_dispatch.h"
#include "gpu_memory.h"

namespace terakan::sim {

struct DispatchResult {
   bool ok = true;
   std::string error; /* set when !ok: what stopped the dispatch, with its address and rule */
   DispatchStatistics statistics;
};

/* One wave of a graphics stage: what the SPI loads into its GPRs before it starts. */
struct GraphicsWave {
   unsigned lanes = 0;
   /* Initial GPR values: (gpr, channel) -> one value per lane. */
   std::map<std::pair<unsigned, unsigned>, std::vector<uint32_t>> gprs;
   /* Pixel stage: each lane's interpolation parameters, for every PS input n: P0, P1 - P0 and
    * P2 - P0 as four floats each (what the SPI writes to LDS for INTERP_* to read). */
   unsigned parameter_count = 0;
   std::vector<float> parameters; /* lanes * parameter_count * 12 */
   /* Pixel stage: waves are made of 2x2 quads (lane 4q + x + 2y is pixel (x, y) of quad q);
    * a helper lane is a quad pixel the primitive does not cover. It runs the program (its
    * neighbours' derivatives read it) but its exports and memory writes are dropped. Empty
    * means no helpers. */
   std::vector<uint8_t> helper;
   /* Export and geometry stages: the ring MEM_RING writes (the ESGS ring for an export shader,
    * the GSVS ring for a geometry shader) and each lane's item in it, in dwords from the ring's
    * start; a lane's writes must stay inside its item (gfx/geometry_stage.cpp places them). */
   struct Ring {
      uint64_t address = 0, bytes = 0;
      unsigned item_dwords = 0;
      std::vector<uint32_t> lane_item; /* first dword of each lane's item */
   };
   Ring ring;
};

/* What a graphics wave leaves behind: its exports, and which lanes a KILL removed. */
struct WaveExports {
   /* (export type: 0 pixel, 1 position, 2 parameter; array base) -> per-lane values; lanes
    * that did not export keep zeros and are listed in `written`. */
   struct Target {
      std::vector<std::array<uint32_t, 4>> values;
      std::vector<uint8_t> written;
   };
   std::map<std::pair<unsigned, unsigned>, Target> targets;
   std::vector<uint8_t> killed; /* lanes a KILL invalidated (they may still run as helpers) */
   /* MEM_STREAMn_BUFm writes, kept per vertex (lane) until the VGT places them per primitive
    * (gfx/streamout.cpp): (stream, buffer, dword within the vertex's record) -> per-lane
    * values, with the lanes that wrote. */
   struct StreamDword {
      std::vector<uint32_t> values;
      std::vector<uint8_t> written;
   };
   std::map<std::array<unsigned, 3>, StreamDword> stream_writes;
   /* Geometry stage: what each lane's EMIT_VERTEX, CUT_VERTEX and EMIT_CUT_VERTEX told the VGT,
    * in order (emit, cut). */
   enum class GsEvent : uint8_t { Emit, Cut };
   std::vector<std::vector<GsEvent>> gs_events;
};

/* A decoded, checked program with its resources located: decoded once per draw, then run wave
 * by wave. */
class ShaderRunner {
public:
   ShaderRunner(const ComputeDispatch &dispatch, GpuMemory &memory, TraceLevel trace);
   ~ShaderRunner();
   /* Empty if the program could not be prepared (decode error, illegal group, ...). */
   const std::string &error() const;
   bool run(const GraphicsWave &wave, WaveExports &exports, std::string &error);
   DispatchStatistics statistics() const;

private:
   struct State;
   std::unique_ptr<State> state;
};

DispatchResult run_compute_dispatch(const ComputeDispatch &dispatch, GpuMemory &memory,
                                    TraceLevel trace = TraceLevel::None);

} // namespace terakan::sim
