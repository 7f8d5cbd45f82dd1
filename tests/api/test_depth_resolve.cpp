/* Depth and stencil resolves (VK_KHR_depth_stencil_resolve) on the simulated card and on
 * lavapipe, with the Khronos validation layer counting messages. A render pass (through the
 * "2" commands) draws three flat triangles into a 4-sample depth/stencil attachment (LESS,
 * stencil REPLACE with a reference per triangle, cleared to depth 1 and stencil 5) and resolves
 * it at its end into a single-sample image (VkSubpassDescriptionDepthStencilResolve) with
 * pairs of modes; the resolved depth and stencil are read back and compared with the CPU's
 * model of every sample at Vulkan's standard positions (stencil exactly, depth within one unorm
 * step: AVERAGE divides in float and may round either way) and, for SAMPLE_ZERO, with lavapipe's
 * result (the one mode lavapipe resolves as specified: Case::lavapipe_has_it).
 *
 * Vertices lie on the 1/16-pixel grid and off the 4x sample positions, so both rasterizers
 * cover the same samples (docs/status.md, the MSAA rows); the triangles' edges cross pixels, so
 * the samples of an edge pixel differ and every mode gives its own answer there. */
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "../vulkan_helpers.h"
#include "session.h"

namespace {

using namespace terakan::test;

constexpr uint32_t size = 32;
constexpr uint32_t stencil_clear = 5;
constexpr uint32_t stencil_refs[3] = {10, 20, 200};

struct Vertex {
   float x, y, z, w, r, g, b, a;
};

/* A triangle in pixels (1/16 steps) at depth z. */
void triangle(std::vector<Vertex> &out, float x0, float y0, float x1, float y1, float x2, float y2, float z)
{
   for (auto [x, y] : {std::pair{x0, y0}, std::pair{x1, y1}, std::pair{x2, y2}})
      out.push_back({x / (size / 2.0f) - 1.0f, y / (size / 2.0f) - 1.0f, z, 1, 0, 0, 0, 1});
}

std::vector<Vertex> scene()
{
   std::vector<Vertex> v;
   triangle(v, 1.0625f, 1.0625f, 30.0625f, 3.1875f, 4.3125f, 28.0625f, 0.75f);
   triangle(v, 9.0625f, 0.0625f, 32.0f, 20.1875f, 2.0625f, 16.0625f, 0.25f);
   triangle(v, 0.0625f, 31.9375f, 20.1875f, 12.0625f, 28.0625f, 30.3125f, 0.5f);
   return v;
}

bool has_stencil(VkFormat format)
{
   return format == VK_FORMAT_D24_UNORM_S8_UINT || format == VK_FORMAT_D32_SFLOAT_S8_UINT;
}

uint32_t depth_bytes(VkFormat format)
{
   return format == VK_FORMAT_D16_UNORM ? 2 : 4;
}

struct Result {
   std::vector<uint8_t> depth, stencil;
};

Result run(const char *name, VkFormat format, VkResolveModeFlagBits depth_mode, VkResolveModeFlagBits stencil_mode,
           unsigned &messages, std::string &error)
{
   Result result;
   SessionOptions options;
   options.application = "terakan-api-depth-resolve";
   options.device_extensions = {VK_KHR_CREATE_RENDERPASS_2_EXTENSION_NAME, VK_KHR_DEPTH_STENCIL_RESOLVE_EXTENSION_NAME};
   Session session;
   if (!session.open(name, messages, error, options))
      return result;
   VkDevice device = session.device;
   auto destroy_later = [&](auto destroy, auto object) { session.later([=] { destroy(device, object, nullptr); }); };
   auto create_render_pass2 =
      reinterpret_cast<PFN_vkCreateRenderPass2KHR>(vkGetDeviceProcAddr(device, "vkCreateRenderPass2KHR"));
   const VkImageAspectFlags aspects = VK_IMAGE_ASPECT_DEPTH_BIT | (has_stencil(format) ? VK_IMAGE_ASPECT_STENCIL_BIT : 0);

   void *vertex_map = nullptr, *readback_map = nullptr;
   const std::vector<Vertex> vertices = scene();
   const VkDeviceSize depth_size = VkDeviceSize(size) * size * depth_bytes(format), stencil_size = size * size;
   do {
      VkImageCreateInfo image_info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
      image_info.imageType = VK_IMAGE_TYPE_2D;
      image_info.format = format;
      image_info.extent = {size, size, 1};
      image_info.mipLevels = image_info.arrayLayers = 1;
      image_info.samples = VK_SAMPLE_COUNT_4_BIT;
      image_info.tiling = VK_IMAGE_TILING_OPTIMAL;
      image_info.usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT;
      const VkImage multisampled = session.image(image_info);
      image_info.samples = VK_SAMPLE_COUNT_1_BIT;
      image_info.usage |= VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
      const VkImage resolved = session.image(image_info);
      if (!multisampled || !resolved) {
         error = "image creation failed";
         break;
      }
      const VkImageView views[2] = {session.view(multisampled, VK_IMAGE_VIEW_TYPE_2D, format, {aspects, 0, 1, 0, 1}),
                                    session.view(resolved, VK_IMAGE_VIEW_TYPE_2D, format, {aspects, 0, 1, 0, 1})};
      const VkBuffer vertex_buffer =
         session.buffer(vertices.size() * sizeof(Vertex), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, vertex_map);
      const VkBuffer readback = session.buffer(depth_size + stencil_size, VK_BUFFER_USAGE_TRANSFER_DST_BIT, readback_map);
      if (!views[0] || !views[1] || !vertex_buffer || !readback) {
         error = "view or buffer creation failed";
         break;
      }
      std::memcpy(vertex_map, vertices.data(), vertices.size() * sizeof(Vertex));

      VkAttachmentDescription2 attachments[2] = {};
      for (unsigned a = 0; a < 2; a++) {
         attachments[a].sType = VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2;
         attachments[a].format = format;
         attachments[a].samples = a == 0 ? VK_SAMPLE_COUNT_4_BIT : VK_SAMPLE_COUNT_1_BIT;
         attachments[a].loadOp = a == 0 ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_DONT_CARE;
         attachments[a].storeOp = a == 0 ? VK_ATTACHMENT_STORE_OP_DONT_CARE : VK_ATTACHMENT_STORE_OP_STORE;
         attachments[a].stencilLoadOp = attachments[a].loadOp;
         attachments[a].stencilStoreOp = attachments[a].storeOp;
         attachments[a].initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
         attachments[a].finalLayout =
            a == 0 ? VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL : VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
      }
      const VkAttachmentReference2 depth_ref{VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, nullptr, 0,
                                             VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL, aspects};
      const VkAttachmentReference2 resolve_ref{VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, nullptr, 1,
                                               VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL, aspects};
      VkSubpassDescriptionDepthStencilResolve resolve{VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_DEPTH_STENCIL_RESOLVE};
      resolve.depthResolveMode = depth_mode;
      resolve.stencilResolveMode = stencil_mode;
      resolve.pDepthStencilResolveAttachment = &resolve_ref;
      VkSubpassDescription2 subpass{VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_2, &resolve};
      subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
      subpass.pDepthStencilAttachment = &depth_ref;
      VkSubpassDependency2 to_copy{VK_STRUCTURE_TYPE_SUBPASS_DEPENDENCY_2};
      to_copy.srcSubpass = 0;
      to_copy.dstSubpass = VK_SUBPASS_EXTERNAL;
      to_copy.srcStageMask = VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
      to_copy.dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
      to_copy.srcAccessMask = VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
      to_copy.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
      VkRenderPassCreateInfo2 pass_info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2};
      pass_info.attachmentCount = 2;
      pass_info.pAttachments = attachments;
      pass_info.subpassCount = 1;
      pass_info.pSubpasses = &subpass;
      pass_info.dependencyCount = 1;
      pass_info.pDependencies = &to_copy;
      VkRenderPass pass = VK_NULL_HANDLE;
      if (create_render_pass2(device, &pass_info, nullptr, &pass) != VK_SUCCESS) {
         error = "render pass creation failed";
         break;
      }
      destroy_later(vkDestroyRenderPass, pass);
      VkFramebufferCreateInfo fb_info{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
      fb_info.renderPass = pass;
      fb_info.attachmentCount = 2;
      fb_info.pAttachments = views;
      fb_info.width = fb_info.height = size;
      fb_info.layers = 1;
      VkFramebuffer framebuffer = VK_NULL_HANDLE;
      if (vkCreateFramebuffer(device, &fb_info, nullptr, &framebuffer) != VK_SUCCESS) {
         error = "framebuffer creation failed";
         break;
      }
      destroy_later(vkDestroyFramebuffer, framebuffer);

      VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
      VkPipelineLayout pipeline_layout = VK_NULL_HANDLE;
      const VkShaderModule module = session.module("coloured.vert");
      if (vkCreatePipelineLayout(device, &layout_info, nullptr, &pipeline_layout) != VK_SUCCESS || !module) {
         error = "pipeline layout or shader creation failed";
         break;
      }
      destroy_later(vkDestroyPipelineLayout, pipeline_layout);
      VkPipelineShaderStageCreateInfo stage{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
      stage.stage = VK_SHADER_STAGE_VERTEX_BIT;
      stage.module = module;
      stage.pName = "main";
      const VkVertexInputBindingDescription binding{0, sizeof(Vertex), VK_VERTEX_INPUT_RATE_VERTEX};
      const VkVertexInputAttributeDescription attributes[2] = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0},
                                                               {1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 16}};
      VkPipelineVertexInputStateCreateInfo vertex_input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
      vertex_input.vertexBindingDescriptionCount = 1;
      vertex_input.pVertexBindingDescriptions = &binding;
      vertex_input.vertexAttributeDescriptionCount = 2;
      vertex_input.pVertexAttributeDescriptions = attributes;
      VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
      assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
      const VkViewport viewport{0, 0, float(size), float(size), 0, 1};
      const VkRect2D scissor{{0, 0}, {size, size}};
      VkPipelineViewportStateCreateInfo viewport_state{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
      viewport_state.viewportCount = viewport_state.scissorCount = 1;
      viewport_state.pViewports = &viewport;
      viewport_state.pScissors = &scissor;
      VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
      raster.cullMode = VK_CULL_MODE_NONE;
      raster.lineWidth = 1.0f;
      VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
      multisample.rasterizationSamples = VK_SAMPLE_COUNT_4_BIT;
      VkPipelineDepthStencilStateCreateInfo depth_state{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
      depth_state.depthTestEnable = depth_state.depthWriteEnable = VK_TRUE;
      depth_state.depthCompareOp = VK_COMPARE_OP_LESS;
      depth_state.stencilTestEnable = has_stencil(format);
      depth_state.front = {VK_STENCIL_OP_KEEP, VK_STENCIL_OP_REPLACE, VK_STENCIL_OP_KEEP, VK_COMPARE_OP_ALWAYS,
                           0xff, 0xff, 0};
      depth_state.back = depth_state.front;
      const VkDynamicState dynamic_state = VK_DYNAMIC_STATE_STENCIL_REFERENCE;
      VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
      dynamic.dynamicStateCount = 1;
      dynamic.pDynamicStates = &dynamic_state;
      VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
      info.stageCount = 1;
      info.pStages = &stage;
      info.pVertexInputState = &vertex_input;
      info.pInputAssemblyState = &assembly;
      info.pViewportState = &viewport_state;
      info.pRasterizationState = &raster;
      info.pMultisampleState = &multisample;
      info.pDepthStencilState = &depth_state;
      info.pDynamicState = &dynamic;
      info.layout = pipeline_layout;
      info.renderPass = pass;
      VkPipeline pipeline = VK_NULL_HANDLE;
      if (vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline) != VK_SUCCESS) {
         error = "pipeline creation failed";
         break;
      }
      destroy_later(vkDestroyPipeline, pipeline);

      VkCommandBuffer commands = session.begin();
      VkClearValue clears[2] = {};
      clears[0].depthStencil = {1.0f, stencil_clear};
      VkRenderPassBeginInfo pass_begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
      pass_begin.renderPass = pass;
      pass_begin.framebuffer = framebuffer;
      pass_begin.renderArea = {{0, 0}, {size, size}};
      pass_begin.clearValueCount = 2;
      pass_begin.pClearValues = clears;
      vkCmdBeginRenderPass(commands, &pass_begin, VK_SUBPASS_CONTENTS_INLINE);
      vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
      const VkDeviceSize offset = 0;
      vkCmdBindVertexBuffers(commands, 0, 1, &vertex_buffer, &offset);
      for (uint32_t t = 0; t < 3; t++) {
         vkCmdSetStencilReference(commands, VK_STENCIL_FACE_FRONT_AND_BACK, stencil_refs[t]);
         vkCmdDraw(commands, 3, 1, 3 * t, 0);
      }
      vkCmdEndRenderPass(commands);
      VkBufferImageCopy regions[2] = {};
      regions[0].imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1};
      regions[1].bufferOffset = depth_size;
      regions[1].imageSubresource = {VK_IMAGE_ASPECT_STENCIL_BIT, 0, 0, 1};
      for (VkBufferImageCopy &r : regions)
         r.imageExtent = {size, size, 1};
      vkCmdCopyImageToBuffer(commands, resolved, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback,
                             has_stencil(format) ? 2 : 1, regions);
      VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
      to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
      to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
      vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0,
                           nullptr, 0, nullptr);
      if (session.submit_and_wait(commands) != VK_SUCCESS) {
         error = "submission failed";
         break;
      }
      const uint8_t *bytes = static_cast<const uint8_t *>(readback_map);
      result.depth.assign(bytes, bytes + depth_size);
      if (has_stencil(format))
         result.stencil.assign(bytes + depth_size, bytes + depth_size + stencil_size);
   } while (false);
   return result;
}

