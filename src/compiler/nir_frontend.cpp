/* SPIR-V -> NIR, and the NIR pipeline chosen for TeraScale: everything the hardware lacks
 * (64-bit integers, fused multiply-add, integer division, most bit tricks) is lowered here, the
 * shader is scalarized (the VLIW packer makes the parallelism, not vec4 instructions), and
 * simple if/else is flattened into selects. */
#include "nir_frontend.h"
#include "subgroups.h"
#include "barycentric.h"
#include "graphics_nir.h"
#include "conservative_discard.h"
#include "terminate_lowering.h"
#include "gather_lowering.h"
#include "input_hoisting.h"
#include "image_lowering.h"
#include "texture_lowering.h"
#include "vertex_divisors.h"

#include <algorithm>
#include <cstdio>
#include <iterator>

#include "compiler/glsl_types.h"
#include "compiler/nir_types.h"
#include "compiler/nir/nir_builder.h"
#include "compiler/spirv/nir_spirv.h"
#include "compiler/nir/nir_xfb_info.h"

#include <spirv-tools/libspirv.hpp>

namespace terakan::compiler {
namespace {

const nir_shader_compiler_options &terakan_nir_options()
{
   static const nir_shader_compiler_options options = [] {
      nir_shader_compiler_options o = {};
      o.lower_fdiv = true;          /* no divide: a * rcp(b) */
      o.lower_ffma32 = true;        /* MULADD is not fused; FMA is Cayman-only and slow */
      /* ... but an inexact fmul whose only readers are fadds is fused back into ffma by
       * nir_opt_algebraic_late, selected as MULADD_IEEE (a rounded product plus an addend:
       * what the MUL_IEEE and ADD it replaces compute; select.cpp direct_ops). */
      o.fuse_ffma32 = true;
      o.lower_flrp32 = true;
      o.lower_fpow = true;
      o.lower_fmod = true;
      o.lower_bitfield_extract = true;
      o.lower_bitfield_insert_to_bitfield_select = true;
      o.lower_ifind_msb = true;
      o.lower_uadd_carry = true;
      o.lower_usub_borrow = true;
      o.lower_scmp = true;
      o.lower_isign = true;
      o.lower_fsign = true;
      o.lower_iabs = true;
      o.lower_ldexp = true;
      o.lower_extract_byte = true;
      o.lower_extract_word = true;
      o.lower_insert_byte = true;
      o.lower_insert_word = true;
      o.lower_rotate = true;
      o.lower_uclz = true;
      /* The GLSL packing built-ins become arithmetic and bit operations; the half-float
       * ones become their _split forms, selected as FLT32_TO_FLT16 / FLT16_TO_FLT32 (not
       * lower_pack_split, which would turn those into 16-bit values). */
      o.lower_pack_half_2x16 = true;
      o.lower_unpack_half_2x16 = true;
      o.lower_pack_unorm_2x16 = true;
      o.lower_pack_snorm_2x16 = true;
      o.lower_pack_unorm_4x8 = true;
      o.lower_pack_snorm_4x8 = true;
      o.lower_unpack_unorm_2x16 = true;
      o.lower_unpack_snorm_2x16 = true;
      o.lower_unpack_unorm_4x8 = true;
      o.lower_unpack_snorm_4x8 = true;
      /* No saturating integer additions (OpArrayLength's size arithmetic uses usub_sat). */
      o.lower_uadd_sat = true;
      o.lower_usub_sat = true;
      o.lower_iadd_sat = true;
      o.lower_mul_2x32_64 = true;
      o.lower_int64_options = nir_lower_int64_options(~0u);
      o.lower_doubles_options = nir_lower_doubles_options(~0u);
      o.max_unroll_iterations = 32;
      /* Pixel-shader inputs as load_interpolated_input on a barycentric pair: the SPI gives
       * I/J pairs in GPRs and INTERP_* does the rest (select_graphics.cpp). */
      o.use_interpolated_input_intrinsics = true;
      return o;
   }();
   return options;
}

void dump(const char *stage, nir_shader *shader, bool enabled)
{
   if (!enabled)
      return;
   std::fprintf(stderr, "terakan: NIR %s\n", stage);
   nir_print_shader(shader, stderr);
}

/* Everything is scalarized except dot products, which become one DOT4_IEEE group (select.cpp
 * emit_dot): scalarized, a dot product is a MUL per component and a chain of dependent ADDs. */
bool scalarize_filter(const nir_instr *instr, const void *)
{
   if (instr->type != nir_instr_type_alu)
      return true;
   switch (nir_instr_as_alu(instr)->op) {
   case nir_op_fdot2:
   case nir_op_fdot3:
   case nir_op_fdot4:
   case nir_op_fdph:
      return false;
   default:
      return true;
   }
}

void optimize(nir_shader *shader)
{
   bool progress;
   unsigned rounds = 0;
   do {
      progress = false;
      NIR_PASS(progress, shader, nir_lower_vars_to_ssa);
      NIR_PASS(progress, shader, nir_lower_alu_to_scalar, scalarize_filter, nullptr);
      NIR_PASS(progress, shader, nir_lower_phis_to_scalar, false);
      NIR_PASS(progress, shader, nir_copy_prop);
      NIR_PASS(progress, shader, nir_opt_remove_phis);
      NIR_PASS(progress, shader, nir_opt_dce);
      NIR_PASS(progress, shader, nir_opt_dead_cf);
      NIR_PASS(progress, shader, nir_opt_trivial_continues);
      NIR_PASS(progress, shader, nir_opt_cse);
      NIR_PASS(progress, shader, nir_opt_if, nir_opt_if_optimize_phi_true_false);
      /* Flattening small if/else into selects: a VLIW machine runs both sides faster than it
       * takes a branch with its stack push and pop. */
      NIR_PASS(progress, shader, nir_opt_peephole_select, 16, true, true);
      NIR_PASS(progress, shader, nir_lower_flrp, 32, false);
      NIR_PASS(progress, shader, nir_opt_algebraic);
      NIR_PASS(progress, shader, nir_opt_constant_folding);
      NIR_PASS(progress, shader, nir_opt_loop_unroll);
      NIR_PASS(progress, shader, nir_opt_undef);
   } while (progress && ++rounds < 64);
}

/* DeviceIndex (VK_KHR_device_group): every device group Terakan reports has one device, so
 * the index is always 0. NIR has no intrinsic for it, and nir_lower_system_values stops on the
 * variable, so the loads are replaced before that pass runs. */
bool lower_device_index_to_zero(nir_builder *builder, nir_instr *instr, void *)
{
   nir_intrinsic_instr *load = system_value_deref_load(instr, SYSTEM_VALUE_DEVICE_INDEX);
   if (!load)
      return false;
   builder->cursor = nir_before_instr(instr);
   replace_system_value_load(load, nir_imm_intN_t(builder, 0, load->dest.ssa.bit_size));
   return true;
}

/* After Mesa's subpassLoad lowering: the fetch is a texelFetch (LD) of the attachment's view
 * at the fragment's position, layer ViewIndex (multiview reads the view's own layer; without
 * multiview the driver's ViewIndex constant is 0). It becomes a 2D-array fetch: the texture
 * unit takes the layer from z only when the view's resource is an array (DIM), so a plain 2D
 * view of the attachment reads its one layer. Multisampled input attachments (SUBPASS_MS)
 * become multisampled 2D-array fetches the same way (txf_ms, lowered with the others). */
bool subpass_fetch_to_2d_array(nir_builder *, nir_instr *instr, void *)
{
   if (instr->type != nir_instr_type_tex)
      return false;
   nir_tex_instr *tex = nir_instr_as_tex(instr);
   if (tex->sampler_dim != GLSL_SAMPLER_DIM_SUBPASS && tex->sampler_dim != GLSL_SAMPLER_DIM_SUBPASS_MS)
      return false;
   tex->coord_components = 3;
   tex->is_array = true;
   tex->sampler_dim = tex->sampler_dim == GLSL_SAMPLER_DIM_SUBPASS ? GLSL_SAMPLER_DIM_2D : GLSL_SAMPLER_DIM_MS;
   return true;
}

bool lower_input_attachments(nir_shader *shader)
{
   nir_input_attachment_options options = {};
   options.use_fragcoord_sysval = true;
   options.use_layer_id_sysval = true;
   options.use_view_id_for_layer = true;
   if (!nir_lower_input_attachments(shader, &options))
      return false;
   nir_shader_instructions_pass(shader, subpass_fetch_to_2d_array,
                                nir_metadata_block_index | nir_metadata_dominance, nullptr);
   return true;
}

/* Local invocation index from the ids the hardware gives (R0.xyz). */
void lower_compute_system_values(nir_shader *shader)
{
   nir_lower_compute_system_values_options sysvals = {};
   sysvals.lower_local_invocation_index = true;
   NIR_PASS_V(shader, nir_lower_compute_system_values, &sysvals);
}

/* VK_KHR_zero_initialize_workgroup_memory (shared variables initialized with OpConstantNull):
 * Mesa's pass spreads the zeroing over the workgroup's invocations, dword by dword. It ends
 * with a shared-memory barrier only (drivers without scoped barriers), and a workgroup needs
 * every invocation's zeros written before any invocation goes on: a control barrier follows. */
void zero_initialize_shared_memory(nir_shader *shader)
{
   const unsigned size = ALIGN_POT(shader->info.shared_size, 4u);
   shader->info.shared_size = size;
   nir_zero_initialize_shared_memory(shader, size, 4);
   nir_function_impl *impl = nir_shader_get_entrypoint(shader);
   foreach_list_typed(nir_cf_node, node, node, &impl->body) {
      if (node->type != nir_cf_node_loop)
         continue;
      nir_builder builder;
      nir_builder_init(&builder, impl);
      builder.cursor = nir_before_cf_node(nir_cf_node_next(node));
      nir_control_barrier(&builder);
      break;
   }
   NIR_PASS_V(shader, nir_lower_vars_to_ssa);
   /* The zeroing loop reads the local invocation index. */
   lower_compute_system_values(shader);
}

/* A built-in variable must have the vector size of the value it names: Mesa's
 * nir_lower_system_values assumes it (an assertion, or a wrong load without assertions), and
 * a damaged module can pass the validator with, say, a uvec3 decorated LocalInvocationIndex. */
bool check_system_value_types(nir_shader *shader, std::string &error)
{
   /* The system values that become one load intrinsic each (nir_intrinsic_from_system_value
    * asserts on the others, which nir_lower_system_values builds from several values). */
   static const gl_system_value direct[] = {
      SYSTEM_VALUE_GLOBAL_INVOCATION_ID, SYSTEM_VALUE_LOCAL_INVOCATION_ID, SYSTEM_VALUE_WORKGROUP_ID,
      SYSTEM_VALUE_NUM_WORKGROUPS, SYSTEM_VALUE_LOCAL_INVOCATION_INDEX, SYSTEM_VALUE_SUBGROUP_SIZE,
      SYSTEM_VALUE_SUBGROUP_INVOCATION, SYSTEM_VALUE_NUM_SUBGROUPS, SYSTEM_VALUE_SUBGROUP_ID,
      SYSTEM_VALUE_FRONT_FACE, SYSTEM_VALUE_SAMPLE_ID, SYSTEM_VALUE_SAMPLE_POS, SYSTEM_VALUE_HELPER_INVOCATION,
      SYSTEM_VALUE_VIEW_INDEX, SYSTEM_VALUE_DRAW_ID, SYSTEM_VALUE_BASE_INSTANCE, SYSTEM_VALUE_BASE_VERTEX,
      SYSTEM_VALUE_FIRST_VERTEX, SYSTEM_VALUE_VERTEX_ID, SYSTEM_VALUE_INSTANCE_ID,
   };
   nir_foreach_variable_with_modes(variable, shader, nir_var_system_value) {
      const gl_system_value value = gl_system_value(variable->data.location);
      if (std::find(std::begin(direct), std::end(direct), value) == std::end(direct))
         continue;
      const nir_intrinsic_op op = nir_intrinsic_from_system_value(value);
      const unsigned expected = nir_intrinsic_infos[op].dest_components; /* 0: any size */
      const unsigned declared = glsl_get_vector_elements(glsl_without_array(variable->type));
      if (expected != 0 && declared != expected) {
         error = std::string("invalid SPIR-V: built-in ") + gl_system_value_name(gl_system_value(variable->data.location)) +
                 " is declared with " + std::to_string(declared) + " components; it has " + std::to_string(expected);
         return false;
      }
   }
   return true;
}

bool lower_textures_pass(nir_shader *shader, const CompileOptions *options,
                         std::vector<SamplerRecord> *records, std::string *error)
{
   bool has_textures = false;
   nir_foreach_function(function, shader) {
      if (!function->impl)
         continue;
      nir_foreach_block(block, function->impl) {
         nir_foreach_instr(instr, block)
            has_textures |= instr->type == nir_instr_type_tex;
      }
   }
   if (!has_textures)
      return false;
   lower_textures(shader, *options, *records, *error);
   return true;
}

} // namespace

const nir_shader_compiler_options &compiler_nir_options()
{
   return terakan_nir_options();
}

nir_shader *spirv_to_terakan_nir(std::span<const uint32_t> spirv, ShaderStage stage, const char *entry,
                                 const CompileOptions &options,
                                 std::vector<SamplerRecord> &sampler_records, std::string &error)
{
   const bool graphics = stage != ShaderStage::Compute;
   const auto &specialization = options.specialization;
   const DebugOptions &debug = options.debug;
   glsl_type_singleton_init_or_ref();

   spirv_to_nir_options spirv_options = {};
   spirv_options.environment = NIR_SPIRV_VULKAN;
   spirv_options.ssbo_addr_format = nir_address_format_32bit_index_offset;
   spirv_options.ubo_addr_format = nir_address_format_32bit_index_offset;
   spirv_options.push_const_addr_format = nir_address_format_32bit_offset;
   spirv_options.shared_addr_format = nir_address_format_32bit_offset;
   spirv_options.caps.storage_image_ms = false;
   spirv_options.caps.device_group = true;
   spirv_options.caps.multiview = true; /* ViewIndex: a driver constant (compiler.h) */
   spirv_options.caps.draw_parameters = true; /* the vertex shader's driver constants */
   spirv_options.caps.transform_feedback = true; /* MEM_STREAM exports (select_graphics.cpp) */
   /* Storage images are read and written with the descriptor's format (image_lowering.h). */
   spirv_options.caps.image_read_without_format = true;
   spirv_options.caps.image_write_without_format = true;
   /* Layer and ViewportIndex outputs of the vertex stage (the misc vector, select_graphics). */
   spirv_options.caps.shader_viewport_index_layer = true;
   /* Subgroups of one invocation (subgroups.h): every operation but clustered and quad ones. */
   spirv_options.caps.subgroup_basic = true;
   spirv_options.caps.subgroup_vote = true;
   spirv_options.caps.subgroup_ballot = true;
   spirv_options.caps.subgroup_shuffle = true;
   spirv_options.caps.subgroup_arithmetic = true;
   /* FragStencilRefEXT: PIXEL 61's y (select_graphics.cpp). */
   spirv_options.caps.stencil_export = true;
   /* Workgroup blocks with explicit offsets: LDS is addressed in bytes, read and written a
    * dword at a time, so any layout with 4-byte aligned members works (no 8- or 16-bit). */
   spirv_options.caps.workgroup_memory_explicit_layout = true;
   /* OpDemoteToHelperInvocation is KILL, OpIsHelperInvocationEXT a VALID_PIXEL_MODE query
    * (select_graphics.cpp); OpTerminateInvocation needs no capability in Mesa 22.3
    * (terminate_lowering.h). */
   spirv_options.caps.demote_to_helper_invocation = true;

   if (spirv.size() < 5 || spirv[0] != 0x07230203) {
      error = "not a SPIR-V module (bad magic number or too short)";
      glsl_type_singleton_decref();
      return nullptr;
   }
   /* Mesa's translator trusts its input; the validator does not. Vulkan 1.2's environment
    * takes SPIR-V 1.0 to 1.5, the versions a Vulkan 1.2 device must accept (VK_KHR_spirv_1_4
    * and 1.2 core); each module is checked by its own version's rules. */
   {
      spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_2);
      std::string messages;
      tools.SetMessageConsumer([&](spv_message_level_t, const char *, const spv_position_t &position,
                                   const char *message) {
         if (messages.empty())
            messages = std::string(message) + " (word " + std::to_string(position.index) + ")";
      });
      /* Scalar block layout (VK_EXT_scalar_block_layout) is a superset of the other layouts,
       * and every buffer access the compiler makes is a dword at any 4-byte offset. */
      spvtools::ValidatorOptions validator_options;
      validator_options.SetScalarBlockLayout(true);
      validator_options.SetWorkgroupScalarBlockLayout(true);
      /* LocalSizeId (VK_KHR_maintenance4): the workgroup size from specialization constants. */
      validator_options.SetAllowLocalSizeId(true);
      if (!tools.Validate(spirv.data(), spirv.size(), validator_options)) {
         error = "invalid SPIR-V: " + (messages.empty() ? std::string("rejected by the validator") : messages);
         glsl_type_singleton_decref();
         return nullptr;
      }
   }
   if (graphics && !check_entry_point(spirv, entry, stage, error)) {
      glsl_type_singleton_decref();
      return nullptr;
   }
   /* Mesa 22.3's translator does not know SPV_KHR_fragment_shader_barycentric: the module is
    * rewritten into forms it reads (barycentric.h), after validation of the original. */
   std::vector<uint32_t> rewritten;
   if (uses_fragment_barycentrics(spirv)) {
      if (!rewrite_barycentric_spirv(spirv, rewritten, error)) {
         glsl_type_singleton_decref();
         return nullptr;
      }
      spirv = rewritten;
   }
   std::vector<nir_spirv_specialization> spec(specialization.size());
   for (size_t i = 0; i < specialization.size(); i++) {
      spec[i].id = specialization[i].id;
      spec[i].defined_on_module = false;
      switch (specialization[i].bytes) {
      case 1: spec[i].value.u8 = uint8_t(specialization[i].bits); break;
      case 2: spec[i].value.u16 = uint16_t(specialization[i].bits); break;
      case 8: spec[i].value.u64 = specialization[i].bits; break;
      default: spec[i].value.u32 = uint32_t(specialization[i].bits); break;
      }
   }
   const gl_shader_stage nir_stage = stage == ShaderStage::Vertex     ? MESA_SHADER_VERTEX
                                     : stage == ShaderStage::Fragment ? MESA_SHADER_FRAGMENT
                                                                      : MESA_SHADER_COMPUTE;
   nir_shader *shader = spirv_to_nir(spirv.data(), spirv.size(), spec.data(), unsigned(spec.size()), nir_stage,
                                     entry, &spirv_options, &terakan_nir_options());
   if (!shader) {
      error = std::string("SPIR-V could not be translated (invalid module, or no ") +
              (graphics ? "such" : "compute") + " entry point named '" + entry + "')";
      glsl_type_singleton_decref();
      return nullptr;
   }
   dump("from SPIR-V", shader, debug.dump_nir);
   if (!finish_terakan_nir(shader, stage, options, sampler_records, error))
      return nullptr;
   return shader;
}

