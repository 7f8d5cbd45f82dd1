/* The conservative-rasterization polygon construction (src/terakan/terakan_conservative_shader.cpp,
 * issue 17), compiled by Terakan's compiler for Cypress, Barts and Cayman and run on the
 * simulated command processor with the driver's compute ABI, against geometry computed on the
 * CPU in double precision:
 *  - coverage: every pixel whose square touches the triangle has its centre strictly inside
 *    the emitted fan (as the rasterizer sees it: vertices truncated to 1/256), and no pixel
 *    whose centre is inside (or on the edge of) the polygon lies farther than
 *    `overestimation_bound` from the triangle;
 *  - the vertices sit half a step beyond the rasterizer's grid points, so its truncation lands
 *    on the grid point their attributes were computed for;
 *  - attributes: every emitted vertex carries the triangle's perspective-correct (or
 *    noperspective, or flat) attribute planes evaluated at its snapped position;
 *  - triangles with a vertex behind the eye (w <= 0) or of zero area come out unchanged.
 * Then each enlarged triangle's fan is drawn alone by the simulator's rasterizer (a PM4 draw
 * with a pass-through vertex shader and a pixel shader writing the interpolated attributes to
 * a float target, compiled by Terakan's compiler): every touched pixel drawn, none farther than
 * the bound, and the attributes at the pixel centres on the triangle's planes.
 * Triangle sets: random, long slivers, sub-pixel, huge (crossing the guard band), nearly
 * degenerate, perspective (w from 0.25 to 8), on the pixel grid (edges along pixel
 * boundaries), near the eye (w down to 1e-3), and a long perspective sliver for the
 * attributes (the seed's 0.4% case: snapping after the weights fails it). */
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "compiler/nir_shaders.h"
#include "hw/chips.h"
#include "hw/graphics_registers.h"
#include "hw/msaa.h"
#include "../gl/png_file.h"
#include "draw_harness.h"
#include "terakan_conservative_shader.h"

using namespace terakan;
using namespace terakan::test;
namespace cr = terakan::conservative;

