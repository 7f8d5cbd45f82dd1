/* 8- and 16-bit storage formats (R16 and RG16 UINT, SINT and SFLOAT; R8 and RG8 UINT and SINT)
 * as storage texel buffers and 2D storage images, through the driver on the simulated GPU of
 * TERAKAN_SIM_CHIP and on lavapipe with the validation layer on: a compute shader
 * (shaders/storage_narrow.comp) loads each element, mixes its channels and stores the result
 * into a second view, whose bytes (the whole buffer or image) are compared with lavapipe's.
 * Terakan reads the source without a format qualifier (shaderStorageImageReadWithoutFormat;
 * test_storage_extended_formats.cpp reads with one); lavapipe reads it with one. Stores are typed RAT writes,
 * which the simulator converts as the CB converts an export. The format features offered are
 * checked as well. */
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>

#include "compute_device.h"

using namespace terakan::test;

namespace {

enum class Kind { Float = 0, Uint = 1, Int = 2 };

struct Format {
   const char *glsl; /* the format qualifier lavapipe's shader reads with */
   VkFormat format;
   unsigned bytes;      /* per element */
   unsigned channels;   /* 1 or 2 */
   unsigned bits;       /* per channel */
   Kind kind;
};

const Format formats[] = {
   {"r16ui", VK_FORMAT_R16_UINT, 2, 1, 16, Kind::Uint},       {"r16i", VK_FORMAT_R16_SINT, 2, 1, 16, Kind::Int},
   {"r16f", VK_FORMAT_R16_SFLOAT, 2, 1, 16, Kind::Float},     {"rg16ui", VK_FORMAT_R16G16_UINT, 4, 2, 16, Kind::Uint},
   {"rg16i", VK_FORMAT_R16G16_SINT, 4, 2, 16, Kind::Int},     {"rg16f", VK_FORMAT_R16G16_SFLOAT, 4, 2, 16, Kind::Float},
   {"r8ui", VK_FORMAT_R8_UINT, 1, 1, 8, Kind::Uint},          {"r8i", VK_FORMAT_R8_SINT, 1, 1, 8, Kind::Int},
   {"rg8ui", VK_FORMAT_R8G8_UINT, 2, 2, 8, Kind::Uint},       {"rg8i", VK_FORMAT_R8G8_SINT, 2, 2, 8, Kind::Int},
};

struct Push {
   int32_t count;
   uint32_t mask;
   int32_t bias;
};

Push push_for(const Format &f, uint32_t count)
{
   Push push{int32_t(count), f.bits == 8 ? 0xffu : 0xffffu, 0};
   if (f.kind == Kind::Int)
      push.bias = f.bits == 8 ? 128 : 32768;
   return push;
}

/* n / 8 as a 16-bit float (|n| < 2048: exact). */
uint16_t eighths_as_half(int n)
{
   if (n == 0)
      return 0;
   const uint16_t sign = n < 0 ? 0x8000 : 0;
   unsigned m = unsigned(std::abs(n));
   int exponent = -3;
   while (m < 1024) {
      m <<= 1;
      exponent--;
   }
   return uint16_t(sign | (uint16_t(exponent + 10 + 15) << 10) | (m - 1024));
}

/* Random integers; float channels multiples of 1/8 up to 25 in magnitude, so that every result
 * of the shader is exact in 16 bits (the float-to-half rounding is the implementation's). */
std::vector<uint8_t> source_elements(const Format &f, uint32_t count)
{
   std::mt19937 random(uint32_t(f.format) * 7u + 1u);
   std::vector<uint8_t> bytes(size_t(count) * f.bytes);
   for (auto &b : bytes)
      b = uint8_t(random());
   if (f.kind == Kind::Float)
      for (size_t i = 0; i + 1 < bytes.size(); i += 2) {
         const uint16_t half = eighths_as_half(int(random() % 401) - 200);
         bytes[i] = uint8_t(half);
         bytes[i + 1] = uint8_t(half >> 8);
      }
   return bytes;
}

std::string shader_name(const Format &f, bool image, bool formatless)
{
   const std::string stem = std::string("storage_narrow_") + (image ? "image_" : "buffer_");
   return formatless ? stem + "none_" + std::to_string(int(f.kind)) : stem + f.glsl;
}

struct Outcome {
   VkResult result = VK_ERROR_UNKNOWN;
   std::vector<uint8_t> bytes; /* the destination: the whole buffer, or the image copied out */
};

void write_view(ComputeDevice &gpu, VkDescriptorSet set, uint32_t binding, VkDescriptorType type, VkImageView view,
                const VkBufferView *buffer_view)
{
   const VkDescriptorImageInfo image{VK_NULL_HANDLE, view, VK_IMAGE_LAYOUT_GENERAL};
   VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
   write.dstSet = set;
   write.dstBinding = binding;
   write.descriptorCount = 1;
   write.descriptorType = type;
   write.pImageInfo = &image;
   write.pTexelBufferView = buffer_view;
   vkUpdateDescriptorSets(gpu.device, 1, &write, 0, nullptr);
}

/* Texel buffers: views at byte offset 256 of 100 elements; the bytes around them must stay. */
Outcome run_buffer(ComputeDevice &gpu, const Format &f, bool formatless)
{
   Outcome out;
   const VkDescriptorType type = VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
   auto program = gpu.program(shader_name(f, false, formatless), {{type, type}}, sizeof(Push), &out.result);
   if (out.result != VK_SUCCESS)
      return out;
   constexpr uint32_t elements = 100;
   constexpr VkDeviceSize offset = 256;
   const VkDeviceSize bytes = offset + VkDeviceSize(elements) * f.bytes + 64;
   auto src = gpu.buffer(bytes, VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT);
   auto dst = gpu.buffer(bytes, VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT);
   const std::vector<uint8_t> texels = source_elements(f, elements);
   std::memcpy(reinterpret_cast<uint8_t *>(src.words) + offset, texels.data(), texels.size());
   std::memset(dst.words, 0xa5, bytes);
   VkBufferView views[2] = {};
   for (unsigned i = 0; i < 2; i++) {
      VkBufferViewCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
      info.buffer = i ? dst.buffer : src.buffer;
      info.format = f.format;
      info.offset = offset;
      info.range = VkDeviceSize(elements) * f.bytes;
      EXPECT_EQ(vkCreateBufferView(gpu.device, &info, nullptr, &views[i]), VK_SUCCESS);
   }
   VkDescriptorSet set = gpu.allocate_set(program, 0);
   write_view(gpu, set, 0, type, VK_NULL_HANDLE, &views[0]);
   write_view(gpu, set, 1, type, VK_NULL_HANDLE, &views[1]);
   const Push push = push_for(f, elements);
   VkCommandBuffer commands = gpu.begin();
   vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.pipeline);
   vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.layout, 0, 1, &set, 0, nullptr);
   vkCmdPushConstants(commands, program.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
   vkCmdDispatch(commands, (elements + 7) / 8, 1, 1);
   out.result = gpu.submit_and_wait(commands);
   const uint8_t *stored = reinterpret_cast<const uint8_t *>(dst.words);
   out.bytes.assign(stored, stored + bytes);
   for (VkBufferView v : views)
      vkDestroyBufferView(gpu.device, v, nullptr);
   gpu.destroy(program);
   gpu.destroy(src);
   gpu.destroy(dst);
   return out;
}

