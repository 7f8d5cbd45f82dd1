/* One draw through the fixed-function pipeline. The order of the blocks follows the hardware:
 * VGT builds the index stream and primitives, the VS runs per vertex (with its fetch shader),
 * PA clips, divides and maps to the viewport, SC scan converts under the scissors, the SPI
 * loads barycentrics and parameters into pixel-shader waves, and CB writes the exports.
 * Sources for each rule are in docs/sim-semantics.md ("Drawing"). */
#include "draw.h"
#include "unmodelled_state.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>

#include "core/shader_core.h"
#include "gfx/alpha_to_mask.h"
#include "gfx/colour_buffer.h"
#include "gfx/depth_buffer.h"
#include "gfx/geometry_stage.h"
#include "gfx/streamout.h"
#include "gfx/typed_rat.h"
#include "core/alu_semantics.h"
#include "hw/graphics_registers.h"
#include "hw/msaa.h"
#include "hw/pm4.h"
#include "hw/registers.h"
#include "hw/texture.h"
#include "core/message.h"

namespace terakan::sim {

using namespace hw::gfx;

uint32_t PipelineState::get(uint32_t reg) const
{
   const std::map<uint32_t, uint32_t> *table = reg >= hw::pm4::context_window.start ? context : config;
   if (reg >= hw::pm4::ctl_const_window.start)
      table = ctl_consts;
   const auto found = table->find(reg);
   return found == table->end() ? 0 : found->second;
}

namespace {

/* A vertex after the VS: clip-space position and its exported parameters. */
struct Vertex {
   std::array<float, 4> position{};
   std::vector<std::array<uint32_t, 4>> parameters; /* by VS export index */
   std::optional<float> point_size; /* the misc vector's x, if the VS exported one */
   uint32_t viewport_index = 0; /* the misc vector's w, with PA_CL_VS_OUT_CNTL.USE_VTX_VIEWPORT_INDX */
   /* The misc vector's z, with USE_VTX_RENDER_TARGET_INDX: the slice (after the view's first)
    * the primitive is drawn to. */
   uint32_t render_target_index = 0;
   /* The misc vector's y, with USE_VTX_EDGE_FLAG: whether the edge that starts at this vertex
    * is a boundary edge (drawn in polygon modes). */
   bool edge_flag = true;
   std::array<float, 8> clip_distances{}; /* EXPORT POS 62 (0-3) and 63 (4-7), when written */
   std::vector<StreamRecord> stream; /* its MEM_STREAM writes, for streamout */
};

/* A vertex in window space, ready for scan conversion. */
struct WindowVertex {
   double x, y, z, inverse_w;
   int64_t fx, fy; /* quantized to the subpixel grid */
   const Vertex *source;
   std::vector<std::array<uint32_t, 4>> parameters;
};

class Draw {
public:
   Draw(const PipelineState &state, const DrawCall &call, GpuMemory &memory, TraceLevel trace,
        DispatchStatistics &totals, DrawStatistics &statistics)
      : state(state), call(call), memory(memory), trace(trace), totals(totals), statistics(statistics)
   {
   }

   void run()
   {
      primitive_type = state.get(hw::reg::VGT_PRIMITIVE_TYPE) & 0x3f;
      const std::vector<uint32_t> indices = fetch_indices();
      decode_raster_state();
      streamout = std::make_unique<StreamoutUnit>(state, memory);
      decode_targets();
      std::string error = setup_stage(state, ShaderStage::Vertex, memory, vs_dispatch);
      if (!error.empty())
         fault("vertex shader: %s", error.c_str());
      error = setup_stage(state, ShaderStage::Pixel, memory, ps_dispatch);
      if (!error.empty())
         fault("pixel shader: %s", error.c_str());
      vs = std::make_unique<ShaderRunner>(vs_dispatch, memory, trace);
      if (!vs->error().empty())
         fault("vertex shader: %s", vs->error().c_str());
      decode_shader_order();
      ps = std::make_unique<ShaderRunner>(ps_dispatch, memory, trace);
      if (!ps->error().empty())
         fault("pixel shader: %s", ps->error().c_str());

      if (geometry_shader_enabled(state))
         geometry = std::make_unique<GeometryStage>(state, memory, trace);
      for (uint32_t instance = 0; instance < call.instances; instance++) {
         if (geometry) {
            run_geometry(indices, instance);
            continue;
         }
         std::vector<Vertex> vertices = shade_vertices(indices, instance);
         assemble(indices, vertices);
      }
      flush_pixels();
      DispatchStatistics a = vs->statistics();
      const DispatchStatistics b = ps->statistics();
      if (geometry) {
         const DispatchStatistics g = geometry->statistics();
         a.wavefronts += g.wavefronts;
         a.alu_groups += g.alu_groups;
         a.alu_lane_operations += g.alu_lane_operations;
         a.fetches += g.fetches;
      }
      totals.wavefronts += a.wavefronts + b.wavefronts;
      totals.alu_groups += a.alu_groups + b.alu_groups;
      totals.alu_lane_operations += a.alu_lane_operations + b.alu_lane_operations;
      totals.fetches += a.fetches + b.fetches;
   }

private:
   const PipelineState &state;
   const DrawCall &call;
   GpuMemory &memory;
   TraceLevel trace;
   DispatchStatistics &totals;
   DrawStatistics &statistics;
   uint32_t primitive_type = 0;
   ComputeDispatch vs_dispatch, ps_dispatch;
   std::unique_ptr<ShaderRunner> vs, ps;
   std::unique_ptr<GeometryStage> geometry; /* with VGT_GS_MODE SCENARIO_G */
   std::unique_ptr<StreamoutUnit> streamout;
   std::vector<ColourTarget> targets;
   DepthStencilTarget depth_stencil;
   /* CB_COLOR_CONTROL.MODE RESOLVE: CB_COLOR0 (multisampled) averaged into CB_COLOR1. */
   std::optional<ColourTarget> resolve_source, resolve_destination;
   std::optional<ColourTarget> fmask_decompress_target; /* CB_COLOR_CONTROL.MODE FMASK_DECOMPRESS */
   SamplePattern sample_pattern;
   AlphaToMask alpha_rule;
   bool depth_before_shader = false; /* DB_SHADER_CONTROL.DEPTH_BEFORE_SHADER */

   /* Raster state */
   uint32_t clip_control = 0, mode_control = 0, vte_control = 0, vertex_control = 0;
   std::array<float, 6> viewport{};
   int scissor_x0 = 0, scissor_y0 = 0, scissor_x1 = 0, scissor_y1 = 0;
   /* The 16 viewports and their scissors (each already intersected with the screen, window
    * and generic scissors); a primitive takes its provoking vertex's viewport index when
    * PA_CL_VS_OUT_CNTL.USE_VTX_VIEWPORT_INDX [19] is set, else viewport 0. */
   static constexpr unsigned viewport_count = 16;
   struct ViewportState {
      std::array<float, 6> transform;
      int scissor_x0, scissor_y0, scissor_x1, scissor_y1;
      float depth_min, depth_max;
   };
   std::array<ViewportState, viewport_count> viewports{};
   bool viewport_from_vertex = false;
   unsigned selected_viewport = 0;
   int64_t subpixels = 256;
   bool pixel_centre_half = true;
   /* What each face of a triangle becomes (PA_SU_SC_MODE_CNTL POLY_MODE and *_PTYPE):
    * PolygonTriangles for both unless POLY_MODE is set. */
   uint32_t front_polygon = PolygonTriangles, back_polygon = PolygonTriangles;

   /* ---- state ---- */

   void decode_raster_state()
   {
      clip_control = state.get(PA_CL_CLIP_CNTL);
      mode_control = state.get(PA_SU_SC_MODE_CNTL);
      vte_control = state.get(PA_CL_VTE_CNTL);
      vertex_control = state.get(state.isa == hw::IsaClass::Cayman ? CM_PA_SU_VTX_CNTL : PA_SU_VTX_CNTL);
      pixel_centre_half = vertex_control & 1;
      static constexpr int64_t grids[8] = {16, 8, 4, 2, 1, 256, 1024, 0};
      subpixels = grids[(vertex_control >> 3) & 7];
      if (!subpixels)
         fault("PA_SU_VTX_CNTL.QUANT_MODE 7 is not defined");
      decode_polygon_mode();
      decode_clip_planes();
      std::string pattern_error;
      if (!decode_sample_pattern(state, sample_pattern, pattern_error))
         fault("%s", pattern_error.c_str());
      if (!decode_alpha_to_mask(state, sample_pattern.samples, alpha_rule, pattern_error))
         fault("%s", pattern_error.c_str());
      if (sample_pattern.per_sample_coverage && subpixels % 16)
         fault("multisampling with a subpixel grid coarser than 1/16 pixel (PA_SU_VTX_CNTL.QUANT_MODE) is not simulated");

      /* The scissors: screen, window (offset by PA_SC_WINDOW_OFFSET unless disabled),
       * generic and the primitive's viewport scissor all apply (their intersection). */
      const uint32_t window_offset = state.get(PA_SC_WINDOW_OFFSET);
      const int offset_x = int16_t(window_offset & 0xffff), offset_y = int16_t(window_offset >> 16);
      scissor_x0 = scissor_y0 = 0;
      scissor_x1 = scissor_y1 = 16384;
      auto intersect = [&](uint32_t tl_reg, uint32_t br_reg, bool offsettable) {
         const uint32_t tl = state.get(tl_reg), br = state.get(br_reg);
         const bool offset = offsettable && !(tl >> 31);
         const int dx = offset ? offset_x : 0, dy = offset ? offset_y : 0;
         scissor_x0 = std::max(scissor_x0, int(tl & 0x7fff) + dx);
         scissor_y0 = std::max(scissor_y0, int((tl >> 16) & 0x7fff) + dy);
         scissor_x1 = std::min(scissor_x1, int(br & 0x7fff) + dx);
         scissor_y1 = std::min(scissor_y1, int((br >> 16) & 0x7fff) + dy);
      };
      intersect(PA_SC_SCREEN_SCISSOR_TL, PA_SC_SCREEN_SCISSOR_BR, false);
      intersect(PA_SC_WINDOW_SCISSOR_TL, PA_SC_WINDOW_SCISSOR_BR, true);
      intersect(PA_SC_GENERIC_SCISSOR_TL, PA_SC_GENERIC_SCISSOR_BR, true);
      const int common_x0 = scissor_x0, common_y0 = scissor_y0, common_x1 = scissor_x1, common_y1 = scissor_y1;
      /* Viewport n: PA_CL_VPORT_XSCALE_n.. at 0x18 bytes apart, PA_SC_VPORT_SCISSOR_n_TL/BR
       * and PA_SC_VPORT_ZMIN_n/ZMAX_n at 8 (evergreend.h). */
      for (unsigned n = 0; n < viewport_count; n++) {
         ViewportState &v = viewports[n];
         for (unsigned i = 0; i < 6; i++)
            v.transform[i] = as_float(state.get(PA_CL_VPORT_XSCALE_0 + 0x18 * n + 4 * i));
         scissor_x0 = common_x0, scissor_y0 = common_y0, scissor_x1 = common_x1, scissor_y1 = common_y1;
         intersect(PA_SC_VPORT_SCISSOR_0_TL + 8 * n, PA_SC_VPORT_SCISSOR_0_BR + 8 * n, true);
         v.scissor_x0 = scissor_x0, v.scissor_y0 = scissor_y0, v.scissor_x1 = scissor_x1, v.scissor_y1 = scissor_y1;
         v.depth_min = as_float(state.get(PA_SC_VPORT_ZMIN_0 + 8 * n));
         v.depth_max = as_float(state.get(PA_SC_VPORT_ZMAX_0 + 8 * n));
      }
      viewport_from_vertex = (state.get(PA_CL_VS_OUT_CNTL) & vs_out_use_viewport_index) != 0;
      layer_from_vertex = (state.get(PA_CL_VS_OUT_CNTL) & vs_out_use_render_target_index) != 0;
      apply_viewport(0);
   }

   void apply_viewport(unsigned n)
   {
      const ViewportState &v = viewports[n];
      viewport = v.transform;
      scissor_x0 = v.scissor_x0, scissor_y0 = v.scissor_y0, scissor_x1 = v.scissor_x1, scissor_y1 = v.scissor_y1;
      selected_viewport = n;
   }

