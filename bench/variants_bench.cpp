/* terakan-bench-variants: what the unnormalized-coordinate variants cost (seed 004).
 *
 *  1. making a variant (copy, patch the recorded TEX words, hand to the code store) against
 *     compiling the same shader from SPIR-V: the design asks for at least 100 times faster;
 *  2. looking up an existing variant on the read-locked path: the target is under 100 ns;
 *  3. bind throughput: threads that each flip between sampler masks and fetch the variant,
 *     as a dispatch does after a bind, with 1, 2, 4 and 8 threads on one program.
 *
 * The program is tests/api/shaders/sample_mixed.comp compiled for Barts (a chip that patches).
 * The code store keeps variants in host memory, so the figures are the cache's CPU cost
 * without the buffer-object upload.
 *
 * --driver: 3 again through the Vulkan driver: threads recording vkCmdBindDescriptorSets
 * (normalized and unnormalized sampler in turn) + vkCmdDispatch into their own command
 * buffers around one pipeline (run with the driver and the simulator, like
 * terakan-bench-dispatch; TERAKAN_API_SHADERS names the API tests' shaders). Prints figures. */
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#include "../tests/api/compute_device.h"
#include "compiler/compiler.h"
#include "terakan_shader_variants.h"

#include "sample_mixed_spirv.h"

using Clock = std::chrono::steady_clock;
using namespace terakan;

namespace {

double median(std::vector<double> values)
{
   std::sort(values.begin(), values.end());
   return values[values.size() / 2];
}

class HostCodeStore : public VariantCodeStore {
public:
   void *upload(std::span<const uint32_t> code, std::string &) override
   {
      return new std::vector<uint32_t>(code.begin(), code.end());
   }
   void release(void *handle) override { delete static_cast<std::vector<uint32_t> *>(handle); }
};

compiler::CompileOptions options_for_sample_mixed()
{
   compiler::CompileOptions options;
   options.family = hw::Family::Barts;
   options.buffer_bindings = {{0, 0, 1, 0, true}};
   auto texture = [](unsigned binding, bool image, bool sampler, unsigned resource, unsigned slot,
                     unsigned count = 1) {
      compiler::TextureBinding b;
      b.set = 0;
      b.binding = binding;
      b.count = count;
      b.has_image = image;
      b.has_sampler = sampler;
      b.first_resource = resource;
      b.first_sampler = slot;
      return b;
   };
   options.texture_bindings = {texture(1, true, false, 96, 0), texture(2, false, true, 0, 0),
                               texture(3, false, true, 0, 1), texture(4, false, true, 0, 2),
                               texture(5, false, true, 0, 3, 3)};
   options.texture_bindings[2].immutable = {compiler::SamplerCoordinates::Unnormalized};
   options.texture_bindings[3].immutable = {compiler::SamplerCoordinates::Normalized};
   return options;
}

/* Binds + dispatches recorded per second by `threads` threads, each in its own command
 * buffer, flipping between two descriptor sets whose samplers differ in coordinate type. */
double driver_bind_rate(terakan::test::ComputeDevice &gpu, unsigned threads, unsigned binds_per_thread)
{
   using terakan::test::ComputeDevice;
   std::vector<uint8_t> texels(16 * 16 * 4, 64);
   auto image = gpu.image(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, {16, 16, 1}, 1, 1, texels, 4);
   VkImageView view = gpu.view(image, VK_IMAGE_VIEW_TYPE_2D);
   VkSampler samplers[2] = {gpu.sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_REPEAT, false),
                            gpu.sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, true)};
   auto out = gpu.buffer(64 * 16 * 8);
   auto program = gpu.program_with_bindings(
      terakan::test::read_spirv("sample_bound"),
      {{{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
        {1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}}},
      32);
   if (!program.pipeline)
      return 0;
   VkDescriptorSet sets[2];
   for (unsigned s = 0; s < 2; s++) {
      sets[s] = gpu.allocate_set(program, 0);
      gpu.write_buffer(sets[s], 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, out);
      gpu.write_image(sets[s], 1, 0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, view, samplers[s]);
   }
   std::vector<VkCommandPool> pools(threads);
   for (VkCommandPool &pool : pools) {
      VkCommandPoolCreateInfo info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
      info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
      info.queueFamilyIndex = gpu.queue_family;
      vkCreateCommandPool(gpu.device, &info, nullptr, &pool);
   }
   const auto begin = Clock::now();
   std::vector<std::thread> workers;
   for (unsigned t = 0; t < threads; t++) {
      workers.emplace_back([&, t] {
         VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
         allocate.commandPool = pools[t];
         allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
         allocate.commandBufferCount = 1;
         VkCommandBuffer commands;
         vkAllocateCommandBuffers(gpu.device, &allocate, &commands);
         const uint32_t push[8] = {};
         constexpr unsigned per_buffer = 1000;
         for (unsigned done = 0; done < binds_per_thread; done += per_buffer) {
            VkCommandBufferBeginInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
            vkBeginCommandBuffer(commands, &info);
            vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.pipeline);
            vkCmdPushConstants(commands, program.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), push);
            for (unsigned i = 0; i < per_buffer; i++) {
               vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.layout, 0, 1,
                                       &sets[(i + t) & 1], 0, nullptr);
               vkCmdDispatch(commands, 1, 1, 1);
            }
            vkEndCommandBuffer(commands);
            vkResetCommandBuffer(commands, 0);
         }
      });
   }
   for (std::thread &w : workers)
      w.join();
   const double seconds = std::chrono::duration<double>(Clock::now() - begin).count();
   for (VkCommandPool pool : pools)
      vkDestroyCommandPool(gpu.device, pool, nullptr);
   gpu.destroy(program);
   gpu.destroy(out);
   for (VkSampler s : samplers)
      vkDestroySampler(gpu.device, s, nullptr);
   vkDestroyImageView(gpu.device, view, nullptr);
   gpu.destroy(image);
   return threads * double(binds_per_thread) / seconds;
}

