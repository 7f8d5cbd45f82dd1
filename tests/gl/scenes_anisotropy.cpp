/* Anisotropic filtering scenes (GL_EXT_texture_filter_anisotropic): a plane seen at a grazing
 * angle, its footprint 4 to 16 times longer along y than along x, textured with a 128x128
 * texture whose eight levels are each one colour, GL_LINEAR_MIPMAP_NEAREST: every pixel shows
 * the level it chose. The plane's texture coordinates are computed in the fragment shader from
 * gl_FragCoord by the projective mapping of a plane whose clip-space w runs from 1 (near,
 * bottom) to 4 (far, top), drawn as one full-picture quad with w = 1: the implicit level of
 * detail then comes from the quad's differences of those coordinates as on a perspective draw,
 * without depending on how the PA treats a vertex w other than 1: r600g writes
 * PA_CL_VTE_CNTL.VTX_W0_FMT = 1 (the shader exports w, as radeonsi and RADV also write it),
 * which the simulator reads as "w holds 1/w", so r600g's draws with w other than 1 come out
 * wrong on it (found with this scene on 3 December, reported, not yet settled).
 *
 * texture_anisotropic_1x sets GL_TEXTURE_MAX_ANISOTROPY_EXT to 1: r600g then programs the
 * isotropic filters and MAX_ANISO_RATIO 0 in the sampler (eg_tex_filter, r600_tex_aniso_filter)
 * while its texture resource says 16x (evergreen_fill_tex_resource_words), and the picture must
 * equal llvmpipe's: both choose the nearest level exactly at the half-level thresholds.
 * texture_anisotropic_16x asks for 16x: r600g programs ANISO_BILINEAR and ratio 4, and the
 * simulator filters with the Vulkan specification's model (docs/sim-semantics.md "Textures");
 * llvmpipe 22.3 filters with its own elliptical filter, so the two pictures differ in where
 * levels change and the scene is not compared (it is not in tests/gl/meson.build's list; run
 * it by hand to see what r600g asks for). */
#include "scenes.h"

#include <GLES3/gl31.h>

#include <array>
#include <vector>

#include "scene_kit.h"

namespace terakan::gl_scenes {

namespace {

constexpr GLenum texture_max_anisotropy = 0x84FE; /* GL_TEXTURE_MAX_ANISOTROPY_EXT */

const char *const plane_vertex_source = R"(#version 300 es
layout(location = 0) in vec2 a_position;
void main()
{
   gl_Position = vec4(a_position / 32.0 - 1.0, 0.0, 1.0);
}
)";

/* Plane point (u, v) is at clip (2u - 1, 5v - 1, 0, 1 + 3v) with texture coordinates
 * (u, 16 v); inverted here for the pixel's normalized device coordinates. Outside the plane
 * (u or v outside [0, 1]) the picture keeps the background. */
const char *const plane_fragment_source = R"(#version 300 es
precision highp float;
uniform highp sampler2D u_texture;
uniform vec2 u_size;
out vec4 colour;
void main()
{
   vec2 ndc = gl_FragCoord.xy / u_size * 2.0 - 1.0;
   float v = (1.0 + ndc.y) / (5.0 - 3.0 * ndc.y);
   float u = (ndc.x * (1.0 + 3.0 * v) + 1.0) * 0.5;
   vec4 texel = texture(u_texture, vec2(u, 16.0 * v));
   bool inside = u >= 0.0 && u <= 1.0 && v >= 0.0 && v <= 1.0;
   colour = inside ? texel : vec4(16.0, 16.0, 48.0, 255.0) / 255.0;
}
)";

void draw_plane(SceneKit &kit, float max_anisotropy)
{
   SceneKit::clear_colour(night);
   glClear(GL_COLOR_BUFFER_BIT);
   kit.texture(GL_TEXTURE_2D);
   const Rgba8 colours[8] = {red, amber, paper, green, teal, sky, blue, violet};
   for (int level = 0; level < 8; level++) {
      const int n = 128 >> level;
      std::vector<Rgba8> texels(size_t(n) * n, colours[level]);
      glTexImage2D(GL_TEXTURE_2D, level, GL_RGBA8, n, n, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels.data());
   }
   glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_NEAREST);
   glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
   glTexParameterf(GL_TEXTURE_2D, texture_max_anisotropy, max_anisotropy);
   const GLuint program = kit.program(plane_vertex_source, plane_fragment_source);
   glUniform2f(glGetUniformLocation(program, "u_size"), float(kit.width()), float(kit.height()));
   const float quad[] = {0, 0, 64, 0, 64, 64, 0, 0, 64, 64, 0, 64};
   kit.position_vertices(quad);
   glDrawArrays(GL_TRIANGLES, 0, 6);
}

void draw_anisotropic_1x(SceneKit &kit)
{
   draw_plane(kit, 1.0f);
}

void draw_anisotropic_16x(SceneKit &kit)
{
   draw_plane(kit, 16.0f);
}

const Scene scenes[] = {
   {"texture_anisotropic_1x", "GL_EXT_texture_filter_anisotropic at 1x: an oblique plane whose levels are one colour "
                              "each, LINEAR_MIPMAP_NEAREST",
    draw_anisotropic_1x},
   {"texture_anisotropic_16x", "the same plane at 16x (not compared: llvmpipe's anisotropic filter is another one)",
    draw_anisotropic_16x},
};

} // namespace

std::span<const Scene> anisotropy_scenes()
{
   return scenes;
}

} // namespace terakan::gl_scenes
