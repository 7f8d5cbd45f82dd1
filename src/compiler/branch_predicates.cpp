/* Branch predicates. An If is entered by ALU_PUSH_BEFORE over a clause whose last group holds
 * a PRED_SET* with UPDATE_EXEC_MASK: lanes where the comparison fails leave the then side.
 * This pass makes that PRED_SET* an ordinary ALU node placed just before its If (which then
 * keeps no condition of its own), so that
 *  - the scheduler can end the preceding ALU clause with it instead of opening a clause of one
 *    group for it (schedule.cpp: Scheduler::place_branch_predicate), as r600g's assembler
 *    does when it appends an If's predicate to the previous ALU clause (Mesa r600_asm.c,
 *    r600_bytecode_add_alu_type: an ALU clause becomes ALU_PUSH_BEFORE);
 *  - every pass that counts reads (liveness, register allocation, spilling) sees its operands
 *    as those of any ALU operation;
 *  - a condition computed by a comparison that only this If reads is not computed at all: the
 *    predicate compares the comparison's operands itself (PRED_SETGE_UINT a, b instead of
 *    SETGE_UINT c, a, b then PRED_SETNE_INT c, 0), which saves the operation, its GPR and
 *    often the group it ended the chain with.
 *
 * The predicate of an inverted If (the then side runs where the condition is zero) is the
 * exact negation of the comparison: E <-> NE, GT(a, b) <-> GE(b, a) for signed and unsigned
 * integers. For floats only E <-> NE: the ordered comparisons are false when an operand is
 * NaN, so !(a > b) is no PRED_SET*; SETNE_DX10 (fneu) and PRED_SETNE both hold for NaN
 * operands and SETE_DX10 / PRED_SETE do not (the ISA documents define the SET* and PRED_SET*
 * comparisons alike; r600g selects SETNE_DX10 for NIR's unordered fneu32, LLVM R600 for
 * SETUNE), so !feq = PRED_SETNE and !fneu = PRED_SETE. Tested on the simulator with NaN
 * operands (tests/compiler/test_branch_predicates.cpp). */
#include "branch_predicates.h"
#include "compiler/isa/words.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <string_view>

namespace terakan::compiler {

namespace {

struct PredicateForm {
   std::string_view comparison; /* the SET* operation that computes a condition */
   const char *predicate;       /* the same comparison as a PRED_SET* */
   const char *negated;         /* its exact negation, or nullptr */
   bool negation_swaps;         /* the negation takes the operands swapped */
};

/* The comparisons instruction selection emits for NIR's 32-bit comparisons (select.cpp). */
constexpr PredicateForm forms[] = {
   {"SETE_INT", "PRED_SETE_INT", "PRED_SETNE_INT", false},
   {"SETNE_INT", "PRED_SETNE_INT", "PRED_SETE_INT", false},
   {"SETGT_INT", "PRED_SETGT_INT", "PRED_SETGE_INT", true},
   {"SETGE_INT", "PRED_SETGE_INT", "PRED_SETGT_INT", true},
   {"SETGT_UINT", "PRED_SETGT_UINT", "PRED_SETGE_UINT", true},
   {"SETGE_UINT", "PRED_SETGE_UINT", "PRED_SETGT_UINT", true},
   {"SETE_DX10", "PRED_SETE", "PRED_SETNE", false},
   {"SETNE_DX10", "PRED_SETNE", "PRED_SETE", false},
   {"SETGT_DX10", "PRED_SETGT", nullptr, false},
   {"SETGE_DX10", "PRED_SETGE", nullptr, false},
};

const PredicateForm *form_of(const AluOp &op)
{
   for (const PredicateForm &form : forms)
      if (form.comparison == op.op->name)
         return &form;
   return nullptr;
}

const isa::AluOpInfo &alu_op(const char *name)
{
   return *isa::find_alu_op(name);
}

/* Operands a predicate may read: GPR values and constants (literals, inline constants and
 * constant-cache dwords, which the scheduler locks for the clause like any operation's). */
bool predicate_operand(const Operand &o)
{
   return o.kind == OperandKind::Value || o.kind == OperandKind::Literal || o.kind == OperandKind::Inline ||
          o.kind == OperandKind::Kcache;
}

class PredicateFormer {
public:
   explicit PredicateFormer(SelectedProgram &program) : program(program) {}

   void run()
   {
      count_accesses();
      std::vector<Node> nodes;
      std::vector<int> moved(program.nodes.size(), -1);
      std::vector<bool> removed(program.nodes.size(), false);
      /* Folded comparisons: their index, and the If whose predicate replaces them. */
      std::vector<std::pair<size_t, size_t>> folded;
      std::vector<Node> predicates(program.nodes.size());
      for (size_t i = 0; i < program.nodes.size(); i++) {
         if (program.nodes[i].kind != NodeKind::If || program.nodes[i].condition == no_value)
            continue;
         predicates[i] = predicate_for(i, removed, folded);
      }
      for (size_t i = 0; i < program.nodes.size(); i++) {
         if (removed[i])
            continue;
         Node node = program.nodes[i];
         if (node.kind == NodeKind::If && node.condition != no_value) {
            nodes.push_back(predicates[i]);
            predicate_index[i] = int(nodes.size() - 1);
            node.condition = no_value;
            node.invert = false;
         }
         moved[i] = int(nodes.size());
         nodes.push_back(std::move(node));
      }
      /* What had to follow a folded comparison (a later write of a NIR register it read) now
       * follows the predicate, which reads the same operands. */
      for (const auto &[comparison, branch] : folded)
         moved[comparison] = predicate_index[branch];
      renumber(nodes, moved);
      program.nodes = std::move(nodes);
   }

private:
   SelectedProgram &program;
   std::vector<unsigned> writers, reads;
   std::map<size_t, int> predicate_index; /* If (old index) -> its predicate (new index) */

