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
 *
 * 2D tiling (ARRAY_2D_TILED_THIN1): macro tile size, alignments, level placement and the fall
 * back to 1D for small levels follow libdrm's eg_surface_init_2d / eg_surf_minify and the
 * kernel's evergreen_surface_check_2d (which agree); the parameter choice follows libdrm's
 * eg_surface_best. The per-texel address is AMD addrlib's
 * EgBasedLib::ComputeSurfaceAddrFromCoordMacroTiled and ComputeBankFromCoord (Mesa
 * src/amd/addrlib/src/r800/egbaddrlib.cpp) with the R800 pipe hash of
 * R800Lib::ComputePipeFromCoord (GPUOpen-Drivers/pal, src/core/imported/addrlib/src/r800/
 * r800addrlib.cpp). No independent implementation of that address was available to test
 * against; see docs/hardware-notes.md.
 */
#include "surface.h"

#include <algorithm>
#include <cassert>

namespace terakan::hw {

namespace {


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

unsigned log2_exact(unsigned value)
{
   unsigned log = 0;
   while ((1u << log) < value)
      log++;
   return log;
}

bool is_pow2_in(unsigned value, unsigned low, unsigned high)
{
   return value >= low && value <= high && (value & (value - 1)) == 0;
}

/* libdrm's log2_int: floor(log2(x)), 0 for x < 2. */
unsigned floor_log2(unsigned value)
{
   unsigned log = 0;
   while (value >= 2u << log)
      log++;
   return log;
}

/* Bytes of one micro tile's share that stays together: 64 elements, cut at the tile split. */
unsigned tile_bytes(const MacroTiling &macro, unsigned bpe)
{
   return std::min(64 * bpe, macro.tile_split_bytes);
}

} // namespace

TilingConfig tiling_config_from_kernel(Family family, uint32_t value)
{
   TilingConfig config;
   config.valid = true;
   const unsigned pipes_code = value & 0xf, banks_code = (value >> 4) & 0xf;
   const unsigned group_code = (value >> 8) & 0xf, row_code = (value >> 12) & 0xf;
   if (pipes_code <= 3)
      config.pipes = 1u << pipes_code;
   else
      config.valid = false;
   if (banks_code <= 2)
      config.banks = 4u << banks_code;
   else
      config.valid = false;
   if (group_code <= 1)
      config.group_bytes = 256u << group_code;
   else
      config.valid = false;
   if (row_code <= 2)
      config.row_bytes = 1024u << row_code;
   else
      config.valid = false;
   /* The pipe hash of 8 pipes depends on the shader engine count and SE tile size, which
    * TILING_CONFIG does not carry. Only Cypress, Hemlock, Barts and Cayman have 8 tile pipes,
    * all with 2 shader engines and SHADER_ENGINE_TILE_SIZE 1 (32) in their golden
    * GB_ADDR_CONFIG (Linux evergreend.h / nid.h); the others have 1 SE and never use them. */
   (void)family;
   config.shader_engines = config.pipes == 8 ? 2 : 1;
   config.shader_engine_tile = 32;
   return config;
}

SurfaceAlignment surface_alignment_2d(const TilingConfig &tiling, const MacroTiling &macro, unsigned bpe)
{
   const unsigned width = 8 * macro.bank_width * tiling.pipes * macro.macro_tile_aspect;
   const unsigned height = 8 * macro.bank_height * macro.banks / macro.macro_tile_aspect;
   /* One macro tile: (width / 8) * (height / 8) micro tiles of tile_bytes each (the tile
    * split only moves bytes of a micro tile to another slice of the same size). */
   const uint64_t bytes = uint64_t(width / 8) * (height / 8) * tile_bytes(macro, bpe);
   return {width, height, bytes};
}

MacroTiling choose_macro_tiling(const TilingConfig &tiling, unsigned bpe)
{
   /* libdrm eg_surface_best, single-sample colour: tile split = DRAM row, bank width 1, bank
    * height from the tile size and raised until one bank holds a pipe interleave, and the
    * macro tile aspect brings the macro tile close to square. */
   MacroTiling macro;
   macro.tile_split_bytes = tiling.row_bytes;
   macro.banks = tiling.banks;
   macro.bank_width = 1;
   const unsigned tileb = tile_bytes(macro, bpe);
   macro.bank_height = tileb == 64 ? 4 : (tileb == 128 || tileb == 256) ? 2 : 1;
   while (macro.bank_height <= 8 && tileb * macro.bank_height * macro.bank_width < tiling.group_bytes)
      macro.bank_height *= 2;
   /* libdrm keeps 16 bits of fraction and then truncates: floor(h / w). */
   const unsigned h_over_w = (macro.bank_height * macro.banks) / (macro.bank_width * tiling.pipes);
   macro.macro_tile_aspect = 1u << (floor_log2(h_over_w) >> 1);
   return macro;
}

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
      error = "2D tiled alignment depends on the tiling parameters: use surface_alignment_2d";
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
   const bool macro_tiled = desc.mode == ArrayMode::Tiled2DThin1;
   /* The mode small levels fall back to: a 2D surface continues in 1D tiling. */
   const ArrayMode small_mode = macro_tiled ? ArrayMode::Tiled1DThin1 : desc.mode;
   SurfaceAlignment align;
   if (!surface_alignment(small_mode, desc.bytes_per_element, align, error))
      return false;
   unsigned pitch_align = align.pitch;
   if (desc.mode == ArrayMode::LinearGeneral)
      pitch_align = linear_general_pitch_alignment(desc.bytes_per_element);

