/* Gathers the way the TEX unit's GATHER4 wants them.
 *
 * - textureGatherOffsets (four offsets, one per texel) becomes four gathers with one constant
 *   offset each, whose texels 3 are the result (nir_lower_tex's lower_tg4_offsets): GATHER4's
 *   OFFSET fields take one offset.
 * - On integer textures the hardware places the gather footprint as nearest filtering
 *   rounds, half a texel further than bilinear filtering does (Mesa r600's comment on
 *   r600_nir_lower_int_tg4, which works around it the same way): normalized coordinates move
 *   back by 0.5 / the base level's size, taken with a size query. The simulator's texture
 *   unit models the hardware rule (texture_unit.cpp, run_gather).
 * - textureGatherOffset with an offset known only at run time (shaderImageGatherExtended):
 *   the coordinates move by offset / the base level's size instead, since Vulkan adds the
 *   offset to the texel coordinates before wrapping, which is the same footprint. The hardware
 *   has GATHER4_O, which takes the offsets from a SET_TEXTURE_OFFSETS fetch in its clause
 *   (Mesa r600 r600_shader.c tgsi_tex, sfn emit_set_offsets), but that would need the
 *   scheduler to place a second fetch beside the gather, and the simulator would have to
 *   model a register format no document gives (r600g passes integer texels). */
#include "gather_lowering.h"

#include "compiler/nir/nir_builder.h"
#include "compiler/nir/nir_builtin_builder.h"

namespace terakan::compiler {

namespace {

bool shift_integer_gather(nir_builder *b, nir_tex_instr *tex)
{
   if (tex->op != nir_texop_tg4 || nir_alu_type_get_base_type(tex->dest_type) == nir_type_float ||
       tex->sampler_dim != GLSL_SAMPLER_DIM_2D)
      return false;
   const int coord_index = nir_tex_instr_src_index(tex, nir_tex_src_coord);
   if (coord_index < 0)
      return false;
   nir_ssa_def *size = nir_i2f32(b, nir_channels(b, nir_get_texture_size(b, tex), 0x3));
   b->cursor = nir_before_instr(&tex->instr);
   nir_ssa_def *coord = tex->src[coord_index].src.ssa;
   nir_ssa_def *half_texel = nir_fdiv(b, nir_imm_float(b, 0.5f), size);
   nir_ssa_def *moved = nir_fsub(b, nir_channels(b, coord, 0x3), half_texel);
   nir_ssa_def *channels[4] = {nir_channel(b, moved, 0), nir_channel(b, moved, 1), nullptr, nullptr};
   for (unsigned c = 2; c < coord->num_components; c++)
      channels[c] = nir_channel(b, coord, c);
   nir_instr_rewrite_src(&tex->instr, &tex->src[coord_index].src,
                         nir_src_for_ssa(nir_vec(b, channels, coord->num_components)));
   return true;
}

/* A gather whose offset is not a constant: the offset in texels over the base level's size
 * added to the normalized coordinates, and the offset source removed. */
bool move_by_run_time_offset(nir_builder *b, nir_tex_instr *tex)
{
   if (tex->op != nir_texop_tg4)
      return false;
   const int offset_index = nir_tex_instr_src_index(tex, nir_tex_src_offset);
   const int coord_index = nir_tex_instr_src_index(tex, nir_tex_src_coord);
   if (offset_index < 0 || coord_index < 0 || nir_src_is_const(tex->src[offset_index].src))
      return false;
   nir_ssa_def *size_query = nir_get_texture_size(b, tex);
   /* A size query compares nothing, whatever the gather does. */
   nir_instr_as_tex(size_query->parent_instr)->is_shadow = false;
   nir_ssa_def *size = nir_i2f32(b, nir_channels(b, size_query, 0x3));
   b->cursor = nir_before_instr(&tex->instr);
   nir_ssa_def *coord = tex->src[coord_index].src.ssa;
   nir_ssa_def *offset = nir_i2f32(b, nir_channels(b, tex->src[offset_index].src.ssa, 0x3));
   nir_ssa_def *moved = nir_fadd(b, nir_channels(b, coord, 0x3), nir_fdiv(b, offset, size));
   nir_ssa_def *channels[4] = {nir_channel(b, moved, 0), nir_channel(b, moved, 1), nullptr, nullptr};
   for (unsigned c = 2; c < coord->num_components; c++)
      channels[c] = nir_channel(b, coord, c);
   nir_instr_rewrite_src(&tex->instr, &tex->src[coord_index].src,
                         nir_src_for_ssa(nir_vec(b, channels, coord->num_components)));
   nir_tex_instr_remove_src(tex, unsigned(offset_index));
   return true;
}

} // namespace

bool lower_gathers(nir_shader *shader)
{
   nir_lower_tex_options one_offset_each = {};
   one_offset_each.lower_tg4_offsets = true;
   bool progress = false;
   NIR_PASS(progress, shader, nir_lower_tex, &one_offset_each);
   nir_foreach_function(function, shader) {
      if (!function->impl)
         continue;
      nir_builder b;
      nir_builder_init(&b, function->impl);
      bool shifted = false;
      nir_foreach_block(block, function->impl) {
         nir_foreach_instr_safe(instr, block) {
            if (instr->type == nir_instr_type_tex) {
               shifted |= move_by_run_time_offset(&b, nir_instr_as_tex(instr));
               shifted |= shift_integer_gather(&b, nir_instr_as_tex(instr));
            }
         }
      }
      nir_metadata_preserve(function->impl, shifted ? nir_metadata_block_index | nir_metadata_dominance
                                                    : nir_metadata_all);
      progress |= shifted;
   }
   return progress;
}

} // namespace terakan::compiler
