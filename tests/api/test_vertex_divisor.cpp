/* VK_EXT_vertex_attribute_divisor through the driver on the simulated GPU (TERAKAN_SIM_CHIP),
 * each draw done again by lavapipe from the same SPIR-V and state with the validation layer on
 * (compiler/vulkan_draw_runner.h), every pixel compared, and each instance's colour checked
 * against Vulkan's rule computed here: a per-instance attribute of divisor d reads element
 * firstInstance + (InstanceIndex - firstInstance) / d, and element firstInstance for every
 * instance when d is 0 (shaders/vertex_divisor.vert: instance i fills cell i of an 8 x 8 grid,
 * red, green and blue from three bindings with their own divisors). Direct, indexed and
 * indirect draws, with firstInstance above 0. The device's limit is read too. */
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "../compiler/vulkan_draw_runner.h"
#include "vulkan_test_env.h"

namespace {

using terakan::test::DrawImages;
using terakan::test::DrawJob;
using terakan::test::VulkanDrawRunner;

constexpr uint32_t target_pixels = 64, cell_pixels = 8;

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

template <typename T> std::vector<uint8_t> bytes_of(const std::vector<T> &values)
{
   std::vector<uint8_t> out(values.size() * sizeof(T));
   std::memcpy(out.data(), values.data(), out.size());
   return out;
}

/* The 8-bit code element k of colour binding `channel` holds: distinct per element and channel,
 * and exact through a UNORM8 target (code / 255 converts back to code). */
uint8_t code_of(unsigned channel, uint32_t k) { return uint8_t((k * 5 + 17 * channel + 3) % 251); }

struct Divisors {
   uint32_t red, green, blue;
};

/* The element a divisor picks for instance i (Vulkan's rule). */
uint32_t element_for(uint32_t divisor, uint32_t first_instance, uint32_t i)
{
   return divisor == 0 ? first_instance : first_instance + i / divisor;
}

/* A square of 6 x 6 pixels in each cell, per vertex; cell, red, green and blue per instance,
 * with enough elements for every instance from firstInstance on. */
DrawJob divisor_job(const Divisors &divisors, uint32_t instances, uint32_t first_instance)
{
   DrawJob job;
   job.vertex_spirv = terakan::test::read_api_spirv("vertex_divisor.vert");
   job.fragment_spirv = terakan::test::read_api_spirv("coloured.frag");
   job.width = job.height = target_pixels;
   DrawJob::Target target;
   target.clear.float32[3] = 1.0f;
   job.targets.push_back(target);
   const std::vector<float> corners = {1, 1, 7, 1, 1, 7, 7, 1, 7, 7, 1, 7};
   job.attributes.push_back({0, VK_FORMAT_R32G32_SFLOAT, 8, VK_VERTEX_INPUT_RATE_VERTEX, bytes_of(corners)});
   const uint32_t elements = first_instance + instances;
   std::vector<float> cells(elements);
   for (uint32_t k = 0; k < elements; k++)
      cells[k] = float(int(k) - int(first_instance));
   job.attributes.push_back({1, VK_FORMAT_R32_SFLOAT, 4, VK_VERTEX_INPUT_RATE_INSTANCE, bytes_of(cells)});
   const uint32_t per_channel[3] = {divisors.red, divisors.green, divisors.blue};
   for (unsigned c = 0; c < 3; c++) {
      std::vector<float> values(elements);
      for (uint32_t k = 0; k < elements; k++)
         values[k] = float(code_of(c, k)) / 255.0f;
      DrawJob::Attribute colour{2 + c, VK_FORMAT_R32_SFLOAT, 4, VK_VERTEX_INPUT_RATE_INSTANCE, bytes_of(values)};
      colour.divisor = per_channel[c];
      job.attributes.push_back(colour);
   }
   job.vertex_count = 6;
   job.instance_count = instances;
   job.first_instance = first_instance;
   return job;
}

class VertexDivisor : public ::testing::Test {
protected:
   static void SetUpTestSuite()
   {
      ASSERT_TRUE(terakan_gpu().available()) << terakan_gpu().error();
      ASSERT_TRUE(lavapipe().available()) << lavapipe().error();
   }

