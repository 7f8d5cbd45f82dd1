#include <algorithm>
#include "compute_device.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

#include "../vulkan_helpers.h"

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
   if (is_validation_finding(severity, type)) {
      device->validation_messages++;
      std::fprintf(stderr, "validation (%s): %s\n", device->device_name.c_str(), data->pMessage);
   }
   return VK_FALSE;
}

ComputeDevice::ComputeDevice(const char *name, bool validation, bool robust_buffer_access, uint32_t api_version,
                             const Options &options)
   : device_name(name)
{
   std::vector<const char *> layers;
   if (validation)
      layers.push_back("VK_LAYER_KHRONOS_validation");
   std::vector<const char *> extensions = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME,
                                           VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME};
   /* Device groups only where the implementation offers them (both devices tested do). */
   const bool group_creation = has_instance_extension(VK_KHR_DEVICE_GROUP_CREATION_EXTENSION_NAME);
   if (group_creation)
      extensions.push_back(VK_KHR_DEVICE_GROUP_CREATION_EXTENSION_NAME);
   const VkDebugUtilsMessengerCreateInfoEXT messenger = validation_messenger_info(on_message, this);
   /* The messenger in the chain also covers instance creation and destruction. */
   if (create_instance("terakan-api-tests", api_version, layers, extensions, &messenger, instance) !=
       VK_SUCCESS) {
      error = "vkCreateInstance failed (is the validation layer installed?)";
      return;
   }
   validation_enabled = validation;
   physical = find_physical_device(instance, name);
   if (!physical) {
      error = std::string("no Vulkan device named '") + name + "'";
      return;
   }
   timeline_semaphores = has_device_extension(physical, VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME);
   /* The first family with compute; family 0 where none has it. */
   queue_family = find_queue_family(physical, VK_QUEUE_COMPUTE_BIT).value_or(0);
   VkPhysicalDeviceTimelineSemaphoreFeatures timeline{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES};
   timeline.timelineSemaphore = VK_TRUE;
   std::vector<const char *> device_extensions;
   if (timeline_semaphores)
      device_extensions.push_back(VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME);
   if (group_creation && has_device_extension(physical, VK_KHR_DEVICE_GROUP_EXTENSION_NAME))
      device_extensions.push_back(VK_KHR_DEVICE_GROUP_EXTENSION_NAME);
   if (has_device_extension(physical, VK_KHR_DESCRIPTOR_UPDATE_TEMPLATE_EXTENSION_NAME))
      device_extensions.push_back(VK_KHR_DESCRIPTOR_UPDATE_TEMPLATE_EXTENSION_NAME);
   if (has_device_extension(physical, VK_KHR_SAMPLER_MIRROR_CLAMP_TO_EDGE_EXTENSION_NAME))
      device_extensions.push_back(VK_KHR_SAMPLER_MIRROR_CLAMP_TO_EDGE_EXTENSION_NAME);
   VkPhysicalDeviceFeatures offered{};
   vkGetPhysicalDeviceFeatures(physical, &offered);
   VkPhysicalDeviceFeatures enabled{};
   sampled_image_dynamic_indexing = offered.shaderSampledImageArrayDynamicIndexing;
   enabled.shaderSampledImageArrayDynamicIndexing = offered.shaderSampledImageArrayDynamicIndexing;
   enabled.imageCubeArray = offered.imageCubeArray;
   /* Storage images without a format in the shader (api-storage-images-*), where offered. */
   enabled.shaderStorageImageReadWithoutFormat = offered.shaderStorageImageReadWithoutFormat;
   enabled.shaderStorageImageWriteWithoutFormat = offered.shaderStorageImageWriteWithoutFormat;
   /* Format qualifiers such as r16ui (lavapipe, the reference, reads them only so; Terakan
    * does not offer the feature: api-storage-formats reads those formats without a format). */
   enabled.shaderStorageImageExtendedFormats = offered.shaderStorageImageExtendedFormats;
   if (robust_buffer_access && !offered.robustBufferAccess) {
      error = device_name + " does not offer robustBufferAccess";
      return;
   }
   enabled.robustBufferAccess = robust_buffer_access;
   const void *features_next = timeline_semaphores ? &timeline : nullptr;
   if (options.features_next)
      features_next = options.features_next;
   device_extensions.insert(device_extensions.end(), options.extensions.begin(), options.extensions.end());
   if (create_device(physical, queue_family, features_next, &enabled, device_extensions, device) != VK_SUCCESS) {
      error = "vkCreateDevice failed";
      device = VK_NULL_HANDLE;
      return;
   }
   vkGetDeviceQueue(device, queue_family, 0, &queue);
   for (const char *e : device_extensions) {
      if (!std::strcmp(e, VK_KHR_DEVICE_GROUP_EXTENSION_NAME))
         dispatch_base = reinterpret_cast<PFN_vkCmdDispatchBaseKHR>(
            vkGetDeviceProcAddr(device, "vkCmdDispatchBaseKHR"));
      if (!std::strcmp(e, VK_KHR_DESCRIPTOR_UPDATE_TEMPLATE_EXTENSION_NAME)) {
         create_update_template = reinterpret_cast<PFN_vkCreateDescriptorUpdateTemplateKHR>(
            vkGetDeviceProcAddr(device, "vkCreateDescriptorUpdateTemplateKHR"));
         destroy_update_template = reinterpret_cast<PFN_vkDestroyDescriptorUpdateTemplateKHR>(
            vkGetDeviceProcAddr(device, "vkDestroyDescriptorUpdateTemplateKHR"));
         update_with_template = reinterpret_cast<PFN_vkUpdateDescriptorSetWithTemplateKHR>(
            vkGetDeviceProcAddr(device, "vkUpdateDescriptorSetWithTemplateKHR"));
      }
   }
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
      destroy_instance(instance);
}

