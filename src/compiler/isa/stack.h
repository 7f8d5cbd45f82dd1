/* How many entries of the control-flow stack (SQ_PGM_RESOURCES_*.STACK_SIZE) a nesting of
 * loops and branch pushes needs: the compiler sizes programs with it and the simulator checks
 * them with it. LLVM's accounting (R600ControlFlowFinalizer CFStack): a loop takes an entry, a
 * branch push a quarter entry, and on Evergreen the first push one more quarter. */
#pragma once

#include "hw/chips.h"

namespace terakan::isa {

constexpr unsigned stack_entries_needed(unsigned loops, unsigned branch_pushes, hw::IsaClass isa)
{
   const unsigned extra = branch_pushes && isa == hw::IsaClass::Evergreen ? 1 : 0;
   return loops + (branch_pushes + extra + 3) / 4;
}

} // namespace terakan::isa
