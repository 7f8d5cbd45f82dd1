/* Vertex and pixel shaders from the compiler, drawn by the simulator's draw path (run_draw,
 * with the register state a driver would program from the compile result: docs/compiler.md,
 * "Graphics ABI"), and the same SPIR-V drawn by lavapipe through the Vulkan loader
 * (vulkan_draw_runner.h): the two images must agree.
 *
 * GLSL pairs in tests/compiler/graphics are compiled to SPIR-V by glslangValidator at build
 * time (TERAKAN_GRAPHICS_SPIRV names the folder). Every program passed the bundle-rule
 * checker inside the compiler (an internal error otherwise) and again in the simulator.
 *
 * Against lavapipe, every pixel of every attachment is compared: both rasterizers sample at
 * pixel centres with the top-left rule on a 1/256 grid, and the scenes put their vertices on
 * that grid (and clip planes on pixel edges) so that snapping cannot differ. Values the
 * rasterizers interpolate (smooth, noperspective, PointCoord) may differ by 1/255 in an 8-bit
 * unorm channel: each computes in float with its own operation order. Everything else is exact:
 * coverage, flat values, integer and float attachments, depth.
 *
 * Some cases also keep an analytic check computed here (interpolation against a
 * double-precision barycentric reference within 1/255, exact attribute and index values),
 * which does not depend on lavapipe at all. */
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "compiler/compiler.h"
#include "compiler/isa/program.h"
#include "compiler/isa/words.h"
#include "core/host_memory.h"
#include "gfx/draw.h"
#include "hw/graphics_registers.h"
#include "hw/registers.h"
#include "hw/surface.h"
#include "hw/texture.h"
#include "vulkan_draw_runner.h"

namespace {

using namespace terakan;
using compiler::ShaderBinary;
using compiler::ShaderStage;

std::vector<uint32_t> load_spirv(const std::string &name)
{
   const char *folder = std::getenv("TERAKAN_GRAPHICS_SPIRV");
   const std::string path = std::string(folder ? folder : ".") + "/" + name + ".spv";
   std::ifstream file(path, std::ios::binary);
   std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
   std::vector<uint32_t> words(bytes.size() / 4);
   std::memcpy(words.data(), bytes.data(), words.size() * 4);
   return words;
}

uint32_t bits(float f)
{
   uint32_t v;
   std::memcpy(&v, &f, 4);
   return v;
}

uint8_t unorm8(double value)
{
   value = std::clamp(value, 0.0, 1.0);
   return uint8_t(std::lround(value * 255.0));
}

constexpr unsigned size = 16; /* targets are 16x16 */
constexpr uint64_t vs_address = 0x100000, ps_address = 0x110000, vertex_address = 0x200000,
                   constants_address = 0x300000, target_address = 0x800000, target_stride = 0x10000,
                   depth_address = 0x900000;
/* Every dword of every target starts as this (RGBA8: bytes 22 33 44 55). */
constexpr uint32_t background = 0x55443322u;

/* A colour attachment format on both sides: the Vulkan format and CB_COLORn_INFO's FORMAT
 * and NUMBER_TYPE. */
struct TargetFormat {
   VkFormat vk;
   uint32_t cb_format, number_type;
   unsigned bytes;
};
const TargetFormat rgba8_unorm{VK_FORMAT_R8G8B8A8_UNORM, hw::Fmt8_8_8_8, hw::gfx::Unorm, 4};
const TargetFormat rgba32_float{VK_FORMAT_R32G32B32A32_SFLOAT, hw::Fmt32_32_32_32Float, hw::gfx::Float, 16};
const TargetFormat rgba32_uint{VK_FORMAT_R32G32B32A32_UINT, hw::Fmt32_32_32_32, hw::gfx::Uint, 16};
const TargetFormat rgba32_sint{VK_FORMAT_R32G32B32A32_SINT, hw::Fmt32_32_32_32, hw::gfx::Sint, 16};

/* One vertex attribute in its own binding: whole elements, `stride` bytes apart. */
struct Attribute {
   unsigned location;
   VkFormat format;
   uint32_t stride;
   std::vector<uint8_t> data;
   bool per_instance = false;
};

/* The fetch resource's format for a Vulkan attribute format (what the driver's table will
 * hold): data format, number format (0 norm, 1 int, 2 scaled), sign, and the swizzle that
 * fills missing components as Vulkan does (0, 0, 1). */
struct FetchFormat {
   uint32_t data_format, num_format;
   bool is_signed;
   std::array<uint32_t, 4> dst_sel;
};
FetchFormat fetch_format(VkFormat format)
{
   constexpr uint32_t norm = 0, integer = 1, scaled = 2;
   switch (format) {
   case VK_FORMAT_R32G32B32A32_SFLOAT: return {hw::Fmt32_32_32_32Float, scaled, false, {0, 1, 2, 3}};
   case VK_FORMAT_R32G32_SFLOAT: return {hw::Fmt32_32Float, scaled, false, {0, 1, 4, 5}};
   case VK_FORMAT_R32_SFLOAT: return {hw::Fmt32Float, scaled, false, {0, 4, 4, 5}};
   case VK_FORMAT_R8G8B8A8_UNORM: return {hw::Fmt8_8_8_8, norm, false, {0, 1, 2, 3}};
   case VK_FORMAT_R32_UINT: return {hw::Fmt32, integer, false, {0, 4, 4, 5}};
   case VK_FORMAT_R32G32_SINT: return {hw::Fmt32_32, integer, true, {0, 1, 4, 5}};
   default: ADD_FAILURE() << "no fetch format for VkFormat " << format; return {};
   }
}

template <typename T> std::vector<uint8_t> as_bytes(const std::vector<T> &values)
{
   std::vector<uint8_t> out(values.size() * sizeof(T));
   std::memcpy(out.data(), values.data(), out.size());
   return out;
}

/* Clip-space positions at location 0, four floats a vertex: every scene's first attribute. */
Attribute clip_positions(const std::vector<float> &xyzw)
{
   return {0, VK_FORMAT_R32G32B32A32_SFLOAT, 16, as_bytes(xyzw)};
}

/* What one case draws, described once for the simulator and for lavapipe. */
struct Scene {
   std::string vs, ps; /* SPIR-V names (GLSL file names) */
   std::vector<Attribute> attributes;
   std::vector<TargetFormat> targets{rgba8_unorm};
   bool depth = false; /* a 32-bit float depth buffer, cleared to 1.0, compare ALWAYS, written */
   bool points = false;
   uint32_t count = 0, instances = 1, first_vertex = 0, first_instance = 0;
};

/* The attachments after a draw: per target its texels (rows packed), and the depth. */
using Images = test::DrawImages;

/* A draw of a vertex and a pixel shader: memory, register state (the RegisterMaps base), and
 * the compile results' registers applied as a driver would. */
struct Draw : sim::RegisterMaps {
   hw::IsaClass isa;
   sim::HostMemory memory;
   sim::PipelineState state;
   std::vector<TargetFormat> targets;
   bool depth = false;
   uint64_t next_vertex_address = vertex_address;

