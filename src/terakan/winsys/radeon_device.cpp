#include "radeon_device.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

#include <xf86drm.h>
#include <radeon_drm.h>

namespace terakan::winsys {

std::unique_ptr<RadeonDevice> RadeonDevice::open(const char *path, std::string &error)
{
   int fd = ::open(path, O_RDWR | O_CLOEXEC);
   if (fd < 0) {
      error = std::string("cannot open ") + path + ": " + std::strerror(errno);
      return nullptr;
   }
   std::unique_ptr<RadeonDevice> device(new RadeonDevice(fd));
   if (!device->query(error))
      return nullptr;
   return device;
}

RadeonDevice::~RadeonDevice()
{
   ::close(fd_);
}

bool RadeonDevice::query_info_u32(uint32_t request, uint32_t &value)
{
   /* The kernel copies the answer to the user pointer held in `value`. */
   drm_radeon_info info = {};
   info.request = request;
   info.value = reinterpret_cast<uintptr_t>(&value);
   return drmCommandWriteRead(fd_, DRM_RADEON_INFO, &info, sizeof(info)) == 0;
}

bool RadeonDevice::query(std::string &error)
{
   drmVersionPtr version = drmGetVersion(fd_);
   if (!version) {
      error = "drmGetVersion failed";
      return false;
   }
   const bool is_radeon = version->name && std::strcmp(version->name, "radeon") == 0;
   info_.drm_major = version->version_major;
   info_.drm_minor = version->version_minor;
   info_.drm_patchlevel = version->version_patchlevel;
   const std::string kernel_driver = version->name ? version->name : "(unnamed)";
   drmFreeVersion(version);
   if (!is_radeon) {
      error = "kernel driver is " + kernel_driver + ", not radeon";
      return false;
   }
   /* KMS radeon reports major version 2; RADEON_INFO_ACCEL_WORKING2 arrived in 2.5 (Linux's
    * radeon_drv.c version history). Older kernels are not worth supporting for Vulkan. */
   if (info_.drm_major != 2 || info_.drm_minor < 5) {
      error = "radeon kernel interface " + std::to_string(info_.drm_major) + "." +
              std::to_string(info_.drm_minor) + " is too old (need 2.5 or newer)";
      return false;
   }

   if (!query_info_u32(RADEON_INFO_DEVICE_ID, info_.pci_device_id)) {
      error = "RADEON_INFO_DEVICE_ID failed: " + std::string(std::strerror(errno));
      return false;
   }

   uint32_t accel = 0;
   info_.accel_working = query_info_u32(RADEON_INFO_ACCEL_WORKING2, accel) && accel != 0;

   query_info_u32(RADEON_INFO_NUM_BACKENDS, info_.num_backends);
   query_info_u32(RADEON_INFO_NUM_TILE_PIPES, info_.num_tile_pipes);
   query_info_u32(RADEON_INFO_TILING_CONFIG, info_.tiling_config);
   info_.has_backend_map = query_info_u32(RADEON_INFO_BACKEND_MAP, info_.backend_map);
   query_info_u32(RADEON_INFO_MAX_SE, info_.max_shader_engines);
   query_info_u32(RADEON_INFO_MAX_PIPES, info_.max_pipes);

   query_info_u32(RADEON_INFO_CLOCK_CRYSTAL_FREQ, info_.crystal_clock_khz);
   query_info_u32(RADEON_INFO_MAX_SCLK, info_.max_engine_clock_khz);

   drm_radeon_gem_info gem_info = {};
   if (drmCommandWriteRead(fd_, DRM_RADEON_GEM_INFO, &gem_info, sizeof(gem_info)) != 0) {
      error = "DRM_RADEON_GEM_INFO failed: " + std::string(std::strerror(errno));
      return false;
   }
   info_.vram_size = gem_info.vram_size;
   info_.vram_cpu_visible_size = gem_info.vram_visible;
   info_.gtt_size = gem_info.gart_size;
   return true;
}

} // namespace terakan::winsys
