/* Query pools: occlusion queries and timestamps (docs/architecture.md, "Queries").
 *
 * Occlusion. While a query is active every application draw runs with DB_COUNT_CONTROL
 * counting (PERFECT_ZPASS_COUNTS: the DB counts every sample that passes the depth and
 * stencil tests, so precise and imprecise queries are the same); outside queries, and for the
 * driver's own clear draws, ZPASS_INCREMENT_DISABLE. vkCmdBeginQuery and vkCmdEndQuery each
 * send EVENT_WRITE ZPASS_DONE, which makes every render backend write its running 64-bit count
 * with bit 63 set, 16 bytes apart: the begin counts at the query's offset, the end counts 8
 * bytes after them, so each backend owns a {begin, end} pair (the layout Mesa r600_query.c
 * uses; register and event facts from Mesa evergreend.h). A query's result is the sum over the
 * board's render backends of end - begin; it is available when every one of those pairs has
 * both written flags (a reset clears them). Which backends write: the ones the kernel's
 * RADEON_INFO_BACKEND_MAP names for the tile pipes (the reading of that map in Mesa's
 * r600_query_fix_enabled_rb_mask), else the first RADEON_INFO_NUM_BACKENDS.
 *
 * Timestamps. EVENT_WRITE_EOP with DATA_SEL 3 writes the GPU's 64-bit clock counter once all
 * earlier work is done; a second EOP then writes 1 into the query's availability dword (end of
 * pipe events complete in order). The counter runs at the reference clock
 * (RADEON_INFO_CLOCK_CRYSTAL_FREQ; Mesa r600g divides its timestamps by that frequency), which
 * gives timestampPeriod (terakan_physical_device.cpp).
 *
 * Pipeline statistics. vkCmdBeginQuery starts the counters (EVENT_WRITE PIPELINESTAT_START;
 * they are left running afterwards) and samples them with EVENT_WRITE SAMPLE_PIPELINESTAT, which
 * writes the eleven 64-bit counters of hw/pm4.h; vkCmdEndQuery samples them again 88 bytes
 * further and then writes 1 into an availability dword with an end-of-pipe event, after the
 * sample has landed (the samples carry no written flag; r600g fences them the same way). Each
 * asked-for Vulkan statistic is its hardware counter's end - begin, in the order of the
 * Vulkan bits (statistic_counter below). The driver's own draws and dispatches inside an active
 * query (clears, blits, resolves) are counted too.
 *
 * Results on the host (vkGetQueryPoolResults) are summed by the CPU from the mapped pool.
 * vkCmdCopyQueryPoolResults needs the same sums on the GPU, in order with the command buffer,
 * and the command processor has no arithmetic: the copy is a compute dispatch of a shader the
 * driver builds with nir_builder (query_copy_shader) and compiles with Terakan's compiler, one
 * invocation per query, 64-bit sums as pairs of 32-bit adds with carries (the ALUs have no
 * 64-bit integers). With VK_QUERY_RESULT_WAIT_BIT the CP first waits (WAIT_REG_MEM) for every
 * written flag the copy reads. */
#include "terakan_private.h"

#include <chrono>
#include <cstring>
#include <mutex>
#include <thread>

#include "compiler/nir_shaders.h"
#include "hw/graphics_registers.h"
#include "hw/pm4.h"
#include "hw/registers.h"
#include "hw/streamout.h"

namespace pm4 = terakan::hw::pm4;
namespace reg = terakan::hw::reg;
using terakan::winsys::CommandStream;
using terakan::winsys::RadeonBo;

static constexpr unsigned max_backends = 8;          /* render backends on Evergreen and Cayman */
static constexpr uint32_t occlusion_stride = 16 * max_backends;
static constexpr uint32_t timestamp_stride = 16;     /* counter, availability dword, padding */
static constexpr uint64_t written_flag = uint64_t(1) << 63;
/* Pipeline statistics: the begin sample, the end sample, the availability dword, padding. */
static constexpr uint32_t statistics_sample_bytes = 8 * pm4::pipeline_statistic_count;
static constexpr uint32_t statistics_available_offset = 2 * statistics_sample_bytes;
static constexpr uint32_t statistics_stride = 192;
static_assert(statistics_available_offset + 4 <= statistics_stride);
/* Transform feedback streams (VK_EXT_transform_feedback): EVENT_WRITE SAMPLE_STREAMOUTSTATS
 * writes PrimitiveStorageNeeded then NumPrimitivesWritten, 64 bits each with the written flag
 * (bit 63; Mesa r600_query.c reads them so): the begin sample, the end sample, then an
 * availability dword written at the end of the pipe, as for pipeline statistics (the copy
 * shader reads both kinds alike: Vulkan's written count is counter 1, needed counter 0). */
static constexpr uint32_t xfb_sample_bytes = 16;
static constexpr uint32_t xfb_available_offset = 2 * xfb_sample_bytes;
static constexpr uint32_t xfb_stride = 48;
/* The hardware counter of each Vulkan statistic, by bit number of VkQueryPipelineStatisticFlagBits
 * (input assembly vertices, primitives, vertex shader invocations, geometry shader invocations,
 * primitives, clipping invocations, primitives, fragment shader invocations, tessellation
 * control patches, evaluation invocations, compute shader invocations): the names match
 * D3D11's statistics, which these counters serve (r600g maps GL's the same way). */
