/* Vertex and pixel shaders from the compiler, drawn by the simulator's draw path (run_draw,
 * with the register state a driver would program from the compile result: docs/compiler.md,
 * "Graphics ABI"), into small colour targets checked against references computed here.
 *
 * GLSL pairs in tests/compiler/graphics are compiled to SPIR-V by glslangValidator at build
 * time (TERAKAN_GRAPHICS_SPIRV names the folder). Every program passed the bundle-rule
 * checker inside the compiler (an internal error otherwise) and again in the simulator.
 *
 * Comparisons are exact, except interpolated values (smooth, noperspective): the reference
 * is the barycentric interpolation in double precision, the simulator's in float with its own
 * operation order, so an 8-bit result may round the other way: 1/255 is allowed there. Pixels
 * whose centre lies within 1/64 pixel of an edge are skipped in coverage checks (the
 * reference does not snap vertices to the 1/256 grid). */
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "compiler/compiler.h"
#include "core/host_memory.h"
#include "gfx/draw.h"
#include "hw/graphics_registers.h"
#include "hw/registers.h"
#include "hw/texture.h"

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

constexpr unsigned size = 16; /* targets are 16x16 RGBA8 UNORM */
constexpr uint64_t vs_address = 0x100000, ps_address = 0x110000, vertex_address = 0x200000,
                   target_address = 0x800000, target_stride = 0x10000;
constexpr uint32_t background = 0x55443322u;

/* One vertex attribute: its data (whole elements, `stride` bytes apart) and format. */
struct Attribute {
   unsigned location;
   std::vector<uint8_t> data;
   uint32_t stride, data_format, num_format;
   bool is_signed;
   std::array<uint32_t, 4> dst_sel{0, 1, 2, 3};
};

constexpr uint32_t num_norm = 0, num_int = 1, num_scaled = 2;

template <typename T> std::vector<uint8_t> as_bytes(const std::vector<T> &values)
{
   std::vector<uint8_t> out(values.size() * sizeof(T));
   std::memcpy(out.data(), values.data(), out.size());
   return out;
}

/* A draw of a vertex and a pixel shader: memory, register state, and the compile results'
 * registers applied as a driver would. */
struct Draw {
   hw::IsaClass isa;
   sim::HostMemory memory;
   std::map<uint32_t, uint32_t> config, context, ctl_consts;
   std::vector<uint32_t> resources = std::vector<uint32_t>(1024 * 8, 0);
   std::vector<uint32_t> samplers = std::vector<uint32_t>(64 * 3, 0);
   std::vector<uint32_t> loop_consts = std::vector<uint32_t>(64, 0);
   sim::PipelineState state;
   unsigned targets = 0;
   uint64_t next_vertex_address = vertex_address;

   Draw(hw::IsaClass isa, const ShaderBinary &vs, const ShaderBinary &ps, unsigned targets) : isa(isa), targets(targets)
   {
      using namespace hw::gfx;
      auto code = [&](uint64_t address, const std::vector<uint32_t> &words) {
         auto &buffer = memory.add(address, words.size() * 4 + 256);
         std::memcpy(buffer.bytes.data(), words.data(), words.size() * 4);
      };
      code(vs_address, vs.code);
      code(ps_address, ps.code);
      config[hw::reg::VGT_PRIMITIVE_TYPE] = TriangleList;
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
      context[SQ_PGM_EXPORTS_PS] = in.sq_pgm_exports_ps;
      context[DB_SHADER_CONTROL] = in.db_shader_control;
      /* Vulkan's viewport over the target: x_w = (x + 1) * 8, y_w = (y + 1) * 8 (y down),
       * z_w = z; pixel centres at .5; the 1/256 grid. */
      context[PA_CL_VTE_CNTL] = 0x3f;
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
      context[hw::reg::CB_TARGET_MASK] = (1u << (4 * targets)) - 1;
      context[0x28238 /* CB_SHADER_MASK */] = in.cb_shader_mask;
      for (unsigned t = 0; t < targets; t++) {
         const uint64_t address = target_address + t * target_stride;
         auto &buffer = memory.add(address, size * size * 4);
         for (size_t p = 0; p < size * size; p++)
            std::memcpy(&buffer.bytes[p * 4], &background, 4);
         const uint32_t cb = hw::reg::CB_COLOR0_BASE + t * hw::reg::CB_COLOR_STRIDE;
         context[cb + hw::reg::Base] = uint32_t(address >> 8);
         context[cb + hw::reg::Pitch] = size / 8 - 1;
         context[cb + hw::reg::Slice] = size * size / 64 - 1;
         context[cb + hw::reg::Info] = (0x1Au << 2) | (1u << 8); /* COLOR_8_8_8_8, UNORM, linear */
      }
      state.isa = isa;
      state.config = &config;
      state.context = &context;
      state.ctl_consts = &ctl_consts;
      state.resources = &resources;
      state.samplers = &samplers;
      state.loop_consts = &loop_consts;
   }

