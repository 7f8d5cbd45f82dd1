/* Private arrays in scratch memory: r600g (sfn) moves a shader's local arrays of more than 40
 * elements that are indexed at run time into the stage's scratch ring
 * (nir_lower_vars_to_scratch in sfn_nir.cpp), writes them with MEM_SCRATCH and reads them back
 * with READ_SCRATCH after a WAIT_ACK, and programs SQ_VSTMP_RING_* and SQ_PSTMP_RING_* per
 * shader engine (evergreen_setup_scratch_buffers). This scene makes it do so in both stages, so
 * the simulator's ring model (docs/sim-semantics.md, "Scratch") is checked against a driver
 * proven on real cards, and its picture against llvmpipe's. */
#include "scenes.h"

#include <GLES3/gl3.h>

#include <iterator>
#include <vector>

#include "scene_kit.h"
#include "scene_tools.h"

namespace terakan::gl_scenes {

namespace {

/* Eight rectangles across the picture whose edges take their heights from a 50-entry table
 * indexed by the rectangle's number, gl_VertexID / 6 (a vertex-shader scratch array; edges on
 * whole pixels, so no rasterization tie can differ between the drivers), coloured per pixel from a
 * 96-entry table indexed by the pixel's position and rewritten at two run-time indices (a
 * pixel-shader scratch array). Every value is an integer from 0 to 255 until the final
 * division, so that both drivers round the same way. */
void draw_private_arrays(SceneKit &kit)
{
   SceneKit::clear_colour(night);
   glClear(GL_COLOR_BUFFER_BIT);
   const GLuint program = kit.program(R"(#version 300 es
precision highp float;
precision highp int;
layout(location = 0) in vec2 a_position;
void main()
{
   int quad = gl_VertexID / 6;
   float lift[50];
   for (int k = 0; k < 50; k++)
      lift[k] = float((k * 7) % 13);
   lift[(quad * 3) % 50] += 2.0;
   float y = a_position.y == 0.0 ? lift[(quad * 11 + 5) % 50] : 32.0 + lift[quad % 50];
   gl_Position = vec4(a_position.x / 32.0 - 1.0, y / 32.0 - 1.0, 0.0, 1.0);
}
)",
               R"(#version 300 es
precision highp float;
precision highp int;
uniform int u_count;
out vec4 colour;
void main()
{
   float table[96];
   int x = int(gl_FragCoord.x), y = int(gl_FragCoord.y);
   for (int k = 0; k < u_count; k++)
      table[k] = float((k * 37 + x * 11) % 256);
   int a = (x * 3 + y * 5) % 96;
   table[a] = 255.0 - table[a];
   int b = (a * 7 + y) % 96;
   table[b] = float((int(table[b]) + 64) % 256);
   colour = vec4(table[a], table[b], table[(x + 2 * y) % 96], 255.0) / 255.0;
}
)");
   /* 96, from a uniform: a loop r600g cannot unroll (unrolled, the pixel shader fails r600g's
    * register allocation on VLIW5: "Register allocation failed"). */
   glUniform1i(glGetUniformLocation(program, "u_count"), 96);
   /* Eight rectangles (two triangles each) side by side, bottom edge at y = 0, top at y = 1
    * before the shader lifts them. */
   std::vector<float> strip;
   for (int q = 0; q < 8; q++) {
      const float x0 = float(q * 8), x1 = float(q * 8 + 7);
      const float quad[] = {x0, 0, x1, 0, x0, 1, x1, 0, x1, 1, x0, 1};
      strip.insert(strip.end(), std::begin(quad), std::end(quad));
   }
   kit.position_vertices(strip);
   glDrawArrays(GL_TRIANGLES, 0, GLsizei(strip.size() / 2));
}

const Scene scenes[] = {
   {"private_arrays", "local arrays indexed at run time in a vertex and a pixel shader (r600g: scratch rings, "
                      "MEM_SCRATCH, READ_SCRATCH)",
    draw_private_arrays},
};

} // namespace

std::span<const Scene> scratch_scenes()
{
   return scenes;
}

} // namespace terakan::gl_scenes