/* 2D images of 8 x 6 texels (optimal tiling), every texel touched, copied out afterwards. */
Outcome run_image(ComputeDevice &gpu, const Format &f, bool formatless)
{
   Outcome out;
   const VkDescriptorType type = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
   auto program = gpu.program(shader_name(f, true, formatless), {{type, type}}, sizeof(Push), &out.result);
   if (out.result != VK_SUCCESS)
      return out;
   constexpr uint32_t width = 8, height = 6, texels = width * height;
   gpu.extra_image_usage = VK_IMAGE_USAGE_STORAGE_BIT;
   auto src = gpu.image(f.format, VK_IMAGE_TYPE_2D, {width, height, 1}, 1, 1, source_elements(f, texels), f.bytes);
   auto dst = gpu.image(f.format, VK_IMAGE_TYPE_2D, {width, height, 1}, 1, 1,
                        std::vector<uint8_t>(size_t(texels) * f.bytes, 0x5a), f.bytes);
   gpu.extra_image_usage = 0;
   VkImageView src_view = gpu.view(src, VK_IMAGE_VIEW_TYPE_2D);
   VkImageView dst_view = gpu.view(dst, VK_IMAGE_VIEW_TYPE_2D);
   VkDescriptorSet set = gpu.allocate_set(program, 0);
   write_view(gpu, set, 0, type, src_view, nullptr);
   write_view(gpu, set, 1, type, dst_view, nullptr);
   auto copy_out = gpu.buffer(VkDeviceSize(texels) * f.bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
   const Push push = push_for(f, texels);
   VkCommandBuffer commands = gpu.begin();
   VkImageMemoryBarrier to_general{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
   to_general.srcAccessMask = VK_ACCESS_SHADER_READ_BIT;
   to_general.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
   to_general.oldLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
   to_general.newLayout = VK_IMAGE_LAYOUT_GENERAL;
   to_general.srcQueueFamilyIndex = to_general.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
   to_general.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
   VkImageMemoryBarrier barriers[2] = {to_general, to_general};
   barriers[0].image = src.image;
   barriers[1].image = dst.image;
   vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0,
                        nullptr, 0, nullptr, 2, barriers);
   vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.pipeline);
   vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.layout, 0, 1, &set, 0, nullptr);
   vkCmdPushConstants(commands, program.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
   vkCmdDispatch(commands, (texels + 7) / 8, 1, 1);
   VkImageMemoryBarrier to_copy = barriers[1];
   to_copy.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
   to_copy.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
   to_copy.oldLayout = VK_IMAGE_LAYOUT_GENERAL;
   to_copy.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
   vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                        nullptr, 1, &to_copy);
   VkBufferImageCopy region{};
   region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
   region.imageExtent = {width, height, 1};
   vkCmdCopyImageToBuffer(commands, dst.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, copy_out.buffer, 1, &region);
   VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
   to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
   to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
   vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0,
                        nullptr, 0, nullptr);
   out.result = gpu.submit_and_wait(commands);
   const uint8_t *stored = reinterpret_cast<const uint8_t *>(copy_out.words);
   out.bytes.assign(stored, stored + size_t(texels) * f.bytes);
   vkDestroyImageView(gpu.device, src_view, nullptr);
   vkDestroyImageView(gpu.device, dst_view, nullptr);
   gpu.destroy(program);
   gpu.destroy(src);
   gpu.destroy(dst);
   gpu.destroy(copy_out);
   return out;
}