   /* The attribute's fetch resource: VS buffer id 128 + location (compiler.h). */
   void attribute(const Attribute &a)
   {
      const uint64_t address = next_vertex_address;
      next_vertex_address += 0x1000;
      auto &buffer = memory.add(address, std::max<size_t>(a.data.size(), 16));
      std::memcpy(buffer.bytes.data(), a.data.data(), a.data.size());
      const auto words = hw::reg::texel_buffer_fetch_resource(address, uint32_t(a.data.size()), a.stride, a.data_format,
                                                               a.num_format, a.is_signed, a.dst_sel);
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

   std::array<uint8_t, 4> pixel(unsigned target, unsigned x, unsigned y)
   {
      std::string error;
      const uint8_t *p = memory.resolve(target_address + target * target_stride + (size_t(y) * size + x) * 4, 4, error);
      return {p[0], p[1], p[2], p[3]};
   }
};

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

std::vector<uint8_t> rgba8(const std::vector<std::array<uint8_t, 4>> &colours)
{
   std::vector<uint8_t> out;
   for (const auto &c : colours)
      out.insert(out.end(), c.begin(), c.end());
   return out;
}

TEST_P(Graphics, InterpolationSmoothFlatNoperspective)
{
   const ShaderBinary vs = compile("interpolation.vert", ShaderStage::Vertex);
   const ShaderBinary ps = compile("interpolation.frag", ShaderStage::Fragment);
   ASSERT_FALSE(vs.code.empty());
   ASSERT_FALSE(ps.code.empty());
   /* Three different w: perspective correction shows. Corners chosen off the pixel centres. */
   const std::vector<std::array<float, 4>> positions = {
      {-0.9f * 1.0f, -0.85f * 1.0f, 0.25f, 1.0f}, {0.95f * 2.0f, -0.6f * 2.0f, 0.5f, 2.0f}, {-0.3f * 4.0f, 0.9f * 4.0f, 1.0f, 4.0f}};
   const std::vector<std::array<uint8_t, 4>> colours = {{255, 0, 0, 255}, {0, 255, 0, 128}, {0, 0, 255, 0}};
   Draw draw(isa(), vs, ps, 3);
   std::vector<float> flat_positions;
   for (const auto &p : positions)
      flat_positions.insert(flat_positions.end(), p.begin(), p.end());
   draw.attribute({0, as_bytes(flat_positions), 16, hw::Fmt32_32_32_32Float, num_scaled, false});
   draw.attribute({1, rgba8(colours), 4, hw::Fmt8_8_8_8, num_norm, false});
   ASSERT_EQ(draw.run(3), "");

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
         const auto smooth = draw.pixel(0, x, y), flat = draw.pixel(1, x, y), linear = draw.pixel(2, x, y);
         if (!l) {
            uint32_t stored;
            std::memcpy(&stored, smooth.data(), 4);
            EXPECT_EQ(stored, background) << "pixel " << x << "," << y << " is outside the triangle";
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
   compiler::CompileOptions options;
   options.vertex_inputs = {{4, compiler::VertexInputRate::Instance}};
   const ShaderBinary vs = compile("attributes.vert", ShaderStage::Vertex, options);
   const ShaderBinary ps = compile("attributes.frag", ShaderStage::Fragment);
   ASSERT_FALSE(vs.code.empty());
   ASSERT_FALSE(ps.code.empty());
   EXPECT_EQ(vs.graphics.instance_rate_inputs, 1u << 4);
   /* Two instances of one triangle over the whole target; the second instance draws over the
    * first, so the target shows instance 1's per-instance value. Flat values come from the
    * first vertex. */
   const std::vector<float> positions = {-1, -1, 0, 1, 3, -1, 0, 1, -1, 3, 0, 1};
   const std::vector<std::array<uint8_t, 4>> colours = {{10, 20, 30, 40}, {50, 60, 70, 80}, {90, 100, 110, 120}};
   const std::vector<uint32_t> counts = {7, 8, 9};
   const std::vector<int32_t> offsets = {-5, 12, 3, -4, 100, -100};
   const std::vector<float> per_instance = {0.125f, 0.75f};
   const std::vector<float> pairs = {0.5f, 0.25f, 0.1f, 0.2f, 0.3f, 0.4f};
   Draw draw(isa(), vs, ps, 3);
   draw.attribute({0, as_bytes(positions), 16, hw::Fmt32_32_32_32Float, num_scaled, false});
   draw.attribute({1, rgba8(colours), 4, hw::Fmt8_8_8_8, num_norm, false});
   draw.attribute({2, as_bytes(counts), 4, hw::Fmt32, num_int, false, {0, 4, 4, 5}});
   draw.attribute({3, as_bytes(offsets), 8, hw::Fmt32_32, num_int, true, {0, 1, 4, 5}});
   draw.attribute({4, as_bytes(per_instance), 4, hw::Fmt32Float, num_scaled, false, {0, 4, 4, 5}});
   draw.attribute({5, as_bytes(pairs), 8, hw::Fmt32_32Float, num_scaled, false, {0, 1, 4, 5}});
   ASSERT_EQ(draw.run(3, 2), "");
   for (unsigned y = 0; y < size; y++)
      for (unsigned x = 0; x < size; x++) {
         const auto colour = draw.pixel(0, x, y), integers = draw.pixel(1, x, y), floats = draw.pixel(2, x, y);
         EXPECT_EQ(colour, (std::array<uint8_t, 4>{10, 20, 30, 40})) << x << "," << y;
         /* (count, offsets + 1000 as unsigned, 0) / 255, each within 0..255 after the clamp */
         EXPECT_EQ(integers, (std::array<uint8_t, 4>{7, 255, 255, 0})) << x << "," << y;
         EXPECT_EQ(floats, (std::array<uint8_t, 4>{unorm8(0.75), unorm8(0.5), unorm8(0.5), unorm8(0.5)})) << x << "," << y;
      }
}

TEST_P(Graphics, VertexAndInstanceIndexWithBases)
{
   const ShaderBinary vs = compile("indices.vert", ShaderStage::Vertex);
   const ShaderBinary ps = compile("flat_colour.frag", ShaderStage::Fragment);
   ASSERT_FALSE(vs.code.empty());
   ASSERT_FALSE(ps.code.empty());
   EXPECT_TRUE(vs.graphics.writes_point_size);
   EXPECT_EQ(vs.graphics.pa_cl_vs_out_cntl, (1u << 16) | (1u << 21));
   EXPECT_TRUE(vs.graphics.vertex_inputs.empty());
   Draw draw(isa(), vs, ps, 1);
   /* vkCmdDraw(6 vertices, 2 instances, firstVertex 6, firstInstance 3): the driver's
    * VGT_INDX_OFFSET and SQ_VTX_START_INST_LOC. */
   draw.context[hw::gfx::VGT_INDX_OFFSET] = 6;
   draw.ctl_consts[hw::gfx::SQ_VTX_START_INST_LOC] = 3;
   ASSERT_EQ(draw.run(6, 2), "");
   for (unsigned y = 0; y < size; y++)
      for (unsigned x = 0; x < size; x++) {
         const auto got = draw.pixel(0, x, y);
         /* Instance 3 covers x 0-3, instance 4 x 4-7; the rest keeps the background. */
         if (x < 8) {
            const unsigned instance = x < 4 ? 3 : 4;
            EXPECT_EQ(got, (std::array<uint8_t, 4>{0, unorm8(instance / 8.0), unorm8(0.25), 255})) << x << "," << y;
         } else {
            uint32_t stored;
            std::memcpy(&stored, got.data(), 4);
            EXPECT_EQ(stored, background) << x << "," << y;
         }
      }
}

/* Two triangles over the target, one of each winding. */
void fullscreen_pair(Draw &draw, std::vector<float> &positions)
{
   /* Triangle 0 (upper left, counter-clockwise on the y-down screen), triangle 1 (lower right,
    * clockwise); z 0.25 everywhere. */
   positions = {-1, -1, 0.25f, 1, -1, 1, 0.25f, 1, 1, -1, 0.25f, 1,
                1, -1, 0.25f, 1, 1, 1, 0.25f, 1, -1, 1, 0.25f, 1};
   draw.attribute({0, as_bytes(positions), 16, hw::Fmt32_32_32_32Float, num_scaled, false});
}

TEST_P(Graphics, FragCoordAndFrontFacing)
{
   const ShaderBinary vs = compile("fullscreen.vert", ShaderStage::Vertex);
   const ShaderBinary ps = compile("fragcoord.frag", ShaderStage::Fragment);
   ASSERT_FALSE(vs.code.empty());
   ASSERT_FALSE(ps.code.empty());
   EXPECT_EQ(ps.graphics.spi_ps_in_control_0 & (1u << 8), 1u << 8);  /* POSITION_ENA */
   EXPECT_EQ(ps.graphics.spi_ps_in_control_1 & (1u << 8), 1u << 8);  /* FRONT_FACE_ENA */
   Draw draw(isa(), vs, ps, 1);
   std::vector<float> positions;
   fullscreen_pair(draw, positions);
   ASSERT_EQ(draw.run(6), "");
   for (unsigned y = 0; y < size; y++)
      for (unsigned x = 0; x < size; x++) {
         /* The diagonal x + y = 15 splits them; a centre on it belongs to triangle 0 or 1 by
          * the top-left rule: skip it. */
         if (x + y == size - 1)
            continue;
         const bool first = x + y < size - 1;
         /* PA_SU_SC_MODE_CNTL.FACE 0: counter-clockwise is front (docs/sim-semantics.md). */
         const bool front = first;
         const auto got = draw.pixel(0, x, y);
         EXPECT_EQ(got, (std::array<uint8_t, 4>{unorm8((x + 0.5) / 16), unorm8((y + 0.5) / 16),
                                                front ? uint8_t(255) : unorm8(0.25), unorm8(0.25)}))
            << x << "," << y;
      }
}

TEST_P(Graphics, DiscardInBranch)
{
   const ShaderBinary vs = compile("fullscreen.vert", ShaderStage::Vertex);
   const ShaderBinary ps = compile("discard.frag", ShaderStage::Fragment);
   ASSERT_FALSE(vs.code.empty());
   ASSERT_FALSE(ps.code.empty());
   EXPECT_TRUE(ps.graphics.uses_kill);
   EXPECT_EQ(ps.graphics.db_shader_control, 1u << 6); /* KILL_ENABLE */
   Draw draw(isa(), vs, ps, 1);
   std::vector<float> positions;
   fullscreen_pair(draw, positions);
   ASSERT_EQ(draw.run(6), "");
   for (unsigned y = 0; y < size; y++)
      for (unsigned x = 0; x < size; x++) {
         const auto got = draw.pixel(0, x, y);
         if ((x + y) % 2) {
            uint32_t stored;
            std::memcpy(&stored, got.data(), 4);
            EXPECT_EQ(stored, background) << x << "," << y;
         } else {
            EXPECT_EQ(got, (std::array<uint8_t, 4>{255, unorm8(0.5), unorm8(x / 16.0), 255})) << x << "," << y;
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
      {"refused_clip_distance.vert", ShaderStage::Vertex, "CLIP_DIST"},
      {"refused_frag_depth.frag", ShaderStage::Fragment, "FRAG_RESULT_DEPTH"},
      {"refused_sample.frag", ShaderStage::Fragment, "per-sample interpolation"},
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

INSTANTIATE_TEST_SUITE_P(Chips, Graphics,
                         ::testing::Values(Chip{"cypress", hw::Family::Cypress}, Chip{"barts", hw::Family::Barts},
                                           Chip{"cayman", hw::Family::Cayman}),
                         [](const ::testing::TestParamInfo<Chip> &info) { return std::string(info.param.name); });

} // namespace
