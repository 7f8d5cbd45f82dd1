/* Query pools through the driver on the simulated GPU (TERAKAN_SIM_CHIP picks the chip), each
 * scene recorded again on lavapipe with the same SPIR-V and state, both with the Khronos
 * validation layer counting messages: occlusion queries around draws with a depth test
 * (several in one command buffer, precise and not), their results read on the host and copied
 * by vkCmdCopyQueryPoolResults in 32 and 64 bits with and without availability, reset and
 * reused; timestamps; and the bad-input paths (without the layer).
 *
 * Geometry sits on whole pixels or on diagonals through pixel corners, where both rasterizers'
 * top-left rules give the same coverage, so the sample counts must be equal. */
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "../vulkan_helpers.h"

namespace {

constexpr uint32_t size = 32;
constexpr uint32_t query_count = 6;
constexpr uint64_t sentinel = 0xa5a5a5a5a5a5a5a5ull;

float clip(float pixels) { return pixels / (size / 2.0f) - 1.0f; }

/* Everything a query scene needs on one device: a 32x32 RGBA8 target with a D32 depth
 * attachment, a pipeline over coloured.vert/.frag with depth test LESS and writes on, a
 * vertex buffer, a host-visible results buffer. */
class Scene {
public:
   explicit Scene(const char *name, bool validation = true)
   {
      using namespace terakan::test;
      std::vector<const char *> layers, extensions;
      VkDebugUtilsMessengerCreateInfoEXT messenger_info = validation_messenger_info(terakan::test::count_validation_finding, &messages);
      const bool layer = validation && has_instance_layer("VK_LAYER_KHRONOS_validation");
      if (layer) {
         layers.push_back("VK_LAYER_KHRONOS_validation");
         extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
      }
      /* VK_EXT_host_query_reset needs it. */
      extensions.push_back(VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME);
      if (create_instance("terakan-api-queries", VK_API_VERSION_1_0, layers, extensions, layer ? &messenger_info : nullptr,
                          instance) != VK_SUCCESS)
         return;
      if (layer) {
         auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
         create(instance, &messenger_info, nullptr, &messenger);
      }
      physical = find_physical_device(instance, name);
      if (!physical)
         return;
      const auto family = find_queue_family(physical, VK_QUEUE_GRAPHICS_BIT);
      if (!family)
         return;
      VkPhysicalDeviceFeatures supported{};
      vkGetPhysicalDeviceFeatures(physical, &supported);
      VkPhysicalDeviceFeatures features{};
      features.occlusionQueryPrecise = supported.occlusionQueryPrecise;
      features.pipelineStatisticsQuery = supported.pipelineStatisticsQuery;
      VkPhysicalDeviceHostQueryResetFeatures host_reset{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES};
      std::vector<const char *> device_extensions;
      if (has_device_extension(physical, VK_EXT_HOST_QUERY_RESET_EXTENSION_NAME)) {
         device_extensions.push_back(VK_EXT_HOST_QUERY_RESET_EXTENSION_NAME);
         host_reset.hostQueryReset = VK_TRUE;
         has_host_reset = true;
      }
      VkPhysicalDeviceConditionalRenderingFeaturesEXT conditional{
         VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CONDITIONAL_RENDERING_FEATURES_EXT};
      const void *next = has_host_reset ? &host_reset : nullptr;
      if (has_device_extension(physical, VK_EXT_CONDITIONAL_RENDERING_EXTENSION_NAME)) {
         device_extensions.push_back(VK_EXT_CONDITIONAL_RENDERING_EXTENSION_NAME);
         conditional.conditionalRendering = VK_TRUE;
         conditional.pNext = const_cast<void *>(next);
         next = &conditional;
         has_conditional_rendering = true;
      }
      if (has_device_extension(physical, VK_KHR_DRAW_INDIRECT_COUNT_EXTENSION_NAME)) {
         device_extensions.push_back(VK_KHR_DRAW_INDIRECT_COUNT_EXTENSION_NAME);
         has_draw_indirect_count = true;
      }
      if (create_device(physical, *family, next, &features, device_extensions, device) != VK_SUCCESS)
         return;
      vkGetDeviceQueue(device, *family, 0, &queue);
      VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
      pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
      pool_info.queueFamilyIndex = *family;
      vkCreateCommandPool(device, &pool_info, nullptr, &command_pool);
      ok = make_targets() && make_pipeline() &&
           create_host_buffer(physical, device, 4096,
                              VK_BUFFER_USAGE_CONDITIONAL_RENDERING_BIT_EXT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                 VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
                              conditions.buffer, conditions.memory, conditions.map) &&
           create_host_buffer(physical, device, 64 * 1024, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, vertices.buffer,
                              vertices.memory, vertices.map) &&
           create_host_buffer(physical, device, 4096, VK_BUFFER_USAGE_TRANSFER_DST_BIT, results.buffer, results.memory,
                              results.map);
   }

   ~Scene()
   {
      if (device) {
         vkDeviceWaitIdle(device);
         for (Buffer *b : {&vertices, &results, &conditions}) {
            vkDestroyBuffer(device, b->buffer, nullptr);
            vkFreeMemory(device, b->memory, nullptr);
         }
         vkDestroyPipeline(device, pipeline, nullptr);
         vkDestroyPipelineLayout(device, layout, nullptr);
         vkDestroyFramebuffer(device, framebuffer, nullptr);
         vkDestroyRenderPass(device, render_pass, nullptr);
         for (terakan::test::Image2D *i : {&colour, &depth})
            terakan::test::destroy_image_2d(device, *i);
         vkDestroyCommandPool(device, command_pool, nullptr);
         vkDestroyDevice(device, nullptr);
      }
      if (messenger) {
         auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
         destroy(instance, messenger, nullptr);
      }
      if (instance)
         terakan::test::destroy_instance(instance);
   }

   /* Rectangles (x0, y0, x1, y1 in pixels, depth z) as two triangles each; a rectangle with
    * x1 < 0 is a right triangle over (x0, y0), (-x1, y0), (x0, y1). Returns the first vertex
    * of each shape. */
   struct Shape {
      float x0, y0, x1, y1, z;
   };
   std::vector<uint32_t> upload(const std::vector<Shape> &shapes)
   {
      std::vector<float> data;
      std::vector<uint32_t> firsts;
      auto vertex = [&](float x, float y, float z) { data.insert(data.end(), {clip(x), clip(y), z, 1, 1, 0, 0, 1}); };
      for (const Shape &s : shapes) {
         firsts.push_back(uint32_t(data.size() / 8));
         if (s.x1 < 0) {
            vertex(s.x0, s.y0, s.z), vertex(-s.x1, s.y0, s.z), vertex(s.x0, s.y1, s.z);
            continue;
         }
         vertex(s.x0, s.y0, s.z), vertex(s.x1, s.y0, s.z), vertex(s.x0, s.y1, s.z);
         vertex(s.x1, s.y0, s.z), vertex(s.x1, s.y1, s.z), vertex(s.x0, s.y1, s.z);
      }
      std::memcpy(vertices.map, data.data(), data.size() * 4);
      firsts.push_back(uint32_t(data.size() / 8));
      return firsts;
   }

