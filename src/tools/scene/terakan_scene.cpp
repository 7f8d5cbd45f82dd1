/* The main job: a rendered 3D scene. On the first Vulkan device whose name contains --device
 * TEXT (default "Terakan"), terakan-scene draws a few thousand triangles made on the CPU (a
 * tiled ground plane, tori, spheres and boxes) into a 4-sample colour and depth attachment
 * (D32_SFLOAT, depth-tested), resolved by the render pass into a single-sample image. The
 * pixel shader samples a mipmapped texture (levels made on the CPU, each uploaded with
 * vkCmdCopyBufferToImage; implicit level of detail, linear filtering between levels) and lights
 * the surfaces with diffuse and ambient light from per-vertex normals, the diffuse colour read
 * from a small ramp texture through a sampler with unnormalized coordinates. A compute shader
 * then reads the resolved picture (texelFetch), applies a tone curve and a vignette and writes
 * a storage buffer, which the program reads back and writes as a PNG.
 *
 * It prints the device's name, the picture's size and triangle count, the time pipeline
 * creation took, the CPU time of the frame (submission to completion) and the frame's GPU time
 * from two timestamp queries; on the simulated card those timestamps come from the simulator's
 * timing model of the board (src/sim/cp/timing_model.h), and the program says so: a modelled
 * duration, not a measured one.
 *
 * Vulkan 1.0 only (render pass and framebuffer objects), through the loader, so the same
 * program gives lavapipe's reference picture (--device llvmpipe). --validate enables the Khronos
 * validation layer with a messenger and fails the run if it reports any warning or error.
 * --no-culling draws back faces too (the picture must not change: a check of the meshes). */
#include <vulkan/vulkan.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "png_writer.h"
#include "scene_frag_spirv.h"
#include "scene_post_spirv.h"
#include "scene_vert_spirv.h"

