/* terakan-bench-draw: how fast the driver records draws, with and without state changes
 * between them, against lavapipe measured in the same run (issue 14's acceptance).
 *
 * On each device (Terakan on the chip the preloaded simulator presents, TERAKAN_SIM_CHIP,
 * then lavapipe), one command buffer holds one render pass over a 64x64 R8G8B8A8 target and
 * N draws of a small triangle (3 vertices, two vertex bindings, a push constant offset). Four
 * variants of what happens between the draws:
 *
 *   none      nothing: the same pipeline, dynamic state, push constants and vertex buffers;
 *   dynamic   vkCmdSetViewport, vkCmdSetScissor, vkCmdPushConstants and vkCmdBindVertexBuffers
 *             (two bindings) before every draw, the values alternating;
 *   pipeline  vkCmdBindPipeline before every draw, alternating two pipelines (opaque, and
 *             alpha-blended with the other front face);
 *   all       both of the above;
 *   conservative  nothing between the draws, the pipeline with VK_EXT_conservative_rasterization
 *             OVERESTIMATE (Terakan: each draw becomes a capture draw, a compute dispatch and a
 *             draw of the enlarged fans); lavapipe does not offer the extension, so this
 *             variant is compared with `none` on Terakan;
 *   conservative-indirect  the same drawn by vkCmdDrawIndirect (the triangle count stays on
 *             the GPU: one more small dispatch, and the passes' arguments written there).
 *
 * For each: draws recorded per second and CPU microseconds per draw (vkBeginCommandBuffer to
 * vkEndCommandBuffer over N, median of --repeat recordings), and the time from vkQueueSubmit
 * to the end of vkQueueWaitIdle for the command buffer. On Terakan that time includes the
 * simulator drawing every triangle on the CPU (it is not a GPU's time); lavapipe records into
 * its own command list and does its work at submission, so its recording is cheap and its
 * submission is where it draws. Prints figures; never a test with timed assertions.
 *
 * Run with the driver, lavapipe and the simulator: `ninja -C build bench-draw-cayman` (or
 * -barts, -cypress), or by hand:
 *   VK_DRIVER_FILES=build/src/terakan/terakan_devenv_icd.x86_64.json:/usr/share/vulkan/icd.d/lvp_icd.x86_64.json
 *   LD_PRELOAD=build/src/sim/libterakan_sim.so TERAKAN_SIM_CHIP=CAYMAN build/bench/terakan-bench-draw
 * The shaders are embedded (bench/shaders/draw_offset.vert, tests/api/shaders/coloured.frag). */
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../tests/vulkan_helpers.h"

#include "coloured_frag_spirv.h"
#include "draw_offset_vert_spirv.h"

using namespace terakan::test;
using Clock = std::chrono::steady_clock;

