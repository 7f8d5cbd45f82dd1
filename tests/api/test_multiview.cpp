/* Multiview (VK_KHR_multiview) through the driver on the simulated GPU (TERAKAN_SIM_CHIP picks
 * the chip) and on lavapipe, with the Khronos validation layer counting messages.
 *
 * A render pass with view mask 0b1011 over a 4-layer colour image and a 4-layer depth image:
 * the shaders move the geometry right by 4 pixels per view and write the view index into
 * blue, so each layer shows which view drew it. The load-op clear covers only part of the
 * target (the driver draws it per view), a vkCmdClearAttachments rectangle clears the middle
 * of every view, and an occlusion query counts the samples of all views (under multiview it
 * takes one query per view: the first holds them all on both devices). Layer 2 is not a view: it must
 * keep the grey that vkCmdClearColorImage wrote before the pass. A second subpass with the
 * same view mask reads the colour image as an input attachment (each view must read its own
 * layer) and writes it swizzled and brightened into a second 4-layer image, pre-filled grey
 * and loaded. Every layer of the colour image is read back and compared with lavapipe's byte
 * for byte, and a few pixels against what the scene implies; the second image is checked
 * against the colour image pixel by pixel (lavapipe 22.3 draws only view 0 in the second
 * subpass, leaving the other views' layers as they were, which the specification does not
 * allow, so its second image is no reference).
 * With TERAKAN_DRAW_PICTURES=DIR the four layers, side by side, are written there as
 * multiview-terakan.png and multiview-lavapipe.png (the meson tests write
 * build/tests/multiview-CHIP), to be looked at. */
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../gl/png_file.h"
#include "../vulkan_helpers.h"