/* The depth as a float from the readback (D16, D24 in 24 bits, D32F). */
double depth_at(VkFormat format, const std::vector<uint8_t> &depth, unsigned x, unsigned y)
{
   const size_t i = size_t(y) * size + x;
   if (format == VK_FORMAT_D16_UNORM) {
      uint16_t v;
      std::memcpy(&v, &depth[2 * i], 2);
      return v / 65535.0;
   }
   uint32_t v;
   std::memcpy(&v, &depth[4 * i], 4);
   if (format == VK_FORMAT_D24_UNORM_S8_UINT)
      return (v & 0xffffff) / 16777215.0;
   float f;
   std::memcpy(&f, &v, 4);
   return f;
}

/* The CPU's model of the scene at Vulkan's standard 4x sample positions: each sample's depth
 * and stencil after the three draws (LESS against the clear value 1; REPLACE where the depth
 * test passes). No sample lies on an edge (checked), so no tie rule is involved. */
struct SampleModel {
   double depth[size][size][4];
   uint32_t stencil[size][size][4];
   bool ambiguous = false;
};

SampleModel model_scene()
{
   static const double positions[4][2] = {{0.375, 0.125}, {0.875, 0.375}, {0.125, 0.625}, {0.625, 0.875}};
   SampleModel m;
   const std::vector<Vertex> v = scene();
   auto pixel_x = [](const Vertex &p) { return (double(p.x) + 1.0) * (size / 2.0); };
   auto pixel_y = [](const Vertex &p) { return (double(p.y) + 1.0) * (size / 2.0); };
   for (unsigned y = 0; y < size; y++)
      for (unsigned x = 0; x < size; x++)
         for (unsigned s = 0; s < 4; s++) {
            double depth = 1.0;
            uint32_t stencil = stencil_clear;
            const double px = x + positions[s][0], py = y + positions[s][1];
            for (unsigned t = 0; t < 3; t++) {
               double e[3];
               for (unsigned k = 0; k < 3; k++) {
                  const Vertex &a = v[3 * t + k], &b = v[3 * t + (k + 1) % 3];
                  e[k] = (pixel_x(b) - pixel_x(a)) * (py - pixel_y(a)) - (pixel_y(b) - pixel_y(a)) * (px - pixel_x(a));
                  m.ambiguous |= e[k] == 0.0;
               }
               const bool inside = (e[0] > 0 && e[1] > 0 && e[2] > 0) || (e[0] < 0 && e[1] < 0 && e[2] < 0);
               if (inside && v[3 * t].z < depth) {
                  depth = v[3 * t].z;
                  stencil = stencil_refs[t];
               }
            }
            m.depth[y][x][s] = depth;
            m.stencil[y][x][s] = stencil;
         }
   return m;
}

