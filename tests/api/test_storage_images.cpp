/* Storage images and storage texel buffers through the driver on the simulated GPU of
 * TERAKAN_SIM_CHIP, against lavapipe running the same SPIR-V with the validation layer on:
 * a compute shader (shaders/storage_image.comp, one build per dimension and number class)
 * loads every texel of one storage image, stores a value computed from it into another at the
 * same coordinates, and reports both images' imageSize. The stored image is copied out and
 * compared with lavapipe's byte for byte, for several formats and every dimensionality the
 * driver offers; views of one level and of a range of layers, and texel-buffer views at an
 * offset, are covered too, and the integer image atomics. What the driver refuses (float image
 * atomics) is checked for its VkResult. */
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <random>

#include "../vulkan_helpers.h"
#include "compute_device.h"

using namespace terakan::test;

namespace {

enum class Kind { Float = 0, Uint = 1, Int = 2 };
/* The shader's DIM values. */
enum class Dim { D1 = 1, D2 = 2, D3 = 3, D2Array = 4, D1Array = 5, Buffer = 6, Cube = 7 };

struct Case {
   const char *name;
   const char *glsl; /* the source's format qualifier: which build of the shader */
   VkFormat format;
   unsigned bytes; /* per texel */
   Kind kind;
   Dim dim;
   VkExtent3D extent; /* of level 0 (buffers: width elements) */
   uint32_t layers = 1;
   /* The view: its level and layers (images), or its byte offset (texel buffers). */
   uint32_t level = 0, base_layer = 0, view_layers = 0; /* 0: every layer */
   VkDeviceSize buffer_offset = 0;
};

struct Push {
   int32_t extent[4];
   float steps[4];
   uint32_t mask;
   int32_t bias;
};

/* The shader's transform constants for a format (stay inside integer ranges; see the shader). */
Push push_for(const Case &c, const VkExtent3D &touched)
{
   Push push{};
   push.extent[0] = int32_t(touched.width);
   push.extent[1] = int32_t(touched.height);
   push.extent[2] = int32_t(touched.depth);
   const bool small = c.bytes == 4 && (c.format == VK_FORMAT_R8G8B8A8_UINT || c.format == VK_FORMAT_R8G8B8A8_SINT);
   const bool snorm = c.format == VK_FORMAT_R8G8B8A8_SNORM || c.format == VK_FORMAT_A8B8G8R8_SNORM_PACK32;
   if (c.format == VK_FORMAT_R8G8B8A8_UNORM || c.format == VK_FORMAT_A8B8G8R8_UNORM_PACK32 || snorm) {
      /* (k + 8 id + 0.25) / 255 (or / 127 for SNORM): a quarter away from every rounding tie,
       * whichever product the compiler fuses with the add. */
      const float scale = snorm ? 127.0f : 255.0f;
      push.steps[0] = 1.0f;
      push.steps[1] = 8.0f / scale;
      push.steps[2] = 0.25f / scale;
   } else {
      /* Exact products: one rounding (the add), fused or not. */
      push.steps[0] = 2.0f;
      push.steps[1] = 0.125f;
      push.steps[2] = 0.0f;
   }
   push.mask = small ? 0xffu : 0xffffffffu;
   push.bias = small && c.kind == Kind::Int ? 128 : 0;
   return push;
}

/* n / 8 as a 16-bit float, for |n| < 2048 (exact: at most 11 significant bits). */
uint16_t exact_half(int n)
{
   if (n == 0)
      return 0;
   const uint16_t sign = n < 0 ? 0x8000 : 0;
   unsigned m = unsigned(std::abs(n));
   int exponent = -3; /* value = m x 2^exponent */
   while (m >= 2048) { m >>= 1; exponent++; }
   while (m < 1024) { m <<= 1; exponent--; }
   /* m in [1024, 2048): value = (m / 1024) x 2^(exponent + 10) */
   return uint16_t(sign | (uint16_t(exponent + 10 + 15) << 10) | (m - 1024));
}

/* Source texels: random bytes, except float formats get finite values (no NaN or infinity,
 * whose payloads the two implementations need not keep alike). */
std::vector<uint8_t> source_texels(const Case &c, size_t count)
{
   std::mt19937 random(uint32_t(c.format) * 31u + uint32_t(c.dim));
   std::vector<uint8_t> texels(count * c.bytes);
   for (auto &b : texels)
      b = uint8_t(random());
   if (c.format == VK_FORMAT_R16G16B16A16_SFLOAT) {
      /* Multiples of 1/8 up to 25 in magnitude: the shader's results stay exact in 16 bits, so
       * the test does not depend on the float-to-half rounding, which Vulkan leaves to the
       * implementation (round to nearest even or toward zero; lavapipe and the CB differ). */
      for (size_t i = 0; i + 1 < texels.size(); i += 2) {
         const uint16_t half = exact_half(int(random() % 401) - 200);
         texels[i] = uint8_t(half);
         texels[i + 1] = uint8_t(half >> 8);
      }
   } else if (c.kind == Kind::Float && c.format != VK_FORMAT_R8G8B8A8_UNORM) {
      for (size_t i = 0; i + 3 < texels.size(); i += 4) {
         float f = float(int32_t(random() % 20001) - 10000) / 64.0f;
         std::memcpy(&texels[i], &f, 4);
      }
   }
   return texels;
}

struct Outcome {
   VkResult result = VK_ERROR_UNKNOWN;
   std::vector<uint8_t> texels; /* the destination, as the copy writes it */
   std::vector<int32_t> sizes;  /* imageSize of dst, then of src */
};

VkImageViewType view_type(Dim dim)
{
   switch (dim) {
   case Dim::D1: return VK_IMAGE_VIEW_TYPE_1D;
   case Dim::D3: return VK_IMAGE_VIEW_TYPE_3D;
   case Dim::D2Array: return VK_IMAGE_VIEW_TYPE_2D_ARRAY;
   case Dim::D1Array: return VK_IMAGE_VIEW_TYPE_1D_ARRAY;
   case Dim::Cube: return VK_IMAGE_VIEW_TYPE_CUBE;
   default: return VK_IMAGE_VIEW_TYPE_2D;
   }
}

VkImageType image_type(Dim dim)
{
   switch (dim) {
   case Dim::D1:
   case Dim::D1Array: return VK_IMAGE_TYPE_1D;
   case Dim::D3: return VK_IMAGE_TYPE_3D;
   default: return VK_IMAGE_TYPE_2D;
   }
}

/* Reading the source without a format (on Terakan only: lavapipe does not offer it). */
bool formatless_reads = false;

std::string shader_name(const Case &c)
{
   if (formatless_reads)
      return "storage_image_" + std::to_string(int(c.dim)) + "_none_" + std::to_string(int(c.kind));
   return "storage_image_" + std::to_string(int(c.dim)) + "_" + c.glsl;
}

void write_descriptor(ComputeDevice &gpu, VkDescriptorSet set, uint32_t binding, VkDescriptorType type,
                      VkImageView view, const VkBufferView *buffer_view)
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

Outcome run_texel_buffers(ComputeDevice &gpu, const Case &c)
{
   Outcome out;
   const VkDescriptorType type = VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
   auto program = gpu.program(shader_name(c), {{type, type, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, sizeof(Push),
                              &out.result);
   if (out.result != VK_SUCCESS)
      return out;
   const uint32_t elements = c.extent.width;
   const VkDeviceSize bytes = c.buffer_offset + VkDeviceSize(elements) * c.bytes;
   auto src = gpu.buffer(bytes, VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT);
   auto dst = gpu.buffer(bytes, VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT);
   auto sizes = gpu.buffer(32, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
   const std::vector<uint8_t> texels = source_texels(c, elements);
   std::memcpy(reinterpret_cast<uint8_t *>(src.words) + c.buffer_offset, texels.data(), texels.size());
   std::memset(dst.words, 0xa5, bytes);
   std::memset(sizes.words, 0, 32);
   VkBufferView views[2] = {};
   for (unsigned i = 0; i < 2; i++) {
      VkBufferViewCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
      info.buffer = i ? dst.buffer : src.buffer;
      info.format = c.format;
      info.offset = c.buffer_offset;
      info.range = VkDeviceSize(elements) * c.bytes;
      EXPECT_EQ(vkCreateBufferView(gpu.device, &info, nullptr, &views[i]), VK_SUCCESS);
   }
   VkDescriptorSet set = gpu.allocate_set(program, 0);
   write_descriptor(gpu, set, 0, type, VK_NULL_HANDLE, &views[0]);
   write_descriptor(gpu, set, 1, type, VK_NULL_HANDLE, &views[1]);
   gpu.write_buffer(set, 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, sizes);
   const Push push = push_for(c, {elements, 1, 1});
   VkCommandBuffer commands = gpu.begin();
   vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.pipeline);
   vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.layout, 0, 1, &set, 0, nullptr);
   vkCmdPushConstants(commands, program.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
   vkCmdDispatch(commands, (elements + 3) / 4, 1, 1);
   out.result = gpu.submit_and_wait(commands);
   /* The whole buffer: bytes before the view's offset must be left alone. */
   const uint8_t *stored = reinterpret_cast<const uint8_t *>(dst.words);
   out.texels.assign(stored, stored + bytes);
   for (VkBufferView v : views)
      vkDestroyBufferView(gpu.device, v, nullptr);
   gpu.destroy(program);
   for (auto *b : {&src, &dst, &sizes})
      gpu.destroy(*b);
   return out;
}

Outcome run_images(ComputeDevice &gpu, const Case &c)
{
   Outcome out;
   const VkDescriptorType type = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
   auto program = gpu.program(shader_name(c), {{type, type, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, sizeof(Push),
                              &out.result);
   if (out.result != VK_SUCCESS)
      return out;
   const bool three_d = c.dim == Dim::D3;
   const uint32_t levels = c.level + 1;
   size_t texel_count = 0;
   for (uint32_t l = 0; l < levels; l++)
      texel_count += size_t(std::max(c.extent.width >> l, 1u)) * std::max(c.extent.height >> l, 1u) *
                     std::max(c.extent.depth >> l, 1u) * c.layers;
   gpu.extra_image_usage = VK_IMAGE_USAGE_STORAGE_BIT;
   const VkImageCreateFlags flags = c.dim == Dim::Cube ? VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT : 0;
   auto src = gpu.image(c.format, image_type(c.dim), c.extent, c.layers, levels, source_texels(c, texel_count), c.bytes,
                        flags);
   auto dst = gpu.image(c.format, image_type(c.dim), c.extent, c.layers, levels,
                        std::vector<uint8_t>(texel_count * c.bytes, 0x5a), c.bytes, flags);
   gpu.extra_image_usage = 0;
   const uint32_t view_layers = c.view_layers ? c.view_layers : c.layers - c.base_layer;
   VkImageView src_view = gpu.view(src, view_type(c.dim), c.level, 1, c.base_layer, view_layers);
   VkImageView dst_view = gpu.view(dst, view_type(c.dim), c.level, 1, c.base_layer, view_layers);
   auto sizes = gpu.buffer(32, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
   std::memset(sizes.words, 0, 32);
   VkDescriptorSet set = gpu.allocate_set(program, 0);
   write_descriptor(gpu, set, 0, type, src_view, nullptr);
   write_descriptor(gpu, set, 1, type, dst_view, nullptr);
   gpu.write_buffer(set, 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, sizes);

   const VkExtent3D level_extent{std::max(c.extent.width >> c.level, 1u), std::max(c.extent.height >> c.level, 1u),
                                 std::max(c.extent.depth >> c.level, 1u)};
   /* Invocation z walks the layers (or a 3D level's slices); 1D arrays take the layer from z. */
   const VkExtent3D touched{level_extent.width, c.dim == Dim::D1Array || c.dim == Dim::D1 ? 1 : level_extent.height,
                            three_d ? level_extent.depth : view_layers};
   const Push push = push_for(c, touched);
   auto copy_out = gpu.buffer(texel_count * c.bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
   VkCommandBuffer commands = gpu.begin();
   VkImageMemoryBarrier to_general{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
   to_general.srcAccessMask = VK_ACCESS_SHADER_READ_BIT;
   to_general.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
   to_general.oldLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
   to_general.newLayout = VK_IMAGE_LAYOUT_GENERAL;
   to_general.srcQueueFamilyIndex = to_general.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
   to_general.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, levels, 0, c.layers};
   VkImageMemoryBarrier barriers[2] = {to_general, to_general};
   barriers[0].image = src.image;
   barriers[1].image = dst.image;
   vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0,
                        nullptr, 0, nullptr, 2, barriers);
   vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.pipeline);
   vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.layout, 0, 1, &set, 0, nullptr);
   vkCmdPushConstants(commands, program.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
   vkCmdDispatch(commands, (touched.width + 3) / 4, (touched.height + 3) / 4, (touched.depth + 1) / 2);
   VkImageMemoryBarrier to_copy = barriers[1];
   to_copy.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
   to_copy.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
   to_copy.oldLayout = VK_IMAGE_LAYOUT_GENERAL;
   to_copy.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
   vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                        nullptr, 1, &to_copy);
   /* Every level and layer, so that what the view does not cover is checked unchanged. */
   std::vector<VkBufferImageCopy> regions;
   VkDeviceSize offset = 0;
   for (uint32_t l = 0; l < levels; l++) {
      VkBufferImageCopy region{};
      region.bufferOffset = offset;
      region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, l, 0, c.layers};
      region.imageExtent = {std::max(c.extent.width >> l, 1u), std::max(c.extent.height >> l, 1u),
                            std::max(c.extent.depth >> l, 1u)};
      offset += VkDeviceSize(region.imageExtent.width) * region.imageExtent.height * region.imageExtent.depth *
                c.layers * c.bytes;
      regions.push_back(region);
   }
   vkCmdCopyImageToBuffer(commands, dst.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, copy_out.buffer,
                          uint32_t(regions.size()), regions.data());
   VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
   to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
   to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
   vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0,
                        nullptr, 0, nullptr);
   out.result = gpu.submit_and_wait(commands);
   const uint8_t *stored = reinterpret_cast<const uint8_t *>(copy_out.words);
   out.texels.assign(stored, stored + texel_count * c.bytes);
   out.sizes.assign(reinterpret_cast<const int32_t *>(sizes.words), reinterpret_cast<const int32_t *>(sizes.words) + 8);
   vkDestroyImageView(gpu.device, src_view, nullptr);
   vkDestroyImageView(gpu.device, dst_view, nullptr);
   gpu.destroy(program);
   gpu.destroy(src);
   gpu.destroy(dst);
   gpu.destroy(sizes);
   gpu.destroy(copy_out);
   return out;
}

Outcome run(ComputeDevice &gpu, const Case &c)
{
   return c.dim == Dim::Buffer ? run_texel_buffers(gpu, c) : run_images(gpu, c);
}

/* The first differing byte, as text. */
std::string first_difference(const std::vector<uint8_t> &got, const std::vector<uint8_t> &expected, unsigned bytes)
{
   for (size_t i = 0; i < std::min(got.size(), expected.size()); i++)
      if (got[i] != expected[i])
         return "texel " + std::to_string(i / bytes) + " byte " + std::to_string(i % bytes) + ": " +
                std::to_string(got[i]) + " vs lavapipe's " + std::to_string(expected[i]);
   return got.size() == expected.size() ? "" : "sizes differ";
}

void compare_with_lavapipe(const Case &c, bool formatless_on_terakan = false)
{
   SCOPED_TRACE(c.name);
   ComputeDevice &terakan = terakan_gpu(), &lavapipe = lavapipe_gpu();
   ASSERT_TRUE(terakan.ok()) << terakan.error;
   ASSERT_TRUE(lavapipe.ok()) << lavapipe.error;
   const unsigned before = terakan.validation_messages, lavapipe_before = lavapipe.validation_messages;
   formatless_reads = formatless_on_terakan;
   const Outcome got = run(terakan, c);
   formatless_reads = false;
   const Outcome expected = run(lavapipe, c);
   ASSERT_EQ(expected.result, VK_SUCCESS);
   ASSERT_EQ(got.result, VK_SUCCESS);
   ASSERT_FALSE(expected.texels.empty());
   EXPECT_EQ(first_difference(got.texels, expected.texels, c.bytes), "");
   if (!c.view_layers) {
      EXPECT_EQ(got.sizes, expected.sizes) << "imageSize";
   } else {
      /* A view of some layers: imageSize's layer count is the image's on Terakan (RESINFO reads
       * TEX_DEPTH, which holds the image's layers as in r600g; a known gap, docs/status.md),
       * so only the width and height are compared. */
      ASSERT_EQ(got.sizes.size(), 8u);
      ASSERT_EQ(expected.sizes.size(), 8u);
      for (size_t i : {0u, 1u, 4u, 5u})
         EXPECT_EQ(got.sizes[i], expected.sizes[i]) << "imageSize component " << i;
   }
   EXPECT_EQ(terakan.validation_messages, before) << "validation layer messages on Terakan";
   EXPECT_EQ(lavapipe.validation_messages, lavapipe_before);
}

constexpr VkExtent3D flat(uint32_t w, uint32_t h) { return {w, h, 1}; }

TEST(StorageImages, FormatsIn2D)
{
   const Case cases[] = {
      {"RGBA8 UNORM", "rgba8", VK_FORMAT_R8G8B8A8_UNORM, 4, Kind::Float, Dim::D2, flat(20, 12)},
      {"RGBA8 UINT", "rgba8ui", VK_FORMAT_R8G8B8A8_UINT, 4, Kind::Uint, Dim::D2, flat(20, 12)},
      {"RGBA8 SINT", "rgba8i", VK_FORMAT_R8G8B8A8_SINT, 4, Kind::Int, Dim::D2, flat(20, 12)},
      {"RGBA16 SFLOAT", "rgba16f", VK_FORMAT_R16G16B16A16_SFLOAT, 8, Kind::Float, Dim::D2, flat(20, 12)},
      {"R32 SFLOAT", "r32f", VK_FORMAT_R32_SFLOAT, 4, Kind::Float, Dim::D2, flat(20, 12)},
      {"R32 UINT", "r32ui", VK_FORMAT_R32_UINT, 4, Kind::Uint, Dim::D2, flat(20, 12)},
      {"R32 SINT", "r32i", VK_FORMAT_R32_SINT, 4, Kind::Int, Dim::D2, flat(20, 12)},
      {"RG32 SFLOAT", "rg32f", VK_FORMAT_R32G32_SFLOAT, 8, Kind::Float, Dim::D2, flat(20, 12)},
      {"RG32 UINT", "rg32ui", VK_FORMAT_R32G32_UINT, 8, Kind::Uint, Dim::D2, flat(20, 12)},
      {"RGBA32 SFLOAT", "rgba32f", VK_FORMAT_R32G32B32A32_SFLOAT, 16, Kind::Float, Dim::D2, flat(20, 12)},
      {"RGBA32 UINT", "rgba32ui", VK_FORMAT_R32G32B32A32_UINT, 16, Kind::Uint, Dim::D2, flat(20, 12)},
      {"RGBA32 SINT", "rgba32i", VK_FORMAT_R32G32B32A32_SINT, 16, Kind::Int, Dim::D2, flat(20, 12)},
      /* The rest of Vulkan 1.0's required storage formats. */
      {"RGBA8 SNORM", "rgba8_snorm", VK_FORMAT_R8G8B8A8_SNORM, 4, Kind::Float, Dim::D2, flat(20, 12)},
      {"RGBA16 UINT", "rgba16ui", VK_FORMAT_R16G16B16A16_UINT, 8, Kind::Uint, Dim::D2, flat(20, 12)},
      {"RGBA16 SINT", "rgba16i", VK_FORMAT_R16G16B16A16_SINT, 8, Kind::Int, Dim::D2, flat(20, 12)},
      {"RG32 SINT", "rg32i", VK_FORMAT_R32G32_SINT, 8, Kind::Int, Dim::D2, flat(20, 12)},
   };
   for (const Case &c : cases)
      compare_with_lavapipe(c);
}

TEST(StorageImages, EveryDimensionality)
{
   const Case cases[] = {
      {"1D RGBA8 UNORM", "rgba8", VK_FORMAT_R8G8B8A8_UNORM, 4, Kind::Float, Dim::D1, flat(40, 1)},
      {"1D array R32 UINT", "r32ui", VK_FORMAT_R32_UINT, 4, Kind::Uint, Dim::D1Array, flat(24, 1), 3},
      {"2D array RGBA32 SFLOAT", "rgba32f", VK_FORMAT_R32G32B32A32_SFLOAT, 16, Kind::Float, Dim::D2Array, flat(12, 8), 3},
      {"3D R32 SINT", "r32i", VK_FORMAT_R32_SINT, 4, Kind::Int, Dim::D3, {8, 6, 4}},
      {"3D RGBA16 SFLOAT", "rgba16f", VK_FORMAT_R16G16B16A16_SFLOAT, 8, Kind::Float, Dim::D3, {6, 5, 3}},
      {"cube R32 UINT", "r32ui", VK_FORMAT_R32_UINT, 4, Kind::Uint, Dim::Cube, flat(8, 8), 6},
   };
   for (const Case &c : cases)
      compare_with_lavapipe(c);
}

TEST(StorageImages, ViewsOfOneLevelAndOfSomeLayers)
{
   Case level{"level 1 of 2D RGBA8 UNORM", "rgba8", VK_FORMAT_R8G8B8A8_UNORM, 4, Kind::Float, Dim::D2, flat(36, 20)};
   level.level = 1;
   Case layers{"layers 1-2 of 4 R32 UINT", "r32ui", VK_FORMAT_R32_UINT, 4, Kind::Uint, Dim::D2Array, flat(16, 8), 4};
   layers.base_layer = 1;
   layers.view_layers = 2;
   /* 2D-tiled: wide enough for a macro tile on every board. */
   Case tiled{"large 2D RGBA8 UINT", "rgba8ui", VK_FORMAT_R8G8B8A8_UINT, 4, Kind::Uint, Dim::D2, flat(128, 64)};
   /* A 2D view of one layer of a 2D-tiled array (dEQP's single_layer cases): the RAT's BASE
    * stays at the level and SLICE_START picks the layer, or the tiling swizzle moves. */
   Case one_layer{"layer 2 of 3 of a 2D-tiled RGBA32 UINT array", "rgba32ui", VK_FORMAT_R32G32B32A32_UINT, 16, Kind::Uint,
                  Dim::D2, flat(64, 64), 3};
   one_layer.base_layer = 2;
   one_layer.view_layers = 1;
   for (const Case &c : {level, layers, tiled, one_layer})
      compare_with_lavapipe(c);
}

TEST(StorageImages, StorageTexelBuffers)
{
   Case r32{"R32 SFLOAT", "r32f", VK_FORMAT_R32_SFLOAT, 4, Kind::Float, Dim::Buffer, {100, 1, 1}};
   Case rgba8{"RGBA8 UNORM at 256 bytes", "rgba8", VK_FORMAT_R8G8B8A8_UNORM, 4, Kind::Float, Dim::Buffer, {70, 1, 1}};
   rgba8.buffer_offset = 256;
   Case rgba32{"RGBA32 SINT", "rgba32i", VK_FORMAT_R32G32B32A32_SINT, 16, Kind::Int, Dim::Buffer, {33, 1, 1}};
   Case rgba8ui{"RGBA8 UINT", "rgba8ui", VK_FORMAT_R8G8B8A8_UINT, 4, Kind::Uint, Dim::Buffer, {64, 1, 1}};
   /* Formats Vulkan 1.0 requires for storage texel buffers, the A8B8G8R8 ones read and
    * written with the qualifier of their R8G8B8A8 twin (the same bytes). */
   Case snorm{"RGBA8 SNORM", "rgba8_snorm", VK_FORMAT_R8G8B8A8_SNORM, 4, Kind::Float, Dim::Buffer, {48, 1, 1}};
   Case abgr{"A8B8G8R8 UNORM", "rgba8", VK_FORMAT_A8B8G8R8_UNORM_PACK32, 4, Kind::Float, Dim::Buffer, {48, 1, 1}};
   Case abgr_snorm{"A8B8G8R8 SNORM", "rgba8_snorm", VK_FORMAT_A8B8G8R8_SNORM_PACK32, 4, Kind::Float, Dim::Buffer,
                   {48, 1, 1}};
   Case abgr_uint{"A8B8G8R8 UINT", "rgba8ui", VK_FORMAT_A8B8G8R8_UINT_PACK32, 4, Kind::Uint, Dim::Buffer, {48, 1, 1}};
   Case abgr_sint{"A8B8G8R8 SINT", "rgba8i", VK_FORMAT_A8B8G8R8_SINT_PACK32, 4, Kind::Int, Dim::Buffer, {48, 1, 1}};
   Case rgba16ui{"RGBA16 UINT", "rgba16ui", VK_FORMAT_R16G16B16A16_UINT, 8, Kind::Uint, Dim::Buffer, {40, 1, 1}};
   for (const Case &c : {r32, rgba8, rgba32, rgba8ui, snorm, abgr, abgr_snorm, abgr_uint, abgr_sint, rgba16ui})
      compare_with_lavapipe(c);
}

/* Loads without a format on Terakan (the descriptor's format decides) give what lavapipe gives
 * reading with the format declared. */
TEST(StorageImages, ReadsWithoutAFormat)
{
   compare_with_lavapipe({"RGBA8 UNORM", "rgba8", VK_FORMAT_R8G8B8A8_UNORM, 4, Kind::Float, Dim::D2, flat(20, 12)}, true);
   compare_with_lavapipe({"RGBA16 SFLOAT", "rgba16f", VK_FORMAT_R16G16B16A16_SFLOAT, 8, Kind::Float, Dim::D2, flat(9, 7)}, true);
   compare_with_lavapipe({"R32 UINT", "r32ui", VK_FORMAT_R32_UINT, 4, Kind::Uint, Dim::D2, flat(20, 12)}, true);
}

/* Image atomics on R32 UINT/SINT 2D and 2D-array images and an R32 UINT texel buffer, returning
 * (add, compare-exchange, exchange, or: each on a texel or element only its invocation touches,
 * so the old values are known) and not (add, min, max, and, or, xor on texels every invocation
 * hits: the final values are known), against lavapipe. */
struct AtomicsOutcome {
   VkResult result = VK_ERROR_UNKNOWN;
   std::vector<uint32_t> own, seen, shared_texels, counters;
};

AtomicsOutcome run_atomics(ComputeDevice &gpu)
{
   AtomicsOutcome out;
   const VkDescriptorType image = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, texel = VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
   auto program = gpu.program("storage_image_atomics", {{image, image, image, texel}}, 0, &out.result);
   if (out.result != VK_SUCCESS)
      return out;
   std::vector<uint8_t> own_texels(16 * 8 * 4), shared_init(4 * 2 * 4);
   for (size_t i = 0; i < own_texels.size(); i++)
      own_texels[i] = uint8_t(i * 37 + 11);
   const int32_t shared_values[8] = {5, 0, -7, -1, 0x100, 0x1234567, 1000, -1000000};
   std::memcpy(shared_init.data(), shared_values, sizeof(shared_values));
   gpu.extra_image_usage = VK_IMAGE_USAGE_STORAGE_BIT;
   auto own = gpu.image(VK_FORMAT_R32_UINT, VK_IMAGE_TYPE_2D, {16, 8, 1}, 1, 1, own_texels, 4);
   auto seen = gpu.image(VK_FORMAT_R32_UINT, VK_IMAGE_TYPE_2D, {16, 8, 1}, 2, 1, std::vector<uint8_t>(16 * 8 * 2 * 4), 4);
   auto shared_texels = gpu.image(VK_FORMAT_R32_SINT, VK_IMAGE_TYPE_2D, {4, 1, 1}, 2, 1, shared_init, 4);
   gpu.extra_image_usage = 0;
   VkImageView views[3] = {gpu.view(own, VK_IMAGE_VIEW_TYPE_2D), gpu.view(seen, VK_IMAGE_VIEW_TYPE_2D_ARRAY),
                           gpu.view(shared_texels, VK_IMAGE_VIEW_TYPE_2D_ARRAY)};
   auto counters = gpu.buffer(4 * (4 + 128), VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT);
   for (uint32_t i = 0; i < 4 + 128; i++)
      counters.words[i] = i < 4 ? i * 1000 : 0x80000000u | i;
   VkBufferViewCreateInfo view_info{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
   view_info.buffer = counters.buffer;
   view_info.format = VK_FORMAT_R32_UINT;
   view_info.range = VK_WHOLE_SIZE;
   VkBufferView counters_view = VK_NULL_HANDLE;
   EXPECT_EQ(vkCreateBufferView(gpu.device, &view_info, nullptr, &counters_view), VK_SUCCESS);
   VkDescriptorSet set = gpu.allocate_set(program, 0);
   for (uint32_t b = 0; b < 3; b++)
      write_descriptor(gpu, set, b, image, views[b], nullptr);
   write_descriptor(gpu, set, 3, texel, VK_NULL_HANDLE, &counters_view);

   const size_t own_bytes = 16 * 8 * 4, seen_bytes = 2 * own_bytes, shared_bytes = 8 * 4;
   auto copy_out = gpu.buffer(own_bytes + seen_bytes + shared_bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
   VkCommandBuffer commands = gpu.begin();
   VkImageMemoryBarrier barriers[3] = {};
   const ComputeDevice::Image *images[3] = {&own, &seen, &shared_texels};
   for (unsigned i = 0; i < 3; i++) {
      barriers[i] = {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
      barriers[i].srcAccessMask = VK_ACCESS_SHADER_READ_BIT;
      barriers[i].dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
      barriers[i].oldLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
      barriers[i].newLayout = VK_IMAGE_LAYOUT_GENERAL;
      barriers[i].srcQueueFamilyIndex = barriers[i].dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
      barriers[i].image = images[i]->image;
      barriers[i].subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, images[i]->layers};
   }
   vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0,
                        nullptr, 0, nullptr, 3, barriers);
   vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.pipeline);
   vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.layout, 0, 1, &set, 0, nullptr);
   vkCmdDispatch(commands, 2, 1, 1);
   for (unsigned i = 0; i < 3; i++) {
      barriers[i].srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
      barriers[i].dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
      barriers[i].oldLayout = VK_IMAGE_LAYOUT_GENERAL;
      barriers[i].newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
   }
   VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
   to_host.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
   to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
   vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                        VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0, nullptr, 3,
                        barriers);
   const VkDeviceSize offsets[3] = {0, own_bytes, own_bytes + seen_bytes};
   const VkExtent3D extents[3] = {{16, 8, 1}, {16, 8, 1}, {4, 1, 1}};
   for (unsigned i = 0; i < 3; i++) {
      VkBufferImageCopy region{};
      region.bufferOffset = offsets[i];
      region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, images[i]->layers};
      region.imageExtent = extents[i];
      vkCmdCopyImageToBuffer(commands, images[i]->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, copy_out.buffer, 1,
                             &region);
   }
   VkMemoryBarrier copied{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
   copied.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
   copied.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
   vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &copied, 0,
                        nullptr, 0, nullptr);
   out.result = gpu.submit_and_wait(commands);
   const uint32_t *words = copy_out.words;
   out.own.assign(words, words + own_bytes / 4);
   out.seen.assign(words + own_bytes / 4, words + (own_bytes + seen_bytes) / 4);
   out.shared_texels.assign(words + (own_bytes + seen_bytes) / 4, words + (own_bytes + seen_bytes + shared_bytes) / 4);
   out.counters.assign(counters.words, counters.words + 4 + 128);
   vkDestroyBufferView(gpu.device, counters_view, nullptr);
   for (VkImageView v : views)
      vkDestroyImageView(gpu.device, v, nullptr);
   gpu.destroy(program);
   gpu.destroy(own);
   gpu.destroy(seen);
   gpu.destroy(shared_texels);
   gpu.destroy(counters);
   gpu.destroy(copy_out);
   return out;
}

