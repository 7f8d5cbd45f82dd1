/* VK_EXT_conservative_rasterization (OVERESTIMATE) in the driver: the pipeline's extra programs
 * and the three passes of a draw (terakan_conservative_draw.h; docs/architecture.md,
 * "Conservative rasterization").
 *
 * Why streamout for the capture: the VGT already assembles the application's primitives
 * (indices, primitive restart, instancing, base vertex and instance, strips and fans as
 * independent triangles in their winding) and writes them to memory before clipping, so the
 * capture is the application's own draw with a vertex shader that has four more exports per
 * output; a compute copy of the vertex shader would need vertex fetch in compute shaders and
 * the index, restart and instance logic written again. */
#include "terakan_conservative_draw.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>

#include "terakan_conservative_shader.h"
#include "terakan_meta.h"

#include "compiler/nir_shaders.h"
#include "hw/graphics_registers.h"
#include "hw/pm4.h"
#include "hw/registers.h"
#include "hw/streamout.h"

namespace cr = terakan::conservative;
namespace pm4 = terakan::hw::pm4;
namespace reg = terakan::hw::reg;
namespace gfx = terakan::hw::gfx;
namespace so = terakan::hw::streamout;
using terakan::compiler::ShaderStage;
using terakan::winsys::CommandStream;
using terakan::winsys::RadeonBo;

/* The construction compiles for up to 16 captured varyings (docs/status.md). */
static constexpr unsigned max_captured_varyings = 16;
/* The fan buffer of one draw (15 vertices per triangle) stays below this; larger draws are
 * refused rather than allocated without bound. */
static constexpr uint64_t max_fan_bytes = 64ull << 20;

int terakan_conservative_edge_location(const terakan_graphics_pipeline &g)
{
   /* Above every location the vertex stage writes, so that the pass-through shader exports
    * the pipeline's parameters first, in the same order, and the edges after them. */
   int first = 0;
   for (unsigned location : g.vertex.binary.graphics.param_locations)
      if (location != ~0u)
         first = std::max(first, int(location) + 1);
   return first + 3 <= 32 ? first : -1;
}

static bool is_triangle_topology(uint32_t topology)
{
   return topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST || topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP ||
          topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN;
}

VkResult terakan_conservative_check_state(terakan_device *device, const terakan_graphics_pipeline &g)
{
   const vk_graphics_pipeline_state &s = g.state;
   if (BITSET_TEST(s.dynamic, MESA_VK_DYNAMIC_RS_CONSERVATIVE_MODE))
      return terakan_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT,
                            "terakan: a dynamic conservative rasterization mode is not supported");
   if (!s.rs || s.rs->conservative_mode == VK_CONSERVATIVE_RASTERIZATION_MODE_DISABLED_EXT)
      return VK_SUCCESS;
   if (s.rs->conservative_mode != VK_CONSERVATIVE_RASTERIZATION_MODE_OVERESTIMATE_EXT)
      return terakan_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT,
                            "terakan: conservative rasterization mode %d is not supported (overestimation is)",
                            s.rs->conservative_mode);
   if (BITSET_TEST(s.dynamic, MESA_VK_DYNAMIC_RS_POLYGON_MODE) || s.rs->polygon_mode != VK_POLYGON_MODE_FILL)
      return terakan_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT,
                            "terakan: conservative rasterization is drawn in polygon mode FILL only");
   if (s.ia && !BITSET_TEST(s.dynamic, MESA_VK_DYNAMIC_IA_PRIMITIVE_TOPOLOGY) &&
       !is_triangle_topology(s.ia->primitive_topology))
      return terakan_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT,
                            "terakan: conservative rasterization of points and lines is not supported "
                            "(conservativePointAndLineRasterization is off)");
   if (BITSET_TEST(s.dynamic, MESA_VK_DYNAMIC_MS_RASTERIZATION_SAMPLES))
      return terakan_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT,
                            "terakan: conservative rasterization with a dynamic sample count is not supported");
   return VK_SUCCESS;
}

/* The pass-through vertex shader: input 0 is the position, input k + 1 the varying the
 * application's vertex shader exports as parameter k (at its location, so that the semantics
 * the pixel shader reads are the same). */
