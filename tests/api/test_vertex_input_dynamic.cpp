/* VK_EXT_vertex_input_dynamic_state through the driver on the simulated GPU (TERAKAN_SIM_CHIP):
 * one pipeline whose vertex input is dynamic state draws several times, each draw with its own
 * vkCmdSetVertexInputEXT state (formats, attribute offsets into interleaved records, strides
 * including 0, per-vertex and per-instance rates, divisors 0, 1 and 3, bindings remapped to
 * other locations), in the primary command buffer and inside a secondary one. Each picture is
 * drawn again by lavapipe from the same SPIR-V and commands with the validation layer on
 * (compiler/vulkan_draw_runner.h) and compared pixel for pixel, and every cell is checked
 * against the colour Vulkan's rules give, computed here from the buffers
 * (shaders/vertex_input_dynamic.vert: instance i fills the cell its `cell` attribute names). */
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

constexpr uint32_t target_pixels = 64, cell_pixels = 8, elements = 64;

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

/* Distinct 8-bit codes per element k and channel, exact through a UNORM8 target. */
uint8_t code_of(unsigned channel, uint32_t k) { return uint8_t((k * 7 + 29 * channel + 11) % 251); }

template <typename T> void put(std::vector<uint8_t> &bytes, size_t offset, const T &value)
{
   if (bytes.size() < offset + sizeof(T))
      bytes.resize(offset + sizeof(T));
   std::memcpy(bytes.data() + offset, &value, sizeof(T));
}

/* A square of 6 x 6 pixels inside the cell, as two triangles. */
const float corners[12] = {1, 1, 7, 1, 1, 7, 7, 1, 7, 7, 1, 7};

/* The buffers, bound at bindings 0-7 (the runner binds buffer a at binding a). */
std::vector<std::vector<uint8_t>> make_buffers()
{
   std::vector<std::vector<uint8_t>> b(8);
   for (unsigned v = 0; v < 6; v++) {
      put(b[0], 8 * v, corners[2 * v]); /* 0: corners, R32G32_SFLOAT, stride 8 */
      put(b[0], 8 * v + 4, corners[2 * v + 1]);
      /* 5: corners, R16G16_SFLOAT (1.0 = 0x3c00, 7.0 = 0x4700), stride 4 */
      put(b[5], 4 * v, uint16_t(corners[2 * v] == 1 ? 0x3c00 : 0x4700));
      put(b[5], 4 * v + 2, uint16_t(corners[2 * v + 1] == 1 ? 0x3c00 : 0x4700));
      /* 6: one colour for every vertex, R8G8B8A8_UNORM, stride 4 */
      put(b[6], 4 * v, std::array<uint8_t, 4>{200, 90, 30, 255});
   }
   for (uint32_t k = 0; k < elements; k++) {
      put(b[1], 4 * k, float(k)); /* 1: cells, R32_SFLOAT, stride 4 */
      /* 2: colours, R8G8B8A8_UNORM, stride 4 */
      put(b[2], 4 * k, std::array<uint8_t, 4>{code_of(0, k), code_of(1, k), code_of(2, k), 255});
      /* 3 and 7: interleaved records of 16 bytes: cell (R32_SFLOAT) at 0, a corner
       * (R32G32_SFLOAT) at 4, a colour (read as B8G8R8A8_UNORM or R8G8B8A8_UNORM) at 12. */
      for (unsigned copy : {3u, 7u}) {
         put(b[copy], 16 * k, float((k + 40) % elements));
         put(b[copy], 16 * k + 4, corners[2 * (k % 6)]);
         put(b[copy], 16 * k + 8, corners[2 * (k % 6) + 1]);
         put(b[copy], 16 * k + 12, std::array<uint8_t, 4>{code_of(2, k), code_of(0, k), code_of(1, k), 255});
      }
      /* 4: colours, R32G32B32A32_SFLOAT, stride 16 */
      const float rgba[4] = {code_of(1, k) / 255.0f, code_of(2, k) / 255.0f, code_of(0, k) / 255.0f, 1.0f};
      put(b[4], 16 * k, rgba);
   }
   return b;
}

