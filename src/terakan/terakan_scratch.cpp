/* The scratch rings: where programs keep private arrays too large for registers (the
 * compiler's MEM_SCRATCH writes and READ_SCRATCH fetches; docs/compiler.md "Scratch",
 * docs/architecture.md "Scratch ring").
 *
 * Compute runs on the LS hardware stage, so its ring is SQ_LSTMP_RING_BASE/SIZE (config
 * registers, one pair per shader engine) and SQ_LSTMP_RING_ITEMSIZE (context); a draw's vertex
 * shader runs on the VS stage and its pixel shader on the PS stage, with the SQ_VSTMP_RING_* and
 * SQ_PSTMP_RING_* registers. Sized and programmed the way Mesa 22.3.6's r600 driver does for its
 * stages (r600_state_common.c, r600_setup_scratch_area_for_shader): ITEMSIZE is the dwords each
 * invocation uses; the ring holds ITEMSIZE dwords for 128 x RADEON_INFO_MAX_PIPES invocations
 * per shader engine, each engine given its own part through GRBM_GFX_INDEX; the kernel
 * relocates BASE (Linux evergreen_cs.c) and checks neither size. */
#include "terakan_private.h"

#include <algorithm>

#include "hw/pm4.h"
#include "hw/registers.h"

namespace pm4 = terakan::hw::pm4;
namespace reg = terakan::hw::reg;
using terakan::winsys::CommandStream;
using terakan::winsys::RadeonBo;

namespace {

using Ring = terakan_cmd_buffer::scratch_ring;

struct RingRegisters {
   uint32_t base, size, itemsize;
};

/* Grows `ring` to hold `item_dwords` per invocation for 128 x pipes invocations per engine (and
 * at least `min_waves` waves of 64), waits with `idle_event` for the work that may still use the
 * registers, and programs them (ITEMSIZE with the packet's compute or graphics shader type). */
bool emit_ring(terakan_cmd_buffer *cmd, CommandStream &cs, Ring &ring, const RingRegisters &regs,
               unsigned item_dwords, unsigned min_waves, uint32_t idle_event, bool compute)
{
   const auto &info = cmd->device->radeon->info();
   const unsigned engines = std::max(info.max_shader_engines, 1u);
   /* Mesa's winsys assumes 2 quad pipes when the kernel does not say. */
   const unsigned pipes = info.max_pipes ? info.max_pipes : 2;
   const uint64_t item_bytes = uint64_t(item_dwords) * 4;
   const uint64_t per_engine =
      (std::max<uint64_t>(item_bytes * 128 * pipes, item_bytes * 64 * min_waves) + 255) & ~uint64_t(255);
   if (per_engine >> 8 > UINT32_MAX || per_engine * engines > (uint64_t(1) << 32)) {
      terakan_cmd_fail(cmd, VK_ERROR_OUT_OF_DEVICE_MEMORY,
                       "the scratch ring for this pipeline's private arrays would exceed 4 GiB");
      return false;
   }

   /* One ring per stage and command buffer, grown when a pipeline needs more; the work that
    * uses it runs one after another (below). */
   if (!ring.bo || ring.bytes_per_engine < per_engine || ring.engines != engines) {
      if (!terakan_cmd_upload(cmd, per_engine * engines, 256, ring.bo, ring.offset)) {
         ring = {};
         return false;
      }
      ring.bytes_per_engine = per_engine;
      ring.engines = engines;
   }

   /* The ring must not change under work still running with the old one (r600g waits for the
    * 3D engine to idle; compute waits for the compute partial flush). */
   cs.packet(pm4::EVENT_WRITE, 1);
   cs.emit(idle_event);
   for (unsigned se = 0; se < engines; se++) {
      if (engines > 1)
         cs.config_registers(reg::GRBM_GFX_INDEX,
                             {reg::grbm_gfx_index_se(se) | reg::GRBM_GFX_INDEX_INSTANCE_BROADCAST});
      cs.config_registers(regs.base, {uint32_t((ring.offset + se * ring.bytes_per_engine) >> 8)});
      cs.relocation(*ring.bo);
      cs.config_registers(regs.size, {uint32_t(ring.bytes_per_engine >> 8)});
   }
   if (engines > 1)
      cs.config_registers(reg::GRBM_GFX_INDEX,
                          {reg::GRBM_GFX_INDEX_INSTANCE_BROADCAST | reg::GRBM_GFX_INDEX_SE_BROADCAST});
   cs.context_registers(regs.itemsize, {item_dwords}, compute);
   return true;
}

} // namespace

bool terakan_emit_compute_scratch(terakan_cmd_buffer *cmd, CommandStream &cs,
                                  const terakan::compiler::ShaderBinary &binary)
{
   if (!binary.scratch_dwords)
      return true;
   /* Every wave of the largest group fits in one engine's part as well (a group's waves are
    * in flight together). */
   const unsigned threads = binary.workgroup_size[0] * binary.workgroup_size[1] * binary.workgroup_size[2];
   return emit_ring(cmd, cs, cmd->compute_scratch,
                    {reg::SQ_LSTMP_RING_BASE, reg::SQ_LSTMP_RING_SIZE, reg::SQ_LSTMP_RING_ITEMSIZE},
                    binary.scratch_dwords, (threads + 63) / 64, pm4::EVENT_CS_PARTIAL_FLUSH, true);
}

bool terakan_emit_graphics_scratch(terakan_cmd_buffer *cmd, CommandStream &cs,
                                   const terakan::compiler::ShaderBinary &vertex,
                                   const terakan::compiler::ShaderBinary &pixel)
{
   /* Earlier draws may still run with the rings: PS_PARTIAL_FLUSH waits for every draw (their
    * pixel shaders finish last). */
   if (vertex.scratch_dwords &&
       !emit_ring(cmd, cs, cmd->vertex_scratch,
                  {reg::SQ_VSTMP_RING_BASE, reg::SQ_VSTMP_RING_SIZE, reg::SQ_VSTMP_RING_ITEMSIZE},
                  vertex.scratch_dwords, 1, pm4::EVENT_PS_PARTIAL_FLUSH, false))
      return false;
   return !pixel.scratch_dwords ||
          emit_ring(cmd, cs, cmd->pixel_scratch,
                    {reg::SQ_PSTMP_RING_BASE, reg::SQ_PSTMP_RING_SIZE, reg::SQ_PSTMP_RING_ITEMSIZE},
                    pixel.scratch_dwords, 1, pm4::EVENT_PS_PARTIAL_FLUSH, false);
}