   Draw(hw::IsaClass isa, const ShaderBinary &vs, const ShaderBinary &ps, const Scene &scene)
      : isa(isa), targets(scene.targets), depth(scene.depth)
   {
      using namespace hw::gfx;
      auto code = [&](uint64_t address, const std::vector<uint32_t> &words) {
         auto &buffer = memory.add(address, words.size() * 4 + 256);
         std::memcpy(buffer.bytes.data(), words.data(), words.size() * 4);
      };
      code(vs_address, vs.code);
      code(ps_address, ps.code);
      config[hw::reg::VGT_PRIMITIVE_TYPE] = scene.points ? PointList : TriangleList;
      context[SQ_PGM_START_VS] = uint32_t(vs_address >> 8);
      context[SQ_PGM_RESOURCES_VS] = vs.gprs | (vs.stack_entries << 8);
      context[SQ_PGM_START_PS] = uint32_t(ps_address >> 8);
      context[SQ_PGM_RESOURCES_PS] = ps.gprs | (ps.stack_entries << 8);
      /* The vertex shader's parameters and the pixel shader's inputs (GraphicsInterface). */
      const compiler::GraphicsInterface &out = vs.graphics, &in = ps.graphics;
      context[SPI_VS_OUT_CONFIG] = out.spi_vs_out_config;
      for (size_t p = 0; p < out.param_semantics.size(); p++)
         context[SPI_VS_OUT_ID_0 + 4 * uint32_t(p / 4)] |= uint32_t(out.param_semantics[p]) << (8 * (p % 4));
      context[PA_CL_VS_OUT_CNTL] = out.pa_cl_vs_out_cntl;
      for (size_t n = 0; n < in.spi_ps_input_cntl.size(); n++)
         context[SPI_PS_INPUT_CNTL_0 + 4 * uint32_t(n)] = in.spi_ps_input_cntl[n];
      context[SPI_PS_IN_CONTROL_0] = in.spi_ps_in_control_0;
      context[SPI_PS_IN_CONTROL_1] = in.spi_ps_in_control_1;
      context[SPI_BARYC_CNTL] = in.spi_baryc_cntl;
      context[SPI_INPUT_Z] = in.spi_input_z;
      context[SPI_INTERP_CONTROL_0] = in.spi_interp_control_0;
      context[SQ_PGM_EXPORTS_PS] = in.sq_pgm_exports_ps;
      context[DB_SHADER_CONTROL] = in.db_shader_control;
      /* The draw parameters (vkCmdDraw's firstVertex and firstInstance): VGT_INDX_OFFSET and
       * SQ_VTX_START_INST_LOC, and the VS's driver constants when it reads them. */
      context[VGT_INDX_OFFSET] = scene.first_vertex;
      ctl_consts[SQ_VTX_START_INST_LOC] = scene.first_instance;
      if (vs.uses_driver_constants) {
         auto &constants = memory.add(constants_address, 256);
         const uint32_t words[3] = {scene.first_vertex, scene.first_instance, 0 /* DrawIndex */};
         static_assert(compiler::base_vertex_constant == 0 && compiler::base_instance_constant == 1 &&
                       compiler::draw_index_constant == 2);
         std::memcpy(constants.bytes.data(), words, sizeof(words));
         context[SQ_ALU_CONST_CACHE_VS_0 + 4] = uint32_t(constants_address >> 8);
         context[SQ_ALU_CONST_BUFFER_SIZE_VS_0 + 4] = 1;
      }
      /* Points: any size the shader asks for (PA_SU_POINT_MINMAX in 12.4 half sizes). */
      context[PA_SU_POINT_MINMAX] = 0xffffu << 16;
      /* Vulkan's viewport over the target: x_w = (x + 1) * 8, y_w = (y + 1) * 8 (y down),
       * z_w = z; pixel centres at .5; the 1/256 grid. */
      context[PA_CL_VTE_CNTL] = vte_viewport_enables | vte_w0_is_w;
      const float viewport[6] = {size / 2.0f, size / 2.0f, size / 2.0f, size / 2.0f, 1.0f, 0.0f};
      for (unsigned i = 0; i < 6; i++)
         context[PA_CL_VPORT_XSCALE_0 + 4 * i] = bits(viewport[i]);
      context[PA_CL_CLIP_CNTL] = 1u << 19; /* DX_CLIP_SPACE_DEF: Vulkan's z in [0, w] */
      context[PA_SC_VPORT_ZMIN_0] = bits(0.0f);
      context[PA_SC_VPORT_ZMAX_0] = bits(1.0f);
      context[isa == hw::IsaClass::Cayman ? CM_PA_SU_VTX_CNTL : PA_SU_VTX_CNTL] = 1 | (5u << 3);
      for (const auto &[tl, br] : {std::pair{PA_SC_SCREEN_SCISSOR_TL, PA_SC_SCREEN_SCISSOR_BR},
                                   std::pair{PA_SC_WINDOW_SCISSOR_TL, PA_SC_WINDOW_SCISSOR_BR},
                                   std::pair{PA_SC_GENERIC_SCISSOR_TL, PA_SC_GENERIC_SCISSOR_BR},
                                   std::pair{PA_SC_VPORT_SCISSOR_0_TL, PA_SC_VPORT_SCISSOR_0_BR}}) {
         context[tl] = 1u << 31;
         context[br] = size | (size << 16);
      }
      context[CB_COLOR_CONTROL] = (0xccu << 16) | (1u << 4);
      context[hw::reg::CB_TARGET_MASK] = (1u << (4 * targets.size())) - 1;
      context[0x28238 /* CB_SHADER_MASK */] = in.cb_shader_mask;
      for (unsigned t = 0; t < targets.size(); t++) {
         const uint64_t address = target_address + t * target_stride;
         auto &buffer = memory.add(address, size * size * targets[t].bytes);
         for (size_t p = 0; p < buffer.bytes.size() / 4; p++)
            std::memcpy(&buffer.bytes[p * 4], &background, 4);
         const uint32_t cb = hw::reg::CB_COLOR0_BASE + t * hw::reg::CB_COLOR_STRIDE;
         context[cb + hw::reg::Base] = uint32_t(address >> 8);
         context[cb + hw::reg::Pitch] = size / 8 - 1;
         context[cb + hw::reg::Slice] = size * size / 64 - 1;
         /* FORMAT [7:2], ARRAY_MODE [11:8] (1: linear general), NUMBER_TYPE [14:12]. */
         context[cb + hw::reg::Info] = (targets[t].cb_format << 2) | (1u << 8) | (targets[t].number_type << 12);
      }
      if (depth) {
         /* Z_32_FLOAT, 1D tiled (DB_Z_INFO ARRAY_MODE 2), every value 1.0; Z_ENABLE,
          * Z_WRITE_ENABLE, ZFUNC ALWAYS (DB_DEPTH_CONTROL). */
         auto &buffer = memory.add(depth_address, size * size * 4);
         const uint32_t one = bits(1.0f);
         for (size_t p = 0; p < size * size; p++)
            std::memcpy(&buffer.bytes[p * 4], &one, 4);
         context[hw::reg::DB_Z_INFO] = Depth32Float | (2u << 4);
         context[DB_Z_READ_BASE] = context[DB_Z_WRITE_BASE] = uint32_t(depth_address >> 8);
         context[DB_DEPTH_SIZE] = size / 8 - 1;
         context[DB_DEPTH_SLICE] = size * size / 64 - 1;
         context[hw::reg::DB_DEPTH_CONTROL] = (1u << 1) | (1u << 2) | (7u << 4);
      }
      for (const Attribute &a : scene.attributes)
         attribute(a);
      state.isa = isa;
      state.point_at(*this);
   }

   /* The attribute's fetch resource: VS buffer id 128 + location (compiler.h). */
   void attribute(const Attribute &a)
   {
      const uint64_t address = next_vertex_address;
      next_vertex_address += 0x1000;
      auto &buffer = memory.add(address, std::max<size_t>(a.data.size(), 16));
      std::memcpy(buffer.bytes.data(), a.data.data(), a.data.size());
      const FetchFormat f = fetch_format(a.format);
      const auto words = hw::reg::texel_buffer_fetch_resource(address, uint32_t(a.data.size()), a.stride,
                                                               f.data_format, f.num_format, f.is_signed, f.dst_sel);
      const unsigned slot = hw::gfx::vs_resource_base + compiler::vertex_input_first_resource + a.location;
      std::copy(words.begin(), words.end(), resources.begin() + size_t(slot) * 8);
   }

   std::string run(uint32_t count, uint32_t instances = 1)
   {
      sim::DrawCall call;
      call.count = count;
      call.instances = instances;
      sim::DispatchStatistics totals;
      sim::DrawStatistics statistics;
      return sim::run_draw(state, call, memory, sim::TraceLevel::None, totals, statistics);
   }

   const uint8_t *texel(unsigned target, unsigned x, unsigned y)
   {
      std::string error;
      const unsigned bytes = targets[target].bytes;
      return memory.resolve(target_address + target * target_stride + (size_t(y) * size + x) * bytes, bytes, error);
   }

   std::array<uint8_t, 4> pixel(unsigned target, unsigned x, unsigned y)
   {
      const uint8_t *p = texel(target, x, y);
      return {p[0], p[1], p[2], p[3]};
   }

   std::array<uint32_t, 4> dwords(unsigned target, unsigned x, unsigned y)
   {
      std::array<uint32_t, 4> out;
      std::memcpy(out.data(), texel(target, x, y), 16);
      return out;
   }

   float depth_at(unsigned x, unsigned y)
   {
      std::string error;
      const uint64_t offset =
         hw::surface_level_texel_offset(hw::ArrayMode::Tiled1DThin1, size, size, 4, true, x, y, 0);
      float value;
      std::memcpy(&value, memory.resolve(depth_address + offset, 4, error), 4);
      return value;
   }

