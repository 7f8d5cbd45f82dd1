/* The sampling copy of a depth/stencil image's mip levels.
 *
 * The DB reads and writes depth and stencil with one pitch (DB_DEPTH_SIZE), and the kernel
 * wants an 8-bit stencil plane's 1D-tiled pitch to be a multiple of 32 texels (evergreen_cs.c,
 * evergreen_surface_check_1d: the pipe interleave over eight rows of one-byte texels). So the
 * depth levels of D24S8 and D32FS8 take the stencil plane's pitch (terakan_image.cpp,
 * lay_out_stencil), wider than the 8-texel alignment of their 32-bit depth. The texture unit
 * finds level 0 from the resource's PITCH but levels 1.. from MIP_ADDRESS by the natural layout
 * of the format alone, so it would read those levels with the wrong pitch. Mesa's r600 driver
 * samples such a surface ("depth_adjusted") through a flushed copy; here the copy holds only
 * what the texture unit cannot find: levels 1.. of the depth plane, laid out naturally, after
 * the stencil plane. Sampling views point MIP_ADDRESS at it (terakan_image_view_words).
 *
 * The copy is brought up to date right after every command that writes those levels (the end
 * of a rendering with the image as its depth attachment, clears, copies and blits into it), by
 * CP DMA: depth surfaces are 1D tiled (8x8 micro tiles), where one row of micro tiles is
 * contiguous, pitch * 8 texels long, so a level with a narrower natural pitch is the first
 * natural-pitch * 8 texels of each such row. Writes the driver cannot see (memory aliased by
 * another image, host writes) do not reach the copy: depth images have optimal tiling only,
 * and Vulkan leaves an aliased image's contents undefined after another resource's writes. */
#include "terakan_private.h"

#include "hw/pm4.h"

using terakan::winsys::CommandStream;
namespace hw = terakan::hw;

bool terakan_image_lay_out_sampling_copy(const terakan_device *device, terakan_image *image, std::string &error)
{
   hw::SurfaceLayout natural;
   if (!hw::compute_surface_layout(device->physical->pci->family, image->surface, natural, error))
      return false;
   bool differs = false;
   for (size_t level = 1; level < natural.levels.size(); level++) {
      const hw::SurfaceLevel &found = natural.levels[level], &written = image->layout.levels[level];
      /* The copy moves whole micro-tile rows: both layouts must be 1D tiled with the same rows
       * and a natural pitch no wider than the DB's. */
      if (found.mode != hw::ArrayMode::Tiled1DThin1 || written.mode != found.mode ||
          found.aligned_height != written.aligned_height || found.pitch > written.pitch ||
          found.slices != written.slices) {
         error = "the depth levels cannot be copied to where the texture unit reads them";
         return false;
      }
      differs |= found.pitch != written.pitch ||
                 found.offset - natural.mip_offset != written.offset - image->layout.mip_offset;
   }
   if (!differs)
      return true;
   image->sampling_layout = natural;
   image->sampling_mips_offset =
      align64(image->stencil_offset + image->stencil_layout.size, std::max<uint64_t>(256, natural.alignment));
   return true;
}

void terakan_cmd_refresh_sampling_copy(terakan_cmd_buffer *cmd, terakan_image *image, uint32_t base_level,
                                       uint32_t level_count, uint32_t base_layer, uint32_t layer_count)
{
   if (!image->sampling_mips_offset || !image->memory)
      return;
   const uint32_t first = std::max(base_level, 1u);
   const uint32_t end = std::min(base_level + level_count, image->vk.mip_levels);
   if (first >= end)
      return;
   CommandStream &cs = terakan_cmd_stream(cmd);
   /* The DB's writes reach memory before the CP reads them ... */
   terakan_emit_full_barrier(cs);
   terakan::winsys::RadeonBo &bo = *image->memory->bo;
   const uint64_t bytes_per_texel = image->surface.bytes_per_element;
   struct Run {
      uint64_t from, to, bytes;
   };
   std::vector<Run> runs;
   constexpr uint64_t max_run = hw::pm4::cp_dma::max_bytes & ~uint64_t(255);
   for (uint32_t level = first; level < end; level++) {
      const hw::SurfaceLevel &written = image->layout.levels[level];
      const hw::SurfaceLevel &found = image->sampling_layout.levels[level];
      const uint64_t written_base = image->offset + written.offset + uint64_t(base_layer) * written.slice_bytes;
      const uint64_t found_base = image->offset + image->sampling_mips_offset +
                                  (found.offset - image->sampling_layout.mip_offset) +
                                  uint64_t(base_layer) * found.slice_bytes;
      if (found.pitch == written.pitch) {
         /* One run per layer: a CP DMA packet moves less than 2 MiB. */
         for (uint32_t layer = 0; layer < layer_count; layer++)
            for (uint64_t done = 0; done < found.slice_bytes; done += max_run)
               runs.push_back({written_base + layer * written.slice_bytes + done,
                               found_base + layer * found.slice_bytes + done,
                               std::min<uint64_t>(max_run, found.slice_bytes - done)});
         continue;
      }
      const uint64_t written_row = uint64_t(written.pitch) * hw::micro_tile_dim * bytes_per_texel;
      const uint64_t found_row = uint64_t(found.pitch) * hw::micro_tile_dim * bytes_per_texel;
      for (uint32_t layer = 0; layer < layer_count; layer++)
         for (unsigned row = 0; row < found.aligned_height / hw::micro_tile_dim; row++)
            runs.push_back({written_base + layer * written.slice_bytes + row * written_row,
                            found_base + layer * found.slice_bytes + row * found_row, found_row});
   }
   for (size_t i = 0; i < runs.size(); i++) {
      /* ... and the last copy finishes before anything after it starts (CP_SYNC). */
      terakan_emit_cp_dma_copy(cs, bo, runs[i].from, bo, runs[i].to, uint32_t(runs[i].bytes), i + 1 == runs.size());
   }
   /* The texture cache may hold the copy's old contents. */
   terakan_emit_full_barrier(cs);
}
