/* Image copies (vkCmdCopyImage, vkCmdCopyBufferToImage, vkCmdCopyImageToBuffer) on Terakan (the
 * simulated GPU of TERAKAN_SIM_CHIP) against lavapipe, byte for byte, with the validation layer
 * on: every pair of tilings (LINEAR, and OPTIMAL images whose large levels are 2D tiled and
 * small ones 1D tiled) for 8-, 16-, 32-, 64- and 128-bit texels, an sRGB, a packed and two
 * block-compressed formats, at odd offsets and extents, across levels and layers; 3D slices
 * and copies between 3D and 2D array images; buffer <-> image with bufferRowLength and
 * bufferImageHeight; copies between formats of the same texel size.
 *
 * Every destination is filled with other bytes first and read back whole, so what a copy must
 * leave alone is checked too. Sources are filled through linear images or buffers.
 *
 * The driver copies tiled colour images with its copy shader (terakan_meta_copy.cpp) and the
 * rest by CP DMA; TERAKAN_DEBUG=dmacopies forces CP DMA everywhere (tests/meson.build runs the
 * program both ways). PathTaken reads the driver's TERAKAN_DEBUG=copies report from stderr to
 * check which path each kind of copy took. */
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include "compute_device.h"
#include "../vulkan_helpers.h"

using namespace terakan::test;

namespace {

using Scenario = std::function<std::vector<uint32_t>(ComputeDevice &)>;

void expect_same_as_lavapipe(const Scenario &scenario)
{
   ComputeDevice &terakan = terakan_gpu();
   ComputeDevice &lavapipe = lavapipe_gpu();
   ASSERT_TRUE(terakan.ok()) << terakan.error;
   ASSERT_TRUE(lavapipe.ok()) << lavapipe.error;
   const unsigned before = terakan.validation_messages, lavapipe_before = lavapipe.validation_messages;
   const std::vector<uint32_t> got = scenario(terakan);
   const std::vector<uint32_t> expected = scenario(lavapipe);
   ASSERT_FALSE(expected.empty());
   ASSERT_EQ(got.size(), expected.size());
   unsigned mismatches = 0;
   size_t last = 0;
   for (size_t i = 0; i < expected.size(); i++)
      if (got[i] != expected[i]) {
         last = i;
         if (++mismatches <= 12)
            ADD_FAILURE() << "word " << i << ": lavapipe 0x" << std::hex << expected[i] << ", terakan 0x" << got[i];
      }
   EXPECT_EQ(mismatches, 0u) << "of " << expected.size() << " words, the last at " << last;
   EXPECT_EQ(terakan.validation_messages, before) << "validation layer messages on Terakan";
   EXPECT_EQ(lavapipe.validation_messages, lavapipe_before);
}

struct FormatCase {
   VkFormat format;
   unsigned bytes; /* per texel, or per block */
   unsigned block; /* texels a block side */
};

const FormatCase formats[] = {
   {VK_FORMAT_R8_UNORM, 1, 1},
   {VK_FORMAT_R16_SFLOAT, 2, 1},
   {VK_FORMAT_R8G8B8A8_SRGB, 4, 1},
   {VK_FORMAT_A2B10G10R10_UNORM_PACK32, 4, 1},
   {VK_FORMAT_R16G16B16A16_SFLOAT, 8, 1},
   {VK_FORMAT_R32G32B32A32_SFLOAT, 16, 1},
   {VK_FORMAT_BC1_RGBA_UNORM_BLOCK, 8, 4},
   {VK_FORMAT_BC3_SRGB_BLOCK, 16, 4},
};

/* Pseudo-random bytes (every bit pattern: NaNs and denormals included, which a copy keeps). */
std::vector<uint8_t> noise(size_t count, uint32_t seed)
{
   std::vector<uint8_t> bytes(count);
   uint32_t x = seed * 2654435761u + 0x9e3779b9u;
   for (uint8_t &b : bytes) {
      x ^= x << 13;
      x ^= x >> 17;
      x ^= x << 5;
      b = uint8_t(x >> 11);
   }
   return bytes;
}

struct TestImage {
   VkImage image = VK_NULL_HANDLE;
   VkDeviceMemory memory = VK_NULL_HANDLE;
   VkImageType type = VK_IMAGE_TYPE_2D;
   VkExtent3D extent{1, 1, 1};
   uint32_t layers = 1, levels = 1;
   FormatCase format{};
};

bool supported(ComputeDevice &gpu, VkFormat format, VkImageType type, VkImageTiling tiling, uint32_t levels,
               uint32_t layers)
{
   VkImageFormatProperties properties;
   if (vkGetPhysicalDeviceImageFormatProperties(gpu.physical, format, type, tiling,
                                                VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, 0,
                                                &properties) != VK_SUCCESS)
      return false;
   return properties.maxMipLevels >= levels && properties.maxArrayLayers >= layers;
}

uint32_t level_size(uint32_t size, uint32_t level)
{
   return std::max(size >> level, 1u);
}

/* Bytes of one level's layers (or slices), packed rows of blocks. */
size_t level_bytes(const TestImage &image, uint32_t level)
{
   const unsigned block = image.format.block;
   const size_t w = (level_size(image.extent.width, level) + block - 1) / block;
   const size_t h = (level_size(image.extent.height, level) + block - 1) / block;
   const size_t d = image.type == VK_IMAGE_TYPE_3D ? level_size(image.extent.depth, level) : image.layers;
   return w * h * d * image.format.bytes;
}

size_t image_bytes(const TestImage &image)
{
   size_t total = 0;
   for (uint32_t level = 0; level < image.levels; level++)
      total += level_bytes(image, level);
   return total;
}

/* Every level, all layers, packed: the regions of a whole-image copy to or from a buffer. */
std::vector<VkBufferImageCopy> whole_image_regions(const TestImage &image)
{
   std::vector<VkBufferImageCopy> regions;
   VkDeviceSize offset = 0;
   for (uint32_t level = 0; level < image.levels; level++) {
      VkBufferImageCopy region{};
      region.bufferOffset = offset;
      region.imageSubresource = {image_aspect(image.format.format), level, 0, image.layers};
      region.imageExtent = {level_size(image.extent.width, level), level_size(image.extent.height, level),
                            image.type == VK_IMAGE_TYPE_3D ? level_size(image.extent.depth, level) : 1};
      regions.push_back(region);
      offset += level_bytes(image, level);
   }
   return regions;
}

void image_barrier(VkCommandBuffer commands, VkImage image, VkImageLayout from, VkImageLayout to,
                   VkImageAspectFlags aspect = VK_IMAGE_ASPECT_COLOR_BIT)
{
   VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
   barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT;
   barrier.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT;
   barrier.oldLayout = from;
   barrier.newLayout = to;
   barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
   barrier.image = image;
   barrier.subresourceRange = {aspect, 0, VK_REMAINING_MIP_LEVELS, 0, VK_REMAINING_ARRAY_LAYERS};
   vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                        nullptr, 1, &barrier);
}

