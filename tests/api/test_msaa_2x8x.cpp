/* 2-, 4- and 8-sample rendering through the driver on the simulated GPU (TERAKAN_SIM_CHIP picks
 * the chip), with the Khronos validation layer counting findings. lavapipe offers 4 samples
 * only, so the pictures are checked against a CPU model instead: Vulkan's standard sample
 * locations (the specification's table, which the device says it uses: standardSampleLocations)
 * give each sample's point, exact edge functions decide which triangles cover it (the
 * vertices sit on the rasterizer's 1/256-pixel grid, so its snapping moves nothing, and no
 * sample lies on an edge, which the model checks, so no tie rule decides), the depth
 * test LESS and the pipeline's sample mask decide which triangle's flat colour it keeps.
 * Every sample is read back with texelFetch (FMASK decoding in the texture unit), and the
 * render pass's resolve attachment and vkCmdResolveImage must hold the average of the
 * samples; also with custom locations (VK_EXT_sample_locations, a one-pixel grid) in the
 * pipeline, which the model then uses. Per-sample shading: SamplePosition, SampleID, SampleMaskIn, FragCoord and
 * interpolateAtSample at every sample of every pixel. 4 samples run through the same model
 * (a check of the model, since api-msaa-sampling compares 4x with lavapipe). */
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "../vulkan_helpers.h"
#include "session.h"

namespace {

using namespace terakan::test;

constexpr uint32_t width = 32, height = 16;

/* Vulkan's standard sample locations ((x, y) in [0, 1) of the pixel), from the
 * specification's table "Standard sample locations". */
const float locations_2x[2][2] = {{0.75f, 0.75f}, {0.25f, 0.25f}};
const float locations_4x[4][2] = {{0.375f, 0.125f}, {0.875f, 0.375f}, {0.125f, 0.625f}, {0.625f, 0.875f}};
const float locations_8x[8][2] = {{0.5625f, 0.3125f}, {0.4375f, 0.6875f}, {0.8125f, 0.5625f}, {0.3125f, 0.1875f},
                                  {0.1875f, 0.8125f}, {0.0625f, 0.4375f}, {0.6875f, 0.9375f}, {0.9375f, 0.0625f}};
const float *standard_location(unsigned samples, unsigned s)
{
   return samples == 2 ? locations_2x[s] : samples == 4 ? locations_4x[s] : locations_8x[s];
}
/* Locations an application chooses (VK_EXT_sample_locations, a one-pixel grid): the standard
 * ones mirrored left to right, still on the 1/16 grid and in [1/16, 15/16]. */
std::array<float, 2> custom_location(unsigned samples, unsigned s)
{
   const float *l = standard_location(samples, s);
   return {1.0f - l[0], l[1]};
}

struct Vertex {
   float x, y, z, w, r, g, b, a;
};
/* Three overlapping triangles at constant depths 0.5, 0.25, 0.75 (drawn in this order under
 * LESS: the second wins where they overlap, the third only where it is alone); colours are
 * multiples of 1/8, exact in UNORM8 codes and floats. The positions are window coordinates
 * k / 256 (one 256th past the 1/16 grid of the sample points) in clip space: x / 16 - 1 and
 * y / 8 - 1, exact in floats, and the viewport's transform takes them back exactly. */
const Vertex vertices[] = {
   {-0.9296875f, -0.86962890625f, 0.5f, 1, 1.0f, 0.125f, 0.0f, 1.0f},
   {0.710205078125f, -0.9697265625f, 0.5f, 1, 1.0f, 0.125f, 0.0f, 1.0f},
   {-0.60986328125f, 0.890625f, 0.5f, 1, 1.0f, 0.125f, 0.0f, 1.0f},
   {-0.129638671875f, -0.3095703125f, 0.25f, 1, 0.25f, 0.75f, 0.5f, 0.875f},
   {0.97021484375f, 0.0703125f, 0.25f, 1, 0.25f, 0.75f, 0.5f, 0.875f},
   {0.230224609375f, 0.99072265625f, 0.25f, 1, 0.25f, 0.75f, 0.5f, 0.875f},
   {0.310302734375f, -0.94970703125f, 0.75f, 1, 0.0f, 0.375f, 1.0f, 0.625f},
   {0.990234375f, -0.40966796875f, 0.75f, 1, 0.0f, 0.375f, 1.0f, 0.625f},
   {0.4501953125f, -0.109375f, 0.75f, 1, 0.0f, 0.375f, 1.0f, 0.625f},
};
const float clear_colour[4] = {0.5f, 0.25f, 0.125f, 1.0f};

/* One scene: the sample count, the colour format, whether a depth attachment of the same
 * count takes part, the pipeline's sample mask, and whether the pipeline sets custom sample
 * locations (custom_location). */
struct Case {
   VkSampleCountFlagBits samples;
   VkFormat format;
   bool depth;
   uint32_t sample_mask;
   bool custom = false;
   std::array<float, 2> location(unsigned s) const
   {
      if (custom)
         return custom_location(unsigned(samples), s);
      const float *l = standard_location(unsigned(samples), s);
      return {l[0], l[1]};
   }
};

/* The CPU model: each sample's colour (and in `depths` its depth) after the three draws. The edge functions are exact in
 * doubles (window coordinates of 13 bits and 8 fraction bits); fails the test if a sample lies
 * on an edge (then the tie rule would decide). */
std::vector<std::array<float, 4>> model_samples(const Case &c, std::vector<float> *depths = nullptr)
{
   const unsigned n = unsigned(c.samples);
   std::vector<std::array<float, 4>> out(size_t(width) * height * n);
   if (depths)
      depths->assign(out.size(), 1.0f);
   unsigned on_edges = 0;
   for (uint32_t y = 0; y < height; y++)
      for (uint32_t x = 0; x < width; x++)
         for (unsigned s = 0; s < n; s++) {
            const std::array<float, 2> l = c.location(s);
            const double px = x + l[0], py = y + l[1];
            std::array<float, 4> colour = {clear_colour[0], clear_colour[1], clear_colour[2], clear_colour[3]};
            double depth = 1.0;
            for (unsigned t = 0; t < 3; t++) {
               double wx[3], wy[3];
               for (unsigned v = 0; v < 3; v++) {
                  wx[v] = (double(vertices[3 * t + v].x) + 1.0) * width / 2.0;
                  wy[v] = (double(vertices[3 * t + v].y) + 1.0) * height / 2.0;
               }
               const double area = (wx[1] - wx[0]) * (wy[2] - wy[0]) - (wx[2] - wx[0]) * (wy[1] - wy[0]);
               bool inside = true;
               for (unsigned e = 0; e < 3; e++) {
                  const unsigned a = e, b = (e + 1) % 3;
                  const double edge = ((wx[b] - wx[a]) * (py - wy[a]) - (wy[b] - wy[a]) * (px - wx[a])) *
                                      (area > 0 ? 1.0 : -1.0);
                  on_edges += edge == 0;
                  inside = inside && edge > 0;
               }
               const double z = vertices[3 * t].z;
               if (inside && ((c.sample_mask >> s) & 1) && (!c.depth || z < depth)) {
                  depth = z;
                  colour = {vertices[3 * t].r, vertices[3 * t].g, vertices[3 * t].b, vertices[3 * t].a};
               }
            }
            out[(size_t(y) * width + x) * n + s] = colour;
            if (depths)
               (*depths)[(size_t(y) * width + x) * n + s] = float(depth);
         }
   EXPECT_EQ(on_edges, 0u) << "the scene puts samples on edges";
   return out;
}

/* What the device produced. */
struct Results {
   std::vector<float> samples;            /* 8 vec4 per pixel (the first `samples` used), then size and count */
   std::vector<float> depths;             /* the same for the depth attachment (x: the depth) */
   std::vector<uint8_t> resolved_pass;    /* the render pass's resolve attachment */
   std::vector<uint8_t> resolved_command; /* vkCmdResolveImage's destination */
};

/* The objects of one run, destroyed in reverse order of creation. */
class MsaaSession : public terakan::test::Session {
public:
   using Session::image;
   using Session::view;