namespace {

using namespace terakan::test;

constexpr uint32_t layers = 4, view_mask = 0b1011, views = 3;
/* The images' width and height: 32 (1D tiled) in the main scene, 128 (2D tiled, whose slices
 * rotate their banks) in TwoDTiledLayers; the PNGs of the second carry `picture_suffix`. */
uint32_t size = 32;
std::string picture_suffix;
constexpr VkFormat colour_format = VK_FORMAT_R8G8B8A8_UNORM, depth_format = VK_FORMAT_D32_SFLOAT;

/* Two flat-coloured triangles at different depths that overlap (the nearer one, drawn first,
 * hides part of the farther one through the depth test). */
struct Vertex {
   float x, y, z, w, r, g, b, a;
};
const Vertex vertices[] = {
   {-1.0f, -1.0f, 0.25f, 1, 1.0f, 0.0f, 0.0f, 1.0f}, {0.25f, -1.0f, 0.25f, 1, 1.0f, 0.0f, 0.0f, 1.0f},
   {-1.0f, 0.25f, 0.25f, 1, 1.0f, 0.0f, 0.0f, 1.0f}, {-0.5f, -0.5f, 0.75f, 1, 0.0f, 1.0f, 0.0f, 1.0f},
   {0.75f, -0.5f, 0.75f, 1, 0.0f, 1.0f, 0.0f, 1.0f}, {-0.5f, 0.75f, 0.75f, 1, 0.0f, 1.0f, 0.0f, 1.0f},
};

struct Picture {
   std::vector<uint8_t> texels; /* layer after layer, RGBA8: the colour image, then the second */
   uint64_t samples = 0;        /* the occlusion count summed over the views' queries read */
   uint64_t first_query = 0;
};

struct LayeredImage {
   VkImage image = VK_NULL_HANDLE;
   VkDeviceMemory memory = VK_NULL_HANDLE;
   VkImageView view = VK_NULL_HANDLE;
};

bool create_layered(VkPhysicalDevice physical, VkDevice device, VkFormat format, VkImageUsageFlags usage,
                    VkImageAspectFlags aspect, LayeredImage &out)
{
   VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
   info.imageType = VK_IMAGE_TYPE_2D;
   info.format = format;
   info.extent = {size, size, 1};
   info.mipLevels = 1;
   info.arrayLayers = layers;
   info.samples = VK_SAMPLE_COUNT_1_BIT;
   info.tiling = VK_IMAGE_TILING_OPTIMAL;
   info.usage = usage;
   if (vkCreateImage(device, &info, nullptr, &out.image) != VK_SUCCESS ||
       !bind_image_memory(physical, device, out.image, out.memory))
      return false;
   VkImageViewCreateInfo view_info{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
   view_info.image = out.image;
   view_info.viewType = VK_IMAGE_VIEW_TYPE_2D_ARRAY;
   view_info.format = format;
   view_info.subresourceRange = {aspect, 0, 1, 0, layers};
   return vkCreateImageView(device, &view_info, nullptr, &out.view) == VK_SUCCESS;
}

void destroy_layered(VkDevice device, LayeredImage &image)
{
   vkDestroyImageView(device, image.view, nullptr);
   vkDestroyImage(device, image.image, nullptr);
   vkFreeMemory(device, image.memory, nullptr);
}

/* Draws the scene on the device named `name`; empty texels with `error` set on failure. */
Picture draw(const char *name, unsigned &messages, std::string &error)
{
   Picture picture;
   VkInstance instance = VK_NULL_HANDLE;
   VkDebugUtilsMessengerCreateInfoEXT messenger_info = validation_messenger_info(terakan::test::count_validation_finding, &messages);
   const bool layer = has_instance_layer("VK_LAYER_KHRONOS_validation");
   std::vector<const char *> instance_layers, extensions;
   if (layer) {
      instance_layers.push_back("VK_LAYER_KHRONOS_validation");
      extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
   }
   extensions.push_back(VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME);
   if (create_instance("terakan-api-multiview", VK_API_VERSION_1_0, instance_layers, extensions,
                       layer ? &messenger_info : nullptr, instance) != VK_SUCCESS) {
      error = "no instance";
      return picture;
   }
   VkPhysicalDevice physical = find_physical_device(instance, name);
   const auto family = physical ? find_queue_family(physical, VK_QUEUE_GRAPHICS_BIT) : std::nullopt;
   if (!family || !has_device_extension(physical, VK_KHR_MULTIVIEW_EXTENSION_NAME)) {
      error = std::string("no device ") + name + " with VK_KHR_multiview";
      destroy_instance(instance);
      return picture;
   }
   VkPhysicalDeviceMultiviewFeatures multiview_features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_FEATURES};
   multiview_features.multiview = VK_TRUE;
   VkPhysicalDeviceFeatures features{};
   features.occlusionQueryPrecise = VK_TRUE;
   VkDevice device = VK_NULL_HANDLE;
   if (create_device(physical, *family, &multiview_features, &features, {VK_KHR_MULTIVIEW_EXTENSION_NAME}, device) !=
       VK_SUCCESS) {
      error = std::string("device creation failed on ") + name;
      destroy_instance(instance);
      return picture;
   }
   VkQueue queue;
   vkGetDeviceQueue(device, *family, 0, &queue);

   LayeredImage colour, depth, second;
   VkBuffer vertex_buffer = VK_NULL_HANDLE, readback = VK_NULL_HANDLE;
   VkDeviceMemory vertex_memory = VK_NULL_HANDLE, readback_memory = VK_NULL_HANDLE;
   void *vertex_map = nullptr, *readback_map = nullptr;
   VkRenderPass pass = VK_NULL_HANDLE;
   VkFramebuffer framebuffer = VK_NULL_HANDLE;
   VkPipelineLayout pipeline_layout = VK_NULL_HANDLE, read_layout = VK_NULL_HANDLE;
   VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
   VkDescriptorPool descriptor_pool = VK_NULL_HANDLE;
   VkPipeline pipeline = VK_NULL_HANDLE, read_pipeline = VK_NULL_HANDLE;
   VkShaderModule modules[4] = {};
   VkQueryPool query_pool = VK_NULL_HANDLE;
   VkCommandPool command_pool = VK_NULL_HANDLE;
   do {
      if (!create_layered(physical, device, colour_format,
                          VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                             VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT,
                          VK_IMAGE_ASPECT_COLOR_BIT, colour) ||
          !create_layered(physical, device, colour_format,
                          VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                             VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                          VK_IMAGE_ASPECT_COLOR_BIT, second) ||
          !create_layered(physical, device, depth_format, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                          VK_IMAGE_ASPECT_DEPTH_BIT, depth)) {
         error = "attachment creation failed";
         break;
      }
      if (!create_host_buffer(physical, device, sizeof(vertices), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, vertex_buffer,
                              vertex_memory, vertex_map) ||
          !create_host_buffer(physical, device, 2 * size * size * 4 * layers, VK_BUFFER_USAGE_TRANSFER_DST_BIT, readback,
                              readback_memory, readback_map)) {
         error = "buffer creation failed";
         break;
      }
      std::memcpy(vertex_map, vertices, sizeof(vertices));

      VkAttachmentDescription attachments[3] = {};
      attachments[0].format = colour_format;
      attachments[0].samples = VK_SAMPLE_COUNT_1_BIT;
      attachments[0].loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
      attachments[0].storeOp = VK_ATTACHMENT_STORE_OP_STORE;
      attachments[0].stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
      attachments[0].stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
      attachments[0].initialLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
      attachments[0].finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
      attachments[1] = attachments[0];
      attachments[1].format = depth_format;
      attachments[1].storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
      attachments[1].initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
      attachments[1].finalLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
      attachments[2] = attachments[0];
      attachments[2].loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
      attachments[0].finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
      const VkAttachmentReference colour_ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
      const VkAttachmentReference depth_ref{1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
      const VkAttachmentReference input_ref{0, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
      const VkAttachmentReference second_ref{2, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
      VkSubpassDescription subpasses[2] = {};
      subpasses[0].pipelineBindPoint = subpasses[1].pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
      subpasses[0].colorAttachmentCount = 1;
      subpasses[0].pColorAttachments = &colour_ref;
      subpasses[0].pDepthStencilAttachment = &depth_ref;
      subpasses[1].inputAttachmentCount = 1;
      subpasses[1].pInputAttachments = &input_ref;
      subpasses[1].colorAttachmentCount = 1;
      subpasses[1].pColorAttachments = &second_ref;
      VkSubpassDependency dependencies[3] = {};
      dependencies[0].srcSubpass = VK_SUBPASS_EXTERNAL;
      dependencies[0].dstSubpass = 0;
      dependencies[0].srcStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
      dependencies[0].dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
      dependencies[0].srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
      dependencies[0].dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_COLOR_ATTACHMENT_READ_BIT;
      dependencies[2].srcSubpass = 0;
      dependencies[2].dstSubpass = 1;
      dependencies[2].srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
      dependencies[2].dstStageMask = VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT;
      dependencies[2].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
      dependencies[2].dstAccessMask = VK_ACCESS_INPUT_ATTACHMENT_READ_BIT;
      dependencies[2].dependencyFlags = VK_DEPENDENCY_BY_REGION_BIT | VK_DEPENDENCY_VIEW_LOCAL_BIT;
      dependencies[1].srcSubpass = 1;
      dependencies[1].dstSubpass = VK_SUBPASS_EXTERNAL;
      dependencies[1].srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
      dependencies[1].dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
      dependencies[1].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
      dependencies[1].dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
      const uint32_t masks[2] = {view_mask, view_mask};
      VkRenderPassMultiviewCreateInfo multiview{VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO};
      multiview.subpassCount = 2;
      multiview.pViewMasks = masks;
      VkRenderPassCreateInfo pass_info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
      pass_info.pNext = &multiview;
      pass_info.attachmentCount = 3;
      pass_info.pAttachments = attachments;
      pass_info.subpassCount = 2;
      pass_info.pSubpasses = subpasses;
      pass_info.dependencyCount = 3;
      pass_info.pDependencies = dependencies;
      if (vkCreateRenderPass(device, &pass_info, nullptr, &pass) != VK_SUCCESS) {
         error = "render pass creation failed";
         break;
      }
      const VkImageView views_of_framebuffer[3] = {colour.view, depth.view, second.view};
      VkFramebufferCreateInfo fb_info{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
      fb_info.renderPass = pass;
      fb_info.attachmentCount = 3;
      fb_info.pAttachments = views_of_framebuffer;
      fb_info.width = fb_info.height = size;
      fb_info.layers = 1; /* multiview: the views pick the layers */
      if (vkCreateFramebuffer(device, &fb_info, nullptr, &framebuffer) != VK_SUCCESS) {
         error = "framebuffer creation failed";
         break;
      }

      VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
      vkCreatePipelineLayout(device, &layout_info, nullptr, &pipeline_layout);
      const char *names[4] = {"multiview.vert", "multiview.frag", "subpass_fullscreen.vert",
                              "input_attachment.frag"};
      VkPipelineShaderStageCreateInfo stages[4] = {};
      for (unsigned s = 0; s < 4; s++) {
         const std::vector<uint32_t> code = terakan::test::read_api_spirv(names[s]);
         VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
         module_info.codeSize = code.size() * 4;
         module_info.pCode = code.data();
         vkCreateShaderModule(device, &module_info, nullptr, &modules[s]);
         stages[s].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
         stages[s].stage = s % 2 == 0 ? VK_SHADER_STAGE_VERTEX_BIT : VK_SHADER_STAGE_FRAGMENT_BIT;
         stages[s].module = modules[s];
         stages[s].pName = "main";
      }
      const VkVertexInputBindingDescription vertex_binding{0, sizeof(Vertex), VK_VERTEX_INPUT_RATE_VERTEX};
      const VkVertexInputAttributeDescription vertex_attributes[2] = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0},
                                                                      {1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 16}};
      VkPipelineVertexInputStateCreateInfo vertex_input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
      vertex_input.vertexBindingDescriptionCount = 1;
      vertex_input.pVertexBindingDescriptions = &vertex_binding;
      vertex_input.vertexAttributeDescriptionCount = 2;
      vertex_input.pVertexAttributeDescriptions = vertex_attributes;
      VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
      assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
      const VkViewport viewport{0, 0, float(size), float(size), 0, 1};
      /* The render area's rectangle: Vulkan leaves drawing outside it undefined. */
      const VkRect2D scissor{{2, 2}, {size - 4, size - 4}};
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
      depth_state.depthTestEnable = VK_TRUE;
      depth_state.depthWriteEnable = VK_TRUE;
      depth_state.depthCompareOp = VK_COMPARE_OP_LESS;
      VkPipelineColorBlendAttachmentState blend{};
      blend.colorWriteMask = 0xf;
      VkPipelineColorBlendStateCreateInfo blend_state{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
      blend_state.attachmentCount = 1;
      blend_state.pAttachments = &blend;
      VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
      info.stageCount = 2;
      info.pStages = stages;
      info.pVertexInputState = &vertex_input;
      info.pInputAssemblyState = &assembly;
      info.pViewportState = &viewport_state;
      info.pRasterizationState = &raster;
      info.pMultisampleState = &multisample;
      info.pDepthStencilState = &depth_state;
      info.pColorBlendState = &blend_state;
      info.layout = pipeline_layout;
      info.renderPass = pass;
      if (vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline) != VK_SUCCESS) {
         error = "pipeline creation failed";
         break;
      }
      /* The second subpass: a full-target triangle reading the input attachment. */
      const VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, 1,
                                                 VK_SHADER_STAGE_FRAGMENT_BIT, nullptr};
      VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
      set_info.bindingCount = 1;
      set_info.pBindings = &binding;
      vkCreateDescriptorSetLayout(device, &set_info, nullptr, &set_layout);
      VkPipelineLayoutCreateInfo read_layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
      read_layout_info.setLayoutCount = 1;
      read_layout_info.pSetLayouts = &set_layout;
      vkCreatePipelineLayout(device, &read_layout_info, nullptr, &read_layout);
      VkPipelineVertexInputStateCreateInfo no_vertices{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
      VkPipelineDepthStencilStateCreateInfo no_depth{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
      info.pStages = stages + 2;
      info.pVertexInputState = &no_vertices;
      info.pDepthStencilState = &no_depth;
      info.layout = read_layout;
      info.subpass = 1;
      if (vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &read_pipeline) != VK_SUCCESS) {
         error = "input attachment pipeline creation failed";
         break;
      }
      const VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, 1};
      VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
      pool_info.maxSets = 1;
      pool_info.poolSizeCount = 1;
      pool_info.pPoolSizes = &pool_size;
      vkCreateDescriptorPool(device, &pool_info, nullptr, &descriptor_pool);
      VkDescriptorSetAllocateInfo allocate{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
      allocate.descriptorPool = descriptor_pool;
      allocate.descriptorSetCount = 1;
      allocate.pSetLayouts = &set_layout;
      VkDescriptorSet input_set = VK_NULL_HANDLE;
      vkAllocateDescriptorSets(device, &allocate, &input_set);
      const VkDescriptorImageInfo input_info{VK_NULL_HANDLE, colour.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
      VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
      write.dstSet = input_set;
      write.descriptorCount = 1;
      write.descriptorType = VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT;
      write.pImageInfo = &input_info;
      vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);
      VkQueryPoolCreateInfo query_info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
      query_info.queryType = VK_QUERY_TYPE_OCCLUSION;
      query_info.queryCount = views;
      vkCreateQueryPool(device, &query_info, nullptr, &query_pool);

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
      vkCmdResetQueryPool(commands, query_pool, 0, views);

      /* Every layer grey first, so that what the pass must not touch shows. */
      VkImageMemoryBarrier to_transfer{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
      to_transfer.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
      to_transfer.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
      to_transfer.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
      to_transfer.srcQueueFamilyIndex = to_transfer.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
      to_transfer.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, layers};
      const VkClearColorValue grey = {{0.5f, 0.5f, 0.5f, 1.0f}};
      for (VkImage image : {colour.image, second.image}) {
         to_transfer.image = image;
         vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0,
                              nullptr, 0, nullptr, 1, &to_transfer);
         vkCmdClearColorImage(commands, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &grey, 1,
                              &to_transfer.subresourceRange);
         VkImageMemoryBarrier to_attachment = to_transfer;
         to_attachment.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
         to_attachment.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_COLOR_ATTACHMENT_READ_BIT;
         to_attachment.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
         to_attachment.newLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
         vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                              0, 0, nullptr, 0, nullptr, 1, &to_attachment);
      }

      VkClearValue clears[3] = {};
      clears[0].color = {{0.0f, 0.0f, 0.0f, 1.0f}};
      clears[1].depthStencil = {1.0f, 0};
      VkRenderPassBeginInfo pass_begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
      pass_begin.renderPass = pass;
      pass_begin.framebuffer = framebuffer;
      /* Not the whole target: the load-op clears are draws, one per view. */
      pass_begin.renderArea = {{2, 2}, {size - 4, size - 4}};
      pass_begin.clearValueCount = 3;
      pass_begin.pClearValues = clears;
      vkCmdBeginRenderPass(commands, &pass_begin, VK_SUBPASS_CONTENTS_INLINE);
      vkCmdBeginQuery(commands, query_pool, 0, VK_QUERY_CONTROL_PRECISE_BIT);
      vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
      const VkDeviceSize offset = 0;
      vkCmdBindVertexBuffers(commands, 0, 1, &vertex_buffer, &offset);
      vkCmdDraw(commands, 6, 1, 0, 0);
      vkCmdEndQuery(commands, query_pool, 0);
      VkClearAttachment clear_attachment{VK_IMAGE_ASPECT_COLOR_BIT, 0, {}};
      clear_attachment.clearValue.color = {{0.0f, 0.0f, 1.0f, 1.0f}};
      const VkClearRect clear_rect{{{12, 12}, {6, 6}}, 0, 1};
      vkCmdClearAttachments(commands, 1, &clear_attachment, 1, &clear_rect);
      vkCmdNextSubpass(commands, VK_SUBPASS_CONTENTS_INLINE);
      vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, read_pipeline);
      vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, read_layout, 0, 1, &input_set, 0, nullptr);
      vkCmdDraw(commands, 3, 1, 0, 0);
      vkCmdEndRenderPass(commands);

