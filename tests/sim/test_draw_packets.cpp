/* The indexed draw packets that carry the index buffer's size: DRAW_INDEX_2 (VGT_DMA_MAX_SIZE,
 * the index address, the count) and DRAW_INDEX_OFFSET_2 (VGT_DMA_MAX_SIZE, the first index
 * counted from INDEX_BASE, the count). Each draws the same two triangles as DRAW_INDEX from the
 * same indices, 16- and 32-bit, and must give the same picture; the pixel shader writes the
 * provoking vertex's gl_VertexIndex, so the picture shows which indices the VGT read. The
 * programs are Terakan's compiler's (tests/sim/shaders); the state goes to the command
 * processor directly, the draw packets through the kernel checker (relocations) first. The
 * same draw checks the refusal of kernel-safe registers holding values the simulator does not
 * model (gfx/unmodelled_state.cpp). */
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "compiler/compiler.h"
#include "hw/chips.h"
#include "hw/graphics_registers.h"
#include "draw_harness.h"

using namespace terakan;
using namespace terakan::test;

namespace {

constexpr unsigned size = 16;         /* the target: 16x16 pixels */
constexpr unsigned target_pitch = 64; /* rows of 64 pixels */
constexpr uint64_t vs_address = 0x100000, ps_address = 0x180000, constants_address = 0x200000,
                   vertices_address = 0x300000, indices_address = 0x380000, target_address = 0x400000;

struct Programs {
   compiler::ShaderBinary vertex, pixel;
   std::string error;
};

Programs compile(hw::Family family)
{
   Programs p;
   compiler::CompileOptions options;
   options.family = family;
   options.colour_targets = 1;
   if (!compiler::compile_graphics(read_sim_spirv("draw_packets.vert"), compiler::ShaderStage::Vertex, "main", options,
                                   p.vertex, p.error))
      p.error = "vertex shader: " + p.error;
   else if (!compiler::compile_graphics(read_sim_spirv("draw_packets.frag"), compiler::ShaderStage::Fragment, "main",
                                        options, p.pixel, p.error))
      p.error = "pixel shader: " + p.error;
   return p;
}

/* Six vertices in clip space. Indices 4, 1, 5 make the lower-left triangle (screen (0,0),
 * (8,0), (0,16)), 2, 0, 3 the upper-right one ((16,0), (16,16), (8,16)). */
const float vertices[6][4] = {{1, 1, 0, 1},  {0, -1, 0, 1}, {1, -1, 0, 1},
                              {0, 1, 0, 1},  {-1, -1, 0, 1}, {-1, 1, 0, 1}};
/* The index buffer: two leading indices the draws skip (vertex 3 twice, which would paint
 * the wrong colour if read), then the two triangles, then one more index after them. */
const uint32_t indices[9] = {3, 3, 4, 1, 5, 2, 0, 3, 3};
constexpr uint32_t first_index = 2, index_count = 6;

/* The state of the draw (no draw packet): programs, interface, vertex buffer, viewport and
 * scissors, one 32_32_32_32_FLOAT colour target, triangle lists. */
std::vector<uint32_t> state_ib(hw::Family family, const Programs &p)
{
   IbBuilder b;
   emit_shader_state(b, p.vertex, p.pixel, vs_address, ps_address, constants_address, 0);
   emit_float4_vertex_inputs(b, p.vertex, [](unsigned) { return vertices_address; }, sizeof(vertices), 16);
   emit_square_viewport_and_rasterizer(b, family, size);
   emit_float_colour_target(b, target_address, target_pitch, size);
   emit_output_and_primitive_state(b, p.pixel, 0xf);
   set_context(b, hw::gfx::VGT_INDX_OFFSET, {0});
   return b.ib;
}

/* A draw packet stream with its relocations (relocation 0 is the index buffer), as a driver
 * sends it to the kernel: the index address is an offset in the index buffer. */
struct DrawStream {
   IbBuilder builder;
   explicit DrawStream(bool index_32bit)
   {
      /* The kernel checker tracks the depth and colour state per submission: no depth test,
       * no colour buffer it would check (its CB_COLOR0_INFO stays 0 in this stream). */
      builder.context(hw::reg::DB_DEPTH_CONTROL, {0}, false);
      builder.packet(hw::pm4::INDEX_TYPE, {index_32bit ? 1u : 0u});
   }
};

struct Picture {
   std::string error;
   std::vector<float> red; /* per pixel, -1 where nothing was written */
};

class Fixture {
public:
   Fixture(hw::Family family, bool index_32bit) : family(family), index_32bit(index_32bit)
   {
      programs = compile(family);
   }

