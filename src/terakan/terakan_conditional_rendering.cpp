/* VK_EXT_conditional_rendering on the command processor's predication.
 *
 * TeraScale's CP predicates draw and dispatch packets (the header's predicate bit) on
 * SET_PREDICATION, whose operations on Evergreen and Cayman are ZPASS (an occlusion query's
 * result block) and PRIMCOUNT (streamout counts); the kernel refuses any other (Linux
 * evergreen_cs.c "bad SET PREDICATION operation"). There is no operation that reads a plain
 * 32-bit value, so vkCmdBeginConditionalRenderingEXT makes one ZPASS block that says what the
 * value says: per render backend a {begin, end} pair of 64-bit counts with the written flag
 * (bit 63), all zero except backend 0's end, whose low dword the CP copies from the
 * application's buffer (CP DMA, synchronised). The block reads "visible" exactly when that
 * dword is not zero, and SET_PREDICATION with DRAW_VISIBLE (or without it for
 * VK_CONDITIONAL_RENDERING_INVERTED_BIT_EXT) lets predicated packets run accordingly. The
 * layout and fields are those of occlusion queries (terakan_query.cpp) and of r600g's
 * r600_emit_query_predication (Mesa r600_query.c; fields in r600d_common.h); eight pairs
 * are written, which covers every board's backends (r600g reads eight on some).
 *
 * The condition is read when each SET_PREDICATION runs, and one is sent before every
 * predicated packet: a command buffer may span several kernel submissions, and each is
 * checked and run alone. Application draws, dispatches and vkCmdClearAttachments are
 * predicated; load-op clears, resolves, copies and the driver's other work are not, as the
 * extension asks. The value is read by the CP after the barriers the application recorded
 * before vkCmdBeginConditionalRenderingEXT (a full barrier, terakan_emit_full_barrier, is what
 * any barrier does here). */
#include "terakan_private.h"

#include <cstring>

#include "hw/pm4.h"

namespace pm4 = terakan::hw::pm4;
using terakan::winsys::CommandStream;
using terakan::winsys::RadeonBo;

static constexpr unsigned block_pairs = 8;
static constexpr uint64_t written_flag = uint64_t(1) << 63;

/* SET_PREDICATION control word (r600d_common.h PREDICATION_*): DRAW_VISIBLE [8], the wait hint
 * [12] (0: wait for the result), the operation [18:16] (1: ZPASS), CONTINUE [31]. */
static constexpr uint32_t predication_draw_visible = 1u << 8, predication_op_zpass = 1u << 16;

static_assert(terakan_predicate_block_bytes == 16 * block_pairs);

void terakan_fill_predicate_block(uint8_t *block)
{
   for (unsigned pair = 0; pair < 2 * block_pairs; pair++)
      std::memcpy(block + 8 * pair, &written_flag, 8);
}

void terakan_draw_packet(terakan_cmd_buffer *cmd, CommandStream &cs, uint32_t opcode, uint32_t body_dwords,
                         bool compute, bool conditional)
{
   /* A counted indirect draw's own block (terakan_cmd_draw.cpp), else the condition's. */
   const bool counted = cmd->draw_predicate.bo != nullptr;
   const bool predicated = counted || (conditional && cmd->condition.active);
   if (predicated) {
      const uint64_t address = counted ? cmd->draw_predicate.offset : cmd->condition.offset;
      const bool visible = counted || !cmd->condition.inverted;
      cs.packet(pm4::SET_PREDICATION, 2);
      cs.emit(uint32_t(address));
      cs.emit((uint32_t(address >> 32) & 0xff) | (visible ? predication_draw_visible : 0u) | predication_op_zpass);
      cs.relocation(counted ? *cmd->draw_predicate.bo : *cmd->condition.bo);
   }
   cs.packet(opcode, body_dwords, compute);
   if (predicated)
      cs.dwords.back() |= 1u; /* the header's predicate bit */
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdBeginConditionalRenderingEXT(VkCommandBuffer commandBuffer,
                                        const VkConditionalRenderingBeginInfoEXT *pConditionalRenderingBegin)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   VK_FROM_HANDLE(terakan_buffer, buffer, pConditionalRenderingBegin->buffer);
   if (vk_command_buffer_get_record_result(&cmd->vk) != VK_SUCCESS || !buffer->memory)
      return;
   RadeonBo *block_bo;
   uint64_t block_offset;
   uint8_t *block = terakan_cmd_upload(cmd, 16 * block_pairs, 16, block_bo, block_offset);
   if (!block)
      return;
   terakan_fill_predicate_block(block);
   CommandStream &cs = terakan_cmd_stream(cmd);
   /* Backend 0's end count: the application's dword as its low half. */
   terakan_emit_cp_dma_copy(cs, *buffer->memory->bo, buffer->offset + pConditionalRenderingBegin->offset, *block_bo,
                            block_offset + 8, 4, true);
   cmd->condition.active = true;
   cmd->condition.inverted = pConditionalRenderingBegin->flags & VK_CONDITIONAL_RENDERING_INVERTED_BIT_EXT;
   cmd->condition.bo = block_bo;
   cmd->condition.offset = block_offset;
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdEndConditionalRenderingEXT(VkCommandBuffer commandBuffer)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   /* Later draws simply carry no predicate bit (r600g never sends a clear operation either). */
   cmd->condition = {};
}
