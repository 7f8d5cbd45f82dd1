/* Anisotropic filtering in the simulator's texture unit (docs/sim-semantics.md "Textures"):
 * the probe count and level of detail of the footprint, where the probes fall, which sampler
 * and resource fields turn it on, and that a ratio of 1 is the isotropic path bit for bit. The
 * expectations are the Vulkan specification's formulas ("Texel Anisotropic Filtering", the
 * scale factor and level-of-detail rules) worked by hand here, not read back. */
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "core/texture_unit.h"
#include "hw/texture.h"

using namespace terakan;
using namespace terakan::hw;

namespace {

uint32_t bits(float f)
{
   uint32_t u;
   std::memcpy(&u, &f, 4);
   return u;
}

float as_float(uint32_t u)
{
   float f;
   std::memcpy(&f, &u, 4);
   return f;
}

TEST(AnisotropicFootprint, ProbeCountAndLevelOfDetail)
{
   struct Case {
      double rho_x, rho_y;
      unsigned max_probes, probes, major;
      double lod;
   };
   const Case cases[] = {
      {8, 1, 16, 8, 0, 0.0},                 /* 8:1 along x: eight probes of one texel */
      {1, 8, 16, 8, 1, 0.0},                 /* the same along y */
      {8, 8, 16, 1, 1, 3.0},                 /* isotropic; ties go to y (ρy >= ρx) */
      {32, 1, 16, 16, 0, 1.0},               /* 32:1 limited to 16 probes: λ = log2(32 / 16) */
      {3, 2, 16, 2, 0, std::log2(1.5)},      /* ceil(1.5) = 2 */
      {2.5, 1, 16, 3, 0, std::log2(2.5 / 3)}, /* ceil(2.5) = 3: magnified, λ < 0 */
      {5, 0, 4, 4, 0, std::log2(1.25)},      /* a line footprint takes the limit */
      {8, 1, 1, 1, 0, 3.0},                  /* one probe allowed: isotropic λ = log2 ρmax */
      {12, 3, 2, 2, 0, std::log2(6.0)},      /* 4:1 limited to 2x */
   };
   for (const Case &c : cases) {
      SCOPED_TRACE(testing::Message() << "rho " << c.rho_x << ", " << c.rho_y << ", at most " << c.max_probes);
      const sim::AnisotropicFootprint f = sim::anisotropic_footprint(c.rho_x, c.rho_y, c.max_probes);
      EXPECT_EQ(f.probes, c.probes);
      EXPECT_EQ(f.major, c.major);
      EXPECT_FLOAT_EQ(f.lod, float(c.lod));
   }
   const sim::AnisotropicFootprint point = sim::anisotropic_footprint(0, 0, 16);
   EXPECT_EQ(point.probes, 1u);
   EXPECT_EQ(point.lod, -std::numeric_limits<float>::infinity());
}

TEST(AnisotropicFootprint, ProbesAreSpreadEvenlyOverTheMajorAxis)
{
   EXPECT_EQ(sim::anisotropic_probe_offset(0, 1), 0.0f);
   EXPECT_FLOAT_EQ(sim::anisotropic_probe_offset(0, 2), -1.0f / 6);
   EXPECT_FLOAT_EQ(sim::anisotropic_probe_offset(1, 2), 1.0f / 6);
   for (unsigned i = 0; i < 4; i++)
      EXPECT_FLOAT_EQ(sim::anisotropic_probe_offset(i, 4), -0.3f + 0.2f * float(i));
}

/* A 64 x 64 one-channel float texture with seven levels, linear; texel (x, y) of level L
 * holds value(L, x, y). */
struct FloatTexture {
   sim::TextureView view;
   std::vector<std::vector<float>> storage;

   template <typename F> explicit FloatTexture(F value)
   {
      view.resource.width = view.resource.height = 64;
      view.resource.pitch = 64;
      view.resource.format = Fmt32Float;
      view.resource.last_level = 6;
      view.resource.max_aniso_ratio = 4; /* as the driver and r600g write it for mipmapped views */
      view.bytes_per_element = 4;
      for (unsigned level = 0; level <= 6; level++) {
         sim::TextureView::Level l;
         l.width = l.height = 64 >> level;
         l.pitch = std::max(l.width, 8u);
         l.aligned_height = l.height;
         l.mode = ArrayMode::LinearAligned;
         std::vector<float> texels(size_t(l.pitch) * l.height);
         for (unsigned y = 0; y < l.height; y++)
            for (unsigned x = 0; x < l.width; x++)
               texels[size_t(y) * l.pitch + x] = value(level, x, y);
         storage.push_back(std::move(texels));
         l.data = reinterpret_cast<const uint8_t *>(storage.back().data());
         l.size = storage.back().size() * 4;
         view.levels.push_back(l);
      }
   }

