/* Sample shading on the simulated GPU (TERAKAN_SIM_CHIP picks the chip) against lavapipe,
 * through the loader with the Khronos validation layer on: per-sample execution (SampleId,
 * SamplePosition, Sample-decorated inputs, minSampleShading), SampleMaskIn with and without
 * it, FragCoord, interpolateAtSample/AtOffset/AtCentroid of perspective and noperspective
 * inputs, the SampleMask output and VK_EXT_sample_locations, all at 4 samples (and the mask at
 * one).
 *
 * How samples are read back: the draws go to two 4x R32G32B32A32_SFLOAT attachments that the
 * render pass resolves (the average of the 4 samples). A shader that runs per sample writes
 * 4 x its value into channel SampleId and 0 into the others, so resolved channel k is sample
 * k's own value where sample k is covered (0, the clear value, where not); shaders that may
 * run per pixel write their value to every channel, so the resolve gives the mean over the
 * covered samples (a per-pixel invocation's one value times the covered fraction). Both
 * devices cover the same samples: they put them at Vulkan's standard 4x locations.
 *
 * Tolerances, per channel: 1e-5 (absolute, values below 8) for interpolated values, where
 * both devices evaluate the same planes with different float operations; exact otherwise.
 * interpolateAtSample and interpolateAtOffset move screen-linear quantities along their
 * gradients (GET_GRADIENTS, as r600g does): exact for noperspective inputs and, through 1/w,
 * for perspective ones; lavapipe approximates the perspective case, so with w other than 1
 * the reference is the specification's formula (PerspectiveInterpolationAtOffsetsIsExact).
 * Vulkan leaves where plain inputs are interpolated under sample shading to the
 * implementation; both devices use the pixel centre, which the MinSampleShading case checks.
 * Lavapipe has no VK_EXT_sample_locations: CustomSampleLocations computes its references. */
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../compiler/vulkan_draw_runner.h"
#include "../vulkan_helpers.h"

namespace {

using terakan::test::DrawImages;
using terakan::test::DrawJob;
using terakan::test::VulkanDrawRunner;

constexpr uint32_t size = 16;

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

/* A vertex: window position in pixels (on the 1/256 grid), w, and the two values the shaders
 * interpolate. */
struct Vertex {
   double x, y, w;
   float a, b;
};

/* Two triangles with slanted edges (partly covered pixels everywhere along them) and values
 * that change in both directions, w = 1 unless `perspective`. */
std::vector<Vertex> scene(bool perspective)
{
   const double w1 = perspective ? 1.25 : 1.0, w2 = perspective ? 0.875 : 1.0;
   return {{0.640625, 1.328125, 1.0, 0.0f, 1.0f},  {15.296875, 3.109375, w1, 3.0f, 0.5f},
           {2.203125, 14.765625, w2, 1.5f, 4.0f},  {15.421875, 6.078125, 1.0, 2.0f, 0.25f},
           {6.953125, 15.640625, w2, 0.5f, 2.5f}, {15.859375, 15.453125, w1, 4.0f, 3.0f}};
}

DrawJob sample_job(const std::string &fragment, int mode, bool perspective = false)
{
   DrawJob job;
   job.vertex_spirv = terakan::test::read_api_spirv("sample_shading.vert");
   job.fragment_spirv = terakan::test::read_api_spirv(fragment);
   std::vector<float> positions, values;
   for (const Vertex &v : scene(perspective)) {
      const double half = size / 2.0;
      positions.insert(positions.end(), {float((v.x / half - 1.0) * v.w), float((v.y / half - 1.0) * v.w),
                                         0.5f * float(v.w), float(v.w)});
      values.insert(values.end(), {v.a, v.b});
   }
   auto bytes = [](const std::vector<float> &floats) {
      std::vector<uint8_t> out(floats.size() * 4);
      std::memcpy(out.data(), floats.data(), out.size());
      return out;
   };
   job.attributes = {{0, VK_FORMAT_R32G32B32A32_SFLOAT, 16, VK_VERTEX_INPUT_RATE_VERTEX, bytes(positions)},
                     {1, VK_FORMAT_R32G32_SFLOAT, 8, VK_VERTEX_INPUT_RATE_VERTEX, bytes(values)}};
   for (unsigned t = 0; t < 2; t++) {
      DrawJob::Target target;
      target.format = VK_FORMAT_R32G32B32A32_SFLOAT;
      target.clear.float32[0] = target.clear.float32[1] = target.clear.float32[2] = target.clear.float32[3] = 0.0f;
      job.targets.push_back(target);
   }
   job.width = job.height = size;
   job.vertex_count = 6;
   job.samples = VK_SAMPLE_COUNT_4_BIT;
   job.push_constants.resize(4);
   std::memcpy(job.push_constants.data(), &mode, 4);
   return job;
}

float channel(const DrawImages &images, unsigned target, unsigned x, unsigned y, unsigned c)
{
   float value;
   std::memcpy(&value, images.targets[target].data() + (size_t(y) * size + x) * 16 + 4 * c, 4);
   return value;
}

/* The largest value of target 0's channel 0 over the picture: where every sample is covered. */
float largest(const DrawImages &images)
{
   float out = 0.0f;
   if (images.targets.empty())
      return out;
   for (unsigned y = 0; y < size; y++)
      for (unsigned x = 0; x < size; x++)
         out = std::max(out, channel(images, 0, x, y, 0));
   return out;
}

class SampleShading : public ::testing::Test {
protected:
   static void SetUpTestSuite()
   {
      ASSERT_TRUE(terakan_gpu().available()) << terakan_gpu().error();
      ASSERT_TRUE(lavapipe().available()) << lavapipe().error();
   }

