/* Decoding TeraScale programs (see program.h). Every check here guards against input we did
 * not produce: the decoder is also what the simulator runs on whatever it is given. */
#include "program.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace terakan::isa {

namespace {

std::string hex(uint32_t value)
{
   char text[16];
   std::snprintf(text, sizeof(text), "0x%x", value);
   return text;
}

/* Reserved bits are bits no field of the format covers. */
bool check_reserved(std::span<const uint32_t> words, WordFormat format, IsaClass isa,
                    std::string &error)
{
   const auto fields = word_format_fields(format, isa);
   for (unsigned dword = 0; dword < words.size(); dword++) {
      const uint32_t stray = uncovered_bits(fields, dword, words[dword]);
      if (stray) {
         error = std::string(word_format_name(format)) + ": reserved bits " + hex(stray) +
                 " set in dword " + std::to_string(dword);
         return false;
      }
   }
   return true;
}

FetchClauseKind fetch_clause_kind(const CfOpInfo &op)
{
   if (op.name == "GDS")
      return FetchClauseKind::Gds;
   if (op.name == "VTX" || op.name == "VTX_ACK")
      return FetchClauseKind::Vtx;
   return FetchClauseKind::Tex;
}

} // namespace

char slot_name(Slot slot)
{
   static constexpr char names[] = "xyzwt?";
   return names[static_cast<unsigned>(slot)];
}

unsigned AluInstruction::lds_offset() const
{
   return get(alu::lds_idx_offset_0) | get(alu::lds_idx_offset_1) << 1 |
          get(alu::lds_idx_offset_2) << 2 | get(alu::lds_idx_offset_3) << 3 |
          get(alu::lds_idx_offset_4) << 4 | get(alu::lds_idx_offset_5) << 5;
}

AluSource alu_source(const AluInstruction &instruction, unsigned index)
{
   AluSource source;
   const bool lds = instruction.is_lds();
   switch (index) {
   case 0:
      source.sel = instruction.get(alu::src0_sel);
      source.chan = instruction.get(alu::src0_chan);
      source.rel = instruction.get(alu::src0_rel);
      source.neg = !lds && instruction.get(alu::src0_neg);
      source.abs = !instruction.is_op3() && instruction.get(alu::src0_abs);
      break;
   case 1:
      source.sel = instruction.get(alu::src1_sel);
      source.chan = instruction.get(alu::src1_chan);
      source.rel = instruction.get(alu::src1_rel);
      source.neg = !lds && instruction.get(alu::src1_neg);
      source.abs = !instruction.is_op3() && instruction.get(alu::src1_abs);
      break;
   default:
      if (instruction.is_op3()) {
         source.sel = instruction.get(alu::src2_sel);
         source.chan = instruction.get(alu::src2_chan);
         source.rel = instruction.get(alu::src2_rel);
         source.neg = !lds && instruction.get(alu::src2_neg);
      }
      break;
   }
   return source;
}

bool decode_cf(std::span<const uint32_t, 2> words, IsaClass isa, CfInstruction &out,
               std::string &error)
{
   out.words = {words[0], words[1]};
   if (cf::is_alu_format.get(words)) {
      const unsigned opcode = cf_alu::inst.get(words);
      out.op = find_cf_op(isa, CfFormat::Alu, opcode);
      if (!out.op) {
         error = "unknown ALU CF_INST " + hex(opcode);
         return false;
      }
      out.format = out.op->has(CfFlag::AluExtension) ? WordFormat::CfAluExtended
                                                      : WordFormat::CfAlu;
   } else {
      const unsigned opcode = cf::inst.get(words);
      out.op = find_cf_op(isa, CfFormat::Plain, opcode);
      if (!out.op) {
         error = "unknown CF_INST " + hex(opcode);
         return false;
      }
      if (out.op->format == CfFormat::Plain)
         out.format = WordFormat::CfPlain;
      else if (out.op->has(CfFlag::Rat))
         out.format = WordFormat::CfRat;
      else if (out.op->has(CfFlag::Export))
         out.format = WordFormat::CfExportSwizzle;
      else
         out.format = WordFormat::CfExportBuffer;
   }
   return check_reserved(words, out.format, isa, error);
}

