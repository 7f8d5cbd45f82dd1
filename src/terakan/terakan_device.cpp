/* VkDevice and VkQueue. A queue submission is a series of DRM_RADEON_CS ioctls (one per
 * command stream of each command buffer), then a small stream that writes the submission's own
 * fence buffer. vkQueueSubmit returns once the kernel has accepted them; the submission's
 * fences and semaphores are pending on that buffer and signalled when the kernel says it is
 * idle (terakan_sync.cpp). */
#include "terakan_private.h"

#include "vk_cmd_enqueue_entrypoints.h"
#include "vk_util.h"

#include "hw/pm4.h"

/* Every signal of the submission becomes pending on `fence` (signalled now if null). */
static void signal_all(struct vk_queue_submit *submit, terakan_submission_fence *fence)
{
   for (uint32_t i = 0; i < submit->signal_count; i++)
      terakan_sync_signal_on_submission(submit->signals[i].sync, fence);
}

/* Ends a submission: an end-of-pipe event writes its number into a buffer only this stream
 * names, once all earlier work on the ring is done. Under the device's submit lock. */
static VkResult submit_fence(terakan_device *device, terakan_queue *queue)
{
   std::string error;
   int error_number = 0;
   terakan::winsys::RadeonBo *bo = terakan::winsys::RadeonBo::create(
      *device->radeon, 4096, 4096, terakan::winsys::BoPlacement::GttCached, error, error_number);
   if (!bo)
      return terakan_bo_error(device, error_number, error);
   const uint64_t sequence = queue->submitted + 1;
   terakan_submission_fence *fence = terakan_submission_fence_create(bo, sequence);
   if (!fence) {
      delete bo;
      return vk_error(device, VK_ERROR_OUT_OF_HOST_MEMORY);
   }
   terakan::winsys::CommandStream stream;
   stream.packet(terakan::hw::pm4::EVENT_WRITE_EOP, 5);
   stream.emit(terakan::hw::pm4::EVENT_CACHE_FLUSH_AND_INV_TS);
   stream.emit(0);
   stream.emit(terakan::hw::pm4::eop_data_sel(2)); /* 64-bit data */
   stream.emit(uint32_t(sequence));
   stream.emit(uint32_t(sequence >> 32));
   stream.relocation(*bo);
   if (stream.submit(*device->radeon, error)) {
      terakan_submission_fence_unref(fence);
      return vk_queue_set_lost(&queue->vk, "terakan: the kernel refused the fence (%s)", error.c_str());
   }
   queue->submitted = sequence;
   terakan_submission_fence_unref(queue->last_fence);
   queue->last_fence = fence;
   return VK_SUCCESS;
}

