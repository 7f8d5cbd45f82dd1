/* Pixel shading through the simulator's draw path: one RECTLIST covering a 256x256 RGBA8
 * colour buffer, a vertex shader that fetches its position and one parameter, and either
 *  - "simple": the pixel shader interpolates the parameter and exports it, or
 *  - "texture": it interpolates texture coordinates, takes four bilinear SAMPLEs of a 256x256
 *    RGBA8 texture (at texel offsets) and exports their average.
 * The shaders are assembled here with the ISA tables (tests/isa/alu_builder.h) and pass the
 * bundle checker, as the simulator requires; the register state is what run_draw reads
 * (docs/sim-semantics.md, "Drawing"). */
#include "sim_pixel_bench.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "../tests/isa/alu_builder.h"
#include "compiler/isa/words.h"
#include "core/host_memory.h"
#include "gfx/draw.h"
#include "hw/graphics_registers.h"
#include "hw/registers.h"
#include "hw/texture.h"

namespace terakan::bench {

namespace {

using namespace terakan::isa;
using test::gpr;
using test::make_alu;
using test::Src;

constexpr unsigned target_width = 256, target_height = 256;
constexpr unsigned texture_size = 256;
constexpr uint64_t vs_address = 0x100000, ps_address = 0x110000, vertices_address = 0x200000,
                   parameters_address = 0x210000, texture_address = 0x400000, colour_address = 0x800000;

/* Sets the four component fields x, y, z, w of an instruction to 0, 1, 2, 3: the identity
 * swizzle, which every instruction here uses on its selects. */
void identity_swizzle(std::span<uint32_t> words, const Field &x, const Field &y, const Field &z, const Field &w)
{
   const Field *fields[4] = {&x, &y, &z, &w};
   for (uint32_t c = 0; c < 4; c++)
      fields[c]->set(words, c);
}

/* A program laid out in 64-bit slots: CF instructions from slot 0, clauses where placed. */
class ProgramWords {
public:
   explicit ProgramWords(IsaClass isa) : isa(isa) {}

   void put(unsigned slot, const uint32_t *words, unsigned count)
   {
      if (words_.size() < size_t(slot) * 2 + count)
         words_.resize(size_t(slot) * 2 + count, 0);
      std::memcpy(&words_[size_t(slot) * 2], words, count * 4);
   }
   void cf(const std::array<uint32_t, 2> &w) { put(next_cf++, w.data(), 2); }

   void alu_clause(unsigned slot, unsigned slots)
   {
      std::array<uint32_t, 2> w{};
      cf_alu::addr.set(w, slot);
      cf_alu::count.set(w, slots - 1);
      cf_alu::inst.set(w, 8); /* CF_INST_ALU */
      cf_alu::barrier.set(w, 1);
      cf(w);
   }
   void fetch_clause(unsigned slot, unsigned count)
   {
      std::array<uint32_t, 2> w{};
      cf::addr.set(w, slot);
      cf::count.set(w, count - 1);
      cf::inst.set(w, 0x01); /* a texture-cache clause: TEX and VFETCH alike */
      cf::barrier.set(w, 1);
      cf(w);
   }
   /* EXPORT(_DONE) of R`gpr` to (type, base); the last one ends the program. */
   void export_gpr(unsigned type, unsigned base, unsigned gpr_index, bool last)
   {
      std::array<uint32_t, 2> w{};
      cf_export::type.set(w, type);
      cf_export::array_base.set(w, base);
      cf_export::rw_gpr.set(w, gpr_index);
      identity_swizzle(w, cf_export::sel_x, cf_export::sel_y, cf_export::sel_z, cf_export::sel_w);
      cf_export::inst.set(w, last ? 0x54 : 0x53); /* EXPORT_DONE : EXPORT */
      cf_export::barrier.set(w, 1);
      if (last && isa == IsaClass::Evergreen)
         cf_export::end_of_program.set(w, 1);
      cf(w);
      if (last && isa == IsaClass::Cayman) {
         std::array<uint32_t, 2> end{};
         cf::inst.set(end, 0x20); /* CF_END */
         cf::barrier.set(end, 1);
         cf(end);
      }
   }

   /* Groups that pass the bundle checker, at `slot`; returns the slots they take. */
   unsigned alu_groups(unsigned slot, std::vector<test::TestGroup> groups)
   {
      unsigned used = 0;
      for (test::TestGroup &group : groups) {
         const auto violations = group.check();
         if (!violations.empty())
            throw std::runtime_error("illegal benchmark group: " + test::describe(violations));
         for (const AluInstruction &instruction : group.instructions)
            put(slot + used++, instruction.words.data(), 2);
      }
      return used;
   }

