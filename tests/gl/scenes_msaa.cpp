/* Multisampling scenes (GLES 3.0): pictures drawn into a 4x multisampled framebuffer object
 * (glRenderbufferStorageMultisample) and resolved into the harness's single-sample one with
 * glBlitFramebuffer. r600g lays multisampled colour out 2D tiled with FMASK and CMASK, clears
 * it with a CMASK fast clear and resolves it with the colour block's RESOLVE mode; llvmpipe
 * draws 4 samples per pixel and resolves with a shader. Both put the 4 samples at the same
 * places ((0.375, 0.125), (0.875, 0.375), (0.125, 0.625), (0.625, 0.875) of the pixel: r600g's
 * eg_sample_locs_4x, llvmpipe's lp_sample_pos_4x), so edge pixels agree exactly.
 *
 * Every colour is flat and every channel a multiple of 4, so the average of 4 samples is a
 * whole number: the pictures do not depend on how either driver rounds a resolve. Vertices sit
 * on odd multiples of 1/64 grid unit, off the 1/8 grid of sample positions. */
#include "scenes.h"

#include <GLES3/gl31.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "failure.h"
#include "scene_kit.h"
#include "scene_tools.h"

namespace terakan::gl_scenes {

namespace {

constexpr int samples = 4;

/* A framebuffer object with a 4x RGBA8 colour renderbuffer (and a 4x depth/stencil one if
 * `depth_format` is not 0) of the picture's size, bound while it lives. */
class MultisampleTarget {
public:
   MultisampleTarget(const SceneKit &kit, GLenum depth_format) : width_(kit.width()), height_(kit.height())
   {
      glGenFramebuffers(1, &framebuffer_);
      glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
      glGenRenderbuffers(2, renderbuffers_);
      glBindRenderbuffer(GL_RENDERBUFFER, renderbuffers_[0]);
      glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_RGBA8, width_, height_);
      glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, renderbuffers_[0]);
      if (depth_format) {
         glBindRenderbuffer(GL_RENDERBUFFER, renderbuffers_[1]);
         glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, depth_format, width_, height_);
         glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, renderbuffers_[1]);
      }
      glBindRenderbuffer(GL_RENDERBUFFER, 0);
      const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
      if (status != GL_FRAMEBUFFER_COMPLETE)
         throw Failure("the multisampled framebuffer is incomplete (status 0x" + std::to_string(status) +
                       ", GL error " + std::to_string(glGetError()) + ")");
      /* GL may round a sample count up to one the driver supports; the scenes need 4. */
      GLint got = 0;
      glBindRenderbuffer(GL_RENDERBUFFER, renderbuffers_[0]);
      glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_SAMPLES, &got);
      glBindRenderbuffer(GL_RENDERBUFFER, 0);
      if (got != samples)
         throw Failure("the colour renderbuffer has " + std::to_string(got) + " samples, not " +
                       std::to_string(samples));
   }
   ~MultisampleTarget()
   {
      glDeleteFramebuffers(1, &framebuffer_);
      glDeleteRenderbuffers(2, renderbuffers_);
   }
   MultisampleTarget(const MultisampleTarget &) = delete;
   MultisampleTarget &operator=(const MultisampleTarget &) = delete;

   /* Resolves the colour into `destination` (glBlitFramebuffer of the whole picture). */
   void resolve_into(GLuint destination) const
   {
      glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffer_);
      glBindFramebuffer(GL_DRAW_FRAMEBUFFER, destination);
      glBlitFramebuffer(0, 0, width_, height_, 0, 0, width_, height_, GL_COLOR_BUFFER_BIT, GL_NEAREST);
      glBindFramebuffer(GL_FRAMEBUFFER, destination);
      if (const GLenum error = glGetError(); error != GL_NO_ERROR)
         throw Failure("glBlitFramebuffer failed with GL error " + std::to_string(error));
   }

private:
   int width_, height_;
   GLuint framebuffer_ = 0;
   GLuint renderbuffers_[2] = {};
};

/* Grid coordinates off the sample grid: n + k/64 with k odd. */
constexpr float off(int n, int k64)
{
   return float(n) + float(k64) / 64.0f;
}

