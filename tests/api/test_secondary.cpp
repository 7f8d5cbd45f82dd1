/* Secondary command buffers through the driver on the simulated GPU (TERAKAN_SIM_CHIP picks
 * the chip), each scene recorded again on lavapipe with the same SPIR-V and commands, both
 * with the Khronos validation layer counting messages, and every picture compared pixel for
 * pixel:
 *
 * - draws inside a render pass from secondaries begun with RENDER_PASS_CONTINUE: inheriting
 *   the VkRenderPass with and without its framebuffer, two subpasses, state the secondary sets
 *   itself (pipelines, vertex buffers, dynamic viewport and scissor), the depth buffer one
 *   secondary wrote tested by the next, vkCmdClearAttachments and an occlusion query inside a
 *   secondary;
 * - one secondary executed three times in one primary and once in another primary;
 * - a secondary reset, begun again, reset with its pool, freed and allocated again;
 * - secondaries outside render passes (clears, copies between buffers and images, fills,
 *   updates, barriers) around one drawing inside a pass that loads their result;
 * - dynamic rendering: a secondary inheriting VkCommandBufferInheritanceRenderingInfo, and a
 *   secondary holding a whole vkCmdBeginRendering ... vkCmdEndRendering (when the device
 *   offers dynamic rendering);
 * - occlusion queries of the primary around secondaries (when the device offers
 *   inheritedQueries; against the counts known by construction, lavapipe has no such
 *   feature);
 * - without the layer, what happens to what the specification forbids: a secondary meant for
 *   a render pass executed outside one, and a secondary whose recording failed, each fail the
 *   primary's vkEndCommandBuffer with a message instead of crashing.
 *
 * Rectangles sit on whole pixels and colours are multiples of 1/255, so both rasterizers must
 * agree exactly. */
#include <gtest/gtest.h>

#include <malloc.h>

#include <array>
#include <cstring>
#include <algorithm>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "../vulkan_helpers.h"

namespace {

constexpr uint32_t size = 32;
constexpr VkDeviceSize picture_bytes = size * size * 4;
constexpr VkFormat colour_format = VK_FORMAT_R8G8B8A8_UNORM;
constexpr VkFormat depth_format = VK_FORMAT_D32_SFLOAT;

float clip(float pixels) { return pixels / (size / 2.0f) - 1.0f; }

/* A rectangle (x0, y0)-(x1, y1) in pixels at depth z in one colour (bytes), or with x1 < 0 the
 * right triangle (x0, y0), (-x1, y0), (x0, y1). */
struct Shape {
   float x0, y0, x1, y1, z;
   uint8_t r, g, b, a;
};

/* Pipeline choices of the scenes. */
struct PipelineInfo {
   VkRenderPass render_pass = VK_NULL_HANDLE; /* null: dynamic rendering of one RGBA8 target */
   uint32_t subpass = 0;
   bool depth = false;          /* test LESS with writes on */
   bool additive = false;       /* ONE + ONE blending */
   bool dynamic_viewport = false; /* viewport and scissor set by commands */
};

/* One device with what every scene uses: queue, a pool for primaries and one for secondaries
 * (both with individual resets), a vertex buffer, an upload buffer and a read-back buffer. */
class Device {
public:
   Device(const char *name, bool validation)
   {
      using namespace terakan::test;
      std::vector<const char *> layers, extensions;
      VkDebugUtilsMessengerCreateInfoEXT messenger_info = validation_messenger_info(terakan::test::count_validation_finding, &messages);
      const bool layer = validation && has_instance_layer("VK_LAYER_KHRONOS_validation");
      if (layer) {
         layers.push_back("VK_LAYER_KHRONOS_validation");
         extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
      }
      /* Vulkan 1.3 for the instance, so that a device of 1.3 can be driven through the core
       * dynamic rendering commands; a device of an earlier version is used at its own. With
       * a 1.0 device the loader answers vkGetPhysicalDeviceFormatProperties2 itself (without
       * the VkFormatProperties3 the layer reads) unless this extension is on. */
      extensions.push_back(VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME);
      if (create_instance("terakan-api-secondary", VK_API_VERSION_1_3, layers, extensions,
                          layer ? &messenger_info : nullptr, instance) != VK_SUCCESS)
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

      /* Dynamic rendering where the device has it: core in 1.3, else the extension with the
       * ones it needs that the device's version does not include. */
      VkPhysicalDeviceProperties properties;
      vkGetPhysicalDeviceProperties(physical, &properties);
      VkPhysicalDeviceDynamicRenderingFeatures dynamic_features{
         VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES};
      VkPhysicalDeviceFeatures2 supported{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &dynamic_features};
      std::vector<const char *> device_extensions;
      bool with_extension = false;
      if (properties.apiVersion < VK_API_VERSION_1_3 && has_device_extension(physical, "VK_KHR_dynamic_rendering")) {
         with_extension = true;
         device_extensions.push_back("VK_KHR_dynamic_rendering");
         if (properties.apiVersion < VK_API_VERSION_1_2)
            device_extensions.insert(device_extensions.end(), {"VK_KHR_depth_stencil_resolve", "VK_KHR_create_renderpass2"});
         if (properties.apiVersion < VK_API_VERSION_1_1)
            device_extensions.insert(device_extensions.end(), {"VK_KHR_multiview", "VK_KHR_maintenance2"});
         for (const char *e : device_extensions)
            with_extension = with_extension && has_device_extension(physical, e);
         if (!with_extension)
            device_extensions.clear();
      }
      if (properties.apiVersion >= VK_API_VERSION_1_3 || with_extension) {
         vkGetPhysicalDeviceFeatures2(physical, &supported);
         dynamic_rendering = dynamic_features.dynamicRendering;
      }
      VkPhysicalDeviceDynamicRenderingFeatures enable_dynamic{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES};
      enable_dynamic.dynamicRendering = VK_TRUE;
      if (!dynamic_rendering)
         device_extensions.clear();
      VkPhysicalDeviceFeatures offered{}, features{};
      vkGetPhysicalDeviceFeatures(physical, &offered);
      features.occlusionQueryPrecise = offered.occlusionQueryPrecise;
      features.inheritedQueries = offered.inheritedQueries;
      inherited_queries = offered.inheritedQueries;
      if (create_device(physical, *family, dynamic_rendering ? &enable_dynamic : nullptr, &features, device_extensions,
                        device) != VK_SUCCESS)
         return;
      if (dynamic_rendering) {
         const char *suffix = with_extension ? "KHR" : "";
         begin_rendering = reinterpret_cast<PFN_vkCmdBeginRendering>(
            vkGetDeviceProcAddr(device, (std::string("vkCmdBeginRendering") + suffix).c_str()));
         end_rendering = reinterpret_cast<PFN_vkCmdEndRendering>(
            vkGetDeviceProcAddr(device, (std::string("vkCmdEndRendering") + suffix).c_str()));
         dynamic_rendering = begin_rendering && end_rendering;
      }
      vkGetDeviceQueue(device, *family, 0, &queue);
      VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
      pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
      pool_info.queueFamilyIndex = *family;
      vkCreateCommandPool(device, &pool_info, nullptr, &primary_pool);
      vkCreateCommandPool(device, &pool_info, nullptr, &secondary_pool);
      ok = primary_pool && secondary_pool &&
           create_host_buffer(physical, device, 64 * 1024, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, vertices.buffer,
                              vertices.memory, vertices.map) &&
           create_host_buffer(physical, device, 4096, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, upload.buffer, upload.memory,
                              upload.map) &&
           create_host_buffer(physical, device, 16384,
                              VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT, readback.buffer,
                              readback.memory, readback.map);
   }

