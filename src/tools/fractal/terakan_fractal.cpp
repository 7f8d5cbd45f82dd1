/* The main job: computes a picture (a Mandelbrot set) with a Vulkan compute shader on the
 * first device whose name contains --device TEXT (default "Terakan"), writes it as a PNG and
 * prints the device's name and how long the GPU work took. Run on lavapipe
 * (--device llvmpipe), it gives the reference picture the tests compare against. */
#include <vulkan/vulkan.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "mandelbrot_spirv.h"
#include "png_writer.h"

namespace {

struct Options {
   std::string device = "Terakan";
   std::string output = "terakan-fractal.png";
   uint32_t width = 256, height = 192;
};

bool fail(const char *what, VkResult result)
{
   std::fprintf(stderr, "terakan-fractal: %s failed (VkResult %d)\n", what, int(result));
   return false;
}


bool run(const Options &options)
{
   VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
   app.pApplicationName = "terakan-fractal";
   app.apiVersion = VK_API_VERSION_1_0;
   VkInstanceCreateInfo instance_info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
   instance_info.pApplicationInfo = &app;
   VkInstance instance;
   VkResult result = vkCreateInstance(&instance_info, nullptr, &instance);
   if (result != VK_SUCCESS)
      return fail("vkCreateInstance", result);

   uint32_t count = 0;
   vkEnumeratePhysicalDevices(instance, &count, nullptr);
   std::vector<VkPhysicalDevice> devices(count);
   vkEnumeratePhysicalDevices(instance, &count, devices.data());
   VkPhysicalDevice physical = VK_NULL_HANDLE;
   VkPhysicalDeviceProperties properties{};
   for (VkPhysicalDevice candidate : devices) {
      vkGetPhysicalDeviceProperties(candidate, &properties);
      if (std::strstr(properties.deviceName, options.device.c_str())) {
         physical = candidate;
         break;
      }
   }
   if (!physical) {
      std::fprintf(stderr, "terakan-fractal: no Vulkan device named '%s'\n", options.device.c_str());
      vkDestroyInstance(instance, nullptr);
      return false;
   }

   uint32_t family_count = 0, family = 0;
   vkGetPhysicalDeviceQueueFamilyProperties(physical, &family_count, nullptr);
   std::vector<VkQueueFamilyProperties> families(family_count);
   vkGetPhysicalDeviceQueueFamilyProperties(physical, &family_count, families.data());
   while (family < family_count && !(families[family].queueFlags & VK_QUEUE_COMPUTE_BIT))
      family++;
   const float priority = 1.0f;
   VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
   queue_info.queueFamilyIndex = family;
   queue_info.queueCount = 1;
   queue_info.pQueuePriorities = &priority;
   VkDeviceCreateInfo device_info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
   device_info.queueCreateInfoCount = 1;
   device_info.pQueueCreateInfos = &queue_info;
   VkDevice device;
   if ((result = vkCreateDevice(physical, &device_info, nullptr, &device)) != VK_SUCCESS)
      return fail("vkCreateDevice", result);
   VkQueue queue;
   vkGetDeviceQueue(device, family, 0, &queue);

   /* The picture, in host-visible memory. */
   const VkDeviceSize size = VkDeviceSize(options.width) * options.height * 4;
   VkBufferCreateInfo buffer_info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
   buffer_info.size = size;
   buffer_info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
   VkBuffer buffer;
   vkCreateBuffer(device, &buffer_info, nullptr, &buffer);
   VkMemoryRequirements requirements;
   vkGetBufferMemoryRequirements(device, buffer, &requirements);
   VkPhysicalDeviceMemoryProperties memory_properties;
   vkGetPhysicalDeviceMemoryProperties(physical, &memory_properties);
   VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
   allocate.allocationSize = requirements.size;
   const VkMemoryPropertyFlags wanted = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
   for (uint32_t t = 0; t < memory_properties.memoryTypeCount; t++)
      if ((requirements.memoryTypeBits >> t & 1) &&
          (memory_properties.memoryTypes[t].propertyFlags & wanted) == wanted) {
         allocate.memoryTypeIndex = t;
         break;
      }
   VkDeviceMemory memory;
   if ((result = vkAllocateMemory(device, &allocate, nullptr, &memory)) != VK_SUCCESS)
      return fail("vkAllocateMemory", result);
   vkBindBufferMemory(device, buffer, memory, 0);

   const VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
   VkDescriptorSetLayoutCreateInfo set_layout_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
   set_layout_info.bindingCount = 1;
   set_layout_info.pBindings = &binding;
   VkDescriptorSetLayout set_layout;
   vkCreateDescriptorSetLayout(device, &set_layout_info, nullptr, &set_layout);
   struct View {
      uint32_t width, height;
      float center_x, center_y, scale;
      uint32_t max_iterations;
   } view = {options.width, options.height, -0.745f, 0.11f, 0.0003f, 256};
   const VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(View)};
   VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
   layout_info.setLayoutCount = 1;
   layout_info.pSetLayouts = &set_layout;
   layout_info.pushConstantRangeCount = 1;
   layout_info.pPushConstantRanges = &range;
   VkPipelineLayout layout;
   vkCreatePipelineLayout(device, &layout_info, nullptr, &layout);
   VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
   module_info.codeSize = sizeof(mandelbrot_spirv);
   module_info.pCode = mandelbrot_spirv;
   VkShaderModule module;
   vkCreateShaderModule(device, &module_info, nullptr, &module);
   VkComputePipelineCreateInfo pipeline_info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
   pipeline_info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
   pipeline_info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
   pipeline_info.stage.module = module;
   pipeline_info.stage.pName = "main";
   pipeline_info.layout = layout;
   VkPipeline pipeline;
   const auto compile_start = std::chrono::steady_clock::now();
   if ((result = vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &pipeline_info, nullptr, &pipeline)) != VK_SUCCESS)
      return fail("vkCreateComputePipelines", result);
   const double compile_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - compile_start).count();

   const VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
   VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
   pool_info.maxSets = 1;
   pool_info.poolSizeCount = 1;
   pool_info.pPoolSizes = &pool_size;
   VkDescriptorPool pool;
   vkCreateDescriptorPool(device, &pool_info, nullptr, &pool);
   VkDescriptorSetAllocateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
   set_info.descriptorPool = pool;
   set_info.descriptorSetCount = 1;
   set_info.pSetLayouts = &set_layout;
   VkDescriptorSet set;
   vkAllocateDescriptorSets(device, &set_info, &set);
   const VkDescriptorBufferInfo described{buffer, 0, VK_WHOLE_SIZE};
   VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
   write.dstSet = set;
   write.descriptorCount = 1;
   write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
   write.pBufferInfo = &described;
   vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);

   VkCommandPoolCreateInfo command_pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
   command_pool_info.queueFamilyIndex = family;
   VkCommandPool command_pool;
   vkCreateCommandPool(device, &command_pool_info, nullptr, &command_pool);
   VkCommandBufferAllocateInfo command_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
   command_info.commandPool = command_pool;
   command_info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
   command_info.commandBufferCount = 1;
   VkCommandBuffer commands;
   vkAllocateCommandBuffers(device, &command_info, &commands);
   VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
   vkBeginCommandBuffer(commands, &begin);
   vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
   vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
   vkCmdPushConstants(commands, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(view), &view);
   vkCmdDispatch(commands, (options.width + 7) / 8, (options.height + 7) / 8, 1);
   VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
   barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
   barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
   vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0,
                        1, &barrier, 0, nullptr, 0, nullptr);
   vkEndCommandBuffer(commands);
   VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
   submit.commandBufferCount = 1;
   submit.pCommandBuffers = &commands;
   const auto start = std::chrono::steady_clock::now();
   result = vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE);
   if (result == VK_SUCCESS)
      result = vkQueueWaitIdle(queue);
   const double gpu_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
   if (result != VK_SUCCESS)
      return fail("vkQueueSubmit", result);

   void *map;
   vkMapMemory(device, memory, 0, VK_WHOLE_SIZE, 0, &map);
   const bool written = terakan::tools::write_png(options.output, options.width, options.height,
                                  static_cast<const uint32_t *>(map));
   vkUnmapMemory(device, memory);
   std::printf("device: %s\n", properties.deviceName);
   std::printf("picture: %ux%u Mandelbrot set, %u iterations at most, written to %s\n",
               options.width, options.height, view.max_iterations, options.output.c_str());
   std::printf("pipeline creation: %.1f ms; submit to completion: %.1f ms\n", compile_ms, gpu_ms);

   vkDestroyCommandPool(device, command_pool, nullptr);
   vkDestroyDescriptorPool(device, pool, nullptr);
   vkDestroyPipeline(device, pipeline, nullptr);
   vkDestroyShaderModule(device, module, nullptr);
   vkDestroyPipelineLayout(device, layout, nullptr);
   vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
   vkDestroyBuffer(device, buffer, nullptr);
   vkFreeMemory(device, memory, nullptr);
   vkDestroyDevice(device, nullptr);
   vkDestroyInstance(instance, nullptr);
   if (!written)
      std::fprintf(stderr, "terakan-fractal: cannot write %s\n", options.output.c_str());
   return written;
}

} // namespace

int main(int argc, char **argv)
{
   Options options;
   for (int i = 1; i < argc; i++) {
      const std::string arg = argv[i];
      if (arg == "--device" && i + 1 < argc) {
         options.device = argv[++i];
      } else if (arg == "--output" && i + 1 < argc) {
         options.output = argv[++i];
      } else if (arg == "--size" && i + 2 < argc) {
         options.width = uint32_t(std::strtoul(argv[++i], nullptr, 10));
         options.height = uint32_t(std::strtoul(argv[++i], nullptr, 10));
      } else {
         std::fprintf(stderr, "usage: terakan-fractal [--device NAME] [--output FILE.png] [--size W H]\n");
         return 2;
      }
   }
   if (options.width == 0 || options.height == 0 || options.width > 4096 || options.height > 4096) {
      std::fprintf(stderr, "terakan-fractal: the size must be 1 to 4096 on each side\n");
      return 2;
   }
   return run(options) ? 0 : 1;
}
