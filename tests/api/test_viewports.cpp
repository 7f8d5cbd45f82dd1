/* Several viewports (multiViewport) chosen per primitive by the vertex shader's ViewportIndex
 * (Vulkan 1.2's shaderOutputViewportIndex), on the simulated card against lavapipe, pixel for
 * pixel, through a Vulkan 1.2 instance with the validation layer on. Four viewports of
 * different sizes (two not square) with their own scissors, two of which cut their viewport:
 * first one triangle drawn
 * four times, the instance choosing the viewport and colour; then four small triangles in one
 * draw, triangle t sent to viewport t. The fragment shader reads ViewportIndex and draws red
 * where it differs from the vertex shader's index (passed as a varying). Besides the
 * comparison, every pixel of a viewport's colour must lie inside that viewport's scissor, every
 * viewport must show its colour, and no pixel may be red.
 * With TERAKAN_DRAW_PICTURES=DIR the pictures are written there. */
#include <gtest/gtest.h>

#include <array>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../gl/failure.h"
#include "../gl/png_file.h"
#include "../vulkan_helpers.h"
#include "session.h"

using terakan::test::Session;
using terakan::test::SessionOptions;

namespace {

constexpr uint32_t size = 64;
constexpr VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
const VkViewport viewports[4] = {
   {0, 0, 32, 32, 0, 1}, {32, 0, 32, 32, 0, 1}, {0, 32, 24, 32, 0, 1}, {36, 36, 24, 20, 0, 1}};
const VkRect2D scissors[4] = {
   {{0, 0}, {32, 32}}, {{36, 4}, {20, 20}}, {{0, 32}, {24, 32}}, {{40, 36}, {16, 20}}};
/* The shader's palette in bytes: instances draw these, the small triangles 255 minus them. */
const std::array<uint8_t, 4> palette[4] = {{204, 153, 51, 255}, {51, 153, 153, 255}, {153, 51, 204, 255},
                                           {51, 204, 51, 255}};

struct Drawn {
   std::vector<uint8_t> pixels; /* rows top to bottom */
   std::string error;
   unsigned messages = 0;
};

/* Renders the scene on the device named `name` and reads the target back. */
Drawn draw(const char *name)
{
   Drawn out;
   Session session;
   VkPhysicalDeviceVulkan12Features features12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
   features12.shaderOutputViewportIndex = VK_TRUE;
   VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &features12};
   features.features.multiViewport = VK_TRUE;
   SessionOptions options;
   options.api_version = VK_API_VERSION_1_2;
   options.device_next = &features;
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
   VkShaderModule vertex = session.module("viewport_index.vert"), fragment = session.module("viewport_index.frag");
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