namespace {

constexpr uint32_t target_size = 64;
constexpr VkFormat target_format = VK_FORMAT_R8G8B8A8_UNORM;

enum class Variant { None, Dynamic, Pipeline, All, Conservative, ConservativeIndirect };
struct VariantInfo {
   Variant variant;
   const char *name, *description;
};
const VariantInfo variants[] = {
   {Variant::None, "none", "no state change"},
   {Variant::Dynamic, "dynamic", "viewport, scissor, push constants, vertex buffers per draw"},
   {Variant::Pipeline, "pipeline", "pipeline change per draw"},
   {Variant::All, "all", "pipeline and dynamic state per draw"},
   {Variant::Conservative, "conservative", "conservative rasterization, no state change"},
   {Variant::ConservativeIndirect, "conservative-indirect", "conservative rasterization, vkCmdDrawIndirect"},
};
constexpr size_t ordinary_variants = 4; /* the ones lavapipe can draw too */
bool conservative_variant(Variant v)
{
   return v == Variant::Conservative || v == Variant::ConservativeIndirect;
}

struct Figures {
   double record_us_per_draw = 0, draws_per_second = 0, submit_ms = 0;
   bool ok = false;
};

/* One device with everything the draws need. */
class DrawDevice {
public:
   DrawDevice(VkInstance instance, const char *name, bool is_terakan) : terakan(is_terakan)
   {
      physical = find_physical_device(instance, name);
      if (!physical) {
         error = std::string("no Vulkan device named '") + name + "'";
         return;
      }
      vkGetPhysicalDeviceProperties(physical, &properties);
      const auto family = find_queue_family(physical, VK_QUEUE_GRAPHICS_BIT);
      if (!family) {
         error = std::string(properties.deviceName) + " has no graphics queue";
         return;
      }
      conservative = has_device_extension(physical, VK_EXT_CONSERVATIVE_RASTERIZATION_EXTENSION_NAME);
      std::vector<const char *> extensions;
      if (conservative)
         extensions.push_back(VK_EXT_CONSERVATIVE_RASTERIZATION_EXTENSION_NAME);
      if (create_device(physical, *family, nullptr, nullptr, extensions, device) != VK_SUCCESS) {
         error = "vkCreateDevice failed";
         device = VK_NULL_HANDLE;
         return;
      }
      vkGetDeviceQueue(device, *family, 0, &queue);
      VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
      pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
      pool_info.queueFamilyIndex = *family;
      vkCreateCommandPool(device, &pool_info, nullptr, &pool);
      if (!make_target() || !make_pipelines() || !make_vertex_buffers()) {
         if (error.empty())
            error = "set-up failed";
         return;
      }
      VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
      allocate.commandPool = pool;
      allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
      allocate.commandBufferCount = 1;
      if (vkAllocateCommandBuffers(device, &allocate, &commands) != VK_SUCCESS) {
         error = "vkAllocateCommandBuffers failed";
         return;
      }
      ready = true;
   }

   ~DrawDevice()
   {
      if (!device)
         return;
      vkDeviceWaitIdle(device);
      if (commands)
         vkFreeCommandBuffers(device, pool, 1, &commands);
      for (VkPipeline p : pipelines)
         vkDestroyPipeline(device, p, nullptr);
      vkDestroyPipelineLayout(device, layout, nullptr);
      for (VkShaderModule m : modules)
         vkDestroyShaderModule(device, m, nullptr);
      vkDestroyFramebuffer(device, framebuffer, nullptr);
      vkDestroyRenderPass(device, render_pass, nullptr);
      destroy_image_2d(device, target);
      for (unsigned b = 0; b < 2; b++) {
         vkDestroyBuffer(device, vertex_buffers[b], nullptr);
         if (vertex_memory[b])
            vkFreeMemory(device, vertex_memory[b], nullptr);
      }
      vkDestroyCommandPool(device, pool, nullptr);
      vkDestroyDevice(device, nullptr);
   }

