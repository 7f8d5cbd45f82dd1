/* The simulator through the radeon kernel interface, as a driver reaches it: run with
 * libterakan_sim.so preloaded (LD_PRELOAD) for the chip in TERAKAN_SIM_CHIP. Buffer objects are
 * created and mapped with GEM ioctls, LLVM-compiled kernels are submitted with DRM_RADEON_CS
 * (IB, relocation and flags chunks), and results are read back; refusals come back as the
 * kernel's error codes while the process carries on. */
#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <random>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <radeon_drm.h>
#include <xf86drm.h>

#include "llvm_kernels.h"
#include "hw/dma_packets.h"
#include "pm4_harness.h"

using namespace terakan;
using namespace terakan::test;

namespace {

std::string chip_cpu()
{
   const char *chip = std::getenv("TERAKAN_SIM_CHIP");
   const std::string name = chip ? chip : "CAYMAN";
   if (name == "CAYMAN")
      return "cayman";
   if (name == "BARTS")
      return "barts";
   return "cypress";
}

class Device {
public:
   Device() { fd = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC); }
   ~Device()
   {
      if (fd >= 0)
         close(fd);
   }
   int fd = -1;

   struct Bo {
      uint32_t handle = 0;
      uint8_t *map = nullptr;
      size_t size = 0;
   };

   Bo create(size_t size, uint32_t domain = RADEON_GEM_DOMAIN_GTT)
   {
      drm_radeon_gem_create create = {};
      create.size = size;
      create.alignment = 4096;
      create.initial_domain = domain;
      EXPECT_EQ(drmCommandWriteRead(fd, DRM_RADEON_GEM_CREATE, &create, sizeof(create)), 0);
      drm_radeon_gem_mmap map = {};
      map.handle = create.handle;
      map.size = size;
      EXPECT_EQ(drmCommandWriteRead(fd, DRM_RADEON_GEM_MMAP, &map, sizeof(map)), 0);
      void *ptr = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(map.addr_ptr));
      EXPECT_NE(ptr, MAP_FAILED);
      return {create.handle, static_cast<uint8_t *>(ptr), size};
   }

   /* DRM_RADEON_CS with IB, RELOCS and FLAGS chunks; returns 0 or -errno. */
   int submit(const std::vector<uint32_t> &ib, const std::vector<uint32_t> &handles,
              uint32_t flags = RADEON_CS_KEEP_TILING_FLAGS, uint32_t domain = RADEON_GEM_DOMAIN_GTT,
              uint32_t ring = RADEON_CS_RING_COMPUTE)
   {
      std::vector<drm_radeon_cs_reloc> relocs;
      for (uint32_t handle : handles)
         relocs.push_back({handle, domain, 0, 0});
      const uint32_t flag_words[2] = {flags, ring};
      drm_radeon_cs_chunk chunks[3] = {
         {RADEON_CHUNK_ID_IB, uint32_t(ib.size()), uint64_t(uintptr_t(ib.data()))},
         {RADEON_CHUNK_ID_RELOCS, uint32_t(relocs.size() * 4), uint64_t(uintptr_t(relocs.data()))},
         {RADEON_CHUNK_ID_FLAGS, 2, uint64_t(uintptr_t(flag_words))},
      };
      uint64_t pointers[3] = {uint64_t(uintptr_t(&chunks[0])), uint64_t(uintptr_t(&chunks[1])),
                              uint64_t(uintptr_t(&chunks[2]))};
      drm_radeon_cs cs = {};
      cs.num_chunks = 3;
      cs.chunks = uint64_t(uintptr_t(pointers));
      return drmCommandWriteRead(fd, DRM_RADEON_CS, &cs, sizeof(cs));
   }

   int wait_idle(uint32_t handle)
   {
      drm_radeon_gem_wait_idle wait = {handle, 0};
      return drmCommandWrite(fd, DRM_RADEON_GEM_WAIT_IDLE, &wait, sizeof(wait));
   }
};

constexpr uint32_t pool_size = 0x40000, output_offset = 0x20000;

/* A job over real buffer objects; relocation indices follow `handles`. */
struct ShimJob {
   Device &device;
   Device::Bo code, params, pool, fence;
   DispatchSetup setup{};
   std::vector<uint32_t> inputs;
   const isa::ElfFunction *kernel;

