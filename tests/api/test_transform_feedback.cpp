/* VK_EXT_transform_feedback through the loader with the Khronos validation layer on, on the
 * simulated GPU (TERAKAN_SIM_CHIP picks the chip) and on lavapipe, the same steps on both:
 *
 *  1. transform_feedback.vert captured under rasterizer discard into two buffers (a vec4, a
 *     vec2, gl_Position into buffer 0 at a range that does not start on 256 bytes; a float from
 *     component 2 and an ivec3 into buffer 1, gaps left alone), the filled sizes stored in
 *     counter buffers, a TRANSFORM_FEEDBACK_STREAM query around it;
 *  2. resumed from the counters in a later submission, until buffer 1 overflows (a primitive
 *     that does not fit in one buffer is written to none);
 *  3. vkCmdDrawIndirectByteCountEXT from buffer 0's counter, itself captured into fresh
 *     ranges;
 *  4. a capture while drawing (no discard): the picture as well as the buffers;
 *  5. a triangle strip and a fan, paused and resumed from the counters within one command
 *     buffer (strips are captured as lists, in the order Vulkan gives their triangles).
 *
 * After every step the buffers, the counters and the query results (read on the host and
 * copied by vkCmdCopyQueryPoolResults) must be byte for byte
 * lavapipe's; some values are also known by construction and checked as such. A sixth step
 * on Terakan alone draws by byte count with a counterOffset, which lavapipe 22.3 ignores (the
 * specification subtracts it: vertexCount = max(0, counter - counterOffset) / vertexStride). */
#include <gtest/gtest.h>

#include <array>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../vulkan_helpers.h"
#include "session.h"

namespace {

constexpr uint32_t size = 16;
constexpr VkDeviceSize xfb_bytes = 4096, counter_bytes = 256;
constexpr uint32_t stride0 = 48, stride1 = 20;
constexpr uint32_t query_count = 4;

/* Everything one step leaves behind. */
struct Snapshot {
   std::vector<uint8_t> buffer0, buffer1, counters;
   std::vector<uint64_t> queries; /* per query: written, needed, availability */
   std::vector<uint64_t> copied;  /* the same by vkCmdCopyQueryPoolResults */
   std::vector<uint8_t> picture;
};

class Scene : public terakan::test::Session {
public:
   explicit Scene(const char *name)
   {
      terakan::test::SessionOptions options;
      options.application = "terakan-api-transform-feedback";
      options.instance_extensions = {VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME};
      options.device_extensions = {VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME};
      xfb_features.transformFeedback = VK_TRUE;
      features.pNext = &xfb_features;
      options.device_next = &features;
      if (!open(name, messages, error, options))
         return;
      ok = make_resources() && make_pipelines();
   }
   ~Scene() override { release(); }

