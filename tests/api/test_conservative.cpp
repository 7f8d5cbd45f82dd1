/* VK_EXT_conservative_rasterization (overestimation, issue 17) through the loader with the
 * Khronos validation layer on, on the simulated GPU (TERAKAN_SIM_CHIP picks the chip).
 *
 * The reference is exact geometry computed here in double precision (lavapipe 22.3 does not
 * offer the extension): for random and adversarial triangles every pixel whose square the
 * triangle touches must be drawn, and no pixel farther than primitiveOverestimationSize from
 * the triangle may be. Attributes on the enlarged polygon must follow the triangle's
 * perspective-correct plane within a stated bound, tested on long slivers in perspective (the
 * seed's case: 0.4% off before the vertices were snapped). The same scenes drawn without the
 * extension must equal lavapipe's pictures pixel for pixel. Indirect draws (their triangle
 * count only the GPU knows) must give the direct draws' pictures, and one beyond its capacity
 * must lose the device. Refusals: polygon mode LINE at creation, strips with flat varyings and
 * restart at recording. */
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
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
/* What Terakan reports as primitiveOverestimationSize (checked against the properties). */
constexpr double overestimation = 1.0 / 64.0;

std::vector<uint32_t> spirv(const std::string &name)
{
   const char *folder = std::getenv("TERAKAN_API_SHADERS");
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

/* A vertex: window position (pixels), w (the clip position is (ndc * w, z * w, w)) and a
 * colour. */
struct Vertex {
   double x, y, w;
   std::array<float, 4> colour;
   double z = 0.5; /* depth (z / w) */
};
using Triangle = std::array<Vertex, 3>;

/* The float clip position the job holds, and the window point it means, in double. */
std::array<float, 4> clip_of(const Vertex &v)
{
   const double ndc_x = v.x / (size / 2.0) - 1.0, ndc_y = v.y / (size / 2.0) - 1.0;
   return {float(ndc_x * v.w), float(ndc_y * v.w), float(v.z * v.w), float(v.w)};
}

struct Window {
   double x, y;
};
Window window_of(const Vertex &v)
{
   const std::array<float, 4> c = clip_of(v);
   return {(double(c[0]) / c[3] + 1.0) * (size / 2.0), (double(c[1]) / c[3] + 1.0) * (size / 2.0)};
}

/* coloured.vert/.frag over `triangles` (a list) into an R32G32B32A32_SFLOAT target cleared to
 * (0, 0, 0, 0). */
DrawJob job_of(const std::vector<Triangle> &triangles, bool conservative)
{
   DrawJob job;
   job.vertex_spirv = spirv("coloured.vert");
   job.fragment_spirv = spirv("coloured.frag");
   std::vector<float> positions, colours;
   for (const Triangle &t : triangles)
      for (const Vertex &v : t) {
         const std::array<float, 4> c = clip_of(v);
         positions.insert(positions.end(), c.begin(), c.end());
         colours.insert(colours.end(), v.colour.begin(), v.colour.end());
      }
   auto bytes = [](const std::vector<float> &v) {
      std::vector<uint8_t> out(v.size() * 4);
      if (!out.empty())
         std::memcpy(out.data(), v.data(), out.size());
      return out;
   };
   job.attributes.push_back({0, VK_FORMAT_R32G32B32A32_SFLOAT, 16, VK_VERTEX_INPUT_RATE_VERTEX, bytes(positions)});
   job.attributes.push_back({1, VK_FORMAT_R32G32B32A32_SFLOAT, 16, VK_VERTEX_INPUT_RATE_VERTEX, bytes(colours)});
   DrawJob::Target target;
   target.format = VK_FORMAT_R32G32B32A32_SFLOAT;
   job.targets.push_back(target);
   job.width = job.height = size;
   job.vertex_count = uint32_t(3 * triangles.size());
   if (conservative)
      job.conservative = VK_CONSERVATIVE_RASTERIZATION_MODE_OVERESTIMATE_EXT;
   return job;
}

/* Whether the pixel square (x, y) grown by `grow` and triangle t (window points) intersect:
 * no separating axis among x, y and the triangle's edge normals. */
bool touches(const std::array<Window, 3> &t, unsigned x, unsigned y, double grow)
{
   const double x0 = x - grow, x1 = x + 1 + grow, y0 = y - grow, y1 = y + 1 + grow;
   const double min_x = std::min({t[0].x, t[1].x, t[2].x}), max_x = std::max({t[0].x, t[1].x, t[2].x});
   const double min_y = std::min({t[0].y, t[1].y, t[2].y}), max_y = std::max({t[0].y, t[1].y, t[2].y});
   if (max_x < x0 || min_x > x1 || max_y < y0 || min_y > y1)
      return false;
   const std::array<Window, 4> corners = {Window{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
   for (unsigned e = 0; e < 3; e++) {
      const Window a = t[e], b = t[(e + 1) % 3], c = t[(e + 2) % 3];
      const double nx = -(b.y - a.y), ny = b.x - a.x;
      const double side = nx * (c.x - a.x) + ny * (c.y - a.y);
      if (side == 0)
         continue; /* degenerate: the box test decides */
      bool all_outside = true;
      for (const Window &p : corners)
         all_outside = all_outside && (nx * (p.x - a.x) + ny * (p.y - a.y)) * side < 0;
      if (all_outside)
         return false;
   }
   return true;
}

std::array<Window, 3> window_triangle(const Triangle &t)
{
   return {window_of(t[0]), window_of(t[1]), window_of(t[2])};
}

double twice_area(const std::array<Window, 3> &t)
{
   return (t[1].x - t[0].x) * (t[2].y - t[0].y) - (t[2].x - t[0].x) * (t[1].y - t[0].y);
}

class Conservative : public ::testing::Test {
public:
   static void SetUpTestSuite()
   {
      ASSERT_TRUE(terakan_gpu().available()) << terakan_gpu().error();
      ASSERT_TRUE(lavapipe().available()) << lavapipe().error();
   }

   bool draw(VulkanDrawRunner &runner, const DrawJob &job, DrawImages &images)
   {
      std::string error;
      const unsigned messages = runner.validation_messages();
      const bool ok = runner.run(job, images, error);
      EXPECT_TRUE(ok) << error;
      EXPECT_EQ(runner.validation_messages(), messages) << "validation messages";
      return ok && !images.targets.empty();
   }

   static std::array<float, 4> texel(const DrawImages &images, unsigned x, unsigned y)
   {
      std::array<float, 4> t;
      std::memcpy(t.data(), &images.targets[0][(size_t(y) * size + x) * 16], 16);
      return t;
   }

   struct Coverage {
      unsigned missed = 0;  /* touched and not drawn */
      unsigned beyond = 0;  /* drawn, farther than the overestimation from every triangle */
      unsigned added = 0;   /* drawn with the centre outside every triangle */
      std::vector<std::string> examples;
   };

   /* The picture of `triangles` (w > 0) against exact geometry. */
   static Coverage measure(const DrawImages &images, const std::vector<Triangle> &triangles, double extra = 0.0)
   {
      Coverage c;
      for (unsigned y = 0; y < size; y++)
         for (unsigned x = 0; x < size; x++) {
            bool touched = false, near = false, centre = false;
            for (const Triangle &t : triangles) {
               const auto w = window_triangle(t);
               touched = touched || touches(w, x, y, extra);
               near = near || touches(w, x, y, extra + overestimation);
               centre = centre || touches(w, x, y, -0.5); /* the centre point itself */
            }
            const bool drawn = texel(images, x, y)[3] != 0.0f;
            const std::string where = std::to_string(x) + "," + std::to_string(y);
            if (touched && !drawn) {
               c.missed++;
               c.examples.push_back("pixel " + where + " is touched and not drawn");
            }
            if (drawn && !near) {
               c.beyond++;
               c.examples.push_back("pixel " + where + " is drawn farther than the overestimation from every triangle");
            }
            c.added += drawn && !centre;
         }
      return c;
   }

   /* Conservative coverage of `job` (drawing `triangles`): every touched pixel drawn, nothing
    * drawn that no triangle touches grown by the overestimation. Returns the pixels drawn
    * whose centre no triangle covers (what conservative rasterization adds). */
   unsigned expect_conservative(const std::vector<Triangle> &triangles, const DrawJob &job)
   {
      DrawImages images;
      if (!draw(terakan_gpu(), job, images))
         return 0;
      const Coverage c = measure(images, triangles, job.extra_overestimation);
      EXPECT_EQ(c.missed, 0u);
      EXPECT_EQ(c.beyond, 0u);
      for (size_t i = 0; i < c.examples.size() && i < 8; i++)
         ADD_FAILURE() << c.examples[i];
      return c.added;
   }
   unsigned expect_conservative(const std::vector<Triangle> &triangles)
   {
      return expect_conservative(triangles, job_of(triangles, true));
   }
};

/* Random triangles in and around the target, some in perspective. */
std::vector<Triangle> random_triangles(std::mt19937 &random, unsigned count, bool perspective)
{
   std::uniform_real_distribution<double> position(-4.0, size + 4.0), depth(0.5, 4.0);
   std::vector<Triangle> out;
   while (out.size() < count) {
      Triangle t;
      for (Vertex &v : t)
         v = {position(random), position(random), perspective ? depth(random) : 1.0, {1, 1, 1, 1}};
      if (std::fabs(twice_area(window_triangle(t))) > 1e-3)
         out.push_back(t);
   }
   return out;
}

/* Slivers 0.02-0.3 pixel wide in every direction, a sub-pixel triangle, a nearly degenerate
 * one, one on the pixel grid and one much larger than the target. */
std::vector<Triangle> adversarial_triangles()
{
   std::vector<Triangle> out;
   const std::array<float, 4> white = {1, 1, 1, 1};
   for (unsigned k = 0; k < 6; k++) {
      const double angle = 0.3 + k * 0.5, width = 0.02 + 0.05 * k;
      const double cx = 16 + 9 * std::cos(angle * 3), cy = 16 + 9 * std::sin(angle * 2);
      const double dx = 12 * std::cos(angle), dy = 12 * std::sin(angle);
      const double nx = -std::sin(angle) * width, ny = std::cos(angle) * width;
      out.push_back({Vertex{cx - dx, cy - dy, 1, white}, Vertex{cx + dx, cy + dy, 1, white},
                     Vertex{cx + dx * 0.2 + nx, cy + dy * 0.2 + ny, 1, white}});
   }
   out.push_back({Vertex{5.3, 27.2, 1, white}, Vertex{5.45, 27.25, 1, white}, Vertex{5.35, 27.4, 1, white}});
   out.push_back({Vertex{1.2, 1.3, 1, white}, Vertex{9.7, 4.1, 1, white}, Vertex{5.45, 2.7001, 1, white}});
   out.push_back({Vertex{24, 2, 1, white}, Vertex{30, 2, 1, white}, Vertex{24, 8, 1, white}});
   out.push_back({Vertex{-40, -30, 1, white}, Vertex{90, -10, 1, white}, Vertex{-20, 0.3, 1, white}});
   return out;
}

TEST(ConservativeProperties, AreWhatTheConstructionGuarantees)
{
   VkInstance instance;
   ASSERT_EQ(terakan::test::create_instance("terakan-api-conservative", VK_API_VERSION_1_1, {}, {}, nullptr, instance),
             VK_SUCCESS);
   VkPhysicalDevice physical = terakan::test::find_physical_device(instance, "Terakan");
   ASSERT_NE(physical, VK_NULL_HANDLE);
   ASSERT_TRUE(terakan::test::has_device_extension(physical, VK_EXT_CONSERVATIVE_RASTERIZATION_EXTENSION_NAME));
   VkPhysicalDeviceConservativeRasterizationPropertiesEXT c{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CONSERVATIVE_RASTERIZATION_PROPERTIES_EXT};
   VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &c};
   vkGetPhysicalDeviceProperties2(physical, &properties);
   /* The bound the coverage tests hold the driver to is the one it reports. */
   EXPECT_EQ(c.primitiveOverestimationSize, float(overestimation));
   EXPECT_EQ(c.maxExtraPrimitiveOverestimationSize, 0.75f);
   EXPECT_EQ(c.extraPrimitiveOverestimationSizeGranularity, 1.0f / 256.0f);
   EXPECT_FALSE(c.primitiveUnderestimation);
   EXPECT_FALSE(c.conservativePointAndLineRasterization);
   EXPECT_FALSE(c.degenerateTrianglesRasterized);
   EXPECT_FALSE(c.fullyCoveredFragmentShaderInputVariable);
   terakan::test::destroy_instance(instance);
}

TEST_F(Conservative, EveryTouchedPixelOfRandomTrianglesIsDrawn)
{
   std::mt19937 random(17);
   unsigned added = 0;
   for (bool perspective : {false, true})
      for (unsigned batch = 0; batch < 2; batch++) {
         SCOPED_TRACE(std::string(perspective ? "perspective" : "affine") + " batch " + std::to_string(batch));
         added += expect_conservative(random_triangles(random, 3, perspective));
      }
   EXPECT_GT(added, 0u);
}

TEST_F(Conservative, EveryTouchedPixelOfSliversAndOddTrianglesIsDrawn)
{
   const std::vector<Triangle> all = adversarial_triangles();
   unsigned added = 0;
   for (size_t first = 0; first < all.size(); first += 3) {
      SCOPED_TRACE("triangles from " + std::to_string(first));
      added += expect_conservative(std::vector<Triangle>(all.begin() + first, all.begin() + std::min(all.size(), first + 3)));
   }
   /* The slivers break into dashes when drawn normally: the conservative ones add pixels. */
   EXPECT_GT(added, 20u);
}

/* extraPrimitiveOverestimationSize: every pixel within that distance of the triangle (the
 * pixel square grown by it touches the triangle) is drawn, none beyond it plus the
 * overestimation. Sizes on the 1/256 granularity. */
TEST_F(Conservative, TheExtraSizeGrowsTheCoverage)
{
   const std::vector<Triangle> all = adversarial_triangles();
   const std::vector<Triangle> triangles(all.begin() + 3, all.begin() + 8);
   for (float extra : {0.25f, 0.75f}) {
      SCOPED_TRACE(extra);
      DrawJob job = job_of(triangles, true);
      job.extra_overestimation = extra;
      expect_conservative(triangles, job);
   }
}

/* The fans keep the triangles' winding: with back faces culled, only the front-facing
 * triangle is drawn, conservatively. */
TEST_F(Conservative, CullingFollowsTheTrianglesFacing)
{
   const std::array<float, 4> white = {1, 1, 1, 1};
   const Triangle front = {Vertex{3.2, 3.3, 1, white}, Vertex{3.5, 28.1, 1, white}, Vertex{13.7, 4.4, 1, white}};
   const Triangle back = {Vertex{18.2, 3.3, 1, white}, Vertex{29.7, 4.4, 1, white}, Vertex{18.5, 28.1, 1, white}};
   ASSERT_LT(twice_area(window_triangle(front)) * twice_area(window_triangle(back)), 0.0) << "one of each winding";
   for (VkCullModeFlags cull : {VK_CULL_MODE_BACK_BIT, VK_CULL_MODE_FRONT_BIT}) {
      SCOPED_TRACE(cull);
      DrawJob job = job_of({front, back}, true);
      job.cull_mode = cull;
      DrawImages images;
      ASSERT_TRUE(draw(terakan_gpu(), job, images));
      /* Which one is Vulkan's front face (COUNTER_CLOCKWISE) is whichever lavapipe keeps. */
      DrawJob ordinary = job_of({front, back}, false);
      ordinary.cull_mode = cull;
      DrawImages reference;
      ASSERT_TRUE(draw(lavapipe(), ordinary, reference));
      const bool front_kept = texel(reference, 6, 10)[3] != 0.0f;
      ASSERT_NE(front_kept, texel(reference, 22, 10)[3] != 0.0f) << "lavapipe culls one of the two";
      const Coverage c = measure(images, {front_kept ? front : back});
      EXPECT_EQ(c.missed, 0u);
      EXPECT_EQ(c.beyond, 0u);
      for (size_t i = 0; i < c.examples.size() && i < 8; i++)
         ADD_FAILURE() << c.examples[i];
      EXPECT_GT(c.added, 10u);
   }
}

/* The seed's picture through the driver (issue 17 item 4, docs/gallery.md): three thin
 * slivers on a 32x18 target drawn as ordinary triangles (left: they break into dashes or
 * vanish) and with conservative rasterization (right: every touched pixel lit), enlarged 20
 * times with the pixel grid and the exact triangles as white lines; written to
 * TERAKAN_DRAW_PICTURES/slivers.png when that is set. Both halves are checked: the ordinary
 * one misses touched pixels, the conservative one none. */
TEST_F(Conservative, SliversPicture)
{
   constexpr uint32_t width = 32, height = 18, scale = 20, gap = 20;
   /* Each third vertex lies about 0.2 pixel off the line through the other two. */
   const std::array<std::array<Window, 3>, 3> slivers = {{
      {Window{1.5, 2.3}, Window{30.4, 5.5}, Window{16.0, 4.1}},
      {Window{3.5, 15.7}, Window{28.5, 8.0}, Window{13.3, 12.9}},
      {Window{6.4, 17.3}, Window{9.4, 0.7}, Window{8.2, 8.4}},
   }};
   const std::array<std::array<float, 4>, 3> colours = {{{1.0f, 0.55f, 0.1f, 1}, {0.2f, 0.8f, 0.3f, 1}, {0.3f, 0.55f, 1.0f, 1}}};
   DrawImages pictures[2];
   for (unsigned conservative = 0; conservative < 2; conservative++) {
      DrawJob job = job_of({}, conservative != 0);
      std::vector<float> positions, vertex_colours;
      for (unsigned k = 0; k < 3; k++)
         for (const Window &p : slivers[k]) {
            positions.insert(positions.end(), {float(p.x / (width / 2.0) - 1.0), float(p.y / (height / 2.0) - 1.0), 0.5f, 1.0f});
            vertex_colours.insert(vertex_colours.end(), colours[k].begin(), colours[k].end());
         }
      job.attributes[0].data.resize(positions.size() * 4);
      std::memcpy(job.attributes[0].data.data(), positions.data(), positions.size() * 4);
      job.attributes[1].data.resize(vertex_colours.size() * 4);
      std::memcpy(job.attributes[1].data.data(), vertex_colours.data(), vertex_colours.size() * 4);
      job.vertex_count = 9;
      job.width = width;
      job.height = height;
      ASSERT_TRUE(draw(terakan_gpu(), job, pictures[conservative]));
   }
   auto drawn = [&](unsigned which, unsigned x, unsigned y) {
      float alpha;
      std::memcpy(&alpha, &pictures[which].targets[0][(size_t(y) * width + x) * 16 + 12], 4);
      return alpha != 0.0f;
   };
   unsigned touched = 0, missed[2] = {0, 0}, beyond = 0;
   for (unsigned y = 0; y < height; y++)
      for (unsigned x = 0; x < width; x++) {
         bool touches_one = false, near_one = false;
         for (const auto &t : slivers) {
            touches_one = touches_one || touches(t, x, y, 0.0);
            near_one = near_one || touches(t, x, y, overestimation);
         }
         touched += touches_one;
         for (unsigned which = 0; which < 2; which++)
            missed[which] += touches_one && !drawn(which, x, y);
         beyond += drawn(1, x, y) && !near_one;
      }
   EXPECT_GT(missed[0], touched / 2) << "the ordinary draw should break the slivers up";
   EXPECT_EQ(missed[1], 0u);
   EXPECT_EQ(beyond, 0u);
   std::printf("slivers: %u touched pixels, %u missed by ordinary rasterization, %u by conservative\n", touched,
               missed[0], missed[1]);

   const char *folder = std::getenv("TERAKAN_DRAW_PICTURES");
   if (!folder)
      return;
   terakan::gl_scenes::RgbaPicture picture;
   picture.width = int(2 * width * scale + gap);
   picture.height = int(height * scale);
   picture.pixels.assign(size_t(picture.width) * picture.height * 4, 255);
   auto segment_distance = [](Window p, Window a, Window b) {
      const double dx = b.x - a.x, dy = b.y - a.y;
      const double t = std::clamp(((p.x - a.x) * dx + (p.y - a.y) * dy) / (dx * dx + dy * dy), 0.0, 1.0);
      return std::hypot(p.x - a.x - t * dx, p.y - a.y - t * dy);
   };
   for (unsigned which = 0; which < 2; which++)
      for (uint32_t py = 0; py < height * scale; py++)
         for (uint32_t px = 0; px < width * scale; px++) {
            const unsigned x = px / scale, y = py / scale;
            std::array<float, 4> c;
            std::memcpy(c.data(), &pictures[which].targets[0][(size_t(y) * width + x) * 16], 16);
            std::array<uint8_t, 3> rgb = {24, 24, 40};
            if (c[3] != 0.0f)
               for (unsigned k = 0; k < 3; k++)
                  rgb[k] = uint8_t(std::lround(std::clamp(c[k], 0.0f, 1.0f) * 255));
            if (px % scale == 0 || py % scale == 0)
               for (uint8_t &v : rgb)
                  v = uint8_t((v + 96) / 2);
            const Window centre = {(px + 0.5) / scale, (py + 0.5) / scale};
            for (const auto &t : slivers)
               for (unsigned e = 0; e < 3; e++)
                  if (segment_distance(centre, t[e], t[(e + 1) % 3]) < 0.6 / scale)
                     rgb = {255, 255, 255};
            uint8_t *out = &picture.pixels[(size_t(py) * picture.width + which * (width * scale + gap) + px) * 4];
            out[0] = rgb[0];
            out[1] = rgb[1];
            out[2] = rgb[2];
            out[3] = 255;
         }
   try {
      terakan::gl_scenes::write_png(std::string(folder) + "/slivers.png", picture);
   } catch (const terakan::gl_scenes::Failure &failure) {
      ADD_FAILURE() << failure.what();
   }
}

/* Flat varyings take the provoking vertex's value on the whole enlarged polygon, for strips
 * (whose odd triangles the VGT writes with their first two vertices swapped) and fans (whose
 * provoking vertex is the second the VGT writes) as for lists: every drawn pixel holds the
 * provoking colour of a triangle that touches it. Vulkan's provoking vertex (first-vertex
 * mode): v_i for strip triangle i, v_{i+1} for fan triangle i. */
TEST_F(Conservative, FlatVaryingsTakeTheProvokingVertex)
{
   struct Case {
      VkPrimitiveTopology topology;
      std::vector<Window> points;
   };
   const std::vector<Case> cases = {
      {VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP,
       {{2.2, 4.3}, {6.1, 28.4}, {10.3, 4.1}, {14.2, 28.2}, {18.4, 4.4}, {22.1, 28.3}, {26.3, 4.2}, {30.2, 28.1}}},
      {VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN, {{16.2, 16.1}, {30.1, 16.3}, {24.2, 29.8}, {8.1, 29.6}, {2.3, 15.8}, {8.2, 2.4}, {24.1, 2.2}}},
   };
   for (const Case &c : cases) {
      SCOPED_TRACE(c.topology);
      std::vector<Triangle> triangles; /* in Vulkan's vertex order, provoking vertex first */
      std::vector<std::array<float, 4>> colours;
      for (size_t k = 0; k < c.points.size(); k++)
         colours.push_back({float(k + 1) / 8.0f, 1.0f - float(k) / 8.0f, float(k % 3) / 2.0f, 1.0f});
      auto vertex = [&](size_t k) { return Vertex{c.points[k].x, c.points[k].y, 1.0, colours[k]}; };
      DrawJob job = job_of({}, true);
      std::vector<float> positions, vertex_colours;
      for (size_t k = 0; k < c.points.size(); k++) {
         const std::array<float, 4> p = clip_of(vertex(k));
         positions.insert(positions.end(), p.begin(), p.end());
         vertex_colours.insert(vertex_colours.end(), colours[k].begin(), colours[k].end());
      }
      job.attributes[0].data.resize(positions.size() * 4);
      std::memcpy(job.attributes[0].data.data(), positions.data(), positions.size() * 4);
      job.attributes[1].data.resize(vertex_colours.size() * 4);
      std::memcpy(job.attributes[1].data.data(), vertex_colours.data(), vertex_colours.size() * 4);
      job.vertex_count = uint32_t(c.points.size());
      job.topology = c.topology;
      job.vertex_spirv = spirv("msaa_flat.vert");
      job.fragment_spirv = spirv("msaa_flat.frag");
      for (size_t i = 0; i + 2 < c.points.size(); i++)
         triangles.push_back(c.topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP
                                ? Triangle{vertex(i), vertex(i + 1), vertex(i + 2)}
                                : Triangle{vertex(i + 1), vertex(i + 2), vertex(0)});
      DrawImages images;
      ASSERT_TRUE(draw(terakan_gpu(), job, images));
      unsigned reported = 0, checked = 0;
      for (unsigned y = 0; y < size; y++)
         for (unsigned x = 0; x < size; x++) {
            const std::array<float, 4> got = texel(images, x, y);
            if (got[3] == 0.0f)
               continue;
            checked++;
            bool matches = false;
            for (const Triangle &t : triangles)
               matches = matches || (touches(window_triangle(t), x, y, overestimation) && got == t[0].colour);
            if (!matches && reported++ < 8)
               ADD_FAILURE() << "pixel " << x << "," << y << " holds " << got[0] << " " << got[1] << " " << got[2]
                             << ", the provoking colour of no triangle touching it";
         }
      EXPECT_GT(checked, 300u);
   }
}

/* The checks above can fail: the same slivers drawn without the extension miss touched pixels. */
TEST_F(Conservative, OrdinaryDrawsOfTheSliversMissTouchedPixels)
{
   const std::vector<Triangle> all = adversarial_triangles();
   const std::vector<Triangle> slivers(all.begin(), all.begin() + 6);
   DrawImages images;
   ASSERT_TRUE(draw(terakan_gpu(), job_of(slivers, false), images));
   const Coverage c = measure(images, slivers);
   EXPECT_GT(c.missed, 50u);
   EXPECT_EQ(c.beyond, 0u);
}

/* The capture is the application's own draw: an indexed triangle strip cut by primitive
 * restart into one triangle per strip (the driver counts 4n - 2 triangles for 4n indices; the
 * ones the VGT does not write stay zero and draw nothing), with a vertex offset. */
TEST_F(Conservative, IndexedStripsWithRestartAreCaptured)
{
   const std::vector<Triangle> all = adversarial_triangles();
   const std::vector<Triangle> triangles(all.begin(), all.begin() + 8);
   /* Two unused vertices first: the vertex offset skips them. */
   std::vector<Triangle> stored = {triangles[0]};
   stored.insert(stored.end(), triangles.begin(), triangles.end());
   DrawJob job = job_of(stored, true);
   job.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
   job.primitive_restart = true;
   job.index_32bit = true;
   job.first_vertex = 3; /* the vertex offset */
   for (uint32_t t = 0; t < triangles.size(); t++) {
      for (uint32_t v = 0; v < 3; v++)
         job.indices.push_back(3 * t + v);
      job.indices.push_back(0xffffffffu);
   }
   EXPECT_GT(expect_conservative(triangles, job), 20u);
}

/* A long sliver in perspective with a different colour per vertex: at every drawn pixel's
 * centre, inside the triangle or beside it, the colour is the triangle's plane there,
 * extrapolated: perspective-correct for a smooth input, screen-linear for a NoPerspective one.
 * Bound: 2^-12 per unit of the weights' absolute sum, times the attributes' largest magnitude
 * (1); the construction computes in 32-bit floats. */
void expect_sliver_attributes(Conservative &test, bool noperspective)
{
   const Triangle sliver = {Vertex{2.3, 3.1, 1.0, {1, 0, 0, 1}, 0.2}, Vertex{29.6, 27.4, 2.0, {0, 1, 0, 1}, 0.8},
                            Vertex{15.9, 15.5, 1.5, {0, 0, 1, 1}, 0.5}};
   const auto w = window_triangle(sliver);
   ASSERT_LT(std::fabs(twice_area(w)) / std::hypot(w[1].x - w[0].x, w[1].y - w[0].y), 0.5) << "not a sliver";
   DrawJob job = job_of({sliver}, true);
   if (noperspective)
      job.fragment_spirv = spirv("noperspective.frag");
   job.depth = true; /* D32_SFLOAT, compare ALWAYS: the fan's depth is read back */
   DrawImages images;
   ASSERT_TRUE(test.draw(terakan_gpu(), job, images));
   unsigned checked = 0, outside = 0;
   double worst = 0;
   const double area2 = twice_area(w);
   for (unsigned y = 0; y < size; y++)
      for (unsigned x = 0; x < size; x++) {
         const std::array<float, 4> got = Conservative::texel(images, x, y);
         if (got[3] == 0.0f)
            continue;
         const double px = x + 0.5, py = y + 0.5;
         /* Screen barycentrics of the centre, then perspective-correct weights. */
         double l[3];
         for (unsigned v = 0; v < 3; v++) {
            const Window a = w[(v + 1) % 3], b = w[(v + 2) % 3];
            l[v] = ((b.x - a.x) * (py - a.y) - (px - a.x) * (b.y - a.y)) / area2;
         }
         double sum = 0, beta[3];
         for (unsigned v = 0; v < 3; v++)
            sum += l[v] / sliver[v].w;
         double weight = 0;
         for (unsigned v = 0; v < 3; v++) {
            beta[v] = noperspective ? l[v] : l[v] / sliver[v].w / sum;
            weight += std::fabs(beta[v]);
         }
         outside += l[0] < 0 || l[1] < 0 || l[2] < 0;
         /* Depth: the screen-linear z/w plane, clamped to the viewport's [0, 1] (near and far
          * clipping are off for the fans). */
         const double depth = std::clamp(l[0] * sliver[0].z + l[1] * sliver[1].z + l[2] * sliver[2].z, 0.0, 1.0);
         const double screen_weight = std::fabs(l[0]) + std::fabs(l[1]) + std::fabs(l[2]);
         EXPECT_LE(std::fabs(images.depth[size_t(y) * size + x] - depth), std::ldexp(1.0, -12) * screen_weight)
            << "depth at pixel " << x << "," << y;
         for (unsigned c = 0; c < 3; c++) {
            double expected = 0;
            for (unsigned v = 0; v < 3; v++)
               expected += beta[v] * sliver[v].colour[c];
            const double error = std::fabs(got[c] - expected);
            worst = std::max(worst, error / weight);
            EXPECT_LE(error, std::ldexp(1.0, -12) * weight)
               << "pixel " << x << "," << y << " channel " << c << ": " << got[c] << " against " << expected
               << " (weights " << beta[0] << " " << beta[1] << " " << beta[2] << ")";
         }
         checked++;
      }
   EXPECT_GT(checked, 40u);
   EXPECT_GT(outside, 20u) << "pixels beside the sliver";
   std::printf("%s attributes on the sliver: %u pixels, %u with the centre outside, worst error %.3g per unit of "
               "weight\n",
               noperspective ? "noperspective" : "perspective", checked, outside, worst);
}

TEST_F(Conservative, AttributesFollowTheTrianglesPlanesOnALongSliver)
{
   expect_sliver_attributes(*this, false);
}

TEST_F(Conservative, NoPerspectiveAttributesFollowTheScreenPlanesOnALongSliver)
{
   expect_sliver_attributes(*this, true);
}

/* Without the extension the same scenes are ordinary draws: lavapipe's picture exactly (an
 * RGBA8 picture: the two interpolate the constant colour to 1 or to 1 - 2^-24). */
TEST_F(Conservative, TheSameScenesWithoutTheExtensionEqualLavapipe)
{
   std::mt19937 random(17);
   std::vector<std::vector<Triangle>> scenes = {random_triangles(random, 3, false), random_triangles(random, 3, true)};
   const std::vector<Triangle> odd = adversarial_triangles();
   scenes.emplace_back(odd.begin(), odd.begin() + 6);
   scenes.emplace_back(odd.begin() + 6, odd.end());
   for (size_t s = 0; s < scenes.size(); s++) {
      SCOPED_TRACE("scene " + std::to_string(s));
      DrawJob job = job_of(scenes[s], false);
      job.targets[0].format = VK_FORMAT_R8G8B8A8_UNORM;
      DrawImages ours, reference;
      ASSERT_TRUE(draw(terakan_gpu(), job, ours));
      ASSERT_TRUE(draw(lavapipe(), job, reference));
      unsigned reported = 0, drawn = 0;
      for (size_t p = 0; p < size * size; p++) {
         drawn += ours.targets[0][4 * p + 3] != 0;
         if (std::memcmp(&ours.targets[0][4 * p], &reference.targets[0][4 * p], 4) && reported++ < 8)
            ADD_FAILURE() << "pixel " << p % size << "," << p / size << " differs from lavapipe's";
      }
      EXPECT_GT(drawn, 0u);
   }
}

/* 4x multisampling: every sample of every touched pixel is covered (the resolved white is
 * exactly white there), and no sample of a pixel farther than the overestimation is. The
 * polygon is pushed out by a whole pixel and the pixel shader discards the pixels the
 * triangle does not touch. */
TEST_F(Conservative, MultisampledDrawsCoverEverySampleOfTouchedPixels)
{
   const std::vector<Triangle> all = adversarial_triangles();
   std::mt19937 random(4);
   for (unsigned scene = 0; scene < 3; scene++) {
      SCOPED_TRACE("scene " + std::to_string(scene));
      const std::vector<Triangle> triangles =
         scene == 2 ? random_triangles(random, 3, true)
                    : std::vector<Triangle>(all.begin() + 5 * scene, all.begin() + std::min<size_t>(all.size(), 5 * scene + 5));
      DrawJob job = job_of(triangles, true);
      job.targets[0].format = VK_FORMAT_R8G8B8A8_UNORM;
      job.samples = VK_SAMPLE_COUNT_4_BIT;
      DrawImages images;
      ASSERT_TRUE(draw(terakan_gpu(), job, images));
      unsigned reported = 0, added = 0;
      for (unsigned y = 0; y < size; y++)
         for (unsigned x = 0; x < size; x++) {
            bool touched = false, near = false, centre = false;
            for (const Triangle &t : triangles) {
               const auto w = window_triangle(t);
               touched = touched || touches(w, x, y, 0.0);
               near = near || touches(w, x, y, overestimation);
               centre = centre || touches(w, x, y, -0.5);
            }
            const uint8_t *p = &images.targets[0][(size_t(y) * size + x) * 4];
            const bool full = p[0] == 255 && p[1] == 255 && p[2] == 255 && p[3] == 255;
            const bool any = p[3] != 0;
            if (touched && !full && reported++ < 8)
               ADD_FAILURE() << "pixel " << x << "," << y << " is touched and not every sample is drawn (alpha "
                             << unsigned(p[3]) << ")";
            if (any && !near && reported++ < 8)
               ADD_FAILURE() << "pixel " << x << "," << y << " has samples drawn farther than the overestimation";
            added += full && !centre;
         }
      EXPECT_GT(added, 0u);
   }
}

/* degenerateTrianglesRasterized is false: a triangle whose vertices, on the rasterizer's 1/256
 * grid, span no area is culled (its three y on one grid row here), while the same sliver
 * moved to cross grid rows is drawn conservatively (dEQP-VK.rasterization.conservative.
 * overestimate.*.triangles.degenerate.* failed before the construction culled them). */
TEST_F(Conservative, TrianglesDegenerateOnTheGridAreCulled)
{
   const std::array<float, 4> white = {1, 1, 1, 1};
   const Triangle flat = {Vertex{5.3, 7.1, 1, white}, Vertex{20.7, 7.101, 1, white}, Vertex{12.9, 7.1005, 1, white}};
   const Triangle thin = {Vertex{5.3, 17.1, 1, white}, Vertex{20.7, 17.11, 1, white}, Vertex{12.9, 17.1, 1, white}};
   DrawImages images;
   ASSERT_TRUE(draw(terakan_gpu(), job_of({flat, thin}, true), images));
   unsigned flat_drawn = 0;
   for (unsigned y = 0; y < size / 2; y++)
      for (unsigned x = 0; x < size; x++)
         flat_drawn += texel(images, x, y)[3] != 0.0f;
   EXPECT_EQ(flat_drawn, 0u) << "the triangle degenerate on the grid is drawn";
   const Coverage c = measure(images, {thin});
   EXPECT_EQ(c.missed, 0u);
   EXPECT_EQ(c.beyond, 0u);
}

TEST_F(Conservative, PolygonModeLineIsRefused)
{
   DrawJob job = job_of(adversarial_triangles(), true);
   job.polygon_mode = VK_POLYGON_MODE_LINE;
   DrawImages images;
   std::string error;
   EXPECT_FALSE(terakan_gpu().run(job, images, error));
   EXPECT_EQ(error, "vkCreateGraphicsPipelines failed");
}

/* Flat varyings of strips cut by restart: which triangles are odd only the GPU knows. */
TEST_F(Conservative, FlatVaryingsOfRestartedStripsAreRefused)
{
   const std::vector<Triangle> triangles = adversarial_triangles();
   DrawJob job = job_of(triangles, true);
   job.vertex_spirv = spirv("msaa_flat.vert");
   job.fragment_spirv = spirv("msaa_flat.frag");
   job.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
   job.primitive_restart = true;
   job.index_32bit = true;
   for (uint32_t t = 0; t < triangles.size(); t++) {
      for (uint32_t v = 0; v < 3; v++)
         job.indices.push_back(3 * t + v);
      job.indices.push_back(0xffffffffu);
   }
   DrawImages images;
   std::string error;
   EXPECT_FALSE(terakan_gpu().run(job, images, error));
   EXPECT_EQ(error, "vkEndCommandBuffer failed");
}

/* ---- indirect draws: the triangle count only the GPU knows ---- */

/* Draws `direct` (a direct draw) and `indirect` (the same draw with its parameters from a
 * buffer) conservatively on `runner`: the two pictures must be equal byte for byte. Returns the
 * indirect one's picture. */
DrawImages expect_indirect_equals_direct(Conservative &test, VulkanDrawRunner &runner, const DrawJob &direct,
                                         const DrawJob &indirect)
{
   DrawImages a, b;
   if (!test.draw(runner, direct, a) || !test.draw(runner, indirect, b))
      return b;
   EXPECT_EQ(a.targets[0].size(), b.targets[0].size());
   unsigned differ = 0;
   for (size_t p = 0; p + 16 <= a.targets[0].size() && p + 16 <= b.targets[0].size(); p += 16)
      if (std::memcmp(&a.targets[0][p], &b.targets[0][p], 16) && differ++ < 8)
         ADD_FAILURE() << "bytes " << p << "-" << p + 15 << " differ between the direct and the indirect draw";
   EXPECT_EQ(differ, 0u);
   return b;
}

/* Random triangles in perspective and the slivers, as one list. */
std::vector<Triangle> indirect_scene()
{
   std::mt19937 random(23);
   std::vector<Triangle> scene = random_triangles(random, 3, true);
   const std::vector<Triangle> odd = adversarial_triangles();
   scene.insert(scene.end(), odd.begin(), odd.begin() + 6);
   return scene; /* 9 triangles */
}

/* vkCmdDrawIndirect, multiDrawIndirect (three records) and vkCmdDrawIndexedIndirect (with a
 * vertex offset, once and as three records): the same picture as the direct draw, and every
 * touched pixel drawn, none beyond the overestimation. */
TEST_F(Conservative, IndirectDrawsEqualDirectOnes)
{
   const std::vector<Triangle> scene = indirect_scene();
   const DrawJob direct = job_of(scene, true);
   /* The indexed form: a triangle nobody draws first, skipped by the vertex offset (3), and
    * the triangles' indices in reverse. */
   std::vector<Triangle> stored = {scene[0]};
   stored.insert(stored.end(), scene.begin(), scene.end());
   DrawJob indexed = job_of(stored, true);
   indexed.first_vertex = 3;
   indexed.index_32bit = true;
   for (uint32_t t = uint32_t(scene.size()); t-- > 0;)
      for (uint32_t v = 0; v < 3; v++)
         indexed.indices.push_back(3 * t + v);
   struct Case {
      const char *name;
      const DrawJob &base;
      uint32_t records;
   };
   for (const Case &c : {Case{"vkCmdDrawIndirect", direct, 1}, Case{"three records", direct, 3},
                         Case{"vkCmdDrawIndexedIndirect", indexed, 1}, Case{"three indexed records", indexed, 3}}) {
      SCOPED_TRACE(c.name);
      DrawJob indirect = c.base;
      indirect.indirect = true;
      indirect.indirect_offset = 20;
      indirect.indirect_draw_count = c.records;
      const DrawImages images = expect_indirect_equals_direct(*this, terakan_gpu(), c.base, indirect);
      if (images.targets.empty())
         continue;
      const Coverage coverage = measure(images, scene);
      EXPECT_EQ(coverage.missed, 0u);
      EXPECT_EQ(coverage.beyond, 0u);
      for (size_t i = 0; i < coverage.examples.size() && i < 8; i++)
         ADD_FAILURE() << coverage.examples[i];
      EXPECT_GT(coverage.added, 20u);
   }
}

/* A multisampled pipeline (4x: the whole-pixel push-out, the edges as flat varyings and the
 * pixel shader's discard) drawn indirectly, as three records: the direct draw's picture. */
TEST_F(Conservative, MultisampledIndirectDrawsEqualDirectOnes)
{
   DrawJob direct = job_of(indirect_scene(), true);
   direct.targets[0].format = VK_FORMAT_R8G8B8A8_UNORM;
   direct.samples = VK_SAMPLE_COUNT_4_BIT;
   DrawJob indirect = direct;
   indirect.indirect = true;
   indirect.indirect_draw_count = 3;
   const DrawImages images = expect_indirect_equals_direct(*this, terakan_gpu(), direct, indirect);
   ASSERT_FALSE(images.targets.empty());
   unsigned full = 0;
   for (size_t p = 0; p < size * size; p++)
      full += images.targets[0][4 * p + 3] == 255;
   EXPECT_GT(full, 100u);
}

/* vkCmdDraw(Indexed)IndirectCount over three records of three triangles: a count of 0 draws
 * nothing, 2 the first two records' triangles, 3 and 7 (beyond maxDrawCount) all of them; each
 * picture equal to the direct draw of those triangles. */
TEST_F(Conservative, CountedIndirectDrawsDrawTheCountedRecords)
{
   const std::vector<Triangle> scene = indirect_scene();
   for (bool indexed : {false, true})
      for (uint32_t count : {0u, 2u, 3u, 7u}) {
         SCOPED_TRACE(std::string(indexed ? "indexed" : "not indexed") + ", count " + std::to_string(count));
         const size_t drawn = std::min<size_t>(scene.size(), 3 * count);
         DrawJob direct = job_of(std::vector<Triangle>(scene.begin(), scene.begin() + drawn), true);
         DrawJob indirect = job_of(scene, true);
         if (indexed)
            for (uint32_t i = 0; i < 3 * scene.size(); i++)
               indirect.indices.push_back(i);
         indirect.indirect = true;
         indirect.indirect_draw_count = 3;
         indirect.use_indirect_count = true;
         indirect.indirect_count = count;
         indirect.indirect_count_offset = 12;
         if (!drawn) {
            DrawImages images;
            ASSERT_TRUE(draw(terakan_gpu(), indirect, images));
            for (size_t p = 0; p < size * size; p++)
               ASSERT_EQ(texel(images, unsigned(p % size), unsigned(p / size))[3], 0.0f) << "pixel " << p;
            continue;
         }
         const DrawImages images = expect_indirect_equals_direct(*this, terakan_gpu(), direct, indirect);
         if (images.targets.empty())
            continue;
         const Coverage coverage =
            measure(images, std::vector<Triangle>(scene.begin(), scene.begin() + drawn));
         EXPECT_EQ(coverage.missed, 0u);
         EXPECT_EQ(coverage.beyond, 0u);
      }
}

/* Instance counts, first instance and first vertex (or vertex offset) come from the buffer:
 * instanced.vert moves each instance by a per-instance attribute from firstInstance on and
 * writes InstanceIndex and VertexIndex into the colour, so a wrong base shows in colour or
 * place. Plain, indexed, and as two records. */
TEST_F(Conservative, IndirectInstancesAndBasesComeFromTheBuffer)
{
   const std::vector<Triangle> all = adversarial_triangles();
   /* Two unused triangles first: firstVertex 6 skips them. */
   std::vector<Triangle> stored = {all[7], all[7]};
   stored.insert(stored.end(), {all[0], all[3], all[6], all[7]});
   const float step = 5.0f / (size / 2.0f);
   const std::vector<float> offsets = {9, 9, 0, 0, step, step / 2, -step, step};
   auto bytes_of = [](const std::vector<float> &v) {
      std::vector<uint8_t> out(v.size() * 4);
      std::memcpy(out.data(), v.data(), out.size());
      return out;
   };
   for (bool indexed : {false, true})
      for (uint32_t records : {1u, 2u}) {
         SCOPED_TRACE(std::string(indexed ? "indexed" : "not indexed") + ", records " + std::to_string(records));
         DrawJob direct = job_of(stored, true);
         direct.vertex_spirv = spirv("instanced.vert");
         direct.attributes.push_back({2, VK_FORMAT_R32G32_SFLOAT, 8, VK_VERTEX_INPUT_RATE_INSTANCE, bytes_of(offsets)});
         direct.instance_count = 3;
         direct.first_instance = 1;
         direct.first_vertex = 6;
         direct.vertex_count = 12;
         if (indexed)
            for (uint32_t i = 0; i < 12; i++)
               direct.indices.push_back(11 - i);
         DrawJob indirect = direct;
         indirect.indirect = true;
         indirect.indirect_draw_count = records;
         const DrawImages images = expect_indirect_equals_direct(*this, terakan_gpu(), direct, indirect);
         if (images.targets.empty())
            continue;
         unsigned lit = 0;
         for (size_t p = 0; p < size * size; p++)
            lit += texel(images, unsigned(p % size), unsigned(p / size))[2] != 0.0f;
         EXPECT_GT(lit, 100u) << "instances 1 and 2 drawn";
      }
}

/* Flat varyings of an indirect triangle fan and strip: the provoking-vertex pass runs over the
 * count the GPU wrote (and, for the strip, the triangles per instance the count pass took from
 * the record); the pictures are the direct draws'. */
TEST_F(Conservative, IndirectFansAndStripsWithFlatVaryingsEqualDirectOnes)
{
   /* Six vertices: the runner's records hold whole multiples of three. */
   const std::vector<Window> points = {{16.2, 16.1}, {30.1, 16.3}, {24.2, 29.8}, {8.1, 29.6}, {2.3, 15.8}, {8.2, 2.4}};
   std::vector<Triangle> triangles;
   for (size_t k = 0; k < points.size(); k += 3) {
      Triangle t;
      for (size_t v = 0; v < 3; v++) {
         const Window p = points[std::min(points.size() - 1, k + v)];
         t[v] = Vertex{p.x, p.y, 1.0, {float(k + v + 1) / 8.0f, 1.0f - float(k + v) / 8.0f, float(v) / 2.0f, 1.0f}};
      }
      triangles.push_back(t);
   }
   DrawJob direct = job_of(triangles, true);
   std::vector<float> positions, colours;
   for (size_t k = 0; k < points.size(); k++) {
      const Vertex v{points[k].x, points[k].y, 1.0, {float(k + 1) / 8.0f, 1.0f - float(k) / 8.0f, float(k % 3) / 2.0f, 1.0f}};
      const std::array<float, 4> c = clip_of(v);
      positions.insert(positions.end(), c.begin(), c.end());
      colours.insert(colours.end(), v.colour.begin(), v.colour.end());
   }
   direct.attributes[0].data.resize(positions.size() * 4);
   std::memcpy(direct.attributes[0].data.data(), positions.data(), positions.size() * 4);
   direct.attributes[1].data.resize(colours.size() * 4);
   std::memcpy(direct.attributes[1].data.data(), colours.data(), colours.size() * 4);
   direct.vertex_count = uint32_t(points.size());
   direct.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN;
   direct.vertex_spirv = spirv("msaa_flat.vert");
   direct.fragment_spirv = spirv("msaa_flat.frag");
   for (VkPrimitiveTopology topology : {VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP}) {
      SCOPED_TRACE(topology);
      direct.topology = topology;
      DrawJob indirect = direct;
      indirect.indirect = true;
      expect_indirect_equals_direct(*this, terakan_gpu(), direct, indirect);
   }
}

/* Each instance of a strip is a strip of its own, whose parity starts again: with an odd
 * number of triangles per instance, the second instance's odd triangles are the first's odd
 * ones, not its even ones. Two instances drawn at the same place must give the picture of one
 * (the second covers the first with the same flat colours), direct and indirect. Refused before
 * the provoking-vertex pass counted parity per instance. */
TEST_F(Conservative, FlatVaryingsOfInstancedStripsWithOddTriangleCounts)
{
   const std::vector<Window> points = {{2.2, 4.3}, {6.1, 28.4}, {12.3, 4.1}, {18.2, 28.2}, {26.4, 4.4}};
   std::vector<float> positions, colours;
   for (size_t k = 0; k < points.size(); k++) {
      const Vertex v{points[k].x, points[k].y, 1.0, {float(k + 1) / 8.0f, 1.0f - float(k) / 8.0f, float(k % 3) / 2.0f, 1.0f}};
      const std::array<float, 4> c = clip_of(v);
      positions.insert(positions.end(), c.begin(), c.end());
      colours.insert(colours.end(), v.colour.begin(), v.colour.end());
   }
   DrawJob once = job_of({}, true);
   once.attributes[0].data.resize(positions.size() * 4);
   std::memcpy(once.attributes[0].data.data(), positions.data(), positions.size() * 4);
   once.attributes[1].data.resize(colours.size() * 4);
   std::memcpy(once.attributes[1].data.data(), colours.data(), colours.size() * 4);
   once.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
   once.vertex_spirv = spirv("msaa_flat.vert");
   once.fragment_spirv = spirv("msaa_flat.frag");
   once.vertex_count = uint32_t(points.size());
   DrawJob twice = once;
   twice.instance_count = 2;
   DrawImages reference;
   ASSERT_TRUE(draw(terakan_gpu(), once, reference));
   for (bool indirect : {false, true}) {
      SCOPED_TRACE(indirect ? "indirect" : "direct");
      DrawJob job = twice;
      job.indirect = indirect;
      /* The runner's indirect record holds whole multiples of three vertices: 3 of the 5, one
       * triangle per instance (still an odd count), so the indirect case has its own reference. */
      DrawImages reference_of_job = reference;
      if (indirect) {
         DrawJob single = once;
         single.vertex_count = 3;
         ASSERT_TRUE(draw(terakan_gpu(), single, reference_of_job));
      }
      DrawImages images;
      ASSERT_TRUE(draw(terakan_gpu(), job, images));
      unsigned differ = 0;
      for (size_t p = 0; p < size * size; p++)
         if (texel(images, unsigned(p % size), unsigned(p / size)) !=
                texel(reference_of_job, unsigned(p % size), unsigned(p / size)) &&
             differ++ < 8)
            ADD_FAILURE() << "pixel " << p % size << "," << p / size << " differs from one instance's picture";
      EXPECT_EQ(differ, 0u);
   }
}

/* The capacity: an indirect draw captures at most a fixed number of triangles (what fits in 32
 * MiB; TERAKAN_CONSERVATIVE_CAPACITY lowers it, here to 4). A record of exactly 4 triangles, and
 * two records of 4 (the capacity is per record), draw right; a record of 5, or of 2 triangles
 * times 3 instances, cannot, and the submission reports the device lost rather than a wrong
 * picture as a success. Own devices: a lost one is of no further use. */
TEST_F(Conservative, IndirectDrawsBeyondTheCapacityLoseTheDevice)
{
   struct Capacity {
      Capacity() { setenv("TERAKAN_CONSERVATIVE_CAPACITY", "4", 1); }
      ~Capacity() { unsetenv("TERAKAN_CONSERVATIVE_CAPACITY"); }
   } capacity;
   const std::vector<Triangle> scene = indirect_scene();
   {
      VulkanDrawRunner runner("Terakan");
      ASSERT_TRUE(runner.available()) << runner.error();
      for (uint32_t records : {1u, 2u}) {
         SCOPED_TRACE(std::to_string(records) + " records of 4 triangles");
         const std::vector<Triangle> drawn(scene.begin(), scene.begin() + 4 * records);
         const DrawJob direct = job_of(drawn, true);
         DrawJob indirect = direct;
         indirect.indirect = true;
         indirect.indirect_draw_count = records;
         const DrawImages images = expect_indirect_equals_direct(*this, runner, direct, indirect);
         if (!images.targets.empty()) {
            const Coverage coverage = measure(images, drawn);
            EXPECT_EQ(coverage.missed, 0u);
            EXPECT_EQ(coverage.beyond, 0u);
         }
      }
   }
   for (unsigned instances : {1u, 3u}) {
      SCOPED_TRACE(std::to_string(instances) + " instances");
      VulkanDrawRunner runner("Terakan");
      ASSERT_TRUE(runner.available()) << runner.error();
      DrawJob indirect = job_of(std::vector<Triangle>(scene.begin(), scene.begin() + (instances == 1 ? 5 : 2)), true);
      indirect.instance_count = instances;
      indirect.indirect = true;
      DrawImages images;
      std::string error;
      EXPECT_FALSE(runner.run(indirect, images, error));
      EXPECT_EQ(error, "vkQueueSubmit failed");
   }
}

} // namespace
