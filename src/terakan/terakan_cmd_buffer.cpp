/* Command buffers: Vulkan commands recorded as PM4 packets for the radeon kernel's checker
 * (docs/architecture.md, "Command buffers"). Every dispatch carries all the state it needs
 * (program, constant buffers, fetch resources, RATs), because the kernel validates each
 * submission on its own and nothing survives between submissions from the kernel's view.
 * Constants and inline data live in upload buffers owned by the command buffer. */
#include "terakan_private.h"
#include "terakan_meta_copy.h"

#include <algorithm>
#include <cstring>

#include "hw/pm4.h"
#include "hw/registers.h"

namespace pm4 = terakan::hw::pm4;
namespace reg = terakan::hw::reg;
namespace hw = terakan::hw;
using terakan::winsys::CommandStream;
using terakan::winsys::RadeonBo;

/* A stream is closed and a new one begun when fewer dwords than this remain below the
 * kernel's limit; no single command records more. */
static constexpr size_t stream_headroom = 4096;
static constexpr uint64_t upload_bo_size = 256 * 1024;

static void begin_stream(terakan_cmd_buffer *cmd)
{
   cmd->streams.emplace_back();
   CommandStream &cs = cmd->streams.back();
   cs.dwords.reserve(4096);
   /* Load and shadow nothing: every dispatch writes the registers it relies on. */
   cs.packet(pm4::CONTEXT_CONTROL, 2);
   cs.emit(0x80000000u);
   cs.emit(0x80000000u);
   /* The kernel validates depth buffers on every dispatch unless depth is off. */
   cs.context_registers(reg::DB_DEPTH_CONTROL, {0});
}

/* The stream the next command goes to, with room for it. */
CommandStream &terakan_cmd_stream(terakan_cmd_buffer *cmd)
{
   if (cmd->streams.empty() ||
       cmd->streams.back().size() + stream_headroom > terakan::winsys::max_ib_dwords)
      begin_stream(cmd);
   return cmd->streams.back();
}

/* `size` bytes of upload memory aligned to `alignment`; nullptr (and the command buffer's
 * error set) when no buffer can be made. */
uint8_t *terakan_cmd_upload(terakan_cmd_buffer *cmd, uint64_t size, uint64_t alignment, RadeonBo *&bo,
                            uint64_t &offset)
{
   if (!cmd->upload_bos.empty()) {
      RadeonBo *last = cmd->upload_bos.back();
      const uint64_t start = align64(cmd->upload_used, alignment);
      if (start + size <= last->size()) {
         cmd->upload_used = start + size;
         bo = last;
         offset = start;
         return static_cast<uint8_t *>(last->map()) + start;
      }
   }
   std::string error;
   int error_number = 0;
   RadeonBo *fresh = RadeonBo::create(*cmd->device->radeon, std::max(size, upload_bo_size), 256,
                                      terakan::winsys::BoPlacement::GttCached, error, error_number);
   if (!fresh || !fresh->map()) {
      delete fresh;
      vk_command_buffer_set_error(&cmd->vk, VK_ERROR_OUT_OF_DEVICE_MEMORY);
      return nullptr;
   }
   cmd->upload_bos.push_back(fresh);
   cmd->upload_used = size;
   bo = fresh;
   offset = 0;
   return static_cast<uint8_t *>(fresh->map());
}

static void release_resources(terakan_cmd_buffer *cmd)
{
   for (RadeonBo *bo : cmd->upload_bos)
      delete bo;
   cmd->upload_bos.clear();
   cmd->upload_used = 0;
   cmd->compute_scratch = {};
   cmd->vertex_scratch = {};
   cmd->pixel_scratch = {};
   cmd->streams.clear();
   cmd->pipeline = nullptr;
   cmd->sets = {};
   cmd->push_constants = {};
   cmd->variant_dirty = true;
   cmd->variant_code = nullptr;
   cmd->dynamic_unnormalized_mask = 0;
   cmd->active_occlusion_queries = 0;
   cmd->condition = {};
   cmd->meta_draws_conditional = false;
   terakan_reset_graphics_state(cmd);
}

static VkResult cmd_buffer_create(struct vk_command_pool *pool, struct vk_command_buffer **out)
{
   terakan_device *device = container_of(pool->base.device, terakan_device, vk);
   auto *cmd = terakan_object_new<terakan_cmd_buffer>(&pool->alloc, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!cmd)
      return vk_error(device, VK_ERROR_OUT_OF_HOST_MEMORY);
   const VkResult result = vk_command_buffer_init(pool, &cmd->vk, &terakan_cmd_buffer_ops,
                                                   VK_COMMAND_BUFFER_LEVEL_PRIMARY);
   if (result != VK_SUCCESS) {
      terakan_object_delete(&pool->alloc, cmd);
      return result;
   }
   cmd->device = device;
   cmd->vk.dynamic_graphics_state.ms.sample_locations = &cmd->sample_locations;
   cmd->vk.dynamic_graphics_state.vi = &cmd->vertex_input;
   *out = &cmd->vk;
   return VK_SUCCESS;
}

static void cmd_buffer_reset(struct vk_command_buffer *vk_cmd, VkCommandBufferResetFlags)
{
   auto *cmd = container_of(vk_cmd, terakan_cmd_buffer, vk);
   vk_command_buffer_reset(&cmd->vk);
   release_resources(cmd);
}

static void cmd_buffer_destroy(struct vk_command_buffer *vk_cmd)
{
   auto *cmd = container_of(vk_cmd, terakan_cmd_buffer, vk);
   VkAllocationCallbacks alloc = cmd->vk.pool->alloc;
   release_resources(cmd);
   vk_command_buffer_finish(&cmd->vk);
   terakan_object_delete(&alloc, cmd);
}

const struct vk_command_buffer_ops terakan_cmd_buffer_ops = {
   .create = cmd_buffer_create,
   .reset = cmd_buffer_reset,
   .destroy = cmd_buffer_destroy,
};

extern "C" VKAPI_ATTR VkResult VKAPI_CALL
terakan_BeginCommandBuffer(VkCommandBuffer commandBuffer, const VkCommandBufferBeginInfo *)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   vk_command_buffer_reset(&cmd->vk);
   release_resources(cmd);
   /* A secondary records into its vk_cmd_queue (the runtime's recorders sit in front of
    * every vkCmd*), never into streams of its own. */
   if (cmd->vk.level == VK_COMMAND_BUFFER_LEVEL_SECONDARY)
      return VK_SUCCESS;
   try {
      begin_stream(cmd);
   } catch (const std::bad_alloc &) {
      return vk_command_buffer_set_error(&cmd->vk, VK_ERROR_OUT_OF_HOST_MEMORY);
   }
   return VK_SUCCESS;
}