TEST(StorageImages, ImageAtomics)
{
   ComputeDevice &terakan = terakan_gpu(), &lavapipe = lavapipe_gpu();
   ASSERT_TRUE(terakan.ok()) << terakan.error;
   ASSERT_TRUE(lavapipe.ok()) << lavapipe.error;
   const unsigned before = terakan.validation_messages, lavapipe_before = lavapipe.validation_messages;
   const AtomicsOutcome got = run_atomics(terakan), expected = run_atomics(lavapipe);
   ASSERT_EQ(expected.result, VK_SUCCESS);
   ASSERT_EQ(got.result, VK_SUCCESS);
   /* The CPU agrees on what is easy to compute: the shared add and the counters. */
   ASSERT_EQ(expected.shared_texels.size(), 8u);
   EXPECT_EQ(int32_t(expected.shared_texels[0]), 5 + 127 * 128 / 2);
   EXPECT_EQ(expected.counters[1], 1000u + 32u);
   EXPECT_EQ(got.own, expected.own) << "add, compare-exchange and exchange on own texels";
   EXPECT_EQ(got.seen, expected.seen) << "the values those returned";
   EXPECT_EQ(got.shared_texels, expected.shared_texels) << "add, min, max, and, or, xor on shared texels";
   EXPECT_EQ(got.counters, expected.counters) << "texel-buffer atomics";
   EXPECT_EQ(terakan.validation_messages, before) << "validation layer messages on Terakan";
   EXPECT_EQ(lavapipe.validation_messages, lavapipe_before);
}