   /* Before each primitive: the viewport its provoking vertex names. The DB clamps depth to
    * the viewport's range when it tests, so fragments waiting for the pixel shader are shaded
    * first if the range changes. */
   void select_viewport(const Vertex &provoking)
   {
      if (!viewport_from_vertex || provoking.viewport_index == selected_viewport)
         return;
      if (provoking.viewport_index >= viewport_count)
         fault("a vertex shader's viewport index %u is beyond the 16 viewports (what the PA does "
               "with it is not documented)", provoking.viewport_index);
      const ViewportState &next = viewports[provoking.viewport_index];
      if (next.depth_min != depth_stencil.depth_min || next.depth_max != depth_stencil.depth_max) {
         flush_pixels();
         depth_stencil.depth_min = next.depth_min;
         depth_stencil.depth_max = next.depth_max;
      }
      apply_viewport(provoking.viewport_index);
   }

   /* Layered rendering (PA_CL_VS_OUT_CNTL.USE_VTX_RENDER_TARGET_INDX [18]): a primitive goes to
    * slice SLICE_START + its provoking vertex's index of every colour buffer (CB_COLORn_VIEW) and
    * of the depth and stencil buffers (DB_DEPTH_VIEW). *Derived*: r600g sets the bit for
    * gl_Layer from the vertex shader (exported in the misc vector's z) and binds a layered
    * framebuffer's slices 0 to N-1 as SLICE_START 0, SLICE_MAX N-1, which does not show
    * whether the index counts from SLICE_START; it is taken to (a view's layers, as Vulkan
    * numbers them). An index beyond SLICE_MAX is refused: what the hardware does with it is
    * not documented (Vulkan leaves the layers' contents undefined then). */
   bool layer_from_vertex = false;
   uint32_t selected_layer = 0;

   void select_layer(const Vertex &provoking)
   {
      if (!layer_from_vertex || provoking.render_target_index == selected_layer)
         return;
      const uint32_t index = provoking.render_target_index;
      auto check = [&](unsigned first, unsigned last, const std::string &what) {
         if (index > last - first)
            fault("a vertex shader's render target index %u is beyond %s's slices %u-%u (SLICE_START-SLICE_MAX; "
                  "what the hardware does with it is not documented)",
                  index, what.c_str(), first, last);
      };
      for (const ColourTarget &target : targets)
         check(target.first_slice, target.last_slice, "CB_COLOR" + std::to_string(target.index));
      if (depth_stencil.any_test())
         check(depth_stencil.first_slice, depth_stencil.last_slice, "the depth and stencil buffers (DB_DEPTH_VIEW)");
      flush_pixels();
      for (ColourTarget &target : targets) {
         target.slice = target.first_slice + index;
         if (target.msaa.samples > 1)
            target.msaa.slice = target.first_slice + index;
      }
      depth_stencil.slice = depth_stencil.first_slice + index;
      selected_layer = index;
   }

   void decode_polygon_mode()
   {
      const uint32_t poly_mode = (mode_control >> su_sc_mode_poly_mode_shift) & 3;
      if (poly_mode > 1)
         fault("PA_SU_SC_MODE_CNTL.POLY_MODE %u is reserved (0 fill, 1 a PTYPE per face)", poly_mode);
      if (!poly_mode)
         return;
      front_polygon = (mode_control >> su_sc_mode_front_ptype_shift) & 7;
      back_polygon = (mode_control >> su_sc_mode_back_ptype_shift) & 7;
      if (front_polygon > PolygonTriangles || back_polygon > PolygonTriangles)
         fault("PA_SU_SC_MODE_CNTL.POLYMODE_FRONT_PTYPE %u / BACK_PTYPE %u: only 0-2 are defined", front_polygon,
              back_polygon);
      if (clip_control & clip_cntl_boundary_edge_flag)
         fault("PA_CL_CLIP_CNTL.BOUNDARY_EDGE_FLAG_ENA in polygon mode is not simulated");
   }

   void decode_targets()
   {
      std::string error;
      if (!decode_depth_stencil(state, memory, depth_stencil, error))
         fault("%s", error.c_str());
      const uint32_t mode = (state.get(CB_COLOR_CONTROL) >> 4) & 7;
      if (mode == 0)
         return; /* CB_DISABLE: nothing is written */
      if (layer_from_vertex && mode != 1)
         fault("CB_COLOR_CONTROL.MODE %u with a render target index from the vertex shader is not simulated", mode);
      if (mode == uint32_t(hw::msaa::CbMode::Resolve)) {
         decode_resolve_targets();
         return;
      }
      if (mode == uint32_t(hw::msaa::CbMode::FmaskDecompress)) {
         /* r600g's decompress draw binds the multisampled buffer as CB_COLOR0 (r600_blit.c
          * r600_blit_decompress_color); the pixel shader's exports are not written. */
         ColourTarget target;
         if (!decode_colour_target(state, 0, memory, target, error) || !target.msaa.compressed)
            fault("CB FMASK_DECOMPRESS: %s",
                  error.empty() ? "CB_COLOR0 is not a multisampled buffer with FMASK" : error.c_str());
         fmask_decompress_target = target;
         return;
      }
      if (mode != 1)
         fault("CB_COLOR_CONTROL.MODE %u (fast-clear elimination, decompress) is not simulated yet", mode);
      for (unsigned n = 0; n < 8; n++) {
         /* RATs are the pixel shader's (add_pixel_shader_rats), not export targets. */
         if (state.get(hw::reg::CB_COLOR0_BASE + n * hw::reg::CB_COLOR_STRIDE + hw::reg::Info) &
             hw::reg::CB_COLOR_INFO_RAT)
            continue;
         ColourTarget target;
         if (decode_colour_target(state, n, memory, target, error))
            targets.push_back(target);
         else if (!error.empty())
            fault("%s", error.c_str());
      }
   }

   /* DB_SHADER_CONTROL's order of the depth tests and the pixel shader: Z_ORDER [5:4],
    * EXEC_ON_HIER_FAIL [10], EXEC_ON_NOOP [11], DEPTH_BEFORE_SHADER [15] (Mesa evergreend.h).
    * The simulator tests after the shader (LATE_Z) unless DEPTH_BEFORE_SHADER asks for the
    * tests first; it models no hierarchical Z. A pixel shader with RATs must say which it
    * wants as r600g does (evergreen_update_ps_state, evergreen_update_db_shader_control):
    * DEPTH_BEFORE_SHADER with EXEC_ON_NOOP for early fragment tests, else LATE_Z with
    * EXEC_ON_HIER_FAIL; other orders could skip its memory writes on hardware that culls by
    * hierarchical Z, and its RAT operations are refused then (a shader that only reads
    * through its RATs, as r600g's read-only storage buffers, may take any order). */
   void decode_shader_order()
   {
      const uint32_t control = state.get(DB_SHADER_CONTROL);
      depth_before_shader = (control >> 15) & 1;
      const unsigned z_order = (control >> 4) & 3;
      const bool exec_on_hier_fail = (control >> 10) & 1, exec_on_noop = (control >> 11) & 1;
      char text[200];
      if (depth_before_shader && !exec_on_noop)
         std::snprintf(text, sizeof(text),
                       "DB_SHADER_CONTROL 0x%08x: a pixel shader writing memory with DEPTH_BEFORE_SHADER but "
                       "without EXEC_ON_NOOP is not simulated",
                       control);
      else if (!depth_before_shader && (z_order != 0 || !exec_on_hier_fail))
         std::snprintf(text, sizeof(text),
                       "DB_SHADER_CONTROL 0x%08x: a pixel shader writing memory needs Z_ORDER LATE_Z and "
                       "EXEC_ON_HIER_FAIL (or DEPTH_BEFORE_SHADER): early or hierarchical Z would skip its writes",
                       control);
      else
         text[0] = 0;
      ps_dispatch.rat_order_problem = text;
      /* A shader-exported mask then limits only the colour writes (the tests are done): the
       * API's rule, *derived* for the hardware. */
      if (depth_before_shader && (depth_stencil.depth_from_shader || depth_stencil.alpha_test || alpha_rule.enabled))
         fault("DB_SHADER_CONTROL 0x%08x: DEPTH_BEFORE_SHADER with a shader-exported depth, the alpha test or alpha "
               "to mask is not simulated",
               control);
   }

   /* RESOLVE (r600g's do_hardware_msaa_resolve, evergreen_create_resolve_blend): the
    * multisampled source is CB_COLOR0, the single-sample destination CB_COLOR1; r600g's
    * CB_TARGET_MASK enables CB_COLOR0 only, whose channel mask the resolved writes take
    * (*derived*: the mask applies to the destination). */
   void decode_resolve_targets()
   {
      std::string error;
      ColourTarget source, destination;
      if (!decode_colour_target(state, 0, memory, source, error))
         fault("CB resolve: %s", error.empty() ? "CB_COLOR0 (the source) is not enabled" : error.c_str());
      if (source.msaa.samples < 2)
         fault("CB resolve: CB_COLOR0 (the source) has one sample");
      if (!decode_colour_target(state, 1, memory, destination, error, true))
         fault("CB resolve: %s", error.empty() ? "CB_COLOR1 (the destination) has no format" : error.c_str());
      if (destination.format != source.format || destination.number_type != source.number_type)
         fault("CB resolve: CB_COLOR1's format differs from CB_COLOR0's (not simulated)");
      destination.write_mask = source.write_mask;
      destination.blend.enable = false;
      destination.rop3 = 0xcc;
      resolve_source = source;
      resolve_destination = destination;
   }

   /* ---- VGT ---- */

   std::vector<uint32_t> fetch_indices()
   {
      std::vector<uint32_t> indices(call.count);
      if (call.immediate_indices) {
         for (uint32_t i = 0; i < call.count; i++) {
            const uint32_t word = call.index_32bit ? i : i / 2;
            if (word >= call.immediate.size())
               fault("DRAW_INDEX_IMMD: %u indices need more than the packet's %zu dwords", call.count,
                    call.immediate.size());
            indices[i] = call.index_32bit ? call.immediate[word] : (call.immediate[word] >> (16 * (i % 2))) & 0xffff;
         }
      } else if (call.indexed) {
         const unsigned size = call.index_32bit ? 4 : 2;
         std::string error;
         if (uint64_t(call.count) * size > call.index_bytes_available)
            fault("index buffer: %u indices of %u bytes run past the buffer", call.count, size);
         const uint8_t *data = memory.resolve(call.index_address, uint64_t(call.count) * size, error);
         if (!data)
            fault("index buffer: %s", error.c_str());
         for (uint32_t i = 0; i < call.count; i++) {
            uint32_t v = 0;
            std::memcpy(&v, data + size_t(i) * size, size);
            indices[i] = v;
         }
      } else {
         for (uint32_t i = 0; i < call.count; i++)
            indices[i] = i;
      }
      return indices;
   }

   bool is_restart(uint32_t index) const
   {
      return call.indexed && (state.get(VGT_MULTI_PRIM_IB_RESET_EN) & 1) &&
             index == state.get(VGT_MULTI_PRIM_IB_RESET_INDX);
   }

   /* ---- VS ---- */

