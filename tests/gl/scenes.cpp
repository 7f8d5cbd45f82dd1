/* The scenes. Coordinates are in grid units (scene_kit.h); each slanted edge joins vertices
 * whose x and y differences have different powers of two, which keeps every pixel centre off
 * the edge (a centre (i + 1/2, j + 1/2) on it would need dx * odd == dy * odd). Axis-aligned
 * edges lie on pixel edges, and points sit on pixel corners so that a 4-pixel point covers
 * whole pixels. Lines are the exception: where a line starts and ends is left to the
 * implementation, which is what masks are for once drivers are compared. */
#include "scenes.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "scene_kit.h"
#include "scene_tools.h"

namespace terakan::gl_scenes {

namespace {

void draw_clear(SceneKit &)
{
   SceneKit::clear_colour({32, 96, 160, 255});
   glClear(GL_COLOR_BUFFER_BIT);
}

void draw_triangle(SceneKit &kit)
{
   SceneKit::clear_colour(night);
   glClear(GL_COLOR_BUFFER_BIT);
   kit.coloured_program(Shading::flat);
   kit.coloured_vertices({{8, 8, amber}, {56, 19, amber}, {34, 56, amber}});
   glDrawArrays(GL_TRIANGLES, 0, 3);
}

void draw_vertex_colours(SceneKit &kit)
{
   SceneKit::clear_colour(night);
   glClear(GL_COLOR_BUFFER_BIT);
   kit.coloured_program(Shading::smooth);
   kit.coloured_vertices({{2, 3, {255, 0, 0, 255}}, {62, 10, {0, 255, 0, 255}}, {30, 61, {0, 0, 255, 255}}});
   glDrawArrays(GL_TRIANGLES, 0, 3);
}

void draw_scissor_clear(SceneKit &kit)
{
   SceneKit::clear_colour(paper);
   glClear(GL_COLOR_BUFFER_BIT);
   /* Two overlapping rectangles: the second clear must leave the first one's pixels outside
    * its own rectangle alone. */
   glEnable(GL_SCISSOR_TEST);
   kit.scissor(8, 16, 40, 24);
   SceneKit::clear_colour(red);
   glClear(GL_COLOR_BUFFER_BIT);
   kit.scissor(24, 4, 12, 56);
   SceneKit::clear_colour(green);
   glClear(GL_COLOR_BUFFER_BIT);
   glDisable(GL_SCISSOR_TEST);
}

void draw_triangle_strip(SceneKit &kit)
{
   SceneKit::clear_colour(slate);
   glClear(GL_COLOR_BUFFER_BIT);
   /* Flat shading takes each triangle's last vertex: the four triangles come out amber,
    * green, blue and violet, which shows the strip's vertex order. */
   kit.coloured_program(Shading::flat);
   kit.coloured_vertices({
      {3, 11, paper}, {11, 49, paper}, {22, 7, amber}, {35, 55, green}, {47, 13, blue}, {59, 45, violet},
   });
   glDrawArrays(GL_TRIANGLE_STRIP, 0, 6);
}

void draw_triangle_fan(SceneKit &kit)
{
   SceneKit::clear_colour(slate);
   glClear(GL_COLOR_BUFFER_BIT);
   /* A centre and six rim vertices: five triangles, left open between the last and the first
    * rim vertex, each coloured by its last vertex. */
   kit.coloured_program(Shading::flat);
   kit.coloured_vertices({
      {32, 32, paper}, {60, 34, paper}, {49, 58, red}, {22, 60, amber}, {4, 39, green}, {10, 12, blue}, {35, 4, violet},
   });
   glDrawArrays(GL_TRIANGLE_FAN, 0, 7);
}

void draw_indexed_ushort(SceneKit &kit)
{
   SceneKit::clear_colour(night);
   glClear(GL_COLOR_BUFFER_BIT);
   /* A 5x5 lattice of vertices (every 14 units from 4), each coloured by its place; indices
    * draw a checkerboard of cells, two triangles per cell that both end on the cell's top-right
    * vertex, so each cell is flat-coloured by that vertex. */
   constexpr int side = 5;
   std::vector<ColouredVertex> lattice;
   for (int row = 0; row < side; row++) {
      for (int column = 0; column < side; column++) {
         const Rgba8 colour{uint8_t(40 + 50 * column), uint8_t(40 + 50 * row), uint8_t(220 - 40 * column), 255};
         lattice.push_back({float(4 + 14 * column), float(4 + 14 * row), colour});
      }
   }
   std::vector<uint16_t> indices;
   for (int row = 0; row + 1 < side; row++) {
      for (int column = 0; column + 1 < side; column++) {
         if ((row + column) % 2)
            continue;
         const auto at = [&](int r, int c) { return uint16_t(r * side + c); };
         const uint16_t bottom_left = at(row, column), bottom_right = at(row, column + 1);
         const uint16_t top_left = at(row + 1, column), top_right = at(row + 1, column + 1);
         indices.insert(indices.end(), {bottom_left, bottom_right, top_right, top_left, bottom_left, top_right});
      }
   }
   kit.coloured_program(Shading::flat);
   kit.coloured_vertices(lattice);
   /* The element buffer belongs to the bound vertex array. */
   kit.buffer(GL_ELEMENT_ARRAY_BUFFER, indices.data(), indices.size() * sizeof(uint16_t));
   glDrawElements(GL_TRIANGLES, GLsizei(indices.size()), GL_UNSIGNED_SHORT, nullptr);
}

/* Places instance i of a small triangle in cell (i % 4, i / 4) of a 4x4 grid of 16-unit cells
 * and colours it by its cell (thirds: k * 85 / 255 converts back to k * 85 exactly). */
const char *const instanced_grid_vertex_source = R"(#version 300 es
layout(location = 0) in vec2 a_position;
flat out vec4 v_colour;
void main()
{
   ivec2 cell = ivec2(gl_InstanceID % 4, gl_InstanceID / 4);
   vec2 position = a_position + vec2(cell) * 16.0;
   gl_Position = vec4(position / 32.0 - 1.0, 0.0, 1.0);
   v_colour = vec4(vec3(ivec3(cell.x, cell.y, 3 - cell.x) * 85) / 255.0, 1.0);
}
)";

void draw_instanced(SceneKit &kit)
{
   SceneKit::clear_colour(night);
   glClear(GL_COLOR_BUFFER_BIT);
   /* One small triangle, repeated on a 4x4 grid of 16-unit cells by gl_InstanceID, which also
    * picks its colour (thirds: k * 85 / 255 converts back to k * 85 exactly). */
   kit.program(instanced_grid_vertex_source,
               flat_colour_fragment_source());
   const float triangle[] = {1, 1, 13, 3, 5, 14};
   kit.position_vertices(triangle);
   glDrawArraysInstanced(GL_TRIANGLES, 0, 3, 16);
}

void draw_indirect_draws(SceneKit &kit)
{
   SceneKit::clear_colour(night);
   glClear(GL_COLOR_BUFFER_BIT);
   /* GLES 3.1 indirect draws: the instanced grid program of `instanced`, its counts read from
    * a buffer. glDrawArraysIndirect draws triangles 1 and 2 of four (first 3) as 5 instances;
    * glDrawElementsIndirect draws triangle 3 through indices 6..8 of an index buffer (first
    * index 6, base vertex 3: the fourth triangle's vertices) as 3 instances from instance 0. */
   kit.program(instanced_grid_vertex_source,
               flat_colour_fragment_source());
   const float triangles[] = {
      1, 1, 13, 3, 5, 14,   /* 0: not drawn */
      2, 3, 7, 1, 4, 9,     /* 1 */
      9, 5, 14, 12, 6, 13,  /* 2 */
      1, 9, 10, 11, 4, 15,  /* 3: not drawn by index */
      3, 2, 14, 6, 8, 13,   /* 4: drawn through base vertex 3 + indices 3..5 */
   };
   kit.position_vertices(triangles);
   const uint16_t indices[] = {0, 1, 2, 9, 9, 9, 3, 4, 5};
   kit.buffer(GL_ELEMENT_ARRAY_BUFFER, indices, sizeof(indices));
   /* DrawArraysIndirectCommand {count, instanceCount, first, reserved} then
    * DrawElementsIndirectCommand {count, instanceCount, firstIndex, baseVertex, reserved}. */
   const uint32_t commands[] = {6, 5, 3, 0, 3, 3, 6, 3, 0};
   kit.buffer(GL_DRAW_INDIRECT_BUFFER, commands, sizeof(commands));
   glDrawArraysIndirect(GL_TRIANGLES, nullptr);
   glDrawElementsIndirect(GL_TRIANGLES, GL_UNSIGNED_SHORT, reinterpret_cast<const void *>(4 * sizeof(uint32_t)));
}

/* Clears the picture to slate and the depth buffer to `clear_depth`, and turns the depth
 * test on with `func`. */
void begin_depth_scene(GLenum func, float clear_depth)
{
   SceneKit::clear_colour(slate);
   glClearDepthf(clear_depth);
   glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
   glEnable(GL_DEPTH_TEST);
   glDepthFunc(func);
}

void draw_depth_test(SceneKit &kit)
{
   begin_depth_scene(GL_LESS, 1.0f);
   /* Drawn nearest first, so that only the depth test (not the drawing order) can hide the
    * later triangles where they overlap: green in front of blue in front of red. */
   const GLuint program = kit.coloured_program(Shading::flat);
   const GLint depth = glGetUniformLocation(program, "u_depth");
   kit.coloured_vertices({
      {7, 9, green}, {44, 7, green}, {19, 49, green},
      {20, 21, red}, {60, 30, red}, {36, 59, red},
      {5, 41, blue}, {37, 27, blue}, {55, 62, blue},
   });
   glUniform1f(depth, -0.5f);
   glDrawArrays(GL_TRIANGLES, 0, 3);
   glUniform1f(depth, 0.5f);
   glDrawArrays(GL_TRIANGLES, 3, 3);
   glUniform1f(depth, 0.0f);
   glDrawArrays(GL_TRIANGLES, 6, 3);
   glDisable(GL_DEPTH_TEST);
}

/* The three overlapping triangles the depth and stencil scenes share (counter-clockwise, so
 * front-facing). */
constexpr float depth_triangles[3][6] = {{7, 9, 44, 7, 19, 49}, {20, 21, 60, 30, 36, 59}, {5, 41, 37, 27, 55, 62}};

std::vector<ColouredVertex> triangle_vertices(int which, Rgba8 colour)
{
   const float *t = depth_triangles[which];
   return {{t[0], t[1], colour}, {t[2], t[3], colour}, {t[4], t[5], colour}};
}

void draw_depth_greater_d16(SceneKit &kit)
{
   begin_depth_scene(GL_GREATER, 0.0f);
   /* Larger depth wins: red (0.75) over blue (0.625) over green (0.25), whatever the order. */
   const GLuint program = kit.coloured_program(Shading::flat);
   draw_at(kit, program, triangle_vertices(1, red), 0.5f);
   draw_at(kit, program, triangle_vertices(0, green), -0.5f);
   draw_at(kit, program, triangle_vertices(2, blue), 0.25f);
}

void draw_depth_lequal_d32f(SceneKit &kit)
{
   begin_depth_scene(GL_LEQUAL, 1.0f);
   /* The same triangle twice at the same depth: LEQUAL lets the second (teal) replace the
    * first (green). Then red behind it and blue in front. */
   const GLuint program = kit.coloured_program(Shading::flat);
   draw_at(kit, program, triangle_vertices(0, green), 0.0f);
   draw_at(kit, program, triangle_vertices(0, teal), 0.0f);
   draw_at(kit, program, triangle_vertices(1, red), 0.5f);
   draw_at(kit, program, triangle_vertices(2, blue), -0.25f);
}

void draw_depth_write_off(SceneKit &kit)
{
   begin_depth_scene(GL_LESS, 1.0f);
   /* Green is nearest but leaves no depth behind (glDepthMask off), so red, drawn after it,
    * covers it; blue is in front of red. */
   const GLuint program = kit.coloured_program(Shading::flat);
   glDepthMask(GL_FALSE);
   draw_at(kit, program, triangle_vertices(0, green), -0.5f);
   glDepthMask(GL_TRUE);
   draw_at(kit, program, triangle_vertices(1, red), 0.5f);
   draw_at(kit, program, triangle_vertices(2, blue), 0.0f);
}

void draw_polygon_offset(SceneKit &kit)
{
   begin_depth_scene(GL_LESS, 1.0f);
   glEnable(GL_POLYGON_OFFSET_FILL);
   /* Each triangle is drawn twice at the same depths, the second time with an offset. Left, a
    * sloped triangle: red with glPolygonOffset(1, 1) stays behind the green one. Middle, a flat
    * one: blue with (0, -1) comes in front of amber (the unit alone). Right, a sloped one:
    * teal with (-1, 0) comes in front of violet (the slope alone). Which side of each test a
    * pixel lands on does not depend on the implementation's unit or exact slope. */
   const DepthVertex vertices[] = {
      {2, 6, -0.6f, green},   {22, 10, 0.2f, green},   {9, 58, 0.5f, green},
      {2, 6, -0.6f, red},     {22, 10, 0.2f, red},     {9, 58, 0.5f, red},
      {24, 4, 0.1f, amber},   {42, 8, 0.1f, amber},    {31, 60, 0.1f, amber},
      {24, 4, 0.1f, blue},    {42, 8, 0.1f, blue},     {31, 60, 0.1f, blue},
      {44, 2, 0.7f, violet},  {62, 14, -0.3f, violet}, {51, 57, 0.0f, violet},
      {44, 2, 0.7f, teal},    {62, 14, -0.3f, teal},   {51, 57, 0.0f, teal},
   };
   depth_vertices_program(kit, vertices);
   const float offsets[6][2] = {{0, 0}, {1, 1}, {0, 0}, {0, -1}, {0, 0}, {-1, 0}};
   for (int t = 0; t < 6; t++) {
      glPolygonOffset(offsets[t][0], offsets[t][1]);
      glDrawArrays(GL_TRIANGLES, 3 * t, 3);
   }
   glDisable(GL_POLYGON_OFFSET_FILL);
}

void draw_polygon_offset_d16(SceneKit &kit)
{
   /* glPolygonOffset's unit on a 16-bit depth buffer, one step of the buffer (1/65535) at a
    * time. In each cell amber is drawn flat at window depth (N + 1/4) / 65535, then teal
    * over it at (N + d + 1/4) / 65535 with glPolygonOffset(0, -1) (last cell: d = -1 and
    * (0, +1)), under GL_LESS. GL leaves r to the implementation: llvmpipe's offset is two
    * steps per unit, r600g's OFFSET of four times the units with POLY_OFFSET_NEG_NUM_DB_BITS
    * -16 is four steps if the unit is 2^-16. The steps d = 0, 1, 5, 8 and -1 are those where
    * both give the same picture (teal wins at 0 and 1, loses at 5, 8 and -1); the quarter
    * step keeps every depth away from a rounding tie. A simulated unit of 2^-15 or more
    * (teal winning at 5), or of 2^-18 or less (teal losing at 1 or winning at -1), changes
    * the picture. Top row N = 40000, bottom row N = 12000. */
   begin_depth_scene(GL_LESS, 1.0f);
   glEnable(GL_POLYGON_OFFSET_FILL);
   constexpr int steps[5] = {0, 1, 5, 8, -1};
   constexpr int levels[2] = {40000, 12000};
   std::vector<DepthVertex> vertices;
   auto rectangle = [&](float x0, float y0, float x1, float y1, double window_z, Rgba8 colour) {
      const float z = float(2.0 * window_z - 1.0); /* glDepthRangef(0, 1) */
      for (auto [x, y] : {std::pair{x0, y0}, {x1, y0}, {x0, y1}, {x1, y0}, {x1, y1}, {x0, y1}})
         vertices.push_back({x, y, z, colour});
   };
   for (int row = 0; row < 2; row++)
      for (int cell = 0; cell < 5; cell++) {
         const float x0 = 2.0f + 12.0f * float(cell), y0 = 4.0f + 32.0f * float(row);
         const double base = (double(levels[row]) + 0.25) / 65535.0;
         const double moved = (double(levels[row] + steps[cell]) + 0.25) / 65535.0;
         rectangle(x0, y0, x0 + 10.0f, y0 + 24.0f, base, amber);
         rectangle(x0, y0, x0 + 10.0f, y0 + 24.0f, moved, teal);
      }
   depth_vertices_program(kit, vertices);
   for (int row = 0; row < 2; row++)
      for (int cell = 0; cell < 5; cell++) {
         const int first = 12 * (5 * row + cell);
         glPolygonOffset(0, 0);
         glDrawArrays(GL_TRIANGLES, first, 6);
         glPolygonOffset(0, steps[cell] < 0 ? 1.0f : -1.0f);
         glDrawArrays(GL_TRIANGLES, first + 6, 6);
      }
   glDisable(GL_POLYGON_OFFSET_FILL);
}

void draw_depth_interpenetrate(SceneKit &kit)
{
   begin_depth_scene(GL_LESS, 1.0f);
   /* An amber triangle at depth 0 and a violet one whose depth grows with x, z = (x - 32.25)
    * / 40: the violet one is in front left of x = 32.25, which no pixel centre touches, so
    * the per-pixel depth interpolation draws the seam. */
   auto z_of = [](float x) { return (x - 32.25f) / 40.0f; };
   const DepthVertex vertices[] = {
      {4, 6, 0, amber},        {60, 10, 0, amber},        {30, 58, 0, amber},
      {6, 50, z_of(6), violet}, {26, 3, z_of(26), violet}, {58, 44, z_of(58), violet},
   };
   depth_vertices_program(kit, vertices);
   glDrawArrays(GL_TRIANGLES, 0, 6);
}

void draw_depth_frag_depth(SceneKit &kit)
{
   begin_depth_scene(GL_LESS, 1.0f);
   const GLuint plain = kit.coloured_program(Shading::flat);
   draw_at(kit, plain, whole_picture(paper), 0.0f); /* depth 0.5 everywhere */
   /* A shader-written depth, (x + y) / 128 + 1/256 at the pixel centre: in front of the
    * paper below the diagonal x + y = 64, behind it above. No pixel ties. */
   kit.program(R"(#version 300 es
layout(location = 0) in vec2 a_position;
layout(location = 1) in vec4 a_colour;
flat out vec4 v_colour;
void main()
{
   gl_Position = vec4(a_position / 32.0 - 1.0, 0.9, 1.0);
   v_colour = a_colour;
}
)",
               R"(#version 300 es
precision highp float;
flat in vec4 v_colour;
out vec4 colour;
void main()
{
   colour = v_colour;
   gl_FragDepth = (gl_FragCoord.x + gl_FragCoord.y) / 128.0 + 1.0 / 256.0;
}
)");
   const std::vector<ColouredVertex> quad = whole_picture(teal);
   kit.coloured_vertices(std::span<const ColouredVertex>(quad));
   glDrawArrays(GL_TRIANGLES, 0, 6);
}

