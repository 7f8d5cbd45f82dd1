/* Asynchronous submission (issue 15): vkQueueSubmit returns once the kernel has the work, and
 * fences and semaphores are signalled when the kernel says the submission's buffers are idle.
 * The simulated GPU runs submissions on its own thread after the CS ioctl returns, as a card
 * does, so on Terakan a long submission is seen unfinished right after vkQueueSubmit; the
 * results of every scenario are compared with lavapipe's (whose queue is asynchronous too)
 * and with the CPU's. Validation layer on. */
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "compute_device.h"

using namespace terakan::test;

namespace {

constexpr uint32_t invocations = 1024; /* 16 groups of 64 */
/* About a third of a second of the simulator's time per submission on this machine. */
constexpr uint32_t steps = 20000;

uint32_t cpu_step(uint32_t word, uint32_t index, uint32_t salt)
{
   uint32_t x = index ^ salt;
   for (uint32_t s = 0; s < steps; s++)
      x = x * 1664525u + 1013904223u;
   return word * 3u + x;
}

struct BusyWork {
   ComputeDevice &gpu;
   ComputeDevice::Program program;
   ComputeDevice::Buffer data;
   VkDescriptorSet set = VK_NULL_HANDLE;

   explicit BusyWork(ComputeDevice &device, uint32_t words = invocations) : gpu(device)
   {
      program = gpu.program("busy_loop", {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, 8);
      data = gpu.buffer(words * 4);
      for (uint32_t i = 0; i < words; i++)
         data.words[i] = i * 7u;
      set = gpu.descriptor_set(program, 0, {{data.buffer, 0, VK_WHOLE_SIZE}});
   }
   ~BusyWork()
   {
      gpu.destroy(program);
      gpu.destroy(data);
   }
   /* A recorded command buffer running the loop once with `salt`, its writes made visible to
    * the host. */
   VkCommandBuffer record(uint32_t salt)
   {
      VkCommandBuffer commands = gpu.begin();
      vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.pipeline);
      vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.layout, 0, 1, &set, 0, nullptr);
      const uint32_t push[2] = {steps, salt};
      vkCmdPushConstants(commands, program.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), push);
      vkCmdDispatch(commands, invocations / 64, 1, 1);
      ComputeDevice::barrier(commands);
      EXPECT_EQ(vkEndCommandBuffer(commands), VK_SUCCESS);
      return commands;
   }
   std::vector<uint32_t> words() const { return std::vector<uint32_t>(data.words, data.words + invocations); }
};

VkFence make_fence(ComputeDevice &gpu)
{
   VkFenceCreateInfo info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
   VkFence fence = VK_NULL_HANDLE;
   EXPECT_EQ(vkCreateFence(gpu.device, &info, nullptr, &fence), VK_SUCCESS);
   return fence;
}

VkResult submit(ComputeDevice &gpu, VkCommandBuffer commands, VkFence fence)
{
   VkSubmitInfo info{VK_STRUCTURE_TYPE_SUBMIT_INFO};
   info.commandBufferCount = commands ? 1 : 0;
   info.pCommandBuffers = &commands;
   return vkQueueSubmit(gpu.queue, 1, &info, fence);
}

std::vector<uint32_t> expected_after(std::vector<uint32_t> words, std::initializer_list<uint32_t> salts)
{
   for (uint32_t salt : salts)
      for (uint32_t i = 0; i < invocations; i++)
         words[i] = cpu_step(words[i], i, salt);
   return words;
}

std::vector<uint32_t> initial_words()
{
   std::vector<uint32_t> words(invocations);
   for (uint32_t i = 0; i < invocations; i++)
      words[i] = i * 7u;
   return words;
}

bool is_terakan(const ComputeDevice &gpu)
{
   return &gpu == &terakan_gpu();
}

/* One long submission: unfinished right after vkQueueSubmit (on the simulated card: its GPU
 * thread needs a third of a second), a zero-timeout wait times out, then the full wait
 * succeeds and the results are the CPU's. */
