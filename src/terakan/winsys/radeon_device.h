/* The radeon kernel interface, as the driver sees it: one open DRM render node and what the
 * kernel reports about it. Identical on a real card and on the simulator (which answers the
 * same ioctls behind drm-shim); nothing here knows which it is talking to.
 */
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace terakan::winsys {

/* What DRM_RADEON_INFO and DRM_RADEON_GEM_INFO report. Optional queries the kernel refuses
 * (older kernels, or requests that do not apply to the family) leave their `has_` flag false. */
struct RadeonDeviceInfo {
   uint32_t pci_device_id = 0;

   int drm_major = 0, drm_minor = 0, drm_patchlevel = 0;

   bool accel_working = false;
   uint32_t num_backends = 0;
   uint32_t num_tile_pipes = 0;
   uint32_t tiling_config = 0;
   bool has_backend_map = false;
   uint32_t backend_map = 0;
   uint32_t max_shader_engines = 0;    /* 0 when the kernel does not report it */
   uint32_t max_pipes = 0;
   /* Reference clock the GPU timestamp counter runs at, in kHz: radeon_info_ioctl answers
    * radeon_get_xclk() (10 kHz units) times 10. */
   uint32_t crystal_clock_khz = 0;
   uint32_t max_engine_clock_khz = 0;   /* RADEON_INFO_MAX_SCLK, kHz; 0 if unknown */

   /* Byte sizes from DRM_RADEON_GEM_INFO. */
   uint64_t vram_size = 0;
   uint64_t vram_cpu_visible_size = 0;
   uint64_t gtt_size = 0;
};

class RadeonDevice {
public:
   /* Opens `path` and checks that the radeon kernel driver is behind it. Returns nullptr and
    * fills `error` when it is not, or when a required query fails. */
   static std::unique_ptr<RadeonDevice> open(const char *path, std::string &error);

   ~RadeonDevice();
   RadeonDevice(const RadeonDevice &) = delete;
   RadeonDevice &operator=(const RadeonDevice &) = delete;

   int fd() const { return fd_; }
   const RadeonDeviceInfo &info() const { return info_; }

private:
   explicit RadeonDevice(int fd) : fd_(fd) {}
   bool query(std::string &error);
   bool query_info_u32(uint32_t request, uint32_t &value);

   int fd_;
   RadeonDeviceInfo info_;
};

} // namespace terakan::winsys