/* Clears the picture to slate, the stencil buffer to `clear_stencil` (and whatever else
 * `also_clear` names), turns the stencil test on and colour writes off, and returns the flat
 * coloured program: the scene's first draws go into the stencil only. */
GLuint begin_stencil_scene(SceneKit &kit, GLint clear_stencil, GLbitfield also_clear)
{
   SceneKit::clear_colour(slate);
   glClearStencil(clear_stencil);
   glClear(GL_COLOR_BUFFER_BIT | GL_STENCIL_BUFFER_BIT | also_clear);
   glEnable(GL_STENCIL_TEST);
   const GLuint program = kit.coloured_program(Shading::flat);
   glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
   return program;
}

/* Where the stencil test with `func`, `reference` and `mask` passes, the picture is filled
 * with `colour`. */
struct StencilFill {
   GLenum func;
   GLint reference;
   GLuint mask;
   Rgba8 colour;
};

/* Turns colour writes back on and draws the fills in order, leaving the stencil as it is. */
void fill_by_stencil(SceneKit &kit, GLuint program, std::initializer_list<StencilFill> fills)
{
   glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
   for (const StencilFill &fill : fills) {
      glStencilFunc(fill.func, fill.reference, fill.mask);
      glStencilOp(GL_KEEP, GL_KEEP, GL_KEEP);
      draw_at(kit, program, whole_picture(fill.colour), 0.0f);
   }
}

