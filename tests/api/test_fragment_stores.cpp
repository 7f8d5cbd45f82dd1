/* Memory writes from pixel shaders (fragmentStoresAndAtomics) through the loader on the
 * simulated GPU (TERAKAN_SIM_CHIP picks the chip) and on lavapipe, validation layer on: storage
 * buffers, storage images and storage texel buffers stored to, loaded from and updated by
 * atomics while colour attachments are drawn; helper and killed pixels; stores under a depth
 * test with and without early fragment tests; the refusal of a pipeline whose RATs do not fit
 * beside its colour attachments. Every result is independent of the order in which pixels are
 * shaded, and is compared byte for byte with lavapipe's and with what the CPU expects. */
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "../vulkan_helpers.h"

namespace {

using namespace terakan::test;

constexpr uint32_t size = 32;
constexpr VkFormat colour_format = VK_FORMAT_R8G8B8A8_UNORM;

/* Two triangles of flat colours (a triangle's vertices share theirs, so no interpolation
 * rounding can differ between the devices) on whole pixels, not overlapping. */
struct Vertex {
   float x, y, z, w, r, g, b, a;
};
const Vertex flat_triangles[] = {
   {-1.0f, -1.0f, 0, 1, 1.0f, 0.0f, 0.2f, 1.0f}, {0.5f, -1.0f, 0, 1, 1.0f, 0.0f, 0.2f, 1.0f},
   {-1.0f, 0.5f, 0, 1, 1.0f, 0.0f, 0.2f, 1.0f},  {1.0f, 0.0f, 0, 1, 0.2f, 0.6f, 0.4f, 0.8f},
   {1.0f, 1.0f, 0, 1, 0.2f, 0.6f, 0.4f, 0.8f},   {0.0f, 1.0f, 0, 1, 0.2f, 0.6f, 0.4f, 0.8f},
};
/* One triangle whose slanted edges cut many quads (helper lanes on both sides). */
const Vertex slanted_triangle[] = {
   {-0.9f, -0.8f, 0, 1, 0.0f, 0.0f, 0.0f, 1.0f},
   {0.85f, -0.35f, 0, 1, 1.0f, 0.0f, 0.0f, 1.0f},
   {-0.3f, 0.95f, 0, 1, 0.0f, 1.0f, 0.0f, 1.0f},
};

/* One descriptor of set 0 and what backs it: a host buffer (storage buffers and texel
 * buffers), or a storage image (`image_format`). */
struct Binding {
   VkDescriptorType type;
   std::vector<uint32_t> initial; /* words (buffers); images are cleared to zero */
   VkFormat image_format = VK_FORMAT_UNDEFINED;
   VkFormat texel_format = VK_FORMAT_UNDEFINED;
   uint32_t clear = 0; /* storage images: every channel cleared to this integer */
};

/* One graphics pipeline's draw. */
struct DrawStep {
   const char *vertex_shader, *fragment_shader; /* SPIR-V names */
   const Vertex *vertices = nullptr;            /* null: the shader makes its own */
   uint32_t vertex_count = 3, instances = 1;
   float depth = 0.0f;                          /* depth_plane.vert's push constant */
   VkViewport viewport{0, 0, float(size), float(size), 0, 1};
   bool depth_test = false;
};

struct Scene {
   unsigned colour_attachments = 1;
   unsigned written_attachments = 8; /* the first ones get colour write mask 0xf, the rest 0 */
   bool depth_attachment = false;
   bool dual_source = false; /* attachment 0 blends with SRC1_COLOR (needs dualSrcBlend) */
   std::vector<Binding> bindings;
   std::vector<DrawStep> draws;
};

/* What a scene leaves: each colour attachment's bytes, and each binding's bytes. */
struct Result {
   std::vector<std::vector<uint8_t>> colours;
   std::vector<std::vector<uint8_t>> bindings;
   unsigned messages = 0;
   VkResult pipeline_result = VK_SUCCESS;
};

class Gpu {
public:
   explicit Gpu(const char *name)
   {
      VkDebugUtilsMessengerCreateInfoEXT messenger = validation_messenger_info(count_validation_finding, &messages);
      const bool layer = has_instance_layer("VK_LAYER_KHRONOS_validation");
      std::vector<const char *> layers, extensions;
      if (layer) {
         layers.push_back("VK_LAYER_KHRONOS_validation");
         extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
      }
      if (create_instance("terakan-api-fragment-stores", VK_API_VERSION_1_0, layers, extensions,
                          layer ? &messenger : nullptr, instance) != VK_SUCCESS) {
         error = "no instance";
         return;
      }
      /* The messenger in the instance's pNext sees only instance creation and destruction; this
       * one sees everything in between. */
      if (layer) {
         auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
         if (!create || create(instance, &messenger, nullptr, &messenger_handle) != VK_SUCCESS) {
            error = "no debug messenger";
            return;
         }
      }
      physical = find_physical_device(instance, name);
      const auto found = physical ? find_queue_family(physical, VK_QUEUE_GRAPHICS_BIT) : std::nullopt;
      if (!found) {
         error = std::string("no device ") + name;
         return;
      }
      family = *found;
      VkPhysicalDeviceFeatures offered{};
      vkGetPhysicalDeviceFeatures(physical, &offered);
      if (!offered.fragmentStoresAndAtomics) {
         error = std::string(name) + " does not offer fragmentStoresAndAtomics";
         return;
      }
      VkPhysicalDeviceFeatures features{};
      features.fragmentStoresAndAtomics = VK_TRUE;
      features.dualSrcBlend = offered.dualSrcBlend;
      features.independentBlend = offered.independentBlend; /* attachments with other write masks */
      /* Format qualifiers of the extended storage formats: ExtendedFormatsFromAPixelShader. */
      features.shaderStorageImageExtendedFormats = offered.shaderStorageImageExtendedFormats;
      /* Demote where offered (both devices): DemotedPixelsDoNotWrite. */
      VkPhysicalDeviceShaderDemoteToHelperInvocationFeaturesEXT demote{
         VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DEMOTE_TO_HELPER_INVOCATION_FEATURES_EXT};
      std::vector<const char *> device_extensions;
      if (has_device_extension(physical, VK_EXT_SHADER_DEMOTE_TO_HELPER_INVOCATION_EXTENSION_NAME)) {
         device_extensions.push_back(VK_EXT_SHADER_DEMOTE_TO_HELPER_INVOCATION_EXTENSION_NAME);
         demote.shaderDemoteToHelperInvocation = VK_TRUE;
      }
      if (create_device(physical, family, device_extensions.empty() ? nullptr : &demote, &features, device_extensions,
                        device) != VK_SUCCESS) {
         error = std::string("no device ") + name;
         device = VK_NULL_HANDLE;
         return;
      }
      vkGetDeviceQueue(device, family, 0, &queue);
      VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
      pool_info.queueFamilyIndex = family;
      vkCreateCommandPool(device, &pool_info, nullptr, &command_pool);
   }
   ~Gpu()
   {
      if (device) {
         vkDeviceWaitIdle(device);
         vkDestroyCommandPool(device, command_pool, nullptr);
         vkDestroyDevice(device, nullptr);
      }
      if (messenger_handle) {
         auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
         if (destroy)
            destroy(instance, messenger_handle, nullptr);
      }
      if (instance)
         destroy_instance(instance);
   }
   bool ok() const { return device != VK_NULL_HANDLE; }