namespace {

struct Options {
   std::string device = "Terakan";
   std::string output = "terakan-scene.png";
   uint32_t width = 256, height = 256;
   bool validate = false;
   bool culling = true;
};

const char *const program_name = "terakan-scene";

/* ---------------------------------------------------------------------------------------
 * The scene on the CPU: vectors, matrices, meshes. */

struct Vec3 {
   float x, y, z;
};
Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
Vec3 operator*(Vec3 a, float s) { return {a.x * s, a.y * s, a.z * s}; }
float dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
Vec3 cross(Vec3 a, Vec3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
Vec3 normalized(Vec3 a) { return a * (1.0f / std::sqrt(dot(a, a))); }

/* Row-major 4x4: m[row][column]. Uploaded column-major, as GLSL's mat4 wants. */
struct Mat4 {
   float m[4][4] = {};
};

Mat4 multiply(const Mat4 &a, const Mat4 &b)
{
   Mat4 r;
   for (int i = 0; i < 4; i++)
      for (int j = 0; j < 4; j++)
         for (int k = 0; k < 4; k++)
            r.m[i][j] += a.m[i][k] * b.m[k][j];
   return r;
}

/* Right-handed view space looking down -z; Vulkan's clip space: y down, depth 0 (near) to 1. */
Mat4 perspective(float fov_y, float aspect, float near, float far)
{
   const float f = 1.0f / std::tan(fov_y / 2);
   Mat4 p;
   p.m[0][0] = f / aspect;
   p.m[1][1] = -f;
   p.m[2][2] = far / (near - far);
   p.m[2][3] = near * far / (near - far);
   p.m[3][2] = -1;
   return p;
}

Mat4 look_at(Vec3 eye, Vec3 target, Vec3 up)
{
   const Vec3 f = normalized(target - eye), s = normalized(cross(f, up)), u = cross(s, f);
   Mat4 v;
   const Vec3 rows[3] = {s, u, f * -1.0f};
   for (int r = 0; r < 3; r++) {
      v.m[r][0] = rows[r].x;
      v.m[r][1] = rows[r].y;
      v.m[r][2] = rows[r].z;
      v.m[r][3] = -dot(rows[r], eye);
   }
   v.m[3][3] = 1;
   return v;
}

struct Vertex {
   float position[3];
   float normal[3];
   float uv[2];
   uint8_t colour[4]; /* R8G8B8A8_UNORM: albedo and, in alpha, how much of the texture shows */
};
static_assert(sizeof(Vertex) == 36, "the vertex layout the pipeline describes");

/* One object: its vertices and triangles, drawn by one vkCmdDrawIndexed (vertexOffset and
 * firstIndex into the shared buffers). */
struct Mesh {
   std::vector<Vertex> vertices;
   std::vector<uint32_t> indices;
};

struct Placement {
   Vec3 position;
   float yaw, pitch; /* radians: about y, then about x (applied first) */
   uint8_t colour[4];
};

Vec3 rotate(Vec3 v, const Placement &at)
{
   const float cp = std::cos(at.pitch), sp = std::sin(at.pitch);
   const Vec3 a = {v.x, v.y * cp - v.z * sp, v.y * sp + v.z * cp};
   const float cy = std::cos(at.yaw), sy = std::sin(at.yaw);
   return {a.x * cy + a.z * sy, a.y, -a.x * sy + a.z * cy};
}

void add_vertex(Mesh &mesh, Vec3 position, Vec3 normal, float u, float v, const Placement &at)
{
   const Vec3 p = rotate(position, at) + at.position, n = normalized(rotate(normal, at));
   Vertex vertex{{p.x, p.y, p.z}, {n.x, n.y, n.z}, {u, v}, {}};
   std::memcpy(vertex.colour, at.colour, 4);
   mesh.vertices.push_back(vertex);
}

/* A triangle wound counter-clockwise seen from the side its normals point to; degenerate
 * triangles (at a sphere's poles) are left out. */
void add_triangle(Mesh &mesh, uint32_t a, uint32_t b, uint32_t c)
{
   auto position = [&](uint32_t i) {
      const float *p = mesh.vertices[i].position;
      return Vec3{p[0], p[1], p[2]};
   };
   auto normal = [&](uint32_t i) {
      const float *n = mesh.vertices[i].normal;
      return Vec3{n[0], n[1], n[2]};
   };
   const Vec3 face = cross(position(b) - position(a), position(c) - position(a));
   if (dot(face, face) < 1e-12f)
      return;
   if (dot(face, normal(a) + normal(b) + normal(c)) < 0)
      std::swap(b, c);
   mesh.indices.insert(mesh.indices.end(), {a, b, c});
}

/* A grid of (columns + 1) x (rows + 1) vertices from point(u, v) and normal(u, v), u and v in
 * [0, 1], two triangles per cell. */
template <typename Point, typename Normal>
Mesh grid(uint32_t columns, uint32_t rows, Point point, Normal normal, float u_repeat, float v_repeat,
          const Placement &at)
{
   Mesh mesh;
   for (uint32_t j = 0; j <= rows; j++)
      for (uint32_t i = 0; i <= columns; i++) {
         const float u = float(i) / float(columns), v = float(j) / float(rows);
         add_vertex(mesh, point(u, v), normal(u, v), u * u_repeat, v * v_repeat, at);
      }
   for (uint32_t j = 0; j < rows; j++)
      for (uint32_t i = 0; i < columns; i++) {
         const uint32_t a = j * (columns + 1) + i, b = a + 1, c = a + columns + 1, d = c + 1;
         add_triangle(mesh, a, b, d);
         add_triangle(mesh, a, d, c);
      }
   return mesh;
}

const float pi = 3.14159265358979f;

Mesh ground(float half_size, uint32_t cells, float uv_per_unit, const Placement &at)
{
   return grid(
      cells, cells,
      [&](float u, float v) { return Vec3{(u * 2 - 1) * half_size, 0, (v * 2 - 1) * half_size}; },
      [](float, float) { return Vec3{0, 1, 0}; }, 2 * half_size * uv_per_unit, 2 * half_size * uv_per_unit, at);
}

Mesh torus(float major, float minor, uint32_t around, uint32_t tube, float u_repeat, const Placement &at)
{
   return grid(
      around, tube,
      [&](float u, float v) {
         const float a = u * 2 * pi, b = v * 2 * pi, r = major + minor * std::cos(b);
         return Vec3{r * std::cos(a), minor * std::sin(b), r * std::sin(a)};
      },
      [&](float u, float v) {
         const float a = u * 2 * pi, b = v * 2 * pi;
         return Vec3{std::cos(b) * std::cos(a), std::sin(b), std::cos(b) * std::sin(a)};
      },
      u_repeat, 1, at);
}

Mesh sphere(float radius, uint32_t slices, uint32_t stacks, float u_repeat, const Placement &at)
{
   auto normal = [](float u, float v) {
      const float a = u * 2 * pi, b = v * pi;
      return Vec3{std::sin(b) * std::cos(a), std::cos(b), std::sin(b) * std::sin(a)};
   };
   return grid(
      slices, stacks, [&](float u, float v) { return normal(u, v) * radius; }, normal, u_repeat, u_repeat / 2, at);
}

Mesh box(Vec3 half, const Placement &at)
{
   Mesh mesh;
   const Vec3 axes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
   for (int axis = 0; axis < 3; axis++)
      for (float sign : {-1.0f, 1.0f}) {
         const Vec3 n = axes[axis] * sign, s = axes[(axis + 1) % 3], t = axes[(axis + 2) % 3];
         const Vec3 centre = {n.x * half.x, n.y * half.y, n.z * half.z};
         const Vec3 hs = {s.x * half.x, s.y * half.y, s.z * half.z};
         const Vec3 ht = {t.x * half.x, t.y * half.y, t.z * half.z};
         const uint32_t base = uint32_t(mesh.vertices.size());
         for (int corner = 0; corner < 4; corner++) {
            const float a = corner & 1 ? 1.0f : -1.0f, b = corner & 2 ? 1.0f : -1.0f;
            add_vertex(mesh, centre + hs * a + ht * b, n, (a + 1) / 2, (b + 1) / 2, at);
         }
         add_triangle(mesh, base, base + 1, base + 3);
         add_triangle(mesh, base, base + 3, base + 2);
      }
   return mesh;
}

/* Nothing touches anything else: where two surfaces cross, which of them covers the samples
 * on the crossing line depends on the last bits of interpolated depth, which two correct
 * implementations may round differently. */
std::vector<Mesh> build_scene()
{
   std::vector<Mesh> meshes;
   meshes.push_back(ground(6, 20, 0.35f, {{0, 0, 0}, 0, 0, {255, 255, 255, 255}}));
   meshes.push_back(torus(1.0f, 0.33f, 40, 16, 6, {{-1.7f, 1.45f, -0.3f}, 0.5f, 1.35f, {250, 150, 70, 90}}));
   meshes.push_back(torus(0.75f, 0.22f, 32, 12, 4, {{2.9f, 0.3f, -2.9f}, 0.2f, 0.0f, {120, 220, 140, 60}}));
   meshes.push_back(sphere(0.95f, 32, 18, 4, {{1.35f, 1.05f, 0.5f}, 0.3f, 0.0f, {110, 150, 255, 140}}));
   meshes.push_back(sphere(0.45f, 20, 12, 2, {{-0.2f, 0.55f, 1.9f}, 0, 0, {240, 240, 240, 0}}));
   meshes.push_back(box({0.55f, 0.55f, 0.55f}, {{-3.3f, 0.6f, 0.9f}, 0.6f, 0, {255, 230, 190, 255}}));
   meshes.push_back(box({0.4f, 0.3f, 0.7f}, {{3.4f, 0.35f, 1.1f}, -0.4f, 0, {200, 120, 200, 200}}));
   meshes.push_back(box({0.35f, 0.35f, 0.35f}, {{-0.4f, 0.4f, -2.6f}, 0.9f, 0.5f, {255, 255, 120, 160}}));
   return meshes;
}

/* The tile texture: warm tiles with darker grout and a little deterministic noise. Level 0 is
 * drawn; each further level averages 2x2 texels of the one above (rounded). */
const uint32_t tile_size = 128;

std::vector<std::vector<uint8_t>> tile_levels()
{
   std::vector<std::vector<uint8_t>> levels(1, std::vector<uint8_t>(tile_size * tile_size * 4));
   for (uint32_t y = 0; y < tile_size; y++)
      for (uint32_t x = 0; x < tile_size; x++) {
         const uint32_t tx = x / 32, ty = y / 32;
         const bool grout = x % 32 < 3 || y % 32 < 3;
         uint32_t hash = (x * 73856093u) ^ (y * 19349663u);
         hash = (hash ^ (hash >> 13)) * 0x5bd1e995u;
         const int noise = int(hash >> 28) - 8;
         int r, g, b;
         if (grout) {
            r = 90, g = 84, b = 78;
         } else if ((tx + ty) % 2) {
            r = 235, g = 205, b = 160;
         } else {
            r = 200, g = 120, b = 90;
         }
         /* a soft bevel towards each tile's edges */
         const int ex = int(x % 32), ey = int(y % 32);
         const int edge = std::min(std::min(ex - 3, 31 - ex), std::min(ey - 3, 31 - ey));
         const int shade = grout ? 0 : std::max(0, 6 - edge) * 5;
         uint8_t *texel = &levels[0][(y * tile_size + x) * 4];
         texel[0] = uint8_t(std::clamp(r + noise - shade, 0, 255));
         texel[1] = uint8_t(std::clamp(g + noise - shade, 0, 255));
         texel[2] = uint8_t(std::clamp(b + noise - shade, 0, 255));
         texel[3] = 255;
      }
   for (uint32_t size = tile_size / 2; size >= 1; size /= 2) {
      const std::vector<uint8_t> &above = levels.back();
      std::vector<uint8_t> level(size * size * 4);
      for (uint32_t y = 0; y < size; y++)
         for (uint32_t x = 0; x < size; x++)
            for (uint32_t c = 0; c < 4; c++) {
               auto at = [&](uint32_t ax, uint32_t ay) { return uint32_t(above[(ay * size * 2 + ax) * 4 + c]); };
               level[(y * size + x) * 4 + c] =
                  uint8_t((at(2 * x, 2 * y) + at(2 * x + 1, 2 * y) + at(2 * x, 2 * y + 1) +
                           at(2 * x + 1, 2 * y + 1) + 2) / 4);
            }
      levels.push_back(std::move(level));
   }
   return levels;
}

/* The light's colour by how directly a surface faces it: cool and dim at grazing angles,
 * warm and bright facing it. Read with unnormalized coordinates (texel units). */
const uint32_t ramp_size = 8;
const uint8_t ramp_texels[ramp_size][4] = {
   {40, 50, 110, 255},  {70, 80, 150, 255},  {110, 115, 175, 255}, {150, 150, 185, 255},
   {190, 180, 180, 255}, {225, 205, 170, 255}, {245, 225, 175, 255}, {255, 245, 215, 255},
};


/* Whether Terakan's simulator (libterakan_sim.so, preloaded) is in this process: then the
 * device is simulated and its timestamps are the simulator's model of time. */
bool simulator_loaded()
{
   std::ifstream maps("/proc/self/maps");
   std::string line;
   while (std::getline(maps, line))
      if (line.find("libterakan_sim") != std::string::npos)
         return true;
   return false;
}

/* ---------------------------------------------------------------------------------------
 * Vulkan. */

struct Failure {
   std::string what;
};

void check(VkResult result, const char *what)
{
   if (result != VK_SUCCESS)
      throw Failure{std::string(what) + " failed (VkResult " + std::to_string(int(result)) + ")"};
}

uint32_t validation_messages = 0;

/* Validation and performance messages of warning or error severity count; the loader's own
 * general warnings (a layer disabled by VK_LOADER_LAYERS_DISABLE, say) are only shown. */
VKAPI_ATTR VkBool32 VKAPI_CALL on_validation_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                       VkDebugUtilsMessageTypeFlagsEXT type,
                                                       const VkDebugUtilsMessengerCallbackDataEXT *data, void *)
{
   const bool counts = (type & ~VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT) ||
                       severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
   if (counts)
      validation_messages++;
   std::fprintf(stderr, "%s: %s: %s\n", program_name, counts ? "validation" : "loader note", data->pMessage);
   return VK_FALSE;
}

struct Buffer {
   VkBuffer buffer = VK_NULL_HANDLE;
   VkDeviceMemory memory = VK_NULL_HANDLE;
   void *map = nullptr;
};

struct Image {
   VkImage image = VK_NULL_HANDLE;
   VkDeviceMemory memory = VK_NULL_HANDLE;
   VkImageView view = VK_NULL_HANDLE;
};

class Renderer {
public:
   explicit Renderer(const Options &options) : options_(options) {}
   ~Renderer();
   bool run();

private:
   void create_instance_and_device();
   uint32_t memory_type(uint32_t bits, VkMemoryPropertyFlags wanted, VkMemoryPropertyFlags fallback) const;
   Buffer make_buffer(VkDeviceSize size, VkBufferUsageFlags usage, const void *data);
   Image make_image(VkFormat format, uint32_t width, uint32_t height, uint32_t levels, VkSampleCountFlagBits samples,
                    VkImageUsageFlags usage, VkImageAspectFlags aspect);
   VkShaderModule make_module(const uint32_t *code, size_t size);
   void upload_textures();
   void submit_and_wait(VkCommandBuffer commands);

