/* Render passes through the "2" commands on the simulated card and on lavapipe, with the
 * Khronos validation layer counting messages: VK_KHR_create_renderpass2 (vkCreateRenderPass2,
 * vkCmdBeginRenderPass2, vkCmdNextSubpass2, vkCmdEndRenderPass2), an imageless framebuffer
 * (VK_KHR_imageless_framebuffer: the views arrive at vkCmdBeginRenderPass2), separate depth
 * and stencil layouts (VK_KHR_separate_depth_stencil_layouts) and a view-format list on a
 * mutable-format image (VK_KHR_image_format_list). Two subpasses clear parts of an RGBA8 target
 * (the second through an sRGB view of it) and of a D24S8 attachment; the results are read back
 * and compared byte for byte with lavapipe's. */
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "../vulkan_helpers.h"
#include "session.h"

namespace {

using namespace terakan::test;

constexpr uint32_t size = 32;

struct Result {
   std::vector<uint8_t> colour, depth, stencil;
};

Result run(const char *name, unsigned &messages, std::string &error)
{
   Result result;
   VkPhysicalDeviceSeparateDepthStencilLayoutsFeatures separate{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SEPARATE_DEPTH_STENCIL_LAYOUTS_FEATURES};
   VkPhysicalDeviceImagelessFramebufferFeatures imageless{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGELESS_FRAMEBUFFER_FEATURES,
                                                         &separate};
   separate.separateDepthStencilLayouts = imageless.imagelessFramebuffer = VK_TRUE;
   VkPhysicalDeviceFeatures2 enabled{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &imageless};
   SessionOptions options;
   options.application = "terakan-api-renderpass2";
   options.device_extensions = {VK_KHR_CREATE_RENDERPASS_2_EXTENSION_NAME, VK_KHR_IMAGELESS_FRAMEBUFFER_EXTENSION_NAME,
                                VK_KHR_IMAGE_FORMAT_LIST_EXTENSION_NAME,
                                VK_KHR_SEPARATE_DEPTH_STENCIL_LAYOUTS_EXTENSION_NAME};
   options.device_next = &enabled;
   Session session;
   if (!session.open(name, messages, error, options))
      return result;
   VkDevice device = session.device;
   auto create_render_pass2 =
      reinterpret_cast<PFN_vkCreateRenderPass2KHR>(vkGetDeviceProcAddr(device, "vkCreateRenderPass2KHR"));
   auto begin_render_pass2 =
      reinterpret_cast<PFN_vkCmdBeginRenderPass2KHR>(vkGetDeviceProcAddr(device, "vkCmdBeginRenderPass2KHR"));
   auto next_subpass2 = reinterpret_cast<PFN_vkCmdNextSubpass2KHR>(vkGetDeviceProcAddr(device, "vkCmdNextSubpass2KHR"));
   auto end_render_pass2 =
      reinterpret_cast<PFN_vkCmdEndRenderPass2KHR>(vkGetDeviceProcAddr(device, "vkCmdEndRenderPass2KHR"));

   const VkFormat colour_formats[2] = {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_SRGB};
   const VkFormat depth_format = VK_FORMAT_D24_UNORM_S8_UINT;
   VkImage images[2] = {};
   VkImageView views[3] = {}; /* colour UNORM, colour sRGB, depth/stencil */
   void *map = nullptr;
   do {
      VkImageFormatListCreateInfo format_list{VK_STRUCTURE_TYPE_IMAGE_FORMAT_LIST_CREATE_INFO};
      format_list.viewFormatCount = 2;
      format_list.pViewFormats = colour_formats;
      VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO, &format_list};
      info.flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
      info.imageType = VK_IMAGE_TYPE_2D;
      info.format = colour_formats[0];
      info.extent = {size, size, 1};
      info.mipLevels = info.arrayLayers = 1;
      info.samples = VK_SAMPLE_COUNT_1_BIT;
      info.tiling = VK_IMAGE_TILING_OPTIMAL;
      info.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
      VkImageCreateInfo depth_info = info;
      depth_info.pNext = nullptr;
      depth_info.flags = 0;
      depth_info.format = depth_format;
      depth_info.usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
      images[0] = session.image(info);
      images[1] = session.image(depth_info);
      if (!images[0] || !images[1]) {
         error = "image creation failed";
         break;
      }
      for (unsigned v = 0; v < 3; v++) {
         const VkImageAspectFlags aspects =
            v < 2 ? VkImageAspectFlags(VK_IMAGE_ASPECT_COLOR_BIT)
                  : VkImageAspectFlags(VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT);
         views[v] = session.view(images[v / 2], VK_IMAGE_VIEW_TYPE_2D, v < 2 ? colour_formats[v] : depth_format,
                                 {aspects, 0, 1, 0, 1});
         if (!views[v])
            error = "view creation failed";
      }
      if (!error.empty())
         break;

      /* Attachments: the colour image through its UNORM view (0) and its sRGB view (1), and
       * D24S8 (2) with its stencil in layouts of its own. */
      VkAttachmentDescriptionStencilLayout stencil_layouts{VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_STENCIL_LAYOUT};
      stencil_layouts.stencilInitialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
      stencil_layouts.stencilFinalLayout = VK_IMAGE_LAYOUT_STENCIL_READ_ONLY_OPTIMAL;
      VkAttachmentDescription2 attachments[3] = {};
      for (unsigned a = 0; a < 3; a++) {
         attachments[a].sType = VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2;
         attachments[a].format = a < 2 ? colour_formats[a] : depth_format;
         attachments[a].samples = VK_SAMPLE_COUNT_1_BIT;
         attachments[a].loadOp = a == 1 ? VK_ATTACHMENT_LOAD_OP_LOAD : VK_ATTACHMENT_LOAD_OP_CLEAR;
         attachments[a].storeOp = VK_ATTACHMENT_STORE_OP_STORE;
         attachments[a].stencilLoadOp = a == 2 ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_DONT_CARE;
         attachments[a].stencilStoreOp = a == 2 ? VK_ATTACHMENT_STORE_OP_STORE : VK_ATTACHMENT_STORE_OP_DONT_CARE;
         attachments[a].initialLayout =
            a == 1 ? VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL : VK_IMAGE_LAYOUT_UNDEFINED;
         attachments[a].finalLayout = a == 0 ? VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL
                                      : a == 1 ? VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL
                                               : VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL;
      }
      attachments[2].pNext = &stencil_layouts;
      VkAttachmentReferenceStencilLayout stencil_reference_layout{
         VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_STENCIL_LAYOUT};
      stencil_reference_layout.stencilLayout = VK_IMAGE_LAYOUT_STENCIL_ATTACHMENT_OPTIMAL;
      const VkAttachmentReference2 colour_refs[2] = {
         {VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, nullptr, 0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
          VK_IMAGE_ASPECT_COLOR_BIT},
         {VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, nullptr, 1, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
          VK_IMAGE_ASPECT_COLOR_BIT}};
      const VkAttachmentReference2 depth_ref{VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, &stencil_reference_layout, 2,
                                             VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
                                             VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT};
      VkSubpassDescription2 subpasses[2] = {};
      for (unsigned s = 0; s < 2; s++) {
         subpasses[s].sType = VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_2;
         subpasses[s].pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
         subpasses[s].colorAttachmentCount = 1;
         subpasses[s].pColorAttachments = &colour_refs[s];
      }
      subpasses[0].pDepthStencilAttachment = &depth_ref;
      VkSubpassDependency2 dependency{VK_STRUCTURE_TYPE_SUBPASS_DEPENDENCY_2};
      dependency.srcSubpass = 0;
      dependency.dstSubpass = 1;
      dependency.srcStageMask = dependency.dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
      dependency.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
      dependency.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
      VkRenderPassCreateInfo2 pass_info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2};
      pass_info.attachmentCount = 3;
      pass_info.pAttachments = attachments;
      pass_info.subpassCount = 2;
      pass_info.pSubpasses = subpasses;
      pass_info.dependencyCount = 1;
      pass_info.pDependencies = &dependency;
      VkRenderPass pass = VK_NULL_HANDLE;
      if (create_render_pass2(device, &pass_info, nullptr, &pass) != VK_SUCCESS) {
         error = "vkCreateRenderPass2 failed";
         break;
      }
      session.later([device, pass] { vkDestroyRenderPass(device, pass, nullptr); });
      /* The imageless framebuffer: what each attachment will be, not which. */
      VkFramebufferAttachmentImageInfo image_infos[3] = {};
      for (unsigned a = 0; a < 3; a++) {
         image_infos[a].sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_ATTACHMENT_IMAGE_INFO;
         image_infos[a].flags = a < 2 ? VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT : 0;
         image_infos[a].usage = a < 2 ? info.usage : depth_info.usage;
         image_infos[a].width = image_infos[a].height = size;
         image_infos[a].layerCount = 1;
         image_infos[a].viewFormatCount = a < 2 ? 2 : 1;
         image_infos[a].pViewFormats = a < 2 ? colour_formats : &depth_format;
      }
      VkFramebufferAttachmentsCreateInfo attachments_info{VK_STRUCTURE_TYPE_FRAMEBUFFER_ATTACHMENTS_CREATE_INFO};
      attachments_info.attachmentImageInfoCount = 3;
      attachments_info.pAttachmentImageInfos = image_infos;
      VkFramebufferCreateInfo fb_info{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO, &attachments_info};
      fb_info.flags = VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT;
      fb_info.renderPass = pass;
      fb_info.attachmentCount = 3;
      fb_info.width = fb_info.height = size;
      fb_info.layers = 1;
      VkFramebuffer framebuffer = VK_NULL_HANDLE;
      if (vkCreateFramebuffer(device, &fb_info, nullptr, &framebuffer) != VK_SUCCESS) {
         error = "imageless framebuffer creation failed";
         break;
      }
      session.later([device, framebuffer] { vkDestroyFramebuffer(device, framebuffer, nullptr); });
      const VkDeviceSize colour_bytes = size * size * 4, depth_bytes = size * size * 4, stencil_bytes = size * size;
      const VkBuffer readback = session.buffer(colour_bytes + depth_bytes + stencil_bytes,
                                               VK_BUFFER_USAGE_TRANSFER_DST_BIT, map);
      if (!readback) {
         error = "buffer creation failed";
         break;
      }
      VkCommandBuffer commands = session.begin();

