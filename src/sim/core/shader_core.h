/* The shader core for compute: runs a dispatch's thread groups as wavefronts over the decoded
 * program, with VLIW ALU groups, the control-flow stack, LDS and barriers, buffer fetches and
 * RAT writes. Every ALU clause passes the bundle-rule checker before the dispatch starts; any
 * rule violation, GPR beyond the allocation, stack overflow, unsimulated instruction or memory
 * access outside a buffer stops the dispatch with a message naming the program address. */
#pragma once

#include <cstdint>
#include <string>

#include "compute_dispatch.h"
#include "gpu_memory.h"

namespace terakan::sim {

struct DispatchResult {
   bool ok = true;
   std::string error; /* set when !ok: what stopped the dispatch, with its address and rule */
   DispatchStatistics statistics;
};

DispatchResult run_compute_dispatch(const ComputeDispatch &dispatch, GpuMemory &memory,
                                    TraceLevel trace = TraceLevel::None);

} // namespace terakan::sim
