/* vkCmdCopyImage between multisampled images, through the driver on the simulated GPU
 * (TERAKAN_SIM_CHIP picks the chip) and on lavapipe, with the Khronos validation layer
 * counting findings.
 *
 * Each run draws flat-coloured triangles whose edges cut pixels into both layers of a two-layer
 * source (so that pixels hold different samples, and FMASK several fragments) and, differently,
 * into a destination; reads every sample of both with texelFetch in a compute shader (no
 * resolve takes part); copies three regions at odd offsets, one between different layers and
 * one of two layers, from the source into the destination, and the whole source into a third
 * image; and reads every sample again. Checks:
 *   - on each driver, against the CPU: the destination after the copy is the destination
 *     before it with each region's samples replaced by the source's, sample by sample, and the
 *     whole copy equals the source; the copied regions hold pixels with different samples (a
 *     copy of one sample per pixel would fail);
 *   - at 4 samples, against lavapipe: every sample of the source, the destination and the
 *     whole copy (UNORM and 16/24-bit depth compared as codes: lavapipe's conversion to float
 *     may be one ULP off c / (2^n - 1)). lavapipe has only 4 samples, so 2 and 8 are checked
 *     against the CPU alone;
 *   - on Terakan, with TERAKAN_DEBUG=copies: the regions are drawn ("multisampled draw") and
 *     the whole copy is one CP DMA run of the slices (and FMASK for colour).
 * Colour: RGBA8 UNORM, R8 UNORM, RGBA16 SFLOAT, RGBA32 UINT, RGBA32 SFLOAT (texels of 1, 4, 8
 * and 16 bytes); depth/stencil: D16, D32F, D24S8 and D32FS8 (both
 * aspects in one region: the depth through FragDepth, the stencil through the stencil
 * reference export; checked against the CPU alone, also a region of each aspect alone). RGBA8
 * at 2x and 4x also with every image bound at its reported alignment rather than at 0 (the
 * kernel's check of a multisampled texture's base). */
#include <gtest/gtest.h>

#include <unistd.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "../vulkan_helpers.h"
#include "session.h"