/* An image filled with `bytes` (image_bytes long, whole_image_regions order), left in GENERAL. */
TestImage make_image(ComputeDevice &gpu, const FormatCase &format, VkImageType type, VkExtent3D extent,
                     uint32_t layers, uint32_t levels, VkImageTiling tiling, const std::vector<uint8_t> &bytes)
{
   TestImage out;
   out.type = type;
   out.extent = extent;
   out.layers = layers;
   out.levels = levels;
   out.format = format;
   VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
   info.imageType = type;
   info.format = format.format;
   info.extent = extent;
   info.mipLevels = levels;
   info.arrayLayers = layers;
   info.samples = VK_SAMPLE_COUNT_1_BIT;
   info.tiling = tiling;
   info.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
   info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
   EXPECT_EQ(vkCreateImage(gpu.device, &info, nullptr, &out.image), VK_SUCCESS);
   EXPECT_TRUE(bind_image_memory(gpu.physical, gpu.device, out.image, out.memory));
   ComputeDevice::Buffer staging = gpu.buffer(bytes.size(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
   std::memcpy(staging.words, bytes.data(), bytes.size());
   VkCommandBuffer commands = gpu.begin();
   image_barrier(commands, out.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL, image_aspect(format.format));
   const std::vector<VkBufferImageCopy> regions = whole_image_regions(out);
   vkCmdCopyBufferToImage(commands, staging.buffer, out.image, VK_IMAGE_LAYOUT_GENERAL, uint32_t(regions.size()),
                          regions.data());
   image_barrier(commands, out.image, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_GENERAL, image_aspect(format.format));
   EXPECT_EQ(gpu.submit_and_wait(commands), VK_SUCCESS);
   gpu.destroy(staging);
   return out;
}

void destroy(ComputeDevice &gpu, TestImage &image)
{
   vkDestroyImage(gpu.device, image.image, nullptr);
   vkFreeMemory(gpu.device, image.memory, nullptr);
   image = {};
}

/* The whole image as words (whole_image_regions order). */
void read_image(ComputeDevice &gpu, const TestImage &image, std::vector<uint32_t> &words)
{
   ComputeDevice::Buffer back = gpu.buffer((image_bytes(image) + 3) & ~size_t(3), VK_BUFFER_USAGE_TRANSFER_DST_BIT);
   VkCommandBuffer commands = gpu.begin();
   const std::vector<VkBufferImageCopy> regions = whole_image_regions(image);
   vkCmdCopyImageToBuffer(commands, image.image, VK_IMAGE_LAYOUT_GENERAL, back.buffer, uint32_t(regions.size()),
                          regions.data());
   ComputeDevice::barrier(commands);
   EXPECT_EQ(gpu.submit_and_wait(commands), VK_SUCCESS);
   words.insert(words.end(), back.words, back.words + back.size / 4);
   gpu.destroy(back);
}

/* An image of `tiling`: linear ones have one level and layer (what Vulkan guarantees for
 * LINEAR), optimal ones 4 levels and 3 layers; 264 x 136 texels, so that level 0 is 2D
 * tiled (BC: 66 x 34 blocks) and levels 2-3 are 1D tiled. */
TestImage tiling_case_image(ComputeDevice &gpu, const FormatCase &f, VkImageTiling tiling, uint32_t seed)
{
   const bool linear = tiling == VK_IMAGE_TILING_LINEAR;
   TestImage shape;
   shape.extent = {264, 136, 1};
   shape.layers = linear ? 1 : 3;
   shape.levels = linear ? 1 : 4;
   shape.format = f;
   return make_image(gpu, f, VK_IMAGE_TYPE_2D, shape.extent, shape.layers, shape.levels, tiling,
                     noise(image_bytes(shape), seed));
}

/* Regions from `src` to `dst` at odd places (block-aligned for compressed formats, a partial
 * block at the right and bottom edges of a level), on the layers and levels both have. */
std::vector<VkImageCopy> tiling_case_regions(const TestImage &src, const TestImage &dst)
{
   const unsigned k = src.format.block;
   std::vector<VkImageCopy> regions;
   auto add = [&](uint32_t src_level, uint32_t src_layer, VkOffset3D from, uint32_t dst_level, uint32_t dst_layer,
                  VkOffset3D to, VkExtent3D extent, uint32_t layers) {
      VkImageCopy r{};
      r.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, src_level, src_layer, layers};
      r.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, dst_level, dst_layer, layers};
      r.srcOffset = from;
      r.dstOffset = to;
      r.extent = extent;
      regions.push_back(r);
   };
   const bool layered = src.layers > 1 && dst.layers > 1;
   /* Level 0 to level 0 (2D tiled when optimal), odd offsets and extents. */
   add(0, 0, {int32_t(3 * k), int32_t(5 * k), 0}, 0, layered ? 1 : 0, {int32_t(17 * k), int32_t(1 * k), 0},
       {37 * k, 29 * k, 1}, layered ? 2 : 1);
   /* To the right and bottom edges of level 0 (BC: partial blocks there are whole ones). */
   add(0, 0, {int32_t(40 * k), int32_t(8 * k), 0}, 0, 0, {int32_t(264 - 7 * k), int32_t(136 - 5 * k), 0},
       {7 * k, 5 * k, 1}, 1);
   if (src.levels > 2 && dst.levels > 2)
      /* 1D-tiled level 2 (66 x 34, BC: a partial block column and row) whole, to another layer. */
      add(2, 2, {0, 0, 0}, 2, 0, {0, 0, 0}, {66, 34, 1}, 1);
   if (src.levels > 2 && k == 1)
      /* Level 2 of the source into level 0 of the destination. */
      add(2, 1, {0, 0, 0}, 0, 0, {100, 60, 0}, {66, 34, 1}, 1);
   if (src.levels > 3 && dst.levels > 3)
      /* 1D-tiled level 3 (33 x 17) to its edges, to another layer. */
      add(3, 1, {int32_t(2 * k), int32_t(k), 0}, 3, 2, {int32_t(2 * k), int32_t(k), 0}, {33 - 2 * k, 17 - k, 1}, 1);
   if (dst.levels > 3 && k == 1)
      /* Level 0 of the source into the 1D-tiled level 3 of the destination, to its edges. */
      add(0, 0, {5, 3, 0}, 3, 0, {2, 1, 0}, {31, 16, 1}, 1);
   if (src.levels > 1 && dst.levels > 1)
      /* Level 1 (132 x 68) whole to level 1 on the same layers: where the layouts agree. */
      add(1, 0, {0, 0, 0}, 1, 0, {0, 0, 0}, {132, 68, 1}, src.layers);
   return regions;
}

