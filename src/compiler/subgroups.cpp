/* Subgroups of one invocation (subgroups.h).
 *
 * A TeraScale wave runs 64 lanes in lockstep, but nothing in the instruction set exchanges values
 * between lanes of an ALU group (no permute, no lane read, no ballot): r600g offers no subgroup
 * operations either. A subgroup of one invocation is a size Vulkan allows (a power of two, at
 * least 1), and every operation over it has an exact answer that needs no other lane: the
 * operations below become those answers. */
#include "subgroups.h"

#include "nir_builder.h"

namespace terakan::compiler {

namespace {

/* The bit `index` of a 4 x 32-bit ballot value. */
nir_ssa_def *ballot_bit(nir_builder *b, nir_ssa_def *ballot, nir_ssa_def *index)
{
   nir_ssa_def *component = nir_ushr_imm(b, index, 5);
   nir_ssa_def *word = nir_channel(b, ballot, 0);
   for (unsigned c = 1; c < 4; c++)
      word = nir_bcsel(b, nir_ieq_imm(b, component, c), nir_channel(b, ballot, c), word);
   return nir_i2b(b, nir_iand_imm(b, nir_ushr(b, word, nir_iand_imm(b, index, 31)), 1));
}

/* A ballot's uvec4 from one bit (the one invocation's, bit 0). */
nir_ssa_def *ballot_of(nir_builder *b, nir_ssa_def *condition, unsigned components)
{
   nir_ssa_def *words[4] = {nir_b2i32(b, condition), nir_imm_int(b, 0), nir_imm_int(b, 0), nir_imm_int(b, 0)};
   return nir_vec(b, words, components);
}

nir_ssa_def *lower(nir_builder *b, nir_intrinsic_instr *intrinsic)
{
   switch (intrinsic->intrinsic) {
   case nir_intrinsic_load_subgroup_size:
      return nir_imm_int(b, 1);
   case nir_intrinsic_load_subgroup_invocation:
      return nir_imm_int(b, 0);
   case nir_intrinsic_load_num_subgroups: {
      /* One subgroup per invocation of the workgroup. */
      nir_ssa_def *size = nir_load_workgroup_size(b);
      return nir_imul(b, nir_imul(b, nir_channel(b, size, 0), nir_channel(b, size, 1)), nir_channel(b, size, 2));
   }
   case nir_intrinsic_load_subgroup_id:
      return nir_load_local_invocation_index(b);
   case nir_intrinsic_load_subgroup_eq_mask:
   case nir_intrinsic_load_subgroup_ge_mask:
   case nir_intrinsic_load_subgroup_le_mask:
      return ballot_of(b, nir_imm_true(b), intrinsic->dest.ssa.num_components);
   case nir_intrinsic_load_subgroup_gt_mask:
   case nir_intrinsic_load_subgroup_lt_mask:
      return ballot_of(b, nir_imm_false(b), intrinsic->dest.ssa.num_components);
   case nir_intrinsic_elect:
      return nir_imm_true(b);
   case nir_intrinsic_vote_all:
   case nir_intrinsic_vote_any:
      return intrinsic->src[0].ssa;
   case nir_intrinsic_vote_feq:
   case nir_intrinsic_vote_ieq:
      return nir_imm_true(b);
   case nir_intrinsic_ballot:
      return ballot_of(b, intrinsic->src[0].ssa, intrinsic->dest.ssa.num_components);
   case nir_intrinsic_ballot_bitfield_extract:
      return ballot_bit(b, intrinsic->src[0].ssa, intrinsic->src[1].ssa);
   /* The ballot operations count only the bottom subgroup-size bits of the value: bit 0. */
   case nir_intrinsic_ballot_bit_count_reduce:
   case nir_intrinsic_ballot_bit_count_inclusive:
      return nir_iand_imm(b, nir_channel(b, intrinsic->src[0].ssa, 0), 1);
   case nir_intrinsic_ballot_bit_count_exclusive:
      return nir_imm_int(b, 0);
   case nir_intrinsic_ballot_find_lsb:
   case nir_intrinsic_ballot_find_msb:
      return nir_imm_int(b, 0); /* bit 0, or no bit set: undefined */
   case nir_intrinsic_read_invocation:
   case nir_intrinsic_read_first_invocation:
   case nir_intrinsic_shuffle:
   case nir_intrinsic_shuffle_xor:
   case nir_intrinsic_shuffle_up:
   case nir_intrinsic_shuffle_down:
   /* Reductions and inclusive scans over one value are that value. */
   case nir_intrinsic_reduce:
   case nir_intrinsic_inclusive_scan:
      return intrinsic->src[0].ssa;
   case nir_intrinsic_exclusive_scan: {
      /* Nothing comes before the one invocation: the operation's identity. */
      const nir_op op = nir_op(nir_intrinsic_reduction_op(intrinsic));
      nir_const_value value = nir_alu_binop_identity(op, intrinsic->dest.ssa.bit_size);
      nir_ssa_def *identity = nir_build_imm(b, 1, intrinsic->dest.ssa.bit_size, &value);
      nir_ssa_def *copies[NIR_MAX_VEC_COMPONENTS];
      for (unsigned c = 0; c < intrinsic->dest.ssa.num_components; c++)
         copies[c] = identity;
      return nir_vec(b, copies, intrinsic->dest.ssa.num_components);
   }
   default:
      return nullptr;
   }
}

bool lower_instruction(nir_builder *b, nir_instr *instr, void *)
{
   if (instr->type != nir_instr_type_intrinsic)
      return false;
   nir_intrinsic_instr *intrinsic = nir_instr_as_intrinsic(instr);
   b->cursor = nir_before_instr(instr);
   nir_ssa_def *replacement = lower(b, intrinsic);
   if (!replacement)
      return false;
   nir_ssa_def_rewrite_uses(&intrinsic->dest.ssa, replacement);
   nir_instr_remove(instr);
   return true;
}

} // namespace

bool lower_subgroups_of_one(nir_shader *shader)
{
   return nir_shader_instructions_pass(shader, lower_instruction, nir_metadata_block_index | nir_metadata_dominance,
                                       nullptr);
}

} // namespace terakan::compiler