void draw_stencil_mask(SceneKit &kit)
{
   /* The first triangle goes into the stencil only; the picture is then filled amber where
    * the stencil is 1 and teal where it is not. */
   const GLuint program = begin_stencil_scene(kit, 0, 0);
   glStencilFunc(GL_ALWAYS, 1, 0xff);
   glStencilOp(GL_KEEP, GL_KEEP, GL_REPLACE);
   draw_at(kit, program, triangle_vertices(0, paper), 0.0f);
   fill_by_stencil(kit, program, {
      {GL_EQUAL, 1, 0xff, amber},
      {GL_NOTEQUAL, 1, 0xff, teal},
   });
}

void draw_stencil_count(SceneKit &kit)
{
   /* Every triangle increments the stencil; then the third is drawn twice more with DECR,
    * which stops at 0 where it covered a count of 1 (clamped, not wrapped to 255). Each count
    * gets its colour. */
   const GLuint program = begin_stencil_scene(kit, 0, 0);
   glStencilFunc(GL_ALWAYS, 0, 0xff);
   glStencilOp(GL_KEEP, GL_KEEP, GL_INCR);
   for (int t = 0; t < 3; t++)
      draw_at(kit, program, triangle_vertices(t, paper), 0.0f);
   /* Twice DECR over the third triangle: where it alone was (count 1) the count clamps at 0. */
   glStencilOp(GL_KEEP, GL_KEEP, GL_DECR);
   draw_at(kit, program, triangle_vertices(2, paper), 0.0f);
   draw_at(kit, program, triangle_vertices(2, paper), 0.0f);
   fill_by_stencil(kit, program, {
      {GL_EQUAL, 1, 0xff, amber},
      {GL_EQUAL, 2, 0xff, red},
      {GL_EQUAL, 3, 0xff, violet},
   });
}

void draw_stencil_two_sided(SceneKit &kit)
{
   /* Front faces wrap the stencil up, back faces down: the middle triangle is drawn clockwise
    * (a back face), so where it alone lies the stencil wraps to 255. */
   const GLuint program = begin_stencil_scene(kit, 0, GL_DEPTH_BUFFER_BIT);
   glStencilFunc(GL_ALWAYS, 0, 0xff);
   glStencilOpSeparate(GL_FRONT, GL_KEEP, GL_KEEP, GL_INCR_WRAP);
   glStencilOpSeparate(GL_BACK, GL_KEEP, GL_KEEP, GL_DECR_WRAP);
   draw_at(kit, program, triangle_vertices(0, paper), 0.0f);
   std::vector<ColouredVertex> clockwise = triangle_vertices(1, paper);
   std::swap(clockwise[1], clockwise[2]);
   draw_at(kit, program, clockwise, 0.0f);
   draw_at(kit, program, triangle_vertices(2, paper), 0.0f);
   fill_by_stencil(kit, program, {
      {GL_EQUAL, 1, 0xff, amber},
      {GL_EQUAL, 2, 0xff, teal},
      {GL_EQUAL, 255, 0xff, violet},
      {GL_EQUAL, 0, 0xff, night},
   });
}

void draw_stencil_masks(SceneKit &kit)
{
   const GLuint program = begin_stencil_scene(kit, 0x30, 0);
   /* Write masks: REPLACE 0xff through mask 0x0f gives 0x3f in the first triangle; INVERT
    * through 0xf0 over the second gives 0xc0 outside the first and 0xcf inside it. */
   glStencilFunc(GL_ALWAYS, 0xff, 0xff);
   glStencilOp(GL_KEEP, GL_KEEP, GL_REPLACE);
   glStencilMask(0x0f);
   draw_at(kit, program, triangle_vertices(0, paper), 0.0f);
   glStencilOp(GL_KEEP, GL_KEEP, GL_INVERT);
   glStencilMask(0xf0);
   draw_at(kit, program, triangle_vertices(1, paper), 0.0f);
   glStencilMask(0xff);
   /* Compare masks: violet where 0xc8 > stencil (all but 0xcf), amber where the low nibble is
    * 0xf (the first triangle), teal where the stencil is exactly 0xc0. */
   fill_by_stencil(kit, program, {
      {GL_GREATER, 0xc8, 0xff, violet},
      {GL_EQUAL, 0x0f, 0x0f, amber},
      {GL_EQUAL, 0xc0, 0xff, teal},
   });
}

void draw_cull_faces(SceneKit &kit)
{
   SceneKit::clear_colour(slate);
   glClear(GL_COLOR_BUFFER_BIT);
   /* One triangle per quadrant, counter-clockwise or clockwise, under different cull and
    * front-face settings: bottom-left (CCW, cull back) and top-right (CW, cull front) are
    * drawn; bottom-right (CW, cull back) and top-left (CCW, cull front) are culled; the
    * centre one (CW with glFrontFace(GL_CW), cull back) is drawn. */
   const GLuint program = kit.coloured_program(Shading::flat);
   auto triangle = [](float x, float y, bool clockwise, Rgba8 colour) {
      std::vector<ColouredVertex> t = {{x + 4, y + 3, colour}, {x + 28, y + 7, colour}, {x + 13, y + 27, colour}};
      if (clockwise)
         std::swap(t[1], t[2]);
      return t;
   };
   glEnable(GL_CULL_FACE);
   glCullFace(GL_BACK);
   draw_at(kit, program, triangle(0, 0, false, green), 0.0f);
   draw_at(kit, program, triangle(32, 0, true, red), 0.0f);
   glCullFace(GL_FRONT);
   draw_at(kit, program, triangle(0, 32, false, red), 0.0f);
   draw_at(kit, program, triangle(32, 32, true, amber), 0.0f);
   glFrontFace(GL_CW);
   glCullFace(GL_BACK);
   draw_at(kit, program, triangle(16, 16, true, teal), 0.0f);
   glFrontFace(GL_CCW);
   glDisable(GL_CULL_FACE);
}

void draw_viewport(SceneKit &kit)
{
   SceneKit::clear_colour(night);
   glClear(GL_COLOR_BUFFER_BIT);
   /* A viewport of half the picture's size at (16, 8): grid coordinates land on whole window
    * pixels (16 + x / 2, 8 + y / 2). The second triangle reaches beyond the viewport, which
    * clips it. */
   glViewport(16 * kit.width() / grid_size, 8 * kit.height() / grid_size, kit.width() / 2, kit.height() / 2);
   const GLuint program = kit.coloured_program(Shading::flat);
   draw_at(kit, program, {{8, 6, amber}, {56, 14, amber}, {26, 54, amber}}, 0.0f);
   draw_at(kit, program, {{40, 30, violet}, {80, 40, violet}, {52, 72, violet}}, 0.0f);
   glViewport(0, 0, kit.width(), kit.height());
}