int driver_mode()
{
   terakan::test::ComputeDevice gpu("Terakan", false);
   if (!gpu.ok()) {
      std::fprintf(stderr, "terakan-bench-variants: no Terakan device: %s\n", gpu.error.c_str());
      return 1;
   }
   std::printf("through the driver (%s): vkCmdBindDescriptorSets + vkCmdDispatch, samplers flipping\n",
               gpu.device_name.c_str());
   for (unsigned threads : {1u, 2u, 4u, 8u}) {
      const double rate = driver_bind_rate(gpu, threads, 20000);
      std::printf("  %u thread%s: %.0f k binds+dispatches/s in total\n", threads,
                  threads == 1 ? " " : "s", rate / 1e3);
   }
   return 0;
}

} // namespace

int main(int argc, char **argv)
{
   if (argc > 1 && !std::strcmp(argv[1], "--driver"))
      return driver_mode();
   if (argc > 1) {
      std::fprintf(stderr, "usage: terakan-bench-variants [--driver]\n");
      return 2;
   }
   const std::span<const uint32_t> spirv(sample_mixed_spirv, sizeof(sample_mixed_spirv) / 4);
   const compiler::CompileOptions options = options_for_sample_mixed();

   /* 1. compile vs make a variant */
   std::vector<double> compile_us;
   compiler::ShaderBinary binary;
   for (unsigned i = 0; i < 40; i++) {
      std::string error;
      const auto start = Clock::now();
      if (!compiler::compile_compute(spirv, "main", options, binary, error)) {
         std::fprintf(stderr, "terakan-bench-variants: compile failed: %s\n", error.c_str());
         return 1;
      }
      compile_us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
   }
   std::vector<std::vector<uint32_t>> sites;
   for (const compiler::SamplerRecord &record : binary.sampler_records) {
      if (record.dynamic)
         continue;
      if (sites.size() <= record.bit)
         sites.resize(record.bit + 1);
      sites[record.bit] = record.tex_dword_offsets;
   }
   if (sites.empty()) {
      std::fprintf(stderr, "terakan-bench-variants: the program has nothing to patch\n");
      return 1;
   }
   const uint32_t key = 1u << (sites.size() - 1);
   HostCodeStore store;
   std::vector<double> variant_us;
   for (unsigned i = 0; i < 2000; i++) {
      ShaderVariants variants(store, binary.code, sites);
      std::string error;
      const auto start = Clock::now();
      void *made = variants.get(key, error);
      variant_us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
      if (!made)
         return 1;
   }
   const double compile = median(compile_us), variant = median(variant_us);
   std::printf("program: sample_mixed.comp for Barts, %zu dwords, %zu patched TEX words\n",
               binary.code.size(), sites.back().size());
   std::printf("compile from SPIR-V: median %.1f us\n", compile);
   std::printf("make a variant (copy + patch + store): median %.3f us\n", variant);
   std::printf("variant vs compile: %.0f times faster (target: at least 100)\n", compile / variant);

   /* 2. read-locked lookup of an existing variant */
   ShaderVariants shared(store, binary.code, sites);
   std::string error;
   shared.get(key, error);
   const unsigned lookups = 5000000;
   void *sink = nullptr;
   const auto start = Clock::now();
   for (unsigned i = 0; i < lookups; i++)
      sink = shared.find(key | (i & 0));
   const double lookup_ns = std::chrono::duration<double, std::nano>(Clock::now() - start).count() / lookups;
   std::printf("lookup of an existing variant (read lock): %.1f ns (target: under 100)\n", lookup_ns);
   if (!sink)
      return 1;

   /* 3. bind throughput: every "dispatch after a bind" asks for the variant of the new mask */
   std::printf("bind throughput (variant fetch per bind, masks flipping):\n");
   for (unsigned threads : {1u, 2u, 4u, 8u}) {
      ShaderVariants variants(store, binary.code, sites);
      const unsigned per_thread = 1000000;
      std::atomic<unsigned> failures{0};
      const auto begin = Clock::now();
      std::vector<std::thread> workers;
      for (unsigned t = 0; t < threads; t++) {
         workers.emplace_back([&, t] {
            std::string message;
            for (unsigned i = 0; i < per_thread; i++) {
               const uint32_t mask = ((i + t) & 1) ? key : 0;
               if (mask && !variants.get(mask, message))
                  failures++;
            }
         });
      }
      for (std::thread &w : workers)
         w.join();
      const double seconds = std::chrono::duration<double>(Clock::now() - begin).count();
      std::printf("  %u thread%s: %.1f M binds/s in total (%u variant%s made)\n", threads,
                  threads == 1 ? " " : "s", threads * double(per_thread) / seconds / 1e6,
                  unsigned(variants.variants_made()), variants.variants_made() == 1 ? "" : "s");
      if (failures)
         return 1;
   }
   return 0;
}