/* A secondary command buffer holds its commands as the runtime recorded them (vk_cmd_queue);
 * executing it records them again, in order, into this primary through the table a primary's
 * commands take. So they draw into the render pass instance the primary is in, with its
 * attachments, whether the secondary inherited a VkRenderPass (with or without its
 * framebuffer) or dynamic rendering formats, and the queue is only read: a secondary runs as
 * often and in as many primaries as the application likes. A secondary whose recording
 * failed makes the primary fail the same way instead of running part of it. */
extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdExecuteCommands(VkCommandBuffer commandBuffer, uint32_t commandBufferCount,
                           const VkCommandBuffer *pCommandBuffers)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   for (uint32_t i = 0; i < commandBufferCount; i++) {
      VK_FROM_HANDLE(terakan_cmd_buffer, secondary, pCommandBuffers[i]);
      if (vk_command_buffer_has_error(&secondary->vk)) {
         terakan_cmd_fail(cmd, secondary->vk.record_result,
                          "vkCmdExecuteCommands with a secondary command buffer whose recording failed");
         return;
      }
      vk_cmd_queue_execute(&secondary->vk.cmd_queue, commandBuffer, &cmd->device->command_dispatch);
   }
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL
terakan_EndCommandBuffer(VkCommandBuffer commandBuffer)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   if (terakan_debug(TERAKAN_DEBUG_STREAMS)) {
      uint64_t dwords = 0;
      for (const CommandStream &cs : cmd->streams)
         dwords += cs.size();
      fprintf(stderr, "terakan: command buffer: %zu streams, %llu dwords\n", cmd->streams.size(),
              (unsigned long long)dwords);
   }
   return vk_command_buffer_get_record_result(&cmd->vk);
}

/* ---- state ---- */

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdBindPipeline(VkCommandBuffer commandBuffer, VkPipelineBindPoint bindPoint,
                        VkPipeline _pipeline)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   VK_FROM_HANDLE(terakan_pipeline, pipeline, _pipeline);
   if (bindPoint == VK_PIPELINE_BIND_POINT_GRAPHICS) {
      cmd->graphics_pipeline = pipeline;
      /* The pipeline's static state becomes the command buffer's until a dynamic state
       * command changes what the pipeline left dynamic. */
      vk_cmd_set_dynamic_graphics_state(&cmd->vk, &pipeline->graphics->dynamic);
      return;
   }
   if (bindPoint == VK_PIPELINE_BIND_POINT_COMPUTE && cmd->pipeline != pipeline) {
      cmd->pipeline = pipeline;
      cmd->variant_dirty = true;
   }
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdBindDescriptorSets(VkCommandBuffer commandBuffer, VkPipelineBindPoint bindPoint,
                              VkPipelineLayout, uint32_t firstSet, uint32_t setCount,
                              const VkDescriptorSet *pSets, uint32_t dynamicOffsetCount,
                              const uint32_t *pDynamicOffsets)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   if (bindPoint == VK_PIPELINE_BIND_POINT_COMPUTE)
      cmd->variant_dirty = true;
   else if (bindPoint != VK_PIPELINE_BIND_POINT_GRAPHICS)
      return;
   auto &sets = bindPoint == VK_PIPELINE_BIND_POINT_COMPUTE ? cmd->sets : cmd->graphics_sets;
   uint32_t next_dynamic = 0;
   for (uint32_t i = 0; i < setCount && firstSet + i < sets.size(); i++) {
      VK_FROM_HANDLE(terakan_descriptor_set, set, pSets[i]);
      terakan_bound_set &bound = sets[firstSet + i];
      bound.set = set;
      bound.dynamic_offsets = {};
      if (!set)
         continue;
      for (uint32_t d = 0; d < set->layout->dynamic_count && next_dynamic < dynamicOffsetCount; d++)
         if (d < bound.dynamic_offsets.size())
            bound.dynamic_offsets[d] = pDynamicOffsets[next_dynamic++];
   }
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdPushConstants(VkCommandBuffer commandBuffer, VkPipelineLayout, VkShaderStageFlags,
                         uint32_t offset, uint32_t size, const void *pValues)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   if (offset + size <= cmd->push_constants.size())
      std::memcpy(cmd->push_constants.data() + offset, pValues, size);
}

/* ---- dispatch ---- */

/* The descriptor a slot reads, with its dynamic offset applied. False if it was never
 * written (the application's error; nothing is bound then). */
bool terakan_slot_descriptor(const std::array<terakan_bound_set, 4> &sets, const terakan_slot_source &slot,
                             terakan_descriptor &out)
{
   const terakan_bound_set &bound = sets[slot.set];
   if (!bound.set || slot.descriptor >= bound.set->descriptors.size())
      return false;
   out = bound.set->descriptors[slot.descriptor];
   if (!out.bo)
      return false;
   if (slot.dynamic >= 0 && size_t(slot.dynamic) < bound.dynamic_offsets.size())
      out.offset += bound.dynamic_offsets[slot.dynamic];
   return true;
}

/* ALU constant buffer `index` of a stage (registers from `cache_reg` / `size_reg`, 4 bytes per
 * buffer) = `range` bytes at `offset` in `bo`: the base in 256-byte units, relocated (the
 * kernel adds the buffer's address >> 8), and the size in 256-byte units, at most the 64 KiB
 * the kcache reaches and never past the end of the buffer object. The offset is 256-byte
 * aligned: minUniformBufferOffsetAlignment and the buffers' memory alignment are 256. */
void terakan_emit_constant_buffer(CommandStream &cs, uint32_t cache_reg, uint32_t size_reg, unsigned index,
                                  RadeonBo &bo, uint64_t offset, uint64_t range, bool compute)
{
   const uint64_t available = bo.size() > offset ? bo.size() - offset : 0;
   const uint64_t bytes = std::min<uint64_t>({range, available, 65536});
   const uint32_t lines = uint32_t(std::min<uint64_t>((bytes + 255) / 256, available / 256));
   cs.context_registers(size_reg + 4 * index, {lines}, compute);
   cs.context_registers(cache_reg + 4 * index, {uint32_t(offset >> 8)}, compute);
   cs.relocation(bo);
}

