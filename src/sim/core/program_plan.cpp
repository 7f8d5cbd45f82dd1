/* Preparing a decoded program for execution (see program_plan.h). The classification follows
 * what the wave executor did per instruction before: the same opcode names, flags and fields,
 * read once here instead of once per group and lane. */
#include "program_plan.h"

#include <algorithm>
#include <map>

namespace terakan::sim {

using namespace isa;

namespace {

PreparedOperand prepare_operand(const AluInstruction &instruction, const AluGroup &group, unsigned index)
{
   const AluSource source = alu_source(instruction, index);
   PreparedOperand operand;
   operand.sel = source.sel;
   operand.chan = source.chan;
   operand.rel = source.rel;
   operand.abs_mask = source.abs ? 0x7fffffffu : ~0u;
   operand.neg_mask = source.neg ? 0x80000000u : 0u;
   const unsigned sel = source.sel;
   if (sel < src_sel::gpr_count) {
      operand.kind = OperandKind::Gpr;
   } else if (sel < src_sel::kcache1 + 32 || (sel >= src_sel::kcache2 && sel < src_sel::kcache3 + 32)) {
      operand.kind = OperandKind::Constant;
   } else if (sel >= src_sel::param_base && sel < src_sel::param_base + 32) {
      operand.kind = OperandKind::Value; /* an interpolation parameter: INTERP_* read it themselves */
      operand.value = 0;
   } else if (sel == src_sel::literal) {
      operand.kind = OperandKind::Value;
      /* The bundle checker has made sure the group carries the literal it names. */
      operand.value = source.chan < group.literals.size() ? group.literals[source.chan] : 0;
   } else if (sel == src_sel::pv || sel == src_sel::ps) {
      operand.kind = OperandKind::Previous;
      operand.previous_slot = sel == src_sel::ps ? 4 : source.chan;
   } else if (sel == src_sel::hw_wave_id) {
      operand.kind = OperandKind::WaveId;
   } else if (sel == src_sel::se_id) {
      operand.kind = OperandKind::SeId;
   } else if (sel == src_sel::lds_oq_a_pop || sel == src_sel::lds_oq_a) {
      operand.kind = OperandKind::LdsQueue;
      operand.pop = sel == src_sel::lds_oq_a_pop;
   } else {
      operand.kind = OperandKind::Value;
      switch (sel) {
      case src_sel::zero: operand.value = 0; break;
      case src_sel::one: operand.value = as_bits(1.0f); break;
      case src_sel::one_int: operand.value = 1; break;
      case src_sel::minus_one_int: operand.value = 0xffffffffu; break;
      case src_sel::half: operand.value = as_bits(0.5f); break;
      default: operand.kind = OperandKind::Unsimulated; break;
      }
   }
   return operand;
}

void prepare_lds(std::string_view name, PreparedAlu &alu)
{
   std::string base(name);
   alu.lds_returns = base.size() > 4 && base.ends_with("_RET");
   if (alu.lds_returns)
      base.resize(base.size() - 4);
   static const std::map<std::string, LdsOp, std::less<>> atomics = {
      {"LDS_ADD", LdsOp::Add}, {"LDS_SUB", LdsOp::Sub}, {"LDS_RSUB", LdsOp::Rsub},
      {"LDS_INC", LdsOp::Inc}, {"LDS_DEC", LdsOp::Dec}, {"LDS_MIN_INT", LdsOp::MinInt},
      {"LDS_MAX_INT", LdsOp::MaxInt}, {"LDS_MIN_UINT", LdsOp::MinUint}, {"LDS_MAX_UINT", LdsOp::MaxUint},
      {"LDS_AND", LdsOp::And}, {"LDS_OR", LdsOp::Or}, {"LDS_XOR", LdsOp::Xor},
      {"LDS_XCHG", LdsOp::Xchg}, {"LDS_CMP_XCHG", LdsOp::CmpXchg},
   };
   if (base == "LDS_READ") {
      alu.lds_op = LdsOp::Read;
   } else if (base == "LDS_UBYTE_READ" || base == "LDS_BYTE_READ" || base == "LDS_USHORT_READ" ||
              base == "LDS_SHORT_READ") {
      alu.lds_op = LdsOp::ReadSubword;
      alu.lds_bytes = base.find("BYTE") != std::string::npos ? 1 : 2;
      alu.lds_signed = base[4] != 'U';
   } else if (base == "LDS_WRITE") {
      alu.lds_op = LdsOp::Write;
   } else if (base == "LDS_BYTE_WRITE" || base == "LDS_SHORT_WRITE") {
      alu.lds_op = LdsOp::WriteSubword;
      alu.lds_bytes = base == "LDS_BYTE_WRITE" ? 1 : 2;
   } else if (const auto found = atomics.find(base); found != atomics.end()) {
      alu.lds_op = found->second;
   } else {
      alu.lds_op = LdsOp::Unsimulated; /* refused when a lane runs it, after its load */
   }
}

/* INTERP_XY / INTERP_ZW pair slots x with y and z with w; INTERP_LOAD_P0/P10/P20 copy one term
 * (docs/sim-semantics.md). Problems found here are refused after the wave checks. */
void prepare_interp(const AluGroup &group, size_t index, PreparedAlu &alu)
{
   const AluInstruction &instruction = group.instructions[index];
   const std::string_view name = alu.name;
   alu.interp_load = name.starts_with("INTERP_LOAD_");
   const AluSource parameter = alu_source(instruction, alu.interp_load ? 0 : 1);
   alu.interp_has_parameter = parameter.sel >= src_sel::param_base && parameter.sel < src_sel::param_base + 32;
   alu.interp_parameter = parameter.sel - src_sel::param_base;
   alu.interp_channel = parameter.chan;
   const std::string quoted(name);
   if (alu.interp_load) {
      alu.interp_term = name == "INTERP_LOAD_P0" ? 0 : name == "INTERP_LOAD_P10" ? 1 : 2;
   } else if (name == "INTERP_XY" || name == "INTERP_ZW") {
      const unsigned slot = static_cast<unsigned>(instruction.slot);
      if (slot > 3) {
         alu.interp_problem = quoted + " in the trans slot";
      } else {
         alu.interp_partner = unsigned(group.instructions.size());
         for (size_t j = 0; j < group.instructions.size(); j++)
            if (group.instructions[j].op == instruction.op &&
                static_cast<unsigned>(group.instructions[j].slot) == (slot ^ 1))
               alu.interp_partner = unsigned(j);
         if (alu.interp_partner == group.instructions.size())
            alu.interp_problem = quoted + " in slot " + "xyzw"[slot] + " without its pair";
      }
   } else {
      alu.interp_problem = quoted + " is not simulated yet";
   }
   alu.interp_even = !alu.interp_load && (static_cast<unsigned>(instruction.slot) % 2) == 0;
}

PreparedAlu prepare_alu(const AluGroup &group, size_t index)
{
   const AluInstruction &instruction = group.instructions[index];
   const AluOpInfo &op = *instruction.op;
   PreparedAlu alu;
   alu.instruction = &instruction;
   alu.name = op.name;
   alu.slot = instruction.slot;
   const unsigned fields = instruction.is_op3() ? 3 : 2;
   alu.source_count = std::min<unsigned>(instruction.source_count(), fields);
   for (unsigned s = 0; s < alu.source_count; s++)
      alu.sources[s] = prepare_operand(instruction, group, s);
   alu.pred_sel = instruction.get(alu::pred_sel);
   const bool op3 = instruction.is_op3();
   alu.omod = op3 ? 0 : instruction.get(alu::omod);
   alu.clamp = instruction.get(alu::clamp);
   alu.update_exec_mask = instruction.get(alu::update_exec_mask);
   alu.update_pred = instruction.get(alu::update_pred);
   alu.dst_gpr = instruction.get(alu::dst_gpr);
   alu.dst_rel = instruction.get(alu::dst_rel);
   alu.dst_chan = instruction.get(alu::dst_chan);
   const bool mova = op.has(AluFlag::Mova);
   alu.writes_gpr = (op3 || instruction.get(alu::write_mask)) && !mova;

   const std::string_view name = op.name;
   if (name == "GROUP_BARRIER") {
      alu.kind = AluKind::Barrier;
   } else if (instruction.is_lds()) {
      alu.kind = AluKind::Lds;
      alu.lds_offset = instruction.lds_offset();
      prepare_lds(name, alu);
   } else if (op.has(AluFlag::Interp)) {
      alu.kind = AluKind::Interp;
      prepare_interp(group, index, alu);
   } else if (name == "DOT4" || name == "DOT4_IEEE" || name == "MAX4") {
      alu.kind = AluKind::Reduction;
      alu.reduction = name == "MAX4" ? ReductionKind::Max4 : name == "DOT4" ? ReductionKind::Dot4 : ReductionKind::Dot4Ieee;
      for (size_t j = 0; j < group.instructions.size(); j++)
         if (group.instructions[j].op->name == name && group.instructions[j].slot != Slot::T)
            alu.partners.push_back(unsigned(j));
   } else if (name == "MBCNT_32HI_INT" || name == "MBCNT_32LO_ACCUM_PREV_INT") {
      /* The low half accumulates the high half's count from its partner in the group
       * (shader_core.cpp, count_lanes_below). */
      alu.kind = AluKind::LaneCount;
      for (size_t j = 0; j < group.instructions.size(); j++)
         if (j != index && group.instructions[j].op->name == "MBCNT_32HI_INT")
            alu.partners.push_back(unsigned(j));
   } else if (name == "CUBE") {
      alu.kind = AluKind::Cube;
      for (size_t j = 0; j < group.instructions.size(); j++)
         if (group.instructions[j].op->name == "CUBE")
            alu.partners.push_back(unsigned(j));
   } else if (op.has(AluFlag::Kill)) {
      alu.kind = AluKind::Kill;
      alu.condition = find_condition_function(op);
   } else if (op.has(AluFlag::PredSet)) {
      alu.kind = AluKind::PredSet;
      alu.condition = find_condition_function(op);
   } else if (mova) {
      alu.kind = AluKind::Mova;
   } else {
      alu.kind = AluKind::Plain;
      alu.lanes = find_alu_lanes_function(op);
   }
   return alu;
}

CfKind classify_cf(const CfInstruction &cf)
{
   const CfOpInfo &op = *cf.op;
   const std::string_view name = op.name;
   if (op.has(CfFlag::AluClause)) return CfKind::Alu;
   if (op.has(CfFlag::AluExtension)) return CfKind::AluExtension;
   if (op.has(CfFlag::FetchClause)) return CfKind::Fetch;
   if (name == "NOP") return CfKind::Nop;
   if (name == "WAIT_ACK") return CfKind::WaitAck;
   if (name == "JUMP") return CfKind::Jump;
   if (name == "PUSH") return CfKind::Push;
   if (name == "ELSE") return CfKind::Else;
   if (name == "POP") return CfKind::Pop;
   if (name == "LOOP_START_DX10") return CfKind::LoopStart;
   if (name == "LOOP_BREAK") return CfKind::LoopBreak;
   if (name == "LOOP_CONTINUE") return CfKind::LoopContinue;
   if (name == "LOOP_END") return CfKind::LoopEnd;
   if (name == "MEM_RAT" || name == "MEM_RAT_CACHELESS") return CfKind::Rat;
   if (name.starts_with("MEM_STREAM")) return CfKind::StreamOut;
   if (name == "MEM_SCRATCH") return CfKind::Scratch;
   if (name.starts_with("MEM_RING")) return CfKind::Ring;
   if (name == "EMIT_VERTEX" || name == "CUT_VERTEX" || name == "EMIT_CUT_VERTEX") return CfKind::Emit;
   if (name == "CALL_FS") return CfKind::CallFs;
   if (name == "RETURN") return CfKind::Return;
   if (op.has(CfFlag::Export)) return CfKind::Export;
   if (name == "CF_END") return CfKind::End;
   return CfKind::Unsimulated;
}

AluCfKind classify_alu_cf(std::string_view name)
{
   if (name == "ALU_PUSH_BEFORE") return AluCfKind::PushBefore;
   if (name == "ALU_POP_AFTER") return AluCfKind::PopAfter;
   if (name == "ALU_POP2_AFTER") return AluCfKind::Pop2After;
   if (name == "ALU_ELSE_AFTER" || name == "ALU_BREAK" || name == "ALU_CONTINUE" || name == "ALU_VALID_PIXEL_MODE")
      return AluCfKind::UnsimulatedAfter;
   return AluCfKind::Plain;
}

bool ends_program(const CfInstruction &cf, IsaClass isa)
{
   if (isa == IsaClass::Cayman)
      return cf.op->has(CfFlag::EndsProgram);
   return cf.format != WordFormat::CfAlu && cf.format != WordFormat::CfAluExtended && cf.get(cf::end_of_program);
}

} // namespace

void prepare_program(const Program &program, IsaClass isa, unsigned width, PreparedProgram &out)
{
   out.program = &program;
   out.width = width;
   out.value_rows.clear();
   out.alu_clauses.clear();
   out.alu_clauses.reserve(program.alu_clauses.size());
   std::map<uint32_t, const PreparedAluClause *> alu_at;
   for (const AluClause &clause : program.alu_clauses) {
      PreparedAluClause &prepared = out.alu_clauses.emplace_back();
      prepared.clause = &clause;
      for (const AluGroup &group : clause.groups) {
         PreparedGroup &g = prepared.groups.emplace_back();
         g.group = &group;
         for (size_t i = 0; i < group.instructions.size(); i++) {
            PreparedAlu &alu = g.instructions.emplace_back(prepare_alu(group, i));
            g.has_mova |= alu.kind == AluKind::Mova;
            for (unsigned s = 0; s < alu.source_count; s++) {
               PreparedOperand &operand = alu.sources[s];
               if (operand.kind != OperandKind::Value)
                  continue;
               operand.value = (operand.value & operand.abs_mask) ^ operand.neg_mask;
               operand.abs_mask = ~0u;
               operand.neg_mask = 0;
               operand.value_row = out.value_rows.size();
               out.value_rows.insert(out.value_rows.end(), width, operand.value);
            }
         }
         out.widest_group = std::max(out.widest_group, group.instructions.size());
      }
      alu_at[clause.address] = &prepared;
   }
   std::map<uint32_t, const FetchClause *> fetch_at;
   for (const FetchClause &clause : program.fetch_clauses)
      fetch_at[clause.address] = &clause;

   out.cf.assign(program.cf.size(), CfStep{});
   for (size_t pc = 0; pc < program.cf.size(); pc++) {
      const CfInstruction &cf = program.cf[pc];
      CfStep &step = out.cf[pc];
      step.kind = classify_cf(cf);
      step.unsimulated_cond = cf.get(cf::cond) != 0 && cf.format == WordFormat::CfPlain && cf.op->name != "NOP";
      step.ends_program = ends_program(cf, isa);
      if (step.kind == CfKind::Alu) {
         step.alu_kind = classify_alu_cf(cf.op->name);
         if (const auto found = alu_at.find(cf.get(cf_alu::addr)); found != alu_at.end())
            step.alu = found->second;
         step.kcache[0] = {cf.get(cf_alu::kcache_mode0), cf.get(cf_alu::kcache_bank0), cf.get(cf_alu::kcache_addr0)};
         step.kcache[1] = {cf.get(cf_alu::kcache_mode1), cf.get(cf_alu::kcache_bank1), cf.get(cf_alu::kcache_addr1)};
         if (pc > 0 && program.cf[pc - 1].op->has(CfFlag::AluExtension)) {
            const CfInstruction &ext = program.cf[pc - 1];
            step.kcache[2] = {ext.get(cf_alu_ext::kcache_mode2), ext.get(cf_alu_ext::kcache_bank2), ext.get(cf_alu_ext::kcache_addr2)};
            step.kcache[3] = {ext.get(cf_alu_ext::kcache_mode3), ext.get(cf_alu_ext::kcache_bank3), ext.get(cf_alu_ext::kcache_addr3)};
         }
      } else if (step.kind == CfKind::Fetch) {
         if (const auto found = fetch_at.find(cf.get(cf::addr)); found != fetch_at.end())
            step.fetch = found->second;
      }
   }
}

} // namespace terakan::sim