namespace {

using namespace terakan::test;

constexpr uint32_t width = 20, height = 12, layers = 2;

struct Vertex {
   float x, y, z, w, r, g, b, a;
};
/* Two sets of three triangles, positions off the pixel and sample grids; colours multiples of
 * 1/8 (exact in every format, and x 1000 as integers by msaa_flat_uint.frag). */
const Vertex vertices[18] = {
   {-0.93f, -0.87f, 0, 1, 1.0f, 0.125f, 0.0f, 1.0f},   {0.71f, -0.97f, 0, 1, 1.0f, 0.125f, 0.0f, 1.0f},
   {-0.61f, 0.89f, 0, 1, 1.0f, 0.125f, 0.0f, 1.0f},    {-0.13f, -0.31f, 0, 1, 0.25f, 0.75f, 0.5f, 0.875f},
   {0.97f, 0.07f, 0, 1, 0.25f, 0.75f, 0.5f, 0.875f},   {0.23f, 0.99f, 0, 1, 0.25f, 0.75f, 0.5f, 0.875f},
   {0.31f, -0.95f, 0, 1, 0.0f, 0.375f, 1.0f, 0.625f},  {0.99f, -0.41f, 0, 1, 0.0f, 0.375f, 1.0f, 0.625f},
   {0.45f, -0.11f, 0, 1, 0.0f, 0.375f, 1.0f, 0.625f},
   {0.89f, -0.83f, 0, 1, 0.5f, 0.0f, 0.875f, 0.25f},   {-0.77f, -0.29f, 0, 1, 0.5f, 0.0f, 0.875f, 0.25f},
   {0.53f, 0.95f, 0, 1, 0.5f, 0.0f, 0.875f, 0.25f},    {-0.97f, 0.37f, 0, 1, 0.625f, 1.0f, 0.25f, 0.0f},
   {-0.05f, 0.93f, 0, 1, 0.625f, 1.0f, 0.25f, 0.0f},   {-0.41f, -0.99f, 0, 1, 0.625f, 1.0f, 0.25f, 0.0f},
   {0.11f, -0.63f, 0, 1, 0.875f, 0.5f, 0.125f, 0.5f},  {0.95f, 0.61f, 0, 1, 0.875f, 0.5f, 0.125f, 0.5f},
   {-0.35f, 0.47f, 0, 1, 0.875f, 0.5f, 0.125f, 0.5f},
};
/* Constant depths and stencil references per triangle (both drivers store exactly these). */
constexpr float triangle_depths[6] = {0.5f, 0.25f, 0.75f, 0.375f, 0.625f, 0.125f};
constexpr uint32_t triangle_references[6] = {10, 20, 30, 40, 50, 60};

struct Case {
   VkSampleCountFlagBits samples;
   VkFormat format;
   bool against_lavapipe; /* 4 samples */
   /* Each image bound at its reported alignment into a larger allocation, not at 0 (the
    * kernel checks a multisampled texture's base against a larger macro tile). */
   bool bind_offset = false;
};

bool has_stencil(VkFormat f)
{
   return f == VK_FORMAT_D24_UNORM_S8_UINT || f == VK_FORMAT_D32_SFLOAT_S8_UINT;
}
bool is_depth(VkFormat f)
{
   return f == VK_FORMAT_D16_UNORM || f == VK_FORMAT_D32_SFLOAT || has_stencil(f);
}
/* The aspects read back, one after the other. */
std::vector<VkImageAspectFlagBits> read_aspects(VkFormat f)
{
   if (!is_depth(f))
      return {VK_IMAGE_ASPECT_COLOR_BIT};
   if (has_stencil(f))
      return {VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_ASPECT_STENCIL_BIT};
   return {VK_IMAGE_ASPECT_DEPTH_BIT};
}
bool reads_integers(VkFormat f, VkImageAspectFlagBits aspect)
{
   return aspect == VK_IMAGE_ASPECT_STENCIL_BIT || f == VK_FORMAT_R32G32B32A32_UINT;
}

VkImageAspectFlags all_aspects_of(VkFormat f)
{
   return is_depth(f) ? VK_IMAGE_ASPECT_DEPTH_BIT | (has_stencil(f) ? VK_IMAGE_ASPECT_STENCIL_BIT : 0)
                      : VK_IMAGE_ASPECT_COLOR_BIT;
}

/* The regions copied into the destination: a layer to another, a layer to another the other
 * way, two layers, all aspects each; for a depth/stencil format checked against the CPU alone
 * also one of the depth aspect alone and one of the stencil aspect alone (each draw must leave
 * the other aspect as it was; lavapipe is not asked: it copies a combined texel whole when
 * asked for one aspect, the vkCmdCopyImage2 row of docs/status.md). The destination rectangles
 * do not overlap. */
std::vector<VkImageCopy> regions_of(const Case &c)
{
   const VkImageAspectFlags aspects = all_aspects_of(c.format);
   std::vector<VkImageCopy> out = {
      {{aspects, 0, 1, 1}, {3, 2, 0}, {aspects, 0, 0, 1}, {5, 1, 0}, {9, 7, 1}},
      {{aspects, 0, 0, 1}, {0, 0, 0}, {aspects, 0, 1, 1}, {11, 4, 0}, {8, 6, 1}},
      {{aspects, 0, 0, 2}, {12, 0, 0}, {aspects, 0, 0, 2}, {0, 8, 0}, {8, 4, 1}},
   };
   if (has_stencil(c.format) && !c.against_lavapipe) {
      const VkImageAspectFlags d = VK_IMAGE_ASPECT_DEPTH_BIT, st = VK_IMAGE_ASPECT_STENCIL_BIT;
      out.push_back({{d, 0, 1, 1}, {2, 3, 0}, {d, 0, 0, 1}, {14, 2, 0}, {5, 6, 1}});
      out.push_back({{st, 0, 0, 1}, {6, 1, 0}, {st, 0, 1, 1}, {1, 1, 0}, {7, 5, 1}});
   }
   return out;
}

/* The regions that copy `aspect`. */
std::vector<VkImageCopy> regions_of(const Case &c, VkImageAspectFlagBits aspect)
{
   std::vector<VkImageCopy> out;
   for (const VkImageCopy &r : regions_of(c))
      if (r.srcSubresource.aspectMask & aspect)
         out.push_back(r);
   return out;
}

/* Where sample s of pixel (x, y) of layer l is in a readback (words). */
size_t word_of(uint32_t l, uint32_t x, uint32_t y, uint32_t s)
{
   return ((size_t(l) * height + y) * width + x) * 8 * 4 + size_t(s) * 4;
}
constexpr size_t readback_words = size_t(layers) * height * width * 8 * 4;

/* One driver's readbacks, per aspect. */
struct Results {
   std::vector<std::vector<uint32_t>> source, before, after, whole;
   std::string report; /* TERAKAN_DEBUG=copies while the copies were recorded */
};

std::string capture_stderr(const std::function<void()> &work)
{
   char path[] = "/tmp/terakan-copies-msaa-XXXXXX";
   const int fd = mkstemp(path);
   if (fd < 0) {
      work();
      return {};
   }
   std::fflush(stderr);
   const int saved = dup(2);
   dup2(fd, 2);
   work();
   std::fflush(stderr);
   dup2(saved, 2);
   close(saved);
   close(fd);
   std::ifstream file(path);
   std::stringstream text;
   text << file.rdbuf();
   unlink(path);
   return text.str();
}

class CopySession : public Session {
public:
   ~CopySession() override { release(); }

