#include "radeon_bo.h"

#include <cerrno>
#include <cstring>
#include <sys/mman.h>
#include <unistd.h>

#include <xf86drm.h>
#include <radeon_drm.h>

#include "radeon_device.h"

namespace terakan::winsys {

uint32_t gem_domain(BoPlacement placement)
{
   return placement == BoPlacement::VramHidden || placement == BoPlacement::VramVisible
             ? RADEON_GEM_DOMAIN_VRAM
             : RADEON_GEM_DOMAIN_GTT;
}

/* Creation flags from Linux's include/uapi/drm/radeon_drm.h. */
static uint32_t gem_flags(BoPlacement placement)
{
   switch (placement) {
   case BoPlacement::VramHidden: return RADEON_GEM_NO_CPU_ACCESS;
   case BoPlacement::VramVisible: return RADEON_GEM_CPU_ACCESS;
   case BoPlacement::GttCached: return 0;
   case BoPlacement::GttWriteCombined: return RADEON_GEM_GTT_WC;
   }
   return 0;
}

RadeonBo::RadeonBo(RadeonDevice &device, uint32_t handle, uint64_t size, BoPlacement placement)
   : device_(device), handle_(handle), size_(size), placement_(placement),
     domain_(gem_domain(placement))
{
}

RadeonBo *RadeonBo::create(RadeonDevice &device, uint64_t size, uint64_t alignment,
                           BoPlacement placement, std::string &error, int &error_number)
{
   drm_radeon_gem_create create = {};
   create.size = (size + 4095) & ~uint64_t(4095);
   create.alignment = alignment < 4096 ? 4096 : alignment;
   create.initial_domain = gem_domain(placement);
   create.flags = gem_flags(placement);
   const int result = drmCommandWriteRead(device.fd(), DRM_RADEON_GEM_CREATE, &create,
                                          sizeof(create));
   if (result != 0) {
      error_number = -result;
      error = "DRM_RADEON_GEM_CREATE of " + std::to_string(size) + " bytes failed: " +
              std::strerror(error_number);
      return nullptr;
   }
   return new RadeonBo(device, create.handle, create.size, placement);
}

RadeonBo::~RadeonBo()
{
   unmap();
   drm_gem_close close = {};
   close.handle = handle_;
   drmIoctl(device_.fd(), DRM_IOCTL_GEM_CLOSE, &close);
}

void *RadeonBo::map()
{
   if (map_)
      return map_;
   drm_radeon_gem_mmap request = {};
   request.handle = handle_;
   request.size = size_;
   if (drmCommandWriteRead(device_.fd(), DRM_RADEON_GEM_MMAP, &request, sizeof(request)) != 0)
      return nullptr;
   void *pointer = mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_SHARED, device_.fd(),
                        off_t(request.addr_ptr));
   if (pointer == MAP_FAILED)
      return nullptr;
   map_ = pointer;
   return map_;
}

void RadeonBo::unmap()
{
   if (map_)
      munmap(map_, size_);
   map_ = nullptr;
}

int RadeonBo::wait_idle()
{
   drm_radeon_gem_wait_idle wait = {};
   wait.handle = handle_;
   int result;
   do {
      result = drmCommandWrite(device_.fd(), DRM_RADEON_GEM_WAIT_IDLE, &wait, sizeof(wait));
   } while (result == -EBUSY || result == -EINTR || result == -EAGAIN);
   return -result;
}

int RadeonBo::busy()
{
   drm_radeon_gem_busy busy = {};
   busy.handle = handle_;
   int result;
   do {
      result = drmCommandWriteRead(device_.fd(), DRM_RADEON_GEM_BUSY, &busy, sizeof(busy));
   } while (result == -EINTR || result == -EAGAIN);
   return -result;
}

} // namespace terakan::winsys
