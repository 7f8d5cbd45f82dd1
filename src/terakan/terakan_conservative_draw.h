/* VK_EXT_conservative_rasterization (OVERESTIMATE) in the driver (issue 17): what a pipeline
 * keeps for it and how a draw becomes three passes (docs/architecture.md, "Conservative
 * rasterization"):
 *   1. capture: the application's draw, unchanged (indices, restart, instances, base vertex
 *      are the VGT's business), with the vertex stage's capture variant, which also writes the
 *      clip position and every varying to streamout buffer 0; rasterization is killed;
 *   2. construction: a compute dispatch of terakan_conservative_shader.cpp's shader over the
 *      captured triangles, writing a fan of 5 triangles per triangle (for fans and strips with
 *      flat varyings, a dispatch before it moves the provoking vertex's flat attributes first);
 *   3. the fans drawn as a triangle list by a pass-through vertex shader that exports the
 *      application's varyings, with the application's pixel shader and state, near and far
 *      clipping off.
 * Direct draws count their triangles on the CPU; indirect ones on the GPU (the capture's
 * filled size, a count pass, indirect dispatches and draw), up to a capacity. Lists, strips
 * and fans, one sample or several; everything else is refused at pipeline creation or at the
 * draw with a message. */
#pragma once

#include <functional>

#include "terakan_private.h"

/* What the properties report: pixels beyond the touched ones are at most 1/64 pixel away (the
 * margin of one 1/256 grid step and the snapping; measured by sim-conservative-polygon and
 * api-conservative-*), and the extra size goes up to 3/4 pixel in steps of 1/256. */
inline constexpr float terakan_conservative_overestimation = 1.0f / 64.0f;
inline constexpr float terakan_conservative_max_extra_size = 0.75f;
inline constexpr float terakan_conservative_extra_granularity = 1.0f / 256.0f;

struct terakan_conservative {
   terakan_graphics_stage capture;      /* the vertex stage compiled with capture_outputs */
   terakan_graphics_stage pass_through; /* fan buffer vec4s -> position and the varyings */
   terakan::compiler::ShaderBinary construction;
   terakan::winsys::RadeonBo *construction_code = nullptr;
   /* With flat varyings: the pass that moves the provoking vertex's flat attributes first in
    * the captured fan and odd strip triangles (terakan_conservative_shader.h). */
   terakan::compiler::ShaderBinary provoking;
   terakan::winsys::RadeonBo *provoking_code = nullptr;
   /* Indirect draws: the pass that turns the capture's filled size into the triangle count
    * and the construction's and fans' arguments (terakan_conservative_shader.h). */
   terakan::compiler::ShaderBinary count;
   terakan::winsys::RadeonBo *count_code = nullptr;
   unsigned attributes = 0; /* captured varyings (vec4s besides the position) */
   uint32_t flat_mask = 0;  /* bit k: varying k is flat in the pixel shader */
   uint32_t linear_mask = 0; /* bit k: varying k is NoPerspective in the pixel shader */
   float extra_size = 0.0f; /* extraPrimitiveOverestimationSize */
   /* Multisampled pipelines: the first of the three varying locations that carry the
    * triangle's edges to the pixel shader's discard (compiler/conservative_discard.h); -1
    * with one sample. */
   int edges = -1;
};

/* Three consecutive varying locations the vertex stage does not write (the highest such), or
 * -1. */
int terakan_conservative_edge_location(const terakan_graphics_pipeline &g);

/* The state checks that need no shader: polygon modes, topologies, sample counts. */
VkResult terakan_conservative_check_state(terakan_device *device, const terakan_graphics_pipeline &g);
/* After the pipeline's stages and g.conservative->capture are built: the checks that need the
 * programs, the pass-through shader and the construction. */
VkResult terakan_conservative_finish(terakan_device *device, terakan_graphics_pipeline &g);
void terakan_conservative_destroy(terakan_conservative *conservative);

/* The triangles a draw of `count` vertices (or indices) of one instance makes. */
uint64_t terakan_conservative_triangles(VkPrimitiveTopology topology, uint32_t count);

/* Records a conservative draw: `setup` as for an ordinary draw, `emit_draw` emits the
 * application's draw packets after its state, `count` vertices (or indices) per instance.
 * False when the draw was refused (the command buffer's error is set). */
bool terakan_conservative_draw(terakan_cmd_buffer *cmd, const terakan_draw_setup &setup,
                               uint32_t first_vertex_or_offset, uint32_t first_instance, bool indexed,
                               uint32_t count, uint32_t instances,
                               const std::function<void(terakan::winsys::CommandStream &)> &emit_draw);

/* Records an indirect conservative draw: `emit_draw` emits the application's indirect draw
 * packet (with SET_BASE and, indexed, the index buffer) after its state, which `setup` (with
 * indirect_bo) describes. The triangle count stays on the GPU: the capture's filled size, turned
 * into the construction's and the fans' arguments by a count pass. A draw captures at most a
 * capacity of triangles (a fixed amount of memory); one that makes more is reported when its
 * submission completes (terakan_conservative_check_capacity: the device is lost). False when
 * the draw was refused. */
bool terakan_conservative_draw_indirect(terakan_cmd_buffer *cmd, const terakan_draw_setup &setup, bool indexed,
                                        const std::function<void(terakan::winsys::CommandStream &)> &emit_draw);