static constexpr unsigned statistic_counter[pm4::pipeline_statistic_count] = {
   pm4::stat_ia_vertices,         pm4::stat_ia_primitives,      pm4::stat_vs_invocations,
   pm4::stat_gs_invocations,      pm4::stat_gs_primitives,      pm4::stat_clipper_invocations,
   pm4::stat_clipper_primitives,  pm4::stat_ps_invocations,     pm4::stat_hs_invocations,
   pm4::stat_ds_invocations,      pm4::stat_cs_invocations,
};

/* ---- DB_COUNT_CONTROL ---- */

uint32_t terakan_db_count_control(const terakan_cmd_buffer *cmd, bool application_draw, uint32_t samples)
{
   if (!cmd->active_occlusion_queries || !application_draw)
      return 1; /* ZPASS_INCREMENT_DISABLE */
   uint32_t value = 1u << 1; /* PERFECT_ZPASS_COUNTS */
   /* Cayman: SAMPLE_RATE [6:4], log2 of the samples (as r600g programs it for its queries). */
   if (terakan::hw::family_info(cmd->device->physical->pci->family).isa_class == terakan::hw::IsaClass::Cayman) {
      uint32_t log2 = 0;
      while ((2u << log2) <= samples)
         log2++;
      value |= (log2 & 7) << 4;
   }
   return value;
}

/* ---- pools ---- */