std::vector<uint32_t> copies_between_tilings(ComputeDevice &gpu, const FormatCase &f)
{
   std::vector<uint32_t> words;
   const VkImageTiling tilings[2] = {VK_IMAGE_TILING_LINEAR, VK_IMAGE_TILING_OPTIMAL};
   uint32_t seed = 1;
   for (VkImageTiling from : tilings)
      for (VkImageTiling to : tilings) {
         if (!supported(gpu, f.format, VK_IMAGE_TYPE_2D, from, 1, 1) ||
             !supported(gpu, f.format, VK_IMAGE_TYPE_2D, to, 1, 1)) {
            words.push_back(0xdeadu); /* the same marker on both devices, or a mismatch */
            continue;
         }
         TestImage src = tiling_case_image(gpu, f, from, seed++);
         TestImage dst = tiling_case_image(gpu, f, to, seed++);
         const std::vector<VkImageCopy> regions = tiling_case_regions(src, dst);
         VkCommandBuffer commands = gpu.begin();
         vkCmdCopyImage(commands, src.image, VK_IMAGE_LAYOUT_GENERAL, dst.image, VK_IMAGE_LAYOUT_GENERAL,
                        uint32_t(regions.size()), regions.data());
         ComputeDevice::barrier(commands);
         EXPECT_EQ(gpu.submit_and_wait(commands), VK_SUCCESS);
         read_image(gpu, dst, words);
         destroy(gpu, src);
         destroy(gpu, dst);
      }
   return words;
}

/* Buffer -> optimal image and back with row lengths and image heights larger than the region,
 * odd offsets, several layers, on 2D- and 1D-tiled levels; then the image whole. */
std::vector<uint32_t> buffer_image_copies(ComputeDevice &gpu, const FormatCase &f)
{
   std::vector<uint32_t> words;
   const unsigned k = f.block;
   TestImage shape;
   shape.extent = {264, 136, 1};
   shape.layers = 3;
   shape.levels = 4;
   shape.format = f;
   TestImage image = make_image(gpu, f, VK_IMAGE_TYPE_2D, shape.extent, 3, 4, VK_IMAGE_TILING_OPTIMAL,
                                noise(image_bytes(shape), 77));
   const size_t source_bytes = 1 << 20;
   ComputeDevice::Buffer source = gpu.buffer(source_bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
   const std::vector<uint8_t> data = noise(source_bytes, 78);
   std::memcpy(source.words, data.data(), source_bytes);
   ComputeDevice::Buffer out = gpu.buffer(source_bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT);

   VkBufferImageCopy in[3]{}, back[2]{};
   /* Level 0, layers 1-2: row length 45 blocks for 37, image height 40 rows for 29. */
   in[0].bufferOffset = 20 * f.bytes;
   in[0].bufferRowLength = 45 * k;
   in[0].bufferImageHeight = 40 * k;
   in[0].imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 2};
   in[0].imageOffset = {int32_t(3 * k), int32_t(3 * k), 0};
   in[0].imageExtent = {37 * k, 29 * k, 1};
   /* Level 2 (1D tiled), to its right edge, packed. */
   in[1].bufferOffset = 100000 - 100000 % (f.bytes * 4);
   in[1].imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 2, 0, 1};
   in[1].imageOffset = {int32_t(k), int32_t(2 * k), 0};
   in[1].imageExtent = {66 - k, 5 * k, 1};
   /* Level 3, every layer, a row length only. */
   in[2].bufferOffset = 300000 - 300000 % (f.bytes * 4);
   in[2].bufferRowLength = 40 * k;
   in[2].imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 3, 0, 3};
   in[2].imageOffset = {0, int32_t(k), 0};
   in[2].imageExtent = {33, 17 - k, 1};
   /* Back out: level 0 layers 0-1 at an odd place, with a row length and image height. */
   back[0].bufferOffset = 12 * f.bytes;
   back[0].bufferRowLength = 70 * k;
   back[0].bufferImageHeight = 33 * k;
   back[0].imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 2};
   back[0].imageOffset = {int32_t(11 * k), int32_t(3 * k), 0};
   back[0].imageExtent = {51 * k, 30 * k, 1};
   /* Level 2 of layer 2, whole. */
   back[1].bufferOffset = 500000 - 500000 % (f.bytes * 4);
   back[1].imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 2, 2, 1};
   back[1].imageExtent = {66, 34, 1};

   VkCommandBuffer commands = gpu.begin();
   vkCmdCopyBufferToImage(commands, source.buffer, image.image, VK_IMAGE_LAYOUT_GENERAL, 3, in);
   image_barrier(commands, image.image, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_GENERAL);
   vkCmdCopyImageToBuffer(commands, image.image, VK_IMAGE_LAYOUT_GENERAL, out.buffer, 2, back);
   ComputeDevice::barrier(commands);
   EXPECT_EQ(gpu.submit_and_wait(commands), VK_SUCCESS);
   words.insert(words.end(), out.words, out.words + out.size / 4);
   read_image(gpu, image, words);
   gpu.destroy(source);
   gpu.destroy(out);
   destroy(gpu, image);
   return words;
}

/* 3D images (40 x 24 x 9, 2 levels; optimal and linear): slices copied between 3D images at
 * z offsets, from a 3D image into layers of a 2D array and back (Vulkan 1.1), and uploaded
 * from a buffer with an image height. */
