/* Register spilling (docs/compiler.md "Spilling"): when the allocator runs out of GPRs, a value
 * is moved to the scratch ring. spill_value rewrites the scheduled program around one value;
 * place_spill_slots gives the spilled values their scratch elements once every value has a
 * channel. regalloc.cpp chooses the values. */
#pragma once

#include <vector>

#include "backend_ir.h"

namespace terakan::compiler {

/* Reads of a spilled value within this many ALU groups of one clause share one reload, so that
 * a value read by neighbouring groups is not fetched again for each. */
inline constexpr unsigned reload_window = 8;

/* Rewrites `program` so that `value` is kept in scratch instead of a register: a MEM_SCRATCH
 * (StoreOp::spill) right after the group or fetch clause that defines it, and before its reads
 * READ_SCRATCH fetches (FetchOp::reload_of) into new values (appended to `values`) that the
 * reads take instead. ALU clauses are split where a store or a reload goes in (never between
 * an LDS operation and the group that pops its result). False, with the program unchanged,
 * if the value cannot be spilled (no definition found, or a reload would have to go before
 * its definition). */
bool spill_value(ScheduledProgram &program, std::vector<ValueInfo> &values, unsigned value);

/* After allocation: each spilled value gets the scratch element first_element + n, where n
 * counts the spilled values of its channel (a MEM_SCRATCH writes a GPR channel to the same
 * channel of the element, so four values of different channels share one element); its spill
 * store writes its channel, its reloads select that channel. Returns the elements used. */
unsigned place_spill_slots(ScheduledProgram &program, const Allocation &allocation, unsigned first_element);

} // namespace terakan::compiler
