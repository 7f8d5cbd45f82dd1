/* VK_KHR_fragment_shader_barycentric on the simulated GPU (TERAKAN_SIM_CHIP picks the chip),
 * through the loader with the Khronos validation layer on.
 *
 * Lavapipe (Mesa 22.3) does not offer the extension, so the reference is computed here from
 * the Vulkan specification ("Barycentric Interpolation", and the vertex order of
 * "Primitive Topologies"): for a fragment at pixel centre p of a triangle whose window
 * positions are a0, a1, a2 in the primitive's vertex order, the linear weights are
 * b_i = area(p, a_{i+1}, a_{i+2}) / area(a0, a1, a2) (BaryCoordNoPerspKHR), the
 * perspective ones (b_i / w_i) / sum_j (b_j / w_j) (BaryCoordKHR), and PerVertexKHR input
 * element i is the value vertex i of that order wrote.
 *
 * Tolerances: the weights within 1e-5 (the hardware's I/J are floats computed from the
 * plane equations of the snapped vertices, and 1 - I - J rounds once more: a few units of
 * 2^-24 here; Vulkan asks for no particular precision, and 1e-5 is still far below the
 * 1/32 that one pixel step changes them by in these scenes); PerVertexKHR values exactly
 * (they are multiples of 1/4 below 16, so the SPI's difference P1 - P0 and the shader's
 * P0 + (P1 - P0) are exact); the hand-made interpolation within 1e-4 of the hardware's.
 * Coverage is the top-left rule on the 1/256-pixel grid (vertices sit on it), which the
 * draw tests already hold the simulator to against lavapipe.
 *
 * With TERAKAN_BARYCENTRIC_PICTURES=DIR the perspective weights are written as colour to
 * DIR/terakan.png, and the reference computed here to DIR/reference.png (the gallery). */
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "../compiler/vulkan_draw_runner.h"
#include "../gl/failure.h"
#include "../gl/png_file.h"
#include "../vulkan_helpers.h"