   VkShaderModule module(const char *name)
   {
      const std::vector<uint32_t> code = read_api_spirv(name);
      VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
      info.codeSize = code.size() * 4;
      info.pCode = code.data();
      VkShaderModule out = VK_NULL_HANDLE;
      if (code.empty() || vkCreateShaderModule(device, &info, nullptr, &out) != VK_SUCCESS)
         error = std::string("no shader ") + name;
      return out;
   }

   std::string error;
   unsigned messages = 0;
   VkInstance instance = VK_NULL_HANDLE;
   VkDebugUtilsMessengerEXT messenger_handle = VK_NULL_HANDLE;
   VkPhysicalDevice physical = VK_NULL_HANDLE;
   VkDevice device = VK_NULL_HANDLE;
   VkQueue queue = VK_NULL_HANDLE;
   uint32_t family = 0;
   VkCommandPool command_pool = VK_NULL_HANDLE;
};

unsigned texel_bytes(VkFormat format)
{
   return format == VK_FORMAT_R32G32B32A32_UINT ? 16 : 4;
}

/* Everything a scene makes, destroyed together. */
struct SceneObjects {
   VkDevice device;
   std::vector<Image2D> attachments;
   Image2D depth;
   std::vector<Image2D> images;
   std::vector<VkBuffer> buffers;
   std::vector<VkDeviceMemory> memories;
   std::vector<void *> maps;
   std::vector<VkBufferView> views;
   VkBuffer vertex_buffer = VK_NULL_HANDLE, readback = VK_NULL_HANDLE;
   VkDeviceMemory vertex_memory = VK_NULL_HANDLE, readback_memory = VK_NULL_HANDLE;
   void *vertex_map = nullptr, *readback_map = nullptr;
   VkRenderPass pass = VK_NULL_HANDLE;
   VkFramebuffer framebuffer = VK_NULL_HANDLE;
   VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
   VkPipelineLayout layout = VK_NULL_HANDLE;
   VkDescriptorPool pool = VK_NULL_HANDLE;
   std::vector<VkPipeline> pipelines;
   std::vector<VkShaderModule> modules;

