/* Geometry shader scenes (desktop GL 3.3 core): r600g runs the vertex shader as an export
 * shader into the ESGS ring, the geometry shader per primitive from that ring into the GSVS
 * ring (EMIT_VERTEX, CUT_VERTEX), and a copy shader as the hardware vertex shader.
 *
 * Every output colour is flat (GL's last-vertex convention) and exact bytes; edges keep off
 * pixel centres at 64x64 and 256x256 (axis-aligned edges on quarter units, slanted ones with
 * odd 1/64 offsets), so that no fill-rule tie or rounding decides a pixel. */
#include "scenes.h"

#include <GLES3/gl31.h>

#include <string>
#include <vector>

#include "failure.h"
#include "scene_kit.h"
#include "scene_tools.h"

namespace terakan::gl_scenes {

namespace {

constexpr GLenum GL_GEOMETRY_SHADER_ = 0x8DD9, GL_TRIANGLES_ADJACENCY_ = 0x000C;

/* The vertex shader of every scene: grid position and colour passed on (no clip-space
 * conversion: the geometry shaders place their vertices in grid units first). */
const char *const vertex_source = R"(#version 330 core
layout(location = 0) in vec2 a_position;
layout(location = 1) in vec4 a_colour;
out vec4 v_colour;
void main()
{
   gl_Position = vec4(a_position, 0.0, 1.0);
   v_colour = a_colour;
}
)";

const char *const fragment_source = R"(#version 330 core
flat in vec4 g_colour;
out vec4 colour;
void main()
{
   colour = g_colour;
}
)";

GLuint compile(GLenum stage, const char *source)
{
   const GLuint shader = glCreateShader(stage);
   glShaderSource(shader, 1, &source, nullptr);
   glCompileShader(shader);
   GLint compiled = GL_FALSE;
   glGetShaderiv(shader, GL_COMPILE_STATUS, &compiled);
   if (!compiled) {
      char log[2048] = {};
      glGetShaderInfoLog(shader, sizeof(log), nullptr, log);
      throw Failure(std::string("a geometry scene's shader did not compile:\n") + log);
   }
   return shader;
}

/* A vertex, geometry and fragment program, left in use; deleted with the desktop context. */
void use_geometry_program(const char *geometry_source)
{
   const GLuint program = glCreateProgram();
   const GLuint shaders[] = {compile(GL_VERTEX_SHADER, vertex_source), compile(GL_GEOMETRY_SHADER_, geometry_source),
                             compile(GL_FRAGMENT_SHADER, fragment_source)};
   for (GLuint shader : shaders)
      glAttachShader(program, shader);
   glLinkProgram(program);
   for (GLuint shader : shaders)
      glDeleteShader(shader);
   GLint linked = GL_FALSE;
   glGetProgramiv(program, GL_LINK_STATUS, &linked);
   if (!linked) {
      char log[2048] = {};
      glGetProgramInfoLog(program, sizeof(log), nullptr, log);
      throw Failure(std::string("a geometry scene's program did not link:\n") + log);
   }
   glUseProgram(program);
}

float at(int n, int k64)
{
   return float(n) + float(k64) / 64.0f;
}

/* Points become squares 6.5 units wide around them (edges on quarter units), in the point's
 * colour: a four-vertex strip per point. */
const char *const points_to_quads_source = R"(#version 330 core
layout(points) in;
layout(triangle_strip, max_vertices = 4) out;
in vec4 v_colour[];
flat out vec4 g_colour;
void main()
{
   const vec2 corners[4] = vec2[4](vec2(-1.0, -1.0), vec2(1.0, -1.0), vec2(-1.0, 1.0), vec2(1.0, 1.0));
   for (int i = 0; i < 4; i++) {
      vec2 grid = gl_in[0].gl_Position.xy + 3.25 * corners[i];
      gl_Position = vec4(grid / 32.0 - 1.0, 0.0, 1.0);
      g_colour = v_colour[0];
      EmitVertex();
   }
}
)";

void draw_points_to_quads(SceneKit &kit)
{
   const GLuint harness = bound_framebuffer();
   const Bytes pixels = draw_in_desktop_gl(kit, 3, 3, false, [&](SceneKit &desktop) {
      SceneKit::clear_colour(night);
      glClear(GL_COLOR_BUFFER_BIT);
      use_geometry_program(points_to_quads_source);
      desktop.coloured_vertices({
         {8, 8, red}, {24, 10, green}, {40, 12, blue}, {56, 14, amber},
         {10, 30, sky}, {30, 32, violet}, {50, 34, teal}, {20, 52, paper}, {44, 54, red},
      });
      glDrawArrays(GL_POINTS, 0, 9);
   });
   show(kit, harness, pixels);
}

