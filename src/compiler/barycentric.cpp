/* VK_KHR_fragment_shader_barycentric in the front end (barycentric.h).
 *
 * SPIR-V numbers (opcodes, decorations, built-ins, capabilities) are from the SPIR-V
 * specification's unified grammar as Mesa ships it (src/compiler/spirv/spirv.h):
 * OpCapability 17, OpDecorate 71, OpMemberDecorate 72; decorations BuiltIn 11, Location 30,
 * ExplicitInterpAMD 4999, PerVertexKHR 5285; built-ins BaryCoordKHR 5286,
 * BaryCoordNoPerspKHR 5287; capabilities Shader 1, FragmentBarycentricKHR 5284. */
#include "barycentric.h"

#include <algorithm>
#include <map>

#include "compiler/glsl_types.h"
#include "compiler/nir/nir_builder.h"
#include "compiler/nir/nir_deref.h"
#include "compiler/nir_types.h"

namespace terakan::compiler {
namespace {

constexpr uint32_t op_capability = 17, op_decorate = 71, op_member_decorate = 72;
constexpr uint32_t decoration_builtin = 11, decoration_location = 30;
constexpr uint32_t decoration_explicit_interp_amd = 4999, decoration_per_vertex = 5285;
constexpr uint32_t builtin_bary_coord = 5286, builtin_bary_coord_no_persp = 5287;
constexpr uint32_t capability_shader = 1, capability_fragment_barycentric = 5284;

/* The locations the two built-ins are moved to: far above any location an application can
 * use (maxFragmentInputComponents is 64), so they never meet a real input. They exist only
 * between the rewrite and lower_fragment_barycentrics. */
constexpr uint32_t bary_coord_location = 0x4000, bary_coord_no_persp_location = 0x4001;

/* Calls `visit(at, count, opcode)` for every instruction after the header. */
template <typename Visit> void for_each_instruction(std::span<const uint32_t> spirv, Visit visit)
{
   for (size_t at = 5; at < spirv.size();) {
      const uint32_t count = spirv[at] >> 16, opcode = spirv[at] & 0xffff;
      if (count == 0 || at + count > spirv.size())
         return;
      visit(at, count, opcode);
      at += count;
   }
}

/* The barycentric pair of the built-in's interpolation (center or centroid; sample-rate
 * shading does not exist yet) as the vec3 of weights (1 - I - J, I, J). The SPI's I weights
 * the primitive's second vertex and J its third (docs/sim-semantics.md, "SPI"). */
nir_ssa_def *bary_coord(nir_builder *b, const nir_variable *variable, nir_ssa_def *rotation, std::string &error)
{
   if (variable->data.sample) {
      error = "BaryCoordKHR/BaryCoordNoPerspKHR decorated Sample (per-sample shading) is not supported yet";
      return nullptr;
   }
   const bool linear = variable->data.location == int(VARYING_SLOT_VAR0 + bary_coord_no_persp_location);
   const glsl_interp_mode mode = linear ? INTERP_MODE_NOPERSPECTIVE : INTERP_MODE_SMOOTH;
   nir_ssa_def *pair = nir_load_barycentric(b, variable->data.centroid ? nir_intrinsic_load_barycentric_centroid
                                                                      : nir_intrinsic_load_barycentric_pixel,
                                            mode);
   nir_ssa_def *i = nir_channel(b, pair, 0), *j = nir_channel(b, pair, 1);
   nir_ssa_def *w[3] = {nir_fsub(b, nir_fsub(b, nir_imm_float(b, 1.0f), i), j), i, j};
   /* Vulkan's weight k is the SPI's weight (k + rotation) % 3. */
   nir_ssa_def *one = nir_ieq_imm(b, rotation, 1), *two = nir_ieq_imm(b, rotation, 2);
   nir_ssa_def *rotated[3];
   for (unsigned k = 0; k < 3; k++)
      rotated[k] = nir_bcsel(b, one, w[(k + 1) % 3], nir_bcsel(b, two, w[(k + 2) % 3], w[k]));
   return nir_vec(b, rotated, 3);
}

bool is_bary_coord_variable(const nir_variable *variable)
{
   return variable->data.mode == nir_var_shader_in &&
          (variable->data.location == int(VARYING_SLOT_VAR0 + bary_coord_location) ||
           variable->data.location == int(VARYING_SLOT_VAR0 + bary_coord_no_persp_location));
}

bool is_per_vertex_variable(const nir_variable *variable)
{
   return variable->data.mode == nir_var_shader_in && variable->data.interpolation == INTERP_MODE_EXPLICIT &&
          glsl_type_is_array(variable->type);
}

struct LowerState {
   std::map<nir_variable *, nir_variable *> element_variables; /* per-vertex array -> element */
   /* Which of the SPI's P0, P1, P2 is the provoking vertex (0-2): Vulkan's vertex k is the
    * SPI's vertex (k + rotation) % 3. Made once, at the top of the entry point. */
   nir_ssa_def *rotation = nullptr;
   std::string error;
};

/* The value at `deref` (an explicit-interpolation input) of the SPI's vertex `vertex` (0-2):
 * interp_deref_at_vertex, which nir_lower_io makes load_input_vertex. */
nir_ssa_def *interp_at_vertex(nir_builder *b, nir_deref_instr *deref, unsigned components, unsigned bit_size,
                              unsigned vertex)
{
   nir_intrinsic_instr *interp = nir_intrinsic_instr_create(b->shader, nir_intrinsic_interp_deref_at_vertex);
   interp->src[0] = nir_src_for_ssa(&deref->dest.ssa);
   interp->src[1] = nir_src_for_ssa(nir_imm_int(b, int(vertex)));
   interp->num_components = uint8_t(components);
   nir_ssa_dest_init(&interp->instr, &interp->dest, components, bit_size, nullptr);
   nir_builder_instr_insert(b, &interp->instr);
   return &interp->dest.ssa;
}

/* The rotation: the vertex shader's vertex-order parameter (float vertex indices, distinct
 * within a primitive that draws anything) flat-shaded, i.e. the provoking vertex's, compared
 * with its value at P0 and P1. Vulkan's order starts at the provoking vertex (first-vertex
 * mode, the only one offered) and keeps the primitive's winding, so it is the SPI's order
 * rotated to start there. Without the parameter (a vertex shader compiled without
 * export_vertex_order) both read the SPI's default 0: rotation 0. */
nir_ssa_def *vertex_rotation(nir_builder *b, LowerState &state)
{
   if (state.rotation)
      return state.rotation;
   nir_function_impl *impl = b->impl;
   const nir_cursor saved = b->cursor;
   b->cursor = nir_before_cf_list(&impl->body);
   nir_variable *provoking =
      nir_variable_create(b->shader, nir_var_shader_in, glsl_float_type(), "terakan_vertex_order_provoking");
   provoking->data.location = vertex_order_provoking_slot;
   provoking->data.interpolation = INTERP_MODE_FLAT;
   nir_variable *vertices =
      nir_variable_create(b->shader, nir_var_shader_in, glsl_float_type(), "terakan_vertex_order_vertices");
   vertices->data.location = vertex_order_vertices_slot;
   vertices->data.interpolation = INTERP_MODE_EXPLICIT;
   nir_ssa_def *first = nir_load_deref(b, nir_build_deref_var(b, provoking));
   nir_ssa_def *p0 = interp_at_vertex(b, nir_build_deref_var(b, vertices), 1, 32, 0);
   nir_ssa_def *p1 = interp_at_vertex(b, nir_build_deref_var(b, vertices), 1, 32, 1);
   state.rotation = nir_bcsel(b, nir_feq(b, first, p0), nir_imm_int(b, 0),
                              nir_bcsel(b, nir_feq(b, first, p1), nir_imm_int(b, 1), nir_imm_int(b, 2)));
   b->cursor = saved;
   return state.rotation;
}

/* One vertex's value of the per-vertex access `path` (path[1] the vertex index) through the
 * element variable: interp_deref_at_vertex with a constant vertex. */
nir_ssa_def *vertex_value(nir_builder *b, nir_variable *element, const nir_deref_path &path,
                          nir_intrinsic_instr *load, unsigned vertex)
{
   nir_deref_instr *deref = nir_build_deref_var(b, element);
   for (unsigned k = 2; path.path[k]; k++)
      deref = nir_build_deref_follower(b, deref, path.path[k]);
   return interp_at_vertex(b, deref, load->dest.ssa.num_components, load->dest.ssa.bit_size, vertex);
}

bool lower_per_vertex_load(nir_builder *b, nir_intrinsic_instr *load, nir_variable *variable, LowerState &state)
{
   nir_deref_instr *deref = nir_src_as_deref(load->src[0]);
   nir_deref_path path;
   nir_deref_path_init(&path, deref, nullptr);
   const bool indexed = path.path[1] && path.path[1]->deref_type == nir_deref_type_array;
   if (!indexed) {
      nir_deref_path_finish(&path);
      state.error = "internal: a PerVertexKHR input read without its vertex index";
      return false;
   }
   if (glsl_get_base_type(deref->type) != GLSL_TYPE_FLOAT) {
      nir_deref_path_finish(&path);
      state.error = "PerVertexKHR inputs that are not 32-bit floats are not supported: the SPI keeps the "
                    "second and third vertices' values as float differences from the first (P10, P20)";
      return false;
   }
   nir_variable *&element = state.element_variables[variable];
   if (!element) {
      element = nir_variable_clone(variable, b->shader);
      element->type = glsl_get_array_element(variable->type);
      element->name = ralloc_asprintf(element, "%s_vertex", variable->name ? variable->name : "per_vertex");
      nir_shader_add_variable(b->shader, element);
   }
   nir_ssa_def *rotation = vertex_rotation(b, state);
   b->cursor = nir_before_instr(&load->instr);
   /* Vulkan's vertex k is the SPI's vertex m = (k + rotation) % 3: all three are read and m
    * selects (three INTERP_LOADs are cheaper than a branch; with a constant k and no
    * rotation to apply, NIR keeps only what is needed). Vulkan leaves k outside 0-2
    * undefined. */
   nir_ssa_def *m = nir_iadd(b, path.path[1]->arr.index.ssa, rotation);
   m = nir_bcsel(b, nir_uge(b, m, nir_imm_int(b, 3)), nir_iadd_imm(b, m, -3), m);
   nir_ssa_def *v0 = vertex_value(b, element, path, load, 0);
   nir_ssa_def *v1 = vertex_value(b, element, path, load, 1);
   nir_ssa_def *v2 = vertex_value(b, element, path, load, 2);
   nir_ssa_def *value = nir_bcsel(b, nir_ieq_imm(b, m, 1), v1, nir_bcsel(b, nir_ieq_imm(b, m, 2), v2, v0));
   nir_deref_path_finish(&path);
   nir_ssa_def_rewrite_uses(&load->dest.ssa, value);
   nir_instr_remove(&load->instr);
   nir_deref_instr_remove_if_unused(deref);
   return true;
}

bool lower_bary_coord_load(nir_builder *b, nir_intrinsic_instr *load, nir_variable *variable, LowerState &state)
{
   nir_deref_instr *deref = nir_src_as_deref(load->src[0]);
   nir_ssa_def *rotation = vertex_rotation(b, state);
   b->cursor = nir_before_instr(&load->instr);
   nir_ssa_def *weights = bary_coord(b, variable, rotation, state.error);
   if (!weights)
      return false;
   nir_ssa_def *value = weights;
   if (deref->deref_type == nir_deref_type_array) /* one component, chosen by an index */
      value = nir_vector_extract(b, weights, deref->arr.index.ssa);
   else if (deref->deref_type != nir_deref_type_var) {
      state.error = "internal: an unexpected access to BaryCoordKHR";
      return false;
   }
   nir_ssa_def_rewrite_uses(&load->dest.ssa, value);
   nir_instr_remove(&load->instr);
   nir_deref_instr_remove_if_unused(deref);
   return true;
}

} // namespace

bool uses_fragment_barycentrics(std::span<const uint32_t> spirv)
{
   bool found = false;
   for_each_instruction(spirv, [&](size_t at, uint32_t count, uint32_t opcode) {
      if (opcode == op_capability && count == 2 && spirv[at + 1] == capability_fragment_barycentric)
         found = true;
   });
   return found;
}

bool rewrite_barycentric_spirv(std::span<const uint32_t> spirv, std::vector<uint32_t> &out, std::string &error)
{
   out.assign(spirv.begin(), spirv.end());
   bool ok = true;
   for_each_instruction(spirv, [&](size_t at, uint32_t count, uint32_t opcode) {
      if (opcode == op_capability && count == 2 && out[at + 1] == capability_fragment_barycentric) {
         /* The capability is the translator's business only: Shader is declared anyway. */
         out[at + 1] = capability_shader;
      } else if (opcode == op_decorate && count == 4 && out[at + 2] == decoration_builtin &&
                 (out[at + 3] == builtin_bary_coord || out[at + 3] == builtin_bary_coord_no_persp)) {
         /* OpDecorate %v BuiltIn X -> OpDecorate %v Location L: the same four words. */
         out[at + 2] = decoration_location;
         out[at + 3] = out[at + 3] == builtin_bary_coord ? bary_coord_location : bary_coord_no_persp_location;
      } else if (opcode == op_decorate && count == 3 && out[at + 2] == decoration_per_vertex) {
         out[at + 2] = decoration_explicit_interp_amd;
      } else if (opcode == op_member_decorate && count >= 4 &&
                 (out[at + 3] == decoration_per_vertex ||
                  (out[at + 3] == decoration_builtin && count == 5 &&
                   (out[at + 4] == builtin_bary_coord || out[at + 4] == builtin_bary_coord_no_persp)))) {
         error = "PerVertexKHR and the BaryCoordKHR built-ins on block members are not supported yet "
                 "(declare them as variables)";
         ok = false;
      }
   });
   return ok;
}

bool lower_fragment_barycentrics(nir_shader *shader, std::string &error)
{
   LowerState state;
   std::vector<nir_variable *> originals;
   nir_foreach_variable_with_modes(variable, shader, nir_var_shader_in)
      if (is_bary_coord_variable(variable) || is_per_vertex_variable(variable))
         originals.push_back(variable);
   if (originals.empty())
      return true;
   auto original = [&](const nir_variable *variable) {
      return std::find(originals.begin(), originals.end(), variable) != originals.end();
   };
   nir_foreach_function(function, shader) {
      if (!function->impl)
         continue;
      nir_builder b;
      nir_builder_init(&b, function->impl);
      state.rotation = nullptr; /* made in each function that needs it */
      nir_foreach_block(block, function->impl) {
         nir_foreach_instr_safe(instr, block) {
            if (instr->type != nir_instr_type_intrinsic)
               continue;
            nir_intrinsic_instr *intrinsic = nir_instr_as_intrinsic(instr);
            if (intrinsic->intrinsic != nir_intrinsic_load_deref)
               continue;
            nir_variable *variable = nir_deref_instr_get_variable(nir_src_as_deref(intrinsic->src[0]));
            if (!variable || !original(variable))
               continue;
            bool lowered = true;
            if (is_bary_coord_variable(variable))
               lowered = lower_bary_coord_load(&b, intrinsic, variable, state);
            else if (is_per_vertex_variable(variable))
               lowered = lower_per_vertex_load(&b, intrinsic, variable, state);
            if (!lowered) {
               error = state.error;
               return false;
            }
         }
      }
      nir_metadata_preserve(function->impl, nir_metadata_block_index | nir_metadata_dominance);
   }
   /* The originals have no readers left; nir_lower_io must not count their slots. */
   for (nir_variable *variable : originals)
      exec_node_remove(&variable->node);
   return true;
}

} // namespace terakan::compiler
