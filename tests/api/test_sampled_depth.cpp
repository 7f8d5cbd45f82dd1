/* Sampled depth through the driver on the simulated GPU (TERAKAN_SIM_CHIP picks the chip) and
 * on lavapipe, with the Khronos validation layer counting messages. For each depth format a
 * first render pass draws three flat triangles into a 16x16 depth image (LESS, cleared to 1),
 * and a second pass samples it (sampled_depth.frag) in bands of 16 rows of a colour target,
 * one band per comparison function (the eight of them) and filter (nearest, and linear where
 * the format has SAMPLED_IMAGE_FILTER_LINEAR): the depth through a plain sampler, and
 * texture(), textureLod() and textureLodOffset(0, (1, -1)) through a comparison sampler.
 * Lavapipe offers no linear filtering of depth, so it draws the nearest bands only: those are
 * compared byte for byte, the linear ones with Vulkan's compare-then-filter rule computed here
 * from lavapipe's nearest results; a few pixels also with values computed from the scene.
 * The stencil aspects of D24S8 and D32FS8 are read back the same way (SampledStencil), and
 * every depth format offers complete mip chains (SampledDepthStencil).
 *
 * Depths are binary fractions (0.25, 0.375, 0.75): both rasterizers give flat triangles the
 * same value. References never equal a stored unorm depth (0.3125 and 0.5, between the
 * triangles), so the unorm-to-float conversion of the two implementations cannot decide a
 * comparison; for the float formats one reference is 0.375 exactly, so EQUAL and NOT_EQUAL
 * see a stored value. */
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../vulkan_helpers.h"