static VkResult terakan_queue_submit(struct vk_queue *vk_queue, struct vk_queue_submit *submit)
{
   terakan_queue *queue = container_of(vk_queue, terakan_queue, vk);
   terakan_device *device = container_of(vk_queue->base.device, terakan_device, vk);

   /* Every queue of the device feeds the one GFX ring, which runs in order: a wait for a sync
    * that submitted work will signal needs nothing more. Anything else (a sync the host has
    * still to signal) is waited for here. */
   for (uint32_t i = 0; i < submit->wait_count; i++) {
      if (terakan_sync_signal_is_submitted(submit->waits[i].sync))
         continue;
      const VkResult result = vk_sync_wait(&device->vk, submit->waits[i].sync,
                                           submit->waits[i].wait_value, VK_SYNC_WAIT_COMPLETE,
                                           UINT64_MAX);
      if (result != VK_SUCCESS)
         return result;
   }

   std::lock_guard<std::mutex> guard(*device->submit_lock);
   /* Nothing to run and nothing to wait for (vkQueueWaitIdle's submission, fences alone): it
    * is done when the queue's last submission is. */
   if (submit->command_buffer_count == 0 && submit->wait_count == 0) {
      signal_all(submit, queue->last_fence);
      return VK_SUCCESS;
   }

   std::string error;
   bool checks_capacity = false;
   for (uint32_t c = 0; c < submit->command_buffer_count; c++) {
      auto *cmd = container_of(submit->command_buffers[c], terakan_cmd_buffer, vk);
      checks_capacity |= !cmd->conservative_checks.empty();
      for (const terakan::winsys::CommandStream &cs : cmd->streams) {
         const int error_number = cs.submit(*device->radeon, error);
         if (error_number)
            return vk_queue_set_lost(&queue->vk, "terakan: the kernel refused a submission "
                                                 "(%s)", error.c_str());
      }
   }
   VkResult result = submit_fence(device, queue);
   if (result != VK_SUCCESS)
      return result;

   /* Conservative indirect draws that made more triangles than they could capture drew a
    * wrong picture, and only the GPU knows how many they made: such submissions are waited
    * for here, to say so (terakan_conservative_draw.cpp). */
   if (checks_capacity) {
      const int wait_error = queue->last_fence->bo->wait_idle();
      if (wait_error)
         return vk_queue_set_lost(&queue->vk, "terakan: waiting for the GPU failed (%s); the GPU "
                                              "hung or was reset", strerror(wait_error));
      for (uint32_t c = 0; c < submit->command_buffer_count; c++) {
         std::string overflow;
         if (!terakan_conservative_check_capacity(container_of(submit->command_buffers[c], terakan_cmd_buffer, vk),
                                                  overflow))
            return vk_queue_set_lost(&queue->vk, "terakan: %s", overflow.c_str());
      }
   }

   signal_all(submit, queue->last_fence);
   return VK_SUCCESS;
}

static void finish_queue(terakan_queue *queue)
{
   vk_queue_finish(&queue->vk);
   terakan_submission_fence_unref(queue->last_fence);
   queue->last_fence = nullptr;
}

/* Secondary command buffers are the runtime's recordings (docs/architecture.md, "Secondary
 * command buffers"): the table as built so far becomes the one commands run through on a
 * primary command buffer (and when vkCmdExecuteCommands replays a secondary), and in the
 * application's table every vkCmd* becomes the runtime's recorder, which keeps the command in
 * a secondary's vk_cmd_queue or passes it on to that table for a primary. */
