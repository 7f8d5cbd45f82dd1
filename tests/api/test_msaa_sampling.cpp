/* Multisampled sampled images through the driver on the simulated GPU (TERAKAN_SIM_CHIP picks
 * the chip) and on lavapipe, with the Khronos validation layer counting findings: a 4-sample
 * colour image is cleared and drawn with flat-coloured triangles whose edges cut pixels (so
 * that pixels hold several different samples, and FMASK several fragments), then every sample
 * of every pixel is read with texelFetch, in a compute shader (with textureSize and
 * textureSamples) and in a pixel shader (sample i copied to single-sample target i). Both
 * drivers place 4 samples at Vulkan's standard positions, so the results must agree bit for
 * bit (lavapipe's UNORM8 to float conversion is 1 ULP off the correctly rounded c / 255 for some
 * codes, which the texture unit gives: that one difference is allowed for UNORM8 in the compute
 * results; the pixel shader's copies, back in UNORM8, must be equal); UNORM8, 32-bit float and
 * 32-bit unsigned integer images, and layer 1 of two-layer images through 2D multisampled array
 * views. Bad input: what the driver
 * does not offer (storage) is refused with a result and a message. Depth and stencil: D16, D32F and D24S8 (both aspects) drawn at constant depths
 * with stencil references, every sample's depth or stencil read the same way. */
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

constexpr uint32_t width = 20, height = 12;

struct Vertex {
   float x, y, z, w, r, g, b, a;
};
/* Clip-space positions off the pixel and sample grids (odd multiples of 1/128 of the target);
 * colours are multiples of 1/8, exact in every format tested. */
const Vertex vertices[] = {
   {-0.93f, -0.87f, 0, 1, 1.0f, 0.125f, 0.0f, 1.0f},   {0.71f, -0.97f, 0, 1, 1.0f, 0.125f, 0.0f, 1.0f},
   {-0.61f, 0.89f, 0, 1, 1.0f, 0.125f, 0.0f, 1.0f},    {-0.13f, -0.31f, 0, 1, 0.25f, 0.75f, 0.5f, 0.875f},
   {0.97f, 0.07f, 0, 1, 0.25f, 0.75f, 0.5f, 0.875f},   {0.23f, 0.99f, 0, 1, 0.25f, 0.75f, 0.5f, 0.875f},
   {0.31f, -0.95f, 0, 1, 0.0f, 0.375f, 1.0f, 0.625f},  {0.99f, -0.41f, 0, 1, 0.0f, 0.375f, 1.0f, 0.625f},
   {0.45f, -0.11f, 0, 1, 0.0f, 0.375f, 1.0f, 0.625f},
};

struct Case {
   VkFormat format;
   bool integer;
   unsigned bytes; /* per texel */
   bool array;     /* two layers, drawn into layer 1, read through a 2D multisampled array view */
   /* Depth/stencil formats: the triangles are drawn at three constant depths (depth test
    * LESS; stencil references 10, 20, 30 written with REPLACE when the format has stencil),
    * and `aspect` is read (x only: the rest of a depth or stencil texel is not compared). */
   VkImageAspectFlagBits aspect = VK_IMAGE_ASPECT_COLOR_BIT;
   bool depth() const { return aspect != VK_IMAGE_ASPECT_COLOR_BIT; }
   bool has_stencil() const
   {
      return format == VK_FORMAT_D24_UNORM_S8_UINT || format == VK_FORMAT_D32_SFLOAT_S8_UINT;
   }
};

/* Constant depths per triangle, so that both drivers store exactly the same values. */
constexpr float triangle_depths[3] = {0.5f, 0.25f, 0.75f};

/* What one driver produced. */
struct Results {
   std::vector<uint32_t> compute; /* 4 texel words per sample, then textureSize and textureSamples */
   std::vector<uint8_t> pixel;    /* the four single-sample targets, one after the other */
};

/* The objects of one run, destroyed in reverse order of creation. */
class MsaaSession : public terakan::test::Session {
public:
   using Session::image;
   using Session::view;

   /* The cleanups capture this object: they run while it is still whole. */
   ~MsaaSession() override { release(); }

   VkImage image(VkFormat format, VkImageUsageFlags usage, VkSampleCountFlagBits samples, uint32_t layers)
   {
      VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
      info.imageType = VK_IMAGE_TYPE_2D;
      info.format = format;
      info.extent = {width, height, 1};
      info.mipLevels = 1;
      info.arrayLayers = layers;
      info.samples = samples;
      info.tiling = VK_IMAGE_TILING_OPTIMAL;
      info.usage = usage;
      return Session::image(info);
   }

   VkImageView view(VkImage image, VkFormat format, VkImageViewType type, uint32_t first_layer, uint32_t layers,
                    VkImageAspectFlags aspect = VK_IMAGE_ASPECT_COLOR_BIT)
   {
      return Session::view(image, type, format, {aspect, 0, 1, first_layer, layers});
   }

