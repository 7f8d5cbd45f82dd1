/* Vulkan compute commands on Terakan (the simulated GPU of TERAKAN_SIM_CHIP), each scenario
 * run on lavapipe too and the buffers compared; the validation layer is on for both and must
 * stay silent. Bad input gets its own device without the layer (the layer would rightly
 * object to the invalid calls themselves). */
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <array>
#include <cstddef>
#include <cstring>
#include <functional>
#include <thread>

#include "compute_device.h"

using namespace terakan::test;

namespace {

using Scenario = std::function<std::vector<uint32_t>(ComputeDevice &)>;

/* Runs `scenario` on both devices and compares what it returns, all but the words in
 * `not_compared` (where Vulkan lets the two differ; the caller says why). */
void expect_same_results(ComputeDevice &terakan, ComputeDevice &lavapipe, const Scenario &scenario,
                         const std::vector<size_t> &not_compared = {})
{
   ASSERT_TRUE(terakan.ok()) << terakan.error;
   ASSERT_TRUE(lavapipe.ok()) << lavapipe.error;
   const unsigned before = terakan.validation_messages, lavapipe_before = lavapipe.validation_messages;
   const std::vector<uint32_t> got = scenario(terakan);
   const std::vector<uint32_t> expected = scenario(lavapipe);
   ASSERT_FALSE(expected.empty());
   ASSERT_EQ(got.size(), expected.size());
   unsigned mismatches = 0;
   for (size_t i = 0; i < expected.size(); i++)
      if (got[i] != expected[i] && std::find(not_compared.begin(), not_compared.end(), i) == not_compared.end() &&
          ++mismatches <= 8)
         ADD_FAILURE() << "word " << i << ": lavapipe 0x" << std::hex << expected[i]
                       << ", terakan 0x" << got[i];
   EXPECT_EQ(mismatches, 0u);
   EXPECT_EQ(terakan.validation_messages, before) << "validation layer messages on Terakan";
   EXPECT_EQ(lavapipe.validation_messages, lavapipe_before);
}

void expect_same_as_lavapipe(const Scenario &scenario)
{
   expect_same_results(terakan_gpu(), lavapipe_gpu(), scenario);
}

std::vector<uint32_t> words_of(const ComputeDevice::Buffer &b)
{
   return std::vector<uint32_t>(b.words, b.words + b.size / 4);
}

void dispatch_scale_add(VkCommandBuffer commands, ComputeDevice::Program &p, VkDescriptorSet set,
                        uint32_t add, uint32_t mul, uint32_t groups)
{
   vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipeline);
   vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout, 0, 1, &set, 0, nullptr);
   const uint32_t push[2] = {add, mul};
   vkCmdPushConstants(commands, p.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), push);
   vkCmdDispatch(commands, groups, 1, 1);
}