   /* With a geometry shader (`copy_shader`), `indices` are the copy shader's R0.x values (GSVS
    * ring offsets), loaded as they are. */
   std::vector<Vertex> shade_vertices(const std::vector<uint32_t> &indices, uint32_t instance, bool copy_shader = false)
   {
      /* Each distinct index is shaded once (the hardware's vertex reuse is an optimisation;
       * the VS has no side effects that could show the difference here). */
      auto restart = [&](uint32_t index) { return !copy_shader && is_restart(index); };
      std::vector<uint32_t> unique;
      std::map<uint32_t, size_t> slot_of;
      for (uint32_t index : indices)
         if (!restart(index) && slot_of.emplace(index, unique.size()).second)
            unique.push_back(index);
      std::vector<Vertex> vertices(indices.size());
      std::vector<Vertex> shaded(unique.size());
      const unsigned width = vs_dispatch.wave_size;
      const uint32_t base_vertex = copy_shader ? 0 : state.get(VGT_INDX_OFFSET);
      const uint32_t start_instance = state.get(SQ_VTX_START_INST_LOC);
      const uint32_t export_count = ((state.get(SPI_VS_OUT_CONFIG) >> 1) & 0x1f) + 1;
      for (size_t first = 0; first < unique.size(); first += width) {
         const unsigned lanes = unsigned(std::min<size_t>(width, unique.size() - first));
         GraphicsWave wave;
         wave.lanes = lanes;
         auto &vertex_id = wave.gprs[{0, 0}];
         auto &instance_id = wave.gprs[{0, 3}];
         for (unsigned lane = 0; lane < lanes; lane++) {
            vertex_id.push_back(unique[first + lane] + base_vertex);
            instance_id.push_back(instance + start_instance);
         }
         WaveExports exports;
         std::string error;
         if (!vs->run(wave, exports, error))
            fault("vertex shader at 0x%llx: %s", (unsigned long long)vs_dispatch.program_address, error.c_str());
         const auto position = exports.targets.find({1, 60});
         /* The position exports after POS 60 are the enabled vectors in order: the misc
          * vector (VS_OUT_MISC_VEC_ENA), clip/cull distances 0-3 (VS_OUT_CCDIST0_VEC_ENA), then
          * 4-7 (CCDIST1) (*derived*: r600g exports its distances to POS 61 when it writes no
          * misc vector, and the misc vector to 61 always). */
         const uint32_t out_control = state.get(PA_CL_VS_OUT_CNTL);
         unsigned next_position_export = 61;
         const bool has_misc = (out_control & vs_out_misc_vector_enable) != 0;
         const unsigned misc_export = has_misc ? next_position_export++ : 0;
         unsigned distance_exports[2] = {0, 0};
         for (unsigned vector = 0; vector < 2; vector++)
            if (out_control & (vs_out_ccdist0_vec_ena << vector))
               distance_exports[vector] = next_position_export++;
         if (next_position_export > 64)
            fault("PA_CL_VS_OUT_CNTL enables more position export vectors than POS 61-63");
         const auto misc = has_misc ? exports.targets.find({1, misc_export}) : exports.targets.end();
         if (position == exports.targets.end())
            fault("the vertex shader exported no position (EXPORT POS 60)");
         for (unsigned lane = 0; lane < lanes; lane++) {
            Vertex &v = shaded[first + lane];
            if (!position->second.written[lane])
               fault("vertex shader lane %u did not export its position", lane);
            for (unsigned c = 0; c < 4; c++)
               v.position[c] = as_float(position->second.values[lane][c]);
            v.parameters.assign(export_count, {0, 0, 0, 0});
            if (misc != exports.targets.end() && misc->second.written[lane]) {
               v.point_size = as_float(misc->second.values[lane][0]);
               v.viewport_index = misc->second.values[lane][3]; /* an integer (r600g's sfn) */
               v.render_target_index = misc->second.values[lane][2]; /* an integer too */
               /* An integer too: r600g's sfn clamps the flag and converts it with FLT_TO_INT. */
               if (out_control & vs_out_use_edge_flag)
                  v.edge_flag = misc->second.values[lane][1] != 0;
            }
            for (unsigned vector = 0; vector < 2; vector++) {
               if (!distance_exports[vector])
                  continue;
               const auto found = exports.targets.find({1, distance_exports[vector]});
               if (found != exports.targets.end() && found->second.written[lane])
                  for (unsigned c = 0; c < 4; c++)
                     v.clip_distances[4 * vector + c] = as_float(found->second.values[lane][c]);
            }
            if (!exports.stream_writes.empty())
               v.stream = stream_records_of(exports, lane);
            for (uint32_t p = 0; p < export_count; p++) {
               const auto found = exports.targets.find({2, p});
               if (found != exports.targets.end() && found->second.written[lane])
                  v.parameters[p] = found->second.values[lane];
            }
         }
         statistics.vertices += lanes;
      }
      for (size_t i = 0; i < indices.size(); i++)
         if (!restart(indices[i])) {
            vertices[i] = shaded[slot_of[indices[i]]];
            statistics.input_vertices += copy_shader ? 0 : 1;
         }
      return vertices;
   }

   /* ---- geometry shader ---- */

   /* ES and GS run batch by batch (gfx/geometry_stage.cpp); each batch's emitted vertices go
    * through the copy shader (the VS, R0.x their GSVS ring offsets) and are assembled as the
    * strips or points VGT_GS_OUT_PRIM_TYPE names, a strip ending at each cut. */
   void run_geometry(const std::vector<uint32_t> &indices, uint32_t instance)
   {
      const uint32_t input_type = primitive_type;
      geometry->run(
         input_type, indices, [&](uint32_t index) { return is_restart(index); }, instance,
         [&](const GeometryOutput &output) {
            const std::vector<Vertex> vertices = shade_vertices(output.ring_offsets, instance, true);
            primitive_type = output.primitive_type;
            for (const auto &[begin, end] : output.strips)
               assemble_run(vertices, begin, end);
            primitive_type = input_type;
         });
   }

   /* ---- primitive assembly ---- */

   void assemble(const std::vector<uint32_t> &indices, const std::vector<Vertex> &vertices)
   {
      /* Split at restart indices: each run is assembled on its own. */
      size_t start = 0;
      for (size_t i = 0; i <= indices.size(); i++) {
         if (i < indices.size() && !is_restart(indices[i]))
            continue;
         assemble_run(vertices, start, i);
         start = i + 1;
      }
   }

   void assemble_run(const std::vector<Vertex> &v, size_t begin, size_t end)
   {
      const size_t n = end - begin;
      const bool provoking_last = (mode_control >> 19) & 1;
      auto triangle = [&](size_t a, size_t b, size_t c, size_t provoking) {
         triangle_primitive(v[begin + a], v[begin + b], v[begin + c], v[begin + provoking]);
      };
      switch (primitive_type) {
      case TriangleList:
         for (size_t i = 0; i + 2 < n; i += 3)
            triangle(i, i + 1, i + 2, provoking_last ? i + 2 : i);
         break;
      case TriangleStrip:
         for (size_t i = 0; i + 2 < n; i++) {
            /* Odd triangles swap their first two vertices to keep the winding. */
            if (i % 2 == 0)
               triangle(i, i + 1, i + 2, provoking_last ? i + 2 : i);
            else
               triangle(i + 1, i, i + 2, provoking_last ? i + 2 : i);
         }
         break;
      case TriangleFan:
         for (size_t i = 1; i + 1 < n; i++)
            triangle(0, i, i + 1, provoking_last ? i + 1 : i);
         break;
      case RectList:
         for (size_t i = 0; i + 2 < n; i += 3)
            rectangle(v[begin + i], v[begin + i + 1], v[begin + i + 2]);
         break;
      case PointList:
         for (size_t i = 0; i < n; i++)
            point_primitive(v[begin + i]);
         break;
      case LineList:
         for (size_t i = 0; i + 1 < n; i += 2)
            line_primitive(v[begin + i], v[begin + i + 1], v[begin + (provoking_last ? i + 1 : i)]);
         break;
      case LineStrip:
      case LineLoop:
         for (size_t i = 0; i + 1 < n; i++)
            line_primitive(v[begin + i], v[begin + i + 1], v[begin + (provoking_last ? i + 1 : i)]);
         if (primitive_type == LineLoop && n > 2)
            line_primitive(v[begin + n - 1], v[begin], v[begin + (provoking_last ? 0 : n - 1)]);
         break;
      /* Adjacency types without a geometry shader: the base primitives, the adjacent vertices
       * shaded but unused; quads and quad strips as two triangles sharing the first and third
       * corner with one provoking vertex for both, polygons as fans with the first vertex
       * provoking. Vertex order and provoking vertices are GL's (the GL 4.5 spec, "Primitive
       * Assembly" and its provoking-vertex table), which r600g relies on when it hands these
       * types to the VGT unchanged (Mesa r600_conv_pipe_prim); *derived*: no AMD document
       * gives the VGT's assembly. Which diagonal splits a quad only shows in the parameters
       * of a smooth-shaded quad that is not a parallelogram. */
      case LineListAdjacency:
         for (size_t i = 0; i + 3 < n; i += 4)
            line_primitive(v[begin + i + 1], v[begin + i + 2], v[begin + (provoking_last ? i + 2 : i + 1)]);
         break;
      case LineStripAdjacency:
         for (size_t i = 1; i + 2 < n; i++)
            line_primitive(v[begin + i], v[begin + i + 1], v[begin + (provoking_last ? i + 1 : i)]);
         break;
      case TriangleListAdjacency:
         for (size_t i = 0; i + 5 < n; i += 6)
            triangle(i, i + 2, i + 4, provoking_last ? i + 4 : i);
         break;
      case TriangleStripAdjacency:
         for (size_t i = 0; n >= 6 && i < (n - 4) / 2; i++) {
            if (i % 2 == 0)
               triangle(2 * i, 2 * i + 2, 2 * i + 4, provoking_last ? 2 * i + 4 : 2 * i);
            else
               triangle(2 * i + 2, 2 * i, 2 * i + 4, provoking_last ? 2 * i + 4 : 2 * i);
         }
         break;
      case QuadList:
      case QuadStrip:
      case Polygon:
         /* In polygon mode a quad's or polygon's inner edges must not show (the hardware's
          * internal edge flags), which two separate triangles would draw. */
         if ((mode_control >> su_sc_mode_poly_mode_shift) & 3)
            fault("quads and polygons (VGT_PRIMITIVE_TYPE %u) in polygon mode are not simulated: their inner "
                  "edges would show",
                  primitive_type);
         assemble_quads_and_polygons(v, begin, n, provoking_last);
         break;
      default:
         fault("primitive type %u (VGT_PRIMITIVE_TYPE) is not simulated yet", primitive_type);
      }
   }

   void assemble_quads_and_polygons(const std::vector<Vertex> &v, size_t begin, size_t n, bool provoking_last)
   {
      auto triangle = [&](size_t a, size_t b, size_t c, size_t provoking) {
         triangle_primitive(v[begin + a], v[begin + b], v[begin + c], v[begin + provoking]);
      };
      switch (primitive_type) {
      case QuadList:
         for (size_t i = 0; i + 3 < n; i += 4) {
            const size_t provoking = provoking_last ? i + 3 : i;
            triangle(i, i + 1, i + 2, provoking);
            triangle(i, i + 2, i + 3, provoking);
         }
         break;
      case QuadStrip:
         for (size_t i = 0; i + 3 < n; i += 2) {
            const size_t provoking = provoking_last ? i + 3 : i;
            triangle(i, i + 1, i + 3, provoking);
            triangle(i, i + 3, i + 2, provoking);
         }
         break;
      case Polygon:
         for (size_t i = 1; i + 1 < n; i++)
            triangle(0, i, i + 1, 0);
         break;
      default:
         break;
      }
   }

   /* ---- clipping and the viewport ---- */

   /* Clips a polygon against the z planes (near and far) and w > 0; x and y are left to the
    * guard band and the scissors, which give the same pixels. */
   /* ---- user clip planes, clip and cull distances ---- */

   /* PA_CL_CLIP_CNTL.UCP_ENA_0..5 with the planes in PA_CL_UCP_n_X..W (a plane keeps the
    * positions whose dot product with it is >= 0; with UCP_CULL_ONLY_ENA they only cull);
    * PA_CL_VS_OUT_CNTL.CLIP_DIST_ENA_0..7 / CULL_DIST_ENA_0..7 with the VS's distances in
    * POS 62 and 63 (VS_OUT_CCDIST0/1_VEC_ENA) keep the points whose distance is >= 0 (clip)
    * or drop a primitive whose vertices all have one distance < 0 (cull). Sources: Mesa
    * evergreend.h and r600g's use (r600_emit_clip_misc_state, sfn's POS 62/63 exports). */
   std::array<std::array<float, 4>, 6> user_planes{};
   unsigned user_plane_mask = 0, clip_distance_mask = 0, cull_distance_mask = 0;
   bool user_planes_cull_only = false;