   /* A render pass of one subpass writing `count` colour attachments of `format` with
    * `samples`, cleared, left in `final_layout`. */
   VkRenderPass render_pass(VkFormat format, VkSampleCountFlagBits samples, unsigned count, VkImageLayout final_layout,
                            bool depth = false)
   {
      std::vector<VkAttachmentDescription> attachments(count);
      std::vector<VkAttachmentReference> references(count);
      for (unsigned i = 0; i < count; i++) {
         VkAttachmentDescription &d = attachments[i];
         d.format = format;
         d.samples = samples;
         d.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
         d.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
         d.stencilLoadOp = depth ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_DONT_CARE;
         d.stencilStoreOp = depth ? VK_ATTACHMENT_STORE_OP_STORE : VK_ATTACHMENT_STORE_OP_DONT_CARE;
         d.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
         d.finalLayout = final_layout;
         references[i] = {i, depth ? VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL
                                   : VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
      }
      VkSubpassDescription subpass{};
      subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
      if (depth) {
         subpass.pDepthStencilAttachment = references.data();
      } else {
         subpass.colorAttachmentCount = count;
         subpass.pColorAttachments = references.data();
      }
      VkSubpassDependency after{};
      after.srcSubpass = 0;
      after.dstSubpass = VK_SUBPASS_EXTERNAL;
      after.srcStageMask = depth ? VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT
                                 : VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
      after.dstStageMask = VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT |
                           VK_PIPELINE_STAGE_TRANSFER_BIT;
      after.srcAccessMask = depth ? VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT : VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
      after.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT;
      VkRenderPassCreateInfo info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
      info.attachmentCount = count;
      info.pAttachments = attachments.data();
      info.subpassCount = 1;
      info.pSubpasses = &subpass;
      info.dependencyCount = 1;
      info.pDependencies = &after;
      VkRenderPass pass = VK_NULL_HANDLE;
      if (vkCreateRenderPass(device, &info, nullptr, &pass) != VK_SUCCESS)
         return VK_NULL_HANDLE;
      later([this, pass] { vkDestroyRenderPass(device, pass, nullptr); });
      return pass;
   }

   VkFramebuffer framebuffer(VkRenderPass pass, const std::vector<VkImageView> &views)
   {
      VkFramebufferCreateInfo info{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
      info.renderPass = pass;
      info.attachmentCount = uint32_t(views.size());
      info.pAttachments = views.data();
      info.width = width;
      info.height = height;
      info.layers = 1;
      VkFramebuffer framebuffer = VK_NULL_HANDLE;
      if (vkCreateFramebuffer(device, &info, nullptr, &framebuffer) != VK_SUCCESS)
         return VK_NULL_HANDLE;
      later([this, framebuffer] { vkDestroyFramebuffer(device, framebuffer, nullptr); });
      return framebuffer;
   }

   VkPipeline graphics_pipeline(VkRenderPass pass, VkPipelineLayout layout, VkShaderModule vertex,
                                VkShaderModule fragment, bool vertex_input, VkSampleCountFlagBits samples,
                                unsigned targets, bool depth = false, bool stencil = false)
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
      if (vertex_input) {
         input.vertexBindingDescriptionCount = 1;
         input.pVertexBindingDescriptions = &binding;
         input.vertexAttributeDescriptionCount = 2;
         input.pVertexAttributeDescriptions = attributes;
      }
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
      std::vector<VkPipelineColorBlendAttachmentState> blend(targets);
      for (auto &b : blend)
         b.colorWriteMask = 0xf;
      VkPipelineColorBlendStateCreateInfo blend_state{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
      blend_state.attachmentCount = targets;
      blend_state.pAttachments = blend.data();
      VkPipelineDepthStencilStateCreateInfo depth_state{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
      depth_state.depthTestEnable = depth_state.depthWriteEnable = VK_TRUE;
      depth_state.depthCompareOp = VK_COMPARE_OP_LESS;
      depth_state.stencilTestEnable = stencil;
      depth_state.front = {VK_STENCIL_OP_KEEP, VK_STENCIL_OP_REPLACE, VK_STENCIL_OP_KEEP, VK_COMPARE_OP_ALWAYS,
                           0xff, 0xff, 0};
      depth_state.back = depth_state.front;
      const VkDynamicState dynamic_states[] = {VK_DYNAMIC_STATE_STENCIL_REFERENCE};
      VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
      dynamic.dynamicStateCount = 1;
      dynamic.pDynamicStates = dynamic_states;
      VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
      info.stageCount = fragment ? 2 : 1;
      info.pStages = stages;
      if (depth) {
         info.pDepthStencilState = &depth_state;
         info.pDynamicState = &dynamic;
      }
      info.pVertexInputState = &input;
      info.pInputAssemblyState = &assembly;
      info.pViewportState = &viewport_state;
      info.pRasterizationState = &raster;
      info.pMultisampleState = &multisample;
      info.pColorBlendState = &blend_state;
      info.layout = layout;
      info.renderPass = pass;
      VkPipeline pipeline = VK_NULL_HANDLE;
      if (vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline) != VK_SUCCESS)
         return VK_NULL_HANDLE;
      later([this, pipeline] { vkDestroyPipeline(device, pipeline, nullptr); });
      return pipeline;
   }

};

/* Opens `name` (with the validation layer counting into `messages` when `validation`). */
bool open_device(MsaaSession &s, const char *name, bool validation, unsigned &messages, std::string &error)
{
   SessionOptions options;
   options.application = "terakan-api-msaa-sampling";
   options.validation = validation;
   return s.open(name, messages, error, options);
}

/* The scene on the device named `name`. */
bool run(const char *name, const Case &c, Results &out, unsigned &messages, std::string &error)
{
   MsaaSession s;
   if (!open_device(s, name, true, messages, error))
      return false;
   VkDevice device = s.device;
   VkQueue queue;
   vkGetDeviceQueue(device, s.family, 0, &queue);
   const uint32_t layers = c.array ? 2 : 1, drawn_layer = c.array ? 1 : 0;

   const VkImageAspectFlags attachment_aspect =
      c.depth() ? VK_IMAGE_ASPECT_DEPTH_BIT | (c.has_stencil() ? VK_IMAGE_ASPECT_STENCIL_BIT : 0)
                : VK_IMAGE_ASPECT_COLOR_BIT;
   const bool pixel_copy = !c.array && !c.depth(); /* the pixel shader's copy into single-sample targets */
   VkImage ms = s.image(c.format,
                        (c.depth() ? VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT : VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT) |
                           VK_IMAGE_USAGE_SAMPLED_BIT,
                        VK_SAMPLE_COUNT_4_BIT, layers);
   if (!ms) {
      error = "the 4-sample sampled image was refused";
      return false;
   }
   std::vector<VkImageView> layer_views;
   for (uint32_t l = 0; l < layers; l++)
      layer_views.push_back(s.view(ms, c.format, VK_IMAGE_VIEW_TYPE_2D, l, 1, attachment_aspect));
   VkImageView sampled =
      s.view(ms, c.format, c.array ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D, 0, layers, c.aspect);
   std::vector<VkImage> copies;
   std::vector<VkImageView> copy_views;
   if (pixel_copy)
      for (unsigned i = 0; i < 4; i++) {
         copies.push_back(s.image(c.format, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                                  VK_SAMPLE_COUNT_1_BIT, 1));
         copy_views.push_back(copies.back() ? s.view(copies.back(), c.format, VK_IMAGE_VIEW_TYPE_2D, 0, 1)
                                            : VK_NULL_HANDLE);
      }
   void *vertex_map = nullptr, *compute_map = nullptr, *pixel_map = nullptr;
   const VkDeviceSize compute_bytes = (width * height * 4 + 1) * 16, copy_bytes = width * height * c.bytes;
   VkBuffer vertex_buffer = s.buffer(sizeof(vertices), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, vertex_map);
   VkBuffer compute_buffer = s.buffer(compute_bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, compute_map);
   VkBuffer pixel_buffer = s.buffer(copy_bytes * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, pixel_map);
   for (VkImageView v : layer_views)
      if (!v || !sampled) {
         error = "view creation failed";
         return false;
      }
   for (VkImageView v : copy_views)
      if (!v) {
         error = "single-sample target creation failed";
         return false;
      }
   if (!vertex_buffer || !compute_buffer || !pixel_buffer) {
      error = "buffer creation failed";
      return false;
   }
   std::memcpy(vertex_map, vertices, sizeof(vertices));
   if (c.depth())
      for (unsigned v = 0; v < 9; v++)
         static_cast<Vertex *>(vertex_map)[v].z = triangle_depths[v / 3];
   std::memset(compute_map, 0xee, compute_bytes);

   /* The scene's pass, and the pixel shader's pass into four single-sample targets. */
   VkRenderPass draw_pass =
      s.render_pass(c.format, VK_SAMPLE_COUNT_4_BIT, 1, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, c.depth());
   VkRenderPass copy_pass = !pixel_copy ? VK_NULL_HANDLE
                                    : s.render_pass(c.format, VK_SAMPLE_COUNT_1_BIT, 4,
                                                    VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
   std::vector<VkFramebuffer> draw_framebuffers;
   for (VkImageView v : layer_views)
      draw_framebuffers.push_back(s.framebuffer(draw_pass, {v}));
   VkFramebuffer copy_framebuffer = !pixel_copy ? VK_NULL_HANDLE : s.framebuffer(copy_pass, copy_views);

   /* Binding 0: the multisampled image with a nearest sampler; binding 1: the compute output. */
   VkSamplerCreateInfo sampler_info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
   sampler_info.addressModeU = sampler_info.addressModeV = sampler_info.addressModeW =
      VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
   VkSampler sampler = VK_NULL_HANDLE;
   vkCreateSampler(device, &sampler_info, nullptr, &sampler);
   s.later([device, sampler] { vkDestroySampler(device, sampler, nullptr); });
   const VkDescriptorSetLayoutBinding bindings[2] = {
      {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_FRAGMENT_BIT,
       nullptr},
      {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
   VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
   set_info.bindingCount = 2;
   set_info.pBindings = bindings;
   VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
   vkCreateDescriptorSetLayout(device, &set_info, nullptr, &set_layout);
   s.later([device, set_layout] { vkDestroyDescriptorSetLayout(device, set_layout, nullptr); });
   const VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, 8};
   VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
   VkPipelineLayout empty_layout = VK_NULL_HANDLE, layout = VK_NULL_HANDLE;
   vkCreatePipelineLayout(device, &layout_info, nullptr, &empty_layout);
   layout_info.setLayoutCount = 1;
   layout_info.pSetLayouts = &set_layout;
   layout_info.pushConstantRangeCount = 1;
   layout_info.pPushConstantRanges = &push;
   vkCreatePipelineLayout(device, &layout_info, nullptr, &layout);
   s.later([device, empty_layout, layout] {
      vkDestroyPipelineLayout(device, empty_layout, nullptr);
      vkDestroyPipelineLayout(device, layout, nullptr);
   });

   const std::string variant = std::string(c.integer ? "_uint" : "") + (c.array ? "_array" : "");
   VkShaderModule flat_vertex = s.module("msaa_flat.vert");
   VkShaderModule flat_fragment =
      c.depth() ? VK_NULL_HANDLE : s.module(c.integer ? "msaa_flat_uint.frag" : "msaa_flat.frag");
   VkShaderModule fetch_compute = s.module("msaa_fetch" + variant + ".comp");
   VkShaderModule fullscreen = s.module("subpass_fullscreen.vert");
   VkShaderModule fetch_fragment = !pixel_copy ? VK_NULL_HANDLE : s.module(std::string("msaa_fetch") + variant + ".frag");
   if (!flat_vertex || (!c.depth() && !flat_fragment) || !fetch_compute || !fullscreen || (pixel_copy && !fetch_fragment)) {
      error = "a shader module is missing (TERAKAN_API_SHADERS)";
      return false;
   }
   VkPipeline draw_pipeline = s.graphics_pipeline(draw_pass, empty_layout, flat_vertex, flat_fragment, true,
                                                  VK_SAMPLE_COUNT_4_BIT, c.depth() ? 0 : 1, c.depth(), c.has_stencil());
   VkPipeline copy_pipeline = !pixel_copy ? VK_NULL_HANDLE
                                      : s.graphics_pipeline(copy_pass, layout, fullscreen, fetch_fragment, false,
                                                            VK_SAMPLE_COUNT_1_BIT, 4);
   VkComputePipelineCreateInfo compute_info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
   compute_info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
   compute_info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
   compute_info.stage.module = fetch_compute;
   compute_info.stage.pName = "main";
   compute_info.layout = layout;
   VkPipeline compute_pipeline = VK_NULL_HANDLE;
   if (vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &compute_info, nullptr, &compute_pipeline) != VK_SUCCESS)
      compute_pipeline = VK_NULL_HANDLE;
   s.later([device, compute_pipeline] { vkDestroyPipeline(device, compute_pipeline, nullptr); });
   if (!draw_pipeline || !compute_pipeline || (pixel_copy && !copy_pipeline)) {
      error = "pipeline creation failed";
      return false;
   }

   const VkDescriptorPoolSize pool_sizes[2] = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1},
                                               {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}};
   VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
   pool_info.maxSets = 1;
   pool_info.poolSizeCount = 2;
   pool_info.pPoolSizes = pool_sizes;
   VkDescriptorPool pool = VK_NULL_HANDLE;
   vkCreateDescriptorPool(device, &pool_info, nullptr, &pool);
   s.later([device, pool] { vkDestroyDescriptorPool(device, pool, nullptr); });
   VkDescriptorSetAllocateInfo allocate{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
   allocate.descriptorPool = pool;
   allocate.descriptorSetCount = 1;
   allocate.pSetLayouts = &set_layout;
   VkDescriptorSet set = VK_NULL_HANDLE;
   vkAllocateDescriptorSets(device, &allocate, &set);
   const VkDescriptorImageInfo image_info{sampler, sampled, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
   const VkDescriptorBufferInfo buffer_info{compute_buffer, 0, VK_WHOLE_SIZE};
   VkWriteDescriptorSet writes[2] = {{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}, {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}};
   writes[0].dstSet = writes[1].dstSet = set;
   writes[0].descriptorCount = writes[1].descriptorCount = 1;
   writes[0].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
   writes[0].pImageInfo = &image_info;
   writes[1].dstBinding = 1;
   writes[1].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
   writes[1].pBufferInfo = &buffer_info;
   vkUpdateDescriptorSets(device, 2, writes, 0, nullptr);

   VkCommandPoolCreateInfo command_pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
   command_pool_info.queueFamilyIndex = s.family;
   VkCommandPool command_pool = VK_NULL_HANDLE;
   vkCreateCommandPool(device, &command_pool_info, nullptr, &command_pool);
   s.later([device, command_pool] { vkDestroyCommandPool(device, command_pool, nullptr); });
   VkCommandBufferAllocateInfo command_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
   command_info.commandPool = command_pool;
   command_info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
   command_info.commandBufferCount = 1;
   VkCommandBuffer commands = VK_NULL_HANDLE;
   vkAllocateCommandBuffers(device, &command_info, &commands);
   VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
   vkBeginCommandBuffer(commands, &begin);

   /* Every layer cleared (to a different colour each), the triangles drawn into `drawn_layer`. */
   for (uint32_t l = 0; l < layers; l++) {
      VkClearValue clear{};
      if (c.depth())
         clear.depthStencil = {1.0f, 0};
      else if (c.integer)
         clear.color.uint32[0] = 17 + l, clear.color.uint32[1] = 90000, clear.color.uint32[2] = 3, clear.color.uint32[3] = 7;
      else
         clear.color = {{0.125f * float(l), 0.5f, 0.25f, 1.0f}};
      VkRenderPassBeginInfo pass_begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
      pass_begin.renderPass = draw_pass;
      pass_begin.framebuffer = draw_framebuffers[l];
      pass_begin.renderArea = {{0, 0}, {width, height}};
      pass_begin.clearValueCount = 1;
      pass_begin.pClearValues = &clear;
      vkCmdBeginRenderPass(commands, &pass_begin, VK_SUBPASS_CONTENTS_INLINE);
      if (l == drawn_layer) {
         vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, draw_pipeline);
         const VkDeviceSize offset = 0;
         vkCmdBindVertexBuffers(commands, 0, 1, &vertex_buffer, &offset);
         if (c.depth()) {
            for (uint32_t t = 0; t < 3; t++) {
               vkCmdSetStencilReference(commands, VK_STENCIL_FACE_FRONT_AND_BACK, 10 * (t + 1));
               vkCmdDraw(commands, 3, 1, 3 * t, 0);
            }
         } else {
            vkCmdDraw(commands, 9, 1, 0, 0);
         }
      }
      vkCmdEndRenderPass(commands);
   }

   const uint32_t size[2] = {width, height};
   vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, compute_pipeline);
   vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
   vkCmdPushConstants(commands, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 8, size);
   vkCmdDispatch(commands, (width + 7) / 8, (height + 7) / 8, 1);

   if (pixel_copy) {
      VkClearValue clears[4] = {};
      VkRenderPassBeginInfo pass_begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
      pass_begin.renderPass = copy_pass;
      pass_begin.framebuffer = copy_framebuffer;
      pass_begin.renderArea = {{0, 0}, {width, height}};
      pass_begin.clearValueCount = 4;
      pass_begin.pClearValues = clears;
      vkCmdBeginRenderPass(commands, &pass_begin, VK_SUBPASS_CONTENTS_INLINE);
      vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, copy_pipeline);
      vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set, 0, nullptr);
      vkCmdDraw(commands, 3, 1, 0, 0);
      vkCmdEndRenderPass(commands);
      for (unsigned i = 0; i < 4; i++) {
         VkBufferImageCopy region{};
         region.bufferOffset = copy_bytes * i;
         region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
         region.imageExtent = {width, height, 1};
         vkCmdCopyImageToBuffer(commands, copies[i], VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, pixel_buffer, 1, &region);
      }
   }
   VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
   to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT;
   to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
   vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                        VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0, nullptr, 0, nullptr);
   if (vkEndCommandBuffer(commands) != VK_SUCCESS) {
      error = "recording failed";
      return false;
   }
   VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
   submit.commandBufferCount = 1;
   submit.pCommandBuffers = &commands;
   if (vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE) != VK_SUCCESS || vkQueueWaitIdle(queue) != VK_SUCCESS) {
      error = "submission failed";
      return false;
   }
   const auto *words = static_cast<const uint32_t *>(compute_map);
   out.compute.assign(words, words + compute_bytes / 4);
   if (pixel_copy) {
      const auto *bytes = static_cast<const uint8_t *>(pixel_map);
      out.pixel.assign(bytes, bytes + copy_bytes * 4);
   }
   return true;
}

