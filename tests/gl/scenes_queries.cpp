/* Desktop GL scenes: conditional rendering on occlusion queries, timer queries, and depth
 * clamping (GL_DEPTH_CLAMP, which GLES lacks; r600g turns the near and far clip planes off
 * with PA_CL_CLIP_CNTL.ZCLIP_NEAR_DISABLE/ZCLIP_FAR_DISABLE and relies on the DB clamping
 * depth to the viewport's range).
 *
 * GLES has neither glBeginConditionalRender nor GL_TIME_ELAPSED in core, so these scenes draw
 * in a desktop GL 4.5 core context made beside the harness's GLES one on the same EGL display
 * (as logic_ops in scenes_colour.cpp does; both r600g and llvmpipe give 4.5 core, which has
 * GL_QUERY_WAIT_INVERTED), read their pixels back and show them in the harness's framebuffer
 * through an RGBA8 texture and texelFetch.
 *
 * On r600g a render condition becomes SET_PREDICATION packets (one per query result block,
 * CONTINUE on all but the first) and the predicate bit on every draw packet, clears included
 * (they are draws of u_blitter); the simulator's command processor decides from the ZPASS
 * counts in memory which draws run. */
#include "scenes.h"

#include <EGL/egl.h>
#include <GLES3/gl31.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "failure.h"
#include "scene_kit.h"
#include "scene_tools.h"