/* A depth as the format stores it. */
double stored_depth(VkFormat format, double z)
{
   switch (format) {
   case VK_FORMAT_D16_UNORM: return std::round(z * 65535.0) / 65535.0;
   case VK_FORMAT_D24_UNORM_S8_UINT: return std::round(z * 16777215.0) / 16777215.0;
   default: return double(float(z));
   }
}

/* The resolved depth of the samples' stored values (then stored again by the caller's
 * tolerance of one step). */
double resolve_depth(VkFormat format, const double (&exact)[4], VkResolveModeFlagBits mode)
{
   double samples[4];
   for (unsigned s = 0; s < 4; s++)
      samples[s] = stored_depth(format, exact[s]);
   switch (mode) {
   case VK_RESOLVE_MODE_AVERAGE_BIT: return (samples[0] + samples[1] + samples[2] + samples[3]) / 4.0;
   case VK_RESOLVE_MODE_MIN_BIT: return std::min(std::min(samples[0], samples[1]), std::min(samples[2], samples[3]));
   case VK_RESOLVE_MODE_MAX_BIT: return std::max(std::max(samples[0], samples[1]), std::max(samples[2], samples[3]));
   default: return samples[0];
   }
}

uint32_t resolve_stencil(const uint32_t (&samples)[4], VkResolveModeFlagBits mode)
{
   switch (mode) {
   case VK_RESOLVE_MODE_MIN_BIT: return std::min(std::min(samples[0], samples[1]), std::min(samples[2], samples[3]));
   case VK_RESOLVE_MODE_MAX_BIT: return std::max(std::max(samples[0], samples[1]), std::max(samples[2], samples[3]));
   default: return samples[0];
   }
}