void submit_returns_before_the_work_is_done(ComputeDevice &gpu)
{
   ASSERT_TRUE(gpu.ok()) << gpu.error;
   const unsigned messages = gpu.validation_messages;
   BusyWork work(gpu);
   VkCommandBuffer commands = work.record(0x51);
   VkFence fence = make_fence(gpu);
   const auto start = std::chrono::steady_clock::now();
   ASSERT_EQ(submit(gpu, commands, fence), VK_SUCCESS);
   const auto submitted = std::chrono::steady_clock::now();
   const VkResult status = vkGetFenceStatus(gpu.device, fence);
   const VkResult no_wait = vkWaitForFences(gpu.device, 1, &fence, VK_TRUE, 0);
   if (is_terakan(gpu)) {
      EXPECT_EQ(status, VK_NOT_READY);
      EXPECT_EQ(no_wait, VK_TIMEOUT);
   }
   EXPECT_EQ(vkWaitForFences(gpu.device, 1, &fence, VK_TRUE, UINT64_MAX), VK_SUCCESS);
   const auto done = std::chrono::steady_clock::now();
   EXPECT_EQ(vkGetFenceStatus(gpu.device, fence), VK_SUCCESS);
   EXPECT_EQ(work.words(), expected_after(initial_words(), {0x51}));
   using ms = std::chrono::duration<double, std::milli>;
   std::printf("%s: vkQueueSubmit returned after %.2f ms, the fence was signalled after %.2f ms\n",
               gpu.device_name.c_str(), ms(submitted - start).count(), ms(done - start).count());
   vkDestroyFence(gpu.device, fence, nullptr);
   vkFreeCommandBuffers(gpu.device, gpu.pool, 1, &commands);
   EXPECT_EQ(gpu.validation_messages, messages);
}

TEST(AsyncSubmission, SubmitReturnsBeforeTheWorkIsDone)
{
   submit_returns_before_the_work_is_done(terakan_gpu());
   submit_returns_before_the_work_is_done(lavapipe_gpu());
}

/* Three submissions in flight, each with its fence, and a fence on an empty submission after
 * them: waiting for the second signals the first too (the ring runs in order), the empty
 * submission's fence is not signalled before the work queued ahead of it, and the results
 * are the three steps in order. */
void fences_follow_the_order_of_submission(ComputeDevice &gpu)
{
   ASSERT_TRUE(gpu.ok()) << gpu.error;
   const unsigned messages = gpu.validation_messages;
   BusyWork work(gpu);
   VkCommandBuffer commands[3] = {work.record(1), work.record(2), work.record(3)};
   VkFence fences[4];
   for (VkFence &fence : fences)
      fence = make_fence(gpu);
   for (unsigned i = 0; i < 3; i++)
      ASSERT_EQ(submit(gpu, commands[i], fences[i]), VK_SUCCESS);
   ASSERT_EQ(submit(gpu, VK_NULL_HANDLE, fences[3]), VK_SUCCESS);
   if (is_terakan(gpu))
      EXPECT_EQ(vkGetFenceStatus(gpu.device, fences[3]), VK_NOT_READY);
   EXPECT_EQ(vkWaitForFences(gpu.device, 1, &fences[1], VK_TRUE, UINT64_MAX), VK_SUCCESS);
   EXPECT_EQ(vkGetFenceStatus(gpu.device, fences[0]), VK_SUCCESS);
   EXPECT_EQ(vkWaitForFences(gpu.device, 4, fences, VK_TRUE, UINT64_MAX), VK_SUCCESS);
   EXPECT_EQ(work.words(), expected_after(initial_words(), {1, 2, 3}));
   for (VkFence fence : fences)
      vkDestroyFence(gpu.device, fence, nullptr);
   vkFreeCommandBuffers(gpu.device, gpu.pool, 3, commands);
   EXPECT_EQ(gpu.validation_messages, messages);
}

TEST(AsyncSubmission, FencesFollowTheOrderOfSubmission)
{
   fences_follow_the_order_of_submission(terakan_gpu());
   fences_follow_the_order_of_submission(lavapipe_gpu());
}

