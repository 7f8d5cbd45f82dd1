/* Storage-buffer atomics whose result is used (RAT returns) through the driver on the simulated
 * GPU of TERAKAN_SIM_CHIP, against lavapipe running the same SPIR-V with the validation layer
 * on. Where the values depend on the order in which invocations run, the test checks what
 * every order must give (a permutation of slots, the exchanged values, the extremes, the sum
 * built by compare-exchange) on both devices and compares only those words with lavapipe. */
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "compute_device.h"

using namespace terakan::test;

namespace {

constexpr uint32_t groups = 8, invocations = groups * 128, cas_bound = 4096;

struct Outcome {
   std::vector<uint32_t> counters, slots, owners, seen;
};

Outcome run_returns(ComputeDevice &gpu)
{
   Outcome out;
   EXPECT_TRUE(gpu.ok()) << gpu.error;
   if (!gpu.ok())
      return out;
   auto counters = gpu.buffer(256), slots = gpu.buffer(4 * invocations),
        owners = gpu.buffer(4 * invocations), seen = gpu.buffer(16 * invocations);
   counters.words[0] = 0;           /* next_slot */
   counters.words[1] = 0;           /* maximum */
   counters.words[2] = 0xffffffffu; /* minimum */
   counters.words[3] = 0;           /* exchanged */
   counters.words[4] = 0;           /* cas_sum */
   std::fill(slots.words, slots.words + invocations, 0xdeadbeefu);
   std::fill(owners.words, owners.words + invocations, 0);
   const VkDescriptorType storage = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
   VkResult result = VK_SUCCESS;
   auto p = gpu.program("rat_returns", {{storage, storage, storage, storage}}, 4, &result);
   EXPECT_EQ(result, VK_SUCCESS);
   if (result == VK_SUCCESS) {
      VkDescriptorSet set = gpu.descriptor_set(p, 0, {{counters.buffer, 0, 256},
                                                      {slots.buffer, 0, VK_WHOLE_SIZE},
                                                      {owners.buffer, 0, VK_WHOLE_SIZE},
                                                      {seen.buffer, 0, VK_WHOLE_SIZE}});
      VkCommandBuffer commands = gpu.begin();
      vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipeline);
      vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout, 0, 1, &set, 0, nullptr);
      vkCmdPushConstants(commands, p.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &cas_bound);
      vkCmdDispatch(commands, groups, 1, 1);
      EXPECT_EQ(gpu.submit_and_wait(commands), VK_SUCCESS);
      out.counters.assign(counters.words, counters.words + 5);
      out.slots.assign(slots.words, slots.words + invocations);
      out.owners.assign(owners.words, owners.words + invocations);
      out.seen.assign(seen.words, seen.words + 4 * invocations);
   }
   gpu.destroy(p);
   for (auto *b : {&counters, &slots, &owners, &seen})
      gpu.destroy(*b);
   return out;
}

/* What every order of execution gives. */
void expect_order_independent_properties(const Outcome &out, const char *device)
{
   SCOPED_TRACE(device);
   ASSERT_EQ(out.counters.size(), 5u);
   ASSERT_EQ(out.slots.size(), size_t(invocations));
   /* atomicAdd handed out every slot once, and each slot's owner is the invocation it went to. */
   EXPECT_EQ(out.counters[0], invocations);
   std::vector<uint32_t> sorted = out.slots;
   std::sort(sorted.begin(), sorted.end());
   for (uint32_t i = 0; i < invocations; i++)
      EXPECT_EQ(sorted[i], i) << "slots are not a permutation";
   for (uint32_t id = 0; id < invocations; id++)
      if (out.slots[id] < invocations)
         EXPECT_EQ(out.owners[out.slots[id]], id + 1) << "slot " << out.slots[id];
   /* Maximum and minimum: the extremes of the keys; each old value is the initial value or
    * some key, never beyond the final extreme. */
   std::vector<uint32_t> keys(invocations);
   for (uint32_t id = 0; id < invocations; id++)
      keys[id] = ((id * 2654435761u) >> 4) | 1u;
   const uint32_t max_key = *std::max_element(keys.begin(), keys.end());
   const uint32_t min_key = *std::min_element(keys.begin(), keys.end());
   EXPECT_EQ(out.counters[1], max_key);
   EXPECT_EQ(out.counters[2], min_key);
   std::vector<uint32_t> sorted_keys = keys;
   std::sort(sorted_keys.begin(), sorted_keys.end());
   auto is_key = [&](uint32_t v) { return std::binary_search(sorted_keys.begin(), sorted_keys.end(), v); };
   unsigned saw_initial_max = 0, saw_initial_min = 0;
   for (uint32_t id = 0; id < invocations; id++) {
      const uint32_t old_max = out.seen[4 * id], old_min = out.seen[4 * id + 1];
      EXPECT_TRUE(old_max == 0 || is_key(old_max)) << "atomicMax returned " << old_max;
      EXPECT_TRUE(old_min == 0xffffffffu || is_key(old_min)) << "atomicMin returned " << old_min;
      saw_initial_max += old_max == 0;
      saw_initial_min += old_min == 0xffffffffu;
   }
   EXPECT_EQ(saw_initial_max, 1u) << "exactly one invocation runs first";
   EXPECT_EQ(saw_initial_min, 1u);
   /* Exchange: the old values and the final one are the initial 0 and every id + 1, once each. */
   std::vector<uint32_t> exchanged;
   for (uint32_t id = 0; id < invocations; id++)
      exchanged.push_back(out.seen[4 * id + 2]);
   exchanged.push_back(out.counters[3]);
   std::sort(exchanged.begin(), exchanged.end());
   for (uint32_t i = 0; i <= invocations; i++)
      EXPECT_EQ(exchanged[i], i) << "exchanged values are not a permutation";
   /* Compare-exchange: every invocation added its number once, within the bound. */
   EXPECT_EQ(out.counters[4], invocations * (invocations + 1) / 2);
   for (uint32_t id = 0; id < invocations; id++)
      EXPECT_LT(out.seen[4 * id + 3], cas_bound) << "invocation " << id << " never succeeded";
}

TEST(RatReturns, OrderDependentResultsKeepTheirInvariants)
{
   ComputeDevice &terakan = terakan_gpu(), &lavapipe = lavapipe_gpu();
   ASSERT_TRUE(terakan.ok()) << terakan.error;
   ASSERT_TRUE(lavapipe.ok()) << lavapipe.error;
   const unsigned before = terakan.validation_messages, lavapipe_before = lavapipe.validation_messages;
   const Outcome got = run_returns(terakan), expected = run_returns(lavapipe);
   expect_order_independent_properties(got, "Terakan");
   expect_order_independent_properties(expected, "lavapipe");
   /* The words every order agrees on, bit for bit with lavapipe. */
   ASSERT_EQ(got.counters.size(), expected.counters.size());
   for (size_t w : {0u, 1u, 2u, 4u})
      EXPECT_EQ(got.counters[w], expected.counters[w]) << "counter " << w;
   std::vector<uint32_t> got_slots = got.slots, expected_slots = expected.slots;
   std::sort(got_slots.begin(), got_slots.end());
   std::sort(expected_slots.begin(), expected_slots.end());
   EXPECT_EQ(got_slots, expected_slots);
   EXPECT_EQ(terakan.validation_messages, before) << "validation layer messages on Terakan";
   EXPECT_EQ(lavapipe.validation_messages, lavapipe_before);
}

} // namespace
