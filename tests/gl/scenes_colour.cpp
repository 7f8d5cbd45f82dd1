/* Colour-buffer scenes: formats, logic operations, several render targets, dual-source
 * blending.
 *
 * The harness reads one RGBA8 picture, so a scene that renders into another format reads its
 * own framebuffer back with glReadPixels in the format's own type (the stored bits, not a
 * conversion the two drivers might round differently), turns every pixel into four bytes that
 * keep those bits (encode_* below), and draws the bytes into the harness's framebuffer through
 * an RGBA8 texture and texelFetch, which texture_sample already shows to be exact.
 *
 * Logic operations are desktop GL only (GLES 2/3 have no glLogicOp), so logic_ops draws in a
 * desktop GL 3.3 core context made beside the harness's GLES one on the same EGL display (both
 * r600g and llvmpipe give 4.5 core; "#version 300 es" shaders are core since GL 4.3,
 * ARB_ES3_compatibility), then hands its pixels to the GLES context the same way. */
#include "scenes.h"

#include <EGL/egl.h>
#include <GLES3/gl31.h>
#include <GLES2/gl2ext.h> /* after gl31.h, which it builds on */

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "failure.h"
#include "scene_kit.h"
#include "scene_tools.h"

namespace terakan::gl_scenes {

namespace {

const char *position_vertex_shader = R"(#version 300 es
layout(location = 0) in vec2 a_position;
void main()
{
   gl_Position = vec4(a_position / 32.0 - 1.0, 0.0, 1.0);
}
)";

/* A fragment shader that writes the uniform u_colour, of the given type ("vec4",
 * "highp uvec4", "highp ivec4"), to its one output. */
std::string uniform_colour_fragment_shader(const std::string &type)
{
   return R"(#version 300 es
precision highp float;
uniform )" + type + R"( u_colour;
out )" + type + R"( o_colour;
void main()
{
   o_colour = u_colour;
}
)";
}

/* A triangle in grid units: every slanted edge has an even dx and an odd dy, so no pixel
 * centre (odd halves on both axes) lies on one; the others are horizontal. */
using Triangle = std::array<float, 6>;

/* The pattern the format scenes draw: a big triangle, a second one over it (blended where the
 * format blends) and one small triangle in the left and right halves. */
constexpr Triangle pattern[4] = {
   {2, 3, 62, 3, 30, 60},
   {4, 58, 60, 58, 46, 9},
   {6, 40, 26, 40, 16, 21},
   {38, 24, 58, 24, 48, 43},
};

void draw_triangle(SceneKit &kit, const Triangle &triangle)
{
   kit.position_vertices(triangle);
   glDrawArrays(GL_TRIANGLES, 0, 3);
}

GLint uniform(GLuint program, const char *name)
{
   const GLint location = glGetUniformLocation(program, name);
   if (location < 0)
      throw Failure(std::string("the program has no uniform ") + name);
   return location;
}

/* How the pattern's second triangle is drawn. Formats narrower than 8 bits are not blended
 * with fractions: llvmpipe blends them at 8 bits and truncates to the format, the hardware
 * (as the simulator models it) converts the float result once, rounding to nearest, so most
 * fractional blends differ by one step; additive blends of exact values agree. */
enum class Blend { none, alpha, additive };

/* Draws the pattern with colours[0] as the clear colour and colours[1..4] for the triangles. */
void draw_float_pattern(SceneKit &kit, const std::array<std::array<float, 4>, 5> &colours, Blend blend)
{
   const GLuint program = kit.program(position_vertex_shader, uniform_colour_fragment_shader("vec4").c_str());
   const GLint colour = uniform(program, "u_colour");
   glClearColor(colours[0][0], colours[0][1], colours[0][2], colours[0][3]);
   glClear(GL_COLOR_BUFFER_BIT);
   for (int i = 0; i < 4; i++) {
      if (blend != Blend::none && i == 1) {
         glEnable(GL_BLEND);
         if (blend == Blend::alpha)
            glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
         else
            glBlendFunc(GL_ONE, GL_ONE);
      }
      glUniform4fv(colour, 1, colours[size_t(i) + 1].data());
      draw_triangle(kit, pattern[i]);
      glDisable(GL_BLEND);
   }
}

