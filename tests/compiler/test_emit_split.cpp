/* The encoder's group split: a VLIW group whose operands cannot be read in three cycles (one GPR
 * per channel per cycle) is split, and an operation moved to the second group must not read a
 * place that an operation left in the first group writes (the register allocator lets a value
 * take a channel in the group of its previous holder's last read). Built by hand, and by a
 * generator of random groups (RandomGroups.*), which also runs what the encoder made. */
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <set>
#include <sstream>

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

/* An empty group can only come from the scheduler and means an operation it meant to place
 * there is missing (the pop of an LDS read once was): the encoder refuses the program instead of
 * encoding around the hole. */
TEST(EmitSplit, EmptyGroupIsAnInternalError)
{
   for (hw::IsaClass isa : {hw::IsaClass::Evergreen, hw::IsaClass::Cayman}) {
      Builder b;
      b.selected.isa = isa;
      const unsigned x = b.value(2, 0), y = b.value(2, 1);
      ScheduledProgram scheduled;
      scheduled.isa = isa;
      Clause clause;
      ScheduledGroup add;
      add.ops.push_back(add_int(b.value(3, 0), x, y, 0));
      clause.groups.push_back(add);
      clause.groups.push_back(ScheduledGroup{});
      scheduled.clauses.push_back(clause);
      ShaderBinary binary;
      std::string error;
      EXPECT_FALSE(emit_program(scheduled, b.allocation, b.selected, binary, error));
      EXPECT_NE(error.find("the scheduler closed an empty group"), std::string::npos) << error;
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


/* ---- Random groups ----
 * Groups of integer operations over a few GPRs, as the register allocator may leave them: each
 * vector slot writes its channel, no place is written twice, and any operation may read a
 * place another one of the group writes (the group reads first). Few GPRs and three-source
 * CNDE_INTs make groups that no bank swizzle fits and reads that form cycles. Each group is
 * encoded, decoded, checked against the bundle rules and run by a small interpreter of the
 * decoded groups; the places must end as one parallel step of the original group leaves them.
 * TERAKAN_RANDOM_GROUPS=N runs N groups instead of the CI's count (TERAKAN_RANDOM_SEED=S
 * another seed): the larger run. */

struct RandomOp {
   const char *name;
   unsigned dst_gpr, dst_chan;
   int slot;
   std::vector<std::pair<bool, uint32_t>> sources; /* (is a literal, literal or gpr * 4 + chan) */
};

uint32_t evaluate(const std::string &name, const uint32_t *s)
{
   if (name == "ADD_INT")
      return s[0] + s[1];
   if (name == "SUB_INT")
      return s[0] - s[1];
   if (name == "XOR_INT")
      return s[0] ^ s[1];
   if (name == "CNDE_INT")
      return s[0] == 0 ? s[1] : s[2];
   if (name == "MOV")
      return s[0];
   ADD_FAILURE() << "the interpreter does not know " << name;
   return 0;
}

std::string describe(const std::vector<RandomOp> &ops)
{
   std::ostringstream text;
   for (const RandomOp &op : ops) {
      text << "  slot " << op.slot << " " << op.name << " R" << op.dst_gpr << "." << "xyzw"[op.dst_chan] << " <-";
      for (const auto &[literal, v] : op.sources) {
         if (literal)
            text << " 0x" << std::hex << v << std::dec;
         else
            text << " R" << v / 4 << "." << "xyzw"[v % 4];
      }
      text << "\n";
   }
   return text.str();
}

std::vector<RandomOp> random_group(std::mt19937 &random, hw::IsaClass isa)
{
   const unsigned gprs = 2 + random() % 5; /* R2 .. R(1 + gprs) */
   std::vector<int> slots = {0, 1, 2, 3};
   if (isa == hw::IsaClass::Evergreen)
      slots.push_back(4);
   std::shuffle(slots.begin(), slots.end(), random);
   const unsigned count = 2 + random() % (slots.size() - 1);
   const uint32_t literal_pool[] = {0, 7, 0x80000000u};
   static const char *const names[] = {"ADD_INT", "SUB_INT", "XOR_INT", "CNDE_INT", "CNDE_INT"};
   std::vector<RandomOp> ops(count);
   std::set<unsigned> written;
   for (unsigned k = 0; k < count; k++) {
      RandomOp &op = ops[k];
      op.slot = slots[k];
      op.name = names[random() % 5];
      op.dst_chan = op.slot < 4 ? unsigned(op.slot) : random() % 4;
      op.dst_gpr = 2 + random() % gprs;
      if (written.count(op.dst_gpr * 4 + op.dst_chan))
         op.dst_gpr = 2 + gprs + k; /* a GPR of its own */
      written.insert(op.dst_gpr * 4 + op.dst_chan);
   }
   /* Sources: often a place another operation of the group writes (the allocator's reuse).
    * The t slot reads two constants at most (the scheduler keeps to that). */
   for (RandomOp &op : ops) {
      const unsigned sources = std::string(op.name) == "CNDE_INT" ? 3 : 2;
      unsigned constants = 0;
      for (unsigned s = 0; s < sources; s++) {
         const unsigned roll = random() % 16;
         if (roll < 2 && (op.slot != 4 || constants < 2)) {
            constants++;
            op.sources.push_back({true, literal_pool[random() % 3]});
         } else if (roll < 7) {
            const RandomOp &other = ops[random() % count];
            op.sources.push_back({false, other.dst_gpr * 4 + other.dst_chan});
         } else {
            op.sources.push_back({false, (2 + random() % gprs) * 4 + random() % 4});
         }
      }
   }
   return ops;
}

struct RandomGroupCounts {
   unsigned split = 0;  /* encoded as more than one group */
   unsigned copied = 0; /* with a cycle broken through a scratch copy (a MOV) */
};

std::string run_random_group(const std::vector<RandomOp> &ops, hw::IsaClass isa, std::mt19937 &random,
                             RandomGroupCounts &counts)
{
   Builder b;
   std::map<unsigned, unsigned> value_at; /* place -> the value read there */
   std::set<unsigned> places;
   ScheduledGroup group;
   for (const RandomOp &op : ops) {
      ScheduledAlu alu;
      alu.op.op = isa::find_alu_op(op.name);
      alu.slot = op.slot;
      for (size_t s = 0; s < op.sources.size(); s++) {
         const auto &[literal, v] = op.sources[s];
         if (literal) {
            alu.op.src[s] = Operand::literal(v); /* inline constants where one exists */
            if (alu.op.src[s].kind == OperandKind::Literal &&
                std::find(group.literals.begin(), group.literals.end(), v) == group.literals.end())
               group.literals.push_back(v);
            continue;
         }
         if (!value_at.count(v))
            value_at[v] = b.value(v / 4, v % 4);
         alu.op.src[s] = Operand::of_value(value_at[v]);
         places.insert(v);
      }
      group.ops.push_back(alu);
   }
   for (size_t k = 0; k < ops.size(); k++) {
      group.ops[k].op.dst = b.value(ops[k].dst_gpr, ops[k].dst_chan);
      places.insert(ops[k].dst_gpr * 4 + ops[k].dst_chan);
   }

   ScheduledProgram scheduled;
   scheduled.isa = isa;
   b.selected.isa = isa;
   Clause clause;
   clause.groups.push_back(group);
   scheduled.clauses.push_back(clause);
   ShaderBinary binary;
   std::string error;
   if (!emit_program(scheduled, b.allocation, b.selected, binary, error))
      return "emit_program: " + error;
   isa::Program program;
   isa::DecodeError decode_error;
   if (!isa::decode_program(binary.code, isa, program, decode_error))
      return "decode: " + decode_error.message;
   const auto violations = isa::check_program(program);
   if (!violations.empty())
      return std::to_string(violations.size()) + " bundle-rule violations";
   if (program.alu_clauses.empty())
      return "no ALU clause";
   size_t groups = 0;
   bool copied = false;
   for (const isa::AluClause &alu_clause : program.alu_clauses)
      for (const isa::AluGroup &encoded : alu_clause.groups) {
         groups++;
         for (const isa::AluInstruction &instruction : encoded.instructions)
            copied = copied || std::string(instruction.op->name) == "MOV";
      }
   counts.split += groups > 1;
   counts.copied += copied;

   std::vector<uint32_t> initial(128 * 4);
   for (uint32_t &v : initial)
      v = random() % 4 == 0 ? 0 : uint32_t(random());
   /* One parallel step of the original group. */
   std::vector<uint32_t> expected = initial;
   for (const RandomOp &op : ops) {
      uint32_t s[3] = {};
      for (size_t k = 0; k < op.sources.size(); k++)
         s[k] = op.sources[k].first ? op.sources[k].second : initial[op.sources[k].second];
      expected[op.dst_gpr * 4 + op.dst_chan] = evaluate(op.name, s);
   }
   /* The encoded groups, each reading all its operands before writing. */
   std::vector<uint32_t> file = initial;
   for (const isa::AluClause &alu_clause : program.alu_clauses) {
      for (const isa::AluGroup &encoded : alu_clause.groups) {
         std::vector<std::pair<unsigned, uint32_t>> writes;
         for (const isa::AluInstruction &instruction : encoded.instructions) {
            uint32_t s[3] = {};
            for (unsigned k = 0; k < instruction.source_count(); k++) {
               const isa::AluSource source = isa::alu_source(instruction, k);
               if (source.sel < isa::src_sel::gpr_count)
                  s[k] = file[source.sel * 4 + source.chan];
               else if (source.sel == isa::src_sel::literal)
                  s[k] = encoded.literals.at(source.chan);
               else if (source.sel == isa::src_sel::zero)
                  s[k] = 0;
               else if (source.sel == isa::src_sel::one_int)
                  s[k] = 1;
               else if (source.sel == isa::src_sel::minus_one_int)
                  s[k] = ~0u;
               else
                  return "an operand the interpreter does not read (sel " + std::to_string(source.sel) + ")";
            }
            const bool writes_gpr = instruction.is_op3() || instruction.get(isa::alu::write_mask);
            if (writes_gpr)
               writes.push_back({instruction.get(isa::alu::dst_gpr) * 4 + instruction.get(isa::alu::dst_chan),
                                 evaluate(std::string(instruction.op->name), s)});
         }
         for (const auto &[place, v] : writes)
            file[place] = v;
      }
   }
   for (unsigned place : places)
      if (file[place] != expected[place])
         return "R" + std::to_string(place / 4) + "." + "xyzw"[place % 4] + " differs after the encoded groups";
   return "";
}

/* Two CNDE_INTs that read each other's destinations (R2.x <- R3.z ..., R3.z <- R2.x ...) and
 * five GPRs in channel x: no swizzle fits and neither can go first. The cycle is broken
 * by copying a source to a scratch place one group earlier (the shape local float arrays
 * indexed at run time produced). */
TEST(EmitSplit, CycleOfReadsIsBrokenByACopy)
{
   for (hw::IsaClass isa : {hw::IsaClass::Evergreen, hw::IsaClass::Cayman}) {
      const std::vector<RandomOp> ops = {
         {"CNDE_INT", 2, 0, 0, {{false, 3 * 4 + 2}, {false, 4 * 4}, {false, 5 * 4}}},
         {"CNDE_INT", 3, 2, 2, {{false, 2 * 4}, {false, 6 * 4}, {false, 7 * 4}}},
      };
      std::mt19937 random(1);
      RandomGroupCounts counts;
      EXPECT_EQ(run_random_group(ops, isa, random, counts), "");
      EXPECT_EQ(counts.copied, 1u);
   }
}

ScheduledAlu dot4(unsigned dst, unsigned a, unsigned b, int slot)
{
   ScheduledAlu op;
   op.op.op = isa::find_alu_op("DOT4_IEEE");
   op.op.dst = dst;
   op.op.src[0] = Operand::of_value(a);
   op.op.src[1] = Operand::of_value(b);
   op.slot = slot;
   return op;
}

/* The ALU groups of the first clause with their DOT4_IEEE instructions counted. */
std::vector<unsigned> dot4_counts(const isa::Program &program)
{
   std::vector<unsigned> counts;
   for (const auto &group : program.alu_clauses.at(0).groups) {
      unsigned n = 0;
      for (const isa::AluInstruction &instruction : group.instructions)
         n += instruction.op->name == "DOT4_IEEE" ? 1 : 0;
      counts.push_back(n);
   }
   return counts;
}

/* A DOT4 group (it cannot be split) whose eight operands all sit in channel x of different
 * GPRs: the operands outside their slot's channel are copied into that channel first, and the
 * four DOT4_IEEE stay in one group, each reading its own channel. */
TEST(EmitSplit, UnreadableDot4IsReadThroughCopies)
{
   for (hw::IsaClass isa : {hw::IsaClass::Evergreen, hw::IsaClass::Cayman}) {
      Builder b;
      const std::vector<unsigned> sources = b.channel_x_sources();
      ScheduledGroup group;
      const unsigned result = b.value(10, 0);
      for (unsigned k = 0; k < 4; k++)
         group.ops.push_back(dot4(k == 0 ? result : no_value, sources[2 * k], sources[2 * k + 1], int(k)));
      const isa::Program program = b.emit_one_group(isa, group);
      ASSERT_FALSE(program.alu_clauses.empty());
      EXPECT_TRUE(isa::check_program(program).empty());
      const std::vector<unsigned> counts = dot4_counts(program);
      ASSERT_GT(counts.size(), 1u) << "no copies were made";
      EXPECT_EQ(counts.back(), 4u) << "the DOT4 group is not last and whole";
      for (const isa::AluInstruction &instruction : program.alu_clauses.at(0).groups.back().instructions)
         for (unsigned s = 0; s < 2; s++)
            EXPECT_EQ(isa::alu_source(instruction, s).chan, instruction.get(isa::alu::dst_chan));
   }
}

/* A DOT4 group with a t-slot operation (Evergreen) that together read five GPRs in channel x:
 * the group is split, and the four DOT4_IEEE move as one. */
TEST(EmitSplit, Dot4MovesWholeWhenAGroupIsSplit)
{
   Builder b;
   std::vector<unsigned> first, second;
   for (unsigned c = 0; c < 4; c++) {
      first.push_back(b.value(2, c));
      second.push_back(b.value(3, c));
   }
   ScheduledGroup group;
   const unsigned result = b.value(10, 1);
   for (unsigned k = 0; k < 4; k++)
      group.ops.push_back(dot4(k == 1 ? result : no_value, first[k], second[k], int(k)));
   ScheduledAlu select;
   select.op.op = isa::find_alu_op("CNDE_INT");
   select.op.dst = b.value(11, 0);
   for (unsigned s = 0; s < 3; s++)
      select.op.src[s] = Operand::of_value(b.value(4 + s, 0));
   select.slot = 4;
   group.ops.push_back(select);
   const isa::Program program = b.emit_one_group(hw::IsaClass::Evergreen, group);
   ASSERT_FALSE(program.alu_clauses.empty());
   EXPECT_TRUE(isa::check_program(program).empty());
   const std::vector<unsigned> counts = dot4_counts(program);
   EXPECT_EQ(counts.size(), 2u);
   EXPECT_EQ(std::count(counts.begin(), counts.end(), 4u), 1);
   EXPECT_EQ(std::count(counts.begin(), counts.end(), 0u), long(counts.size()) - 1);
}

unsigned environment_number(const char *name, unsigned fallback)
{
   const char *text = std::getenv(name);
   return text && *text ? unsigned(std::strtoul(text, nullptr, 0)) : fallback;
}

/* Also counts the groups that needed a split and a cycle broken, so that the generator is seen
 * to reach both. */
TEST(RandomGroups, EncodeAndRunAsOneParallelStep)
{
   const unsigned count = environment_number("TERAKAN_RANDOM_GROUPS", 20000);
   const unsigned seed = environment_number("TERAKAN_RANDOM_SEED", 13);
   std::mt19937 random(seed);
   unsigned failures = 0;
   RandomGroupCounts counts;
   for (unsigned n = 0; n < count; n++) {
      const hw::IsaClass isa = n % 2 ? hw::IsaClass::Cayman : hw::IsaClass::Evergreen;
      const std::vector<RandomOp> ops = random_group(random, isa);
      const std::string problem = run_random_group(ops, isa, random, counts);
      if (!problem.empty() && ++failures <= 5)
         ADD_FAILURE() << "group " << n << " (seed " << seed << ", "
                       << (isa == hw::IsaClass::Cayman ? "Cayman" : "Evergreen") << "): " << problem
                       << "\n" << describe(ops);
   }
   EXPECT_EQ(failures, 0u) << "of " << count << " random groups";
   std::printf("%u random groups (seed %u): %u split, %u with a cycle broken by a copy\n", count,
               seed, counts.split, counts.copied);
   EXPECT_GE(counts.split, count / 20) << "the generator hardly reaches the split";
   EXPECT_GE(counts.copied, count / 2000) << "the generator hardly reaches a cycle";
}

/* ---- PV/PS forwarding and the packer's read ports ----
 * emit.cpp reads a value the previous group of the clause wrote through PV.c (vector slot c)
 * or PS (Evergreen's t slot) instead of its GPR; never across a clause boundary. */

/* A tiny interpreter of decoded ADD_INT clauses that knows PV and PS. */
std::string run_add_clauses(const isa::Program &program, std::vector<uint32_t> &file)
{
   for (const isa::AluClause &alu_clause : program.alu_clauses) {
      std::array<uint32_t, 5> previous{};
      std::array<bool, 5> previous_valid{};
      for (const isa::AluGroup &encoded : alu_clause.groups) {
         std::array<uint32_t, 5> results{};
         std::array<bool, 5> valid{};
         std::vector<std::pair<unsigned, uint32_t>> writes;
         for (const isa::AluInstruction &instruction : encoded.instructions) {
            if (std::string(instruction.op->name) != "ADD_INT")
               return "an instruction the interpreter does not run";
            uint32_t s[2] = {};
            for (unsigned k = 0; k < 2; k++) {
               const isa::AluSource source = isa::alu_source(instruction, k);
               if (source.sel < isa::src_sel::gpr_count) {
                  s[k] = file[source.sel * 4 + source.chan];
               } else if (source.sel == isa::src_sel::pv || source.sel == isa::src_sel::ps) {
                  const unsigned slot = source.sel == isa::src_sel::ps ? 4 : source.chan;
                  if (!previous_valid[slot])
                     return "PV/PS read with no result behind it";
                  s[k] = previous[slot];
               } else {
                  return "an operand the interpreter does not read";
               }
            }
            const unsigned slot = static_cast<unsigned>(instruction.slot);
            results[slot] = s[0] + s[1];
            valid[slot] = true;
            writes.push_back({instruction.get(isa::alu::dst_gpr) * 4 + instruction.get(isa::alu::dst_chan), s[0] + s[1]});
         }
         for (const auto &[place, v] : writes)
            file[place] = v;
         previous = results;
         previous_valid = valid;
      }
   }
   return "";
}

unsigned count_source_selects(const isa::AluGroup &group, unsigned sel)
{
   unsigned n = 0;
   for (const isa::AluInstruction &instruction : group.instructions)
      for (unsigned k = 0; k < instruction.source_count(); k++)
         n += isa::alu_source(instruction, k).sel == sel;
   return n;
}

TEST(Forwarding, PreviousResultsAreReadThroughPvAndPs)
{
   for (hw::IsaClass isa : {hw::IsaClass::Evergreen, hw::IsaClass::Cayman}) {
      const bool evergreen = isa == hw::IsaClass::Evergreen;
      Builder b;
      b.selected.isa = isa;
      const unsigned a = b.value(2, 0), c = b.value(2, 2);
      const unsigned r1 = b.value(3, 0), r2 = b.value(3, 3), r3 = b.value(4, 0), r4 = b.value(4, 1),
                     r5 = b.value(5, 2);
      ScheduledGroup first, second, third;
      first.ops.push_back(add_int(r1, a, c, 0));
      if (evergreen) {
         /* The t slot (w is taken, so the hardware puts the second w writer there): read back
          * through PS. */
         first.ops.push_back(add_int(b.value(6, 3), a, a, 3));
         first.ops.push_back(add_int(r2, a, a, 4));
      }
      second.ops.push_back(add_int(r3, r1, c, 0));
      second.ops.push_back(add_int(r4, r1, evergreen ? r2 : c, 1));
      third.ops.push_back(add_int(r5, r3, r4, 2)); /* next clause: GPRs again */
      ScheduledProgram scheduled;
      scheduled.isa = isa;
      Clause clause;
      clause.groups = {first, second};
      scheduled.clauses.push_back(clause);
      clause.groups = {third};
      scheduled.clauses.push_back(clause);
      ShaderBinary binary;
      std::string error;
      ASSERT_TRUE(emit_program(scheduled, b.allocation, b.selected, binary, error)) << error;
      isa::Program program;
      isa::DecodeError decode_error;
      ASSERT_TRUE(isa::decode_program(binary.code, isa, program, decode_error)) << decode_error.message;
      EXPECT_TRUE(isa::check_program(program).empty());
      ASSERT_EQ(program.alu_clauses.size(), 2u);
      ASSERT_EQ(program.alu_clauses[0].groups.size(), 2u);
      const isa::AluGroup &reader = program.alu_clauses[0].groups[1];
      EXPECT_EQ(count_source_selects(reader, isa::src_sel::pv), 2u);
      EXPECT_EQ(count_source_selects(reader, isa::src_sel::ps), evergreen ? 1u : 0u);
      EXPECT_EQ(count_source_selects(reader, 2), evergreen ? 1u : 2u); /* c stays in R2.z */
      const isa::AluGroup &next_clause = program.alu_clauses[1].groups.at(0);
      EXPECT_EQ(count_source_selects(next_clause, isa::src_sel::pv), 0u);
      EXPECT_EQ(count_source_selects(next_clause, 4), 2u);

      std::vector<uint32_t> file(128 * 4, 0);
      file[2 * 4 + 0] = 1000;
      file[2 * 4 + 2] = 7;
      ASSERT_EQ(run_add_clauses(program, file), "");
      const uint32_t v1 = 1007, v2 = 2000, v3 = v1 + 7, v4 = v1 + (evergreen ? v2 : 7);
      EXPECT_EQ(file[3 * 4 + 0], v1);
      EXPECT_EQ(file[4 * 4 + 0], v3);
      EXPECT_EQ(file[4 * 4 + 1], v4);
      EXPECT_EQ(file[5 * 4 + 2], v3 + v4);
   }
}

/* Four additions of eight values that all sit in channel x of different GPRs: no group can
 * read more than three of them (one GPR per channel in each of three cycles). The packer
 * spreads them over groups itself, so the encoder never has to split one. */
TEST(Forwarding, PackerKeepsToTheReadPorts)
{
   for (hw::IsaClass isa : {hw::IsaClass::Evergreen, hw::IsaClass::Cayman}) {
      SelectedProgram selected;
      selected.isa = isa;
      std::vector<unsigned> inputs;
      for (unsigned g = 2; g < 10; g++) {
         inputs.push_back(selected.new_value());
         selected.values.back().fixed_gpr = int(g);
         selected.values.back().fixed_chan = 0;
      }
      for (unsigned k = 0; k < 4; k++) {
         Node node;
         node.alu.op = isa::find_alu_op("ADD_INT");
         node.alu.dst = selected.new_value();
         node.alu.src[0] = Operand::of_value(inputs[2 * k]);
         node.alu.src[1] = Operand::of_value(inputs[2 * k + 1]);
         selected.nodes.push_back(node);
      }
      ScheduledProgram scheduled;
      std::string error;
      ASSERT_TRUE(schedule_program(selected, scheduled, error)) << error;
      size_t scheduled_groups = 0;
      for (const Clause &clause : scheduled.clauses) {
         for (const ScheduledGroup &group : clause.groups) {
            std::set<unsigned> channel_x;
            for (const ScheduledAlu &op : group.ops)
               for (unsigned s = 0; s < 2; s++)
                  channel_x.insert(op.op.src[s].value);
            EXPECT_LE(channel_x.size(), 3u) << "a group reads more channel-x GPRs than it can";
            scheduled_groups++;
         }
      }
      EXPECT_GE(scheduled_groups, 2u);
      Allocation allocation;
      ASSERT_TRUE(allocate_registers(selected, scheduled, allocation, error)) << error;
      ShaderBinary binary;
      ASSERT_TRUE(emit_program(scheduled, allocation, selected, binary, error)) << error;
      isa::Program program;
      isa::DecodeError decode_error;
      ASSERT_TRUE(isa::decode_program(binary.code, isa, program, decode_error)) << decode_error.message;
      EXPECT_TRUE(isa::check_program(program).empty());
      size_t emitted_groups = 0;
      for (const isa::AluClause &alu_clause : program.alu_clauses)
         emitted_groups += alu_clause.groups.size();
      EXPECT_EQ(emitted_groups, scheduled_groups) << "the encoder had to split a group";
   }
}

/* A clause of 160 slots goes on in a second clause; PV/PS do not reach into it, so the second
 * clause starts at a group that reads no previous result. */
TEST(Forwarding, ClauseSplitStartsWithoutPreviousResults)
{
   for (hw::IsaClass isa : {hw::IsaClass::Evergreen, hw::IsaClass::Cayman}) {
      Builder b;
      b.selected.isa = isa;
      const unsigned a = b.value(2, 0), one = b.value(2, 1);
      std::array<unsigned, 4> previous{};
      ScheduledProgram scheduled;
      scheduled.isa = isa;
      Clause clause;
      std::vector<uint32_t> expected(128 * 4, 0);
      expected[2 * 4 + 0] = 5;
      expected[2 * 4 + 1] = 1;
      std::vector<uint32_t> file = expected;
      for (unsigned i = 0; i < 40; i++) {
         ScheduledGroup group;
         std::array<unsigned, 4> written{};
         const unsigned gpr = 3 + i % 2;
         for (unsigned k = 0; k < 4; k++) {
            written[k] = b.value(gpr, k);
            /* Every third group reads only R2; the others the previous group's results. */
            const bool chained = i % 3 != 0;
            group.ops.push_back(add_int(written[k], chained ? previous[k] : a, chained ? a : one, int(k)));
            const uint32_t source = chained ? expected[(3 + (i + 1) % 2) * 4 + k] : 1;
            expected[gpr * 4 + k] = source + 5;
         }
         previous = written;
         clause.groups.push_back(group);
      }
      scheduled.clauses.push_back(clause);
      ShaderBinary binary;
      std::string error;
      ASSERT_TRUE(emit_program(scheduled, b.allocation, b.selected, binary, error)) << error;
      isa::Program program;
      isa::DecodeError decode_error;
      ASSERT_TRUE(isa::decode_program(binary.code, isa, program, decode_error)) << decode_error.message;
      EXPECT_TRUE(isa::check_program(program).empty());
      ASSERT_EQ(program.alu_clauses.size(), 2u);
      const isa::AluGroup &first = program.alu_clauses[1].groups.at(0);
      EXPECT_EQ(count_source_selects(first, isa::src_sel::pv) + count_source_selects(first, isa::src_sel::ps), 0u);
      ASSERT_EQ(run_add_clauses(program, file), "");
      for (unsigned place = 3 * 4; place < 5 * 4; place++)
         EXPECT_EQ(file[place], expected[place]) << "R" << place / 4 << "." << "xyzw"[place % 4];
   }
}

} // namespace
