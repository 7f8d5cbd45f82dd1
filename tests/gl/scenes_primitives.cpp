/* Primitive types GLES cannot draw: lines and triangles with adjacency without a geometry
 * shader (desktop GL 4.5 core draws the base primitives and ignores the adjacent vertices),
 * and quads, quad strips and polygons (desktop GL 4.5 compatibility). r600g hands every one
 * of them to the VGT unchanged (Mesa r600_conv_pipe_prim: DI_PT_LINELIST_ADJ ... DI_PT_POLYGON).
 *
 * Every adjacent vertex lies away from its primitive and is paper-coloured, so that a line or
 * triangle drawn through it, or taking its colour as the provoking vertex, shows. Colours are
 * flat with GL's default last-vertex convention; the provoking vertex has a colour of its own
 * where the type has one (GL 4.5, "Flatshading"), so that the wrong one shows too. Slanted
 * edges are off the 1/8 grid (n + k/64, k odd) and miss every pixel centre at 64x64 and
 * 256x256, so that no fill-rule tie decides a pixel. */
#include "scenes.h"

#include <EGL/egl.h>
#include <GLES3/gl31.h>

#include "failure.h"
#include "scene_kit.h"
#include "scene_tools.h"

namespace terakan::gl_scenes {

namespace {

/* Desktop GL primitive types (glcorearb.h and GL 4.5 compatibility's gl.h). */
constexpr GLenum GL_QUADS_ = 0x0007, GL_QUAD_STRIP_ = 0x0008, GL_POLYGON_ = 0x0009,
                 GL_LINES_ADJACENCY_ = 0x000A, GL_LINE_STRIP_ADJACENCY_ = 0x000B,
                 GL_TRIANGLES_ADJACENCY_ = 0x000C, GL_TRIANGLE_STRIP_ADJACENCY_ = 0x000D;

float at(int n, int k64)
{
   return float(n) + float(k64) / 64.0f;
}

/* The vertices of the line primitives that are real line ends (pixel centres). */
constexpr float line_ends[][2] = {{4.5f, 60.5f}, {28.5f, 60.5f}, {34.5f, 58.5f}, {34.5f, 40.5f},
                                  {40.5f, 56.5f}, {60.5f, 56.5f}, {60.5f, 38.5f}};

void draw_adjacency(SceneKit &kit)
{
   const GLuint harness = bound_framebuffer();
   const Bytes pixels = draw_in_desktop_gl(kit, 4, 5, false, [&](SceneKit &desktop) {
      SceneKit::clear_colour(night);
      glClear(GL_COLOR_BUFFER_BIT);
      desktop.coloured_program(Shading::flat);
      /* GL_LINES_ADJACENCY: vertices 1 and 2 of each four make the line, 2 provokes. */
      desktop.coloured_vertices({
         {2.5f, 36.5f, paper}, {4.5f, 60.5f, red}, {28.5f, 60.5f, red}, {62.5f, 2.5f, paper},
         {12.5f, 44.5f, paper}, {34.5f, 58.5f, green}, {34.5f, 40.5f, green}, {1.5f, 1.5f, paper},
      });
      glDrawArrays(GL_LINES_ADJACENCY_, 0, 8);
      /* GL_LINE_STRIP_ADJACENCY: the first and last vertices are adjacent only; segments
       * A-B and B-C, each provoked by its second vertex (teal, then violet). */
      desktop.coloured_vertices({
         {40.5f, 34.5f, paper}, {40.5f, 56.5f, amber}, {60.5f, 56.5f, teal}, {60.5f, 38.5f, violet},
         {2.5f, 33.5f, paper},
      });
      glDrawArrays(GL_LINE_STRIP_ADJACENCY_, 0, 5);
      /* GL_TRIANGLES_ADJACENCY: vertices 0, 2 and 4 of each six, 4 provokes. */
      desktop.coloured_vertices({
         {at(2, 5), at(2, 9), red}, {at(63, 1), at(63, 3), paper},   {at(29, 3), at(4, 27), red},
         {at(0, 5), at(63, 7), paper}, {at(5, 45), at(28, 1), sky},   {at(63, 9), at(0, 3), paper},
         {at(6, 11), at(30, 3), red}, {at(40, 1), at(62, 3), paper}, {at(30, 7), at(30, 5), red},
         {at(1, 3), at(50, 1), paper}, {at(30, 9), at(9, 13), blue},  {at(50, 3), at(44, 5), paper},
      });
      glDrawArrays(GL_TRIANGLES_ADJACENCY_, 0, 12);
      /* GL_TRIANGLE_STRIP_ADJACENCY: triangles (0, 2, 4) and (4, 2, 6) of eight vertices, the
       * odd ones adjacent; 4 and 6 provoke. */
      desktop.coloured_vertices({
         {at(34, 5), at(2, 7), red},     {at(20, 1), at(60, 3), paper}, {at(61, 3), at(4, 11), red},
         {at(2, 3), at(44, 7), paper},   {at(35, 9), at(29, 3), amber}, {at(10, 5), at(12, 1), paper},
         {at(62, 1), at(27, 17), teal},  {at(26, 7), at(52, 9), paper},
      });
      glDrawArrays(GL_TRIANGLE_STRIP_ADJACENCY_, 0, 8);
   });
   show(kit, harness, pixels);
}

/* Where a line starts and ends: GL's diamond-exit rule (llvmpipe) and the simulator's line
 * parallelogram may differ there, as in line_strip_loop (scenes.cpp). */
bool line_end_pixel(int x, int y, int width, int height)
{
   for (const auto &v : line_ends)
      if (x == int(v[0] * float(width) / grid_size) && y == int(v[1] * float(height) / grid_size))
         return true;
   return false;
}

void draw_quads_and_polygons(SceneKit &kit)
{
   const GLuint harness = bound_framebuffer();
   const Bytes pixels = draw_in_desktop_gl(
      kit, 4, 5, false,
      [&](SceneKit &desktop) {
         SceneKit::clear_colour(night);
         glClear(GL_COLOR_BUFFER_BIT);
         desktop.coloured_program(Shading::flat);
         /* GL_QUADS: the fourth vertex of each provokes. */
         desktop.coloured_vertices({
            {at(3, 5), at(2, 9), paper},  {at(28, 3), at(4, 7), paper}, {at(30, 9), at(27, 3), paper},
            {at(2, 7), at(29, 5), red},   {at(4, 3), at(34, 5), paper}, {at(29, 1), at(36, 9), paper},
            {at(26, 5), at(61, 3), paper}, {at(6, 9), at(58, 7), green},
         });
         glDrawArrays(GL_QUADS_, 0, 8);
         /* GL_QUAD_STRIP: quads (0, 1, 3, 2) and (2, 3, 5, 4); 3 and 5 provoke. */
         desktop.coloured_vertices({
            {at(34, 3), at(2, 5), paper}, {at(61, 7), at(3, 9), paper}, {at(35, 5), at(15, 3), paper},
            {at(62, 3), at(16, 7), amber}, {at(33, 9), at(29, 1), paper}, {at(60, 5), at(30, 3), teal},
         });
         glDrawArrays(GL_QUAD_STRIP_, 0, 6);
         /* GL_POLYGON: a convex pentagon; the first vertex provokes whatever the convention. */
         desktop.coloured_vertices({
            {at(40, 3), at(36, 5), violet}, {at(58, 5), at(37, 3), paper}, {at(62, 1), at(50, 7), paper},
            {at(49, 9), at(61, 5), paper},  {at(35, 7), at(54, 3), paper},
         });
         glDrawArrays(GL_POLYGON_, 0, 5);
      },
      true);
   show(kit, harness, pixels);
}

/* Edge flags (desktop GL 4.5 compatibility: glEdgeFlagPointer) with glPolygonMode LINE and
 * POINT: GL passes each vertex's flag around the vertex shader, r600g exports it in the misc
 * vector's y (PA_CL_VS_OUT_CNTL.USE_VTX_EDGE_FLAG), and only edges starting at a flagged vertex
 * are drawn (points: only flagged vertices). Four triangles: all edges, one hidden, two
 * hidden, and as points with one vertex unflagged. Vertices on pixel centres, slopes with odd
 * denominators (as polygon_mode); the ends of lines that a hidden edge leaves open are masked. */
constexpr float edge_flag_triangles[4][3][2] = {
   {{4.5f, 4.5f}, {27.5f, 9.5f}, {12.5f, 28.5f}},
   {{36.5f, 4.5f}, {59.5f, 9.5f}, {44.5f, 28.5f}},
   {{4.5f, 36.5f}, {27.5f, 41.5f}, {12.5f, 60.5f}},
   /* Drawn as points: vertices a quarter pixel off the centres at 64x64, so that at 256x256 a
    * point's square does not end on pixel centres either. */
   {{36.625f, 36.625f}, {59.625f, 41.625f}, {44.625f, 60.625f}},
};
constexpr GLboolean edge_flags[4][3] = {{1, 1, 1}, {1, 0, 1}, {0, 1, 0}, {1, 0, 1}};

void draw_edge_flags(SceneKit &kit)
{
   constexpr GLenum GL_EDGE_FLAG_ARRAY_ = 0x8079, GL_POINT_ = 0x1B00, GL_LINE_ = 0x1B01, GL_FILL_ = 0x1B02,
                    GL_FRONT_AND_BACK_ = 0x0408;
   const GLuint harness = bound_framebuffer();
   const Bytes pixels = draw_in_desktop_gl(
      kit, 4, 5, false,
      [&](SceneKit &desktop) {
         const auto polygon_mode = reinterpret_cast<void (*)(GLenum, GLenum)>(eglGetProcAddress("glPolygonMode"));
         const auto enable_client_state = reinterpret_cast<void (*)(GLenum)>(eglGetProcAddress("glEnableClientState"));
         const auto disable_client_state = reinterpret_cast<void (*)(GLenum)>(eglGetProcAddress("glDisableClientState"));
         const auto edge_flag_pointer =
            reinterpret_cast<void (*)(GLsizei, const void *)>(eglGetProcAddress("glEdgeFlagPointer"));
         if (!polygon_mode || !enable_client_state || !disable_client_state || !edge_flag_pointer)
            throw Failure("the compatibility context lacks glPolygonMode or the edge-flag array commands");
         SceneKit::clear_colour(night);
         glClear(GL_COLOR_BUFFER_BIT);
         desktop.coloured_program(Shading::flat);
         const Rgba8 colours[4] = {amber, green, sky, paper};
         for (unsigned t = 0; t < 4; t++) {
            desktop.coloured_vertices({{edge_flag_triangles[t][0][0], edge_flag_triangles[t][0][1], colours[t]},
                                       {edge_flag_triangles[t][1][0], edge_flag_triangles[t][1][1], colours[t]},
                                       {edge_flag_triangles[t][2][0], edge_flag_triangles[t][2][1], colours[t]}});
            desktop.buffer(GL_ARRAY_BUFFER, edge_flags[t], sizeof(edge_flags[t]));
            edge_flag_pointer(0, nullptr);
            enable_client_state(GL_EDGE_FLAG_ARRAY_);
            polygon_mode(GL_FRONT_AND_BACK_, t == 3 ? GL_POINT_ : GL_LINE_);
            glDrawArrays(GL_TRIANGLES, 0, 3);
            disable_client_state(GL_EDGE_FLAG_ARRAY_);
         }
         polygon_mode(GL_FRONT_AND_BACK_, GL_FILL_);
      },
      true);
   show(kit, harness, pixels);
}

/* The pixels of the vertices where a drawn edge meets a hidden one (an open line end). */
bool open_line_end_pixel(int x, int y, int width, int height)
{
   for (unsigned t = 0; t < 3; t++)
      for (unsigned v = 0; v < 3; v++) {
         const bool starts_drawn = edge_flags[t][v], ends_drawn = edge_flags[t][(v + 2) % 3];
         if (starts_drawn == ends_drawn)
            continue;
         if (x == int(edge_flag_triangles[t][v][0] * float(width) / grid_size) &&
             y == int(edge_flag_triangles[t][v][1] * float(height) / grid_size))
            return true;
      }
   return false;
}

const Scene scenes[] = {
   {"adjacency_primitives",
    "lines, line strips, triangles and triangle strips with adjacency, no geometry shader (desktop GL 4.5 core)",
    draw_adjacency, 0, line_end_pixel,
    "line ends: GL's diamond-exit rule against the simulator's top-left rule at a line's end edges"},
   {"quads_polygons", "GL_QUADS, GL_QUAD_STRIP and GL_POLYGON, flat-shaded (desktop GL 4.5 compatibility)",
    draw_quads_and_polygons},
   {"edge_flags", "edge flags (glEdgeFlagPointer) hiding triangle edges in glPolygonMode LINE and vertices in POINT "
                  "(desktop GL 4.5 compatibility)",
    draw_edge_flags, 0, open_line_end_pixel,
    "open line ends where a drawn edge meets a hidden one: GL's diamond-exit rule against the simulator's "
    "top-left rule at a line's end edges"},
};

} // namespace

std::span<const Scene> primitive_scenes()
{
   return scenes;
}

} // namespace terakan::gl_scenes
