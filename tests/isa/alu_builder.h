/* Building ALU instructions and groups by hand for tests, through the ISA tables. */
#pragma once

#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

#include "compiler/isa/bundle_rules.h"
#include "compiler/isa/program.h"

namespace terakan::test {

struct Src {
   unsigned sel = isa::src_sel::zero;
   unsigned chan = 0;
   bool neg = false, abs = false, rel = false;
};

inline unsigned chan_of(char c) { return std::string("xyzw").find(c); }
inline Src gpr(unsigned n, char c) { return {n, chan_of(c)}; }
inline Src gpr_rel(unsigned n, char c) { return {n, chan_of(c), false, false, true}; }
inline Src kc(unsigned set, unsigned index, char c)
{
   static const unsigned bases[] = {128, 160, 256, 288};
   return {bases[set] + index, chan_of(c)};
}
inline Src literal(char c) { return {isa::src_sel::literal, chan_of(c)}; }
inline Src pv(char c) { return {isa::src_sel::pv, chan_of(c)}; }
inline Src ps() { return {isa::src_sel::ps, 0}; }
inline Src select(unsigned sel) { return {sel, 0}; }

inline isa::AluInstruction make_alu(isa::IsaClass isa_class, const std::string &name, unsigned dst,
                                    char dst_chan, std::initializer_list<Src> sources,
                                    unsigned bank_swizzle = 0)
{
   using namespace isa;
   const AluOpInfo *op = find_alu_op(name);
   if (!op || !op->exists(isa_class))
      throw std::runtime_error("no such ALU op on this class: " + name);
   AluInstruction instruction;
   instruction.op = op;
   switch (op->encoding) {
   case AluEncoding::Op2:
      instruction.format = WordFormat::AluOp2;
      instruction.set(alu::op2_inst, op->opcode_for(isa_class));
      instruction.set(alu::write_mask, 1);
      break;
   case AluEncoding::Op3:
      instruction.format = WordFormat::AluOp3;
      instruction.set(alu::op3_inst, op->opcode_for(isa_class));
      break;
   case AluEncoding::Lds:
      instruction.format = WordFormat::AluLds;
      instruction.set(alu::op3_inst, alu::lds_idx_op_opcode);
      instruction.set(alu::lds_op, op->opcode_for(isa_class));
      break;
   }
   if (op->encoding != AluEncoding::Lds)
      instruction.set(alu::dst_gpr, dst);
   instruction.set(alu::dst_chan, chan_of(dst_chan));
   instruction.set(alu::bank_swizzle, bank_swizzle);
   const Field sels[] = {alu::src0_sel, alu::src1_sel, alu::src2_sel};
   const Field chans[] = {alu::src0_chan, alu::src1_chan, alu::src2_chan};
   const Field rels[] = {alu::src0_rel, alu::src1_rel, alu::src2_rel};
   const Field negs[] = {alu::src0_neg, alu::src1_neg, alu::src2_neg};
   const Field abss[] = {alu::src0_abs, alu::src1_abs};
   unsigned i = 0;
   for (const Src &source : sources) {
      instruction.set(sels[i], source.sel);
      instruction.set(chans[i], source.chan);
      instruction.set(rels[i], source.rel);
      if (op->encoding != AluEncoding::Lds)
         instruction.set(negs[i], source.neg);
      if (i < 2 && op->encoding == AluEncoding::Op2)
         instruction.set(abss[i], source.abs);
      i++;
   }
   return instruction;
}

/* A group: marks the last instruction, assigns slots, runs the checker. */
struct TestGroup {
   isa::IsaClass isa_class;
   std::vector<isa::AluInstruction> instructions;
   std::vector<uint32_t> literals;
   bool assign = true;

   explicit TestGroup(isa::IsaClass c) : isa_class(c) {}
   TestGroup &add(const isa::AluInstruction &instruction)
   {
      instructions.push_back(instruction);
      return *this;
   }
   std::vector<isa::Violation> check(const isa::GroupContext &context = {})
   {
      for (auto &instruction : instructions)
         instruction.set(isa::alu::last, 0);
      if (!instructions.empty())
         instructions.back().set(isa::alu::last, 1);
      if (assign)
         isa::assign_slots(instructions, isa_class);
      return isa::check_group(instructions, literals, isa_class, context);
   }
};

inline bool has_rule(const std::vector<isa::Violation> &violations, isa::Rule rule)
{
   for (const auto &violation : violations)
      if (violation.rule == rule)
         return true;
   return false;
}

inline std::string describe(const std::vector<isa::Violation> &violations)
{
   std::string text;
   for (const auto &violation : violations)
      text += std::string(isa::rule_info(violation.rule).id) + ": " + violation.message + "\n";
   return text;
}

} // namespace terakan::test