   /* Records `draws` draws of `variant` into the command buffer; the seconds from begin to
    * end, or a negative value when recording failed. */
   double record(Variant variant, uint32_t draws)
   {
      vkResetCommandBuffer(commands, 0);
      const bool dynamic = variant == Variant::Dynamic || variant == Variant::All;
      const bool rebind = variant == Variant::Pipeline || variant == Variant::All;
      const VkViewport viewports[2] = {{0, 0, float(target_size), float(target_size), 0, 1},
                                       {8, 4, float(target_size) / 2, float(target_size) / 2, 0, 1}};
      const VkRect2D scissors[2] = {{{0, 0}, {target_size, target_size}}, {{2, 6}, {target_size - 8, target_size - 4}}};
      const VkDeviceSize offsets[2] = {0, colour_offset};
      const VkClearValue clear{.color = {{0.1f, 0.2f, 0.3f, 1.0f}}};
      VkRenderPassBeginInfo pass_begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
      pass_begin.renderPass = render_pass;
      pass_begin.framebuffer = framebuffer;
      pass_begin.renderArea = scissors[0];
      pass_begin.clearValueCount = 1;
      pass_begin.pClearValues = &clear;

      const auto start = Clock::now();
      VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
      begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
      vkBeginCommandBuffer(commands, &begin);
      vkCmdBeginRenderPass(commands, &pass_begin, VK_SUBPASS_CONTENTS_INLINE);
      vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS,
                        pipelines[conservative_variant(variant) ? 2 : 0]);
      vkCmdSetViewport(commands, 0, 1, &viewports[0]);
      vkCmdSetScissor(commands, 0, 1, &scissors[0]);
      const float still[4] = {0, 0, 0, 0};
      vkCmdPushConstants(commands, layout, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof(still), still);
      const VkBuffer first[2] = {vertex_buffers[0], vertex_buffers[0]};
      vkCmdBindVertexBuffers(commands, 0, 2, first, offsets);
      for (uint32_t i = 0; i < draws; i++) {
         const unsigned k = i & 1;
         if (rebind)
            vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines[k]);
         if (dynamic) {
            vkCmdSetViewport(commands, 0, 1, &viewports[k]);
            vkCmdSetScissor(commands, 0, 1, &scissors[k]);
            /* The triangle walks over an 8x8 grid of the target. */
            const float offset[4] = {-0.8f + 0.2f * float(i % 8), -0.8f + 0.2f * float(i / 8 % 8), 0, 0};
            vkCmdPushConstants(commands, layout, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof(offset), offset);
            const VkBuffer buffers[2] = {vertex_buffers[k], vertex_buffers[k]};
            vkCmdBindVertexBuffers(commands, 0, 2, buffers, offsets);
         }
         if (variant == Variant::ConservativeIndirect)
            vkCmdDrawIndirect(commands, vertex_buffers[0], indirect_offset, 1, sizeof(VkDrawIndirectCommand));
         else
            vkCmdDraw(commands, 3, 1, 0, 0);
      }
      vkCmdEndRenderPass(commands);
      const VkResult result = vkEndCommandBuffer(commands);
      const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
      if (result != VK_SUCCESS) {
         error = "vkEndCommandBuffer returned " + std::to_string(int(result));
         return -1;
      }
      return seconds;
   }

   /* Submits the command buffer last recorded and waits; milliseconds, or negative. */
   double submit_and_wait()
   {
      VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
      submit.commandBufferCount = 1;
      submit.pCommandBuffers = &commands;
      const auto start = Clock::now();
      VkResult result = vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE);
      if (result == VK_SUCCESS)
         result = vkQueueWaitIdle(queue);
      const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
      if (result != VK_SUCCESS) {
         error = "vkQueueSubmit/vkQueueWaitIdle returned " + std::to_string(int(result));
         return -1;
      }
      return ms;
   }

   bool ready = false;
   bool terakan;
   bool conservative = false; /* VK_EXT_conservative_rasterization offered (and enabled) */
   std::string error;
   VkPhysicalDeviceProperties properties{};

