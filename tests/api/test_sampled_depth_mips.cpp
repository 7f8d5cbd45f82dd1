/* Sampled depth mip chains through the driver on the simulated GPU (TERAKAN_SIM_CHIP picks the
 * chip) and on lavapipe, with the Khronos validation layer counting messages.
 *
 * A 37x23 depth image with two layers and all six levels is written by every kind of command
 * that can write a depth plane: a buffer-to-image copy of a hashed pattern into every level
 * and layer, a render pass whose CLEAR load op covers part of level 1 (layer 0), a render pass
 * with vkCmdClearAttachments over part of level 2 (layer 1), and vkCmdClearDepthStencilImage
 * of level 3 and of layer 0 of level 4. A compute shader (sampled_depth_mips.comp) then reads
 * every texel of every level and layer through a view of the whole image, by texelFetch and by
 * textureLod at the texel's centre. Both must give what was written, on the CPU's model and
 * against lavapipe.
 *
 * D24S8 and D32FS8 are the point: their depth levels take the stencil plane's pitch, which the
 * texture unit cannot follow, so Terakan samples levels 1.. from a copy it keeps up to date
 * (src/terakan/terakan_depth_sampling_copy.cpp). Odd sizes make those pitches differ (level 1
 * is 18 texels wide: the texture unit expects a pitch of 24, the stencil plane needs 32).
 * X8D24 and D32F, which need no copy, run the same scene. */
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "../vulkan_helpers.h"
#include "session.h"