      VkBufferImageCopy region{};
      region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, layers};
      region.imageExtent = {size, size, 1};
      vkCmdCopyImageToBuffer(commands, colour.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1, &region);
      region.bufferOffset = size * size * 4 * layers;
      vkCmdCopyImageToBuffer(commands, second.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1, &region);
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
      /* The first query holds every view's samples on both devices. The specification also
       * makes the other views' queries available (the counts split in some way among them);
       * Terakan writes zero there, while lavapipe 22.3 leaves them unavailable (VK_NOT_READY
       * even with WAIT_BIT), so only Terakan's are read. */
      const uint32_t read = std::string(name) == "Terakan" ? views : 1;
      uint64_t counts[views] = {};
      if (vkGetQueryPoolResults(device, query_pool, 0, read, sizeof(counts), counts, sizeof(uint64_t),
                                VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) != VK_SUCCESS) {
         error = "query results failed";
         break;
      }
      for (uint64_t count : counts)
         picture.samples += count;
      picture.first_query = counts[0];
      const uint8_t *bytes = static_cast<const uint8_t *>(readback_map);
      picture.texels.assign(bytes, bytes + 2 * size * size * 4 * layers);
   } while (false);

   vkDeviceWaitIdle(device);
   vkDestroyCommandPool(device, command_pool, nullptr);
   vkDestroyQueryPool(device, query_pool, nullptr);
   vkDestroyPipeline(device, pipeline, nullptr);
   vkDestroyPipeline(device, read_pipeline, nullptr);
   vkDestroyPipelineLayout(device, read_layout, nullptr);
   vkDestroyDescriptorPool(device, descriptor_pool, nullptr);
   vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
   for (VkShaderModule m : modules)
      vkDestroyShaderModule(device, m, nullptr);
   vkDestroyPipelineLayout(device, pipeline_layout, nullptr);
   vkDestroyFramebuffer(device, framebuffer, nullptr);
   vkDestroyRenderPass(device, pass, nullptr);
   vkDestroyBuffer(device, vertex_buffer, nullptr);
   vkFreeMemory(device, vertex_memory, nullptr);
   vkDestroyBuffer(device, readback, nullptr);
   vkFreeMemory(device, readback_memory, nullptr);
   destroy_layered(device, colour);
   destroy_layered(device, depth);
   destroy_layered(device, second);
   vkDestroyDevice(device, nullptr);
   destroy_instance(instance);
   return picture;
}

