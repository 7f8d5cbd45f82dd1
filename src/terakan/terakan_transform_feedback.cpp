/* VK_EXT_transform_feedback on the VGT's streamout (docs/architecture.md, "Transform feedback").
 *
 * The vertex shader writes its XfbBuffer/Offset outputs with MEM_STREAM0_BUFn exports
 * (select_graphics.cpp); the VGT appends each primitive's vertices to the enabled buffers and
 * keeps a write offset per buffer, in dwords from VGT_STRMOUT_BUFFER_BASE_n (which is 256-byte
 * aligned). Begin and end follow r600g's r600_emit_streamout_begin/end (Mesa
 * r600_streamout.c): the VGT flushed and waited for, the buffer registers, STRMOUT_BUFFER_UPDATE
 * to set each offset, and at the end STRMOUT_BUFFER_UPDATE storing each filled size.
 *
 * Vulkan's counter buffers hold byte offsets from the bound range's start, the VGT's offsets
 * are dwords from the 256-byte unit below it, and the command processor has no arithmetic: a
 * small compute program converts (counter_program below). Counters go through a 32-byte block
 * of upload memory: CP DMA in, the program, CP DMA out.
 *
 * While transform feedback is active every application draw programs the buffers its
 * pipeline writes (sizes, strides, bases) and enables stream 0; the driver's own draws
 * (clears, blits) disable it. The VGT's offsets live in the GPU across draws and across the
 * command streams a long command buffer is split into (docs/status.md). */
#include "terakan_private.h"

#include <algorithm>
#include <cstring>

#include "terakan_meta.h"

#include "compiler/nir_shaders.h"
#include "hw/graphics_registers.h"
#include "hw/pm4.h"
#include "hw/registers.h"
#include "hw/streamout.h"

namespace gfx = terakan::hw::gfx;

namespace pm4 = terakan::hw::pm4;
namespace reg = terakan::hw::reg;
namespace so = terakan::hw::streamout;
using terakan::winsys::CommandStream;
using terakan::winsys::RadeonBo;

/* ---- the counter program ---- */

/* Its push constants (dwords): each output dword i of the block is
 * max(int(input i) + add_i, 0) << left >> right (unsigned shifts). */
enum CounterConstant : unsigned { counter_left, counter_right, counter_add_0, counter_constant_count = counter_add_0 + 4 };
/* The block: four input dwords, then four output dwords. */
static constexpr uint64_t block_bytes = 32, block_output = 16;

static nir_ssa_def *counter_constant(nir_builder *b, unsigned which)
{
   return nir_load_push_constant(b, 1, 32, nir_imm_int(b, 0), int(4 * which), 4u);
}

static nir_shader *counter_shader()
{
   nir_builder builder = terakan::compiler::begin_compute_nir("terakan transform feedback counters", 1, 1, 1);
   nir_builder *b = &builder;
   nir_ssa_def *input = terakan::compiler::storage_buffer_nir(b, 0);
   nir_ssa_def *output = terakan::compiler::storage_buffer_nir(b, 1);
   for (unsigned i = 0; i < 4; i++) {
      _nir_load_ssbo_indices load{};
      load.align_mul = 4;
      nir_ssa_def *value = _nir_build_load_ssbo(b, 1, 32, input, nir_imm_int(b, int(4 * i)), load);
      value = nir_imax(b, nir_iadd(b, value, counter_constant(b, counter_add_0 + i)), nir_imm_int(b, 0));
      value = nir_ushr(b, nir_ishl(b, value, counter_constant(b, counter_left)), counter_constant(b, counter_right));
      _nir_store_ssbo_indices store{};
      store.write_mask = 1;
      store.align_mul = 4;
      _nir_build_store_ssbo(b, value, output, nir_imm_int(b, int(block_output + 4 * i)), store);
   }
   return b->shader;
}

static const terakan_meta_compute *counter_program(terakan_device *device, VkResult &result)
{
   terakan_meta *meta = device->meta;
   std::lock_guard<std::mutex> guard(meta->lock);
   if (!meta->xfb_counters) {
      auto program = std::make_unique<terakan_meta_compute>();
      terakan::compiler::CompileOptions options;
      options.family = device->physical->pci->family;
      options.debug = terakan::compiler::debug_options_from_environment();
      std::string error;
      if (!terakan::compiler::compile_compute_nir(counter_shader(), options, program->binary, error))
         program->result = terakan_errorf(device, VK_ERROR_UNKNOWN,
                                          "terakan: the transform feedback counter program does not compile: %s",
                                          error.c_str());
      else
         program->result = terakan_upload_code(device, program->binary.code, program->code_bo);
      meta->xfb_counters = std::move(program);
   }
   result = meta->xfb_counters->result;
   return result == VK_SUCCESS ? meta->xfb_counters.get() : nullptr;
}

