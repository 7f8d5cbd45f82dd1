/* src/hw/surface against an independent implementation: libdrm_radeon's radeon_surface_init,
 * which Mesa's r600 driver lays its textures out with. libdrm needs a radeon DRM node; the test
 * runs with the simulator's shim preloaded (LD_PRELOAD, TERAKAN_SIM_CHIP), whose answers to
 * RADEON_INFO_DEVICE_ID and RADEON_INFO_TILING_CONFIG are what libdrm reads. */
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <xf86drm.h>
extern "C" { /* the header has no C++ guard */
#include <radeon_drm.h>
#include <radeon_surface.h>
}

#include "hw/chips.h"
#include "hw/surface.h"

using namespace terakan::hw;

namespace {

struct Manager {
   Manager()
   {
      fd = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);
      if (fd >= 0)
         manager = radeon_surface_manager_new(fd);
   }
   ~Manager()
   {
      if (manager)
         radeon_surface_manager_free(manager);
      if (fd >= 0)
         close(fd);
   }
   int fd = -1;
   radeon_surface_manager *manager = nullptr;
};

Family chip_family()
{
   const char *chip = std::getenv("TERAKAN_SIM_CHIP");
   const auto family = family_from_name(chip ? chip : "CAYMAN");
   return family ? *family : Family::Cayman;
}

struct Case {
   unsigned width, height, depth, layers, levels, bpe;
   bool is_3d;
   ArrayMode mode;
};

/* What the driver does: ask the kernel (here the simulator) for RADEON_INFO_TILING_CONFIG and
 * decode it. */
TilingConfig board_tiling(int fd)
{
   uint32_t value = 0;
   drm_radeon_info info = {};
   info.request = RADEON_INFO_TILING_CONFIG;
   info.value = uint64_t(uintptr_t(&value));
   EXPECT_EQ(drmCommandWriteRead(fd, DRM_RADEON_INFO, &info, sizeof(info)), 0);
   return tiling_config_from_kernel(chip_family(), value);
}

void compare(Manager &m, const Case &c)
{
   radeon_surface surf = {};
   surf.npix_x = c.width;
   surf.npix_y = c.height;
   surf.npix_z = c.depth;
   surf.blk_w = surf.blk_h = surf.blk_d = 1;
   surf.array_size = c.layers;
   surf.last_level = c.levels - 1;
   surf.bpe = c.bpe;
   surf.nsamples = 1;
   const unsigned type = c.is_3d ? RADEON_SURF_TYPE_3D
                         : c.layers > 1 ? RADEON_SURF_TYPE_2D_ARRAY
                         : c.height == 1 ? RADEON_SURF_TYPE_1D
                                         : RADEON_SURF_TYPE_2D;
   const unsigned mode = c.mode == ArrayMode::Tiled2DThin1    ? RADEON_SURF_MODE_2D
                         : c.mode == ArrayMode::Tiled1DThin1  ? RADEON_SURF_MODE_1D
                         : c.mode == ArrayMode::LinearAligned ? RADEON_SURF_MODE_LINEAR_ALIGNED
                                                              : RADEON_SURF_MODE_LINEAR;
   surf.flags = RADEON_SURF_SET(type, TYPE) | RADEON_SURF_SET(mode, MODE);
   /* libdrm picks the 2D parameters in radeon_surface_best (as Mesa's r600 calls it). */
   if (c.mode == ArrayMode::Tiled2DThin1) {
      ASSERT_EQ(radeon_surface_best(m.manager, &surf), 0);
   }
   ASSERT_EQ(radeon_surface_init(m.manager, &surf), 0);
   if (c.mode == ArrayMode::Tiled2DThin1) {
      ASSERT_EQ(RADEON_SURF_GET(surf.flags, MODE), unsigned(RADEON_SURF_MODE_2D)) << "libdrm refused 2D tiling";
   }

   SurfaceDescription d;
   d.width = c.width, d.height = c.height, d.depth = c.depth, d.layers = c.layers, d.levels = c.levels;
   d.bytes_per_element = c.bpe, d.is_3d = c.is_3d, d.mode = c.mode;
   d.tiling = board_tiling(m.fd);
   SurfaceLayout layout;
   std::string error;
   ASSERT_TRUE(compute_surface_layout(chip_family(), d, layout, error)) << error;
   const std::string what = std::to_string(c.width) + "x" + std::to_string(c.height) + "x" +
                            std::to_string(c.depth) + "[" + std::to_string(c.layers) + "] bpe " +
                            std::to_string(c.bpe) + " mode " + std::to_string(unsigned(c.mode));
   for (unsigned level = 0; level < c.levels; level++) {
      const radeon_surface_level &l = surf.level[level];
      const SurfaceLevel &ours = layout.levels[level];
      const ArrayMode drm_mode = l.mode == RADEON_SURF_MODE_2D      ? ArrayMode::Tiled2DThin1
                                 : l.mode == RADEON_SURF_MODE_1D    ? ArrayMode::Tiled1DThin1
                                 : l.mode == RADEON_SURF_MODE_LINEAR_ALIGNED ? ArrayMode::LinearAligned
                                                                    : ArrayMode::LinearGeneral;
      EXPECT_EQ(unsigned(ours.mode), unsigned(drm_mode)) << what << " level " << level;
      EXPECT_EQ(ours.offset, l.offset) << what << " level " << level;
      EXPECT_EQ(ours.pitch, l.nblk_x) << what << " level " << level;
      EXPECT_EQ(ours.aligned_height, l.nblk_y) << what << " level " << level;
      EXPECT_EQ(ours.slice_bytes, l.slice_size) << what << " level " << level;
      /* libdrm rounds array_size up to a power of two in place. */
      EXPECT_EQ(ours.slices, c.is_3d ? l.nblk_z : surf.array_size) << what << " level " << level;
   }
   EXPECT_EQ(layout.size, surf.bo_size) << what;
   EXPECT_EQ(layout.alignment, surf.bo_alignment) << what;
   if (c.mode == ArrayMode::Tiled2DThin1) {
      EXPECT_EQ(layout.macro.bank_width, surf.bankw) << what;
      EXPECT_EQ(layout.macro.bank_height, surf.bankh) << what;
      EXPECT_EQ(layout.macro.macro_tile_aspect, surf.mtilea) << what;
      EXPECT_EQ(layout.macro.tile_split_bytes, surf.tile_split) << what;
   }
   if (c.levels > 1) {
      EXPECT_EQ(layout.mip_offset, surf.level[1].offset) << what;
   }
}

