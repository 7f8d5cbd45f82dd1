/* Pixel-shader RATs on the simulator's draw path (docs/sim-semantics.md, "Pixel-shader RATs"):
 * a RAT bound after the colour target in CB_COLOR1 takes the stores of covered, undiscarded
 * pixels only; the rules the simulator enforces (VALID_PIXEL_MODE on a pixel shader's MEM_RAT,
 * a DB_SHADER_CONTROL order that cannot skip memory writes, DEPTH_BEFORE_SHADER) and the
 * MBCNT lane count behind returning atomics. The programs are Terakan's compiler's from GLSL
 * (tests/sim/shaders, SPIR-V in TERAKAN_SIM_SHADERS); the command streams go to the command
 * processor alone, with the state the driver's draws write (terakan_cmd_draw.cpp). */
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "compiler/compiler.h"
#include "compiler/isa/words.h"
#include "hw/chips.h"
#include "hw/graphics_registers.h"
#include "hw/msaa.h"
#include "pm4_harness.h"

using namespace terakan;
using namespace terakan::test;

namespace {

constexpr unsigned size = 16;       /* the target: 16x16 pixels */
constexpr unsigned target_pitch = 64; /* linear-aligned rows of 64 pixels */
constexpr uint64_t vs_address = 0x100000, ps_address = 0x180000, constants_address = 0x200000,
                   vertices_address = 0x300000, target_address = 0x400000, rat_address = 0x500000,
                   returns_address = 0x600000;
constexpr uint32_t rat_bytes = 4096, returns_bytes = compiler::rat_return_buffer_bytes;

std::vector<uint32_t> read_spirv(const std::string &name)
{
   const char *folder = std::getenv("TERAKAN_SIM_SHADERS");
   std::ifstream file(std::string(folder ? folder : ".") + "/" + name + ".spv", std::ios::binary);
   std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
   std::vector<uint32_t> words(bytes.size() / 4);
   std::memcpy(words.data(), bytes.data(), words.size() * 4);
   return words;
}

struct Programs {
   compiler::ShaderBinary vertex, pixel;
   std::string error;
};

/* Both stages, the storage buffer at set 0 binding 0 as slot 0, one colour target (so the
 * pixel shader's RAT is 1). */
Programs compile(hw::Family family, const char *fragment)
{
   Programs p;
   compiler::CompileOptions options;
   options.family = family;
   options.buffer_bindings = {{0, 0, 1, 0, true}};
   options.colour_targets = 1;
   if (!compiler::compile_graphics(read_spirv("pixel_rat.vert"), compiler::ShaderStage::Vertex, "main", options,
                                   p.vertex, p.error))
      p.error = "vertex shader: " + p.error;
   else if (!compiler::compile_graphics(read_spirv(fragment), compiler::ShaderStage::Fragment, "main", options,
                                        p.pixel, p.error))
      p.error = std::string(fragment) + ": " + p.error;
   return p;
}

/* The lower-left half of the target (a triangle whose long edge cuts quads). */
const float triangle[3][4] = {{-1, -1, 0, 1}, {1, -1, 0, 1}, {-1, 1, 0, 1}};

uint32_t float_bits(float v)
{
   uint32_t u;
   std::memcpy(&u, &v, 4);
   return u;
}

/* One draw of the triangle: CB_COLOR0 a 32_32_32_32_FLOAT target, CB_COLOR1 the RAT (a
 * COLOR_32 buffer as the driver binds storage buffers), its return buffer when asked. */
std::vector<uint32_t> draw_ib(hw::Family family, const Programs &p, uint32_t db_shader_control, bool returns)
{
   using namespace hw;
   namespace gfx = hw::gfx;
   const bool cayman = hw::family_info(family).isa_class == hw::IsaClass::Cayman;
   const compiler::GraphicsInterface &vs = p.vertex.graphics, &ps = p.pixel.graphics;
   IbBuilder b;
   auto ctx = [&](uint32_t reg, std::initializer_list<uint32_t> values) { b.context(reg, values, false); };
   b.packet(pm4::CONTEXT_CONTROL, {0x80000000u, 0x80000000u});
   ctx(gfx::SQ_PGM_START_VS, {uint32_t(vs_address >> 8), p.vertex.gprs | (p.vertex.stack_entries << 8)});
   ctx(gfx::SQ_PGM_START_PS, {uint32_t(ps_address >> 8), p.pixel.gprs | (p.pixel.stack_entries << 8)});
   ctx(gfx::SQ_PGM_EXPORTS_PS, {ps.sq_pgm_exports_ps});
   ctx(reg::VGT_SHADER_STAGES_EN, {0});
   const uint32_t constants = uint32_t(constants_address >> 8);
   ctx(gfx::SQ_ALU_CONST_BUFFER_SIZE_VS_0, {1, 1});
   ctx(gfx::SQ_ALU_CONST_CACHE_VS_0, {constants, constants});
   ctx(gfx::SQ_ALU_CONST_BUFFER_SIZE_PS_0, {1, 1});
   ctx(gfx::SQ_ALU_CONST_CACHE_PS_0, {constants, constants});
   uint32_t out_ids[10] = {};
   for (size_t i = 0; i < vs.param_semantics.size() && i < 40; i++)
      out_ids[i / 4] |= uint32_t(vs.param_semantics[i]) << (8 * (i % 4));
   ctx(gfx::SPI_VS_OUT_ID_0, {out_ids[0], out_ids[1], out_ids[2], out_ids[3], out_ids[4], out_ids[5], out_ids[6],
                              out_ids[7], out_ids[8], out_ids[9]});
   ctx(gfx::SPI_VS_OUT_CONFIG, {vs.spi_vs_out_config});
   ctx(gfx::PA_CL_VS_OUT_CNTL, {vs.pa_cl_vs_out_cntl});
   for (size_t i = 0; i < ps.spi_ps_input_cntl.size(); i++)
      ctx(gfx::SPI_PS_INPUT_CNTL_0 + 4 * uint32_t(i), {ps.spi_ps_input_cntl[i]});
   ctx(gfx::SPI_PS_IN_CONTROL_0, {ps.spi_ps_in_control_0, ps.spi_ps_in_control_1});
   ctx(gfx::SPI_INTERP_CONTROL_0, {ps.spi_interp_control_0});
   ctx(gfx::SPI_INPUT_Z, {ps.spi_input_z});
   ctx(gfx::SPI_BARYC_CNTL, {ps.spi_baryc_cntl});
   ctx(gfx::DB_SHADER_CONTROL, {db_shader_control});
   for (unsigned location : vs.vertex_inputs) {
      b.ib.push_back(pm4::packet3(pm4::SET_RESOURCE, 8, false));
      b.ib.push_back((gfx::vs_resource_base + compiler::vertex_input_first_resource + location) * 8);
      const auto words = reg::texel_buffer_fetch_resource(vertices_address, sizeof(triangle), 16, hw::Fmt32_32_32_32Float,
                                                          uint32_t(hw::NumFormat::Scaled), false, {0, 1, 2, 3});
      b.ib.insert(b.ib.end(), words.begin(), words.end());
   }
   const float half = float(size) / 2;
   ctx(gfx::PA_CL_VPORT_XSCALE_0,
       {float_bits(half), float_bits(half), float_bits(half), float_bits(half), float_bits(1), float_bits(0)});
   ctx(gfx::PA_SC_VPORT_ZMIN_0, {float_bits(0), float_bits(1)});
   ctx(gfx::PA_CL_VTE_CNTL, {gfx::vte_viewport_enables | gfx::vte_w0_is_w});
   const uint32_t whole = size | (size << 16), no_offset = 1u << 31;
   ctx(gfx::PA_SC_SCREEN_SCISSOR_TL, {0, whole});
   ctx(gfx::PA_SC_WINDOW_OFFSET, {0});
   ctx(gfx::PA_SC_WINDOW_SCISSOR_TL, {no_offset, whole});
   ctx(gfx::PA_SC_GENERIC_SCISSOR_TL, {no_offset, whole});
   ctx(gfx::PA_SC_VPORT_SCISSOR_0_TL, {no_offset, whole});
   ctx(cayman ? hw::msaa::PA_SC_AA_CONFIG_CAYMAN : hw::msaa::PA_SC_AA_CONFIG_EVERGREEN, {0});
   ctx(gfx::PA_SC_MODE_CNTL_0, {1u << 1});
   ctx(gfx::PA_SU_SC_MODE_CNTL, {0});
   ctx(gfx::PA_CL_CLIP_CNTL, {gfx::clip_cntl_dx_clip_space});
   ctx(cayman ? gfx::CM_PA_SU_VTX_CNTL : gfx::PA_SU_VTX_CNTL, {1 | (5u << 3)});
   ctx(reg::DB_DEPTH_CONTROL, {0});
   ctx(reg::CB_COLOR0_BASE, {uint32_t(target_address >> 8), target_pitch / 8 - 1, target_pitch * size / 64 - 1, 0,
                             (uint32_t(hw::Fmt32_32_32_32Float) << 2) | (1u << 8) | (uint32_t(gfx::Float) << 12), 0});
   /* CB_COLOR1: the RAT, one row of 32-bit elements (the driver's emit_rat). */
   ctx(reg::CB_COLOR0_BASE + reg::CB_COLOR_STRIDE,
       {uint32_t(rat_address >> 8), 64 / 8 - 1, 0, 0, reg::rat_buffer_color_info, reg::rat_buffer_color_attrib,
        rat_bytes / 4 - 1});
   for (uint32_t i = 2; i < 8; i++)
      ctx(reg::CB_COLOR0_BASE + i * reg::CB_COLOR_STRIDE + reg::Info, {0});
   if (returns) {
      ctx(reg::CB_IMMED0_BASE + 4, {uint32_t(returns_address >> 8)});
      std::array<uint32_t, 8> words = reg::buffer_fetch_resource(returns_address, returns_bytes, 1);
      words[3] |= reg::buffer_resource_uncached;
      b.ib.push_back(pm4::packet3(pm4::SET_RESOURCE, 8, false));
      b.ib.push_back((gfx::ps_resource_base + compiler::rat_return_fetch_resource) * 8);
      b.ib.insert(b.ib.end(), words.begin(), words.end());
   }
   ctx(gfx::CB_BLEND0_CONTROL, {0});
   ctx(gfx::CB_COLOR_CONTROL, {(1u << 4) | (0xCCu << 16)});
   ctx(reg::CB_SHADER_MASK, {ps.cb_shader_mask});
   ctx(reg::CB_TARGET_MASK, {0xff});
   b.config(reg::VGT_PRIMITIVE_TYPE, {gfx::TriangleList});
   ctx(gfx::VGT_MULTI_PRIM_IB_RESET_EN, {0});
   ctx(gfx::VGT_MAX_VTX_INDX, {0xffffffffu, 0, 0});
   b.packet(pm4::NUM_INSTANCES, {1});
   b.packet(pm4::DRAW_INDEX_AUTO, {3, 2});
   return b.ib;
}

struct DrawResult {
   std::string error;
   std::vector<bool> drawn;     /* pixels the colour target shows written */
   std::vector<uint32_t> words; /* the RAT's buffer */
};

DrawResult draw(hw::Family family, const Programs &p, uint32_t db_shader_control, bool returns = false)
{
   TestMemory memory;
   auto add = [&](uint64_t address, const void *data, size_t bytes) {
      memory.add(address, (bytes + 255) & ~size_t(255));
      if (data)
         std::memcpy(memory.buffers.back().bytes.data(), data, bytes);
      return memory.buffers.size() - 1;
   };
   add(vs_address, p.vertex.code.data(), p.vertex.code.size() * 4);
   add(ps_address, p.pixel.code.data(), p.pixel.code.size() * 4);
   add(constants_address, nullptr, 512);
   add(vertices_address, triangle, sizeof(triangle));
   const size_t target = add(target_address, nullptr, size_t(target_pitch) * size * 16);
   const size_t rat = add(rat_address, nullptr, rat_bytes);
   add(returns_address, nullptr, returns_bytes);
   sim::CommandProcessor cp(family, memory);
   DrawResult run;
   run.error = cp.execute(draw_ib(family, p, db_shader_control, returns));
   for (unsigned y = 0; y < size; y++)
      for (unsigned x = 0; x < size; x++) {
         float red;
         std::memcpy(&red, memory.buffers[target].bytes.data() + (size_t(y) * target_pitch + x) * 16, 4);
         run.drawn.push_back(red == 1.0f);
      }
   run.words.resize(rat_bytes / 4);
   std::memcpy(run.words.data(), memory.buffers[rat].bytes.data(), rat_bytes);
   return run;
}

/* Clears VALID_PIXEL_MODE on every MEM_RAT export of the program (CF words are 64-bit pairs
 * from the start; the clause bodies after CF_END are left alone). */
compiler::ShaderBinary without_valid_pixel_mode(compiler::ShaderBinary binary)
{
   const isa::Field inst = isa::cf_export::inst, vpm = isa::cf_export::valid_pixel_mode;
   unsigned changed = 0;
   for (size_t dword = 0; dword + 1 < binary.code.size(); dword += 2) {
      uint32_t &word1 = binary.code[dword + 1];
      const uint32_t opcode = (word1 & inst.mask()) >> inst.lsb;
      /* MEM_RAT (0x56), MEM_RAT_CACHELESS (0x57), the COMBINED forms (0x5C, 0x5D): isa/cf_opcodes.inc. */
      if ((opcode == 0x56 || opcode == 0x57 || opcode == 0x5c || opcode == 0x5d) && (word1 & vpm.mask())) {
         word1 &= ~vpm.mask();
         changed++;
      }
   }
   EXPECT_GT(changed, 0u) << "no MEM_RAT with VALID_PIXEL_MODE found";
   return binary;
}

struct Chip {
   hw::Family family;
   const char *name;
};
const Chip chips[] = {{hw::Family::Cayman, "Cayman"}, {hw::Family::Barts, "Barts"}, {hw::Family::Cypress, "Cypress"}};

class PixelRats : public ::testing::TestWithParam<Chip> {};

TEST_P(PixelRats, StoresOfCoveredUndiscardedPixelsOnly)
{
   const Programs p = compile(GetParam().family, "pixel_rat_store.frag");
   ASSERT_EQ(p.error, "");
   /* The compiler asks for EXEC_ON_HIER_FAIL (and LATE_Z) for a shader that writes memory. */
   EXPECT_EQ(p.pixel.graphics.db_shader_control & 0x30u, 0u);
   EXPECT_NE(p.pixel.graphics.db_shader_control & (1u << 10), 0u);
   const DrawResult run = draw(GetParam().family, p, p.pixel.graphics.db_shader_control);
   ASSERT_EQ(run.error, "");
   unsigned drawn = 0, discarded = 0;
   for (unsigned y = 0; y < size; y++)
      for (unsigned x = 0; x < size; x++) {
         const unsigned i = y * size + x;
         const bool killed = ((x ^ y) & 3) == 3;
         drawn += run.drawn[i];
         /* Covered pixels the pattern keeps are drawn; the lower-left triangle covers x + y < 15. */
         if (x + y < 15 && killed)
            discarded++;
         EXPECT_EQ(run.words[i], run.drawn[i] ? x + 1 : 0u) << "pixel " << x << "," << y;
         if (killed) {
            EXPECT_FALSE(run.drawn[i]) << "pixel " << x << "," << y;
         }
      }
   EXPECT_GT(drawn, 80u);
   EXPECT_GT(discarded, 10u);
   for (size_t i = size * size; i < run.words.size(); i++)
      ASSERT_EQ(run.words[i], 0u) << "word " << i << " beyond the target's pixels";
}

TEST_P(PixelRats, MemRatWithoutValidPixelModeIsRefused)
{
   Programs p = compile(GetParam().family, "pixel_rat_store.frag");
   ASSERT_EQ(p.error, "");
   p.pixel = without_valid_pixel_mode(p.pixel);
   const DrawResult run = draw(GetParam().family, p, p.pixel.graphics.db_shader_control);
   EXPECT_NE(run.error.find("VALID_PIXEL_MODE"), std::string::npos) << run.error;
}

TEST_P(PixelRats, WritesUnderAnOrderThatCouldSkipThemAreRefused)
{
   const Programs p = compile(GetParam().family, "pixel_rat_store.frag");
   ASSERT_EQ(p.error, "");
   /* EARLY_Z_THEN_LATE_Z without EXEC_ON_HIER_FAIL, as for a shader without side effects. */
   const uint32_t early = (p.pixel.graphics.db_shader_control & ~(1u << 10)) | (1u << 4);
   EXPECT_NE(draw(GetParam().family, p, early).error.find("LATE_Z"), std::string::npos);
   /* LATE_Z without EXEC_ON_HIER_FAIL. */
   const uint32_t late = p.pixel.graphics.db_shader_control & ~(1u << 10);
   EXPECT_NE(draw(GetParam().family, p, late).error.find("EXEC_ON_HIER_FAIL"), std::string::npos);
   /* DEPTH_BEFORE_SHADER without EXEC_ON_NOOP. */
   const uint32_t before = late | (1u << 15);
   EXPECT_NE(draw(GetParam().family, p, before).error.find("EXEC_ON_NOOP"), std::string::npos);
   /* DEPTH_BEFORE_SHADER with EXEC_ON_NOOP: accepted (no depth buffer: every pixel passes). */
   const DrawResult run = draw(GetParam().family, p, before | (1u << 11));
   EXPECT_EQ(run.error, "");
   EXPECT_EQ(run.words[0], 1u);
}

TEST_P(PixelRats, ReturningAtomicsCountLanesWithMbcnt)
{
   const Programs p = compile(GetParam().family, "pixel_rat_returns.frag");
   ASSERT_EQ(p.error, "");
   ASSERT_TRUE(p.pixel.rat_returns);
   const DrawResult run = draw(GetParam().family, p, p.pixel.graphics.db_shader_control, true);
   ASSERT_EQ(run.error, "");
   /* Every drawn pixel claimed exactly one slot: the slots are 0..count-1, each return unique
    * (two lanes with one return index would have read one value and clashed). */
   const uint32_t count = run.words[0];
   uint32_t drawn = 0;
   for (bool d : run.drawn)
      drawn += d;
   ASSERT_EQ(count, drawn);
   std::vector<unsigned> claims(size * size, 0);
   for (uint32_t s = 0; s < count; s++) {
      const uint32_t pixel = run.words[1 + s];
      ASSERT_GE(pixel, 1u) << "slot " << s << " unclaimed";
      ASSERT_LE(pixel, size * size) << "slot " << s;
      claims[pixel - 1]++;
   }
   for (unsigned i = 0; i < size * size; i++)
      EXPECT_EQ(claims[i], run.drawn[i] ? 1u : 0u) << "pixel " << i % size << "," << i / size;
}

INSTANTIATE_TEST_SUITE_P(Sim, PixelRats, ::testing::ValuesIn(chips),
                         [](const ::testing::TestParamInfo<Chip> &info) { return std::string(info.param.name); });

} // namespace
