/* Vulkan 1.1's subgroups on the simulated card: subgroups of one invocation (src/compiler/
 * subgroups.h). Every operation the driver would advertise runs in subgroups.comp over two
 * workgroups of 16 invocations, and each answer is checked against the one the specification
 * gives for the subgroup size the device reports, computed here on the CPU (lavapipe's
 * subgroups are wider, so its answers differ and are no reference). Validation layer on.
 * The instance asks for Vulkan 1.1, whose SPIR-V 1.3 the module is. */
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "compute_device.h"

namespace {

using terakan::test::ComputeDevice;

/* Terakan through a Vulkan 1.1 instance. */
ComputeDevice &terakan_gpu()
{
   static ComputeDevice device("Terakan", true, false, VK_API_VERSION_1_1);
   return device;
}

uint32_t float_bits(float f)
{
   uint32_t u;
   std::memcpy(&u, &f, 4);
   return u;
}

TEST(Subgroups, PropertiesOfOneInvocationSubgroups)
{
   ComputeDevice &gpu = terakan_gpu();
   ASSERT_TRUE(gpu.ok()) << gpu.error;
   VkPhysicalDeviceSubgroupProperties subgroups{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
   VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroups};
   vkGetPhysicalDeviceProperties2(gpu.physical, &properties);
   EXPECT_EQ(subgroups.subgroupSize, 1u);
   EXPECT_EQ(subgroups.supportedStages,
             VkShaderStageFlags(VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT));
   EXPECT_EQ(subgroups.supportedOperations,
             VkSubgroupFeatureFlags(VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_VOTE_BIT |
                                    VK_SUBGROUP_FEATURE_ARITHMETIC_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT |
                                    VK_SUBGROUP_FEATURE_SHUFFLE_BIT | VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT));
   EXPECT_FALSE(subgroups.quadOperationsInAllStages);
}

TEST(Subgroups, EveryOperationGivesItsOneInvocationAnswer)
{
   ComputeDevice &gpu = terakan_gpu();
   ASSERT_TRUE(gpu.ok()) << gpu.error;
   const unsigned before = gpu.validation_messages;
   constexpr unsigned invocations = 32, words = 32;
   auto out = gpu.buffer(invocations * words * 4);
   std::memset(out.words, 0xee, out.size);
   auto program = gpu.program("subgroups", {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, 0);
   ASSERT_NE(program.pipeline, VkPipeline(VK_NULL_HANDLE));
   VkDescriptorSet set = gpu.descriptor_set(program, 0, {{out.buffer, 0, VK_WHOLE_SIZE}});
   VkCommandBuffer commands = gpu.begin();
   vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.pipeline);
   vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.layout, 0, 1, &set, 0, nullptr);
   vkCmdDispatch(commands, 2, 1, 1);
   ComputeDevice::barrier(commands);
   ASSERT_EQ(gpu.submit_and_wait(commands), VK_SUCCESS);

   for (uint32_t i = 0; i < invocations; i++) {
      SCOPED_TRACE("invocation " + std::to_string(i));
      const uint32_t *o = out.words + i * words;
      const uint32_t x = i * 7 + 3;
      const int32_t s = int32_t(i) - 20;
      const float f = float(i) * 0.5f - 3.0f;
      /* Size 1: invocation 0 of its own subgroup, 16 subgroups a workgroup, numbered by the
       * local invocation index; votes, reductions and inclusive scans see only this value,
       * exclusive scans only the identity, shuffles and broadcasts read this invocation. */
      EXPECT_EQ(o[0], 1u);
      EXPECT_EQ(o[1], 0u);
      EXPECT_EQ(o[2], 16u);
      EXPECT_EQ(o[3], i % 16);
      EXPECT_EQ(o[4], 1u) << "elect";
      EXPECT_EQ(o[5], (x % 3 == 0 ? 3u : 0u) | 4u) << "all, any, all-equal";
      EXPECT_EQ(o[6], x % 2) << "ballot";
      EXPECT_EQ(o[7], 0u) << "ballot's other words";
      /* The ballot operations look at the bottom subgroup-size bits of a value: bit 0. */
      EXPECT_EQ(o[8], x & 1) << "ballot bit count";
      EXPECT_EQ(o[9], (x & 1) * 16) << "inclusive and exclusive bit counts";
      EXPECT_EQ(o[10], 0u) << "find LSB (bit 0 set)";
      EXPECT_EQ(o[11], 0u) << "find MSB (bit 0 set; the bits above are not the subgroup's)";
      EXPECT_EQ(o[12], x & 1) << "bit extract";
      EXPECT_EQ(o[13], 1u | 1u << 8 | 0u << 16 | 1u << 24) << "eq, ge, gt, le masks";
      EXPECT_EQ(o[14], 0u) << "lt mask";
      EXPECT_EQ(o[15], x) << "broadcast first";
      EXPECT_EQ(o[16], x) << "broadcast";
      EXPECT_EQ(o[17], x) << "add";
      EXPECT_EQ(o[18], x) << "mul";
      EXPECT_EQ(o[19], uint32_t(s)) << "min";
      EXPECT_EQ(o[20], uint32_t(s)) << "max";
      EXPECT_EQ(o[21], x ^ (x << 1) ^ (x << 2)) << "and, or, xor";
      EXPECT_EQ(o[22], float_bits(f)) << "float add";
      EXPECT_EQ(o[23], x) << "inclusive add";
      EXPECT_EQ(o[24], 0u) << "exclusive add: 0";
      EXPECT_EQ(o[25], 1u) << "exclusive mul: 1";
      EXPECT_EQ(o[26], uint32_t(INT32_MAX)) << "exclusive min: the largest int";
      EXPECT_EQ(o[27], uint32_t(INT32_MIN)) << "exclusive max: the smallest int";
      EXPECT_EQ(o[28], ~0u) << "exclusive and: all ones";
      EXPECT_EQ(o[29], float_bits(INFINITY)) << "exclusive float min: +infinity";
      EXPECT_EQ(o[30], 0u) << "shuffle ^ shuffle-xor 0";
      EXPECT_EQ(o[31], 2 * x) << "shuffle up and down by 0";
   }
   gpu.destroy(program);
   gpu.destroy(out);
   EXPECT_EQ(gpu.validation_messages, before) << "validation layer messages";
}

} // namespace