static void emit_fetch_resource(CommandStream &cs, unsigned id, RadeonBo &bo, uint64_t offset,
                                uint64_t range)
{
   const uint32_t size = uint32_t(std::min<uint64_t>(range, UINT32_MAX));
   cs.packet(pm4::SET_RESOURCE, 9, true);
   cs.emit((reg::compute_fetch_resource_base + id) * 8);
   /* Stride 1: the compiler's fetches use byte addresses. */
   for (uint32_t word : reg::buffer_fetch_resource(offset, size, 1))
      cs.emit(word);
   cs.relocation(bo);
}

static void emit_rat(CommandStream &cs, unsigned id, RadeonBo &bo, uint64_t offset, uint64_t range,
                     bool compute = true)
{
   /* A linear-aligned surface must be at least 64 elements wide (the kernel's
    * evergreen_surface_check_linear_aligned: pitch aligned to max(64, group bytes / element
    * bytes), checked at every dispatch): PITCH 7 (64 elements) and SLICE 0 describe one
    * 256-byte layer, which is what the kernel checks against the buffer object; the RAT
    * itself addresses the whole buffer from BASE. */
   constexpr uint32_t pitch_64_elements = 64 / 8 - 1;
   const uint64_t elements = std::max<uint64_t>(range / 4, 1);
   cs.context_registers(reg::CB_COLOR0_BASE + id * reg::CB_COLOR_STRIDE,
                        {uint32_t(offset >> 8), pitch_64_elements, 0, 0, reg::rat_buffer_color_info,
                         reg::rat_buffer_color_attrib,
                         uint32_t(std::min<uint64_t>(elements - 1, 0xffffff))},
                        compute);
   cs.relocation(bo); /* BASE */
   cs.relocation(bo); /* ATTRIB */
}

void terakan_emit_compute_fetch_resource(CommandStream &cs, unsigned id, RadeonBo &bo, uint64_t offset,
                                         uint64_t range)
{
   emit_fetch_resource(cs, id, bo, offset, range);
}

void terakan_emit_compute_rat(CommandStream &cs, unsigned id, RadeonBo &bo, uint64_t offset, uint64_t range)
{
   emit_rat(cs, id, bo, offset, range);
}

void terakan_emit_draw_buffer_rat(CommandStream &cs, unsigned id, RadeonBo &bo, uint64_t offset, uint64_t range)
{
   emit_rat(cs, id, bo, offset, range, false);
}

/* The return buffer of returning RAT operations: every RAT's CB_IMMEDn_BASE, and the fetch
 * resource the program reads the old values through, UNCACHED so that the vertex cache never
 * serves an older value (as r600g's evergreen_setup_immed_buffer; compiler.h). */
static void emit_rat_returns(terakan_cmd_buffer *cmd, CommandStream &cs)
{
   RadeonBo &returns = *cmd->device->rat_return_bo;
   /* All eight compute RATs, whatever they are bound to (storage buffers, images). */
   for (unsigned id = 0; id < terakan::compiler::max_storage_buffer_slots; id++) {
      cs.context_registers(reg::CB_IMMED0_BASE + 4 * id, {0});
      cs.relocation(returns);
   }
   std::array<uint32_t, 8> words = reg::buffer_fetch_resource(0, uint32_t(returns.size()), 1);
   words[3] |= reg::buffer_resource_uncached;
   cs.packet(pm4::SET_RESOURCE, 9, true);
   cs.emit((reg::compute_fetch_resource_base + terakan::compiler::rat_return_fetch_resource) * 8);
   for (uint32_t word : words)
      cs.emit(word);
   cs.relocation(returns);
}

/* The descriptor of a texture resource or sampler slot; nullptr if none is bound. */
static const terakan_descriptor *texture_descriptor(const terakan_cmd_buffer *cmd, uint32_t set,
                                                    uint32_t descriptor)
{
   const terakan_bound_set &bound = cmd->sets[set];
   if (!bound.set || descriptor >= bound.set->descriptors.size())
      return nullptr;
   return &bound.set->descriptors[descriptor];
}

/* The program variant for the bound samplers (terakan_shader_variants.h) and the mask of
 * dynamically indexed elements whose sampler is unnormalized; only after a bind changed them. */
static bool select_variant(terakan_cmd_buffer *cmd)
{
   terakan_pipeline *pipeline = cmd->pipeline;
   if (!cmd->variant_dirty)
      return true;
   uint32_t key = 0, dynamic = 0;
   for (const terakan_unnormalized_source &source : pipeline->unnormalized) {
      const terakan_descriptor *d = texture_descriptor(cmd, source.set, source.descriptor);
      if (!d || !d->sampler || !d->sampler->unnormalized)
         continue;
      (source.dynamic ? dynamic : key) |= 1u << source.bit;
   }
   RadeonBo *code = pipeline->code_bo;
   if (pipeline->variants && (key & pipeline->variants->relevant_bits())) {
      std::string error;
      code = static_cast<RadeonBo *>(pipeline->variants->get(key & pipeline->variants->relevant_bits(), error));
      if (!code) {
         vk_command_buffer_set_error(&cmd->vk, terakan_errorf(cmd, VK_ERROR_OUT_OF_DEVICE_MEMORY,
                                                         "terakan: shader variant: %s", error.c_str()));
         return false;
      }
   }
   cmd->variant_code = code;
   cmd->dynamic_unnormalized_mask = dynamic;
   cmd->variant_dirty = false;
   return true;
}

static void emit_textures(terakan_cmd_buffer *cmd, CommandStream &cs)
{
   for (const terakan_texture_source &source : cmd->pipeline->textures) {
      if (source.rat)
         continue; /* terakan_emit_storage_image_rats */
      const terakan_descriptor *d = texture_descriptor(cmd, source.set, source.descriptor);
      if (source.sampler) {
         if (!d || !d->sampler)
            continue;
         cs.packet(pm4::SET_SAMPLER, 4, true);
         cs.emit((hw::compute_sampler_base + source.slot) * 3);
         for (uint32_t word : d->sampler->words)
            cs.emit(word);
         continue;
      }
      if (d && d->texel_format && d->bo) {
         const terakan_format &f = *d->texel_format;
         std::array<uint32_t, 4> swizzle;
         for (unsigned c = 0; c < 4; c++)
            swizzle[c] = uint32_t(f.swizzle[c]);
         cs.packet(pm4::SET_RESOURCE, 9, true);
         cs.emit((hw::compute_texture_resource_base + source.slot) * 8);
         for (uint32_t word : reg::texel_buffer_fetch_resource(
                 d->offset, uint32_t(std::min<uint64_t>(d->range, UINT32_MAX)), f.bytes, f.hw,
                 uint32_t(f.num_format), f.is_signed, swizzle))
            cs.emit(word);
         cs.relocation(*d->bo);
         continue;
      }
      if (!d || !d->image_view || !d->image_view->image->memory)
         continue;
      RadeonBo &bo = *d->image_view->image->memory->bo;
      cs.packet(pm4::SET_RESOURCE, 9, true);
      cs.emit((hw::compute_texture_resource_base + source.slot) * 8);
      const std::array<uint32_t, 8> words =
         source.storage ? terakan_storage_image_resource_words(d->image_view) : d->image_view->resource_words;
      for (uint32_t word : words)
         cs.emit(word);
      cs.relocation(bo); /* BASE_ADDRESS */
      if (terakan_resource_words_need_mip_relocation(words))
         cs.relocation(bo); /* MIP_ADDRESS */
   }
}