   ~SceneObjects()
   {
      vkDeviceWaitIdle(device);
      for (VkPipeline p : pipelines)
         vkDestroyPipeline(device, p, nullptr);
      for (VkShaderModule m : modules)
         vkDestroyShaderModule(device, m, nullptr);
      vkDestroyDescriptorPool(device, pool, nullptr);
      vkDestroyPipelineLayout(device, layout, nullptr);
      vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
      vkDestroyFramebuffer(device, framebuffer, nullptr);
      vkDestroyRenderPass(device, pass, nullptr);
      for (VkBufferView v : views)
         vkDestroyBufferView(device, v, nullptr);
      for (size_t i = 0; i < buffers.size(); i++) {
         vkDestroyBuffer(device, buffers[i], nullptr);
         vkFreeMemory(device, memories[i], nullptr);
      }
      for (VkBuffer b : {vertex_buffer, readback})
         vkDestroyBuffer(device, b, nullptr);
      for (VkDeviceMemory m : {vertex_memory, readback_memory})
         vkFreeMemory(device, m, nullptr);
      for (Image2D &image : attachments)
         destroy_image_2d(device, image);
      for (Image2D &image : images)
         destroy_image_2d(device, image);
      destroy_image_2d(device, depth);
   }
};

/* Renders `scene` on `gpu` in one render pass (one subpass); empty colours with `error` set
 * when a step failed. Only pipeline creation may fail on purpose (pipeline_result). */
Result render(Gpu &gpu, const Scene &scene, std::string &error)
{
   Result result;
   SceneObjects o{gpu.device};
   VkDevice device = gpu.device;
   const unsigned messages_before = gpu.messages;

   /* Attachments, the bindings' buffers and images, the readback buffer. */
   o.attachments.resize(scene.colour_attachments);
   for (Image2D &a : o.attachments)
      if (!create_image_2d(gpu.physical, device, colour_format,
                           VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                           VK_IMAGE_ASPECT_COLOR_BIT, size, size, VK_SAMPLE_COUNT_1_BIT, a)) {
         error = "attachment creation failed";
         return result;
      }
   if (scene.depth_attachment &&
       !create_image_2d(gpu.physical, device, VK_FORMAT_D32_SFLOAT, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                        VK_IMAGE_ASPECT_DEPTH_BIT, size, size, VK_SAMPLE_COUNT_1_BIT, o.depth)) {
      error = "depth attachment creation failed";
      return result;
   }
   size_t readback_bytes = size * size * 4 * scene.colour_attachments;
   o.buffers.resize(scene.bindings.size());
   o.memories.resize(scene.bindings.size());
   o.maps.resize(scene.bindings.size());
   o.images.resize(scene.bindings.size());
   for (size_t b = 0; b < scene.bindings.size(); b++) {
      const Binding &binding = scene.bindings[b];
      if (binding.type == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE) {
         if (!create_image_2d(gpu.physical, device, binding.image_format,
                              VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                 VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                              VK_IMAGE_ASPECT_COLOR_BIT, size, size, VK_SAMPLE_COUNT_1_BIT, o.images[b])) {
            error = "storage image creation failed";
            return result;
         }
         readback_bytes += size * size * 4;
         continue;
      }
      const VkBufferUsageFlags usage = binding.type == VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER
                                          ? VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT
                                          : VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
      const VkDeviceSize bytes = binding.initial.size() * 4;
      if (!create_host_buffer(gpu.physical, device, bytes, usage, o.buffers[b], o.memories[b], o.maps[b])) {
         error = "buffer creation failed";
         return result;
      }
      std::memcpy(o.maps[b], binding.initial.data(), bytes);
      if (binding.type == VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER) {
         VkBufferViewCreateInfo view_info{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
         view_info.buffer = o.buffers[b];
         view_info.format = binding.texel_format;
         view_info.range = VK_WHOLE_SIZE;
         VkBufferView view = VK_NULL_HANDLE;
         vkCreateBufferView(device, &view_info, nullptr, &view);
         o.views.push_back(view);
      }
   }
   if (!create_host_buffer(gpu.physical, device, sizeof(flat_triangles), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
                           o.vertex_buffer, o.vertex_memory, o.vertex_map) ||
       !create_host_buffer(gpu.physical, device, readback_bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, o.readback,
                           o.readback_memory, o.readback_map)) {
      error = "buffer creation failed";
      return result;
   }

   /* The render pass: colour attachments cleared to transparent dark blue, depth to 1. */
   std::vector<VkAttachmentDescription> descriptions(scene.colour_attachments + (scene.depth_attachment ? 1 : 0));
   std::vector<VkAttachmentReference> colour_refs;
   for (unsigned i = 0; i < descriptions.size(); i++) {
      VkAttachmentDescription &d = descriptions[i];
      const bool colour = i < scene.colour_attachments;
      d.format = colour ? colour_format : VK_FORMAT_D32_SFLOAT;
      d.samples = VK_SAMPLE_COUNT_1_BIT;
      d.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
      d.storeOp = colour ? VK_ATTACHMENT_STORE_OP_STORE : VK_ATTACHMENT_STORE_OP_DONT_CARE;
      d.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
      d.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
      d.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
      d.finalLayout = colour ? VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL : VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
      if (colour)
         colour_refs.push_back({i, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL});
   }
   const VkAttachmentReference depth_ref{scene.colour_attachments, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
   VkSubpassDescription subpass{};
   subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
   subpass.colorAttachmentCount = scene.colour_attachments;
   subpass.pColorAttachments = colour_refs.data();
   subpass.pDepthStencilAttachment = scene.depth_attachment ? &depth_ref : nullptr;
   VkSubpassDependency after{};
   after.srcSubpass = 0;
   after.dstSubpass = VK_SUBPASS_EXTERNAL;
   after.srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT;
   after.dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_HOST_BIT;
   after.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT;
   after.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_HOST_READ_BIT;
   VkRenderPassCreateInfo pass_info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
   pass_info.attachmentCount = uint32_t(descriptions.size());
   pass_info.pAttachments = descriptions.data();
   pass_info.subpassCount = 1;
   pass_info.pSubpasses = &subpass;
   pass_info.dependencyCount = 1;
   pass_info.pDependencies = &after;
   if (vkCreateRenderPass(device, &pass_info, nullptr, &o.pass) != VK_SUCCESS) {
      error = "render pass creation failed";
      return result;
   }
   std::vector<VkImageView> views;
   for (const Image2D &a : o.attachments)
      views.push_back(a.view);
   if (scene.depth_attachment)
      views.push_back(o.depth.view);
   VkFramebufferCreateInfo fb_info{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
   fb_info.renderPass = o.pass;
   fb_info.attachmentCount = uint32_t(views.size());
   fb_info.pAttachments = views.data();
   fb_info.width = fb_info.height = size;
   fb_info.layers = 1;
   vkCreateFramebuffer(device, &fb_info, nullptr, &o.framebuffer);

   /* Set 0 as the scene lists it, for the fragment stage; a push constant for the vertex
    * stage (depth_plane.vert's depth). */
   std::vector<VkDescriptorSetLayoutBinding> layout_bindings;
   std::vector<VkDescriptorPoolSize> pool_sizes;
   for (uint32_t b = 0; b < scene.bindings.size(); b++) {
      layout_bindings.push_back({b, scene.bindings[b].type, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr});
      pool_sizes.push_back({scene.bindings[b].type, 1});
   }
   VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
   set_info.bindingCount = uint32_t(layout_bindings.size());
   set_info.pBindings = layout_bindings.data();
   vkCreateDescriptorSetLayout(device, &set_info, nullptr, &o.set_layout);
   const VkPushConstantRange push_range{VK_SHADER_STAGE_VERTEX_BIT, 0, 4};
   VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
   layout_info.setLayoutCount = 1;
   layout_info.pSetLayouts = &o.set_layout;
   layout_info.pushConstantRangeCount = 1;
   layout_info.pPushConstantRanges = &push_range;
   vkCreatePipelineLayout(device, &layout_info, nullptr, &o.layout);

   for (const DrawStep &step : scene.draws) {
      o.modules.push_back(gpu.module(step.vertex_shader));
      o.modules.push_back(gpu.module(step.fragment_shader));
      if (!gpu.error.empty()) {
         error = gpu.error;
         return result;
      }
      VkPipelineShaderStageCreateInfo stages[2] = {};
      for (unsigned s = 0; s < 2; s++) {
         stages[s].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
         stages[s].stage = s == 0 ? VK_SHADER_STAGE_VERTEX_BIT : VK_SHADER_STAGE_FRAGMENT_BIT;
         stages[s].module = o.modules[o.modules.size() - 2 + s];
         stages[s].pName = "main";
      }
      const VkVertexInputBindingDescription vertex_binding{0, sizeof(Vertex), VK_VERTEX_INPUT_RATE_VERTEX};
      const VkVertexInputAttributeDescription vertex_attributes[2] = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0},
                                                                      {1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 16}};
      VkPipelineVertexInputStateCreateInfo vertex_input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
      if (step.vertices) {
         vertex_input.vertexBindingDescriptionCount = 1;
         vertex_input.pVertexBindingDescriptions = &vertex_binding;
         vertex_input.vertexAttributeDescriptionCount = 2;
         vertex_input.pVertexAttributeDescriptions = vertex_attributes;
      }
      VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
      assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
      const VkRect2D scissor{{0, 0}, {size, size}};
      VkPipelineViewportStateCreateInfo viewport_state{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
      viewport_state.viewportCount = viewport_state.scissorCount = 1;
      viewport_state.pViewports = &step.viewport;
      viewport_state.pScissors = &scissor;
      VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
      raster.cullMode = VK_CULL_MODE_NONE;
      raster.lineWidth = 1.0f;
      VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
      multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
      VkPipelineDepthStencilStateCreateInfo depth_state{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
      depth_state.depthTestEnable = step.depth_test;
      depth_state.depthWriteEnable = step.depth_test;
      depth_state.depthCompareOp = VK_COMPARE_OP_LESS;
      std::vector<VkPipelineColorBlendAttachmentState> blends(scene.colour_attachments);
      for (unsigned i = 0; i < blends.size(); i++)
         blends[i].colorWriteMask = i < scene.written_attachments ? 0xf : 0;
      if (scene.dual_source) {
         blends[0].blendEnable = VK_TRUE;
         blends[0].srcColorBlendFactor = VK_BLEND_FACTOR_SRC1_COLOR;
         blends[0].dstColorBlendFactor = VK_BLEND_FACTOR_ZERO;
         blends[0].srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
         blends[0].dstAlphaBlendFactor = VK_BLEND_FACTOR_ZERO;
      }
      VkPipelineColorBlendStateCreateInfo blend_state{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
      blend_state.attachmentCount = uint32_t(blends.size());
      blend_state.pAttachments = blends.data();
      VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
      info.stageCount = 2;
      info.pStages = stages;
      info.pVertexInputState = &vertex_input;
      info.pInputAssemblyState = &assembly;
      info.pViewportState = &viewport_state;
      info.pRasterizationState = &raster;
      info.pMultisampleState = &multisample;
      info.pDepthStencilState = scene.depth_attachment ? &depth_state : nullptr;
      info.pColorBlendState = &blend_state;
      info.layout = o.layout;
      info.renderPass = o.pass;
      VkPipeline pipeline = VK_NULL_HANDLE;
      result.pipeline_result = vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline);
      if (result.pipeline_result != VK_SUCCESS) {
         error = "pipeline creation failed";
         result.messages = gpu.messages - messages_before;
         return result;
      }
      o.pipelines.push_back(pipeline);
   }

   /* The descriptor set. */
   VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
   pool_info.maxSets = 1;
   pool_info.poolSizeCount = uint32_t(pool_sizes.size());
   pool_info.pPoolSizes = pool_sizes.data();
   vkCreateDescriptorPool(device, &pool_info, nullptr, &o.pool);
   VkDescriptorSetAllocateInfo allocate{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
   allocate.descriptorPool = o.pool;
   allocate.descriptorSetCount = 1;
   allocate.pSetLayouts = &o.set_layout;
   VkDescriptorSet set = VK_NULL_HANDLE;
   vkAllocateDescriptorSets(device, &allocate, &set);
   size_t next_view = 0;
   for (uint32_t b = 0; b < scene.bindings.size(); b++) {
      VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
      write.dstSet = set;
      write.dstBinding = b;
      write.descriptorCount = 1;
      write.descriptorType = scene.bindings[b].type;
      const VkDescriptorBufferInfo buffer_info{o.buffers[b], 0, VK_WHOLE_SIZE};
      const VkDescriptorImageInfo image_info{VK_NULL_HANDLE, o.images[b].view, VK_IMAGE_LAYOUT_GENERAL};
      if (write.descriptorType == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE)
         write.pImageInfo = &image_info;
      else if (write.descriptorType == VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER)
         write.pTexelBufferView = &o.views[next_view++];
      else
         write.pBufferInfo = &buffer_info;
      vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);
   }

   /* Record: storage images to GENERAL and cleared, the render pass with every draw, then the
    * attachments and storage images copied out. */
   /* The first draw's vertices (the buffer holds as many as flat_triangles). */
   if (!scene.draws.empty() && scene.draws[0].vertices)
      std::memcpy(o.vertex_map, scene.draws[0].vertices,
                  std::min<size_t>(sizeof(flat_triangles), scene.draws[0].vertex_count * sizeof(Vertex)));
   else
      std::memcpy(o.vertex_map, flat_triangles, sizeof(flat_triangles));
   VkCommandBufferAllocateInfo command_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
   command_info.commandPool = gpu.command_pool;
   command_info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
   command_info.commandBufferCount = 1;
   VkCommandBuffer commands = VK_NULL_HANDLE;
   vkAllocateCommandBuffers(device, &command_info, &commands);
   VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
   vkBeginCommandBuffer(commands, &begin);
   const VkImageSubresourceRange whole{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
   for (size_t b = 0; b < scene.bindings.size(); b++) {
      if (scene.bindings[b].type != VK_DESCRIPTOR_TYPE_STORAGE_IMAGE)
         continue;
      VkImageMemoryBarrier to_general{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
      to_general.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
      to_general.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
      to_general.newLayout = VK_IMAGE_LAYOUT_GENERAL;
      to_general.srcQueueFamilyIndex = to_general.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
      to_general.image = o.images[b].image;
      to_general.subresourceRange = whole;
      vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr,
                           0, nullptr, 1, &to_general);
      VkClearColorValue value{};
      for (unsigned c = 0; c < 4; c++)
         value.uint32[c] = scene.bindings[b].clear;
      vkCmdClearColorImage(commands, o.images[b].image, VK_IMAGE_LAYOUT_GENERAL, &value, 1, &whole);
   }
   VkMemoryBarrier cleared{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
   cleared.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_HOST_WRITE_BIT;
   cleared.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
   vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_HOST_BIT,
                        VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, 0, 1, &cleared, 0, nullptr, 0, nullptr);
   std::vector<VkClearValue> clears(descriptions.size());
   for (unsigned i = 0; i < scene.colour_attachments; i++)
      clears[i].color = {{0.0f, 0.0f, 0.4f, 0.0f}};
   if (scene.depth_attachment)
      clears.back().depthStencil = {1.0f, 0};
   VkRenderPassBeginInfo pass_begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
   pass_begin.renderPass = o.pass;
   pass_begin.framebuffer = o.framebuffer;
   pass_begin.renderArea = {{0, 0}, {size, size}};
   pass_begin.clearValueCount = uint32_t(clears.size());
   pass_begin.pClearValues = clears.data();
   vkCmdBeginRenderPass(commands, &pass_begin, VK_SUBPASS_CONTENTS_INLINE);
   vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, o.layout, 0, 1, &set, 0, nullptr);
   for (size_t d = 0; d < scene.draws.size(); d++) {
      const DrawStep &step = scene.draws[d];
      vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, o.pipelines[d]);
      vkCmdPushConstants(commands, o.layout, VK_SHADER_STAGE_VERTEX_BIT, 0, 4, &step.depth);
      if (step.vertices) {
         const VkDeviceSize offset = 0;
         vkCmdBindVertexBuffers(commands, 0, 1, &o.vertex_buffer, &offset);
      }
      vkCmdDraw(commands, step.vertex_count, step.instances, 0, 0);
   }
   vkCmdEndRenderPass(commands);
   VkDeviceSize at = 0;
   VkBufferImageCopy region{};
   region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
   region.imageExtent = {size, size, 1};
   for (const Image2D &a : o.attachments) {
      region.bufferOffset = at;
      vkCmdCopyImageToBuffer(commands, a.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, o.readback, 1, &region);
      at += size * size * 4;
   }
   for (size_t b = 0; b < scene.bindings.size(); b++) {
      if (scene.bindings[b].type != VK_DESCRIPTOR_TYPE_STORAGE_IMAGE)
         continue;
      region.bufferOffset = at;
      vkCmdCopyImageToBuffer(commands, o.images[b].image, VK_IMAGE_LAYOUT_GENERAL, o.readback, 1, &region);
      at += size * size * 4;
   }
   VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
   to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT;
   to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
   vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
                        VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0, nullptr, 0, nullptr);
   if (vkEndCommandBuffer(commands) != VK_SUCCESS) {
      error = "recording failed";
      return result;
   }
   VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
   submit.commandBufferCount = 1;
   submit.pCommandBuffers = &commands;
   if (vkQueueSubmit(gpu.queue, 1, &submit, VK_NULL_HANDLE) != VK_SUCCESS || vkQueueWaitIdle(gpu.queue) != VK_SUCCESS) {
      error = "submission failed";
      return result;
   }

   const uint8_t *bytes = static_cast<const uint8_t *>(o.readback_map);
   for (unsigned i = 0; i < scene.colour_attachments; i++, bytes += size * size * 4)
      result.colours.emplace_back(bytes, bytes + size * size * 4);
   result.bindings.resize(scene.bindings.size());
   for (size_t b = 0; b < scene.bindings.size(); b++) {
      if (scene.bindings[b].type == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE) {
         result.bindings[b].assign(bytes, bytes + size * size * 4);
         bytes += size * size * 4;
      } else {
         const uint8_t *words = static_cast<const uint8_t *>(o.maps[b]);
         result.bindings[b].assign(words, words + scene.bindings[b].initial.size() * 4);
      }
   }
   vkFreeCommandBuffers(device, gpu.command_pool, 1, &commands);
   result.messages = gpu.messages - messages_before;
   return result;
}

/* Renders `scene` on Terakan and lavapipe; both results, or a failed assertion. */
void render_both(const Scene &scene, Result &ours, Result &theirs)
{
   std::string error;
   Gpu terakan("Terakan");
   ASSERT_TRUE(terakan.ok()) << terakan.error;
   ours = render(terakan, scene, error);
   ASSERT_FALSE(ours.colours.empty()) << "Terakan: " << error;
   Gpu lavapipe("llvmpipe");
   ASSERT_TRUE(lavapipe.ok()) << lavapipe.error;
   theirs = render(lavapipe, scene, error);
   ASSERT_FALSE(theirs.colours.empty()) << "lavapipe: " << error;
   EXPECT_EQ(ours.messages, 0u);
   EXPECT_EQ(theirs.messages, 0u);
}

void expect_same_bytes(const std::vector<uint8_t> &ours, const std::vector<uint8_t> &theirs, const std::string &what)
{
   ASSERT_EQ(ours.size(), theirs.size()) << what;
   unsigned reported = 0, differing = 0;
   for (size_t i = 0; i < ours.size(); i++) {
      if (ours[i] == theirs[i])
         continue;
      differing++;
      if (reported++ < 6)
         ADD_FAILURE() << what << ": byte " << i << ": Terakan " << unsigned(ours[i]) << ", lavapipe "
                       << unsigned(theirs[i]);
   }
   EXPECT_EQ(differing, 0u) << what;
}

std::vector<uint32_t> words_of(const std::vector<uint8_t> &bytes)
{
   std::vector<uint32_t> words(bytes.size() / 4);
   std::memcpy(words.data(), bytes.data(), words.size() * 4);
   return words;
}

/* The pixels a colour attachment shows drawn: alpha no longer the clear colour's 0. */
std::vector<bool> drawn_pixels(const std::vector<uint8_t> &colour)
{
   std::vector<bool> drawn(size * size);
   for (unsigned i = 0; i < size * size; i++)
      drawn[i] = colour[i * 4 + 3] != 0;
   return drawn;
}

TEST(FragmentStores, EveryKindOfWriteBesideTwoColourAttachments)
{
   std::vector<uint32_t> keys(size * size);
   uint32_t state = 0x12345678u;
   for (uint32_t &k : keys) {
      state = state * 1664525u + 1013904223u;
      k = state;
   }
   Scene scene;
   scene.colour_attachments = 2; /* the RATs are CB_COLOR2-7 on Terakan: all six that remain */
   scene.bindings = {
      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, std::vector<uint32_t>(size * size, 0xdeadbeefu)},
      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
       {0, 0, 0, 0, 0xffffffffu, 0, uint32_t(INT_MAX), uint32_t(INT_MIN), 0xffffffffu}},
      {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, {}, VK_FORMAT_R8G8B8A8_UNORM},
      {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, {}, VK_FORMAT_R32_UINT},
      {VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, std::vector<uint32_t>(size * size * 4, 0x5a5a5a5au),
       VK_FORMAT_UNDEFINED, VK_FORMAT_R32G32B32A32_UINT},
      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, keys},
   };
   DrawStep step{"coloured.vert", "fragment_stores.frag", flat_triangles, 6, 2};
   scene.draws = {step};
   Result ours, theirs;
   render_both(scene, ours, theirs);
   if (HasFatalFailure())
      return;
   for (unsigned i = 0; i < 2; i++)
      expect_same_bytes(ours.colours[i], theirs.colours[i], "colour attachment " + std::to_string(i));
   const char *names[] = {"pixels", "counters", "painted image", "hits image", "texel buffer", "keys"};
   for (size_t b = 0; b < scene.bindings.size(); b++)
      expect_same_bytes(ours.bindings[b], theirs.bindings[b], names[b]);

   /* Against the CPU: the covered pixels (twice each: two instances) from the attachment. */
   const std::vector<bool> drawn = drawn_pixels(ours.colours[0]);
   uint32_t covered = 0, sum_x = 0, max_y = 0, or_bits = 0, min_x = 0xffffffffu, and_bits = ~0u;
   int32_t lowest = INT_MAX, highest = INT_MIN;
   const std::vector<uint32_t> pixels = words_of(ours.bindings[0]), hits = words_of(ours.bindings[3]);
   const std::vector<uint32_t> texels = words_of(ours.bindings[4]);
   for (uint32_t y = 0; y < size; y++) {
      for (uint32_t x = 0; x < size; x++) {
         const uint32_t i = y * size + x;
         if (!drawn[i]) {
            EXPECT_EQ(pixels[i], 0xdeadbeefu) << "pixel " << x << "," << y << " was not drawn but written";
            EXPECT_EQ(hits[i], 0u) << x << "," << y;
            EXPECT_EQ(texels[4 * i + 2], 0x5a5a5a5au) << x << "," << y;
            continue;
         }
         covered += 2, sum_x += 2 * x, max_y = std::max(max_y, y), or_bits |= 1u << (x & 31);
         min_x = std::min(min_x, x), and_bits &= ~(1u << (y & 31));
         lowest = std::min(lowest, int32_t(x) - 2 * int32_t(y));
         highest = std::max(highest, 3 * int32_t(x) - int32_t(y));
         EXPECT_EQ(hits[i], 2 * (1 + (i & 3))) << x << "," << y;
         EXPECT_EQ(texels[4 * i + 0], x);
         EXPECT_EQ(texels[4 * i + 1], y);
         EXPECT_EQ(texels[4 * i + 2], i);
         EXPECT_EQ(texels[4 * i + 3], keys[i]);
         const uint8_t *c = &ours.colours[0][4 * i];
         const uint32_t packed = uint32_t(c[0]) | uint32_t(c[1]) << 8 | uint32_t(c[2]) << 16 | uint32_t(c[3]) << 24;
         EXPECT_EQ(pixels[i], packed ^ keys[i]) << x << "," << y;
      }
   }
   EXPECT_GT(covered, 400u);
   const std::vector<uint32_t> counters = words_of(ours.bindings[1]);
   EXPECT_EQ(counters[0], covered);
   EXPECT_EQ(counters[1], sum_x);
   EXPECT_EQ(counters[2], max_y);
   EXPECT_EQ(counters[3], or_bits);
   EXPECT_EQ(counters[4], min_x);
   EXPECT_EQ(counters[5], 0u) << "each key xor-ed twice";
   EXPECT_EQ(int32_t(counters[6]), lowest);
   EXPECT_EQ(int32_t(counters[7]), highest);
   EXPECT_EQ(counters[8], and_bits);
}