   VkCommandBuffer begin()
   {
      VkCommandBufferAllocateInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
      info.commandPool = command_pool;
      info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
      info.commandBufferCount = 1;
      VkCommandBuffer commands;
      vkAllocateCommandBuffers(device, &info, &commands);
      VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
      begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
      vkBeginCommandBuffer(commands, &begin);
      return commands;
   }

   VkResult submit(VkCommandBuffer commands)
   {
      vkEndCommandBuffer(commands);
      VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
      submit.commandBufferCount = 1;
      submit.pCommandBuffers = &commands;
      VkResult result = vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE);
      if (result == VK_SUCCESS)
         result = vkQueueWaitIdle(queue);
      vkFreeCommandBuffers(device, command_pool, 1, &commands);
      return result;
   }

   void begin_pass(VkCommandBuffer commands)
   {
      VkClearValue clears[2] = {};
      clears[1].depthStencil = {1.0f, 0};
      VkRenderPassBeginInfo pass{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
      pass.renderPass = render_pass;
      pass.framebuffer = framebuffer;
      pass.renderArea = {{0, 0}, {size, size}};
      pass.clearValueCount = 2;
      pass.pClearValues = clears;
      vkCmdBeginRenderPass(commands, &pass, VK_SUBPASS_CONTENTS_INLINE);
      vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
      VkDeviceSize offset = 0;
      vkCmdBindVertexBuffers(commands, 0, 1, &vertices.buffer, &offset);
      vkCmdBindVertexBuffers(commands, 1, 1, &vertices.buffer, &offset);
   }

   VkQueryPool make_pool(VkQueryType type, uint32_t count, VkQueryPipelineStatisticFlags statistics = 0)
   {
      VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
      info.queryType = type;
      info.queryCount = count;
      info.pipelineStatistics = statistics;
      VkQueryPool pool = VK_NULL_HANDLE;
      vkCreateQueryPool(device, &info, nullptr, &pool);
      return pool;
   }

   bool ok = false;
   bool has_host_reset = false;
   bool has_conditional_rendering = false;
   bool has_draw_indirect_count = false;
   unsigned messages = 0;
   VkInstance instance = VK_NULL_HANDLE;
   VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
   VkPhysicalDevice physical = VK_NULL_HANDLE;
   VkDevice device = VK_NULL_HANDLE;
   VkQueue queue = VK_NULL_HANDLE;
   VkCommandPool command_pool = VK_NULL_HANDLE;
   struct Buffer {
      VkBuffer buffer = VK_NULL_HANDLE;
      VkDeviceMemory memory = VK_NULL_HANDLE;
      void *map = nullptr;
   } vertices, results, conditions;

private:
   terakan::test::Image2D colour, depth;
   VkRenderPass render_pass = VK_NULL_HANDLE;
   VkFramebuffer framebuffer = VK_NULL_HANDLE;
   VkPipelineLayout layout = VK_NULL_HANDLE;
   VkPipeline pipeline = VK_NULL_HANDLE;

   bool make_image(VkFormat format, VkImageUsageFlags usage, VkImageAspectFlags aspect, terakan::test::Image2D &image)
   {
      return terakan::test::create_image_2d(physical, device, format, usage, aspect, size, size, VK_SAMPLE_COUNT_1_BIT,
                                            image);
   }

   bool make_targets()
   {
      if (!make_image(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, VK_IMAGE_ASPECT_COLOR_BIT, colour) ||
          !make_image(VK_FORMAT_D32_SFLOAT, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, VK_IMAGE_ASPECT_DEPTH_BIT,
                      depth))
         return false;
      VkAttachmentDescription attachments[2] = {};
      attachments[0].format = VK_FORMAT_R8G8B8A8_UNORM;
      attachments[0].samples = VK_SAMPLE_COUNT_1_BIT;
      attachments[0].loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
      attachments[0].storeOp = VK_ATTACHMENT_STORE_OP_STORE;
      attachments[0].stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
      attachments[0].stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
      attachments[0].initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
      attachments[0].finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
      attachments[1] = attachments[0];
      attachments[1].format = VK_FORMAT_D32_SFLOAT;
      attachments[1].finalLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
      VkAttachmentReference colour_ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
      VkAttachmentReference depth_ref{1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
      VkSubpassDescription subpass{};
      subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
      subpass.colorAttachmentCount = 1;
      subpass.pColorAttachments = &colour_ref;
      subpass.pDepthStencilAttachment = &depth_ref;
      VkRenderPassCreateInfo pass{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
      pass.attachmentCount = 2;
      pass.pAttachments = attachments;
      pass.subpassCount = 1;
      pass.pSubpasses = &subpass;
      if (vkCreateRenderPass(device, &pass, nullptr, &render_pass) != VK_SUCCESS)
         return false;
      VkImageView views[2] = {colour.view, depth.view};
      VkFramebufferCreateInfo fb{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
      fb.renderPass = render_pass;
      fb.attachmentCount = 2;
      fb.pAttachments = views;
      fb.width = size;
      fb.height = size;
      fb.layers = 1;
      return vkCreateFramebuffer(device, &fb, nullptr, &framebuffer) == VK_SUCCESS;
   }

   bool make_pipeline()
   {
      VkShaderModule modules[2] = {};
      const std::vector<uint32_t> code[2] = {terakan::test::read_api_spirv("coloured.vert"), terakan::test::read_api_spirv("coloured.frag")};
      for (int i = 0; i < 2; i++) {
         VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
         info.codeSize = code[i].size() * 4;
         info.pCode = code[i].data();
         if (code[i].empty() || vkCreateShaderModule(device, &info, nullptr, &modules[i]) != VK_SUCCESS)
            return false;
      }
      VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
      vkCreatePipelineLayout(device, &layout_info, nullptr, &layout);
      VkPipelineShaderStageCreateInfo stages[2] = {};
      for (int i = 0; i < 2; i++) {
         stages[i].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
         stages[i].stage = i ? VK_SHADER_STAGE_FRAGMENT_BIT : VK_SHADER_STAGE_VERTEX_BIT;
         stages[i].module = modules[i];
         stages[i].pName = "main";
      }
      /* Position at 0, colour at 16 of each 32-byte vertex (two bindings over one buffer). */
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
      VkPipelineDepthStencilStateCreateInfo depth_state{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
      depth_state.depthTestEnable = VK_TRUE;
      depth_state.depthWriteEnable = VK_TRUE;
      depth_state.depthCompareOp = VK_COMPARE_OP_LESS;
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
      info.pDepthStencilState = &depth_state;
      info.pColorBlendState = &blending;
      info.layout = layout;
      info.renderPass = render_pass;
      const VkResult result = vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline);
      for (VkShaderModule m : modules)
         vkDestroyShaderModule(device, m, nullptr);
      return result == VK_SUCCESS;
   }
};

Scene &terakan_gpu()
{
   static Scene scene("Terakan");
   return scene;
}

Scene &lavapipe()
{
   static Scene scene("llvmpipe");
   return scene;
}

/* What one device reports for the occlusion scene. */
struct OcclusionResults {
   std::vector<uint64_t> host64;        /* value, availability per query */
   std::vector<uint32_t> host32;        /* value per query */
   std::vector<uint8_t> copies;         /* the results buffer after the copies */
   VkResult host_result = VK_ERROR_UNKNOWN;
};

/* Copies made by the scene, each into its own region of the results buffer (offsets that are
 * not multiples of 256, strides larger than a result). */
struct Copy {
   uint32_t offset, stride;
   VkQueryResultFlags flags;
};
const Copy copies[] = {
   {4, 4, 0},
   {100, 12, VK_QUERY_RESULT_WITH_AVAILABILITY_BIT},
   {264, 16, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT},
   {520, 8, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT},
   {1024, 24, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT | VK_QUERY_RESULT_PARTIAL_BIT},
};

/* Six queries in one command buffer: a full-screen rectangle at depth 0.5 (every pixel), a
 * rectangle behind it (none), a rectangle in front (its pixels), a triangle in front (half a
 * square, precise), two draws in one query, and a query with no draw. Query 5 is reset but
 * never begun: unavailable. */
bool run_occlusion(Scene &scene, OcclusionResults &out, std::string &error)
{
   const std::vector<uint32_t> first = scene.upload({
      {0, 0, 32, 32, 0.5f},   /* 0: 1024 pixels */
      {4, 4, 20, 20, 0.75f},  /* 1: behind: 0 */
      {2, 3, 12, 9, 0.25f},   /* 2: in front: 60 */
      {16, 16, -28, 28, 0.25f}, /* 3: a right triangle over 12 x 12 */
      {20, 0, 24, 8, 0.4f},   /* 4: 32 ... */
      {24, 24, 32, 32, 0.6f}, /*    ... plus 0 (behind) */
   });
   VkQueryPool pool = scene.make_pool(VK_QUERY_TYPE_OCCLUSION, query_count);
   if (!pool) {
      error = "vkCreateQueryPool failed";
      return false;
   }
   std::memset(scene.results.map, 0xa5, 4096);
   VkCommandBuffer commands = scene.begin();
   vkCmdResetQueryPool(commands, pool, 0, query_count);
   scene.begin_pass(commands);
   auto draw = [&](uint32_t shape) { vkCmdDraw(commands, first[shape + 1] - first[shape], 1, first[shape], 0); };
   for (uint32_t q = 0; q < 4; q++) {
      vkCmdBeginQuery(commands, pool, q, q == 3 ? VK_QUERY_CONTROL_PRECISE_BIT : 0);
      draw(q);
      vkCmdEndQuery(commands, pool, q);
   }
   vkCmdBeginQuery(commands, pool, 4, 0);
   draw(4);
   draw(5);
   vkCmdEndQuery(commands, pool, 4);
   vkCmdEndRenderPass(commands);
   for (const Copy &c : copies) {
      /* Query 5 never becomes available: copies of it are in UnavailableQueriesInCopies,
       * without the validation layer, which reports them. */
      vkCmdCopyQueryPoolResults(commands, pool, 0, query_count - 1, scene.results.buffer, c.offset, c.stride,
                                c.flags);
   }
   VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
   barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
   barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
   vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0,
                        nullptr, 0, nullptr);
   const VkResult submitted = scene.submit(commands);
   if (submitted != VK_SUCCESS) {
      error = "submission failed: " + std::to_string(submitted);
      vkDestroyQueryPool(scene.device, pool, nullptr);
      return false;
   }
   out.host64.assign(2 * query_count, sentinel);
   out.host_result = vkGetQueryPoolResults(scene.device, pool, 0, query_count, out.host64.size() * 8,
                                           out.host64.data(), 16,
                                           VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
   out.host32.assign(query_count - 1, 0);
   const VkResult waited = vkGetQueryPoolResults(scene.device, pool, 0, query_count - 1, out.host32.size() * 4,
                                                 out.host32.data(), 4, VK_QUERY_RESULT_WAIT_BIT);
   if (waited != VK_SUCCESS)
      error = "vkGetQueryPoolResults with WAIT on finished queries returned " + std::to_string(waited);
   out.copies.assign(static_cast<uint8_t *>(scene.results.map), static_cast<uint8_t *>(scene.results.map) + 1200);
   vkDestroyQueryPool(scene.device, pool, nullptr);
   return error.empty();
}

#define REQUIRE_SCENES()                                                                                              \
   do {                                                                                                              \
      if (!terakan_gpu().ok)                                                                                          \
         FAIL() << "no Terakan device with the scene's objects";                                                      \
      if (!lavapipe().ok)                                                                                             \
         GTEST_SKIP() << "lavapipe is not installed";                                                                 \
   } while (0)

TEST(Queries, OcclusionCountsMatchLavapipe)
{
   REQUIRE_SCENES();
   OcclusionResults ours, theirs;
   std::string error;
   ASSERT_TRUE(run_occlusion(terakan_gpu(), ours, error)) << error;
   ASSERT_TRUE(run_occlusion(lavapipe(), theirs, error)) << error;

   /* Host results: the expected counts (known by construction), and equal to lavapipe's. */
   EXPECT_EQ(ours.host_result, VK_NOT_READY) << "query 5 was never begun";
   EXPECT_EQ(theirs.host_result, VK_NOT_READY);
   const uint64_t expected[query_count - 1] = {1024, 0, 60, theirs.host64[6], 32};
   for (uint32_t q = 0; q < query_count - 1; q++) {
      EXPECT_EQ(ours.host64[2 * q], expected[q]) << "query " << q;
      EXPECT_EQ(ours.host64[2 * q], theirs.host64[2 * q]) << "query " << q << " against lavapipe";
      EXPECT_EQ(ours.host64[2 * q + 1], 1u) << "query " << q << " availability";
      EXPECT_EQ(ours.host32[q], uint32_t(expected[q])) << "query " << q << " (32-bit, WAIT)";
   }
   EXPECT_GT(theirs.host64[6], 60u) << "the triangle covers about 72 pixels";
   EXPECT_LT(theirs.host64[6], 84u);
   EXPECT_EQ(ours.host64[2 * 5], sentinel) << "an unavailable query's value is not written without PARTIAL";
   EXPECT_EQ(ours.host64[2 * 5 + 1], 0u) << "query 5 is not available";

   /* The copies: byte for byte what lavapipe wrote (sentinels included where nothing is
    * written), and the values themselves. */
   for (size_t at = 0; at < ours.copies.size(); at++)
      if (ours.copies[at] != theirs.copies[at]) {
         ADD_FAILURE() << "copied results differ from lavapipe's from byte " << at << ": " << int(ours.copies[at])
                       << " against " << int(theirs.copies[at]);
         break;
      }
   auto dword = [&](uint32_t at) {
      uint32_t v;
      std::memcpy(&v, ours.copies.data() + at, 4);
      return v;
   };
   auto qword = [&](uint32_t at) {
      uint64_t v;
      std::memcpy(&v, ours.copies.data() + at, 8);
      return v;
   };
   for (uint32_t q = 0; q < query_count - 1; q++) {
      EXPECT_EQ(dword(4 + 4 * q), uint32_t(expected[q])) << "32-bit copy, query " << q;
      EXPECT_EQ(dword(100 + 12 * q), uint32_t(expected[q])) << "32-bit copy with availability, query " << q;
      EXPECT_EQ(dword(104 + 12 * q), 1u);
      EXPECT_EQ(qword(264 + 16 * q), expected[q]) << "64-bit copy with availability, query " << q;
      EXPECT_EQ(qword(272 + 16 * q), 1u);
      EXPECT_EQ(qword(520 + 8 * q), expected[q]) << "64-bit copy after WAIT, query " << q;
      EXPECT_EQ(qword(1024 + 24 * q), expected[q]) << "64-bit partial copy, query " << q;
      EXPECT_EQ(qword(1032 + 24 * q), 1u);
   }
   EXPECT_EQ(dword(4 + 4 * 5), uint32_t(sentinel)) << "query 5 is not copied";
   EXPECT_EQ(terakan_gpu().messages, 0u);
   EXPECT_EQ(lavapipe().messages, 0u);
}

/* A pool used, reset on the device and on the host, and used again with other draws: the
 * counts restart and the availability goes away with each reset. */
TEST(Queries, ResetAndReuse)
{
   REQUIRE_SCENES();
   for (Scene *scene : {&terakan_gpu(), &lavapipe()}) {
      SCOPED_TRACE(scene == &lavapipe() ? "lavapipe" : "Terakan");
      const std::vector<uint32_t> first = scene->upload({{0, 0, 16, 16, 0.5f}, {0, 0, 8, 4, 0.5f}});
      VkQueryPool pool = scene->make_pool(VK_QUERY_TYPE_OCCLUSION, 2);
      ASSERT_NE(pool, VK_NULL_HANDLE);
      for (uint32_t round = 0; round < 3; round++) {
         VkCommandBuffer commands = scene->begin();
         if (round != 2 || !scene->has_host_reset)
            vkCmdResetQueryPool(commands, pool, 0, 2);
         scene->begin_pass(commands);
         const uint32_t shape = round % 2;
         vkCmdBeginQuery(commands, pool, 0, 0);
         vkCmdDraw(commands, first[shape + 1] - first[shape], 1, first[shape], 0);
         vkCmdEndQuery(commands, pool, 0);
         vkCmdEndRenderPass(commands);
         ASSERT_EQ(scene->submit(commands), VK_SUCCESS);
         uint64_t values[4] = {sentinel, sentinel, sentinel, sentinel};
         EXPECT_EQ(vkGetQueryPoolResults(scene->device, pool, 0, 2, sizeof(values), values, 16,
                                         VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT),
                   VK_NOT_READY);
         EXPECT_EQ(values[0], shape == 0 ? 256u : 32u) << "round " << round;
         EXPECT_EQ(values[1], 1u);
         EXPECT_EQ(values[2], sentinel);
         EXPECT_EQ(values[3], 0u);
         if (round == 1 && scene->has_host_reset) {
            auto reset = reinterpret_cast<PFN_vkResetQueryPoolEXT>(vkGetDeviceProcAddr(scene->device, "vkResetQueryPoolEXT"));
            ASSERT_NE(reset, nullptr);
            reset(scene->device, pool, 0, 2);
            uint32_t after[2] = {7, 7};
            /* With PARTIAL a value is written, so the call succeeds (VK_NOT_READY is for values
             * left unwritten). */
            EXPECT_EQ(vkGetQueryPoolResults(scene->device, pool, 0, 1, sizeof(after), after, 8,
                                            VK_QUERY_RESULT_WITH_AVAILABILITY_BIT | VK_QUERY_RESULT_PARTIAL_BIT),
                      VK_SUCCESS);
            EXPECT_EQ(after[1], 0u) << "a host reset makes the query unavailable";
         }
      }
      vkDestroyQueryPool(scene->device, pool, nullptr);
   }
   EXPECT_TRUE(terakan_gpu().has_host_reset) << "VK_EXT_host_query_reset is offered";
   EXPECT_EQ(terakan_gpu().messages, 0u);
   EXPECT_EQ(lavapipe().messages, 0u);
}

/* Timestamps: the queue family and limits claim them, and two written in order are
 * available and do not go backwards, on the host and through a copy. */
TEST(Queries, Timestamps)
{
   Scene &scene = terakan_gpu();
   ASSERT_TRUE(scene.ok);
   uint32_t count = 1;
   VkQueueFamilyProperties family;
   vkGetPhysicalDeviceQueueFamilyProperties(scene.physical, &count, &family);
   EXPECT_EQ(family.timestampValidBits, 64u);
   VkPhysicalDeviceProperties properties;
   vkGetPhysicalDeviceProperties(scene.physical, &properties);
   EXPECT_TRUE(properties.limits.timestampComputeAndGraphics);
   /* The simulated boards' reference clock is 27 MHz. */
   EXPECT_FLOAT_EQ(properties.limits.timestampPeriod, float(1e6 / 27000.0));

   VkQueryPool pool = scene.make_pool(VK_QUERY_TYPE_TIMESTAMP, 3);
   ASSERT_NE(pool, VK_NULL_HANDLE);
   std::memset(scene.results.map, 0xa5, 64);
   VkCommandBuffer commands = scene.begin();
   vkCmdResetQueryPool(commands, pool, 0, 3);
   vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool, 0);
   vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 1);
   vkCmdCopyQueryPoolResults(commands, pool, 0, 2, scene.results.buffer, 0, 16,
                             VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
   ASSERT_EQ(scene.submit(commands), VK_SUCCESS);
   uint64_t values[6];
   EXPECT_EQ(vkGetQueryPoolResults(scene.device, pool, 0, 3, sizeof(values), values, 16,
                                   VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT),
             VK_NOT_READY);
   EXPECT_EQ(values[1], 1u);
   EXPECT_EQ(values[3], 1u);
   EXPECT_EQ(values[5], 0u) << "query 2 was never written";
   EXPECT_GE(values[2], values[0]);
   EXPECT_NE(values[0], 0u);
   uint64_t copied[6];
   std::memcpy(copied, scene.results.map, sizeof(copied));
   EXPECT_EQ(copied[0], values[0]);
   EXPECT_EQ(copied[1], 1u);
   EXPECT_EQ(copied[2], values[2]);
   EXPECT_EQ(copied[3], 1u);
   EXPECT_EQ(copied[4], sentinel) << "query 2 is not copied";
   vkDestroyQueryPool(scene.device, pool, nullptr);
   EXPECT_EQ(scene.messages, 0u);
}

/* Copies of a query that was reset and never used (the validation layer reports them, so
 * this runs without it): with PARTIAL the value is zero and the availability zero; without,
 * the value is left as it was. lavapipe 22.3 writes zero there too, which the specification
 * does not allow ("no result values are written"), so only the bytes the specification
 * defines are compared with lavapipe's. */
TEST(Queries, UnavailableQueriesInCopies)
{
   struct Results {
      std::vector<uint8_t> bytes;
   } results[2];
   const char *names[2] = {"Terakan", "llvmpipe"};
   for (int d = 0; d < 2; d++) {
      Scene scene(names[d], false);
      if (!scene.ok) {
         if (d == 0)
            FAIL() << "no Terakan device with the scene's objects";
         GTEST_SKIP() << "lavapipe is not installed";
      }
      const std::vector<uint32_t> first = scene.upload({{0, 0, 10, 10, 0.5f}});
      VkQueryPool pool = scene.make_pool(VK_QUERY_TYPE_OCCLUSION, 2);
      ASSERT_NE(pool, VK_NULL_HANDLE);
      std::memset(scene.results.map, 0xa5, 4096);
      VkCommandBuffer commands = scene.begin();
      vkCmdResetQueryPool(commands, pool, 0, 2);
      scene.begin_pass(commands);
      vkCmdBeginQuery(commands, pool, 0, 0);
      vkCmdDraw(commands, first[1] - first[0], 1, first[0], 0);
      vkCmdEndQuery(commands, pool, 0);
      vkCmdEndRenderPass(commands);
      for (const Copy &c : copies)
         if (!(c.flags & VK_QUERY_RESULT_WAIT_BIT))
            vkCmdCopyQueryPoolResults(commands, pool, 0, 2, scene.results.buffer, c.offset, c.stride, c.flags);
      ASSERT_EQ(scene.submit(commands), VK_SUCCESS);
      results[d].bytes.assign(static_cast<uint8_t *>(scene.results.map), static_cast<uint8_t *>(scene.results.map) + 1200);
      vkDestroyQueryPool(scene.device, pool, nullptr);
   }
   const std::vector<uint8_t> &ours = results[0].bytes, &theirs = results[1].bytes;
   auto dword = [](const std::vector<uint8_t> &b, uint32_t at) {
      uint32_t v;
      std::memcpy(&v, b.data() + at, 4);
      return v;
   };
   auto qword = [](const std::vector<uint8_t> &b, uint32_t at) {
      uint64_t v;
      std::memcpy(&v, b.data() + at, 8);
      return v;
   };
   /* Query 0: 100 pixels everywhere. */
   for (const std::vector<uint8_t> *b : {&ours, &theirs}) {
      EXPECT_EQ(dword(*b, 4), 100u);
      EXPECT_EQ(dword(*b, 100), 100u);
      EXPECT_EQ(dword(*b, 104), 1u);
      EXPECT_EQ(qword(*b, 264), 100u);
      EXPECT_EQ(qword(*b, 272), 1u);
      EXPECT_EQ(qword(*b, 1024), 100u);
      EXPECT_EQ(qword(*b, 1032), 1u);
      /* Query 1: availability zero; PARTIAL writes a value between zero and the final
       * result, which for a query with no draws is zero. */
      EXPECT_EQ(dword(*b, 116), 0u);
      EXPECT_EQ(qword(*b, 288), 0u);
      EXPECT_EQ(qword(*b, 1048), 0u);
      EXPECT_EQ(qword(*b, 1056), 0u);
   }
   /* Without PARTIAL nothing is written for query 1. */
   EXPECT_EQ(dword(ours, 8), uint32_t(sentinel));
   EXPECT_EQ(dword(ours, 112), uint32_t(sentinel));
   EXPECT_EQ(qword(ours, 280), sentinel);
   EXPECT_EQ(dword(ours, 120), uint32_t(sentinel)) << "nothing past the last result";
}

/* Pipeline statistics. Three queries: four rectangles (8 triangles, 24 vertices) side by side
 * in front of each other's depth, no overlap; nothing; one triangle wholly behind the far plane
 * (z = 2) drawn three times as instances. Vulkan pins down the input assembly counts (24
 * vertices and 8 primitives; 9 and 3) and the clipping counts of primitives wholly inside the
 * view volume (8 in, 8 out) or wholly outside it (3 in, none out); those must equal lavapipe's
 * and the construction. Vertex and fragment shader invocations are the implementation's to
 * count: Terakan counts each distinct index per instance (24, then 9: nothing is indexed) and
 * every fragment shaded except helpers (the rectangles' 4 x 64 pixels; late depth testing),
 * checked against those numbers, and lavapipe's only for being counted at all. Every result is
 * read on the host in 64 bits with availability, and copied by vkCmdCopyQueryPoolResults in 32
 * and 64 bits with availability (byte-equal to the host's). A second pool asks for two of the
 * statistics only (their order is the bits' order), around the rectangles drawn again: they
 * fail the depth test, which Terakan tests after shading (256 fragment invocations again). */
struct StatisticsResults {
   std::vector<uint64_t> host;      /* per query: the asked statistics, then availability */
   std::vector<uint32_t> copy32;    /* the same, copied in 32 bits */
   std::vector<uint64_t> copy64;    /* the same, copied in 64 bits */
   std::vector<uint64_t> two;       /* the second pool: fragment invocations and IA primitives */
};

constexpr VkQueryPipelineStatisticFlags pinned_statistics =
   VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_VERTICES_BIT | VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_PRIMITIVES_BIT |
   VK_QUERY_PIPELINE_STATISTIC_VERTEX_SHADER_INVOCATIONS_BIT | VK_QUERY_PIPELINE_STATISTIC_CLIPPING_INVOCATIONS_BIT |
   VK_QUERY_PIPELINE_STATISTIC_CLIPPING_PRIMITIVES_BIT | VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT |
   VK_QUERY_PIPELINE_STATISTIC_COMPUTE_SHADER_INVOCATIONS_BIT;
constexpr unsigned statistics_values = 7; /* the bits above, in bit order */

bool run_statistics(Scene &scene, StatisticsResults &out, std::string &error)
{
   const std::vector<uint32_t> first = scene.upload({
      {0, 0, 8, 8, 0.5f}, {8, 0, 16, 8, 0.5f}, {0, 8, 8, 16, 0.5f}, {8, 8, 16, 16, 0.5f},
      {20, 20, -30, 30, 2.0f}, /* a triangle beyond the far plane */
   });
   VkQueryPool pool = scene.make_pool(VK_QUERY_TYPE_PIPELINE_STATISTICS, 3, pinned_statistics);
   const VkQueryPipelineStatisticFlags two_bits =
      VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT | VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_PRIMITIVES_BIT;
   VkQueryPool two = scene.make_pool(VK_QUERY_TYPE_PIPELINE_STATISTICS, 1, two_bits);
   if (!pool || !two) {
      error = "vkCreateQueryPool failed";
      return false;
   }
   std::memset(scene.results.map, 0xa5, 4096);
   VkCommandBuffer commands = scene.begin();
   vkCmdResetQueryPool(commands, pool, 0, 3);
   vkCmdResetQueryPool(commands, two, 0, 1);
   scene.begin_pass(commands);
   vkCmdBeginQuery(commands, pool, 0, 0);
   vkCmdDraw(commands, first[4] - first[0], 1, first[0], 0);
   vkCmdEndQuery(commands, pool, 0);
   /* The rectangles again (failing the depth test) under the second pool's query. */
   vkCmdBeginQuery(commands, two, 0, 0);
   vkCmdDraw(commands, first[4] - first[0], 1, first[0], 0);
   vkCmdEndQuery(commands, two, 0);
   vkCmdBeginQuery(commands, pool, 1, 0);
   vkCmdEndQuery(commands, pool, 1);
   vkCmdBeginQuery(commands, pool, 2, 0);
   vkCmdDraw(commands, 3, 3, first[4], 0);
   vkCmdEndQuery(commands, pool, 2);
   vkCmdEndRenderPass(commands);
   const uint32_t stride64 = 8 * (statistics_values + 1), stride32 = 4 * (statistics_values + 1);
   vkCmdCopyQueryPoolResults(commands, pool, 0, 3, scene.results.buffer, 0, stride32,
                             VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
   vkCmdCopyQueryPoolResults(commands, pool, 0, 3, scene.results.buffer, 512, stride64,
                             VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT | VK_QUERY_RESULT_WAIT_BIT);
   VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
   barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
   barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
   vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0,
                        nullptr, 0, nullptr);
   const VkResult submitted = scene.submit(commands);
   if (submitted != VK_SUCCESS) {
      error = "submission failed: " + std::to_string(submitted);
   } else {
      out.host.assign(3 * (statistics_values + 1), sentinel);
      const VkResult read = vkGetQueryPoolResults(scene.device, pool, 0, 3, out.host.size() * 8, out.host.data(),
                                                  stride64, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
      if (read != VK_SUCCESS)
         error = "vkGetQueryPoolResults returned " + std::to_string(read);
      out.two.assign(2, sentinel);
      vkGetQueryPoolResults(scene.device, two, 0, 1, 16, out.two.data(), 16, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
      const uint8_t *map = static_cast<const uint8_t *>(scene.results.map);
      out.copy32.resize(3 * (statistics_values + 1));
      std::memcpy(out.copy32.data(), map, out.copy32.size() * 4);
      out.copy64.resize(3 * (statistics_values + 1));
      std::memcpy(out.copy64.data(), map + 512, out.copy64.size() * 8);
   }
   vkDestroyQueryPool(scene.device, pool, nullptr);
   vkDestroyQueryPool(scene.device, two, nullptr);
   return error.empty();
}

TEST(Queries, PipelineStatisticsKnownByConstruction)
{
   REQUIRE_SCENES();
   StatisticsResults ours, theirs;
   std::string error;
   const unsigned our_messages = terakan_gpu().messages, their_messages = lavapipe().messages;
   ASSERT_TRUE(run_statistics(terakan_gpu(), ours, error)) << "Terakan: " << error;
   ASSERT_TRUE(run_statistics(lavapipe(), theirs, error)) << "lavapipe: " << error;
   EXPECT_EQ(terakan_gpu().messages, our_messages) << "validation messages on Terakan";
   EXPECT_EQ(lavapipe().messages, their_messages) << "validation messages on lavapipe";
   enum { ia_vertices, ia_primitives, vs, clip_in, clip_out, fs, cs, available };
   const unsigned n = statistics_values + 1;
   /* Pinned by Vulkan: both devices, by construction. */
   const uint64_t pinned[3][5] = {{24, 8, 0, 8, 8}, {0, 0, 0, 0, 0}, {9, 3, 0, 3, 0}};
   for (unsigned q = 0; q < 3; q++) {
      SCOPED_TRACE("query " + std::to_string(q));
      for (const StatisticsResults *r : {&ours, &theirs}) {
         const char *who = r == &ours ? "Terakan" : "lavapipe";
         for (unsigned k : {ia_vertices, ia_primitives, clip_in, clip_out})
            EXPECT_EQ(r->host[q * n + k], pinned[q][k]) << who << ", statistic " << k;
         EXPECT_EQ(r->host[q * n + cs], 0u) << who;
         EXPECT_EQ(r->host[q * n + available], 1u) << who;
      }
   }
   /* The implementation's counts: Terakan's by its definition, lavapipe's counted at all. */
   EXPECT_EQ(ours.host[0 * n + vs], 24u);
   EXPECT_EQ(ours.host[2 * n + vs], 9u);
   EXPECT_EQ(ours.host[0 * n + fs], 256u);
   EXPECT_EQ(ours.host[1 * n + fs], 0u);
   EXPECT_EQ(ours.host[2 * n + fs], 0u);
   EXPECT_GT(theirs.host[0 * n + vs], 0u);
   EXPECT_GT(theirs.host[0 * n + fs], 0u);
   /* The copies equal the host's results. */
   for (size_t i = 0; i < ours.host.size(); i++) {
      EXPECT_EQ(ours.copy64[i], ours.host[i]) << "64-bit copy, value " << i;
      EXPECT_EQ(ours.copy32[i], uint32_t(ours.host[i])) << "32-bit copy, value " << i;
      EXPECT_EQ(theirs.copy64[i], theirs.host[i]) << "lavapipe's 64-bit copy, value " << i;
   }
   /* The two-statistic pool: IA primitives (bit 1) first, then fragment invocations (bit 7). */
   EXPECT_EQ(ours.two[0], 8u);
   EXPECT_EQ(ours.two[1], 256u);
   EXPECT_EQ(theirs.two[0], 8u);
}

/* VK_EXT_conditional_rendering, each draw measured by an occlusion query: rectangles under
 * conditions that are zero or not, inverted or not, one whose value a vkCmdFillBuffer earlier
 * in the same command buffer writes (the CP must read it after the fill), and a
 * vkCmdClearAttachments of the depth to 0 under a false condition (skipped: a rectangle drawn
 * after it with LESS still passes everywhere). Counts by construction and equal to
 * lavapipe's. */
bool run_conditional(Scene &scene, std::vector<uint64_t> &counts, std::string &error)
{
   auto begin_condition = reinterpret_cast<PFN_vkCmdBeginConditionalRenderingEXT>(
      vkGetDeviceProcAddr(scene.device, "vkCmdBeginConditionalRenderingEXT"));
   auto end_condition = reinterpret_cast<PFN_vkCmdEndConditionalRenderingEXT>(
      vkGetDeviceProcAddr(scene.device, "vkCmdEndConditionalRenderingEXT"));
   if (!scene.has_conditional_rendering || !begin_condition || !end_condition) {
      error = "no VK_EXT_conditional_rendering";
      return false;
   }
   const uint32_t values[5] = {0, 7, 0, 0x80000000u, 0xdeadbeefu}; /* [4]: overwritten with 0 by the fill */
   std::memcpy(scene.conditions.map, values, sizeof(values));
   const std::vector<uint32_t> first = scene.upload({
      {0, 0, 4, 4, 0.5f},   /* 0: value 0: skipped */
      {4, 0, 8, 4, 0.5f},   /* 1: value 7: 16 */
      {8, 0, 12, 4, 0.5f},  /* 2: value 0, inverted: 16 */
      {12, 0, 16, 4, 0.5f}, /* 3: 0x80000000, inverted: skipped */
      {16, 0, 20, 4, 0.5f}, /* 4: 0xdeadbeef filled with 0 first: skipped; inverted: 16 */
      {0, 8, 8, 16, 0.5f},  /* 5: after a skipped depth clear to 0: 64 */
   });
   constexpr uint32_t queries = 7;
   VkQueryPool pool = scene.make_pool(VK_QUERY_TYPE_OCCLUSION, queries);
   if (!pool) {
      error = "vkCreateQueryPool failed";
      return false;
   }
   VkCommandBuffer commands = scene.begin();
   vkCmdResetQueryPool(commands, pool, 0, queries);
   vkCmdFillBuffer(commands, scene.conditions.buffer, 16, 4, 0);
   VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
   barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
   barrier.dstAccessMask = VK_ACCESS_CONDITIONAL_RENDERING_READ_BIT_EXT;
   vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_CONDITIONAL_RENDERING_BIT_EXT, 0, 1,
                        &barrier, 0, nullptr, 0, nullptr);
   scene.begin_pass(commands);
   auto conditional_draw = [&](uint32_t query, uint32_t shape, uint32_t value_index, bool inverted) {
      VkConditionalRenderingBeginInfoEXT info{VK_STRUCTURE_TYPE_CONDITIONAL_RENDERING_BEGIN_INFO_EXT};
      info.buffer = scene.conditions.buffer;
      info.offset = 4 * value_index;
      info.flags = inverted ? VK_CONDITIONAL_RENDERING_INVERTED_BIT_EXT : 0;
      vkCmdBeginQuery(commands, pool, query, VK_QUERY_CONTROL_PRECISE_BIT);
      begin_condition(commands, &info);
      vkCmdDraw(commands, first[shape + 1] - first[shape], 1, first[shape], 0);
      end_condition(commands);
      vkCmdEndQuery(commands, pool, query);
   };
   conditional_draw(0, 0, 0, false);
   conditional_draw(1, 1, 1, false);
   conditional_draw(2, 2, 2, true);
   conditional_draw(3, 3, 3, true);
   conditional_draw(4, 4, 4, false);
   /* The depth clear to 0 under a false condition, then rectangle 5 outside any condition. */
   VkConditionalRenderingBeginInfoEXT info{VK_STRUCTURE_TYPE_CONDITIONAL_RENDERING_BEGIN_INFO_EXT};
   info.buffer = scene.conditions.buffer;
   info.offset = 0;
   begin_condition(commands, &info);
   VkClearAttachment clear{VK_IMAGE_ASPECT_DEPTH_BIT, 0, {}};
   clear.clearValue.depthStencil = {0.0f, 0};
   VkClearRect rect{{{0, 0}, {size, size}}, 0, 1};
   vkCmdClearAttachments(commands, 1, &clear, 1, &rect);
   end_condition(commands);
   vkCmdBeginQuery(commands, pool, 5, VK_QUERY_CONTROL_PRECISE_BIT);
   vkCmdDraw(commands, first[6] - first[5], 1, first[5], 0);
   vkCmdEndQuery(commands, pool, 5);
   /* Rectangle 4 again, inverted on the filled zero: drawn (nothing was drawn there before): 16. */
   conditional_draw(6, 4, 4, true);
   vkCmdEndRenderPass(commands);
   const VkResult submitted = scene.submit(commands);
   if (submitted != VK_SUCCESS)
      error = "submission failed: " + std::to_string(submitted);
   counts.assign(queries, sentinel);
   if (error.empty() && vkGetQueryPoolResults(scene.device, pool, 0, queries, queries * 8, counts.data(), 8,
                                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) != VK_SUCCESS)
      error = "vkGetQueryPoolResults failed";
   vkDestroyQueryPool(scene.device, pool, nullptr);
   return error.empty();
}

TEST(Queries, ConditionalRenderingSkipsWhatTheBufferSays)
{
   REQUIRE_SCENES();
   std::vector<uint64_t> ours, theirs;
   std::string error;
   const unsigned our_messages = terakan_gpu().messages, their_messages = lavapipe().messages;
   ASSERT_TRUE(run_conditional(terakan_gpu(), ours, error)) << "Terakan: " << error;
   ASSERT_TRUE(run_conditional(lavapipe(), theirs, error)) << "lavapipe: " << error;
   EXPECT_EQ(terakan_gpu().messages, our_messages) << "validation messages on Terakan";
   EXPECT_EQ(lavapipe().messages, their_messages) << "validation messages on lavapipe";
   const std::vector<uint64_t> expected = {0, 16, 16, 0, 0, 64, 16};
   EXPECT_EQ(ours, expected);
   EXPECT_EQ(theirs, expected);
}

/* vkCmdDrawIndirectCount (VK_KHR_draw_indirect_count) under VK_EXT_conditional_rendering:
 * each call may draw three rectangles of 16, 32 and 64 pixels from three records in a buffer
 * (every subset has its own sum), inside one occlusion query; the count and the condition both
 * decide. Each call's rectangles lie nearer than the last's, so LESS passes wherever they
 * draw. Counts by construction and equal to lavapipe's. */
bool run_counted_conditional(Scene &scene, std::vector<uint64_t> &counts, std::string &error)
{
   auto begin_condition = reinterpret_cast<PFN_vkCmdBeginConditionalRenderingEXT>(
      vkGetDeviceProcAddr(scene.device, "vkCmdBeginConditionalRenderingEXT"));
   auto end_condition = reinterpret_cast<PFN_vkCmdEndConditionalRenderingEXT>(
      vkGetDeviceProcAddr(scene.device, "vkCmdEndConditionalRenderingEXT"));
   auto draw_count = reinterpret_cast<PFN_vkCmdDrawIndirectCountKHR>(
      vkGetDeviceProcAddr(scene.device, "vkCmdDrawIndirectCountKHR"));
   if (!scene.has_conditional_rendering || !scene.has_draw_indirect_count || !begin_condition || !end_condition ||
       !draw_count) {
      error = "no VK_EXT_conditional_rendering or VK_KHR_draw_indirect_count";
      return false;
   }
   /* Calls: the condition value's offset (or none), inverted, the count's offset. */
   struct Call {
      int condition;
      bool inverted;
      uint32_t count_offset;
   };
   const Call calls[] = {
      {-1, false, 8},  /* no condition, count 2: records 0 and 1 */
      {0, false, 8},   /* condition 0: nothing */
      {4, false, 8},   /* condition 7, count 2 */
      {0, true, 12},   /* inverted 0 (draws), count 5 > maxDrawCount 3: all three */
      {4, true, 12},   /* inverted 7: nothing */
      {-1, false, 16}, /* count 0: nothing */
      {4, false, 20},  /* condition 7, count 1: record 0 */
   };
   constexpr uint32_t call_count = sizeof(calls) / sizeof(calls[0]);
   std::vector<Scene::Shape> shapes;
   for (uint32_t c = 0; c < call_count; c++) {
      const float z = 0.9f - 0.1f * float(c);
      shapes.push_back({0, 0, 4, 4, z});
      shapes.push_back({4, 0, 12, 4, z});
      shapes.push_back({0, 8, 8, 16, z});
   }
   const std::vector<uint32_t> first = scene.upload(shapes);
   /* Conditions at 0 (value 0) and 4 (value 7); counts at 8, 12, 16, 20; records from 256,
    * three of 16 bytes per call. */
   const uint32_t words[6] = {0, 7, 2, 5, 0, 1};
   std::memcpy(scene.conditions.map, words, sizeof(words));
   for (uint32_t k = 0; k < 3 * call_count; k++) {
      const VkDrawIndirectCommand record{first[k + 1] - first[k], 1, first[k], 0};
      std::memcpy(static_cast<uint8_t *>(scene.conditions.map) + 256 + 16 * k, &record, sizeof(record));
   }
   VkQueryPool pool = scene.make_pool(VK_QUERY_TYPE_OCCLUSION, call_count);
   if (!pool) {
      error = "vkCreateQueryPool failed";
      return false;
   }
   VkCommandBuffer commands = scene.begin();
   vkCmdResetQueryPool(commands, pool, 0, call_count);
   scene.begin_pass(commands);
   for (uint32_t c = 0; c < call_count; c++) {
      if (calls[c].condition >= 0) {
         VkConditionalRenderingBeginInfoEXT info{VK_STRUCTURE_TYPE_CONDITIONAL_RENDERING_BEGIN_INFO_EXT};
         info.buffer = scene.conditions.buffer;
         info.offset = uint32_t(calls[c].condition);
         info.flags = calls[c].inverted ? VK_CONDITIONAL_RENDERING_INVERTED_BIT_EXT : 0;
         begin_condition(commands, &info);
      }
      vkCmdBeginQuery(commands, pool, c, VK_QUERY_CONTROL_PRECISE_BIT);
      draw_count(commands, scene.conditions.buffer, 256 + 48 * c, scene.conditions.buffer, calls[c].count_offset, 3,
                 16);
      vkCmdEndQuery(commands, pool, c);
      if (calls[c].condition >= 0)
         end_condition(commands);
   }
   vkCmdEndRenderPass(commands);
   const VkResult submitted = scene.submit(commands);
   if (submitted != VK_SUCCESS)
      error = "submission failed: " + std::to_string(submitted);
   counts.assign(call_count, sentinel);
   if (error.empty() && vkGetQueryPoolResults(scene.device, pool, 0, call_count, call_count * 8, counts.data(), 8,
                                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) != VK_SUCCESS)
      error = "vkGetQueryPoolResults failed";
   vkDestroyQueryPool(scene.device, pool, nullptr);
   return error.empty();
}

TEST(Queries, CountedIndirectDrawsUnderAConditionDrawWhatBothSay)
{
   REQUIRE_SCENES();
   std::vector<uint64_t> ours, theirs;
   std::string error;
   const unsigned our_messages = terakan_gpu().messages, their_messages = lavapipe().messages;
   ASSERT_TRUE(run_counted_conditional(terakan_gpu(), ours, error)) << "Terakan: " << error;
   ASSERT_TRUE(run_counted_conditional(lavapipe(), theirs, error)) << "lavapipe: " << error;
   EXPECT_EQ(terakan_gpu().messages, our_messages) << "validation messages on Terakan";
   EXPECT_EQ(lavapipe().messages, their_messages) << "validation messages on lavapipe";
   /* Records 0, 1, 2 cover 16, 32 and 64 pixels. */
   const std::vector<uint64_t> expected = {16 + 32, 0, 16 + 32, 16 + 32 + 64, 0, 0, 16};
   EXPECT_EQ(ours, expected);
   EXPECT_EQ(theirs, expected);
}

/* Without the layer: what the driver refuses, and a device-side WAIT on a query that never
 * ends (the CP would wait forever; the simulator says so and the device is lost). */
TEST(QueriesBadInput, FeaturesOffered)
{
   Scene scene("Terakan", false);
   ASSERT_TRUE(scene.ok);
   VkPhysicalDeviceFeatures features;
   vkGetPhysicalDeviceFeatures(scene.physical, &features);
   EXPECT_TRUE(features.pipelineStatisticsQuery);
   EXPECT_FALSE(features.inheritedQueries);
   EXPECT_TRUE(features.occlusionQueryPrecise);
}

TEST(QueriesBadInput, DeviceWaitOnAQueryThatNeverEndsLosesTheDevice)
{
   Scene scene("Terakan", false);
   ASSERT_TRUE(scene.ok);
   VkQueryPool pool = scene.make_pool(VK_QUERY_TYPE_OCCLUSION, 1);
   ASSERT_NE(pool, VK_NULL_HANDLE);
   VkCommandBuffer commands = scene.begin();
   vkCmdResetQueryPool(commands, pool, 0, 1);
   vkCmdCopyQueryPoolResults(commands, pool, 0, 1, scene.results.buffer, 0, 8,
                             VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
   EXPECT_EQ(scene.submit(commands), VK_ERROR_DEVICE_LOST);
   uint64_t value = 0;
   EXPECT_EQ(vkGetQueryPoolResults(scene.device, pool, 0, 1, 8, &value, 8, VK_QUERY_RESULT_64_BIT),
             VK_ERROR_DEVICE_LOST);
   vkDestroyQueryPool(scene.device, pool, nullptr);
}

} // namespace
