/* Eight threads recording and submitting command buffers that flip a sampler between
 * normalized and unnormalized coordinates around one shared pipeline, so that they race on
 * the pipeline's variant cache (the read-locked lookup and the write-locked creation) and on
 * the queue. Every result is compared with lavapipe's for the same sampler. Run in CI under
 * ThreadSanitizer too (scripts/test.sh, the tsan suite), where any report fails the test. */
#include <gtest/gtest.h>

#include <barrier>
#include <cstring>
#include <mutex>
#include <thread>

#include "compute_device.h"

using namespace terakan::test;

namespace {

constexpr unsigned thread_count = 8;
constexpr unsigned rounds = 3;          /* a new pipeline each round: a new variant race */
constexpr unsigned dispatches = 4;      /* per command buffer, alternating samplers */

struct Push {
   float scale[2];
   float offset[2];
   uint32_t slot;
   uint32_t pad[3];
};
const Push push_for_slot(uint32_t slot) { return {{0.75f, 0.5f}, {0.125f, -0.25f}, slot, {}}; }

std::vector<uint8_t> texels()
{
   std::vector<uint8_t> bytes(16 * 16 * 4);
   for (size_t i = 0; i < bytes.size(); i++)
      bytes[i] = uint8_t(((i * 7919u) >> 3) & 3) * 64;
   return bytes;
}

struct Fixture {
   ComputeDevice &gpu;
   ComputeDevice::Image image;
   VkImageView view = VK_NULL_HANDLE;
   VkSampler samplers[2] = {}; /* normalized, unnormalized */

   explicit Fixture(ComputeDevice &gpu) : gpu(gpu)
   {
      image = gpu.image(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, {16, 16, 1}, 1, 1, texels(), 4);
      view = gpu.view(image, VK_IMAGE_VIEW_TYPE_2D);
      samplers[0] = gpu.sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_REPEAT, false);
      samplers[1] = gpu.sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, true);
   }
   ~Fixture()
   {
      for (VkSampler s : samplers)
         vkDestroySampler(gpu.device, s, nullptr);
      vkDestroyImageView(gpu.device, view, nullptr);
      gpu.destroy(image);
   }

   ComputeDevice::Program program()
   {
      return gpu.program_with_bindings(
         read_spirv("sample_bound"),
         {{{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
           {1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}}},
         sizeof(Push));
   }
};

/* A thread's own descriptor sets (one per sampler) over its own output buffer. */
struct ThreadSets {
   VkDescriptorPool pool = VK_NULL_HANDLE;
   VkDescriptorSet sets[2] = {};
};

ThreadSets make_sets(ComputeDevice &gpu, Fixture &fixture, VkDescriptorSetLayout layout,
                     const ComputeDevice::Buffer &out)
{
   ThreadSets t;
   const VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2},
                                         {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 2}};
   VkDescriptorPoolCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
   info.maxSets = 2;
   info.poolSizeCount = 2;
   info.pPoolSizes = sizes;
   vkCreateDescriptorPool(gpu.device, &info, nullptr, &t.pool);
   for (unsigned s = 0; s < 2; s++) {
      VkDescriptorSetAllocateInfo allocate{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
      allocate.descriptorPool = t.pool;
      allocate.descriptorSetCount = 1;
      allocate.pSetLayouts = &layout;
      vkAllocateDescriptorSets(gpu.device, &allocate, &t.sets[s]);
      gpu.write_buffer(t.sets[s], 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, out);
      gpu.write_image(t.sets[s], 1, 0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, fixture.view,
                      fixture.samplers[s]);
   }
   return t;
}

/* Records `dispatches` dispatches, dispatch k with sampler choice[k] into slot k. */
void record(VkCommandBuffer commands, const ComputeDevice::Program &program, const ThreadSets &sets,
            const unsigned *choice)
{
   vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.pipeline);
   for (unsigned k = 0; k < dispatches; k++) {
      vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.layout, 0, 1,
                              &sets.sets[choice[k]], 0, nullptr);
      const Push push = push_for_slot(k);
      vkCmdPushConstants(commands, program.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
      vkCmdDispatch(commands, 1, 1, 1);
   }
   ComputeDevice::barrier(commands);
}