void draw_clip_near_far(SceneKit &kit)
{
   SceneKit::clear_colour(slate);
   glClear(GL_COLOR_BUFFER_BIT);
   /* Two triangles with one vertex beyond the near plane (z < -1) and one beyond the far plane
    * (z > 1): each is cut along the line where its depth crosses the plane. */
   const DepthVertex vertices[] = {
      {4, 6, -1.7f, amber}, {40, 10, 0.3f, amber}, {14, 50, 0.1f, amber},
      {60, 58, 1.9f, teal}, {22, 54, 0.2f, teal}, {50, 14, -0.4f, teal},
   };
   depth_vertices_program(kit, vertices);
   glDrawArrays(GL_TRIANGLES, 0, 6);
}

void draw_primitive_restart(SceneKit &kit)
{
   SceneKit::clear_colour(night);
   glClear(GL_COLOR_BUFFER_BIT);
   /* GL_PRIMITIVE_RESTART_FIXED_INDEX: a 16-bit strip split in two by 0xffff (bottom), and a
    * 32-bit one split by 0xffffffff (top). */
   glEnable(GL_PRIMITIVE_RESTART_FIXED_INDEX);
   kit.coloured_program(Shading::flat);
   kit.coloured_vertices({
      {3, 5, paper}, {9, 27, paper}, {17, 3, amber}, {25, 29, green},
      {34, 4, paper}, {42, 26, paper}, {51, 7, blue}, {61, 25, violet},
      {3, 37, paper}, {9, 59, paper}, {17, 35, red}, {25, 61, teal},
      {34, 36, paper}, {42, 58, paper}, {51, 39, amber}, {61, 57, green},
   });
   const uint16_t short_indices[] = {0, 1, 2, 3, 0xffff, 4, 5, 6, 7};
   const uint32_t long_indices[] = {8, 9, 10, 11, 0xffffffffu, 12, 13, 14, 15};
   const GLuint short_buffer = kit.buffer(GL_ELEMENT_ARRAY_BUFFER, short_indices, sizeof(short_indices));
   glDrawElements(GL_TRIANGLE_STRIP, 9, GL_UNSIGNED_SHORT, nullptr);
   kit.buffer(GL_ELEMENT_ARRAY_BUFFER, long_indices, sizeof(long_indices));
   glDrawElements(GL_TRIANGLE_STRIP, 9, GL_UNSIGNED_INT, nullptr);
   (void)short_buffer;
   glDisable(GL_PRIMITIVE_RESTART_FIXED_INDEX);
}

void draw_instanced_divisor(SceneKit &kit)
{
   SceneKit::clear_colour(night);
   glClear(GL_COLOR_BUFFER_BIT);
   /* Per-instance attributes: an offset that advances every instance (divisor 1) and a colour
    * that advances every third instance (divisor 3). */
   kit.program(R"(#version 300 es
layout(location = 0) in vec2 a_position;
layout(location = 1) in vec2 a_offset;
layout(location = 2) in vec4 a_colour;
flat out vec4 v_colour;
void main()
{
   gl_Position = vec4((a_position + a_offset) / 32.0 - 1.0, 0.0, 1.0);
   v_colour = a_colour;
}
)",
               flat_colour_fragment_source());
   const float triangle[] = {1, 1, 13, 3, 5, 14};
   std::vector<float> offsets;
   for (int i = 0; i < 9; i++)
      offsets.insert(offsets.end(), {float(16 * (i % 3) + 8), float(16 * (i / 3) + 8)});
   const Rgba8 colours[] = {amber, teal, violet};
   kit.position_vertices(triangle);
   kit.buffer(GL_ARRAY_BUFFER, offsets.data(), offsets.size() * sizeof(float));
   glEnableVertexAttribArray(1);
   glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
   glVertexAttribDivisor(1, 1);
   kit.buffer(GL_ARRAY_BUFFER, colours, sizeof(colours));
   glEnableVertexAttribArray(2);
   glVertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, 0, nullptr);
   glVertexAttribDivisor(2, 3);
   glDrawArraysInstanced(GL_TRIANGLES, 0, 3, 9);
}

void draw_constant_attribute(SceneKit &kit)
{
   SceneKit::clear_colour(night);
   glClear(GL_COLOR_BUFFER_BIT);
   /* The colour attribute's array disabled: every vertex reads GL's current value, which Mesa's
    * state tracker hands r600g as a vertex buffer of stride 0 (st_atom_array.cpp), so the fetch
    * unit must read the same element for every vertex index. Two draws, two values. */
   kit.program(R"(#version 300 es
layout(location = 0) in vec2 a_position;
layout(location = 1) in vec2 a_offset;
layout(location = 2) in vec4 a_colour;
flat out vec4 v_colour;
void main()
{
   gl_Position = vec4((a_position + a_offset) / 32.0 - 1.0, 0.0, 1.0);
   v_colour = a_colour;
}
)",
               flat_colour_fragment_source());
   const float triangle[] = {1, 1, 13, 3, 5, 14, 20, 2, 30, 8, 24, 16};
   kit.position_vertices(triangle);
   glDisableVertexAttribArray(1);
   glDisableVertexAttribArray(2);
   glVertexAttrib2f(1, 8.0f, 10.0f);
   glVertexAttrib4f(2, 1.0f, 0.75f, 0.25f, 1.0f);
   glDrawArrays(GL_TRIANGLES, 0, 6);
   glVertexAttrib2f(1, 20.0f, 36.0f);
   glVertexAttrib4f(2, 0.25f, 0.5f, 1.0f, 1.0f);
   glDrawArrays(GL_TRIANGLES, 0, 6);
}

void draw_scissor_draw(SceneKit &kit)
{
   SceneKit::clear_colour(slate);
   glClear(GL_COLOR_BUFFER_BIT);
   /* Triangles drawn through two different scissor rectangles. */
   const GLuint program = kit.coloured_program(Shading::flat);
   glEnable(GL_SCISSOR_TEST);
   kit.scissor(6, 10, 30, 40);
   draw_at(kit, program, triangle_vertices(0, green), 0.0f);
   kit.scissor(28, 20, 30, 30);
   draw_at(kit, program, triangle_vertices(1, red), 0.0f);
   draw_at(kit, program, triangle_vertices(2, blue), 0.0f);
   glDisable(GL_SCISSOR_TEST);
}

void draw_occlusion_query(SceneKit &kit)
{
   begin_depth_scene(GL_LESS, 1.0f);
   /* A near paper square, then three queried triangles behind it: one wholly hidden, one
    * partly and one wholly outside it. Each query's answer is drawn as a square in the top
    * row: green for "samples passed", red for none. */
   const GLuint program = kit.coloured_program(Shading::flat);
   draw_at(kit, program, square(8, 4, 40, paper), -0.5f);
   const std::vector<ColouredVertex> queried[3] = {
      {{12, 8, teal}, {40, 12, teal}, {20, 36, teal}},
      {{30, 10, amber}, {60, 18, amber}, {44, 40, amber}},
      {{50, 46, violet}, {62, 48, violet}, {54, 58, violet}},
   };
   GLuint queries[3];
   glGenQueries(3, queries);
   for (int q = 0; q < 3; q++) {
      glBeginQuery(q == 2 ? GL_ANY_SAMPLES_PASSED_CONSERVATIVE : GL_ANY_SAMPLES_PASSED, queries[q]);
      draw_at(kit, program, queried[q], 0.5f);
      glEndQuery(q == 2 ? GL_ANY_SAMPLES_PASSED_CONSERVATIVE : GL_ANY_SAMPLES_PASSED);
   }
   glDisable(GL_DEPTH_TEST);
   for (int q = 0; q < 3; q++) {
      GLuint passed = 0;
      glGetQueryObjectuiv(queries[q], GL_QUERY_RESULT, &passed);
      draw_at(kit, program, square(float(4 + 10 * q), 52, 8, passed ? green : red), 0.0f);
   }
   glDeleteQueries(3, queries);
}

/* The fragment shader of the scenes that sample a texture: u_texture (unit 0) at v_texcoord. */
const char *const sampling_fragment_source = R"(#version 300 es
precision mediump float;
uniform sampler2D u_texture;
in vec2 v_texcoord;
out vec4 colour;
void main()
{
   colour = texture(u_texture, v_texcoord);
}
)";

