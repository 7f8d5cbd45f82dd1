/* VkInstance: creation, extension list, and the loader-facing ICD entry points. */
#include "terakan_private.h"

#include "vk_alloc.h"
#include "vk_util.h"

#include "util/build_id.h"

static const struct vk_instance_extension_table terakan_instance_extensions = {
   .KHR_device_group_creation = true, /* groups of one: the runtime enumerates them */
   .KHR_get_physical_device_properties2 = true,
   .KHR_get_surface_capabilities2 = true,
   .KHR_surface = true,
   .KHR_wayland_surface = true, /* wsi_common_wayland: wl_shm buffers (terakan_wsi.cpp) */
   .KHR_xcb_surface = true,
   .KHR_xlib_surface = true,
   .EXT_debug_report = true,
   .EXT_debug_utils = true,
   .EXT_headless_surface = true, /* terakan_wsi_headless.cpp */
};

extern "C" VKAPI_ATTR VkResult VKAPI_CALL
terakan_EnumerateInstanceExtensionProperties(const char *pLayerName, uint32_t *pPropertyCount,
                                             VkExtensionProperties *pProperties)
{
   if (pLayerName)
      return vk_error(NULL, VK_ERROR_LAYER_NOT_PRESENT);
   return vk_enumerate_instance_extension_properties(&terakan_instance_extensions,
                                                     pPropertyCount, pProperties);
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL
terakan_EnumerateInstanceVersion(uint32_t *pApiVersion)
{
   *pApiVersion = TERAKAN_API_VERSION;
   return VK_SUCCESS;
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL
terakan_CreateInstance(const VkInstanceCreateInfo *pCreateInfo,
                       const VkAllocationCallbacks *pAllocator, VkInstance *pInstance)
{
   if (!pAllocator)
      pAllocator = vk_default_allocator();

   auto *instance = static_cast<terakan_instance *>(
      vk_zalloc(pAllocator, sizeof(terakan_instance), 8, VK_SYSTEM_ALLOCATION_SCOPE_INSTANCE));
   if (!instance)
      return vk_error(NULL, VK_ERROR_OUT_OF_HOST_MEMORY);

   /* Our own commands first, then wsi_common's surfaces, then the runtime's, then the "not implemented yet" reports. */
   struct vk_instance_dispatch_table dispatch_table;
   vk_instance_dispatch_table_from_entrypoints(&dispatch_table, &terakan_instance_entrypoints,
                                               true);
   vk_instance_dispatch_table_from_entrypoints(&dispatch_table, &wsi_instance_entrypoints, false);
   vk_instance_dispatch_table_from_entrypoints(&dispatch_table, &vk_common_instance_entrypoints,
                                               false);
   vk_instance_dispatch_table_from_entrypoints(
      &dispatch_table, &terakan_unimplemented_instance_entrypoints, false);

   VkResult result = vk_instance_init(&instance->vk, &terakan_instance_extensions,
                                      &dispatch_table, pCreateInfo, pAllocator);
   if (result != VK_SUCCESS) {
      vk_free(pAllocator, instance);
      return result;
   }

   instance->debug_flags = terakan_debug_flags();
   instance->vk.physical_devices.try_create_for_drm = terakan_physical_device_try_create;
   instance->vk.physical_devices.destroy = terakan_physical_device_destroy;

   *pInstance = terakan_instance_to_handle(instance);
   return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_DestroyInstance(VkInstance _instance, const VkAllocationCallbacks *pAllocator)
{
   VK_FROM_HANDLE(terakan_instance, instance, _instance);
   if (!instance)
      return;
   vk_instance_finish(&instance->vk);
   vk_free(&instance->vk.alloc, instance);
}

extern "C" VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
terakan_GetInstanceProcAddr(VkInstance _instance, const char *pName)
{
   VK_FROM_HANDLE(terakan_instance, instance, _instance);
   return vk_instance_get_proc_addr(instance ? &instance->vk : nullptr,
                                    &terakan_instance_entrypoints, pName);
}

/* The loader-ICD interface (Vulkan loader's LoaderDriverInterface.md). These three symbols are
 * the only ones the shared library exports. */
extern "C" {

PUBLIC VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
vk_icdGetInstanceProcAddr(VkInstance instance, const char *pName);

PUBLIC VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
vk_icdGetInstanceProcAddr(VkInstance instance, const char *pName)
{
   return terakan_GetInstanceProcAddr(instance, pName);
}

PUBLIC VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
vk_icdGetPhysicalDeviceProcAddr(VkInstance _instance, const char *pName);

PUBLIC VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
vk_icdGetPhysicalDeviceProcAddr(VkInstance _instance, const char *pName)
{
   VK_FROM_HANDLE(terakan_instance, instance, _instance);
   return vk_instance_get_physical_device_proc_addr(&instance->vk, pName);
}

PUBLIC VKAPI_ATTR VkResult VKAPI_CALL
vk_icdNegotiateLoaderICDInterfaceVersion(uint32_t *pSupportedVersion);

PUBLIC VKAPI_ATTR VkResult VKAPI_CALL
vk_icdNegotiateLoaderICDInterfaceVersion(uint32_t *pSupportedVersion)
{
   /* Version 5 (physical device sorting and vk_icdGetPhysicalDeviceProcAddr) is what Mesa's
    * runtime supports. */
   *pSupportedVersion = MIN2(*pSupportedVersion, 5u);
   return VK_SUCCESS;
}

} // extern "C"
