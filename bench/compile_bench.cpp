/* terakan-bench-compile: compile time and code statistics over the compiler corpus.
 *
 *   terakan-bench-compile [SPIRV_DIR] [--repeat N]
 *   terakan-bench-compile --versus-llvm
 *
 * SPIRV_DIR holds the corpus compiled to SPIR-V (the build's tests/ folder: meson builds one
 * .spv per tests/compiler/shaders/NAME.comp). Shaders the compiler refuses are listed and left out
 * of the totals. Prints, per chip, the median and 95th-percentile compile time per shader and
 * the totals of the statistics, then the same for the ALU-heavy shaders (alu_heavy_*,
 * matrix_vector, vector_math, cross_product), whose slot occupancy is the packer's target.
 *
 * --versus-llvm compiles bench/llvm_pairs/NAME.comp (GLSL, through glslangValidator) and LLVM
 * 14's R600 backend compiles kernel @NAME of tests/sim/kernels/compute.ll (the same
 * computation), and prints both GPR counts, ALU group counts and dwords per chip. */
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "compiler/compiler.h"
#include "compiler/isa/elf_program.h"
#include "compiler/isa/program.h"
#include "hw/chips.h"

using namespace terakan;
namespace fs = std::filesystem;

static std::vector<uint32_t> read_words(const fs::path &path)
{
   std::ifstream file(path, std::ios::binary);
   std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
   std::vector<uint32_t> words(bytes.size() / 4);
   std::memcpy(words.data(), bytes.data(), words.size() * 4);
   return words;
}

static bool alu_heavy(const std::string &name)
{
   return name.rfind("alu_heavy", 0) == 0 || name == "matrix_vector" || name == "vector_math" ||
          name == "cross_product";
}

static bool run_command(const std::string &command)
{
   return std::system(command.c_str()) == 0;
}