   const Options &options_;
   VkInstance instance_ = VK_NULL_HANDLE;
   VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
   VkPhysicalDevice physical_ = VK_NULL_HANDLE;
   VkPhysicalDeviceProperties properties_{};
   VkPhysicalDeviceMemoryProperties memory_properties_{};
   uint32_t family_ = 0, timestamp_bits_ = 0;
   VkDevice device_ = VK_NULL_HANDLE;
   VkQueue queue_ = VK_NULL_HANDLE;
   VkCommandPool command_pool_ = VK_NULL_HANDLE;
   VkFence fence_ = VK_NULL_HANDLE;

   std::vector<Buffer> buffers_;
   std::vector<Image> images_;
   std::vector<VkSampler> samplers_;
   std::vector<VkShaderModule> modules_;
   Image tiles_, ramp_;
   VkDescriptorSetLayout scene_set_layout_ = VK_NULL_HANDLE, post_set_layout_ = VK_NULL_HANDLE;
   VkPipelineLayout scene_layout_ = VK_NULL_HANDLE, post_layout_ = VK_NULL_HANDLE;
   VkRenderPass render_pass_ = VK_NULL_HANDLE;
   VkFramebuffer framebuffer_ = VK_NULL_HANDLE;
   VkPipeline scene_pipeline_ = VK_NULL_HANDLE, post_pipeline_ = VK_NULL_HANDLE;
   VkDescriptorPool descriptor_pool_ = VK_NULL_HANDLE;
   VkQueryPool query_pool_ = VK_NULL_HANDLE;
};

Renderer::~Renderer()
{
   if (device_) {
      vkDeviceWaitIdle(device_);
      vkDestroyQueryPool(device_, query_pool_, nullptr);
      vkDestroyDescriptorPool(device_, descriptor_pool_, nullptr);
      vkDestroyPipeline(device_, scene_pipeline_, nullptr);
      vkDestroyPipeline(device_, post_pipeline_, nullptr);
      vkDestroyFramebuffer(device_, framebuffer_, nullptr);
      vkDestroyRenderPass(device_, render_pass_, nullptr);
      vkDestroyPipelineLayout(device_, scene_layout_, nullptr);
      vkDestroyPipelineLayout(device_, post_layout_, nullptr);
      vkDestroyDescriptorSetLayout(device_, scene_set_layout_, nullptr);
      vkDestroyDescriptorSetLayout(device_, post_set_layout_, nullptr);
      for (VkShaderModule module : modules_)
         vkDestroyShaderModule(device_, module, nullptr);
      for (VkSampler sampler : samplers_)
         vkDestroySampler(device_, sampler, nullptr);
      for (const Image &image : images_) {
         vkDestroyImageView(device_, image.view, nullptr);
         vkDestroyImage(device_, image.image, nullptr);
         vkFreeMemory(device_, image.memory, nullptr);
      }
      for (const Buffer &buffer : buffers_) {
         vkDestroyBuffer(device_, buffer.buffer, nullptr);
         vkFreeMemory(device_, buffer.memory, nullptr);
      }
      vkDestroyFence(device_, fence_, nullptr);
      vkDestroyCommandPool(device_, command_pool_, nullptr);
      vkDestroyDevice(device_, nullptr);
   }
   if (messenger_) {
      auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
         vkGetInstanceProcAddr(instance_, "vkDestroyDebugUtilsMessengerEXT"));
      if (destroy)
         destroy(instance_, messenger_, nullptr);
   }
   if (instance_)
      vkDestroyInstance(instance_, nullptr);
}

