/* One run of a graphics API test program on one device: the instance (with the Khronos
 * validation layer counting its findings, when installed), the device and its queue, and the
 * objects the run makes, destroyed in reverse order when the session ends. The programs that
 * compare Terakan with lavapipe run the same scene in two sessions. */
#pragma once

#include <vulkan/vulkan.h>

#include <functional>
#include <string>
#include <vector>

namespace terakan::test {

struct SessionOptions {
   uint32_t api_version = VK_API_VERSION_1_1;
   bool validation = true;
   const char *application = "terakan-api-test";
   std::vector<const char *> instance_extensions;
   std::vector<const char *> device_extensions;
   /* The device create info's pNext chain (VkPhysicalDeviceFeatures2 and friends), or the 1.0
    * features when that is null. */
   const void *device_next = nullptr;
   VkPhysicalDeviceFeatures features{};
   VkQueueFlags queue_flags = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
};

class Session {
public:
   Session() = default;
   Session(const Session &) = delete;
   Session &operator=(const Session &) = delete;
   virtual ~Session();

   /* Opens the device whose name holds `name`; the validation layer's findings are counted
    * into `messages` for the instance's whole life. False with `error` set on failure. */
   bool open(const char *name, unsigned &messages, std::string &error, const SessionOptions &options = {});
   /* Runs `cleanup` when the session ends, before what was made earlier. */
   void later(std::function<void()> cleanup) { cleanups.push_back(std::move(cleanup)); }
   /* Waits for the device and runs the cleanups now. A derived session whose cleanups use its
    * own members calls this from its destructor: by the time the base destructor runs, those
    * members are gone. */
   void release();

   /* An image with its own memory (null on failure). */
   VkImage image(const VkImageCreateInfo &info);
   VkImageView view(VkImage image, VkImageViewType type, VkFormat format, const VkImageSubresourceRange &range);
   /* A host-visible, coherent buffer mapped at `map`. */
   VkBuffer buffer(VkDeviceSize size, VkBufferUsageFlags usage, void *&map);
   /* The module of NAME.spv from TERAKAN_API_SHADERS (null when it cannot be read). */
   VkShaderModule module(const std::string &name);
   /* A primary command buffer in the recording state. */
   VkCommandBuffer begin();
   /* Ends, submits and waits for `commands`. */
   VkResult submit_and_wait(VkCommandBuffer commands);

   VkInstance instance = VK_NULL_HANDLE;
   VkPhysicalDevice physical = VK_NULL_HANDLE;
   VkDevice device = VK_NULL_HANDLE;
   VkQueue queue = VK_NULL_HANDLE;
   uint32_t family = 0;

private:
   std::vector<std::function<void()>> cleanups;
   VkCommandPool pool = VK_NULL_HANDLE;
};

} // namespace terakan::test
