#include "session.h"

#include "../vulkan_helpers.h"

namespace terakan::test {

void Session::release()
{
   if (device)
      vkDeviceWaitIdle(device);
   for (auto it = cleanups.rbegin(); it != cleanups.rend(); ++it)
      (*it)();
   cleanups.clear();
}

Session::~Session()
{
   release();
   if (pool)
      vkDestroyCommandPool(device, pool, nullptr);
   if (device)
      vkDestroyDevice(device, nullptr);
   destroy_instance(instance);
}

bool Session::open(const char *name, unsigned &messages, std::string &error, const SessionOptions &options)
{
   VkDebugUtilsMessengerCreateInfoEXT messenger = validation_messenger_info(count_validation_finding, &messages);
   const bool layer = options.validation && has_instance_layer("VK_LAYER_KHRONOS_validation");
   std::vector<const char *> layers, extensions = options.instance_extensions;
   if (layer) {
      layers.push_back("VK_LAYER_KHRONOS_validation");
      extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
   }
   /* create_instance also keeps a messenger from this create info for the instance's life. */
   if (create_instance(options.application, options.api_version, layers, extensions, layer ? &messenger : nullptr,
                       instance) != VK_SUCCESS) {
      error = "no instance";
      instance = VK_NULL_HANDLE;
      return false;
   }
   physical = find_physical_device(instance, name);
   if (!physical) {
      error = std::string("no device named ") + name;
      return false;
   }
   for (const char *e : options.device_extensions)
      if (!has_device_extension(physical, e)) {
         error = std::string(name) + " does not offer " + e;
         return false;
      }
   const auto found = find_queue_family(physical, options.queue_flags);
   if (!found) {
      error = std::string(name) + " has no queue family for the test";
      return false;
   }
   family = *found;
   if (create_device(physical, family, options.device_next, options.device_next ? nullptr : &options.features,
                     options.device_extensions, device) != VK_SUCCESS) {
      error = std::string("vkCreateDevice failed on ") + name;
      device = VK_NULL_HANDLE;
      return false;
   }
   vkGetDeviceQueue(device, family, 0, &queue);
   return true;
}

VkImage Session::image(const VkImageCreateInfo &info)
{
   VkImage image = VK_NULL_HANDLE;
   if (vkCreateImage(device, &info, nullptr, &image) != VK_SUCCESS)
      return VK_NULL_HANDLE;
   later([this, image] { vkDestroyImage(device, image, nullptr); });
   VkDeviceMemory memory = VK_NULL_HANDLE;
   const bool bound = bind_image_memory(physical, device, image, memory);
   later([this, memory] { vkFreeMemory(device, memory, nullptr); });
   return bound ? image : VK_NULL_HANDLE;
}

VkImageView Session::view(VkImage image, VkImageViewType type, VkFormat format, const VkImageSubresourceRange &range)
{
   VkImageViewCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
   info.image = image;
   info.viewType = type;
   info.format = format;
   info.subresourceRange = range;
   VkImageView view = VK_NULL_HANDLE;
   if (vkCreateImageView(device, &info, nullptr, &view) != VK_SUCCESS)
      return VK_NULL_HANDLE;
   later([this, view] { vkDestroyImageView(device, view, nullptr); });
   return view;
}

VkBuffer Session::buffer(VkDeviceSize size, VkBufferUsageFlags usage, void *&map)
{
   VkBuffer buffer = VK_NULL_HANDLE;
   VkDeviceMemory memory = VK_NULL_HANDLE;
   const bool made = create_host_buffer(physical, device, size, usage, buffer, memory, map);
   later([this, buffer, memory] {
      vkDestroyBuffer(device, buffer, nullptr);
      vkFreeMemory(device, memory, nullptr);
   });
   return made ? buffer : VK_NULL_HANDLE;
}

VkShaderModule Session::module(const std::string &name)
{
   const std::vector<uint32_t> code = read_api_spirv(name);
   if (code.empty())
      return VK_NULL_HANDLE;
   VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
   info.codeSize = code.size() * 4;
   info.pCode = code.data();
   VkShaderModule module = VK_NULL_HANDLE;
   if (vkCreateShaderModule(device, &info, nullptr, &module) != VK_SUCCESS)
      return VK_NULL_HANDLE;
   later([this, module] { vkDestroyShaderModule(device, module, nullptr); });
   return module;
}

VkCommandBuffer Session::begin()
{
   if (!pool) {
      VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
      pool_info.queueFamilyIndex = family;
      if (vkCreateCommandPool(device, &pool_info, nullptr, &pool) != VK_SUCCESS)
         return VK_NULL_HANDLE;
   }
   VkCommandBufferAllocateInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
   info.commandPool = pool;
   info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
   info.commandBufferCount = 1;
   VkCommandBuffer commands = VK_NULL_HANDLE;
   if (vkAllocateCommandBuffers(device, &info, &commands) != VK_SUCCESS)
      return VK_NULL_HANDLE;
   VkCommandBufferBeginInfo begin_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
   vkBeginCommandBuffer(commands, &begin_info);
   return commands;
}

VkResult Session::submit_and_wait(VkCommandBuffer commands)
{
   VkResult result = vkEndCommandBuffer(commands);
   if (result != VK_SUCCESS)
      return result;
   VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
   submit.commandBufferCount = 1;
   submit.pCommandBuffers = &commands;
   result = vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE);
   return result == VK_SUCCESS ? vkQueueWaitIdle(queue) : result;
}

} // namespace terakan::test