   /* Runs the state, then `stream` through the kernel checker and the command processor, and
    * reads the target back. */
   Picture draw(const DrawStream &stream, size_t index_buffer_bytes = 0)
   {
      TestMemory memory;
      auto add = [&](uint64_t address, const void *data, size_t bytes) {
         memory.add(address, (bytes + 255) & ~size_t(255));
         if (data)
            std::memcpy(memory.buffers.back().bytes.data(), data, bytes);
         return memory.buffers.size() - 1;
      };
      add(vs_address, programs.vertex.code.data(), programs.vertex.code.size() * 4);
      add(ps_address, programs.pixel.code.data(), programs.pixel.code.size() * 4);
      add(constants_address, nullptr, 512);
      add(vertices_address, vertices, sizeof(vertices));
      /* The index buffer, exactly as large as asked (by default all nine indices). */
      std::vector<uint8_t> index_bytes(9 * index_size());
      for (unsigned i = 0; i < 9; i++)
         std::memcpy(index_bytes.data() + i * index_size(), &indices[i], index_size());
      if (!index_buffer_bytes)
         index_buffer_bytes = index_bytes.size();
      memory.add(indices_address, index_buffer_bytes);
      std::memcpy(memory.buffers.back().bytes.data(), index_bytes.data(),
                  std::min(index_buffer_bytes, index_bytes.size()));
      const size_t target = memory.buffers.size();
      memory.add(target_address, size_t(target_pitch) * size * 16);
      /* Unwritten pixels keep -1 in red. */
      for (size_t pixel = 0; pixel < size_t(target_pitch) * size; pixel++) {
         const float minus_one = -1;
         std::memcpy(memory.buffers[target].bytes.data() + pixel * 16, &minus_one, 4);
      }

      sim::CommandProcessor cp(family, memory);
      Picture picture;
      picture.error = cp.execute(state_ib(family, programs));
      if (picture.error.empty()) {
         const std::vector<sim::CsReloc> relocs = {{indices_address, index_buffer_bytes, 0}};
         picture.error = submit(stream.builder.ib, relocs, cp, hw::family_info(family).isa_class);
      }
      for (unsigned y = 0; y < size; y++)
         for (unsigned x = 0; x < size; x++) {
            float red;
            std::memcpy(&red, memory.buffers[target].bytes.data() + (size_t(y) * target_pitch + x) * 16, 4);
            picture.red.push_back(red);
         }
      return picture;
   }

   unsigned index_size() const { return index_32bit ? 4 : 2; }

   /* The reference: DRAW_INDEX from the first index's address, after writing `reg` (a
    * context register) with `value` when asked. */
   DrawStream draw_index(uint32_t reg = 0, uint32_t value = 0) const
   {
      DrawStream s(index_32bit);
      if (reg)
         s.builder.context(reg, {value}, false);
      s.builder.packet(hw::pm4::DRAW_INDEX, {first_index * index_size(), 0, index_count, 0});
      s.builder.reloc(0);
      return s;
   }
   DrawStream draw_index_2(uint32_t max_size, uint32_t count = index_count) const
   {
      DrawStream s(index_32bit);
      s.builder.packet(hw::pm4::DRAW_INDEX_2, {max_size, first_index * index_size(), 0, count, 0});
      s.builder.reloc(0);
      return s;
   }
   DrawStream draw_index_offset_2(uint32_t max_size, uint32_t first = first_index,
                                  uint32_t count = index_count) const
   {
      DrawStream s(index_32bit);
      s.builder.packet(hw::pm4::INDEX_BASE, {0, 0});
      s.builder.reloc(0);
      s.builder.packet(hw::pm4::DRAW_INDEX_OFFSET_2, {max_size, first, count, 0});
      return s;
   }

