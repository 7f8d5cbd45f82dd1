/* Terakan's sync type. The radeon kernel interface has no sync objects (no DRM syncobj, no
 * exported fences), and a submission is waited for by waiting until its buffers are idle. The
 * queue does that before it returns from driver_submit, so every signal operation happens on
 * the CPU after the work is done: a binary flag with a condition variable is enough. Timeline
 * semaphores come from Mesa's vk_sync_timeline emulation on top of it. */
#include "terakan_private.h"

#include <chrono>
#include <condition_variable>

#include "util/os_time.h"

namespace {

struct CpuSync {
   struct vk_sync vk;
   std::mutex *lock;
   std::condition_variable *changed;
   bool signaled;
};

CpuSync *as_cpu_sync(struct vk_sync *sync)
{
   assert(sync->type == &terakan_cpu_sync_type);
   return container_of(sync, CpuSync, vk);
}

VkResult cpu_sync_init(struct vk_device *, struct vk_sync *sync, uint64_t initial_value)
{
   CpuSync *cpu = as_cpu_sync(sync);
   cpu->lock = new (std::nothrow) std::mutex;
   cpu->changed = new (std::nothrow) std::condition_variable;
   if (!cpu->lock || !cpu->changed) {
      delete cpu->lock;
      delete cpu->changed;
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   cpu->signaled = initial_value != 0;
   return VK_SUCCESS;
}

void cpu_sync_finish(struct vk_device *, struct vk_sync *sync)
{
   CpuSync *cpu = as_cpu_sync(sync);
   delete cpu->lock;
   delete cpu->changed;
}

VkResult cpu_sync_signal(struct vk_device *, struct vk_sync *sync, uint64_t)
{
   CpuSync *cpu = as_cpu_sync(sync);
   {
      std::lock_guard<std::mutex> guard(*cpu->lock);
      cpu->signaled = true;
   }
   cpu->changed->notify_all();
   return VK_SUCCESS;
}

VkResult cpu_sync_reset(struct vk_device *, struct vk_sync *sync)
{
   CpuSync *cpu = as_cpu_sync(sync);
   std::lock_guard<std::mutex> guard(*cpu->lock);
   cpu->signaled = false;
   return VK_SUCCESS;
}

VkResult cpu_sync_move(struct vk_device *, struct vk_sync *dst, struct vk_sync *src)
{
   CpuSync *from = as_cpu_sync(src), *to = as_cpu_sync(dst);
   bool value;
   {
      std::lock_guard<std::mutex> guard(*from->lock);
      value = from->signaled;
      from->signaled = false;
   }
   {
      std::lock_guard<std::mutex> guard(*to->lock);
      to->signaled = value;
   }
   to->changed->notify_all();
   return VK_SUCCESS;
}

/* Waits for one sync until `abs_timeout_ns` (CLOCK_MONOTONIC, as os_time_get_nano). */
VkResult wait_one(CpuSync *cpu, uint64_t abs_timeout_ns)
{
   std::unique_lock<std::mutex> guard(*cpu->lock);
   while (!cpu->signaled) {
      const uint64_t now = os_time_get_nano();
      if (now >= abs_timeout_ns)
         return VK_TIMEOUT;
      /* Bounded slices: the condition variable's clock need not be the monotonic one. */
      const uint64_t slice = std::min<uint64_t>(abs_timeout_ns - now, 10'000'000);
      cpu->changed->wait_for(guard, std::chrono::nanoseconds(slice));
   }
   return VK_SUCCESS;
}

VkResult cpu_sync_wait_many(struct vk_device *, uint32_t wait_count,
                            const struct vk_sync_wait *waits, enum vk_sync_wait_flags wait_flags,
                            uint64_t abs_timeout_ns)
{
   if (wait_flags & VK_SYNC_WAIT_ANY) {
      for (;;) {
         for (uint32_t i = 0; i < wait_count; i++) {
            CpuSync *cpu = as_cpu_sync(waits[i].sync);
            std::lock_guard<std::mutex> guard(*cpu->lock);
            if (cpu->signaled)
               return VK_SUCCESS;
         }
         if (os_time_get_nano() >= abs_timeout_ns)
            return VK_TIMEOUT;
         if (wait_count)
            wait_one(as_cpu_sync(waits[0].sync),
                     std::min<uint64_t>(abs_timeout_ns, os_time_get_nano() + 1'000'000));
      }
   }
   for (uint32_t i = 0; i < wait_count; i++) {
      const VkResult result = wait_one(as_cpu_sync(waits[i].sync), abs_timeout_ns);
      if (result != VK_SUCCESS)
         return result;
   }
   return VK_SUCCESS;
}

} // namespace

const struct vk_sync_type terakan_cpu_sync_type = {
   .size = sizeof(CpuSync),
   .features = static_cast<vk_sync_features>(
      VK_SYNC_FEATURE_BINARY | VK_SYNC_FEATURE_GPU_WAIT | VK_SYNC_FEATURE_GPU_MULTI_WAIT |
      VK_SYNC_FEATURE_CPU_WAIT | VK_SYNC_FEATURE_CPU_RESET | VK_SYNC_FEATURE_CPU_SIGNAL |
      VK_SYNC_FEATURE_WAIT_ANY),
   .init = cpu_sync_init,
   .finish = cpu_sync_finish,
   .signal = cpu_sync_signal,
   .get_value = nullptr,
   .reset = cpu_sync_reset,
   .move = cpu_sync_move,
   .wait = nullptr,
   .wait_many = cpu_sync_wait_many,
   .import_opaque_fd = nullptr,
   .export_opaque_fd = nullptr,
   .import_sync_file = nullptr,
   .export_sync_file = nullptr,
};