private:
   bool make_target()
   {
      if (!create_image_2d(physical, device, target_format, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
                           VK_IMAGE_ASPECT_COLOR_BIT, target_size, target_size, VK_SAMPLE_COUNT_1_BIT, target)) {
         error = "colour attachment creation failed";
         return false;
      }
      VkAttachmentDescription attachment{};
      attachment.format = target_format;
      attachment.samples = VK_SAMPLE_COUNT_1_BIT;
      attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
      attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
      attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
      attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
      attachment.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
      attachment.finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
      const VkAttachmentReference colour_ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
      VkSubpassDescription subpass{};
      subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
      subpass.colorAttachmentCount = 1;
      subpass.pColorAttachments = &colour_ref;
      VkRenderPassCreateInfo pass_info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
      pass_info.attachmentCount = 1;
      pass_info.pAttachments = &attachment;
      pass_info.subpassCount = 1;
      pass_info.pSubpasses = &subpass;
      if (vkCreateRenderPass(device, &pass_info, nullptr, &render_pass) != VK_SUCCESS) {
         error = "vkCreateRenderPass failed";
         return false;
      }
      VkFramebufferCreateInfo framebuffer_info{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
      framebuffer_info.renderPass = render_pass;
      framebuffer_info.attachmentCount = 1;
      framebuffer_info.pAttachments = &target.view;
      framebuffer_info.width = target_size;
      framebuffer_info.height = target_size;
      framebuffer_info.layers = 1;
      if (vkCreateFramebuffer(device, &framebuffer_info, nullptr, &framebuffer) != VK_SUCCESS) {
         error = "vkCreateFramebuffer failed";
         return false;
      }
      return true;
   }

   /* Two pipelines over the same layout, viewport and scissor dynamic in both: opaque with
    * counter-clockwise front faces, and alpha-blended with clockwise ones (no culling). */
   bool make_pipelines()
   {
      const std::pair<const uint32_t *, size_t> code[2] = {{draw_offset_vert_spirv, sizeof(draw_offset_vert_spirv)},
                                                           {coloured_frag_spirv, sizeof(coloured_frag_spirv)}};
      for (unsigned s = 0; s < 2; s++) {
         VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
         module_info.codeSize = code[s].second;
         module_info.pCode = code[s].first;
         if (vkCreateShaderModule(device, &module_info, nullptr, &modules[s]) != VK_SUCCESS) {
            error = "vkCreateShaderModule failed";
            return false;
         }
      }
      const VkPushConstantRange push{VK_SHADER_STAGE_VERTEX_BIT, 0, 16};
      VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
      layout_info.pushConstantRangeCount = 1;
      layout_info.pPushConstantRanges = &push;
      if (vkCreatePipelineLayout(device, &layout_info, nullptr, &layout) != VK_SUCCESS) {
         error = "vkCreatePipelineLayout failed";
         return false;
      }
      VkPipelineShaderStageCreateInfo stages[2]{};
      for (unsigned s = 0; s < 2; s++) {
         stages[s].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
         stages[s].stage = s ? VK_SHADER_STAGE_FRAGMENT_BIT : VK_SHADER_STAGE_VERTEX_BIT;
         stages[s].module = modules[s];
         stages[s].pName = "main";
      }
      const VkVertexInputBindingDescription bindings[2] = {{0, 16, VK_VERTEX_INPUT_RATE_VERTEX},
                                                           {1, 16, VK_VERTEX_INPUT_RATE_VERTEX}};
      const VkVertexInputAttributeDescription attributes[2] = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0},
                                                               {1, 1, VK_FORMAT_R32G32B32A32_SFLOAT, 0}};
      VkPipelineVertexInputStateCreateInfo vertex_input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
      vertex_input.vertexBindingDescriptionCount = 2;
      vertex_input.pVertexBindingDescriptions = bindings;
      vertex_input.vertexAttributeDescriptionCount = 2;
      vertex_input.pVertexAttributeDescriptions = attributes;
      VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
      assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
      VkPipelineViewportStateCreateInfo viewport_state{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
      viewport_state.viewportCount = 1;
      viewport_state.scissorCount = 1;
      const VkDynamicState dynamic_states[2] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
      VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
      dynamic.dynamicStateCount = 2;
      dynamic.pDynamicStates = dynamic_states;
      VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
      multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
      /* Pipeline 2, where offered: pipeline 0 drawn conservatively. */
      for (unsigned p = 0; p < (conservative ? 3u : 2u); p++) {
         VkPipelineRasterizationConservativeStateCreateInfoEXT conservative_state{
            VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_CONSERVATIVE_STATE_CREATE_INFO_EXT};
         conservative_state.conservativeRasterizationMode = VK_CONSERVATIVE_RASTERIZATION_MODE_OVERESTIMATE_EXT;
         VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
         if (p == 2)
            raster.pNext = &conservative_state;
         raster.polygonMode = VK_POLYGON_MODE_FILL;
         raster.cullMode = VK_CULL_MODE_NONE;
         raster.frontFace = p == 1 ? VK_FRONT_FACE_CLOCKWISE : VK_FRONT_FACE_COUNTER_CLOCKWISE;
         raster.lineWidth = 1.0f;
         VkPipelineColorBlendAttachmentState blend{};
         blend.colorWriteMask = 0xf;
         if (p == 1) {
            blend.blendEnable = VK_TRUE;
            blend.srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA;
            blend.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
            blend.colorBlendOp = VK_BLEND_OP_ADD;
            blend.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
            blend.dstAlphaBlendFactor = VK_BLEND_FACTOR_ZERO;
            blend.alphaBlendOp = VK_BLEND_OP_ADD;
         }
         VkPipelineColorBlendStateCreateInfo blend_state{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
         blend_state.attachmentCount = 1;
         blend_state.pAttachments = &blend;
         VkGraphicsPipelineCreateInfo pipeline_info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
         pipeline_info.stageCount = 2;
         pipeline_info.pStages = stages;
         pipeline_info.pVertexInputState = &vertex_input;
         pipeline_info.pInputAssemblyState = &assembly;
         pipeline_info.pViewportState = &viewport_state;
         pipeline_info.pRasterizationState = &raster;
         pipeline_info.pMultisampleState = &multisample;
         pipeline_info.pColorBlendState = &blend_state;
         pipeline_info.pDynamicState = &dynamic;
         pipeline_info.layout = layout;
         pipeline_info.renderPass = render_pass;
         const VkResult result = vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &pipeline_info, nullptr,
                                                           &pipelines[p]);
         if (result != VK_SUCCESS) {
            error = "vkCreateGraphicsPipelines returned " + std::to_string(int(result));
            return false;
         }
      }
      return true;
   }

   /* Two buffers, each with three positions (binding 0, offset 0) then three colours
    * (binding 1, colour_offset): a triangle of about 4x4 pixels in the full viewport. */
   bool make_vertex_buffers()
   {
      for (unsigned b = 0; b < 2; b++) {
         void *map = nullptr;
         if (!create_host_buffer(physical, device, indirect_offset + sizeof(VkDrawIndirectCommand),
                                 VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
                                 vertex_buffers[b], vertex_memory[b], map)) {
            error = "vertex buffer creation failed";
            return false;
         }
         const float s = b ? 0.08f : 0.06f;
         const float data[24] = {-s, -s, 0, 1, s, -s, 0, 1, 0, s, 0, 1,
                                 1, 0, 0, 0.5f, 0, 1, 0, 0.5f, 0, 0, 1, 0.5f};
         std::memcpy(map, data, sizeof(data));
         const VkDrawIndirectCommand draw{3, 1, 0, 0}; /* the conservative-indirect variant's */
         std::memcpy(static_cast<uint8_t *>(map) + indirect_offset, &draw, sizeof(draw));
         if (b) /* the second buffer's colours in another order */
            std::swap_ranges(static_cast<float *>(map) + 12, static_cast<float *>(map) + 16,
                             static_cast<float *>(map) + 20);
      }
      return true;
   }

   static constexpr VkDeviceSize colour_offset = 48, indirect_offset = 2 * colour_offset;

   VkPhysicalDevice physical = VK_NULL_HANDLE;
   VkDevice device = VK_NULL_HANDLE;
   VkQueue queue = VK_NULL_HANDLE;
   VkCommandPool pool = VK_NULL_HANDLE;
   VkCommandBuffer commands = VK_NULL_HANDLE;
   Image2D target;
   VkRenderPass render_pass = VK_NULL_HANDLE;
   VkFramebuffer framebuffer = VK_NULL_HANDLE;
   VkShaderModule modules[2] = {};
   VkPipelineLayout layout = VK_NULL_HANDLE;
   VkPipeline pipelines[3] = {};
   VkBuffer vertex_buffers[2] = {};
   VkDeviceMemory vertex_memory[2] = {};
};

