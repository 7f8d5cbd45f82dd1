/* Sampled images and samplers in compute shaders, on Terakan (the simulated GPU of
 * TERAKAN_SIM_CHIP) against lavapipe, with the validation layer on: unnormalized samplers bound
 * normally and rebound between dispatches, immutable ones, a dynamically indexed array, mixed
 * in one shader with normalized samplers on the same image; image dimensions, levels, texel
 * loads, size queries and formats.
 *
 * Filtered results are rounded to 8 bits in the shaders and the texels are multiples of 64
 * with coordinates whose filter weights are multiples of 1/8, so every filtered value is an
 * exact k/255 and the comparison is exact without depending on the order of operations.
 *
 * The variant test reads the driver's TERAKAN_DEBUG=variants report from stderr: a chip
 * without FORCE_UNNORMALIZED must make program variants, Cayman must not. */
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include "compute_device.h"

using namespace terakan::test;

namespace {

using Scenario = std::function<std::vector<uint32_t>(ComputeDevice &)>;

/* `adjust` may rewrite lavapipe's words before the comparison (see MixedInOneShader). */
/* `tolerance(word)`: how far that word may be from lavapipe's (0 unless a test says why). */
void expect_same_as_lavapipe(const Scenario &scenario,
                             const std::function<void(std::vector<uint32_t> &)> &adjust = {},
                             const std::function<uint32_t(size_t)> &tolerance = {})
{
   ComputeDevice &terakan = terakan_gpu();
   ComputeDevice &lavapipe = lavapipe_gpu();
   ASSERT_TRUE(terakan.ok()) << terakan.error;
   ASSERT_TRUE(lavapipe.ok()) << lavapipe.error;
   const unsigned before = terakan.validation_messages, lavapipe_before = lavapipe.validation_messages;
   const std::vector<uint32_t> got = scenario(terakan);
   std::vector<uint32_t> expected = scenario(lavapipe);
   ASSERT_FALSE(expected.empty());
   if (adjust)
      adjust(expected);
   ASSERT_EQ(got.size(), expected.size());
   unsigned mismatches = 0;
   for (size_t i = 0; i < expected.size(); i++) {
      const uint32_t allowed = tolerance ? tolerance(i) : 0;
      const uint32_t difference = got[i] > expected[i] ? got[i] - expected[i] : expected[i] - got[i];
      if (difference > allowed && ++mismatches <= 12)
         ADD_FAILURE() << "word " << i << " (uvec4 " << i / 4 << "." << "xyzw"[i % 4]
                       << "): lavapipe 0x" << std::hex << expected[i] << ", terakan 0x" << got[i];
   }
   EXPECT_EQ(mismatches, 0u);
   EXPECT_EQ(terakan.validation_messages, before) << "validation layer messages on Terakan";
   EXPECT_EQ(lavapipe.validation_messages, lavapipe_before);
}

/* RGBA8 texels from {0, 64, 128, 192}, different per position. */
std::vector<uint8_t> coarse_texels(size_t count, uint32_t seed)
{
   std::vector<uint8_t> bytes(count * 4);
   uint32_t x = seed * 2654435761u + 12345u;
   for (uint8_t &b : bytes) {
      x ^= x << 13;
      x ^= x >> 17;
      x ^= x << 5;
      b = uint8_t((x >> 7) & 3) * 64;
   }
   return bytes;
}

struct Push {
   float scale[2];
   float offset[2];
   uint32_t slot;
   uint32_t which;
   uint32_t pad[2];
};

VkDescriptorSetLayoutBinding binding(uint32_t number, VkDescriptorType type, uint32_t count = 1,
                                     const VkSampler *immutable = nullptr)
{
   return {number, type, count, VK_SHADER_STAGE_COMPUTE_BIT, immutable};
}

std::vector<uint32_t> read_back(ComputeDevice::Buffer &b)
{
   return std::vector<uint32_t>(b.words, b.words + b.size / 4);
}

/* One dispatch of one group with `set` (and push constants), then `out`'s words. */
std::vector<uint32_t> dispatch_once(ComputeDevice &gpu, const ComputeDevice::Program &program,
                                    VkDescriptorSet set, ComputeDevice::Buffer &out,
                                    const void *push = nullptr, uint32_t push_bytes = 0)
{
   VkCommandBuffer commands = gpu.begin();
   vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.pipeline);
   vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.layout, 0, 1, &set, 0, nullptr);
   if (push_bytes)
      vkCmdPushConstants(commands, program.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes, push);
   vkCmdDispatch(commands, 1, 1, 1);
   ComputeDevice::barrier(commands);
   EXPECT_EQ(gpu.submit_and_wait(commands), VK_SUCCESS);
   return read_back(out);
}

/* Samplers a scenario uses, destroyed with it. */
struct Samplers {
   ComputeDevice &gpu;
   std::vector<VkSampler> list;
   VkSampler make(VkFilter filter, VkSamplerAddressMode mode, bool unnormalized,
                  VkBorderColor border = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK)
   {
      list.push_back(gpu.sampler(filter, mode, unnormalized, VK_SAMPLER_MIPMAP_MODE_NEAREST, 0.0f, border));
      return list.back();
   }
   ~Samplers()
   {
      for (VkSampler s : list)
         vkDestroySampler(gpu.device, s, nullptr);
   }
};

std::vector<uint32_t> bound_and_rebound(ComputeDevice &gpu)
{
   Samplers samplers{gpu};
   auto out = gpu.buffer(7 * 64 * 16);
   std::memset(out.words, 0xee, out.size);
   auto image = gpu.image(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, {16, 16, 1}, 1, 1,
                          coarse_texels(256, 1), 4);
   VkImageView view = gpu.view(image, VK_IMAGE_VIEW_TYPE_2D);
   auto program = gpu.program_with_bindings(
      read_spirv("sample_bound"),
      {{binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER), binding(1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER)}},
      sizeof(Push));
   struct Step {
      VkSampler sampler;
      Push push;
   };
   const Step steps[] = {
      {samplers.make(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_REPEAT, false), {{0.5f, 0.5f}, {0.125f, 0.125f}, 0}},
      {samplers.make(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, true), {{2.0f, 1.5f}, {0.25f, -1.0f}, 1}},
      {samplers.make(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT, false), {{0.5f, 0.25f}, {0.125f, -0.5f}, 2}},
      {samplers.make(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER, true,
                     VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE), {{2.5f, 2.5f}, {-2.375f, -0.875f}, 3}},
      {samplers.make(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, true), {{1.75f, 2.25f}, {0.875f, 0.625f}, 4}},
      {samplers.make(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER, false,
                     VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK), {{0.25f, 0.125f}, {-0.5f, 0.5f}, 5}},
      /* VK_KHR_sampler_mirror_clamp_to_edge (MIRROR_ONCE_LAST_TEXEL): mirrored once around 0,
       * then clamped, over coordinates from -1.5 to 1.5 with bilinear filtering. */
      {samplers.make(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE, false),
       {{0.375f, 0.4f}, {-1.5f, -1.3f}, 6}},
   };
   VkCommandBuffer commands = gpu.begin();
   vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.pipeline);
   for (const Step &step : steps) {
      VkDescriptorSet set = gpu.allocate_set(program, 0);
      gpu.write_buffer(set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, out);
      gpu.write_image(set, 1, 0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, view, step.sampler);
      vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.layout, 0, 1, &set, 0, nullptr);
      vkCmdPushConstants(commands, program.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(Push), &step.push);
      vkCmdDispatch(commands, 1, 1, 1);
   }
   ComputeDevice::barrier(commands);
   EXPECT_EQ(gpu.submit_and_wait(commands), VK_SUCCESS);
   std::vector<uint32_t> words = read_back(out);
   gpu.destroy(program);
   vkDestroyImageView(gpu.device, view, nullptr);
   gpu.destroy(image);
   gpu.destroy(out);
   return words;
}