      VkClearValue clears[3] = {};
      clears[0].color = {{0.25f, 0.5f, 0.75f, 1.0f}};
      clears[2].depthStencil = {0.25f, 0x37};
      VkRenderPassAttachmentBeginInfo attachment_begin{VK_STRUCTURE_TYPE_RENDER_PASS_ATTACHMENT_BEGIN_INFO};
      attachment_begin.attachmentCount = 3;
      attachment_begin.pAttachments = views;
      VkRenderPassBeginInfo pass_begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO, &attachment_begin};
      pass_begin.renderPass = pass;
      pass_begin.framebuffer = framebuffer;
      pass_begin.renderArea = {{0, 0}, {size, size}};
      pass_begin.clearValueCount = 3;
      pass_begin.pClearValues = clears;
      VkSubpassBeginInfo subpass_begin{VK_STRUCTURE_TYPE_SUBPASS_BEGIN_INFO};
      subpass_begin.contents = VK_SUBPASS_CONTENTS_INLINE;
      VkSubpassEndInfo subpass_end{VK_STRUCTURE_TYPE_SUBPASS_END_INFO};
      begin_render_pass2(commands, &pass_begin, &subpass_begin);
      /* Subpass 0: a rectangle of colour and of depth and stencil (the D24S8 attachment). */
      VkClearAttachment first[2] = {};
      first[0].aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
      first[0].clearValue.color = {{1.0f, 0.0f, 0.5f, 1.0f}};
      first[1].aspectMask = VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT;
      first[1].clearValue.depthStencil = {0.75f, 0xa5};
      const VkClearRect first_rect{{{4, 4}, {12, 8}}, 0, 1};
      vkCmdClearAttachments(commands, 2, first, 1, &first_rect);
      next_subpass2(commands, &subpass_begin, &subpass_end);
      /* Subpass 1: the same image through its sRGB view; 0.5 is stored encoded (188). */
      VkClearAttachment second{};
      second.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
      second.clearValue.color = {{0.5f, 0.5f, 0.5f, 1.0f}};
      const VkClearRect second_rect{{{10, 10}, {16, 16}}, 0, 1};
      vkCmdClearAttachments(commands, 1, &second, 1, &second_rect);
      end_render_pass2(commands, &subpass_end);

      VkImageMemoryBarrier to_transfer{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
      to_transfer.srcAccessMask = VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
      to_transfer.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
      to_transfer.oldLayout = VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL;
      to_transfer.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
      to_transfer.srcQueueFamilyIndex = to_transfer.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
      to_transfer.image = images[1];
      to_transfer.subresourceRange = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1};
      VkImageMemoryBarrier stencil_to_transfer = to_transfer;
      stencil_to_transfer.oldLayout = VK_IMAGE_LAYOUT_STENCIL_READ_ONLY_OPTIMAL;
      stencil_to_transfer.subresourceRange.aspectMask = VK_IMAGE_ASPECT_STENCIL_BIT;
      const VkImageMemoryBarrier barriers[2] = {to_transfer, stencil_to_transfer};
      vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                           VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr, 2, barriers);
      VkBufferImageCopy regions[3] = {};
      regions[0].imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
      regions[1].bufferOffset = colour_bytes;
      regions[1].imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1};
      regions[2].bufferOffset = colour_bytes + depth_bytes;
      regions[2].imageSubresource = {VK_IMAGE_ASPECT_STENCIL_BIT, 0, 0, 1};
      for (VkBufferImageCopy &r : regions)
         r.imageExtent = {size, size, 1};
      vkCmdCopyImageToBuffer(commands, images[0], VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1, &regions[0]);
      vkCmdCopyImageToBuffer(commands, images[1], VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 2, &regions[1]);
      VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
      to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
      to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
      vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0,
                           nullptr, 0, nullptr);
      if (session.submit_and_wait(commands) != VK_SUCCESS) {
         error = "submission failed";
         break;
      }
      const uint8_t *bytes = static_cast<const uint8_t *>(map);
      result.colour.assign(bytes, bytes + colour_bytes);
      result.depth.assign(bytes + colour_bytes, bytes + colour_bytes + depth_bytes);
      result.stencil.assign(bytes + colour_bytes + depth_bytes, bytes + colour_bytes + depth_bytes + stencil_bytes);
   } while (false);
   return result;
}

