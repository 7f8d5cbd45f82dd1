/* Sample-shading scenes (desktop GL 4.5 core: ARB_sample_shading, ARB_gpu_shader5's
 * interpolateAt* and the sample qualifier are core there, GLES 3.0 has none of them).
 *
 * Each scene draws into a 4x multisampled RGBA8 framebuffer object and resolves it with
 * glBlitFramebuffer into the desktop context's picture, which the harness then shows. r600g
 * turns per-sample shading on with PA_SC_MODE_CNTL_1.PS_ITER_SAMPLE (and Cayman's
 * DB_EQAA.PS_ITER_SAMPLES), loads gl_SampleID through SPI_PS_IN_CONTROL_1.FIXED_PT_POSITION,
 * gl_SampleMaskIn through the front-face GPR's z (masked with 1 << gl_SampleID by the shader),
 * gl_SamplePosition from a constant buffer, sample-qualified inputs through the PERSP_SAMPLE
 * I/J pair, interpolateAtCentroid through the centroid pair and interpolateAtSample/Offset by
 * moving the centre pair along its screen gradients (GET_GRADIENTS_H/V), and gl_SampleMask
 * through PIXEL 61's z with DB_SHADER_CONTROL.MASK_EXPORT_ENABLE. llvmpipe puts the four
 * samples where r600g does (scenes_msaa.cpp), so every sample sees the same coverage.
 *
 * Every sample's colour is a multiple of 4 in every channel (the resolve's average is then
 * exact). Interpolated colours are rounded to 16 levels first: r600g and llvmpipe evaluate the
 * same planes with different float operations, and unrounded values differed by one unit in
 * about 200 of the 4096 pixels; a level boundary falls between the two evaluations far more
 * rarely (vertices with w = 1, so perspective and linear interpolation agree). */
#include "scenes.h"

#include <EGL/egl.h>
#include <GLES3/gl31.h>

#include <functional>
#include <string>
#include <vector>

#include "failure.h"
#include "scene_kit.h"
#include "scene_tools.h"

namespace terakan::gl_scenes {

namespace {

constexpr GLenum GL_SAMPLE_SHADING_ = 0x8C36;
using MinSampleShading = void (*)(GLfloat value);

/* A 4x RGBA8 framebuffer object of the picture's size, bound while it lives; resolve_into
 * blits it into another framebuffer. */
class FourSampleTarget {
public:
   explicit FourSampleTarget(const SceneKit &kit) : width_(kit.width()), height_(kit.height())
   {
      glGenFramebuffers(1, &framebuffer_);
      glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
      glGenRenderbuffers(1, &renderbuffer_);
      glBindRenderbuffer(GL_RENDERBUFFER, renderbuffer_);
      glRenderbufferStorageMultisample(GL_RENDERBUFFER, 4, GL_RGBA8, width_, height_);
      glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, renderbuffer_);
      GLint got = 0;
      glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_SAMPLES, &got);
      glBindRenderbuffer(GL_RENDERBUFFER, 0);
      if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE || got != 4)
         throw Failure("the 4x framebuffer is incomplete or has " + std::to_string(got) + " samples");
      glViewport(0, 0, width_, height_);
   }
   ~FourSampleTarget()
   {
      glDeleteFramebuffers(1, &framebuffer_);
      glDeleteRenderbuffers(1, &renderbuffer_);
   }
   FourSampleTarget(const FourSampleTarget &) = delete;
   FourSampleTarget &operator=(const FourSampleTarget &) = delete;

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
   GLuint framebuffer_ = 0, renderbuffer_ = 0;
};

/* Grid positions (location 0) to clip space with w = 1, the colour (location 1) passed on as
 * v_colour (GLSL 4.50 wants the output sample-qualified when the input is). */
const char *const vertex_source = R"(#version 450 core
layout(location = 0) in vec2 a_position;
layout(location = 1) in vec4 a_colour;
layout(location = 0) @QUALIFIER@ out vec4 v_colour;
void main()
{
   gl_Position = vec4(a_position / 32.0 - 1.0, 0.0, 1.0);
   v_colour = a_colour;
}
)";

GLuint fragment_program(SceneKit &kit, const std::string &body, const char *qualifier = "")
{
   const std::string source = std::string("#version 450 core\n") + body;
   std::string vertex = vertex_source;
   vertex.replace(vertex.find("@QUALIFIER@"), 11, qualifier);
   return kit.program(vertex.c_str(), source.c_str());
}