   ShimJob(Device &d, const std::string &name) : device(d)
   {
      kernel = find_kernel(chip_cpu(), name);
      code = device.create((kernel->dwords.size() * 4 + 4095) & ~size_t(4095), RADEON_GEM_DOMAIN_VRAM);
      std::memcpy(code.map, kernel->dwords.data(), kernel->dwords.size() * 4);
      params = device.create(4096);
      pool = device.create(pool_size);
      fence = device.create(4096);
      setup = {0, 1, 2, 3, pool_size, config_value(*kernel, 0x288D4), config_value(*kernel, 0x288E8),
               {64, 1, 1}, {4, 1, 1}};
      const uint32_t implicit[12] = {4, 1, 1, 256, 1, 1, 64, 1, 1, output_offset, 0, 5};
      std::memcpy(params.map, implicit, sizeof(implicit));
      std::mt19937 random(11);
      inputs.resize(256);
      for (uint32_t &v : inputs)
         v = random();
      std::memcpy(pool.map, inputs.data(), inputs.size() * 4);
   }
   std::vector<uint32_t> handles() const { return {code.handle, params.handle, pool.handle, fence.handle}; }
   /* What the job wrote, once the GPU has run it: a submission returns when it is queued. */
   uint32_t output(unsigned i) const
   {
      EXPECT_EQ(device.wait_idle(pool.handle), 0);
      uint32_t v;
      std::memcpy(&v, pool.map + output_offset + i * 4, 4);
      return v;
   }
};

TEST(ShimIoctls, RunsLlvmKernelsThroughTheKernelInterface)
{
   Device device;
   ASSERT_GE(device.fd, 0);
   for (const char *name : {"add_const", "collatz", "lds_reduce"}) {
      ShimJob job(device, name);
      ASSERT_EQ(device.submit(build_dispatch(job.setup).ib, job.handles()), 0) << name;
      ASSERT_EQ(device.wait_idle(job.pool.handle), 0);
      uint32_t fence;
      std::memcpy(&fence, job.fence.map, 4);
      EXPECT_EQ(fence, 0x1234u) << name;
      for (unsigned i = 0; i < 256; i++) {
         uint32_t expected = 0;
         if (std::string(name) == "add_const") {
            expected = job.inputs[i] + 5;
         } else if (std::string(name) == "collatz") {
            uint32_t v = job.inputs[i] & 1023, n = 0;
            while (v > 1 && n < 200) {
               v = v & 1 ? 3 * v + 1 : v >> 1;
               n++;
            }
            expected = n;
         } else {
            for (unsigned t = 0; t < 64; t++)
               expected += job.inputs[(i / 64) * 64 + t];
         }
         ASSERT_EQ(job.output(i), expected) << name << " thread " << i;
      }
   }
}

TEST(ShimIoctls, RefusedSubmissionsReturnEinval)
{
   Device device;
   ShimJob job(device, "add_const");
   /* A forbidden register: the kernel's checker refuses, -EINVAL, nothing runs. */
   IbBuilder bad = build_dispatch(job.setup);
   bad.config(0x8010, {1}); /* GRBM_STATUS, read-only */
   EXPECT_EQ(device.submit(bad.ib, job.handles()), -EINVAL);
   /* CPU domain in a relocation. */
   EXPECT_EQ(device.submit(build_dispatch(job.setup).ib, job.handles(),
                           RADEON_CS_KEEP_TILING_FLAGS, RADEON_GEM_DOMAIN_CPU), -EINVAL);
   /* A handle that does not exist. */
   EXPECT_EQ(device.submit(build_dispatch(job.setup).ib, {job.code.handle, 999, 3, 4}), -ENOENT);
   /* Virtual memory: not active on Evergreen, not simulated on Cayman. */
   EXPECT_EQ(device.submit(build_dispatch(job.setup).ib, job.handles(), RADEON_CS_USE_VM), -EINVAL);
   /* And the device still works. */
   EXPECT_EQ(device.submit(build_dispatch(job.setup).ib, job.handles()), 0);
   EXPECT_EQ(job.output(0), job.inputs[0] + 5);
}

/* The asynchronous DMA ring as r600g uses it: no KEEP_TILING_FLAGS, one relocation per
 * address, in order. The copy lands; a copy past the end of a buffer is refused. */
TEST(ShimIoctls, DmaRingCopiesAndRefusesThroughTheIoctl)
{
   Device device;
   Device::Bo src = device.create(8192), dst = device.create(8192);
   for (size_t i = 0; i < 8192; i++)
      src.map[i] = uint8_t(i * 7 + 1);
   const std::vector<uint32_t> copy = {hw::dma::header(hw::dma::COPY, hw::dma::COPY_LINEAR_DWORDS, 1024), 4096, 0,
                                       0, 0, hw::dma::nop, hw::dma::nop, hw::dma::nop};
   ASSERT_EQ(device.submit(copy, {src.handle, dst.handle}, 0, RADEON_GEM_DOMAIN_GTT, RADEON_CS_RING_DMA), 0);
   EXPECT_EQ(device.wait_idle(dst.handle), 0);
   EXPECT_EQ(std::memcmp(dst.map + 4096, src.map, 4096), 0);
   EXPECT_EQ(dst.map[4095], 0);
   std::vector<uint32_t> past_end = copy;
   past_end[1] = 4100; /* 4100 + 4096 > 8192 */
   EXPECT_EQ(device.submit(past_end, {src.handle, dst.handle}, 0, RADEON_GEM_DOMAIN_GTT, RADEON_CS_RING_DMA), -EINVAL);
   /* The GFX path still works after a refused DMA stream. */
   ShimJob job(device, "add_const");
   EXPECT_EQ(device.submit(build_dispatch(job.setup).ib, job.handles()), 0);
   EXPECT_EQ(job.output(0), job.inputs[0] + 5);
}

