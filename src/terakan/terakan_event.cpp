/* VkEvent: one dword in a snooped GTT buffer that the CPU reads and writes directly and the
 * command processor writes (MEM_WRITE) or waits on (WAIT_REG_MEM). */
#include "terakan_private.h"

#include <cstring>

static volatile uint32_t *event_word(terakan_event *event)
{
   return static_cast<volatile uint32_t *>(event->bo->map());
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL
terakan_CreateEvent(VkDevice _device, const VkEventCreateInfo *, const VkAllocationCallbacks *pAllocator,
                    VkEvent *pEvent)
{
   VK_FROM_HANDLE(terakan_device, device, _device);
   auto *event = static_cast<terakan_event *>(
      vk_object_zalloc(&device->vk, pAllocator, sizeof(terakan_event), VK_OBJECT_TYPE_EVENT));
   if (!event)
      return vk_error(device, VK_ERROR_OUT_OF_HOST_MEMORY);
   std::string error;
   int error_number = 0;
   event->bo = terakan::winsys::RadeonBo::create(*device->radeon, 4096, 4096,
                                                 terakan::winsys::BoPlacement::GttCached, error,
                                                 error_number);
   if (!event->bo || !event->bo->map()) {
      delete event->bo;
      vk_object_free(&device->vk, pAllocator, event);
      return terakan_bo_error(device, error_number ? error_number : ENOMEM,
                              error.empty() ? "cannot map an event's buffer" : error);
   }
   *event_word(event) = 0;
   *pEvent = terakan_event_to_handle(event);
   return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_DestroyEvent(VkDevice _device, VkEvent _event, const VkAllocationCallbacks *pAllocator)
{
   VK_FROM_HANDLE(terakan_device, device, _device);
   VK_FROM_HANDLE(terakan_event, event, _event);
   if (!event)
      return;
   delete event->bo;
   vk_object_free(&device->vk, pAllocator, event);
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL
terakan_GetEventStatus(VkDevice _device, VkEvent _event)
{
   VK_FROM_HANDLE(terakan_device, device, _device);
   VK_FROM_HANDLE(terakan_event, event, _event);
   if (vk_device_is_lost(&device->vk))
      return VK_ERROR_DEVICE_LOST;
   return *event_word(event) ? VK_EVENT_SET : VK_EVENT_RESET;
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL
terakan_SetEvent(VkDevice, VkEvent _event)
{
   VK_FROM_HANDLE(terakan_event, event, _event);
   *event_word(event) = 1;
   return VK_SUCCESS;
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL
terakan_ResetEvent(VkDevice, VkEvent _event)
{
   VK_FROM_HANDLE(terakan_event, event, _event);
   *event_word(event) = 0;
   return VK_SUCCESS;
}
