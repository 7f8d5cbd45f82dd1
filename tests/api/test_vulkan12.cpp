/* Vulkan 1.2 as core on the simulated card: through an instance that asks for 1.2, with the
 * Khronos validation layer counting messages, the version, the 1.1 and 1.2 feature and
 * property structures (which must agree with the extension structures they absorbed), the
 * 1.2 commands by their core names, a SPIR-V 1.5 module using the 1.2 features Terakan offers
 * (std430 uniform blocks, a subgroup broadcast from a dynamic id), and synchronization2 and
 * dynamic rendering's feature bits, on Terakan and on lavapipe (which reports 1.3, and gives
 * a 1.2 instance 1.2 behaviour). Features used elsewhere at length: imageless framebuffers and
 * separate depth/stencil layouts (api-renderpass2), depth/stencil resolves (api-depth-resolve),
 * draw counts from a buffer (api-draws), host query reset (api-queries), timeline semaphores
 * (api-compute), dynamic rendering inside secondaries (api-secondary). */
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "compute_device.h"

namespace {

using terakan::test::ComputeDevice;

/* The 1.2 features the tests below use, enabled through the core structure, and
 * synchronization2 through its extension (a 1.3 feature on a 1.2 device). */
ComputeDevice::Options vulkan12_options()
{
   static VkPhysicalDeviceVulkan12Features features12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
   features12.timelineSemaphore = VK_TRUE;
   features12.hostQueryReset = VK_TRUE;
   features12.uniformBufferStandardLayout = VK_TRUE;
   features12.subgroupBroadcastDynamicId = VK_TRUE;
   /* ComputeDevice enables VK_KHR_sampler_mirror_clamp_to_edge where offered (both devices
    * do), and the extension must then be enabled as this feature too. */
   features12.samplerMirrorClampToEdge = VK_TRUE;
   static VkPhysicalDeviceSynchronization2Features sync2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES,
                                                         &features12};
   sync2.synchronization2 = VK_TRUE;
   static VkPhysicalDeviceSubgroupSizeControlFeatures size_control{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES, &sync2};
   size_control.subgroupSizeControl = VK_TRUE;
   size_control.computeFullSubgroups = VK_TRUE;
   static VkPhysicalDevicePipelineCreationCacheControlFeatures cache_control{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_CREATION_CACHE_CONTROL_FEATURES, &size_control};
   cache_control.pipelineCreationCacheControl = VK_TRUE;
   static VkPhysicalDeviceMaintenance4Features maintenance4{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES,
                                                            &cache_control};
   maintenance4.maintenance4 = VK_TRUE;
   ComputeDevice::Options options;
   options.features_next = &maintenance4;
   options.extensions = {VK_KHR_SYNCHRONIZATION_2_EXTENSION_NAME, VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME,
                         VK_EXT_PIPELINE_CREATION_CACHE_CONTROL_EXTENSION_NAME, VK_KHR_MAINTENANCE_4_EXTENSION_NAME};
   return options;
}

ComputeDevice &device_named(const char *name)
{
   if (!std::strcmp(name, "Terakan")) {
      static ComputeDevice terakan("Terakan", true, false, VK_API_VERSION_1_2, vulkan12_options());
      return terakan;
   }
   static ComputeDevice lavapipe("llvmpipe", true, false, VK_API_VERSION_1_2, vulkan12_options());
   return lavapipe;
}

bool is_terakan(const char *name) { return !std::strcmp(name, "Terakan"); }

class Vulkan12 : public ::testing::TestWithParam<const char *> {
protected:
   ComputeDevice &gpu() { return device_named(GetParam()); }
   void SetUp() override { ASSERT_TRUE(gpu().ok()) << gpu().error; }
   void TearDown() override { EXPECT_EQ(gpu().validation_messages, 0u) << "validation layer messages"; }
};