class MsaaSampling : public ::testing::TestWithParam<Case> {};

TEST_P(MsaaSampling, EverySampleFetchedAsLavapipeDoes)
{
   const Case &c = GetParam();
   unsigned our_messages = 0, their_messages = 0;
   std::string error;
   Results ours, theirs;
   ASSERT_TRUE(run("Terakan", c, ours, our_messages, error)) << "Terakan: " << error;
   ASSERT_TRUE(run("llvmpipe", c, theirs, their_messages, error)) << "lavapipe: " << error;
   EXPECT_EQ(our_messages, 0u);
   EXPECT_EQ(their_messages, 0u);

   /* textureSize and textureSamples, after the texels. */
   const size_t header = size_t(width) * height * 4 * 4;
   ASSERT_EQ(ours.compute.size(), header + 4);
   EXPECT_EQ(ours.compute[header + 0], width);
   EXPECT_EQ(ours.compute[header + 1], height);
   EXPECT_EQ(ours.compute[header + 2], c.array ? 2u : 0u);
   EXPECT_EQ(ours.compute[header + 3], 4u);

   /* UNORM8 codes as floats: Terakan's must be c / 255 correctly rounded, lavapipe's may be one
    * ULP off it. */
   auto unorm8_agrees = [&](uint32_t our_bits, uint32_t their_bits) {
      float value;
      std::memcpy(&value, &our_bits, 4);
      const float code = value * 255.0f;
      if (code != float(int(code + 0.5f)) && std::abs(code - float(int(code + 0.5f))) > 1e-4f)
         return false;
      const float exact = float(int(code + 0.5f)) / 255.0f;
      uint32_t exact_bits;
      std::memcpy(&exact_bits, &exact, 4);
      return our_bits == exact_bits && (their_bits == exact_bits || their_bits == exact_bits + 1 ||
                                        their_bits + 1 == exact_bits);
   };
   const bool unorm8 = c.format == VK_FORMAT_R8G8B8A8_UNORM;
   unsigned reported = 0, mixed_pixels = 0, ulp_differences = 0;
   for (size_t i = 0; i < ours.compute.size() && reported < 8; i++)
      if (ours.compute[i] != theirs.compute[i]) {
         if (c.depth() && i < header && i % 4 != 0)
            continue; /* only x of a depth or stencil texel */
         if (unorm8 && i < header && unorm8_agrees(ours.compute[i], theirs.compute[i])) {
            ulp_differences++;
            continue;
         }
         const size_t sample = i / 4;
         ADD_FAILURE() << "compute: pixel " << (sample / 4) % width << "," << (sample / 4) / width << " sample "
                       << sample % 4 << " word " << i % 4 << ": Terakan 0x" << std::hex << ours.compute[i]
                       << ", lavapipe 0x" << theirs.compute[i] << std::dec;
         reported++;
      }
   /* The scene must hold pixels whose samples differ (edges cutting pixels), or it proves
    * nothing about FMASK. */
   for (size_t p = 0; p < size_t(width) * height; p++) {
      const uint32_t *first = &ours.compute[p * 16];
      for (unsigned s = 1; s < 4; s++)
         if (std::memcmp(first, first + 4 * s, c.depth() ? 4 : 16) != 0) {
            mixed_pixels++;
            break;
         }
   }
   EXPECT_GE(mixed_pixels, 20u);
   if (ulp_differences)
      std::printf("%u UNORM8 samples read 1 ULP apart from lavapipe's (lavapipe's conversion)\n", ulp_differences);

   ASSERT_EQ(ours.pixel.size(), theirs.pixel.size());
   reported = 0;
   const size_t plane = size_t(width) * height * c.bytes;
   for (size_t i = 0; i < ours.pixel.size() && reported < 8; i++)
      if (ours.pixel[i] != theirs.pixel[i]) {
         const size_t texel = (i % plane) / c.bytes;
         ADD_FAILURE() << "pixel shader: sample " << i / plane << " of pixel " << texel % width << ","
                       << texel / width << " byte " << (i % plane) % c.bytes << ": Terakan "
                       << unsigned(ours.pixel[i]) << ", lavapipe " << unsigned(theirs.pixel[i]);
         reported++;
      }
}