   /* The cleanups use this class's sampler and descriptor pool. */
   ~MsaaSession() override { release(); }

   /* The instance (with the validation layer counting its findings into `messages` when
    * `validation`), the Terakan device (with VK_EXT_sample_locations when `sample_locations`)
    * and its queue. */
   bool open(bool validation, unsigned &messages, std::string &error, bool sample_locations = false)
   {
      SessionOptions options;
      options.application = "terakan-api-msaa-2x8x";
      options.validation = validation;
      options.features.sampleRateShading = VK_TRUE;
      if (sample_locations)
         options.device_extensions.push_back(VK_EXT_SAMPLE_LOCATIONS_EXTENSION_NAME);
      return Session::open("Terakan", messages, error, options);
   }

   VkImage image(VkFormat format, VkImageUsageFlags usage, VkSampleCountFlagBits samples, VkImageCreateFlags flags = 0)
   {
      VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
      info.flags = flags;
      info.imageType = VK_IMAGE_TYPE_2D;
      info.format = format;
      info.extent = {width, height, 1};
      info.mipLevels = 1;
      info.arrayLayers = 1;
      info.samples = samples;
      info.tiling = VK_IMAGE_TILING_OPTIMAL;
      info.usage = usage;
      return Session::image(info);
   }

   VkImageView view(VkImage image, VkFormat format, VkImageAspectFlags aspect)
   {
      return Session::view(image, VK_IMAGE_VIEW_TYPE_2D, format, {aspect, 0, 1, 0, 1});
   }

   VkPipelineLayout pipeline_layout(VkDescriptorSetLayout set, VkShaderStageFlags push_stages, uint32_t push_bytes)
   {
      const VkPushConstantRange push{push_stages, 0, push_bytes};
      VkPipelineLayoutCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
      info.setLayoutCount = set ? 1 : 0;
      info.pSetLayouts = &set;
      info.pushConstantRangeCount = push_bytes ? 1 : 0;
      info.pPushConstantRanges = &push;
      VkPipelineLayout layout = VK_NULL_HANDLE;
      vkCreatePipelineLayout(device, &info, nullptr, &layout);
      later([this, layout] { vkDestroyPipelineLayout(device, layout, nullptr); });
      return layout;
   }

