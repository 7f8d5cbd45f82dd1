/* terakan-gl-scenes: draws small GL scenes into framebuffer objects and writes each as a PNG,
 * on a hardware driver through GBM (Debian's r600 on the simulated card, on our CI) or on
 * llvmpipe; and compares two folders of such pictures pixel for pixel. llvmpipe's pictures
 * are the reference for what the r600 driver draws through the simulator.
 *
 *   terakan-gl-scenes --list
 *   terakan-gl-scenes --device gbm|llvmpipe [--node PATH] [--size W H] --out DIR [SCENE...]
 *   terakan-gl-scenes --compare DIR_A DIR_B [SCENE...]
 *
 * Exit status: 0 if everything asked for worked (and, comparing, every picture matched), 1 if
 * anything failed or differed, 2 for a usage error. */
#include <GLES3/gl31.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "egl_session.h"
#include "failure.h"
#include "png_file.h"
#include "scene_kit.h"
#include "scenes.h"

namespace terakan::gl_scenes {

namespace {

enum class Mode { none, list, render, compare };

struct Options {
   Mode mode = Mode::none;
   DeviceKind device = DeviceKind::gbm;
   std::string node = "/dev/dri/renderD128";
   std::string out_dir;
   std::string compare_a, compare_b;
   int width = grid_size, height = grid_size;
   std::vector<const Scene *> scenes;
};

const char *usage_text =
   "usage: terakan-gl-scenes --list\n"
   "       terakan-gl-scenes --device gbm|llvmpipe [--node PATH] [--size W H] --out DIR [SCENE...]\n"
   "       terakan-gl-scenes --compare DIR_A DIR_B [SCENE...]\n"
   "Without SCENE names, every scene. --node is the render node for gbm (default /dev/dri/renderD128).\n";

const char *gl_error_name(GLenum error)
{
   switch (error) {
   case GL_NO_ERROR: return "GL_NO_ERROR";
   case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
   case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
   case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
   case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
   case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
   default: return "an unknown GL error";
   }
}

const char *framebuffer_status_name(GLenum status)
{
   switch (status) {
   case GL_FRAMEBUFFER_COMPLETE: return "GL_FRAMEBUFFER_COMPLETE";
   case GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT: return "GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT";
   case GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT: return "GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT";
   case GL_FRAMEBUFFER_INCOMPLETE_DIMENSIONS: return "GL_FRAMEBUFFER_INCOMPLETE_DIMENSIONS";
   case GL_FRAMEBUFFER_UNSUPPORTED: return "GL_FRAMEBUFFER_UNSUPPORTED";
   case GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE: return "GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE";
   case 0: return "0 (glCheckFramebufferStatus itself failed)";
   default: return "an unknown framebuffer status";
   }
}

/* Every error GL has recorded since the last call, in order ("GL_NO_ERROR" if none). GL may
 * hold one error per kind, so a single glGetError can miss some. */
std::string take_gl_errors()
{
   std::string errors;
   for (int count = 0; count < 16; count++) { /* bounded: a lost context may repeat forever */
      const GLenum error = glGetError();
      if (error == GL_NO_ERROR)
         break;
      errors += errors.empty() ? "" : ", ";
      errors += gl_error_name(error);
   }
   return errors.empty() ? "GL_NO_ERROR" : errors;
}

bool has_stencil(GLenum depth_format)
{
   return depth_format == GL_DEPTH24_STENCIL8 || depth_format == GL_DEPTH32F_STENCIL8 ||
          depth_format == GL_STENCIL_INDEX8;
}

/* A framebuffer object with an RGBA8 colour renderbuffer and, if asked, a depth/stencil one of
 * the given format; bound while it lives. */
class RenderTarget {
public:
   RenderTarget(int width, int height, GLenum depth_format)
   {
      glGenFramebuffers(1, &framebuffer_);
      glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
      glGenRenderbuffers(2, renderbuffers_);
      glBindRenderbuffer(GL_RENDERBUFFER, renderbuffers_[0]);
      glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
      glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, renderbuffers_[0]);
      if (depth_format) {
         glBindRenderbuffer(GL_RENDERBUFFER, renderbuffers_[1]);
         glRenderbufferStorage(GL_RENDERBUFFER, depth_format, width, height);
         const GLenum attachment = depth_format == GL_STENCIL_INDEX8 ? GL_STENCIL_ATTACHMENT
                                   : has_stencil(depth_format)       ? GL_DEPTH_STENCIL_ATTACHMENT
                                                                     : GL_DEPTH_ATTACHMENT;
         glFramebufferRenderbuffer(GL_FRAMEBUFFER, attachment, GL_RENDERBUFFER, renderbuffers_[1]);
      }
      glBindRenderbuffer(GL_RENDERBUFFER, 0);
      const std::string errors = take_gl_errors();
      if (errors != "GL_NO_ERROR")
         throw Failure("making the framebuffer: " + errors);
      const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
      if (status != GL_FRAMEBUFFER_COMPLETE)
         throw Failure(std::string("the framebuffer is incomplete: ") + framebuffer_status_name(status));
   }
   ~RenderTarget()
   {
      glBindFramebuffer(GL_FRAMEBUFFER, 0);
      glDeleteFramebuffers(1, &framebuffer_);
      glDeleteRenderbuffers(2, renderbuffers_);
   }
   RenderTarget(const RenderTarget &) = delete;
   RenderTarget &operator=(const RenderTarget &) = delete;

private:
   GLuint framebuffer_ = 0;
   GLuint renderbuffers_[2] = {};
};

/* The state every scene starts from, whatever the scene before it left behind (one that
 * failed half-way may not have restored what it changed). */
void reset_state(int width, int height)
{
   glDisable(GL_BLEND);
   glDisable(GL_DEPTH_TEST);
   glDisable(GL_SCISSOR_TEST);
   glDisable(GL_CULL_FACE);
   glDisable(GL_STENCIL_TEST);
   glDepthMask(GL_TRUE);
   glDepthFunc(GL_LESS);
   glStencilMask(0xff);
   glStencilFunc(GL_ALWAYS, 0, 0xff);
   glStencilOp(GL_KEEP, GL_KEEP, GL_KEEP);
   glFrontFace(GL_CCW);
   glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
   glViewport(0, 0, width, height);
   glPixelStorei(GL_PACK_ALIGNMENT, 4);
   glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
   glActiveTexture(GL_TEXTURE0);
}

/* The bound framebuffer's colour as a picture, top row first as PNG stores it (GL's rows
 * start at the bottom). */
RgbaPicture read_picture(int width, int height)
{
   std::vector<uint8_t> bottom_up(size_t(width) * size_t(height) * 4);
   glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, bottom_up.data());
   RgbaPicture picture{width, height, std::vector<uint8_t>(bottom_up.size())};
   const size_t row_bytes = size_t(width) * 4;
   for (int y = 0; y < height; y++)
      std::memcpy(&picture.pixels[size_t(height - 1 - y) * row_bytes], &bottom_up[size_t(y) * row_bytes], row_bytes);
   return picture;
}