std::vector<uint32_t> mixed_in_one_shader(ComputeDevice &gpu)
{
   Samplers samplers{gpu};
   auto out = gpu.buffer(4 * 256 * 16);
   std::memset(out.words, 0xee, out.size);
   auto image = gpu.image(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, {16, 8, 1}, 1, 1,
                          coarse_texels(128, 2), 4);
   VkImageView view = gpu.view(image, VK_IMAGE_VIEW_TYPE_2D);
   VkSampler fixed_unnormalized = samplers.make(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, true);
   VkSampler fixed_normalized = samplers.make(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_REPEAT, false);
   VkSampler normalized = samplers.make(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_REPEAT, false);
   VkSampler unnormalized = samplers.make(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, true);
   VkSampler mirrored = samplers.make(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT, false);
   auto program = gpu.program_with_bindings(
      read_spirv("sample_mixed"),
      {{binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER), binding(1, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE),
        binding(2, VK_DESCRIPTOR_TYPE_SAMPLER),
        binding(3, VK_DESCRIPTOR_TYPE_SAMPLER, 1, &fixed_unnormalized),
        binding(4, VK_DESCRIPTOR_TYPE_SAMPLER, 1, &fixed_normalized),
        binding(5, VK_DESCRIPTOR_TYPE_SAMPLER, 3)}},
      sizeof(Push));
   struct Step {
      VkSampler plain;
      VkSampler many[3];
      Push push;
   };
   /* many[which] is always the sampler `plain` holds (see the test). */
   const Step steps[] = {
      {normalized, {normalized, unnormalized, mirrored}, {{0.5f, 0.5f}, {0.125f, 0.125f}, 0, 0}},
      {unnormalized, {normalized, unnormalized, mirrored}, {{0.5f, 0.5f}, {0.125f, 0.125f}, 1, 1}},
      {mirrored, {unnormalized, normalized, mirrored}, {{1.5f, 0.75f}, {-0.25f, 0.375f}, 2, 2}},
      {unnormalized, {unnormalized, normalized, unnormalized}, {{1.5f, 0.75f}, {-0.25f, 0.375f}, 3, 0}},
   };
   VkCommandBuffer commands = gpu.begin();
   vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.pipeline);
   for (const Step &step : steps) {
      VkDescriptorSet set = gpu.allocate_set(program, 0);
      gpu.write_buffer(set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, out);
      gpu.write_image(set, 1, 0, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, view, VK_NULL_HANDLE);
      gpu.write_image(set, 2, 0, VK_DESCRIPTOR_TYPE_SAMPLER, VK_NULL_HANDLE, step.plain);
      for (uint32_t e = 0; e < 3; e++)
         gpu.write_image(set, 5, e, VK_DESCRIPTOR_TYPE_SAMPLER, VK_NULL_HANDLE, step.many[e]);
      vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.layout, 0, 1, &set, 0, nullptr);
      vkCmdPushConstants(commands, program.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(Push), &step.push);
      vkCmdDispatch(commands, 1, 1, 1);
   }
   ComputeDevice::barrier(commands);
   EXPECT_EQ(gpu.submit_and_wait(commands), VK_SUCCESS);
   std::vector<uint32_t> words = read_back(out);
   gpu.destroy(program);
   vkDestroyImageView(gpu.device, view, nullptr);
   gpu.destroy(image);
   gpu.destroy(out);
   return words;
}

std::vector<uint32_t> dimensions_levels_and_fetches(ComputeDevice &gpu)
{
   auto out = gpu.buffer(64 * 9 * 16);
   std::memset(out.words, 0xee, out.size);
   auto line = gpu.image(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_1D, {16, 1, 1}, 1, 1, coarse_texels(16, 3), 4);
   auto layers = gpu.image(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, {8, 8, 1}, 4, 1, coarse_texels(256, 4), 4);
   auto volume = gpu.image(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_3D, {8, 8, 4}, 1, 1, coarse_texels(256, 5), 4);
   /* 16x16 with 5 levels: 256 + 64 + 16 + 4 + 1 texels. */
   auto mips = gpu.image(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, {16, 16, 1}, 1, 5, coarse_texels(341, 6), 4);
   VkImageView views[] = {gpu.view(line, VK_IMAGE_VIEW_TYPE_1D), gpu.view(layers, VK_IMAGE_VIEW_TYPE_2D_ARRAY),
                          gpu.view(volume, VK_IMAGE_VIEW_TYPE_3D), gpu.view(mips, VK_IMAGE_VIEW_TYPE_2D)};
   VkSampler linear = gpu.sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_REPEAT, false);
   VkSampler nearest = gpu.sampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, false);
   VkSampler mipmapped = gpu.sampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT, false,
                                     VK_SAMPLER_MIPMAP_MODE_NEAREST, 4.0f);
   auto program = gpu.program_with_bindings(
      read_spirv("sample_views"),
      {{binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER), binding(1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER),
        binding(2, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER), binding(3, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER),
        binding(4, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER)}},
      20);
   VkDescriptorSet set = gpu.allocate_set(program, 0);
   gpu.write_buffer(set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, out);
   gpu.write_image(set, 1, 0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, views[0], linear);
   gpu.write_image(set, 2, 0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, views[1], nearest);
   gpu.write_image(set, 3, 0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, views[2], nearest);
   gpu.write_image(set, 4, 0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, views[3], mipmapped);
   const float push[5] = {0.125f, 0.125f, 0.0625f, 0.0625f, 0.2f};
   std::vector<uint32_t> words = dispatch_once(gpu, program, set, out, push, sizeof(push));
   gpu.destroy(program);
   for (VkImageView v : views)
      vkDestroyImageView(gpu.device, v, nullptr);
   for (VkSampler s : {linear, nearest, mipmapped})
      vkDestroySampler(gpu.device, s, nullptr);
   for (auto *image : {&line, &layers, &volume, &mips})
      gpu.destroy(*image);
   gpu.destroy(out);
   return words;
}

/* Exactly representable, finite half floats (bits) from a seed. */
std::vector<uint8_t> half_texels(size_t count, uint32_t seed)
{
   std::vector<uint8_t> bytes(count * 8);
   uint32_t x = seed * 747796405u + 1u;
   for (size_t i = 0; i < count * 4; i++) {
      x = x * 1664525u + 1013904223u;
      /* exponent between 1 and 15: finite and normal (denormal handling is not compared) */
      uint16_t h = uint16_t(((x >> 16) & 0xbfff) | 0x0400);
      std::memcpy(&bytes[i * 2], &h, 2);
   }
   return bytes;
}

std::vector<uint8_t> float_texels(size_t count, unsigned channels, uint32_t seed)
{
   std::vector<uint8_t> bytes(count * channels * 4);
   uint32_t x = seed * 2891336453u + 7u;
   for (size_t i = 0; i < count * channels; i++) {
      x = x * 1664525u + 1013904223u;
      const float f = float(int32_t(x)) / 65536.0f;
      std::memcpy(&bytes[i * 4], &f, 4);
   }
   return bytes;
}

std::vector<uint32_t> format_decoding(ComputeDevice &gpu)
{
   auto out = gpu.buffer(16 * 12 * 16);
   std::memset(out.words, 0xee, out.size);
   std::vector<uint8_t> r8(16);
   for (size_t i = 0; i < r8.size(); i++)
      r8[i] = uint8_t(i * 37 + 11);
   std::vector<uint8_t> srgb(64);
   for (size_t i = 0; i < srgb.size(); i++)
      srgb[i] = uint8_t(i * 53 + 3);
   std::vector<uint8_t> integers(64);
   for (size_t i = 0; i < integers.size(); i++)
      integers[i] = uint8_t(i * 101 + 7);
   ComputeDevice::Image images[] = {
      gpu.image(VK_FORMAT_R8G8B8A8_SRGB, VK_IMAGE_TYPE_2D, {4, 4, 1}, 1, 1, srgb, 4),
      gpu.image(VK_FORMAT_R8_UNORM, VK_IMAGE_TYPE_2D, {4, 4, 1}, 1, 1, r8, 1),
      gpu.image(VK_FORMAT_R16G16B16A16_SFLOAT, VK_IMAGE_TYPE_2D, {4, 4, 1}, 1, 1, half_texels(16, 8), 8),
      gpu.image(VK_FORMAT_R32G32B32A32_SFLOAT, VK_IMAGE_TYPE_2D, {4, 4, 1}, 1, 1, float_texels(16, 4, 9), 16),
      gpu.image(VK_FORMAT_R32_SFLOAT, VK_IMAGE_TYPE_2D, {4, 4, 1}, 1, 1, float_texels(16, 1, 10), 4),
      gpu.image(VK_FORMAT_R32_UINT, VK_IMAGE_TYPE_2D, {4, 4, 1}, 1, 1, integers, 4),
   };
   std::vector<VkImageView> views;
   for (auto &image : images)
      views.push_back(gpu.view(image, VK_IMAGE_VIEW_TYPE_2D));
   VkSampler nearest = gpu.sampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_REPEAT, false);
   auto program = gpu.program_with_bindings(
      read_spirv("sample_formats"),
      {{binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER), binding(1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 2),
        binding(2, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 2), binding(3, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER),
        binding(4, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER)}},
      0);
   VkDescriptorSet set = gpu.allocate_set(program, 0);
   gpu.write_buffer(set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, out);
   const uint32_t where[][2] = {{1, 0}, {1, 1}, {2, 0}, {2, 1}, {3, 0}, {4, 0}};
   for (size_t i = 0; i < views.size(); i++)
      gpu.write_image(set, where[i][0], where[i][1], VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, views[i], nearest);
   std::vector<uint32_t> words = dispatch_once(gpu, program, set, out);
   gpu.destroy(program);
   for (VkImageView v : views)
      vkDestroyImageView(gpu.device, v, nullptr);
   vkDestroySampler(gpu.device, nearest, nullptr);
   for (auto &image : images)
      gpu.destroy(image);
   gpu.destroy(out);
   return words;
}