   void decode_clip_planes()
   {
      const uint32_t out_control = state.get(PA_CL_VS_OUT_CNTL);
      user_plane_mask = clip_control & 0x3f;
      user_planes_cull_only = (clip_control >> 17) & 1;
      for (unsigned n = 0; n < 6; n++)
         for (unsigned c = 0; c < 4; c++)
            user_planes[n][c] = as_float(state.get(PA_CL_UCP_0_X + 16 * n + 4 * c));
      clip_distance_mask = out_control & vs_out_clip_distance_enables;
      cull_distance_mask = (out_control >> vs_out_cull_distance_shift) & 0xff;
      for (unsigned vector = 0; vector < 2; vector++) {
         const unsigned lanes = 0xfu << (4 * vector);
         if (((clip_distance_mask | cull_distance_mask) & lanes) && !(out_control & (vs_out_ccdist0_vec_ena << vector)))
            fault("PA_CL_VS_OUT_CNTL enables clip or cull distances %u-%u without VS_OUT_CCDIST%u_VEC_ENA",
                 4 * vector, 4 * vector + 3, vector);
      }
   }

   double user_plane_distance(const Vertex &v, unsigned n) const
   {
      double d = 0;
      for (unsigned c = 0; c < 4; c++)
         d += double(user_planes[n][c]) * v.position[c];
      return d;
   }

   /* Whether every vertex is outside one cull distance (or cull-only user plane). */
   bool culled_by_distances(std::initializer_list<const Vertex *> vertices) const
   {
      if ((clip_control & clip_cntl_clip_disable) != 0)
         return false;
      for (unsigned i = 0; i < 8; i++)
         if ((cull_distance_mask >> i) & 1 &&
             std::all_of(vertices.begin(), vertices.end(), [&](const Vertex *v) { return v->clip_distances[i] < 0; }))
            return true;
      if (user_planes_cull_only)
         for (unsigned n = 0; n < 6; n++)
            if ((user_plane_mask >> n) & 1 &&
                std::all_of(vertices.begin(), vertices.end(),
                            [&](const Vertex *v) { return user_plane_distance(*v, n) < 0; }))
               return true;
      return false;
   }

   /* The planes a primitive is clipped against, each as a signed distance (>= 0 inside). */
   std::vector<std::function<double(const Vertex &)>> clipping_planes() const
   {
      const bool disabled = (clip_control & clip_cntl_clip_disable) != 0;
      const bool dx_space = (clip_control & clip_cntl_dx_clip_space) != 0;
      const bool near_off = (clip_control & clip_cntl_zclip_near_disable) != 0,
                 far_off = (clip_control & clip_cntl_zclip_far_disable) != 0;
      std::vector<std::function<double(const Vertex &)>> planes;
      /* w must stay positive for the division; a tiny epsilon plane does it. */
      planes.push_back([](const Vertex &v) { return double(v.position[3]) - 1e-30; });
      if (disabled)
         return planes;
      if (!near_off) {
         if (dx_space)
            planes.push_back([](const Vertex &v) { return double(v.position[2]); });
         else
            planes.push_back([](const Vertex &v) { return double(v.position[2]) + v.position[3]; });
      }
      if (!far_off)
         planes.push_back([](const Vertex &v) { return double(v.position[3]) - v.position[2]; });
      if (!user_planes_cull_only)
         for (unsigned n = 0; n < 6; n++)
            if ((user_plane_mask >> n) & 1)
               planes.push_back([this, n](const Vertex &v) { return user_plane_distance(v, n); });
      for (unsigned i = 0; i < 8; i++)
         if ((clip_distance_mask >> i) & 1)
            planes.push_back([i](const Vertex &v) { return double(v.clip_distances[i]); });
      return planes;
   }

   /* `boundary`, when given, receives per output vertex whether the edge that starts there
    * is (part of) an edge of the original triangle rather than one clipping created. */
   std::vector<Vertex> clip(std::vector<Vertex> polygon, std::vector<bool> *boundary = nullptr) const
   {
      std::vector<bool> flags(polygon.size());
      for (size_t i = 0; i < polygon.size(); i++)
         flags[i] = polygon[i].edge_flag;
      for (const auto &distance : clipping_planes()) {
         std::vector<Vertex> out;
         std::vector<bool> out_flags;
         for (size_t i = 0; i < polygon.size(); i++) {
            const Vertex &a = polygon[i], &b = polygon[(i + 1) % polygon.size()];
            const double da = distance(a), db = distance(b);
            if (da >= 0) {
               out.push_back(a);
               out_flags.push_back(flags[i]);
            }
            if ((da >= 0) != (db >= 0)) {
               out.push_back(interpolate(a, b, da / (da - db)));
               /* Leaving: the edge from here runs along the plane; entering: it is the rest of a->b. */
               out_flags.push_back(da >= 0 ? false : flags[i]);
            }
         }
         polygon = std::move(out);
         flags = std::move(out_flags);
         if (polygon.size() < 3)
            return {};
      }
      if (boundary)
         *boundary = std::move(flags);
      return polygon;
   }

   WindowVertex to_window(const Vertex &v) const
   {
      WindowVertex w;
      const bool xy_divided = (vte_control >> 8) & 1, z_divided = (vte_control >> 9) & 1;
      const bool w_inverse = !(vte_control & hw::gfx::vte_w0_is_w);
      const double inverse = w_inverse ? v.position[3] : 1.0 / v.position[3];
      double x = xy_divided ? v.position[0] : v.position[0] * inverse;
      double y = xy_divided ? v.position[1] : v.position[1] * inverse;
      double z = z_divided ? v.position[2] : v.position[2] * inverse;
      if (vte_control & 1) x *= viewport[0];
      if (vte_control & 2) x += viewport[1];
      if (vte_control & 4) y *= viewport[2];
      if (vte_control & 8) y += viewport[3];
      if (vte_control & 16) z *= viewport[4];
      if (vte_control & 32) z += viewport[5];
      w.x = x, w.y = y, w.z = z, w.inverse_w = inverse;
      /* PA_SU_VTX_CNTL: positions snap to the subpixel grid (ROUND_MODE 0 truncates, 1 rounds). */
      const unsigned round_mode = (vertex_control >> 1) & 3;
      auto snap = [&](double value) {
         const double scaled = value * double(subpixels);
         return int64_t(round_mode == 0 ? std::trunc(scaled) : std::nearbyint(scaled));
      };
      w.fx = snap(x), w.fy = snap(y);
      w.source = &v;
      w.parameters = v.parameters;
      return w;
   }

   /* ---- streamout ---- */

   /* Each assembled primitive goes to streamout before clipping, in primitive order; with
    * PA_CL_CLIP_CNTL.DX_RASTERIZATION_KILL it stops there. Returns whether to rasterize. */
   bool stream_out(std::initializer_list<const std::vector<StreamRecord> *> vertices)
   {
      const std::string error = streamout->primitive({vertices.begin(), vertices.size()});
      if (!error.empty())
         fault("%s", error.c_str());
      return !(clip_control & hw::streamout::clip_cntl_rasterization_kill);
   }

   /* ---- triangles ---- */

   void triangle_primitive(const Vertex &a, const Vertex &b, const Vertex &c, const Vertex &provoking)
   {
      select_viewport(provoking);
      select_layer(provoking);
      statistics.primitives++;
      if (!stream_out({&a.stream, &b.stream, &c.stream}))
         return;
      statistics.clipper_invocations++;
      if (culled_by_distances({&a, &b, &c}))
         return;
      std::vector<bool> boundary;
      std::vector<Vertex> polygon = clip({a, b, c}, &boundary);
      if (polygon.empty())
         return;
      statistics.clipper_primitives += polygon.size() - 2;
      std::vector<WindowVertex> window;
      for (const Vertex &v : polygon)
         window.push_back(to_window(v));
      if (draw_polygon_outline(polygon, window, boundary, provoking))
         return;
      /* Culling uses the winding of the whole primitive (the first three window vertices of
       * the clipped polygon keep it). */
      for (size_t i = 1; i + 1 < window.size(); i++)
         scan_triangle(window[0], window[i], window[i + 1], provoking, ScanOptions());
   }

   /* Polygon modes (PA_SU_SC_MODE_CNTL.POLY_MODE): a triangle whose face takes points or
    * lines is drawn as the vertices or edges of its clipped polygon, each with the line and
    * point rules below, the triangle's facing, flat-shading vertex and (with
    * POLY_OFFSET_PARA_ENABLE) its polygon offset; culling comes first. Every triangle of a
    * strip or fan is outlined whole (Vulkan has no edge flags), unless the vertex shader
    * exports edge flags (USE_VTX_EDGE_FLAG: an edge is drawn when the vertex it starts at has a
    * non-zero flag, and so is that vertex's point, GL's rule). Edges that clipping creates are not drawn, nor points
    * at the vertices that start them (*derived*: llvmpipe's rule for the view volume;
    * BOUNDARY_EDGE_FLAG_ENA is refused). Returns false when the face is filled. */
   bool draw_polygon_outline(const std::vector<Vertex> &polygon, const std::vector<WindowVertex> &window,
                             const std::vector<bool> &boundary, const Vertex &provoking)
   {
      if (front_polygon == PolygonTriangles && back_polygon == PolygonTriangles)
         return false;
      const size_t n = window.size();
      int64_t area = 0;
      for (size_t i = 1; i + 1 < n && area == 0; i++)
         area = edge(window[0], window[i], window[i + 1].fx, window[i + 1].fy);
      if (area == 0)
         return true; /* no facing: nothing is drawn, as in fill mode */
      const bool clockwise = area > 0;
      const bool front = ((mode_control >> 2) & 1) ? clockwise : !clockwise;
      if (((mode_control & 1) && front) || ((mode_control & 2) && !front))
         return true;
      const uint32_t kind = front ? front_polygon : back_polygon;
      if (kind == PolygonTriangles)
         return false;
      const float offset = (mode_control & su_sc_mode_poly_offset_para_enable)
                              ? polygon_offset(window[0], window[1], window[2], front)
                              : 0.0f;
      for (size_t i = 0; i < n; i++) {
         if (!boundary[i])
            continue;
         if (kind == PolygonLines)
            scan_line(window[i], window[(i + 1) % n], provoking, front, offset);
         else
            scan_point(polygon[i], window[i], front, offset);
      }
      return true;
   }

   void rectangle(const Vertex &a, const Vertex &b, const Vertex &c)
   {
      select_viewport(a);
      select_layer(a);
      statistics.primitives++;
      if (streamout->enabled())
         fault("streamout of RECTLIST primitives is not simulated");
      statistics.clipper_invocations++;
      statistics.clipper_primitives++;
      /* RECTLIST: three vertices of a parallelogram, the fourth is b + c - a (Mesa r600g
       * r600_draw_rectangle). Parameters are planar over (a, b, c), so the fourth corner's
       * values are extrapolated the same way. Rectangles are not clipped. */
      Vertex d;
      for (unsigned i = 0; i < 4; i++)
         d.position[i] = b.position[i] + c.position[i] - a.position[i];
      d.parameters = a.parameters;
      for (size_t p = 0; p < a.parameters.size(); p++)
         for (unsigned i = 0; i < 4; i++)
            d.parameters[p][i] = as_bits(as_float(b.parameters[p][i]) + as_float(c.parameters[p][i]) -
                                         as_float(a.parameters[p][i]));
      WindowVertex wa = to_window(a), wb = to_window(b), wc = to_window(c), wd = to_window(d);
      const WindowVertex *plane[3] = {&wa, &wb, &wc};
      ScanOptions options;
      options.plane = plane;
      options.cull = false;
      scan_triangle(wa, wb, wc, a, options);
      scan_triangle(wb, wd, wc, a, options);
   }

   /* ---- points and lines ---- */

   /* A copy of `w` moved by (dx, dy) window pixels, on the subpixel grid. */
   WindowVertex moved(const WindowVertex &w, double dx, double dy) const
   {
      WindowVertex out = w;
      out.x += dx, out.y += dy;
      out.fx += int64_t(std::llround(dx * double(subpixels)));
      out.fy += int64_t(std::llround(dy * double(subpixels)));
      return out;
   }

   bool inside_z_planes(const Vertex &v) const
   {
      const bool disabled = (clip_control & clip_cntl_clip_disable) != 0;
      if (disabled)
         return v.position[3] > 0;
      const bool dx_space = (clip_control & clip_cntl_dx_clip_space) != 0;
      const bool near_off = (clip_control & clip_cntl_zclip_near_disable) != 0,
                 far_off = (clip_control & clip_cntl_zclip_far_disable) != 0;
      const float x = v.position[0], y = v.position[1], z = v.position[2], w = v.position[3];
      if (!(w > 0) || x < -w || x > w || y < -w || y > w)
         return false;
      if (culled_by_distances({&v}))
         return false;
      for (const auto &distance : clipping_planes())
         if (distance(v) < 0)
            return false;
      if (!near_off && z < (dx_space ? 0.0f : -w))
         return false;
      return far_off || z <= w;
   }

