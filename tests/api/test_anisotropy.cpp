/* Anisotropic filtering (samplerAnisotropy) through the driver on the simulated GPU
 * (TERAKAN_SIM_CHIP picks the chip) and on lavapipe, with the Khronos validation layer counting
 * messages. One scene: a plane seen at a grazing angle (shaders/anisotropic_plane.*), whose
 * footprint is 4 to 16 times longer along the screen's y than along x, textured with a
 * 128 x 128 RGBA8 image of eight levels and sampled with an implicit level of detail.
 *
 * - Without anisotropy, and with maxAnisotropy 1, Terakan must equal lavapipe pixel for pixel
 *   where the two can be exact: every level a plain colour and mipmapMode NEAREST, so a pixel
 *   shows which level it chose (lavapipe's level choice is exact at the half-level thresholds;
 *   its trilinear blend uses an approximate log2, so blended levels are not compared with it).
 * - With anisotropy there is no oracle: lavapipe 22.3 filters anisotropically, but with its own
 *   elliptical filter (gallivm lp_build_sample_aniso, a weighted table over up to 16 probes),
 *   not the specification's model the simulator follows. So Terakan is compared with that model
 *   computed here on the CPU (ModelPixel: Vulkan's "Texel Anisotropic Filtering" and
 *   level-of-detail formulas from the exact projective mapping of the plane): at 16x and 4x on
 *   the plain levels and on a stripe texture with trilinear filtering, the isotropic case too.
 * - A property a real card shows as well: on the stripes, which run along the receding
 *   direction, the 16x picture keeps much more of the stripes' contrast than the trilinear one
 *   (on lavapipe too, whose anisotropic filter is a different one).
 * With TERAKAN_DRAW_PICTURES=DIR the pictures are written there as PNG files. */
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "../gl/png_file.h"
#include "../vulkan_helpers.h"
#include "session.h"

