/* Input attachments through the driver on the simulated GPU (TERAKAN_SIM_CHIP picks the chip)
 * and on lavapipe, with the Khronos validation layer counting messages: a render pass whose
 * first subpass draws coloured triangles into attachment A and whose second subpass reads A
 * as an input attachment (subpassLoad, a texelFetch at the fragment's position) while drawing
 * a full-target triangle into attachment B. B is read back and compared pixel for pixel, and
 * against the values the first subpass's colours imply. */
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "../vulkan_helpers.h"

namespace {

using namespace terakan::test;

constexpr uint32_t size = 32;
constexpr VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;

/* Two triangles of flat colours (vertex colours equal) over part of the target; the rest keeps
 * A's clear colour. Positions in clip space on whole pixels. */
struct Vertex {
   float x, y, z, w, r, g, b, a;
};
const Vertex vertices[] = {
   {-1.0f, -1.0f, 0, 1, 1.0f, 0.0f, 0.0f, 1.0f}, {0.5f, -1.0f, 0, 1, 1.0f, 0.0f, 0.0f, 1.0f},
   {-1.0f, 0.5f, 0, 1, 1.0f, 0.0f, 0.0f, 1.0f},  {0.0f, 0.0f, 0, 1, 0.2f, 0.6f, 0.4f, 0.8f},
   {1.0f, 0.0f, 0, 1, 0.2f, 0.6f, 0.4f, 0.8f},   {0.0f, 1.0f, 0, 1, 0.2f, 0.6f, 0.4f, 0.8f},
};

/* Draws the scene on the device named `name`; B's bytes, or empty with `error` set. */
std::vector<uint8_t> draw(const char *name, unsigned &messages, std::string &error)
{
   VkInstance instance = VK_NULL_HANDLE;
   VkDebugUtilsMessengerCreateInfoEXT messenger_info = validation_messenger_info(terakan::test::count_validation_finding, &messages);
   const bool layer = has_instance_layer("VK_LAYER_KHRONOS_validation");
   std::vector<const char *> layers, extensions;
   if (layer) {
      layers.push_back("VK_LAYER_KHRONOS_validation");
      extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
   }
   if (create_instance("terakan-api-input-attachments", VK_API_VERSION_1_0, layers, extensions,
                       layer ? &messenger_info : nullptr, instance) != VK_SUCCESS) {
      error = "no instance";
      return {};
   }
   std::vector<uint8_t> result;
   VkPhysicalDevice physical = find_physical_device(instance, name);
   const auto family = physical ? find_queue_family(physical, VK_QUEUE_GRAPHICS_BIT) : std::nullopt;
   VkDevice device = VK_NULL_HANDLE;
   if (!family || create_device(physical, *family, nullptr, nullptr, {}, device) != VK_SUCCESS) {
      error = std::string("no device ") + name;
      destroy_instance(instance);
      return {};
   }
   VkQueue queue;
   vkGetDeviceQueue(device, *family, 0, &queue);

   Image2D a, b;
   VkBuffer vertex_buffer = VK_NULL_HANDLE, readback = VK_NULL_HANDLE;
   VkDeviceMemory vertex_memory = VK_NULL_HANDLE, readback_memory = VK_NULL_HANDLE;
   void *vertex_map = nullptr, *readback_map = nullptr;
   VkRenderPass pass = VK_NULL_HANDLE;
   VkFramebuffer framebuffer = VK_NULL_HANDLE;
   VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
   VkPipelineLayout layouts[2] = {};
   VkPipeline pipelines[2] = {};
   VkShaderModule modules[4] = {};
   VkDescriptorPool pool = VK_NULL_HANDLE;
   VkCommandPool command_pool = VK_NULL_HANDLE;
   do {
      if (!create_image_2d(physical, device, format,
                           VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT,
                           VK_IMAGE_ASPECT_COLOR_BIT, size, size, VK_SAMPLE_COUNT_1_BIT, a) ||
          !create_image_2d(physical, device, format,
                           VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                           VK_IMAGE_ASPECT_COLOR_BIT, size, size, VK_SAMPLE_COUNT_1_BIT, b)) {
         error = "attachment creation failed";
         break;
      }
      if (!create_host_buffer(physical, device, sizeof(vertices), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, vertex_buffer,
                              vertex_memory, vertex_map) ||
          !create_host_buffer(physical, device, size * size * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, readback,
                              readback_memory, readback_map)) {
         error = "buffer creation failed";
         break;
      }
      std::memcpy(vertex_map, vertices, sizeof(vertices));

      VkAttachmentDescription attachments[2] = {};
      for (VkAttachmentDescription &d : attachments) {
         d.format = format;
         d.samples = VK_SAMPLE_COUNT_1_BIT;
         d.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
         d.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
         d.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
         d.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
         d.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
      }
      attachments[0].storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
      attachments[0].finalLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
      attachments[1].finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
      const VkAttachmentReference a_out{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
      const VkAttachmentReference a_in{0, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
      const VkAttachmentReference b_out{1, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
      VkSubpassDescription subpasses[2] = {};
      subpasses[0].pipelineBindPoint = subpasses[1].pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
      subpasses[0].colorAttachmentCount = 1;
      subpasses[0].pColorAttachments = &a_out;
      subpasses[1].inputAttachmentCount = 1;
      subpasses[1].pInputAttachments = &a_in;
      subpasses[1].colorAttachmentCount = 1;
      subpasses[1].pColorAttachments = &b_out;
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
      pass_info.attachmentCount = 2;
      pass_info.pAttachments = attachments;
      pass_info.subpassCount = 2;
      pass_info.pSubpasses = subpasses;
      pass_info.dependencyCount = 2;
      pass_info.pDependencies = dependencies;
      if (vkCreateRenderPass(device, &pass_info, nullptr, &pass) != VK_SUCCESS) {
         error = "render pass creation failed";
         break;
      }
      const VkImageView views[2] = {a.view, b.view};
      VkFramebufferCreateInfo fb_info{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
      fb_info.renderPass = pass;
      fb_info.attachmentCount = 2;
      fb_info.pAttachments = views;
      fb_info.width = fb_info.height = size;
      fb_info.layers = 1;
      vkCreateFramebuffer(device, &fb_info, nullptr, &framebuffer);

      VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, 1, VK_SHADER_STAGE_FRAGMENT_BIT,
                                           nullptr};
      VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
      set_info.bindingCount = 1;
      set_info.pBindings = &binding;
      if (vkCreateDescriptorSetLayout(device, &set_info, nullptr, &set_layout) != VK_SUCCESS) {
         error = "the input attachment descriptor set layout was refused";
         break;
      }
      VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
      vkCreatePipelineLayout(device, &layout_info, nullptr, &layouts[0]);
      layout_info.setLayoutCount = 1;
      layout_info.pSetLayouts = &set_layout;
      vkCreatePipelineLayout(device, &layout_info, nullptr, &layouts[1]);

      const char *names[4] = {"coloured.vert", "coloured.frag", "subpass_fullscreen.vert", "input_attachment.frag"};
      for (unsigned i = 0; i < 4; i++) {
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
            stages[s].module = modules[2 * p + s];
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
         multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
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
         info.pColorBlendState = &blend_state;
         info.layout = layouts[p];
         info.renderPass = pass;
         info.subpass = p;
         if (vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipelines[p]) != VK_SUCCESS)
            error = "pipeline " + std::to_string(p) + " creation failed";
      }
      if (!error.empty())
         break;

      const VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, 1};
      VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
      pool_info.maxSets = 1;
      pool_info.poolSizeCount = 1;
      pool_info.pPoolSizes = &pool_size;
      vkCreateDescriptorPool(device, &pool_info, nullptr, &pool);
      VkDescriptorSetAllocateInfo allocate{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
      allocate.descriptorPool = pool;
      allocate.descriptorSetCount = 1;
      allocate.pSetLayouts = &set_layout;
      VkDescriptorSet set = VK_NULL_HANDLE;
      vkAllocateDescriptorSets(device, &allocate, &set);
      const VkDescriptorImageInfo image_info{VK_NULL_HANDLE, a.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
      VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
      write.dstSet = set;
      write.descriptorCount = 1;
      write.descriptorType = VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT;
      write.pImageInfo = &image_info;
      vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);

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
      VkClearValue clears[2] = {};
      clears[0].color = {{0.0f, 0.0f, 0.4f, 1.0f}};
      clears[1].color = {{1.0f, 1.0f, 1.0f, 1.0f}};
      VkRenderPassBeginInfo pass_begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
      pass_begin.renderPass = pass;
      pass_begin.framebuffer = framebuffer;
      pass_begin.renderArea = {{0, 0}, {size, size}};
      pass_begin.clearValueCount = 2;
      pass_begin.pClearValues = clears;
      vkCmdBeginRenderPass(commands, &pass_begin, VK_SUBPASS_CONTENTS_INLINE);
      vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines[0]);
      const VkDeviceSize offset = 0;
      vkCmdBindVertexBuffers(commands, 0, 1, &vertex_buffer, &offset);
      vkCmdDraw(commands, 6, 1, 0, 0);
      vkCmdNextSubpass(commands, VK_SUBPASS_CONTENTS_INLINE);
      vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines[1]);
      vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, layouts[1], 0, 1, &set, 0, nullptr);
      vkCmdDraw(commands, 3, 1, 0, 0);
      vkCmdEndRenderPass(commands);
      VkBufferImageCopy region{};
      region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
      region.imageExtent = {size, size, 1};
      vkCmdCopyImageToBuffer(commands, b.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1, &region);
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
      result.assign(bytes, bytes + size * size * 4);
   } while (false);