void draw_compute_vertices(SceneKit &kit)
{
   SceneKit::clear_colour(night);
   glClear(GL_COLOR_BUFFER_BIT);
   /* A GLES 3.1 compute shader writes a triangle per invocation into a storage buffer
    * (positions, and a colour byte-packed into one uint), which is then drawn as the vertex
    * buffer: 4 work groups of 4 invocations place 16 triangles on a 4x4 grid. */
   kit.compute_program(R"(#version 310 es
layout(local_size_x = 4) in;
struct Vertex { vec2 position; uint colour; uint unused; };
layout(std430, binding = 0) writeonly buffer Vertices { Vertex v[]; } vertices;
void main()
{
   uint cell = gl_GlobalInvocationID.x;
   vec2 origin = vec2(float(cell % 4u), float(cell / 4u)) * 16.0;
   uint colour = (cell * 16u) | ((255u - cell * 16u) << 8) | (128u << 16) | (255u << 24);
   vertices.v[3u * cell + 0u] = Vertex(origin + vec2(1.0, 1.0), colour, 0u);
   vertices.v[3u * cell + 1u] = Vertex(origin + vec2(13.0, 3.0), colour, 0u);
   vertices.v[3u * cell + 2u] = Vertex(origin + vec2(5.0, 14.0), colour, 0u);
}
)");
   const GLuint buffer = kit.buffer(GL_SHADER_STORAGE_BUFFER, nullptr, 48 * 16);
   glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
   glDispatchCompute(4, 1, 1);
   glMemoryBarrier(GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT);
   kit.coloured_program(Shading::flat);
   kit.vertex_array();
   glBindBuffer(GL_ARRAY_BUFFER, buffer);
   glEnableVertexAttribArray(0);
   glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 16, nullptr);
   glEnableVertexAttribArray(1);
   glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, 16, reinterpret_cast<const void *>(8));
   glDrawArrays(GL_TRIANGLES, 0, 48);
}

void draw_compute_image(SceneKit &kit)
{
   SceneKit::clear_colour(night);
   glClear(GL_COLOR_BUFFER_BIT);
   /* A GLES 3.1 compute shader fills a 16x16 RGBA8 image (8x8 work groups, colour from the
    * invocation's place, bytes that are multiples of 16), then a square samples it NEAREST:
    * each texel covers 3x3 pixels. */
   kit.texture(GL_TEXTURE_2D);
   glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 16, 16);
   glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
   glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
   const GLuint texture = [] {
      GLint bound = 0;
      glGetIntegerv(GL_TEXTURE_BINDING_2D, &bound);
      return GLuint(bound);
   }();
   kit.compute_program(R"(#version 310 es
layout(local_size_x = 8, local_size_y = 8) in;
layout(rgba8, binding = 0) writeonly uniform highp image2D u_image;
void main()
{
   uvec2 at = gl_GlobalInvocationID.xy;
   vec4 colour = vec4(float(at.x * 16u) / 255.0, float(at.y * 16u) / 255.0,
                      float((at.x ^ at.y) * 16u) / 255.0, 1.0);
   imageStore(u_image, ivec2(at), colour);
}
)");
   glBindImageTexture(0, texture, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
   glDispatchCompute(2, 2, 1);
   glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT);

   kit.program(R"(#version 300 es
layout(location = 0) in vec2 a_position;
out vec2 v_texcoord;
void main()
{
   gl_Position = vec4(a_position / 32.0 - 1.0, 0.0, 1.0);
   v_texcoord = (a_position - 8.0) / 48.0;
}
)",
               sampling_fragment_source);
   const float quad[] = {8, 8, 56, 8, 56, 56, 8, 8, 56, 56, 8, 56};
   kit.position_vertices(quad);
   glDrawArrays(GL_TRIANGLES, 0, 6);
}

void draw_fragment_stores(SceneKit &kit)
{
   /* Memory writes from a pixel shader (GLES 3.1 fragment images and storage buffers): r600g
    * binds them as RATs after its colour buffer (CB_COLOR1 on), sets VALID_PIXEL_MODE on them,
    * and with early_fragment_tests DEPTH_BEFORE_SHADER and EXEC_ON_NOOP. A near paper occluder
    * over the left quarter fills the depth buffer; then a triangle with early tests at middle
    * depth stores a colour per pixel into a 64x64 image and counts itself in its 8x8 cell,
    * except where a checkerboard of 4x4 blocks in the lower half is discarded first; last, a
    * square shows the image and the counts (blue, 4 units a pixel). The occluded and discarded
    * pixels and those outside the triangle keep the image's zeros and count nothing; a second
    * triangle behind the occluder, without early tests, counts every pixel it covers. The image
    * has the picture's size; the shaders work on the 64x64 grid (u_shift: log2 of the scale). */
   begin_depth_scene(GL_LESS, 1.0f);
   const GLuint coloured = kit.coloured_program(Shading::flat);
   glUniform1f(glGetUniformLocation(coloured, "u_depth"), -0.5f);
   kit.coloured_vertices({{0, 0, paper}, {16, 0, paper}, {16, 64, paper}, {0, 0, paper}, {16, 64, paper}, {0, 64, paper}});
   glDrawArrays(GL_TRIANGLES, 0, 6);

   kit.texture(GL_TEXTURE_2D);
   const int width = kit.width(), height = kit.height();
   int shift = 0;
   while ((64 << shift) < width)
      shift++;
   glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, width, height);
   const std::vector<uint8_t> zeros(size_t(width) * height * 4, 0);
   glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, zeros.data());
   glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
   glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
   GLint texture = 0;
   glGetIntegerv(GL_TEXTURE_BINDING_2D, &texture);
   glBindImageTexture(0, GLuint(texture), 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
   const std::vector<uint32_t> no_counts(64, 0);
   const GLuint cells = kit.buffer(GL_SHADER_STORAGE_BUFFER, no_counts.data(), no_counts.size() * 4);
   glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, cells);
   const GLuint store_program = kit.program(R"(#version 310 es
layout(location = 0) in vec2 a_position;
void main()
{
   gl_Position = vec4(a_position / 32.0 - 1.0, 0.0, 1.0);
}
)",
               R"(#version 310 es
precision highp float;
layout(early_fragment_tests) in;
layout(rgba8, binding = 0) writeonly uniform highp image2D u_image;
layout(std430, binding = 0) buffer Cells { uint cells[64]; };
uniform int u_shift;
out vec4 colour;
void main()
{
   ivec2 p = ivec2(gl_FragCoord.xy), g = p >> u_shift;
   if (g.y < 32 && (((g.x >> 2) ^ (g.y >> 2)) & 1) == 1)
      discard;
   imageStore(u_image, p, vec4(float(g.x * 4) / 255.0, float(g.y * 4) / 255.0, 0.0, 1.0));
   atomicAdd(cells[(g.y >> 3) * 8 + (g.x >> 3)], 1u);
   colour = vec4(1.0);
}
)");
   glUniform1i(glGetUniformLocation(store_program, "u_shift"), shift);
   const float triangle[] = {4, 3, 61, 10, 22, 60};
   kit.position_vertices(triangle);
   glDrawArrays(GL_TRIANGLES, 0, 3);
   /* Then, without early tests, a triangle behind the occluder counts itself too: its stores
    * happen although the late depth test fails (r600g: LATE_Z with EXEC_ON_HIER_FAIL). */
   const GLuint late_program = kit.program(R"(#version 310 es
layout(location = 0) in vec2 a_position;
void main()
{
   gl_Position = vec4(a_position / 32.0 - 1.0, 0.0, 1.0);
}
)",
                                           R"(#version 310 es
precision highp float;
layout(std430, binding = 0) buffer Cells { uint cells[64]; };
uniform int u_shift;
out vec4 colour;
void main()
{
   ivec2 g = ivec2(gl_FragCoord.xy) >> u_shift;
   atomicAdd(cells[(g.y >> 3) * 8 + (g.x >> 3)], 1u);
   colour = vec4(1.0, 0.0, 0.0, 1.0);
}
)");
   glUniform1i(glGetUniformLocation(late_program, "u_shift"), shift);
   const float hidden[] = {1, 40, 15, 44, 3, 62};
   kit.position_vertices(hidden);
   glDrawArrays(GL_TRIANGLES, 0, 3);
   glDisable(GL_DEPTH_TEST);
   glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT);

   const GLuint show_program = kit.program(R"(#version 310 es
layout(location = 0) in vec2 a_position;
void main()
{
   gl_Position = vec4(a_position / 32.0 - 1.0, 0.0, 1.0);
}
)",
               R"(#version 310 es
precision highp float;
uniform highp sampler2D u_texture;
layout(std430, binding = 0) readonly buffer Cells { uint cells[64]; };
uniform int u_shift;
out vec4 colour;
void main()
{
   ivec2 p = ivec2(gl_FragCoord.xy), g = p >> u_shift;
   vec4 texel = texelFetch(u_texture, p, 0);
   colour = vec4(texel.rg, float((cells[(g.y >> 3) * 8 + (g.x >> 3)] >> (2 * u_shift)) * 4u) / 255.0, 1.0);
}
)");
   glUniform1i(glGetUniformLocation(show_program, "u_shift"), shift);
   const float square[] = {0, 0, 64, 0, 64, 64, 0, 0, 64, 64, 0, 64};
   kit.position_vertices(square);
   glDrawArrays(GL_TRIANGLES, 0, 6);
}

