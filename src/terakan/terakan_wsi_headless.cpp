/* VK_EXT_headless_surface: a surface with no window, for programs that render and present
 * without a display (test harnesses, servers, CI). Mesa 22.3's wsi_common has no headless
 * platform, so Terakan adds one: a wsi_interface whose swapchains are wsi_common's CPU-path
 * images (as for X11) and whose presents show nothing.
 *
 * Where it is registered: wsi_common finds a surface's interface at wsi_device::wsi[the
 * surface's platform], an array that in Mesa 22.3 ends at VK_ICD_WSI_PLATFORM_DISPLAY, before
 * HEADLESS. Our headless surfaces therefore carry the platform number of Mir (0), which no
 * surface of Mesa's uses (the platform is gone and Mesa never had it), and the interface takes
 * that slot. The number is private to the driver: the loader gives applications its own
 * surface objects and hands ours back unread. wsi_common does everything around it (surface queries, semaphores and fences of
 * vkAcquireNextImageKHR, the copy and wait of vkQueuePresentKHR).
 *
 * What the surface reports: any extent (currentExtent 0xFFFFFFFF: the swapchain decides), one
 * layer, identity transform, opaque alpha, B8G8R8A8 UNORM and sRGB in the sRGB colour space,
 * FIFO and IMMEDIATE (a present completes at once either way: there is no display to wait
 * for), at least one image. */
#include "terakan_private.h"

#include <climits>

#include "vk_alloc.h"
#include "vk_util.h"
#include "wsi_common.h"
/* wsi_common_private.h (swapchain and image helpers) has no C++ guard of its own; its
 * includes are taken first so that only its declarations get C linkage. */
#include "util/perf/cpu_trace.h"
#include "vulkan/runtime/vk_object.h"
#include "vulkan/runtime/vk_sync.h"
extern "C" {
#include "wsi_common_private.h"
}

namespace {

constexpr VkFormat surface_formats[] = {VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_B8G8R8A8_SRGB};
constexpr VkPresentModeKHR present_modes[] = {VK_PRESENT_MODE_FIFO_KHR, VK_PRESENT_MODE_IMMEDIATE_KHR};

struct HeadlessSwapchain {
   struct wsi_swapchain base;
   uint32_t next;           /* where acquisition looks first */
   bool *acquired;          /* image_count flags: held by the application */
   struct wsi_image *images; /* image_count */
};

VkResult get_support(VkIcdSurfaceBase *, struct wsi_device *, uint32_t, VkBool32 *supported)
{
   *supported = VK_TRUE;
   return VK_SUCCESS;
}

VkResult get_capabilities2(VkIcdSurfaceBase *, struct wsi_device *wsi, const void *,
                           VkSurfaceCapabilities2KHR *capabilities)
{
   VkSurfaceCapabilitiesKHR &c = capabilities->surfaceCapabilities;
   c.minImageCount = 1;
   c.maxImageCount = 0; /* no limit */
   c.currentExtent = {UINT32_MAX, UINT32_MAX};
   c.minImageExtent = {1, 1};
   c.maxImageExtent = {wsi->maxImageDimension2D, wsi->maxImageDimension2D};
   c.maxImageArrayLayers = 1;
   c.supportedTransforms = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
   c.currentTransform = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
   c.supportedCompositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
   c.supportedUsageFlags = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                           VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
                           VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT;
   vk_foreach_struct(ext, capabilities->pNext) {
      if (ext->sType == VK_STRUCTURE_TYPE_SURFACE_PROTECTED_CAPABILITIES_KHR)
         reinterpret_cast<VkSurfaceProtectedCapabilitiesKHR *>(ext)->supportsProtected = VK_FALSE;
   }
   return VK_SUCCESS;
}

VkResult get_formats(VkIcdSurfaceBase *, struct wsi_device *, uint32_t *count, VkSurfaceFormatKHR *formats)
{
   VK_OUTARRAY_MAKE_TYPED(VkSurfaceFormatKHR, out, formats, count);
   for (VkFormat format : surface_formats)
      vk_outarray_append_typed(VkSurfaceFormatKHR, &out, f) {
         f->format = format;
         f->colorSpace = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
      }
   return vk_outarray_status(&out);
}

VkResult get_formats2(VkIcdSurfaceBase *, struct wsi_device *, const void *, uint32_t *count,
                      VkSurfaceFormat2KHR *formats)
{
   VK_OUTARRAY_MAKE_TYPED(VkSurfaceFormat2KHR, out, formats, count);
   for (VkFormat format : surface_formats)
      vk_outarray_append_typed(VkSurfaceFormat2KHR, &out, f) {
         f->surfaceFormat.format = format;
         f->surfaceFormat.colorSpace = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
      }
   return vk_outarray_status(&out);
}

VkResult get_present_modes(VkIcdSurfaceBase *, uint32_t *count, VkPresentModeKHR *modes)
{
   VK_OUTARRAY_MAKE_TYPED(VkPresentModeKHR, out, modes, count);
   for (VkPresentModeKHR mode : present_modes)
      vk_outarray_append_typed(VkPresentModeKHR, &out, m) {
         *m = mode;
      }
   return vk_outarray_status(&out);
}

VkResult get_present_rectangles(VkIcdSurfaceBase *, struct wsi_device *, uint32_t *count, VkRect2D *)
{
   /* Nothing is shown anywhere: no rectangle of a surface is on a screen. */
   *count = 0;
   return VK_SUCCESS;
}

HeadlessSwapchain *headless(struct wsi_swapchain *chain)
{
   return reinterpret_cast<HeadlessSwapchain *>(chain);
}

struct wsi_image *get_wsi_image(struct wsi_swapchain *chain, uint32_t index)
{
   return &headless(chain)->images[index];
}

/* Any image the application does not hold is ready at once (presents complete when they are
 * made); with every image held there is nothing to wait for that could ever come. */
VkResult acquire_next_image(struct wsi_swapchain *chain, const VkAcquireNextImageInfoKHR *info, uint32_t *index)
{
   HeadlessSwapchain *h = headless(chain);
   for (uint32_t i = 0; i < chain->image_count; i++) {
      const uint32_t candidate = (h->next + i) % chain->image_count;
      if (!h->acquired[candidate]) {
         h->acquired[candidate] = true;
         h->next = (candidate + 1) % chain->image_count;
         *index = candidate;
         return VK_SUCCESS;
      }
   }
   return info->timeout == 0 ? VK_NOT_READY : VK_TIMEOUT;
}

VkResult queue_present(struct wsi_swapchain *chain, uint32_t index, const VkPresentRegionKHR *)
{
   headless(chain)->acquired[index] = false;
   return VK_SUCCESS;
}

VkResult destroy(struct wsi_swapchain *chain, const VkAllocationCallbacks *allocator)
{
   HeadlessSwapchain *h = headless(chain);
   for (uint32_t i = 0; i < chain->image_count; i++)
      wsi_destroy_image(chain, &h->images[i]);
   wsi_swapchain_finish(chain);
   vk_free(allocator, h);
   return VK_SUCCESS;
}

VkResult create_swapchain(VkIcdSurfaceBase *, VkDevice device, struct wsi_device *wsi,
                          const VkSwapchainCreateInfoKHR *info, const VkAllocationCallbacks *allocator,
                          struct wsi_swapchain **out)
{
   const uint32_t count = info->minImageCount;
   const size_t bytes = sizeof(HeadlessSwapchain) + count * (sizeof(struct wsi_image) + sizeof(bool));
   auto *h = static_cast<HeadlessSwapchain *>(vk_zalloc(allocator, bytes, 8, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT));
   if (!h)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   h->images = reinterpret_cast<struct wsi_image *>(h + 1);
   h->acquired = reinterpret_cast<bool *>(h->images + count);

