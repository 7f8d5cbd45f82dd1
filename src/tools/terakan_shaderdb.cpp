/* terakan-shaderdb: every shader under a folder compiled for one chip, shader-db style.
 *
 *   terakan-shaderdb [--chip NAME] [--quiet] DIR
 *
 * Takes GLSL (Vulkan dialect, compiled with glslangValidator) and SPIR-V files named by stage:
 * NAME.vert, NAME.frag, NAME.comp, or those with .spv (binary SPIR-V) or .glsl after them. A
 * vertex and a fragment shader with the same NAME are one program and are listed together (each
 * stage is still compiled on its own: Terakan does no cross-stage optimization). Prints one line
 * per shader, in r600g's words first (shader_stats.h) and Terakan's extra figures after a ';':
 *
 *   NAME.vert - VS shader: 40 dw, 3 gprs, 6 alu_groups, 0 loops, 6 cf, 1 stack; alu: 21, ...
 *   NAME.frag - refused: REASON
 *
 * then a totals line over the shaders compiled, and the refused ones again. Refusals (and
 * GLSL that glslangValidator rejects) are counted and listed, never fatal. Exit status: 0 when
 * the folder was read (refusals included), 2 on usage errors or an unreadable folder. */
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "compiler/compiler.h"
#include "hw/chips.h"
#include "shader_stats.h"

using namespace terakan;
using compiler::ShaderStage;
namespace fs = std::filesystem;

namespace {

int usage(const char *message)
{
   if (message)
      std::fprintf(stderr, "terakan-shaderdb: %s\n", message);
   std::fprintf(stderr, "usage: terakan-shaderdb [--chip cayman|barts|cypress|...] [--quiet] DIR\n"
                        "  every NAME.vert, NAME.frag, NAME.comp under DIR (GLSL; .spv after the stage: SPIR-V)\n");
   return 2;
}

struct Totals {
   unsigned shaders = 0;
   tools::R600gStatistics r600g;
   unsigned alu = 0, literals = 0;
   double compile_ms = 0;
};

const ShaderStage stage_order[] = {ShaderStage::Vertex, ShaderStage::Fragment, ShaderStage::Compute};

} // namespace

