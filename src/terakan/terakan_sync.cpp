/* Terakan's sync type. The radeon kernel interface has no sync objects (no DRM syncobj, no
 * exported fences), and a submission is waited for by waiting until its buffers are idle. The
 * queue does that before it returns from driver_submit, so every signal operation happens on
 * the CPU after the work is done: a binary flag under a mutex, with a condition variable on
 * the monotonic clock (Mesa's u_cnd_monotonic) for waits with a deadline. Timeline semaphores
 * come from Mesa's vk_sync_timeline emulation on top of it, and waits for any of several
 * syncs from the runtime's emulation of VK_SYNC_WAIT_ANY. */
#include "terakan_private.h"

#include "c11/threads.h"
#include "util/cnd_monotonic.h"
#include "util/os_time.h"

namespace {

struct CpuSync {
   struct vk_sync vk;
   mtx_t lock;
   struct u_cnd_monotonic changed;
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
   if (mtx_init(&cpu->lock, mtx_plain) != thrd_success)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   if (u_cnd_monotonic_init(&cpu->changed) != thrd_success) {
      mtx_destroy(&cpu->lock);
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   cpu->signaled = initial_value != 0;
   return VK_SUCCESS;
}

void cpu_sync_finish(struct vk_device *, struct vk_sync *sync)
{
   CpuSync *cpu = as_cpu_sync(sync);
   u_cnd_monotonic_destroy(&cpu->changed);
   mtx_destroy(&cpu->lock);
}

void set_signaled(CpuSync *cpu, bool value)
{
   mtx_lock(&cpu->lock);
   cpu->signaled = value;
   if (value)
      u_cnd_monotonic_broadcast(&cpu->changed);
   mtx_unlock(&cpu->lock);
}

VkResult cpu_sync_signal(struct vk_device *, struct vk_sync *sync, uint64_t)
{
   set_signaled(as_cpu_sync(sync), true);
   return VK_SUCCESS;
}

VkResult cpu_sync_reset(struct vk_device *, struct vk_sync *sync)
{
   set_signaled(as_cpu_sync(sync), false);
   return VK_SUCCESS;
}

VkResult cpu_sync_move(struct vk_device *, struct vk_sync *dst, struct vk_sync *src)
{
   CpuSync *from = as_cpu_sync(src);
   mtx_lock(&from->lock);
   const bool value = from->signaled;
   from->signaled = false;
   mtx_unlock(&from->lock);
   set_signaled(as_cpu_sync(dst), value);
   return VK_SUCCESS;
}

/* Waits until `abs_timeout_ns` (CLOCK_MONOTONIC, as os_time_get_nano counts). */
VkResult cpu_sync_wait(struct vk_device *, struct vk_sync *sync, uint64_t, enum vk_sync_wait_flags,
                       uint64_t abs_timeout_ns)
{
   CpuSync *cpu = as_cpu_sync(sync);
   struct timespec deadline;
   deadline.tv_sec = time_t(std::min<uint64_t>(abs_timeout_ns / 1'000'000'000ull, INT32_MAX));
   deadline.tv_nsec = long(abs_timeout_ns % 1'000'000'000ull);
   VkResult result = VK_SUCCESS;
   mtx_lock(&cpu->lock);
   while (!cpu->signaled) {
      if (u_cnd_monotonic_timedwait(&cpu->changed, &cpu->lock, &deadline) == thrd_timedout &&
          !cpu->signaled) {
         result = VK_TIMEOUT;
         break;
      }
   }
   mtx_unlock(&cpu->lock);
   return result;
}

} // namespace

const struct vk_sync_type terakan_cpu_sync_type = {
   .size = sizeof(CpuSync),
   .features = static_cast<vk_sync_features>(
      VK_SYNC_FEATURE_BINARY | VK_SYNC_FEATURE_GPU_WAIT | VK_SYNC_FEATURE_GPU_MULTI_WAIT |
      VK_SYNC_FEATURE_CPU_WAIT | VK_SYNC_FEATURE_CPU_RESET | VK_SYNC_FEATURE_CPU_SIGNAL),
   .init = cpu_sync_init,
   .finish = cpu_sync_finish,
   .signal = cpu_sync_signal,
   .get_value = nullptr,
   .reset = cpu_sync_reset,
   .move = cpu_sync_move,
   .wait = cpu_sync_wait,
   .wait_many = nullptr,
   .import_opaque_fd = nullptr,
   .export_opaque_fd = nullptr,
   .import_sync_file = nullptr,
   .export_sync_file = nullptr,
};