void draw_clip_cull_distances(SceneKit &kit)
{
   SceneKit::clear_colour(night);
   glClear(GL_COLOR_BUFFER_BIT);
   /* GL_EXT_clip_cull_distance. gl_ClipDistance[0] = x - 0.8125 y - 5.3 (grid units) cuts the
    * amber triangle along a line no pixel centre lies on (16 i - 13 j = 83.3 has no integer
    * solution); gl_CullDistance[0] = y - 40 drops the teal triangle that lies wholly below
    * y = 40 and keeps the violet one that crosses it, uncut. */
   kit.program(R"(#version 300 es
#extension GL_EXT_clip_cull_distance : require
layout(location = 0) in vec2 a_position;
layout(location = 1) in vec4 a_colour;
uniform int u_mode;
flat out vec4 v_colour;
out float gl_ClipDistance[1];
out float gl_CullDistance[1];
void main()
{
   gl_Position = vec4(a_position / 32.0 - 1.0, 0.0, 1.0);
   gl_ClipDistance[0] = u_mode == 0 ? a_position.x - 0.8125 * a_position.y - 5.3 : 1.0;
   gl_CullDistance[0] = u_mode == 1 ? a_position.y - 40.0 : 1.0;
   v_colour = a_colour;
}
)",
               flat_colour_fragment_source());
   GLint program = 0;
   glGetIntegerv(GL_CURRENT_PROGRAM, &program);
   const GLint mode = glGetUniformLocation(GLuint(program), "u_mode");
   constexpr GLenum clip_distance0 = 0x3000; /* GL_CLIP_DISTANCE0_EXT */
   glEnable(clip_distance0);
   glUniform1i(mode, 0);
   kit.coloured_vertices({{4, 6, amber}, {60, 10, amber}, {30, 58, amber}});
   glDrawArrays(GL_TRIANGLES, 0, 3);
   glUniform1i(mode, 1);
   kit.coloured_vertices({{4, 8, teal}, {28, 12, teal}, {13, 36, teal}, {34, 30, violet}, {60, 34, violet}, {42, 62, violet}});
   glDrawArrays(GL_TRIANGLES, 0, 6);
   glDisable(clip_distance0);
}

/* The fragment shader reads gl_ClipDistance and gl_CullDistance (r600g exports them a second
 * time as parameters for it, as Terakan does when a Vulkan fragment shader reads them). Each
 * distance is linear in the position; the fragment shader picks a colour by thresholds that no
 * pixel centre meets (x = 32.3, y = 34.26, x = 30.7 in grid units), so the picture shows
 * where each interpolated distance lands without depending on its rounding. ClipDistance[0]
 * also cuts the triangle at x = 8. */
void draw_clip_distance_read(SceneKit &kit)
{
   SceneKit::clear_colour(night);
   glClear(GL_COLOR_BUFFER_BIT);
   kit.program(R"(#version 300 es
#extension GL_EXT_clip_cull_distance : require
layout(location = 0) in vec2 a_position;
layout(location = 1) in vec4 a_colour;
flat out vec4 v_colour;
out float gl_ClipDistance[2];
out float gl_CullDistance[1];
void main()
{
   gl_Position = vec4(a_position / 32.0 - 1.0, 0.0, 1.0);
   gl_ClipDistance[0] = a_position.x - 8.0;
   gl_ClipDistance[1] = a_position.y * 0.5 + 3.0;
   gl_CullDistance[0] = 1.0 + a_position.x * 0.1;
   v_colour = a_colour;
}
)",
               R"(#version 300 es
#extension GL_EXT_clip_cull_distance : require
precision highp float;
flat in vec4 v_colour;
in float gl_ClipDistance[2];
in float gl_CullDistance[1];
layout(location = 0) out vec4 o_colour;
void main()
{
   vec4 colour = v_colour;
   if (gl_ClipDistance[0] > 24.3)
      colour.r = 0.25;
   if (gl_ClipDistance[1] > 20.13)
      colour.g = 0.75;
   if (gl_CullDistance[0] > 4.07)
      colour.b = 1.0;
   o_colour = colour;
}
)");
   constexpr GLenum clip_distance0 = 0x3000, clip_distance1 = 0x3001; /* GL_CLIP_DISTANCE0/1_EXT */
   glEnable(clip_distance0);
   glEnable(clip_distance1);
   /* Corners off the integer grid (multiples of 1/256: exact at 64x64 and at 256x256), so that
    * no pixel centre lies on an edge at either size: the edge rules are not what this shows. */
   kit.coloured_vertices({{2.14453125f, 4.35546875f, amber},
                          {62.05078125f, 8.22265625f, amber},
                          {30.39453125f, 60.30078125f, amber},
                          {40.14453125f, 2.35546875f, violet},
                          {63.05078125f, 30.22265625f, violet},
                          {50.39453125f, 63.30078125f, violet}});
   glDrawArrays(GL_TRIANGLES, 0, 6);
   glDisable(clip_distance0);
   glDisable(clip_distance1);
}

void draw_blend_alpha(SceneKit &kit)
{
   SceneKit::clear_colour(slate);
   glClear(GL_COLOR_BUFFER_BIT);
   kit.coloured_program(Shading::flat);
   /* An opaque square, then two translucent triangles over it, the background and each
    * other: alpha 128/255 and 64/255. */
   const Rgba8 translucent_red{232, 40, 32, 128}, translucent_blue{32, 72, 232, 64};
   kit.coloured_vertices({
      {8, 8, paper}, {40, 8, paper}, {40, 40, paper}, {8, 8, paper}, {40, 40, paper}, {8, 40, paper},
      {20, 3, translucent_red}, {62, 23, translucent_red}, {30, 50, translucent_red},
      {2, 31, translucent_blue}, {45, 37, translucent_blue}, {15, 61, translucent_blue},
   });
   glDrawArrays(GL_TRIANGLES, 0, 6);
   glEnable(GL_BLEND);
   glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
   glDrawArrays(GL_TRIANGLES, 6, 6);
   glDisable(GL_BLEND);
}

void draw_blend_equations(SceneKit &kit)
{
   /* Five bars over a background of (64, 160, 255, 255), each drawn with (160, 64, 0, 255) and
    * one equation: ADD, SUBTRACT, REVERSE_SUBTRACT, MIN, MAX, factors ONE/ONE; then squares
    * with the factors DST_COLOR, ONE_MINUS_DST_COLOR and CONSTANT_COLOR over sources of 0 and
    * 255, so every result is a whole byte with no rounding to disagree about. */
   SceneKit::clear_colour({64, 160, 255, 255});
   glClear(GL_COLOR_BUFFER_BIT);
   const GLuint program = kit.coloured_program(Shading::flat);
   const Rgba8 source{160, 64, 0, 255};
   glEnable(GL_BLEND);
   const GLenum equations[] = {GL_FUNC_ADD, GL_FUNC_SUBTRACT, GL_FUNC_REVERSE_SUBTRACT, GL_MIN, GL_MAX};
   for (int e = 0; e < 5; e++) {
      glBlendEquation(equations[e]);
      glBlendFunc(GL_ONE, GL_ONE);
      draw_at(kit, program, square(float(2 + 12 * e), 34, 10, source), 0.0f);
   }
   glBlendEquation(GL_FUNC_ADD);
   /* (255, 0, 255) * dst = (64, 0, 255); white * (1 - dst) = (191, 95, 0); the constant colour
    * (255, 0, 255, 255) as the source factor. */
   glBlendFunc(GL_DST_COLOR, GL_ZERO);
   draw_at(kit, program, square(2, 4, 14, {255, 0, 255, 255}), 0.0f);
   glBlendFunc(GL_ONE_MINUS_DST_COLOR, GL_ZERO);
   draw_at(kit, program, square(20, 4, 14, {255, 255, 255, 255}), 0.0f);
   glBlendColor(1.0f, 0.0f, 1.0f, 1.0f);
   glBlendFunc(GL_CONSTANT_COLOR, GL_ZERO);
   draw_at(kit, program, square(38, 4, 14, {96, 224, 32, 255}), 0.0f);
   glDisable(GL_BLEND);
   /* Channel masks: only green and alpha of a white square reach the picture. */
   glColorMask(GL_FALSE, GL_TRUE, GL_FALSE, GL_TRUE);
   draw_at(kit, program, square(54, 4, 8, {255, 255, 255, 255}), 0.0f);
   glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
}

