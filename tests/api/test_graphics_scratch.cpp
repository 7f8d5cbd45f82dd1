/* Private arrays in the vertex and pixel shaders' scratch rings (SQ_VSTMP_RING_*,
 * SQ_PSTMP_RING_*; terakan_scratch.cpp): a vertex shader filling and reading a 256-float array
 * and a pixel shader a 256-vec4 one, both indexed at run time, on the simulated card against
 * lavapipe pixel for pixel and against the values computed here, through a Vulkan 1.2 instance
 * with the validation layer on. Four quads, one per quadrant of a 32x32 target, each with its
 * own number, which picks what both arrays hold. */
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "../vulkan_helpers.h"
#include "session.h"

using terakan::test::Session;
using terakan::test::SessionOptions;

namespace {

constexpr uint32_t size = 32;
constexpr VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;

struct Drawn {
   std::vector<uint8_t> pixels; /* rows top to bottom */
   std::string error;
   unsigned messages = 0;
};

/* What the shaders compute for pixel (x, y), in bytes. */
std::array<uint8_t, 4> expected(uint32_t x, uint32_t y)
{
   const uint32_t quad = (x >= size / 2 ? 1 : 0) + (y >= size / 2 ? 2 : 0);
   auto vertex_table = [&](uint32_t k) { return uint8_t((k * 13 + quad * 7) % 256); };
   const uint32_t i = (quad * 101 + 17) % 256;
   const uint32_t k = (x * 8 + y * 31 + quad) % 256;
   return {uint8_t((k * 5 + quad) % 256), uint8_t((k * 11) % 256), vertex_table(i), vertex_table((i + 50) % 256)};
}

Drawn draw(const char *name, const char *vertex_file = "scratch_arrays.vert",
           const char *fragment_file = "scratch_arrays.frag")
{
   Drawn out;
   Session session;
   SessionOptions options;
   options.api_version = VK_API_VERSION_1_2;
   if (!session.open(name, out.messages, out.error, options))
      return out;
   VkDevice device = session.device;

   VkImageCreateInfo image_info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
   image_info.imageType = VK_IMAGE_TYPE_2D;
   image_info.format = format;
   image_info.extent = {size, size, 1};
   image_info.mipLevels = image_info.arrayLayers = 1;
   image_info.samples = VK_SAMPLE_COUNT_1_BIT;
   image_info.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
   VkImage image = session.image(image_info);
   VkImageView view = session.view(image, VK_IMAGE_VIEW_TYPE_2D, format, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1});
   void *map = nullptr;
   VkBuffer readback = session.buffer(size * size * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, map);
   VkShaderModule vertex = session.module(vertex_file), fragment = session.module(fragment_file);
   if (!image || !view || !readback || !vertex || !fragment) {
      out.error = std::string(name) + ": the scene's objects could not be made";
      return out;
   }

   VkRenderPass pass = VK_NULL_HANDLE;
   VkFramebuffer framebuffer = VK_NULL_HANDLE;
   terakan::test::create_colour_pass(device, format, view, size, size, pass, framebuffer);
   session.later([=] {
      vkDestroyFramebuffer(device, framebuffer, nullptr);
      vkDestroyRenderPass(device, pass, nullptr);
   });

   VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
   VkPipelineLayout layout = VK_NULL_HANDLE;
   vkCreatePipelineLayout(device, &layout_info, nullptr, &layout);
   session.later([=] { vkDestroyPipelineLayout(device, layout, nullptr); });
   terakan::test::BasicPipeline basic;
   basic.vertex = vertex;
   basic.fragment = fragment;
   basic.viewport_extent = {size, size};
   basic.layout = layout;
   basic.pass = pass;
   VkPipeline pipeline = VK_NULL_HANDLE;
   const VkResult created = terakan::test::create_basic_pipeline(device, basic, pipeline);
   if (created != VK_SUCCESS) {
      out.error = std::string(name) + ": vkCreateGraphicsPipelines returned " + std::to_string(created);
      return out;
   }
   session.later([=] { vkDestroyPipeline(device, pipeline, nullptr); });