int main(int argc, char **argv)
{
   std::string chip = "CYPRESS", folder;
   bool quiet = false;
   for (int i = 1; i < argc; i++) {
      const std::string arg = argv[i];
      if (arg == "--chip" && i + 1 < argc)
         chip = argv[++i];
      else if (arg == "--quiet")
         quiet = true;
      else if (arg == "--help" || arg == "-h")
         return usage(nullptr), 0;
      else if (!arg.empty() && arg[0] == '-')
         return usage(("unknown option " + arg).c_str());
      else
         folder = arg;
   }
   if (folder.empty())
      return usage("no folder");
   const auto family = hw::family_from_name(chip);
   if (!family)
      return usage(("unknown chip " + chip).c_str());
   std::error_code error_code;
   if (!fs::is_directory(folder, error_code))
      return usage(("not a folder: " + folder).c_str());

   /* Program name (relative path without the stage) -> stage -> file. */
   std::map<std::string, std::map<ShaderStage, fs::path>> programs;
   for (auto it = fs::recursive_directory_iterator(folder, error_code); it != fs::recursive_directory_iterator();
        it.increment(error_code)) {
      if (error_code)
         break;
      if (!it->is_regular_file())
         continue;
      const fs::path path = it->path();
      const auto stage = tools::stage_from_file_name(path.string());
      if (!stage)
         continue;
      std::string name = fs::relative(path, folder).string();
      for (const char *wrapper : {".glsl", ".spv"})
         if (name.size() > std::strlen(wrapper) && name.ends_with(wrapper))
            name.resize(name.size() - std::strlen(wrapper));
      name.resize(name.size() - 5); /* ".vert", ".frag", ".comp" */
      programs[name][*stage] = path;
   }
   if (error_code)
      return usage(("cannot read " + folder + ": " + error_code.message()).c_str());

   const std::string chip_name(hw::family_info(*family).name);
   Totals totals;
   std::vector<std::string> refused;
   unsigned programs_paired = 0;
   for (const auto &[name, stages] : programs) {
      if (stages.count(ShaderStage::Vertex) && stages.count(ShaderStage::Fragment))
         programs_paired++;
      for (const ShaderStage stage : stage_order) {
         const auto found = stages.find(stage);
         if (found == stages.end())
            continue;
         const fs::path &path = found->second;
         const std::string shown = fs::relative(path, folder).string();
         std::vector<char> bytes;
         std::vector<uint32_t> words;
         std::string why, log;
         if (!tools::read_file(path.string(), bytes)) {
            why = "cannot read the file";
         } else if (tools::is_spirv(bytes)) {
            words.resize(bytes.size() / 4);
            std::memcpy(words.data(), bytes.data(), words.size() * 4);
         } else if (!tools::compile_glsl(path.string(), stage, words, log)) {
            /* glslangValidator's first error line is the reason. */
            std::string first;
            for (size_t at = 0; at < log.size();) {
               const size_t end = std::min(log.find('\n', at), log.size());
               const std::string line = log.substr(at, end - at);
               if (line.starts_with("ERROR")) {
                  first = line;
                  break;
               }
               at = end + 1;
            }
            why = "glslangValidator: " + (first.empty() ? std::string("failed") : first);
         }
         compiler::ShaderBinary binary;
         tools::R600gStatistics r600g;
         if (why.empty()) {
            compiler::CompileOptions options;
            options.family = *family;
            if (tools::compile_stage(words, stage, "main", options, binary, why) &&
                !tools::r600g_statistics(binary, r600g, why))
               why = "the program does not decode again: " + why;
         }
         if (!why.empty()) {
            for (char &c : why)
               if (c == '\n')
                  c = ' ';
            refused.push_back(shown + " - refused: " + why);
            if (!quiet)
               std::printf("%s\n", refused.back().c_str());
            continue;
         }
         const compiler::ShaderStatistics &s = binary.statistics;
         if (!quiet)
            std::printf("%s - %s; alu: %u, occupancy: %.1f%%, literals: %u, alu_clauses: %u, tex_clauses: %u, "
                        "vtx_clauses: %u, compile_ms: %.3f\n",
                        shown.c_str(), tools::format_r600g_statistics(stage, r600g).c_str(), s.alu_instructions,
                        100.0 * s.occupancy(), s.literals, s.alu_clauses, s.tex_clauses, s.vtx_clauses, s.compile_ms);
         totals.shaders++;
         totals.r600g.dw += r600g.dw;
         totals.r600g.gprs += r600g.gprs;
         totals.r600g.alu_groups += r600g.alu_groups;
         totals.r600g.loops += r600g.loops;
         totals.r600g.cf += r600g.cf;
         totals.r600g.stack += r600g.stack;
         totals.alu += s.alu_instructions;
         totals.literals += s.literals;
         totals.compile_ms += s.compile_ms;
      }
   }
   const tools::R600gStatistics &t = totals.r600g;
   std::printf("total (%s): %u shaders, %zu refused, %u vertex/fragment pairs; %u dw, %u gprs, %u alu_groups, "
               "%u loops, %u cf, %u stack; alu: %u, literals: %u, compile_ms: %.1f\n",
               chip_name.c_str(), totals.shaders, refused.size(), programs_paired, t.dw, t.gprs, t.alu_groups,
               t.loops, t.cf, t.stack, totals.alu, totals.literals, totals.compile_ms);
   if (!refused.empty()) {
      std::printf("refused: %zu\n", refused.size());
      for (const std::string &line : refused)
         std::printf("  %s\n", line.c_str());
   }
   return 0;
}
