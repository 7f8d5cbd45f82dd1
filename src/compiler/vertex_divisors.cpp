/* Per-instance vertex inputs with a divisor (vertex_divisors.h). */
#include "vertex_divisors.h"

#include <array>
#include <utility>

#include "compiler/nir/nir_builder.h"

namespace terakan::compiler {

namespace {

/* The divisor of attribute `location`, or 1 (InstanceIndex itself, or a per-vertex input). */
uint32_t divisor_of(const std::vector<VertexInputOption> &inputs, unsigned location)
{
   for (const VertexInputOption &input : inputs)
      if (input.location == location && input.rate == VertexInputRate::Instance)
         return input.divisor;
   return 1;
}

/* The attribute location a vertex shader's load_input reads, or false for anything else. A
 * run-time offset into an input array is refused by the selector anyway. */
bool input_location(nir_instr *instr, unsigned &location)
{
   if (instr->type != nir_instr_type_intrinsic)
      return false;
   nir_intrinsic_instr *load = nir_instr_as_intrinsic(instr);
   if (load->intrinsic != nir_intrinsic_load_input || !nir_src_is_const(load->src[0]))
      return false;
   const nir_io_semantics semantics = nir_intrinsic_io_semantics(load);
   if (semantics.location < VERT_ATTRIB_GENERIC0)
      return false;
   location = semantics.location - unsigned(VERT_ATTRIB_GENERIC0) + unsigned(nir_src_as_uint(load->src[0]));
   return true;
}

/* Replaces `load` (a load_input) by load_per_vertex_input of `element`. */
void fetch_element(nir_builder *b, nir_intrinsic_instr *load, nir_ssa_def *element)
{
   const nir_io_semantics semantics = nir_intrinsic_io_semantics(load);
   nir_intrinsic_instr *fetch = nir_intrinsic_instr_create(b->shader, nir_intrinsic_load_per_vertex_input);
   fetch->num_components = load->num_components;
   fetch->src[0] = nir_src_for_ssa(element);
   fetch->src[1] = nir_src_for_ssa(load->src[0].ssa);
   nir_intrinsic_set_base(fetch, nir_intrinsic_base(load));
   nir_intrinsic_set_component(fetch, nir_intrinsic_component(load));
   nir_intrinsic_set_dest_type(fetch, nir_intrinsic_dest_type(load));
   nir_intrinsic_set_io_semantics(fetch, semantics);
   nir_ssa_dest_init(&fetch->instr, &fetch->dest, load->dest.ssa.num_components, load->dest.ssa.bit_size, nullptr);
   nir_builder_instr_insert(b, &fetch->instr);
   nir_ssa_def_rewrite_uses(&load->dest.ssa, &fetch->dest.ssa);
   nir_instr_remove(&load->instr);
}

bool lower_load(nir_builder *b, nir_instr *instr, void *data)
{
   const auto &inputs = *static_cast<const std::vector<VertexInputOption> *>(data);
   unsigned location;
   if (!input_location(instr, location))
      return false;
   const uint32_t divisor = divisor_of(inputs, location);
   if (divisor == 1)
      return false;

   b->cursor = nir_before_instr(instr);
   /* load_instance_id is InstanceIndex here (R0.w: firstInstance is already added, see
    * lower_instance_index), load_base_instance the driver's copy of firstInstance. */
   nir_ssa_def *first = nir_load_base_instance(b);
   nir_ssa_def *element = first;
   if (divisor != 0)
      element = nir_iadd(b, first, nir_udiv_imm(b, nir_isub(b, nir_load_instance_id(b), first), divisor));
   fetch_element(b, nir_instr_as_intrinsic(instr), element);
   return true;
}

/* One dword of the driver constants (constant buffer 1), as texture_lowering.cpp reads them. */
nir_ssa_def *driver_constant(nir_builder *b, unsigned dword)
{
   nir_intrinsic_instr *load = nir_intrinsic_instr_create(b->shader, nir_intrinsic_load_kernel_input);
   load->num_components = 1;
   load->src[0] = nir_src_for_ssa(nir_imm_int(b, 0));
   nir_intrinsic_set_base(load, dword * 4);
   nir_intrinsic_set_range(load, 4);
   nir_ssa_dest_init(&load->instr, &load->dest, 1, 32, nullptr);
   nir_builder_instr_insert(b, &load->instr);
   return &load->dest.ssa;
}

/* Each location's element, computed once at the top of the program (before any of its
 * loads, so it dominates them): VertexIndex or InstanceIndex by the per-instance mask, and
 * only when some location has a divisor other than 1 (a uniform branch on the divided mask,
 * which most draws skip) the divided element. Locations past the device's
 * maxVertexInputAttributes cannot be valid and keep the vertex index. */
std::array<nir_ssa_def *, max_dynamic_vertex_inputs> dynamic_elements(nir_builder *b, uint32_t locations)
{
   std::array<nir_ssa_def *, max_dynamic_vertex_inputs> elements{};
   nir_ssa_def *vertex = nir_load_vertex_id(b), *instance = nir_load_instance_id(b);
   nir_ssa_def *per_instance = driver_constant(b, vertex_input_instance_mask_constant);
   nir_ssa_def *divided = driver_constant(b, vertex_input_divided_mask_constant);
   std::array<nir_ssa_def *, max_dynamic_vertex_inputs> plain{};
   u_foreach_bit(location, locations)
      plain[location] = nir_bcsel(b, nir_i2b(b, nir_iand_imm(b, per_instance, 1ull << location)), instance, vertex);
   nir_push_if(b, nir_ine_imm(b, divided, 0));
   std::array<nir_ssa_def *, max_dynamic_vertex_inputs> full{};
   nir_ssa_def *first = nir_load_base_instance(b);
   nir_ssa_def *since_first = nir_isub(b, instance, first);
   u_foreach_bit(location, locations) {
      nir_ssa_def *divisor = driver_constant(b, vertex_input_divisor_constants + location);
      /* A division by 0 gives some value, which the select never takes. */
      nir_ssa_def *element =
         nir_bcsel(b, nir_ieq_imm(b, divisor, 0), first, nir_iadd(b, first, nir_udiv(b, since_first, divisor)));
      full[location] =
         nir_bcsel(b, nir_i2b(b, nir_iand_imm(b, divided, 1ull << location)), element, plain[location]);
   }
   nir_pop_if(b, nullptr);
   u_foreach_bit(location, locations)
      elements[location] = nir_if_phi(b, full[location], plain[location]);
   return elements;
}

} // namespace

bool lower_instance_divisors(nir_shader *shader, const std::vector<VertexInputOption> &inputs)
{
   if (shader->info.stage != MESA_SHADER_VERTEX)
      return false;
   bool any = false;
   for (const VertexInputOption &input : inputs)
      any |= input.rate == VertexInputRate::Instance && input.divisor != 1;
   if (!any)
      return false;
   /* nir_shader_instructions_pass takes a mutable pointer; lower_load only reads the list. */
   return nir_shader_instructions_pass(shader, lower_load, nir_metadata_block_index | nir_metadata_dominance,
                                       const_cast<std::vector<VertexInputOption> *>(&inputs));
}

bool lower_dynamic_vertex_input(nir_shader *shader)
{
   if (shader->info.stage != MESA_SHADER_VERTEX)
      return false;
   nir_function_impl *impl = nir_shader_get_entrypoint(shader);
   std::vector<std::pair<nir_intrinsic_instr *, unsigned>> loads;
   uint32_t locations = 0;
   nir_foreach_block (block, impl) {
      nir_foreach_instr (instr, block) {
         unsigned location;
         if (!input_location(instr, location))
            continue;
         loads.push_back({nir_instr_as_intrinsic(instr), location});
         if (location < max_dynamic_vertex_inputs)
            locations |= 1u << location;
      }
   }
   if (loads.empty())
      return false;
   nir_builder b;
   nir_builder_init(&b, impl);
   b.cursor = nir_before_cf_list(&impl->body);
   const auto elements = dynamic_elements(&b, locations);
   for (const auto &[load, location] : loads) {
      b.cursor = nir_before_instr(&load->instr);
      fetch_element(&b, load, location < max_dynamic_vertex_inputs ? elements[location] : nir_load_vertex_id(&b));
   }
   nir_metadata_preserve(impl, nir_metadata_none);
   return true;
}

} // namespace terakan::compiler