TEST_P(Vulkan12, ReportsVersionAndFeatures)
{
   VkPhysicalDeviceProperties properties;
   vkGetPhysicalDeviceProperties(gpu().physical, &properties);
   EXPECT_GE(properties.apiVersion, VK_API_VERSION_1_2);
   if (is_terakan(GetParam()))
      EXPECT_EQ(VK_API_VERSION_MINOR(properties.apiVersion), 2u);

   VkPhysicalDeviceVulkan12Features core12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
   VkPhysicalDeviceVulkan11Features core11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &core12};
   VkPhysicalDeviceFeatures2 core{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &core11};
   vkGetPhysicalDeviceFeatures2(gpu().physical, &core);

   /* The extension structures, asked separately: each must say what the core ones say. */
   VkPhysicalDeviceHostQueryResetFeatures host_reset{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES};
   VkPhysicalDeviceTimelineSemaphoreFeatures timeline{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES,
                                                      &host_reset};
   VkPhysicalDeviceUniformBufferStandardLayoutFeatures standard{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_UNIFORM_BUFFER_STANDARD_LAYOUT_FEATURES, &timeline};
   VkPhysicalDeviceShaderSubgroupExtendedTypesFeatures extended{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_EXTENDED_TYPES_FEATURES, &standard};
   VkPhysicalDeviceImagelessFramebufferFeatures imageless{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGELESS_FRAMEBUFFER_FEATURES, &extended};
   VkPhysicalDeviceSeparateDepthStencilLayoutsFeatures layouts{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SEPARATE_DEPTH_STENCIL_LAYOUTS_FEATURES, &imageless};
   VkPhysicalDeviceScalarBlockLayoutFeatures scalar{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SCALAR_BLOCK_LAYOUT_FEATURES,
                                                    &layouts};
   VkPhysicalDeviceDescriptorIndexingFeatures indexing{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_FEATURES, &scalar};
   VkPhysicalDeviceBufferDeviceAddressFeatures address{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES, &indexing};
   VkPhysicalDeviceVulkanMemoryModelFeatures memory_model{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_MEMORY_MODEL_FEATURES, &address};
   VkPhysicalDeviceShaderFloat16Int8Features float16{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES,
                                                     &memory_model};
   VkPhysicalDevice8BitStorageFeatures storage8{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES, &float16};
   VkPhysicalDeviceShaderAtomicInt64Features atomics64{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES,
                                                       &storage8};
   VkPhysicalDeviceMultiviewFeatures multiview{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_FEATURES, &atomics64};
   VkPhysicalDeviceShaderDrawParametersFeatures draw_parameters{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DRAW_PARAMETERS_FEATURES, &multiview};
   VkPhysicalDeviceDynamicRenderingFeatures dynamic_rendering{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES, &draw_parameters};
   VkPhysicalDeviceSynchronization2Features sync2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES,
                                                  &dynamic_rendering};
   VkPhysicalDeviceFeatures2 extensions{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &sync2};
   vkGetPhysicalDeviceFeatures2(gpu().physical, &extensions);

   EXPECT_EQ(core12.hostQueryReset, host_reset.hostQueryReset);
   EXPECT_EQ(core12.timelineSemaphore, timeline.timelineSemaphore);
   EXPECT_EQ(core12.uniformBufferStandardLayout, standard.uniformBufferStandardLayout);
   EXPECT_EQ(core12.shaderSubgroupExtendedTypes, extended.shaderSubgroupExtendedTypes);
   EXPECT_EQ(core12.imagelessFramebuffer, imageless.imagelessFramebuffer);
   EXPECT_EQ(core12.separateDepthStencilLayouts, layouts.separateDepthStencilLayouts);
   EXPECT_EQ(core12.scalarBlockLayout, scalar.scalarBlockLayout);
   EXPECT_EQ(core12.runtimeDescriptorArray, indexing.runtimeDescriptorArray);
   EXPECT_EQ(core12.bufferDeviceAddress, address.bufferDeviceAddress);
   EXPECT_EQ(core12.vulkanMemoryModel, memory_model.vulkanMemoryModel);
   EXPECT_EQ(core12.shaderFloat16, float16.shaderFloat16);
   EXPECT_EQ(core12.shaderInt8, float16.shaderInt8);
   EXPECT_EQ(core12.storageBuffer8BitAccess, storage8.storageBuffer8BitAccess);
   EXPECT_EQ(core12.shaderBufferInt64Atomics, atomics64.shaderBufferInt64Atomics);
   EXPECT_EQ(core11.multiview, multiview.multiview);
   EXPECT_EQ(core11.shaderDrawParameters, draw_parameters.shaderDrawParameters);

   /* What Vulkan 1.2 requires of every device. */
   EXPECT_TRUE(core11.multiview);
   EXPECT_TRUE(core12.imagelessFramebuffer);
   EXPECT_TRUE(core12.uniformBufferStandardLayout);
   EXPECT_TRUE(core12.shaderSubgroupExtendedTypes);
   EXPECT_TRUE(core12.separateDepthStencilLayouts);
   EXPECT_TRUE(core12.hostQueryReset);
   EXPECT_TRUE(core12.timelineSemaphore);
   EXPECT_TRUE(core12.subgroupBroadcastDynamicId);

   if (is_terakan(GetParam())) {
      /* Offered (docs/status.md). */
      EXPECT_TRUE(core12.samplerMirrorClampToEdge);
      EXPECT_TRUE(core12.drawIndirectCount);
      EXPECT_TRUE(core12.scalarBlockLayout);
      EXPECT_TRUE(core11.shaderDrawParameters);
      EXPECT_TRUE(dynamic_rendering.dynamicRendering);
      EXPECT_TRUE(sync2.synchronization2);
      /* Absent, and said to be. */
      EXPECT_FALSE(core12.descriptorIndexing);
      EXPECT_FALSE(core12.runtimeDescriptorArray);
      EXPECT_FALSE(core12.bufferDeviceAddress);
      EXPECT_FALSE(core12.vulkanMemoryModel);
      EXPECT_FALSE(core12.shaderFloat16);
      EXPECT_FALSE(core12.shaderInt8);
      EXPECT_FALSE(core12.storageBuffer8BitAccess);
      EXPECT_FALSE(core12.shaderBufferInt64Atomics);
      EXPECT_FALSE(core12.samplerFilterMinmax);
      /* Present: api-viewports and api-layers draw with them. */
      EXPECT_TRUE(core12.shaderOutputViewportIndex);
      EXPECT_TRUE(core12.shaderOutputLayer);
      EXPECT_FALSE(core11.storageBuffer16BitAccess);
      EXPECT_FALSE(core11.variablePointers);
   }
}

