/* libterakan_sim.so: a drm-shim backend (Mesa's src/drm-shim) that presents a radeon render
 * node for a TeraScale 2/3 board and answers the radeon uAPI the way Linux's radeon driver
 * does for that family. Preload it (LD_PRELOAD) under any program that uses the node.
 *
 * It answers device discovery (the PCI sysfs files libdrm reads, DRM_RADEON_INFO, GEM_INFO),
 * buffer objects (GEM_CREATE, GEM_MMAP, GEM_WAIT_IDLE, GEM_BUSY, GEM_SET_DOMAIN, GEM_SET_TILING,
 * GEM_GET_TILING; GEM_CLOSE is drm-shim's) and command submission (DRM_RADEON_CS: chunks,
 * relocations and the kernel's CS checker inside the ioctl, then the command processor on the
 * simulated GPU's own thread after the ioctl has returned, as a card runs its rings; the DMA
 * ring's streams go through the kernel's DMA checker to the DMA engine, on the same thread
 * and in the same order). Buffer-object waits are how a program learns that work is done
 * (gpu_queue.h). A GPU hang or fault marks the device lost: later waits and submissions fail
 * with EDEADLK, as the radeon kernel does after a lockup.
 */
#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <sys/ioctl.h>
#include <sys/mman.h>

extern "C" {
#include "drm-shim/drm_shim.h"
#include "util/hash_table.h"
}
#include <radeon_drm.h>

#include "sim_board.h"
#include "cp/command_processor.h"
#include "cp/cs_checker.h"
#include "cp/dma_checker.h"
#include "cp/dma_engine.h"
#include "core/gpu_memory.h"
#include "gpu_queue.h"

using terakan::sim::SimBoard;

/* drm-shim's table of core DRM ioctls (src/drm-shim/device.c), so that we can answer
 * DRM_IOCTL_GET_CAP as the radeon kernel does rather than as drm-shim's generic default. */
extern "C" ioctl_fn_t core_ioctls[];

/* drm-shim looks this symbol up: take /dev/dri/renderD128 even if the machine has one. */
extern "C" bool drm_shim_driver_prefers_first_render_node;
bool drm_shim_driver_prefers_first_render_node = true;

namespace {

SimBoard board;

/* Buffer objects: drm-shim owns the shim_bo and its place in the shim's memory file; we keep
 * what radeon knows about each (domains, tiling) and a mapping of the whole file to reach the
 * bytes. GPU addresses are the shim's offsets into that file. */
struct BufferInfo {
   uint64_t size = 0;
   uint32_t domains = 0;
   uint32_t tiling_flags = 0, pitch = 0;
   /* The last accepted submission that names the buffer (GpuQueue sequence; 0: none). */
   uint64_t last_use = 0;
};

std::mutex buffers_lock;
std::map<uint64_t, BufferInfo> buffers; /* by GPU address */
uint8_t *memory_file = nullptr;
std::atomic<bool> device_lost = false;

/* The buffers a submission names in its relocations, by GPU address, with their sizes: all a
 * submission can reach without virtual memory (the checker patched every address in it from
 * this list). The GPU thread reads its own copy, so buffers made or closed meanwhile by the
 * program do not race with it. */
using SubmissionBuffers = std::map<uint64_t, uint64_t>;

class ShimMemory : public terakan::sim::GpuMemory {
public:
   /* Set by the GPU thread around each submission it runs. */
   const SubmissionBuffers *buffers = nullptr;