namespace {

using terakan::test::DrawImages;
using terakan::test::DrawJob;
using terakan::test::VulkanDrawRunner;

constexpr uint32_t size = 32;
constexpr float cleared = -1.0f; /* every channel of every target before the draw */

VulkanDrawRunner &terakan_gpu()
{
   static VulkanDrawRunner runner("Terakan");
   return runner;
}

/* A vertex: window position in pixels (on the 1/256 grid), w, and the two values the
 * fragment shader reads per vertex (multiples of 1/4). */
struct Vertex {
   double x, y, w;
   float a, b;
};

template <typename T> std::vector<uint8_t> bytes_of(const std::vector<T> &values)
{
   std::vector<uint8_t> out(values.size() * sizeof(T));
   std::memcpy(out.data(), values.data(), out.size());
   return out;
}

constexpr uint32_t restart = 0xffffffffu; /* the 32-bit primitive restart index */

/* barycentric.vert/.frag over `vertices` (indexed by `indices` when not empty, with primitive
 * restart when an index is `restart`), four R32G32B32A32_SFLOAT targets cleared to -1. */
DrawJob barycentric_job(const std::vector<Vertex> &vertices, const std::vector<uint32_t> &indices = {},
                        VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST)
{
   DrawJob job;
   job.vertex_spirv = terakan::test::read_api_spirv("barycentric.vert");
   job.fragment_spirv = terakan::test::read_api_spirv("barycentric.frag");
   std::vector<float> positions, values;
   for (const Vertex &v : vertices) {
      const double half = size / 2.0;
      positions.insert(positions.end(), {float((v.x / half - 1.0) * v.w), float((v.y / half - 1.0) * v.w), 0.5f * float(v.w),
                                         float(v.w)});
      values.insert(values.end(), {v.a, v.b});
   }
   job.attributes = {{0, VK_FORMAT_R32G32B32A32_SFLOAT, 16, VK_VERTEX_INPUT_RATE_VERTEX, bytes_of(positions)},
                     {1, VK_FORMAT_R32G32_SFLOAT, 8, VK_VERTEX_INPUT_RATE_VERTEX, bytes_of(values)}};
   for (unsigned t = 0; t < 4; t++) {
      DrawJob::Target target;
      target.format = VK_FORMAT_R32G32B32A32_SFLOAT;
      target.clear.float32[0] = target.clear.float32[1] = target.clear.float32[2] = target.clear.float32[3] = cleared;
      job.targets.push_back(target);
   }
   job.width = job.height = size;
   job.vertex_count = uint32_t(vertices.size());
   job.indices = indices;
   job.index_32bit = true;
   job.topology = topology;
   job.primitive_restart = std::find(indices.begin(), indices.end(), restart) != indices.end();
   return job;
}

/* The triangles of a draw as vertex triples in the specification's order ("Primitive
 * Topologies", first-vertex provoking mode): lists 3t, 3t+1, 3t+2; strips i, i + 1 + i % 2,
 * i + 2 - i % 2; fans i + 1, i + 2, 0; positions in the index list (each run between restart
 * indices on its own) when there is one. */
std::vector<std::array<size_t, 3>> triangles_of(VkPrimitiveTopology topology, size_t vertex_count,
                                                const std::vector<uint32_t> &indices)
{
   std::vector<std::array<size_t, 3>> triangles;
   std::vector<std::vector<size_t>> runs(1);
   if (indices.empty()) {
      for (size_t v = 0; v < vertex_count; v++)
         runs.back().push_back(v);
   } else {
      for (uint32_t index : indices) {
         if (index == restart)
            runs.emplace_back();
         else
            runs.back().push_back(index);
      }
   }
   for (const std::vector<size_t> &run : runs) {
      const size_t n = run.size();
      switch (topology) {
      case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST:
         for (size_t t = 0; t + 2 < n; t += 3)
            triangles.push_back({run[t], run[t + 1], run[t + 2]});
         break;
      case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP:
         for (size_t i = 0; i + 2 < n; i++)
            triangles.push_back({run[i], run[i + 1 + i % 2], run[i + 2 - i % 2]});
         break;
      case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN:
         for (size_t i = 0; i + 2 < n; i++)
            triangles.push_back({run[i + 1], run[i + 2], run[0]});
         break;
      default:
         ADD_FAILURE() << "no reference for topology " << topology;
      }
   }
   return triangles;
}

/* The reference for one pixel: which triangle covers its centre and the weights there. */
struct Expected {
   size_t triangle = 0;
   std::array<double, 3> linear{}, perspective{};
};

/* Twice the signed area of (a, b, p) in 1/256 pixels: positive inside a triangle that is
 * clockwise on the y-down screen. */
int64_t edge(const int64_t a[2], const int64_t b[2], int64_t px, int64_t py)
{
   return (b[0] - a[0]) * (py - a[1]) - (b[1] - a[1]) * (px - a[0]);
}

/* Triangles as vertex triples in the specification's order (triangle lists: 3t, 3t+1, 3t+2,
 * or those positions of the index list); they may overlap. */
std::optional<Expected> expected_at(const std::vector<Vertex> &v, const std::vector<std::array<size_t, 3>> &triangles,
                                    unsigned x, unsigned y)
{
   const int64_t px = int64_t(x) * 256 + 128, py = int64_t(y) * 256 + 128;
   for (size_t t = triangles.size(); t-- > 0;) { /* the last triangle drawn over a pixel shows */
      int64_t p[3][2];
      for (unsigned k = 0; k < 3; k++) {
         p[k][0] = std::llround(v[triangles[t][k]].x * 256);
         p[k][1] = std::llround(v[triangles[t][k]].y * 256);
      }
      const int64_t area = edge(p[0], p[1], p[2][0], p[2][1]);
      if (area == 0)
         continue;
      /* e[i]: the edge opposite vertex i, so that e[i] / area is vertex i's weight. */
      int64_t e[3] = {edge(p[1], p[2], px, py), edge(p[2], p[0], px, py), edge(p[0], p[1], px, py)};
      const int sign = area > 0 ? 1 : -1;
      bool inside = true;
      for (unsigned i = 0; i < 3; i++) {
         const int64_t *from = p[(i + 1) % 3], *to = p[(i + 2) % 3];
         const int64_t s = e[i] * sign;
         /* Top-left rule on the clockwise (y-down) orientation: an edge through the centre
          * counts only if it is a top edge (horizontal, going right) or a left edge (going
          * up). Reversed orientation reverses the edge direction. */
         const int64_t dx = (to[0] - from[0]) * sign, dy = (to[1] - from[1]) * sign;
         const bool top_left = dy < 0 || (dy == 0 && dx > 0);
         inside &= s > 0 || (s == 0 && top_left);
      }
      if (!inside)
         continue;
      Expected result;
      result.triangle = t;
      double sum = 0;
      for (unsigned i = 0; i < 3; i++) {
         result.linear[i] = double(e[i]) / double(area);
         sum += result.linear[i] / v[triangles[t][i]].w;
      }
      for (unsigned i = 0; i < 3; i++)
         result.perspective[i] = result.linear[i] / v[triangles[t][i]].w / sum;
      return result;
   }
   return std::nullopt;
}

const float *texel(const DrawImages &images, unsigned target, unsigned x, unsigned y)
{
   return reinterpret_cast<const float *>(images.targets[target].data()) + (size_t(y) * size + x) * 4;
}

uint8_t to_byte(double value) { return uint8_t(std::lround(std::clamp(value, 0.0, 1.0) * 255.0)); }

class Barycentrics : public ::testing::Test {
protected:
   static void SetUpTestSuite() { ASSERT_TRUE(terakan_gpu().available()) << terakan_gpu().error(); }