/* A block of upload memory for one conversion; null when the command buffer failed. */
static RadeonBo *counter_block(terakan_cmd_buffer *cmd, uint64_t &offset)
{
   RadeonBo *bo = nullptr;
   uint8_t *block = terakan_cmd_upload(cmd, block_bytes, 256, bo, offset);
   if (!block)
      return nullptr;
   std::memset(block, 0, block_bytes);
   return bo;
}

/* Runs the counter program over the block (its inputs written before, by the CP), with full
 * barriers before (the inputs reach the texture cache) and after (the outputs reach memory
 * before the CP reads them). */
static bool emit_counter_pass(terakan_cmd_buffer *cmd, RadeonBo &block_bo, uint64_t block_offset, uint32_t left,
                              uint32_t right, const std::array<int32_t, 4> &add)
{
   VkResult result;
   const terakan_meta_compute *program = counter_program(cmd->device, result);
   if (!program) {
      vk_command_buffer_set_error(&cmd->vk, result);
      return false;
   }
   RadeonBo *constants_bo;
   uint64_t constants_offset;
   uint8_t *constants = terakan_cmd_upload(cmd, 512, 256, constants_bo, constants_offset);
   if (!constants)
      return false;
   std::memset(constants, 0, 512);
   uint32_t push[counter_constant_count] = {left, right};
   for (unsigned i = 0; i < 4; i++)
      push[counter_add_0 + i] = uint32_t(add[i]);
   std::memcpy(constants, push, sizeof(push));
   /* Driver constants: one group; both slots are the block. */
   uint8_t *driver = constants + 256;
   const uint32_t groups[3] = {1, 1, 1};
   std::memcpy(driver, groups, sizeof(groups));
   for (unsigned slot = 0; slot < 2; slot++) {
      const uint32_t size = uint32_t(block_bytes), last_dword = size / 4 - 1;
      std::memcpy(driver + 4 * (terakan::compiler::storage_buffer_size_constants + slot), &size, 4);
      std::memcpy(driver + 4 * (terakan::compiler::storage_buffer_last_dword_constants + slot), &last_dword, 4);
   }
   const terakan::compiler::ShaderBinary &binary = program->binary;
   CommandStream &cs = terakan_cmd_stream(cmd);
   terakan_emit_full_barrier(cs);
   cs.config_registers(reg::VGT_COMPUTE_START_X, {0, 0, 0});
   terakan_emit_compute_fetch_resource(cs, 0, block_bo, block_offset, block_bytes);
   terakan_emit_compute_rat(cs, 1, block_bo, block_offset, block_bytes);
   cs.context_registers(reg::CB_TARGET_MASK, {0xfu << 4});
   cs.context_registers(reg::SQ_ALU_CONST_BUFFER_SIZE_LS_0, {1, 1});
   cs.context_registers(reg::SQ_ALU_CONST_CACHE_LS_0,
                        {uint32_t(constants_offset >> 8), uint32_t((constants_offset + 256) >> 8)});
   cs.relocation(*constants_bo);
   cs.relocation(*constants_bo);
   cs.context_registers(reg::SQ_PGM_START_LS, {0, binary.gprs | (binary.stack_entries << 8), 0});
   cs.relocation(*program->code_bo);
   cs.context_registers(reg::SPI_COMPUTE_INPUT_CNTL, {7}); /* local ids in R0, group ids in R1 */
   cs.context_registers(reg::SPI_COMPUTE_NUM_THREAD_X, {1, 1, 1});
   cs.context_registers(reg::SQ_LDS_ALLOC, {((binary.lds_bytes + 3) / 4) | (1u << 14)});
   cs.packet(pm4::DISPATCH_DIRECT, 4, true);
   cs.emit(1);
   cs.emit(1);
   cs.emit(1);
   cs.emit(pm4::DISPATCH_INITIATOR_COMPUTE_SHADER_EN);
   terakan_emit_full_barrier(cs);
   return true;
}

/* ---- bindings and the VGT's registers ---- */

/* The dword of the bound range's start within its 256-byte unit (the VGT's offsets count
 * from that unit). */