/* Slanted triangles: a wide one, a thin sliver and an overlapping one, counter-clockwise. */
void draw_msaa_resolve(SceneKit &kit)
{
   const GLuint harness = bound_framebuffer();
   MultisampleTarget target(kit, 0);
   glViewport(0, 0, kit.width(), kit.height());
   SceneKit::clear_colour(night);
   glClear(GL_COLOR_BUFFER_BIT);
   const GLuint program = kit.coloured_program(Shading::flat);
   const std::vector<ColouredVertex> triangles = {
      {off(3, 5), off(4, 9), red},     {off(58, 3), off(13, 27), red},   {off(21, 45), off(55, 1), red},
      {off(6, 11), off(40, 7), green}, {off(61, 17), off(60, 3), green}, {off(9, 39), off(45, 29), green},
      {off(30, 21), off(2, 13), blue}, {off(62, 1), off(30, 35), blue},  {off(40, 9), off(62, 55), blue},
   };
   draw_at(kit, program, triangles, 0.0f);
   target.resolve_into(harness);
}

/* Per-vertex depth: a triangle tilted through the depth of a flat square, so which one is in
 * front changes along a slanted line (tested sample by sample), in a 4x depth/stencil buffer. */
void draw_msaa_depth(SceneKit &kit)
{
   const GLuint harness = bound_framebuffer();
   MultisampleTarget target(kit, GL_DEPTH24_STENCIL8);
   glViewport(0, 0, kit.width(), kit.height());
   SceneKit::clear_colour(slate);
   glClearDepthf(1.0f);
   glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
   glEnable(GL_DEPTH_TEST);
   glDepthFunc(GL_LESS);
   const std::vector<DepthVertex> vertices = {
      /* the flat square at depth 0.125 */
      {off(8, 3), off(8, 5), 0.125f, amber},
      {off(56, 1), off(8, 5), 0.125f, amber},
      {off(56, 1), off(56, 7), 0.125f, amber},
      {off(8, 3), off(8, 5), 0.125f, amber},
      {off(56, 1), off(56, 7), 0.125f, amber},
      {off(8, 3), off(56, 7), 0.125f, amber},
      /* the tilted triangle, from depth -0.75 on the left to 0.875 on the right */
      {off(2, 9), off(12, 3), -0.75f, teal},
      {off(61, 5), off(20, 11), 0.875f, teal},
      {off(24, 13), off(62, 1), 0.25f, teal},
   };
   depth_vertices_program(kit, vertices);
   glDrawArrays(GL_TRIANGLES, 0, GLsizei(vertices.size()));
   glDisable(GL_DEPTH_TEST);
   target.resolve_into(harness);
}

/* texelFetch of every sample of a 4x multisampled texture (desktop GL 4.5: sampler2DMS,
 * textureSize and textureSamples): slanted flat triangles drawn into a 32x32 4x RGBA8 texture
 * over a clear, then each pixel (x, y) of the picture shows sample (x & 1) + 2 (y & 1) of
 * texel (x / 2, y / 2), magenta wherever textureSize or textureSamples is wrong. r600g reads
 * FMASK with LDFPTR and then the fragment it names with LD, after an FMASK_DECOMPRESS draw
 * that expands its CMASK fast clear. */
void draw_msaa_texel_fetch(SceneKit &kit)
{
   const GLuint harness = bound_framebuffer();
   const Bytes pixels = draw_in_desktop_gl(kit, 4, 5, false, [&](SceneKit &desktop) {
      const GLuint picture = bound_framebuffer();
      const int size = desktop.width() / 2;
      const GLuint texture = desktop.texture(GL_TEXTURE_2D_MULTISAMPLE);
      glTexStorage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, samples, GL_RGBA8, size, desktop.height() / 2, GL_TRUE);
      GLuint framebuffer = 0;
      glGenFramebuffers(1, &framebuffer);
      glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
      glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D_MULTISAMPLE, texture, 0);
      if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
         throw Failure("the multisampled texture's framebuffer is incomplete");
      glViewport(0, 0, size, desktop.height() / 2);
      SceneKit::clear_colour(night);
      glClear(GL_COLOR_BUFFER_BIT);
      const GLuint coloured = desktop.coloured_program(Shading::flat);
      const std::vector<ColouredVertex> triangles = {
         {off(3, 5), off(4, 9), red},     {off(58, 3), off(13, 27), red},   {off(21, 45), off(55, 1), red},
         {off(6, 11), off(40, 7), green}, {off(61, 17), off(60, 3), green}, {off(9, 39), off(45, 29), green},
         {off(30, 21), off(2, 13), blue}, {off(62, 1), off(30, 35), blue},  {off(40, 9), off(62, 55), blue},
      };
      draw_at(desktop, coloured, triangles, 0.0f);
      glBindFramebuffer(GL_FRAMEBUFFER, picture);
      glDeleteFramebuffers(1, &framebuffer);
      glViewport(0, 0, desktop.width(), desktop.height());
      const std::string fetch = "#version 450 core\n"
                                "uniform sampler2DMS u_image;\n"
                                "out vec4 colour;\n"
                                "void main() {\n"
                                "   ivec2 p = ivec2(gl_FragCoord.xy);\n"
                                "   colour = texelFetch(u_image, p / 2, (p.x & 1) + 2 * (p.y & 1));\n"
                                "   if (textureSize(u_image) != ivec2(" +
                                std::to_string(size) + ", " + std::to_string(desktop.height() / 2) +
                                ") || textureSamples(u_image) != 4)\n"
                                "      colour = vec4(1.0, 0.0, 1.0, 1.0);\n"
                                "}\n";
      desktop.program("#version 450 core\n"
                      "void main() {\n"
                      "   vec2 corner = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));\n"
                      "   gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);\n"
                      "}\n",
                      fetch.c_str());
      glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, texture);
      desktop.vertex_array();
      glDrawArrays(GL_TRIANGLES, 0, 3);
   });
   show(kit, harness, pixels);
}

