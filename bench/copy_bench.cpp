/* terakan-bench-copy: transfers on the simulated card (issue 15's acceptance).
 *
 * For each operation, on Terakan (the chip the preloaded simulator presents, TERAKAN_SIM_CHIP):
 *
 *   image copy    vkCmdCopyImage of a 2047 x 2047 region between two 2048 x 2048 R8G8B8A8
 *                 optimal (2D-tiled) images, from (1, 1) to (0, 0): the copy shader, or by
 *                 the old path one CP DMA run per texel run;
 *   whole level   the same images copied whole: both laid out alike, one CP DMA run of whole
 *                 slices either way;
 *   upload        vkCmdCopyBufferToImage of 2048 x 2048 R8G8B8A8 texels into the tiled image;
 *   blit          vkCmdBlitImage from the 2048 x 2048 image to a 1024 x 1024 one, linear
 *                 filter (a draw: the same on both paths);
 *   4x copy       the image copy's region between two 2048 x 2048 4-sample R8G8B8A8 images:
 *                 draws shading every sample (terakan_meta_copy_msaa.cpp), on both paths
 *                 (there is no CP DMA path for part of a multisampled image); bytes count
 *                 every sample;
 *   4x whole      the same images copied whole: one CP DMA run of the slices and one of FMASK.
 *
 * Before the multisampled copies were draws (3 December, simulated Cayman, --repeat 1) both
 * 4x rows were per-texel CP DMA runs: 4x copy 2.7 commands/s and 20,941,302 dwords, 4x whole
 * 3.6 commands/s and 10,486,006 dwords (and wrong: a run of one sample's bytes per pixel).
 *
 * and for each: commands recorded per second (vkBeginCommandBuffer to vkEndCommandBuffer of a
 * command buffer holding that one command, median of the repeats: the CPU cost of recording),
 * the command buffer's size in dwords (TERAKAN_DEBUG=streams), and bytes per second of
 * vkQueueSubmit to the end of vkQueueWaitIdle (bytes written to the destination: on the
 * simulator that is the simulated work per second, not a GPU's speed).
 *
 * "old" is the driver with TERAKAN_DEBUG=dmacopies (every copy by CP DMA runs); "new" the
 * default. The program runs itself once per path (the driver reads TERAKAN_DEBUG once). Prints
 * figures; never a test with timed assertions.
 *
 * Run: `ninja -C build bench-copy-cayman` (-barts, -cypress), or by hand:
 *   VK_DRIVER_FILES=build/src/terakan/terakan_devenv_icd.x86_64.json
 *   LD_PRELOAD=build/src/sim/libterakan_sim.so TERAKAN_SIM_CHIP=CAYMAN build/bench/terakan-bench-copy */
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "../tests/api/compute_device.h"
#include "../tests/vulkan_helpers.h"

extern char **environ;

using namespace terakan::test;
using Clock = std::chrono::steady_clock;