   /* Draws and checks every pixel against the reference; returns the covered pixel count. */
   unsigned draw_and_check(const std::vector<Vertex> &vertices, const std::vector<uint32_t> &indices,
                           VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                           bool save_pictures = false, bool dynamic_state = false)
   {
      const std::vector<std::array<size_t, 3>> triangles = triangles_of(topology, vertices.size(), indices);
      DrawJob job = barycentric_job(vertices, indices, topology);
      job.extended_dynamic_state = dynamic_state;
      DrawImages images;
      std::string error;
      const unsigned messages = terakan_gpu().validation_messages();
      EXPECT_TRUE(terakan_gpu().run(job, images, error)) << error;
      EXPECT_EQ(terakan_gpu().validation_messages(), messages) << "validation messages";
      if (images.targets.size() != 4) {
         ADD_FAILURE() << "no images";
         return 0;
      }
      terakan::gl_scenes::RgbaPicture ours, reference;
      ours.width = reference.width = int(size);
      ours.height = reference.height = int(size);
      ours.pixels.assign(size * size * 4, 0);
      reference.pixels.assign(size * size * 4, 0);
      unsigned covered = 0, reported = 0;
      auto report = [&](unsigned x, unsigned y, const std::string &what) {
         if (reported++ < 12)
            ADD_FAILURE() << "pixel (" << x << ", " << y << "): " << what;
      };
      for (unsigned y = 0; y < size; y++) {
         for (unsigned x = 0; x < size; x++) {
            const std::optional<Expected> expected = expected_at(vertices, triangles, x, y);
            const float *bary = texel(images, 0, x, y), *linear = texel(images, 1, x, y);
            const float *per_vertex = texel(images, 2, x, y), *by_hand = texel(images, 3, x, y);
            const bool drawn = bary[3] != cleared;
            if (drawn != bool(expected)) {
               report(x, y, drawn ? "drawn, outside every triangle" : "not drawn, inside a triangle");
               continue;
            }
            uint8_t *out = &ours.pixels[(size_t(y) * size + x) * 4], *ref = &reference.pixels[(size_t(y) * size + x) * 4];
            out[3] = ref[3] = 255;
            if (!expected)
               continue;
            covered++;
            for (unsigned i = 0; i < 3; i++) {
               out[i] = to_byte(bary[i]);
               ref[i] = to_byte(expected->perspective[i]);
            }
            const auto &corners = triangles[expected->triangle];
            char text[320];
            for (unsigned i = 0; i < 3; i++) {
               if (std::fabs(bary[i] - expected->perspective[i]) > 1e-5 ||
                   std::fabs(linear[i] - expected->linear[i]) > 1e-5) {
                  snprintf(text, sizeof(text),
                           "weight %u: BaryCoord %.7f (expected %.7f), BaryCoordNoPersp %.7f (expected %.7f)", i,
                           bary[i], expected->perspective[i], linear[i], expected->linear[i]);
                  report(x, y, text);
               }
            }
            const unsigned k = (x + y) % 3;
            const float wanted[4] = {vertices[corners[0]].a, vertices[corners[1]].a, vertices[corners[2]].a,
                                     vertices[corners[k]].b};
            if (std::memcmp(per_vertex, wanted, sizeof(wanted)) != 0) {
               snprintf(text, sizeof(text), "PerVertex (%g, %g, %g, %g), expected (%g, %g, %g, %g)", per_vertex[0],
                        per_vertex[1], per_vertex[2], per_vertex[3], wanted[0], wanted[1], wanted[2], wanted[3]);
               report(x, y, text);
            }
            double interpolated = 0;
            for (unsigned i = 0; i < 3; i++)
               interpolated += expected->perspective[i] * vertices[corners[i]].a;
            if (std::fabs(by_hand[0] - interpolated) > 1e-4 || std::fabs(by_hand[1] - interpolated) > 1e-4) {
               snprintf(text, sizeof(text), "interpolated %.6f, by hand %.6f, expected %.6f", by_hand[0], by_hand[1],
                        interpolated);
               report(x, y, text);
            }
         }
      }
      const char *folder = std::getenv("TERAKAN_BARYCENTRIC_PICTURES");
      if (save_pictures && folder) {
         try {
            terakan::gl_scenes::write_png(std::string(folder) + "/terakan.png", ours);
            terakan::gl_scenes::write_png(std::string(folder) + "/reference.png", reference);
         } catch (const terakan::gl_scenes::Failure &failure) {
            ADD_FAILURE() << failure.what();
         }
      }
      return covered;
   }
};

/* Three triangles, each with its own w per vertex (so the two kinds of weights differ), in
 * both windings. */
const std::vector<Vertex> list_vertices = {
   {1.5, 2.25, 1.0, 1.0, 8.0},    {29.75, 4.5, 2.0, 2.25, 8.5},  {6.25, 27.5, 4.0, 3.5, 9.0},
   {30.5, 9.0, 1.0, 1.25, 9.5},   {31.0, 31.5, 3.0, 2.75, 10.0}, {12.0, 30.0, 1.5, 3.75, 10.5},
   {20.25, 1.0, 0.5, 1.5, 11.0},  {31.5, 1.5, 1.0, 2.0, 11.5},   {26.0, 8.75, 2.5, 3.0, 12.0},
};

TEST_F(Barycentrics, DeviceOffersTheExtensionAndFeature)
{
   VkInstance instance = VK_NULL_HANDLE;
   ASSERT_EQ(terakan::test::create_instance("terakan-barycentrics", VK_API_VERSION_1_0, {},
                                            {VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME}, nullptr, instance),
             VK_SUCCESS);
   VkPhysicalDevice physical = terakan::test::find_physical_device(instance, "Terakan");
   ASSERT_NE(physical, VK_NULL_HANDLE);
   EXPECT_TRUE(terakan::test::has_device_extension(physical, VK_KHR_FRAGMENT_SHADER_BARYCENTRIC_EXTENSION_NAME));
   auto features2 = reinterpret_cast<PFN_vkGetPhysicalDeviceFeatures2KHR>(
      vkGetInstanceProcAddr(instance, "vkGetPhysicalDeviceFeatures2KHR"));
   auto properties2 = reinterpret_cast<PFN_vkGetPhysicalDeviceProperties2KHR>(
      vkGetInstanceProcAddr(instance, "vkGetPhysicalDeviceProperties2KHR"));
   ASSERT_TRUE(features2 && properties2);
   VkPhysicalDeviceFragmentShaderBarycentricFeaturesKHR feature{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FRAGMENT_SHADER_BARYCENTRIC_FEATURES_KHR};
   VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &feature};
   features2(physical, &features);
   EXPECT_TRUE(feature.fragmentShaderBarycentric);
   VkPhysicalDeviceFragmentShaderBarycentricPropertiesKHR property{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FRAGMENT_SHADER_BARYCENTRIC_PROPERTIES_KHR};
   property.triStripVertexOrderIndependentOfProvokingVertex = VK_TRUE; /* must be overwritten */
   VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &property};
   properties2(physical, &properties);
   EXPECT_FALSE(property.triStripVertexOrderIndependentOfProvokingVertex);
   terakan::test::destroy_instance(instance);
}