bool decode_alu(std::span<const uint32_t, 2> words, IsaClass isa, AluInstruction &out,
                std::string &error)
{
   out.words = {words[0], words[1]};
   out.slot = Slot::Invalid;
   if (alu::encoding.get(words) == 0) {
      const unsigned opcode = alu::op2_inst.get(words);
      out.op = find_alu_op(isa, AluEncoding::Op2, opcode);
      out.format = WordFormat::AluOp2;
      if (!out.op) {
         error = "unknown ALU OP2 instruction " + hex(opcode);
         return false;
      }
   } else {
      const unsigned opcode = alu::op3_inst.get(words);
      if (opcode == alu::lds_idx_op_opcode) {
         const unsigned lds_op = alu::lds_op.get(words);
         out.op = find_alu_op(isa, AluEncoding::Lds, lds_op);
         out.format = WordFormat::AluLds;
         if (!out.op) {
            error = "unknown LDS_OP " + hex(lds_op);
            return false;
         }
      } else {
         out.op = find_alu_op(isa, AluEncoding::Op3, opcode);
         out.format = WordFormat::AluOp3;
         if (!out.op) {
            error = "unknown ALU OP3 instruction " + hex(opcode);
            return false;
         }
      }
   }
   return check_reserved(words, out.format, isa, error);
}

bool decode_fetch(std::span<const uint32_t, 4> words, IsaClass isa, FetchClauseKind clause,
                  FetchInstruction &out, std::string &error)
{
   out.words = {words[0], words[1], words[2], words[3]};
   if (words[3] != 0) {
      error = "fetch instruction padding dword is " + hex(words[3]) + ", not 0";
      return false;
   }
   const unsigned opcode = tex::inst.get(words);
   if (opcode == 2)
      out.op = find_fetch_op(isa, opcode, mem_rd::mem_op.get(words));
   else if (opcode == 0 || opcode == 1 || opcode == 0x0E)
      out.op = find_fetch_op(isa, opcode, 0);
   else
      out.op = find_fetch_op(isa, opcode, tex::inst_mod.get(words));
   /* The gathers' INST_MOD is the component to gather (Mesa r600 sfn set_gather_comp), not
    * another instruction. */
   if (!out.op) {
      const FetchOpInfo *unmodified = find_fetch_op(isa, opcode, 0);
      if (unmodified && std::string_view(unmodified->name).starts_with("GATHER4"))
         out.op = unmodified;
   }
   if (!out.op) {
      error = "unknown fetch instruction " + hex(opcode);
      return false;
   }
   switch (out.op->format) {
   case FetchFormat::Tex: out.format = WordFormat::Tex; break;
   case FetchFormat::Vtx:
      out.format = out.op->name == "SEMFETCH" ? WordFormat::VtxSemantic : WordFormat::Vtx;
      break;
   case FetchFormat::MemRead: out.format = WordFormat::MemRead; break;
   case FetchFormat::Gds: out.format = WordFormat::Gds; break;
   }

   /* What each clause type may hold: GDS clauses only GDS; VTX clauses vertex and memory
    * reads; TEX clauses everything but GDS (Cayman has no VTX clause, and LLVM puts vertex
    * reads in TEX clauses on every chip). */
   const bool is_gds = out.op->format == FetchFormat::Gds;
   const bool fits = clause == FetchClauseKind::Gds ? is_gds
                     : clause == FetchClauseKind::Vtx
                        ? out.op->format == FetchFormat::Vtx || out.op->format == FetchFormat::MemRead
                        : !is_gds;
   if (!fits) {
      error = std::string(out.op->name) + " cannot be in a " +
              (clause == FetchClauseKind::Gds ? "GDS" : clause == FetchClauseKind::Vtx ? "VTX" : "TEX") +
              " clause";
      return false;
   }
   return check_reserved(std::span<const uint32_t>(words.data(), 3), out.format, isa, error);
}