/* Typed RAT stores of a pixel shader in formats of shaderStorageImageExtendedFormats (the
 * CB's SNORM, 11/10-bit float and 10:10:10:2 conversions; compute covers every format in
 * api-storage-extended-*): written exactly where pixels were drawn, as lavapipe writes them. */
TEST(FragmentStores, ExtendedFormatsFromAPixelShader)
{
   Scene scene;
   scene.bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, {}, VK_FORMAT_R16G16_SNORM},
                     {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, {}, VK_FORMAT_B10G11R11_UFLOAT_PACK32},
                     {VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, std::vector<uint32_t>(size * size, 0x5a5a5a5au),
                      VK_FORMAT_UNDEFINED, VK_FORMAT_A2B10G10R10_UNORM_PACK32}};
   scene.draws = {DrawStep{"coloured.vert", "fragment_stores_extended.frag", slanted_triangle, 3, 1}};
   Result ours, theirs;
   render_both(scene, ours, theirs);
   if (HasFatalFailure())
      return;
   /* (The interpolated colours are not compared: lavapipe rounds some differently.) */
   const char *names[] = {"RG16_SNORM image", "B10G11R11_UFLOAT image", "A2B10G10R10_UNORM texel buffer"};
   for (size_t b = 0; b < scene.bindings.size(); b++)
      expect_same_bytes(ours.bindings[b], theirs.bindings[b], names[b]);
   /* Only drawn pixels wrote: the others keep the images' zeros and the buffer's fill. */
   const std::vector<bool> drawn = drawn_pixels(ours.colours[0]);
   const std::vector<uint32_t> signed_texels = words_of(ours.bindings[0]), buffer = words_of(ours.bindings[2]);
   unsigned count = 0;
   for (uint32_t i = 0; i < size * size; i++) {
      count += drawn[i];
      if (!drawn[i]) {
         EXPECT_EQ(signed_texels[i], 0u) << "texel " << i;
         EXPECT_EQ(buffer[i], 0x5a5a5a5au) << "element " << i;
      } else {
         EXPECT_NE(buffer[i], 0x5a5a5a5au) << "element " << i;
      }
   }
   EXPECT_GT(count, 100u);
}

