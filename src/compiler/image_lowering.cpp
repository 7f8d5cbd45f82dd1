/* Storage images and texel buffers to texture fetches and typed RAT stores (image_lowering.h). */
#include "image_lowering.h"

#include "compiler/glsl_types.h"
#include "compiler/nir/nir_builder.h"
#include "compiler/nir_types.h"

namespace terakan::compiler {
namespace {

class ImageLowering {
public:
   ImageLowering(nir_shader *shader, const CompileOptions &options, std::string &error)
      : shader(shader), options(options), error(error)
   {
   }

   bool run()
   {
      nir_function_impl *impl = nir_shader_get_entrypoint(shader);
      nir_builder_init(&builder, impl);
      std::vector<nir_intrinsic_instr *> work;
      nir_foreach_block(block, impl) {
         nir_foreach_instr(instr, block) {
            if (instr->type != nir_instr_type_intrinsic)
               continue;
            nir_intrinsic_instr *intrinsic = nir_instr_as_intrinsic(instr);
            switch (intrinsic->intrinsic) {
            case nir_intrinsic_image_deref_load:
            case nir_intrinsic_image_deref_store:
            case nir_intrinsic_image_deref_size:
            case nir_intrinsic_image_deref_atomic_add:
            case nir_intrinsic_image_deref_atomic_imin:
            case nir_intrinsic_image_deref_atomic_umin:
            case nir_intrinsic_image_deref_atomic_imax:
            case nir_intrinsic_image_deref_atomic_umax:
            case nir_intrinsic_image_deref_atomic_and:
            case nir_intrinsic_image_deref_atomic_or:
            case nir_intrinsic_image_deref_atomic_xor:
            case nir_intrinsic_image_deref_atomic_exchange:
            case nir_intrinsic_image_deref_atomic_comp_swap:
               work.push_back(intrinsic);
               break;
            case nir_intrinsic_image_deref_samples:
               return fail("imageSamples is not supported (multisampled storage images are not)");
            case nir_intrinsic_image_deref_sparse_load:
               return fail("sparse image loads are not supported");
            default:
               if (nir_intrinsic_infos[intrinsic->intrinsic].name &&
                   std::string_view(nir_intrinsic_infos[intrinsic->intrinsic].name).starts_with("image_deref_atomic"))
                  return fail(std::string("the image atomic ") + nir_intrinsic_infos[intrinsic->intrinsic].name +
                              " is not supported (integer add, min, max, and, or, xor, exchange and "
                              "compare-exchange are)");
               break;
            }
         }
      }
      for (nir_intrinsic_instr *intrinsic : work)
         if (!lower(intrinsic))
            return false;
      nir_metadata_preserve(impl, nir_metadata_none);
      return true;
   }

private:
   nir_shader *shader;
   const CompileOptions &options;
   std::string &error;
   nir_builder builder;

   bool fail(const std::string &message)
   {
      error = message;
      return false;
   }

   bool lower(nir_intrinsic_instr *intrinsic)
   {
      nir_deref_instr *deref = nir_src_as_deref(intrinsic->src[0]);
      const glsl_sampler_dim dim = nir_intrinsic_image_dim(intrinsic);
      switch (dim) {
      case GLSL_SAMPLER_DIM_1D:
      case GLSL_SAMPLER_DIM_2D:
      case GLSL_SAMPLER_DIM_3D:
      case GLSL_SAMPLER_DIM_BUF:
         break;
      case GLSL_SAMPLER_DIM_CUBE:
         /* A cube's faces (a cube array's layers x 6 + face) are the slices of a 2D array: the
          * driver binds cube storage views as 2D arrays (terakan_storage_images.cpp). */
         break;
      case GLSL_SAMPLER_DIM_MS:
         return fail("multisampled storage images are not supported");
      default:
         return fail("this storage image dimension is not supported");
      }
      if (nir_src_bit_size(intrinsic->src[1]) != 32)
         return fail("only 32-bit image coordinates are supported");
      switch (intrinsic->intrinsic) {
      case nir_intrinsic_image_deref_load: return lower_to_texture(intrinsic, deref, nir_texop_txf);
      case nir_intrinsic_image_deref_size: /* a texel buffer's: select.cpp, select_texel_buffer_size */
         return lower_to_texture(intrinsic, deref, nir_texop_txs);
      default: /* stores and atomics: the RAT of the element */
         return lower_store(intrinsic, deref);
      }
   }