   struct wsi_cpu_image_params params = {};
   params.base.image_type = WSI_IMAGE_TYPE_CPU;
   VkResult result = wsi_swapchain_init(wsi, &h->base, device, info, &params.base, allocator);
   if (result != VK_SUCCESS) {
      vk_free(allocator, h);
      return result;
   }
   h->base.destroy = destroy;
   h->base.get_wsi_image = get_wsi_image;
   h->base.acquire_next_image = acquire_next_image;
   h->base.queue_present = queue_present;
   h->base.present_mode = wsi_swapchain_get_present_mode(wsi, info);
   h->base.image_count = 0;
   for (uint32_t i = 0; i < count; i++) {
      result = wsi_create_image(&h->base, &h->base.image_info, &h->images[i]);
      if (result != VK_SUCCESS) {
         destroy(&h->base, allocator);
         return result;
      }
      h->base.image_count++;
   }
   *out = &h->base;
   return VK_SUCCESS;
}

struct wsi_interface headless_interface = {
   get_support, get_capabilities2, get_formats, get_formats2, get_present_modes, get_present_rectangles,
   create_swapchain,
};

} // namespace

/* The slot headless surfaces use (see the top of the file). */
constexpr VkIcdWsiPlatform headless_slot = VK_ICD_WSI_PLATFORM_MIR;
static_assert(headless_slot < VK_ICD_WSI_PLATFORM_MAX, "wsi_device has no slot for headless surfaces");

void terakan_wsi_headless_init(struct wsi_device *wsi)
{
   wsi->wsi[headless_slot] = &headless_interface;
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL
terakan_CreateHeadlessSurfaceEXT(VkInstance _instance, const VkHeadlessSurfaceCreateInfoEXT *,
                                 const VkAllocationCallbacks *pAllocator, VkSurfaceKHR *pSurface)
{
   VK_FROM_HANDLE(terakan_instance, instance, _instance);
   /* Freed by wsi_common's vkDestroySurfaceKHR with the same allocators. */
   auto *surface = static_cast<VkIcdSurfaceHeadless *>(
      vk_zalloc2(&instance->vk.alloc, pAllocator, sizeof(VkIcdSurfaceHeadless), 8, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT));
   if (!surface)
      return vk_error(instance, VK_ERROR_OUT_OF_HOST_MEMORY);
   surface->base.platform = headless_slot;
   *pSurface = VkIcdSurfaceBase_to_handle(&surface->base);
   return VK_SUCCESS;
}
