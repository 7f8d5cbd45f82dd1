/* Image stores in the normalized, 10-bit and packed-float formats (desktop GL 4.5 core:
 * GL_ARB_shader_image_load_store's format qualifiers beyond GLES 3.1's).
 *
 * r600g binds an image as a typed RAT with the colour-buffer format, number type and swap of
 * its format, so the CB converts each STORE_TYPED's floats or integers into the texel (UNORM
 * and SNORM rounding and clamping, 10-bit and 2-bit fields, unsigned 11/10-bit floats). A
 * compute shader stores a pattern of codes into a 16x16 image of each format; then a tile per
 * format reads the image back with texelFetch, turns each texel into its codes again (exact:
 * the stored values are codes over the format's largest code, or floats the 11/10-bit fields
 * hold exactly) and shows a byte hash of them, so that any wrong bit of any channel changes
 * the picture. The simulator's conversions are checked against llvmpipe through r600g's
 * programming, independently of Terakan's. */
#include "scenes.h"

#include <GLES3/gl31.h>

#include <string>

#include "scene_kit.h"
#include "scene_tools.h"

namespace terakan::gl_scenes {

namespace {

/* Desktop GL format enums the GLES 3.1 header lacks (GL 4.5 core specification, table 8.12). */
constexpr GLenum gl_r16 = 0x822A, gl_rgba16 = 0x805B, gl_rg16_snorm = 0x8F99;

enum class Kind { Unorm, Snorm, Uint, PackedFloat };

struct StoredFormat {
   const char *qualifier;
   GLenum internal_format;
   Kind kind;
   const char *top;  /* largest code of each channel, as a GLSL ivec4 */
   int multiplier;   /* spreads the pattern over 16-bit codes */
};

const StoredFormat stored_formats[] = {
   {"r8", GL_R8, Kind::Unorm, "ivec4(255)", 1},
   {"rg8_snorm", GL_RG8_SNORM, Kind::Snorm, "ivec4(127)", 1},
   {"r16", gl_r16, Kind::Unorm, "ivec4(65535)", 251},
   {"rg16_snorm", gl_rg16_snorm, Kind::Snorm, "ivec4(32767)", 251},
   {"rgba16", gl_rgba16, Kind::Unorm, "ivec4(65535)", 251},
   {"rgb10_a2", GL_RGB10_A2, Kind::Unorm, "ivec4(1023, 1023, 1023, 3)", 3},
   {"rgb10_a2ui", GL_RGB10_A2UI, Kind::Uint, "ivec4(1023, 1023, 1023, 3)", 3},
   {"r11f_g11f_b10f", GL_R11F_G11F_B10F, Kind::PackedFloat, "ivec4(0)", 1},
};

std::string store_source(const StoredFormat &f)
{
   const bool integer = f.kind == Kind::Uint;
   std::string s = "#version 450 core\nlayout(local_size_x = 8, local_size_y = 8) in;\n";
   s += std::string("layout(") + f.qualifier + ", binding = 0) writeonly uniform " + (integer ? "uimage2D" : "image2D") +
        " u_image;\nconst ivec4 top = " + f.top + ";\n";
   s += "void main()\n{\n   ivec2 at = ivec2(gl_GlobalInvocationID.xy);\n"
        "   ivec4 n = (at.x * ivec4(7, 3, 11, 5) + at.y * ivec4(5, 13, 2, 9) + ivec4(0, 40, 80, 120)) * " +
        std::to_string(f.multiplier) + ";\n";
   switch (f.kind) {
   case Kind::Unorm:
      s += "   imageStore(u_image, at, vec4(n % (top + 1)) / vec4(top));\n";
      break;
   case Kind::Snorm: /* codes -top .. top, so -1.0 is stored too */
      s += "   imageStore(u_image, at, vec4(n % (2 * top + 1) - top) / vec4(top));\n";
      break;
   case Kind::Uint:
      s += "   imageStore(u_image, at, uvec4(n % (top + 1)));\n";
      break;
   case Kind::PackedFloat: /* at most 4 mantissa bits and exponents -8 .. 7: exact in 10 bits */
      s += "   vec4 v = vec4((1.0 + float(at.x) / 16.0) * exp2(float(at.y - 8)),\n"
           "                 (1.0 + float(15 - at.x) / 16.0) * exp2(float(7 - at.y)),\n"
           "                 (1.0 + float(at.y) / 16.0) * exp2(float(at.x / 2 - 4)), 1.0);\n"
           "   imageStore(u_image, at, (at.x + at.y) % 5 == 0 ? vec4(0.0, v.yz, 1.0) : v);\n";
      break;
   }
   return s + "}\n";
}

const char *const tile_vertex_source = R"(#version 450 core
layout(location = 0) in vec2 a_position;
void main()
{
   gl_Position = vec4(a_position / 32.0 - 1.0, 0.0, 1.0);
}
)";

std::string show_source(const StoredFormat &f)
{
   std::string s = "#version 450 core\n";
   s += std::string("layout(binding = 0) uniform ") + (f.kind == Kind::Uint ? "usampler2D" : "sampler2D") +
        " u_texture;\nconst ivec4 top = " + f.top + ";\n";
   s += "uniform ivec2 u_origin;\nuniform int u_tile;\nlayout(location = 0) out vec4 colour;\n"
        "void main()\n{\n   ivec2 texel = (ivec2(gl_FragCoord.xy) - u_origin) * 16 / u_tile;\n";
   switch (f.kind) {
   case Kind::Unorm:
   case Kind::Snorm:
      s += "   ivec4 c = ivec4(round(texelFetch(u_texture, texel, 0) * vec4(top)));\n";
      break;
   case Kind::Uint:
      s += "   ivec4 c = ivec4(texelFetch(u_texture, texel, 0));\n";
      break;
   case Kind::PackedFloat: /* exponent and the top 10 mantissa bits */
      s += "   ivec4 c = ivec4(floatBitsToUint(texelFetch(u_texture, texel, 0)) >> 13u);\n";
      break;
   }
   s += "   ivec4 h = ivec4(c.x + (c.y >> 8) * 7 + c.w * 3, (c.x >> 8) + c.y * 5 + c.z,\n"
        "                   c.z + (c.z >> 8) * 3 + (c.w >> 8) * 11 + c.x * 13, 255) & 255;\n"
        "   colour = vec4(h) / 255.0;\n}\n";
   return s;
}

void draw_storage_image_formats(SceneKit &kit)
{
   const GLuint harness = bound_framebuffer();
   const Bytes pixels = draw_in_desktop_gl(kit, 4, 5, false, [](SceneKit &desktop) {
      SceneKit::clear_colour(night);
      glClear(GL_COLOR_BUFFER_BIT);
      const float quad[] = {0, 0, 64, 0, 64, 64, 0, 0, 64, 64, 0, 64};
      desktop.position_vertices(quad);
      const int tile = desktop.width() / 4;
      int index = 0;
      for (const StoredFormat &f : stored_formats) {
         const GLuint texture = desktop.texture(GL_TEXTURE_2D);
         glTexStorage2D(GL_TEXTURE_2D, 1, f.internal_format, 16, 16);
         glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
         glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
         glUseProgram(desktop.compute_program(store_source(f).c_str()));
         glBindImageTexture(0, texture, 0, GL_FALSE, 0, GL_WRITE_ONLY, f.internal_format);
         glDispatchCompute(2, 2, 1);
         glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT);

         const GLuint show = desktop.program(tile_vertex_source, show_source(f).c_str());
         glUseProgram(show);
         const int x = (index % 4) * tile, y = (index / 4) * tile;
         glUniform2i(glGetUniformLocation(show, "u_origin"), x, y);
         glUniform1i(glGetUniformLocation(show, "u_tile"), tile);
         glActiveTexture(GL_TEXTURE0);
         glBindTexture(GL_TEXTURE_2D, texture);
         glViewport(x, y, tile, tile);
         glDrawArrays(GL_TRIANGLES, 0, 6);
         index++;
      }
      glViewport(0, 0, desktop.width(), desktop.height());
   });
   show(kit, harness, pixels);
}

const Scene scenes[] = {
   {"storage_image_formats",
    "compute image stores in r8, rg8_snorm, r16, rg16_snorm, rgba16, rgb10_a2, rgb10_a2ui and r11f_g11f_b10f, "
    "read back with texelFetch (desktop GL 4.5)",
    draw_storage_image_formats},
};

} // namespace

std::span<const Scene> storage_format_scenes()
{
   return scenes;
}

} // namespace terakan::gl_scenes
