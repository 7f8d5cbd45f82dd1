/* textureQueryLod scene (desktop GL 4.5: GLSL 4.00's textureQueryLod): r600g's GET_LOD on the
 * simulated card against llvmpipe. The picture is blocks of 8 x 8 pixels, 8 x 8 of them
 * (repeated on larger pictures); block k = bx + 8 by has texture coordinates that change by a
 * constant amount per pixel, so the quad's differences give λ exactly, and λ is a whole number
 * (llvmpipe's log2 for the query is a piecewise-linear approximation, exact only at powers of
 * two; the fractions come from the samplers' biases, which both apply exactly):
 *  - k < 32: a 64 x 64 2D texture of 7 levels, λ = k % 9 - 3, the footprint isotropic
 *    (k % 3 == 0), four times shorter along y (1), or turned by 45 degrees (2);
 *  - k >= 32: a cube of 32 x 32 faces and 6 levels, on face +X only (direction (1, 1 - 2v,
 *    1 - 2u)), λ = (k - 32) % 6 - 3, isotropic or four times shorter along y.
 * Each texture is queried through three samplers: LINEAR_MIPMAP_LINEAR with LOD_BIAS 0.25,
 * MIN_LOD 0.5 and MAX_LOD 4.5; NEAREST_MIPMAP_NEAREST with LOD_BIAS 0.625; LINEAR without
 * mipmapping. The pixel shows (red) the first sampler's accessed level / 8, (green) its computed
 * λ + 4 over 16, (blue) the second sampler's accessed level / 8 plus half the third's (which
 * must be 0), (alpha) the second's computed λ + 4 over 16; no value is within a quarter of an
 * 8-bit step of a rounding tie. r600g reads the accessed level from GET_LOD's y and the computed
 * one from x (r600_shader.c, sfn emit_tex_lod); the simulator's rule is texture_unit.cpp
 * run_get_lod. */
#include "scenes.h"

#include <GLES3/gl31.h>

#include <vector>

#include "scene_kit.h"
#include "scene_tools.h"

namespace terakan::gl_scenes {

namespace {

const char *const vertex_source = R"(#version 450 core
layout(location = 0) in vec2 a_position;
void main()
{
   gl_Position = vec4(a_position / 32.0 - 1.0, 0.0, 1.0);
}
)";

const char *const fragment_source = R"(#version 450 core
layout(binding = 0) uniform sampler2D u_linear;
layout(binding = 1) uniform sampler2D u_nearest;
layout(binding = 2) uniform sampler2D u_flat;
layout(binding = 3) uniform samplerCube u_cube_linear;
layout(binding = 4) uniform samplerCube u_cube_nearest;
layout(binding = 5) uniform samplerCube u_cube_flat;
layout(location = 0) out vec4 colour;
void main()
{
   vec2 block = mod(floor(gl_FragCoord.xy / 8.0), 8.0);
   float k = block.x + 8.0 * block.y;
   vec2 p = gl_FragCoord.xy - (floor(gl_FragCoord.xy / 8.0) * 8.0 + 4.0);
   vec2 linear_lod, nearest_lod, flat_lod;
   if (k < 32.0) {
      float s = exp2(mod(k, 9.0) - 3.0) / 64.0;
      float shape = mod(k, 3.0);
      vec2 uv = shape == 0.0 ? p * s : shape == 1.0 ? p * vec2(s, 0.25 * s)
                                                    : vec2(p.x + p.y, p.y - p.x) * (s * 0.70710678);
      uv += 0.5;
      linear_lod = textureQueryLod(u_linear, uv);
      nearest_lod = textureQueryLod(u_nearest, uv);
      flat_lod = textureQueryLod(u_flat, uv);
   } else {
      float s = exp2(mod(k - 32.0, 6.0) - 3.0) / 32.0;
      vec2 uv = 0.5 + (mod(k, 2.0) == 0.0 ? p * s : p * vec2(s, 0.25 * s));
      vec3 direction = vec3(1.0, 1.0 - 2.0 * uv.y, 1.0 - 2.0 * uv.x);
      linear_lod = textureQueryLod(u_cube_linear, direction);
      nearest_lod = textureQueryLod(u_cube_nearest, direction);
      flat_lod = textureQueryLod(u_cube_flat, direction);
   }
   colour = vec4(linear_lod.x / 8.0, (linear_lod.y + 4.0) / 16.0, nearest_lod.x / 8.0 + 0.5 * flat_lod.x,
                 (nearest_lod.y + 4.0) / 16.0);
}
)";

/* The three samplers of the scene's comment on units first, first + 1 and first + 2. */
void bind_samplers(GLuint first, GLuint samplers[3])
{
   glGenSamplers(3, samplers);
   glSamplerParameteri(samplers[0], GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
   glSamplerParameterf(samplers[0], 0x8501 /* GL_TEXTURE_LOD_BIAS */, 0.25f);
   glSamplerParameterf(samplers[0], GL_TEXTURE_MIN_LOD, 0.5f);
   glSamplerParameterf(samplers[0], GL_TEXTURE_MAX_LOD, 4.5f);
   glSamplerParameteri(samplers[1], GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
   glSamplerParameterf(samplers[1], 0x8501 /* GL_TEXTURE_LOD_BIAS */, 0.625f);
   glSamplerParameteri(samplers[2], GL_TEXTURE_MIN_FILTER, GL_LINEAR);
   for (GLuint i = 0; i < 3; i++)
      glBindSampler(first + i, samplers[i]);
}

void draw_texture_query_lod(SceneKit &kit)
{
   const GLuint harness = bound_framebuffer();
   const Bytes pixels = draw_in_desktop_gl(kit, 4, 5, false, [&](SceneKit &desktop) {
      SceneKit::clear_colour(night);
      glClear(GL_COLOR_BUFFER_BIT);
      const GLuint plane = desktop.texture(GL_TEXTURE_2D);
      glTexStorage2D(GL_TEXTURE_2D, 7, GL_RGBA8, 64, 64);
      const GLuint cube = desktop.texture(GL_TEXTURE_CUBE_MAP);
      glTexStorage2D(GL_TEXTURE_CUBE_MAP, 6, GL_RGBA8, 32, 32);
      for (GLuint unit = 0; unit < 6; unit++) {
         glActiveTexture(GL_TEXTURE0 + unit);
         glBindTexture(unit < 3 ? GL_TEXTURE_2D : GL_TEXTURE_CUBE_MAP, unit < 3 ? plane : cube);
      }
      GLuint samplers[6];
      bind_samplers(0, samplers);
      bind_samplers(3, samplers + 3);
      glUseProgram(desktop.program(vertex_source, fragment_source));
      const float quad[] = {0, 0, 64, 0, 64, 64, 0, 0, 64, 64, 0, 64};
      desktop.position_vertices(quad);
      glDrawArrays(GL_TRIANGLES, 0, 6);
      glDeleteSamplers(6, samplers);
   });
   show(kit, harness, pixels);
}

const Scene scenes[] = {
   {"texture_query_lod",
    "textureQueryLod of a 2D texture and a cube through three samplers at 64 scales and footprint shapes "
    "(desktop GL 4.5)",
    draw_texture_query_lod},
};

} // namespace

std::span<const Scene> lod_query_scenes()
{
   return scenes;
}

} // namespace terakan::gl_scenes