Figures measure(DrawDevice &gpu, Variant variant, uint32_t draws, unsigned repeat)
{
   Figures f;
   std::vector<double> times;
   for (unsigned r = 0; r < repeat; r++) {
      const double s = gpu.record(variant, draws);
      if (s < 0)
         return f;
      times.push_back(s);
   }
   std::sort(times.begin(), times.end());
   const double median = times[times.size() / 2];
   f.record_us_per_draw = 1e6 * median / draws;
   f.draws_per_second = draws / median;
   f.submit_ms = gpu.submit_and_wait(); /* the last recording */
   f.ok = f.submit_ms >= 0;
   return f;
}

} // namespace

int main(int argc, char **argv)
{
   uint32_t draws = 10000;
   unsigned repeat = 5;
   for (int i = 1; i < argc; i++) {
      if (!std::strcmp(argv[i], "--draws") && i + 1 < argc)
         draws = uint32_t(std::atoi(argv[++i]));
      else if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc)
         repeat = unsigned(std::atoi(argv[++i]));
      else {
         std::fprintf(stderr, "usage: terakan-bench-draw [--draws N] [--repeat R]\n");
         return 2;
      }
   }
   if (!draws || !repeat) {
      std::fprintf(stderr, "terakan-bench-draw: --draws and --repeat must be at least 1\n");
      return 2;
   }

   VkInstance instance = VK_NULL_HANDLE;
   if (create_instance("terakan-bench-draw", VK_API_VERSION_1_0, {}, {}, nullptr, instance) != VK_SUCCESS) {
      std::fprintf(stderr, "terakan-bench-draw: vkCreateInstance failed\n");
      return 1;
   }
   const char *chip = std::getenv("TERAKAN_SIM_CHIP");
   std::printf("terakan-bench-draw: %u draws of a 3-vertex triangle per command buffer in one render pass "
               "(%ux%u R8G8B8A8 target), recording time the median of %u; TERAKAN_SIM_CHIP=%s\n",
               draws, target_size, target_size, repeat, chip ? chip : "(unset)");

   int status = 0;
   Figures results[2][std::size(variants)];
   std::string names[2];
   {
      /* Terakan first, then lavapipe; one device at a time. */
      const std::pair<const char *, bool> devices[2] = {{"Terakan", true}, {"llvmpipe", false}};
      for (unsigned d = 0; d < 2; d++) {
         DrawDevice gpu(instance, devices[d].first, devices[d].second);
         if (!gpu.ready) {
            std::fprintf(stderr, "terakan-bench-draw: %s: %s\n", devices[d].first, gpu.error.c_str());
            status = 1;
            continue;
         }
         names[d] = gpu.properties.deviceName;
         std::printf("device: %s\n", names[d].c_str());
         /* Warm-up: both pipelines drawn once (lavapipe compiles its shaders at first use). */
         if (gpu.record(Variant::All, 2) < 0 || gpu.submit_and_wait() < 0) {
            std::fprintf(stderr, "terakan-bench-draw: %s, warm-up: %s\n", names[d].c_str(), gpu.error.c_str());
            status = 1;
            continue;
         }
         for (size_t v = 0; v < std::size(variants); v++) {
            if (conservative_variant(variants[v].variant) && !gpu.conservative) {
               std::printf("  %-8s not offered\n", variants[v].name);
               continue;
            }
            Figures &f = results[d][v] = measure(gpu, variants[v].variant, draws, repeat);
            if (!f.ok) {
               std::fprintf(stderr, "terakan-bench-draw: %s, %s: %s\n", names[d].c_str(), variants[v].name,
                            gpu.error.c_str());
               status = 1;
               continue;
            }
            std::printf("  %-8s recording: %10.0f draws/s, %7.3f us CPU per draw | submit and wait%s: %9.2f ms "
                        "(%.2f us per draw)  [%s]\n",
                        variants[v].name, f.draws_per_second, f.record_us_per_draw,
                        gpu.terakan ? " (includes the simulator drawing)" : "", f.submit_ms,
                        1e3 * f.submit_ms / draws, variants[v].description);
         }
      }
   }
   if (!status) {
      std::printf("recording time per draw, Terakan / lavapipe:");
      for (size_t v = 0; v < ordinary_variants; v++)
         std::printf(" %s %.2fx%s", variants[v].name, results[0][v].record_us_per_draw / results[1][v].record_us_per_draw,
                     v + 1 < ordinary_variants ? "," : "\n");
      const Figures &none = results[0][0];
      for (size_t v = ordinary_variants; v < std::size(variants); v++)
         if (results[0][v].ok)
            std::printf("%s draws on Terakan / ordinary ones: recording %.2fx, submit and wait %.2fx\n",
                        variants[v].name, results[0][v].record_us_per_draw / none.record_us_per_draw,
                        results[0][v].submit_ms / none.submit_ms);
   }
   vkDestroyInstance(instance, nullptr);
   return status;
}