   /* A graphics pipeline drawing triangle lists of `Vertex` (position, colour) or positions
    * only (`colour_input` false) into `targets` colour attachments of `samples`. */
   VkPipeline graphics_pipeline(VkRenderPass pass, VkPipelineLayout layout, VkShaderModule vertex,
                                VkShaderModule fragment, bool colour_input, VkSampleCountFlagBits samples,
                                unsigned targets, bool depth, uint32_t sample_mask,
                                const std::vector<VkSampleLocationEXT> *locations = nullptr)
   {
      VkPipelineShaderStageCreateInfo stages[2] = {};
      for (unsigned s = 0; s < 2; s++) {
         stages[s].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
         stages[s].stage = s == 0 ? VK_SHADER_STAGE_VERTEX_BIT : VK_SHADER_STAGE_FRAGMENT_BIT;
         stages[s].module = s == 0 ? vertex : fragment;
         stages[s].pName = "main";
      }
      const VkVertexInputBindingDescription binding{0, sizeof(Vertex), VK_VERTEX_INPUT_RATE_VERTEX};
      const VkVertexInputAttributeDescription attributes[2] = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0},
                                                               {1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 16}};
      VkPipelineVertexInputStateCreateInfo input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
      input.vertexBindingDescriptionCount = 1;
      input.pVertexBindingDescriptions = &binding;
      input.vertexAttributeDescriptionCount = colour_input ? 2 : 1;
      input.pVertexAttributeDescriptions = attributes;
      VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
      assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
      const VkViewport viewport{0, 0, float(width), float(height), 0, 1};
      const VkRect2D scissor{{0, 0}, {width, height}};
      VkPipelineViewportStateCreateInfo viewport_state{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
      viewport_state.viewportCount = viewport_state.scissorCount = 1;
      viewport_state.pViewports = &viewport;
      viewport_state.pScissors = &scissor;
      VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
      raster.cullMode = VK_CULL_MODE_NONE;
      raster.lineWidth = 1.0f;
      VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
      multisample.rasterizationSamples = samples;
      const VkSampleMask mask = sample_mask;
      multisample.pSampleMask = &mask;
      VkPipelineSampleLocationsStateCreateInfoEXT custom{
         VK_STRUCTURE_TYPE_PIPELINE_SAMPLE_LOCATIONS_STATE_CREATE_INFO_EXT};
      if (locations) {
         custom.sampleLocationsEnable = VK_TRUE;
         custom.sampleLocationsInfo.sType = VK_STRUCTURE_TYPE_SAMPLE_LOCATIONS_INFO_EXT;
         custom.sampleLocationsInfo.sampleLocationsPerPixel = samples;
         custom.sampleLocationsInfo.sampleLocationGridSize = {1, 1};
         custom.sampleLocationsInfo.sampleLocationsCount = uint32_t(locations->size());
         custom.sampleLocationsInfo.pSampleLocations = locations->data();
         multisample.pNext = &custom;
      }
      std::vector<VkPipelineColorBlendAttachmentState> blend(targets);
      for (auto &b : blend)
         b.colorWriteMask = 0xf;
      VkPipelineColorBlendStateCreateInfo blend_state{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
      blend_state.attachmentCount = targets;
      blend_state.pAttachments = blend.data();
      VkPipelineDepthStencilStateCreateInfo depth_state{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
      depth_state.depthTestEnable = depth_state.depthWriteEnable = VK_TRUE;
      depth_state.depthCompareOp = VK_COMPARE_OP_LESS;
      VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
      info.stageCount = 2;
      info.pStages = stages;
      info.pDepthStencilState = depth ? &depth_state : nullptr;
      info.pVertexInputState = &input;
      info.pInputAssemblyState = &assembly;
      info.pViewportState = &viewport_state;
      info.pRasterizationState = &raster;
      info.pMultisampleState = &multisample;
      info.pColorBlendState = &blend_state;
      info.layout = layout;
      info.renderPass = pass;
      VkPipeline pipeline = VK_NULL_HANDLE;
      last_pipeline_result = vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline);
      if (last_pipeline_result != VK_SUCCESS)
         return VK_NULL_HANDLE;
      later([this, pipeline] { vkDestroyPipeline(device, pipeline, nullptr); });
      return pipeline;
   }

   /* The texelFetch compute pipeline (msaa_any_fetch.comp). */
   bool fetch_pipeline(VkPipeline &pipeline, VkPipelineLayout &layout, VkDescriptorSetLayout &set_layout)
   {
      const VkDescriptorSetLayoutBinding bindings[2] = {
         {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
         {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
      VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
      set_info.bindingCount = 2;
      set_info.pBindings = bindings;
      vkCreateDescriptorSetLayout(device, &set_info, nullptr, &set_layout);
      later([this, set_layout] { vkDestroyDescriptorSetLayout(device, set_layout, nullptr); });
      layout = pipeline_layout(set_layout, VK_SHADER_STAGE_COMPUTE_BIT, 8);
      VkShaderModule fetch = module("msaa_any_fetch.comp");
      if (!fetch)
         return false;
      VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
      info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
      info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
      info.stage.module = fetch;
      info.stage.pName = "main";
      info.layout = layout;
      if (vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline) != VK_SUCCESS)
         return false;
      later([this, pipeline] { vkDestroyPipeline(device, pipeline, nullptr); });
      return true;
   }

   /* A set for the fetch pipeline: `view` (in `layout`) read, `out` written. */
   VkDescriptorSet fetch_set(VkDescriptorSetLayout set_layout, VkImageView view, VkImageLayout layout, VkBuffer out)
   {
      if (!sampler) {
         VkSamplerCreateInfo info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
         info.addressModeU = info.addressModeV = info.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
         vkCreateSampler(device, &info, nullptr, &sampler);
         later([this] { vkDestroySampler(device, sampler, nullptr); });
         const VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 4},
                                                {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4}};
         VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
         pool_info.maxSets = 4;
         pool_info.poolSizeCount = 2;
         pool_info.pPoolSizes = sizes;
         vkCreateDescriptorPool(device, &pool_info, nullptr, &pool);
         later([this] { vkDestroyDescriptorPool(device, pool, nullptr); });
      }
      VkDescriptorSetAllocateInfo allocate{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
      allocate.descriptorPool = pool;
      allocate.descriptorSetCount = 1;
      allocate.pSetLayouts = &set_layout;
      VkDescriptorSet set = VK_NULL_HANDLE;
      if (vkAllocateDescriptorSets(device, &allocate, &set) != VK_SUCCESS)
         return VK_NULL_HANDLE;
      const VkDescriptorImageInfo image_info{sampler, view, layout};
      const VkDescriptorBufferInfo buffer_info{out, 0, VK_WHOLE_SIZE};
      VkWriteDescriptorSet writes[2] = {{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET},
                                        {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}};
      writes[0].dstSet = writes[1].dstSet = set;
      writes[0].descriptorCount = writes[1].descriptorCount = 1;
      writes[0].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
      writes[0].pImageInfo = &image_info;
      writes[1].dstBinding = 1;
      writes[1].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      writes[1].pBufferInfo = &buffer_info;
      vkUpdateDescriptorSets(device, 2, writes, 0, nullptr);
      return set;
   }

   VkCommandBuffer begin_commands() { return begin(); }

   bool submit(VkCommandBuffer commands, std::string &error)
   {
      if (submit_and_wait(commands) != VK_SUCCESS) {
         error = "submission failed";
         return false;
      }
      return true;
   }

   VkResult last_pipeline_result = VK_SUCCESS; /* graphics_pipeline's vkCreateGraphicsPipelines */

private:
   VkSampler sampler = VK_NULL_HANDLE;
   VkDescriptorPool pool = VK_NULL_HANDLE;
};

void to_host(VkCommandBuffer commands)
{
   VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
   barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT;
   barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
   vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                        VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0, nullptr, 0, nullptr);
}

unsigned bytes_of(VkFormat format)
{
   return format == VK_FORMAT_R32G32B32A32_SFLOAT ? 16 : 4;
}

/* The scene: draw, resolve through the render pass and vkCmdResolveImage, read every sample. */
bool run_scene(const Case &c, Results &out, unsigned &messages, std::string &error)
{
   MsaaSession s;
   if (!s.open(true, messages, error, c.custom))
      return false;
   VkDevice device = s.device;
   const unsigned n = unsigned(c.samples), bytes = bytes_of(c.format);
   std::vector<VkSampleLocationEXT> locations;
   for (unsigned i = 0; i < n; i++)
      locations.push_back({c.location(i)[0], c.location(i)[1]});
   VkImage ms = s.image(c.format, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT |
                                     VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                        c.samples);
   VkImage depth = c.depth ? s.image(VK_FORMAT_D32_SFLOAT,
                                     VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT, c.samples,
                                     c.custom ? VK_IMAGE_CREATE_SAMPLE_LOCATIONS_COMPATIBLE_DEPTH_BIT_EXT : 0)
                           : VK_NULL_HANDLE;
   VkImage resolved = s.image(c.format, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                              VK_SAMPLE_COUNT_1_BIT);
   VkImage resolved_by_command = s.image(c.format, VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                                         VK_SAMPLE_COUNT_1_BIT);
   if (!ms || (c.depth && !depth) || !resolved || !resolved_by_command) {
      error = "image creation was refused";
      return false;
   }
   VkImageView ms_view = s.view(ms, c.format, VK_IMAGE_ASPECT_COLOR_BIT);
   VkImageView depth_view = c.depth ? s.view(depth, VK_FORMAT_D32_SFLOAT, VK_IMAGE_ASPECT_DEPTH_BIT) : VK_NULL_HANDLE;
   VkImageView resolved_view = s.view(resolved, c.format, VK_IMAGE_ASPECT_COLOR_BIT);
   void *vertex_map = nullptr, *sample_map = nullptr, *depth_map = nullptr, *pass_map = nullptr, *command_map = nullptr;
   const VkDeviceSize sample_bytes = (size_t(width) * height * 8 + 1) * 16, image_bytes = size_t(width) * height * bytes;
   VkBuffer vertex_buffer = s.buffer(sizeof(vertices), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, vertex_map);
   VkBuffer sample_buffer = s.buffer(sample_bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, sample_map);
   VkBuffer depth_buffer = s.buffer(sample_bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, depth_map);
   VkBuffer pass_buffer = s.buffer(image_bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, pass_map);
   VkBuffer command_buffer = s.buffer(image_bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, command_map);
   if (!ms_view || (c.depth && !depth_view) || !resolved_view || !vertex_buffer || !sample_buffer || !pass_buffer ||
       !command_buffer) {
      error = "view or buffer creation failed";
      return false;
   }
   std::memcpy(vertex_map, vertices, sizeof(vertices));
   std::memset(sample_map, 0xee, sample_bytes);
   std::memset(depth_map, 0xee, sample_bytes);

   /* Attachments: 0 the multisampled colour, 1 its resolve, 2 the multisampled depth. */
   VkAttachmentDescription attachments[3] = {};
   for (unsigned i = 0; i < 3; i++) {
      attachments[i].format = i == 2 ? VK_FORMAT_D32_SFLOAT : c.format;
      attachments[i].samples = i == 1 ? VK_SAMPLE_COUNT_1_BIT : c.samples;
      attachments[i].loadOp = i == 1 ? VK_ATTACHMENT_LOAD_OP_DONT_CARE : VK_ATTACHMENT_LOAD_OP_CLEAR;
      attachments[i].storeOp = VK_ATTACHMENT_STORE_OP_STORE;
      attachments[i].stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
      attachments[i].stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
      attachments[i].initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
   }
   attachments[0].finalLayout = VK_IMAGE_LAYOUT_GENERAL; /* sampled, then a resolve's source */
   attachments[1].finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
   attachments[2].finalLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL; /* then sampled */
   const VkAttachmentReference colour_reference{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
   const VkAttachmentReference resolve_reference{1, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
   const VkAttachmentReference depth_reference{2, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
   VkSubpassDescription subpass{};
   subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
   subpass.colorAttachmentCount = 1;
   subpass.pColorAttachments = &colour_reference;
   subpass.pResolveAttachments = &resolve_reference;
   subpass.pDepthStencilAttachment = c.depth ? &depth_reference : nullptr;
   VkSubpassDependency after{};
   after.srcSubpass = 0;
   after.dstSubpass = VK_SUBPASS_EXTERNAL;
   after.srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
   after.dstStageMask = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
   after.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
   after.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT;
   VkRenderPassCreateInfo pass_info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
   pass_info.attachmentCount = c.depth ? 3 : 2;
   pass_info.pAttachments = attachments;
   pass_info.subpassCount = 1;
   pass_info.pSubpasses = &subpass;
   pass_info.dependencyCount = 1;
   pass_info.pDependencies = &after;
   VkRenderPass pass = VK_NULL_HANDLE;
   if (vkCreateRenderPass(device, &pass_info, nullptr, &pass) != VK_SUCCESS) {
      error = "render pass creation failed";
      return false;
   }
   s.later([device, pass] { vkDestroyRenderPass(device, pass, nullptr); });
   const VkImageView framebuffer_views[3] = {ms_view, resolved_view, depth_view};
   VkFramebufferCreateInfo framebuffer_info{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
   framebuffer_info.renderPass = pass;
   framebuffer_info.attachmentCount = pass_info.attachmentCount;
   framebuffer_info.pAttachments = framebuffer_views;
   framebuffer_info.width = width;
   framebuffer_info.height = height;
   framebuffer_info.layers = 1;
   VkFramebuffer framebuffer = VK_NULL_HANDLE;
   if (vkCreateFramebuffer(device, &framebuffer_info, nullptr, &framebuffer) != VK_SUCCESS) {
      error = "framebuffer creation failed";
      return false;
   }
   s.later([device, framebuffer] { vkDestroyFramebuffer(device, framebuffer, nullptr); });

   VkPipelineLayout empty_layout = s.pipeline_layout(VK_NULL_HANDLE, 0, 0);
   VkShaderModule flat_vertex = s.module("msaa_flat.vert"), flat_fragment = s.module("msaa_flat.frag");
   VkPipeline fetch = VK_NULL_HANDLE;
   VkPipelineLayout fetch_layout = VK_NULL_HANDLE;
   VkDescriptorSetLayout fetch_set_layout = VK_NULL_HANDLE;
   if (!flat_vertex || !flat_fragment || !s.fetch_pipeline(fetch, fetch_layout, fetch_set_layout)) {
      error = "a shader module is missing (TERAKAN_API_SHADERS) or the fetch pipeline failed";
      return false;
   }
   VkPipeline draw = s.graphics_pipeline(pass, empty_layout, flat_vertex, flat_fragment, true, c.samples, 1, c.depth,
                                         c.sample_mask, c.custom ? &locations : nullptr);
   VkDescriptorSet set = s.fetch_set(fetch_set_layout, ms_view, VK_IMAGE_LAYOUT_GENERAL, sample_buffer);
   VkDescriptorSet depth_set =
      c.depth ? s.fetch_set(fetch_set_layout, depth_view, VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL, depth_buffer)
              : VK_NULL_HANDLE;
   if (!draw || !set) {
      error = "pipeline or descriptor set creation failed";
      return false;
   }

   VkCommandBuffer commands = s.begin_commands();
   VkClearValue clears[3] = {};
   std::memcpy(clears[0].color.float32, clear_colour, sizeof(clear_colour));
   clears[2].depthStencil = {1.0f, 0};
   VkRenderPassBeginInfo pass_begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
   pass_begin.renderPass = pass;
   pass_begin.framebuffer = framebuffer;
   pass_begin.renderArea = {{0, 0}, {width, height}};
   pass_begin.clearValueCount = 3;
   pass_begin.pClearValues = clears;
   vkCmdBeginRenderPass(commands, &pass_begin, VK_SUBPASS_CONTENTS_INLINE);
   vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, draw);
   const VkDeviceSize zero = 0;
   vkCmdBindVertexBuffers(commands, 0, 1, &vertex_buffer, &zero);
   vkCmdDraw(commands, 9, 1, 0, 0);
   vkCmdEndRenderPass(commands);

   const uint32_t size[2] = {width, height};
   vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, fetch);
   vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, fetch_layout, 0, 1, &set, 0, nullptr);
   vkCmdPushConstants(commands, fetch_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 8, size);
   vkCmdDispatch(commands, (width + 7) / 8, (height + 7) / 8, 1);
   if (c.depth) {
      vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, fetch_layout, 0, 1, &depth_set, 0, nullptr);
      vkCmdDispatch(commands, (width + 7) / 8, (height + 7) / 8, 1);
   }

   /* vkCmdResolveImage of the whole image into another single-sample image. */
   VkImageMemoryBarrier to_transfer{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
   to_transfer.srcAccessMask = 0;
   to_transfer.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
   to_transfer.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
   to_transfer.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
   to_transfer.srcQueueFamilyIndex = to_transfer.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
   to_transfer.image = resolved_by_command;
   to_transfer.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
   vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr,
                        0, nullptr, 1, &to_transfer);
   VkImageResolve region{};
   region.srcSubresource = region.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
   region.extent = {width, height, 1};
   vkCmdResolveImage(commands, ms, VK_IMAGE_LAYOUT_GENERAL, resolved_by_command, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                     1, &region);
   to_transfer.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
   to_transfer.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
   to_transfer.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
   to_transfer.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
   vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                        nullptr, 1, &to_transfer);