   /* An image bound `alignment` bytes into memory of its own (null on failure). */
   VkImage image_at_alignment(const VkImageCreateInfo &info)
   {
      VkImage image = VK_NULL_HANDLE;
      if (vkCreateImage(device, &info, nullptr, &image) != VK_SUCCESS)
         return VK_NULL_HANDLE;
      later([this, image] { vkDestroyImage(device, image, nullptr); });
      VkMemoryRequirements requirements;
      vkGetImageMemoryRequirements(device, image, &requirements);
      const auto type = find_memory_type(physical, requirements.memoryTypeBits, 0);
      if (!type)
         return VK_NULL_HANDLE;
      VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
      allocate.allocationSize = requirements.size + requirements.alignment;
      allocate.memoryTypeIndex = *type;
      VkDeviceMemory memory = VK_NULL_HANDLE;
      if (vkAllocateMemory(device, &allocate, nullptr, &memory) != VK_SUCCESS)
         return VK_NULL_HANDLE;
      later([this, memory] { vkFreeMemory(device, memory, nullptr); });
      return vkBindImageMemory(device, image, memory, requirements.alignment) == VK_SUCCESS ? image : VK_NULL_HANDLE;
   }

   VkRenderPass pass(VkFormat format, VkSampleCountFlagBits samples)
   {
      const bool depth = is_depth(format);
      VkAttachmentDescription a{};
      a.format = format;
      a.samples = samples;
      a.loadOp = a.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
      a.storeOp = a.stencilStoreOp = VK_ATTACHMENT_STORE_OP_STORE;
      a.initialLayout = a.finalLayout = VK_IMAGE_LAYOUT_GENERAL;
      const VkAttachmentReference reference{0, VK_IMAGE_LAYOUT_GENERAL};
      VkSubpassDescription subpass{};
      subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
      if (depth) {
         subpass.pDepthStencilAttachment = &reference;
      } else {
         subpass.colorAttachmentCount = 1;
         subpass.pColorAttachments = &reference;
      }
      VkSubpassDependency after{};
      after.srcSubpass = 0;
      after.dstSubpass = VK_SUBPASS_EXTERNAL;
      after.srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
      after.dstStageMask = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
      after.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
      after.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
      VkRenderPassCreateInfo info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
      info.attachmentCount = 1;
      info.pAttachments = &a;
      info.subpassCount = 1;
      info.pSubpasses = &subpass;
      info.dependencyCount = 1;
      info.pDependencies = &after;
      VkRenderPass out = VK_NULL_HANDLE;
      if (vkCreateRenderPass(device, &info, nullptr, &out) != VK_SUCCESS)
         return VK_NULL_HANDLE;
      later([this, out] { vkDestroyRenderPass(device, out, nullptr); });
      return out;
   }

