#include "lavapipe_runner.h"

#include <cstdio>
#include <cstring>

#include <vulkan/vulkan.h>

namespace terakan::test {

struct LavapipeRunner::State {
   VkInstance instance = VK_NULL_HANDLE;
   VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
   VkPhysicalDevice physical = VK_NULL_HANDLE;
   VkDevice device = VK_NULL_HANDLE;
   VkQueue queue = VK_NULL_HANDLE;
   uint32_t queue_family = 0;
   VkPhysicalDeviceMemoryProperties memory{};
};

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data,
                                                 void *user)
{
   if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT)
      LavapipeRunner::count_message(static_cast<LavapipeRunner *>(user), data->pMessage);
   return VK_FALSE;
}

void LavapipeRunner::count_message(LavapipeRunner *runner, const char *message)
{
   runner->validation_messages_++;
   std::fprintf(stderr, "validation: %s\n", message);
}

LavapipeRunner::LavapipeRunner(const char *device_name) : state_(new State)
{
   uint32_t layer_count = 0;
   vkEnumerateInstanceLayerProperties(&layer_count, nullptr);
   std::vector<VkLayerProperties> layers(layer_count);
   vkEnumerateInstanceLayerProperties(&layer_count, layers.data());
   for (const VkLayerProperties &layer : layers)
      validation_ = validation_ || std::strcmp(layer.layerName, "VK_LAYER_KHRONOS_validation") == 0;

   const char *layer_names[] = {"VK_LAYER_KHRONOS_validation"};
   const char *extensions[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
   VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
   app.pApplicationName = "terakan-compiler-tests";
   app.apiVersion = VK_API_VERSION_1_1;
   VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
   info.pApplicationInfo = &app;
   info.enabledLayerCount = validation_ ? 1 : 0;
   info.ppEnabledLayerNames = layer_names;
   info.enabledExtensionCount = validation_ ? 1 : 0;
   info.ppEnabledExtensionNames = extensions;
   if (vkCreateInstance(&info, nullptr, &state_->instance) != VK_SUCCESS) {
      error_ = "vkCreateInstance failed";
      return;
   }
   if (validation_) {
      auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
         vkGetInstanceProcAddr(state_->instance, "vkCreateDebugUtilsMessengerEXT"));
      VkDebugUtilsMessengerCreateInfoEXT messenger{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
      messenger.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                                  VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
      messenger.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                              VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
      messenger.pfnUserCallback = on_message;
      messenger.pUserData = this;
      if (create)
         create(state_->instance, &messenger, nullptr, &state_->messenger);
   }

   uint32_t count = 0;
   vkEnumeratePhysicalDevices(state_->instance, &count, nullptr);
   std::vector<VkPhysicalDevice> devices(count);
   vkEnumeratePhysicalDevices(state_->instance, &count, devices.data());
   for (VkPhysicalDevice device : devices) {
      VkPhysicalDeviceProperties properties;
      vkGetPhysicalDeviceProperties(device, &properties);
      if (!state_->physical && std::strstr(properties.deviceName, device_name))
         state_->physical = device;
   }
   if (!state_->physical) {
      error_ = std::string("no Vulkan device named '") + device_name + "' (for lavapipe: is "
               "mesa-vulkan-drivers installed?)";
      return;
   }
   vkGetPhysicalDeviceMemoryProperties(state_->physical, &state_->memory);
   uint32_t family_count = 0;
   vkGetPhysicalDeviceQueueFamilyProperties(state_->physical, &family_count, nullptr);
   std::vector<VkQueueFamilyProperties> families(family_count);
   vkGetPhysicalDeviceQueueFamilyProperties(state_->physical, &family_count, families.data());
   for (uint32_t i = 0; i < family_count; i++)
      if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
         state_->queue_family = i;
         break;
      }
   const float priority = 1.0f;
   VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
   queue.queueFamilyIndex = state_->queue_family;
   queue.queueCount = 1;
   queue.pQueuePriorities = &priority;
   VkDeviceCreateInfo device_info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
   device_info.queueCreateInfoCount = 1;
   device_info.pQueueCreateInfos = &queue;
   if (vkCreateDevice(state_->physical, &device_info, nullptr, &state_->device) != VK_SUCCESS) {
      error_ = "vkCreateDevice failed";
      return;
   }
   vkGetDeviceQueue(state_->device, state_->queue_family, 0, &state_->queue);
   device_ = state_->device;
}