static nir_shader *pass_through_shader(std::vector<unsigned> locations, int edges)
{
   if (edges >= 0)
      for (unsigned e = 0; e < cr::edge_output_count; e++)
         locations.push_back(unsigned(edges) + e);
   nir_builder b = terakan::compiler::begin_graphics_nir(ShaderStage::Vertex, "terakan conservative pass-through");
   for (unsigned i = 0; i <= locations.size(); i++) {
      nir_variable *in = nir_variable_create(b.shader, nir_var_shader_in, glsl_vec4_type(), "captured");
      in->data.location = VERT_ATTRIB_GENERIC0 + i;
      nir_variable *out = nir_variable_create(b.shader, nir_var_shader_out, glsl_vec4_type(), "out");
      out->data.location = i == 0 ? int(VARYING_SLOT_POS) : int(VARYING_SLOT_VAR0 + locations[i - 1]);
      nir_store_var(&b, out, nir_load_var(&b, in), 0xf);
   }
   return b.shader;
}

VkResult terakan_conservative_finish(terakan_device *device, terakan_graphics_pipeline &g)
{
   terakan_conservative &c = *g.conservative;
   const terakan::compiler::GraphicsInterface &vs = g.vertex.binary.graphics, &ps = g.fragment.binary.graphics;
   if (ps.uses_vertex_order)
      return terakan_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT,
                            "terakan: conservative rasterization with BaryCoordKHR or PerVertexKHR inputs is not "
                            "supported");
   /* The capture keeps only the position and the varyings. */
   if (vs.pa_cl_vs_out_cntl & gfx::vs_out_distance_enables)
      return terakan_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT,
                            "terakan: conservative rasterization with clip or cull distances is not supported");
   /* It does not keep the viewport index either. */
   if (vs.pa_cl_vs_out_cntl & gfx::vs_out_use_viewport_index)
      return terakan_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT,
                            "terakan: conservative rasterization with a ViewportIndex output is not supported");
   if (vs.pa_cl_vs_out_cntl & gfx::vs_out_use_render_target_index)
      return terakan_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT,
                            "terakan: conservative rasterization with a Layer output is not supported");
   std::vector<unsigned> locations;
   for (unsigned location : vs.param_locations)
      if (location != ~0u)
         locations.push_back(location);
   if (locations.size() > max_captured_varyings)
      return terakan_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT,
                            "terakan: conservative rasterization of a vertex shader with %zu varyings (at most %u)",
                            locations.size(), max_captured_varyings);
   c.attributes = unsigned(locations.size());
   /* NoPerspective varyings: extrapolated screen-linearly. */
   for (unsigned k = 0; k < locations.size(); k++)
      if (locations[k] < 32 && (ps.noperspective_inputs >> locations[k] & 1))
         c.linear_mask |= 1u << k;
   /* Flat varyings: the pixel shader's inputs loaded with FLAT_SHADE (SPI_PS_INPUT_CNTL [10]). */
   for (size_t n = 0; n < ps.input_locations.size() && n < ps.spi_ps_input_cntl.size(); n++) {
      if (!(ps.spi_ps_input_cntl[n] & (1u << 10)))
         continue;
      for (unsigned k = 0; k < locations.size(); k++)
         if (locations[k] == ps.input_locations[n])
            c.flat_mask |= 1u << k;
   }
   /* extraPrimitiveOverestimationSize, rounded down to the granularity Terakan reports (one
    * step of the 1/256 grid the polygon is snapped to) and limited to the maximum. */
   c.extra_size = std::clamp(std::floor(g.state.rs->extra_primitive_overestimation_size * 256.0f) / 256.0f, 0.0f,
                             terakan_conservative_max_extra_size);

   if (c.edges >= 0 && c.attributes + cr::edge_output_count > max_captured_varyings)
      return terakan_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT,
                            "terakan: multisampled conservative rasterization of a vertex shader with %u varyings "
                            "(at most %u)",
                            c.attributes, max_captured_varyings - cr::edge_output_count);
   VkResult result =
      terakan_meta_build_stage(device, pass_through_shader(locations, c.edges), ShaderStage::Vertex, c.pass_through);
   if (result != VK_SUCCESS)
      return result;
   /* The pass-through shader exports the pipeline's parameters (and the edges after them). */
   const std::vector<uint8_t> &exported = c.pass_through.binary.graphics.param_semantics;
   if (exported.size() < locations.size() ||
       !std::equal(vs.param_semantics.begin(), vs.param_semantics.begin() + locations.size(), exported.begin()) ||
       c.capture.binary.graphics.param_semantics != vs.param_semantics)
      return terakan_errorf(device, VK_ERROR_UNKNOWN,
                            "terakan: internal: the conservative draw's vertex shaders export other parameters "
                            "than the pipeline's");

   terakan::compiler::CompileOptions options;
   options.family = device->physical->pci->family;
   options.debug = terakan::compiler::debug_options_from_environment();
   std::string error;
   if (!terakan::compiler::compile_compute_nir(cr::build_polygon_shader(c.attributes, c.edges >= 0), options,
                                               c.construction, error))
      return terakan_errorf(device, VK_ERROR_UNKNOWN,
                            "terakan: the conservative-rasterization construction does not compile: %s", error.c_str());
   result = terakan_upload_code(device, c.construction.code, c.construction_code);
   if (result != VK_SUCCESS)
      return result;
   /* Indirect draws: the count pass. */
   if (!terakan::compiler::compile_compute_nir(cr::build_count_shader(), options, c.count, error))
      return terakan_errorf(device, VK_ERROR_UNKNOWN,
                            "terakan: the conservative-rasterization count pass does not compile: %s", error.c_str());
   result = terakan_upload_code(device, c.count.code, c.count_code);
   if (result != VK_SUCCESS || !c.flat_mask)
      return result;
   /* Flat varyings of fans and strips: the provoking-vertex pass (terakan_conservative_shader.h). */
   if (!terakan::compiler::compile_compute_nir(cr::build_provoking_shader(c.attributes), options, c.provoking, error))
      return terakan_errorf(device, VK_ERROR_UNKNOWN,
                            "terakan: the conservative-rasterization provoking-vertex pass does not compile: %s",
                            error.c_str());
   return terakan_upload_code(device, c.provoking.code, c.provoking_code);
}