static uint32_t misalignment_dwords(const terakan_xfb_binding &binding)
{
   return uint32_t(binding.offset & 255) / 4;
}

/* VGT_STRMOUT_BUFFER_SIZE_n, VTX_STRIDE_n and BUFFER_BASE_n of buffer n (with the base's
 * relocation): the size counts dwords from the base to the range's end. */
static void emit_buffer_registers(CommandStream &cs, unsigned n, const terakan_xfb_binding &binding,
                                  uint32_t stride_bytes)
{
   const uint64_t base = binding.offset & ~uint64_t(255);
   const uint64_t end_dwords = (binding.offset + binding.size - base) / 4;
   cs.context_registers(so::VGT_STRMOUT_BUFFER_SIZE_0 + n * so::buffer_register_stride,
                        {uint32_t(std::min<uint64_t>(end_dwords, UINT32_MAX)), stride_bytes / 4, uint32_t(base >> 8)},
                        false);
   cs.relocation(*binding.bo);
}

/* SO_VGTSTREAMOUT_FLUSH and the wait for CP_STRMOUT_CNTL.OFFSET_UPDATE_DONE (r600g's
 * r600_flush_vgt_streamout): the VGT's offsets are final after it. */
static void emit_vgt_flush(CommandStream &cs)
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
}

bool terakan_emit_xfb_draw_state(terakan_cmd_buffer *cmd, CommandStream &cs,
                                 const terakan::compiler::GraphicsInterface *vs, uint32_t primitive_type)
{
   if (!cmd->xfb.active)
      return true;
   /* The VGT writes strips and fans in its own vertex order, not Vulkan's (see
    * terakan_xfb_direct_draw); only direct draws are turned into lists. */
   if (vs && (primitive_type == gfx::TriangleStrip || primitive_type == gfx::TriangleFan)) {
      terakan_cmd_fail(cmd, VK_ERROR_FEATURE_NOT_PRESENT,
                       "transform feedback of indexed or indirect triangle strips and fans is not supported");
      return false;
   }
   uint32_t buffers = 0;
   if (vs)
      for (unsigned n = 0; n < so::buffer_count; n++)
         if (vs->xfb_strides[n] && cmd->xfb.bindings[n].bo) {
            if (vs->xfb_strides[n] / 4 > 0x3ff) {
               terakan_cmd_fail(cmd, VK_ERROR_FEATURE_NOT_PRESENT, "a transform feedback stride above 4092 bytes");
               return false;
            }
            emit_buffer_registers(cs, n, cmd->xfb.bindings[n], vs->xfb_strides[n]);
            buffers |= 1u << n;
         }
   /* Stream 0 writes `buffers`; the driver's own draws (no `vs`) write nothing. */
   cs.context_registers(so::VGT_STRMOUT_CONFIG, {vs ? 1u : 0u, buffers}, false);
   return true;
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdBindTransformFeedbackBuffersEXT(VkCommandBuffer commandBuffer, uint32_t firstBinding, uint32_t bindingCount,
                                           const VkBuffer *pBuffers, const VkDeviceSize *pOffsets,
                                           const VkDeviceSize *pSizes)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   for (uint32_t i = 0; i < bindingCount && firstBinding + i < so::buffer_count; i++) {
      VK_FROM_HANDLE(terakan_buffer, buffer, pBuffers[i]);
      terakan_xfb_binding &binding = cmd->xfb.bindings[firstBinding + i];
      if (!buffer || !buffer->memory) {
         binding = {};
         continue;
      }
      binding.bo = buffer->memory->bo;
      binding.offset = buffer->offset + pOffsets[i];
      const VkDeviceSize size = pSizes ? pSizes[i] : VK_WHOLE_SIZE;
      binding.size = size == VK_WHOLE_SIZE ? buffer->vk.size - pOffsets[i] : size;
   }
}

/* The counter buffers' ranges of a begin or end: buffer i's counter, or none. */
struct CounterRange {
   RadeonBo *bo = nullptr;
   uint64_t offset = 0;
};