TEST_P(Vulkan12, PropertiesAgreeWithTheirExtensionStructures)
{
   VkPhysicalDeviceVulkan12Properties core12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES};
   VkPhysicalDeviceVulkan11Properties core11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES, &core12};
   VkPhysicalDeviceProperties2 core{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &core11};
   vkGetPhysicalDeviceProperties2(gpu().physical, &core);

   VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
   VkPhysicalDeviceDepthStencilResolveProperties resolve{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_STENCIL_RESOLVE_PROPERTIES, &driver};
   VkPhysicalDeviceTimelineSemaphoreProperties timeline{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_PROPERTIES, &resolve};
   VkPhysicalDeviceFloatControlsProperties float_controls{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES,
                                                          &timeline};
   VkPhysicalDeviceDescriptorIndexingProperties indexing{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_PROPERTIES, &float_controls};
   VkPhysicalDeviceSubgroupProperties subgroups{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES, &indexing};
   VkPhysicalDeviceIDProperties id{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES, &subgroups};
   VkPhysicalDeviceMaintenance3Properties maintenance3{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES,
                                                       &id};
   VkPhysicalDeviceProperties2 extensions{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &maintenance3};
   vkGetPhysicalDeviceProperties2(gpu().physical, &extensions);

   EXPECT_EQ(core12.driverID, driver.driverID);
   EXPECT_STREQ(core12.driverName, driver.driverName);
   EXPECT_STREQ(core12.driverInfo, driver.driverInfo);
   EXPECT_EQ(core12.supportedDepthResolveModes, resolve.supportedDepthResolveModes);
   EXPECT_EQ(core12.supportedStencilResolveModes, resolve.supportedStencilResolveModes);
   EXPECT_EQ(core12.independentResolve, resolve.independentResolve);
   EXPECT_EQ(core12.maxTimelineSemaphoreValueDifference, timeline.maxTimelineSemaphoreValueDifference);
   EXPECT_EQ(core12.shaderDenormPreserveFloat32, float_controls.shaderDenormPreserveFloat32);
   EXPECT_EQ(core12.shaderRoundingModeRTEFloat32, float_controls.shaderRoundingModeRTEFloat32);
   EXPECT_EQ(core12.maxPerStageDescriptorUpdateAfterBindSamplers,
             indexing.maxPerStageDescriptorUpdateAfterBindSamplers);
   EXPECT_EQ(core12.maxDescriptorSetUpdateAfterBindStorageBuffers,
             indexing.maxDescriptorSetUpdateAfterBindStorageBuffers);
   EXPECT_EQ(core11.subgroupSize, subgroups.subgroupSize);
   EXPECT_EQ(core11.subgroupSupportedOperations, subgroups.supportedOperations);
   EXPECT_EQ(0, std::memcmp(core11.deviceUUID, id.deviceUUID, VK_UUID_SIZE));
   EXPECT_EQ(0, std::memcmp(core11.driverUUID, id.driverUUID, VK_UUID_SIZE));
   EXPECT_EQ(core11.maxMemoryAllocationSize, maintenance3.maxMemoryAllocationSize);

   /* The specification's requirements. */
   EXPECT_TRUE(core12.supportedDepthResolveModes & VK_RESOLVE_MODE_SAMPLE_ZERO_BIT);
   EXPECT_TRUE(core12.supportedStencilResolveModes & VK_RESOLVE_MODE_SAMPLE_ZERO_BIT);
   EXPECT_TRUE(core12.framebufferIntegerColorSampleCounts & VK_SAMPLE_COUNT_1_BIT);
   EXPECT_GE(core12.maxTimelineSemaphoreValueDifference, (1ull << 31) - 1);

   if (is_terakan(GetParam())) {
      EXPECT_STREQ(core12.driverName, "terakan");
      EXPECT_EQ(core12.conformanceVersion.major, 0u);
      EXPECT_EQ(core11.subgroupSize, 1u);
      /* No float-control execution mode is promised. */
      EXPECT_FALSE(core12.shaderDenormPreserveFloat32);
      EXPECT_FALSE(core12.shaderDenormFlushToZeroFloat32);
      EXPECT_FALSE(core12.shaderRoundingModeRTEFloat32);
      EXPECT_FALSE(core12.shaderRoundingModeRTZFloat32);
      EXPECT_FALSE(core12.shaderSignedZeroInfNanPreserveFloat32);
      /* No update-after-bind pool can exist without descriptor indexing. */
      EXPECT_EQ(core12.maxUpdateAfterBindDescriptorsInAllPools, 0u);
      EXPECT_EQ(core12.maxPerStageDescriptorUpdateAfterBindStorageBuffers,
                core.properties.limits.maxPerStageDescriptorStorageBuffers);
   }
}

