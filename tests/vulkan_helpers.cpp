#include "vulkan_helpers.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <fstream>
#include <iterator>

namespace terakan::test {

bool has_instance_layer(const char *name)
{
   uint32_t count = 0;
   vkEnumerateInstanceLayerProperties(&count, nullptr);
   std::vector<VkLayerProperties> layers(count);
   vkEnumerateInstanceLayerProperties(&count, layers.data());
   for (const VkLayerProperties &layer : layers)
      if (!std::strcmp(layer.layerName, name))
         return true;
   return false;
}

bool has_instance_extension(const char *name)
{
   uint32_t count = 0;
   vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr);
   std::vector<VkExtensionProperties> extensions(count);
   vkEnumerateInstanceExtensionProperties(nullptr, &count, extensions.data());
   for (const VkExtensionProperties &extension : extensions)
      if (!std::strcmp(extension.extensionName, name))
         return true;
   return false;
}

bool has_device_extension(VkPhysicalDevice physical, const char *name)
{
   uint32_t count = 0;
   vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, nullptr);
   std::vector<VkExtensionProperties> extensions(count);
   vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, extensions.data());
   for (const VkExtensionProperties &extension : extensions)
      if (!std::strcmp(extension.extensionName, name))
         return true;
   return false;
}

VkDebugUtilsMessengerCreateInfoEXT validation_messenger_info(PFN_vkDebugUtilsMessengerCallbackEXT callback,
                                                             void *user)
{
   VkDebugUtilsMessengerCreateInfoEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
   info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
   info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
   info.pfnUserCallback = callback;
   info.pUserData = user;
   return info;
}

bool is_validation_finding(VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT type)
{
   return (type & VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT) &&
          severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT;
}

VKAPI_ATTR VkBool32 VKAPI_CALL count_validation_finding(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                        VkDebugUtilsMessageTypeFlagsEXT type,
                                                        const VkDebugUtilsMessengerCallbackDataEXT *data,
                                                        void *user)
{
   if (is_validation_finding(severity, type)) {
      (*static_cast<unsigned *>(user))++;
      std::fprintf(stderr, "validation: %s\n", data->pMessage);
   }
   return VK_FALSE;
}

std::vector<uint32_t> read_api_spirv(const std::string &name)
{
   const char *folder = std::getenv("TERAKAN_API_SHADERS");
   std::ifstream file(std::string(folder ? folder : ".") + "/" + name + ".spv", std::ios::binary);
   std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
   std::vector<uint32_t> words(bytes.size() / 4);
   std::memcpy(words.data(), bytes.data(), words.size() * 4);
   return words;
}

namespace {

/* The messengers create_instance made, by instance. */
std::mutex messengers_lock;
std::map<VkInstance, VkDebugUtilsMessengerEXT> messengers;

/* The messenger create info in a pNext chain, if any. */
const VkDebugUtilsMessengerCreateInfoEXT *vk_find_struct_const_messenger(const void *next)
{
   for (auto *s = static_cast<const VkBaseInStructure *>(next); s; s = s->pNext)
      if (s->sType == VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT)
         return reinterpret_cast<const VkDebugUtilsMessengerCreateInfoEXT *>(s);
   return nullptr;
}

} // namespace

VkResult create_instance(const char *application, uint32_t api_version, const std::vector<const char *> &layers,
                         const std::vector<const char *> &extensions, const void *next, VkInstance &instance)
{
   VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
   app.pApplicationName = application;
   app.apiVersion = api_version;
   VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
   info.pNext = next;
   info.pApplicationInfo = &app;
   info.enabledLayerCount = uint32_t(layers.size());
   info.ppEnabledLayerNames = layers.data();
   info.enabledExtensionCount = uint32_t(extensions.size());
   info.ppEnabledExtensionNames = extensions.data();
   const VkResult result = vkCreateInstance(&info, nullptr, &instance);
   if (result != VK_SUCCESS)
      return result;
   const auto *messenger_info = vk_find_struct_const_messenger(next);
   if (messenger_info) {
      auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
         vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
      VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
      VkDebugUtilsMessengerCreateInfoEXT copy = *messenger_info;
      copy.pNext = nullptr;
      if (create && create(instance, &copy, nullptr, &messenger) == VK_SUCCESS) {
         std::lock_guard<std::mutex> guard(messengers_lock);
         messengers[instance] = messenger;
      }
   }
   return result;
}

void destroy_instance(VkInstance instance)
{
   if (!instance)
      return;
   VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
   {
      std::lock_guard<std::mutex> guard(messengers_lock);
      auto found = messengers.find(instance);
      if (found != messengers.end()) {
         messenger = found->second;
         messengers.erase(found);
      }
   }
   if (messenger) {
      auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
         vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
      if (destroy)
         destroy(instance, messenger, nullptr);
   }
   vkDestroyInstance(instance, nullptr);
}

