/* Transform feedback scenes (GLES 3.0): a vertex shader's outputs are captured into buffers
 * (r600g: the VS's MEM_STREAM exports and the VGT's streamout), then drawn again as vertices,
 * so the picture shows what was captured. The captured values are exact (positions on the
 * grid divided by 32, colours k/255, flat), so both drivers replay the same geometry.
 *
 * Every captured triangle is replayed in the right half of the picture (the capture shader
 * moves its copy 32 units right) with its colour's channels rotated (bgra), so that a replayed
 * triangle cannot be mistaken for one the capture pass drew itself. */
#include "scenes.h"

#include <EGL/egl.h>
#include <GLES3/gl31.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <vector>

#include "failure.h"
#include "scene_kit.h"
#include "scene_tools.h"

namespace terakan::gl_scenes {

namespace {

/* The capture shader: draws the vertex where it is (colour as given) and outputs a copy moved
 * by u_shift grid units (v_moved, a clip-space position) and its colour. v_moved_xy and
 * v_colour_rgb are the same values with fewer components, for captures that pack them. */
const char *capture_vertex_shader = R"(#version 300 es
layout(location = 0) in vec2 a_position;
layout(location = 1) in vec4 a_colour;
uniform vec2 u_shift;
flat out vec4 v_colour;
out vec4 v_moved;
out vec2 v_moved_xy;
out vec3 v_colour_rgb;
void main()
{
   gl_Position = vec4(a_position / 32.0 - 1.0, 0.0, 1.0);
   gl_PointSize = 4.0;
   v_colour = a_colour;
   v_moved = vec4((a_position + u_shift) / 32.0 - 1.0, 0.0, 1.0);
   v_moved_xy = v_moved.xy;
   v_colour_rgb = a_colour.rgb;
}
)";

/* The replay shader: clip-space positions and colours straight from the captured buffers
 * (a vec2 position gets z 0 and w 1, a vec3 colour alpha 1, as attribute defaults do). */
const char *replay_vertex_shader = R"(#version 300 es
layout(location = 0) in vec4 a_position;
layout(location = 1) in vec4 a_colour;
flat out vec4 v_colour;
void main()
{
   gl_Position = a_position;
   v_colour = a_colour.bgra;
}
)";

/* A program from the capture shaders that records `varyings` in `mode` (the program is
 * linked again once the varyings are named; SceneKit::program's shader objects stay
 * attached). Left in use. */
GLuint capture_program(SceneKit &kit, std::initializer_list<const char *> varyings, GLenum mode)
{
   const GLuint program = kit.program(capture_vertex_shader, flat_colour_fragment_source());
   const std::vector<const char *> names(varyings);
   glTransformFeedbackVaryings(program, GLsizei(names.size()), names.data(), mode);
   glLinkProgram(program);
   GLint linked = GL_FALSE;
   glGetProgramiv(program, GL_LINK_STATUS, &linked);
   if (!linked)
      throw Failure("the capture program did not link with its transform feedback varyings");
   glUseProgram(program);
   glUniform2f(glGetUniformLocation(program, "u_shift"), 32.0f, 0.0f);
   return program;
}

/* A buffer of `bytes` bytes filled with `fill` (or zeros), left bound to the transform
 * feedback target. */
GLuint feedback_buffer(SceneKit &kit, size_t bytes, const std::vector<float> &fill = {})
{
   std::vector<float> data(bytes / sizeof(float), 0.0f);
   std::copy(fill.begin(), fill.begin() + std::min(fill.size(), data.size()), data.begin());
   return kit.buffer(GL_TRANSFORM_FEEDBACK_BUFFER, data.data(), bytes);
}

/* Draws `count` captured vertices as `mode` from the buffers: positions (`position_size`
 * floats at `position_offset`) and colours (`colour_size` floats), each with its stride. */
struct CapturedLayout {
   GLuint position_buffer;
   int position_size;
   size_t position_offset, position_stride;
   GLuint colour_buffer;
   int colour_size;
   size_t colour_offset, colour_stride;
};

