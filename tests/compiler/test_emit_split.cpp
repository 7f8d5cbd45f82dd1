/* The encoder's group split: a VLIW group whose operands cannot be read in three cycles (one GPR
 * per channel per cycle) is split, and an operation moved to the second group must not read a
 * place that an operation left in the first group writes (the register allocator lets a value
 * take a channel in the group of its previous holder's last read). Built by hand, since the
 * corpus does not reach this path. */
#include <gtest/gtest.h>

#include "backend_ir.h"
#include "compiler/isa/bundle_rules.h"
#include "compiler/isa/program.h"
#include "emit.h"

using namespace terakan;
using namespace terakan::compiler;

namespace {

struct Builder {
   SelectedProgram selected;
   Allocation allocation;

   unsigned value(unsigned gpr, unsigned chan)
   {
      const unsigned id = selected.new_value();
      allocation.location.push_back({gpr, chan});
      allocation.gprs = std::max(allocation.gprs, gpr + 1);
      return id;
   }

   /* Eight values in R2.x ... R9.x: more channel-x reads than three cycles allow. */
   std::vector<unsigned> channel_x_sources()
   {
      std::vector<unsigned> sources;
      for (unsigned g = 2; g < 10; g++)
         sources.push_back(value(g, 0));
      return sources;
   }

   /* Runs the encoder on one ALU clause of one group and decodes the result. */
   isa::Program emit_one_group(hw::IsaClass isa, const ScheduledGroup &group)
   {
      ScheduledProgram scheduled;
      scheduled.isa = isa;
      selected.isa = isa;
      Clause clause;
      clause.groups.push_back(group);
      scheduled.clauses.push_back(clause);
      ShaderBinary binary;
      std::string error;
      EXPECT_TRUE(emit_program(scheduled, allocation, selected, binary, error)) << error;
      isa::Program program;
      isa::DecodeError decode_error;
      EXPECT_TRUE(isa::decode_program(binary.code, isa, program, decode_error)) << decode_error.message;
      return program;
   }
};

ScheduledAlu add_int(unsigned dst, unsigned a, unsigned b, int slot)
{
   ScheduledAlu op;
   op.op.op = isa::find_alu_op("ADD_INT");
   op.op.dst = dst;
   op.op.src[0] = Operand::of_value(a);
   op.op.src[1] = Operand::of_value(b);
   op.slot = slot;
   return op;
}

/* Four ADD_INTs reading eight different GPRs, all in channel x: no bank swizzle can read them
 * in three cycles, so the group must be split. */
TEST(EmitSplit, UnreadableGroupIsSplitAndChecked)
{
   for (hw::IsaClass isa : {hw::IsaClass::Evergreen, hw::IsaClass::Cayman}) {
      Builder b;
      const std::vector<unsigned> sources = b.channel_x_sources();
      ScheduledGroup group;
      for (unsigned k = 0; k < 4; k++)
         group.ops.push_back(add_int(b.value(10 + k, k), sources[2 * k], sources[2 * k + 1], int(k)));
      const isa::Program program = b.emit_one_group(isa, group);
      ASSERT_FALSE(program.alu_clauses.empty());
      EXPECT_TRUE(isa::check_program(program).empty());
      EXPECT_GT(program.alu_clauses.at(0).groups.size(), 1u) << "the group was not split";
   }
}

/* Like above, but the first operation writes R2.x, which the last one reads (the allocator may
 * do that: the group reads before it writes). Whatever is split off, the reader must not end up
 * after the writer. */
TEST(EmitSplit, ReaderStaysAheadOfWriter)
{
   Builder b;
   const std::vector<unsigned> sources = b.channel_x_sources();
   ScheduledGroup group;
   /* Writes R2.x (the place of sources[0]) in slot x. */
   const unsigned over_r2 = b.value(2, 0);
   group.ops.push_back(add_int(over_r2, sources[2], sources[3], 0));
   group.ops.push_back(add_int(b.value(11, 1), sources[4], sources[5], 1));
   group.ops.push_back(add_int(b.value(12, 2), sources[6], sources[7], 2));
   group.ops.push_back(add_int(b.value(13, 3), sources[0], sources[1], 3)); /* reads R2.x */
   const isa::Program program = b.emit_one_group(hw::IsaClass::Evergreen, group);
   ASSERT_FALSE(program.alu_clauses.empty());
   /* Find the group that writes R2.x and the one that reads it. */
   int writer = -1, reader = -1;
   const auto &groups = program.alu_clauses.at(0).groups;
   for (size_t g = 0; g < groups.size(); g++) {
      for (const isa::AluInstruction &instruction : groups[g].instructions) {
         if (instruction.get(isa::alu::dst_gpr) == 2 && instruction.get(isa::alu::write_mask))
            writer = int(g);
         for (unsigned s = 0; s < 2; s++) {
            const isa::AluSource source = isa::alu_source(instruction, s);
            if (source.sel == 2 && source.chan == 0)
               reader = int(g);
         }
      }
   }
   ASSERT_GE(writer, 0);
   ASSERT_GE(reader, 0);
   EXPECT_LE(reader, writer) << "R2.x is read after the group that overwrites it";
   EXPECT_GT(groups.size(), 1u);
}

} // namespace