void Renderer::create_instance_and_device()
{
   VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
   app.pApplicationName = program_name;
   app.apiVersion = VK_API_VERSION_1_0;
   VkInstanceCreateInfo instance_info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
   instance_info.pApplicationInfo = &app;
   const char *layer = "VK_LAYER_KHRONOS_validation";
   const char *extension = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
   VkDebugUtilsMessengerCreateInfoEXT messenger_info{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
   messenger_info.messageSeverity =
      VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
   messenger_info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                                VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                                VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
   messenger_info.pfnUserCallback = on_validation_message;
   if (options_.validate) {
      instance_info.enabledLayerCount = 1;
      instance_info.ppEnabledLayerNames = &layer;
      instance_info.enabledExtensionCount = 1;
      instance_info.ppEnabledExtensionNames = &extension;
      instance_info.pNext = &messenger_info; /* also covers instance creation and destruction */
   }
   const VkResult created = vkCreateInstance(&instance_info, nullptr, &instance_);
   if (created == VK_ERROR_LAYER_NOT_PRESENT)
      throw Failure{"--validate: the Khronos validation layer (VK_LAYER_KHRONOS_validation) is not installed"};
   check(created, "vkCreateInstance");
   if (options_.validate) {
      auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
         vkGetInstanceProcAddr(instance_, "vkCreateDebugUtilsMessengerEXT"));
      if (!create)
         throw Failure{"the validation layer offers no VK_EXT_debug_utils"};
      check(create(instance_, &messenger_info, nullptr, &messenger_), "vkCreateDebugUtilsMessengerEXT");
   }

   uint32_t count = 0;
   vkEnumeratePhysicalDevices(instance_, &count, nullptr);
   std::vector<VkPhysicalDevice> devices(count);
   vkEnumeratePhysicalDevices(instance_, &count, devices.data());
   for (VkPhysicalDevice candidate : devices) {
      vkGetPhysicalDeviceProperties(candidate, &properties_);
      if (std::strstr(properties_.deviceName, options_.device.c_str())) {
         physical_ = candidate;
         break;
      }
   }
   if (!physical_)
      throw Failure{"no Vulkan device named '" + options_.device + "'"};
   vkGetPhysicalDeviceMemoryProperties(physical_, &memory_properties_);

   /* 4 samples for colour and depth attachments (framebuffer*SampleCounts; required by
    * Vulkan, checked anyway so a refusal reads as one). No optional feature is enabled. */
   const VkSampleCountFlags samples = properties_.limits.framebufferColorSampleCounts &
                                      properties_.limits.framebufferDepthSampleCounts;
   if (!(samples & VK_SAMPLE_COUNT_4_BIT))
      throw Failure{"the device has no 4-sample colour and depth attachments"};

   /* The formats, with the features the scene uses of each (Vulkan requires all of them; a
    * device that lacks one is refused by name rather than left to fail later). */
   const struct {
      VkFormat format;
      VkFormatFeatureFlags optimal, buffer;
      const char *use;
   } formats[] = {
      {VK_FORMAT_R8G8B8A8_UNORM,
       VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT |
          VK_FORMAT_FEATURE_TRANSFER_DST_BIT | VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT,
       VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT, "textures, colour attachments and vertex colours"},
      {VK_FORMAT_D32_SFLOAT, VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT, 0, "the depth attachment"},
      {VK_FORMAT_R32G32B32_SFLOAT, 0, VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT, "positions and normals"},
      {VK_FORMAT_R32G32_SFLOAT, 0, VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT, "texture coordinates"},
   };
   for (const auto &wanted : formats) {
      VkFormatProperties format_properties;
      vkGetPhysicalDeviceFormatProperties(physical_, wanted.format, &format_properties);
      if ((format_properties.optimalTilingFeatures & wanted.optimal) != wanted.optimal ||
          (format_properties.bufferFeatures & wanted.buffer) != wanted.buffer)
         throw Failure{"the device lacks format " + std::to_string(int(wanted.format)) + " for " + wanted.use};
   }

   uint32_t family_count = 0;
   vkGetPhysicalDeviceQueueFamilyProperties(physical_, &family_count, nullptr);
   std::vector<VkQueueFamilyProperties> families(family_count);
   vkGetPhysicalDeviceQueueFamilyProperties(physical_, &family_count, families.data());
   const VkQueueFlags wanted = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
   while (family_ < family_count && (families[family_].queueFlags & wanted) != wanted)
      family_++;
   if (family_ == family_count)
      throw Failure{"no queue family with graphics and compute"};
   timestamp_bits_ = families[family_].timestampValidBits;

   const float priority = 1.0f;
   VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
   queue_info.queueFamilyIndex = family_;
   queue_info.queueCount = 1;
   queue_info.pQueuePriorities = &priority;
   VkDeviceCreateInfo device_info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
   device_info.queueCreateInfoCount = 1;
   device_info.pQueueCreateInfos = &queue_info;
   check(vkCreateDevice(physical_, &device_info, nullptr, &device_), "vkCreateDevice");
   vkGetDeviceQueue(device_, family_, 0, &queue_);

   VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
   pool_info.queueFamilyIndex = family_;
   check(vkCreateCommandPool(device_, &pool_info, nullptr, &command_pool_), "vkCreateCommandPool");
   VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
   check(vkCreateFence(device_, &fence_info, nullptr, &fence_), "vkCreateFence");
}

uint32_t Renderer::memory_type(uint32_t bits, VkMemoryPropertyFlags wanted, VkMemoryPropertyFlags fallback) const
{
   for (VkMemoryPropertyFlags flags : {wanted, fallback})
      for (uint32_t t = 0; t < memory_properties_.memoryTypeCount; t++)
         if ((bits >> t & 1) && (memory_properties_.memoryTypes[t].propertyFlags & flags) == flags)
            return t;
   throw Failure{"no suitable memory type"};
}

/* Host-visible, coherent buffers (vertices, indices, uniforms, staging, the output). */
Buffer Renderer::make_buffer(VkDeviceSize size, VkBufferUsageFlags usage, const void *data)
{
   Buffer buffer;
   VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
   info.size = size;
   info.usage = usage;
   check(vkCreateBuffer(device_, &info, nullptr, &buffer.buffer), "vkCreateBuffer");
   VkMemoryRequirements requirements;
   vkGetBufferMemoryRequirements(device_, buffer.buffer, &requirements);
   VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
   allocate.allocationSize = requirements.size;
   const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
   allocate.memoryTypeIndex = memory_type(requirements.memoryTypeBits, host, host);
   check(vkAllocateMemory(device_, &allocate, nullptr, &buffer.memory), "vkAllocateMemory");
   buffers_.push_back(buffer);
   check(vkBindBufferMemory(device_, buffer.buffer, buffer.memory, 0), "vkBindBufferMemory");
   check(vkMapMemory(device_, buffer.memory, 0, VK_WHOLE_SIZE, 0, &buffer.map), "vkMapMemory");
   buffers_.back().map = buffer.map;
   if (data)
      std::memcpy(buffer.map, data, size_t(size));
   return buffer;
}

