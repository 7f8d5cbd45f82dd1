/* Proof by an independent producer: compute kernels compiled by LLVM 14's R600 backend (llc at
 * test time, for cypress, barts and cayman) run on the simulator's shader core with LLVM's
 * compute ABI (docs/sim-semantics.md), and their results must equal the same computation done
 * on the CPU. The ABI: kernel arguments in constant buffer 0 after nine implicit dwords (group
 * counts, global sizes, local sizes); thread ids in R0.xyz and group ids in R1.xyz; global
 * loads through fetch buffer 1 with byte addresses; global stores through RAT 0 with dword
 * indices; both over one memory pool whose byte offsets are the pointer values. */
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <random>

#include "compiler/isa/elf_program.h"
#include "core/shader_core.h"
#include "llvm_kernels.h"
#include "test_memory.h"

using namespace terakan;

namespace {


const std::vector<isa::ElfFunction> &compiled(const std::string &cpu)
{
   return test::compiled_kernels(cpu);
}

float f(uint32_t v) { float x; std::memcpy(&x, &v, 4); return x; }
uint32_t u(float x) { uint32_t v; std::memcpy(&v, &x, 4); return v; }

enum class Input { Integers, SmallFloats, Floats };

struct Context {
   uint32_t x, n, gid, tid, group, local_size, global_size;
   const std::vector<uint32_t> &inputs;
};

struct KernelCase {
   const char *name;
   Input input;
   std::function<uint32_t(const Context &)> reference;
   double tolerance = 0; /* 0: exact; otherwise absolute-or-relative float tolerance */
   bool lds_group_64 = false;
};

uint32_t collatz(uint32_t x)
{
   uint32_t v = x & 1023, i = 0;
   while (v > 1 && i < 200) {
      v = v & 1 ? 3 * v + 1 : v >> 1;
      i++;
   }
   return i;
}

const std::vector<KernelCase> &cases()
{
   static const std::vector<KernelCase> list = {
      {"add_const", Input::Integers, [](const Context &c) { return c.x + c.n; }},
      {"sub_mul", Input::Integers, [](const Context &c) { return (c.x - 3) * c.n; }},
      {"mulhi_u", Input::Integers, [](const Context &c) { return uint32_t((uint64_t(c.x) * c.n) >> 32); }},
      {"shifts", Input::Integers, [](const Context &c) { return (c.x << 3) ^ (c.x >> 5); }},
      {"ashr_var", Input::Integers, [](const Context &c) { return uint32_t(int32_t(c.x) >> (c.n & 31)); }},
      {"bitops", Input::Integers, [](const Context &c) { return (c.x & c.n) | (~c.x & 0x0f0f0f0fu); }},
      {"minmax_int", Input::Integers, [](const Context &c) {
          const int32_t m = std::min(int32_t(c.x), int32_t(c.n));
          return uint32_t(std::max(m, -int32_t(c.n))); }},
      {"umin", Input::Integers, [](const Context &c) { return std::min(c.x, c.n); }},
      {"sdiv", Input::Integers, [](const Context &c) { return uint32_t(int32_t(c.x) / int32_t(c.n | 1)); }},
      {"udiv_urem", Input::Integers, [](const Context &c) { return c.x / 7 + c.x % 7; }},
      {"popcount", Input::Integers, [](const Context &c) { return uint32_t(__builtin_popcount(c.x)); }},
      {"count_leading_zeros", Input::Integers, [](const Context &c) { return c.x ? uint32_t(__builtin_clz(c.x)) : 32u; }},
      {"bitfield_extract", Input::Integers, [](const Context &c) { return (c.x >> 4) & 0xff; }},
      {"sign_extend_byte", Input::Integers, [](const Context &c) { return uint32_t(int32_t(int8_t(c.x))); }},
      {"select_compare", Input::Integers, [](const Context &c) { return int32_t(c.x) > int32_t(c.n) ? c.x * 2 : c.x + 1; }},
      {"float_arith", Input::Floats, [](const Context &c) { return u(f(c.x) * 2.5f + float(int32_t(c.n))); }, 1e-6},
      {"float_divide", Input::Floats, [](const Context &c) { return u(f(c.x) / 3.0f); }, 1e-6},
      {"float_sqrt", Input::Floats, [](const Context &c) { return u(std::sqrt(std::fabs(f(c.x)))); }, 1e-6},
      {"float_rounding", Input::Floats, [](const Context &c) {
          const float x = f(c.x);
          return u(std::floor(x) + std::ceil(x) * 2.0f + std::trunc(x)); }},
      {"float_minmax", Input::Floats, [](const Context &c) { return u(std::fmax(std::fmin(f(c.x), 100.0f), -100.0f)); }},
      {"float_to_int", Input::Floats, [](const Context &c) { return uint32_t(int32_t(f(c.x))); }},
      {"int_to_float", Input::Integers, [](const Context &c) { return u(float(int32_t(c.x))); }},
      {"uint_to_float", Input::Integers, [](const Context &c) { return u(float(c.x)); }},
      {"float_select", Input::Floats, [](const Context &c) { const float x = f(c.x); return u(x < 0 ? -x : x * 0.5f); }},
      {"float_exp_log", Input::Floats, [](const Context &c) {
          const float e = std::exp2(f(c.x) * 0.01f);
          return u(e + std::log2(e)); }, 1e-5},
      /* Transcendentals: the hardware's precision is not documented to us; LLVM reduces the
       * angle with FRACT first, so the result may differ from libm by a few ULP of 2*pi*x. */
      {"float_sin_cos", Input::SmallFloats, [](const Context &c) {
          const float x = f(c.x);
          return u(std::sin(x) + std::cos(x)); }, 1e-4},
      {"loop_sum", Input::Integers, [](const Context &c) {
          const uint32_t n = c.x & 63;
          uint32_t acc = 0, i = 0;
          do { acc += i; i++; } while (i < n);
          return acc; }},
      {"collatz", Input::Integers, [](const Context &c) { return collatz(c.x); }},
      {"nested_if", Input::Integers, [](const Context &c) {
          if (c.x & 1)
             return (c.x & 2 ? 11u : 22u) * c.n;
          return c.x & 4 ? c.x + c.n : 44u; }},
      {"gather", Input::Integers, [](const Context &c) {
          return c.inputs[(uint64_t(c.gid) * 7) % c.global_size] + c.x; }},
      {"lds_reverse", Input::Integers, [](const Context &c) {
          return c.inputs[c.group * c.local_size + (c.local_size - 1 - c.tid)]; }, 0, true},
      {"lds_reduce", Input::Integers, [](const Context &c) {
          uint32_t sum = 0;
          for (uint32_t i = 0; i < c.local_size; i++)
             sum += c.inputs[c.group * c.local_size + i];
          return sum; }, 0, true},
      {"lds_atomic_count", Input::Integers, [](const Context &c) {
          uint32_t odd = 0;
          for (uint32_t i = 0; i < c.local_size; i++)
             odd += c.inputs[c.group * c.local_size + i] & 1;
          return odd; }, 0, true},
   };
   return list;
}

struct Chip {
   const char *cpu;
   hw::Family family;
   unsigned wave_size;
};

constexpr Chip chips[] = {
   {"cypress", hw::Family::Cypress, 64},
   {"barts", hw::Family::Barts, 64},
   {"cayman", hw::Family::Cayman, 64},
};

constexpr uint64_t code_address = 0x100000, param_address = 0x200000, pool_address = 0x1000000;
constexpr uint32_t pool_size = 0x40000, input_offset = 0, output_offset = 0x20000;

struct KernelRun {
   sim::DispatchResult result;
   std::vector<uint32_t> outputs;
};

KernelRun run_kernel(const Chip &chip, const std::string &name, const std::vector<uint32_t> &inputs,
               uint32_t n, std::array<unsigned, 3> group, std::array<unsigned, 3> grid,
               const std::function<void(sim::ComputeDispatch &)> &adjust = nullptr)
{
   const auto &functions = compiled(chip.cpu);
   auto function = std::find_if(functions.begin(), functions.end(),
                                [&](const auto &fn) { return fn.name == name; });
   EXPECT_NE(function, functions.end()) << name;
   if (function == functions.end())
      return {};

   sim::ComputeDispatch dispatch;
   dispatch.isa = hw::family_info(chip.family).isa_class;
   dispatch.wave_size = chip.wave_size;
   dispatch.program = function->dwords;
   dispatch.program_address = code_address;
   for (const auto &[reg, value] : function->config) {
      if (reg == 0x288D4) { /* SQ_PGM_RESOURCES_LS */
         dispatch.num_gprs = value & 0xff;
         dispatch.stack_size = (value >> 8) & 0xff;
      } else if (reg == 0x288E8) { /* SQ_LDS_ALLOC */
         dispatch.lds_dwords = value & 0x3fff;
      }
   }
   dispatch.group_size = group;
   dispatch.grid = grid;

   test::TestMemory memory;
   memory.add(code_address, function->dwords.size() * 4);
   auto &params = memory.add(param_address, 256);
   const uint32_t implicit[9] = {grid[0], grid[1], grid[2],
                                 grid[0] * group[0], grid[1] * group[1], grid[2] * group[2],
                                 group[0], group[1], group[2]};
   const uint32_t arguments[3] = {output_offset, input_offset, n};
   std::memcpy(params.bytes.data(), implicit, sizeof(implicit));
   std::memcpy(params.bytes.data() + 36, arguments, sizeof(arguments));
   auto &pool = memory.add(pool_address, pool_size);
   std::memcpy(pool.bytes.data() + input_offset, inputs.data(), inputs.size() * 4);

   dispatch.constant_buffers[0] = {true, param_address, 256};
   sim::FetchResource global;
   global.address = pool_address;
   global.size = pool_size - 1;
   global.stride = 1;
   dispatch.fetch_resources[1] = global;
   sim::FetchResource parameters = global;
   parameters.address = param_address;
   parameters.size = 255;
   dispatch.fetch_resources[3] = parameters;
   dispatch.rats[0] = {pool_address, 0xD, pool_size};
   if (adjust)
      adjust(dispatch);

   KernelRun run;
   run.result = sim::run_compute_dispatch(dispatch, memory);
   const uint32_t *out = reinterpret_cast<const uint32_t *>(memory.buffers[2].bytes.data() + output_offset);
   run.outputs.assign(out, out + inputs.size());
   return run;
}

std::vector<uint32_t> make_inputs(Input kind, size_t count, uint32_t seed)
{
   std::mt19937 random(seed);
   std::vector<uint32_t> inputs(count);
   for (uint32_t &value : inputs) {
      switch (kind) {
      case Input::Integers: value = random(); break;
      case Input::SmallFloats: value = u(std::uniform_real_distribution<float>(-3.0f, 3.0f)(random)); break;
      case Input::Floats: value = u(std::uniform_real_distribution<float>(-100.0f, 100.0f)(random)); break;
      }
   }
   /* Edge values that matter to integer kernels. */
   if (kind == Input::Integers && count > 4) {
      inputs[0] = 0;
      inputs[1] = 0xffffffffu;
      inputs[2] = 0x80000000u;
      inputs[3] = 1;
   }
   return inputs;
}

struct Param {
   Chip chip;
   size_t kernel;
   bool odd_shape; /* a group size that leaves a partial wavefront */
};

class LlvmKernels : public ::testing::TestWithParam<Param> {};

TEST_P(LlvmKernels, MatchesTheCpu)
{
   const Param param = GetParam();
   const KernelCase &kernel = cases()[param.kernel];
   const unsigned group_x = kernel.lds_group_64 ? 64 : param.odd_shape ? 48 : 64;
   const unsigned grid_x = param.odd_shape ? 3 : 4;
   const uint32_t count = group_x * grid_x;
   const uint32_t n = 5;
   const auto inputs = make_inputs(kernel.input, count, 1234 + unsigned(param.kernel));
   const KernelRun run = run_kernel(param.chip, kernel.name, inputs, n, {group_x, 1, 1}, {grid_x, 1, 1});
   ASSERT_TRUE(run.result.ok) << run.result.error;
   unsigned mismatches = 0;
   for (uint32_t gid = 0; gid < count && mismatches < 8; gid++) {
      const Context context{inputs[gid], n, gid, gid % group_x, gid / group_x, group_x, count, inputs};
      const uint32_t expected = kernel.reference(context);
      const uint32_t actual = run.outputs[gid];
      bool equal = expected == actual;
      if (!equal && kernel.tolerance > 0) {
         const double e = f(expected), a = f(actual);
         equal = std::fabs(e - a) <= kernel.tolerance * std::max(1.0, std::fabs(e));
      }
      if (!equal) {
         mismatches++;
         ADD_FAILURE() << kernel.name << " gid " << gid << " input 0x" << std::hex << inputs[gid]
                       << ": expected 0x" << expected << " (" << f(expected) << "), got 0x"
                       << actual << " (" << f(actual) << ")";
      }
   }
}

std::vector<Param> all_params()
{
   std::vector<Param> params;
   for (const Chip &chip : chips)
      for (size_t k = 0; k < cases().size(); k++) {
         params.push_back({chip, k, false});
         if (!cases()[k].lds_group_64)
            params.push_back({chip, k, true});
      }
   return params;
}

INSTANTIATE_TEST_SUITE_P(Sim, LlvmKernels, ::testing::ValuesIn(all_params()),
                         [](const auto &info) {
                            return std::string(info.param.chip.cpu) + "_" +
                                   cases()[info.param.kernel].name +
                                   (info.param.odd_shape ? "_group48" : "");
                         });

TEST(LlvmKernels, TwoDimensionalGroups)
{
   for (const Chip &chip : chips) {
      const unsigned width = 32, height = 8;
      const auto inputs = make_inputs(Input::Integers, width * height, 99);
      const KernelRun run = run_kernel(chip, "two_dimensional", inputs, width, {8, 4, 1}, {4, 2, 1});
      ASSERT_TRUE(run.result.ok) << chip.cpu << ": " << run.result.error;
      for (unsigned row = 0; row < height; row++)
         for (unsigned col = 0; col < width; col++)
            ASSERT_EQ(run.outputs[row * width + col], row * 1000 + col + inputs[row * width + col])
               << chip.cpu << " row " << row << " col " << col;
   }
}

/* Context registers keep their values across submissions, so a constant buffer bound by
 * earlier work may name memory that has since been freed. The hardware reads a constant buffer
 * only through a kcache lock: such a binding must fault when a program reads it, not when a
 * program that never reads it is dispatched. */
TEST(LlvmKernels, StaleConstantBufferFaultsOnlyWhenRead)
{
   const Chip &chip = chips[2];
   const auto inputs = make_inputs(Input::Integers, 64, 7);
   constexpr uint64_t freed_address = 0x7000000; /* inside no buffer of the test's memory */
   const KernelRun unread = run_kernel(chip, "add_const", inputs, 5, {64, 1, 1}, {1, 1, 1},
                                       [](sim::ComputeDispatch &d) { d.constant_buffers[2] = {true, freed_address, 256}; });
   ASSERT_TRUE(unread.result.ok) << unread.result.error;
   EXPECT_EQ(unread.outputs[3], inputs[3] + 5);
   const KernelRun read = run_kernel(chip, "add_const", inputs, 5, {64, 1, 1}, {1, 1, 1},
                                     [](sim::ComputeDispatch &d) { d.constant_buffers[0].address = freed_address; });
   EXPECT_FALSE(read.result.ok);
   EXPECT_NE(read.result.error.find("reads constant buffer 0 at 0x7000000"), std::string::npos) << read.result.error;
}

} // namespace