   /* Base (and MIP_ADDRESS) alignment: the resource words hold addresses >> 8, and libdrm
    * aligns every surface to max(256, group size). */
   layout.alignment = std::max<uint64_t>(256, align.base);

   SurfaceAlignment macro_align{};
   if (macro_tiled) {
      const TilingConfig &t = desc.tiling;
      if (!t.valid || !is_pow2_in(t.pipes, 1, 8) || !is_pow2_in(t.banks, 4, 16) ||
          !is_pow2_in(t.group_bytes, 256, 512)) {
         error = "the board's tiling configuration does not allow 2D tiling";
         return false;
      }
      layout.macro = desc.choose_macro_tiling ? choose_macro_tiling(t, desc.bytes_per_element) : desc.macro;
      const MacroTiling &m = layout.macro;
      /* The ranges the resource words can encode (and libdrm's eg_surface_sanity). */
      if (!is_pow2_in(m.bank_width, 1, 8) || !is_pow2_in(m.bank_height, 1, 8) ||
          !is_pow2_in(m.macro_tile_aspect, 1, 8) || !is_pow2_in(m.tile_split_bytes, 64, 4096) ||
          !is_pow2_in(m.banks, 2, 16) || m.macro_tile_aspect > m.banks) {
         error = "2D tiling parameters out of range";
         return false;
      }
      macro_align = surface_alignment_2d(t, m, desc.bytes_per_element);
      layout.macro_tile_width = macro_align.pitch;
      layout.macro_tile_height = macro_align.height;
      layout.macro_tile_bytes = macro_align.base;
      /* libdrm eg_surface_init_2d: bo_alignment = max(256, macro tile bytes), kept even when
       * every level falls back to 1D. */
      layout.alignment = std::max(layout.alignment, std::max<uint64_t>(256, macro_align.base));
   }