Image Renderer::make_image(VkFormat format, uint32_t width, uint32_t height, uint32_t levels,
                           VkSampleCountFlagBits samples, VkImageUsageFlags usage, VkImageAspectFlags aspect)
{
   VkImageFormatProperties limits;
   if (vkGetPhysicalDeviceImageFormatProperties(physical_, format, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL, usage, 0,
                                                &limits) != VK_SUCCESS ||
       !(limits.sampleCounts & samples) || limits.maxMipLevels < levels)
      throw Failure{"the device cannot make a " + std::to_string(width) + "x" + std::to_string(height) +
                    " image of format " +
                    std::to_string(int(format)) + " with " + std::to_string(int(samples)) + " samples, " +
                    std::to_string(levels) + " levels and usage " + std::to_string(usage)};
   Image image;
   VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
   info.imageType = VK_IMAGE_TYPE_2D;
   info.format = format;
   info.extent = {width, height, 1};
   info.mipLevels = levels;
   info.arrayLayers = 1;
   info.samples = samples;
   info.tiling = VK_IMAGE_TILING_OPTIMAL;
   info.usage = usage;
   info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
   check(vkCreateImage(device_, &info, nullptr, &image.image), "vkCreateImage");
   VkMemoryRequirements requirements;
   vkGetImageMemoryRequirements(device_, image.image, &requirements);
   VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
   allocate.allocationSize = requirements.size;
   allocate.memoryTypeIndex =
      memory_type(requirements.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0);
   check(vkAllocateMemory(device_, &allocate, nullptr, &image.memory), "vkAllocateMemory");
   images_.push_back(image);
   check(vkBindImageMemory(device_, image.image, image.memory, 0), "vkBindImageMemory");
   VkImageViewCreateInfo view_info{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
   view_info.image = image.image;
   view_info.viewType = VK_IMAGE_VIEW_TYPE_2D;
   view_info.format = format;
   view_info.subresourceRange = {aspect, 0, levels, 0, 1};
   check(vkCreateImageView(device_, &view_info, nullptr, &image.view), "vkCreateImageView");
   images_.back().view = image.view;
   return image;
}

VkShaderModule Renderer::make_module(const uint32_t *code, size_t size)
{
   VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
   info.codeSize = size;
   info.pCode = code;
   VkShaderModule module;
   check(vkCreateShaderModule(device_, &info, nullptr, &module), "vkCreateShaderModule");
   modules_.push_back(module);
   return module;
}

void Renderer::submit_and_wait(VkCommandBuffer commands)
{
   VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
   submit.commandBufferCount = 1;
   submit.pCommandBuffers = &commands;
   check(vkQueueSubmit(queue_, 1, &submit, fence_), "vkQueueSubmit");
   check(vkWaitForFences(device_, 1, &fence_, VK_TRUE, UINT64_MAX), "vkWaitForFences");
   check(vkResetFences(device_, 1, &fence_), "vkResetFences");
}

/* The tile texture (every level, one vkCmdCopyBufferToImage each) and the ramp, through one
 * staging buffer, left in SHADER_READ_ONLY_OPTIMAL for the pixel shader. */
void Renderer::upload_textures()
{
   const auto levels = tile_levels();
   std::vector<uint8_t> staging_data;
   std::vector<VkBufferImageCopy> copies;
   for (uint32_t level = 0; level < levels.size(); level++) {
      const uint32_t size = tile_size >> level;
      VkBufferImageCopy copy{};
      copy.bufferOffset = staging_data.size();
      copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, level, 0, 1};
      copy.imageExtent = {size, size, 1};
      copies.push_back(copy);
      staging_data.insert(staging_data.end(), levels[level].begin(), levels[level].end());
   }
   const VkDeviceSize ramp_offset = staging_data.size();
   staging_data.insert(staging_data.end(), &ramp_texels[0][0], &ramp_texels[0][0] + sizeof(ramp_texels));
   const Buffer staging = make_buffer(staging_data.size(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT, staging_data.data());

   const VkImageUsageFlags usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
   tiles_ = make_image(VK_FORMAT_R8G8B8A8_UNORM, tile_size, tile_size, uint32_t(levels.size()), VK_SAMPLE_COUNT_1_BIT,
                       usage, VK_IMAGE_ASPECT_COLOR_BIT);
   ramp_ = make_image(VK_FORMAT_R8G8B8A8_UNORM, ramp_size, 1, 1, VK_SAMPLE_COUNT_1_BIT, usage,
                      VK_IMAGE_ASPECT_COLOR_BIT);

   VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
   allocate.commandPool = command_pool_;
   allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
   allocate.commandBufferCount = 1;
   VkCommandBuffer commands;
   check(vkAllocateCommandBuffers(device_, &allocate, &commands), "vkAllocateCommandBuffers");
   VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
   begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
   check(vkBeginCommandBuffer(commands, &begin), "vkBeginCommandBuffer");
   VkImageMemoryBarrier barriers[2] = {{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER},
                                       {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER}};
   const VkImage images[2] = {tiles_.image, ramp_.image};
   const uint32_t level_counts[2] = {uint32_t(levels.size()), 1};
   for (int i = 0; i < 2; i++) {
      barriers[i].srcAccessMask = 0;
      barriers[i].dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
      barriers[i].oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
      barriers[i].newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
      barriers[i].srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
      barriers[i].dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
      barriers[i].image = images[i];
      barriers[i].subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, level_counts[i], 0, 1};
   }
   vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                        nullptr, 2, barriers);
   for (const VkBufferImageCopy &copy : copies)
      vkCmdCopyBufferToImage(commands, staging.buffer, tiles_.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copy);
   VkBufferImageCopy ramp_copy{};
   ramp_copy.bufferOffset = ramp_offset;
   ramp_copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
   ramp_copy.imageExtent = {ramp_size, 1, 1};
   vkCmdCopyBufferToImage(commands, staging.buffer, ramp_.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &ramp_copy);
   for (VkImageMemoryBarrier &barrier : barriers) {
      barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
      barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
      barrier.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
      barrier.newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
   }
   vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, 0, 0, nullptr,
                        0, nullptr, 2, barriers);
   check(vkEndCommandBuffer(commands), "vkEndCommandBuffer");
   submit_and_wait(commands);
   vkFreeCommandBuffers(device_, command_pool_, 1, &commands);
}