namespace {

using namespace terakan::test;

constexpr uint32_t target = 128;       /* the picture is target x target */
constexpr uint32_t texture_size = 128; /* texels of level 0 */
constexpr uint32_t levels = 8;         /* 128 .. 1 */
constexpr float far_w = 4.0f;          /* clip w of the plane's far edge (the near edge has 1) */
constexpr float repeats_u = 1.0f, repeats_v = 16.0f; /* texture coordinates at u, v = 1 */

enum class Pattern { LevelColours, Stripes };

/* An RGBA8 level: size x size texels, rows packed. */
using Level = std::vector<uint8_t>;

std::array<uint8_t, 4> level_colour(unsigned level)
{
   static const std::array<uint8_t, 4> colours[levels] = {
      {230, 40, 40, 255}, {240, 160, 30, 255}, {220, 220, 40, 255}, {40, 200, 60, 255},
      {40, 190, 220, 255}, {50, 70, 230, 255}, {170, 60, 220, 255}, {250, 250, 250, 255}};
   return colours[level];
}

/* The levels of a pattern: plain colours, or stripes 4 texels wide along u (pale and dark
 * blue, constant along v) with levels made by averaging 2 x 2 texels. */
std::vector<Level> make_levels(Pattern pattern)
{
   std::vector<Level> out;
   for (uint32_t level = 0; level < levels; level++) {
      const uint32_t n = texture_size >> level;
      Level texels(size_t(n) * n * 4);
      for (uint32_t y = 0; y < n; y++)
         for (uint32_t x = 0; x < n; x++) {
            uint8_t *t = &texels[(size_t(y) * n + x) * 4];
            std::array<uint8_t, 4> c;
            if (pattern == Pattern::LevelColours) {
               c = level_colour(level);
            } else if (level == 0) {
               c = (x / 4) % 2 ? std::array<uint8_t, 4>{235, 235, 245, 255} : std::array<uint8_t, 4>{20, 30, 110, 255};
            } else {
               const Level &above = out[level - 1];
               const uint32_t m = n * 2;
               for (unsigned k = 0; k < 4; k++) {
                  unsigned sum = 0;
                  for (uint32_t dy = 0; dy < 2; dy++)
                     for (uint32_t dx = 0; dx < 2; dx++)
                        sum += above[((size_t(2 * y + dy) * m) + 2 * x + dx) * 4 + k];
                  c[k] = uint8_t((sum + 2) / 4);
               }
            }
            std::memcpy(t, c.data(), 4);
         }
      out.push_back(std::move(texels));
   }
   return out;
}

struct SamplerChoice {
   VkSamplerMipmapMode mip = VK_SAMPLER_MIPMAP_MODE_NEAREST;
   bool anisotropy = false;
   float max_anisotropy = 1.0f;
};

std::string name_of(Pattern pattern, const SamplerChoice &s)
{
   std::string name = pattern == Pattern::LevelColours ? "levels" : "stripes";
   name += s.mip == VK_SAMPLER_MIPMAP_MODE_LINEAR ? "-trilinear" : "-nearest-mip";
   if (s.anisotropy)
      name += "-aniso" + std::to_string(int(s.max_anisotropy));
   return name;
}

/* ------------------------------------------------------------ the plane, exactly */

/* Clip-space position of plane point (u, v), u, v in [0, 1]: X, Y, Z and W are affine in
 * (u, v), so the plane is flat and its texture mapping projective. Near edge (v = 0) at the
 * bottom of the window (y = +1, w = 1) spanning x -1..1; far edge (v = 1) at the top
 * (y = -1, w = 4) spanning x -1/4..1/4. Every corner is on whole pixels, so TeraScale's
 * truncation and lavapipe's rounding of positions to the subpixel grid agree. */
std::array<float, 4> clip_position(float u, float v)
{
   const float w = 1.0f + (far_w - 1.0f) * v;
   return {2.0f * u - 1.0f, 1.0f - (far_w + 1.0f) * v, 0.5f * w, w};
}

/* The plane point under window position (x, y), from the inverse of the mapping above. */
std::array<double, 2> plane_at(double x, double y)
{
   const double nx = x / (target / 2.0) - 1.0, ny = y / (target / 2.0) - 1.0;
   const double v = (1.0 - ny) / ((far_w + 1.0) + (far_w - 1.0) * ny);
   const double w = 1.0 + (far_w - 1.0) * v;
   return {(nx * w + 1.0) / 2.0, v};
}

/* Texture coordinates at a window position, in texels of level 0. */
std::array<double, 2> texels_at(double x, double y)
{
   const auto [u, v] = plane_at(x, y);
   return {u * repeats_u * texture_size, v * repeats_v * texture_size};
}

/* ------------------------------------------------------------ the specification's model */

/* Level `level`'s bilinear value at (s, t) in its own texels, REPEAT addressing. */
std::array<double, 4> bilinear(const std::vector<Level> &texture, unsigned level, double s, double t)
{
   const int n = int(texture_size >> level);
   const double fs = s - 0.5, ft = t - 0.5;
   const double i0 = std::floor(fs), j0 = std::floor(ft);
   const double ws = fs - i0, wt = ft - j0;
   std::array<double, 4> sum{};
   for (int dj = 0; dj < 2; dj++)
      for (int di = 0; di < 2; di++) {
         const int i = ((int(i0) + di) % n + n) % n, j = ((int(j0) + dj) % n + n) % n;
         const double w = (di ? ws : 1 - ws) * (dj ? wt : 1 - wt);
         for (unsigned c = 0; c < 4; c++)
            sum[c] += w * texture[level][(size_t(j) * n + i) * 4 + c] / 255.0;
      }
   return sum;
}

/* What the model gives at pixel (px, py), or false when the pixel lies too close to one of
 * the model's discontinuities for the simulator's float arithmetic to be sure of its side: a
 * probe count ceil(ρmax / ρmin) within 0.2% of an integer, or a nearest-mip level of detail
 * within 0.002 of a half. The quad's differences are top-right and bottom-left minus top-left
 * pixel centres, as the simulator takes them (docs/sim-semantics.md "Pixel quads"). */
bool model_pixel(const std::vector<Level> &texture, const SamplerChoice &sampler, unsigned px, unsigned py,
                 std::array<uint8_t, 4> &out)
{
   const unsigned qx = px & ~1u, qy = py & ~1u;
   const auto origin = texels_at(qx + 0.5, qy + 0.5);
   const auto right = texels_at(qx + 1.5, qy + 0.5), below = texels_at(qx + 0.5, qy + 1.5);
   const std::array<double, 2> d[2] = {{right[0] - origin[0], right[1] - origin[1]},
                                       {below[0] - origin[0], below[1] - origin[1]}};
   const double rho_x = std::hypot(d[0][0], d[0][1]), rho_y = std::hypot(d[1][0], d[1][1]);
   const double rho_max = std::max(rho_x, rho_y), rho_min = std::min(rho_x, rho_y);
   const unsigned major = rho_x > rho_y ? 0 : 1;
   const unsigned max_probes = sampler.anisotropy ? 1u << unsigned(std::log2(sampler.max_anisotropy)) : 1u;
   const double ratio = rho_max / rho_min;
   if (max_probes > 1 && ratio < max_probes + 0.01 && std::abs(ratio - std::round(ratio)) < 0.002 * ratio)
      return false;
   const unsigned probes = unsigned(std::min(std::ceil(ratio), double(max_probes)));
   const double lod = std::log2(rho_max / probes);
   const double dlod = std::clamp(lod, 0.0, double(levels - 1));
   unsigned level0, level1;
   double weight = 0;
   if (sampler.mip == VK_SAMPLER_MIPMAP_MODE_NEAREST) {
      if (std::abs(dlod - std::floor(dlod) - 0.5) < 0.002)
         return false;
      level0 = level1 = unsigned(std::ceil(dlod + 0.5) - 1);
   } else {
      level0 = unsigned(std::floor(dlod));
      level1 = std::min(level0 + 1, levels - 1);
      weight = dlod - level0;
   }
   const auto at = texels_at(px + 0.5, py + 0.5);
   std::array<double, 4> sum{};
   for (unsigned i = 0; i < probes; i++) {
      const double offset = double(i + 1) / (probes + 1) - 0.5;
      const double s = at[0] + offset * d[major][0], t = at[1] + offset * d[major][1];
      const auto a = bilinear(texture, level0, s / (1 << level0), t / (1 << level0));
      const auto b = bilinear(texture, level1, s / (1 << level1), t / (1 << level1));
      for (unsigned c = 0; c < 4; c++)
         sum[c] += (a[c] * (1 - weight) + b[c] * weight) / probes;
   }
   for (unsigned c = 0; c < 4; c++)
      out[c] = uint8_t(std::lround(std::clamp(sum[c], 0.0, 1.0) * 255.0));
   return true;
}

/* ------------------------------------------------------------ drawing */

struct Vertex {
   float position[4];
   float uv[2];
};

/* The validation layer's count, a base constructed before the Session and destroyed after
 * it: the instance reports into it until vkDestroyInstance returns. */
struct MessageCount {
   unsigned messages = 0;
};

class PlaneRenderer : private MessageCount, public Session {
public:
   explicit PlaneRenderer(const char *name)
   {
      SessionOptions options;
      options.application = "terakan-api-anisotropy";
      options.features.samplerAnisotropy = VK_TRUE;
      if (!open(name, messages, error_, options))
         return;
      ready_ = make_objects();
   }
   ~PlaneRenderer() override { release(); }

