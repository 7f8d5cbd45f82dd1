/* terakan-compile: a shader in, TeraScale disassembly and statistics out.
 *
 *   terakan-compile [--chip NAME] [--stage comp|vert|frag] [--entry NAME] [--stats-only]
 *                   [--instance-input LOCATION[:DIVISOR]]... [--dynamic-vertex-input] FILE
 *
 * FILE is SPIR-V (binary) or GLSL (any file not starting with the SPIR-V magic), which is
 * compiled with glslangValidator first. The stage comes from --stage, else from the file name
 * (.vert, .frag, .comp, also before .glsl/.spv), else from the SPIR-V entry point; GLSL without
 * any of these is taken as compute. --chip takes a family name in any case (default CYPRESS).
 * TERAKAN_DEBUG=nir,shaders prints NIR and the final program as it compiles. Vertex shaders:
 * --instance-input fetches a location per instance (with a divisor, default 1), as a pipeline's
 * static vertex input would; --dynamic-vertex-input compiles as for a pipeline whose vertex
 * input is dynamic state (rates and divisors from driver constants).
 *
 * After the disassembly come two statistics lines: Terakan's own figures
 *   CHIP: dw: ..., gprs: ..., alu_groups: ..., occupancy: ...
 * and the same program counted with r600g's definitions, in r600g's words (shader_stats.h)
 *   CHIP: r600g: VS shader: N dw, N gprs, N alu_groups, N loops, N cf, N stack
 * Exit status: 0 compiled, 1 refused (the reason on stderr), 2 usage or I/O error. */
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "compiler/compiler.h"
#include "hw/chips.h"
#include "shader_stats.h"

using namespace terakan;
using compiler::ShaderStage;

static int usage(const char *message)
{
   if (message)
      std::fprintf(stderr, "terakan-compile: %s\n", message);
   std::fprintf(stderr, "usage: terakan-compile [--chip NAME] [--stage comp|vert|frag] [--entry NAME] [--stats-only]\n"
                        "                      [--instance-input LOCATION[:DIVISOR]]... [--dynamic-vertex-input] FILE\n"
                        "  FILE: SPIR-V, or GLSL source (compiled with glslangValidator)\n");
   return 2;
}

int main(int argc, char **argv)
{
   std::string chip = "CYPRESS", entry = "main", path;
   std::optional<ShaderStage> stage;
   bool stats_only = false, dynamic_vertex_input = false;
   std::vector<compiler::VertexInputOption> instance_inputs;
   for (int i = 1; i < argc; i++) {
      const std::string arg = argv[i];
      if (arg == "--chip" && i + 1 < argc)
         chip = argv[++i];
      else if (arg == "--entry" && i + 1 < argc)
         entry = argv[++i];
      else if (arg == "--stage" && i + 1 < argc) {
         stage = tools::stage_from_file_name(std::string(".") + argv[++i]);
         if (!stage)
            return usage(("unknown stage " + std::string(argv[i]) + " (comp, vert or frag)").c_str());
      } else if (arg == "--stats-only")
         stats_only = true;
      else if (arg == "--dynamic-vertex-input")
         dynamic_vertex_input = true;
      else if (arg == "--instance-input" && i + 1 < argc) {
         unsigned location = 0, divisor = 1;
         if (std::sscanf(argv[++i], "%u:%u", &location, &divisor) < 1)
            return usage(("bad --instance-input " + std::string(argv[i]) + " (LOCATION[:DIVISOR])").c_str());
         instance_inputs.push_back({location, compiler::VertexInputRate::Instance, divisor});
      }
      else if (arg == "--help" || arg == "-h")
         return usage(nullptr), 0;
      else if (!arg.empty() && arg[0] == '-')
         return usage(("unknown option " + arg).c_str());
      else
         path = arg;
   }
   if (path.empty())
      return usage("no input file");
   const auto family = hw::family_from_name(chip);
   if (!family)
      return usage(("unknown chip " + chip).c_str());

   std::vector<char> bytes;
   if (!tools::read_file(path, bytes))
      return usage(("cannot read " + path).c_str());
   if (!stage)
      stage = tools::stage_from_file_name(path);
   std::vector<uint32_t> words;
   if (tools::is_spirv(bytes)) {
      words.resize(bytes.size() / 4);
      std::memcpy(words.data(), bytes.data(), words.size() * 4);
      if (!stage)
         stage = tools::stage_from_spirv(words, entry);
      if (!stage)
         stage = ShaderStage::Compute; /* the compiler names what it finds */
   } else {
      if (!stage)
         stage = ShaderStage::Compute;
      std::string log;
      if (!tools::compile_glsl(path, *stage, words, log)) {
         std::fputs(log.c_str(), stderr);
         std::fprintf(stderr, "terakan-compile: glslangValidator could not compile %s\n", path.c_str());
         return 1;
      }
   }

   compiler::CompileOptions options;
   options.family = *family;
   options.debug = compiler::debug_options_from_environment();
   options.vertex_inputs = instance_inputs;
   options.dynamic_vertex_input = dynamic_vertex_input;
   compiler::ShaderBinary binary;
   std::string error;
   if (!tools::compile_stage(words, *stage, entry, options, binary, error)) {
      std::fprintf(stderr, "terakan-compile: %s: %s\n", path.c_str(), error.c_str());
      return 1;
   }
   if (!stats_only)
      std::fputs(compiler::disassemble_binary(binary).c_str(), stdout);
   const std::string chip_name(hw::family_info(*family).name);
   std::printf("%s: %s\n", chip_name.c_str(), compiler::format_statistics(binary.statistics).c_str());
   tools::R600gStatistics r600g;
   if (!tools::r600g_statistics(binary, r600g, error)) {
      std::fprintf(stderr, "terakan-compile: %s: the program does not decode again: %s\n", path.c_str(), error.c_str());
      return 1;
   }
   std::printf("%s: r600g: %s\n", chip_name.c_str(), tools::format_r600g_statistics(*stage, r600g).c_str());
   return 0;
}
