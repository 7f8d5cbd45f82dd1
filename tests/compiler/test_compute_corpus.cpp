/* The compiler's corpus: our own GLSL compute shaders (tests/compiler/shaders, compiled to
 * SPIR-V by glslangValidator at build time), compiled by Terakan for two VLIW5 chips (Cypress,
 * Evergreen; Barts, Northern Islands) and for Cayman (VLIW4), run on the simulator's shader
 * core, and compared with lavapipe running the same SPIR-V. Every program must also pass the
 * bundle-rule checker (the simulator refuses it otherwise).
 *
 * Directives in a shader's leading comments:
 *   // groups: X [Y [Z]]          workgroups to dispatch (default 4)
 *   // tolerance: T reason...     float results may differ by T (absolute, or relative above 1)
 *   // refused: text              the compiler must refuse the shader with a message holding text
 *   // push: A B C D              the push constants' first four dwords (default below)
 *
 * Buffers (the corpus ABI): binding 0 = 1024 integers (edge values first, then random),
 * binding 1 = 1024 zeros (the output), binding 2 = 1024 floats in [-10, 10), binding 3 = a
 * uniform buffer of 256 floats (k * 0.25 - 8); push constants
 * = {7, pi, 0xfffffff0, 3}. */
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <functional>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include "compiler/compiler.h"
#include "compiler/isa/opcodes.h"
#include "compiler/isa/program.h"
#include "compiler/isa/words.h"
#include "core/host_memory.h"
#include "core/shader_core.h"
#include "corpus.h"
#include "vulkan_compute_runner.h"

using namespace terakan;
using namespace terakan::test::corpus_files;

