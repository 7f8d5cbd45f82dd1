/* Register spilling (src/compiler/spill.cpp, the choice in regalloc.cpp): the rewrite of a
 * scheduled program around one spilled value, built by hand, and the allocator spilling a
 * program with more live values than 124 GPRs hold. The corpus shaders spill_* run such
 * programs against lavapipe. */
#include <gtest/gtest.h>

#include <set>

#include "backend_ir.h"
#include "scheduled_builders.h"
#include "spill.h"

using namespace terakan;
using namespace terakan::compiler;
using terakan::compiler::test::group_of;
using terakan::compiler::test::op;

namespace {

/* The clause kinds in order: A (ALU, with its group count), S (spill store), R (reload). */
std::string shape(const ScheduledProgram &program)
{
   std::string text;
   for (const Clause &clause : program.clauses) {
      if (clause.kind == ClauseKind::Alu)
         text += "A" + std::to_string(clause.groups.size()) + " ";
      else if (clause.kind == ClauseKind::Store)
         text += clause.store.spill ? "S " : "store ";
      else if (clause.kind == ClauseKind::Fetch)
         text += clause.fetches.front().reload_of != no_value ? "R " : "fetch ";
      else
         text += "M ";
   }
   return text;
}

/* v written by group 0, read by groups 12 and 13 (one reload serves both: within
 * reload_window) and by group 30 (a second reload). */
TEST(Spill, StoreAfterDefinitionReloadsBeforeReads)
{
   std::vector<ValueInfo> values(3);
   const unsigned v = 0, other = 1;
   ScheduledProgram program;
   Clause clause;
   clause.kind = ClauseKind::Alu;
   clause.groups.push_back(group_of(op("MOV", v, {Operand::literal(5)}, 0)));
   for (unsigned g = 1; g < 40; g++) {
      const bool reads = g == 12 || g == 13 || g == 30;
      clause.groups.push_back(
         group_of(op("ADD_INT", other, {reads ? Operand::of_value(v) : Operand::literal(g), Operand::literal(1)}, 1)));
   }
   clause.kcache = {{2, 0}};
   program.clauses.push_back(clause);
   ASSERT_TRUE(spill_value(program, values, v));
   EXPECT_EQ(shape(program), "A1 S A11 R A18 R A10 ");
   ASSERT_EQ(values.size(), 5u); /* two reload values */
   const unsigned first = 3, second = 4;
   EXPECT_EQ(program.clauses[1].store.data, v);
   EXPECT_TRUE(program.clauses[1].store.scratch);
   const FetchOp &reload = program.clauses[3].fetches.front();
   EXPECT_TRUE(reload.wait_ack);
   EXPECT_EQ(reload.texture.op->name, "READ_SCRATCH");
   EXPECT_EQ(reload.texture.results[0], first);
   EXPECT_EQ(program.clauses[4].groups[0].ops[0].op.src[0].value, first);  /* group 12 */
   EXPECT_EQ(program.clauses[4].groups[1].ops[0].op.src[0].value, first);  /* group 13 */
   EXPECT_EQ(program.clauses[5].fetches.front().texture.results[0], second);
   EXPECT_EQ(program.clauses[6].groups[0].ops[0].op.src[0].value, second); /* group 30 */
   for (const Clause &c : program.clauses) {
      if (c.kind == ClauseKind::Alu) {
         EXPECT_EQ(c.kcache, clause.kcache); /* every part keeps the clause's kcache lines */
      }
   }

   /* After allocation: v in channel z of some GPR, so the store writes channel z and both
    * reloads select it, all at the first element after the private arrays' two. */
   Allocation allocation;
   allocation.location.assign(values.size(), {3, 0});
   allocation.location[v] = {7, 2};
   EXPECT_EQ(place_spill_slots(program, allocation, 2), 1u);
   const StoreOp &store = program.clauses[1].store;
   EXPECT_EQ(store.data, no_value);
   EXPECT_EQ(store.data_yzw[1], v);
   EXPECT_EQ(store.scratch_element, 2u);
   const TextureFetch &placed = program.clauses[3].fetches.front().texture;
   EXPECT_EQ(placed.results[2], first);
   EXPECT_EQ(placed.results[0], no_value);
   EXPECT_EQ(placed.offset, 2u);
}

/* An LDS result is popped in the group after the LDS operation, in its clause: a store after
 * the operation waits for the pop group, and a reload for the pop group goes before the
 * operation. */
TEST(Spill, KeepsLdsOperationAndPopTogether)
{
   std::vector<ValueInfo> values(3);
   const unsigned v = 0, other = 1, popped = 2;
   ScheduledProgram program;
   Clause clause;
   clause.kind = ClauseKind::Alu;
   clause.groups.push_back(group_of(op("MOV", v, {Operand::literal(5)}, 0)));
   clause.groups.push_back(group_of(op("MOV", popped, {Operand{OperandKind::LdsQueue, 0}}, 0)));
   for (unsigned g = 2; g < 20; g++)
      clause.groups.push_back(group_of(op("ADD_INT", other, {Operand::literal(g), Operand::literal(1)}, 1)));
   /* Group 20 stands for the LDS operation, group 21 pops its result and reads v. */
   clause.groups.push_back(group_of(op("ADD_INT", other, {Operand::literal(3), Operand::literal(1)}, 1)));
   clause.groups.push_back(
      group_of(op("ADD_INT", other, {Operand{OperandKind::LdsQueue, 0}, Operand::of_value(v)}, 1)));
   program.clauses.push_back(clause);
   ASSERT_TRUE(spill_value(program, values, v));
   EXPECT_EQ(shape(program), "A2 S A18 R A2 ");
}

/* 600 values written one per group (channel x..w by slot), then a loop (markers), then every
 * value read: 600 channels live across the loop, more than 124 GPRs hold. */
TEST(Spill, AllocatorSpillsWhatDoesNotFit)
{
   SelectedProgram selected;
   ScheduledProgram scheduled;
   const unsigned count = 600;
   Clause defs;
   defs.kind = ClauseKind::Alu;
   for (unsigned k = 0; k < count; k++) {
      const unsigned v = selected.new_value();
      defs.groups.push_back(group_of(op("MOV", v, {Operand::literal(k)}, int(k % 4))));
   }
   scheduled.clauses.push_back(defs);
   for (NodeKind marker : {NodeKind::LoopBegin, NodeKind::Break, NodeKind::LoopEnd}) {
      Clause m;
      m.kind = ClauseKind::Marker;
      m.marker = marker;
      scheduled.clauses.push_back(m);
   }
   Clause uses;
   uses.kind = ClauseKind::Alu;
   for (unsigned k = 0; k < count; k++)
      uses.groups.push_back(group_of(op("ADD_INT", selected.new_value(), {Operand::of_value(k), Operand::literal(1)}, 0)));
   scheduled.clauses.push_back(uses);
   selected.scratch_elements = 3;

   Allocation allocation;
   std::string error;
   ASSERT_TRUE(allocate_registers(selected, scheduled, allocation, error)) << error;
   EXPECT_LE(allocation.gprs, 124u);
   EXPECT_GE(allocation.spilled_values, count - 4 * 124);
   /* Four values of different channels share an element. */
   EXPECT_GE(allocation.scratch_elements, 3 + (allocation.spilled_values + 3) / 4);
   EXPECT_LT(allocation.scratch_elements, 3 + allocation.spilled_values);
   /* Every spill store writes its value's channel, at an element past the private arrays', and
    * no two spilled values share an element channel. */
   std::set<std::pair<unsigned, unsigned>> slots;
   unsigned stores = 0;
   for (const Clause &clause : scheduled.clauses) {
      if (clause.kind != ClauseKind::Store || !clause.store.spill)
         continue;
      stores++;
      for (unsigned c = 0; c < 4; c++) {
         const unsigned v = c ? clause.store.data_yzw[c - 1] : clause.store.data;
         if (v == no_value)
            continue;
         EXPECT_EQ(allocation.location[v].chan, c);
         EXPECT_GE(clause.store.scratch_element, 3u);
         EXPECT_TRUE(slots.insert({clause.store.scratch_element, c}).second);
      }
   }
   EXPECT_EQ(stores, allocation.spilled_values);
}

} // namespace