   /* A store's or atomic's RAT: first_rat of its binding + the (constant) element. */
   bool lower_store(nir_intrinsic_instr *intrinsic, nir_deref_instr *deref)
   {
      unsigned element = 0;
      nir_deref_instr *variable_deref = deref;
      if (deref->deref_type == nir_deref_type_array) {
         if (!nir_src_is_const(deref->arr.index))
            return fail("stores and atomics on an array of storage images indexed at run time are not supported yet");
         element = unsigned(nir_src_as_uint(deref->arr.index));
         variable_deref = nir_deref_instr_parent(deref);
      }
      if (variable_deref->deref_type != nir_deref_type_var)
         return fail("a storage image reached through a struct or an array of arrays is not supported");
      const nir_variable *variable = variable_deref->var;
      const unsigned set = variable->data.descriptor_set, binding = variable->data.binding;
      if (options.texture_bindings.empty())
         return fail("storage images are not supported without a pipeline layout (the compiler's default ABI "
                     "has no RATs for them)");
      for (const TextureBinding &b : options.texture_bindings) {
         if (b.set != set || b.binding != binding)
            continue;
         if (b.first_rat < 0)
            return fail("set " + std::to_string(set) + " binding " + std::to_string(binding) +
                        ": the shader stores to it and the pipeline layout does not make it a storage image");
         if (element >= b.count)
            return fail("a storage image array element beyond the binding's descriptors");
         const unsigned rat = unsigned(b.first_rat) + element;
         if (rat >= max_storage_buffer_slots)
            return fail("RAT " + std::to_string(rat) + " is beyond the 8 a stage has (storage buffers, "
                        "storage images and storage texel buffers share them)");
         builder.cursor = nir_before_instr(&intrinsic->instr);
         nir_rewrite_image_intrinsic(intrinsic, nir_imm_int(&builder, int(rat)), false);
         return true;
      }
      return fail("set " + std::to_string(set) + " binding " + std::to_string(binding) +
                  " is not in the pipeline layout");
   }

   /* imageLoad as texelFetch (level 0 of the view) and imageSize as textureSize: the image's
    * deref becomes the texture deref. */
   bool lower_to_texture(nir_intrinsic_instr *intrinsic, nir_deref_instr *deref, nir_texop op)
   {
      nir_builder *b = &builder;
      b->cursor = nir_before_instr(&intrinsic->instr);
      const glsl_sampler_dim image_dim = nir_intrinsic_image_dim(intrinsic);
      const bool cube = image_dim == GLSL_SAMPLER_DIM_CUBE;
      /* Cubes are read as 2D arrays of faces (the coordinates are already x, y, face). */
      const glsl_sampler_dim dim = cube ? GLSL_SAMPLER_DIM_2D : image_dim;
      const bool array = nir_intrinsic_image_array(intrinsic) || cube;
      const bool buffer = dim == GLSL_SAMPLER_DIM_BUF;
      const unsigned sources = op == nir_texop_txf ? (buffer ? 2 : 3) : 2;
      nir_tex_instr *tex = nir_tex_instr_create(shader, sources);
      tex->op = op;
      tex->sampler_dim = dim;
      tex->is_array = array;
      tex->coord_components = cube ? 3 : nir_image_intrinsic_coord_components(intrinsic);
      tex->texture_index = 0;
      tex->sampler_index = 0;
      unsigned s = 0;
      tex->src[s].src_type = nir_tex_src_texture_deref;
      tex->src[s++].src = nir_src_for_ssa(&deref->dest.ssa);
      if (op == nir_texop_txf) {
         tex->dest_type = nir_intrinsic_dest_type(intrinsic);
         tex->src[s].src_type = nir_tex_src_coord;
         tex->src[s++].src =
            nir_src_for_ssa(nir_channels(b, intrinsic->src[1].ssa, nir_component_mask(tex->coord_components)));
         if (!buffer) {
            tex->src[s].src_type = nir_tex_src_lod;
            tex->src[s++].src = nir_src_for_ssa(nir_imm_int(b, 0));
         }
      } else {
         tex->dest_type = nir_type_int32;
         tex->src[s].src_type = nir_tex_src_lod;
         tex->src[s++].src = nir_src_for_ssa(intrinsic->src[1].ssa);
      }
      const unsigned components = op == nir_texop_txf ? 4 : cube ? 3 : nir_dest_num_components(intrinsic->dest);
      nir_ssa_dest_init(&tex->instr, &tex->dest, components, 32, nullptr);
      nir_builder_instr_insert(b, &tex->instr);
      nir_ssa_def *result = &tex->dest.ssa;
      /* imageSize of a cube array counts cubes: the 2D array's layers / 6. */
      if (op == nir_texop_txs && cube && nir_intrinsic_image_array(intrinsic))
         result = nir_vec3(b, nir_channel(b, result, 0), nir_channel(b, result, 1),
                           nir_udiv_imm(b, nir_channel(b, result, 2), 6));
      if (nir_dest_num_components(intrinsic->dest) != components)
         result = nir_channels(b, result, nir_component_mask(nir_dest_num_components(intrinsic->dest)));
      nir_ssa_def_rewrite_uses(&intrinsic->dest.ssa, result);
      nir_instr_remove(&intrinsic->instr);
      return true;
   }
};

} // namespace

bool lower_images(nir_shader *shader, const CompileOptions &options, std::string &error)
{
   ImageLowering lowering(shader, options, error);
   return lowering.run();
}

} // namespace terakan::compiler