/* The 1.2 commands by their core names: every one is reachable, and those that need no
 * feature Terakan lacks do what they must. */
TEST_P(Vulkan12, CoreCommands)
{
   ComputeDevice &g = gpu();
   for (const char *name : {"vkCmdDrawIndirectCount", "vkCmdDrawIndexedIndirectCount", "vkCreateRenderPass2",
                            "vkCmdBeginRenderPass2", "vkCmdNextSubpass2", "vkCmdEndRenderPass2", "vkResetQueryPool",
                            "vkGetSemaphoreCounterValue", "vkWaitSemaphores", "vkSignalSemaphore",
                            "vkGetBufferDeviceAddress", "vkGetBufferOpaqueCaptureAddress",
                            "vkGetDeviceMemoryOpaqueCaptureAddress"})
      EXPECT_NE(vkGetDeviceProcAddr(g.device, name), nullptr) << name;

   /* A query reset on the host is unavailable until written. */
   VkQueryPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
   pool_info.queryType = VK_QUERY_TYPE_TIMESTAMP;
   pool_info.queryCount = 2;
   VkQueryPool queries = VK_NULL_HANDLE;
   ASSERT_EQ(vkCreateQueryPool(g.device, &pool_info, nullptr, &queries), VK_SUCCESS);
   vkResetQueryPool(g.device, queries, 0, 2);
   uint64_t stamps[2] = {};
   EXPECT_EQ(vkGetQueryPoolResults(g.device, queries, 0, 2, sizeof(stamps), stamps, sizeof(uint64_t),
                                   VK_QUERY_RESULT_64_BIT),
             VK_NOT_READY);
   vkDestroyQueryPool(g.device, queries, nullptr);

   /* Timeline semaphores by the core names. */
   VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
   type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
   type.initialValue = 5;
   VkSemaphoreCreateInfo semaphore_info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, &type};
   VkSemaphore timeline = VK_NULL_HANDLE;
   ASSERT_EQ(vkCreateSemaphore(g.device, &semaphore_info, nullptr, &timeline), VK_SUCCESS);
   uint64_t value = 0;
   EXPECT_EQ(vkGetSemaphoreCounterValue(g.device, timeline, &value), VK_SUCCESS);
   EXPECT_EQ(value, 5u);
   VkSemaphoreSignalInfo signal{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
   signal.semaphore = timeline;
   signal.value = 9;
   EXPECT_EQ(vkSignalSemaphore(g.device, &signal), VK_SUCCESS);
   EXPECT_EQ(vkGetSemaphoreCounterValue(g.device, timeline, &value), VK_SUCCESS);
   EXPECT_EQ(value, 9u);
   uint64_t wanted = 9;
   VkSemaphoreWaitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
   wait.semaphoreCount = 1;
   wait.pSemaphores = &timeline;
   wait.pValues = &wanted;
   EXPECT_EQ(vkWaitSemaphores(g.device, &wait, 0), VK_SUCCESS);
   wanted = 10;
   EXPECT_EQ(vkWaitSemaphores(g.device, &wait, 0), VK_TIMEOUT);
   vkDestroySemaphore(g.device, timeline, nullptr);

   /* A render pass through the "2" creation command. */
   VkAttachmentDescription2 attachment{VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2};
   attachment.format = VK_FORMAT_R8G8B8A8_UNORM;
   attachment.samples = VK_SAMPLE_COUNT_1_BIT;
   attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
   attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
   attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
   attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
   attachment.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
   attachment.finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
   VkAttachmentReference2 reference{VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2};
   reference.attachment = 0;
   reference.layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
   reference.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
   VkSubpassDescription2 subpass{VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_2};
   subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
   subpass.colorAttachmentCount = 1;
   subpass.pColorAttachments = &reference;
   VkRenderPassCreateInfo2 render_pass_info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2};
   render_pass_info.attachmentCount = 1;
   render_pass_info.pAttachments = &attachment;
   render_pass_info.subpassCount = 1;
   render_pass_info.pSubpasses = &subpass;
   VkRenderPass render_pass = VK_NULL_HANDLE;
   EXPECT_EQ(vkCreateRenderPass2(g.device, &render_pass_info, nullptr, &render_pass), VK_SUCCESS);
   vkDestroyRenderPass(g.device, render_pass, nullptr);
}

/* A SPIR-V 1.5 module: a std430 uniform block and a broadcast from a dynamic id, against the
 * CPU for the device's subgroup size (1 on Terakan; lavapipe's subgroups are consecutive
 * invocations). */
