/* Runs a SPIR-V compute job (the corpus ABI: buffers as set 0, 16 bytes of push constants)
 * through the Vulkan loader with the Khronos validation layer, on the first device whose name
 * holds a given text, and returns its buffers. On lavapipe ("llvmpipe") it is the oracle; on Terakan it is the thing tested. */
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

class VulkanComputeRunner {
public:
   explicit VulkanComputeRunner(const char *device_name);
   ~VulkanComputeRunner();
   VulkanComputeRunner(const VulkanComputeRunner &) = delete;
   VulkanComputeRunner &operator=(const VulkanComputeRunner &) = delete;

   bool available() const { return available_; }
   const std::string &error() const { return error_; }
   bool validation_enabled() const { return validation_; }
   unsigned validation_messages() const; /* warnings and errors of the validation layer */

   /* Runs the job; on return `buffers` holds what the shader left in them. */
   bool run(const ComputeJob &job, std::vector<std::vector<uint32_t>> &buffers, std::string &error);

private:
   struct State;
   State *state_ = nullptr;
   bool available_ = false;
   std::string error_;
   bool validation_ = false;
};

} // namespace terakan::test
