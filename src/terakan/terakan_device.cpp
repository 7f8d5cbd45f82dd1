/* VkDevice and VkQueue. Device creation is real (the runtime's vk_device with our dispatch
 * table and queues); command submission arrives with the command processor work, so for now a
 * queue refuses any submission that carries work, with a message. */
#include "terakan_private.h"

#include "vk_alloc.h"
#include "vk_util.h"

/* The runtime entry points Terakan has adopted. Each one is listed here only once everything it
 * relies on exists in the driver (for example the fence and semaphore helpers need a vk_sync
 * type backed by kernel fences, so they are not adopted yet). Anything else reachable falls
 * through to the "not implemented yet" table. */
static struct vk_device_entrypoint_table adopted_runtime_device_entrypoints()
{
   struct vk_device_entrypoint_table table = {};
   table.GetDeviceProcAddr = vk_common_GetDeviceProcAddr;
   table.GetDeviceQueue = vk_common_GetDeviceQueue;
   table.GetDeviceQueue2 = vk_common_GetDeviceQueue2;
   table.SetDebugUtilsObjectNameEXT = vk_common_SetDebugUtilsObjectNameEXT;
   table.SetDebugUtilsObjectTagEXT = vk_common_SetDebugUtilsObjectTagEXT;
   table.QueueBeginDebugUtilsLabelEXT = vk_common_QueueBeginDebugUtilsLabelEXT;
   table.QueueEndDebugUtilsLabelEXT = vk_common_QueueEndDebugUtilsLabelEXT;
   table.QueueInsertDebugUtilsLabelEXT = vk_common_QueueInsertDebugUtilsLabelEXT;
   return table;
}

static VkResult terakan_queue_submit(struct vk_queue *queue, struct vk_queue_submit *submit)
{
   return vk_queue_set_lost(queue, "terakan: command submission is not implemented yet "
                                   "(the PM4 command processor path is a later milestone)");
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL
terakan_QueueWaitIdle(VkQueue queue)
{
   /* Nothing can have been submitted (see terakan_queue_submit), so the queue is idle. */
   return VK_SUCCESS;
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL
terakan_DeviceWaitIdle(VkDevice device)
{
   return VK_SUCCESS;
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL
terakan_CreateDevice(VkPhysicalDevice physicalDevice, const VkDeviceCreateInfo *pCreateInfo,
                     const VkAllocationCallbacks *pAllocator, VkDevice *pDevice)
{
   VK_FROM_HANDLE(terakan_physical_device, pdev, physicalDevice);

   VkQueueFamilyProperties family;
   terakan_get_queue_family_properties(pdev, &family);
   uint32_t queue_count = 0;
   for (uint32_t i = 0; i < pCreateInfo->queueCreateInfoCount; i++) {
      const VkDeviceQueueCreateInfo &info = pCreateInfo->pQueueCreateInfos[i];
      if (info.queueFamilyIndex != 0 || info.queueCount > family.queueCount ||
          info.flags != 0)
         return vk_errorf(pdev, VK_ERROR_INITIALIZATION_FAILED,
                          "terakan: queue family %u with %u queues (flags 0x%x) requested; "
                          "only family 0 with %u queue exists",
                          info.queueFamilyIndex, info.queueCount, info.flags,
                          family.queueCount);
      queue_count += info.queueCount;
   }

   VK_MULTIALLOC(ma);
   VK_MULTIALLOC_DECL(&ma, terakan_device, device, 1);
   VK_MULTIALLOC_DECL(&ma, terakan_queue, queues, queue_count);
   if (!vk_multialloc_zalloc2(&ma, &pdev->vk.instance->alloc, pAllocator,
                              VK_SYSTEM_ALLOCATION_SCOPE_DEVICE))
      return vk_error(pdev, VK_ERROR_OUT_OF_HOST_MEMORY);

   const struct vk_device_entrypoint_table adopted = adopted_runtime_device_entrypoints();
   struct vk_device_dispatch_table dispatch_table;
   vk_device_dispatch_table_from_entrypoints(&dispatch_table, &terakan_device_entrypoints, true);
   vk_device_dispatch_table_from_entrypoints(&dispatch_table, &adopted, false);
   vk_device_dispatch_table_from_entrypoints(&dispatch_table,
                                             &terakan_unimplemented_device_entrypoints, false);

   /* Checks the requested extensions and features against what the physical device
    * advertises, and fails with the right VkResult if one is not supported. */
   VkResult result = vk_device_init(&device->vk, &pdev->vk, &dispatch_table, pCreateInfo,
                                    pAllocator);
   if (result != VK_SUCCESS) {
      vk_free2(&pdev->vk.instance->alloc, pAllocator, device);
      return result;
   }
   device->physical = pdev;
   device->queues = queues;

   for (uint32_t i = 0; i < pCreateInfo->queueCreateInfoCount; i++) {
      const VkDeviceQueueCreateInfo &info = pCreateInfo->pQueueCreateInfos[i];
      for (uint32_t q = 0; q < info.queueCount; q++) {
         terakan_queue &queue = queues[device->queue_count];
         result = vk_queue_init(&queue.vk, &device->vk, &info, q);
         if (result != VK_SUCCESS)
            break;
         queue.vk.driver_submit = terakan_queue_submit;
         device->queue_count++;
      }
      if (result != VK_SUCCESS)
         break;
   }
   if (result != VK_SUCCESS) {
      for (uint32_t q = 0; q < device->queue_count; q++)
         vk_queue_finish(&queues[q].vk);
      vk_device_finish(&device->vk);
      vk_free2(&pdev->vk.instance->alloc, pAllocator, device);
      return result;
   }

   *pDevice = terakan_device_to_handle(device);
   return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_DestroyDevice(VkDevice _device, const VkAllocationCallbacks *pAllocator)
{
   VK_FROM_HANDLE(terakan_device, device, _device);
   if (!device)
      return;
   for (uint32_t q = 0; q < device->queue_count; q++)
      vk_queue_finish(&device->queues[q].vk);
   vk_device_finish(&device->vk);
   vk_free(&device->vk.alloc, device);
}