TEST_P(Vulkan12, StandardLayoutUniformsAndDynamicBroadcast)
{
   ComputeDevice &g = gpu();
   auto uniforms = g.buffer(96);
   float *floats = reinterpret_cast<float *>(uniforms.words);
   for (unsigned i = 0; i < 16; i++)
      floats[i] = float(i) * 0.5f - 3.0f;
   floats[16] = 0.25f; /* direction, offset 64 */
   floats[17] = -1.5f;
   floats[18] = 8.0f;
   floats[19] = 2.0f; /* scale, offset 76 */
   const uint32_t lane = 5;
   uniforms.words[20] = lane; /* offset 80 */
   auto out = g.buffer(3 * 128 * 4);
   std::memset(out.words, 0xff, out.size);

   auto program = g.program("vulkan12", {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, 0);
   ASSERT_NE(program.pipeline, VkPipeline(VK_NULL_HANDLE));
   VkDescriptorSet set = g.descriptor_set(program, 0, {{uniforms.buffer, 0, 96}, {out.buffer, 0, out.size}});
   VkCommandBuffer commands = g.begin();
   vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.pipeline);
   vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.layout, 0, 1, &set, 0, nullptr);
   vkCmdDispatch(commands, 2, 1, 1);
   ASSERT_EQ(g.submit_and_wait(commands), VK_SUCCESS);

   const uint32_t *broadcast = out.words;
   const float *weighted = reinterpret_cast<const float *>(out.words + 128);
   const uint32_t *subgroup_size = out.words + 256;
   for (uint32_t i = 0; i < 128; i++) {
      const uint32_t size = subgroup_size[i];
      ASSERT_TRUE(size >= 1 && size <= 128) << i;
      if (is_terakan(GetParam()))
         EXPECT_EQ(size, 1u);
      const uint32_t source = (i / size) * size + lane % size;
      EXPECT_EQ(broadcast[i], source * 3 + 1) << "invocation " << i << ", subgroup size " << size;
      EXPECT_EQ(weighted[i], floats[i % 16] * 2.0f + floats[16 + i % 3]) << "invocation " << i;
   }
   g.destroy(program);
   g.destroy(out);
   g.destroy(uniforms);
}

/* VK_EXT_subgroup_size_control: the pipeline asks for full subgroups of the largest size the
 * device offers (1 on Terakan) and gets it, in every invocation. */
TEST_P(Vulkan12, RequiredSubgroupSize)
{
   ComputeDevice &g = gpu();
   VkPhysicalDeviceSubgroupSizeControlProperties size_control{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES};
   VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &size_control};
   vkGetPhysicalDeviceProperties2(g.physical, &properties);
   ASSERT_TRUE(size_control.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT);
   ASSERT_LE(size_control.minSubgroupSize, size_control.maxSubgroupSize);
   if (is_terakan(GetParam())) {
      EXPECT_EQ(size_control.minSubgroupSize, 1u);
      EXPECT_EQ(size_control.maxSubgroupSize, 1u);
      EXPECT_EQ(size_control.maxComputeWorkgroupSubgroups, properties.properties.limits.maxComputeWorkGroupInvocations);
   }

   auto uniforms = g.buffer(96);
   uniforms.words[20] = 3; /* the broadcast's lane */
   auto out = g.buffer(3 * 128 * 4);
   std::memset(out.words, 0xff, out.size);
   auto program = g.program("vulkan12", {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, 0);
   ASSERT_NE(program.pipeline, VkPipeline(VK_NULL_HANDLE));
   const std::vector<uint32_t> spirv = terakan::test::read_spirv("vulkan12");
   VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
   module_info.codeSize = spirv.size() * 4;
   module_info.pCode = spirv.data();
   VkShaderModule module = VK_NULL_HANDLE;
   ASSERT_EQ(vkCreateShaderModule(g.device, &module_info, nullptr, &module), VK_SUCCESS);
   VkPipelineShaderStageRequiredSubgroupSizeCreateInfo required{
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO};
   required.requiredSubgroupSize = size_control.maxSubgroupSize;
   VkComputePipelineCreateInfo pipeline_info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
   pipeline_info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, &required,
                          VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT, VK_SHADER_STAGE_COMPUTE_BIT, module,
                          "main", nullptr};
   pipeline_info.layout = program.layout;
   VkPipeline pipeline = VK_NULL_HANDLE;
   ASSERT_EQ(vkCreateComputePipelines(g.device, VK_NULL_HANDLE, 1, &pipeline_info, nullptr, &pipeline), VK_SUCCESS);

   VkDescriptorSet set = g.descriptor_set(program, 0, {{uniforms.buffer, 0, 96}, {out.buffer, 0, out.size}});
   VkCommandBuffer commands = g.begin();
   vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
   vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.layout, 0, 1, &set, 0, nullptr);
   vkCmdDispatch(commands, 2, 1, 1);
   ASSERT_EQ(g.submit_and_wait(commands), VK_SUCCESS);
   const uint32_t size = size_control.maxSubgroupSize;
   for (uint32_t i = 0; i < 128; i++) {
      EXPECT_EQ(out.words[256 + i], size) << "invocation " << i;
      EXPECT_EQ(out.words[i], ((i / size) * size + 3 % size) * 3 + 1) << "invocation " << i;
   }
   vkDestroyPipeline(g.device, pipeline, nullptr);
   vkDestroyShaderModule(g.device, module, nullptr);
   g.destroy(program);
   g.destroy(out);
   g.destroy(uniforms);
}