std::vector<uint32_t> texel_buffers(ComputeDevice &gpu)
{
   auto out = gpu.buffer(64 * 5 * 16);
   std::memset(out.words, 0xee, out.size);
   /* One buffer, five views at 256-byte aligned offsets. */
   auto data = gpu.buffer(5 * 2048, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT);
   auto *bytes = reinterpret_cast<uint8_t *>(data.words);
   const std::vector<uint8_t> floats = float_texels(64, 1, 11), halves = half_texels(64, 12);
   std::memcpy(bytes, floats.data(), 256);
   for (unsigned i = 0; i < 256; i++)
      bytes[2048 + i] = uint8_t(i * 29 + 5);
   std::memcpy(bytes + 4096, halves.data(), 256); /* 64 RG16F texels */
   for (unsigned i = 0; i < 128; i++)
      data.words[6144 / 4 + i] = i * 2654435761u;
   for (unsigned i = 0; i < 64; i++)
      bytes[8192 + i] = uint8_t(i * 37 + 100);
   const struct {
      VkFormat format;
      VkDeviceSize offset, range;
   } views_info[] = {
      {VK_FORMAT_R32_SFLOAT, 0, 256},          {VK_FORMAT_R8G8B8A8_UNORM, 2048, 256},
      {VK_FORMAT_R16G16_SFLOAT, 4096, 256},    {VK_FORMAT_R32G32B32A32_UINT, 6144, 512},
      {VK_FORMAT_R8_SINT, 8192, VK_WHOLE_SIZE},
   };
   std::vector<VkBufferView> views;
   for (const auto &v : views_info) {
      VkBufferViewCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
      info.buffer = data.buffer;
      info.format = v.format;
      info.offset = v.offset;
      info.range = v.range;
      VkBufferView view = VK_NULL_HANDLE;
      EXPECT_EQ(vkCreateBufferView(gpu.device, &info, nullptr, &view), VK_SUCCESS);
      views.push_back(view);
   }
   std::vector<VkDescriptorSetLayoutBinding> bindings = {binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER)};
   for (uint32_t b = 1; b <= 5; b++)
      bindings.push_back(binding(b, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER));
   auto program = gpu.program_with_bindings(read_spirv("sample_texel_buffers"), {bindings}, 0);
   VkDescriptorSet set = gpu.allocate_set(program, 0);
   gpu.write_buffer(set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, out);
   for (uint32_t b = 1; b <= 5; b++) {
      VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
      write.dstSet = set;
      write.dstBinding = b;
      write.descriptorCount = 1;
      write.descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
      write.pTexelBufferView = &views[b - 1];
      vkUpdateDescriptorSets(gpu.device, 1, &write, 0, nullptr);
   }
   std::vector<uint32_t> words = dispatch_once(gpu, program, set, out);
   gpu.destroy(program);
   for (VkBufferView v : views)
      vkDestroyBufferView(gpu.device, v, nullptr);
   gpu.destroy(data);
   gpu.destroy(out);
   return words;
}

/* Random bytes: every bit pattern is a value of the integer and normalized formats fetched
 * here. */
std::vector<uint8_t> random_bytes(size_t count, uint32_t seed)
{
   std::vector<uint8_t> bytes(count);
   uint32_t x = seed * 2654435761u + 17u;
   for (uint8_t &b : bytes) {
      x = x * 1664525u + 1013904223u;
      b = uint8_t(x >> 24);
   }
   return bytes;
}

/* The integer formats Vulkan requires as sampled images and the formats it requires as
 * uniform texel buffers: 256 texels of random bytes, each fetched (fetch_texels.comp) from a
 * 16x16 image or a texel buffer of the format, results as raw bits. `kind` is the shader's
 * numeric type: 0 float, 1 uint, 2 sint. */
std::vector<uint32_t> fetched_texels(ComputeDevice &gpu, VkFormat format, unsigned bytes_per_texel, unsigned kind,
                                     bool buffer)
{
   std::vector<uint8_t> texels = random_bytes(256 * bytes_per_texel, uint32_t(format) + (buffer ? 1000 : 0));
   /* B10G11R11: the top exponent bit of each field cleared (no Inf or NaN, whose bits two
    * implementations may spell differently). */
   if (format == VK_FORMAT_B10G11R11_UFLOAT_PACK32)
      for (size_t i = 0; i + 4 <= texels.size(); i += 4) {
         uint32_t word;
         std::memcpy(&word, &texels[i], 4);
         word &= ~((1u << 10) | (1u << 21) | (1u << 31));
         std::memcpy(&texels[i], &word, 4);
      }
   auto out = gpu.buffer(256 * 16);
   std::memset(out.words, 0xee, out.size);
   const VkDescriptorType type =
      buffer ? VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER : VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
   auto program = gpu.program_with_bindings(
      read_spirv(std::string("fetch_texels_") + (buffer ? "buffer_" : "image_") + std::to_string(kind)),
      {{binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER), binding(1, type)}}, 0);
   VkDescriptorSet set = gpu.allocate_set(program, 0);
   gpu.write_buffer(set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, out);
   std::vector<uint32_t> words;
   if (buffer) {
      auto data = gpu.buffer(texels.size(), VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT);
      std::memcpy(data.words, texels.data(), texels.size());
      VkBufferViewCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
      info.buffer = data.buffer;
      info.format = format;
      info.range = VK_WHOLE_SIZE;
      VkBufferView view = VK_NULL_HANDLE;
      EXPECT_EQ(vkCreateBufferView(gpu.device, &info, nullptr, &view), VK_SUCCESS);
      VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
      write.dstSet = set;
      write.dstBinding = 1;
      write.descriptorCount = 1;
      write.descriptorType = type;
      write.pTexelBufferView = &view;
      vkUpdateDescriptorSets(gpu.device, 1, &write, 0, nullptr);
      words = dispatch_once(gpu, program, set, out);
      vkDestroyBufferView(gpu.device, view, nullptr);
      gpu.destroy(data);
   } else {
      ComputeDevice::Image image = gpu.image(format, VK_IMAGE_TYPE_2D, {16, 16, 1}, 1, 1, texels, bytes_per_texel);
      VkImageView view = gpu.view(image, VK_IMAGE_VIEW_TYPE_2D);
      VkSampler nearest = gpu.sampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_REPEAT, false);
      gpu.write_image(set, 1, 0, type, view, nearest);
      words = dispatch_once(gpu, program, set, out);
      vkDestroySampler(gpu.device, nearest, nullptr);
      vkDestroyImageView(gpu.device, view, nullptr);
      gpu.destroy(image);
   }
   gpu.destroy(program);
   gpu.destroy(out);
   return words;
}

struct FetchedFormat {
   VkFormat format;
   unsigned bytes, kind;
   uint32_t tolerance = 0; /* per word: normalized values as float bits, in ulps */
};

/* A cube image of `layers` 4x4 layers (one cube, or a cube array) sampled through `shader`
 * (sample_cube.comp or sample_cube_array.comp: binding 1 nearest, binding 2 linear), 64
 * invocations writing `words_each` uvec4s. */
std::vector<uint32_t> cube_scene(ComputeDevice &gpu, const char *shader, uint32_t layers, VkImageViewType type,
                                 unsigned words_each, uint32_t seed)
{
   auto out = gpu.buffer(64 * words_each * 16);
   std::memset(out.words, 0xee, out.size);
   auto image = gpu.image(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, {4, 4, 1}, layers, 1,
                          coarse_texels(16 * layers, seed), 4, VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT);
   VkImageView view = gpu.view(image, type);
   VkSampler nearest = gpu.sampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, false);
   VkSampler linear = gpu.sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, false);
   auto program = gpu.program_with_bindings(
      read_spirv(shader),
      {{binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER), binding(1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER),
        binding(2, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER)}},
      0);
   VkDescriptorSet set = gpu.allocate_set(program, 0);
   gpu.write_buffer(set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, out);
   gpu.write_image(set, 1, 0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, view, nearest);
   gpu.write_image(set, 2, 0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, view, linear);
   std::vector<uint32_t> words = dispatch_once(gpu, program, set, out);
   gpu.destroy(program);
   vkDestroyImageView(gpu.device, view, nullptr);
   vkDestroySampler(gpu.device, nearest, nullptr);
   vkDestroySampler(gpu.device, linear, nullptr);
   gpu.destroy(image);
   gpu.destroy(out);
   return words;
}

std::vector<uint32_t> cube_sampling(ComputeDevice &gpu)
{
   return cube_scene(gpu, "sample_cube", 6, VK_IMAGE_VIEW_TYPE_CUBE, 4, 13);
}

/* A cube array of two cubes (12 layers). */
std::vector<uint32_t> cube_array_sampling(ComputeDevice &gpu)
{
   return cube_scene(gpu, "sample_cube_array", 12, VK_IMAGE_VIEW_TYPE_CUBE_ARRAY, 8, 17);
}