TEST(ShimIoctls, BufferObjectErrors)
{
   Device device;
   drm_radeon_gem_create create = {};
   create.size = 0;
   create.initial_domain = RADEON_GEM_DOMAIN_GTT;
   EXPECT_EQ(drmCommandWriteRead(device.fd, DRM_RADEON_GEM_CREATE, &create, sizeof(create)), -EINVAL);
   create.size = 64ull << 30; /* more than any heap */
   EXPECT_EQ(drmCommandWriteRead(device.fd, DRM_RADEON_GEM_CREATE, &create, sizeof(create)), -ENOMEM);
   drm_radeon_gem_mmap map = {};
   map.handle = 4242;
   map.size = 4096;
   EXPECT_EQ(drmCommandWriteRead(device.fd, DRM_RADEON_GEM_MMAP, &map, sizeof(map)), -ENOENT);
   Device::Bo bo = device.create(8192);
   drm_radeon_gem_set_tiling tiling = {bo.handle, RADEON_TILING_MICRO, 256};
   EXPECT_EQ(drmCommandWriteRead(device.fd, DRM_RADEON_GEM_SET_TILING, &tiling, sizeof(tiling)), 0);
   drm_radeon_gem_get_tiling got = {bo.handle, 0, 0};
   EXPECT_EQ(drmCommandWriteRead(device.fd, DRM_RADEON_GEM_GET_TILING, &got, sizeof(got)), 0);
   EXPECT_EQ(got.tiling_flags, uint32_t(RADEON_TILING_MICRO));
   EXPECT_EQ(got.pitch, 256u);
   map.handle = bo.handle;
   map.offset = 4096;
   map.size = 8192; /* runs past the end */
   EXPECT_EQ(drmCommandWriteRead(device.fd, DRM_RADEON_GEM_MMAP, &map, sizeof(map)), -EINVAL);
}

/* Closing a handle gives its memory back, however often the object was looked up (mapped,
 * queried, named by a submission) in between: 12 rounds of 512 MiB per lookup count are
 * 6 GiB, more than the simulator's 4 GiB of memory, so a leaked object makes GEM_CREATE fail. */
TEST(ShimIoctls, ClosedBuffersGiveTheirMemoryBack)
{
   Device device;
   for (int lookups : {1, 0, 2}) {
      for (int round = 0; round < 12; round++) {
         drm_radeon_gem_create create = {};
         create.size = 512ull << 20;
         create.alignment = 4096;
         create.initial_domain = RADEON_GEM_DOMAIN_GTT;
         ASSERT_EQ(drmCommandWriteRead(device.fd, DRM_RADEON_GEM_CREATE, &create, sizeof(create)), 0)
            << lookups << " lookups, round " << round;
         for (int lookup = 0; lookup < lookups; lookup++) {
            drm_radeon_gem_busy busy = {create.handle, 0};
            EXPECT_EQ(drmCommandWriteRead(device.fd, DRM_RADEON_GEM_BUSY, &busy, sizeof(busy)), 0);
         }
         drm_gem_close close_request = {};
         close_request.handle = create.handle;
         ASSERT_EQ(drmIoctl(device.fd, DRM_IOCTL_GEM_CLOSE, &close_request), 0);
      }
   }
}

TEST(ShimIoctls, GpuHangLosesTheDevice)
{
   /* In a child process: the loss is for the whole (simulated) device. */
   const pid_t child = fork();
   ASSERT_GE(child, 0);
   if (child == 0) {
      Device device;
      ShimJob job(device, "add_const");
      job.setup.resources_ls = 1; /* too few GPRs: the GPU would fault */
      const int submitted = device.submit(build_dispatch(job.setup).ib, job.handles());
      const int waited = device.wait_idle(job.pool.handle);
      const int again = device.submit(build_dispatch(job.setup).ib, job.handles());
      _exit(submitted == 0 && waited == -EDEADLK && again == -EDEADLK ? 0 : 1);
   }
   int status = 0;
   waitpid(child, &status, 0);
   ASSERT_TRUE(WIFEXITED(status)) << "the child died of a signal";
   EXPECT_EQ(WEXITSTATUS(status), 0);
}

} // namespace