/* Two dependent submissions chained by a timeline semaphore with no host wait between them,
 * then a host wait for the last value: the second runs after the first on the GPU. A binary
 * semaphore chains a third. vkGetSemaphoreCounterValue right after the submissions has not
 * reached 2 on the simulated card. */
void semaphores_order_work_without_the_host(ComputeDevice &gpu)
{
   ASSERT_TRUE(gpu.ok()) << gpu.error;
   ASSERT_TRUE(gpu.timeline_semaphores);
   const unsigned messages = gpu.validation_messages;
   BusyWork work(gpu);
   VkCommandBuffer commands[3] = {work.record(10), work.record(20), work.record(30)};
   VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
   type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
   VkSemaphoreCreateInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, &type};
   VkSemaphore timeline = VK_NULL_HANDLE, binary = VK_NULL_HANDLE;
   ASSERT_EQ(vkCreateSemaphore(gpu.device, &info, nullptr, &timeline), VK_SUCCESS);
   VkSemaphoreCreateInfo binary_info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
   ASSERT_EQ(vkCreateSemaphore(gpu.device, &binary_info, nullptr, &binary), VK_SUCCESS);

   const uint64_t values[2] = {1, 2};
   const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
   VkTimelineSemaphoreSubmitInfo first_values{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
   first_values.signalSemaphoreValueCount = 1;
   first_values.pSignalSemaphoreValues = &values[0];
   VkSubmitInfo first{VK_STRUCTURE_TYPE_SUBMIT_INFO, &first_values};
   first.commandBufferCount = 1;
   first.pCommandBuffers = &commands[0];
   first.signalSemaphoreCount = 1;
   first.pSignalSemaphores = &timeline;
   /* The second waits for 1 and signals 2 on the timeline, and the binary semaphore. */
   const uint64_t second_signals[2] = {values[1], 0};
   VkTimelineSemaphoreSubmitInfo second_values{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
   second_values.waitSemaphoreValueCount = 1;
   second_values.pWaitSemaphoreValues = &values[0];
   second_values.signalSemaphoreValueCount = 2;
   second_values.pSignalSemaphoreValues = second_signals;
   const VkSemaphore second_signal_semaphores[2] = {timeline, binary};
   VkSubmitInfo second{VK_STRUCTURE_TYPE_SUBMIT_INFO, &second_values};
   second.waitSemaphoreCount = 1;
   second.pWaitSemaphores = &timeline;
   second.pWaitDstStageMask = &stage;
   second.commandBufferCount = 1;
   second.pCommandBuffers = &commands[1];
   second.signalSemaphoreCount = 2;
   second.pSignalSemaphores = second_signal_semaphores;
   VkSubmitInfo third{VK_STRUCTURE_TYPE_SUBMIT_INFO};
   third.waitSemaphoreCount = 1;
   third.pWaitSemaphores = &binary;
   third.pWaitDstStageMask = &stage;
   third.commandBufferCount = 1;
   third.pCommandBuffers = &commands[2];
   /* A Vulkan 1.1 device: the timeline commands are the extension's. */
   auto counter_value = reinterpret_cast<PFN_vkGetSemaphoreCounterValueKHR>(
      vkGetDeviceProcAddr(gpu.device, "vkGetSemaphoreCounterValueKHR"));
   auto wait_semaphores = reinterpret_cast<PFN_vkWaitSemaphoresKHR>(
      vkGetDeviceProcAddr(gpu.device, "vkWaitSemaphoresKHR"));
   ASSERT_TRUE(counter_value && wait_semaphores);
   VkFence fence = make_fence(gpu);
   ASSERT_EQ(vkQueueSubmit(gpu.queue, 1, &first, VK_NULL_HANDLE), VK_SUCCESS);
   ASSERT_EQ(vkQueueSubmit(gpu.queue, 1, &second, VK_NULL_HANDLE), VK_SUCCESS);
   ASSERT_EQ(vkQueueSubmit(gpu.queue, 1, &third, fence), VK_SUCCESS);
   uint64_t reached = 0;
   ASSERT_EQ(counter_value(gpu.device, timeline, &reached), VK_SUCCESS);
   if (is_terakan(gpu))
      EXPECT_LT(reached, 2u);
   VkSemaphoreWaitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
   wait.semaphoreCount = 1;
   wait.pSemaphores = &timeline;
   wait.pValues = &values[1];
   EXPECT_EQ(wait_semaphores(gpu.device, &wait, UINT64_MAX), VK_SUCCESS);
   ASSERT_EQ(counter_value(gpu.device, timeline, &reached), VK_SUCCESS);
   EXPECT_EQ(reached, 2u);
   EXPECT_EQ(vkWaitForFences(gpu.device, 1, &fence, VK_TRUE, UINT64_MAX), VK_SUCCESS);
   EXPECT_EQ(work.words(), expected_after(initial_words(), {10, 20, 30}));
   vkDestroyFence(gpu.device, fence, nullptr);
   vkDestroySemaphore(gpu.device, timeline, nullptr);
   vkDestroySemaphore(gpu.device, binary, nullptr);
   vkFreeCommandBuffers(gpu.device, gpu.pool, 3, commands);
   EXPECT_EQ(gpu.validation_messages, messages);
}

TEST(AsyncSubmission, SemaphoresOrderWorkWithoutTheHost)
{
   semaphores_order_work_without_the_host(terakan_gpu());
   semaphores_order_work_without_the_host(lavapipe_gpu());
}

/* The simulated card's timestamps follow its timing model (src/sim/cp/timing_model.h): with
 * more waves than any board has SIMDs (48 and 96 workgroups of one wave), a dispatch of the
 * busy loop over twice the workgroups is twice as long between two timestamps, and time goes
 * forward. Terakan only: the model is the simulator's. */
TEST(AsyncSubmission, ModelledTimestampsScaleWithTheWork)
{
   ComputeDevice &gpu = terakan_gpu();
   ASSERT_TRUE(gpu.ok()) << gpu.error;
   const unsigned messages = gpu.validation_messages;
   BusyWork work(gpu, 96 * 64);
   VkQueryPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
   pool_info.queryType = VK_QUERY_TYPE_TIMESTAMP;
   pool_info.queryCount = 4;
   VkQueryPool pool = VK_NULL_HANDLE;
   ASSERT_EQ(vkCreateQueryPool(gpu.device, &pool_info, nullptr, &pool), VK_SUCCESS);
   VkCommandBuffer commands = gpu.begin();
   vkCmdResetQueryPool(commands, pool, 0, 4);
   vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, work.program.pipeline);
   vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, work.program.layout, 0, 1, &work.set, 0,
                           nullptr);
   const uint32_t push[2] = {500, 7};
   vkCmdPushConstants(commands, work.program.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), push);
   for (uint32_t round = 0; round < 2; round++) {
      vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 2 * round);
      vkCmdDispatch(commands, 48 << round, 1, 1); /* 48, then 96 workgroups of 64 */
      ComputeDevice::barrier(commands);
      vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 2 * round + 1);
   }
   ASSERT_EQ(gpu.submit_and_wait(commands), VK_SUCCESS);
   uint64_t stamps[4] = {};
   ASSERT_EQ(vkGetQueryPoolResults(gpu.device, pool, 0, 4, sizeof(stamps), stamps, 8,
                                   VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
             VK_SUCCESS);
   vkDestroyQueryPool(gpu.device, pool, nullptr);
   EXPECT_LT(stamps[0], stamps[1]);
   EXPECT_LE(stamps[1], stamps[2]);
   EXPECT_LT(stamps[2], stamps[3]);
   const double once = double(stamps[1] - stamps[0]), twice = double(stamps[3] - stamps[2]);
   std::printf("modelled GPU time of 48 and 96 workgroups of 500 steps: %.0f and %.0f ticks of the reference "
               "clock\n", once, twice);
   EXPECT_GT(once, 10.0) << "a dispatch of this size takes more than a few reference-clock ticks in the model";
   EXPECT_NEAR(twice / once, 2.0, 0.02);
   EXPECT_EQ(gpu.validation_messages, messages);
}

} // namespace
