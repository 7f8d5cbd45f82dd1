/* Vulkan 1.1 as core on the simulated card: through an instance that asks for 1.1, with the
 * Khronos validation layer counting messages, every 1.1 command is called by its core name
 * (not the KHR alias) and every 1.1 feature Terakan offers is used at least once, against
 * lavapipe (which reports 1.3) where results can be compared and known values where not.
 * Features used elsewhere at length: multiview (api-multiview), shader draw parameters
 * (api-draws DrawParameters), subgroups (api-subgroups, also through a 1.1 instance). */
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "compute_device.h"

namespace {

using terakan::test::ComputeDevice;

ComputeDevice &device_named(const char *name)
{
   if (!std::strcmp(name, "Terakan")) {
      static ComputeDevice terakan("Terakan", true, false, VK_API_VERSION_1_1);
      return terakan;
   }
   static ComputeDevice lavapipe("llvmpipe", true, false, VK_API_VERSION_1_1);
   return lavapipe;
}

class Vulkan11 : public ::testing::TestWithParam<const char *> {
protected:
   ComputeDevice &gpu() { return device_named(GetParam()); }
   void SetUp() override { ASSERT_TRUE(gpu().ok()) << gpu().error; }
   void TearDown() override { EXPECT_EQ(gpu().validation_messages, 0u) << "validation layer messages"; }
};

TEST_P(Vulkan11, ReportsVersionAndCoreFeatures)
{
   VkPhysicalDeviceProperties properties;
   vkGetPhysicalDeviceProperties(gpu().physical, &properties);
   /* The device's own version (1.2 on Terakan) is checked by api-vulkan12; a 1.1 instance
    * gets 1.1 behaviour from a newer device. */
   EXPECT_GE(properties.apiVersion, VK_API_VERSION_1_1);

   VkPhysicalDeviceMultiviewFeatures multiview{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_FEATURES};
   VkPhysicalDeviceShaderDrawParametersFeatures draw_parameters{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DRAW_PARAMETERS_FEATURES, &multiview};
   VkPhysicalDeviceProtectedMemoryFeatures protected_memory{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROTECTED_MEMORY_FEATURES,
                                                            &draw_parameters};
   VkPhysicalDeviceVariablePointersFeatures pointers{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VARIABLE_POINTERS_FEATURES,
                                                     &protected_memory};
   VkPhysicalDevice16BitStorageFeatures storage16{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES, &pointers};
   VkPhysicalDeviceSamplerYcbcrConversionFeatures ycbcr{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SAMPLER_YCBCR_CONVERSION_FEATURES, &storage16};
   VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &ycbcr};
   vkGetPhysicalDeviceFeatures2(gpu().physical, &features);
   /* Vulkan 1.1 requires multiview; the rest is optional. */
   EXPECT_TRUE(multiview.multiview);
   if (!std::strcmp(GetParam(), "Terakan")) {
      EXPECT_TRUE(draw_parameters.shaderDrawParameters);
      EXPECT_FALSE(multiview.multiviewGeometryShader);
      EXPECT_FALSE(multiview.multiviewTessellationShader);
      EXPECT_FALSE(protected_memory.protectedMemory);
      EXPECT_FALSE(pointers.variablePointersStorageBuffer);
      EXPECT_FALSE(storage16.storageBuffer16BitAccess);
      EXPECT_FALSE(ycbcr.samplerYcbcrConversion);
   }

   VkPhysicalDeviceIDProperties id{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
   VkPhysicalDeviceSubgroupProperties subgroups{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES, &id};
   VkPhysicalDevicePointClippingProperties clipping{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_POINT_CLIPPING_PROPERTIES,
                                                    &subgroups};
   VkPhysicalDeviceMultiviewProperties multiview_limits{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_PROPERTIES,
                                                        &clipping};
   VkPhysicalDeviceMaintenance3Properties maintenance3{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES,
                                                       &multiview_limits};
   VkPhysicalDeviceProtectedMemoryProperties protected_limits{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROTECTED_MEMORY_PROPERTIES, &maintenance3};
   VkPhysicalDeviceProperties2 properties2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &protected_limits};
   vkGetPhysicalDeviceProperties2(gpu().physical, &properties2);
   /* The specification's minimums. */
   EXPECT_GE(multiview_limits.maxMultiviewViewCount, 6u);
   EXPECT_GE(multiview_limits.maxMultiviewInstanceIndex, (1u << 27) - 1);
   EXPECT_GE(maintenance3.maxPerSetDescriptors, 1024u);
   EXPECT_GE(maintenance3.maxMemoryAllocationSize, VkDeviceSize(1) << 30);
   EXPECT_TRUE(subgroups.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT);
   EXPECT_TRUE(subgroups.supportedOperations & VK_SUBGROUP_FEATURE_BASIC_BIT);
   EXPECT_FALSE(protected_limits.protectedNoFault);
   bool uuid_set = false;
   for (uint8_t byte : id.deviceUUID)
      uuid_set |= byte != 0;
   EXPECT_TRUE(uuid_set) << "deviceUUID is all zero";
   if (!std::strcmp(GetParam(), "Terakan")) {
      EXPECT_EQ(subgroups.subgroupSize, 1u);
      EXPECT_FALSE(id.deviceLUIDValid);
   }
}

