/* The draw state the simulator's graphics tests share: the registers the driver's draws write
 * (terakan_cmd_draw.cpp) for one vertex and one pixel shader of Terakan's compiler, a viewport
 * and scissors over a target, and a linear 32_32_32_32_FLOAT colour target in CB_COLOR0, as
 * context and config register writes into an IbBuilder (pm4_harness.h). Each test adds what is
 * its own (vertex buffers, more colour targets, RATs, the draw packet) between or after the
 * pieces. */
#pragma once

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "compiler/compiler.h"
#include "hw/chips.h"
#include "hw/graphics_registers.h"
#include "hw/msaa.h"
#include "pm4_harness.h"

namespace terakan::test {

/* A SPIR-V module the build compiled from tests/sim/shaders (NAME.spv in TERAKAN_SIM_SHADERS). */
inline std::vector<uint32_t> read_sim_spirv(const std::string &name)
{
   const char *folder = std::getenv("TERAKAN_SIM_SHADERS");
   std::ifstream file(std::string(folder ? folder : ".") + "/" + name + ".spv", std::ios::binary);
   std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
   std::vector<uint32_t> words(bytes.size() / 4);
   std::memcpy(words.data(), bytes.data(), words.size() * 4);
   return words;
}

inline uint32_t float_bits(float value)
{
   uint32_t bits;
   std::memcpy(&bits, &value, 4);
   return bits;
}

/* Writes a context register from the graphics (not compute) packet stream. */
inline void set_context(IbBuilder &b, uint32_t reg, std::initializer_list<uint32_t> values)
{
   b.context(reg, values, false);
}

/* The programs and their interface: program addresses, the ALU constant buffers (both stages
 * read one at constants_address), the VS exports the PS inputs, and DB_SHADER_CONTROL. */
inline void emit_shader_state(IbBuilder &b, const compiler::ShaderBinary &vertex, const compiler::ShaderBinary &pixel,
                              uint64_t vs_address, uint64_t ps_address, uint64_t constants_address,
                              uint32_t db_shader_control)
{
   namespace gfx = hw::gfx;
   const compiler::GraphicsInterface &vs = vertex.graphics, &ps = pixel.graphics;
   b.packet(hw::pm4::CONTEXT_CONTROL, {0x80000000u, 0x80000000u});
   set_context(b, gfx::SQ_PGM_START_VS, {uint32_t(vs_address >> 8), vertex.gprs | (vertex.stack_entries << 8)});
   set_context(b, gfx::SQ_PGM_START_PS, {uint32_t(ps_address >> 8), pixel.gprs | (pixel.stack_entries << 8)});
   set_context(b, gfx::SQ_PGM_EXPORTS_PS, {ps.sq_pgm_exports_ps});
   set_context(b, hw::reg::VGT_SHADER_STAGES_EN, {0});
   const uint32_t constants = uint32_t(constants_address >> 8);
   set_context(b, gfx::SQ_ALU_CONST_BUFFER_SIZE_VS_0, {1, 1});
   set_context(b, gfx::SQ_ALU_CONST_CACHE_VS_0, {constants, constants});
   set_context(b, gfx::SQ_ALU_CONST_BUFFER_SIZE_PS_0, {1, 1});
   set_context(b, gfx::SQ_ALU_CONST_CACHE_PS_0, {constants, constants});
   uint32_t out_ids[10] = {};
   for (size_t i = 0; i < vs.param_semantics.size() && i < 40; i++)
      out_ids[i / 4] |= uint32_t(vs.param_semantics[i]) << (8 * (i % 4));
   set_context(b, gfx::SPI_VS_OUT_ID_0, {out_ids[0], out_ids[1], out_ids[2], out_ids[3], out_ids[4], out_ids[5],
                                        out_ids[6], out_ids[7], out_ids[8], out_ids[9]});
   set_context(b, gfx::SPI_VS_OUT_CONFIG, {vs.spi_vs_out_config});
   set_context(b, gfx::PA_CL_VS_OUT_CNTL, {vs.pa_cl_vs_out_cntl});
   for (size_t i = 0; i < ps.spi_ps_input_cntl.size(); i++)
      set_context(b, gfx::SPI_PS_INPUT_CNTL_0 + 4 * uint32_t(i), {ps.spi_ps_input_cntl[i]});
   set_context(b, gfx::SPI_PS_IN_CONTROL_0, {ps.spi_ps_in_control_0, ps.spi_ps_in_control_1});
   set_context(b, gfx::SPI_INTERP_CONTROL_0, {ps.spi_interp_control_0});
   set_context(b, gfx::SPI_INPUT_Z, {ps.spi_input_z});
   set_context(b, gfx::SPI_BARYC_CNTL, {ps.spi_baryc_cntl});
   set_context(b, gfx::DB_SHADER_CONTROL, {db_shader_control});
}

/* One 32_32_32_32_FLOAT fetch resource per vertex input the vertex shader reads; `where` gives
 * each location's first byte, `bytes` and `stride` the range and the vertex size. */
inline void emit_float4_vertex_inputs(IbBuilder &b, const compiler::ShaderBinary &vertex,
                                      const std::function<uint64_t(unsigned location)> &where, uint32_t bytes,
                                      uint32_t stride)
{
   namespace gfx = hw::gfx;
   for (unsigned location : vertex.graphics.vertex_inputs) {
      b.ib.push_back(hw::pm4::packet3(hw::pm4::SET_RESOURCE, 8, false));
      b.ib.push_back((gfx::vs_resource_base + compiler::vertex_input_first_resource + location) * 8);
      const auto words = hw::reg::texel_buffer_fetch_resource(where(location), bytes, stride, hw::Fmt32_32_32_32Float,
                                                              uint32_t(hw::NumFormat::Scaled), false, {0, 1, 2, 3});
      b.ib.insert(b.ib.end(), words.begin(), words.end());
   }
}

/* Viewport 0 (x and y scale and offset, depth [0, 1]) and every scissor over a width x height
 * target, no MSAA, no culling with the first vertex provoking, DX clip space plus
 * `extra_clip_control`, the driver's PA_SU_VTX_CNTL (PIX_CENTER 1, truncation, 1/256-pixel
 * quantization), no depth test. */
inline void emit_viewport_and_rasterizer(IbBuilder &b, hw::Family family, const float scale[2], const float offset[2],
                                         uint32_t width, uint32_t height, uint32_t extra_clip_control = 0)
{
   namespace gfx = hw::gfx;
   const bool cayman = hw::family_info(family).isa_class == hw::IsaClass::Cayman;
   set_context(b, gfx::PA_CL_VPORT_XSCALE_0, {float_bits(scale[0]), float_bits(offset[0]), float_bits(scale[1]),
                                              float_bits(offset[1]), float_bits(1), float_bits(0)});
   set_context(b, gfx::PA_SC_VPORT_ZMIN_0, {float_bits(0), float_bits(1)});
   set_context(b, gfx::PA_CL_VTE_CNTL, {gfx::vte_viewport_enables | gfx::vte_w0_is_w});
   const uint32_t whole = width | (height << 16), no_offset = 1u << 31;
   set_context(b, gfx::PA_SC_SCREEN_SCISSOR_TL, {0, whole});
   set_context(b, gfx::PA_SC_WINDOW_OFFSET, {0});
   set_context(b, gfx::PA_SC_WINDOW_SCISSOR_TL, {no_offset, whole});
   set_context(b, gfx::PA_SC_GENERIC_SCISSOR_TL, {no_offset, whole});
   set_context(b, gfx::PA_SC_VPORT_SCISSOR_0_TL, {no_offset, whole});
   set_context(b, cayman ? hw::msaa::PA_SC_AA_CONFIG_CAYMAN : hw::msaa::PA_SC_AA_CONFIG_EVERGREEN, {0});
   set_context(b, gfx::PA_SC_MODE_CNTL_0, {1u << 1});
   set_context(b, gfx::PA_SU_SC_MODE_CNTL, {0});
   set_context(b, gfx::PA_CL_CLIP_CNTL, {gfx::clip_cntl_dx_clip_space | extra_clip_control});
   set_context(b, cayman ? gfx::CM_PA_SU_VTX_CNTL : gfx::PA_SU_VTX_CNTL, {1 | (5u << 3)});
   set_context(b, hw::reg::DB_DEPTH_CONTROL, {0});
}

/* The viewport of a square size x size target whose clip space fills it. */
inline void emit_square_viewport_and_rasterizer(IbBuilder &b, hw::Family family, uint32_t size)
{
   const float half = float(size) / 2;
   const float scale[2] = {half, half}, offset[2] = {half, half};
   emit_viewport_and_rasterizer(b, family, scale, offset, size, size);
}

/* CB_COLOR0: a linear-aligned 32_32_32_32_FLOAT target of pitch x height pixels. The targets
 * from `first_unused_target` on are switched off (INFO 0). */
inline void emit_float_colour_target(IbBuilder &b, uint64_t address, uint32_t pitch, uint32_t height,
                                     uint32_t first_unused_target = 1)
{
   namespace gfx = hw::gfx;
   namespace reg = hw::reg;
   set_context(b, reg::CB_COLOR0_BASE, {uint32_t(address >> 8), pitch / 8 - 1, pitch * height / 64 - 1, 0,
                                        (uint32_t(hw::Fmt32_32_32_32Float) << 2) | (1u << 8) |
                                           (uint32_t(gfx::Float) << 12),
                                        0});
   for (uint32_t i = first_unused_target; i < 8; i++)
      set_context(b, reg::CB_COLOR0_BASE + i * reg::CB_COLOR_STRIDE + reg::Info, {0});
}

/* No blending, ROP3 copy, the pixel shader's export mask, triangle lists without restart, any
 * index, one instance. */
inline void emit_output_and_primitive_state(IbBuilder &b, const compiler::ShaderBinary &pixel, uint32_t target_mask)
{
   namespace gfx = hw::gfx;
   namespace reg = hw::reg;
   set_context(b, gfx::CB_BLEND0_CONTROL, {0});
   set_context(b, gfx::CB_COLOR_CONTROL, {(1u << 4) | (0xCCu << 16)});
   set_context(b, reg::CB_SHADER_MASK, {pixel.graphics.cb_shader_mask});
   set_context(b, reg::CB_TARGET_MASK, {target_mask});
   b.config(reg::VGT_PRIMITIVE_TYPE, {gfx::TriangleList});
   set_context(b, gfx::VGT_MULTI_PRIM_IB_RESET_EN, {0});
   set_context(b, gfx::VGT_MAX_VTX_INDX, {0xffffffffu, 0, 0});
   b.packet(hw::pm4::NUM_INSTANCES, {1});
}

} // namespace terakan::test