bool finish_terakan_nir(nir_shader *shader, ShaderStage stage, const CompileOptions &options,
                        std::vector<SamplerRecord> &sampler_records, std::string &error)
{
   const bool graphics = stage != ShaderStage::Compute;
   const DebugOptions &debug = options.debug;

   NIR_PASS_V(shader, nir_lower_variable_initializers, nir_var_function_temp);
   NIR_PASS_V(shader, nir_lower_returns);
   NIR_PASS_V(shader, nir_inline_functions);
   NIR_PASS_V(shader, nir_copy_prop);
   NIR_PASS_V(shader, nir_opt_deref);
   nir_remove_non_entrypoints(shader);
   if (stage == ShaderStage::Fragment)
      NIR_PASS_V(shader, lower_terminate_before_loops);
   NIR_PASS_V(shader, nir_lower_variable_initializers, nir_variable_mode(~0u));
   NIR_PASS_V(shader, nir_split_var_copies);
   NIR_PASS_V(shader, nir_split_per_member_structs);
   /* Transform feedback: the XfbBuffer/Offset/XfbStride decorations, read from the output
    * variables once blocks (gl_PerVertex) are split into members and before the clip and cull
    * distances are merged (select_graphics.cpp exports them). */
   if (stage == ShaderStage::Vertex)
      nir_shader_gather_xfb_info(shader);
   if (graphics)
      lower_outputs_to_temporaries(shader);
   NIR_PASS_V(shader, nir_lower_global_vars_to_local);
   NIR_PASS_V(shader, nir_lower_vars_to_ssa);
   NIR_PASS_V(shader, nir_shader_instructions_pass, lower_device_index_to_zero,
              nir_metadata_block_index | nir_metadata_dominance, nullptr);
   if (stage == ShaderStage::Vertex)
      NIR_PASS_V(shader, lower_instance_index);
   if (stage == ShaderStage::Fragment)
      NIR_PASS_V(shader, lower_input_attachments);
   if (stage == ShaderStage::Fragment && options.conservative_edges >= 0)
      add_conservative_discard(shader, unsigned(options.conservative_edges));
   if (!check_system_value_types(shader, error)) {
      release_nir(shader);
      return false;
   }
   NIR_PASS_V(shader, nir_lower_system_values);
   /* After the system values become intrinsics, before the compute ones are lowered (it makes
    * local invocation indices). */
   NIR_PASS_V(shader, lower_subgroups_of_one);
   if (stage == ShaderStage::Fragment && !lower_fragment_barycentrics(shader, error)) {
      release_nir(shader);
      return false;
   }
   if (graphics)
      lower_graphics_io(shader);
   /* Pixel-shader inputs read at the top, so that branches reading them can be flattened. */
   if (stage == ShaderStage::Fragment)
      NIR_PASS_V(shader, hoist_fragment_inputs);
   if (!graphics)
      lower_compute_system_values(shader);
   /* Per-instance inputs with a divisor other than 1 fetch a computed element. */
   if (stage == ShaderStage::Vertex && options.dynamic_vertex_input)
      NIR_PASS_V(shader, lower_dynamic_vertex_input);
   else if (stage == ShaderStage::Vertex)
      NIR_PASS_V(shader, lower_instance_divisors, options.vertex_inputs);
   NIR_PASS_V(shader, nir_lower_explicit_io, nir_var_mem_ssbo | nir_var_mem_ubo,
              nir_address_format_32bit_index_offset);
   NIR_PASS_V(shader, nir_lower_explicit_io, nir_var_mem_push_const,
              nir_address_format_32bit_offset);
   /* Shared memory: byte offsets into the workgroup's LDS allocation. Blocks declared with an
    * explicit layout (VK_KHR_workgroup_memory_explicit_layout) already have their offsets,
    * and every one of them starts at offset 0: they alias, as the extension says. */
   if (!shader->info.shared_memory_explicit_layout)
      NIR_PASS_V(shader, nir_lower_vars_to_explicit_types, nir_var_mem_shared,
                 glsl_get_natural_size_align_bytes);
   NIR_PASS_V(shader, nir_lower_explicit_io, nir_var_mem_shared, nir_address_format_32bit_offset);
   if (shader->info.zero_initialize_shared_memory && shader->info.shared_size > 0)
      zero_initialize_shared_memory(shader);
   NIR_PASS_V(shader, nir_remove_dead_variables, nir_var_function_temp, nullptr);
   /* frexp as exponent-field bit operations. */
   NIR_PASS_V(shader, nir_lower_frexp);

   optimize(shader);
   /* Local arrays still indexed at run time after unrolling: up to 64 elements become
    * selects over direct accesses, which then live in registers; larger ones go to the
    * scratch ring, every vec4 slot (a scalar, vector or matrix column) a 16-byte element of
    * its own (docs/compiler.md "Scratch"). */
   NIR_PASS_V(shader, nir_lower_indirect_derefs, nir_var_function_temp, 64);
   NIR_PASS_V(shader, nir_lower_vars_to_scratch, nir_var_function_temp, 0, glsl_get_vec4_size_align_bytes);
   optimize(shader);
   /* Image loads and sizes become texture operations, stores name their RAT (image_lowering.h);
    * then samples name constant slots (texture_lowering.h). */
   /* texelFetch of a multisampled image: an FMASK fetch, then a fetch of the fragment the
    * sample's nibble names (select.cpp, select_tex); samplesIdenticalEXT: FMASK == 0. Before
    * the slots are assigned, while the fetches still name their variables. */
   nir_lower_tex_options multisample_fetches = {};
   multisample_fetches.lower_to_fragment_fetch_amd = true;
   NIR_PASS_V(shader, nir_lower_tex, &multisample_fetches);
   /* textureGatherOffsets split, integer gathers moved by half a texel (gather_lowering.h). */
   NIR_PASS_V(shader, lower_gathers);
   /* textureProj*: the coordinates (and a depth reference) divided by the projector before
    * the fetch; no TEX instruction divides (Mesa r600 lowers every projector the same way).
    * textureGrad on cubes: Mesa's lower_txd_cube_map turns it into textureLod with Vulkan's
    * level of detail from the gradients projected onto the major face (quotient rule), since
    * no source says how SAMPLE_G treats gradients of a cube direction (r600g's two paths
    * disagree: TGSI passes them as they are, sfn halves them). */
   nir_lower_tex_options projectors = {};
   projectors.lower_txp = ~0u;
   projectors.lower_txd_cube_map = true;
   NIR_PASS_V(shader, nir_lower_tex, &projectors);
   lower_images(shader, options, error);
   if (error.empty())
      NIR_PASS_V(shader, lower_textures_pass, &options, &sampler_records, &error);
   if (!error.empty()) {
      release_nir(shader);
      return false;
   }
   NIR_PASS_V(shader, nir_opt_dce);
   /* The branches it made merge whole sample results; the backend keeps scalar registers. */
   NIR_PASS_V(shader, nir_lower_phis_to_scalar, true);
   optimize(shader);

   nir_lower_idiv_options idiv = {};
   idiv.allow_fp16 = false;
   NIR_PASS_V(shader, nir_lower_idiv, &idiv);
   optimize(shader);
   NIR_PASS_V(shader, nir_opt_algebraic_late);
   NIR_PASS_V(shader, nir_lower_bool_to_int32);
   NIR_PASS_V(shader, nir_copy_prop);
   NIR_PASS_V(shader, nir_opt_dce);
   NIR_PASS_V(shader, nir_opt_cse);
   /* Phis become NIR registers (moves at the ends of the predecessors); the backend keeps each
    * register in a fixed channel across the control flow. */
   NIR_PASS_V(shader, nir_convert_from_ssa, true);
   nir_shader_gather_info(shader, nir_shader_get_entrypoint(shader));
   dump("after the Terakan pipeline", shader, debug.dump_nir);
   return true;
}

