/* What scenes draw with: GL objects made in one call each and deleted when the scene ends, and
 * the shaders most scenes share.
 *
 * Scenes place vertices on a 64x64 design grid: a unit is a pixel at the default picture size,
 * (0, 0) is the bottom-left corner of the picture, and pixel (x, y) covers [x, x+1) x [y, y+1)
 * with its centre at (x + 0.5, y + 0.5). Slanted edges are chosen to miss every pixel centre,
 * so that which pixels they cover does not depend on an implementation's tie-breaking rule. */
#pragma once

#include <GLES3/gl31.h>

#include <cstdint>
#include <initializer_list>
#include <span>
#include <vector>

namespace terakan::gl_scenes {

constexpr int grid_size = 64;

struct Rgba8 {
   uint8_t r, g, b, a;
};

/* The scenes' palette, opaque. */
constexpr Rgba8 night{16, 16, 48, 255};
constexpr Rgba8 slate{48, 56, 64, 255};
constexpr Rgba8 grey{96, 96, 104, 255};
constexpr Rgba8 paper{224, 224, 216, 255};
constexpr Rgba8 red{232, 40, 32, 255};
constexpr Rgba8 green{40, 200, 64, 255};
constexpr Rgba8 blue{32, 72, 232, 255};
constexpr Rgba8 sky{96, 160, 240, 255};
constexpr Rgba8 amber{240, 176, 32, 255};
constexpr Rgba8 violet{160, 64, 200, 255};
constexpr Rgba8 teal{24, 168, 160, 255};

/* The position and colour of one vertex: locations 0 (vec2) and 1 (normalized unsigned bytes,
 * so that a colour reaches the framebuffer as the same bytes without rounding ties). */
struct ColouredVertex {
   float x, y;
   Rgba8 colour;
};

/* Whether a colour varies across a primitive or is taken from its provoking vertex (in GLES
 * always the last vertex of each triangle, line or point). */
enum class Shading { smooth, flat };

/* The fragment shader that writes a flat `v_colour` as it is (coloured_program's with
 * Shading::flat), for programs whose vertex shaders compute their own positions or colours. */
const char *flat_colour_fragment_source();

class SceneKit {
public:
   SceneKit(int width, int height) : width_(width), height_(height) {}
   ~SceneKit();
   SceneKit(const SceneKit &) = delete;
   SceneKit &operator=(const SceneKit &) = delete;

   int width() const { return width_; }
   int height() const { return height_; }

   /* Compiles and links, throwing Failure with the info log if either step fails; the program
    * is left in use. */
   GLuint program(const char *vertex_source, const char *fragment_source);
   /* The same for a compute shader (GLES 3.1). */
   GLuint compute_program(const char *source);
   /* The program for ColouredVertex: grid positions, a colour per vertex, and a uniform
    * u_depth (the clip-space z of every vertex, 0 unless a scene sets it). A point_size above
    * zero is written to gl_PointSize. */
   GLuint coloured_program(Shading shading, float point_size = 0);

   /* A buffer object holding the bytes, left bound to the target. */
   GLuint buffer(GLenum target, const void *data, size_t size);
   /* A vertex array object, left bound. */
   GLuint vertex_array();
   /* A texture object, left bound to the target. */
   GLuint texture(GLenum target);

   /* A vertex array (left bound) whose buffer holds the vertices, with attributes 0 and 1 set
    * up for coloured_program. */
   GLuint coloured_vertices(std::span<const ColouredVertex> vertices);
   GLuint coloured_vertices(std::initializer_list<ColouredVertex> vertices)
   {
      return coloured_vertices(std::span<const ColouredVertex>(vertices.begin(), vertices.size()));
   }

   /* A vertex array (left bound) whose buffer holds the floats as vec2 positions for
    * attribute 0, tightly packed. */
   GLuint position_vertices(std::span<const float> positions);

   /* Sets a scissor rectangle given in grid units, scaled to the picture's size. */
   void scissor(int x, int y, int width, int height) const;

   static void clear_colour(Rgba8 colour);

private:
   /* Links the compiled shaders (deleting them) into a program left in use, throwing Failure
    * naming `what` if that fails. */
   GLuint link(std::initializer_list<GLuint> shaders, const char *what);

   int width_, height_;
   std::vector<GLuint> programs_, buffers_, vertex_arrays_, textures_;
};

/* The colour's channels as floats that convert back to exactly the same bytes. */
void to_floats(Rgba8 colour, float out[4]);

} // namespace terakan::gl_scenes
