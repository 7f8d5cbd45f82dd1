/* textureQueryLod (OpImageQueryLod) through the driver on the simulated GPU (TERAKAN_SIM_CHIP
 * picks the chip) and on lavapipe, with the Khronos validation layer counting messages.
 *
 * One draw over a 64 x 64 RGBA32F target (shaders/lod_query.frag, the same scene as r600g's
 * `texture_query_lod` GL scene): blocks of 8 x 8 pixels whose texture coordinates change by a
 * constant amount per pixel, so that each block's λ is known exactly and is a whole number
 * (lavapipe's log2 for the query is a piecewise-linear approximation, exact at powers of two;
 * the fractions come from the samplers' biases): blocks 0-31 query a 64 x 64 2D image of 7
 * levels with λ = k % 9 - 3, the footprint isotropic, four times shorter along y, or turned by
 * 45 degrees; blocks 32-63 query a cube of 32 x 32 faces and 6 levels on face +X,
 * λ = (k - 32) % 6 - 3, isotropic or four times shorter along y. Three samplers each:
 * LINEAR/LINEAR with mipLodBias 0.25, minLod 0.5 and maxLod 4.5; NEAREST/NEAREST with
 * mipLodBias 0.625; and one clamped to level 0 (maxLod 0.25; its level must be 0); odd 2D
 * blocks and half the cube blocks query the first sampler through a 2D-array or cube-array
 * view of the same image instead (the query's coordinates have no layer). Every
 * pixel's four values (the first sampler's level and λ, the second's level and λ) must equal
 * lavapipe's within 0.001 and the values computed here from the specification's rules. */
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "../vulkan_helpers.h"
#include "session.h"

namespace {

using namespace terakan::test;

constexpr uint32_t target = 64;

struct MessageCount {
   unsigned messages = 0;
};

class LodRenderer : private MessageCount, public Session {
public:
   explicit LodRenderer(const char *name)
   {
      SessionOptions options;
      options.application = "terakan-api-lod-queries";
      options.features.imageCubeArray = VK_TRUE;
      if (!open(name, messages, error_, options))
         return;
      ready_ = make_objects();
   }
   ~LodRenderer() override { release(); }

   bool ready() const { return ready_; }
   const std::string &error() const { return error_; }
   unsigned validation_messages() const { return messages; }

   /* Four floats per pixel, rows in the target's order; empty with error() set on failure. */
   std::vector<float> draw();

private:
   bool make_objects();
   VkImageView sampled(VkImageViewType type, VkImageViewType array_type, uint32_t size, uint32_t levels,
                       uint32_t layers, VkImageView &array_view);
   VkSampler sampler(VkFilter filter, VkSamplerMipmapMode mip, float min_lod, float max_lod, float bias);