static std::array<CounterRange, 4> counter_ranges(uint32_t first, uint32_t count, const VkBuffer *buffers,
                                                  const VkDeviceSize *offsets)
{
   std::array<CounterRange, 4> ranges{};
   for (uint32_t i = 0; buffers && i < count && first + i < so::buffer_count; i++) {
      VK_FROM_HANDLE(terakan_buffer, buffer, buffers[i]);
      if (!buffer || !buffer->memory)
         continue;
      ranges[first + i] = {buffer->memory->bo, buffer->offset + (offsets ? offsets[i] : 0)};
   }
   return ranges;
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdBeginTransformFeedbackEXT(VkCommandBuffer commandBuffer, uint32_t firstCounterBuffer,
                                     uint32_t counterBufferCount, const VkBuffer *pCounterBuffers,
                                     const VkDeviceSize *pCounterBufferOffsets)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   if (vk_command_buffer_get_record_result(&cmd->vk) != VK_SUCCESS)
      return;
   const auto counters = counter_ranges(firstCounterBuffer, counterBufferCount, pCounterBuffers, pCounterBufferOffsets);
   /* Resumed buffers: counter bytes -> dwords from the 256-byte unit, in the block's outputs. */
   RadeonBo *block_bo = nullptr;
   uint64_t block_offset = 0;
   bool any_counter = false;
   for (unsigned n = 0; n < so::buffer_count; n++)
      any_counter |= counters[n].bo && cmd->xfb.bindings[n].bo;
   if (any_counter) {
      block_bo = counter_block(cmd, block_offset);
      if (!block_bo)
         return;
      std::array<int32_t, 4> add{};
      for (unsigned n = 0; n < so::buffer_count; n++) {
         if (!counters[n].bo || !cmd->xfb.bindings[n].bo)
            continue;
         terakan_emit_cp_dma_copy(terakan_cmd_stream(cmd), *counters[n].bo, counters[n].offset, *block_bo,
                                  block_offset + 4 * n, 4, true);
         add[n] = int32_t(4 * misalignment_dwords(cmd->xfb.bindings[n]));
      }
      if (!emit_counter_pass(cmd, *block_bo, block_offset, 0, 2, add))
         return;
   }
   CommandStream &cs = terakan_cmd_stream(cmd);
   emit_vgt_flush(cs);
   uint32_t bound = 0;
   for (unsigned n = 0; n < so::buffer_count; n++)
      if (cmd->xfb.bindings[n].bo) {
         emit_buffer_registers(cs, n, cmd->xfb.bindings[n], 0); /* the strides come with each draw */
         bound |= 1u << n;
      }
   cs.context_registers(so::VGT_STRMOUT_CONFIG, {1, bound}, false);
   for (unsigned n = 0; n < so::buffer_count; n++) {
      if (!(bound >> n & 1))
         continue;
      cs.packet(pm4::STRMOUT_BUFFER_UPDATE, 5);
      if (counters[n].bo) {
         /* The offset from the block's output dword n. */
         const uint64_t source = block_offset + block_output + 4 * n;
         cs.emit((uint32_t(so::from_memory) << 1) | (n << 8));
         cs.emit(0);
         cs.emit(0);
         cs.emit(uint32_t(source));
         cs.emit(uint32_t(source >> 32) & 0xff);
         cs.relocation(*block_bo);
      } else {
         /* From the range's start. */
         cs.emit((uint32_t(so::from_packet) << 1) | (n << 8));
         cs.emit(0);
         cs.emit(0);
         cs.emit(misalignment_dwords(cmd->xfb.bindings[n]));
         cs.emit(0);
      }
   }
   cmd->xfb.active = true;
   cmd->xfb.begun = bound;
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdEndTransformFeedbackEXT(VkCommandBuffer commandBuffer, uint32_t firstCounterBuffer,
                                   uint32_t counterBufferCount, const VkBuffer *pCounterBuffers,
                                   const VkDeviceSize *pCounterBufferOffsets)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   if (vk_command_buffer_get_record_result(&cmd->vk) != VK_SUCCESS)
      return;
   const auto counters = counter_ranges(firstCounterBuffer, counterBufferCount, pCounterBuffers, pCounterBufferOffsets);
   const uint32_t begun = cmd->xfb.begun;
   cmd->xfb.active = false;
   cmd->xfb.begun = 0;
   bool any_counter = false;
   for (unsigned n = 0; n < so::buffer_count; n++)
      any_counter |= counters[n].bo && (begun >> n & 1);
   RadeonBo *block_bo = nullptr;
   uint64_t block_offset = 0;
   if (any_counter) {
      block_bo = counter_block(cmd, block_offset);
      if (!block_bo)
         return;
   }
   CommandStream &cs = terakan_cmd_stream(cmd);
   emit_vgt_flush(cs);
   std::array<int32_t, 4> add{};
   for (unsigned n = 0; n < so::buffer_count; n++) {
      if (!counters[n].bo || !(begun >> n & 1))
         continue;
      /* The filled size (dwords from the 256-byte unit) into the block's input dword n. */
      const uint64_t destination = block_offset + 4 * n;
      cs.packet(pm4::STRMOUT_BUFFER_UPDATE, 5);
      cs.emit(so::update_store_filled_size | (uint32_t(so::source_none) << 1) | (n << 8));
      cs.emit(uint32_t(destination));
      cs.emit(uint32_t(destination >> 32) & 0xff);
      cs.emit(0);
      cs.emit(0);
      cs.relocation(*block_bo);
      add[n] = -int32_t(misalignment_dwords(cmd->xfb.bindings[n]));
   }
   /* Streamout off: sizes 0 (r600g's end), no stream enabled. */
   for (unsigned n = 0; n < so::buffer_count; n++)
      if (begun >> n & 1)
         cs.context_registers(so::VGT_STRMOUT_BUFFER_SIZE_0 + n * so::buffer_register_stride, {0}, false);
   cs.context_registers(so::VGT_STRMOUT_CONFIG, {0, 0}, false);
   if (!any_counter)
      return;
   /* Dwords -> bytes from the range's start, then into the counter buffers. */
   if (!emit_counter_pass(cmd, *block_bo, block_offset, 2, 0, add))
      return;
   for (unsigned n = 0; n < so::buffer_count; n++)
      if (counters[n].bo && (begun >> n & 1))
         terakan_emit_cp_dma_copy(terakan_cmd_stream(cmd), *block_bo, block_offset + block_output + 4 * n,
                                  *counters[n].bo, counters[n].offset, 4, true);
}