std::vector<uint32_t> large_tiled_image(ComputeDevice &gpu)
{
   auto out = gpu.buffer(64 * 12 * 16);
   std::memset(out.words, 0xee, out.size);
   size_t texels = 0;
   for (unsigned level = 0; level < 9; level++)
      texels += size_t(256 >> level) * (256 >> level);
   /* Every texel different (bytes from its index), so a wrong address shows. */
   std::vector<uint8_t> data(texels * 4);
   for (size_t i = 0; i < texels; i++) {
      data[i * 4 + 0] = uint8_t(i);
      data[i * 4 + 1] = uint8_t(i >> 8);
      data[i * 4 + 2] = uint8_t(i >> 16);
      data[i * 4 + 3] = uint8_t(i * 7);
   }
   auto image = gpu.image(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, {256, 256, 1}, 1, 9, data, 4);
   VkImageView view = gpu.view(image, VK_IMAGE_VIEW_TYPE_2D);
   VkSampler nearest = gpu.sampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_REPEAT, false,
                                   VK_SAMPLER_MIPMAP_MODE_NEAREST, 8.0f);
   auto program = gpu.program_with_bindings(
      read_spirv("sample_large"),
      {{binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER), binding(1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER)}},
      0);
   VkDescriptorSet set = gpu.allocate_set(program, 0);
   gpu.write_buffer(set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, out);
   gpu.write_image(set, 1, 0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, view, nearest);
   std::vector<uint32_t> words = dispatch_once(gpu, program, set, out);
   /* And back: the whole image copied out to a buffer must be what went in. */
   auto back = gpu.buffer(data.size(), VK_BUFFER_USAGE_TRANSFER_DST_BIT);
   VkCommandBuffer commands = gpu.begin();
   VkImageMemoryBarrier to_source{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
   to_source.srcAccessMask = VK_ACCESS_SHADER_READ_BIT;
   to_source.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
   to_source.oldLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
   to_source.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
   to_source.srcQueueFamilyIndex = to_source.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
   to_source.image = image.image;
   to_source.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 9, 0, 1};
   vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0,
                        0, nullptr, 0, nullptr, 1, &to_source);
   std::vector<VkBufferImageCopy> regions;
   VkDeviceSize offset = 0;
   for (uint32_t level = 0; level < 9; level++) {
      VkBufferImageCopy region{};
      region.bufferOffset = offset;
      region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, level, 0, 1};
      region.imageExtent = {256u >> level, 256u >> level, 1};
      regions.push_back(region);
      offset += VkDeviceSize(256 >> level) * (256 >> level) * 4;
   }
   vkCmdCopyImageToBuffer(commands, image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, back.buffer,
                          uint32_t(regions.size()), regions.data());
   ComputeDevice::barrier(commands);
   EXPECT_EQ(gpu.submit_and_wait(commands), VK_SUCCESS);
   EXPECT_EQ(std::memcmp(back.words, data.data(), data.size()), 0) << "image -> buffer copy differs";
   gpu.destroy(back);
   gpu.destroy(program);
   vkDestroyImageView(gpu.device, view, nullptr);
   vkDestroySampler(gpu.device, nearest, nullptr);
   gpu.destroy(image);
   gpu.destroy(out);
   return words;
}

/* vkCmdClearColorImage over levels 1-2 and layers 1-2 of a 16x16 image with 3 levels and 3
 * layers, then the whole image copied out: RGBA8 (a fill: the value repeats every 32 bits),
 * RGBA16F and RGBA32UI (values that do not: clear draws per level and layer). */
std::vector<uint32_t> clear_color_images(ComputeDevice &gpu)
{
   std::vector<uint32_t> words;
   struct Case {
      VkFormat format;
      unsigned bytes;
      VkClearColorValue value;
   };
   VkClearColorValue unorm{}, half{}, integer{};
   unorm.float32[0] = 0.25f, unorm.float32[1] = 0.5f, unorm.float32[2] = 1.0f, unorm.float32[3] = 0.75f;
   half.float32[0] = -2.5f, half.float32[1] = 0.125f, half.float32[2] = 1000.0f, half.float32[3] = 1.0f;
   integer.uint32[0] = 7, integer.uint32[1] = 0xdeadbeef, integer.uint32[2] = 0, integer.uint32[3] = 123456;
   for (const Case &c : {Case{VK_FORMAT_R8G8B8A8_UNORM, 4, unorm}, Case{VK_FORMAT_R16G16B16A16_SFLOAT, 8, half},
                         Case{VK_FORMAT_R32G32B32A32_UINT, 16, integer}}) {
      size_t texels = 0;
      for (unsigned level = 0; level < 3; level++)
         texels += size_t(16 >> level) * (16 >> level) * 3;
      std::vector<uint8_t> data(texels * c.bytes);
      for (size_t i = 0; i < data.size(); i++)
         data[i] = uint8_t(i * 13 + 5);
      auto image = gpu.image(c.format, VK_IMAGE_TYPE_2D, {16, 16, 1}, 3, 3, data, c.bytes);
      auto back = gpu.buffer(data.size(), VK_BUFFER_USAGE_TRANSFER_DST_BIT);
      VkCommandBuffer commands = gpu.begin();
      VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
      barrier.srcAccessMask = VK_ACCESS_SHADER_READ_BIT;
      barrier.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
      barrier.oldLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
      barrier.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
      barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
      barrier.image = image.image;
      barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 3, 0, 3};
      vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr,
                           0, nullptr, 1, &barrier);
      const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 1, 2, 1, 2};
      vkCmdClearColorImage(commands, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &c.value, 1, &range);
      barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
      barrier.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
      barrier.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
      barrier.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
      vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                           nullptr, 1, &barrier);
      std::vector<VkBufferImageCopy> regions;
      VkDeviceSize offset = 0;
      for (uint32_t level = 0; level < 3; level++) {
         VkBufferImageCopy region{};
         region.bufferOffset = offset;
         region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, level, 0, 3};
         region.imageExtent = {16u >> level, 16u >> level, 1};
         regions.push_back(region);
         offset += VkDeviceSize(16 >> level) * (16 >> level) * 3 * c.bytes;
      }
      vkCmdCopyImageToBuffer(commands, image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, back.buffer,
                             uint32_t(regions.size()), regions.data());
      ComputeDevice::barrier(commands);
      EXPECT_EQ(gpu.submit_and_wait(commands), VK_SUCCESS);
      words.insert(words.end(), back.words, back.words + data.size() / 4);
      /* Level 0 and layer 0 of every level kept their texels. */
      EXPECT_EQ(std::memcmp(back.words, data.data(), size_t(16 * 16 * 3) * c.bytes), 0) << c.format;
      gpu.destroy(back);
      gpu.destroy(image);
   }
   return words;
}

/* vkCmdCopyImage between two 64x64 images with 2 levels and 2 layers (2D tiled level 0, 1D
 * tiled level 1): regions at odd offsets across levels and layers, then the destination
 * copied out whole. RGBA8 and RGBA16F. */
std::vector<uint32_t> copy_between_images(ComputeDevice &gpu)
{
   std::vector<uint32_t> words;
   for (const auto &[format, bytes] : {std::pair{VK_FORMAT_R8G8B8A8_UNORM, 4u}, std::pair{VK_FORMAT_R16G16B16A16_SFLOAT, 8u}}) {
      size_t texels = 0;
      for (unsigned level = 0; level < 2; level++)
         texels += size_t(64 >> level) * (64 >> level) * 2;
      std::vector<uint8_t> a(texels * bytes), b(texels * bytes);
      for (size_t i = 0; i < a.size(); i++) {
         a[i] = uint8_t(i * 7 + 1);
         b[i] = uint8_t(i * 3 + 2);
      }
      auto src = gpu.image(format, VK_IMAGE_TYPE_2D, {64, 64, 1}, 2, 2, a, bytes);
      auto dst = gpu.image(format, VK_IMAGE_TYPE_2D, {64, 64, 1}, 2, 2, b, bytes);
      auto back = gpu.buffer(b.size(), VK_BUFFER_USAGE_TRANSFER_DST_BIT);
      VkCommandBuffer commands = gpu.begin();
      VkImageMemoryBarrier barriers[2]{};
      for (unsigned i = 0; i < 2; i++) {
         barriers[i].sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER;
         barriers[i].srcAccessMask = VK_ACCESS_SHADER_READ_BIT;
         barriers[i].dstAccessMask = i ? VK_ACCESS_TRANSFER_WRITE_BIT : VK_ACCESS_TRANSFER_READ_BIT;
         barriers[i].oldLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
         barriers[i].newLayout = i ? VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL : VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
         barriers[i].srcQueueFamilyIndex = barriers[i].dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
         barriers[i].image = i ? dst.image : src.image;
         barriers[i].subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 2, 0, 2};
      }
      vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr,
                           0, nullptr, 2, barriers);
      VkImageCopy regions[3]{};
      regions[0] = {{VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 2}, {3, 5, 0}, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 2}, {17, 1, 0}, {40, 33, 1}};
      regions[1] = {{VK_IMAGE_ASPECT_COLOR_BIT, 1, 1, 1}, {0, 0, 0}, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {50, 40, 0}, {14, 24, 1}};
      regions[2] = {{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 1}, {60, 2, 0}, {VK_IMAGE_ASPECT_COLOR_BIT, 1, 1, 1}, {1, 3, 0}, {4, 29, 1}};
      vkCmdCopyImage(commands, src.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst.image,
                     VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 3, regions);
      VkImageMemoryBarrier to_read = barriers[1];
      to_read.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
      to_read.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
      to_read.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
      to_read.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
      vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                           nullptr, 1, &to_read);
      std::vector<VkBufferImageCopy> out;
      VkDeviceSize offset = 0;
      for (uint32_t level = 0; level < 2; level++) {
         VkBufferImageCopy region{};
         region.bufferOffset = offset;
         region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, level, 0, 2};
         region.imageExtent = {64u >> level, 64u >> level, 1};
         out.push_back(region);
         offset += VkDeviceSize(64 >> level) * (64 >> level) * 2 * bytes;
      }
      vkCmdCopyImageToBuffer(commands, dst.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, back.buffer, uint32_t(out.size()),
                             out.data());
      ComputeDevice::barrier(commands);
      EXPECT_EQ(gpu.submit_and_wait(commands), VK_SUCCESS);
      words.insert(words.end(), back.words, back.words + b.size() / 4);
      EXPECT_NE(std::memcmp(back.words, b.data(), b.size()), 0) << "nothing was copied";
      gpu.destroy(back);
      gpu.destroy(src);
      gpu.destroy(dst);
   }
   return words;
}

