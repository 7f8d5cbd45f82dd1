/* textureGather scenes (GLES 3.1): r600g's GATHER4 on the simulated card against
 * llvmpipe. The picture is 8 x 8 blocks; block (bx, by) gathers at one texture coordinate,
 * (0.27 bx - 0.587, 0.27 by - 0.569), spread over the textures' inside, edges and outside and
 * never within 3% of a texel of a footprint boundary, so both drivers pick the same texels
 * whatever their arithmetic. Each block's quarters show one gather as a colour (texel i0j1 in
 * red, i1j1 green, i1j0 blue, i0j0 alpha):
 *  - top left: component 0 of an 8 x 8 RGBA8 texture, GL_NEAREST and GL_REPEAT (a gather takes
 *    the bilinear footprint whatever the filter);
 *  - top right: component 3 of the same texture with textureGatherOffset (1, -2) (r600g puts
 *    constant offsets in the instruction's OFFSET fields);
 *  - bottom left: component 1 of an RGBA8UI texture, GL_CLAMP_TO_EDGE (r600g moves integer
 *    gathers back by half a texel for the texture unit's nearest-filter footprint);
 *  - bottom right: component 2 of the RGBA8UI texture with textureGatherOffset (-3, 2).
 * No depth-comparison gather (GATHER4_C): r600g decompresses a depth texture it samples with a
 * DB copy to a colour buffer (DB_RENDER_CONTROL), which the simulator does not model yet; the
 * Vulkan test (tests/api/test_texture_functions.cpp) checks GATHER4_C against lavapipe.
 * r600g also reorders the four results on the Evergreen class (Cypress, Barts), not on Cayman
 * (the simulator's run_gather). */
#include "scenes.h"

#include <GLES3/gl31.h>

#include <array>
#include <vector>

#include "scene_kit.h"

namespace terakan::gl_scenes {

namespace {

constexpr int size = 8;

const char *const vertex_source = R"(#version 310 es
layout(location = 0) in vec2 a_position;
void main()
{
   gl_Position = vec4(a_position / 32.0 - 1.0, 0.0, 1.0);
}
)";

const char *const fragment_source = R"(#version 310 es
precision highp float;
precision highp int;
uniform highp sampler2D u_colour;
uniform highp usampler2D u_integers;
uniform vec2 u_size;
out vec4 colour;
void main()
{
   vec2 cell = gl_FragCoord.xy / u_size * 8.0;
   vec2 block = floor(cell);
   vec2 quarter = step(0.5, fract(cell));
   vec2 uv = block * 0.27 - vec2(0.587, 0.569);
   if (quarter.y == 0.0)
      colour = quarter.x == 0.0 ? textureGather(u_colour, uv, 0) : textureGatherOffset(u_colour, uv, ivec2(1, -2), 3);
   else
      colour = quarter.x == 0.0 ? vec4(textureGather(u_integers, uv, 1)) / 255.0 : vec4(textureGatherOffset(u_integers, uv, ivec2(-3, 2), 2)) / 255.0;
}
)";

std::array<uint8_t, 4> texel(int x, int y)
{
   return {uint8_t(x * 29 + y * 3 + 11), uint8_t(200 - x * 7 - y * 19), uint8_t(x * 31 + y * 17 + 5),
           uint8_t(255 - x - y * 8)};
}

void draw_gathers(SceneKit &kit)
{
   SceneKit::clear_colour(night);
   glClear(GL_COLOR_BUFFER_BIT);
   std::vector<uint8_t> colours, integers;
   for (int y = 0; y < size; y++)
      for (int x = 0; x < size; x++) {
         const auto t = texel(x, y);
         colours.insert(colours.end(), t.begin(), t.end());
         const auto u = texel(y, x);
         integers.insert(integers.end(), u.begin(), u.end());
      }
   glActiveTexture(GL_TEXTURE0);
   kit.texture(GL_TEXTURE_2D);
   glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, size, size, 0, GL_RGBA, GL_UNSIGNED_BYTE, colours.data());
   glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
   glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
   glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
   glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
   glActiveTexture(GL_TEXTURE1);
   kit.texture(GL_TEXTURE_2D);
   glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8UI, size, size, 0, GL_RGBA_INTEGER, GL_UNSIGNED_BYTE, integers.data());
   glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
   glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
   glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
   glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
   const GLuint program = kit.program(vertex_source, fragment_source);
   glUniform1i(glGetUniformLocation(program, "u_colour"), 0);
   glUniform1i(glGetUniformLocation(program, "u_integers"), 1);
   glUniform2f(glGetUniformLocation(program, "u_size"), float(kit.width()), float(kit.height()));
   const float quad[] = {0, 0, 64, 0, 64, 64, 0, 0, 64, 64, 0, 64};
   kit.position_vertices(quad);
   glDrawArrays(GL_TRIANGLES, 0, 6);
}

/* textureGrad (GLSL ES 3.10 to match the vertex shader): r600g's SET_GRADIENTS_H, SET_GRADIENTS_V and SAMPLE_G. 4 x 4 blocks,
 * block k sampling a 32 x 32 texture of six one-colour levels (NEAREST_MIPMAP_NEAREST) with
 * gradients of length 2^(0.37 k - 0.9) texels along x or y (k odd: y), the other gradient half
 * as long: levels 0 to 5, no λ within 0.04 of a half-level threshold, the same whether a
 * length or its largest component is taken. */
