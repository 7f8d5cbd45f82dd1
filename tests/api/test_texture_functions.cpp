/* Texture functions in compute shaders through the driver on the simulated GPU
 * (TERAKAN_SIM_CHIP picks the chip) and on lavapipe, with the Khronos validation layer counting
 * messages; both devices must equal what is computed here on the CPU from Vulkan's rules, and
 * so each other.
 *
 * Gathers (shaders/texture_gathers.comp): 64 points gather from four 8 x 8 textures: RGBA8 unorm
 * (each component, a NEAREST sampler: gathers take the bilinear footprint whatever the filter;
 * REPEAT), RGBA8 uint (CLAMP_TO_EDGE: the texture unit's half-texel shift on integer formats), a
 * 3-layer RGBA8 array (MIRRORED_REPEAT) and a D32 depth texture compared with LESS; texels
 * i0j1, i1j1, i1j0, i0j0 of the footprint at level 0; and textureGatherOffset with offsets
 * -8..7 known only at run time (shaderImageGatherExtended) on the unorm and uint textures.
 *
 * Gradients (shaders/texture_gradients.comp): sixteen invocations sample with sixteen pairs of
 * gradients a 32 x 32 RGBA8 texture whose six levels are one colour each (mipmapMode NEAREST),
 * a 3-layer array of such levels, and a D32 texture compared with LESS. The level each pair
 * selects (λ = log2 max(|d/dx|, |d/dy|) in base-level texels, nearest level) is computed here;
 * every pair is at least 0.08 from a half-level threshold and gives the same level whether a
 * length or its largest component is taken, so lavapipe's approximations cannot change it. */
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "session.h"

namespace {

using namespace terakan::test;

using Levels = std::vector<std::vector<uint8_t>>;

/* A combined image sampler (view and sampler) or a storage buffer (buffer). */
struct Binding {
   VkImageView view = VK_NULL_HANDLE;
   VkSampler sampler = VK_NULL_HANDLE;
   VkBuffer buffer = VK_NULL_HANDLE;
};

struct MessageCount {
   unsigned messages = 0;
};

/* One device: textures uploaded through a staging buffer, samplers, and one dispatch of a
 * compute shader over a descriptor set of bindings 0..n-1 in the order given. */
class ComputeSampling : private MessageCount, public Session {
public:
   explicit ComputeSampling(const char *name)
   {
      SessionOptions options;
      options.application = "terakan-api-texture-functions";
      options.features.imageCubeArray = VK_TRUE;
      options.features.shaderImageGatherExtended = VK_TRUE;
      ready_ = open(name, messages, error, options);
   }
   ~ComputeSampling() override { release(); }

   bool ready() const { return ready_; }
   unsigned validation_messages() const { return messages; }
   std::string error;

   /* A size x size 2D image (an array view with layers > 1) holding `levels` (each level's
    * layers one after the other), ready for sampling once `commands` has run. */
   VkImageView texture(VkFormat format, uint32_t size, uint32_t layers, VkImageAspectFlags aspect,
                       const Levels &levels, VkCommandBuffer commands,
                       VkImageViewType cube_type = VK_IMAGE_VIEW_TYPE_MAX_ENUM);
   VkSampler sampler(const VkSamplerCreateInfo &info);
   /* Runs `shader` once over `groups` workgroups, false with `error` set on failure. */
   bool dispatch(const char *shader, const std::vector<Binding> &bindings, const void *push, uint32_t push_bytes,
                 uint32_t groups);

private:
   bool ready_ = false;
};

/* cube_type: VK_IMAGE_VIEW_TYPE_CUBE or _CUBE_ARRAY for a cube-compatible image viewed so. */
VkImageView ComputeSampling::texture(VkFormat format, uint32_t size, uint32_t layers, VkImageAspectFlags aspect,
                                     const Levels &levels, VkCommandBuffer commands, VkImageViewType cube_type)
{
   const uint32_t level_count = uint32_t(levels.size());
   const bool cube = cube_type != VK_IMAGE_VIEW_TYPE_MAX_ENUM;
   VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
   info.flags = cube ? VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT : 0;
   info.imageType = VK_IMAGE_TYPE_2D;
   info.format = format;
   info.extent = {size, size, 1};
   info.mipLevels = level_count;
   info.arrayLayers = layers;
   info.samples = VK_SAMPLE_COUNT_1_BIT;
   info.tiling = VK_IMAGE_TILING_OPTIMAL;
   info.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
   const VkImage image = this->image(info);
   size_t bytes = 0;
   for (const auto &l : levels)
      bytes += l.size();
   void *map = nullptr;
   const VkBuffer staging = buffer(bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, map);
   if (!image || !staging)
      return VK_NULL_HANDLE;
   std::vector<VkBufferImageCopy> regions;
   size_t offset = 0;
   for (uint32_t level = 0; level < level_count; level++) {
      std::memcpy(static_cast<uint8_t *>(map) + offset, levels[level].data(), levels[level].size());
      VkBufferImageCopy region{};
      region.bufferOffset = offset;
      region.imageSubresource = {aspect, level, 0, layers};
      region.imageExtent = {size >> level, size >> level, 1};
      regions.push_back(region);
      offset += levels[level].size();
   }
   VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
   barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
   barrier.image = image;
   barrier.subresourceRange = {aspect, 0, level_count, 0, layers};
   barrier.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
   barrier.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
   barrier.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
   vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                        nullptr, 1, &barrier);
   vkCmdCopyBufferToImage(commands, staging, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, uint32_t(regions.size()),
                          regions.data());
   barrier.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
   barrier.newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
   barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
   barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
   vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, nullptr,
                        0, nullptr, 1, &barrier);
   return view(image, cube ? cube_type : layers > 1 ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D, format,
               {aspect, 0, level_count, 0, layers});
}

