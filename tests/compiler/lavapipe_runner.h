/* Runs a SPIR-V compute shader through the Vulkan loader (with the Khronos validation layer
 * when it is installed) on the first device whose name holds a given text, and returns its
 * buffers. On lavapipe ("llvmpipe") it is the oracle; on Terakan it is the thing tested. */
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace terakan::test {

struct ComputeJob {
   std::vector<uint32_t> spirv;
   std::vector<std::vector<uint32_t>> buffers; /* binding i: initial contents */
   std::vector<bool> uniform;                  /* binding i is a uniform buffer (else storage) */
   std::array<uint32_t, 4> push_constants{};
   std::array<uint32_t, 3> groups{1, 1, 1};
};

class LavapipeRunner {
public:
   explicit LavapipeRunner(const char *device_name = "llvmpipe");
   ~LavapipeRunner();
   LavapipeRunner(const LavapipeRunner &) = delete;
   LavapipeRunner &operator=(const LavapipeRunner &) = delete;

   bool available() const { return device_ != nullptr; }
   const std::string &error() const { return error_; }
   bool validation_enabled() const { return validation_; }
   unsigned validation_messages() const { return validation_messages_; }

   /* Runs the job; on return `buffers` holds what the shader left in them. */
   bool run(const ComputeJob &job, std::vector<std::vector<uint32_t>> &buffers, std::string &error);

   static void count_message(LavapipeRunner *runner, const char *message);

private:
   struct State;
   State *state_ = nullptr;
   void *device_ = nullptr;
   std::string error_;
   bool validation_ = false;
   unsigned validation_messages_ = 0;
};

/* The same runner for any device. */
using VulkanComputeRunner = LavapipeRunner;

} // namespace terakan::test