struct Case {
   VkFormat format;
   VkResolveModeFlagBits depth_mode, stencil_mode;
   /* lavapipe 22.3 offers depth SAMPLE_ZERO and AVERAGE, stencil SAMPLE_ZERO, the two aspects
    * alike; its AVERAGE gives sample 0's depth here (seen in this test), so only SAMPLE_ZERO is
    * compared with it. */
   bool lavapipe_has_it;
};

class DepthResolve : public ::testing::TestWithParam<Case> {};

TEST_P(DepthResolve, EqualsTheModelAndLavapipe)
{
   const Case c = GetParam();
   const SampleModel model = model_scene();
   ASSERT_FALSE(model.ambiguous) << "a sample lies on an edge: move the scene's vertices";
   unsigned our_messages = 0, their_messages = 0;
   std::string error;
   const Result ours = run("Terakan", c.format, c.depth_mode, c.stencil_mode, our_messages, error);
   ASSERT_FALSE(ours.depth.empty()) << "Terakan: " << error;
   EXPECT_EQ(our_messages, 0u);
   Result theirs;
   if (c.lavapipe_has_it) {
      theirs = run("llvmpipe", c.format, c.depth_mode, c.stencil_mode, their_messages, error);
      ASSERT_FALSE(theirs.depth.empty()) << "lavapipe: " << error;
      EXPECT_EQ(their_messages, 0u);
   }
   /* One unorm step (the float depth's encoding and AVERAGE's division may round either way). */
   const double step = c.format == VK_FORMAT_D16_UNORM ? 1.0 / 65535.0
                       : c.format == VK_FORMAT_D24_UNORM_S8_UINT ? 1.0 / 16777215.0
                                                                 : 1e-7;
   unsigned depth_wrong = 0, stencil_wrong = 0, unlike_lavapipe = 0, mixed = 0;
   /* An aspect resolved with NONE keeps what the destination held (undefined here). */
   const bool check_depth = c.depth_mode != VK_RESOLVE_MODE_NONE;
   const bool check_stencil = !ours.stencil.empty() && c.stencil_mode != VK_RESOLVE_MODE_NONE;
   for (unsigned y = 0; y < size; y++)
      for (unsigned x = 0; x < size; x++) {
         mixed += model.depth[y][x][0] != model.depth[y][x][1] || model.depth[y][x][0] != model.depth[y][x][3];
         if (check_depth) {
            const double got = depth_at(c.format, ours.depth, x, y);
            const double expected = resolve_depth(c.format, model.depth[y][x], c.depth_mode);
            if (std::fabs(got - expected) > step * 1.01 && depth_wrong++ < 10)
               ADD_FAILURE() << "depth at " << x << "," << y << ": Terakan " << got << ", expected " << expected;
            if (c.lavapipe_has_it) {
               const double reference = depth_at(c.format, theirs.depth, x, y);
               if (std::fabs(got - reference) > step * 1.01 && unlike_lavapipe++ < 10)
                  ADD_FAILURE() << "depth at " << x << "," << y << ": Terakan " << got << ", lavapipe " << reference;
            }
         }
         if (check_stencil) {
            const uint32_t stencil = ours.stencil[y * size + x];
            const uint32_t expected = resolve_stencil(model.stencil[y][x], c.stencil_mode);
            if (stencil != expected && stencil_wrong++ < 10)
               ADD_FAILURE() << "stencil at " << x << "," << y << ": Terakan " << stencil << ", expected " << expected;
            if (c.lavapipe_has_it && stencil != theirs.stencil[y * size + x] && unlike_lavapipe++ < 10)
               ADD_FAILURE() << "stencil at " << x << "," << y << ": Terakan " << stencil << ", lavapipe "
                             << unsigned(theirs.stencil[y * size + x]);
         }
      }
   EXPECT_EQ(depth_wrong, 0u);
   EXPECT_EQ(stencil_wrong, 0u);
   EXPECT_EQ(unlike_lavapipe, 0u);
   EXPECT_GT(mixed, 20u); /* edge pixels whose samples differ, where the modes disagree */
}