   ~Device()
   {
      if (device) {
         vkDeviceWaitIdle(device);
         for (VkPipeline p : pipelines)
            vkDestroyPipeline(device, p, nullptr);
         vkDestroyPipelineLayout(device, layout, nullptr);
         for (VkFramebuffer f : framebuffers)
            vkDestroyFramebuffer(device, f, nullptr);
         for (VkRenderPass r : render_passes)
            vkDestroyRenderPass(device, r, nullptr);
         for (terakan::test::Image2D &i : images)
            terakan::test::destroy_image_2d(device, i);
         for (Buffer *b : {&vertices, &upload, &readback}) {
            vkDestroyBuffer(device, b->buffer, nullptr);
            vkFreeMemory(device, b->memory, nullptr);
         }
         vkDestroyCommandPool(device, primary_pool, nullptr);
         vkDestroyCommandPool(device, secondary_pool, nullptr);
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

   /* Writes the shapes' vertices (a position and a colour each, 32 bytes) from the start of the
    * vertex buffer; returns each shape's first vertex and, last, the end. */
   std::vector<uint32_t> shapes(const std::vector<Shape> &list)
   {
      std::vector<float> data;
      std::vector<uint32_t> firsts;
      for (const Shape &s : list) {
         firsts.push_back(uint32_t(data.size() / 8));
         auto vertex = [&](float x, float y) {
            data.insert(data.end(), {clip(x), clip(y), s.z, 1, s.r / 255.0f, s.g / 255.0f, s.b / 255.0f, s.a / 255.0f});
         };
         if (s.x1 < 0) {
            vertex(s.x0, s.y0), vertex(-s.x1, s.y0), vertex(s.x0, s.y1);
            continue;
         }
         vertex(s.x0, s.y0), vertex(s.x1, s.y0), vertex(s.x0, s.y1);
         vertex(s.x1, s.y0), vertex(s.x1, s.y1), vertex(s.x0, s.y1);
      }
      std::memcpy(vertices.map, data.data(), data.size() * 4);
      firsts.push_back(uint32_t(data.size() / 8));
      return firsts;
   }

   terakan::test::Image2D &image(VkFormat format, VkImageUsageFlags usage, VkImageAspectFlags aspect)
   {
      images.emplace_back();
      if (!terakan::test::create_image_2d(physical, device, format, usage, aspect, size, size, VK_SAMPLE_COUNT_1_BIT,
                                          images.back()))
         failed = true;
      return images.back();
   }
   terakan::test::Image2D &colour_target()
   {
      return image(colour_format,
                   VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                   VK_IMAGE_ASPECT_COLOR_BIT);
   }
   terakan::test::Image2D &depth_target()
   {
      return image(depth_format, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, VK_IMAGE_ASPECT_DEPTH_BIT);
   }

   /* A render pass over `colours` RGBA8 attachments (then a D32 one when `depth`): subpass i
    * draws into colour attachment i, the first subpass also into the depth attachment. Colour
    * attachments are cleared (or loaded from COLOR_ATTACHMENT_OPTIMAL) and end in
    * TRANSFER_SRC_OPTIMAL, ready to be copied. */
   VkRenderPass render_pass(uint32_t colours, bool depth, bool load = false)
   {
      std::vector<VkAttachmentDescription> attachments(colours + (depth ? 1 : 0));
      for (uint32_t i = 0; i < attachments.size(); i++) {
         VkAttachmentDescription &a = attachments[i];
         a.format = i < colours ? colour_format : depth_format;
         a.samples = VK_SAMPLE_COUNT_1_BIT;
         a.loadOp = load && i < colours ? VK_ATTACHMENT_LOAD_OP_LOAD : VK_ATTACHMENT_LOAD_OP_CLEAR;
         a.storeOp = i < colours ? VK_ATTACHMENT_STORE_OP_STORE : VK_ATTACHMENT_STORE_OP_DONT_CARE;
         a.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
         a.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
         a.initialLayout = load && i < colours ? VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL : VK_IMAGE_LAYOUT_UNDEFINED;
         a.finalLayout = i < colours ? VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL : VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
      }
      std::vector<VkAttachmentReference> colour_refs(colours);
      std::vector<VkSubpassDescription> subpasses(colours);
      std::vector<VkSubpassDependency> dependencies;
      const VkAttachmentReference depth_ref{colours, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
      for (uint32_t i = 0; i < colours; i++) {
         colour_refs[i] = {i, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
         subpasses[i].pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
         subpasses[i].colorAttachmentCount = 1;
         subpasses[i].pColorAttachments = &colour_refs[i];
         subpasses[i].pDepthStencilAttachment = depth && i == 0 ? &depth_ref : nullptr;
         /* What the subpass wrote is copied after the pass. */
         dependencies.push_back({i, VK_SUBPASS_EXTERNAL, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                                 VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                                 VK_ACCESS_TRANSFER_READ_BIT, 0});
      }
      if (load)
         dependencies.push_back({VK_SUBPASS_EXTERNAL, 0, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                 VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                                 VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, 0});
      VkRenderPassCreateInfo info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
      info.attachmentCount = uint32_t(attachments.size());
      info.pAttachments = attachments.data();
      info.subpassCount = colours;
      info.pSubpasses = subpasses.data();
      info.dependencyCount = uint32_t(dependencies.size());
      info.pDependencies = dependencies.data();
      VkRenderPass pass = VK_NULL_HANDLE;
      if (vkCreateRenderPass(device, &info, nullptr, &pass) != VK_SUCCESS)
         failed = true;
      render_passes.push_back(pass);
      return pass;
   }

   VkFramebuffer framebuffer(VkRenderPass pass, const std::vector<VkImageView> &views)
   {
      VkFramebufferCreateInfo info{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
      info.renderPass = pass;
      info.attachmentCount = uint32_t(views.size());
      info.pAttachments = views.data();
      info.width = size;
      info.height = size;
      info.layers = 1;
      VkFramebuffer fb = VK_NULL_HANDLE;
      if (vkCreateFramebuffer(device, &info, nullptr, &fb) != VK_SUCCESS)
         failed = true;
      framebuffers.push_back(fb);
      return fb;
   }

   /* coloured.vert/.frag: position at 0 and colour at 16 of each 32-byte vertex, two
    * bindings over one buffer. */
   VkPipeline pipeline(const PipelineInfo &p)
   {
      VkShaderModule modules[2] = {};
      const std::vector<uint32_t> code[2] = {terakan::test::read_api_spirv("coloured.vert"), terakan::test::read_api_spirv("coloured.frag")};
      for (int i = 0; i < 2; i++) {
         VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
         info.codeSize = code[i].size() * 4;
         info.pCode = code[i].data();
         if (code[i].empty() || vkCreateShaderModule(device, &info, nullptr, &modules[i]) != VK_SUCCESS) {
            failed = true;
            return VK_NULL_HANDLE;
         }
      }
      if (!layout) {
         VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
         vkCreatePipelineLayout(device, &layout_info, nullptr, &layout);
      }
      VkPipelineShaderStageCreateInfo stages[2] = {};
      for (int i = 0; i < 2; i++) {
         stages[i].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
         stages[i].stage = i ? VK_SHADER_STAGE_FRAGMENT_BIT : VK_SHADER_STAGE_VERTEX_BIT;
         stages[i].module = modules[i];
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
      const VkDynamicState dynamic_states[2] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
      VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
      dynamic.dynamicStateCount = 2;
      dynamic.pDynamicStates = dynamic_states;
      VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
      raster.polygonMode = VK_POLYGON_MODE_FILL;
      raster.cullMode = VK_CULL_MODE_NONE;
      raster.lineWidth = 1;
      VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
      multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
      VkPipelineDepthStencilStateCreateInfo depth_state{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
      depth_state.depthTestEnable = p.depth;
      depth_state.depthWriteEnable = p.depth;
      depth_state.depthCompareOp = VK_COMPARE_OP_LESS;
      VkPipelineColorBlendAttachmentState blend{};
      blend.colorWriteMask = 0xf;
      if (p.additive) {
         blend.blendEnable = VK_TRUE;
         blend.srcColorBlendFactor = blend.dstColorBlendFactor = VK_BLEND_FACTOR_ONE;
         blend.srcAlphaBlendFactor = blend.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
         blend.colorBlendOp = blend.alphaBlendOp = VK_BLEND_OP_ADD;
      }
      VkPipelineColorBlendStateCreateInfo blending{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
      blending.attachmentCount = 1;
      blending.pAttachments = &blend;
      VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
      rendering.colorAttachmentCount = 1;
      rendering.pColorAttachmentFormats = &colour_format;
      rendering.depthAttachmentFormat = p.depth ? depth_format : VK_FORMAT_UNDEFINED;
      VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
      info.pNext = p.render_pass ? nullptr : &rendering;
      info.stageCount = 2;
      info.pStages = stages;
      info.pVertexInputState = &input;
      info.pInputAssemblyState = &assembly;
      info.pViewportState = &viewports;
      info.pRasterizationState = &raster;
      info.pMultisampleState = &multisample;
      info.pDepthStencilState = &depth_state;
      info.pColorBlendState = &blending;
      info.pDynamicState = p.dynamic_viewport ? &dynamic : nullptr;
      info.layout = layout;
      info.renderPass = p.render_pass;
      info.subpass = p.subpass;
      VkPipeline pipeline = VK_NULL_HANDLE;
      if (vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline) != VK_SUCCESS)
         failed = true;
      for (VkShaderModule m : modules)
         vkDestroyShaderModule(device, m, nullptr);
      pipelines.push_back(pipeline);
      return pipeline;
   }

   VkCommandBuffer allocate(VkCommandPool pool, VkCommandBufferLevel level)
   {
      VkCommandBufferAllocateInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
      info.commandPool = pool;
      info.level = level;
      info.commandBufferCount = 1;
      VkCommandBuffer commands = VK_NULL_HANDLE;
      if (vkAllocateCommandBuffers(device, &info, &commands) != VK_SUCCESS)
         failed = true;
      return commands;
   }

   VkCommandBuffer primary()
   {
      VkCommandBuffer commands = allocate(primary_pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY);
      VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
      begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
      vkBeginCommandBuffer(commands, &begin);
      return commands;
   }

   /* Begins `commands` (a secondary) for use inside `pass`'s `subpass` (with `fb` if not null),
    * or outside render passes when `pass` is null and `rendering` is null; `rendering` is the
    * dynamic rendering inheritance. */
   void begin_secondary(VkCommandBuffer commands, VkRenderPass pass, uint32_t subpass, VkFramebuffer fb,
                        VkCommandBufferUsageFlags flags = 0,
                        const VkCommandBufferInheritanceRenderingInfo *rendering = nullptr)
   {
      VkCommandBufferInheritanceInfo inheritance{VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
      inheritance.pNext = rendering;
      inheritance.renderPass = pass;
      inheritance.subpass = subpass;
      inheritance.framebuffer = fb;
      inheritance.occlusionQueryEnable = inherit_occlusion_query;
      inheritance.queryFlags = inherit_occlusion_query ? VK_QUERY_CONTROL_PRECISE_BIT : 0;
      VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
      begin.flags = flags | (pass || rendering ? VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT : 0);
      begin.pInheritanceInfo = &inheritance;
      if (vkBeginCommandBuffer(commands, &begin) != VK_SUCCESS)
         failed = true;
   }

   VkCommandBuffer secondary(VkRenderPass pass, uint32_t subpass, VkFramebuffer fb, VkCommandBufferUsageFlags flags = 0,
                             const VkCommandBufferInheritanceRenderingInfo *rendering = nullptr)
   {
      VkCommandBuffer commands = allocate(secondary_pool, VK_COMMAND_BUFFER_LEVEL_SECONDARY);
      begin_secondary(commands, pass, subpass, fb, flags, rendering);
      return commands;
   }

   void bind(VkCommandBuffer commands, VkPipeline pipeline)
   {
      vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
      const VkDeviceSize offsets[2] = {0, 0};
      const VkBuffer buffers[2] = {vertices.buffer, vertices.buffer};
      vkCmdBindVertexBuffers(commands, 0, 2, buffers, offsets);
   }

   static void draw(VkCommandBuffer commands, const std::vector<uint32_t> &first, uint32_t shape)
   {
      vkCmdDraw(commands, first[shape + 1] - first[shape], 1, first[shape], 0);
   }

   void begin_pass(VkCommandBuffer commands, VkRenderPass pass, VkFramebuffer fb, const std::vector<VkClearValue> &clears)
   {
      VkRenderPassBeginInfo info{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
      info.renderPass = pass;
      info.framebuffer = fb;
      info.renderArea = {{0, 0}, {size, size}};
      info.clearValueCount = uint32_t(clears.size());
      info.pClearValues = clears.data();
      vkCmdBeginRenderPass(commands, &info, VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS);
   }

   /* Copies a colour image in TRANSFER_SRC_OPTIMAL to the read-back buffer at `offset`. */
   void copy_out(VkCommandBuffer commands, VkImage image, VkDeviceSize offset)
   {
      VkBufferImageCopy region{};
      region.bufferOffset = offset;
      region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
      region.imageExtent = {size, size, 1};
      vkCmdCopyImageToBuffer(commands, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.buffer, 1, &region);
   }

   static void host_barrier(VkCommandBuffer commands)
   {
      VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
      barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
      barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
      vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0,
                           nullptr, 0, nullptr);
   }

   static void image_barrier(VkCommandBuffer commands, VkImage image, VkImageAspectFlags aspect, VkImageLayout from,
                             VkImageLayout to, VkPipelineStageFlags src_stage, VkAccessFlags src_access,
                             VkPipelineStageFlags dst_stage, VkAccessFlags dst_access)
   {
      VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
      barrier.srcAccessMask = src_access;
      barrier.dstAccessMask = dst_access;
      barrier.oldLayout = from;
      barrier.newLayout = to;
      barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
      barrier.image = image;
      barrier.subresourceRange = {aspect, 0, 1, 0, 1};
      vkCmdPipelineBarrier(commands, src_stage, dst_stage, 0, 0, nullptr, 0, nullptr, 1, &barrier);
   }

   /* Ends and submits the primaries in one submission, waits, frees them. */
   VkResult submit(std::vector<VkCommandBuffer> commands)
   {
      for (VkCommandBuffer c : commands) {
         const VkResult ended = vkEndCommandBuffer(c);
         if (ended != VK_SUCCESS) {
            vkFreeCommandBuffers(device, primary_pool, uint32_t(commands.size()), commands.data());
            return ended;
         }
      }
      VkSubmitInfo info{VK_STRUCTURE_TYPE_SUBMIT_INFO};
      info.commandBufferCount = uint32_t(commands.size());
      info.pCommandBuffers = commands.data();
      VkResult result = vkQueueSubmit(queue, 1, &info, VK_NULL_HANDLE);
      if (result == VK_SUCCESS)
         result = vkQueueWaitIdle(queue);
      vkFreeCommandBuffers(device, primary_pool, uint32_t(commands.size()), commands.data());
      return result;
   }

   std::vector<uint8_t> read(VkDeviceSize offset, VkDeviceSize bytes) const
   {
      const uint8_t *base = static_cast<const uint8_t *>(readback.map) + offset;
      return std::vector<uint8_t>(base, base + bytes);
   }

   bool ok = false;
   bool failed = false;
   bool dynamic_rendering = false;
   bool inherited_queries = false;
   /* Secondaries begun from now on may run inside an occlusion query of the primary's
    * (precise; needs inheritedQueries). */
   bool inherit_occlusion_query = false;
   unsigned messages = 0;
   PFN_vkCmdBeginRendering begin_rendering = nullptr;
   PFN_vkCmdEndRendering end_rendering = nullptr;
   VkInstance instance = VK_NULL_HANDLE;
   VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
   VkPhysicalDevice physical = VK_NULL_HANDLE;
   VkDevice device = VK_NULL_HANDLE;
   VkQueue queue = VK_NULL_HANDLE;
   VkCommandPool primary_pool = VK_NULL_HANDLE, secondary_pool = VK_NULL_HANDLE;
   struct Buffer {
      VkBuffer buffer = VK_NULL_HANDLE;
      VkDeviceMemory memory = VK_NULL_HANDLE;
      void *map = nullptr;
   } vertices, upload, readback;

private:
   std::deque<terakan::test::Image2D> images; /* references stay valid as it grows */
   std::vector<VkRenderPass> render_passes;
   std::vector<VkFramebuffer> framebuffers;
   std::vector<VkPipeline> pipelines;
   VkPipelineLayout layout = VK_NULL_HANDLE;
};

/* A scene: what it recorded and read back on one device (pictures and values), or an error. */
struct Outcome {
   std::vector<std::vector<uint8_t>> pictures;
   std::vector<uint64_t> values;
   std::string error;
};
using SceneFunction = std::function<void(Device &, Outcome &)>;

/* Pixel (x, y) of an RGBA8 picture. */
std::array<uint8_t, 4> pixel(const std::vector<uint8_t> &picture, uint32_t x, uint32_t y)
{
   const uint8_t *p = picture.data() + (y * size + x) * 4;
   return {p[0], p[1], p[2], p[3]};
}
using Rgba = std::array<uint8_t, 4>;

std::string describe(const Rgba &c)
{
   return "(" + std::to_string(c[0]) + ", " + std::to_string(c[1]) + ", " + std::to_string(c[2]) + ", " +
          std::to_string(c[3]) + ")";
}

/* Runs the scene on Terakan and lavapipe (each device made once per scene, with the
 * validation layer), then compares every picture byte for byte and every value. */
void expect_same_as_lavapipe(const SceneFunction &scene, Outcome &ours)
{
   Outcome theirs;
   {
      Device terakan("Terakan", true);
      ASSERT_TRUE(terakan.ok) << "no Terakan device with the scene's objects";
      scene(terakan, ours);
      ASSERT_TRUE(ours.error.empty()) << "Terakan: " << ours.error;
      EXPECT_FALSE(terakan.failed) << "an object could not be made on Terakan";
      EXPECT_EQ(terakan.messages, 0u) << "validation messages on Terakan";
   }
   {
      Device lavapipe("llvmpipe", true);
      if (!lavapipe.ok)
         GTEST_SKIP() << "lavapipe is not installed";
      scene(lavapipe, theirs);
      ASSERT_TRUE(theirs.error.empty()) << "lavapipe: " << theirs.error;
      EXPECT_FALSE(lavapipe.failed);
      EXPECT_EQ(lavapipe.messages, 0u) << "validation messages on lavapipe";
   }
   ASSERT_EQ(ours.pictures.size(), theirs.pictures.size());
   for (size_t p = 0; p < ours.pictures.size(); p++) {
      ASSERT_EQ(ours.pictures[p].size(), theirs.pictures[p].size());
      size_t differing = 0, first = 0;
      for (size_t i = 0; i < ours.pictures[p].size(); i++)
         if (ours.pictures[p][i] != theirs.pictures[p][i] && differing++ == 0)
            first = i;
      EXPECT_EQ(differing, 0u) << "picture " << p << ": " << differing << " bytes differ from lavapipe's, the first at byte "
                               << first << " (pixel " << (first / 4) % size << ", " << (first / 4) / size << "): "
                               << int(ours.pictures[p][first]) << " against " << int(theirs.pictures[p][first]);
   }
   EXPECT_EQ(ours.values, theirs.values);
}

/* Draws inside a two-subpass render pass, all from secondaries. Subpass 0 (colour 0 and
 * depth): secondary A inherits the render pass and its framebuffer, draws a red square at
 * depth 0.5 inside an occlusion query and a green one in front; secondary B inherits the
 * render pass without a framebuffer, sets viewport and scissor by commands (the scissor keeps
 * rows 8-23), draws a blue square over everything at depth 0.375 (in front of red, behind
 * green: it is tested against A's depth) and clears a yellow rectangle with
 * vkCmdClearAttachments. Subpass 1 (colour 1): secondary C draws an orange triangle. */
void render_pass_scene(Device &d, Outcome &out)
{
   const std::vector<uint32_t> first = d.shapes({
      {2, 2, 20, 20, 0.5f, 255, 0, 0, 255},        /* 0: red */
      {10, 10, 28, 28, 0.25f, 0, 255, 0, 255},     /* 1: green, in front */
      {0, 0, 32, 32, 0.375f, 0, 0, 255, 255},      /* 2: blue, between */
      {4, 4, -28, 28, 0.5f, 255, 128, 0, 255},     /* 3: orange triangle (subpass 1) */
   });
   VkRenderPass pass = d.render_pass(2, true);
   terakan::test::Image2D &colour0 = d.colour_target(), &colour1 = d.colour_target();
   terakan::test::Image2D &depth = d.depth_target();
   VkFramebuffer fb = d.framebuffer(pass, {colour0.view, colour1.view, depth.view});
   VkPipeline depth_tested = d.pipeline({pass, 0, true, false, false});
   VkPipeline dynamic_viewport = d.pipeline({pass, 0, true, false, true});
   VkPipeline second = d.pipeline({pass, 1, false, false, false});
   VkQueryPool queries = VK_NULL_HANDLE;
   VkQueryPoolCreateInfo query_info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
   query_info.queryType = VK_QUERY_TYPE_OCCLUSION;
   query_info.queryCount = 1;
   vkCreateQueryPool(d.device, &query_info, nullptr, &queries);
   if (d.failed || !queries) {
      out.error = "the scene's objects could not be made";
      return;
   }

   VkCommandBuffer a = d.secondary(pass, 0, fb);
   d.bind(a, depth_tested);
   vkCmdBeginQuery(a, queries, 0, VK_QUERY_CONTROL_PRECISE_BIT);
   Device::draw(a, first, 0);
   vkCmdEndQuery(a, queries, 0);
   Device::draw(a, first, 1);
   VkCommandBuffer b = d.secondary(pass, 0, VK_NULL_HANDLE);
   d.bind(b, dynamic_viewport);
   const VkViewport viewport{0, 0, float(size), float(size), 0, 1};
   const VkRect2D scissor{{0, 8}, {size, 16}};
   vkCmdSetViewport(b, 0, 1, &viewport);
   vkCmdSetScissor(b, 0, 1, &scissor);
   Device::draw(b, first, 2);
   VkClearAttachment clear{VK_IMAGE_ASPECT_COLOR_BIT, 0, {}};
   clear.clearValue.color = {{1, 1, 0, 1}};
   const VkClearRect rect{{{24, 0}, {8, 6}}, 0, 1};
   vkCmdClearAttachments(b, 1, &clear, 1, &rect);
   VkCommandBuffer c = d.secondary(pass, 1, fb);
   d.bind(c, second);
   Device::draw(c, first, 3);
   for (VkCommandBuffer s : {a, b, c})
      if (vkEndCommandBuffer(s) != VK_SUCCESS)
         out.error = "vkEndCommandBuffer of a secondary failed";

   VkCommandBuffer commands = d.primary();
   vkCmdResetQueryPool(commands, queries, 0, 1);
   std::vector<VkClearValue> clears(3);
   clears[0].color = {{0, 0, 32 / 255.0f, 1}};
   clears[1].color = {{0, 0, 0, 1}};
   clears[2].depthStencil = {1, 0};
   d.begin_pass(commands, pass, fb, clears);
   const VkCommandBuffer subpass0[2] = {a, b};
   vkCmdExecuteCommands(commands, 2, subpass0);
   vkCmdNextSubpass(commands, VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS);
   vkCmdExecuteCommands(commands, 1, &c);
   vkCmdEndRenderPass(commands);
   d.copy_out(commands, colour0.image, 0);
   d.copy_out(commands, colour1.image, picture_bytes);
   Device::host_barrier(commands);
   const VkResult result = d.submit({commands});
   if (result != VK_SUCCESS) {
      out.error = "submission failed: " + std::to_string(result);
   } else {
      out.pictures = {d.read(0, picture_bytes), d.read(picture_bytes, picture_bytes)};
      uint64_t samples = 0;
      if (vkGetQueryPoolResults(d.device, queries, 0, 1, 8, &samples, 8,
                                VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) != VK_SUCCESS)
         out.error = "vkGetQueryPoolResults failed";
      out.values = {samples};
   }
   vkDestroyQueryPool(d.device, queries, nullptr);
}

TEST(SecondaryCommandBuffers, DrawInsideARenderPassInheritingItsSubpasses)
{
   Outcome ours;
   expect_same_as_lavapipe(render_pass_scene, ours);
   if (HasFatalFailure() || IsSkipped())
      return;
   const auto &p0 = ours.pictures[0], &p1 = ours.pictures[1];
   const Rgba red{255, 0, 0, 255}, green{0, 255, 0, 255}, blue{0, 0, 255, 255}, yellow{255, 255, 0, 255},
      clear0{0, 0, 32, 255}, orange{255, 128, 0, 255}, black{0, 0, 0, 255};
   struct Expected {
      uint32_t x, y;
      Rgba colour;
      const char *why;
   } expected[] = {
      {3, 3, red, "A's red square outside the scissor B draws in"},
      {5, 12, blue, "B's blue square in front of A's red (depth from A tested in B)"},
      {20, 20, green, "A's green square in front of B's blue"},
      {30, 12, blue, "B's blue square over the cleared attachment"},
      {30, 30, clear0, "the render pass's clear"},
      {28, 2, yellow, "B's vkCmdClearAttachments"},
   };
   for (const Expected &e : expected)
      EXPECT_EQ(describe(pixel(p0, e.x, e.y)), describe(e.colour)) << e.why << " at " << e.x << ", " << e.y;
   EXPECT_EQ(describe(pixel(p1, 6, 6)), describe(orange)) << "C drew into subpass 1's attachment";
   EXPECT_EQ(describe(pixel(p1, 30, 30)), describe(black));
   ASSERT_EQ(ours.values.size(), 1u);
   EXPECT_EQ(ours.values[0], 18u * 18u) << "the occlusion query begun and ended in secondary A";
}

/* One secondary (SIMULTANEOUS_USE, no framebuffer) adding a colour with ONE + ONE blending:
 * executed three times into one framebuffer (twice in one vkCmdExecuteCommands) and once by a
 * second primary into another framebuffer, both primaries in one submission; submitted again
 * afterwards, it adds once more. */
void executed_several_times_scene(Device &d, Outcome &out)
{
   const std::vector<uint32_t> first = d.shapes({
      {4, 4, 20, 20, 0, 60, 30, 0, 0},
      {12, 2, 30, 10, 0, 0, 20, 50, 0},
   });
   VkRenderPass pass = d.render_pass(1, false);
   terakan::test::Image2D &one = d.colour_target(), &two = d.colour_target();
   VkFramebuffer fb_one = d.framebuffer(pass, {one.view}), fb_two = d.framebuffer(pass, {two.view});
   VkPipeline additive = d.pipeline({pass, 0, false, true, false});
   if (d.failed) {
      out.error = "the scene's objects could not be made";
      return;
   }
   VkCommandBuffer s = d.secondary(pass, 0, VK_NULL_HANDLE, VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT);
   d.bind(s, additive);
   Device::draw(s, first, 0);
   Device::draw(s, first, 1);
   vkEndCommandBuffer(s);

   std::vector<VkClearValue> clears(1);
   clears[0].color = {{0, 0, 0, 1}};
   VkCommandBuffer p1 = d.primary();
   d.begin_pass(p1, pass, fb_one, clears);
   const VkCommandBuffer twice[2] = {s, s};
   vkCmdExecuteCommands(p1, 2, twice);
   vkCmdExecuteCommands(p1, 1, &s);
   vkCmdEndRenderPass(p1);
   d.copy_out(p1, one.image, 0);
   Device::host_barrier(p1);
   VkCommandBuffer p2 = d.primary();
   d.begin_pass(p2, pass, fb_two, clears);
   vkCmdExecuteCommands(p2, 1, &s);
   vkCmdEndRenderPass(p2);
   d.copy_out(p2, two.image, picture_bytes);
   Device::host_barrier(p2);
   VkResult result = d.submit({p1, p2});
   if (result != VK_SUCCESS) {
      out.error = "submission failed: " + std::to_string(result);
      return;
   }
   out.pictures = {d.read(0, picture_bytes), d.read(picture_bytes, picture_bytes)};

   /* The secondary is still executable after both primaries ran. */
   VkCommandBuffer p3 = d.primary();
   d.begin_pass(p3, pass, fb_one, clears);
   vkCmdExecuteCommands(p3, 1, &s);
   vkCmdExecuteCommands(p3, 1, &s);
   vkCmdEndRenderPass(p3);
   d.copy_out(p3, one.image, 0);
   Device::host_barrier(p3);
   result = d.submit({p3});
   if (result != VK_SUCCESS) {
      out.error = "the second submission failed: " + std::to_string(result);
      return;
   }
   out.pictures.push_back(d.read(0, picture_bytes));
}

TEST(SecondaryCommandBuffers, OneSecondaryExecutedSeveralTimesAndByTwoPrimaries)
{
   Outcome ours;
   expect_same_as_lavapipe(executed_several_times_scene, ours);
   if (HasFatalFailure() || IsSkipped())
      return;
   EXPECT_EQ(describe(pixel(ours.pictures[0], 5, 5)), describe({180, 90, 0, 255})) << "three executions add up";
   EXPECT_EQ(describe(pixel(ours.pictures[0], 14, 8)), describe({180, 150, 150, 255})) << "both squares, three times";
   EXPECT_EQ(describe(pixel(ours.pictures[1], 5, 5)), describe({60, 30, 0, 255})) << "the second primary's one execution";
   EXPECT_EQ(describe(pixel(ours.pictures[2], 5, 5)), describe({120, 60, 0, 255})) << "executed twice again later";
   EXPECT_EQ(describe(pixel(ours.pictures[0], 30, 30)), describe({0, 0, 0, 255}));
}

/* A secondary's life: recorded and executed; reset and recorded again (only the new square
 * shows); begun again without a reset; its pool reset and recorded again; freed, and a new
 * secondary allocated (the pool may hand back the same object) and executed. Each step is its
 * own primary and picture. */
void lifecycle_scene(Device &d, Outcome &out)
{
   const std::vector<uint32_t> first = d.shapes({
      {0, 0, 8, 8, 0, 255, 0, 0, 255},
      {8, 8, 16, 16, 0, 0, 255, 0, 255},
      {16, 16, 24, 24, 0, 0, 0, 255, 255},
      {24, 24, 32, 32, 0, 255, 255, 255, 255},
      {0, 24, 8, 32, 0, 255, 0, 255, 255},
   });
   VkRenderPass pass = d.render_pass(1, false);
   terakan::test::Image2D &target = d.colour_target();
   VkFramebuffer fb = d.framebuffer(pass, {target.view});
   VkPipeline plain = d.pipeline({pass, 0, false, false, false});
   if (d.failed) {
      out.error = "the scene's objects could not be made";
      return;
   }
   std::vector<VkClearValue> clears(1);
   clears[0].color = {{0, 0, 0, 1}};
   auto run = [&](VkCommandBuffer s) {
      VkCommandBuffer commands = d.primary();
      d.begin_pass(commands, pass, fb, clears);
      vkCmdExecuteCommands(commands, 1, &s);
      vkCmdEndRenderPass(commands);
      d.copy_out(commands, target.image, 0);
      Device::host_barrier(commands);
      const VkResult result = d.submit({commands});
      if (result != VK_SUCCESS)
         out.error = "submission failed: " + std::to_string(result);
      else
         out.pictures.push_back(d.read(0, picture_bytes));
   };
   auto record = [&](VkCommandBuffer s, uint32_t shape) {
      d.bind(s, plain);
      Device::draw(s, first, shape);
      if (vkEndCommandBuffer(s) != VK_SUCCESS)
         out.error = "vkEndCommandBuffer of the secondary failed";
   };

   VkCommandBuffer s = d.secondary(pass, 0, fb);
   record(s, 0);
   run(s);
   if (vkResetCommandBuffer(s, 0) != VK_SUCCESS)
      out.error = "vkResetCommandBuffer failed";
   d.begin_secondary(s, pass, 0, fb);
   record(s, 1);
   run(s);
   d.begin_secondary(s, pass, 0, VK_NULL_HANDLE); /* an implicit reset */
   record(s, 2);
   run(s);
   if (vkResetCommandPool(d.device, d.secondary_pool, VK_COMMAND_POOL_RESET_RELEASE_RESOURCES_BIT) != VK_SUCCESS)
      out.error = "vkResetCommandPool failed";
   d.begin_secondary(s, pass, 0, fb);
   record(s, 3);
   run(s);
   vkFreeCommandBuffers(d.device, d.secondary_pool, 1, &s);
   VkCommandBuffer again = d.secondary(pass, 0, fb);
   record(again, 4);
   run(again);
   vkFreeCommandBuffers(d.device, d.secondary_pool, 1, &again);
}

TEST(SecondaryCommandBuffers, ResetBegunAgainPoolResetFreedAndAllocatedAgain)
{
   Outcome ours;
   expect_same_as_lavapipe(lifecycle_scene, ours);
   if (HasFatalFailure() || IsSkipped())
      return;
   ASSERT_EQ(ours.pictures.size(), 5u);
   const uint32_t corners[5][2] = {{4, 4}, {12, 12}, {20, 20}, {28, 28}, {4, 28}};
   for (uint32_t step = 0; step < 5; step++)
      for (uint32_t shape = 0; shape < 5; shape++) {
         const Rgba c = pixel(ours.pictures[step], corners[shape][0], corners[shape][1]);
         if (shape == step)
            EXPECT_NE(describe(c), describe({0, 0, 0, 255})) << "step " << step << " draws its square";
         else
            EXPECT_EQ(describe(c), describe({0, 0, 0, 255}))
               << "step " << step << ": square " << shape << " of an earlier recording shows";
      }
}

/* Secondaries outside render passes around one inside: U (no inheritance) clears the image
 * with vkCmdClearColorImage and copies an 8x8 patch from a buffer into it, then moves it to
 * COLOR_ATTACHMENT_OPTIMAL; the primary's render pass loads it and secondary D draws a red
 * bar; after the pass R copies the image to the read-back buffer, fills and updates parts of
 * it and copies a range of it within the buffer. */
void outside_render_passes_scene(Device &d, Outcome &out)
{
   const std::vector<uint32_t> first = d.shapes({{8, 10, 24, 16, 0, 255, 0, 0, 255}});
   VkRenderPass pass = d.render_pass(1, false, true);
   terakan::test::Image2D &target = d.colour_target();
   VkFramebuffer fb = d.framebuffer(pass, {target.view});
   VkPipeline plain = d.pipeline({pass, 0, false, false, false});
   if (d.failed) {
      out.error = "the scene's objects could not be made";
      return;
   }
   auto *texels = static_cast<uint8_t *>(d.upload.map);
   for (uint32_t i = 0; i < 8 * 8 * 4; i++)
      texels[i] = uint8_t(i * 7 + 3);
   std::memset(d.readback.map, 0, 16384);

   VkCommandBuffer u = d.secondary(VK_NULL_HANDLE, 0, VK_NULL_HANDLE);
   Device::image_barrier(u, target.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                         VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0,
                         VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
   const VkClearColorValue teal{{16 / 255.0f, 160 / 255.0f, 48 / 255.0f, 1}};
   const VkImageSubresourceRange whole{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
   vkCmdClearColorImage(u, target.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &teal, 1, &whole);
   Device::image_barrier(u, target.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                         VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
   VkBufferImageCopy patch{};
   patch.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
   patch.imageOffset = {4, 4, 0};
   patch.imageExtent = {8, 8, 1};
   vkCmdCopyBufferToImage(u, d.upload.buffer, target.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &patch);
   Device::image_barrier(u, target.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                         VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                         VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT);
   VkCommandBuffer draw = d.secondary(pass, 0, fb);
   d.bind(draw, plain);
   Device::draw(draw, first, 0);
   VkCommandBuffer r = d.secondary(VK_NULL_HANDLE, 0, VK_NULL_HANDLE);
   d.copy_out(r, target.image, 0);
   vkCmdFillBuffer(r, d.readback.buffer, 8192, 256, 0x12345678u);
   const uint32_t words[4] = {0xdeadbeefu, 1, 2, 3};
   vkCmdUpdateBuffer(r, d.readback.buffer, 8448, sizeof(words), words);
   VkMemoryBarrier transfer{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
   transfer.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
   transfer.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
   vkCmdPipelineBarrier(r, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &transfer, 0, nullptr,
                        0, nullptr);
   const VkBufferCopy within{4 * (12 * size), 12288, 64 * 4}; /* rows 12 and 13 of the picture */
   vkCmdCopyBuffer(r, d.readback.buffer, d.readback.buffer, 1, &within);
   Device::host_barrier(r);
   for (VkCommandBuffer s : {u, draw, r})
      if (vkEndCommandBuffer(s) != VK_SUCCESS)
         out.error = "vkEndCommandBuffer of a secondary failed";

   VkCommandBuffer commands = d.primary();
   vkCmdExecuteCommands(commands, 1, &u);
   d.begin_pass(commands, pass, fb, {});
   vkCmdExecuteCommands(commands, 1, &draw);
   vkCmdEndRenderPass(commands);
   vkCmdExecuteCommands(commands, 1, &r);
   const VkResult result = d.submit({commands});
   if (result != VK_SUCCESS) {
      out.error = "submission failed: " + std::to_string(result);
      return;
   }
   out.pictures = {d.read(0, picture_bytes), d.read(8192, 16384 - 8192)};
}

TEST(SecondaryCommandBuffers, TransfersOutsideRenderPassesAroundADrawInside)
{
   Outcome ours;
   expect_same_as_lavapipe(outside_render_passes_scene, ours);
   if (HasFatalFailure() || IsSkipped())
      return;
   const auto &p = ours.pictures[0];
   EXPECT_EQ(describe(pixel(p, 30, 30)), describe({16, 160, 48, 255})) << "U's vkCmdClearColorImage";
   const uint8_t *texel = p.data() + (5 * size + 5) * 4;
   EXPECT_EQ(texel[0], uint8_t((1 * 8 + 1) * 4 * 7 + 3)) << "U's copy from the buffer, texel (1, 1) of the patch";
   EXPECT_EQ(describe(pixel(p, 20, 12)), describe({255, 0, 0, 255})) << "D's draw over the loaded image";
   const auto &rest = ours.pictures[1];
   uint32_t fill, update, copied;
   std::memcpy(&fill, rest.data(), 4);
   std::memcpy(&update, rest.data() + 256, 4);
   std::memcpy(&copied, rest.data() + 12288 - 8192 + 8 * 4, 4);
   EXPECT_EQ(fill, 0x12345678u) << "R's vkCmdFillBuffer";
   EXPECT_EQ(update, 0xdeadbeefu) << "R's vkCmdUpdateBuffer";
   uint32_t drawn;
   std::memcpy(&drawn, p.data() + (12 * size + 8) * 4, 4);
   EXPECT_EQ(copied, drawn) << "R's vkCmdCopyBuffer after its barrier";
}

/* Dynamic rendering: the primary begins rendering with CONTENTS_SECONDARY_COMMAND_BUFFERS and
 * secondary I (VkCommandBufferInheritanceRenderingInfo: one RGBA8 target and D32) draws a red
 * and a green square with the depth test; then secondary W holds a whole rendering of its
 * own that loads both attachments and draws a blue square between them in depth. */
void dynamic_rendering_scene(Device &d, Outcome &out)
{
   const std::vector<uint32_t> first = d.shapes({
      {2, 2, 20, 20, 0.5f, 255, 0, 0, 255},
      {10, 10, 28, 28, 0.25f, 0, 255, 0, 255},
      {6, 0, 26, 32, 0.375f, 0, 0, 255, 255},
   });
   terakan::test::Image2D &colour = d.colour_target();
   terakan::test::Image2D &depth = d.depth_target();
   VkPipeline pipeline = d.pipeline({VK_NULL_HANDLE, 0, true, false, false});
   if (d.failed) {
      out.error = "the scene's objects could not be made";
      return;
   }
   VkCommandBufferInheritanceRenderingInfo inherit{VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_RENDERING_INFO};
   inherit.colorAttachmentCount = 1;
   inherit.pColorAttachmentFormats = &colour_format;
   inherit.depthAttachmentFormat = depth_format;
   inherit.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
   VkCommandBuffer i = d.secondary(VK_NULL_HANDLE, 0, VK_NULL_HANDLE, 0, &inherit);
   d.bind(i, pipeline);
   Device::draw(i, first, 0);
   Device::draw(i, first, 1);

   VkRenderingAttachmentInfo colour_attachment{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
   colour_attachment.imageView = colour.view;
   colour_attachment.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
   colour_attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
   colour_attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
   colour_attachment.clearValue.color = {{0, 0, 32 / 255.0f, 1}};
   VkRenderingAttachmentInfo depth_attachment = colour_attachment;
   depth_attachment.imageView = depth.view;
   depth_attachment.imageLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
   depth_attachment.clearValue.depthStencil = {1, 0};
   VkRenderingInfo rendering{VK_STRUCTURE_TYPE_RENDERING_INFO};
   rendering.renderArea = {{0, 0}, {size, size}};
   rendering.layerCount = 1;
   rendering.colorAttachmentCount = 1;
   rendering.pColorAttachments = &colour_attachment;
   rendering.pDepthAttachment = &depth_attachment;

   VkCommandBuffer w = d.secondary(VK_NULL_HANDLE, 0, VK_NULL_HANDLE);
   VkRenderingAttachmentInfo colour_load = colour_attachment, depth_load = depth_attachment;
   colour_load.loadOp = depth_load.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
   VkRenderingInfo loading = rendering;
   loading.pColorAttachments = &colour_load;
   loading.pDepthAttachment = &depth_load;
   d.begin_rendering(w, &loading);
   d.bind(w, pipeline);
   Device::draw(w, first, 2);
   d.end_rendering(w);
   for (VkCommandBuffer s : {i, w})
      if (vkEndCommandBuffer(s) != VK_SUCCESS)
         out.error = "vkEndCommandBuffer of a secondary failed";

   VkCommandBuffer commands = d.primary();
   Device::image_barrier(commands, colour.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                         VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0,
                         VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT);
   Device::image_barrier(commands, depth.image, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                         VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0,
                         VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT,
                         VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT);
   rendering.flags = VK_RENDERING_CONTENTS_SECONDARY_COMMAND_BUFFERS_BIT;
   d.begin_rendering(commands, &rendering);
   vkCmdExecuteCommands(commands, 1, &i);
   d.end_rendering(commands);
   VkMemoryBarrier between{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
   between.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
   between.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT |
                           VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
   const VkPipelineStageFlags attachment_stages = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT |
                                                  VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT |
                                                  VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
   vkCmdPipelineBarrier(commands, attachment_stages, attachment_stages, 0, 1, &between, 0, nullptr, 0, nullptr);
   vkCmdExecuteCommands(commands, 1, &w);
   Device::image_barrier(commands, colour.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                         VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                         VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_ACCESS_TRANSFER_READ_BIT);
   d.copy_out(commands, colour.image, 0);
   Device::host_barrier(commands);
   const VkResult result = d.submit({commands});
   if (result != VK_SUCCESS) {
      out.error = "submission failed: " + std::to_string(result);
      return;
   }
   out.pictures = {d.read(0, picture_bytes)};
}

TEST(SecondaryCommandBuffers, DynamicRenderingInheritedAndInsideASecondary)
{
   {
      Device terakan("Terakan", false);
      ASSERT_TRUE(terakan.ok);
      if (!terakan.dynamic_rendering)
         GTEST_SKIP() << "the device offers no dynamic rendering (neither Vulkan 1.3 nor VK_KHR_dynamic_rendering): "
                         "the inheritance of VkCommandBufferInheritanceRenderingInfo cannot be driven yet";
   }
   Outcome ours;
   expect_same_as_lavapipe(dynamic_rendering_scene, ours);
   if (HasFatalFailure() || IsSkipped())
      return;
   const auto &p = ours.pictures[0];
   EXPECT_EQ(describe(pixel(p, 3, 3)), describe({255, 0, 0, 255})) << "I's red square";
   EXPECT_EQ(describe(pixel(p, 8, 8)), describe({0, 0, 255, 255})) << "W's blue in front of I's red";
   EXPECT_EQ(describe(pixel(p, 20, 20)), describe({0, 255, 0, 255})) << "I's green in front of W's blue";
   EXPECT_EQ(describe(pixel(p, 30, 30)), describe({0, 0, 32, 255})) << "the clear";
}

/* An occlusion query begun in the primary around two secondaries' draws (inheritedQueries):
 * the samples of draws replayed from secondaries count in the primary's query. */
void inherited_query_scene(Device &d, Outcome &out)
{
   const std::vector<uint32_t> first = d.shapes({
      {0, 0, 32, 32, 0.5f, 255, 0, 0, 255},    /* 1024 samples */
      {4, 4, 12, 20, 0.75f, 0, 255, 0, 255},   /* behind: none */
      {16, 2, 30, 9, 0.25f, 0, 0, 255, 255},   /* in front: 98 */
   });
   VkRenderPass pass = d.render_pass(1, true);
   terakan::test::Image2D &colour = d.colour_target();
   terakan::test::Image2D &depth = d.depth_target();
   VkFramebuffer fb = d.framebuffer(pass, {colour.view, depth.view});
   VkPipeline depth_tested = d.pipeline({pass, 0, true, false, false});
   VkQueryPool queries = VK_NULL_HANDLE;
   VkQueryPoolCreateInfo query_info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
   query_info.queryType = VK_QUERY_TYPE_OCCLUSION;
   query_info.queryCount = 2;
   vkCreateQueryPool(d.device, &query_info, nullptr, &queries);
   if (d.failed || !queries) {
      out.error = "the scene's objects could not be made";
      return;
   }
   d.inherit_occlusion_query = true;
   VkCommandBuffer a = d.secondary(pass, 0, fb);
   d.bind(a, depth_tested);
   Device::draw(a, first, 0);
   VkCommandBuffer b = d.secondary(pass, 0, VK_NULL_HANDLE);
   d.bind(b, depth_tested);
   Device::draw(b, first, 1);
   Device::draw(b, first, 2);
   d.inherit_occlusion_query = false;
   for (VkCommandBuffer s : {a, b})
      if (vkEndCommandBuffer(s) != VK_SUCCESS)
         out.error = "vkEndCommandBuffer of a secondary failed";

   VkCommandBuffer commands = d.primary();
   vkCmdResetQueryPool(commands, queries, 0, 2);
   std::vector<VkClearValue> clears(2);
   clears[0].color = {{0, 0, 0, 1}};
   clears[1].depthStencil = {1, 0};
   d.begin_pass(commands, pass, fb, clears);
   vkCmdBeginQuery(commands, queries, 0, VK_QUERY_CONTROL_PRECISE_BIT);
   vkCmdExecuteCommands(commands, 1, &a);
   vkCmdEndQuery(commands, queries, 0);
   vkCmdBeginQuery(commands, queries, 1, VK_QUERY_CONTROL_PRECISE_BIT);
   vkCmdExecuteCommands(commands, 1, &b);
   vkCmdEndQuery(commands, queries, 1);
   vkCmdEndRenderPass(commands);
   d.copy_out(commands, colour.image, 0);
   Device::host_barrier(commands);
   const VkResult result = d.submit({commands});
   if (result != VK_SUCCESS) {
      out.error = "submission failed: " + std::to_string(result);
   } else {
      out.pictures = {d.read(0, picture_bytes)};
      uint64_t samples[2] = {};
      if (vkGetQueryPoolResults(d.device, queries, 0, 2, sizeof(samples), samples, 8,
                                VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) != VK_SUCCESS)
         out.error = "vkGetQueryPoolResults failed";
      out.values = {samples[0], samples[1]};
   }
   vkDestroyQueryPool(d.device, queries, nullptr);
}

TEST(SecondaryCommandBuffers, OcclusionQueriesOfThePrimaryCountSecondaryDraws)
{
   /* lavapipe 22.3 does not offer inheritedQueries: the counts are known by construction. */
   Device d("Terakan", true);
   ASSERT_TRUE(d.ok);
   if (!d.inherited_queries)
      GTEST_SKIP() << "inheritedQueries is not offered: a secondary may not run inside a query of the primary's";
   Outcome ours;
   inherited_query_scene(d, ours);
   ASSERT_TRUE(ours.error.empty()) << ours.error;
   EXPECT_FALSE(d.failed);
   EXPECT_EQ(d.messages, 0u) << "validation messages";
   ASSERT_EQ(ours.values.size(), 2u);
   EXPECT_EQ(ours.values[0], 1024u) << "secondary A's full-screen rectangle";
   EXPECT_EQ(ours.values[1], 14u * 7u) << "secondary B: one rectangle behind, one in front";
}

/* Without the layer: what the specification forbids must fail cleanly. A secondary begun with
 * RENDER_PASS_CONTINUE and holding a draw records successfully; executed by a primary outside
 * any render pass, the draw has no attachments, and the primary's vkEndCommandBuffer fails. */
TEST(SecondaryCommandBuffersBadInput, RenderPassSecondaryExecutedOutsideARenderPass)
{
   Device d("Terakan", false);
   ASSERT_TRUE(d.ok);
   const std::vector<uint32_t> first = d.shapes({{0, 0, 8, 8, 0, 255, 0, 0, 255}});
   VkRenderPass pass = d.render_pass(1, false);
   VkPipeline plain = d.pipeline({pass, 0, false, false, false});
   ASSERT_FALSE(d.failed);
   VkCommandBuffer s = d.secondary(pass, 0, VK_NULL_HANDLE);
   d.bind(s, plain);
   Device::draw(s, first, 0);
   EXPECT_EQ(vkEndCommandBuffer(s), VK_SUCCESS);
   VkCommandBuffer commands = d.primary();
   vkCmdExecuteCommands(commands, 1, &s);
   EXPECT_NE(d.submit({commands}), VK_SUCCESS) << "vkEndCommandBuffer of the primary reports the draw";

   /* The secondary itself is untouched: executed inside a pass it still works. */
   terakan::test::Image2D &target = d.colour_target();
   VkFramebuffer fb = d.framebuffer(pass, {target.view});
   ASSERT_FALSE(d.failed);
   VkCommandBuffer again = d.primary();
   std::vector<VkClearValue> clears(1);
   d.begin_pass(again, pass, fb, clears);
   vkCmdExecuteCommands(again, 1, &s);
   vkCmdEndRenderPass(again);
   d.copy_out(again, target.image, 0);
   Device::host_barrier(again);
   ASSERT_EQ(d.submit({again}), VK_SUCCESS);
   EXPECT_EQ(describe(pixel(d.read(0, picture_bytes), 4, 4)), describe({255, 0, 0, 255}));
}

/* Host allocations that fail on demand, for the secondaries' pool. */
struct FailingAllocator {
   bool fail = false;
   static void *allocate(void *user, size_t bytes, size_t alignment, VkSystemAllocationScope)
   {
      if (static_cast<FailingAllocator *>(user)->fail)
         return nullptr;
      return std::aligned_alloc(alignment, (bytes + alignment - 1) / alignment * alignment);
   }
   static void *reallocate(void *user, void *old, size_t bytes, size_t alignment, VkSystemAllocationScope scope)
   {
      if (static_cast<FailingAllocator *>(user)->fail)
         return nullptr;
      if (!old)
         return allocate(user, bytes, alignment, scope);
      void *fresh = allocate(user, bytes, alignment, scope);
      if (fresh)
         std::memcpy(fresh, old, std::min(bytes, malloc_usable_size(old)));
      std::free(old);
      return fresh;
   }
   static void release(void *, void *memory) { std::free(memory); }
};

/* A secondary whose recording ran out of host memory: its vkEndCommandBuffer says so, and a
 * primary executing it anyway fails the same way rather than running half of it. */
TEST(SecondaryCommandBuffersBadInput, SecondaryWhoseRecordingFailed)
{
   Device d("Terakan", false);
   ASSERT_TRUE(d.ok);
   const std::vector<uint32_t> first = d.shapes({{0, 0, 8, 8, 0, 255, 0, 0, 255}});
   VkRenderPass pass = d.render_pass(1, false);
   VkPipeline plain = d.pipeline({pass, 0, false, false, false});
   terakan::test::Image2D &target = d.colour_target();
   VkFramebuffer fb = d.framebuffer(pass, {target.view});
   ASSERT_FALSE(d.failed);

   FailingAllocator failing;
   VkAllocationCallbacks callbacks{};
   callbacks.pUserData = &failing;
   callbacks.pfnAllocation = FailingAllocator::allocate;
   callbacks.pfnReallocation = FailingAllocator::reallocate;
   callbacks.pfnFree = FailingAllocator::release;
   VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
   pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
   VkCommandPool pool = VK_NULL_HANDLE;
   ASSERT_EQ(vkCreateCommandPool(d.device, &pool_info, &callbacks, &pool), VK_SUCCESS);
   VkCommandBufferAllocateInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
   info.commandPool = pool;
   info.level = VK_COMMAND_BUFFER_LEVEL_SECONDARY;
   info.commandBufferCount = 1;
   VkCommandBuffer s = VK_NULL_HANDLE;
   ASSERT_EQ(vkAllocateCommandBuffers(d.device, &info, &s), VK_SUCCESS);
   d.begin_secondary(s, pass, 0, fb);
   d.bind(s, plain);
   failing.fail = true;
   Device::draw(s, first, 0);
   failing.fail = false;
   EXPECT_EQ(vkEndCommandBuffer(s), VK_ERROR_OUT_OF_HOST_MEMORY);

   VkCommandBuffer commands = d.primary();
   std::vector<VkClearValue> clears(1);
   d.begin_pass(commands, pass, fb, clears);
   vkCmdExecuteCommands(commands, 1, &s);
   vkCmdEndRenderPass(commands);
   EXPECT_EQ(d.submit({commands}), VK_ERROR_OUT_OF_HOST_MEMORY);

   /* Recorded again with memory, it runs. */
   d.begin_secondary(s, pass, 0, fb);
   d.bind(s, plain);
   Device::draw(s, first, 0);
   EXPECT_EQ(vkEndCommandBuffer(s), VK_SUCCESS);
   commands = d.primary();
   d.begin_pass(commands, pass, fb, clears);
   vkCmdExecuteCommands(commands, 1, &s);
   vkCmdEndRenderPass(commands);
   d.copy_out(commands, target.image, 0);
   Device::host_barrier(commands);
   ASSERT_EQ(d.submit({commands}), VK_SUCCESS);
   EXPECT_EQ(describe(pixel(d.read(0, picture_bytes), 4, 4)), describe({255, 0, 0, 255}));
   vkFreeCommandBuffers(d.device, pool, 1, &s);
   vkDestroyCommandPool(d.device, pool, &callbacks);
}

} // namespace