const char *const gradient_fragment_source = R"(#version 310 es
precision highp float;
uniform highp sampler2D u_levels;
uniform vec2 u_size;
out vec4 colour;
void main()
{
   vec2 block = floor(gl_FragCoord.xy / u_size * 4.0);
   float k = block.x + 4.0 * block.y;
   float texels = exp2(0.37 * k - 0.9) / 32.0;
   vec2 along = mod(k, 2.0) == 0.0 ? vec2(texels, 0.0) : vec2(0.0, texels);
   colour = textureGrad(u_levels, gl_FragCoord.xy / u_size, along, 0.5 * along.yx);
}
)";

void draw_gradients(SceneKit &kit)
{
   SceneKit::clear_colour(night);
   glClear(GL_COLOR_BUFFER_BIT);
   kit.texture(GL_TEXTURE_2D);
   const Rgba8 colours[6] = {red, amber, paper, green, teal, violet};
   for (int level = 0; level < 6; level++) {
      const int n = 32 >> level;
      std::vector<Rgba8> texels(size_t(n) * n, colours[level]);
      glTexImage2D(GL_TEXTURE_2D, level, GL_RGBA8, n, n, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels.data());
   }
   glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
   glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
   const GLuint program = kit.program(vertex_source, gradient_fragment_source);
   glUniform2f(glGetUniformLocation(program, "u_size"), float(kit.width()), float(kit.height()));
   const float quad[] = {0, 0, 64, 0, 64, 64, 0, 0, 64, 64, 0, 64};
   kit.position_vertices(quad);
   glDrawArrays(GL_TRIANGLES, 0, 6);
}

/* textureGather on a cube (GLES 3.1: seamless): r600g's CUBE, face coordinates and GATHER4 on
 * the cube resource. 8 x 8 blocks: block (bx, by) gathers on face (bx + 8 by) % 6 at face
 * coordinates (s[bx], t[by]), the first and last of each list within half a texel of the edge
 * (the footprint crosses onto the next face) and none within 2% of a texel of a footprint
 * boundary; the four corner blocks would straddle a cube corner, which GL leaves open, and show
 * the background. A block's quarters show components 0-3 of an RGBA8 cube of 8 x 8 faces whose
 * texels all differ. */
const char *const cube_fragment_source = R"(#version 310 es
precision highp float;
uniform highp samplerCube u_cube;
uniform vec2 u_size;
out vec4 colour;
vec3 direction(int face, float s, float t)
{
   float sc = 2.0 * s - 1.0, tc = 2.0 * t - 1.0;
   if (face == 0) return vec3(1.0, -tc, -sc);
   if (face == 1) return vec3(-1.0, -tc, sc);
   if (face == 2) return vec3(sc, 1.0, tc);
   if (face == 3) return vec3(sc, -1.0, -tc);
   if (face == 4) return vec3(sc, -tc, 1.0);
   return vec3(-sc, -tc, -1.0);
}
void main()
{
   const float s_list[8] = float[8](0.02, 0.13, 0.29, 0.46, 0.55, 0.71, 0.88, 0.985);
   const float t_list[8] = float[8](0.04, 0.21, 0.33, 0.52, 0.6, 0.77, 0.92, 0.97);
   vec2 cell = gl_FragCoord.xy / u_size * 8.0;
   ivec2 block = ivec2(floor(cell));
   vec2 quarter = step(0.5, fract(cell));
   if ((block.x == 0 || block.x == 7) && (block.y == 0 || block.y == 7)) {
      colour = vec4(16.0, 16.0, 48.0, 255.0) / 255.0;
      return;
   }
   vec3 d = direction((block.x + 8 * block.y) % 6, s_list[block.x], t_list[block.y]);
   if (quarter.y == 0.0)
      colour = quarter.x == 0.0 ? textureGather(u_cube, d, 0) : textureGather(u_cube, d, 1);
   else
      colour = quarter.x == 0.0 ? textureGather(u_cube, d, 2) : textureGather(u_cube, d, 3);
}
)";

void draw_cube_gathers(SceneKit &kit)
{
   SceneKit::clear_colour(night);
   glClear(GL_COLOR_BUFFER_BIT);
   kit.texture(GL_TEXTURE_CUBE_MAP);
   for (int face = 0; face < 6; face++) {
      std::vector<uint8_t> texels;
      for (int y = 0; y < size; y++)
         for (int x = 0; x < size; x++) {
            const auto t = texel(x, y);
            texels.insert(texels.end(), {uint8_t(t[0] + 37 * face), uint8_t(t[1] + 11 * face),
                                         uint8_t(t[2] ^ (face << 5)), uint8_t(t[3] - 41 * face)});
         }
      glTexImage2D(GLenum(GL_TEXTURE_CUBE_MAP_POSITIVE_X + face), 0, GL_RGBA8, size, size, 0, GL_RGBA,
                   GL_UNSIGNED_BYTE, texels.data());
   }
   glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
   glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
   const GLuint program = kit.program(vertex_source, cube_fragment_source);
   glUniform2f(glGetUniformLocation(program, "u_size"), float(kit.width()), float(kit.height()));
   const float quad[] = {0, 0, 64, 0, 64, 64, 0, 0, 64, 64, 0, 64};
   kit.position_vertices(quad);
   glDrawArrays(GL_TRIANGLES, 0, 6);
}

const Scene scenes[] = {
   {"texture_gathers_cube", "textureGather of each component of an RGBA8 cube on all faces, across edges",
    draw_cube_gathers},
   {"texture_gathers", "textureGather of each kind on an 8 x 8 grid of coordinates: RGBA8 and RGBA8UI "
                       "components, with and without offsets",
    draw_gathers},
   {"texture_gradients", "textureGrad on sixteen blocks whose gradients select levels 0 to 5 of one-colour levels",
    draw_gradients},
};

} // namespace

std::span<const Scene> gather_scenes()
{
   return scenes;
}

} // namespace terakan::gl_scenes