void draw_triangles(SceneKit &kit, std::initializer_list<ColouredVertex> vertices)
{
   kit.coloured_vertices(vertices);
   glDrawArrays(GL_TRIANGLES, 0, GLsizei(vertices.size()));
}

/* Runs `draw` in a desktop GL 4.5 context with a 4x target cleared to night, resolves it and
 * shows the result. */
void draw_four_samples(SceneKit &kit, const std::function<void(SceneKit &)> &draw)
{
   const GLuint harness = bound_framebuffer();
   const Bytes pixels = draw_in_desktop_gl(kit, 4, 5, false, [&](SceneKit &desktop) {
      const GLuint picture = bound_framebuffer();
      FourSampleTarget target(desktop);
      SceneKit::clear_colour(night);
      glClear(GL_COLOR_BUFFER_BIT);
      draw(desktop);
      target.resolve_into(picture);
   });
   show(kit, harness, pixels);
}

/* Off the 1/8 grid of sample positions (as scenes_msaa.cpp): n + k/64, k odd. */
constexpr float off(int n, int k64)
{
   return float(n) + float(k64) / 64.0f;
}

/* gl_SampleID, gl_SampleMaskIn and gl_SamplePosition on slanted triangles (their use makes
 * the shader run per sample). Left: red = 64 x sample, green = 16 x the invocation's mask,
 * blue = 64 x the number of bits of the mask (1 under per-sample shading). Right: red and
 * green = 32 x the eighths of the sample's position. */
void draw_sample_builtins(SceneKit &kit)
{
   draw_four_samples(kit, [](SceneKit &desktop) {
      fragment_program(desktop, R"(
layout(location = 0) out vec4 colour;
void main()
{
   int mask = gl_SampleMaskIn[0];
   colour = vec4(float(64 * gl_SampleID), float(16 * mask), float(64 * bitCount(mask)), 255.0) / 255.0;
}
)");
      draw_triangles(desktop, {{off(2, 5), off(3, 9), paper}, {off(30, 3), off(10, 27), paper},
                               {off(12, 45), off(61, 1), paper}});
      fragment_program(desktop, R"(
layout(location = 0) out vec4 colour;
void main()
{
   vec2 eighths = floor(gl_SamplePosition * 8.0);
   colour = vec4(32.0 * eighths, 128.0, 255.0) / 255.0;
}
)");
      draw_triangles(desktop, {{off(34, 7), off(5, 11), paper}, {off(62, 3), off(20, 29), paper},
                               {off(40, 15), off(60, 3), paper}});
   });
}

/* Interpolation at samples: a colour gradient across each triangle (w = 1, so perspective and
 * linear agree) read through a sample-qualified input (top left), interpolateAtSample of
 * sample (gl_SampleID + 1) % 4 (top right), interpolateAtOffset(0.25, -0.125) (bottom left)
 * and interpolateAtCentroid (bottom right, in a shader that does not run per sample). */
void draw_sample_interpolation(SceneKit &kit)
{
   draw_four_samples(kit, [](SceneKit &desktop) {
      const Rgba8 a{240, 16, 32, 255}, b{16, 224, 48, 255}, c{32, 64, 232, 255};
      fragment_program(desktop, R"(
layout(location = 0) sample in vec4 v_colour;
layout(location = 0) out vec4 colour;
vec4 quantized(vec4 v) { return vec4(round(v.rgb * 15.0) * 16.0 / 255.0, v.a); }
void main() { colour = quantized(v_colour); }
)", "sample");
      draw_triangles(desktop, {{off(2, 5), off(34, 9), a}, {off(30, 3), off(36, 27), b}, {off(10, 45), off(62, 1), c}});
      fragment_program(desktop, R"(
layout(location = 0) in vec4 v_colour;
layout(location = 0) out vec4 colour;
vec4 quantized(vec4 v) { return vec4(round(v.rgb * 15.0) * 16.0 / 255.0, v.a); }
void main() { colour = quantized(interpolateAtSample(v_colour, (gl_SampleID + 1) % 4)); }
)");
      draw_triangles(desktop, {{off(34, 5), off(34, 9), a}, {off(62, 3), off(38, 27), b}, {off(40, 45), off(62, 5), c}});
      fragment_program(desktop, R"(
layout(location = 0) in vec4 v_colour;
layout(location = 0) out vec4 colour;
vec4 quantized(vec4 v) { return vec4(round(v.rgb * 15.0) * 16.0 / 255.0, v.a); }
void main() { colour = quantized(interpolateAtOffset(v_colour, vec2(0.25, -0.125))); }
)");
      draw_triangles(desktop, {{off(2, 5), off(2, 9), a}, {off(30, 3), off(4, 27), b}, {off(8, 45), off(30, 1), c}});
      fragment_program(desktop, R"(
layout(location = 0) in vec4 v_colour;
layout(location = 0) out vec4 colour;
vec4 quantized(vec4 v) { return vec4(round(v.rgb * 15.0) * 16.0 / 255.0, v.a); }
void main() { colour = quantized(interpolateAtCentroid(v_colour)); }
)");
      draw_triangles(desktop, {{off(34, 5), off(2, 9), a}, {off(62, 3), off(6, 27), b}, {off(38, 45), off(30, 1), c}});
   });
}