unsigned literals_referenced(std::span<const AluInstruction> group)
{
   unsigned count = 0;
   for (const AluInstruction &instruction : group) {
      /* The hardware fetches a literal whenever a source field selects one, whether or not
       * the opcode reads that operand, so every source field present counts. */
      const unsigned fields = instruction.is_op3() ? 3 : 2;
      for (unsigned i = 0; i < fields; i++) {
         const AluSource source = alu_source(instruction, i);
         if (source.sel == src_sel::literal)
            count = std::max(count, source.chan + 1);
      }
   }
   return count;
}

bool assign_slots(std::span<AluInstruction> group, IsaClass isa)
{
   bool taken[5] = {};
   bool ok = true;
   for (AluInstruction &instruction : group) {
      const SlotRule rule = instruction.op ? instruction.op->slot_rule(isa) : SlotRule::None;
      const unsigned chan = instruction.get(alu::dst_chan);
      Slot slot = Slot::Invalid;
      if (isa == IsaClass::Evergreen && rule == SlotRule::Trans) {
         slot = Slot::T;
      } else if (!taken[chan]) {
         slot = static_cast<Slot>(chan);
      } else if (isa == IsaClass::Evergreen && rule == SlotRule::Any) {
         slot = Slot::T;
      }
      if (slot == Slot::Invalid || taken[static_cast<unsigned>(slot)]) {
         instruction.slot = Slot::Invalid;
         ok = false;
         continue;
      }
      taken[static_cast<unsigned>(slot)] = true;
      instruction.slot = slot;
   }
   return ok;
}

namespace {

struct ClauseRef {
   uint32_t address;
   uint32_t slots;
   bool alu;
   FetchClauseKind kind;
   uint32_t cf_index;
};

bool decode_alu_clause(std::span<const uint32_t> dwords, IsaClass isa, const ClauseRef &ref,
                       AluClause &clause, DecodeError &error)
{
   clause.address = ref.address;
   clause.slot_count = ref.slots;
   const uint32_t end = ref.address + ref.slots;
   uint32_t slot = ref.address;
   AluGroup group;
   group.index = slot;
   const unsigned max_instructions = isa == IsaClass::Cayman ? 4 : 5;
   while (slot < end) {
      AluInstruction instruction;
      std::string message;
      if (!decode_alu(std::span<const uint32_t, 2>(dwords.subspan(slot * 2, 2)), isa,
                      instruction, message)) {
         error = {slot * 2, message};
         return false;
      }
      group.instructions.push_back(instruction);
      slot++;
      if (!instruction.get(alu::last)) {
         if (group.instructions.size() >= max_instructions) {
            error = {slot * 2, "ALU group longer than " + std::to_string(max_instructions) +
                                  " instructions (no LAST bit)"};
            return false;
         }
         continue;
      }
      const unsigned literal_dwords = (literals_referenced(group.instructions) + 1) & ~1u;
      if (slot + literal_dwords / 2 > end) {
         error = {slot * 2, "ALU clause ends inside the literals of a group"};
         return false;
      }
      group.literals.assign(dwords.begin() + slot * 2,
                            dwords.begin() + slot * 2 + literal_dwords);
      slot += literal_dwords / 2;
      assign_slots(group.instructions, isa); /* collisions are for the rule checker */
      clause.groups.push_back(std::move(group));
      group = AluGroup();
      group.index = slot;
   }
   if (!group.instructions.empty()) {
      error = {end * 2, "ALU clause ends inside a group (no LAST bit)"};
      return false;
   }
   return true;
}

bool decode_fetch_clause(std::span<const uint32_t> dwords, IsaClass isa, const ClauseRef &ref,
                         FetchClause &clause, DecodeError &error)
{
   clause.address = ref.address;
   clause.kind = ref.kind;
   for (uint32_t slot = ref.address; slot < ref.address + ref.slots; slot += 2) {
      FetchInstruction instruction;
      std::string message;
      if (!decode_fetch(std::span<const uint32_t, 4>(dwords.subspan(slot * 2, 4)), isa,
                        ref.kind, instruction, message)) {
         error = {slot * 2, message};
         return false;
      }
      clause.instructions.push_back(instruction);
   }
   return true;
}

} // namespace

