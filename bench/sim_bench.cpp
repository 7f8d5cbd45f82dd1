/* terakan-bench-sim: how fast the simulator's shader core runs LLVM-compiled kernels, and how
 * fast its draw path shades pixels. Prints ALU lane-operations per second and wavefronts per
 * second, per kernel and chip, then shaded pixels per second for a simple and a texture-heavy
 * pixel shader (sim_pixel_bench.cpp). A benchmark prints figures; it asserts nothing about time.
 *
 *   terakan-bench-sim [--chip cypress|barts|cayman] [--repeat N] [--draws N] [KERNELS.ll]
 */
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "compiler/isa/elf_program.h"
#include "core/host_memory.h"
#include "core/shader_core.h"
#include "sim_pixel_bench.h"

using namespace terakan;


int main(int argc, char **argv)
{
   std::string cpu = "cayman", source = TERAKAN_BENCH_KERNELS;
   int repeat = 20, draws = 5;
   for (int i = 1; i < argc; i++) {
      const std::string arg = argv[i];
      if (arg == "--chip" && i + 1 < argc)
         cpu = argv[++i];
      else if (arg == "--repeat" && i + 1 < argc)
         repeat = std::atoi(argv[++i]);
      else if (arg == "--draws" && i + 1 < argc)
         draws = std::atoi(argv[++i]);
      else
         source = arg;
   }
   const hw::Family family = cpu == "cypress" ? hw::Family::Cypress
                             : cpu == "barts" ? hw::Family::Barts
                                              : hw::Family::Cayman;
   const std::string object = "/tmp/terakan-bench-sim-" + cpu + ".o";
   const std::string command = "llc-14 -march=r600 -mcpu=" + cpu + " -filetype=obj '" + source +
                               "' -o '" + object + "'";
   if (std::system(command.c_str()) != 0) {
      std::fprintf(stderr, "terakan-bench-sim: %s failed\n", command.c_str());
      return 1;
   }
   std::ifstream file(object, std::ios::binary);
   const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
   std::vector<isa::ElfFunction> functions;
   std::string error;
   if (!isa::read_elf_functions(bytes, functions, error)) {
      std::fprintf(stderr, "terakan-bench-sim: %s\n", error.c_str());
      return 1;
   }

   std::printf("terakan-bench-sim: %s, 64 groups of 64 threads per dispatch, %d dispatches per kernel\n",
               cpu.c_str(), repeat);
   std::printf("%-18s %14s %14s %12s\n", "kernel", "lane-ops/s", "wavefronts/s", "ms/dispatch");
   uint64_t all_ops = 0, all_waves = 0;
   double all_seconds = 0;
   for (const char *name : {"float_arith", "sdiv", "loop_sum", "collatz", "lds_reduce", "float_sin_cos"}) {
      const isa::ElfFunction *kernel = nullptr;
      for (const auto &function : functions)
         if (function.name == name)
            kernel = &function;
      if (!kernel)
         continue;
      const unsigned groups = 64, threads = groups * 64;
      sim::HostMemory memory;
      memory.buffers.push_back({0x100000, {}});
      memory.buffers.back().bytes.resize(kernel->dwords.size() * 4);
      std::memcpy(memory.buffers.back().bytes.data(), kernel->dwords.data(), kernel->dwords.size() * 4);
      memory.buffers.push_back({0x200000, std::vector<uint8_t>(256)});
      const uint32_t params[12] = {groups, 1, 1, threads, 1, 1, 64, 1, 1, threads * 4, 0, 5};
      std::memcpy(memory.buffers.back().bytes.data(), params, sizeof(params));
      memory.buffers.push_back({0x1000000, std::vector<uint8_t>(threads * 8)});
      std::mt19937 random(1);
      for (unsigned i = 0; i < threads; i++) {
         const uint32_t v = random();
         std::memcpy(memory.buffers.back().bytes.data() + i * 4, &v, 4);
      }

      sim::ComputeDispatch dispatch;
      dispatch.isa = hw::family_info(family).isa_class;
      dispatch.program = kernel->dwords;
      for (const auto &[reg, value] : kernel->config) {
         if (reg == 0x288D4)
            dispatch.num_gprs = value & 0xff, dispatch.stack_size = (value >> 8) & 0xff;
         if (reg == 0x288E8)
            dispatch.lds_dwords = value;
      }
      dispatch.group_size = {64, 1, 1};
      dispatch.grid = {groups, 1, 1};
      dispatch.constant_buffers[0] = {true, 0x200000, 256};
      sim::FetchResource pool;
      pool.address = 0x1000000;
      pool.size = threads * 8 - 1;
      pool.stride = 1;
      dispatch.fetch_resources[1] = pool;
      dispatch.rats[0] = {0x1000000, 0xD, threads * 8};

      uint64_t ops = 0, waves = 0;
      const auto start = std::chrono::steady_clock::now();
      for (int r = 0; r < repeat; r++) {
         const sim::DispatchResult result = sim::run_compute_dispatch(dispatch, memory);
         if (!result.ok) {
            std::fprintf(stderr, "terakan-bench-sim: %s: %s\n", name, result.error.c_str());
            return 1;
         }
         ops += result.statistics.alu_lane_operations;
         waves += result.statistics.wavefronts;
      }
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::printf("%-18s %14.3e %14.3e %12.3f\n", name, ops / seconds, waves / seconds,
                  1000.0 * seconds / repeat);
      all_ops += ops;
      all_waves += waves;
      all_seconds += seconds;
   }
   std::printf("%-18s %14.3e %14.3e\n", "all", all_ops / all_seconds, all_waves / all_seconds);
   return bench::run_pixel_benchmarks(hw::family_info(family).isa_class, draws) ? 0 : 1;
}