/* The same for an integer format (GLuint or GLint channels), whose values are not blended. */
template <typename Channel>
void draw_integer_pattern(SceneKit &kit, const std::array<std::array<Channel, 4>, 5> &colours)
{
   constexpr bool is_unsigned = std::is_same_v<Channel, GLuint>;
   const GLuint program = kit.program(
      position_vertex_shader, uniform_colour_fragment_shader(is_unsigned ? "highp uvec4" : "highp ivec4").c_str());
   const GLint colour = uniform(program, "u_colour");
   if constexpr (is_unsigned)
      glClearBufferuiv(GL_COLOR, 0, colours[0].data());
   else
      glClearBufferiv(GL_COLOR, 0, colours[0].data());
   for (int i = 0; i < 4; i++) {
      if constexpr (is_unsigned)
         glUniform4uiv(colour, 1, colours[size_t(i) + 1].data());
      else
         glUniform4iv(colour, 1, colours[size_t(i) + 1].data());
      draw_triangle(kit, pattern[i]);
   }
}

/* How a format is read back and turned into four bytes per pixel that keep its bits. */
enum class Readback {
   bytes,          /* GL_RGBA / GL_UNSIGNED_BYTE: 8-bit normalized formats, as they are */
   packed_565,     /* GL_RGB / GL_UNSIGNED_SHORT_5_6_5 */
   packed_4444,    /* GL_RGBA / GL_UNSIGNED_SHORT_4_4_4_4 */
   packed_5551,    /* GL_RGBA / GL_UNSIGNED_SHORT_5_5_5_1 */
   packed_1010102, /* GL_RGBA / GL_UNSIGNED_INT_2_10_10_10_REV */
   uint_1010102,   /* GL_RGBA_INTEGER / GL_UNSIGNED_INT of RGB10_A2UI */
   floats,         /* GL_RGBA / GL_FLOAT */
   int_low_bytes,  /* GL_RGBA_INTEGER / GL_(UNSIGNED_)INT, each channel's low byte (8-bit integers) */
   uint32_red,     /* GL_RGBA_INTEGER / GL_UNSIGNED_INT, the red channel's four bytes */
};

uint8_t widen(unsigned value, unsigned bits)
{
   const unsigned max = (1u << bits) - 1;
   return uint8_t((value * 255 + max / 2) / max);
}

/* Ten-bit channels: their high eight bits in r, g, b and every remaining bit in a. */
void encode_1010102(const unsigned channel[4], uint8_t *out)
{
   for (int c = 0; c < 3; c++)
      out[c] = uint8_t(channel[c] >> 2);
   out[3] = uint8_t((channel[0] & 3) | (channel[1] & 3) << 2 | (channel[2] & 3) << 4 | (channel[3] & 3) << 6);
}

/* Floats: r, g, b show the values on a scale from -4/3 to 4 (to look at), a folds the bits
 * of all four (so that any difference in any bit shows). */
void encode_floats(const float value[4], uint8_t *out)
{
   uint32_t fold = 0;
   for (int c = 0; c < 4; c++) {
      uint32_t bits;
      std::memcpy(&bits, &value[c], 4);
      fold = (fold * 0x01000193u) ^ bits;
      if (c < 3)
         out[c] = uint8_t(std::clamp(std::lround(value[c] * 48.0f + 64.0f), 0l, 255l));
   }
   out[3] = uint8_t(fold ^ fold >> 8 ^ fold >> 16 ^ fold >> 24);
}

