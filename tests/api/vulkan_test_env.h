/* Shared set-up for API tests: an instance through the real Vulkan loader, with the Khronos
 * validation layer on and every validation error counted. */
#pragma once

#include <vulkan/vulkan.h>

#include <string>
#include <vector>

struct ValidationCounter {
   int errors = 0;
   int warnings = 0;
   std::vector<std::string> messages;
};

class TestInstance {
public:
   /* Creates an instance; `validation` enables VK_LAYER_KHRONOS_validation and a messenger
    * that records its errors. */
   explicit TestInstance(bool validation = true, uint32_t api_version = VK_API_VERSION_1_0);
   ~TestInstance();

   VkResult result() const { return result_; }
   VkInstance get() const { return instance_; }
   std::vector<VkPhysicalDevice> physical_devices(VkResult *result = nullptr) const;
   const ValidationCounter &validation() const { return counter_; }

private:
   VkInstance instance_ = VK_NULL_HANDLE;
   VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
   VkResult result_ = VK_ERROR_INITIALIZATION_FAILED;
   ValidationCounter counter_;
};