/* The layers side by side, left to right, enlarged 4 times: the colour image above, the
 * second subpass's image below. */
void save_picture(const Picture &picture, const char *who)
{
   const char *folder = std::getenv("TERAKAN_DRAW_PICTURES");
   if (!folder)
      return;
   const int scale = size >= 128 ? 1 : 4; /* the 128x128 scene is large enough as it is */
   terakan::gl_scenes::RgbaPicture out;
   out.width = int(size * layers) * scale;
   out.height = 2 * int(size) * scale;
   out.pixels.resize(size_t(out.width) * out.height * 4);
   for (int y = 0; y < out.height; y++)
      for (int x = 0; x < out.width; x++) {
         const unsigned layer = unsigned(y / scale) / size * layers + unsigned(x / scale) / size;
         const unsigned tx = unsigned(x / scale) % size, ty = unsigned(y / scale) % size;
         std::memcpy(&out.pixels[(size_t(y) * out.width + x) * 4],
                     &picture.texels[((size_t(layer) * size + ty) * size + tx) * 4], 4);
      }
   try {
      terakan::gl_scenes::write_png(std::string(folder) + "/multiview-" + who + picture_suffix + ".png", out);
   } catch (const std::exception &failure) {
      ADD_FAILURE() << failure.what();
   }
}

