/* A DrawJob through the Vulkan loader (vulkan_draw_runner.h). Vulkan 1.1 (the test's SPIR-V
 * targets it), one render pass, host-visible vertex buffers, attachments copied to
 * host-visible buffers after the pass. */
#include "vulkan_draw_runner.h"

#include <cstdio>
#include <cstring>
#include <optional>

#include "../vulkan_helpers.h"

namespace terakan::test {

namespace {

VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                          VkDebugUtilsMessageTypeFlagsEXT type,
                                          const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
   if (is_validation_finding(severity, type)) {
      static_cast<VulkanDrawRunner *>(user)->count_validation_message();
      std::fprintf(stderr, "validation: %s\n", data->pMessage);
   }
   return VK_FALSE;
}

} // namespace

bool has_stencil(VkFormat format)
{
   return format == VK_FORMAT_D24_UNORM_S8_UINT || format == VK_FORMAT_D32_SFLOAT_S8_UINT;
}

unsigned texel_bytes(VkFormat format)
{
   switch (format) {
   case VK_FORMAT_R8_SNORM:
   case VK_FORMAT_R8_UINT:
   case VK_FORMAT_R8_SINT: return 1;
   case VK_FORMAT_R5G6B5_UNORM_PACK16:
   case VK_FORMAT_A1R5G5B5_UNORM_PACK16:
   case VK_FORMAT_R8G8_SNORM:
   case VK_FORMAT_R8G8_UINT:
   case VK_FORMAT_R8G8_SINT:
   case VK_FORMAT_R16_UINT:
   case VK_FORMAT_R16_SINT: return 2;
   case VK_FORMAT_R8G8B8A8_SNORM:
   case VK_FORMAT_A8B8G8R8_UNORM_PACK32:
   case VK_FORMAT_A8B8G8R8_SNORM_PACK32:
   case VK_FORMAT_A8B8G8R8_SRGB_PACK32:
   case VK_FORMAT_A8B8G8R8_UINT_PACK32:
   case VK_FORMAT_A8B8G8R8_SINT_PACK32:
   case VK_FORMAT_A2B10G10R10_UINT_PACK32:
   case VK_FORMAT_R16G16_UINT:
   case VK_FORMAT_R16G16_SINT: return 4;
   case VK_FORMAT_R16G16B16A16_UINT:
   case VK_FORMAT_R16G16B16A16_SINT:
   case VK_FORMAT_R32G32_SINT: return 8;
   case VK_FORMAT_R8G8B8A8_UNORM:
   case VK_FORMAT_R8G8B8A8_SRGB:
   case VK_FORMAT_B8G8R8A8_SRGB:
   case VK_FORMAT_B8G8R8A8_UNORM:
   case VK_FORMAT_A2B10G10R10_UNORM_PACK32:
   case VK_FORMAT_A2R10G10B10_UNORM_PACK32:
   case VK_FORMAT_B10G11R11_UFLOAT_PACK32: return 4;
   case VK_FORMAT_R32G32B32A32_SFLOAT:
   case VK_FORMAT_R32G32B32A32_UINT:
   case VK_FORMAT_R32G32B32A32_SINT: return 16;
   case VK_FORMAT_R32_UINT:
   case VK_FORMAT_R32_SINT:
   case VK_FORMAT_R32_SFLOAT: return 4;
   default: return 0;
   }
}