/* The 1.1 commands by their core names: device groups, vkGetDeviceQueue2, memory requirements
 * and binding "2" with dedicated allocations, vkTrimCommandPool, descriptor update templates
 * and layout support, external-object queries. */
TEST_P(Vulkan11, CoreCommands)
{
   ComputeDevice &g = gpu();
   uint32_t group_count = 0;
   ASSERT_EQ(vkEnumeratePhysicalDeviceGroups(g.instance, &group_count, nullptr), VK_SUCCESS);
   std::vector<VkPhysicalDeviceGroupProperties> groups(group_count, {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GROUP_PROPERTIES});
   ASSERT_EQ(vkEnumeratePhysicalDeviceGroups(g.instance, &group_count, groups.data()), VK_SUCCESS);
   bool found = false;
   for (const auto &group : groups)
      for (uint32_t i = 0; i < group.physicalDeviceCount; i++)
         if (group.physicalDevices[i] == g.physical) {
            found = true;
            EXPECT_EQ(group.physicalDeviceCount, 1u);
         }
   EXPECT_TRUE(found);

   VkDeviceQueueInfo2 queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_INFO_2};
   queue_info.queueFamilyIndex = g.queue_family;
   VkQueue queue = VK_NULL_HANDLE;
   vkGetDeviceQueue2(g.device, &queue_info, &queue);
   EXPECT_EQ(queue, g.queue);

   /* A buffer and an image, each in a dedicated allocation, bound by the "2" commands. */
   VkBufferCreateInfo buffer_info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
   buffer_info.size = 65536;
   buffer_info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
   VkBuffer buffer = VK_NULL_HANDLE;
   ASSERT_EQ(vkCreateBuffer(g.device, &buffer_info, nullptr, &buffer), VK_SUCCESS);
   VkImageCreateInfo image_info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
   image_info.imageType = VK_IMAGE_TYPE_2D;
   image_info.format = VK_FORMAT_R8G8B8A8_UNORM;
   image_info.extent = {64, 32, 1};
   image_info.mipLevels = 7;
   image_info.arrayLayers = 1;
   image_info.samples = VK_SAMPLE_COUNT_1_BIT;
   image_info.tiling = VK_IMAGE_TILING_OPTIMAL;
   image_info.usage = VK_IMAGE_USAGE_SAMPLED_BIT;
   VkImage image = VK_NULL_HANDLE;
   ASSERT_EQ(vkCreateImage(g.device, &image_info, nullptr, &image), VK_SUCCESS);
   VkMemoryDedicatedRequirements buffer_dedicated{VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS};
   VkMemoryRequirements2 buffer_requirements{VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2, &buffer_dedicated};
   VkBufferMemoryRequirementsInfo2 buffer_query{VK_STRUCTURE_TYPE_BUFFER_MEMORY_REQUIREMENTS_INFO_2};
   buffer_query.buffer = buffer;
   vkGetBufferMemoryRequirements2(g.device, &buffer_query, &buffer_requirements);
   VkMemoryDedicatedRequirements image_dedicated{VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS};
   VkMemoryRequirements2 image_requirements{VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2, &image_dedicated};
   VkImageMemoryRequirementsInfo2 image_query{VK_STRUCTURE_TYPE_IMAGE_MEMORY_REQUIREMENTS_INFO_2};
   image_query.image = image;
   vkGetImageMemoryRequirements2(g.device, &image_query, &image_requirements);
   /* The "2" queries agree with the 1.0 ones. */
   VkMemoryRequirements buffer_plain, image_plain;
   vkGetBufferMemoryRequirements(g.device, buffer, &buffer_plain);
   vkGetImageMemoryRequirements(g.device, image, &image_plain);
   EXPECT_EQ(buffer_requirements.memoryRequirements.size, buffer_plain.size);
   EXPECT_EQ(image_requirements.memoryRequirements.size, image_plain.size);
   EXPECT_EQ(image_requirements.memoryRequirements.memoryTypeBits, image_plain.memoryTypeBits);
   EXPECT_FALSE(buffer_dedicated.requiresDedicatedAllocation);
   EXPECT_FALSE(image_dedicated.requiresDedicatedAllocation);

   VkDeviceMemory memory[2] = {};
   for (unsigned i = 0; i < 2; i++) {
      const VkMemoryRequirements &r =
         i == 0 ? buffer_requirements.memoryRequirements : image_requirements.memoryRequirements;
      VkMemoryDedicatedAllocateInfo dedicated{VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO};
      if (i == 0)
         dedicated.buffer = buffer;
      else
         dedicated.image = image;
      VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &dedicated};
      allocate.allocationSize = r.size;
      allocate.memoryTypeIndex = uint32_t(__builtin_ctz(r.memoryTypeBits));
      ASSERT_EQ(vkAllocateMemory(g.device, &allocate, nullptr, &memory[i]), VK_SUCCESS);
   }
   VkBindBufferMemoryInfo bind_buffer{VK_STRUCTURE_TYPE_BIND_BUFFER_MEMORY_INFO};
   bind_buffer.buffer = buffer;
   bind_buffer.memory = memory[0];
   EXPECT_EQ(vkBindBufferMemory2(g.device, 1, &bind_buffer), VK_SUCCESS);
   VkBindImageMemoryInfo bind_image{VK_STRUCTURE_TYPE_BIND_IMAGE_MEMORY_INFO};
   bind_image.image = image;
   bind_image.memory = memory[1];
   EXPECT_EQ(vkBindImageMemory2(g.device, 1, &bind_image), VK_SUCCESS);

   /* Descriptor layout support, and an update template writing the buffer into a set. */
   const VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT,
                                              nullptr};
   VkDescriptorSetLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
   layout_info.bindingCount = 1;
   layout_info.pBindings = &binding;
   VkDescriptorSetLayoutSupport support{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_SUPPORT};
   vkGetDescriptorSetLayoutSupport(g.device, &layout_info, &support);
   EXPECT_TRUE(support.supported);
   VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
   ASSERT_EQ(vkCreateDescriptorSetLayout(g.device, &layout_info, nullptr, &set_layout), VK_SUCCESS);
   const VkDescriptorUpdateTemplateEntry entry{0, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 0,
                                               sizeof(VkDescriptorBufferInfo)};
   VkDescriptorUpdateTemplateCreateInfo template_info{VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO};
   template_info.descriptorUpdateEntryCount = 1;
   template_info.pDescriptorUpdateEntries = &entry;
   template_info.templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET;
   template_info.descriptorSetLayout = set_layout;
   VkDescriptorUpdateTemplate update_template = VK_NULL_HANDLE;
   ASSERT_EQ(vkCreateDescriptorUpdateTemplate(g.device, &template_info, nullptr, &update_template), VK_SUCCESS);
   const VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
   VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
   pool_info.maxSets = 1;
   pool_info.poolSizeCount = 1;
   pool_info.pPoolSizes = &pool_size;
   VkDescriptorPool pool = VK_NULL_HANDLE;
   ASSERT_EQ(vkCreateDescriptorPool(g.device, &pool_info, nullptr, &pool), VK_SUCCESS);
   VkDescriptorSetAllocateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
   set_info.descriptorPool = pool;
   set_info.descriptorSetCount = 1;
   set_info.pSetLayouts = &set_layout;
   VkDescriptorSet set = VK_NULL_HANDLE;
   ASSERT_EQ(vkAllocateDescriptorSets(g.device, &set_info, &set), VK_SUCCESS);
   const VkDescriptorBufferInfo buffer_descriptor{buffer, 0, VK_WHOLE_SIZE};
   vkUpdateDescriptorSetWithTemplate(g.device, set, update_template, &buffer_descriptor);

   /* vkTrimCommandPool on a pool with a recorded command buffer freed. */
   VkCommandBuffer commands = g.begin();
   vkEndCommandBuffer(commands);
   vkFreeCommandBuffers(g.device, g.pool, 1, &commands);
   vkTrimCommandPool(g.device, g.pool, 0);

   /* External objects: Terakan exports none, and says so. */
   VkPhysicalDeviceExternalBufferInfo external_buffer{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO};
   external_buffer.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
   external_buffer.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
   VkExternalBufferProperties buffer_properties{VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES};
   vkGetPhysicalDeviceExternalBufferProperties(g.physical, &external_buffer, &buffer_properties);
   VkPhysicalDeviceExternalFenceInfo external_fence{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_FENCE_INFO};
   external_fence.handleType = VK_EXTERNAL_FENCE_HANDLE_TYPE_SYNC_FD_BIT;
   VkExternalFenceProperties fence_properties{VK_STRUCTURE_TYPE_EXTERNAL_FENCE_PROPERTIES};
   vkGetPhysicalDeviceExternalFenceProperties(g.physical, &external_fence, &fence_properties);
   VkPhysicalDeviceExternalSemaphoreInfo external_semaphore{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_SEMAPHORE_INFO};
   external_semaphore.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
   VkExternalSemaphoreProperties semaphore_properties{VK_STRUCTURE_TYPE_EXTERNAL_SEMAPHORE_PROPERTIES};
   vkGetPhysicalDeviceExternalSemaphoreProperties(g.physical, &external_semaphore, &semaphore_properties);
   if (!std::strcmp(GetParam(), "Terakan")) {
      EXPECT_EQ(buffer_properties.externalMemoryProperties.externalMemoryFeatures, 0u);
      EXPECT_EQ(fence_properties.externalFenceFeatures, 0u);
      EXPECT_EQ(semaphore_properties.externalSemaphoreFeatures, 0u);
   }

   vkDestroyDescriptorPool(g.device, pool, nullptr);
   vkDestroyDescriptorUpdateTemplate(g.device, update_template, nullptr);
   vkDestroyDescriptorSetLayout(g.device, set_layout, nullptr);
   vkDestroyImage(g.device, image, nullptr);
   vkDestroyBuffer(g.device, buffer, nullptr);
   for (VkDeviceMemory m : memory)
      vkFreeMemory(g.device, m, nullptr);
}

