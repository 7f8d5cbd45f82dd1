/* Polygon modes (fillModeNonSolid: VK_POLYGON_MODE_POINT and VK_POLYGON_MODE_LINE) on the
 * simulated GPU (TERAKAN_SIM_CHIP picks the chip), through the loader with the Khronos
 * validation layer on, against lavapipe drawing the same job and against the coverage the
 * Vulkan specification defines, computed here.
 *
 * Points: a polygon's vertices drawn as points of size 1 are squares centred on the vertices;
 * vertices sit on quarter pixels, so no pixel centre is on a square's side and both devices
 * must agree on every pixel.
 *
 * Lines: a polygon's edges drawn as lines. Terakan reports strictLines VK_FALSE and draws the
 * parallelogram the specification allows then (sides parallel to the segment, ends parallel
 * to the minor axis, the width measured along the minor axis); lavapipe draws strict lines
 * (the rectangle). Both regions are computed here for every pixel centre: Terakan must cover
 * exactly the parallelogram's pixels, and where the two regions agree on a pixel, lavapipe's
 * picture must equal Terakan's. The scenes' vertices keep every pixel centre more than 1/128
 * pixel from every region's boundary (checked), so the top-left rule never decides.
 *
 * Each draw has one colour, so overlapping edges (strips draw shared edges twice) cannot
 * show their order. With TERAKAN_DRAW_PICTURES=DIR the pictures are written there. */
#include <gtest/gtest.h>

#include <array>
#include <cmath>
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
constexpr std::array<uint8_t, 4> background = {0, 0, 64, 255};

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

struct Point {
   double x, y; /* window pixels */
};

/* coloured.vert/.frag over `points` (window pixels, depth z), every vertex of `colour`. */
DrawJob job_of(const std::vector<Point> &points, VkPolygonMode mode, std::array<float, 4> colour, float z = 0.0f)
{
   DrawJob job;
   job.vertex_spirv = spirv("coloured.vert");
   job.fragment_spirv = spirv("coloured.frag");
   std::vector<float> positions, colours;
   for (const Point &p : points) {
      positions.insert(positions.end(), {float(p.x / (size / 2.0) - 1.0), float(p.y / (size / 2.0) - 1.0), z, 1.0f});
      colours.insert(colours.end(), colour.begin(), colour.end());
   }
   auto bytes = [](const std::vector<float> &v) {
      std::vector<uint8_t> out(v.size() * 4);
      std::memcpy(out.data(), v.data(), out.size());
      return out;
   };
   job.attributes.push_back({0, VK_FORMAT_R32G32B32A32_SFLOAT, 16, VK_VERTEX_INPUT_RATE_VERTEX, bytes(positions)});
   job.attributes.push_back({1, VK_FORMAT_R32G32B32A32_SFLOAT, 16, VK_VERTEX_INPUT_RATE_VERTEX, bytes(colours)});
   DrawJob::Target target;
   for (unsigned c = 0; c < 4; c++)
      target.clear.float32[c] = background[c] / 255.0f;
   job.targets.push_back(target);
   job.width = job.height = size;
   job.vertex_count = uint32_t(points.size());
   job.polygon_mode = mode;
   return job;
}

/* The triangles a topology makes of `points`, in Vulkan's vertex order. */
std::vector<std::array<Point, 3>> triangles_of(const std::vector<Point> &points, VkPrimitiveTopology topology)
{
   std::vector<std::array<Point, 3>> out;
   const size_t n = points.size();
   if (topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST)
      for (size_t i = 0; i + 2 < n; i += 3)
         out.push_back({points[i], points[i + 1], points[i + 2]});
   else if (topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP)
      for (size_t i = 0; i + 2 < n; i++)
         out.push_back(i % 2 ? std::array<Point, 3>{points[i + 1], points[i], points[i + 2]}
                             : std::array<Point, 3>{points[i], points[i + 1], points[i + 2]});
   else
      for (size_t i = 1; i + 1 < n; i++)
         out.push_back({points[0], points[i], points[i + 1]});
   return out;
}

/* Signed area, positive when counter-clockwise in Vulkan's y-down framebuffer as
 * VK_FRONT_FACE_COUNTER_CLOCKWISE counts it (the specification's a = -1/2 sum ...). */
double area(const std::array<Point, 3> &t)
{
   double a = 0;
   for (unsigned i = 0; i < 3; i++) {
      const Point &p = t[i], &q = t[(i + 1) % 3];
      a += p.x * q.y - q.x * p.y;
   }
   return -a / 2;
}