static bool decode(std::span<const uint32_t> dwords, IsaClass isa, Program &program,
                   DecodeError &error, bool open_ended);

bool decode_program(std::span<const uint32_t> dwords, IsaClass isa, Program &program,
                    DecodeError &error)
{
   return decode(dwords, isa, program, error, false);
}

bool decode_program_at(std::span<const uint32_t> dwords, IsaClass isa, Program &program,
                       DecodeError &error)
{
   return decode(dwords.subspan(0, dwords.size() & ~size_t(1)), isa, program, error, true);
}

static bool decode(std::span<const uint32_t> dwords, IsaClass isa, Program &program,
                   DecodeError &error, bool open_ended)
{
   program = Program();
   program.isa = isa;
   program.size_dwords = static_cast<uint32_t>(dwords.size());
   if (dwords.empty() || dwords.size() % 2) {
      error = {0, "a program is a whole number of 64-bit slots, and not empty"};
      return false;
   }
   const uint32_t total_slots = static_cast<uint32_t>(dwords.size() / 2);

   /* The CF stream runs from slot 0 to the first clause. */
   std::vector<ClauseRef> refs;
   uint32_t first_clause = total_slots;
   bool ended = false;
   for (uint32_t index = 0; index < first_clause; index++) {
      if (open_ended && ended && refs.empty())
         break; /* a program without clauses ends at its end marker */
      CfInstruction cf_instruction;
      cf_instruction.index = index;
      std::string message;
      if (!decode_cf(std::span<const uint32_t, 2>(dwords.subspan(index * 2, 2)), isa,
                     cf_instruction, message)) {
         error = {index * 2, message};
         return false;
      }
      const CfOpInfo &op = *cf_instruction.op;
      /* An end marker stops the threads that execute it; branches can still reach what
       * follows (early exits), so the CF stream runs on to the first clause. */
      if (op.has(CfFlag::AluClause) || op.has(CfFlag::FetchClause)) {
         ClauseRef ref;
         ref.alu = op.has(CfFlag::AluClause);
         ref.address = ref.alu ? cf_instruction.get(cf_alu::addr) : cf_instruction.get(cf::addr);
         ref.slots = ref.alu ? cf_instruction.get(cf_alu::count) + 1
                             : (cf_instruction.get(cf::count) + 1) * 2;
         ref.kind = fetch_clause_kind(op);
         ref.cf_index = index;
         if (ref.address <= index) {
            error = {index * 2, std::string(op.name) + " names a clause at slot " +
                                   std::to_string(ref.address) +
                                   ", inside the CF stream"};
            return false;
         }
         if (!ref.alu && ref.address % 2) {
            error = {index * 2, "fetch clause at slot " + std::to_string(ref.address) +
                                   " is not 128-bit aligned"};
            return false;
         }
         if (ref.address + uint64_t(ref.slots) > total_slots) {
            error = {index * 2, std::string(op.name) + " clause at slot " +
                                   std::to_string(ref.address) + " (" +
                                   std::to_string(ref.slots) + " slots) runs past the end of "
                                   "the program (" + std::to_string(total_slots) + " slots)"};
            return false;
         }
         first_clause = std::min(first_clause, ref.address);
         refs.push_back(ref);
      }
      const bool ends = (isa == IsaClass::Cayman
                            ? op.has(CfFlag::EndsProgram)
                            : (cf_instruction.format != WordFormat::CfAlu &&
                               cf_instruction.format != WordFormat::CfAluExtended &&
                               cf_instruction.get(cf::end_of_program))) ||
                        /* a subroutine (a fetch shader) ends with its RETURN */
                        op.has(CfFlag::Return);
      if (ends && !ended) {
         ended = true;
         program.end_index = index;
      }
      program.cf.push_back(cf_instruction);
   }
   if (!ended) {
      error = {0, isa == IsaClass::Cayman ? "program has no CF_END before its first clause"
                                          : "program has no END_OF_PROGRAM before its first clause"};
      return false;
   }

   /* Clauses: each decoded once, none overlapping another. */
   std::sort(refs.begin(), refs.end(), [](const ClauseRef &a, const ClauseRef &b) {
      return a.address < b.address;
   });
   std::vector<bool> covered(total_slots, false);
   for (uint32_t i = 0; i < program.cf.size(); i++)
      covered[i] = true;
   for (size_t i = 0; i < refs.size(); i++) {
      const ClauseRef &ref = refs[i];
      if (i > 0 && refs[i - 1].address == ref.address && refs[i - 1].slots == ref.slots &&
          refs[i - 1].alu == ref.alu && refs[i - 1].kind == ref.kind)
         continue; /* the same clause named twice */
      for (uint32_t slot = ref.address; slot < ref.address + ref.slots; slot++) {
         if (covered[slot]) {
            error = {slot * 2, "clause named by CF " + std::to_string(ref.cf_index) +
                                  " overlaps another clause or the CF stream"};
            return false;
         }
         covered[slot] = true;
      }
      if (ref.alu) {
         AluClause clause;
         if (!decode_alu_clause(dwords, isa, ref, clause, error))
            return false;
         program.alu_clauses.push_back(std::move(clause));
      } else {
         FetchClause clause;
         if (!decode_fetch_clause(dwords, isa, ref, clause, error))
            return false;
         program.fetch_clauses.push_back(std::move(clause));
      }
   }

   if (open_ended) {
      uint32_t extent = uint32_t(program.cf.size());
      for (const ClauseRef &ref : refs)
         extent = std::max(extent, ref.address + ref.slots);
      program.size_dwords = extent * 2;
      return true;
   }
   /* Whatever nothing names must be zero padding. */
   for (uint32_t slot = 0; slot < total_slots; slot++) {
      if (!covered[slot] && (dwords[slot * 2] || dwords[slot * 2 + 1])) {
         error = {slot * 2, "non-zero data at slot " + std::to_string(slot) +
                               " that no CF instruction refers to"};
         return false;
      }
   }
   return true;
}

std::vector<uint32_t> encode_program(const Program &program)
{
   std::vector<uint32_t> dwords(program.size_dwords, 0);
   auto put = [&](uint32_t dword, std::span<const uint32_t> words) {
      for (size_t i = 0; i < words.size() && dword + i < dwords.size(); i++)
         dwords[dword + i] = words[i];
   };
   for (const CfInstruction &instruction : program.cf)
      put(instruction.index * 2, instruction.words);
   for (const AluClause &clause : program.alu_clauses) {
      for (const AluGroup &group : clause.groups) {
         uint32_t dword = group.index * 2;
         for (const AluInstruction &instruction : group.instructions) {
            put(dword, instruction.words);
            dword += 2;
         }
         put(dword, group.literals);
      }
   }
   for (const FetchClause &clause : program.fetch_clauses) {
      uint32_t dword = clause.address * 2;
      for (const FetchInstruction &instruction : clause.instructions) {
         put(dword, instruction.words);
         dword += 4;
      }
   }
   return dwords;
}

} // namespace terakan::isa