/* The replay's program and attributes, without the draw. */
void prepare_replay(SceneKit &kit, const CapturedLayout &layout)
{
   kit.program(replay_vertex_shader, flat_colour_fragment_source());
   kit.vertex_array();
   glBindBuffer(GL_ARRAY_BUFFER, layout.position_buffer);
   glEnableVertexAttribArray(0);
   glVertexAttribPointer(0, layout.position_size, GL_FLOAT, GL_FALSE, GLsizei(layout.position_stride),
                         reinterpret_cast<const void *>(layout.position_offset));
   glBindBuffer(GL_ARRAY_BUFFER, layout.colour_buffer);
   glEnableVertexAttribArray(1);
   glVertexAttribPointer(1, layout.colour_size, GL_FLOAT, GL_FALSE, GLsizei(layout.colour_stride),
                         reinterpret_cast<const void *>(layout.colour_offset));
}

void replay(SceneKit &kit, const CapturedLayout &layout, GLenum mode, GLsizei count)
{
   prepare_replay(kit, layout);
   glDrawArrays(mode, 0, count);
}

/* Two triangles (left half), one with a colour per vertex. Colours are flat (in GLES the last
 * vertex's): smooth colours round differently between drivers at interpolation ties, and a
 * replay showing the last vertex's colour shows that the vertices were captured in order.
 * Every slanted edge has differences dx, dy divisible by different powers of two, so it
 * passes through no pixel centre at any picture size that is a multiple of the grid. */
const std::vector<ColouredVertex> left_triangles = {
   {4, 6, amber}, {28, 10, amber}, {10, 30, amber},
   {6, 36, teal}, {26, 38, violet}, {15, 60, blue},
};

void draw_tf_interleaved(SceneKit &kit)
{
   SceneKit::clear_colour(night);
   glClear(GL_COLOR_BUFFER_BIT);
   /* Capture v_moved and v_colour interleaved (8 floats a vertex) from two draws, with a
    * paused stretch between them: the paused draw (a red triangle, drawn but not recorded)
    * must leave no trace, and the second draw must append right after the first (r600g stores
    * the filled size at the pause and reads it back at the resume). */
   const GLuint buffer = feedback_buffer(kit, 6 * 8 * sizeof(float));
   GLuint feedback = 0;
   glGenTransformFeedbacks(1, &feedback);
   glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, feedback);
   glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buffer);
   capture_program(kit, {"v_moved", "v_colour"}, GL_INTERLEAVED_ATTRIBS);
   kit.coloured_vertices(std::span<const ColouredVertex>(left_triangles));
   const std::vector<ColouredVertex> paused = {{18, 44, red}, {30, 45, red}, {26, 56, red}};
   glBeginTransformFeedback(GL_TRIANGLES);
   glDrawArrays(GL_TRIANGLES, 0, 3);
   glPauseTransformFeedback();
   kit.coloured_vertices(std::span<const ColouredVertex>(paused));
   glDrawArrays(GL_TRIANGLES, 0, 3);
   kit.coloured_vertices(std::span<const ColouredVertex>(left_triangles));
   glResumeTransformFeedback();
   glDrawArrays(GL_TRIANGLES, 3, 3);
   glEndTransformFeedback();
   glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
   glDeleteTransformFeedbacks(1, &feedback);
   replay(kit, {buffer, 4, 0, 32, buffer, 4, 16, 32}, GL_TRIANGLES, 6);
}