   /* Draws on both devices, with no validation message on either, and compares every channel
    * within `tolerance`. Returns Terakan's images. */
   DrawImages expect_same(const DrawJob &job, float tolerance, const char *what)
   {
      DrawImages ours, reference;
      std::string error;
      const unsigned our_messages = terakan_gpu().validation_messages();
      const unsigned their_messages = lavapipe().validation_messages();
      EXPECT_TRUE(terakan_gpu().run(job, ours, error)) << what << ": Terakan: " << error;
      EXPECT_TRUE(lavapipe().run(job, reference, error)) << what << ": lavapipe: " << error;
      EXPECT_EQ(terakan_gpu().validation_messages(), our_messages) << what << ": validation messages on Terakan";
      EXPECT_EQ(lavapipe().validation_messages(), their_messages) << what << ": validation messages on lavapipe";
      if (ours.targets.size() != 2 || reference.targets.size() != 2)
         return ours;
      unsigned reported = 0;
      float worst = 0.0f;
      for (unsigned t = 0; t < 2; t++)
         for (unsigned y = 0; y < size; y++)
            for (unsigned x = 0; x < size; x++)
               for (unsigned c = 0; c < 4; c++) {
                  const float a = channel(ours, t, x, y, c), b = channel(reference, t, x, y, c);
                  worst = std::max(worst, std::fabs(a - b));
                  if (!(std::fabs(a - b) <= tolerance) && reported++ < 8)
                     ADD_FAILURE() << what << ": target " << t << " pixel (" << x << ", " << y << ") channel " << c
                                   << ": Terakan " << a << ", lavapipe " << b;
               }
      if (getenv("TERAKAN_SAMPLE_SHADING_WORST"))
         std::printf("%s: largest difference %g\n", what, double(worst));
      if (reported)
         ADD_FAILURE() << what << ": " << reported << " channels beyond " << tolerance << ", the largest difference "
                       << worst;
      return ours;
   }
};

/* Whether sample `k` of pixel (x, y) is covered, from a per-sample image of mode 0, whose
 * second target holds SampleMaskIn in the sample's channel: its own bit when covered. */
bool covered(const DrawImages &ids, unsigned x, unsigned y, unsigned k)
{
   return channel(ids, 1, x, y, k) != 0.0f;
}

TEST_F(SampleShading, SampleIdAndSampleMaskInPerSample)
{
   const DrawImages images = expect_same(sample_job("sample_shading_per_sample.frag", 0), 0.0f, "SampleId");
   /* Every covered sample ran its own invocation: channel k of the second target is
    * SampleMaskIn = 1 << k (only the invocation's own sample), of the first k. */
   unsigned fully = 0, partly = 0;
   for (unsigned y = 0; y < size; y++)
      for (unsigned x = 0; x < size; x++) {
         unsigned count = 0;
         for (unsigned k = 0; k < 4; k++) {
            const float mask = channel(images, 1, x, y, k);
            ASSERT_TRUE(mask == 0.0f || mask == float(1u << k)) << x << ", " << y << " sample " << k;
            if (mask != 0.0f) {
               count++;
               EXPECT_EQ(channel(images, 0, x, y, k), float(k));
            }
         }
         fully += count == 4;
         partly += count > 0 && count < 4;
      }
   EXPECT_GT(fully, 40u);
   EXPECT_GT(partly, 10u);
}

TEST_F(SampleShading, SamplePositionsAreTheStandardOnes)
{
   const DrawImages ids = expect_same(sample_job("sample_shading_per_sample.frag", 0), 0.0f, "SampleId");
   const DrawImages images = expect_same(sample_job("sample_shading_per_sample.frag", 1), 0.0f, "SamplePosition");
   /* Vulkan's standard 4x locations (standardSampleLocations). */
   const float expected[4][2] = {{0.375f, 0.125f}, {0.875f, 0.375f}, {0.125f, 0.625f}, {0.625f, 0.875f}};
   for (unsigned y = 0; y < size; y++)
      for (unsigned x = 0; x < size; x++)
         for (unsigned k = 0; k < 4; k++)
            if (covered(ids, x, y, k)) {
               EXPECT_EQ(channel(images, 0, x, y, k), expected[k][0]) << x << ", " << y << " sample " << k;
               EXPECT_EQ(channel(images, 1, x, y, k), expected[k][1]) << x << ", " << y << " sample " << k;
            }
}

TEST_F(SampleShading, FragCoordIsAtTheSampleWhenShadingPerSample)
{
   const DrawImages ids = expect_same(sample_job("sample_shading_per_sample.frag", 0), 0.0f, "SampleId");
   const DrawImages images = expect_same(sample_job("sample_shading_per_sample.frag", 2), 0.0f, "FragCoord");
   const float expected[4][2] = {{0.375f, 0.125f}, {0.875f, 0.375f}, {0.125f, 0.625f}, {0.625f, 0.875f}};
   for (unsigned y = 0; y < size; y++)
      for (unsigned x = 0; x < size; x++)
         for (unsigned k = 0; k < 4; k++)
            if (covered(ids, x, y, k)) {
               EXPECT_EQ(channel(images, 0, x, y, k), expected[k][0]) << x << ", " << y << " sample " << k;
               EXPECT_EQ(channel(images, 1, x, y, k), expected[k][1]) << x << ", " << y << " sample " << k;
            }
}

TEST_F(SampleShading, InterpolationFunctionsPerSample)
{
   expect_same(sample_job("sample_shading_per_sample.frag", 3), 1e-5f, "interpolateAtSample(smooth, id + 1)");
   expect_same(sample_job("sample_shading_per_sample.frag", 4), 1e-5f, "interpolateAtSample(noperspective, id + 3)");
   expect_same(sample_job("sample_shading_per_sample.frag", 5), 1e-5f, "interpolateAtOffset(smooth)");
   expect_same(sample_job("sample_shading_per_sample.frag", 6), 1e-5f, "interpolateAtCentroid(noperspective)");
   expect_same(sample_job("sample_shading_per_sample.frag", 7), 1e-5f, "a plain input under sample shading");
}

TEST_F(SampleShading, SampleDecoratedInputsRunPerSample)
{
   const DrawImages images = expect_same(sample_job("sample_shading_sample_input.frag", 0), 1e-5f, "Sample inputs");
   /* Per sample: each covered sample's invocation sees only its own bit, so the resolved
    * SampleMaskIn is the sum of the covered bits / 4 (15 / 4 where all are covered), never a
    * pixel's whole mask times its coverage. */
   float full = 0.0f;
   for (unsigned y = 0; y < size; y++)
      for (unsigned x = 0; x < size; x++)
         full = std::max(full, channel(images, 1, x, y, 0));
   EXPECT_EQ(full, 15.0f / 4.0f);
}

TEST_F(SampleShading, PixelRateShaderRunsOncePerPixel)
{
   /* SampleMaskIn per pixel: the whole coverage (15 where all 4 samples are covered). */
   const DrawImages images = expect_same(sample_job("sample_shading_pixel_rate.frag", 0), 0.0f, "SampleMaskIn");
   EXPECT_EQ(largest(images), 15.0f);
   /* FragCoord at the pixel centre. */
   const DrawImages centre = expect_same(sample_job("sample_shading_pixel_rate.frag", 1), 0.0f, "FragCoord");
   EXPECT_EQ(largest(centre), 0.5f);
   expect_same(sample_job("sample_shading_pixel_rate.frag", 2), 1e-5f, "interpolateAtSample(smooth, 2)");
   expect_same(sample_job("sample_shading_pixel_rate.frag", 3), 1e-5f, "interpolateAtOffset(noperspective)");
   expect_same(sample_job("sample_shading_pixel_rate.frag", 4), 1e-5f, "interpolateAtCentroid(smooth)");
   expect_same(sample_job("sample_shading_pixel_rate.frag", 5), 1e-5f, "a plain input");
}

TEST_F(SampleShading, MinSampleShadingDecidesPerSampleExecution)
{
   /* minSampleShading x samples > 1: per sample (SampleMaskIn holds one bit), FragCoord at
    * the samples; 0.25 x 4 = 1: once per pixel. */
   DrawJob job = sample_job("sample_shading_pixel_rate.frag", 0);
   job.sample_shading = true;
   job.min_sample_shading = 1.0f;
   DrawImages images = expect_same(job, 0.0f, "SampleMaskIn, minSampleShading 1");
   EXPECT_EQ(largest(images), 15.0f / 4.0f);
   job.min_sample_shading = 0.5f;
   images = expect_same(job, 0.0f, "SampleMaskIn, minSampleShading 0.5");
   EXPECT_EQ(largest(images), 15.0f / 4.0f);
   job.min_sample_shading = 0.25f;
   images = expect_same(job, 0.0f, "SampleMaskIn, minSampleShading 0.25");
   EXPECT_EQ(largest(images), 15.0f);
   job = sample_job("sample_shading_pixel_rate.frag", 5);
   job.sample_shading = true;
   job.min_sample_shading = 1.0f;
   expect_same(job, 1e-5f, "a plain input, minSampleShading 1");
   /* FragCoord: at the samples with minSampleShading 1 (partly covered pixels average only
    * their covered samples' positions, so they differ from the centre's 0.5 x coverage), at the
    * centre with 0.25 (one invocation per pixel; lavapipe agrees). */
   job = sample_job("sample_shading_pixel_rate.frag", 1);
   job.sample_shading = true;
   job.min_sample_shading = 1.0f;
   expect_same(job, 0.0f, "FragCoord, minSampleShading 1");
   job.min_sample_shading = 0.25f;
   expect_same(job, 0.0f, "FragCoord, minSampleShading 0.25");
}

TEST_F(SampleShading, SampleMaskOutput)
{
   /* Once per pixel: the mask (x + y) & 15 keeps those samples; 0 keeps none (the pixel is not
    * written at all); ~4 keeps all but sample 2 (3 of 4 where all are covered). The first
    * target is 1.0 where written (a sample more or less changes it by 0.25), the second holds
    * interpolated values (1e-5). */
   DrawImages images = expect_same(sample_job("sample_shading_mask_out.frag", 0), 1e-5f, "SampleMask (x + y) & 15");
   images = expect_same(sample_job("sample_shading_mask_out.frag", 1), 1e-5f, "SampleMask 0");
   EXPECT_EQ(largest(images), 0.0f);
   images = expect_same(sample_job("sample_shading_mask_out.frag", 2), 1e-5f, "SampleMask ~4");
   EXPECT_EQ(largest(images), 0.75f);
   /* One sample: bit 0 decides whether the pixel is written. */
   DrawJob single = sample_job("sample_shading_mask_out.frag", 0);
   single.samples = VK_SAMPLE_COUNT_1_BIT;
   images = expect_same(single, 1e-5f, "SampleMask (x + y) & 15, one sample");
   unsigned written = 0, dropped = 0;
   for (unsigned y = 0; y < size; y++)
      for (unsigned x = 0; x < size; x++) {
         if (channel(images, 0, x, y, 0) == 0.0f)
            continue;
         EXPECT_EQ((x + y) & 1, 1u) << x << ", " << y;
         written++;
      }
   single.fragment_spirv = terakan::test::read_api_spirv("sample_shading_pixel_rate.frag");
   const DrawImages all = expect_same(single, 1e-5f, "no SampleMask, one sample");
   for (unsigned y = 0; y < size; y++)
      for (unsigned x = 0; x < size; x++)
         dropped += channel(all, 1, x, y, 3) != 0.0f && channel(images, 0, x, y, 0) == 0.0f;
   EXPECT_GT(written, 40u);
   EXPECT_GT(dropped, 40u);
   /* Per sample: each invocation keeps its sample when the sample number is odd. */
   images = expect_same(sample_job("sample_shading_mask_out_per_sample.frag", 0), 0.0f, "SampleMask per sample");
   unsigned odd = 0;
   for (unsigned y = 0; y < size; y++)
      for (unsigned x = 0; x < size; x++) {
         EXPECT_EQ(channel(images, 0, x, y, 0), 0.0f);
         EXPECT_EQ(channel(images, 0, x, y, 2), 0.0f);
         odd += channel(images, 0, x, y, 3) == 3.0f;
      }
   EXPECT_GT(odd, 40u);
}

/* Whether window point (px, py) is strictly inside triangle t of scene(false), and whether it
 * lies exactly on one of its edges (the edge functions are exact: every coordinate here is a
 * multiple of 1/256). */
bool inside_flat(unsigned t, double px, double py, bool &on_edge)
{
   const std::vector<Vertex> v = scene(false);
   auto edge = [&](const Vertex &a, const Vertex &b) { return (b.x - a.x) * (py - a.y) - (b.y - a.y) * (px - a.x); };
   const double e0 = edge(v[3 * t], v[3 * t + 1]), e1 = edge(v[3 * t + 1], v[3 * t + 2]), e2 = edge(v[3 * t + 2], v[3 * t]);
   on_edge = e0 == 0 || e1 == 0 || e2 == 0;
   return (e0 > 0 && e1 > 0 && e2 > 0) || (e0 < 0 && e1 < 0 && e2 < 0);
}

TEST_F(SampleShading, CustomSampleLocations)
{
   /* VK_EXT_sample_locations (lavapipe 22.3 does not offer it: the references are computed
    * here). The locations are truncated to the 1/16 grid: (0.53, 0.3) lands on (0.5, 0.25).
    * SamplePosition reports them, and each sample is covered exactly when its location is
    * inside a triangle (checked wherever the location is not on an edge). */
   const std::vector<VkSampleLocationEXT> locations = {{0.0625f, 0.5625f}, {0.3125f, 0.0625f}, {0.9375f, 0.8125f},
                                                       {0.53f, 0.3f}};
   const float snapped[4][2] = {{0.0625f, 0.5625f}, {0.3125f, 0.0625f}, {0.9375f, 0.8125f}, {0.5f, 0.25f}};
   auto run = [&](int mode, bool custom) {
      DrawJob job = sample_job("sample_shading_per_sample.frag", mode);
      if (custom)
         job.sample_locations = locations;
      DrawImages images;
      std::string error;
      const unsigned messages = terakan_gpu().validation_messages();
      EXPECT_TRUE(terakan_gpu().run(job, images, error)) << error;
      EXPECT_EQ(terakan_gpu().validation_messages(), messages) << "validation messages on Terakan";
      return images;
   };
   const DrawImages ids = run(0, true), positions = run(1, true), standard = run(0, false);
   if (ids.targets.size() != 2 || positions.targets.size() != 2 || standard.targets.size() != 2)
      return;
   unsigned checked = 0, moved = 0;
   for (unsigned y = 0; y < size; y++)
      for (unsigned x = 0; x < size; x++)
         for (unsigned k = 0; k < 4; k++) {
            moved += covered(ids, x, y, k) != covered(standard, x, y, k);
            if (covered(ids, x, y, k)) {
               EXPECT_EQ(channel(positions, 0, x, y, k), snapped[k][0]) << x << ", " << y << " sample " << k;
               EXPECT_EQ(channel(positions, 1, x, y, k), snapped[k][1]) << x << ", " << y << " sample " << k;
            }
            bool edge0 = false, edge1 = false;
            const double sx = x + snapped[k][0], sy = y + snapped[k][1];
            const bool inside = inside_flat(0, sx, sy, edge0) || inside_flat(1, sx, sy, edge1);
            if (edge0 || edge1)
               continue;
            checked++;
            EXPECT_EQ(covered(ids, x, y, k), inside) << x << ", " << y << " sample " << k;
         }
   EXPECT_GT(checked, 900u);
   EXPECT_GT(moved, 10u); /* the locations matter */
}

/* The perspective-correct value of v_smooth.x (vertex value `a`) at window point (px, py) of
 * triangle t of scene(true): the specification's formula, (sum b_i a_i / w_i) / (sum b_i / w_i)
 * with b_i the point's linear barycentrics. */
double exact_smooth(unsigned t, double px, double py)
{
   const std::vector<Vertex> v = scene(true);
   const Vertex &p0 = v[3 * t], &p1 = v[3 * t + 1], &p2 = v[3 * t + 2];
   const double area = (p1.x - p0.x) * (p2.y - p0.y) - (p2.x - p0.x) * (p1.y - p0.y);
   const double b1 = ((p2.x - px) * (p0.y - py) - (p0.x - px) * (p2.y - py)) / area;
   const double b2 = ((p0.x - px) * (p1.y - py) - (p1.x - px) * (p0.y - py)) / area;
   const double b0 = 1.0 - b1 - b2;
   const double q0 = b0 / p0.w, q1 = b1 / p1.w, q2 = b2 / p2.w;
   return (q0 * p0.a + q1 * p1.a + q2 * p2.a) / (q0 + q1 + q2);
}

/* Whether window point (px, py) is inside triangle t of scene(true) (strictly: the samples
 * compared below are never on an edge). */
bool inside(unsigned t, double px, double py)
{
   const std::vector<Vertex> v = scene(true);
   auto edge = [&](const Vertex &a, const Vertex &b) { return (b.x - a.x) * (py - a.y) - (b.y - a.y) * (px - a.x); };
   const double e0 = edge(v[3 * t], v[3 * t + 1]), e1 = edge(v[3 * t + 1], v[3 * t + 2]), e2 = edge(v[3 * t + 2], v[3 * t]);
   return (e0 > 0 && e1 > 0 && e2 > 0) || (e0 < 0 && e1 < 0 && e2 < 0);
}

TEST_F(SampleShading, PerspectiveInterpolationAtOffsetsIsExact)
{
   /* With w from 0.875 to 1.25, interpolateAtSample and interpolateAtOffset of a perspective
    * input are checked against the specification's formula computed here: Terakan moves I w,
    * J w and 1/w, which are linear in screen space, and divides at the offset (exact but for
    * rounding: 2e-5 on values below 4). Lavapipe's answers differ by up to about 0.06 here (it
    * steps the perspective-corrected value along its gradient, a first-order approximation,
    * which Vulkan allows: the functions' precision is not specified), so against lavapipe the
    * tolerance is 0.08. Noperspective inputs agree exactly with both. */
   const DrawImages ids = expect_same(sample_job("sample_shading_per_sample.frag", 0, true), 0.0f, "SampleId");
   const float locations[4][2] = {{0.375f, 0.125f}, {0.875f, 0.375f}, {0.125f, 0.625f}, {0.625f, 0.875f}};
   for (int mode : {3, 5}) {
      const char *what = mode == 3 ? "interpolateAtSample, perspective" : "interpolateAtOffset, perspective";
      const DrawImages images = expect_same(sample_job("sample_shading_per_sample.frag", mode, true), 8e-2f, what);
      unsigned checked = 0, reported = 0;
      for (unsigned y = 0; y < size; y++)
         for (unsigned x = 0; x < size; x++)
            for (unsigned k = 0; k < 4; k++) {
               if (!covered(ids, x, y, k))
                  continue;
               /* The triangle that covers sample k (the second one is drawn last). */
               const double sx = x + locations[k][0], sy = y + locations[k][1];
               const unsigned t = inside(1, sx, sy) ? 1 : 0;
               if (!inside(t, sx, sy))
                  continue;
               double px, py;
               if (mode == 3) {
                  const unsigned other = (k + 1) % 4;
                  px = x + locations[other][0], py = y + locations[other][1];
               } else {
                  px = x + 0.5 + 0.25, py = y + 0.5 - 0.375;
               }
               const double expected = exact_smooth(t, px, py);
               const float got = channel(images, 0, x, y, k);
               checked++;
               if (std::fabs(got - expected) > 2e-5 && reported++ < 8)
                  ADD_FAILURE() << what << ": pixel (" << x << ", " << y << ") sample " << k << ": " << got
                                << ", the formula gives " << expected;
            }
      EXPECT_GT(checked, 200u) << what;
   }
   expect_same(sample_job("sample_shading_per_sample.frag", 4, true), 1e-5f, "interpolateAtSample, noperspective");
   expect_same(sample_job("sample_shading_per_sample.frag", 6, true), 1e-5f, "interpolateAtCentroid, perspective");
}

} // namespace