void draw_texture_sample(SceneKit &kit)
{
   SceneKit::clear_colour(night);
   glClear(GL_COLOR_BUFFER_BIT);
   /* A 4x4 texture of 16 different colours, nearest-filtered over a 48x48 square: each texel
    * covers 12x12 pixels, and no pixel centre falls on a texel boundary. */
   std::array<Rgba8, 16> texels;
   for (int t = 0; t < 4; t++)
      for (int s = 0; s < 4; s++)
         texels[t * 4 + s] = {uint8_t(16 + 72 * s), uint8_t(16 + 72 * t), uint8_t(232 - 32 * (s + t)), 255};
   kit.texture(GL_TEXTURE_2D);
   glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels.data());
   glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
   glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
   glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
   glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);

   kit.program(R"(#version 300 es
layout(location = 0) in vec2 a_position;
layout(location = 1) in vec2 a_texcoord;
out vec2 v_texcoord;
void main()
{
   gl_Position = vec4(a_position / 32.0 - 1.0, 0.0, 1.0);
   v_texcoord = a_texcoord;
}
)",
               sampling_fragment_source);
   /* x, y, s, t for two triangles; u_texture keeps its default unit, 0. */
   const float quad[] = {
      8, 8, 0, 0,   56, 8, 1, 0,   56, 56, 1, 1,
      8, 8, 0, 0,   56, 56, 1, 1,  8, 56, 0, 1,
   };
   kit.vertex_array();
   kit.buffer(GL_ARRAY_BUFFER, quad, sizeof(quad));
   glEnableVertexAttribArray(0);
   glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 4 * sizeof(float), nullptr);
   glEnableVertexAttribArray(1);
   glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, 4 * sizeof(float),
                         reinterpret_cast<const void *>(2 * sizeof(float)));
   glDrawArrays(GL_TRIANGLES, 0, 6);
}

/* Implicit level of detail and derivatives in a pixel shader. A 256x256 texture whose nine
 * levels are each one colour, NEAREST_MIPMAP_NEAREST, mapped whole onto squares of 32, 16 and
 * 8 grid units: at 64x64 a texel step of 8, 16 and 32 per pixel (levels 3, 4 and 5), at
 * 256x256 of 2, 4 and 8 (levels 1, 2, 3). A fourth 16-unit square samples with a bias of
 * +1.0 (one level further). Powers of two keep every level of detail exact, so that no
 * implementation's approximation of log2 or of the scale factor can differ. A fifth square
 * shows dFdx and dFdy of its texture coordinate (r600g: GET_GRADIENTS_H/V). The squares' two
 * triangles split quads along the diagonal, so helper pixels feed the differences. */
void draw_texture_mipmaps(SceneKit &kit)
{
   SceneKit::clear_colour(night);
   glClear(GL_COLOR_BUFFER_BIT);
   kit.texture(GL_TEXTURE_2D);
   for (int level = 0; level < 9; level++) {
      const int n = 256 >> level;
      const Rgba8 colour = {uint8_t(20 + 26 * level), uint8_t(235 - 26 * level), uint8_t(level % 2 ? 220 : 40), 255};
      std::vector<Rgba8> texels(size_t(n) * n, colour);
      glTexImage2D(GL_TEXTURE_2D, level, GL_RGBA8, n, n, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels.data());
   }
   glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
   glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
   const char *vertex_source = R"(#version 300 es
layout(location = 0) in vec2 a_position;
layout(location = 1) in vec2 a_texcoord;
out vec2 v_texcoord;
void main()
{
   gl_Position = vec4(a_position / 32.0 - 1.0, 0.0, 1.0);
   v_texcoord = a_texcoord;
}
)";
   auto square = [&](float x, float y, float side) {
      const float vertices[] = {
         x, y, 0, 0,   x + side, y, 1, 0,   x + side, y + side, 1, 1,
         x, y, 0, 0,   x + side, y + side, 1, 1,   x, y + side, 0, 1,
      };
      kit.vertex_array();
      kit.buffer(GL_ARRAY_BUFFER, vertices, sizeof(vertices));
      glEnableVertexAttribArray(0);
      glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 4 * sizeof(float), nullptr);
      glEnableVertexAttribArray(1);
      glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, 4 * sizeof(float), reinterpret_cast<const void *>(2 * sizeof(float)));
      glDrawArrays(GL_TRIANGLES, 0, 6);
   };
   kit.program(vertex_source, sampling_fragment_source);
   square(0, 0, 32);
   square(32, 0, 16);
   square(48, 0, 8);
   kit.program(vertex_source, R"(#version 300 es
precision mediump float;
uniform sampler2D u_texture;
in vec2 v_texcoord;
out vec4 colour;
void main()
{
   colour = texture(u_texture, v_texcoord, 1.0);
}
)");
   square(32, 32, 16);
   kit.program(vertex_source, R"(#version 300 es
precision highp float;
in vec2 v_texcoord;
out vec4 colour;
void main()
{
   colour = vec4(0.5 + 4.0 * dFdx(v_texcoord.x), 0.5 + 4.0 * dFdy(v_texcoord.y),
                 0.5 + 16.0 * dFdx(v_texcoord.y), 1.0);
}
)");
   square(0, 40, 16);
}

void draw_points(SceneKit &kit)
{
   SceneKit::clear_colour(night);
   glClear(GL_COLOR_BUFFER_BIT);
   /* 4-pixel points centred on pixel corners: each covers exactly 4x4 pixels. One touches
    * the picture's left edge, and one lies partly beyond the right edge (its centre is inside,
    * so it is drawn and only its outside pixels are cut off). */
   kit.coloured_program(Shading::flat, 4.0f);
   kit.coloured_vertices({
      {10, 10, red}, {32, 12, green}, {54, 10, blue}, {20, 32, amber},
      {44, 32, violet}, {32, 52, teal}, {2, 56, paper}, {63, 40, paper},
   });
   glDrawArrays(GL_POINTS, 0, 8);
}

void draw_lines(SceneKit &kit)
{
   SceneKit::clear_colour(night);
   glClear(GL_COLOR_BUFFER_BIT);
   /* Width-1 lines between pixel centres: horizontal, vertical, the diagonal, a shallow and
    * a steep one, each in one colour. */
   kit.coloured_program(Shading::flat);
   kit.coloured_vertices({
      {4.5f, 60.5f, red}, {59.5f, 60.5f, red},
      {4.5f, 4.5f, green}, {4.5f, 55.5f, green},
      {10.5f, 10.5f, amber}, {50.5f, 50.5f, amber},
      {10.5f, 40.5f, teal}, {58.5f, 52.5f, teal},
      {30.5f, 4.5f, violet}, {40.5f, 50.5f, violet},
   });
   glDrawArrays(GL_LINES, 0, 10);
}

void draw_point_sprite(SceneKit &kit)
{
   SceneKit::clear_colour(night);
   glClear(GL_COLOR_BUFFER_BIT);
   /* 8-pixel points coloured by gl_PointCoord: each pixel's s and t are (k + 1/2) / 8, whose
    * unorm bytes are far from any rounding tie. */
   kit.program(R"(#version 300 es
layout(location = 0) in vec2 a_position;
void main()
{
   gl_Position = vec4(a_position / 32.0 - 1.0, 0.0, 1.0);
   gl_PointSize = 8.0;
}
)",
               R"(#version 300 es
precision highp float;
out vec4 colour;
void main()
{
   colour = vec4(gl_PointCoord, 0.5, 1.0);
}
)");
   const float points[] = {12, 12, 40, 16, 20, 44, 52, 48};
   kit.position_vertices(points);
   glDrawArrays(GL_POINTS, 0, 4);
}

void draw_line_strip_loop(SceneKit &kit)
{
   SceneKit::clear_colour(night);
   glClear(GL_COLOR_BUFFER_BIT);
   /* A line strip (bottom) and a line loop (top), between pixel centres; flat colours by the
    * provoking (last) vertex of each segment. */
   kit.coloured_program(Shading::flat);
   kit.coloured_vertices({
      {4.5f, 4.5f, red}, {20.5f, 28.5f, green}, {36.5f, 6.5f, amber}, {58.5f, 26.5f, teal},
      {8.5f, 40.5f, paper}, {30.5f, 58.5f, violet}, {56.5f, 50.5f, blue}, {40.5f, 36.5f, amber},
   });
   glDrawArrays(GL_LINE_STRIP, 0, 4);
   glDrawArrays(GL_LINE_LOOP, 4, 4);
}

/* The pixels whose centres are the line strip's and loop's vertices: where a line starts and
 * ends is where GL's diamond-exit rule (llvmpipe) and the simulator's rule (the line's
 * parallelogram, its end edges through the vertices covered by the top-left rule; the
 * hardware's own rule is not documented) legitimately differ. */
bool line_vertex_pixel(int x, int y, int width, int height)
{
   static constexpr float vertices[][2] = {{4.5f, 4.5f},   {20.5f, 28.5f}, {36.5f, 6.5f},  {58.5f, 26.5f},
                                           {8.5f, 40.5f},  {30.5f, 58.5f}, {56.5f, 50.5f}, {40.5f, 36.5f}};
   for (const auto &v : vertices)
      if (x == int(v[0] * float(width) / grid_size) && y == int(v[1] * float(height) / grid_size))
         return true;
   return false;
}

void draw_lines_smooth(SceneKit &kit)
{
   SceneKit::clear_colour(night);
   glClear(GL_COLOR_BUFFER_BIT);
   /* Colours interpolated along 55-pixel lines from 0 to 220 in one channel: 4 per pixel, so
    * every pixel's byte is an integer away from a rounding tie. */
   kit.coloured_program(Shading::smooth);
   kit.coloured_vertices({
      {4.5f, 10.5f, {0, 40, 60, 255}}, {59.5f, 10.5f, {220, 40, 60, 255}},
      {10.5f, 4.5f, {40, 0, 200, 255}}, {10.5f, 59.5f, {40, 220, 200, 255}},
   });
   glDrawArrays(GL_LINES, 0, 4);
}

