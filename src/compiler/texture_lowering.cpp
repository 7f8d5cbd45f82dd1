/* Texture operations to constant slots, with the coordinate choice of each sample
 * (texture_lowering.h). */
#include "texture_lowering.h"

#include <map>
#include <set>
#include <tuple>

#include "compiler/glsl_types.h"
#include "compiler/nir/nir_builder.h"
#include "compiler/nir_types.h"

namespace terakan::compiler {
namespace {

struct DerefElement {
   nir_variable *variable = nullptr;
   nir_deref_instr *array = nullptr; /* the array deref, or null for a single descriptor */
   bool constant = true;
   unsigned element = 0;
   unsigned length = 1;
};

class TextureLowering {
public:
   TextureLowering(nir_shader *shader, const CompileOptions &options,
                   std::vector<SamplerRecord> &records, std::string &error)
      : shader(shader), options(options), records(records), error(error)
   {
   }

   bool run()
   {
      nir_function_impl *impl = nir_shader_get_entrypoint(shader);
      nir_builder_init(&builder, impl);

      /* First every run-time index becomes a chain of constant-index samples; the chain's new
       * samples are lowered again (a separate sampler may still be indexed at run time). */
      std::vector<nir_tex_instr *> work = collect(impl);
      while (!work.empty()) {
         nir_tex_instr *tex = work.back();
         work.pop_back();
         bool changed = false;
         if (!split_run_time_index(tex, nir_tex_src_texture_deref, work, changed))
            return false;
         if (!changed && !split_run_time_index(tex, nir_tex_src_sampler_deref, work, changed))
            return false;
      }
      /* Then every sample gets its slots and its coordinate choice. */
      for (nir_tex_instr *tex : collect(impl))
         if (!assign(tex))
            return false;
      nir_metadata_preserve(impl, nir_metadata_none);
      return true;
   }

private:
   nir_shader *shader;
   const CompileOptions &options;
   std::vector<SamplerRecord> &records;
   std::string &error;
   nir_builder builder;
   std::set<nir_tex_instr *> sampler_indexed_at_run_time;

   bool fail(const std::string &message)
   {
      error = message;
      return false;
   }

   static std::vector<nir_tex_instr *> collect(nir_function_impl *impl)
   {
      std::vector<nir_tex_instr *> list;
      nir_foreach_block(block, impl) {
         nir_foreach_instr(instr, block) {
            if (instr->type == nir_instr_type_tex)
               list.push_back(nir_instr_as_tex(instr));
         }
      }
      return list;
   }

   bool element_of(nir_tex_instr *tex, nir_tex_src_type type, DerefElement &out)
   {
      const int index = nir_tex_instr_src_index(tex, type);
      if (index < 0)
         return true;
      nir_deref_instr *deref = nir_src_as_deref(tex->src[index].src);
      if (deref->deref_type == nir_deref_type_array) {
         nir_deref_instr *parent = nir_deref_instr_parent(deref);
         if (parent->deref_type != nir_deref_type_var)
            return fail("arrays of arrays of images or samplers are not supported");
         out.variable = parent->var;
         out.array = deref;
         out.length = glsl_get_length(parent->type);
         if (out.length == 0)
            return fail("unsized arrays of images or samplers are not supported");
         out.constant = nir_src_is_const(deref->arr.index);
         if (out.constant)
            out.element = unsigned(nir_src_as_uint(deref->arr.index));
      } else if (deref->deref_type == nir_deref_type_var) {
         out.variable = deref->var;
      } else {
         return fail("an image or sampler reached through a cast or a struct is not supported");
      }
      return true;
   }

