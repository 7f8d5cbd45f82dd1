/* VK_EXT_headless_surface and VK_KHR_swapchain through the loader on the simulated GPU
 * (TERAKAN_SIM_CHIP picks the chip), with the Khronos validation layer counting messages.
 * lavapipe (Mesa 22.3) has no headless surface, so the expectations are the values the
 * surface reports and pictures known by construction: frames cleared to known colours,
 * acquired, copied out and presented in a loop; every image held without presenting (the
 * next acquisition must say VK_NOT_READY); a swapchain replaced by another. */
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "../vulkan_helpers.h"

namespace {

using namespace terakan::test;

constexpr uint32_t width = 48, height = 40;

class Headless : public ::testing::Test {
protected:
   void SetUp() override
   {
      std::vector<const char *> layers, extensions = {VK_KHR_SURFACE_EXTENSION_NAME,
                                                      VK_EXT_HEADLESS_SURFACE_EXTENSION_NAME};
      VkDebugUtilsMessengerCreateInfoEXT messenger_info = validation_messenger_info(terakan::test::count_validation_finding, &messages);
      const bool layer = has_instance_layer("VK_LAYER_KHRONOS_validation");
      if (layer) {
         layers.push_back("VK_LAYER_KHRONOS_validation");
         extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
      }
      ASSERT_EQ(create_instance("terakan-api-headless", VK_API_VERSION_1_0, layers, extensions,
                                layer ? &messenger_info : nullptr, instance),
                VK_SUCCESS);
      physical = find_physical_device(instance, "Terakan");
      ASSERT_TRUE(physical);
      auto create = reinterpret_cast<PFN_vkCreateHeadlessSurfaceEXT>(
         vkGetInstanceProcAddr(instance, "vkCreateHeadlessSurfaceEXT"));
      ASSERT_TRUE(create);
      VkHeadlessSurfaceCreateInfoEXT info{VK_STRUCTURE_TYPE_HEADLESS_SURFACE_CREATE_INFO_EXT};
      ASSERT_EQ(create(instance, &info, nullptr, &surface), VK_SUCCESS);
      family = *find_queue_family(physical, VK_QUEUE_GRAPHICS_BIT);
      ASSERT_EQ(create_device(physical, family, nullptr, nullptr, {VK_KHR_SWAPCHAIN_EXTENSION_NAME}, device),
                VK_SUCCESS);
      vkGetDeviceQueue(device, family, 0, &queue);
      VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
      pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
      pool_info.queueFamilyIndex = family;
      ASSERT_EQ(vkCreateCommandPool(device, &pool_info, nullptr, &pool), VK_SUCCESS);
      ASSERT_TRUE(create_host_buffer(physical, device, width * height * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                     readback, readback_memory, readback_map));
   }

   void TearDown() override
   {
      if (device) {
         vkDeviceWaitIdle(device);
         vkDestroyBuffer(device, readback, nullptr);
         vkFreeMemory(device, readback_memory, nullptr);
         vkDestroyCommandPool(device, pool, nullptr);
         vkDestroyDevice(device, nullptr);
      }
      if (surface)
         vkDestroySurfaceKHR(instance, surface, nullptr);
      if (instance)
         destroy_instance(instance);
      EXPECT_EQ(messages, 0u) << "validation layer messages";
   }