VkImageAspectFlags image_aspect(VkFormat format)
{
   switch (format) {
   case VK_FORMAT_D16_UNORM:
   case VK_FORMAT_X8_D24_UNORM_PACK32:
   case VK_FORMAT_D32_SFLOAT: return VK_IMAGE_ASPECT_DEPTH_BIT;
   default: return VK_IMAGE_ASPECT_COLOR_BIT;
   }
}

ComputeDevice::Buffer ComputeDevice::buffer(VkDeviceSize size, VkBufferUsageFlags usage)
{
   Buffer b;
   b.size = size;
   const VkBufferUsageFlags any_use = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |
                                      VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                      VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;
   void *map = nullptr;
   if (!create_host_buffer(physical, device, size, usage ? usage : any_use, b.buffer, b.memory, map))
      return b;
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
   /* One descriptor per binding, bindings numbered from 0. */
   std::vector<std::vector<VkDescriptorSetLayoutBinding>> bindings(sets.size());
   for (size_t s = 0; s < sets.size(); s++)
      for (uint32_t b = 0; b < sets[s].size(); b++)
         bindings[s].push_back({b, sets[s][b], 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
   return program_with_bindings(spirv, bindings, push_bytes, result_out, specialization);
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

/* ---- images and samplers ---- */

ComputeDevice::Image ComputeDevice::image(VkFormat format, VkImageType type, VkExtent3D extent,
                                          uint32_t layers, uint32_t levels,
                                          const std::vector<uint8_t> &texels, unsigned bytes_per_texel,
                                          VkImageCreateFlags flags, unsigned block)
{
   Image out;
   out.format = format;
   out.type = type;
   out.extent = extent;
   out.layers = layers;
   out.levels = levels;
   VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
   info.flags = flags;
   info.imageType = type;
   info.format = format;
   info.extent = extent;
   info.mipLevels = levels;
   info.arrayLayers = layers;
   info.samples = VK_SAMPLE_COUNT_1_BIT;
   info.tiling = VK_IMAGE_TILING_OPTIMAL;
   info.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                extra_image_usage;
   info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
   if (vkCreateImage(device, &info, nullptr, &out.image) != VK_SUCCESS)
      return out;
   if (!bind_image_memory(physical, device, out.image, out.memory))
      return out;

   Buffer staging = buffer(std::max<size_t>(texels.size(), 4), VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
   std::memcpy(staging.words, texels.data(), texels.size());
   VkCommandBuffer commands = begin();
   VkImageMemoryBarrier to_transfer{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
   to_transfer.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
   to_transfer.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
   to_transfer.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
   to_transfer.srcQueueFamilyIndex = to_transfer.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
   to_transfer.image = out.image;
   to_transfer.subresourceRange = {image_aspect(format), 0, levels, 0, layers};
   vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                        0, 0, nullptr, 0, nullptr, 1, &to_transfer);
   VkDeviceSize offset = 0;
   std::vector<VkBufferImageCopy> regions;
   for (uint32_t level = 0; level < levels; level++) {
      VkExtent3D e{std::max(extent.width >> level, 1u), std::max(extent.height >> level, 1u),
                   std::max(extent.depth >> level, 1u)};
      VkBufferImageCopy region{};
      region.bufferOffset = offset;
      region.imageSubresource = {image_aspect(format), level, 0, layers};
      region.imageExtent = e;
      regions.push_back(region);
      offset += VkDeviceSize((e.width + block - 1) / block) * ((e.height + block - 1) / block) * e.depth * layers *
                bytes_per_texel;
   }
   vkCmdCopyBufferToImage(commands, staging.buffer, out.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                          uint32_t(regions.size()), regions.data());
   VkImageMemoryBarrier to_shader = to_transfer;
   to_shader.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
   to_shader.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
   to_shader.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
   to_shader.newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
   vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                        0, 0, nullptr, 0, nullptr, 1, &to_shader);
   submit_and_wait(commands);
   destroy(staging);
   return out;
}

VkImageView ComputeDevice::view(const Image &image, VkImageViewType type, uint32_t base_level,
                                uint32_t levels, uint32_t base_layer, uint32_t layers)
{
   VkImageViewCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
   info.image = image.image;
   info.viewType = type;
   info.format = image.format;
   info.subresourceRange = {image_aspect(image.format), base_level, levels, base_layer, layers};
   VkImageView view = VK_NULL_HANDLE;
   vkCreateImageView(device, &info, nullptr, &view);
   return view;
}

void ComputeDevice::destroy(Image &image)
{
   vkDestroyImage(device, image.image, nullptr);
   if (image.memory)
      vkFreeMemory(device, image.memory, nullptr);
   image = {};
}

VkSampler ComputeDevice::sampler(VkFilter filter, VkSamplerAddressMode mode, bool unnormalized,
                                 VkSamplerMipmapMode mip, float max_lod, VkBorderColor border)
{
   VkSamplerCreateInfo info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
   info.magFilter = info.minFilter = filter;
   info.mipmapMode = mip;
   info.addressModeU = info.addressModeV = info.addressModeW = mode;
   info.maxLod = max_lod;
   info.borderColor = border;
   info.unnormalizedCoordinates = unnormalized;
   VkSampler sampler = VK_NULL_HANDLE;
   vkCreateSampler(device, &info, nullptr, &sampler);
   return sampler;
}

ComputeDevice::Program ComputeDevice::program_with_bindings(
   const std::vector<uint32_t> &spirv, const std::vector<std::vector<VkDescriptorSetLayoutBinding>> &sets,
   uint32_t push_bytes, VkResult *result_out, const VkSpecializationInfo *specialization)
{
   Program p;
   std::vector<VkDescriptorPoolSize> pool_sizes;
   for (const auto &bindings : sets) {
      p.types.emplace_back();
      for (const VkDescriptorSetLayoutBinding &b : bindings) {
         p.types.back().push_back(b.descriptorType);
         pool_sizes.push_back({b.descriptorType, 64 * b.descriptorCount});
      }
      VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
      info.bindingCount = uint32_t(bindings.size());
      info.pBindings = bindings.data();
      VkDescriptorSetLayout layout = VK_NULL_HANDLE;
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
      info.flags = pipeline_flags;
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

VkDescriptorSet ComputeDevice::allocate_set(Program &p, uint32_t set)
{
   VkDescriptorSetAllocateInfo allocate{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
   allocate.descriptorPool = p.descriptor_pool;
   allocate.descriptorSetCount = 1;
   allocate.pSetLayouts = &p.set_layouts[set];
   VkDescriptorSet handle = VK_NULL_HANDLE;
   vkAllocateDescriptorSets(device, &allocate, &handle);
   return handle;
}

void ComputeDevice::write_buffer(VkDescriptorSet set, uint32_t binding, VkDescriptorType type,
                                 const Buffer &b)
{
   const VkDescriptorBufferInfo info{b.buffer, 0, VK_WHOLE_SIZE};
   VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
   write.dstSet = set;
   write.dstBinding = binding;
   write.descriptorCount = 1;
   write.descriptorType = type;
   write.pBufferInfo = &info;
   vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);
}

void ComputeDevice::write_image(VkDescriptorSet set, uint32_t binding, uint32_t element,
                                VkDescriptorType type, VkImageView view, VkSampler sampler)
{
   const VkDescriptorImageInfo info{sampler, view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
   VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
   write.dstSet = set;
   write.dstBinding = binding;
   write.dstArrayElement = element;
   write.descriptorCount = 1;
   write.descriptorType = type;
   write.pImageInfo = &info;
   vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);
}

ComputeDevice &terakan_gpu()
{
   static ComputeDevice device("Terakan");
   return device;
}

ComputeDevice &lavapipe_gpu()
{
   static ComputeDevice device("llvmpipe");
   return device;
}

} // namespace terakan::test
