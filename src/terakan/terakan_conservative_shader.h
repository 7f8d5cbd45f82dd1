/* VK_EXT_conservative_rasterization, emulated by drawing a bigger polygon (issue 17, seed 000):
 * the compute shader that replaces each captured triangle by the polygon whose pixel centres are
 * exactly the pixels the triangle touches (plus a small margin), with its attributes
 * extrapolated from the triangle. Only the construction lives here; it depends on the compiler,
 * not on the driver, so that tests can run it alone on the simulator.
 *
 * Buffers (the compiler's compute ABI: storage buffer slot n is read through compute fetch
 * resource n and written through RAT n):
 *   slot 0, read:  the captured vertices, three per triangle (a triangle list, as streamout or a
 *                  capture pass writes it); each vertex is `1 + attribute_count` vec4s: the clip
 *                  position, then the vertex stage's outputs.
 *   slot 1, write: `output_vertices_per_triangle` vertices of the same layout per input
 *                  triangle, a triangle list to draw with a pass-through vertex shader.
 * Push constants: PolygonConstant (dwords). */
#pragma once

#include "compiler/nir/nir.h"

namespace terakan::conservative {

inline constexpr unsigned group_size = 64;
/* The polygon has at most 7 vertices (a box clipped by three lines); it is drawn as a fan of
 * 5 triangles, the unused ones degenerate. */
inline constexpr unsigned max_polygon_vertices = 7;
inline constexpr unsigned output_triangles_per_triangle = max_polygon_vertices - 2;
inline constexpr unsigned output_vertices_per_triangle = 3 * output_triangles_per_triangle;
inline constexpr unsigned input_slot = 0, output_slot = 1;

/* Bytes per vertex in both buffers. */
inline constexpr unsigned vertex_stride(unsigned attribute_count)
{
   return 16 * (1 + attribute_count);
}

/* The edges move out by this much of a pixel's half-extent plus this margin (pixels): 1/2 is
 * the pixel square's half size, 1/256 one step of the rasterizer's vertex grid (PA_SU_VTX_CNTL
 * QUANT_MODE 5, which the driver programs), so that neither our snapping nor a centre exactly
 * on the moved edge loses a touched pixel. */
inline constexpr float margin = 1.0f / 256.0f;
inline constexpr float push_out_single_sample = 0.5f + margin;
/* With several samples a touched pixel must have all of them covered: the edges move out by a
 * whole pixel, and the pixels that gains beyond the touched ones must be discarded by the
 * pixel shader (edge functions moved by 1/2 negative at the pixel centre; not built yet). */
inline constexpr float push_out_multisample = 1.0f + margin;
/* The snapping grid: 1/256 pixel, the rasterizer's own. It truncates (PA_SU_VTX_CNTL
 * ROUND_MODE 0), so vertices are emitted half a step past their grid point. The draw must turn
 * near and far clipping off (the extrapolated depth beside a steep sliver leaves [0, 1]). */
inline constexpr float snap_steps_per_pixel = 256.0f;

/* A new vertex whose extrapolated 1/w falls below this fraction of the triangle's smallest 1/w
 * is treated as past the horizon (its w would be more than 64 times the triangle's largest). */
inline constexpr float horizon_fraction = 1.0f / 64.0f;

enum PolygonConstant : unsigned {
   triangle_count,   /* triangles in the input */
   flat_mask,        /* bit k: attribute k is flat (taken from the triangle's first vertex) */
   linear_mask,      /* bit k: attribute k is noperspective (screen-linear weights) */
   extra_size,       /* extraPrimitiveOverestimationSize (pixels, float): edges and box grow by it */
   scale_x,          /* the viewport: screen = ndc * scale + offset (PA_CL_VPORT_*) */
   scale_y,
   offset_x,
   offset_y,
   clamp_x0,         /* the rectangle outside which nothing is drawn (whole pixels), to keep */
   clamp_y0,         /* the polygon of a huge triangle small and precise */
   clamp_x1,
   clamp_y1,
   push_out,         /* push_out_single_sample (floats) */
   /* build_provoking_shader only: the captured triangles whose provoking vertex is their
    * second, all of them when provoking_second is not zero (fans: the VGT writes fan triangle
    * i as (0, i + 1, i + 2), Vulkan's provoking vertex i + 1 second), the odd ones when
    * strip_triangles is not zero (strips: the VGT writes odd triangles with their first two
    * vertices swapped to keep the winding). */
   provoking_second,
   strip_triangles,
   /* With strip_triangles: the triangles of one instance (each instance is a strip of its own,
    * whose parity starts again); 0 counts parity over the whole draw. */
   strip_period,
   polygon_constant_count
};

/* With edge_outputs (multisampling), each output vertex carries edge_output_count more flat
 * vec4s after the attributes: the triangle's edges as (a, b, c, 0), a x + b y + c >= 0 (window
 * coordinates) where a pixel centre is within the triangle grown by 1/2 + margin + the extra
 * size, so that the pixel shader can discard the pixels the whole-pixel push-out adds. */
inline constexpr unsigned edge_output_count = 3;

/* The construction for `attribute_count` vec4 outputs (besides the position). One invocation
 * per triangle (groups of group_size). Triangles with a vertex at w <= 0 (or not a number),
 * with zero area on the screen or entirely outside the clamp rectangle are written unchanged
 * (first output triangle; the others degenerate); one whose vertices truncated to the 1/256
 * grid span no area is culled (every output triangle degenerate: degenerateTrianglesRasterized
 * is false). A new vertex near or past the horizon of
 * the triangle's 1/w plane (1/w below 1/64 of the triangle's smallest) gets that floor as its
 * 1/w and screen-linear attributes: its coverage stays right, its attributes do not follow
 * the perspective plane. */
nir_shader *build_polygon_shader(unsigned attribute_count, bool edge_outputs = false);

/* The polygon takes its flat attributes from the captured triangle's first vertex, and a
 * triangle written unchanged is drawn as a list's, whose provoking vertex is its first. Where
 * the provoking vertex was captured second (fans, odd strip triangles), this shader runs
 * first, in place (slot 0 read, slot 1 written: the same buffer), and copies the second
 * vertex's flat attributes over the first's (PolygonConstant triangle_count, flat_mask,
 * provoking_second, strip_triangles). */
nir_shader *build_provoking_shader(unsigned attribute_count);

/* Indirect draws: the triangle count exists only on the GPU, as the capture's streamout filled
 * size. One block of memory per draw carries everything the passes after the capture read:
 *   bytes 0-255    the construction's (and provoking pass's) PolygonConstants, triangle_count
 *                  written by the count pass;
 *   bytes 256-511  their driver constants (the compiler's compute ABI);
 *   indirect_dispatch_arguments   DISPATCH_INDIRECT's three group counts for those passes;
 *   indirect_draw_arguments       DRAW_INDIRECT's four dwords for the fans (vertex count,
 *                                 one instance, first vertex and instance 0);
 *   indirect_captured             the triangles the capture wrote, unclamped: the queue reads
 *                                 it after the submission to tell an overflow;
 *   indirect_filled_size          where STRMOUT_BUFFER_UPDATE stores the filled size (dwords).
 * The capture buffer has room for `capacity + 1` triangles, so a draw that made more than
 * `capacity` shows as capacity + 1 captured ones (the streamout writes whole primitives while
 * they fit and drops the rest). */
inline constexpr unsigned indirect_dispatch_arguments = 512, indirect_draw_arguments = 528, indirect_captured = 544,
                          indirect_filled_size = 560, indirect_block_bytes = 576;
/* The record's vertex (or index) count, copied next to the filled size: the count pass makes
 * strip_period from it. */
inline constexpr unsigned indirect_vertex_count = indirect_filled_size + 4;

enum CountConstant : unsigned {
   count_triangle_dwords, /* dwords a captured triangle takes (3 vertices) */
   count_capacity,        /* triangles the construction and the fans may take */
   count_constant_count
};

/* The count pass, one invocation: reads the filled size (slot 0: the block from
 * indirect_filled_size, 16 bytes), writes the block (slot 1: from byte 0, indirect_block_bytes):
 * triangle_count = min(filled / triangle dwords, capacity), strip_period (the record's vertex
 * count minus 2, from indirect_vertex_count), the dispatch and draw arguments for that many
 * triangles, and the unclamped count. */
nir_shader *build_count_shader();

} // namespace terakan::conservative