std::vector<uint32_t> volume_copies(ComputeDevice &gpu, const FormatCase &f)
{
   std::vector<uint32_t> words;
   TestImage shape;
   shape.type = VK_IMAGE_TYPE_3D;
   shape.extent = {40, 24, 9};
   shape.levels = 2;
   shape.format = f;
   TestImage a = make_image(gpu, f, VK_IMAGE_TYPE_3D, shape.extent, 1, 2, VK_IMAGE_TILING_OPTIMAL,
                            noise(image_bytes(shape), 5));
   TestImage b = make_image(gpu, f, VK_IMAGE_TYPE_3D, shape.extent, 1, 2, VK_IMAGE_TILING_OPTIMAL,
                            noise(image_bytes(shape), 6));
   TestImage array_shape;
   array_shape.extent = {40, 24, 1};
   array_shape.layers = 6;
   array_shape.format = f;
   TestImage layers = make_image(gpu, f, VK_IMAGE_TYPE_2D, array_shape.extent, 6, 1, VK_IMAGE_TILING_OPTIMAL,
                                 noise(image_bytes(array_shape), 7));
   VkImageCopy regions[2]{};
   regions[0].srcSubresource = regions[0].dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
   regions[0].srcOffset = {3, 1, 2};
   regions[0].dstOffset = {9, 5, 4};
   regions[0].extent = {21, 13, 5};
   regions[1].srcSubresource = regions[1].dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 1, 0, 1};
   regions[1].srcOffset = {1, 0, 0};
   regions[1].dstOffset = {0, 3, 1};
   regions[1].extent = {17, 9, 3};
   VkImageCopy to_layers{};
   to_layers.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
   to_layers.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 4};
   to_layers.srcOffset = {2, 3, 4};
   to_layers.dstOffset = {5, 1, 0};
   to_layers.extent = {30, 19, 4};
   VkImageCopy from_layers{};
   from_layers.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 3, 3};
   from_layers.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
   from_layers.srcOffset = {0, 0, 0};
   from_layers.dstOffset = {1, 2, 6};
   from_layers.extent = {39, 22, 3};
   ComputeDevice::Buffer source = gpu.buffer(65536, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
   const std::vector<uint8_t> data = noise(65536, 8);
   std::memcpy(source.words, data.data(), data.size());
   VkBufferImageCopy upload{};
   upload.bufferOffset = 8 * f.bytes;
   upload.bufferRowLength = 19;
   upload.bufferImageHeight = 15;
   upload.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
   upload.imageOffset = {20, 9, 3};
   upload.imageExtent = {17, 11, 5};

   VkCommandBuffer commands = gpu.begin();
   vkCmdCopyImage(commands, a.image, VK_IMAGE_LAYOUT_GENERAL, b.image, VK_IMAGE_LAYOUT_GENERAL, 2, regions);
   vkCmdCopyImage(commands, a.image, VK_IMAGE_LAYOUT_GENERAL, layers.image, VK_IMAGE_LAYOUT_GENERAL, 1, &to_layers);
   ComputeDevice::barrier(commands);
   vkCmdCopyImage(commands, layers.image, VK_IMAGE_LAYOUT_GENERAL, a.image, VK_IMAGE_LAYOUT_GENERAL, 1, &from_layers);
   ComputeDevice::barrier(commands);
   vkCmdCopyBufferToImage(commands, source.buffer, b.image, VK_IMAGE_LAYOUT_GENERAL, 1, &upload);
   ComputeDevice::barrier(commands);
   EXPECT_EQ(gpu.submit_and_wait(commands), VK_SUCCESS);
   read_image(gpu, a, words);
   read_image(gpu, b, words);
   read_image(gpu, layers, words);
   gpu.destroy(source);
   destroy(gpu, a);
   destroy(gpu, b);
   destroy(gpu, layers);
   return words;
}

/* 1D images: an optimal 1D array (300 texels, 3 levels, 4 layers) copied to and from a linear
 * 1D image and a buffer at odd places. */