   /* A point is the square of its size centred on the vertex, drawn if the vertex is inside
    * the clip volume (GL and Vulkan clip points by their centre); its sprite coordinate runs
    * from 0 at the left and top edges to 1 at the right and bottom ones. */
   void point_primitive(const Vertex &v)
   {
      select_viewport(v);
      select_layer(v);
      statistics.primitives++;
      if (!stream_out({&v.stream}))
         return;
      statistics.clipper_invocations++;
      if (!inside_z_planes(v))
         return;
      statistics.clipper_primitives++;
      scan_point(v, to_window(v), true, 0.0f);
   }

   /* The square of a point of vertex `v` centred on its window position. */
   void scan_point(const Vertex &v, const WindowVertex &centre, bool front, float depth_offset)
   {
      const uint32_t size = state.get(PA_SU_POINT_SIZE), minmax = state.get(PA_SU_POINT_MINMAX);
      /* The registers hold half sizes in 12.4 fixed point. */
      double width = double(size >> 16) / 8.0, height = double(size & 0xffff) / 8.0;
      if (state.get(PA_CL_VS_OUT_CNTL) & vs_out_use_point_size) {
         if (!v.point_size)
            fault("PA_CL_VS_OUT_CNTL.USE_VTX_POINT_SIZE is set but the vertex shader exported no point size");
         const double low = double(minmax & 0xffff) / 8.0, high = double(minmax >> 16) / 8.0;
         width = height = std::clamp(double(*v.point_size), low, high);
      }
      if (!(width > 0) || !(height > 0))
         return;
      const WindowVertex corner[4] = {
         moved(centre, -width / 2, -height / 2), moved(centre, width / 2, -height / 2),
         moved(centre, width / 2, height / 2), moved(centre, -width / 2, height / 2),
      };
      const PointSquare square{centre.x - width / 2, centre.y - height / 2, width, height};
      ScanOptions options;
      options.cull = false;
      options.front = front;
      options.depth_offset = depth_offset;
      options.point = &square;
      scan_triangle(corner[0], corner[1], corner[2], v, options);
      scan_triangle(corner[0], corner[2], corner[3], v, options);
   }

   /* Clips a line against the z planes and w > 0; false if nothing is left. */
   bool clip_line(Vertex &a, Vertex &b) const
   {
      if (culled_by_distances({&a, &b}))
         return false;
      for (const auto &distance : clipping_planes()) {
         const double da = distance(a), db = distance(b);
         if (da < 0 && db < 0)
            return false;
         if (da >= 0 && db >= 0)
            continue;
         const double t = da / (da - db);
         Vertex m = interpolate(a, b, t);
         (da < 0 ? a : b) = m;
      }
      return true;
   }

   static Vertex interpolate(const Vertex &a, const Vertex &b, double t)
   {
      Vertex m;
      for (unsigned c = 0; c < 4; c++)
         m.position[c] = float(a.position[c] + t * (b.position[c] - a.position[c]));
      m.parameters = a.parameters;
      for (size_t p = 0; p < a.parameters.size(); p++)
         for (unsigned c = 0; c < 4; c++)
            m.parameters[p][c] = as_bits(float(as_float(a.parameters[p][c]) +
                                               t * (as_float(b.parameters[p][c]) - as_float(a.parameters[p][c]))));
      m.point_size = a.point_size;
      m.viewport_index = a.viewport_index;
      m.render_target_index = a.render_target_index;
      m.edge_flag = a.edge_flag;
      for (unsigned i = 0; i < 8; i++)
         m.clip_distances[i] = float(a.clip_distances[i] + t * (b.clip_distances[i] - a.clip_distances[i]));
      return m;
   }

   /* A line of width w is the parallelogram that spans its segment along the major axis and
   * w/2 either side of it along the minor axis (GL's rule for aliased lines; *derived* for the
   * hardware: docs/sim-semantics.md), covered by the top-left rule; parameters vary along the
   * segment only. */
   void line_primitive(Vertex a, Vertex b, const Vertex &provoking)
   {
      select_viewport(provoking);
      select_layer(provoking);
      statistics.primitives++;
      if (!stream_out({&a.stream, &b.stream}))
         return;
      statistics.clipper_invocations++;
      if (!clip_line(a, b))
         return;
      statistics.clipper_primitives++;
      scan_line(to_window(a), to_window(b), provoking, true, 0.0f);
   }

   void scan_line(const WindowVertex &wa, const WindowVertex &wb, const Vertex &provoking, bool front,
                  float depth_offset)
   {
      if ((state.get(PA_SC_MODE_CNTL_0) >> 2) & 1)
         fault("line stipple (PA_SC_MODE_CNTL_0.LINE_STIPPLE_ENABLE) is not simulated yet");
      const double width = double(state.get(PA_SU_LINE_CNTL) & 0xffff) / 8.0;
      if (!(width > 0))
         return;
      if (wa.fx == wb.fx && wa.fy == wb.fy)
         return;
      const bool x_major = std::llabs(wb.fx - wa.fx) >= std::llabs(wb.fy - wa.fy);
      const double dx = x_major ? 0.0 : width / 2, dy = x_major ? width / 2 : 0.0;
      const WindowVertex a0 = moved(wa, -dx, -dy), a1 = moved(wa, dx, dy);
      const WindowVertex b0 = moved(wb, -dx, -dy), b1 = moved(wb, dx, dy);
      ScanOptions options;
      options.cull = false;
      options.front = front;
      options.depth_offset = depth_offset;
      scan_triangle(a0, b0, b1, provoking, options);
      scan_triangle(a0, b1, a1, provoking, options);
   }

   struct Fragment {
      unsigned x, y;
      /* Covered samples (bit s: sample s), after PA_SC_AA_MASK. */
      uint16_t coverage;
      float z;
      /* Depth at each sample's location (with per-sample coverage only). */
      std::array<float, 16> sample_z;
      /* Weights at the centroid: the centre if every sample is covered, else the covered
       * sample with the lowest index (*derived*: llvmpipe's rule, lp_bld_interp.c). */
      float centroid_i, centroid_j, centroid_linear_i, centroid_linear_j;
      float depth_offset; /* polygon offset, added for the depth test only */
      float i, j;         /* perspective-correct weights of vertices 1 and 2 */
      float linear_i, linear_j;
      /* Per-sample shading (SamplePattern::iterate_samples): the sample this invocation shades
       * (0 otherwise), the weights at its location (the centre's otherwise), the pixel's whole
       * coverage (the SPI's sample mask input) and the sample's window position. */
      unsigned sample;
      float sample_i, sample_j, sample_linear_i, sample_linear_j;
      uint16_t pixel_coverage;
      float sample_x, sample_y;
      float inverse_w;
      bool front;
      /* A quad pixel the primitive does not cover (coverage 0): shaded for its neighbours'
       * derivatives, written nowhere. */
      bool helper;
      float sprite_s, sprite_t; /* the point sprite coordinate (points only, else 0) */
      const WindowVertex *v[3];
      const Vertex *provoking;
   };

   /* A point's square in window pixels, for its sprite coordinates. */
   struct PointSquare {
      double left, top, width, height;
   };

   /* How a triangle of the scan converter is used: a primitive's own triangle (culled by
    * facing, its own parameter plane), or a piece of a rectangle, point or line (never culled,
    * the plane of other vertices, a fixed facing). */
   struct ScanOptions {
      const WindowVertex *const *plane = nullptr;
      bool cull = true;
      std::optional<bool> front;
      const PointSquare *point = nullptr;
      /* The polygon offset of a point or line a polygon mode made (else 0 for them). */
      float depth_offset = 0.0f;
   };
   std::vector<Fragment> pending;

   static int64_t edge(const WindowVertex &a, const WindowVertex &b, int64_t px, int64_t py)
   {
      return (b.fx - a.fx) * (py - a.fy) - (b.fy - a.fy) * (px - a.fx);
   }

   /* Polygon offset (PA_SU_SC_MODE_CNTL.POLY_OFFSET_FRONT/BACK_ENABLE): SCALE times the
    * primitive's largest depth slope, measured per 1/16 pixel, plus OFFSET times the depth
    * format's unit: 2^POLY_OFFSET_NEG_NUM_DB_BITS for unorm formats, 2^(exponent of the
    * primitive's largest |z| + NEG_NUM_DB_BITS) with DB_IS_FLOAT_FMT; then clamped by
    * PA_SU_POLY_OFFSET_CLAMP toward zero when it is not 0. Sources: AMD's R5xx register
    * reference (SU_POLY_OFFSET_*_SCALE: "slope computed in subpixels (1/16)"), the radeonsi
    * change that found the offset to follow PA_SU_POLY_OFFSET_* alone with DB_FMT_CNTL 0
    * meaning a unit of 1, and r600g's programming (SCALE = factor * 16; OFFSET = units * 2 with
    * -24 bits, units * 4 with -16, units with -23 and the float flag). The float unit follows
    * GL's rule for floating-point depth (*derived*). Point and line primitives are not offset;
   * those a polygon mode makes take their triangle's offset (draw_polygon_outline). */
   float polygon_offset(const WindowVertex &p0, const WindowVertex &p1, const WindowVertex &p2, bool front) const
   {
      if (!((mode_control >> (front ? 11 : 12)) & 1))
         return 0.0f;
      const float scale = as_float(state.get(front ? PA_SU_POLY_OFFSET_FRONT_SCALE : PA_SU_POLY_OFFSET_BACK_SCALE));
      const float units = as_float(state.get(front ? PA_SU_POLY_OFFSET_FRONT_OFFSET : PA_SU_POLY_OFFSET_BACK_OFFSET));
      const uint32_t format = state.get(PA_SU_POLY_OFFSET_DB_FMT_CNTL);
      const int bits = int8_t(format & 0xff);
      /* The plane z = a x + b y + c through the three window vertices. */
      const double x1 = p1.x - p0.x, y1 = p1.y - p0.y, z1 = p1.z - p0.z;
      const double x2 = p2.x - p0.x, y2 = p2.y - p0.y, z2 = p2.z - p0.z;
      const double determinant = x1 * y2 - x2 * y1;
      double slope = 0.0;
      if (determinant != 0.0) {
         const double dz_dx = (z1 * y2 - z2 * y1) / determinant, dz_dy = (x1 * z2 - x2 * z1) / determinant;
         slope = std::max(std::fabs(dz_dx), std::fabs(dz_dy)) / 16.0;
      }
      double unit = std::ldexp(1.0, bits);
      if ((format >> 8) & 1) {
         const double largest = std::max({std::fabs(p0.z), std::fabs(p1.z), std::fabs(p2.z)});
         int exponent = 0;
         std::frexp(largest, &exponent); /* largest = m * 2^exponent, m in [0.5, 1) */
         unit = largest > 0 ? std::ldexp(1.0, exponent - 1 + bits) : 0.0;
      }
      double offset = double(scale) * slope + double(units) * unit;
      const float clamp = as_float(state.get(PA_SU_POLY_OFFSET_CLAMP));
      if (clamp > 0)
         offset = std::min(offset, double(clamp));
      else if (clamp < 0)
         offset = std::max(offset, double(clamp));
      return float(offset);
   }