TEST(ComputeCommands, DependentDispatchesWithBarriers)
{
   expect_same_as_lavapipe([](ComputeDevice &gpu) {
      auto data = gpu.buffer(4096);
      for (uint32_t i = 0; i < 1024; i++)
         data.words[i] = i * 2654435761u;
      auto p = gpu.program("scale_add", {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, 8);
      VkDescriptorSet set = gpu.descriptor_set(p, 0, {{data.buffer, 0, VK_WHOLE_SIZE}});
      VkCommandBuffer commands = gpu.begin();
      for (uint32_t step = 0; step < 40; step++) {
         dispatch_scale_add(commands, p, set, step + 1, 3 + (step % 5), 16);
         ComputeDevice::barrier(commands);
      }
      EXPECT_EQ(gpu.submit_and_wait(commands), VK_SUCCESS);
      auto out = words_of(data);
      gpu.destroy(p);
      gpu.destroy(data);
      return out;
   });
}

TEST(ComputeCommands, HundredsOfDispatchesWithStateChanges)
{
   expect_same_as_lavapipe([](ComputeDevice &gpu) {
      auto a = gpu.buffer(1024), b = gpu.buffer(1024);
      for (uint32_t i = 0; i < 256; i++) {
         a.words[i] = i;
         b.words[i] = 1000 + i;
      }
      auto p = gpu.program("scale_add", {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, 8);
      VkDescriptorSet set_a = gpu.descriptor_set(p, 0, {{a.buffer, 0, VK_WHOLE_SIZE}});
      VkDescriptorSet set_b = gpu.descriptor_set(p, 0, {{b.buffer, 0, VK_WHOLE_SIZE}});
      VkCommandBuffer commands = gpu.begin();
      for (uint32_t step = 0; step < 600; step++) {
         dispatch_scale_add(commands, p, step % 2 ? set_b : set_a, step, 1 + (step % 3), 4);
         if (step % 2)
            ComputeDevice::barrier(commands);
      }
      EXPECT_EQ(gpu.submit_and_wait(commands), VK_SUCCESS);
      auto out = words_of(a);
      auto more = words_of(b);
      out.insert(out.end(), more.begin(), more.end());
      gpu.destroy(p);
      gpu.destroy(a);
      gpu.destroy(b);
      return out;
   });
}

TEST(ComputeCommands, FillUpdateCopyAndDispatch)
{
   expect_same_as_lavapipe([](ComputeDevice &gpu) {
      auto src = gpu.buffer(8192), dst = gpu.buffer(8192);
      for (uint32_t i = 0; i < 2048; i++)
         src.words[i] = 0x01010101u * (i & 0xff);
      std::array<uint32_t, 64> inline_data;
      for (uint32_t i = 0; i < inline_data.size(); i++)
         inline_data[i] = 0xC0DE0000u + i;
      auto p = gpu.program("scale_add", {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, 8);
      VkDescriptorSet set = gpu.descriptor_set(p, 0, {{dst.buffer, 0, VK_WHOLE_SIZE}});
      VkCommandBuffer commands = gpu.begin();
      vkCmdFillBuffer(commands, dst.buffer, 0, VK_WHOLE_SIZE, 0xABABABABu);
      ComputeDevice::barrier(commands);
      vkCmdFillBuffer(commands, dst.buffer, 1024, 512, 7);
      vkCmdUpdateBuffer(commands, dst.buffer, 2048, sizeof(inline_data), inline_data.data());
      const VkBufferCopy regions[2] = {{12, 4096, 1000}, {0, 6000, 4}};
      vkCmdCopyBuffer(commands, src.buffer, dst.buffer, 2, regions);
      ComputeDevice::barrier(commands);
      dispatch_scale_add(commands, p, set, 1, 1, 8); /* first 512 words + 1 */
      ComputeDevice::barrier(commands);
      const VkBufferCopy back = {0, 7000, 800};
      vkCmdCopyBuffer(commands, dst.buffer, dst.buffer, 1, &back);
      ComputeDevice::barrier(commands);
      EXPECT_EQ(gpu.submit_and_wait(commands), VK_SUCCESS);
      auto out = words_of(dst);
      gpu.destroy(p);
      gpu.destroy(src);
      gpu.destroy(dst);
      return out;
   });
}

/* Secondary command buffers: two secondaries (a dispatch with its own bindings; a fill, an
 * update and a copy) recorded once and executed twice from one primary, between commands of
 * the primary's own; one of them is also executed from a second primary. */
TEST(ComputeCommands, SecondaryCommandBuffersExecutedTwice)
{
   expect_same_as_lavapipe([](ComputeDevice &gpu) {
      auto data = gpu.buffer(4096), other = gpu.buffer(4096);
      for (uint32_t i = 0; i < 1024; i++) {
         data.words[i] = i * 2654435761u;
         other.words[i] = 77 + i;
      }
      auto p = gpu.program("scale_add", {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, 8);
      VkDescriptorSet set = gpu.descriptor_set(p, 0, {{data.buffer, 0, VK_WHOLE_SIZE}});
      VkDescriptorSet other_set = gpu.descriptor_set(p, 0, {{other.buffer, 0, VK_WHOLE_SIZE}});

      VkCommandBufferAllocateInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
      info.commandPool = gpu.pool;
      info.level = VK_COMMAND_BUFFER_LEVEL_SECONDARY;
      info.commandBufferCount = 2;
      VkCommandBuffer secondaries[2] = {};
      EXPECT_EQ(vkAllocateCommandBuffers(gpu.device, &info, secondaries), VK_SUCCESS);
      VkCommandBufferInheritanceInfo inheritance{VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
      VkCommandBufferBeginInfo begin_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
      begin_info.flags = VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT;
      begin_info.pInheritanceInfo = &inheritance;
      EXPECT_EQ(vkBeginCommandBuffer(secondaries[0], &begin_info), VK_SUCCESS);
      dispatch_scale_add(secondaries[0], p, set, 5, 3, 16);
      ComputeDevice::barrier(secondaries[0]);
      EXPECT_EQ(vkEndCommandBuffer(secondaries[0]), VK_SUCCESS);
      EXPECT_EQ(vkBeginCommandBuffer(secondaries[1], &begin_info), VK_SUCCESS);
      vkCmdFillBuffer(secondaries[1], other.buffer, 256, 512, 0x5A5A5A5Au);
      const uint32_t inline_data[4] = {1, 2, 3, 4};
      vkCmdUpdateBuffer(secondaries[1], other.buffer, 1024, sizeof(inline_data), inline_data);
      ComputeDevice::barrier(secondaries[1]);
      const VkBufferCopy region = {0, 2048, 1024};
      vkCmdCopyBuffer(secondaries[1], data.buffer, other.buffer, 1, &region);
      ComputeDevice::barrier(secondaries[1]);
      EXPECT_EQ(vkEndCommandBuffer(secondaries[1]), VK_SUCCESS);

      VkCommandBuffer commands = gpu.begin();
      dispatch_scale_add(commands, p, other_set, 1, 2, 16);
      ComputeDevice::barrier(commands);
      vkCmdExecuteCommands(commands, 2, secondaries);
      /* The primary binds again: state is undefined after vkCmdExecuteCommands. */
      dispatch_scale_add(commands, p, other_set, 9, 1, 16);
      ComputeDevice::barrier(commands);
      vkCmdExecuteCommands(commands, 2, secondaries);
      EXPECT_EQ(gpu.submit_and_wait(commands), VK_SUCCESS);
      VkCommandBuffer again = gpu.begin();
      vkCmdExecuteCommands(again, 1, &secondaries[0]);
      EXPECT_EQ(gpu.submit_and_wait(again), VK_SUCCESS);

      auto out = words_of(data);
      auto more = words_of(other);
      out.insert(out.end(), more.begin(), more.end());
      vkFreeCommandBuffers(gpu.device, gpu.pool, 2, secondaries);
      gpu.destroy(p);
      gpu.destroy(data);
      gpu.destroy(other);
      return out;
   });
}

TEST(ComputeCommands, DirectAndIndirectDispatchIds)
{
   expect_same_as_lavapipe([](ComputeDevice &gpu) {
      auto direct = gpu.buffer(4 * 4 * 8 * 24), indirect = gpu.buffer(4 * 4 * 8 * 24);
      auto arguments = gpu.buffer(256);
      auto p = gpu.program("ids", {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, 0);
      VkDescriptorSet set_direct = gpu.descriptor_set(p, 0, {{direct.buffer, 0, VK_WHOLE_SIZE}});
      VkDescriptorSet set_indirect = gpu.descriptor_set(p, 0, {{indirect.buffer, 0, VK_WHOLE_SIZE}});
      VkCommandBuffer commands = gpu.begin();
      const uint32_t counts[4] = {0, 2, 3, 4}; /* at offset 4: x=2, y=3, z=4 */
      vkCmdUpdateBuffer(commands, arguments.buffer, 0, sizeof(counts), counts);
      ComputeDevice::barrier(commands);
      vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipeline);
      vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout, 0, 1, &set_direct, 0, nullptr);
      vkCmdDispatch(commands, 4, 3, 2);
      vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout, 0, 1, &set_indirect, 0, nullptr);
      vkCmdDispatchIndirect(commands, arguments.buffer, 4);
      ComputeDevice::barrier(commands);
      EXPECT_EQ(gpu.submit_and_wait(commands), VK_SUCCESS);
      auto out = words_of(direct);
      auto more = words_of(indirect);
      out.insert(out.end(), more.begin(), more.end());
      gpu.destroy(p);
      gpu.destroy(direct);
      gpu.destroy(indirect);
      gpu.destroy(arguments);
      return out;
   });
}

/* vkCmdDispatchBase (VK_KHR_device_group): group ids start at the base, the group count
 * does not include it. */
TEST(ComputeCommands, DispatchBase)
{
   ASSERT_NE(terakan_gpu().dispatch_base, nullptr) << "VK_KHR_device_group is not offered";
   expect_same_as_lavapipe([](ComputeDevice &gpu) {
      auto out = gpu.buffer(4 * 4 * 8 * 24);
      gpu.pipeline_flags = VK_PIPELINE_CREATE_DISPATCH_BASE_BIT;
      auto p = gpu.program("ids", {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, 0);
      gpu.pipeline_flags = 0;
      VkDescriptorSet set = gpu.descriptor_set(p, 0, {{out.buffer, 0, VK_WHOLE_SIZE}});
      VkCommandBuffer commands = gpu.begin();
      vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipeline);
      vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout, 0, 1, &set, 0, nullptr);
      gpu.dispatch_base(commands, 2, 1, 0, 3, 2, 1);
      ComputeDevice::barrier(commands);
      EXPECT_EQ(gpu.submit_and_wait(commands), VK_SUCCESS);
      auto words = words_of(out);
      gpu.destroy(p);
      gpu.destroy(out);
      return words;
   });
}

TEST(ComputeCommands, TwoSetsDynamicOffsetsAndUniforms)
{
   expect_same_as_lavapipe([](ComputeDevice &gpu) {
      auto in = gpu.buffer(1024), out = gpu.buffer(4096), params = gpu.buffer(1024);
      for (uint32_t i = 0; i < 256; i++)
         in.words[i] = i * 7 + 1;
      for (uint32_t k = 0; k < 4; k++) {
         params.words[k * 64] = 100 * k;  /* bias, at 256-byte steps */
         params.words[k * 64 + 1] = k + 2; /* scale */
      }
      auto p = gpu.program("two_sets",
                           {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                            {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER}},
                           0);
      VkDescriptorSet set0 = gpu.descriptor_set(p, 0, {{in.buffer, 0, VK_WHOLE_SIZE}});
      std::vector<VkDescriptorSet> set1;
      for (uint32_t k = 0; k < 4; k++)
         set1.push_back(gpu.descriptor_set(p, 1, {{out.buffer, 0, 1024}, {params.buffer, 256 * k, 256}}));
      VkCommandBuffer commands = gpu.begin();
      vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipeline);
      vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout, 0, 1, &set0, 0, nullptr);
      for (uint32_t k = 0; k < 4; k++) {
         const uint32_t dynamic_offset = 1024 * k;
         vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout, 1, 1, &set1[k], 1,
                                 &dynamic_offset);
         vkCmdDispatch(commands, 4, 1, 1);
      }
      ComputeDevice::barrier(commands);
      EXPECT_EQ(gpu.submit_and_wait(commands), VK_SUCCESS);
      auto result = words_of(out);
      gpu.destroy(p);
      gpu.destroy(in);
      gpu.destroy(out);
      gpu.destroy(params);
      return result;
   });
}