/* Reads the bound read framebuffer's read buffer in the readback's type and encodes it. */
Bytes read_encoded(int width, int height, Readback readback, bool is_signed = false)
{
   const size_t pixels = size_t(width) * size_t(height);
   Bytes out(pixels * 4);
   glPixelStorei(GL_PACK_ALIGNMENT, 1);
   switch (readback) {
   case Readback::bytes:
      glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, out.data());
      break;
   case Readback::packed_565:
   case Readback::packed_4444:
   case Readback::packed_5551: {
      std::vector<uint16_t> raw(pixels);
      const bool rgb = readback == Readback::packed_565;
      const GLenum type = rgb ? GL_UNSIGNED_SHORT_5_6_5
                          : readback == Readback::packed_4444 ? GL_UNSIGNED_SHORT_4_4_4_4
                                                              : GL_UNSIGNED_SHORT_5_5_5_1;
      glReadPixels(0, 0, width, height, rgb ? GL_RGB : GL_RGBA, type, raw.data());
      for (size_t i = 0; i < pixels; i++) {
         const unsigned v = raw[i];
         uint8_t *o = &out[i * 4];
         if (readback == Readback::packed_565) {
            o[0] = widen(v >> 11, 5), o[1] = widen((v >> 5) & 63, 6), o[2] = widen(v & 31, 5), o[3] = 255;
         } else if (readback == Readback::packed_4444) {
            for (int c = 0; c < 4; c++)
               o[c] = widen((v >> (12 - 4 * c)) & 15, 4);
         } else {
            o[0] = widen(v >> 11, 5), o[1] = widen((v >> 6) & 31, 5), o[2] = widen((v >> 1) & 31, 5);
            o[3] = (v & 1) ? 255 : 0;
         }
      }
      break;
   }
   case Readback::packed_1010102: {
      std::vector<uint32_t> raw(pixels);
      glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_INT_2_10_10_10_REV, raw.data());
      for (size_t i = 0; i < pixels; i++) {
         const unsigned channel[4] = {raw[i] & 1023, (raw[i] >> 10) & 1023, (raw[i] >> 20) & 1023, raw[i] >> 30};
         encode_1010102(channel, &out[i * 4]);
      }
      break;
   }
   case Readback::uint_1010102:
   case Readback::int_low_bytes:
   case Readback::uint32_red: {
      std::vector<uint32_t> raw(pixels * 4);
      glReadPixels(0, 0, width, height, GL_RGBA_INTEGER, is_signed ? GL_INT : GL_UNSIGNED_INT, raw.data());
      for (size_t i = 0; i < pixels; i++) {
         const uint32_t *v = &raw[i * 4];
         uint8_t *o = &out[i * 4];
         if (readback == Readback::uint_1010102) {
            const unsigned channel[4] = {v[0], v[1], v[2], v[3]};
            encode_1010102(channel, o);
         } else if (readback == Readback::int_low_bytes) {
            for (int c = 0; c < 4; c++)
               o[c] = uint8_t(v[c]);
         } else {
            for (int c = 0; c < 4; c++)
               o[c] = uint8_t(v[0] >> (8 * c));
         }
      }
      break;
   }
   case Readback::floats: {
      std::vector<float> raw(pixels * 4);
      glReadPixels(0, 0, width, height, GL_RGBA, GL_FLOAT, raw.data());
      for (size_t i = 0; i < pixels; i++)
         encode_floats(&raw[i * 4], &out[i * 4]);
      break;
   }
   }
   glPixelStorei(GL_PACK_ALIGNMENT, 4);
   return out;
}

/* A framebuffer object whose colour attachments are textures of the given formats, bound
 * while it lives, with every attachment a draw buffer. */
class FormatTarget {
public:
   FormatTarget(const SceneKit &kit, std::initializer_list<GLenum> formats)
   {
      glGenFramebuffers(1, &framebuffer_);
      glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
      std::vector<GLenum> draw_buffers;
      for (const GLenum format : formats) {
         GLuint texture = 0;
         glGenTextures(1, &texture);
         textures_.push_back(texture);
         glBindTexture(GL_TEXTURE_2D, texture);
         glTexStorage2D(GL_TEXTURE_2D, 1, format, kit.width(), kit.height());
         const GLenum attachment = GL_COLOR_ATTACHMENT0 + GLenum(draw_buffers.size());
         glFramebufferTexture2D(GL_FRAMEBUFFER, attachment, GL_TEXTURE_2D, texture, 0);
         draw_buffers.push_back(attachment);
      }
      glBindTexture(GL_TEXTURE_2D, 0);
      glDrawBuffers(GLsizei(draw_buffers.size()), draw_buffers.data());
      const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
      if (status != GL_FRAMEBUFFER_COMPLETE)
         throw Failure("a framebuffer of the scene's formats is incomplete (status 0x" + std::to_string(status) +
                       ", GL error " + std::to_string(glGetError()) + ")");
   }
   ~FormatTarget()
   {
      glDeleteFramebuffers(1, &framebuffer_);
      glDeleteTextures(GLsizei(textures_.size()), textures_.data());
   }
   FormatTarget(const FormatTarget &) = delete;
   FormatTarget &operator=(const FormatTarget &) = delete;

   /* Reads attachment n (which stays the read buffer). */
   Bytes read(const SceneKit &kit, unsigned n, Readback readback, bool is_signed = false) const
   {
      glReadBuffer(GL_COLOR_ATTACHMENT0 + n);
      return read_encoded(kit.width(), kit.height(), readback, is_signed);
   }

private:
   GLuint framebuffer_ = 0;
   std::vector<GLuint> textures_;
};

/* Left half from a, right half from b. */
Bytes halves(const SceneKit &kit, const Bytes &a, const Bytes &b)
{
   Bytes out = a;
   for (int y = 0; y < kit.height(); y++)
      for (int x = kit.width() / 2; x < kit.width(); x++) {
         const size_t at = (size_t(y) * size_t(kit.width()) + size_t(x)) * 4;
         std::memcpy(&out[at], &b[at], 4);
      }
   return out;
}