bool Renderer::run()
{
   create_instance_and_device();
   const uint32_t width = options_.width, height = options_.height;

   /* Geometry: every object's vertices and indices in one buffer each. */
   const std::vector<Mesh> meshes = build_scene();
   std::vector<Vertex> vertices;
   std::vector<uint32_t> indices;
   struct Draw {
      uint32_t first_index, index_count;
      int32_t vertex_offset;
   };
   std::vector<Draw> draws;
   for (const Mesh &mesh : meshes) {
      draws.push_back({uint32_t(indices.size()), uint32_t(mesh.indices.size()), int32_t(vertices.size())});
      vertices.insert(vertices.end(), mesh.vertices.begin(), mesh.vertices.end());
      indices.insert(indices.end(), mesh.indices.begin(), mesh.indices.end());
   }
   const Buffer vertex_buffer =
      make_buffer(vertices.size() * sizeof(Vertex), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, vertices.data());
   const Buffer index_buffer =
      make_buffer(indices.size() * sizeof(uint32_t), VK_BUFFER_USAGE_INDEX_BUFFER_BIT, indices.data());

   struct FrameUniforms {
      float view_projection[16]; /* column-major */
      float light_direction[4];
      float ambient[4];
   } frame{};
   const Mat4 view_projection = multiply(perspective(0.85f, float(width) / float(height), 0.5f, 40.0f),
                                         look_at({0.6f, 3.4f, 7.6f}, {0.1f, 0.7f, -0.2f}, {0, 1, 0}));
   for (int r = 0; r < 4; r++)
      for (int c = 0; c < 4; c++)
         frame.view_projection[c * 4 + r] = view_projection.m[r][c];
   const Vec3 light = normalized({-0.45f, 0.8f, 0.4f});
   const float light_direction[4] = {light.x, light.y, light.z, 0};
   const float ambient[4] = {0.22f, 0.24f, 0.3f, float(ramp_size - 1)};
   std::memcpy(frame.light_direction, light_direction, sizeof(light_direction));
   std::memcpy(frame.ambient, ambient, sizeof(ambient));
   const Buffer uniform_buffer = make_buffer(sizeof(frame), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, &frame);
   const Buffer output = make_buffer(VkDeviceSize(width) * height * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, nullptr);

   upload_textures();

   /* Samplers: the tiles' (trilinear, repeating), the ramp's (unnormalized coordinates: linear
    * within the level, which such samplers allow, nearest level 0, clamped to the edge) and
    * the post-process's (texelFetch ignores it, a combined image sampler needs one). */
   VkSamplerCreateInfo sampler_info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
   sampler_info.magFilter = sampler_info.minFilter = VK_FILTER_LINEAR;
   sampler_info.mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
   sampler_info.addressModeU = sampler_info.addressModeV = sampler_info.addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT;
   sampler_info.maxLod = VK_LOD_CLAMP_NONE;
   VkSampler tiles_sampler, ramp_sampler, post_sampler;
   check(vkCreateSampler(device_, &sampler_info, nullptr, &tiles_sampler), "vkCreateSampler");
   samplers_.push_back(tiles_sampler);
   sampler_info.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
   sampler_info.addressModeU = sampler_info.addressModeV = sampler_info.addressModeW =
      VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
   sampler_info.maxLod = 0;
   sampler_info.unnormalizedCoordinates = VK_TRUE;
   check(vkCreateSampler(device_, &sampler_info, nullptr, &ramp_sampler), "vkCreateSampler");
   samplers_.push_back(ramp_sampler);
   sampler_info.magFilter = sampler_info.minFilter = VK_FILTER_NEAREST;
   sampler_info.unnormalizedCoordinates = VK_FALSE;
   check(vkCreateSampler(device_, &sampler_info, nullptr, &post_sampler), "vkCreateSampler");
   samplers_.push_back(post_sampler);

   /* Attachments: 4-sample colour and depth, resolved into a single-sample image the
    * post-process samples. */
   const VkFormat colour_format = VK_FORMAT_R8G8B8A8_UNORM, depth_format = VK_FORMAT_D32_SFLOAT;
   const Image colour = make_image(colour_format, width, height, 1, VK_SAMPLE_COUNT_4_BIT,
                                   VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, VK_IMAGE_ASPECT_COLOR_BIT);
   const Image depth = make_image(depth_format, width, height, 1, VK_SAMPLE_COUNT_4_BIT,
                                  VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, VK_IMAGE_ASPECT_DEPTH_BIT);
   const Image resolved = make_image(colour_format, width, height, 1, VK_SAMPLE_COUNT_1_BIT,
                                     VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
                                     VK_IMAGE_ASPECT_COLOR_BIT);

   VkAttachmentDescription attachments[3] = {};
   attachments[0].format = colour_format;
   attachments[0].samples = VK_SAMPLE_COUNT_4_BIT;
   attachments[0].loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
   attachments[0].storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
   attachments[0].stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
   attachments[0].stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
   attachments[0].initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
   attachments[0].finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
   attachments[1] = attachments[0];
   attachments[1].format = depth_format;
   attachments[1].finalLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
   attachments[2] = attachments[0];
   attachments[2].samples = VK_SAMPLE_COUNT_1_BIT;
   attachments[2].loadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
   attachments[2].storeOp = VK_ATTACHMENT_STORE_OP_STORE;
   attachments[2].finalLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
   const VkAttachmentReference colour_reference{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
   const VkAttachmentReference depth_reference{1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
   const VkAttachmentReference resolve_reference{2, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
   VkSubpassDescription subpass{};
   subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
   subpass.colorAttachmentCount = 1;
   subpass.pColorAttachments = &colour_reference;
   subpass.pResolveAttachments = &resolve_reference;
   subpass.pDepthStencilAttachment = &depth_reference;
   /* The resolved picture is read by the compute shader after the render pass. */
   VkSubpassDependency dependency{};
   dependency.srcSubpass = 0;
   dependency.dstSubpass = VK_SUBPASS_EXTERNAL;
   dependency.srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
   dependency.dstStageMask = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
   dependency.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
   dependency.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
   VkRenderPassCreateInfo pass_info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
   pass_info.attachmentCount = 3;
   pass_info.pAttachments = attachments;
   pass_info.subpassCount = 1;
   pass_info.pSubpasses = &subpass;
   pass_info.dependencyCount = 1;
   pass_info.pDependencies = &dependency;
   check(vkCreateRenderPass(device_, &pass_info, nullptr, &render_pass_), "vkCreateRenderPass");
   const VkImageView views[3] = {colour.view, depth.view, resolved.view};
   VkFramebufferCreateInfo framebuffer_info{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
   framebuffer_info.renderPass = render_pass_;
   framebuffer_info.attachmentCount = 3;
   framebuffer_info.pAttachments = views;
   framebuffer_info.width = width;
   framebuffer_info.height = height;
   framebuffer_info.layers = 1;
   check(vkCreateFramebuffer(device_, &framebuffer_info, nullptr, &framebuffer_), "vkCreateFramebuffer");

   /* Descriptor set layouts, pipeline layouts and the sets. */
   const VkDescriptorSetLayoutBinding scene_bindings[3] = {
      {0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, nullptr},
      {1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr},
      {2, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr},
   };
   const VkDescriptorSetLayoutBinding post_bindings[2] = {
      {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
      {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
   };
   VkDescriptorSetLayoutCreateInfo set_layout_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
   set_layout_info.bindingCount = 3;
   set_layout_info.pBindings = scene_bindings;
   check(vkCreateDescriptorSetLayout(device_, &set_layout_info, nullptr, &scene_set_layout_),
         "vkCreateDescriptorSetLayout");
   set_layout_info.bindingCount = 2;
   set_layout_info.pBindings = post_bindings;
   check(vkCreateDescriptorSetLayout(device_, &set_layout_info, nullptr, &post_set_layout_),
         "vkCreateDescriptorSetLayout");
   VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
   layout_info.setLayoutCount = 1;
   layout_info.pSetLayouts = &scene_set_layout_;
   check(vkCreatePipelineLayout(device_, &layout_info, nullptr, &scene_layout_), "vkCreatePipelineLayout");
   const VkPushConstantRange size_range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 8};
   layout_info.pSetLayouts = &post_set_layout_;
   layout_info.pushConstantRangeCount = 1;
   layout_info.pPushConstantRanges = &size_range;
   check(vkCreatePipelineLayout(device_, &layout_info, nullptr, &post_layout_), "vkCreatePipelineLayout");

   const VkDescriptorPoolSize pool_sizes[3] = {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1},
                                               {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 3},
                                               {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}};
   VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
   pool_info.maxSets = 2;
   pool_info.poolSizeCount = 3;
   pool_info.pPoolSizes = pool_sizes;
   check(vkCreateDescriptorPool(device_, &pool_info, nullptr, &descriptor_pool_), "vkCreateDescriptorPool");
   const VkDescriptorSetLayout set_layouts[2] = {scene_set_layout_, post_set_layout_};
   VkDescriptorSetAllocateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
   set_info.descriptorPool = descriptor_pool_;
   set_info.descriptorSetCount = 2;
   set_info.pSetLayouts = set_layouts;
   VkDescriptorSet sets[2];
   check(vkAllocateDescriptorSets(device_, &set_info, sets), "vkAllocateDescriptorSets");
   const VkDescriptorBufferInfo uniform_info{uniform_buffer.buffer, 0, VK_WHOLE_SIZE};
   const VkDescriptorBufferInfo output_info{output.buffer, 0, VK_WHOLE_SIZE};
   const VkDescriptorImageInfo image_infos[3] = {
      {tiles_sampler, tiles_.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
      {ramp_sampler, ramp_.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
      {post_sampler, resolved.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
   };
   VkWriteDescriptorSet writes[5];
   for (int i = 0; i < 5; i++) {
      writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
      writes[i].descriptorCount = 1;
   }
   writes[0].dstSet = sets[0];
   writes[0].dstBinding = 0;
   writes[0].descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
   writes[0].pBufferInfo = &uniform_info;
   for (int i = 0; i < 3; i++) {
      writes[1 + i].dstSet = sets[i < 2 ? 0 : 1];
      writes[1 + i].dstBinding = i < 2 ? uint32_t(1 + i) : 0;
      writes[1 + i].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
      writes[1 + i].pImageInfo = &image_infos[i];
   }
   writes[4].dstSet = sets[1];
   writes[4].dstBinding = 1;
   writes[4].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
   writes[4].pBufferInfo = &output_info;
   vkUpdateDescriptorSets(device_, 5, writes, 0, nullptr);

   /* The pipelines: their creation is timed (the driver compiles the shaders here). */
   const VkShaderModule vert = make_module(scene_vert_spirv, sizeof(scene_vert_spirv));
   const VkShaderModule frag = make_module(scene_frag_spirv, sizeof(scene_frag_spirv));
   const VkShaderModule post = make_module(scene_post_spirv, sizeof(scene_post_spirv));
   VkPipelineShaderStageCreateInfo stages[2] = {{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO},
                                                {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO}};
   stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
   stages[0].module = vert;
   stages[0].pName = "main";
   stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
   stages[1].module = frag;
   stages[1].pName = "main";
   const VkVertexInputBindingDescription binding{0, sizeof(Vertex), VK_VERTEX_INPUT_RATE_VERTEX};
   const VkVertexInputAttributeDescription attributes[4] = {
      {0, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(Vertex, position)},
      {1, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(Vertex, normal)},
      {2, 0, VK_FORMAT_R32G32_SFLOAT, offsetof(Vertex, uv)},
      {3, 0, VK_FORMAT_R8G8B8A8_UNORM, offsetof(Vertex, colour)},
   };
   VkPipelineVertexInputStateCreateInfo vertex_input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
   vertex_input.vertexBindingDescriptionCount = 1;
   vertex_input.pVertexBindingDescriptions = &binding;
   vertex_input.vertexAttributeDescriptionCount = 4;
   vertex_input.pVertexAttributeDescriptions = attributes;
   VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
   assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
   const VkViewport viewport{0, 0, float(width), float(height), 0, 1};
   const VkRect2D scissor{{0, 0}, {width, height}};
   VkPipelineViewportStateCreateInfo viewport_state{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
   viewport_state.viewportCount = 1;
   viewport_state.pViewports = &viewport;
   viewport_state.scissorCount = 1;
   viewport_state.pScissors = &scissor;
   VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
   raster.polygonMode = VK_POLYGON_MODE_FILL;
   /* add_triangle winds every triangle counter-clockwise seen from outside; the projection's
    * y flip keeps that counter-clockwise in framebuffer coordinates. Every mesh is closed (or,
    * the ground, seen from above), so --no-culling must give the same picture. */
   raster.cullMode = options_.culling ? VK_CULL_MODE_BACK_BIT : VK_CULL_MODE_NONE;
   raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
   raster.lineWidth = 1;
   VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
   multisample.rasterizationSamples = VK_SAMPLE_COUNT_4_BIT;
   VkPipelineDepthStencilStateCreateInfo depth_state{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
   depth_state.depthTestEnable = VK_TRUE;
   depth_state.depthWriteEnable = VK_TRUE;
   depth_state.depthCompareOp = VK_COMPARE_OP_LESS;
   VkPipelineColorBlendAttachmentState blend_attachment{};
   blend_attachment.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT |
                                     VK_COLOR_COMPONENT_A_BIT;
   VkPipelineColorBlendStateCreateInfo blend{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
   blend.attachmentCount = 1;
   blend.pAttachments = &blend_attachment;
   VkGraphicsPipelineCreateInfo graphics_info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
   graphics_info.stageCount = 2;
   graphics_info.pStages = stages;
   graphics_info.pVertexInputState = &vertex_input;
   graphics_info.pInputAssemblyState = &assembly;
   graphics_info.pViewportState = &viewport_state;
   graphics_info.pRasterizationState = &raster;
   graphics_info.pMultisampleState = &multisample;
   graphics_info.pDepthStencilState = &depth_state;
   graphics_info.pColorBlendState = &blend;
   graphics_info.layout = scene_layout_;
   graphics_info.renderPass = render_pass_;
   VkComputePipelineCreateInfo compute_info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
   compute_info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
   compute_info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
   compute_info.stage.module = post;
   compute_info.stage.pName = "main";
   compute_info.layout = post_layout_;
   const auto compile_start = std::chrono::steady_clock::now();
   check(vkCreateGraphicsPipelines(device_, VK_NULL_HANDLE, 1, &graphics_info, nullptr, &scene_pipeline_),
         "vkCreateGraphicsPipelines");
   check(vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &compute_info, nullptr, &post_pipeline_),
         "vkCreateComputePipelines");
   const double compile_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - compile_start).count();

   /* Two timestamps around the frame's work, if the queue has them. */
   if (timestamp_bits_) {
      VkQueryPoolCreateInfo query_info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
      query_info.queryType = VK_QUERY_TYPE_TIMESTAMP;
      query_info.queryCount = 2;
      check(vkCreateQueryPool(device_, &query_info, nullptr, &query_pool_), "vkCreateQueryPool");
   }

   /* The frame. */
   VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
   allocate.commandPool = command_pool_;
   allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
   allocate.commandBufferCount = 1;
   VkCommandBuffer commands;
   check(vkAllocateCommandBuffers(device_, &allocate, &commands), "vkAllocateCommandBuffers");
   VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
   begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
   check(vkBeginCommandBuffer(commands, &begin), "vkBeginCommandBuffer");
   if (query_pool_) {
      vkCmdResetQueryPool(commands, query_pool_, 0, 2);
      vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, query_pool_, 0);
   }
   VkClearValue clears[3] = {};
   clears[0].color = {{0.16f, 0.18f, 0.24f, 1.0f}};
   clears[1].depthStencil = {1.0f, 0};
   VkRenderPassBeginInfo pass_begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
   pass_begin.renderPass = render_pass_;
   pass_begin.framebuffer = framebuffer_;
   pass_begin.renderArea = scissor;
   pass_begin.clearValueCount = 3;
   pass_begin.pClearValues = clears;
   vkCmdBeginRenderPass(commands, &pass_begin, VK_SUBPASS_CONTENTS_INLINE);
   vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, scene_pipeline_);
   vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, scene_layout_, 0, 1, &sets[0], 0, nullptr);
   const VkDeviceSize zero = 0;
   vkCmdBindVertexBuffers(commands, 0, 1, &vertex_buffer.buffer, &zero);
   vkCmdBindIndexBuffer(commands, index_buffer.buffer, 0, VK_INDEX_TYPE_UINT32);
   for (const Draw &draw : draws)
      vkCmdDrawIndexed(commands, draw.index_count, 1, draw.first_index, draw.vertex_offset, 0);
   vkCmdEndRenderPass(commands);
   vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, post_pipeline_);
   vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, post_layout_, 0, 1, &sets[1], 0, nullptr);
   const uint32_t size[2] = {width, height};
   vkCmdPushConstants(commands, post_layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(size), size);
   vkCmdDispatch(commands, (width + 7) / 8, (height + 7) / 8, 1);
   VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
   to_host.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
   to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
   vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0,
                        nullptr, 0, nullptr);
   if (query_pool_)
      vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, query_pool_, 1);
   check(vkEndCommandBuffer(commands), "vkEndCommandBuffer");

   const auto frame_start = std::chrono::steady_clock::now();
   submit_and_wait(commands);
   const double frame_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - frame_start).count();

   uint64_t stamps[2] = {};
   if (query_pool_)
      check(vkGetQueryPoolResults(device_, query_pool_, 0, 2, sizeof(stamps), stamps, sizeof(uint64_t),
                                  VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
            "vkGetQueryPoolResults");

   const bool written = terakan::tools::write_png(options_.output, width, height, static_cast<const uint32_t *>(output.map));

   std::printf("device: %s\n", properties_.deviceName);
   std::printf("picture: %ux%u, %zu triangles in %zu draws (%zu vertices), 4x multisampled and resolved, "
               "written to %s\n",
               width, height, indices.size() / 3, draws.size(), vertices.size(), options_.output.c_str());
   const bool simulated = simulator_loaded();
   std::printf("pipeline creation (graphics and compute; a driver may take the shaders from its disk cache): "
               "%.1f ms\n", compile_ms);
   std::printf("frame, CPU time from submission to completion: %.1f ms%s\n", frame_ms,
               simulated ? " (the simulator drawing it on this CPU)" : "");
   if (!query_pool_) {
      std::printf("frame, GPU time: not measured (the queue has no timestamps)\n");
   } else if (simulated) {
      const uint64_t mask = timestamp_bits_ >= 64 ? ~uint64_t(0) : (uint64_t(1) << timestamp_bits_) - 1;
      const double gpu_ms = double((stamps[1] - stamps[0]) & mask) * properties_.limits.timestampPeriod / 1e6;
      std::printf("frame, GPU time modelled by the simulator: %.3f ms (from timestamps; the simulator's timing "
                  "model of the board, src/sim/cp/timing_model.h, not a measurement)\n", gpu_ms);
   } else {
      const uint64_t mask = timestamp_bits_ >= 64 ? ~uint64_t(0) : (uint64_t(1) << timestamp_bits_) - 1;
      const double gpu_ms = double((stamps[1] - stamps[0]) & mask) * properties_.limits.timestampPeriod / 1e6;
      std::printf("frame, GPU time from timestamps: %.3f ms\n", gpu_ms);
   }
   if (options_.validate)
      std::printf("validation layer: %u messages\n", validation_messages);
   if (!written)
      std::fprintf(stderr, "%s: cannot write %s\n", program_name, options_.output.c_str());
   return written && validation_messages == 0;
}

} // namespace