std::string case_name(const ::testing::TestParamInfo<Case> &info)
{
   auto mode = [](VkResolveModeFlagBits m) {
      switch (m) {
      case VK_RESOLVE_MODE_SAMPLE_ZERO_BIT: return "Zero";
      case VK_RESOLVE_MODE_AVERAGE_BIT: return "Average";
      case VK_RESOLVE_MODE_MIN_BIT: return "Min";
      case VK_RESOLVE_MODE_MAX_BIT: return "Max";
      default: return "None";
      }
   };
   const char *format = info.param.format == VK_FORMAT_D24_UNORM_S8_UINT    ? "D24S8"
                        : info.param.format == VK_FORMAT_D32_SFLOAT_S8_UINT ? "D32FS8"
                        : info.param.format == VK_FORMAT_D16_UNORM          ? "D16"
                                                                            : "D32F";
   return std::string(format) + "_Depth" + mode(info.param.depth_mode) + "_Stencil" + mode(info.param.stencil_mode);
}

INSTANTIATE_TEST_SUITE_P(
   Modes, DepthResolve,
   ::testing::Values(
      Case{VK_FORMAT_D24_UNORM_S8_UINT, VK_RESOLVE_MODE_SAMPLE_ZERO_BIT, VK_RESOLVE_MODE_SAMPLE_ZERO_BIT, true},
      Case{VK_FORMAT_D32_SFLOAT_S8_UINT, VK_RESOLVE_MODE_SAMPLE_ZERO_BIT, VK_RESOLVE_MODE_SAMPLE_ZERO_BIT, true},
      Case{VK_FORMAT_D16_UNORM, VK_RESOLVE_MODE_AVERAGE_BIT, VK_RESOLVE_MODE_NONE, false},
      Case{VK_FORMAT_D32_SFLOAT, VK_RESOLVE_MODE_AVERAGE_BIT, VK_RESOLVE_MODE_NONE, false},
      Case{VK_FORMAT_D16_UNORM, VK_RESOLVE_MODE_SAMPLE_ZERO_BIT, VK_RESOLVE_MODE_NONE, true},
      Case{VK_FORMAT_D24_UNORM_S8_UINT, VK_RESOLVE_MODE_MIN_BIT, VK_RESOLVE_MODE_MAX_BIT, false},
      Case{VK_FORMAT_D24_UNORM_S8_UINT, VK_RESOLVE_MODE_AVERAGE_BIT, VK_RESOLVE_MODE_MIN_BIT, false},
      Case{VK_FORMAT_D32_SFLOAT_S8_UINT, VK_RESOLVE_MODE_MAX_BIT, VK_RESOLVE_MODE_NONE, false},
      Case{VK_FORMAT_D32_SFLOAT_S8_UINT, VK_RESOLVE_MODE_NONE, VK_RESOLVE_MODE_MAX_BIT, false},
      Case{VK_FORMAT_D32_SFLOAT, VK_RESOLVE_MODE_MIN_BIT, VK_RESOLVE_MODE_NONE, false}),
   case_name);

} // namespace