/* lavapipe's 64 uvec4 for each sampler. */
std::array<std::vector<uint32_t>, 2> expected_results()
{
   ComputeDevice lavapipe("llvmpipe");
   EXPECT_TRUE(lavapipe.ok()) << lavapipe.error;
   std::array<std::vector<uint32_t>, 2> expected;
   if (!lavapipe.ok())
      return expected;
   Fixture fixture(lavapipe);
   auto program = fixture.program();
   auto out = lavapipe.buffer(dispatches * 64 * 16);
   ThreadSets sets = make_sets(lavapipe, fixture, program.set_layouts[0], out);
   const unsigned choice[dispatches] = {0, 1, 0, 1};
   VkCommandBuffer commands = lavapipe.begin();
   record(commands, program, sets, choice);
   EXPECT_EQ(lavapipe.submit_and_wait(commands), VK_SUCCESS);
   for (unsigned s = 0; s < 2; s++)
      expected[s].assign(out.words + s * 256, out.words + (s + 1) * 256);
   vkDestroyDescriptorPool(lavapipe.device, sets.pool, nullptr);
   lavapipe.destroy(out);
   lavapipe.destroy(program);
   EXPECT_EQ(lavapipe.validation_messages, 0u);
   return expected;
}

} // namespace

TEST(VariantStress, EightThreadsFlipSamplersConcurrently)
{
   const auto expected = expected_results();
   ASSERT_EQ(expected[0].size(), 256u);
   ASSERT_NE(expected[0], expected[1]) << "the two samplers must give different results";

   ComputeDevice gpu("Terakan");
   ASSERT_TRUE(gpu.ok()) << gpu.error;
   Fixture fixture(gpu);
   std::mutex queue_lock; /* vkQueueSubmit needs the queue externally synchronized */
   std::vector<ComputeDevice::Buffer> outs;
   std::vector<ThreadSets> sets;
   std::vector<VkCommandPool> pools(thread_count);
   ComputeDevice::Program program = fixture.program();
   for (unsigned t = 0; t < thread_count; t++) {
      outs.push_back(gpu.buffer(dispatches * 64 * 16));
      sets.push_back(make_sets(gpu, fixture, program.set_layouts[0], outs.back()));
      VkCommandPoolCreateInfo info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
      info.queueFamilyIndex = gpu.queue_family;
      vkCreateCommandPool(gpu.device, &info, nullptr, &pools[t]);
   }
   std::atomic<unsigned> mismatches{0}, failures{0};
   for (unsigned round = 0; round < rounds; round++) {
      /* A fresh pipeline per round (the sets' layout is the first one's, compatible), so that
       * every round's threads race to make its variant. */
      ComputeDevice::Program round_program = round == 0 ? program : fixture.program();
      std::barrier start(thread_count);
      std::vector<std::thread> threads;
      for (unsigned t = 0; t < thread_count; t++) {
         threads.emplace_back([&, t] {
            unsigned choice[dispatches];
            for (unsigned k = 0; k < dispatches; k++)
               choice[k] = (t + k + round) % 2;
            std::memset(outs[t].words, 0, outs[t].size);
            VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
            allocate.commandPool = pools[t];
            allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
            allocate.commandBufferCount = 1;
            VkCommandBuffer commands;
            vkAllocateCommandBuffers(gpu.device, &allocate, &commands);
            VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
            start.arrive_and_wait();
            vkBeginCommandBuffer(commands, &begin);
            record(commands, round_program, sets[t], choice);
            vkEndCommandBuffer(commands);
            VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
            VkFence fence;
            vkCreateFence(gpu.device, &fence_info, nullptr, &fence);
            VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
            submit.commandBufferCount = 1;
            submit.pCommandBuffers = &commands;
            VkResult result;
            {
               std::lock_guard<std::mutex> guard(queue_lock);
               result = vkQueueSubmit(gpu.queue, 1, &submit, fence);
            }
            if (result == VK_SUCCESS)
               result = vkWaitForFences(gpu.device, 1, &fence, VK_TRUE, UINT64_MAX);
            if (result != VK_SUCCESS)
               failures++;
            for (unsigned k = 0; k < dispatches; k++)
               if (std::memcmp(outs[t].words + k * 256, expected[choice[k]].data(), 1024) != 0)
                  mismatches++;
            vkDestroyFence(gpu.device, fence, nullptr);
            vkFreeCommandBuffers(gpu.device, pools[t], 1, &commands);
         });
      }
      for (std::thread &thread : threads)
         thread.join();
      if (round != 0)
         gpu.destroy(round_program);
   }
   EXPECT_EQ(failures.load(), 0u);
   EXPECT_EQ(mismatches.load(), 0u) << "dispatches whose results differ from lavapipe's";
   for (unsigned t = 0; t < thread_count; t++) {
      vkDestroyCommandPool(gpu.device, pools[t], nullptr);
      vkDestroyDescriptorPool(gpu.device, sets[t].pool, nullptr);
      gpu.destroy(outs[t]);
   }
   gpu.destroy(program);
   EXPECT_EQ(gpu.validation_messages, 0u);
}