namespace terakan::gl_scenes {

namespace {

/* Desktop GL enums and entry points the GLES headers lack (values from the GL 4.5 registry). */
constexpr GLenum GL_DEPTH_CLAMP_ = 0x864F;
constexpr GLenum GL_SAMPLES_PASSED_ = 0x8914, GL_QUERY_WAIT_ = 0x8E13, GL_QUERY_NO_WAIT_ = 0x8E14,
                 GL_QUERY_WAIT_INVERTED_ = 0x8E17, GL_TIME_ELAPSED_ = 0x88BF, GL_TIMESTAMP_ = 0x8E28;
using BeginConditionalRender = void (*)(GLuint query, GLenum mode);
using EndConditionalRender = void (*)();
using QueryCounter = void (*)(GLuint query, GLenum target);
using GetQueryObjectui64v = void (*)(GLuint query, GLenum name, GLuint64 *value);

template <typename Function> Function desktop_entry(const char *name)
{
   auto function = reinterpret_cast<Function>(eglGetProcAddress(name));
   if (!function)
      throw Failure(std::string("eglGetProcAddress(") + name + ") returned nothing");
   return function;
}

/* Runs draw in a desktop GL 4.5 core context (RGBA8 and DEPTH24_STENCIL8) with the flat
 * coloured program in use and slate as the clear colour, and shows the pixels it leaves in the
 * harness's framebuffer. */
void draw_in_desktop_scene(SceneKit &kit, const std::function<void(SceneKit &, GLuint)> &draw)
{
   const GLuint framebuffer = bound_framebuffer();
   const Bytes pixels = draw_in_desktop_gl(kit, 4, 5, true, [&](SceneKit &desktop) {
      const GLuint program = desktop.coloured_program(Shading::flat);
      SceneKit::clear_colour(slate);
      draw(desktop, program);
   });
   show(kit, framebuffer, pixels);
}

/* Four occlusion queries with known answers, then a 4x3 grid of cells each drawn under one
 * render condition: a square and a scissored clear (a small sky-blue corner) in every cell.
 *
 * The top strip holds a near paper occluder (left) and the queried triangles: `hidden` wholly
 * behind the occluder, `visible` (GL_SAMPLES_PASSED) beside it. `split_visible` and
 * `split_hidden` are each drawn in two halves with a glFlush between, which makes r600g
 * suspend and resume the query into a second result buffer, so the render condition on them
 * is a chain of two SET_PREDICATION packets, newest result first, the second with CONTINUE:
 * `split_visible`'s first half is visible and its second hidden (so only the CONTINUE packet
 * finds samples); both of `split_hidden`'s halves are hidden.
 *
 * Rows, bottom to top: GL_QUERY_WAIT, GL_QUERY_NO_WAIT (after every result has been read, so
 * that no driver may draw early for want of an answer), GL_QUERY_WAIT_INVERTED. Columns:
 * visible, hidden, split_visible, split_hidden. A cell's square is green where GL must draw
 * and red where it must not, so a red square anywhere is a skipped predicate gone wrong and
 * a missing green one a draw skipped wrongly. */
void draw_conditional_render(SceneKit &kit)
{
   draw_in_desktop_scene(kit, [](SceneKit &desktop, GLuint program) {
      const auto begin_conditional = desktop_entry<BeginConditionalRender>("glBeginConditionalRender");
      const auto end_conditional = desktop_entry<EndConditionalRender>("glEndConditionalRender");
      glClearDepthf(1.0f);
      glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
      glEnable(GL_DEPTH_TEST);
      glDepthFunc(GL_LESS);
      draw_at(desktop, program, {{1, 49, paper}, {31, 49, paper}, {31, 63, paper},
                                 {1, 49, paper}, {31, 63, paper}, {1, 63, paper}}, -0.5f);

      enum { visible, hidden, split_visible, split_hidden, query_count };
      GLuint queries[query_count];
      glGenQueries(query_count, queries);
      const std::vector<ColouredVertex> behind_occluder = {{4, 51, teal}, {14, 53, teal}, {6, 61, teal}};
      const std::vector<ColouredVertex> behind_occluder_2 = {{18, 51, amber}, {28, 53, amber}, {20, 61, amber}};
      glBeginQuery(GL_SAMPLES_PASSED_, queries[visible]);
      draw_at(desktop, program, {{34, 51, teal}, {46, 53, teal}, {36, 61, teal}}, 0.5f);
      glEndQuery(GL_SAMPLES_PASSED_);
      glBeginQuery(GL_ANY_SAMPLES_PASSED, queries[hidden]);
      draw_at(desktop, program, behind_occluder, 0.5f);
      glEndQuery(GL_ANY_SAMPLES_PASSED);
      glBeginQuery(GL_ANY_SAMPLES_PASSED, queries[split_visible]);
      draw_at(desktop, program, {{50, 51, amber}, {62, 53, amber}, {52, 61, amber}}, 0.5f);
      glFlush();
      draw_at(desktop, program, behind_occluder_2, 0.5f);
      glEndQuery(GL_ANY_SAMPLES_PASSED);
      glBeginQuery(GL_ANY_SAMPLES_PASSED, queries[split_hidden]);
      draw_at(desktop, program, behind_occluder, 0.5f);
      glFlush();
      draw_at(desktop, program, behind_occluder_2, 0.5f);
      glEndQuery(GL_ANY_SAMPLES_PASSED);
      glDisable(GL_DEPTH_TEST);

      const GLenum modes[3] = {GL_QUERY_WAIT_, GL_QUERY_NO_WAIT_, GL_QUERY_WAIT_INVERTED_};
      for (int row = 0; row < 3; row++) {
         if (modes[row] == GL_QUERY_NO_WAIT_)
            for (const GLuint query : queries) {
               GLuint result = 0;
               glGetQueryObjectuiv(query, GL_QUERY_RESULT, &result);
            }
         for (int column = 0; column < query_count; column++) {
            const bool passed = column == visible || column == split_visible;
            const bool inverted = modes[row] == GL_QUERY_WAIT_INVERTED_;
            const float x = float(16 * column), y = float(16 * row);
            begin_conditional(queries[column], modes[row]);
            draw_at(desktop, program, square(x + 2, y + 2, 12, passed != inverted ? green : red), 0.0f);
            glEnable(GL_SCISSOR_TEST);
            desktop.scissor(int(x) + 10, int(y) + 10, 4, 4);
            SceneKit::clear_colour(sky);
            glClear(GL_COLOR_BUFFER_BIT);
            glDisable(GL_SCISSOR_TEST);
            end_conditional();
         }
      }
      glDeleteQueries(query_count, queries);
   });
}

/* GL_TIME_ELAPSED around a draw and two GL_TIMESTAMP counters around another: their values
 * differ between runs and drivers, so only the facts GL promises are drawn, as squares, green
 * where they hold and red where not: the elapsed time is above zero, the second timestamp is
 * later than the first, and each result is available once GL_QUERY_RESULT was read. */
void draw_timer_queries(SceneKit &kit)
{
   draw_in_desktop_scene(kit, [](SceneKit &desktop, GLuint program) {
      const auto query_counter = desktop_entry<QueryCounter>("glQueryCounter");
      const auto get_result64 = desktop_entry<GetQueryObjectui64v>("glGetQueryObjectui64v");
      glClear(GL_COLOR_BUFFER_BIT);
      GLuint queries[3];
      glGenQueries(3, queries);
      glBeginQuery(GL_TIME_ELAPSED_, queries[0]);
      draw_at(desktop, program, {{4, 36, teal}, {60, 40, teal}, {12, 60, teal}}, 0.0f);
      glEndQuery(GL_TIME_ELAPSED_);
      query_counter(queries[1], GL_TIMESTAMP_);
      draw_at(desktop, program, {{60, 38, amber}, {52, 62, amber}, {20, 60, amber}}, 0.0f);
      query_counter(queries[2], GL_TIMESTAMP_);
      GLuint64 values[3] = {};
      for (int q = 0; q < 3; q++)
         get_result64(queries[q], GL_QUERY_RESULT, &values[q]);
      bool available = true;
      for (const GLuint query : queries) {
         GLuint ready = 0;
         glGetQueryObjectuiv(query, GL_QUERY_RESULT_AVAILABLE, &ready);
         available = available && ready;
      }
      const bool facts[3] = {values[0] > 0, values[2] > values[1], available};
      for (int f = 0; f < 3; f++)
         draw_at(desktop, program, square(float(4 + 20 * f), 8, 16, facts[f] ? green : red), 0.0f);
      glDeleteQueries(3, queries);
   });
}

/* GL_ARB_pipeline_statistics_query (GL 4.6 and r600g's extension in 4.5): r600g samples the
 * counters with EVENT_WRITE SAMPLE_PIPELINESTAT at the query's begin and end (and starts
 * them with PIPELINESTAT_START). Four statistics Vulkan and GL pin down, queried at once (each
 * its own target) around two triangles inside the view volume and one beyond the far plane:
 * 9 vertices and 3 primitives submitted, 3 primitives into the clipper and 2 out. Each result
 * is drawn twice in the bottom half: as a square whose red byte is 20 times the value (so
 * that r600g's and llvmpipe's values are compared pixel for pixel) and as a square green where
 * it equals the expected count, red where not. */
void draw_pipeline_statistics(SceneKit &kit)
{
   draw_in_desktop_scene(kit, [](SceneKit &desktop, GLuint program) {
      const auto get_result64 = desktop_entry<GetQueryObjectui64v>("glGetQueryObjectui64v");
      constexpr GLenum targets[4] = {0x82EE /* VERTICES_SUBMITTED */, 0x82EF /* PRIMITIVES_SUBMITTED */,
                                     0x82F6 /* CLIPPING_INPUT_PRIMITIVES */, 0x82F7 /* CLIPPING_OUTPUT_PRIMITIVES */};
      constexpr GLuint64 expected[4] = {9, 3, 3, 2};
      glClear(GL_COLOR_BUFFER_BIT);
      GLuint queries[4];
      glGenQueries(4, queries);
      for (int q = 0; q < 4; q++)
         glBeginQuery(targets[q], queries[q]);
      draw_at(desktop, program, {{4, 36, teal}, {30, 40, teal}, {12, 60, teal}, {34, 36, amber}, {60, 38, amber}, {40, 62, amber}},
              0.0f);
      draw_at(desktop, program, {{4, 4, red}, {60, 4, red}, {30, 30, red}}, 1.5f); /* beyond the far plane */
      for (int q = 0; q < 4; q++)
         glEndQuery(targets[q]);
      for (int q = 0; q < 4; q++) {
         GLuint64 value = ~GLuint64(0);
         get_result64(queries[q], GL_QUERY_RESULT, &value);
         const Rgba8 shade{uint8_t(std::min<GLuint64>(value, 12) * 20), 128, 200, 255};
         draw_at(desktop, program, square(float(4 + 15 * q), 18, 12, shade), 0.0f);
         draw_at(desktop, program, square(float(4 + 15 * q), 4, 12, value == expected[q] ? green : red), 0.0f);
      }
      glDeleteQueries(4, queries);
   });
}

/* GL_DEPTH_CLAMP: a flat teal square at depth 0.6 (window 0.8) on the right, then, with
 * GL_LEQUAL against it and the cleared 1.0, two triangles reaching beyond the near plane
 * (z < -1) and the far plane (z > 1). Clamped, they are not cut: their near parts get depth 0
 * and pass everywhere, their far parts depth 1 and pass over the background (1.0 <= 1.0) but
 * not over the square. Without the clamp the same triangles would be cut along both planes. */
void draw_depth_clamp(SceneKit &kit)
{
   draw_in_desktop_scene(kit, [](SceneKit &desktop, GLuint program) {
      glClearDepthf(1.0f);
      glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
      glEnable(GL_DEPTH_TEST);
      glDepthFunc(GL_LEQUAL);
      draw_at(desktop, program, {{34, 2, teal}, {62, 2, teal}, {62, 62, teal},
                                 {34, 2, teal}, {62, 62, teal}, {34, 62, teal}}, 0.6f);
      glEnable(GL_DEPTH_CLAMP_);
      const DepthVertex vertices[] = {
         {4, 6, -1.7f, amber}, {58, 12, 1.6f, amber}, {14, 50, 0.1f, amber},
         {60, 58, 1.9f, violet}, {6, 40, -1.4f, violet}, {50, 24, -0.4f, violet},
      };
      depth_vertices_program(desktop, vertices);
      glDrawArrays(GL_TRIANGLES, 0, 6);
      glDisable(GL_DEPTH_CLAMP_);
      glDisable(GL_DEPTH_TEST);
   });
}

/* glPolygonMode, which GLES lacks: r600g sets PA_SU_SC_MODE_CNTL.POLY_MODE with the
 * POINT or LINE primitive type per face, and POLY_OFFSET_PARA_ENABLE with
 * GL_POLYGON_OFFSET_LINE/POINT. Top left, a triangle's edges (amber); top right, a strip of
 * four triangles' edges, shared ones drawn twice (green); bottom left, a teal triangle filled
 * and then outlined in violet at the same depth under GL_LESS with GL_POLYGON_OFFSET_LINE, so
 * only an offset makes the outline pass; beside it a sky triangle filled and a red outline
 * over it without the offset, of which only the half-pixel fringe outside the fill passes;
 * bottom right, a fan's vertices as points
 * (paper). Every vertex is on a pixel centre and every edge's slope along its major axis has
 * an odd denominator, so no pixel centre is at half a pixel from an edge: there GL's
 * diamond-exit rule (llvmpipe) and the parallelogram of the simulator cover the same pixels. */
void draw_polygon_mode(SceneKit &kit)
{
   draw_in_desktop_scene(kit, [](SceneKit &desktop, GLuint program) {
      constexpr GLenum GL_POINT_ = 0x1B00, GL_LINE_ = 0x1B01, GL_FILL_ = 0x1B02, GL_POLYGON_OFFSET_LINE_ = 0x2A02;
      const auto polygon_mode = desktop_entry<void (*)(GLenum face, GLenum mode)>("glPolygonMode");
      glClearDepthf(1.0f);
      glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
      polygon_mode(GL_FRONT_AND_BACK, GL_LINE_);
      draw_at(desktop, program, {{4.5f, 4.5f, amber}, {27.5f, 9.5f, amber}, {12.5f, 28.5f, amber}}, 0.0f);
      const ColouredVertex strip[] = {{33.5f, 4.5f, green}, {34.5f, 27.5f, green}, {46.5f, 7.5f, green},
                                      {47.5f, 24.5f, green}, {61.5f, 3.5f, green}, {59.5f, 28.5f, green}};
      desktop.coloured_vertices(strip);
      glDrawArrays(GL_TRIANGLE_STRIP, 0, 6);
      glEnable(GL_DEPTH_TEST);
      glDepthFunc(GL_LESS);
      polygon_mode(GL_FRONT_AND_BACK, GL_FILL_);
      draw_at(desktop, program, {{3.5f, 35.5f, teal}, {28.5f, 37.5f, teal}, {14.5f, 58.5f, teal}}, 0.25f);
      draw_at(desktop, program, {{37.5f, 37.5f, sky}, {50.5f, 40.5f, sky}, {40.5f, 53.5f, sky}}, 0.25f);
      polygon_mode(GL_FRONT_AND_BACK, GL_LINE_);
      glEnable(GL_POLYGON_OFFSET_LINE_);
      glPolygonOffset(0.0f, -4.0f);
      draw_at(desktop, program, {{3.5f, 35.5f, violet}, {28.5f, 37.5f, violet}, {14.5f, 58.5f, violet}}, 0.25f);
      glDisable(GL_POLYGON_OFFSET_LINE_);
      draw_at(desktop, program, {{37.5f, 37.5f, red}, {50.5f, 40.5f, red}, {40.5f, 53.5f, red}}, 0.25f);
      glDisable(GL_DEPTH_TEST);
      polygon_mode(GL_FRONT_AND_BACK, GL_POINT_);
      const ColouredVertex fan[] = {{56.5f, 48.5f, paper}, {62.5f, 38.5f, paper}, {61.5f, 60.5f, paper},
                                    {48.5f, 61.5f, paper}, {44.5f, 57.5f, paper}};
      desktop.coloured_vertices(fan);
      glDrawArrays(GL_TRIANGLE_FAN, 0, 5);
      polygon_mode(GL_FRONT_AND_BACK, GL_FILL_);
   });
}

/* GL_ARB_shader_stencil_export: the pixel shader's gl_FragStencilRefARB is the stencil
 * reference of its fragment, for the test and for REPLACE (r600g: PIXEL 61's y with
 * DB_SHADER_CONTROL.STENCIL_REF_EXPORT_ENABLE). The stencil is cleared to 3; a triangle exports
 * (cell.x + 3 cell.y) mod 8 for each 8x8 cell under GREATER with REPLACE, so only cells whose
 * exported value is above 3 take it; then eight full-screen draws, one per value under EQUAL,
 * paint each value its own colour. */
void draw_stencil_export(SceneKit &kit)
{
   const GLuint framebuffer = bound_framebuffer();
   const Bytes pixels = draw_in_desktop_gl(kit, 4, 5, true, [&](SceneKit &desktop) {
      const char *vertex = R"(#version 450 core
layout(location = 0) in vec2 a_position;
layout(location = 1) in vec4 a_colour;
layout(location = 0) flat out vec4 v_colour;
void main()
{
   gl_Position = vec4(a_position / 32.0 - 1.0, 0.0, 1.0);
   v_colour = a_colour;
}
)";
      const GLuint exporting = desktop.program(vertex, R"(#version 450 core
#extension GL_ARB_shader_stencil_export : require
layout(location = 0) flat in vec4 v_colour;
layout(location = 0) out vec4 colour;
void main()
{
   ivec2 cell = ivec2(gl_FragCoord.xy) / 8;
   gl_FragStencilRefARB = (cell.x + 3 * cell.y) % 8;
   colour = v_colour;
}
)");
      const GLuint painting = desktop.program(vertex, R"(#version 450 core
layout(location = 0) flat in vec4 v_colour;
layout(location = 0) out vec4 colour;
void main() { colour = v_colour; }
)");
      SceneKit::clear_colour(slate);
      glClearStencil(3);
      glClear(GL_STENCIL_BUFFER_BIT);
      glEnable(GL_STENCIL_TEST);
      glStencilMask(0xff);
      glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
      glUseProgram(exporting);
      glStencilFunc(GL_GREATER, 0, 0xff); /* the reference is the shader's */
      glStencilOp(GL_KEEP, GL_KEEP, GL_REPLACE);
      desktop.coloured_vertices({{2.5f, 2.5f, paper}, {62.5f, 6.5f, paper}, {9.5f, 62.5f, paper}});
      glDrawArrays(GL_TRIANGLES, 0, 3);
      glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
      glUseProgram(painting);
      glStencilOp(GL_KEEP, GL_KEEP, GL_KEEP);
      const Rgba8 palette[8] = {night, grey, paper, red, green, blue, amber, violet};
      for (int value = 0; value < 8; value++) {
         glStencilFunc(GL_EQUAL, value, 0xff);
         const Rgba8 c = palette[value];
         desktop.coloured_vertices({{0, 0, c}, {64, 0, c}, {0, 64, c}, {64, 0, c}, {64, 64, c}, {0, 64, c}});
         glDrawArrays(GL_TRIANGLES, 0, 6);
      }
      glDisable(GL_STENCIL_TEST);
   });
   show(kit, framebuffer, pixels);
}

/* GL_AMD_vertex_shader_viewport_index: the vertex shader writes gl_ViewportIndex, r600g puts it
 * in the misc vector's w (POS 61) with PA_CL_VS_OUT_CNTL.USE_VTX_VIEWPORT_INDX and programs all
 * 16 viewports and viewport scissors; the PA takes each primitive's viewport and scissor from
 * its provoking vertex. Four viewports of different sizes (one not square) with their own
 * scissors (two cut their viewport). First one triangle drawn four times, the instance choosing
 * the viewport and the colour; then, in one draw, four small triangles each sent to the
 * viewport gl_VertexID / 3 names, so the viewport changes between primitives of a draw. */
void draw_viewport_index(SceneKit &kit)
{
   const char *vertex_source = R"(#version 450
#extension GL_AMD_vertex_shader_viewport_index : require
layout(location = 0) in vec2 a_position;
layout(location = 1) in vec4 a_colour;
uniform int u_per_triangle;
flat out vec4 v_colour;
void main()
{
   const vec4 palette[4] = vec4[4](vec4(0.8, 0.6, 0.2, 1.0), vec4(0.2, 0.6, 0.6, 1.0),
                                   vec4(0.6, 0.2, 0.8, 1.0), vec4(0.2, 0.8, 0.2, 1.0));
   int index = u_per_triangle != 0 ? gl_VertexID / 3 : gl_InstanceID;
   gl_ViewportIndex = index;
   gl_Position = vec4(a_position / 32.0 - 1.0, 0.0, 1.0);
   v_colour = u_per_triangle != 0 ? a_colour : palette[index];
}
)";
   const char *fragment_source = R"(#version 450
flat in vec4 v_colour;
out vec4 colour;
void main()
{
   colour = v_colour;
}
)";
   const GLuint framebuffer = bound_framebuffer();
   const Bytes pixels = draw_in_desktop_gl(kit, 4, 5, false, [&](SceneKit &desktop) {
      using ViewportIndexedf = void (*)(GLuint index, GLfloat x, GLfloat y, GLfloat w, GLfloat h);
      using ScissorIndexed = void (*)(GLuint index, GLint left, GLint bottom, GLsizei width, GLsizei height);
      const auto viewport_indexed = desktop_entry<ViewportIndexedf>("glViewportIndexedf");
      const auto scissor_indexed = desktop_entry<ScissorIndexed>("glScissorIndexed");
      const float unit = float(desktop.width()) / 64.0f;
      const int grid = desktop.width() / 64;
      SceneKit::clear_colour(slate);
      glClear(GL_COLOR_BUFFER_BIT);
      /* x, y, width, height in grid units. */
      const float viewports[4][4] = {{0, 0, 32, 32}, {32, 0, 32, 32}, {0, 32, 24, 32}, {36, 36, 24, 20}};
      const int scissors[4][4] = {{0, 0, 32, 32}, {36, 4, 20, 20}, {0, 32, 24, 32}, {36, 36, 12, 20}};
      for (GLuint i = 0; i < 4; i++) {
         viewport_indexed(i, viewports[i][0] * unit, viewports[i][1] * unit, viewports[i][2] * unit,
                          viewports[i][3] * unit);
         scissor_indexed(i, scissors[i][0] * grid, scissors[i][1] * grid, scissors[i][2] * grid,
                         scissors[i][3] * grid);
      }
      glEnable(GL_SCISSOR_TEST);
      const GLuint program = desktop.program(vertex_source, fragment_source);
      const GLint per_triangle = glGetUniformLocation(program, "u_per_triangle");
      glUniform1i(per_triangle, 0);
      desktop.coloured_vertices({{5, 7, paper}, {59, 13, paper}, {21, 57, paper}});
      glDrawArraysInstanced(GL_TRIANGLES, 0, 3, 4);
      glUniform1i(per_triangle, 1);
      desktop.coloured_vertices({{41, 41, paper}, {63, 45, paper}, {47, 63, paper},
                                 {1, 41, teal}, {23, 45, teal}, {7, 63, teal},
                                 {41, 41, amber}, {63, 45, amber}, {47, 63, amber},
                                 {1, 1, sky}, {23, 5, sky}, {7, 23, sky}});
      glDrawArrays(GL_TRIANGLES, 0, 12);
      glDisable(GL_SCISSOR_TEST);
   });
   show(kit, framebuffer, pixels);
}