   bool ready_ = false;
   std::string error_;
   VkImageView views[4] = {}; /* 2D, cube, then the same images as a 2D array and a cube array */
   VkSampler samplers[3] = {};
   VkImage target_image = VK_NULL_HANDLE;
   VkRenderPass pass = VK_NULL_HANDLE;
   VkFramebuffer framebuffer = VK_NULL_HANDLE;
   VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
   VkPipelineLayout pipeline_layout = VK_NULL_HANDLE;
   VkPipeline pipeline = VK_NULL_HANDLE;
   VkDescriptorPool descriptor_pool = VK_NULL_HANDLE;
   VkBuffer readback = VK_NULL_HANDLE;
   void *readback_map = nullptr;
};

/* An image whose texels are never read (a level-of-detail query reads none), made ready for
 * sampling, with a view of `type` and one of `array_type`. */
VkImageView LodRenderer::sampled(VkImageViewType type, VkImageViewType array_type, uint32_t size, uint32_t levels,
                                 uint32_t layers, VkImageView &array_view)
{
   VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
   info.flags = type == VK_IMAGE_VIEW_TYPE_CUBE ? VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT : 0;
   info.imageType = VK_IMAGE_TYPE_2D;
   info.format = VK_FORMAT_R8G8B8A8_UNORM;
   info.extent = {size, size, 1};
   info.mipLevels = levels;
   info.arrayLayers = layers;
   info.samples = VK_SAMPLE_COUNT_1_BIT;
   info.tiling = VK_IMAGE_TILING_OPTIMAL;
   info.usage = VK_IMAGE_USAGE_SAMPLED_BIT;
   const VkImage made = image(info);
   if (!made)
      return VK_NULL_HANDLE;
   const VkCommandBuffer commands = begin();
   VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
   barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
   barrier.image = made;
   barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, levels, 0, layers};
   barrier.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
   barrier.newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
   barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
   vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, 0, 0,
                        nullptr, 0, nullptr, 1, &barrier);
   if (submit_and_wait(commands) != VK_SUCCESS)
      return VK_NULL_HANDLE;
   array_view = view(made, array_type, VK_FORMAT_R8G8B8A8_UNORM, {VK_IMAGE_ASPECT_COLOR_BIT, 0, levels, 0, layers});
   return view(made, type, VK_FORMAT_R8G8B8A8_UNORM, {VK_IMAGE_ASPECT_COLOR_BIT, 0, levels, 0, layers});
}

VkSampler LodRenderer::sampler(VkFilter filter, VkSamplerMipmapMode mip, float min_lod, float max_lod, float bias)
{
   VkSamplerCreateInfo info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
   info.magFilter = info.minFilter = filter;
   info.mipmapMode = mip;
   info.addressModeU = info.addressModeV = info.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
   info.minLod = min_lod;
   info.maxLod = max_lod;
   info.mipLodBias = bias;
   VkSampler made = VK_NULL_HANDLE;
   if (vkCreateSampler(device, &info, nullptr, &made) != VK_SUCCESS)
      return VK_NULL_HANDLE;
   later([this, made] { vkDestroySampler(device, made, nullptr); });
   return made;
}

bool LodRenderer::make_objects()
{
   views[0] = sampled(VK_IMAGE_VIEW_TYPE_2D, VK_IMAGE_VIEW_TYPE_2D_ARRAY, 64, 7, 1, views[2]);
   views[1] = sampled(VK_IMAGE_VIEW_TYPE_CUBE, VK_IMAGE_VIEW_TYPE_CUBE_ARRAY, 32, 6, 6, views[3]);
   samplers[0] = sampler(VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_LINEAR, 0.5f, 4.5f, 0.25f);
   samplers[1] = sampler(VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_NEAREST, 0.0f, VK_LOD_CLAMP_NONE, 0.625f);
   samplers[2] = sampler(VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_NEAREST, 0.0f, 0.25f, 0.0f);
   if (!views[0] || !views[1] || !views[2] || !views[3] || !samplers[0] || !samplers[1] || !samplers[2]) {
      error_ = "the images or samplers could not be made";
      return false;
   }
   VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
   info.imageType = VK_IMAGE_TYPE_2D;
   info.format = VK_FORMAT_R32G32B32A32_SFLOAT;
   info.extent = {target, target, 1};
   info.mipLevels = info.arrayLayers = 1;
   info.samples = VK_SAMPLE_COUNT_1_BIT;
   info.tiling = VK_IMAGE_TILING_OPTIMAL;
   info.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
   target_image = image(info);
   if (!target_image)
      return false;
   VkImageView target_view =
      view(target_image, VK_IMAGE_VIEW_TYPE_2D, info.format, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1});

   const bool made = terakan::test::create_colour_pass(device, info.format, target_view, target, target, pass, framebuffer);
   later([this] {
      vkDestroyFramebuffer(device, framebuffer, nullptr);
      vkDestroyRenderPass(device, pass, nullptr);
   });
   if (!made)
      return false;

   VkDescriptorSetLayoutBinding bindings[8];
   for (uint32_t b = 0; b < 8; b++)
      bindings[b] = {b, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr};
   VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
   set_info.bindingCount = 8;
   set_info.pBindings = bindings;
   if (vkCreateDescriptorSetLayout(device, &set_info, nullptr, &set_layout) != VK_SUCCESS)
      return false;
   later([this] { vkDestroyDescriptorSetLayout(device, set_layout, nullptr); });
   VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
   layout_info.setLayoutCount = 1;
   layout_info.pSetLayouts = &set_layout;
   if (vkCreatePipelineLayout(device, &layout_info, nullptr, &pipeline_layout) != VK_SUCCESS)
      return false;
   later([this] { vkDestroyPipelineLayout(device, pipeline_layout, nullptr); });
   const VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 8};
   VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
   pool_info.maxSets = 1;
   pool_info.poolSizeCount = 1;
   pool_info.pPoolSizes = &pool_size;
   if (vkCreateDescriptorPool(device, &pool_info, nullptr, &descriptor_pool) != VK_SUCCESS)
      return false;
   later([this] { vkDestroyDescriptorPool(device, descriptor_pool, nullptr); });

   const VkShaderModule vertex_module = module("subpass_fullscreen.vert");
   const VkShaderModule fragment_module = module("lod_query.frag");
   if (!vertex_module || !fragment_module) {
      error_ = "the lod_query shaders could not be read";
      return false;
   }
   terakan::test::BasicPipeline basic;
   basic.vertex = vertex_module;
   basic.fragment = fragment_module;
   basic.viewport_extent = {target, target};
   basic.layout = pipeline_layout;
   basic.pass = pass;
   if (terakan::test::create_basic_pipeline(device, basic, pipeline) != VK_SUCCESS) {
      error_ = "the pipeline was refused";
      return false;
   }
   later([this] { vkDestroyPipeline(device, pipeline, nullptr); });
   readback = buffer(size_t(target) * target * 16, VK_BUFFER_USAGE_TRANSFER_DST_BIT, readback_map);
   return readback != VK_NULL_HANDLE;
}