/* ---- triangle strips and fans ---- */

/* The VGT captures the triangles of strips and fans in its assembly order (odd strip triangles
 * i+1, i, i+2; fan triangles 0, i+1, i+2: docs/sim-semantics.md, "Streamout", derived), while
 * Vulkan's definitions are i, i+1+i%2, i+2-i%2 and i+1, i+2, 0, which transform feedback writes
 * as they are. A direct draw of a strip or a fan while transform feedback is active is drawn
 * as a list through indices made here in Vulkan's order: the same triangles, windings and
 * provoking vertices (the first of each), and the capture Vulkan asks for. */
bool terakan_xfb_direct_draw(terakan_cmd_buffer *cmd, uint32_t vertex_count, uint32_t instance_count,
                             uint32_t first_vertex, uint32_t first_instance, uint32_t draw_index)
{
   const VkPrimitiveTopology topology = VkPrimitiveTopology(cmd->vk.dynamic_graphics_state.ia.primitive_topology);
   const bool strip = topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
   if (!cmd->xfb.active || (!strip && topology != VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN))
      return false;
   terakan_pipeline *pipeline = cmd->graphics_pipeline;
   if (!pipeline || !pipeline->graphics) {
      terakan_cmd_fail(cmd, VK_ERROR_UNKNOWN, "a draw without a graphics pipeline");
      return true;
   }
   const uint32_t triangles = vertex_count >= 3 ? vertex_count - 2 : 0;
   if (!triangles || !instance_count)
      return true;
   if (triangles > (64u << 20) / 12) {
      terakan_cmd_fail(cmd, VK_ERROR_FEATURE_NOT_PRESENT,
                       "transform feedback of a strip or fan of more than 5.5 million triangles is not supported");
      return true;
   }
   RadeonBo *bo = nullptr;
   uint64_t offset = 0;
   auto *indices = reinterpret_cast<uint32_t *>(terakan_cmd_upload(cmd, uint64_t(triangles) * 12, 256, bo, offset));
   if (!indices)
      return true;
   for (uint32_t i = 0; i < triangles; i++) {
      uint32_t *t = indices + 3 * i;
      if (strip) {
         t[0] = i, t[1] = i + 1 + i % 2, t[2] = i + 2 - i % 2;
      } else {
         t[0] = i + 1, t[1] = i + 2, t[2] = 0;
      }
   }
   terakan_for_each_layer(cmd, false, [&] {
      terakan_draw_setup setup;
      setup.pipeline = pipeline->graphics;
      setup.dynamic = &cmd->vk.dynamic_graphics_state;
      setup.push_constants = cmd->push_constants.data();
      setup.draw_index = draw_index;
      setup.primitive_type = gfx::TriangleList;
      CommandStream &cs = terakan_cmd_stream(cmd);
      /* Not indexed for the state: no restart; VGT_INDX_OFFSET = first_vertex as for the
       * application's draw, so VertexIndex is the same. */
      if (!terakan_emit_draw_state(cmd, cs, setup, first_vertex, first_instance, false))
         return false;
      cs.packet(pm4::INDEX_TYPE, 1);
      cs.emit(1); /* 32-bit */
      cs.packet(pm4::NUM_INSTANCES, 1);
      cs.emit(instance_count);
      terakan_draw_packet(cmd, cs, pm4::DRAW_INDEX, 4, false);
      cs.emit(uint32_t(offset));
      cs.emit(uint32_t(offset >> 32) & 0xff);
      cs.emit(3 * triangles);
      cs.emit(0); /* SOURCE_SELECT 0: memory */
      cs.relocation(*bo);
      return true;
   });
   return true;
}