   /* Draws on both devices, compares every byte, and checks each instance's cell against the
    * rule. */
   void expect_right(const DrawJob &job, const Divisors &divisors)
   {
      DrawImages ours, reference;
      std::string error;
      const unsigned our_messages = terakan_gpu().validation_messages();
      const unsigned their_messages = lavapipe().validation_messages();
      ASSERT_TRUE(terakan_gpu().run(job, ours, error)) << "Terakan: " << error;
      ASSERT_TRUE(lavapipe().run(job, reference, error)) << "lavapipe: " << error;
      EXPECT_EQ(terakan_gpu().validation_messages(), our_messages) << "validation messages on Terakan";
      EXPECT_EQ(lavapipe().validation_messages(), their_messages) << "validation messages on lavapipe";
      ASSERT_EQ(ours.targets.size(), 1u);
      ASSERT_EQ(reference.targets.size(), 1u);
      unsigned different = 0;
      for (size_t p = 0; p < size_t(target_pixels) * target_pixels; p++)
         if (std::memcmp(&ours.targets[0][4 * p], &reference.targets[0][4 * p], 4) != 0 && different++ < 4)
            ADD_FAILURE() << "pixel " << p % target_pixels << "," << p / target_pixels << " differs from lavapipe's";
      EXPECT_EQ(different, 0u) << "pixels different from lavapipe's";
      const uint32_t per_channel[3] = {divisors.red, divisors.green, divisors.blue};
      for (uint32_t i = 0; i < job.instance_count && i < 64; i++) {
         const unsigned x = (i % 8) * cell_pixels + 4, y = (i / 8) * cell_pixels + 4;
         const uint8_t *texel = &ours.targets[0][4 * (size_t(y) * target_pixels + x)];
         for (unsigned c = 0; c < 3; c++) {
            const uint32_t element = element_for(per_channel[c], job.first_instance, i);
            EXPECT_EQ(unsigned(texel[c]), unsigned(code_of(c, element)))
               << "instance " << i << " channel " << c << " (divisor " << per_channel[c] << ", element " << element
               << ")";
         }
      }
   }
};

TEST_F(VertexDivisor, DivisorsZeroToSevenAndLarge)
{
   /* 0 (every instance reads firstInstance), 2, 3, 7, a divisor larger than any instance count
    * that is not a power of two, the largest one (UINT32_MAX), and 1 beside them. */
   const Divisors cases[] = {{0, 2, 3}, {7, 1, 4000000000u}, {3, UINT32_MAX, 0}, {1, 7, 2}};
   for (const Divisors &d : cases)
      for (uint32_t first : {0u, 5u}) {
         SCOPED_TRACE("divisors " + std::to_string(d.red) + ", " + std::to_string(d.green) + ", " +
                      std::to_string(d.blue) + ", firstInstance " + std::to_string(first));
         expect_right(divisor_job(d, 45, first), d);
      }
}

TEST_F(VertexDivisor, IndexedDraws)
{
   const Divisors d{2, 0, 3};
   DrawJob job = divisor_job(d, 30, 9);
   job.indices = {0, 1, 2, 3, 4, 5};
   expect_right(job, d);
}

TEST_F(VertexDivisor, IndirectDrawsReadFirstInstanceFromTheBuffer)
{
   /* The parameters in a buffer (drawIndirectFirstInstance): the shader's firstInstance is the
    * buffer's, copied by the GPU. */
   const Divisors d{3, 7, 0};
   for (bool indexed : {false, true}) {
      SCOPED_TRACE(indexed ? "indexed" : "not indexed");
      DrawJob job = divisor_job(d, 40, 6);
      if (indexed)
         job.indices = {0, 1, 2, 3, 4, 5};
      job.indirect = true;
      job.indirect_offset = 12;
      expect_right(job, d);
   }
}

TEST_F(VertexDivisor, TheLimitAndTheFeaturesAreOffered)
{
   TestInstance instance(true, VK_API_VERSION_1_1);
   ASSERT_EQ(instance.result(), VK_SUCCESS);
   for (VkPhysicalDevice physical : instance.physical_devices()) {
      VkPhysicalDeviceProperties basic;
      vkGetPhysicalDeviceProperties(physical, &basic);
      if (std::string(basic.deviceName).find("Terakan") == std::string::npos)
         continue;
      ASSERT_TRUE(terakan::test::has_device_extension(physical, VK_EXT_VERTEX_ATTRIBUTE_DIVISOR_EXTENSION_NAME));
      VkPhysicalDeviceVertexAttributeDivisorPropertiesEXT limit{
         VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_PROPERTIES_EXT};
      VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &limit};
      vkGetPhysicalDeviceProperties2(physical, &properties);
      EXPECT_EQ(limit.maxVertexAttribDivisor, UINT32_MAX);
      VkPhysicalDeviceVertexAttributeDivisorFeaturesEXT features{
         VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_FEATURES_EXT};
      VkPhysicalDeviceFeatures2 all{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &features};
      vkGetPhysicalDeviceFeatures2(physical, &all);
      EXPECT_TRUE(features.vertexAttributeInstanceRateDivisor);
      EXPECT_TRUE(features.vertexAttributeInstanceRateZeroDivisor);
      EXPECT_EQ(instance.validation().errors, 0);
      return;
   }
   FAIL() << "no Terakan device";
}

} // namespace
