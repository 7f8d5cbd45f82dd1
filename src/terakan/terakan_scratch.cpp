/* The compute stage's scratch ring: where programs keep private arrays too large for
 * registers (the compiler's MEM_SCRATCH writes and READ_SCRATCH fetches; docs/compiler.md
 * "Scratch", docs/architecture.md "Scratch ring").
 *
 * Compute runs on the LS hardware stage, so the ring is SQ_LSTMP_RING_BASE/SIZE (config
 * registers, one pair per shader engine) and SQ_LSTMP_RING_ITEMSIZE (context). Sized and
 * programmed the way Mesa 22.3.6's r600 driver does for its stages
 * (r600_state_common.c, r600_setup_scratch_area_for_shader): ITEMSIZE is the dwords each
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

bool terakan_emit_compute_scratch(terakan_cmd_buffer *cmd, CommandStream &cs,
                                  const terakan::compiler::ShaderBinary &binary)
{
   if (!binary.scratch_dwords)
      return true;
   const auto &info = cmd->device->radeon->info();
   const unsigned engines = std::max(info.max_shader_engines, 1u);
   /* Mesa's winsys assumes 2 quad pipes when the kernel does not say. */
   const unsigned pipes = info.max_pipes ? info.max_pipes : 2;
   const uint64_t item_bytes = uint64_t(binary.scratch_dwords) * 4;
   /* Every wave of the largest group fits in one engine's part as well (a group's waves are
    * in flight together). */
   const unsigned threads = binary.workgroup_size[0] * binary.workgroup_size[1] * binary.workgroup_size[2];
   const uint64_t per_engine =
      (std::max<uint64_t>(item_bytes * 128 * pipes, item_bytes * 64 * ((threads + 63) / 64)) + 255) & ~uint64_t(255);
   if (per_engine >> 8 > UINT32_MAX || per_engine * engines > (uint64_t(1) << 32)) {
      terakan_cmd_fail(cmd, VK_ERROR_OUT_OF_DEVICE_MEMORY,
                       "the scratch ring for this pipeline's private arrays would exceed 4 GiB");
      return false;
   }

   /* One ring per command buffer, grown when a pipeline needs more; dispatches use it one
    * after another (below). */
   auto &ring = cmd->compute_scratch;
   if (!ring.bo || ring.bytes_per_engine < per_engine || ring.engines != engines) {
      if (!terakan_cmd_upload(cmd, per_engine * engines, 256, ring.bo, ring.offset)) {
         ring = {};
         return false;
      }
      ring.bytes_per_engine = per_engine;
      ring.engines = engines;
   }

   /* The ring must not change under a dispatch still running with the old one (r600g waits
    * for the 3D engine to idle; compute waits for the compute partial flush). */
   cs.packet(pm4::EVENT_WRITE, 1);
   cs.emit(pm4::EVENT_CS_PARTIAL_FLUSH);
   for (unsigned se = 0; se < engines; se++) {
      if (engines > 1)
         cs.config_registers(reg::GRBM_GFX_INDEX,
                             {reg::grbm_gfx_index_se(se) | reg::GRBM_GFX_INDEX_INSTANCE_BROADCAST});
      cs.config_registers(reg::SQ_LSTMP_RING_BASE, {uint32_t((ring.offset + se * ring.bytes_per_engine) >> 8)});
      cs.relocation(*ring.bo);
      cs.config_registers(reg::SQ_LSTMP_RING_SIZE, {uint32_t(ring.bytes_per_engine >> 8)});
   }
   if (engines > 1)
      cs.config_registers(reg::GRBM_GFX_INDEX,
                          {reg::GRBM_GFX_INDEX_INSTANCE_BROADCAST | reg::GRBM_GFX_INDEX_SE_BROADCAST});
   cs.context_registers(reg::SQ_LSTMP_RING_ITEMSIZE, {binary.scratch_dwords}, true);
   return true;
}