/* How far inside (positive) or outside (negative) the region of a line of width `width`
 * from p to q the point c is: the parallelogram of non-strict lines, or the rectangle of
 * strict ones. The smallest margin over the region's sides. */
double line_margin(Point p, Point q, Point c, double width, bool strict)
{
   const double dx = q.x - p.x, dy = q.y - p.y;
   if (strict) {
      const double length = std::hypot(dx, dy);
      const double along = ((c.x - p.x) * dx + (c.y - p.y) * dy) / length;
      const double across = ((c.x - p.x) * dy - (c.y - p.y) * dx) / length;
      return std::min({along, length - along, width / 2 - std::fabs(across)});
   }
   if (std::fabs(dx) >= std::fabs(dy)) { /* x-major: ends are vertical, the width is measured along y */
      const double y = p.y + (c.x - p.x) * dy / dx;
      return std::min({c.x - std::min(p.x, q.x), std::max(p.x, q.x) - c.x, width / 2 - std::fabs(c.y - y)});
   }
   const double x = p.x + (c.y - p.y) * dx / dy;
   return std::min({c.y - std::min(p.y, q.y), std::max(p.y, q.y) - c.y, width / 2 - std::fabs(c.x - x)});
}

/* Per pixel: 1 covered, 0 not, by the edges of `triangles` (those not culled). Fails the test
 * when a pixel centre lies within 1/128 pixel of a region's side (the scene must avoid it). */
std::vector<int> line_coverage(const std::vector<std::array<Point, 3>> &triangles, double width, bool strict,
                               VkCullModeFlags cull = VK_CULL_MODE_NONE)
{
   std::vector<int> covered(size * size, 0);
   for (const auto &t : triangles) {
      const bool front = area(t) > 0; /* VK_FRONT_FACE_COUNTER_CLOCKWISE */
      if (((cull & VK_CULL_MODE_FRONT_BIT) && front) || ((cull & VK_CULL_MODE_BACK_BIT) && !front))
         continue;
      for (unsigned e = 0; e < 3; e++)
         for (unsigned y = 0; y < size; y++)
            for (unsigned x = 0; x < size; x++) {
               const double m = line_margin(t[e], t[(e + 1) % 3], {x + 0.5, y + 0.5}, width, strict);
               EXPECT_GT(std::fabs(m), 1.0 / 128) << "pixel centre " << x << "," << y << " on a side of edge " << e;
               covered[y * size + x] |= m > 0;
            }
   }
   return covered;
}

class PolygonModes : public ::testing::Test {
protected:
   static void SetUpTestSuite()
   {
      ASSERT_TRUE(terakan_gpu().available()) << terakan_gpu().error();
      ASSERT_TRUE(lavapipe().available()) << lavapipe().error();
   }

   unsigned pictures = 0;

   /* Draws on both devices (no validation messages on either); returns the two target 0s. */
   void draw_both(const DrawJob &job, DrawImages &ours, DrawImages &reference)
   {
      std::string error;
      const unsigned our_messages = terakan_gpu().validation_messages();
      const unsigned their_messages = lavapipe().validation_messages();
      EXPECT_TRUE(terakan_gpu().run(job, ours, error)) << "Terakan: " << error;
      EXPECT_TRUE(lavapipe().run(job, reference, error)) << "lavapipe: " << error;
      EXPECT_EQ(terakan_gpu().validation_messages(), our_messages) << "validation messages on Terakan";
      EXPECT_EQ(lavapipe().validation_messages(), their_messages) << "validation messages on lavapipe";
      if (ours.targets.empty() || reference.targets.empty()) {
         ADD_FAILURE() << "no picture";
         ours.targets.assign(1, std::vector<uint8_t>(size * size * 4, 0));
         reference.targets = ours.targets;
      }
      if (const char *folder = std::getenv("TERAKAN_DRAW_PICTURES")) {
         const std::string stem = std::string(folder) + "/" +
                                  ::testing::UnitTest::GetInstance()->current_test_info()->name() + "-" +
                                  std::to_string(pictures++);
         try {
            for (const auto &[images, who] : {std::pair{&ours, "terakan"}, std::pair{&reference, "lavapipe"}}) {
               terakan::gl_scenes::RgbaPicture picture;
               picture.width = picture.height = int(size);
               picture.pixels = images->targets[0];
               terakan::gl_scenes::write_png(stem + "-" + who + ".png", picture);
            }
         } catch (const terakan::gl_scenes::Failure &failure) {
            ADD_FAILURE() << failure.what();
         }
      }
   }

