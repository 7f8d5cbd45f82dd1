/* libterakan_sim.so: a drm-shim backend (Mesa's src/drm-shim) that presents a radeon render
 * node for a TeraScale 2/3 board and answers the radeon uAPI the way Linux's radeon driver
 * does for that family. Preload it (LD_PRELOAD) under any program that uses the node.
 *
 * This first stone answers device discovery: the PCI sysfs files libdrm reads, DRM_RADEON_INFO
 * and DRM_RADEON_GEM_INFO. Buffer objects and command submission are added with the command
 * processor; until then those ioctls are refused with a message.
 */
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include <sys/ioctl.h>

extern "C" {
#include "drm-shim/drm_shim.h"
}
#include <radeon_drm.h>

#include "sim_board.h"

using terakan::sim::SimBoard;

/* drm-shim's table of core DRM ioctls (src/drm-shim/device.c), so that we can answer
 * DRM_IOCTL_GET_CAP as the radeon kernel does rather than as drm-shim's generic default. */
extern "C" ioctl_fn_t core_ioctls[];

/* drm-shim looks this symbol up: take /dev/dri/renderD128 even if the machine has one. */
extern "C" bool drm_shim_driver_prefers_first_render_node;
bool drm_shim_driver_prefers_first_render_node = true;

namespace {

SimBoard board;

/* Version of Debian 12's kernel (Linux 6.1): radeon KMS 2.50.0 (radeon_drv.c). */
constexpr int kms_major = 2, kms_minor = 50, kms_patchlevel = 0;

/* The kernel returns -1 with errno set; drm-shim passes our return value straight through. */
int fail(int error)
{
   errno = error;
   return -1;
}

int refuse(const char *what, int error = EINVAL)
{
   std::fprintf(stderr, "terakan-sim: %s\n", what);
   return fail(error);
}

bool is_cayman_class()
{
   return terakan::hw::family_info(board.family).isa_class == terakan::hw::IsaClass::Cayman;
}

uint64_t gpu_timestamp()
{
   /* The GPU clock counter runs at the reference clock (RADEON_INFO_CLOCK_CRYSTAL_FREQ). */
   timespec now;
   clock_gettime(CLOCK_MONOTONIC, &now);
   const unsigned __int128 ns = uint64_t(now.tv_sec) * 1000000000ull + uint64_t(now.tv_nsec);
   return static_cast<uint64_t>(ns * board.crystal_clock_khz / 1000000ull);
}

/* Answers of radeon_info_ioctl (radeon_kms.c) for Evergreen and Cayman class families. */
int radeon_info(int fd, unsigned long request, void *arg)
{
   auto *info = static_cast<drm_radeon_info *>(arg);
   void *user = reinterpret_cast<void *>(static_cast<uintptr_t>(info->value));
   uint32_t value32 = 0;
   uint64_t value64 = 0;
   bool is_64bit = false;

   if (board.identification_only && info->request != RADEON_INFO_DEVICE_ID &&
       info->request != RADEON_INFO_ACCEL_WORKING2) {
      char message[128];
      std::snprintf(message, sizeof(message),
                    "DRM_RADEON_INFO request 0x%x: chip 0x%04x is presented for identification "
                    "only", info->request, board.pci_device_id);
      return refuse(message);
   }

   switch (info->request) {
   case RADEON_INFO_DEVICE_ID:
      value32 = board.pci_device_id;
      break;
   case RADEON_INFO_NUM_GB_PIPES:
   case RADEON_INFO_NUM_Z_PIPES:
      value32 = 0; /* only set up for r300/r420-class chips */
      break;
   case RADEON_INFO_ACCEL_WORKING:
      /* The kernel reports 0 for CEDAR..HEMLOCK on purpose (old xf86-video-ati relied on it);
       * ACCEL_WORKING2 is the real answer. */
      value32 = board.family <= terakan::hw::Family::Hemlock ? 0 : 1;
      break;
   case RADEON_INFO_ACCEL_WORKING2:
      value32 = 1;
      break;
   case RADEON_INFO_TILING_CONFIG:
      value32 = board.tiling_config;
      break;
   case RADEON_INFO_CLOCK_CRYSTAL_FREQ:
      value32 = board.crystal_clock_khz;
      break;
   case RADEON_INFO_NUM_BACKENDS:
      value32 = board.backends;
      break;
   case RADEON_INFO_NUM_TILE_PIPES:
      value32 = board.tile_pipes;
      break;
   case RADEON_INFO_FUSION_GART_WORKING:
   case RADEON_INFO_SI_CP_DMA_COMPUTE:
   case RADEON_INFO_VA_UNMAP_WORKING:
      value32 = 1;
      break;
   case RADEON_INFO_BACKEND_MAP:
      value32 = board.backend_map;
      break;
   case RADEON_INFO_VA_START:
      if (!is_cayman_class())
         return fail(EINVAL); /* virtual memory exists from CAYMAN on */
      value32 = 8u << 20;     /* RADEON_VA_RESERVED_SIZE */
      break;
   case RADEON_INFO_IB_VM_MAX_SIZE:
      if (!is_cayman_class())
         return fail(EINVAL);
      value32 = 64u << 10; /* RADEON_IB_VM_MAX_SIZE */
      break;
   case RADEON_INFO_MAX_PIPES:
      value32 = board.pipes;
      break;
   case RADEON_INFO_TIMESTAMP:
      value64 = gpu_timestamp();
      is_64bit = true;
      break;
   case RADEON_INFO_MAX_SE:
      value32 = board.shader_engines;
      break;
   case RADEON_INFO_FASTFB_WORKING:
      value32 = 0;
      break;
   case RADEON_INFO_MAX_SCLK:
      value32 = board.max_engine_clock_khz;
      break;
   case RADEON_INFO_NUM_BYTES_MOVED:
   case RADEON_INFO_VRAM_USAGE:
   case RADEON_INFO_GTT_USAGE:
      value64 = 0; /* no buffer objects exist yet */
      is_64bit = true;
      break;
   case RADEON_INFO_ACTIVE_CU_COUNT:
      value32 = board.simds_per_shader_engine * board.shader_engines;
      break;
   case RADEON_INFO_CURRENT_GPU_SCLK:
      value32 = board.max_engine_clock_khz / 1000;
      break;
   case RADEON_INFO_CURRENT_GPU_MCLK:
      value32 = board.memory_clock_mhz;
      break;
   case RADEON_INFO_GPU_RESET_COUNTER:
      value32 = 0;
      break;
   case RADEON_INFO_MAX_SH_PER_SE:
   case RADEON_INFO_SI_TILE_MODE_ARRAY:
   case RADEON_INFO_CIK_MACROTILE_MODE_ARRAY:
   case RADEON_INFO_SI_BACKEND_ENABLED_MASK:
      return fail(EINVAL); /* Southern Islands and later only */
   default: {
      char message[128];
      std::snprintf(message, sizeof(message),
                    "DRM_RADEON_INFO request 0x%x is not simulated", info->request);
      return refuse(message);
   }
   }

   if (!user)
      return fail(EFAULT);
   if (is_64bit)
      std::memcpy(user, &value64, sizeof(value64));
   else
      std::memcpy(user, &value32, sizeof(value32));
   return 0;
}

/* radeon_gem_info_ioctl: nothing is pinned in the simulator, so nothing is subtracted. */
int radeon_gem_info(int fd, unsigned long request, void *arg)
{
   auto *info = static_cast<drm_radeon_gem_info *>(arg);
   if (board.identification_only)
      return refuse("DRM_RADEON_GEM_INFO: the chip is presented for identification only");
   info->vram_size = board.vram_size;
   info->vram_visible = board.vram_visible;
   info->gart_size = board.gtt_size;
   return 0;
}

/* drm_getcap (drm_ioctl.c) for a radeon render node: radeon has no syncobjs (no
 * DRIVER_SYNCOBJ), supports PRIME import and export, and uses monotonic timestamps. */
int radeon_get_cap(int fd, unsigned long request, void *arg)
{
   auto *cap = static_cast<drm_get_cap *>(arg);
   switch (cap->capability) {
   case DRM_CAP_TIMESTAMP_MONOTONIC:
      cap->value = 1;
      return 0;
   case DRM_CAP_PRIME:
      cap->value = DRM_PRIME_CAP_IMPORT | DRM_PRIME_CAP_EXPORT;
      return 0;
   case DRM_CAP_SYNCOBJ:
   case DRM_CAP_SYNCOBJ_TIMELINE:
      cap->value = 0;
      return 0;
   default: {
      char message[96];
      std::snprintf(message, sizeof(message), "DRM_IOCTL_GET_CAP 0x%llx is not simulated",
                    static_cast<unsigned long long>(cap->capability));
      return refuse(message);
   }
   }
}

int not_simulated_yet(int fd, unsigned long request, void *arg)
{
   char message[128];
   std::snprintf(message, sizeof(message),
                 "radeon ioctl 0x%02x is not simulated yet (buffer objects and command "
                 "submission come with the command processor)",
                 static_cast<unsigned>(_IOC_NR(request) - DRM_COMMAND_BASE));
   return refuse(message, ENOSYS);
}

ioctl_fn_t radeon_ioctls[DRM_RADEON_GEM_USERPTR + 1];

void fake_pci_sysfs()
{
   /* libdrm's drmGetDevice2 reads these for a PCI DRM device (xf86drm.c:
    * drmParsePciBusInfo, parse_separate_sysfs_files). */
   const char *slot = "0000:01:00.0";
   char uevent[256];
   std::snprintf(uevent, sizeof(uevent),
                 "DRIVER=radeon\nPCI_CLASS=30000\nPCI_ID=1002:%04X\nPCI_SUBSYS_ID=1002:0B00\n"
                 "PCI_SLOT_NAME=%s\nMODALIAS=pci:v00001002d0000%04Xsv00001002sd00000B00bc03sc00i00\n",
                 board.pci_device_id, slot, board.pci_device_id);
   char device[16];
   std::snprintf(device, sizeof(device), "0x%04x\n", board.pci_device_id);

   const int minor = render_node_minor;
   drm_shim_override_file(uevent, "/sys/dev/char/%d:%d/device/uevent", DRM_MAJOR, minor);
   drm_shim_override_file("0x1002\n", "/sys/dev/char/%d:%d/device/vendor", DRM_MAJOR, minor);
   drm_shim_override_file(device, "/sys/dev/char/%d:%d/device/device", DRM_MAJOR, minor);
   drm_shim_override_file("0x00\n", "/sys/dev/char/%d:%d/device/revision", DRM_MAJOR, minor);
   drm_shim_override_file("0x1002\n", "/sys/dev/char/%d:%d/device/subsystem_vendor", DRM_MAJOR,
                          minor);
   drm_shim_override_file("0x0b00\n", "/sys/dev/char/%d:%d/device/subsystem_device", DRM_MAJOR,
                          minor);
}

} // namespace