/* Triangles passed through, each coloured from gl_PrimitiveIDIn (which counts the draw's
 * primitives from 0, also along a strip) mixed with its last vertex's red channel. */
const char *const primitive_colour_source = R"(#version 330 core
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
in vec4 v_colour[];
flat out vec4 g_colour;
void main()
{
   int id = gl_PrimitiveIDIn;
   vec4 colour = vec4(v_colour[2].r, float(40 + 50 * (id % 5)) / 255.0, float(200 - 30 * id) / 255.0, 1.0);
   for (int i = 0; i < 3; i++) {
      gl_Position = vec4(gl_in[i].gl_Position.xy / 32.0 - 1.0, 0.0, 1.0);
      g_colour = colour;
      EmitVertex();
   }
   EndPrimitive();
}
)";

void draw_primitive_colours(SceneKit &kit)
{
   const GLuint harness = bound_framebuffer();
   const Bytes pixels = draw_in_desktop_gl(kit, 3, 3, false, [&](SceneKit &desktop) {
      SceneKit::clear_colour(night);
      glClear(GL_COLOR_BUFFER_BIT);
      use_geometry_program(primitive_colour_source);
      /* Three separate triangles (ids 0-2) ... */
      desktop.coloured_vertices({
         {at(2, 5), at(2, 9), red},    {at(29, 3), at(4, 27), red},   {at(5, 45), at(28, 1), red},
         {at(34, 5), at(2, 7), green}, {at(61, 3), at(4, 11), green}, {at(35, 9), at(29, 3), green},
         {at(3, 7), at(34, 1), blue},  {at(28, 9), at(36, 5), blue},  {at(14, 3), at(61, 7), blue},
      });
      glDrawArrays(GL_TRIANGLES, 0, 9);
      /* ... and a strip of four (ids 0-3 again: a new draw starts counting anew). */
      desktop.coloured_vertices({
         {at(34, 3), at(34, 5), amber}, {at(61, 7), at(35, 9), amber}, {at(35, 5), at(47, 3), teal},
         {at(62, 3), at(48, 7), violet}, {at(33, 9), at(61, 1), sky},  {at(60, 5), at(62, 3), paper},
      });
      glDrawArrays(GL_TRIANGLE_STRIP, 0, 6);
   });
   show(kit, harness, pixels);
}

/* Each point becomes a bar (a four-vertex strip) and, after EndPrimitive, a separate triangle
 * above it: without the cut the strip would go on from the bar to the triangle and fill the
 * gap between them. */
const char *const strips_source = R"(#version 330 core
layout(points) in;
layout(triangle_strip, max_vertices = 7) out;
in vec4 v_colour[];
flat out vec4 g_colour;
void emit(vec2 grid, vec4 colour)
{
   gl_Position = vec4(grid / 32.0 - 1.0, 0.0, 1.0);
   g_colour = colour;
   EmitVertex();
}
void main()
{
   vec2 p = gl_in[0].gl_Position.xy;
   emit(p + vec2(0.25, 0.25), v_colour[0]);
   emit(p + vec2(12.25, 0.25), v_colour[0]);
   emit(p + vec2(0.25, 3.75), v_colour[0]);
   emit(p + vec2(12.25, 3.75), v_colour[0]);
   EndPrimitive();
   vec4 other = vec4(1.0) - vec4(v_colour[0].rgb, 0.0);
   emit(p + vec2(2.0 + 5.0 / 64.0, 8.0 + 3.0 / 64.0), other);
   emit(p + vec2(11.0 + 7.0 / 64.0, 9.0 + 1.0 / 64.0), other);
   emit(p + vec2(5.0 + 9.0 / 64.0, 15.0 + 5.0 / 64.0), other);
   EndPrimitive();
}
)";

void draw_strips(SceneKit &kit)
{
   const GLuint harness = bound_framebuffer();
   const Bytes pixels = draw_in_desktop_gl(kit, 3, 3, false, [&](SceneKit &desktop) {
      SceneKit::clear_colour(night);
      glClear(GL_COLOR_BUFFER_BIT);
      use_geometry_program(strips_source);
      desktop.coloured_vertices({
         {4, 4, red}, {36, 6, green}, {6, 24, blue}, {38, 26, amber}, {8, 44, violet}, {40, 46, teal},
      });
      glDrawArrays(GL_POINTS, 0, 6);
   });
   show(kit, harness, pixels);
}

/* Triangles with adjacency: the shader draws each base triangle (vertices 0, 2, 4) in the
 * colour of its adjacent vertex 1, then a small triangle at adjacent vertex 5 in that
 * vertex's colour, so that every one of the six inputs shows. */