/* texelFetch of every sample of a 4x depth texture (GL_DEPTH_COMPONENT32F, desktop GL 4.5):
 * three slanted triangles at constant depths drawn with the depth test into a 32x32 4x depth
 * texture, then each pixel (x, y) shows sample (x & 1) + 2 (y & 1) of texel (x / 2, y / 2) as a
 * grey level (the depths are 1/8 apart and away from rounding ties). r600g samples its
 * multisampled depth in place: DIM 2D_MSAA with MIP_ADDRESS 0 (no FMASK) and
 * DEPTH_SAMPLE_ORDER, read through LDFPTR (the identity without FMASK) and LD. */
void draw_msaa_depth_fetch(SceneKit &kit)
{
   const GLuint harness = bound_framebuffer();
   const Bytes pixels = draw_in_desktop_gl(kit, 4, 5, false, [&](SceneKit &desktop) {
      const GLuint picture = bound_framebuffer();
      const int width = desktop.width() / 2, height = desktop.height() / 2;
      const GLuint texture = desktop.texture(GL_TEXTURE_2D_MULTISAMPLE);
      glTexStorage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, samples, GL_DEPTH_COMPONENT32F, width, height, GL_TRUE);
      GLuint framebuffer = 0;
      glGenFramebuffers(1, &framebuffer);
      glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
      glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D_MULTISAMPLE, texture, 0);
      const GLenum none = GL_NONE;
      glDrawBuffers(1, &none);
      if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
         throw Failure("the multisampled depth texture's framebuffer is incomplete");
      glViewport(0, 0, width, height);
      glClearDepthf(1.0f);
      glClear(GL_DEPTH_BUFFER_BIT);
      glEnable(GL_DEPTH_TEST);
      glDepthFunc(GL_LESS);
      const std::vector<DepthVertex> vertices = {
         {off(3, 5), off(4, 9), 0.25f, red},     {off(58, 3), off(13, 27), 0.25f, red},
         {off(21, 45), off(55, 1), 0.25f, red},  {off(6, 11), off(40, 7), -0.5f, green},
         {off(61, 17), off(60, 3), -0.5f, green}, {off(9, 39), off(45, 29), -0.5f, green},
         {off(30, 21), off(2, 13), 0.5f, blue},  {off(62, 1), off(30, 35), 0.5f, blue},
         {off(40, 9), off(62, 55), 0.5f, blue},
      };
      depth_vertices_program(desktop, vertices);
      glDrawArrays(GL_TRIANGLES, 0, GLsizei(vertices.size()));
      glDisable(GL_DEPTH_TEST);
      glBindFramebuffer(GL_FRAMEBUFFER, picture);
      glDeleteFramebuffers(1, &framebuffer);
      glViewport(0, 0, desktop.width(), desktop.height());
      const std::string fetch = "#version 450 core\n"
                                "uniform sampler2DMS u_depth;\n"
                                "out vec4 colour;\n"
                                "void main() {\n"
                                "   ivec2 p = ivec2(gl_FragCoord.xy);\n"
                                "   float d = texelFetch(u_depth, p / 2, (p.x & 1) + 2 * (p.y & 1)).x;\n"
                                "   colour = vec4(d, 1.0 - d, 0.5, 1.0);\n"
                                "   if (textureSize(u_depth) != ivec2(" +
                                std::to_string(width) + ", " + std::to_string(height) +
                                ") || textureSamples(u_depth) != 4)\n"
                                "      colour = vec4(1.0, 0.0, 1.0, 1.0);\n"
                                "}\n";
      desktop.program("#version 450 core\n"
                      "void main() {\n"
                      "   vec2 corner = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));\n"
                      "   gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);\n"
                      "}\n",
                      fetch.c_str());
      glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, texture);
      desktop.vertex_array();
      glDrawArrays(GL_TRIANGLES, 0, 3);
   });
   show(kit, harness, pixels);
}