/* GL_AMD_vertex_shader_layer: the vertex shader writes gl_Layer, r600g puts it in the misc
 * vector's z (POS 61) with PA_CL_VS_OUT_CNTL.USE_VTX_RENDER_TARGET_INDX and binds the layered
 * framebuffer's four slices as CB_COLOR0_VIEW SLICE_START 0, SLICE_MAX 3; each primitive goes
 * to the slice its provoking vertex names. Into a four-layer RGBA8 array texture: one triangle
 * drawn four times, the instance choosing the layer and the colour; then, in one draw, four
 * small triangles each sent to layer 3 - gl_VertexID / 3. The picture shows layer q at half
 * size in quadrant q (every other texel, by texelFetch: no filtering). */
void draw_layer_output(SceneKit &kit)
{
   const char *vertex_source = R"(#version 450
#extension GL_AMD_vertex_shader_layer : require
layout(location = 0) in vec2 a_position;
layout(location = 1) in vec4 a_colour;
uniform int u_per_triangle;
flat out vec4 v_colour;
void main()
{
   const vec4 palette[4] = vec4[4](vec4(0.8, 0.6, 0.2, 1.0), vec4(0.2, 0.6, 0.6, 1.0),
                                   vec4(0.6, 0.2, 0.8, 1.0), vec4(0.2, 0.8, 0.2, 1.0));
   int layer = u_per_triangle != 0 ? 3 - gl_VertexID / 3 : gl_InstanceID;
   gl_Layer = layer;
   gl_Position = vec4(a_position / 32.0 - 1.0, 0.0, 1.0);
   v_colour = u_per_triangle != 0 ? a_colour : palette[layer];
}
)";
   const char *fragment_source = R"(#version 450
