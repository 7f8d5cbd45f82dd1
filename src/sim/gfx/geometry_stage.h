/* The geometry-shader half of a draw (VGT_GS_MODE SCENARIO_G): the vertex shader runs as the
 * export shader (ES) per vertex into the ESGS ring, the geometry shader (GS) per input
 * primitive (and invocation) reads its vertices from that ring and writes the vertices it
 * emits into the GSVS ring, and the VGT hands the emitted strips to the copy shader (the
 * hardware VS, which fetches each vertex from the GSVS ring) and the primitive assembler.
 * The rules and their sources are in docs/sim-semantics.md ("Geometry shaders"). */
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/shader_core.h"
#include "gfx/draw.h"

namespace terakan::sim {

/* Whether the registers ask for a geometry shader the way r600g programs one: VGT_GS_MODE
 * MODE SCENARIO_G and VGT_SHADER_STAGES_EN with ES REAL, GS on and VS COPY_SHADER. Other GS
 * modes and stage sets are left to the unmodelled-state check, which refuses them. */
bool geometry_shader_enabled(const PipelineState &state);

/* What one batch of geometry-shader threads emitted, in order: the copy shader's R0.x for each
 * vertex (its first dword in the GSVS ring, stream 0) and the strips the cuts leave. */
struct GeometryOutput {
   uint32_t primitive_type = 0; /* PointList, LineStrip or TriangleStrip (VGT_GS_OUT_PRIM_TYPE) */
   std::vector<uint32_t> ring_offsets;
   std::vector<std::pair<size_t, size_t>> strips; /* [begin, end) in ring_offsets */
};

class GeometryStage {
public:
   /* Decodes the GS registers and prepares the ES and GS programs; faults (SimulatorFault)
    * on anything not simulated. */
   GeometryStage(const PipelineState &state, GpuMemory &memory, TraceLevel trace);
   ~GeometryStage();

   /* Runs the ES and GS over the primitives of one instance, batch by batch (the rings are
    * reused by each batch, as the hardware reuses them), handing each batch's output to
    * `emitted` before the next batch overwrites the GSVS ring. */
   void run(uint32_t primitive_type, const std::vector<uint32_t> &indices,
            const std::function<bool(uint32_t)> &is_restart, uint32_t instance,
            const std::function<void(const GeometryOutput &)> &emitted);

   DispatchStatistics statistics() const;
   uint64_t primitives_in = 0; /* GS input primitives, all instances */

private:
   struct Batch;
   void run_batch(const Batch &batch, uint32_t instance, const std::function<void(const GeometryOutput &)> &emitted);

   const PipelineState &state;
   GpuMemory &memory;
   ComputeDispatch es_dispatch, gs_dispatch;
   std::unique_ptr<ShaderRunner> es, gs;
   GraphicsWave::Ring esgs, gsvs;
   unsigned vertex_dwords = 0; /* SQ_GS_VERT_ITEMSIZE: one emitted vertex in the GSVS ring */
   unsigned max_vertices = 0;  /* VGT_GS_MAX_VERT_OUT */
   unsigned invocations = 1;   /* VGT_GS_INSTANCE_CNT */
   uint32_t output_type = 0;
};

} // namespace terakan::sim
