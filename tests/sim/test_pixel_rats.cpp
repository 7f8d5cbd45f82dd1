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
#include "draw_harness.h"

using namespace terakan;
using namespace terakan::test;

namespace {

constexpr unsigned size = 16;       /* the target: 16x16 pixels */
constexpr unsigned target_pitch = 64; /* linear-aligned rows of 64 pixels */
constexpr uint64_t vs_address = 0x100000, ps_address = 0x180000, constants_address = 0x200000,
                   vertices_address = 0x300000, target_address = 0x400000, rat_address = 0x500000,
                   returns_address = 0x600000;
constexpr uint32_t rat_bytes = 4096, returns_bytes = compiler::rat_return_buffer_bytes;

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
   if (!compiler::compile_graphics(read_sim_spirv("pixel_rat.vert"), compiler::ShaderStage::Vertex, "main", options,
                                   p.vertex, p.error))
      p.error = "vertex shader: " + p.error;
   else if (!compiler::compile_graphics(read_sim_spirv(fragment), compiler::ShaderStage::Fragment, "main", options,
                                        p.pixel, p.error))
      p.error = std::string(fragment) + ": " + p.error;
   return p;
}

/* The lower-left half of the target (a triangle whose long edge cuts quads). */
const float triangle[3][4] = {{-1, -1, 0, 1}, {1, -1, 0, 1}, {-1, 1, 0, 1}};

/* One draw of the triangle: CB_COLOR0 a 32_32_32_32_FLOAT target, CB_COLOR1 the RAT (a
 * COLOR_32 buffer as the driver binds storage buffers), its return buffer when asked. */
std::vector<uint32_t> draw_ib(hw::Family family, const Programs &p, uint32_t db_shader_control, bool returns)
{
   namespace gfx = hw::gfx;
   namespace reg = hw::reg;
   IbBuilder b;
   emit_shader_state(b, p.vertex, p.pixel, vs_address, ps_address, constants_address, db_shader_control);
   emit_float4_vertex_inputs(b, p.vertex, [](unsigned) { return vertices_address; }, sizeof(triangle), 16);
   emit_square_viewport_and_rasterizer(b, family, size);
   emit_float_colour_target(b, target_address, target_pitch, size, 2);
   /* CB_COLOR1: the RAT, one row of 32-bit elements (the driver's emit_rat). */
   set_context(b, reg::CB_COLOR0_BASE + reg::CB_COLOR_STRIDE,
               {uint32_t(rat_address >> 8), 64 / 8 - 1, 0, 0, reg::rat_buffer_color_info, reg::rat_buffer_color_attrib,
                rat_bytes / 4 - 1});
   if (returns) {
      set_context(b, reg::CB_IMMED0_BASE + 4, {uint32_t(returns_address >> 8)});
      std::array<uint32_t, 8> words = reg::buffer_fetch_resource(returns_address, returns_bytes, 1);
      words[3] |= reg::buffer_resource_uncached;
      b.ib.push_back(hw::pm4::packet3(hw::pm4::SET_RESOURCE, 8, false));
      b.ib.push_back((gfx::ps_resource_base + compiler::rat_return_fetch_resource) * 8);
      b.ib.insert(b.ib.end(), words.begin(), words.end());
   }
   emit_output_and_primitive_state(b, p.pixel, 0xff);
   b.packet(hw::pm4::DRAW_INDEX_AUTO, {3, 2});
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