   bool ready() const { return ready_; }
   const std::string &error() const { return error_; }
   unsigned validation_messages() const { return messages; }

   /* The picture of the plane, rows top to bottom, RGBA8; empty with error() set on failure. */
   std::vector<uint8_t> draw(Pattern pattern, const SamplerChoice &choice);

private:
   bool make_objects();
   bool make_texture(Pattern pattern);

   bool ready_ = false;
   std::string error_;
   VkImageView texture_views[2] = {};
   VkImage target_image = VK_NULL_HANDLE;
   VkImageView target_view = VK_NULL_HANDLE;
   VkRenderPass pass = VK_NULL_HANDLE;
   VkFramebuffer framebuffer = VK_NULL_HANDLE;
   VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
   VkPipelineLayout pipeline_layout = VK_NULL_HANDLE;
   VkPipeline pipeline = VK_NULL_HANDLE;
   VkDescriptorPool descriptor_pool = VK_NULL_HANDLE;
   VkBuffer vertices = VK_NULL_HANDLE, readback = VK_NULL_HANDLE;
   void *readback_map = nullptr;
};

bool PlaneRenderer::make_texture(Pattern pattern)
{
   const std::vector<Level> texture = make_levels(pattern);
   VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
   info.imageType = VK_IMAGE_TYPE_2D;
   info.format = VK_FORMAT_R8G8B8A8_UNORM;
   info.extent = {texture_size, texture_size, 1};
   info.mipLevels = levels;
   info.arrayLayers = 1;
   info.samples = VK_SAMPLE_COUNT_1_BIT;
   info.tiling = VK_IMAGE_TILING_OPTIMAL;
   info.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
   const VkImage texture_image = image(info);
   size_t bytes = 0;
   for (const Level &l : texture)
      bytes += l.size();
   void *map = nullptr;
   const VkBuffer staging = buffer(bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, map);
   if (!texture_image || !staging)
      return false;
   std::vector<VkBufferImageCopy> regions;
   size_t offset = 0;
   for (uint32_t level = 0; level < levels; level++) {
      std::memcpy(static_cast<uint8_t *>(map) + offset, texture[level].data(), texture[level].size());
      VkBufferImageCopy region{};
      region.bufferOffset = offset;
      region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, level, 0, 1};
      region.imageExtent = {texture_size >> level, texture_size >> level, 1};
      regions.push_back(region);
      offset += texture[level].size();
   }
   const VkCommandBuffer commands = begin();
   VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
   barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
   barrier.image = texture_image;
   barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, levels, 0, 1};
   barrier.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
   barrier.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
   barrier.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
   vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                        nullptr, 1, &barrier);
   vkCmdCopyBufferToImage(commands, staging, texture_image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                          uint32_t(regions.size()), regions.data());
   barrier.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
   barrier.newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
   barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
   barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
   vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, 0, 0, nullptr,
                        0, nullptr, 1, &barrier);
   if (submit_and_wait(commands) != VK_SUCCESS)
      return false;
   texture_views[unsigned(pattern)] = view(texture_image, VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM,
                                           {VK_IMAGE_ASPECT_COLOR_BIT, 0, levels, 0, 1});
   return texture_views[unsigned(pattern)] != VK_NULL_HANDLE;
}

