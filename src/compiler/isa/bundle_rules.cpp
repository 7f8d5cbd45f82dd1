#include "bundle_rules.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace terakan::isa {

namespace {

constexpr const char *r700_doc = "AMD R700-Family ISA (2009) section 4.7";
constexpr const char *mesa_asm = "Mesa 22.3.6 r600_asm.c";
constexpr const char *consensus =
   "Mesa 22.3.6 r600_asm.c, sb/sb_sched.cpp and sfn; LLVM R600InstrInfo.cpp/R600Packetizer.cpp";

constexpr RuleInfo rules[] = {
   {Rule::SlotAssignment, "SLOT_ASSIGNMENT",
    "In order, an instruction takes the vector slot of its destination channel; on Evergreen it "
    "goes to t if it is trans-only, or may use t and its vector slot is taken. Two "
    "instructions needing the same slot, or any t-slot use on Cayman, is illegal.",
    "Mesa sb shader::assign_slot(), r600_asm.c assign_alu_units(); LLVM R600Packetizer"},
   {Rule::SlotLegality, "SLOT_LEGALITY",
    "Trans-only opcodes go in t, vector-only opcodes in x..w, and only opcodes the class has.",
    "Mesa r600_isa.c slot columns; LLVM itineraries (TransALU/VecALU/AnyALU)"},
   {Rule::FourSlotGroup, "FOUR_SLOT_GROUP",
    "DOT4, DOT4_IEEE, CUBE, MAX4, INTERP_XY, INTERP_ZW (and on Cayman MUL_64, FMA_64) occupy "
    "all of x, y, z, w with the same opcode.",
    "Mesa r600_isa.h AF_4V; LLVM R600ExpandSpecialInstrs; sb packed nodes"},
   {Rule::PairSlots, "PAIR_SLOTS", "INTERP_X occupies x and y; INTERP_Z occupies z and w.",
    "Mesa r600_isa.h AF_2V; sfn load_interpolated_one_comp"},
   {Rule::CaymanReplicated, "CAYMAN_REPLICATED",
    "On Cayman a transcendental is issued as identical copies in x, y and z (w optional); "
    "MULLO/MULHI_(U)INT need x, y, z and w.",
    "Mesa r600_shader.c cayman_emit_float_instr, cayman_mul_int_instr; LLVM "
    "R600ExpandSpecialInstrs (always four copies)"},
   {Rule::GprReadPorts, "GPR_READ_PORTS",
    "Operands are read over cycles 0-2 as each instruction's bank swizzle says; per cycle at "
    "most one GPR per channel (x, y, z, w) can be read. In a vector slot src1 equal to src0 "
    "shares its read.",
    "AMD R700 ISA 4.7.7 (one GPR.X/Y/Z/W per cycle); swizzle tables agreed by Mesa r600_asm.c, "
    "sb and LLVM R600InstrInfo.cpp (not by Mesa 22.3.6 sfn, which swaps VEC_120 and VEC_102)"},
   {Rule::TransBankSwizzle, "TRANS_BANK_SWIZZLE",
    "The t slot has four bank swizzles (SCL_210, SCL_122, SCL_212, SCL_221); values 4-7 are "
    "invalid there.",
    "Mesa r600_sq.h SQ_ALU_SCL_*; LLVM R600InstrInfo.h BankSwizzle"},
   {Rule::TransConstantCount, "TRANS_CONSTANT_COUNT",
    "A t-slot instruction references at most two constants of any kind (kcache, literal, inline).",
    "AMD R700 ISA 4.7.5-4.7.6; Mesa check_scalar; LLVM isConstCompatible"},
   {Rule::TransConstantCycle, "TRANS_CONSTANT_CYCLE",
    "With n constant operands, a t-slot instruction's GPR, PV and PS operands must be read in a "
    "cycle >= n (its constants take the early cycles).",
    consensus},
   {Rule::ConstantReadPorts, "CONSTANT_READ_PORTS",
    "Across a group, kcache operands address at most two distinct (constant, xy/zw half) pairs.",
    consensus},
   {Rule::KcacheLocked, "KCACHE_LOCKED",
    "A kcache operand must fall in a line its clause locked: set s covers selects base_s + k, "
    "k < 16 (LOCK_1) or 32 (LOCK_2); sets 2 and 3 need ALU_EXTENDED.",
    "Mesa r600_asm.c r600_bytecode_assign_kcache_banks; sfn Block::try_reserve_kcache"},
   {Rule::LiteralMissing, "LITERAL_MISSING",
    "Each literal operand (select 253, channel c) needs literal dword c after the group; at most "
    "four.",
    "AMD R700 ISA 4.7.6; Mesa r600_bytecode_alu_nliterals; LLVM R600ControlFlowFinalizer"},
   {Rule::SourceSelect, "SOURCE_SELECT",
    "Operand selects must be GPRs, locked kcache, a documented special value, PV/PS, a literal, "
    "or (INTERP_* only) an interpolation parameter; 192-218, 225-226, 239 and 320-447 are "
    "reserved.",
    "Mesa eg_sq.h/r600_sq.h and sb_bc.h select lists; LLVM R600RegisterInfo.td"},
   {Rule::PreviousResult, "PREVIOUS_RESULT",
    "PV.c reads the result of slot c of the previous group of the same clause, PS its t slot; "
    "there must be such an instruction.",
    "Mesa r600_asm.c replace_gpr_with_pv_ps; LLVM R600Packetizer getPreviousVector"},
   {Rule::CaymanNoPs, "CAYMAN_NO_PS", "Cayman has no t slot, so no PS operand.",
    "Mesa r600_asm.c (PS only below CAYMAN); LLVM isTransOnly() false on Cayman"},
   {Rule::DestinationUnique, "DESTINATION_UNIQUE",
    "No two instructions of a group write the same GPR channel.", mesa_asm},
   {Rule::MovaOnce, "MOVA_ONCE", "At most one MOVA* per group.", "Mesa sb sb_sched.cpp"},
   {Rule::MovaWithRelative, "MOVA_WITH_RELATIVE",
    "A MOVA* and an instruction using AR-relative addressing may not share a group.",
    "Mesa r600_asm.c merge_inst_groups; LLVM R600Packetizer; sb"},
   {Rule::RelativeBeforeMova, "RELATIVE_BEFORE_MOVA",
    "AR does not survive an ALU clause boundary: relative addressing through AR needs a MOVA "
    "earlier in the same clause.",
    "Mesa r600_asm.c r600_load_ar (AR reloaded per clause)"},
   {Rule::LdsPerGroup, "LDS_PER_GROUP",
    "At most one LDS instruction per group, and not together with an LDS queue read.",
    "Mesa r600_asm.c is_alu_once_inst; sfn AluGroup; sb consumes_lds_oqa; LLVM solo LDS"},
   {Rule::LdsQueueRead, "LDS_QUEUE_READ",
    "LDS output queue reads (OQ_A, OQ_B and their _POP forms) are not allowed in t and are read "
    "in cycle 0, so their bank swizzle must put that operand in cycle 0.",
    "LLVM R600InstrInfo.cpp isLegalUpTo and the packetizer"},
   {Rule::LdsQueueBalance, "LDS_QUEUE_BALANCE",
    "Every value an LDS *_RET instruction pushes to OQ_A is popped later in the same ALU clause; "
    "a pop never comes before its push.",
    "Mesa sfn scheduler and assembler (nlds_read); LLVM lowering of LDS *_RET"},
   {Rule::PredicateOnce, "PREDICATE_ONCE",
    "At most one PRED_SET* per group, and KILL* and PRED_SET* not together.",
    "Mesa sb sb_sched.cpp; r600_asm.c is_alu_once_inst"},
   {Rule::InterpSwizzle, "INTERP_SWIZZLE", "INTERP_* instructions use bank swizzle VEC_210.",
    "LLVM R600Instructions.td (INTERP_XY/ZW bank_swizzle = 5); Mesa sb forced_bank_swizzle"},
   {Rule::ClauseSize, "CLAUSE_SIZE",
    "An ALU clause holds at most 128 slots (instructions and literal slots).",
    "CF_ALU_WORD1.COUNT is 7 bits (count - 1); Mesa sb MAX_ALU_SLOTS; LLVM "
    "R600ControlFlowFinalizer"},
};

/* The read-cycle tables are in bundle_rules.h (bank_swizzle_vector_cycles/_trans_cycles). */
constexpr auto &vector_cycles = bank_swizzle_vector_cycles;
constexpr auto &trans_cycles = bank_swizzle_trans_cycles;

bool is_gpr(unsigned sel) { return sel < src_sel::gpr_count; }
bool is_kcache(unsigned sel)
{
   return (sel >= src_sel::kcache0 && sel < src_sel::kcache1 + 32) ||
          (sel >= src_sel::kcache2 && sel < src_sel::kcache3 + 32);
}
bool is_inline_constant(unsigned sel) { return sel >= 244 && sel <= 252; }
bool is_constant(unsigned sel)
{
   return is_kcache(sel) || is_inline_constant(sel) || sel == src_sel::literal;
}
bool is_lds_queue(unsigned sel) { return sel >= src_sel::lds_oq_a && sel <= src_sel::lds_oq_b_pop; }
bool is_reserved_select(unsigned sel)
{
   return (sel >= 192 && sel <= 218) || sel == 225 || sel == 226 || sel == 239 ||
          (sel >= 320 && sel < src_sel::param_base) || sel >= src_sel::param_base + 32;
}

/* Sources an instruction actually reads. */
unsigned read_sources(const AluInstruction &instruction)
{
   return std::min<unsigned>(instruction.source_count(), instruction.is_op3() ? 3 : 2);
}

bool writes_gpr(const AluInstruction &instruction)
{
   if (instruction.is_lds())
      return false;
   if (instruction.op->encoding == AluEncoding::Op2 && !instruction.get(alu::write_mask))
      return false;
   return true;
}

bool uses_relative(const AluInstruction &instruction)
{
   if (!instruction.is_lds() && instruction.get(alu::dst_rel) && writes_gpr(instruction))
      return true;
   for (unsigned i = 0; i < read_sources(instruction); i++) {
      if (alu_source(instruction, i).rel)
         return true;
   }
   return false;
}

std::string slot_text(const AluInstruction &instruction)
{
   return std::string(1, slot_name(instruction.slot)) + ": " + std::string(instruction.op->name);
}

void add(std::vector<Violation> &out, Rule rule, int index, std::string message)
{
   out.push_back({rule, index, std::move(message)});
}

void check_multi_slot_ops(std::span<const AluInstruction> group, IsaClass isa,
                          std::vector<Violation> &out)
{
   for (size_t i = 0; i < group.size(); i++) {
      const AluOpInfo *op = group[i].op;
      const SlotRule rule = op->slot_rule(isa);
      auto slots_with_op = [&](unsigned &mask) {
         mask = 0;
         for (const AluInstruction &other : group) {
            if (other.op == op && other.slot != Slot::Invalid)
               mask |= 1u << static_cast<unsigned>(other.slot);
         }
      };
      unsigned mask = 0;
      slots_with_op(mask);
      const std::string name(op->name);
      switch (rule) {
      case SlotRule::Four:
         if (mask != 0xF)
            add(out, Rule::FourSlotGroup, int(i), name + " must fill slots x, y, z and w");
         break;
      case SlotRule::Pair: {
         const unsigned pair = group[i].slot == Slot::X || group[i].slot == Slot::Y ? 0x3 : 0xC;
         if ((mask & pair) != pair)
            add(out, Rule::PairSlots, int(i), name + " must fill a slot pair (x,y or z,w)");
         break;
      }
      case SlotRule::Replicated3:
      case SlotRule::Replicated4: {
         const unsigned need = rule == SlotRule::Replicated3 ? 0x7 : 0xF;
         if ((mask & need) != need)
            add(out, Rule::CaymanReplicated, int(i),
                name + (rule == SlotRule::Replicated3 ? " must be issued in x, y and z"
                                                      : " must be issued in x, y, z and w"));
         for (const AluInstruction &other : group) {
            if (other.op != op)
               continue;
            for (unsigned s = 0; s < read_sources(other); s++) {
               const AluSource a = alu_source(group[i], s), b = alu_source(other, s);
               if (a.sel != b.sel || a.chan != b.chan || a.rel != b.rel || a.neg != b.neg ||
                   a.abs != b.abs) {
                  add(out, Rule::CaymanReplicated, int(i),
                      name + " copies must read identical sources");
                  s = 3;
               }
            }
         }
         break;
      }
      default:
         break;
      }
   }
}

void check_read_ports(std::span<const AluInstruction> group, IsaClass isa,
                      std::vector<Violation> &out)
{
   /* port[cycle][channel] = GPR select (+1000 if relative), or -1 when free. */
   int port[3][4];
   for (auto &cycle : port)
      std::fill(std::begin(cycle), std::end(cycle), -1);
   auto reserve = [&](unsigned cycle, const AluSource &source, size_t index) {
      const int key = int(source.sel) + (source.rel ? 1000 : 0);
      int &slot = port[cycle][source.chan];
      if (slot == -1) {
         slot = key;
      } else if (slot != key) {
         char message[160];
         std::snprintf(message, sizeof(message),
                       "%s reads R%u.%c in cycle %u, but another GPR's %c channel is read in "
                       "that cycle",
                       slot_text(group[index]).c_str(), source.sel, "xyzw"[source.chan], cycle,
                       "xyzw"[source.chan]);
         add(out, Rule::GprReadPorts, int(index), message);
      }
   };

   for (size_t i = 0; i < group.size(); i++) {
      const AluInstruction &instruction = group[i];
      const unsigned swizzle = instruction.get(alu::bank_swizzle);
      const bool trans = instruction.slot == Slot::T;
      if (trans && swizzle > 3) {
         add(out, Rule::TransBankSwizzle, int(i),
             slot_text(instruction) + ": bank swizzle " + std::to_string(swizzle) +
                " is not valid in the t slot");
         continue;
      }
      if (!trans && swizzle > 5) {
         add(out, Rule::GprReadPorts, int(i),
             slot_text(instruction) + ": bank swizzle " + std::to_string(swizzle) +
                " is not defined");
         continue;
      }
      const unsigned sources = read_sources(instruction);
      unsigned constants = 0;
      for (unsigned s = 0; s < sources; s++)
         constants += is_constant(alu_source(instruction, s).sel) ? 1 : 0;
      if (trans && constants > 2)
         add(out, Rule::TransConstantCount, int(i),
             slot_text(instruction) + " reads " + std::to_string(constants) +
                " constants; the t slot allows two");

      for (unsigned s = 0; s < sources; s++) {
         const AluSource source = alu_source(instruction, s);
         const unsigned cycle = trans ? trans_cycles[swizzle][s] : vector_cycles[swizzle][s];
         if (is_lds_queue(source.sel)) {
            if (trans)
               add(out, Rule::LdsQueueRead, int(i),
                   slot_text(instruction) + " reads the LDS queue in the t slot");
            else if (cycle != 0)
               add(out, Rule::LdsQueueRead, int(i),
                   slot_text(instruction) + " reads the LDS queue in cycle " +
                      std::to_string(cycle) + ", not 0");
            continue;
         }
         const bool gpr_like = is_gpr(source.sel) || source.sel == src_sel::pv ||
                               source.sel == src_sel::ps;
         if (trans && gpr_like && cycle < std::min(constants, 2u))
            add(out, Rule::TransConstantCycle, int(i),
                slot_text(instruction) + " reads operand " + std::to_string(s) + " in cycle " +
                   std::to_string(cycle) + " but has " + std::to_string(constants) +
                   " constant operands");
         if (!is_gpr(source.sel))
            continue;
         if (!trans && s == 1) {
            const AluSource first = alu_source(instruction, 0);
            if (first.sel == source.sel && first.chan == source.chan && first.rel == source.rel)
               continue; /* shares src0's read */
         }
         reserve(cycle, source, i);
      }
   }
   (void)isa;
}

void check_constants(std::span<const AluInstruction> group, std::span<const uint32_t> literals,
                     IsaClass isa, const GroupContext &context, std::vector<Violation> &out)
{
   std::vector<unsigned> pairs;
   static constexpr unsigned bases[] = {src_sel::kcache0, src_sel::kcache1, src_sel::kcache2,
                                        src_sel::kcache3};
   for (size_t i = 0; i < group.size(); i++) {
      const AluInstruction &instruction = group[i];
      for (unsigned s = 0; s < read_sources(instruction); s++) {
         const AluSource source = alu_source(instruction, s);
         if (source.sel == src_sel::literal) {
            if (source.chan >= literals.size())
               add(out, Rule::LiteralMissing, int(i),
                   slot_text(instruction) + " reads literal." + "xyzw"[source.chan] +
                      " but the group has " + std::to_string(literals.size()) + " literals");
            continue;
         }
         if (is_reserved_select(source.sel)) {
            add(out, Rule::SourceSelect, int(i),
                slot_text(instruction) + " reads reserved operand select " +
                   std::to_string(source.sel));
            continue;
         }
         if (source.sel >= src_sel::param_base && !instruction.op->has(AluFlag::Interp)) {
            add(out, Rule::SourceSelect, int(i),
                slot_text(instruction) + " reads an interpolation parameter but is not INTERP_*");
            continue;
         }
         if (source.sel == src_sel::ps && isa == IsaClass::Cayman) {
            add(out, Rule::CaymanNoPs, int(i), slot_text(instruction) + " reads PS on Cayman");
            continue;
         }
         if (!is_kcache(source.sel))
            continue;
         const unsigned key = source.sel * 2 + (source.chan >> 1);
         if (std::find(pairs.begin(), pairs.end(), key) == pairs.end())
            pairs.push_back(key);
         const unsigned set = source.sel < src_sel::kcache1   ? 0
                              : source.sel < src_sel::kcache2 ? 1
                              : source.sel < src_sel::kcache3 ? 2
                                                              : 3;
         const unsigned offset = source.sel - bases[set];
         const KcacheLock &lock = context.kcache[set];
         const unsigned locked = lock.mode == 2 ? 32 : lock.mode ? 16 : 0;
         if (!source.rel && offset >= locked)
            add(out, Rule::KcacheLocked, int(i),
                slot_text(instruction) + " reads KC" + std::to_string(set) + "[" +
                   std::to_string(offset) + "] but the clause locks " +
                   std::to_string(locked) + " constants in that set");
      }
   }
   if (pairs.size() > 2)
      add(out, Rule::ConstantReadPorts, -1,
          "the group reads " + std::to_string(pairs.size()) +
             " distinct kcache (constant, half) pairs; two fit");
}

} // namespace