/* The same scene with every set written by descriptor update templates
 * (VK_KHR_descriptor_update_template): set 1's two bindings from one template whose entries
 * read a struct of the application's, the dynamic storage buffer then the uniform buffer. */
TEST(ComputeCommands, SetsWrittenThroughDescriptorUpdateTemplates)
{
   expect_same_as_lavapipe([](ComputeDevice &gpu) -> std::vector<uint32_t> {
      if (!gpu.update_with_template) {
         ADD_FAILURE() << gpu.device_name << " does not offer VK_KHR_descriptor_update_template";
         return {};
      }
      auto in = gpu.buffer(1024), out = gpu.buffer(4096), params = gpu.buffer(1024);
      for (uint32_t i = 0; i < 256; i++)
         in.words[i] = i * 5 + 3;
      for (uint32_t k = 0; k < 4; k++) {
         params.words[k * 64] = 1000 * k + 7;
         params.words[k * 64 + 1] = 3 * k + 1;
      }
      auto p = gpu.program("two_sets",
                           {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                            {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER}},
                           0);
      struct SetOneData {
         uint32_t padding;
         VkDescriptorBufferInfo uniforms; /* binding 1, listed first in the data */
         VkDescriptorBufferInfo output;   /* binding 0 */
      };
      const VkDescriptorUpdateTemplateEntry set1_entries[2] = {
         {0, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, offsetof(SetOneData, output), 0},
         {1, 0, 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, offsetof(SetOneData, uniforms), 0},
      };
      const VkDescriptorUpdateTemplateEntry set0_entry = {0, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 0,
                                                          sizeof(VkDescriptorBufferInfo)};
      VkDescriptorUpdateTemplate templates[2] = {};
      for (uint32_t set = 0; set < 2; set++) {
         VkDescriptorUpdateTemplateCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO};
         info.descriptorUpdateEntryCount = set == 0 ? 1 : 2;
         info.pDescriptorUpdateEntries = set == 0 ? &set0_entry : set1_entries;
         info.templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET;
         info.descriptorSetLayout = p.set_layouts[set];
         EXPECT_EQ(gpu.create_update_template(gpu.device, &info, nullptr, &templates[set]), VK_SUCCESS);
      }
      VkDescriptorSet set0 = gpu.allocate_set(p, 0);
      const VkDescriptorBufferInfo input{in.buffer, 0, VK_WHOLE_SIZE};
      gpu.update_with_template(gpu.device, set0, templates[0], &input);
      std::vector<VkDescriptorSet> set1;
      for (uint32_t k = 0; k < 4; k++) {
         set1.push_back(gpu.allocate_set(p, 1));
         const SetOneData data{0, {params.buffer, 256 * k, 256}, {out.buffer, 0, 1024}};
         gpu.update_with_template(gpu.device, set1.back(), templates[1], &data);
      }
      VkCommandBuffer commands = gpu.begin();
      vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipeline);
      vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout, 0, 1, &set0, 0, nullptr);
      for (uint32_t k = 0; k < 4; k++) {
         const uint32_t dynamic_offset = 1024 * k;
         vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout, 1, 1, &set1[k], 1,
                                 &dynamic_offset);
         vkCmdDispatch(commands, 4, 1, 1);
      }
      ComputeDevice::barrier(commands);
      EXPECT_EQ(gpu.submit_and_wait(commands), VK_SUCCESS);
      auto result = words_of(out);
      for (VkDescriptorUpdateTemplate t : templates)
         gpu.destroy_update_template(gpu.device, t, nullptr);
      gpu.destroy(p);
      gpu.destroy(in);
      gpu.destroy(out);
      gpu.destroy(params);
      return result;
   });
}