namespace {

using namespace terakan::test;

constexpr uint32_t image_width = 37, image_height = 23, layer_count = 2, level_count = 6;

uint32_t level_width(uint32_t level) { return std::max(image_width >> level, 1u); }
uint32_t level_height(uint32_t level) { return std::max(image_height >> level, 1u); }

/* Where a level's texels start among all levels' texels (both layers each). */
uint32_t first_texel(uint32_t level)
{
   uint32_t first = 0;
   for (uint32_t l = 0; l < level; l++)
      first += level_width(l) * level_height(l) * layer_count;
   return first;
}

bool is_unorm24(VkFormat format)
{
   return format == VK_FORMAT_D24_UNORM_S8_UINT || format == VK_FORMAT_X8_D24_UNORM_PACK32;
}

bool has_stencil(VkFormat format)
{
   return format == VK_FORMAT_D24_UNORM_S8_UINT || format == VK_FORMAT_D32_SFLOAT_S8_UINT;
}

/* The copied pattern: 24 hashed bits per texel. Float formats store them as a binary fraction
 * of 16 bits, which a float holds exactly. */
uint32_t pattern(uint32_t level, uint32_t layer, uint32_t x, uint32_t y)
{
   return ((level * 7919u + layer * 104729u + y * 613u + x * 37u + 1u) * 2654435761u) >> 8;
}

float pattern_depth(VkFormat format, uint32_t bits)
{
   return is_unorm24(format) ? float(double(bits) / 16777215.0) : float(bits & 0xffff) / 65536.0f;
}

/* The commands' regions (render areas and clear rectangles) and values. */
constexpr VkRect2D load_op_area{{2, 1}, {10, 6}};    /* level 1, layer 0 */
constexpr VkRect2D clear_rect_area{{1, 1}, {5, 3}};  /* level 2, layer 1 */
constexpr float load_op_depth = 0.25f, clear_rect_depth = 0.625f, level3_depth = 0.125f, level4_depth = 0.875f;

bool inside(const VkRect2D &r, uint32_t x, uint32_t y)
{
   return x >= uint32_t(r.offset.x) && x < r.offset.x + r.extent.width && y >= uint32_t(r.offset.y) &&
          y < r.offset.y + r.extent.height;
}

/* What texel (x, y) of `layer` of `level` holds after the scene. */
float expected_depth(VkFormat format, uint32_t level, uint32_t layer, uint32_t x, uint32_t y)
{
   if (level == 3)
      return level3_depth;
   if (level == 4 && layer == 0)
      return level4_depth;
   if (level == 2 && layer == 1 && inside(clear_rect_area, x, y))
      return clear_rect_depth;
   if (level == 1 && layer == 0 && inside(load_op_area, x, y))
      return load_op_depth;
   return pattern_depth(format, pattern(level, layer, x, y));
}

/* Runs the scene on the device named `name`: two floats per texel (texelFetch, textureLod),
 * levels one after another, each level's layers one after another; empty with `error` set on
 * failure. */
std::vector<float> run(const char *name, VkFormat format, unsigned &messages, std::string &error)
{
   std::vector<float> values;
   SessionOptions options;
   options.application = "terakan-api-sampled-depth-mips";
   Session session;
   if (!session.open(name, messages, error, options))
      return values;
   VkDevice device = session.device;

   const uint32_t texel_count = first_texel(level_count);
   const VkImageAspectFlags attachment_aspects =
      VK_IMAGE_ASPECT_DEPTH_BIT | (has_stencil(format) ? VK_IMAGE_ASPECT_STENCIL_BIT : 0);
   VkImage image = VK_NULL_HANDLE;
   VkImageView sampling_view = VK_NULL_HANDLE, attachment_views[2] = {};
   void *upload_map = nullptr, *readback_map = nullptr;
   VkRenderPass passes[2] = {};
   VkFramebuffer framebuffers[2] = {};
   VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
   VkPipelineLayout pipeline_layout = VK_NULL_HANDLE;
   auto destroy_later = [&](auto destroy, auto object) { session.later([=] { destroy(device, object, nullptr); }); };
   do {
      VkImageCreateInfo image_info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
      image_info.imageType = VK_IMAGE_TYPE_2D;
      image_info.format = format;
      image_info.extent = {image_width, image_height, 1};
      image_info.mipLevels = level_count;
      image_info.arrayLayers = layer_count;
      image_info.samples = VK_SAMPLE_COUNT_1_BIT;
      image_info.tiling = VK_IMAGE_TILING_OPTIMAL;
      image_info.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT |
                         VK_IMAGE_USAGE_TRANSFER_DST_BIT;
      image = session.image(image_info);
      if (!image) {
         error = "image creation failed";
         break;
      }
      sampling_view = session.view(image, VK_IMAGE_VIEW_TYPE_2D_ARRAY, format,
                                   {VK_IMAGE_ASPECT_DEPTH_BIT, 0, level_count, 0, layer_count});
      if (!sampling_view) {
         error = "view creation failed";
         break;
      }
      /* The renderings' attachments: level 1 layer 0, level 2 layer 1. */
      for (uint32_t i = 0; i < 2; i++) {
         attachment_views[i] = session.view(image, VK_IMAGE_VIEW_TYPE_2D, format, {attachment_aspects, 1 + i, 1, i, 1});
         if (!attachment_views[i])
            error = "attachment view creation failed";
      }
      if (!error.empty())
         break;
      const VkBuffer upload = session.buffer(texel_count * 4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, upload_map);
      const VkBuffer readback = session.buffer(texel_count * 8, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, readback_map);
      if (!upload || !readback) {
         error = "buffer creation failed";
         break;
      }
      /* The depth aspect's buffer layout: D24 in the low 24 bits of a dword, 32-bit floats. */
      auto *words = static_cast<uint32_t *>(upload_map);
      for (uint32_t level = 0; level < level_count; level++)
         for (uint32_t l = 0; l < layer_count; l++)
            for (uint32_t y = 0; y < level_height(level); y++)
               for (uint32_t x = 0; x < level_width(level); x++) {
                  const uint32_t bits = pattern(level, l, x, y);
                  const float depth = pattern_depth(format, bits);
                  uint32_t &word =
                     words[first_texel(level) + (l * level_height(level) + y) * level_width(level) + x];
                  if (is_unorm24(format))
                     word = bits;
                  else
                     std::memcpy(&word, &depth, 4);
               }
      std::memset(readback_map, 0xff, texel_count * 8);

      /* Render pass 0 clears its render area by its load op, 1 loads and clears a rectangle by
       * vkCmdClearAttachments. Both keep the attachment layout; barriers move it around them. */
      for (uint32_t p = 0; p < 2; p++) {
         VkAttachmentDescription attachment{};
         attachment.format = format;
         attachment.samples = VK_SAMPLE_COUNT_1_BIT;
         attachment.loadOp = p == 0 ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_LOAD;
         attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
         attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
         attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_STORE;
         attachment.initialLayout = attachment.finalLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
         const VkAttachmentReference reference{0, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
         VkSubpassDescription subpass{};
         subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
         subpass.pDepthStencilAttachment = &reference;
         VkRenderPassCreateInfo pass_info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
         pass_info.attachmentCount = 1;
         pass_info.pAttachments = &attachment;
         pass_info.subpassCount = 1;
         pass_info.pSubpasses = &subpass;
         if (vkCreateRenderPass(device, &pass_info, nullptr, &passes[p]) != VK_SUCCESS) {
            error = "render pass creation failed";
            break;
         }
         destroy_later(vkDestroyRenderPass, passes[p]);
         VkFramebufferCreateInfo fb_info{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
         fb_info.renderPass = passes[p];
         fb_info.attachmentCount = 1;
         fb_info.pAttachments = &attachment_views[p];
         fb_info.width = level_width(1 + p);
         fb_info.height = level_height(1 + p);
         fb_info.layers = 1;
         if (vkCreateFramebuffer(device, &fb_info, nullptr, &framebuffers[p]) != VK_SUCCESS)
            error = "framebuffer creation failed";
         else
            destroy_later(vkDestroyFramebuffer, framebuffers[p]);
      }
      if (!error.empty())
         break;

      VkSamplerCreateInfo sampler_info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
      sampler_info.magFilter = sampler_info.minFilter = VK_FILTER_NEAREST;
      sampler_info.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
      sampler_info.addressModeU = sampler_info.addressModeV = sampler_info.addressModeW =
         VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
      sampler_info.maxLod = float(level_count);
      const VkDescriptorSetLayoutBinding bindings[2] = {
         {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
         {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
      VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
      set_info.bindingCount = 2;
      set_info.pBindings = bindings;
      const VkPushConstantRange push_range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 16};
      VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
      layout_info.setLayoutCount = 1;
      layout_info.pSetLayouts = &set_layout;
      layout_info.pushConstantRangeCount = 1;
      layout_info.pPushConstantRanges = &push_range;
      VkSampler sampler = VK_NULL_HANDLE;
      if (vkCreateSampler(device, &sampler_info, nullptr, &sampler) != VK_SUCCESS) {
         error = "sampler creation failed";
         break;
      }
      destroy_later(vkDestroySampler, sampler);
      if (vkCreateDescriptorSetLayout(device, &set_info, nullptr, &set_layout) != VK_SUCCESS) {
         error = "descriptor set layout creation failed";
         break;
      }
      destroy_later(vkDestroyDescriptorSetLayout, set_layout);
      if (vkCreatePipelineLayout(device, &layout_info, nullptr, &pipeline_layout) != VK_SUCCESS) {
         error = "pipeline layout creation failed";
         break;
      }
      destroy_later(vkDestroyPipelineLayout, pipeline_layout);
      const VkShaderModule module = session.module("sampled_depth_mips.comp");
      if (!module) {
         error = "shader creation failed";
         break;
      }
      VkComputePipelineCreateInfo pipeline_info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
      pipeline_info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
      pipeline_info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
      pipeline_info.stage.module = module;
      pipeline_info.stage.pName = "main";
      pipeline_info.layout = pipeline_layout;
      VkPipeline pipeline = VK_NULL_HANDLE;
      if (vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &pipeline_info, nullptr, &pipeline) != VK_SUCCESS) {
         error = "compute pipeline creation failed";
         break;
      }
      destroy_later(vkDestroyPipeline, pipeline);
      const VkDescriptorPoolSize pool_sizes[2] = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1},
                                                  {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}};
      VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
      pool_info.maxSets = 1;
      pool_info.poolSizeCount = 2;
      pool_info.pPoolSizes = pool_sizes;
      VkDescriptorSet set = VK_NULL_HANDLE;
      VkDescriptorSetAllocateInfo allocate{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
      allocate.descriptorSetCount = 1;
      allocate.pSetLayouts = &set_layout;
      VkDescriptorPool pool = VK_NULL_HANDLE;
      if (vkCreateDescriptorPool(device, &pool_info, nullptr, &pool) != VK_SUCCESS) {
         error = "descriptor pool creation failed";
         break;
      }
      destroy_later(vkDestroyDescriptorPool, pool);
      allocate.descriptorPool = pool;
      if (vkAllocateDescriptorSets(device, &allocate, &set) != VK_SUCCESS) {
         error = "descriptor set creation failed";
         break;
      }
      const VkDescriptorImageInfo image_descriptor{sampler, sampling_view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
      const VkDescriptorBufferInfo buffer_descriptor{readback, 0, VK_WHOLE_SIZE};
      VkWriteDescriptorSet writes[2] = {{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}, {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}};
      writes[0].dstSet = writes[1].dstSet = set;
      writes[0].dstBinding = 0;
      writes[0].descriptorCount = 1;
      writes[0].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
      writes[0].pImageInfo = &image_descriptor;
      writes[1].dstBinding = 1;
      writes[1].descriptorCount = 1;
      writes[1].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      writes[1].pBufferInfo = &buffer_descriptor;
      vkUpdateDescriptorSets(device, 2, writes, 0, nullptr);

      VkCommandBuffer commands = session.begin();

      auto barrier = [&](VkImageLayout from, VkImageLayout to, VkAccessFlags src_access, VkAccessFlags dst_access,
                         VkPipelineStageFlags src_stage, VkPipelineStageFlags dst_stage,
                         const std::vector<VkImageSubresourceRange> &ranges) {
         std::vector<VkImageMemoryBarrier> barriers;
         for (const VkImageSubresourceRange &range : ranges) {
            VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
            b.srcAccessMask = src_access;
            b.dstAccessMask = dst_access;
            b.oldLayout = from;
            b.newLayout = to;
            b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
            b.image = image;
            b.subresourceRange = range;
            barriers.push_back(b);
         }
         vkCmdPipelineBarrier(commands, src_stage, dst_stage, 0, 0, nullptr, 0, nullptr, uint32_t(barriers.size()),
                              barriers.data());
      };
      const VkPipelineStageFlags depth_stages =
         VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
      const VkAccessFlags depth_access =
         VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
      const VkImageSubresourceRange rendered[2] = {{attachment_aspects, 1, 1, 0, 1}, {attachment_aspects, 2, 1, 1, 1}};
      /* Everything (both aspects: the stencil plane is left as the layout change found it). */
      barrier(VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0, VK_ACCESS_TRANSFER_WRITE_BIT,
              VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
              {{attachment_aspects, 0, level_count, 0, layer_count}});
      std::vector<VkBufferImageCopy> regions;
      for (uint32_t level = 0; level < level_count; level++) {
         VkBufferImageCopy region{};
         region.bufferOffset = VkDeviceSize(first_texel(level)) * 4;
         region.imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, level, 0, layer_count};
         region.imageExtent = {level_width(level), level_height(level), 1};
         regions.push_back(region);
      }
      vkCmdCopyBufferToImage(commands, upload, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, uint32_t(regions.size()),
                             regions.data());
      barrier(VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
              VK_ACCESS_TRANSFER_WRITE_BIT, depth_access, VK_PIPELINE_STAGE_TRANSFER_BIT, depth_stages,
              {rendered[0], rendered[1]});

      VkClearValue clear{};
      clear.depthStencil = {load_op_depth, 0};
      VkRenderPassBeginInfo pass_begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
      pass_begin.renderPass = passes[0];
      pass_begin.framebuffer = framebuffers[0];
      pass_begin.renderArea = load_op_area;
      pass_begin.clearValueCount = 1;
      pass_begin.pClearValues = &clear;
      vkCmdBeginRenderPass(commands, &pass_begin, VK_SUBPASS_CONTENTS_INLINE);
      vkCmdEndRenderPass(commands);
      pass_begin.renderPass = passes[1];
      pass_begin.framebuffer = framebuffers[1];
      pass_begin.renderArea = {{0, 0}, {level_width(2), level_height(2)}};
      pass_begin.clearValueCount = 0;
      vkCmdBeginRenderPass(commands, &pass_begin, VK_SUBPASS_CONTENTS_INLINE);
      VkClearAttachment clear_attachment{};
      clear_attachment.aspectMask = VK_IMAGE_ASPECT_DEPTH_BIT;
      clear_attachment.clearValue.depthStencil = {clear_rect_depth, 0};
      const VkClearRect clear_rect{clear_rect_area, 0, 1};
      vkCmdClearAttachments(commands, 1, &clear_attachment, 1, &clear_rect);
      vkCmdEndRenderPass(commands);

      const VkClearDepthStencilValue level3{level3_depth, 0}, level4{level4_depth, 0};
      const VkImageSubresourceRange level3_range{VK_IMAGE_ASPECT_DEPTH_BIT, 3, 1, 0, layer_count};
      const VkImageSubresourceRange level4_range{VK_IMAGE_ASPECT_DEPTH_BIT, 4, 1, 0, 1};
      /* Orders the clears after the copy into the same levels. */
      VkMemoryBarrier transfer_order{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
      transfer_order.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
      transfer_order.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
      vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1,
                           &transfer_order, 0, nullptr, 0, nullptr);
      vkCmdClearDepthStencilImage(commands, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &level3, 1, &level3_range);
      vkCmdClearDepthStencilImage(commands, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &level4, 1, &level4_range);

      /* Everything to SHADER_READ_ONLY for the compute shader. */
      barrier(VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
              VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT, VK_ACCESS_SHADER_READ_BIT, depth_stages,
              VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, {rendered[0], rendered[1]});
      barrier(VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
              VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_SHADER_READ_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
              VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
              {{attachment_aspects, 0, 1, 0, layer_count},
               {attachment_aspects, 1, 1, 1, 1},
               {attachment_aspects, 2, 1, 0, 1},
               {attachment_aspects, 3, level_count - 3, 0, layer_count}});

      vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
      vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_layout, 0, 1, &set, 0, nullptr);
      for (uint32_t level = 0; level < level_count; level++) {
         const int32_t push[4] = {int32_t(level), int32_t(level_width(level)), int32_t(level_height(level)),
                                  int32_t(first_texel(level))};
         vkCmdPushConstants(commands, pipeline_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), push);
         vkCmdDispatch(commands, (level_width(level) + 7) / 8, (level_height(level) + 7) / 8, layer_count);
      }
      VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
      to_host.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
      to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
      vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host,
                           0, nullptr, 0, nullptr);
      if (session.submit_and_wait(commands) != VK_SUCCESS) {
         error = "submission failed";
         break;
      }
      const float *floats = static_cast<const float *>(readback_map);
      values.assign(floats, floats + texel_count * 2);
   } while (false);
   return values;
}