   VkBufferImageCopy copy{};
   copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
   copy.imageExtent = {width, height, 1};
   vkCmdCopyImageToBuffer(commands, resolved, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, pass_buffer, 1, &copy);
   vkCmdCopyImageToBuffer(commands, resolved_by_command, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, command_buffer, 1,
                          &copy);
   to_host(commands);
   if (!s.submit(commands, error))
      return false;
   const auto *floats = static_cast<const float *>(sample_map);
   out.samples.assign(floats, floats + sample_bytes / 4);
   if (c.depth)
      out.depths.assign(static_cast<const float *>(depth_map), static_cast<const float *>(depth_map) + sample_bytes / 4);
   out.resolved_pass.assign(static_cast<const uint8_t *>(pass_map), static_cast<const uint8_t *>(pass_map) + image_bytes);
   out.resolved_command.assign(static_cast<const uint8_t *>(command_map),
                               static_cast<const uint8_t *>(command_map) + image_bytes);
   (void)n;
   return true;
}

std::string count_name(VkSampleCountFlagBits samples)
{
   return std::to_string(unsigned(samples)) + "x";
}

class MsaaScene : public ::testing::TestWithParam<Case> {};

/* A stored sample as floats, from the fetched vec4 (UNORM8 codes compared as c / 255). */
TEST_P(MsaaScene, EverySampleAndBothResolvesFollowTheStandardLocations)
{
   const Case &c = GetParam();
   const unsigned n = unsigned(c.samples);
   const bool unorm = c.format == VK_FORMAT_R8G8B8A8_UNORM;
   unsigned messages = 0;
   std::string error;
   Results ours;
   ASSERT_TRUE(run_scene(c, ours, messages, error)) << error;
   EXPECT_EQ(messages, 0u);
   std::vector<float> expected_depths;
   const std::vector<std::array<float, 4>> expected = model_samples(c, &expected_depths);

   /* textureSize and textureSamples, after the texels. */
   const size_t header = size_t(width) * height * 8 * 4;
   ASSERT_EQ(ours.samples.size(), header + 4);
   EXPECT_EQ(ours.samples[header + 0], float(width));
   EXPECT_EQ(ours.samples[header + 1], float(height));
   EXPECT_EQ(ours.samples[header + 3], float(n));

   /* Each sample: the model's colour (UNORM8: its code, read back as code / 255). */
   auto stored = [&](float v) { return unorm ? float(std::lround(v * 255.0f)) / 255.0f : v; };
   unsigned reported = 0, mixed_pixels = 0, masked_out = 0;
   for (uint32_t p = 0; p < width * height; p++) {
      bool mixed = false;
      for (unsigned s = 0; s < n; s++) {
         const std::array<float, 4> &want = expected[p * n + s];
         mixed = mixed || want != expected[p * n];
         if (!((c.sample_mask >> s) & 1) && want[0] == clear_colour[0])
            masked_out++;
         for (unsigned ch = 0; ch < 4; ch++) {
            const float got = ours.samples[(p * 8 + s) * 4 + ch];
            if (std::abs(got - stored(want[ch])) > 1e-6f && reported++ < 10)
               ADD_FAILURE() << count_name(c.samples) << " pixel " << p % width << "," << p / width << " sample " << s
                             << " channel " << ch << ": " << got << ", the model " << stored(want[ch]);
         }
      }
      mixed_pixels += mixed;
   }
   /* The scene must cut pixels (or it proves nothing about the locations and FMASK). */
   EXPECT_GE(mixed_pixels, 30u);
   if (c.sample_mask != 0xffffffffu) {
      EXPECT_GT(masked_out, 0u);
   }

   /* The depth attachment's samples (texelFetch of its depth aspect, in the DB's sample
    * order): the nearest covering triangle's depth, or the clear's 1. */
   if (c.depth) {
      ASSERT_EQ(ours.depths.size(), header + 4);
      EXPECT_EQ(ours.depths[header + 3], float(n));
      reported = 0;
      for (uint32_t p = 0; p < width * height; p++)
         for (unsigned s = 0; s < n; s++) {
            const float got = ours.depths[(p * 8 + s) * 4];
            if (got != expected_depths[p * n + s] && reported++ < 10)
               ADD_FAILURE() << "depth " << count_name(c.samples) << " pixel " << p % width << "," << p / width
                             << " sample " << s << ": " << got << ", the model " << expected_depths[p * n + s];
         }
   }

   /* Resolves: the average of the samples, rounded to the nearest UNORM8 code (either way at
    * a tie: the CB's rounding of a tie is not documented) or within float precision. */
   for (const auto *resolved : {&ours.resolved_pass, &ours.resolved_command}) {
      const char *which = resolved == &ours.resolved_pass ? "render pass resolve" : "vkCmdResolveImage";
      ASSERT_EQ(resolved->size(), size_t(width) * height * bytes_of(c.format));
      reported = 0;
      for (uint32_t p = 0; p < width * height; p++)
         for (unsigned ch = 0; ch < 4; ch++) {
            double sum = 0;
            for (unsigned s = 0; s < n; s++)
               sum += unorm ? std::lround(expected[p * n + s][ch] * 255.0f) : expected[p * n + s][ch];
            const double average = sum / n;
            bool good;
            double got;
            if (unorm) {
               got = (*resolved)[p * 4 + ch];
               good = std::abs(got - average) <= 0.5 + 1e-6;
            } else {
               float value;
               std::memcpy(&value, resolved->data() + p * 16 + ch * 4, 4);
               got = value;
               good = std::abs(got - average) <= 1e-6;
            }
            if (!good && reported++ < 10)
               ADD_FAILURE() << which << " " << count_name(c.samples) << " pixel " << p % width << "," << p / width
                             << " channel " << ch << ": " << got << ", the average " << average;
         }
   }
}