void draw_tf_separate_discard(SceneKit &kit)
{
   SceneKit::clear_colour(night);
   glClear(GL_COLOR_BUFFER_BIT);
   /* Capture with GL_RASTERIZER_DISCARD (the capture pass draws nothing: the left half stays
    * clear), into two buffers: the moved position as a vec2 (2 floats a vertex) and the colour
    * as a vec3 (3 floats), packed. */
   const GLuint positions = feedback_buffer(kit, 6 * 2 * sizeof(float));
   const GLuint colours = feedback_buffer(kit, 6 * 3 * sizeof(float));
   glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, positions);
   glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 1, colours);
   capture_program(kit, {"v_moved_xy", "v_colour_rgb"}, GL_SEPARATE_ATTRIBS);
   kit.coloured_vertices(std::span<const ColouredVertex>(left_triangles));
   glEnable(GL_RASTERIZER_DISCARD);
   glBeginTransformFeedback(GL_TRIANGLES);
   glDrawArrays(GL_TRIANGLES, 0, 6);
   glEndTransformFeedback();
   glDisable(GL_RASTERIZER_DISCARD);
   glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 0);
   glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 1, 0);
   replay(kit, {positions, 2, 0, 8, colours, 3, 0, 12}, GL_TRIANGLES, 6);
}

void draw_tf_points(SceneKit &kit)
{
   SceneKit::clear_colour(night);
   glClear(GL_COLOR_BUFFER_BIT);
   /* Six GL_POINTS (drawn as 4-pixel points on the left) are captured and replayed as two
    * triangles on the right. */
   const GLuint buffer = feedback_buffer(kit, 6 * 8 * sizeof(float));
   glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buffer);
   capture_program(kit, {"v_moved", "v_colour"}, GL_INTERLEAVED_ATTRIBS);
   kit.coloured_vertices(std::span<const ColouredVertex>(left_triangles));
   glBeginTransformFeedback(GL_POINTS);
   glDrawArrays(GL_POINTS, 0, 6);
   glEndTransformFeedback();
   glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 0);
   replay(kit, {buffer, 4, 0, 32, buffer, 4, 16, 32}, GL_TRIANGLES, 6);
}

void draw_tf_overflow_query(SceneKit &kit)
{
   SceneKit::clear_colour(night);
   glClear(GL_COLOR_BUFFER_BIT);
   /* Five triangles are captured into a range with room for three and a half (8 floats a
    * vertex, 24 a triangle: 84 floats). GL records whole primitives only: the first three
    * land, the rest are dropped, and the fourth slot keeps what the buffer held before (a
    * grey triangle placed there in advance, inside the buffer but past the range). The
    * GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN query's answer is drawn as a row of six squares
    * along the top, green for each primitive written. */
   const std::array<std::array<float, 2>, 5> corners = {{{2, 2}, {14, 4}, {2, 26}, {16, 28}, {4, 40}}};
   std::vector<ColouredVertex> triangles;
   const Rgba8 colours[5] = {amber, teal, violet, blue, red};
   for (int t = 0; t < 5; t++) {
      const float x = corners[size_t(t)][0], y = corners[size_t(t)][1];
      triangles.push_back({x, y, colours[t]});
      triangles.push_back({x + 14, y + 1, colours[t]});
      triangles.push_back({x + 4, y + 10, colours[t]});
   }
   /* The sentinel: a grey triangle at the fourth slot, in the replay shader's terms (clip
    * space, colour read as bgra). */
   std::vector<float> fill(4 * 24, 0.0f);
   const float sentinel[3][2] = {{50, 44}, {62, 46}, {55, 56}};
   for (int v = 0; v < 3; v++) {
      float *out = &fill[size_t(3 * 24 + 8 * v)];
      out[0] = sentinel[v][0] / 32.0f - 1.0f, out[1] = sentinel[v][1] / 32.0f - 1.0f, out[2] = 0.0f, out[3] = 1.0f;
      to_floats(grey, out + 4);
   }
   const GLuint buffer = feedback_buffer(kit, fill.size() * sizeof(float), fill);
   glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buffer, 0, 84 * sizeof(float));
   capture_program(kit, {"v_moved", "v_colour"}, GL_INTERLEAVED_ATTRIBS);
   kit.coloured_vertices(std::span<const ColouredVertex>(triangles));
   GLuint query = 0;
   glGenQueries(1, &query);
   glBeginQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, query);
   glBeginTransformFeedback(GL_TRIANGLES);
   glDrawArrays(GL_TRIANGLES, 0, GLsizei(triangles.size()));
   glEndTransformFeedback();
   glEndQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN);
   glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 0);
   GLuint written = 0;
   glGetQueryObjectuiv(query, GL_QUERY_RESULT, &written);
   glDeleteQueries(1, &query);
   replay(kit, {buffer, 4, 0, 32, buffer, 4, 16, 32}, GL_TRIANGLES, 12);

   std::vector<ColouredVertex> squares;
   for (GLuint i = 0; i < 6; i++) {
      const std::vector<ColouredVertex> one = square(float(2 + 10 * i), 57, 6, i < written ? green : grey);
      squares.insert(squares.end(), one.begin(), one.end());
   }
   draw_at(kit, kit.coloured_program(Shading::flat), squares, 0.0f);
}

