/* The conservative-rasterization polygon construction as a nir_builder compute shader
 * (terakan_conservative_shader.h describes the buffers and constants).
 *
 * Per triangle, in screen space (pixels):
 *  1. The set of pixel centres c whose pixel square touches the triangle T is T grown by the
 *     square (the Minkowski sum): the intersection of T's bounding box grown by 1/2 and T's three
 *     edge half-planes, each moved out by 1/2 (|e.x| + |e.y|) in edge-function units (the
 *     square's support along the edge's normal). With the margin of 1/256 added to the 1/2, and
 *     the box rounded out to whole pixels (which keeps the same pixel centres), the polygon is
 *     the box clipped by the three moved lines: at most 7 vertices.
 *  2. The vertices are snapped to the rasterizer's 1/256 grid before anything is derived from
 *     them: the rasterizer would snap them anyway, and a vertex whose attributes were computed
 *     for a point it no longer sits on leaves the attribute planes (the seed's 0.4% error).
 *     The rasterizer truncates (ROUND_MODE 0 as the driver programs PA_SU_VTX_CNTL), so each
 *     vertex is emitted half a step beyond its grid point, away from zero.
 *  3. Each vertex's screen barycentrics l (affine, from the triangle's screen positions) give
 *     the perspective-correct weights b_i = (l_i / w_i) / sum(l_j / w_j); perspective
 *     attributes are sum b_i a_i, noperspective ones sum l_i a_i, flat ones the first vertex's.
 *     The position is rebuilt from the snapped screen point: ndc = (q - offset) / scale,
 *     w' = 1 / sum(l_j / w_j), z_ndc = sum l_i z_i / w_i, clip = (ndc * w', z_ndc * w', w'),
 *     so that the hardware's perspective interpolation between new vertices reproduces the
 *     original triangle's.
 * The clipping is branch-free (every slot of the polygon is a select on the running count),
 * so the program has one branch, the bounds check. */
#include "terakan_conservative_shader.h"

#include <array>
#include <vector>

#include <vulkan/vulkan_core.h>

#include "compiler/nir_shaders.h"

namespace terakan::conservative {

namespace {

struct Point {
   nir_ssa_def *x, *y;
};

nir_ssa_def *constant(nir_builder *b, PolygonConstant which)
{
   return nir_load_push_constant(b, 1, 32, nir_imm_int(b, 0), int(4 * which), 4u);
}

nir_ssa_def *storage_buffer(nir_builder *b, unsigned slot)
{
   return terakan::compiler::storage_buffer_nir(b, slot);
}

nir_ssa_def *load_vec4(nir_builder *b, nir_ssa_def *buffer, nir_ssa_def *offset)
{
   _nir_load_ssbo_indices indices{};
   indices.align_mul = 16;
   return _nir_build_load_ssbo(b, 4, 32, buffer, offset, indices);
}

void store_vec4(nir_builder *b, nir_ssa_def *buffer, nir_ssa_def *offset, nir_ssa_def *value)
{
   _nir_store_ssbo_indices indices{};
   indices.write_mask = 0xf;
   indices.align_mul = 16;
   _nir_build_store_ssbo(b, value, buffer, offset, indices);
}

nir_ssa_def *cross(nir_builder *b, Point u, Point v)
{
   return nir_fsub(b, nir_fmul(b, u.x, v.y), nir_fmul(b, u.y, v.x));
}

Point minus(nir_builder *b, Point u, Point v)
{
   return {nir_fsub(b, u.x, v.x), nir_fsub(b, u.y, v.y)};
}

Point select(nir_builder *b, nir_ssa_def *condition, Point yes, Point no)
{
   return {nir_bcsel(b, condition, yes.x, no.x), nir_bcsel(b, condition, yes.y, no.y)};
}

/* A line moved out: d(p) = sign * cross(e, p - origin) + shift, >= 0 on the kept side. */
struct MovedEdge {
   Point origin, direction;
   nir_ssa_def *sign, *shift;