/* Float image atomics are refused at pipeline creation as every shader the compiler cannot
 * take is (VK_ERROR_INVALID_SHADER_NV with the message; without the validation layer, which
 * would rightly object to the capability the device does not offer). */
TEST(StorageImages, UnsupportedImageAtomicsAreRefused)
{
   ComputeDevice gpu("Terakan", false);
   ASSERT_TRUE(gpu.ok()) << gpu.error;
   VkResult result = VK_SUCCESS;
   auto program = gpu.program("storage_image_float_atomic", {{VK_DESCRIPTOR_TYPE_STORAGE_IMAGE}}, 0, &result);
   EXPECT_EQ(result, VK_ERROR_INVALID_SHADER_NV);
   EXPECT_EQ(program.pipeline, VK_NULL_HANDLE);
   gpu.destroy(program);
}

/* Storage buffers and storage images share a stage's eight RATs (CB_COLOR0-7): an image whose
 * RAT would be the ninth is refused at pipeline creation with the compiler's message. */
TEST(StorageImages, RatsBeyondTheEightAreRefused)
{
   ComputeDevice gpu("Terakan", false);
   ASSERT_TRUE(gpu.ok()) << gpu.error;
   const VkDescriptorType ssbo = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
   VkResult result = VK_SUCCESS;
   auto program = gpu.program("storage_image_ninth_rat",
                              {{ssbo, ssbo, ssbo, ssbo, ssbo, ssbo, ssbo, ssbo, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE}}, 0,
                              &result);
   EXPECT_EQ(result, VK_ERROR_INVALID_SHADER_NV);
   EXPECT_EQ(program.pipeline, VK_NULL_HANDLE);
   gpu.destroy(program);
}