TEST(FragmentStores, HelperAndKilledPixelsDoNotWrite)
{
   Scene scene;
   scene.bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, std::vector<uint32_t>(size * size, 0)},
                     {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {0}},
                     {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, {}, VK_FORMAT_R32_UINT, VK_FORMAT_UNDEFINED, 7},
                     {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {0}}};
   scene.draws = {DrawStep{"coloured.vert", "fragment_stores_killed.frag", slanted_triangle, 3, 1}};
   Result ours, theirs;
   render_both(scene, ours, theirs);
   if (HasFatalFailure())
      return;
   expect_same_bytes(ours.bindings[0], theirs.bindings[0], "marks");
   expect_same_bytes(ours.bindings[1], theirs.bindings[1], "count");
   expect_same_bytes(ours.bindings[3], theirs.bindings[3], "count before the discard");
   /* Marked exactly where a pixel was drawn (covered and not discarded). */
   const std::vector<bool> drawn = drawn_pixels(ours.colours[0]);
   const std::vector<uint32_t> marks = words_of(ours.bindings[0]);
   uint32_t count = 0, killed = 0;
   for (uint32_t y = 0; y < size; y++)
      for (uint32_t x = 0; x < size; x++) {
         const uint32_t i = y * size + x;
         EXPECT_EQ(marks[i], drawn[i] ? 9u : 0u) << x << "," << y; /* 1 + 1 + the loaded 7 */
         count += drawn[i];
         if (((x ^ y) & 1) && (drawn[i ^ 1] || (x > 0 && drawn[i - 1])))
            killed++;
      }
   EXPECT_GT(count, 100u);
   EXPECT_GT(killed, 100u) << "the checkerboard should have discarded pixels inside the triangle";
   EXPECT_EQ(words_of(ours.bindings[1])[0], count);
   /* The atomic before the discard ran for the discarded pixels too (a KILL placed before it
    * would leave them out), and for no helper. */
   EXPECT_GT(words_of(ours.bindings[3])[0], count + 100);
}