namespace {

struct Chip {
   const char *name;
   hw::Family family;
};
constexpr Chip chips[] = {{"cypress", hw::Family::Cypress}, {"barts", hw::Family::Barts},
                          {"cayman", hw::Family::Cayman}};

/* The target: 48x32 pixels, the viewport covering it. */
constexpr int target_width = 48, target_height = 32;
constexpr double scale[2] = {target_width / 2.0, target_height / 2.0};
constexpr double offset[2] = {target_width / 2.0, target_height / 2.0};
/* Attributes: 0 perspective, 1 noperspective, 2 flat. */
constexpr unsigned attribute_count = 3;
constexpr uint32_t flat_bits = 1u << 2, linear_bits = 1u << 1;
constexpr unsigned floats_per_vertex = 4 * (1 + attribute_count);
/* What the construction adds beyond the touched pixels: the 1/256 margin along each axis and
 * the snapping (1/512 along each axis), both times sqrt(2) at worst, plus float rounding; the
 * figure the extension would advertise as primitiveOverestimationSize. */
constexpr double overestimation_bound = 1.0 / 64.0;

using Vertex = std::array<float, floats_per_vertex>;
using Triangle = std::array<Vertex, 3>;

struct Screen {
   double x, y;
};

Screen to_screen(const Vertex &v)
{
   return {double(v[0]) / double(v[3]) * scale[0] + offset[0], double(v[1]) / double(v[3]) * scale[1] + offset[1]};
}

double cross(Screen o, Screen a, Screen b)
{
   return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

/* A triangle from screen points, w per vertex, depth and random attributes. */
Triangle make_triangle(std::mt19937 &random, const std::array<Screen, 3> &points, const std::array<double, 3> &w)
{
   std::uniform_real_distribution<float> value(-1.0f, 1.0f);
   Triangle t;
   for (unsigned v = 0; v < 3; v++) {
      t[v][0] = float((points[v].x - offset[0]) / scale[0] * w[v]);
      t[v][1] = float((points[v].y - offset[1]) / scale[1] * w[v]);
      t[v][2] = float(0.25 * w[v] + 0.5 * v * w[v] / 4);
      t[v][3] = float(w[v]);
      for (unsigned k = 4; k < floats_per_vertex; k++)
         t[v][k] = value(random);
   }
   return t;
}

/* ---- exact geometry ---- */

/* The closed square of half size `half` around c (the pixel's: 1/2) and the closed triangle
 * intersect (separating axes: x, y and the triangle's edge normals). */
bool touches(const std::array<Screen, 3> &s, Screen c, double half = 0.5)
{
   const double lo_x = c.x - half, hi_x = c.x + half, lo_y = c.y - half, hi_y = c.y + half;
   if (std::max({s[0].x, s[1].x, s[2].x}) < lo_x || std::min({s[0].x, s[1].x, s[2].x}) > hi_x ||
       std::max({s[0].y, s[1].y, s[2].y}) < lo_y || std::min({s[0].y, s[1].y, s[2].y}) > hi_y)
      return false;
   const double orientation = cross(s[0], s[1], s[2]) > 0 ? 1.0 : -1.0;
   for (unsigned e = 0; e < 3; e++) {
      const Screen a = s[e], b = s[(e + 1) % 3];
      /* The square's corner farthest inside this edge: outside if even it is outside. */
      double best = -INFINITY;
      for (double x : {lo_x, hi_x})
         for (double y : {lo_y, hi_y})
            best = std::max(best, orientation * cross(a, b, {x, y}));
      if (best < 0)
         return false;
   }
   return true;
}

/* The pixel centre is inside the closed triangle (what ordinary rasterization samples). */
bool centre_inside(const std::array<Screen, 3> &s, Screen c)
{
   const double orientation = cross(s[0], s[1], s[2]) > 0 ? 1.0 : -1.0;
   for (unsigned e = 0; e < 3; e++)
      if (orientation * cross(s[e], s[(e + 1) % 3], c) < 0)
         return false;
   return true;
}

double point_segment(Screen p, Screen a, Screen b)
{
   const double dx = b.x - a.x, dy = b.y - a.y, length = dx * dx + dy * dy;
   double t = length > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / length : 0.0;
   t = std::clamp(t, 0.0, 1.0);
   return std::hypot(p.x - a.x - t * dx, p.y - a.y - t * dy);
}

/* Euclidean distance between the closed pixel square around c and the triangle. */
double distance_to(const std::array<Screen, 3> &s, Screen c)
{
   if (touches(s, c))
      return 0.0;
   const std::array<Screen, 4> square = {Screen{c.x - 0.5, c.y - 0.5}, Screen{c.x + 0.5, c.y - 0.5},
                                         Screen{c.x + 0.5, c.y + 0.5}, Screen{c.x - 0.5, c.y + 0.5}};
   double best = INFINITY;
   for (unsigned i = 0; i < 4; i++)
      for (unsigned e = 0; e < 3; e++) {
         best = std::min(best, point_segment(square[i], s[e], s[(e + 1) % 3]));
         best = std::min(best, point_segment(s[e], square[i], square[(i + 1) % 4]));
      }
   return best;
}

/* ---- running the construction ---- */

constexpr uint64_t code_address = 0x100000, constants_address = 0x200000, fence_address = 0x300000,
                   input_address = 0x1000000, output_address = 0x4000000;

struct ConstructionRun {
   std::string error;
   std::vector<Vertex> output;
   std::vector<float> raw; /* the output buffer as written (with the edges, when asked) */
};

ConstructionRun run_construction(const Chip &chip, const std::vector<Triangle> &triangles,
                                 float push_out = cr::push_out_single_sample, float extra = 0.0f,
                                 bool edges = false)
{
   ConstructionRun run;
   compiler::CompileOptions options;
   options.family = chip.family;
   compiler::ShaderBinary binary;
   if (!compiler::compile_compute_nir(cr::build_polygon_shader(attribute_count, edges), options, binary, run.error)) {
      run.error = "compile: " + run.error;
      return run;
   }
   const uint32_t count = uint32_t(triangles.size());
   const size_t stride = cr::vertex_stride(attribute_count);
   const size_t input_bytes = count * 3 * stride;
   const size_t output_bytes = count * cr::output_vertices_per_triangle *
                               cr::vertex_stride(attribute_count + (edges ? cr::edge_output_count : 0));

   TestMemory memory;
   ComputeJob job;
   const unsigned code = job.add_bo(memory, code_address, (binary.code.size() * 4 + 255) & ~size_t(255));
   std::memcpy(memory.buffers[code].bytes.data(), binary.code.data(), binary.code.size() * 4);
   const unsigned constants = job.add_bo(memory, constants_address, 512);
   const unsigned input = job.add_bo(memory, input_address, (input_bytes + 255) & ~size_t(255));
   std::memcpy(memory.buffers[input].bytes.data(), triangles.data(), input_bytes);
   const unsigned output = job.add_bo(memory, output_address, (output_bytes + 255) & ~size_t(255));
   const unsigned fence = job.add_bo(memory, fence_address, 256);

   /* Push constants, then the driver constants: group counts and each slot's range. */
   uint32_t push[cr::polygon_constant_count] = {};
   auto set_float = [&](cr::PolygonConstant which, double value) {
      const float f = float(value);
      std::memcpy(&push[which], &f, 4);
   };
   push[cr::triangle_count] = count;
   push[cr::flat_mask] = flat_bits;
   push[cr::linear_mask] = linear_bits;
   set_float(cr::scale_x, scale[0]);
   set_float(cr::scale_y, scale[1]);
   set_float(cr::offset_x, offset[0]);
   set_float(cr::offset_y, offset[1]);
   set_float(cr::clamp_x0, 0);
   set_float(cr::clamp_y0, 0);
   set_float(cr::clamp_x1, target_width);
   set_float(cr::clamp_y1, target_height);
   set_float(cr::push_out, push_out);
   set_float(cr::extra_size, extra);
   uint8_t *cb = memory.buffers[constants].bytes.data();
   std::memcpy(cb, push, sizeof(push));
   const uint32_t groups = (count + cr::group_size - 1) / cr::group_size;
   const uint32_t grid[3] = {groups, 1, 1};
   std::memcpy(cb + 256, grid, sizeof(grid));
   const uint32_t sizes[2] = {uint32_t(input_bytes), uint32_t(output_bytes)};
   for (unsigned slot = 0; slot < 2; slot++) {
      const uint32_t last = sizes[slot] / 4 - 1;
      std::memcpy(cb + 256 + 4 * (compiler::storage_buffer_size_constants + slot), &sizes[slot], 4);
      std::memcpy(cb + 256 + 4 * (compiler::storage_buffer_last_dword_constants + slot), &last, 4);
   }

   /* The driver's dispatch (terakan_query.cpp's sequence): input through fetch resource 0,
    * output through RAT 1. */
   using namespace hw;
   IbBuilder b;
   b.packet(pm4::CONTEXT_CONTROL, {0x80000000u, 0x80000000u});
   b.context(reg::DB_DEPTH_CONTROL, {0});
   b.config(reg::VGT_COMPUTE_START_X, {0, 0, 0});
   b.buffer_resource(reg::compute_fetch_resource_base + cr::input_slot, 0, uint32_t(input_bytes), 1);
   b.reloc(input);
   b.context(reg::CB_COLOR0_BASE + cr::output_slot * reg::CB_COLOR_STRIDE,
             {0, 64 / 8 - 1, 0, 0, reg::rat_buffer_color_info, reg::rat_buffer_color_attrib,
              uint32_t(output_bytes / 4 - 1)});
   b.reloc(output);
   b.reloc(output);
   b.context(reg::CB_TARGET_MASK, {0xfu << (4 * cr::output_slot)});
   b.context(reg::SQ_ALU_CONST_BUFFER_SIZE_LS_0, {1, 1});
   b.context(reg::SQ_ALU_CONST_CACHE_LS_0, {0, 1});
   b.reloc(constants);
   b.reloc(constants);
   b.context(reg::SQ_PGM_START_LS, {0, binary.gprs | (binary.stack_entries << 8), 0});
   b.reloc(code);
   b.context(reg::SPI_COMPUTE_INPUT_CNTL, {7});
   b.context(reg::SPI_COMPUTE_NUM_THREAD_X, {cr::group_size, 1, 1});
   b.context(reg::SQ_LDS_ALLOC, {(cr::group_size + 63) / 64 << 14});
   b.packet(pm4::DISPATCH_DIRECT, {groups, 1, 1, pm4::DISPATCH_INITIATOR_COMPUTE_SHADER_EN}, true);
   b.packet(pm4::EVENT_WRITE_EOP, {pm4::EVENT_CACHE_FLUSH_AND_INV_TS, 0, pm4::eop_data_sel(1), 0x1234, 0});
   b.reloc(fence);

   sim::CommandProcessor cp(chip.family, memory);
   run.error = submit(b.ib, job.relocs, cp, hw::family_info(chip.family).isa_class);
   if (!run.error.empty())
      return run;
   run.raw.resize(output_bytes / 4);
   std::memcpy(run.raw.data(), memory.buffers[output].bytes.data(), output_bytes);
   if (!edges) {
      run.output.resize(count * cr::output_vertices_per_triangle);
      std::memcpy(run.output.data(), run.raw.data(), output_bytes);
   }
   return run;
}

/* ---- checks ---- */

enum class Expect { enlarged, unchanged };

struct Case {
   const char *set;
   Triangle triangle;
   Expect expect;
   bool check_attributes;
};

bool same(const Vertex &a, const Vertex &b)
{
   return std::memcmp(a.data(), b.data(), sizeof(Vertex)) == 0;
}

/* The polygon's vertices, from the fan (0, f + 1, f + 2); unused triangles repeat vertex 0. */
std::vector<Vertex> polygon_of(const Vertex *out)
{
   std::vector<Vertex> polygon = {out[0], out[1], out[2]};
   for (unsigned f = 1; f < cr::output_triangles_per_triangle; f++) {
      const Vertex *t = out + 3 * f;
      if (same(t[0], out[0]) && same(t[1], out[0]) && same(t[2], out[0]))
         break;
      polygon.push_back(t[2]);
   }
   return polygon;
}

/* Where the rasterizer puts a vertex: truncated to 1/256 pixel (PA_SU_VTX_CNTL.ROUND_MODE 0). */
Screen rasterizer_point(const Vertex &v)
{
   const Screen p = to_screen(v);
   return {std::trunc(p.x * 256) / 256, std::trunc(p.y * 256) / 256};
}

/* The attribute values the triangle's planes give at screen point q: perspective-correct,
 * screen-linear or flat, and the weights' size for the tolerance. */
struct Expected {
   std::array<double, 4 * attribute_count> value;
   double w, z, weight_size;
   /* 1/w at q over the triangle's smallest 1/w: below cr::horizon_fraction the construction
    * gives up perspective there. */
   double horizon_ratio;
};

Expected expected_at(const Triangle &t, Screen q)
{
   std::array<Screen, 3> s = {to_screen(t[0]), to_screen(t[1]), to_screen(t[2])};
   const double area = cross(s[0], s[1], s[2]);
   const double l[3] = {cross(q, s[1], s[2]) / area, cross(s[0], q, s[2]) / area, cross(s[0], s[1], q) / area};
   double r[3], sum = 0;
   for (unsigned v = 0; v < 3; v++)
      sum += r[v] = l[v] / double(t[v][3]);
   Expected e{};
   e.w = 1.0 / sum;
   e.horizon_ratio = sum * std::max({double(t[0][3]), double(t[1][3]), double(t[2][3])});
   e.weight_size = 0;
   for (unsigned v = 0; v < 3; v++) {
      e.z += l[v] * double(t[v][2]) / double(t[v][3]);
      e.weight_size += std::fabs(l[v]) + std::fabs(r[v] * e.w);
   }
   for (unsigned k = 0; k < attribute_count; k++)
      for (unsigned c = 0; c < 4; c++) {
         double value = 0;
         for (unsigned v = 0; v < 3; v++) {
            const double a = double(t[v][4 + 4 * k + c]);
            if (flat_bits & (1u << k))
               value = double(t[0][4 + 4 * k + c]);
            else if (linear_bits & (1u << k))
               value += l[v] * a;
            else
               value += r[v] * e.w * a;
         }
         e.value[4 * k + c] = value;
      }
   return e;
}

/* Checks one triangle's output; returns "" or what is wrong. */
std::string check(const Case &c, const Vertex *out, bool multisampled = false, double extra = 0)
{
   char text[256];
   const Triangle &t = c.triangle;
   if (c.expect == Expect::unchanged) {
      for (unsigned v = 0; v < 3; v++)
         if (!same(out[v], t[v]))
            return "not passed unchanged";
      for (unsigned i = 3; i < cr::output_vertices_per_triangle; i++)
         if (!same(out[i], t[0]))
            return "the unused output triangles are not degenerate";
      return "";
   }
   const std::array<Screen, 3> s = {to_screen(t[0]), to_screen(t[1]), to_screen(t[2])};
   const std::vector<Vertex> polygon = polygon_of(out);
   if (polygon.size() < 4 && same(out[0], t[0]) && same(out[1], t[1]) && same(out[2], t[2])) {
      /* Allowed only when it touches no pixel of the target: nothing of it is drawn there. */
      for (int py = 0; py < target_height; py++)
         for (int px = 0; px < target_width; px++)
            if (touches(s, {px + 0.5, py + 0.5}))
               return "passed unchanged, not enlarged";
      return "";
   }

   /* Vertices half a grid step from the grid (away from zero), so that the rasterizer's
    * truncation to 1/256 (ROUND_MODE 0, as the driver programs it) cannot move them off their
    * grid point; in 1/256 units, as it will snap them. */
   std::vector<std::array<int64_t, 2>> grid;
   for (const Vertex &v : polygon) {
      if (!(v[3] > 0))
         return "a polygon vertex has w <= 0";
      const Screen p = to_screen(v);
      const double gx = p.x * 256, gy = p.y * 256;
      if (std::fabs(std::fabs(gx - std::trunc(gx)) - 0.5) > 1.0 / 32 || std::fabs(std::fabs(gy - std::trunc(gy)) - 0.5) > 1.0 / 32) {
         std::snprintf(text, sizeof(text), "vertex (%.6f, %.6f) is not half a step off the 1/256 grid", p.x, p.y);
         return text;
      }
      grid.push_back({int64_t(std::trunc(gx)), int64_t(std::trunc(gy))});
   }
   const size_t n = grid.size();
   int64_t twice_area = 0;
   for (size_t i = 0; i < n; i++)
      twice_area += grid[i][0] * grid[(i + 1) % n][1] - grid[(i + 1) % n][0] * grid[i][1];
   if ((twice_area > 0) != (cross(s[0], s[1], s[2]) > 0))
      return "the polygon's winding differs from the triangle's";
   const int64_t orientation = twice_area > 0 ? 1 : -1;

   /* The fan's triangles as the rasterizer gets them; one wound against the polygon would be
    * a fold (and culled with the wrong face). */
   struct FanTriangle {
      std::array<std::array<int64_t, 2>, 3> v;
   };
   std::vector<FanTriangle> fan;
   for (size_t k = 1; k + 1 < n; k++) {
      const FanTriangle f = {{grid[0], grid[k], grid[k + 1]}};
      const int64_t area = (f.v[1][0] - f.v[0][0]) * (f.v[2][1] - f.v[0][1]) - (f.v[1][1] - f.v[0][1]) * (f.v[2][0] - f.v[0][0]);
      if (area == 0)
         continue;
      if ((area > 0 ? 1 : -1) != orientation)
         return "a fan triangle is wound against the polygon (a fold)";
      fan.push_back(f);
   }
   auto edge = [&](const std::array<int64_t, 2> &a, const std::array<int64_t, 2> &b, int64_t x, int64_t y) {
      return orientation * ((b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]));
   };

   /* A point (1/256 units): strictly inside a fan triangle, on an edge, or outside. A point on
    * an edge between two fan triangles is drawn by one of them (the top-left rule); one on the
    * polygon's outer boundary may not be. */
   struct Coverage {
      bool strict = false, loose = false, on_outer = false;
      bool covered() const { return strict || (loose && !on_outer); }
   };
   auto coverage_at = [&](int64_t x, int64_t y) {
      Coverage result;
      for (const FanTriangle &f : fan) {
         const int64_t e0 = edge(f.v[0], f.v[1], x, y), e1 = edge(f.v[1], f.v[2], x, y), e2 = edge(f.v[2], f.v[0], x, y);
         result.strict = result.strict || (e0 > 0 && e1 > 0 && e2 > 0);
         result.loose = result.loose || (e0 >= 0 && e1 >= 0 && e2 >= 0);
      }
      for (size_t i = 0; i < n; i++) {
         const auto &a = grid[i], &b = grid[(i + 1) % n];
         if (a != b && edge(a, b, x, y) == 0 && std::min(a[0], b[0]) <= x && x <= std::max(a[0], b[0]) &&
             std::min(a[1], b[1]) <= y && y <= std::max(a[1], b[1]))
            result.on_outer = true;
      }
      return result;
   };

   for (int py = 0; py < target_height; py++)
      for (int px = 0; px < target_width; px++) {
         const int64_t cx = int64_t(px) * 256 + 128, cy = int64_t(py) * 256 + 128;
         const Screen centre = {px + 0.5, py + 0.5};
         if (multisampled) {
            /* Every sample of a touched pixel (the standard 4x locations in 1/16 pixel, as the
             * driver programs them) must be covered, for the whole pixel's coverage. Pixels
             * beyond need the pixel shader's discard, which is not built: not checked. */
            static constexpr int sample_offsets[4][2] = {{-2, -6}, {6, -2}, {-6, 2}, {2, 6}};
            if (!touches(s, centre))
               continue;
            for (const auto &o : sample_offsets)
               if (!coverage_at(cx + 16 * o[0], cy + 16 * o[1]).covered()) {
                  std::snprintf(text, sizeof(text), "pixel (%d, %d) touches the triangle but sample (%d, %d)/16 is not covered",
                                px, py, o[0], o[1]);
                  return text;
               }
            continue;
         }
         const Coverage here = coverage_at(cx, cy);
         if (touches(s, centre, 0.5 + extra) && !here.covered()) {
            std::snprintf(text, sizeof(text), "pixel (%d, %d) touches the triangle%s but is not covered", px, py,
                          extra > 0 ? " grown by the extra size" : "");
            return text;
         }
         if (here.loose) {
            const double d = distance_to(s, centre);
            if (d > extra * std::sqrt(2.0) + overestimation_bound) {
               std::snprintf(text, sizeof(text), "pixel (%d, %d) is covered %.6f pixels from the triangle", px, py, d);
               return text;
            }
         }
      }

   if (!c.check_attributes)
      return "";
   for (const Vertex &v : polygon) {
      const Screen q = rasterizer_point(v);
      const Expected e = expected_at(t, q);
      /* Depth is screen-linear: exact everywhere. */
      if (std::fabs(double(v[2]) / double(v[3]) - e.z) > 1e-5 * (1 + e.weight_size)) {
         std::snprintf(text, sizeof(text), "depth %.7f, expected %.7f at (%.4f, %.4f)", v[2] / v[3], e.z, q.x, q.y);
         return text;
      }
      /* Near the horizon (either side of the floor, within float error) perspective is given up. */
      if (e.horizon_ratio < 2 * cr::horizon_fraction)
         continue;
      if (std::fabs(double(v[3]) - e.w) > std::ldexp(1.0, -14) * (1 + e.weight_size) * e.w) {
         std::snprintf(text, sizeof(text), "w %.7f, expected %.7f at (%.4f, %.4f)", v[3], e.w, q.x, q.y);
         return text;
      }
      /* 2^-12 of the attributes' size (1) per unit of weight: float rounding, far below the
       * 1/512-pixel error that snapping after the weights would make on a sliver. */
      const double tolerance = std::ldexp(1.0, -12) * (1 + e.weight_size);
      for (unsigned i = 0; i < 4 * attribute_count; i++)
         if (std::fabs(double(v[4 + i]) - e.value[i]) > tolerance) {
            std::snprintf(text, sizeof(text), "attribute %u.%u %.7f, expected %.7f (tolerance %.2g) at (%.4f, %.4f)",
                          i / 4, i % 4, v[4 + i], e.value[i], tolerance, q.x, q.y);
            return text;
         }
   }
   return "";
}

/* ---- the triangle sets ---- */

std::vector<Case> make_cases()
{
   std::mt19937 random(17);
   std::uniform_real_distribution<double> unit(0.0, 1.0);
   auto in = [&](double lo, double hi) { return lo + (hi - lo) * unit(random); };
   auto random_w = [&](double lo, double hi) { return std::array<double, 3>{in(lo, hi), in(lo, hi), in(lo, hi)}; };
   std::vector<Case> cases;
   auto add = [&](const char *set, std::array<Screen, 3> p, std::array<double, 3> w, Expect expect, bool attributes) {
      cases.push_back({set, make_triangle(random, p, w), expect, attributes});
   };
   for (int i = 0; i < 200; i++)
      add("random", {Screen{in(-8, 56), in(-8, 40)}, Screen{in(-8, 56), in(-8, 40)}, Screen{in(-8, 56), in(-8, 40)}},
          {1, 1, 1}, Expect::enlarged, true);
   for (int i = 0; i < 150; i++)
      add("perspective", {Screen{in(-4, 52), in(-4, 36)}, Screen{in(-4, 52), in(-4, 36)}, Screen{in(-4, 52), in(-4, 36)}},
          random_w(0.25, 8), Expect::enlarged, true);
   for (int i = 0; i < 150; i++) {
      /* Long and thin: 10-60 pixels long, 0.01-0.3 pixels wide, any direction. */
      const double angle = in(0, 2 * M_PI), length = in(10, 60), width = in(0.01, 0.3);
      const Screen a = {in(0, 48), in(0, 32)};
      const Screen b = {a.x + length * std::cos(angle), a.y + length * std::sin(angle)};
      const double along = in(0.1, 0.9);
      const Screen c = {a.x + along * (b.x - a.x) - width * std::sin(angle), a.y + along * (b.y - a.y) + width * std::cos(angle)};
      add("sliver", {a, b, c}, random_w(0.5, 3), Expect::enlarged, false);
   }
   for (int i = 0; i < 150; i++) {
      const Screen o = {in(0, 47), in(0, 31)};
      add("sub-pixel", {Screen{o.x + in(0, 0.8), o.y + in(0, 0.8)}, Screen{o.x + in(0, 0.8), o.y + in(0, 0.8)},
                        Screen{o.x + in(0, 0.8), o.y + in(0, 0.8)}},
          {1, 1, 1}, Expect::enlarged, false);
   }
   for (int i = 0; i < 60;) {
      /* Thousands of pixels across, crossing the target (the others are not drawn at all). */
      const std::array<Screen, 3> p = {Screen{in(-3000, 3000), in(-3000, 3000)}, Screen{in(-3000, 3000), in(-3000, 3000)},
                                       Screen{in(-3000, 3000), in(-3000, 3000)}};
      if (!touches(p, {in(0, 48), in(0, 32)}))
         continue;
      add("huge", p, {1, 1, 1}, Expect::enlarged, false);
      i++;
   }
   for (int i = 0; i < 100; i++) {
      /* Nearly degenerate: the third vertex 1e-3 pixels off the line through the others. */
      const Screen a = {in(0, 48), in(0, 32)}, b = {in(0, 48), in(0, 32)};
      const double length = std::hypot(b.x - a.x, b.y - a.y), along = in(-0.5, 1.5);
      if (length < 1)
         continue;
      const Screen c = {a.x + along * (b.x - a.x) - 1e-3 * (b.y - a.y) / length,
                        a.y + along * (b.y - a.y) + 1e-3 * (b.x - a.x) / length};
      add("nearly degenerate", {a, b, c}, {1, 1, 1}, Expect::enlarged, false);
   }
   for (int i = 0; i < 100; i++) {
      /* On the pixel grid: vertices at whole and half pixels, edges along pixel boundaries and
       * through centres (a pixel whose square only touches an edge or a corner counts). */
      auto on_grid = [&](double lo, double hi) { return std::floor(in(lo, hi) * 2) / 2; };
      const Screen a = {on_grid(0, 48), on_grid(0, 32)};
      const Screen b = i % 3 == 0 ? Screen{a.x + on_grid(1, 12), a.y} : Screen{on_grid(0, 48), on_grid(0, 32)};
      const Screen c = i % 3 == 0 ? Screen{a.x, a.y + on_grid(1, 12)} : Screen{on_grid(0, 48), on_grid(0, 32)};
      if (cross(a, b, c) == 0)
         continue;
      add("on the grid", {a, b, c}, {1, 1, 1}, Expect::enlarged, true);
   }
   for (int i = 0; i < 40; i++) {
      /* Close to the eye: one vertex at w 1e-3..1e-2 (its screen point far outside). */
      std::array<double, 3> w = random_w(0.5, 2);
      w[i % 3] = in(1e-3, 1e-2);
      std::array<Screen, 3> p = {Screen{in(0, 48), in(0, 32)}, Screen{in(0, 48), in(0, 32)}, Screen{in(0, 48), in(0, 32)}};
      p[i % 3] = {in(-4000, 4000), in(-4000, 4000)};
      add("near the eye", p, w, Expect::enlarged, false);
   }
   /* The seed's case: a long sliver in perspective, attributes checked along it. */
   for (int i = 0; i < 20; i++) {
      const double y = in(4, 28), width = in(0.2, 0.4);
      add("long perspective sliver", {Screen{1.3, y}, Screen{46.7, y + in(-2, 2)}, Screen{in(10, 38), y + width}},
          {in(0.5, 1), in(2, 4), in(1, 2)}, Expect::enlarged, true);
   }
   /* Behind the eye and of zero area: unchanged. */
   for (int i = 0; i < 30; i++) {
      std::array<double, 3> w = random_w(0.5, 2);
      w[i % 3] = i % 2 ? -in(0.1, 2) : 0.0;
      add("behind the eye", {Screen{in(0, 48), in(0, 32)}, Screen{in(0, 48), in(0, 32)}, Screen{in(0, 48), in(0, 32)}},
          w, Expect::unchanged, false);
   }
   for (int i = 0; i < 20; i++) {
      const Screen a = {std::floor(in(0, 48)), std::floor(in(0, 32))};
      const Screen b = i % 2 ? a : Screen{a.x + 5, a.y};
      const Screen c = i % 2 ? Screen{a.x + 3, a.y + 1} : Screen{a.x + 9, a.y};
      add("zero area", {a, b, c}, {1, 1, 1}, Expect::unchanged, false);
   }
   return cases;
}

class ConservativePolygon : public ::testing::TestWithParam<Chip> {};

TEST_P(ConservativePolygon, CoversEveryTouchedPixelAndKeepsTheAttributePlanes)
{
   const std::vector<Case> cases = make_cases();
   std::vector<Triangle> triangles;
   for (const Case &c : cases)
      triangles.push_back(c.triangle);
   const ConstructionRun run = run_construction(GetParam(), triangles);
   ASSERT_EQ(run.error, "");
   unsigned failures = 0;
   std::map<std::string, std::array<unsigned, 2>> enlarged; /* set -> (enlarged, all) */
   for (size_t i = 0; i < cases.size(); i++) {
      const Vertex *out = run.output.data() + i * cr::output_vertices_per_triangle;
      const std::string problem = check(cases[i], out);
      if (!problem.empty() && failures++ < 20)
         ADD_FAILURE() << cases[i].set << " triangle " << i << ": " << problem;
      enlarged[cases[i].set][0] += !same(out[1], cases[i].triangle[1]) || !same(out[2], cases[i].triangle[2]);
      enlarged[cases[i].set][1]++;
   }
   EXPECT_EQ(failures, 0u) << "of " << cases.size() << " triangles";
   for (const auto &[set, counts] : enlarged)
      std::printf("%s: %u of %u enlarged\n", set.c_str(), counts[0], counts[1]);
}

/* The vertex stage's outputs the driver would capture: maxVertexOutputComponents (64) is 16
 * vec4s. */
TEST_P(ConservativePolygon, CompilesForEveryOutputCount)
{
   for (unsigned count : {0u, 1u, attribute_count, 8u, 16u}) {
      compiler::CompileOptions options;
      options.family = GetParam().family;
      compiler::ShaderBinary binary;
      std::string error;
      EXPECT_TRUE(compiler::compile_compute_nir(cr::build_polygon_shader(count), options, binary, error))
         << count << " attributes: " << error;
      if (count == attribute_count || count == 16)
         std::printf("%u attributes: %zu dwords, %u GPRs\n", count, binary.code.size(), binary.gprs);
   }
   /* With the edges for the multisample discard: 13 attributes and 3 edge vec4s. */
   compiler::CompileOptions options;
   options.family = GetParam().family;
   compiler::ShaderBinary binary;
   std::string error;
   EXPECT_TRUE(compiler::compile_compute_nir(cr::build_polygon_shader(16 - cr::edge_output_count, true), options, binary, error))
      << error;
   std::printf("13 attributes and the edges: %zu dwords, %u GPRs\n", binary.code.size(), binary.gprs);
}

/* With 4x multisampling the edges move out a whole pixel (plus the margin): every sample of
 * every touched pixel is then inside the polygon. */
TEST_P(ConservativePolygon, MultisampledPushOutCoversEverySampleOfTouchedPixels)
{
   const std::vector<Case> cases = make_cases();
   std::vector<Triangle> triangles;
   for (const Case &c : cases)
      triangles.push_back(c.triangle);
   const ConstructionRun run = run_construction(GetParam(), triangles, cr::push_out_multisample);
   ASSERT_EQ(run.error, "");
   unsigned failures = 0;
   for (size_t i = 0; i < cases.size(); i++) {
      const std::string problem = check(cases[i], run.output.data() + i * cr::output_vertices_per_triangle, true);
      if (!problem.empty() && failures++ < 20)
         ADD_FAILURE() << cases[i].set << " triangle " << i << ": " << problem;
   }
   EXPECT_EQ(failures, 0u) << "of " << cases.size() << " triangles";
   /* ... and the single-sample push-out is not enough for that. */
   const ConstructionRun half = run_construction(GetParam(), triangles);
   ASSERT_EQ(half.error, "");
   unsigned lost = 0;
   for (size_t i = 0; i < cases.size(); i++)
      lost += check(cases[i], half.output.data() + i * cr::output_vertices_per_triangle, true).find("sample") !=
              std::string::npos;
   EXPECT_GT(lost, 50u);
}

/* extraPrimitiveOverestimationSize: with an extra size e the edges and the box grow by e
 * more; every pixel whose square grown by e touches the triangle is covered, none whose square
 * is farther than e (in x and y) plus the bound. */
TEST_P(ConservativePolygon, ExtraOverestimationGrowsTheCoverage)
{
   const std::vector<Case> cases = make_cases();
   std::vector<Triangle> triangles;
   for (const Case &c : cases)
      triangles.push_back(c.triangle);
   for (float extra : {0.25f, 0.75f}) {
      const ConstructionRun run = run_construction(GetParam(), triangles, cr::push_out_single_sample, extra);
      ASSERT_EQ(run.error, "");
      unsigned failures = 0;
      for (size_t i = 0; i < cases.size(); i++) {
         const std::string problem =
            check(cases[i], run.output.data() + i * cr::output_vertices_per_triangle, false, extra);
         if (!problem.empty() && failures++ < 10)
            ADD_FAILURE() << "extra " << extra << ": " << cases[i].set << " triangle " << i << ": " << problem;
      }
      EXPECT_EQ(failures, 0u) << "extra " << extra << ", of " << cases.size() << " triangles";
   }
}

/* The checks can fail: with the edges moved out by less than half a pixel, touched pixels are
 * lost. */
TEST_P(ConservativePolygon, EdgesMovedLessThanHalfAPixelLoseTouchedPixels)
{
   const std::vector<Case> cases = make_cases();
   std::vector<Triangle> triangles;
   for (const Case &c : cases)
      triangles.push_back(c.triangle);
   const ConstructionRun run = run_construction(GetParam(), triangles, 0.5f - 1.0f / 16.0f);
   ASSERT_EQ(run.error, "");
   unsigned lost = 0;
   for (size_t i = 0; i < cases.size(); i++)
      if (check(cases[i], run.output.data() + i * cr::output_vertices_per_triangle).find("not covered") !=
          std::string::npos)
         lost++;
   EXPECT_GT(lost, 50u) << "of " << cases.size() << " triangles";
}

/* ---- the fan drawn by the simulated rasterizer ---- */

/* A pass-through vertex shader (position and the three attributes from vertex inputs 0-3) and a
 * pixel shader writing (perspective.x, perspective.y, noperspective.x, flat.x) to a float
 * target, built and compiled as the driver builds its own shaders. */
struct DrawPrograms {
   compiler::ShaderBinary vertex, pixel;
   std::string error;
};

DrawPrograms compile_draw_programs(hw::Family family, bool edges = false)
{
   DrawPrograms p;
   compiler::CompileOptions options;
   options.family = family;
   nir_builder vs = compiler::begin_graphics_nir(compiler::ShaderStage::Vertex, "conservative test pass-through");
   const unsigned varyings = attribute_count + (edges ? cr::edge_output_count : 0);
   for (unsigned i = 0; i <= varyings; i++) {
      nir_variable *in = nir_variable_create(vs.shader, nir_var_shader_in, glsl_vec4_type(), "in");
      in->data.location = VERT_ATTRIB_GENERIC0 + i;
      nir_variable *out = nir_variable_create(vs.shader, nir_var_shader_out, glsl_vec4_type(), "out");
      out->data.location = i == 0 ? int(VARYING_SLOT_POS) : int(VARYING_SLOT_VAR0 + i - 1);
      nir_store_var(&vs, out, nir_load_var(&vs, in), 0xf);
   }
   if (!compiler::compile_graphics_nir(vs.shader, compiler::ShaderStage::Vertex, options, p.vertex, p.error)) {
      p.error = "vertex shader: " + p.error;
      return p;
   }
   nir_builder ps = compiler::begin_graphics_nir(compiler::ShaderStage::Fragment, "conservative test attributes");
   const glsl_interp_mode modes[attribute_count] = {INTERP_MODE_SMOOTH, INTERP_MODE_NOPERSPECTIVE, INTERP_MODE_FLAT};
   nir_ssa_def *value[attribute_count];
   for (unsigned k = 0; k < attribute_count; k++) {
      nir_variable *in = nir_variable_create(ps.shader, nir_var_shader_in, glsl_vec4_type(), "in");
      in->data.location = VARYING_SLOT_VAR0 + k;
      in->data.interpolation = modes[k];
      value[k] = nir_load_var(&ps, in);
   }
   if (edges) {
      /* The discard the driver would add to the application's pixel shader: pixels whose
       * centre is outside any edge (moved by 1/2) are not the triangle's. */
      nir_ssa_def *position = nir_load_frag_coord(&ps);
      nir_ssa_def *outside = nir_imm_false(&ps);
      for (unsigned e = 0; e < cr::edge_output_count; e++) {
         nir_variable *in = nir_variable_create(ps.shader, nir_var_shader_in, glsl_vec4_type(), "edge");
         in->data.location = VARYING_SLOT_VAR0 + attribute_count + e;
         in->data.interpolation = INTERP_MODE_FLAT;
         nir_ssa_def *edge = nir_load_var(&ps, in);
         nir_ssa_def *distance = nir_ffma(&ps, nir_channel(&ps, edge, 0), nir_channel(&ps, position, 0),
                                          nir_ffma(&ps, nir_channel(&ps, edge, 1), nir_channel(&ps, position, 1),
                                                   nir_channel(&ps, edge, 2)));
         outside = nir_ior(&ps, outside, nir_flt(&ps, distance, nir_imm_float(&ps, 0.0f)));
      }
      nir_push_if(&ps, outside);
      nir_discard(&ps);
      nir_pop_if(&ps, nullptr);
   }
   nir_variable *colour = nir_variable_create(ps.shader, nir_var_shader_out, glsl_vec4_type(), "colour");
   colour->data.location = FRAG_RESULT_DATA0;
   nir_store_var(&ps,
                 colour,
                 nir_vec4(&ps, nir_channel(&ps, value[0], 0), nir_channel(&ps, value[0], 1), nir_channel(&ps, value[1], 0),
                          nir_channel(&ps, value[2], 0)),
                 0xf);
   if (!compiler::compile_graphics_nir(ps.shader, compiler::ShaderStage::Fragment, options, p.pixel, p.error))
      p.error = "pixel shader: " + p.error;
   return p;
}

constexpr uint64_t vs_address = 0x100000, ps_address = 0x180000, draw_constants_address = 0x200000,
                   vertices_address = 0x1000000, target_address = 0x3000000;
constexpr uint32_t target_pitch = 64; /* pixels: linear-aligned rows of 64 */

/* One draw of `count` vertices from `first` in the vertex buffer into the float target, with the
 * state the driver's draws write (terakan_cmd_draw.cpp), addresses absolute (no kernel checker:
 * the command processor alone). */
std::vector<uint32_t> draw_ib(hw::Family family, const DrawPrograms &p, uint64_t first, uint32_t count,
                              unsigned vec4s_per_vertex = 1 + attribute_count)
{
   namespace gfx = hw::gfx;
   IbBuilder b;
   emit_shader_state(b, p.vertex, p.pixel, vs_address, ps_address, draw_constants_address,
                     p.pixel.graphics.db_shader_control);
   /* Vertex inputs: location l at byte 16 l of each vertex. */
   const uint32_t stride = 16 * vec4s_per_vertex;
   emit_float4_vertex_inputs(
      b, p.vertex, [&](unsigned location) { return vertices_address + first * stride + 16 * location; },
      count * stride, stride);
   const float viewport_scale[2] = {float(scale[0]), float(scale[1])};
   const float viewport_offset[2] = {float(offset[0]), float(offset[1])};
   /* Near and far clipping off: the enlarged polygon's depth is the triangle's plane
    * extrapolated, which beside a steep sliver leaves [0, 1] and would be clipped away with the
    * coverage it carries (the draw path must choose this too; docs/architecture.md). */
   emit_viewport_and_rasterizer(b, family, viewport_scale, viewport_offset, target_width, target_height,
                                gfx::clip_cntl_zclip_near_disable | gfx::clip_cntl_zclip_far_disable);
   emit_float_colour_target(b, target_address, target_pitch, target_height);
   emit_output_and_primitive_state(b, p.pixel, 0xf);
   b.packet(hw::pm4::DRAW_INDEX_AUTO, {count, 2});
   return b.ib;
}

/* Draws each enlarged triangle's fan alone and checks the pixels the rasterizer lit: every
 * touched pixel lit, none farther than the bound, and the interpolated attributes on the
 * triangle's planes at the pixel centres. */
TEST_P(ConservativePolygon, DrawnFanCoversTouchedPixelsWithTheTrianglesAttributes)
{
   const Chip chip = GetParam();
   std::vector<Case> cases;
   for (const Case &c : make_cases())
      if (c.expect == Expect::enlarged)
         cases.push_back(c);
   std::vector<Triangle> triangles;
   for (const Case &c : cases)
      triangles.push_back(c.triangle);
   const ConstructionRun run = run_construction(chip, triangles);
   ASSERT_EQ(run.error, "");
   const DrawPrograms programs = compile_draw_programs(chip.family);
   ASSERT_EQ(programs.error, "");

   TestMemory memory;
   memory.add(vs_address, (programs.vertex.code.size() * 4 + 255) & ~size_t(255));
   std::memcpy(memory.buffers.back().bytes.data(), programs.vertex.code.data(), programs.vertex.code.size() * 4);
   memory.add(ps_address, (programs.pixel.code.size() * 4 + 255) & ~size_t(255));
   std::memcpy(memory.buffers.back().bytes.data(), programs.pixel.code.data(), programs.pixel.code.size() * 4);
   memory.add(draw_constants_address, 512);
   const size_t vertex_bytes = run.output.size() * sizeof(Vertex);
   memory.add(vertices_address, (vertex_bytes + 255) & ~size_t(255));
   std::memcpy(memory.buffers.back().bytes.data(), run.output.data(), vertex_bytes);
   const size_t target_index = memory.buffers.size();
   memory.add(target_address, size_t(target_pitch) * target_height * 16);
   sim::CommandProcessor cp(chip.family, memory);

   unsigned failures = 0, lit_outside = 0, at_horizon = 0;
   for (size_t i = 0; i < cases.size(); i++) {
      std::vector<uint8_t> &target = memory.buffers[target_index].bytes;
      std::fill(target.begin(), target.end(), 0xff); /* NaN: not drawn */
      const std::string error =
         cp.execute(draw_ib(chip.family, programs, i * cr::output_vertices_per_triangle, cr::output_vertices_per_triangle));
      ASSERT_EQ(error, "") << cases[i].set << " triangle " << i;
      const Triangle &t = cases[i].triangle;
      const std::array<Screen, 3> s = {to_screen(t[0]), to_screen(t[1]), to_screen(t[2])};
      /* A vertex at the horizon floor carries screen-linear attributes, and so does every fan
       * triangle it is in, inside the original triangle too: coverage only for those. */
      bool horizon = false;
      for (const Vertex &v : polygon_of(run.output.data() + i * cr::output_vertices_per_triangle))
         horizon = horizon || expected_at(t, rasterizer_point(v)).horizon_ratio < 2 * cr::horizon_fraction;
      at_horizon += horizon;
      std::string problem;
      for (int py = 0; py < target_height && problem.empty(); py++)
         for (int px = 0; px < target_width && problem.empty(); px++) {
            float texel[4];
            std::memcpy(texel, target.data() + (size_t(py) * target_pitch + px) * 16, 16);
            const bool lit = !std::isnan(texel[0]);
            const Screen centre = {px + 0.5, py + 0.5};
            char text[256];
            if (!lit) {
               if (touches(s, centre)) {
                  std::snprintf(text, sizeof(text), "pixel (%d, %d) touches the triangle but was not drawn", px, py);
                  problem = text;
               }
               continue;
            }
            const double d = distance_to(s, centre);
            lit_outside += !centre_inside(s, centre);
            if (d > overestimation_bound) {
               std::snprintf(text, sizeof(text), "pixel (%d, %d) was drawn %.6f pixels from the triangle", px, py, d);
               problem = text;
               continue;
            }
            if (!cases[i].check_attributes || horizon)
               continue;
            const Expected e = expected_at(t, centre);
            const double expected[4] = {e.value[0], e.value[1], e.value[4], e.value[8]};
            /* The same bound as the vertices': 2^-12 per unit of weight. The interpolation
             * between vertices that sit where the rasterizer puts them adds nothing visible. */
            const double tolerance = std::ldexp(1.0, -12) * (1 + e.weight_size);
            for (unsigned c = 0; c < 4; c++) {
               if (std::fabs(double(texel[c]) - expected[c]) > tolerance) {
                  std::snprintf(text, sizeof(text), "pixel (%d, %d) channel %u: %.7f, the triangle's plane gives %.7f (tolerance %.2g)",
                                px, py, c, texel[c], expected[c], tolerance);
                  problem = text;
                  break;
               }
            }
         }
      if (!problem.empty() && failures++ < 20)
         ADD_FAILURE() << cases[i].set << " triangle " << i << ": " << problem;
   }
   EXPECT_EQ(failures, 0u) << "of " << cases.size() << " triangles";
   /* The picture is not the ordinary rasterization: pixels whose centre is outside the
    * triangle were drawn. */
   EXPECT_GT(lit_outside, 10000u);
   std::printf("%zu triangles drawn, %u pixels lit whose centre is outside the triangle, %u with a vertex at the horizon "
               "floor (coverage checked, attributes not)\n", cases.size(), lit_outside, at_horizon);
}

/* Multisampling's construction on a one-sample target: with the edges pushed a whole pixel
 * out, the fan lights pixels beyond the touched ones, and the pixel shader's discard on the
 * edges it carries (moved by 1/2) takes exactly those away again. */
TEST_P(ConservativePolygon, WholePixelPushOutWithTheEdgeDiscardDrawsTheTouchedPixels)
{
   const Chip chip = GetParam();
   std::vector<Case> cases;
   for (const Case &c : make_cases())
      if (c.expect == Expect::enlarged)
         cases.push_back(c);
   std::vector<Triangle> triangles;
   for (const Case &c : cases)
      triangles.push_back(c.triangle);
   const ConstructionRun run = run_construction(chip, triangles, cr::push_out_multisample, 0.0f, true);
   ASSERT_EQ(run.error, "");
   const DrawPrograms with_discard = compile_draw_programs(chip.family, true);
   ASSERT_EQ(with_discard.error, "");
   const DrawPrograms without_discard = compile_draw_programs(chip.family, false);
   ASSERT_EQ(without_discard.error, "");
   const unsigned vec4s = 1 + attribute_count + cr::edge_output_count;

   TestMemory memory;
   auto upload = [&](uint64_t address, const void *data, size_t bytes) {
      memory.add(address, (bytes + 255) & ~size_t(255));
      std::memcpy(memory.buffers.back().bytes.data(), data, bytes);
   };
   constexpr uint64_t plain_vs_address = 0x140000, plain_ps_address = 0x1c0000;
   upload(vs_address, with_discard.vertex.code.data(), with_discard.vertex.code.size() * 4);
   upload(ps_address, with_discard.pixel.code.data(), with_discard.pixel.code.size() * 4);
   upload(plain_vs_address, without_discard.vertex.code.data(), without_discard.vertex.code.size() * 4);
   upload(plain_ps_address, without_discard.pixel.code.data(), without_discard.pixel.code.size() * 4);
   memory.add(draw_constants_address, 512);
   upload(vertices_address, run.raw.data(), run.raw.size() * 4);
   const size_t target_index = memory.buffers.size();
   memory.add(target_address, size_t(target_pitch) * target_height * 16);
   sim::CommandProcessor cp(chip.family, memory);

   /* The pixels a draw lights (bit per pixel). */
   auto draw = [&](size_t i, bool discard, std::vector<bool> &lit) {
      std::vector<uint8_t> &target = memory.buffers[target_index].bytes;
      std::fill(target.begin(), target.end(), 0xff);
      std::vector<uint32_t> ib = draw_ib(chip.family, discard ? with_discard : without_discard,
                                         i * cr::output_vertices_per_triangle, cr::output_vertices_per_triangle, vec4s);
      if (!discard) {
         /* The programs without the discard live elsewhere: SQ_PGM_START_VS/PS are the first
          * value of their packets. */
         for (size_t w = 0; w + 1 < ib.size(); w++) {
            if (ib[w] == (hw::gfx::SQ_PGM_START_VS - hw::pm4::context_window.start) >> 2 && ib[w + 1] == vs_address >> 8)
               ib[w + 1] = uint32_t(plain_vs_address >> 8);
            if (ib[w] == (hw::gfx::SQ_PGM_START_PS - hw::pm4::context_window.start) >> 2 && ib[w + 1] == ps_address >> 8)
               ib[w + 1] = uint32_t(plain_ps_address >> 8);
         }
      }
      const std::string error = cp.execute(ib);
      lit.assign(size_t(target_width) * target_height, false);
      for (int py = 0; py < target_height; py++)
         for (int px = 0; px < target_width; px++) {
            float red;
            std::memcpy(&red, target.data() + (size_t(py) * target_pitch + px) * 16, 4);
            lit[size_t(py) * target_width + px] = !std::isnan(red);
         }
      return error;
   };

   unsigned failures = 0, removed = 0;
   for (size_t i = 0; i < cases.size(); i++) {
      const Triangle &t = cases[i].triangle;
      const std::array<Screen, 3> s = {to_screen(t[0]), to_screen(t[1]), to_screen(t[2])};
      std::vector<bool> lit, wide;
      ASSERT_EQ(draw(i, true, lit), "") << i;
      ASSERT_EQ(draw(i, false, wide), "") << i;
      std::string problem;
      for (int py = 0; py < target_height && problem.empty(); py++)
         for (int px = 0; px < target_width && problem.empty(); px++) {
            const size_t at = size_t(py) * target_width + px;
            const Screen centre = {px + 0.5, py + 0.5};
            char text[160];
            if (touches(s, centre) && !lit[at]) {
               std::snprintf(text, sizeof(text), "pixel (%d, %d) touches the triangle but was discarded or not drawn", px, py);
               problem = text;
            } else if (lit[at] && distance_to(s, centre) > overestimation_bound) {
               std::snprintf(text, sizeof(text), "pixel (%d, %d) was drawn %.4f pixels from the triangle", px, py,
                             distance_to(s, centre));
               problem = text;
            }
            removed += wide[at] && !lit[at];
         }
      if (!problem.empty() && failures++ < 20)
         ADD_FAILURE() << cases[i].set << " triangle " << i << ": " << problem;
   }
   EXPECT_EQ(failures, 0u) << "of " << cases.size() << " triangles";
   /* The whole-pixel push-out lit more, and the discard took it away. */
   EXPECT_GT(removed, 10000u);
   std::printf("%zu triangles, %u pixels lit by the whole-pixel push-out and discarded\n", cases.size(), removed);
}

/* The seed's picture (issue 17 item 4), on simulated Cayman: three thin slivers drawn as
 * ordinary triangles (left) break into dashes or vanish; their enlarged fans (right) light every
 * pixel they touch. The target enlarged 16 times, with the pixel grid and the exact triangles as
 * white lines; written to TERAKAN_CONSERVATIVE_PICTURES/slivers.png when that is set. */
TEST(ConservativePicture, SliversDrawnNormallyAndConservatively)
{
   const Chip chip = chips[2];
   std::mt19937 random(3);
   const std::array<std::array<Screen, 3>, 3> slivers = {{
      {Screen{2.3, 4.1}, Screen{45.6, 9.7}, Screen{24.0, 7.3}},
      {Screen{5.2, 27.9}, Screen{42.8, 14.3}, Screen{20.0, 22.9}},
      {Screen{9.6, 30.7}, Screen{14.1, 1.2}, Screen{12.3, 15.0}},
   }};
   std::vector<Triangle> triangles;
   for (const auto &points : slivers)
      triangles.push_back(make_triangle(random, points, {1, 1, 1}));
   const ConstructionRun run = run_construction(chip, triangles);
   ASSERT_EQ(run.error, "");
   const DrawPrograms programs = compile_draw_programs(chip.family);
   ASSERT_EQ(programs.error, "");

   TestMemory memory;
   auto upload = [&](uint64_t address, const void *data, size_t bytes) {
      memory.add(address, (bytes + 255) & ~size_t(255));
      std::memcpy(memory.buffers.back().bytes.data(), data, bytes);
   };
   upload(vs_address, programs.vertex.code.data(), programs.vertex.code.size() * 4);
   upload(ps_address, programs.pixel.code.data(), programs.pixel.code.size() * 4);
   memory.add(draw_constants_address, 512);
   /* The fans first, then the original triangles. */
   std::vector<Vertex> vertices = run.output;
   for (const Triangle &t : triangles)
      vertices.insert(vertices.end(), t.begin(), t.end());
   upload(vertices_address, vertices.data(), vertices.size() * sizeof(Vertex));
   const size_t target_index = memory.buffers.size();
   memory.add(target_address, size_t(target_pitch) * target_height * 16);
   sim::CommandProcessor cp(chip.family, memory);
   auto draw = [&](uint64_t first, uint32_t count) {
      std::vector<uint8_t> &target = memory.buffers[target_index].bytes;
      std::fill(target.begin(), target.end(), 0xff);
      EXPECT_EQ(cp.execute(draw_ib(chip.family, programs, first, count)), "");
      std::vector<bool> lit(size_t(target_width) * target_height);
      for (size_t p = 0; p < lit.size(); p++) {
         float red;
         std::memcpy(&red, target.data() + ((p / target_width) * target_pitch + p % target_width) * 16, 4);
         lit[p] = !std::isnan(red);
      }
      return lit;
   };
   std::array<std::vector<bool>, 3> normal, conservative;
   unsigned touched = 0, normal_missed = 0, conservative_missed = 0;
   for (unsigned k = 0; k < 3; k++) {
      conservative[k] = draw(k * cr::output_vertices_per_triangle, cr::output_vertices_per_triangle);
      normal[k] = draw(3 * cr::output_vertices_per_triangle + 3 * k, 3);
      const std::array<Screen, 3> s = {to_screen(triangles[k][0]), to_screen(triangles[k][1]), to_screen(triangles[k][2])};
      for (int y = 0; y < target_height; y++)
         for (int x = 0; x < target_width; x++) {
            if (!touches(s, {x + 0.5, y + 0.5}))
               continue;
            touched++;
            normal_missed += !normal[k][size_t(y) * target_width + x];
            conservative_missed += !conservative[k][size_t(y) * target_width + x];
         }
   }
   EXPECT_EQ(conservative_missed, 0u);
   EXPECT_GT(normal_missed, touched / 3) << "the slivers are not thin enough to show the difference";
   std::printf("%u pixels touched; ordinary rasterization missed %u, the enlarged fans %u\n", touched, normal_missed,
               conservative_missed);

   const char *folder = std::getenv("TERAKAN_CONSERVATIVE_PICTURES");
   if (!folder)
      return;
   /* Two panels of the target enlarged `zoom` times, 8 pixels apart. */
   constexpr int zoom = 16, gap = 8, panel_w = target_width * zoom, panel_h = target_height * zoom;
   gl_scenes::RgbaPicture picture;
   picture.width = 2 * panel_w + gap;
   picture.height = panel_h;
   picture.pixels.assign(size_t(picture.width) * picture.height * 4, 0);
   auto put = [&](int x, int y, std::array<uint8_t, 3> rgb) {
      if (x < 0 || y < 0 || x >= picture.width || y >= picture.height)
         return;
      uint8_t *p = picture.pixels.data() + (size_t(y) * picture.width + x) * 4;
      p[0] = rgb[0], p[1] = rgb[1], p[2] = rgb[2], p[3] = 255;
   };
   const std::array<std::array<uint8_t, 3>, 3> colours = {{{230, 60, 60}, {60, 200, 80}, {70, 110, 240}}};
   for (int panel = 0; panel < 2; panel++) {
      const int left = panel * (panel_w + gap);
      for (int y = 0; y < panel_h; y++)
         for (int x = 0; x < panel_w; x++) {
            const size_t at = size_t(y / zoom) * target_width + x / zoom;
            std::array<int, 3> rgb = {24, 24, 28};
            for (unsigned k = 0; k < 3; k++)
               if ((panel ? conservative[k] : normal[k])[at])
                  rgb = {colours[k][0], colours[k][1], colours[k][2]};
            if (x % zoom == 0 || y % zoom == 0)
               rgb = {rgb[0] / 2 + 40, rgb[1] / 2 + 40, rgb[2] / 2 + 40}; /* the pixel grid */
            put(left + x, y, {uint8_t(rgb[0]), uint8_t(rgb[1]), uint8_t(rgb[2])});
         }
      /* The exact triangles as white lines. */
      for (const Triangle &t : triangles)
         for (unsigned e = 0; e < 3; e++) {
            const Screen a = to_screen(t[e]), b = to_screen(t[(e + 1) % 3]);
            const int steps = int(std::hypot(b.x - a.x, b.y - a.y) * zoom * 2) + 1;
            for (int i = 0; i <= steps; i++) {
               const double u = double(i) / steps;
               put(left + int((a.x + u * (b.x - a.x)) * zoom), int((a.y + u * (b.y - a.y)) * zoom), {255, 255, 255});
            }
         }
   }
   gl_scenes::write_png(std::string(folder) + "/slivers.png", picture);
}

INSTANTIATE_TEST_SUITE_P(Sim, ConservativePolygon, ::testing::ValuesIn(chips),
                         [](const auto &info) { return std::string(info.param.name); });

} // namespace