/* Quadrant q (0 bottom left, 1 bottom right, 2 top left, 3 top right) from parts[q]. */
Bytes quadrants(const SceneKit &kit, const std::vector<Bytes> &parts)
{
   Bytes out = parts[0];
   for (int y = 0; y < kit.height(); y++)
      for (int x = 0; x < kit.width(); x++) {
         const size_t q = (x >= kit.width() / 2 ? 1 : 0) + (y >= kit.height() / 2 ? 2 : 0);
         const size_t at = (size_t(y) * size_t(kit.width()) + size_t(x)) * 4;
         std::memcpy(&out[at], &parts[std::min(q, parts.size() - 1)][at], 4);
      }
   return out;
}

/* Unorm colours with no channel near a rounding tie at 8 bits (0.1 * 255 is one), nor their
 * blends with alpha 0.6. */
constexpr std::array<std::array<float, 4>, 5> unorm_colours = {{
   {0.15f, 0.2f, 0.35f, 1.0f},
   {0.85f, 0.35f, 0.05f, 1.0f},
   {0.2f, 0.8f, 0.6f, 0.6f},
   {1.0f, 1.0f, 0.15f, 0.0f},
   {0.45f, 0.15f, 0.95f, 1.0f},
}};

/* Whole bytes, for 8-bit targets blended additively (llvmpipe adds at 8 bits, after rounding
 * each operand; the float sum rounded once agrees only for whole steps). In an sRGB target
 * each colour channel is also encoded, unblended or after the sum, and no encoding here lies
 * within 0.2 of a rounding tie: with 217 (sRGB 237.507) the two drivers differed by one code on
 * 9 of the triangle's pixels once Debian's Mesa became 22.3.6-1+deb12u2 (3 December; they agreed
 * with deb12u1). Vulkan and GL allow that error, so the scene keeps away from ties rather than
 * compare within one code. */
std::array<std::array<float, 4>, 5> steps(const std::array<std::array<int, 4>, 5> &values,
                                          const std::array<int, 4> &bits);
const std::array<std::array<float, 4>, 5> byte_colours =
   steps({{{39, 53, 90, 255}, {218, 90, 13, 128}, {53, 204, 157, 100}, {255, 255, 39, 0}, {115, 39, 242, 255}}},
         {8, 8, 8, 8});

/* Colours whose channels are exact steps of a format with the given channel widths (k / max):
 * both rules, round to nearest from the float and llvmpipe's through 8 bits, give k. */
std::array<std::array<float, 4>, 5> steps(const std::array<std::array<int, 4>, 5> &values,
                                          const std::array<int, 4> &bits)
{
   std::array<std::array<float, 4>, 5> out;
   for (size_t i = 0; i < 5; i++)
      for (size_t c = 0; c < 4; c++)
         out[i][c] = float(values[i][c]) / float((1 << bits[c]) - 1);
   return out;
}

/* ---- formats ---- */

/* The pattern in one format, drawn with float colours, read back and shown. */
void show_float_pattern(SceneKit &kit, GLenum format, const std::array<std::array<float, 4>, 5> &colours, Blend blend,
                        Readback readback)
{
   const GLuint framebuffer = bound_framebuffer();
   FormatTarget target(kit, {format});
   draw_float_pattern(kit, colours, blend);
   show(kit, framebuffer, target.read(kit, 0, readback));
}

void draw_format_rgb565(SceneKit &kit)
{
   show_float_pattern(kit, GL_RGB565,
                      steps({{{3, 10, 20, 1}, {30, 40, 2, 1}, {5, 21, 9, 0}, {31, 63, 0, 1}, {14, 1, 29, 1}}}, {5, 6, 5, 1}),
                      Blend::additive, Readback::packed_565);
}

/* GL_RGBA4 only: RGB5_A1 would need glReadPixels with GL_UNSIGNED_SHORT_5_5_5_1, which Mesa
 * refuses for it (GL_INVALID_OPERATION), and its GL_UNSIGNED_BYTE reads widen 5 bits
 * differently on the two drivers (rounding against bit replication). */
void draw_format_rgba4(SceneKit &kit)
{
   show_float_pattern(kit, GL_RGBA4,
                      steps({{{2, 4, 6, 15}, {12, 5, 1, 9}, {3, 8, 7, 4}, {15, 15, 0, 2}, {7, 1, 14, 15}}}, {4, 4, 4, 4}),
                      Blend::additive, Readback::bytes);
}