using Binding = VkVertexInputBindingDescription2EXT;
using Attribute = VkVertexInputAttributeDescription2EXT;

Binding binding(uint32_t number, uint32_t stride, VkVertexInputRate rate, uint32_t divisor = 1)
{
   return {VK_STRUCTURE_TYPE_VERTEX_INPUT_BINDING_DESCRIPTION_2_EXT, nullptr, number, stride, rate, divisor};
}

Attribute attribute(uint32_t location, uint32_t binding_number, VkFormat format, uint32_t offset = 0)
{
   return {VK_STRUCTURE_TYPE_VERTEX_INPUT_ATTRIBUTE_DESCRIPTION_2_EXT, nullptr, location, binding_number, format, offset};
}

DrawJob::VertexInputDraw draw(std::vector<Binding> bindings, std::vector<Attribute> attributes, uint32_t instances,
                              uint32_t first_instance)
{
   DrawJob::VertexInputDraw d;
   d.bindings = std::move(bindings);
   d.attributes = std::move(attributes);
   d.vertex_count = 6;
   d.instance_count = instances;
   d.first_instance = first_instance;
   return d;
}

constexpr VkVertexInputRate per_vertex = VK_VERTEX_INPUT_RATE_VERTEX, per_instance = VK_VERTEX_INPUT_RATE_INSTANCE;

/* The draws: every one a different vertex input state for the same pipeline. */
std::vector<DrawJob::VertexInputDraw> scene()
{
   return {
      /* Plain: each location its own binding, cells 0-7. */
      draw({binding(0, 8, per_vertex), binding(1, 4, per_instance), binding(2, 4, per_instance)},
           {attribute(0, 0, VK_FORMAT_R32G32_SFLOAT), attribute(1, 1, VK_FORMAT_R32_SFLOAT),
            attribute(2, 2, VK_FORMAT_R8G8B8A8_UNORM)},
           8, 0),
      /* Interleaved records through remapped bindings: corners per vertex at offset 4 of
       * binding 7, cells per instance at offset 0 of binding 3 ((k + 40) % 64: cells 42-50),
       * float colours with divisor 3 from binding 4. */
      draw({binding(7, 16, per_vertex), binding(3, 16, per_instance), binding(4, 16, per_instance, 3)},
           {attribute(0, 7, VK_FORMAT_R32G32_SFLOAT, 4), attribute(1, 3, VK_FORMAT_R32_SFLOAT, 0),
            attribute(2, 4, VK_FORMAT_R32G32B32A32_SFLOAT)},
           9, 2),
      /* Half-float corners, divisor 0 (every instance reads element firstInstance) on a
       * B8G8R8A8 colour at offset 12; cells 16-21. */
      draw({binding(5, 4, per_vertex), binding(1, 4, per_instance), binding(3, 16, per_instance, 0)},
           {attribute(0, 5, VK_FORMAT_R16G16_SFLOAT), attribute(1, 1, VK_FORMAT_R32_SFLOAT),
            attribute(2, 3, VK_FORMAT_B8G8R8A8_UNORM, 12)},
           6, 16),
      /* A per-vertex colour, cells with divisor 3 (24, 25, 26; later instances over earlier). */
      draw({binding(0, 8, per_vertex), binding(6, 4, per_vertex), binding(1, 4, per_instance, 3)},
           {attribute(0, 0, VK_FORMAT_R32G32_SFLOAT), attribute(2, 6, VK_FORMAT_R8G8B8A8_UNORM),
            attribute(1, 1, VK_FORMAT_R32_SFLOAT)},
           7, 24),
      /* Stride 0: every instance reads colour element 0; cells 32-35. */
      draw({binding(0, 8, per_vertex), binding(1, 4, per_instance), binding(2, 0, per_instance)},
           {attribute(0, 0, VK_FORMAT_R32G32_SFLOAT), attribute(1, 1, VK_FORMAT_R32_SFLOAT),
            attribute(2, 2, VK_FORMAT_R8G8B8A8_UNORM)},
           4, 32),
      /* Back to the first layout with float colours: cells 5 and 6 drawn over. */
      draw({binding(0, 8, per_vertex), binding(1, 4, per_instance), binding(4, 16, per_instance)},
           {attribute(0, 0, VK_FORMAT_R32G32_SFLOAT), attribute(1, 1, VK_FORMAT_R32_SFLOAT),
            attribute(2, 4, VK_FORMAT_R32G32B32A32_SFLOAT)},
           2, 5),
   };
}