   VkSwapchainKHR make_swapchain(uint32_t images, VkPresentModeKHR mode, VkSwapchainKHR old = VK_NULL_HANDLE)
   {
      VkSwapchainCreateInfoKHR info{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
      info.surface = surface;
      info.minImageCount = images;
      info.imageFormat = VK_FORMAT_B8G8R8A8_UNORM;
      info.imageColorSpace = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
      info.imageExtent = {width, height};
      info.imageArrayLayers = 1;
      info.imageUsage = VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                        VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
      info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
      info.preTransform = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
      info.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
      info.presentMode = mode;
      info.clipped = VK_TRUE;
      info.oldSwapchain = old;
      VkSwapchainKHR swapchain = VK_NULL_HANDLE;
      EXPECT_EQ(vkCreateSwapchainKHR(device, &info, nullptr, &swapchain), VK_SUCCESS);
      return swapchain;
   }

   /* Acquires an image, clears it to `colour`, copies it out, presents it; the copy's pixels. */
   std::vector<uint32_t> frame(VkSwapchainKHR swapchain, const std::vector<VkImage> &images, VkClearColorValue colour,
                               uint32_t &index)
   {
      VkSemaphoreCreateInfo semaphore_info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
      VkSemaphore acquired = VK_NULL_HANDLE, rendered = VK_NULL_HANDLE;
      vkCreateSemaphore(device, &semaphore_info, nullptr, &acquired);
      vkCreateSemaphore(device, &semaphore_info, nullptr, &rendered);
      VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
      VkFence done = VK_NULL_HANDLE;
      vkCreateFence(device, &fence_info, nullptr, &done);
      std::vector<uint32_t> pixels;
      EXPECT_EQ(vkAcquireNextImageKHR(device, swapchain, UINT64_MAX, acquired, VK_NULL_HANDLE, &index), VK_SUCCESS);
      VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
      allocate.commandPool = pool;
      allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
      allocate.commandBufferCount = 1;
      VkCommandBuffer commands = VK_NULL_HANDLE;
      vkAllocateCommandBuffers(device, &allocate, &commands);
      VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
      vkBeginCommandBuffer(commands, &begin);
      VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
      barrier.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
      barrier.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
      barrier.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
      barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
      barrier.image = images[index];
      barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
      vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                           nullptr, 1, &barrier);
      vkCmdClearColorImage(commands, images[index], VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &colour, 1,
                           &barrier.subresourceRange);
      barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
      barrier.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
      barrier.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
      barrier.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
      vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                           nullptr, 1, &barrier);
      VkBufferImageCopy region{};
      region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
      region.imageExtent = {width, height, 1};
      vkCmdCopyImageToBuffer(commands, images[index], VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1, &region);
      barrier.srcAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
      barrier.dstAccessMask = 0;
      barrier.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
      barrier.newLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
      vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, 0,
                           nullptr, 0, nullptr, 1, &barrier);
      VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
      to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
      to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
      vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0,
                           nullptr, 0, nullptr);
      vkEndCommandBuffer(commands);
      const VkPipelineStageFlags wait_stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
      VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
      submit.waitSemaphoreCount = 1;
      submit.pWaitSemaphores = &acquired;
      submit.pWaitDstStageMask = &wait_stage;
      submit.commandBufferCount = 1;
      submit.pCommandBuffers = &commands;
      submit.signalSemaphoreCount = 1;
      submit.pSignalSemaphores = &rendered;
      EXPECT_EQ(vkQueueSubmit(queue, 1, &submit, done), VK_SUCCESS);
      VkPresentInfoKHR present{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
      present.waitSemaphoreCount = 1;
      present.pWaitSemaphores = &rendered;
      present.swapchainCount = 1;
      present.pSwapchains = &swapchain;
      present.pImageIndices = &index;
      VkResult result = VK_RESULT_MAX_ENUM;
      present.pResults = &result;
      EXPECT_EQ(vkQueuePresentKHR(queue, &present), VK_SUCCESS);
      EXPECT_EQ(result, VK_SUCCESS);
      EXPECT_EQ(vkWaitForFences(device, 1, &done, VK_TRUE, UINT64_MAX), VK_SUCCESS);
      const uint32_t *words = static_cast<const uint32_t *>(readback_map);
      pixels.assign(words, words + width * height);
      vkDeviceWaitIdle(device);
      vkFreeCommandBuffers(device, pool, 1, &commands);
      vkDestroyFence(device, done, nullptr);
      vkDestroySemaphore(device, acquired, nullptr);
      vkDestroySemaphore(device, rendered, nullptr);
      return pixels;
   }

   std::vector<VkImage> images_of(VkSwapchainKHR swapchain)
   {
      uint32_t count = 0;
      vkGetSwapchainImagesKHR(device, swapchain, &count, nullptr);
      std::vector<VkImage> images(count);
      vkGetSwapchainImagesKHR(device, swapchain, &count, images.data());
      return images;
   }

   unsigned messages = 0;
   VkInstance instance = VK_NULL_HANDLE;
   VkPhysicalDevice physical = VK_NULL_HANDLE;
   VkSurfaceKHR surface = VK_NULL_HANDLE;
   uint32_t family = 0;
   VkDevice device = VK_NULL_HANDLE;
   VkQueue queue = VK_NULL_HANDLE;
   VkCommandPool pool = VK_NULL_HANDLE;
   VkBuffer readback = VK_NULL_HANDLE;
   VkDeviceMemory readback_memory = VK_NULL_HANDLE;
   void *readback_map = nullptr;
};