   VkPushConstantRange push{VK_SHADER_STAGE_VERTEX_BIT, 0, 4};
   VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
   layout_info.pushConstantRangeCount = 1;
   layout_info.pPushConstantRanges = &push;
   VkPipelineLayout layout = VK_NULL_HANDLE;
   vkCreatePipelineLayout(device, &layout_info, nullptr, &layout);
   session.later([=] { vkDestroyPipelineLayout(device, layout, nullptr); });
   VkPipelineShaderStageCreateInfo stages[2] = {
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, vertex, "main"},
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT, fragment, "main"}};
   VkPipelineVertexInputStateCreateInfo vertex_input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
   VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
   assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
   VkPipelineViewportStateCreateInfo viewport_state{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
   viewport_state.viewportCount = 4;
   viewport_state.pViewports = viewports;
   viewport_state.scissorCount = 4;
   viewport_state.pScissors = scissors;
   terakan::test::BasicPipeline basic;
   basic.stages = stages;
   basic.vertex_input = &vertex_input;
   basic.assembly = &assembly;
   basic.viewports = &viewport_state;
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
   clear.color.float32[2] = 0.25f;
   clear.color.float32[3] = 1.0f;
   VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
   begin.renderPass = pass;
   begin.framebuffer = framebuffer;
   begin.renderArea = {{0, 0}, {size, size}};
   begin.clearValueCount = 1;
   begin.pClearValues = &clear;
   vkCmdBeginRenderPass(commands, &begin, VK_SUBPASS_CONTENTS_INLINE);
   vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
   int32_t per_triangle = 0;
   vkCmdPushConstants(commands, layout, VK_SHADER_STAGE_VERTEX_BIT, 0, 4, &per_triangle);
   vkCmdDraw(commands, 3, 4, 0, 0);
   per_triangle = 1;
   vkCmdPushConstants(commands, layout, VK_SHADER_STAGE_VERTEX_BIT, 0, 4, &per_triangle);
   vkCmdDraw(commands, 12, 1, 0, 0);
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

void save(const Drawn &drawn, const char *who)
{
   const char *folder = std::getenv("TERAKAN_DRAW_PICTURES");
   if (!folder || drawn.pixels.empty())
      return;
   terakan::gl_scenes::RgbaPicture png;
   png.width = png.height = int(size);
   png.pixels = drawn.pixels;
   try {
      terakan::gl_scenes::write_png(std::string(folder) + "/viewports-" + who + ".png", png);
   } catch (const terakan::gl_scenes::Failure &failure) {
      ADD_FAILURE() << failure.what();
   }
}

bool inside(const VkRect2D &r, uint32_t x, uint32_t y)
{
   return int64_t(x) >= r.offset.x && int64_t(x) < r.offset.x + int64_t(r.extent.width) && int64_t(y) >= r.offset.y &&
          int64_t(y) < r.offset.y + int64_t(r.extent.height);
}

TEST(Viewports, ViewportIndexFromTheVertexShaderPicksViewportAndScissor)
{
   const Drawn terakan = draw("Terakan"), lavapipe = draw("llvmpipe");
   ASSERT_TRUE(terakan.error.empty()) << terakan.error;
   ASSERT_TRUE(lavapipe.error.empty()) << lavapipe.error;
   save(terakan, "terakan");
   save(lavapipe, "lavapipe");
   EXPECT_EQ(terakan.messages, 0u) << "validation layer messages on Terakan";
   EXPECT_EQ(lavapipe.messages, 0u) << "validation layer messages on lavapipe";
   unsigned differing = 0;
   for (size_t i = 0; i < terakan.pixels.size(); i += 4)
      if (std::memcmp(&terakan.pixels[i], &lavapipe.pixels[i], 4) && ++differing <= 8)
         ADD_FAILURE() << "pixel (" << (i / 4) % size << ", " << (i / 4) / size << "): Terakan "
                       << int(terakan.pixels[i]) << "," << int(terakan.pixels[i + 1]) << "," << int(terakan.pixels[i + 2])
                       << ", lavapipe " << int(lavapipe.pixels[i]) << "," << int(lavapipe.pixels[i + 1]) << ","
                       << int(lavapipe.pixels[i + 2]);
   EXPECT_EQ(differing, 0u) << "pixels differing from lavapipe";
   const std::array<uint8_t, 4> red = {255, 0, 0, 255};
   for (size_t i = 0; i < terakan.pixels.size(); i += 4)
      EXPECT_NE(std::memcmp(&terakan.pixels[i], red.data(), 4), 0)
         << "red at (" << (i / 4) % size << ", " << (i / 4) / size << "): ViewportIndex misread";
   /* Each viewport's colours (the instance's and the small triangle's) only inside its scissor,
    * and both present. */
   for (unsigned v = 0; v < 4; v++) {
      const std::array<uint8_t, 4> small = {uint8_t(255 - palette[v][0]), uint8_t(255 - palette[v][1]),
                                            uint8_t(255 - palette[v][2]), 255};
      unsigned seen = 0, seen_small = 0;
      for (uint32_t y = 0; y < size; y++)
         for (uint32_t x = 0; x < size; x++) {
            const uint8_t *p = &terakan.pixels[(y * size + x) * 4];
            const bool big_colour = !std::memcmp(p, palette[v].data(), 4);
            const bool small_colour = !std::memcmp(p, small.data(), 4);
            if (big_colour || small_colour)
               EXPECT_TRUE(inside(scissors[v], x, y)) << "viewport " << v << "'s colour at (" << x << ", " << y << ")";
            seen += big_colour;
            seen_small += small_colour;
         }
      EXPECT_GT(seen, 20u) << "viewport " << v << " shows its instance";
      EXPECT_GT(seen_small, 4u) << "viewport " << v << " shows its small triangle";
   }
}

} // namespace
