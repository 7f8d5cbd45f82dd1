/* Building scheduled programs by hand for the allocator and spill tests (test_regalloc.cpp,
 * test_spill.cpp): one ALU operation at a slot, and a group holding one. */
#pragma once

#include <vector>

#include "backend_ir.h"

namespace terakan::compiler::test {

/* `name` writing `dst` from `sources`, placed in `slot` (0-3 x-w, 4 t). */
inline ScheduledAlu op(const char *name, unsigned dst, std::vector<Operand> sources, int slot)
{
   ScheduledAlu alu;
   alu.op.op = isa::find_alu_op(name);
   alu.op.dst = dst;
   for (size_t s = 0; s < sources.size(); s++)
      alu.op.src[s] = sources[s];
   alu.slot = slot;
   return alu;
}

inline ScheduledGroup group_of(ScheduledAlu alu)
{
   ScheduledGroup group;
   group.ops.push_back(alu);
   return group;
}

} // namespace terakan::compiler::test