const Case cases[] = {
   {VK_FORMAT_R8G8B8A8_UNORM, false, 4, false},
   {VK_FORMAT_R32G32B32A32_SFLOAT, false, 16, false},
   {VK_FORMAT_R32G32B32A32_UINT, true, 16, false},
   {VK_FORMAT_R8G8B8A8_UNORM, false, 4, true},
   {VK_FORMAT_R32G32B32A32_UINT, true, 16, true},
   {VK_FORMAT_D32_SFLOAT, false, 4, false, VK_IMAGE_ASPECT_DEPTH_BIT},
   {VK_FORMAT_D16_UNORM, false, 2, false, VK_IMAGE_ASPECT_DEPTH_BIT},
   {VK_FORMAT_D24_UNORM_S8_UINT, false, 4, false, VK_IMAGE_ASPECT_DEPTH_BIT},
   {VK_FORMAT_D24_UNORM_S8_UINT, true, 1, false, VK_IMAGE_ASPECT_STENCIL_BIT},
   {VK_FORMAT_D32_SFLOAT, false, 4, true, VK_IMAGE_ASPECT_DEPTH_BIT},
};

std::string case_name(const ::testing::TestParamInfo<Case> &info)
{
   std::string name;
   switch (info.param.format) {
   case VK_FORMAT_R8G8B8A8_UNORM: name = "Rgba8Unorm"; break;
   case VK_FORMAT_R32G32B32A32_SFLOAT: name = "Rgba32Float"; break;
   case VK_FORMAT_D32_SFLOAT: name = "D32Float"; break;
   case VK_FORMAT_D16_UNORM: name = "D16Unorm"; break;
   case VK_FORMAT_D24_UNORM_S8_UINT:
      name = info.param.aspect == VK_IMAGE_ASPECT_STENCIL_BIT ? "D24S8Stencil" : "D24S8Depth";
      break;
   default: name = "Rgba32Uint"; break;
   }
   return name + (info.param.array ? "Layer1OfTwo" : "");
}

