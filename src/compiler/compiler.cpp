/* The compile pipeline: SPIR-V -> NIR (nir_frontend) -> backend IR (select) -> clauses and
 * groups (schedule) -> registers (regalloc) -> verified microcode (emit). */
#include "compiler.h"

#include <algorithm>

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "compiler/isa/disassembler.h"
#include "compiler/isa/program.h"
#include "backend_ir_print.h"
#include "emit.h"
#include "nir_frontend.h"
#include "nir_shaders.h"
#include "select.h"
#include "util/u_debug.h"

namespace terakan::compiler {

DebugOptions debug_options_from_environment()
{
   static const debug_control controls[] = {
      {"nir", 1},
      {"shaders", 2},
      {"ir", 4},
      {nullptr, 0},
   };
   const uint64_t flags = parse_debug_string(std::getenv("TERAKAN_DEBUG"), controls);
   DebugOptions options;
   options.dump_nir = flags & 1;
   options.dump_shader = flags & 2;
   options.dump_ir = flags & 4;
   return options;
}

namespace {

/* From NIR ready for selection (the shader is released) to the binary. */
bool compile_nir(nir_shader *shader, std::chrono::steady_clock::time_point start, SelectedProgram &selected,
                 const CompileOptions &options, ShaderBinary &binary, std::string &error);

bool compile_stage(std::span<const uint32_t> spirv, ShaderStage stage, const char *entry,
                   const CompileOptions &options, ShaderBinary &binary, std::string &error)
{
   const auto start = std::chrono::steady_clock::now();
   binary = {};
   SelectedProgram selected;
   nir_shader *shader = spirv_to_terakan_nir(spirv, stage, entry, options, selected.sampler_records, error);
   if (!shader)
      return false;
   return compile_nir(shader, start, selected, options, binary, error);
}

/* A pixel shader's early fragment tests and memory writes (fragmentStoresAndAtomics). Its RATs share CB_COLOR0-7 with
 * the colour targets, so they are numbered from the first slot past the targets (r600g:
 * rat_base = nr_cbufs, sfn_shader_fs.cpp, and evergreen_emit_image_state's CB index); each
 * MEM_RAT sets VALID_PIXEL_MODE (r600g sets it on every pixel-shader RAT, sfn_assembler.cpp),
 * which leaves out helper and killed pixels, as Vulkan wants. DB_SHADER_CONTROL as r600g's
 * evergreen_update_ps_state: with early fragment tests DEPTH_BEFORE_SHADER [15] and
 * EXEC_ON_NOOP [11], else EXEC_ON_HIER_FAIL [10] with Z_ORDER LATE_Z (0, the default), so the
 * shader's stores happen whatever the later depth test decides (Vulkan's rule for shaders
 * with side effects). Field positions: Mesa evergreend.h R_02880C_DB_SHADER_CONTROL. */
bool place_pixel_shader_rats(const nir_shader *shader, const CompileOptions &options, SelectedProgram &selected,
                             std::string &error)
{
   if (shader->info.stage != MESA_SHADER_FRAGMENT)
      return true;
   /* EarlyFragmentTests, with or without memory writes: the tests (and their depth and
    * stencil writes, and the occlusion count) come before the shader, so a later discard does
    * not undo them (r600g sets DEPTH_BEFORE_SHADER for FS_EARLY_DEPTH_STENCIL alone). */
   const bool early = shader->info.fs.early_fragment_tests;
   if (early)
      selected.graphics.db_shader_control |= 1u << 15;
   if (selected.rat_slots.empty() && selected.image_rats.empty())
      return true;
   unsigned highest = 0;
   for (const std::vector<unsigned> *list : {&selected.rat_slots, &selected.image_rats})
      for (unsigned slot : *list)
         highest = std::max(highest, slot);
   if (options.colour_targets + highest >= max_storage_buffer_slots) {
      error = "the fragment shader writes memory through RAT slot " + std::to_string(highest) + ", which with " +
              std::to_string(options.colour_targets) + " colour attachment(s) would be CB_COLOR" +
              std::to_string(options.colour_targets + highest) + "; colour attachments and the storage buffers, " +
              "storage images and storage texel buffers a pixel shader writes share CB_COLOR0-" +
              std::to_string(max_storage_buffer_slots - 1);
      return false;
   }
   selected.rat_base = options.colour_targets;
   selected.valid_pixels_only = true;
   selected.graphics.db_shader_control |= early ? 1u << 11 : 1u << 10;
   return true;
}

bool compile_nir(nir_shader *shader, std::chrono::steady_clock::time_point start, SelectedProgram &selected,
                 const CompileOptions &options, ShaderBinary &binary, std::string &error)
{
   const hw::IsaClass isa = hw::family_info(options.family).isa_class;

   bool ok = select_program(shader, isa, options, selected, error);
   ok = ok && place_pixel_shader_rats(shader, options, selected, error);
   for (unsigned c = 0; c < 3; c++)
      binary.workgroup_size[c] = shader->info.workgroup_size[c];
   binary.push_constant_bytes = selected.uses_push_constants ? 256 : 0;
   const unsigned lds_bytes = shader->info.shared_size;
   const unsigned max_lds_bytes = 4 * hw::max_compute_lds_dwords(isa);
   if (ok && lds_bytes > max_lds_bytes) {
      error = "the shader uses " + std::to_string(lds_bytes) + " bytes of shared memory; " +
              std::string(hw::family_info(options.family).name) + " has " + std::to_string(max_lds_bytes) +
              " per workgroup";
      ok = false;
   }
   /* The RAT return buffer is read through a resource slot of its own (compiler.h). */
   if (ok && selected.rat_returns &&
       std::count(selected.texture_resources.begin(), selected.texture_resources.end(), rat_return_fetch_resource)) {
      error = "texture resource " + std::to_string(rat_return_fetch_resource) +
              " is where atomics whose result is used read their old values";
      ok = false;
   }
   release_nir(shader);

   ScheduledProgram scheduled;
   Allocation allocation;
   if (ok && options.debug.dump_ir)
      std::fprintf(stderr, "terakan: backend IR after selection\n%s", print_selected(selected).c_str());
   ok = ok && schedule_program(selected, scheduled, error);
   if (ok && options.debug.dump_ir)
      std::fprintf(stderr, "terakan: clauses and groups\n%s", print_scheduled(scheduled).c_str());
   ok = ok && allocate_registers(selected, scheduled, allocation, error);
   ok = ok && emit_program(scheduled, allocation, selected, binary, error);
   if (!ok)
      return false;
   binary.lds_bytes = lds_bytes;

   binary.statistics.compile_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
   if (options.debug.dump_shader) {
      std::fprintf(stderr, "terakan: shader for %s\n%s%s\n",
                   std::string(hw::family_info(options.family).name).c_str(),
                   disassemble_binary(binary).c_str(),
                   format_statistics(binary.statistics).c_str());
   }
   return true;
}

} // namespace

bool compile_compute(std::span<const uint32_t> spirv, const char *entry,
                     const CompileOptions &options, ShaderBinary &binary, std::string &error)
{
   return compile_stage(spirv, ShaderStage::Compute, entry, options, binary, error);
}

bool compile_graphics(std::span<const uint32_t> spirv, ShaderStage stage, const char *entry,
                      const CompileOptions &options, ShaderBinary &binary, std::string &error)
{
   if (stage == ShaderStage::Compute) {
      error = "compile_graphics takes vertex and fragment shaders; compute shaders go to compile_compute";
      return false;
   }
   return compile_stage(spirv, stage, entry, options, binary, error);
}

nir_builder begin_graphics_nir(ShaderStage stage, const char *name)
{
   glsl_type_singleton_init_or_ref();
   return nir_builder_init_simple_shader(stage == ShaderStage::Vertex ? MESA_SHADER_VERTEX : MESA_SHADER_FRAGMENT,
                                         &compiler_nir_options(), "%s", name);
}

bool compile_graphics_nir(nir_shader *shader, ShaderStage stage, const CompileOptions &options,
                          ShaderBinary &binary, std::string &error)
{
   const auto start = std::chrono::steady_clock::now();
   binary = {};
   if (stage == ShaderStage::Compute) {
      error = "compile_graphics_nir takes vertex and fragment shaders";
      release_nir(shader);
      return false;
   }
   SelectedProgram selected;
   if (!finish_terakan_nir(shader, stage, options, selected.sampler_records, error))
      return false;
   return compile_nir(shader, start, selected, options, binary, error);
}

nir_builder begin_compute_nir(const char *name, unsigned width, unsigned height, unsigned depth)
{
   glsl_type_singleton_init_or_ref();
   nir_builder b = nir_builder_init_simple_shader(MESA_SHADER_COMPUTE, &compiler_nir_options(), "%s", name);
   b.shader->info.workgroup_size[0] = uint16_t(width);
   b.shader->info.workgroup_size[1] = uint16_t(height);
   b.shader->info.workgroup_size[2] = uint16_t(depth);
   return b;
}

bool compile_compute_nir(nir_shader *shader, const CompileOptions &options, ShaderBinary &binary,
                         std::string &error)
{
   const auto start = std::chrono::steady_clock::now();
   binary = {};
   if (shader->info.stage != MESA_SHADER_COMPUTE) {
      error = "compile_compute_nir takes compute shaders";
      release_nir(shader);
      return false;
   }
   SelectedProgram selected;
   if (!finish_terakan_nir(shader, ShaderStage::Compute, options, selected.sampler_records, error))
      return false;
   return compile_nir(shader, start, selected, options, binary, error);
}

std::string disassemble_binary(const ShaderBinary &binary)
{
   isa::Program program;
   isa::DecodeError error;
   if (!isa::decode_program(binary.code, binary.isa, program, error))
      return "(does not decode: " + error.message + ")\n";
   return isa::disassemble(program);
}

std::string format_statistics(const ShaderStatistics &s)
{
   char text[512];
   std::snprintf(text, sizeof(text),
                 "dw: %u, gprs: %u, alu_groups: %u, alu: %u, occupancy: %.1f%%, literals: %u, "
                 "cf: %u, alu_clauses: %u, tex_clauses: %u, vtx_clauses: %u, loops: %u, "
                 "stack: %u, spills: %u, scratch_bytes: %u, compile_ms: %.3f",
                 s.dwords, s.gprs, s.alu_groups, s.alu_instructions, 100.0 * s.occupancy(),
                 s.literals, s.cf, s.alu_clauses, s.tex_clauses, s.vtx_clauses, s.loops, s.stack,
                 s.spilled_values, s.scratch_bytes, s.compile_ms);
   return text;
}

} // namespace terakan::compiler
