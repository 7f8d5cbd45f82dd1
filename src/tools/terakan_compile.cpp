/* terakan-compile: a compute shader in, TeraScale disassembly and statistics out.
 *
 *   terakan-compile [--chip NAME] [--entry NAME] [--stats-only] FILE
 *
 * FILE is SPIR-V (binary) or GLSL (.comp, or any file not starting with the SPIR-V magic),
 * which is compiled with glslangValidator first. --chip takes a family name in any case
 * (default CYPRESS). TERAKAN_DEBUG=nir,shaders prints NIR and the final program as it compiles.
 * Exit status: 0 compiled, 1 refused (the reason on stderr), 2 usage or I/O error. */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <unistd.h>

#include "compiler/compiler.h"
#include "hw/chips.h"

using namespace terakan;

static int usage(const char *message)
{
   if (message)
      std::fprintf(stderr, "terakan-compile: %s\n", message);
   std::fprintf(stderr, "usage: terakan-compile [--chip NAME] [--entry NAME] [--stats-only] FILE\n"
                        "  FILE: SPIR-V, or GLSL compute source (compiled with glslangValidator)\n");
   return 2;
}

static bool read_file(const std::string &path, std::vector<char> &bytes)
{
   std::ifstream file(path, std::ios::binary);
   if (!file)
      return false;
   bytes.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
   return true;
}

/* GLSL -> SPIR-V through glslangValidator, into a temporary file. */
static bool compile_glsl(const std::string &path, std::vector<char> &spirv)
{
   char output[] = "/tmp/terakan-compile-XXXXXX";
   const int fd = mkstemp(output);
   if (fd < 0)
      return false;
   close(fd);
   const std::string command = "glslangValidator -V --target-env vulkan1.1 -S comp -o '" +
                               std::string(output) + "' '" + path + "' >&2";
   const int status = std::system(command.c_str());
   const bool ok = status == 0 && read_file(output, spirv);
   unlink(output);
   return ok;
}

int main(int argc, char **argv)
{
   std::string chip = "CYPRESS", entry = "main", path;
   bool stats_only = false;
   for (int i = 1; i < argc; i++) {
      const std::string arg = argv[i];
      if (arg == "--chip" && i + 1 < argc)
         chip = argv[++i];
      else if (arg == "--entry" && i + 1 < argc)
         entry = argv[++i];
      else if (arg == "--stats-only")
         stats_only = true;
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
   if (!read_file(path, bytes))
      return usage(("cannot read " + path).c_str());
   const bool is_spirv = bytes.size() >= 4 && uint8_t(bytes[0]) == 0x03 && uint8_t(bytes[1]) == 0x02 &&
                         uint8_t(bytes[2]) == 0x23 && uint8_t(bytes[3]) == 0x07;
   if (!is_spirv && !compile_glsl(path, bytes)) {
      std::fprintf(stderr, "terakan-compile: glslangValidator could not compile %s\n", path.c_str());
      return 1;
   }
   std::vector<uint32_t> words(bytes.size() / 4);
   std::memcpy(words.data(), bytes.data(), words.size() * 4);

   compiler::CompileOptions options;
   options.family = *family;
   options.debug = compiler::debug_options_from_environment();
   compiler::ShaderBinary binary;
   std::string error;
   if (!compiler::compile_compute(words, entry.c_str(), options, binary, error)) {
      std::fprintf(stderr, "terakan-compile: %s: %s\n", path.c_str(), error.c_str());
      return 1;
   }
   if (!stats_only)
      std::fputs(compiler::disassemble_binary(binary).c_str(), stdout);
   std::printf("%s: %s\n", std::string(hw::family_info(*family).name).c_str(),
               compiler::format_statistics(binary.statistics).c_str());
   return 0;
}