flat in vec4 v_colour;
out vec4 colour;
void main()
{
   colour = v_colour;
}
)";
   const char *show_vertex_source = R"(#version 450
void main()
{
   const vec2 corners[3] = vec2[3](vec2(-1.0, -1.0), vec2(3.0, -1.0), vec2(-1.0, 3.0));
   gl_Position = vec4(corners[gl_VertexID], 0.0, 1.0);
}
)";
   const char *show_fragment_source = R"(#version 450
uniform sampler2DArray u_layers;
out vec4 colour;
void main()
{
   ivec2 p = ivec2(gl_FragCoord.xy);
   ivec2 half_size = textureSize(u_layers, 0).xy / 2;
   int layer = (p.x >= half_size.x ? 1 : 0) + (p.y >= half_size.y ? 2 : 0);
   colour = texelFetch(u_layers, ivec3((p % half_size) * 2, layer), 0);
}
)";
   const GLuint framebuffer = bound_framebuffer();
   const Bytes pixels = draw_in_desktop_gl(kit, 4, 5, false, [&](SceneKit &desktop) {
      using FramebufferTexture = void (*)(GLenum target, GLenum attachment, GLuint texture, GLint level);
      const auto framebuffer_texture = desktop_entry<FramebufferTexture>("glFramebufferTexture");
      const GLuint picture = bound_framebuffer();
      const GLuint layers = desktop.texture(GL_TEXTURE_2D_ARRAY);
      glTexStorage3D(GL_TEXTURE_2D_ARRAY, 1, GL_RGBA8, desktop.width(), desktop.height(), 4);
      glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
      glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
      GLuint layered = 0;
      glGenFramebuffers(1, &layered);
      glBindFramebuffer(GL_FRAMEBUFFER, layered);
      framebuffer_texture(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, layers, 0);
      if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
         glDeleteFramebuffers(1, &layered);
         throw Failure("the layered framebuffer is incomplete");
      }
      glViewport(0, 0, desktop.width(), desktop.height());
      SceneKit::clear_colour(slate);
      glClear(GL_COLOR_BUFFER_BIT); /* every layer */
      const GLuint program = desktop.program(vertex_source, fragment_source);
      const GLint per_triangle = glGetUniformLocation(program, "u_per_triangle");
      glUniform1i(per_triangle, 0);
      desktop.coloured_vertices({{5, 7, paper}, {59, 13, paper}, {21, 57, paper}});
      glDrawArraysInstanced(GL_TRIANGLES, 0, 3, 4);
      glUniform1i(per_triangle, 1);
      desktop.coloured_vertices({{41, 41, paper}, {63, 45, paper}, {47, 63, paper},
                                 {1, 41, teal}, {23, 45, teal}, {7, 63, teal},
                                 {41, 1, amber}, {63, 5, amber}, {47, 23, amber},
                                 {1, 1, sky}, {23, 5, sky}, {7, 23, sky}});
      glDrawArrays(GL_TRIANGLES, 0, 12);
      glBindFramebuffer(GL_FRAMEBUFFER, picture);
      glDeleteFramebuffers(1, &layered);
      desktop.program(show_vertex_source, show_fragment_source);
      desktop.vertex_array();
      glBindTexture(GL_TEXTURE_2D_ARRAY, layers);
      glDrawArrays(GL_TRIANGLES, 0, 3);
      if (const GLenum error = glGetError(); error != GL_NO_ERROR)
         throw Failure("layer_output: GL error " + std::to_string(error));
   });
   show(kit, framebuffer, pixels);
}