void draw_tf_draw_auto(SceneKit &kit)
{
   /* Desktop GL 4.5: the left triangles captured (drawn too) into a transform feedback object,
    * then replayed by glDrawTransformFeedback, whose vertex count the GPU takes from the
    * stored filled size (r600g: COPY_DW into VGT_STRMOUT_DRAW_OPAQUE_BUFFER_FILLED_SIZE and
    * DRAW_INDEX_AUTO with USE_OPAQUE). The capture pauses for a red triangle, which must not
    * count. */
   const GLuint harness = bound_framebuffer();
   const Bytes pixels = draw_in_desktop_gl(kit, 4, 5, false, [&](SceneKit &desktop) {
      auto draw_feedback =
         reinterpret_cast<void (*)(GLenum, GLuint)>(eglGetProcAddress("glDrawTransformFeedback"));
      if (!draw_feedback)
         throw Failure("eglGetProcAddress(glDrawTransformFeedback) returned nothing");
      SceneKit::clear_colour(night);
      glClear(GL_COLOR_BUFFER_BIT);
      const GLuint buffer = feedback_buffer(desktop, 8 * 8 * sizeof(float));
      GLuint feedback = 0;
      glGenTransformFeedbacks(1, &feedback);
      glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, feedback);
      glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buffer);
      capture_program(desktop, {"v_moved", "v_colour"}, GL_INTERLEAVED_ATTRIBS);
      desktop.coloured_vertices(std::span<const ColouredVertex>(left_triangles));
      glBeginTransformFeedback(GL_TRIANGLES);
      glDrawArrays(GL_TRIANGLES, 0, 3);
      glPauseTransformFeedback();
      const std::vector<ColouredVertex> paused = {{18, 44, red}, {30, 45, red}, {26, 56, red}};
      desktop.coloured_vertices(std::span<const ColouredVertex>(paused));
      glDrawArrays(GL_TRIANGLES, 0, 3);
      desktop.coloured_vertices(std::span<const ColouredVertex>(left_triangles));
      glResumeTransformFeedback();
      glDrawArrays(GL_TRIANGLES, 3, 3);
      glEndTransformFeedback();
      glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
      prepare_replay(desktop, {buffer, 4, 0, 32, buffer, 4, 16, 32});
      draw_feedback(GL_TRIANGLES, feedback);
      glDeleteTransformFeedbacks(1, &feedback);
   });
   show(kit, harness, pixels);
}

const Scene scenes[] = {
   {"tf_interleaved", "transform feedback of two varyings interleaved, paused and resumed, replayed as triangles",
    draw_tf_interleaved},
   {"tf_separate_discard", "transform feedback into separate buffers (vec2, vec3) under GL_RASTERIZER_DISCARD",
    draw_tf_separate_discard},
   {"tf_points", "GL_POINTS captured by transform feedback, replayed as triangles", draw_tf_points},
   {"tf_overflow_query", "transform feedback overflowing its range, GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN drawn as squares",
    draw_tf_overflow_query},
   {"tf_draw_auto", "desktop GL: transform feedback paused and resumed, replayed by glDrawTransformFeedback",
    draw_tf_draw_auto},
};

} // namespace

std::span<const Scene> streamout_scenes()
{
   return scenes;
}

} // namespace terakan::gl_scenes