void draw_format_rgb10_a2(SceneKit &kit)
{
   const GLuint framebuffer = bound_framebuffer();
   Bytes unorm, uint;
   {
      FormatTarget target(kit, {GL_RGB10_A2});
      draw_float_pattern(kit,
                         steps({{{100, 250, 333, 3}, {900, 401, 17, 1}, {77, 600, 123, 1}, {1023, 1000, 3, 2},
                                 {512, 511, 1022, 0}}},
                               {10, 10, 10, 2}),
                         Blend::additive);
      unorm = target.read(kit, 0, Readback::packed_1010102);
   }
   {
      FormatTarget target(kit, {GL_RGB10_A2UI});
      /* Values past 10 (and 2) bits are clamped to the largest one. */
      draw_integer_pattern<GLuint>(kit, {{{100, 200, 300, 1}, {1023, 512, 5, 3}, {4000, 7, 640, 2}, {1, 1022, 1023, 0},
                                          {333, 666, 999, 9}}});
      uint = target.read(kit, 0, Readback::uint_1010102);
   }
   show(kit, framebuffer, halves(kit, unorm, uint));
}

void draw_format_r11g11b10f(SceneKit &kit)
{
   /* Values the 6- and 5-bit mantissas hold exactly, and blends of them that stay exact. */
   show_float_pattern(kit, GL_R11F_G11F_B10F,
                      {{{0.25f, 0.5f, 1.0f, 1.0f},
                        {2.0f, 0.125f, 3.0f, 1.0f},
                        {0.75f, 1.5f, 0.5f, 0.5f},
                        {0.0f, 3.5f, 0.25f, 1.0f},
                        {1.25f, 0.0625f, 2.5f, 1.0f}}},
                      Blend::alpha, Readback::floats);
}

constexpr std::array<std::array<float, 4>, 5> float_colours = {{
   {0.25f, -0.5f, 1.0f, 1.0f},
   {2.0f, 0.125f, 3.0f, 1.0f},
   {-0.75f, 1.5f, 0.3f, 0.5f},
   {0.0f, 3.5f, 0.25f, 0.1f},
   {1.25f, -0.0625f, 2.5f, 1.0f},
}};

void draw_format_floats(SceneKit &kit)
{
   const GLuint framebuffer = bound_framebuffer();
   std::vector<Bytes> parts;
   /* RGBA16F and RG32F (8 bytes a pixel) are left out: r600g lays them out 2D tiled even at
    * 64x64, which the simulator does not address yet. The fourth quadrant repeats R32F. */
   for (const GLenum format : {GL_R16F, GL_RG16F, GL_R32F}) {
      FormatTarget target(kit, {format});
      draw_float_pattern(kit, float_colours, Blend::alpha);
      parts.push_back(target.read(kit, 0, Readback::floats));
   }
   show(kit, framebuffer, quadrants(kit, parts));
}

void draw_format_integers(SceneKit &kit)
{
   const GLuint framebuffer = bound_framebuffer();
   std::vector<Bytes> parts;
   {
      FormatTarget target(kit, {GL_R32UI});
      draw_integer_pattern<GLuint>(kit, {{{0x10203040u, 0, 0, 0}, {0xff8040c0u, 0, 0, 0}, {0x00ff00ffu, 0, 0, 0},
                                          {0x80808080u, 0, 0, 0}, {0x20e060a0u, 0, 0, 0}}});
      parts.push_back(target.read(kit, 0, Readback::uint32_red));
   }
   {
      FormatTarget target(kit, {GL_RGBA8UI});
      /* 300 and 1000 are clamped to 255. */
      draw_integer_pattern<GLuint>(kit, {{{16, 32, 48, 255}, {300, 128, 1, 200}, {0, 255, 96, 1000}, {64, 64, 192, 100},
                                          {250, 10, 170, 255}}});
      parts.push_back(target.read(kit, 0, Readback::int_low_bytes));
   }
   for (int i = 0; i < 2; i++) {
      FormatTarget target(kit, {GL_RGBA8I});
      /* -200 and 500 are clamped to -128 and 127. */
      draw_integer_pattern<GLint>(kit, {{{-16, 32, -48, 127}, {-200, 100, 1, 60}, {0, -1, 96, 500},
                                         {64, -64, 120, -100}, {-128, 10, 127, 0}}});
      parts.push_back(target.read(kit, 0, Readback::int_low_bytes, true));
   }
   show(kit, framebuffer, quadrants(kit, parts));
}

void draw_format_r8_rg8_srgb(SceneKit &kit)
{
   const GLuint framebuffer = bound_framebuffer();
   std::vector<Bytes> parts;
   for (const GLenum format : {GL_R8, GL_RG8, GL_SRGB8_ALPHA8, GL_RGBA8}) {
      FormatTarget target(kit, {format});
      draw_float_pattern(kit, byte_colours, Blend::additive);
      parts.push_back(target.read(kit, 0, Readback::bytes));
   }
   show(kit, framebuffer, quadrants(kit, parts));
}

