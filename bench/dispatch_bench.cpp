/* terakan-bench-dispatch: how fast the driver records dispatches with state changes between
 * them (pipeline, descriptor set and push constants), and how long a small submission takes
 * from vkQueueSubmit to completion. Runs through the loader on whatever device matches
 * --device (run it with the simulator preloaded: scripts in the README). Prints figures. */
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "../tests/api/compute_device.h"

using namespace terakan::test;
using Clock = std::chrono::steady_clock;

int main(int argc, char **argv)
{
   std::string device_name = "Terakan";
   unsigned dispatches = 20000, latency_runs = 50;
   for (int i = 1; i < argc; i++) {
      if (!std::strcmp(argv[i], "--device") && i + 1 < argc)
         device_name = argv[++i];
      else if (!std::strcmp(argv[i], "--dispatches") && i + 1 < argc)
         dispatches = unsigned(std::atoi(argv[++i]));
      else {
         std::fprintf(stderr, "usage: terakan-bench-dispatch [--device NAME] [--dispatches N]\n");
         return 2;
      }
   }
   ComputeDevice gpu(device_name.c_str(), /*validation=*/false);
   if (!gpu.ok()) {
      std::fprintf(stderr, "terakan-bench-dispatch: %s\n", gpu.error.c_str());
      return 1;
   }
   VkPhysicalDeviceProperties properties;
   vkGetPhysicalDeviceProperties(gpu.physical, &properties);
   std::printf("device: %s\n", properties.deviceName);

   auto a = gpu.buffer(4096), b = gpu.buffer(4096);
   auto p = gpu.program("scale_add", {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, 8);
   auto q = gpu.program("scale_add", {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, 8);
   if (!p.pipeline || !q.pipeline) {
      std::fprintf(stderr, "terakan-bench-dispatch: pipeline creation failed\n");
      return 1;
   }
   VkDescriptorSet sets[2] = {gpu.descriptor_set(p, 0, {{a.buffer, 0, VK_WHOLE_SIZE}}),
                              gpu.descriptor_set(q, 0, {{b.buffer, 0, VK_WHOLE_SIZE}})};
   ComputeDevice::Program *programs[2] = {&p, &q};

   /* Recording: every dispatch changes pipeline, set and push constants. */
   VkCommandBuffer commands = gpu.begin();
   const auto record_start = Clock::now();
   for (unsigned i = 0; i < dispatches; i++) {
      ComputeDevice::Program &program = *programs[i % 2];
      vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.pipeline);
      vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.layout, 0, 1,
                              &sets[i % 2], 0, nullptr);
      const uint32_t push[2] = {i, 1};
      vkCmdPushConstants(commands, program.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 8, push);
      vkCmdDispatch(commands, 1, 1, 1);
   }
   vkEndCommandBuffer(commands);
   const double record_s = std::chrono::duration<double>(Clock::now() - record_start).count();
   std::printf("recording: %u dispatches with state changes in %.3f s: %.0f dispatches/s (%.2f us each)\n",
               dispatches, record_s, dispatches / record_s, 1e6 * record_s / dispatches);
   vkFreeCommandBuffers(gpu.device, gpu.pool, 1, &commands);

   /* Latency: one small dispatch, submit to completion (vkQueueWaitIdle). */
   std::vector<double> latencies;
   for (unsigned run = 0; run < latency_runs; run++) {
      VkCommandBuffer c = gpu.begin();
      vkCmdBindPipeline(c, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipeline);
      vkCmdBindDescriptorSets(c, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout, 0, 1, &sets[0], 0, nullptr);
      const uint32_t push[2] = {1, 1};
      vkCmdPushConstants(c, p.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 8, push);
      vkCmdDispatch(c, 1, 1, 1);
      vkEndCommandBuffer(c);
      VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
      submit.commandBufferCount = 1;
      submit.pCommandBuffers = &c;
      const auto start = Clock::now();
      vkQueueSubmit(gpu.queue, 1, &submit, VK_NULL_HANDLE);
      vkQueueWaitIdle(gpu.queue);
      latencies.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
      vkFreeCommandBuffers(gpu.device, gpu.pool, 1, &c);
   }
   std::sort(latencies.begin(), latencies.end());
   std::printf("submit to completion (1 dispatch of 64 threads, %u runs): median %.0f us, p95 %.0f us\n",
               latency_runs, latencies[latencies.size() / 2], latencies[latencies.size() * 95 / 100]);
   gpu.destroy(p);
   gpu.destroy(q);
   gpu.destroy(a);
   gpu.destroy(b);
   return 0;
}