   VkFramebuffer framebuffer(VkRenderPass pass, VkImageView view)
   {
      VkFramebufferCreateInfo info{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
      info.renderPass = pass;
      info.attachmentCount = 1;
      info.pAttachments = &view;
      info.width = width;
      info.height = height;
      info.layers = 1;
      VkFramebuffer out = VK_NULL_HANDLE;
      if (vkCreateFramebuffer(device, &info, nullptr, &out) != VK_SUCCESS)
         return VK_NULL_HANDLE;
      later([this, out] { vkDestroyFramebuffer(device, out, nullptr); });
      return out;
   }

   /* Flat triangles into a colour target, or at their constant depths (test LESS) with their
    * stencil references (REPLACE) into a depth/stencil one. */
   VkPipeline draw_pipeline(VkRenderPass pass, VkPipelineLayout layout, VkShaderModule vertex, VkShaderModule fragment,
                            VkFormat format, VkSampleCountFlagBits samples)
   {
      const bool depth = is_depth(format);
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
      input.vertexAttributeDescriptionCount = 2;
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
      VkPipelineColorBlendAttachmentState blend{};
      blend.colorWriteMask = 0xf;
      VkPipelineColorBlendStateCreateInfo blend_state{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
      blend_state.attachmentCount = depth ? 0 : 1;
      blend_state.pAttachments = &blend;
      VkPipelineDepthStencilStateCreateInfo depth_state{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
      depth_state.depthTestEnable = depth_state.depthWriteEnable = VK_TRUE;
      depth_state.depthCompareOp = VK_COMPARE_OP_LESS;
      depth_state.stencilTestEnable = has_stencil(format);
      depth_state.front = {VK_STENCIL_OP_KEEP, VK_STENCIL_OP_REPLACE, VK_STENCIL_OP_KEEP, VK_COMPARE_OP_ALWAYS,
                           0xff, 0xff, 0};
      depth_state.back = depth_state.front;
      const VkDynamicState dynamic_states[] = {VK_DYNAMIC_STATE_STENCIL_REFERENCE};
      VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
      dynamic.dynamicStateCount = 1;
      dynamic.pDynamicStates = dynamic_states;
      VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
      info.stageCount = depth ? 1 : 2;
      info.pStages = stages;
      info.pVertexInputState = &input;
      info.pInputAssemblyState = &assembly;
      info.pViewportState = &viewport_state;
      info.pRasterizationState = &raster;
      info.pMultisampleState = &multisample;
      info.pColorBlendState = &blend_state;
      if (depth) {
         info.pDepthStencilState = &depth_state;
         info.pDynamicState = &dynamic;
      }
      info.layout = layout;
      info.renderPass = pass;
      VkPipeline out = VK_NULL_HANDLE;
      if (vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &out) != VK_SUCCESS)
         return VK_NULL_HANDLE;
      later([this, out] { vkDestroyPipeline(device, out, nullptr); });
      return out;
   }

   VkPipeline compute_pipeline(VkShaderModule module, VkPipelineLayout layout)
   {
      VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
      info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
      info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
      info.stage.module = module;
      info.stage.pName = "main";
      info.layout = layout;
      VkPipeline out = VK_NULL_HANDLE;
      if (vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &out) != VK_SUCCESS)
         return VK_NULL_HANDLE;
      later([this, out] { vkDestroyPipeline(device, out, nullptr); });
      return out;
   }
};

void barrier(VkCommandBuffer commands, VkPipelineStageFlags from, VkAccessFlags written, VkPipelineStageFlags to,
             VkAccessFlags read)
{
   VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
   b.srcAccessMask = written;
   b.dstAccessMask = read;
   vkCmdPipelineBarrier(commands, from, to, 0, 1, &b, 0, nullptr, 0, nullptr);
}

/* The scene, the copies and the readbacks on the device named `name`. */
bool run(const char *name, const Case &c, Results &out, unsigned &messages, std::string &error)
{
   CopySession s;
   SessionOptions options;
   options.application = "terakan-api-copies-msaa";
   if (!s.open(name, messages, error, options))
      return false;
   VkDevice device = s.device;
   const bool depth = is_depth(c.format);
   const std::vector<VkImageAspectFlagBits> aspects = read_aspects(c.format);
   const VkImageAspectFlags all_aspects = all_aspects_of(c.format);

   /* Source, destination, and the whole copy's destination. */
   VkImageCreateInfo image_info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
   image_info.imageType = VK_IMAGE_TYPE_2D;
   image_info.format = c.format;
   image_info.extent = {width, height, 1};
   image_info.mipLevels = 1;
   image_info.arrayLayers = layers;
   image_info.samples = c.samples;
   image_info.tiling = VK_IMAGE_TILING_OPTIMAL;
   image_info.usage = (depth ? VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT : VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT) |
                      VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
   VkImage images[3];
   for (VkImage &image : images)
      if (!(image = c.bind_offset ? s.image_at_alignment(image_info) : s.image(image_info))) {
         error = "the multisampled image was refused";
         return false;
      }
   enum { source = 0, destination = 1, whole = 2 };

   VkRenderPass pass = s.pass(c.format, c.samples);
   VkFramebuffer framebuffers[3][layers];
   for (unsigned i = 0; i < 3; i++)
      for (uint32_t l = 0; l < layers; l++) {
         VkImageView view = s.view(images[i], VK_IMAGE_VIEW_TYPE_2D, c.format, {all_aspects, 0, 1, l, 1});
         framebuffers[i][l] = view && pass ? s.framebuffer(pass, view) : VK_NULL_HANDLE;
         if (!framebuffers[i][l]) {
            error = "render pass, view or framebuffer creation failed";
            return false;
         }
      }

   void *vertex_map = nullptr;
   VkBuffer vertex_buffer = s.buffer(sizeof(vertices), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, vertex_map);
   if (!vertex_buffer) {
      error = "vertex buffer creation failed";
      return false;
   }
   std::memcpy(vertex_map, vertices, sizeof(vertices));
   for (unsigned v = 0; v < 18; v++)
      static_cast<Vertex *>(vertex_map)[v].z = depth ? triangle_depths[v / 3] : 0.0f;

   /* The readback's descriptor set layout: the multisampled array view and the output. */
   const VkDescriptorSetLayoutBinding bindings[2] = {
      {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
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
   VkSamplerCreateInfo sampler_info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
   VkSampler sampler = VK_NULL_HANDLE;
   vkCreateSampler(device, &sampler_info, nullptr, &sampler);
   s.later([device, sampler] { vkDestroySampler(device, sampler, nullptr); });

   VkShaderModule flat_vertex = s.module("msaa_flat.vert");
   VkShaderModule flat_fragment =
      depth ? VK_NULL_HANDLE
            : s.module(c.format == VK_FORMAT_R32G32B32A32_UINT ? "msaa_flat_uint.frag" : "msaa_flat.frag");
   VkShaderModule fetch_float = s.module("copies_msaa_fetch.comp");
   VkShaderModule fetch_uint = s.module("copies_msaa_fetch_uint.comp");
   if (!flat_vertex || (!depth && !flat_fragment) || !fetch_float || !fetch_uint) {
      error = "a shader module is missing (TERAKAN_API_SHADERS)";
      return false;
   }
   VkPipeline draw = s.draw_pipeline(pass, empty_layout, flat_vertex, flat_fragment, c.format, c.samples);
   VkPipeline read_float = s.compute_pipeline(fetch_float, layout);
   VkPipeline read_uint = s.compute_pipeline(fetch_uint, layout);
   if (!draw || !read_float || !read_uint) {
      error = "pipeline creation failed";
      return false;
   }

   /* Readbacks: per aspect, the source, the destination before and after, the whole copy. */
   const unsigned readbacks = 4 * unsigned(aspects.size());
   VkDescriptorPoolSize pool_sizes[2] = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, readbacks},
                                         {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, readbacks}};
   VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
   pool_info.maxSets = readbacks;
   pool_info.poolSizeCount = 2;
   pool_info.pPoolSizes = pool_sizes;
   VkDescriptorPool pool = VK_NULL_HANDLE;
   vkCreateDescriptorPool(device, &pool_info, nullptr, &pool);
   s.later([device, pool] { vkDestroyDescriptorPool(device, pool, nullptr); });
   struct Readback {
      VkDescriptorSet set = VK_NULL_HANDLE;
      VkPipeline pipeline = VK_NULL_HANDLE;
      uint32_t *words = nullptr;
   };
   /* readback[a][k]: aspect a; k 0 source, 1 destination before, 2 after, 3 whole copy. */
   std::vector<std::array<Readback, 4>> readback(aspects.size());
   for (size_t a = 0; a < aspects.size(); a++)
      for (unsigned k = 0; k < 4; k++) {
         Readback &r = readback[a][k];
         const VkImage image = images[k == 0 ? source : k == 3 ? whole : destination];
         VkImageView view = s.view(image, VK_IMAGE_VIEW_TYPE_2D_ARRAY, c.format, {VkImageAspectFlags(aspects[a]), 0, 1, 0, layers});
         void *map = nullptr;
         VkBuffer buffer = s.buffer(readback_words * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, map);
         VkDescriptorSetAllocateInfo allocate{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
         allocate.descriptorPool = pool;
         allocate.descriptorSetCount = 1;
         allocate.pSetLayouts = &set_layout;
         if (!view || !buffer || vkAllocateDescriptorSets(device, &allocate, &r.set) != VK_SUCCESS) {
            error = "readback view, buffer or set creation failed";
            return false;
         }
         std::memset(map, 0xee, readback_words * 4);
         r.words = static_cast<uint32_t *>(map);
         r.pipeline = reads_integers(c.format, aspects[a]) ? read_uint : read_float;
         const VkDescriptorImageInfo image_info_set{sampler, view, VK_IMAGE_LAYOUT_GENERAL};
         const VkDescriptorBufferInfo buffer_info{buffer, 0, VK_WHOLE_SIZE};
         VkWriteDescriptorSet writes[2] = {{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET},
                                           {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}};
         writes[0].dstSet = writes[1].dstSet = r.set;
         writes[0].descriptorCount = writes[1].descriptorCount = 1;
         writes[0].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
         writes[0].pImageInfo = &image_info_set;
         writes[1].dstBinding = 1;
         writes[1].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
         writes[1].pBufferInfo = &buffer_info;
         vkUpdateDescriptorSets(device, 2, writes, 0, nullptr);
      }

   VkCommandBuffer commands = s.begin();
   if (!commands) {
      error = "no command buffer";
      return false;
   }
   VkImageMemoryBarrier to_general[3]{};
   for (unsigned i = 0; i < 3; i++) {
      to_general[i].sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER;
      to_general[i].dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
      to_general[i].oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
      to_general[i].newLayout = VK_IMAGE_LAYOUT_GENERAL;
      to_general[i].srcQueueFamilyIndex = to_general[i].dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
      to_general[i].image = images[i];
      to_general[i].subresourceRange = {all_aspects, 0, 1, 0, layers};
   }
   vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                        VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT |
                           VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT,
                        0, 0, nullptr, 0, nullptr, 3, to_general);

   /* The scene: each layer of each image cleared to its own value, then one triangle set drawn
    * (set A into source layer 0 and destination layer 1, set B elsewhere). */
   for (unsigned i = 0; i < 3; i++)
      for (uint32_t l = 0; l < layers; l++) {
         VkClearValue clear{};
         const unsigned which = i * layers + l;
         if (depth)
            clear.depthStencil = {1.0f, 5 + which};
         else if (c.format == VK_FORMAT_R32G32B32A32_UINT)
            clear.color.uint32[0] = 17 + which, clear.color.uint32[1] = 90000, clear.color.uint32[2] = 3,
            clear.color.uint32[3] = 7 * which;
         else
            clear.color = {{0.125f * float(which), 0.5f, 0.25f, 1.0f - 0.125f * float(which)}};
         VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
         begin.renderPass = pass;
         begin.framebuffer = framebuffers[i][l];
         begin.renderArea = {{0, 0}, {width, height}};
         begin.clearValueCount = 1;
         begin.pClearValues = &clear;
         vkCmdBeginRenderPass(commands, &begin, VK_SUBPASS_CONTENTS_INLINE);
         vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, draw);
         const VkDeviceSize offset = 0;
         vkCmdBindVertexBuffers(commands, 0, 1, &vertex_buffer, &offset);
         const uint32_t set = (i == source && l == 0) || (i == destination && l == 1) ? 0 : 1;
         for (uint32_t t = 0; t < 3; t++) {
            if (depth)
               vkCmdSetStencilReference(commands, VK_STENCIL_FACE_FRONT_AND_BACK, triangle_references[3 * set + t]);
            vkCmdDraw(commands, 3, 1, 9 * set + 3 * t, 0);
         }
         vkCmdEndRenderPass(commands);
      }