VkPhysicalDevice find_physical_device(VkInstance instance, const char *name)
{
   uint32_t count = 0;
   vkEnumeratePhysicalDevices(instance, &count, nullptr);
   std::vector<VkPhysicalDevice> devices(count);
   vkEnumeratePhysicalDevices(instance, &count, devices.data());
   for (VkPhysicalDevice candidate : devices) {
      VkPhysicalDeviceProperties properties;
      vkGetPhysicalDeviceProperties(candidate, &properties);
      if (std::strstr(properties.deviceName, name))
         return candidate;
   }
   return VK_NULL_HANDLE;
}

std::optional<uint32_t> find_queue_family(VkPhysicalDevice physical, VkQueueFlags flags)
{
   uint32_t count = 0;
   vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, nullptr);
   std::vector<VkQueueFamilyProperties> families(count);
   vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, families.data());
   for (uint32_t i = 0; i < count; i++)
      if ((families[i].queueFlags & flags) == flags)
         return i;
   return std::nullopt;
}

VkResult create_device(VkPhysicalDevice physical, uint32_t family, const void *next,
                       const VkPhysicalDeviceFeatures *features, const std::vector<const char *> &extensions,
                       VkDevice &device)
{
   const float priority = 1.0f;
   VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
   queue_info.queueFamilyIndex = family;
   queue_info.queueCount = 1;
   queue_info.pQueuePriorities = &priority;
   VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
   info.pNext = next;
   info.queueCreateInfoCount = 1;
   info.pQueueCreateInfos = &queue_info;
   info.pEnabledFeatures = features;
   info.enabledExtensionCount = uint32_t(extensions.size());
   info.ppEnabledExtensionNames = extensions.data();
   return vkCreateDevice(physical, &info, nullptr, &device);
}

std::optional<uint32_t> find_memory_type(VkPhysicalDevice physical, uint32_t bits, VkMemoryPropertyFlags wanted)
{
   VkPhysicalDeviceMemoryProperties memory;
   vkGetPhysicalDeviceMemoryProperties(physical, &memory);
   for (uint32_t t = 0; t < memory.memoryTypeCount; t++)
      if ((bits >> t & 1) && (memory.memoryTypes[t].propertyFlags & wanted) == wanted)
         return t;
   return std::nullopt;
}

/* Allocates memory of a type among `requirements` with all of `wanted`. */
static bool allocate(VkPhysicalDevice physical, VkDevice device, const VkMemoryRequirements &requirements,
                     VkMemoryPropertyFlags wanted, VkDeviceMemory &memory)
{
   const std::optional<uint32_t> type = find_memory_type(physical, requirements.memoryTypeBits, wanted);
   if (!type)
      return false;
   VkMemoryAllocateInfo info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
   info.allocationSize = requirements.size;
   info.memoryTypeIndex = *type;
   return vkAllocateMemory(device, &info, nullptr, &memory) == VK_SUCCESS;
}

bool create_host_buffer(VkPhysicalDevice physical, VkDevice device, VkDeviceSize size, VkBufferUsageFlags usage,
                        VkBuffer &buffer, VkDeviceMemory &memory, void *&map)
{
   VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
   info.size = size;
   info.usage = usage;
   if (vkCreateBuffer(device, &info, nullptr, &buffer) != VK_SUCCESS)
      return false;
   VkMemoryRequirements requirements;
   vkGetBufferMemoryRequirements(device, buffer, &requirements);
   if (!allocate(physical, device, requirements,
                 VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, memory))
      return false;
   vkBindBufferMemory(device, buffer, memory, 0);
   return vkMapMemory(device, memory, 0, VK_WHOLE_SIZE, 0, &map) == VK_SUCCESS;
}

bool bind_image_memory(VkPhysicalDevice physical, VkDevice device, VkImage image, VkDeviceMemory &memory)
{
   VkMemoryRequirements requirements;
   vkGetImageMemoryRequirements(device, image, &requirements);
   if (!allocate(physical, device, requirements, 0, memory))
      return false;
   vkBindImageMemory(device, image, memory, 0);
   return true;
}

bool create_image_2d(VkPhysicalDevice physical, VkDevice device, VkFormat format, VkImageUsageFlags usage,
                     VkImageAspectFlags aspect, uint32_t width, uint32_t height, VkSampleCountFlagBits samples,
                     Image2D &image)
{
   VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
   info.imageType = VK_IMAGE_TYPE_2D;
   info.format = format;
   info.extent = {width, height, 1};
   info.mipLevels = 1;
   info.arrayLayers = 1;
   info.samples = samples;
   info.tiling = VK_IMAGE_TILING_OPTIMAL;
   info.usage = usage;
   if (vkCreateImage(device, &info, nullptr, &image.image) != VK_SUCCESS ||
       !bind_image_memory(physical, device, image.image, image.memory))
      return false;
   VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
   view.image = image.image;
   view.viewType = VK_IMAGE_VIEW_TYPE_2D;
   view.format = format;
   view.subresourceRange = {aspect, 0, 1, 0, 1};
   return vkCreateImageView(device, &view, nullptr, &image.view) == VK_SUCCESS;
}