/* vkCmdDispatchBase and vkCmdSetDeviceMask by their core names: the group ids start at the
 * base, gl_NumWorkGroups does not include it (ids.comp). */
TEST_P(Vulkan11, DispatchBase)
{
   ComputeDevice &g = gpu();
   auto out = g.buffer(4 * 4 * 8 * 24);
   std::memset(out.words, 0xff, out.size);
   g.pipeline_flags = VK_PIPELINE_CREATE_DISPATCH_BASE_BIT;
   auto program = g.program("ids", {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, 0);
   g.pipeline_flags = 0;
   VkDescriptorSet set = g.descriptor_set(program, 0, {{out.buffer, 0, VK_WHOLE_SIZE}});
   VkCommandBuffer commands = g.begin();
   vkCmdSetDeviceMask(commands, 1);
   vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.pipeline);
   vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.layout, 0, 1, &set, 0, nullptr);
   vkCmdDispatchBase(commands, 2, 1, 0, 3, 2, 1);
   ComputeDevice::barrier(commands);
   ASSERT_EQ(g.submit_and_wait(commands), VK_SUCCESS);
   /* Group (x, y) of the 3x2 grid starts at (2 + x, 1 + y); the shader indexes its output by
    * the group id within the counts it sees, 3x2x1. */
   unsigned checked = 0;
   for (uint32_t y = 0; y < 2; y++)
      for (uint32_t x = 0; x < 3; x++) {
         const uint32_t gx = 2 + x, gy = 1 + y;
         const uint32_t group = gx + 3 * gy;
         for (uint32_t lane = 0; lane < 8; lane++) {
            const uint32_t *w = &out.words[(group * 8 + lane) * 4];
            EXPECT_EQ(w[0], gx | (gy << 8)) << "group " << x << "," << y;
            EXPECT_EQ(w[1], 3u | (2u << 8) | (1u << 16));
            EXPECT_EQ(w[2], (gx * 4 + lane % 4) + 100u * (gy * 2 + lane / 4));
            EXPECT_EQ(w[3], lane);
            checked++;
         }
      }
   EXPECT_EQ(checked, 48u);
   g.destroy(program);
   g.destroy(out);
}

INSTANTIATE_TEST_SUITE_P(Devices, Vulkan11, ::testing::Values("Terakan", "llvmpipe"),
                         [](const ::testing::TestParamInfo<const char *> &info) {
                            return std::string(!std::strcmp(info.param, "Terakan") ? "Terakan" : "Lavapipe");
                         });

} // namespace