   static std::array<uint8_t, 4> texel(const DrawImages &images, unsigned x, unsigned y)
   {
      const uint8_t *p = &images.targets[0][(size_t(y) * size + x) * 4];
      return {p[0], p[1], p[2], p[3]};
   }

   static std::string text(std::array<uint8_t, 4> t)
   {
      return std::to_string(t[0]) + " " + std::to_string(t[1]) + " " + std::to_string(t[2]) + " " + std::to_string(t[3]);
   }

   /* Every pixel of both pictures equal. */
   void expect_equal(const DrawImages &ours, const DrawImages &reference)
   {
      unsigned reported = 0;
      for (unsigned y = 0; y < size; y++)
         for (unsigned x = 0; x < size && reported < 8; x++)
            if (texel(ours, x, y) != texel(reference, x, y)) {
               ADD_FAILURE() << "pixel " << x << "," << y << " differs from lavapipe's: " << text(texel(ours, x, y))
                             << " against " << text(texel(reference, x, y));
               reported++;
            }
   }

   /* Terakan's picture covers exactly the non-strict region (`colour` there, the background
    * elsewhere); lavapipe's equals it wherever the strict region says the same. Returns the
    * number of covered pixels. */
   unsigned expect_lines(const DrawImages &ours, const DrawImages &reference,
                         const std::vector<std::array<Point, 3>> &triangles, double width,
                         std::array<uint8_t, 4> colour, VkCullModeFlags cull = VK_CULL_MODE_NONE)
   {
      const std::vector<int> loose = line_coverage(triangles, width, false, cull);
      const std::vector<int> strict = line_coverage(triangles, width, true, cull);
      unsigned reported = 0, covered = 0, compared = 0;
      for (unsigned y = 0; y < size; y++)
         for (unsigned x = 0; x < size; x++) {
            const bool in = loose[y * size + x];
            covered += in;
            if (texel(ours, x, y) != (in ? colour : background) && reported++ < 8)
               ADD_FAILURE() << "pixel " << x << "," << y << (in ? " not drawn" : " drawn")
                             << " (the parallelogram rule says otherwise)";
            if (loose[y * size + x] == strict[y * size + x]) {
               compared++;
               if (texel(ours, x, y) != texel(reference, x, y) && reported++ < 8)
                  ADD_FAILURE() << "pixel " << x << "," << y << " differs from lavapipe's where both line rules agree";
            }
         }
      /* Most pixels are compared with lavapipe: only diagonal edges' fringes are not. */
      EXPECT_GT(compared, size * size * 9 / 10);
      return covered;
   }
};

constexpr std::array<float, 4> yellow = {1, 1, 0, 1};
constexpr std::array<uint8_t, 4> yellow8 = {255, 255, 0, 255};

/* Two separate triangles (one of each winding), a strip of four and a fan of three, on the
 * 1/256-pixel grid both rasterizers snap to (positions in 1/256 pixels, chosen so that every
 * pixel centre is more than 1/128 pixel from every side of the regions of lines of widths 1
 * and 3, strict and not: line_coverage checks it). */
std::vector<Point> grid(std::initializer_list<std::pair<int, int>> positions)
{
   std::vector<Point> out;
   for (const auto &[x, y] : positions)
      out.push_back({x / 256.0, y / 256.0});
   return out;
}
const std::vector<Point> list = grid({{561, 444}, {3515, 814}, {1109, 3272}, {7630, 570}, {4400, 3509}, {7217, 3018}});
const std::vector<Point> strip = grid({{556, 4436}, {948, 7627}, {2391, 4776}, {2998, 7729}, {4151, 4281}, {4655, 7471}});
const std::vector<Point> fan = grid({{6454, 5935}, {7871, 4397}, {5453, 4282}, {5046, 6314}, {6718, 7882}});