   Images images()
   {
      Images out;
      for (unsigned t = 0; t < targets.size(); t++) {
         std::vector<uint8_t> texels;
         for (unsigned y = 0; y < size; y++)
            for (unsigned x = 0; x < size; x++) {
               const uint8_t *p = texel(t, x, y);
               texels.insert(texels.end(), p, p + targets[t].bytes);
            }
         out.targets.push_back(std::move(texels));
      }
      if (depth)
         for (unsigned y = 0; y < size; y++)
            for (unsigned x = 0; x < size; x++)
               out.depth.push_back(depth_at(x, y));
      return out;
   }
};

/* lavapipe, made once for the whole run (an instance and device take a while). */
test::VulkanDrawRunner &lavapipe()
{
   static test::VulkanDrawRunner runner("llvmpipe");
   return runner;
}

/* Terakan's driver on the simulated chip TERAKAN_DRIVER_CHIP names (the compiler-graphics-
 * driver-* tests: the same scenes through vkCreateGraphicsPipelines and vkCmdDraw, on the
 * chip the simulator presents); nullptr in the plain compiler-graphics test. */
const char *driver_chip()
{
   return std::getenv("TERAKAN_DRIVER_CHIP");
}

test::VulkanDrawRunner &terakan_driver()
{
   static test::VulkanDrawRunner runner("Terakan");
   return runner;
}

/* The scene drawn through the loader by `runner` (lavapipe, or Terakan's driver) from the same
 * SPIR-V. */
bool draw_on_device(test::VulkanDrawRunner &runner, const char *name, const Scene &scene, Images &images)
{
   if (!runner.available()) {
      ADD_FAILURE() << name << ": " << runner.error();
      return false;
   }
   test::DrawJob job;
   job.vertex_spirv = load_spirv(scene.vs);
   job.fragment_spirv = load_spirv(scene.ps);
   for (const Attribute &a : scene.attributes)
      job.attributes.push_back({a.location, a.format, a.stride,
                                a.per_instance ? VK_VERTEX_INPUT_RATE_INSTANCE : VK_VERTEX_INPUT_RATE_VERTEX, a.data});
   for (const TargetFormat &t : scene.targets) {
      test::DrawJob::Target target;
      target.format = t.vk;
      /* The simulator's background, bit for bit. */
      if (t.vk == VK_FORMAT_R8G8B8A8_UNORM) {
         for (unsigned c = 0; c < 4; c++)
            target.clear.float32[c] = float((background >> (8 * c)) & 0xff) / 255.0f;
      } else {
         for (unsigned c = 0; c < 4; c++)
            target.clear.uint32[c] = background;
      }
      job.targets.push_back(target);
   }
   job.depth = scene.depth;
   job.depth_clear = 1.0f;
   job.width = job.height = size;
   job.topology = scene.points ? VK_PRIMITIVE_TOPOLOGY_POINT_LIST : VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
   job.vertex_count = scene.count;
   job.instance_count = scene.instances;
   job.first_vertex = scene.first_vertex;
   job.first_instance = scene.first_instance;
   const unsigned messages = runner.validation_messages();
   std::string error;
   if (!runner.run(job, images, error)) {
      ADD_FAILURE() << name << ": " << error;
      return false;
   }
   EXPECT_EQ(runner.validation_messages(), messages) << "the validation layer reported the " << name << " draw";
   return true;
}

bool draw_on_lavapipe(const Scene &scene, Images &images)
{
   return draw_on_device(lavapipe(), "lavapipe", scene, images);
}

/* Every texel of every attachment: 8-bit unorm channels within `unorm_tolerance[t]` (1 where
 * target t holds interpolated values, else 0), 32-bit channels and depth exactly. */
void expect_same_images(const Scene &scene, const Images &sim, const Images &reference,
                        const std::vector<unsigned> &unorm_tolerance = {})
{
   ASSERT_EQ(sim.targets.size(), reference.targets.size());
   for (size_t t = 0; t < sim.targets.size(); t++) {
      const unsigned bytes = scene.targets[t].bytes;
      const unsigned tolerance = t < unorm_tolerance.size() ? unorm_tolerance[t] : 0;
      ASSERT_EQ(sim.targets[t].size(), reference.targets[t].size());
      unsigned reported = 0;
      for (unsigned p = 0; p < size * size && reported < 8; p++) {
         const uint8_t *a = &sim.targets[t][p * bytes], *b = &reference.targets[t][p * bytes];
         bool same = true;
         if (bytes == 4) {
            for (unsigned c = 0; c < 4; c++)
               same &= unsigned(std::abs(int(a[c]) - int(b[c]))) <= tolerance;
         } else {
            same = std::memcmp(a, b, bytes) == 0;
         }
         if (!same) {
            std::string sim_text, reference_text;
            char word[16];
            for (unsigned c = 0; c < bytes / (bytes == 4 ? 1 : 4); c++) {
               uint32_t x = 0, y = 0;
               std::memcpy(&x, a + c * (bytes == 4 ? 1 : 4), bytes == 4 ? 1 : 4);
               std::memcpy(&y, b + c * (bytes == 4 ? 1 : 4), bytes == 4 ? 1 : 4);
               std::snprintf(word, sizeof(word), " %x", x);
               sim_text += word;
               std::snprintf(word, sizeof(word), " %x", y);
               reference_text += word;
            }
            ADD_FAILURE() << "target " << t << " pixel " << p % size << "," << p / size << ": simulator"
                          << sim_text << ", lavapipe" << reference_text;
            reported++;
         }
      }
   }
   ASSERT_EQ(sim.depth.size(), reference.depth.size());
   for (size_t p = 0; p < sim.depth.size(); p++)
      EXPECT_EQ(bits(sim.depth[p]), bits(reference.depth[p]))
         << "depth at " << p % size << "," << p / size << ": simulator " << sim.depth[p] << ", lavapipe "
         << reference.depth[p];
}

struct Chip {
   const char *name;
   hw::Family family;
};

class Graphics : public ::testing::TestWithParam<Chip> {
protected:
   hw::IsaClass isa() const { return hw::family_info(GetParam().family).isa_class; }

   ShaderBinary compile(const std::string &name, ShaderStage stage, const compiler::CompileOptions &extra = {})
   {
      compiler::CompileOptions options = extra;
      options.family = GetParam().family;
      ShaderBinary binary;
      std::string error;
      const std::vector<uint32_t> spirv = load_spirv(name);
      EXPECT_FALSE(spirv.empty()) << name;
      EXPECT_TRUE(compiler::compile_graphics(spirv, stage, "main", options, binary, error)) << name << ": " << error;
      return binary;
   }

