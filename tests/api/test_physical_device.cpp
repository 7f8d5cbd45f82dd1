/* Terakan through the real Vulkan loader on the simulated radeon node: device discovery and
 * the properties each board must report. The expected values are written out per board here
 * (from Linux's PCI id table, the PCI ID Repository and the boards' specifications), not
 * computed with the driver's or the simulator's own tables. */
#include <gtest/gtest.h>

#include <cstddef>

#include <cstdlib>
#include <cstring>
#include <string>

#include "mandatory_formats.h"
#include "vulkan_test_env.h"

namespace {

constexpr uint64_t MiB = 1024ull * 1024ull;

struct ExpectedBoard {
   const char *chip; /* TERAKAN_SIM_CHIP */
   uint32_t device_id;
   const char *name;
   VkPhysicalDeviceType type;
   uint64_t vram;
   uint64_t cpu_visible_vram;
   uint64_t gtt;
};

const ExpectedBoard expected_boards[] = {
   {"CAYMAN", 0x6718, "AMD Radeon HD 6970 (CAYMAN) (Terakan)",
    VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU, 2048 * MiB, 256 * MiB, 1024 * MiB},
   {"JUNIPER", 0x68B8, "AMD Radeon HD 5770 (JUNIPER) (Terakan)",
    VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU, 1024 * MiB, 256 * MiB, 1024 * MiB},
   {"BARTS", 0x6738, "AMD Radeon HD 6870 (BARTS) (Terakan)",
    VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU, 1024 * MiB, 256 * MiB, 1024 * MiB},
   {"0x9900", 0x9900, "AMD Radeon HD 7660G (ARUBA) (Terakan)",
    VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU, 512 * MiB, 512 * MiB, 1024 * MiB},
};

const ExpectedBoard &expected()
{
   const char *chip = std::getenv("TERAKAN_SIM_CHIP");
   for (const ExpectedBoard &board : expected_boards) {
      if (chip && std::strcmp(chip, board.chip) == 0)
         return board;
   }
   ADD_FAILURE() << "TERAKAN_SIM_CHIP=" << (chip ? chip : "(unset)")
                 << " has no expectations in this test";
   return expected_boards[0];
}

class PhysicalDevice : public ::testing::Test {
protected:
   void SetUp() override
   {
      ASSERT_EQ(instance.result(), VK_SUCCESS);
      VkResult result;
      auto devices = instance.physical_devices(&result);
      ASSERT_EQ(result, VK_SUCCESS);
      ASSERT_EQ(devices.size(), 1u) << "exactly one simulated radeon node is present";
      device = devices[0];
   }
   void TearDown() override
   {
      EXPECT_EQ(instance.validation().errors, 0) << "the validation layer reported errors";
   }