   void scan_triangle(const WindowVertex &v0, const WindowVertex &v1, const WindowVertex &v2,
                      const Vertex &provoking, const ScanOptions &options)
   {
      const WindowVertex *const *plane = options.plane;
      const int64_t area = edge(v0, v1, v2.fx, v2.fy);
      if (area == 0)
         return;
      /* Facing: positive area is clockwise on the y-down screen. PA_SU_SC_MODE_CNTL.FACE 0
       * makes counter-clockwise front (derived: docs/sim-semantics.md). */
      const bool clockwise = area > 0;
      const bool front = options.front ? *options.front : ((mode_control >> 2) & 1) ? clockwise : !clockwise;
      if (options.cull) {
         if ((mode_control & 1) && front)
            return;
         if ((mode_control & 2) && !front)
            return;
      }
      const WindowVertex *order[3] = {&v0, &v1, &v2};
      if (!clockwise)
         std::swap(order[1], order[2]);
      const WindowVertex &a = *order[0], &b = *order[1], &c = *order[2];
      auto top_left = [](const WindowVertex &from, const WindowVertex &to) {
         const int64_t dx = to.fx - from.fx, dy = to.fy - from.fy;
         return dy < 0 || (dy == 0 && dx > 0);
      };
      const bool tl_ab = top_left(a, b), tl_bc = top_left(b, c), tl_ca = top_left(c, a);
      const int64_t min_x = std::min({a.fx, b.fx, c.fx}), max_x = std::max({a.fx, b.fx, c.fx});
      const int64_t min_y = std::min({a.fy, b.fy, c.fy}), max_y = std::max({a.fy, b.fy, c.fy});
      const int64_t centre = pixel_centre_half ? subpixels / 2 : 0;
      auto first_pixel = [&](int64_t v) { return int(std::max<int64_t>(0, (v - centre) / subpixels - 1)); };
      const int x0 = std::max(scissor_x0, first_pixel(min_x)), y0 = std::max(scissor_y0, first_pixel(min_y));
      const int x1 = std::min<int64_t>(scissor_x1, max_x / subpixels + 2);
      const int y1 = std::min<int64_t>(scissor_y1, max_y / subpixels + 2);
      const WindowVertex &p0 = plane ? *plane[0] : v0, &p1 = plane ? *plane[1] : v1, &p2 = plane ? *plane[2] : v2;
      const double plane_area = double(edge(p0, p1, p2.fx, p2.fy));
      const float depth_offset = options.cull ? polygon_offset(p0, p1, p2, front) : options.depth_offset;
      const bool no_perspective = (mode_control >> 20) & 1;
      /* Whether a sample point is inside: exact edge functions and the top-left rule. */
      auto inside = [&](int64_t px, int64_t py) {
         const int64_t e_ab = edge(a, b, px, py), e_bc = edge(b, c, px, py), e_ca = edge(c, a, px, py);
         if (e_ab < 0 || e_bc < 0 || e_ca < 0)
            return false;
         return !((e_ab == 0 && !tl_ab) || (e_bc == 0 && !tl_bc) || (e_ca == 0 && !tl_ca));
      };
      /* Weights of the plane's vertices 1 and 2 at a point (w0 = 1 - w1 - w2). */
      auto weights = [&](int64_t px, int64_t py, double &w1, double &w2) {
         w1 = double(edge(p2, p0, px, py)) / plane_area;
         w2 = double(edge(p0, p1, px, py)) / plane_area;
      };
      struct Weights {
         float i, j, linear_i, linear_j, inverse_w;
      };
      auto interpolation_weights = [&](int64_t px, int64_t py) {
         double w1, w2;
         weights(px, py, w1, w2);
         const double w0 = 1.0 - w1 - w2;
         const double q0 = w0 * p0.inverse_w, q1 = w1 * p1.inverse_w, q2 = w2 * p2.inverse_w;
         const double sum = q0 + q1 + q2;
         return Weights{no_perspective ? float(w1) : float(q1 / sum), no_perspective ? float(w2) : float(q2 / sum),
                        float(w1), float(w2), float(sum)};
      };
      const SamplePattern &pattern = sample_pattern;
      const int64_t sample_unit = subpixels / 16;
      /* Pixels go to the shader in 2x2 quads (aligned to even x and y), a quad whenever the
       * primitive covers one of its pixels; the others are helpers (docs/sim-semantics.md). */
      auto pixel_coverage = [&](int x, int y) -> uint16_t {
         if (x < x0 || x >= x1 || y < y0 || y >= y1)
            return 0;
         const int64_t px = int64_t(x) * subpixels + centre, py = int64_t(y) * subpixels + centre;
         const unsigned quad = SamplePattern::quad_pixel(unsigned(x), unsigned(y));
         uint16_t coverage = 0;
         if (pattern.per_sample_coverage) {
            for (unsigned s = 0; s < pattern.samples; s++) {
               const auto &offset = pattern.offsets[quad][s];
               if (inside(px + offset[0] * sample_unit, py + offset[1] * sample_unit))
                  coverage |= uint16_t(1u << s);
            }
            coverage &= pattern.mask[quad];
         } else if (inside(px, py)) {
            coverage = pattern.samples > 1 ? uint16_t(pattern.all_samples() & pattern.mask[quad]) : 1;
         }
         return coverage;
      };
      /* Per-sample shading: each sample of the quad's pixels makes a quad of its own, sample 0's
       * first, whose lanes cover only that sample (a pixel that does not cover it is a helper
       * there); a quad is shaded for a sample when one of its pixels covers it. */
      std::array<std::array<Fragment, 4>, 16> per_sample;
      for (int quad_y = y0 & ~1; quad_y < y1; quad_y += 2) {
         for (int quad_x = x0 & ~1; quad_x < x1; quad_x += 2) {
            std::array<uint16_t, 4> quad_coverage;
            for (unsigned k = 0; k < 4; k++)
               quad_coverage[k] = pixel_coverage(quad_x + int(k & 1), quad_y + int(k >> 1));
            if (!(quad_coverage[0] | quad_coverage[1] | quad_coverage[2] | quad_coverage[3]))
               continue;
            for (unsigned k = 0; k < 4; k++) {
               const int x = quad_x + int(k & 1), y = quad_y + int(k >> 1);
               const int64_t px = int64_t(x) * subpixels + centre, py = int64_t(y) * subpixels + centre;
               const unsigned quad = SamplePattern::quad_pixel(unsigned(x), unsigned(y));
               const uint16_t coverage = quad_coverage[k];
               double w1, w2;
               weights(px, py, w1, w2);
               const double w0 = 1.0 - w1 - w2;
               Fragment f;
               f.x = unsigned(x), f.y = unsigned(y);
               f.coverage = coverage;
               f.helper = coverage == 0;
               f.z = float(w0 * p0.z + w1 * p1.z + w2 * p2.z);
               f.depth_offset = depth_offset;
               const Weights at_centre = interpolation_weights(px, py);
               f.linear_i = at_centre.linear_i, f.linear_j = at_centre.linear_j;
               f.i = at_centre.i, f.j = at_centre.j;
               f.inverse_w = at_centre.inverse_w;
               Weights at_centroid = at_centre;
               if (pattern.per_sample_coverage) {
                  for (unsigned s = 0; s < pattern.samples; s++) {
                     const auto &offset = pattern.offsets[quad][s];
                     double s1, s2;
                     weights(px + offset[0] * sample_unit, py + offset[1] * sample_unit, s1, s2);
                     f.sample_z[s] = float((1.0 - s1 - s2) * p0.z + s1 * p1.z + s2 * p2.z);
                  }
                  if (coverage && coverage != pattern.all_samples()) {
                     const unsigned s = unsigned(std::countr_zero(unsigned(coverage)));
                     const auto &offset = pattern.offsets[quad][s];
                     at_centroid = interpolation_weights(px + offset[0] * sample_unit, py + offset[1] * sample_unit);
                  }
               }
               f.centroid_i = at_centroid.i, f.centroid_j = at_centroid.j;
               f.centroid_linear_i = at_centroid.linear_i, f.centroid_linear_j = at_centroid.linear_j;
               f.sample = 0;
               f.pixel_coverage = coverage;
               f.sample_i = f.i, f.sample_j = f.j, f.sample_linear_i = f.linear_i, f.sample_linear_j = f.linear_j;
               f.sample_x = float(double(px) / double(subpixels)), f.sample_y = float(double(py) / double(subpixels));
               f.front = front;
               f.sprite_s = f.sprite_t = 0.0f;
               if (options.point) {
                  const double sample_x = double(px) / double(subpixels), sample_y = double(py) / double(subpixels);
                  f.sprite_s = float((sample_x - options.point->left) / options.point->width);
                  f.sprite_t = float((sample_y - options.point->top) / options.point->height);
               }
               f.v[0] = &p0, f.v[1] = &p1, f.v[2] = &p2;
               f.provoking = &provoking;
               if (!pattern.iterate_samples) {
                  pending.push_back(f);
                  continue;
               }
               /* The sample's own invocation: its coverage bit, its sample pairs and position
                * at its location; the centroid stays the pixel's (*derived*: what llvmpipe
                * and lavapipe give). */
               for (unsigned s = 0; s < pattern.samples; s++) {
                  Fragment &g = per_sample[s][k];
                  g = f;
                  g.coverage = uint16_t(coverage & (1u << s));
                  g.helper = g.coverage == 0;
                  g.sample = s;
                  const auto &offset = pattern.offsets[quad][s];
                  const int64_t sx = px + offset[0] * sample_unit, sy = py + offset[1] * sample_unit;
                  const Weights at_sample = interpolation_weights(sx, sy);
                  g.sample_i = at_sample.i, g.sample_j = at_sample.j;
                  g.sample_linear_i = at_sample.linear_i, g.sample_linear_j = at_sample.linear_j;
                  g.sample_x = float(double(sx) / double(subpixels)), g.sample_y = float(double(sy) / double(subpixels));
               }
            }
            if (pattern.iterate_samples)
               for (unsigned s = 0; s < pattern.samples; s++)
                  if (per_sample[s][0].coverage | per_sample[s][1].coverage | per_sample[s][2].coverage |
                      per_sample[s][3].coverage)
                     pending.insert(pending.end(), per_sample[s].begin(), per_sample[s].end());
         }
      }
      /* Pixels are shaded in primitive order; one primitive's pixels at a time keeps the
       * parameters' owners alive. */
      flush_pixels();
   }

   /* The stencil and depth tests of one fragment's `coverage`: the samples that pass (all of
    * `coverage` with a single-sample depth buffer, which tests once at the pixel centre). */
   uint16_t depth_stencil_tests(const Fragment &f, uint16_t coverage, const WaveExports::Target *depth_export,
                                unsigned lane, const WaveExports::Target *stencil_export = nullptr)
   {
      if (!depth_stencil.any_test() || !coverage)
         return coverage;
      if (f.x >= depth_stencil.width || f.y >= depth_stencil.height)
         fault("DB: pixel (%u, %u) outside the %ux%u depth buffer (the scissor must keep it in)", f.x, f.y,
               depth_stencil.width, depth_stencil.height);
      const unsigned db_samples = depth_stencil.samples;
      uint16_t passed = 0;
      for (unsigned s = 0; s < db_samples; s++) {
         if (!((coverage >> s) & 1) && db_samples > 1)
            continue;
         const float interpolated = sample_pattern.per_sample_coverage && db_samples > 1 ? f.sample_z[s] : f.z;
         const float z = depth_export ? as_float(depth_export->values[lane][0]) : interpolated + f.depth_offset;
         const int reference = stencil_export ? int(stencil_export->values[lane][1] & 0xff) : -1;
         if (depth_stencil_test(depth_stencil, f.x, f.y, s, z, f.front, reference))
            passed |= uint16_t(1u << s);
      }
      return db_samples > 1 ? passed : (passed ? coverage : uint16_t(0));
   }

   /* ---- SPI and the pixel shader ---- */

   void flush_pixels()
   {
      const unsigned width = ps_dispatch.wave_size;
      for (size_t first = 0; first < pending.size(); first += width) {
         const unsigned lanes = unsigned(std::min<size_t>(width, pending.size() - first));
         shade_pixels(&pending[first], lanes);
      }
      pending.clear();
   }

