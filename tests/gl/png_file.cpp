#include "png_file.h"

#include <png.h>

#include "failure.h"

namespace terakan::gl_scenes {

void write_png(const std::string &path, const RgbaPicture &picture)
{
   png_image image{};
   image.version = PNG_IMAGE_VERSION;
   image.width = png_uint_32(picture.width);
   image.height = png_uint_32(picture.height);
   image.format = PNG_FORMAT_RGBA;
   if (!png_image_write_to_file(&image, path.c_str(), 0, picture.pixels.data(), 0, nullptr))
      throw Failure("writing " + path + ": " + image.message);
}

RgbaPicture read_png(const std::string &path)
{
   png_image image{};
   image.version = PNG_IMAGE_VERSION;
   if (!png_image_begin_read_from_file(&image, path.c_str()))
      throw Failure("reading " + path + ": " + image.message);
   /* Whatever the file holds (grey, palette, 16 bits), libpng converts it to RGBA8. */
   image.format = PNG_FORMAT_RGBA;
   RgbaPicture picture;
   picture.width = int(image.width);
   picture.height = int(image.height);
   picture.pixels.resize(PNG_IMAGE_SIZE(image));
   if (!png_image_finish_read(&image, nullptr, picture.pixels.data(), 0, nullptr)) {
      const std::string reason = image.message;
      png_image_free(&image);
      throw Failure("reading " + path + ": " + reason);
   }
   return picture;
}

} // namespace terakan::gl_scenes
