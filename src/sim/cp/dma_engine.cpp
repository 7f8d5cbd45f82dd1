#include "dma_engine.h"

#include <cstdio>
#include <cstring>

#include "hw/dma_packets.h"
#include "core/message.h"

namespace terakan::sim {

namespace {

namespace dma = hw::dma;


uint64_t linear_address(uint32_t low, uint32_t high) { return low | uint64_t(high & 0xff) << 32; }

/* The tiled side of a tiled copy, decoded from dw1..dw6 and checked. */
struct TiledSide {
   uint64_t start = 0;       /* the level's first byte (2D: pipe and bank bits cleared) */
   uint64_t slice_bytes = 0;
   unsigned height = 0;      /* rows of the level (HEIGHT - 1 + 1) */
   unsigned x = 0, y = 0, z = 0;
   hw::LevelAddressing addressing;
};

std::string decode_tiled(std::span<const uint32_t> p, const hw::TilingConfig &tiling, TiledSide &t)
{
   namespace f = dma::tiled;
   hw::LevelAddressing &a = t.addressing;
   const uint32_t mode = f::array_mode(p[2]);
   if (mode == 2)
      a.mode = hw::ArrayMode::Tiled1DThin1;
   else if (mode == 4)
      a.mode = hw::ArrayMode::Tiled2DThin1;
   else
      return "ARRAY_MODE " + std::to_string(mode) + " is not a tiled mode the simulator knows (2: 1D, 4: 2D thin1)";
   if (f::log2_bytes_per_element(p[2]) > 4)
      return "element size code " + std::to_string(f::log2_bytes_per_element(p[2])) + " is beyond 16 bytes";
   a.bytes_per_element = 1u << f::log2_bytes_per_element(p[2]);
   a.pitch = (f::pitch_tile_max(p[3]) + 1) * 8;
   t.height = f::height_minus_one(p[3]) + 1;
   const uint64_t slice_elements = (uint64_t(p[4]) + 1) * 64;
   if (slice_elements % a.pitch)
      return "SLICE_TILE_MAX " + std::to_string(p[4]) + " is not a whole number of rows of pitch " +
             std::to_string(a.pitch);
   a.aligned_height = unsigned(slice_elements / a.pitch);
   if (a.aligned_height % 8 || a.aligned_height < t.height)
      return "the slice (" + std::to_string(a.aligned_height) + " rows) is not a multiple of 8 rows holding HEIGHT " +
             std::to_string(t.height);
   a.non_displayable_order = f::non_displayable(p[6]);
   t.x = f::x(p[5]);
   t.y = f::y(p[6]);
   t.z = f::z(p[5]);
   t.start = uint64_t(p[1]) << 8;
   t.slice_bytes = slice_elements * a.bytes_per_element;
   if (a.mode == hw::ArrayMode::Tiled2DThin1) {
      if (!tiling.valid)
         return "2D tiling with a tiling configuration 2D tiling cannot use";
      if (f::bank_width_code(p[2]) > 3 || f::bank_height_code(p[2]) > 3)
         return "undefined BANK_WIDTH or BANK_HEIGHT code";
      if (f::tile_split_code(p[6]) > 6)
         return "undefined TILE_SPLIT code " + std::to_string(f::tile_split_code(p[6]));
      a.tiling = tiling;
      a.macro = hw::macro_tiling_from_codes(f::tile_split_code(p[6]), f::num_banks_code(p[6]), f::bank_width_code(p[2]),
                                            f::bank_height_code(p[2]), f::macro_tile_aspect_code(p[2]));
      const hw::SurfaceAlignment align = hw::surface_alignment_2d(tiling, a.macro, a.bytes_per_element);
      if (a.pitch % align.pitch || a.aligned_height % align.height)
         return "the 2D-tiled level (pitch " + std::to_string(a.pitch) + ", " + std::to_string(a.aligned_height) +
                " rows) is not whole macro tiles of " + std::to_string(align.pitch) + "x" + std::to_string(align.height);
      /* As the texture unit reads a 2D level: the base's pipe and bank bits select a swizzle
       * and the level starts with them cleared. */
      t.start = hw::macro_tiled_surface_start(t.start, tiling, a.macro.banks, a.swizzle);
   }
   return {};
}

} // namespace

std::string DmaEngine::copy_linear(uint64_t dst, uint64_t src, uint64_t bytes, bool dword_units)
{
   if (dword_units && ((dst | src) & 3))
      return "dword copy with an address that is not dword aligned (src " + hex_string(src) + ", dst " + hex_string(dst) + ")";
   /* In which order the engine moves the bytes is not documented to us, so overlapping ranges
    * have no defined result. */
   if (src < dst + bytes && dst < src + bytes && bytes)
      return "copy between overlapping ranges (src " + hex_string(src) + ", dst " + hex_string(dst) + ", " +
             std::to_string(bytes) + " bytes): the engine's order is not documented";
   std::string error;
   const uint8_t *from = memory.resolve(src, bytes, error);
   if (!from)
      return "copy reads " + error;
   uint8_t *to = memory.resolve(dst, bytes, error);
   if (!to)
      return "copy writes " + error;
   std::memcpy(to, from, bytes);
   totals.bytes += bytes;
   return {};
}

/* L2T / T2L: `dwords` dwords of whole rows, from row Y of slice Z of the tiled level, the
 * linear side packed with the tiled pitch (r600g's evergreen_dma_copy_tile: linear address =
 * row * pitch * bpe, the same pitch on both sides, X always 0, rows that stay inside the
 * level). */
std::string DmaEngine::copy_tiled(std::span<const uint32_t> p, uint32_t dwords)
{
   TiledSide t;
   std::string error = decode_tiled(p, tiling, t);
   if (!error.empty())
      return "tiled copy: " + error;
   const hw::LevelAddressing &a = t.addressing;
   const uint64_t bytes = uint64_t(dwords) * 4, row_bytes = uint64_t(a.pitch) * a.bytes_per_element;
   if (t.x != 0 || bytes % row_bytes)
      return "tiled copy of " + std::to_string(dwords) + " dwords from x " + std::to_string(t.x) +
             " is not whole rows of " + std::to_string(row_bytes) + " bytes (partial rows are not simulated)";
   const uint64_t rows = bytes / row_bytes;
   if (t.y + rows > t.height)
      return "tiled copy of rows " + std::to_string(t.y) + ".." + std::to_string(t.y + rows - 1) +
             " runs past the level's " + std::to_string(t.height) + " rows (not simulated)";
   const bool detile = dma::tiled::detile(p[2]);
   const uint64_t linear = linear_address(p[7], p[8]);
   if (linear & 3)
      return "tiled copy with a linear address " + hex_string(linear) + " that is not dword aligned";
   uint8_t *tiled_bytes = memory.resolve(t.start, t.slice_bytes * (uint64_t(t.z) + 1), error);
   if (!tiled_bytes)
      return std::string("tiled copy ") + (detile ? "reads" : "writes") + " the tiled level at " + hex_string(t.start) +
             " (slices 0.." + std::to_string(t.z) + "): " + error;
   uint8_t *linear_bytes = memory.resolve(linear, bytes, error);
   if (!linear_bytes)
      return std::string("tiled copy ") + (detile ? "writes" : "reads") + " the linear side: " + error;
   const unsigned bpe = a.bytes_per_element;
   for (uint64_t row = 0; row < rows; row++) {
      for (unsigned x = 0; x < a.pitch; x++) {
         uint8_t *tiled_texel = tiled_bytes + hw::surface_level_texel_offset(a, x, unsigned(t.y + row), t.z);
         uint8_t *linear_texel = linear_bytes + (row * a.pitch + x) * bpe;
         if (detile)
            std::memcpy(linear_texel, tiled_texel, bpe);
         else
            std::memcpy(tiled_texel, linear_texel, bpe);
      }
   }
   totals.bytes += bytes;
   return {};
}

std::string DmaEngine::execute(std::span<const uint32_t> ib)
{
   totals.submissions++;
   size_t at = 0;
   while (at < ib.size()) {
      const uint32_t header = ib[at];
      const uint32_t command = dma::command_of(header), sub = dma::sub_command_of(header);
      const uint32_t count = dma::count_of(header);
      /* The checker has made sure every packet lies inside the IB. */
      const std::span<const uint32_t> p = ib.subspan(at);
      std::string error;
      size_t size = 1;
      const char *name = "NOP";
      switch (command) {
      case dma::NOP:
         break;
      case dma::WRITE:
         name = "WRITE";
         size = size_t(count) + (sub == dma::write_tiled ? 7 : 3);
         if (sub == dma::write_tiled) {
            error = "tiled WRITE is not simulated";
         } else if (p[1] & 3) {
            error = "WRITE to " + hex_string(linear_address(p[1], p[2])) + ", which is not dword aligned";
         } else if (!memory.write(linear_address(p[1], p[2]), &p[3], uint64_t(count) * 4, error)) {
            error = "WRITE: " + error;
         } else {
            totals.bytes += uint64_t(count) * 4;
         }
         break;
      case dma::CONSTANT_FILL: {
         name = "CONSTANT_FILL";
         size = 4;
         const uint64_t address = p[1] | uint64_t((p[3] >> 16) & 0xff) << 32;
         if (address & 3) {
            error = "CONSTANT_FILL of " + hex_string(address) + ", which is not dword aligned";
            break;
         }
         uint8_t *to = memory.resolve(address, uint64_t(count) * 4, error);
         if (!to) {
            error = "CONSTANT_FILL writes " + error;
            break;
         }
         for (uint32_t i = 0; i < count; i++)
            std::memcpy(to + uint64_t(i) * 4, &p[2], 4);
         totals.bytes += uint64_t(count) * 4;
         break;
      }
      case dma::COPY:
         name = "COPY";
         switch (sub) {
         case dma::COPY_LINEAR_DWORDS:
         case dma::COPY_LINEAR_BYTES: {
            size = 5;
            const bool dwords = sub == dma::COPY_LINEAR_DWORDS;
            name = dwords ? "COPY linear dwords" : "COPY linear bytes";
            error = copy_linear(linear_address(p[1], p[3]), linear_address(p[2], p[4]),
                                dwords ? uint64_t(count) * 4 : count, dwords);
            break;
         }
         case dma::COPY_LINEAR_BROADCAST: {
            size = 7;
            name = "COPY linear broadcast";
            const uint64_t src = linear_address(p[3], p[6]);
            error = copy_linear(linear_address(p[1], p[4]), src, uint64_t(count) * 4, true);
            if (error.empty())
               error = copy_linear(linear_address(p[2], p[5]), src, uint64_t(count) * 4, true);
            break;
         }
         case dma::COPY_TILED:
            size = 9;
            name = dma::tiled::detile(p[2]) ? "COPY tiled to linear" : "COPY linear to tiled";
            error = copy_tiled(p, count);
            break;
         default:
            /* Partial, frame-to-field, tiled broadcast and tile-unit copies: the checker passes
             * them, r600g never sends them, and their walks are not documented to us. */
            error = "COPY sub-command " + hex_string(sub) + " is not simulated";
            break;
         }
         break;
      default:
         /* The checker refuses every other packet. */
         error = "packet " + hex_string(header) + " is not simulated";
         break;
      }
      totals.packets++;
      if (trace && (command != dma::NOP || !error.empty()))
         std::fprintf(stderr, "terakan-sim: DMA ring: %s, count %u%s%s\n", name, count, error.empty() ? "" : ": ",
                      error.c_str());
      if (!error.empty())
         return "DMA packet at " + std::to_string(at) + " (" + hex_string(header) + "): " + error;
      at += size;
   }
   return {};
}

} // namespace terakan::sim