LavapipeRunner::~LavapipeRunner()
{
   if (state_->device)
      vkDestroyDevice(state_->device, nullptr);
   if (state_->messenger) {
      auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
         vkGetInstanceProcAddr(state_->instance, "vkDestroyDebugUtilsMessengerEXT"));
      if (destroy)
         destroy(state_->instance, state_->messenger, nullptr);
   }
   if (state_->instance)
      vkDestroyInstance(state_->instance, nullptr);
   delete state_;
}

bool LavapipeRunner::run(const ComputeJob &job, std::vector<std::vector<uint32_t>> &out,
                         std::string &error)
{
   VkDevice device = state_->device;
   const uint32_t binding_count = uint32_t(job.buffers.size());
   std::vector<VkBuffer> buffers(binding_count);
   std::vector<VkDeviceMemory> memories(binding_count);
   bool ok = true;
   auto check = [&](VkResult result, const char *what) {
      if (result != VK_SUCCESS && ok) {
         error = std::string(what) + " failed: " + std::to_string(result);
         ok = false;
      }
      return ok;
   };

   for (uint32_t b = 0; b < binding_count && ok; b++) {
      VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
      info.size = job.buffers[b].size() * 4;
      info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT;
      check(vkCreateBuffer(device, &info, nullptr, &buffers[b]), "vkCreateBuffer");
      VkMemoryRequirements requirements;
      vkGetBufferMemoryRequirements(device, buffers[b], &requirements);
      VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
      allocate.allocationSize = requirements.size;
      const VkMemoryPropertyFlags wanted = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
      for (uint32_t t = 0; t < state_->memory.memoryTypeCount; t++)
         if ((requirements.memoryTypeBits >> t & 1) &&
             (state_->memory.memoryTypes[t].propertyFlags & wanted) == wanted) {
            allocate.memoryTypeIndex = t;
            break;
         }
      check(vkAllocateMemory(device, &allocate, nullptr, &memories[b]), "vkAllocateMemory");
      check(vkBindBufferMemory(device, buffers[b], memories[b], 0), "vkBindBufferMemory");
      void *map = nullptr;
      if (check(vkMapMemory(device, memories[b], 0, VK_WHOLE_SIZE, 0, &map), "vkMapMemory")) {
         std::memcpy(map, job.buffers[b].data(), job.buffers[b].size() * 4);
         vkUnmapMemory(device, memories[b]);
      }
   }

   std::vector<VkDescriptorSetLayoutBinding> bindings(binding_count);
   auto type_of = [&](uint32_t b) {
      return b < job.uniform.size() && job.uniform[b] ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
                                                      : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
   };
   uint32_t uniform_count = 0;
   for (uint32_t b = 0; b < binding_count; b++) {
      bindings[b] = {b, type_of(b), 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
      uniform_count += type_of(b) == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
   }
   VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
   set_info.bindingCount = binding_count;
   set_info.pBindings = bindings.data();
   VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
   check(vkCreateDescriptorSetLayout(device, &set_info, nullptr, &set_layout), "vkCreateDescriptorSetLayout");
   const VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(job.push_constants)};
   VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
   layout_info.setLayoutCount = 1;
   layout_info.pSetLayouts = &set_layout;
   layout_info.pushConstantRangeCount = 1;
   layout_info.pPushConstantRanges = &range;
   VkPipelineLayout layout = VK_NULL_HANDLE;
   check(vkCreatePipelineLayout(device, &layout_info, nullptr, &layout), "vkCreatePipelineLayout");

   VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
   module_info.codeSize = job.spirv.size() * 4;
   module_info.pCode = job.spirv.data();
   VkShaderModule module = VK_NULL_HANDLE;
   check(vkCreateShaderModule(device, &module_info, nullptr, &module), "vkCreateShaderModule");
   VkComputePipelineCreateInfo pipeline_info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
   pipeline_info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
   pipeline_info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
   pipeline_info.stage.module = module;
   pipeline_info.stage.pName = "main";
   pipeline_info.layout = layout;
   VkPipeline pipeline = VK_NULL_HANDLE;
   if (ok)
      check(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &pipeline_info, nullptr, &pipeline),
            "vkCreateComputePipelines");

   const VkDescriptorPoolSize pool_sizes[2] = {
      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, binding_count},
      {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, binding_count},
   };
   VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
   pool_info.maxSets = 1;
   pool_info.poolSizeCount = 2;
   pool_info.pPoolSizes = pool_sizes;
   (void)uniform_count;
   VkDescriptorPool pool = VK_NULL_HANDLE;
   check(vkCreateDescriptorPool(device, &pool_info, nullptr, &pool), "vkCreateDescriptorPool");
   VkDescriptorSetAllocateInfo set_allocate{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
   set_allocate.descriptorPool = pool;
   set_allocate.descriptorSetCount = 1;
   set_allocate.pSetLayouts = &set_layout;
   VkDescriptorSet set = VK_NULL_HANDLE;
   if (ok)
      check(vkAllocateDescriptorSets(device, &set_allocate, &set), "vkAllocateDescriptorSets");
   std::vector<VkDescriptorBufferInfo> buffer_infos(binding_count);
   std::vector<VkWriteDescriptorSet> writes(binding_count);
   for (uint32_t b = 0; b < binding_count && ok; b++) {
      buffer_infos[b] = {buffers[b], 0, VK_WHOLE_SIZE};
      writes[b] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
      writes[b].dstSet = set;
      writes[b].dstBinding = b;
      writes[b].descriptorCount = 1;
      writes[b].descriptorType = type_of(b);
      writes[b].pBufferInfo = &buffer_infos[b];
   }
   if (ok)
      vkUpdateDescriptorSets(device, binding_count, writes.data(), 0, nullptr);

   VkCommandPoolCreateInfo command_pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
   command_pool_info.queueFamilyIndex = state_->queue_family;
   VkCommandPool command_pool = VK_NULL_HANDLE;
   check(vkCreateCommandPool(device, &command_pool_info, nullptr, &command_pool), "vkCreateCommandPool");
   VkCommandBufferAllocateInfo command_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
   command_info.commandPool = command_pool;
   command_info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
   command_info.commandBufferCount = 1;
   VkCommandBuffer commands = VK_NULL_HANDLE;
   if (ok)
      check(vkAllocateCommandBuffers(device, &command_info, &commands), "vkAllocateCommandBuffers");
   if (ok) {
      VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
      vkBeginCommandBuffer(commands, &begin);
      vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
      vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
      vkCmdPushConstants(commands, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                         sizeof(job.push_constants), job.push_constants.data());
      vkCmdDispatch(commands, job.groups[0], job.groups[1], job.groups[2]);
      VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
      barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
      barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
      vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                           0, 1, &barrier, 0, nullptr, 0, nullptr);
      check(vkEndCommandBuffer(commands), "vkEndCommandBuffer");
      VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
      submit.commandBufferCount = 1;
      submit.pCommandBuffers = &commands;
      if (check(vkQueueSubmit(state_->queue, 1, &submit, VK_NULL_HANDLE), "vkQueueSubmit"))
         check(vkQueueWaitIdle(state_->queue), "vkQueueWaitIdle");
   }
   out.assign(binding_count, {});
   for (uint32_t b = 0; b < binding_count && ok; b++) {
      void *map = nullptr;
      if (check(vkMapMemory(device, memories[b], 0, VK_WHOLE_SIZE, 0, &map), "vkMapMemory")) {
         out[b].resize(job.buffers[b].size());
         std::memcpy(out[b].data(), map, out[b].size() * 4);
         vkUnmapMemory(device, memories[b]);
      }
   }

   vkDestroyCommandPool(device, command_pool, nullptr);
   vkDestroyDescriptorPool(device, pool, nullptr);
   vkDestroyPipeline(device, pipeline, nullptr);
   vkDestroyShaderModule(device, module, nullptr);
   vkDestroyPipelineLayout(device, layout, nullptr);
   vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
   for (uint32_t b = 0; b < binding_count; b++) {
      vkDestroyBuffer(device, buffers[b], nullptr);
      vkFreeMemory(device, memories[b], nullptr);
   }
   return ok;
}

} // namespace terakan::test