/* Demote (VK_EXT_shader_demote_to_helper_invocation): a demoted pixel runs on as a helper, so
 * its neighbour's fine derivative after the demote is exact, but it writes nothing (its
 * atomics are not counted) and helperInvocationEXT() is true for it; every covered pixel
 * counted itself before the demote. */
TEST(FragmentStores, DemotedPixelsDoNotWrite)
{
   Scene scene;
   scene.bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, std::vector<uint32_t>(size * size, 0)},
                     {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {0}},
                     {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {0}},
                     {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {0}}};
   scene.draws = {DrawStep{"coloured.vert", "fragment_stores_demoted.frag", slanted_triangle, 3, 1}};
   Result ours, theirs;
   render_both(scene, ours, theirs);
   if (HasFatalFailure())
      return;
   /* The interpolated colour may round apart from lavapipe's: only where it was drawn counts. */
   for (unsigned b = 0; b < 4; b++)
      expect_same_bytes(ours.bindings[b], theirs.bindings[b], ("binding " + std::to_string(b)).c_str());
   const std::vector<bool> drawn = drawn_pixels(ours.colours[0]);
   const std::vector<uint32_t> marks = words_of(ours.bindings[0]);
   uint32_t count = 0, demoted = 0;
   for (uint32_t y = 0; y < size; y++)
      for (uint32_t x = 0; x < size; x++) {
         const uint32_t i = y * size + x;
         EXPECT_EQ(marks[i], drawn[i] ? 2u : 0u) << x << "," << y; /* 1 + an exact derivative */
         count += drawn[i];
         if (((x ^ y) & 1) && (drawn[i ^ 1] || (x > 0 && drawn[i - 1])))
            demoted++;
      }
   EXPECT_GT(count, 100u);
   EXPECT_GT(demoted, 100u) << "the checkerboard should have demoted pixels inside the triangle";
   EXPECT_EQ(words_of(ours.bindings[1])[0], count);
   EXPECT_EQ(words_of(ours.bindings[3])[0], count) << "pixels that are not helpers after the demote";
   EXPECT_GT(words_of(ours.bindings[2])[0], count + 100) << "every covered pixel before the demote";
}