INSTANTIATE_TEST_SUITE_P(Formats, MsaaSampling, ::testing::ValuesIn(cases), case_name);

/* A 4-sample RGBA8 input attachment: the first subpass draws the scene into it, the second
 * copies its four samples at each pixel (subpassLoad(subpassInputMS, i), which the compiler
 * turns into a multisampled 2D-array fetch through FMASK) into four single-sample targets,
 * which are read back. */
bool run_input_attachment(const char *name, std::vector<uint8_t> &out, unsigned &messages, std::string &error)
{
   MsaaSession s;
   if (!open_device(s, name, true, messages, error))
      return false;
   VkDevice device = s.device;
   VkQueue queue;
   vkGetDeviceQueue(device, s.family, 0, &queue);
   const VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
   VkImage ms = s.image(format, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT,
                        VK_SAMPLE_COUNT_4_BIT, 1);
   if (!ms) {
      error = "the 4-sample input attachment was refused";
      return false;
   }
   std::vector<VkImageView> views{s.view(ms, format, VK_IMAGE_VIEW_TYPE_2D, 0, 1)};
   std::vector<VkImage> copies;
   for (unsigned i = 0; i < 4; i++) {
      copies.push_back(s.image(format, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                               VK_SAMPLE_COUNT_1_BIT, 1));
      views.push_back(copies.back() ? s.view(copies.back(), format, VK_IMAGE_VIEW_TYPE_2D, 0, 1) : VK_NULL_HANDLE);
   }
   for (VkImageView v : views)
      if (!v) {
         error = "image or view creation failed";
         return false;
      }
   void *vertex_map = nullptr, *readback_map = nullptr;
   const VkDeviceSize plane = width * height * 4;
   VkBuffer vertex_buffer = s.buffer(sizeof(vertices), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, vertex_map);
   VkBuffer readback = s.buffer(plane * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, readback_map);
   if (!vertex_buffer || !readback) {
      error = "buffer creation failed";
      return false;
   }
   std::memcpy(vertex_map, vertices, sizeof(vertices));

   VkAttachmentDescription attachments[5] = {};
   for (unsigned i = 0; i < 5; i++) {
      VkAttachmentDescription &d = attachments[i];
      d.format = format;
      d.samples = i == 0 ? VK_SAMPLE_COUNT_4_BIT : VK_SAMPLE_COUNT_1_BIT;
      d.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
      d.storeOp = i == 0 ? VK_ATTACHMENT_STORE_OP_DONT_CARE : VK_ATTACHMENT_STORE_OP_STORE;
      d.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
      d.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
      d.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
      d.finalLayout = i == 0 ? VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL : VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
   }
   const VkAttachmentReference scene_out{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
   const VkAttachmentReference scene_in{0, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
   const VkAttachmentReference copy_out[4] = {{1, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL},
                                              {2, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL},
                                              {3, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL},
                                              {4, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL}};
   VkSubpassDescription subpasses[2] = {};
   subpasses[0].pipelineBindPoint = subpasses[1].pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
   subpasses[0].colorAttachmentCount = 1;
   subpasses[0].pColorAttachments = &scene_out;
   subpasses[1].inputAttachmentCount = 1;
   subpasses[1].pInputAttachments = &scene_in;
   subpasses[1].colorAttachmentCount = 4;
   subpasses[1].pColorAttachments = copy_out;
   VkSubpassDependency dependencies[2] = {};
   dependencies[0].srcSubpass = 0;
   dependencies[0].dstSubpass = 1;
   dependencies[0].srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
   dependencies[0].dstStageMask = VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT;
   dependencies[0].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
   dependencies[0].dstAccessMask = VK_ACCESS_INPUT_ATTACHMENT_READ_BIT;
   dependencies[0].dependencyFlags = VK_DEPENDENCY_BY_REGION_BIT;
   dependencies[1].srcSubpass = 1;
   dependencies[1].dstSubpass = VK_SUBPASS_EXTERNAL;
   dependencies[1].srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
   dependencies[1].dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
   dependencies[1].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
   dependencies[1].dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
   VkRenderPassCreateInfo pass_info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
   pass_info.attachmentCount = 5;
   pass_info.pAttachments = attachments;
   pass_info.subpassCount = 2;
   pass_info.pSubpasses = subpasses;
   pass_info.dependencyCount = 2;
   pass_info.pDependencies = dependencies;
   VkRenderPass pass = VK_NULL_HANDLE;
   if (vkCreateRenderPass(device, &pass_info, nullptr, &pass) != VK_SUCCESS) {
      error = "render pass creation failed";
      return false;
   }
   s.later([device, pass] { vkDestroyRenderPass(device, pass, nullptr); });
   VkFramebuffer framebuffer = s.framebuffer(pass, views);

   const VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, 1, VK_SHADER_STAGE_FRAGMENT_BIT,
                                              nullptr};
   VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
   set_info.bindingCount = 1;
   set_info.pBindings = &binding;
   VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
   vkCreateDescriptorSetLayout(device, &set_info, nullptr, &set_layout);
   s.later([device, set_layout] { vkDestroyDescriptorSetLayout(device, set_layout, nullptr); });
   VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
   VkPipelineLayout layouts[2] = {};
   vkCreatePipelineLayout(device, &layout_info, nullptr, &layouts[0]);
   layout_info.setLayoutCount = 1;
   layout_info.pSetLayouts = &set_layout;
   vkCreatePipelineLayout(device, &layout_info, nullptr, &layouts[1]);
   s.later([device, layouts] {
      for (VkPipelineLayout l : layouts)
         vkDestroyPipelineLayout(device, l, nullptr);
   });
   VkShaderModule flat_vertex = s.module("msaa_flat.vert"), flat_fragment = s.module("msaa_flat.frag");
   VkShaderModule fullscreen = s.module("subpass_fullscreen.vert"), copy = s.module("msaa_input_attachment.frag");
   if (!flat_vertex || !flat_fragment || !fullscreen || !copy) {
      error = "a shader module is missing (TERAKAN_API_SHADERS)";
      return false;
   }
   VkPipeline draw_pipeline =
      s.graphics_pipeline(pass, layouts[0], flat_vertex, flat_fragment, true, VK_SAMPLE_COUNT_4_BIT, 1);
   /* The copy pipeline belongs to subpass 1. */
   VkPipeline copy_pipeline = VK_NULL_HANDLE;
   {
      VkPipelineShaderStageCreateInfo stages[2] = {};
      for (unsigned i = 0; i < 2; i++) {
         stages[i].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
         stages[i].stage = i == 0 ? VK_SHADER_STAGE_VERTEX_BIT : VK_SHADER_STAGE_FRAGMENT_BIT;
         stages[i].module = i == 0 ? fullscreen : copy;
         stages[i].pName = "main";
      }
      VkPipelineVertexInputStateCreateInfo input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
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
      multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
      VkPipelineColorBlendAttachmentState blend[4] = {};
      for (auto &b : blend)
         b.colorWriteMask = 0xf;
      VkPipelineColorBlendStateCreateInfo blend_state{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
      blend_state.attachmentCount = 4;
      blend_state.pAttachments = blend;
      VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
      info.stageCount = 2;
      info.pStages = stages;
      info.pVertexInputState = &input;
      info.pInputAssemblyState = &assembly;
      info.pViewportState = &viewport_state;
      info.pRasterizationState = &raster;
      info.pMultisampleState = &multisample;
      info.pColorBlendState = &blend_state;
      info.layout = layouts[1];
      info.renderPass = pass;
      info.subpass = 1;
      if (vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &copy_pipeline) != VK_SUCCESS)
         copy_pipeline = VK_NULL_HANDLE;
      s.later([device, copy_pipeline] { vkDestroyPipeline(device, copy_pipeline, nullptr); });
   }
   if (!draw_pipeline || !copy_pipeline || !framebuffer) {
      error = "pipeline or framebuffer creation failed";
      return false;
   }
   const VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, 1};
   VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
   pool_info.maxSets = 1;
   pool_info.poolSizeCount = 1;
   pool_info.pPoolSizes = &pool_size;
   VkDescriptorPool pool = VK_NULL_HANDLE;
   vkCreateDescriptorPool(device, &pool_info, nullptr, &pool);
   s.later([device, pool] { vkDestroyDescriptorPool(device, pool, nullptr); });
   VkDescriptorSetAllocateInfo allocate{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
   allocate.descriptorPool = pool;
   allocate.descriptorSetCount = 1;
   allocate.pSetLayouts = &set_layout;
   VkDescriptorSet set = VK_NULL_HANDLE;
   vkAllocateDescriptorSets(device, &allocate, &set);
   const VkDescriptorImageInfo image_info{VK_NULL_HANDLE, views[0], VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
   VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
   write.dstSet = set;
   write.descriptorCount = 1;
   write.descriptorType = VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT;
   write.pImageInfo = &image_info;
   vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);

   VkCommandPoolCreateInfo command_pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
   command_pool_info.queueFamilyIndex = s.family;
   VkCommandPool command_pool = VK_NULL_HANDLE;
   vkCreateCommandPool(device, &command_pool_info, nullptr, &command_pool);
   s.later([device, command_pool] { vkDestroyCommandPool(device, command_pool, nullptr); });
   VkCommandBufferAllocateInfo command_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
   command_info.commandPool = command_pool;
   command_info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
   command_info.commandBufferCount = 1;
   VkCommandBuffer commands = VK_NULL_HANDLE;
   vkAllocateCommandBuffers(device, &command_info, &commands);
   VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
   vkBeginCommandBuffer(commands, &begin);
   VkClearValue clears[5] = {};
   clears[0].color = {{0.0f, 0.5f, 0.25f, 1.0f}};
   VkRenderPassBeginInfo pass_begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
   pass_begin.renderPass = pass;
   pass_begin.framebuffer = framebuffer;
   pass_begin.renderArea = {{0, 0}, {width, height}};
   pass_begin.clearValueCount = 5;
   pass_begin.pClearValues = clears;
   vkCmdBeginRenderPass(commands, &pass_begin, VK_SUBPASS_CONTENTS_INLINE);
   vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, draw_pipeline);
   const VkDeviceSize offset = 0;
   vkCmdBindVertexBuffers(commands, 0, 1, &vertex_buffer, &offset);
   vkCmdDraw(commands, 9, 1, 0, 0);
   vkCmdNextSubpass(commands, VK_SUBPASS_CONTENTS_INLINE);
   vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, copy_pipeline);
   vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, layouts[1], 0, 1, &set, 0, nullptr);
   vkCmdDraw(commands, 3, 1, 0, 0);
   vkCmdEndRenderPass(commands);
   for (unsigned i = 0; i < 4; i++) {
      VkBufferImageCopy region{};
      region.bufferOffset = plane * i;
      region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
      region.imageExtent = {width, height, 1};
      vkCmdCopyImageToBuffer(commands, copies[i], VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1, &region);
   }
   VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
   to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
   to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
   vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0,
                        nullptr, 0, nullptr);
   if (vkEndCommandBuffer(commands) != VK_SUCCESS) {
      error = "recording failed";
      return false;
   }
   VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
   submit.commandBufferCount = 1;
   submit.pCommandBuffers = &commands;
   if (vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE) != VK_SUCCESS || vkQueueWaitIdle(queue) != VK_SUCCESS) {
      error = "submission failed";
      return false;
   }
   const auto *bytes = static_cast<const uint8_t *>(readback_map);
   out.assign(bytes, bytes + plane * 4);
   return true;
}