std::span<const RuleInfo> all_rules() { return rules; }

const RuleInfo &rule_info(Rule rule)
{
   for (const RuleInfo &info : rules) {
      if (info.rule == rule)
         return info;
   }
   return rules[0];
}

std::vector<Violation> check_group(std::span<const AluInstruction> group,
                                   std::span<const uint32_t> literals, IsaClass isa,
                                   const GroupContext &context)
{
   std::vector<Violation> out;
   const size_t max_instructions = isa == IsaClass::Cayman ? 4 : 5;
   if (group.empty() || group.size() > max_instructions)
      add(out, Rule::SlotAssignment, -1,
          "a group holds " + std::to_string(group.size()) + " instructions; 1 to " +
             std::to_string(max_instructions) + " fit");

   bool slots_ok = true;
   for (size_t i = 0; i < group.size(); i++) {
      const AluInstruction &instruction = group[i];
      if (!instruction.op || !instruction.op->exists(isa)) {
         add(out, Rule::SlotLegality, int(i), "instruction does not exist on this class");
         return out;
      }
      const SlotRule rule = instruction.op->slot_rule(isa);
      if (instruction.slot == Slot::Invalid) {
         add(out, Rule::SlotAssignment, int(i),
             std::string(instruction.op->name) + " finds no free slot (destination channel " +
                "xyzw"[instruction.get(alu::dst_chan)] + " taken)");
         slots_ok = false;
      } else if (instruction.slot == Slot::T && isa == IsaClass::Cayman) {
         add(out, Rule::SlotAssignment, int(i), "Cayman has no t slot");
         slots_ok = false;
      } else if (instruction.slot == Slot::T ? (rule != SlotRule::Trans && rule != SlotRule::Any)
                                             : rule == SlotRule::Trans) {
         add(out, Rule::SlotLegality, int(i),
             slot_text(instruction) + " may not run in this slot");
      }
   }
   if (slots_ok)
      check_multi_slot_ops(group, isa, out);
   check_read_ports(group, isa, out);
   check_constants(group, literals, isa, context, out);

   /* Results of the previous group. */
   for (size_t i = 0; i < group.size(); i++) {
      for (unsigned s = 0; s < read_sources(group[i]); s++) {
         const AluSource source = alu_source(group[i], s);
         if (source.sel != src_sel::pv && !(source.sel == src_sel::ps && isa == IsaClass::Evergreen))
            continue;
         const unsigned producer = source.sel == src_sel::ps ? 4 : source.chan;
         if (!context.has_previous_group || !context.previous_slots[producer])
            add(out, Rule::PreviousResult, int(i),
                slot_text(group[i]) + " reads " +
                   (source.sel == src_sel::ps ? std::string("PS")
                                              : std::string("PV.") + "xyzw"[source.chan]) +
                   (context.has_previous_group ? " but the previous group has no such result"
                                               : " in the first group of a clause"));
      }
   }

   /* Destinations, AR, LDS, predicates, interpolation. */
   unsigned movas = 0, lds = 0, queue_reads = 0, predicates = 0, kills = 0;
   bool relative = false;
   std::map<unsigned, size_t> written;
   for (size_t i = 0; i < group.size(); i++) {
      const AluInstruction &instruction = group[i];
      const AluOpInfo &op = *instruction.op;
      if (writes_gpr(instruction) && !instruction.get(alu::dst_rel) && !op.has(AluFlag::Mova)) {
         const unsigned key = instruction.get(alu::dst_gpr) * 4 + instruction.get(alu::dst_chan);
         if (written.count(key))
            add(out, Rule::DestinationUnique, int(i),
                slot_text(instruction) + " writes R" + std::to_string(key / 4) + "." +
                   "xyzw"[key % 4] + ", as does the instruction in slot " +
                   slot_name(group[written[key]].slot));
         written[key] = i;
      }
      movas += op.has(AluFlag::Mova);
      relative |= uses_relative(instruction);
      lds += instruction.is_lds();
      for (unsigned s = 0; s < read_sources(instruction); s++)
         queue_reads += is_lds_queue(alu_source(instruction, s).sel);
      predicates += op.has(AluFlag::PredSet);
      kills += op.has(AluFlag::Kill);
      if (op.has(AluFlag::Interp) && op.name != "INTERP_LOAD_P0" &&
          op.name != "INTERP_LOAD_P10" && op.name != "INTERP_LOAD_P20" &&
          instruction.get(alu::bank_swizzle) != 5)
         add(out, Rule::InterpSwizzle, int(i), slot_text(instruction) + " must use VEC_210");
   }
   if (movas > 1)
      add(out, Rule::MovaOnce, -1, std::to_string(movas) + " MOVA instructions in one group");
   if (movas && relative)
      add(out, Rule::MovaWithRelative, -1,
          "a MOVA and an AR-relative access share a group (AR is written at the end of it)");
   if (relative && !movas && !context.mova_in_clause)
      add(out, Rule::RelativeBeforeMova, -1,
          "AR-relative access with no MOVA earlier in the clause");
   if (lds > 1 || (lds && queue_reads))
      add(out, Rule::LdsPerGroup, -1,
          "LDS instructions and LDS queue reads must each be alone in their group");
   if (predicates > 1 || (predicates && kills))
      add(out, Rule::PredicateOnce, -1, "more than one predicate-setting or killing instruction");
   return out;
}