/* Draws the scene on both devices and compares every layer of the colour image with
 * lavapipe's, and the second image with what the colour image implies. */
void draw_and_compare(Picture &ours, Picture &theirs)
{
   unsigned our_messages = 0, their_messages = 0;
   std::string error;
   ours = draw("Terakan", our_messages, error);
   ASSERT_FALSE(ours.texels.empty()) << "Terakan: " << error;
   theirs = draw("llvmpipe", their_messages, error);
   ASSERT_FALSE(theirs.texels.empty()) << "lavapipe: " << error;
   EXPECT_EQ(our_messages, 0u);
   EXPECT_EQ(their_messages, 0u);
   save_picture(ours, "terakan");
   save_picture(theirs, "lavapipe");
   unsigned reported = 0;
   const size_t colour_bytes = size_t(size) * size * 4 * layers;
   for (size_t i = 0; i < colour_bytes && reported < 8; i++)
      if (ours.texels[i] != theirs.texels[i]) {
         const size_t pixel = i / 4;
         ADD_FAILURE() << "layer " << pixel / (size * size) << " pixel " << pixel % size << ","
                       << (pixel / size) % size << " channel " << i % 4 << ": Terakan " << unsigned(ours.texels[i])
                       << ", lavapipe " << unsigned(theirs.texels[i]);
         reported++;
      }
   /* The second image: inside the render area of every view, the colour image's pixel of the
    * same layer swizzled (bgra) and 64 brighter (the shader adds 0.25); elsewhere the grey. */
   reported = 0;
   for (unsigned layer = 0; layer < layers; layer++)
      for (unsigned y = 0; y < size; y++)
         for (unsigned x = 0; x < size && reported < 8; x++) {
            const uint8_t *in = &ours.texels[((size_t(layer) * size + y) * size + x) * 4];
            const uint8_t *out = &ours.texels[colour_bytes + ((size_t(layer) * size + y) * size + x) * 4];
            const bool drawn = (view_mask >> layer & 1) && x >= 2 && y >= 2 && x < size - 2 && y < size - 2;
            const unsigned expected[4] = {drawn ? std::min(in[2] + 64u, 255u) : 128u,
                                          drawn ? std::min(in[1] + 64u, 255u) : 128u,
                                          drawn ? std::min(in[0] + 64u, 255u) : 128u, 255u};
            for (unsigned c = 0; c < 4; c++)
               if (out[c] != expected[c]) {
                  ADD_FAILURE() << "second image, layer " << layer << " pixel " << x << "," << y << " channel " << c
                                << ": " << unsigned(out[c]) << ", expected " << expected[c];
                  reported++;
                  break;
               }
         }
}