TEST(MsaaInputAttachment, EverySampleReadBySubpassLoad)
{
   unsigned our_messages = 0, their_messages = 0;
   std::string error;
   std::vector<uint8_t> ours, theirs;
   ASSERT_TRUE(run_input_attachment("Terakan", ours, our_messages, error)) << "Terakan: " << error;
   ASSERT_TRUE(run_input_attachment("llvmpipe", theirs, their_messages, error)) << "lavapipe: " << error;
   EXPECT_EQ(our_messages, 0u);
   EXPECT_EQ(their_messages, 0u);
   ASSERT_EQ(ours.size(), theirs.size());
   const size_t plane = size_t(width) * height * 4;
   unsigned reported = 0, mixed_pixels = 0;
   for (size_t i = 0; i < ours.size() && reported < 8; i++)
      if (ours[i] != theirs[i]) {
         const size_t texel = (i % plane) / 4;
         ADD_FAILURE() << "sample " << i / plane << " of pixel " << texel % width << "," << texel / width << " byte "
                       << i % 4 << ": Terakan " << unsigned(ours[i]) << ", lavapipe " << unsigned(theirs[i]);
         reported++;
      }
   for (size_t p = 0; p < plane; p += 4)
      for (unsigned s = 1; s < 4; s++)
         if (std::memcmp(&ours[p], &ours[s * plane + p], 4) != 0) {
            mixed_pixels++;
            break;
         }
   EXPECT_GE(mixed_pixels, 20u);
}