void compare_with_lavapipe(const Format &f, bool image)
{
   SCOPED_TRACE(std::string(f.glsl) + (image ? " 2D image" : " texel buffer"));
   ComputeDevice &terakan = terakan_gpu(), &lavapipe = lavapipe_gpu();
   ASSERT_TRUE(terakan.ok()) << terakan.error;
   ASSERT_TRUE(lavapipe.ok()) << lavapipe.error;
   const unsigned before = terakan.validation_messages, lavapipe_before = lavapipe.validation_messages;
   const Outcome got = image ? run_image(terakan, f, true) : run_buffer(terakan, f, true);
   const Outcome expected = image ? run_image(lavapipe, f, false) : run_buffer(lavapipe, f, false);
   ASSERT_EQ(expected.result, VK_SUCCESS);
   ASSERT_EQ(got.result, VK_SUCCESS);
   ASSERT_EQ(got.bytes.size(), expected.bytes.size());
   for (size_t i = 0; i < got.bytes.size(); i++)
      if (got.bytes[i] != expected.bytes[i]) {
         ADD_FAILURE() << "byte " << i << " (element " << (i >= 256 && !image ? (i - 256) / f.bytes : i / f.bytes)
                       << "): " << unsigned(got.bytes[i]) << " vs lavapipe's " << unsigned(expected.bytes[i]);
         break;
      }
   /* The stores reached memory: most bytes of the view (after the buffer's first 256) no
    * longer hold the fill. */
   const uint8_t fill = image ? 0x5a : 0xa5;
   const size_t first = image ? 0 : 256, end = image ? got.bytes.size() : 256 + 100 * f.bytes;
   size_t changed = 0;
   for (size_t i = first; i < end && i < got.bytes.size(); i++)
      changed += got.bytes[i] != fill;
   EXPECT_GT(changed, (end - first) / 2);
   EXPECT_EQ(terakan.validation_messages, before) << "validation layer messages on Terakan";
   EXPECT_EQ(lavapipe.validation_messages, lavapipe_before);
}

TEST(StorageFormats, NarrowFormatsAsStorageTexelBuffers)
{
   for (const Format &f : formats)
      compare_with_lavapipe(f, false);
}

TEST(StorageFormats, NarrowFormatsAsStorageImages)
{
   for (const Format &f : formats)
      compare_with_lavapipe(f, true);
}

TEST(StorageFormats, FeaturesOfferedForTheNarrowFormats)
{
   ComputeDevice &terakan = terakan_gpu();
   ASSERT_TRUE(terakan.ok()) << terakan.error;
   for (const Format &f : formats) {
      VkFormatProperties properties;
      vkGetPhysicalDeviceFormatProperties(terakan.physical, f.format, &properties);
      EXPECT_TRUE(properties.bufferFeatures & VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT) << f.glsl;
      EXPECT_TRUE(properties.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT) << f.glsl;
      /* RAT atomics are 32-bit only. */
      EXPECT_FALSE(properties.bufferFeatures & VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_ATOMIC_BIT) << f.glsl;
      EXPECT_FALSE(properties.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_ATOMIC_BIT) << f.glsl;
   }
   VkPhysicalDeviceFeatures features;
   vkGetPhysicalDeviceFeatures(terakan.physical, &features);
   /* With the normalized and packed formats too (api-storage-extended-*). */
   EXPECT_TRUE(features.shaderStorageImageExtendedFormats);
}

} // namespace