   VkCommandBuffer commands = session.begin();
   VkClearValue clear{};
   VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
   begin.renderPass = pass;
   begin.framebuffer = framebuffer;
   begin.renderArea = {{0, 0}, {size, size}};
   begin.clearValueCount = 1;
   begin.pClearValues = &clear;
   vkCmdBeginRenderPass(commands, &begin, VK_SUBPASS_CONTENTS_INLINE);
   vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
   vkCmdDraw(commands, 24, 1, 0, 0);
   vkCmdEndRenderPass(commands);
   VkBufferImageCopy region{};
   region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
   region.imageExtent = {size, size, 1};
   vkCmdCopyImageToBuffer(commands, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1, &region);
   VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT,
                           VK_ACCESS_HOST_READ_BIT};
   vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0,
                        nullptr, 0, nullptr);
   const VkResult submitted = session.submit_and_wait(commands);
   if (submitted != VK_SUCCESS) {
      out.error = std::string(name) + ": the submission returned " + std::to_string(submitted);
      return out;
   }
   const uint8_t *bytes = static_cast<const uint8_t *>(map);
   out.pixels.assign(bytes, bytes + size * size * 4);
   return out;
}

TEST(GraphicsScratch, PrivateArraysInTheVertexAndPixelShaders)
{
   const Drawn terakan = draw("Terakan"), lavapipe = draw("llvmpipe");
   ASSERT_TRUE(terakan.error.empty()) << terakan.error;
   ASSERT_TRUE(lavapipe.error.empty()) << lavapipe.error;
   EXPECT_EQ(terakan.messages, 0u) << "validation layer messages on Terakan";
   EXPECT_EQ(lavapipe.messages, 0u) << "validation layer messages on lavapipe";
   unsigned against_lavapipe = 0, against_reference = 0;
   for (uint32_t y = 0; y < size; y++)
      for (uint32_t x = 0; x < size; x++) {
         const uint8_t *ours = &terakan.pixels[(y * size + x) * 4], *theirs = &lavapipe.pixels[(y * size + x) * 4];
         const std::array<uint8_t, 4> want = expected(x, y);
         if (std::memcmp(ours, theirs, 4) && ++against_lavapipe <= 8)
            ADD_FAILURE() << "pixel (" << x << ", " << y << "): Terakan " << int(ours[0]) << "," << int(ours[1]) << ","
                          << int(ours[2]) << "," << int(ours[3]) << ", lavapipe " << int(theirs[0]) << ","
                          << int(theirs[1]) << "," << int(theirs[2]) << "," << int(theirs[3]);
         if (std::memcmp(ours, want.data(), 4) && ++against_reference <= 8)
            ADD_FAILURE() << "pixel (" << x << ", " << y << "): Terakan " << int(ours[0]) << "," << int(ours[1]) << ","
                          << int(ours[2]) << "," << int(ours[3]) << ", expected " << int(want[0]) << ","
                          << int(want[1]) << "," << int(want[2]) << "," << int(want[3]);
      }
   EXPECT_EQ(against_lavapipe, 0u) << "pixels differing from lavapipe";
   EXPECT_EQ(against_reference, 0u) << "pixels differing from the shaders' values";
}

/* Register spilling in both stages (docs/compiler.md "Spilling"): spill_values.vert and .frag
 * each keep 140 uvec4 values live across a loop, more than 124 GPRs hold; the spilled values
 * go through the VS and PS scratch rings. Every pixel must equal lavapipe's. */
TEST(GraphicsScratch, SpilledRegistersInTheVertexAndPixelShaders)
{
   const Drawn terakan = draw("Terakan", "spill_values.vert", "spill_values.frag");
   const Drawn lavapipe = draw("llvmpipe", "spill_values.vert", "spill_values.frag");
   ASSERT_TRUE(terakan.error.empty()) << terakan.error;
   ASSERT_TRUE(lavapipe.error.empty()) << lavapipe.error;
   EXPECT_EQ(terakan.messages, 0u) << "validation layer messages on Terakan";
   EXPECT_EQ(lavapipe.messages, 0u) << "validation layer messages on lavapipe";
   unsigned differing = 0, blank = 0;
   for (uint32_t i = 0; i < size * size; i++) {
      const uint8_t *ours = &terakan.pixels[i * 4], *theirs = &lavapipe.pixels[i * 4];
      blank += theirs[0] == 0 && theirs[1] == 0 && theirs[2] == 0 && theirs[3] == 0;
      if (std::memcmp(ours, theirs, 4) && ++differing <= 8)
         ADD_FAILURE() << "pixel (" << i % size << ", " << i / size << "): Terakan " << int(ours[0]) << ","
                       << int(ours[1]) << "," << int(ours[2]) << "," << int(ours[3]) << ", lavapipe "
                       << int(theirs[0]) << "," << int(theirs[1]) << "," << int(theirs[2]) << "," << int(theirs[3]);
   }
   EXPECT_EQ(differing, 0u) << "pixels differing from lavapipe";
   EXPECT_LT(blank, size * size / 16) << "the quads were not drawn";
}

} // namespace
