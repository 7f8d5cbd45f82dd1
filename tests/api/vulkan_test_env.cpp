#include "vulkan_test_env.h"

#include <cstdio>
#include <cstring>

static VKAPI_ATTR VkBool32 VKAPI_CALL
count_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
              VkDebugUtilsMessageTypeFlagsEXT, const VkDebugUtilsMessengerCallbackDataEXT *data,
              void *user)
{
   auto *counter = static_cast<ValidationCounter *>(user);
   if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) {
      counter->errors++;
      counter->messages.emplace_back(data->pMessage ? data->pMessage : "");
      std::fprintf(stderr, "validation error: %s\n", data->pMessage);
   } else if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
      counter->warnings++;
   }
   return VK_FALSE;
}

TestInstance::TestInstance(bool validation, uint32_t api_version)
{
   VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO};
   app.pApplicationName = "terakan-api-tests";
   app.apiVersion = api_version;

   const char *layers[] = {"VK_LAYER_KHRONOS_validation"};
   const char *extensions[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME,
                               VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME};

   VkDebugUtilsMessengerCreateInfoEXT messenger_info = {
      VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
   messenger_info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT |
                                    VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT;
   messenger_info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                                VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
   messenger_info.pfnUserCallback = count_message;
   messenger_info.pUserData = &counter_;

   VkInstanceCreateInfo info = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
   info.pApplicationInfo = &app;
   if (validation) {
      info.enabledLayerCount = 1;
      info.ppEnabledLayerNames = layers;
      info.enabledExtensionCount = 2;
      info.ppEnabledExtensionNames = extensions;
      info.pNext = &messenger_info;
   } else {
      info.enabledExtensionCount = 1;
      info.ppEnabledExtensionNames = extensions + 1;
   }
   result_ = vkCreateInstance(&info, nullptr, &instance_);
   if (result_ != VK_SUCCESS)
      return;

   if (validation) {
      auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
         vkGetInstanceProcAddr(instance_, "vkCreateDebugUtilsMessengerEXT"));
      if (create)
         create(instance_, &messenger_info, nullptr, &messenger_);
   }
}

TestInstance::~TestInstance()
{
   if (messenger_) {
      auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
         vkGetInstanceProcAddr(instance_, "vkDestroyDebugUtilsMessengerEXT"));
      destroy(instance_, messenger_, nullptr);
   }
   if (instance_)
      vkDestroyInstance(instance_, nullptr);
}

std::vector<VkPhysicalDevice> TestInstance::physical_devices(VkResult *result) const
{
   uint32_t count = 0;
   VkResult r = vkEnumeratePhysicalDevices(instance_, &count, nullptr);
   std::vector<VkPhysicalDevice> devices(count);
   if (r == VK_SUCCESS && count)
      r = vkEnumeratePhysicalDevices(instance_, &count, devices.data());
   devices.resize(count);
   if (result)
      *result = r;
   return devices;
}