void terakan_conservative_destroy(terakan_conservative *conservative)
{
   if (!conservative)
      return;
   for (terakan_graphics_stage *stage : {&conservative->capture, &conservative->pass_through}) {
      delete stage->variants;
      terakan_destroy_code_store(stage->code_store);
      delete stage->code_bo;
   }
   delete conservative->construction_code;
   delete conservative->provoking_code;
   delete conservative->count_code;
   delete conservative;
}

uint64_t terakan_conservative_triangles(VkPrimitiveTopology topology, uint32_t count)
{
   if (topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST)
      return count / 3;
   return count >= 3 ? count - 2 : 0; /* strips and fans (restart makes fewer) */
}

static uint32_t float_bits(float value)
{
   uint32_t bits;
   std::memcpy(&bits, &value, 4);
   return bits;
}

/* Pass 1 around the application's draw: streamout of every assembled triangle into
 * `capture`, rasterization killed (PA_CL_CLIP_CNTL.DX_RASTERIZATION_KILL), as r600g programs
 * transform feedback with rasterizer discard (Mesa r600_streamout.c: the buffer registers,
 * STRMOUT_BUFFER_UPDATE with the offset from the packet, and at the end the VGT streamout flush
 * waited for through CP_STRMOUT_CNTL.OFFSET_UPDATE_DONE; registers in hw/streamout.h). */
static void emit_capture_begin(CommandStream &cs, RadeonBo &bo, uint64_t offset, uint64_t bytes, unsigned vec4s)
{
   cs.context_registers(gfx::PA_CL_CLIP_CNTL, {gfx::clip_cntl_dx_clip_space | so::clip_cntl_rasterization_kill}, false);
   cs.context_registers(so::VGT_STRMOUT_BUFFER_SIZE_0, {uint32_t(bytes / 4), 4 * vec4s, uint32_t(offset >> 8)}, false);
   cs.relocation(bo); /* BUFFER_BASE_0 */
   cs.context_registers(so::VGT_STRMOUT_BUFFER_CONFIG, {1}, false); /* stream 0 writes buffer 0 */
   cs.context_registers(so::VGT_STRMOUT_CONFIG, {1}, false);        /* STREAMOUT_0_EN */
   cs.packet(pm4::STRMOUT_BUFFER_UPDATE, 5);
   cs.emit(uint32_t(so::from_packet) << 1); /* buffer 0, offset 0 from dword 3 */
   cs.emit(0);
   cs.emit(0);
   cs.emit(0);
   cs.emit(0);
}

/* `filled_bo`: where the buffer's filled size (dwords) is stored once the VGT is done, as
 * r600g ends transform feedback (STRMOUT_BUFFER_UPDATE with STORE_BUFFER_FILLED_SIZE and no new
 * offset, after the flush). */