static void emit_dispatch_state(terakan_cmd_buffer *cmd, CommandStream &cs,
                                const std::array<uint32_t, 3> &base, RadeonBo *&driver_bo,
                                uint64_t &driver_offset, uint8_t *&driver_constants)
{
   terakan_pipeline *pipeline = cmd->pipeline;
   const terakan::compiler::ShaderBinary &binary = pipeline->binary;
   if (!select_variant(cmd))
      return;

   /* Constant buffers 0 (push constants) and 1 (driver constants), 256 bytes each. */
   RadeonBo *push_bo = nullptr;
   uint64_t push_offset = 0;
   uint8_t *push = terakan_cmd_upload(cmd, 512, 256, push_bo, push_offset);
   if (!push)
      return;
   std::memcpy(push, cmd->push_constants.data(), 256);
   driver_bo = push_bo;
   driver_offset = push_offset + 256;
   driver_constants = push + 256;
   std::memset(driver_constants, 0, 256);
   std::memcpy(driver_constants + 4 * terakan::compiler::unnormalized_mask_constant,
               &cmd->dynamic_unnormalized_mask, 4);
   terakan_write_resource_sizes(binary, pipeline->textures, cmd->sets, driver_constants);

   cs.config_registers(reg::VGT_COMPUTE_START_X, {base[0], base[1], base[2]});

   uint32_t target_mask = 0;
   for (const terakan_slot_source &slot : pipeline->slots) {
      terakan_descriptor d;
      if (!terakan_slot_descriptor(cmd->sets, slot, d))
         continue;
      /* Slots 0-7 are storage buffers (read-only ones have no RAT): their range's size for
       * OpArrayLength. */
      if (slot.slot < terakan::compiler::max_storage_buffer_slots) {
         const uint32_t size = uint32_t(std::min<uint64_t>(d.range, UINT32_MAX));
         const uint32_t last_dword = size >= 4 ? size / 4 - 1 : 0;
         std::memcpy(driver_constants + 4 * (terakan::compiler::storage_buffer_size_constants + slot.slot),
                     &size, 4);
         std::memcpy(driver_constants + 4 * (terakan::compiler::storage_buffer_last_dword_constants + slot.slot),
                     &last_dword, 4);
      }
      if (slot.rat) {
         emit_rat(cs, slot.slot, *d.bo, d.offset, d.range);
         target_mask |= 0xfu << (4 * slot.slot);
      }
      if (slot.fetch)
         emit_fetch_resource(cs, slot.slot, *d.bo, d.offset, d.range);
      if (slot.kcache >= 0)
         terakan_emit_constant_buffer(cs, reg::SQ_ALU_CONST_CACHE_LS_0, reg::SQ_ALU_CONST_BUFFER_SIZE_LS_0,
                                      unsigned(slot.kcache), *d.bo, d.offset, d.range, true);
   }
   target_mask |= terakan_emit_storage_image_rats(cmd, cs);
   cs.context_registers(reg::CB_TARGET_MASK, {target_mask});
   if (binary.rat_returns)
      emit_rat_returns(cmd, cs);
   emit_textures(cmd, cs);
   if (binary.push_constants_fetched)
      emit_fetch_resource(cs, terakan::compiler::push_constant_fetch_resource, *push_bo,
                          push_offset, 256);

   cs.context_registers(reg::SQ_ALU_CONST_BUFFER_SIZE_LS_0, {1, 1});
   cs.context_registers(reg::SQ_ALU_CONST_CACHE_LS_0,
                        {uint32_t(push_offset >> 8), uint32_t(driver_offset >> 8)});
   cs.relocation(*push_bo);
   cs.relocation(*push_bo);

   if (!terakan_emit_compute_scratch(cmd, cs, binary)) {
      driver_constants = nullptr; /* no dispatch: the command buffer has failed */
      return;
   }
   cs.context_registers(reg::SQ_PGM_START_LS, {0, binary.gprs | (binary.stack_entries << 8), 0});
   cs.relocation(*cmd->variant_code);
   /* TID_IN_GROUP_ENA | TGID_ENA | DISABLE_INDEX_PACK: local ids in R0, group ids in R1. */
   cs.context_registers(reg::SPI_COMPUTE_INPUT_CNTL, {7});
   cs.context_registers(reg::SPI_COMPUTE_NUM_THREAD_X,
                        {binary.workgroup_size[0], binary.workgroup_size[1], binary.workgroup_size[2]});
   /* SQ_LDS_ALLOC: dwords of LDS, and the wavefronts per group from bit 14 (as Mesa's r600
    * compute path programs it). */
   const unsigned threads = binary.workgroup_size[0] * binary.workgroup_size[1] * binary.workgroup_size[2];
   const unsigned waves = (threads + 63) / 64;
   cs.context_registers(reg::SQ_LDS_ALLOC, {((binary.lds_bytes + 3) / 4) | (waves << 14)});
}