bool render_scene(const Scene &scene, const Options &options)
{
   const std::string path = (std::filesystem::path(options.out_dir) / (std::string(scene.name) + ".png")).string();
   /* A picture from an earlier run must not pass for this one if this one fails. */
   std::error_code ignored;
   std::filesystem::remove(path, ignored);
   std::printf("%-16s ", scene.name);
   std::fflush(stdout);
   try {
      RenderTarget target(options.width, options.height, scene.depth_format);
      reset_state(options.width, options.height);
      {
         SceneKit kit(options.width, options.height);
         scene.draw(kit);
      }
      const std::string draw_errors = take_gl_errors();
      const RgbaPicture picture = read_picture(options.width, options.height);
      const std::string read_errors = take_gl_errors();
      /* The picture is written even after a GL error: it helps to see what was drawn. */
      write_png(path, picture);
      std::printf("glGetError %s%s  %s\n", draw_errors.c_str(),
                  read_errors == "GL_NO_ERROR" ? "" : (" (glReadPixels: " + read_errors + ")").c_str(),
                  path.c_str());
      if (draw_errors != "GL_NO_ERROR" || read_errors != "GL_NO_ERROR") {
         std::printf("  FAILED: %s raised a GL error\n", scene.name);
         return false;
      }
      return true;
   } catch (const Failure &failure) {
      std::printf("glGetError %s\n  FAILED: %s\n", take_gl_errors().c_str(), failure.what());
      return false;
   }
}

bool contains(const char *text, const char *part)
{
   return text && std::strstr(text, part);
}