/* Everything the driver writes to stderr while `work` runs (the TERAKAN_DEBUG reports). */
/* Block-compressed formats sampled from a 16x16 image with 5 levels filled with
 * pseudo-random blocks (every bit pattern is a valid BC1-BC5 block; for BC6H and BC7 some are
 * reserved modes, which decode to zero), through sample_compressed.comp.
 *
 * How close to lavapipe: the simulator decodes with Mesa's util decoders and lavapipe with
 * llvmpipe's own, and the two round the interpolated palette entries of BC1-BC5 (2/3 a + 1/3
 * b, the BC4/BC5 6- and 8-step ramps) differently: fetched texels were seen one 8-bit unit
 * apart (SNORM: two 7-bit units, on negative ramps near zero), as a real card's undocumented
 * rounding may be too.
 * BC7 and BC6H decode identically (llvmpipe calls util's decoder for them). Filtered values
 * add llvmpipe's 8-bit filter weights (its low-precision path for 8-bit texels): up to two
 * units. So: `fetch_units` and `filter_units` units of `unit` (in the shader's scaled values)
 * per component; BC6H: exact fetches, filtered within 1 at scale 64. */
struct CompressedCase {
   VkFormat format;
   unsigned block_bytes;
   float scale = 4096.0f;   /* sample_compressed.comp's specialization constant */
   uint32_t fetch_tolerance = 0, filter_tolerance = 0;
   unsigned block = 4;      /* 1: an uncompressed format through the same scene */
};
/* 4096/255 and 4096/127 rounded up; an sRGB unit near white is 2.3 linear units (the slope
 * of the sRGB curve at 1 is 2.4/1.055): 38. */
constexpr uint32_t unorm_unit = 17, snorm_unit = 33, srgb_unit = 38;
const CompressedCase compressed_cases[] = {
   {VK_FORMAT_BC1_RGB_UNORM_BLOCK, 8, 4096.0f, unorm_unit, 2 * unorm_unit},
   {VK_FORMAT_BC1_RGBA_SRGB_BLOCK, 8, 4096.0f, srgb_unit, 2 * srgb_unit},
   {VK_FORMAT_BC2_UNORM_BLOCK, 16, 4096.0f, unorm_unit, 2 * unorm_unit},
   {VK_FORMAT_BC3_SRGB_BLOCK, 16, 4096.0f, srgb_unit, 2 * srgb_unit},
   {VK_FORMAT_BC4_UNORM_BLOCK, 8, 4096.0f, unorm_unit, 2 * unorm_unit},
   {VK_FORMAT_BC4_SNORM_BLOCK, 8, 4096.0f, 2 * snorm_unit, 3 * snorm_unit},
   {VK_FORMAT_BC5_UNORM_BLOCK, 16, 4096.0f, unorm_unit, 2 * unorm_unit},
   {VK_FORMAT_BC5_SNORM_BLOCK, 16, 4096.0f, 2 * snorm_unit, 3 * snorm_unit},
   {VK_FORMAT_BC6H_UFLOAT_BLOCK, 16, 64.0f, 0, 1},
   {VK_FORMAT_BC6H_SFLOAT_BLOCK, 16, 64.0f, 0, 1},
   {VK_FORMAT_BC7_UNORM_BLOCK, 16, 4096.0f, 0, 2 * unorm_unit},
   /* sRGB decoding after the block decoder: llvmpipe's approximation of the curve. */
   {VK_FORMAT_BC7_SRGB_BLOCK, 16, 4096.0f, 1, 2 * unorm_unit},
};
/* The packed 10/11-bit formats through the same scene (one texel per element): fetched
 * exactly, filtered within two 8-bit units (llvmpipe's filtering precision). */
const CompressedCase packed_cases[] = {
   {VK_FORMAT_A2B10G10R10_UNORM_PACK32, 4, 4096.0f, 0, 2 * unorm_unit, 1},
   {VK_FORMAT_A2R10G10B10_UNORM_PACK32, 4, 4096.0f, 0, 2 * unorm_unit, 1},
   {VK_FORMAT_B10G11R11_UFLOAT_PACK32, 4, 64.0f, 0, 1, 1},
   /* The other formats Vulkan 1.0 requires to be sampled and filtered: the 16-bit packed ones
    * (filtered within two 4-bit units for B4G4R4A4), shared exponent (random exponents up to
    * 2^7: values to 65,408, scaled by 64), and the A8B8G8R8 and SNORM byte formats. */
   {VK_FORMAT_B4G4R4A4_UNORM_PACK16, 2, 4096.0f, 0, 2 * 273, 1},
   {VK_FORMAT_R5G6B5_UNORM_PACK16, 2, 4096.0f, 0, 2 * 133, 1},
   {VK_FORMAT_A1R5G5B5_UNORM_PACK16, 2, 4096.0f, 0, 2 * 133, 1},
   {VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, 4, 64.0f, 0, 1, 1},
   {VK_FORMAT_A8B8G8R8_UNORM_PACK32, 4, 4096.0f, 0, 2 * unorm_unit, 1},
   {VK_FORMAT_A8B8G8R8_SNORM_PACK32, 4, 4096.0f, 0, 2 * snorm_unit, 1},
   /* sRGB: lavapipe's decoding approximates the curve (see FormatDecoding). */
   {VK_FORMAT_A8B8G8R8_SRGB_PACK32, 4, 4096.0f, srgb_unit, 2 * srgb_unit, 1},
   {VK_FORMAT_R8G8_SNORM, 2, 4096.0f, 0, 2 * snorm_unit, 1},
};

std::vector<uint32_t> compressed_sampling(ComputeDevice &gpu, const CompressedCase &c)
{
   /* Elements of levels 16, 8, 4, 2 and 1 texels: 16 + 4 + 1 + 1 + 1 blocks, or 341 texels. */
   size_t elements = 0;
   for (unsigned level = 0; level < 5; level++)
      elements += size_t((16u >> level) + c.block - 1) / c.block * (((16u >> level) + c.block - 1) / c.block);
   std::vector<uint8_t> blocks(elements * c.block_bytes);
   uint32_t x = uint32_t(c.format) * 2654435761u;
   for (uint8_t &b : blocks) {
      x = x * 1664525u + 1013904223u;
      b = uint8_t(x >> 24);
   }
   /* B10G11R11: the top exponent bit of each field cleared, so no texel is Inf or NaN (which
    * filtering would spread differently). */
   if (c.format == VK_FORMAT_B10G11R11_UFLOAT_PACK32)
      for (size_t i = 0; i + 4 <= blocks.size(); i += 4) {
         uint32_t word;
         std::memcpy(&word, &blocks[i], 4);
         word &= ~((1u << 10) | (1u << 21) | (1u << 31));
         std::memcpy(&blocks[i], &word, 4);
      }
   ComputeDevice::Image image = gpu.image(c.format, VK_IMAGE_TYPE_2D, {16, 16, 1}, 1, 5, blocks, c.block_bytes, 0, c.block);
   auto out = gpu.buffer(16 * 16 * 8 * 16);
   std::memset(out.words, 0xee, out.size);
   VkImageView view = gpu.view(image, VK_IMAGE_VIEW_TYPE_2D);
   VkSampler linear = gpu.sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_REPEAT, false,
                                  VK_SAMPLER_MIPMAP_MODE_LINEAR, 4.0f);
   const VkSpecializationMapEntry entry{0, 0, sizeof(float)};
   const VkSpecializationInfo specialization{1, &entry, sizeof(float), &c.scale};
   auto program = gpu.program_with_bindings(
      read_spirv("sample_compressed"),
      {{binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER), binding(1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER)}}, 0,
      nullptr, &specialization);
   VkDescriptorSet set = gpu.allocate_set(program, 0);
   gpu.write_buffer(set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, out);
   gpu.write_image(set, 1, 0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, view, linear);
   std::vector<uint32_t> words = dispatch_once(gpu, program, set, out);
   gpu.destroy(program);
   vkDestroyImageView(gpu.device, view, nullptr);
   vkDestroySampler(gpu.device, linear, nullptr);
   gpu.destroy(image);
   gpu.destroy(out);
   return words;
}

/* BC3 blocks (16 bytes) copied into an R32G32B32A32_UINT image, one block per texel, at an
 * offset, and back into a second BC3 image at another block; both read back whole. */