static void emit_capture_end(CommandStream &cs, RadeonBo *filled_bo = nullptr, uint64_t filled_offset = 0)
{
   cs.config_registers(so::CP_STRMOUT_CNTL, {0});
   cs.packet(pm4::EVENT_WRITE, 1);
   cs.emit(so::event_so_vgtstreamout_flush);
   cs.packet(pm4::WAIT_REG_MEM, 6);
   cs.emit(pm4::wait_reg_mem::FUNCTION_EQUAL); /* a register */
   cs.emit(so::CP_STRMOUT_CNTL >> 2);
   cs.emit(0);
   cs.emit(so::CP_STRMOUT_CNTL_OFFSET_UPDATE_DONE);
   cs.emit(so::CP_STRMOUT_CNTL_OFFSET_UPDATE_DONE);
   cs.emit(4); /* poll interval */
   if (filled_bo) {
      cs.packet(pm4::STRMOUT_BUFFER_UPDATE, 5);
      cs.emit(so::update_store_filled_size | (uint32_t(so::source_none) << 1)); /* buffer 0 */
      cs.emit(uint32_t(filled_offset));
      cs.emit(uint32_t(filled_offset >> 32) & 0xff);
      cs.emit(0);
      cs.emit(0);
      cs.relocation(*filled_bo);
   }
   cs.context_registers(so::VGT_STRMOUT_CONFIG, {0, 0}, false);
   cs.context_registers(so::VGT_STRMOUT_BUFFER_SIZE_0, {0}, false);
   terakan_emit_full_barrier(cs);
}

/* A range of an upload buffer. */
struct Range {
   RadeonBo *bo;
   uint64_t offset, bytes;
};

/* The driver constants (the second 256 bytes at `constants`) of a pass: the group counts and
 * the two slots' sizes. */
static void fill_driver_constants(uint8_t *constants, uint32_t groups, const Range &input, const Range &output)
{
   uint8_t *driver = constants + 256;
   const uint32_t grid[3] = {groups, 1, 1};
   std::memcpy(driver, grid, sizeof(grid));
   const uint64_t ranges[2] = {input.bytes, output.bytes};
   for (unsigned slot = 0; slot < 2; slot++) {
      const uint32_t size = uint32_t(ranges[slot]);
      const uint32_t last_dword = size / 4 - 1;
      std::memcpy(driver + 4 * (terakan::compiler::storage_buffer_size_constants + slot), &size, 4);
      std::memcpy(driver + 4 * (terakan::compiler::storage_buffer_last_dword_constants + slot), &last_dword, 4);
   }
}

/* Where a pass's group counts come from: `groups` on the CPU, or DISPATCH_INDIRECT's three
 * dwords at `bo` + `offset`. */
struct Groups {
   uint32_t groups = 0;
   RadeonBo *bo = nullptr;
   uint64_t offset = 0;
};

/* One compute pass with the driver's compute ABI (push constants in constant buffer 0 at
 * `constants`, its driver constants in buffer 1 256 bytes after, `input` through fetch
 * resource 0, `output` through RAT 1), as the query copy dispatches; a full barrier after
 * it. */
static void emit_dispatch(CommandStream &cs, const terakan::compiler::ShaderBinary &binary, RadeonBo &code,
                          unsigned group_size, RadeonBo &constants_bo, uint64_t constants_offset, const Range &input,
                          const Range &output, const Groups &groups)
{
   cs.config_registers(reg::VGT_COMPUTE_START_X, {0, 0, 0});
   terakan_emit_compute_fetch_resource(cs, cr::input_slot, *input.bo, input.offset, input.bytes);
   terakan_emit_compute_rat(cs, cr::output_slot, *output.bo, output.offset, output.bytes);
   cs.context_registers(reg::CB_TARGET_MASK, {0xfu << (4 * cr::output_slot)});
   cs.context_registers(reg::SQ_ALU_CONST_BUFFER_SIZE_LS_0, {1, 1});
   cs.context_registers(reg::SQ_ALU_CONST_CACHE_LS_0,
                        {uint32_t(constants_offset >> 8), uint32_t((constants_offset + 256) >> 8)});
   cs.relocation(constants_bo);
   cs.relocation(constants_bo);
   cs.context_registers(reg::SQ_PGM_START_LS, {0, binary.gprs | (binary.stack_entries << 8), 0});
   cs.relocation(code);
   cs.context_registers(reg::SPI_COMPUTE_INPUT_CNTL, {7}); /* local ids in R0, group ids in R1 */
   cs.context_registers(reg::SPI_COMPUTE_NUM_THREAD_X, {group_size, 1, 1});
   cs.context_registers(reg::SQ_LDS_ALLOC, {((binary.lds_bytes + 3) / 4) | ((group_size + 63) / 64 << 14)});
   if (groups.bo) {
      cs.packet(pm4::DISPATCH_INDIRECT, 2, true);
      cs.emit(uint32_t(groups.offset));
      cs.emit(pm4::DISPATCH_INITIATOR_COMPUTE_SHADER_EN);
      cs.relocation(*groups.bo);
   } else {
      cs.packet(pm4::DISPATCH_DIRECT, 4, true);
      cs.emit(groups.groups);
      cs.emit(1);
      cs.emit(1);
      cs.emit(pm4::DISPATCH_INITIATOR_COMPUTE_SHADER_EN);
   }
   terakan_emit_full_barrier(cs);
}