static void put_recorders_in_front(terakan_device *device, struct vk_device_dispatch_table &dispatch_table)
{
   device->command_dispatch = dispatch_table;
   struct vk_device_dispatch_table recorders;
   vk_device_dispatch_table_from_entrypoints(&recorders, &vk_cmd_enqueue_unless_primary_device_entrypoints, true);
   /* Both are arrays of entry points, as the runtime's own table builders treat them. */
   auto *to = reinterpret_cast<PFN_vkVoidFunction *>(&dispatch_table);
   const auto *from = reinterpret_cast<const PFN_vkVoidFunction *>(&recorders);
   for (size_t i = 0; i < sizeof(recorders) / sizeof(PFN_vkVoidFunction); i++)
      if (from[i])
         to[i] = from[i];
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
         return terakan_errorf(pdev, VK_ERROR_INITIALIZATION_FAILED,
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

   /* Ours first, then wsi_common's swapchains, then the runtime's common implementations (fences, semaphores, command
    * pools, shader modules, pipeline layouts and caches, Vulkan 1.1/1.3 wrappers), then the
    * generated "not implemented yet" fallbacks for everything else. */
   struct vk_device_dispatch_table dispatch_table;
   vk_device_dispatch_table_from_entrypoints(&dispatch_table, &terakan_device_entrypoints, true);
   vk_device_dispatch_table_from_entrypoints(&dispatch_table, &wsi_device_entrypoints, false);
   vk_device_dispatch_table_from_entrypoints(&dispatch_table, &vk_common_device_entrypoints, false);
   vk_device_dispatch_table_from_entrypoints(&dispatch_table,
                                             &terakan_unimplemented_device_entrypoints, false);
   put_recorders_in_front(device, dispatch_table);

   /* Checks the requested extensions and features against what the physical device
    * advertises, and fails with the right VkResult if one is not supported. */
   VkResult result = vk_device_init(&device->vk, &pdev->vk, &dispatch_table, pCreateInfo,
                                    pAllocator);
   if (result != VK_SUCCESS) {
      vk_free2(&pdev->vk.instance->alloc, pAllocator, device);
      return result;
   }
   device->physical = pdev;
   device->radeon = pdev->radeon;
   device->queues = queues;
   device->vk.command_buffer_ops = &terakan_cmd_buffer_ops;
   device->vk.command_dispatch_table = &device->command_dispatch;
   device->submit_lock = new (std::nothrow) std::mutex;
   device->code_placement = terakan::winsys::BoPlacement::GttWriteCombined;
   for (uint32_t t = 0; t < pdev->memory.memoryTypeCount; t++)
      if (pdev->memory_placement[t] == terakan::winsys::BoPlacement::VramVisible)
         device->code_placement = terakan::winsys::BoPlacement::VramVisible;
   struct vk_pipeline_cache_create_info cache_info = {};
   device->internal_cache = vk_pipeline_cache_create(&device->vk, &cache_info, nullptr);
   device->meta = terakan_meta_create();
   device->query_meta = terakan_query_meta_create();
   if (!device->submit_lock || !device->internal_cache || !device->meta || !device->query_meta)
      result = vk_error(pdev, VK_ERROR_OUT_OF_HOST_MEMORY);
   if (result == VK_SUCCESS) {
      std::string error;
      int error_number = 0;
      device->rat_return_bo = terakan::winsys::RadeonBo::create(
         *device->radeon, terakan::compiler::rat_return_buffer_bytes, 256,
         terakan::winsys::BoPlacement::VramHidden, error, error_number);
      if (!device->rat_return_bo)
         result = terakan_bo_error(device, error_number, error);
   }

   for (uint32_t i = 0; i < pCreateInfo->queueCreateInfoCount; i++) {
      const VkDeviceQueueCreateInfo &info = pCreateInfo->pQueueCreateInfos[i];
      for (uint32_t q = 0; q < info.queueCount; q++) {
         if (result != VK_SUCCESS)
            break;
         terakan_queue &queue = queues[device->queue_count];
         queue.submitted = 0;
         queue.last_fence = nullptr;
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
         finish_queue(&queues[q]);
      if (device->internal_cache)
         vk_pipeline_cache_destroy(device->internal_cache, nullptr);
      terakan_meta_destroy(device->meta);
      terakan_query_meta_destroy(device->query_meta);
      delete device->rat_return_bo;
      delete device->submit_lock;
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
      finish_queue(&device->queues[q]);
   vk_pipeline_cache_destroy(device->internal_cache, nullptr);
   terakan_meta_destroy(device->meta);
   terakan_query_meta_destroy(device->query_meta);
   delete device->rat_return_bo;
   delete device->submit_lock;
   vk_device_finish(&device->vk);
   vk_free(&device->vk.alloc, device);
}

/* ---- device groups (VK_KHR_device_group): every group has one device ---- */

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_GetDeviceGroupPeerMemoryFeatures(VkDevice, uint32_t, uint32_t, uint32_t,
                                         VkPeerMemoryFeatureFlags *pPeerMemoryFeatures)
{
   /* Only asked for device index 0 with itself: everything is local. */
   *pPeerMemoryFeatures = VK_PEER_MEMORY_FEATURE_COPY_SRC_BIT | VK_PEER_MEMORY_FEATURE_COPY_DST_BIT |
                          VK_PEER_MEMORY_FEATURE_GENERIC_SRC_BIT | VK_PEER_MEMORY_FEATURE_GENERIC_DST_BIT;
}