   const uint32_t size[2] = {width, height};
   auto read = [&](unsigned k) {
      for (size_t a = 0; a < aspects.size(); a++) {
         vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, readback[a][k].pipeline);
         vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &readback[a][k].set, 0, nullptr);
         vkCmdPushConstants(commands, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 8, size);
         vkCmdDispatch(commands, (width + 7) / 8, (height + 7) / 8, layers);
      }
   };
   read(0);
   read(1);
   barrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, VK_PIPELINE_STAGE_TRANSFER_BIT, 0);
   const std::vector<VkImageCopy> regions = regions_of(c);
   const VkImageCopy everything{{all_aspects, 0, 0, layers}, {0, 0, 0}, {all_aspects, 0, 0, layers}, {0, 0, 0},
                                {width, height, 1}};
   out.report = capture_stderr([&] {
      vkCmdCopyImage(commands, images[source], VK_IMAGE_LAYOUT_GENERAL, images[destination], VK_IMAGE_LAYOUT_GENERAL,
                     uint32_t(regions.size()), regions.data());
      vkCmdCopyImage(commands, images[source], VK_IMAGE_LAYOUT_GENERAL, images[whole], VK_IMAGE_LAYOUT_GENERAL, 1,
                     &everything);
   });
   barrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
           VK_ACCESS_SHADER_READ_BIT);
   read(2);
   read(3);
   barrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
           VK_ACCESS_HOST_READ_BIT);
   if (s.submit_and_wait(commands) != VK_SUCCESS) {
      error = "recording or submission failed";
      return false;
   }
   for (size_t a = 0; a < aspects.size(); a++) {
      auto words = [&](unsigned k) { return std::vector<uint32_t>(readback[a][k].words, readback[a][k].words + readback_words); };
      out.source.push_back(words(0));
      out.before.push_back(words(1));
      out.after.push_back(words(2));
      out.whole.push_back(words(3));
   }
   return true;
}