std::vector<float> LodRenderer::draw()
{
   VkDescriptorSetAllocateInfo allocate{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
   allocate.descriptorPool = descriptor_pool;
   allocate.descriptorSetCount = 1;
   allocate.pSetLayouts = &set_layout;
   VkDescriptorSet set = VK_NULL_HANDLE;
   if (vkAllocateDescriptorSets(device, &allocate, &set) != VK_SUCCESS) {
      error_ = "no descriptor set";
      return {};
   }
   VkDescriptorImageInfo images[8];
   VkWriteDescriptorSet writes[8];
   for (uint32_t b = 0; b < 8; b++) {
      /* Bindings 0-5: the three samplers on the 2D image, then on the cube; 6 and 7: the first
       * sampler on the array views. */
      images[b] = {samplers[b < 6 ? b % 3 : 0], views[b < 6 ? b / 3 : b - 4], VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
      writes[b] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
      writes[b].dstSet = set;
      writes[b].dstBinding = b;
      writes[b].descriptorCount = 1;
      writes[b].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
      writes[b].pImageInfo = &images[b];
   }
   vkUpdateDescriptorSets(device, 8, writes, 0, nullptr);

   const VkCommandBuffer commands = begin();
   VkClearValue clear{};
   clear.color = {{-100.0f, -100.0f, -100.0f, -100.0f}};
   VkRenderPassBeginInfo pass_begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
   pass_begin.renderPass = pass;
   pass_begin.framebuffer = framebuffer;
   pass_begin.renderArea = {{0, 0}, {target, target}};
   pass_begin.clearValueCount = 1;
   pass_begin.pClearValues = &clear;
   vkCmdBeginRenderPass(commands, &pass_begin, VK_SUBPASS_CONTENTS_INLINE);
   vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
   vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_layout, 0, 1, &set, 0, nullptr);
   vkCmdDraw(commands, 3, 1, 0, 0);
   vkCmdEndRenderPass(commands);
   VkBufferImageCopy region{};
   region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
   region.imageExtent = {target, target, 1};
   vkCmdCopyImageToBuffer(commands, target_image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1, &region);
   VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
   to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
   to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
   vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0,
                        nullptr, 0, nullptr);
   if (submit_and_wait(commands) != VK_SUCCESS) {
      error_ = "the draw's submission failed";
      return {};
   }
   const float *values = static_cast<const float *>(readback_map);
   return std::vector<float>(values, values + size_t(target) * target * 4);
}

