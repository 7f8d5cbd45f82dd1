#include "streamout.h"
#include "core/message.h"

#include <cstdio>

namespace terakan::sim {

using namespace hw::streamout;

namespace {


} // namespace

std::vector<StreamRecord> stream_records_of(const WaveExports &exports, unsigned lane)
{
   std::vector<StreamRecord> records;
   for (const auto &[key, dword] : exports.stream_writes)
      if (lane < dword.written.size() && dword.written[lane])
         records.push_back({uint8_t(key[0]), uint8_t(key[1]), uint16_t(key[2]), dword.values[lane]});
   return records;
}

StreamoutUnit::StreamoutUnit(const PipelineState &state, GpuMemory &memory_)
   : memory(memory_), counters(state.streamout)
{
   stream_enable = state.get(VGT_STRMOUT_CONFIG) & 0xf;
   buffer_config = state.get(VGT_STRMOUT_BUFFER_CONFIG) & 0xffff;
   for (unsigned b = 0; b < buffer_count; b++) {
      const uint32_t at = b * buffer_register_stride;
      base[b] = uint64_t(state.get(VGT_STRMOUT_BUFFER_BASE_0 + at)) << 8;
      size_dwords[b] = state.get(VGT_STRMOUT_BUFFER_SIZE_0 + at);
      stride_dwords[b] = state.get(VGT_STRMOUT_VTX_STRIDE_0 + at) & 0x3ff;
   }
}

std::string StreamoutUnit::primitive(std::span<const std::vector<StreamRecord> *const> vertices)
{
   if (!stream_enable)
      return {};
   if (!counters)
      return "streamout is enabled but the command processor keeps no streamout state";
   for (const std::vector<StreamRecord> *vertex : vertices)
      for (const StreamRecord &record : *vertex)
         if (record.stream != 0)
            return "MEM_STREAM" + std::to_string(record.stream) +
                   "_BUF* in a vertex shader: streams 1-3 are written by geometry shaders, which are not simulated";
   /* Without a geometry shader every primitive belongs to stream 0; the other streams see
    * none (their enables only matter to a GS). */
   if (!(stream_enable & 1))
      return {};
   counters->storage_needed[0]++;
   const uint32_t buffers = buffer_config & 0xf;
   if (!buffers)
      return {}; /* nothing to write, so nothing counts as written */
   /* A primitive is written whole or not at all: if any enabled buffer lacks room for all of
    * its vertices, none of them is written anywhere and the written counter stays (GL's
    * overflow rule, which r600g's queries rely on). */
   const uint64_t count = vertices.size();
   for (unsigned b = 0; b < buffer_count; b++)
      if ((buffers >> b) & 1 && uint64_t(counters->offset[b]) + count * stride_dwords[b] > size_dwords[b])
         return {};
   for (unsigned b = 0; b < buffer_count; b++) {
      if (!((buffers >> b) & 1))
         continue;
      for (uint64_t v = 0; v < count; v++) {
         const uint64_t record_dword = counters->offset[b] + v * stride_dwords[b];
         for (const StreamRecord &record : *vertices[v]) {
            if (record.buffer != b)
               continue;
            if (record.dword >= stride_dwords[b])
               return "MEM_STREAM0_BUF" + std::to_string(b) + " writes dword " + std::to_string(record.dword) +
                      " of a vertex record, beyond VGT_STRMOUT_VTX_STRIDE_" + std::to_string(b) + " (" +
                      std::to_string(stride_dwords[b]) + " dwords)";
            const uint64_t address = base[b] + 4 * (record_dword + record.dword);
            std::string error;
            if (!memory.write(address, &record.value, 4, error))
               return "streamout buffer " + std::to_string(b) + " at " + hex_string(address) + ": " + error;
         }
      }
      counters->offset[b] += uint32_t(count * stride_dwords[b]);
   }
   counters->primitives_written[0]++;
   return {};
}

std::string streamout_buffer_update(std::span<const uint32_t> body, StreamoutCounters &counters, GpuMemory &memory)
{
   const uint32_t control = body[0];
   const unsigned buffer = update_select_buffer(control);
   if (control & update_data_type_bytes)
      return "STRMOUT_BUFFER_UPDATE: DATA_TYPE (offsets in bytes) is not simulated";
   std::string error;
   /* The filled size is the buffer's current offset, in dwords like the offset itself. The
    * store comes before a new offset is taken (r600g never asks for both at once). */
   if (control & update_store_filled_size) {
      const uint64_t destination = body[1] | (uint64_t(body[2] & 0xff) << 32);
      if (!memory.write(destination, &counters.offset[buffer], 4, error))
         return "STRMOUT_BUFFER_UPDATE stores the filled size: " + error;
   }
   switch (update_offset_source(control)) {
   case from_packet:
      counters.offset[buffer] = body[3];
      break;
   case from_filled_size:
      break; /* the filled size is the offset */
   case from_memory: {
      const uint64_t source = body[3] | (uint64_t(body[4] & 0xff) << 32);
      if (!memory.read(source, &counters.offset[buffer], 4, error))
         return "STRMOUT_BUFFER_UPDATE reads the offset: " + error;
      break;
   }
   case source_none:
      break;
   }
   return {};
}

std::string sample_streamout_stats(unsigned stream, uint64_t address, const StreamoutCounters &counters,
                                   GpuMemory &memory)
{
   /* PrimitiveStorageNeeded first, then NumPrimitivesWritten, each with bit 63 set: r600g's
    * readers take "generated" from the first quadword and "written" from the second and want
    * both flagged (r600_query_hw_add_result, r600_query_read_result). */
   const uint64_t flag = uint64_t(1) << 63;
   const uint64_t pair[2] = {counters.storage_needed[stream] | flag, counters.primitives_written[stream] | flag};
   std::string error;
   if (!memory.write(address, pair, sizeof(pair), error))
      return "EVENT_WRITE SAMPLE_STREAMOUTSTATS writes " + error;
   return {};
}

} // namespace terakan::sim
