/* Texture surface layout of Evergreen and Cayman: pitch and height alignment, mip level
 * placement, layer/slice stride, and the texel order inside 1D tiles. The driver lays images
 * out with it, the simulator's CS checker validates against the same rules the radeon kernel
 * applies (evergreen_cs.c, evergreen_surface_check and evergreen_cs_track_validate_texture),
 * and the shader core addresses texels through surface_texel_offset.
 *
 * Level placement follows what the kernel checks: level 0 at the base address, levels 1.. one
 * after another from MIP_ADDRESS, each level's size being its (aligned) slice size times the
 * layer count (or the level's depth for 3D). Levels 1.. are stored at their minified size
 * rounded up to a power of two (width, height and 3D depth), before alignment: the kernel's
 * r600_mip_minify and libdrm's mip_minify both do so. Array levels reserve a power-of-two
 * number of layers (libdrm rounds array_size up), which the mip chain offsets include; the
 * kernel only checks LAST_ARRAY + 1 layers. See docs/hardware-notes.md.
 */
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "chips.h"
#include "texture.h"

namespace terakan::hw {

struct SurfaceDescription {
   unsigned width = 1, height = 1, depth = 1, layers = 1, levels = 1, bytes_per_element = 4;
   bool is_3d = false;
   ArrayMode mode = ArrayMode::LinearAligned;
   /* Width/height of a compressed block (4 for BC formats): sizes above are in texels and the
    * layout counts blocks of this size, each bytes_per_element big. */
   unsigned block_dim = 1;
   /* 1D-tiled texel order inside an 8x8 micro tile: false = displayable (what colour
    * textures use), true = non-displayable (SQ_TEX_RESOURCE_WORD0.NON_DISP_TILING_ORDER). */
   bool non_displayable_order = false;
};

struct SurfaceLevel {
   uint64_t offset;         /* bytes from the base of level 0 */
   unsigned pitch;          /* texels */
   unsigned aligned_height; /* rows */
   uint64_t slice_bytes;    /* one layer / one z slice */
   unsigned width, height, depth; /* the level's size in texels (depth: 3D only, else 1) */
   unsigned slices;         /* slices the level reserves: the layer count rounded up to a power
                             * of two, or for 3D the level's stored depth */
   ArrayMode mode;          /* the mode this level is laid out in */
};

struct SurfaceLayout {
   std::vector<SurfaceLevel> levels;
   uint64_t size;      /* bytes, all levels */
   uint64_t alignment; /* bytes, base address alignment (and MIP_ADDRESS alignment) */
   uint64_t mip_offset; /* offset of level 1 = what MIP_ADDRESS points at, relative to base */
};

/* The tiling group ("pipe interleave") size in bytes. 256 on every TeraScale 2/3 board the
 * radeon kernel sets up (Evergreen reports 0 in TILING_CONFIG[11:8]; Cayman's GB_ADDR_CONFIG
 * golden values have PIPE_INTERLEAVE_SIZE 0). */
constexpr unsigned surface_group_bytes = 256;

/* Pitch (texels) and height (rows) alignment and base alignment (bytes) of a level in `mode`,
 * as evergreen_surface_check demands them (linear general, linear aligned, 1D tiled thin1). */
struct SurfaceAlignment {
   unsigned pitch, height;
   uint64_t base;
};
bool surface_alignment(ArrayMode mode, unsigned bytes_per_element, SurfaceAlignment &, std::string &error);

bool compute_surface_layout(Family family, const SurfaceDescription &, SurfaceLayout &, std::string &error);

/* Byte offset from the base of level 0 of texel (x, y) of layer (or z slice) `z_or_layer` of
 * `level`. Coordinates must be in range. */
uint64_t surface_texel_offset(const SurfaceLayout &, const SurfaceDescription &, unsigned level, unsigned x,
                              unsigned y, unsigned z_or_layer);

/* Same, for a single level described by its pitch, aligned height and mode (the simulator
 * addresses a texture from its resource words this way). */
uint64_t surface_level_texel_offset(ArrayMode mode, unsigned pitch, unsigned aligned_height,
                                    unsigned bytes_per_element, bool non_displayable_order, unsigned x,
                                    unsigned y, unsigned z_or_layer);

} // namespace terakan::hw
