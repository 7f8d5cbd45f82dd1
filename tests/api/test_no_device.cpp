/* Without a TeraScale device, Terakan must report zero physical devices and VK_SUCCESS, so that
 * it never spoils enumeration for the other drivers on the machine. Checked two ways: through
 * the loader next to lavapipe (TERAKAN_TEST_OTHER_ICD names lavapipe's library), and directly
 * through the driver's own ICD entry point (the loader itself fails enumeration when no ICD
 * has a device, which would hide what Terakan answered). */
#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>

#include "vulkan_test_env.h"

TEST(NoDevice, LoaderStillEnumeratesTheOtherDriver)
{
   TestInstance instance;
   ASSERT_EQ(instance.result(), VK_SUCCESS);
   VkResult result;
   auto devices = instance.physical_devices(&result);
   ASSERT_EQ(result, VK_SUCCESS);
   for (VkPhysicalDevice device : devices) {
      VkPhysicalDeviceProperties properties;
      vkGetPhysicalDeviceProperties(device, &properties);
      EXPECT_EQ(std::strstr(properties.deviceName, "Terakan"), nullptr) << properties.deviceName;
   }
   EXPECT_EQ(devices.size(), 1u) << "only the other driver's device";
   EXPECT_EQ(instance.validation().errors, 0);
}

TEST(NoDevice, DriverAnswersZeroDevicesAndSuccess)
{
   const char *path = std::getenv("TERAKAN_DRIVER_LIBRARY");
   ASSERT_NE(path, nullptr);
   void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
   ASSERT_NE(library, nullptr) << dlerror();

   auto get_proc = reinterpret_cast<PFN_vkGetInstanceProcAddr>(
      dlsym(library, "vk_icdGetInstanceProcAddr"));
   ASSERT_NE(get_proc, nullptr);
   auto create_instance =
      reinterpret_cast<PFN_vkCreateInstance>(get_proc(VK_NULL_HANDLE, "vkCreateInstance"));
   ASSERT_NE(create_instance, nullptr);

   VkInstanceCreateInfo info = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
   VkInstance instance = VK_NULL_HANDLE;
   ASSERT_EQ(create_instance(&info, nullptr, &instance), VK_SUCCESS);
   auto enumerate = reinterpret_cast<PFN_vkEnumeratePhysicalDevices>(
      get_proc(instance, "vkEnumeratePhysicalDevices"));
   auto destroy = reinterpret_cast<PFN_vkDestroyInstance>(get_proc(instance, "vkDestroyInstance"));
   ASSERT_NE(enumerate, nullptr);
   ASSERT_NE(destroy, nullptr);

   uint32_t count = 123;
   EXPECT_EQ(enumerate(instance, &count, nullptr), VK_SUCCESS);
   EXPECT_EQ(count, 0u);
   destroy(instance, nullptr);
   dlclose(library);
}