std::vector<uint32_t> compressed_copies(ComputeDevice &gpu)
{
   std::vector<uint8_t> blocks(16 * 16);
   for (size_t i = 0; i < blocks.size(); i++)
      blocks[i] = uint8_t(i * 29 + 3);
   ComputeDevice::Image bc3 = gpu.image(VK_FORMAT_BC3_UNORM_BLOCK, VK_IMAGE_TYPE_2D, {16, 16, 1}, 1, 1, blocks, 16, 0, 4);
   ComputeDevice::Image wide = gpu.image(VK_FORMAT_R32G32B32A32_UINT, VK_IMAGE_TYPE_2D, {8, 8, 1}, 1, 1,
                                         std::vector<uint8_t>(8 * 8 * 16, 0x11), 16);
   ComputeDevice::Image back = gpu.image(VK_FORMAT_BC3_UNORM_BLOCK, VK_IMAGE_TYPE_2D, {16, 16, 1}, 1, 1,
                                         std::vector<uint8_t>(16 * 16, 0x22), 16, 0, 4);
   auto out = gpu.buffer(8 * 8 * 16 + 16 * 16);
   VkCommandBuffer commands = gpu.begin();
   VkImageMemoryBarrier barriers[3]{};
   const VkImage images[3] = {bc3.image, wide.image, back.image};
   for (unsigned i = 0; i < 3; i++) {
      barriers[i] = {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
      barriers[i].srcAccessMask = VK_ACCESS_SHADER_READ_BIT;
      barriers[i].dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
      barriers[i].oldLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
      barriers[i].newLayout = VK_IMAGE_LAYOUT_GENERAL;
      barriers[i].srcQueueFamilyIndex = barriers[i].dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
      barriers[i].image = images[i];
      barriers[i].subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
   }
   vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                        nullptr, 3, barriers);
   /* Texels (4, 8)-(12, 16) of the BC3 image, 2x2 blocks, to texel (5, 1) of the wide one. */
   VkImageCopy to_wide{};
   to_wide.srcSubresource = to_wide.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
   to_wide.srcOffset = {4, 8, 0};
   to_wide.dstOffset = {5, 1, 0};
   to_wide.extent = {8, 8, 1};
   vkCmdCopyImage(commands, bc3.image, VK_IMAGE_LAYOUT_GENERAL, wide.image, VK_IMAGE_LAYOUT_GENERAL, 1, &to_wide);
   ComputeDevice::barrier(commands);
   /* 3x2 texels of the wide image back to block (1, 2) of the other BC3 image. */
   VkImageCopy to_back{};
   to_back.srcSubresource = to_back.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
   to_back.srcOffset = {4, 0, 0};
   to_back.dstOffset = {4, 8, 0};
   to_back.extent = {3, 2, 1};
   vkCmdCopyImage(commands, wide.image, VK_IMAGE_LAYOUT_GENERAL, back.image, VK_IMAGE_LAYOUT_GENERAL, 1, &to_back);
   ComputeDevice::barrier(commands);
   VkBufferImageCopy regions[2]{};
   regions[0].imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
   regions[0].imageExtent = {8, 8, 1};
   regions[1].bufferOffset = 8 * 8 * 16;
   regions[1].imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
   regions[1].imageExtent = {16, 16, 1};
   vkCmdCopyImageToBuffer(commands, wide.image, VK_IMAGE_LAYOUT_GENERAL, out.buffer, 1, &regions[0]);
   vkCmdCopyImageToBuffer(commands, back.image, VK_IMAGE_LAYOUT_GENERAL, out.buffer, 1, &regions[1]);
   ComputeDevice::barrier(commands);
   EXPECT_EQ(gpu.submit_and_wait(commands), VK_SUCCESS);
   std::vector<uint32_t> words(out.words, out.words + out.size / 4);
   /* The block at texel (4, 8) of the source is texel (5, 1) of the wide image. */
   EXPECT_EQ(std::memcmp(&words[(1 * 8 + 5) * 4], &blocks[(2 * 4 + 1) * 16], 16), 0);
   for (auto *image : {&bc3, &wide, &back})
      gpu.destroy(*image);
   gpu.destroy(out);
   return words;
}

/* ---- blits ---- */

/* Moves every image in `images` between SHADER_READ_ONLY_OPTIMAL and GENERAL. */
void transition(VkCommandBuffer commands, const std::vector<const ComputeDevice::Image *> &images, bool to_general)
{
   std::vector<VkImageMemoryBarrier> barriers;
   for (const ComputeDevice::Image *image : images) {
      VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
      b.srcAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
      b.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
      b.oldLayout = to_general ? VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL : VK_IMAGE_LAYOUT_GENERAL;
      b.newLayout = to_general ? VK_IMAGE_LAYOUT_GENERAL : VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
      b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
      b.image = image->image;
      b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, image->levels, 0, image->layers};
      barriers.push_back(b);
   }
   vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0,
                        nullptr, 0, nullptr, uint32_t(barriers.size()), barriers.data());
}

VkImageBlit blit_region(uint32_t src_level, uint32_t layers, VkOffset3D s0, VkOffset3D s1, VkOffset3D d0, VkOffset3D d1)
{
   VkImageBlit region{};
   region.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, src_level, 0, layers};
   region.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, layers};
   region.srcOffsets[0] = s0;
   region.srcOffsets[1] = s1;
   region.dstOffsets[0] = d0;
   region.dstOffsets[1] = d1;
   return region;
}

/* Blits into 40x24 destinations (pre-filled): from a 16x16 RGBA8 source with 2 layers into an
 * RGBA8 image with 2 layers (`rgba8_blits`: NEAREST doubled, LINEAR mirrored in x and shrunk,
 * LINEAR enlarged by 2.5 x 3.5, NEAREST mirrored in both axes at a non-integer scale), from
 * level 1 of a BC1 image with LINEAR into another RGBA8 image, and between R8G8B8A8_UINT
 * images with NEAREST, mirrored in y. Returns the destinations' bytes. */
struct BlitScene {
   VkFilter filter;
   VkImageBlit region;
};
const BlitScene rgba8_blits[] = {
   {VK_FILTER_NEAREST, blit_region(0, 2, {0, 0, 0}, {16, 16, 1}, {2, 3, 0}, {34, 19, 1})},
   {VK_FILTER_LINEAR, blit_region(0, 2, {16, 0, 0}, {0, 16, 1}, {0, 0, 0}, {10, 6, 1})},
   {VK_FILTER_LINEAR, blit_region(0, 1, {4, 4, 0}, {12, 8, 1}, {20, 10, 0}, {40, 24, 1})},
   {VK_FILTER_NEAREST, blit_region(0, 1, {3, 2, 0}, {13, 15, 1}, {36, 20, 0}, {26, 2, 1})},
};
const BlitScene compressed_blits[] = {
   {VK_FILTER_LINEAR, blit_region(1, 1, {0, 0, 0}, {8, 8, 1}, {1, 1, 0}, {23, 17, 1})},
};

std::vector<uint32_t> blit_images(ComputeDevice &gpu)
{
   std::vector<uint8_t> texels = coarse_texels(16 * 16 * 2, 5);
   for (size_t i = 0; i < texels.size(); i++)
      texels[i] = uint8_t(texels[i] + (i * 7) % 61);
   ComputeDevice::Image source = gpu.image(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, {16, 16, 1}, 2, 1, texels, 4);
   std::vector<uint8_t> bc1(23 * 8); /* 16 + 4 + 1 + 1 + 1 blocks */
   for (size_t i = 0; i < bc1.size(); i++)
      bc1[i] = uint8_t(i * 89 + 17);
   ComputeDevice::Image compressed =
      gpu.image(VK_FORMAT_BC1_RGBA_UNORM_BLOCK, VK_IMAGE_TYPE_2D, {16, 16, 1}, 1, 5, bc1, 8, 0, 4);
   ComputeDevice::Image uint_source = gpu.image(VK_FORMAT_R8G8B8A8_UINT, VK_IMAGE_TYPE_2D, {16, 16, 1}, 1, 1,
                                                std::vector<uint8_t>(texels.begin(), texels.begin() + 1024), 4);
   const std::vector<uint8_t> fill(40 * 24 * 2 * 4, 0x11);
   ComputeDevice::Image target = gpu.image(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, {40, 24, 1}, 2, 1, fill, 4);
   ComputeDevice::Image target2 = gpu.image(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, {40, 24, 1}, 1, 1,
                                            std::vector<uint8_t>(40 * 24 * 4, 0x22), 4);
   ComputeDevice::Image uint_target = gpu.image(VK_FORMAT_R8G8B8A8_UINT, VK_IMAGE_TYPE_2D, {40, 24, 1}, 1, 1,
                                                std::vector<uint8_t>(40 * 24 * 4, 0x33), 4);
   auto out = gpu.buffer(40 * 24 * 4 * 4);
   VkCommandBuffer commands = gpu.begin();
   transition(commands, {&source, &compressed, &uint_source, &target, &target2, &uint_target}, true);
   for (const BlitScene &b : rgba8_blits)
      vkCmdBlitImage(commands, source.image, VK_IMAGE_LAYOUT_GENERAL, target.image, VK_IMAGE_LAYOUT_GENERAL, 1,
                     &b.region, b.filter);
   for (const BlitScene &b : compressed_blits)
      vkCmdBlitImage(commands, compressed.image, VK_IMAGE_LAYOUT_GENERAL, target2.image, VK_IMAGE_LAYOUT_GENERAL, 1,
                     &b.region, b.filter);
   /* 15 source texels over 30 and 20 pixels: no pixel centre maps onto a texel edge (where two
    * conforming NEAREST lookups may round either way). */
   const VkImageBlit integer = blit_region(0, 1, {0, 15, 0}, {15, 0, 1}, {5, 2, 0}, {35, 22, 1});
   vkCmdBlitImage(commands, uint_source.image, VK_IMAGE_LAYOUT_GENERAL, uint_target.image, VK_IMAGE_LAYOUT_GENERAL, 1,
                  &integer, VK_FILTER_NEAREST);
   ComputeDevice::barrier(commands);
   VkBufferImageCopy region{};
   region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 2};
   region.imageExtent = {40, 24, 1};
   vkCmdCopyImageToBuffer(commands, target.image, VK_IMAGE_LAYOUT_GENERAL, out.buffer, 1, &region);
   region.imageSubresource.layerCount = 1;
   region.bufferOffset = 40 * 24 * 4 * 2;
   vkCmdCopyImageToBuffer(commands, target2.image, VK_IMAGE_LAYOUT_GENERAL, out.buffer, 1, &region);
   region.bufferOffset = 40 * 24 * 4 * 3;
   vkCmdCopyImageToBuffer(commands, uint_target.image, VK_IMAGE_LAYOUT_GENERAL, out.buffer, 1, &region);
   ComputeDevice::barrier(commands);
   EXPECT_EQ(gpu.submit_and_wait(commands), VK_SUCCESS);
   std::vector<uint32_t> words(out.words, out.words + out.size / 4);
   for (auto *image : {&source, &compressed, &uint_source, &target, &target2, &uint_target})
      gpu.destroy(*image);
   gpu.destroy(out);
   return words;
}