TEST_F(Barycentrics, TriangleListWeightsAndPerVertexInputs)
{
   EXPECT_GT(draw_and_check(list_vertices, {}, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, true), 300u);
}

/* The order is the index list's: each triangle's vertices rotated and the last triangle
 * reversed (the other winding). */
TEST_F(Barycentrics, IndexedTriangleListFollowsTheIndexOrder)
{
   EXPECT_GT(draw_and_check(list_vertices, {1, 2, 0, 5, 3, 4, 8, 7, 6}), 300u);
}

/* A zig-zag strip: odd triangles are where Vulkan's order (i, i+2, i+1) is not the order the
 * vertices come in, and where the provoking vertex is not the first the hardware sees. */
const std::vector<Vertex> strip_vertices = {
   {1.0, 2.5, 1.0, 1.0, 8.0},    {3.25, 29.0, 2.0, 1.25, 8.25}, {9.5, 1.75, 4.0, 1.5, 8.5},
   {12.0, 30.5, 1.0, 1.75, 8.75}, {18.75, 3.0, 3.0, 2.0, 9.0},   {21.5, 28.25, 0.5, 2.25, 9.25},
   {27.0, 1.25, 1.5, 2.5, 9.5},   {31.0, 26.5, 2.5, 2.75, 9.75},
};