TEST_F(Headless, SurfaceReportsWhatItSupports)
{
   VkBool32 supported = VK_FALSE;
   EXPECT_EQ(vkGetPhysicalDeviceSurfaceSupportKHR(physical, family, surface, &supported), VK_SUCCESS);
   EXPECT_TRUE(supported);
   VkSurfaceCapabilitiesKHR caps{};
   EXPECT_EQ(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(physical, surface, &caps), VK_SUCCESS);
   EXPECT_EQ(caps.currentExtent.width, UINT32_MAX); /* the swapchain decides the size */
   EXPECT_EQ(caps.minImageCount, 1u);
   EXPECT_EQ(caps.maxImageCount, 0u);
   EXPECT_TRUE(caps.supportedUsageFlags & VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
   uint32_t count = 0;
   EXPECT_EQ(vkGetPhysicalDeviceSurfaceFormatsKHR(physical, surface, &count, nullptr), VK_SUCCESS);
   std::vector<VkSurfaceFormatKHR> formats(count);
   EXPECT_EQ(vkGetPhysicalDeviceSurfaceFormatsKHR(physical, surface, &count, formats.data()), VK_SUCCESS);
   ASSERT_EQ(count, 2u);
   EXPECT_EQ(formats[0].format, VK_FORMAT_B8G8R8A8_UNORM);
   EXPECT_EQ(formats[1].format, VK_FORMAT_B8G8R8A8_SRGB);
   EXPECT_EQ(vkGetPhysicalDeviceSurfacePresentModesKHR(physical, surface, &count, nullptr), VK_SUCCESS);
   std::vector<VkPresentModeKHR> modes(count);
   EXPECT_EQ(vkGetPhysicalDeviceSurfacePresentModesKHR(physical, surface, &count, modes.data()), VK_SUCCESS);
   EXPECT_NE(std::find(modes.begin(), modes.end(), VK_PRESENT_MODE_FIFO_KHR), modes.end());
}

TEST_F(Headless, FramesAreClearedAcquiredCopiedAndPresented)
{
   VkSwapchainKHR swapchain = make_swapchain(3, VK_PRESENT_MODE_FIFO_KHR);
   ASSERT_TRUE(swapchain);
   const std::vector<VkImage> images = images_of(swapchain);
   ASSERT_EQ(images.size(), 3u);
   std::vector<uint32_t> used;
   for (uint32_t f = 0; f < 7; f++) {
      VkClearColorValue colour{};
      colour.float32[0] = float(f) / 8.0f;  /* B8G8R8A8: red is byte 2 */
      colour.float32[1] = 0.5f;
      colour.float32[2] = 1.0f;
      colour.float32[3] = 1.0f;
      uint32_t index = 0;
      const std::vector<uint32_t> pixels = frame(swapchain, images, colour, index);
      used.push_back(index);
      const uint32_t red = uint32_t(std::lround(float(f) / 8.0f * 255.0f));
      const uint32_t expected = 0xff000000u | red << 16 | 0x80u << 8 | 0xffu;
      ASSERT_EQ(pixels.size(), size_t(width) * height);
      EXPECT_EQ(pixels.front(), expected) << "frame " << f;
      EXPECT_EQ(pixels.back(), expected) << "frame " << f;
   }
   /* Images are handed out in turn. */
   EXPECT_EQ(used, (std::vector<uint32_t>{0, 1, 2, 0, 1, 2, 0}));
   vkDestroySwapchainKHR(device, swapchain, nullptr);
}

TEST_F(Headless, EveryImageHeldAndASwapchainReplaced)
{
   VkSwapchainKHR swapchain = make_swapchain(2, VK_PRESENT_MODE_IMMEDIATE_KHR);
   ASSERT_TRUE(swapchain);
   VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
   VkFence fences[2] = {};
   for (VkFence &fence : fences)
      vkCreateFence(device, &fence_info, nullptr, &fence);
   uint32_t index = 0;
   EXPECT_EQ(vkAcquireNextImageKHR(device, swapchain, 0, VK_NULL_HANDLE, fences[0], &index), VK_SUCCESS);
   EXPECT_EQ(vkAcquireNextImageKHR(device, swapchain, 0, VK_NULL_HANDLE, fences[1], &index), VK_SUCCESS);
   EXPECT_EQ(vkWaitForFences(device, 2, fences, VK_TRUE, UINT64_MAX), VK_SUCCESS);
   /* Both images are the application's now: nothing can be acquired without waiting. */
   VkSemaphoreCreateInfo semaphore_info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
   VkSemaphore unused = VK_NULL_HANDLE;
   vkCreateSemaphore(device, &semaphore_info, nullptr, &unused);
   EXPECT_EQ(vkAcquireNextImageKHR(device, swapchain, 0, unused, VK_NULL_HANDLE, &index), VK_NOT_READY);
   vkDestroySemaphore(device, unused, nullptr);
   /* Replaced by a bigger chain, which works as the first did. */
   VkSwapchainKHR replacement = make_swapchain(4, VK_PRESENT_MODE_FIFO_KHR, swapchain);
   ASSERT_TRUE(replacement);
   vkDestroySwapchainKHR(device, swapchain, nullptr);
   const std::vector<VkImage> images = images_of(replacement);
   EXPECT_EQ(images.size(), 4u);
   VkClearColorValue colour{};
   colour.float32[2] = 1.0f;
   colour.float32[3] = 1.0f;
   const std::vector<uint32_t> pixels = frame(replacement, images, colour, index);
   EXPECT_EQ(pixels.front(), 0xff0000ffu);
   for (VkFence fence : fences)
      vkDestroyFence(device, fence, nullptr);
   vkDestroySwapchainKHR(device, replacement, nullptr);
}

} // namespace