int render(const Options &options)
{
   EglSession session;
   try {
      session.open(options.device, options.node);
   } catch (const Failure &failure) {
      std::fprintf(stderr, "terakan-gl-scenes: %s\n", failure.what());
      return 1;
   }
   const char *renderer = reinterpret_cast<const char *>(glGetString(GL_RENDERER));
   const char *version = reinterpret_cast<const char *>(glGetString(GL_VERSION));
   if (!renderer || !version) {
      std::fprintf(stderr, "terakan-gl-scenes: glGetString(GL_RENDERER) failed: %s\n", take_gl_errors().c_str());
      return 1;
   }
   std::printf("GL_RENDERER: %s\nGL_VERSION: %s (context asked for: GLES %d.%d)\n", renderer, version,
               session.gles_major(), session.gles_minor());
   std::fflush(stdout);

   /* Each mode is meant for one kind of driver: a picture from the wrong one would make the
    * comparison pass or fail for nothing. */
   const bool software = contains(renderer, "llvmpipe") || contains(renderer, "softpipe") ||
                         contains(renderer, "swrast");
   if (options.device == DeviceKind::llvmpipe && !contains(renderer, "llvmpipe")) {
      std::fprintf(stderr, "terakan-gl-scenes: --device llvmpipe got renderer \"%s\", not llvmpipe\n", renderer);
      return 1;
   }
   if (options.device == DeviceKind::gbm && software) {
      std::fprintf(stderr,
                   "terakan-gl-scenes: --device gbm got the software renderer \"%s\": no hardware driver "
                   "took %s (is LIBGL_ALWAYS_SOFTWARE set, or the simulator not preloaded?)\n",
                   renderer, options.node.c_str());
      return 1;
   }
   const std::string setup_errors = take_gl_errors();
   if (setup_errors != "GL_NO_ERROR") {
      std::fprintf(stderr, "terakan-gl-scenes: GL errors before the first scene: %s\n", setup_errors.c_str());
      return 1;
   }

   std::error_code error;
   std::filesystem::create_directories(options.out_dir, error);
   if (error) {
      std::fprintf(stderr, "terakan-gl-scenes: cannot make %s: %s\n", options.out_dir.c_str(), error.message().c_str());
      return 1;
   }

   int failed = 0;
   for (const Scene *scene : options.scenes)
      failed += render_scene(*scene, options) ? 0 : 1;
   std::printf("%zu scenes, %d failed\n", options.scenes.size(), failed);
   return failed ? 1 : 0;
}

/* Counts the pixels of one scene's two pictures that differ in any channel. */
bool compare_scene(const Scene &scene, const Options &options)
{
   const auto path_in = [&](const std::string &dir) {
      return (std::filesystem::path(dir) / (std::string(scene.name) + ".png")).string();
   };
   RgbaPicture a, b;
   try {
      a = read_png(path_in(options.compare_a));
      b = read_png(path_in(options.compare_b));
   } catch (const Failure &failure) {
      std::printf("%-16s cannot compare: %s\n", scene.name, failure.what());
      return false;
   }
   if (a.width != b.width || a.height != b.height) {
      std::printf("%-16s sizes differ: %dx%d and %dx%d\n", scene.name, a.width, a.height, b.width, b.height);
      return false;
   }
   int differing = 0, masked = 0;
   std::string first_difference;
   for (int row = 0; row < a.height; row++) {
      for (int x = 0; x < a.width; x++) {
         const size_t at = (size_t(row) * size_t(a.width) + size_t(x)) * 4;
         if (std::memcmp(&a.pixels[at], &b.pixels[at], 4) == 0)
            continue;
         /* Masks and reports use GL's coordinates: y counts from the bottom row. */
         const int y = a.height - 1 - row;
         if (scene.masked && scene.masked(x, y, a.width, a.height)) {
            masked++;
            continue;
         }
         if (differing++ == 0) {
            char text[160];
            std::snprintf(text, sizeof(text), " (first at x=%d y=%d: %u,%u,%u,%u against %u,%u,%u,%u)", x, y,
                          a.pixels[at], a.pixels[at + 1], a.pixels[at + 2], a.pixels[at + 3], b.pixels[at],
                          b.pixels[at + 1], b.pixels[at + 2], b.pixels[at + 3]);
            first_difference = text;
         }
      }
   }
   std::printf("%-16s %d of %d pixels differ%s", scene.name, differing, a.width * a.height, first_difference.c_str());
   if (scene.masked)
      std::printf("; %d more masked (%s)", masked, scene.mask_reason ? scene.mask_reason : "no reason given");
   std::printf("\n");
   return differing == 0;
}