bool PlaneRenderer::make_objects()
{
   if (!make_texture(Pattern::LevelColours) || !make_texture(Pattern::Stripes)) {
      error_ = "the textures could not be made";
      return false;
   }
   VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
   info.imageType = VK_IMAGE_TYPE_2D;
   info.format = VK_FORMAT_R8G8B8A8_UNORM;
   info.extent = {target, target, 1};
   info.mipLevels = info.arrayLayers = 1;
   info.samples = VK_SAMPLE_COUNT_1_BIT;
   info.tiling = VK_IMAGE_TILING_OPTIMAL;
   info.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
   target_image = image(info);
   if (!target_image)
      return false;
   target_view = view(target_image, VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM,
                      {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1});

   const bool made = terakan::test::create_colour_pass(device, VK_FORMAT_R8G8B8A8_UNORM, target_view, target, target, pass, framebuffer);
   later([this] {
      vkDestroyFramebuffer(device, framebuffer, nullptr);
      vkDestroyRenderPass(device, pass, nullptr);
   });
   if (!made)
      return false;

   const VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1,
                                              VK_SHADER_STAGE_FRAGMENT_BIT, nullptr};
   VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
   set_info.bindingCount = 1;
   set_info.pBindings = &binding;
   if (vkCreateDescriptorSetLayout(device, &set_info, nullptr, &set_layout) != VK_SUCCESS)
      return false;
   later([this] { vkDestroyDescriptorSetLayout(device, set_layout, nullptr); });
   VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
   layout_info.setLayoutCount = 1;
   layout_info.pSetLayouts = &set_layout;
   if (vkCreatePipelineLayout(device, &layout_info, nullptr, &pipeline_layout) != VK_SUCCESS)
      return false;
   later([this] { vkDestroyPipelineLayout(device, pipeline_layout, nullptr); });
   const VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 32};
   VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
   pool_info.maxSets = 32;
   pool_info.poolSizeCount = 1;
   pool_info.pPoolSizes = &pool_size;
   if (vkCreateDescriptorPool(device, &pool_info, nullptr, &descriptor_pool) != VK_SUCCESS)
      return false;
   later([this] { vkDestroyDescriptorPool(device, descriptor_pool, nullptr); });

   const VkShaderModule vertex_module = module("anisotropic_plane.vert");
   const VkShaderModule fragment_module = module("anisotropic_plane.frag");
   if (!vertex_module || !fragment_module) {
      error_ = "the anisotropic_plane shaders could not be read";
      return false;
   }
   const VkVertexInputBindingDescription vertex_binding{0, sizeof(Vertex), VK_VERTEX_INPUT_RATE_VERTEX};
   const VkVertexInputAttributeDescription attributes[2] = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0},
                                                            {1, 0, VK_FORMAT_R32G32_SFLOAT, 16}};
   VkPipelineVertexInputStateCreateInfo vertex_input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
   vertex_input.vertexBindingDescriptionCount = 1;
   vertex_input.pVertexBindingDescriptions = &vertex_binding;
   vertex_input.vertexAttributeDescriptionCount = 2;
   vertex_input.pVertexAttributeDescriptions = attributes;
   terakan::test::BasicPipeline basic;
   basic.vertex = vertex_module;
   basic.fragment = fragment_module;
   basic.vertex_input = &vertex_input;
   basic.viewport_extent = {target, target};
   basic.layout = pipeline_layout;
   basic.pass = pass;
   if (terakan::test::create_basic_pipeline(device, basic, pipeline) != VK_SUCCESS) {
      error_ = "the pipeline was refused";
      return false;
   }
   later([this] { vkDestroyPipeline(device, pipeline, nullptr); });

   /* Two triangles over the plane's corners. */
   const float corners[6][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 0}, {1, 1}, {0, 1}};
   void *vertex_map = nullptr;
   vertices = buffer(sizeof(Vertex) * 6, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, vertex_map);
   readback = buffer(size_t(target) * target * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, readback_map);
   if (!vertices || !readback)
      return false;
   for (unsigned i = 0; i < 6; i++) {
      Vertex vertex;
      const auto p = clip_position(corners[i][0], corners[i][1]);
      std::memcpy(vertex.position, p.data(), sizeof(vertex.position));
      vertex.uv[0] = corners[i][0] * repeats_u;
      vertex.uv[1] = corners[i][1] * repeats_v;
      std::memcpy(static_cast<Vertex *>(vertex_map) + i, &vertex, sizeof(vertex));
   }
   return true;
}