namespace {

using namespace terakan::test;

constexpr uint32_t size = 16;
constexpr VkFormat target_format = VK_FORMAT_R8G8B8A8_UNORM;

struct Vertex {
   float x, y, z, w, r, g, b, a;
};

/* A triangle given in pixels of the 16x16 image at depth z. */
void triangle(std::vector<Vertex> &out, float x0, float y0, float x1, float y1, float x2, float y2, float z)
{
   for (auto [x, y] : {std::pair{x0, y0}, std::pair{x1, y1}, std::pair{x2, y2}})
      out.push_back({x / (size / 2.0f) - 1.0f, y / (size / 2.0f) - 1.0f, z, 1, 0, 0, 0, 1});
}

std::vector<Vertex> depth_scene()
{
   std::vector<Vertex> v;
   triangle(v, 1, 1, 15, 2, 3, 14, 0.75f);
   triangle(v, 5, 0, 16, 10, 2, 8, 0.25f);
   triangle(v, 0, 16, 10, 6, 14, 15, 0.375f);
   return v;
}

bool is_float(VkFormat format)
{
   return format == VK_FORMAT_D32_SFLOAT || format == VK_FORMAT_D32_SFLOAT_S8_UINT;
}

bool has_stencil(VkFormat format)
{
   return format == VK_FORMAT_D24_UNORM_S8_UINT || format == VK_FORMAT_D32_SFLOAT_S8_UINT;
}

/* The references of a format's bands: the first (texture() and textureLod(0)) and the second
 * (textureLod at a run-time LOD). */
std::pair<float, float> references(VkFormat format)
{
   return is_float(format) ? std::pair{0.375f, 0.5f} : std::pair{0.3125f, 0.5f};
}

struct Result {
   std::vector<uint8_t> pixels; /* the colour target, bands one under the other */
   unsigned bands = 0;
   bool linear_offered = false;
};

/* Stencil references of the three triangles (when the stencil aspect is sampled) and the
 * stencil clear value. */
constexpr uint32_t stencil_values[3] = {10, 20, 200}, stencil_clear = 5;

/* Both passes on the device named `name` for `format`; empty pixels with `error` set on
 * failure. With `stencil` the first pass also writes the triangles' stencil references
 * (REPLACE where the depth test passes) and the second reads the stencil aspect instead
 * (sampled_stencil.frag, one band). */
Result draw(const char *name, VkFormat format, bool stencil, unsigned &messages, std::string &error)
{
   Result result;
   VkInstance instance = VK_NULL_HANDLE;
   VkDebugUtilsMessengerCreateInfoEXT messenger_info = validation_messenger_info(terakan::test::count_validation_finding, &messages);
   const bool layer = has_instance_layer("VK_LAYER_KHRONOS_validation");
   std::vector<const char *> layers, extensions;
   if (layer) {
      layers.push_back("VK_LAYER_KHRONOS_validation");
      extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
   }
   if (create_instance("terakan-api-sampled-depth", VK_API_VERSION_1_0, layers, extensions,
                       layer ? &messenger_info : nullptr, instance) != VK_SUCCESS) {
      error = "no instance";
      return result;
   }
   VkPhysicalDevice physical = find_physical_device(instance, name);
   const auto family = physical ? find_queue_family(physical, VK_QUEUE_GRAPHICS_BIT) : std::nullopt;
   VkDevice device = VK_NULL_HANDLE;
   if (!family || create_device(physical, *family, nullptr, nullptr, {}, device) != VK_SUCCESS) {
      error = std::string("no device ") + name;
      destroy_instance(instance);
      return result;
   }
   VkQueue queue;
   vkGetDeviceQueue(device, *family, 0, &queue);

   VkFormatProperties properties;
   vkGetPhysicalDeviceFormatProperties(physical, format, &properties);
   result.linear_offered = properties.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
   const unsigned filters = result.linear_offered && !stencil ? 2 : 1;
   result.bands = stencil ? 1 : 8 * filters;
   const uint32_t height = size * result.bands;

   Image2D depth, target;
   VkImageView depth_view = VK_NULL_HANDLE;
   VkBuffer vertex_buffer = VK_NULL_HANDLE, readback = VK_NULL_HANDLE;
   VkDeviceMemory vertex_memory = VK_NULL_HANDLE, readback_memory = VK_NULL_HANDLE;
   void *vertex_map = nullptr, *readback_map = nullptr;
   VkRenderPass passes[2] = {};
   VkFramebuffer framebuffers[2] = {};
   VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
   VkPipelineLayout layouts[2] = {};
   VkPipeline pipelines[2] = {};
   VkShaderModule modules[3] = {};
   VkSampler plain[2] = {}, compare[8][2] = {};
   VkDescriptorPool pool = VK_NULL_HANDLE;
   VkCommandPool command_pool = VK_NULL_HANDLE;
   const std::vector<Vertex> vertices = depth_scene();
   do {
      const VkImageAspectFlags attachment_aspects =
         VK_IMAGE_ASPECT_DEPTH_BIT | (has_stencil(format) ? VK_IMAGE_ASPECT_STENCIL_BIT : 0);
      if (!create_image_2d(physical, device, format,
                           VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
                           attachment_aspects, size, size, VK_SAMPLE_COUNT_1_BIT, depth) ||
          !create_image_2d(physical, device, target_format,
                           VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                           VK_IMAGE_ASPECT_COLOR_BIT, size, height, VK_SAMPLE_COUNT_1_BIT, target)) {
         error = "image creation failed";
         break;
      }
      /* Sampling reads one aspect: a view of the depth alone. */
      VkImageViewCreateInfo view_info{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
      view_info.image = depth.image;
      view_info.viewType = VK_IMAGE_VIEW_TYPE_2D;
      view_info.format = format;
      view_info.subresourceRange = {stencil ? VK_IMAGE_ASPECT_STENCIL_BIT : VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1};
      if (vkCreateImageView(device, &view_info, nullptr, &depth_view) != VK_SUCCESS) {
         error = "depth view creation failed";
         break;
      }
      if (!create_host_buffer(physical, device, vertices.size() * sizeof(Vertex), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
                              vertex_buffer, vertex_memory, vertex_map) ||
          !create_host_buffer(physical, device, size * height * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, readback,
                              readback_memory, readback_map)) {
         error = "buffer creation failed";
         break;
      }
      std::memcpy(vertex_map, vertices.data(), vertices.size() * sizeof(Vertex));

      /* Pass 0: depth only, ending in SHADER_READ_ONLY with a dependency to fragment-shader
       * reads (the DB's writes must reach the texture unit). Pass 1: the colour target. */
      VkAttachmentDescription depth_attachment{};
      depth_attachment.format = format;
      depth_attachment.samples = VK_SAMPLE_COUNT_1_BIT;
      depth_attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
      depth_attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
      depth_attachment.stencilLoadOp = stencil ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_DONT_CARE;
      depth_attachment.stencilStoreOp = stencil ? VK_ATTACHMENT_STORE_OP_STORE : VK_ATTACHMENT_STORE_OP_DONT_CARE;
      depth_attachment.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
      depth_attachment.finalLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
      const VkAttachmentReference depth_ref{0, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
      VkSubpassDescription depth_subpass{};
      depth_subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
      depth_subpass.pDepthStencilAttachment = &depth_ref;
      VkSubpassDependency to_sampling{};
      to_sampling.srcSubpass = 0;
      to_sampling.dstSubpass = VK_SUBPASS_EXTERNAL;
      to_sampling.srcStageMask = VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
      to_sampling.dstStageMask = VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT;
      to_sampling.srcAccessMask = VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
      to_sampling.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
      VkRenderPassCreateInfo pass_info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
      pass_info.attachmentCount = 1;
      pass_info.pAttachments = &depth_attachment;
      pass_info.subpassCount = 1;
      pass_info.pSubpasses = &depth_subpass;
      pass_info.dependencyCount = 1;
      pass_info.pDependencies = &to_sampling;
      VkAttachmentDescription colour_attachment{};
      colour_attachment.format = target_format;
      colour_attachment.samples = VK_SAMPLE_COUNT_1_BIT;
      colour_attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
      colour_attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
      colour_attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
      colour_attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
      colour_attachment.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
      colour_attachment.finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
      const VkAttachmentReference colour_ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
      VkSubpassDescription colour_subpass{};
      colour_subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
      colour_subpass.colorAttachmentCount = 1;
      colour_subpass.pColorAttachments = &colour_ref;
      VkSubpassDependency to_copy{};
      to_copy.srcSubpass = 0;
      to_copy.dstSubpass = VK_SUBPASS_EXTERNAL;
      to_copy.srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
      to_copy.dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
      to_copy.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
      to_copy.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
      VkRenderPassCreateInfo colour_pass_info = pass_info;
      colour_pass_info.pAttachments = &colour_attachment;
      colour_pass_info.pSubpasses = &colour_subpass;
      colour_pass_info.pDependencies = &to_copy;
      if (vkCreateRenderPass(device, &pass_info, nullptr, &passes[0]) != VK_SUCCESS ||
          vkCreateRenderPass(device, &colour_pass_info, nullptr, &passes[1]) != VK_SUCCESS) {
         error = "render pass creation failed";
         break;
      }
      const VkImageView attachment_views[2] = {depth.view, target.view};
      for (unsigned p = 0; p < 2; p++) {
         VkFramebufferCreateInfo fb_info{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
         fb_info.renderPass = passes[p];
         fb_info.attachmentCount = 1;
         fb_info.pAttachments = &attachment_views[p];
         fb_info.width = size;
         fb_info.height = p == 0 ? size : height;
         fb_info.layers = 1;
         vkCreateFramebuffer(device, &fb_info, nullptr, &framebuffers[p]);
      }

      VkDescriptorSetLayoutBinding bindings[2] = {
         {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr},
         {1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr}};
      VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
      set_info.bindingCount = 2;
      set_info.pBindings = bindings;
      vkCreateDescriptorSetLayout(device, &set_info, nullptr, &set_layout);
      VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
      vkCreatePipelineLayout(device, &layout_info, nullptr, &layouts[0]);
      const VkPushConstantRange push_range{VK_SHADER_STAGE_FRAGMENT_BIT, 0, 16};
      layout_info.setLayoutCount = 1;
      layout_info.pSetLayouts = &set_layout;
      layout_info.pushConstantRangeCount = 1;
      layout_info.pPushConstantRanges = &push_range;
      vkCreatePipelineLayout(device, &layout_info, nullptr, &layouts[1]);

      const char *names[3] = {"coloured.vert", "subpass_fullscreen.vert",
                              stencil ? "sampled_stencil.frag" : "sampled_depth.frag"};
      for (unsigned i = 0; i < 3; i++) {
         const std::vector<uint32_t> code = terakan::test::read_api_spirv(names[i]);
         VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
         module_info.codeSize = code.size() * 4;
         module_info.pCode = code.data();
         vkCreateShaderModule(device, &module_info, nullptr, &modules[i]);
      }
      for (unsigned p = 0; p < 2; p++) {
         VkPipelineShaderStageCreateInfo stages[2] = {};
         for (unsigned s = 0; s < 2; s++) {
            stages[s].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
            stages[s].stage = s == 0 ? VK_SHADER_STAGE_VERTEX_BIT : VK_SHADER_STAGE_FRAGMENT_BIT;
            stages[s].module = p == 0 ? modules[0] : modules[1 + s];
            stages[s].pName = "main";
         }
         const VkVertexInputBindingDescription vertex_binding{0, sizeof(Vertex), VK_VERTEX_INPUT_RATE_VERTEX};
         const VkVertexInputAttributeDescription vertex_attributes[2] = {
            {0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}, {1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 16}};
         VkPipelineVertexInputStateCreateInfo vertex_input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
         if (p == 0) {
            vertex_input.vertexBindingDescriptionCount = 1;
            vertex_input.pVertexBindingDescriptions = &vertex_binding;
            vertex_input.vertexAttributeDescriptionCount = 2;
            vertex_input.pVertexAttributeDescriptions = vertex_attributes;
         }
         VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
         assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
         const VkViewport viewport{0, 0, float(size), float(p == 0 ? size : height), 0, 1};
         const VkRect2D scissor{{0, 0}, {size, p == 0 ? size : height}};
         VkPipelineViewportStateCreateInfo viewport_state{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
         viewport_state.viewportCount = viewport_state.scissorCount = 1;
         viewport_state.pViewports = &viewport;
         viewport_state.pScissors = &scissor;
         VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
         raster.cullMode = VK_CULL_MODE_NONE;
         raster.lineWidth = 1.0f;
         VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
         multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
         VkPipelineDepthStencilStateCreateInfo depth_state{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
         depth_state.depthTestEnable = depth_state.depthWriteEnable = VK_TRUE;
         depth_state.depthCompareOp = VK_COMPARE_OP_LESS;
         depth_state.stencilTestEnable = stencil;
         depth_state.front = {VK_STENCIL_OP_KEEP, VK_STENCIL_OP_REPLACE, VK_STENCIL_OP_KEEP, VK_COMPARE_OP_ALWAYS,
                              0xff, 0xff, 0};
         depth_state.back = depth_state.front;
         VkPipelineColorBlendAttachmentState blend{};
         blend.colorWriteMask = 0xf;
         VkPipelineColorBlendStateCreateInfo blend_state{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
         blend_state.attachmentCount = 1;
         blend_state.pAttachments = &blend;
         const VkDynamicState dynamic_states[2] = {VK_DYNAMIC_STATE_SCISSOR, VK_DYNAMIC_STATE_STENCIL_REFERENCE};
         VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
         dynamic.dynamicStateCount = 1;
         dynamic.pDynamicStates = &dynamic_states[p == 0 ? 1 : 0];
         VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
         info.stageCount = p == 0 ? 1 : 2; /* the depth pass has no fragment stage */
         info.pStages = stages;
         info.pVertexInputState = &vertex_input;
         info.pInputAssemblyState = &assembly;
         info.pViewportState = &viewport_state;
         info.pRasterizationState = &raster;
         info.pMultisampleState = &multisample;
         if (p == 0) {
            info.pDepthStencilState = &depth_state;
            info.pDynamicState = &dynamic;
         } else {
            info.pColorBlendState = &blend_state;
            info.pDynamicState = &dynamic;
         }
         info.layout = layouts[p];
         info.renderPass = passes[p];
         if (vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipelines[p]) != VK_SUCCESS)
            error = "pipeline " + std::to_string(p) + " creation failed";
      }
      if (!error.empty())
         break;

      VkSamplerCreateInfo sampler_info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
      sampler_info.addressModeU = sampler_info.addressModeV = sampler_info.addressModeW =
         VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
      sampler_info.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
      for (unsigned f = 0; f < filters; f++) {
         sampler_info.magFilter = sampler_info.minFilter = f ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
         sampler_info.compareEnable = VK_FALSE;
         if (vkCreateSampler(device, &sampler_info, nullptr, &plain[f]) != VK_SUCCESS)
            error = "sampler creation failed";
         sampler_info.compareEnable = VK_TRUE;
         for (unsigned op = 0; op < 8; op++) {
            sampler_info.compareOp = VkCompareOp(op);
            if (vkCreateSampler(device, &sampler_info, nullptr, &compare[op][f]) != VK_SUCCESS)
               error = "comparison sampler creation failed";
         }
      }
      if (!error.empty())
         break;

      const VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 2 * result.bands};
      VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
      pool_info.maxSets = result.bands;
      pool_info.poolSizeCount = 1;
      pool_info.pPoolSizes = &pool_size;
      vkCreateDescriptorPool(device, &pool_info, nullptr, &pool);
      std::vector<VkDescriptorSet> sets(result.bands);
      for (unsigned band = 0; band < result.bands; band++) {
         VkDescriptorSetAllocateInfo allocate{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
         allocate.descriptorPool = pool;
         allocate.descriptorSetCount = 1;
         allocate.pSetLayouts = &set_layout;
         vkAllocateDescriptorSets(device, &allocate, &sets[band]);
         const unsigned op = band % 8, f = band / 8;
         const VkDescriptorImageInfo images[2] = {
            {plain[f], depth_view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
            {stencil ? plain[f] : compare[op][f], depth_view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL}};
         VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
         write.dstSet = sets[band];
         write.descriptorCount = 2; /* the stencil shader reads binding 0 only; 1 is written all the same */
         write.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
         write.pImageInfo = images;
         vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);
      }

      VkCommandPoolCreateInfo command_pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
      command_pool_info.queueFamilyIndex = *family;
      vkCreateCommandPool(device, &command_pool_info, nullptr, &command_pool);
      VkCommandBufferAllocateInfo command_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
      command_info.commandPool = command_pool;
      command_info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
      command_info.commandBufferCount = 1;
      VkCommandBuffer commands = VK_NULL_HANDLE;
      vkAllocateCommandBuffers(device, &command_info, &commands);
      VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
      vkBeginCommandBuffer(commands, &begin);

      VkClearValue depth_clear{};
      depth_clear.depthStencil = {1.0f, stencil_clear};
      VkRenderPassBeginInfo pass_begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
      pass_begin.renderPass = passes[0];
      pass_begin.framebuffer = framebuffers[0];
      pass_begin.renderArea = {{0, 0}, {size, size}};
      pass_begin.clearValueCount = 1;
      pass_begin.pClearValues = &depth_clear;
      vkCmdBeginRenderPass(commands, &pass_begin, VK_SUBPASS_CONTENTS_INLINE);
      vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines[0]);
      const VkDeviceSize offset = 0;
      vkCmdBindVertexBuffers(commands, 0, 1, &vertex_buffer, &offset);
      for (uint32_t t = 0; t < 3; t++) {
         vkCmdSetStencilReference(commands, VK_STENCIL_FACE_FRONT_AND_BACK, stencil_values[t]);
         vkCmdDraw(commands, 3, 1, 3 * t, 0);
      }
      vkCmdEndRenderPass(commands);

      VkClearValue colour_clear{};
      colour_clear.color = {{0.5f, 0.5f, 0.5f, 0.5f}};
      pass_begin.renderPass = passes[1];
      pass_begin.framebuffer = framebuffers[1];
      pass_begin.renderArea = {{0, 0}, {size, height}};
      pass_begin.pClearValues = &colour_clear;
      vkCmdBeginRenderPass(commands, &pass_begin, VK_SUBPASS_CONTENTS_INLINE);
      vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines[1]);
      const auto [first_reference, second_reference] = references(format);
      for (unsigned band = 0; band < result.bands; band++) {
         vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, layouts[1], 0, 1, &sets[band], 0,
                                 nullptr);
         const float push[4] = {float(band * size), first_reference, second_reference, 0.0f};
         vkCmdPushConstants(commands, layouts[1], VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(push), push);
         const VkRect2D band_rect{{0, int32_t(band * size)}, {size, size}};
         vkCmdSetScissor(commands, 0, 1, &band_rect);
         vkCmdDraw(commands, 3, 1, 0, 0);
      }
      vkCmdEndRenderPass(commands);
      VkBufferImageCopy region{};
      region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
      region.imageExtent = {size, height, 1};
      vkCmdCopyImageToBuffer(commands, target.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1, &region);
      VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
      to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
      to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
      vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0,
                           nullptr, 0, nullptr);
      if (vkEndCommandBuffer(commands) != VK_SUCCESS) {
         error = "recording failed";
         break;
      }
      VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
      submit.commandBufferCount = 1;
      submit.pCommandBuffers = &commands;
      if (vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE) != VK_SUCCESS || vkQueueWaitIdle(queue) != VK_SUCCESS) {
         error = "submission failed";
         break;
      }
      const uint8_t *bytes = static_cast<const uint8_t *>(readback_map);
      result.pixels.assign(bytes, bytes + size * height * 4);
   } while (false);

   vkDeviceWaitIdle(device);
   vkDestroyCommandPool(device, command_pool, nullptr);
   vkDestroyDescriptorPool(device, pool, nullptr);
   for (VkSampler s : plain)
      vkDestroySampler(device, s, nullptr);
   for (auto &per_op : compare)
      for (VkSampler s : per_op)
         vkDestroySampler(device, s, nullptr);
   for (VkPipeline p : pipelines)
      vkDestroyPipeline(device, p, nullptr);
   for (VkShaderModule m : modules)
      vkDestroyShaderModule(device, m, nullptr);
   for (VkPipelineLayout l : layouts)
      vkDestroyPipelineLayout(device, l, nullptr);
   vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
   for (VkFramebuffer f : framebuffers)
      vkDestroyFramebuffer(device, f, nullptr);
   for (VkRenderPass p : passes)
      vkDestroyRenderPass(device, p, nullptr);
   vkDestroyBuffer(device, vertex_buffer, nullptr);
   vkFreeMemory(device, vertex_memory, nullptr);
   vkDestroyBuffer(device, readback, nullptr);
   vkFreeMemory(device, readback_memory, nullptr);
   vkDestroyImageView(device, depth_view, nullptr);
   destroy_image_2d(device, depth);
   destroy_image_2d(device, target);
   vkDestroyDevice(device, nullptr);
   destroy_instance(instance);
   return result;
}

class SampledDepth : public ::testing::TestWithParam<VkFormat> {};

TEST_P(SampledDepth, PlainAndComparedAgainstLavapipe)
{
   const VkFormat format = GetParam();
   unsigned our_messages = 0, their_messages = 0;
   std::string error;
   const Result ours = draw("Terakan", format, false, our_messages, error);
   ASSERT_FALSE(ours.pixels.empty()) << "Terakan: " << error;
   const Result theirs = draw("llvmpipe", format, false, their_messages, error);
   ASSERT_FALSE(theirs.pixels.empty()) << "lavapipe: " << error;
   EXPECT_EQ(our_messages, 0u);
   EXPECT_EQ(their_messages, 0u);
   /* Linear filtering where Terakan offers it (the unorm formats). Lavapipe offers
    * SAMPLED_IMAGE_FILTER_LINEAR on no depth format, so it draws the nearest bands only;
    * those are compared byte for byte, the linear ones below against values computed here. */
   EXPECT_EQ(ours.linear_offered, !is_float(format));
   EXPECT_EQ(ours.bands, ours.linear_offered ? 16u : 8u);
   ASSERT_EQ(theirs.bands, 8u);
   const size_t band_bytes = size * size * 4;
   unsigned reported = 0, differences = 0;
   for (size_t i = 0; i < 8 * band_bytes; i++)
      if (ours.pixels[i] != theirs.pixels[i]) {
         differences++;
         if (reported++ < 12)
            ADD_FAILURE() << "band " << (i / 4) / (size * size) << " pixel " << (i / 4) % size << ","
                          << ((i / 4) / size) % size << " channel " << "rgba"[i % 4] << ": Terakan "
                          << unsigned(ours.pixels[i]) << ", lavapipe " << unsigned(theirs.pixels[i]);
      }
   EXPECT_EQ(differences, 0u);

   /* Values computed here, nearest bands: pixel (8, 3) lies in the 0.25 triangle only, (2, 14)
    * in the 0.375 one, (15, 15) keeps the clear value 1. */
   auto texel = [&](unsigned band, unsigned x, unsigned y) {
      const uint8_t *p = &ours.pixels[((size_t(band) * size + y) * size + x) * 4];
      return std::array<unsigned, 4>{p[0], p[1], p[2], p[3]};
   };
   const auto [r1, r2] = references(format);
   struct Known {
      unsigned x, y;
      float depth;
   };
   for (const Known k : {Known{8, 3, 0.25f}, Known{2, 14, 0.375f}, Known{15, 15, 1.0f}})
      for (unsigned op = 0; op < 8; op++) {
         auto pass = [op, &k](float reference) {
            const bool results[8] = {false, reference < k.depth, reference == k.depth, reference <= k.depth,
                                     reference > k.depth, reference != k.depth, reference >= k.depth, true};
            return results[op] ? 255u : 0u;
         };
         const auto t = texel(op, k.x, k.y);
         EXPECT_NEAR(double(t[0]), std::round(k.depth * 255.0), 1.0) << "op " << op;
         EXPECT_EQ(t[1], pass(r1)) << "op " << op << " at " << k.x << "," << k.y;
         EXPECT_EQ(t[2], pass(r2)) << "op " << op << " at " << k.x << "," << k.y;
         /* a reads texel (x + 1, y - 1): pixel (k.x - 1, k.y + 1) reads k; (15, 15) has the clear
          * value at (15, 14) too. */
         EXPECT_EQ(texel(op, k.x - 1, std::min(k.y + 1, size - 1))[3], pass(r1)) << "op " << op << " at " << k.x
                                                                                 << "," << k.y;
      }
   /* Every nearest pixel: a (with the offset) is g (same reference, no offset) one texel right
    * and one up, clamped to the edge. */
   for (unsigned op = 0; op < 8; op++)
      for (unsigned y = 0; y < size; y++)
         for (unsigned x = 0; x < size; x++)
            EXPECT_EQ(texel(op, x, y)[3], texel(op, std::min(x + 1, size - 1), y ? y - 1 : 0)[1])
               << "op " << op << " pixel " << x << "," << y;
   /* Linear bands against Vulkan's rule, built from lavapipe's nearest bands: each pixel
    * samples a quarter texel right of and below a texel centre, so its footprint is texels x,
    * x + 1 and y, y + 1 (clamped to the edge) with weights 3/4 and 1/4 each way; every texel is
    * compared first (lavapipe's nearest result of the same function at that texel) and the
    * 0/1 results are averaged with those weights. The products are sixteenths that never fall
    * on half of a 1/255 step, so comparisons must agree exactly. The plain depth is the same
    * average of the scene's depths (the nearest band's byte names one of 0.25, 0.375, 0.75 and
    * the clear value 1) within one 8-bit step: the depth is stored at the format's precision. */
   if (ours.linear_offered) {
      auto nearest = [&](unsigned op, unsigned x, unsigned y, unsigned channel) {
         return theirs.pixels[((size_t(op) * size + std::min(y, size - 1)) * size + std::min(x, size - 1)) * 4 +
                              channel];
      };
      auto scene_depth = [](unsigned byte) {
         for (const double z : {0.25, 0.375, 0.75, 1.0})
            if (std::fabs(z * 255.0 - byte) <= 1.0)
               return z;
         return -1.0;
      };
      unsigned fractional = 0, linear_differences = 0, linear_reported = 0;
      for (unsigned op = 0; op < 8; op++)
         for (unsigned y = 0; y < size; y++)
            for (unsigned x = 0; x < size; x++) {
               const auto t = texel(8 + op, x, y);
               for (unsigned channel = 0; channel < 4; channel++) {
                  double sum = 0.0;
                  for (unsigned dy = 0; dy < 2; dy++)
                     for (unsigned dx = 0; dx < 2; dx++) {
                        const double weight = (dx ? 0.25 : 0.75) * (dy ? 0.25 : 0.75);
                        /* a is g's comparison with the footprint moved by (1, -1) */
                        const int ty = int(y + dy) - (channel == 3 ? 1 : 0);
                        const unsigned byte = channel == 3 ? nearest(op, x + dx + 1, unsigned(std::max(ty, 0)), 1)
                                                           : nearest(op, x + dx, y + dy, channel);
                        sum += weight * (channel == 0 ? scene_depth(byte) : byte / 255.0);
                     }
                  const double expected = std::round(sum * 255.0);
                  const bool close = channel == 0 ? std::fabs(t[channel] - expected) <= 1.0 : t[channel] == expected;
                  if (!close && linear_reported++ < 12)
                     ADD_FAILURE() << "linear band, function " << op << " pixel " << x << "," << y << " channel "
                                   << "rgba"[channel] << ": Terakan " << t[channel] << ", expected " << expected;
                  linear_differences += !close;
                  fractional += channel == 1 && t[1] != 0 && t[1] != 255;
               }
            }
      EXPECT_EQ(linear_differences, 0u);
      EXPECT_GT(fractional, 8u); /* the footprints do cross the triangles' edges */
   }
}

/* The stencil aspect of D24S8 and D32FS8 (its own 8-bit plane, FMT_8 integers): the values
 * the first pass left, read back by texelFetch, against lavapipe and against the scene. */
class SampledStencil : public ::testing::TestWithParam<VkFormat> {};

TEST_P(SampledStencil, StencilAspect)
{
   const VkFormat format = GetParam();
   unsigned our_messages = 0, their_messages = 0;
   std::string error;
   const Result ours = draw("Terakan", format, true, our_messages, error);
   ASSERT_FALSE(ours.pixels.empty()) << "Terakan: " << error;
   const Result theirs = draw("llvmpipe", format, true, their_messages, error);
   ASSERT_FALSE(theirs.pixels.empty()) << "lavapipe: " << error;
   EXPECT_EQ(our_messages, 0u);
   EXPECT_EQ(their_messages, 0u);
   ASSERT_EQ(ours.pixels.size(), theirs.pixels.size());
   unsigned differences = 0;
   for (size_t i = 0; i < ours.pixels.size(); i++)
      if (ours.pixels[i] != theirs.pixels[i] && differences++ < 12)
         ADD_FAILURE() << "pixel " << (i / 4) % size << "," << (i / 4) / size << " channel " << "rgba"[i % 4]
                       << ": Terakan " << unsigned(ours.pixels[i]) << ", lavapipe " << unsigned(theirs.pixels[i]);
   EXPECT_EQ(differences, 0u);
   /* (8, 3): the 0.25 triangle, drawn second, replaced the first's value; (2, 14): the third;
    * (15, 15): the clear value. The view reads (S, 0, 0, 1). */
   auto pixel = [&](unsigned x, unsigned y) {
      const uint8_t *p = &ours.pixels[(size_t(y) * size + x) * 4];
      return std::array<unsigned, 4>{p[0], p[1], p[2], p[3]};
   };
   EXPECT_EQ(pixel(8, 3), (std::array<unsigned, 4>{stencil_values[1], 0, 0, 255}));
   EXPECT_EQ(pixel(2, 14), (std::array<unsigned, 4>{stencil_values[2], 0, 0, 255}));
   EXPECT_EQ(pixel(15, 15), (std::array<unsigned, 4>{stencil_clear, 0, 0, 255}));
}

/* Every sampled depth format offers the complete mip chain Vulkan requires, D24S8 and D32FS8
 * included (their levels 1.. are sampled from a copy: api-sampled-depth-mips reads them back),
 * and such images are created. */
TEST(SampledDepthStencil, CompleteMipChainsAreOffered)
{
   unsigned messages = 0;
   VkInstance instance = VK_NULL_HANDLE;
   VkDebugUtilsMessengerCreateInfoEXT messenger_info =
      validation_messenger_info(terakan::test::count_validation_finding, &messages);
   const bool layer = has_instance_layer("VK_LAYER_KHRONOS_validation");
   std::vector<const char *> layers, extensions;
   if (layer) {
      layers.push_back("VK_LAYER_KHRONOS_validation");
      extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
   }
   ASSERT_EQ(create_instance("terakan-api-sampled-depth", VK_API_VERSION_1_0, layers, extensions,
                             layer ? &messenger_info : nullptr, instance),
             VK_SUCCESS);
   VkPhysicalDevice physical = find_physical_device(instance, "Terakan");
   ASSERT_NE(physical, VkPhysicalDevice(VK_NULL_HANDLE));
   const auto family = find_queue_family(physical, VK_QUEUE_GRAPHICS_BIT);
   VkDevice device = VK_NULL_HANDLE;
   ASSERT_TRUE(family && create_device(physical, *family, nullptr, nullptr, {}, device) == VK_SUCCESS);
   const VkImageUsageFlags sampled = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT;
   for (const VkFormat format : {VK_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_D32_SFLOAT_S8_UINT,
                                 VK_FORMAT_X8_D24_UNORM_PACK32, VK_FORMAT_D32_SFLOAT, VK_FORMAT_D16_UNORM}) {
      VkImageFormatProperties properties{};
      ASSERT_EQ(vkGetPhysicalDeviceImageFormatProperties(physical, format, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                                                         sampled, 0, &properties),
                VK_SUCCESS);
      EXPECT_EQ(properties.maxMipLevels, 13u) << format;
      EXPECT_EQ(properties.maxExtent.width, 4096u) << format;
      /* Sizes whose small levels the DB pads for the stencil plane, with layers. */
      for (const VkExtent3D extent : {VkExtent3D{64, 64, 1}, VkExtent3D{100, 37, 1}, VkExtent3D{4096, 3, 1}}) {
         VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
         info.imageType = VK_IMAGE_TYPE_2D;
         info.format = format;
         info.extent = extent;
         info.mipLevels = 1 + unsigned(std::log2(std::max(extent.width, extent.height)));
         info.arrayLayers = 3;
         info.samples = VK_SAMPLE_COUNT_1_BIT;
         info.tiling = VK_IMAGE_TILING_OPTIMAL;
         info.usage = sampled;
         VkImage image = VK_NULL_HANDLE;
         EXPECT_EQ(vkCreateImage(device, &info, nullptr, &image), VK_SUCCESS) << format << " " << extent.width;
         vkDestroyImage(device, image, nullptr);
      }
   }
   vkDestroyDevice(device, nullptr);
   destroy_instance(instance);
   EXPECT_EQ(messages, 0u);
}

INSTANTIATE_TEST_SUITE_P(Formats, SampledDepth,
                         ::testing::Values(VK_FORMAT_D16_UNORM, VK_FORMAT_X8_D24_UNORM_PACK32,
                                           VK_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_D32_SFLOAT,
                                           VK_FORMAT_D32_SFLOAT_S8_UINT),
                         [](const ::testing::TestParamInfo<VkFormat> &info) {
                            switch (info.param) {
                            case VK_FORMAT_D16_UNORM: return std::string("D16");
                            case VK_FORMAT_X8_D24_UNORM_PACK32: return std::string("X8D24");
                            case VK_FORMAT_D24_UNORM_S8_UINT: return std::string("D24S8");
                            case VK_FORMAT_D32_SFLOAT: return std::string("D32F");
                            default: return std::string("D32FS8");
                            }
                         });

INSTANTIATE_TEST_SUITE_P(Formats, SampledStencil,
                         ::testing::Values(VK_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_D32_SFLOAT_S8_UINT),
                         [](const ::testing::TestParamInfo<VkFormat> &info) {
                            return std::string(info.param == VK_FORMAT_D24_UNORM_S8_UINT ? "D24S8" : "D32FS8");
                         });

} // namespace
