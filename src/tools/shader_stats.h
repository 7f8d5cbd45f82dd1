/* What terakan-compile and terakan-shaderdb share: reading a shader file (SPIR-V, or GLSL through
 * glslangValidator), choosing its stage, compiling it, and its statistics as r600g defines them.
 *
 * r600g (Mesa's r600 gallium driver) reports, for every shader it builds, one line through the
 * GL debug output (KHR_debug, type "other", source "API"), which is what shader-db collects:
 *     "VS shader: 24 dw, 3 gprs, 5 alu_groups, 0 loops, 6 cf, 1 stack"
 * with these meanings (read from r600_asm.c / r600_shader.c of Mesa 22.3):
 *   dw          size of the program in dwords: CF instructions, ALU clauses (two dwords a slot,
 *               literal pairs included) and fetch clauses (four dwords an instruction, each clause
 *               starting on a 128-bit boundary);
 *   gprs        the NUM_GPRS the driver programs (highest GPR used + 1, clause temporaries
 *               124-127 left out);
 *   alu_groups  ALU instruction groups;
 *   loops       loops in the program after its own unrolling;
 *   cf          CF instructions (an ALU clause with an ALU_EXTENDED word pair counts once);
 *   stack       the STACK_SIZE the driver programs (stack entries).
 * Terakan's figures are taken from the binary the same way: dw, alu_groups, loops and cf by
 * decoding the program again with the instruction-set library, gprs and stack from the values
 * the driver programs (ShaderBinary::gprs and stack_entries). r600g's vertex shaders do not
 * contain the vertex fetches (those sit in a separate fetch shader); Terakan's do. */
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compiler/compiler.h"

namespace terakan::tools {

struct R600gStatistics {
   unsigned dw = 0, gprs = 0, alu_groups = 0, loops = 0, cf = 0, stack = 0;
};

/* Decodes the binary's program and counts as r600g does. False (and why) if it does not decode. */
bool r600g_statistics(const compiler::ShaderBinary &binary, R600gStatistics &out, std::string &error);

/* "VS", "FS" or "CS": the names r600g's line starts with. */
const char *stage_abbreviation(compiler::ShaderStage stage);

/* The line in r600g's own words: "VS shader: 24 dw, 3 gprs, 5 alu_groups, 0 loops, 6 cf, 1 stack". */
std::string format_r600g_statistics(compiler::ShaderStage stage, const R600gStatistics &s);

/* The stage a file name says: .vert, .frag, .comp (also before a trailing .glsl or .spv). */
std::optional<compiler::ShaderStage> stage_from_file_name(const std::string &path);

/* The execution model of the SPIR-V entry point `entry` (vertex, fragment or GLCompute). */
std::optional<compiler::ShaderStage> stage_from_spirv(const std::vector<uint32_t> &words,
                                                      const std::string &entry);

bool read_file(const std::string &path, std::vector<char> &bytes);
bool is_spirv(const std::vector<char> &bytes);

/* GLSL (Vulkan dialect) -> SPIR-V through glslangValidator; its messages go to `log`. */
bool compile_glsl(const std::string &path, compiler::ShaderStage stage, std::vector<uint32_t> &spirv,
                  std::string &log);

/* compile_compute or compile_graphics, as the stage says. */
bool compile_stage(const std::vector<uint32_t> &spirv, compiler::ShaderStage stage, const std::string &entry,
                   const compiler::CompileOptions &options, compiler::ShaderBinary &binary,
                   std::string &error);

} // namespace terakan::tools