   hw::Family family;
   bool index_32bit;
   Programs programs;
};

struct Case {
   hw::Family family;
   const char *name;
   bool index_32bit;
};
const Case cases[] = {{hw::Family::Cayman, "Cayman16", false}, {hw::Family::Cayman, "Cayman32", true},
                      {hw::Family::Barts, "Barts16", false},   {hw::Family::Barts, "Barts32", true},
                      {hw::Family::Cypress, "Cypress16", false}, {hw::Family::Cypress, "Cypress32", true}};

class DrawPackets : public ::testing::TestWithParam<Case> {};

/* The reference picture has the lower-left triangle in vertex 4's index, the upper-right one
 * in vertex 2's, and nothing where neither is (had the draw started at index 0, vertex 3
 * would provoke the first triangle). */
void expect_reference(const Picture &picture)
{
   ASSERT_EQ(picture.error, "");
   auto at = [&](unsigned x, unsigned y) { return picture.red[y * size + x]; };
   EXPECT_EQ(at(2, 2), 4.0f);
   EXPECT_EQ(at(13, 13), 2.0f);
   EXPECT_EQ(at(13, 2), -1.0f);
   EXPECT_EQ(at(2, 13), -1.0f);
   unsigned fours = 0, twos = 0, unwritten = 0;
   for (float red : picture.red)
      (red == 4.0f ? fours : red == 2.0f ? twos : unwritten)++;
   EXPECT_GT(fours, 40u);
   EXPECT_GT(twos, 40u);
   EXPECT_EQ(std::count(picture.red.begin(), picture.red.end(), -1.0f), unwritten) << "other values drawn";
}

TEST_P(DrawPackets, DrawIndex2DrawsWhatDrawIndexDraws)
{
   Fixture f(GetParam().family, GetParam().index_32bit);
   ASSERT_EQ(f.programs.error, "");
   const Picture reference = f.draw(f.draw_index());
   expect_reference(reference);
   /* MAX_SIZE counts the indices from the packet's address: exactly the draw's six, and the
    * seven the buffer holds after it. */
   for (uint32_t max_size : {index_count, index_count + 1}) {
      const Picture picture = f.draw(f.draw_index_2(max_size));
      EXPECT_EQ(picture.error, "") << "MAX_SIZE " << max_size;
      EXPECT_EQ(picture.red, reference.red) << "MAX_SIZE " << max_size;
   }
}

TEST_P(DrawPackets, DrawIndexOffset2DrawsWhatDrawIndexDraws)
{
   Fixture f(GetParam().family, GetParam().index_32bit);
   ASSERT_EQ(f.programs.error, "");
   const Picture reference = f.draw(f.draw_index());
   expect_reference(reference);
   /* MAX_SIZE counts from INDEX_BASE: the first index plus the draw's six, and all nine. */
   for (uint32_t max_size : {first_index + index_count, 9u}) {
      const Picture picture = f.draw(f.draw_index_offset_2(max_size));
      EXPECT_EQ(picture.error, "") << "MAX_SIZE " << max_size;
      EXPECT_EQ(picture.red, reference.red) << "MAX_SIZE " << max_size;
   }
   /* The offset is in indices: from index 0 vertex 3 provokes the first triangle instead. */
   const Picture from_zero = f.draw(f.draw_index_offset_2(9, 0));
   ASSERT_EQ(from_zero.error, "");
   EXPECT_NE(from_zero.red, reference.red);
}

#define EXPECT_REFUSED(text, expected)                                                         \
   do {                                                                                        \
      const std::string message_ = (text);                                                     \
      EXPECT_NE(message_.find(expected), std::string::npos) << "message: " << message_;        \
   } while (0)

TEST_P(DrawPackets, IndicesPastMaxSizeAreRefused)
{
   Fixture f(GetParam().family, GetParam().index_32bit);
   ASSERT_EQ(f.programs.error, "");
   EXPECT_REFUSED(f.draw(f.draw_index_2(index_count - 1)).error,
                  "DRAW_INDEX_2: indices 0 to 6 reach past VGT_DMA_MAX_SIZE 5");
   EXPECT_REFUSED(f.draw(f.draw_index_offset_2(first_index + index_count - 1)).error,
                  "DRAW_INDEX_OFFSET_2: indices 2 to 8 reach past VGT_DMA_MAX_SIZE 7");
}

TEST_P(DrawPackets, IndexBufferTooSmallIsRefused)
{
   /* MAX_SIZE claims more indices than the buffer holds. The kernel does not compare the two
    * (Linux evergreen_cs.c); the VGT would read past the buffer, so the simulator stops. The
    * buffer ends after index 5 (12 bytes of 16-bit or 24 of 32-bit indices). */
   Fixture f(GetParam().family, GetParam().index_32bit);
   ASSERT_EQ(f.programs.error, "");
   const size_t short_buffer = 6 * f.index_size();
   EXPECT_REFUSED(f.draw(f.draw_index_2(1000), short_buffer).error,
                  "index buffer: 6 indices of " + std::to_string(f.index_size()) + " bytes run past the buffer");
   EXPECT_REFUSED(f.draw(f.draw_index_offset_2(1000), short_buffer).error,
                  "index buffer: 6 indices of " + std::to_string(f.index_size()) + " bytes run past the buffer");
   /* The offset beyond the buffer's end: the first index is outside every buffer. */
   EXPECT_REFUSED(f.draw(f.draw_index_offset_2(100000, 50000, 3)).error,
                  "index buffer: 3 indices of " + std::to_string(f.index_size()) + " bytes run past the buffer");
}

TEST_P(DrawPackets, KernelRefusals)
{
   Fixture f(GetParam().family, GetParam().index_32bit);
   ASSERT_EQ(f.programs.error, "");
   /* DRAW_INDEX_2 without the NOP that names its index buffer. */
   DrawStream missing(false);
   missing.builder.packet(hw::pm4::DRAW_INDEX_2, {6, 0, 0, 6, 0});
   EXPECT_REFUSED(f.draw(missing).error, "bad DRAW_INDEX_2");
   /* Wrong body lengths (Linux evergreen_cs.c: 5 and 4 dwords). */
   DrawStream short_2(false);
   short_2.builder.packet(hw::pm4::DRAW_INDEX_2, {6, 0, 6, 0});
   short_2.builder.reloc(0);
   EXPECT_REFUSED(f.draw(short_2).error, "kernel: bad DRAW_INDEX_2");
   DrawStream long_offset_2(false);
   long_offset_2.builder.packet(hw::pm4::DRAW_INDEX_OFFSET_2, {6, 0, 6, 0, 0});
   EXPECT_REFUSED(f.draw(long_offset_2).error, "kernel: bad DRAW_INDEX_OFFSET_2");
   /* A source select other than DMA in the initiator (2: auto index). */
   EXPECT_REFUSED(f.draw([&] {
                     DrawStream s(false);
                     s.builder.packet(hw::pm4::DRAW_INDEX_2, {6, 4, 0, 6, 2});
                     s.builder.reloc(0);
                     return s;
                  }())
                     .error,
                  "draw packet 0x27: VGT_DRAW_INITIATOR.SOURCE_SELECT 2 does not match the packet");
}

constexpr uint32_t PA_SC_CLIPRECT_RULE = 0x2820C, PA_SC_EDGERULE = 0x28230; /* Mesa evergreend.h */

/* Kernel-safe registers no simulated block reads (gfx/unmodelled_state.cpp): a value that
 * would change the picture refuses the draw, not the SET; the modelled value draws. */
TEST_P(DrawPackets, UnmodelledRegisterValuesAreRefusedAtTheDraw)
{
   Fixture f(GetParam().family, GetParam().index_32bit);
   ASSERT_EQ(f.programs.error, "");
   const Picture reference = f.draw(f.draw_index());
   expect_reference(reference);
   /* The fill rule r600g and the kernel's default state write: drawn as before. */
   const Picture modelled = f.draw(f.draw_index(PA_SC_EDGERULE, 0xAAAAAAAAu));
   EXPECT_EQ(modelled.error, "");
   EXPECT_EQ(modelled.red, reference.red);
   /* Another edge rule: the kernel passes the SET (a safe register), the draw is refused
    * before anything is written. */
   const Picture refused = f.draw(f.draw_index(PA_SC_EDGERULE, 0x55555555u));
   EXPECT_REFUSED(refused.error, "draw: not simulated: PA_SC_EDGERULE = 0x55555555");
   EXPECT_EQ(std::count(refused.red.begin(), refused.red.end(), -1.0f), long(size * size));
   /* Cliprects that would mask pixels, and a performance bit of the same register that is not. */
   EXPECT_REFUSED(f.draw(f.draw_index(PA_SC_CLIPRECT_RULE, 0x0000AAAAu)).error,
                  "not simulated: PA_SC_CLIPRECT_RULE = 0x0000aaaa");
   EXPECT_REFUSED(f.draw(f.draw_index(hw::gfx::DB_RENDER_OVERRIDE, 1u << 10)).error,
                  "not simulated: DB_RENDER_OVERRIDE = 0x00000400");
   EXPECT_EQ(f.draw(f.draw_index(hw::gfx::DB_RENDER_OVERRIDE, 0x04000228u)).red, reference.red);
}

/* Quads drawn as lines (polygon mode) would show the diagonal between their two triangles:
 * refused. The same quad filled draws (the GL scene quads_polygons checks the pictures). */
TEST_P(DrawPackets, QuadsInPolygonModeAreRefused)
{
   Fixture f(GetParam().family, GetParam().index_32bit);
   ASSERT_EQ(f.programs.error, "");
   auto quad = [&](uint32_t mode_control) {
      DrawStream s(f.index_32bit);
      s.builder.config(hw::reg::VGT_PRIMITIVE_TYPE, {hw::gfx::QuadList});
      s.builder.context(hw::gfx::PA_SU_SC_MODE_CNTL, {mode_control}, false);
      s.builder.packet(hw::pm4::DRAW_INDEX, {first_index * f.index_size(), 0, 4, 0});
      s.builder.reloc(0);
      return s;
   };
   const Picture filled = f.draw(quad(0));
   EXPECT_EQ(filled.error, "");
   EXPECT_GT(std::count(filled.red.begin(), filled.red.end(), 4.0f) +
                std::count(filled.red.begin(), filled.red.end(), 2.0f),
             0);
   /* POLY_MODE 1, both faces' PTYPE 1 (lines). */
   EXPECT_REFUSED(f.draw(quad((1u << 3) | (1u << 5) | (1u << 8))).error,
                  "quads and polygons (VGT_PRIMITIVE_TYPE 19) in polygon mode are not simulated");
}

INSTANTIATE_TEST_SUITE_P(Sim, DrawPackets, ::testing::ValuesIn(cases),
                         [](const ::testing::TestParamInfo<Case> &info) { return std::string(info.param.name); });

} // namespace