   TestInstance instance;
   VkPhysicalDevice device = VK_NULL_HANDLE;
};

TEST_F(PhysicalDevice, NamesTheBoard)
{
   const ExpectedBoard &board = expected();
   VkPhysicalDeviceProperties properties;
   vkGetPhysicalDeviceProperties(device, &properties);
   EXPECT_STREQ(properties.deviceName, board.name);
   EXPECT_EQ(properties.vendorID, 0x1002u);
   EXPECT_EQ(properties.deviceID, board.device_id);
   EXPECT_EQ(properties.deviceType, board.type);
   EXPECT_EQ(VK_API_VERSION_MAJOR(properties.apiVersion), 1u);
   EXPECT_EQ(VK_API_VERSION_MINOR(properties.apiVersion), 2u); /* Vulkan 1.2 (src/terakan/meson.build) */
}

TEST_F(PhysicalDevice, DriverPropertiesSayNotConformant)
{
   uint32_t count = 0;
   vkEnumerateDeviceExtensionProperties(device, nullptr, &count, nullptr);
   std::vector<VkExtensionProperties> extensions(count);
   vkEnumerateDeviceExtensionProperties(device, nullptr, &count, extensions.data());
   bool has_driver_properties = false;
   for (const auto &extension : extensions)
      has_driver_properties |= !strcmp(extension.extensionName, "VK_KHR_driver_properties");
   ASSERT_TRUE(has_driver_properties);

   VkPhysicalDeviceDriverProperties driver = {
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
   VkPhysicalDeviceProperties2 properties = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
   properties.pNext = &driver;
   auto get_properties2 = reinterpret_cast<PFN_vkGetPhysicalDeviceProperties2KHR>(
      vkGetInstanceProcAddr(instance.get(), "vkGetPhysicalDeviceProperties2KHR"));
   ASSERT_NE(get_properties2, nullptr);
   get_properties2(device, &properties);
   EXPECT_STREQ(driver.driverName, "terakan");
   EXPECT_NE(std::string(driver.driverInfo).find("not conformant"), std::string::npos);
   EXPECT_EQ(driver.conformanceVersion.major, 0);
   EXPECT_EQ(driver.conformanceVersion.minor, 0);
   EXPECT_EQ(driver.conformanceVersion.subminor, 0);
   EXPECT_EQ(driver.conformanceVersion.patch, 0);
}

TEST_F(PhysicalDevice, MemoryHeapsComeFromTheKernel)
{
   const ExpectedBoard &board = expected();
   VkPhysicalDeviceMemoryProperties memory;
   vkGetPhysicalDeviceMemoryProperties(device, &memory);

   uint64_t device_local = 0, host_only = 0;
   for (uint32_t i = 0; i < memory.memoryHeapCount; i++) {
      if (memory.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
         device_local += memory.memoryHeaps[i].size;
      else
         host_only += memory.memoryHeaps[i].size;
   }
   EXPECT_EQ(device_local, board.vram);
   EXPECT_EQ(host_only, board.gtt);

   /* The CPU-visible VRAM type sits on a heap exactly the size of the PCI aperture. */
   bool found_visible_vram = false;
   for (uint32_t i = 0; i < memory.memoryTypeCount; i++) {
      const VkMemoryType &type = memory.memoryTypes[i];
      const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT |
                                         VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
      if ((type.propertyFlags & want) == want) {
         found_visible_vram = true;
         EXPECT_EQ(memory.memoryHeaps[type.heapIndex].size, board.cpu_visible_vram);
      }
      /* Vulkan requires host-visible types to come with a coherent one; ours all are. */
      if (type.propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) {
         EXPECT_TRUE(type.propertyFlags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
      }
   }
   EXPECT_TRUE(found_visible_vram);
}

TEST_F(PhysicalDevice, OneQueueFamilyForGraphicsComputeAndTransfers)
{
   uint32_t count = 0;
   vkGetPhysicalDeviceQueueFamilyProperties(device, &count, nullptr);
   ASSERT_EQ(count, 1u);
   VkQueueFamilyProperties family;
   vkGetPhysicalDeviceQueueFamilyProperties(device, &count, &family);
   EXPECT_EQ(family.queueCount, 1u);
   /* The kernel's one GFX ring does everything. */
   EXPECT_EQ(family.queueFlags, VkQueueFlags(VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT));
   /* Timestamps: the 64-bit GPU clock counter EVENT_WRITE_EOP writes (api-queries-*). */
   EXPECT_EQ(family.timestampValidBits, 64u);
}

TEST_F(PhysicalDevice, AdvertisesOnlyImplementedFeaturesAndFormats)
{
   VkPhysicalDeviceFeatures features;
   vkGetPhysicalDeviceFeatures(device, &features);
   const auto *flags = reinterpret_cast<const VkBool32 *>(&features);
   const size_t dynamic_indexing = offsetof(VkPhysicalDeviceFeatures, shaderSampledImageArrayDynamicIndexing) / sizeof(VkBool32);
   const size_t robust = offsetof(VkPhysicalDeviceFeatures, robustBufferAccess) / sizeof(VkBool32);
   /* Each with its test: compiler-graphics-driver-* (ClipAndCullDistances, PointCoordOnPoints). */
   const size_t clip = offsetof(VkPhysicalDeviceFeatures, shaderClipDistance) / sizeof(VkBool32);
   const size_t cull = offsetof(VkPhysicalDeviceFeatures, shaderCullDistance) / sizeof(VkBool32);
   const size_t large_points = offsetof(VkPhysicalDeviceFeatures, largePoints) / sizeof(VkBool32);
   /* api-queries-* (OcclusionCountsMatchLavapipe). */
   const size_t precise = offsetof(VkPhysicalDeviceFeatures, occlusionQueryPrecise) / sizeof(VkBool32);
   /* api-draws-* (LogicOps, IndependentBlendingOfThreeTargets). */
   const size_t logic_op = offsetof(VkPhysicalDeviceFeatures, logicOp) / sizeof(VkBool32);
   const size_t independent_blend = offsetof(VkPhysicalDeviceFeatures, independentBlend) / sizeof(VkBool32);
   /* api-images-* (CompressedFormatsSampledAtEveryLevel, BlitsScaledMirroredFilteredAndFromCompressedImages). */
   const size_t bc = offsetof(VkPhysicalDeviceFeatures, textureCompressionBC) / sizeof(VkBool32);
   /* api-draws-* (DepthClampKeepsWhatCrossesTheClipPlanes). */
   const size_t depth_clamp = offsetof(VkPhysicalDeviceFeatures, depthClamp) / sizeof(VkBool32);
   /* api-draws-* (SeveralIndirectDrawsInOneCall, IndirectDrawParameters). */
   const size_t multi_draw = offsetof(VkPhysicalDeviceFeatures, multiDrawIndirect) / sizeof(VkBool32);
   /* api-draws-* (DualSourceBlending). */
   const size_t dual_source = offsetof(VkPhysicalDeviceFeatures, dualSrcBlend) / sizeof(VkBool32);
   /* api-draws-* (DepthBiasOnFloatDepth). */
   const size_t bias_clamp = offsetof(VkPhysicalDeviceFeatures, depthBiasClamp) / sizeof(VkBool32);
   /* api-images-* (CubeArraySampling). */
   const size_t cube_array = offsetof(VkPhysicalDeviceFeatures, imageCubeArray) / sizeof(VkBool32);
   /* api-draws-* (PointsAndLines). */
   const size_t wide_lines = offsetof(VkPhysicalDeviceFeatures, wideLines) / sizeof(VkBool32);
   const size_t first_instance = offsetof(VkPhysicalDeviceFeatures, drawIndirectFirstInstance) / sizeof(VkBool32);
   /* api-polygon-modes-*. */
   const size_t fill_mode_non_solid = offsetof(VkPhysicalDeviceFeatures, fillModeNonSolid) / sizeof(VkBool32);
   /* api-queries-* (PipelineStatisticsKnownByConstruction). */
   const size_t statistics = offsetof(VkPhysicalDeviceFeatures, pipelineStatisticsQuery) / sizeof(VkBool32);
   /* api-sample-shading-*. */
   const size_t sample_rate = offsetof(VkPhysicalDeviceFeatures, sampleRateShading) / sizeof(VkBool32);
   /* api-storage-images-* (ReadsWithoutAFormat; every store has no format). */
   const size_t read_formatless = offsetof(VkPhysicalDeviceFeatures, shaderStorageImageReadWithoutFormat) / sizeof(VkBool32);
   const size_t write_formatless = offsetof(VkPhysicalDeviceFeatures, shaderStorageImageWriteWithoutFormat) / sizeof(VkBool32);
   /* api-storage-extended-*. */
   const size_t extended_formats = offsetof(VkPhysicalDeviceFeatures, shaderStorageImageExtendedFormats) / sizeof(VkBool32);
   /* api-fragment-stores-*. */
   const size_t fragment_stores = offsetof(VkPhysicalDeviceFeatures, fragmentStoresAndAtomics) / sizeof(VkBool32);
   /* api-draws IndicesBeyondTwentyFourBits. */
   const size_t full_index = offsetof(VkPhysicalDeviceFeatures, fullDrawIndexUint32) / sizeof(VkBool32);
   /* api-anisotropy-*. */
   const size_t anisotropy = offsetof(VkPhysicalDeviceFeatures, samplerAnisotropy) / sizeof(VkBool32);
   /* api-viewports-*. */
   const size_t multi_viewport = offsetof(VkPhysicalDeviceFeatures, multiViewport) / sizeof(VkBool32);
   /* api-texture-functions-* (GathersEqualTheCpuAndLavapipe: run-time offsets). */
   const size_t gather_extended = offsetof(VkPhysicalDeviceFeatures, shaderImageGatherExtended) / sizeof(VkBool32);
   for (size_t i = 0; i < sizeof(features) / sizeof(VkBool32); i++) {
      const bool offered = i == dynamic_indexing || i == robust || i == clip || i == cull || i == large_points ||
                           i == precise || i == logic_op || i == independent_blend || i == bc || i == depth_clamp ||
                           i == multi_draw || i == first_instance || i == dual_source ||
                           i == bias_clamp || i == cube_array || i == wide_lines || i == read_formatless ||
                           i == write_formatless || i == fill_mode_non_solid || i == statistics || i == sample_rate ||
                           i == fragment_stores || i == extended_formats || i == full_index || i == anisotropy || i == multi_viewport ||
                           i == gather_extended;
      EXPECT_EQ(flags[i], offered ? VK_TRUE : VK_FALSE) << "feature #" << i;
   }

   /* Sampling, copies, blits, uniform and storage texel buffers, storage images (the list
    * api-storage-images-* checks), vertex buffers, colour and depth attachments. */
   VkFormatProperties format;
   vkGetPhysicalDeviceFormatProperties(device, VK_FORMAT_R8G8B8A8_UNORM, &format);
   const VkFormatFeatureFlags sampled = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT |
                                        VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT |
                                        VK_FORMAT_FEATURE_TRANSFER_SRC_BIT |
                                        VK_FORMAT_FEATURE_TRANSFER_DST_BIT | VK_FORMAT_FEATURE_BLIT_SRC_BIT;
   const VkFormatFeatureFlags rendered = VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT |
                                         VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT | VK_FORMAT_FEATURE_BLIT_DST_BIT;
   EXPECT_EQ(format.optimalTilingFeatures, sampled | rendered | VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT);
   EXPECT_EQ(format.linearTilingFeatures, sampled | rendered | VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT);
   EXPECT_EQ(format.bufferFeatures,
             VkFormatFeatureFlags(VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT | VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT |
                                  VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT));
   /* sRGB targets are written and blended in linear space (api-draws SrgbTargetsEncodeOnWrite,
    * RequiredNormalizedTargetsDrawnAndBlended); no buffer features (no sRGB decoding in fetches). */
   vkGetPhysicalDeviceFormatProperties(device, VK_FORMAT_R8G8B8A8_SRGB, &format);
   EXPECT_EQ(format.bufferFeatures, 0u);
   EXPECT_TRUE(format.optimalTilingFeatures & VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT);
   EXPECT_TRUE(format.optimalTilingFeatures & VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT);
   /* The 16-bit packed formats: no buffer features, and B4G4R4A4 is sampled only. */
   vkGetPhysicalDeviceFormatProperties(device, VK_FORMAT_B4G4R4A4_UNORM_PACK16, &format);
   EXPECT_EQ(format.optimalTilingFeatures, sampled);
   EXPECT_EQ(format.bufferFeatures, 0u);
   /* Block-compressed: sampled, filtered, copied and blitted from; nothing else. */
   for (VkFormat compressed : {VK_FORMAT_BC1_RGB_UNORM_BLOCK, VK_FORMAT_BC5_SNORM_BLOCK, VK_FORMAT_BC7_SRGB_BLOCK}) {
      vkGetPhysicalDeviceFormatProperties(device, compressed, &format);
      EXPECT_EQ(format.optimalTilingFeatures, sampled) << compressed;
      EXPECT_EQ(format.bufferFeatures, 0u) << compressed;
   }
   /* Integer and 32-bit float targets are written, not blended. */
   vkGetPhysicalDeviceFormatProperties(device, VK_FORMAT_R32G32B32A32_SFLOAT, &format);
   EXPECT_TRUE(format.optimalTilingFeatures & VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT);
   EXPECT_FALSE(format.optimalTilingFeatures & VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT);
   /* Depth: attachments, copies and sampling (api-sampled-depth) of optimal images only;
    * linear filtering for the unorm depth formats, not 32-bit float. */
   const VkFormatFeatureFlags depth_features = VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT |
                                               VK_FORMAT_FEATURE_TRANSFER_SRC_BIT |
                                               VK_FORMAT_FEATURE_TRANSFER_DST_BIT | VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT;
   /* D16 and D32 are blitted too (api-images BlitsOfDepth). */
   const VkFormatFeatureFlags blits = VK_FORMAT_FEATURE_BLIT_SRC_BIT | VK_FORMAT_FEATURE_BLIT_DST_BIT;
   vkGetPhysicalDeviceFormatProperties(device, VK_FORMAT_D32_SFLOAT, &format);
   EXPECT_EQ(format.optimalTilingFeatures, depth_features | blits);
   EXPECT_EQ(format.linearTilingFeatures, 0u);
   /* Depth with stencil likewise; stencil alone is not offered (no stencil-only DB format in
    * r600g). */
   for (VkFormat depth_stencil : {VK_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_D32_SFLOAT_S8_UINT, VK_FORMAT_X8_D24_UNORM_PACK32}) {
      vkGetPhysicalDeviceFormatProperties(device, depth_stencil, &format);
      EXPECT_EQ(format.optimalTilingFeatures,
                depth_features | (depth_stencil == VK_FORMAT_D32_SFLOAT_S8_UINT
                                     ? 0u
                                     : VkFormatFeatureFlags(VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT)));
      EXPECT_EQ(format.linearTilingFeatures, 0u);
   }
   vkGetPhysicalDeviceFormatProperties(device, VK_FORMAT_S8_UINT, &format);
   EXPECT_EQ(format.optimalTilingFeatures, 0u);

   VkImageFormatProperties image;
   EXPECT_EQ(vkGetPhysicalDeviceImageFormatProperties(device, VK_FORMAT_R8G8B8A8_UNORM,
                                                      VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                                                      VK_IMAGE_USAGE_SAMPLED_BIT, 0, &image),
             VK_SUCCESS);
   EXPECT_EQ(vkGetPhysicalDeviceImageFormatProperties(device, VK_FORMAT_R8G8B8A8_UNORM,
                                                      VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                                                      VK_IMAGE_USAGE_STORAGE_BIT, 0, &image),
             VK_SUCCESS);
   /* Not a storage format (sRGB is not offered for storage). */
   EXPECT_EQ(vkGetPhysicalDeviceImageFormatProperties(device, VK_FORMAT_R8G8B8A8_SRGB,
                                                      VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                                                      VK_IMAGE_USAGE_STORAGE_BIT, 0, &image),
             VK_ERROR_FORMAT_NOT_SUPPORTED);
   EXPECT_EQ(vkGetPhysicalDeviceImageFormatProperties(device, VK_FORMAT_R8G8B8A8_UNORM,
                                                      VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                                                      VK_IMAGE_USAGE_SAMPLED_BIT,
                                                      VK_IMAGE_CREATE_SPARSE_BINDING_BIT, &image),
             VK_ERROR_FORMAT_NOT_SUPPORTED);
}

/* Every format feature the Vulkan 1.0 specification requires (mandatory_formats.h), and one
 * of the depth formats and one of the depth/stencil formats as a depth/stencil attachment. */
TEST_F(PhysicalDevice, OffersTheFormatFeaturesVulkanRequires)
{
   for (const terakan::test::MandatoryFormat &m : terakan::test::mandatory_formats) {
      VkFormatProperties properties;
      vkGetPhysicalDeviceFormatProperties(device, m.format, &properties);
      EXPECT_EQ(properties.optimalTilingFeatures & m.optimal, m.optimal)
         << "format " << m.format << " lacks optimal-tiling features 0x" << std::hex
         << (m.optimal & ~properties.optimalTilingFeatures);
      EXPECT_EQ(properties.bufferFeatures & m.buffer, m.buffer)
         << "format " << m.format << " lacks buffer features 0x" << std::hex << (m.buffer & ~properties.bufferFeatures);
   }
   auto depth_attachment = [&](VkFormat format) {
      VkFormatProperties properties;
      vkGetPhysicalDeviceFormatProperties(device, format, &properties);
      return (properties.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT) != 0;
   };
   EXPECT_TRUE(depth_attachment(VK_FORMAT_X8_D24_UNORM_PACK32) || depth_attachment(VK_FORMAT_D32_SFLOAT));
   EXPECT_TRUE(depth_attachment(VK_FORMAT_D24_UNORM_S8_UINT) || depth_attachment(VK_FORMAT_D32_SFLOAT_S8_UINT));
}

TEST_F(PhysicalDevice, CreatesADeviceWithItsQueue)
{
   const float priority = 1.0f;
   VkDeviceQueueCreateInfo queue_info = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
   queue_info.queueFamilyIndex = 0;
   queue_info.queueCount = 1;
   queue_info.pQueuePriorities = &priority;
   VkDeviceCreateInfo info = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
   info.queueCreateInfoCount = 1;
   info.pQueueCreateInfos = &queue_info;

   VkDevice vk_device = VK_NULL_HANDLE;
   ASSERT_EQ(vkCreateDevice(device, &info, nullptr, &vk_device), VK_SUCCESS);
   VkQueue queue = VK_NULL_HANDLE;
   vkGetDeviceQueue(vk_device, 0, 0, &queue);
   EXPECT_NE(queue, VK_NULL_HANDLE);
   EXPECT_EQ(vkQueueWaitIdle(queue), VK_SUCCESS);
   EXPECT_EQ(vkDeviceWaitIdle(vk_device), VK_SUCCESS);
   vkDestroyDevice(vk_device, nullptr);
}

/* Bad or unsupported requests, without the validation layer (which would flag them as
 * application errors before they reach us): each must give its VkResult, never a crash. */
class BadInput : public ::testing::Test {
protected:
   void SetUp() override
   {
      ASSERT_EQ(instance.result(), VK_SUCCESS);
      auto devices = instance.physical_devices();
      ASSERT_EQ(devices.size(), 1u);
      device = devices[0];
      queue_info.queueFamilyIndex = 0;
      queue_info.queueCount = 1;
      queue_info.pQueuePriorities = &priority;
      info.queueCreateInfoCount = 1;
      info.pQueueCreateInfos = &queue_info;
   }

   TestInstance instance{false};
   VkPhysicalDevice device = VK_NULL_HANDLE;
   float priority = 1.0f;
   VkDeviceQueueCreateInfo queue_info = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
   VkDeviceCreateInfo info = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
};

TEST_F(BadInput, UnsupportedFeatureIsRefused)
{
   VkPhysicalDeviceFeatures features = {};
   features.geometryShader = VK_TRUE;
   info.pEnabledFeatures = &features;
   VkDevice vk_device = VK_NULL_HANDLE;
   EXPECT_EQ(vkCreateDevice(device, &info, nullptr, &vk_device), VK_ERROR_FEATURE_NOT_PRESENT);
   EXPECT_EQ(vk_device, VK_NULL_HANDLE);
}

TEST_F(BadInput, UnknownExtensionIsRefused)
{
   const char *extension = "VK_KHR_ray_tracing_pipeline";
   info.enabledExtensionCount = 1;
   info.ppEnabledExtensionNames = &extension;
   VkDevice vk_device = VK_NULL_HANDLE;
   EXPECT_EQ(vkCreateDevice(device, &info, nullptr, &vk_device), VK_ERROR_EXTENSION_NOT_PRESENT);
}

TEST_F(BadInput, MissingQueueFamilyIsRefused)
{
   queue_info.queueFamilyIndex = 3;
   VkDevice vk_device = VK_NULL_HANDLE;
   EXPECT_EQ(vkCreateDevice(device, &info, nullptr, &vk_device), VK_ERROR_INITIALIZATION_FAILED);
   queue_info.queueFamilyIndex = 0;
   queue_info.queueCount = 2;
   EXPECT_EQ(vkCreateDevice(device, &info, nullptr, &vk_device), VK_ERROR_INITIALIZATION_FAILED);
}

TEST_F(BadInput, UnimplementedCommandsFailCleanly)
{
   VkDevice vk_device = VK_NULL_HANDLE;
   ASSERT_EQ(vkCreateDevice(device, &info, nullptr, &vk_device), VK_SUCCESS);

   /* Not implemented yet (stencil-only, storage and sparse images, queries, graphics
    * pipelines): each returns an error instead of calling through NULL or making something
    * unusable. */
   VkImageCreateInfo image_info = {VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
   image_info.imageType = VK_IMAGE_TYPE_2D;
   image_info.format = VK_FORMAT_S8_UINT;
   image_info.extent = {16, 16, 1};
   image_info.mipLevels = 1;
   image_info.arrayLayers = 1;
   image_info.samples = VK_SAMPLE_COUNT_1_BIT;
   image_info.usage = VK_IMAGE_USAGE_SAMPLED_BIT;
   VkImage image = VK_NULL_HANDLE;
   EXPECT_EQ(vkCreateImage(vk_device, &image_info, nullptr, &image), VK_ERROR_FEATURE_NOT_PRESENT);
   /* Storage usage of a format that is not a storage format. */
   image_info.format = VK_FORMAT_R8G8B8A8_SRGB;
   image_info.usage = VK_IMAGE_USAGE_STORAGE_BIT;
   EXPECT_EQ(vkCreateImage(vk_device, &image_info, nullptr, &image), VK_ERROR_FEATURE_NOT_PRESENT);
   image_info.format = VK_FORMAT_R8G8B8A8_UNORM;
   image_info.usage = VK_IMAGE_USAGE_SAMPLED_BIT;
   image_info.flags = VK_IMAGE_CREATE_SPARSE_BINDING_BIT;
   EXPECT_EQ(vkCreateImage(vk_device, &image_info, nullptr, &image), VK_ERROR_FEATURE_NOT_PRESENT);
   EXPECT_EQ(image, VkImage(VK_NULL_HANDLE));

   VkQueryPoolCreateInfo query_info = {VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
   /* Occlusion, timestamp, pipeline statistics (api-queries-*) and transform feedback
    * (api-transform-feedback-*) pools exist; the other extensions' query types do not. */
   query_info.queryType = VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT;
   query_info.queryCount = 1;
   VkQueryPool query_pool = VK_NULL_HANDLE;
   EXPECT_EQ(vkCreateQueryPool(vk_device, &query_info, nullptr, &query_pool),
             VK_ERROR_FEATURE_NOT_PRESENT);

   VkGraphicsPipelineCreateInfo graphics = {VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
   VkPipeline pipeline = reinterpret_cast<VkPipeline>(uint64_t(1));
   EXPECT_EQ(vkCreateGraphicsPipelines(vk_device, VK_NULL_HANDLE, 1, &graphics, nullptr, &pipeline),
             VK_ERROR_FEATURE_NOT_PRESENT);
   EXPECT_EQ(pipeline, VkPipeline(VK_NULL_HANDLE));

   /* A command of an extension that is not enabled is not exposed at all. */
   EXPECT_EQ(vkGetDeviceProcAddr(vk_device, "vkCreateSwapchainKHR"), nullptr);
   vkDestroyDevice(vk_device, nullptr);
}

} // namespace
