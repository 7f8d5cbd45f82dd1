/* Compute pipelines: SPIR-V through Terakan's compiler, cached by Mesa's pipeline cache (and
 * its on-disk cache), code uploaded into a buffer object the dispatch points SQ_PGM_START_LS
 * at. The pipeline layout decides which hardware slot each buffer binding uses. */
#include "terakan_private.h"

#include <algorithm>
#include <cstring>

#include "util/log.h"

#include "util/blob.h"
#include "util/mesa-sha1.h"
#include "vk_shader_module.h"

using terakan::compiler::BufferBinding;
using terakan::compiler::SamplerCoordinates;
using terakan::compiler::ShaderBinary;
using terakan::compiler::TextureBinding;

/* ---- cache object: a serialized ShaderBinary under a SHA-1 key ---- */

struct terakan_cached_binary {
   struct vk_pipeline_cache_object base;
   uint8_t key[20];
   std::vector<uint8_t> bytes;
};

static bool cached_binary_serialize(struct vk_pipeline_cache_object *object, struct blob *blob)
{
   auto *cached = container_of(object, terakan_cached_binary, base);
   blob_write_bytes(blob, cached->bytes.data(), cached->bytes.size());
   return true;
}

static void cached_binary_destroy(struct vk_pipeline_cache_object *object)
{
   auto *cached = container_of(object, terakan_cached_binary, base);
   struct vk_device *device = object->device;
   vk_pipeline_cache_object_finish(&cached->base);
   terakan_object_delete(&device->alloc, cached);
}

static struct vk_pipeline_cache_object *
cached_binary_create(struct vk_device *device, const void *key, size_t key_size,
                     std::vector<uint8_t> bytes);

static struct vk_pipeline_cache_object *
cached_binary_deserialize(struct vk_device *device, const void *key_data, size_t key_size,
                          struct blob_reader *blob)
{
   const size_t size = blob->end - blob->current;
   const uint8_t *data = static_cast<const uint8_t *>(blob_read_bytes(blob, size));
   if (blob->overrun || key_size != 20)
      return nullptr;
   return cached_binary_create(device, key_data, key_size, std::vector<uint8_t>(data, data + size));
}

static const struct vk_pipeline_cache_object_ops cached_binary_ops = {
   .serialize = cached_binary_serialize,
   .deserialize = cached_binary_deserialize,
   .destroy = cached_binary_destroy,
};

