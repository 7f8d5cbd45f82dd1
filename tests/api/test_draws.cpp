/* Vulkan draws through the driver on the simulated GPU (TERAKAN_SIM_CHIP picks the chip),
 * each scene drawn again by lavapipe from the same SPIR-V and state (vulkan_draw_runner.h,
 * which both devices run with the Khronos validation layer counting messages), every pixel of
 * every attachment compared.
 *
 * Vertices sit on the 1/256-pixel grid both rasterizers snap to and pixel centres are sampled
 * with the top-left rule on both, so coverage is exact; interpolated 8-bit colours may differ
 * by 1/255 (each rasterizer interpolates in float with its own operation order). Depth values
 * and everything not interpolated must be equal. With TERAKAN_DRAW_PICTURES=DIR every RGBA8
 * picture is written there as TEST-N-terakan.png and TEST-N-lavapipe.png (the meson tests
 * write build/tests/draws-CHIP), to be looked at. */
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "../compiler/vulkan_draw_runner.h"
#include "../gl/failure.h"
#include "../gl/png_file.h"

namespace {

using terakan::test::DrawImages;
using terakan::test::DrawJob;
using terakan::test::VulkanDrawRunner;

constexpr uint32_t size = 32;

std::vector<uint32_t> spirv(const std::string &name, const char *variable = "TERAKAN_API_SHADERS")
{
   const char *folder = std::getenv(variable);
   std::ifstream file(std::string(folder ? folder : ".") + "/" + name + ".spv", std::ios::binary);
   std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
   std::vector<uint32_t> words(bytes.size() / 4);
   std::memcpy(words.data(), bytes.data(), words.size() * 4);
   return words;
}

VulkanDrawRunner &terakan_gpu()
{
   static VulkanDrawRunner runner("Terakan");
   return runner;
}

VulkanDrawRunner &lavapipe()
{
   static VulkanDrawRunner runner("llvmpipe");
   return runner;
}

/* Clip-space x or y of a window coordinate in pixels (size x size target, y down). */
float clip(float pixels) { return pixels / (size / 2.0f) - 1.0f; }

template <typename T> std::vector<uint8_t> bytes_of(const std::vector<T> &values)
{
   std::vector<uint8_t> out(values.size() * sizeof(T));
   std::memcpy(out.data(), values.data(), out.size());
   return out;
}

/* A vertex of the coloured scenes: window position in pixels, depth, w, and a colour. */
struct Vertex {
   float x, y, z, w;
   float r, g, b, a;
};

/* coloured.vert/.frag over the vertices, one RGBA8 target cleared to a dark blue. */
DrawJob coloured(const std::vector<Vertex> &vertices)
{
   DrawJob job;
   job.vertex_spirv = spirv("coloured.vert");
   job.fragment_spirv = spirv("coloured.frag");
   std::vector<float> positions, colours;
   for (const Vertex &v : vertices) {
      positions.insert(positions.end(), {clip(v.x) * v.w, clip(v.y) * v.w, v.z * v.w, v.w});
      colours.insert(colours.end(), {v.r, v.g, v.b, v.a});
   }
   job.attributes.push_back({0, VK_FORMAT_R32G32B32A32_SFLOAT, 16, VK_VERTEX_INPUT_RATE_VERTEX, bytes_of(positions)});
   job.attributes.push_back({1, VK_FORMAT_R32G32B32A32_SFLOAT, 16, VK_VERTEX_INPUT_RATE_VERTEX, bytes_of(colours)});
   DrawJob::Target target;
   target.clear.float32[0] = 0.0f;
   target.clear.float32[1] = 0.0f;
   target.clear.float32[2] = 0.25f;
   target.clear.float32[3] = 1.0f;
   job.targets.push_back(target);
   job.width = job.height = size;
   job.vertex_count = uint32_t(vertices.size());
   return job;
}

/* A triangle of one colour at depth z. */
std::vector<Vertex> triangle(float x0, float y0, float x1, float y1, float x2, float y2, float z,
                             std::array<float, 4> colour)
{
   return {{x0, y0, z, 1, colour[0], colour[1], colour[2], colour[3]},
           {x1, y1, z, 1, colour[0], colour[1], colour[2], colour[3]},
           {x2, y2, z, 1, colour[0], colour[1], colour[2], colour[3]}};
}

std::vector<Vertex> operator+(std::vector<Vertex> a, const std::vector<Vertex> &b)
{
   a.insert(a.end(), b.begin(), b.end());
   return a;
}

class Draws : public ::testing::Test {
protected:
   unsigned pictures_saved = 0;

   /* Target 0 of both devices' images, when it is RGBA8 and TERAKAN_DRAW_PICTURES names a
    * folder. */
   void save_pictures(const DrawJob &job, const DrawImages &ours, const DrawImages &reference)
   {
      const char *folder = std::getenv("TERAKAN_DRAW_PICTURES");
      if (!folder || job.targets.empty() || job.targets[0].format != VK_FORMAT_R8G8B8A8_UNORM ||
          ours.targets.empty() || reference.targets.empty())
         return;
      const std::string stem = std::string(folder) + "/" +
                               ::testing::UnitTest::GetInstance()->current_test_info()->name() + "-" +
                               std::to_string(pictures_saved++);
      try {
         for (const auto &[images, who] : {std::pair{&ours, "terakan"}, std::pair{&reference, "lavapipe"}}) {
            terakan::gl_scenes::RgbaPicture picture;
            picture.width = int(job.width);
            picture.height = int(job.height);
            picture.pixels = images->targets[0];
            terakan::gl_scenes::write_png(stem + "-" + who + ".png", picture);
         }
      } catch (const terakan::gl_scenes::Failure &failure) {
         ADD_FAILURE() << failure.what();
      }
   }

   static void SetUpTestSuite()
   {
      ASSERT_TRUE(terakan_gpu().available()) << terakan_gpu().error();
      ASSERT_TRUE(lavapipe().available()) << lavapipe().error();
   }