/* One of the conservative draw's passes over `triangles` triangles (counted on the CPU). */
static bool emit_pass(terakan_cmd_buffer *cmd, const terakan::compiler::ShaderBinary &binary, RadeonBo &code,
                      const uint32_t (&push)[cr::polygon_constant_count], uint32_t triangles, const Range &input,
                      const Range &output)
{
   RadeonBo *constants_bo;
   uint64_t constants_offset;
   uint8_t *constants = terakan_cmd_upload(cmd, 512, 256, constants_bo, constants_offset);
   if (!constants)
      return false;
   std::memset(constants, 0, 512);
   std::memcpy(constants, push, sizeof(push));
   const uint32_t groups = (triangles + cr::group_size - 1) / cr::group_size;
   fill_driver_constants(constants, groups, input, output);
   emit_dispatch(terakan_cmd_stream(cmd), binary, code, cr::group_size, *constants_bo, constants_offset, input, output,
                 {groups});
   return true;
}

/* The constants of both passes for this draw. */
static void fill_constants(const terakan_cmd_buffer *cmd, const terakan_conservative &c,
                           const struct vk_dynamic_graphics_state &dyn, uint32_t triangles, bool strip,
                           uint32_t strip_period, uint32_t (&push)[cr::polygon_constant_count])
{
   std::fill(std::begin(push), std::end(push), 0u);
   push[cr::triangle_count] = triangles;
   push[cr::flat_mask] = c.flat_mask;
   push[cr::linear_mask] = c.linear_mask;
   push[cr::extra_size] = float_bits(c.extra_size);
   /* The viewport as the draw programs PA_CL_VPORT_* (terakan_cmd_draw.cpp). */
   const VkViewport vp = dyn.vp.viewport_count ? dyn.vp.viewports[0] : VkViewport{0, 0, 1, 1, 0, 1};
   push[cr::scale_x] = float_bits(vp.width / 2);
   push[cr::scale_y] = float_bits(vp.height / 2);
   push[cr::offset_x] = float_bits(vp.x + vp.width / 2);
   push[cr::offset_y] = float_bits(vp.y + vp.height / 2);
   /* Nothing is drawn outside the scissor and the attachments: the polygons stop there. */
   const VkExtent2D extent = cmd->rendering.extent;
   int64_t x0 = 0, y0 = 0, x1 = extent.width, y1 = extent.height;
   if (dyn.vp.scissor_count) {
      const VkRect2D &s = dyn.vp.scissors[0];
      x0 = std::max<int64_t>(x0, s.offset.x);
      y0 = std::max<int64_t>(y0, s.offset.y);
      x1 = std::min<int64_t>(x1, int64_t(s.offset.x) + s.extent.width);
      y1 = std::min<int64_t>(y1, int64_t(s.offset.y) + s.extent.height);
   }
   push[cr::clamp_x0] = float_bits(float(x0));
   push[cr::clamp_y0] = float_bits(float(y0));
   push[cr::clamp_x1] = float_bits(float(std::max(x0, x1)));
   push[cr::clamp_y1] = float_bits(float(std::max(y0, y1)));
   /* With several samples every sample of a touched pixel must be inside: a whole pixel, and
    * the pixel shader discards what that adds. */
   push[cr::push_out] = float_bits(c.edges >= 0 ? cr::push_out_multisample : cr::push_out_single_sample);
   push[cr::provoking_second] = dyn.ia.primitive_topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN;
   push[cr::strip_triangles] = strip;
   push[cr::strip_period] = strip_period;
}

/* Pass 3's state: the fans drawn by the pass-through shader with the application's pixel
 * shader and state, near and far clipping off (beside a steep sliver the extrapolated depth
 * leaves [0, 1] within the half pixel; the DB clamps depth to the viewport's range). The draw
 * packet is the caller's; null when the draw was refused. */
static CommandStream *begin_fans(terakan_cmd_buffer *cmd, const terakan_draw_setup &setup, RadeonBo *fan_bo,
                                 uint64_t fan_offset, unsigned fan_vec4s)
{
   CommandStream &cs = terakan_cmd_stream(cmd);
   terakan_draw_setup fans = setup;
   fans.vertex_stage = &setup.pipeline->conservative->pass_through;
   fans.fan_bo = fan_bo;
   fans.fan_offset = fan_offset;
   fans.fan_vec4s = fan_vec4s;
   fans.primitive_type = gfx::TriangleList;
   fans.indirect_bo = nullptr;
   if (!terakan_emit_draw_state(cmd, cs, fans, 0, 0, false))
      return nullptr;
   cs.context_registers(gfx::PA_CL_CLIP_CNTL,
                        {gfx::clip_cntl_dx_clip_space | gfx::clip_cntl_zclip_near_disable |
                         gfx::clip_cntl_zclip_far_disable},
                        false);
   return &cs;
}