TEST_F(Barycentrics, TriangleStripOddTrianglesInVulkanOrder)
{
   EXPECT_GT(draw_and_check(strip_vertices, {}, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP), 500u);
}

/* The topology, restart and culling as extended dynamic state (the pipeline holds the
 * opposite culling and restart, vulkan_draw_runner.h): the draw reads the command's. */
TEST_F(Barycentrics, TriangleStripAsDynamicState)
{
   EXPECT_GT(draw_and_check(strip_vertices, {}, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, false, true), 500u);
}

/* Indexed, in another order, and cut in two by a restart index. */
TEST_F(Barycentrics, IndexedTriangleStripWithRestart)
{
   EXPECT_GT(draw_and_check(strip_vertices, {1, 0, 3, 2, 5, restart, 4, 7, 6, 5}, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP),
             300u);
}

/* A fan around a hub: Vulkan's order for triangle i is (i+1, i+2, 0), the hub last. */
TEST_F(Barycentrics, TriangleFanHubLast)
{
   const std::vector<Vertex> fan = {
      {16.25, 15.5, 1.0, 1.0, 8.0}, {1.5, 1.25, 2.0, 1.25, 8.25},  {30.75, 2.0, 4.0, 1.5, 8.5},
      {31.0, 30.0, 1.0, 1.75, 8.75}, {2.0, 31.25, 3.0, 2.0, 9.0}, {1.0, 12.5, 0.5, 2.25, 9.25},
   };
   EXPECT_GT(draw_and_check(fan, {}, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN), 600u);
}

/* Lines (and points, which take the same path; a point list would also need gl_PointSize):
 * the pipeline is made, the draw is refused (the command buffer fails with
 * VK_ERROR_FEATURE_NOT_PRESENT at vkEndCommandBuffer), never drawn wrong. */
TEST_F(Barycentrics, LinesAreRefused)
{
   for (VkPrimitiveTopology topology : {VK_PRIMITIVE_TOPOLOGY_LINE_LIST, VK_PRIMITIVE_TOPOLOGY_LINE_STRIP}) {
      SCOPED_TRACE(topology);
      DrawJob job = barycentric_job(list_vertices);
      job.topology = topology;
      DrawImages images;
      std::string error;
      EXPECT_FALSE(terakan_gpu().run(job, images, error));
      EXPECT_EQ(error, "vkEndCommandBuffer failed");
   }
}

/* barycentric.frag with BaryCoordKHR and BaryCoordNoPerspKHR decorated Centroid (as HLSL's
 * `centroid` SV_Barycentrics makes them; GLSL cannot redeclare the built-ins): an
 * OpDecorate %id Centroid (decoration 16) inserted after each BuiltIn decoration (OpDecorate
 * 71, BuiltIn 11, BaryCoordKHR 5286, BaryCoordNoPerspKHR 5287). */
std::vector<uint32_t> with_centroid_bary_coords(std::vector<uint32_t> words)
{
   unsigned decorated = 0;
   for (size_t at = 5; at < words.size();) {
      const uint32_t count = words[at] >> 16, opcode = words[at] & 0xffff;
      if (count == 0)
         break;
      if (opcode == 71 && count == 4 && words[at + 2] == 11 && (words[at + 3] == 5286 || words[at + 3] == 5287)) {
         const uint32_t id = words[at + 1];
         words.insert(words.begin() + std::ptrdiff_t(at + count), {(3u << 16) | 71u, id, 16u});
         decorated++;
         at += 3;
      }
      at += count;
   }
   EXPECT_EQ(decorated, 2u) << "BaryCoordKHR and BaryCoordNoPerspKHR decorations";
   return words;
}