   /* Compiles the scene's shaders, draws it on the simulator and compares every attachment
    * with lavapipe's draw of the same SPIR-V (`unorm_tolerance`: expect_same_images). Returns
    * the simulator's draw for the case's own checks, or null when it could not run. */
   std::unique_ptr<Draw> draw_and_compare(const Scene &scene, ShaderBinary &vs, ShaderBinary &ps,
                                          const std::vector<unsigned> &unorm_tolerance = {})
   {
      compiler::CompileOptions options;
      for (const Attribute &a : scene.attributes)
         if (a.per_instance)
            options.vertex_inputs.push_back({a.location, compiler::VertexInputRate::Instance});
      /* The pixel shader first, as the driver does: what it reads decides what the vertex
       * shader exports. */
      ps = compile(scene.ps, ShaderStage::Fragment);
      options.export_distances = ps.graphics.reads_distances;
      vs = compile(scene.vs, ShaderStage::Vertex, options);
      if (vs.code.empty() || ps.code.empty())
         return nullptr;
      auto draw = std::make_unique<Draw>(isa(), vs, ps, scene);
      const std::string error = draw->run(scene.count, scene.instances);
      EXPECT_EQ(error, "");
      if (!error.empty())
         return nullptr;
      Images reference;
      if (!draw_on_lavapipe(scene, reference))
         return draw;
      expect_same_images(scene, draw->images(), reference, unorm_tolerance);
      /* Through the driver as well, when this test runs on the simulated chip it names. */
      if (driver_chip() && std::string(driver_chip()) == GetParam().name) {
         SCOPED_TRACE("drawn through Terakan's driver");
         Images through_driver;
         if (draw_on_device(terakan_driver(), "Terakan", scene, through_driver))
            expect_same_images(scene, through_driver, reference, unorm_tolerance);
      }
      return draw;
   }
};

/* Window position of a clip-space vertex under the test's viewport. */
struct WindowVertex {
   double x, y, z, w;
};
WindowVertex to_window(const std::array<float, 4> &clip)
{
   return {(clip[0] / clip[3] + 1) * size / 2, (clip[1] / clip[3] + 1) * size / 2, clip[2] / clip[3], clip[3]};
}

double edge(const WindowVertex &a, const WindowVertex &b, double x, double y)
{
   return (b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x);
}

/* Screen-space barycentrics of the pixel centre (x + .5, y + .5) in triangle (a, b, c); nullopt
 * when outside, and `near_edge` when within 1/64 pixel of an edge. */
std::optional<std::array<double, 3>> barycentrics(const WindowVertex &a, const WindowVertex &b, const WindowVertex &c,
                                                  unsigned x, unsigned y, bool &near_edge)
{
   const double px = x + 0.5, py = y + 0.5;
   const double area = edge(a, b, c.x, c.y);
   const double l0 = edge(b, c, px, py) / area, l1 = edge(c, a, px, py) / area, l2 = edge(a, b, px, py) / area;
   const double scale[3] = {std::hypot(c.x - b.x, c.y - b.y), std::hypot(a.x - c.x, a.y - c.y),
                            std::hypot(b.x - a.x, b.y - a.y)};
   near_edge = false;
   const double l[3] = {l0, l1, l2};
   for (unsigned k = 0; k < 3; k++)
      near_edge |= std::abs(l[k] * std::abs(area) / scale[k]) < 1.0 / 64;
   if (l0 < 0 || l1 < 0 || l2 < 0)
      return std::nullopt;
   return std::array<double, 3>{l0, l1, l2};
}

/* An RGBA8 pixel as the dword it was stored as, to compare with `background`. */
uint32_t stored_dword(const std::array<uint8_t, 4> &pixel)
{
   uint32_t stored;
   std::memcpy(&stored, pixel.data(), 4);
   return stored;
}

std::vector<uint8_t> rgba8(const std::vector<std::array<uint8_t, 4>> &colours)
{
   std::vector<uint8_t> out;
   for (const auto &c : colours)
      out.insert(out.end(), c.begin(), c.end());
   return out;
}

TEST_P(Graphics, InterpolationSmoothFlatNoperspective)
{
   /* Three different w: perspective correction shows. Window corners on the rasterizers'
    * 1/256 grid but off the pixel centres: (0.8125, 1.1875), (15.5625, 3.1875),
    * (5.5625, 15.1875), each times w (powers of two: exact). */
   const std::vector<std::array<float, 4>> positions = {{-0.8984375f * 1.0f, -0.8515625f * 1.0f, 0.25f, 1.0f},
                                                        {0.9453125f * 2.0f, -0.6015625f * 2.0f, 0.5f, 2.0f},
                                                        {-0.3046875f * 4.0f, 0.8984375f * 4.0f, 1.0f, 4.0f}};
   const std::vector<std::array<uint8_t, 4>> colours = {{255, 0, 0, 255}, {0, 255, 0, 128}, {0, 0, 255, 0}};
   std::vector<float> flat_positions;
   for (const auto &p : positions)
      flat_positions.insert(flat_positions.end(), p.begin(), p.end());
   Scene scene;
   scene.vs = "interpolation.vert";
   scene.ps = "interpolation.frag";
   scene.attributes = {clip_positions(flat_positions),
                       {1, VK_FORMAT_R8G8B8A8_UNORM, 4, rgba8(colours)}};
   scene.targets = {rgba8_unorm, rgba8_unorm, rgba8_unorm};
   scene.count = 3;
   ShaderBinary vs, ps;
   /* smooth and noperspective are interpolated (1/255), flat exact */
   auto draw = draw_and_compare(scene, vs, ps, {1, 0, 1});
   ASSERT_TRUE(draw);

   std::array<WindowVertex, 3> window;
   for (unsigned k = 0; k < 3; k++)
      window[k] = to_window(positions[k]);
   unsigned covered = 0;
   for (unsigned y = 0; y < size; y++) {
      for (unsigned x = 0; x < size; x++) {
         bool near_edge;
         const auto l = barycentrics(window[0], window[1], window[2], x, y, near_edge);
         if (near_edge)
            continue;
         const auto smooth = draw->pixel(0, x, y), flat = draw->pixel(1, x, y), linear = draw->pixel(2, x, y);
         if (!l) {
            EXPECT_EQ(stored_dword(smooth), background) << "pixel " << x << "," << y << " is outside the triangle";
            continue;
         }
         covered++;
         double perspective[3], sum = 0;
         for (unsigned k = 0; k < 3; k++)
            sum += perspective[k] = (*l)[k] / window[k].w;
         for (unsigned c = 0; c < 4; c++) {
            double smooth_ref = 0, linear_ref = 0;
            for (unsigned k = 0; k < 3; k++) {
               smooth_ref += perspective[k] / sum * colours[k][c] / 255.0;
               linear_ref += (*l)[k] * colours[k][c] / 255.0;
            }
            EXPECT_NEAR(smooth[c], unorm8(smooth_ref), 1) << "smooth, pixel " << x << "," << y << " channel " << c;
            EXPECT_NEAR(linear[c], unorm8(linear_ref), 1) << "noperspective, pixel " << x << "," << y << " channel " << c;
            /* The provoking vertex is the first (PROVOKING_VTX_LAST 0, Vulkan's default). */
            EXPECT_EQ(flat[c], colours[0][c]) << "flat, pixel " << x << "," << y << " channel " << c;
         }
      }
   }
   EXPECT_GT(covered, 40u);
   /* The registers the driver programs: three inputs (semantics of locations 0, 1, 3), one
    * flat; perspective and linear center pairs. */
   ASSERT_EQ(ps.graphics.spi_ps_input_cntl.size(), 3u);
   EXPECT_EQ(ps.graphics.spi_ps_input_cntl[1], compiler::varying_semantic(1) | (1u << 10));
   EXPECT_EQ(ps.graphics.spi_baryc_cntl, (1u << 0) | (1u << 16));
   EXPECT_EQ(vs.graphics.param_semantics.size(), 3u);
   EXPECT_EQ(vs.graphics.vertex_inputs, (std::vector<unsigned>{0, 1}));
}

TEST_P(Graphics, VertexAttributeFormatsAndInstanceRate)
{
   /* Two instances of one triangle over the whole target; the second instance draws over the
    * first, so the target shows instance 1's per-instance value. Flat values come from the
    * first vertex. */
   const std::vector<float> positions = {-1, -1, 0, 1, 3, -1, 0, 1, -1, 3, 0, 1};
   const std::vector<std::array<uint8_t, 4>> colours = {{10, 20, 30, 40}, {50, 60, 70, 80}, {90, 100, 110, 120}};
   const std::vector<uint32_t> counts = {7, 8, 9};
   const std::vector<int32_t> offsets = {-5, 12, 3, -4, 100, -100};
   const std::vector<float> per_instance = {0.125f, 0.75f};
   const std::vector<float> pairs = {0.5f, 0.25f, 0.1f, 0.2f, 0.3f, 0.4f};
   Scene scene;
   scene.vs = "attributes.vert";
   scene.ps = "attributes.frag";
   scene.attributes = {clip_positions(positions),
                       {1, VK_FORMAT_R8G8B8A8_UNORM, 4, rgba8(colours)},
                       {2, VK_FORMAT_R32_UINT, 4, as_bytes(counts)},
                       {3, VK_FORMAT_R32G32_SINT, 8, as_bytes(offsets)},
                       {4, VK_FORMAT_R32_SFLOAT, 4, as_bytes(per_instance), true},
                       {5, VK_FORMAT_R32G32_SFLOAT, 8, as_bytes(pairs)}};
   scene.targets = {rgba8_unorm, rgba8_unorm, rgba8_unorm};
   scene.count = 3;
   scene.instances = 2;
   ShaderBinary vs, ps;
   auto draw = draw_and_compare(scene, vs, ps);
   ASSERT_TRUE(draw);
   EXPECT_EQ(vs.graphics.instance_rate_inputs, 1u << 4);
   for (unsigned y = 0; y < size; y++)
      for (unsigned x = 0; x < size; x++) {
         const auto colour = draw->pixel(0, x, y), integers = draw->pixel(1, x, y), floats = draw->pixel(2, x, y);
         EXPECT_EQ(colour, (std::array<uint8_t, 4>{10, 20, 30, 40})) << x << "," << y;
         /* (count, offsets + 1000 as unsigned, 0) / 255, each within 0..255 after the clamp */
         EXPECT_EQ(integers, (std::array<uint8_t, 4>{7, 255, 255, 0})) << x << "," << y;
         EXPECT_EQ(floats, (std::array<uint8_t, 4>{unorm8(0.75), unorm8(0.5), unorm8(0.5), unorm8(0.5)})) << x << "," << y;
      }
}

/* vkCmdDraw(6 vertices, 2 instances, first_vertex, first_instance) of `vs`, which places its
 * two instances' quads on x 0-3 and 4-7, with flat_colour.frag. */
Scene two_instances_with_bases(const char *vs, uint32_t first_vertex, uint32_t first_instance)
{
   Scene scene;
   scene.vs = vs;
   scene.ps = "flat_colour.frag";
   scene.count = 6;
   scene.instances = 2;
   scene.first_vertex = first_vertex;
   scene.first_instance = first_instance;
   return scene;
}

using Rgba8 = std::array<uint8_t, 4>;

/* Target 0 of an RGBA8 draw: the colour `expected` gives where it gives one, the background
 * elsewhere. */
void expect_colour_or_background(Draw &draw,
                                 const std::function<std::optional<Rgba8>(unsigned x, unsigned y)> &expected)
{
   for (unsigned y = 0; y < size; y++)
      for (unsigned x = 0; x < size; x++) {
         const Rgba8 got = draw.pixel(0, x, y);
         if (const std::optional<Rgba8> colour = expected(x, y))
            EXPECT_EQ(got, *colour) << x << "," << y;
         else
            EXPECT_EQ(stored_dword(got), background) << x << "," << y;
      }
}

/* The two quads of two_instances_with_bases (x < 8): (0, green(x), 0.25, 1). */
std::function<std::optional<Rgba8>(unsigned, unsigned)> two_quads(std::function<uint8_t(unsigned x)> green)
{
   return [green](unsigned x, unsigned) -> std::optional<Rgba8> {
      if (x >= 8)
         return std::nullopt;
      return Rgba8{0, green(x), unorm8(0.25), 255};
   };
}

TEST_P(Graphics, VertexAndInstanceIndexWithBases)
{
   /* vkCmdDraw(6 vertices, 2 instances, firstVertex 6, firstInstance 3): the driver's
    * VGT_INDX_OFFSET and SQ_VTX_START_INST_LOC. */
   const Scene scene = two_instances_with_bases("indices.vert", 6, 3);
   ShaderBinary vs, ps;
   auto draw = draw_and_compare(scene, vs, ps);
   ASSERT_TRUE(draw);
   EXPECT_TRUE(vs.graphics.writes_point_size);
   EXPECT_EQ(vs.graphics.pa_cl_vs_out_cntl, (1u << 16) | (1u << 21));
   EXPECT_TRUE(vs.graphics.vertex_inputs.empty());
   EXPECT_FALSE(vs.uses_driver_constants);
   /* Instance 3 covers x 0-3, instance 4 x 4-7; green is the instance index / 8. */
   expect_colour_or_background(*draw, two_quads([](unsigned x) { return unorm8((x < 4 ? 3 : 4) / 8.0); }));
}

TEST_P(Graphics, DrawParametersFromDriverConstants)
{
   /* vkCmdDraw(6, 2, firstVertex 5, firstInstance 2): BaseVertex 5, BaseInstance 2,
    * DrawIndex 0 from the VS's driver constants (dwords 0-2 of constant buffer 1). */
   const Scene scene = two_instances_with_bases("draw_parameters.vert", 5, 2);
   ShaderBinary vs, ps;
   auto draw = draw_and_compare(scene, vs, ps);
   ASSERT_TRUE(draw);
   EXPECT_TRUE(vs.uses_driver_constants);
   /* Green is BaseInstance / 8 on both quads. */
   expect_colour_or_background(*draw, two_quads([](unsigned) { return unorm8(2 / 8.0); }));
}

/* Two triangles over the target, one of each winding: triangle 0 (upper left,
 * counter-clockwise on the y-down screen), triangle 1 (lower right, clockwise); z 0.25. */
Attribute fullscreen_pair()
{
   const std::vector<float> positions = {-1, -1, 0.25f, 1, -1, 1, 0.25f, 1, 1, -1, 0.25f, 1,
                                         1, -1, 0.25f, 1, 1, 1, 0.25f, 1, -1, 1, 0.25f, 1};
   return clip_positions(positions);
}

/* fullscreen.vert drawing fullscreen_pair() with the pixel shader `ps`. */
Scene fullscreen_scene(const char *ps)
{
   Scene scene;
   scene.vs = "fullscreen.vert";
   scene.ps = ps;
   scene.attributes = {fullscreen_pair()};
   scene.count = 6;
   return scene;
}

TEST_P(Graphics, FragCoordAndFrontFacing)
{
   Scene scene = fullscreen_scene("fragcoord.frag");
   ShaderBinary vs, ps;
   /* Pixel centres on the diagonal go to one triangle by the top-left rule, on both. */
   auto draw = draw_and_compare(scene, vs, ps);
   ASSERT_TRUE(draw);
   EXPECT_EQ(ps.graphics.spi_ps_in_control_0 & (1u << 8), 1u << 8);  /* POSITION_ENA */
   EXPECT_EQ(ps.graphics.spi_ps_in_control_1 & (1u << 8), 1u << 8);  /* FRONT_FACE_ENA */
   for (unsigned y = 0; y < size; y++)
      for (unsigned x = 0; x < size; x++) {
         if (x + y == size - 1)
            continue;
         /* PA_SU_SC_MODE_CNTL.FACE 0: counter-clockwise is front (docs/sim-semantics.md). */
         const bool front = x + y < size - 1;
         EXPECT_EQ(draw->pixel(0, x, y), (std::array<uint8_t, 4>{unorm8((x + 0.5) / 16), unorm8((y + 0.5) / 16),
                                                                 front ? uint8_t(255) : unorm8(0.25), unorm8(0.25)}))
            << x << "," << y;
      }
}

/* Dot products (DOT4_IEEE groups) in both stages: a matrix transform and fdph in the vertex
 * shader, exact dot products of pixel positions in a float target (checked against the values
 * they must have, as well as lavapipe's), normalize/length/distance in an 8-bit one. */
TEST_P(Graphics, DotProducts)
{
   Scene scene = fullscreen_scene("dot_products.frag");
   scene.vs = "dot_products.vert";
   scene.targets = {rgba32_float, rgba8_unorm};
   ShaderBinary vs, ps;
   auto draw = draw_and_compare(scene, vs, ps, {0, 1});
   ASSERT_TRUE(draw);
   for (unsigned y = 0; y < size; y++)
      for (unsigned x = 0; x < size; x++) {
         const float px = float(x) + 0.5f, py = float(y) + 0.5f;
         const std::array<float, 4> expected = {px * 0.0625f - py * 0.03125f, 2.0f * px * py + py,
                                                px * 0.5f + py * 0.25f - 2.0f * py + 4.0f * px,
                                                px * py + 4.0f + 10.0f + 3.0f * px};
         const std::array<uint32_t, 4> got = draw->dwords(0, x, y);
         for (unsigned c = 0; c < 4; c++) {
            float value;
            std::memcpy(&value, &got[c], 4);
            EXPECT_EQ(value, expected[c]) << x << "," << y << " component " << c;
         }
      }
}

TEST_P(Graphics, DiscardInBranch)
{
   Scene scene = fullscreen_scene("discard.frag");
   ShaderBinary vs, ps;
   auto draw = draw_and_compare(scene, vs, ps);
   ASSERT_TRUE(draw);
   EXPECT_TRUE(ps.graphics.uses_kill);
   EXPECT_EQ(ps.graphics.db_shader_control, 1u << 6); /* KILL_ENABLE */
   /* discard.frag drops the pixels with x + y odd. */
   expect_colour_or_background(*draw, [](unsigned x, unsigned y) -> std::optional<Rgba8> {
      if ((x + y) % 2)
         return std::nullopt;
      return Rgba8{255, unorm8(0.5), unorm8(x / 16.0), 255};
   });
}

/* dFdx/dFdy (fine, coarse, plain) and fwidth of a perspective-correct input, a noperspective
 * one and gl_FragCoord products over the perspective triangle of the interpolation case: the
 * triangle's edges cut quads, so helper pixels feed the differences. Against lavapipe within
 * 1/255 (differences of interpolated values), and against the exact differences of the
 * FragCoord products: d/dx of x y / 256 is (y + 0.5) / 256 in the pixel's own row (fine), and
 * dFdx(FragCoord.x) = dFdy(FragCoord.y) = 1 (y grows down in Vulkan). */
TEST_P(Graphics, DerivativesFineCoarseAndFwidth)
{
   const std::vector<float> positions = {-0.8984375f, -0.8515625f, 0.25f, 1.0f,
                                         0.9453125f * 2.0f, -0.6015625f * 2.0f, 0.5f, 2.0f,
                                         -0.3046875f * 4.0f, 0.8984375f * 4.0f, 1.0f, 4.0f};
   const std::vector<std::array<uint8_t, 4>> colours = {{255, 0, 0, 255}, {0, 255, 0, 128}, {0, 0, 255, 0}};
   Scene scene;
   scene.vs = "interpolation.vert";
   scene.ps = "derivatives.frag";
   scene.attributes = {clip_positions(positions), {1, VK_FORMAT_R8G8B8A8_UNORM, 4, rgba8(colours)}};
   scene.targets = {rgba8_unorm, rgba8_unorm, rgba8_unorm};
   scene.count = 3;
   ShaderBinary vs, ps;
   auto draw = draw_and_compare(scene, vs, ps, {1, 1, 1});
   ASSERT_TRUE(draw);
   std::array<WindowVertex, 3> window;
   for (unsigned k = 0; k < 3; k++)
      window[k] = to_window({positions[4 * k], positions[4 * k + 1], positions[4 * k + 2], positions[4 * k + 3]});
   unsigned covered = 0;
   for (unsigned y = 0; y < size; y++) {
      for (unsigned x = 0; x < size; x++) {
         bool near_edge;
         if (!barycentrics(window[0], window[1], window[2], x, y, near_edge) || near_edge)
            continue;
         covered++;
         const auto fine = draw->pixel(0, x, y), coarse = draw->pixel(1, x, y), width = draw->pixel(2, x, y);
         EXPECT_EQ(fine[2], unorm8(0.5 + 8 * (y + 0.5) / 256)) << "dFdxFine, pixel " << x << "," << y;
         EXPECT_EQ(fine[3], unorm8(0.5 + 8 * (x + 0.5) / 256)) << "dFdyFine, pixel " << x << "," << y;
         EXPECT_EQ(coarse[3], unorm8(0.75)) << "dFdx(FragCoord.x), dFdy(FragCoord.y), pixel " << x << "," << y;
         EXPECT_EQ(width[3], unorm8(4 * (x + y + 1.0) / 256)) << "fwidthFine, pixel " << x << "," << y;
      }
   }
   EXPECT_GT(covered, 40u);
}

/* Every other pixel discarded before the derivatives: the survivors' fine differences still
 * read their discarded neighbours (exact values, and lavapipe's). */
TEST_P(Graphics, DerivativesAfterDiscard)
{
   Scene scene = fullscreen_scene("derivatives_discard.frag");
   ShaderBinary vs, ps;
   auto draw = draw_and_compare(scene, vs, ps);
   ASSERT_TRUE(draw);
   expect_colour_or_background(*draw, [](unsigned x, unsigned y) -> std::optional<Rgba8> {
      if ((x + y) % 2)
         return std::nullopt;
      return Rgba8{unorm8(0.5 + 8 * (y + 0.5) / 256), unorm8(0.5 + 8 * (x + 0.5) / 256), unorm8(0.5), 255};
   });
}

/* gl_HelperInvocation over a triangle whose edges cut quads: a pixel whose quad row (column)
 * neighbour lies clearly outside the triangle sees that helper's 1 in its fine difference,
 * one whose neighbour is covered sees 0 (against lavapipe pixel for pixel as well). */
TEST_P(Graphics, HelperInvocationOnQuadsCutByEdges)
{
   const std::vector<float> positions = {-0.8984375f, -0.8515625f, 0.25f, 1.0f, 0.9453125f, -0.6015625f, 0.5f, 1.0f,
                                         -0.3046875f, 0.8984375f, 1.0f, 1.0f};
   Scene scene;
   scene.vs = "fullscreen.vert";
   scene.ps = "helper_invocation.frag";
   scene.attributes = {clip_positions(positions)};
   scene.count = 3;
   ShaderBinary vs, ps;
   auto draw = draw_and_compare(scene, vs, ps);
   ASSERT_TRUE(draw);
   std::array<WindowVertex, 3> window;
   for (unsigned k = 0; k < 3; k++)
      window[k] = to_window({positions[4 * k], positions[4 * k + 1], positions[4 * k + 2], positions[4 * k + 3]});
   auto state = [&](unsigned x, unsigned y) { /* 1 covered, 0 outside, -1 too close to tell */
      bool near_edge;
      const bool inside = barycentrics(window[0], window[1], window[2], x, y, near_edge).has_value();
      return near_edge ? -1 : inside ? 1 : 0;
   };
   unsigned helper_neighbours = 0, valid_neighbours = 0;
   for (unsigned y = 0; y < size; y++)
      for (unsigned x = 0; x < size; x++) {
         if (state(x, y) != 1)
            continue;
         const auto got = draw->pixel(0, x, y);
         EXPECT_EQ(got[2], 255) << "HelperInvocation on a covered pixel " << x << "," << y;
         const unsigned mate_x = x ^ 1, mate_y = y ^ 1;
         /* d/dx = right - left of the pixel's own row; d/dy = bottom - top of its column. */
         if (state(mate_x, y) >= 0) {
            const bool helper = state(mate_x, y) == 0;
            const uint8_t expected = !helper ? unorm8(0.5) : (mate_x > x ? 255 : 0);
            EXPECT_EQ(got[0], expected) << "dFdxFine(helper) at " << x << "," << y;
            (helper ? helper_neighbours : valid_neighbours)++;
         }
         if (state(x, mate_y) >= 0) {
            const bool helper = state(x, mate_y) == 0;
            const uint8_t expected = !helper ? unorm8(0.5) : (mate_y > y ? 255 : 0);
            EXPECT_EQ(got[1], expected) << "dFdyFine(helper) at " << x << "," << y;
            (helper ? helper_neighbours : valid_neighbours)++;
         }
      }
   EXPECT_GT(helper_neighbours, 10u);
   EXPECT_GT(valid_neighbours, 40u);
}

/* A demoted checkerboard: the survivors' fine differences still read the demoted pixels (the
 * product's exact differences), helperInvocationEXT() is true on them after the demote (the
 * survivor's row neighbour always is: b is 1 on even columns, 0 on odd ones) and false on
 * every pixel before it (alpha). */
TEST_P(Graphics, DemoteKeepsDerivativesAndMakesHelpers)
{
   Scene scene = fullscreen_scene("demote.frag");
   ShaderBinary vs, ps;
   auto draw = draw_and_compare(scene, vs, ps);
   ASSERT_TRUE(draw);
   EXPECT_TRUE(ps.graphics.uses_kill);
   expect_colour_or_background(*draw, [](unsigned x, unsigned y) -> std::optional<Rgba8> {
      if ((x + y) % 2)
         return std::nullopt;
      return Rgba8{unorm8(0.5 + 8 * (y + 0.5) / 256), unorm8(0.5 + 8 * (x + 0.5) / 256),
                   uint8_t(x % 2 ? 0 : 255), 255};
   });
}

/* terminateInvocation as the only way out of an endless loop for half the pixels (a KILL
 * alone leaves them looping: the simulator stops such a loop as a hang), and discard before
 * and inside such loops (compiler terminate_lowering.h). */
TEST_P(Graphics, TerminateLeavesAnEndlessLoop)
{
   Scene scene = fullscreen_scene("terminate_loop.frag");
   ShaderBinary vs, ps;
   auto draw = draw_and_compare(scene, vs, ps);
   ASSERT_TRUE(draw);
   expect_colour_or_background(*draw, [](unsigned x, unsigned y) -> std::optional<Rgba8> {
      if ((x + y) % 2)
         return std::nullopt;
      return Rgba8{unorm8((2 + (y & 3)) / 8.0), unorm8(0.5), unorm8(0.25), 255};
   });
}

TEST_P(Graphics, DiscardLeavesAnEndlessLoop)
{
   Scene scene = fullscreen_scene("discard_loop.frag");
   ShaderBinary vs, ps;
   auto draw = draw_and_compare(scene, vs, ps);
   ASSERT_TRUE(draw);
   expect_colour_or_background(*draw, [](unsigned x, unsigned y) -> std::optional<Rgba8> {
      if ((x + y) % 2)
         return std::nullopt;
      return Rgba8{unorm8((2 + (y & 3)) / 8.0), unorm8(0.5), unorm8(0.75), 255};
   });
}

TEST_P(Graphics, PointCoordOnPoints)
{
   /* Three points 4 pixels wide centred on pixel corners (window (4, 4), (10, 6), (7, 12)):
    * each covers 4x4 pixel centres, at sprite coordinates (k + 0.5) / 4. */
   const std::vector<float> positions = {-0.5f, -0.5f, 0.5f, 1, 0.25f, -0.25f, 0.5f, 1, -0.125f, 0.5f, 0.5f, 1};
   Scene scene;
   scene.vs = "pointcoord.vert";
   scene.ps = "pointcoord.frag";
   scene.attributes = {clip_positions(positions)};
   scene.points = true;
   scene.count = 3;
   ShaderBinary vs, ps;
   auto draw = draw_and_compare(scene, vs, ps, {1}); /* lavapipe interpolates PointCoord */
   ASSERT_TRUE(draw);
   EXPECT_EQ(ps.graphics.spi_ps_input_cntl.size(), 1u);
   EXPECT_EQ(ps.graphics.spi_interp_control_0 & 2u, 2u); /* PNT_SPRITE_ENA */
   const unsigned centres[3][2] = {{4, 4}, {10, 6}, {7, 12}};
   unsigned drawn = 0;
   for (unsigned y = 0; y < size; y++)
      for (unsigned x = 0; x < size; x++) {
         const auto got = draw->pixel(0, x, y);
         bool inside = false;
         for (const auto &c : centres)
            if (x + 2 >= c[0] && x < c[0] + 2 && y + 2 >= c[1] && y < c[1] + 2) {
               inside = true;
               const double s = (x + 0.5 - (c[0] - 2.0)) / 4, t = (y + 0.5 - (c[1] - 2.0)) / 4;
               EXPECT_NEAR(got[0], unorm8(s), 1) << x << "," << y;
               EXPECT_NEAR(got[1], unorm8(t), 1) << x << "," << y;
               EXPECT_EQ(got[2], unorm8(0.25)) << x << "," << y;
               EXPECT_EQ(got[3], 255) << x << "," << y;
               drawn++;
            }
         if (!inside) {
            EXPECT_EQ(stored_dword(got), background) << x << "," << y;
         }
      }
   EXPECT_EQ(drawn, 48u);
}

TEST_P(Graphics, FragDepthExport)
{
   Scene scene = fullscreen_scene("fragdepth.frag");
   scene.depth = true;
   ShaderBinary vs, ps;
   auto draw = draw_and_compare(scene, vs, ps);
   ASSERT_TRUE(draw);
   EXPECT_EQ(ps.graphics.db_shader_control & 1u, 1u);  /* Z_EXPORT_ENABLE */
   EXPECT_EQ(ps.graphics.sq_pgm_exports_ps, 3u);       /* EXPORT_Z, one colour */
   for (unsigned y = 0; y < size; y++)
      for (unsigned x = 0; x < size; x++)
         EXPECT_EQ(draw->depth_at(x, y), float((x + 0.5) / 32 + (y + 0.5) / 64)) << x << "," << y;
}

/* FragStencilRefEXT (the file kept its name from when it was refused): PIXEL 61's y with
 * STENCIL_REF_EXPORT_ENABLE [1] and no Z_EXPORT_ENABLE; the simulator's DB takes the reference
 * from there (r600g's stencil_export GL scene; api-depth-resolve draws with it). */
TEST_P(Graphics, StencilReferenceExport)
{
   const ShaderBinary ps = compile("refused_stencil_export.frag", ShaderStage::Fragment);
   EXPECT_EQ(ps.graphics.db_shader_control & 3u, 2u);
   EXPECT_EQ(ps.graphics.sq_pgm_exports_ps, 3u); /* EXPORT_Z, one colour */
}

TEST_P(Graphics, IntegerOutputsAndStructAndArrayVaryings)
{
   Scene scene;
   scene.vs = "integer_outputs.vert";
   scene.ps = "integer_outputs.frag";
   scene.attributes = {fullscreen_pair()};
   scene.targets = {rgba32_uint, rgba32_sint, rgba32_float};
   scene.count = 6;
   ShaderBinary vs, ps;
   auto draw = draw_and_compare(scene, vs, ps);
   ASSERT_TRUE(draw);
   EXPECT_EQ(vs.graphics.param_locations, (std::vector<unsigned>{0, 1, 2, 3}));
   for (unsigned y = 0; y < size; y++)
      for (unsigned x = 0; x < size; x++) {
         if (x + y == size - 1)
            continue;
         /* flat: the provoking (first) vertex of triangle 0 (vertex 0) or 1 (vertex 3) */
         const int v = x + y < size - 1 ? 0 : 3;
         EXPECT_EQ(draw->dwords(0, x, y), (std::array<uint32_t, 4>{uint32_t(v * 3 + 1), 0xfffffff0u + v, x, 7}))
            << x << "," << y;
         EXPECT_EQ(draw->dwords(1, x, y),
                   (std::array<uint32_t, 4>{uint32_t(-v - 7), uint32_t(v * 100000), uint32_t(-int(y)), ~0u}))
            << x << "," << y;
         EXPECT_EQ(draw->dwords(2, x, y), (std::array<uint32_t, 4>{bits(float(v) + 2.0e6f), bits(-float(v) - 7.0f),
                                                                   bits(0.5f + float(v) * 0.5f), bits(2.0f)}))
            << x << "," << y;
      }
}

TEST_P(Graphics, ClipAndCullDistances)
{
   /* One triangle over the whole target, twice; clip distances keep window x >= 4 and
    * y <= 14, the cull distance drops instance 1 (all its vertices below 0). */
   const std::vector<float> positions = {-1, -1, 0.5f, 1, 3, -1, 0.5f, 1, -1, 3, 0.5f, 1};
   Scene scene;
   scene.vs = "clip_cull.vert";
   scene.ps = "flat_colour.frag";
   scene.attributes = {clip_positions(positions)};
   scene.count = 3;
   scene.instances = 2;
   ShaderBinary vs, ps;
   auto draw = draw_and_compare(scene, vs, ps);
   ASSERT_TRUE(draw);
   /* CLIP_DIST_ENA_0/1, CULL_DIST_ENA_2, VS_OUT_CCDIST0_VEC_ENA */
   EXPECT_EQ(vs.graphics.pa_cl_vs_out_cntl, 3u | (4u << 8) | (1u << 22));
   expect_colour_or_background(*draw, [](unsigned x, unsigned y) -> std::optional<Rgba8> {
      if (x >= 4 && y < 14)
         return Rgba8{0, unorm8(0.5), 0, 255};
      return std::nullopt;
   });
}

/* One triangle over the target whose clip_read.vert distances are linear in the position: the
 * reference of each at pixel (x, y) is the function at the pixel centre's NDC position. */
struct DistanceReference {
   double clip[4], cull[2];
   bool kept; /* ClipDistance[1] >= 0: rows y <= 13 */
};
DistanceReference clip_read_distances(unsigned x, unsigned y)
{
   const double px = (x + 0.5) * 2 / size - 1, py = (y + 0.5) * 2 / size - 1;
   return {{(px + 1) * 0.25 + 0.0625, 0.75 - py, py * 0.25 + 0.5, 1 - px * 0.25},
           {0.5 - px * 0.125, (px + py) * 0.125 + 0.25},
           0.75 - py >= 0};
}

Scene clip_read_scene(const char *vs, const char *ps)
{
   Scene scene;
   scene.vs = vs;
   scene.ps = ps;
   scene.attributes = {clip_positions({-1, -1, 0.5f, 1, 3, -1, 0.5f, 1, -1, 3, 0.5f, 1})};
   scene.count = 3;
   return scene;
}

/* Each pixel within 1/255 of `expected` (interpolated values), or the background. */
void expect_near_colour_or_background(Draw &draw,
                                      const std::function<std::optional<std::array<double, 4>>(unsigned, unsigned)> &expected)
{
   for (unsigned y = 0; y < size; y++)
      for (unsigned x = 0; x < size; x++) {
         const Rgba8 got = draw.pixel(0, x, y);
         const std::optional<std::array<double, 4>> colour = expected(x, y);
         if (!colour) {
            EXPECT_EQ(stored_dword(got), background) << x << "," << y;
            continue;
         }
         for (unsigned c = 0; c < 4; c++)
            EXPECT_LE(std::abs(int(got[c]) - int(unorm8((*colour)[c]))), 1) << x << "," << y << " channel " << c;
      }
}

std::vector<uint8_t> input_semantics(const ShaderBinary &ps)
{
   std::vector<uint8_t> out;
   for (uint32_t cntl : ps.graphics.spi_ps_input_cntl)
      out.push_back(uint8_t(cntl & 0xff));
   return out;
}

/* ClipDistance and CullDistance in the pixel shader: the vertex shader exports them as
 * parameters too (CompileOptions::export_distances), each array in vectors of its own
 * (distance_semantic), and the pixel shader interpolates them like smooth inputs; one read
 * through an index known only at run time. */
TEST_P(Graphics, ClipAndCullDistancesReadByThePixelShader)
{
   ShaderBinary vs, ps;
   auto draw = draw_and_compare(clip_read_scene("clip_read.vert", "clip_read.frag"), vs, ps, {1});
   ASSERT_TRUE(draw);
   EXPECT_TRUE(ps.graphics.reads_distances);
   EXPECT_EQ(input_semantics(ps), (std::vector<uint8_t>{compiler::distance_semantic(0), compiler::distance_semantic(2)}));
   EXPECT_EQ(vs.graphics.param_semantics,
             (std::vector<uint8_t>{compiler::distance_semantic(0), compiler::distance_semantic(2)}));
   /* The clipper still gets all six: CLIP_DIST_ENA_0-3, CULL_DIST_ENA_4-5, both vectors. */
   EXPECT_EQ(vs.graphics.pa_cl_vs_out_cntl, 0xfu | (0x30u << 8) | (3u << 22));
   expect_near_colour_or_background(*draw, [](unsigned x, unsigned y) -> std::optional<std::array<double, 4>> {
      const DistanceReference d = clip_read_distances(x, y);
      if (!d.kept)
         return std::nullopt;
      return std::array<double, 4>{d.clip[0], d.clip[2], d.cull[1], d.clip[y % 4] * 0.5};
   });
   /* The same triangle with w = 1, 2 and 4 at its corners: the distances are interpolated with
    * perspective, like lavapipe's (no closed reference here: only lavapipe's draw). */
   Scene perspective = clip_read_scene("clip_read.vert", "clip_read.frag");
   perspective.attributes = {clip_positions({-1, -1, 0.5f, 1, 6, -2, 1, 2, -4, 12, 2, 4})};
   ShaderBinary vs_w, ps_w;
   EXPECT_TRUE(draw_and_compare(perspective, vs_w, ps_w, {1}));
   /* Without a pixel shader that reads them, the vertex shader exports no distance parameter. */
   const ShaderBinary plain = compile("clip_read.vert", ShaderStage::Vertex);
   EXPECT_EQ(plain.graphics.param_semantics, (std::vector<uint8_t>{0}));
}

/* A pixel shader that declares only CullDistance reads the vertex shader's cull distances,
 * not the first elements of NIR's combined array (the clip distances), after three clip
 * distances that put the cull distances inside the first vector there. Checked against the
 * functions only: lavapipe (Mesa 22.3.6) reads the pixel shader's cull distances after the
 * clip distances that stage declares, and gives other values than the vertex shader's cull
 * distances for this pair (and for clip_read.frag beside three clip distances; with four it
 * agrees, ClipAndCullDistancesReadByThePixelShader). */
TEST_P(Graphics, CullDistancesReadWithoutTheClipDistances)
{
   const ShaderBinary ps = compile("cull_read.frag", ShaderStage::Fragment);
   compiler::CompileOptions options;
   options.export_distances = ps.graphics.reads_distances;
   const ShaderBinary vs = compile("clip_read_three.vert", ShaderStage::Vertex, options);
   ASSERT_FALSE(vs.code.empty() || ps.code.empty());
   EXPECT_EQ(input_semantics(ps), (std::vector<uint8_t>{compiler::distance_semantic(2)}));
   EXPECT_EQ(vs.graphics.param_semantics,
             (std::vector<uint8_t>{compiler::distance_semantic(0), compiler::distance_semantic(2)}));
   const Scene scene = clip_read_scene("clip_read_three.vert", "cull_read.frag");
   auto draw = std::make_unique<Draw>(isa(), vs, ps, scene);
   ASSERT_EQ(draw->run(scene.count), "");
   expect_near_colour_or_background(*draw, [](unsigned x, unsigned y) -> std::optional<std::array<double, 4>> {
      const DistanceReference d = clip_read_distances(x, y);
      if (!d.kept)
         return std::nullopt;
      return std::array<double, 4>{d.cull[0], d.cull[1], 0.0, 1.0};
   });
}

/* Run-time indices into arrays inside structs, into arrays of structs and into arrays of
 * arrays, stored in the vertex shader and read (directly, at an offset, at the centroid) in the
 * pixel shader, against lavapipe; neither program has a branch. */
TEST_P(Graphics, NestedVaryingArraysIndexedAtRunTime)
{
   Scene scene;
   scene.vs = "indexed_nested.vert";
   scene.ps = "indexed_nested.frag";
   const std::vector<float> offsets0(24, 0.25f), offsets2(24, 0.5f);
   std::vector<float> offsets1;
   for (unsigned v = 0; v < 6; v++)
      offsets1.insert(offsets1.end(), {0.125f * float(v), 0.5f, 0.75f - 0.0625f * float(v), 0.375f});
   scene.attributes = {fullscreen_pair(), {1, VK_FORMAT_R32G32B32A32_SFLOAT, 16, as_bytes(offsets0)},
                       {2, VK_FORMAT_R32G32B32A32_SFLOAT, 16, as_bytes(offsets1)},
                       {3, VK_FORMAT_R32G32B32A32_SFLOAT, 16, as_bytes(offsets2)}};
   scene.count = 6;
   ShaderBinary vs, ps;
   auto draw = draw_and_compare(scene, vs, ps, {1});
   ASSERT_TRUE(draw);
   for (const ShaderBinary *binary : {&vs, &ps}) {
      isa::Program program;
      isa::DecodeError decode_error;
      ASSERT_TRUE(isa::decode_program(binary->code, isa(), program, decode_error)) << decode_error.message;
      for (const isa::CfInstruction &cf : program.cf) {
         const std::string name(cf.op->name);
         EXPECT_TRUE(name != "JUMP" && name != "ELSE" && name != "ALU_PUSH_BEFORE") << name;
      }
   }
}

/* The distances as parameters count against the SPI's 32: refused with a message when they
 * do not fit, and compiled when the fragment shader does not read them. */
TEST_P(Graphics, DistanceParametersBeyondTheSpiAreRefused)
{
   compiler::CompileOptions options;
   options.family = GetParam().family;
   ShaderBinary binary;
   std::string error;
   const std::vector<uint32_t> spirv = load_spirv("refused_many_parameters.vert");
   EXPECT_TRUE(compiler::compile_graphics(spirv, ShaderStage::Vertex, "main", options, binary, error)) << error;
   EXPECT_EQ(binary.graphics.param_semantics.size(), 31u);
   options.export_distances = true;
   EXPECT_FALSE(compiler::compile_graphics(spirv, ShaderStage::Vertex, "main", options, binary, error));
   EXPECT_NE(error.find("exports 33 parameters"), std::string::npos) << error;
}

/* A vertex-input array read and an output array written with run-time indices, and an input
 * array read with run-time indices in the pixel shader, directly and through
 * interpolateAtOffset and interpolateAtCentroid: every element is read (fetched, interpolated)
 * and selects pick one, and the stores become selects too (indexed_inputs.h), so neither
 * program has a branch. */
TEST_P(Graphics, VaryingArraysIndexedAtRunTime)
{
   Scene scene;
   scene.vs = "indexed_varyings.vert";
   scene.ps = "indexed_varyings.frag";
   /* extra[0] follows the position, extra[1] is another pair per vertex. */
   const std::vector<float> extra0 = {0.25f, 0.25f, 0.25f, 0.75f, 0.75f, 0.25f, 0.75f, 0.25f, 0.75f, 0.75f, 0.25f, 0.75f};
   const std::vector<float> extra1 = {0.9f, 0.1f, 0.8f, 0.2f, 0.7f, 0.3f, 0.6f, 0.4f, 0.5f, 0.5f, 0.4f, 0.6f};
   scene.attributes = {fullscreen_pair(), {1, VK_FORMAT_R32G32_SFLOAT, 8, as_bytes(extra0)},
                       {2, VK_FORMAT_R32G32_SFLOAT, 8, as_bytes(extra1)}};
   scene.count = 6;
   ShaderBinary vs, ps;
   auto draw = draw_and_compare(scene, vs, ps, {1});
   ASSERT_TRUE(draw);
   EXPECT_EQ(vs.graphics.vertex_inputs, (std::vector<unsigned>{0, 1, 2}));
   EXPECT_EQ(vs.graphics.param_locations, (std::vector<unsigned>{0, 1, 2, 3}));
   EXPECT_EQ(ps.graphics.input_locations, (std::vector<unsigned>{0, 1, 2, 3}));
   for (const ShaderBinary *binary : {&vs, &ps}) {
      isa::Program program;
      isa::DecodeError decode_error;
      ASSERT_TRUE(isa::decode_program(binary->code, isa(), program, decode_error)) << decode_error.message;
      for (const isa::CfInstruction &cf : program.cf) {
         const std::string name(cf.op->name);
         EXPECT_TRUE(name != "JUMP" && name != "ELSE" && name != "ALU_PUSH_BEFORE") << name;
      }
   }
}

TEST_P(Graphics, BinaryRoundTripKeepsTheInterface)
{
   const ShaderBinary ps = compile("interpolation.frag", ShaderStage::Fragment);
   ShaderBinary back;
   ASSERT_TRUE(compiler::deserialize_binary(compiler::serialize_binary(ps), back));
   EXPECT_EQ(back.graphics.spi_ps_input_cntl, ps.graphics.spi_ps_input_cntl);
   EXPECT_EQ(back.graphics.spi_baryc_cntl, ps.graphics.spi_baryc_cntl);
   EXPECT_EQ(back.graphics.stage, ShaderStage::Fragment);
   EXPECT_EQ(back.code, ps.code);
}

/* Depth comparisons (depth_compare.frag) come out as the SAMPLE_C forms with the reference
 * where Mesa's r600 puts it (sfn TexInstr::prepare_source): w, or z beside an LOD or bias in w.
 * The simulator's texture unit reads it from there (tests/sim TexDepth.*); the API test
 * api-sampled-depth runs such shaders against lavapipe. */
/* The helper-invocation query's code: one TEX clause with VALID_PIXEL_MODE holding only a
 * GET_GRADIENTS_H that writes the constant 0 (DST_SEL 4) into one channel; the derivatives'
 * clauses run on every lane (no VALID_PIXEL_MODE: helpers must compute for their quad). */
TEST_P(Graphics, HelperInvocationQueryIsAValidPixelModeClause)
{
   const ShaderBinary ps = compile("helper_invocation.frag", ShaderStage::Fragment);
   isa::Program program;
   isa::DecodeError decode_error;
   ASSERT_TRUE(isa::decode_program(ps.code, hw::family_info(GetParam().family).isa_class, program, decode_error))
      << decode_error.message;
   unsigned queries = 0, others = 0;
   for (const isa::CfInstruction &cf : program.cf) {
      if (cf.op->name != "TEX")
         continue;
      const isa::FetchClause *clause = nullptr;
      for (const isa::FetchClause &c : program.fetch_clauses)
         if (c.address == cf.get(isa::cf::addr))
            clause = &c;
      ASSERT_NE(clause, nullptr);
      if (!cf.get(isa::cf::valid_pixel_mode)) {
         others++;
         continue;
      }
      queries++;
      ASSERT_EQ(clause->instructions.size(), 1u);
      const isa::FetchInstruction &t = clause->instructions[0];
      EXPECT_EQ(t.op->name, "GET_GRADIENTS_H");
      unsigned zeros = 0, masked = 0;
      for (const isa::Field field : {isa::tex::dst_sel_x, isa::tex::dst_sel_y, isa::tex::dst_sel_z, isa::tex::dst_sel_w}) {
         zeros += t.get(field) == 4;
         masked += t.get(field) == 7;
      }
      EXPECT_EQ(zeros, 1u);
      EXPECT_EQ(masked, 3u);
   }
   EXPECT_EQ(queries, 1u);
   EXPECT_GE(others, 1u);
}

TEST_P(Graphics, DepthComparisonForms)
{
   const ShaderBinary ps = compile("depth_compare.frag", ShaderStage::Fragment);
   isa::Program program;
   isa::DecodeError decode_error;
   ASSERT_TRUE(isa::decode_program(ps.code, hw::family_info(GetParam().family).isa_class, program, decode_error))
      << decode_error.message;
   std::multiset<std::string> seen;
   for (const isa::FetchClause &clause : program.fetch_clauses)
      for (const isa::FetchInstruction &t : clause.instructions) {
         const std::string name(t.op->name);
         if (!name.starts_with("SAMPLE_C"))
            continue;
         seen.insert(name);
         const unsigned z = t.get(isa::tex::src_sel_z), w = t.get(isa::tex::src_sel_w);
         /* The reference (and the LOD or bias) come from registers: selects 0-3. */
         if (name == "SAMPLE_C_L" || name == "SAMPLE_C_LB") {
            EXPECT_LT(z, 4u) << name << ": the reference is in z";
            EXPECT_LT(w, 4u) << name << ": the LOD or bias is in w";
         } else {
            EXPECT_LT(w, 4u) << name << ": the reference is in w";
         }
         /* Only x, the comparison, is written (the others have no documented value). */
         EXPECT_EQ(t.get(isa::tex::dst_sel_y), 7u) << name;
         EXPECT_EQ(t.get(isa::tex::dst_sel_z), 7u) << name;
         EXPECT_EQ(t.get(isa::tex::dst_sel_w), 7u) << name;
      }
   EXPECT_EQ(seen,
             (std::multiset<std::string>{"SAMPLE_C", "SAMPLE_C", "SAMPLE_C", "SAMPLE_C_LB", "SAMPLE_C_L", "SAMPLE_C_LZ"}));
}

/* Layer from the vertex shader: the misc vector (POS 61) with USE_VTX_RENDER_TARGET_INDX [18]
 * and VS_OUT_MISC_VEC_ENA [21], and the layer again as a parameter (layer_semantic) for a pixel
 * shader reading Layer. What the hardware does with it is api-layers' (the simulator's draw
 * against lavapipe). */
TEST_P(Graphics, LayerOutputEnablesTheRenderTargetIndex)
{
   const ShaderBinary vs = compile("layer_export.vert", ShaderStage::Vertex);
   ASSERT_FALSE(vs.code.empty());
   EXPECT_EQ(vs.graphics.pa_cl_vs_out_cntl, (1u << 18) | (1u << 21));
   EXPECT_EQ(vs.graphics.param_semantics, (std::vector<uint8_t>{compiler::layer_semantic}));
}

/* A pixel shader's private array indexed at run time goes to scratch: 100 floats, one 16-byte
 * element each, 400 dwords per invocation (the PS ring the driver programs; api-graphics-scratch
 * draws with it). */
TEST_P(Graphics, PixelShaderPrivateArrayInScratch)
{
   const ShaderBinary ps = compile("scratch_array.frag", ShaderStage::Fragment);
   ASSERT_FALSE(ps.code.empty());
   EXPECT_GE(ps.scratch_dwords, 400u);
}

/* Refusals: each with the message that names what is missing. */
struct Refusal {
   const char *file;
   ShaderStage stage;
   const char *message;
};

TEST_P(Graphics, Refusals)
{
   const Refusal refusals[] = {
      {"refused_geometry.geom", ShaderStage::Vertex, "is a geometry shader"},
      {"refused_dual_source.frag", ShaderStage::Fragment, "at a location other than 0"},
      {"refused_derivative.frag", ShaderStage::Fragment, "depth comparison with an explicit LOD"},
      {"refused_cube_shadow.frag", ShaderStage::Fragment, "with a LOD bias on a 2D array or cube"},
      {"fullscreen.vert", ShaderStage::Fragment, "is a vertex shader"},
      {"fullscreen.vert", ShaderStage::Compute, "compute shaders go to compile_compute"},
   };
   for (const Refusal &r : refusals) {
      compiler::CompileOptions options;
      options.family = GetParam().family;
      ShaderBinary binary;
      std::string error;
      EXPECT_FALSE(compiler::compile_graphics(load_spirv(r.file), r.stage, "main", options, binary, error)) << r.file;
      EXPECT_NE(error.find(r.message), std::string::npos) << r.file << ": " << error;
   }
}

/* A Sample-decorated input (the file kept its old name, from when it was refused): the SPI's
 * perspective sample pair (SPI_BARYC_CNTL.PERSP_SAMPLE_ENA [9:8]) and per-sample shading for
 * the driver to turn on. */
TEST_P(Graphics, SampleQualifiedInputRunsPerSample)
{
   compiler::CompileOptions options;
   options.family = GetParam().family;
   ShaderBinary binary;
   std::string error;
   ASSERT_TRUE(compiler::compile_graphics(load_spirv("refused_sample.frag"), ShaderStage::Fragment, "main", options,
                                          binary, error))
      << error;
   EXPECT_TRUE(binary.graphics.sample_shading);
   EXPECT_EQ((binary.graphics.spi_baryc_cntl >> 8) & 3, 1u);
}

/* The SampleMask output (the file kept its old name): exported in PIXEL 61's z with
 * DB_SHADER_CONTROL.MASK_EXPORT_ENABLE [8] and SQ_PGM_EXPORTS_PS.EXPORT_Z, and a KILL for a
 * mask that keeps none of the draw's samples (driver constants, compiler.h). */
TEST_P(Graphics, SampleMaskOutputIsAMaskExport)
{
   compiler::CompileOptions options;
   options.family = GetParam().family;
   ShaderBinary binary;
   std::string error;
   ASSERT_TRUE(compiler::compile_graphics(load_spirv("refused_sample_mask.frag"), ShaderStage::Fragment, "main", options,
                                          binary, error))
      << error;
   EXPECT_EQ(binary.graphics.db_shader_control & ((1u << 8) | 1u), 1u << 8);
   EXPECT_EQ(binary.graphics.sq_pgm_exports_ps & 1u, 1u);
   EXPECT_TRUE(binary.graphics.uses_kill);
   EXPECT_TRUE(binary.uses_driver_constants);
   EXPECT_FALSE(binary.graphics.sample_shading);
}

INSTANTIATE_TEST_SUITE_P(Chips, Graphics,
                         ::testing::Values(Chip{"cypress", hw::Family::Cypress}, Chip{"barts", hw::Family::Barts},
                                           Chip{"cayman", hw::Family::Cayman}),
                         [](const ::testing::TestParamInfo<Chip> &info) { return std::string(info.param.name); });

} // namespace