const char *const adjacency_source = R"(#version 330 core
layout(triangles_adjacency) in;
layout(triangle_strip, max_vertices = 6) out;
in vec4 v_colour[];
flat out vec4 g_colour;
void emit(vec2 grid, vec4 colour)
{
   gl_Position = vec4(grid / 32.0 - 1.0, 0.0, 1.0);
   g_colour = colour;
   EmitVertex();
}
void main()
{
   emit(gl_in[0].gl_Position.xy, v_colour[1]);
   emit(gl_in[2].gl_Position.xy, v_colour[1]);
   emit(gl_in[4].gl_Position.xy, v_colour[1]);
   EndPrimitive();
   vec2 q = gl_in[5].gl_Position.xy;
   emit(q, v_colour[5]);
   emit(q + vec2(5.0 + 3.0 / 64.0, 1.0 + 7.0 / 64.0), v_colour[5]);
   emit(q + vec2(2.0 + 1.0 / 64.0, 6.0 + 5.0 / 64.0), v_colour[5]);
}
)";

void draw_adjacency(SceneKit &kit)
{
   const GLuint harness = bound_framebuffer();
   const Bytes pixels = draw_in_desktop_gl(kit, 3, 3, false, [&](SceneKit &desktop) {
      SceneKit::clear_colour(night);
      glClear(GL_COLOR_BUFFER_BIT);
      use_geometry_program(adjacency_source);
      desktop.coloured_vertices({
         {at(2, 5), at(2, 9), paper},  {at(63, 1), at(63, 3), red},   {at(29, 3), at(4, 27), paper},
         {at(0, 5), at(63, 7), paper}, {at(5, 45), at(28, 1), paper}, {at(40, 3), at(40, 9), green},
         {at(34, 5), at(2, 7), paper}, {at(20, 1), at(60, 3), blue},  {at(61, 3), at(4, 11), paper},
         {at(2, 3), at(44, 7), paper}, {at(35, 9), at(29, 3), paper}, {at(50, 1), at(50, 5), amber},
      });
      glDrawArrays(GL_TRIANGLES_ADJACENCY_, 0, 12);
   });
   show(kit, harness, pixels);
}

/* A point output and several invocations (desktop GL 4.0): each triangle's corners become
 * points 4 units wide (gl_PointSize from the geometry shader, centred on whole grid units so
 * that their edges fall between pixel centres), and a second program runs three invocations
 * per triangle, each drawing it moved 20 units right per gl_InvocationID in a colour of its
 * own (the copies do not overlap: GL leaves the invocations' order open). */
const char *const points_source = R"(#version 330 core
layout(triangles) in;
layout(points, max_vertices = 3) out;
in vec4 v_colour[];
flat out vec4 g_colour;
uniform float u_point_size;
void main()
{
   for (int i = 0; i < 3; i++) {
      gl_Position = vec4(gl_in[i].gl_Position.xy / 32.0 - 1.0, 0.0, 1.0);
      gl_PointSize = u_point_size;
      g_colour = v_colour[i];
      EmitVertex();
   }
}
)";

const char *const invocations_source = R"(#version 400 core
layout(triangles, invocations = 3) in;
layout(triangle_strip, max_vertices = 3) out;
in vec4 v_colour[];
flat out vec4 g_colour;
void main()
{
   vec4 colour = vec4(v_colour[0].rgb * float(gl_InvocationID + 1) / 3.0, 1.0);
   colour = floor(colour * 255.0 + 0.5) / 255.0;
   for (int i = 0; i < 3; i++) {
      vec2 grid = gl_in[i].gl_Position.xy + vec2(20.0 * float(gl_InvocationID), 0.0);
      gl_Position = vec4(grid / 32.0 - 1.0, 0.0, 1.0);
      g_colour = colour;
      EmitVertex();
   }
}
)";

void draw_points_and_invocations(SceneKit &kit)
{
   constexpr GLenum GL_PROGRAM_POINT_SIZE_ = 0x8642;
   const GLuint harness = bound_framebuffer();
   const Bytes pixels = draw_in_desktop_gl(kit, 4, 0, false, [&](SceneKit &desktop) {
      SceneKit::clear_colour(night);
      glClear(GL_COLOR_BUFFER_BIT);
      glEnable(GL_PROGRAM_POINT_SIZE_);
      use_geometry_program(points_source);
      GLint program = 0;
      glGetIntegerv(GL_CURRENT_PROGRAM, &program);
      glUniform1f(glGetUniformLocation(GLuint(program), "u_point_size"), 4.0f * float(desktop.width()) / grid_size);
      desktop.coloured_vertices({
         {6, 40, red}, {26, 44, green}, {12, 58, blue}, {36, 42, amber}, {58, 48, teal}, {44, 60, violet},
      });
      glDrawArrays(GL_TRIANGLES, 0, 6);
      use_geometry_program(invocations_source);
      desktop.coloured_vertices({
         {at(2, 5), at(4, 9), red}, {at(17, 3), at(6, 27), paper}, {at(5, 45), at(30, 1), paper},
      });
      glDrawArrays(GL_TRIANGLES, 0, 3);
   });
   show(kit, harness, pixels);
}

