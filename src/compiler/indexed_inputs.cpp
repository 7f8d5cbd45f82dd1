/* Shader inputs indexed at run time (indexed_inputs.h). */
#include "indexed_inputs.h"

#include <cstring>

#include "compiler/nir/nir_builder.h"
#include "compiler/nir/nir_deref.h"

namespace terakan::compiler {
namespace {

bool reads_through_a_deref(nir_intrinsic_op op)
{
   switch (op) {
   case nir_intrinsic_load_deref:
   case nir_intrinsic_interp_deref_at_centroid:
   case nir_intrinsic_interp_deref_at_sample:
   case nir_intrinsic_interp_deref_at_offset:
   case nir_intrinsic_interp_deref_at_vertex:
      return true;
   default:
      return false;
   }
}

/* The read `original` again, from `parent` along the rest of its path (`rest`, null-ended).
 * At an array step whose index is not constant, every element is read and the index picks one
 * with selects, so that no branch separates the lanes of a quad (interpolateAtOffset and
 * interpolateAtSample take the barycentrics' screen gradients from the neighbouring lanes). */
nir_ssa_def *read_selected(nir_builder *b, nir_intrinsic_instr *original, nir_deref_instr *parent,
                           nir_deref_instr **rest)
{
   for (; *rest; rest++) {
      nir_deref_instr *step = *rest;
      if (step->deref_type == nir_deref_type_array && !nir_src_is_const(step->arr.index)) {
         nir_ssa_def *index = nir_ssa_for_src(b, step->arr.index, 1);
         const unsigned length = glsl_get_length(parent->type);
         nir_ssa_def *chosen = nullptr;
         for (unsigned element = length; element-- > 0;) {
            nir_ssa_def *value = read_selected(b, original, nir_build_deref_array_imm(b, parent, element), rest + 1);
            chosen = chosen ? nir_bcsel(b, nir_ieq_imm(b, index, element), value, chosen) : value;
         }
         return chosen;
      }
      parent = nir_build_deref_follower(b, parent, step);
   }
   nir_intrinsic_instr *read = nir_intrinsic_instr_create(b->shader, original->intrinsic);
   read->num_components = original->num_components;
   std::memcpy(read->const_index, original->const_index, sizeof(read->const_index));
   read->src[0] = nir_src_for_ssa(&parent->dest.ssa);
   /* The other sources: interpolateAtSample's sample, interpolateAtOffset's offset. */
   for (unsigned i = 1; i < nir_intrinsic_infos[original->intrinsic].num_srcs; i++)
      nir_src_copy(&read->src[i], &original->src[i], &read->instr);
   nir_ssa_dest_init(&read->instr, &read->dest, original->dest.ssa.num_components, original->dest.ssa.bit_size,
                     nullptr);
   nir_builder_instr_insert(b, &read->instr);
   return &read->dest.ssa;
}

bool lower_instr(nir_builder *b, nir_instr *instr, void *)
{
   if (instr->type != nir_instr_type_intrinsic)
      return false;
   nir_intrinsic_instr *intrinsic = nir_instr_as_intrinsic(instr);
   if (!reads_through_a_deref(intrinsic->intrinsic))
      return false;
   nir_deref_instr *deref = nir_src_as_deref(intrinsic->src[0]);
   if (!nir_deref_mode_is(deref, nir_var_shader_in) || !nir_deref_instr_has_indirect(deref))
      return false;
   nir_deref_path path;
   nir_deref_path_init(&path, deref, nullptr);
   if (path.path[0]->deref_type != nir_deref_type_var) {
      nir_deref_path_finish(&path);
      return false; /* a cast: no input is reached that way */
   }
   b->cursor = nir_before_instr(instr);
   nir_ssa_def *value = read_selected(b, intrinsic, path.path[0], &path.path[1]);
   nir_deref_path_finish(&path);
   nir_ssa_def_rewrite_uses(&intrinsic->dest.ssa, value);
   nir_instr_remove(instr);
   return true;
}

/* A store through a run-time index into an output array: every element the index can name is
 * stored, the new value where the index names it and the element's own value elsewhere, so
 * that the stores stay out of branches (they become selects once the outputs are temporaries
 * in SSA form). */
void store_selected(nir_builder *b, nir_intrinsic_instr *original, nir_deref_instr *parent, nir_deref_instr **rest,
                    nir_ssa_def *chosen_here)
{
   for (; *rest; rest++) {
      nir_deref_instr *step = *rest;
      if (step->deref_type == nir_deref_type_array && !nir_src_is_const(step->arr.index)) {
         nir_ssa_def *index = nir_ssa_for_src(b, step->arr.index, 1);
         const unsigned length = glsl_get_length(parent->type);
         for (unsigned element = 0; element < length; element++) {
            nir_ssa_def *here = nir_ieq_imm(b, index, element);
            store_selected(b, original, nir_build_deref_array_imm(b, parent, element), rest + 1,
                           chosen_here ? nir_iand(b, chosen_here, here) : here);
         }
         return;
      }
      parent = nir_build_deref_follower(b, parent, step);
   }
   nir_ssa_def *value = nir_ssa_for_src(b, original->src[1], original->num_components);
   if (chosen_here)
      value = nir_bcsel(b, chosen_here, value, nir_load_deref(b, parent));
   nir_store_deref(b, parent, value, nir_intrinsic_write_mask(original));
}

bool lower_store(nir_builder *b, nir_instr *instr, void *)
{
   if (instr->type != nir_instr_type_intrinsic)
      return false;
   nir_intrinsic_instr *intrinsic = nir_instr_as_intrinsic(instr);
   if (intrinsic->intrinsic != nir_intrinsic_store_deref)
      return false;
   nir_deref_instr *deref = nir_src_as_deref(intrinsic->src[0]);
   if (!nir_deref_mode_is(deref, nir_var_shader_out) || !nir_deref_instr_has_indirect(deref))
      return false;
   nir_deref_path path;
   nir_deref_path_init(&path, deref, nullptr);
   if (path.path[0]->deref_type != nir_deref_type_var) {
      nir_deref_path_finish(&path);
      return false;
   }
   b->cursor = nir_before_instr(instr);
   store_selected(b, intrinsic, path.path[0], &path.path[1], nullptr);
   nir_deref_path_finish(&path);
   nir_instr_remove(instr);
   return true;
}

} // namespace

bool lower_indexed_outputs(nir_shader *shader)
{
   const bool progress =
      nir_shader_instructions_pass(shader, lower_store, nir_metadata_block_index | nir_metadata_dominance, nullptr);
   if (progress)
      nir_opt_dce(shader);
   return progress;
}

bool lower_indexed_inputs(nir_shader *shader)
{
   const bool progress =
      nir_shader_instructions_pass(shader, lower_instr, nir_metadata_block_index | nir_metadata_dominance, nullptr);
   if (progress)
      nir_opt_dce(shader); /* the old derefs */
   return progress;
}

} // namespace terakan::compiler
