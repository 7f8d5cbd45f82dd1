/* Terminate and discard that must leave loops (terminate_lowering.h). */
#include "terminate_lowering.h"

#include <algorithm>
#include <vector>

#include "compiler/nir/nir_builder.h"

namespace terakan::compiler {
namespace {

bool is_terminate(const nir_intrinsic_instr *intrinsic)
{
   switch (intrinsic->intrinsic) {
   case nir_intrinsic_discard:
   case nir_intrinsic_discard_if:
   case nir_intrinsic_terminate:
   case nir_intrinsic_terminate_if:
      return true;
   default:
      return false;
   }
}

bool inside_loop(const nir_block *block)
{
   for (const nir_cf_node *node = block->cf_node.parent; node && node->type != nir_cf_node_function; node = node->parent)
      if (node->type == nir_cf_node_loop)
         return true;
   return false;
}

/* The highest index of a block that starts a loop (-1 without loops). */
int last_loop_start(nir_function_impl *impl)
{
   int last = -1;
   nir_foreach_block(block, impl) {
      if (block->cf_node.parent && block->cf_node.parent->type == nir_cf_node_loop &&
          block == nir_loop_first_block(nir_cf_node_as_loop(block->cf_node.parent)))
         last = std::max(last, int(block->index));
   }
   return last;
}

} // namespace

bool lower_terminate_before_loops(nir_shader *shader)
{
   if (shader->info.stage != MESA_SHADER_FRAGMENT)
      return false;
   nir_function_impl *impl = nir_shader_get_entrypoint(shader);
   nir_metadata_require(impl, nir_metadata_block_index);
   const int last_loop = last_loop_start(impl);
   if (last_loop < 0)
      return false;

   std::vector<nir_intrinsic_instr *> found;
   nir_foreach_block(block, impl) {
      nir_foreach_instr(instr, block) {
         if (instr->type != nir_instr_type_intrinsic || !is_terminate(nir_instr_as_intrinsic(instr)))
            continue;
         if (inside_loop(block) || int(block->index) < last_loop)
            found.push_back(nir_instr_as_intrinsic(instr));
      }
   }
   if (found.empty())
      return false;

   nir_builder builder;
   nir_builder_init(&builder, impl);
   for (nir_intrinsic_instr *terminate : found) {
      builder.cursor = nir_before_instr(&terminate->instr);
      const bool conditional = terminate->intrinsic == nir_intrinsic_discard_if ||
                               terminate->intrinsic == nir_intrinsic_terminate_if;
      nir_ssa_def *condition = conditional ? terminate->src[0].ssa : nir_imm_true(&builder);
      /* An if of its own: a jump must end its block, and the terminate may not. */
      nir_push_if(&builder, condition);
      nir_demote(&builder);
      nir_jump(&builder, nir_jump_return);
      nir_pop_if(&builder, nullptr);
      nir_instr_remove(&terminate->instr);
   }
   nir_metadata_preserve(impl, nir_metadata_none);
   /* The returns become breaks out of the loops and guards around what follows. */
   nir_lower_returns(shader);
   return true;
}

} // namespace terakan::compiler