bool terakan_conservative_draw(terakan_cmd_buffer *cmd, const terakan_draw_setup &setup,
                               uint32_t first_vertex_or_offset, uint32_t first_instance, bool indexed,
                               uint32_t count, uint32_t instances,
                               const std::function<void(CommandStream &)> &emit_draw)
{
   const terakan_conservative &c = *setup.pipeline->conservative;
   const struct vk_dynamic_graphics_state &dyn = *setup.dynamic;
   const VkPrimitiveTopology topology = VkPrimitiveTopology(dyn.ia.primitive_topology);
   if (!is_triangle_topology(topology)) {
      terakan_cmd_fail(cmd, VK_ERROR_FEATURE_NOT_PRESENT,
                       "conservative rasterization of points and lines is not supported");
      return false;
   }
   const bool strip = topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
   const uint64_t per_instance = terakan_conservative_triangles(topology, count);
   const uint64_t triangles = per_instance * instances;
   if (strip && c.flat_mask && indexed && dyn.ia.primitive_restart_enable) {
      /* Which strip triangles are odd (their provoking vertex captured second) depends on
       * where the restarts fall, which only the GPU sees (each instance starts a strip of its
       * own: the provoking-vertex pass counts parity per instance). */
      terakan_cmd_fail(cmd, VK_ERROR_FEATURE_NOT_PRESENT,
                       "conservative rasterization of triangle strips with flat varyings is supported without "
                       "primitive restart only");
      return false;
   }
   if (dyn.rs.rasterizer_discard_enable || !triangles) {
      /* Nothing reaches the rasterizer: the ordinary draw does what the application sees. */
      CommandStream &cs = terakan_cmd_stream(cmd);
      if (!terakan_emit_draw_state(cmd, cs, setup, first_vertex_or_offset, first_instance, indexed))
         return false;
      emit_draw(cs);
      return true;
   }
   const unsigned vec4s = 1 + c.attributes;
   const unsigned fan_vec4s = vec4s + (c.edges >= 0 ? cr::edge_output_count : 0);
   const uint64_t capture_bytes = triangles * 3 * 16 * vec4s;
   const uint64_t fan_bytes = triangles * cr::output_vertices_per_triangle * 16 * fan_vec4s;
   if (triangles > max_fan_bytes || fan_bytes > max_fan_bytes) {
      terakan_cmd_fail(cmd, VK_ERROR_FEATURE_NOT_PRESENT,
                       "a conservative draw of this many triangles is not supported (its fans would take more "
                       "than 64 MiB)");
      return false;
   }
   RadeonBo *capture_bo, *fan_bo;
   uint64_t capture_offset, fan_offset;
   if (!terakan_cmd_upload(cmd, capture_bytes, 256, capture_bo, capture_offset) ||
       !terakan_cmd_upload(cmd, fan_bytes, 256, fan_bo, fan_offset))
      return false;
   /* Triangles the streamout does not write (strips cut by primitive restart make fewer than
    * counted) stay zero: w = 0, which the construction passes unchanged, and nothing is drawn. */
   terakan_cmd_fill(cmd, *capture_bo, capture_offset, capture_bytes, 0);

   /* Pass 1: the application's draw, captured. */
   {
      CommandStream &cs = terakan_cmd_stream(cmd);
      terakan_draw_setup capture = setup;
      capture.vertex_stage = &c.capture;
      if (!terakan_emit_draw_state(cmd, cs, capture, first_vertex_or_offset, first_instance, indexed))
         return false;
      emit_capture_begin(cs, *capture_bo, capture_offset, capture_bytes, vec4s);
      emit_draw(cs);
      emit_capture_end(cs);
   }
   /* Pass 2: the fans, after the provoking vertices' flat attributes were moved first where the
    * VGT captured them second. */
   uint32_t push[cr::polygon_constant_count];
   fill_constants(cmd, c, dyn, uint32_t(triangles), strip, uint32_t(per_instance), push);
   const Range capture_range = {capture_bo, capture_offset, capture_bytes};
   if (c.provoking_code && (strip || topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN) &&
       !emit_pass(cmd, c.provoking, *c.provoking_code, push, uint32_t(triangles), capture_range, capture_range))
      return false;
   if (!emit_pass(cmd, c.construction, *c.construction_code, push, uint32_t(triangles), capture_range,
                  {fan_bo, fan_offset, fan_bytes}))
      return false;
   /* Pass 3: the fans. */
   CommandStream *cs = begin_fans(cmd, setup, fan_bo, fan_offset, fan_vec4s);
   if (!cs)
      return false;
   cs->packet(pm4::NUM_INSTANCES, 1);
   cs->emit(1);
   terakan_draw_packet(cmd, *cs, pm4::DRAW_INDEX_AUTO, 2, false);
   cs->emit(uint32_t(triangles * cr::output_vertices_per_triangle));
   cs->emit(2); /* SOURCE_SELECT 2: auto index */
   return true;
}