extern "C" void drm_shim_driver_init(void)
{
   std::string error;
   auto chosen = terakan::sim::board_from_chip_string(std::getenv("TERAKAN_SIM_CHIP"), error);
   if (!chosen) {
      /* Present a PCI node whose kernel driver is not radeon rather than guessing a chip: no
       * radeon user will take it. */
      std::fprintf(stderr, "terakan-sim: %s\n", error.c_str());
      board = terakan::sim::board_for_pci_id(0);
      board.identification_only = true;
      shim_device.bus_type = DRM_BUS_PCI;
      shim_device.driver_name = "terakan-sim-unconfigured";
      fake_pci_sysfs();
      return;
   }
   board = *chosen;
   if (board.identification_only)
      std::fprintf(stderr, "terakan-sim: 0x%04x is not a TeraScale 2/3 chip; presenting it for "
                   "identification only\n", board.pci_device_id);

   shim_device.bus_type = DRM_BUS_PCI;
   shim_device.driver_name = "radeon";
   shim_device.version_major = kms_major;
   shim_device.version_minor = kms_minor;
   shim_device.version_patchlevel = kms_patchlevel;

   for (ioctl_fn_t &handler : radeon_ioctls)
      handler = not_simulated_yet;
   radeon_ioctls[DRM_RADEON_INFO] = radeon_info;
   radeon_ioctls[DRM_RADEON_GEM_INFO] = radeon_gem_info;
   /* Numbers below GEM_INFO are the legacy UMS ioctls, refused by KMS radeon (drm_invalid_op). */
   for (int nr = 0; nr < DRM_RADEON_GEM_INFO; nr++)
      radeon_ioctls[nr] = nullptr;
   shim_device.driver_ioctls = radeon_ioctls;
   shim_device.driver_ioctl_count = sizeof(radeon_ioctls) / sizeof(radeon_ioctls[0]);

   core_ioctls[_IOC_NR(DRM_IOCTL_GET_CAP)] = radeon_get_cap;

   fake_pci_sysfs();
}
