/* Buffer objects over the radeon GEM interface: create, map, wait, close. The same calls reach
 * radeon.ko on a real card and the simulator behind drm-shim. */
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace terakan::winsys {

class RadeonDevice;

enum class BoPlacement {
   VramHidden,   /* VRAM outside the CPU-visible aperture (RADEON_GEM_NO_CPU_ACCESS) */
   VramVisible,  /* VRAM the CPU can map through the PCI aperture (RADEON_GEM_CPU_ACCESS) */
   GttCached,    /* system memory, snooped: CPU caches stay coherent */
   GttWriteCombined, /* system memory, write-combined CPU mapping (RADEON_GEM_GTT_WC) */
};

/* The kernel's GEM domain for a placement (RADEON_GEM_DOMAIN_VRAM or _GTT). */
uint32_t gem_domain(BoPlacement placement);

class RadeonBo {
public:
   /* Creates a buffer of `size` bytes (rounded up to pages). Returns nullptr and fills `error`
    * (with the kernel's errno in `error_number`) when the kernel refuses. */
   static RadeonBo *create(RadeonDevice &device, uint64_t size, uint64_t alignment,
                           BoPlacement placement, std::string &error, int &error_number);
   ~RadeonBo();
   RadeonBo(const RadeonBo &) = delete;
   RadeonBo &operator=(const RadeonBo &) = delete;

   /* Maps the whole buffer once; later calls return the same address. nullptr on failure. */
   void *map();
   void unmap();
   /* Blocks until the GPU no longer uses the buffer. Returns 0 or the kernel's errno
    * (EDEADLK: the GPU hung, the device is lost). */
   int wait_idle();
   /* Whether the GPU still uses the buffer, without waiting: 0 (idle), EBUSY, or the kernel's
    * errno (EDEADLK: the device is lost). */
   int busy();

   uint32_t handle() const { return handle_; }
   uint64_t size() const { return size_; }
   uint32_t domain() const { return domain_; }
   BoPlacement placement() const { return placement_; }

private:
   RadeonBo(RadeonDevice &device, uint32_t handle, uint64_t size, BoPlacement placement);
   RadeonDevice &device_;
   uint32_t handle_;
   uint64_t size_;
   BoPlacement placement_;
   uint32_t domain_;
   void *map_ = nullptr;
};

} // namespace terakan::winsys