nir_intrinsic_instr *system_value_deref_load(nir_instr *instr, gl_system_value value)
{
   if (instr->type != nir_instr_type_intrinsic)
      return nullptr;
   nir_intrinsic_instr *load = nir_instr_as_intrinsic(instr);
   if (load->intrinsic != nir_intrinsic_load_deref)
      return nullptr;
   nir_variable *variable = nir_deref_instr_get_variable(nir_src_as_deref(load->src[0]));
   if (!variable || variable->data.mode != nir_var_system_value || variable->data.location != int(value))
      return nullptr;
   return load;
}

void replace_system_value_load(nir_intrinsic_instr *load, nir_ssa_def *replacement)
{
   nir_deref_instr *deref = nir_src_as_deref(load->src[0]);
   nir_ssa_def_rewrite_uses(&load->dest.ssa, replacement);
   nir_instr_remove(&load->instr);
   /* nir_lower_system_values deletes every system-value variable but removes dead derefs only
    * when it lowered a load itself: a shader whose one system value is replaced here (a vertex
    * shader reading only gl_InstanceIndex) kept a deref of a deleted variable. */
   nir_deref_instr_remove_if_unused(deref);
}

void release_nir(nir_shader *shader)
{
   ralloc_free(shader);
   glsl_type_singleton_decref();
}

} // namespace terakan::compiler