/* The destination the copies should leave: `before` with each region's samples from `source`. */
std::vector<uint32_t> expected_destination(const std::vector<uint32_t> &source, const std::vector<uint32_t> &before,
                                           const std::vector<VkImageCopy> &regions, uint32_t samples)
{
   std::vector<uint32_t> out = before;
   for (const VkImageCopy &r : regions)
      for (uint32_t l = 0; l < r.srcSubresource.layerCount; l++)
         for (uint32_t y = 0; y < r.extent.height; y++)
            for (uint32_t x = 0; x < r.extent.width; x++)
               for (uint32_t s = 0; s < samples; s++) {
                  const size_t from = word_of(r.srcSubresource.baseArrayLayer + l, r.srcOffset.x + x, r.srcOffset.y + y, s);
                  const size_t to = word_of(r.dstSubresource.baseArrayLayer + l, r.dstOffset.x + x, r.dstOffset.y + y, s);
                  std::memcpy(&out[to], &source[from], 16);
               }
   return out;
}

/* Pixels of the source regions whose samples are not all equal. */
unsigned mixed_pixels(const std::vector<uint32_t> &source, const std::vector<VkImageCopy> &regions, uint32_t samples)
{
   unsigned mixed = 0;
   for (const VkImageCopy &r : regions)
      for (uint32_t l = 0; l < r.srcSubresource.layerCount; l++)
         for (uint32_t y = 0; y < r.extent.height; y++)
            for (uint32_t x = 0; x < r.extent.width; x++) {
               const size_t first = word_of(r.srcSubresource.baseArrayLayer + l, r.srcOffset.x + x, r.srcOffset.y + y, 0);
               for (uint32_t s = 1; s < samples; s++)
                  if (std::memcmp(&source[first], &source[first + 4 * s], 16)) {
                     mixed++;
                     break;
                  }
            }
   return mixed;
}

