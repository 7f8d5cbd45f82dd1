/* Surface layout. Two sources, which agree for the modes laid out here:
 *  - the radeon kernel's texture checker (Linux drivers/gpu/drm/radeon/evergreen_cs.c:
 *    evergreen_surface_check_linear/_linear_aligned/_1d and evergreen_cs_track_validate_texture),
 *    which fixes the pitch/height alignment, the base alignment and the size every level must fit;
 *  - libdrm's radeon_surface.c (r6_surface_init_linear/_linear_aligned, eg_surface_init_1d,
 *    surf_minify), which Mesa's r600 driver lays textures out with and which is therefore what
 *    the texture unit has been seen to read: level 0 at the base, level 1 at the next
 *    base-aligned offset (MIP_ADDRESS), further levels packed after it, each level's pitch and
 *    height re-aligned from its minified size.
 * The 1D-tiled texel order inside an 8x8 micro tile is the R800 order of Mesa's addrlib
 * (src/amd/addrlib/src/core/addrlib1.cpp, ComputePixelIndexWithinMicroTile), tiles row-major.
 */
#include "surface.h"

#include <algorithm>
#include <cassert>

namespace terakan::hw {

namespace {

constexpr unsigned micro_tile_dim = 8; /* 8x8 elements per micro tile */

uint64_t align_up(uint64_t value, uint64_t alignment)
{
   return (value + alignment - 1) / alignment * alignment;
}

unsigned minify(unsigned size, unsigned level)
{
   return std::max(1u, size >> level);
}

/* The size a level is stored at: levels after the first are rounded up to a power of two
 * (Linux r600_cs.c r600_mip_minify, libdrm radeon_surface.c mip_minify). */
unsigned next_pow2(unsigned value)
{
   unsigned pow2 = 1;
   while (pow2 < value)
      pow2 <<= 1;
   return pow2;
}

unsigned stored_size(unsigned size, unsigned level)
{
   return level == 0 ? minify(size, 0) : next_pow2(minify(size, level));
}

/* The pitch alignment libdrm gives linear-general surfaces: one tiling group per row. The
 * kernel demands none; the PITCH field itself counts groups of 8. */
unsigned linear_general_pitch_alignment(unsigned bytes_per_element)
{
   return std::max(8u, surface_group_bytes / bytes_per_element);
}

} // namespace

bool surface_alignment(ArrayMode mode, unsigned bpe, SurfaceAlignment &out, std::string &error)
{
   if (bpe == 0) {
      error = "unknown element size";
      return false;
   }
   switch (mode) {
   case ArrayMode::LinearGeneral:
      out = {1, 1, bpe};
      return true;
   case ArrayMode::LinearAligned:
      out = {std::max(64u, surface_group_bytes / bpe), 1, surface_group_bytes};
      return true;
   case ArrayMode::Tiled1DThin1:
      out = {std::max(micro_tile_dim, surface_group_bytes / (micro_tile_dim * bpe)), micro_tile_dim,
             surface_group_bytes};
      return true;
   case ArrayMode::Tiled2DThin1:
      error = "2D tiled (ARRAY_2D_TILED_THIN1) surfaces are not laid out by Terakan yet";
      return false;
   }
   error = "invalid array mode " + std::to_string(unsigned(mode));
   return false;
}

bool compute_surface_layout(Family, const SurfaceDescription &desc, SurfaceLayout &layout, std::string &error)
{
   layout = {};
   if (desc.width == 0 || desc.height == 0 || desc.depth == 0 || desc.layers == 0 || desc.levels == 0) {
      error = "empty surface";
      return false;
   }
   if (desc.is_3d && desc.layers != 1) {
      error = "3D surfaces have no layers";
      return false;
   }
   if (desc.block_dim == 0 || desc.bytes_per_element == 0) {
      error = "bad element description";
      return false;
   }
   SurfaceAlignment align;
   if (!surface_alignment(desc.mode, desc.bytes_per_element, align, error))
      return false;
   unsigned pitch_align = align.pitch;
   if (desc.mode == ArrayMode::LinearGeneral)
      pitch_align = linear_general_pitch_alignment(desc.bytes_per_element);

   /* Base (and MIP_ADDRESS) alignment: the resource words hold addresses >> 8, and libdrm
    * aligns every surface to max(256, group size). */
   layout.alignment = std::max<uint64_t>(256, align.base);

   uint64_t offset = 0;
   for (unsigned level = 0; level < desc.levels; level++) {
      SurfaceLevel l{};
      l.width = minify(desc.width, level);
      l.height = minify(desc.height, level);
      l.depth = desc.is_3d ? minify(desc.depth, level) : 1;
      l.mode = desc.mode;
      const unsigned blocks_x = (stored_size(desc.width, level) + desc.block_dim - 1) / desc.block_dim;
      const unsigned blocks_y = (stored_size(desc.height, level) + desc.block_dim - 1) / desc.block_dim;
      l.pitch = unsigned(align_up(blocks_x, pitch_align));
      l.aligned_height = unsigned(align_up(blocks_y, align.height));
      l.slice_bytes = uint64_t(l.pitch) * l.aligned_height * desc.bytes_per_element;
      l.offset = offset;
      /* Array layers are reserved in a power-of-two count: libdrm's radeon_surface_sanity
       * rounds array_size up ("array size must be a power of 2") before placing levels, and
       * Mesa's r600 uploads mipmapped arrays at those offsets, so the texture unit must find
       * level n + 1 after a power-of-two number of level-n slices. */
      l.slices = desc.is_3d ? stored_size(desc.depth, level) : next_pow2(desc.layers);
      offset += l.slice_bytes * l.slices;
      if (level == 0) {
         offset = align_up(offset, layout.alignment);
         layout.mip_offset = offset;
      }
      layout.levels.push_back(l);
   }
   if (desc.levels == 1)
      layout.mip_offset = 0; /* no mip chain: MIP_ADDRESS may point at the base */
   layout.size = offset;
   return true;
}

namespace {

/* Index of element (x, y) inside its 8x8 micro tile (x, y already reduced mod 8). The R800
 * displayable order depends on the element size; the non-displayable order interleaves x and
 * y bits. (Mesa addrlib ComputePixelIndexWithinMicroTile; the bit lists are facts.) */
unsigned micro_tile_index(unsigned x, unsigned y, unsigned bytes_per_element, bool non_displayable)
{
   const unsigned x0 = x & 1, x1 = (x >> 1) & 1, x2 = (x >> 2) & 1;
   const unsigned y0 = y & 1, y1 = (y >> 1) & 1, y2 = (y >> 2) & 1;
   /* bits[0] is the lowest bit of the index. */
   unsigned bits[6];
   auto set = [&](unsigned b0, unsigned b1, unsigned b2, unsigned b3, unsigned b4, unsigned b5) {
      bits[0] = b0, bits[1] = b1, bits[2] = b2, bits[3] = b3, bits[4] = b4, bits[5] = b5;
   };
   if (non_displayable) {
      set(x0, y0, x1, y1, x2, y2);
   } else {
      switch (bytes_per_element) {
      case 1: set(x0, x1, x2, y1, y0, y2); break;
      case 2: set(x0, x1, x2, y0, y1, y2); break;
      case 4: set(x0, x1, y0, x2, y1, y2); break;
      case 8: set(x0, y0, x1, x2, y1, y2); break;
      case 16: set(y0, x0, x1, x2, y1, y2); break;
      default:
         /* 3- and 12-byte elements have no displayable order; no path tiles them. */
         assert(false && "no micro tile order for this element size");
         set(x0, x1, x2, y0, y1, y2);
         break;
      }
   }
   unsigned index = 0;
   for (unsigned b = 0; b < 6; b++)
      index |= bits[b] << b;
   return index;
}

} // namespace

uint64_t surface_level_texel_offset(ArrayMode mode, unsigned pitch, unsigned aligned_height, unsigned bpe,
                                    bool non_displayable_order, unsigned x, unsigned y, unsigned z_or_layer)
{
   const uint64_t slice_bytes = uint64_t(pitch) * aligned_height * bpe;
   const uint64_t slice_offset = slice_bytes * z_or_layer;
   switch (mode) {
   case ArrayMode::LinearGeneral:
   case ArrayMode::LinearAligned:
      return slice_offset + (uint64_t(y) * pitch + x) * bpe;
   case ArrayMode::Tiled1DThin1: {
      const uint64_t tile_bytes = uint64_t(micro_tile_dim) * micro_tile_dim * bpe;
      const uint64_t tiles_per_row = pitch / micro_tile_dim;
      const uint64_t tile = uint64_t(y / micro_tile_dim) * tiles_per_row + x / micro_tile_dim;
      const unsigned index = micro_tile_index(x % micro_tile_dim, y % micro_tile_dim, bpe, non_displayable_order);
      return slice_offset + tile * tile_bytes + uint64_t(index) * bpe;
   }
   case ArrayMode::Tiled2DThin1:
      break;
   }
   assert(false && "array mode not addressed");
   return 0;
}

uint64_t surface_texel_offset(const SurfaceLayout &layout, const SurfaceDescription &desc, unsigned level,
                              unsigned x, unsigned y, unsigned z_or_layer)
{
   const SurfaceLevel &l = layout.levels.at(level);
   return l.offset + surface_level_texel_offset(l.mode, l.pitch, l.aligned_height, desc.bytes_per_element,
                                                desc.non_displayable_order, x, y, z_or_layer);
}

} // namespace terakan::hw