VulkanDrawRunner::VulkanDrawRunner(const char *name)
{
   /* The validation layer where it is installed (the test runs without it too). */
   const bool validation = has_instance_layer("VK_LAYER_KHRONOS_validation");
   /* The KHR form of the 1.1 queries, for devices that report Vulkan 1.0 (Terakan today): the
    * validation layer reads their format features through it. */
   std::vector<const char *> layers, extensions = {VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME};
   if (validation) {
      layers.push_back("VK_LAYER_KHRONOS_validation");
      extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
   }
   const VkDebugUtilsMessengerCreateInfoEXT messenger = validation_messenger_info(on_message, this);
   if (create_instance("terakan-compiler-graphics", VK_API_VERSION_1_1, layers, extensions,
                       validation ? &messenger : nullptr, instance_) != VK_SUCCESS) {
      error_ = "vkCreateInstance failed";
      instance_ = VK_NULL_HANDLE;
      return;
   }
   if (validation) {
      auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
         vkGetInstanceProcAddr(instance_, "vkCreateDebugUtilsMessengerEXT"));
      if (create)
         create(instance_, &messenger, nullptr, &messenger_);
   }
   physical_ = find_physical_device(instance_, name);
   if (!physical_) {
      error_ = std::string("no Vulkan device named '") + name + "' (for lavapipe: is mesa-vulkan-drivers installed?)";
      return;
   }
   const std::optional<uint32_t> family = find_queue_family(physical_, VK_QUEUE_GRAPHICS_BIT);
   if (!family) {
      error_ = std::string(name) + " has no graphics queue";
      return;
   }
   /* The features the graphics cases use, where offered (a case needing a missing one fails
    * with the validation layer's message). */
   VkPhysicalDeviceShaderDrawParametersFeatures draw_parameters{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DRAW_PARAMETERS_FEATURES};
   VkPhysicalDeviceProperties properties;
   vkGetPhysicalDeviceProperties(physical_, &properties);
   /* A Vulkan 1.0 device (Terakan today) is asked through the 1.0 commands only. */
   const bool vulkan_1_1 = properties.apiVersion >= VK_API_VERSION_1_1;
   VkPhysicalDeviceFeatures2 offered{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
   if (vulkan_1_1) {
      offered.pNext = &draw_parameters;
      vkGetPhysicalDeviceFeatures2(physical_, &offered);
   } else {
      vkGetPhysicalDeviceFeatures(physical_, &offered.features);
   }
   VkPhysicalDeviceFeatures2 enabled{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
   enabled.features.largePoints = offered.features.largePoints;
   enabled.features.shaderClipDistance = offered.features.shaderClipDistance;
   enabled.features.shaderCullDistance = offered.features.shaderCullDistance;
   enabled.features.logicOp = offered.features.logicOp;
   enabled.features.independentBlend = offered.features.independentBlend;
   enabled.features.depthClamp = offered.features.depthClamp;
   enabled.features.multiDrawIndirect = offered.features.multiDrawIndirect;
   enabled.features.dualSrcBlend = offered.features.dualSrcBlend;
   enabled.features.depthBiasClamp = offered.features.depthBiasClamp;
   enabled.features.wideLines = offered.features.wideLines;
   enabled.features.fillModeNonSolid = offered.features.fillModeNonSolid;
   enabled.features.drawIndirectFirstInstance = offered.features.drawIndirectFirstInstance;
   enabled.features.fullDrawIndexUint32 = offered.features.fullDrawIndexUint32;
   enabled.features.sampleRateShading = offered.features.sampleRateShading;
   enabled.pNext = vulkan_1_1 ? &draw_parameters : nullptr; /* as offered */
   /* On Vulkan 1.0 the draw parameters come from their extension, where offered; extended
    * dynamic state from its two extensions wherever both are offered. */
   std::vector<const char *> device_extensions;
   auto offers = [&](const char *name) { return has_device_extension(physical_, name); };
   if (!vulkan_1_1 && offers(VK_KHR_SHADER_DRAW_PARAMETERS_EXTENSION_NAME))
      device_extensions.push_back(VK_KHR_SHADER_DRAW_PARAMETERS_EXTENSION_NAME);
   /* Negative viewport heights (VK_KHR_maintenance1, core in 1.1). */
   if (!vulkan_1_1 && offers(VK_KHR_MAINTENANCE_1_EXTENSION_NAME))
      device_extensions.push_back(VK_KHR_MAINTENANCE_1_EXTENSION_NAME);
   VkPhysicalDeviceExtendedDynamicStateFeaturesEXT eds1{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_FEATURES_EXT};
   VkPhysicalDeviceExtendedDynamicState2FeaturesEXT eds2{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_2_FEATURES_EXT};
   const void *next = vulkan_1_1 ? &enabled : nullptr;
   if (offers(VK_EXT_EXTENDED_DYNAMIC_STATE_EXTENSION_NAME) && offers(VK_EXT_EXTENDED_DYNAMIC_STATE_2_EXTENSION_NAME)) {
      device_extensions.push_back(VK_EXT_EXTENDED_DYNAMIC_STATE_EXTENSION_NAME);
      device_extensions.push_back(VK_EXT_EXTENDED_DYNAMIC_STATE_2_EXTENSION_NAME);
      eds1.extendedDynamicState = VK_TRUE;
      eds2.extendedDynamicState2 = VK_TRUE;
      eds1.pNext = &eds2;
      eds2.pNext = const_cast<void *>(next);
      next = &eds1;
      extended_dynamic_state_ = true;
   }
   /* Fragment-shader barycentrics where offered (Terakan; lavapipe 22.3 has none). */
   VkPhysicalDeviceFragmentShaderBarycentricFeaturesKHR barycentric{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FRAGMENT_SHADER_BARYCENTRIC_FEATURES_KHR};
   if (offers(VK_KHR_FRAGMENT_SHADER_BARYCENTRIC_EXTENSION_NAME)) {
      device_extensions.push_back(VK_KHR_FRAGMENT_SHADER_BARYCENTRIC_EXTENSION_NAME);
      barycentric.fragmentShaderBarycentric = VK_TRUE;
      barycentric.pNext = const_cast<void *>(next);
      next = &barycentric;
   }
   /* Programmable sample locations where offered (Terakan; lavapipe 22.3 has none). */
   if (offers(VK_EXT_SAMPLE_LOCATIONS_EXTENSION_NAME)) {
      device_extensions.push_back(VK_EXT_SAMPLE_LOCATIONS_EXTENSION_NAME);
      sample_locations_ = true;
   }
   /* Conservative rasterization where offered (Terakan; lavapipe 22.3 has none). */
   if (offers(VK_EXT_CONSERVATIVE_RASTERIZATION_EXTENSION_NAME)) {
      device_extensions.push_back(VK_EXT_CONSERVATIVE_RASTERIZATION_EXTENSION_NAME);
      conservative_ = true;
   }
   /* Instance divisors, 0 included, where offered (both devices). */
   VkPhysicalDeviceVertexAttributeDivisorFeaturesEXT divisors{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_FEATURES_EXT};
   if (offers(VK_EXT_VERTEX_ATTRIBUTE_DIVISOR_EXTENSION_NAME)) {
      device_extensions.push_back(VK_EXT_VERTEX_ATTRIBUTE_DIVISOR_EXTENSION_NAME);
      divisors.vertexAttributeInstanceRateDivisor = VK_TRUE;
      divisors.vertexAttributeInstanceRateZeroDivisor = VK_TRUE;
      divisors.pNext = const_cast<void *>(next);
      next = &divisors;
   }
   /* Vertex input as dynamic state where offered (both devices). */
   VkPhysicalDeviceVertexInputDynamicStateFeaturesEXT vertex_input{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_INPUT_DYNAMIC_STATE_FEATURES_EXT};
   const bool dynamic_vertex_input = offers(VK_EXT_VERTEX_INPUT_DYNAMIC_STATE_EXTENSION_NAME);
   if (dynamic_vertex_input) {
      device_extensions.push_back(VK_EXT_VERTEX_INPUT_DYNAMIC_STATE_EXTENSION_NAME);
      vertex_input.vertexInputDynamicState = VK_TRUE;
      vertex_input.pNext = const_cast<void *>(next);
      next = &vertex_input;
   }
   /* Draw counts from a buffer where offered (both devices). */
   const bool indirect_count = offers(VK_KHR_DRAW_INDIRECT_COUNT_EXTENSION_NAME);
   if (indirect_count)
      device_extensions.push_back(VK_KHR_DRAW_INDIRECT_COUNT_EXTENSION_NAME);
   /* Demote and terminate where offered (both devices): the helper-invocation cases. */
   VkPhysicalDeviceShaderDemoteToHelperInvocationFeaturesEXT demote{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DEMOTE_TO_HELPER_INVOCATION_FEATURES_EXT};
   if (offers(VK_EXT_SHADER_DEMOTE_TO_HELPER_INVOCATION_EXTENSION_NAME)) {
      device_extensions.push_back(VK_EXT_SHADER_DEMOTE_TO_HELPER_INVOCATION_EXTENSION_NAME);
      demote.shaderDemoteToHelperInvocation = VK_TRUE;
      demote.pNext = const_cast<void *>(next);
      next = &demote;
   }
   VkPhysicalDeviceShaderTerminateInvocationFeaturesKHR terminate{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_TERMINATE_INVOCATION_FEATURES_KHR};
   if (offers(VK_KHR_SHADER_TERMINATE_INVOCATION_EXTENSION_NAME)) {
      device_extensions.push_back(VK_KHR_SHADER_TERMINATE_INVOCATION_EXTENSION_NAME);
      terminate.shaderTerminateInvocation = VK_TRUE;
      terminate.pNext = const_cast<void *>(next);
      next = &terminate;
   }
   if (create_device(physical_, *family, next, vulkan_1_1 ? nullptr : &enabled.features, device_extensions,
                     device_) != VK_SUCCESS) {
      error_ = "vkCreateDevice failed";
      device_ = VK_NULL_HANDLE;
      return;
   }
   if (dynamic_vertex_input)
      set_vertex_input_ = reinterpret_cast<PFN_vkCmdSetVertexInputEXT>(vkGetDeviceProcAddr(device_, "vkCmdSetVertexInputEXT"));
   if (indirect_count) {
      draw_indirect_count_ = reinterpret_cast<PFN_vkCmdDrawIndirectCountKHR>(
         vkGetDeviceProcAddr(device_, "vkCmdDrawIndirectCountKHR"));
      draw_indexed_indirect_count_ = reinterpret_cast<PFN_vkCmdDrawIndexedIndirectCountKHR>(
         vkGetDeviceProcAddr(device_, "vkCmdDrawIndexedIndirectCountKHR"));
   }
   vkGetDeviceQueue(device_, *family, 0, &queue_);
   VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
   pool_info.queueFamilyIndex = *family;
   vkCreateCommandPool(device_, &pool_info, nullptr, &pool_);
}

VulkanDrawRunner::~VulkanDrawRunner()
{
   if (device_) {
      vkDeviceWaitIdle(device_);
      vkDestroyCommandPool(device_, pool_, nullptr);
      vkDestroyDevice(device_, nullptr);
   }
   if (messenger_) {
      auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
         vkGetInstanceProcAddr(instance_, "vkDestroyDebugUtilsMessengerEXT"));
      if (destroy)
         destroy(instance_, messenger_, nullptr);
   }
   if (instance_)
      destroy_instance(instance_);
}

bool VulkanDrawRunner::make_buffer(VkDeviceSize size, VkBufferUsageFlags usage, Buffer &buffer)
{
   return create_host_buffer(physical_, device_, size, usage, buffer.buffer, buffer.memory, buffer.map);
}

