/* Register allocation (src/compiler/regalloc.cpp) on scheduled programs built by hand: the live
 * ranges of values written in several places (NIR registers, loop flags) follow the control
 * flow, and a vector operation moves to a free slot of its group when its own slot's channel
 * would cost a GPR. The corpus shaders run whole programs against lavapipe. */
#include <gtest/gtest.h>

#include "backend_ir.h"
#include "scheduled_builders.h"

using namespace terakan;
using namespace terakan::compiler;
using terakan::compiler::test::group_of;
using terakan::compiler::test::op;

namespace {

Clause alu_clause(std::vector<std::vector<ScheduledAlu>> groups)
{
   Clause clause;
   clause.kind = ClauseKind::Alu;
   for (auto &ops : groups) {
      ScheduledGroup group;
      group.ops = ops;
      clause.groups.push_back(group);
   }
   return clause;
}

Clause marker(NodeKind kind)
{
   Clause clause;
   clause.kind = ClauseKind::Marker;
   clause.marker = kind;
   return clause;
}

/* A value written in several places, in channel x (a NIR register or loop flag). */
unsigned register_value(SelectedProgram &selected)
{
   const unsigned v = selected.new_value(0);
   selected.values[v].whole_program = true;
   return v;
}

Allocation allocate(const SelectedProgram &selected, ScheduledProgram &scheduled)
{
   Allocation allocation;
   std::string error;
   EXPECT_TRUE(allocate_registers(selected, scheduled, allocation, error)) << error;
   return allocation;
}

bool same_place(const Allocation &allocation, unsigned a, unsigned b)
{
   return allocation.location[a].gpr == allocation.location[b].gpr &&
          allocation.location[a].chan == allocation.location[b].chan;
}

} // namespace

/* A loop flag: written at the top of every iteration before it is read, so it is not live
 * around the loop. A value written after the flag's last read in the loop takes its channel.
 * (Were the flag live around the loop, or for the whole program, as it was, they would differ.) */
TEST(RegisterAllocation, FlagWrittenAtTheLoopTopIsNotLiveAroundTheLoop)
{
   SelectedProgram selected;
   const unsigned flag = register_value(selected);
   const unsigned read = selected.new_value(0), later = selected.new_value(0), sink = selected.new_value(0);
   ScheduledProgram scheduled;
   scheduled.clauses.push_back(marker(NodeKind::LoopBegin));
   scheduled.clauses.push_back(alu_clause({
      {op("MOV", flag, {Operand::literal(0)}, 0)},
      {op("MOV", read, {Operand::of_value(flag)}, 0)},
      {op("MOV", later, {Operand::of_value(read)}, 0)},
      {op("ADD_INT", sink, {Operand::of_value(later), Operand::literal(1)}, 0)},
   }));
   scheduled.clauses.push_back(marker(NodeKind::Break));
   scheduled.clauses.push_back(marker(NodeKind::LoopEnd));
   const Allocation allocation = allocate(selected, scheduled);
   EXPECT_TRUE(same_place(allocation, flag, later));
}

/* A register read at the top of the loop and written at its bottom carries its value around
 * the loop: a value written after that write, still in the loop, may not take its channel
 * (only the back edge keeps the register live there). */
TEST(RegisterAllocation, RegisterCarriedAroundTheLoopStaysLiveToTheLoopEnd)
{
   SelectedProgram selected;
   const unsigned carried = register_value(selected);
   const unsigned read = selected.new_value(0), after = selected.new_value(0), sink = selected.new_value(0);
   ScheduledProgram scheduled;
   scheduled.clauses.push_back(alu_clause({{op("MOV", carried, {Operand::literal(0)}, 0)}}));
   scheduled.clauses.push_back(marker(NodeKind::LoopBegin));
   scheduled.clauses.push_back(alu_clause({
      {op("ADD_INT", read, {Operand::of_value(carried), Operand::literal(1)}, 0)},
      {op("MOV", carried, {Operand::of_value(read)}, 0)},
      {op("MOV", after, {Operand::literal(7)}, 0)},
      {op("ADD_INT", sink, {Operand::of_value(after), Operand::literal(1)}, 0)},
   }));
   scheduled.clauses.push_back(marker(NodeKind::Break));
   scheduled.clauses.push_back(marker(NodeKind::LoopEnd));
   const Allocation allocation = allocate(selected, scheduled);
   EXPECT_FALSE(same_place(allocation, carried, after));
   EXPECT_FALSE(same_place(allocation, carried, read));
}

