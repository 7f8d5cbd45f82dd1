/* A ComputeJob on a device through the loader: the API tests' ComputeDevice does the Vulkan
 * work; this only lays the job's buffers out as set 0 and reads them back. */
#include "vulkan_compute_runner.h"

#include <cstring>

#include "../api/compute_device.h"

namespace terakan::test {

struct VulkanComputeRunner::State {
   explicit State(const char *name) : device(name) {}
   ComputeDevice device;
};

VulkanComputeRunner::VulkanComputeRunner(const char *device_name) : state_(new State(device_name))
{
   if (!state_->device.ok()) {
      error_ = state_->device.error;
      if (std::strcmp(device_name, "llvmpipe") == 0)
         error_ += " (for lavapipe: is mesa-vulkan-drivers installed?)";
      return;
   }
   available_ = true;
   validation_ = state_->device.validation_enabled;
}

VulkanComputeRunner::~VulkanComputeRunner()
{
   delete state_;
}

unsigned VulkanComputeRunner::validation_messages() const
{
   return state_->device.validation_messages;
}

bool VulkanComputeRunner::run(const ComputeJob &job, std::vector<std::vector<uint32_t>> &out,
                         std::string &error)
{
   ComputeDevice &gpu = state_->device;
   std::vector<VkDescriptorType> types;
   std::vector<ComputeDevice::Buffer> buffers;
   std::vector<VkDescriptorBufferInfo> infos;
   bool ok = true;
   for (size_t b = 0; b < job.buffers.size(); b++) {
      types.push_back(b < job.uniform.size() && job.uniform[b] ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
                                                               : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
      buffers.push_back(gpu.buffer(job.buffers[b].size() * 4));
      if (!buffers.back().words) {
         error = "buffer creation or mapping failed";
         ok = false;
         break;
      }
      std::memcpy(buffers.back().words, job.buffers[b].data(), job.buffers[b].size() * 4);
      infos.push_back({buffers.back().buffer, 0, VK_WHOLE_SIZE});
   }
   VkResult result = VK_SUCCESS;
   ComputeDevice::Program program;
   if (ok) {
      program = gpu.program(job.spirv, {types}, sizeof(job.push_constants), &result);
      if (result != VK_SUCCESS) {
         error = "vkCreateComputePipelines failed: " + std::to_string(result);
         ok = false;
      }
   }
   if (ok) {
      VkDescriptorSet set = gpu.descriptor_set(program, 0, infos);
      VkCommandBuffer commands = gpu.begin();
      vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.pipeline);
      vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.layout, 0, 1,
                              &set, 0, nullptr);
      vkCmdPushConstants(commands, program.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                         sizeof(job.push_constants), job.push_constants.data());
      vkCmdDispatch(commands, job.groups[0], job.groups[1], job.groups[2]);
      ComputeDevice::barrier(commands);
      result = gpu.submit_and_wait(commands);
      if (result != VK_SUCCESS) {
         error = "vkQueueSubmit failed: " + std::to_string(result);
         ok = false;
      }
   }
   out.assign(job.buffers.size(), {});
   for (size_t b = 0; b < buffers.size(); b++) {
      if (ok)
         out[b].assign(buffers[b].words, buffers[b].words + job.buffers[b].size());
      gpu.destroy(buffers[b]);
   }
   gpu.destroy(program);
   return ok;
}

} // namespace terakan::test
