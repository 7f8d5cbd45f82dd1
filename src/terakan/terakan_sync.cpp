/* Terakan's sync type. The radeon kernel interface has no sync objects (no DRM syncobj, no
 * exported fences): what it offers is whether a buffer object is still used by submitted
 * work (GEM_BUSY) and a wait until it is not (GEM_WAIT_IDLE), the way Mesa's radeon winsys
 * makes its fences. So every queue submission ends with a small command stream that writes a
 * buffer of its own (terakan_submission_fence, terakan_device.cpp); the ring runs in order, so
 * that buffer is idle exactly when the whole submission is done.
 *
 * A sync is signalled, unsignalled, or pending on such a submission fence: vkQueueSubmit returns
 * once the kernel has the work, and a wait asks the kernel. Host signals and resets take a
 * mutex; a wait for a sync that no submission has signalled yet waits on a condition variable
 * (Mesa's u_cnd_monotonic) until it is signalled or made pending. Timeline semaphores come from
 * Mesa's vk_sync_timeline emulation on top of it, and waits for any of several syncs from the
 * runtime's emulation of VK_SYNC_WAIT_ANY. */
#include "terakan_private.h"

#include <algorithm>
#include <thread>

#include "c11/threads.h"
#include "util/cnd_monotonic.h"
#include "util/os_time.h"

terakan_submission_fence *terakan_submission_fence_create(terakan::winsys::RadeonBo *bo, uint64_t sequence)
{
   auto *fence = new (std::nothrow) terakan_submission_fence;
   if (!fence)
      return nullptr;
   fence->bo = bo;
   fence->sequence = sequence;
   return fence;
}

terakan_submission_fence *terakan_submission_fence_ref(terakan_submission_fence *fence)
{
   if (fence)
      fence->references.fetch_add(1, std::memory_order_relaxed);
   return fence;
}

void terakan_submission_fence_unref(terakan_submission_fence *fence)
{
   if (fence && fence->references.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      delete fence->bo;
      delete fence;
   }
}

