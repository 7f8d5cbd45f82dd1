#include "compute_device.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

namespace terakan::test {

std::vector<uint32_t> read_spirv(const std::string &name)
{
   const char *dir = std::getenv("TERAKAN_API_SHADERS");
   std::ifstream file(std::string(dir ? dir : ".") + "/" + name + ".spv", std::ios::binary);
   std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
   std::vector<uint32_t> words(bytes.size() / 4);
   std::memcpy(words.data(), bytes.data(), words.size() * 4);
   return words;
}

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT type,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data,
                                                 void *user)
{
   auto *device = static_cast<ComputeDevice *>(user);
   /* Validation findings only; drivers' own log messages arrive as GENERAL. */
   if ((type & VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT) &&
       severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
      device->validation_messages++;
      std::fprintf(stderr, "validation (%s): %s\n", device->device_name.c_str(), data->pMessage);
   }
   return VK_FALSE;
}

ComputeDevice::ComputeDevice(const char *name, bool validation) : device_name(name)
{
   const char *layers[] = {"VK_LAYER_KHRONOS_validation"};
   const char *extensions[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME,
                               VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME};
   VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
   app.pApplicationName = "terakan-api-tests";
   app.apiVersion = VK_API_VERSION_1_0;
   VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
   info.pApplicationInfo = &app;
   info.enabledLayerCount = validation ? 1 : 0;
   info.ppEnabledLayerNames = layers;
   info.enabledExtensionCount = 2;
   info.ppEnabledExtensionNames = extensions;
   VkDebugUtilsMessengerCreateInfoEXT messenger{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
   messenger.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
   messenger.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
   messenger.pfnUserCallback = on_message;
   messenger.pUserData = this;
   info.pNext = &messenger; /* also covers instance creation and destruction */
   if (vkCreateInstance(&info, nullptr, &instance) != VK_SUCCESS) {
      error = "vkCreateInstance failed (is the validation layer installed?)";
      return;
   }
   validation_enabled = validation;
   uint32_t count = 0;
   vkEnumeratePhysicalDevices(instance, &count, nullptr);
   std::vector<VkPhysicalDevice> devices(count);
   vkEnumeratePhysicalDevices(instance, &count, devices.data());
   for (VkPhysicalDevice candidate : devices) {
      VkPhysicalDeviceProperties properties;
      vkGetPhysicalDeviceProperties(candidate, &properties);
      if (!physical && std::strstr(properties.deviceName, name))
         physical = candidate;
   }
   if (!physical) {
      error = std::string("no Vulkan device named '") + name + "'";
      return;
   }
   uint32_t extension_count = 0;
   vkEnumerateDeviceExtensionProperties(physical, nullptr, &extension_count, nullptr);
   std::vector<VkExtensionProperties> available(extension_count);
   vkEnumerateDeviceExtensionProperties(physical, nullptr, &extension_count, available.data());
   for (const VkExtensionProperties &e : available)
      timeline_semaphores |= std::strcmp(e.extensionName, VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME) == 0;

   uint32_t family_count = 0;
   vkGetPhysicalDeviceQueueFamilyProperties(physical, &family_count, nullptr);
   std::vector<VkQueueFamilyProperties> families(family_count);
   vkGetPhysicalDeviceQueueFamilyProperties(physical, &family_count, families.data());
   for (uint32_t i = 0; i < family_count; i++)
      if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
         queue_family = i;
         break;
      }
   const float priority = 1.0f;
   VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
   queue_info.queueFamilyIndex = queue_family;
   queue_info.queueCount = 1;
   queue_info.pQueuePriorities = &priority;
   VkPhysicalDeviceTimelineSemaphoreFeatures timeline{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES};
   timeline.timelineSemaphore = VK_TRUE;
   const char *device_extensions[] = {VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME};
   VkDeviceCreateInfo device_info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
   device_info.queueCreateInfoCount = 1;
   device_info.pQueueCreateInfos = &queue_info;
   if (timeline_semaphores) {
      device_info.pNext = &timeline;
      device_info.enabledExtensionCount = 1;
      device_info.ppEnabledExtensionNames = device_extensions;
   }
   if (vkCreateDevice(physical, &device_info, nullptr, &device) != VK_SUCCESS) {
      error = "vkCreateDevice failed";
      device = VK_NULL_HANDLE;
      return;
   }
   vkGetDeviceQueue(device, queue_family, 0, &queue);
   VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
   pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
   pool_info.queueFamilyIndex = queue_family;
   vkCreateCommandPool(device, &pool_info, nullptr, &pool);
}

