/* Loops whose lanes leave at different iterations, with code after each break and continue:
 * r600g compiles `if (c) break;` in the middle of a loop body as ALU_PUSH_BEFORE, JUMP,
 * LOOP_BREAK, POP and goes on with the rest of the body (sfn's control flow; proven on real
 * cards), so the lanes that did not take the branch must run the rest of their iteration even
 * when every lane that took it broke. This scene checks the simulator's LOOP_BREAK and
 * LOOP_CONTINUE (docs/sim-semantics.md, "Control flow") against llvmpipe through r600g. */
#include "scenes.h"

#include <GLES3/gl3.h>

#include "scene_kit.h"
#include "scene_tools.h"

namespace terakan::gl_scenes {

namespace {

/* Every pixel runs a loop whose trip count comes from a uniform (so that r600g cannot unroll
 * it); per pixel a different iteration breaks, another continues, and a running sum past a
 * limit breaks too. The sums are integers below 256 until the final division, so both drivers
 * give exact bytes. Two nested loops, the inner one breaking in its middle as well. */
void draw_divergent_breaks(SceneKit &kit)
{
   SceneKit::clear_colour(night);
   glClear(GL_COLOR_BUFFER_BIT);
   const GLuint program = kit.program(R"(#version 300 es
layout(location = 0) in vec2 a_position;
void main()
{
   gl_Position = vec4(a_position / 32.0 - 1.0, 0.0, 1.0);
}
)",
                                      R"(#version 300 es
precision highp float;
precision highp int;
uniform int u_count;
out vec4 colour;
void main()
{
   int x = int(gl_FragCoord.x), y = int(gl_FragCoord.y);
   int pattern = x * 5 + y * 3;
   int sum = 0, skipped = 0, inner_total = 0;
   for (int k = 0; k < u_count; k++) {
      if (((pattern >> (k % 8)) & 3) == 3 && k > (x & 3))
         break;
      sum += k + 1;
      if (((x + k) & 3) == (y & 3)) {
         skipped += 1;
         continue;
      }
      sum += 2;
      if (sum > 60 + (y & 15))
         break;
      for (int j = 0; j < u_count; j++) {
         if (j * 3 > ((x ^ y) & 7) + k)
            break;
         inner_total += 1;
      }
      inner_total += 1;
   }
   colour = vec4(float(sum * 3 % 256), float(skipped * 37 % 256), float(inner_total * 5 % 256), 255.0) / 255.0;
}
)");
   glUniform1i(glGetUniformLocation(program, "u_count"), 12);
   const float square[] = {0, 0, 64, 0, 64, 64, 0, 0, 64, 64, 0, 64};
   kit.position_vertices(square);
   glDrawArrays(GL_TRIANGLES, 0, 6);
}

const Scene scenes[] = {
   {"loop_divergent_breaks", "loops whose lanes break and continue at different iterations with code after the "
                             "branch (r600g: LOOP_BREAK and LOOP_CONTINUE inside an if, then more of the body)",
    draw_divergent_breaks},
};

} // namespace

std::span<const Scene> loop_scenes()
{
   return scenes;
}

} // namespace terakan::gl_scenes