   void count_accesses()
   {
      writers.assign(program.values.size(), 0);
      reads.assign(program.values.size(), 0);
      for (const Node &node : program.nodes) {
         if (node.kind == NodeKind::Alu && node.alu.dst != no_value)
            writers[node.alu.dst]++;
         if (node.kind == NodeKind::Fetch)
            for (unsigned v : node.fetch.results())
               writers[v]++;
         for_each_value_read(node, [&](unsigned v) { reads[v]++; });
      }
   }

   static void renumber(std::vector<Node> &nodes, const std::vector<int> &moved)
   {
      for (Node &node : nodes) {
         std::vector<unsigned> after;
         for (unsigned before : node.after)
            if (before < moved.size() && moved[before] >= 0)
               after.push_back(unsigned(moved[before]));
         node.after = std::move(after);
      }
   }

   bool writes(const Node &node, unsigned value) const
   {
      if (node.kind == NodeKind::Alu)
         return node.alu.dst == value;
      if (node.kind == NodeKind::Fetch) {
         const std::vector<unsigned> results = node.fetch.results();
         return std::find(results.begin(), results.end(), value) != results.end();
      }
      return false;
   }

   /* The ALU node in the stretch before node `at` (no marker between) that computes
    * `condition`, when it is its only writer and the If its only reader; -1 otherwise. */
   int single_use_producer(size_t at, unsigned condition, const std::vector<bool> &removed) const
   {
      const ValueInfo &info = program.values[condition];
      if (writers[condition] != 1 || reads[condition] != 1 || info.fixed_gpr >= 0 || info.whole_program ||
          info.gpr_group >= 0)
         return -1;
      for (size_t j = at; j-- > 0;) {
         const Node &node = program.nodes[j];
         if (is_marker(node.kind))
            return -1;
         if (removed[j] || node.kind != NodeKind::Alu || node.alu.dst != condition)
            continue;
         if (node.alu.clamp || node.bundle >= 0 || is_ordered_memory_op(node.alu))
            return -1;
         /* Its operands must still hold the same values at the If: no NIR register it reads
          * is written in between. */
         for (unsigned s = 0; s < node.alu.op->sources; s++) {
            const Operand &o = node.alu.src[s];
            if (!predicate_operand(o))
               return -1;
            if (!o.is_value())
               continue;
            for (size_t k = j + 1; k < at; k++)
               if (!removed[k] && writes(program.nodes[k], o.value))
                  return -1;
         }
         return int(j);
      }
      return -1;
   }

   Node predicate_for(size_t at, std::vector<bool> &removed, std::vector<std::pair<size_t, size_t>> &folded)
   {
      const Node &branch = program.nodes[at];
      unsigned condition = branch.condition;
      bool invert = branch.invert;
      Node predicate;
      predicate.kind = NodeKind::Alu;
      predicate.after = branch.after;
      for (;;) {
         const int producer = single_use_producer(at, condition, removed);
         if (producer < 0)
            break;
         const Node &source = program.nodes[size_t(producer)];
         if (source.alu.op->name == "NOT_INT" && source.alu.src[0].is_value() && !source.alu.src[0].neg &&
             !source.alu.src[0].abs) {
            /* if (~c): the If of c, inverted (conditions are 0 or ~0 after
             * nir_lower_bool_to_int32). The NOT's source is then read by the If alone. */
            removed[size_t(producer)] = true;
            folded.push_back({size_t(producer), at});
            predicate.after.insert(predicate.after.end(), source.after.begin(), source.after.end());
            condition = source.alu.src[0].value;
            invert = !invert;
            continue;
         }
         const PredicateForm *form = form_of(source.alu);
         if (!form || (invert && !form->negated))
            break;
         removed[size_t(producer)] = true;
         folded.push_back({size_t(producer), at});
         predicate.after.insert(predicate.after.end(), source.after.begin(), source.after.end());
         predicate.alu.op = &alu_op(invert ? form->negated : form->predicate);
         predicate.alu.src[0] = source.alu.src[0];
         predicate.alu.src[1] = source.alu.src[1];
         if (invert && form->negation_swaps)
            std::swap(predicate.alu.src[0], predicate.alu.src[1]);
         return predicate;
      }
      /* Not a comparison: the condition against zero. */
      predicate.alu.op = &alu_op(invert ? "PRED_SETE_INT" : "PRED_SETNE_INT");
      predicate.alu.src[0] = Operand::of_value(condition);
      predicate.alu.src[1] = Operand{OperandKind::Inline, isa::src_sel::zero};
      return predicate;
   }
};

} // namespace

void form_branch_predicates(SelectedProgram &program)
{
   PredicateFormer(program).run();
}

} // namespace terakan::compiler