   /* Draws on both devices and compares every texel: 8-bit normalized channels (sRGB ones
    * too) and the fields of packed formats within `tolerance`, depth exactly. Returns
    * Terakan's images. */
   /* lavapipe_objects: the job is valid on Terakan but not on lavapipe (it blends into a
    * format lavapipe does not offer blending for, and blends anyway): its validation layer must
    * object, and the picture is still the reference. */
   DrawImages expect_same(const DrawJob &job, unsigned tolerance = 1, unsigned depth_ulps = 0,
                          float depth_absolute = 0.0f, bool lavapipe_objects = false)
   {
      DrawImages ours, reference;
      std::string error;
      const unsigned our_messages = terakan_gpu().validation_messages();
      const unsigned their_messages = lavapipe().validation_messages();
      EXPECT_TRUE(terakan_gpu().run(job, ours, error)) << "Terakan: " << error;
      EXPECT_TRUE(lavapipe().run(job, reference, error)) << "lavapipe: " << error;
      EXPECT_EQ(terakan_gpu().validation_messages(), our_messages) << "validation messages on Terakan";
      if (lavapipe_objects)
         EXPECT_GT(lavapipe().validation_messages(), their_messages) << "lavapipe's validation layer did not object";
      else
         EXPECT_EQ(lavapipe().validation_messages(), their_messages) << "validation messages on lavapipe";
      save_pictures(job, ours, reference);
      if (ours.targets.size() != reference.targets.size()) {
         ADD_FAILURE() << "different attachment counts";
         return ours;
      }
      for (size_t t = 0; t < ours.targets.size(); t++) {
         const unsigned bytes = terakan::test::texel_bytes(job.targets[t].format);
         const VkFormat format = job.targets[t].format;
         const bool unorm8 = format == VK_FORMAT_R8G8B8A8_UNORM || format == VK_FORMAT_B8G8R8A8_UNORM ||
                             format == VK_FORMAT_R8G8B8A8_SRGB || format == VK_FORMAT_B8G8R8A8_SRGB ||
                             format == VK_FORMAT_A8B8G8R8_UNORM_PACK32 || format == VK_FORMAT_A8B8G8R8_SRGB_PACK32;
         const bool snorm8 = format == VK_FORMAT_R8_SNORM || format == VK_FORMAT_R8G8_SNORM ||
                             format == VK_FORMAT_R8G8B8A8_SNORM || format == VK_FORMAT_A8B8G8R8_SNORM_PACK32;
         /* Packed formats: each field (from bit 0) within `tolerance` of its stored value. */
         std::vector<unsigned> fields;
         if (format == VK_FORMAT_A2B10G10R10_UNORM_PACK32 || format == VK_FORMAT_A2R10G10B10_UNORM_PACK32)
            fields = {10, 10, 10, 2};
         else if (format == VK_FORMAT_B10G11R11_UFLOAT_PACK32)
            fields = {11, 11, 10};
         else if (format == VK_FORMAT_R5G6B5_UNORM_PACK16)
            fields = {5, 6, 5};
         else if (format == VK_FORMAT_A1R5G5B5_UNORM_PACK16)
            fields = {5, 5, 5, 1};
         unsigned reported = 0;
         for (size_t p = 0; p < size_t(job.width) * job.height && reported < 8; p++) {
            const uint8_t *a = &ours.targets[t][p * bytes], *b = &reference.targets[t][p * bytes];
            bool same = true;
            if (!fields.empty()) {
               uint32_t x = 0, y = 0;
               std::memcpy(&x, a, bytes);
               std::memcpy(&y, b, bytes);
               for (unsigned f = 0, bit = 0; f < fields.size(); bit += fields[f++]) {
                  const int u = int((x >> bit) & ((1u << fields[f]) - 1)), v = int((y >> bit) & ((1u << fields[f]) - 1));
                  same &= unsigned(std::abs(u - v)) <= tolerance;
               }
            } else {
               for (unsigned c = 0; c < bytes; c++) {
                  if (unorm8)
                     same &= unsigned(std::abs(int(a[c]) - int(b[c]))) <= tolerance;
                  else if (snorm8)
                     same &= unsigned(std::abs(int(int8_t(a[c])) - int(int8_t(b[c])))) <= tolerance;
                  else
                     same &= a[c] == b[c];
               }
            }
            if (!same) {
               std::string text;
               char word[24];
               for (unsigned c = 0; c < bytes; c++) {
                  std::snprintf(word, sizeof(word), " %02x/%02x", a[c], b[c]);
                  text += word;
               }
               ADD_FAILURE() << "target " << t << " pixel " << p % job.width << "," << p / job.width
                             << " (Terakan/lavapipe bytes):" << text;
               reported++;
            }
         }
      }
      EXPECT_EQ(ours.depth.size(), reference.depth.size());
      unsigned reported = 0;
      auto ulps_apart = [](float a, float b) {
         int32_t x, y;
         std::memcpy(&x, &a, 4);
         std::memcpy(&y, &b, 4);
         return uint32_t(std::abs(int64_t(x) - int64_t(y)));
      };
      for (size_t p = 0; p < std::min(ours.depth.size(), reference.depth.size()) && reported < 8; p++)
         if (ulps_apart(ours.depth[p], reference.depth[p]) > depth_ulps &&
             !(std::fabs(ours.depth[p] - reference.depth[p]) <= depth_absolute)) {
            ADD_FAILURE() << "depth at " << p % job.width << "," << p / job.width << ": Terakan " << ours.depth[p]
                          << ", lavapipe " << reference.depth[p];
            reported++;
         }
      /* 24-bit depth as the stored integers (exactly, whatever depth_ulps says), and stencil
       * bytes. */
      EXPECT_EQ(ours.depth24.size(), reference.depth24.size());
      reported = 0;
      for (size_t p = 0; p < std::min(ours.depth24.size(), reference.depth24.size()) && reported < 8; p++)
         if (ours.depth24[p] != reference.depth24[p]) {
            ADD_FAILURE() << "24-bit depth at " << p % job.width << "," << p / job.width << ": Terakan 0x" << std::hex
                          << ours.depth24[p] << ", lavapipe 0x" << reference.depth24[p] << std::dec;
            reported++;
         }
      EXPECT_EQ(ours.stencil.size(), reference.stencil.size());
      reported = 0;
      for (size_t p = 0; p < std::min(ours.stencil.size(), reference.stencil.size()) && reported < 8; p++)
         if (ours.stencil[p] != reference.stencil[p]) {
            ADD_FAILURE() << "stencil at " << p % job.width << "," << p / job.width << ": Terakan "
                          << unsigned(ours.stencil[p]) << ", lavapipe " << unsigned(reference.stencil[p]);
            reported++;
         }
      return ours;
   }
};

/* The pixel's RGBA8 texel of target 0. */
std::array<uint8_t, 4> texel(const DrawImages &images, unsigned x, unsigned y)
{
   const uint8_t *p = &images.targets[0][(size_t(y) * size + x) * 4];
   return {p[0], p[1], p[2], p[3]};
}

TEST_F(Draws, TrianglesWithPerspectiveInterpolation)
{
   /* Two triangles with w from 1 to 3: perspective-correct colours. */
   const std::vector<Vertex> vertices = {
      {1, 1, 0.5f, 1, 1, 0, 0, 1}, {30, 2, 0.5f, 3, 0, 1, 0, 1}, {2, 29, 0.5f, 2, 0, 0, 1, 1},
      {31, 4.5f, 0.25f, 2, 1, 1, 0, 1}, {28.25f, 31, 0.25f, 1, 0, 1, 1, 1}, {12, 30, 0.25f, 3, 1, 0, 1, 0.5f}};
   const DrawImages images = expect_same(coloured(vertices));
   /* Not the clear colour inside, the clear colour in a corner outside both. */
   EXPECT_EQ(texel(images, 5, 5)[3], 255);
   EXPECT_NE(texel(images, 5, 5), (std::array<uint8_t, 4>{0, 0, 64, 255}));
   EXPECT_EQ(texel(images, 31, 0), (std::array<uint8_t, 4>{0, 0, 64, 255}));
}

TEST_F(Draws, SrgbTargetsEncodeOnWrite)
{
   /* Smooth gradients into sRGB targets (the swapchain formats of an X11 window): the colour
    * channels are encoded on write, alpha is stored linearly; both memory orders. Codes may
    * differ by one: the simulated CB encodes with Mesa's util_format table and lavapipe with
    * llvmpipe's own approximation, which round some values to neighbouring codes (the
    * hardware's rounding is not documented). */
   const std::vector<Vertex> vertices = {
      {1, 1, 0.5f, 1, 1, 0, 0, 0.25f}, {31, 2, 0.5f, 1, 0, 1, 0, 1}, {2, 31, 0.5f, 1, 0, 0, 1, 0.75f}};
   for (VkFormat format : {VK_FORMAT_B8G8R8A8_SRGB, VK_FORMAT_R8G8B8A8_SRGB}) {
      SCOPED_TRACE(format);
      DrawJob job = coloured(vertices);
      job.targets[0].format = format;
      const DrawImages images = expect_same(job);
      /* Linear 0.25 blue clear: sRGB-encoded it is 137 (0x89), not 64. */
      const unsigned blue = format == VK_FORMAT_B8G8R8A8_SRGB ? 0 : 2;
      EXPECT_EQ(images.targets[0][(size_t(0) * size + 31) * 4 + blue], 137);
   }
}

/* Blending that adds half of the destination to the source (a constant-colour factor). */
void add_half_of_the_destination(DrawJob &job)
{
   job.blend = true;
   job.blend_state.blendEnable = VK_TRUE;
   job.blend_state.srcColorBlendFactor = job.blend_state.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
   job.blend_state.dstColorBlendFactor = job.blend_state.dstAlphaBlendFactor = VK_BLEND_FACTOR_CONSTANT_COLOR;
   job.blend_state.colorBlendOp = job.blend_state.alphaBlendOp = VK_BLEND_OP_ADD;
   job.blend_state.colorWriteMask = 0xf;
   for (float &c : job.blend_constants)
      c = 0.5f;
}

TEST_F(Draws, PackedTenAndElevenBitTargets)
{
   /* Smooth gradients (and blending) into the packed targets; each stored field within one
    * unit of lavapipe's (as for 8-bit targets: the interpolated colour's last bits differ
    * between the two rasterizers, and a value near a rounding boundary lands on either code).
    * The blend adds half of the destination (constant colour factor). */
   const std::vector<Vertex> vertices = {
      {1, 1, 0.5f, 1, 1, 0.1f, 0, 0.25f}, {31, 2, 0.5f, 1, 0, 1, 0.3f, 1}, {2, 31, 0.5f, 1, 0.2f, 0, 1, 0.75f}};
   for (VkFormat format : {VK_FORMAT_A2B10G10R10_UNORM_PACK32, VK_FORMAT_A2R10G10B10_UNORM_PACK32,
                           VK_FORMAT_B10G11R11_UFLOAT_PACK32}) {
      for (bool blend : {false, true}) {
         SCOPED_TRACE(std::to_string(format) + (blend ? " blended" : ""));
         DrawJob job = coloured(vertices);
         job.targets[0].format = format;
         job.targets[0].clear.float32[0] = 0.5f;
         job.targets[0].clear.float32[1] = 0.25f;
         if (blend)
            add_half_of_the_destination(job);
         const DrawImages images = expect_same(job);
         /* Inside the triangle the picture is not the clear colour. */
         uint32_t inside = 0, outside = 0;
         std::memcpy(&inside, &images.targets[0][(size_t(4) * size + 4) * 4], 4);
         std::memcpy(&outside, &images.targets[0][(size_t(0) * size + 31) * 4], 4);
         EXPECT_NE(inside, outside);
      }
   }
}

bool vk_format_is_snorm_here(VkFormat format)
{
   return format == VK_FORMAT_R8_SNORM || format == VK_FORMAT_R8G8_SNORM || format == VK_FORMAT_R8G8B8A8_SNORM ||
          format == VK_FORMAT_A8B8G8R8_SNORM_PACK32;
}

TEST_F(Draws, RequiredNormalizedTargetsDrawnAndBlended)
{
   /* The other colour-attachment formats Vulkan 1.0 requires blended (R5G6B5, A1R5G5B5,
    * A8B8G8R8 UNORM and sRGB: sRGB blending works on linear values) and the SNORM targets
    * offered, each with a gradient, unblended and blended as PackedTenAndElevenBitTargets does;
    * each stored field within one unit of lavapipe's (the same reason as there). The clear's
    * blue is negative: SNORM targets keep it, the others clamp it to 0, and half of it is added
    * where SNORM targets blend. lavapipe blends SNORM targets without offering
    * COLOR_ATTACHMENT_BLEND for them, so its validation layer objects to those jobs. */
   const std::vector<Vertex> vertices = {
      {1, 1, 0.5f, 1, 1, 0.1f, 0, 0.25f}, {31, 2, 0.5f, 1, 0, 1, 0.3f, 1}, {2, 31, 0.5f, 1, 0.2f, 0, 1, 0.75f}};
   for (VkFormat format : {VK_FORMAT_R5G6B5_UNORM_PACK16, VK_FORMAT_A1R5G5B5_UNORM_PACK16,
                           VK_FORMAT_A8B8G8R8_UNORM_PACK32, VK_FORMAT_A8B8G8R8_SRGB_PACK32, VK_FORMAT_R8G8B8A8_SRGB,
                           VK_FORMAT_B8G8R8A8_SRGB, VK_FORMAT_R8_SNORM, VK_FORMAT_R8G8_SNORM,
                           VK_FORMAT_R8G8B8A8_SNORM, VK_FORMAT_A8B8G8R8_SNORM_PACK32}) {
      const bool snorm = vk_format_is_snorm_here(format);
      for (bool blend : {false, true}) {
         SCOPED_TRACE(std::to_string(format) + (blend ? " blended" : ""));
         DrawJob job = coloured(vertices);
         job.targets[0].format = format;
         job.targets[0].clear.float32[0] = 0.5f;
         job.targets[0].clear.float32[1] = 0.25f;
         job.targets[0].clear.float32[2] = -0.5f;
         if (blend)
            add_half_of_the_destination(job);
         const DrawImages images = expect_same(job, 1, 0, 0.0f, blend && snorm);
         const unsigned bytes = terakan::test::texel_bytes(format);
         uint32_t inside = 0, outside = 0;
         std::memcpy(&inside, &images.targets[0][(size_t(4) * size + 4) * bytes], bytes);
         std::memcpy(&outside, &images.targets[0][(size_t(0) * size + 31) * bytes], bytes);
         EXPECT_NE(inside, outside) << "nothing drawn";
      }
   }
}

TEST_F(Draws, IntegerTargets)
{
   /* Every integer colour-attachment format Vulkan 1.0 requires that the other scenes do not
    * draw: values made from the pixel's position (uint_target.frag, sint_target.frag) over a
    * triangle, exactly as lavapipe stores them; the clear (zeros) outside. */
   const std::vector<Vertex> vertices = triangle(1, 1, 31, 2, 2, 31, 0.5f, {1, 1, 1, 1});
   const VkFormat unsigned_formats[] = {VK_FORMAT_R8_UINT, VK_FORMAT_R8G8_UINT, VK_FORMAT_A8B8G8R8_UINT_PACK32,
                                        VK_FORMAT_A2B10G10R10_UINT_PACK32, VK_FORMAT_R16_UINT, VK_FORMAT_R16G16_UINT,
                                        VK_FORMAT_R16G16B16A16_UINT};
   const VkFormat signed_formats[] = {VK_FORMAT_R8_SINT,  VK_FORMAT_R8G8_SINT,          VK_FORMAT_A8B8G8R8_SINT_PACK32,
                                      VK_FORMAT_R16_SINT, VK_FORMAT_R16G16_SINT,         VK_FORMAT_R16G16B16A16_SINT,
                                      VK_FORMAT_R32G32_SINT};
   for (bool is_signed : {false, true}) {
      for (VkFormat format : is_signed ? std::vector<VkFormat>(std::begin(signed_formats), std::end(signed_formats))
                                       : std::vector<VkFormat>(std::begin(unsigned_formats), std::end(unsigned_formats))) {
         SCOPED_TRACE(format);
         DrawJob job = coloured(vertices);
         job.fragment_spirv = spirv(is_signed ? "sint_target.frag" : "uint_target.frag");
         job.targets[0].format = format;
         job.targets[0].clear = {};
         const DrawImages images = expect_same(job);
         const unsigned bytes = terakan::test::texel_bytes(format);
         /* Pixel (5, 3): x 5 in the first component; (31, 31) outside keeps the clear. */
         EXPECT_EQ(images.targets[0][(size_t(3) * size + 5) * bytes] & 0x3f, is_signed ? (5 - 16) & 0x3f : 5);
         for (unsigned c = 0; c < bytes; c++)
            EXPECT_EQ(images.targets[0][(size_t(31) * size + 31) * bytes + c], 0);
      }
   }
}

TEST_F(Draws, IntegerVertexFormats)
{
   /* The integer attribute formats Vulkan 1.0 requires, read as uvec4/ivec4
    * (integer_attribute.vert) and shown as colours: each value's low byte (signed ones offset
    * by 128), missing components 0 and alpha 1. */
   const std::vector<Vertex> vertices = {{1, 1, 0.5f, 1, 0, 0, 0, 0}, {31, 2, 0.5f, 1, 0, 0, 0, 0},
                                         {2, 31, 0.5f, 1, 0, 0, 0, 0}};
   const int values[3][4] = {{200, 17, 90, 1}, {-100, 3, -5, 2}, {55, -128, 127, 3}};
   struct Case {
      VkFormat format;
      unsigned bytes, bits, components;
      bool is_signed;
   };
   const Case cases[] = {
      {VK_FORMAT_R8_UINT, 1, 8, 1, false},           {VK_FORMAT_R8G8_UINT, 2, 8, 2, false},
      {VK_FORMAT_R8G8_SINT, 2, 8, 2, true},          {VK_FORMAT_A8B8G8R8_UINT_PACK32, 4, 8, 4, false},
      {VK_FORMAT_A8B8G8R8_SINT_PACK32, 4, 8, 4, true}, {VK_FORMAT_R16_UINT, 2, 16, 1, false},
      {VK_FORMAT_R16_SINT, 2, 16, 1, true},          {VK_FORMAT_R16G16_UINT, 4, 16, 2, false},
      {VK_FORMAT_R16G16_SINT, 4, 16, 2, true},       {VK_FORMAT_R16G16B16A16_UINT, 8, 16, 4, false},
      {VK_FORMAT_R16G16B16A16_SINT, 8, 16, 4, true},
   };
   for (const Case &c : cases) {
      SCOPED_TRACE(c.format);
      DrawJob job = coloured(vertices);
      job.vertex_spirv = spirv(c.is_signed ? "sint_attribute.vert" : "integer_attribute.vert");
      std::vector<uint8_t> data(c.bytes * 3);
      for (unsigned v = 0; v < 3; v++)
         for (unsigned i = 0; i < c.components; i++) {
            const uint32_t value = uint32_t(c.is_signed ? values[v][i] : std::abs(values[v][i]));
            std::memcpy(&data[v * c.bytes + i * c.bits / 8], &value, c.bits / 8);
         }
      job.attributes[1] = {1, c.format, c.bytes, VK_VERTEX_INPUT_RATE_VERTEX, data};
      const DrawImages images = expect_same(job);
      EXPECT_NE(texel(images, 3, 3), texel(images, 31, 31)) << "nothing drawn";
   }
}

TEST_F(Draws, NormalizedVertexFormats)
{
   /* The colour attribute in each format, encoded from the same values (non-negative, so that
    * SNORM ones stay visible), interpolated over a triangle: each within one unit of lavapipe's
    * picture (as every interpolated scene). A format's missing components read 0, 0, 1. */
   const std::vector<std::array<float, 4>> colours = {{1, 0.25f, 0, 1}, {0, 1, 0.5f, 0.6f}, {0.3f, 0, 1, 0.2f}};
   const std::vector<Vertex> vertices = {{1, 1, 0.5f, 1, 0, 0, 0, 0}, {31, 2, 0.5f, 1, 0, 0, 0, 0},
                                         {2, 31, 0.5f, 1, 0, 0, 0, 0}};
   struct Case {
      VkFormat format;
      unsigned bytes;
      std::function<void(const std::array<float, 4> &, uint8_t *)> encode;
   };
   auto unorm16 = [](unsigned n) {
      return [n](const std::array<float, 4> &c, uint8_t *out) {
         for (unsigned i = 0; i < n; i++) {
            const uint16_t v = uint16_t(std::lround(c[i] * 65535.0f));
            std::memcpy(out + 2 * i, &v, 2);
         }
      };
   };
   auto snorm16 = [](unsigned n) {
      return [n](const std::array<float, 4> &c, uint8_t *out) {
         for (unsigned i = 0; i < n; i++) {
            const int16_t v = int16_t(std::lround(c[i] * 32767.0f));
            std::memcpy(out + 2 * i, &v, 2);
         }
      };
   };
   const Case cases[] = {
      {VK_FORMAT_R16_UNORM, 2, unorm16(1)},
      {VK_FORMAT_R16_SNORM, 2, snorm16(1)},
      {VK_FORMAT_R16G16_UNORM, 4, unorm16(2)},
      {VK_FORMAT_R16G16_SNORM, 4, snorm16(2)},
      {VK_FORMAT_R16G16B16A16_UNORM, 8, unorm16(4)},
      {VK_FORMAT_R16G16B16A16_SNORM, 8, snorm16(4)},
      {VK_FORMAT_R8G8_SNORM, 2,
       [](const std::array<float, 4> &c, uint8_t *out) {
          for (unsigned i = 0; i < 2; i++)
             out[i] = uint8_t(int8_t(std::lround(c[i] * 127.0f)));
       }},
      {VK_FORMAT_B8G8R8A8_UNORM, 4,
       [](const std::array<float, 4> &c, uint8_t *out) {
          const unsigned order[4] = {2, 1, 0, 3};
          for (unsigned i = 0; i < 4; i++)
             out[i] = uint8_t(std::lround(c[order[i]] * 255.0f));
       }},
      {VK_FORMAT_R8_SNORM, 1, [](const std::array<float, 4> &c, uint8_t *out) { out[0] = uint8_t(int8_t(std::lround(c[0] * 127.0f))); }},
      {VK_FORMAT_A8B8G8R8_UNORM_PACK32, 4,
       [](const std::array<float, 4> &c, uint8_t *out) {
          for (unsigned i = 0; i < 4; i++)
             out[i] = uint8_t(std::lround(c[i] * 255.0f));
       }},
      {VK_FORMAT_A8B8G8R8_SNORM_PACK32, 4,
       [](const std::array<float, 4> &c, uint8_t *out) {
          for (unsigned i = 0; i < 4; i++)
             out[i] = uint8_t(int8_t(std::lround(c[i] * 127.0f)));
       }},
      /* Red in bits 0-9, alpha in the top two. */
      {VK_FORMAT_A2B10G10R10_UNORM_PACK32, 4,
       [](const std::array<float, 4> &c, uint8_t *out) {
          uint32_t word = 0;
          for (unsigned i = 0; i < 3; i++)
             word |= uint32_t(std::lround(c[i] * 1023.0f)) << (10 * i);
          word |= uint32_t(std::lround(c[3] * 3.0f)) << 30;
          std::memcpy(out, &word, 4);
       }},
   };
   for (const Case &c : cases) {
      SCOPED_TRACE(c.format);
      DrawJob job = coloured(vertices);
      std::vector<uint8_t> data(c.bytes * colours.size());
      for (size_t v = 0; v < colours.size(); v++)
         c.encode(colours[v], &data[v * c.bytes]);
      job.attributes[1] = {1, c.format, c.bytes, VK_VERTEX_INPUT_RATE_VERTEX, data};
      const DrawImages images = expect_same(job);
      EXPECT_NE(texel(images, 3, 3), texel(images, 31, 31)) << "nothing drawn";
   }
}

TEST_F(Draws, EveryTriangleTopology)
{
   const std::vector<Vertex> strip = {
      {2, 2, 0, 1, 1, 0, 0, 1},  {2, 14, 0, 1, 0, 1, 0, 1},  {10, 3, 0, 1, 0, 0, 1, 1},
      {11, 15, 0, 1, 1, 1, 0, 1}, {20, 1, 0, 1, 1, 0, 1, 1}, {21, 13, 0, 1, 0, 1, 1, 1}};
   for (VkPrimitiveTopology topology : {VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP,
                                        VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN}) {
      SCOPED_TRACE(topology);
      DrawJob job = coloured(strip);
      job.topology = topology;
      expect_same(job);
   }
}

TEST_F(Draws, PointsAndLines)
{
   std::vector<Vertex> points;
   for (unsigned i = 0; i < 12; i++)
      points.push_back({2.5f + 2.5f * i, 3.5f + float(i % 5) * 5.25f, 0, 1, float(i) / 12, 1, 0.5f, 1});
   DrawJob job = coloured(points);
   job.vertex_spirv = spirv("points.vert");
   job.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
   expect_same(job);

   /* Lines along the axes with their ends on pixel edges: there Vulkan's rectangle rule,
    * lavapipe's and the simulated rasterizer's agree on every pixel (diagonal lines and ends
    * inside pixels follow rules that legitimately differ: docs/sim-semantics.md). */
   const std::vector<Vertex> lines = {
      {2, 3.5f, 0, 1, 1, 0, 0, 1},   {20, 3.5f, 0, 1, 0, 1, 0, 1},  {5.5f, 6, 0, 1, 0, 0, 1, 1},
      {5.5f, 29, 0, 1, 1, 1, 0, 1},  {30, 10.5f, 0, 1, 1, 0, 1, 1}, {9, 10.5f, 0, 1, 0, 1, 1, 1},
      {25.5f, 31, 0, 1, 1, 1, 1, 1}, {25.5f, 12, 0, 1, 0.5f, 0.5f, 0.5f, 1}};
   for (VkPrimitiveTopology topology : {VK_PRIMITIVE_TOPOLOGY_LINE_LIST, VK_PRIMITIVE_TOPOLOGY_LINE_STRIP}) {
      SCOPED_TRACE(topology);
      DrawJob lines_job = coloured(lines);
      lines_job.topology = topology;
      if (topology == VK_PRIMITIVE_TOPOLOGY_LINE_STRIP)
         lines_job.vertex_count = 2; /* one segment: how strips join differs between the rules */
      expect_same(lines_job);
   }
   /* Wide lines (wideLines) of odd widths, on the same axis-aligned lines: their sides then lie
    * on pixel edges too, where the parallelogram rule (non-strict lines, both devices) covers
    * whole rows or columns. */
   for (float width : {3.0f, 5.0f}) {
      SCOPED_TRACE(width);
      DrawJob wide = coloured(lines);
      wide.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
      wide.line_width = width;
      const DrawImages images = expect_same(wide);
      /* The first line (y = 3.5) covers rows 2-4 at width 3. */
      EXPECT_NE(texel(images, 10, 3 - unsigned(width) / 2), texel(images, 31, 0)) << "not wide";
   }
}

TEST_F(Draws, IndexedWithRestartAndVertexOffset)
{
   std::vector<Vertex> vertices = {{0, 0, 0, 1, 0, 0, 0, 1}}; /* vertex 0: skipped by the offset */
   for (unsigned i = 0; i < 8; i++)
      vertices.push_back({2.0f + 3.5f * i, i % 2 ? 14.0f : 3.0f, 0, 1, float(i) / 8, 1 - float(i) / 8, 0.5f, 1});
   for (unsigned i = 0; i < 6; i++)
      vertices.push_back({4.0f + 4.5f * i, i % 2 ? 30.0f : 18.0f, 0, 1, 1, float(i) / 6, 0, 1});
   for (bool wide : {false, true}) {
      SCOPED_TRACE(wide ? "32-bit indices" : "16-bit indices");
      DrawJob job = coloured(vertices);
      job.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
      job.primitive_restart = true;
      job.index_32bit = wide;
      const uint32_t restart = wide ? 0xffffffffu : 0xffffu;
      job.indices = {0, 1, 2, 3, 4, 5, 6, 7, restart, 8, 9, 10, 11, 12, 13};
      job.first_vertex = 1; /* vertexOffset */
      expect_same(job);
   }
}

/* fullDrawIndexUint32: 32-bit indices above 2^24 (up to 2^32 - 2; restart is off) reach
 * VertexIndex whole. vertex_index.vert places a vertex by its index's low byte and colours it
 * by the other three, so each quadrant's triangle shows its indices' high bytes (as r600g,
 * the driver keeps VGT_MAX_VTX_INDX at ~0). */
TEST_F(Draws, IndicesBeyondTwentyFourBits)
{
   DrawJob job;
   job.vertex_spirv = spirv("vertex_index.vert");
   job.fragment_spirv = spirv("vertex_index.frag");
   job.targets.push_back({});
   job.width = job.height = size;
   job.index_32bit = true;
   const uint32_t bases[4] = {0x01808000u, 0x7fffff00u, 0xfffffe00u, 0x00ffff00u};
   const uint32_t corners[4] = {0x00, 0x08, 0x80, 0x88}; /* the quadrants' first grid points */
   for (unsigned t = 0; t < 4; t++)
      for (uint32_t low : {0x00u, 0x06u, 0x60u})
         job.indices.push_back(bases[t] + corners[t] + low);
   const DrawImages ours = expect_same(job);
   ASSERT_FALSE(ours.targets.empty());
   const unsigned inside[4][2] = {{3, 3}, {19, 3}, {3, 19}, {19, 19}};
   for (unsigned t = 0; t < 4; t++) {
      const uint8_t *texel = &ours.targets[0][(inside[t][1] * size + inside[t][0]) * 4];
      const uint32_t high = bases[t] >> 8;
      EXPECT_EQ(texel[0], (high >> 0) & 0xff) << "triangle " << t;
      EXPECT_EQ(texel[1], (high >> 8) & 0xff) << "triangle " << t;
      EXPECT_EQ(texel[2], (high >> 16) & 0xff) << "triangle " << t;
   }
}

TEST_F(Draws, InstancesWithPerInstanceAttributesAndBases)
{
   DrawJob job = coloured(triangle(1, 1, 9, 1, 1, 9, 0, {1, 0.5f, 0, 1}));
   job.vertex_spirv = spirv("instanced.vert");
   /* Per-instance offsets, read from firstInstance on: index 0 is skipped. */
   const float step = 11.0f / (size / 2.0f), far = 20.0f / (size / 2.0f); /* pixels in clip units */
   const std::vector<float> offsets = {9, 9, 0, 0, step, 0, 0, step, far, far};
   job.attributes.push_back({2, VK_FORMAT_R32G32_SFLOAT, 8, VK_VERTEX_INPUT_RATE_INSTANCE, bytes_of(offsets)});
   job.instance_count = 4;
   job.first_instance = 1;
   expect_same(job);
}

TEST_F(Draws, IndirectDrawsWithBasesFromTheBuffer)
{
   /* The instancing scene and the indexed one, their parameters read from a buffer: the vertex
    * shader's InstanceIndex and VertexIndex (colour b and a) include the buffer's bases. */
   DrawJob job = coloured(triangle(1, 1, 9, 1, 1, 9, 0, {1, 0.5f, 0, 1}));
   job.vertex_spirv = spirv("instanced.vert");
   const float step = 11.0f / (size / 2.0f), far = 20.0f / (size / 2.0f);
   const std::vector<float> offsets = {9, 9, 0, 0, step, 0, 0, step, far, far};
   job.attributes.push_back({2, VK_FORMAT_R32G32_SFLOAT, 8, VK_VERTEX_INPUT_RATE_INSTANCE, bytes_of(offsets)});
   job.instance_count = 4;
   job.first_instance = 1;
   job.indirect = true;
   job.indirect_offset = 20;
   expect_same(job);

   std::vector<Vertex> vertices = {{0, 0, 0, 1, 0, 0, 0, 1}, {0, 0, 0, 1, 0, 0, 0, 1}};
   for (unsigned i = 0; i < 8; i++)
      vertices.push_back({2.0f + 3.5f * i, i % 2 ? 30.0f : 3.0f, 0, 1, float(i) / 8, 1 - float(i) / 8, 0.5f, 1});
   DrawJob indexed = coloured(vertices);
   indexed.vertex_spirv = spirv("instanced.vert");
   const std::vector<float> no_offset = {0, 0};
   indexed.attributes.push_back({2, VK_FORMAT_R32G32_SFLOAT, 8, VK_VERTEX_INPUT_RATE_INSTANCE, bytes_of(no_offset)});
   indexed.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
   indexed.indices = {0, 1, 2, 3, 4, 5, 6, 7};
   indexed.first_vertex = 2; /* vertexOffset */
   indexed.indirect = true;
   expect_same(indexed);
}

TEST_F(Draws, SeveralIndirectDrawsInOneCall)
{
   /* multiDrawIndirect: twelve triangles as four indirect draws of three (records 32 bytes
    * apart), with two instances from firstInstance 2 (drawIndirectFirstInstance); then the
    * same indexed. Each draw's instances are offset by a per-instance attribute, so a lost
    * draw, a wrong first vertex or a wrong first instance shows. */
   std::vector<Vertex> vertices;
   for (unsigned t = 0; t < 12; t++) {
      const float x = 1.0f + 2.5f * float(t % 6), y = t < 6 ? 2.0f : 12.0f;
      const std::array<float, 4> colour = {float(t) / 12, 1 - float(t) / 12, float(t % 3) / 2, 1};
      const std::vector<Vertex> tri = triangle(x, y, x + 4, y + 1, x + 1, y + 7, 0.5f, colour);
      vertices.insert(vertices.end(), tri.begin(), tri.end());
   }
   for (bool indexed : {false, true}) {
      SCOPED_TRACE(indexed ? "indexed" : "not indexed");
      DrawJob job = coloured(vertices);
      job.vertex_spirv = spirv("instanced.vert");
      const float step = 14.0f / (size / 2.0f);
      const std::vector<float> offsets = {9, 9, 9, 9, 0, 0, 0, step};
      job.attributes.push_back({2, VK_FORMAT_R32G32_SFLOAT, 8, VK_VERTEX_INPUT_RATE_INSTANCE, bytes_of(offsets)});
      job.instance_count = 2;
      job.first_instance = 2;
      job.indirect = true;
      job.indirect_offset = 8;
      job.indirect_draw_count = 4;
      if (indexed)
         for (uint32_t i = 0; i < uint32_t(vertices.size()); i++)
            job.indices.push_back(i);
      const DrawImages images = expect_same(job);
      EXPECT_NE(texel(images, 2, 3), texel(images, 31, 0)) << "the first draw is missing";
      EXPECT_NE(texel(images, 15, 13), texel(images, 31, 0)) << "the last draw is missing";
   }
}

TEST_F(Draws, IndirectDrawsWithACountFromABuffer)
{
   /* vkCmdDrawIndirectCount and vkCmdDrawIndexedIndirectCount (VK_KHR_draw_indirect_count):
    * twelve triangles as six records of two, maxDrawCount 6, the count read from the last
    * dword of its buffer: 0 (nothing drawn), 1, 4 (records 4 and 5 must not draw), 6, and 9
    * (more than maxDrawCount: six draw). Against lavapipe, and against the count: the first
    * triangle of each record is drawn exactly when the record is below the count. */
   std::vector<Vertex> vertices;
   for (unsigned t = 0; t < 12; t++) {
      const float x = 1.0f + 2.5f * float(t % 6), y = t < 6 ? 2.0f : 12.0f;
      const std::array<float, 4> colour = {float(t) / 12, 1 - float(t) / 12, float(t % 3) / 2, 1};
      const std::vector<Vertex> tri = triangle(x, y, x + 4, y + 1, x + 1, y + 7, 0.5f, colour);
      vertices.insert(vertices.end(), tri.begin(), tri.end());
   }
   for (bool indexed : {false, true})
      for (uint32_t count : {0u, 1u, 4u, 6u, 9u}) {
         SCOPED_TRACE(std::string(indexed ? "indexed" : "not indexed") + ", count " + std::to_string(count));
         DrawJob job = coloured(vertices);
         job.indirect = true;
         job.indirect_offset = 8;
         job.indirect_draw_count = 6;
         job.use_indirect_count = true;
         job.indirect_count = count;
         job.indirect_count_offset = 12;
         if (indexed)
            for (uint32_t i = 0; i < uint32_t(vertices.size()); i++)
               job.indices.push_back(i);
         const DrawImages images = expect_same(job);
         /* Record r holds triangles 2r and 2r + 1; triangle t's inside point. */
         for (uint32_t r = 0; r < 6; r++) {
            const unsigned t = 2 * r;
            const unsigned x = unsigned(2.0f + 2.5f * float(t % 6)), y = t < 6 ? 4 : 14;
            const bool drawn = r < std::min(count, 6u);
            EXPECT_EQ(texel(images, x, y) != texel(images, 31, 0), drawn) << "record " << r;
         }
      }
}

TEST_F(Draws, IndirectDrawParameters)
{
   /* gl_BaseVertex and gl_BaseInstance (the vertex shader's driver constants) copied on the
    * GPU from the arguments, for a plain and an indexed indirect draw
    * (tests/compiler/graphics/draw_parameters.vert, flat_colour.frag). */
   for (bool indexed : {false, true}) {
      SCOPED_TRACE(indexed ? "indexed" : "not indexed");
      DrawJob job;
      job.vertex_spirv = spirv("draw_parameters.vert", "TERAKAN_GRAPHICS_SPIRV");
      job.fragment_spirv = spirv("flat_colour.frag", "TERAKAN_GRAPHICS_SPIRV");
      job.targets.push_back({});
      job.width = job.height = size;
      job.vertex_count = 6;
      job.instance_count = 2;
      job.first_vertex = 5;
      job.first_instance = 3;
      if (indexed)
         job.indices = {0, 1, 2, 3, 4, 5};
      job.indirect = true;
      job.indirect_offset = 4;
      const DrawImages images = expect_same(job, 0);
      EXPECT_NE(texel(images, 1, 1), texel(images, 20, 1)) << "nothing drawn";
   }
}

/* The whole target with texture coordinates (the colour's x and y) from 0 to 1: pixel
 * centres then fall a quarter or three quarters into a texel of the 8x8 texture, never on a
 * texel edge, where the two rasterizers' float interpolation could round to either side. */
std::vector<Vertex> textured_square()
{
   return {{0, 0, 0, 1, 0, 0, 0, 1}, {32, 0, 0, 1, 1, 0, 0, 1}, {0, 32, 0, 1, 0, 1, 0, 1},
           {32, 0, 0, 1, 1, 0, 0, 1}, {32, 32, 0, 1, 1, 1, 0, 1}, {0, 32, 0, 1, 0, 1, 0, 1}};
}

/* The texture the textured scenes sample: 8x8 RGBA8, a different colour per texel. */
DrawJob::Texture checker_texture()
{
   DrawJob::Texture texture;
   texture.width = texture.height = 8;
   for (uint32_t y = 0; y < 8; y++)
      for (uint32_t x = 0; x < 8; x++)
         texture.texels.insert(texture.texels.end(), {uint8_t(x * 32 + 16), uint8_t(y * 32 + 16),
                                                      uint8_t((x ^ y) & 1 ? 255 : 64), 255});
   return texture;
}

TEST_F(Draws, UniformBuffersTexturesAndPushConstantsInBothStages)
{
   /* textured.vert/.frag: texture coordinates from the colour attribute scaled by a uniform
    * buffer and offset by push constants; the pixel shader samples (nearest, then linear,
    * repeat) and multiplies by the uniform buffer's tint and a push constant. */
   const std::vector<Vertex> vertices = textured_square();
   for (VkFilter filter : {VK_FILTER_NEAREST, VK_FILTER_LINEAR}) {
      SCOPED_TRACE(filter);
      DrawJob job = coloured(vertices);
      job.vertex_spirv = spirv("textured.vert");
      job.fragment_spirv = spirv("textured.frag");
      job.texture = checker_texture();
      job.texture.filter = filter;
      const std::vector<float> parameters = {1.0f, 0.75f, 0.5f, 1.0f, 2.0f, 1.0f, 0, 0};
      job.uniform_data = bytes_of(parameters);
      const std::vector<float> push = {0.5f, 0.25f, 0.875f, 0};
      job.push_constants = bytes_of(push);
      const DrawImages images = expect_same(job);
      EXPECT_NE(texel(images, 4, 4), texel(images, 12, 4)) << "the texture does not show";
   }
}

TEST_F(Draws, UnnormalizedSamplerInAPixelShader)
{
   /* The same pipeline drawn with a normalized and then an unnormalized sampler: on Cypress
    * and Barts the pixel shader's variant with unnormalized TEX coordinates is chosen at the
    * draw (seed 004), on Cayman the sampler words say it. Coordinates reach 0-8 texels. */
   const std::vector<Vertex> vertices = textured_square();
   for (bool unnormalized : {false, true}) {
      SCOPED_TRACE(unnormalized ? "unnormalized" : "normalized");
      DrawJob job = coloured(vertices);
      job.vertex_spirv = spirv("textured.vert");
      job.fragment_spirv = spirv("textured.frag");
      job.texture = checker_texture();
      job.texture.unnormalized = unnormalized;
      job.texture.address = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
      const float scale = unnormalized ? 8.0f : 1.0f;
      const std::vector<float> parameters = {1, 1, 1, 1, scale, scale, 0, 0};
      job.uniform_data = bytes_of(parameters);
      const std::vector<float> push = {0, 0, 1, 0};
      job.push_constants = bytes_of(push);
      const DrawImages images = expect_same(job);
      EXPECT_NE(texel(images, 4, 4), texel(images, 12, 4)) << "the texture does not show";
   }
}

TEST_F(Draws, ExtendedDynamicStateOverridesThePipeline)
{
   /* The culling, depth and restart scenes again with those states set by commands
    * (VK_EXT_extended_dynamic_state and _2) over a pipeline that says the opposite. */
   ASSERT_TRUE(terakan_gpu().has_extended_dynamic_state());
   const std::vector<Vertex> faces =
      triangle(2, 2, 2, 14, 14, 2, 0, {1, 0, 0, 1}) + triangle(16, 16, 30, 16, 16, 30, 0, {0, 1, 0, 1});
   for (VkCullModeFlags cull : {VK_CULL_MODE_NONE, VK_CULL_MODE_BACK_BIT})
      for (VkFrontFace face : {VK_FRONT_FACE_COUNTER_CLOCKWISE, VK_FRONT_FACE_CLOCKWISE}) {
         SCOPED_TRACE("cull " + std::to_string(cull) + " front " + std::to_string(face));
         DrawJob job = coloured(faces);
         job.extended_dynamic_state = true;
         job.cull_mode = cull;
         job.front_face = face;
         expect_same(job);
      }
   const std::vector<Vertex> layers = triangle(2, 2, 30, 4, 6, 30, 0.75f, {1, 0, 0, 1}) +
                                      triangle(10, 1, 31, 20, 3, 16, 0.25f, {0, 1, 0, 1}) +
                                      triangle(1, 12, 28, 9, 20, 31, 0.5f, {0, 0, 1, 1});
   for (bool write : {true, false}) {
      SCOPED_TRACE(write ? "depth writes" : "no depth writes");
      DrawJob job = coloured(layers);
      job.extended_dynamic_state = true;
      job.depth = true;
      job.depth_write = write;
      job.depth_compare = VK_COMPARE_OP_LESS;
      expect_same(job);
   }
   std::vector<Vertex> strip = {{0, 0, 0, 1, 0, 0, 0, 1}};
   for (unsigned i = 0; i < 8; i++)
      strip.push_back({2.0f + 3.5f * i, i % 2 ? 14.0f : 3.0f, 0, 1, float(i) / 8, 1 - float(i) / 8, 0.5f, 1});
   DrawJob job = coloured(strip);
   job.extended_dynamic_state = true;
   job.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
   job.primitive_restart = true;
   job.indices = {0, 1, 2, 3, 0xffff, 4, 5, 6, 7};
   job.first_vertex = 1;
   expect_same(job);
}

TEST_F(Draws, ThousandsOfTrianglesWithDepth)
{
   /* Two indexed meshes of 33 x 33 jittered vertices (2,048 triangles each): first a near
    * one (z 0.25) squeezed into the left half, then a far one (z 0.5) over everything, which
    * the depth test keeps behind: 4,096 triangles. Jitter stays on the 1/8-pixel grid; each
    * mesh has one depth, so no interpolation order can flip a comparison. */
   std::vector<Vertex> vertices;
   std::vector<uint32_t> indices;
   for (unsigned mesh = 0; mesh < 2; mesh++) {
      const uint32_t base = uint32_t(vertices.size());
      for (unsigned y = 0; y <= 32; y++)
         for (unsigned x = 0; x <= 32; x++) {
            const float jitter_x = float(int((x * 7 + y * 3 + mesh * 5) % 5) - 2) / 8.0f;
            const float jitter_y = float(int((x * 3 + y * 5 + mesh) % 5) - 2) / 8.0f;
            const float z = mesh == 0 ? 0.25f : 0.5f;
            const float width = mesh == 0 ? 0.5f : 1.0f;
            vertices.push_back({(float(x) + (x % 32 ? jitter_x : 0)) * width, float(y) + (y % 32 ? jitter_y : 0),
                                z, 1, float(x) / 32, float(y) / 32, float(mesh), 1});
         }
      for (unsigned y = 0; y < 32; y++)
         for (unsigned x = 0; x < 32; x++) {
            const uint32_t v = base + y * 33 + x;
            indices.insert(indices.end(), {v, v + 1, v + 33, v + 1, v + 34, v + 33});
         }
   }
   DrawJob job = coloured(vertices);
   job.indices = indices;
   job.index_32bit = true;
   job.depth = true;
   job.depth_compare = VK_COMPARE_OP_LESS;
   const DrawImages images = expect_same(job);
   EXPECT_EQ(texel(images, 4, 10)[2], 0) << "the near mesh does not show";
   EXPECT_EQ(texel(images, 24, 10)[2], 255) << "the far mesh does not show";
}

TEST_F(Draws, DepthTestsWithD16AndD32)
{
   /* Three overlapping triangles, the middle one nearest, drawn far, near, middle. */
   const std::vector<Vertex> vertices = triangle(2, 2, 30, 4, 6, 30, 0.75f, {1, 0, 0, 1}) +
                                        triangle(10, 1, 31, 20, 3, 16, 0.25f, {0, 1, 0, 1}) +
                                        triangle(1, 12, 28, 9, 20, 31, 0.5f, {0, 0, 1, 1});
   for (VkFormat format : {VK_FORMAT_D32_SFLOAT, VK_FORMAT_D16_UNORM})
      for (VkCompareOp op : {VK_COMPARE_OP_LESS, VK_COMPARE_OP_GREATER_OR_EQUAL, VK_COMPARE_OP_NOT_EQUAL}) {
         SCOPED_TRACE(std::to_string(format) + " compare " + std::to_string(op));
         DrawJob job = coloured(vertices);
         job.depth = true;
         job.depth_format = format;
         job.depth_clear = op == VK_COMPARE_OP_GREATER_OR_EQUAL ? 0.0f : 1.0f;
         job.depth_compare = op;
         expect_same(job);
      }
   /* Without depth writes the nearest-so-far never changes: every triangle passes LESS. */
   DrawJob job = coloured(vertices);
   job.depth = true;
   job.depth_compare = VK_COMPARE_OP_LESS;
   job.depth_write = false;
   expect_same(job);
}

TEST_F(Draws, CullingAndFrontFaces)
{
   /* One counter-clockwise and one clockwise triangle (in y-down window space). */
   const std::vector<Vertex> vertices =
      triangle(2, 2, 2, 14, 14, 2, 0, {1, 0, 0, 1}) + triangle(16, 16, 30, 16, 16, 30, 0, {0, 1, 0, 1});
   for (VkCullModeFlags cull : {VK_CULL_MODE_NONE, VK_CULL_MODE_BACK_BIT, VK_CULL_MODE_FRONT_BIT,
                                VK_CULL_MODE_FRONT_AND_BACK})
      for (VkFrontFace face : {VK_FRONT_FACE_COUNTER_CLOCKWISE, VK_FRONT_FACE_CLOCKWISE}) {
         SCOPED_TRACE("cull " + std::to_string(cull) + " front " + std::to_string(face));
         DrawJob job = coloured(vertices);
         job.cull_mode = cull;
         job.front_face = face;
         expect_same(job);
      }
}

TEST_F(Draws, ScissorAndViewport)
{
   const std::vector<Vertex> vertices =
      triangle(0, 0, 32, 0, 0, 32, 0.5f, {1, 0, 0, 1}) + triangle(32, 0, 32, 32, 0, 32, 0.5f, {0, 1, 1, 1});
   DrawJob job = coloured(vertices);
   job.custom_scissor = true;
   job.scissor = {{5, 3}, {20, 17}};
   expect_same(job);
   job.custom_scissor = false;
   job.custom_viewport = true;
   job.viewport = {4, 6, 20, 16, 0, 1};
   expect_same(job);
   /* A negative height (VK_KHR_maintenance1) flips the picture upside down, and with it the
    * winding in framebuffer space: the two triangles (wound alike) are back-facing under the
    * viewport above, so culling back faces removes them, and front-facing under the flipped
    * one, which keeps them (a driver that took the facing before the viewport transform
    * would get one of the two wrong). */
   job.viewport = {4, 22, 20, -16, 0, 1};
   expect_same(job);
   job.cull_mode = VK_CULL_MODE_BACK_BIT;
   expect_same(job);
   job.viewport = {4, 6, 20, 16, 0, 1};
   expect_same(job);
}

/* Every blend factor that needs no second colour (the four SRC1 ones: DualSourceBlending),
 * each as the source and the destination factor of both colour and alpha at once, over a
 * clear colour with an alpha of its own and two overlapping translucent triangles, with
 * blend constants whose colour and alpha differ; within one unit of lavapipe per channel. */
TEST_F(Draws, EveryBlendFactor)
{
   const std::vector<Vertex> vertices = triangle(1, 1, 30, 2, 3, 29, 0, {1, 0.5f, 0.25f, 0.75f}) +
                                        triangle(31, 3, 29, 31, 2, 20, 0, {0.25f, 0.875f, 0.5f, 0.375f});
   for (VkBlendFactor factor :
        {VK_BLEND_FACTOR_ZERO, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_SRC_COLOR, VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR,
         VK_BLEND_FACTOR_DST_COLOR, VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR, VK_BLEND_FACTOR_SRC_ALPHA,
         VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, VK_BLEND_FACTOR_DST_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA,
         VK_BLEND_FACTOR_CONSTANT_COLOR, VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_COLOR, VK_BLEND_FACTOR_CONSTANT_ALPHA,
         VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_ALPHA, VK_BLEND_FACTOR_SRC_ALPHA_SATURATE}) {
      for (bool as_source : {true, false}) {
         SCOPED_TRACE(std::to_string(factor) + (as_source ? " as the source factor" : " as the destination factor"));
         DrawJob job = coloured(vertices);
         job.targets[0].clear.float32[0] = 0.5f;
         job.targets[0].clear.float32[1] = 0.125f;
         job.targets[0].clear.float32[2] = 0.75f;
         job.targets[0].clear.float32[3] = 0.625f;
         job.blend = true;
         job.blend_state.blendEnable = VK_TRUE;
         /* The other factor is a plain one, so that the tested factor's effect shows alone. */
         const VkBlendFactor other = as_source ? VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA : VK_BLEND_FACTOR_SRC_ALPHA;
         job.blend_state.srcColorBlendFactor = job.blend_state.srcAlphaBlendFactor = as_source ? factor : other;
         job.blend_state.dstColorBlendFactor = job.blend_state.dstAlphaBlendFactor = as_source ? other : factor;
         job.blend_state.colorBlendOp = job.blend_state.alphaBlendOp = VK_BLEND_OP_ADD;
         job.blend_state.colorWriteMask = 0xf;
         job.blend_constants[0] = 0.25f;
         job.blend_constants[1] = 0.5f;
         job.blend_constants[2] = 1.0f;
         job.blend_constants[3] = 0.375f;
         expect_same(job);
      }
   }
}

TEST_F(Draws, BlendEquationsAndFactors)
{
   /* Translucent colours over the clear colour and over each other. */
   const std::vector<Vertex> vertices = triangle(1, 1, 30, 2, 3, 29, 0, {1, 0.5f, 0.25f, 0.75f}) +
                                        triangle(31, 3, 29, 31, 2, 20, 0, {0.25f, 1, 0.5f, 0.5f});
   struct Equation {
      VkBlendFactor src, dst;
      VkBlendOp op;
   };
   for (const Equation &e : {Equation{VK_BLEND_FACTOR_SRC_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, VK_BLEND_OP_ADD},
                             Equation{VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, VK_BLEND_OP_ADD},
                             Equation{VK_BLEND_FACTOR_DST_COLOR, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD},
                             Equation{VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, VK_BLEND_OP_REVERSE_SUBTRACT},
                             Equation{VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, VK_BLEND_OP_SUBTRACT},
                             Equation{VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, VK_BLEND_OP_MIN},
                             Equation{VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, VK_BLEND_OP_MAX},
                             Equation{VK_BLEND_FACTOR_CONSTANT_COLOR, VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_ALPHA,
                                      VK_BLEND_OP_ADD}}) {
      SCOPED_TRACE(std::to_string(e.src) + " " + std::to_string(e.dst) + " op " + std::to_string(e.op));
      DrawJob job = coloured(vertices);
      job.blend = true;
      job.blend_state.blendEnable = VK_TRUE;
      job.blend_state.srcColorBlendFactor = e.src;
      job.blend_state.dstColorBlendFactor = e.dst;
      job.blend_state.colorBlendOp = e.op;
      job.blend_state.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
      job.blend_state.dstAlphaBlendFactor = VK_BLEND_FACTOR_ZERO;
      job.blend_state.alphaBlendOp = VK_BLEND_OP_ADD;
      job.blend_state.colorWriteMask = 0xf;
      job.blend_constants[0] = 0.5f;
      job.blend_constants[1] = 0.25f;
      job.blend_constants[2] = 1.0f;
      job.blend_constants[3] = 0.75f;
      expect_same(job);
   }
   /* Channel write masks. */
   DrawJob job = coloured(vertices);
   job.blend = true;
   job.blend_state.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_B_BIT;
   expect_same(job);
}

TEST_F(Draws, DualSourceBlending)
{
   /* The second colour (Index 1) as the blend factors: colour = src * src1 + dst * (1 - src1),
    * alpha with src1's alpha; over the dark blue clear and over a first opaque triangle. */
   const std::vector<Vertex> first = triangle(1, 1, 31, 1, 1, 31, 0.5f, {0.2f, 0.8f, 0.4f, 1});
   const std::vector<Vertex> second = {{4, 30, 0.5f, 1, 1, 0, 0, 0.25f}, {30, 4, 0.5f, 1, 0, 1, 0, 0.75f},
                                       {31, 31, 0.5f, 1, 0, 0, 1, 1}};
   DrawJob job = coloured(first + second);
   job.fragment_spirv = spirv("dual_source.frag");
   job.blend = true;
   job.blend_state.blendEnable = VK_TRUE;
   job.blend_state.srcColorBlendFactor = VK_BLEND_FACTOR_SRC1_COLOR;
   job.blend_state.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC1_COLOR;
   job.blend_state.colorBlendOp = VK_BLEND_OP_ADD;
   job.blend_state.srcAlphaBlendFactor = VK_BLEND_FACTOR_SRC1_ALPHA;
   job.blend_state.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA;
   job.blend_state.alphaBlendOp = VK_BLEND_OP_ADD;
   job.blend_state.colorWriteMask = 0xf;
   const DrawImages images = expect_same(job);
   EXPECT_NE(texel(images, 20, 20), texel(images, 31, 0));
}

TEST_F(Draws, LogicOps)
{
   /* Every logic op over an RGBA8 UNORM target, one-colour triangles over the clear colour;
    * the colours stay away from halfway between two 8-bit values, so that both devices store
    * the same bytes before the operation. */
   const std::vector<Vertex> vertices = triangle(1, 1, 30, 2, 3, 29, 0, {0.8f, 0.2f, 0.6f, 1.0f}) +
                                        triangle(31, 3, 29, 31, 2, 20, 0, {0.12f, 0.88f, 0.35f, 0.44f});
   for (uint32_t op = VK_LOGIC_OP_CLEAR; op <= VK_LOGIC_OP_SET; op++) {
      SCOPED_TRACE(op);
      DrawJob job = coloured(vertices);
      job.logic_op = true;
      job.logic = VkLogicOp(op);
      expect_same(job, 0);
   }
}

TEST_F(Draws, IndependentBlendingOfThreeTargets)
{
   /* Three attachments, each with its own equation and write mask. */
   const std::vector<Vertex> vertices = triangle(1, 1, 30, 2, 3, 29, 0, {1, 0.5f, 0.25f, 0.75f}) +
                                        triangle(31, 3, 29, 31, 2, 20, 0, {0.25f, 1, 0.5f, 0.5f});
   DrawJob job = coloured(vertices);
   job.fragment_spirv = spirv("coloured_targets.frag");
   job.targets.resize(3, job.targets[0]);
   job.targets[1].clear.float32[0] = 0.5f;
   job.targets[2].clear.float32[1] = 0.75f;
   VkPipelineColorBlendAttachmentState over{};
   over.blendEnable = VK_TRUE;
   over.srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA;
   over.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
   over.colorBlendOp = VK_BLEND_OP_ADD;
   over.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
   over.dstAlphaBlendFactor = VK_BLEND_FACTOR_ZERO;
   over.alphaBlendOp = VK_BLEND_OP_ADD;
   over.colorWriteMask = 0xf;
   VkPipelineColorBlendAttachmentState add = over;
   add.srcColorBlendFactor = add.dstColorBlendFactor = VK_BLEND_FACTOR_ONE;
   add.colorWriteMask = VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_A_BIT;
   VkPipelineColorBlendAttachmentState none{};
   none.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
   job.blend_states = {over, add, none};
   expect_same(job);
}

TEST_F(Draws, DepthBiasOnFloatDepth)
{
   /* A sloped triangle with a constant and a slope bias, its depth read back. Depth here is
    * interpolated over a slope, where the two rasterizers' float operation orders differ by an
    * ulp or two: compared within 2 ulps. Unorm depth: DepthBiasOnUnormDepth. */
   const std::vector<Vertex> sloped = {
      {1, 1, 0.2f, 1, 1, 0, 0, 1}, {31, 2, 0.6f, 1, 1, 0, 0, 1}, {2, 31, 0.9f, 1, 1, 0, 0, 1}};
   DrawJob job = coloured(sloped);
   job.depth = true;
   job.depth_compare = VK_COMPARE_OP_ALWAYS;
   expect_same(job, 1, 2); /* without bias first: the interpolation alone */
   job.depth_bias = true;
   job.depth_bias_constant = 2.0f;
   job.depth_bias_slope = 1.5f;
   const DrawImages biased = expect_same(job, 1, 2);
   /* depthBiasClamp: the same bias clamped to at most 2^-12 (PA_SU_POLY_OFFSET_CLAMP), which
    * the slope term exceeds; then a negative clamp with a negative bias. */
   job.depth_bias_clamp = 0x1p-12f;
   const DrawImages clamped = expect_same(job, 1, 2);
   job.depth_bias_constant = -2.0f;
   job.depth_bias_slope = -1.5f;
   job.depth_bias_clamp = -0x1p-12f;
   expect_same(job, 1, 2);
   job.depth_bias_constant = 2.0f;
   job.depth_bias_slope = 1.5f;
   job.depth_bias_clamp = 0;
   job.depth_bias = false;
   DrawImages plain;
   std::string error;
   ASSERT_TRUE(terakan_gpu().run(job, plain, error)) << error;
   ASSERT_EQ(plain.depth.size(), biased.depth.size());
   EXPECT_GT(biased.depth[5 * size + 5], plain.depth[5 * size + 5]) << "the bias moved nothing";
   ASSERT_EQ(clamped.depth.size(), plain.depth.size());
   EXPECT_LT(clamped.depth[5 * size + 5], biased.depth[5 * size + 5]) << "the clamp changed nothing";
}

TEST_F(Draws, DepthBiasOnUnormDepth)
{
   /* Vulkan's r for an n-bit unorm buffer is k x 2^-n, k in [1, 2]; Terakan's k is 2, as
    * lavapipe's r, 2 / (2^n - 1), nearly is. A flat triangle over the whole target at depth
    * 1/4 with a constant bias of 100: the stored depth must rise by between 100 and 200 steps
    * of the format (Vulkan's range) and equal lavapipe's. r600g's programming for GL, four
    * times the constant with 16 bits, gives 400 steps here and fails both. */
   for (VkFormat format : {VK_FORMAT_D16_UNORM, VK_FORMAT_X8_D24_UNORM_PACK32}) {
      SCOPED_TRACE(format);
      const bool d16 = format == VK_FORMAT_D16_UNORM;
      DrawJob job = coloured(triangle(-1, -1, 80, -1, -1, 80, 0.25f, {1, 1, 0, 1}));
      job.depth = true;
      job.depth_format = format;
      job.depth_compare = VK_COMPARE_OP_ALWAYS;
      DrawImages plain;
      std::string error;
      ASSERT_TRUE(terakan_gpu().run(job, plain, error)) << error;
      job.depth_bias = true;
      job.depth_bias_constant = 100.0f;
      const DrawImages biased = expect_same(job);
      const double steps = d16 ? 65535.0 : 16777215.0;
      auto stored = [&](const DrawImages &images, size_t p) {
         return d16 ? std::lround(double(images.depth.at(p)) * steps) : long(images.depth24.at(p));
      };
      for (size_t p : {size_t(0), size_t(17 * size + 9), size_t(size * size - 1)}) {
         const long rise = stored(biased, p) - stored(plain, p);
         EXPECT_GE(rise, 100) << "pixel " << p;
         EXPECT_LE(rise, 200) << "pixel " << p;
      }
   }
   /* 16-bit depth over a sloped triangle with both factors: the slope term (thousands of
    * steps) against lavapipe, within one step where the two round a sum near a half step
    * differently. */
   const std::vector<Vertex> sloped = {
      {1, 1, 0.2f, 1, 1, 0, 0, 1}, {31, 2, 0.6f, 1, 1, 0, 0, 1}, {2, 31, 0.9f, 1, 1, 0, 0, 1}};
   DrawJob job = coloured(sloped);
   job.depth = true;
   job.depth_format = VK_FORMAT_D16_UNORM;
   job.depth_compare = VK_COMPARE_OP_ALWAYS;
   job.depth_bias = true;
   job.depth_bias_constant = 3.0f;
   job.depth_bias_slope = 1.5f;
   expect_same(job, 1, 0, 1.5f / 65535.0f);
}

TEST_F(Draws, ClearAttachmentsInsideRendering)
{
   /* Rectangles of colour and depth cleared after a draw (clear draws with the driver's own
    * shaders), then a second draw whose depth test shows the cleared depth. */
   const std::vector<Vertex> vertices = triangle(0, 0, 32, 0, 0, 32, 0.5f, {1, 0, 0, 1}) +
                                        triangle(32, 0, 32, 32, 0, 32, 0.5f, {0, 1, 0, 1}) +
                                        triangle(0, 0, 32, 0, 0, 32, 0.4f, {1, 1, 1, 1}) +
                                        triangle(32, 0, 32, 32, 0, 32, 0.4f, {1, 1, 1, 1});
   for (VkFormat format : {VK_FORMAT_D32_SFLOAT, VK_FORMAT_D16_UNORM}) {
      SCOPED_TRACE(format);
      DrawJob job = coloured(vertices);
      job.vertex_count = 6;
      job.depth = true;
      job.depth_format = format;
      job.depth_compare = VK_COMPARE_OP_LESS;
      job.clear_rects = {{{3, 5}, {10, 7}}, {{20, 1}, {4, 30}}, {{0, 28}, {32, 4}}};
      job.clear_rect_colour = true;
      job.clear_rect_value.float32[0] = 0.25f;
      job.clear_rect_value.float32[1] = 0.5f;
      job.clear_rect_value.float32[2] = 0.75f;
      job.clear_rect_value.float32[3] = 1.0f;
      job.clear_rect_depth = true;
      job.clear_rect_depth_value = 0.3f; /* in front of the white second draw there */
      job.second_draw_vertex_count = 6;
      job.second_draw_first_vertex = 6;
      const DrawImages images = expect_same(job, 0);
      EXPECT_EQ(texel(images, 4, 6), (std::array<uint8_t, 4>{64, 128, 191, 255}));
      EXPECT_EQ(texel(images, 16, 16), (std::array<uint8_t, 4>{255, 255, 255, 255}));
   }
}

/* ---- stencil ---- */

using StencilFace = DrawJob::StencilFace;

StencilFace stencil_face(VkCompareOp compare, VkStencilOp fail, VkStencilOp pass, VkStencilOp depth_fail,
                         uint32_t reference, uint32_t compare_mask = 0xff, uint32_t write_mask = 0xff)
{
   StencilFace face;
   face.compare = compare;
   face.fail = fail;
   face.pass = pass;
   face.depth_fail = depth_fail;
   face.reference = reference;
   face.compare_mask = compare_mask;
   face.write_mask = write_mask;
   return face;
}

/* A rectangle (two counter-clockwise triangles in y-down window space) of one colour. */
std::vector<Vertex> rectangle(float x0, float y0, float x1, float y1, float z, std::array<float, 4> colour)
{
   return triangle(x0, y0, x0, y1, x1, y0, z, colour) + triangle(x1, y0, x0, y1, x1, y1, z, colour);
}

constexpr VkFormat stencil_formats[] = {VK_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_D32_SFLOAT_S8_UINT};

/* The stencil byte of a pixel. */
uint8_t stencil_at(const DrawImages &images, unsigned x, unsigned y)
{
   return images.stencil.at(size_t(y) * size + x);
}

TEST_F(Draws, DepthClampKeepsWhatCrossesTheClipPlanes)
{
   /* Two triangles reaching in front of the near plane (z < 0) and beyond the far plane
    * (z > w), over a square at depth 0.7, with LESS_OR_EQUAL and depthClampEnable: they are
    * not cut, their near parts get depth 0 and their far parts depth 1 (which passes over the
    * cleared 1.0 and not over the square). Colours and stored depths compared with lavapipe;
    * depth over these steep slopes within 2 ulps or 2^-22: both rasterizers evaluate the plane
    * in float from terms near 1, so they differ by absolute amounts of the order of 2^-24
    * (seen: up to 1.5e-7), which where the depth nears 0 is many ulps. (Without the clamp the
    * cut edges' positions depend on each clipper's arithmetic; other scenes cover clipping.) */
   DrawJob job = coloured(triangle(18, 1, 31, 1, 31, 31, 0.7f, {0, 0.6f, 0.6f, 1}) +
                          triangle(18, 1, 31, 31, 18, 31, 0.7f, {0, 0.6f, 0.6f, 1}) +
                          std::vector<Vertex>{{1, 2, -0.8f, 1, 1, 0.7f, 0.1f, 1},
                                              {29, 6, 1.7f, 1, 1, 0.7f, 0.1f, 1},
                                              {6, 27, 0.1f, 1, 1, 0.7f, 0.1f, 1},
                                              {30, 29, 1.9f, 1, 0.6f, 0.2f, 0.8f, 1},
                                              {2, 20, -0.6f, 1, 0.6f, 0.2f, 0.8f, 1},
                                              {25, 12, -0.2f, 1, 0.6f, 0.2f, 0.8f, 1}});
   job.depth = true;
   job.depth_compare = VK_COMPARE_OP_LESS_OR_EQUAL;
   job.depth_clamp = true;
   const DrawImages images = expect_same(job, 1, 2, 0x1p-22f);
   /* Clamped depths land on the range's end: exactly 0 in front (the far parts, clamped to 1,
    * lie over the square and lose to it). */
   EXPECT_NE(std::find(images.depth.begin(), images.depth.end(), 0.0f), images.depth.end());
}

TEST_F(Draws, DepthOnlyPipelineWithoutAFragmentStage)
{
   /* Shadow-map style: a pipeline of the vertex stage alone writes depth (D32F, LESS) for
    * overlapping triangles and no colour attachment; the depth buffer is compared with
    * lavapipe's exactly (flat triangles: no interpolation differences). */
   DrawJob job = coloured(triangle(2, 2, 30, 4, 6, 29, 0.6f, {1, 0, 0, 1}) +
                          triangle(28, 1, 30, 30, 3, 20, 0.3f, {0, 1, 0, 1}) +
                          triangle(10, 10, 25, 12, 14, 26, 0.45f, {0, 0, 1, 1}));
   job.fragment_spirv.clear();
   job.targets.clear();
   job.depth = true;
   job.depth_compare = VK_COMPARE_OP_LESS;
   const DrawImages images = expect_same(job);
   /* Three depths and the clear value are all there. */
   for (float z : {1.0f, 0.6f, 0.3f, 0.45f})
      EXPECT_NE(std::find(images.depth.begin(), images.depth.end(), z), images.depth.end()) << z;
}

TEST_F(Draws, DepthTestsWithD24)
{
   /* Three overlapping triangles over X8_D24 and D24S8 (the stencil aspect cleared and
    * stored, not tested): 24-bit depth values compared as integers. Depths are binary
    * fractions, which the two rasterizers interpolate to the same float (0.3 comes out one
    * float ulp apart, which moves the 24-bit value by one). */
   const std::vector<Vertex> vertices = triangle(2, 2, 30, 4, 6, 30, 0.75f, {1, 0, 0, 1}) +
                                        triangle(10, 1, 31, 20, 3, 16, 0.25f, {0, 1, 0, 1}) +
                                        triangle(1, 12, 28, 9, 20, 31, 0.375f, {0, 0, 1, 1});
   for (VkFormat format : {VK_FORMAT_X8_D24_UNORM_PACK32, VK_FORMAT_D24_UNORM_S8_UINT})
      for (VkCompareOp op : {VK_COMPARE_OP_LESS, VK_COMPARE_OP_GREATER_OR_EQUAL}) {
         SCOPED_TRACE(std::to_string(format) + " compare " + std::to_string(op));
         DrawJob job = coloured(vertices);
         job.depth = true;
         job.depth_format = format;
         job.depth_clear = op == VK_COMPARE_OP_GREATER_OR_EQUAL ? 0.0f : 0.9f;
         job.depth_compare = op;
         job.stencil_clear = 0x5a;
         const DrawImages images = expect_same(job);
         ASSERT_EQ(images.depth24.size(), size_t(size) * size);
         EXPECT_NEAR(double(images.depth24[0]), op == VK_COMPARE_OP_LESS ? 0.9 * 16777215.0 : 0.0, 1.0)
            << "the cleared depth";
         if (format == VK_FORMAT_D24_UNORM_S8_UINT)
            EXPECT_EQ(stencil_at(images, 0, 0), 0x5a) << "the cleared stencil";
      }
}

TEST_F(Draws, StencilMaskingWithReplaceIncrementAndEqual)
{
   /* Draw 1 counts coverage into the stencil (cleared to 1, INCREMENT_AND_CLAMP on both faces:
    * 2 where one shape covers, 3 where two overlap; one shape is clockwise). Draw 2, with the
    * stencil state changed by commands, covers the whole target with two rectangles, the left
    * one nearer than draw 1 and the right one behind it: EQUAL 2 under compare mask 0x3 passes
    * where one shape covered; passing pixels INVERT the low four bits (write mask 0x0f),
    * failing ones are REPLACEd by the reference where the write mask lets them, and pixels
    * that fail the depth test go to ZERO. Then NOT_EQUAL, and DECREMENT_AND_WRAP. */
   const std::vector<Vertex> shapes = triangle(2, 2, 4, 26, 22, 4, 0.5f, {1, 0, 0, 1}) +
                                      triangle(12, 8, 30, 30, 28, 6, 0.5f, {1, 1, 0, 1}) +
                                      rectangle(6, 18, 14, 30, 0.5f, {1, 0, 1, 1});
   const std::vector<Vertex> cover = rectangle(0, 0, 16, 32, 0.25f, {0, 1, 0, 1}) +
                                     rectangle(16, 0, 32, 32, 0.75f, {0, 1, 1, 1});
   const StencilFace count = stencil_face(VK_COMPARE_OP_ALWAYS, VK_STENCIL_OP_KEEP, VK_STENCIL_OP_INCREMENT_AND_CLAMP,
                                          VK_STENCIL_OP_KEEP, 0);
   struct Case {
      const char *name;
      StencilFace second;
   };
   const Case cases[] = {
      {"equal", stencil_face(VK_COMPARE_OP_EQUAL, VK_STENCIL_OP_REPLACE, VK_STENCIL_OP_INVERT, VK_STENCIL_OP_ZERO, 0x42,
                             0x03, 0x0f)},
      {"not equal", stencil_face(VK_COMPARE_OP_NOT_EQUAL, VK_STENCIL_OP_KEEP, VK_STENCIL_OP_REPLACE,
                                 VK_STENCIL_OP_INCREMENT_AND_WRAP, 0x82)},
      {"decrement and wrap", stencil_face(VK_COMPARE_OP_LESS_OR_EQUAL, VK_STENCIL_OP_DECREMENT_AND_WRAP,
                                          VK_STENCIL_OP_DECREMENT_AND_WRAP, VK_STENCIL_OP_DECREMENT_AND_CLAMP, 2)},
   };
   for (VkFormat format : stencil_formats)
      for (const Case &c : cases) {
         SCOPED_TRACE(std::to_string(format) + " " + c.name);
         DrawJob job = coloured(shapes + cover);
         job.vertex_count = uint32_t(shapes.size());
         job.second_draw_first_vertex = uint32_t(shapes.size());
         job.second_draw_vertex_count = uint32_t(cover.size());
         job.depth = true;
         job.depth_format = format;
         job.depth_compare = VK_COMPARE_OP_LESS;
         job.stencil = true;
         job.dynamic_stencil = true;
         job.stencil_clear = 1;
         job.stencil_front = job.stencil_back = count;
         job.second_stencil_front = job.second_stencil_back = c.second;
         const DrawImages images = expect_same(job, 0);
         if (std::string(c.name) == "equal") {
            /* (3, 8): one shape, nearer cover: 2 ^ 0xf = 0xd, green. (1, 1): no shape, stencil 1
             * fails: REPLACE 0x42 under mask 0x0f = 0x02. (23, 14): the yellow shape, the
             * cover behind it: ZERO. */
            EXPECT_EQ(stencil_at(images, 3, 8), 0x0d);
            EXPECT_EQ(texel(images, 3, 8), (std::array<uint8_t, 4>{0, 255, 0, 255}));
            EXPECT_EQ(stencil_at(images, 1, 1), 0x02);
            EXPECT_EQ(stencil_at(images, 23, 14), 0);
            EXPECT_EQ(texel(images, 23, 14), (std::array<uint8_t, 4>{255, 255, 0, 255}));
         }
      }
}

TEST_F(Draws, StencilFrontAndBackFacesDiffer)
{
   /* Counter-clockwise (front) and clockwise (back) triangles overlapping, with different
    * functions, operations, references and masks per face, set in the pipeline; the depth
    * test LESS against triangles at two depths makes some of them fail depth too. */
   const std::vector<Vertex> vertices = triangle(1, 1, 3, 30, 30, 3, 0.5f, {1, 0, 0, 1}) +     /* front */
                                        triangle(4, 4, 28, 28, 4, 28, 0.375f, {0, 1, 0, 1}) +  /* back */
                                        triangle(8, 2, 10, 24, 31, 12, 0.625f, {0, 0, 1, 1}) + /* front */
                                        triangle(2, 10, 30, 20, 16, 31, 0.25f, {1, 1, 1, 1}) + /* back */
                                        triangle(0, 16, 2, 31, 18, 16, 0.125f, {1, 0, 1, 1});  /* front */
   for (VkFormat format : stencil_formats) {
      SCOPED_TRACE(format);
      DrawJob job = coloured(vertices);
      job.depth = true;
      job.depth_format = format;
      job.depth_compare = VK_COMPARE_OP_LESS;
      job.stencil = true;
      job.stencil_clear = 0x81;
      job.stencil_front = stencil_face(VK_COMPARE_OP_NOT_EQUAL, VK_STENCIL_OP_INVERT, VK_STENCIL_OP_INCREMENT_AND_WRAP,
                                       VK_STENCIL_OP_REPLACE, 0x13, 0x03, 0xff);
      job.stencil_back = stencil_face(VK_COMPARE_OP_GREATER, VK_STENCIL_OP_ZERO, VK_STENCIL_OP_DECREMENT_AND_CLAMP,
                                      VK_STENCIL_OP_INCREMENT_AND_CLAMP, 0xc0, 0xf0, 0xf7);
      const DrawImages images = expect_same(job, 0);
      /* (20, 5): the first front triangle alone: 0x81 & 3 = 1 != 3 passes, INCR_WRAP. */
      EXPECT_EQ(stencil_at(images, 20, 5), 0x82);
      /* A 20 x 12 target (the scene scaled): the depth plane's pitch (8 or 16 texels on its
       * own) takes the stencil plane's 32. */
      job.width = 20;
      job.height = 12;
      expect_same(job, 0);
   }
   /* The same triangles with culling of back faces: the back state must not act. */
   DrawJob job = coloured(vertices);
   job.depth = true;
   job.depth_format = VK_FORMAT_D24_UNORM_S8_UINT;
   job.depth_compare = VK_COMPARE_OP_ALWAYS;
   job.cull_mode = VK_CULL_MODE_BACK_BIT;
   job.stencil = true;
   job.stencil_clear = 7;
   job.stencil_front = stencil_face(VK_COMPARE_OP_ALWAYS, VK_STENCIL_OP_KEEP, VK_STENCIL_OP_INCREMENT_AND_CLAMP,
                                    VK_STENCIL_OP_KEEP, 0);
   job.stencil_back = stencil_face(VK_COMPARE_OP_ALWAYS, VK_STENCIL_OP_ZERO, VK_STENCIL_OP_ZERO, VK_STENCIL_OP_ZERO, 0);
   expect_same(job, 0);
}

TEST_F(Draws, ClearAttachmentsOfStencil)
{
   /* A draw writes stencil 0x37 everywhere (REPLACE); rectangles of the stencil alone, then
    * of depth and stencil together, are cleared by vkCmdClearAttachments (clear draws); a
    * second draw, EQUAL to the cleared value, shows where they are. */
   const std::vector<Vertex> vertices = rectangle(0, 0, 32, 32, 0.5f, {1, 0, 0, 1}) +
                                        rectangle(0, 0, 32, 32, 0.4f, {1, 1, 1, 1});
   for (VkFormat format : stencil_formats)
      for (bool with_depth : {false, true}) {
         SCOPED_TRACE(std::to_string(format) + (with_depth ? " depth and stencil" : " stencil"));
         DrawJob job = coloured(vertices);
         job.vertex_count = 6;
         job.second_draw_first_vertex = 6;
         job.second_draw_vertex_count = 6;
         job.depth = true;
         job.depth_format = format;
         job.depth_compare = VK_COMPARE_OP_LESS;
         job.stencil = true;
         job.dynamic_stencil = true;
         job.stencil_clear = 3;
         job.stencil_front = job.stencil_back =
            stencil_face(VK_COMPARE_OP_ALWAYS, VK_STENCIL_OP_KEEP, VK_STENCIL_OP_REPLACE, VK_STENCIL_OP_KEEP, 0x37);
         job.second_stencil_front = job.second_stencil_back =
            stencil_face(VK_COMPARE_OP_EQUAL, VK_STENCIL_OP_KEEP, VK_STENCIL_OP_INCREMENT_AND_CLAMP,
                         VK_STENCIL_OP_KEEP, 0xa5);
         job.clear_rects = {{{3, 5}, {10, 7}}, {{20, 1}, {4, 30}}};
         job.clear_rect_colour = false;
         job.clear_rect_stencil = true;
         job.clear_rect_stencil_value = 0xa5;
         job.clear_rect_depth = with_depth;
         job.clear_rect_depth_value = 0.3f; /* in front of the second draw: it fails there */
         const DrawImages images = expect_same(job, 0);
         EXPECT_EQ(stencil_at(images, 0, 0), 0x37);
         EXPECT_EQ(stencil_at(images, 4, 6), with_depth ? 0xa5 : 0xa6);
         EXPECT_EQ(texel(images, 4, 6), with_depth ? (std::array<uint8_t, 4>{255, 0, 0, 255})
                                                   : (std::array<uint8_t, 4>{255, 255, 255, 255}));
      }
}

TEST_F(Draws, ClearDepthStencilImageByAspect)
{
   /* The depth attachment cleared before the pass by vkCmdClearDepthStencilImage, the depth
    * aspect and the stencil aspect by separate calls whose other value is a wrong one (the
    * runner's depth_cleared_by_command), then loaded: a triangle tests against both. */
   const std::vector<Vertex> vertices = triangle(2, 2, 30, 4, 6, 30, 0.5f, {1, 0, 0, 1}) +
                                        triangle(10, 1, 31, 20, 3, 16, 0.75f, {0, 1, 0, 1});
   for (VkFormat format : {VK_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_D32_SFLOAT_S8_UINT, VK_FORMAT_X8_D24_UNORM_PACK32,
                           VK_FORMAT_D16_UNORM, VK_FORMAT_D32_SFLOAT}) {
      SCOPED_TRACE(format);
      DrawJob job = coloured(vertices);
      job.depth = true;
      job.depth_format = format;
      job.depth_compare = VK_COMPARE_OP_LESS;
      job.depth_clear = 0.625f;
      job.depth_cleared_by_command = true;
      const bool stencil = terakan::test::has_stencil(format);
      if (stencil) {
         job.stencil = true;
         job.stencil_clear = 0x3c;
         job.stencil_front = job.stencil_back = stencil_face(VK_COMPARE_OP_EQUAL, VK_STENCIL_OP_DECREMENT_AND_CLAMP,
                                                             VK_STENCIL_OP_INCREMENT_AND_CLAMP, VK_STENCIL_OP_INVERT,
                                                             0x3c);
      }
      const DrawImages images = expect_same(job, 0);
      /* (20, 8): the first triangle only, nearer than the cleared depth; (24, 15): the second
       * only, behind it; (0, 31): neither. */
      EXPECT_EQ(texel(images, 20, 8), (std::array<uint8_t, 4>{255, 0, 0, 255}));
      EXPECT_EQ(texel(images, 24, 15), (std::array<uint8_t, 4>{0, 0, 64, 255}));
      EXPECT_NEAR(images.depth.at(31 * size), 0.625f, 1e-4f) << "the cleared depth";
      if (stencil) {
         EXPECT_EQ(stencil_at(images, 20, 8), 0x3d);
         EXPECT_EQ(stencil_at(images, 24, 15), uint8_t(~0x3c));
         EXPECT_EQ(stencil_at(images, 0, 31), 0x3c);
      }
   }
}

/* ---- multisampling (4 samples: what the simulator models and lavapipe offers) ----
 *
 * Both devices sample at Vulkan's standard 4x locations, so the same samples are covered and
 * each resolved pixel is the average of the same four stored 8-bit values, rounded to nearest
 * by both (the simulated CB and lavapipe's resolve). The tolerance stays 1 because an average
 * can fall exactly on a tie: two samples of 255 and two of 64 (the clear colour's blue) average
 * to 159.5, which the simulator's float arithmetic rounds to 159 and lavapipe's to 160 (seen
 * in MultisampledDepthTest with tolerance 0; the other scenes matched exactly then). */

/* How many pixels of target 0 differ from both `a` and `b` by more than 1 in some channel:
 * the blended edge pixels a resolve of partly covered pixels leaves. */
unsigned pixels_between(const DrawImages &images, std::array<uint8_t, 4> a, std::array<uint8_t, 4> b)
{
   unsigned count = 0;
   auto near = [](std::array<uint8_t, 4> x, std::array<uint8_t, 4> y) {
      for (unsigned c = 0; c < 4; c++)
         if (std::abs(int(x[c]) - int(y[c])) > 1)
            return false;
      return true;
   };
   for (unsigned y = 0; y < size; y++)
      for (unsigned x = 0; x < size; x++)
         if (!near(texel(images, x, y), a) && !near(texel(images, x, y), b))
            count++;
   return count;
}

TEST_F(Draws, MultisampledTrianglesResolvedByTheRenderPass)
{
   /* Two solid triangles with edges at every slope, vertices off the pixel grid (on the
    * 1/256 grid both rasterizers snap to), drawn with 4 samples and resolved by the render
    * pass's resolve attachment; then vkCmdClearAttachments of a rectangle inside the pass
    * (a clear draw that must write all four samples). */
   const std::vector<Vertex> vertices = triangle(1.375f, 2.125f, 29.625f, 5.5f, 4.25f, 30.875f, 0.5f, {1, 0, 0, 1}) +
                                        triangle(31.5f, 9.75f, 12.125f, 31.25f, 17.0625f, 1.1875f, 0.5f, {0, 1, 0, 1});
   DrawJob job = coloured(vertices);
   job.samples = VK_SAMPLE_COUNT_4_BIT;
   job.clear_rects = {{{20, 20}, {5, 3}}};
   job.clear_rect_value.float32[0] = 1.0f;
   job.clear_rect_value.float32[1] = 1.0f;
   job.clear_rect_value.float32[3] = 1.0f;
   const DrawImages images = expect_same(job);
   /* Inside the first triangle only, the clear colour in a corner, the cleared rectangle. */
   EXPECT_EQ(texel(images, 5, 8), (std::array<uint8_t, 4>{255, 0, 0, 255}));
   EXPECT_EQ(texel(images, 0, 31), (std::array<uint8_t, 4>{0, 0, 64, 255}));
   EXPECT_EQ(texel(images, 22, 21), (std::array<uint8_t, 4>{255, 255, 0, 255}));
   /* Edges are blended: without multisampling every pixel would be one of the solid colours. */
   EXPECT_GT(pixels_between(images, {255, 0, 0, 255}, {0, 0, 64, 255}), 20u);
}

TEST_F(Draws, MultisampledDepthTest)
{
   /* Two triangles that cross in depth (each with a depth slope, one through the other) with
    * a 4-sample D32 attachment and the test LESS: where they cross, each sample keeps the
    * nearer one at its own location, and the resolve averages them. Then the same with
    * D24S8. */
   const std::vector<Vertex> vertices = {
      {2, 2, 0.2f, 1, 1, 0, 0, 1}, {30, 3, 0.8f, 1, 1, 0, 0, 1}, {3, 29, 0.2f, 1, 1, 0, 0, 1},
      {29, 1.5f, 0.3f, 1, 0, 0, 1, 1}, {30.5f, 30, 0.3f, 1, 0, 0, 1, 1}, {1.25f, 16.625f, 0.9f, 1, 0, 0, 1, 1}};
   for (VkFormat format : {VK_FORMAT_D32_SFLOAT, VK_FORMAT_D24_UNORM_S8_UINT}) {
      SCOPED_TRACE(format);
      DrawJob job = coloured(vertices);
      job.samples = VK_SAMPLE_COUNT_4_BIT;
      job.depth = true;
      job.depth_format = format;
      job.depth_compare = VK_COMPARE_OP_LESS;
      const DrawImages images = expect_same(job);
      EXPECT_EQ(texel(images, 4, 6), (std::array<uint8_t, 4>{255, 0, 0, 255})) << "the near end of the first";
      EXPECT_EQ(texel(images, 27, 8), (std::array<uint8_t, 4>{0, 0, 255, 255})) << "the second in front";
      /* Where the two cross, pixels mix red and blue (more blue than the clear colour has,
       * and some red): the samples of one pixel took different triangles. */
      unsigned mixed = 0;
      for (unsigned y = 0; y < size; y++)
         for (unsigned x = 0; x < size; x++) {
            const std::array<uint8_t, 4> p = texel(images, x, y);
            mixed += p[0] > 40 && p[0] < 215 && p[2] > 80;
         }
      EXPECT_GT(mixed, 3u);
   }
}

TEST_F(Draws, MultisampledStencilPerSample)
{
   /* Two overlapping triangles in one draw over a 4-sample D24S8 attachment cleared to 0, the
    * stencil test NOT_EQUAL 1 with REPLACE on pass: the first triangle marks its samples, the
    * second draws only on samples the first left unmarked, so the edge pixels of the first
    * inside the second mix both colours per sample. */
   const std::vector<Vertex> vertices = triangle(1.375f, 2.125f, 29.625f, 5.5f, 4.25f, 30.875f, 0.5f, {1, 0, 0, 1}) +
                                        triangle(31.5f, 9.75f, 12.125f, 31.25f, 17.0625f, 1.1875f, 0.25f, {0, 1, 0, 1});
   DrawJob job = coloured(vertices);
   job.samples = VK_SAMPLE_COUNT_4_BIT;
   job.depth = true;
   job.depth_format = VK_FORMAT_D24_UNORM_S8_UINT;
   job.stencil = true;
   job.stencil_clear = 0;
   job.stencil_front = job.stencil_back = stencil_face(VK_COMPARE_OP_NOT_EQUAL, VK_STENCIL_OP_KEEP,
                                                       VK_STENCIL_OP_REPLACE, VK_STENCIL_OP_KEEP, 1);
   const DrawImages images = expect_same(job);
   /* (16, 12): inside both; the nearer green triangle is drawn later and the depth test is
    * ALWAYS, so only the stencil keeps the red. */
   EXPECT_EQ(texel(images, 16, 12), (std::array<uint8_t, 4>{255, 0, 0, 255}));
   EXPECT_EQ(texel(images, 25, 12), (std::array<uint8_t, 4>{0, 255, 0, 255}));
}

TEST_F(Draws, MultisampledSampleMask)
{
   /* pSampleMask 0b0101: a triangle over the whole target writes samples 0 and 2 only, so
    * every pixel it covers resolves to the mean of its colour and the clear colour; then a
    * smaller green one, whose edge pixels show which covered samples the mask keeps (samples
    * 0 and 2 sit at the top left and bottom left of the standard pattern). */
   const std::vector<Vertex> vertices = triangle(-1, -1, 70, -1, -1, 70, 0.5f, {1, 0, 0, 1}) +
                                        triangle(20.25f, 1.5f, 30.5f, 22.125f, 3.0625f, 27.75f, 0.5f, {0, 1, 0, 1});
   DrawJob job = coloured(vertices);
   job.samples = VK_SAMPLE_COUNT_4_BIT;
   job.sample_mask = 0x5;
   const DrawImages images = expect_same(job);
   const std::array<uint8_t, 4> pixel = texel(images, 2, 7);
   EXPECT_NEAR(pixel[0], 128, 1);
   EXPECT_EQ(pixel[1], 0);
   EXPECT_EQ(pixel[2], 32);
   EXPECT_EQ(pixel[3], 255);
}

/* Alpha to coverage: squares of one colour and different alphas over the dark blue clear.
 * Vulkan leaves the number of samples an alpha covers to the implementation; lavapipe covers
 * sample s when alpha > s / samples (ceil(alpha * samples) samples), the simulator
 * floor(alpha * samples + 1/2) under the offsets the driver programs as r600g does
 * (docs/sim-semantics.md "Alpha to coverage", derived). Where the two counts agree (alpha *
 * samples a whole number or its fraction above 1/2) the pictures are compared with
 * lavapipe's; where they differ (fractions up to 1/2) with the simulator's rule computed
 * here, the resolved colour being the mean of n samples of the square and 4 - n of the clear. */
TEST_F(Draws, AlphaToCoverage)
{
   const float agreeing[6] = {0.0f, 0.25f, 0.2f, 0.45f, 0.7f, 1.0f}; /* 0, 1, 1, 2, 3, 4 samples */
   const float differing[4] = {0.05f, 0.3f, 0.55f, 0.8f};          /* ours 0, 1, 2, 3; lavapipe 1, 2, 3, 4 */
   auto squares = [](const float *alphas, unsigned count) {
      std::vector<Vertex> vertices;
      for (unsigned i = 0; i < count; i++) {
         const float x = 1.5f + 5.0f * float(i);
         vertices = vertices + triangle(x, 2.5f, x + 4, 2.5f, x, 6.5f, 0.5f, {1, 0.5f, 0, alphas[i]}) +
                    triangle(x + 4, 2.5f, x + 4, 6.5f, x, 6.5f, 0.5f, {1, 0.5f, 0, alphas[i]});
      }
      return vertices;
   };
   DrawJob job = coloured(squares(agreeing, 6));
   job.samples = VK_SAMPLE_COUNT_4_BIT;
   job.alpha_to_coverage = true;
   const DrawImages images = expect_same(job);
   /* The square of alpha 0.45 covers 2 of 4 samples: half orange over the clear. */
   EXPECT_NEAR(texel(images, 3 + 5 * 3, 4)[0], 128, 1);
   EXPECT_NEAR(texel(images, 3 + 5 * 3, 4)[2], 32, 1);

   DrawJob other = coloured(squares(differing, 4));
   other.samples = VK_SAMPLE_COUNT_4_BIT;
   other.alpha_to_coverage = true;
   DrawImages ours;
   std::string error;
   ASSERT_TRUE(terakan_gpu().run(other, ours, error)) << error;
   for (unsigned i = 0; i < 4; i++) {
      const unsigned n = unsigned(std::floor(differing[i] * 4 + 0.5f));
      const std::array<float, 4> colour = {1, 0.5f, 0, differing[i]}, clear = {0, 0, 0.25f, 1};
      const std::array<uint8_t, 4> got = texel(ours, 3 + 5 * i, 4);
      for (unsigned c = 0; c < 4; c++) {
         /* Each sample holds the 8-bit code; the resolve averages codes. */
         const float expected = (float(n) * std::round(colour[c] * 255) + float(4 - n) * std::round(clear[c] * 255)) / 4;
         EXPECT_NEAR(float(got[c]), expected, 1.0f) << "alpha " << differing[i] << ", channel " << c;
      }
   }

   /* One sample: a fragment is kept when alpha rounds to one sample (alpha >= 1/2 here,
    * above 1/2 for lavapipe): alphas away from 1/2 agree. */
   const float single[4] = {0.1f, 0.45f, 0.55f, 0.9f};
   DrawJob one = coloured(squares(single, 4));
   one.alpha_to_coverage = true;
   const DrawImages single_images = expect_same(one);
   EXPECT_EQ(texel(single_images, 3 + 5 * 1, 4), (std::array<uint8_t, 4>{0, 0, 64, 255}));
   EXPECT_EQ(texel(single_images, 3 + 5 * 2, 4)[0], 255);
}

TEST_F(Draws, MultisampledResolveImageCommand)
{
   /* The attachment stored with its samples and resolved after the pass by
    * vkCmdResolveImage (the same RESOLVE draw outside a rendering). */
   const std::vector<Vertex> vertices = triangle(1.375f, 2.125f, 29.625f, 5.5f, 4.25f, 30.875f, 0.5f, {1, 1, 0, 1});
   DrawJob job = coloured(vertices);
   job.samples = VK_SAMPLE_COUNT_4_BIT;
   job.resolve_by_command = true;
   const DrawImages images = expect_same(job);
   EXPECT_EQ(texel(images, 5, 8), (std::array<uint8_t, 4>{255, 255, 0, 255}));
   EXPECT_GT(pixels_between(images, {255, 255, 0, 255}, {0, 0, 64, 255}), 20u);
}

} // namespace