ComputeDevice::~ComputeDevice()
{
   if (device) {
      vkDeviceWaitIdle(device);
      vkDestroyCommandPool(device, pool, nullptr);
      vkDestroyDevice(device, nullptr);
   }
   if (instance)
      vkDestroyInstance(instance, nullptr);
}

ComputeDevice::Buffer ComputeDevice::buffer(VkDeviceSize size, VkBufferUsageFlags usage)
{
   Buffer b;
   b.size = size;
   VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
   info.size = size;
   info.usage = usage ? usage
                      : VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |
                           VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                           VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;
   if (vkCreateBuffer(device, &info, nullptr, &b.buffer) != VK_SUCCESS)
      return b;
   VkMemoryRequirements requirements;
   vkGetBufferMemoryRequirements(device, b.buffer, &requirements);
   VkPhysicalDeviceMemoryProperties memory;
   vkGetPhysicalDeviceMemoryProperties(physical, &memory);
   VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
   allocate.allocationSize = requirements.size;
   const VkMemoryPropertyFlags wanted =
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
   for (uint32_t t = 0; t < memory.memoryTypeCount; t++)
      if ((requirements.memoryTypeBits >> t & 1) &&
          (memory.memoryTypes[t].propertyFlags & wanted) == wanted) {
         allocate.memoryTypeIndex = t;
         break;
      }
   if (vkAllocateMemory(device, &allocate, nullptr, &b.memory) != VK_SUCCESS)
      return b;
   vkBindBufferMemory(device, b.buffer, b.memory, 0);
   void *map = nullptr;
   vkMapMemory(device, b.memory, 0, VK_WHOLE_SIZE, 0, &map);
   b.words = static_cast<uint32_t *>(map);
   std::memset(map, 0, size);
   return b;
}

void ComputeDevice::destroy(Buffer &b)
{
   if (b.memory)
      vkFreeMemory(device, b.memory, nullptr);
   vkDestroyBuffer(device, b.buffer, nullptr);
   b = {};
}

ComputeDevice::Program ComputeDevice::program(const std::vector<uint32_t> &spirv,
                                              const std::vector<std::vector<VkDescriptorType>> &sets,
                                              uint32_t push_bytes, VkResult *result_out,
                                              const VkSpecializationInfo *specialization)
{
   Program p;
   p.types = sets;
   std::vector<VkDescriptorPoolSize> pool_sizes;
   for (const auto &types : sets) {
      std::vector<VkDescriptorSetLayoutBinding> bindings;
      for (uint32_t b = 0; b < types.size(); b++) {
         bindings.push_back({b, types[b], 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
         pool_sizes.push_back({types[b], 64});
      }
      VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
      info.bindingCount = uint32_t(bindings.size());
      info.pBindings = bindings.data();
      VkDescriptorSetLayout layout;
      vkCreateDescriptorSetLayout(device, &info, nullptr, &layout);
      p.set_layouts.push_back(layout);
   }
   const VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes};
   VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
   layout_info.setLayoutCount = uint32_t(p.set_layouts.size());
   layout_info.pSetLayouts = p.set_layouts.data();
   layout_info.pushConstantRangeCount = push_bytes ? 1 : 0;
   layout_info.pPushConstantRanges = &range;
   vkCreatePipelineLayout(device, &layout_info, nullptr, &p.layout);

   VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
   module_info.codeSize = spirv.size() * 4;
   module_info.pCode = spirv.data();
   VkShaderModule module = VK_NULL_HANDLE;
   VkResult result = vkCreateShaderModule(device, &module_info, nullptr, &module);
   if (result == VK_SUCCESS) {
      VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
      info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
      info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
      info.stage.module = module;
      info.stage.pName = "main";
      info.stage.pSpecializationInfo = specialization;
      info.layout = p.layout;
      result = vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &p.pipeline);
      vkDestroyShaderModule(device, module, nullptr);
   }
   if (result_out)
      *result_out = result;
   if (!pool_sizes.empty()) {
      VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
      pool_info.maxSets = 64;
      pool_info.poolSizeCount = uint32_t(pool_sizes.size());
      pool_info.pPoolSizes = pool_sizes.data();
      vkCreateDescriptorPool(device, &pool_info, nullptr, &p.descriptor_pool);
   }
   return p;
}

