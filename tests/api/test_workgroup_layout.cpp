/* VK_KHR_workgroup_memory_explicit_layout: workgroup blocks with explicit offsets alias from
 * offset 0, so a word written through one block is read through the others, in the std430 and
 * the scalar layouts (workgroup_layout.comp), on Terakan and lavapipe through the loader with
 * the validation layer, against the values the layouts place. */
#include <gtest/gtest.h>

#include <cstring>

#include "compute_device.h"

namespace {

using terakan::test::ComputeDevice;

ComputeDevice::Options layout_options()
{
   static VkPhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR layout{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_FEATURES_KHR};
   layout.workgroupMemoryExplicitLayout = VK_TRUE;
   layout.workgroupMemoryExplicitLayoutScalarBlockLayout = VK_TRUE;
   static VkPhysicalDeviceVulkan12Features features12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &layout};
   features12.timelineSemaphore = VK_TRUE;
   features12.samplerMirrorClampToEdge = VK_TRUE; /* ComputeDevice enables the extension */
   ComputeDevice::Options options;
   options.features_next = &features12;
   options.extensions = {VK_KHR_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_EXTENSION_NAME};
   return options;
}

class WorkgroupLayout : public ::testing::Test {
protected:
   ComputeDevice &gpu()
   {
      static ComputeDevice terakan("Terakan", true, false, VK_API_VERSION_1_2, layout_options());
      return terakan;
   }
   void SetUp() override { ASSERT_TRUE(gpu().ok()) << gpu().error; }
   void TearDown() override { EXPECT_EQ(gpu().validation_messages, 0u) << "validation layer messages"; }
};

TEST_F(WorkgroupLayout, BlocksAliasFromOffsetZero)
{
   VkPhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR offered{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_FEATURES_KHR};
   VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &offered};
   vkGetPhysicalDeviceFeatures2(gpu().physical, &features);
   EXPECT_TRUE(offered.workgroupMemoryExplicitLayout);
   EXPECT_TRUE(offered.workgroupMemoryExplicitLayoutScalarBlockLayout);
   EXPECT_FALSE(offered.workgroupMemoryExplicitLayout8BitAccess);
   EXPECT_FALSE(offered.workgroupMemoryExplicitLayout16BitAccess);

   ComputeDevice &g = gpu();
   auto out = g.buffer(3 * 64 * 4 * 2);
   std::memset(out.words, 0xff, out.size);
   auto program = g.program("workgroup_layout", {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, 0);
   ASSERT_NE(program.pipeline, VkPipeline(VK_NULL_HANDLE));
   VkDescriptorSet set = g.descriptor_set(program, 0, {{out.buffer, 0, 3 * 64 * 4}});
   VkCommandBuffer commands = g.begin();
   vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.pipeline);
   vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.layout, 0, 1, &set, 0, nullptr);
   vkCmdDispatch(commands, 1, 1, 1);
   ASSERT_EQ(g.submit_and_wait(commands), VK_SUCCESS);
   for (uint32_t i = 0; i < 64; i++) {
      /* Word i of the memory, as the Words block wrote it: pair i / 2's component i % 2, and
       * in the scalar block the first member or triple (i - 1) / 3's component. */
      EXPECT_EQ(out.words[i], i * 7 + 3) << "through the pairs, word " << i;
      EXPECT_EQ(out.words[64 + i], i * 7 + 3) << "through the scalar triples, word " << i;
      EXPECT_EQ(out.words[128 + i], (i / 2) * 100 + i % 2) << "words after the pairs were written, word " << i;
   }
   g.destroy(program);
   g.destroy(out);
}

} // namespace