std::vector<uint8_t> PlaneRenderer::draw(Pattern pattern, const SamplerChoice &choice)
{
   VkSamplerCreateInfo sampler_info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
   sampler_info.magFilter = sampler_info.minFilter = VK_FILTER_LINEAR;
   sampler_info.mipmapMode = choice.mip;
   sampler_info.addressModeU = sampler_info.addressModeV = sampler_info.addressModeW =
      VK_SAMPLER_ADDRESS_MODE_REPEAT;
   sampler_info.anisotropyEnable = choice.anisotropy;
   sampler_info.maxAnisotropy = choice.max_anisotropy;
   sampler_info.maxLod = VK_LOD_CLAMP_NONE;
   VkSampler sampler = VK_NULL_HANDLE;
   if (vkCreateSampler(device, &sampler_info, nullptr, &sampler) != VK_SUCCESS) {
      error_ = "vkCreateSampler failed for " + name_of(pattern, choice);
      return {};
   }
   later([this, sampler] { vkDestroySampler(device, sampler, nullptr); });
   VkDescriptorSetAllocateInfo allocate{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
   allocate.descriptorPool = descriptor_pool;
   allocate.descriptorSetCount = 1;
   allocate.pSetLayouts = &set_layout;
   VkDescriptorSet set = VK_NULL_HANDLE;
   if (vkAllocateDescriptorSets(device, &allocate, &set) != VK_SUCCESS) {
      error_ = "no descriptor set";
      return {};
   }
   const VkDescriptorImageInfo image_info{sampler, texture_views[unsigned(pattern)],
                                          VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
   VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
   write.dstSet = set;
   write.descriptorCount = 1;
   write.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
   write.pImageInfo = &image_info;
   vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);

   const VkCommandBuffer commands = begin();
   VkClearValue clear{};
   clear.color = {{0.0f, 0.0f, 0.0f, 1.0f}};
   VkRenderPassBeginInfo pass_begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
   pass_begin.renderPass = pass;
   pass_begin.framebuffer = framebuffer;
   pass_begin.renderArea = {{0, 0}, {target, target}};
   pass_begin.clearValueCount = 1;
   pass_begin.pClearValues = &clear;
   vkCmdBeginRenderPass(commands, &pass_begin, VK_SUBPASS_CONTENTS_INLINE);
   vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
   vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_layout, 0, 1, &set, 0, nullptr);
   const VkDeviceSize offset = 0;
   vkCmdBindVertexBuffers(commands, 0, 1, &vertices, &offset);
   vkCmdDraw(commands, 6, 1, 0, 0);
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
      error_ = "the draw's submission failed for " + name_of(pattern, choice);
      return {};
   }
   const uint8_t *bytes = static_cast<const uint8_t *>(readback_map);
   return std::vector<uint8_t>(bytes, bytes + size_t(target) * target * 4);
}

