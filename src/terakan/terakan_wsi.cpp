/* Window-system integration: Mesa's wsi_common (surfaces, swapchains, presentation) working
 * through the driver's own Vulkan commands.
 *
 * Presentation takes wsi_common's CPU path ("sw"): each swapchain image is an ordinary optimal
 * image the application renders to; at vkQueuePresentKHR wsi_common records a copy of it into a
 * host-visible linear buffer (our vkCmdCopyImageToBuffer), waits for it, and sends the pixels to
 * the X server with PutImage, or, on Wayland, copies them into a wl_shm buffer the compositor
 * reads (wsi_common_wayland's memcpy path: without VK_EXT_external_memory_host the buffer cannot
 * be the shared memory itself). This is the path an X server without DRI3 needs (Xvfb, the
 * simulator's case), and it is correct on a real card too. The zero-copy DRI3 path (images
 * shared as dma-bufs in a layout the display engine scans out) needs external memory export,
 * which the driver does not have yet. */
#include "terakan_private.h"

#include "vk_alloc.h"
#include "wsi_common.h"

static PFN_vkVoidFunction VKAPI_PTR
terakan_wsi_proc_addr(VkPhysicalDevice physical_device, const char *name)
{
   VK_FROM_HANDLE(terakan_physical_device, pdev, physical_device);
   return vk_instance_get_proc_addr_unchecked(pdev->vk.instance, name);
}

VkResult terakan_wsi_init(struct terakan_physical_device *pdev)
{
   const VkAllocationCallbacks *alloc = &pdev->vk.instance->alloc;
   auto *wsi = static_cast<struct wsi_device *>(
      vk_zalloc(alloc, sizeof(struct wsi_device), 8, VK_SYSTEM_ALLOCATION_SCOPE_INSTANCE));
   if (!wsi)
      return VK_ERROR_OUT_OF_HOST_MEMORY;

   /* No display fd: the radeon render node is not a KMS device, and display-plane
    * presentation (VK_KHR_display) is not offered. */
   VkResult result = wsi_device_init(wsi, terakan_physical_device_to_handle(pdev),
                                     terakan_wsi_proc_addr, alloc, -1, nullptr,
                                     true /* the CPU presentation path, see above */);
   if (result != VK_SUCCESS) {
      vk_free(alloc, wsi);
      return result;
   }
   /* The formats keep wsi_common's order (B8G8R8A8_SRGB first, as lavapipe lists them): the
    * colour buffer encodes and blends sRGB. force_bgra8_unorm_first is not set: in Mesa 22.3's
    * Wayland code it swaps B8G8R8A8_UNORM with whatever format came first, which put
    * A2B10G10R10 second, and weston's pixman renderer shows that XBGR2101010 buffer black. */
   terakan_wsi_headless_init(wsi);
   pdev->vk.wsi_device = wsi;
   return VK_SUCCESS;
}

void terakan_wsi_finish(struct terakan_physical_device *pdev)
{
   if (!pdev->vk.wsi_device)
      return;
   const VkAllocationCallbacks *alloc = &pdev->vk.instance->alloc;
   wsi_device_finish(pdev->vk.wsi_device, alloc);
   vk_free(alloc, pdev->vk.wsi_device);
   pdev->vk.wsi_device = nullptr;
}