const Case scenes[] = {
   {VK_SAMPLE_COUNT_2_BIT, VK_FORMAT_R8G8B8A8_UNORM, false, 0xffffffffu},
   {VK_SAMPLE_COUNT_8_BIT, VK_FORMAT_R8G8B8A8_UNORM, false, 0xffffffffu},
   {VK_SAMPLE_COUNT_2_BIT, VK_FORMAT_R8G8B8A8_UNORM, true, 0xffffffffu},
   {VK_SAMPLE_COUNT_8_BIT, VK_FORMAT_R8G8B8A8_UNORM, true, 0xffffffffu},
   {VK_SAMPLE_COUNT_8_BIT, VK_FORMAT_R32G32B32A32_SFLOAT, true, 0xffffffffu},
   {VK_SAMPLE_COUNT_2_BIT, VK_FORMAT_R32G32B32A32_SFLOAT, false, 0xffffffffu},
   {VK_SAMPLE_COUNT_2_BIT, VK_FORMAT_R8G8B8A8_UNORM, true, 0x2u},
   {VK_SAMPLE_COUNT_8_BIT, VK_FORMAT_R8G8B8A8_UNORM, true, 0xa5u},
   {VK_SAMPLE_COUNT_4_BIT, VK_FORMAT_R8G8B8A8_UNORM, true, 0xffffffffu},
   {VK_SAMPLE_COUNT_2_BIT, VK_FORMAT_R8G8B8A8_UNORM, true, 0xffffffffu, true},
   {VK_SAMPLE_COUNT_8_BIT, VK_FORMAT_R8G8B8A8_UNORM, true, 0xffffffffu, true},
};