int compare(const Options &options)
{
   std::printf("comparing %s against %s\n", options.compare_a.c_str(), options.compare_b.c_str());
   int differing = 0;
   for (const Scene *scene : options.scenes)
      differing += compare_scene(*scene, options) ? 0 : 1;
   std::printf("%zu scenes, %d differ (or could not be compared)\n", options.scenes.size(), differing);
   return differing ? 1 : 0;
}

/* Returns false (after saying why) for a usage error. */
bool parse_options(int argc, char **argv, Options &options)
{
   const auto set_mode = [&](Mode mode) {
      if (options.mode != Mode::none && options.mode != mode) {
         std::fprintf(stderr, "terakan-gl-scenes: --list, --device and --compare exclude each other\n");
         return false;
      }
      options.mode = mode;
      return true;
   };
   for (int i = 1; i < argc; i++) {
      const std::string argument = argv[i];
      const auto needs = [&](int count) {
         if (i + count < argc)
            return true;
         std::fprintf(stderr, "terakan-gl-scenes: %s needs %d value(s)\n", argument.c_str(), count);
         return false;
      };
      if (argument == "--help" || argument == "-h") {
         std::fputs(usage_text, stdout);
         std::exit(0);
      } else if (argument == "--list") {
         if (!set_mode(Mode::list))
            return false;
      } else if (argument == "--device") {
         if (!needs(1) || !set_mode(Mode::render))
            return false;
         const std::string device = argv[++i];
         if (device == "gbm") {
            options.device = DeviceKind::gbm;
         } else if (device == "llvmpipe") {
            options.device = DeviceKind::llvmpipe;
         } else {
            std::fprintf(stderr, "terakan-gl-scenes: unknown device \"%s\" (gbm or llvmpipe)\n", device.c_str());
            return false;
         }
      } else if (argument == "--node") {
         if (!needs(1))
            return false;
         options.node = argv[++i];
      } else if (argument == "--out") {
         if (!needs(1))
            return false;
         options.out_dir = argv[++i];
      } else if (argument == "--size") {
         if (!needs(2))
            return false;
         options.width = std::atoi(argv[++i]);
         options.height = std::atoi(argv[++i]);
         if (options.width < 1 || options.height < 1 || options.width > 4096 || options.height > 4096) {
            std::fprintf(stderr, "terakan-gl-scenes: --size wants two numbers from 1 to 4096\n");
            return false;
         }
      } else if (argument == "--compare") {
         if (!needs(2) || !set_mode(Mode::compare))
            return false;
         options.compare_a = argv[++i];
         options.compare_b = argv[++i];
      } else if (argument.starts_with("-")) {
         std::fprintf(stderr, "terakan-gl-scenes: unknown option %s\n", argument.c_str());
         return false;
      } else {
         const Scene *scene = find_scene(argument);
         if (!scene) {
            std::fprintf(stderr, "terakan-gl-scenes: no scene named \"%s\" (--list names them)\n", argument.c_str());
            return false;
         }
         options.scenes.push_back(scene);
      }
   }
   if (options.mode == Mode::none) {
      std::fprintf(stderr, "terakan-gl-scenes: say --list, --device or --compare\n");
      return false;
   }
   if (options.mode == Mode::render && options.out_dir.empty()) {
      std::fprintf(stderr, "terakan-gl-scenes: --device needs --out DIR\n");
      return false;
   }
   if (options.scenes.empty())
      for (const Scene &scene : all_scenes())
         options.scenes.push_back(&scene);
   return true;
}

} // namespace

} // namespace terakan::gl_scenes

int main(int argc, char **argv)
{
   using namespace terakan::gl_scenes;
   Options options;
   if (!parse_options(argc, argv, options)) {
      std::fputs(usage_text, stderr);
      return 2;
   }
   /* Anything not caught closer (a std::bad_alloc, say) still ends in a message and a status,
    * not an abort. */
   try {
      switch (options.mode) {
      case Mode::list:
         for (const Scene &scene : all_scenes())
            std::printf("%-16s %s\n", scene.name, scene.description);
         return 0;
      case Mode::render:
         return render(options);
      case Mode::compare:
         return compare(options);
      case Mode::none:
         break;
      }
   } catch (const std::exception &exception) {
      std::fprintf(stderr, "terakan-gl-scenes: %s\n", exception.what());
      return 1;
   }
   return 2;
}