   /* Records `record` into a command buffer inside the render pass, submits, waits, and
    * snapshots the results. */
   template <typename Record> bool step(Record record, Snapshot &out)
   {
      VkCommandBuffer commands = begin();
      if (!commands)
         return false;
      VkClearValue clear{};
      VkRenderPassBeginInfo pass{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
      pass.renderPass = render_pass;
      pass.framebuffer = framebuffer;
      pass.renderArea = {{0, 0}, {size, size}};
      pass.clearValueCount = 1;
      pass.pClearValues = &clear;
      vkCmdBeginRenderPass(commands, &pass, VK_SUBPASS_CONTENTS_INLINE);
      VkDeviceSize zero = 0;
      vkCmdBindVertexBuffers(commands, 0, 1, &vertices, &zero);
      vkCmdBindVertexBuffers(commands, 1, 1, &vertices, &zero);
      record(commands);
      vkCmdEndRenderPass(commands);
      vkCmdCopyQueryPoolResults(commands, queries, 0, query_count, copies, 0, 24,
                                VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
      /* The picture to the host. */
      VkBufferImageCopy region{};
      region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
      region.imageExtent = {size, size, 1};
      vkCmdCopyImageToBuffer(commands, colour.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, picture, 1, &region);
      VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
      barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_TRANSFORM_FEEDBACK_WRITE_BIT_EXT |
                              VK_ACCESS_TRANSFORM_FEEDBACK_COUNTER_WRITE_BIT_EXT;
      barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
      vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier,
                           0, nullptr, 0, nullptr);
      if (submit_and_wait(commands) != VK_SUCCESS)
         return false;
      const auto *b0 = static_cast<const uint8_t *>(map0), *b1 = static_cast<const uint8_t *>(map1);
      out.buffer0.assign(b0, b0 + xfb_bytes);
      out.buffer1.assign(b1, b1 + xfb_bytes);
      const auto *c = static_cast<const uint8_t *>(counter_map);
      out.counters.assign(c, c + counter_bytes);
      const auto *p = static_cast<const uint8_t *>(picture_map);
      out.picture.assign(p, p + size * size * 4);
      const auto *q = static_cast<const uint64_t *>(copies_map);
      out.copied.assign(q, q + 3 * query_count);
      out.queries.assign(3 * query_count, 0);
      const VkResult result =
         vkGetQueryPoolResults(device, queries, 0, query_count, out.queries.size() * 8, out.queries.data(), 24,
                               VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
      return result == VK_SUCCESS || result == VK_NOT_READY;
   }

   void bind(VkCommandBuffer commands, VkDeviceSize offset0, VkDeviceSize size0, VkDeviceSize offset1,
             VkDeviceSize size1)
   {
      const VkBuffer buffers[2] = {buffer0, buffer1};
      const VkDeviceSize offsets[2] = {offset0, offset1}, sizes[2] = {size0, size1};
      bind_xfb(commands, 0, 2, buffers, offsets, sizes);
   }

   bool ok = false;
   unsigned messages = 0;
   std::string error;
   VkBuffer vertices = VK_NULL_HANDLE, buffer0 = VK_NULL_HANDLE, buffer1 = VK_NULL_HANDLE, counters = VK_NULL_HANDLE;
   VkPipeline discard = VK_NULL_HANDLE, drawing = VK_NULL_HANDLE, strip = VK_NULL_HANDLE, fan = VK_NULL_HANDLE;
   VkQueryPool queries = VK_NULL_HANDLE;
   PFN_vkCmdBindTransformFeedbackBuffersEXT bind_xfb = nullptr;
   PFN_vkCmdBeginTransformFeedbackEXT begin_xfb = nullptr;
   PFN_vkCmdEndTransformFeedbackEXT end_xfb = nullptr;
   PFN_vkCmdDrawIndirectByteCountEXT draw_byte_count = nullptr;

private:
   VkPhysicalDeviceTransformFeedbackFeaturesEXT xfb_features{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT};
   VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
   void *map0 = nullptr, *map1 = nullptr, *counter_map = nullptr, *picture_map = nullptr, *copies_map = nullptr;
   VkBuffer picture = VK_NULL_HANDLE, copies = VK_NULL_HANDLE;
   terakan::test::Image2D colour;
   VkRenderPass render_pass = VK_NULL_HANDLE;
   VkFramebuffer framebuffer = VK_NULL_HANDLE;
   VkPipelineLayout layout = VK_NULL_HANDLE;

   bool make_resources()
   {
      bind_xfb = reinterpret_cast<PFN_vkCmdBindTransformFeedbackBuffersEXT>(
         vkGetDeviceProcAddr(device, "vkCmdBindTransformFeedbackBuffersEXT"));
      begin_xfb = reinterpret_cast<PFN_vkCmdBeginTransformFeedbackEXT>(
         vkGetDeviceProcAddr(device, "vkCmdBeginTransformFeedbackEXT"));
      end_xfb =
         reinterpret_cast<PFN_vkCmdEndTransformFeedbackEXT>(vkGetDeviceProcAddr(device, "vkCmdEndTransformFeedbackEXT"));
      draw_byte_count = reinterpret_cast<PFN_vkCmdDrawIndirectByteCountEXT>(
         vkGetDeviceProcAddr(device, "vkCmdDrawIndirectByteCountEXT"));
      if (!bind_xfb || !begin_xfb || !end_xfb || !draw_byte_count) {
         error = "the extension's commands are missing";
         return false;
      }
      /* 16 vertices: a position on the pixel grid's diagonals and data in eighths. */
      void *vertex_map = nullptr;
      vertices = buffer(16 * 32, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, vertex_map);
      buffer0 = buffer(xfb_bytes, VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_BUFFER_BIT_EXT, map0);
      buffer1 = buffer(xfb_bytes, VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_BUFFER_BIT_EXT, map1);
      counters = buffer(counter_bytes,
                        VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_COUNTER_BUFFER_BIT_EXT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
                        counter_map);
      picture = buffer(size * size * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, picture_map);
      copies = buffer(24 * query_count, VK_BUFFER_USAGE_TRANSFER_DST_BIT, copies_map);
      if (!vertices || !buffer0 || !buffer1 || !counters || !picture || !copies) {
         error = "no buffers";
         return false;
      }
      std::vector<float> data;
      for (int v = 0; v < 16; v++) {
         const float x = float((v * 5) % 8) / 4.0f - 1.0f, y = float((v * 3 + 1) % 8) / 4.0f - 1.0f;
         data.insert(data.end(), {x, y, 0.25f * float(v % 4), 1.0f, float(v) / 8.0f, float(16 - v) / 8.0f, 0.5f,
                                  float(v % 3) / 8.0f});
      }
      std::memcpy(vertex_map, data.data(), data.size() * 4);
      std::memset(map0, 0xcd, xfb_bytes);
      std::memset(map1, 0xcd, xfb_bytes);
      std::memset(counter_map, 0, counter_bytes);
      VkQueryPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
      pool_info.queryType = VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT;
      pool_info.queryCount = query_count;
      if (vkCreateQueryPool(device, &pool_info, nullptr, &queries) != VK_SUCCESS)
         return false;
      later([this] { vkDestroyQueryPool(device, queries, nullptr); });
      /* Reset every query once, before the steps. */
      VkCommandBuffer commands = begin();
      vkCmdResetQueryPool(commands, queries, 0, query_count);
      if (submit_and_wait(commands) != VK_SUCCESS)
         return false;

      if (!terakan::test::create_image_2d(physical, device, VK_FORMAT_R8G8B8A8_UNORM,
                                          VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                                          VK_IMAGE_ASPECT_COLOR_BIT, size, size, VK_SAMPLE_COUNT_1_BIT, colour))
         return false;
      later([this] { terakan::test::destroy_image_2d(device, colour); });
      const bool made = terakan::test::create_colour_pass(device, VK_FORMAT_R8G8B8A8_UNORM, colour.view, size, size,
                                                          render_pass, framebuffer);
      later([this] {
         vkDestroyFramebuffer(device, framebuffer, nullptr);
         vkDestroyRenderPass(device, render_pass, nullptr);
      });
      if (!made)
         return false;
      return true;
   }

   bool make_pipelines()
   {
      VkShaderModule vs = module("transform_feedback.vert"), fs = module("transform_feedback.frag");
      if (!vs || !fs) {
         error = "no shaders";
         return false;
      }
      VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
      if (vkCreatePipelineLayout(device, &layout_info, nullptr, &layout) != VK_SUCCESS)
         return false;
      later([this] { vkDestroyPipelineLayout(device, layout, nullptr); });
      VkPipelineShaderStageCreateInfo stages[2] = {};
      for (int i = 0; i < 2; i++) {
         stages[i].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
         stages[i].stage = i ? VK_SHADER_STAGE_FRAGMENT_BIT : VK_SHADER_STAGE_VERTEX_BIT;
         stages[i].module = i ? fs : vs;
         stages[i].pName = "main";
      }
      VkVertexInputBindingDescription bindings[2] = {{0, 32, VK_VERTEX_INPUT_RATE_VERTEX},
                                                     {1, 32, VK_VERTEX_INPUT_RATE_VERTEX}};
      VkVertexInputAttributeDescription attributes[2] = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0},
                                                         {1, 1, VK_FORMAT_R32G32B32A32_SFLOAT, 16}};
      VkPipelineVertexInputStateCreateInfo input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
      input.vertexBindingDescriptionCount = 2;
      input.pVertexBindingDescriptions = bindings;
      input.vertexAttributeDescriptionCount = 2;
      input.pVertexAttributeDescriptions = attributes;
      VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
      assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
      VkViewport viewport{0, 0, float(size), float(size), 0, 1};
      VkRect2D scissor{{0, 0}, {size, size}};
      VkPipelineViewportStateCreateInfo viewports{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
      viewports.viewportCount = 1;
      viewports.pViewports = &viewport;
      viewports.scissorCount = 1;
      viewports.pScissors = &scissor;
      VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
      raster.polygonMode = VK_POLYGON_MODE_FILL;
      raster.cullMode = VK_CULL_MODE_NONE;
      raster.lineWidth = 1;
      VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
      multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
      VkPipelineColorBlendAttachmentState blend{};
      blend.colorWriteMask = 0xf;
      VkPipelineColorBlendStateCreateInfo blending{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
      blending.attachmentCount = 1;
      blending.pAttachments = &blend;
      VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
      info.stageCount = 2;
      info.pStages = stages;
      info.pVertexInputState = &input;
      info.pInputAssemblyState = &assembly;
      info.pViewportState = &viewports;
      info.pRasterizationState = &raster;
      info.pMultisampleState = &multisample;
      info.pColorBlendState = &blending;
      info.layout = layout;
      info.renderPass = render_pass;
      for (VkPipeline *pipeline : {&discard, &drawing, &strip, &fan}) {
         raster.rasterizerDiscardEnable = pipeline != &drawing;
         assembly.topology = pipeline == &strip ? VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP
                             : pipeline == &fan ? VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN
                                                : VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
         if (vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, pipeline) != VK_SUCCESS) {
            error = "no pipeline";
            return false;
         }
         later([this, pipeline] { vkDestroyPipeline(device, *pipeline, nullptr); });
      }
      return true;
   }
};

constexpr unsigned step_count = 5;

/* The steps on one device. */
bool run(Scene &scene, std::array<Snapshot, step_count> &out, std::string &error)
{
   if (!scene.ok) {
      error = "the scene could not be made: " + scene.error;
      return false;
   }
   const VkBuffer counter_pair[2] = {scene.counters, scene.counters};
   /* Step 1: buffer 0 from byte 100 (not on 256), buffer 1 from 4 with room for 10 vertices. */
   const bool step1 = scene.step(
      [&](VkCommandBuffer c) {
         vkCmdBindPipeline(c, VK_PIPELINE_BIND_POINT_GRAPHICS, scene.discard);
         scene.bind(c, 100, 1500, 4, 10 * stride1);
         vkCmdBeginQuery(c, scene.queries, 0, 0);
         scene.begin_xfb(c, 0, 0, nullptr, nullptr);
         vkCmdDraw(c, 6, 1, 0, 0);
         const VkDeviceSize offsets[2] = {0, 4};
         scene.end_xfb(c, 0, 2, counter_pair, offsets);
         vkCmdEndQuery(c, scene.queries, 0);
      },
      out[0]);
   /* Step 2: resumed from the counters; two instances of a triangle: the second does not fit
    * in buffer 1 and is written nowhere. */
   const bool step2 = step1 && scene.step(
                                  [&](VkCommandBuffer c) {
                                     vkCmdBindPipeline(c, VK_PIPELINE_BIND_POINT_GRAPHICS, scene.discard);
                                     scene.bind(c, 100, 1500, 4, 10 * stride1);
                                     vkCmdBeginQuery(c, scene.queries, 1, 0);
                                     const VkDeviceSize offsets[2] = {0, 4};
                                     scene.begin_xfb(c, 0, 2, counter_pair, offsets);
                                     vkCmdDraw(c, 3, 2, 6, 1);
                                     scene.end_xfb(c, 0, 2, counter_pair, offsets);
                                     vkCmdEndQuery(c, scene.queries, 1);
                                  },
                                  out[1]);
   /* Step 3: draw buffer 0's vertices, captured into fresh ranges; the counters of the new
    * ranges at 8 and 12. */
   const bool step3 = step2 && scene.step(
                                  [&](VkCommandBuffer c) {
                                     vkCmdBindPipeline(c, VK_PIPELINE_BIND_POINT_GRAPHICS, scene.discard);
                                     scene.bind(c, 2048, 1024, 1024, 1024);
                                     vkCmdBeginQuery(c, scene.queries, 2, 0);
                                     scene.begin_xfb(c, 0, 0, nullptr, nullptr);
                                     scene.draw_byte_count(c, 1, 2, scene.counters, 0, 0, stride0);
                                     const VkDeviceSize offsets[2] = {8, 12};
                                     scene.end_xfb(c, 0, 2, counter_pair, offsets);
                                     vkCmdEndQuery(c, scene.queries, 2);
                                  },
                                  out[2]);
   /* Step 4: captured while drawing. */
   const bool step4 = step3 && scene.step(
                                  [&](VkCommandBuffer c) {
                                     vkCmdBindPipeline(c, VK_PIPELINE_BIND_POINT_GRAPHICS, scene.drawing);
                                     scene.bind(c, 3328, 700, 2560, 1000);
                                     vkCmdBeginQuery(c, scene.queries, 3, 0);
                                     scene.begin_xfb(c, 0, 0, nullptr, nullptr);
                                     vkCmdDraw(c, 9, 1, 3, 0);
                                     const VkDeviceSize offsets[2] = {16, 20};
                                     scene.end_xfb(c, 0, 2, counter_pair, offsets);
                                     vkCmdEndQuery(c, scene.queries, 3);
                                  },
                                  out[3]);
   /* Step 5: a strip of 6 vertices (4 triangles), paused, a fan of 5 (3 triangles), into fresh
    * ranges; the pause goes through the counters at 32 and 36 within the command buffer. */
   const bool step5 = step4 && scene.step(
                                  [&](VkCommandBuffer c) {
                                     scene.bind(c, 128, 1200, 2048, 1000);
                                     const VkDeviceSize offsets[2] = {32, 36};
                                     vkCmdBindPipeline(c, VK_PIPELINE_BIND_POINT_GRAPHICS, scene.strip);
                                     scene.begin_xfb(c, 0, 0, nullptr, nullptr);
                                     vkCmdDraw(c, 6, 1, 2, 0);
                                     scene.end_xfb(c, 0, 2, counter_pair, offsets);
                                     vkCmdDraw(c, 3, 1, 0, 0); /* paused: not captured */
                                     vkCmdBindPipeline(c, VK_PIPELINE_BIND_POINT_GRAPHICS, scene.fan);
                                     scene.begin_xfb(c, 0, 2, counter_pair, offsets);
                                     vkCmdDraw(c, 5, 1, 9, 3);
                                     scene.end_xfb(c, 0, 2, counter_pair, offsets);
                                  },
                                  out[4]);
   if (!step5)
      error = "a step failed to run";
   return step5;
}

uint32_t dword(const std::vector<uint8_t> &bytes, size_t offset)
{
   uint32_t value;
   std::memcpy(&value, bytes.data() + offset, 4);
   return value;
}

TEST(TransformFeedback, CapturesResumesAndDrawsAsLavapipe)
{
   static Scene terakan_gpu("Terakan"), lavapipe("llvmpipe");
   std::array<Snapshot, step_count> ours, theirs;
   std::string error;
   ASSERT_TRUE(run(terakan_gpu, ours, error)) << error;
   ASSERT_TRUE(run(lavapipe, theirs, error)) << error;
   for (unsigned s = 0; s < step_count; s++) {
      SCOPED_TRACE("step " + std::to_string(s + 1));
      EXPECT_EQ(ours[s].counters, theirs[s].counters);
      EXPECT_EQ(ours[s].queries, theirs[s].queries);
      EXPECT_EQ(ours[s].copied, theirs[s].copied);
      EXPECT_EQ(ours[s].copied, ours[s].queries);
      for (size_t i = 0; i < xfb_bytes; i += 4) {
         EXPECT_EQ(dword(ours[s].buffer0, i), dword(theirs[s].buffer0, i)) << "buffer 0 byte " << i;
         EXPECT_EQ(dword(ours[s].buffer1, i), dword(theirs[s].buffer1, i)) << "buffer 1 byte " << i;
         if (HasFailure())
            break;
      }
   }
   EXPECT_EQ(ours[3].picture, theirs[3].picture);
   /* Known by construction: 6 vertices (2 triangles) in step 1; in step 2 one more triangle fits
    * buffer 1's 10 vertices; step 3 draws the 9 vertices of buffer 0, 3 triangles. */
   EXPECT_EQ(dword(ours[0].counters, 0), 6 * stride0);
   EXPECT_EQ(dword(ours[0].counters, 4), 6 * stride1);
   EXPECT_EQ(dword(ours[1].counters, 0), 9 * stride0);
   EXPECT_EQ(dword(ours[1].counters, 4), 9 * stride1);
   EXPECT_EQ(dword(ours[2].counters, 8), 9 * stride0);
   const std::vector<uint64_t> expected_queries = {2, 2, 1, 1, 2, 1, 3, 3, 1, 3, 3, 1};
   EXPECT_EQ(ours[3].queries, expected_queries);
   EXPECT_EQ(dword(ours[4].counters, 32), 7 * 3 * stride0);

   /* Step 6 (Terakan alone): (9 x 48 - 48) / 48 = 8 vertices, 2 triangles, after buffer 0's step 4 range. */
   Snapshot offset_draw;
   const VkBuffer counter_pair[2] = {terakan_gpu.counters, terakan_gpu.counters};
   ASSERT_TRUE(terakan_gpu.step(
      [&](VkCommandBuffer c) {
         vkCmdBindPipeline(c, VK_PIPELINE_BIND_POINT_GRAPHICS, terakan_gpu.discard);
         terakan_gpu.bind(c, 1028, 1024, 3072, 1000);
         terakan_gpu.begin_xfb(c, 0, 0, nullptr, nullptr);
         terakan_gpu.draw_byte_count(c, 1, 0, terakan_gpu.counters, 0, stride0, stride0);
         const VkDeviceSize offsets[2] = {24, 28};
         terakan_gpu.end_xfb(c, 0, 2, counter_pair, offsets);
      },
      offset_draw));
   EXPECT_EQ(dword(offset_draw.counters, 24), 6 * stride0);
   EXPECT_EQ(dword(offset_draw.counters, 28), 6 * stride1);
   /* The captured vertices are step 3's first six but for the instance (0 here, 2 there). */
   for (uint32_t v = 0; v < 6; v++)
      for (uint32_t d = 0; d < 10; d++)
         EXPECT_EQ(dword(offset_draw.buffer0, 1028 + v * stride0 + 4 * d), dword(ours[2].buffer0, 2048 + v * stride0 + 4 * d))
            << "vertex " << v << " dword " << d;
   EXPECT_EQ(terakan_gpu.messages, 0u);
   EXPECT_EQ(lavapipe.messages, 0u);
}

/* An indexed strip under transform feedback is refused at recording (the VGT would capture its
 * odd triangles in its own order, and only direct draws are turned into lists). */
TEST(TransformFeedback, IndexedStripsAreRefused)
{
   static Scene terakan_gpu("Terakan");
   ASSERT_TRUE(terakan_gpu.ok) << terakan_gpu.error;
   void *map = nullptr;
   VkBuffer indices = terakan_gpu.buffer(64, VK_BUFFER_USAGE_INDEX_BUFFER_BIT, map);
   ASSERT_TRUE(indices);
   std::memset(map, 0, 64);
   /* step() fails when vkEndCommandBuffer reports the recording's error. */
   Snapshot unused;
   const bool ran = terakan_gpu.step(
      [&](VkCommandBuffer c) {
         vkCmdBindPipeline(c, VK_PIPELINE_BIND_POINT_GRAPHICS, terakan_gpu.strip);
         vkCmdBindIndexBuffer(c, indices, 0, VK_INDEX_TYPE_UINT32);
         terakan_gpu.bind(c, 0, 1024, 0, 1024);
         terakan_gpu.begin_xfb(c, 0, 0, nullptr, nullptr);
         vkCmdDrawIndexed(c, 6, 1, 0, 0, 0);
         terakan_gpu.end_xfb(c, 0, 0, nullptr, nullptr);
      },
      unused);
   EXPECT_FALSE(ran) << "an indexed strip was recorded under transform feedback";
   EXPECT_EQ(terakan_gpu.messages, 0u);
}

TEST(TransformFeedback, PropertiesAreHonest)
{
   static Scene terakan_gpu("Terakan");
   ASSERT_TRUE(terakan_gpu.ok) << terakan_gpu.error;
   VkPhysicalDeviceTransformFeedbackPropertiesEXT xfb{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_PROPERTIES_EXT};
   VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &xfb};
   vkGetPhysicalDeviceProperties2(terakan_gpu.physical, &properties);
   EXPECT_EQ(xfb.maxTransformFeedbackStreams, 1u);
   EXPECT_EQ(xfb.maxTransformFeedbackBuffers, 4u);
   EXPECT_FALSE(xfb.transformFeedbackStreamsLinesTriangles);
   EXPECT_FALSE(xfb.transformFeedbackRasterizationStreamSelect);
   EXPECT_TRUE(xfb.transformFeedbackQueries);
   EXPECT_TRUE(xfb.transformFeedbackDraw);
}

} // namespace
