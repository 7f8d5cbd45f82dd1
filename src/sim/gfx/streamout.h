/* Streamout (transform feedback): the VGT writes each primitive's vertices, as the vertex shader
 * exported them with MEM_STREAMn_BUFm, into the enabled streamout buffers, in primitive order,
 * and counts the primitives written and the ones that needed storage. The command processor's
 * side (STRMOUT_BUFFER_UPDATE, SAMPLE_STREAMOUTSTATS) is here too, as functions it calls.
 * Sources for each rule are in docs/sim-semantics.md ("Streamout"). */
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/gpu_memory.h"
#include "core/shader_core.h"
#include "gfx/draw.h"
#include "hw/streamout.h"

namespace terakan::sim {

/* What the VGT keeps across draws and submissions: each buffer's write offset (dwords from
 * its BUFFER_BASE; also its "filled size") and each stream's NumPrimitivesWritten and
 * PrimitiveStorageNeeded counters. */
struct StreamoutCounters {
   std::array<uint32_t, hw::streamout::buffer_count> offset{};
   std::array<uint64_t, hw::streamout::stream_count> primitives_written{}, storage_needed{};
};

/* One dword a vertex wrote with MEM_STREAMn_BUFm. */
struct StreamRecord {
   uint8_t stream, buffer;
   uint16_t dword; /* within the vertex's record (ARRAY_BASE + channel) */
   uint32_t value;
};

/* The stream writes of one lane (vertex) of a vertex-shader wave. */
std::vector<StreamRecord> stream_records_of(const WaveExports &exports, unsigned lane);

/* The VGT's streamout for one draw. */
class StreamoutUnit {
public:
   StreamoutUnit(const PipelineState &state, GpuMemory &memory);
   /* Whether any stream is enabled (VGT_STRMOUT_CONFIG). */
   bool enabled() const { return stream_enable != 0; }
   /* Records one primitive whose vertices (in the order the primitive is assembled) carry
    * these stream writes. Returns an error message, or empty. */
   std::string primitive(std::span<const std::vector<StreamRecord> *const> vertices);

private:
   GpuMemory &memory;
   StreamoutCounters *counters;
   uint32_t stream_enable = 0, buffer_config = 0;
   std::array<uint64_t, hw::streamout::buffer_count> base{};
   std::array<uint32_t, hw::streamout::buffer_count> size_dwords{}, stride_dwords{};
};

/* The STRMOUT_BUFFER_UPDATE packet (body: control, destination lo/hi, offset or source lo/hi,
 * already relocated by the checker). Returns an error message, or empty. */
std::string streamout_buffer_update(std::span<const uint32_t> body, StreamoutCounters &counters,
                                    GpuMemory &memory);

/* EVENT_WRITE SAMPLE_STREAMOUTSTATS(1..3) for `stream`: the counter pair at `address`. */
std::string sample_streamout_stats(unsigned stream, uint64_t address, const StreamoutCounters &counters,
                                   GpuMemory &memory);

} // namespace terakan::sim