TEST(RenderPass2, ImagelessFramebufferSeparateStencilLayoutsAndViewFormats)
{
   unsigned our_messages = 0, their_messages = 0;
   std::string error;
   const Result ours = run("Terakan", our_messages, error);
   ASSERT_FALSE(ours.colour.empty()) << "Terakan: " << error;
   const Result theirs = run("llvmpipe", their_messages, error);
   ASSERT_FALSE(theirs.colour.empty()) << "lavapipe: " << error;
   EXPECT_EQ(our_messages, 0u);
   EXPECT_EQ(their_messages, 0u);
   EXPECT_EQ(ours.colour, theirs.colour);
   EXPECT_EQ(ours.stencil, theirs.stencil);
   /* D24 in the low 24 bits of each dword: within one unorm step of lavapipe's. */
   unsigned depth_differences = 0;
   for (size_t i = 0; i < ours.depth.size() / 4; i++) {
      uint32_t a, b;
      std::memcpy(&a, &ours.depth[4 * i], 4);
      std::memcpy(&b, &theirs.depth[4 * i], 4);
      a &= 0xffffff;
      b &= 0xffffff;
      depth_differences += (a > b ? a - b : b - a) > 1;
   }
   EXPECT_EQ(depth_differences, 0u);
   /* Known values: outside both rectangles the load-op clear, inside the first its colour and
    * depth/stencil, inside the second the sRGB encoding of 0.5 (188). */
   auto colour = [&](unsigned x, unsigned y) {
      const uint8_t *p = &ours.colour[(y * size + x) * 4];
      return std::array<unsigned, 4>{p[0], p[1], p[2], p[3]};
   };
   EXPECT_EQ(colour(0, 0), (std::array<unsigned, 4>{64, 128, 191, 255}));
   EXPECT_EQ(colour(5, 5), (std::array<unsigned, 4>{255, 0, 128, 255}));
   EXPECT_EQ(colour(20, 20), (std::array<unsigned, 4>{188, 188, 188, 255}));
   EXPECT_EQ(ours.stencil[0], 0x37);
   EXPECT_EQ(ours.stencil[5 * size + 5], 0xa5);
}

} // namespace
