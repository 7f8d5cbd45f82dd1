/* nir_lower_io leaves each pixel-shader input read where the program reads the variable, so a
 * small if/else that reads an input on either side (`c = text ? colour.a * t : t * colour`)
 * keeps its branches: nir_opt_peephole_select in Mesa 22.3 flattens branches whose
 * intrinsics it knows to be free of side effects, and load_barycentric_* and
 * load_interpolated_input are not among them. An interpolated input costs the same wherever it
 * is computed (INTERP_* are ALU operations on the SPI's I/J GPRs, with no derivatives), so
 * reading it once at the top changes no result and lets those branches become selects. r600g
 * interpolates its inputs at the start of the program too. Reads whose barycentric pair
 * depends on the program (interpolateAtOffset/Sample) stay where they are. */
#include "input_hoisting.h"

#include <unordered_set>
#include <vector>

namespace terakan::compiler {

namespace {

bool fixed_barycentric(const nir_intrinsic_instr *intrinsic)
{
   switch (intrinsic->intrinsic) {
   case nir_intrinsic_load_barycentric_pixel:
   case nir_intrinsic_load_barycentric_centroid:
   case nir_intrinsic_load_barycentric_sample:
      return true;
   default:
      return false;
   }
}

bool is_constant(const nir_src &src) { return src.is_ssa && src.ssa->parent_instr->type == nir_instr_type_load_const; }

/* Whether `intrinsic` is an input read computed from what the start of the program has. */
bool hoistable(const nir_intrinsic_instr *intrinsic)
{
   switch (intrinsic->intrinsic) {
   case nir_intrinsic_load_interpolated_input: {
      const nir_src &pair = intrinsic->src[0];
      return pair.is_ssa && pair.ssa->parent_instr->type == nir_instr_type_intrinsic &&
             fixed_barycentric(nir_instr_as_intrinsic(pair.ssa->parent_instr)) && is_constant(intrinsic->src[1]);
   }
   case nir_intrinsic_load_input:
      return is_constant(intrinsic->src[0]);
   default:
      return false;
   }
}

} // namespace

bool hoist_fragment_inputs(nir_shader *shader)
{
   if (shader->info.stage != MESA_SHADER_FRAGMENT)
      return false;
   nir_function_impl *entry = nir_shader_get_entrypoint(shader);
   nir_block *start = nir_start_block(entry);
   /* The reads to move, in program order (the start block's own ones too: they move above
    * any code before them, which keeps their relative order). */
   std::vector<nir_intrinsic_instr *> reads;
   nir_foreach_block(block, entry) {
      nir_foreach_instr(instr, block) {
         if (instr->type == nir_instr_type_intrinsic && hoistable(nir_instr_as_intrinsic(instr)))
            reads.push_back(nir_instr_as_intrinsic(instr));
      }
   }
   bool outside_start = false;
   for (nir_intrinsic_instr *read : reads)
      outside_start |= read->instr.block != start;
   if (!outside_start)
      return false;

   std::unordered_set<nir_instr *> moved;
   nir_cursor cursor = nir_before_block(start);
   /* Moves `instr` to the cursor unless it was moved already; a constant or a barycentric
    * pair has no operands, so everything it depends on is above it. */
   auto move = [&](nir_instr *instr) {
      if (!moved.insert(instr).second)
         return;
      nir_instr_remove(instr);
      nir_instr_insert(cursor, instr);
      cursor = nir_after_instr(instr);
   };
   for (nir_intrinsic_instr *read : reads) {
      for (unsigned s = 0; s < nir_intrinsic_infos[read->intrinsic].num_srcs; s++)
         move(read->src[s].ssa->parent_instr);
      move(&read->instr);
   }
   nir_metadata_preserve(entry, nir_metadata_block_index | nir_metadata_dominance);
   return true;
}

} // namespace terakan::compiler
