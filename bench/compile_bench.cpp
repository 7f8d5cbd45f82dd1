/* terakan-bench-compile: compile time and code statistics over the compiler corpus.
 *
 *   terakan-bench-compile [SPIRV_DIR] [--repeat N]
 *
 * SPIRV_DIR holds the corpus compiled to SPIR-V (the build's tests/ folder: meson builds one
 * .spv per tests/compiler/shaders/*.comp). Shaders the compiler refuses are listed and left out
 * of the totals. Prints, per chip, the median and 95th-percentile compile time per shader and
 * the totals of the statistics, then the same for the ALU-heavy shaders (alu_heavy_*,
 * matrix_vector, vector_math, cross_product), whose slot occupancy is the packer's target. */
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "compiler/compiler.h"
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

int main(int argc, char **argv)
{
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