   /* tex with a run-time index in its `type` deref: one sample per element, each under
    * "index == element", merged by phis. */
   bool split_run_time_index(nir_tex_instr *tex, nir_tex_src_type type,
                             std::vector<nir_tex_instr *> &work, bool &changed)
   {
      DerefElement element;
      if (!element_of(tex, type, element))
         return false;
      if (!element.variable || element.constant)
         return true;
      changed = true;
      const int other_type_index = nir_tex_instr_src_index(
         tex, type == nir_tex_src_texture_deref ? nir_tex_src_sampler_deref : nir_tex_src_texture_deref);
      const bool shared_deref = other_type_index >= 0 &&
                                nir_src_as_deref(tex->src[other_type_index].src) == element.array;
      const bool sampler_dynamic =
         type == nir_tex_src_sampler_deref || shared_deref || sampler_indexed_at_run_time.count(tex);

      nir_builder *b = &builder;
      b->cursor = nir_before_instr(&tex->instr);
      nir_ssa_def *index = element.array->arr.index.ssa;
      nir_deref_instr *parent = nir_deref_instr_parent(element.array);
      nir_ssa_def *result = nir_ssa_undef(b, tex->dest.ssa.num_components, tex->dest.ssa.bit_size);
      for (unsigned i = 0; i < element.length; i++) {
         nir_if *branch = nir_push_if(b, nir_ieq_imm(b, index, i));
         nir_deref_instr *constant = nir_build_deref_array_imm(b, parent, i);
         nir_tex_instr *copy = nir_instr_as_tex(nir_instr_clone(shader, &tex->instr));
         /* Sources are rewritten once the copy is in the program (and in the use lists). */
         nir_builder_instr_insert(b, &copy->instr);
         for (unsigned s = 0; s < copy->num_srcs; s++) {
            if ((copy->src[s].src_type == nir_tex_src_texture_deref ||
                 copy->src[s].src_type == nir_tex_src_sampler_deref) &&
                copy->src[s].src.ssa == &element.array->dest.ssa)
               nir_instr_rewrite_src(&copy->instr, &copy->src[s].src, nir_src_for_ssa(&constant->dest.ssa));
         }
         nir_pop_if(b, branch);
         result = nir_if_phi(b, &copy->dest.ssa, result);
         if (sampler_dynamic)
            sampler_indexed_at_run_time.insert(copy);
         work.push_back(copy);
      }
      nir_ssa_def_rewrite_uses(&tex->dest.ssa, result);
      nir_instr_remove(&tex->instr);
      return true;
   }

   const TextureBinding *binding_of(const DerefElement &element, bool image)
   {
      const unsigned set = element.variable->data.descriptor_set;
      const unsigned binding = element.variable->data.binding;
      const std::string name = "set " + std::to_string(set) + " binding " + std::to_string(binding);
      if (options.texture_bindings.empty()) {
         if (set != 0) {
            fail("images and samplers must be in descriptor set 0 without a pipeline layout");
            return nullptr;
         }
         default_binding = {};
         default_binding.set = 0;
         default_binding.binding = binding;
         default_binding.count = element.length;
         default_binding.has_image = default_binding.has_sampler = true;
         default_binding.first_resource = default_first_texture_resource + binding;
         default_binding.first_sampler = binding;
         return &default_binding;
      }
      for (const TextureBinding &b : options.texture_bindings) {
         if (b.set == set && b.binding == binding) {
            if (image ? !b.has_image : !b.has_sampler) {
               fail(name + ": the shader uses it as " + (image ? "an image" : "a sampler") +
                    " and the pipeline layout does not");
               return nullptr;
            }
            return &b;
         }
      }
      fail(name + " is not in the pipeline layout");
      return nullptr;
   }
   TextureBinding default_binding;

   bool assign(nir_tex_instr *tex)
   {
      DerefElement image, sampler;
      if (!element_of(tex, nir_tex_src_texture_deref, image) ||
          !element_of(tex, nir_tex_src_sampler_deref, sampler))
         return false;
      if (!image.variable)
         return fail("a texture operation without an image is not supported");

      const TextureBinding *image_binding = binding_of(image, true);
      if (!image_binding)
         return false;
      if (image.element >= image_binding->count)
         return fail("an image array element beyond the binding's descriptors");
      const unsigned resource = image_binding->first_resource + image.element;
      if (resource >= max_texture_resource_slots)
         return fail("texture resource slot " + std::to_string(resource) + " is beyond the 176 a stage has");
      tex->texture_index = resource;

      unsigned mode = coordinates_normalized;
      if (sampler.variable) {
         const TextureBinding *sampler_binding = binding_of(sampler, false);
         if (!sampler_binding)
            return false;
         if (sampler.element >= sampler_binding->count)
            return fail("a sampler array element beyond the binding's descriptors");
         const unsigned slot = sampler_binding->first_sampler + sampler.element;
         if (slot >= max_sampler_slots)
            return fail("sampler slot " + std::to_string(slot) + " is beyond the 18 a stage has");
         tex->sampler_index = slot;

         const SamplerCoordinates fixed = sampler.element < sampler_binding->immutable.size()
                                             ? sampler_binding->immutable[sampler.element]
                                             : SamplerCoordinates::Unknown;
         if (fixed == SamplerCoordinates::Unnormalized && !options.sampler_forces_unnormalized)
            mode = coordinates_unnormalized;
         else if (fixed != SamplerCoordinates::Unknown || options.sampler_forces_unnormalized)
            mode = coordinates_normalized;
         else {
            const bool dynamic = sampler_indexed_at_run_time.count(tex) != 0;
            int record = record_for(sampler_binding->set, sampler_binding->binding, sampler.element, dynamic);
            if (record < 0)
               return false;
            if (dynamic) {
               remove_derefs(tex);
               return branch_on_mask(tex, records[record].bit);
            }
            mode = coordinates_recorded + unsigned(record);
         }
      }
      remove_derefs(tex);
      builder.cursor = nir_before_instr(&tex->instr);
      nir_tex_instr_add_src(tex, nir_tex_src_backend1, nir_src_for_ssa(nir_imm_int(&builder, int(mode))));
      return true;
   }