bool VulkanDrawRunner::make_image(VkFormat format, VkImageUsageFlags usage, VkImageAspectFlags aspect,
                                  uint32_t width, uint32_t height, Image &image, VkSampleCountFlagBits samples)
{
   return create_image_2d(physical_, device_, format, usage | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, aspect, width, height,
                          samples, image);
}

void VulkanDrawRunner::destroy(Buffer &buffer)
{
   vkDestroyBuffer(device_, buffer.buffer, nullptr);
   vkFreeMemory(device_, buffer.memory, nullptr);
   buffer = {};
}

void VulkanDrawRunner::destroy(Image &image)
{
   destroy_image_2d(device_, image);
}

bool VulkanDrawRunner::run(const DrawJob &job, DrawImages &images, std::string &error)
{
   /* Everything made here is destroyed at the end, whatever failed. */
   std::vector<Buffer> vertex_buffers(job.attributes.size()), readbacks(job.targets.size() + 1);
   Buffer stencil_readback;
   const bool stencil_aspect = job.depth && has_stencil(job.depth_format);
   Buffer index_buffer, indirect_buffer, count_buffer, uniform_buffer, staging;
   Image texture;
   VkSampler sampler = VK_NULL_HANDLE;
   VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
   VkDescriptorPool descriptor_pool = VK_NULL_HANDLE;
   VkDescriptorSet descriptor_set = VK_NULL_HANDLE;
   const bool has_texture = !job.texture.texels.empty();
   const bool has_descriptors = has_texture || !job.uniform_data.empty() || !job.texel_buffers.empty();
   std::vector<Buffer> texel_buffers(job.texel_buffers.size());
   std::vector<VkBufferView> texel_views(job.texel_buffers.size(), VK_NULL_HANDLE);
   std::vector<Image> targets(job.targets.size());
   /* Multisampled jobs: the single-sample images the colour attachments resolve into. */
   const bool multisampled = job.samples != VK_SAMPLE_COUNT_1_BIT;
   std::vector<Image> resolved(multisampled ? job.targets.size() : 0);
   Image depth;
   VkRenderPass render_pass = VK_NULL_HANDLE;
   VkFramebuffer framebuffer = VK_NULL_HANDLE;
   VkShaderModule modules[2] = {VK_NULL_HANDLE, VK_NULL_HANDLE};
   VkPipelineLayout layout = VK_NULL_HANDLE;
   VkPipeline pipeline = VK_NULL_HANDLE;
   VkCommandBuffer commands = VK_NULL_HANDLE, secondary = VK_NULL_HANDLE;
   bool ok = [&]() {
      for (size_t a = 0; a < job.attributes.size(); a++) {
         const auto &attribute = job.attributes[a];
         if (!make_buffer(std::max<size_t>(attribute.data.size(), 16), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
                          vertex_buffers[a])) {
            error = "vertex buffer creation failed";
            return false;
         }
         std::memcpy(vertex_buffers[a].map, attribute.data.data(), attribute.data.size());
      }
      if (!job.indices.empty()) {
         const size_t bytes = job.indices.size() * (job.index_32bit ? 4 : 2);
         if (!make_buffer(std::max<size_t>(bytes, 16), VK_BUFFER_USAGE_INDEX_BUFFER_BIT, index_buffer)) {
            error = "index buffer creation failed";
            return false;
         }
         for (size_t i = 0; i < job.indices.size(); i++) {
            if (job.index_32bit)
               static_cast<uint32_t *>(index_buffer.map)[i] = job.indices[i];
            else
               static_cast<uint16_t *>(index_buffer.map)[i] = uint16_t(job.indices[i]);
         }
      }
      if (job.indirect) {
         if (!make_buffer(job.indirect_offset + 32 * job.indirect_draw_count + 64, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
                          indirect_buffer)) {
            error = "indirect buffer creation failed";
            return false;
         }
         if (job.use_indirect_count) {
            if (!draw_indirect_count_ || !draw_indexed_indirect_count_) {
               error = "VK_KHR_draw_indirect_count is not offered";
               return false;
            }
            if (!make_buffer(job.indirect_count_offset + 4, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, count_buffer)) {
               error = "count buffer creation failed";
               return false;
            }
            std::memcpy(static_cast<uint8_t *>(count_buffer.map) + job.indirect_count_offset, &job.indirect_count, 4);
         }
         const uint32_t draws = std::max(job.indirect_draw_count, 1u);
         const uint32_t total = job.indices.empty() ? job.vertex_count : uint32_t(job.indices.size());
         const uint32_t run = (total / 3 + draws - 1) / draws * 3; /* whole triangles per draw */
         for (uint32_t d = 0; d < draws; d++) {
            auto *record = static_cast<uint8_t *>(indirect_buffer.map) + job.indirect_offset + 32 * d;
            const uint32_t first = std::min(total, d * run), count = std::min(total - first, run);
            if (job.indices.empty()) {
               const VkDrawIndirectCommand command{count, job.instance_count, job.first_vertex + first,
                                                   job.first_instance};
               std::memcpy(record, &command, sizeof(command));
            } else {
               const VkDrawIndexedIndirectCommand command{count, job.instance_count, first,
                                                          int32_t(job.first_vertex), job.first_instance};
               std::memcpy(record, &command, sizeof(command));
            }
         }
      }
      std::vector<VkAttachmentDescription> attachments;
      std::vector<VkAttachmentReference> colour_refs;
      std::vector<VkImageView> views;
      /* Colour and depth attachments alike: cleared by the pass, stored, then left in the
       * layout of the copy to `readback` after it. */
      auto add_attachment = [&](VkFormat format, VkImageUsageFlags usage, VkImageAspectFlags aspect, unsigned bytes,
                                Image &image, Buffer &readback) {
         if (!make_image(format, usage, aspect, job.width, job.height, image, job.samples) ||
             !make_buffer(VkDeviceSize(job.width) * job.height * bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, readback))
            return false;
         VkAttachmentDescription attachment{};
         attachment.format = format;
         attachment.samples = job.samples;
         attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
         attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
         attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
         attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
         attachment.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
         attachment.finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
         attachments.push_back(attachment);
         views.push_back(image.view);
         return true;
      };
      for (size_t t = 0; t < job.targets.size(); t++) {
         const VkFormat format = job.targets[t].format;
         if (!texel_bytes(format) || !add_attachment(format, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, VK_IMAGE_ASPECT_COLOR_BIT,
                                                     texel_bytes(format), targets[t], readbacks[t])) {
            error = "colour attachment creation failed";
            return false;
         }
         colour_refs.push_back({uint32_t(t), VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL});
      }
      VkAttachmentReference depth_ref{uint32_t(job.targets.size()), VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
      const unsigned depth_bytes = job.depth_format == VK_FORMAT_D16_UNORM ? 2 : 4;
      const VkImageAspectFlags depth_aspects =
         VK_IMAGE_ASPECT_DEPTH_BIT | (stencil_aspect ? VK_IMAGE_ASPECT_STENCIL_BIT : 0);
      const VkImageUsageFlags depth_usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT |
                                            (job.depth_cleared_by_command ? VK_IMAGE_USAGE_TRANSFER_DST_BIT : 0);
      if (job.depth && !add_attachment(job.depth_format, depth_usage, depth_aspects,
                                       depth_bytes, depth, readbacks.back())) {
         error = "depth attachment creation failed";
         return false;
      }
      if (job.depth && job.depth_cleared_by_command) {
         attachments.back().loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
         attachments.back().initialLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
      }
      /* Multisampled: the colour attachments stay in their layout (for vkCmdResolveImage: the
       * transfer source layout), each resolved into a single-sample attachment after the
       * others (the subpass's resolve attachments) unless resolve_by_command. */
      std::vector<VkAttachmentReference> resolve_refs;
      for (size_t t = 0; t < resolved.size(); t++) {
         attachments[t].finalLayout = job.resolve_by_command ? VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL
                                                             : VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
         if (!make_image(job.targets[t].format,
                         VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, VK_IMAGE_ASPECT_COLOR_BIT,
                         job.width, job.height, resolved[t])) {
            error = "resolve image creation failed";
            return false;
         }
         if (job.resolve_by_command)
            continue;
         VkAttachmentDescription attachment{};
         attachment.format = job.targets[t].format;
         attachment.samples = VK_SAMPLE_COUNT_1_BIT;
         attachment.loadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
         attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
         attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
         attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
         attachment.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
         attachment.finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
         resolve_refs.push_back({uint32_t(attachments.size()), VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL});
         attachments.push_back(attachment);
         views.push_back(resolved[t].view);
      }
      if (stencil_aspect) {
         attachments[depth_ref.attachment].stencilLoadOp =
            job.depth_cleared_by_command ? VK_ATTACHMENT_LOAD_OP_LOAD : VK_ATTACHMENT_LOAD_OP_CLEAR;
         attachments[depth_ref.attachment].stencilStoreOp = VK_ATTACHMENT_STORE_OP_STORE;
         if (!make_buffer(VkDeviceSize(job.width) * job.height, VK_BUFFER_USAGE_TRANSFER_DST_BIT, stencil_readback)) {
            error = "stencil readback buffer creation failed";
            return false;
         }
      }
      VkSubpassDescription subpass{};
      subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
      subpass.colorAttachmentCount = uint32_t(colour_refs.size());
      subpass.pColorAttachments = colour_refs.data();
      subpass.pResolveAttachments = resolve_refs.empty() ? nullptr : resolve_refs.data();
      subpass.pDepthStencilAttachment = job.depth ? &depth_ref : nullptr;
      /* The copies after the pass wait for its attachment writes. */
      VkSubpassDependency dependency{};
      dependency.srcSubpass = 0;
      dependency.dstSubpass = VK_SUBPASS_EXTERNAL;
      dependency.srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
      dependency.dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
      dependency.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
      dependency.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
      /* The pass's loads wait for the clears before it. */
      VkSubpassDependency dependencies[2] = {dependency, {}};
      dependencies[1].srcSubpass = VK_SUBPASS_EXTERNAL;
      dependencies[1].dstSubpass = 0;
      dependencies[1].srcStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
      dependencies[1].dstStageMask =
         VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
      dependencies[1].srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
      dependencies[1].dstAccessMask =
         VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
      VkRenderPassCreateInfo pass_info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
      pass_info.attachmentCount = uint32_t(attachments.size());
      pass_info.pAttachments = attachments.data();
      pass_info.subpassCount = 1;
      pass_info.pSubpasses = &subpass;
      pass_info.dependencyCount = job.depth && job.depth_cleared_by_command ? 2 : 1;
      pass_info.pDependencies = dependencies;
      if (vkCreateRenderPass(device_, &pass_info, nullptr, &render_pass) != VK_SUCCESS) {
         error = "vkCreateRenderPass failed";
         return false;
      }
      VkFramebufferCreateInfo framebuffer_info{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
      framebuffer_info.renderPass = render_pass;
      framebuffer_info.attachmentCount = uint32_t(views.size());
      framebuffer_info.pAttachments = views.data();
      framebuffer_info.width = job.width;
      framebuffer_info.height = job.height;
      framebuffer_info.layers = 1;
      if (vkCreateFramebuffer(device_, &framebuffer_info, nullptr, &framebuffer) != VK_SUCCESS) {
         error = "vkCreateFramebuffer failed";
         return false;
      }
      /* No fragment SPIR-V: a pipeline of the vertex stage alone (depth-only drawing). */
      const unsigned stage_count = job.fragment_spirv.empty() ? 1 : 2;
      for (unsigned s = 0; s < stage_count; s++) {
         const std::vector<uint32_t> &code = s ? job.fragment_spirv : job.vertex_spirv;
         VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
         module_info.codeSize = code.size() * 4;
         module_info.pCode = code.data();
         if (vkCreateShaderModule(device_, &module_info, nullptr, &modules[s]) != VK_SUCCESS) {
            error = "vkCreateShaderModule failed";
            return false;
         }
      }
      if (has_descriptors) {
         std::vector<VkDescriptorSetLayoutBinding> bindings;
         std::vector<VkDescriptorPoolSize> sizes;
         if (!job.uniform_data.empty()) {
            bindings.push_back({0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_ALL_GRAPHICS, nullptr});
            sizes.push_back({VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1});
            if (!make_buffer(std::max<size_t>(job.uniform_data.size(), 16), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
                             uniform_buffer)) {
               error = "uniform buffer creation failed";
               return false;
            }
            std::memcpy(uniform_buffer.map, job.uniform_data.data(), job.uniform_data.size());
         }
         if (has_texture) {
            bindings.push_back({1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_ALL_GRAPHICS, nullptr});
            sizes.push_back({VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1});
            if (!make_image(job.texture.format, VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                            VK_IMAGE_ASPECT_COLOR_BIT, job.texture.width, job.texture.height, texture) ||
                !make_buffer(job.texture.texels.size(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT, staging)) {
               error = "texture creation failed";
               return false;
            }
            std::memcpy(staging.map, job.texture.texels.data(), job.texture.texels.size());
            VkSamplerCreateInfo sampler_info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
            sampler_info.magFilter = sampler_info.minFilter = job.texture.filter;
            sampler_info.addressModeU = sampler_info.addressModeV = sampler_info.addressModeW = job.texture.address;
            sampler_info.maxLod = 0.25f;
            if (job.texture.unnormalized) {
               sampler_info.unnormalizedCoordinates = VK_TRUE;
               sampler_info.addressModeU = sampler_info.addressModeV = sampler_info.addressModeW =
                  VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
               sampler_info.maxLod = 0.0f;
            }
            if (vkCreateSampler(device_, &sampler_info, nullptr, &sampler) != VK_SUCCESS) {
               error = "vkCreateSampler failed";
               return false;
            }
         }
         for (size_t t = 0; t < job.texel_buffers.size(); t++) {
            const DrawJob::TexelBuffer &texel = job.texel_buffers[t];
            bindings.push_back({uint32_t(2 + t), texel.type, 1, VK_SHADER_STAGE_ALL_GRAPHICS, nullptr});
            sizes.push_back({texel.type, 1});
            const VkBufferUsageFlags usage = texel.type == VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER
                                                ? VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT
                                                : VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT;
            if (!make_buffer(texel.buffer_bytes, usage, texel_buffers[t])) {
               error = "texel buffer creation failed";
               return false;
            }
            std::memset(texel_buffers[t].map, 0, texel.buffer_bytes);
            VkBufferViewCreateInfo view_info{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
            view_info.buffer = texel_buffers[t].buffer;
            view_info.format = texel.format;
            view_info.offset = texel.offset;
            view_info.range = texel.range;
            if (vkCreateBufferView(device_, &view_info, nullptr, &texel_views[t]) != VK_SUCCESS) {
               error = "vkCreateBufferView failed";
               return false;
            }
         }
         VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
         set_info.bindingCount = uint32_t(bindings.size());
         set_info.pBindings = bindings.data();
         VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
         pool_info.maxSets = 1;
         pool_info.poolSizeCount = uint32_t(sizes.size());
         pool_info.pPoolSizes = sizes.data();
         VkDescriptorSetAllocateInfo allocate_set{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
         if (vkCreateDescriptorSetLayout(device_, &set_info, nullptr, &set_layout) != VK_SUCCESS ||
             vkCreateDescriptorPool(device_, &pool_info, nullptr, &descriptor_pool) != VK_SUCCESS) {
            error = "descriptor set layout or pool creation failed";
            return false;
         }
         allocate_set.descriptorPool = descriptor_pool;
         allocate_set.descriptorSetCount = 1;
         allocate_set.pSetLayouts = &set_layout;
         if (vkAllocateDescriptorSets(device_, &allocate_set, &descriptor_set) != VK_SUCCESS) {
            error = "vkAllocateDescriptorSets failed";
            return false;
         }
         const VkDescriptorBufferInfo buffer_info{uniform_buffer.buffer, 0, VK_WHOLE_SIZE};
         const VkDescriptorImageInfo image_info{sampler, texture.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
         std::vector<VkWriteDescriptorSet> writes;
         if (!job.uniform_data.empty()) {
            VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
            write.dstSet = descriptor_set;
            write.dstBinding = 0;
            write.descriptorCount = 1;
            write.descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
            write.pBufferInfo = &buffer_info;
            writes.push_back(write);
         }
         if (has_texture) {
            VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
            write.dstSet = descriptor_set;
            write.dstBinding = 1;
            write.descriptorCount = 1;
            write.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
            write.pImageInfo = &image_info;
            writes.push_back(write);
         }
         for (size_t t = 0; t < job.texel_buffers.size(); t++) {
            VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
            write.dstSet = descriptor_set;
            write.dstBinding = uint32_t(2 + t);
            write.descriptorCount = 1;
            write.descriptorType = job.texel_buffers[t].type;
            write.pTexelBufferView = &texel_views[t];
            writes.push_back(write);
         }
         vkUpdateDescriptorSets(device_, uint32_t(writes.size()), writes.data(), 0, nullptr);
      }
      VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
      const VkPushConstantRange push_range{VK_SHADER_STAGE_ALL_GRAPHICS, 0, uint32_t(job.push_constants.size())};
      if (has_descriptors) {
         layout_info.setLayoutCount = 1;
         layout_info.pSetLayouts = &set_layout;
      }
      if (!job.push_constants.empty()) {
         layout_info.pushConstantRangeCount = 1;
         layout_info.pPushConstantRanges = &push_range;
      }
      if (vkCreatePipelineLayout(device_, &layout_info, nullptr, &layout) != VK_SUCCESS) {
         error = "vkCreatePipelineLayout failed";
         return false;
      }
      VkPipelineShaderStageCreateInfo stages[2]{};
      for (unsigned s = 0; s < 2; s++) {
         stages[s].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
         stages[s].stage = s ? VK_SHADER_STAGE_FRAGMENT_BIT : VK_SHADER_STAGE_VERTEX_BIT;
         stages[s].module = modules[s];
         stages[s].pName = "main";
      }
      std::vector<VkVertexInputBindingDescription> bindings;
      std::vector<VkVertexInputAttributeDescription> attribute_descriptions;
      for (size_t a = 0; a < job.attributes.size(); a++) {
         const auto &attribute = job.attributes[a];
         bindings.push_back({uint32_t(a), attribute.stride, attribute.rate});
         attribute_descriptions.push_back({attribute.location, uint32_t(a), attribute.format, 0});
      }
      VkPipelineVertexInputStateCreateInfo vertex_input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
      vertex_input.vertexBindingDescriptionCount = uint32_t(bindings.size());
      vertex_input.pVertexBindingDescriptions = bindings.data();
      vertex_input.vertexAttributeDescriptionCount = uint32_t(attribute_descriptions.size());
      vertex_input.pVertexAttributeDescriptions = attribute_descriptions.data();
      std::vector<VkVertexInputBindingDivisorDescriptionEXT> divisors;
      for (size_t a = 0; a < job.attributes.size(); a++)
         if (job.attributes[a].rate == VK_VERTEX_INPUT_RATE_INSTANCE && job.attributes[a].divisor != 1)
            divisors.push_back({uint32_t(a), job.attributes[a].divisor});
      VkPipelineVertexInputDivisorStateCreateInfoEXT divisor_state{
         VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_DIVISOR_STATE_CREATE_INFO_EXT};
      divisor_state.vertexBindingDivisorCount = uint32_t(divisors.size());
      divisor_state.pVertexBindingDivisors = divisors.data();
      if (!divisors.empty())
         vertex_input.pNext = &divisor_state;
      VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
      assembly.topology = job.topology;
      assembly.primitiveRestartEnable = job.primitive_restart;
      const VkViewport viewport =
         job.custom_viewport ? job.viewport : VkViewport{0, 0, float(job.width), float(job.height), 0, 1};
      const VkRect2D whole{{0, 0}, {job.width, job.height}};
      const VkRect2D scissor = job.custom_scissor ? job.scissor : whole;
      VkPipelineViewportStateCreateInfo viewport_state{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
      viewport_state.viewportCount = 1;
      viewport_state.pViewports = &viewport;
      viewport_state.scissorCount = 1;
      viewport_state.pScissors = &scissor;
      VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
      raster.polygonMode = job.polygon_mode;
      raster.cullMode = job.cull_mode;
      raster.frontFace = job.front_face;
      raster.lineWidth = job.line_width;
      raster.depthBiasEnable = job.depth_bias;
      raster.depthClampEnable = job.depth_clamp;
      raster.depthBiasConstantFactor = job.depth_bias_constant;
      raster.depthBiasSlopeFactor = job.depth_bias_slope;
      raster.depthBiasClamp = job.depth_bias_clamp;
      VkPipelineRasterizationConservativeStateCreateInfoEXT conservative{
         VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_CONSERVATIVE_STATE_CREATE_INFO_EXT};
      if (job.conservative != VK_CONSERVATIVE_RASTERIZATION_MODE_DISABLED_EXT) {
         if (!conservative_) {
            error = "VK_EXT_conservative_rasterization is not offered";
            return false;
         }
         conservative.conservativeRasterizationMode = job.conservative;
         conservative.extraPrimitiveOverestimationSize = job.extra_overestimation;
         raster.pNext = &conservative;
      }
      VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
      multisample.rasterizationSamples = job.samples;
      multisample.pSampleMask = &job.sample_mask;
      multisample.alphaToCoverageEnable = job.alpha_to_coverage;
      multisample.sampleShadingEnable = job.sample_shading;
      multisample.minSampleShading = job.min_sample_shading;
      VkPipelineSampleLocationsStateCreateInfoEXT locations_state{
         VK_STRUCTURE_TYPE_PIPELINE_SAMPLE_LOCATIONS_STATE_CREATE_INFO_EXT};
      if (!job.sample_locations.empty()) {
         if (!sample_locations_) {
            error = "VK_EXT_sample_locations is not offered";
            return false;
         }
         locations_state.sampleLocationsEnable = VK_TRUE;
         locations_state.sampleLocationsInfo.sType = VK_STRUCTURE_TYPE_SAMPLE_LOCATIONS_INFO_EXT;
         locations_state.sampleLocationsInfo.sampleLocationsPerPixel = job.samples;
         locations_state.sampleLocationsInfo.sampleLocationGridSize = {1, 1};
         locations_state.sampleLocationsInfo.sampleLocationsCount = uint32_t(job.sample_locations.size());
         locations_state.sampleLocationsInfo.pSampleLocations = job.sample_locations.data();
         multisample.pNext = &locations_state;
      }
      VkPipelineDepthStencilStateCreateInfo depth_state{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
      depth_state.depthTestEnable = VK_TRUE;
      depth_state.depthWriteEnable = job.depth_write;
      depth_state.depthCompareOp = job.depth_compare;
      auto stencil_state = [](const DrawJob::StencilFace &face) {
         return VkStencilOpState{face.fail,         face.pass,       face.depth_fail, face.compare,
                                 face.compare_mask, face.write_mask, face.reference};
      };
      depth_state.stencilTestEnable = job.stencil;
      depth_state.front = stencil_state(job.stencil_front);
      depth_state.back = stencil_state(job.stencil_back);
      std::vector<VkPipelineColorBlendAttachmentState> blend(job.targets.size());
      for (size_t t = 0; t < blend.size(); t++) {
         blend[t].colorWriteMask = 0xf;
         if (job.blend)
            blend[t] = job.blend_state;
         if (t < job.blend_states.size())
            blend[t] = job.blend_states[t];
      }
      VkPipelineColorBlendStateCreateInfo blend_state{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
      std::memcpy(blend_state.blendConstants, job.blend_constants, sizeof(job.blend_constants));
      blend_state.logicOpEnable = job.logic_op;
      blend_state.logicOp = job.logic;
      blend_state.attachmentCount = uint32_t(blend.size());
      blend_state.pAttachments = blend.data();
      /* Extended dynamic state: the pipeline says the opposite of what the commands set. */
      std::vector<VkDynamicState> dynamic_states;
      VkPipelineDynamicStateCreateInfo dynamic_info{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
      if (job.extended_dynamic_state) {
         if (!extended_dynamic_state_) {
            error = "the device does not offer extended dynamic state";
            return false;
         }
         dynamic_states = {VK_DYNAMIC_STATE_CULL_MODE_EXT,
                           VK_DYNAMIC_STATE_FRONT_FACE_EXT,
                           VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY_EXT,
                           VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE_EXT,
                           VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE_EXT,
                           VK_DYNAMIC_STATE_DEPTH_COMPARE_OP_EXT,
                           VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE_EXT,
                           VK_DYNAMIC_STATE_DEPTH_BIAS_ENABLE_EXT};
         dynamic_info.dynamicStateCount = uint32_t(dynamic_states.size());
         dynamic_info.pDynamicStates = dynamic_states.data();
         raster.cullMode = job.cull_mode ^ VK_CULL_MODE_FRONT_AND_BACK;
         raster.frontFace = job.front_face == VK_FRONT_FACE_CLOCKWISE ? VK_FRONT_FACE_COUNTER_CLOCKWISE
                                                                       : VK_FRONT_FACE_CLOCKWISE;
         depth_state.depthTestEnable = !job.depth;
         depth_state.depthWriteEnable = !job.depth_write;
         depth_state.depthCompareOp = VK_COMPARE_OP_NEVER;
         /* Lists may not have restart enabled, even as a value the dynamic state replaces. */
         const bool strip = job.topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP ||
                            job.topology == VK_PRIMITIVE_TOPOLOGY_LINE_STRIP ||
                            job.topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN;
         assembly.primitiveRestartEnable = strip && !job.primitive_restart;
         raster.depthBiasEnable = !job.depth_bias;
      }
      if (job.dynamic_stencil) {
         if (!extended_dynamic_state_) {
            error = "the device does not offer extended dynamic state";
            return false;
         }
         for (VkDynamicState state : {VK_DYNAMIC_STATE_STENCIL_TEST_ENABLE_EXT, VK_DYNAMIC_STATE_STENCIL_OP_EXT,
                                      VK_DYNAMIC_STATE_STENCIL_REFERENCE, VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK,
                                      VK_DYNAMIC_STATE_STENCIL_WRITE_MASK})
            dynamic_states.push_back(state);
         dynamic_info.dynamicStateCount = uint32_t(dynamic_states.size());
         dynamic_info.pDynamicStates = dynamic_states.data();
         depth_state.stencilTestEnable = !job.stencil;
         depth_state.front = depth_state.back = VkStencilOpState{VK_STENCIL_OP_KEEP, VK_STENCIL_OP_KEEP,
                                                                 VK_STENCIL_OP_KEEP, VK_COMPARE_OP_NEVER, 0, 0, 0};
      }
      if (job.dynamic_vertex_input) {
         if (!set_vertex_input_) {
            error = "the device does not offer VK_EXT_vertex_input_dynamic_state";
            return false;
         }
         dynamic_states.push_back(VK_DYNAMIC_STATE_VERTEX_INPUT_EXT);
         dynamic_info.dynamicStateCount = uint32_t(dynamic_states.size());
         dynamic_info.pDynamicStates = dynamic_states.data();
      }
      VkGraphicsPipelineCreateInfo pipeline_info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
      pipeline_info.pDynamicState = dynamic_states.empty() ? nullptr : &dynamic_info;
      pipeline_info.stageCount = stage_count;
      pipeline_info.pStages = stages;
      pipeline_info.pVertexInputState = job.dynamic_vertex_input ? nullptr : &vertex_input;
      pipeline_info.pInputAssemblyState = &assembly;
      pipeline_info.pViewportState = &viewport_state;
      pipeline_info.pRasterizationState = &raster;
      pipeline_info.pMultisampleState = &multisample;
      pipeline_info.pDepthStencilState = job.depth ? &depth_state : nullptr;
      pipeline_info.pColorBlendState = &blend_state;
      pipeline_info.layout = layout;
      pipeline_info.renderPass = render_pass;
      if (vkCreateGraphicsPipelines(device_, VK_NULL_HANDLE, 1, &pipeline_info, nullptr, &pipeline) != VK_SUCCESS) {
         error = "vkCreateGraphicsPipelines failed";
         return false;
      }

      VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
      allocate.commandPool = pool_;
      allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
      allocate.commandBufferCount = 1;
      vkAllocateCommandBuffers(device_, &allocate, &commands);
      VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
      vkBeginCommandBuffer(commands, &begin);
      if (has_texture) {
         /* The texels into the texture, then the texture ready for sampling. */
         VkImageMemoryBarrier to_copy{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
         to_copy.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
         to_copy.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
         to_copy.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
         to_copy.srcQueueFamilyIndex = to_copy.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
         to_copy.image = texture.image;
         to_copy.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
         vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr,
                              0, nullptr, 1, &to_copy);
         VkBufferImageCopy region{};
         region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
         region.imageExtent = {job.texture.width, job.texture.height, 1};
         vkCmdCopyBufferToImage(commands, staging.buffer, texture.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
                                &region);
         VkImageMemoryBarrier to_sample = to_copy;
         to_sample.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
         to_sample.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
         to_sample.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
         to_sample.newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
         vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_VERTEX_SHADER_BIT, 0, 0,
                              nullptr, 0, nullptr, 1, &to_sample);
      }
      if (job.depth && job.depth_cleared_by_command) {
         VkImageMemoryBarrier to_clear{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
         to_clear.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
         to_clear.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
         to_clear.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
         to_clear.srcQueueFamilyIndex = to_clear.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
         to_clear.image = depth.image;
         to_clear.subresourceRange = {depth_aspects, 0, 1, 0, 1};
         vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr,
                              0, nullptr, 1, &to_clear);
         const VkImageSubresourceRange depth_range{VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1};
         const VkClearDepthStencilValue depth_value{job.depth_clear, (job.stencil_clear + 0x55) & 0xff};
         vkCmdClearDepthStencilImage(commands, depth.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &depth_value, 1,
                                     &depth_range);
         if (stencil_aspect) {
            const VkImageSubresourceRange stencil_range{VK_IMAGE_ASPECT_STENCIL_BIT, 0, 1, 0, 1};
            const VkClearDepthStencilValue stencil_value{1.0f - job.depth_clear, job.stencil_clear};
            vkCmdClearDepthStencilImage(commands, depth.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &stencil_value, 1,
                                        &stencil_range);
         }
      }
      std::vector<VkClearValue> clears;
      for (const auto &target : job.targets)
         clears.push_back(VkClearValue{.color = target.clear});
      if (job.depth)
         clears.push_back(VkClearValue{.depthStencil = {job.depth_clear, job.stencil_clear}});
      VkRenderPassBeginInfo pass_begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
      pass_begin.renderPass = render_pass;
      pass_begin.framebuffer = framebuffer;
      pass_begin.renderArea = whole;
      pass_begin.clearValueCount = uint32_t(clears.size());
      pass_begin.pClearValues = clears.data();
      /* With vertex_input_in_secondary the pass's commands go to a secondary command buffer:
       * `commands` names it until the primary executes it. */
      const VkCommandBuffer primary = commands;
      if (job.vertex_input_in_secondary) {
         allocate.level = VK_COMMAND_BUFFER_LEVEL_SECONDARY;
         vkAllocateCommandBuffers(device_, &allocate, &secondary);
         VkCommandBufferInheritanceInfo inheritance{VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
         inheritance.renderPass = render_pass;
         inheritance.framebuffer = framebuffer;
         VkCommandBufferBeginInfo secondary_begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
         secondary_begin.flags = VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT;
         secondary_begin.pInheritanceInfo = &inheritance;
         vkBeginCommandBuffer(secondary, &secondary_begin);
         vkCmdBeginRenderPass(primary, &pass_begin, VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS);
         commands = secondary;
      } else {
         vkCmdBeginRenderPass(commands, &pass_begin, VK_SUBPASS_CONTENTS_INLINE);
      }
      vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
      if (job.extended_dynamic_state) {
         auto proc = [&](const char *name) { return vkGetDeviceProcAddr(device_, name); };
         reinterpret_cast<PFN_vkCmdSetCullModeEXT>(proc("vkCmdSetCullModeEXT"))(commands, job.cull_mode);
         reinterpret_cast<PFN_vkCmdSetFrontFaceEXT>(proc("vkCmdSetFrontFaceEXT"))(commands, job.front_face);
         reinterpret_cast<PFN_vkCmdSetPrimitiveTopologyEXT>(proc("vkCmdSetPrimitiveTopologyEXT"))(commands,
                                                                                                job.topology);
         reinterpret_cast<PFN_vkCmdSetDepthTestEnableEXT>(proc("vkCmdSetDepthTestEnableEXT"))(commands, job.depth);
         reinterpret_cast<PFN_vkCmdSetDepthWriteEnableEXT>(proc("vkCmdSetDepthWriteEnableEXT"))(commands,
                                                                                              job.depth_write);
         reinterpret_cast<PFN_vkCmdSetDepthCompareOpEXT>(proc("vkCmdSetDepthCompareOpEXT"))(commands,
                                                                                          job.depth_compare);
         reinterpret_cast<PFN_vkCmdSetPrimitiveRestartEnableEXT>(proc("vkCmdSetPrimitiveRestartEnableEXT"))(
            commands, job.primitive_restart);
         reinterpret_cast<PFN_vkCmdSetDepthBiasEnableEXT>(proc("vkCmdSetDepthBiasEnableEXT"))(commands,
                                                                                            job.depth_bias);
      }
      auto set_stencil = [&](const DrawJob::StencilFace &front, const DrawJob::StencilFace &back) {
         auto proc = [&](const char *name) { return vkGetDeviceProcAddr(device_, name); };
         for (const auto &[faces, face] : {std::pair{VK_STENCIL_FACE_FRONT_BIT, &front},
                                           std::pair{VK_STENCIL_FACE_BACK_BIT, &back}}) {
            reinterpret_cast<PFN_vkCmdSetStencilOpEXT>(proc("vkCmdSetStencilOpEXT"))(
               commands, faces, face->fail, face->pass, face->depth_fail, face->compare);
            vkCmdSetStencilReference(commands, faces, face->reference);
            vkCmdSetStencilCompareMask(commands, faces, face->compare_mask);
            vkCmdSetStencilWriteMask(commands, faces, face->write_mask);
         }
      };
      if (job.dynamic_stencil) {
         reinterpret_cast<PFN_vkCmdSetStencilTestEnableEXT>(vkGetDeviceProcAddr(device_, "vkCmdSetStencilTestEnableEXT"))(
            commands, job.stencil);
         set_stencil(job.stencil_front, job.stencil_back);
      }
      if (has_descriptors)
         vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &descriptor_set, 0, nullptr);
      if (!job.push_constants.empty())
         vkCmdPushConstants(commands, layout, VK_SHADER_STAGE_ALL_GRAPHICS, 0, uint32_t(job.push_constants.size()),
                            job.push_constants.data());
      for (size_t a = 0; a < vertex_buffers.size(); a++) {
         const VkDeviceSize offset = 0;
         vkCmdBindVertexBuffers(commands, uint32_t(a), 1, &vertex_buffers[a].buffer, &offset);
      }
      if (!job.indices.empty())
         vkCmdBindIndexBuffer(commands, index_buffer.buffer, 0,
                              job.index_32bit ? VK_INDEX_TYPE_UINT32 : VK_INDEX_TYPE_UINT16);
      if (job.dynamic_vertex_input) {
         for (const DrawJob::VertexInputDraw &draw : job.vertex_input_draws) {
            set_vertex_input_(commands, uint32_t(draw.bindings.size()), draw.bindings.data(),
                              uint32_t(draw.attributes.size()), draw.attributes.data());
            vkCmdDraw(commands, draw.vertex_count, draw.instance_count, draw.first_vertex, draw.first_instance);
         }
      } else if (job.indirect && job.use_indirect_count && job.indices.empty())
         draw_indirect_count_(commands, indirect_buffer.buffer, job.indirect_offset, count_buffer.buffer,
                              job.indirect_count_offset, job.indirect_draw_count, 32);
      else if (job.indirect && job.use_indirect_count)
         draw_indexed_indirect_count_(commands, indirect_buffer.buffer, job.indirect_offset, count_buffer.buffer,
                                      job.indirect_count_offset, job.indirect_draw_count, 32);
      else if (job.indirect && job.indices.empty())
         vkCmdDrawIndirect(commands, indirect_buffer.buffer, job.indirect_offset, std::max(job.indirect_draw_count, 1u), 32);
      else if (job.indirect)
         vkCmdDrawIndexedIndirect(commands, indirect_buffer.buffer, job.indirect_offset,
                                  std::max(job.indirect_draw_count, 1u), 32);
      else if (job.indices.empty())
         vkCmdDraw(commands, job.vertex_count, job.instance_count, job.first_vertex, job.first_instance);
      else
         vkCmdDrawIndexed(commands, uint32_t(job.indices.size()), job.instance_count, 0, int32_t(job.first_vertex),
                          job.first_instance);
      if (!job.clear_rects.empty()) {
         std::vector<VkClearAttachment> clears;
         if (job.clear_rect_colour)
            clears.push_back({VK_IMAGE_ASPECT_COLOR_BIT, 0, VkClearValue{.color = job.clear_rect_value}});
         const VkImageAspectFlags aspects = (job.clear_rect_depth ? VK_IMAGE_ASPECT_DEPTH_BIT : 0) |
                                            (job.clear_rect_stencil ? VK_IMAGE_ASPECT_STENCIL_BIT : 0);
         if (aspects)
            clears.push_back({aspects, 0,
                              VkClearValue{.depthStencil = {job.clear_rect_depth_value, job.clear_rect_stencil_value}}});
         std::vector<VkClearRect> rects;
         for (const VkRect2D &rect : job.clear_rects)
            rects.push_back({rect, 0, 1});
         vkCmdClearAttachments(commands, uint32_t(clears.size()), clears.data(), uint32_t(rects.size()), rects.data());
      }
      if (job.second_draw_vertex_count && job.dynamic_stencil)
         set_stencil(job.second_stencil_front, job.second_stencil_back);
      if (job.second_draw_vertex_count)
         vkCmdDraw(commands, job.second_draw_vertex_count, 1, job.second_draw_first_vertex, 0);
      if (job.vertex_input_in_secondary) {
         if (vkEndCommandBuffer(secondary) != VK_SUCCESS) {
            commands = primary;
            error = "vkEndCommandBuffer of the secondary command buffer failed";
            return false;
         }
         commands = primary;
         vkCmdExecuteCommands(commands, 1, &secondary);
      }
      vkCmdEndRenderPass(commands);
      auto copy = [&](const Image &image, VkImageAspectFlags aspect, const Buffer &to) {
         VkBufferImageCopy region{};
         region.imageSubresource = {aspect, 0, 0, 1};
         region.imageExtent = {job.width, job.height, 1};
         vkCmdCopyImageToBuffer(commands, image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, to.buffer, 1, &region);
      };
      if (multisampled && job.resolve_by_command) {
         /* The resolve images into the transfer destination layout, each attachment resolved
          * into its image, which then becomes a transfer source. */
         std::vector<VkImageMemoryBarrier> to_resolve(resolved.size(), {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER});
         for (size_t t = 0; t < resolved.size(); t++) {
            to_resolve[t].dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
            to_resolve[t].oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
            to_resolve[t].newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
            to_resolve[t].srcQueueFamilyIndex = to_resolve[t].dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
            to_resolve[t].image = resolved[t].image;
            to_resolve[t].subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
         }
         vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr,
                              0, nullptr, uint32_t(to_resolve.size()), to_resolve.data());
         for (size_t t = 0; t < resolved.size(); t++) {
            VkImageResolve region{};
            region.srcSubresource = region.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
            region.extent = {job.width, job.height, 1};
            vkCmdResolveImage(commands, targets[t].image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, resolved[t].image,
                              VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
            to_resolve[t].srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
            to_resolve[t].dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
            to_resolve[t].oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
            to_resolve[t].newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
         }
         vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr,
                              0, nullptr, uint32_t(to_resolve.size()), to_resolve.data());
      }
      for (size_t t = 0; t < targets.size(); t++)
         copy(multisampled ? resolved[t] : targets[t], VK_IMAGE_ASPECT_COLOR_BIT, readbacks[t]);
      if (job.depth && !multisampled)
         copy(depth, VK_IMAGE_ASPECT_DEPTH_BIT, readbacks.back());
      if (stencil_aspect && !multisampled)
         copy(depth, VK_IMAGE_ASPECT_STENCIL_BIT, stencil_readback);
      VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
      to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
      to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
      vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0,
                           nullptr, 0, nullptr);
      if (vkEndCommandBuffer(commands) != VK_SUCCESS) {
         error = "vkEndCommandBuffer failed";
         return false;
      }
      VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
      submit.commandBufferCount = 1;
      submit.pCommandBuffers = &commands;
      if (vkQueueSubmit(queue_, 1, &submit, VK_NULL_HANDLE) != VK_SUCCESS || vkQueueWaitIdle(queue_) != VK_SUCCESS) {
         error = "vkQueueSubmit failed";
         return false;
      }
      images.targets.clear();
      for (size_t t = 0; t < targets.size(); t++) {
         const auto *bytes = static_cast<const uint8_t *>(readbacks[t].map);
         images.targets.emplace_back(bytes, bytes + size_t(job.width) * job.height * texel_bytes(job.targets[t].format));
      }
      images.depth.clear();
      images.depth24.clear();
      images.stencil.clear();
      if (multisampled)
         return true;
      if (job.depth && job.depth_format == VK_FORMAT_D16_UNORM) {
         const auto *values = static_cast<const uint16_t *>(readbacks.back().map);
         for (size_t p = 0; p < size_t(job.width) * job.height; p++)
            images.depth.push_back(float(values[p]) / 65535.0f);
      } else if (job.depth && (job.depth_format == VK_FORMAT_X8_D24_UNORM_PACK32 ||
                               job.depth_format == VK_FORMAT_D24_UNORM_S8_UINT)) {
         /* The top 8 bits of a D24 texel are undefined. */
         const auto *values = static_cast<const uint32_t *>(readbacks.back().map);
         for (size_t p = 0; p < size_t(job.width) * job.height; p++) {
            images.depth24.push_back(values[p] & 0xffffff);
            images.depth.push_back(float(double(values[p] & 0xffffff) / 16777215.0));
         }
      } else if (job.depth) {
         const auto *values = static_cast<const float *>(readbacks.back().map);
         images.depth.assign(values, values + size_t(job.width) * job.height);
      }
      images.stencil.clear();
      if (stencil_aspect) {
         const auto *bytes = static_cast<const uint8_t *>(stencil_readback.map);
         images.stencil.assign(bytes, bytes + size_t(job.width) * job.height);
      }
      return true;
   }();
   if (commands)
      vkFreeCommandBuffers(device_, pool_, 1, &commands);
   if (secondary)
      vkFreeCommandBuffers(device_, pool_, 1, &secondary);
   vkDestroyPipeline(device_, pipeline, nullptr);
   vkDestroyPipelineLayout(device_, layout, nullptr);
   for (VkShaderModule module : modules)
      vkDestroyShaderModule(device_, module, nullptr);
   vkDestroyFramebuffer(device_, framebuffer, nullptr);
   vkDestroyRenderPass(device_, render_pass, nullptr);
   for (Image &image : targets)
      destroy(image);
   for (Image &image : resolved)
      destroy(image);
   destroy(depth);
   for (Buffer &buffer : vertex_buffers)
      destroy(buffer);
   destroy(index_buffer);
   destroy(indirect_buffer);
   destroy(count_buffer);
   destroy(uniform_buffer);
   destroy(staging);
   for (VkBufferView view : texel_views)
      vkDestroyBufferView(device_, view, nullptr);
   for (Buffer &buffer : texel_buffers)
      destroy(buffer);
   destroy(texture);
   vkDestroySampler(device_, sampler, nullptr);
   vkDestroyDescriptorPool(device_, descriptor_pool, nullptr);
   vkDestroyDescriptorSetLayout(device_, set_layout, nullptr);
   for (Buffer &buffer : readbacks)
      destroy(buffer);
   destroy(stencil_readback);
   return ok;
}

} // namespace terakan::test