   bool in_2d = macro_tiled;
   uint64_t offset = 0;
   for (unsigned level = 0; level < desc.levels; level++) {
      SurfaceLevel l{};
      l.width = minify(desc.width, level);
      l.height = minify(desc.height, level);
      l.depth = desc.is_3d ? minify(desc.depth, level) : 1;
      const unsigned blocks_x = (stored_size(desc.width, level) + desc.block_dim - 1) / desc.block_dim;
      const unsigned blocks_y = (stored_size(desc.height, level) + desc.block_dim - 1) / desc.block_dim;
      /* A level narrower or shorter than one macro tile (in blocks of its stored,
       * power-of-two size) is 1D tiled, and so is every smaller level (libdrm eg_surf_minify,
       * the kernel's texture check). Level 0 included: then the whole surface is 1D. */
      if (in_2d && (blocks_x < macro_align.pitch || blocks_y < macro_align.height))
         in_2d = false;
      l.mode = in_2d ? ArrayMode::Tiled2DThin1 : small_mode;
      l.pitch = unsigned(align_up(blocks_x, in_2d ? macro_align.pitch : pitch_align));
      l.aligned_height = unsigned(align_up(blocks_y, in_2d ? macro_align.height : align.height));
      /* For 2D this equals libdrm's macro tiles per slice * macro tile bytes * slices per tile. */
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

void fill_texture_resource_tiling(const SurfaceLayout &layout, TextureResource &r)
{
   r.array_mode = layout.levels.empty() ? ArrayMode::LinearAligned : layout.levels[0].mode;
   r.tile_split = r.bank_width = r.bank_height = r.macro_tile_aspect = r.num_banks = 0;
   if (r.array_mode != ArrayMode::Tiled2DThin1)
      return;
   const MacroTiling &m = layout.macro;
   /* Codes: TILE_SPLIT log2(bytes / 64), BANK_WIDTH/HEIGHT and MACRO_TILE_ASPECT log2,
    * NUM_BANKS log2(banks) - 1 (Linux evergreen_surface_value_conv_check). */
   r.tile_split = log2_exact(m.tile_split_bytes / 64);
   r.bank_width = log2_exact(m.bank_width);
   r.bank_height = log2_exact(m.bank_height);
   r.macro_tile_aspect = log2_exact(m.macro_tile_aspect);
   r.num_banks = log2_exact(m.banks) - 1;
}

MacroTiling macro_tiling_from_codes(unsigned tile_split, unsigned banks, unsigned bank_width, unsigned bank_height,
                                    unsigned macro_tile_aspect)
{
   MacroTiling m;
   m.tile_split_bytes = 64u << tile_split;
   m.bank_width = 1u << bank_width;
   m.bank_height = 1u << bank_height;
   m.macro_tile_aspect = 1u << macro_tile_aspect;
   m.banks = 2u << banks;
   return m;
}

MacroTiling macro_tiling_from_resource(const TextureResource &r)
{
   return macro_tiling_from_codes(r.tile_split, r.num_banks, r.bank_width, r.bank_height, r.macro_tile_aspect);
}

BankPipeSwizzle bank_pipe_swizzle_from_base(uint64_t base_address, const TilingConfig &tiling, unsigned banks)
{
   const uint64_t groups = base_address / tiling.group_bytes;
   return {unsigned(groups & (tiling.pipes - 1)), unsigned((groups / tiling.pipes) & (banks - 1))};
}

uint64_t macro_tiled_surface_start(uint64_t base_address, const TilingConfig &tiling, unsigned banks,
                                   BankPipeSwizzle &swizzle)
{
   swizzle = bank_pipe_swizzle_from_base(base_address, tiling, banks);
   return base_address & ~(uint64_t(tiling.pipes * banks - 1) * tiling.group_bytes);
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
   assert(false && "2D tiled levels are addressed through LevelAddressing");
   return 0;
}

namespace {

/* The pipe of micro tile (tx, ty) = (x / 8, y / 8): the R800 pipe hash (PAL
 * R800Lib::ComputePipeFromCoord), from the low three bits of each coordinate. 2D thin1 has no
 * slice rotation of the pipe. */
unsigned pipe_of(unsigned tx, unsigned ty, const TilingConfig &t)
{
   const unsigned x3 = tx & 1, x4 = (tx >> 1) & 1, x5 = (tx >> 2) & 1;
   const unsigned y3 = ty & 1, y4 = (ty >> 1) & 1, y5 = (ty >> 2) & 1;
   switch (t.pipes) {
   case 1:
      return 0;
   case 2:
      return x3 ^ y3;
   case 4:
      return (x4 ^ y3) | (x3 ^ y4) << 1;
   case 8:
      if (t.shader_engines == 1)
         return (x4 ^ y4 ^ x5) | (x3 ^ y5) << 1 | (x4 ^ y3 ^ y5) << 2;
      if (t.shader_engine_tile == 16)
         return (x4 ^ y3 ^ x5) | (x3 ^ y5) << 1 | (x4 ^ y4) << 2;
      return (x4 ^ y3 ^ x5) | (x3 ^ y4) << 1 | (x5 ^ y5) << 2;
   }
   assert(false && "unsupported pipe count");
   return 0;
}

/* The bank (before swizzle and rotation) of the bank-sized block (bx, by): bx counts
 * bank_width * pipes micro tiles across, by counts bank_height micro tiles down (addrlib
 * EgBasedLib::ComputeBankFromCoord). */
unsigned bank_of(unsigned bx, unsigned by, unsigned banks)
{
   auto bit = [](unsigned v, unsigned n) { return (v >> n) & 1; };
   switch (banks) {
   case 2:
      return bit(bx, 0) ^ bit(by, 0);
   case 4:
      return (bit(bx, 0) ^ bit(by, 1)) | (bit(bx, 1) ^ bit(by, 0)) << 1;
   case 8:
      return (bit(bx, 0) ^ bit(by, 2)) | (bit(bx, 1) ^ bit(by, 1) ^ bit(by, 2)) << 1 |
             (bit(bx, 2) ^ bit(by, 0)) << 2;
   case 16:
      return (bit(bx, 0) ^ bit(by, 3)) | (bit(bx, 1) ^ bit(by, 2) ^ bit(by, 3)) << 1 |
             (bit(bx, 2) ^ bit(by, 1)) << 2 | (bit(bx, 3) ^ bit(by, 0)) << 3;
   }
   assert(false && "unsupported bank count");
   return 0;
}

/* Where sample `sample` of pixel (x, y) lies inside its micro tile, which holds
 * 64 x bpe x samples bytes (addrlib's sample and pixel offsets, see LevelAddressing). */
uint64_t offset_in_micro_tile(const LevelAddressing &a, unsigned x, unsigned y, unsigned sample)
{
   const unsigned bpe = a.bytes_per_element;
   const uint64_t index = micro_tile_index(x % 8, y % 8, bpe, a.non_displayable_order);
   if (a.depth_sample_order)
      return (index * a.samples + sample) * bpe;
   return uint64_t(sample) * 64 * bpe + index * bpe;
}

uint64_t macro_tiled_offset(const LevelAddressing &a, unsigned x, unsigned y, unsigned slice, unsigned sample)
{
   const TilingConfig &t = a.tiling;
   const MacroTiling &m = a.macro;
   const unsigned bpe = a.bytes_per_element;
   /* Position inside the micro tile, then the tile split: bytes of a micro tile past the split
    * go to the next "split slice" (never with 1 sample and a split >= 64 * bpe). */
   uint64_t element_offset = offset_in_micro_tile(a, x, y, sample);
   unsigned micro_tile_bytes = 64 * bpe * a.samples, slices_per_tile = 1, split_slice = 0;
   if (micro_tile_bytes > m.tile_split_bytes) {
      slices_per_tile = micro_tile_bytes / m.tile_split_bytes;
      split_slice = unsigned(element_offset / m.tile_split_bytes);
      element_offset %= m.tile_split_bytes;
      micro_tile_bytes = m.tile_split_bytes;
   }
   const unsigned mt_width = 8 * m.bank_width * t.pipes * m.macro_tile_aspect;
   const unsigned mt_height = 8 * m.bank_height * m.banks / m.macro_tile_aspect;
   /* Bytes of one macro tile that land in one pipe and one bank. */
   const uint64_t mt_bytes_per_channel =
      uint64_t(micro_tile_bytes) * (mt_width / 8) * (mt_height / 8) / (t.pipes * m.banks);
   const uint64_t mt_per_row = a.pitch / mt_width;
   const uint64_t mt_offset = (uint64_t(y / mt_height) * mt_per_row + x / mt_width) * mt_bytes_per_channel;
   const uint64_t slice_bytes = mt_per_row * (a.aligned_height / mt_height) * mt_bytes_per_channel;
   const uint64_t slice_offset = slice_bytes * (split_slice + uint64_t(slices_per_tile) * slice);
   /* Micro tiles of one bank: bank_height rows of bank_width tiles (counting tiles per pipe). */
   const unsigned tile_row = (y / 8) % m.bank_height;
   const unsigned tile_column = ((x / 8) / t.pipes) % m.bank_width;
   const uint64_t tile_offset = uint64_t(tile_row * m.bank_width + tile_column) * micro_tile_bytes;
   const uint64_t total = slice_offset + mt_offset + element_offset + tile_offset;

   const unsigned pipe = pipe_of(x / 8, y / 8, t) ^ (a.swizzle.pipe & (t.pipes - 1));
   unsigned bank = bank_of(x / 8 / (m.bank_width * t.pipes), y / 8 / m.bank_height, m.banks);
   /* Each slice rotates the banks by banks / 2 - 1, each split slice by banks / 2 + 1. */
   bank ^= a.swizzle.bank + (m.banks / 2 - 1) * slice;
   bank ^= (m.banks / 2 + 1) * split_slice;
   bank &= m.banks - 1;

   /* Interleave: the low group_bytes of the linear offset, then the pipe bits, then (bank
    * interleave 1) the bank bits, then the rest of the offset. */
   const unsigned group_bits = log2_exact(t.group_bytes), pipe_bits = log2_exact(t.pipes);
   const unsigned bank_bits = log2_exact(m.banks);
   return (total & (t.group_bytes - 1)) | uint64_t(pipe) << group_bits |
          uint64_t(bank) << (group_bits + pipe_bits) | (total >> group_bits) << (group_bits + pipe_bits + bank_bits);
}

} // namespace

uint64_t surface_level_texel_offset(const LevelAddressing &a, unsigned x, unsigned y, unsigned z_or_layer)
{
   return surface_level_sample_offset(a, x, y, z_or_layer, 0);
}

uint64_t surface_level_sample_offset(const LevelAddressing &a, unsigned x, unsigned y, unsigned z_or_layer,
                                     unsigned sample)
{
   assert(sample < a.samples);
   if (a.mode == ArrayMode::Tiled2DThin1)
      return macro_tiled_offset(a, x, y, z_or_layer, sample);
   if (a.samples == 1)
      return surface_level_texel_offset(a.mode, a.pitch, a.aligned_height, a.bytes_per_element,
                                        a.non_displayable_order, x, y, z_or_layer);
   /* 1D tiled: micro tiles of 64 x bpe x samples bytes in rows (addrlib
    * ComputeSurfaceAddrFromCoordMicroTiled); linear surfaces cannot be multisampled. */
   assert(a.mode == ArrayMode::Tiled1DThin1);
   const uint64_t tile_bytes = uint64_t(64) * a.bytes_per_element * a.samples;
   const uint64_t tiles_per_row = a.pitch / 8;
   const uint64_t slice_bytes = tile_bytes * tiles_per_row * (a.aligned_height / 8);
   const uint64_t tile = uint64_t(y / 8) * tiles_per_row + x / 8;
   return slice_bytes * z_or_layer + tile * tile_bytes + offset_in_micro_tile(a, x, y, sample);
}

uint64_t surface_texel_offset(const SurfaceLayout &layout, const SurfaceDescription &desc, unsigned level,
                              unsigned x, unsigned y, unsigned z_or_layer)
{
   const SurfaceLevel &l = layout.levels.at(level);
   LevelAddressing a;
   a.mode = l.mode;
   a.pitch = l.pitch;
   a.aligned_height = l.aligned_height;
   a.bytes_per_element = desc.bytes_per_element;
   a.non_displayable_order = desc.non_displayable_order;
   a.tiling = desc.tiling;
   a.macro = layout.macro;
   return l.offset + surface_level_texel_offset(a, x, y, z_or_layer);
}

} // namespace terakan::hw
