/* From the scheduled, allocated program to microcode: ALU groups get their bank swizzles (a
 * search checked by the instruction-set library's read-port rules, splitting a group when no
 * swizzle fits), the CF program and its clauses are laid out, everything is encoded through the
 * library's field tables, and the result is decoded again and checked against every bundle rule
 * before it is returned. */
#include "emit.h"

#include "hw/texture.h"

#include <algorithm>
#include <functional>

#include "compiler/isa/bundle_rules.h"
#include "compiler/isa/program.h"
#include "compiler/isa/stack.h"
#include "compiler/isa/words.h"

namespace terakan::compiler {
namespace {

using namespace isa;

/* Kcache sets 0 and 1 of the clause (Clause::kcache): their selects start at KC0 and KC1, each
 * locking two lines (32 constants) of one constant buffer. */
constexpr unsigned kcache_select_base[2] = {src_sel::kcache0, src_sel::kcache1};

void set_source(AluInstruction &instruction, unsigned index, const Operand &operand,
                const Allocation &allocation, const std::vector<uint32_t> &literals,
                const std::vector<KcacheSet> &kcache)
{
   unsigned sel = 0, chan = 0;
   switch (operand.kind) {
   case OperandKind::Value:
      sel = allocation.location[operand.value].gpr;
      chan = allocation.location[operand.value].chan;
      break;
   case OperandKind::Literal:
      sel = src_sel::literal;
      for (unsigned i = 0; i < literals.size(); i++)
         if (literals[i] == operand.value)
            chan = i;
      break;
   case OperandKind::Kcache: {
      /* A constant no set locks keeps a select of set 0 past its lines: the bundle-rule check
       * (KCACHE_LOCKED) then refuses the program. */
      const unsigned constant = operand.value / 4, line = operand.value / kcache_line_dwords;
      sel = kcache_select_base[0] + 31;
      for (size_t k = 0; k < kcache.size() && k < 2; k++)
         if (kcache[k].bank == operand.bank && line >= kcache[k].line && line <= kcache[k].line + 1)
            sel = kcache_select_base[k] + constant - 16 * kcache[k].line;
      chan = operand.value % 4;
      break;
   }
   case OperandKind::Inline:
      sel = operand.value;
      break;
   case OperandKind::LdsQueue:
      sel = src_sel::lds_oq_a_pop;
      break;
   case OperandKind::Param:
      sel = src_sel::param_base + operand.value;
      chan = operand.bank;
      break;
   case OperandKind::None:
   case OperandKind::Descriptor: /* select.cpp lets none reach an ALU operation */
      return;
   }
   static constexpr Field sels[] = {alu::src0_sel, alu::src1_sel, alu::src2_sel};
   static constexpr Field chans[] = {alu::src0_chan, alu::src1_chan, alu::src2_chan};
   static constexpr Field negs[] = {alu::src0_neg, alu::src1_neg, alu::src2_neg};
   instruction.set(sels[index], sel);
   instruction.set(chans[index], chan);
   instruction.set(negs[index], operand.neg);
   if (operand.abs && index < 2)
      instruction.set(index == 0 ? alu::src0_abs : alu::src1_abs, 1);
}

std::vector<AluInstruction> build_group(const ScheduledGroup &group, const Allocation &allocation,
                                        hw::IsaClass isa, const std::vector<KcacheSet> &kcache)
{
   /* In slot order, so the hardware's in-order slot assignment gives what the packer chose. */
   std::vector<std::pair<int, AluInstruction>> ordered;
   for (const ScheduledAlu &op : group.ops) {
      if (op.op.op->encoding == AluEncoding::Lds) {
         /* LDS_IDX_OP with the operation in LDS_OP; offset 0 (addresses are computed). */
         AluInstruction instruction;
         instruction.op = op.op.op;
         instruction.format = WordFormat::AluLds;
         for (unsigned s = 0; s < op.op.op->sources; s++)
            set_source(instruction, s, op.op.src[s], allocation, group.literals, kcache);
         instruction.set(alu::op3_inst, alu::lds_idx_op_opcode);
         instruction.set(alu::lds_op, op.op.op->opcode_for(isa));
         ordered.push_back({op.slot, instruction});
         continue;
      }
      const bool writes_gpr = op.op.dst != no_value;
      const Location dst = writes_gpr ? allocation.location[op.op.dst] : Location{};
      for (unsigned copy = 0; copy < op.copies; copy++) {
         AluInstruction instruction;
         instruction.op = op.op.op;
         instruction.format = op.op.op->encoding == AluEncoding::Op3 ? WordFormat::AluOp3 : WordFormat::AluOp2;
         for (unsigned s = 0; s < op.op.op->sources; s++)
            set_source(instruction, s, op.op.src[s], allocation, group.literals, kcache);
         const unsigned slot = op.copies > 1 ? copy : unsigned(op.slot);
         const bool writes = writes_gpr && (op.copies > 1 ? copy == dst.chan : true);
         if (op.op.op->has(AluFlag::PredSet)) {
            /* An If's predicate (branch_predicates.cpp): lanes where it fails leave the then
             * side, and the predicate bit follows it; its result is not written. */
            instruction.set(alu::update_exec_mask, 1);
            instruction.set(alu::update_pred, 1);
         }
         instruction.set(alu::dst_gpr, dst.gpr);
         instruction.set(alu::dst_chan, op.copies > 1 ? copy : writes_gpr ? dst.chan : unsigned(op.slot) % 4);
         instruction.set(alu::clamp, op.op.clamp);
         if (instruction.is_op3()) {
            instruction.set(alu::op3_inst, op.op.op->opcode_for(isa));
         } else {
            instruction.set(alu::op2_inst, op.op.op->opcode_for(isa));
            instruction.set(alu::write_mask, writes);
         }
         ordered.push_back({int(slot), instruction});
      }
   }
   std::stable_sort(ordered.begin(), ordered.end(),
                    [](const auto &a, const auto &b) { return a.first < b.first; });
   std::vector<AluInstruction> instructions;
   for (auto &[slot, instruction] : ordered)
      instructions.push_back(instruction);
   instructions.back().set(alu::last, 1);
   return instructions;
}

/* PV/PS forwarding: an operand that the previous group of the clause has just written is read
 * from that group's result (PV.c for vector slot c, PS for the t slot) instead of its GPR. The
 * GPR still holds the value; the read simply no longer takes a GPR read port, so groups that
 * would otherwise run out of ports (three cycles, one GPR per channel each) keep their bank
 * swizzle instead of being split. Facts: PV/PS carry the previous group's results of the same
 * clause after the output modifiers, write-masked slots included (docs/sim-semantics.md; the
 * bundle rule PREVIOUS_RESULT cites Mesa's r600_asm.c replace_gpr_with_pv_ps and LLVM's
 * R600Packetizer, which make the same substitution). Not forwarded:
 * results of instructions whose PV is not a plain per-slot result (reductions, interpolation,
 * LDS, MOVA, predicate and kill operations, pair-wise operations), relative writes or reads,
 * and reads by INTERP_* and LDS instructions. */
bool forwards_its_result(const AluInstruction &instruction)
{
   constexpr uint32_t special = AluFlag::Kill | AluFlag::PredSet | AluFlag::PredPush | AluFlag::Mova |
                                AluFlag::Interp | AluFlag::Lds | AluFlag::Reduction |
                                AluFlag::Double | AluFlag::PrevNext | AluFlag::PrevInterleave;
   if (instruction.is_lds() || (instruction.op->flags & special) || instruction.slot == Slot::Invalid)
      return false;
   if (instruction.get(alu::dst_rel))
      return false;
   return instruction.is_op3() || instruction.get(alu::write_mask);
}

void forward_previous_results(std::vector<AluInstruction> &group,
                              const std::vector<AluInstruction> *previous, hw::IsaClass isa)
{
   if (!previous)
      return;
   struct Written {
      unsigned gpr, chan, select, select_chan;
   };
   std::vector<Written> written;
   for (const AluInstruction &producer : *previous) {
      if (!forwards_its_result(producer))
         continue;
      const unsigned slot = static_cast<unsigned>(producer.slot);
      if (slot == 4 && isa != hw::IsaClass::Evergreen)
         continue;
      written.push_back({producer.get(alu::dst_gpr), producer.get(alu::dst_chan),
                         slot == 4 ? src_sel::ps : src_sel::pv, slot == 4 ? 0u : slot});
   }
   static constexpr Field sels[] = {alu::src0_sel, alu::src1_sel, alu::src2_sel};
   static constexpr Field chans[] = {alu::src0_chan, alu::src1_chan, alu::src2_chan};
   static constexpr Field rels[] = {alu::src0_rel, alu::src1_rel, alu::src2_rel};
   for (AluInstruction &consumer : group) {
      if (consumer.is_lds() || consumer.op->has(AluFlag::Interp) ||
          (consumer.op->flags & (AluFlag::PrevNext | AluFlag::PrevInterleave)))
         continue;
      for (unsigned s = 0; s < consumer.source_count() && s < 3; s++) {
         const unsigned sel = consumer.get(sels[s]);
         if (sel >= src_sel::gpr_count || consumer.get(rels[s]))
            continue;
         for (const Written &w : written)
            if (w.gpr == sel && w.chan == consumer.get(chans[s])) {
               consumer.set(sels[s], w.select);
               consumer.set(chans[s], w.select_chan);
               break;
            }
      }
   }
}

/* Whether a group reads a result of the group before it (PV or PS). */
bool reads_previous_results(const std::vector<AluInstruction> &group)
{
   for (const AluInstruction &instruction : group)
      for (unsigned s = 0; s < instruction.source_count(); s++) {
         const unsigned sel = alu_source(instruction, s).sel;
         if (sel == src_sel::pv || sel == src_sel::ps)
            return true;
      }
   return false;
}

bool swizzle_rule(Rule rule)
{
   return rule == Rule::GprReadPorts || rule == Rule::TransBankSwizzle ||
          rule == Rule::TransConstantCycle;
}

/* Chooses bank swizzles for a group; false if no combination meets the read-port rules. */
bool choose_swizzles(std::vector<AluInstruction> &group, const std::vector<uint32_t> &literals,
                     hw::IsaClass isa)
{
   if (!assign_slots(group, isa))
      return false;
   const GroupContext context{};
   std::function<bool(size_t)> search = [&](size_t i) -> bool {
      if (i == group.size())
         return true;
      const unsigned choices = group[i].slot == Slot::T ? 4 : 6;
      /* INTERP_XY/ZW/X/Z read with VEC_210 only (bundle rule INTERP_SWIZZLE). */
      const bool fixed = group[i].op->has(AluFlag::Interp) && !group[i].op->name.starts_with("INTERP_LOAD_");
      constexpr unsigned vec_210 = 5;
      for (unsigned swizzle = fixed ? vec_210 : 0; swizzle < choices; swizzle++) {
         group[i].set(alu::bank_swizzle, swizzle);
         bool ok = true;
         for (const Violation &v : check_group(std::span(group.data(), i + 1), literals, isa, context))
            if (swizzle_rule(v.rule))
               ok = false;
         if (ok && search(i + 1))
            return true;
      }
      return false;
   };
   return search(0);
}

/* TEX_WORD0-2 of a sample, texel load or size query. The coordinates and results sit in
 * one GPR each, every value in the channel of its position (regalloc.cpp). */
/* Scratch (docs/compiler.md "Scratch"; the words as r600g's sfn builds them: Mesa 22.3.6
 * sfn_assembler.cpp visit(ScratchIOInstr), sfn_instr_fetch.cpp LoadFromScratch). ARRAY_SIZE is
 * the program's last element, which every access stays within. */

/* MEM_SCRATCH: TYPE WRITE_ACK (2) at ARRAY_BASE, or WRITE_IND_ACK (3) at ARRAY_BASE + INDEX_GPR.x;
 * ELEM_SIZE 3 (four dwords), the channels written in COMP_MASK, MARK for the WAIT_ACK before a
 * READ_SCRATCH. */
bool encode_scratch_write(const StoreOp &store, const Allocation &allocation, unsigned elements, CfInstruction &cf,
                          std::string &error)
{
   unsigned mask = 0;
   int gpr = -1;
   for (unsigned c = 0; c < 4; c++) {
      const unsigned v = c ? store.data_yzw[c - 1] : store.data;
      if (v == no_value)
         continue;
      const Location at = allocation.location[v];
      if (at.chan != c || (gpr >= 0 && at.gpr != unsigned(gpr))) {
         error = "internal: a scratch store's channels are not the channels of one GPR";
         return false;
      }
      gpr = int(at.gpr);
      mask |= 1u << c;
   }
   if (gpr < 0) {
      error = "internal: a scratch store writes no channel";
      return false;
   }
   if (store.index != no_value) {
      const Location index = allocation.location[store.index];
      if (index.chan != 0) {
         error = "internal: a scratch store's index is not in channel x";
         return false;
      }
      cf.set(cf_export::index_gpr, index.gpr);
   }
   cf.set(cf_export::type, store.index != no_value ? 3 : 2);
   cf.set(cf_export::array_base, store.scratch_element);
   cf.set(cf_export::rw_gpr, unsigned(gpr));
   cf.set(cf_export::elem_size, 3);
   cf.set(cf_export::array_size, elements - 1);
   cf.set(cf_export::comp_mask, mask);
   cf.set(cf_export::mark, 1);
   cf.set(cf_export::barrier, 1);
   return true;
}

/* READ_SCRATCH: MEM_RD of the element ARRAY_BASE (+ SRC_GPR.SRC_SEL_X when INDEXED), four
 * dwords as FMT_32_32_32_32 integers, UNCACHED. */
bool encode_scratch_read(const TextureFetch &fetch, const Allocation &allocation, unsigned elements,
                         FetchInstruction &instruction, std::string &error)
{
   instruction.op = fetch.op;
   instruction.format = WordFormat::MemRead;
   instruction.set(mem_rd::inst, fetch.op->opcode);
   instruction.set(mem_rd::mem_op, 0);
   instruction.set(mem_rd::elem_size, 3);
   instruction.set(mem_rd::uncached, 1);
   if (fetch.coords[0] != no_value) {
      const Location index = allocation.location[fetch.coords[0]];
      instruction.set(mem_rd::indexed, 1);
      instruction.set(mem_rd::src_gpr, index.gpr);
      instruction.set(mem_rd::src_sel_x, index.chan);
   }
   const Field selects[] = {mem_rd::dst_sel_x, mem_rd::dst_sel_y, mem_rd::dst_sel_z, mem_rd::dst_sel_w};
   int gpr = -1;
   for (unsigned c = 0; c < 4; c++)
      instruction.set(selects[c], 7);
   for (unsigned c = 0; c < 4; c++) {
      if (fetch.results[c] == no_value)
         continue;
      const Location at = allocation.location[fetch.results[c]];
      if (gpr >= 0 && at.gpr != unsigned(gpr)) {
         error = "internal: a scratch load's results are not in one GPR";
         return false;
      }
      gpr = int(at.gpr);
      instruction.set(selects[at.chan], c);
   }
   instruction.set(mem_rd::dst_gpr, unsigned(std::max(gpr, 0)));
   instruction.set(mem_rd::data_format, hw::Fmt32_32_32_32);
   instruction.set(mem_rd::num_format_all, 1); /* integer: the bits as they are */
   instruction.set(mem_rd::array_base, fetch.offset);
   instruction.set(mem_rd::array_size, elements - 1);
   return true;
}

FetchInstruction encode_texture(const TextureFetch &fetch, const Allocation &allocation,
                                hw::IsaClass isa)
{
   FetchInstruction instruction;
   instruction.op = fetch.op;
   if (fetch.op->format == FetchFormat::Vtx) {
      /* A texel buffer element: index in x, format and swizzle from the resource. */
      instruction.format = WordFormat::Vtx;
      instruction.set(vtx::inst, fetch.op->opcode);
      instruction.set(vtx::fetch_type, 2);
      instruction.set(vtx::buffer_id, fetch.resource);
      const Location index = allocation.location[fetch.coords[0]];
      instruction.set(vtx::src_gpr, index.gpr);
      instruction.set(vtx::src_sel_x, index.chan);
      const Field selects[] = {vtx::dst_sel_x, vtx::dst_sel_y, vtx::dst_sel_z, vtx::dst_sel_w};
      if (fetch.raw_dwords) {
         /* Raw dwords: fetch only the span from the first result kept to the last one. */
         unsigned first = 4, last = 0;
         for (unsigned c = 0; c < 4; c++)
            if (fetch.results[c] != no_value)
               first = std::min(first, c), last = std::max(last, c);
         static constexpr unsigned formats[] = {hw::Fmt32, hw::Fmt32_32, hw::Fmt32_32_32,
                                                hw::Fmt32_32_32_32};
         const unsigned span = last - first + 1;
         for (unsigned c = 0; c < 4; c++) {
            if (fetch.results[c] != no_value) {
               instruction.set(vtx::dst_gpr, allocation.location[fetch.results[c]].gpr);
               instruction.set(selects[allocation.location[fetch.results[c]].chan], c - first);
            }
         }
         for (unsigned c = 0; c < 4; c++) {
            bool written = false;
            for (unsigned r = 0; r < 4; r++)
               written |= fetch.results[r] != no_value && allocation.location[fetch.results[r]].chan == c;
            if (!written)
               instruction.set(selects[c], 7);
         }
         instruction.set(vtx::data_format, formats[span - 1]);
         instruction.set(vtx::num_format_all, 1); /* integer: the bits as they are */
         instruction.set(vtx::offset, fetch.offset + 4 * first);
         if (isa == hw::IsaClass::Evergreen) {
            instruction.set(vtx::mega_fetch_count, 4 * span);
            instruction.set(vtx::mega_fetch, 1);
         }
         return instruction;
      }
      for (unsigned c = 0; c < 4; c++) {
         if (fetch.results[c] != no_value) {
            instruction.set(vtx::dst_gpr, allocation.location[fetch.results[c]].gpr);
            instruction.set(selects[c], allocation.location[fetch.results[c]].chan);
         } else {
            instruction.set(selects[c], 7);
         }
      }
      instruction.set(vtx::use_const_fields, 1);
      if (isa == hw::IsaClass::Evergreen) {
         instruction.set(vtx::mega_fetch_count, 15);
         instruction.set(vtx::mega_fetch, 1);
      }
      return instruction;
   }
   instruction.set(tex::inst, fetch.op->opcode);
   instruction.set(tex::inst_mod, fetch.gather_component >= 0 ? unsigned(fetch.gather_component) : fetch.op->modifier);
   instruction.set(tex::resource_id, fetch.resource);
   instruction.set(tex::sampler_id, fetch.sampler);
   /* 5-bit signed fields counting half texels (Mesa r600 shifts texel offsets left by one). */
   instruction.set(tex::offset_x, uint32_t(fetch.offset_halves[0]) & 31);
   instruction.set(tex::offset_y, uint32_t(fetch.offset_halves[1]) & 31);
   instruction.set(tex::offset_z, uint32_t(fetch.offset_halves[2]) & 31);
   constexpr unsigned select_zero = 4, select_masked = 7;
   unsigned src_gpr = 0, dst_gpr = 0;
   const Field sources[] = {tex::src_sel_x, tex::src_sel_y, tex::src_sel_z, tex::src_sel_w};
   const Field results[] = {tex::dst_sel_x, tex::dst_sel_y, tex::dst_sel_z, tex::dst_sel_w};
   const Field coord_types[] = {tex::coord_type_x, tex::coord_type_y, tex::coord_type_z,
                                tex::coord_type_w};
   for (unsigned c = 0; c < 4; c++) {
      if (fetch.coords[c] != no_value) {
         src_gpr = allocation.location[fetch.coords[c]].gpr;
         instruction.set(sources[c], allocation.location[fetch.coords[c]].chan);
      } else {
         instruction.set(sources[c], select_zero);
      }
      if (fetch.results[c] != no_value) {
         dst_gpr = allocation.location[fetch.results[c]].gpr;
         instruction.set(results[c], allocation.location[fetch.results[c]].chan);
      } else {
         instruction.set(results[c], select_masked);
      }
      instruction.set(coord_types[c], fetch.normalized[c] ? 1 : 0);
   }
   if (fetch.zero_results) {
      /* DST_SEL_c names what channel c of the destination receives: 0.0 where a result lives. */
      for (unsigned c = 0; c < 4; c++)
         instruction.set(results[c], select_masked);
      for (unsigned v : fetch.results)
         if (v != no_value)
            instruction.set(results[allocation.location[v].chan], select_zero);
   }
   instruction.set(tex::src_gpr, src_gpr);
   instruction.set(tex::dst_gpr, dst_gpr);
   return instruction;
}

} // namespace

bool emit_program(ScheduledProgram &scheduled, const Allocation &allocated,
                  const SelectedProgram &selected, ShaderBinary &binary, std::string &error)
{
   const hw::IsaClass isa = scheduled.isa;
   /* A copy: breaking a cycle of reads and writes in a group that must be split adds values
    * in scratch places (below). */
   Allocation allocation = allocated;
   binary.isa = isa;
   std::vector<SamplerRecord> records = selected.sampler_records;

   /* Groups with their swizzles; a group whose reads cannot be arranged is split. */
   struct EncodedGroup {
      std::vector<AluInstruction> instructions;
      std::vector<uint32_t> literals;
   };
   std::vector<std::vector<EncodedGroup>> alu_clauses(scheduled.clauses.size());
   /* Scratch places for cycle breaking: channels of GPRs 2 and up that no value of the program
    * occupies (R0 and R1 are written by the hardware), then channels of new GPRs. A scratch
    * value lives only from its MOV to the pieces of the group it was made for, so the list
    * starts over with each scheduled group. */
   std::vector<Location> scratch_places;
   {
      std::vector<std::array<bool, 4>> used(allocation.gprs, {false, false, false, false});
      for (const Location &l : allocation.location)
         if (l.gpr < used.size())
            used[l.gpr][l.chan % 4] = true;
      for (unsigned g = 2; g < allocation.gprs; g++)
         for (unsigned ch = 0; ch < 4; ch++)
            if (!used[g][ch])
               scratch_places.push_back({g, ch});
   }
   for (size_t c = 0; c < scheduled.clauses.size(); c++) {
      Clause &clause = scheduled.clauses[c];
      if (clause.kind != ClauseKind::Alu)
         continue;
      for (const ScheduledGroup &scheduled_group : clause.groups) {
         std::vector<ScheduledGroup> pending{scheduled_group};
         size_t scratch_used = 0;
         while (!pending.empty()) {
            ScheduledGroup group = std::move(pending.back());
            pending.pop_back();
            /* The splitting below never empties a half, so an empty group came from the
             * scheduler: an operation it meant to place there is missing from the program
             * (skipping the group hid exactly that once). */
            if (group.ops.empty()) {
               error = "internal: the scheduler closed an empty group";
               return false;
            }
            std::vector<AluInstruction> instructions = build_group(group, allocation, isa, clause.kcache);
            forward_previous_results(instructions, alu_clauses[c].empty() ? nullptr : &alu_clauses[c].back().instructions, isa);
            if (!choose_swizzles(instructions, group.literals, isa)) {
               if (group.ops.size() < 2) {
                  error = "internal: no bank swizzle fits a single instruction";
                  return false;
               }
               auto four_slot = [&](const ScheduledAlu &op) {
                  return op.op.op->slot_rule(isa) == isa::SlotRule::Four;
               };
               if (std::all_of(group.ops.begin(), group.ops.end(), four_slot)) {
                  /* A DOT4 group alone whose operands cannot be read in three cycles (it cannot
                   * be split): the operands not in the channel of their slot are copied, one
                   * group earlier, into scratch places in that channel. Each channel is then
                   * read by its own slot only, from at most two GPRs, which VEC_012 reads. */
                  if (group.ops[0].op.op->name != "DOT4_IEEE") {
                     error = "internal: no bank swizzle fits a " + std::string(group.ops[0].op.op->name) + " group";
                     return false;
                  }
                  std::vector<ScheduledGroup> copies;
                  for (ScheduledAlu &op : group.ops) {
                     const unsigned chan = unsigned(op.slot);
                     for (unsigned k = 0; k < 2; k++) {
                        Operand &o = op.op.src[k];
                        if (!o.is_value() || allocation.location[o.value].chan == chan)
                           continue;
                        size_t found_place = scratch_places.size();
                        for (size_t p = scratch_used; p < scratch_places.size() && found_place == scratch_places.size(); p++)
                           if (scratch_places[p].chan == chan)
                              found_place = p;
                        if (found_place == scratch_places.size()) {
                           const unsigned g = std::max(allocation.gprs, scratch_places.empty() ? 0u : scratch_places.back().gpr + 1);
                           for (unsigned ch = 0; ch < 4; ch++)
                              scratch_places.push_back({g, ch});
                           found_place = scratch_places.size() - 4 + chan;
                        }
                        std::swap(scratch_places[found_place], scratch_places[scratch_used]);
                        const Location place = scratch_places[scratch_used++];
                        allocation.gprs = std::max(allocation.gprs, place.gpr + 1);
                        const unsigned copy = unsigned(allocation.location.size());
                        allocation.location.push_back(place);
                        ScheduledAlu mov;
                        mov.op.op = isa::find_alu_op("MOV");
                        mov.op.dst = copy;
                        mov.op.src[0] = Operand::of_value(o.value);
                        mov.slot = int(chan);
                        ScheduledGroup *target = nullptr;
                        for (ScheduledGroup &g : copies)
                           if (std::none_of(g.ops.begin(), g.ops.end(),
                                            [&](const ScheduledAlu &other) { return other.slot == mov.slot; }))
                              target = &g;
                        if (!target)
                           target = &copies.emplace_back();
                        target->ops.push_back(mov);
                        o.value = copy; /* keeps neg/abs */
                     }
                  }
                  if (copies.empty()) {
                     error = "internal: no bank swizzle fits a DOT4 group";
                     return false;
                  }
                  pending.push_back(std::move(group));
                  for (ScheduledGroup &move : copies)
                     pending.push_back(std::move(move));
                  continue;
               }
               /* Split: the operations moved to the second half must not read a place that an
                * operation left in the first half writes (a group reads before it writes, so
                * the register allocator may have let them share it). Writers follow their
                * readers into the second half; try each operation as the seed. */
               auto writes_place = [&](const ScheduledAlu &op, const Operand &o) {
                  if (!o.is_value() || op.op.dst == no_value)
                     return false;
                  const Location a = allocation.location[o.value], b = allocation.location[op.op.dst];
                  return a.gpr == b.gpr && a.chan == b.chan;
               };
               std::vector<bool> moved;
               bool found = false;
               for (size_t seed = group.ops.size(); seed-- > 0 && !found;) {
                  moved.assign(group.ops.size(), false);
                  moved[seed] = true;
                  for (bool grew = true; grew;) {
                     grew = false;
                     for (size_t r = 0; r < group.ops.size(); r++) {
                        if (!moved[r])
                           continue;
                        for (size_t w = 0; w < group.ops.size(); w++) {
                           for (const Operand &o : group.ops[r].op.src)
                              if (!moved[w] && writes_place(group.ops[w], o))
                                 moved[w] = grew = true;
                           /* A four-slot group (DOT4) moves whole. */
                           if (!moved[w] && four_slot(group.ops[r]) && four_slot(group.ops[w]))
                              moved[w] = grew = true;
                        }
                     }
                  }
                  found = std::count(moved.begin(), moved.end(), true) < long(group.ops.size());
               }
               /* No split exists when the operations' reads and writes of shared places form
                * a cycle (A reads what B writes and B reads what A writes: values swapped
                * through places the allocator handed on within the group, or NIR registers).
                * The cycle is broken by copying, one group earlier, the places the last
                * operation reads and the others write into scratch places: it then reads
                * the copies and can go alone into the second half. */
               std::vector<ScheduledGroup> copies;
               if (!found) {
                  const size_t seed = group.ops.size() - 1;
                  for (Operand &o : group.ops[seed].op.src) {
                     bool overwritten = false;
                     for (size_t w = 0; w < seed; w++)
                        overwritten = overwritten || writes_place(group.ops[w], o);
                     if (!overwritten)
                        continue;
                     if (scratch_used == scratch_places.size()) {
                        const unsigned g = std::max(allocation.gprs, scratch_places.empty() ? 0u : scratch_places.back().gpr + 1);
                        for (unsigned ch = 0; ch < 4; ch++)
                           scratch_places.push_back({g, ch});
                     }
                     const Location place = scratch_places[scratch_used++];
                     allocation.gprs = std::max(allocation.gprs, place.gpr + 1);
                     const unsigned copy = unsigned(allocation.location.size());
                     allocation.location.push_back(place);
                     ScheduledAlu mov;
                     mov.op.op = isa::find_alu_op("MOV");
                     mov.op.dst = copy;
                     mov.op.src[0] = Operand::of_value(o.value);
                     mov.slot = int(place.chan);
                     /* The copies share a group where their slots differ. */
                     const bool slot_taken = !copies.empty() &&
                        std::any_of(copies.back().ops.begin(), copies.back().ops.end(),
                                    [&](const ScheduledAlu &other) { return other.slot == mov.slot; });
                     if (copies.empty() || slot_taken)
                        copies.emplace_back();
                     copies.back().ops.push_back(mov);
                     o.value = copy; /* keeps neg/abs */
                  }
                  moved.assign(group.ops.size(), false);
                  moved[seed] = true;
                  found = !copies.empty();
               }
               if (!found) {
                  error = "internal: a group with no legal bank swizzle cannot be split";
                  return false;
               }
               ScheduledGroup tail;
               std::vector<ScheduledAlu> kept;
               for (size_t k = 0; k < group.ops.size(); k++)
                  (moved[k] ? tail.ops : kept).push_back(group.ops[k]);
               group.ops = std::move(kept);
               /* Each half keeps only the literals it reads. */
               auto literals_of = [](const ScheduledGroup &g) {
                  std::vector<uint32_t> literals;
                  for (const ScheduledAlu &op : g.ops)
                     for (const Operand &o : op.op.src)
                        if (o.kind == OperandKind::Literal &&
                            std::find(literals.begin(), literals.end(), o.value) == literals.end())
                           literals.push_back(o.value);
                  return literals;
               };
               group.literals = literals_of(group);
               tail.literals = literals_of(tail);
               pending.push_back(std::move(tail));
               pending.push_back(std::move(group));
               for (ScheduledGroup &move : copies)
                  pending.push_back(std::move(move));
               continue;
            }
            std::vector<uint32_t> literals = group.literals;
            if (literals.size() % 2)
               literals.push_back(0);
            alu_clauses[c].push_back({std::move(instructions), std::move(literals)});
         }
      }
   }

   /* Splitting groups may have made a clause outgrow the 128 slots of one ALU clause: it goes
    * on in another (never between an LDS operation and the group that pops its result). */
   {
      auto pops_lds_queue = [](const EncodedGroup &g) {
         for (const AluInstruction &instruction : g.instructions)
            for (unsigned s = 0; s < instruction.source_count(); s++) {
               const unsigned sel = isa::alu_source(instruction, s).sel;
               if (sel == isa::src_sel::lds_oq_a || sel == isa::src_sel::lds_oq_a_pop)
                  return true;
            }
         return false;
      };
      std::vector<Clause> clauses;
      std::vector<std::vector<EncodedGroup>> encoded;
      for (size_t c = 0; c < scheduled.clauses.size(); c++) {
         if (scheduled.clauses[c].kind != ClauseKind::Alu) {
            clauses.push_back(std::move(scheduled.clauses[c]));
            encoded.emplace_back();
            continue;
         }
         std::vector<EncodedGroup> part;
         unsigned slots = 0;
         auto size_of = [](const EncodedGroup &g) {
            return unsigned(g.instructions.size() + g.literals.size() / 2);
         };
         for (EncodedGroup &g : alu_clauses[c]) {
            const unsigned size = size_of(g);
            if (slots + size > 128 && !part.empty() && !pops_lds_queue(g)) {
               /* PV/PS do not reach into the next clause: the new clause starts at the last
                * group (this one or an earlier one) that reads no previous result. */
               size_t start = part.size();
               if (reads_previous_results(g.instructions)) {
                  while (start > 1 && (reads_previous_results(part[start - 1].instructions) || pops_lds_queue(part[start - 1])))
                     start--;
                  if (start <= 1) {
                     error = "internal: an ALU clause outgrew 128 slots within a run of PV/PS reads";
                     return false;
                  }
                  start--;
               }
               std::vector<EncodedGroup> rest(std::make_move_iterator(part.begin() + long(start)),
                                              std::make_move_iterator(part.end()));
               part.resize(start);
               clauses.push_back(scheduled.clauses[c]);
               encoded.push_back(std::move(part));
               part = std::move(rest);
               slots = 0;
               for (const EncodedGroup &kept : part)
                  slots += size_of(kept);
            }
            part.push_back(std::move(g));
            slots += size;
         }
         clauses.push_back(std::move(scheduled.clauses[c]));
         encoded.push_back(std::move(part));
      }
      scheduled.clauses = std::move(clauses);
      alu_clauses = std::move(encoded);
   }

   /* CF indices: one per clause or marker, two for an If (ALU_PUSH_BEFORE and JUMP). Then the
    * targets of the structured control flow, matched with a stack. */
   std::vector<uint32_t> cf_index(scheduled.clauses.size(), 0);
   uint32_t cf_next = 0;
   /* A fetch clause that reads RAT returns is preceded by a WAIT_ACK (one more CF). */
   auto waits_for_ack = [](const Clause &clause) {
      return clause.kind == ClauseKind::Fetch &&
             std::any_of(clause.fetches.begin(), clause.fetches.end(), [](const FetchOp &f) { return f.wait_ack; });
   };
   /* An If whose predicate ends the ALU clause before it (schedule.cpp,
    * place_branch_predicate): that clause is its ALU_PUSH_BEFORE, the If only its JUMP. */
   auto predicated_by_clause = [](const Clause &clause) {
      return clause.kind == ClauseKind::Marker && clause.marker == NodeKind::If && clause.condition == no_value;
   };
   auto own_predicate = [&](const Clause &clause) {
      return clause.kind == ClauseKind::Marker && clause.marker == NodeKind::If && !predicated_by_clause(clause);
   };
   for (size_t c = 0; c < scheduled.clauses.size(); c++) {
      cf_index[c] = cf_next;
      const Clause &clause = scheduled.clauses[c];
      if (predicated_by_clause(clause)) {
         const bool ends_with_predicate =
            c > 0 && scheduled.clauses[c - 1].kind == ClauseKind::Alu && !alu_clauses[c - 1].empty() &&
            alu_clauses[c - 1].back().instructions.size() == 1 &&
            alu_clauses[c - 1].back().instructions[0].op->has(AluFlag::PredSet);
         if (!ends_with_predicate) {
            error = "internal: an If's predicate does not end the ALU clause before it";
            return false;
         }
      }
      cf_next += own_predicate(clause) || waits_for_ack(clause) ? 2 : 1;
   }
   const unsigned cf_count = cf_next + 1;
   /* For If: its Else (or EndIf) CF index; for Else: its EndIf; for EndIf: itself;
    * LoopBegin: its LoopEnd; LoopEnd: its LoopBegin; Break/Continue: the LoopEnd. */
   std::vector<uint32_t> target(scheduled.clauses.size(), 0);
   {
      std::vector<size_t> ifs, loops;
      std::vector<std::vector<size_t>> loop_exits;
      for (size_t c = 0; c < scheduled.clauses.size(); c++) {
         const Clause &clause = scheduled.clauses[c];
         if (clause.kind != ClauseKind::Marker)
            continue;
         switch (clause.marker) {
         case NodeKind::If: ifs.push_back(c); break;
         case NodeKind::Else:
            target[ifs.back()] = cf_index[c];
            ifs.back() = c;
            break;
         case NodeKind::EndIf: {
            const size_t open = ifs.back();
            ifs.pop_back();
            target[open] = cf_index[c];
            target[c] = cf_index[c];
            break;
         }
         case NodeKind::LoopBegin:
            loops.push_back(c);
            loop_exits.emplace_back();
            break;
         case NodeKind::Break:
         case NodeKind::Continue:
            loop_exits.back().push_back(c);
            break;
         case NodeKind::LoopEnd:
            target[loops.back()] = cf_index[c];
            target[c] = cf_index[loops.back()];
            for (size_t exit : loop_exits.back())
               target[exit] = cf_index[c];
            loops.pop_back();
            loop_exits.pop_back();
            break;
         default:
            break;
         }
      }
   }

   /* Layout: CF instructions, then the clauses (fetch clauses on 128-bit boundaries). An If
    * that still carries its condition (no predicate node before it) gets an ALU_PUSH_BEFORE
    * over a one-group clause of its own that sets the exec mask. */
   uint32_t next_slot = cf_count + (cf_count % 2);
   std::vector<uint32_t> clause_address(scheduled.clauses.size(), 0);
   std::vector<uint32_t> clause_slots(scheduled.clauses.size(), 0);
   for (size_t c = 0; c < scheduled.clauses.size(); c++) {
      const Clause &clause = scheduled.clauses[c];
      if (clause.kind == ClauseKind::Alu) {
         uint32_t slots = 0;
         for (const EncodedGroup &g : alu_clauses[c])
            slots += uint32_t(g.instructions.size() + g.literals.size() / 2);
         if (slots > 128) {
            error = "internal: an ALU clause outgrew 128 slots";
            return false;
         }
         clause_address[c] = next_slot;
         clause_slots[c] = slots;
         next_slot += slots;
      } else if (clause.kind == ClauseKind::Fetch) {
         next_slot += next_slot % 2;
         clause_address[c] = next_slot;
         next_slot += 2 * uint32_t(clause.fetches.size());
      } else if (own_predicate(clause)) {
         clause_address[c] = next_slot;
         next_slot += 1;
      }
   }
   std::vector<uint32_t> code(next_slot * 2, 0);
   auto put = [&](uint32_t dword, std::span<const uint32_t> words) {
      std::copy(words.begin(), words.end(), code.begin() + dword);
   };

   ShaderStatistics &stats = binary.statistics;
   stats = {};
   unsigned open_loops = 0, open_branches = 0, stack_needed = 0;
   auto note_stack = [&]() {
      stack_needed = std::max(stack_needed, stack_entries_needed(open_loops, open_branches, isa));
   };
   auto plain = [&](const char *name, uint32_t address, unsigned pop_count) {
      CfInstruction cf;
      cf.set(cf::inst, find_cf_op(name)->opcode_for(isa));
      cf.set(cf::addr, address);
      cf.set(cf::pop_count, pop_count);
      cf.set(cf::barrier, 1);
      return cf;
   };
   auto emit_marker = [&](const Clause &clause, size_t c) -> bool {
      const uint32_t index = cf_index[c];
      switch (clause.marker) {
      case NodeKind::If: {
         if (predicated_by_clause(clause)) {
            /* The clause before it was its ALU_PUSH_BEFORE. No lane left: go to the ELSE or POP. */
            put(index * 2, plain("JUMP", target[c], 0).words);
            open_branches++;
            note_stack();
            return true;
         }
         /* PRED_SETNE_INT cond, 0 with UPDATE_EXEC_MASK: lanes whose condition is zero leave
          * (PRED_SETE_INT for an inverted condition). */
         AluInstruction predicate;
         predicate.op = find_alu_op(clause.invert ? "PRED_SETE_INT" : "PRED_SETNE_INT");
         predicate.format = WordFormat::AluOp2;
         const Location condition = allocation.location[clause.condition];
         predicate.set(alu::src0_sel, condition.gpr);
         predicate.set(alu::src0_chan, condition.chan);
         predicate.set(alu::src1_sel, src_sel::zero);
         predicate.set(alu::op2_inst, predicate.op->opcode_for(isa));
         predicate.set(alu::update_exec_mask, 1);
         predicate.set(alu::update_pred, 1);
         predicate.set(alu::last, 1);
         put(clause_address[c] * 2, predicate.words);
         CfInstruction push;
         push.set(cf_alu::addr, clause_address[c]);
         push.set(cf_alu::count, 0);
         push.set(cf_alu::inst, find_cf_op("ALU_PUSH_BEFORE")->opcode_for(isa));
         push.set(cf_alu::barrier, 1);
         put(index * 2, push.words);
         /* No lane left: go to the ELSE (which flips) or the POP. */
         put((index + 1) * 2, plain("JUMP", target[c], 0).words);
         open_branches++;
         note_stack();
         stats.alu_groups++;
         stats.alu_instructions++;
         stats.alu_slots += isa == hw::IsaClass::Cayman ? 4 : 5;
         stats.alu_clauses++;
         return true;
      }
      case NodeKind::Else:
         put(index * 2, plain("ELSE", target[c], 0).words);
         return true;
      case NodeKind::EndIf:
         put(index * 2, plain("POP", index + 1, 1).words);
         open_branches--;
         return true;
      case NodeKind::LoopBegin:
         put(index * 2, plain("LOOP_START_DX10", target[c] + 1, 0).words);
         open_loops++;
         note_stack();
         stats.loops++;
         return true;
      case NodeKind::LoopEnd:
         put(index * 2, plain("LOOP_END", target[c] + 1, 0).words);
         open_loops--;
         return true;
      case NodeKind::Break:
         put(index * 2, plain("LOOP_BREAK", target[c], 0).words);
         return true;
      case NodeKind::Continue:
         put(index * 2, plain("LOOP_CONTINUE", target[c], 0).words);
         return true;
      case NodeKind::WaitAck:
         /* ADDR 0: until every marked RAT write before it is acknowledged (r600g emits
          * WAIT_ACK at memory barriers and MARKs every RAT write of such a shader:
          * sfn_shader.cpp emit_wait_ack and InstructionChain). */
         put(index * 2, plain("WAIT_ACK", 0, 0).words);
         return true;
      default:
         error = "internal: unknown control-flow marker";
         return false;
      }
   };
   for (size_t c = 0; c < scheduled.clauses.size(); c++) {
      const Clause &clause = scheduled.clauses[c];
      CfInstruction cf;
      uint32_t cf_at = cf_index[c];
      switch (clause.kind) {
      case ClauseKind::Alu: {
         cf.set(cf_alu::addr, clause_address[c]);
         /* KCACHE_MODE 2 = LOCK_2: lines KCACHE_ADDR and KCACHE_ADDR + 1 (Mesa r600_sq.h
          * V_SQ_CF_KCACHE_LOCK_2; LLVM R600 CF_ALU's KCACHE_MODE). */
         if (clause.kcache.size() > 0) {
            cf.set(cf_alu::kcache_mode0, 2);
            cf.set(cf_alu::kcache_bank0, clause.kcache[0].bank);
            cf.set(cf_alu::kcache_addr0, clause.kcache[0].line);
         }
         if (clause.kcache.size() > 1) {
            cf.set(cf_alu::kcache_mode1, 2);
            cf.set(cf_alu::kcache_bank1, clause.kcache[1].bank);
            cf.set(cf_alu::kcache_addr1, clause.kcache[1].line);
         }
         cf.set(cf_alu::count, clause_slots[c] - 1);
         const bool pushes = c + 1 < scheduled.clauses.size() && predicated_by_clause(scheduled.clauses[c + 1]);
         cf.set(cf_alu::inst, find_cf_op(pushes ? "ALU_PUSH_BEFORE" : "ALU")->opcode_for(isa));
         cf.set(cf_alu::barrier, 1);
         uint32_t dword = clause_address[c] * 2;
         for (const auto &g : alu_clauses[c]) {
            for (const AluInstruction &instruction : g.instructions) {
               put(dword, instruction.words);
               dword += 2;
            }
            put(dword, g.literals);
            dword += uint32_t(g.literals.size());
            stats.alu_groups++;
            stats.alu_instructions += unsigned(g.instructions.size());
            stats.alu_slots += isa == hw::IsaClass::Cayman ? 4 : 5;
            stats.literals += unsigned(g.literals.size());
         }
         stats.alu_clauses++;
         break;
      }
      case ClauseKind::Fetch: {
         if (waits_for_ack(clause)) {
            /* The returning RAT operations before it asked for acknowledgements (MARK); WAIT_ACK
             * with ADDR 0 waits for all of them, so that the values are in the return buffer
             * (r600g's sequence: sfn_instr_mem.cpp, sfn_assembler.cpp emit_wait_ack). */
            put(cf_index[c] * 2, plain("WAIT_ACK", 0, 0).words);
            cf_at = cf_index[c] + 1;
         }
         cf.set(cf::addr, clause_address[c]);
         cf.set(cf::count, unsigned(clause.fetches.size()) - 1);
         cf.set(cf::inst, find_cf_op("TEX")->opcode_for(isa));
         cf.set(cf::barrier, 1);
         if (clause.fetches.front().valid_pixels_only)
            cf.set(cf::valid_pixel_mode, 1);
         uint32_t dword = clause_address[c] * 2;
         for (const FetchOp &fetch : clause.fetches) {
            if (fetch.is_texture() && fetch.texture.op->format == FetchFormat::MemRead) {
               FetchInstruction instruction;
               if (!encode_scratch_read(fetch.texture, allocation, allocation.scratch_elements, instruction, error))
                  return false;
               put(dword, instruction.words);
               dword += 4;
               continue;
            }
            if (fetch.is_texture()) {
               const FetchInstruction instruction = encode_texture(fetch.texture, allocation, isa);
               const TextureFetch &t = fetch.texture;
               const bool samples = (t.op->flags & FetchFlag::Sample) != 0;
               /* GET_GRADIENTS_H/V read no resource: nothing for the driver to bind. */
               if (!t.op->name.starts_with("GET_GRADIENTS"))
                  binary.fetches.push_back({dword, t.resource, samples ? int(t.sampler) : -1});
               if (t.record >= 0)
                  records[t.record].tex_dword_offsets.push_back(dword);
               put(dword, instruction.words);
               dword += 4;
               continue;
            }
            FetchInstruction instruction;
            const Location src = allocation.location[fetch.address];
            const Location dst = allocation.location[fetch.dst];
            instruction.set(vtx::inst, 0); /* VFETCH */
            instruction.set(vtx::fetch_type, 2); /* no index offset */
            instruction.set(vtx::buffer_id, fetch.binding);
            instruction.set(vtx::src_gpr, src.gpr);
            instruction.set(vtx::src_sel_x, src.chan);
            instruction.set(vtx::dst_gpr, dst.gpr);
            const Field selects[] = {vtx::dst_sel_x, vtx::dst_sel_y, vtx::dst_sel_z, vtx::dst_sel_w};
            for (unsigned k = 0; k < 4; k++)
               instruction.set(selects[k], k == dst.chan ? 0 : 7);
            instruction.set(vtx::data_format, hw::Fmt32);
            instruction.set(vtx::num_format_all, 1); /* integer: the bits as they are */
            instruction.set(vtx::offset, fetch.offset);
            if (isa == hw::IsaClass::Evergreen) {
               /* As LLVM's R600 backend emits 32-bit global loads on Evergreen. */
               instruction.set(vtx::mega_fetch_count, 4);
               instruction.set(vtx::mega_fetch, 1);
            }
            /* The RAT return buffer is bound by the driver (ShaderBinary::rat_returns), not
             * from a descriptor. */
            if (!fetch.wait_ack)
               binary.fetches.push_back({dword, fetch.binding, -1});
            put(dword, instruction.words);
            dword += 4;
         }
         stats.tex_clauses++;
         break;
      }
      case ClauseKind::Store: {
         if (clause.store.scratch) {
            if (!encode_scratch_write(clause.store, allocation, allocation.scratch_elements, cf, error))
               return false;
            cf.set(cf_export::inst, find_cf_op("MEM_SCRATCH")->opcode_for(isa));
            break;
         }
         const Location data = allocation.location[clause.store.data];
         const Location index = allocation.location[clause.store.index];
         if (data.chan != 0 || index.chan != 0) {
            error = "internal: store operands not in channel x";
            return false;
         }
         const std::pair<unsigned, unsigned> group_members[] = {
            {clause.store.return_index, 1}, {clause.store.compare_z, 2}, {clause.store.compare, 3}};
         for (const auto &[value, chan] : group_members) {
            if (value != no_value && (allocation.location[value].gpr != data.gpr ||
                                      allocation.location[value].chan != chan)) {
               error = "internal: a returning RAT operation's operands are not in one GPR";
               return false;
            }
         }
         /* STORE_TYPED reads the whole data GPR and x, y, z of the index GPR. */
         for (unsigned c = 0; c < 3; c++) {
            for (const auto &[value, gpr] : {std::pair{clause.store.data_yzw[c], data.gpr},
                                             std::pair{clause.store.index_yzw[c], index.gpr}}) {
               if (value != no_value &&
                   (allocation.location[value].gpr != gpr || allocation.location[value].chan != c + 1)) {
                  error = "internal: a typed store's data or coordinates are not in one GPR";
                  return false;
               }
            }
         }
         /* STORE_RAW on Evergreen, STORE_DWORD on Cayman, as LLVM's R600 backend uses. */
         const RatOpInfo *store = nullptr;
         const std::string_view wanted = clause.store.typed    ? "STORE_TYPED"
                                         : clause.store.atomic ? clause.store.atomic
                                         : isa == hw::IsaClass::Cayman ? "STORE_DWORD" : "STORE_RAW";
         for (const RatOpInfo &op : all_rat_ops())
            if (op.name == wanted)
               store = &op;
         if (!store) {
            error = "internal: no RAT operation " + std::string(wanted);
            return false;
         }
         cf.set(cf_export::rat_id, clause.store.binding + selected.rat_base);
         if (selected.valid_pixels_only)
            cf.set(cf_export::valid_pixel_mode, 1);
         cf.set(cf_export::rat_inst, store->opcode);
         cf.set(cf_export::type, 1);
         cf.set(cf_export::rw_gpr, data.gpr);
         cf.set(cf_export::index_gpr, index.gpr);
         /* Returning operations read x, y and z/w of the data GPR (COMP_MASK 0xF, as r600g) and
          * request an acknowledgement for the WAIT_ACK before the fetch of the old value. */
         cf.set(cf_export::comp_mask, clause.store.returns || clause.store.typed ? 0xf : 1);
         cf.set(cf_export::mark, clause.store.returns || clause.store.acknowledged);
         cf.set(cf_export::inst, find_cf_op("MEM_RAT_CACHELESS")->opcode_for(isa));
         cf.set(cf_export::barrier, 1);
         break;
      }
      case ClauseKind::Export: {
         const ExportOp &e = clause.exported;
         if (e.stream) {
            /* MEM_STREAM0_BUFn, TYPE 0 (write), the channels of one GPR under COMP_MASK
             * (ELEM_SIZE 3) at dwords ARRAY_BASE + channel of the vertex's record; ARRAY_SIZE
             * 0xFFF as sfn's transform-feedback exports (Mesa sfn_instr_export.cpp, eg_asm.c). */
            const Location at = allocation.location[e.values[0]];
            for (unsigned k = 0; k < 4; k++) {
               const Location l = allocation.location[e.values[k]];
               if (l.gpr != at.gpr || l.chan != k) {
                  error = "internal: a stream export's values are not the channels of one GPR";
                  return false;
               }
            }
            cf.set(cf_export::type, 0);
            cf.set(cf_export::array_base, e.base);
            cf.set(cf_export::rw_gpr, at.gpr);
            cf.set(cf_export::elem_size, 3);
            cf.set(cf_export::array_size, 0xfff);
            cf.set(cf_export::comp_mask, e.stream_mask);
            const std::string stream_op = "MEM_STREAM0_BUF" + std::to_string(e.stream_buffer & 3);
            cf.set(cf_export::inst, find_cf_op(stream_op.c_str())->opcode_for(isa));
            cf.set(cf_export::barrier, 1);
            break;
         }
         /* EXPORT(_DONE) of one GPR: the channels its values sit in, or constant selects. */
         unsigned gpr = 0;
         const Field selects[] = {cf_export::sel_x, cf_export::sel_y, cf_export::sel_z, cf_export::sel_w};
         for (unsigned k = 0; k < 4; k++) {
            if (e.values[k] == no_value) {
               cf.set(selects[k], e.select[k]);
               continue;
            }
            const Location at = allocation.location[e.values[k]];
            if (at.chan != k) {
               error = "internal: an exported value is not in the channel of its component";
               return false;
            }
            gpr = at.gpr;
            cf.set(selects[k], k);
         }
         cf.set(cf_export::type, e.type);
         cf.set(cf_export::array_base, e.base);
         cf.set(cf_export::rw_gpr, gpr);
         cf.set(cf_export::inst, find_cf_op(e.done ? "EXPORT_DONE" : "EXPORT")->opcode_for(isa));
         cf.set(cf_export::barrier, 1);
         break;
      }
      case ClauseKind::Marker:
         if (!emit_marker(clause, c))
            return false;
         continue;
      }
      put(cf_at * 2, cf.words);
   }
   CfInstruction end;
   if (isa == hw::IsaClass::Cayman) {
      end.set(cf::inst, find_cf_op("CF_END")->opcode_for(isa));
   } else {
      end.set(cf::inst, find_cf_op("NOP")->opcode_for(isa));
      end.set(cf::end_of_program, 1);
   }
   end.set(cf::barrier, 1);
   put(cf_next * 2, end.words);

   /* The library decodes what we made and checks every group: the compiler's own output is
    * held to the rules the simulator enforces. */
   Program program;
   DecodeError decode_error;
   if (!decode_program(code, isa, program, decode_error)) {
      error = "internal: emitted program does not decode (dword " +
              std::to_string(decode_error.dword) + "): " + decode_error.message;
      return false;
   }
   const std::vector<std::string> violations = check_program(program);
   if (!violations.empty()) {
      error = "internal: emitted program breaks a bundle rule: " + violations.front();
      return false;
   }

   binary.code = std::move(code);
   binary.graphics = selected.graphics;
   binary.sampler_records = std::move(records);
   binary.texture_resources = selected.texture_resources;
   binary.samplers = selected.samplers;
   binary.gprs = allocation.gprs;
   binary.scratch_dwords = 4 * allocation.scratch_elements; /* private arrays and spills */
   binary.stack_entries = stack_needed;
   binary.rat_slots = selected.rat_slots;
   binary.sized_slots = selected.sized_slots;
   binary.resource_size_slots = selected.resource_size_slots;
   binary.image_rats = selected.image_rats;
   binary.rat_returns = selected.rat_returns;
   binary.kcache_slots = selected.kcache_slots;
   binary.uses_driver_constants = selected.uses_driver_constants;
   binary.push_constants_fetched = selected.push_constants_fetched;
   stats.dwords = unsigned(binary.code.size());
   stats.gprs = binary.gprs;
   stats.cf = cf_count;
   stats.stack = stack_needed;
   stats.spilled_values = allocation.spilled_values;
   stats.scratch_bytes = 4 * binary.scratch_dwords;
   return true;
}

} // namespace terakan::compiler