/* glMinSampleShading(1.0) on a shader that reads nothing per sample (PS_ITER_SAMPLE from the
 * state alone): a flat colour, whose samples agree however often the shader runs. */
void draw_min_sample_shading(SceneKit &kit)
{
   draw_four_samples(kit, [](SceneKit &desktop) {
      const auto min_sample_shading = reinterpret_cast<MinSampleShading>(eglGetProcAddress("glMinSampleShading"));
      if (!min_sample_shading)
         throw Failure("eglGetProcAddress(glMinSampleShading) returned nothing");
      glEnable(GL_SAMPLE_SHADING_);
      min_sample_shading(1.0f);
      fragment_program(desktop, R"(
layout(location = 0) flat in vec4 v_colour;
layout(location = 0) out vec4 colour;
vec4 quantized(vec4 v) { return vec4(round(v.rgb * 15.0) * 16.0 / 255.0, v.a); }
void main() { colour = quantized(v_colour); }
)");
      draw_triangles(desktop, {{off(2, 5), off(3, 9), teal}, {off(30, 3), off(10, 27), teal},
                               {off(12, 45), off(61, 1), teal}});
      glDisable(GL_SAMPLE_SHADING_);
   });
}

/* gl_SampleMask (r600g: PIXEL 61 z with DB_SHADER_CONTROL.MASK_EXPORT_ENABLE): left, once per
 * pixel, pixel (x, y) keeps the samples (x + y) & 15; right, per sample (gl_SampleID), only the
 * odd samples are kept. Flat colours whose channels are multiples of 4 over night, so each
 * resolved pixel shows how many samples were kept. */
void draw_sample_mask_out(SceneKit &kit)
{
   draw_four_samples(kit, [](SceneKit &desktop) {
      fragment_program(desktop, R"(
layout(location = 0) flat in vec4 v_colour;
layout(location = 0) out vec4 colour;
void main()
{
   gl_SampleMask[0] = (int(gl_FragCoord.x) + int(gl_FragCoord.y)) & 15;
   colour = v_colour;
}
)");
      draw_triangles(desktop, {{off(2, 5), off(3, 9), teal}, {off(30, 3), off(10, 27), teal},
                               {off(12, 45), off(61, 1), teal}});
      fragment_program(desktop, R"(
layout(location = 0) flat in vec4 v_colour;
layout(location = 0) out vec4 colour;
void main()
{
   gl_SampleMask[0] = (gl_SampleID & 1) != 0 ? -1 : 0;
   colour = v_colour;
}
)");
      draw_triangles(desktop, {{off(34, 7), off(5, 11), amber}, {off(62, 3), off(20, 29), amber},
                               {off(40, 15), off(60, 3), amber}});
   });
}

const Scene scenes[] = {
   {"sample_builtins", "4x per-sample shading: gl_SampleID, gl_SampleMaskIn, gl_SamplePosition (desktop GL 4.5)",
    draw_sample_builtins},
   {"sample_interpolation",
    "4x: a sample-qualified input, interpolateAtSample, interpolateAtOffset, interpolateAtCentroid (desktop GL 4.5)",
    draw_sample_interpolation},
   {"min_sample_shading", "4x: glMinSampleShading(1.0) on a flat-coloured triangle (desktop GL 4.5)",
    draw_min_sample_shading},
   {"sample_mask_out", "4x: gl_SampleMask per pixel and per sample (desktop GL 4.5)", draw_sample_mask_out},
};

} // namespace

std::span<const Scene> sample_shading_scenes()
{
   return scenes;
}

} // namespace terakan::gl_scenes