/* Centroid weights, 4x multisampled: each pixel is shaded once, its covered samples take the
 * shader's values and the others keep the clear value -1, so the resolved average of a
 * channel is (c v - (4 - c)) / 4 for c covered samples, c read from target 0's w (written 1).
 * Both built-ins are decorated Centroid. Where every sample is covered the weights are the
 * centre's; where only some are, Vulkan puts
 * the centroid somewhere inside both pixel and primitive, so every weight is within [0, 1]
 * (1e-5), while the centre's are not on some of those pixels. */
TEST_F(Barycentrics, CentroidWeightsStayInsideThePrimitive)
{
   /* One triangle: no pixel mixes two primitives' samples. */
   const std::vector<Vertex> triangle(list_vertices.begin(), list_vertices.begin() + 3);
   DrawJob job = barycentric_job(triangle);
   job.fragment_spirv = with_centroid_bary_coords(job.fragment_spirv);
   job.samples = VK_SAMPLE_COUNT_4_BIT;
   DrawImages images;
   std::string error;
   const unsigned messages = terakan_gpu().validation_messages();
   ASSERT_TRUE(terakan_gpu().run(job, images, error)) << error;
   EXPECT_EQ(terakan_gpu().validation_messages(), messages) << "validation messages";
   const std::vector<std::array<size_t, 3>> triangles = {{0, 1, 2}};
   unsigned full = 0, partial = 0, centre_outside = 0, reported = 0;
   for (unsigned y = 0; y < size; y++) {
      for (unsigned x = 0; x < size; x++) {
         const float *bary = texel(images, 0, x, y), *linear = texel(images, 1, x, y);
         const double covered = 2.0 * bary[3] + 2.0;
         const int samples = int(std::lround(covered));
         if (samples == 0)
            continue;
         ASSERT_NEAR(covered, samples, 1e-4) << "pixel (" << x << ", " << y << ")";
         std::array<double, 3> weights{}, centroid_linear{};
         for (unsigned i = 0; i < 3; i++) {
            weights[i] = (4.0 * bary[i] + (4 - samples)) / samples;
            centroid_linear[i] = (4.0 * linear[i] + (4 - samples)) / samples;
         }
         const std::optional<Expected> centre = expected_at(triangle, triangles, x, y);
         if (samples == 4) {
            if (!centre) {
               ADD_FAILURE() << "pixel (" << x << ", " << y << "): every sample covered, not the centre";
               continue;
            }
            full++;
            for (unsigned i = 0; i < 3; i++)
               if ((std::fabs(weights[i] - centre->perspective[i]) > 1e-4 ||
                    std::fabs(centroid_linear[i] - centre->linear[i]) > 1e-4) &&
                   reported++ < 12)
                  ADD_FAILURE() << "pixel (" << x << ", " << y << ") fully covered: weight " << i << " "
                                << weights[i] << " (linear " << centroid_linear[i] << "), centre "
                                << centre->perspective[i] << " (" << centre->linear[i] << ")";
            continue;
         }
         partial++;
         bool outside = !centre;
         for (unsigned i = 0; i < 3; i++) {
            if ((weights[i] < -1e-4 || weights[i] > 1 + 1e-4 || centroid_linear[i] < -1e-4 ||
                 centroid_linear[i] > 1 + 1e-4) &&
                reported++ < 12)
               ADD_FAILURE() << "pixel (" << x << ", " << y << "), " << samples << " samples: centroid weight " << i
                             << " " << weights[i] << " (linear " << centroid_linear[i] << ") outside [0, 1]";
         }
         centre_outside += outside;
      }
   }
   EXPECT_GT(full, 200u);
   EXPECT_GT(partial, 30u);
   EXPECT_GT(centre_outside, 5u) << "no partly covered pixel whose centre is outside the primitive";
}

/* An integer PerVertexKHR input: pipeline creation fails (VK_ERROR_INVALID_SHADER_NV with the
 * compiler's reason), nothing is drawn. */
TEST_F(Barycentrics, IntegerPerVertexInputsAreRefused)
{
   DrawJob job = barycentric_job(list_vertices);
   job.vertex_spirv = terakan::test::read_api_spirv("barycentric_int.vert");
   job.fragment_spirv = terakan::test::read_api_spirv("barycentric_int.frag");
   job.targets.resize(1);
   DrawImages images;
   std::string error;
   EXPECT_FALSE(terakan_gpu().run(job, images, error));
   EXPECT_EQ(error, "vkCreateGraphicsPipelines failed");
}

} // namespace