/* GL_SAMPLE_ALPHA_TO_COVERAGE at 4x: six squares of one colour with alphas 0, 55, 123, 183, 247
 * and 255 over a clear, resolved. r600g sets DB_ALPHA_TO_MASK (every offset 2: no dither) and
 * on Cayman DB_EQAA.ALPHA_TO_MASK_NUM_SAMPLES; llvmpipe covers sample s when alpha > s / 4,
 * that is ceil(4 alpha) samples, and the simulator floor(4 alpha + 1/2) (docs/sim-semantics.md,
 * "Alpha to coverage"): the alphas are chosen where the two counts agree (4 alpha an integer or
 * its fraction above 1/2: 0, 1, 2, 3, 4, 4 samples), and 3 modulo 4 so that no mean of some
 * samples of alpha and the others of the clear's 255 ends in a half (edge pixels too). Which
 * samples are covered shows only on edge pixels, where both take the lowest ones. */
void draw_msaa_alpha_to_coverage(SceneKit &kit)
{
   const GLuint harness = bound_framebuffer();
   MultisampleTarget target(kit, 0);
   glViewport(0, 0, kit.width(), kit.height());
   SceneKit::clear_colour(night);
   glClear(GL_COLOR_BUFFER_BIT);
   const GLuint program = kit.coloured_program(Shading::flat);
   glEnable(GL_SAMPLE_ALPHA_TO_COVERAGE);
   const uint8_t alphas[6] = {0, 55, 123, 183, 247, 255};
   for (int i = 0; i < 6; i++) {
      const Rgba8 colour{amber.r, amber.g, amber.b, alphas[i]};
      draw_at(kit, program, square(off(2 + 10 * i, 3), off(20, 5), 8.0f, colour), 0.0f);
   }
   glDisable(GL_SAMPLE_ALPHA_TO_COVERAGE);
   target.resolve_into(harness);
}

/* 8x where the driver has it (r600g: 8; llvmpipe: GL_MAX_SAMPLES 4, so it draws 4), with a
 * picture that does not depend on the count or the sample locations (neither reference has
 * 8x): over a clear, two squares on whole pixels, one with glSampleMaski keeping the even
 * samples and one keeping the odd ones, so that where they overlap a pixel holds two
 * fragments (FMASK: 4-bit fields at 8x) and elsewhere one or the clear. The left half shows
 * texelFetch of sample (x + y) mod the count (its parity, the colour, is the same at 4 and
 * 8), magenta where textureSamples is not the count asked for; the right half the texture
 * resolved by glBlitFramebuffer (r600g: the CB's RESOLVE mode) and read back, where every
 * mean is of two colours whose channels have even sums (no rounding ties). Desktop GL 4.5. */