   void shade_pixels(const Fragment *fragments, unsigned lanes)
   {
      GraphicsWave wave;
      wave.lanes = lanes;
      wave.helper.resize(lanes);
      for (unsigned lane = 0; lane < lanes; lane++)
         wave.helper[lane] = fragments[lane].helper;
      const uint32_t in_control = state.get(SPI_PS_IN_CONTROL_0), in_control_1 = state.get(SPI_PS_IN_CONTROL_1);
      const uint32_t barycentric = state.get(SPI_BARYC_CNTL);
      /* The I/J pairs, in the SPI's order: perspective sample, center, centroid, then linear
       * sample, center, centroid; each enabled pair takes the next half GPR (Mesa r600g
       * evergreen_update_ps_state and sfn allocate_interpolators_or_inputs). Centroid pairs
       * take the fragment's centroid; sample pairs the location of the sample the invocation
       * shades under PS_ITER_SAMPLE, else the centre (*derived*: r600g enables them only for
       * sample-qualified inputs, which force per-sample shading). */
      static constexpr unsigned fields[6] = {8, 0, 4, 24, 16, 20};
      unsigned pair = 0;
      for (unsigned k = 0; k < 6; k++) {
         if (!((barycentric >> fields[k]) & 3))
            continue;
         const bool linear = k >= 3, centroid = k == 2 || k == 5, sample = k == 0 || k == 3;
         auto &j_values = wave.gprs[{pair / 2, 2 * (pair % 2)}];
         auto &i_values = wave.gprs[{pair / 2, 2 * (pair % 2) + 1}];
         for (unsigned lane = 0; lane < lanes; lane++) {
            const Fragment &f = fragments[lane];
            float i = centroid ? (linear ? f.centroid_linear_i : f.centroid_i) : (linear ? f.linear_i : f.i);
            float j = centroid ? (linear ? f.centroid_linear_j : f.centroid_j) : (linear ? f.linear_j : f.j);
            if (sample) {
               i = linear ? f.sample_linear_i : f.sample_i;
               j = linear ? f.sample_linear_j : f.sample_j;
            }
            i_values.push_back(as_bits(i));
            j_values.push_back(as_bits(j));
         }
         pair++;
      }
      /* Later loads replace earlier ones in the same GPR channel: with no interpolated input
       * r600g still enables one I/J pair (the SPI needs one) and places the position in R0
       * too, expecting the position there (derived: docs/sim-semantics.md). */
      auto load = [&](unsigned gpr, unsigned channel) -> std::vector<uint32_t> & {
         std::vector<uint32_t> &values = wave.gprs[{gpr, channel}];
         values.clear();
         return values;
      };
      if ((in_control >> 8) & 1) {
         const unsigned gpr = (in_control >> 10) & 0x1f;
         const float centre = pixel_centre_half ? 0.5f : 0.0f;
         /* POSITION_SAMPLE [30]: x and y at the location of the sample the invocation shades
          * (the centre when the shader is not iterated; *derived*: the field's name in
          * evergreend.h, r600g never sets it on Evergreen). */
         const bool at_sample = (in_control >> 30) & 1;
         for (unsigned c = 0; c < 4; c++)
            load(gpr, c);
         for (unsigned lane = 0; lane < lanes; lane++) {
            const Fragment &f = fragments[lane];
            wave.gprs[{gpr, 0}].push_back(as_bits(at_sample ? f.sample_x : float(f.x) + centre));
            wave.gprs[{gpr, 1}].push_back(as_bits(at_sample ? f.sample_y : float(f.y) + centre));
            wave.gprs[{gpr, 2}].push_back(as_bits(f.z));
            wave.gprs[{gpr, 3}].push_back(as_bits(f.inverse_w));
         }
      }
      if ((in_control_1 >> 8) & 1) {
         const unsigned gpr = (in_control_1 >> 12) & 0x1f, chan = (in_control_1 >> 9) & 3;
         const bool all_bits = (in_control_1 >> 11) & 1;
         /* The same enable loads the pixel's coverage mask (every covered sample, also under
          * per-sample shading) into the GPR's z: Mesa r600_shader.c ("lives in Front Face
          * GPR.z", "The hw always gives us coverage mask for the pixel") and sfn. Written
          * before the face, which wins if FRONT_FACE_CHAN is z too. */
         load(gpr, 2);
         for (unsigned lane = 0; lane < lanes; lane++)
            wave.gprs[{gpr, 2}].push_back(fragments[lane].pixel_coverage);
         load(gpr, chan);
         /* FRONT_FACE_ALL_BITS: all ones for front faces, else +1.0 / -1.0 as a float
          * (derived from how r600g's shaders test the value: docs/sim-semantics.md). */
         for (unsigned lane = 0; lane < lanes; lane++) {
            const bool front = fragments[lane].front;
            wave.gprs[{gpr, chan}].push_back(all_bits ? (front ? 0xffffffffu : 0u)
                                                      : as_bits(front ? 1.0f : -1.0f));
         }
      }
      /* FIXED_PT_POSITION_ENA [24]: the sample the invocation shades, as an integer, in the w
       * channel of FIXED_PT_POSITION_ADDR [29:25] (Mesa r600_shader.c: "SAMPLEID is in Fixed
       * Point Position GPR.w"; sfn). 0 when the shader is not iterated (*derived*). The
       * fixed-point position the name promises for x, y and z has no documented format: those
       * channels are not written. */
      if ((in_control_1 >> 24) & 1) {
         const unsigned gpr = (in_control_1 >> 25) & 0x1f;
         load(gpr, 3);
         for (unsigned lane = 0; lane < lanes; lane++)
            wave.gprs[{gpr, 3}].push_back(fragments[lane].sample);
      }

      /* Parameters: PS input n takes the VS export whose SPI_VS_OUT_ID semantic matches its
       * SPI_PS_INPUT_CNTL_n.SEMANTIC, or its DEFAULT_VAL when none does. */
      const unsigned inputs = in_control & 0x3f;
      wave.parameter_count = inputs;
      wave.parameters.assign(size_t(lanes) * inputs * 12, 0.0f);
      const uint32_t export_count = ((state.get(SPI_VS_OUT_CONFIG) >> 1) & 0x1f) + 1;
      for (unsigned n = 0; n < inputs; n++) {
         const uint32_t control = state.get(SPI_PS_INPUT_CNTL_0 + 4 * n);
         if (ps_input_cyl_wrap(control))
            fault("SPI_PS_INPUT_CNTL_%u: cylindrical wrap is not simulated yet", n);
         /* PT_SPRITE_TEX with SPI_INTERP_CONTROL_0.PNT_SPRITE_ENA: the input is the sprite
          * coordinate, each channel chosen by PNT_SPRITE_OVRD_* (0, 1, S or T); TOP_1 puts
          * t = 1 at the top. */
         const uint32_t interp_control = state.get(SPI_INTERP_CONTROL_0);
         if (ps_input_point_sprite(control) && ((interp_control >> 1) & 1)) {
            const bool top_one = (interp_control >> 14) & 1;
            for (unsigned lane = 0; lane < lanes; lane++) {
               const Fragment &f = fragments[lane];
               float *out = &wave.parameters[(size_t(lane) * inputs + n) * 12];
               const float t = top_one ? 1.0f - f.sprite_t : f.sprite_t;
               const float choices[4] = {0.0f, 1.0f, f.sprite_s, t};
               for (unsigned c = 0; c < 4; c++) {
                  const unsigned choice = (interp_control >> (2 + 3 * c)) & 7;
                  if (choice > 3)
                     fault("SPI_INTERP_CONTROL_0.PNT_SPRITE_OVRD %u is not defined", choice);
                  out[c] = choices[choice];
               }
            }
            continue;
         }
         std::optional<unsigned> source;
         for (unsigned p = 0; p < export_count && p < 40; p++) {
            const uint32_t id = state.get(SPI_VS_OUT_ID_0 + 4 * (p / 4));
            if (((id >> (8 * (p % 4))) & 0xff) == ps_input_semantic(control)) {
               source = p;
               break;
            }
         }
         const bool flat = ps_input_flat(control);
         for (unsigned lane = 0; lane < lanes; lane++) {
            const Fragment &f = fragments[lane];
            float *out = &wave.parameters[(size_t(lane) * inputs + n) * 12];
            if (!source) {
               static constexpr float defaults[4][4] = {{0, 0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1, 0}, {1, 1, 1, 1}};
               std::copy(defaults[ps_input_default(control)], defaults[ps_input_default(control)] + 4, out);
               continue;
            }
            for (unsigned c = 0; c < 4; c++) {
               if (flat) {
                  out[c] = as_float(f.provoking->parameters[*source][c]);
                  continue;
               }
               const float p0 = as_float(f.v[0]->parameters[*source][c]);
               out[c] = p0;
               out[4 + c] = as_float(f.v[1]->parameters[*source][c]) - p0;
               out[8 + c] = as_float(f.v[2]->parameters[*source][c]) - p0;
            }
         }
      }

      /* DB_SHADER_CONTROL.DEPTH_BEFORE_SHADER: the stencil and depth tests (and their writes)
       * come first; a pixel none of whose samples pass is shaded as a helper, so that it
       * exports nothing and its VALID_PIXEL_MODE memory writes are left out. */
      std::vector<uint16_t> early(lanes, 0);
      if (depth_before_shader) {
         for (unsigned lane = 0; lane < lanes; lane++) {
            if (fragments[lane].helper)
               continue;
            early[lane] = depth_stencil_tests(fragments[lane], fragments[lane].coverage, nullptr, 0);
            if (!early[lane])
               wave.helper[lane] = true;
         }
      }

      WaveExports exports;
      std::string error;
      if (!ps->run(wave, exports, error))
         fault("pixel shader at 0x%llx: %s", (unsigned long long)ps_dispatch.program_address, error.c_str());
      for (unsigned lane = 0; lane < lanes; lane++)
         statistics.pixels_shaded += !wave.helper[lane];
      /* Per fragment, in order: KILL, the alpha test on colour 0, the stencil and depth tests
       * (late Z: the result is the same as early Z for shaders without side effects), then
       * the colour writes. */
      const WaveExports::Target *colour0 = nullptr, *depth_export = nullptr;
      if (auto found = exports.targets.find({0, 0}); found != exports.targets.end())
         colour0 = &found->second;
      if (depth_stencil.depth_from_shader) {
         auto found = exports.targets.find({0, pixel_export_depth});
         if (found == exports.targets.end())
            fault("DB_SHADER_CONTROL.Z_EXPORT_ENABLE is set but the pixel shader exports no depth (PIXEL 61)");
         depth_export = &found->second;
      }
      /* DB_SHADER_CONTROL.STENCIL_REF_EXPORT_ENABLE: PIXEL 61's y is each lane's stencil
       * reference. */
      const WaveExports::Target *stencil_export = nullptr;
      if (depth_stencil.stencil_from_shader) {
         auto found = exports.targets.find({0, pixel_export_depth});
         if (found == exports.targets.end())
            fault("DB_SHADER_CONTROL.STENCIL_REF_EXPORT_ENABLE is set but the pixel shader exports no stencil "
                  "reference (PIXEL 61)");
         stencil_export = &found->second;
      }
      /* DB_SHADER_CONTROL.MASK_EXPORT_ENABLE: PIXEL 61's z masks each lane's coverage
       * (multisampled draws only: r600g never sets it with one sample, where it is refused). */
      const WaveExports::Target *mask_export = nullptr;
      if (depth_stencil.mask_from_shader) {
         auto found = exports.targets.find({0, pixel_export_depth});
         if (found == exports.targets.end())
            fault("DB_SHADER_CONTROL.MASK_EXPORT_ENABLE is set but the pixel shader exports no mask (PIXEL 61)");
         if (sample_pattern.samples < 2)
            fault("DB_SHADER_CONTROL.MASK_EXPORT_ENABLE on a single-sample draw is not simulated");
         mask_export = &found->second;
      }
      /* Each lane's samples that survive, as a coverage mask. */
      std::vector<uint16_t> survives(lanes, 0);
      if (depth_stencil.any_test() && depth_stencil.samples != 1 && depth_stencil.samples != sample_pattern.samples)
         fault("DB: a depth buffer of %u samples under PA_SC_AA_CONFIG's %u samples", depth_stencil.samples,
              sample_pattern.samples);
      for (unsigned lane = 0; lane < lanes; lane++) {
         const Fragment &f = fragments[lane];
         if (f.helper || (!exports.killed.empty() && exports.killed[lane]))
            continue;
         if (depth_stencil.alpha_test && colour0 && colour0->written[lane] &&
             !alpha_test_passes(depth_stencil, as_float(colour0->values[lane][3])))
            continue;
         uint16_t coverage = mask_export ? uint16_t(f.coverage & mask_export->values[lane][2]) : f.coverage;
         /* Alpha to coverage (DB_ALPHA_TO_MASK, gfx/alpha_to_mask.cpp), before the tests. */
         if (alpha_rule.enabled && colour0 && colour0->written[lane])
            coverage &= alpha_to_mask(alpha_rule, as_float(colour0->values[lane][3]),
                                      SamplePattern::quad_pixel(f.x, f.y));
         survives[lane] = depth_before_shader ? uint16_t(coverage & early[lane])
                                              : depth_stencil_tests(f, coverage, depth_export, lane, stencil_export);
      }
      /* Occlusion counts: the samples that passed the tests; with DEPTH_BEFORE_SHADER those of
       * the early tests, whatever the shader's kill or mask does after (GL's and Vulkan's rule
       * for early fragment tests). */
      if (!(state.get(DB_COUNT_CONTROL) & 1))
         for (unsigned lane = 0; lane < lanes; lane++)
            statistics.samples_passed +=
               unsigned(std::popcount(unsigned(depth_before_shader ? early[lane] : survives[lane])));
      if (resolve_destination) {
         /* The pixel shader's exports are not written; every covered pixel is resolved. */
         for (unsigned lane = 0; lane < lanes; lane++) {
            const Fragment &f = fragments[lane];
            if (!survives[lane])
               continue;
            if (f.x >= resolve_source->width || f.y >= resolve_source->height || f.x >= resolve_destination->width ||
                f.y >= resolve_destination->height)
               fault("CB resolve: pixel (%u, %u) outside the source or destination buffer", f.x, f.y);
            resolve_pixel(*resolve_source, *resolve_destination, f.x, f.y);
            statistics.pixels_written++;
         }
      }
      if (fmask_decompress_target) {
         for (unsigned lane = 0; lane < lanes; lane++) {
            const Fragment &f = fragments[lane];
            if (!survives[lane] || f.x >= fmask_decompress_target->width || f.y >= fmask_decompress_target->height)
               continue;
            fmask_decompress_pixel(*fmask_decompress_target, f.x, f.y);
         }
      }
      for (ColourTarget &target : targets) {
         const auto found = exports.targets.find({0, target.index});
         if (found == exports.targets.end())
            continue;
         /* Dual-source blending reads the export to PIXEL 1 as the second colour. */
         const WaveExports::Target *second = nullptr;
         if (target.dual_source) {
            const auto found_second = exports.targets.find({0, target.index + 1});
            if (found_second == exports.targets.end())
               fault("CB_COLOR%u blends with the second source, but the pixel shader exports no PIXEL %u",
                    target.index, target.index + 1);
            second = &found_second->second;
         }
         for (unsigned lane = 0; lane < lanes; lane++) {
            if (!found->second.written[lane] || !survives[lane])
               continue;
            const Fragment &f = fragments[lane];
            if (f.x >= target.width || f.y >= target.height)
               fault("CB_COLOR%u: pixel (%u, %u) outside the %ux%u buffer (the scissor must keep it in)",
                    target.index, f.x, f.y, target.width, target.height);
            if (second && !second->written[lane])
               fault("CB_COLOR%u: a lane wrote PIXEL %u but not the second colour", target.index, target.index);
            const std::array<uint32_t, 4> *second_value = second ? &second->values[lane] : nullptr;
            if (target.msaa.samples > 1)
               write_colour_samples(target, f.x, f.y, survives[lane], found->second.values[lane], second_value);
            else
               write_colour(target, f.x, f.y, found->second.values[lane], second_value);
            statistics.pixels_written++;
         }
      }
   }
};

} // namespace

/* A pixel shader's RATs: the colour buffers CB_TARGET_MASK enables with CB_COLORn_INFO.RAT, as
 * for a dispatch (r600g binds a fragment stage's images and buffers so, after its colour
 * buffers: evergreen_emit_image_state); the CB writes no exports to them. */
static void add_pixel_shader_rats(const PipelineState &state, GpuMemory &memory, ComputeDispatch &out)
{
   const uint32_t target_mask = state.get(hw::reg::CB_TARGET_MASK);
   for (unsigned n = 0; n < 8; n++) {
      const uint32_t base_reg = hw::reg::CB_COLOR0_BASE + n * hw::reg::CB_COLOR_STRIDE;
      const uint32_t info = state.get(base_reg + hw::reg::Info);
      if (!(info & hw::reg::CB_COLOR_INFO_RAT) || !((target_mask >> (4 * n)) & 0xf))
         continue;
      RatBinding rat;
      rat.address = uint64_t(state.get(base_reg + hw::reg::Base)) << 8;
      rat.format = hw::reg::cb_color_info_format(info);
      rat.size_limit = memory.bytes_after(rat.address);
      rat.return_address = uint64_t(state.get(hw::reg::CB_IMMED0_BASE + 4 * n)) << 8;
      auto typed = std::make_shared<TypedRat>();
      if (decode_typed_rat(*state.context, n, state.tiling, memory, *typed, rat.typed_error))
         rat.typed = std::move(typed);
      out.rats[n] = rat;
   }
}

std::string setup_stage(const PipelineState &state, ShaderStage stage, GpuMemory &memory, ComputeDispatch &out)
{
   /* Where each graphics stage finds its program, constants and resources. The export shader
    * shares the vertex shader's constant, fetch-resource and sampler ranges and calls the
    * fetch shader (Evergreen has no ES constant registers; r600g binds a vertex shader running
    * as ES through the VS ones: evergreen_emit_vs_constant_buffers). Loop constants: 32 per
    * stage, PS, VS, GS, ES (r600g writes SQ_LOOP_CONST 0, 32, 64, 96 alike). Register
    * offsets from Mesa's evergreend.h. */
   struct StageRegisters {
      uint32_t start, resources;
      const char *start_name;
      unsigned loop_const;
      uint32_t tmp_base, tmp_size, tmp_itemsize;
      uint32_t const_cache, const_sizes;
      unsigned resource_base, resource_count, sampler_base;
   };
   static constexpr StageRegisters vertex_registers{SQ_PGM_START_VS, SQ_PGM_RESOURCES_VS, "SQ_PGM_START_VS", vs_loop_const,
                                                    hw::reg::SQ_VSTMP_RING_BASE, hw::reg::SQ_VSTMP_RING_SIZE,
                                                    hw::reg::SQ_VSTMP_RING_ITEMSIZE, SQ_ALU_CONST_CACHE_VS_0,
                                                    SQ_ALU_CONST_BUFFER_SIZE_VS_0, vs_resource_base, 160,
                                                    hw::vs_sampler_base};
   static constexpr StageRegisters pixel_registers{SQ_PGM_START_PS, SQ_PGM_RESOURCES_PS, "SQ_PGM_START_PS", ps_loop_const,
                                                   hw::reg::SQ_PSTMP_RING_BASE, hw::reg::SQ_PSTMP_RING_SIZE,
                                                   hw::reg::SQ_PSTMP_RING_ITEMSIZE, SQ_ALU_CONST_CACHE_PS_0,
                                                   SQ_ALU_CONST_BUFFER_SIZE_PS_0, ps_resource_base, 176,
                                                   hw::ps_sampler_base};
   static constexpr StageRegisters export_registers{0x2888C, 0x28890, "SQ_PGM_START_ES", 96, 0x8C50, 0x8C54, 0x28908,
                                                    SQ_ALU_CONST_CACHE_VS_0, SQ_ALU_CONST_BUFFER_SIZE_VS_0,
                                                    vs_resource_base, 160, hw::vs_sampler_base};
   static constexpr StageRegisters geometry_registers{0x28874, 0x28878, "SQ_PGM_START_GS", 64, 0x8C58, 0x8C5C, 0x2890C,
                                                      0x289C0, 0x281C0, 336, 160, 36};
   if (stage == ShaderStage::Compute)
      return "setup_stage: compute dispatches are set up by the command processor";
   const StageRegisters &r = stage == ShaderStage::Vertex   ? vertex_registers
                             : stage == ShaderStage::Pixel  ? pixel_registers
                             : stage == ShaderStage::Export ? export_registers
                                                            : geometry_registers;
   const bool vertex = stage == ShaderStage::Vertex || stage == ShaderStage::Export; /* calls the fetch shader */
   out.isa = state.isa;
   out.stage = stage;
   out.tiling = state.tiling;
   out.wave_size = state.wave_size;
   const uint32_t start = state.get(r.start);
   const uint32_t resources = state.get(r.resources);
   out.program_address = uint64_t(start) << 8;
   out.num_gprs = resources & 0xff;
   out.stack_size = (resources >> 8) & 0xff;
   if (r.loop_const >= state.loop_consts->size())
      return "the loop constant window does not reach this stage's constants";
   out.loop_count = (*state.loop_consts)[r.loop_const] & 0xfff;
   /* The stage's scratch ring (docs/sim-semantics.md, "Scratch"). */
   out.scratch = {uint64_t(state.get(r.tmp_base)) << 8, uint64_t(state.get(r.tmp_size)) << 8,
                  state.get(r.tmp_itemsize) & 0x7fff};
   auto load_program = [&](uint64_t address, std::vector<uint32_t> &words, const char *what) -> std::string {
      const uint64_t available = std::min<uint64_t>(memory.bytes_after(address), 1u << 24);
      if (available < 8)
         return std::string(what) + " points outside every buffer";
      std::string error;
      const uint8_t *code = memory.resolve(address, available, error);
      if (!code)
         return error;
      words.resize(available / 4);
      std::memcpy(words.data(), code, available & ~uint64_t(3));
      return {};
   };
   std::string error = load_program(out.program_address, out.program, r.start_name);
   if (!error.empty())
      return error;
   if (vertex) {
      const uint32_t fetch_start = state.get(SQ_PGM_START_FS);
      if (fetch_start) {
         out.fetch_shader_address = uint64_t(fetch_start) << 8;
         error = load_program(out.fetch_shader_address, out.fetch_shader, "SQ_PGM_START_FS");
         if (!error.empty())
            return error;
      }
   }
   const uint32_t cache = r.const_cache, sizes = r.const_sizes;
   for (unsigned b = 0; b < 16; b++) {
      const uint32_t size = state.get(sizes + 4 * b);
      if (size)
         out.constant_buffers[b] = {true, uint64_t(state.get(cache + 4 * b)) << 8, uint64_t(size) * 256};
   }
   auto add_resources = [&](unsigned base, unsigned count, unsigned key) {
      for (unsigned id = 0; id < count; id++) {
         const uint32_t *words = &(*state.resources)[size_t(base + id) * 8];
         if ((base + id + 1) * 8 > state.resources->size())
            break;
         const uint32_t type = hw::reg::resource_type(words[7]);
         if (type == 3) {
            out.fetch_resources[key + id] = decode_fetch_resource(words);
         } else if (type == hw::texture_resource_type_valid_texture && key < fetch_shader_resource_key) {
            TextureBinding binding;
            std::copy(words, words + 8, binding.words.begin());
            binding.resource = hw::decode_texture_resource(binding.words, state.isa);
            out.textures[id] = binding;
         }
      }
   };
   /* A pixel shader's window is 176 resources (0-175; the vertex shader's starts at 176); r600g
    * puts its RAT return buffers at 160-167 (R600_IMAGE_IMMED_RESOURCE_OFFSET). */
   add_resources(r.resource_base, r.resource_count, 0);
   if (stage == ShaderStage::Pixel)
      add_pixel_shader_rats(state, memory, out);
   if (vertex)
      add_resources(fs_resource_base, 16, fetch_shader_resource_key);
   const unsigned sampler_base = r.sampler_base;
   for (unsigned id = 0; id < 18; id++) {
      const uint32_t *words = &(*state.samplers)[size_t(sampler_base + id) * 3];
      SamplerBinding binding;
      std::copy(words, words + 3, binding.words.begin());
      binding.sampler = hw::decode_sampler(binding.words, state.isa);
      if (state.border_colours)
         if (const auto colour = state.border_colours->find(sampler_base + id); colour != state.border_colours->end())
            binding.border = colour->second;
      out.samplers[id] = binding;
   }
   return {};
}

std::string run_draw(const PipelineState &state, const DrawCall &call, GpuMemory &memory, TraceLevel trace,
                     DispatchStatistics &totals, DrawStatistics &statistics)
{
   /* Registers the blocks below do not read, holding values that would change the picture. */
   if (std::string refused = check_unmodelled_state(state); !refused.empty())
      return refused;
   try {
      Draw(state, call, memory, trace, totals, statistics).run();
   } catch (const SimulatorFault &failure) {
      return failure.message;
   }
   return {};
}

} // namespace terakan::sim