namespace {

struct QueueSync {
   struct vk_sync vk;
   mtx_t lock;
   struct u_cnd_monotonic changed;
   bool signaled;
   /* The submission that will signal it (one reference), or null. */
   terakan_submission_fence *pending;
};

QueueSync *as_queue_sync(struct vk_sync *sync)
{
   assert(sync->type == &terakan_sync_type);
   return container_of(sync, QueueSync, vk);
}

VkResult sync_init(struct vk_device *, struct vk_sync *sync, uint64_t initial_value)
{
   QueueSync *queue_sync = as_queue_sync(sync);
   if (mtx_init(&queue_sync->lock, mtx_plain) != thrd_success)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   if (u_cnd_monotonic_init(&queue_sync->changed) != thrd_success) {
      mtx_destroy(&queue_sync->lock);
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   queue_sync->signaled = initial_value != 0;
   queue_sync->pending = nullptr;
   return VK_SUCCESS;
}

void sync_finish(struct vk_device *, struct vk_sync *sync)
{
   QueueSync *queue_sync = as_queue_sync(sync);
   terakan_submission_fence_unref(queue_sync->pending);
   u_cnd_monotonic_destroy(&queue_sync->changed);
   mtx_destroy(&queue_sync->lock);
}

/* Replaces the state; takes over the caller's reference to `pending`. */
void set_state(QueueSync *queue_sync, bool signaled, terakan_submission_fence *pending)
{
   mtx_lock(&queue_sync->lock);
   terakan_submission_fence *previous = queue_sync->pending;
   queue_sync->signaled = signaled;
   queue_sync->pending = pending;
   if (signaled || pending)
      u_cnd_monotonic_broadcast(&queue_sync->changed);
   mtx_unlock(&queue_sync->lock);
   terakan_submission_fence_unref(previous);
}

VkResult sync_signal(struct vk_device *, struct vk_sync *sync, uint64_t)
{
   set_state(as_queue_sync(sync), true, nullptr);
   return VK_SUCCESS;
}

VkResult sync_reset(struct vk_device *, struct vk_sync *sync)
{
   set_state(as_queue_sync(sync), false, nullptr);
   return VK_SUCCESS;
}

VkResult sync_move(struct vk_device *, struct vk_sync *dst, struct vk_sync *src)
{
   QueueSync *from = as_queue_sync(src);
   mtx_lock(&from->lock);
   const bool signaled = from->signaled;
   terakan_submission_fence *pending = from->pending;
   from->signaled = false;
   from->pending = nullptr;
   mtx_unlock(&from->lock);
   set_state(as_queue_sync(dst), signaled, pending);
   return VK_SUCCESS;
}

/* Asks the kernel whether the submission is done, waiting for it until `abs_timeout_ns`.
 * VK_SUCCESS, VK_TIMEOUT or VK_ERROR_DEVICE_LOST. */
VkResult wait_for_submission(struct vk_device *device, terakan_submission_fence *fence,
                             uint64_t abs_timeout_ns)
{
   if (fence->known_idle.load(std::memory_order_acquire))
      return VK_SUCCESS;
   int error = 0;
   if (abs_timeout_ns == UINT64_MAX) {
      error = fence->bo->wait_idle();
   } else {
      /* The kernel's wait has no deadline: ask whether the buffer is busy, and sleep between
       * questions, longer as the wait goes on (up to a millisecond). */
      uint64_t pause_ns = 20'000;
      for (;;) {
         error = fence->bo->busy();
         if (error != EBUSY)
            break;
         const uint64_t now = os_time_get_nano();
         if (now >= abs_timeout_ns)
            return VK_TIMEOUT;
         std::this_thread::sleep_for(std::chrono::nanoseconds(std::min(pause_ns, abs_timeout_ns - now)));
         pause_ns = std::min<uint64_t>(pause_ns * 2, 1'000'000);
      }
   }
   if (error)
      return vk_device_set_lost(device, "terakan: waiting for submission %llu failed (%s); the GPU "
                                        "hung or was reset", (unsigned long long)fence->sequence,
                                strerror(error));
   fence->known_idle.store(true, std::memory_order_release);
   return VK_SUCCESS;
}

/* Waits until `abs_timeout_ns` (CLOCK_MONOTONIC, as os_time_get_nano counts). */
VkResult sync_wait(struct vk_device *device, struct vk_sync *sync, uint64_t,
                   enum vk_sync_wait_flags flags, uint64_t abs_timeout_ns)
{
   QueueSync *queue_sync = as_queue_sync(sync);
   struct timespec deadline;
   deadline.tv_sec = time_t(std::min<uint64_t>(abs_timeout_ns / 1'000'000'000ull, INT32_MAX));
   deadline.tv_nsec = long(abs_timeout_ns % 1'000'000'000ull);
   mtx_lock(&queue_sync->lock);
   for (;;) {
      if (queue_sync->signaled)
         break;
      if (terakan_submission_fence *fence = queue_sync->pending) {
         if (flags & VK_SYNC_WAIT_PENDING)
            break;
         terakan_submission_fence_ref(fence);
         mtx_unlock(&queue_sync->lock);
         const VkResult result = wait_for_submission(device, fence, abs_timeout_ns);
         mtx_lock(&queue_sync->lock);
         /* Done: signalled, unless a reset or another submission changed it meanwhile. */
         if (result == VK_SUCCESS && queue_sync->pending == fence) {
            queue_sync->signaled = true;
            queue_sync->pending = nullptr;
            terakan_submission_fence_unref(fence); /* the sync's reference */
         }
         terakan_submission_fence_unref(fence);
         if (result != VK_SUCCESS) {
            mtx_unlock(&queue_sync->lock);
            return result;
         }
         continue;
      }
      /* Neither: a submission or the host has still to signal it. */
      if (u_cnd_monotonic_timedwait(&queue_sync->changed, &queue_sync->lock, &deadline) == thrd_timedout &&
          !queue_sync->signaled && !queue_sync->pending) {
         mtx_unlock(&queue_sync->lock);
         return VK_TIMEOUT;
      }
   }
   mtx_unlock(&queue_sync->lock);
   return VK_SUCCESS;
}

} // namespace

void terakan_sync_signal_on_submission(struct vk_sync *sync, terakan_submission_fence *fence)
{
   if (fence)
      set_state(as_queue_sync(sync), false, terakan_submission_fence_ref(fence));
   else
      set_state(as_queue_sync(sync), true, nullptr);
}

bool terakan_sync_signal_is_submitted(struct vk_sync *sync)
{
   if (sync->type != &terakan_sync_type)
      return false;
   QueueSync *queue_sync = as_queue_sync(sync);
   mtx_lock(&queue_sync->lock);
   const bool submitted = queue_sync->signaled || queue_sync->pending;
   mtx_unlock(&queue_sync->lock);
   return submitted;
}

const struct vk_sync_type terakan_sync_type = {
   .size = sizeof(QueueSync),
   .features = static_cast<vk_sync_features>(
      VK_SYNC_FEATURE_BINARY | VK_SYNC_FEATURE_GPU_WAIT | VK_SYNC_FEATURE_GPU_MULTI_WAIT |
      VK_SYNC_FEATURE_CPU_WAIT | VK_SYNC_FEATURE_CPU_RESET | VK_SYNC_FEATURE_CPU_SIGNAL),
   .init = sync_init,
   .finish = sync_finish,
   .signal = sync_signal,
   .get_value = nullptr,
   .reset = sync_reset,
   .move = sync_move,
   .wait = sync_wait,
   .wait_many = nullptr,
   .import_opaque_fd = nullptr,
   .export_opaque_fd = nullptr,
   .import_sync_file = nullptr,
   .export_sync_file = nullptr,
};