/* The element a binding gives vertex v of instance i (Vulkan's rules). */
uint32_t element_of(const Binding &b, const DrawJob::VertexInputDraw &d, uint32_t v, uint32_t i)
{
   if (b.inputRate == per_vertex)
      return d.first_vertex + v;
   return b.divisor == 0 ? d.first_instance : d.first_instance + i / b.divisor;
}

/* Location `location` of vertex v, instance i, as the shader sees it (the formats used here). */
std::array<float, 4> fetch(const std::vector<std::vector<uint8_t>> &buffers, const DrawJob::VertexInputDraw &d,
                           uint32_t location, uint32_t v, uint32_t i)
{
   for (const Attribute &a : d.attributes) {
      if (a.location != location)
         continue;
      for (const Binding &b : d.bindings) {
         if (b.binding != a.binding)
            continue;
         const uint8_t *p = buffers[b.binding].data() + a.offset + size_t(b.stride) * element_of(b, d, v, i);
         std::array<float, 4> out{0, 0, 0, 1};
         switch (a.format) {
         case VK_FORMAT_R32_SFLOAT: std::memcpy(out.data(), p, 4); break;
         case VK_FORMAT_R32G32_SFLOAT: std::memcpy(out.data(), p, 8); break;
         case VK_FORMAT_R32G32B32A32_SFLOAT: std::memcpy(out.data(), p, 16); break;
         case VK_FORMAT_R16G16_SFLOAT:
            for (unsigned c = 0; c < 2; c++) {
               uint16_t half;
               std::memcpy(&half, p + 2 * c, 2);
               out[c] = half == 0x3c00 ? 1.0f : half == 0x4700 ? 7.0f : -1.0f;
            }
            break;
         case VK_FORMAT_R8G8B8A8_UNORM:
            for (unsigned c = 0; c < 4; c++)
               out[c] = p[c] / 255.0f;
            break;
         case VK_FORMAT_B8G8R8A8_UNORM:
            for (unsigned c = 0; c < 4; c++)
               out[c] = p[c == 3 ? 3 : 2 - c] / 255.0f;
            break;
         default: ADD_FAILURE() << "format " << a.format << " not modelled"; break;
         }
         return out;
      }
   }
   ADD_FAILURE() << "location " << location << " not described";
   return {};
}

/* What each cell's centre holds after the draws: the last instance drawn there, or the clear
 * colour (0, 0, 0, 255). Every square here has one colour on all six vertices. */
std::vector<std::array<uint8_t, 4>> expected_cells(const std::vector<std::vector<uint8_t>> &buffers,
                                                    const std::vector<DrawJob::VertexInputDraw> &draws)
{
   std::vector<std::array<uint8_t, 4>> cells(elements, std::array<uint8_t, 4>{0, 0, 0, 255});
   for (const DrawJob::VertexInputDraw &d : draws)
      for (uint32_t i = 0; i < d.instance_count; i++) {
         const uint32_t cell = uint32_t(fetch(buffers, d, 1, 0, i)[0]);
         const std::array<float, 4> colour = fetch(buffers, d, 2, 0, i);
         for (uint32_t v = 1; v < 6; v++)
            EXPECT_EQ(fetch(buffers, d, 2, v, i), colour) << "a square of two colours in the scene";
         for (unsigned c = 0; c < 4; c++)
            cells.at(cell)[c] = uint8_t(colour[c] * 255.0f + 0.5f);
      }
   return cells;
}