/* SNORM targets, blended: r600g offers them as blendable (evergreen_is_format_supported: every
 * colour-buffer format that is not pure integer) and sets BLEND_CLAMP for them, so the CB
 * clamps the sources to [-1, 1], blends in float and rounds to the nearest code, which GL asks
 * too. Negative colours over negative destinations, alpha blending and additive blending that
 * leaves [-1, 1] (clamped at the write); the blended triangle's blue, 1.75, must be clamped to
 * 1 before the blend. Colours are exact codes (k / 127) and the blended triangle has alpha 0.5,
 * with codes whose sums with the destinations' are even (the clamped blue is 127, over odd
 * codes), so every blend lands on a code or a quarter away from one: llvmpipe blends 8-bit
 * targets in fixed point, and a fraction near a rounding tie would make the two drivers
 * disagree by one code where both are right. */
constexpr float snorm_code(int k)
{
   return float(k) / 127.0f;
}

constexpr std::array<std::array<float, 4>, 5> snorm_colours = {{
   {snorm_code(-64), snorm_code(32), snorm_code(-125), snorm_code(96)},
   {snorm_code(76), snorm_code(-102), snorm_code(39), 1.0f},
   {snorm_code(-114), snorm_code(64), 1.75f, 0.5f},
   {0.2f, -0.3f, -0.6f, -0.5f},
   {1.5f, -1.5f, 0.05f, 0.9f},
}};

void draw_format_snorm(SceneKit &kit)
{
   const GLuint framebuffer = bound_framebuffer();
   /* Desktop GL: GLES 3.2 renders SNORM only with EXT_render_snorm, which Mesa 22.3 offers
    * neither driver here. */
   const Bytes pixels = draw_in_desktop_gl(kit, 3, 3, false, [](SceneKit &desktop) {
      const GLuint desktop_framebuffer = bound_framebuffer();
      std::vector<Bytes> parts;
      for (const auto &[format, blend] :
           {std::pair{GL_RGBA8_SNORM, Blend::alpha}, std::pair{GL_RGBA8_SNORM, Blend::additive},
            std::pair{GL_RG8_SNORM, Blend::alpha}, std::pair{GL_R8_SNORM, Blend::additive}}) {
         FormatTarget target(desktop, {GLenum(format)});
         draw_float_pattern(desktop, snorm_colours, blend);
         parts.push_back(target.read(desktop, 0, Readback::floats));
      }
      show(desktop, desktop_framebuffer, quadrants(desktop, parts));
   });
   show(kit, framebuffer, pixels);
}

/* ---- several render targets ---- */

const char *mrt_fragment_shader = R"(#version 300 es
precision highp float;
uniform vec4 u_colour;
layout(location = 0) out vec4 o_colour0;
layout(location = 1) out vec4 o_colour1;
layout(location = 2) out vec4 o_colour2;
layout(location = 3) out vec4 o_colour3;
void main()
{
   o_colour0 = u_colour;
   o_colour1 = u_colour.bgra;
   o_colour2 = vec4(u_colour.g, u_colour.r, 0.5, u_colour.a);
   o_colour3 = u_colour * 2.0 - 0.5;
}
)";

/* Four targets of four formats, each given its own function of the colour by one shader. */
void draw_mrt_formats(SceneKit &kit)
{
   const GLuint framebuffer = bound_framebuffer();
   FormatTarget target(kit, {GL_RGBA8, GL_R8, GL_RG8, GL_R32F});
   const GLuint program = kit.program(position_vertex_shader, mrt_fragment_shader);
   const GLint colour = uniform(program, "u_colour");
   const float clear[4][4] = {{0.15f, 0.2f, 0.35f, 1.0f}, {0.8f, 0.15f, 0.4f, 1.0f}, {0.35f, 0.6f, 0, 0},
                              {-0.5f, 0.25f, 1.5f, 1.0f}};
   for (int n = 0; n < 4; n++)
      glClearBufferfv(GL_COLOR, n, clear[n]);
   for (int i = 0; i < 4; i++) {
      if (i == 1) {
         glEnable(GL_BLEND);
         glBlendFunc(GL_ONE, GL_ONE);
      }
      glUniform4fv(colour, 1, byte_colours[size_t(i) + 1].data());
      draw_triangle(kit, pattern[i]);
      glDisable(GL_BLEND);
   }
   show(kit, framebuffer,
        quadrants(kit, {target.read(kit, 0, Readback::bytes), target.read(kit, 1, Readback::bytes),
                        target.read(kit, 2, Readback::bytes), target.read(kit, 3, Readback::floats)}));
}

const char *mrt_gap_fragment_shader = R"(#version 300 es
precision highp float;
uniform vec4 u_colour;
layout(location = 0) out vec4 o_colour0;
layout(location = 2) out vec4 o_colour2;
void main()
{
   o_colour0 = u_colour;
   o_colour2 = u_colour.gbra;
}
)";