/* Format features: every format the driver offers for storage is one this test writes. */
TEST(StorageImages, StorageFeaturesOnlyForTestedFormats)
{
   ComputeDevice &gpu = terakan_gpu();
   ASSERT_TRUE(gpu.ok()) << gpu.error;
   const VkFormat tested[] = {VK_FORMAT_R8G8B8A8_UNORM,      VK_FORMAT_R8G8B8A8_UINT,
                              VK_FORMAT_R8G8B8A8_SINT,       VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R32_SFLOAT,
                              VK_FORMAT_R32_UINT,            VK_FORMAT_R32_SINT,            VK_FORMAT_R32G32_SFLOAT,
                              VK_FORMAT_R32G32_UINT,         VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_R32G32B32A32_UINT,
                              VK_FORMAT_R32G32B32A32_SINT,   VK_FORMAT_R8G8B8A8_SNORM,      VK_FORMAT_R16G16B16A16_UINT,
                              VK_FORMAT_R16G16B16A16_SINT,   VK_FORMAT_R32G32_SINT,
                              /* api-storage-formats (test_storage_formats.cpp) tests these */
                              VK_FORMAT_R16_UINT,            VK_FORMAT_R16_SINT,            VK_FORMAT_R16_SFLOAT,
                              VK_FORMAT_R16G16_UINT,         VK_FORMAT_R16G16_SINT,         VK_FORMAT_R16G16_SFLOAT,
                              VK_FORMAT_R8_UINT,             VK_FORMAT_R8_SINT,             VK_FORMAT_R8G8_UINT,
                              VK_FORMAT_R8G8_SINT,
                              /* api-storage-extended (test_storage_extended_formats.cpp) tests these */
                              VK_FORMAT_R8_UNORM,            VK_FORMAT_R8_SNORM,            VK_FORMAT_R8G8_UNORM,
                              VK_FORMAT_R8G8_SNORM,          VK_FORMAT_R16_UNORM,           VK_FORMAT_R16_SNORM,
                              VK_FORMAT_R16G16_UNORM,        VK_FORMAT_R16G16_SNORM,        VK_FORMAT_R16G16B16A16_UNORM,
                              VK_FORMAT_R16G16B16A16_SNORM,  VK_FORMAT_A2B10G10R10_UNORM_PACK32,
                              VK_FORMAT_A2B10G10R10_UINT_PACK32, VK_FORMAT_B10G11R11_UFLOAT_PACK32};
   /* Storage texel buffers only (Vulkan requires them; no SPIR-V image format names them, so
    * they are not offered as storage images). */
   const VkFormat texel_only[] = {VK_FORMAT_A8B8G8R8_UNORM_PACK32, VK_FORMAT_A8B8G8R8_SNORM_PACK32,
                                  VK_FORMAT_A8B8G8R8_UINT_PACK32, VK_FORMAT_A8B8G8R8_SINT_PACK32};
   for (int f = VK_FORMAT_UNDEFINED; f <= VK_FORMAT_ASTC_12x12_SRGB_BLOCK; f++) {
      VkFormatProperties properties{};
      vkGetPhysicalDeviceFormatProperties(gpu.physical, VkFormat(f), &properties);
      const bool storage = (properties.optimalTilingFeatures | properties.linearTilingFeatures) &
                           VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT;
      const bool texel = properties.bufferFeatures & VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT;
      const bool listed = std::find(std::begin(tested), std::end(tested), VkFormat(f)) != std::end(tested);
      const bool texel_listed =
         listed || std::find(std::begin(texel_only), std::end(texel_only), VkFormat(f)) != std::end(texel_only);
      EXPECT_EQ(storage, listed) << "format " << f;
      EXPECT_EQ(texel, texel_listed) << "format " << f;
      const bool atomic = f == VK_FORMAT_R32_UINT || f == VK_FORMAT_R32_SINT;
      EXPECT_EQ(bool(properties.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_ATOMIC_BIT), atomic)
         << "format " << f;
      EXPECT_EQ(bool(properties.bufferFeatures & VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_ATOMIC_BIT), atomic)
         << "format " << f;
   }
   VkPhysicalDeviceFeatures features{};
   vkGetPhysicalDeviceFeatures(gpu.physical, &features);
   EXPECT_TRUE(features.shaderStorageImageReadWithoutFormat);
   EXPECT_TRUE(features.shaderStorageImageWriteWithoutFormat);
   EXPECT_TRUE(features.shaderStorageImageExtendedFormats);
}

} // namespace