namespace {

test::VulkanComputeRunner &lavapipe()
{
   static test::VulkanComputeRunner runner("llvmpipe");
   return runner;
}

/* lavapipe's results, computed once per shader. */
const std::vector<std::vector<uint32_t>> *oracle(const CorpusShader &shader, std::string &error)
{
   static std::map<std::string, std::vector<std::vector<uint32_t>>> cache;
   const auto found = cache.find(shader.name);
   if (found != cache.end())
      return &found->second;
   if (!lavapipe().available()) {
      error = lavapipe().error();
      return nullptr;
   }
   test::ComputeJob job;
   job.spirv = shader.spirv;
   job.buffers = initial_buffers();
   job.uniform = {false, false, false, true};
   job.push_constants = shader.push;
   job.groups = shader.groups;
   std::vector<std::vector<uint32_t>> out;
   if (!lavapipe().run(job, out, error))
      return nullptr;
   return &(cache[shader.name] = out);
}

struct SimulatedRun {
   bool ok = false;
   std::string error;
   std::vector<std::vector<uint32_t>> buffers;
   compiler::ShaderBinary binary;
};

/* Changes a dispatch before it runs (tests of what the simulator must refuse). */
using Tamper = std::function<void(sim::ComputeDispatch &)>;

SimulatedRun run_on_simulator(const CorpusShader &shader, hw::Family family, const Tamper &tamper = {})
{
   SimulatedRun run;
   compiler::CompileOptions options;
   options.family = family;
   if (!compiler::compile_compute(shader.spirv, "main", options, run.binary, run.error))
      return run;

   constexpr uint64_t code_address = 0x100000, push_address = 0x200000,
                      driver_address = 0x300000, buffer_base = 0x1000000, buffer_stride = 0x100000;
   sim::HostMemory memory;
   memory.add(code_address, run.binary.code.size() * 4);
   auto &push = memory.add(push_address, 256);
   std::memcpy(push.bytes.data(), shader.push.data(), sizeof(shader.push));
   auto &driver = memory.add(driver_address, 256);
   std::memcpy(driver.bytes.data(), shader.groups.data(), 12);
   const auto initial = initial_buffers();
   /* Driver constants 4-11: the size of each storage buffer's range (OpArrayLength). */
   for (unsigned b = 0; b < initial.size() && b < compiler::max_storage_buffer_slots; b++) {
      const uint32_t size = uint32_t(initial[b].size() * 4);
      std::memcpy(driver.bytes.data() + 4 * (compiler::storage_buffer_size_constants + b), &size, 4);
   }

   sim::ComputeDispatch dispatch;
   dispatch.isa = hw::family_info(family).isa_class;
   dispatch.program = run.binary.code;
   dispatch.program_address = code_address;
   dispatch.num_gprs = run.binary.gprs;
   dispatch.stack_size = run.binary.stack_entries;
   dispatch.lds_dwords = (run.binary.lds_bytes + 3) / 4;
   dispatch.group_size = run.binary.workgroup_size;
   dispatch.grid = shader.groups;
   dispatch.constant_buffers[0] = {true, push_address, 256};
   dispatch.constant_buffers[1] = {true, driver_address, 256};
   for (unsigned b = 0; b < initial.size(); b++) {
      const uint64_t address = buffer_base + b * buffer_stride;
      auto &buffer = memory.add(address, initial[b].size() * 4);
      std::memcpy(buffer.bytes.data(), initial[b].data(), buffer.bytes.size());
      sim::FetchResource resource;
      resource.address = address;
      resource.size = uint32_t(buffer.bytes.size() - 1);
      resource.stride = 1;
      dispatch.fetch_resources[b] = resource;
      dispatch.rats[b] = {address, 0xD, buffer.bytes.size()};
   }
   /* Uniform buffers read through the constant cache: constant buffer 2 + k is the buffer at
    * slot kcache_slots[k] (the corpus ABI: binding b is slot b). */
   for (size_t k = 0; k < run.binary.kcache_slots.size(); k++) {
      const unsigned slot = run.binary.kcache_slots[k];
      if (slot >= initial.size()) {
         run.error = "the corpus binds no buffer at slot " + std::to_string(slot);
         return run;
      }
      dispatch.constant_buffers[compiler::first_kcache_uniform_buffer + k] = {
         true, buffer_base + slot * buffer_stride, initial[slot].size() * 4};
   }
   /* Returning RAT operations: every RAT's return buffer (CB_IMMEDn_BASE) and the uncached
    * fetch resource the program reads the old values through (compiler.h), after the buffers
    * so that memory.buffers[3 + b] stay the bindings. */
   if (run.binary.rat_returns) {
      constexpr uint64_t return_address = 0x800000;
      memory.add(return_address, compiler::rat_return_buffer_bytes);
      for (auto &[id, rat] : dispatch.rats)
         rat.return_address = return_address;
      sim::FetchResource returns;
      returns.address = return_address;
      returns.size = compiler::rat_return_buffer_bytes - 1;
      returns.stride = 1;
      returns.uncached = true;
      dispatch.fetch_resources[compiler::rat_return_fetch_resource] = returns;
   }
   if (run.binary.push_constants_fetched) {
      sim::FetchResource push_resource;
      push_resource.address = push_address;
      push_resource.size = 255;
      push_resource.stride = 1;
      dispatch.fetch_resources[16] = push_resource;
   }
   /* Private arrays in scratch: a ring with an item of binary.scratch_dwords per lane for each
    * wave of a group (docs/sim-semantics.md, "Scratch"), after the buffers as well. */
   if (run.binary.scratch_dwords) {
      constexpr uint64_t ring_address = 0x8000000;
      const unsigned threads = dispatch.group_size[0] * dispatch.group_size[1] * dispatch.group_size[2];
      const uint64_t bytes = uint64_t(run.binary.scratch_dwords) * 4 * 64 * ((threads + 63) / 64);
      memory.add(ring_address, bytes);
      dispatch.scratch = {ring_address, bytes, run.binary.scratch_dwords};
   }
   if (tamper)
      tamper(dispatch);
   const sim::DispatchResult result = sim::run_compute_dispatch(dispatch, memory);
   if (!result.ok) {
      run.error = "simulator: " + result.error;
      return run;
   }
   for (unsigned b = 0; b < initial.size(); b++) {
      const auto &bytes = memory.buffers[3 + b].bytes;
      std::vector<uint32_t> words(bytes.size() / 4);
      std::memcpy(words.data(), bytes.data(), bytes.size());
      run.buffers.push_back(words);
   }
   run.ok = true;
   return run;
}

struct Param {
   size_t shader;
   hw::Family family;
};

class ComputeCorpus : public testing::TestWithParam<Param> {};

TEST_P(ComputeCorpus, MatchesLavapipe)
{
   const CorpusShader &shader = corpus()[GetParam().shader];
   ASSERT_FALSE(shader.spirv.empty()) << "no SPIR-V for " << shader.name;
   SimulatedRun run = run_on_simulator(shader, GetParam().family);
   if (!shader.refused.empty()) {
      EXPECT_FALSE(run.ok) << shader.name << " compiled but should have been refused";
      EXPECT_NE(run.error.find(shader.refused), std::string::npos)
         << "refusal message was: " << run.error;
      return;
   }
   ASSERT_TRUE(run.ok) << run.error;
   std::string error;
   const auto *expected = oracle(shader, error);
   ASSERT_NE(expected, nullptr) << error;
   EXPECT_EQ(lavapipe().validation_messages(), 0u);
   unsigned mismatches = 0;
   for (size_t b = 0; b < expected->size(); b++) {
      for (size_t i = 0; i < (*expected)[b].size(); i++) {
         const uint32_t want = (*expected)[b][i], got = run.buffers[b][i];
         if (want == got)
            continue;
         if (shader.tolerance > 0) {
            const float w = as_float(want), g = as_float(got);
            const double scale = std::max(1.0, double(std::fabs(w)));
            if (std::isfinite(w) && std::fabs(double(w) - double(g)) <= shader.tolerance * scale)
               continue;
         }
         if (++mismatches <= 8)
            ADD_FAILURE() << shader.name << " binding " << b << " dword " << i << ": lavapipe 0x"
                          << std::hex << want << " (" << as_float(want) << "), terakan 0x" << got
                          << " (" << as_float(got) << ")" << std::dec;
      }
   }
   EXPECT_EQ(mismatches, 0u);
   RecordProperty("statistics", compiler::format_statistics(run.binary.statistics));
}

std::vector<Param> params()
{
   std::vector<Param> list;
   for (size_t i = 0; i < corpus().size(); i++)
      for (hw::Family family : {hw::Family::Cypress, hw::Family::Barts, hw::Family::Cayman})
         list.push_back({i, family});
   return list;
}

INSTANTIATE_TEST_SUITE_P(Corpus, ComputeCorpus, testing::ValuesIn(params()),
                         [](const testing::TestParamInfo<Param> &info) {
                            return corpus()[info.param.shader].name + "_" +
                                   std::string(hw::family_info(info.param.family).name);
                         });

TEST(ComputeCorpusSetup, OracleRunsWithValidation)
{
   ASSERT_TRUE(lavapipe().available()) << lavapipe().error();
   EXPECT_TRUE(lavapipe().validation_enabled())
      << "the Khronos validation layer (vulkan-validationlayers) is not installed";
}

TEST(ComputeCorpusSetup, RefusesInvalidSpirv)
{
   compiler::ShaderBinary binary;
   std::string error;
   const std::vector<uint32_t> garbage = {0x07230203, 0x00010000, 0, 5, 0, 0xdeadbeef, 0x12345678};
   EXPECT_FALSE(compiler::compile_compute(garbage, "main", {}, binary, error));
   EXPECT_NE(error.find("SPIR-V"), std::string::npos) << error;
   const std::vector<uint32_t> not_spirv = {1, 2, 3};
   EXPECT_FALSE(compiler::compile_compute(not_spirv, "main", {}, binary, error));
   EXPECT_NE(error.find("not a SPIR-V module"), std::string::npos) << error;
}

/* Corrupted modules: the compiler must answer (compiled, or refused with a message), never
 * crash. Mesa's translator trusts its input, so the compiler validates first. */
TEST(ComputeCorpusSetup, CorruptedModulesAreRefusedNotCrashed)
{
   std::mt19937 random(77);
   unsigned refused = 0, compiled = 0;
   for (const CorpusShader &shader : corpus()) {
      for (unsigned variant = 0; variant < 8; variant++) {
         std::vector<uint32_t> words = shader.spirv;
         for (unsigned flips = 0; flips < 1 + variant % 4; flips++) {
            const size_t at = 5 + random() % (words.size() - 5);
            words[at] ^= 1u << (random() % 32);
         }
         compiler::ShaderBinary binary;
         std::string error;
         if (compiler::compile_compute(words, "main", {}, binary, error)) {
            compiled++;
         } else {
            EXPECT_FALSE(error.empty());
            refused++;
         }
      }
   }
   std::printf("corrupted modules: %u refused, %u still compiled\n", refused, compiled);
   EXPECT_GT(refused, 0u);
}

/* A built-in whose declared size is not its value's: a uvec3 decorated LocalInvocationIndex
 * (one bit away from GlobalInvocationId, 28 -> 29) is refused with a message, not handed to
 * Mesa's system-value lowering, which asserts on it (the corrupted-module test found it). */
TEST(ComputeCorpusSetup, BuiltInOfTheWrongSizeIsRefused)
{
   const CorpusShader *shader = nullptr;
   for (const CorpusShader &s : corpus())
      if (s.name == "bitfield_extract")
         shader = &s;
   ASSERT_NE(shader, nullptr);
   std::vector<uint32_t> words = shader->spirv;
   unsigned changed = 0;
   for (size_t at = 5; at < words.size(); at += words[at] >> 16) {
      /* OpDecorate %id BuiltIn GlobalInvocationId: opcode 71, 4 words, decoration 11, 28. */
      if ((words[at] & 0xffff) == 71 && (words[at] >> 16) == 4 && words[at + 2] == 11 && words[at + 3] == 28) {
         words[at + 3] = 29;
         changed++;
      }
      if ((words[at] >> 16) == 0)
         break;
   }
   ASSERT_EQ(changed, 1u) << "the shader declares gl_GlobalInvocationID once";
   compiler::ShaderBinary binary;
   std::string error;
   EXPECT_FALSE(compiler::compile_compute(words, "main", {}, binary, error));
   EXPECT_NE(error.find("built-in"), std::string::npos) << error;
   std::printf("refused: %s\n", error.c_str());
}

/* RAT returns: the old value reaches the return buffer only when the RAT operation asked for
 * an acknowledgement (MARK) and a WAIT_ACK waited for it, and it must be read through an
 * uncached resource; the simulator refuses programs and bindings that skip any of these. */
TEST(ComputeCorpusSetup, RatReturnsNeedMarkWaitAckAndAnUncachedResource)
{
   const CorpusShader *shader = nullptr;
   for (const CorpusShader &s : corpus())
      if (s.name == "ssbo_atomics_return")
         shader = &s;
   ASSERT_NE(shader, nullptr);
   /* Rewrites every CF instruction `match` accepts. */
   auto patch_cf = [](sim::ComputeDispatch &dispatch, const std::function<bool(isa::CfInstruction &)> &match) {
      isa::Program program;
      isa::DecodeError error;
      ASSERT_TRUE(isa::decode_program_at(dispatch.program, dispatch.isa, program, error)) << error.message;
      unsigned patched = 0;
      for (isa::CfInstruction &cf : program.cf) {
         if (!match(cf))
            continue;
         dispatch.program[cf.index * 2] = cf.words[0];
         dispatch.program[cf.index * 2 + 1] = cf.words[1];
         patched++;
      }
      ASSERT_GT(patched, 0u);
   };
   for (hw::Family family : {hw::Family::Cypress, hw::Family::Cayman}) {
      SCOPED_TRACE(hw::family_info(family).name);
      EXPECT_TRUE(run_on_simulator(*shader, family).ok);
      const SimulatedRun no_wait = run_on_simulator(*shader, family, [&](sim::ComputeDispatch &d) {
         patch_cf(d, [&](isa::CfInstruction &cf) {
            if (cf.op->name != "WAIT_ACK")
               return false;
            cf.set(isa::cf::inst, isa::find_cf_op("NOP")->opcode_for(d.isa));
            return true;
         });
      });
      EXPECT_FALSE(no_wait.ok);
      EXPECT_NE(no_wait.error.find("before its write was acknowledged"), std::string::npos) << no_wait.error;
      const SimulatedRun no_mark = run_on_simulator(*shader, family, [&](sim::ComputeDispatch &d) {
         patch_cf(d, [](isa::CfInstruction &cf) {
            if (!cf.op->name.starts_with("MEM_RAT") || !cf.get(isa::cf_export::mark))
               return false;
            cf.set(isa::cf_export::mark, 0);
            return true;
         });
      });
      EXPECT_FALSE(no_mark.ok);
      EXPECT_NE(no_mark.error.find("before its write was acknowledged"), std::string::npos) << no_mark.error;
      const SimulatedRun cached = run_on_simulator(*shader, family, [](sim::ComputeDispatch &d) {
         d.fetch_resources.at(compiler::rat_return_fetch_resource).uncached = false;
      });
      EXPECT_FALSE(cached.ok);
      EXPECT_NE(cached.error.find("through a cached resource"), std::string::npos) << cached.error;
      const SimulatedRun unbound = run_on_simulator(*shader, family, [](sim::ComputeDispatch &d) {
         for (auto &[id, rat] : d.rats)
            rat.return_address = 0;
      });
      EXPECT_FALSE(unbound.ok);
      EXPECT_NE(unbound.error.find("CB_IMMED1_BASE"), std::string::npos) << unbound.error;
   }
}

/* Scratch (docs/compiler.md "Scratch"): the compiled program runs only with its WAIT_ACKs, a
 * ring and a ring large enough for the group; and the results depend on where each access goes
 * (a READ_SCRATCH moved by one element gives other results than lavapipe's, so the corpus
 * comparison would catch an addressing slip). */
TEST(ComputeCorpusSetup, ScratchNeedsWaitAckAndARingAndReadsWhatItWrote)
{
   const CorpusShader *shader = nullptr;
   for (const CorpusShader &s : corpus())
      if (s.name == "scratch_shuffled_loop")
         shader = &s;
   ASSERT_NE(shader, nullptr);
   for (hw::Family family : {hw::Family::Cypress, hw::Family::Cayman}) {
      SCOPED_TRACE(hw::family_info(family).name);
      const SimulatedRun good = run_on_simulator(*shader, family);
      ASSERT_TRUE(good.ok) << good.error;
      EXPECT_EQ(good.binary.scratch_dwords, 128u * 4);
      const SimulatedRun no_wait = run_on_simulator(*shader, family, [&](sim::ComputeDispatch &d) {
         isa::Program program;
         isa::DecodeError error;
         ASSERT_TRUE(isa::decode_program_at(d.program, d.isa, program, error)) << error.message;
         for (isa::CfInstruction &cf : program.cf) {
            if (cf.op->name != "WAIT_ACK")
               continue;
            cf.set(isa::cf::inst, isa::find_cf_op("NOP")->opcode_for(d.isa));
            d.program[cf.index * 2 + 1] = cf.words[1];
         }
      });
      EXPECT_NE(no_wait.error.find("before the write to it was acknowledged"), std::string::npos) << no_wait.error;
      const SimulatedRun no_ring = run_on_simulator(*shader, family, [](sim::ComputeDispatch &d) { d.scratch = {}; });
      EXPECT_NE(no_ring.error.find("no scratch ring"), std::string::npos) << no_ring.error;
      const SimulatedRun small_ring = run_on_simulator(*shader, family, [](sim::ComputeDispatch &d) {
         d.scratch.item_dwords /= 2; /* the lanes' items overlap the array's second half */
      });
      EXPECT_NE(small_ring.error.find("outside the lane's item"), std::string::npos) << small_ring.error;
      /* Every READ_SCRATCH one element further (MEM_RD word 2's ARRAY_BASE, bits 12:0). */
      const SimulatedRun shifted = run_on_simulator(*shader, family, [&](sim::ComputeDispatch &d) {
         isa::Program program;
         isa::DecodeError error;
         ASSERT_TRUE(isa::decode_program_at(d.program, d.isa, program, error)) << error.message;
         unsigned patched = 0;
         for (const isa::FetchClause &clause : program.fetch_clauses)
            for (size_t k = 0; k < clause.instructions.size(); k++)
               if (clause.instructions[k].op->name == "READ_SCRATCH") {
                  d.program[(clause.address + 2 * k) * 2 + 2] += 1; /* 128-bit fetches from the clause's slot */
                  patched++;
               }
         ASSERT_GT(patched, 0u);
      });
      if (shifted.ok)
         EXPECT_NE(shifted.buffers, good.buffers);
   }
}

TEST(ComputeCorpusSetup, CorpusIsLarge)
{
   ASSERT_NE(source_dir(), nullptr);
   EXPECT_GE(corpus().size(), 20u);
}

} // namespace