TEST(FragmentStores, AtomicsWhoseResultsAreUsed)
{
   Scene scene;
   constexpr uint32_t slots = 2 * size * size;
   scene.bindings = {
      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {0}},
      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, std::vector<uint32_t>(slots, 0)},
      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, std::vector<uint32_t>(size * size, 0)},
      {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, {}, VK_FORMAT_R32_UINT},
      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, std::vector<uint32_t>(size * size, 0)},
   };
   scene.draws = {DrawStep{"coloured.vert", "fragment_stores_returns.frag", flat_triangles, 6, 2}};
   Result ours, theirs;
   render_both(scene, ours, theirs);
   if (HasFatalFailure())
      return;
   expect_same_bytes(ours.colours[0], theirs.colours[0], "colour");
   expect_same_bytes(ours.bindings[0], theirs.bindings[0], "slot count");
   expect_same_bytes(ours.bindings[2], theirs.bindings[2], "compare-exchanged words");
   expect_same_bytes(ours.bindings[3], theirs.bindings[3], "exchanged image");
   expect_same_bytes(ours.bindings[4], theirs.bindings[4], "totals");
   /* The claimed slots: each covered pixel twice, in an order of the device's own. */
   const std::vector<bool> drawn = drawn_pixels(ours.colours[0]);
   const uint32_t next = words_of(ours.bindings[0])[0];
   std::vector<uint32_t> claimed = words_of(ours.bindings[1]), reference = words_of(theirs.bindings[1]);
   std::vector<unsigned> times(size * size, 0);
   uint32_t covered = 0;
   for (uint32_t i = 0; i < size * size; i++)
      covered += drawn[i];
   ASSERT_EQ(next, 2 * covered);
   for (uint32_t s = 0; s < slots; s++) {
      if (s >= next) {
         EXPECT_EQ(claimed[s], 0u) << "slot " << s << " beyond the count";
         continue;
      }
      ASSERT_GE(claimed[s], 1u) << "slot " << s << " unclaimed";
      ASSERT_LE(claimed[s], size * size) << "slot " << s;
      times[claimed[s] - 1]++;
   }
   const std::vector<uint32_t> totals = words_of(ours.bindings[4]);
   for (uint32_t i = 0; i < size * size; i++) {
      EXPECT_EQ(times[i], drawn[i] ? 2u : 0u) << "pixel " << i % size << "," << i / size;
      EXPECT_EQ(totals[i], drawn[i] ? 14u : 0u) << "pixel " << i % size << "," << i / size;
   }
   std::sort(claimed.begin(), claimed.end());
   std::sort(reference.begin(), reference.end());
   EXPECT_EQ(claimed, reference) << "the multiset of claimed pixels";
}