/* Failures of `got` against `expected` over the samples the images have (at most 8 reported);
 * `agree` says whether two words are the same value. */
void compare(const char *what, const std::vector<uint32_t> &got, const std::vector<uint32_t> &expected,
             uint32_t samples, const std::function<bool(uint32_t, uint32_t)> &agree)
{
   ASSERT_EQ(got.size(), expected.size());
   unsigned reported = 0, differences = 0;
   for (uint32_t l = 0; l < layers; l++)
      for (uint32_t y = 0; y < height; y++)
         for (uint32_t x = 0; x < width; x++)
            for (uint32_t s = 0; s < samples; s++)
               for (uint32_t w = 0; w < 4; w++) {
                  const size_t i = word_of(l, x, y, s) + w;
                  if (agree(got[i], expected[i]))
                     continue;
                  differences++;
                  if (reported++ < 8)
                     ADD_FAILURE() << what << ": layer " << l << " pixel " << x << "," << y << " sample " << s << " word "
                                   << w << ": 0x" << std::hex << got[i] << ", expected 0x" << expected[i] << std::dec;
               }
   EXPECT_EQ(differences, 0u) << what;
}

class MsaaCopies : public ::testing::TestWithParam<Case> {};

TEST_P(MsaaCopies, EverySampleOfEveryRegion)
{
   const Case &c = GetParam();
   unsigned our_messages = 0, their_messages = 0;
   std::string error;
   Results ours, theirs;
   ASSERT_TRUE(run("Terakan", c, ours, our_messages, error)) << "Terakan: " << error;
   EXPECT_EQ(our_messages, 0u);
   const std::vector<VkImageAspectFlagBits> aspects = read_aspects(c.format);
   const bool depth = is_depth(c.format);
   auto identity = [](uint32_t a, uint32_t b) { return a == b; };
   for (size_t a = 0; a < aspects.size(); a++) {
      SCOPED_TRACE(aspects[a] == VK_IMAGE_ASPECT_STENCIL_BIT ? "stencil" : depth ? "depth" : "colour");
      const std::vector<VkImageCopy> regions = regions_of(c, aspects[a]);
      EXPECT_GT(mixed_pixels(ours.source[a], regions, c.samples), 4u) << "the scene must give pixels several values";
      compare("Terakan destination", ours.after[a], expected_destination(ours.source[a], ours.before[a], regions, c.samples),
              c.samples, identity);
      compare("Terakan whole copy", ours.whole[a], ours.source[a], c.samples, identity);
   }
   /* The path taken (tests/meson.build sets TERAKAN_DEBUG=copies). */
   EXPECT_NE(ours.report.find("terakan: copy: multisampled draw"), std::string::npos) << ours.report;
   EXPECT_NE(ours.report.find(depth ? "terakan: copy: cp-dma, whole slices" : "terakan: copy: cp-dma, whole slices and FMASK"),
             std::string::npos)
      << ours.report;
   EXPECT_EQ(ours.report.find("runs"), std::string::npos) << "no per-texel CP DMA: " << ours.report;
   if (!c.against_lavapipe)
      return;

   ASSERT_TRUE(run("llvmpipe", c, theirs, their_messages, error)) << "lavapipe: " << error;
   EXPECT_EQ(their_messages, 0u);
   for (size_t a = 0; a < aspects.size(); a++) {
      SCOPED_TRACE(aspects[a] == VK_IMAGE_ASPECT_STENCIL_BIT ? "stencil" : depth ? "depth" : "colour");
      /* UNORM8 and D16 as their codes (lavapipe's conversion to float may be one ULP off
       * c / (2^n - 1), which the texture unit rounds correctly); D24 depth within 2 ULP of the
       * float (lavapipe's reads of code 6291456 give 0x3ec00002, 2 ULP above the correctly
       * rounded 0x3ec00001 Terakan gives: a float's ULP is half a 24-bit code there, so codes
       * cannot be recovered from lavapipe's floats). */
      double scale = 0;
      if (c.format == VK_FORMAT_R8G8B8A8_UNORM || c.format == VK_FORMAT_R8_UNORM)
         scale = 255.0;
      else if (c.format == VK_FORMAT_D16_UNORM)
         scale = 65535.0;
      const bool depth24 = c.format == VK_FORMAT_D24_UNORM_S8_UINT && aspects[a] == VK_IMAGE_ASPECT_DEPTH_BIT;
      auto agree = [scale, depth24](uint32_t ours_bits, uint32_t their_bits) {
         if (depth24)
            return (ours_bits > their_bits ? ours_bits - their_bits : their_bits - ours_bits) <= 2;
         if (!scale)
            return ours_bits == their_bits;
         float ours_value, their_value;
         std::memcpy(&ours_value, &ours_bits, 4);
         std::memcpy(&their_value, &their_bits, 4);
         return std::lround(double(ours_value) * scale) == std::lround(double(their_value) * scale);
      };
      compare("source against lavapipe", ours.source[a], theirs.source[a], c.samples, agree);
      compare("destination against lavapipe", ours.after[a], theirs.after[a], c.samples, agree);
      compare("whole copy against lavapipe", ours.whole[a], theirs.whole[a], c.samples, agree);
   }
}