/* Depth blits (NEAREST, the only filter Vulkan allows for depth): D16 and D32_SFLOAT
 * sources of random depths, scaled up, down and mirrored into filled destinations, read back
 * by copies. 15 source texels over 30 and 20 pixels, as for the integer blit above, so no
 * pixel centre falls on a texel edge. */
std::vector<uint32_t> depth_blits(ComputeDevice &gpu, VkFormat format)
{
   const unsigned bytes = format == VK_FORMAT_D16_UNORM ? 2 : 4;
   std::vector<uint8_t> texels = random_bytes(16 * 16 * bytes, 77);
   if (format == VK_FORMAT_D32_SFLOAT) /* depths in [0, 1] */
      for (size_t i = 0; i < 256; i++) {
         uint32_t bits;
         std::memcpy(&bits, &texels[i * 4], 4);
         const float depth = float(bits >> 8) / float(1u << 24);
         std::memcpy(&texels[i * 4], &depth, 4);
      }
   std::vector<uint8_t> fill(40 * 24 * bytes, 0);
   for (size_t i = 0; i < fill.size() / bytes; i++) {
      const float half = 0.5f;
      if (bytes == 4)
         std::memcpy(&fill[i * 4], &half, 4);
      else
         fill[i * 2 + 1] = 0x80;
   }
   ComputeDevice::Image source = gpu.image(format, VK_IMAGE_TYPE_2D, {16, 16, 1}, 1, 1, texels, bytes);
   ComputeDevice::Image target = gpu.image(format, VK_IMAGE_TYPE_2D, {40, 24, 1}, 1, 1, fill, bytes);
   auto out = gpu.buffer(40 * 24 * bytes);
   VkCommandBuffer commands = gpu.begin();
   VkImageMemoryBarrier barriers[2]{};
   const VkImage images[2] = {source.image, target.image};
   for (unsigned i = 0; i < 2; i++) {
      barriers[i] = {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
      barriers[i].srcAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
      barriers[i].dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
      barriers[i].oldLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
      barriers[i].newLayout = VK_IMAGE_LAYOUT_GENERAL;
      barriers[i].srcQueueFamilyIndex = barriers[i].dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
      barriers[i].image = images[i];
      barriers[i].subresourceRange = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1};
   }
   vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0,
                        nullptr, 0, nullptr, 2, barriers);
   VkImageBlit regions[] = {
      blit_region(0, 1, {0, 0, 0}, {15, 15, 0}, {2, 1, 0}, {32, 21, 1}),    /* scaled up */
      blit_region(0, 1, {15, 15, 0}, {0, 0, 0}, {33, 2, 0}, {40, 22, 1}),  /* down, mirrored both ways */
      blit_region(0, 1, {3, 0, 0}, {13, 15, 0}, {20, 23, 0}, {0, 22, 1}),  /* a mirrored strip */
   };
   for (VkImageBlit &r : regions) {
      r.srcSubresource.aspectMask = r.dstSubresource.aspectMask = VK_IMAGE_ASPECT_DEPTH_BIT;
      r.srcOffsets[1].z = 1;
      vkCmdBlitImage(commands, source.image, VK_IMAGE_LAYOUT_GENERAL, target.image, VK_IMAGE_LAYOUT_GENERAL, 1, &r,
                     VK_FILTER_NEAREST);
   }
   ComputeDevice::barrier(commands);
   VkBufferImageCopy region{};
   region.imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1};
   region.imageExtent = {40, 24, 1};
   vkCmdCopyImageToBuffer(commands, target.image, VK_IMAGE_LAYOUT_GENERAL, out.buffer, 1, &region);
   ComputeDevice::barrier(commands);
   EXPECT_EQ(gpu.submit_and_wait(commands), VK_SUCCESS);
   std::vector<uint32_t> words(out.words, out.words + out.size / 4);
   gpu.destroy(source);
   gpu.destroy(target);
   gpu.destroy(out);
   return words;
}

/* Whether destination pixel (x, y) of `layer` was written by a LINEAR blit of `scenes`. */
bool linear_blit_area(const BlitScene *scenes, size_t count, unsigned x, unsigned y, unsigned layer)
{
   for (size_t i = 0; i < count; i++) {
      const VkImageBlit &r = scenes[i].region;
      const int x0 = std::min(r.dstOffsets[0].x, r.dstOffsets[1].x), x1 = std::max(r.dstOffsets[0].x, r.dstOffsets[1].x);
      const int y0 = std::min(r.dstOffsets[0].y, r.dstOffsets[1].y), y1 = std::max(r.dstOffsets[0].y, r.dstOffsets[1].y);
      if (scenes[i].filter == VK_FILTER_LINEAR && layer < r.dstSubresource.layerCount && int(x) >= x0 &&
          int(x) < x1 && int(y) >= y0 && int(y) < y1)
         return true;
   }
   return false;
}

std::string capture_stderr(const std::function<void()> &work)
{
   char path[] = "/tmp/terakan-stderr-XXXXXX";
   const int fd = mkstemp(path);
   if (fd < 0) {
      work();
      return {};
   }
   std::fflush(stderr);
   const int saved = dup(2);
   dup2(fd, 2);
   work();
   std::fflush(stderr);
   dup2(saved, 2);
   close(saved);
   close(fd);
   std::ifstream file(path);
   std::stringstream text;
   text << file.rdbuf();
   unlink(path);
   return text.str();
}

unsigned count_of(const std::string &text, const std::string &what)
{
   unsigned n = 0;
   for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
      n++;
   return n;
}

} // namespace

TEST(ImagesAndSamplers, UnnormalizedSamplerBoundAndReboundBetweenDispatches)
{
   expect_same_as_lavapipe(bound_and_rebound);
}

/* The sample through the run-time indexed array (uvec4 3 of each invocation) uses the same
 * sampler as the one bound normally (uvec4 0), at the same coordinates, so Vulkan requires the
 * same result. lavapipe (Mesa 22.3.6) does not give it when that sampler is unnormalized: its
 * indexed sample then differs from its own direct one (seen in this test's output: e.g.
 * 0x80,0x40,0xc0,0 against 0x88,0,0x70,0x10 for invocation 1 of dispatch 1). So uvec4 3 is
 * compared with lavapipe's uvec4 0; everything else with lavapipe's own words. */
TEST(ImagesAndSamplers, BoundImmutableAndIndexedSamplersMixedInOneShader)
{
   ASSERT_TRUE(terakan_gpu().sampled_image_dynamic_indexing);
   expect_same_as_lavapipe(mixed_in_one_shader, [](std::vector<uint32_t> &expected) {
      for (size_t invocation = 0; invocation + 16 <= expected.size(); invocation += 16)
         for (size_t c = 0; c < 4; c++)
            expected[invocation + 12 + c] = expected[invocation + c];
   });
}

TEST(ImagesAndSamplers, DimensionsLevelsTexelFetchAndSizes)
{
   expect_same_as_lavapipe(dimensions_levels_and_fetches);
}

/* sRGB: the colour channels of the R8G8B8A8_SRGB samples (uvec4 0 and 2 of each invocation,
 * rounded back to 8 bits) may differ by one. lavapipe's sRGB decoding is approximate: for the
 * byte 65 it gives 14/255 where ((65/255 + 0.055) / 1.055)^2.4 * 255 = 13.48 rounds to 13, which
 * the simulator (exact formula, docs/sim-semantics.md) gives. */
TEST(ImagesAndSamplers, FormatDecoding)
{
   expect_same_as_lavapipe(format_decoding, {}, [](size_t word) -> uint32_t {
      const size_t element = (word / 4) % 12, channel = word % 4;
      return (element == 0 || element == 2) && channel < 3 ? 1 : 0;
   });
}

TEST(ImagesAndSamplers, LargeTiledImageWithAllLevels)
{
   expect_same_as_lavapipe(large_tiled_image);
}

TEST(ImagesAndSamplers, ClearColorImageByFillsAndByDraws)
{
   expect_same_as_lavapipe(clear_color_images);
}

TEST(ImagesAndSamplers, CopiesBetweenImages)
{
   expect_same_as_lavapipe(copy_between_images);
}

TEST(ImagesAndSamplers, CompressedFormatsSampledAtEveryLevel)
{
   for (const CompressedCase &c : compressed_cases) {
      SCOPED_TRACE(c.format);
      /* Words 0-19 of each invocation's 32 are the fetches of levels 0-4, 20-31 the filtered
       * samples. */
      expect_same_as_lavapipe([&c](ComputeDevice &gpu) { return compressed_sampling(gpu, c); }, {},
                              [&c](size_t word) { return word % 32 < 20 ? c.fetch_tolerance : c.filter_tolerance; });
   }
}

