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

bool compile_nir(nir_shader *shader, std::chrono::steady_clock::time_point start, SelectedProgram &selected,
                 const CompileOptions &options, ShaderBinary &binary, std::string &error)
{
   const hw::IsaClass isa = hw::family_info(options.family).isa_class;

   bool ok = select_program(shader, isa, options, selected, error);
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
                 "stack: %u, compile_ms: %.3f",
                 s.dwords, s.gprs, s.alu_groups, s.alu_instructions, 100.0 * s.occupancy(),
                 s.literals, s.cf, s.alu_clauses, s.tex_clauses, s.vtx_clauses, s.loops, s.stack,
                 s.compile_ms);
   return text;
}

} // namespace terakan::compiler
