/* A Vulkan device for API tests, chosen by name through the loader (Terakan on the simulator
 * or lavapipe), with the Khronos validation layer counting every warning and error, and small
 * helpers for host-visible buffers, descriptor sets and compute pipelines. Scenarios are
 * written once against this class and run on both devices, so lavapipe is the oracle. */
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <vector>

namespace terakan::test {

std::vector<uint32_t> read_spirv(const std::string &name); /* from TERAKAN_API_SHADERS */

/* What a test adds to a ComputeDevice: a feature chain (which then replaces the timeline
 * semaphore structure the device is otherwise made with, so that a Vulkan 1.2 feature
 * structure can be chained instead: it must enable timelineSemaphore) and extensions. */
struct ComputeDeviceOptions {
   const void *features_next = nullptr;
   std::vector<const char *> extensions;
};

class ComputeDevice {
public:
   /* robust_buffer_access: the device is made with that feature enabled. api_version: the
    * instance's (Vulkan 1.1 for SPIR-V 1.3 modules and 1.1's core commands). */
   using Options = ComputeDeviceOptions;
   explicit ComputeDevice(const char *device_name, bool validation = true,
                          bool robust_buffer_access = false, uint32_t api_version = VK_API_VERSION_1_1,
                          const Options &options = {});
   ~ComputeDevice();
   ComputeDevice(const ComputeDevice &) = delete;
   ComputeDevice &operator=(const ComputeDevice &) = delete;

   bool ok() const { return device != VK_NULL_HANDLE; }
   std::string error;
   unsigned validation_messages = 0;
   std::string device_name;

   VkInstance instance = VK_NULL_HANDLE;
   VkPhysicalDevice physical = VK_NULL_HANDLE;
   VkDevice device = VK_NULL_HANDLE;
   VkQueue queue = VK_NULL_HANDLE;
   uint32_t queue_family = 0;
   VkCommandPool pool = VK_NULL_HANDLE;
   bool timeline_semaphores = false;
   /* VK_KHR_device_group enabled: vkCmdDispatchBaseKHR through this pointer. */
   PFN_vkCmdDispatchBaseKHR dispatch_base = nullptr;
   /* VK_KHR_descriptor_update_template enabled (where offered): its commands. */
   PFN_vkCreateDescriptorUpdateTemplateKHR create_update_template = nullptr;
   PFN_vkDestroyDescriptorUpdateTemplateKHR destroy_update_template = nullptr;
   PFN_vkUpdateDescriptorSetWithTemplateKHR update_with_template = nullptr;
   /* Flags for the pipelines program() makes next (VK_PIPELINE_CREATE_DISPATCH_BASE_BIT). */
   VkPipelineCreateFlags pipeline_flags = 0;

   struct Buffer {
      VkBuffer buffer = VK_NULL_HANDLE;
      VkDeviceMemory memory = VK_NULL_HANDLE;
      uint32_t *words = nullptr;
      VkDeviceSize size = 0;
   };
   /* Host-visible, coherent, mapped for its lifetime. */
   Buffer buffer(VkDeviceSize size, VkBufferUsageFlags usage = 0);
   void destroy(Buffer &buffer);

   struct Program {
      std::vector<VkDescriptorSetLayout> set_layouts;
      std::vector<std::vector<VkDescriptorType>> types;
      VkPipelineLayout layout = VK_NULL_HANDLE;
      VkPipeline pipeline = VK_NULL_HANDLE;
      VkDescriptorPool descriptor_pool = VK_NULL_HANDLE;
   };
   /* `sets[s]` lists the descriptor types of set s, binding 0 onwards. */
   Program program(const std::vector<uint32_t> &spirv,
                   const std::vector<std::vector<VkDescriptorType>> &sets, uint32_t push_bytes,
                   VkResult *result = nullptr, const VkSpecializationInfo *specialization = nullptr);
   /* The same, with the SPIR-V of a shader of tests/api/shaders (read_spirv). */
   Program program(const std::string &shader, const std::vector<std::vector<VkDescriptorType>> &sets,
                   uint32_t push_bytes, VkResult *result = nullptr,
                   const VkSpecializationInfo *specialization = nullptr)
   {
      return program(read_spirv(shader), sets, push_bytes, result, specialization);
   }
   bool validation_enabled = false;
   void destroy(Program &program);
   VkDescriptorSet descriptor_set(Program &program, uint32_t set,
                                  const std::vector<VkDescriptorBufferInfo> &buffers);

   VkCommandBuffer begin();
   /* Ends, submits with an optional fence, and waits for the queue. */
   VkResult submit_and_wait(VkCommandBuffer commands);

   static void barrier(VkCommandBuffer commands);

   /* ---- images and samplers ---- */

   bool sampled_image_dynamic_indexing = false; /* the feature, enabled when offered */

   struct Image {
      VkImage image = VK_NULL_HANDLE;
      VkDeviceMemory memory = VK_NULL_HANDLE;
      VkFormat format = VK_FORMAT_UNDEFINED;
      VkImageType type = VK_IMAGE_TYPE_2D;
      VkExtent3D extent{1, 1, 1};
      uint32_t layers = 1, levels = 1;
   };
   /* An optimal-tiling sampled image filled from `texels`: every level in order, each level
    * all its layers (or z slices) in order, rows packed. Left in SHADER_READ_ONLY_OPTIMAL.
    * Compressed formats: `block` texels a side, `bytes_per_texel` per block. */
   VkImageUsageFlags extra_image_usage = 0; /* added to the usage of the images image() makes */
   Image image(VkFormat format, VkImageType type, VkExtent3D extent, uint32_t layers,
               uint32_t levels, const std::vector<uint8_t> &texels, unsigned bytes_per_texel,
               VkImageCreateFlags flags = 0, unsigned block = 1);
   VkImageView view(const Image &image, VkImageViewType type, uint32_t base_level = 0,
                    uint32_t levels = VK_REMAINING_MIP_LEVELS, uint32_t base_layer = 0,
                    uint32_t layers = VK_REMAINING_ARRAY_LAYERS);
   void destroy(Image &image);
   VkSampler sampler(VkFilter filter, VkSamplerAddressMode mode, bool unnormalized,
                     VkSamplerMipmapMode mip = VK_SAMPLER_MIPMAP_MODE_NEAREST, float max_lod = 0.0f,
                     VkBorderColor border = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK);

   /* A program whose set layouts are given binding by binding (arrays, immutable samplers). */
   Program program_with_bindings(const std::vector<uint32_t> &spirv,
                                 const std::vector<std::vector<VkDescriptorSetLayoutBinding>> &sets,
                                 uint32_t push_bytes, VkResult *result = nullptr,
                                 const VkSpecializationInfo *specialization = nullptr);
   VkDescriptorSet allocate_set(Program &program, uint32_t set);
   void write_buffer(VkDescriptorSet set, uint32_t binding, VkDescriptorType type,
                     const Buffer &buffer);
   void write_image(VkDescriptorSet set, uint32_t binding, uint32_t element, VkDescriptorType type,
                    VkImageView view, VkSampler sampler);
};

/* The aspect of a format's whole images: depth for the depth-only formats, else colour. */
VkImageAspectFlags image_aspect(VkFormat format);

/* One device of each kind per test program, made on first use: the simulated card and the
 * reference. */
ComputeDevice &terakan_gpu();
ComputeDevice &lavapipe_gpu();

} // namespace terakan::test