TEST(Multiview, EachViewDrawsItsLayerAndOnlyItsLayer)
{
   Picture ours, theirs;
   draw_and_compare(ours, theirs);
   if (HasFatalFailure())
      return;
   EXPECT_EQ(ours.first_query, theirs.first_query) << "occlusion samples of all views in the first query";
   EXPECT_EQ(ours.samples, ours.first_query) << "the other views' queries hold zero";
   EXPECT_GT(ours.samples, 0u);

   auto texel = [&](unsigned layer, unsigned x, unsigned y) {
      const uint8_t *p = &ours.texels[((size_t(layer) * size + y) * size + x) * 4];
      return std::vector<unsigned>{p[0], p[1], p[2], p[3]};
   };
   const std::vector<unsigned> grey{128, 128, 128, 255}, black{0, 0, 0, 255}, blue{0, 0, 255, 255};
   /* Layer 2 is not in the view mask: untouched. Outside the render area: untouched. */
   EXPECT_EQ(texel(2, 14, 14), grey);
   EXPECT_EQ(texel(layers + 2, 14, 14), grey);
   EXPECT_EQ(texel(2, 5, 28), grey);
   EXPECT_EQ(texel(0, 0, 0), grey);
   EXPECT_EQ(texel(3, 31, 31), grey);
   for (unsigned layer : {0u, 1u, 3u}) {
      /* The load-op clear inside the render area, and the vkCmdClearAttachments rectangle. */
      EXPECT_EQ(texel(layer, 29, 29), black) << "layer " << layer;
      EXPECT_EQ(texel(layer, 14, 14), blue) << "layer " << layer;
      /* The near red triangle, moved right by 4 pixels per view, blue = view / 4. */
      const unsigned shift = 4 * layer;
      const unsigned blue_of_view = unsigned(std::lround(0.25 * layer * 255.0));
      EXPECT_EQ(texel(layer, 3 + shift, 3), (std::vector<unsigned>{255, 0, blue_of_view, 255})) << "layer " << layer;
      /* The second subpass read this view's own layer: swizzled (bgra), 64 brighter. */
      EXPECT_EQ(texel(layers + layer, 3 + shift, 3), (std::vector<unsigned>{std::min(blue_of_view + 64, 255u), 64, 255, 255}))
         << "second image, layer " << layer;
      EXPECT_EQ(texel(layers + layer, 14, 14), (std::vector<unsigned>{255, 64, 64, 255})) << "second image, layer " << layer;
   }
}

/* The same scene at 128x128, where the images are 2D tiled: a layer's banks are rotated by its
 * slice (hw/surface), so rendering to layer n must address it as slice n of the level (the
 * CB's SLICE_START), as the copies and the texture unit do, not as slice 0 at a later base. */
TEST(Multiview, TwoDTiledLayers)
{
   size = 128;
   picture_suffix = "-128";
   Picture ours, theirs;
   draw_and_compare(ours, theirs);
   size = 32;
   picture_suffix.clear();
}

} // namespace