   static void remove_derefs(nir_tex_instr *tex)
   {
      for (nir_tex_src_type type : {nir_tex_src_texture_deref, nir_tex_src_sampler_deref}) {
         const int index = nir_tex_instr_src_index(tex, type);
         if (index >= 0)
            nir_tex_instr_remove_src(tex, unsigned(index));
      }
   }

   int record_for(unsigned set, unsigned binding, unsigned element, bool dynamic)
   {
      for (size_t r = 0; r < records.size(); r++) {
         const SamplerRecord &record = records[r];
         if (record.set == set && record.binding == binding && record.element == element &&
             record.dynamic == dynamic)
            return int(r);
      }
      if (records.size() >= max_sampler_records) {
         fail("the shader uses more than " + std::to_string(max_sampler_records) +
              " sampler elements whose coordinate type is chosen at bind time");
         return -1;
      }
      SamplerRecord record;
      record.set = set;
      record.binding = binding;
      record.element = element;
      record.dynamic = dynamic;
      record.bit = unsigned(records.size());
      records.push_back(record);
      return int(records.size() - 1);
   }

   /* if (mask & (1 << bit)) unnormalized sample; else normalized sample. */
   bool branch_on_mask(nir_tex_instr *tex, unsigned bit)
   {
      nir_builder *b = &builder;
      b->cursor = nir_before_instr(&tex->instr);
      nir_intrinsic_instr *load = nir_intrinsic_instr_create(shader, nir_intrinsic_load_kernel_input);
      load->num_components = 1;
      load->src[0] = nir_src_for_ssa(nir_imm_int(b, 0));
      nir_intrinsic_set_base(load, unnormalized_mask_constant * 4);
      nir_intrinsic_set_range(load, 4);
      nir_ssa_dest_init(&load->instr, &load->dest, 1, 32, nullptr);
      nir_builder_instr_insert(b, &load->instr);
      nir_ssa_def *set = nir_ine_imm(b, nir_iand_imm(b, &load->dest.ssa, 1ull << bit), 0);

      nir_tex_instr *unnormalized = nir_instr_as_tex(nir_instr_clone(shader, &tex->instr));
      nir_tex_instr *normalized = nir_instr_as_tex(nir_instr_clone(shader, &tex->instr));
      nir_if *branch = nir_push_if(b, set);
      nir_ssa_def *unnormalized_mode = nir_imm_int(b, int(coordinates_unnormalized));
      nir_builder_instr_insert(b, &unnormalized->instr);
      nir_tex_instr_add_src(unnormalized, nir_tex_src_backend1, nir_src_for_ssa(unnormalized_mode));
      nir_push_else(b, branch);
      nir_ssa_def *normalized_mode = nir_imm_int(b, int(coordinates_normalized));
      nir_builder_instr_insert(b, &normalized->instr);
      nir_tex_instr_add_src(normalized, nir_tex_src_backend1, nir_src_for_ssa(normalized_mode));
      nir_pop_if(b, branch);
      nir_ssa_def *result = nir_if_phi(b, &unnormalized->dest.ssa, &normalized->dest.ssa);
      nir_ssa_def_rewrite_uses(&tex->dest.ssa, result);
      nir_instr_remove(&tex->instr);
      return true;
   }
};

} // namespace

bool lower_textures(nir_shader *shader, const CompileOptions &options,
                    std::vector<SamplerRecord> &records, std::string &error)
{
   TextureLowering lowering(shader, options, records, error);
   return lowering.run();
}

} // namespace terakan::compiler