/* What the specification gives for block k: the first sampler's level (λ + 0.25 clamped to
 * minLod 0.5 .. maxLod 4.5, then to the levels) and λ + 0.25, the second's nearest level
 * (λ + 0.625 clamped to the levels, rounded as ceil(d + 0.5) - 1) and λ + 0.625. */
std::array<float, 4> expected(unsigned k)
{
   const bool cube = k >= 32;
   const double lambda = cube ? double((k - 32) % 6) - 3.0 : double(k % 9) - 3.0;
   const double last_level = cube ? 5.0 : 6.0;
   const double linear = lambda + 0.25, nearest = lambda + 0.625;
   const double linear_level = std::clamp(std::clamp(linear, 0.5, 4.5), 0.0, last_level);
   const double nearest_level = std::ceil(std::clamp(nearest, 0.0, last_level) + 0.5) - 1.0;
   return {float(linear_level), float(linear), float(nearest_level), float(nearest)};
}

class LodQueries : public ::testing::Test {
protected:
   static LodRenderer &terakan_gpu()
   {
      static LodRenderer renderer("Terakan");
      return renderer;
   }
   static LodRenderer &lavapipe()
   {
      static LodRenderer renderer("llvmpipe");
      return renderer;
   }
   static void SetUpTestSuite()
   {
      ASSERT_TRUE(terakan_gpu().ready()) << terakan_gpu().error();
      ASSERT_TRUE(lavapipe().ready()) << lavapipe().error();
   }
   void TearDown() override
   {
      EXPECT_EQ(terakan_gpu().validation_messages(), 0u) << "validation messages on Terakan";
      EXPECT_EQ(lavapipe().validation_messages(), 0u) << "validation messages on lavapipe";
   }
};

TEST_F(LodQueries, LevelsAndLambdasOfTwoDimensionalAndCubeImages)
{
   const std::vector<float> ours = terakan_gpu().draw();
   ASSERT_FALSE(ours.empty()) << terakan_gpu().error();
   const std::vector<float> reference = lavapipe().draw();
   ASSERT_FALSE(reference.empty()) << lavapipe().error();
   unsigned against_lavapipe = 0, against_specification = 0;
   for (uint32_t y = 0; y < target; y++)
      for (uint32_t x = 0; x < target; x++) {
         const unsigned k = (x / 8) % 8 + 8 * ((y / 8) % 8);
         const std::array<float, 4> want = expected(k);
         for (unsigned c = 0; c < 4; c++) {
            const size_t i = (size_t(y) * target + x) * 4 + c;
            /* The nearest level is a whole number: exact; the others within 0.001. */
            const float tolerance = c == 2 ? 0.0f : 0.001f;
            if (std::fabs(ours[i] - reference[i]) > tolerance && against_lavapipe++ < 8)
               ADD_FAILURE() << "pixel (" << x << ", " << y << ") block " << k << " value " << c << ": Terakan "
                             << ours[i] << ", lavapipe " << reference[i];
            if (std::fabs(ours[i] - want[c]) > tolerance && against_specification++ < 8)
               ADD_FAILURE() << "pixel (" << x << ", " << y << ") block " << k << " value " << c << ": Terakan "
                             << ours[i] << ", the specification " << want[c];
         }
      }
   EXPECT_EQ(against_lavapipe, 0u) << "values differing from lavapipe's";
   EXPECT_EQ(against_specification, 0u) << "values differing from the specification's";
}

} // namespace