/* The limits say 2, 4 and 8 samples for sampled colour, integer, depth and stencil images; the
 * image format properties agree per format, and what is not offered (storage) is refused by
 * vkCreateImage with a result and a message (no validation layer here: the calls are invalid
 * on purpose). */
TEST(MsaaSamplingLimits, AdvertisedCountsAndRefusals)
{
   MsaaSession s;
   unsigned messages = 0;
   std::string error;
   ASSERT_TRUE(open_device(s, "Terakan", false, messages, error)) << error;
   VkPhysicalDeviceProperties properties;
   vkGetPhysicalDeviceProperties(s.physical, &properties);
   const VkPhysicalDeviceLimits &limits = properties.limits;
   const VkSampleCountFlags offered =
      VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_2_BIT | VK_SAMPLE_COUNT_4_BIT | VK_SAMPLE_COUNT_8_BIT;
   EXPECT_EQ(limits.sampledImageColorSampleCounts, offered);
   EXPECT_EQ(limits.sampledImageIntegerSampleCounts, offered);
   EXPECT_EQ(limits.storageImageSampleCounts, VK_SAMPLE_COUNT_1_BIT);

   auto counts = [&](VkFormat format, VkImageUsageFlags usage) {
      VkImageFormatProperties out{};
      if (vkGetPhysicalDeviceImageFormatProperties(s.physical, format, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                                                   usage, 0, &out) != VK_SUCCESS)
         return VkSampleCountFlags(0);
      return out.sampleCounts;
   };
   const VkImageUsageFlags sampled_target = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
   for (VkFormat format : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_R32G32B32A32_UINT})
      EXPECT_EQ(counts(format, sampled_target), offered) << format;
   EXPECT_EQ(counts(VK_FORMAT_R8G8B8A8_UNORM, sampled_target | VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT),
             offered);
   const VkImageUsageFlags sampled_depth = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT;
   for (VkFormat format : {VK_FORMAT_D16_UNORM, VK_FORMAT_D32_SFLOAT, VK_FORMAT_D24_UNORM_S8_UINT})
      EXPECT_EQ(counts(format, sampled_depth), offered) << format;
   EXPECT_EQ(limits.sampledImageDepthSampleCounts, offered);
   EXPECT_EQ(limits.sampledImageStencilSampleCounts, offered);
   /* Depth input attachments: single-sample only (read as sampled depth is; multisampled
    * depth is not read by subpassLoad here). */
   EXPECT_EQ(counts(VK_FORMAT_D32_SFLOAT, sampled_depth | VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT), VK_SAMPLE_COUNT_1_BIT);

   VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
   info.imageType = VK_IMAGE_TYPE_2D;
   info.format = VK_FORMAT_D32_SFLOAT;
   info.extent = {width, height, 1};
   info.mipLevels = 1;
   info.arrayLayers = 1;
   info.samples = VK_SAMPLE_COUNT_4_BIT;
   info.tiling = VK_IMAGE_TILING_OPTIMAL;
   info.usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT;
   VkImage image = VK_NULL_HANDLE;
   EXPECT_NE(vkCreateImage(s.device, &info, nullptr, &image), VK_SUCCESS);
   EXPECT_EQ(image, VkImage(VK_NULL_HANDLE));
   info.format = VK_FORMAT_R8G8B8A8_UNORM;
   info.usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
   EXPECT_EQ(vkCreateImage(s.device, &info, nullptr, &image), VK_ERROR_FEATURE_NOT_PRESENT);
   info.usage = sampled_target;
   info.arrayLayers = 2;
   ASSERT_EQ(vkCreateImage(s.device, &info, nullptr, &image), VK_SUCCESS);
   vkDestroyImage(s.device, image, nullptr);
}

} // namespace