TEST(ImagesAndSamplers, PackedFormatsSampledAtEveryLevel)
{
   for (const CompressedCase &c : packed_cases) {
      SCOPED_TRACE(c.format);
      expect_same_as_lavapipe([&c](ComputeDevice &gpu) { return compressed_sampling(gpu, c); }, {},
                              [&c](size_t word) { return word % 32 < 20 ? c.fetch_tolerance : c.filter_tolerance; });
   }
}

/* The integer formats Vulkan requires as sampled images, every texel fetched, bit for bit
 * against lavapipe. */
TEST(ImagesAndSamplers, IntegerFormatsFetchedFromImages)
{
   const FetchedFormat formats[] = {
      {VK_FORMAT_R8G8_SINT, 2, 2},           {VK_FORMAT_A8B8G8R8_UINT_PACK32, 4, 1},
      {VK_FORMAT_A8B8G8R8_SINT_PACK32, 4, 2}, {VK_FORMAT_A2B10G10R10_UINT_PACK32, 4, 1},
      {VK_FORMAT_R16_UINT, 2, 1},            {VK_FORMAT_R16_SINT, 2, 2},
      {VK_FORMAT_R16G16_UINT, 4, 1},         {VK_FORMAT_R16G16_SINT, 4, 2},
      {VK_FORMAT_R16G16B16A16_UINT, 8, 1},   {VK_FORMAT_R16G16B16A16_SINT, 8, 2},
      {VK_FORMAT_R32G32_SINT, 8, 2},
   };
   for (const FetchedFormat &f : formats) {
      SCOPED_TRACE(f.format);
      expect_same_as_lavapipe([&f](ComputeDevice &gpu) { return fetched_texels(gpu, f.format, f.bytes, f.kind, false); });
   }
}

/* The formats Vulkan requires as uniform texel buffers that the older test does not read:
 * integers exactly, normalized values within one float ulp, the packed float format exactly. */
TEST(ImagesAndSamplers, RequiredUniformTexelBufferFormats)
{
   const FetchedFormat formats[] = {
      {VK_FORMAT_R8_SNORM, 1, 0, 1},          {VK_FORMAT_R8G8_SNORM, 2, 0, 1},
      {VK_FORMAT_R8G8_UINT, 2, 1},            {VK_FORMAT_R8G8_SINT, 2, 2},
      {VK_FORMAT_A8B8G8R8_UNORM_PACK32, 4, 0, 1}, {VK_FORMAT_A8B8G8R8_SNORM_PACK32, 4, 0, 1},
      {VK_FORMAT_A8B8G8R8_UINT_PACK32, 4, 1}, {VK_FORMAT_A8B8G8R8_SINT_PACK32, 4, 2},
      {VK_FORMAT_A2B10G10R10_UNORM_PACK32, 4, 0, 1}, {VK_FORMAT_A2B10G10R10_UINT_PACK32, 4, 1},
      {VK_FORMAT_R16_UINT, 2, 1},             {VK_FORMAT_R16_SINT, 2, 2},
      {VK_FORMAT_R16G16_UINT, 4, 1},          {VK_FORMAT_R16G16_SINT, 4, 2},
      {VK_FORMAT_R16G16B16A16_UINT, 8, 1},    {VK_FORMAT_R16G16B16A16_SINT, 8, 2},
      {VK_FORMAT_R32G32_SINT, 8, 2},          {VK_FORMAT_B10G11R11_UFLOAT_PACK32, 4, 0},
   };
   for (const FetchedFormat &f : formats) {
      SCOPED_TRACE(f.format);
      expect_same_as_lavapipe([&f](ComputeDevice &gpu) { return fetched_texels(gpu, f.format, f.bytes, f.kind, true); },
                              {}, [&f](size_t) { return f.tolerance; });
   }
}

TEST(ImagesAndSamplers, CompressedBlocksCopiedThroughAnUncompressedImage)
{
   expect_same_as_lavapipe(compressed_copies);
}

/* NEAREST blits must match lavapipe exactly. LINEAR ones within 2 of 255 per channel:
 * llvmpipe filters 8-bit texels with 8-bit weights (its low-precision path), the simulated
 * texture unit in float; and BC1's decoded palette differs by one unit (see the compressed
 * tests above). */
TEST(ImagesAndSamplers, BlitsScaledMirroredFilteredAndFromCompressedImages)
{
   ComputeDevice &terakan = terakan_gpu();
   ComputeDevice &lavapipe = lavapipe_gpu();
   ASSERT_TRUE(terakan.ok()) << terakan.error;
   ASSERT_TRUE(lavapipe.ok()) << lavapipe.error;
   const unsigned before = terakan.validation_messages, lavapipe_before = lavapipe.validation_messages;
   const std::vector<uint32_t> got = blit_images(terakan), expected = blit_images(lavapipe);
   ASSERT_EQ(got.size(), expected.size());
   unsigned mismatches = 0, filtered_differences = 0, untouched = 0;
   for (size_t word = 0; word < expected.size(); word++) {
      const size_t pixel = word % (40 * 24), image = word / (40 * 24);
      const unsigned x = unsigned(pixel % 40), y = unsigned(pixel / 40);
      bool linear = false;
      if (image < 2)
         linear = linear_blit_area(rgba8_blits, std::size(rgba8_blits), x, y, unsigned(image));
      else if (image == 2)
         linear = linear_blit_area(compressed_blits, std::size(compressed_blits), x, y, 0);
      const uint32_t fill = image < 2 ? 0x11111111u : image == 2 ? 0x22222222u : 0x33333333u;
      untouched += got[word] == fill;
      for (unsigned c = 0; c < 4; c++) {
         const int a = int(got[word] >> (8 * c) & 0xff), b = int(expected[word] >> (8 * c) & 0xff);
         filtered_differences += linear && a != b;
         if (std::abs(a - b) > (linear ? 2 : 0) && ++mismatches <= 12)
            ADD_FAILURE() << "image " << image << " pixel (" << x << ", " << y << ") channel " << c << ": lavapipe "
                          << b << ", terakan " << a;
      }
   }
   EXPECT_EQ(mismatches, 0u);
   /* Not vacuous: the blits wrote most of the destinations. */
   EXPECT_LT(untouched, expected.size() / 2);
   std::printf("blits: %u filtered channels differ from lavapipe (by at most 2), %u pixels kept their fill\n",
               filtered_differences, untouched);
   EXPECT_EQ(terakan.validation_messages, before) << "validation layer messages on Terakan";
   EXPECT_EQ(lavapipe.validation_messages, lavapipe_before);
}

/* D16 and D32_SFLOAT blits: every destination value byte for byte as lavapipe's (a depth
 * goes through the texture unit and the pixel shader's depth export unchanged). */
TEST(ImagesAndSamplers, BlitsOfDepth)
{
   for (VkFormat format : {VK_FORMAT_D16_UNORM, VK_FORMAT_D32_SFLOAT}) {
      SCOPED_TRACE(format);
      expect_same_as_lavapipe([format](ComputeDevice &gpu) {
         std::vector<uint32_t> words = depth_blits(gpu, format);
         /* Not vacuous: most of the destination is no longer the fill (0.5). */
         const uint32_t fill = format == VK_FORMAT_D16_UNORM ? 0x80008000u : 0x3f000000u;
         EXPECT_LT(std::count(words.begin(), words.end(), fill), std::ptrdiff_t(words.size() / 4));
         return words;
      });
   }
}

TEST(ImagesAndSamplers, CubeSampling)
{
   expect_same_as_lavapipe(cube_sampling);
}

TEST(ImagesAndSamplers, CubeArraySampling)
{
   expect_same_as_lavapipe(cube_array_sampling);
}

TEST(ImagesAndSamplers, UniformTexelBuffers)
{
   expect_same_as_lavapipe(texel_buffers);
}

/* On a chip whose sampler words cannot force unnormalized coordinates the driver must patch
 * (one variant per pipeline here: the sampler bound normally turns unnormalized once); on
 * Cayman the sampler word does it and no variant may be made. */
TEST(ImagesAndSamplers, VariantsMadeOnlyWithoutForceUnnormalized)
{
   ASSERT_TRUE(terakan_gpu().ok());
   const char *chip = std::getenv("TERAKAN_SIM_CHIP");
   ASSERT_NE(chip, nullptr);
   const char *debug = std::getenv("TERAKAN_DEBUG");
   ASSERT_TRUE(debug && std::strstr(debug, "variants")) << "the test runs with TERAKAN_DEBUG=variants";
   std::vector<uint32_t> first, second;
   const std::string report = capture_stderr([&] {
      first = bound_and_rebound(terakan_gpu());
      second = mixed_in_one_shader(terakan_gpu());
   });
   const unsigned variants = count_of(report, "shader variant made");
   const bool forces = std::string(chip) == "CAYMAN" || std::string(chip) == "ARUBA";
   if (forces)
      EXPECT_EQ(variants, 0u) << report;
   else
      EXPECT_EQ(variants, 2u) << report;
   /* The results themselves are the other tests' business; they must not be all untouched. */
   EXPECT_NE(first[0], 0xeeeeeeeeu);
   EXPECT_NE(second[0], 0xeeeeeeeeu);
}