TEST_F(PolygonModes, PointModeDrawsTheVertices)
{
   for (const auto &[points, topology] :
        {std::pair{list, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST}, std::pair{strip, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP},
         std::pair{fan, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN}}) {
      SCOPED_TRACE(topology);
      /* Each vertex its own colour: a point takes its vertex's value. */
      DrawJob job = job_of(points, VK_POLYGON_MODE_POINT, yellow);
      std::vector<float> colours;
      for (size_t i = 0; i < points.size(); i++)
         colours.insert(colours.end(), {float(i + 1) / 8.0f, 0.75f, float(i % 2), 1.0f}); /* no x.5 codes */
      job.attributes[1].data.resize(colours.size() * 4);
      std::memcpy(job.attributes[1].data.data(), colours.data(), colours.size() * 4);
      job.topology = topology;
      DrawImages ours, reference;
      draw_both(job, ours, reference);
      expect_equal(ours, reference);
      /* One pixel per vertex, nothing else. */
      unsigned drawn = 0;
      for (unsigned y = 0; y < size; y++)
         for (unsigned x = 0; x < size; x++)
            drawn += texel(ours, x, y) != background;
      EXPECT_EQ(drawn, points.size());
      for (size_t i = 0; i < points.size(); i++)
         EXPECT_NE(texel(ours, unsigned(points[i].x), unsigned(points[i].y)), background) << "vertex " << i;
   }
}

TEST_F(PolygonModes, LineModeDrawsEveryTrianglesEdges)
{
   for (const auto &[points, topology] :
        {std::pair{list, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST}, std::pair{strip, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP},
         std::pair{fan, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN}}) {
      for (double width : {1.0, 3.0}) {
         SCOPED_TRACE(std::to_string(topology) + " width " + std::to_string(width));
         DrawJob job = job_of(points, VK_POLYGON_MODE_LINE, yellow);
         job.topology = topology;
         job.line_width = float(width);
         DrawImages ours, reference;
         draw_both(job, ours, reference);
         EXPECT_GT(expect_lines(ours, reference, triangles_of(points, topology), width, yellow8), 20u);
      }
   }
}

TEST_F(PolygonModes, LineModeCullsByTheTrianglesFacing)
{
   /* The first triangle of `list` is clockwise on the screen (back-facing with
    * COUNTER_CLOCKWISE front faces), the second counter-clockwise. */
   const auto triangles = triangles_of(list, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
   ASSERT_LT(area(triangles[0]), 0);
   ASSERT_GT(area(triangles[1]), 0);
   for (VkCullModeFlags cull : {VK_CULL_MODE_BACK_BIT, VK_CULL_MODE_FRONT_BIT}) {
      SCOPED_TRACE(cull);
      DrawJob job = job_of(list, VK_POLYGON_MODE_LINE, yellow);
      job.cull_mode = cull;
      DrawImages ours, reference;
      draw_both(job, ours, reference);
      EXPECT_GT(expect_lines(ours, reference, triangles, 1.0, yellow8, cull), 20u);
   }
}

TEST_F(PolygonModes, DepthBiasAppliesToTheLinesAndPointsOfPolygons)
{
   /* The depth buffer is cleared to the polygons' own depth and the test is LESS: without a
    * bias nothing passes; a negative constant bias (D32_SFLOAT: units of 2^(e - 23) for the
    * largest depth's exponent e) brings every line and point in front. */
   for (VkPolygonMode mode : {VK_POLYGON_MODE_LINE, VK_POLYGON_MODE_POINT}) {
      for (bool bias : {false, true}) {
         SCOPED_TRACE(std::to_string(mode) + (bias ? " biased" : " unbiased"));
         DrawJob job = job_of(list, mode, yellow, 0.5f);
         job.depth = true;
         job.depth_clear = 0.5f;
         job.depth_compare = VK_COMPARE_OP_LESS;
         job.depth_bias = bias;
         job.depth_bias_constant = -4.0f;
         DrawImages ours, reference;
         draw_both(job, ours, reference);
         const auto triangles = triangles_of(list, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
         if (!bias) {
            expect_equal(ours, reference);
            for (unsigned y = 0; y < size; y++)
               for (unsigned x = 0; x < size; x++)
                  ASSERT_EQ(texel(ours, x, y), background) << "unbiased pixel " << x << "," << y << " passed";
         } else if (mode == VK_POLYGON_MODE_LINE) {
            EXPECT_GT(expect_lines(ours, reference, triangles, 1.0, yellow8), 20u);
         } else {
            expect_equal(ours, reference);
            EXPECT_EQ(texel(ours, 2, 1), yellow8);
         }
         /* Depth where drawn: 0.5 biased by 4 units of 2^-24, as lavapipe's. */
         ASSERT_EQ(ours.depth.size(), reference.depth.size());
         for (size_t p = 0; p < ours.depth.size(); p++)
            if (texel(ours, unsigned(p % size), unsigned(p / size)) != background)
               EXPECT_EQ(ours.depth[p], 0.5f - 4.0f * std::ldexp(1.0f, -24)) << "pixel " << p % size << "," << p / size;
      }
   }
}

} // namespace