/* Not in the simulated list (tests/gl/meson.build): r600g 22.3.6 numbers its pixel exports by
 * the outputs' compacted driver locations (sfn_shader_fs.cpp), so output 2 is exported as
 * PIXEL 1 and CB_SHADER_MASK is 0xff; attachment 2 keeps its clear colour on r600g.
 *
 * Attachments 0, 1 and 2 with draw buffers {0, NONE, 2}: the shader's outputs 0 and 2 go to
 * targets 0 and 2, attachment 1 keeps its clear colour; a colour mask on everything. */
void draw_mrt_gap(SceneKit &kit)
{
   const GLuint framebuffer = bound_framebuffer();
   FormatTarget target(kit, {GL_RGBA8, GL_RGBA8, GL_RGBA8});
   const float clear[3][4] = {{0.15f, 0.2f, 0.35f, 1.0f}, {0.8f, 0.15f, 0.4f, 1.0f}, {0.35f, 0.6f, 0.85f, 0.55f}};
   for (int n = 0; n < 3; n++)
      glClearBufferfv(GL_COLOR, n, clear[n]);
   const GLenum buffers[3] = {GL_COLOR_ATTACHMENT0, GL_NONE, GL_COLOR_ATTACHMENT2};
   glDrawBuffers(3, buffers);
   const GLuint program = kit.program(position_vertex_shader, mrt_gap_fragment_shader);
   const GLint colour = uniform(program, "u_colour");
   for (int i = 0; i < 4; i++) {
      glColorMask(GL_TRUE, i != 2, GL_TRUE, i != 3);
      glUniform4fv(colour, 1, unorm_colours[size_t(i) + 1].data());
      draw_triangle(kit, pattern[i]);
   }
   glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
   show(kit, framebuffer,
        quadrants(kit, {target.read(kit, 0, Readback::bytes), target.read(kit, 1, Readback::bytes),
                        target.read(kit, 2, Readback::bytes), target.read(kit, 0, Readback::bytes)}));
}

/* ---- dual-source blending (GL_EXT_blend_func_extended) ---- */

const char *dual_source_fragment_shader = R"(#version 300 es
#extension GL_EXT_blend_func_extended : require
precision highp float;
uniform vec4 u_colour;
uniform vec4 u_factor;
layout(location = 0, index = 0) out vec4 o_colour;
layout(location = 0, index = 1) out vec4 o_factor;
void main()
{
   o_colour = u_colour;
   o_factor = u_factor;
}
)";

void require_extension(const char *name)
{
   GLint count = 0;
   glGetIntegerv(GL_NUM_EXTENSIONS, &count);
   for (GLint i = 0; i < count; i++)
      if (std::strcmp(reinterpret_cast<const char *>(glGetStringi(GL_EXTENSIONS, GLuint(i))), name) == 0)
         return;
   throw Failure(std::string("the driver lacks ") + name);
}

void draw_dual_source_blend(SceneKit &kit)
{
   require_extension("GL_EXT_blend_func_extended");
   /* Every colour is a multiple of 4/255 and every factor a multiple of 1/4, so that each
    * product is a whole number of 1/255 steps: llvmpipe's 8-bit blend arithmetic and the
    * float blend both give it exactly (a result half-way between two steps would not). */
   draw_float_pattern(kit,
                      steps({{{32, 64, 96, 252}, {216, 88, 12, 252}, {52, 204, 152, 152}, {252, 252, 40, 0},
                              {112, 40, 240, 252}}},
                            {8, 8, 8, 8}),
                      Blend::none);
   const GLuint program = kit.program(position_vertex_shader, dual_source_fragment_shader);
   const GLint colour = uniform(program, "u_colour"), factor = uniform(program, "u_factor");
   glEnable(GL_BLEND);
   /* colour + destination * second colour, per channel */
   glBlendFunc(GL_ONE, GL_SRC1_COLOR_EXT);
   glUniform4f(colour, 64 / 255.0f, 0.0f, 32 / 255.0f, 128 / 255.0f);
   glUniform4f(factor, 0.5f, 1.0f, 0.25f, 0.75f);
   draw_triangle(kit, {4, 12, 60, 12, 32, 55});
   /* second alpha * colour + (1 - second colour) * destination; alpha: the second alpha */
   glBlendFuncSeparate(GL_SRC1_ALPHA_EXT, GL_ONE_MINUS_SRC1_COLOR_EXT, GL_ONE_MINUS_SRC1_ALPHA_EXT, GL_ZERO);
   glUniform4f(colour, 252 / 255.0f, 128 / 255.0f, 0.0f, 252 / 255.0f);
   glUniform4f(factor, 0.5f, 0.75f, 0.0f, 0.5f);
   draw_triangle(kit, {10, 30, 54, 30, 20, 61});
   glDisable(GL_BLEND);
}

