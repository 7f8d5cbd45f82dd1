/* A minimal PNG writer for the demos (terakan-fractal, terakan-scene). */
#include "png_writer.h"

#include <zlib.h>

#include <cstdio>
#include <vector>

namespace terakan::tools {

bool write_png(const std::string &path, uint32_t width, uint32_t height, const uint32_t *rgba)
{
   std::vector<uint8_t> raw;
   raw.reserve(size_t(height) * (width * 4 + 1));
   for (uint32_t y = 0; y < height; y++) {
      raw.push_back(0);
      const auto *row = reinterpret_cast<const uint8_t *>(rgba + size_t(y) * width);
      raw.insert(raw.end(), row, row + width * 4);
   }
   uLongf packed_size = compressBound(uLong(raw.size()));
   std::vector<uint8_t> packed(packed_size);
   if (compress2(packed.data(), &packed_size, raw.data(), uLong(raw.size()), 9) != Z_OK)
      return false;
   packed.resize(packed_size);

   FILE *file = std::fopen(path.c_str(), "wb");
   if (!file)
      return false;
   auto be32 = [](uint32_t v) {
      return std::vector<uint8_t>{uint8_t(v >> 24), uint8_t(v >> 16), uint8_t(v >> 8), uint8_t(v)};
   };
   auto chunk = [&](const char *type, const std::vector<uint8_t> &data) {
      std::vector<uint8_t> bytes = be32(uint32_t(data.size()));
      bytes.insert(bytes.end(), type, type + 4);
      bytes.insert(bytes.end(), data.begin(), data.end());
      const uint32_t crc = uint32_t(crc32(crc32(0, nullptr, 0), bytes.data() + 4, uInt(bytes.size() - 4)));
      const auto tail = be32(crc);
      bytes.insert(bytes.end(), tail.begin(), tail.end());
      std::fwrite(bytes.data(), 1, bytes.size(), file);
   };
   static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
   std::fwrite(signature, 1, 8, file);
   std::vector<uint8_t> header = be32(width);
   const auto h = be32(height);
   header.insert(header.end(), h.begin(), h.end());
   header.insert(header.end(), {8, 6, 0, 0, 0}); /* 8 bits, RGBA, deflate, no filter, no interlace */
   chunk("IHDR", header);
   chunk("IDAT", packed);
   chunk("IEND", {});
   return std::fclose(file) == 0;
}

} // namespace terakan::tools