void draw_wide_lines(SceneKit &kit)
{
   SceneKit::clear_colour(night);
   glClear(GL_COLOR_BUFFER_BIT);
   /* Lines 3 pixels wide, horizontal and vertical, between pixel centres. */
   kit.coloured_program(Shading::flat);
   glLineWidth(3.0f);
   kit.coloured_vertices({
      {6.5f, 50.5f, amber}, {56.5f, 50.5f, amber},
      {20.5f, 6.5f, teal}, {20.5f, 44.5f, teal},
      {30.5f, 20.5f, violet}, {60.5f, 20.5f, violet},
   });
   glDrawArrays(GL_LINES, 0, 6);
   glLineWidth(1.0f);
}

const Scene scenes[] = {
   {"clear", "glClear of the whole picture to one colour", draw_clear},
   {"triangle", "one flat-coloured triangle with slanted edges over a cleared background", draw_triangle},
   {"vertex_colours", "one triangle with red, green and blue corners, interpolated", draw_vertex_colours},
   {"scissor_clear", "two overlapping scissored glClears over a cleared background", draw_scissor_clear},
   {"triangle_strip", "a 6-vertex triangle strip, each triangle flat-coloured by its last vertex", draw_triangle_strip},
   {"triangle_fan", "a 7-vertex triangle fan (five triangles), flat-coloured per triangle", draw_triangle_fan},
   {"indexed_ushort", "glDrawElements with 16-bit indices: a checkerboard of cells on a shared lattice", draw_indexed_ushort},
   {"instanced", "glDrawArraysInstanced: 16 triangles placed and coloured by gl_InstanceID", draw_instanced},
   {"depth_test", "three overlapping triangles at different depths drawn front to back (GL_LESS)", draw_depth_test, GL_DEPTH24_STENCIL8},
   {"depth_greater_d16", "GL_GREATER on a 16-bit depth buffer cleared to 0", draw_depth_greater_d16, GL_DEPTH_COMPONENT16},
   {"depth_lequal_d32f", "GL_LEQUAL on a float depth buffer: an equal-depth redraw passes", draw_depth_lequal_d32f, GL_DEPTH_COMPONENT32F},
   {"depth_write_off", "glDepthMask(GL_FALSE): a near triangle leaves no depth behind", draw_depth_write_off, GL_DEPTH24_STENCIL8},
   {"polygon_offset", "glPolygonOffset: by units alone, by slope alone, and a positive offset that loses", draw_polygon_offset, GL_DEPTH24_STENCIL8},
   {"polygon_offset_d16", "glPolygonOffset's unit on a 16-bit depth buffer, one step of depth at a time", draw_polygon_offset_d16, GL_DEPTH_COMPONENT16},
   {"depth_interpenetrate", "two triangles crossing in depth: the seam comes from per-pixel depth", draw_depth_interpenetrate, GL_DEPTH24_STENCIL8},
   {"depth_frag_depth", "gl_FragDepth from gl_FragCoord against a constant-depth square", draw_depth_frag_depth, GL_DEPTH24_STENCIL8},
   {"stencil_mask", "a triangle drawn into the stencil only, then EQUAL and NOTEQUAL fills", draw_stencil_mask, GL_DEPTH24_STENCIL8},
   {"stencil_count", "INCR over three triangles and clamped DECR, each count in its colour", draw_stencil_count, GL_DEPTH24_STENCIL8},
   {"stencil_two_sided", "INCR_WRAP on front faces, DECR_WRAP on back faces (float depth + stencil)", draw_stencil_two_sided, GL_DEPTH32F_STENCIL8},
   {"stencil_masks", "stencil write masks (REPLACE, INVERT) and compare masks", draw_stencil_masks, GL_DEPTH24_STENCIL8},
   {"cull_faces", "front/back culling with both windings and glFrontFace(GL_CW)", draw_cull_faces},
   {"viewport", "a half-size viewport at an offset; a triangle reaching past it is clipped", draw_viewport},
   {"clip_near_far", "triangles cut by the near and far clip planes", draw_clip_near_far},
   {"primitive_restart", "GL_PRIMITIVE_RESTART_FIXED_INDEX with 16- and 32-bit strips", draw_primitive_restart},
   {"indirect_draws", "glDrawArraysIndirect and glDrawElementsIndirect with base vertex and instance counts", draw_indirect_draws},
   {"instanced_divisor", "per-instance attributes with divisors 1 and 3", draw_instanced_divisor},
   {"constant_attribute", "attributes from GL's current values (r600g: vertex buffers of stride 0), two draws",
    draw_constant_attribute},
   {"scissor_draw", "triangles drawn through two scissor rectangles", draw_scissor_draw},
   {"occlusion_query", "GL_ANY_SAMPLES_PASSED(_CONSERVATIVE) queries behind an occluder, answers drawn as squares", draw_occlusion_query, GL_DEPTH24_STENCIL8},
   /* Not simulated yet: r600g stores to the RGBA8 image with typed RAT writes, which the
    * simulator's shader core does not convert (only COLOR_32 RATs); llvmpipe draws it. */
   {"compute_vertices", "a GLES 3.1 compute shader writes the vertex buffer a draw then uses", draw_compute_vertices},
   {"compute_image", "a GLES 3.1 compute shader writes an image that a square then samples", draw_compute_image},
   {"fragment_stores", "a pixel shader with early fragment tests stores to an image and counts in a storage buffer, "
                       "then a square shows both", draw_fragment_stores, GL_DEPTH24_STENCIL8},
   {"clip_cull_distances", "gl_ClipDistance cutting a triangle, gl_CullDistance dropping one (GL_EXT_clip_cull_distance)", draw_clip_cull_distances},
   {"clip_distance_read", "gl_ClipDistance and gl_CullDistance read by the fragment shader (GL_EXT_clip_cull_distance)", draw_clip_distance_read},
   {"blend_alpha", "translucent triangles blended (SRC_ALPHA, ONE_MINUS_SRC_ALPHA) over an opaque square", draw_blend_alpha},
   {"blend_equations", "every blend equation, the DST_COLOR, ONE_MINUS_DST_COLOR and CONSTANT_COLOR factors, channel masks", draw_blend_equations},
   {"texture_sample", "a 4x4 RGBA8 texture, NEAREST, sampled over a 48x48 square", draw_texture_sample},
   {"texture_mipmaps", "a mipmapped texture minified by 8, 16, 32 (and with a bias) with implicit LOD, and dFdx/dFdy", draw_texture_mipmaps},
   {"points", "GL_POINTS with gl_PointSize 4, one partly beyond the right edge", draw_points},
   {"lines", "GL_LINES of width 1: horizontal, vertical, diagonal, shallow and steep", draw_lines},
   {"point_sprite", "8-pixel points coloured by gl_PointCoord", draw_point_sprite},
   {"line_strip_loop", "a GL_LINE_STRIP and a GL_LINE_LOOP, flat-coloured per segment", draw_line_strip_loop, 0,
    line_vertex_pixel, "line ends: GL's diamond-exit rule against the simulator's top-left rule at a line's end edges"},
   {"lines_smooth", "colours interpolated along horizontal and vertical lines", draw_lines_smooth},
   {"wide_lines", "glLineWidth(3): horizontal and vertical lines", draw_wide_lines},
};

} // namespace

std::span<const Scene> all_scenes()
{
   static const std::vector<Scene> every = [] {
      std::vector<Scene> list(std::begin(scenes), std::end(scenes));
      for (const Scene &scene : colour_scenes())
         list.push_back(scene);
      for (const Scene &scene : streamout_scenes())
         list.push_back(scene);
      for (const Scene &scene : queries_scenes())
         list.push_back(scene);
      for (const Scene &scene : msaa_scenes())
         list.push_back(scene);
      for (const Scene &scene : sample_shading_scenes())
         list.push_back(scene);
      for (const Scene &scene : helper_scenes())
         list.push_back(scene);
      for (const Scene &scene : anisotropy_scenes())
         list.push_back(scene);
      for (const Scene &scene : primitive_scenes())
         list.push_back(scene);
      for (const Scene &scene : scratch_scenes())
         list.push_back(scene);
      for (const Scene &scene : loop_scenes())
         list.push_back(scene);
      for (const Scene &scene : gather_scenes())
         list.push_back(scene);
      for (const Scene &scene : storage_format_scenes())
         list.push_back(scene);
      for (const Scene &scene : geometry_scenes())
         list.push_back(scene);
      for (const Scene &scene : lod_query_scenes())
         list.push_back(scene);
      return list;
   }();
   return every;
}

const Scene *find_scene(std::string_view name)
{
   for (const Scene &scene : all_scenes())
      if (name == scene.name)
         return &scene;
   return nullptr;
}

} // namespace terakan::gl_scenes