/* Transform feedback of a geometry shader's output (desktop GL 3.3 core): r600g's copy shader
 * writes the captured outputs (MEM_STREAM), the VGT converts the emitted strips to triangles.
 * Points become squares (left half), captured as triangles, then replayed by a plain vertex
 * shader moved 32 units right with their colours' channels rotated. */
const char *const replay_vertex_source = R"(#version 330 core
layout(location = 0) in vec4 a_position;
layout(location = 1) in vec4 a_colour;
flat out vec4 g_colour;
void main()
{
   gl_Position = a_position + vec4(1.0, 0.0, 0.0, 0.0);
   g_colour = a_colour.bgra;
}
)";

void draw_feedback(SceneKit &kit)
{
   const GLuint harness = bound_framebuffer();
   const Bytes pixels = draw_in_desktop_gl(kit, 3, 3, false, [&](SceneKit &desktop) {
      SceneKit::clear_colour(night);
      glClear(GL_COLOR_BUFFER_BIT);
      use_geometry_program(points_to_quads_source);
      GLint program = 0;
      glGetIntegerv(GL_CURRENT_PROGRAM, &program);
      const char *varyings[] = {"gl_Position", "g_colour"};
      glTransformFeedbackVaryings(GLuint(program), 2, varyings, GL_INTERLEAVED_ATTRIBS);
      glLinkProgram(GLuint(program));
      GLint linked = GL_FALSE;
      glGetProgramiv(GLuint(program), GL_LINK_STATUS, &linked);
      if (!linked)
         throw Failure("the geometry program did not link with its transform feedback varyings");
      glUseProgram(GLuint(program));
      constexpr int points = 3, vertices = points * 6;
      const std::vector<float> zeros(vertices * 8, 0.0f);
      const GLuint captured = desktop.buffer(GL_TRANSFORM_FEEDBACK_BUFFER, zeros.data(), zeros.size() * sizeof(float));
      glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, captured);
      desktop.coloured_vertices({{8, 10, red}, {20, 30, green}, {10, 50, amber}});
      glBeginTransformFeedback(GL_TRIANGLES);
      glDrawArrays(GL_POINTS, 0, points);
      glEndTransformFeedback();

      const GLuint replay = glCreateProgram();
      const GLuint shaders[] = {compile(GL_VERTEX_SHADER, replay_vertex_source),
                                compile(GL_FRAGMENT_SHADER, fragment_source)};
      for (GLuint shader : shaders) {
         glAttachShader(replay, shader);
         glDeleteShader(shader);
      }
      glLinkProgram(replay);
      glGetProgramiv(replay, GL_LINK_STATUS, &linked);
      if (!linked)
         throw Failure("the replay program did not link");
      glUseProgram(replay);
      desktop.vertex_array();
      glBindBuffer(GL_ARRAY_BUFFER, captured);
      glEnableVertexAttribArray(0);
      glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 8 * sizeof(float), nullptr);
      glEnableVertexAttribArray(1);
      glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 8 * sizeof(float), reinterpret_cast<const void *>(4 * sizeof(float)));
      glDrawArrays(GL_TRIANGLES, 0, vertices);
   });
   show(kit, harness, pixels);
}

const Scene scenes[] = {
   {"gs_points_to_quads", "a geometry shader expanding points into squares (desktop GL 3.3 core)",
    draw_points_to_quads},
   {"gs_primitive_colours",
    "a geometry shader passing triangles and a strip through, coloured by gl_PrimitiveIDIn (desktop GL 3.3 core)",
    draw_primitive_colours},
   {"gs_strips", "a geometry shader emitting two strips per point with EndPrimitive (desktop GL 3.3 core)",
    draw_strips},
   {"gs_adjacency", "a geometry shader reading all six vertices of triangles with adjacency (desktop GL 3.3 core)",
    draw_adjacency},
   {"gs_points_invocations",
    "a geometry shader emitting sized points, and one run three times per triangle (desktop GL 4.0 core)",
    draw_points_and_invocations},
   {"gs_feedback", "transform feedback of a geometry shader's squares, replayed moved right (desktop GL 3.3 core)",
    draw_feedback},
};

} // namespace

std::span<const Scene> geometry_scenes()
{
   return scenes;
}

} // namespace terakan::gl_scenes