namespace {

constexpr uint32_t size = 2048;
constexpr VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;

struct Image {
   VkImage image = VK_NULL_HANDLE;
   VkDeviceMemory memory = VK_NULL_HANDLE;
};

Image make_image(ComputeDevice &gpu, uint32_t width, uint32_t height,
                 VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT)
{
   Image out;
   VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
   info.imageType = VK_IMAGE_TYPE_2D;
   info.format = format;
   info.extent = {width, height, 1};
   info.mipLevels = 1;
   info.arrayLayers = 1;
   info.samples = samples;
   info.tiling = VK_IMAGE_TILING_OPTIMAL;
   info.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
   /* Multisampled images are attachments (Vulkan offers their sample counts for those). */
   if (samples != VK_SAMPLE_COUNT_1_BIT)
      info.usage |= VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
   info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
   if (vkCreateImage(gpu.device, &info, nullptr, &out.image) != VK_SUCCESS ||
       !bind_image_memory(gpu.physical, gpu.device, out.image, out.memory)) {
      std::fprintf(stderr, "terakan-bench-copy: cannot make a %ux%u image\n", width, height);
      std::exit(1);
   }
   return out;
}

/* The driver's TERAKAN_DEBUG report written to stderr while `work` runs. */
std::string capture_stderr(const std::function<void()> &work)
{
   char path[] = "/tmp/terakan-bench-copy-XXXXXX";
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

struct Figures {
   double commands_per_second = 0, bytes_per_second = 0;
   unsigned long long dwords = 0;
};

/* Records `record` into a command buffer `repeats` times (the median recording time), then
 * submits the last one and waits. */
Figures measure(ComputeDevice &gpu, unsigned repeats, uint64_t bytes, const std::function<void(VkCommandBuffer)> &record)
{
   Figures f;
   std::vector<double> seconds;
   VkCommandBuffer commands = VK_NULL_HANDLE;
   for (unsigned r = 0; r < repeats; r++) {
      if (commands)
         vkFreeCommandBuffers(gpu.device, gpu.pool, 1, &commands);
      VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
      allocate.commandPool = gpu.pool;
      allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
      allocate.commandBufferCount = 1;
      vkAllocateCommandBuffers(gpu.device, &allocate, &commands);
      VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
      std::string report;
      double elapsed = 0;
      report = capture_stderr([&] {
         const auto start = Clock::now();
         vkBeginCommandBuffer(commands, &begin);
         record(commands);
         vkEndCommandBuffer(commands);
         elapsed = std::chrono::duration<double>(Clock::now() - start).count();
      });
      seconds.push_back(elapsed);
      const size_t at = report.find("streams, ");
      if (at != std::string::npos)
         f.dwords = std::strtoull(report.c_str() + at + 9, nullptr, 10);
   }
   std::sort(seconds.begin(), seconds.end());
   f.commands_per_second = 1.0 / seconds[seconds.size() / 2];
   VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
   submit.commandBufferCount = 1;
   submit.pCommandBuffers = &commands;
   const auto start = Clock::now();
   const VkResult result = vkQueueSubmit(gpu.queue, 1, &submit, VK_NULL_HANDLE);
   vkQueueWaitIdle(gpu.queue);
   const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
   if (result != VK_SUCCESS)
      std::fprintf(stderr, "terakan-bench-copy: vkQueueSubmit: %d\n", result);
   f.bytes_per_second = double(bytes) / elapsed;
   vkFreeCommandBuffers(gpu.device, gpu.pool, 1, &commands);
   return f;
}

void print(const char *path, const char *what, const Figures &f)
{
   std::printf("%-4s %-12s %12.1f commands/s  %10.1f MB/s submit+wait  %12llu dwords\n", path, what,
               f.commands_per_second, f.bytes_per_second / 1e6, f.dwords);
   std::fflush(stdout);
}

int run(const char *path, unsigned repeats)
{
   ComputeDevice gpu("Terakan", /*validation=*/false);
   if (!gpu.ok()) {
      std::fprintf(stderr, "terakan-bench-copy: %s\n", gpu.error.c_str());
      return 1;
   }
   Image a = make_image(gpu, size, size), b = make_image(gpu, size, size), half = make_image(gpu, size / 2, size / 2);
   Image msaa_a = make_image(gpu, size, size, VK_SAMPLE_COUNT_4_BIT);
   Image msaa_b = make_image(gpu, size, size, VK_SAMPLE_COUNT_4_BIT);
   const uint64_t bytes = uint64_t(size) * size * 4;
   ComputeDevice::Buffer texels = gpu.buffer(bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
   {
      VkCommandBuffer c = gpu.begin();
      VkImageMemoryBarrier barriers[5]{};
      const VkImage images[5] = {a.image, b.image, half.image, msaa_a.image, msaa_b.image};
      for (unsigned i = 0; i < 5; i++) {
         barriers[i].sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER;
         barriers[i].dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
         barriers[i].oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
         barriers[i].newLayout = VK_IMAGE_LAYOUT_GENERAL;
         barriers[i].srcQueueFamilyIndex = barriers[i].dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
         barriers[i].image = images[i];
         barriers[i].subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
      }
      vkCmdPipelineBarrier(c, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                           nullptr, 5, barriers);
      capture_stderr([&] { gpu.submit_and_wait(c); }); /* its TERAKAN_DEBUG=streams line */
   }
   /* The old path records millions of packets per tiled copy: once is enough to measure it. */
   const unsigned heavy = std::strcmp(path, "old") ? repeats : 1;
   VkBufferImageCopy upload{};
   upload.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
   upload.imageExtent = {size, size, 1};
   print(path, "upload", measure(gpu, heavy, bytes, [&](VkCommandBuffer c) {
            vkCmdCopyBufferToImage(c, texels.buffer, a.image, VK_IMAGE_LAYOUT_GENERAL, 1, &upload);
         }));
   VkImageCopy part{{VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {1, 1, 0}, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0},
                    {size - 1, size - 1, 1}};
   print(path, "image copy", measure(gpu, heavy, uint64_t(size - 1) * (size - 1) * 4, [&](VkCommandBuffer c) {
            vkCmdCopyImage(c, a.image, VK_IMAGE_LAYOUT_GENERAL, b.image, VK_IMAGE_LAYOUT_GENERAL, 1, &part);
         }));
   VkImageCopy whole{{VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0},
                     {size, size, 1}};
   print(path, "whole level", measure(gpu, repeats, bytes, [&](VkCommandBuffer c) {
            vkCmdCopyImage(c, a.image, VK_IMAGE_LAYOUT_GENERAL, b.image, VK_IMAGE_LAYOUT_GENERAL, 1, &whole);
         }));
   VkImageBlit blit{};
   blit.srcSubresource = blit.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
   blit.srcOffsets[1] = {int32_t(size), int32_t(size), 1};
   blit.dstOffsets[1] = {int32_t(size / 2), int32_t(size / 2), 1};
   print(path, "blit", measure(gpu, repeats, bytes / 4, [&](VkCommandBuffer c) {
            vkCmdBlitImage(c, a.image, VK_IMAGE_LAYOUT_GENERAL, half.image, VK_IMAGE_LAYOUT_GENERAL, 1, &blit,
                           VK_FILTER_LINEAR);
         }));
   /* 4x: the same region and the whole image between two multisampled images (every sample;
    * bytes counted per sample). */
   print(path, "4x copy", measure(gpu, heavy, uint64_t(size - 1) * (size - 1) * 4 * 4, [&](VkCommandBuffer c) {
            vkCmdCopyImage(c, msaa_a.image, VK_IMAGE_LAYOUT_GENERAL, msaa_b.image, VK_IMAGE_LAYOUT_GENERAL, 1, &part);
         }));
   print(path, "4x whole", measure(gpu, heavy, bytes * 4, [&](VkCommandBuffer c) {
            vkCmdCopyImage(c, msaa_a.image, VK_IMAGE_LAYOUT_GENERAL, msaa_b.image, VK_IMAGE_LAYOUT_GENERAL, 1, &whole);
         }));
   gpu.destroy(texels);
   for (Image *image : {&a, &b, &half, &msaa_a, &msaa_b}) {
      vkDestroyImage(gpu.device, image->image, nullptr);
      vkFreeMemory(gpu.device, image->memory, nullptr);
   }
   return 0;
}

/* The simulator library preloaded into this process, if any: terakan-sim preloads it into one
 * program only (it leaves LD_PRELOAD at start-up), so the children get it back from here. */
std::string preloaded_simulator()
{
   std::ifstream maps("/proc/self/maps");
   std::string line;
   while (std::getline(maps, line)) {
      const size_t at = line.find('/');
      if (at != std::string::npos && line.find("libterakan_sim") != std::string::npos)
         return line.substr(at);
   }
   return {};
}

/* This program again with TERAKAN_DEBUG set for `path`, on a simulated card of its own. */
int run_child(const char *self, const char *path, const char *debug, const std::string &repeats)
{
   const std::string simulator = preloaded_simulator();
   std::vector<std::string> env_strings;
   for (char **e = environ; *e; e++)
      if (std::strncmp(*e, "TERAKAN_DEBUG=", 14) && (simulator.empty() || (std::strncmp(*e, "LD_PRELOAD=", 11) &&
                                                                          std::strncmp(*e, "TERAKAN_SIM_PRELOAD_ONCE=", 25))))
         env_strings.push_back(*e);
   env_strings.push_back(std::string("TERAKAN_DEBUG=") + debug);
   if (!simulator.empty()) {
      const char *preload = std::getenv("LD_PRELOAD");
      env_strings.push_back("LD_PRELOAD=" + simulator + (preload ? std::string(":") + preload : std::string()));
      env_strings.push_back("TERAKAN_SIM_PRELOAD_ONCE=" + simulator);
   }
   std::vector<char *> env;
   for (std::string &s : env_strings)
      env.push_back(s.data());
   env.push_back(nullptr);
   std::string child = "--child", path_arg = path, repeats_arg = repeats;
   char *args[] = {const_cast<char *>(self), child.data(), path_arg.data(), repeats_arg.data(), nullptr};
   pid_t pid;
   if (posix_spawn(&pid, "/proc/self/exe", nullptr, nullptr, args, env.data()) != 0) {
      std::perror("terakan-bench-copy: posix_spawn");
      return 1;
   }
   int status = 0;
   waitpid(pid, &status, 0);
   return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

} // namespace

int main(int argc, char **argv)
{
   if (argc == 4 && !std::strcmp(argv[1], "--child"))
      return run(argv[2], unsigned(std::max(1, std::atoi(argv[3]))));
   unsigned repeats = 5;
   for (int i = 1; i < argc; i++) {
      if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc) {
         repeats = unsigned(std::max(1, std::atoi(argv[++i])));
      } else {
         std::fprintf(stderr, "usage: terakan-bench-copy [--repeat N]\n");
         return 2;
      }
   }
   const char *chip = std::getenv("TERAKAN_SIM_CHIP");
   std::printf("terakan-bench-copy: 2048x2048 R8G8B8A8, simulated %s; recording: median of %u (old path's tiled copies: once)\n",
               chip ? chip : "(TERAKAN_SIM_CHIP unset)", repeats);
   std::fflush(stdout);
   int status = run_child(argv[0], "new", "streams", std::to_string(repeats));
   status |= run_child(argv[0], "old", "streams,dmacopies", std::to_string(repeats));
   return status;
}