   vkDeviceWaitIdle(device);
   vkDestroyCommandPool(device, command_pool, nullptr);
   vkDestroyDescriptorPool(device, pool, nullptr);
   for (VkPipeline p : pipelines)
      vkDestroyPipeline(device, p, nullptr);
   for (VkShaderModule m : modules)
      vkDestroyShaderModule(device, m, nullptr);
   for (VkPipelineLayout l : layouts)
      vkDestroyPipelineLayout(device, l, nullptr);
   vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
   vkDestroyFramebuffer(device, framebuffer, nullptr);
   vkDestroyRenderPass(device, pass, nullptr);
   vkDestroyBuffer(device, vertex_buffer, nullptr);
   vkFreeMemory(device, vertex_memory, nullptr);
   vkDestroyBuffer(device, readback, nullptr);
   vkFreeMemory(device, readback_memory, nullptr);
   destroy_image_2d(device, a);
   destroy_image_2d(device, b);
   vkDestroyDevice(device, nullptr);
   destroy_instance(instance);
   return result;
}

TEST(InputAttachments, SecondSubpassReadsWhatTheFirstDrew)
{
   unsigned our_messages = 0, their_messages = 0;
   std::string error;
   const std::vector<uint8_t> ours = draw("Terakan", our_messages, error);
   ASSERT_FALSE(ours.empty()) << "Terakan: " << error;
   const std::vector<uint8_t> theirs = draw("llvmpipe", their_messages, error);
   ASSERT_FALSE(theirs.empty()) << "lavapipe: " << error;
   EXPECT_EQ(our_messages, 0u);
   EXPECT_EQ(their_messages, 0u);
   unsigned reported = 0;
   for (size_t i = 0; i < ours.size() && reported < 8; i++)
      if (ours[i] != theirs[i]) {
         ADD_FAILURE() << "pixel " << (i / 4) % size << "," << (i / 4) / size << " channel " << i % 4
                       << ": Terakan " << unsigned(ours[i]) << ", lavapipe " << unsigned(theirs[i]);
         reported++;
      }
   /* What the first subpass left, swizzled (bgra) and brightened by 64 in colour: A's clear
    * colour (0, 0, 102, 255) at the bottom right, the red triangle's (255, 0, 0, 255) at the
    * top left. */
   auto texel = [&](unsigned x, unsigned y) {
      const uint8_t *p = &ours[(size_t(y) * size + x) * 4];
      return std::vector<unsigned>{p[0], p[1], p[2], p[3]};
   };
   EXPECT_EQ(texel(31, 31), (std::vector<unsigned>{166, 64, 64, 255}));
   EXPECT_EQ(texel(1, 1), (std::vector<unsigned>{64, 64, 255, 255}));
}

} // namespace