std::string scene_name(const ::testing::TestParamInfo<Case> &info)
{
   const Case &c = info.param;
   std::string name = "Samples" + std::to_string(unsigned(c.samples));
   name += c.format == VK_FORMAT_R8G8B8A8_UNORM ? "Rgba8" : "Rgba32Float";
   if (c.depth)
      name += "Depth";
   if (c.sample_mask != 0xffffffffu) {
      char mask[16];
      std::snprintf(mask, sizeof(mask), "Mask%X", c.sample_mask);
      name += mask;
   }
   if (c.custom)
      name += "CustomLocations";
   return name;
}

INSTANTIATE_TEST_SUITE_P(Scenes, MsaaScene, ::testing::ValuesIn(scenes), scene_name);

/* Per-sample shading over a rectangle covering the target: every sample of every pixel gets
 * its own invocation, which writes SamplePosition, SampleID and SampleMaskIn into one 32-bit
 * float target and interpolateAtSample of the window position and FragCoord into another. */
class MsaaSampleShading : public ::testing::TestWithParam<VkSampleCountFlagBits> {};

TEST_P(MsaaSampleShading, BuiltInsAtTheStandardLocations)
{
   const VkSampleCountFlagBits samples = GetParam();
   const unsigned n = unsigned(samples);
   unsigned messages = 0;
   std::string error;
   std::vector<float> fetched[2];
   {
      MsaaSession s;
      ASSERT_TRUE(s.open(true, messages, error)) << error;
      VkDevice device = s.device;
      const VkFormat format = VK_FORMAT_R32G32B32A32_SFLOAT;
      VkImage targets[2];
      VkImageView views[2];
      for (unsigned t = 0; t < 2; t++) {
         targets[t] = s.image(format, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT, samples);
         ASSERT_TRUE(targets[t]);
         views[t] = s.view(targets[t], format, VK_IMAGE_ASPECT_COLOR_BIT);
         ASSERT_TRUE(views[t]);
      }
      VkAttachmentDescription attachments[2] = {};
      VkAttachmentReference references[2];
      for (unsigned t = 0; t < 2; t++) {
         attachments[t].format = format;
         attachments[t].samples = samples;
         attachments[t].loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
         attachments[t].storeOp = VK_ATTACHMENT_STORE_OP_STORE;
         attachments[t].stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
         attachments[t].stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
         attachments[t].initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
         attachments[t].finalLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
         references[t] = {t, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
      }
      VkSubpassDescription subpass{};
      subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
      subpass.colorAttachmentCount = 2;
      subpass.pColorAttachments = references;
      VkSubpassDependency after{};
      after.srcSubpass = 0;
      after.dstSubpass = VK_SUBPASS_EXTERNAL;
      after.srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
      after.dstStageMask = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
      after.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
      after.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
      VkRenderPassCreateInfo pass_info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
      pass_info.attachmentCount = 2;
      pass_info.pAttachments = attachments;
      pass_info.subpassCount = 1;
      pass_info.pSubpasses = &subpass;
      pass_info.dependencyCount = 1;
      pass_info.pDependencies = &after;
      VkRenderPass pass = VK_NULL_HANDLE;
      ASSERT_EQ(vkCreateRenderPass(device, &pass_info, nullptr, &pass), VK_SUCCESS);
      s.later([device, pass] { vkDestroyRenderPass(device, pass, nullptr); });
      VkFramebufferCreateInfo framebuffer_info{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
      framebuffer_info.renderPass = pass;
      framebuffer_info.attachmentCount = 2;
      framebuffer_info.pAttachments = views;
      framebuffer_info.width = width;
      framebuffer_info.height = height;
      framebuffer_info.layers = 1;
      VkFramebuffer framebuffer = VK_NULL_HANDLE;
      ASSERT_EQ(vkCreateFramebuffer(device, &framebuffer_info, nullptr, &framebuffer), VK_SUCCESS);
      s.later([device, framebuffer] { vkDestroyFramebuffer(device, framebuffer, nullptr); });

      VkPipelineLayout layout = s.pipeline_layout(VK_NULL_HANDLE, VK_SHADER_STAGE_VERTEX_BIT, 8);
      VkShaderModule vertex = s.module("msaa_any_window.vert"), fragment = s.module("msaa_any_per_sample.frag");
      ASSERT_TRUE(vertex && fragment) << "a shader module is missing (TERAKAN_API_SHADERS)";
      VkPipeline draw = s.graphics_pipeline(pass, layout, vertex, fragment, false, samples, 2, false, 0xffffffffu);
      VkPipeline fetch = VK_NULL_HANDLE;
      VkPipelineLayout fetch_layout = VK_NULL_HANDLE;
      VkDescriptorSetLayout fetch_set_layout = VK_NULL_HANDLE;
      ASSERT_TRUE(draw && s.fetch_pipeline(fetch, fetch_layout, fetch_set_layout));

      /* Two triangles covering the target, well past its edges. */
      const Vertex quad[6] = {{-2, -2, 0, 1}, {2, -2, 0, 1}, {-2, 2, 0, 1}, {2, -2, 0, 1}, {2, 2, 0, 1}, {-2, 2, 0, 1}};
      void *vertex_map = nullptr, *out_map[2] = {};
      const VkDeviceSize out_bytes = (size_t(width) * height * 8 + 1) * 16;
      VkBuffer vertex_buffer = s.buffer(sizeof(quad), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, vertex_map);
      VkBuffer out[2] = {s.buffer(out_bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, out_map[0]),
                         s.buffer(out_bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, out_map[1])};
      ASSERT_TRUE(vertex_buffer && out[0] && out[1]);
      std::memcpy(vertex_map, quad, sizeof(quad));
      VkDescriptorSet sets[2] = {s.fetch_set(fetch_set_layout, views[0], VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, out[0]),
                                 s.fetch_set(fetch_set_layout, views[1], VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, out[1])};
      ASSERT_TRUE(sets[0] && sets[1]);

      VkCommandBuffer commands = s.begin_commands();
      VkClearValue clears[2] = {};
      for (VkClearValue &clear : clears)
         clear.color = {{-1.0f, -1.0f, -1.0f, -1.0f}};
      VkRenderPassBeginInfo pass_begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
      pass_begin.renderPass = pass;
      pass_begin.framebuffer = framebuffer;
      pass_begin.renderArea = {{0, 0}, {width, height}};
      pass_begin.clearValueCount = 2;
      pass_begin.pClearValues = clears;
      vkCmdBeginRenderPass(commands, &pass_begin, VK_SUBPASS_CONTENTS_INLINE);
      vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, draw);
      const float size_f[2] = {float(width), float(height)};
      vkCmdPushConstants(commands, layout, VK_SHADER_STAGE_VERTEX_BIT, 0, 8, size_f);
      const VkDeviceSize zero = 0;
      vkCmdBindVertexBuffers(commands, 0, 1, &vertex_buffer, &zero);
      vkCmdDraw(commands, 6, 1, 0, 0);
      vkCmdEndRenderPass(commands);
      const uint32_t size[2] = {width, height};
      vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, fetch);
      vkCmdPushConstants(commands, fetch_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 8, size);
      for (unsigned t = 0; t < 2; t++) {
         vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, fetch_layout, 0, 1, &sets[t], 0, nullptr);
         vkCmdDispatch(commands, (width + 7) / 8, (height + 7) / 8, 1);
      }
      to_host(commands);
      ASSERT_TRUE(s.submit(commands, error)) << error;
      for (unsigned t = 0; t < 2; t++)
         fetched[t].assign(static_cast<const float *>(out_map[t]), static_cast<const float *>(out_map[t]) + out_bytes / 4);
   }
   EXPECT_EQ(messages, 0u);
   unsigned reported = 0;
   for (uint32_t p = 0; p < width * height; p++)
      for (unsigned s = 0; s < n; s++) {
         const float *built_ins = &fetched[0][(p * 8 + s) * 4], *positions = &fetched[1][(p * 8 + s) * 4];
         const float *l = standard_location(n, s);
         const float x = float(p % width) + l[0], y = float(p / width) + l[1];
         const bool good = built_ins[0] == l[0] && built_ins[1] == l[1] && built_ins[2] == float(s) &&
                           built_ins[3] == float(1u << s) && std::abs(positions[0] - x) < 1e-4f &&
                           std::abs(positions[1] - y) < 1e-4f && positions[2] == x && positions[3] == y;
         if (!good && reported++ < 10)
            ADD_FAILURE() << count_name(samples) << " pixel " << p % width << "," << p / width << " sample " << s
                          << ": SamplePosition (" << built_ins[0] << ", " << built_ins[1] << "), SampleID "
                          << built_ins[2] << ", SampleMaskIn " << built_ins[3] << ", interpolateAtSample ("
                          << positions[0] << ", " << positions[1] << "), FragCoord (" << positions[2] << ", "
                          << positions[3] << "); expected position (" << l[0] << ", " << l[1] << "), window (" << x
                          << ", " << y << ")";
      }
}