TEST(ComputeCommands, SeveralSubmissionsInFlightWithFences)
{
   expect_same_as_lavapipe([](ComputeDevice &gpu) {
      constexpr uint32_t count = 8;
      std::vector<ComputeDevice::Buffer> buffers;
      auto p = gpu.program("scale_add", {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, 8);
      std::vector<VkCommandBuffer> commands;
      std::vector<VkFence> fences(count);
      for (uint32_t n = 0; n < count; n++) {
         buffers.push_back(gpu.buffer(1024));
         for (uint32_t i = 0; i < 256; i++)
            buffers[n].words[i] = n * 1000 + i;
         VkDescriptorSet set = gpu.descriptor_set(p, 0, {{buffers[n].buffer, 0, VK_WHOLE_SIZE}});
         VkCommandBuffer c = gpu.begin();
         dispatch_scale_add(c, p, set, n, 2, 4);
         ComputeDevice::barrier(c);
         dispatch_scale_add(c, p, set, 1, 3, 4);
         ComputeDevice::barrier(c);
         vkEndCommandBuffer(c);
         commands.push_back(c);
         VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
         vkCreateFence(gpu.device, &fence_info, nullptr, &fences[n]);
      }
      for (uint32_t n = 0; n < count; n++) {
         VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
         submit.commandBufferCount = 1;
         submit.pCommandBuffers = &commands[n];
         EXPECT_EQ(vkQueueSubmit(gpu.queue, 1, &submit, fences[n]), VK_SUCCESS);
      }
      EXPECT_EQ(vkWaitForFences(gpu.device, count, fences.data(), VK_TRUE, 5'000'000'000ull), VK_SUCCESS);
      for (VkFence fence : fences)
         EXPECT_EQ(vkGetFenceStatus(gpu.device, fence), VK_SUCCESS);
      EXPECT_EQ(vkResetFences(gpu.device, 1, &fences[0]), VK_SUCCESS);
      EXPECT_EQ(vkGetFenceStatus(gpu.device, fences[0]), VK_NOT_READY);
      std::vector<uint32_t> out;
      for (uint32_t n = 0; n < count; n++) {
         auto words = words_of(buffers[n]);
         out.insert(out.end(), words.begin(), words.end());
         vkDestroyFence(gpu.device, fences[n], nullptr);
         gpu.destroy(buffers[n]);
      }
      vkFreeCommandBuffers(gpu.device, gpu.pool, count, commands.data());
      gpu.destroy(p);
      return out;
   });
}

TEST(ComputeCommands, TimelineSemaphoresOrderSubmissions)
{
   expect_same_as_lavapipe([](ComputeDevice &gpu) {
      std::vector<uint32_t> out;
      EXPECT_TRUE(gpu.timeline_semaphores) << gpu.device_name;
      if (!gpu.timeline_semaphores)
         return out;
      auto data = gpu.buffer(1024);
      for (uint32_t i = 0; i < 256; i++)
         data.words[i] = i;
      auto p = gpu.program("scale_add", {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, 8);
      VkDescriptorSet set = gpu.descriptor_set(p, 0, {{data.buffer, 0, VK_WHOLE_SIZE}});
      VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
      type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
      VkSemaphoreCreateInfo semaphore_info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
      semaphore_info.pNext = &type;
      VkSemaphore timeline;
      vkCreateSemaphore(gpu.device, &semaphore_info, nullptr, &timeline);
      VkCommandBuffer first = gpu.begin(), second = gpu.begin();
      dispatch_scale_add(first, p, set, 5, 2, 4);
      ComputeDevice::barrier(first);
      dispatch_scale_add(second, p, set, 1, 7, 4);
      ComputeDevice::barrier(second);
      vkEndCommandBuffer(first);
      vkEndCommandBuffer(second);

      /* The first waits for the host's value 1 and signals 2; the second waits for 2. Both
       * are submitted before the host signals (wait-before-signal). */
      auto submit = [&](VkCommandBuffer c, uint64_t wait, uint64_t signal) {
         VkTimelineSemaphoreSubmitInfo values{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
         values.waitSemaphoreValueCount = 1;
         values.pWaitSemaphoreValues = &wait;
         values.signalSemaphoreValueCount = 1;
         values.pSignalSemaphoreValues = &signal;
         const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
         VkSubmitInfo info{VK_STRUCTURE_TYPE_SUBMIT_INFO};
         info.pNext = &values;
         info.waitSemaphoreCount = 1;
         info.pWaitSemaphores = &timeline;
         info.pWaitDstStageMask = &stage;
         info.commandBufferCount = 1;
         info.pCommandBuffers = &c;
         info.signalSemaphoreCount = 1;
         info.pSignalSemaphores = &timeline;
         return vkQueueSubmit(gpu.queue, 1, &info, VK_NULL_HANDLE);
      };
      EXPECT_EQ(submit(first, 1, 2), VK_SUCCESS);
      EXPECT_EQ(submit(second, 2, 3), VK_SUCCESS);
      uint64_t value = 99;
      auto counter_value = reinterpret_cast<PFN_vkGetSemaphoreCounterValueKHR>(
         vkGetDeviceProcAddr(gpu.device, "vkGetSemaphoreCounterValueKHR"));
      counter_value(gpu.device, timeline, &value);
      EXPECT_EQ(value, 0u) << "nothing may run before the host signals";
      VkSemaphoreSignalInfo signal{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
      signal.semaphore = timeline;
      signal.value = 1;
      auto signal_semaphore = reinterpret_cast<PFN_vkSignalSemaphoreKHR>(
         vkGetDeviceProcAddr(gpu.device, "vkSignalSemaphoreKHR"));
      auto wait_semaphores = reinterpret_cast<PFN_vkWaitSemaphoresKHR>(
         vkGetDeviceProcAddr(gpu.device, "vkWaitSemaphoresKHR"));
      EXPECT_EQ(signal_semaphore(gpu.device, &signal), VK_SUCCESS);
      const uint64_t wanted = 3;
      VkSemaphoreWaitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
      wait.semaphoreCount = 1;
      wait.pSemaphores = &timeline;
      wait.pValues = &wanted;
      EXPECT_EQ(wait_semaphores(gpu.device, &wait, 5'000'000'000ull), VK_SUCCESS);
      vkQueueWaitIdle(gpu.queue);
      out = words_of(data);
      vkDestroySemaphore(gpu.device, timeline, nullptr);
      VkCommandBuffer both[2] = {first, second};
      vkFreeCommandBuffers(gpu.device, gpu.pool, 2, both);
      gpu.destroy(p);
      gpu.destroy(data);
      return out;
   });
}

TEST(ComputeCommands, EventsSetOnHostAndOnDevice)
{
   expect_same_as_lavapipe([](ComputeDevice &gpu) {
      auto data = gpu.buffer(1024);
      auto p = gpu.program("scale_add", {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, 8);
      VkDescriptorSet set = gpu.descriptor_set(p, 0, {{data.buffer, 0, VK_WHOLE_SIZE}});
      VkEventCreateInfo info{VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
      VkEvent from_host, from_device;
      vkCreateEvent(gpu.device, &info, nullptr, &from_host);
      vkCreateEvent(gpu.device, &info, nullptr, &from_device);
      std::vector<uint32_t> out;
      out.push_back(vkGetEventStatus(gpu.device, from_host) == VK_EVENT_RESET);
      vkSetEvent(gpu.device, from_host);
      out.push_back(vkGetEventStatus(gpu.device, from_host) == VK_EVENT_SET);
      VkCommandBuffer commands = gpu.begin();
      vkCmdWaitEvents(commands, 1, &from_host, VK_PIPELINE_STAGE_HOST_BIT,
                      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, nullptr, 0, nullptr, 0, nullptr);
      dispatch_scale_add(commands, p, set, 9, 1, 4);
      vkCmdSetEvent(commands, from_device, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
      ComputeDevice::barrier(commands);
      EXPECT_EQ(gpu.submit_and_wait(commands), VK_SUCCESS);
      out.push_back(vkGetEventStatus(gpu.device, from_device) == VK_EVENT_SET);
      vkResetEvent(gpu.device, from_host);
      out.push_back(vkGetEventStatus(gpu.device, from_host) == VK_EVENT_RESET);
      auto words = words_of(data);
      out.insert(out.end(), words.begin(), words.end());
      vkDestroyEvent(gpu.device, from_host, nullptr);
      vkDestroyEvent(gpu.device, from_device, nullptr);
      gpu.destroy(p);
      gpu.destroy(data);
      return out;
   });
}

/* vkCmdWaitEvents on an event the host sets only after the submission (allowed outside render
 * passes): the GPU waits (the simulated CP polls the event's dword while the program runs), the
 * submission is unfinished while the event is reset, and the dispatch behind the wait runs once
 * vkSetEvent is called. */
TEST(ComputeCommands, EventSetByTheHostAfterTheSubmission)
{
   expect_same_as_lavapipe([](ComputeDevice &gpu) {
      auto data = gpu.buffer(1024);
      auto p = gpu.program("scale_add", {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, 8);
      VkDescriptorSet set = gpu.descriptor_set(p, 0, {{data.buffer, 0, VK_WHOLE_SIZE}});
      VkEventCreateInfo info{VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
      VkEvent later;
      vkCreateEvent(gpu.device, &info, nullptr, &later);
      VkCommandBuffer commands = gpu.begin();
      vkCmdWaitEvents(commands, 1, &later, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                      0, nullptr, 0, nullptr, 0, nullptr);
      dispatch_scale_add(commands, p, set, 5, 2, 4);
      ComputeDevice::barrier(commands);
      EXPECT_EQ(vkEndCommandBuffer(commands), VK_SUCCESS);
      VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
      VkFence fence;
      vkCreateFence(gpu.device, &fence_info, nullptr, &fence);
      VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
      submit.commandBufferCount = 1;
      submit.pCommandBuffers = &commands;
      EXPECT_EQ(vkQueueSubmit(gpu.queue, 1, &submit, fence), VK_SUCCESS);
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      std::vector<uint32_t> out;
      /* Still waiting for the host, on both devices. */
      out.push_back(vkGetFenceStatus(gpu.device, fence) == VK_NOT_READY);
      out.push_back(data.words[3]);
      vkSetEvent(gpu.device, later);
      EXPECT_EQ(vkWaitForFences(gpu.device, 1, &fence, VK_TRUE, UINT64_MAX), VK_SUCCESS);
      auto words = words_of(data);
      out.insert(out.end(), words.begin(), words.end());
      vkDestroyFence(gpu.device, fence, nullptr);
      vkFreeCommandBuffers(gpu.device, gpu.pool, 1, &commands);
      vkDestroyEvent(gpu.device, later, nullptr);
      gpu.destroy(p);
      gpu.destroy(data);
      return out;
   });
}

/* VK_KHR_copy_commands2: vkCmdCopyBuffer2KHR with two regions and vkCmdFillBuffer around it,
 * on devices made with the extension, against lavapipe. */
TEST(ComputeCommands, CopyCommands2)
{
   ComputeDevice::Options options;
   options.extensions = {VK_KHR_COPY_COMMANDS_2_EXTENSION_NAME};
   ComputeDevice terakan("Terakan", true, false, VK_API_VERSION_1_1, options);
   ComputeDevice lavapipe("llvmpipe", true, false, VK_API_VERSION_1_1, options);
   expect_same_results(terakan, lavapipe, [](ComputeDevice &gpu) {
      auto copy_buffer2 = reinterpret_cast<PFN_vkCmdCopyBuffer2KHR>(
         vkGetDeviceProcAddr(gpu.device, "vkCmdCopyBuffer2KHR"));
      EXPECT_NE(copy_buffer2, nullptr);
      auto source = gpu.buffer(1024), destination = gpu.buffer(1024);
      for (uint32_t i = 0; i < 256; i++)
         source.words[i] = 0xC0DE0000u + i;
      VkCommandBuffer commands = gpu.begin();
      vkCmdFillBuffer(commands, destination.buffer, 0, VK_WHOLE_SIZE, 0x5A5A5A5Au);
      ComputeDevice::barrier(commands);
      const VkBufferCopy2 regions[2] = {{VK_STRUCTURE_TYPE_BUFFER_COPY_2, nullptr, 16, 400, 64},
                                        {VK_STRUCTURE_TYPE_BUFFER_COPY_2, nullptr, 512, 4, 12}};
      VkCopyBufferInfo2 info{VK_STRUCTURE_TYPE_COPY_BUFFER_INFO_2};
      info.srcBuffer = source.buffer;
      info.dstBuffer = destination.buffer;
      info.regionCount = 2;
      info.pRegions = regions;
      if (copy_buffer2)
         copy_buffer2(commands, &info);
      ComputeDevice::barrier(commands);
      EXPECT_EQ(gpu.submit_and_wait(commands), VK_SUCCESS);
      auto out = words_of(destination);
      gpu.destroy(source);
      gpu.destroy(destination);
      return out;
   });
}

TEST(ComputeCommands, SpecializationConstants)
{
   expect_same_as_lavapipe([](ComputeDevice &gpu) {
      auto data = gpu.buffer(1024);
      for (uint32_t i = 0; i < 256; i++)
         data.words[i] = i;
      /* MUL = 5 (4 bytes), ADD = 1000 (4 bytes), workgroup width 32: data[i] = 5i + 1032. */
      const uint32_t values[3] = {5, 1000, 32};
      const VkSpecializationMapEntry entries[3] = {{0, 0, 4}, {1, 4, 4}, {2, 8, 4}};
      const VkSpecializationInfo specialization = {3, entries, sizeof(values), values};
      VkResult result;
      auto p = gpu.program("specialized", {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, 0, &result,
                           &specialization);
      EXPECT_EQ(result, VK_SUCCESS);
      VkDescriptorSet set = gpu.descriptor_set(p, 0, {{data.buffer, 0, VK_WHOLE_SIZE}});
      VkCommandBuffer commands = gpu.begin();
      vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipeline);
      vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout, 0, 1, &set, 0, nullptr);
      vkCmdDispatch(commands, 8, 1, 1); /* 8 groups of 32 */
      ComputeDevice::barrier(commands);
      EXPECT_EQ(gpu.submit_and_wait(commands), VK_SUCCESS);
      auto out = words_of(data);
      gpu.destroy(p);
      gpu.destroy(data);
      return out;
   });
}

TEST(ComputeCommands, ReusedCommandBufferAndPipelineCacheData)
{
   ComputeDevice &gpu = terakan_gpu();
   ASSERT_TRUE(gpu.ok()) << gpu.error;
   const unsigned before = gpu.validation_messages;
   /* A pipeline cache filled by one pipeline returns data another cache can start from. */
   VkPipelineCacheCreateInfo cache_info{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
   VkPipelineCache cache;
   ASSERT_EQ(vkCreatePipelineCache(gpu.device, &cache_info, nullptr, &cache), VK_SUCCESS);
   auto p = gpu.program("scale_add", {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, 8);
   const std::vector<uint32_t> spirv = read_spirv("scale_add");
   VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
   module_info.codeSize = spirv.size() * 4;
   module_info.pCode = spirv.data();
   VkShaderModule module;
   ASSERT_EQ(vkCreateShaderModule(gpu.device, &module_info, nullptr, &module), VK_SUCCESS);
   VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
   info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
   info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
   info.stage.module = module;
   info.stage.pName = "main";
   info.layout = p.layout;
   VkPipeline cached;
   ASSERT_EQ(vkCreateComputePipelines(gpu.device, cache, 1, &info, nullptr, &cached), VK_SUCCESS);
   size_t size = 0;
   ASSERT_EQ(vkGetPipelineCacheData(gpu.device, cache, &size, nullptr), VK_SUCCESS);
   EXPECT_GT(size, 32u + 64u) << "header plus at least one program";
   vkDestroyPipeline(gpu.device, cached, nullptr);
   vkDestroyShaderModule(gpu.device, module, nullptr);
   vkDestroyPipelineCache(gpu.device, cache, nullptr);

   /* One command buffer submitted three times accumulates three times. */
   auto data = gpu.buffer(1024);
   VkDescriptorSet set = gpu.descriptor_set(p, 0, {{data.buffer, 0, VK_WHOLE_SIZE}});
   VkCommandBuffer commands = gpu.begin();
   dispatch_scale_add(commands, p, set, 5, 1, 4);
   ComputeDevice::barrier(commands);
   ASSERT_EQ(vkEndCommandBuffer(commands), VK_SUCCESS);
   for (int i = 0; i < 3; i++) {
      VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
      submit.commandBufferCount = 1;
      submit.pCommandBuffers = &commands;
      ASSERT_EQ(vkQueueSubmit(gpu.queue, 1, &submit, VK_NULL_HANDLE), VK_SUCCESS);
      ASSERT_EQ(vkQueueWaitIdle(gpu.queue), VK_SUCCESS);
   }
   for (uint32_t i = 0; i < 256; i++)
      ASSERT_EQ(data.words[i], 15u) << i;
   vkFreeCommandBuffers(gpu.device, gpu.pool, 1, &commands);
   gpu.destroy(p);
   gpu.destroy(data);
   EXPECT_EQ(gpu.validation_messages, before);
}

/* ---- bad input: results, not crashes ---- */

TEST(BadInput, InvalidSpirvFailsPipelineCreation)
{
   ComputeDevice gpu("Terakan", /*validation=*/false);
   ASSERT_TRUE(gpu.ok()) << gpu.error;
   std::vector<uint32_t> spirv = read_spirv("scale_add");
   ASSERT_GT(spirv.size(), 40u);
   for (size_t i = 5; i < spirv.size(); i += 7)
      spirv[i] ^= 0x00ff00ffu; /* mangle the instruction stream, keep the header */
   VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
   module_info.codeSize = spirv.size() * 4;
   module_info.pCode = spirv.data();
   VkShaderModule module;
   ASSERT_EQ(vkCreateShaderModule(gpu.device, &module_info, nullptr, &module), VK_SUCCESS);
   auto p = gpu.program("scale_add", {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, 8);
   VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
   info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
   info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
   info.stage.module = module;
   info.stage.pName = "main";
   info.layout = p.layout;
   VkPipeline pipeline = reinterpret_cast<VkPipeline>(uint64_t(1));
   EXPECT_NE(vkCreateComputePipelines(gpu.device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline), VK_SUCCESS);
   EXPECT_EQ(pipeline, VkPipeline(VK_NULL_HANDLE));
   vkDestroyShaderModule(gpu.device, module, nullptr);
   gpu.destroy(p);
}

TEST(BadInput, HugeAllocationIsOutOfDeviceMemory)
{
   ComputeDevice gpu("Terakan", false);
   ASSERT_TRUE(gpu.ok()) << gpu.error;
   VkPhysicalDeviceMemoryProperties memory;
   vkGetPhysicalDeviceMemoryProperties(gpu.physical, &memory);
   for (uint32_t t = 0; t < memory.memoryTypeCount; t++) {
      VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
      allocate.allocationSize = memory.memoryHeaps[memory.memoryTypes[t].heapIndex].size + (1ull << 20);
      allocate.memoryTypeIndex = t;
      VkDeviceMemory handle = VK_NULL_HANDLE;
      EXPECT_EQ(vkAllocateMemory(gpu.device, &allocate, nullptr, &handle), VK_ERROR_OUT_OF_DEVICE_MEMORY) << t;
   }
}

/* robustBufferAccess: a shader reads, writes and adds far past the ranges bound to it. On both
 * devices (made with the feature enabled) the reads outside give zeros and no write lands
 * outside the bound range; Vulkan lets out-of-bounds writes change any memory bound to the
 * buffer, and Terakan clamps them onto the range's last dword, so that dword alone is not
 * compared (lavapipe drops such writes). Without the clamp the simulator stops the dispatch
 * (a RAT write outside its buffer) and the device is lost. */
TEST(ComputeCommands, RobustBufferAccessKeepsWritesInTheRange)
{
   static ComputeDevice terakan("Terakan", true, true), lavapipe("llvmpipe", true, true);
   constexpr uint32_t data_offset = 1024, data_range = 1024, last_dword = (data_offset + data_range) / 4 - 1;
   std::vector<uint32_t> terakan_words;
   auto scenario = [&](ComputeDevice &gpu) {
      auto data = gpu.buffer(8192), source = gpu.buffer(4096);
      for (uint32_t i = 0; i < 2048; i++)
         data.words[i] = 0xDA7A0000u + i;
      for (uint32_t i = 0; i < 1024; i++)
         source.words[i] = 1000 * i;
      auto p = gpu.program("robust_writes", {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, 4);
      VkDescriptorSet set = gpu.descriptor_set(p, 0, {{data.buffer, data_offset, data_range},
                                                      {source.buffer, 256, 512}});
      VkCommandBuffer commands = gpu.begin();
      vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipeline);
      vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout, 0, 1, &set, 0, nullptr);
      for (uint32_t stride : {3u, 1u}) {
         vkCmdPushConstants(commands, p.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &stride);
         vkCmdDispatch(commands, 4, 1, 1);
         ComputeDevice::barrier(commands);
      }
      EXPECT_EQ(gpu.submit_and_wait(commands), VK_SUCCESS);
      auto out = words_of(data);
      if (&gpu == &terakan)
         terakan_words = out;
      gpu.destroy(p);
      gpu.destroy(data);
      gpu.destroy(source);
      return out;
   };
   expect_same_results(terakan, lavapipe, scenario, {last_dword});
   /* Outside the range nothing changed at all. */
   ASSERT_EQ(terakan_words.size(), 2048u);
   for (uint32_t i = 0; i < terakan_words.size(); i++)
      if (i < data_offset / 4 || i > last_dword)
         EXPECT_EQ(terakan_words[i], 0xDA7A0000u + i) << "word " << i;
}

TEST(BadInput, GpuFaultLosesTheDevice)
{
   ComputeDevice gpu("Terakan", false);
   ASSERT_TRUE(gpu.ok()) << gpu.error;
   auto data = gpu.buffer(256);
   auto p = gpu.program("store_at", {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, 4);
   VkDescriptorSet set = gpu.descriptor_set(p, 0, {{data.buffer, 0, VK_WHOLE_SIZE}});
   VkCommandBuffer commands = gpu.begin();
   vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipeline);
   vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout, 0, 1, &set, 0, nullptr);
   const uint32_t far_away = 0x3fffffff; /* 4 GiB past the buffer */
   vkCmdPushConstants(commands, p.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &far_away);
   vkCmdDispatch(commands, 1, 1, 1);
   EXPECT_EQ(gpu.submit_and_wait(commands), VK_ERROR_DEVICE_LOST);
   VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
   VkFence fence;
   vkCreateFence(gpu.device, &fence_info, nullptr, &fence);
   EXPECT_EQ(vkQueueSubmit(gpu.queue, 0, nullptr, fence), VK_ERROR_DEVICE_LOST);
   vkDestroyFence(gpu.device, fence, nullptr);
   gpu.destroy(p);
   gpu.destroy(data);
}

} // namespace