/* A near plane drawn over the left half first; then a farther one over everything, with
 * stores, depth tested (LESS). */
Scene depth_scene(const char *fragment_shader)
{
   Scene scene;
   scene.depth_attachment = true;
   scene.bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, std::vector<uint32_t>(size * size, 0)},
                     {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {0}}};
   DrawStep near{"depth_plane.vert", "coloured.frag"};
   near.depth = 0.25f;
   near.viewport = {0, 0, float(size / 2), float(size), 0, 1};
   near.depth_test = true;
   DrawStep far{"depth_plane.vert", fragment_shader};
   far.depth = 0.5f;
   far.depth_test = true;
   scene.draws = {near, far};
   return scene;
}

TEST(FragmentStores, EarlyFragmentTestsKeepFailingPixelsFromWriting)
{
   Result ours, theirs;
   render_both(depth_scene("fragment_stores_early.frag"), ours, theirs);
   if (HasFatalFailure())
      return;
   expect_same_bytes(ours.colours[0], theirs.colours[0], "colour");
   expect_same_bytes(ours.bindings[0], theirs.bindings[0], "marks");
   expect_same_bytes(ours.bindings[1], theirs.bindings[1], "count");
   const std::vector<uint32_t> marks = words_of(ours.bindings[0]);
   for (uint32_t y = 0; y < size; y++)
      for (uint32_t x = 0; x < size; x++)
         EXPECT_EQ(marks[y * size + x], x < size / 2 ? 0u : 7u) << x << "," << y;
   EXPECT_EQ(words_of(ours.bindings[1])[0], size * size / 2);
}

TEST(FragmentStores, WithoutEarlyTestsStoresHappenWhateverTheDepthTestSays)
{
   Result ours, theirs;
   render_both(depth_scene("fragment_stores_late.frag"), ours, theirs);
   if (HasFatalFailure())
      return;
   expect_same_bytes(ours.colours[0], theirs.colours[0], "colour");
   expect_same_bytes(ours.bindings[0], theirs.bindings[0], "marks");
   expect_same_bytes(ours.bindings[1], theirs.bindings[1], "count");
   const std::vector<uint32_t> marks = words_of(ours.bindings[0]);
   for (uint32_t i = 0; i < size * size; i++)
      EXPECT_EQ(marks[i], 7u) << i % size << "," << i / size;
   EXPECT_EQ(words_of(ours.bindings[1])[0], size * size);
   /* The colour shows the late test: the left half keeps the near plane's colour. */
   const std::vector<uint8_t> &colour = ours.colours[0];
   EXPECT_EQ(colour[(5 * size + 3) * 4 + 2], 64u) << "near plane's z 0.25 in blue";
   EXPECT_GT(colour[(5 * size + 20) * 4 + 2], 120u) << "far plane's z 0.5 in blue";
}

/* A pixel shader writing RAT slot 4 fits beside three colour attachments (CB_COLOR7) and not
 * beside four (CB_COLOR8 is not a RAT a pixel shader can use). */
TEST(FragmentStores, PipelineWhoseRatsDoNotFitIsRefused)
{
   Gpu terakan("Terakan");
   ASSERT_TRUE(terakan.ok()) << terakan.error;
   Scene scene;
   for (unsigned b = 0; b < 5; b++)
      scene.bindings.push_back({VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, std::vector<uint32_t>(size, 0)});
   scene.draws = {DrawStep{"subpass_fullscreen.vert", "fragment_stores_slot.frag"}};
   scene.written_attachments = 1;
   std::string error;
   scene.colour_attachments = 3;
   const Result fits = render(terakan, scene, error);
   ASSERT_FALSE(fits.colours.empty()) << "three attachments: " << error;
   EXPECT_EQ(fits.messages, 0u);
   const std::vector<uint32_t> words = words_of(fits.bindings[4]);
   for (uint32_t x = 0; x < size; x++)
      EXPECT_EQ(words[x], 1u) << x;
   scene.colour_attachments = 4;
   const Result refused = render(terakan, scene, error);
   EXPECT_TRUE(refused.colours.empty());
   EXPECT_NE(refused.pipeline_result, VK_SUCCESS);
   EXPECT_EQ(refused.messages, 0u);
}

/* Dual-source blending beside memory writes: r600g moves its RATs past the second colour's
 * CB_COLOR1; Terakan refuses the combination (terakan_graphics_pipeline.cpp). */
TEST(FragmentStores, DualSourceBlendingWithMemoryWritesIsRefused)
{
   Gpu terakan("Terakan");
   ASSERT_TRUE(terakan.ok()) << terakan.error;
   Scene scene;
   scene.bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, std::vector<uint32_t>(size, 0)}};
   scene.draws = {DrawStep{"subpass_fullscreen.vert", "fragment_stores_dual_source.frag"}};
   std::string error;
   scene.dual_source = true;
   const Result refused = render(terakan, scene, error);
   EXPECT_TRUE(refused.colours.empty());
   EXPECT_EQ(refused.pipeline_result, VK_ERROR_FEATURE_NOT_PRESENT);
   EXPECT_EQ(refused.messages, 0u);
   /* Without the blending the same shader draws. */
   scene.dual_source = false;
   const Result drawn = render(terakan, scene, error);
   ASSERT_FALSE(drawn.colours.empty()) << error;
   EXPECT_EQ(words_of(drawn.bindings[0])[5], 1u);
}

} // namespace