/* A register written on both sides of an if and read after it lives from its first write to
 * that read, across the else side: a value living only inside the else side may not share. */
TEST(RegisterAllocation, RegisterWrittenOnBothSidesOfAnIfLivesAcrossTheElse)
{
   SelectedProgram selected;
   const unsigned joined = register_value(selected);
   const unsigned inner = selected.new_value(0), inner_sink = selected.new_value(0), sink = selected.new_value(0);
   ScheduledProgram scheduled;
   Clause branch = marker(NodeKind::If);
   scheduled.clauses.push_back(branch);
   scheduled.clauses.push_back(alu_clause({{op("MOV", joined, {Operand::literal(1)}, 0)}}));
   scheduled.clauses.push_back(marker(NodeKind::Else));
   scheduled.clauses.push_back(alu_clause({
      {op("MOV", inner, {Operand::literal(3)}, 0)},
      {op("ADD_INT", inner_sink, {Operand::of_value(inner), Operand::literal(1)}, 0)},
      {op("MOV", joined, {Operand::of_value(inner_sink)}, 0)},
   }));
   scheduled.clauses.push_back(marker(NodeKind::EndIf));
   scheduled.clauses.push_back(alu_clause({{op("ADD_INT", sink, {Operand::of_value(joined), Operand::literal(1)}, 0)}}));
   const Allocation allocation = allocate(selected, scheduled);
   EXPECT_FALSE(same_place(allocation, joined, inner));
}

/* The result of an operation in slot x, while every GPR's x channel in use is taken: it moves
 * to the group's free slot y and lands in R0.y rather than in a new GPR. A result whose
 * channel is asked for (required_chan) stays in its slot. */
TEST(RegisterAllocation, OperationMovesToAFreeSlotRatherThanAddAGpr)
{
   SelectedProgram selected;
   const unsigned a = selected.new_value(), b = selected.new_value(), moved = selected.new_value();
   const unsigned kept = selected.new_value(0), sink = selected.new_value(), sink2 = selected.new_value();
   ScheduledProgram scheduled;
   scheduled.clauses.push_back(alu_clause({
      {op("MOV", a, {Operand::literal(1)}, 0)},
      {op("MOV", b, {Operand::literal(2)}, 0)},
      {op("ADD_INT", moved, {Operand::of_value(a), Operand::literal(3)}, 0),
       op("MOV", sink2, {Operand::literal(4)}, 3)},
      {op("ADD_INT", sink, {Operand::of_value(moved), Operand::of_value(a)}, 2),
       op("ADD_INT", kept, {Operand::of_value(sink2), Operand::of_value(b)}, 0)},
   }));
   const Allocation allocation = allocate(selected, scheduled);
   /* a in R0.x, b in R1.x (both read after the third group). */
   EXPECT_EQ(allocation.location[a].chan, 0u);
   EXPECT_EQ(allocation.location[b].chan, 0u);
   const ScheduledGroup &third = scheduled.clauses[0].groups[2];
   EXPECT_EQ(third.ops[0].slot, 1);
   EXPECT_EQ(allocation.location[moved].chan, 1u);
   EXPECT_EQ(allocation.location[moved].gpr, 0u);
   EXPECT_EQ(scheduled.clauses[0].groups[3].ops[1].slot, 0);
   EXPECT_EQ(allocation.location[kept].chan, 0u);
   EXPECT_EQ(allocation.gprs, 2u);
}