void draw_msaa_8x_sample_masks(SceneKit &kit)
{
   const GLuint harness = bound_framebuffer();
   const Bytes pixels = draw_in_desktop_gl(kit, 4, 5, false, [&](SceneKit &desktop) {
      const GLuint picture = bound_framebuffer();
      const int width = desktop.width() / 2, height = desktop.height();
      GLint most = 0;
      glGetIntegerv(GL_MAX_SAMPLES, &most);
      const int count = most >= 8 ? 8 : 4;
      const GLuint texture = desktop.texture(GL_TEXTURE_2D_MULTISAMPLE);
      glTexStorage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, count, GL_RGBA8, width, height, GL_TRUE);
      const GLuint resolved = desktop.texture(GL_TEXTURE_2D);
      glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, width, height);
      GLuint framebuffers[2] = {};
      glGenFramebuffers(2, framebuffers);
      glBindFramebuffer(GL_FRAMEBUFFER, framebuffers[1]);
      glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, resolved, 0);
      glBindFramebuffer(GL_FRAMEBUFFER, framebuffers[0]);
      glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D_MULTISAMPLE, texture, 0);
      if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
         throw Failure("the multisampled texture's framebuffer is incomplete");
      glViewport(0, 0, width, height);
      const Rgba8 clear{16, 32, 64, 255}, even{200, 40, 100, 255}, odd{60, 180, 20, 255};
      SceneKit::clear_colour(clear);
      glClear(GL_COLOR_BUFFER_BIT);
      const GLuint coloured = desktop.coloured_program(Shading::flat);
      glEnable(GL_SAMPLE_MASK);
      glSampleMaski(0, 0x55);
      draw_at(desktop, coloured, square(4, 6, 36, even), 0.0f);
      glSampleMaski(0, 0xaa);
      draw_at(desktop, coloured, square(22, 24, 38, odd), 0.0f);
      glDisable(GL_SAMPLE_MASK);
      glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffers[0]);
      glBindFramebuffer(GL_DRAW_FRAMEBUFFER, framebuffers[1]);
      glBlitFramebuffer(0, 0, width, height, 0, 0, width, height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
      glBindFramebuffer(GL_FRAMEBUFFER, picture);
      glDeleteFramebuffers(2, framebuffers);
      glViewport(0, 0, desktop.width(), desktop.height());
      const std::string fetch = "#version 450 core\n"
                                "layout(binding = 0) uniform sampler2DMS u_image;\n"
                                "layout(binding = 1) uniform sampler2D u_resolved;\n"
                                "out vec4 colour;\n"
                                "void main() {\n"
                                "   ivec2 p = ivec2(gl_FragCoord.xy);\n"
                                "   int half_width = " + std::to_string(width) + ";\n"
                                "   if (p.x < half_width)\n"
                                "      colour = texelFetch(u_image, p, (p.x + p.y) % textureSamples(u_image));\n"
                                "   else\n"
                                "      colour = texelFetch(u_resolved, p - ivec2(half_width, 0), 0);\n"
                                "   if (textureSamples(u_image) != " + std::to_string(count) + ")\n"
                                "      colour = vec4(1.0, 0.0, 1.0, 1.0);\n"
                                "}\n";
      desktop.program("#version 450 core\n"
                      "void main() {\n"
                      "   vec2 corner = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));\n"
                      "   gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);\n"
                      "}\n",
                      fetch.c_str());
      glActiveTexture(GL_TEXTURE1);
      glBindTexture(GL_TEXTURE_2D, resolved);
      glActiveTexture(GL_TEXTURE0);
      glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, texture);
      desktop.vertex_array();
      glDrawArrays(GL_TRIANGLES, 0, 3);
      if (const GLenum error = glGetError(); error != GL_NO_ERROR)
         throw Failure("the 8x scene failed with GL error " + std::to_string(error));
   });
   show(kit, harness, pixels);
}

const Scene scenes[] = {
   {"msaa_alpha_to_coverage", "4x MSAA with GL_SAMPLE_ALPHA_TO_COVERAGE: squares of alphas covering 0-4 samples, resolved",
    draw_msaa_alpha_to_coverage},
   {"msaa_resolve", "4x MSAA: slanted flat triangles over a (fast) clear, resolved with glBlitFramebuffer",
    draw_msaa_resolve},
   {"msaa_depth", "4x MSAA with a 4x depth buffer: a tilted triangle through a square, depth tested per sample",
    draw_msaa_depth},
   {"msaa_texel_fetch", "texelFetch of each sample of a 4x texture (sampler2DMS, textureSize, textureSamples; GL 4.5)",
    draw_msaa_texel_fetch},
   {"msaa_depth_fetch", "texelFetch of each sample of a 4x depth texture (sampler2DMS, textureSize, textureSamples; GL 4.5)",
    draw_msaa_depth_fetch},
   {"msaa_8x_sample_masks",
    "8x where the driver has it (4x on llvmpipe): even and odd samples masked apart, texelFetch and the resolve (GL 4.5)",
    draw_msaa_8x_sample_masks},
};

} // namespace

std::span<const Scene> msaa_scenes()
{
   return scenes;
}

} // namespace terakan::gl_scenes