/* ---- vkCmdDrawIndirectByteCountEXT ---- */

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdDrawIndirectByteCountEXT(VkCommandBuffer commandBuffer, uint32_t instanceCount, uint32_t firstInstance,
                                    VkBuffer counterBuffer, VkDeviceSize counterBufferOffset, uint32_t counterOffset,
                                    uint32_t vertexStride)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   VK_FROM_HANDLE(terakan_buffer, counter, counterBuffer);
   if (vk_command_buffer_get_record_result(&cmd->vk) != VK_SUCCESS || !instanceCount || !counter->memory)
      return;
   if (vertexStride % 4 || !vertexStride)
      return terakan_cmd_fail(cmd, VK_ERROR_FEATURE_NOT_PRESENT,
                              "vkCmdDrawIndirectByteCountEXT with a vertex stride that is not a multiple of 4");
   terakan_pipeline *pipeline = cmd->graphics_pipeline;
   if (!pipeline || !pipeline->graphics)
      return terakan_cmd_fail(cmd, VK_ERROR_UNKNOWN, "a draw without a graphics pipeline");
   if (pipeline->graphics->conservative)
      return terakan_cmd_fail(cmd, VK_ERROR_FEATURE_NOT_PRESENT,
                              "vkCmdDrawIndirectByteCountEXT with conservative rasterization is not supported");
   /* The vertex count in dwords: (counter - counterOffset) / 4, at least 0, into the block's
    * output dword 0; the VGT divides it by the stride in dwords (DRAW_OPAQUE). */
   uint64_t block_offset = 0;
   RadeonBo *block_bo = counter_block(cmd, block_offset);
   if (!block_bo)
      return;
   terakan_emit_cp_dma_copy(terakan_cmd_stream(cmd), *counter->memory->bo, counter->offset + counterBufferOffset,
                            *block_bo, block_offset, 4, true);
   if (!emit_counter_pass(cmd, *block_bo, block_offset, 0, 2, {-int32_t(counterOffset), 0, 0, 0}))
      return;
   terakan_for_each_layer(cmd, false, [&] {
      terakan_draw_setup setup;
      setup.pipeline = pipeline->graphics;
      setup.dynamic = &cmd->vk.dynamic_graphics_state;
      setup.push_constants = cmd->push_constants.data();
      CommandStream &cs = terakan_cmd_stream(cmd);
      if (!terakan_emit_draw_state(cmd, cs, setup, 0, firstInstance, false))
         return false;
      cs.context_registers(so::VGT_STRMOUT_DRAW_OPAQUE_OFFSET, {0, 0, vertexStride / 4}, false);
      /* COPY_DW: the count into DRAW_OPAQUE_BUFFER_FILLED_SIZE (r600g's r600_draw_vbo). */
      const uint64_t source = block_offset + block_output;
      cs.packet(pm4::COPY_DW, 5);
      cs.emit(so::copy_dw_source_memory);
      cs.emit(uint32_t(source));
      cs.emit(uint32_t(source >> 32) & 0xff);
      cs.emit(so::VGT_STRMOUT_DRAW_OPAQUE_BUFFER_FILLED_SIZE >> 2);
      cs.emit(0);
      cs.relocation(*block_bo);
      cs.packet(pm4::NUM_INSTANCES, 1);
      cs.emit(instanceCount);
      /* VGT_DRAW_INITIATOR: SOURCE_SELECT 2 (auto index), USE_OPAQUE. */
      terakan_draw_packet(cmd, cs, pm4::DRAW_INDEX_AUTO, 2, false);
      cs.emit(0);
      cs.emit(2 | so::draw_initiator_use_opaque);
      return true;
   });
}