   nir_ssa_def *distance(nir_builder *b, Point p) const
   {
      return nir_fadd(b, nir_fmul(b, sign, cross(b, direction, minus(b, p, origin))), shift);
   }
};

/* A convex polygon in fixed slots: slots at and beyond `count` hold junk. */
struct Polygon {
   std::vector<Point> slots;
   nir_ssa_def *count;
};

/* Appends p when `condition` holds: every slot takes p if it is the one at the running count. */
void append(nir_builder *b, Polygon &polygon, nir_ssa_def *condition, Point p)
{
   for (unsigned k = 0; k < polygon.slots.size(); k++)
      polygon.slots[k] =
         select(b, nir_iand(b, condition, nir_ieq_imm(b, polygon.count, k)), p, polygon.slots[k]);
   polygon.count = nir_iadd(b, polygon.count, nir_b2i32(b, condition));
}

/* Sutherland-Hodgman against one moved edge: a polygon of at most n vertices becomes one of at
 * most n + 1. */
Polygon clip(nir_builder *b, const Polygon &in, const MovedEdge &edge)
{
   const unsigned n = unsigned(in.slots.size());
   Polygon out{std::vector<Point>(n + 1, in.slots[0]), nir_imm_int(b, 0)};
   for (unsigned i = 0; i < n; i++) {
      nir_ssa_def *valid = nir_ult(b, nir_imm_int(b, i), in.count);
      const Point current = in.slots[i];
      /* The next vertex, wrapping to the first after the last one in use. */
      const Point next =
         i + 1 < n ? select(b, nir_ieq_imm(b, in.count, i + 1), in.slots[0], in.slots[i + 1]) : in.slots[0];
      nir_ssa_def *dc = edge.distance(b, current), *dn = edge.distance(b, next);
      nir_ssa_def *current_in = nir_fge(b, dc, nir_imm_float(b, 0.0f));
      nir_ssa_def *next_in = nir_fge(b, dn, nir_imm_float(b, 0.0f));
      append(b, out, nir_iand(b, valid, current_in), current);
      /* The crossing, when the two ends are on different sides (then dc - dn is not zero). */
      nir_ssa_def *crosses = nir_iand(b, valid, nir_ixor(b, current_in, next_in));
      nir_ssa_def *denominator = nir_bcsel(b, crosses, nir_fsub(b, dc, dn), nir_imm_float(b, 1.0f));
      nir_ssa_def *t = nir_fdiv(b, dc, denominator);
      const Point crossing = {nir_ffma(b, t, nir_fsub(b, next.x, current.x), current.x),
                              nir_ffma(b, t, nir_fsub(b, next.y, current.y), current.y)};
      append(b, out, crosses, crossing);
   }
   return out;
}

nir_ssa_def *snap(nir_builder *b, nir_ssa_def *v)
{
   return nir_fmul_imm(b, nir_ffloor(b, nir_fadd_imm(b, nir_fmul_imm(b, v, snap_steps_per_pixel), 0.5)),
                       1.0 / snap_steps_per_pixel);
}

nir_ssa_def *min3(nir_builder *b, nir_ssa_def *a, nir_ssa_def *c, nir_ssa_def *d)
{
   return nir_fmin(b, a, nir_fmin(b, c, d));
}

nir_ssa_def *max3(nir_builder *b, nir_ssa_def *a, nir_ssa_def *c, nir_ssa_def *d)
{
   return nir_fmax(b, a, nir_fmax(b, c, d));
}

} // namespace

nir_shader *build_polygon_shader(unsigned attribute_count, bool edge_outputs)
{
   nir_builder builder = terakan::compiler::begin_compute_nir("terakan conservative polygon", group_size, 1, 1);
   nir_builder *b = &builder;
   const unsigned stride = vertex_stride(attribute_count);
   const unsigned out_stride = vertex_stride(attribute_count + (edge_outputs ? edge_output_count : 0));
   nir_ssa_def *group = nir_channel(b, nir_load_workgroup_id(b, 32), 0);
   nir_ssa_def *local = nir_channel(b, nir_load_local_invocation_id(b), 0);
   nir_ssa_def *triangle = nir_iadd(b, nir_imul_imm(b, group, group_size), local);
   nir_ssa_def *input = storage_buffer(b, input_slot);
   nir_ssa_def *output = storage_buffer(b, output_slot);
   nir_ssa_def *zero = nir_imm_float(b, 0.0f);

   nir_push_if(b, nir_ult(b, triangle, constant(b, triangle_count)));
   nir_ssa_def *in_base = nir_imul_imm(b, triangle, 3 * stride);

   /* The clip positions, their screen points and whether the triangle can be enlarged. */
   std::array<nir_ssa_def *, 3> position, inverse_w, z_over_w;
   std::array<Point, 3> screen;
   nir_ssa_def *scale[2] = {constant(b, scale_x), constant(b, scale_y)};
   nir_ssa_def *offset[2] = {constant(b, offset_x), constant(b, offset_y)};
   nir_ssa_def *usable = nir_imm_true(b);
   for (unsigned v = 0; v < 3; v++) {
      position[v] = load_vec4(b, input, nir_iadd_imm(b, in_base, v * stride));
      nir_ssa_def *w = nir_channel(b, position[v], 3);
      usable = nir_iand(b, usable, nir_flt(b, zero, w)); /* false for NaN too */
      inverse_w[v] = nir_frcp(b, w);
      z_over_w[v] = nir_fmul(b, nir_channel(b, position[v], 2), inverse_w[v]);
      screen[v] = {nir_ffma(b, nir_fmul(b, nir_channel(b, position[v], 0), inverse_w[v]), scale[0], offset[0]),
                   nir_ffma(b, nir_fmul(b, nir_channel(b, position[v], 1), inverse_w[v]), scale[1], offset[1])};
   }

   /* The box: the triangle's bounds grown by the margin and the extra size, out to whole
    * pixels, inside the clamp rectangle. Everything below is relative to its corner (an
    * integer), for precision. */
   nir_ssa_def *extra = constant(b, extra_size);
   nir_ssa_def *grow = nir_fadd_imm(b, extra, margin);
   nir_ssa_def *box_x0 = nir_fmax(b, nir_ffloor(b, nir_fsub(b, min3(b, screen[0].x, screen[1].x, screen[2].x), grow)),
                                  constant(b, clamp_x0));
   nir_ssa_def *box_y0 = nir_fmax(b, nir_ffloor(b, nir_fsub(b, min3(b, screen[0].y, screen[1].y, screen[2].y), grow)),
                                  constant(b, clamp_y0));
   nir_ssa_def *box_x1 = nir_fmin(b, nir_fceil(b, nir_fadd(b, max3(b, screen[0].x, screen[1].x, screen[2].x), grow)),
                                  constant(b, clamp_x1));
   nir_ssa_def *box_y1 = nir_fmin(b, nir_fceil(b, nir_fadd(b, max3(b, screen[0].y, screen[1].y, screen[2].y), grow)),
                                  constant(b, clamp_y1));
   usable = nir_iand(b, usable, nir_iand(b, nir_flt(b, box_x0, box_x1), nir_flt(b, box_y0, box_y1)));
   const Point corner = {box_x0, box_y0};
   std::array<Point, 3> t;
   for (unsigned v = 0; v < 3; v++)
      t[v] = minus(b, screen[v], corner);
   nir_ssa_def *width = nir_fsub(b, box_x1, box_x0), *height = nir_fsub(b, box_y1, box_y0);

   /* Orientation: the polygon keeps the triangle's winding, so culling and facing agree. */
   nir_ssa_def *area = cross(b, minus(b, t[1], t[0]), minus(b, t[2], t[0]));
   usable = nir_iand(b, usable, nir_fneu(b, area, zero));
   /* A triangle whose vertices, on the rasterizer's grid (truncated to 1/256 pixel; the corner
    * is a whole pixel), span no area is culled: Terakan reports degenerateTrianglesRasterized
    * false, and the specification culls such triangles then. Its output is degenerate. */
   std::array<Point, 3> on_grid;
   for (unsigned v = 0; v < 3; v++)
      on_grid[v] = {nir_fmul_imm(b, nir_ffloor(b, nir_fmul_imm(b, t[v].x, snap_steps_per_pixel)), 1.0 / snap_steps_per_pixel),
                    nir_fmul_imm(b, nir_ffloor(b, nir_fmul_imm(b, t[v].y, snap_steps_per_pixel)), 1.0 / snap_steps_per_pixel)};
   nir_ssa_def *culled =
      nir_iand(b, usable, nir_feq(b, cross(b, minus(b, on_grid[1], on_grid[0]), minus(b, on_grid[2], on_grid[0])), zero));
   usable = nir_iand(b, usable, nir_inot(b, culled));
   nir_ssa_def *positive = nir_flt(b, zero, area);
   nir_ssa_def *sign = nir_bcsel(b, positive, nir_imm_float(b, 1.0f), nir_imm_float(b, -1.0f));

   /* The box in that winding. */
   const Point p00 = {zero, zero}, p10 = {width, zero}, p11 = {width, height}, p01 = {zero, height};
   Polygon polygon{{p00, select(b, positive, p10, p01), p11, select(b, positive, p01, p10)}, nir_imm_int(b, 4)};

   nir_ssa_def *push = nir_fadd(b, constant(b, push_out), extra);
   for (unsigned v = 0; v < 3; v++) {
      const Point direction = minus(b, t[(v + 1) % 3], t[v]);
      MovedEdge edge{t[v], direction, sign,
                     nir_fmul(b, push, nir_fadd(b, nir_fabs(b, direction.x), nir_fabs(b, direction.y)))};
      polygon = clip(b, polygon, edge);
   }

   /* Snapped, a convex polygon can turn the wrong way at a vertex where two nearly parallel
    * moved edges meet (needle-like triangles); the fan would then fold over itself. Such a
    * vertex is moved onto the previous one kept, which only grows the polygon (its fan
    * triangles become degenerate), so coverage holds. */
   const unsigned slots = unsigned(polygon.slots.size());
   std::vector<Point> snapped(slots);
   for (unsigned j = 0; j < slots; j++)
      snapped[j] = {snap(b, polygon.slots[j].x), snap(b, polygon.slots[j].y)};
   Point kept = snapped[0];
   for (unsigned j = 1; j < slots; j++) {
      const Point next =
         j + 1 < slots ? select(b, nir_ieq_imm(b, polygon.count, j + 1), snapped[0], snapped[j + 1]) : snapped[0];
      nir_ssa_def *turn = nir_fmul(b, sign, cross(b, minus(b, snapped[j], kept), minus(b, next, snapped[j])));
      nir_ssa_def *reflex = nir_iand(b, nir_ult(b, nir_imm_int(b, j), polygon.count), nir_flt(b, turn, zero));
      snapped[j] = select(b, reflex, kept, snapped[j]);
      kept = snapped[j];
   }

   /* A box the moved edges cut away entirely: the triangle touches no pixel of the rectangle. */
   usable = nir_iand(b, usable, nir_uge(b, polygon.count, nir_imm_int(b, 3)));

   nir_ssa_def *flat = constant(b, flat_mask), *linear = constant(b, linear_mask);
   nir_ssa_def *inverse_area = nir_frcp(b, area);
   nir_ssa_def *horizon_floor =
      nir_fmul_imm(b, nir_fmin(b, inverse_w[0], nir_fmin(b, inverse_w[1], inverse_w[2])), horizon_fraction);
   /* Attribute k of input vertex v, loaded where it is used (each use its own load: fewer
    * values live at once than keeping all of them). */
   auto input_attribute = [&](unsigned v, unsigned k) {
      return load_vec4(b, input, nir_iadd_imm(b, in_base, v * stride + 16 * (k + 1)));
   };
   auto is_flat = [&](unsigned k) { return nir_ine_imm(b, nir_iand_imm(b, flat, 1u << k), 0); };

   /* One polygon vertex's data: its weights, position and attributes. */
   auto vertex_data = [&](Point q) {
      std::vector<nir_ssa_def *> data;
      const Point d = minus(b, q, t[0]);
      nir_ssa_def *l1 = nir_fmul(b, cross(b, d, minus(b, t[2], t[0])), inverse_area);
      nir_ssa_def *l2 = nir_fmul(b, cross(b, minus(b, t[1], t[0]), d), inverse_area);
      nir_ssa_def *l0 = nir_fsub(b, nir_fsub(b, nir_imm_float(b, 1.0f), l1), l2);
      nir_ssa_def *l[3] = {l0, l1, l2};
      nir_ssa_def *r[3];
      for (unsigned v = 0; v < 3; v++)
         r[v] = nir_fmul(b, l[v], inverse_w[v]);
      nir_ssa_def *sum = nir_fadd(b, nir_fadd(b, r[0], r[1]), r[2]);
      /* Near or past the horizon of the triangle's 1/w plane (a thin sliver's plane is steep,
       * so half a pixel beside it may be there): the vertex gets w = 1 / horizon_floor and
       * screen-linear attributes, keeping its screen point and depth. */
      nir_ssa_def *perspective_ok = nir_flt(b, horizon_floor, sum);
      nir_ssa_def *new_w = nir_frcp(b, nir_bcsel(b, perspective_ok, sum, horizon_floor));
      nir_ssa_def *z = nir_ffma(b, l2, z_over_w[2], nir_ffma(b, l1, z_over_w[1], nir_fmul(b, l0, z_over_w[0])));
      /* The rasterizer truncates positions to its grid (PA_SU_VTX_CNTL.ROUND_MODE 0, which the
       * driver programs): a point placed exactly on the grid could land a step lower after the
       * float round trip through clip space, so it is placed half a step beyond, away from
       * zero, where truncation finds the grid point again. */
      auto nudged = [&](nir_ssa_def *grid_point) {
         nir_ssa_def *half_step = nir_bcsel(b, nir_fge(b, grid_point, zero), nir_imm_float(b, 0.5f / snap_steps_per_pixel),
                                            nir_imm_float(b, -0.5f / snap_steps_per_pixel));
         return nir_fadd(b, grid_point, half_step);
      };
      nir_ssa_def *ndc_x = nir_fdiv(b, nir_fsub(b, nudged(nir_fadd(b, q.x, corner.x)), offset[0]), scale[0]);
      nir_ssa_def *ndc_y = nir_fdiv(b, nir_fsub(b, nudged(nir_fadd(b, q.y, corner.y)), offset[1]), scale[1]);
      data.push_back(nir_vec4(b, nir_fmul(b, ndc_x, new_w), nir_fmul(b, ndc_y, new_w), nir_fmul(b, z, new_w), new_w));
      nir_ssa_def *beta[3];
      for (unsigned v = 0; v < 3; v++)
         beta[v] = nir_bcsel(b, perspective_ok, nir_fmul(b, r[v], new_w), l[v]);
      for (unsigned k = 0; k < attribute_count; k++) {
         nir_ssa_def *a[3] = {input_attribute(0, k), input_attribute(1, k), input_attribute(2, k)};
         nir_ssa_def *perspective = nir_fmul(b, a[0], beta[0]);
         nir_ssa_def *screen_linear = nir_fmul(b, a[0], l0);
         for (unsigned v = 1; v < 3; v++) {
            perspective = nir_ffma(b, a[v], beta[v], perspective);
            screen_linear = nir_ffma(b, a[v], l[v], screen_linear);
         }
         nir_ssa_def *is_linear = nir_ine_imm(b, nir_iand_imm(b, linear, 1u << k), 0);
         data.push_back(nir_bcsel(b, is_flat(k), a[0], nir_bcsel(b, is_linear, screen_linear, perspective)));
      }
      return data;
   };

   /* The output: the fan (0, f + 1, f + 2) for f < count - 2, degenerate triangles (vertex 0
    * three times) after it; or, when the triangle is not enlarged, the triangle unchanged and
    * degenerate copies of its first vertex. Each polygon vertex is made once and stored where
    * the fan uses it. */
   nir_ssa_def *out_base = nir_imul_imm(b, triangle, output_vertices_per_triangle * out_stride);
   /* The edges for the pixel shader's discard, flat: a x + b y + c >= 0 at a pixel centre
    * inside the triangle grown by the pixel square (plus the margin and the extra size), in
    * window coordinates, divided by |a| + |b|; (0, 0, 1, 0), keeping everything, for a triangle
    * drawn unchanged. */
   std::vector<nir_ssa_def *> edges;
   if (edge_outputs)
      for (unsigned v = 0; v < 3; v++) {
         const Point from = screen[v], to = screen[(v + 1) % 3];
         const Point direction = minus(b, to, from);
         nir_ssa_def *inverse_length = nir_frcp(b, nir_fadd(b, nir_fabs(b, direction.x), nir_fabs(b, direction.y)));
         nir_ssa_def *ea = nir_fmul(b, nir_fneg(b, nir_fmul(b, sign, direction.y)), inverse_length);
         nir_ssa_def *eb = nir_fmul(b, nir_fmul(b, sign, direction.x), inverse_length);
         nir_ssa_def *ec = nir_fmul(b, nir_fmul(b, sign, cross(b, from, direction)), inverse_length);
         ec = nir_fadd(b, ec, nir_fadd_imm(b, extra, 0.5 + margin));
         edges.push_back(nir_bcsel(b, usable, nir_vec4(b, ea, eb, ec, zero),
                                   nir_imm_vec4(b, 0.0f, 0.0f, 1.0f, 0.0f)));
      }
   auto store_vertex = [&](unsigned f, unsigned c, const std::vector<nir_ssa_def *> &enlarged) {
      const unsigned original = f == 0 ? c : 0;
      for (unsigned k = 0; k <= attribute_count; k++) {
         nir_ssa_def *unchanged = k == 0 ? nir_bcsel(b, culled, position[0], position[original])
                                         : input_attribute(original, k - 1);
         store_vec4(b, output, nir_iadd_imm(b, out_base, (3 * f + c) * out_stride + 16 * k),
                    nir_bcsel(b, usable, enlarged[k], unchanged));
      }
      for (unsigned e = 0; e < edges.size(); e++)
         store_vec4(b, output, nir_iadd_imm(b, out_base, (3 * f + c) * out_stride + 16 * (attribute_count + 1 + e)),
                    edges[e]);
   };
   const std::vector<nir_ssa_def *> first = vertex_data(snapped[0]);
   for (unsigned f = 0; f < output_triangles_per_triangle; f++)
      store_vertex(f, 0, first);
   for (unsigned j = 1; j < slots; j++) {
      const std::vector<nir_ssa_def *> made = vertex_data(snapped[j]);
      /* Slot j is corner 1 of fan triangle j - 1 and corner 2 of fan triangle j - 2. */
      for (unsigned c = 1; c <= 2; c++) {
         if (j < c || j - c >= output_triangles_per_triangle)
            continue;
         const unsigned f = j - c;
         nir_ssa_def *in_use = nir_ult(b, nir_imm_int(b, f + 2), polygon.count);
         std::vector<nir_ssa_def *> chosen(made.size());
         for (size_t k = 0; k < made.size(); k++)
            chosen[k] = nir_bcsel(b, in_use, made[k], first[k]);
         store_vertex(f, c, chosen);
      }
   }
   nir_pop_if(b, nullptr);
   return b->shader;
}

nir_shader *build_provoking_shader(unsigned attribute_count)
{
   nir_builder builder = terakan::compiler::begin_compute_nir("terakan conservative provoking vertex", group_size, 1, 1);
   nir_builder *b = &builder;
   const unsigned stride = vertex_stride(attribute_count);
   nir_ssa_def *group = nir_channel(b, nir_load_workgroup_id(b, 32), 0);
   nir_ssa_def *local = nir_channel(b, nir_load_local_invocation_id(b), 0);
   nir_ssa_def *triangle = nir_iadd(b, nir_imul_imm(b, group, group_size), local);
   /* Fans: every triangle; strips: the odd ones of each instance (strip_period triangles; the
    * driver refuses strips cut by restart, whose parity only the VGT knows). */
   nir_ssa_def *period = constant(b, strip_period);
   nir_ssa_def *in_instance =
      nir_bcsel(b, nir_ieq_imm(b, period, 0), triangle, nir_umod(b, triangle, nir_umax(b, period, nir_imm_int(b, 1))));
   nir_ssa_def *odd_in_strip = nir_iand(b, nir_ine_imm(b, constant(b, strip_triangles), 0),
                                        nir_ine_imm(b, nir_iand_imm(b, in_instance, 1), 0));
   nir_ssa_def *second = nir_ior(b, nir_ine_imm(b, constant(b, provoking_second), 0), odd_in_strip);
   nir_push_if(b, nir_iand(b, nir_ult(b, triangle, constant(b, triangle_count)), second));
   nir_ssa_def *base = nir_imul_imm(b, triangle, 3 * stride);
   nir_ssa_def *input = storage_buffer(b, input_slot), *output = storage_buffer(b, output_slot);
   nir_ssa_def *flat = constant(b, flat_mask);
   for (unsigned k = 0; k < attribute_count; k++) {
      nir_push_if(b, nir_ine_imm(b, nir_iand_imm(b, flat, 1u << k), 0));
      store_vec4(b, output, nir_iadd_imm(b, base, 16 * (k + 1)),
                 load_vec4(b, input, nir_iadd_imm(b, base, stride + 16 * (k + 1))));
      nir_pop_if(b, nullptr);
   }
   nir_pop_if(b, nullptr);
   return b->shader;
}

nir_shader *build_count_shader()
{
   nir_builder builder = terakan::compiler::begin_compute_nir("terakan conservative count", 1, 1, 1);
   nir_builder *b = &builder;
   auto count_constant = [&](CountConstant which) {
      return nir_load_push_constant(b, 1, 32, nir_imm_int(b, 0), int(4 * which), 4u);
   };
   nir_ssa_def *input = storage_buffer(b, input_slot), *output = storage_buffer(b, output_slot);
   nir_ssa_def *recorded = load_vec4(b, input, nir_imm_int(b, 0));
   nir_ssa_def *filled = nir_channel(b, recorded, 0);
   static_assert(indirect_vertex_count == indirect_filled_size + 4);
   nir_ssa_def *vertices = nir_channel(b, recorded, 1);
   nir_ssa_def *captured = nir_udiv(b, filled, count_constant(count_triangle_dwords));
   nir_ssa_def *triangles = nir_umin(b, captured, count_constant(count_capacity));
   nir_ssa_def *one = nir_imm_int(b, 1), *zero = nir_imm_int(b, 0);
   nir_ssa_def *groups = nir_ushr_imm(b, nir_iadd_imm(b, triangles, group_size - 1), 6);
   static_assert(group_size == 64);
   store_vec4(b, output, nir_imm_int(b, indirect_dispatch_arguments), nir_vec4(b, groups, one, one, zero));
   store_vec4(b, output, nir_imm_int(b, indirect_draw_arguments),
              nir_vec4(b, nir_imul_imm(b, triangles, output_vertices_per_triangle), one, zero, zero));
   store_vec4(b, output, nir_imm_int(b, indirect_captured), nir_vec4(b, captured, zero, zero, zero));
   /* PolygonConstant triangle_count alone: the other constants beside it are the CPU's. */
   static_assert(triangle_count == 0);
   _nir_store_ssbo_indices indices{};
   indices.write_mask = 0x1;
   indices.align_mul = 4;
   _nir_build_store_ssbo(b, triangles, output, nir_imm_int(b, 0), indices);
   /* strip_period: the record's triangles per instance as a strip (unused for lists and fans). */
   nir_ssa_def *period = nir_bcsel(b, nir_uge(b, vertices, nir_imm_int(b, 3)), nir_iadd_imm(b, vertices, -2), zero);
   _nir_build_store_ssbo(b, period, output, nir_imm_int(b, 4 * strip_period), indices);
   return b->shader;
}

} // namespace terakan::conservative