DrawJob scene_job(bool in_secondary)
{
   DrawJob job;
   job.vertex_spirv = terakan::test::read_api_spirv("vertex_input_dynamic.vert");
   job.fragment_spirv = terakan::test::read_api_spirv("coloured.frag");
   job.width = job.height = target_pixels;
   DrawJob::Target target;
   target.clear.float32[3] = 1.0f;
   job.targets.push_back(target);
   unsigned number = 0;
   for (std::vector<uint8_t> &bytes : make_buffers()) {
      DrawJob::Attribute buffer; /* only its bytes matter with dynamic vertex input */
      buffer.location = number++;
      buffer.format = VK_FORMAT_R32_SFLOAT;
      buffer.stride = 4;
      buffer.data = std::move(bytes);
      job.attributes.push_back(std::move(buffer));
   }
   job.dynamic_vertex_input = true;
   job.vertex_input_draws = scene();
   job.vertex_input_in_secondary = in_secondary;
   return job;
}

class VertexInputDynamic : public ::testing::Test {
protected:
   static void SetUpTestSuite()
   {
      ASSERT_TRUE(terakan_gpu().available()) << terakan_gpu().error();
      ASSERT_TRUE(lavapipe().available()) << lavapipe().error();
   }

   void expect_right(const DrawJob &job)
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

      const std::vector<std::array<uint8_t, 4>> cells = expected_cells(make_buffers(), job.vertex_input_draws);
      unsigned drawn = 0;
      for (uint32_t cell = 0; cell < elements; cell++) {
         const unsigned x = (cell % 8) * cell_pixels + 4, y = (cell / 8) * cell_pixels + 4;
         const uint8_t *texel = &ours.targets[0][4 * (size_t(y) * target_pixels + x)];
         drawn += cells[cell] != std::array<uint8_t, 4>{0, 0, 0, 255};
         for (unsigned c = 0; c < 4; c++)
            EXPECT_EQ(unsigned(texel[c]), unsigned(cells[cell][c])) << "cell " << cell << " channel " << c;
      }
      EXPECT_EQ(drawn, 8u + 9u + 6u + 3u + 4u) << "cells the scene draws";
   }
};

TEST_F(VertexInputDynamic, SeveralStatesForOnePipeline) { expect_right(scene_job(false)); }

TEST_F(VertexInputDynamic, SeveralStatesInASecondaryCommandBuffer) { expect_right(scene_job(true)); }

TEST_F(VertexInputDynamic, TheFeatureIsOffered)
{
   TestInstance instance(true, VK_API_VERSION_1_1);
   ASSERT_EQ(instance.result(), VK_SUCCESS);
   for (VkPhysicalDevice physical : instance.physical_devices()) {
      VkPhysicalDeviceProperties basic;
      vkGetPhysicalDeviceProperties(physical, &basic);
      if (std::string(basic.deviceName).find("Terakan") == std::string::npos)
         continue;
      ASSERT_TRUE(terakan::test::has_device_extension(physical, VK_EXT_VERTEX_INPUT_DYNAMIC_STATE_EXTENSION_NAME));
      VkPhysicalDeviceVertexInputDynamicStateFeaturesEXT features{
         VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_INPUT_DYNAMIC_STATE_FEATURES_EXT};
      VkPhysicalDeviceFeatures2 all{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &features};
      vkGetPhysicalDeviceFeatures2(physical, &all);
      EXPECT_TRUE(features.vertexInputDynamicState);
      EXPECT_EQ(instance.validation().errors, 0);
      return;
   }
   FAIL() << "no Terakan device";
}

} // namespace