/* VK_EXT_pipeline_creation_cache_control: a pipeline that may not be compiled is made only
 * from the cache; a batch stops at the first failure when asked to. */
TEST_P(Vulkan12, PipelineCreationCacheControl)
{
   ComputeDevice &g = gpu();
   auto program = g.program("vulkan12", {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, 0);
   ASSERT_NE(program.pipeline, VkPipeline(VK_NULL_HANDLE));
   const std::vector<uint32_t> spirv = terakan::test::read_spirv("vulkan12");
   VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
   module_info.codeSize = spirv.size() * 4;
   module_info.pCode = spirv.data();
   VkShaderModule module = VK_NULL_HANDLE;
   ASSERT_EQ(vkCreateShaderModule(g.device, &module_info, nullptr, &module), VK_SUCCESS);
   VkPipelineCacheCreateInfo cache_info{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
   cache_info.flags = VK_PIPELINE_CACHE_CREATE_EXTERNALLY_SYNCHRONIZED_BIT;
   VkPipelineCache cache = VK_NULL_HANDLE;
   ASSERT_EQ(vkCreatePipelineCache(g.device, &cache_info, nullptr, &cache), VK_SUCCESS);

   VkComputePipelineCreateInfo infos[2] = {};
   for (VkComputePipelineCreateInfo &info : infos) {
      info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
      info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT,
                    module, "main", nullptr};
      info.layout = program.layout;
      info.flags = VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT |
                   VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT;
   }
   /* The empty cache cannot give it: the first fails, the second is not tried. */
   VkPipeline pipelines[2] = {VkPipeline(uintptr_t(1)), VkPipeline(uintptr_t(1))};
   EXPECT_EQ(vkCreateComputePipelines(g.device, cache, 2, infos, nullptr, pipelines), VK_PIPELINE_COMPILE_REQUIRED);
   EXPECT_EQ(pipelines[0], VkPipeline(VK_NULL_HANDLE));
   EXPECT_EQ(pipelines[1], VkPipeline(VK_NULL_HANDLE));
   /* Made once without the flag, it is in the cache, and then the flag is no obstacle on
    * Terakan, whose cache holds the compiled program (lavapipe keeps no compiled code in its
    * cache and may answer VK_PIPELINE_COMPILE_REQUIRED again, as the specification allows). */
   VkComputePipelineCreateInfo compiled = infos[0];
   compiled.flags = 0;
   VkPipeline first = VK_NULL_HANDLE, again = VK_NULL_HANDLE;
   ASSERT_EQ(vkCreateComputePipelines(g.device, cache, 1, &compiled, nullptr, &first), VK_SUCCESS);
   const VkResult from_cache = vkCreateComputePipelines(g.device, cache, 1, &infos[0], nullptr, &again);
   if (is_terakan(GetParam())) {
      EXPECT_EQ(from_cache, VK_SUCCESS);
      EXPECT_NE(again, VkPipeline(VK_NULL_HANDLE));
   } else {
      EXPECT_TRUE(from_cache == VK_SUCCESS || from_cache == VK_PIPELINE_COMPILE_REQUIRED);
   }
   vkDestroyPipeline(g.device, again, nullptr);
   vkDestroyPipeline(g.device, first, nullptr);
   vkDestroyPipelineCache(g.device, cache, nullptr);
   vkDestroyShaderModule(g.device, module, nullptr);
   g.destroy(program);
}

/* VK_KHR_maintenance4: memory requirements of objects not made yet equal those of the objects;
 * a workgroup size given by LocalSizeId from a specialization constant. */
TEST_P(Vulkan12, Maintenance4)
{
   ComputeDevice &g = gpu();
   auto buffer_requirements = reinterpret_cast<PFN_vkGetDeviceBufferMemoryRequirementsKHR>(
      vkGetDeviceProcAddr(g.device, "vkGetDeviceBufferMemoryRequirementsKHR"));
   auto image_requirements = reinterpret_cast<PFN_vkGetDeviceImageMemoryRequirementsKHR>(
      vkGetDeviceProcAddr(g.device, "vkGetDeviceImageMemoryRequirementsKHR"));
   ASSERT_TRUE(buffer_requirements && image_requirements);
   VkPhysicalDeviceMaintenance4Properties limits{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_PROPERTIES};
   VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &limits};
   vkGetPhysicalDeviceProperties2(g.physical, &properties);
   EXPECT_GE(limits.maxBufferSize, 1ull << 30); /* Vulkan's minimum */

   for (VkDeviceSize size : {VkDeviceSize(1), VkDeviceSize(1000), VkDeviceSize(65536)}) {
      VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
      info.size = size;
      info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
      VkBuffer buffer = VK_NULL_HANDLE;
      ASSERT_EQ(vkCreateBuffer(g.device, &info, nullptr, &buffer), VK_SUCCESS);
      VkMemoryRequirements made{};
      vkGetBufferMemoryRequirements(g.device, buffer, &made);
      VkDeviceBufferMemoryRequirements query{VK_STRUCTURE_TYPE_DEVICE_BUFFER_MEMORY_REQUIREMENTS, nullptr, &info};
      VkMemoryRequirements2 unmade{VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
      buffer_requirements(g.device, &query, &unmade);
      EXPECT_EQ(unmade.memoryRequirements.size, made.size) << size;
      EXPECT_EQ(unmade.memoryRequirements.alignment, made.alignment) << size;
      EXPECT_EQ(unmade.memoryRequirements.memoryTypeBits, made.memoryTypeBits) << size;
      vkDestroyBuffer(g.device, buffer, nullptr);
   }
   struct ImageCase {
      VkImageType type;
      VkFormat format;
      VkExtent3D extent;
      uint32_t levels, layers;
      VkSampleCountFlagBits samples;
      VkImageUsageFlags usage;
   };
   for (const ImageCase &c :
        {ImageCase{VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {100, 70, 1}, 7, 1, VK_SAMPLE_COUNT_1_BIT,
                   VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT},
         ImageCase{VK_IMAGE_TYPE_2D, VK_FORMAT_R32G32B32A32_SFLOAT, {300, 300, 1}, 1, 6, VK_SAMPLE_COUNT_1_BIT,
                   VK_IMAGE_USAGE_SAMPLED_BIT},
         ImageCase{VK_IMAGE_TYPE_3D, VK_FORMAT_R16_SFLOAT, {33, 17, 9}, 3, 1, VK_SAMPLE_COUNT_1_BIT,
                   VK_IMAGE_USAGE_SAMPLED_BIT},
         ImageCase{VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {64, 64, 1}, 1, 1, VK_SAMPLE_COUNT_4_BIT,
                   VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT},
         ImageCase{VK_IMAGE_TYPE_2D, VK_FORMAT_D32_SFLOAT, {129, 65, 1}, 1, 1, VK_SAMPLE_COUNT_1_BIT,
                   VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT}}) {
      VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
      info.imageType = c.type;
      info.format = c.format;
      info.extent = c.extent;
      info.mipLevels = c.levels;
      info.arrayLayers = c.layers;
      info.samples = c.samples;
      info.tiling = VK_IMAGE_TILING_OPTIMAL;
      info.usage = c.usage;
      info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
      VkImage image = VK_NULL_HANDLE;
      ASSERT_EQ(vkCreateImage(g.device, &info, nullptr, &image), VK_SUCCESS) << c.format;
      VkMemoryRequirements made{};
      vkGetImageMemoryRequirements(g.device, image, &made);
      VkDeviceImageMemoryRequirements query{VK_STRUCTURE_TYPE_DEVICE_IMAGE_MEMORY_REQUIREMENTS, nullptr, &info};
      VkMemoryRequirements2 unmade{VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
      image_requirements(g.device, &query, &unmade);
      EXPECT_EQ(unmade.memoryRequirements.size, made.size) << c.format;
      EXPECT_EQ(unmade.memoryRequirements.alignment, made.alignment) << c.format;
      EXPECT_EQ(unmade.memoryRequirements.memoryTypeBits, made.memoryTypeBits) << c.format;
      EXPECT_GT(made.size, 0u);
      vkDestroyImage(g.device, image, nullptr);
   }

   /* LocalSizeId: 32 invocations a workgroup from specialization constant 0. */
   auto out = g.buffer(64 * 4);
   std::memset(out.words, 0xff, out.size);
   const uint32_t width = 32;
   const VkSpecializationMapEntry entry{0, 0, 4};
   const VkSpecializationInfo specialization{1, &entry, 4, &width};
   auto program = g.program("local_size_id", {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, 0, nullptr, &specialization);
   ASSERT_NE(program.pipeline, VkPipeline(VK_NULL_HANDLE));
   VkDescriptorSet set = g.descriptor_set(program, 0, {{out.buffer, 0, out.size}});
   VkCommandBuffer commands = g.begin();
   vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.pipeline);
   vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.layout, 0, 1, &set, 0, nullptr);
   vkCmdDispatch(commands, 2, 1, 1);
   ASSERT_EQ(g.submit_and_wait(commands), VK_SUCCESS);
   for (uint32_t i = 0; i < 64; i++)
      EXPECT_EQ(out.words[i], width * 1000 + i % width) << "invocation " << i;
   g.destroy(program);
   g.destroy(out);
}

/* Synchronization2 on a 1.2 device: two dependent dispatches separated by
 * vkCmdPipelineBarrier2, a timestamp by vkCmdWriteTimestamp2, submitted by vkQueueSubmit2
 * with a timeline semaphore signalled at the end. */
TEST_P(Vulkan12, Synchronization2)
{
   ComputeDevice &g = gpu();
   auto pipeline_barrier2 =
      reinterpret_cast<PFN_vkCmdPipelineBarrier2KHR>(vkGetDeviceProcAddr(g.device, "vkCmdPipelineBarrier2KHR"));
   auto write_timestamp2 =
      reinterpret_cast<PFN_vkCmdWriteTimestamp2KHR>(vkGetDeviceProcAddr(g.device, "vkCmdWriteTimestamp2KHR"));
   auto queue_submit2 = reinterpret_cast<PFN_vkQueueSubmit2KHR>(vkGetDeviceProcAddr(g.device, "vkQueueSubmit2KHR"));
   ASSERT_TRUE(pipeline_barrier2 && write_timestamp2 && queue_submit2);

   auto data = g.buffer(128 * 4);
   for (uint32_t i = 0; i < 128; i++)
      data.words[i] = i * 2654435761u;
   auto program = g.program("scale_add", {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, 8);
   ASSERT_NE(program.pipeline, VkPipeline(VK_NULL_HANDLE));
   VkDescriptorSet set = g.descriptor_set(program, 0, {{data.buffer, 0, data.size}});

   VkQueryPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
   pool_info.queryType = VK_QUERY_TYPE_TIMESTAMP;
   pool_info.queryCount = 1;
   VkQueryPool queries = VK_NULL_HANDLE;
   ASSERT_EQ(vkCreateQueryPool(g.device, &pool_info, nullptr, &queries), VK_SUCCESS);

   VkCommandBuffer commands = g.begin();
   vkCmdResetQueryPool(commands, queries, 0, 1);
   vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.pipeline);
   vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.layout, 0, 1, &set, 0, nullptr);
   const uint32_t first[2] = {1, 2}, second[2] = {3, 5}; /* {add, mul} */
   vkCmdPushConstants(commands, program.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(first), first);
   vkCmdDispatch(commands, 2, 1, 1);
   VkMemoryBarrier2 memory{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
   memory.srcStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
   memory.srcAccessMask = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
   memory.dstStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
   memory.dstAccessMask = VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
   VkDependencyInfo dependency{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
   dependency.memoryBarrierCount = 1;
   dependency.pMemoryBarriers = &memory;
   pipeline_barrier2(commands, &dependency);
   vkCmdPushConstants(commands, program.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(second), second);
   vkCmdDispatch(commands, 2, 1, 1);
   write_timestamp2(commands, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, queries, 0);
   ASSERT_EQ(vkEndCommandBuffer(commands), VK_SUCCESS);

   VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
   type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
   VkSemaphoreCreateInfo semaphore_info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, &type};
   VkSemaphore timeline = VK_NULL_HANDLE;
   ASSERT_EQ(vkCreateSemaphore(g.device, &semaphore_info, nullptr, &timeline), VK_SUCCESS);
   VkCommandBufferSubmitInfo command_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
   command_info.commandBuffer = commands;
   VkSemaphoreSubmitInfo signal{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
   signal.semaphore = timeline;
   signal.value = 1;
   signal.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
   VkSubmitInfo2 submit{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
   submit.commandBufferInfoCount = 1;
   submit.pCommandBufferInfos = &command_info;
   submit.signalSemaphoreInfoCount = 1;
   submit.pSignalSemaphoreInfos = &signal;
   ASSERT_EQ(queue_submit2(g.queue, 1, &submit, VK_NULL_HANDLE), VK_SUCCESS);
   const uint64_t wanted = 1;
   VkSemaphoreWaitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
   wait.semaphoreCount = 1;
   wait.pSemaphores = &timeline;
   wait.pValues = &wanted;
   ASSERT_EQ(vkWaitSemaphores(g.device, &wait, UINT64_MAX), VK_SUCCESS);

   for (uint32_t i = 0; i < 128; i++)
      EXPECT_EQ(data.words[i], ((i * 2654435761u) * 2 + 1) * 5 + 3) << i;
   uint64_t stamp = 0;
   EXPECT_EQ(vkGetQueryPoolResults(g.device, queries, 0, 1, sizeof(stamp), &stamp, sizeof(stamp),
                                   VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
             VK_SUCCESS);

   vkFreeCommandBuffers(g.device, g.pool, 1, &commands);
   vkDestroySemaphore(g.device, timeline, nullptr);
   vkDestroyQueryPool(g.device, queries, nullptr);
   g.destroy(program);
   g.destroy(data);
}

INSTANTIATE_TEST_SUITE_P(Devices, Vulkan12, ::testing::Values("Terakan", "llvmpipe"),
                         [](const auto &info) { return std::string(is_terakan(info.param) ? "Terakan" : "Lavapipe"); });

} // namespace