const Scene scenes[] = {
   {"stencil_export", "GL_ARB_shader_stencil_export: each 8x8 cell's exported reference tested GREATER against a "
                      "stencil of 3 and written by REPLACE, then painted one colour per value",
    draw_stencil_export},
   {"pipeline_statistics", "GL_ARB_pipeline_statistics_query: vertices and primitives submitted, clipper input and "
                           "output primitives around two triangles inside and one beyond the far plane (9, 3, 3, 2)",
    draw_pipeline_statistics},
   {"polygon_mode", "glPolygonMode LINE (a triangle, a strip), POINT (a fan), and GL_POLYGON_OFFSET_LINE lifting "
                    "an outline over its own filled triangle (GL_LESS); an unoffset outline passes only outside its fill",
    draw_polygon_mode},
   {"depth_clamp", "GL_DEPTH_CLAMP: triangles beyond both clip planes are not cut; clamped depths 0 and 1 "
                   "tested (LEQUAL) against a square at 0.8",
    draw_depth_clamp},
   {"conditional_render", "glBeginConditionalRender (WAIT, NO_WAIT, WAIT_INVERTED) on four occlusion queries, "
                          "two split by a flush; green squares must be drawn, red ones skipped",
    draw_conditional_render},
   {"viewport_index", "gl_ViewportIndex from the vertex shader (GL_AMD_vertex_shader_viewport_index): four "
                      "viewports with their scissors chosen per instance, then per triangle within one draw",
    draw_viewport_index},
   {"layer_output", "gl_Layer from the vertex shader (GL_AMD_vertex_shader_layer) into a four-layer array "
                    "texture, per instance, then per triangle within one draw; each layer shown in a quadrant",
    draw_layer_output},
   {"timer_queries", "GL_TIME_ELAPSED and two GL_TIMESTAMPs: elapsed > 0, later > earlier, results available",
    draw_timer_queries},
};

} // namespace

std::span<const Scene> queries_scenes()
{
   return scenes;
}

} // namespace terakan::gl_scenes
