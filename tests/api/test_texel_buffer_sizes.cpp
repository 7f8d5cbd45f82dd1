/* textureSize of uniform texel buffers and imageSize of storage texel buffers, through the
 * driver on the simulated GPU of TERAKAN_SIM_CHIP and on lavapipe with the validation layer on:
 * the element count of each bound view (its range, or what VK_WHOLE_SIZE leaves after its
 * offset, over the format's texel size, rounded down). The driver writes these counts into the
 * stage's driver constants at every dispatch and draw (compiler.h, resource_size_constants),
 * so the tests rebind other views between submissions, read sizes in compute, vertex and pixel
 * shaders, and compare each result with lavapipe's and with the count computed here. */
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "../compiler/vulkan_draw_runner.h"
#include "compute_device.h"

using namespace terakan::test;

namespace {

/* One view of shaders/texel_sizes.comp: its format and texel size, and the buffer it is made in. */
struct View {
   VkDescriptorType type;
   VkFormat format;
   unsigned texel_bytes;
   VkDeviceSize buffer_bytes, offset, range;

   uint32_t elements() const
   {
      const VkDeviceSize bytes = range == VK_WHOLE_SIZE ? buffer_bytes - offset : range;
      return uint32_t(bytes / texel_bytes);
   }
};

constexpr VkDescriptorType uniform_texel = VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
constexpr VkDescriptorType storage_texel = VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;

/* The six views of the compute shader (bindings 0-5) for one run. */
using ViewSet = std::array<View, 6>;

struct ComputeOutcome {
   VkResult result = VK_ERROR_UNKNOWN;
   std::vector<uint32_t> sizes; /* the shader's eight words */
};

/* Binds the views, dispatches once, and returns what the shader wrote. Element e of the
 * RGBA32 UINT view (binding 2) holds 1000 + e in its x, so sizes[6] tells which element the
 * fetch at textureSize - 1 read. */
ComputeOutcome run_sizes(ComputeDevice &gpu, const ViewSet &views)
{
   ComputeOutcome out;
   std::vector<VkDescriptorType> types;
   for (const View &v : views)
      types.push_back(v.type);
   types.push_back(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
   auto program = gpu.program("texel_sizes", {types}, 0, &out.result);
   if (out.result != VK_SUCCESS)
      return out;
   std::vector<ComputeDevice::Buffer> buffers;
   std::vector<VkBufferView> handles;
   VkDescriptorSet set = gpu.allocate_set(program, 0);
   for (uint32_t b = 0; b < views.size(); b++) {
      const View &v = views[b];
      buffers.push_back(gpu.buffer(v.buffer_bytes, v.type == storage_texel ? VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT
                                                                           : VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT));
      std::memset(buffers.back().words, 0, v.buffer_bytes);
      if (b == 2)
         for (uint32_t e = 0; e < v.elements(); e++)
            buffers.back().words[(v.offset + VkDeviceSize(e) * 16) / 4] = 1000 + e;
      VkBufferViewCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
      info.buffer = buffers.back().buffer;
      info.format = v.format;
      info.offset = v.offset;
      info.range = v.range;
      VkBufferView handle = VK_NULL_HANDLE;
      EXPECT_EQ(vkCreateBufferView(gpu.device, &info, nullptr, &handle), VK_SUCCESS);
      handles.push_back(handle);
      VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
      write.dstSet = set;
      write.dstBinding = b;
      write.descriptorCount = 1;
      write.descriptorType = v.type;
      write.pTexelBufferView = &handles.back();
      vkUpdateDescriptorSets(gpu.device, 1, &write, 0, nullptr);
   }
   auto result = gpu.buffer(32, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
   std::memset(result.words, 0xff, 32);
   gpu.write_buffer(set, 6, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, result);
   VkCommandBuffer commands = gpu.begin();
   vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.pipeline);
   vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.layout, 0, 1, &set, 0, nullptr);
   vkCmdDispatch(commands, 1, 1, 1);
   out.result = gpu.submit_and_wait(commands);
   out.sizes.assign(result.words, result.words + 8);
   for (VkBufferView h : handles)
      vkDestroyBufferView(gpu.device, h, nullptr);
   for (auto &b : buffers)
      gpu.destroy(b);
   gpu.destroy(result);
   gpu.destroy(program);
   return out;
}

void expect_sizes(const ViewSet &views)
{
   ComputeDevice &terakan = terakan_gpu(), &lavapipe = lavapipe_gpu();
   ASSERT_TRUE(terakan.ok()) << terakan.error;
   ASSERT_TRUE(lavapipe.ok()) << lavapipe.error;
   const unsigned before = terakan.validation_messages, lavapipe_before = lavapipe.validation_messages;
   const ComputeOutcome got = run_sizes(terakan, views), expected = run_sizes(lavapipe, views);
   ASSERT_EQ(got.result, VK_SUCCESS);
   ASSERT_EQ(expected.result, VK_SUCCESS);
   EXPECT_EQ(got.sizes, expected.sizes) << "against lavapipe";
   for (unsigned b = 0; b < 6; b++)
      EXPECT_EQ(got.sizes[b], views[b].elements()) << "binding " << b;
   EXPECT_EQ(got.sizes[6], 1000 + views[2].elements() - 1) << "the last element of binding 2";
   EXPECT_EQ(got.sizes[7], views[0].elements() + views[3].elements());
   EXPECT_EQ(terakan.validation_messages, before) << "validation layer messages on Terakan";
   EXPECT_EQ(lavapipe.validation_messages, lavapipe_before);
}

TEST(TexelBufferSizes, ComputeShaderWithOffsetsAndRanges)
{
   /* Explicit ranges at offsets, and VK_WHOLE_SIZE where the rest is not a whole number of
    * texels (1000 - 256 bytes = 46.5 RGBA32 texels). */
   expect_sizes({View{uniform_texel, VK_FORMAT_R8_UINT, 1, 2048, 256, 333},
                 View{uniform_texel, VK_FORMAT_R8G8B8A8_UNORM, 4, 1024, 0, VK_WHOLE_SIZE},
                 View{uniform_texel, VK_FORMAT_R32G32B32A32_UINT, 16, 1000, 256, VK_WHOLE_SIZE},
                 View{storage_texel, VK_FORMAT_R32_UINT, 4, 4096, 512, 400},
                 View{storage_texel, VK_FORMAT_R16G16B16A16_SFLOAT, 8, 3000, 768, VK_WHOLE_SIZE},
                 View{storage_texel, VK_FORMAT_R16_UINT, 2, 600, 256, 2 * 150}});
}

TEST(TexelBufferSizes, EachDispatchSeesItsOwnViews)
{
   /* The same program with other views: the counts are the bound views', not the first ones'. */
   expect_sizes({View{uniform_texel, VK_FORMAT_R8_UINT, 1, 256, 0, VK_WHOLE_SIZE},
                 View{uniform_texel, VK_FORMAT_R8G8B8A8_UNORM, 4, 4096, 1024, 4},
                 View{uniform_texel, VK_FORMAT_R32G32B32A32_UINT, 16, 16 * 700 + 256, 256, VK_WHOLE_SIZE},
                 View{storage_texel, VK_FORMAT_R32_UINT, 4, 8192, 0, VK_WHOLE_SIZE},
                 View{storage_texel, VK_FORMAT_R16G16B16A16_SFLOAT, 8, 512, 256, 8},
                 View{storage_texel, VK_FORMAT_R16_UINT, 2, 1280, 1024, VK_WHOLE_SIZE}});
}

VulkanDrawRunner &draw_terakan()
{
   static VulkanDrawRunner runner("Terakan");
   return runner;
}

VulkanDrawRunner &draw_lavapipe()
{
   static VulkanDrawRunner runner("llvmpipe");
   return runner;
}

TEST(TexelBufferSizes, VertexAndPixelShaders)
{
   /* shaders/texel_sizes.vert and .frag: bindings 2-5 read in both stages; target 0 holds the
    * pixel shader's counts (bindings 5, 4, 3, 2), target 1 the vertex shader's (2, 3, 4, 5). */
   ASSERT_TRUE(draw_terakan().available()) << draw_terakan().error();
   ASSERT_TRUE(draw_lavapipe().available()) << draw_lavapipe().error();
   const std::vector<DrawJob::TexelBuffer> cases[] = {
      {{uniform_texel, VK_FORMAT_R32_UINT, 1024, 256, VK_WHOLE_SIZE},
       {uniform_texel, VK_FORMAT_R8G8B8A8_UNORM, 2000, 512, 40 * 4},
       {storage_texel, VK_FORMAT_R32_UINT, 4096, 0, VK_WHOLE_SIZE},
       {uniform_texel, VK_FORMAT_R32G32B32A32_SFLOAT, 1000, 256, VK_WHOLE_SIZE}},
      {{uniform_texel, VK_FORMAT_R32_UINT, 4096, 1024, 12},
       {uniform_texel, VK_FORMAT_R8G8B8A8_UNORM, 300, 0, VK_WHOLE_SIZE},
       {storage_texel, VK_FORMAT_R32_UINT, 2048, 768, 4 * 77},
       {uniform_texel, VK_FORMAT_R32G32B32A32_SFLOAT, 16 * 9, 0, VK_WHOLE_SIZE}},
   };
   const unsigned texel_bytes[4] = {4, 4, 4, 16};
   for (const auto &buffers : cases) {
      DrawJob job;
      job.vertex_spirv = read_api_spirv("texel_sizes.vert");
      job.fragment_spirv = read_api_spirv("texel_sizes.frag");
      job.width = job.height = 8;
      job.vertex_count = 3;
      DrawJob::Target target;
      target.format = VK_FORMAT_R32G32B32A32_UINT;
      job.targets = {target, target};
      job.texel_buffers = buffers;
      DrawImages ours, reference;
      std::string error;
      const unsigned our_messages = draw_terakan().validation_messages();
      const unsigned their_messages = draw_lavapipe().validation_messages();
      ASSERT_TRUE(draw_terakan().run(job, ours, error)) << "Terakan: " << error;
      ASSERT_TRUE(draw_lavapipe().run(job, reference, error)) << "lavapipe: " << error;
      EXPECT_EQ(draw_terakan().validation_messages(), our_messages) << "validation messages on Terakan";
      EXPECT_EQ(draw_lavapipe().validation_messages(), their_messages) << "validation messages on lavapipe";
      ASSERT_EQ(ours.targets.size(), 2u);
      EXPECT_EQ(ours.targets, reference.targets) << "against lavapipe";
      uint32_t counts[4];
      for (unsigned b = 0; b < 4; b++) {
         const DrawJob::TexelBuffer &t = buffers[b];
         counts[b] = uint32_t((t.range == VK_WHOLE_SIZE ? t.buffer_bytes - t.offset : t.range) / texel_bytes[b]);
      }
      const uint32_t pixel_expected[4] = {counts[3], counts[2], counts[1], counts[0]};
      for (unsigned p = 0; p < 64; p += 9) {
         uint32_t pixel[4], vertex[4];
         std::memcpy(pixel, &ours.targets[0][16 * p], 16);
         std::memcpy(vertex, &ours.targets[1][16 * p], 16);
         for (unsigned c = 0; c < 4; c++) {
            EXPECT_EQ(pixel[c], pixel_expected[c]) << "pixel shader, pixel " << p << " component " << c;
            EXPECT_EQ(vertex[c], counts[c]) << "vertex shader, pixel " << p << " component " << c;
         }
      }
   }
}

} // namespace