static struct vk_pipeline_cache_object *
cached_binary_create(struct vk_device *device, const void *key, size_t key_size,
                     std::vector<uint8_t> bytes)
{
   auto *cached = terakan_object_new<terakan_cached_binary>(&device->alloc,
                                                            VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
   if (!cached)
      return nullptr;
   std::memcpy(cached->key, key, 20);
   vk_pipeline_cache_object_init(device, &cached->base, &cached_binary_ops, cached->key, uint32_t(key_size));
   cached->bytes = std::move(bytes);
   cached->base.data_size = uint32_t(cached->bytes.size());
   return &cached->base;
}

/* ---- slot assignment from the pipeline layout ---- */

/* Storage buffers take RATs 0-7 in layout order (set, then binding); uniform buffers take
 * fetch resources from 17 on. The compiler refuses a shader whose buffers fall beyond. */
std::vector<BufferBinding> terakan_buffer_bindings(const struct vk_pipeline_layout *layout)
{
   std::vector<BufferBinding> bindings;
   unsigned storage_slot = 0, uniform_slot = terakan::compiler::first_uniform_buffer_slot;
   for (uint32_t s = 0; s < layout->set_count; s++) {
      if (!layout->set_layouts[s])
         continue;
      auto *set = container_of(layout->set_layouts[s], terakan_descriptor_set_layout, vk);
      for (uint32_t b = 0; b < set->binding_count; b++) {
         const terakan_descriptor_binding_layout &binding = set->bindings[b];
         BufferBinding out;
         out.set = s;
         out.binding = binding.binding;
         out.count = binding.count;
         out.storage = binding.type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER ||
                       binding.type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
         unsigned &next = out.storage ? storage_slot : uniform_slot;
         out.first_slot = next;
         next += binding.count;
         bindings.push_back(out);
      }
   }
   return bindings;
}

/* Images and uniform texel buffers take texture resources from first_texture_resource_slot on
 * (a texel buffer's resource is a buffer fetch resource with its format) and samplers take
 * sampler slots from 0, in layout order; an immutable sampler's coordinate type is given to the
 * compiler. Storage images and storage texel buffers also take RATs, after every storage
 * buffer's (the compiler refuses a store whose RAT falls beyond the 8 a stage has). */
static constexpr unsigned first_texture_resource_slot = 96;

static bool is_storage_image_type(VkDescriptorType type)
{
   return type == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE || type == VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
}

std::vector<TextureBinding> terakan_texture_bindings(const struct vk_pipeline_layout *layout)
{
   std::vector<TextureBinding> bindings;
   unsigned resource = first_texture_resource_slot, sampler = 0;
   unsigned rat = 0;
   for (const BufferBinding &b : terakan_buffer_bindings(layout))
      if (b.storage)
         rat = std::max(rat, b.first_slot + b.count);
   for (uint32_t s = 0; s < layout->set_count; s++) {
      if (!layout->set_layouts[s])
         continue;
      auto *set = container_of(layout->set_layouts[s], terakan_descriptor_set_layout, vk);
      for (uint32_t b = 0; b < set->binding_count; b++) {
         const terakan_descriptor_binding_layout &binding = set->bindings[b];
         TextureBinding out;
         out.set = s;
         out.binding = binding.binding;
         out.count = binding.count;
         out.has_image = binding.type == VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE ||
                         binding.type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER ||
                         binding.type == VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT ||
                         binding.type == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER ||
                         is_storage_image_type(binding.type);
         out.has_sampler = binding.type == VK_DESCRIPTOR_TYPE_SAMPLER ||
                           binding.type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
         if (!out.has_image && !out.has_sampler)
            continue;
         if (out.has_image) {
            out.first_resource = resource;
            resource += binding.count;
         }
         if (is_storage_image_type(binding.type)) {
            out.first_rat = int(rat);
            rat += binding.count;
         }
         if (out.has_sampler) {
            out.first_sampler = sampler;
            sampler += binding.count;
         }
         if (binding.immutable_samplers) {
            for (uint32_t e = 0; e < binding.count; e++)
               out.immutable.push_back(binding.immutable_samplers[e].unnormalized
                                          ? SamplerCoordinates::Unnormalized
                                          : SamplerCoordinates::Normalized);
         }
         bindings.push_back(out);
      }
   }
   return bindings;
}

/* Where each texture resource and sampler the program uses gets its descriptor, and where each
 * sampler element whose coordinate type is chosen at bind time comes from. */
bool terakan_resolve_textures(const ShaderBinary &binary, const std::vector<TextureBinding> &bindings,
                              const struct vk_pipeline_layout *layout,
                              std::vector<terakan_texture_source> &textures,
                              std::vector<terakan_unnormalized_source> &unnormalized)
{
   auto descriptor_of = [&](const TextureBinding &b, unsigned element) {
      auto *set = container_of(layout->set_layouts[b.set], terakan_descriptor_set_layout, vk);
      return terakan_find_binding(set, b.binding)->first_descriptor + element;
   };
   auto add = [&](unsigned slot, bool sampler) {
      for (const TextureBinding &b : bindings) {
         const unsigned first = sampler ? b.first_sampler : b.first_resource;
         if (!(sampler ? b.has_sampler : b.has_image) || slot < first || slot >= first + b.count)
            continue;
         terakan_texture_source source{slot, b.set, descriptor_of(b, slot - first), sampler};
         source.storage = !sampler && b.first_rat >= 0;
         textures.push_back(source);
         return true;
      }
      return false;
   };
   for (unsigned slot : binary.texture_resources)
      if (!add(slot, false))
         return false;
   for (unsigned slot : binary.samplers)
      if (!add(slot, true))
         return false;
   for (unsigned slot : binary.image_rats) {
      bool found = false;
      for (const TextureBinding &b : bindings) {
         if (b.first_rat < 0 || slot < unsigned(b.first_rat) || slot >= unsigned(b.first_rat) + b.count)
            continue;
         textures.push_back({slot, b.set, descriptor_of(b, slot - unsigned(b.first_rat)), false, true});
         found = true;
         break;
      }
      if (!found)
         return false;
   }
   for (const terakan::compiler::SamplerRecord &record : binary.sampler_records) {
      const TextureBinding *found = nullptr;
      for (const TextureBinding &b : bindings)
         if (b.set == record.set && b.binding == record.binding && b.has_sampler)
            found = &b;
      if (!found || record.element >= found->count)
         return false;
      unnormalized.push_back({record.set, descriptor_of(*found, record.element), record.bit, record.dynamic});
   }
   return true;
}

/* Where each slot the program uses gets its descriptor at dispatch. */
bool terakan_resolve_slots(const ShaderBinary &binary, const std::vector<BufferBinding> &bindings,
                           const struct vk_pipeline_layout *layout, std::vector<terakan_slot_source> &slots)
{
   auto source_of = [&](unsigned slot) -> terakan_slot_source * {
      for (terakan_slot_source &s : slots)
         if (s.slot == slot)
            return &s;
      for (const BufferBinding &b : bindings) {
         if (slot < b.first_slot || slot >= b.first_slot + b.count)
            continue;
         auto *set = container_of(layout->set_layouts[b.set], terakan_descriptor_set_layout, vk);
         const terakan_descriptor_binding_layout *binding = terakan_find_binding(set, b.binding);
         terakan_slot_source source = {};
         source.kcache = -1;
         source.slot = slot;
         source.set = b.set;
         source.descriptor = binding->first_descriptor + (slot - b.first_slot);
         source.dynamic = binding->first_dynamic < 0
                             ? -1
                             : binding->first_dynamic + int32_t(slot - b.first_slot);
         slots.push_back(source);
         return &slots.back();
      }
      return nullptr;
   };
   for (unsigned slot : binary.rat_slots) {
      terakan_slot_source *source = source_of(slot);
      if (!source)
         return false;
      source->rat = true;
   }
   /* Uniform buffers read through the constant cache: bound as constant buffers 2-15. */
   for (size_t k = 0; k < binary.kcache_slots.size(); k++) {
      terakan_slot_source *source = source_of(binary.kcache_slots[k]);
      if (!source)
         return false;
      source->kcache = int32_t(terakan::compiler::first_kcache_uniform_buffer + k);
   }
   /* Buffers whose size alone is read still need their descriptor at dispatch. */
   for (unsigned slot : binary.sized_slots)
      if (!source_of(slot))
         return false;
   for (const terakan::compiler::FetchRecord &fetch : binary.fetches) {
      /* Vertex inputs come from the vertex input state, not from descriptors. */
      const bool vertex_input = fetch.binding >= terakan::compiler::vertex_input_first_resource &&
                                fetch.binding < terakan::compiler::vertex_input_first_resource +
                                                   terakan::compiler::max_vertex_inputs;
      if (vertex_input || fetch.binding == terakan::compiler::push_constant_fetch_resource || fetch.sampler >= 0 ||
          std::count(binary.texture_resources.begin(), binary.texture_resources.end(), fetch.binding))
         continue;
      terakan_slot_source *source = source_of(fetch.binding);
      if (!source)
         return false;
      source->fetch = true;
   }
   return true;
}

static void compute_key(const struct terakan_physical_device *pdev,
                        const struct vk_shader_module *module, const char *entry,
                        terakan::compiler::ShaderStage stage,
                        const terakan::compiler::CompileOptions &options, uint8_t key[20])
{
   struct mesa_sha1 context;
   _mesa_sha1_init(&context);
   _mesa_sha1_update(&context, pdev->pipeline_cache_uuid, VK_UUID_SIZE);
   const uint32_t stage_number = uint32_t(stage);
   _mesa_sha1_update(&context, &stage_number, sizeof(stage_number));
   for (const terakan::compiler::VertexInputOption &input : options.vertex_inputs) {
      const uint32_t words[3] = {input.location, uint32_t(input.rate), input.divisor};
      _mesa_sha1_update(&context, words, sizeof(words));
   }
   const uint32_t family = uint32_t(options.family);
   _mesa_sha1_update(&context, &family, sizeof(family));
   _mesa_sha1_update(&context, module->sha1, sizeof(module->sha1));
   _mesa_sha1_update(&context, entry, strlen(entry) + 1);
   for (const auto &spec : options.specialization) {
      _mesa_sha1_update(&context, &spec.id, sizeof(spec.id));
      _mesa_sha1_update(&context, &spec.bits, sizeof(spec.bits));
      _mesa_sha1_update(&context, &spec.bytes, sizeof(spec.bytes));
   }
   for (const BufferBinding &b : options.buffer_bindings) {
      const uint32_t words[5] = {b.set, b.binding, b.count, b.first_slot, b.storage};
      _mesa_sha1_update(&context, words, sizeof(words));
   }
   for (const TextureBinding &b : options.texture_bindings) {
      const uint32_t words[8] = {b.set, b.binding, b.count, b.has_image, b.has_sampler,
                                 b.first_resource, b.first_sampler, uint32_t(b.first_rat)};
      _mesa_sha1_update(&context, words, sizeof(words));
      for (SamplerCoordinates c : b.immutable)
         _mesa_sha1_update(&context, &c, sizeof(c));
   }
   const uint8_t forced = options.sampler_forces_unnormalized;
   _mesa_sha1_update(&context, &forced, 1);
   const uint8_t robust = options.robust_buffer_access;
   _mesa_sha1_update(&context, &robust, 1);
   const uint8_t vertex_order = options.export_vertex_order;
   _mesa_sha1_update(&context, &vertex_order, 1);
   const uint8_t distances = options.export_distances;
   _mesa_sha1_update(&context, &distances, 1);
   const uint8_t capture = options.capture_outputs;
   _mesa_sha1_update(&context, &capture, 1);
   const uint8_t dynamic_vertex_input = options.dynamic_vertex_input;
   _mesa_sha1_update(&context, &dynamic_vertex_input, 1);
   _mesa_sha1_update(&context, &options.conservative_edges, sizeof(options.conservative_edges));
   const uint32_t colour_targets = options.colour_targets; /* where a pixel shader's RATs start */
   _mesa_sha1_update(&context, &colour_targets, sizeof(colour_targets));
   _mesa_sha1_final(&context, key);
}

/* The specialization constants of a stage, read into the compile options. */
VkResult terakan_read_specialization(terakan_device *device, const VkSpecializationInfo *spec,
                                     terakan::compiler::CompileOptions &options)
{
   if (!spec)
      return VK_SUCCESS;
   for (uint32_t i = 0; i < spec->mapEntryCount; i++) {
      const VkSpecializationMapEntry &entry = spec->pMapEntries[i];
      terakan::compiler::SpecializationConstant constant;
      constant.id = entry.constantID;
      constant.bytes = unsigned(entry.size);
      if (entry.size > 8 || entry.offset + entry.size > spec->dataSize)
         return terakan_errorf(device, VK_ERROR_INITIALIZATION_FAILED,
                               "terakan: specialization constant %u lies outside its data", entry.constantID);
      std::memcpy(&constant.bits, static_cast<const uint8_t *>(spec->pData) + entry.offset, entry.size);
      options.specialization.push_back(constant);
   }
   return VK_SUCCESS;
}

/* The binary for one stage: from the pipeline cache (or the device's own), else compiled and
 * added to it. */
VkResult terakan_obtain_binary(terakan_device *device, struct vk_pipeline_cache *cache,
                               const struct vk_shader_module *module, const char *entry,
                               terakan::compiler::ShaderStage stage,
                               const terakan::compiler::CompileOptions &options,
                               VkPipelineCreateFlags flags, ShaderBinary &binary)
{
   uint8_t key[20];
   compute_key(device->physical, module, entry, stage, options, key);
   if (!cache)
      cache = device->internal_cache;

   bool have_binary = false;
   bool cache_hit = false;
   if (cache) {
      struct vk_pipeline_cache_object *object =
         vk_pipeline_cache_lookup_object(cache, key, sizeof(key), &cached_binary_ops, &cache_hit);
      if (object) {
         auto *cached = container_of(object, terakan_cached_binary, base);
         have_binary = terakan::compiler::deserialize_binary(cached->bytes, binary);
         vk_pipeline_cache_object_unref(object);
      }
   }
   if (have_binary)
      return VK_SUCCESS;
   if (flags & VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT_EXT)
      return VK_PIPELINE_COMPILE_REQUIRED_EXT;
   std::string error;
   const std::span<const uint32_t> spirv(reinterpret_cast<const uint32_t *>(module->data), module->size / 4);
   const bool compiled = stage == terakan::compiler::ShaderStage::Compute
                            ? terakan::compiler::compile_compute(spirv, entry, options, binary, error)
                            : terakan::compiler::compile_graphics(spirv, stage, entry, options, binary, error);
   if (!compiled)
      return terakan_errorf(device, VK_ERROR_INVALID_SHADER_NV, "terakan: %s", error.c_str());
   if (cache) {
      struct vk_pipeline_cache_object *object =
         cached_binary_create(&device->vk, key, sizeof(key), terakan::compiler::serialize_binary(binary));
      if (object)
         vk_pipeline_cache_object_unref(vk_pipeline_cache_add_object(cache, object));
   }
   return VK_SUCCESS;
}

/* The program in a buffer object of its own (SQ_PGM_START_* count 256-byte units). */
VkResult terakan_upload_code(terakan_device *device, const std::vector<uint32_t> &code,
                             terakan::winsys::RadeonBo *&out)
{
   std::string error;
   int error_number = 0;
   out = terakan::winsys::RadeonBo::create(*device->radeon, code.size() * 4, 256, device->code_placement, error,
                                           error_number);
   void *map = out ? out->map() : nullptr;
   if (!map) {
      delete out;
      out = nullptr;
      return terakan_bo_error(device, error_number ? error_number : ENOMEM,
                              error.empty() ? "cannot map the shader code buffer" : error);
   }
   std::memcpy(map, code.data(), code.size() * 4);
   out->unmap();
   return VK_SUCCESS;
}

/* Variant code goes into buffer objects like the program's own. */
class terakan_code_store : public terakan::VariantCodeStore {
public:
   explicit terakan_code_store(terakan_device *device) : device(device) {}

   void *upload(std::span<const uint32_t> code, std::string &error) override
   {
      int error_number = 0;
      auto *bo = terakan::winsys::RadeonBo::create(*device->radeon, code.size() * 4, 256,
                                                   device->code_placement, error, error_number);
      void *map = bo ? bo->map() : nullptr;
      if (!map) {
         if (error.empty())
            error = "cannot map a shader variant's buffer";
         delete bo;
         return nullptr;
      }
      std::memcpy(map, code.data(), code.size() * 4);
      bo->unmap();
      if (terakan_debug(TERAKAN_DEBUG_VARIANTS))
         mesa_logi("terakan: shader variant made (%zu dwords)", code.size());
      return bo;
   }
   void release(void *handle) override { delete static_cast<terakan::winsys::RadeonBo *>(handle); }

private:
   terakan_device *device;
};

/* The unnormalized-coordinate variants of a program (seed 004): made when some sampler element
 * reached at a constant index has TEX instructions to patch; false when out of memory. */
bool terakan_make_variants(terakan_device *device, const ShaderBinary &binary, terakan_code_store *&store,
                           terakan::ShaderVariants *&variants)
{
   std::vector<std::vector<uint32_t>> sites;
   for (const terakan::compiler::SamplerRecord &record : binary.sampler_records) {
      if (record.dynamic || record.tex_dword_offsets.empty())
         continue;
      if (sites.size() <= record.bit)
         sites.resize(record.bit + 1);
      sites[record.bit] = record.tex_dword_offsets;
   }
   if (sites.empty())
      return true;
   try {
      store = new terakan_code_store(device);
      variants = new terakan::ShaderVariants(*store, binary.code, sites);
   } catch (const std::bad_alloc &) {
      return false;
   }
   return true;
}

void terakan_destroy_code_store(terakan_code_store *store)
{
   delete store;
}

void terakan_destroy_pipeline(terakan_device *device, terakan_pipeline *pipeline,
                             const VkAllocationCallbacks *allocator)
{
   if (pipeline->graphics)
      terakan_graphics_pipeline_destroy(pipeline->graphics);
   delete pipeline->variants;
   delete pipeline->code_store;
   delete pipeline->code_bo;
   vk_object_base_finish(&pipeline->base);
   terakan_object_delete(allocator ? allocator : &device->vk.alloc, pipeline);
}

static VkResult create_compute_pipeline(terakan_device *device, struct vk_pipeline_cache *cache,
                                        const VkComputePipelineCreateInfo *info,
                                        const VkAllocationCallbacks *allocator,
                                        VkPipeline *out)
{
   VK_FROM_HANDLE(vk_shader_module, module, info->stage.module);
   VK_FROM_HANDLE(vk_pipeline_layout, layout, info->layout);
   if (!module)
      return terakan_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT,
                       "terakan: a compute stage without a VkShaderModule is not supported");
   if (module->nir)
      return terakan_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT,
                       "terakan: NIR shader modules are not supported");

   terakan::compiler::CompileOptions options;
   options.family = device->physical->pci->family;
   options.debug = terakan::compiler::debug_options_from_environment();
   options.buffer_bindings = terakan_buffer_bindings(layout);
   options.texture_bindings = terakan_texture_bindings(layout);
   options.sampler_forces_unnormalized =
      terakan::hw::sampler_has_force_unnormalized(device->physical->family->isa_class);
   options.robust_buffer_access = device->vk.enabled_features.robustBufferAccess;
   const VkResult specialized = terakan_read_specialization(device, info->stage.pSpecializationInfo, options);
   if (specialized != VK_SUCCESS)
      return specialized;

   ShaderBinary binary;
   const VkResult compiled = terakan_obtain_binary(device, cache, module, info->stage.pName,
                                                   terakan::compiler::ShaderStage::Compute, options,
                                                   info->flags, binary);
   if (compiled != VK_SUCCESS)
      return compiled;

   auto *pipeline = terakan_object_new<terakan_pipeline>(allocator ? allocator : &device->vk.alloc,
                                                         VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!pipeline)
      return vk_error(device, VK_ERROR_OUT_OF_HOST_MEMORY);
   vk_object_base_init(&device->vk, &pipeline->base, VK_OBJECT_TYPE_PIPELINE);
   pipeline->bind_point = VK_PIPELINE_BIND_POINT_COMPUTE;
   if (!terakan_resolve_slots(binary, options.buffer_bindings, layout, pipeline->slots) ||
       !terakan_resolve_textures(binary, options.texture_bindings, layout, pipeline->textures,
                                 pipeline->unnormalized)) {
      terakan_destroy_pipeline(device, pipeline, allocator);
      return terakan_errorf(device, VK_ERROR_INITIALIZATION_FAILED,
                       "terakan: the program uses a buffer slot its pipeline layout does not "
                       "provide (a stale pipeline cache entry?)");
   }

   const VkResult uploaded = terakan_upload_code(device, binary.code, pipeline->code_bo);
   if (uploaded != VK_SUCCESS) {
      terakan_destroy_pipeline(device, pipeline, allocator);
      return uploaded;
   }

   if (!terakan_make_variants(device, binary, pipeline->code_store, pipeline->variants)) {
      terakan_destroy_pipeline(device, pipeline, allocator);
      return vk_error(device, VK_ERROR_OUT_OF_HOST_MEMORY);
   }
   pipeline->binary = std::move(binary);
   *out = terakan_pipeline_to_handle(pipeline);
   return VK_SUCCESS;
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL
terakan_CreateComputePipelines(VkDevice _device, VkPipelineCache pipelineCache, uint32_t count,
                               const VkComputePipelineCreateInfo *pCreateInfos,
                               const VkAllocationCallbacks *pAllocator, VkPipeline *pPipelines)
{
   VK_FROM_HANDLE(terakan_device, device, _device);
   VK_FROM_HANDLE(vk_pipeline_cache, cache, pipelineCache);
   return terakan_create_pipelines(device, count, pCreateInfos, pPipelines,
                                   [&](const VkComputePipelineCreateInfo &info, VkPipeline &out) {
                                      return create_compute_pipeline(device, cache, &info, pAllocator, &out);
                                   });
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_DestroyPipeline(VkDevice _device, VkPipeline _pipeline, const VkAllocationCallbacks *pAllocator)
{
   VK_FROM_HANDLE(terakan_device, device, _device);
   VK_FROM_HANDLE(terakan_pipeline, pipeline, _pipeline);
   if (pipeline)
      terakan_destroy_pipeline(device, pipeline, pAllocator);
}