   void fetch(unsigned slot, const std::array<uint32_t, 4> &w) { put(slot, w.data(), 4); }

   const std::vector<uint32_t> &words() const { return words_; }

private:
   IsaClass isa;
   std::vector<uint32_t> words_;
   unsigned next_cf = 0;
};

std::array<uint32_t, 4> vfetch(IsaClass isa, unsigned buffer, unsigned dst)
{
   std::array<uint32_t, 4> w{};
   vtx::fetch_type.set(w, 2);
   vtx::buffer_id.set(w, buffer);
   if (isa == IsaClass::Evergreen)
      vtx::mega_fetch_count.set(w, 15);
   vtx::dst_gpr.set(w, dst);
   identity_swizzle(w, vtx::dst_sel_x, vtx::dst_sel_y, vtx::dst_sel_z, vtx::dst_sel_w);
   vtx::data_format.set(w, hw::Fmt32_32_32_32Float);
   vtx::num_format_all.set(w, 2);
   if (isa == IsaClass::Evergreen)
      vtx::mega_fetch.set(w, 1);
   return w;
}

/* SAMPLE R`dst` = texture 0 at R1.xy (normalized), offset by (x, y) half texels. */
std::array<uint32_t, 4> sample(unsigned dst, int offset_x, int offset_y)
{
   std::array<uint32_t, 4> t{};
   tex::inst.set(t, 0x10); /* SAMPLE */
   tex::resource_id.set(t, 0);
   tex::sampler_id.set(t, 0);
   tex::src_gpr.set(t, 1);
   tex::dst_gpr.set(t, dst);
   identity_swizzle(t, tex::dst_sel_x, tex::dst_sel_y, tex::dst_sel_z, tex::dst_sel_w);
   for (const Field *normalized : {&tex::coord_type_x, &tex::coord_type_y, &tex::coord_type_z, &tex::coord_type_w})
      normalized->set(t, 1);
   tex::offset_x.set(t, uint32_t(offset_x) & 31);
   tex::offset_y.set(t, uint32_t(offset_y) & 31);
   identity_swizzle(t, tex::src_sel_x, tex::src_sel_y, tex::src_sel_z, tex::src_sel_w);
   return t;
}

/* The VS: R1 = position, R2 = parameter, fetched by vertex index (R0.x); both exported. */
std::vector<uint32_t> vertex_shader(IsaClass isa)
{
   ProgramWords p(isa);
   p.fetch_clause(4, 2);
   p.export_gpr(1, 60, 1, false); /* POS 60 */
   p.export_gpr(2, 0, 2, true);   /* PARAM 0 */
   p.fetch(4, vfetch(isa, 0, 1));
   p.fetch(6, vfetch(isa, 1, 2));
   return p.words();
}

/* INTERP_ZW then INTERP_XY of parameter 0 into R`dst`, with the barycentrics in R0 (the SPI
 * puts J in R0.x and I in R0.y): even slots take I, odd slots J (Mesa sfn's pattern). */
std::vector<test::TestGroup> interpolate(IsaClass isa, unsigned dst)
{
   std::vector<test::TestGroup> groups;
   for (const char *op : {"INTERP_ZW", "INTERP_XY"}) {
      test::TestGroup group(isa);
      const bool xy = std::string(op) == "INTERP_XY";
      for (unsigned c = 0; c < 4; c++) {
         AluInstruction in = make_alu(isa, op, dst, "xyzw"[c],
                                      {gpr(0, c % 2 == 0 ? 'y' : 'x'), Src{src_sel::param_base, c}},
                                      5 /* VEC_210, which INTERP_* require */);
         in.set(alu::write_mask, xy ? c < 2 : c >= 2);
         group.add(in);
      }
      groups.push_back(group);
   }
   return groups;
}

std::vector<uint32_t> simple_pixel_shader(IsaClass isa)
{
   ProgramWords p(isa);
   const unsigned alu_at = 4;
   const unsigned slots = p.alu_groups(alu_at, interpolate(isa, 1));
   p.alu_clause(alu_at, slots);
   p.export_gpr(0, 0, 1, true);
   return p.words();
}

/* R2..R5 = four samples around R1.xy; R2 = their average; exported. */
std::vector<uint32_t> texture_pixel_shader(IsaClass isa)
{
   ProgramWords p(isa);
   const unsigned interp_at = 6;
   const unsigned interp_slots = p.alu_groups(interp_at, interpolate(isa, 1));
   const unsigned tex_at = (interp_at + interp_slots + 1) & ~1u; /* 128-bit aligned */
   const int offsets[4][2] = {{0, 0}, {2, 0}, {0, 2}, {2, 2}};
   for (unsigned k = 0; k < 4; k++)
      p.fetch(tex_at + 2 * k, sample(2 + k, offsets[k][0], offsets[k][1]));
   const unsigned average_at = tex_at + 8;
   /* ADD with OMOD /2 (3): R2 = (R2 + R3) / 2, R4 = (R4 + R5) / 2, then R2 = (R2 + R4) / 2. */
   std::vector<test::TestGroup> average;
   for (const auto &[a, b] : {std::pair{2u, 3u}, std::pair{4u, 5u}, std::pair{2u, 4u}}) {
      test::TestGroup group(isa);
      for (unsigned c = 0; c < 4; c++) {
         const char chan = "xyzw"[c];
         AluInstruction in = make_alu(isa, "ADD", a, chan, {gpr(a, chan), gpr(b, chan)});
         in.set(alu::omod, 3);
         group.add(in);
      }
      average.push_back(group);
   }
   const unsigned average_slots = p.alu_groups(average_at, average);
   p.alu_clause(interp_at, interp_slots);
   p.fetch_clause(tex_at, 4);
   p.alu_clause(average_at, average_slots);
   p.export_gpr(0, 0, 2, true);
   return p.words();
}

/* Register state (the RegisterMaps base) and memory for one draw of a screen-covering RECTLIST. */
struct Scene : sim::RegisterMaps {
   IsaClass isa;
   sim::HostMemory memory;
   sim::PipelineState state;

