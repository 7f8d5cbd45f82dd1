/* The compiler corpus (tests/compiler/shaders) as the tests see it: the shaders with their
 * directives, the initial buffers and push constants of the corpus ABI (see
 * test_compute_corpus.cpp), and the comparison with the oracle's results. */
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace terakan::test::corpus_files {

namespace fs = std::filesystem;

struct CorpusShader {
   std::string name;
   std::vector<uint32_t> spirv;
   std::array<uint32_t, 3> groups{4, 1, 1};
   double tolerance = 0;
   std::string refused; /* non-empty: the expected refusal */
   /* The push constants' first four dwords (`// push: A B C D`; push_constants otherwise). */
   std::array<uint32_t, 4> push{};
};

inline constexpr std::array<uint32_t, 4> push_constants = {7, 0x40490fdbu, 0xfffffff0u, 3};

inline const char *source_dir() { return std::getenv("TERAKAN_CORPUS_SOURCE"); }
inline const char *spirv_dir() { return std::getenv("TERAKAN_CORPUS_SPIRV"); }

inline std::vector<uint32_t> read_words(const fs::path &path)
{
   std::ifstream file(path, std::ios::binary);
   std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
   std::vector<uint32_t> words(bytes.size() / 4);
   std::memcpy(words.data(), bytes.data(), words.size() * 4);
   return words;
}

inline std::vector<CorpusShader> load_corpus()
{
   std::vector<CorpusShader> corpus;
   if (!source_dir() || !spirv_dir())
      return corpus;
   std::vector<fs::path> sources;
   for (const auto &entry : fs::directory_iterator(source_dir()))
      if (entry.path().extension() == ".comp")
         sources.push_back(entry.path());
   std::sort(sources.begin(), sources.end());
   for (const fs::path &source : sources) {
      CorpusShader shader;
      shader.push = push_constants;
      shader.name = source.stem().string();
      const char *suffix = std::getenv("TERAKAN_CORPUS_SPIRV_SUFFIX");
      shader.spirv = read_words(fs::path(spirv_dir()) / (shader.name + (suffix ? suffix : ".spv")));
      std::ifstream file(source);
      std::string line;
      while (std::getline(file, line) && line.rfind("//", 0) == 0) {
         std::istringstream words(line.substr(2));
         std::string key;
         words >> key;
         if (key == "groups:") {
            for (unsigned i = 0; i < 3 && words >> shader.groups[i]; i++) {
            }
         } else if (key == "tolerance:") {
            words >> shader.tolerance;
         } else if (key == "push:") {
            for (unsigned i = 0; i < 4 && words >> shader.push[i]; i++) {
            }
         } else if (key == "refused:") {
            std::getline(words >> std::ws, shader.refused);
         }
      }
      corpus.push_back(std::move(shader));
   }
   return corpus;
}

inline const std::vector<CorpusShader> &corpus()
{
   static const std::vector<CorpusShader> shaders = load_corpus();
   return shaders;
}

inline float as_float(uint32_t v)
{
   float f;
   std::memcpy(&f, &v, 4);
   return f;
}

inline std::vector<std::vector<uint32_t>> initial_buffers()
{
   std::mt19937 random(1234);
   std::vector<uint32_t> integers(1024), zeros(1024, 0), floats(1024);
   for (uint32_t &v : integers)
      v = random();
   const uint32_t edges[] = {0, 1, 0xffffffffu, 0x80000000u, 0x7fffffffu, 2, 3, 0x10000};
   std::copy(std::begin(edges), std::end(edges), integers.begin());
   std::uniform_real_distribution<float> range(-10.0f, 10.0f);
   for (uint32_t &v : floats) {
      const float f = range(random);
      std::memcpy(&v, &f, 4);
   }
   /* Binding 3: a uniform buffer of 256 dwords: float k * 0.25 - 8 at dword k. */
   std::vector<uint32_t> uniform(256);
   for (unsigned k = 0; k < uniform.size(); k++) {
      const float f = float(k) * 0.25f - 8.0f;
      std::memcpy(&uniform[k], &f, 4);
   }
   return {integers, zeros, floats, uniform};
}

/* Compares `got` with the oracle's `expected`, within the shader's tolerance; returns the
 * number of differing dwords and describes the first few in `report`. */
inline unsigned compare(const CorpusShader &shader, const std::vector<std::vector<uint32_t>> &expected,
                        const std::vector<std::vector<uint32_t>> &got, std::string &report)
{
   unsigned mismatches = 0;
   for (size_t b = 0; b < expected.size(); b++) {
      for (size_t i = 0; i < expected[b].size(); i++) {
         const uint32_t want = expected[b][i], have = b < got.size() && i < got[b].size() ? got[b][i] : 0xdeadbeefu;
         if (want == have)
            continue;
         if (shader.tolerance > 0) {
            const float w = as_float(want), g = as_float(have);
            const double scale = std::max(1.0, double(std::fabs(w)));
            if (std::isfinite(w) && std::fabs(double(w) - double(g)) <= shader.tolerance * scale)
               continue;
         }
         if (++mismatches <= 8) {
            std::ostringstream line;
            line << shader.name << " binding " << b << " dword " << i << ": oracle 0x" << std::hex
                 << want << " (" << as_float(want) << "), terakan 0x" << have << " ("
                 << as_float(have) << ")" << std::dec << "\n";
            report += line.str();
         }
      }
   }
   return mismatches;
}

} // namespace terakan::test::corpus_files