/* ---- indirect draws ---- */

/* The memory an indirect conservative draw may use for its capture and its fans, which bounds
 * the triangles it can draw (its capacity): 32 MiB, about 58,000 triangles with one varying,
 * 6,800 with sixteen. Every indirect conservative draw of a command buffer reuses it. */
static constexpr uint64_t indirect_scratch_bytes = 32ull << 20;

/* The triangles an indirect draw with these vertex sizes may make: what fits in the scratch
 * besides one more captured triangle (the sign of an overflow), or fewer when
 * TERAKAN_CONSERVATIVE_CAPACITY says so (the tests reach the edge with it). */
static uint32_t indirect_capacity(unsigned vec4s, unsigned fan_vec4s)
{
   const uint64_t captured = 3 * 16 * vec4s, built = cr::output_vertices_per_triangle * 16 * fan_vec4s;
   uint64_t capacity = (indirect_scratch_bytes - captured - 512) / (captured + built);
   if (const char *text = std::getenv("TERAKAN_CONSERVATIVE_CAPACITY")) {
      char *end = nullptr;
      const unsigned long long wanted = std::strtoull(text, &end, 10);
      if (end != text && !*end && wanted > 0)
         capacity = std::min<uint64_t>(capacity, wanted);
   }
   return uint32_t(capacity);
}

static uint64_t align_up(uint64_t value, uint64_t alignment)
{
   return (value + alignment - 1) / alignment * alignment;
}

