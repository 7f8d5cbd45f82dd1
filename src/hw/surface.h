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
 *
 * 2D tiled thin1 (macro tiling) needs the board's tiling parameters (TilingConfig, from
 * RADEON_INFO_TILING_CONFIG) and four per-surface choices (MacroTiling: bank width/height,
 * macro tile aspect, tile split), which the driver writes into the resource words and the
 * texture unit reads back from them. Levels too small for one macro tile are 1D tiled.
 */
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "chips.h"
#include "texture.h"

namespace terakan::hw {

/* The board's memory tiling parameters: what the radeon kernel reports in
 * RADEON_INFO_TILING_CONFIG (decoded by tiling_config_from_kernel) plus the pipe-hash inputs
 * the kernel does not report. The defaults are Cayman's (and Cypress's and Barts's) golden
 * GB_ADDR_CONFIG with 8 memory banks; only 2D tiling uses anything but group_bytes. */
struct TilingConfig {
   unsigned pipes = 8;         /* tile pipes: 1, 2, 4, 8 */
   unsigned banks = 8;         /* memory banks: 4, 8, 16 (the board's; 2D surfaces name theirs) */
   unsigned group_bytes = 256; /* pipe interleave: 256 or 512 */
   unsigned row_bytes = 1024;  /* DRAM row: 1, 2 or 4 KiB (libdrm's default tile split) */
   /* 8-pipe pipe hash inputs (GB_ADDR_CONFIG NUM_SHADER_ENGINES, SHADER_ENGINE_TILE_SIZE). Not
    * in TILING_CONFIG: every 8-pipe TeraScale 2/3 chip (Cypress, Hemlock, Barts, Cayman) has 2
    * shader engines and a golden SE tile size of 32, so tiling_config_from_kernel sets them
    * from the pipe count. */
   unsigned shader_engines = 2;
   unsigned shader_engine_tile = 32;
   /* Whether every field decoded to a value 2D tiling can use (libdrm's allow_2d). */
   bool valid = true;
};

/* Decodes the dword RADEON_INFO_TILING_CONFIG returns on Evergreen and Cayman (Linux
 * evergreen_gpu_init / cayman_gpu_init build it): bits 3:0 log2(pipes), 7:4 banks
 * (0: 4, 1: 8, 2: 16), 11:8 pipe interleave (0: 256, 1: 512 bytes; Evergreen always 0),
 * 15:12 row size (0: 1, 1: 2, 2: 4 KiB). Out-of-range fields clear `valid`. */
TilingConfig tiling_config_from_kernel(Family family, uint32_t tiling_config_value);

/* The per-surface parameters of 2D tiling, as values (not the resource word codes). */
struct MacroTiling {
   unsigned bank_width = 1, bank_height = 1; /* micro tiles: 1, 2, 4, 8 */
   unsigned macro_tile_aspect = 1;           /* 1, 2, 4, 8 */
   unsigned tile_split_bytes = 1024;         /* 64 .. 4096 */
   unsigned banks = 8;                       /* NUM_BANKS: 2, 4, 8, 16 */
};

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
   /* The board's tiling parameters; only 2D tiling needs more than the group size. */
   TilingConfig tiling;
   /* 2D tiling only: the surface's parameters, or (choose_macro_tiling) let the layout pick
    * them the way libdrm's eg_surface_best does for a single-sample colour surface. The
    * simulator passes the values its resource words hold. */
   bool choose_macro_tiling = true;
   MacroTiling macro;
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
   /* 2D tiled surfaces: the parameters the levels in 2D mode use (put them in the resource
    * words with fill_texture_resource_tiling). The macro tile is
    * (8 * bank_width * pipes * aspect) x (8 * bank_height * banks / aspect) elements. */
   MacroTiling macro;
   unsigned macro_tile_width = 0, macro_tile_height = 0; /* elements; 0 unless 2D */
   uint64_t macro_tile_bytes = 0;
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

/* Pitch and height alignment (elements) and base alignment (bytes) of a 2D-tiled level: one
 * macro tile (Linux evergreen_surface_check_2d, libdrm eg_surface_init_2d). */
SurfaceAlignment surface_alignment_2d(const TilingConfig &, const MacroTiling &, unsigned bytes_per_element);

/* The MacroTiling libdrm's eg_surface_best picks for a single-sample colour surface. */
MacroTiling choose_macro_tiling(const TilingConfig &, unsigned bytes_per_element);

bool compute_surface_layout(Family family, const SurfaceDescription &, SurfaceLayout &, std::string &error);

/* Sets the resource's ARRAY_MODE (level 0's mode) and the 2D tiling codes (TILE_SPLIT,
 * BANK_WIDTH, BANK_HEIGHT, MACRO_TILE_ASPECT, NUM_BANKS) from a layout. Non-2D layouts get
 * zero codes (the kernel ignores them there). */
void fill_texture_resource_tiling(const SurfaceLayout &, TextureResource &);

/* The inverse: the MacroTiling values that a resource's codes stand for. */
MacroTiling macro_tiling_from_resource(const TextureResource &);
/* The same from the register codes every 2D surface uses (texture words, CB_COLORn_ATTRIB,
 * DB_Z_INFO): tile split 64 << code, banks 2 << code, bank width and height and macro-tile
 * aspect 1 << code. */
MacroTiling macro_tiling_from_codes(unsigned tile_split, unsigned banks, unsigned bank_width, unsigned bank_height,
                                    unsigned macro_tile_aspect);

/* The pipe and bank swizzle that a 2D-tiled surface's base address selects: addrlib's
 * EgBasedLib::ExtractBankPipeSwizzle reads them from the pipe and bank bits of the base
 * (address / group bytes: the low log2(pipes) bits are the pipe swizzle, the next
 * log2(banks) the bank swizzle, bank interleave 1). A base aligned to the macro tile bytes,
 * as libdrm and Terakan place surfaces, has both 0. */
struct BankPipeSwizzle {
   unsigned pipe = 0, bank = 0;
};
BankPipeSwizzle bank_pipe_swizzle_from_base(uint64_t base_address, const TilingConfig &, unsigned banks);
/* Where a 2D-tiled surface whose base is `base_address` starts: the base with its pipe and bank
 * bits cleared (they select the swizzle instead, stored in `swizzle`). */
uint64_t macro_tiled_surface_start(uint64_t base_address, const TilingConfig &, unsigned banks,
                                   BankPipeSwizzle &swizzle);

/* Tiled surfaces are made of 8x8-element micro tiles; in 1D tiling one row of them is
 * contiguous, pitch x micro_tile_dim elements long. */
inline constexpr unsigned micro_tile_dim = 8;

/* Everything the address of a texel in one level depends on. */
struct LevelAddressing {
   ArrayMode mode = ArrayMode::LinearAligned;
   unsigned pitch = 0, aligned_height = 0; /* elements */
   unsigned bytes_per_element = 4;
   bool non_displayable_order = false;
   /* 2D only: */
   TilingConfig tiling;
   MacroTiling macro;
   BankPipeSwizzle swizzle;
   /* Multisampled (tiled) surfaces: the samples (or, with FMASK, fragments) each pixel stores,
    * and their order inside a micro tile (AMD addrlib EgBasedLib::
    * ComputeSurfaceAddrFromCoordMacroTiled/MicroTiled): colour surfaces keep each sample's
    * 8x8 pixels together (sample s at s x 64 x bytes_per_element into the tile), depth and
    * stencil ("depth sample order") keep a pixel's samples next to each other. The micro tile
    * grows to 64 x bytes_per_element x samples bytes, which the tile split then cuts. */
   unsigned samples = 1;
   bool depth_sample_order = false;
};

/* Offset of a texel from the start of its level, per the addressing above. For 2D the result
 * is the offset from a base whose pipe and bank bits are cleared (the swizzle is applied
 * instead). */
uint64_t surface_level_texel_offset(const LevelAddressing &, unsigned x, unsigned y, unsigned z_or_layer);
/* The same for one sample (or fragment) of a multisampled level (samples > 1: tiled modes
 * only); sample 0 of a single-sample level is the texel's offset above. */
uint64_t surface_level_sample_offset(const LevelAddressing &, unsigned x, unsigned y, unsigned z_or_layer,
                                     unsigned sample);

/* Byte offset from the base of level 0 of texel (x, y) of layer (or z slice) `z_or_layer` of
 * `level`. Coordinates must be in range. 2D-tiled levels are addressed with swizzle 0 (a base
 * aligned to the macro tile bytes). */
uint64_t surface_texel_offset(const SurfaceLayout &, const SurfaceDescription &, unsigned level, unsigned x,
                              unsigned y, unsigned z_or_layer);

/* Same, for a single linear or 1D-tiled level described by its pitch, aligned height and mode
 * (asserts on 2D: use the LevelAddressing overload). */
uint64_t surface_level_texel_offset(ArrayMode mode, unsigned pitch, unsigned aligned_height,
                                    unsigned bytes_per_element, bool non_displayable_order, unsigned x,
                                    unsigned y, unsigned z_or_layer);

} // namespace terakan::hw