class SampledDepthMips : public ::testing::TestWithParam<VkFormat> {};

TEST_P(SampledDepthMips, EveryLevelReadsWhatWasWritten)
{
   const VkFormat format = GetParam();
   unsigned our_messages = 0, their_messages = 0;
   std::string error;
   const std::vector<float> ours = run("Terakan", format, our_messages, error);
   ASSERT_FALSE(ours.empty()) << "Terakan: " << error;
   const std::vector<float> theirs = run("llvmpipe", format, their_messages, error);
   ASSERT_FALSE(theirs.empty()) << "lavapipe: " << error;
   EXPECT_EQ(our_messages, 0u);
   EXPECT_EQ(their_messages, 0u);
   /* A 24-bit unorm depth comes back as a float within two of its steps of the model (the
    * clears' float-to-unorm rounding and the read's unorm-to-float conversion may each take
    * one); float depths exactly. */
   const double tolerance = is_unorm24(format) ? 2.0 / 16777215.0 : 0.0;
   unsigned wrong = 0, unlike_lavapipe = 0;
   for (uint32_t level = 0; level < level_count; level++)
      for (uint32_t layer = 0; layer < layer_count; layer++)
         for (uint32_t y = 0; y < level_height(level); y++)
            for (uint32_t x = 0; x < level_width(level); x++) {
               const size_t i =
                  first_texel(level) + (size_t(layer) * level_height(level) + y) * level_width(level) + x;
               const double expected = expected_depth(format, level, layer, x, y);
               for (unsigned how = 0; how < 2; how++) {
                  const float got = ours[2 * i + how], reference = theirs[2 * i + how];
                  if (!(std::fabs(got - expected) <= tolerance) && wrong++ < 12)
                     ADD_FAILURE() << (how ? "textureLod" : "texelFetch") << " level " << level << " layer " << layer
                                   << " texel " << x << "," << y << ": Terakan " << got << ", expected " << expected;
                  if (!(std::fabs(got - reference) <= tolerance) && unlike_lavapipe++ < 12)
                     ADD_FAILURE() << (how ? "textureLod" : "texelFetch") << " level " << level << " layer " << layer
                                   << " texel " << x << "," << y << ": Terakan " << got << ", lavapipe " << reference;
               }
            }
   EXPECT_EQ(wrong, 0u);
   EXPECT_EQ(unlike_lavapipe, 0u);
}

INSTANTIATE_TEST_SUITE_P(Formats, SampledDepthMips,
                         ::testing::Values(VK_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_D32_SFLOAT_S8_UINT,
                                           VK_FORMAT_X8_D24_UNORM_PACK32, VK_FORMAT_D32_SFLOAT),
                         [](const ::testing::TestParamInfo<VkFormat> &info) {
                            switch (info.param) {
                            case VK_FORMAT_D24_UNORM_S8_UINT: return std::string("D24S8");
                            case VK_FORMAT_D32_SFLOAT_S8_UINT: return std::string("D32FS8");
                            case VK_FORMAT_X8_D24_UNORM_PACK32: return std::string("X8D24");
                            default: return std::string("D32F");
                            }
                         });

} // namespace
