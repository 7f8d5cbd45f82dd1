/* Helper-invocation scenes (desktop GL 4.5 core: gl_HelperInvocation is GLSL 4.50's).
 *
 * r600g's NIR backend (sfn emit_load_helper_invocation) presets a register to -1 and lets a
 * fetch clause with VALID_PIXEL_MODE write 0 into it: the clause runs on valid pixels only,
 * so helper pixels keep the -1. The scene makes r600g program exactly that and shows the
 * flag through fine derivatives, since helpers write no pixels: each channel is
 * 0.2 x (2 + d), d the difference of the flag across the pixel's quad row (red) or column
 * (green), 51, 102 or 153 out of 255, whole numbers so that no rounding can differ. */
#include "scenes.h"

#include <EGL/egl.h>
#include <GLES3/gl31.h>

#include "scene_kit.h"
#include "scene_tools.h"

namespace terakan::gl_scenes {

namespace {

const char *const vertex_source = R"(#version 450 core
layout(location = 0) in vec2 a_position;
layout(location = 1) in vec4 a_colour;
void main()
{
   gl_Position = vec4(a_position / 32.0 - 1.0, 0.0, 1.0);
}
)";

const char *const fragment_source = R"(#version 450 core
layout(location = 0) out vec4 colour;
void main()
{
   float h = gl_HelperInvocation ? 1.0 : 0.0;
   colour = vec4(0.2 * (2.0 + dFdxFine(h)), 0.2 * (2.0 + dFdyFine(h)), 0.8 - 0.6 * h, 1.0);
}
)";

/* Slanted triangles whose edges cut many quads, off the 1/8 grid (n + k/64, k odd). */
void draw_helper_invocation(SceneKit &kit)
{
   const GLuint harness = bound_framebuffer();
   const Bytes pixels = draw_in_desktop_gl(kit, 4, 5, false, [&](SceneKit &desktop) {
      SceneKit::clear_colour(night);
      glClear(GL_COLOR_BUFFER_BIT);
      glUseProgram(desktop.program(vertex_source, fragment_source));
      auto at = [](int n, int k64) { return float(n) + float(k64) / 64.0f; };
      const std::initializer_list<ColouredVertex> vertices = {
         {at(2, 5), at(3, 9), paper},   {at(60, 3), at(12, 27), paper}, {at(14, 45), at(58, 1), paper},
         {at(40, 7), at(30, 11), paper}, {at(62, 9), at(61, 5), paper},  {at(33, 3), at(62, 17), paper}};
      desktop.coloured_vertices(vertices);
      glDrawArrays(GL_TRIANGLES, 0, GLsizei(vertices.size()));
   });
   show(kit, harness, pixels);
}

const Scene scenes[] = {
   {"helper_invocation",
    "gl_HelperInvocation shown through fine derivatives on triangles whose edges cut quads (desktop GL 4.5)",
    draw_helper_invocation},
};

} // namespace

std::span<const Scene> helper_scenes()
{
   return scenes;
}

} // namespace terakan::gl_scenes