int main(int argc, char **argv)
{
   Options options;
   for (int i = 1; i < argc; i++) {
      const std::string arg = argv[i];
      if (arg == "--device" && i + 1 < argc) {
         options.device = argv[++i];
      } else if (arg == "--output" && i + 1 < argc) {
         options.output = argv[++i];
      } else if (arg == "--size" && i + 2 < argc) {
         options.width = uint32_t(std::strtoul(argv[++i], nullptr, 10));
         options.height = uint32_t(std::strtoul(argv[++i], nullptr, 10));
      } else if (arg == "--validate") {
         options.validate = true;
      } else if (arg == "--no-culling") {
         options.culling = false;
      } else {
         std::fprintf(stderr,
                      "usage: %s [--device NAME] [--output FILE.png] [--size W H] [--validate] [--no-culling]\n",
                      program_name);
         return 2;
      }
   }
   if (options.width == 0 || options.height == 0 || options.width > 4096 || options.height > 4096) {
      std::fprintf(stderr, "%s: the size must be 1 to 4096 on each side\n", program_name);
      return 2;
   }
   bool ok = false;
   try {
      Renderer renderer(options);
      ok = renderer.run();
   } catch (const Failure &failure) {
      std::fprintf(stderr, "%s: %s\n", program_name, failure.what.c_str());
   }
   if (validation_messages)
      std::fprintf(stderr, "%s: %u validation or loader messages (warnings or errors)\n", program_name,
                   validation_messages);
   /* Messages during clean-up (objects left alive, say) fail the run too. */
   return ok && validation_messages == 0 ? 0 : 1;
}
