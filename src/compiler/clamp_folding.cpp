/* fsat is selected as a MOV with the CLAMP output modifier. Where the value it clamps is the
 * result of a float operation read by that MOV only, the operation itself takes CLAMP and
 * writes the clamped value: a slot and one dependent group fewer (r600g does the same and
 * prints such operations as MUL_IEEE_sat). Every ALU result passes through the output
 * modifiers before it is written (and before PV/PS see it), so the bits are those the MOV
 * would have produced (docs/sim-semantics.md). The MOV is left writing a value nobody reads,
 * for remove_dead_operations. */
#include "clamp_folding.h"

#include <set>
#include <string_view>

namespace terakan::compiler {

namespace {

/* Operations with a float result to which CLAMP (to [0, 1], NaN to 0) may apply. */
bool clamps_float_result(const AluOp &op)
{
   static const std::set<std::string_view> float_results = {
      "ADD", "MUL", "MUL_IEEE", "MULADD", "MULADD_IEEE", "MAX", "MIN", "MAX_DX10", "MIN_DX10",
      "FRACT", "TRUNC", "CEIL", "FLOOR", "RNDNE", "EXP_IEEE", "LOG_IEEE", "RECIP_IEEE",
      "RECIPSQRT_IEEE", "SQRT_IEEE", "SIN", "COS", "MOV", "INT_TO_FLT", "UINT_TO_FLT",
   };
   return float_results.count(op.op->name) != 0;
}

bool plain_value(const ValueInfo &info)
{
   return info.fixed_gpr < 0 && !info.whole_program && info.gpr_group < 0;
}

} // namespace

void fold_clamps(SelectedProgram &program)
{
   const size_t count = program.values.size();
   std::vector<int> producer(count, -1);
   std::vector<unsigned> reads(count, 0);
   for (size_t i = 0; i < program.nodes.size(); i++) {
      const Node &node = program.nodes[i];
      if (node.kind == NodeKind::Alu && node.alu.dst != no_value)
         producer[node.alu.dst] = producer[node.alu.dst] == -1 ? int(i) : -2;
      for_each_value_read(node, [&](unsigned v) { reads[v]++; });
   }
   /* Nodes that others must follow keep their place and their result. */
   std::vector<bool> ordered(program.nodes.size(), false);
   for (const Node &node : program.nodes)
      for (unsigned before : node.after)
         ordered[before] = true;

   for (size_t i = 0; i < program.nodes.size(); i++) {
      Node &move = program.nodes[i];
      if (move.kind != NodeKind::Alu || move.alu.op->name != "MOV" || !move.alu.clamp ||
          move.bundle >= 0 || move.alu.dst == no_value || ordered[i])
         continue;
      const Operand &source = move.alu.src[0];
      if (!source.is_value() || source.neg || source.abs || reads[source.value] != 1 ||
          producer[source.value] < 0)
         continue;
      const unsigned s = source.value, d = move.alu.dst;
      Node &writer = program.nodes[size_t(producer[s])];
      const ValueInfo &from = program.values[s], &to = program.values[d];
      if (writer.bundle >= 0 || is_ordered_memory_op(writer.alu) || !clamps_float_result(writer.alu) ||
          ordered[size_t(producer[s])] || !plain_value(from) || !plain_value(to) ||
          (to.required_chan >= 0 && to.required_chan != from.required_chan))
         continue;
      writer.alu.clamp = true;
      writer.alu.dst = d;
      program.values[d].required_chan = from.required_chan; /* where the writer can put it */
      producer[d] = producer[s];
      producer[s] = -1;
      move.alu.dst = program.new_value(); /* read by nobody: removed as dead */
   }
}

} // namespace terakan::compiler
