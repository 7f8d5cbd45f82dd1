/* Query scenes: conditional rendering on occlusion queries, and timer queries.
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
#include <EGL/eglext.h>
#include <GLES3/gl31.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "failure.h"
#include "scene_kit.h"

namespace terakan::gl_scenes {

namespace {

/* Desktop GL enums and entry points the GLES headers lack (values from the GL 4.5 registry). */
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

constexpr Rgba8 slate{48, 56, 64, 255}, paper{224, 224, 216, 255}, teal{24, 168, 160, 255},
                amber{240, 176, 32, 255}, green{40, 200, 64, 255}, red{232, 40, 32, 255},
                sky{96, 160, 240, 255};

/* A picture as RGBA8 bytes, bottom row first (GL's order). */
using Bytes = std::vector<uint8_t>;

/* Runs draw in a desktop GL 4.5 core context on the harness's EGL display, into an RGBA8
 * framebuffer of the picture's size with a DEPTH24_STENCIL8 buffer, and returns its pixels;
 * the harness's context is current again afterwards, also when draw throws. */
Bytes draw_in_desktop_gl(const SceneKit &kit, const std::function<void(SceneKit &)> &draw)
{
   const EGLDisplay display = eglGetCurrentDisplay();
   const EGLContext gles_context = eglGetCurrentContext();
   if (display == EGL_NO_DISPLAY || gles_context == EGL_NO_CONTEXT)
      throw Failure("no current EGL context to return to");
   if (!eglBindAPI(EGL_OPENGL_API))
      throw Failure("eglBindAPI(EGL_OPENGL_API) failed");
   const EGLint attributes[] = {
      EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5,
      EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE,
   };
   const EGLContext context = eglCreateContext(display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attributes);
   eglBindAPI(EGL_OPENGL_ES_API);
   if (context == EGL_NO_CONTEXT)
      throw Failure("eglCreateContext (desktop GL 4.5 core) failed");
   Bytes pixels(size_t(kit.width()) * size_t(kit.height()) * 4);
   std::string failure;
   if (eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
      try {
         GLuint framebuffer = 0, renderbuffers[2] = {};
         glGenFramebuffers(1, &framebuffer);
         glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
         glGenRenderbuffers(2, renderbuffers);
         glBindRenderbuffer(GL_RENDERBUFFER, renderbuffers[0]);
         glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, kit.width(), kit.height());
         glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, renderbuffers[0]);
         glBindRenderbuffer(GL_RENDERBUFFER, renderbuffers[1]);
         glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, kit.width(), kit.height());
         glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, renderbuffers[1]);
         glViewport(0, 0, kit.width(), kit.height());
         {
            SceneKit desktop_kit(kit.width(), kit.height());
            draw(desktop_kit);
         }
         glPixelStorei(GL_PACK_ALIGNMENT, 1);
         glReadPixels(0, 0, kit.width(), kit.height(), GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
         if (const GLenum error = glGetError(); error != GL_NO_ERROR)
            failure = "desktop GL error 0x" + std::to_string(error);
         glDeleteFramebuffers(1, &framebuffer);
         glDeleteRenderbuffers(2, renderbuffers);
      } catch (const Failure &caught) {
         failure = caught.what();
      }
   } else {
      failure = "eglMakeCurrent (desktop GL context) failed";
   }
   eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, gles_context);
   eglDestroyContext(display, context);
   if (!failure.empty())
      throw Failure(failure);
   return pixels;
}

/* Draws the bytes into the harness's framebuffer (bound again first), texel for pixel. */
void show(SceneKit &kit, GLuint framebuffer, const Bytes &bytes)
{
   glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
   glViewport(0, 0, kit.width(), kit.height());
   kit.texture(GL_TEXTURE_2D);
   glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, kit.width(), kit.height());
   glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
   glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, kit.width(), kit.height(), GL_RGBA, GL_UNSIGNED_BYTE, bytes.data());
   glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
   glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
   glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
   const GLuint program = kit.program(R"(#version 300 es
void main()
{
   vec2 corner = vec2(float((gl_VertexID & 1) * 4) - 1.0, float((gl_VertexID & 2) * 2) - 1.0);
   gl_Position = vec4(corner, 0.0, 1.0);
}
)",
                                      R"(#version 300 es
precision highp float;
uniform highp sampler2D u_picture;
out vec4 o_colour;
void main()
{
   o_colour = texelFetch(u_picture, ivec2(gl_FragCoord.xy), 0);
}
)");
   glUniform1i(glGetUniformLocation(program, "u_picture"), 0);
   kit.vertex_array();
   glDrawArrays(GL_TRIANGLES, 0, 3);
}

GLuint bound_framebuffer()
{
   GLint framebuffer = 0;
   glGetIntegerv(GL_FRAMEBUFFER_BINDING, &framebuffer);
   return GLuint(framebuffer);
}

std::vector<ColouredVertex> square(float x, float y, float size, Rgba8 colour)
{
   return {{x, y, colour},        {x + size, y, colour}, {x + size, y + size, colour},
           {x, y, colour},        {x + size, y + size, colour}, {x, y + size, colour}};
}

/* Draws `vertices` as triangles with the coloured program at clip-space depth `z`. */
void draw_at(SceneKit &kit, GLuint program, const std::vector<ColouredVertex> &vertices, float z)
{
   glUniform1f(glGetUniformLocation(program, "u_depth"), z);
   kit.coloured_vertices(std::span<const ColouredVertex>(vertices));
   glDrawArrays(GL_TRIANGLES, 0, GLsizei(vertices.size()));
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
   const GLuint framebuffer = bound_framebuffer();
   const Bytes pixels = draw_in_desktop_gl(kit, [](SceneKit &desktop) {
      const auto begin_conditional = desktop_entry<BeginConditionalRender>("glBeginConditionalRender");
      const auto end_conditional = desktop_entry<EndConditionalRender>("glEndConditionalRender");
      const GLuint program = desktop.coloured_program(Shading::flat);
      SceneKit::clear_colour(slate);
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
   show(kit, framebuffer, pixels);
}

/* GL_TIME_ELAPSED around a draw and two GL_TIMESTAMP counters around another: their values
 * differ between runs and drivers, so only the facts GL promises are drawn, as squares, green
 * where they hold and red where not: the elapsed time is above zero, the second timestamp is
 * later than the first, and each result is available once GL_QUERY_RESULT was read. */
void draw_timer_queries(SceneKit &kit)
{
   const GLuint framebuffer = bound_framebuffer();
   const Bytes pixels = draw_in_desktop_gl(kit, [](SceneKit &desktop) {
      const auto query_counter = desktop_entry<QueryCounter>("glQueryCounter");
      const auto get_result64 = desktop_entry<GetQueryObjectui64v>("glGetQueryObjectui64v");
      const GLuint program = desktop.coloured_program(Shading::flat);
      SceneKit::clear_colour(slate);
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
   show(kit, framebuffer, pixels);
}

const Scene scenes[] = {
   {"conditional_render", "glBeginConditionalRender (WAIT, NO_WAIT, WAIT_INVERTED) on four occlusion queries, "
                          "two split by a flush; green squares must be drawn, red ones skipped",
    draw_conditional_render},
   {"timer_queries", "GL_TIME_ELAPSED and two GL_TIMESTAMPs: elapsed > 0, later > earlier, results available",
    draw_timer_queries},
};

} // namespace

std::span<const Scene> queries_scenes()
{
   return scenes;
}

} // namespace terakan::gl_scenes