std::vector<Violation> check_clause(const AluClause &clause, const CfInstruction &cf_alu,
                                    const CfInstruction *alu_extended, IsaClass isa)
{
   std::vector<Violation> out;
   GroupContext context;
   context.kcache[0] = {cf_alu.get(cf_alu::kcache_mode0), cf_alu.get(cf_alu::kcache_bank0),
                        cf_alu.get(cf_alu::kcache_addr0)};
   context.kcache[1] = {cf_alu.get(cf_alu::kcache_mode1), cf_alu.get(cf_alu::kcache_bank1),
                        cf_alu.get(cf_alu::kcache_addr1)};
   if (alu_extended) {
      context.kcache[2] = {alu_extended->get(cf_alu_ext::kcache_mode2),
                           alu_extended->get(cf_alu_ext::kcache_bank2),
                           alu_extended->get(cf_alu_ext::kcache_addr2)};
      context.kcache[3] = {alu_extended->get(cf_alu_ext::kcache_mode3),
                           alu_extended->get(cf_alu_ext::kcache_bank3),
                           alu_extended->get(cf_alu_ext::kcache_addr3)};
   }
   if (clause.slot_count > 128)
      add(out, Rule::ClauseSize, -1,
          "ALU clause of " + std::to_string(clause.slot_count) + " slots; 128 fit");

   for (const AluGroup &group : clause.groups) {
      for (Violation &violation :
           check_group(group.instructions, group.literals, isa, context)) {
         violation.message = "group @" + std::to_string(group.index) + ": " + violation.message;
         out.push_back(std::move(violation));
      }
      /* LDS queue: reads pop in program order; *_RET instructions push at the end of their
       * group, so a pop in the same group as the push is already too early. */
      int pops = 0, pushes = 0;
      for (const AluInstruction &instruction : group.instructions) {
         for (unsigned s = 0; s < read_sources(instruction); s++) {
            const unsigned sel = alu_source(instruction, s).sel;
            pops += sel == src_sel::lds_oq_a_pop;
         }
         if (instruction.is_lds() && instruction.op->name.ends_with("_RET"))
            pushes += instruction.op->name == "LDS_READ2_RET" ? 2 : 1;
      }
      if (pops > context.lds_queue_depth)
         add(out, Rule::LdsQueueBalance, -1,
             "group @" + std::to_string(group.index) + " pops the LDS queue with nothing in it");
      context.lds_queue_depth = std::max(0, context.lds_queue_depth - pops) + pushes;

      context.has_previous_group = true;
      context.previous_slots = {};
      for (const AluInstruction &instruction : group.instructions) {
         if (instruction.slot != Slot::Invalid)
            context.previous_slots[static_cast<unsigned>(instruction.slot)] = true;
         context.mova_in_clause |= instruction.op->has(AluFlag::Mova);
      }
   }
   if (context.lds_queue_depth > 0)
      add(out, Rule::LdsQueueBalance, -1,
          std::to_string(context.lds_queue_depth) +
             " LDS results left in the queue at the end of the clause");
   return out;
}

std::vector<std::string> check_program(const Program &program)
{
   std::vector<std::string> messages;
   for (size_t i = 0; i < program.cf.size(); i++) {
      const CfInstruction &cf_instruction = program.cf[i];
      if (!cf_instruction.op->has(CfFlag::AluClause))
         continue;
      const uint32_t address = cf_instruction.get(cf_alu::addr);
      const CfInstruction *extended =
         i > 0 && program.cf[i - 1].op->has(CfFlag::AluExtension) ? &program.cf[i - 1] : nullptr;
      for (const AluClause &clause : program.alu_clauses) {
         if (clause.address != address)
            continue;
         for (const Violation &violation :
              check_clause(clause, cf_instruction, extended, program.isa))
            messages.push_back(std::string(rule_info(violation.rule).id) + ": CF " +
                               std::to_string(i) + " " + violation.message);
      }
   }
   return messages;
}

} // namespace terakan::isa