TEST(SurfaceAgainstLibdrm, LinearAlignedAnd1DTiled)
{
   Manager m;
   ASSERT_GE(m.fd, 0) << "no radeon node: run with the simulator's shim preloaded";
   ASSERT_NE(m.manager, nullptr) << "radeon_surface_manager_new failed";
   const Case cases[] = {
      {1, 1, 1, 1, 1, 4, false, ArrayMode::LinearAligned},
      {100, 50, 1, 1, 7, 4, false, ArrayMode::LinearAligned},
      {100, 50, 1, 1, 7, 4, false, ArrayMode::Tiled1DThin1},
      {37, 19, 1, 3, 6, 1, false, ArrayMode::LinearAligned},
      {37, 19, 1, 3, 6, 1, false, ArrayMode::Tiled1DThin1},
      {64, 64, 1, 6, 7, 2, false, ArrayMode::Tiled1DThin1},
      {300, 7, 1, 1, 9, 8, false, ArrayMode::LinearAligned},
      {300, 7, 1, 1, 9, 16, false, ArrayMode::Tiled1DThin1},
      {33, 1, 1, 1, 6, 4, false, ArrayMode::Tiled1DThin1},
      {16, 8, 5, 1, 5, 4, true, ArrayMode::LinearAligned},
      {16, 8, 5, 1, 5, 4, true, ArrayMode::Tiled1DThin1},
      {129, 65, 1, 1, 8, 2, false, ArrayMode::LinearGeneral},
   };
   for (const Case &c : cases)
      compare(m, c);
}

TEST(SurfaceAgainstLibdrm, TilingConfigDecode)
{
   Manager m;
   ASSERT_GE(m.fd, 0) << "no radeon node: run with the simulator's shim preloaded";
   /* The golden GB_ADDR_CONFIG of each family (Linux evergreend.h / nid.h) decoded by hand:
    * NUM_PIPES, PIPE_INTERLEAVE 0 (256 B), ROW_SIZE; 8 banks is the simulated boards' memory. */
   const TilingConfig t = board_tiling(m.fd);
   const Family family = chip_family();
   const unsigned pipes = family == Family::Juniper ? 4
                          : family == Family::Cedar || family == Family::Aruba ? 2
                                                                               : 8;
   EXPECT_TRUE(t.valid);
   EXPECT_EQ(t.pipes, pipes);
   EXPECT_EQ(t.banks, 8u);
   EXPECT_EQ(t.group_bytes, 256u);
   EXPECT_EQ(t.row_bytes, family == Family::Aruba ? 2048u : 1024u);
   EXPECT_EQ(t.shader_engines, pipes == 8 ? 2u : 1u);
}

TEST(SurfaceAgainstLibdrm, Tiled2DThin1)
{
   Manager m;
   ASSERT_GE(m.fd, 0) << "no radeon node: run with the simulator's shim preloaded";
   ASSERT_NE(m.manager, nullptr) << "radeon_surface_manager_new failed";
   const ArrayMode t2d = ArrayMode::Tiled2DThin1;
   /* Every element size, levels down to 1x1 (so the 2D -> 1D fall back happens), arrays with
    * a non-power-of-two layer count, 3D, surfaces too small for one macro tile (all 1D), and
    * non-power-of-two sizes. */
   const Case cases[] = {
      {256, 256, 1, 1, 9, 4, false, t2d},
      {256, 256, 1, 1, 9, 1, false, t2d},
      {256, 256, 1, 1, 9, 2, false, t2d},
      {256, 256, 1, 1, 9, 8, false, t2d},
      {256, 256, 1, 1, 9, 16, false, t2d},
      {1000, 300, 1, 1, 10, 4, false, t2d},
      {513, 77, 1, 3, 8, 4, false, t2d},
      {128, 128, 1, 6, 8, 8, false, t2d},
      {64, 64, 1, 1, 7, 4, false, t2d},
      {16, 16, 1, 1, 5, 4, false, t2d},
      {2048, 8, 1, 1, 12, 2, false, t2d},
      {128, 128, 16, 1, 8, 4, true, t2d},
      {4096, 4096, 1, 1, 1, 16, false, t2d},
   };
   for (const Case &c : cases)
      compare(m, c);
}

} // namespace