VkSampler ComputeSampling::sampler(const VkSamplerCreateInfo &info)
{
   VkSampler sampler = VK_NULL_HANDLE;
   if (vkCreateSampler(device, &info, nullptr, &sampler) != VK_SUCCESS)
      return VK_NULL_HANDLE;
   later([this, sampler] { vkDestroySampler(device, sampler, nullptr); });
   return sampler;
}

bool ComputeSampling::dispatch(const char *shader, const std::vector<Binding> &bindings, const void *push,
                               uint32_t push_bytes, uint32_t groups)
{
   std::vector<VkDescriptorSetLayoutBinding> layout_bindings;
   uint32_t images = 0, buffers = 0;
   for (uint32_t b = 0; b < bindings.size(); b++) {
      const bool is_buffer = bindings[b].buffer != VK_NULL_HANDLE;
      (is_buffer ? buffers : images)++;
      layout_bindings.push_back({b, is_buffer ? VK_DESCRIPTOR_TYPE_STORAGE_BUFFER : VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
   }
   VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
   set_info.bindingCount = uint32_t(layout_bindings.size());
   set_info.pBindings = layout_bindings.data();
   VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
   if (vkCreateDescriptorSetLayout(device, &set_info, nullptr, &set_layout) != VK_SUCCESS) {
      error = "no descriptor set layout";
      return false;
   }
   later([this, set_layout] { vkDestroyDescriptorSetLayout(device, set_layout, nullptr); });
   const VkPushConstantRange push_range{VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes};
   VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
   layout_info.setLayoutCount = 1;
   layout_info.pSetLayouts = &set_layout;
   layout_info.pushConstantRangeCount = push_bytes ? 1 : 0;
   layout_info.pPushConstantRanges = &push_range;
   VkPipelineLayout pipeline_layout = VK_NULL_HANDLE;
   if (vkCreatePipelineLayout(device, &layout_info, nullptr, &pipeline_layout) != VK_SUCCESS) {
      error = "no pipeline layout";
      return false;
   }
   later([this, pipeline_layout] { vkDestroyPipelineLayout(device, pipeline_layout, nullptr); });
   const VkShaderModule module = this->module(shader);
   if (!module) {
      error = std::string(shader) + ".spv could not be read";
      return false;
   }
   VkComputePipelineCreateInfo pipeline_info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
   pipeline_info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
   pipeline_info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
   pipeline_info.stage.module = module;
   pipeline_info.stage.pName = "main";
   pipeline_info.layout = pipeline_layout;
   VkPipeline pipeline = VK_NULL_HANDLE;
   if (const VkResult r = vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &pipeline_info, nullptr, &pipeline);
       r != VK_SUCCESS) {
      error = std::string(shader) + ": the pipeline was refused (" + std::to_string(int(r)) + ")";
      return false;
   }
   later([this, pipeline] { vkDestroyPipeline(device, pipeline, nullptr); });
   std::vector<VkDescriptorPoolSize> pool_sizes;
   if (images)
      pool_sizes.push_back({VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, images});
   if (buffers)
      pool_sizes.push_back({VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, buffers});
   VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
   pool_info.maxSets = 1;
   pool_info.poolSizeCount = uint32_t(pool_sizes.size());
   pool_info.pPoolSizes = pool_sizes.data();
   VkDescriptorPool pool = VK_NULL_HANDLE;
   if (vkCreateDescriptorPool(device, &pool_info, nullptr, &pool) != VK_SUCCESS) {
      error = "no descriptor pool";
      return false;
   }
   later([this, pool] { vkDestroyDescriptorPool(device, pool, nullptr); });
   VkDescriptorSetAllocateInfo allocate{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
   allocate.descriptorPool = pool;
   allocate.descriptorSetCount = 1;
   allocate.pSetLayouts = &set_layout;
   VkDescriptorSet set = VK_NULL_HANDLE;
   if (vkAllocateDescriptorSets(device, &allocate, &set) != VK_SUCCESS) {
      error = "no descriptor set";
      return false;
   }
   std::vector<VkDescriptorImageInfo> image_infos(bindings.size());
   std::vector<VkDescriptorBufferInfo> buffer_infos(bindings.size());
   std::vector<VkWriteDescriptorSet> writes;
   for (uint32_t b = 0; b < bindings.size(); b++) {
      VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
      write.dstSet = set;
      write.dstBinding = b;
      write.descriptorCount = 1;
      write.descriptorType = layout_bindings[b].descriptorType;
      if (bindings[b].buffer) {
         buffer_infos[b] = {bindings[b].buffer, 0, VK_WHOLE_SIZE};
         write.pBufferInfo = &buffer_infos[b];
      } else {
         image_infos[b] = {bindings[b].sampler, bindings[b].view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
         write.pImageInfo = &image_infos[b];
      }
      writes.push_back(write);
   }
   vkUpdateDescriptorSets(device, uint32_t(writes.size()), writes.data(), 0, nullptr);

   const VkCommandBuffer commands = begin();
   vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
   vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_layout, 0, 1, &set, 0, nullptr);
   if (push_bytes)
      vkCmdPushConstants(commands, pipeline_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes, push);
   vkCmdDispatch(commands, groups, 1, 1);
   VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
   to_host.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
   to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
   vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0,
                        nullptr, 0, nullptr);
   if (submit_and_wait(commands) != VK_SUCCESS) {
      error = std::string(shader) + ": the dispatch failed";
      return false;
   }
   return true;
}

VkSamplerCreateInfo sampler_info(VkFilter filter, VkSamplerAddressMode mode, bool compare, float max_lod)
{
   VkSamplerCreateInfo info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
   info.magFilter = info.minFilter = filter;
   info.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
   info.addressModeU = info.addressModeV = info.addressModeW = mode;
   info.compareEnable = compare;
   info.compareOp = VK_COMPARE_OP_LESS;
   info.maxLod = max_lod;
   return info;
}

ComputeSampling &terakan_gpu()
{
   static ComputeSampling device("Terakan");
   return device;
}

ComputeSampling &lavapipe()
{
   static ComputeSampling device("llvmpipe");
   return device;
}

/* ------------------------------------------------------------ gathers */

namespace gathers {

constexpr uint32_t size = 8, layer_count = 3, invocations = 64, results_per_invocation = 9;
constexpr float reference = 0.5f;

/* Texel (x, y) of layer `layer` of the colour textures: a byte per channel, all different. */
std::array<uint8_t, 4> colour_texel(uint32_t x, uint32_t y, uint32_t layer)
{
   return {uint8_t(x * 29 + y * 3 + layer * 71), uint8_t(200 - x * 7 - y * 19), uint8_t(x * 31 + y * 17 + layer * 5),
           uint8_t(255 - x - y * 8)};
}

/* The depth texel (x, y): steps of 1/64 in an order that crosses 0.5 in several places. */
float depth_texel(uint32_t x, uint32_t y)
{
   return float((x * 5 + y * 3) % 64) / 64.0f;
}

int wrap(int i, VkSamplerAddressMode mode)
{
   const int n = int(size);
   switch (mode) {
   case VK_SAMPLER_ADDRESS_MODE_REPEAT: return ((i % n) + n) % n;
   case VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT: {
      const int t = ((i % (2 * n)) + 2 * n) % (2 * n);
      return t < n ? t : 2 * n - 1 - t;
   }
   default: return std::clamp(i, 0, n - 1);
   }
}

std::array<float, 2> gather_point(uint32_t i)
{
   return {float(i % 8u) * 0.27f - 0.587f, float(i / 8u) * 0.27f - 0.569f};
}

/* Vulkan's gather of `texel(x, y)` at (u, v): (i0, j1), (i1, j1), (i1, j0), (i0, j0), moved by
 * `offset` texels before wrapping. */
std::array<float, 4> cpu_gather(std::array<float, 2> uv, VkSamplerAddressMode mode,
                                const std::function<float(uint32_t, uint32_t)> &texel,
                                std::array<int, 2> offset = {0, 0})
{
   const int i0 = int(std::floor(uv[0] * size - 0.5f)) + offset[0];
   const int j0 = int(std::floor(uv[1] * size - 0.5f)) + offset[1];
   auto at = [&](int i, int j) { return texel(uint32_t(wrap(i, mode)), uint32_t(wrap(j, mode))); };
   return {at(i0, j0 + 1), at(i0 + 1, j0 + 1), at(i0 + 1, j0), at(i0, j0)};
}

std::vector<std::array<float, 4>> cpu_results()
{
   std::vector<std::array<float, 4>> out;
   for (uint32_t i = 0; i < invocations; i++) {
      const auto uv = gather_point(i);
      for (unsigned c = 0; c < 4; c++)
         out.push_back(cpu_gather(uv, VK_SAMPLER_ADDRESS_MODE_REPEAT,
                                  [c](uint32_t x, uint32_t y) { return colour_texel(x, y, 0)[c] / 255.0f; }));
      out.push_back(cpu_gather(uv, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                               [](uint32_t x, uint32_t y) { return float(colour_texel(x, y, 2)[1]); }));
      out.push_back(cpu_gather(uv, VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT,
                               [i](uint32_t x, uint32_t y) { return colour_texel(x, y, i % 3)[2] / 255.0f; }));
      out.push_back(cpu_gather(uv, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                               [](uint32_t x, uint32_t y) { return reference < depth_texel(x, y) ? 1.0f : 0.0f; }));
      /* The run-time offsets (-8..7 along x, -3..7 along y). */
      const std::array<int, 2> offset = {int(i % 16u) - 8, 7 - int(i % 11u)};
      out.push_back(cpu_gather(uv, VK_SAMPLER_ADDRESS_MODE_REPEAT,
                               [](uint32_t x, uint32_t y) { return colour_texel(x, y, 0)[1] / 255.0f; }, offset));
      out.push_back(cpu_gather(uv, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                               [](uint32_t x, uint32_t y) { return float(colour_texel(x, y, 2)[3]); },
                               {offset[1], offset[0]}));
   }
   return out;
}

/* The gathers on one device: seven vec4 per invocation, as the shader writes them; empty with
 * the device's error set on failure. */
std::vector<std::array<float, 4>> run(ComputeSampling &gpu)
{
   std::vector<uint8_t> colours, layered, integers, depths;
   for (uint32_t layer = 0; layer < layer_count; layer++)
      for (uint32_t y = 0; y < size; y++)
         for (uint32_t x = 0; x < size; x++) {
            const auto t = colour_texel(x, y, layer);
            layered.insert(layered.end(), t.begin(), t.end());
            if (layer == 0) {
               colours.insert(colours.end(), t.begin(), t.end());
               const auto u = colour_texel(x, y, 2);
               integers.insert(integers.end(), u.begin(), u.end());
               const float d = depth_texel(x, y);
               const auto *bytes = reinterpret_cast<const uint8_t *>(&d);
               depths.insert(depths.end(), bytes, bytes + 4);
            }
         }
   const VkCommandBuffer upload = gpu.begin();
   const VkImageView views[4] = {
      gpu.texture(VK_FORMAT_R8G8B8A8_UNORM, size, 1, VK_IMAGE_ASPECT_COLOR_BIT, {colours}, upload),
      gpu.texture(VK_FORMAT_R8G8B8A8_UINT, size, 1, VK_IMAGE_ASPECT_COLOR_BIT, {integers}, upload),
      gpu.texture(VK_FORMAT_R8G8B8A8_UNORM, size, layer_count, VK_IMAGE_ASPECT_COLOR_BIT, {layered}, upload),
      gpu.texture(VK_FORMAT_D32_SFLOAT, size, 1, VK_IMAGE_ASPECT_DEPTH_BIT, {depths}, upload)};
   if (!views[0] || !views[1] || !views[2] || !views[3] || gpu.submit_and_wait(upload) != VK_SUCCESS) {
      gpu.error = "the gather textures could not be made";
      return {};
   }
   const VkSampler samplers[4] = {
      gpu.sampler(sampler_info(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_REPEAT, false, 0.0f)),
      gpu.sampler(sampler_info(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, false, 0.0f)),
      gpu.sampler(sampler_info(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT, false, 0.0f)),
      gpu.sampler(sampler_info(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, true, 0.0f))};
   const size_t result_bytes = size_t(invocations) * results_per_invocation * 16;
   void *result_map = nullptr;
   const VkBuffer results = gpu.buffer(result_bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, result_map);
   if (!samplers[0] || !samplers[1] || !samplers[2] || !samplers[3] || !results) {
      gpu.error = "gather samplers or the result buffer could not be made";
      return {};
   }
   std::memset(result_map, 0xff, result_bytes);
   std::vector<Binding> bindings;
   for (unsigned b = 0; b < 4; b++)
      bindings.push_back({views[b], samplers[b], VK_NULL_HANDLE});
   bindings.push_back({VK_NULL_HANDLE, VK_NULL_HANDLE, results});
   if (!gpu.dispatch("texture_gathers.comp", bindings, &reference, 4, 1))
      return {};
   std::vector<std::array<float, 4>> out(size_t(invocations) * results_per_invocation);
   std::memcpy(out.data(), result_map, result_bytes);
   return out;
}

const char *const what[results_per_invocation] = {"colour x",         "colour y",        "colour z",
                                                  "colour w",         "integer y",       "array layer z",
                                                  "depth comparison", "offset colour y", "offset integer w"};

/* Unorm results are compared as bytes (value x 255 rounded), the others exactly. */
unsigned count_differences(const std::vector<std::array<float, 4>> &got, const std::string &device)
{
   const auto expected = cpu_results();
   unsigned different = 0;
   for (size_t r = 0; r < expected.size(); r++) {
      const unsigned kind = unsigned(r % results_per_invocation);
      const bool unorm = kind < 4 || kind == 5 || kind == 7;
      for (unsigned c = 0; c < 4; c++) {
         const float a = got[r][c], b = expected[r][c];
         const bool same = unorm ? std::lround(a * 255.0f) == std::lround(b * 255.0f) && std::abs(a * 255.0f - b * 255.0f) < 0.01f
                                 : a == b;
         if (!same) {
            if (different++ < 6)
               ADD_FAILURE() << device << ": invocation " << r / results_per_invocation << " " << what[kind]
                             << " texel " << c << ": " << a << ", expected " << b;
            break;
         }
      }
   }
   return different;
}

} // namespace gathers

/* ------------------------------------------------------------ gradients */

namespace gradients {

constexpr uint32_t size = 32, level_count = 6, layer_count = 3, invocations = 16;

/* Gradients in base-level texels: d/dx (x, y), d/dy (z, w). */
const std::array<float, 4> gradient_table[invocations] = {
   {1, 0, 0, 1},   {2, 0, 0, 2},  {0, 4, 4, 0},  {3, 4, 0, 1},  {8, 0, 0, 1},    {0, 0, 0, 16},
   {32, 0, 0, 32}, {64, 0, 0, 1}, {0.25f, 0, 0, 0.25f}, {6, 0, 0, 1}, {1.6f, 1.6f, 0, 0}, {0, 0, 0, 0},
   {12, 0, 0, 1},  {20, 0, 0, 0}, {0, 2.5f, 0, 0}, {0, 0, 12, 12}};

std::array<uint8_t, 4> level_colour(uint32_t level, uint32_t layer)
{
   return {uint8_t(30 + level * 40), uint8_t(200 - layer * 60), uint8_t(level * 17 + layer * 50), 255};
}

float depth_texel(uint32_t x, uint32_t y)
{
   return float((x * 5 + y * 3) % 64) / 64.0f;
}

/* The level Vulkan's rules pick for gradient row i (nearest mip, levels 0..5). */
uint32_t expected_level(uint32_t i)
{
   const auto &g = gradient_table[i];
   const double rho = std::max(std::hypot(g[0], g[1]), std::hypot(g[2], g[3]));
   if (!(rho > 0))
      return 0;
   const double lod = std::clamp(std::log2(rho), 0.0, double(level_count - 1));
   return uint32_t(std::ceil(lod + 0.5) - 1.0);
}

std::array<float, 2> sample_point(uint32_t i)
{
   return {0.3f + 0.01f * float(i), 0.6f};
}

/* The samples on one device: three vec4 per invocation; empty with the error set on failure. */
std::vector<std::array<float, 4>> run(ComputeSampling &gpu)
{
   Levels plain, layered;
   for (uint32_t level = 0; level < level_count; level++) {
      const uint32_t n = size >> level;
      std::vector<uint8_t> one, three;
      for (uint32_t layer = 0; layer < layer_count; layer++)
         for (uint32_t t = 0; t < n * n; t++) {
            const auto c = level_colour(level, layer);
            three.insert(three.end(), c.begin(), c.end());
            if (layer == 0)
               one.insert(one.end(), c.begin(), c.end());
         }
      plain.push_back(one);
      layered.push_back(three);
   }
   std::vector<uint8_t> depth_bytes(size_t(size) * size * 4);
   for (uint32_t y = 0; y < size; y++)
      for (uint32_t x = 0; x < size; x++) {
         const float d = depth_texel(x, y);
         std::memcpy(&depth_bytes[(size_t(y) * size + x) * 4], &d, 4);
      }
   const VkCommandBuffer upload = gpu.begin();
   const VkImageView views[3] = {
      gpu.texture(VK_FORMAT_R8G8B8A8_UNORM, size, 1, VK_IMAGE_ASPECT_COLOR_BIT, plain, upload),
      gpu.texture(VK_FORMAT_R8G8B8A8_UNORM, size, layer_count, VK_IMAGE_ASPECT_COLOR_BIT, layered, upload),
      gpu.texture(VK_FORMAT_D32_SFLOAT, size, 1, VK_IMAGE_ASPECT_DEPTH_BIT, {depth_bytes}, upload)};
   if (!views[0] || !views[1] || !views[2] || gpu.submit_and_wait(upload) != VK_SUCCESS) {
      gpu.error = "the gradient textures could not be made";
      return {};
   }
   const VkSampler samplers[3] = {
      gpu.sampler(sampler_info(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, false, VK_LOD_CLAMP_NONE)),
      gpu.sampler(sampler_info(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, false, VK_LOD_CLAMP_NONE)),
      gpu.sampler(sampler_info(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, true, VK_LOD_CLAMP_NONE))};
   const size_t result_bytes = size_t(invocations) * 3 * 16;
   void *result_map = nullptr, *gradient_map = nullptr;
   const VkBuffer results = gpu.buffer(result_bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, result_map);
   const VkBuffer gradients = gpu.buffer(sizeof(gradient_table), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, gradient_map);
   if (!samplers[0] || !samplers[1] || !samplers[2] || !results || !gradients) {
      gpu.error = "gradient samplers or buffers could not be made";
      return {};
   }
   std::memset(result_map, 0xff, result_bytes);
   /* The table in normalized units: texels / 32. */
   std::vector<float> normalized;
   for (const auto &g : gradient_table)
      for (float v : g)
         normalized.push_back(v / float(size));
   std::memcpy(gradient_map, normalized.data(), sizeof(gradient_table));
   std::vector<Binding> bindings;
   for (unsigned b = 0; b < 3; b++)
      bindings.push_back({views[b], samplers[b], VK_NULL_HANDLE});
   bindings.push_back({VK_NULL_HANDLE, VK_NULL_HANDLE, gradients});
   bindings.push_back({VK_NULL_HANDLE, VK_NULL_HANDLE, results});
   if (!gpu.dispatch("texture_gradients.comp", bindings, nullptr, 0, 1))
      return {};
   std::vector<std::array<float, 4>> out(size_t(invocations) * 3);
   std::memcpy(out.data(), result_map, result_bytes);
   return out;
}

/* Differences from the CPU's expectation, a few reported. */
unsigned count_differences(const std::vector<std::array<float, 4>> &got, const std::string &device)
{
   unsigned different = 0;
   for (uint32_t i = 0; i < invocations; i++) {
      const uint32_t level = expected_level(i);
      const auto uv = sample_point(i);
      const uint32_t x = uint32_t(uv[0] * size), y = uint32_t(uv[1] * size);
      const float compared = 0.5f < depth_texel(x, y) ? 1.0f : 0.0f;
      const std::array<std::array<uint8_t, 4>, 2> colours = {level_colour(level, 0), level_colour(level, i % 3)};
      for (unsigned k = 0; k < 3; k++)
         for (unsigned c = 0; c < 4; c++) {
            const float value = got[i * 3 + k][c];
            const bool same = k < 2 ? std::lround(value * 255.0f) == colours[k][c] : value == compared; /* vec4(float): all four */
            if (!same) {
               if (different++ < 6)
                  ADD_FAILURE() << device << ": invocation " << i << (k == 0 ? " 2D" : k == 1 ? " array" : " depth")
                                << " channel " << c << ": " << value << " (level " << level << " expected)";
               break;
            }
         }
   }
   return different;
}

} // namespace gradients

/* ------------------------------------------------------------ cubes */

namespace cubes {

constexpr uint32_t gather_size = 8, invocations = 64, results_per_invocation = 6;
const float s_list[8] = {0.02f, 0.13f, 0.29f, 0.46f, 0.55f, 0.71f, 0.88f, 0.985f};
const float t_list[8] = {0.04f, 0.21f, 0.33f, 0.52f, 0.6f, 0.77f, 0.92f, 0.97f};

/* Texel (x, y) of face f of the gathered cube: every texel of every face differs. */
std::array<uint8_t, 4> cube_texel(uint32_t x, uint32_t y, uint32_t face)
{
   const auto t = gathers::colour_texel(x, y, 0);
   return {uint8_t(t[0] + 37 * face), uint8_t(t[1] + 11 * face), uint8_t(t[2] ^ (face << 5)), uint8_t(t[3] - 41 * face)};
}

/* The gather of invocation i when its footprint stays inside the face (false otherwise: the
 * texels across an edge are compared with lavapipe only). */
bool cpu_gather(uint32_t i, unsigned component, std::array<float, 4> &out)
{
   const float s = s_list[i % 8], t = t_list[i / 8];
   const int i0 = int(std::floor(s * gather_size - 0.5f)), j0 = int(std::floor(t * gather_size - 0.5f));
   if (i0 < 0 || j0 < 0 || i0 + 1 >= int(gather_size) || j0 + 1 >= int(gather_size))
      return false;
   auto at = [&](int x, int y) { return cube_texel(uint32_t(x), uint32_t(y), i % 6)[component] / 255.0f; };
   out = {at(i0, j0 + 1), at(i0 + 1, j0 + 1), at(i0 + 1, j0), at(i0, j0)};
   return true;
}

std::vector<std::array<float, 4>> run(ComputeSampling &gpu)
{
   std::vector<uint8_t> faces;
   for (uint32_t face = 0; face < 6; face++)
      for (uint32_t y = 0; y < gather_size; y++)
         for (uint32_t x = 0; x < gather_size; x++) {
            const auto t = cube_texel(x, y, face);
            faces.insert(faces.end(), t.begin(), t.end());
         }
   Levels one_cube, two_cubes;
   for (uint32_t level = 0; level < gradients::level_count; level++) {
      const uint32_t n = gradients::size >> level;
      std::vector<uint8_t> one, two;
      for (uint32_t layer = 0; layer < 12; layer++)
         for (uint32_t t = 0; t < n * n; t++) {
            const auto c = gradients::level_colour(level, layer / 6);
            two.insert(two.end(), c.begin(), c.end());
            if (layer < 6)
               one.insert(one.end(), c.begin(), c.end());
         }
      one_cube.push_back(one);
      two_cubes.push_back(two);
   }
   const VkCommandBuffer upload = gpu.begin();
   const VkImageView views[3] = {
      gpu.texture(VK_FORMAT_R8G8B8A8_UNORM, gather_size, 6, VK_IMAGE_ASPECT_COLOR_BIT, {faces}, upload,
                  VK_IMAGE_VIEW_TYPE_CUBE),
      gpu.texture(VK_FORMAT_R8G8B8A8_UNORM, gradients::size, 6, VK_IMAGE_ASPECT_COLOR_BIT, one_cube, upload,
                  VK_IMAGE_VIEW_TYPE_CUBE),
      gpu.texture(VK_FORMAT_R8G8B8A8_UNORM, gradients::size, 12, VK_IMAGE_ASPECT_COLOR_BIT, two_cubes, upload,
                  VK_IMAGE_VIEW_TYPE_CUBE_ARRAY)};
   if (!views[0] || !views[1] || !views[2] || gpu.submit_and_wait(upload) != VK_SUCCESS) {
      gpu.error = "the cube textures could not be made";
      return {};
   }
   const VkSampler samplers[2] = {
      gpu.sampler(sampler_info(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, false, 0.0f)),
      gpu.sampler(sampler_info(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, false, VK_LOD_CLAMP_NONE))};
   const size_t result_bytes = size_t(invocations) * results_per_invocation * 16;
   void *result_map = nullptr, *gradient_map = nullptr;
   const VkBuffer results = gpu.buffer(result_bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, result_map);
   const VkBuffer gradient_buffer =
      gpu.buffer(sizeof(gradients::gradient_table), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, gradient_map);
   if (!samplers[0] || !samplers[1] || !results || !gradient_buffer) {
      gpu.error = "cube samplers or buffers could not be made";
      return {};
   }
   std::memset(result_map, 0xff, result_bytes);
   /* A face coordinate moves by half the direction's minor component over |major| (1 here):
    * texels / (size / 2). */
   std::vector<float> direction_units;
   for (const auto &g : gradients::gradient_table)
      for (float v : g)
         direction_units.push_back(v / float(gradients::size / 2));
   std::memcpy(gradient_map, direction_units.data(), sizeof(gradients::gradient_table));
   const std::vector<Binding> bindings = {{views[0], samplers[0], VK_NULL_HANDLE},
                                          {views[1], samplers[1], VK_NULL_HANDLE},
                                          {views[2], samplers[1], VK_NULL_HANDLE},
                                          {VK_NULL_HANDLE, VK_NULL_HANDLE, gradient_buffer},
                                          {VK_NULL_HANDLE, VK_NULL_HANDLE, results}};
   if (!gpu.dispatch("texture_cubes.comp", bindings, nullptr, 0, 1))
      return {};
   std::vector<std::array<float, 4>> out(size_t(invocations) * results_per_invocation);
   std::memcpy(out.data(), result_map, result_bytes);
   return out;
}

/* Terakan against lavapipe (every result, as bytes) and against the CPU (gathers inside a
 * face; every gradient sample's level, the cube array's second cube). */
void compare(const std::vector<std::array<float, 4>> &ours, const std::vector<std::array<float, 4>> &theirs,
             unsigned &against_lavapipe, unsigned &against_cpu, unsigned &inside)
{
   for (uint32_t i = 0; i < invocations; i++)
      for (unsigned k = 0; k < results_per_invocation; k++) {
         const size_t r = size_t(i) * results_per_invocation + k;
         std::array<float, 4> want{};
         bool known = false;
         if (k < 4) {
            known = cpu_gather(i, k, want);
            inside += known;
         } else {
            const auto c = gradients::level_colour(gradients::expected_level(i % 16), k == 5 ? 1 : 0);
            for (unsigned ch = 0; ch < 4; ch++)
               want[ch] = c[ch] / 255.0f;
            known = true;
         }
         for (unsigned ch = 0; ch < 4; ch++) {
            const long a = std::lround(ours[r][ch] * 255.0f);
            if (a != std::lround(theirs[r][ch] * 255.0f)) {
               if (against_lavapipe++ < 6)
                  ADD_FAILURE() << "invocation " << i << " result " << k << " channel " << ch << ": Terakan "
                                << ours[r][ch] << ", lavapipe " << theirs[r][ch];
               break;
            }
            if (known && a != std::lround(want[ch] * 255.0f)) {
               if (against_cpu++ < 6)
                  ADD_FAILURE() << "invocation " << i << " result " << k << " channel " << ch << ": Terakan "
                                << ours[r][ch] << ", the CPU " << want[ch];
               break;
            }
         }
      }
}

} // namespace cubes

class TextureFunctions : public ::testing::Test {
protected:
   static void SetUpTestSuite()
   {
      ASSERT_TRUE(terakan_gpu().ready()) << terakan_gpu().error;
      ASSERT_TRUE(lavapipe().ready()) << lavapipe().error;
   }
   void TearDown() override
   {
      EXPECT_EQ(terakan_gpu().validation_messages(), 0u) << "validation messages on Terakan";
      EXPECT_EQ(lavapipe().validation_messages(), 0u) << "validation messages on lavapipe";
   }
};

TEST_F(TextureFunctions, GathersEqualTheCpuAndLavapipe)
{
   const auto ours = gathers::run(terakan_gpu());
   ASSERT_FALSE(ours.empty()) << terakan_gpu().error;
   const auto theirs = gathers::run(lavapipe());
   ASSERT_FALSE(theirs.empty()) << lavapipe().error;
   EXPECT_EQ(gathers::count_differences(theirs, "lavapipe"), 0u) << "the oracle disagrees with the CPU model";
   EXPECT_EQ(gathers::count_differences(ours, "Terakan"), 0u);
}

/* The CPU model is not trivially satisfied: the footprint moves with the points, the comparisons
 * go both ways and the integer gathers see the clamped edge. */
TEST_F(TextureFunctions, GatherExpectationsVary)
{
   const auto expected = gathers::cpu_results();
   unsigned passes = 0, fails = 0;
   for (size_t r = 6; r < expected.size(); r += gathers::results_per_invocation)
      for (float v : expected[r])
         (v == 1.0f ? passes : fails)++;
   EXPECT_GT(passes, 20u);
   EXPECT_GT(fails, 20u);
   EXPECT_NE(expected[0], expected[gathers::results_per_invocation]);
}

TEST_F(TextureFunctions, GradientsEqualTheCpuAndLavapipe)
{
   const auto ours = gradients::run(terakan_gpu());
   ASSERT_FALSE(ours.empty()) << terakan_gpu().error;
   const auto theirs = gradients::run(lavapipe());
   ASSERT_FALSE(theirs.empty()) << lavapipe().error;
   EXPECT_EQ(gradients::count_differences(theirs, "lavapipe"), 0u) << "the oracle disagrees with the CPU";
   EXPECT_EQ(gradients::count_differences(ours, "Terakan"), 0u);
}

/* Every level is reached, so a wrong LOD cannot pass unseen. */
TEST_F(TextureFunctions, GradientTableReachesEveryLevel)
{
   std::array<unsigned, gradients::level_count> seen{};
   for (uint32_t i = 0; i < gradients::invocations; i++)
      seen[gradients::expected_level(i)]++;
   for (uint32_t level = 0; level < gradients::level_count; level++)
      EXPECT_GT(seen[level], 0u) << "level " << level;
}

/* textureGather on cubes (every component, footprints across edges) and textureGrad on a cube
 * and a cube array (the gradients projected onto the face by the quotient rule before a
 * textureLod: nir_lower_tex lower_txd_cube_map), against lavapipe and the CPU. */
TEST_F(TextureFunctions, CubeGathersAndGradientsEqualLavapipe)
{
   const auto ours = cubes::run(terakan_gpu());
   ASSERT_FALSE(ours.empty()) << terakan_gpu().error;
   const auto theirs = cubes::run(lavapipe());
   ASSERT_FALSE(theirs.empty()) << lavapipe().error;
   unsigned against_lavapipe = 0, against_cpu = 0, inside = 0, lavapipe_against_cpu = 0, unused = 0;
   cubes::compare(theirs, theirs, unused, lavapipe_against_cpu, unused);
   EXPECT_EQ(lavapipe_against_cpu, 0u) << "the oracle disagrees with the CPU";
   cubes::compare(ours, theirs, against_lavapipe, against_cpu, inside);
   EXPECT_EQ(against_lavapipe, 0u);
   EXPECT_EQ(against_cpu, 0u);
   EXPECT_GT(inside, 100u) << "too few gathers checked against the CPU";
}

} // namespace
