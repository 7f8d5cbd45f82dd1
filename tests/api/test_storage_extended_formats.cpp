/* shaderStorageImageExtendedFormats: every format Vulkan lists under that feature (the
 * specification's "Formats requiring shaderStorageImageExtendedFormats" table) as a 2D storage
 * image (some also 2D tiled) and as a storage texel buffer, read and written with its format qualifier by
 * shaders/storage_extended.comp, on the driver over the simulated GPU of TERAKAN_SIM_CHIP and
 * on lavapipe, validation layer on. The destination's bytes (the whole buffer, or the image
 * copied out) must equal lavapipe's. Stores are typed RAT writes that the simulator converts
 * as the CB converts a colour export (normalized, 10-bit and 11/10-bit float packing
 * included); loads go through the texture unit or the fetch unit. The features offered are
 * checked as well. */
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <random>
#include <string>

#include "compute_device.h"

using namespace terakan::test;

namespace {

/* Matches KIND in storage_extended.comp. */
enum class Kind { Unorm = 0, Snorm = 1, Uint = 2, Int = 3, PackedFloat = 4 };

struct Format {
   const char *glsl; /* the format qualifier */
   VkFormat format;
   unsigned bytes;                 /* per element */
   Kind kind;
   std::array<int32_t, 4> top;     /* the shader's `top` */
   std::array<unsigned, 3> floats; /* PackedFloat: widths of the float fields from bit 0 */
};

constexpr std::array<int32_t, 4> all(int32_t v) { return {v, v, v, v}; }
constexpr std::array<int32_t, 4> ten_ten_ten_two = {1023, 1023, 1023, 3};

const Format formats[] = {
   {"r8", VK_FORMAT_R8_UNORM, 1, Kind::Unorm, all(255), {}},
   {"rg8", VK_FORMAT_R8G8_UNORM, 2, Kind::Unorm, all(255), {}},
   {"r16", VK_FORMAT_R16_UNORM, 2, Kind::Unorm, all(65535), {}},
   {"rg16", VK_FORMAT_R16G16_UNORM, 4, Kind::Unorm, all(65535), {}},
   {"rgba16", VK_FORMAT_R16G16B16A16_UNORM, 8, Kind::Unorm, all(65535), {}},
   {"rgb10_a2", VK_FORMAT_A2B10G10R10_UNORM_PACK32, 4, Kind::Unorm, ten_ten_ten_two, {}},
   {"r8_snorm", VK_FORMAT_R8_SNORM, 1, Kind::Snorm, all(127), {}},
   {"rg8_snorm", VK_FORMAT_R8G8_SNORM, 2, Kind::Snorm, all(127), {}},
   {"r16_snorm", VK_FORMAT_R16_SNORM, 2, Kind::Snorm, all(32767), {}},
   {"rg16_snorm", VK_FORMAT_R16G16_SNORM, 4, Kind::Snorm, all(32767), {}},
   {"rgba16_snorm", VK_FORMAT_R16G16B16A16_SNORM, 8, Kind::Snorm, all(32767), {}},
   {"r8ui", VK_FORMAT_R8_UINT, 1, Kind::Uint, all(255), {}},
   {"rg8ui", VK_FORMAT_R8G8_UINT, 2, Kind::Uint, all(255), {}},
   {"r16ui", VK_FORMAT_R16_UINT, 2, Kind::Uint, all(65535), {}},
   {"rg16ui", VK_FORMAT_R16G16_UINT, 4, Kind::Uint, all(65535), {}},
   {"rgb10_a2ui", VK_FORMAT_A2B10G10R10_UINT_PACK32, 4, Kind::Uint, ten_ten_ten_two, {}},
   {"r8i", VK_FORMAT_R8_SINT, 1, Kind::Int, all(127), {}},
   {"rg8i", VK_FORMAT_R8G8_SINT, 2, Kind::Int, all(127), {}},
   {"r16i", VK_FORMAT_R16_SINT, 2, Kind::Int, all(32767), {}},
   {"rg16i", VK_FORMAT_R16G16_SINT, 4, Kind::Int, all(32767), {}},
   {"r16f", VK_FORMAT_R16_SFLOAT, 2, Kind::PackedFloat, all(0), {16, 0, 0}},
   {"rg16f", VK_FORMAT_R16G16_SFLOAT, 4, Kind::PackedFloat, all(0), {16, 16, 0}},
   {"r11f_g11f_b10f", VK_FORMAT_B10G11R11_UFLOAT_PACK32, 4, Kind::PackedFloat, all(0), {11, 11, 10}},
};

struct Push {
   std::array<int32_t, 4> top;
   int32_t count;
   int32_t width; /* of the image */
};

/* Random codes; for float fields (half floats: sign, 5 exponent and 10 mantissa bits; the
 * unsigned 11- and 10-bit floats: 5 exponent bits and the rest mantissa) positive values
 * with biased exponents 4..24, so that the shader's scaling by 1/2, 2 and 4 stays normal and
 * exact. */
std::vector<uint8_t> source_elements(const Format &f, uint32_t count)
{
   std::mt19937 random(uint32_t(f.format) * 13u + 5u);
   std::vector<uint8_t> bytes(size_t(count) * f.bytes);
   for (auto &b : bytes)
      b = uint8_t(random());
   if (f.kind != Kind::PackedFloat)
      return bytes;
   for (size_t e = 0; e < count; e++) {
      uint32_t element = 0;
      unsigned at = 0;
      for (unsigned width : f.floats) {
         if (!width)
            break;
         const unsigned mantissa_bits = width == 16 ? 10 : width - 5;
         const uint32_t exponent = 4 + random() % 21;
         const uint32_t mantissa = random() & ((1u << mantissa_bits) - 1);
         element |= ((exponent << mantissa_bits) | mantissa) << at;
         at += width;
      }
      std::memcpy(&bytes[e * f.bytes], &element, f.bytes);
   }
   return bytes;
}

std::string shader_name(const Format &f, bool image)
{
   return std::string("storage_extended_") + (image ? "image_" : "buffer_") + f.glsl;
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

void dispatch(ComputeDevice &gpu, VkCommandBuffer commands, ComputeDevice::Program &program, VkDescriptorSet set,
              const Push &push)
{
   vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.pipeline);
   vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.layout, 0, 1, &set, 0, nullptr);
   vkCmdPushConstants(commands, program.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
   vkCmdDispatch(commands, (uint32_t(push.count) + 7) / 8, 1, 1);
}

constexpr uint32_t buffer_elements = 100;
constexpr VkDeviceSize buffer_view_offset = 256;

/* Texel buffers: views at byte offset 256 of 100 elements; the bytes around them must stay. */
Outcome run_buffer(ComputeDevice &gpu, const Format &f)
{
   Outcome out;
   const VkDescriptorType type = VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
   auto program = gpu.program(shader_name(f, false), {{type, type}}, sizeof(Push), &out.result);
   if (out.result != VK_SUCCESS)
      return out;
   const VkDeviceSize bytes = buffer_view_offset + VkDeviceSize(buffer_elements) * f.bytes + 64;
   auto src = gpu.buffer(bytes, VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT);
   auto dst = gpu.buffer(bytes, VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT);
   const std::vector<uint8_t> texels = source_elements(f, buffer_elements);
   std::memcpy(reinterpret_cast<uint8_t *>(src.words) + buffer_view_offset, texels.data(), texels.size());
   std::memset(dst.words, 0xa5, bytes);
   VkBufferView views[2] = {};
   for (unsigned i = 0; i < 2; i++) {
      VkBufferViewCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
      info.buffer = i ? dst.buffer : src.buffer;
      info.format = f.format;
      info.offset = buffer_view_offset;
      info.range = VkDeviceSize(buffer_elements) * f.bytes;
      EXPECT_EQ(vkCreateBufferView(gpu.device, &info, nullptr, &views[i]), VK_SUCCESS);
   }
   VkDescriptorSet set = gpu.allocate_set(program, 0);
   write_view(gpu, set, 0, type, VK_NULL_HANDLE, &views[0]);
   write_view(gpu, set, 1, type, VK_NULL_HANDLE, &views[1]);
   VkCommandBuffer commands = gpu.begin();
   dispatch(gpu, commands, program, set, Push{f.top, int32_t(buffer_elements), 0});
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

/* 2D images (optimal tiling) of 8 x 6 texels, or of 128 x 64, which the driver lays out 2D
 * tiled, every texel touched, copied out afterwards. */
Outcome run_image(ComputeDevice &gpu, const Format &f, bool large)
{
   const uint32_t image_width = large ? 128 : 8, image_height = large ? 64 : 6;
   const uint32_t image_texels = image_width * image_height;
   Outcome out;
   const VkDescriptorType type = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
   auto program = gpu.program(shader_name(f, true), {{type, type}}, sizeof(Push), &out.result);
   if (out.result != VK_SUCCESS)
      return out;
   const VkExtent3D extent{image_width, image_height, 1};
   gpu.extra_image_usage = VK_IMAGE_USAGE_STORAGE_BIT;
   auto src = gpu.image(f.format, VK_IMAGE_TYPE_2D, extent, 1, 1, source_elements(f, image_texels), f.bytes);
   auto dst = gpu.image(f.format, VK_IMAGE_TYPE_2D, extent, 1, 1,
                        std::vector<uint8_t>(size_t(image_texels) * f.bytes, 0x5a), f.bytes);
   gpu.extra_image_usage = 0;
   VkImageView src_view = gpu.view(src, VK_IMAGE_VIEW_TYPE_2D);
   VkImageView dst_view = gpu.view(dst, VK_IMAGE_VIEW_TYPE_2D);
   VkDescriptorSet set = gpu.allocate_set(program, 0);
   write_view(gpu, set, 0, type, src_view, nullptr);
   write_view(gpu, set, 1, type, dst_view, nullptr);
   auto copy_out = gpu.buffer(VkDeviceSize(image_texels) * f.bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
   VkCommandBuffer commands = gpu.begin();
   /* image() leaves both in SHADER_READ_ONLY_OPTIMAL. */
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
   dispatch(gpu, commands, program, set, Push{f.top, int32_t(image_texels), int32_t(image_width)});
   VkImageMemoryBarrier to_copy = barriers[1];
   to_copy.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
   to_copy.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
   to_copy.oldLayout = VK_IMAGE_LAYOUT_GENERAL;
   to_copy.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
   vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                        nullptr, 1, &to_copy);
   VkBufferImageCopy region{};
   region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
   region.imageExtent = extent;
   vkCmdCopyImageToBuffer(commands, dst.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, copy_out.buffer, 1, &region);
   VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
   to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
   to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
   vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0,
                        nullptr, 0, nullptr);
   out.result = gpu.submit_and_wait(commands);
   const uint8_t *stored = reinterpret_cast<const uint8_t *>(copy_out.words);
   out.bytes.assign(stored, stored + size_t(image_texels) * f.bytes);
   vkDestroyImageView(gpu.device, src_view, nullptr);
   vkDestroyImageView(gpu.device, dst_view, nullptr);
   gpu.destroy(program);
   gpu.destroy(src);
   gpu.destroy(dst);
   gpu.destroy(copy_out);
   return out;
}

void compare_with_lavapipe(const Format &f, bool image, bool large = false)
{
   SCOPED_TRACE(std::string(f.glsl) + (image ? (large ? " 128x64 2D image" : " 2D image") : " texel buffer"));
   ComputeDevice &terakan = terakan_gpu(), &lavapipe = lavapipe_gpu();
   ASSERT_TRUE(terakan.ok()) << terakan.error;
   ASSERT_TRUE(lavapipe.ok()) << lavapipe.error;
   const unsigned before = terakan.validation_messages, lavapipe_before = lavapipe.validation_messages;
   const Outcome got = image ? run_image(terakan, f, large) : run_buffer(terakan, f);
   const Outcome expected = image ? run_image(lavapipe, f, large) : run_buffer(lavapipe, f);
   ASSERT_EQ(expected.result, VK_SUCCESS);
   ASSERT_EQ(got.result, VK_SUCCESS);
   ASSERT_EQ(got.bytes.size(), expected.bytes.size());
   const size_t first = image ? 0 : buffer_view_offset;
   for (size_t i = 0; i < got.bytes.size(); i++)
      if (got.bytes[i] != expected.bytes[i]) {
         ADD_FAILURE() << "byte " << i << " (element " << (i >= first ? (i - first) / f.bytes : 0)
                       << "): " << unsigned(got.bytes[i]) << " vs lavapipe's " << unsigned(expected.bytes[i]);
         break;
      }
   /* The stores reached memory: most bytes of the view no longer hold the fill. */
   const uint8_t fill = image ? 0x5a : 0xa5;
   const size_t end = image ? got.bytes.size() : first + size_t(buffer_elements) * f.bytes;
   size_t changed = 0;
   for (size_t i = first; i < end && i < got.bytes.size(); i++)
      changed += got.bytes[i] != fill;
   EXPECT_GT(changed, (end - first) / 2);
   EXPECT_EQ(terakan.validation_messages, before) << "validation layer messages on Terakan";
   EXPECT_EQ(lavapipe.validation_messages, lavapipe_before);
}

TEST(StorageExtendedFormats, AsStorageImagesWithTheirFormatQualifiers)
{
   for (const Format &f : formats)
      compare_with_lavapipe(f, true);
}

/* 2D-tiled images of 1-, 2-, 4- and 8-byte elements: the RAT's tiling codes and the CB's
 * 2D-tiled addressing for each element size. */
TEST(StorageExtendedFormats, TwoDimensionalTiledImages)
{
   for (const Format &f : formats)
      if (f.format == VK_FORMAT_R8_UNORM || f.format == VK_FORMAT_R8G8_SNORM || f.format == VK_FORMAT_R16G16_SNORM ||
          f.format == VK_FORMAT_B10G11R11_UFLOAT_PACK32 || f.format == VK_FORMAT_R16G16B16A16_UNORM)
         compare_with_lavapipe(f, true, true);
}

TEST(StorageExtendedFormats, AsStorageTexelBuffersWithTheirFormatQualifiers)
{
   for (const Format &f : formats)
      compare_with_lavapipe(f, false);
}

TEST(StorageExtendedFormats, FeatureAndFormatFeaturesOffered)
{
   ComputeDevice &terakan = terakan_gpu();
   ASSERT_TRUE(terakan.ok()) << terakan.error;
   VkPhysicalDeviceFeatures features;
   vkGetPhysicalDeviceFeatures(terakan.physical, &features);
   EXPECT_TRUE(features.shaderStorageImageExtendedFormats);
   for (const Format &f : formats) {
      VkFormatProperties properties;
      vkGetPhysicalDeviceFormatProperties(terakan.physical, f.format, &properties);
      EXPECT_TRUE(properties.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT) << f.glsl;
      EXPECT_TRUE(properties.bufferFeatures & VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT) << f.glsl;
      /* RAT atomics are 32-bit only. */
      EXPECT_FALSE(properties.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_ATOMIC_BIT) << f.glsl;
      EXPECT_FALSE(properties.bufferFeatures & VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_ATOMIC_BIT) << f.glsl;
   }
}

} // namespace
