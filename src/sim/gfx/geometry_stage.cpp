/* The ES and GS of a draw with a geometry shader (geometry_stage.h). Ring layout, GPR loading
 * and assembly rules: docs/sim-semantics.md, "Geometry shaders". */
#include "geometry_stage.h"

#include <algorithm>
#include <map>

#include "core/message.h"
#include "hw/graphics_registers.h"

namespace terakan::sim {

using namespace hw::gfx;

namespace {

/* Registers (Mesa's evergreend.h). */
constexpr uint32_t SQ_ESGS_RING_BASE = 0x8C40, SQ_ESGS_RING_SIZE = 0x8C44;
constexpr uint32_t SQ_GSVS_RING_BASE = 0x8C48, SQ_GSVS_RING_SIZE = 0x8C4C;
constexpr uint32_t SQ_ESGS_RING_ITEMSIZE = 0x28900, SQ_GSVS_RING_ITEMSIZE = 0x28904;
constexpr uint32_t SQ_GS_VERT_ITEMSIZE = 0x2891C, SQ_GS_VERT_ITEMSIZE_1 = 0x28920;
constexpr uint32_t VGT_GS_MODE = 0x28A40, VGT_GS_OUT_PRIM_TYPE = 0x28A6C;
constexpr uint32_t VGT_GS_MAX_VERT_OUT = 0x28B38, VGT_SHADER_STAGES_EN = 0x28B54, VGT_GS_INSTANCE_CNT = 0x28B90;
/* VGT_GS_MODE.MODE [1:0]... SCENARIO_G is 3; VGT_SHADER_STAGES_EN ES_EN [4:3] REAL 2, GS_EN [5],
 * VS_EN [7:6] COPY_SHADER 2. */
constexpr uint32_t gs_scenario_g = 3;
constexpr uint32_t stages_es_gs_copy = (2u << 3) | (1u << 5) | (2u << 6);

/* The input primitives of a run of vertices (positions in the index stream), in the order
 * the GS sees their vertices (GL's "Geometry Shader Input" order, *derived* for the VGT: its
 * adjacency layouts are GL's, and an odd triangle of a strip takes its first two vertices
 * swapped as the primitive assembler does without a GS). */
void input_primitives(uint32_t type, size_t begin, size_t end, std::vector<std::vector<size_t>> &out)
{
   const size_t n = end - begin;
   auto add = [&](std::initializer_list<size_t> offsets) {
      std::vector<size_t> &p = out.emplace_back();
      for (size_t o : offsets)
         p.push_back(begin + o);
   };
   switch (type) {
   case PointList:
      for (size_t i = 0; i < n; i++)
         add({i});
      break;
   case LineList:
      for (size_t i = 0; i + 1 < n; i += 2)
         add({i, i + 1});
      break;
   case LineStrip:
      for (size_t i = 0; i + 1 < n; i++)
         add({i, i + 1});
      break;
   case TriangleList:
      for (size_t i = 0; i + 2 < n; i += 3)
         add({i, i + 1, i + 2});
      break;
   case TriangleStrip:
      for (size_t i = 0; i + 2 < n; i++) {
         if (i % 2 == 0)
            add({i, i + 1, i + 2});
         else
            add({i + 1, i, i + 2});
      }
      break;
   case LineListAdjacency:
      for (size_t i = 0; i + 3 < n; i += 4)
         add({i, i + 1, i + 2, i + 3});
      break;
   case LineStripAdjacency:
      for (size_t i = 1; i + 2 < n; i++)
         add({i - 1, i, i + 1, i + 2});
      break;
   case TriangleListAdjacency:
      for (size_t i = 0; i + 5 < n; i += 6)
         add({i, i + 1, i + 2, i + 3, i + 4, i + 5});
      break;
   default:
      fault("a geometry shader reading primitive type 0x%x (VGT_PRIMITIVE_TYPE) is not simulated: the VGT's vertex "
            "order for it is not known",
            type);
   }
}

GraphicsWave::Ring ring_from(const PipelineState &state, uint32_t base_reg, uint32_t size_reg, uint32_t item_reg,
                             const char *name)
{
   GraphicsWave::Ring ring;
   ring.address = uint64_t(state.get(base_reg)) << 8;
   ring.bytes = uint64_t(state.get(size_reg)) << 8;
   ring.item_dwords = state.get(item_reg) & 0x7fff;
   if (!ring.bytes || !ring.item_dwords)
      fault("the %s ring has no size or no item size (SQ_%s_RING_SIZE / _ITEMSIZE)", name, name);
   return ring;
}

} // namespace

bool geometry_shader_enabled(const PipelineState &state)
{
   return (state.get(VGT_GS_MODE) & 3) == gs_scenario_g && state.get(VGT_SHADER_STAGES_EN) == stages_es_gs_copy;
}

struct GeometryStage::Batch {
   std::vector<std::vector<uint32_t>> vertex_indices; /* per primitive: its vertices' indices */
   std::vector<uint32_t> primitive_ids;
};

GeometryStage::GeometryStage(const PipelineState &state, GpuMemory &memory, TraceLevel trace)
   : state(state), memory(memory)
{
   const uint32_t mode = state.get(VGT_GS_MODE);
   /* ES_PASSTHRU [2]: the ES would pass its inputs through (not r600g's); COMPUTE_MODE [14]. */
   if (mode & 0x4004)
      fault("VGT_GS_MODE 0x%08x: ES_PASSTHRU or COMPUTE_MODE with a geometry shader is not simulated", mode);
   std::string error = setup_stage(state, ShaderStage::Export, memory, es_dispatch);
   if (!error.empty())
      fault("export shader: %s", error.c_str());
   error = setup_stage(state, ShaderStage::Geometry, memory, gs_dispatch);
   if (!error.empty())
      fault("geometry shader: %s", error.c_str());
   es = std::make_unique<ShaderRunner>(es_dispatch, memory, trace);
   if (!es->error().empty())
      fault("export shader: %s", es->error().c_str());
   gs = std::make_unique<ShaderRunner>(gs_dispatch, memory, trace);
   if (!gs->error().empty())
      fault("geometry shader: %s", gs->error().c_str());

   esgs = ring_from(state, SQ_ESGS_RING_BASE, SQ_ESGS_RING_SIZE, SQ_ESGS_RING_ITEMSIZE, "ESGS");
   gsvs = ring_from(state, SQ_GSVS_RING_BASE, SQ_GSVS_RING_SIZE, SQ_GSVS_RING_ITEMSIZE, "GSVS");
   vertex_dwords = state.get(SQ_GS_VERT_ITEMSIZE) & 0x7fff;
   for (unsigned stream = 1; stream < 4; stream++)
      if (state.get(SQ_GS_VERT_ITEMSIZE_1 + 4 * (stream - 1)) & 0x7fff)
         fault("geometry shader streams 1-3 (SQ_GS_VERT_ITEMSIZE_%u) are not simulated", stream);
   max_vertices = state.get(VGT_GS_MAX_VERT_OUT) & 0x7ff;
   if (!vertex_dwords || !max_vertices)
      fault("SQ_GS_VERT_ITEMSIZE or VGT_GS_MAX_VERT_OUT is 0 with a geometry shader");
   /* Each GS thread's item holds its vertices one after the other (*derived*: r600g sizes
    * SQ_GSVS_RING_ITEMSIZE as SQ_GS_VERT_ITEMSIZE times VGT_GS_MAX_VERT_OUT). */
   if (uint64_t(vertex_dwords) * max_vertices > gsvs.item_dwords)
      fault("SQ_GSVS_RING_ITEMSIZE %u dwords cannot hold VGT_GS_MAX_VERT_OUT %u vertices of SQ_GS_VERT_ITEMSIZE %u",
            gsvs.item_dwords, max_vertices, vertex_dwords);
   const uint32_t instance_control = state.get(VGT_GS_INSTANCE_CNT);
   if (instance_control & 1) {
      invocations = (instance_control >> 2) & 0x7f;
      if (!invocations || invocations > gs_dispatch.wave_size)
         fault("VGT_GS_INSTANCE_CNT enabled with CNT %u is not simulated (1 to a wave's %u lanes)", invocations,
               gs_dispatch.wave_size);
   }
   switch (state.get(VGT_GS_OUT_PRIM_TYPE) & 0x3f) {
   case 0: output_type = PointList; break;
   case 1: output_type = LineStrip; break;
   case 2: output_type = TriangleStrip; break;
   default: fault("VGT_GS_OUT_PRIM_TYPE %u is not defined (0 points, 1 line strips, 2 triangle strips)",
                  state.get(VGT_GS_OUT_PRIM_TYPE) & 0x3f);
   }
}

GeometryStage::~GeometryStage() = default;

void GeometryStage::run(uint32_t primitive_type, const std::vector<uint32_t> &indices,
                        const std::function<bool(uint32_t)> &is_restart, uint32_t instance,
                        const std::function<void(const GeometryOutput &)> &emitted)
{
   /* The primitives of every run between restart indices; primitive ids count the draw's
    * primitives from 0 for each instance (*derived*: GL's gl_PrimitiveIDIn, which r600g reads
    * from R0.z unchanged). */
   std::vector<std::vector<size_t>> primitives;
   size_t start = 0;
   for (size_t i = 0; i <= indices.size(); i++) {
      if (i < indices.size() && !is_restart(indices[i]))
         continue;
      input_primitives(primitive_type, start, i, primitives);
      start = i + 1;
   }
   primitives_in += primitives.size();
   Batch batch;
   for (size_t p = 0; p < primitives.size(); p++) {
      for (unsigned invocation = 0; invocation < invocations; invocation++) {
         std::vector<uint32_t> &vertices = batch.vertex_indices.emplace_back();
         for (size_t position : primitives[p])
            vertices.push_back(indices[position]);
         batch.primitive_ids.push_back(uint32_t(p));
      }
      /* A batch is one GS wave. */
      if (batch.vertex_indices.size() + invocations > gs_dispatch.wave_size || p + 1 == primitives.size()) {
         run_batch(batch, instance, emitted);
         batch = Batch{};
      }
   }
}

void GeometryStage::run_batch(const Batch &batch, uint32_t instance,
                              const std::function<void(const GeometryOutput &)> &emitted)
{
   /* ES: each distinct index once, item k of the ESGS ring for the k-th (*derived*: where the
    * hardware places ES items is its own business; the GS only sees the offsets). */
   std::vector<uint32_t> unique;
   std::map<uint32_t, uint32_t> item_of;
   for (const auto &vertices : batch.vertex_indices)
      for (uint32_t index : vertices)
         if (item_of.emplace(index, uint32_t(unique.size())).second)
            unique.push_back(index);
   if (uint64_t(unique.size()) * esgs.item_dwords * 4 > esgs.bytes)
      fault("not simulated: %zu export-shader vertices of %u dwords do not fit the ESGS ring of %llu bytes", unique.size(),
            esgs.item_dwords, (unsigned long long)esgs.bytes);
   const unsigned width = es_dispatch.wave_size;
   const uint32_t base_vertex = state.get(VGT_INDX_OFFSET);
   const uint32_t start_instance = state.get(SQ_VTX_START_INST_LOC);
   for (size_t first = 0; first < unique.size(); first += width) {
      const unsigned lanes = unsigned(std::min<size_t>(width, unique.size() - first));
      GraphicsWave wave;
      wave.lanes = lanes;
      wave.ring = esgs;
      auto &vertex_id = wave.gprs[{0, 0}];
      auto &instance_id = wave.gprs[{0, 3}];
      for (unsigned lane = 0; lane < lanes; lane++) {
         vertex_id.push_back(unique[first + lane] + base_vertex);
         instance_id.push_back(instance + start_instance);
         wave.ring.lane_item.push_back(uint32_t(first + lane) * esgs.item_dwords);
      }
      WaveExports exports;
      std::string error;
      if (!es->run(wave, exports, error))
         fault("export shader at 0x%llx: %s", (unsigned long long)es_dispatch.program_address, error.c_str());
   }

   /* GS: one lane per primitive and invocation. The six vertex offsets (dwords into the ESGS
    * ring) in R0.x, R0.y, R0.w, R1.x, R1.y, R1.z, the primitive id in R0.z, the invocation in
    * R1.w (Mesa r600 sfn_shader_gs.cpp and r600_shader.c read them there). The primitive id
    * is loaded though VGT_PRIMITIVEID_EN is 0 (*derived*: r600g's sfn reads R0.z for
    * gl_PrimitiveIDIn but sets VGT_PRIMITIVEID_EN only for a pixel shader's primitive id). */
   const size_t threads = batch.vertex_indices.size();
   if (uint64_t(threads) * gsvs.item_dwords * 4 > gsvs.bytes)
      fault("not simulated: %zu geometry-shader threads of %u dwords do not fit the GSVS ring of %llu bytes", threads,
            gsvs.item_dwords, (unsigned long long)gsvs.bytes);
   static constexpr std::pair<unsigned, unsigned> offset_registers[6] = {{0, 0}, {0, 1}, {0, 3},
                                                                         {1, 0}, {1, 1}, {1, 2}};
   GraphicsWave wave;
   wave.lanes = unsigned(threads);
   wave.ring = gsvs;
   for (size_t t = 0; t < threads; t++) {
      const auto &vertices = batch.vertex_indices[t];
      for (unsigned v = 0; v < 6; v++)
         wave.gprs[offset_registers[v]].push_back(v < vertices.size() ? item_of[vertices[v]] * esgs.item_dwords : 0);
      wave.gprs[{0, 2}].push_back(batch.primitive_ids[t]);
      wave.gprs[{1, 3}].push_back(uint32_t(t % invocations));
      wave.ring.lane_item.push_back(uint32_t(t) * gsvs.item_dwords);
   }
   WaveExports exports;
   std::string error;
   if (!gs->run(wave, exports, error))
      fault("geometry shader at 0x%llx: %s", (unsigned long long)gs_dispatch.program_address, error.c_str());

   /* The VGT: each thread's emitted vertices in order, vertex n at n * SQ_GS_VERT_ITEMSIZE in
    * its item; a cut or the thread's end closes the strip. */
   GeometryOutput output;
   output.primitive_type = output_type;
   exports.gs_events.resize(threads);
   for (size_t t = 0; t < threads; t++) {
      unsigned emitted_count = 0;
      size_t strip_start = output.ring_offsets.size();
      auto close_strip = [&] {
         if (output.ring_offsets.size() > strip_start)
            output.strips.emplace_back(strip_start, output.ring_offsets.size());
         strip_start = output.ring_offsets.size();
      };
      for (WaveExports::GsEvent event : exports.gs_events[t]) {
         if (event == WaveExports::GsEvent::Cut) {
            close_strip();
            continue;
         }
         if (emitted_count >= max_vertices)
            fault("geometry shader thread %zu emits more than VGT_GS_MAX_VERT_OUT %u vertices", t, max_vertices);
         output.ring_offsets.push_back(wave.ring.lane_item[t] + emitted_count * vertex_dwords);
         emitted_count++;
      }
      close_strip();
   }
   emitted(output);
}

DispatchStatistics GeometryStage::statistics() const
{
   DispatchStatistics total = es->statistics();
   const DispatchStatistics g = gs->statistics();
   total.wavefronts += g.wavefronts;
   total.alu_groups += g.alu_groups;
   total.alu_lane_operations += g.alu_lane_operations;
   total.fetches += g.fetches;
   return total;
}

} // namespace terakan::sim
