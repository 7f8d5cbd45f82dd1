/* A minimal PNG writer for the demos (terakan-fractal, terakan-scene). */
#pragma once

#include <cstdint>
#include <string>

namespace terakan::tools {

/* Writes `rgba` (width x height, RGBA8, rows packed) as a PNG: signature, IHDR, one
 * zlib-compressed IDAT of filter-0 rows, IEND (RFC 2083). False if the file cannot be written. */
bool write_png(const std::string &path, uint32_t width, uint32_t height, const uint32_t *rgba);

} // namespace terakan::tools