/* ------------------------------------------------------------ the tests */

PlaneRenderer &terakan_gpu()
{
   static PlaneRenderer renderer("Terakan");
   return renderer;
}

PlaneRenderer &lavapipe()
{
   static PlaneRenderer renderer("llvmpipe");
   return renderer;
}

/* Every picture drawn, once per device and scene. */
const std::vector<uint8_t> &picture(PlaneRenderer &renderer, Pattern pattern, const SamplerChoice &choice)
{
   static std::map<std::pair<PlaneRenderer *, std::string>, std::vector<uint8_t>> drawn;
   const std::string name = name_of(pattern, choice);
   auto it = drawn.find({&renderer, name});
   if (it != drawn.end())
      return it->second;
   std::vector<uint8_t> pixels = renderer.draw(pattern, choice);
   if (pixels.empty()) {
      ADD_FAILURE() << renderer.error();
      pixels.assign(size_t(target) * target * 4, 0);
   }
   if (const char *folder = std::getenv("TERAKAN_DRAW_PICTURES")) {
      terakan::gl_scenes::RgbaPicture png;
      png.width = png.height = int(target);
      png.pixels = pixels;
      const std::string who = &renderer == &terakan_gpu() ? "terakan" : "lavapipe";
      try {
         terakan::gl_scenes::write_png(std::string(folder) + "/anisotropy-" + name + "-" + who + ".png", png);
      } catch (...) {
         ADD_FAILURE() << "the picture " << name << " could not be written";
      }
   }
   return drawn.emplace(std::pair{&renderer, name}, std::move(pixels)).first->second;
}