/* ---- logic operations (desktop GL) ---- */

/* Every GL logic operation in a 4x4 grid of cells, each drawn over a striped destination:
 * two triangles of two source colours per cell, overlapping along its diagonal (where the
 * operation applies twice). */
void draw_logic_ops(SceneKit &kit)
{
   const GLuint framebuffer = bound_framebuffer();
   const Bytes pixels = draw_in_desktop_gl(kit, 3, 3, false, [](SceneKit &desktop) {
      auto logic_op = reinterpret_cast<void (*)(GLenum)>(eglGetProcAddress("glLogicOp"));
      if (!logic_op)
         throw Failure("eglGetProcAddress(glLogicOp) returned nothing");
      constexpr GLenum GL_COLOR_LOGIC_OP_ = 0x0BF2, GL_CLEAR_ = 0x1500; /* desktop GL enums */
      const GLuint program = desktop.program(position_vertex_shader, uniform_colour_fragment_shader("vec4").c_str());
      const GLint colour = uniform(program, "u_colour");
      glClearColor(0x5a / 255.0f, 0xc3 / 255.0f, 0x0f / 255.0f, 0xf0 / 255.0f);
      glClear(GL_COLOR_BUFFER_BIT);
      /* Stripes of another destination colour across the whole picture. */
      glUniform4f(colour, 0x3c / 255.0f, 0x99 / 255.0f, 0xe1 / 255.0f, 0x66 / 255.0f);
      draw_triangle(desktop, {0, 1, 64, 1, 0, 22});
      draw_triangle(desktop, {64, 63, 0, 63, 64, 42});
      glEnable(GL_COLOR_LOGIC_OP_);
      for (unsigned op = 0; op < 16; op++) {
         logic_op(GL_CLEAR_ + op);
         const float x = float(op % 4) * 16, y = float(op / 4) * 16;
         glUniform4f(colour, 0xa5 / 255.0f, 0x0f / 255.0f, 0x77 / 255.0f, 0x81 / 255.0f);
         draw_triangle(desktop, {x + 1, y + 1, x + 15, y + 1, x + 1, y + 14});
         glUniform4f(colour, 0x18 / 255.0f, 0xf0 / 255.0f, 0xcc / 255.0f, 0x2e / 255.0f);
         draw_triangle(desktop, {x + 15, y + 15, x + 1, y + 15, x + 15, y + 2});
      }
      glDisable(GL_COLOR_LOGIC_OP_);
   });
   show(kit, framebuffer, pixels);
}

const Scene scenes[] = {
   {"format_rgb565", "the pattern drawn into GL_RGB565 (COLOR_5_6_5, STD_REV), added", draw_format_rgb565},
   {"format_rgba4", "the pattern in GL_RGBA4 (COLOR_4_4_4_4), added", draw_format_rgba4},
   {"format_rgb10_a2", "the pattern in GL_RGB10_A2 (left, added) and GL_RGB10_A2UI (right, clamped)",
    draw_format_rgb10_a2},
   {"format_r11g11b10f", "the pattern in GL_R11F_G11F_B10F, blended", draw_format_r11g11b10f},
   {"format_floats", "the pattern in R16F, RG16F and R32F (quadrants), blended", draw_format_floats},
   {"format_integers", "the pattern in R32UI, RGBA8UI and RGBA8I (quadrants), clamped", draw_format_integers},
   {"format_snorm", "the pattern in RGBA8_SNORM (alpha-blended, added), RG8_SNORM (alpha-blended) and R8_SNORM "
    "(added), quadrants", draw_format_snorm},
   {"format_r8_rg8_srgb", "the pattern in R8, RG8, SRGB8_ALPHA8 and RGBA8 (quadrants), added",
    draw_format_r8_rg8_srgb},
   {"mrt_formats", "one shader into RGBA8, R8, RG8 and R32F targets at once (quadrants), added", draw_mrt_formats},
   {"mrt_gap", "draw buffers {0, NONE, 2} with colour masks (quadrants: 0, 1, 2, 0)", draw_mrt_gap},
   {"dual_source_blend", "GL_EXT_blend_func_extended: SRC1_COLOR, SRC1_ALPHA and their inverses",
    draw_dual_source_blend},
   {"logic_ops", "the 16 glLogicOp operations on RGBA8, in a desktop GL core context", draw_logic_ops},
};

} // namespace

std::span<const Scene> colour_scenes()
{
   return scenes;
}

} // namespace terakan::gl_scenes