   /* SAMPLE at normalized (u, v) with the quad's differences d/dx and d/dy given in texels of
    * level 0. */
   float sample(const Sampler &sampler, float u, float v, std::array<float, 2> ddx, std::array<float, 2> ddy,
                sim::TexOp op = sim::TexOp::Sample, float w = 0.0f) const
   {
      sim::TexRequest q;
      q.op = op;
      q.normalized = {true, true, false, false};
      q.source = {bits(u), bits(v), 0, bits(w)};
      q.has_derivatives = op != sim::TexOp::SampleL;
      q.derivatives[0] = {ddx[0] / 64, ddx[1] / 64, 0};
      q.derivatives[1] = {ddy[0] / 64, ddy[1] / 64, 0};
      std::array<uint32_t, 4> result{};
      std::string error;
      EXPECT_TRUE(sim::texture_execute(view, sampler, {}, q, result, error)) << error;
      return as_float(result[0]);
   }

   std::string refusal(const Sampler &sampler) const
   {
      sim::TexRequest q;
      q.normalized = {true, true, false, false};
      q.source = {bits(0.5f), bits(0.5f), 0, 0};
      q.has_derivatives = true;
      q.derivatives[0] = {8.0f / 64, 0, 0};
      q.derivatives[1] = {0, 1.0f / 64, 0};
      std::array<uint32_t, 4> result{};
      std::string error;
      EXPECT_FALSE(sim::texture_execute(view, sampler, {}, q, result, error));
      return error;
   }
};

Sampler anisotropic_sampler(unsigned ratio, TexFilter filter = TexFilter::AnisoBilinear,
                            MipFilter mip = MipFilter::Point)
{
   Sampler s;
   s.mag_filter = s.min_filter = filter;
   s.mip_filter = mip;
   s.max_aniso_ratio = ratio;
   s.clamp[0] = s.clamp[1] = s.clamp[2] = ClampMode::ClampLastTexel;
   return s;
}

TEST(AnisotropicSample, TheRatioLowersTheLevelOfDetail)
{
   /* Every level holds its own number: the result names the level chosen. The footprint is
    * 8 texels along x and 1 along y (an 8:1 ellipse). */
   const FloatTexture texture([](unsigned level, unsigned, unsigned) { return float(level); });
   const std::array<float, 2> ddx = {8, 0}, ddy = {0, 1};
   EXPECT_EQ(texture.sample(anisotropic_sampler(0, TexFilter::Bilinear), 0.5f, 0.5f, ddx, ddy), 3.0f);
   EXPECT_EQ(texture.sample(anisotropic_sampler(0), 0.5f, 0.5f, ddx, ddy), 3.0f); /* 1x */
   EXPECT_EQ(texture.sample(anisotropic_sampler(1), 0.5f, 0.5f, ddx, ddy), 2.0f); /* 2x: λ = log2(8 / 2) */
   EXPECT_EQ(texture.sample(anisotropic_sampler(2), 0.5f, 0.5f, ddx, ddy), 1.0f); /* 4x */
   EXPECT_EQ(texture.sample(anisotropic_sampler(3), 0.5f, 0.5f, ddx, ddy), 0.0f); /* 8x: one texel each */
   EXPECT_EQ(texture.sample(anisotropic_sampler(4), 0.5f, 0.5f, ddx, ddy), 0.0f); /* 16x needs only 8 */
   /* The same footprint along y. */
   EXPECT_EQ(texture.sample(anisotropic_sampler(2), 0.5f, 0.5f, ddy, ddx), 1.0f);
   /* The resource's MAX_ANISO_RATIO limits the sampler's: 2x, and 1x for a single-level
    * view as r600g writes it. */
   FloatTexture limited([](unsigned level, unsigned, unsigned) { return float(level); });
   limited.view.resource.max_aniso_ratio = 1;
   EXPECT_EQ(limited.sample(anisotropic_sampler(4), 0.5f, 0.5f, ddx, ddy), 2.0f);
   limited.view.resource.max_aniso_ratio = 0;
   EXPECT_EQ(limited.sample(anisotropic_sampler(4), 0.5f, 0.5f, ddx, ddy), 3.0f);
   /* An explicit level of detail (SAMPLE_L) has no footprint: isotropic. */
   EXPECT_EQ(texture.sample(anisotropic_sampler(4), 0.5f, 0.5f, ddx, ddy, sim::TexOp::SampleL, 2.0f), 2.0f);
   /* SAMPLE_LB adds its bias after λ = log2(8 / 4). */
   EXPECT_EQ(texture.sample(anisotropic_sampler(2), 0.5f, 0.5f, ddx, ddy, sim::TexOp::SampleLB, 2.0f), 3.0f);
}

TEST(AnisotropicSample, ProbesFallAlongTheMajorAxisAndAreAveraged)
{
   /* Level 0 texels hold their x (or y) index; ANISO_POINT reads one texel a probe. The
    * footprint is 4 texels long: 4 probes at 16x, λ = log2(4 / 4) = 0. At texel coordinate
    * 10.2 they fall at 10.2 + 4 * (-0.3, -0.1, 0.1, 0.3) = 9.0, 9.8, 10.6, 11.4: texels 9, 9,
    * 10 and 11, average 9.75 (isotropic point sampling of level 0 reads 10). */
   const FloatTexture by_x([](unsigned, unsigned x, unsigned) { return float(x); });
   const float u = 10.2f / 64, v = 20.5f / 64;
   const Sampler point16 = anisotropic_sampler(4, TexFilter::AnisoPoint);
   EXPECT_FLOAT_EQ(by_x.sample(point16, u, v, {4, 0}, {0, 1}), 9.75f);
   EXPECT_EQ(by_x.sample(anisotropic_sampler(0, TexFilter::Point, MipFilter::None), u, v, {4, 0}, {0, 1}), 10.0f);
   /* A diagonal major axis: d/dx = (2, 2) (length 2.83), d/dy = (0.5, -0.5) (0.71): ceil(4) =
    * 4 probes, λ = log2(2.83 / 4) < 0 (level 0); x moves by 2 * (-0.3 .. 0.3): 9.6, 10.0,
    * 10.4, 10.8 -> texels 9, 10, 10, 10. */
   EXPECT_FLOAT_EQ(by_x.sample(point16, u, v, {2, 2}, {0.5f, -0.5f}), 9.75f);
   /* Along y when ρy is the larger. */
   const FloatTexture by_y([](unsigned, unsigned, unsigned y) { return float(y); });
   EXPECT_FLOAT_EQ(by_y.sample(point16, v, u, {0, 1}, {0, 4}), 9.75f);
   /* Bilinear probes of a linear ramp average to the ramp at the centre: the probes are
    * symmetric about the lane's coordinates. */
   const Sampler bilinear16 = anisotropic_sampler(4, TexFilter::AnisoBilinear);
   EXPECT_FLOAT_EQ(by_x.sample(bilinear16, 20.5f / 64, v, {4, 0}, {0, 1}), 20.0f);
}

TEST(AnisotropicSample, RatioOneIsTheTrilinearPathBitForBit)
{
   /* An irregular texture, trilinear, at a few footprints: 1x with the ANISO filters, and 16x
    * on an isotropic footprint, give exactly what BILINEAR gives. */
   const FloatTexture texture([](unsigned level, unsigned x, unsigned y) {
      return float((x * 37 + y * 101 + level * 13) % 29) / 7.0f;
   });
   const Sampler plain = anisotropic_sampler(0, TexFilter::Bilinear, MipFilter::Linear);
   const Sampler one = anisotropic_sampler(0, TexFilter::AnisoBilinear, MipFilter::Linear);
   const Sampler sixteen = anisotropic_sampler(4, TexFilter::AnisoBilinear, MipFilter::Linear);
   const std::array<std::array<float, 2>, 4> footprints[] = {
      {{{5.3f, 0.7f}, {0.2f, 1.9f}}}, {{{0.3f, 0}, {0, 0.4f}}}, {{{13, 2}, {-1, 1.5f}}}, {{{1, 1}, {0, 0}}}};
   for (const auto &f : footprints)
      for (float u : {0.13f, 0.5f, 0.871f}) {
         const float expected = texture.sample(plain, u, 0.37f, f[0], f[1]);
         EXPECT_EQ(bits(texture.sample(one, u, 0.37f, f[0], f[1])), bits(expected));
      }
   const std::array<float, 2> ddx = {2.5f, 1.0f}, ddy = {-1.0f, 2.5f}; /* equal lengths */
   EXPECT_EQ(bits(texture.sample(sixteen, 0.3f, 0.6f, ddx, ddy)), bits(texture.sample(plain, 0.3f, 0.6f, ddx, ddy)));
}

TEST(AnisotropicSample, UndefinedSettingsAreRefused)
{
   const FloatTexture texture([](unsigned, unsigned, unsigned) { return 1.0f; });
   Sampler mixed = anisotropic_sampler(4);
   mixed.mag_filter = TexFilter::Bilinear;
   EXPECT_NE(texture.refusal(mixed).find("not simulated"), std::string::npos) << texture.refusal(mixed);
   const Sampler five = anisotropic_sampler(5);
   EXPECT_NE(texture.refusal(five).find("MAX_ANISO_RATIO 5"), std::string::npos) << texture.refusal(five);
}

} // namespace