static std::vector<uint8_t> read_bytes(const fs::path &path)
{
   std::ifstream file(path, std::ios::binary);
   return std::vector<uint8_t>((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}

static int versus_llvm()
{
   const fs::path pairs = fs::path(TERAKAN_SOURCE_ROOT) / "bench" / "llvm_pairs";
   const fs::path kernels = fs::path(TERAKAN_SOURCE_ROOT) / "tests" / "sim" / "kernels" / "compute.ll";
   const fs::path temp = fs::temp_directory_path() / "terakan-bench-versus-llvm";
   fs::create_directories(temp);
   std::printf("%-10s %-16s %10s %10s %12s %12s %8s %8s\n", "chip", "kernel", "gprs_llvm",
               "gprs_ours", "groups_llvm", "groups_ours", "dw_llvm", "dw_ours");
   for (const char *cpu : {"cypress", "cayman"}) {
      const hw::Family family = *hw::family_from_name(cpu);
      const fs::path object = temp / (std::string(cpu) + ".o");
      if (!run_command("llc-14 -march=r600 -mcpu=" + std::string(cpu) + " -filetype=obj '" +
                       kernels.string() + "' -o '" + object.string() + "'"))
         return 2;
      std::vector<isa::ElfFunction> functions;
      std::string error;
      if (!isa::read_elf_functions(read_bytes(object), functions, error)) {
         std::fprintf(stderr, "%s\n", error.c_str());
         return 2;
      }
      unsigned llvm_total = 0, ours_total = 0;
      std::vector<fs::path> sources;
      for (const auto &entry : fs::directory_iterator(pairs))
         sources.push_back(entry.path());
      std::sort(sources.begin(), sources.end());
      for (const fs::path &source : sources) {
         const std::string name = source.stem().string();
         const auto function = std::find_if(functions.begin(), functions.end(),
                                            [&](const auto &f) { return f.name == name; });
         const fs::path spirv = temp / (name + ".spv");
         if (function == functions.end() ||
             !run_command("glslangValidator -V --quiet -o '" + spirv.string() + "' '" + source.string() + "'"))
            return 2;
         unsigned llvm_gprs = 0;
         for (const auto &[reg, value] : function->config)
            if (reg == 0x288D4) /* SQ_PGM_RESOURCES_LS.NUM_GPRS */
               llvm_gprs = value & 0xff;
         isa::Program program;
         isa::DecodeError decode_error;
         unsigned llvm_groups = 0;
         if (isa::decode_program(function->dwords, hw::family_info(family).isa_class, program, decode_error))
            for (const auto &clause : program.alu_clauses)
               llvm_groups += unsigned(clause.groups.size());
         const std::vector<uint8_t> bytes = read_bytes(spirv);
         std::vector<uint32_t> words(bytes.size() / 4);
         std::memcpy(words.data(), bytes.data(), words.size() * 4);
         compiler::CompileOptions options;
         options.family = family;
         compiler::ShaderBinary binary;
         if (!compiler::compile_compute(words, "main", options, binary, error)) {
            std::fprintf(stderr, "%s: %s\n", name.c_str(), error.c_str());
            return 2;
         }
         std::printf("%-10s %-16s %10u %10u %12u %12u %8zu %8u\n", cpu, name.c_str(), llvm_gprs,
                     binary.gprs, llvm_groups, binary.statistics.alu_groups, function->dwords.size(),
                     binary.statistics.dwords);
         llvm_total += llvm_gprs;
         ours_total += binary.gprs;
      }
      std::printf("%-10s %-16s %10u %10u\n", cpu, "total", llvm_total, ours_total);
   }
   return 0;
}

int main(int argc, char **argv)
{
   if (argc > 1 && !std::strcmp(argv[1], "--versus-llvm"))
      return versus_llvm();
   std::string directory = "tests";
   unsigned repeat = 20;
   for (int i = 1; i < argc; i++) {
      if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc)
         repeat = unsigned(std::max(1, std::atoi(argv[++i])));
      else
         directory = argv[i];
   }
   std::vector<fs::path> files;
   if (fs::is_directory(directory))
      for (const auto &entry : fs::directory_iterator(directory))
         if (entry.path().extension() == ".spv")
            files.push_back(entry.path());
   std::sort(files.begin(), files.end());
   if (files.empty()) {
      std::fprintf(stderr, "terakan-bench-compile: no .spv files in %s\n", directory.c_str());
      return 2;
   }

   std::printf("%-10s %-8s %7s %10s %10s %7s %6s %9s %7s %9s %9s %4s %4s\n", "chip", "set",
               "shaders", "median_ms", "p95_ms", "dw", "gprs", "groups", "alu", "occupancy",
               "literals", "cf", "tex");
   for (hw::Family family : {hw::Family::Cypress, hw::Family::Cayman}) {
      for (int heavy_only = 0; heavy_only < 2; heavy_only++) {
         std::vector<double> times;
         compiler::ShaderStatistics total;
         unsigned compiled = 0;
         for (const fs::path &file : files) {
            const std::string name = file.stem().string();
            if (heavy_only && !alu_heavy(name))
               continue;
            const std::vector<uint32_t> words = read_words(file);
            compiler::CompileOptions options;
            options.family = family;
            compiler::ShaderBinary binary;
            std::string error;
            std::vector<double> samples;
            bool ok = true;
            for (unsigned r = 0; r < repeat && ok; r++) {
               ok = compiler::compile_compute(words, "main", options, binary, error);
               samples.push_back(binary.statistics.compile_ms);
            }
            if (!ok) {
               if (!heavy_only && family == hw::Family::Cypress)
                  std::fprintf(stderr, "refused: %s: %s\n", name.c_str(), error.c_str());
               continue;
            }
            std::sort(samples.begin(), samples.end());
            times.push_back(samples[samples.size() / 2]);
            const compiler::ShaderStatistics &s = binary.statistics;
            total.dwords += s.dwords;
            total.gprs += s.gprs;
            total.alu_groups += s.alu_groups;
            total.alu_instructions += s.alu_instructions;
            total.alu_slots += s.alu_slots;
            total.literals += s.literals;
            total.cf += s.cf;
            total.tex_clauses += s.tex_clauses;
            compiled++;
         }
         if (times.empty())
            continue;
         std::sort(times.begin(), times.end());
         const double median = times[times.size() / 2];
         const double p95 = times[std::min(times.size() - 1, size_t(times.size() * 0.95))];
         std::printf("%-10s %-8s %7u %10.3f %10.3f %7u %6u %9u %7u %8.1f%% %9u %4u %4u\n",
                     std::string(hw::family_info(family).name).c_str(), heavy_only ? "alu-heavy" : "all",
                     compiled, median, p95, total.dwords, total.gprs, total.alu_groups,
                     total.alu_instructions, 100.0 * total.occupancy(), total.literals, total.cf,
                     total.tex_clauses);
      }
   }
   return 0;
}