INSTANTIATE_TEST_SUITE_P(Counts, MsaaSampleShading,
                         ::testing::Values(VK_SAMPLE_COUNT_2_BIT, VK_SAMPLE_COUNT_4_BIT, VK_SAMPLE_COUNT_8_BIT),
                         [](const ::testing::TestParamInfo<VkSampleCountFlagBits> &info) {
                            return "Samples" + std::to_string(unsigned(info.param));
                         });

/* What the device reports for the counts, and what it refuses (16 samples), without the
 * validation layer (which would report the invalid calls themselves). */
TEST(MsaaCounts, OfferedAndRefused)
{
   unsigned messages = 0;
   std::string error;
   MsaaSession s;
   ASSERT_TRUE(s.open(false, messages, error)) << error;
   const VkSampleCountFlags offered =
      VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_2_BIT | VK_SAMPLE_COUNT_4_BIT | VK_SAMPLE_COUNT_8_BIT;
   VkPhysicalDeviceProperties properties;
   vkGetPhysicalDeviceProperties(s.physical, &properties);
   const VkPhysicalDeviceLimits &l = properties.limits;
   for (VkSampleCountFlags counts :
        {l.framebufferColorSampleCounts, l.framebufferDepthSampleCounts, l.framebufferStencilSampleCounts,
         l.framebufferNoAttachmentsSampleCounts, l.sampledImageColorSampleCounts, l.sampledImageIntegerSampleCounts,
         l.sampledImageDepthSampleCounts, l.sampledImageStencilSampleCounts})
      EXPECT_EQ(counts, offered);
   EXPECT_EQ(l.storageImageSampleCounts, VkSampleCountFlags(VK_SAMPLE_COUNT_1_BIT));
   EXPECT_TRUE(l.standardSampleLocations);
   for (VkFormat format : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_D32_SFLOAT,
                           VK_FORMAT_D24_UNORM_S8_UINT}) {
      const bool depth = format == VK_FORMAT_D32_SFLOAT || format == VK_FORMAT_D24_UNORM_S8_UINT;
      VkImageFormatProperties image{};
      ASSERT_EQ(vkGetPhysicalDeviceImageFormatProperties(
                   s.physical, format, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                   (depth ? VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT : VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT) |
                      VK_IMAGE_USAGE_SAMPLED_BIT,
                   0, &image),
                VK_SUCCESS);
      EXPECT_EQ(image.sampleCounts, offered) << "format " << format;
   }
   /* VK_EXT_sample_locations: a one-pixel grid for 2, 4 and 8 samples, none for 16. */
   auto multisample_properties = reinterpret_cast<PFN_vkGetPhysicalDeviceMultisamplePropertiesEXT>(
      vkGetInstanceProcAddr(s.instance, "vkGetPhysicalDeviceMultisamplePropertiesEXT"));
   ASSERT_TRUE(multisample_properties);
   for (VkSampleCountFlagBits count : {VK_SAMPLE_COUNT_2_BIT, VK_SAMPLE_COUNT_4_BIT, VK_SAMPLE_COUNT_8_BIT,
                                       VK_SAMPLE_COUNT_16_BIT}) {
      VkMultisamplePropertiesEXT grid{VK_STRUCTURE_TYPE_MULTISAMPLE_PROPERTIES_EXT};
      multisample_properties(s.physical, count, &grid);
      const uint32_t side = count == VK_SAMPLE_COUNT_16_BIT ? 0 : 1;
      EXPECT_EQ(grid.maxSampleLocationGridSize.width, side) << count;
      EXPECT_EQ(grid.maxSampleLocationGridSize.height, side) << count;
   }
   VkPhysicalDeviceSampleLocationsPropertiesEXT locations{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SAMPLE_LOCATIONS_PROPERTIES_EXT};
   VkPhysicalDeviceProperties2 properties2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
   properties2.pNext = &locations;
   auto get_properties2 = reinterpret_cast<PFN_vkGetPhysicalDeviceProperties2KHR>(
      vkGetInstanceProcAddr(s.instance, "vkGetPhysicalDeviceProperties2KHR"));
   if (get_properties2) {
      get_properties2(s.physical, &properties2);
      EXPECT_EQ(locations.sampleLocationSampleCounts,
                VkSampleCountFlags(VK_SAMPLE_COUNT_2_BIT | VK_SAMPLE_COUNT_4_BIT | VK_SAMPLE_COUNT_8_BIT));
   }

   /* 16 samples: not offered, refused with a result. */
   VkImageFormatProperties image{};
   vkGetPhysicalDeviceImageFormatProperties(s.physical, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D,
                                            VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, 0, &image);
   EXPECT_FALSE(image.sampleCounts & VK_SAMPLE_COUNT_16_BIT);
   VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
   info.imageType = VK_IMAGE_TYPE_2D;
   info.format = VK_FORMAT_R8G8B8A8_UNORM;
   info.extent = {width, height, 1};
   info.mipLevels = 1;
   info.arrayLayers = 1;
   info.samples = VK_SAMPLE_COUNT_16_BIT;
   info.tiling = VK_IMAGE_TILING_OPTIMAL;
   info.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
   VkImage refused = VK_NULL_HANDLE;
   EXPECT_EQ(vkCreateImage(s.device, &info, nullptr, &refused), VK_ERROR_FEATURE_NOT_PRESENT);
   EXPECT_EQ(refused, VkImage(VK_NULL_HANDLE));

   /* A pipeline rasterizing 16 samples (for a render pass whose attachment says so). */
   VkAttachmentDescription attachment{};
   attachment.format = VK_FORMAT_R8G8B8A8_UNORM;
   attachment.samples = VK_SAMPLE_COUNT_16_BIT;
   attachment.loadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
   attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
   attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
   attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
   attachment.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
   attachment.finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
   const VkAttachmentReference reference{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
   VkSubpassDescription subpass{};
   subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
   subpass.colorAttachmentCount = 1;
   subpass.pColorAttachments = &reference;
   VkRenderPassCreateInfo pass_info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
   pass_info.attachmentCount = 1;
   pass_info.pAttachments = &attachment;
   pass_info.subpassCount = 1;
   pass_info.pSubpasses = &subpass;
   VkRenderPass pass = VK_NULL_HANDLE;
   ASSERT_EQ(vkCreateRenderPass(s.device, &pass_info, nullptr, &pass), VK_SUCCESS);
   VkDevice device = s.device;
   s.later([device, pass] { vkDestroyRenderPass(device, pass, nullptr); });
   VkShaderModule vertex = s.module("msaa_flat.vert"), fragment = s.module("msaa_flat.frag");
   ASSERT_TRUE(vertex && fragment) << "a shader module is missing (TERAKAN_API_SHADERS)";
   EXPECT_EQ(s.graphics_pipeline(pass, s.pipeline_layout(VK_NULL_HANDLE, 0, 0), vertex, fragment, true,
                                 VK_SAMPLE_COUNT_16_BIT, 1, false, 0xffffu),
             VkPipeline(VK_NULL_HANDLE));
   EXPECT_EQ(s.last_pipeline_result, VK_ERROR_FEATURE_NOT_PRESENT);
}

} // namespace