void ComputeDevice::destroy(Program &p)
{
   vkDestroyPipeline(device, p.pipeline, nullptr);
   vkDestroyPipelineLayout(device, p.layout, nullptr);
   for (VkDescriptorSetLayout layout : p.set_layouts)
      vkDestroyDescriptorSetLayout(device, layout, nullptr);
   if (p.descriptor_pool)
      vkDestroyDescriptorPool(device, p.descriptor_pool, nullptr);
   p = {};
}

VkDescriptorSet ComputeDevice::descriptor_set(Program &p, uint32_t set,
                                              const std::vector<VkDescriptorBufferInfo> &buffers)
{
   VkDescriptorSetAllocateInfo allocate{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
   allocate.descriptorPool = p.descriptor_pool;
   allocate.descriptorSetCount = 1;
   allocate.pSetLayouts = &p.set_layouts[set];
   VkDescriptorSet handle = VK_NULL_HANDLE;
   if (vkAllocateDescriptorSets(device, &allocate, &handle) != VK_SUCCESS)
      return VK_NULL_HANDLE;
   std::vector<VkWriteDescriptorSet> writes;
   for (uint32_t b = 0; b < buffers.size(); b++) {
      VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
      write.dstSet = handle;
      write.dstBinding = b;
      write.descriptorCount = 1;
      write.descriptorType = p.types[set][b];
      write.pBufferInfo = &buffers[b];
      writes.push_back(write);
   }
   vkUpdateDescriptorSets(device, uint32_t(writes.size()), writes.data(), 0, nullptr);
   return handle;
}

VkCommandBuffer ComputeDevice::begin()
{
   VkCommandBufferAllocateInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
   info.commandPool = pool;
   info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
   info.commandBufferCount = 1;
   VkCommandBuffer commands = VK_NULL_HANDLE;
   vkAllocateCommandBuffers(device, &info, &commands);
   VkCommandBufferBeginInfo begin_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
   vkBeginCommandBuffer(commands, &begin_info);
   return commands;
}

VkResult ComputeDevice::submit_and_wait(VkCommandBuffer commands)
{
   VkResult result = vkEndCommandBuffer(commands);
   if (result != VK_SUCCESS)
      return result;
   VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
   submit.commandBufferCount = 1;
   submit.pCommandBuffers = &commands;
   result = vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE);
   if (result == VK_SUCCESS)
      result = vkQueueWaitIdle(queue);
   vkFreeCommandBuffers(device, pool, 1, &commands);
   return result;
}

void ComputeDevice::barrier(VkCommandBuffer commands)
{
   VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
   barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
   barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                           VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT |
                           VK_ACCESS_HOST_READ_BIT | VK_ACCESS_INDIRECT_COMMAND_READ_BIT;
   vkCmdPipelineBarrier(commands,
                        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT |
                           VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT,
                        0, 1, &barrier, 0, nullptr, 0, nullptr);
}

} // namespace terakan::test