std::vector<uint32_t> one_dimensional_copies(ComputeDevice &gpu, const FormatCase &f)
{
   std::vector<uint32_t> words;
   TestImage shape;
   shape.type = VK_IMAGE_TYPE_1D;
   shape.extent = {300, 1, 1};
   shape.layers = 4;
   shape.levels = 3;
   shape.format = f;
   TestImage array = make_image(gpu, f, VK_IMAGE_TYPE_1D, shape.extent, 4, 3, VK_IMAGE_TILING_OPTIMAL,
                                noise(image_bytes(shape), 50));
   shape.layers = 1;
   shape.levels = 1;
   TestImage line = make_image(gpu, f, VK_IMAGE_TYPE_1D, shape.extent, 1, 1, VK_IMAGE_TILING_LINEAR,
                               noise(image_bytes(shape), 51));
   ComputeDevice::Buffer source = gpu.buffer(4096, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
   const std::vector<uint8_t> data = noise(4096, 52);
   std::memcpy(source.words, data.data(), data.size());
   VkImageCopy to_array{{VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {7, 0, 0}, {VK_IMAGE_ASPECT_COLOR_BIT, 1, 2, 1}, {3, 0, 0}, {101, 1, 1}};
   VkImageCopy to_line{{VK_IMAGE_ASPECT_COLOR_BIT, 2, 1, 1}, {0, 0, 0}, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {200, 0, 0}, {75, 1, 1}};
   VkBufferImageCopy upload{};
   upload.bufferOffset = 4 * f.bytes;
   upload.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 3};
   upload.bufferRowLength = 61;
   upload.imageOffset = {33, 0, 0};
   upload.imageExtent = {57, 1, 1};
   VkCommandBuffer commands = gpu.begin();
   vkCmdCopyImage(commands, line.image, VK_IMAGE_LAYOUT_GENERAL, array.image, VK_IMAGE_LAYOUT_GENERAL, 1, &to_array);
   ComputeDevice::barrier(commands);
   vkCmdCopyImage(commands, array.image, VK_IMAGE_LAYOUT_GENERAL, line.image, VK_IMAGE_LAYOUT_GENERAL, 1, &to_line);
   vkCmdCopyBufferToImage(commands, source.buffer, array.image, VK_IMAGE_LAYOUT_GENERAL, 1, &upload);
   ComputeDevice::barrier(commands);
   EXPECT_EQ(gpu.submit_and_wait(commands), VK_SUCCESS);
   read_image(gpu, array, words);
   read_image(gpu, line, words);
   gpu.destroy(source);
   destroy(gpu, array);
   destroy(gpu, line);
   return words;
}

/* Copies between formats of one texel size: sRGB into UINT and back into UNORM, BC1 blocks
 * into an R32G32_UINT image (a texel per block) and back, without any conversion. */
std::vector<uint32_t> copies_between_formats(ComputeDevice &gpu)
{
   std::vector<uint32_t> words;
   const FormatCase srgb{VK_FORMAT_R8G8B8A8_SRGB, 4, 1}, uint32{VK_FORMAT_R32_UINT, 4, 1},
      unorm{VK_FORMAT_B8G8R8A8_UNORM, 4, 1}, bc1{VK_FORMAT_BC1_RGB_SRGB_BLOCK, 8, 4},
      pairs{VK_FORMAT_R32G32_UINT, 8, 1};
   TestImage shape;
   shape.extent = {96, 80, 1};
   shape.format = srgb;
   TestImage a = make_image(gpu, srgb, VK_IMAGE_TYPE_2D, shape.extent, 1, 1, VK_IMAGE_TILING_OPTIMAL,
                            noise(image_bytes(shape), 11));
   TestImage b = make_image(gpu, uint32, VK_IMAGE_TYPE_2D, shape.extent, 1, 1, VK_IMAGE_TILING_OPTIMAL,
                            noise(image_bytes(shape), 12));
   TestImage c = make_image(gpu, unorm, VK_IMAGE_TYPE_2D, shape.extent, 1, 1, VK_IMAGE_TILING_LINEAR,
                            noise(image_bytes(shape), 13));
   shape.format = bc1;
   TestImage d = make_image(gpu, bc1, VK_IMAGE_TYPE_2D, shape.extent, 1, 1, VK_IMAGE_TILING_OPTIMAL,
                            noise(image_bytes(shape), 14));
   TestImage e = make_image(gpu, pairs, VK_IMAGE_TYPE_2D, {24, 20, 1}, 1, 1, VK_IMAGE_TILING_OPTIMAL,
                            noise(24 * 20 * 8, 15));
   VkImageCopy ab{{VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {1, 2, 0}, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {5, 3, 0}, {71, 57, 1}};
   VkImageCopy bc{{VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {9, 7, 0}, {80, 60, 1}};
   VkImageCopy de{{VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {8, 4, 0}, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {3, 1, 0}, {60, 64, 1}};
   VkImageCopy ed{{VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {40, 44, 0}, {14, 9, 1}};
   VkCommandBuffer commands = gpu.begin();
   vkCmdCopyImage(commands, a.image, VK_IMAGE_LAYOUT_GENERAL, b.image, VK_IMAGE_LAYOUT_GENERAL, 1, &ab);
   vkCmdCopyImage(commands, d.image, VK_IMAGE_LAYOUT_GENERAL, e.image, VK_IMAGE_LAYOUT_GENERAL, 1, &de);
   ComputeDevice::barrier(commands);
   vkCmdCopyImage(commands, b.image, VK_IMAGE_LAYOUT_GENERAL, c.image, VK_IMAGE_LAYOUT_GENERAL, 1, &bc);
   vkCmdCopyImage(commands, e.image, VK_IMAGE_LAYOUT_GENERAL, d.image, VK_IMAGE_LAYOUT_GENERAL, 1, &ed);
   ComputeDevice::barrier(commands);
   EXPECT_EQ(gpu.submit_and_wait(commands), VK_SUCCESS);
   for (TestImage *image : {&b, &c, &d, &e}) {
      read_image(gpu, *image, words);
   }
   for (TestImage *image : {&a, &b, &c, &d, &e})
      destroy(gpu, *image);
   return words;
}

/* The depth and stencil planes (72 x 40, 2 levels, 3 layers, optimal: 1D tiled in the DB's
 * order): each aspect filled from a buffer, copied between two images at odd offsets and as
 * whole levels, each aspect uploaded with a row length and read back at odd places; then
 * every aspect read whole. Depth values are valid for the format (D32F in
 * [0, 1], D24 in the low 24 bits with the rest zero). */
struct DepthCase {
   VkFormat format;
   unsigned depth_bytes; /* per texel in a buffer */
   bool stencil, float_depth;
};

std::vector<uint8_t> depth_bytes(const DepthCase &c, size_t texels, uint32_t seed)
{
   std::vector<uint8_t> bytes = noise(texels * c.depth_bytes, seed);
   if (c.depth_bytes == 4)
      for (size_t i = 0; i < texels; i++) {
         uint32_t v;
         std::memcpy(&v, &bytes[4 * i], 4);
         if (c.float_depth) {
            const float f = float(v & 0xffffff) / float(1 << 24);
            std::memcpy(&v, &f, 4);
         } else {
            v &= 0xffffff;
         }
         std::memcpy(&bytes[4 * i], &v, 4);
      }
   return bytes;
}

std::vector<uint32_t> depth_stencil_copies(ComputeDevice &gpu, const DepthCase &c)
{
   std::vector<uint32_t> words;
   if (!supported(gpu, c.format, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL, 2, 3)) {
      words.push_back(0xdeadu);
      return words;
   }
   constexpr uint32_t width = 72, height = 40, levels = 2, layers = 3;
   const size_t texels = size_t(width) * height * layers + size_t(width / 2) * (height / 2) * layers;
   const VkImageAspectFlags aspects = VK_IMAGE_ASPECT_DEPTH_BIT | (c.stencil ? VK_IMAGE_ASPECT_STENCIL_BIT : 0);
   auto regions_of = [&](VkImageAspectFlagBits aspect, VkDeviceSize start) {
      std::vector<VkBufferImageCopy> regions;
      VkDeviceSize offset = start;
      for (uint32_t level = 0; level < levels; level++) {
         VkBufferImageCopy r{};
         r.bufferOffset = offset;
         r.imageSubresource = {VkImageAspectFlags(aspect), level, 0, layers};
         r.imageExtent = {width >> level, height >> level, 1};
         regions.push_back(r);
         offset += VkDeviceSize(width >> level) * (height >> level) * layers *
                   (aspect == VK_IMAGE_ASPECT_STENCIL_BIT ? 1 : c.depth_bytes);
      }
      return regions;
   };
   const VkDeviceSize stencil_start = (texels * c.depth_bytes + 255) & ~VkDeviceSize(255);
   const VkDeviceSize total = stencil_start + texels;
   VkImage images[2]{};
   VkDeviceMemory memories[2]{};
   for (unsigned i = 0; i < 2; i++) {
      VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
      info.imageType = VK_IMAGE_TYPE_2D;
      info.format = c.format;
      info.extent = {width, height, 1};
      info.mipLevels = levels;
      info.arrayLayers = layers;
      info.samples = VK_SAMPLE_COUNT_1_BIT;
      info.tiling = VK_IMAGE_TILING_OPTIMAL;
      info.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
      EXPECT_EQ(vkCreateImage(gpu.device, &info, nullptr, &images[i]), VK_SUCCESS);
      EXPECT_TRUE(bind_image_memory(gpu.physical, gpu.device, images[i], memories[i]));
   }
   ComputeDevice::Buffer fill = gpu.buffer(2 * total, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
   auto *fill_bytes = reinterpret_cast<uint8_t *>(fill.words);
   for (unsigned i = 0; i < 2; i++) {
      const std::vector<uint8_t> depth = depth_bytes(c, texels, 20 + i), stencil = noise(texels, 30 + i);
      std::memcpy(fill_bytes + i * total, depth.data(), depth.size());
      std::memcpy(fill_bytes + i * total + stencil_start, stencil.data(), stencil.size());
   }
   ComputeDevice::Buffer upload = gpu.buffer(65536, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
   const std::vector<uint8_t> upload_depth = depth_bytes(c, 16384 / c.depth_bytes, 40);
   std::memcpy(upload.words, upload_depth.data(), upload_depth.size());
   const std::vector<uint8_t> upload_stencil = noise(16384, 41);
   std::memcpy(reinterpret_cast<uint8_t *>(upload.words) + 32768, upload_stencil.data(), upload_stencil.size());
   ComputeDevice::Buffer out = gpu.buffer(16384, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
   ComputeDevice::Buffer back = gpu.buffer(total, VK_BUFFER_USAGE_TRANSFER_DST_BIT);

   VkCommandBuffer commands = gpu.begin();
   for (unsigned i = 0; i < 2; i++) {
      VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
      barrier.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
      barrier.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
      barrier.newLayout = VK_IMAGE_LAYOUT_GENERAL;
      barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
      barrier.image = images[i];
      barrier.subresourceRange = {aspects, 0, levels, 0, layers};
      vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr,
                           0, nullptr, 1, &barrier);
      std::vector<VkBufferImageCopy> regions = regions_of(VK_IMAGE_ASPECT_DEPTH_BIT, i * total);
      if (c.stencil) {
         const std::vector<VkBufferImageCopy> s = regions_of(VK_IMAGE_ASPECT_STENCIL_BIT, i * total + stencil_start);
         regions.insert(regions.end(), s.begin(), s.end());
      }
      vkCmdCopyBufferToImage(commands, fill.buffer, images[i], VK_IMAGE_LAYOUT_GENERAL, uint32_t(regions.size()),
                             regions.data());
   }
   ComputeDevice::barrier(commands);
   std::vector<VkImageCopy> copies;
   auto copy = [&](VkImageAspectFlags aspect, uint32_t level, uint32_t src_layer, VkOffset3D from, uint32_t dst_layer,
                   VkOffset3D to, VkExtent3D extent, uint32_t count) {
      VkImageCopy r{};
      r.srcSubresource = {aspect, level, src_layer, count};
      r.dstSubresource = {aspect, level, dst_layer, count};
      r.srcOffset = from;
      r.dstOffset = to;
      r.extent = extent;
      copies.push_back(r);
   };
   /* Formats with stencil: both aspects in each region. lavapipe (Mesa 22.3) copies a
    * combined depth/stencil texel whole when asked for one aspect (seen here: its depth-only
    * copies of D24S8 and D32FS8 changed the stencil too), so single-aspect copies cannot be
    * compared with it; the driver still copies such a region plane by plane. */
   copy(aspects, 0, 0, {3, 5, 0}, 1, {11, 2, 0}, {53, 31, 1}, 2);
   copy(aspects, 1, 2, {1, 0, 0}, 0, {0, 3, 0}, {33, 17, 1}, 1);
   copy(aspects, 1, 1, {0, 0, 0}, 1, {0, 0, 0}, {36, 20, 1}, 1);
   copy(aspects, 0, 2, {7, 1, 0}, 0, {2, 9, 0}, {61, 27, 1}, 1);
   vkCmdCopyImage(commands, images[0], VK_IMAGE_LAYOUT_GENERAL, images[1], VK_IMAGE_LAYOUT_GENERAL,
                  uint32_t(copies.size()), copies.data());
   ComputeDevice::barrier(commands);
   VkBufferImageCopy in[2]{}, read[2]{};
   in[0].bufferRowLength = 40;
   in[0].imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 1, 2, 1};
   in[0].imageOffset = {3, 2, 0};
   in[0].imageExtent = {31, 17, 1};
   in[1] = in[0];
   in[1].bufferOffset = 32768;
   in[1].imageSubresource.aspectMask = VK_IMAGE_ASPECT_STENCIL_BIT;
   in[1].imageOffset = {1, 1, 0};
   vkCmdCopyBufferToImage(commands, upload.buffer, images[1], VK_IMAGE_LAYOUT_GENERAL, c.stencil ? 2 : 1, in);
   ComputeDevice::barrier(commands);
   read[0].bufferOffset = 4 * c.depth_bytes;
   read[0].bufferRowLength = 50;
   read[0].bufferImageHeight = 30;
   read[0].imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 2};
   read[0].imageOffset = {13, 7, 0};
   read[0].imageExtent = {45, 29, 1};
   read[1] = read[0];
   read[1].bufferOffset = 12288;
   read[1].imageSubresource.aspectMask = VK_IMAGE_ASPECT_STENCIL_BIT;
   vkCmdCopyImageToBuffer(commands, images[1], VK_IMAGE_LAYOUT_GENERAL, out.buffer, c.stencil ? 2 : 1, read);
   std::vector<VkBufferImageCopy> whole = regions_of(VK_IMAGE_ASPECT_DEPTH_BIT, 0);
   if (c.stencil) {
      const std::vector<VkBufferImageCopy> s = regions_of(VK_IMAGE_ASPECT_STENCIL_BIT, stencil_start);
      whole.insert(whole.end(), s.begin(), s.end());
   }
   vkCmdCopyImageToBuffer(commands, images[1], VK_IMAGE_LAYOUT_GENERAL, back.buffer, uint32_t(whole.size()),
                          whole.data());
   ComputeDevice::barrier(commands);
   EXPECT_EQ(gpu.submit_and_wait(commands), VK_SUCCESS);
   words.insert(words.end(), out.words, out.words + out.size / 4);
   words.insert(words.end(), back.words, back.words + back.size / 4);
   for (ComputeDevice::Buffer *b : {&fill, &upload, &out, &back})
      gpu.destroy(*b);
   for (unsigned i = 0; i < 2; i++) {
      vkDestroyImage(gpu.device, images[i], nullptr);
      vkFreeMemory(gpu.device, memories[i], nullptr);
   }
   return words;
}

/* Everything the driver writes to stderr while `work` runs (the TERAKAN_DEBUG=copies report). */
std::string capture_stderr(const std::function<void()> &work)
{
   char path[] = "/tmp/terakan-copies-stderr-XXXXXX";
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

bool debug_has(const char *flag)
{
   const char *debug = std::getenv("TERAKAN_DEBUG");
   return debug && std::strstr(debug, flag);
}

std::string format_name(const FormatCase &f)
{
   return "format " + std::to_string(int(f.format));
}

} // namespace

TEST(Copies, BetweenEveryPairOfTilings)
{
   for (const FormatCase &f : formats) {
      SCOPED_TRACE(format_name(f));
      expect_same_as_lavapipe([&](ComputeDevice &gpu) { return copies_between_tilings(gpu, f); });
   }
}

TEST(Copies, BufferAndImageWithRowLengthsAndImageHeights)
{
   for (const FormatCase &f : formats) {
      SCOPED_TRACE(format_name(f));
      expect_same_as_lavapipe([&](ComputeDevice &gpu) { return buffer_image_copies(gpu, f); });
   }
}

TEST(Copies, VolumeSlicesAndArrayLayers)
{
   for (const FormatCase &f : {formats[0], formats[2], formats[5]}) {
      SCOPED_TRACE(format_name(f));
      expect_same_as_lavapipe([&](ComputeDevice &gpu) { return volume_copies(gpu, f); });
   }
}

TEST(Copies, OneDimensionalArraysAndLines)
{
   for (const FormatCase &f : {formats[1], formats[4], formats[5]}) {
      SCOPED_TRACE(format_name(f));
      expect_same_as_lavapipe([&](ComputeDevice &gpu) { return one_dimensional_copies(gpu, f); });
   }
}

TEST(Copies, BetweenFormatsOfOneTexelSize)
{
   expect_same_as_lavapipe(copies_between_formats);
}

TEST(Copies, DepthAndStencilPlanes)
{
   for (const DepthCase &c : {DepthCase{VK_FORMAT_D16_UNORM, 2, false, false},
                              DepthCase{VK_FORMAT_D32_SFLOAT, 4, false, true},
                              DepthCase{VK_FORMAT_D24_UNORM_S8_UINT, 4, true, false},
                              DepthCase{VK_FORMAT_D32_SFLOAT_S8_UINT, 4, true, true}}) {
      SCOPED_TRACE("format " + std::to_string(int(c.format)));
      expect_same_as_lavapipe([&](ComputeDevice &gpu) { return depth_stencil_copies(gpu, c); });
   }
}

/* One aspect of a combined depth/stencil format copied alone must leave the other where it
 * is. lavapipe copies whole combined texels (see depth_stencil_copies), so this is checked on
 * Terakan against the CPU: two 72 x 40 two-layer images filled from a buffer, a stencil-only and
 * a depth-only region copied, the destination's planes read whole and compared with the fill
 * data with the regions applied. */
TEST(Copies, OneAspectOfCombinedFormats)
{
   ComputeDevice &gpu = terakan_gpu();
   ASSERT_TRUE(gpu.ok()) << gpu.error;
   const unsigned before = gpu.validation_messages;
   for (const DepthCase &c : {DepthCase{VK_FORMAT_D24_UNORM_S8_UINT, 4, true, false},
                              DepthCase{VK_FORMAT_D32_SFLOAT_S8_UINT, 4, true, true}}) {
      SCOPED_TRACE("format " + std::to_string(int(c.format)));
      constexpr uint32_t width = 72, height = 40, layers = 2;
      constexpr size_t texels = size_t(width) * height * layers;
      const VkDeviceSize plane_bytes = texels * 4;
      VkImage images[2]{};
      VkDeviceMemory memories[2]{};
      std::vector<uint8_t> depth[2], stencil[2];
      ComputeDevice::Buffer fill = gpu.buffer(2 * (plane_bytes + texels), VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
      ComputeDevice::Buffer back = gpu.buffer(plane_bytes + texels, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
      auto *fill_bytes = reinterpret_cast<uint8_t *>(fill.words);
      VkCommandBuffer commands = gpu.begin();
      for (unsigned i = 0; i < 2; i++) {
         VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
         info.imageType = VK_IMAGE_TYPE_2D;
         info.format = c.format;
         info.extent = {width, height, 1};
         info.mipLevels = 1;
         info.arrayLayers = layers;
         info.samples = VK_SAMPLE_COUNT_1_BIT;
         info.tiling = VK_IMAGE_TILING_OPTIMAL;
         info.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
         ASSERT_EQ(vkCreateImage(gpu.device, &info, nullptr, &images[i]), VK_SUCCESS);
         ASSERT_TRUE(bind_image_memory(gpu.physical, gpu.device, images[i], memories[i]));
         depth[i] = depth_bytes(c, texels, 60 + i);
         stencil[i] = noise(texels, 70 + i);
         const VkDeviceSize base = i * (plane_bytes + texels);
         std::memcpy(fill_bytes + base, depth[i].data(), plane_bytes);
         std::memcpy(fill_bytes + base + plane_bytes, stencil[i].data(), texels);
         VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
         barrier.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
         barrier.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
         barrier.newLayout = VK_IMAGE_LAYOUT_GENERAL;
         barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
         barrier.image = images[i];
         barrier.subresourceRange = {VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT, 0, 1, 0, layers};
         vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0,
                              nullptr, 0, nullptr, 1, &barrier);
         VkBufferImageCopy planes[2]{};
         planes[0].bufferOffset = base;
         planes[0].imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, layers};
         planes[0].imageExtent = {width, height, 1};
         planes[1] = planes[0];
         planes[1].bufferOffset = base + plane_bytes;
         planes[1].imageSubresource.aspectMask = VK_IMAGE_ASPECT_STENCIL_BIT;
         vkCmdCopyBufferToImage(commands, fill.buffer, images[i], VK_IMAGE_LAYOUT_GENERAL, 2, planes);
      }
      ComputeDevice::barrier(commands);
      const VkImageCopy regions[2] = {
         {{VK_IMAGE_ASPECT_STENCIL_BIT, 0, 1, 1}, {5, 3, 0}, {VK_IMAGE_ASPECT_STENCIL_BIT, 0, 0, 1}, {10, 7, 0}, {40, 20, 1}},
         {{VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1}, {0, 1, 0}, {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 1}, {30, 2, 0}, {41, 37, 1}},
      };
      vkCmdCopyImage(commands, images[0], VK_IMAGE_LAYOUT_GENERAL, images[1], VK_IMAGE_LAYOUT_GENERAL, 2, regions);
      ComputeDevice::barrier(commands);
      VkBufferImageCopy out[2]{};
      out[0].imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, layers};
      out[0].imageExtent = {width, height, 1};
      out[1] = out[0];
      out[1].bufferOffset = plane_bytes;
      out[1].imageSubresource.aspectMask = VK_IMAGE_ASPECT_STENCIL_BIT;
      vkCmdCopyImageToBuffer(commands, images[1], VK_IMAGE_LAYOUT_GENERAL, back.buffer, 2, out);
      ComputeDevice::barrier(commands);
      ASSERT_EQ(gpu.submit_and_wait(commands), VK_SUCCESS);

      /* The expectation: image 1's planes with the two regions of image 0's applied. */
      std::vector<uint8_t> expected_depth = depth[1], expected_stencil = stencil[1];
      auto at = [&](uint32_t x, uint32_t y, uint32_t layer) { return (size_t(layer) * height + y) * width + x; };
      for (uint32_t y = 0; y < 20; y++)
         for (uint32_t x = 0; x < 40; x++)
            expected_stencil[at(10 + x, 7 + y, 0)] = stencil[0][at(5 + x, 3 + y, 1)];
      for (uint32_t y = 0; y < 37; y++)
         for (uint32_t x = 0; x < 41; x++)
            std::memcpy(&expected_depth[4 * at(30 + x, 2 + y, 1)], &depth[0][4 * at(x, 1 + y, 0)], 4);
      const auto *got = reinterpret_cast<const uint8_t *>(back.words);
      EXPECT_EQ(std::memcmp(got, expected_depth.data(), plane_bytes), 0) << "depth plane";
      EXPECT_EQ(std::memcmp(got + plane_bytes, expected_stencil.data(), texels), 0) << "stencil plane";
      EXPECT_NE(std::memcmp(got, depth[1].data(), plane_bytes), 0) << "no depth was copied";
      EXPECT_NE(std::memcmp(got + plane_bytes, stencil[1].data(), texels), 0) << "no stencil was copied";
      gpu.destroy(fill);
      gpu.destroy(back);
      for (unsigned i = 0; i < 2; i++) {
         vkDestroyImage(gpu.device, images[i], nullptr);
         vkFreeMemory(gpu.device, memories[i], nullptr);
      }
   }
   EXPECT_EQ(gpu.validation_messages, before) << "validation layer messages on Terakan";
}

/* Which path each kind of copy takes on Terakan: the copy shader when a tiled image (colour,
 * or a depth or stencil plane) takes part, CP DMA between linear images, for whole levels laid out alike, and always under
 * TERAKAN_DEBUG=dmacopies. The results are checked by the tests above. */
TEST(Copies, PathTaken)
{
   ASSERT_TRUE(debug_has("copies")) << "run with TERAKAN_DEBUG=copies (tests/meson.build)";
   ComputeDevice &gpu = terakan_gpu();
   ASSERT_TRUE(gpu.ok()) << gpu.error;
   const bool forced_dma = debug_has("dmacopies");
   const FormatCase rgba{VK_FORMAT_R8G8B8A8_UNORM, 4, 1};
   TestImage shape;
   shape.extent = {128, 64, 1};
   shape.format = rgba;
   const std::vector<uint8_t> bytes = noise(image_bytes(shape), 3);
   TestImage tiled = make_image(gpu, rgba, VK_IMAGE_TYPE_2D, shape.extent, 1, 1, VK_IMAGE_TILING_OPTIMAL, bytes);
   TestImage tiled2 = make_image(gpu, rgba, VK_IMAGE_TYPE_2D, shape.extent, 1, 1, VK_IMAGE_TILING_OPTIMAL, bytes);
   TestImage linear = make_image(gpu, rgba, VK_IMAGE_TYPE_2D, shape.extent, 1, 1, VK_IMAGE_TILING_LINEAR, bytes);
   TestImage linear2 = make_image(gpu, rgba, VK_IMAGE_TYPE_2D, shape.extent, 1, 1, VK_IMAGE_TILING_LINEAR, bytes);
   ComputeDevice::Buffer buffer = gpu.buffer(image_bytes(shape));
   auto report_of = [&](const std::function<void(VkCommandBuffer)> &record) {
      return capture_stderr([&] {
         VkCommandBuffer commands = gpu.begin();
         record(commands);
         ComputeDevice::barrier(commands);
         EXPECT_EQ(gpu.submit_and_wait(commands), VK_SUCCESS);
      });
   };
   VkImageCopy part{{VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {1, 2, 0}, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {3, 4, 0}, {100, 50, 1}};
   VkImageCopy whole{{VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {128, 64, 1}};
   VkBufferImageCopy all{};
   all.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
   all.imageExtent = {128, 64, 1};
   const char *shader = forced_dma ? "terakan: copy: cp-dma" : "terakan: copy: shader";

   std::string report = report_of([&](VkCommandBuffer c) {
      vkCmdCopyImage(c, tiled.image, VK_IMAGE_LAYOUT_GENERAL, tiled2.image, VK_IMAGE_LAYOUT_GENERAL, 1, &part);
   });
   EXPECT_NE(report.find(shader), std::string::npos) << "tiled to tiled: " << report;
   report = report_of([&](VkCommandBuffer c) {
      vkCmdCopyImage(c, linear.image, VK_IMAGE_LAYOUT_GENERAL, tiled.image, VK_IMAGE_LAYOUT_GENERAL, 1, &part);
   });
   EXPECT_NE(report.find(shader), std::string::npos) << "linear to tiled: " << report;
   report = report_of([&](VkCommandBuffer c) {
      vkCmdCopyBufferToImage(c, buffer.buffer, tiled.image, VK_IMAGE_LAYOUT_GENERAL, 1, &all);
   });
   EXPECT_NE(report.find(shader), std::string::npos) << "buffer to tiled: " << report;
   report = report_of([&](VkCommandBuffer c) {
      vkCmdCopyImageToBuffer(c, tiled.image, VK_IMAGE_LAYOUT_GENERAL, buffer.buffer, 1, &all);
   });
   EXPECT_NE(report.find(shader), std::string::npos) << "tiled to buffer: " << report;
   report = report_of([&](VkCommandBuffer c) {
      vkCmdCopyImage(c, linear.image, VK_IMAGE_LAYOUT_GENERAL, linear2.image, VK_IMAGE_LAYOUT_GENERAL, 1, &part);
   });
   EXPECT_NE(report.find("terakan: copy: cp-dma"), std::string::npos) << "linear to linear: " << report;
   report = report_of([&](VkCommandBuffer c) {
      vkCmdCopyImage(c, tiled.image, VK_IMAGE_LAYOUT_GENERAL, tiled2.image, VK_IMAGE_LAYOUT_GENERAL, 1, &whole);
   });
   EXPECT_NE(report.find("terakan: copy: cp-dma, whole slices"), std::string::npos) << "whole level: " << report;
   /* A depth plane (1D tiled in the DB's order) by the shader too. */
   {
      const FormatCase d16{VK_FORMAT_D16_UNORM, 2, 1};
      TestImage depth_shape;
      depth_shape.extent = {64, 32, 1};
      depth_shape.format = d16;
      TestImage depth = make_image(gpu, d16, VK_IMAGE_TYPE_2D, depth_shape.extent, 1, 1, VK_IMAGE_TILING_OPTIMAL,
                                   std::vector<uint8_t>(image_bytes(depth_shape), 0x40));
      VkBufferImageCopy depth_part{};
      depth_part.imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1};
      depth_part.imageOffset = {1, 1, 0};
      depth_part.imageExtent = {40, 20, 1};
      report = report_of([&](VkCommandBuffer c) {
         vkCmdCopyBufferToImage(c, buffer.buffer, depth.image, VK_IMAGE_LAYOUT_GENERAL, 1, &depth_part);
      });
      EXPECT_NE(report.find(shader), std::string::npos) << "buffer to depth: " << report;
      destroy(gpu, depth);
   }
   /* The old path: one CP DMA run per texel or so of a tiled image (a 100 x 50 region). */
   if (forced_dma) {
      report = report_of([&](VkCommandBuffer c) {
         vkCmdCopyImage(c, tiled.image, VK_IMAGE_LAYOUT_GENERAL, tiled2.image, VK_IMAGE_LAYOUT_GENERAL, 1, &part);
      });
      unsigned long runs = 0;
      const size_t at = report.find("cp-dma, ");
      ASSERT_NE(at, std::string::npos) << report;
      runs = std::strtoul(report.c_str() + at + 8, nullptr, 10);
      EXPECT_GT(runs, 1000u) << report;
   }
   for (TestImage *image : {&tiled, &tiled2, &linear, &linear2})
      destroy(gpu, *image);
   gpu.destroy(buffer);
}