static uint32_t enabled_backends(const terakan::winsys::RadeonDeviceInfo &info)
{
   uint32_t mask = 0;
   if (info.has_backend_map)
      for (uint32_t pipe = 0; pipe < info.num_tile_pipes && pipe < 8; pipe++) {
         const uint32_t backend = (info.backend_map >> (4 * pipe)) & 0xf;
         if (backend < max_backends)
            mask |= 1u << backend;
      }
   if (!mask)
      mask = (1u << std::min(std::max(info.num_backends, 1u), max_backends)) - 1;
   return mask;
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL
terakan_CreateQueryPool(VkDevice _device, const VkQueryPoolCreateInfo *pCreateInfo,
                        const VkAllocationCallbacks *pAllocator, VkQueryPool *pQueryPool)
{
   VK_FROM_HANDLE(terakan_device, device, _device);
   uint32_t stride;
   switch (pCreateInfo->queryType) {
   case VK_QUERY_TYPE_OCCLUSION:
      stride = occlusion_stride;
      break;
   case VK_QUERY_TYPE_TIMESTAMP:
      stride = timestamp_stride;
      break;
   case VK_QUERY_TYPE_PIPELINE_STATISTICS:
      stride = statistics_stride;
      break;
   case VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT:
      stride = xfb_stride;
      break;
   default:
      /* The extension query types are not offered. */
      return terakan_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT, "terakan: query type %d is not supported",
                            int(pCreateInfo->queryType));
   }
   auto *pool = static_cast<terakan_query_pool *>(
      vk_object_zalloc(&device->vk, pAllocator, sizeof(terakan_query_pool), VK_OBJECT_TYPE_QUERY_POOL));
   if (!pool)
      return vk_error(device, VK_ERROR_OUT_OF_HOST_MEMORY);
   pool->type = pCreateInfo->queryType;
   pool->count = pCreateInfo->queryCount;
   pool->stride = stride;
   if (pCreateInfo->queryType == VK_QUERY_TYPE_PIPELINE_STATISTICS)
      pool->statistics = pCreateInfo->pipelineStatistics & ((1u << pm4::pipeline_statistic_count) - 1);
   pool->backend_mask = enabled_backends(device->radeon->info());
   std::string error;
   int error_number = 0;
   const uint64_t size = align64(std::max<uint64_t>(uint64_t(stride) * pool->count, 4096), 4096);
   pool->bo = RadeonBo::create(*device->radeon, size, 4096, terakan::winsys::BoPlacement::GttCached, error,
                               error_number);
   if (!pool->bo || !pool->bo->map()) {
      delete pool->bo;
      vk_object_free(&device->vk, pAllocator, pool);
      return terakan_bo_error(device, error_number ? error_number : ENOMEM,
                              error.empty() ? "cannot map a query pool's buffer" : error);
   }
   std::memset(pool->bo->map(), 0, size);
   *pQueryPool = terakan_query_pool_to_handle(pool);
   return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_DestroyQueryPool(VkDevice _device, VkQueryPool queryPool, const VkAllocationCallbacks *pAllocator)
{
   VK_FROM_HANDLE(terakan_device, device, _device);
   VK_FROM_HANDLE(terakan_query_pool, pool, queryPool);
   if (!pool)
      return;
   delete pool->bo;
   vk_object_free(&device->vk, pAllocator, pool);
}

static volatile uint8_t *query_memory(const terakan_query_pool *pool, uint32_t query)
{
   return static_cast<volatile uint8_t *>(pool->bo->map()) + uint64_t(query) * pool->stride;
}

/* VK_EXT_host_query_reset: the pool is coherent CPU memory, and the application guarantees
 * that no GPU work uses these queries any more. */
extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_ResetQueryPool(VkDevice, VkQueryPool queryPool, uint32_t firstQuery, uint32_t queryCount)
{
   VK_FROM_HANDLE(terakan_query_pool, pool, queryPool);
   volatile uint8_t *memory = query_memory(pool, firstQuery);
   for (uint64_t i = 0; i < uint64_t(queryCount) * pool->stride; i++)
      memory[i] = 0;
}

/* How many values each query of the pool has. */
static unsigned values_per_query(const terakan_query_pool *pool)
{
   if (pool->type == VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT)
      return 2; /* primitives written, primitives needed */
   return pool->type == VK_QUERY_TYPE_PIPELINE_STATISTICS ? unsigned(__builtin_popcount(pool->statistics)) : 1;
}

/* The query's results (values_per_query of them) and whether it is complete, read from the
 * pool by the CPU. */
static bool read_query(const terakan_query_pool *pool, uint32_t query, uint64_t *values)
{
   volatile uint8_t *memory = query_memory(pool, query);
   uint64_t &value = values[0];
   value = 0;
   if (pool->type == VK_QUERY_TYPE_PIPELINE_STATISTICS) {
      auto counter = [&](uint32_t offset, unsigned n) {
         return *reinterpret_cast<volatile uint64_t *>(memory + offset + 8 * n);
      };
      unsigned out = 0;
      for (unsigned bit = 0; bit < pm4::pipeline_statistic_count; bit++)
         if (pool->statistics & (1u << bit))
            values[out++] = counter(statistics_sample_bytes, statistic_counter[bit]) -
                            counter(0, statistic_counter[bit]);
      return *reinterpret_cast<volatile uint32_t *>(memory + statistics_available_offset) != 0;
   }
   if (pool->type == VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT) {
      auto sample = [&](uint32_t offset) { return *reinterpret_cast<volatile uint64_t *>(memory + offset); };
      values[0] = (sample(xfb_sample_bytes + 8) & ~written_flag) - (sample(8) & ~written_flag);
      values[1] = (sample(xfb_sample_bytes) & ~written_flag) - (sample(0) & ~written_flag);
      return *reinterpret_cast<volatile uint32_t *>(memory + xfb_available_offset) != 0;
   }
   if (pool->type == VK_QUERY_TYPE_TIMESTAMP) {
      const uint32_t available = *reinterpret_cast<volatile uint32_t *>(memory + 8);
      value = *reinterpret_cast<volatile uint64_t *>(memory);
      return available != 0;
   }
   bool available = true;
   for (unsigned backend = 0; backend < max_backends; backend++) {
      if (!(pool->backend_mask & (1u << backend)))
         continue;
      const uint64_t begin = *reinterpret_cast<volatile uint64_t *>(memory + 16 * backend);
      const uint64_t end = *reinterpret_cast<volatile uint64_t *>(memory + 16 * backend + 8);
      if (!(begin & written_flag) || !(end & written_flag)) {
         available = false;
         continue;
      }
      value += (end & ~written_flag) - (begin & ~written_flag);
   }
   return available;
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL
terakan_GetQueryPoolResults(VkDevice _device, VkQueryPool queryPool, uint32_t firstQuery, uint32_t queryCount,
                            size_t dataSize, void *pData, VkDeviceSize stride, VkQueryResultFlags flags)
{
   VK_FROM_HANDLE(terakan_device, device, _device);
   VK_FROM_HANDLE(terakan_query_pool, pool, queryPool);
   if (vk_device_is_lost(&device->vk))
      return VK_ERROR_DEVICE_LOST;
   const bool wide = flags & VK_QUERY_RESULT_64_BIT;
   const unsigned count = values_per_query(pool);
   VkResult result = VK_SUCCESS;
   for (uint32_t i = 0; i < queryCount; i++) {
      uint8_t *out = static_cast<uint8_t *>(pData) + i * stride;
      uint64_t values[pm4::pipeline_statistic_count];
      bool available = read_query(pool, firstQuery + i, values);
      /* Waiting: first for the submitted work that uses the pool (the kernel's wait); a query
       * still not available then waits for a submission another thread has still to make (or
       * forever, which the specification allows when the application never ends it). */
      bool waited_for_the_gpu = false;
      while (!available && (flags & VK_QUERY_RESULT_WAIT_BIT)) {
         if (vk_device_is_lost(&device->vk))
            return VK_ERROR_DEVICE_LOST;
         if (!waited_for_the_gpu) {
            if (const int error = pool->bo->wait_idle())
               return vk_device_set_lost(&device->vk, "terakan: waiting for a query pool failed (%s)",
                                         strerror(error));
            waited_for_the_gpu = true;
         } else {
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
            waited_for_the_gpu = false;
         }
         available = read_query(pool, firstQuery + i, values);
      }
      /* VK_NOT_READY only when the query's value is left unwritten (the specification names
       * it for WAIT and PARTIAL both clear; lavapipe does the same). */
      if (!available && !(flags & VK_QUERY_RESULT_PARTIAL_BIT))
         result = VK_NOT_READY;
      /* PARTIAL with the query incomplete: zero, which lies between zero and the final
       * result as the specification asks. */
      const bool write_value = available || (flags & VK_QUERY_RESULT_PARTIAL_BIT);
      for (unsigned v = 0; v < count; v++) {
         const uint64_t value = available ? values[v] : 0;
         /* 32-bit results wrap (the specification allows wrapping or saturating). */
         const uint32_t narrow = uint32_t(value);
         if (write_value)
            std::memcpy(out + (wide ? 8 : 4) * v, wide ? static_cast<const void *>(&value) : &narrow, wide ? 8 : 4);
      }
      if (flags & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT) {
         const uint64_t flag = available;
         const uint32_t narrow_flag = available;
         std::memcpy(out + (wide ? 8 : 4) * count, wide ? static_cast<const void *>(&flag) : &narrow_flag, wide ? 8 : 4);
      }
   }
   (void)dataSize;
   return result;
}

/* ---- commands ---- */

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdResetQueryPool(VkCommandBuffer commandBuffer, VkQueryPool queryPool, uint32_t firstQuery,
                          uint32_t queryCount)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   VK_FROM_HANDLE(terakan_query_pool, pool, queryPool);
   if (!queryCount)
      return;
   /* Query commands for one query run in submission order: the counts and timestamps written
    * before land before the fill clears them. */
   terakan_emit_full_barrier(terakan_cmd_stream(cmd));
   terakan_cmd_fill(cmd, *pool->bo, uint64_t(firstQuery) * pool->stride, uint64_t(queryCount) * pool->stride, 0);
}

static void emit_zpass_done(CommandStream &cs, RadeonBo &bo, uint64_t offset)
{
   cs.packet(pm4::EVENT_WRITE, 3);
   cs.emit(pm4::event(pm4::event_type_zpass_done, 1));
   cs.emit(uint32_t(offset));
   cs.emit(uint32_t(offset >> 32) & 0xff);
   cs.relocation(bo);
}

/* EVENT_WRITE SAMPLE_PIPELINESTAT: the eleven counters to the pool at `offset`. */
static void emit_sample_statistics(CommandStream &cs, RadeonBo &bo, uint64_t offset)
{
   cs.packet(pm4::EVENT_WRITE, 3);
   cs.emit(pm4::event(pm4::event_type_sample_pipelinestat, 2));
   cs.emit(uint32_t(offset));
   cs.emit(uint32_t(offset >> 32) & 0xff);
   cs.relocation(bo);
}

static void emit_end_of_pipe(CommandStream &cs, RadeonBo &bo, uint64_t offset, uint32_t data_sel,
                             uint32_t data);

/* EVENT_WRITE SAMPLE_STREAMOUTSTATS (stream 0; event index 3 as r600g): the counter pair. */
static void emit_sample_streamout(CommandStream &cs, RadeonBo &bo, uint64_t offset)
{
   cs.packet(pm4::EVENT_WRITE, 3);
   cs.emit(pm4::event(terakan::hw::streamout::event_sample_streamoutstats, 3));
   cs.emit(uint32_t(offset));
   cs.emit(uint32_t(offset >> 32) & 0xff);
   cs.relocation(bo);
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdBeginQuery(VkCommandBuffer commandBuffer, VkQueryPool queryPool, uint32_t query, VkQueryControlFlags)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   VK_FROM_HANDLE(terakan_query_pool, pool, queryPool);
   if (pool->type == VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT) {
      emit_sample_streamout(terakan_cmd_stream(cmd), *pool->bo, uint64_t(query) * pool->stride);
      return;
   }
   if (pool->type == VK_QUERY_TYPE_PIPELINE_STATISTICS) {
      CommandStream &cs = terakan_cmd_stream(cmd);
      cs.packet(pm4::EVENT_WRITE, 1);
      cs.emit(pm4::EVENT_PIPELINESTAT_START);
      emit_sample_statistics(cs, *pool->bo, uint64_t(query) * pool->stride);
      return;
   }
   if (pool->type != VK_QUERY_TYPE_OCCLUSION)
      return;
   emit_zpass_done(terakan_cmd_stream(cmd), *pool->bo, uint64_t(query) * pool->stride);
   cmd->active_occlusion_queries++;
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdEndQuery(VkCommandBuffer commandBuffer, VkQueryPool queryPool, uint32_t query)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   VK_FROM_HANDLE(terakan_query_pool, pool, queryPool);
   if (pool->type == VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT) {
      CommandStream &cs = terakan_cmd_stream(cmd);
      const uint64_t offset = uint64_t(query) * pool->stride;
      emit_sample_streamout(cs, *pool->bo, offset + xfb_sample_bytes);
      emit_end_of_pipe(cs, *pool->bo, offset + xfb_available_offset, 1, 1);
      return;
   }
   if (pool->type == VK_QUERY_TYPE_PIPELINE_STATISTICS) {
      CommandStream &cs = terakan_cmd_stream(cmd);
      const uint64_t offset = uint64_t(query) * pool->stride;
      emit_sample_statistics(cs, *pool->bo, offset + statistics_sample_bytes);
      emit_end_of_pipe(cs, *pool->bo, offset + statistics_available_offset, 1, 1);
      /* Under multiview the other views' indices are made available with zero counts (their
       * reset samples are equal), as for occlusion queries. */
      const uint32_t views = uint32_t(__builtin_popcount(cmd->rendering.view_mask));
      for (uint32_t view = 1; view < views; view++)
         emit_end_of_pipe(cs, *pool->bo, uint64_t(query + view) * pool->stride + statistics_available_offset, 1, 1);
      return;
   }
   if (pool->type != VK_QUERY_TYPE_OCCLUSION)
      return;
   CommandStream &cs = terakan_cmd_stream(cmd);
   emit_zpass_done(cs, *pool->bo, uint64_t(query) * pool->stride + 8);
   if (cmd->active_occlusion_queries)
      cmd->active_occlusion_queries--;
   /* Under multiview a query takes one index per view. The first holds the count of every view
    * (the draws of all views ran between begin and end) and the others are made available
    * with zero, as the specification allows: two counts back to back. */
   const uint32_t views = uint32_t(__builtin_popcount(cmd->rendering.view_mask));
   for (uint32_t view = 1; view < views; view++) {
      emit_zpass_done(cs, *pool->bo, uint64_t(query + view) * pool->stride);
      emit_zpass_done(cs, *pool->bo, uint64_t(query + view) * pool->stride + 8);
   }
}

static void emit_end_of_pipe(CommandStream &cs, RadeonBo &bo, uint64_t offset, uint32_t data_sel,
                             uint32_t data)
{
   cs.packet(pm4::EVENT_WRITE_EOP, 5);
   cs.emit(pm4::EVENT_CACHE_FLUSH_AND_INV_TS);
   cs.emit(uint32_t(offset));
   cs.emit((uint32_t(offset >> 32) & 0xff) | pm4::eop_data_sel(data_sel));
   cs.emit(data);
   cs.emit(0);
   cs.relocation(bo);
}

/* VK_EXT_transform_feedback's forms: stream 0 is the only one (maxTransformFeedbackStreams). */
extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdBeginQueryIndexedEXT(VkCommandBuffer commandBuffer, VkQueryPool queryPool, uint32_t query,
                                VkQueryControlFlags flags, uint32_t)
{
   terakan_CmdBeginQuery(commandBuffer, queryPool, query, flags);
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdEndQueryIndexedEXT(VkCommandBuffer commandBuffer, VkQueryPool queryPool, uint32_t query, uint32_t)
{
   terakan_CmdEndQuery(commandBuffer, queryPool, query);
}

/* Every stage is timed at the end of the pipe: later than the stage asked for, which the
 * specification allows. */
extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdWriteTimestamp2(VkCommandBuffer commandBuffer, VkPipelineStageFlags2, VkQueryPool queryPool,
                           uint32_t query)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   VK_FROM_HANDLE(terakan_query_pool, pool, queryPool);
   CommandStream &cs = terakan_cmd_stream(cmd);
   const uint64_t offset = uint64_t(query) * pool->stride;
   emit_end_of_pipe(cs, *pool->bo, offset, 3, 0);     /* the GPU clock counter */
   emit_end_of_pipe(cs, *pool->bo, offset + 8, 1, 1); /* available */
   /* Under multiview the timestamp takes one index per view: the others get zero (allowed). */
   const uint32_t views = uint32_t(__builtin_popcount(cmd->rendering.view_mask));
   for (uint32_t view = 1; view < views; view++) {
      const uint64_t other = uint64_t(query + view) * pool->stride;
      emit_end_of_pipe(cs, *pool->bo, other, 2, 0); /* 64 bits of data: zero */
      emit_end_of_pipe(cs, *pool->bo, other + 8, 1, 1);
   }
}

/* ---- vkCmdCopyQueryPoolResults: a compute shader ---- */

struct terakan_query_meta {
   std::mutex lock;
   bool built = false;
   VkResult result = VK_SUCCESS;
   terakan::compiler::ShaderBinary binary;
   RadeonBo *code_bo = nullptr;
};

terakan_query_meta *terakan_query_meta_create()
{
   return new (std::nothrow) terakan_query_meta();
}

void terakan_query_meta_destroy(terakan_query_meta *meta)
{
   if (!meta)
      return;
   delete meta->code_bo;
   delete meta;
}

/* The copy shader's push constants (dwords). */
enum CopyConstant : unsigned {
   copy_count,        /* queries to copy */
   copy_first_query,  /* in the pool */
   copy_pool_stride,  /* bytes per query in the pool */
   copy_dst_offset,   /* bytes from the destination RAT's base to the first result */
   copy_dst_stride,   /* bytes between results */
   copy_flags,        /* VkQueryResultFlags */
   copy_backend_mask, /* occlusion: the render backends that write */
   copy_timestamps,   /* 1: a timestamp pool, 0: occlusion */
   copy_statistics,   /* 1: a pipeline statistics pool */
   copy_value_count,  /* values per query (before the availability) */
   copy_sample_bytes, /* statistics and transform feedback: the end sample's offset */
   copy_available,    /* ... and the availability dword's */
   /* Pipeline statistics: per hardware counter, its result's index among the query's values,
    * or ~0 when not asked for. */
   copy_counter_index_0,
   copy_constant_count = copy_counter_index_0 + pm4::pipeline_statistic_count
};
static constexpr unsigned copy_group_size = 64;
static constexpr unsigned pool_slot = 0, destination_slot = 1;

static nir_ssa_def *push_constant(nir_builder *b, CopyConstant which)
{
   return nir_load_push_constant(b, 1, 32, nir_imm_int(b, 0), int(4 * which), 4u);
}

static nir_ssa_def *buffer(nir_builder *b, unsigned slot)
{
   return terakan::compiler::storage_buffer_nir(b, slot);
}

static nir_ssa_def *load_dword(nir_builder *b, nir_ssa_def *pool, nir_ssa_def *offset)
{
   _nir_load_ssbo_indices indices{};
   indices.align_mul = 4;
   return _nir_build_load_ssbo(b, 1, 32, pool, offset, indices);
}

static void store_dword(nir_builder *b, nir_ssa_def *destination, nir_ssa_def *offset, nir_ssa_def *value)
{
   _nir_store_ssbo_indices indices{};
   indices.write_mask = 1;
   indices.align_mul = 4;
   _nir_build_store_ssbo(b, value, destination, offset, indices);
}

/* One invocation per query: the result (occlusion: the sum over the enabled backends of end -
 * begin, 64 bits as low and high dwords with the carry; timestamp: the counter) and its
 * availability, written as the flags ask. */
static nir_shader *query_copy_shader()
{
   nir_builder builder = terakan::compiler::begin_compute_nir("terakan query copy", copy_group_size, 1, 1);
   nir_builder *b = &builder;
   nir_ssa_def *group = nir_channel(b, nir_load_workgroup_id(b, 32), 0);
   nir_ssa_def *local = nir_channel(b, nir_load_local_invocation_id(b), 0);
   nir_ssa_def *i = nir_iadd(b, nir_imul_imm(b, group, copy_group_size), local);
   nir_ssa_def *pool = buffer(b, pool_slot);
   nir_ssa_def *destination = buffer(b, destination_slot);

   nir_push_if(b, nir_ult(b, i, push_constant(b, copy_count)));
   nir_ssa_def *base = nir_imul(b, nir_iadd(b, push_constant(b, copy_first_query), i),
                                push_constant(b, copy_pool_stride));
   nir_ssa_def *flags = push_constant(b, copy_flags);
   nir_ssa_def *wide = nir_ine_imm(b, nir_iand_imm(b, flags, VK_QUERY_RESULT_64_BIT), 0);
   nir_ssa_def *with_availability = nir_ine_imm(b, nir_iand_imm(b, flags, VK_QUERY_RESULT_WITH_AVAILABILITY_BIT), 0);
   nir_ssa_def *partial = nir_ine_imm(b, nir_iand_imm(b, flags, VK_QUERY_RESULT_PARTIAL_BIT), 0);
   nir_ssa_def *out = nir_iadd(b, push_constant(b, copy_dst_offset), nir_imul(b, i, push_constant(b, copy_dst_stride)));
   nir_ssa_def *element = nir_bcsel(b, wide, nir_imm_int(b, 8), nir_imm_int(b, 4));

   /* Pipeline statistics: each asked-for counter's end - begin at its index, then the
    * availability after the last. */
   nir_push_if(b, nir_ine_imm(b, push_constant(b, copy_statistics), 0));
   {
      nir_ssa_def *stats_available =
         nir_ine_imm(b, load_dword(b, pool, nir_iadd(b, base, push_constant(b, copy_available))), 0);
      for (unsigned counter = 0; counter < pm4::pipeline_statistic_count; counter++) {
         nir_ssa_def *index = push_constant(b, CopyConstant(copy_counter_index_0 + counter));
         nir_push_if(b, nir_iand(b, nir_ine_imm(b, index, -1), nir_ior(b, stats_available, partial)));
         nir_ssa_def *begin = nir_iadd_imm(b, base, 8 * counter);
         nir_ssa_def *end = nir_iadd(b, nir_iadd_imm(b, base, 8 * counter), push_constant(b, copy_sample_bytes));
         nir_ssa_def *begin_lo = load_dword(b, pool, begin), *begin_hi = load_dword(b, pool, nir_iadd_imm(b, begin, 4));
         nir_ssa_def *end_lo = load_dword(b, pool, end), *end_hi = load_dword(b, pool, nir_iadd_imm(b, end, 4));
         nir_ssa_def *borrow = nir_b2i32(b, nir_ult(b, end_lo, begin_lo));
         nir_ssa_def *lo = nir_bcsel(b, stats_available, nir_isub(b, end_lo, begin_lo), nir_imm_int(b, 0));
         nir_ssa_def *hi = nir_bcsel(b, stats_available, nir_isub(b, nir_isub(b, end_hi, begin_hi), borrow),
                                     nir_imm_int(b, 0));
         nir_ssa_def *at = nir_iadd(b, out, nir_imul(b, index, element));
         store_dword(b, destination, at, lo);
         nir_push_if(b, wide);
         store_dword(b, destination, nir_iadd_imm(b, at, 4), hi);
         nir_pop_if(b, nullptr);
         nir_pop_if(b, nullptr);
      }
      nir_push_if(b, with_availability);
      nir_ssa_def *flag_at = nir_iadd(b, out, nir_imul(b, push_constant(b, copy_value_count), element));
      store_dword(b, destination, flag_at, nir_b2i32(b, stats_available));
      nir_push_if(b, wide);
      store_dword(b, destination, nir_iadd_imm(b, flag_at, 4), nir_imm_int(b, 0));
      nir_pop_if(b, nullptr);
      nir_pop_if(b, nullptr);
   }
   nir_push_else(b, nullptr);

   nir_push_if(b, nir_ine_imm(b, push_constant(b, copy_timestamps), 0));
   nir_ssa_def *ts_lo = load_dword(b, pool, base);
   nir_ssa_def *ts_hi = load_dword(b, pool, nir_iadd_imm(b, base, 4));
   nir_ssa_def *ts_available = nir_ine_imm(b, load_dword(b, pool, nir_iadd_imm(b, base, 8)), 0);
   nir_push_else(b, nullptr);
   nir_ssa_def *mask = push_constant(b, copy_backend_mask);
   nir_ssa_def *lo = nir_imm_int(b, 0), *hi = nir_imm_int(b, 0), *available = nir_imm_true(b);
   for (unsigned backend = 0; backend < max_backends; backend++) {
      nir_ssa_def *pair = nir_iadd_imm(b, base, 16 * backend);
      nir_ssa_def *begin_lo = load_dword(b, pool, pair);
      nir_ssa_def *begin_hi = load_dword(b, pool, nir_iadd_imm(b, pair, 4));
      nir_ssa_def *end_lo = load_dword(b, pool, nir_iadd_imm(b, pair, 8));
      nir_ssa_def *end_hi = load_dword(b, pool, nir_iadd_imm(b, pair, 12));
      nir_ssa_def *enabled = nir_ine_imm(b, nir_iand_imm(b, mask, 1u << backend), 0);
      /* Both written flags (bit 31 of the high dwords) set. */
      nir_ssa_def *written = nir_ilt(b, nir_iand(b, begin_hi, end_hi), nir_imm_int(b, 0));
      nir_ssa_def *difference_lo = nir_isub(b, end_lo, begin_lo);
      nir_ssa_def *borrow = nir_b2i32(b, nir_ult(b, end_lo, begin_lo));
      nir_ssa_def *difference_hi = nir_isub(b, nir_isub(b, nir_iand_imm(b, end_hi, 0x7fffffff),
                                                        nir_iand_imm(b, begin_hi, 0x7fffffff)),
                                            borrow);
      nir_ssa_def *sum_lo = nir_iadd(b, lo, difference_lo);
      nir_ssa_def *carry = nir_b2i32(b, nir_ult(b, sum_lo, lo));
      nir_ssa_def *sum_hi = nir_iadd(b, nir_iadd(b, hi, difference_hi), carry);
      lo = nir_bcsel(b, enabled, sum_lo, lo);
      hi = nir_bcsel(b, enabled, sum_hi, hi);
      available = nir_bcsel(b, enabled, nir_iand(b, available, written), available);
   }
   nir_pop_if(b, nullptr);
   nir_ssa_def *value_lo = nir_if_phi(b, ts_lo, lo);
   nir_ssa_def *value_hi = nir_if_phi(b, ts_hi, hi);
   nir_ssa_def *is_available = nir_if_phi(b, ts_available, available);

   /* PARTIAL and incomplete: zero (between zero and the final result). */
   value_lo = nir_bcsel(b, is_available, value_lo, nir_imm_int(b, 0));
   value_hi = nir_bcsel(b, is_available, value_hi, nir_imm_int(b, 0));

   nir_push_if(b, nir_ior(b, is_available, partial));
   store_dword(b, destination, out, value_lo);
   nir_push_if(b, wide);
   store_dword(b, destination, nir_iadd_imm(b, out, 4), value_hi);
   nir_pop_if(b, nullptr);
   nir_pop_if(b, nullptr);

   nir_push_if(b, with_availability);
   nir_ssa_def *flag_offset = nir_iadd(b, out, nir_bcsel(b, wide, nir_imm_int(b, 8), nir_imm_int(b, 4)));
   store_dword(b, destination, flag_offset, nir_b2i32(b, is_available));
   nir_push_if(b, wide);
   store_dword(b, destination, nir_iadd_imm(b, flag_offset, 4), nir_imm_int(b, 0));
   nir_pop_if(b, nullptr);
   nir_pop_if(b, nullptr);
   nir_pop_if(b, nullptr); /* statistics or not */

   nir_pop_if(b, nullptr);
   return b->shader;
}

static terakan_query_meta *copy_program(terakan_device *device, VkResult &result)
{
   terakan_query_meta *meta = device->query_meta;
   std::lock_guard<std::mutex> guard(meta->lock);
   if (!meta->built) {
      meta->built = true;
      terakan::compiler::CompileOptions options;
      options.family = device->physical->pci->family;
      options.debug = terakan::compiler::debug_options_from_environment();
      std::string error;
      if (!terakan::compiler::compile_compute_nir(query_copy_shader(), options, meta->binary, error))
         meta->result = terakan_errorf(device, VK_ERROR_UNKNOWN, "terakan: the query copy shader does not compile: %s",
                                       error.c_str());
      else
         meta->result = terakan_upload_code(device, meta->binary.code, meta->code_bo);
   }
   result = meta->result;
   return result == VK_SUCCESS ? meta : nullptr;
}

/* Waits until the CP sees the dword at `offset` with bit 31 set (a written flag) or equal to 1
 * (a timestamp's availability). */
static void emit_wait(CommandStream &cs, RadeonBo &bo, uint64_t offset, uint32_t reference, uint32_t mask)
{
   cs.packet(pm4::WAIT_REG_MEM, 6);
   cs.emit(pm4::wait_reg_mem::FUNCTION_EQUAL | pm4::wait_reg_mem::MEM_SPACE);
   cs.emit(uint32_t(offset));
   cs.emit(uint32_t(offset >> 32) & 0xff);
   cs.emit(reference);
   cs.emit(mask);
   cs.emit(10); /* poll interval */
   cs.relocation(bo);
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdCopyQueryPoolResults(VkCommandBuffer commandBuffer, VkQueryPool queryPool, uint32_t firstQuery,
                                uint32_t queryCount, VkBuffer dstBuffer, VkDeviceSize dstOffset,
                                VkDeviceSize stride, VkQueryResultFlags flags)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   VK_FROM_HANDLE(terakan_query_pool, pool, queryPool);
   VK_FROM_HANDLE(terakan_buffer, dst, dstBuffer);
   if (!queryCount || vk_command_buffer_get_record_result(&cmd->vk) != VK_SUCCESS || !dst->memory)
      return;

   VkResult result;
   terakan_query_meta *meta = copy_program(cmd->device, result);
   if (!meta) {
      vk_command_buffer_set_error(&cmd->vk, result);
      return;
   }
   const terakan::compiler::ShaderBinary &binary = meta->binary;
   CommandStream &cs = terakan_cmd_stream(cmd);
   /* The query commands before (and their counts) finish before the copy reads them. */
   terakan_emit_full_barrier(cs);
   if (flags & VK_QUERY_RESULT_WAIT_BIT)
      for (uint32_t q = firstQuery; q < firstQuery + queryCount; q++) {
         const uint64_t offset = uint64_t(q) * pool->stride;
         if (pool->type == VK_QUERY_TYPE_TIMESTAMP) {
            emit_wait(cs, *pool->bo, offset + 8, 1, 0xffffffffu);
            continue;
         }
         if (pool->type == VK_QUERY_TYPE_PIPELINE_STATISTICS) {
            emit_wait(cs, *pool->bo, offset + statistics_available_offset, 1, 0xffffffffu);
            continue;
         }
         if (pool->type == VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT) {
            emit_wait(cs, *pool->bo, offset + xfb_available_offset, 1, 0xffffffffu);
            continue;
         }
         for (unsigned backend = 0; backend < max_backends; backend++)
            if (pool->backend_mask & (1u << backend))
               emit_wait(cs, *pool->bo, offset + 16 * backend + 12, 0x80000000u, 0x80000000u);
      }

   /* The destination RAT starts at the 256-byte unit below the first result. */
   RadeonBo &dst_bo = *dst->memory->bo;
   const uint64_t first_byte = dst->offset + dstOffset;
   const uint64_t rat_base = first_byte & ~uint64_t(255);
   const uint64_t element = (flags & VK_QUERY_RESULT_64_BIT) ? 8 : 4;
   const uint64_t last_byte = first_byte + uint64_t(queryCount - 1) * stride +
                              element * (values_per_query(pool) + ((flags & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT) ? 1 : 0));
   const uint64_t dst_range = last_byte - rat_base;
   const uint64_t pool_range = uint64_t(pool->count) * pool->stride;

   RadeonBo *constants_bo;
   uint64_t constants_offset;
   uint8_t *constants = terakan_cmd_upload(cmd, 512, 256, constants_bo, constants_offset);
   if (!constants)
      return;
   std::memset(constants, 0, 512);
   uint32_t push[copy_constant_count] = {};
   push[copy_count] = queryCount;
   push[copy_first_query] = firstQuery;
   push[copy_pool_stride] = pool->stride;
   push[copy_dst_offset] = uint32_t(first_byte - rat_base);
   push[copy_dst_stride] = uint32_t(stride);
   push[copy_flags] = flags;
   push[copy_backend_mask] = pool->backend_mask;
   push[copy_timestamps] = pool->type == VK_QUERY_TYPE_TIMESTAMP;
   push[copy_statistics] = pool->type == VK_QUERY_TYPE_PIPELINE_STATISTICS ||
                           pool->type == VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT;
   push[copy_value_count] = values_per_query(pool);
   push[copy_sample_bytes] = statistics_sample_bytes;
   push[copy_available] = statistics_available_offset;
   for (unsigned counter = 0; counter < pm4::pipeline_statistic_count; counter++)
      push[copy_counter_index_0 + counter] = ~0u;
   for (unsigned bit = 0, index = 0; bit < pm4::pipeline_statistic_count; bit++)
      if (pool->statistics & (1u << bit))
         push[copy_counter_index_0 + statistic_counter[bit]] = index++;
   if (pool->type == VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT) {
      /* Needed (counter 0) is Vulkan's second value, written (counter 1) its first. */
      push[copy_counter_index_0 + 0] = 1;
      push[copy_counter_index_0 + 1] = 0;
      push[copy_sample_bytes] = xfb_sample_bytes;
      push[copy_available] = xfb_available_offset;
   }
   std::memcpy(constants, push, sizeof(push));
   /* Driver constants: the group counts and, per storage buffer slot, the range's size and
    * last dword (what a dispatch of an application's pipeline fills in). */
   uint8_t *driver = constants + 256;
   const uint32_t groups[3] = {(queryCount + copy_group_size - 1) / copy_group_size, 1, 1};
   std::memcpy(driver, groups, sizeof(groups));
   const uint64_t ranges[2] = {pool_range, dst_range};
   for (unsigned slot = 0; slot < 2; slot++) {
      const uint32_t size = uint32_t(std::min<uint64_t>(ranges[slot], UINT32_MAX));
      const uint32_t last_dword = size >= 4 ? size / 4 - 1 : 0;
      std::memcpy(driver + 4 * (terakan::compiler::storage_buffer_size_constants + slot), &size, 4);
      std::memcpy(driver + 4 * (terakan::compiler::storage_buffer_last_dword_constants + slot), &last_dword, 4);
   }

   cs.config_registers(reg::VGT_COMPUTE_START_X, {0, 0, 0});
   terakan_emit_compute_fetch_resource(cs, pool_slot, *pool->bo, 0, pool_range);
   terakan_emit_compute_rat(cs, destination_slot, dst_bo, rat_base, dst_range);
   cs.context_registers(reg::CB_TARGET_MASK, {0xfu << (4 * destination_slot)});
   cs.context_registers(reg::SQ_ALU_CONST_BUFFER_SIZE_LS_0, {1, 1});
   cs.context_registers(reg::SQ_ALU_CONST_CACHE_LS_0,
                        {uint32_t(constants_offset >> 8), uint32_t((constants_offset + 256) >> 8)});
   cs.relocation(*constants_bo);
   cs.relocation(*constants_bo);
   cs.context_registers(reg::SQ_PGM_START_LS, {0, binary.gprs | (binary.stack_entries << 8), 0});
   cs.relocation(*meta->code_bo);
   cs.context_registers(reg::SPI_COMPUTE_INPUT_CNTL, {7}); /* local ids in R0, group ids in R1 */
   cs.context_registers(reg::SPI_COMPUTE_NUM_THREAD_X, {copy_group_size, 1, 1});
   cs.context_registers(reg::SQ_LDS_ALLOC, {(copy_group_size + 63) / 64 << 14});
   cs.packet(pm4::DISPATCH_DIRECT, 4, true);
   cs.emit(groups[0]);
   cs.emit(1);
   cs.emit(1);
   cs.emit(pm4::DISPATCH_INITIATOR_COMPUTE_SHADER_EN);
}