class Anisotropy : public ::testing::Test {
protected:
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

/* Counts the pixels that differ by more than `tolerance` in a channel, reporting a few. */
unsigned count_differences(const std::vector<uint8_t> &a, const std::vector<uint8_t> &b, unsigned tolerance,
                           const std::string &what)
{
   unsigned different = 0;
   for (size_t p = 0; p < size_t(target) * target; p++)
      for (unsigned c = 0; c < 4; c++)
         if (std::abs(int(a[4 * p + c]) - int(b[4 * p + c])) > int(tolerance)) {
            if (different++ < 4)
               ADD_FAILURE() << what << ": pixel " << p % target << "," << p / target << " channel " << c << ": "
                             << unsigned(a[4 * p + c]) << " against " << unsigned(b[4 * p + c]);
            break;
         }
   return different;
}

TEST_F(Anisotropy, OffAndOneTimesEqualLavapipe)
{
   const SamplerChoice off;
   SamplerChoice one;
   one.anisotropy = true;
   one.max_anisotropy = 1.0f;
   const auto &ours_off = picture(terakan_gpu(), Pattern::LevelColours, off);
   const auto &ours_one = picture(terakan_gpu(), Pattern::LevelColours, one);
   EXPECT_EQ(count_differences(ours_off, picture(lavapipe(), Pattern::LevelColours, off), 0, "off"), 0u);
   EXPECT_EQ(count_differences(ours_one, picture(lavapipe(), Pattern::LevelColours, one), 0, "1x"), 0u);
   EXPECT_EQ(count_differences(ours_one, ours_off, 0, "1x against off"), 0u);
   /* The scene reaches levels 2 to 6 (footprints of 4 to 64 texels). */
   std::array<unsigned, levels> seen{};
   for (size_t p = 0; p < size_t(target) * target; p++)
      for (unsigned level = 0; level < levels; level++)
         if (std::memcmp(&ours_off[4 * p], level_colour(level).data(), 4) == 0)
            seen[level]++;
   for (unsigned level = 2; level <= 6; level++)
      EXPECT_GT(seen[level], 20u) << "level " << level;
}

/* Terakan's picture against the model, pixel by pixel: the plane's inside (by the mapping,
 * away from its edges) within 2 in every channel, the outside the clear colour, pixels on
 * discontinuities of the model and the edges' pixels left out (and counted). */
void expect_the_model(Pattern pattern, const SamplerChoice &choice)
{
   SCOPED_TRACE(name_of(pattern, choice));
   const auto &ours = picture(terakan_gpu(), pattern, choice);
   const std::vector<Level> texture = make_levels(pattern);
   unsigned compared = 0, left_out = 0, different = 0, worst = 0;
   for (unsigned y = 0; y < target; y++)
      for (unsigned x = 0; x < target; x++) {
         const uint8_t *got = &ours[(size_t(y) * target + x) * 4];
         const auto [u, v] = plane_at(x + 0.5, y + 0.5);
         const double margin = 0.01;
         const bool inside = u > margin && u < 1 - margin && v > margin && v < 1 - margin;
         const bool outside = u < -margin || u > 1 + margin || v < -margin || v > 1 + margin;
         std::array<uint8_t, 4> expected{0, 0, 0, 255};
         if (!inside && !outside) {
            left_out++;
            continue;
         }
         if (inside && !model_pixel(texture, choice, x, y, expected)) {
            left_out++;
            continue;
         }
         compared++;
         unsigned difference = 0;
         for (unsigned c = 0; c < 4; c++)
            difference = std::max(difference, unsigned(std::abs(int(got[c]) - int(expected[c]))));
         worst = std::max(worst, difference);
         if (difference > 2 && different++ < 4)
            ADD_FAILURE() << "pixel " << x << "," << y << ": " << unsigned(got[0]) << " " << unsigned(got[1]) << " "
                          << unsigned(got[2]) << ", the model " << unsigned(expected[0]) << " "
                          << unsigned(expected[1]) << " " << unsigned(expected[2]);
      }
   EXPECT_EQ(different, 0u) << "pixels more than 2 from the model (largest difference " << worst << ")";
   EXPECT_LT(left_out, target * target / 10) << "too many pixels left out";
   std::printf("%s: %u pixels compared with the model, largest difference %u, %u left out\n",
               name_of(pattern, choice).c_str(), compared, worst, left_out);
}

TEST_F(Anisotropy, SixteenAndFourTimesFollowTheSpecificationsModel)
{
   SamplerChoice choice;
   choice.anisotropy = true;
   for (float max : {16.0f, 4.0f}) {
      choice.max_anisotropy = max;
      choice.mip = VK_SAMPLER_MIPMAP_MODE_NEAREST;
      expect_the_model(Pattern::LevelColours, choice);
      choice.mip = VK_SAMPLER_MIPMAP_MODE_LINEAR;
      expect_the_model(Pattern::Stripes, choice);
   }
   /* The isotropic picture follows the same model with one probe. */
   expect_the_model(Pattern::Stripes, SamplerChoice{VK_SAMPLER_MIPMAP_MODE_LINEAR, false, 1.0f});
   /* A maximum between the hardware's ratios uses the one below it: 6 draws as 4. */
   SamplerChoice six{VK_SAMPLER_MIPMAP_MODE_NEAREST, true, 6.0f}, four{VK_SAMPLER_MIPMAP_MODE_NEAREST, true, 4.0f};
   EXPECT_EQ(count_differences(picture(terakan_gpu(), Pattern::LevelColours, six),
                               picture(terakan_gpu(), Pattern::LevelColours, four), 0, "6x against 4x"),
             0u);
}

/* The stripes' contrast across the rows of the plane's far half: the mean difference of
 * horizontally adjacent pixels' green, over pixels well inside the plane. */
double stripe_contrast(const std::vector<uint8_t> &pixels)
{
   double sum = 0;
   unsigned count = 0;
   for (unsigned y = 8; y < target / 2; y++)
      for (unsigned x = 0; x + 1 < target; x++) {
         const auto [u0, v0] = plane_at(x + 0.5, y + 0.5);
         const auto [u1, v1] = plane_at(x + 1.5, y + 0.5);
         if (u0 < 0.02 || u1 > 0.98)
            continue;
         sum += std::abs(int(pixels[(size_t(y) * target + x) * 4 + 1]) - int(pixels[(size_t(y) * target + x + 1) * 4 + 1]));
         count++;
      }
   return count ? sum / count : 0;
}

TEST_F(Anisotropy, SixteenTimesKeepsTheStripesThatTrilinearBlurs)
{
   const SamplerChoice trilinear{VK_SAMPLER_MIPMAP_MODE_LINEAR, false, 1.0f};
   const SamplerChoice sixteen{VK_SAMPLER_MIPMAP_MODE_LINEAR, true, 16.0f};
   for (PlaneRenderer *renderer : {&terakan_gpu(), &lavapipe()}) {
      const char *who = renderer == &terakan_gpu() ? "Terakan" : "lavapipe";
      const double blurred = stripe_contrast(picture(*renderer, Pattern::Stripes, trilinear));
      const double kept = stripe_contrast(picture(*renderer, Pattern::Stripes, sixteen));
      std::printf("%s: stripe contrast %.2f trilinear, %.2f at 16x\n", who, blurred, kept);
      EXPECT_GT(kept, 2.0 * blurred) << who;
   }
}

TEST_F(Anisotropy, TheFeatureAndTheLimitAreOffered)
{
   VkPhysicalDeviceFeatures features{};
   vkGetPhysicalDeviceFeatures(terakan_gpu().physical, &features);
   EXPECT_TRUE(features.samplerAnisotropy);
   VkPhysicalDeviceProperties properties{};
   vkGetPhysicalDeviceProperties(terakan_gpu().physical, &properties);
   EXPECT_EQ(properties.limits.maxSamplerAnisotropy, 16.0f);
}

TEST(AnisotropyBadInput, MaxAnisotropyBeyondTheLimitIsRefused)
{
   /* Without the validation layer, which would report the invalid value itself: the driver
    * answers with an error and a message instead of programming a ratio it cannot honour. */
   Session session;
   unsigned messages = 0;
   std::string error;
   SessionOptions options;
   options.validation = false;
   options.features.samplerAnisotropy = VK_TRUE;
   ASSERT_TRUE(session.open("Terakan", messages, error, options)) << error;
   VkSamplerCreateInfo info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
   info.magFilter = info.minFilter = VK_FILTER_LINEAR;
   info.anisotropyEnable = VK_TRUE;
   for (float bad : {32.0f, 0.5f, std::nanf("")}) {
      info.maxAnisotropy = bad;
      VkSampler sampler = VK_NULL_HANDLE;
      EXPECT_EQ(vkCreateSampler(session.device, &info, nullptr, &sampler), VK_ERROR_FEATURE_NOT_PRESENT) << bad;
      EXPECT_EQ(sampler, VK_NULL_HANDLE);
   }
   /* Ignored when anisotropy is off. */
   info.anisotropyEnable = VK_FALSE;
   info.maxAnisotropy = 32.0f;
   VkSampler sampler = VK_NULL_HANDLE;
   EXPECT_EQ(vkCreateSampler(session.device, &info, nullptr, &sampler), VK_SUCCESS);
   vkDestroySampler(session.device, sampler, nullptr);
}

} // namespace