static bool can_dispatch(terakan_cmd_buffer *cmd)
{
   if (!cmd->pipeline) {
      vk_command_buffer_set_error(&cmd->vk, VK_ERROR_UNKNOWN);
      return false;
   }
   return vk_command_buffer_get_record_result(&cmd->vk) == VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdDispatchBase(VkCommandBuffer commandBuffer, uint32_t baseX, uint32_t baseY,
                        uint32_t baseZ, uint32_t x, uint32_t y, uint32_t z)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   if (!can_dispatch(cmd) || x == 0 || y == 0 || z == 0)
      return;
   CommandStream &cs = terakan_cmd_stream(cmd);
   RadeonBo *driver_bo;
   uint64_t driver_offset;
   uint8_t *driver = nullptr;
   emit_dispatch_state(cmd, cs, {baseX, baseY, baseZ}, driver_bo, driver_offset, driver);
   if (!driver)
      return;
   const uint32_t groups[3] = {x, y, z};
   std::memcpy(driver, groups, sizeof(groups));
   terakan_draw_packet(cmd, cs, pm4::DISPATCH_DIRECT, 4, true);
   cs.emit(x);
   cs.emit(y);
   cs.emit(z);
   cs.emit(pm4::DISPATCH_INITIATOR_COMPUTE_SHADER_EN);
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdSetDeviceMask(VkCommandBuffer, uint32_t)
{
   /* The one device of the group is always in the mask (Vulkan requires mask bit 0 here). */
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdDispatch(VkCommandBuffer commandBuffer, uint32_t x, uint32_t y, uint32_t z)
{
   terakan_CmdDispatchBase(commandBuffer, 0, 0, 0, x, y, z);
}

static void emit_cp_dma(CommandStream &cs, RadeonBo *src, uint64_t src_offset, uint32_t fill,
                        RadeonBo &dst, uint64_t dst_offset, uint32_t bytes, bool sync);

void terakan_emit_cp_dma_copy(CommandStream &cs, RadeonBo &src, uint64_t src_offset, RadeonBo &dst,
                              uint64_t dst_offset, uint32_t bytes, bool sync)
{
   emit_cp_dma(cs, &src, src_offset, 0, dst, dst_offset, bytes, sync);
}

static void emit_cp_dma(CommandStream &cs, RadeonBo *src, uint64_t src_offset, uint32_t fill,
                        RadeonBo &dst, uint64_t dst_offset, uint32_t bytes, bool sync)
{
   cs.packet(pm4::CP_DMA, 5);
   cs.emit(src ? uint32_t(src_offset) : fill);
   cs.emit((src ? (uint32_t(src_offset >> 32) & 0xff) | pm4::cp_dma::src_sel(0)
                : pm4::cp_dma::src_sel(2)) |
           pm4::cp_dma::dst_sel(0) | (sync ? pm4::cp_dma::CP_SYNC : 0));
   cs.emit(uint32_t(dst_offset));
   cs.emit(uint32_t(dst_offset >> 32) & 0xff);
   cs.emit(bytes);
   if (src)
      cs.relocation(*src);
   cs.relocation(dst);
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdDispatchIndirect(VkCommandBuffer commandBuffer, VkBuffer _buffer, VkDeviceSize offset)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   VK_FROM_HANDLE(terakan_buffer, buffer, _buffer);
   if (!can_dispatch(cmd))
      return;
   CommandStream &cs = terakan_cmd_stream(cmd);
   RadeonBo *driver_bo;
   uint64_t driver_offset;
   uint8_t *driver = nullptr;
   emit_dispatch_state(cmd, cs, {0, 0, 0}, driver_bo, driver_offset, driver);
   if (!driver)
      return;
   RadeonBo &args = *buffer->memory->bo;
   const uint64_t args_offset = buffer->offset + offset;
   /* gl_NumWorkGroups is read from the driver constants: copy the three counts there first,
    * and let the copy finish before the dispatch reads them (CP_SYNC). */
   emit_cp_dma(cs, &args, args_offset, 0, *driver_bo, driver_offset, 12, true);
   terakan_draw_packet(cmd, cs, pm4::DISPATCH_INDIRECT, 2, true);
   cs.emit(uint32_t(args_offset));
   cs.emit(pm4::DISPATCH_INITIATOR_COMPUTE_SHADER_EN);
   cs.relocation(args);
}

/* ---- synchronization ---- */

/* Waits for every dispatch and draw so far and makes its writes visible to everything after:
 * the compute and pixel-shader partial flushes, the CB/DB cache flush event, then a surface
 * sync over all of memory that flushes the colour (RAT) and depth caches and invalidates the
 * texture, vertex and shader constant caches. */
void terakan_emit_full_barrier(CommandStream &cs)
{
   cs.packet(pm4::EVENT_WRITE, 1);
   cs.emit(pm4::EVENT_CS_PARTIAL_FLUSH);
   cs.packet(pm4::EVENT_WRITE, 1);
   cs.emit(pm4::EVENT_PS_PARTIAL_FLUSH);
   cs.packet(pm4::EVENT_WRITE, 1);
   cs.emit(pm4::EVENT_CACHE_FLUSH_AND_INV);
   uint32_t coher = pm4::coher::TC_ACTION | pm4::coher::VC_ACTION | pm4::coher::CB_ACTION |
                    pm4::coher::DB_ACTION | pm4::coher::SH_ACTION | pm4::coher::SX_ACTION;
   for (unsigned n = 0; n < 8; n++)
      coher |= pm4::coher::cb_dest_base(n);
   cs.packet(pm4::SURFACE_SYNC, 4);
   cs.emit(coher);
   cs.emit(0xffffffffu); /* CP_COHER_SIZE: everything */
   cs.emit(0);           /* CP_COHER_BASE */
   cs.emit(10);          /* poll interval */
}

/* The Vulkan 1.0 forms (vkCmdSetEvent, vkCmdPipelineBarrier, vkCmdCopyBuffer, ...) reach these
 * through the runtime's common wrappers. */
extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdPipelineBarrier2(VkCommandBuffer commandBuffer, const VkDependencyInfo *)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   terakan_emit_full_barrier(terakan_cmd_stream(cmd));
}

static void emit_event_write(terakan_cmd_buffer *cmd, VkEvent _event, uint32_t value)
{
   VK_FROM_HANDLE(terakan_event, event, _event);
   CommandStream &cs = terakan_cmd_stream(cmd);
   terakan_emit_full_barrier(cs);
   cs.packet(pm4::MEM_WRITE, 4);
   cs.emit(0);
   cs.emit(pm4::MEM_WRITE_DATA32);
   cs.emit(value);
   cs.emit(0);
   cs.relocation(*event->bo);
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdSetEvent2(VkCommandBuffer commandBuffer, VkEvent event, const VkDependencyInfo *)
{
   emit_event_write(terakan_cmd_buffer_from_handle(commandBuffer), event, 1);
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdResetEvent2(VkCommandBuffer commandBuffer, VkEvent event, VkPipelineStageFlags2)
{
   emit_event_write(terakan_cmd_buffer_from_handle(commandBuffer), event, 0);
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdWaitEvents2(VkCommandBuffer commandBuffer, uint32_t eventCount, const VkEvent *pEvents,
                       const VkDependencyInfo *)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   CommandStream &cs = terakan_cmd_stream(cmd);
   for (uint32_t i = 0; i < eventCount; i++) {
      VK_FROM_HANDLE(terakan_event, event, pEvents[i]);
      cs.packet(pm4::WAIT_REG_MEM, 6);
      cs.emit(pm4::wait_reg_mem::FUNCTION_EQUAL | pm4::wait_reg_mem::MEM_SPACE);
      cs.emit(0);
      cs.emit(0);
      cs.emit(1);          /* reference */
      cs.emit(0xffffffffu); /* mask */
      cs.emit(10);         /* poll interval */
      cs.relocation(*event->bo);
   }
   terakan_emit_full_barrier(cs);
}

/* ---- transfers (the command processor's DMA engine) ---- */

static void copy_bytes(terakan_cmd_buffer *cmd, RadeonBo &src, uint64_t src_offset, RadeonBo &dst,
                       uint64_t dst_offset, uint64_t size)
{
   while (size) {
      const uint32_t bytes = uint32_t(std::min<uint64_t>(size, pm4::cp_dma::max_bytes & ~3u));
      size -= bytes;
      emit_cp_dma(terakan_cmd_stream(cmd), &src, src_offset, 0, dst, dst_offset, bytes, size == 0);
      src_offset += bytes;
      dst_offset += bytes;
   }
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdCopyBuffer2(VkCommandBuffer commandBuffer, const VkCopyBufferInfo2 *info)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   VK_FROM_HANDLE(terakan_buffer, src, info->srcBuffer);
   VK_FROM_HANDLE(terakan_buffer, dst, info->dstBuffer);
   for (uint32_t i = 0; i < info->regionCount; i++)
      copy_bytes(cmd, *src->memory->bo, src->offset + info->pRegions[i].srcOffset,
                 *dst->memory->bo, dst->offset + info->pRegions[i].dstOffset,
                 info->pRegions[i].size);
}

/* Buffer <-> image: a tiled image by the copy shader (terakan_meta_copy.cpp, docs/architecture.md
 * "Copies"); otherwise, and where the shader path does not apply (multisampled images, buffers
 * a RAT cannot cover, TERAKAN_DEBUG=dmacopies), one CP DMA copy per run of bytes that is
 * contiguous on both sides: rows
 * (a whole slice when they are packed) for linear images; texel by texel, merged where the
 * micro-tile order allows, for tiled ones (terakan_image.cpp). Compressed images are copied
 * in blocks: the region's texel offsets and sizes are divided by the block size (Vulkan
 * requires offsets on block boundaries; a size reaching the image's edge may be partial). */
static void copy_buffer_image(terakan_cmd_buffer *cmd, terakan_buffer *buffer, terakan_image *image,
                              const VkBufferImageCopy2 &region, bool to_image)
{
   if (!buffer->memory || !image->memory)
      return;
   const VkImageSubresourceLayers &sub = region.imageSubresource;
   /* Tiled images: one dispatch of the copy shader (terakan_meta_copy.cpp). */
   if (terakan_meta_copy_buffer_image(cmd, buffer, image, region, to_image)) {
      if (to_image && !(image->format->stencil && sub.aspectMask == VK_IMAGE_ASPECT_STENCIL_BIT))
         terakan_cmd_refresh_sampling_copy(cmd, image, sub.mipLevel, 1, sub.baseArrayLayer, sub.layerCount);
      return;
   }
   /* The stencil aspect of a depth/stencil format is its own 8-bit plane (terakan_image.cpp);
    * the depth aspect is the depth plane, as the buffer holds it (Z_24 in the low 24 bits of
    * each dword, Vulkan's packing of D24 depth). */
   const bool stencil = image->format->stencil && sub.aspectMask == VK_IMAGE_ASPECT_STENCIL_BIT;
   const terakan::hw::SurfaceLayout &layout = stencil ? image->stencil_layout : image->layout;
   const terakan::hw::SurfaceDescription &surface = stencil ? image->stencil_surface : image->surface;
   const uint64_t plane = stencil ? image->stencil_offset : 0;
   const uint64_t bytes_per_texel = stencil ? 1 : image->format->bytes;
   const uint32_t block = stencil ? 1 : image->format->block;
   auto blocks = [block](uint32_t texels) { return (texels + block - 1) / block; };
   const uint32_t row_length = blocks(region.bufferRowLength ? region.bufferRowLength : region.imageExtent.width);
   const uint32_t image_height = blocks(region.bufferImageHeight ? region.bufferImageHeight : region.imageExtent.height);
   const uint32_t width = blocks(region.imageExtent.width), height = blocks(region.imageExtent.height);
   const uint32_t offset_x = uint32_t(region.imageOffset.x) / block, offset_y = uint32_t(region.imageOffset.y) / block;
   const bool is_3d = image->surface.is_3d;
   const uint32_t slices = is_3d ? region.imageExtent.depth : sub.layerCount;
   const bool linear = layout.levels[sub.mipLevel].mode == terakan::hw::ArrayMode::LinearAligned ||
                       layout.levels[sub.mipLevel].mode == terakan::hw::ArrayMode::LinearGeneral;
   RadeonBo &buffer_bo = *buffer->memory->bo;
   RadeonBo &image_bo = *image->memory->bo;

   uint64_t run_buffer = 0, run_image = 0, run_bytes = 0, runs = 0;
   auto flush = [&]() {
      if (!run_bytes)
         return;
      runs++;
      if (to_image)
         copy_bytes(cmd, buffer_bo, run_buffer, image_bo, run_image, run_bytes);
      else
         copy_bytes(cmd, image_bo, run_image, buffer_bo, run_buffer, run_bytes);
      run_bytes = 0;
   };
   for (uint32_t s = 0; s < slices; s++) {
      const uint32_t slice = is_3d ? uint32_t(region.imageOffset.z) + s : sub.baseArrayLayer + s;
      for (uint32_t y = 0; y < height; y++) {
         const uint64_t row_buffer = buffer->offset + region.bufferOffset +
                                     ((uint64_t(s) * image_height + y) * row_length) * bytes_per_texel;
         /* Linear rows are contiguous: one step per row; tiled images: one step per texel. */
         const uint32_t step = linear ? width : 1;
         for (uint32_t x = 0; x < width; x += step) {
            const uint64_t buffer_offset = row_buffer + x * bytes_per_texel;
            const uint64_t bytes = step * bytes_per_texel;
            const uint64_t image_offset =
               image->offset + plane + terakan::hw::surface_texel_offset(layout, surface, sub.mipLevel,
                                                                 offset_x + x, offset_y + y, slice);
            if (run_bytes && buffer_offset == run_buffer + run_bytes && image_offset == run_image + run_bytes) {
               run_bytes += bytes;
               continue;
            }
            flush();
            run_buffer = buffer_offset;
            run_image = image_offset;
            run_bytes = bytes;
         }
      }
   }
   flush();
   if (terakan_debug(TERAKAN_DEBUG_COPIES))
      fprintf(stderr, "terakan: copy: cp-dma, %llu runs\n", (unsigned long long)runs);
   if (to_image && !stencil)
      terakan_cmd_refresh_sampling_copy(cmd, image, sub.mipLevel, 1, sub.baseArrayLayer, sub.layerCount);
}

/* Where texel (x, y) of `slice` of one level of one aspect of an image starts in its buffer
 * object, and how many bytes a texel has there. */
struct ImageAspectPlace {
   const terakan_image *image;
   const terakan::hw::SurfaceLayout *layout;
   const terakan::hw::SurfaceDescription *surface;
   uint64_t plane;
   unsigned bytes;
   unsigned block; /* texels per block side: 4 for compressed formats */

   ImageAspectPlace(const terakan_image *image, VkImageAspectFlags aspect)
      : image(image)
   {
      const bool stencil = image->format->stencil && aspect == VK_IMAGE_ASPECT_STENCIL_BIT;
      layout = stencil ? &image->stencil_layout : &image->layout;
      surface = stencil ? &image->stencil_surface : &image->surface;
      plane = stencil ? image->stencil_offset : 0;
      bytes = stencil ? 1 : image->format->bytes;
      block = stencil ? 1 : image->format->block;
   }

   uint64_t offset(uint32_t level, uint32_t x, uint32_t y, uint32_t slice) const
   {
      return image->offset + plane + terakan::hw::surface_texel_offset(*layout, *surface, level, x, y, slice);
   }
};

/* Whole slices of two levels laid out alike (mode, pitch, aligned height, element size, micro-tile
 * order, 2D tiling parameters, sample count) copied from and to the same place: every byte lands
 * where it was, so the slices are one CP DMA run. Only for regions covering the whole level, on
 * the same layers (or 3D slices) of both. Multisampled colour takes its FMASK slices along (a
 * second run: each pixel's fragment indices, laid out alike too); there is no CMASK
 * (terakan_image.cpp). */
static bool copy_identical_levels(terakan_cmd_buffer *cmd, const ImageAspectPlace &from, const ImageAspectPlace &to,
                                  const VkImageCopy2 &region)
{
   const VkImageSubresourceLayers &a = region.srcSubresource, &b = region.dstSubresource;
   const terakan_image *src = from.image, *dst = to.image;
   if (src->vk.samples != dst->vk.samples || src->surface.is_3d != dst->surface.is_3d || from.block != to.block ||
       from.bytes != to.bytes)
      return false;
   const bool fmask = src->vk.samples > 1 && !src->format->depth;
   if (fmask && (!src->fmask_offset != !dst->fmask_offset || src->fmask_slice_bytes != dst->fmask_slice_bytes ||
                 src->fmask_aligned_height != dst->fmask_aligned_height ||
                 src->fmask_bank_height != dst->fmask_bank_height))
      return false;
   const terakan::hw::SurfaceLevel &l = from.layout->levels[a.mipLevel], &m = to.layout->levels[b.mipLevel];
   const bool is_3d = src->surface.is_3d;
   const uint32_t first = is_3d ? 0 : a.baseArrayLayer;
   const uint32_t count = is_3d ? region.extent.depth : a.layerCount;
   if (l.mode != m.mode || l.pitch != m.pitch || l.aligned_height != m.aligned_height || l.slice_bytes != m.slice_bytes ||
       from.surface->non_displayable_order != to.surface->non_displayable_order || region.srcOffset.x ||
       region.srcOffset.y || region.srcOffset.z || region.dstOffset.x || region.dstOffset.y || region.dstOffset.z ||
       region.extent.width != l.width || region.extent.height != l.height || l.width != m.width ||
       l.height != m.height || (is_3d ? region.extent.depth != l.depth || l.depth != m.depth
                                      : first != b.baseArrayLayer || count != b.layerCount))
      return false;
   if (l.mode == terakan::hw::ArrayMode::Tiled2DThin1) {
      const terakan::hw::MacroTiling &p = from.layout->macro, &q = to.layout->macro;
      if (p.bank_width != q.bank_width || p.bank_height != q.bank_height || p.macro_tile_aspect != q.macro_tile_aspect ||
          p.tile_split_bytes != q.tile_split_bytes || p.banks != q.banks)
         return false;
   }
   /* Slice k of a level fills bytes [k, k + 1) x slice_bytes from the level's start, whatever
    * the texel order inside it (a 2D-tiled slice's texel (0, 0) need not be its first byte). */
   copy_bytes(cmd, *src->memory->bo, src->offset + from.plane + l.offset + l.slice_bytes * first, *dst->memory->bo,
              dst->offset + to.plane + m.offset + m.slice_bytes * first, l.slice_bytes * count);
   if (fmask && src->fmask_offset)
      copy_bytes(cmd, *src->memory->bo, src->offset + src->fmask_offset + src->fmask_slice_bytes * first,
                 *dst->memory->bo, dst->offset + dst->fmask_offset + dst->fmask_slice_bytes * first,
                 src->fmask_slice_bytes * count);
   if (terakan_debug(TERAKAN_DEBUG_COPIES))
      fprintf(stderr, "terakan: copy: cp-dma, whole slices%s\n", fmask && src->fmask_offset ? " and FMASK" : "");
   return true;
}

/* Image to image, per aspect: whole levels laid out alike as one CP DMA run
 * (copy_identical_levels); other multisampled copies as draws shading every sample
 * (terakan_meta_copy_msaa.cpp); with a tiled side, the copy shader (terakan_meta_copy.cpp);
 * otherwise one CP DMA copy per run of texels contiguous on both sides (as for buffer copies).
 * Both images have elements of the same size (Vulkan's size-compatibility rule): the copy
 * walks the source's elements (texels, or blocks of a compressed format) and puts each on one
 * element of the destination, so a BC1 block can land on an R32G32_UINT texel and back. */
static void copy_image_region(terakan_cmd_buffer *cmd, terakan_image *src, terakan_image *dst,
                              const VkImageCopy2 &region)
{
   if (!src->memory || !dst->memory)
      return;
   for (VkImageAspectFlags aspect : {VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_ASPECT_STENCIL_BIT}) {
      if (!(region.srcSubresource.aspectMask & aspect))
         continue;
      const VkImageAspectFlags dst_aspect =
         region.dstSubresource.aspectMask & aspect ? aspect : region.dstSubresource.aspectMask;
      const ImageAspectPlace from(src, aspect), to(dst, dst_aspect);
      if (from.bytes != to.bytes) {
         vk_command_buffer_set_error(&cmd->vk, terakan_errorf(cmd, VK_ERROR_FEATURE_NOT_PRESENT,
                                                              "terakan: image copy between texels of %u and %u bytes",
                                                              from.bytes, to.bytes));
         return;
      }
      /* Whole levels laid out alike: one CP DMA run; with a tiled side otherwise one dispatch of
       * the copy shader (terakan_meta_copy.cpp). */
      if (copy_identical_levels(cmd, from, to, region) ||
          (src->vk.samples > 1 && terakan_meta_copy_multisampled(cmd, src, dst, region, aspect, dst_aspect)) ||
          terakan_meta_copy_image(cmd, src, dst, region, aspect, dst_aspect)) {
         if (dst_aspect == VK_IMAGE_ASPECT_DEPTH_BIT && !dst->surface.is_3d)
            terakan_cmd_refresh_sampling_copy(cmd, dst, region.dstSubresource.mipLevel, 1,
                                              region.dstSubresource.baseArrayLayer, region.dstSubresource.layerCount);
         continue;
      }
      const bool src_3d = src->surface.is_3d, dst_3d = dst->surface.is_3d;
      const uint32_t slices = src_3d ? region.extent.depth : region.srcSubresource.layerCount;
      const uint32_t width = (region.extent.width + from.block - 1) / from.block;
      const uint32_t height = (region.extent.height + from.block - 1) / from.block;
      const uint32_t src_x = uint32_t(region.srcOffset.x) / from.block, src_y = uint32_t(region.srcOffset.y) / from.block;
      const uint32_t dst_x = uint32_t(region.dstOffset.x) / to.block, dst_y = uint32_t(region.dstOffset.y) / to.block;
      uint64_t run_src = 0, run_dst = 0, run_bytes = 0, runs = 0;
      auto flush = [&]() {
         if (run_bytes) {
            copy_bytes(cmd, *src->memory->bo, run_src, *dst->memory->bo, run_dst, run_bytes);
            runs++;
         }
         run_bytes = 0;
      };
      for (uint32_t s = 0; s < slices; s++) {
         const uint32_t src_slice = src_3d ? uint32_t(region.srcOffset.z) + s : region.srcSubresource.baseArrayLayer + s;
         const uint32_t dst_slice = dst_3d ? uint32_t(region.dstOffset.z) + s : region.dstSubresource.baseArrayLayer + s;
         for (uint32_t y = 0; y < height; y++)
            for (uint32_t x = 0; x < width; x++) {
               const uint64_t a = from.offset(region.srcSubresource.mipLevel, src_x + x, src_y + y, src_slice);
               const uint64_t b = to.offset(region.dstSubresource.mipLevel, dst_x + x, dst_y + y, dst_slice);
               if (run_bytes && a == run_src + run_bytes && b == run_dst + run_bytes) {
                  run_bytes += from.bytes;
                  continue;
               }
               flush();
               run_src = a;
               run_dst = b;
               run_bytes = from.bytes;
            }
      }
      flush();
      if (terakan_debug(TERAKAN_DEBUG_COPIES))
         fprintf(stderr, "terakan: copy: cp-dma, %llu runs\n", (unsigned long long)runs);
      if (dst_aspect == VK_IMAGE_ASPECT_DEPTH_BIT && !dst_3d)
         terakan_cmd_refresh_sampling_copy(cmd, dst, region.dstSubresource.mipLevel, 1,
                                           region.dstSubresource.baseArrayLayer, region.dstSubresource.layerCount);
   }
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdCopyImage2(VkCommandBuffer commandBuffer, const VkCopyImageInfo2 *info)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   VK_FROM_HANDLE(terakan_image, src, info->srcImage);
   VK_FROM_HANDLE(terakan_image, dst, info->dstImage);
   for (uint32_t i = 0; i < info->regionCount; i++)
      copy_image_region(cmd, src, dst, info->pRegions[i]);
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdCopyBufferToImage2(VkCommandBuffer commandBuffer, const VkCopyBufferToImageInfo2 *info)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   VK_FROM_HANDLE(terakan_buffer, buffer, info->srcBuffer);
   VK_FROM_HANDLE(terakan_image, image, info->dstImage);
   for (uint32_t i = 0; i < info->regionCount; i++)
      copy_buffer_image(cmd, buffer, image, info->pRegions[i], true);
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdCopyImageToBuffer2(VkCommandBuffer commandBuffer, const VkCopyImageToBufferInfo2 *info)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   VK_FROM_HANDLE(terakan_image, image, info->srcImage);
   VK_FROM_HANDLE(terakan_buffer, buffer, info->dstBuffer);
   for (uint32_t i = 0; i < info->regionCount; i++)
      copy_buffer_image(cmd, buffer, image, info->pRegions[i], false);
}

/* Fills bytes (a multiple of 4) with a 32-bit pattern, one CP DMA per maximum-size run. */
void terakan_cmd_fill(terakan_cmd_buffer *cmd, RadeonBo &bo, uint64_t offset, uint64_t bytes, uint32_t pattern)
{
   while (bytes) {
      const uint32_t chunk = uint32_t(std::min<uint64_t>(bytes, pm4::cp_dma::max_bytes & ~3u));
      bytes -= chunk;
      emit_cp_dma(terakan_cmd_stream(cmd), nullptr, 0, pattern, bo, offset, chunk, bytes == 0);
      offset += chunk;
   }
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdFillBuffer(VkCommandBuffer commandBuffer, VkBuffer dstBuffer, VkDeviceSize dstOffset,
                      VkDeviceSize size, uint32_t data)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   VK_FROM_HANDLE(terakan_buffer, dst, dstBuffer);
   terakan_cmd_fill(cmd, *dst->memory->bo, dst->offset + dstOffset,
                    vk_buffer_range(&dst->vk, dstOffset, size) & ~uint64_t(3), data);
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_CmdUpdateBuffer(VkCommandBuffer commandBuffer, VkBuffer dstBuffer, VkDeviceSize dstOffset,
                        VkDeviceSize dataSize, const void *pData)
{
   VK_FROM_HANDLE(terakan_cmd_buffer, cmd, commandBuffer);
   VK_FROM_HANDLE(terakan_buffer, dst, dstBuffer);
   RadeonBo *bo;
   uint64_t offset;
   uint8_t *data = terakan_cmd_upload(cmd, dataSize, 4, bo, offset);
   if (!data)
      return;
   std::memcpy(data, pData, dataSize);
   copy_bytes(cmd, *bo, offset, *dst->memory->bo, dst->offset + dstOffset, dataSize);
}
