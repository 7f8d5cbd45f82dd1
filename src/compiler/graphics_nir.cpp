/* The NIR side of vertex and pixel shaders (graphics_nir.h). */
#include "graphics_nir.h"
#include "indexed_inputs.h"
#include "nir_frontend.h"

#include <cstring>

#include "compiler/glsl_types.h"
#include "compiler/nir/nir_builder.h"
#include "compiler/nir_types.h"

namespace terakan::compiler {
namespace {

const char *execution_model_name(uint32_t model)
{
   switch (model) {
   case 0: return "a vertex shader";
   case 1: return "a tessellation control shader";
   case 2: return "a tessellation evaluation shader";
   case 3: return "a geometry shader";
   case 4: return "a fragment shader";
   case 5: return "a compute shader";
   case 6: return "an OpenCL kernel";
   case 5267: return "a task shader";
   case 5268: return "a mesh shader";
   default: return "a ray-tracing or other shader";
   }
}

bool lower_instance_index_instr(nir_builder *builder, nir_instr *instr, void *)
{
   nir_intrinsic_instr *load = system_value_deref_load(instr, SYSTEM_VALUE_INSTANCE_INDEX);
   if (!load)
      return false;
   builder->cursor = nir_before_instr(instr);
   replace_system_value_load(load, nir_load_instance_id(builder));
   return true;
}

int vec4_slots(const glsl_type *type, bool)
{
   return int(glsl_count_attribute_slots(type, false));
}

} // namespace

bool check_entry_point(std::span<const uint32_t> spirv, const char *entry, ShaderStage stage,
                       std::string &error)
{
   const uint32_t wanted = stage == ShaderStage::Vertex ? 0 : stage == ShaderStage::Fragment ? 4 : 5;
   const char *found_other = nullptr;
   /* Instructions start after the five header words: (word count << 16 | opcode). */
   for (size_t at = 5; at < spirv.size();) {
      const uint32_t count = spirv[at] >> 16, opcode = spirv[at] & 0xffff;
      if (count == 0 || at + count > spirv.size())
         break; /* malformed: the validator will say so */
      constexpr uint32_t op_entry_point = 15;
      if (opcode == op_entry_point && count >= 4) {
         const char *name = reinterpret_cast<const char *>(&spirv[at + 3]);
         const size_t max_length = (count - 3) * 4;
         if (strnlen(name, max_length) < max_length && std::strcmp(name, entry) == 0) {
            if (spirv[at + 1] == wanted)
               return true;
            found_other = execution_model_name(spirv[at + 1]);
         }
      }
      at += count;
   }
   const char *asked = stage == ShaderStage::Vertex ? "vertex" : stage == ShaderStage::Fragment ? "fragment" : "compute";
   if (found_other)
      error = std::string("the entry point '") + entry + "' is " + found_other + "; the compiler takes " +
              "vertex, fragment and compute shaders, and was asked for a " + asked + " shader";
   else
      error = std::string("the module has no ") + asked + " entry point named '" + entry + "'";
   return false;
}

bool lower_instance_index(nir_shader *shader)
{
   return nir_shader_instructions_pass(shader, lower_instance_index_instr,
                                       nir_metadata_block_index | nir_metadata_dominance, nullptr);
}

void lower_outputs_to_temporaries(nir_shader *shader)
{
   NIR_PASS_V(shader, lower_indexed_outputs);
   NIR_PASS_V(shader, nir_lower_io_to_temporaries, nir_shader_get_entrypoint(shader), true, false);
   NIR_PASS_V(shader, nir_split_var_copies);
   NIR_PASS_V(shader, nir_lower_var_copies);
}

void lower_graphics_io(nir_shader *shader)
{
   /* driver_location is the API location; select_graphics.cpp reads io_semantics anyway. */
   /* Cull distances follow the clip distances in one array (CLIP_DIST0 onwards), as the
    * position exports after POS 60 hold them; shader->info keeps both sizes. */
   if (shader->info.stage == MESA_SHADER_VERTEX)
      NIR_PASS_V(shader, nir_lower_clip_cull_distance_arrays);
   /* A pixel shader's ClipDistance and CullDistance stay two arrays: each is matched with the
    * vertex shader's own parameters (distance_semantic), whatever size the other array has. */
   NIR_PASS_V(shader, lower_indexed_inputs);
   nir_foreach_variable_with_modes(variable, shader, nir_var_shader_in | nir_var_shader_out)
      variable->data.driver_location = unsigned(variable->data.location);
   NIR_PASS_V(shader, nir_lower_io, nir_variable_mode(nir_var_shader_in | nir_var_shader_out), vec4_slots,
              nir_lower_io_options(0));
   if (shader->info.stage == MESA_SHADER_FRAGMENT)
      NIR_PASS_V(shader, nir_opt_conditional_discard);
   NIR_PASS_V(shader, nir_opt_constant_folding);
   NIR_PASS_V(shader, nir_opt_dce);
}

} // namespace terakan::compiler