   uint8_t *resolve(uint64_t address, uint64_t size, std::string &error) override
   {
      auto found = buffers->upper_bound(address);
      if (found != buffers->begin()) {
         --found;
         const uint64_t offset = address - found->first;
         if (offset <= found->second && size <= found->second - offset)
            return memory_file + address;
      }
      char text[128];
      std::snprintf(text, sizeof(text), "0x%llx+%llu is not inside any buffer object",
                    (unsigned long long)address, (unsigned long long)size);
      error = text;
      return nullptr;
   }
   uint64_t bytes_after(uint64_t address) override
   {
      auto found = buffers->upper_bound(address);
      if (found == buffers->begin())
         return 0;
      --found;
      const uint64_t offset = address - found->first;
      return offset < found->second ? found->second - offset : 0;
   }
};

ShimMemory gpu_memory;
std::unique_ptr<terakan::sim::CommandProcessor> command_processor;
/* Evergreen has one DMA engine, Cayman two (the flags chunk's priority dword picks one:
 * radeon_cs_get_ring). They run the same packets, and the GPU thread runs every ring's
 * submissions in one order, so one engine stands for both. */
std::unique_ptr<terakan::sim::DmaEngine> dma_engine;
/* After the engines: destroyed first, so queued work finishes while they still exist. */
terakan::sim::GpuQueue gpu_queue(std::getenv("TERAKAN_SIM_SYNC") && std::atoi(std::getenv("TERAKAN_SIM_SYNC")) > 0);

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

void forget_buffer(struct shim_bo *bo)
{
   std::lock_guard<std::mutex> guard(buffers_lock);
   buffers.erase(bo->mem_addr);
}

/* The buffer object behind a handle, without taking a reference. drm_shim_bo_lookup takes
 * one that nothing here gives back, and drm-shim 22.3's drm_shim_bo_put frees an object only
 * when its count does not come back to zero: a buffer looked up exactly once (mapped, or
 * named once by a command stream) was never freed at GEM_CLOSE, and long runs (dEQP's memory
 * tests) exhausted the simulated memory. The object is used only within the ioctl that asked. */
struct shim_bo *lookup(int fd, uint32_t handle)
{
   struct shim_fd *shim_fd = drm_shim_fd_lookup(fd);
   if (!shim_fd || handle == 0)
      return nullptr;
   mtx_lock(&shim_fd->handle_lock);
   struct hash_entry *entry =
      _mesa_hash_table_search(shim_fd->handles, reinterpret_cast<void *>(uintptr_t(handle)));
   struct shim_bo *bo = entry ? static_cast<struct shim_bo *>(entry->data) : nullptr;
   mtx_unlock(&shim_fd->handle_lock);
   return bo;
}

int radeon_gem_create(int fd, unsigned long request, void *arg)
{
   auto *create = static_cast<drm_radeon_gem_create *>(arg);
   if (board.identification_only)
      return refuse("GEM_CREATE: the chip is presented for identification only");
   const uint32_t domains = create->initial_domain;
   if (create->size == 0)
      return fail(EINVAL);
   /* radeon_gem_create_ioctl: the size must fit the heap it asks for. */
   const uint64_t limit = domains & RADEON_GEM_DOMAIN_VRAM ? board.vram_size : board.gtt_size;
   if (create->size > limit)
      return fail(ENOMEM);
   auto *bo = static_cast<struct shim_bo *>(calloc(1, sizeof(struct shim_bo)));
   if (!bo)
      return fail(ENOMEM);
   const uint64_t size = (create->size + 4095) & ~uint64_t(4095);
   /* radeon_bo_create honours the requested alignment (in bytes, at least a page): 2D tiled
    * textures need their base on a macro tile. drm-shim's own set-up only aligns to pages, so
    * the placement is made here with its heap and lock (drm_shim_bo_init otherwise). */
   uint64_t alignment = 4096;
   while (alignment < create->alignment && alignment < (uint64_t(1) << 30))
      alignment <<= 1;
   mtx_lock(&shim_device.mem_lock);
   bo->mem_addr = util_vma_heap_alloc(&shim_device.mem_heap, size, alignment);
   mtx_unlock(&shim_device.mem_lock);
   if (!bo->mem_addr) {
      free(bo);
      return fail(ENOMEM);
   }
   bo->size = size;
   {
      std::lock_guard<std::mutex> guard(buffers_lock);
      buffers[bo->mem_addr] = {size, domains, 0, 0};
   }
   std::memset(memory_file + bo->mem_addr, 0, size);
   create->handle = drm_shim_bo_get_handle(drm_shim_fd_lookup(fd), bo);
   drm_shim_bo_put(bo); /* the handle holds the reference */
   return 0;
}

int radeon_gem_mmap(int fd, unsigned long request, void *arg)
{
   auto *map = static_cast<drm_radeon_gem_mmap *>(arg);
   struct shim_bo *bo = lookup(fd, map->handle);
   if (!bo)
      return fail(ENOENT);
   if (map->offset > bo->size || map->size > bo->size - map->offset)
      return fail(EINVAL);
   map->addr_ptr = drm_shim_bo_get_mmap_offset(drm_shim_fd_lookup(fd), bo) + map->offset;
   return 0;
}

uint64_t last_use(const struct shim_bo *bo)
{
   std::lock_guard<std::mutex> guard(buffers_lock);
   auto found = buffers.find(bo->mem_addr);
   return found == buffers.end() ? 0 : found->second.last_use;
}

/* radeon_gem_wait_idle_ioctl: until every submission that names the buffer has run. */
int radeon_gem_wait_idle(int fd, unsigned long request, void *arg)
{
   auto *wait = static_cast<drm_radeon_gem_wait_idle *>(arg);
   struct shim_bo *bo = lookup(fd, wait->handle);
   if (!bo)
      return fail(ENOENT);
   gpu_queue.wait_for(last_use(bo));
   return device_lost ? fail(EDEADLK) : 0;
}

/* radeon_gem_busy_ioctl: EBUSY while a submission that names the buffer has not run. */
int radeon_gem_busy(int fd, unsigned long request, void *arg)
{
   auto *busy = static_cast<drm_radeon_gem_busy *>(arg);
   struct shim_bo *bo = lookup(fd, busy->handle);
   if (!bo)
      return fail(ENOENT);
   const bool idle = gpu_queue.has_completed(last_use(bo));
   {
      std::lock_guard<std::mutex> guard(buffers_lock);
      busy->domain = buffers[bo->mem_addr].domains;
   }
   if (device_lost)
      return fail(EDEADLK);
   return idle ? 0 : fail(EBUSY);
}

/* GEM_CLOSE is drm-shim's, and it gives the memory back at once. The kernel keeps a buffer
 * that queued work still uses until that work is done; here the close waits for it instead,
 * which only changes when the call returns. */
ioctl_fn_t drm_shim_gem_close = nullptr;

int radeon_gem_close(int fd, unsigned long request, void *arg)
{
   const auto *close = static_cast<const drm_gem_close *>(arg);
   if (struct shim_bo *bo = lookup(fd, close->handle))
      gpu_queue.wait_for(last_use(bo));
   return drm_shim_gem_close(fd, request, arg);
}

int radeon_gem_set_domain(int fd, unsigned long request, void *arg)
{
   auto *domain = static_cast<drm_radeon_gem_set_domain *>(arg);
   if (!lookup(fd, domain->handle))
      return fail(ENOENT);
   return device_lost ? fail(EDEADLK) : 0;
}

int radeon_gem_set_tiling(int fd, unsigned long request, void *arg)
{
   auto *tiling = static_cast<drm_radeon_gem_set_tiling *>(arg);
   struct shim_bo *bo = lookup(fd, tiling->handle);
   if (!bo)
      return fail(ENOENT);
   std::lock_guard<std::mutex> guard(buffers_lock);
   buffers[bo->mem_addr].tiling_flags = tiling->tiling_flags;
   buffers[bo->mem_addr].pitch = tiling->pitch;
   return 0;
}

int radeon_gem_get_tiling(int fd, unsigned long request, void *arg)
{
   auto *tiling = static_cast<drm_radeon_gem_get_tiling *>(arg);
   struct shim_bo *bo = lookup(fd, tiling->handle);
   if (!bo)
      return fail(ENOENT);
   std::lock_guard<std::mutex> guard(buffers_lock);
   tiling->tiling_flags = buffers[bo->mem_addr].tiling_flags;
   tiling->pitch = buffers[bo->mem_addr].pitch;
   return 0;
}

/* radeon_cs_ioctl: parse the chunks, look up the relocations, check and patch the IB as
 * evergreen_cs_parse does, then run it. */
int radeon_cs(int fd, unsigned long request, void *arg)
{
   auto *cs = static_cast<drm_radeon_cs *>(arg);
   if (board.identification_only)
      return refuse("CS: the chip is presented for identification only");
   if (device_lost)
      return fail(EDEADLK);
   const drm_radeon_cs_chunk *ib_chunk = nullptr, *relocs_chunk = nullptr, *flags_chunk = nullptr;
   const uint64_t *chunk_pointers = reinterpret_cast<const uint64_t *>(uintptr_t(cs->chunks));
   for (uint32_t i = 0; i < cs->num_chunks; i++) {
      const auto *chunk = reinterpret_cast<const drm_radeon_cs_chunk *>(uintptr_t(chunk_pointers[i]));
      switch (chunk->chunk_id) {
      case RADEON_CHUNK_ID_IB: ib_chunk = chunk; break;
      case RADEON_CHUNK_ID_RELOCS: relocs_chunk = chunk; break;
      case RADEON_CHUNK_ID_FLAGS: flags_chunk = chunk; break;
      default: break; /* accepted and ignored, as the kernel does */
      }
      if ((chunk->chunk_id == RADEON_CHUNK_ID_IB || chunk->chunk_id == RADEON_CHUNK_ID_FLAGS) &&
          chunk->length_dw == 0)
         return refuse("CS: Failed to initialize parser ! (empty IB or FLAGS chunk)");
   }
   uint32_t cs_flags = 0, ring = RADEON_CS_RING_GFX;
   if (flags_chunk) {
      const uint32_t *flags = reinterpret_cast<const uint32_t *>(uintptr_t(flags_chunk->chunk_data));
      cs_flags = flags[0];
      if (flags_chunk->length_dw > 1)
         ring = flags[1];
   }
   const bool cayman = terakan::hw::family_info(board.family).isa_class == terakan::hw::IsaClass::Cayman;
   if (cs_flags & RADEON_CS_USE_VM)
      return refuse(cayman ? "CS: virtual memory (RADEON_CS_USE_VM) is not simulated yet"
                           : "CS: VM not active on asic!");
   if (ring != RADEON_CS_RING_DMA && ring != RADEON_CS_RING_GFX && ring != RADEON_CS_RING_COMPUTE) {
      char text[64];
      std::snprintf(text, sizeof(text), "CS: unknown ring id: %u", ring);
      return refuse(text);
   }
   if (!ib_chunk)
      return 0; /* nothing to run: the kernel succeeds too */
   if (ib_chunk->length_dw > 262144)
      return refuse("CS: Failed to get ib ! (larger than the 1 MiB IB pool)");

   std::vector<terakan::sim::CsReloc> relocs;
   std::vector<uint64_t> named; /* the relocated buffers' addresses, for their busy marks */
   auto reachable = std::make_shared<SubmissionBuffers>();
   if (relocs_chunk) {
      const auto *entries = reinterpret_cast<const drm_radeon_cs_reloc *>(uintptr_t(relocs_chunk->chunk_data));
      for (uint32_t i = 0; i < relocs_chunk->length_dw / 4; i++) {
         struct shim_bo *bo = lookup(fd, entries[i].handle);
         if (!bo) {
            char text[64];
            std::snprintf(text, sizeof(text), "CS: gem object lookup failed 0x%x", entries[i].handle);
            std::fprintf(stderr, "terakan-sim: %s\n", text);
            return fail(ENOENT);
         }
         const uint32_t domain = entries[i].write_domain ? entries[i].write_domain : entries[i].read_domains;
         if (domain & RADEON_GEM_DOMAIN_CPU)
            return refuse("CS: RADEON_GEM_DOMAIN_CPU is not valid for command submission");
         std::lock_guard<std::mutex> guard(buffers_lock);
         const BufferInfo &info = buffers[bo->mem_addr];
         relocs.push_back({bo->mem_addr, info.size, info.tiling_flags});
         named.push_back(bo->mem_addr);
         (*reachable)[bo->mem_addr] = info.size;
      }
   }
   /* Queued for the GPU thread; the buffers it names are busy until it has run. */
   auto queue = [&](terakan::sim::GpuQueue::Work work) {
      gpu_queue.submit(std::move(work), [&](uint64_t sequence) {
         std::lock_guard<std::mutex> guard(buffers_lock);
         for (uint64_t address : named)
            buffers[address].last_use = sequence;
      });
   };
   const auto *ib_data = reinterpret_cast<const uint32_t *>(uintptr_t(ib_chunk->chunk_data));
   std::vector<uint32_t> ib(ib_data, ib_data + ib_chunk->length_dw);
   if (ring == RADEON_CS_RING_DMA) {
      /* radeon_cs_ib_chunk runs the DMA ring's own parser (evergreen_dma_cs_parse). */
      const std::string refused = terakan::sim::check_and_patch_dma(ib, relocs, terakan::hw::family_info(board.family).isa_class);
      if (!refused.empty())
         return refuse(("CS: Invalid command stream ! " + refused).c_str());
      queue([ib = std::move(ib), reachable] {
         if (device_lost)
            return; /* a lost GPU runs nothing more */
         gpu_memory.buffers = reachable.get();
         const std::string failed = dma_engine->execute(ib);
         gpu_memory.buffers = nullptr;
         if (!failed.empty()) {
            std::fprintf(stderr, "terakan-sim: GPU hang: DMA ring: %s\n", failed.c_str());
            device_lost = true;
         }
      });
      return 0;
   }
   terakan::sim::CsCheckOptions options;
   options.isa = terakan::hw::family_info(board.family).isa_class;
   options.keep_tiling_flags = cs_flags & RADEON_CS_KEEP_TILING_FLAGS;
   options.tiling = terakan::hw::tiling_config_from_kernel(board.family, board.tiling_config);
   const std::string refused = terakan::sim::check_and_patch(ib, relocs, options);
   if (!refused.empty())
      return refuse(("CS: Invalid command stream ! " + refused).c_str());

   queue([ib = std::move(ib), reachable] {
      if (device_lost)
         return;
      gpu_memory.buffers = reachable.get();
      const std::string failed = command_processor->execute(ib);
      gpu_memory.buffers = nullptr;
      if (!failed.empty()) {
         /* What a real card would hang or fault on: the submission was accepted, the GPU is
          * now lost. */
         std::fprintf(stderr, "terakan-sim: GPU hang: %s\n", failed.c_str());
         device_lost = true;
      }
   });
   return 0;
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

/* TERAKAN_SIM_DUMP=DIR: PNGs of the bound buffers after every draw (gfx/dump.h), named with
 * the chip so that runs on several boards can share a folder. */
void start_dumping(const char *directory)
{
   std::error_code failed;
   std::filesystem::create_directories(directory, failed);
   if (failed) {
      std::fprintf(stderr, "terakan-sim: TERAKAN_SIM_DUMP=%s: cannot create the folder: %s; "
                   "nothing will be dumped\n", directory, failed.message().c_str());
      return;
   }
   std::string chip(terakan::hw::family_info(board.family).name);
   std::transform(chip.begin(), chip.end(), chip.begin(), [](unsigned char c) { return std::tolower(c); });
   command_processor->set_dump(directory, chip);
}

/* terakan-sim runs one program on the simulated card: it preloads this library and names it
 * in TERAKAN_SIM_PRELOAD_ONCE. The dynamic loader has read LD_PRELOAD by the time this runs,
 * so taking the library out of it (and the marker with it) keeps it out of the programs this
 * one starts, and leaves everything else the user preloads in place. */
__attribute__((constructor)) void preload_into_this_program_only()
{
   const char *own = std::getenv("TERAKAN_SIM_PRELOAD_ONCE");
   if (!own)
      return;
   const std::string ours = own;
   const char *preload = std::getenv("LD_PRELOAD");
   std::string kept;
   if (preload) {
      /* ld.so separates the list with colons or spaces. */
      const std::string list = preload;
      size_t start = 0;
      while (start <= list.size()) {
         size_t end = list.find_first_of(": ", start);
         if (end == std::string::npos)
            end = list.size();
         const std::string entry = list.substr(start, end - start);
         if (!entry.empty() && entry != ours)
            kept += (kept.empty() ? "" : ":") + entry;
         start = end + 1;
      }
   }
   if (kept.empty())
      unsetenv("LD_PRELOAD");
   else
      setenv("LD_PRELOAD", kept.c_str(), 1);
   unsetenv("TERAKAN_SIM_PRELOAD_ONCE");
}

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

extern "C" void terakan_sim_finish_queued_work(void)
{
   gpu_queue.wait_for_all();
}

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
   radeon_ioctls[DRM_RADEON_GEM_CREATE] = radeon_gem_create;
   radeon_ioctls[DRM_RADEON_GEM_MMAP] = radeon_gem_mmap;
   radeon_ioctls[DRM_RADEON_GEM_WAIT_IDLE] = radeon_gem_wait_idle;
   radeon_ioctls[DRM_RADEON_GEM_BUSY] = radeon_gem_busy;
   radeon_ioctls[DRM_RADEON_GEM_SET_DOMAIN] = radeon_gem_set_domain;
   radeon_ioctls[DRM_RADEON_GEM_SET_TILING] = radeon_gem_set_tiling;
   radeon_ioctls[DRM_RADEON_GEM_GET_TILING] = radeon_gem_get_tiling;
   radeon_ioctls[DRM_RADEON_CS] = radeon_cs;
   /* Numbers below GEM_INFO are the legacy UMS ioctls, refused by KMS radeon (drm_invalid_op). */
   for (int nr = 0; nr < DRM_RADEON_GEM_INFO; nr++)
      radeon_ioctls[nr] = nullptr;
   shim_device.driver_ioctls = radeon_ioctls;
   shim_device.driver_ioctl_count = sizeof(radeon_ioctls) / sizeof(radeon_ioctls[0]);

   core_ioctls[_IOC_NR(DRM_IOCTL_GET_CAP)] = radeon_get_cap;
   drm_shim_gem_close = core_ioctls[_IOC_NR(DRM_IOCTL_GEM_CLOSE)];
   core_ioctls[_IOC_NR(DRM_IOCTL_GEM_CLOSE)] = radeon_gem_close;
   pthread_atfork([] { gpu_queue.before_fork(); }, [] { gpu_queue.after_fork_in_parent(); },
                  [] { gpu_queue.after_fork_in_child(); });
   shim_device.driver_bo_free = forget_buffer;

   /* Reach every buffer's bytes through one mapping of drm-shim's memory file. */
   void *mapping = mmap(nullptr, 4ull << 30, PROT_READ | PROT_WRITE, MAP_SHARED, shim_device.mem_fd, 0);
   if (mapping == MAP_FAILED) {
      std::fprintf(stderr, "terakan-sim: cannot map the buffer memory: %s\n", std::strerror(errno));
   } else {
      memory_file = static_cast<uint8_t *>(mapping);
      command_processor = std::make_unique<terakan::sim::CommandProcessor>(
         board.family, gpu_memory, terakan::hw::tiling_config_from_kernel(board.family, board.tiling_config));
      command_processor->set_render_backends(board.backends);
      /* radeon's lockup_timeout module parameter defaults to 10000 ms (radeon_drv.c);
       * TERAKAN_SIM_LOCKUP_TIMEOUT_MS shortens it for tests of hangs. */
      unsigned lockup_ms = 10000;
      if (const char *lockup = std::getenv("TERAKAN_SIM_LOCKUP_TIMEOUT_MS"))
         lockup_ms = unsigned(std::strtoul(lockup, nullptr, 10));
      command_processor->set_concurrent_host(!gpu_queue.synchronous(), lockup_ms);
      /* The board's published figures for the timing model (cp/timing_model.h). */
      terakan::sim::TimingModel timing;
      timing.simds = board.shader_engines * board.simds_per_shader_engine;
      timing.render_backends = board.backends;
      timing.primitives_per_clock = board.shader_engines > 1 && is_cayman_class() ? 2 : 1;
      timing.engine_clock_khz = board.max_engine_clock_khz;
      timing.crystal_clock_khz = board.crystal_clock_khz;
      command_processor->set_timing_model(timing);
      dma_engine = std::make_unique<terakan::sim::DmaEngine>(
         gpu_memory, terakan::hw::tiling_config_from_kernel(board.family, board.tiling_config));
      if (const char *trace = std::getenv("TERAKAN_SIM_TRACE")) {
         /* "draws" and every level print one line per DMA packet. */
         dma_engine->set_trace(std::strcmp(trace, "draws") == 0 || std::atoi(trace) > 0);
         if (std::strcmp(trace, "draws") == 0)
            command_processor->set_trace_draws(true);
         else
            command_processor->set_trace(static_cast<terakan::sim::TraceLevel>(std::atoi(trace)));
      }
      if (const char *dump = std::getenv("TERAKAN_SIM_DUMP"); dump && *dump)
         start_dumping(dump);
   }

   fake_pci_sysfs();
}