   Scene(IsaClass isa, const std::vector<uint32_t> &vs, const std::vector<uint32_t> &ps, unsigned ps_gprs)
      : isa(isa)
   {
      using namespace hw::gfx;
      auto code = [&](uint64_t address, const std::vector<uint32_t> &words) {
         auto &buffer = memory.add(address, words.size() * 4 + 256);
         std::memcpy(buffer.bytes.data(), words.data(), words.size() * 4);
      };
      code(vs_address, vs);
      code(ps_address, ps);
      /* Clip-space corners of the RECTLIST (the fourth is b + c - a) and the parameter each
       * carries: texture coordinates over [0, 1]. */
      const float positions[3][4] = {{-1, -1, 0.5f, 1}, {1, -1, 0.5f, 1}, {-1, 1, 0.5f, 1}};
      const float parameters[3][4] = {{0, 0, 0.25f, 1}, {1, 0, 0.5f, 1}, {0, 1, 0.75f, 1}};
      std::memcpy(memory.add(vertices_address, sizeof(positions)).bytes.data(), positions, sizeof(positions));
      std::memcpy(memory.add(parameters_address, sizeof(parameters)).bytes.data(), parameters, sizeof(parameters));
      auto set_resource = [&](unsigned slot, const std::array<uint32_t, 8> &words) {
         std::copy(words.begin(), words.end(), resources.begin() + size_t(slot) * 8);
      };
      set_resource(vs_resource_base + 0, hw::reg::buffer_fetch_resource(vertices_address, sizeof(positions), 16));
      set_resource(vs_resource_base + 1, hw::reg::buffer_fetch_resource(parameters_address, sizeof(parameters), 16));

      /* The texture: RGBA8, linear, a pattern that varies in both directions. */
      auto &texels = memory.add(texture_address, size_t(texture_size) * texture_size * 4);
      for (unsigned y = 0; y < texture_size; y++)
         for (unsigned x = 0; x < texture_size; x++) {
            uint8_t *t = &texels.bytes[(size_t(y) * texture_size + x) * 4];
            t[0] = uint8_t(x), t[1] = uint8_t(y), t[2] = uint8_t(x ^ y), t[3] = 255;
         }
      hw::TextureResource texture;
      texture.dim = hw::TextureDim::Dim2D;
      texture.width = texture.height = texture.pitch = texture_size;
      texture.format = hw::Fmt8_8_8_8;
      texture.base_address = texture_address;
      texture.last_level = 0;
      set_resource(ps_resource_base + 0, hw::encode_texture_resource(texture));
      hw::Sampler sampler;
      sampler.mag_filter = sampler.min_filter = hw::TexFilter::Bilinear;
      const auto sampler_words = hw::encode_sampler(sampler, isa);
      std::copy(sampler_words.begin(), sampler_words.end(), samplers.begin() + hw::ps_sampler_base * 3);

      memory.add(colour_address, size_t(target_width) * target_height * 4);

      config[hw::reg::VGT_PRIMITIVE_TYPE] = RectList;
      context[SQ_PGM_START_VS] = uint32_t(vs_address >> 8);
      context[SQ_PGM_RESOURCES_VS] = 3 | (1u << 8);
      context[SQ_PGM_START_PS] = uint32_t(ps_address >> 8);
      context[SQ_PGM_RESOURCES_PS] = ps_gprs | (1u << 8);
      context[SPI_VS_OUT_CONFIG] = 0;      /* one parameter export */
      context[SPI_VS_OUT_ID_0] = 0;        /* ... with semantic 0 */
      context[SPI_PS_INPUT_CNTL_0] = 0;    /* PS input 0 takes semantic 0 */
      context[SPI_PS_IN_CONTROL_0] = 1;    /* NUM_INTERP */
      context[SPI_BARYC_CNTL] = 1;         /* perspective, pixel centre: R0.xy */
      context[PA_CL_VTE_CNTL] = 0x3f;      /* viewport scale and offset on x, y, z */
      const float viewport[6] = {target_width / 2.0f, target_width / 2.0f, target_height / 2.0f,
                                 target_height / 2.0f, 0.5f, 0.5f};
      for (unsigned i = 0; i < 6; i++) {
         uint32_t bits;
         std::memcpy(&bits, &viewport[i], 4);
         context[PA_CL_VPORT_XSCALE_0 + 4 * i] = bits;
      }
      context[isa == IsaClass::Cayman ? CM_PA_SU_VTX_CNTL : PA_SU_VTX_CNTL] = 1; /* pixel centres at .5 */
      const uint32_t bottom_right = target_width | (target_height << 16);
      for (const auto &[tl, br] : {std::pair{PA_SC_SCREEN_SCISSOR_TL, PA_SC_SCREEN_SCISSOR_BR},
                                   std::pair{PA_SC_WINDOW_SCISSOR_TL, PA_SC_WINDOW_SCISSOR_BR},
                                   std::pair{PA_SC_GENERIC_SCISSOR_TL, PA_SC_GENERIC_SCISSOR_BR},
                                   std::pair{PA_SC_VPORT_SCISSOR_0_TL, PA_SC_VPORT_SCISSOR_0_BR}}) {
         context[tl] = 1u << 31; /* WINDOW_OFFSET_DISABLE */
         context[br] = bottom_right;
      }
      context[CB_COLOR_CONTROL] = (0xccu << 16) | (1u << 4); /* ROP3 copy, MODE normal */
      context[hw::reg::CB_TARGET_MASK] = 0xf;
      const uint32_t cb = hw::reg::CB_COLOR0_BASE;
      context[cb + hw::reg::Base] = uint32_t(colour_address >> 8);
      context[cb + hw::reg::Pitch] = target_width / 8 - 1;
      context[cb + hw::reg::Slice] = target_width * target_height / 64 - 1;
      context[cb + hw::reg::Info] = (0x1Au << 2) | (1u << 8); /* COLOR_8_8_8_8, UNORM, linear aligned */

      state.isa = isa;
      state.point_at(*this);
   }
};

bool run_case(const char *name, IsaClass isa, const std::vector<uint32_t> &ps, unsigned ps_gprs, int repeat)
{
   Scene scene(isa, vertex_shader(isa), ps, ps_gprs);
   sim::DrawCall call;
   call.count = 3;
   sim::DispatchStatistics totals;
   sim::DrawStatistics statistics;
   const auto start = std::chrono::steady_clock::now();
   for (int r = 0; r < repeat; r++) {
      const std::string error = sim::run_draw(scene.state, call, scene.memory, sim::TraceLevel::None, totals,
                                              statistics);
      if (!error.empty()) {
         std::fprintf(stderr, "terakan-bench-sim: %s draw: %s\n", name, error.c_str());
         return false;
      }
   }
   const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
   if (statistics.pixels_written != uint64_t(repeat) * target_width * target_height) {
      std::fprintf(stderr, "terakan-bench-sim: %s draw wrote %llu pixels, expected %u per draw\n", name,
                   (unsigned long long)statistics.pixels_written, target_width * target_height);
      return false;
   }
   std::printf("%-18s %14.3e %14.3e %12.3f\n", name, statistics.pixels_shaded / seconds,
               totals.alu_lane_operations / seconds, 1000.0 * seconds / repeat);
   return true;
}

} // namespace

bool run_pixel_benchmarks(IsaClass isa, int repeat)
{
   std::printf("\npixel shading: RECTLIST over %ux%u RGBA8, %d draws per shader\n", target_width, target_height,
               repeat);
   std::printf("%-18s %14s %14s %12s\n", "pixel shader", "pixels/s", "lane-ops/s", "ms/draw");
   try {
      return run_case("simple", isa, simple_pixel_shader(isa), 2, repeat) &&
             run_case("texture_4_samples", isa, texture_pixel_shader(isa), 6, repeat);
   } catch (const std::exception &e) {
      std::fprintf(stderr, "terakan-bench-sim: %s\n", e.what());
      return false;
   }
}

} // namespace terakan::bench