const Case cases[] = {
   {VK_SAMPLE_COUNT_4_BIT, VK_FORMAT_R8G8B8A8_UNORM, true},
   {VK_SAMPLE_COUNT_4_BIT, VK_FORMAT_R32G32B32A32_UINT, true},
   {VK_SAMPLE_COUNT_4_BIT, VK_FORMAT_R32G32B32A32_SFLOAT, true},
   {VK_SAMPLE_COUNT_4_BIT, VK_FORMAT_R16G16B16A16_SFLOAT, true},
   {VK_SAMPLE_COUNT_4_BIT, VK_FORMAT_R8_UNORM, true},
   {VK_SAMPLE_COUNT_4_BIT, VK_FORMAT_D16_UNORM, true},
   {VK_SAMPLE_COUNT_4_BIT, VK_FORMAT_D32_SFLOAT, true},
   {VK_SAMPLE_COUNT_4_BIT, VK_FORMAT_D24_UNORM_S8_UINT, true},
   {VK_SAMPLE_COUNT_4_BIT, VK_FORMAT_D24_UNORM_S8_UINT, false}, /* with single-aspect regions */
   {VK_SAMPLE_COUNT_2_BIT, VK_FORMAT_R8G8B8A8_UNORM, false},
   {VK_SAMPLE_COUNT_2_BIT, VK_FORMAT_R8G8B8A8_UNORM, false, true},
   {VK_SAMPLE_COUNT_4_BIT, VK_FORMAT_R8G8B8A8_UNORM, true, true},
   {VK_SAMPLE_COUNT_8_BIT, VK_FORMAT_R8G8B8A8_UNORM, false},
   {VK_SAMPLE_COUNT_8_BIT, VK_FORMAT_R32G32B32A32_SFLOAT, false},
   {VK_SAMPLE_COUNT_2_BIT, VK_FORMAT_D24_UNORM_S8_UINT, false},
   {VK_SAMPLE_COUNT_8_BIT, VK_FORMAT_D24_UNORM_S8_UINT, false},
   {VK_SAMPLE_COUNT_8_BIT, VK_FORMAT_D32_SFLOAT, false},
   {VK_SAMPLE_COUNT_4_BIT, VK_FORMAT_D32_SFLOAT_S8_UINT, true},
   {VK_SAMPLE_COUNT_8_BIT, VK_FORMAT_D32_SFLOAT_S8_UINT, false},
};

std::string case_name(const ::testing::TestParamInfo<Case> &info)
{
   std::string name;
   switch (info.param.format) {
   case VK_FORMAT_R8G8B8A8_UNORM: name = "Rgba8Unorm"; break;
   case VK_FORMAT_R32G32B32A32_UINT: name = "Rgba32Uint"; break;
   case VK_FORMAT_R32G32B32A32_SFLOAT: name = "Rgba32Float"; break;
   case VK_FORMAT_R16G16B16A16_SFLOAT: name = "Rgba16Float"; break;
   case VK_FORMAT_R8_UNORM: name = "R8Unorm"; break;
   case VK_FORMAT_D16_UNORM: name = "D16"; break;
   case VK_FORMAT_D32_SFLOAT: name = "D32Float"; break;
   case VK_FORMAT_D32_SFLOAT_S8_UINT: name = "D32FloatS8"; break;
   default: name = "D24S8"; break;
   }
   name += "X" + std::to_string(unsigned(info.param.samples));
   /* 4x checked against the CPU alone: the single-aspect regions. */
   if (info.param.samples == VK_SAMPLE_COUNT_4_BIT && !info.param.against_lavapipe)
      name += "SingleAspects";
   if (info.param.bind_offset)
      name += "BoundAtAnOffset";
   return name;
}

INSTANTIATE_TEST_SUITE_P(Formats, MsaaCopies, ::testing::ValuesIn(cases), case_name);

} // namespace
