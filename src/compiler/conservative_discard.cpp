/* The multisample discard for conservative rasterization (conservative_discard.h). */
#include "conservative_discard.h"

#include "compiler/nir/nir_builder.h"

namespace terakan::compiler {

void add_conservative_discard(nir_shader *shader, unsigned first_location)
{
   nir_function_impl *impl = nir_shader_get_entrypoint(shader);
   nir_builder builder;
   nir_builder_init(&builder, impl);
   nir_builder *b = &builder;
   b->cursor = nir_before_cf_list(&impl->body);
   /* FragCoord at the pixel centre (the discard is per pixel: a touched pixel keeps all its
    * samples). */
   nir_ssa_def *position = nir_load_frag_coord(b);
   nir_ssa_def *outside = nir_imm_false(b);
   for (unsigned e = 0; e < 3; e++) {
      nir_variable *edge = nir_variable_create(shader, nir_var_shader_in, glsl_vec4_type(), "conservative_edge");
      edge->data.location = int(VARYING_SLOT_VAR0 + first_location + e);
      edge->data.interpolation = INTERP_MODE_FLAT;
      nir_ssa_def *abc = nir_load_var(b, edge);
      nir_ssa_def *distance =
         nir_ffma(b, nir_channel(b, abc, 0), nir_channel(b, position, 0),
                  nir_ffma(b, nir_channel(b, abc, 1), nir_channel(b, position, 1), nir_channel(b, abc, 2)));
      outside = nir_ior(b, outside, nir_flt(b, distance, nir_imm_float(b, 0.0f)));
   }
   nir_push_if(b, outside);
   nir_discard(b);
   nir_pop_if(b, nullptr);
   nir_metadata_preserve(impl, nir_metadata_none);
}

} // namespace terakan::compiler
