/* Vulkan set-up shared by the API tests' ComputeDevice (api/compute_device.h) and the
 * compiler tests' VulkanDrawRunner (compiler/vulkan_draw_runner.h). Both pick a device by
 * name through the loader, count the validation layer's findings, and keep host-visible
 * buffers and device images; the steps that are the same for both live here so that a fix
 * to one (a memory type, a queue family) reaches the other. What differs between them (API
 * version, extensions, features, the kind of queue) stays with each caller. */
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace terakan::test {

/* Whether the loader offers an instance layer or extension, or the device an extension. */
bool has_instance_layer(const char *name);
bool has_instance_extension(const char *name);
bool has_device_extension(VkPhysicalDevice physical, const char *name);

/* The messenger both install: warnings and errors, validation and general messages (the
 * general ones reach the callback, which counts only what is_validation_finding accepts). */
VkDebugUtilsMessengerCreateInfoEXT validation_messenger_info(PFN_vkDebugUtilsMessengerCallbackEXT callback,
                                                             void *user);
/* A finding of the validation layer: drivers' own log messages arrive as GENERAL. */
bool is_validation_finding(VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT type);

/* A messenger callback that counts the findings in the `unsigned` its user pointer names and
 * prints each to stderr (the API test programs' callback). */
VKAPI_ATTR VkBool32 VKAPI_CALL count_validation_finding(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                        VkDebugUtilsMessageTypeFlagsEXT type,
                                                        const VkDebugUtilsMessengerCallbackDataEXT *data,
                                                        void *user);

/* The words of NAME.spv in the folder TERAKAN_API_SHADERS names (the current one without
 * it); empty if the file cannot be read. */
std::vector<uint32_t> read_api_spirv(const std::string &name);

/* `next` heads the create info's pNext chain (a messenger's create info covers instance
 * creation and destruction). */
VkResult create_instance(const char *application, uint32_t api_version, const std::vector<const char *> &layers,
                         const std::vector<const char *> &extensions, const void *next, VkInstance &instance);
/* Destroys an instance made by create_instance, with the messenger it made: a messenger's
 * create info in the instance's pNext chain only covers vkCreateInstance and
 * vkDestroyInstance (VK_EXT_debug_utils), so create_instance also makes a messenger of its
 * own from it that reports everything in between. */
void destroy_instance(VkInstance instance);

/* The first device whose name holds `name` (a part is enough: "llvmpipe"), or null. */
VkPhysicalDevice find_physical_device(VkInstance instance, const char *name);

/* The first queue family with all of `flags`. */
std::optional<uint32_t> find_queue_family(VkPhysicalDevice physical, VkQueueFlags flags);

/* A device with one queue (priority 1) of `family`. */
VkResult create_device(VkPhysicalDevice physical, uint32_t family, const void *next,
                       const VkPhysicalDeviceFeatures *features, const std::vector<const char *> &extensions,
                       VkDevice &device);

/* The first memory type among `bits` with all of `wanted`. */
std::optional<uint32_t> find_memory_type(VkPhysicalDevice physical, uint32_t bits, VkMemoryPropertyFlags wanted);

/* A buffer in host-visible, coherent memory, mapped whole. False when a step failed; what was
 * made by then is in `buffer` and `memory` for the caller to destroy. */
bool create_host_buffer(VkPhysicalDevice physical, VkDevice device, VkDeviceSize size, VkBufferUsageFlags usage,
                        VkBuffer &buffer, VkDeviceMemory &memory, void *&map);

/* Memory of the first type `image` accepts, bound to it. */
bool bind_image_memory(VkPhysicalDevice physical, VkDevice device, VkImage image, VkDeviceMemory &memory);

/* A 2D optimal-tiling image of one level and layer with its memory and a 2D view of `aspect`
 * (attachments and the like). False if any step fails; what was made is left for the caller
 * to destroy. */
struct Image2D {
   VkImage image = VK_NULL_HANDLE;
   VkDeviceMemory memory = VK_NULL_HANDLE;
   VkImageView view = VK_NULL_HANDLE;
};
bool create_image_2d(VkPhysicalDevice physical, VkDevice device, VkFormat format, VkImageUsageFlags usage,
                     VkImageAspectFlags aspect, uint32_t width, uint32_t height, VkSampleCountFlagBits samples,
                     Image2D &image);
void destroy_image_2d(VkDevice device, Image2D &image);

/* The render pass most scenes draw with: one single-sample colour attachment of `format`,
 * cleared at the start and stored, left in TRANSFER_SRC_OPTIMAL for a copy out (with the
 * dependency that copy needs), and a framebuffer of `view` at width x height. False if either
 * fails; what was made is left for the caller to destroy. */
bool create_colour_pass(VkDevice device, VkFormat format, VkImageView view, uint32_t width, uint32_t height,
                        VkRenderPass &pass, VkFramebuffer &framebuffer);

/* A graphics pipeline with the fixed-function state most scenes use (filled polygons, no
 * culling, 1-pixel lines, one colour attachment written whole, no blending) and the caller's
 * stages, vertex input, assembly, viewports, sample count and depth/stencil state (none when
 * null), for subpass 0 of `pass`. Shorthands for what scenes mostly pass: without `stages`,
 * `vertex` and `fragment` modules with entry point "main"; without `vertex_input`, no vertex
 * buffers; without `assembly`, a triangle list; without `viewports`, one viewport and scissor
 * over `viewport_extent` (depth 0 to 1). */
struct BasicPipeline {
   const VkPipelineShaderStageCreateInfo *stages = nullptr;
   uint32_t stage_count = 2;
   VkShaderModule vertex = VK_NULL_HANDLE, fragment = VK_NULL_HANDLE;
   const VkPipelineVertexInputStateCreateInfo *vertex_input = nullptr;
   const VkPipelineInputAssemblyStateCreateInfo *assembly = nullptr;
   const VkPipelineViewportStateCreateInfo *viewports = nullptr;
   VkExtent2D viewport_extent = {0, 0};
   VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
   const VkPipelineDepthStencilStateCreateInfo *depth_stencil = nullptr;
   VkPipelineLayout layout = VK_NULL_HANDLE;
   VkRenderPass pass = VK_NULL_HANDLE;
};
VkResult create_basic_pipeline(VkDevice device, const BasicPipeline &basic, VkPipeline &pipeline);

} // namespace terakan::test
