/* What several scene groups draw with beyond SceneKit: coloured squares and draws at a depth,
 * and the way a scene that renders somewhere else (a framebuffer of another format, a desktop
 * GL context) hands its pixels back to the harness's framebuffer. */
#pragma once

#include <GLES3/gl31.h>

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "scene_kit.h"

namespace terakan::gl_scenes {

/* A picture as RGBA8 bytes, bottom row first (GL's order). */
using Bytes = std::vector<uint8_t>;

/* A square of two counter-clockwise triangles, `size` units wide, its bottom-left corner at
 * (x, y). */
std::vector<ColouredVertex> square(float x, float y, float size, Rgba8 colour);
/* The whole picture as such a square. */
std::vector<ColouredVertex> whole_picture(Rgba8 colour);

/* Draws `vertices` as triangles with the coloured program at clip-space depth `z`. */
void draw_at(SceneKit &kit, GLuint program, const std::vector<ColouredVertex> &vertices, float z);

/* Vertices with their own clip-space depth: position (grid x, grid y, z) and a normalized byte
 * colour. */
struct DepthVertex {
   float x, y, z;
   Rgba8 colour;
};
/* A flat-colour program for DepthVertex, and a vertex array (left bound) holding `vertices`. */
void depth_vertices_program(SceneKit &kit, std::span<const DepthVertex> vertices);

/* The framebuffer bound now (the harness's, at the start of a scene). */
GLuint bound_framebuffer();

/* Draws the bytes into `framebuffer` (bound again first, the harness's), texel for pixel,
 * through an RGBA8 texture and texelFetch, which texture_sample already shows to be exact. */
void show(SceneKit &kit, GLuint framebuffer, const Bytes &bytes);

/* Runs draw in a desktop GL core context of the given version on the harness's EGL display,
 * into an RGBA8 framebuffer of the picture's size (with a DEPTH24_STENCIL8 buffer if
 * `depth_stencil`), and returns its pixels; the harness's context is current again
 * afterwards, also when draw throws. With `compatibility` the context has the compatibility
 * profile instead (quads and polygons). */
Bytes draw_in_desktop_gl(const SceneKit &kit, int major, int minor, bool depth_stencil,
                         const std::function<void(SceneKit &)> &draw, bool compatibility = false);

} // namespace terakan::gl_scenes