void destroy_image_2d(VkDevice device, Image2D &image)
{
   vkDestroyImageView(device, image.view, nullptr);
   vkDestroyImage(device, image.image, nullptr);
   vkFreeMemory(device, image.memory, nullptr);
   image = {};
}

bool create_colour_pass(VkDevice device, VkFormat format, VkImageView view, uint32_t width, uint32_t height,
                        VkRenderPass &pass, VkFramebuffer &framebuffer)
{
   VkAttachmentDescription attachment{};
   attachment.format = format;
   attachment.samples = VK_SAMPLE_COUNT_1_BIT;
   attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
   attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
   attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
   attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
   attachment.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
   attachment.finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
   const VkAttachmentReference reference{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
   VkSubpassDescription subpass{};
   subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
   subpass.colorAttachmentCount = 1;
   subpass.pColorAttachments = &reference;
   const VkSubpassDependency to_copy{0, VK_SUBPASS_EXTERNAL, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                                     VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                                     VK_ACCESS_TRANSFER_READ_BIT, 0};
   VkRenderPassCreateInfo pass_info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
   pass_info.attachmentCount = 1;
   pass_info.pAttachments = &attachment;
   pass_info.subpassCount = 1;
   pass_info.pSubpasses = &subpass;
   pass_info.dependencyCount = 1;
   pass_info.pDependencies = &to_copy;
   if (vkCreateRenderPass(device, &pass_info, nullptr, &pass) != VK_SUCCESS)
      return false;
   VkFramebufferCreateInfo framebuffer_info{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
   framebuffer_info.renderPass = pass;
   framebuffer_info.attachmentCount = 1;
   framebuffer_info.pAttachments = &view;
   framebuffer_info.width = width;
   framebuffer_info.height = height;
   framebuffer_info.layers = 1;
   return vkCreateFramebuffer(device, &framebuffer_info, nullptr, &framebuffer) == VK_SUCCESS;
}

VkResult create_basic_pipeline(VkDevice device, const BasicPipeline &basic, VkPipeline &pipeline)
{
   VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
   raster.polygonMode = VK_POLYGON_MODE_FILL;
   raster.cullMode = VK_CULL_MODE_NONE;
   raster.lineWidth = 1.0f;
   VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
   multisample.rasterizationSamples = basic.samples;
   VkPipelineColorBlendAttachmentState blend{};
   blend.colorWriteMask = 0xf;
   VkPipelineColorBlendStateCreateInfo blend_state{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
   blend_state.attachmentCount = 1;
   blend_state.pAttachments = &blend;
   VkPipelineShaderStageCreateInfo stages[2] = {};
   for (unsigned s = 0; s < 2; s++) {
      stages[s].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
      stages[s].stage = s == 0 ? VK_SHADER_STAGE_VERTEX_BIT : VK_SHADER_STAGE_FRAGMENT_BIT;
      stages[s].module = s == 0 ? basic.vertex : basic.fragment;
      stages[s].pName = "main";
   }
   const VkPipelineVertexInputStateCreateInfo no_vertex_buffers{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
   VkPipelineInputAssemblyStateCreateInfo triangle_list{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
   triangle_list.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
   const VkViewport viewport{0, 0, float(basic.viewport_extent.width), float(basic.viewport_extent.height), 0, 1};
   const VkRect2D scissor{{0, 0}, basic.viewport_extent};
   VkPipelineViewportStateCreateInfo one_viewport{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
   one_viewport.viewportCount = one_viewport.scissorCount = 1;
   one_viewport.pViewports = &viewport;
   one_viewport.pScissors = &scissor;
   VkGraphicsPipelineCreateInfo pipeline_info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
   pipeline_info.stageCount = basic.stages ? basic.stage_count : 2;
   pipeline_info.pStages = basic.stages ? basic.stages : stages;
   pipeline_info.pVertexInputState = basic.vertex_input ? basic.vertex_input : &no_vertex_buffers;
   pipeline_info.pInputAssemblyState = basic.assembly ? basic.assembly : &triangle_list;
   pipeline_info.pViewportState = basic.viewports ? basic.viewports : &one_viewport;
   pipeline_info.pRasterizationState = &raster;
   pipeline_info.pMultisampleState = &multisample;
   pipeline_info.pDepthStencilState = basic.depth_stencil;
   pipeline_info.pColorBlendState = &blend_state;
   pipeline_info.layout = basic.layout;
   pipeline_info.renderPass = basic.pass;
   return vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &pipeline_info, nullptr, &pipeline);
}

} // namespace terakan::test
