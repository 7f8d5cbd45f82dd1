/* RGBA8 pictures to and from PNG files (libpng's simplified API, which reports errors in a
 * message instead of longjmp-ing through C++ frames). */
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace terakan::gl_scenes {

struct RgbaPicture {
   int width = 0, height = 0;
   /* Rows top to bottom as the PNG stores them, 4 bytes per pixel. */
   std::vector<uint8_t> pixels;
};

/* Both throw Failure naming the file and libpng's reason. */
void write_png(const std::string &path, const RgbaPicture &picture);
RgbaPicture read_png(const std::string &path);

} // namespace terakan::gl_scenes
