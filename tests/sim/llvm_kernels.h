/* The simulator tests' kernels (kernels/compute.ll), compiled by llc-14 once per CPU. */
#pragma once

#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "compiler/isa/elf_program.h"

namespace terakan::test {

inline const std::vector<isa::ElfFunction> &compiled_kernels(const std::string &cpu)
{
   static std::map<std::string, std::vector<isa::ElfFunction>> cache;
   auto found = cache.find(cpu);
   if (found != cache.end())
      return found->second;
   const char *path = std::getenv("TERAKAN_SIM_KERNELS");
   const char *llc = std::getenv("TERAKAN_LLC");
   /* One object per process: the sim tests (and other build folders' runs) compile the same
    * corpus in parallel, and a shared name let one truncate the file another was reading. */
   const std::string object = ::testing::TempDir() + "terakan-sim-kernels-" + cpu + "-" +
                              std::to_string(getpid()) + ".o";
   const std::string command = std::string(llc ? llc : "llc-14") + " -march=r600 -mcpu=" + cpu +
                               " -filetype=obj '" + (path ? path : "compute.ll") + "' -o '" +
                               object + "'";
   EXPECT_EQ(std::system(command.c_str()), 0) << command;
   std::ifstream file(object, std::ios::binary);
   const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(file)),
                                    std::istreambuf_iterator<char>());
   std::remove(object.c_str());
   std::vector<isa::ElfFunction> functions;
   std::string error;
   EXPECT_TRUE(isa::read_elf_functions(bytes, functions, error)) << error;
   return cache[cpu] = functions;
}

inline const isa::ElfFunction *find_kernel(const std::string &cpu, const std::string &name)
{
   for (const auto &function : compiled_kernels(cpu))
      if (function.name == name)
         return &function;
   return nullptr;
}

inline uint32_t config_value(const isa::ElfFunction &function, uint32_t reg)
{
   for (const auto &[r, value] : function.config)
      if (r == reg)
         return value;
   return 0;
}

} // namespace terakan::test
