/* Every bundle rule, broken once and obeyed once. */
#include <gtest/gtest.h>

#include <set>

#include "alu_builder.h"

using namespace terakan;
using namespace terakan::isa;
using namespace terakan::test;

namespace {

constexpr IsaClass EG = IsaClass::Evergreen;
constexpr IsaClass CM = IsaClass::Cayman;
std::set<Rule> tested;

#define EXPECT_VIOLATES(group_expr, rule)                                                      \
   do {                                                                                        \
      tested.insert(rule);                                                                     \
      const auto violations_ = (group_expr);                                                   \
      EXPECT_TRUE(has_rule(violations_, rule))                                                 \
         << "expected " << rule_info(rule).id << ", got:\n" << describe(violations_);          \
   } while (0)

#define EXPECT_LEGAL(group_expr)                                                               \
   do {                                                                                        \
      const auto violations_ = (group_expr);                                                   \
      EXPECT_TRUE(violations_.empty()) << describe(violations_);                               \
   } while (0)

GroupContext after_group(std::initializer_list<Slot> slots)
{
   GroupContext context;
   context.has_previous_group = true;
   for (Slot slot : slots)
      context.previous_slots[static_cast<unsigned>(slot)] = true;
   return context;
}

TEST(BundleRules, SlotAssignment)
{
   /* FLT_TO_INT is vector-only: a second one for channel x finds no slot. */
   EXPECT_VIOLATES(TestGroup(EG)
                      .add(make_alu(EG, "FLT_TO_INT", 0, 'x', {gpr(1, 'x')}))
                      .add(make_alu(EG, "FLT_TO_INT", 2, 'x', {gpr(1, 'y')}))
                      .check(),
                   Rule::SlotAssignment);
   /* ADD may use t: the second x-channel ADD goes there. */
   EXPECT_LEGAL(TestGroup(EG)
                   .add(make_alu(EG, "ADD", 0, 'x', {gpr(1, 'x'), gpr(2, 'y')}))
                   .add(make_alu(EG, "ADD", 3, 'x', {gpr(1, 'y'), gpr(2, 'x')}))
                   .check());
   /* On Cayman there is no t to fall back to. */
   EXPECT_VIOLATES(TestGroup(CM)
                      .add(make_alu(CM, "ADD", 0, 'x', {gpr(1, 'x'), gpr(2, 'y')}))
                      .add(make_alu(CM, "ADD", 3, 'x', {gpr(1, 'y'), gpr(2, 'x')}))
                      .check(),
                   Rule::SlotAssignment);
}

TEST(BundleRules, SlotLegality)
{
   TestGroup group(EG);
   group.assign = false;
   group.add(make_alu(EG, "MULLO_INT", 0, 'x', {gpr(1, 'x'), gpr(2, 'y')}));
   group.instructions[0].slot = Slot::X; /* trans-only op placed in a vector slot */
   EXPECT_VIOLATES(group.check(), Rule::SlotLegality);
   group.instructions[0].slot = Slot::T;
   EXPECT_LEGAL(group.check());
}

TEST(BundleRules, FourSlotGroup)
{
   TestGroup partial(EG);
   for (char c : std::string("xyz"))
      partial.add(make_alu(EG, "DOT4", 0, c, {gpr(1, c), gpr(2, c)}));
   EXPECT_VIOLATES(partial.check(), Rule::FourSlotGroup);
   TestGroup full(EG);
   for (char c : std::string("xyzw"))
      full.add(make_alu(EG, "DOT4", 0, c, {gpr(1, c), gpr(2, c)}));
   EXPECT_LEGAL(full.check());
}

TEST(BundleRules, PairSlots)
{
   const Src param = select(src_sel::param_base + 1);
   EXPECT_VIOLATES(TestGroup(EG).add(make_alu(EG, "INTERP_X", 0, 'x', {gpr(0, 'y'), param}, 5)).check(),
                   Rule::PairSlots);
   EXPECT_LEGAL(TestGroup(EG)
                   .add(make_alu(EG, "INTERP_X", 0, 'x', {gpr(0, 'y'), param}, 5))
                   .add(make_alu(EG, "INTERP_X", 0, 'y', {gpr(0, 'x'), param}, 5))
                   .check());
}

TEST(BundleRules, CaymanReplicated)
{
   EXPECT_VIOLATES(TestGroup(CM)
                      .add(make_alu(CM, "RECIP_IEEE", 0, 'x', {gpr(1, 'x')}))
                      .add(make_alu(CM, "RECIP_IEEE", 0, 'y', {gpr(1, 'x')}))
                      .check(),
                   Rule::CaymanReplicated);
   EXPECT_VIOLATES(TestGroup(CM)
                      .add(make_alu(CM, "RECIP_IEEE", 0, 'x', {gpr(1, 'x')}))
                      .add(make_alu(CM, "RECIP_IEEE", 0, 'y', {gpr(1, 'y')}))
                      .add(make_alu(CM, "RECIP_IEEE", 0, 'z', {gpr(1, 'x')}))
                      .check(),
                   Rule::CaymanReplicated);
   EXPECT_LEGAL(TestGroup(CM)
                   .add(make_alu(CM, "RECIP_IEEE", 0, 'x', {gpr(1, 'x')}))
                   .add(make_alu(CM, "RECIP_IEEE", 0, 'y', {gpr(1, 'x')}))
                   .add(make_alu(CM, "RECIP_IEEE", 0, 'z', {gpr(1, 'x')}))
                   .check());
   /* The MULLO family needs all four. */
   TestGroup mullo(CM);
   for (char c : std::string("xyz"))
      mullo.add(make_alu(CM, "MULLO_INT", 0, c, {gpr(1, 'x'), gpr(2, 'y')}));
   EXPECT_VIOLATES(mullo.check(), Rule::CaymanReplicated);
   mullo.add(make_alu(CM, "MULLO_INT", 0, 'w', {gpr(1, 'x'), gpr(2, 'y')}));
   EXPECT_LEGAL(mullo.check());
}

TEST(BundleRules, GprReadPorts)
{
   /* x reads R1.x in cycle 0; y's src0 R3.x in cycle 0 too (VEC_012): one x port. */
   EXPECT_VIOLATES(TestGroup(EG)
                      .add(make_alu(EG, "ADD", 0, 'x', {gpr(1, 'x'), gpr(2, 'y')}))
                      .add(make_alu(EG, "ADD", 0, 'y', {gpr(3, 'x'), gpr(4, 'z')}))
                      .check(),
                   Rule::GprReadPorts);
   /* VEC_201 moves y's src0 to cycle 2, where the x port is free. */
   EXPECT_LEGAL(TestGroup(EG)
                   .add(make_alu(EG, "ADD", 0, 'x', {gpr(1, 'x'), gpr(2, 'y')}))
                   .add(make_alu(EG, "ADD", 0, 'y', {gpr(3, 'x'), gpr(4, 'z')}, 4))
                   .check());
   /* The same GPR channel read twice in one cycle shares the port. */
   EXPECT_LEGAL(TestGroup(EG)
                   .add(make_alu(EG, "ADD", 0, 'x', {gpr(1, 'x'), gpr(2, 'y')}))
                   .add(make_alu(EG, "ADD", 0, 'y', {gpr(1, 'x'), gpr(4, 'z')}))
                   .check());
}

TEST(BundleRules, TransBankSwizzle)
{
   EXPECT_VIOLATES(TestGroup(EG).add(make_alu(EG, "MULLO_INT", 0, 'x', {gpr(1, 'x'), gpr(2, 'y')}, 4)).check(),
                   Rule::TransBankSwizzle);
   EXPECT_LEGAL(TestGroup(EG).add(make_alu(EG, "MULLO_INT", 0, 'x', {gpr(1, 'x'), gpr(2, 'y')}, 0)).check());
}

TEST(BundleRules, TransConstantCount)
{
   GroupContext locked;
   locked.kcache[0] = {1, 0, 0};
   /* MULADD goes to t because x is taken; three constants there is one too many. */
   auto group = [&](Src third) {
      return TestGroup(EG)
         .add(make_alu(EG, "ADD", 5, 'x', {gpr(6, 'x'), gpr(7, 'y')}))
         .add(make_alu(EG, "MULADD", 0, 'x', {kc(0, 0, 'x'), kc(0, 0, 'y'), third}))
         .check(locked);
   };
   EXPECT_VIOLATES(group(literal('x')), Rule::TransConstantCount);
}

TEST(BundleRules, TransConstantCountLegal)
{
   GroupContext locked;
   locked.kcache[0] = {1, 0, 0};
   TestGroup group(EG);
   group.add(make_alu(EG, "ADD", 5, 'x', {gpr(6, 'x'), gpr(7, 'y')}));
   /* SCL_210 reads src0 in cycle 2: after the two constants. */
   group.add(make_alu(EG, "MULADD", 0, 'x', {gpr(1, 'z'), kc(0, 0, 'x'), kc(0, 0, 'y')}, 0));
   EXPECT_LEGAL(group.check(locked));
}

TEST(BundleRules, TransConstantCycle)
{
   GroupContext locked;
   locked.kcache[0] = {1, 0, 0};
   TestGroup group(EG);
   group.add(make_alu(EG, "ADD", 5, 'x', {gpr(6, 'x'), gpr(7, 'y')}));
   /* SCL_210 reads src2 in cycle 0, but two constants come first. */
   group.add(make_alu(EG, "MULADD", 0, 'x', {kc(0, 0, 'x'), kc(0, 0, 'y'), gpr(1, 'z')}, 0));
   EXPECT_VIOLATES(group.check(locked), Rule::TransConstantCycle);
}

TEST(BundleRules, ConstantReadPorts)
{
   GroupContext locked;
   locked.kcache[0] = {1, 0, 0};
   EXPECT_VIOLATES(TestGroup(EG)
                      .add(make_alu(EG, "ADD", 0, 'x', {kc(0, 0, 'x'), kc(0, 1, 'x')}))
                      .add(make_alu(EG, "ADD", 0, 'y', {kc(0, 2, 'x'), gpr(1, 'y')}))
                      .check(locked),
                   Rule::ConstantReadPorts);
   /* x and y of one constant are one pair. */
   EXPECT_LEGAL(TestGroup(EG)
                   .add(make_alu(EG, "ADD", 0, 'x', {kc(0, 0, 'x'), kc(0, 0, 'y')}))
                   .add(make_alu(EG, "ADD", 0, 'y', {kc(0, 1, 'z'), gpr(1, 'y')}))
                   .check(locked));
}

TEST(BundleRules, KcacheLocked)
{
   GroupContext one_line;
   one_line.kcache[0] = {1, 0, 0}; /* KC0: 16 constants */
   EXPECT_VIOLATES(TestGroup(EG).add(make_alu(EG, "MOV", 0, 'x', {kc(0, 20, 'x')})).check(one_line),
                   Rule::KcacheLocked);
   EXPECT_VIOLATES(TestGroup(EG).add(make_alu(EG, "MOV", 0, 'x', {kc(2, 0, 'x')})).check(one_line),
                   Rule::KcacheLocked);
   EXPECT_LEGAL(TestGroup(EG).add(make_alu(EG, "MOV", 0, 'x', {kc(0, 15, 'x')})).check(one_line));
}

TEST(BundleRules, LiteralMissing)
{
   TestGroup group(EG);
   group.literals = {1, 2};
   group.add(make_alu(EG, "ADD", 0, 'x', {literal('z'), gpr(1, 'x')}));
   EXPECT_VIOLATES(group.check(), Rule::LiteralMissing);
   TestGroup fine(EG);
   fine.literals = {1, 2};
   fine.add(make_alu(EG, "ADD", 0, 'x', {literal('y'), gpr(1, 'x')}));
   EXPECT_LEGAL(fine.check());
}

TEST(BundleRules, SourceSelect)
{
   EXPECT_VIOLATES(TestGroup(EG).add(make_alu(EG, "MOV", 0, 'x', {select(200)})).check(),
                   Rule::SourceSelect);
   EXPECT_VIOLATES(TestGroup(EG).add(make_alu(EG, "MOV", 0, 'x', {select(src_sel::param_base)})).check(),
                   Rule::SourceSelect);
   EXPECT_LEGAL(TestGroup(EG).add(make_alu(EG, "MOV", 0, 'x', {select(src_sel::one)})).check());
}

TEST(BundleRules, PreviousResult)
{
   EXPECT_VIOLATES(TestGroup(EG).add(make_alu(EG, "MOV", 0, 'x', {pv('y')})).check(),
                   Rule::PreviousResult);
   EXPECT_VIOLATES(TestGroup(EG).add(make_alu(EG, "MOV", 0, 'x', {ps()})).check(after_group({Slot::X})),
                   Rule::PreviousResult);
   EXPECT_LEGAL(TestGroup(EG).add(make_alu(EG, "MOV", 0, 'x', {pv('y')})).check(after_group({Slot::Y})));
   EXPECT_LEGAL(TestGroup(EG).add(make_alu(EG, "MOV", 0, 'x', {ps()})).check(after_group({Slot::T})));
}

TEST(BundleRules, CaymanNoPs)
{
   EXPECT_VIOLATES(TestGroup(CM).add(make_alu(CM, "MOV", 0, 'x', {ps()})).check(after_group({Slot::X})),
                   Rule::CaymanNoPs);
   EXPECT_LEGAL(TestGroup(CM).add(make_alu(CM, "MOV", 0, 'x', {pv('x')})).check(after_group({Slot::X})));
}

TEST(BundleRules, DestinationUnique)
{
   EXPECT_VIOLATES(TestGroup(EG)
                      .add(make_alu(EG, "ADD", 0, 'x', {gpr(1, 'x'), gpr(2, 'y')}))
                      .add(make_alu(EG, "MULLO_INT", 0, 'x', {gpr(1, 'y'), gpr(2, 'x')}))
                      .check(),
                   Rule::DestinationUnique);
   EXPECT_LEGAL(TestGroup(EG)
                   .add(make_alu(EG, "ADD", 0, 'x', {gpr(1, 'x'), gpr(2, 'y')}))
                   .add(make_alu(EG, "MULLO_INT", 3, 'x', {gpr(1, 'y'), gpr(2, 'x')}))
                   .check());
}

TEST(BundleRules, MovaOnce)
{
   EXPECT_VIOLATES(TestGroup(EG)
                      .add(make_alu(EG, "MOVA_INT", 0, 'x', {gpr(1, 'x')}))
                      .add(make_alu(EG, "MOVA_INT", 0, 'y', {gpr(2, 'x')}, 4))
                      .check(),
                   Rule::MovaOnce);
   EXPECT_LEGAL(TestGroup(EG).add(make_alu(EG, "MOVA_INT", 0, 'x', {gpr(1, 'x')})).check());
}

TEST(BundleRules, MovaWithRelative)
{
   EXPECT_VIOLATES(TestGroup(EG)
                      .add(make_alu(EG, "MOVA_INT", 0, 'x', {gpr(1, 'x')}))
                      .add(make_alu(EG, "MOV", 4, 'y', {gpr_rel(8, 'y')}))
                      .check(),
                   Rule::MovaWithRelative);
   GroupContext after_mova;
   after_mova.mova_in_clause = true;
   EXPECT_LEGAL(TestGroup(EG).add(make_alu(EG, "MOV", 4, 'y', {gpr_rel(8, 'y')})).check(after_mova));
}

TEST(BundleRules, RelativeBeforeMova)
{
   EXPECT_VIOLATES(TestGroup(EG).add(make_alu(EG, "MOV", 4, 'y', {gpr_rel(8, 'y')})).check(),
                   Rule::RelativeBeforeMova);
   GroupContext after_mova;
   after_mova.mova_in_clause = true;
   EXPECT_LEGAL(TestGroup(EG).add(make_alu(EG, "MOV", 4, 'y', {gpr_rel(8, 'y')})).check(after_mova));
}

TEST(BundleRules, LdsPerGroup)
{
   EXPECT_VIOLATES(TestGroup(EG)
                      .add(make_alu(EG, "LDS_WRITE", 0, 'x', {gpr(1, 'x'), gpr(2, 'x')}))
                      .add(make_alu(EG, "LDS_ADD", 0, 'y', {gpr(1, 'y'), gpr(2, 'y')}, 4))
                      .check(),
                   Rule::LdsPerGroup);
   EXPECT_LEGAL(TestGroup(EG).add(make_alu(EG, "LDS_WRITE", 0, 'x', {gpr(1, 'x'), gpr(2, 'x')})).check());
}

TEST(BundleRules, LdsQueueRead)
{
   /* VEC_120 reads src0 in cycle 1: too late for the queue. */
   EXPECT_VIOLATES(TestGroup(EG).add(make_alu(EG, "MOV", 0, 'x', {select(src_sel::lds_oq_a_pop)}, 2)).check(),
                   Rule::LdsQueueRead);
   EXPECT_LEGAL(TestGroup(EG).add(make_alu(EG, "MOV", 0, 'x', {select(src_sel::lds_oq_a_pop)}, 0)).check());
}

AluClause clause_of(std::vector<TestGroup> groups)
{
   AluClause clause;
   uint32_t slot = 0;
   for (TestGroup &group : groups) {
      group.check();
      AluGroup out;
      out.index = slot;
      out.instructions = group.instructions;
      out.literals = group.literals;
      slot += out.slot_count();
      clause.groups.push_back(out);
   }
   clause.slot_count = slot;
   return clause;
}

std::vector<Violation> check(const AluClause &clause, IsaClass isa)
{
   CfInstruction cf;
   cf.op = find_cf_op("ALU");
   cf.format = WordFormat::CfAlu;
   return check_clause(clause, cf, nullptr, isa);
}

TEST(BundleRules, LdsQueueBalance)
{
   auto read = [] { return TestGroup(EG).add(make_alu(EG, "LDS_READ_RET", 0, 'x', {gpr(1, 'x')})); };
   auto pop = [] { return TestGroup(EG).add(make_alu(EG, "MOV", 2, 'x', {select(src_sel::lds_oq_a_pop)})); };
   EXPECT_VIOLATES(check(clause_of({pop()}), EG), Rule::LdsQueueBalance);
   EXPECT_VIOLATES(check(clause_of({read()}), EG), Rule::LdsQueueBalance);
   EXPECT_LEGAL(check(clause_of({read(), pop()}), EG));
}

TEST(BundleRules, PredicateOnce)
{
   EXPECT_VIOLATES(TestGroup(EG)
                      .add(make_alu(EG, "PRED_SETE", 0, 'x', {gpr(1, 'x'), gpr(2, 'y')}))
                      .add(make_alu(EG, "PRED_SETNE", 0, 'y', {gpr(1, 'y'), gpr(2, 'x')}))
                      .check(),
                   Rule::PredicateOnce);
   EXPECT_VIOLATES(TestGroup(EG)
                      .add(make_alu(EG, "PRED_SETE", 0, 'x', {gpr(1, 'x'), gpr(2, 'y')}))
                      .add(make_alu(EG, "KILLGT", 0, 'y', {gpr(1, 'y'), gpr(2, 'x')}))
                      .check(),
                   Rule::PredicateOnce);
   EXPECT_LEGAL(TestGroup(EG).add(make_alu(EG, "PRED_SETE", 0, 'x', {gpr(1, 'x'), gpr(2, 'y')})).check());
}

TEST(BundleRules, InterpSwizzle)
{
   const Src param = select(src_sel::param_base);
   auto group = [&](unsigned swizzle) {
      TestGroup out(EG);
      for (char c : std::string("xyzw"))
         out.add(make_alu(EG, "INTERP_XY", 0, c, {gpr(0, c == 'x' || c == 'z' ? 'y' : 'x'), param}, swizzle));
      return out.check();
   };
   EXPECT_VIOLATES(group(0), Rule::InterpSwizzle);
   EXPECT_LEGAL(group(5));
}

TEST(BundleRules, ClauseSize)
{
   auto mov = [] { return TestGroup(EG).add(make_alu(EG, "MOV", 0, 'x', {gpr(1, 'x')})); };
   std::vector<TestGroup> groups(128, mov());
   EXPECT_LEGAL(check(clause_of(groups), EG));
   groups.push_back(mov());
   EXPECT_VIOLATES(check(clause_of(groups), EG), Rule::ClauseSize);
}

/* Runs last (gtest runs tests of a file in order): every rule above was exercised. */
TEST(BundleRules, ZZEveryRuleHasATest)
{
   for (const RuleInfo &info : all_rules())
      EXPECT_TRUE(tested.count(info.rule)) << info.id << " has no violating test";
}

} // namespace