bool terakan_conservative_draw_indirect(terakan_cmd_buffer *cmd, const terakan_draw_setup &setup, bool indexed,
                                        const std::function<void(CommandStream &)> &emit_draw)
{
   const terakan_conservative &c = *setup.pipeline->conservative;
   const struct vk_dynamic_graphics_state &dyn = *setup.dynamic;
   const VkPrimitiveTopology topology = VkPrimitiveTopology(dyn.ia.primitive_topology);
   if (!is_triangle_topology(topology)) {
      terakan_cmd_fail(cmd, VK_ERROR_FEATURE_NOT_PRESENT,
                       "conservative rasterization of points and lines is not supported");
      return false;
   }
   const bool strip = topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
   if (strip && c.flat_mask && indexed && dyn.ia.primitive_restart_enable) {
      /* Which strip triangles are odd depends on where the restarts fall (the count pass gives
       * the provoking-vertex pass the triangles per instance from the record, no more). */
      terakan_cmd_fail(cmd, VK_ERROR_FEATURE_NOT_PRESENT,
                       "conservative rasterization of triangle strips with flat varyings is supported without "
                       "primitive restart only");
      return false;
   }
   if (dyn.rs.rasterizer_discard_enable) {
      /* Nothing reaches the rasterizer: the ordinary draw does what the application sees. */
      CommandStream &cs = terakan_cmd_stream(cmd);
      if (!terakan_emit_draw_state(cmd, cs, setup, 0, 0, indexed))
         return false;
      emit_draw(cs);
      return true;
   }
   const unsigned vec4s = 1 + c.attributes;
   const unsigned fan_vec4s = vec4s + (c.edges >= 0 ? cr::edge_output_count : 0);
   const uint32_t capacity = indirect_capacity(vec4s, fan_vec4s);
   const uint64_t triangle_bytes = 3 * 16 * vec4s;
   const uint64_t capture_bytes = (uint64_t(capacity) + 1) * triangle_bytes; /* one more: see the block */
   const uint64_t fan_bytes = uint64_t(capacity) * cr::output_vertices_per_triangle * 16 * fan_vec4s;
   const uint64_t scratch_bytes = align_up(capture_bytes, 256) + fan_bytes;

   /* The scratch, shared by the command buffer's indirect conservative draws (grown when a
    * draw needs more: TERAKAN_CONSERVATIVE_CAPACITY can make it small). */
   auto &scratch = cmd->conservative_scratch;
   if (!scratch.bo || scratch.bytes < scratch_bytes) {
      if (!terakan_cmd_upload(cmd, scratch_bytes, 256, scratch.bo, scratch.offset)) {
         scratch = {};
         return false;
      }
      scratch.bytes = scratch_bytes;
   }
   const Range capture = {scratch.bo, scratch.offset, capture_bytes};
   const Range fans = {scratch.bo, scratch.offset + align_up(capture_bytes, 256), fan_bytes};

   /* The block the count pass fills (terakan_conservative_shader.h) and the count pass's own
    * constants. The block's driver constants give the construction's slot sizes; the
    * provoking-vertex pass, which writes the capture in place, reads the same ones (its RAT
    * covers the capture alone). */
   RadeonBo *block_bo, *count_bo;
   uint64_t block_offset, count_offset;
   uint8_t *block = terakan_cmd_upload(cmd, cr::indirect_block_bytes, 256, block_bo, block_offset);
   if (!block)
      return false;
   uint8_t *count_constants = terakan_cmd_upload(cmd, 512, 256, count_bo, count_offset);
   if (!count_constants)
      return false;
   std::memset(block, 0, cr::indirect_block_bytes);
   uint32_t push[cr::polygon_constant_count];
   fill_constants(cmd, c, dyn, 0, strip, 0, push); /* triangle_count, strip_period: the count pass's */
   std::memcpy(block, push, sizeof(push));
   fill_driver_constants(block, 0, capture, fans);
   const Range filled = {block_bo, block_offset + cr::indirect_filled_size, 16};
   const Range written = {block_bo, block_offset, cr::indirect_block_bytes};
   std::memset(count_constants, 0, 512);
   const uint32_t count_push[cr::count_constant_count] = {uint32_t(triangle_bytes / 4), capacity};
   std::memcpy(count_constants, count_push, sizeof(count_push));
   fill_driver_constants(count_constants, 1, filled, written);

   /* Pass 1: the application's indirect draw, captured; the streamout's filled size stored,
    * and the record's vertex (index) count copied beside it (both draw records start with it). */
   {
      CommandStream &cs = terakan_cmd_stream(cmd);
      terakan_emit_cp_dma_copy(cs, *setup.indirect_bo, setup.indirect_offset, *block_bo,
                               block_offset + cr::indirect_vertex_count, 4, true);
      terakan_draw_setup captured = setup;
      captured.vertex_stage = &c.capture;
      if (!terakan_emit_draw_state(cmd, cs, captured, 0, 0, indexed))
         return false;
      emit_capture_begin(cs, *capture.bo, capture.offset, capture.bytes, vec4s);
      emit_draw(cs);
      emit_capture_end(cs, block_bo, block_offset + cr::indirect_filled_size);
   }
   /* Pass 2: the count, then the provoking-vertex pass and the construction over as many
    * triangles as were captured (at most the capacity). */
   const Groups indirect_groups = {0, block_bo, block_offset + cr::indirect_dispatch_arguments};
   emit_dispatch(terakan_cmd_stream(cmd), c.count, *c.count_code, 1, *count_bo, count_offset, filled, written, {1});
   if (c.provoking_code && (strip || topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN))
      emit_dispatch(terakan_cmd_stream(cmd), c.provoking, *c.provoking_code, cr::group_size, *block_bo, block_offset,
                    capture, capture, indirect_groups);
   emit_dispatch(terakan_cmd_stream(cmd), c.construction, *c.construction_code, cr::group_size, *block_bo,
                 block_offset, capture, fans, indirect_groups);
   /* Pass 3: the fans, as many vertices as the count pass wrote in the arguments. */
   CommandStream *cs = begin_fans(cmd, setup, fans.bo, fans.offset, fan_vec4s);
   if (!cs)
      return false;
   cs->packet(pm4::SET_BASE, 3);
   cs->emit(1); /* the draw-indirect argument base */
   cs->emit(0);
   cs->emit(0);
   cs->relocation(*block_bo);
   terakan_draw_packet(cmd, *cs, pm4::DRAW_INDIRECT, 2, false);
   cs->emit(uint32_t(block_offset + cr::indirect_draw_arguments));
   cs->emit(2); /* SOURCE_SELECT 2: auto index */
   cmd->conservative_checks.push_back(
      {reinterpret_cast<const uint32_t *>(block + cr::indirect_captured), capacity});
   return true;
}

bool terakan_conservative_check_capacity(const terakan_cmd_buffer *cmd, std::string &message)
{
   for (const auto &check : cmd->conservative_checks) {
      const uint32_t captured = *static_cast<const volatile uint32_t *>(check.captured);
      if (captured > check.capacity) {
         message = "an indirect draw with conservative rasterization made more triangles than the " +
                   std::to_string(check.capacity) +
                   " it can capture (docs/architecture.md, \"Conservative rasterization\"); its picture is wrong";
         return false;
      }
   }
   return true;
}
