/* Descriptor set layouts, pools and sets. TeraScale has no descriptor memory the shader reads:
 * a descriptor is a CPU record (a buffer range, an image view, a sampler) from which the
 * command buffer builds fetch resources, RATs, texture resources and samplers at dispatch. */
#include "terakan_private.h"

#include <algorithm>
#include <cstring>

#include "vk_descriptor_update_template.h"
#include "vk_descriptors.h"

static bool is_supported_type(VkDescriptorType type)
{
   switch (type) {
   case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
   case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
   case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC:
   case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC:
   case VK_DESCRIPTOR_TYPE_SAMPLER:
   case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
   case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
   case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
   case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT: /* an image view read by texelFetch (LD) */
   /* Read as a texture resource (a texel buffer's fetch resource), written as a typed RAT
    * (terakan_storage_images.cpp). */
   case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
   case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
      return true;
   default:
      return false;
   }
}

static bool has_sampler(VkDescriptorType type)
{
   return type == VK_DESCRIPTOR_TYPE_SAMPLER || type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
}

static bool has_image(VkDescriptorType type)
{
   return type == VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE || type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER ||
          type == VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT || type == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
}

static bool is_dynamic(VkDescriptorType type)
{
   return type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC ||
          type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
}

const terakan_descriptor_binding_layout *
terakan_find_binding(const terakan_descriptor_set_layout *layout, uint32_t binding)
{
   for (uint32_t i = 0; i < layout->binding_count; i++)
      if (layout->bindings[i].binding == binding)
         return &layout->bindings[i];
   return nullptr;
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL
terakan_CreateDescriptorSetLayout(VkDevice _device, const VkDescriptorSetLayoutCreateInfo *pCreateInfo,
                                  const VkAllocationCallbacks *pAllocator,
                                  VkDescriptorSetLayout *pSetLayout)
{
   VK_FROM_HANDLE(terakan_device, device, _device);
   for (uint32_t i = 0; i < pCreateInfo->bindingCount; i++) {
      const VkDescriptorSetLayoutBinding &b = pCreateInfo->pBindings[i];
      if (b.descriptorCount && !is_supported_type(b.descriptorType))
         return terakan_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT,
                          "terakan: descriptor type %d (binding %u) is not supported yet; only "
                          "uniform and storage buffers (and their dynamic forms), uniform and storage "
                          "texel buffers, samplers, sampled and storage images, combined image-samplers "
                          "and input attachments are",
                          b.descriptorType, b.binding);
   }

   uint32_t immutable_count = 0;
   for (uint32_t i = 0; i < pCreateInfo->bindingCount; i++) {
      const VkDescriptorSetLayoutBinding &b = pCreateInfo->pBindings[i];
      if (has_sampler(b.descriptorType) && b.pImmutableSamplers)
         immutable_count += b.descriptorCount;
   }
   VK_MULTIALLOC(ma);
   VK_MULTIALLOC_DECL(&ma, terakan_descriptor_set_layout, layout, 1);
   VK_MULTIALLOC_DECL(&ma, terakan_descriptor_binding_layout, bindings, pCreateInfo->bindingCount);
   VK_MULTIALLOC_DECL(&ma, terakan_sampler_state, immutable, immutable_count);
   if (!vk_descriptor_set_layout_multizalloc(&device->vk, &ma))
      return vk_error(device, VK_ERROR_OUT_OF_HOST_MEMORY);

   VkDescriptorSetLayoutBinding *sorted = nullptr;
   const VkResult result = vk_create_sorted_bindings(pCreateInfo->pBindings,
                                                     pCreateInfo->bindingCount, &sorted);
   if (result != VK_SUCCESS) {
      vk_descriptor_set_layout_unref(&device->vk, &layout->vk);
      return vk_error(device, result);
   }
   layout->bindings = bindings;
   for (uint32_t i = 0; i < pCreateInfo->bindingCount; i++) {
      const VkDescriptorSetLayoutBinding &b = sorted[i];
      terakan_descriptor_binding_layout &out = bindings[layout->binding_count++];
      out.type = b.descriptorType;
      out.binding = b.binding;
      out.count = b.descriptorCount;
      out.first_descriptor = layout->descriptor_count;
      out.first_dynamic = -1;
      out.immutable_samplers = nullptr;
      if (has_sampler(b.descriptorType) && b.pImmutableSamplers) {
         /* Copied: the sets made from this layout keep it alive, not the VkSamplers. */
         out.immutable_samplers = immutable;
         for (uint32_t e = 0; e < b.descriptorCount; e++)
            immutable[e] = terakan_sampler_from_handle(b.pImmutableSamplers[e])->state;
         immutable += b.descriptorCount;
      }
      layout->descriptor_count += b.descriptorCount;
      if (is_dynamic(b.descriptorType)) {
         out.first_dynamic = int32_t(layout->dynamic_count);
         layout->dynamic_count += b.descriptorCount;
      }
   }
   free(sorted);
   *pSetLayout = terakan_descriptor_set_layout_to_handle(layout);
   return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_GetDescriptorSetLayoutSupport(VkDevice, const VkDescriptorSetLayoutCreateInfo *pCreateInfo,
                                      VkDescriptorSetLayoutSupport *pSupport)
{
   bool supported = true;
   for (uint32_t i = 0; i < pCreateInfo->bindingCount; i++)
      if (pCreateInfo->pBindings[i].descriptorCount &&
          !is_supported_type(pCreateInfo->pBindings[i].descriptorType))
         supported = false;
   pSupport->supported = supported;
}

/* ---- pools ---- */

struct terakan_descriptor_pool {
   struct vk_object_base base;
   uint32_t max_sets;
   uint32_t max_descriptors;
   uint32_t used_descriptors;
   std::vector<terakan_descriptor_set *> sets;
};
VK_DEFINE_NONDISP_HANDLE_CASTS(terakan_descriptor_pool, base, VkDescriptorPool,
                               VK_OBJECT_TYPE_DESCRIPTOR_POOL)

extern "C" VKAPI_ATTR VkResult VKAPI_CALL
terakan_CreateDescriptorPool(VkDevice _device, const VkDescriptorPoolCreateInfo *pCreateInfo,
                             const VkAllocationCallbacks *pAllocator, VkDescriptorPool *pDescriptorPool)
{
   VK_FROM_HANDLE(terakan_device, device, _device);
   auto *pool = terakan_object_new<terakan_descriptor_pool>(
      pAllocator ? pAllocator : &device->vk.alloc, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!pool)
      return vk_error(device, VK_ERROR_OUT_OF_HOST_MEMORY);
   vk_object_base_init(&device->vk, &pool->base, VK_OBJECT_TYPE_DESCRIPTOR_POOL);
   pool->max_sets = pCreateInfo->maxSets;
   for (uint32_t i = 0; i < pCreateInfo->poolSizeCount; i++)
      pool->max_descriptors += pCreateInfo->pPoolSizes[i].descriptorCount;
   *pDescriptorPool = terakan_descriptor_pool_to_handle(pool);
   return VK_SUCCESS;
}

static void free_set(terakan_device *device, terakan_descriptor_set *set)
{
   set->pool->used_descriptors -= set->layout->descriptor_count;
   vk_descriptor_set_layout_unref(&device->vk, &set->layout->vk);
   vk_object_base_finish(&set->base);
   terakan_object_delete(&device->vk.alloc, set);
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL
terakan_ResetDescriptorPool(VkDevice _device, VkDescriptorPool descriptorPool,
                            VkDescriptorPoolResetFlags)
{
   VK_FROM_HANDLE(terakan_device, device, _device);
   VK_FROM_HANDLE(terakan_descriptor_pool, pool, descriptorPool);
   for (terakan_descriptor_set *set : pool->sets)
      free_set(device, set);
   pool->sets.clear();
   return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_DestroyDescriptorPool(VkDevice _device, VkDescriptorPool descriptorPool,
                              const VkAllocationCallbacks *pAllocator)
{
   VK_FROM_HANDLE(terakan_device, device, _device);
   VK_FROM_HANDLE(terakan_descriptor_pool, pool, descriptorPool);
   if (!pool)
      return;
   terakan_ResetDescriptorPool(_device, descriptorPool, 0);
   vk_object_base_finish(&pool->base);
   terakan_object_delete(pAllocator ? pAllocator : &device->vk.alloc, pool);
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL
terakan_AllocateDescriptorSets(VkDevice _device, const VkDescriptorSetAllocateInfo *pAllocateInfo,
                               VkDescriptorSet *pDescriptorSets)
{
   VK_FROM_HANDLE(terakan_device, device, _device);
   VK_FROM_HANDLE(terakan_descriptor_pool, pool, pAllocateInfo->descriptorPool);
   uint32_t i = 0;
   VkResult result = VK_SUCCESS;
   for (; i < pAllocateInfo->descriptorSetCount; i++) {
      VK_FROM_HANDLE(terakan_descriptor_set_layout, layout, pAllocateInfo->pSetLayouts[i]);
      if (pool->sets.size() >= pool->max_sets ||
          pool->used_descriptors + layout->descriptor_count > pool->max_descriptors) {
         result = VK_ERROR_OUT_OF_POOL_MEMORY;
         break;
      }
      terakan_descriptor_set *set = nullptr;
      try {
         set = terakan_object_new<terakan_descriptor_set>(&device->vk.alloc,
                                                          VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
         if (set) {
            set->descriptors.resize(layout->descriptor_count);
            for (uint32_t b = 0; b < layout->binding_count; b++) {
               const terakan_descriptor_binding_layout &binding = layout->bindings[b];
               if (binding.immutable_samplers)
                  for (uint32_t e = 0; e < binding.count; e++)
                     set->descriptors[binding.first_descriptor + e].sampler = &binding.immutable_samplers[e];
            }
            pool->sets.push_back(set);
         }
      } catch (const std::bad_alloc &) {
         terakan_object_delete(&device->vk.alloc, set);
         set = nullptr;
      }
      if (!set) {
         result = VK_ERROR_OUT_OF_HOST_MEMORY;
         break;
      }
      vk_object_base_init(&device->vk, &set->base, VK_OBJECT_TYPE_DESCRIPTOR_SET);
      set->pool = pool;
      set->layout = layout;
      vk_descriptor_set_layout_ref(&layout->vk);
      pool->used_descriptors += layout->descriptor_count;
      pDescriptorSets[i] = terakan_descriptor_set_to_handle(set);
   }
   if (result != VK_SUCCESS) {
      /* All or nothing: the sets made so far go back to the pool. */
      for (uint32_t j = 0; j < i; j++) {
         VK_FROM_HANDLE(terakan_descriptor_set, set, pDescriptorSets[j]);
         pool->sets.erase(std::find(pool->sets.begin(), pool->sets.end(), set));
         free_set(device, set);
      }
      for (uint32_t j = 0; j < pAllocateInfo->descriptorSetCount; j++)
         pDescriptorSets[j] = VK_NULL_HANDLE;
      return result == VK_ERROR_OUT_OF_POOL_MEMORY ? result : vk_error(device, result);
   }
   return VK_SUCCESS;
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL
terakan_FreeDescriptorSets(VkDevice _device, VkDescriptorPool descriptorPool, uint32_t count,
                           const VkDescriptorSet *pDescriptorSets)
{
   VK_FROM_HANDLE(terakan_device, device, _device);
   VK_FROM_HANDLE(terakan_descriptor_pool, pool, descriptorPool);
   for (uint32_t i = 0; i < count; i++) {
      VK_FROM_HANDLE(terakan_descriptor_set, set, pDescriptorSets[i]);
      if (!set)
         continue;
      pool->sets.erase(std::find(pool->sets.begin(), pool->sets.end(), set));
      free_set(device, set);
   }
   return VK_SUCCESS;
}

/* ---- updates ---- */

/* Descriptor `element` of `binding`, walking into following bindings as the specification's
 * consecutive-binding update rule asks. */
static terakan_descriptor *descriptor_at(terakan_descriptor_set *set, uint32_t binding,
                                         uint32_t element,
                                         const terakan_descriptor_binding_layout **found = nullptr)
{
   const terakan_descriptor_set_layout *layout = set->layout;
   uint32_t i = 0;
   while (i < layout->binding_count && layout->bindings[i].binding != binding)
      i++;
   while (i < layout->binding_count && element >= layout->bindings[i].count) {
      element -= layout->bindings[i].count;
      i++;
   }
   if (i >= layout->binding_count)
      return nullptr;
   if (found)
      *found = &layout->bindings[i];
   return &set->descriptors[layout->bindings[i].first_descriptor + element];
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_UpdateDescriptorSets(VkDevice, uint32_t descriptorWriteCount,
                             const VkWriteDescriptorSet *pDescriptorWrites,
                             uint32_t descriptorCopyCount,
                             const VkCopyDescriptorSet *pDescriptorCopies)
{
   for (uint32_t w = 0; w < descriptorWriteCount; w++) {
      const VkWriteDescriptorSet &write = pDescriptorWrites[w];
      VK_FROM_HANDLE(terakan_descriptor_set, set, write.dstSet);
      if (!is_supported_type(write.descriptorType))
         continue; /* layouts with other types cannot be created */
      for (uint32_t e = 0; e < write.descriptorCount; e++) {
         const terakan_descriptor_binding_layout *binding = nullptr;
         terakan_descriptor *d = descriptor_at(set, write.dstBinding, write.dstArrayElement + e, &binding);
         if (!d)
            break;
         if (has_image(write.descriptorType) || write.descriptorType == VK_DESCRIPTOR_TYPE_SAMPLER) {
            const VkDescriptorImageInfo &info = write.pImageInfo[e];
            if (has_image(write.descriptorType))
               d->image_view = terakan_image_view_from_handle(info.imageView);
            /* Immutable samplers stay: the write's sampler is ignored (Vulkan's rule). */
            if (has_sampler(write.descriptorType) && !binding->immutable_samplers) {
               VK_FROM_HANDLE(terakan_sampler, sampler, info.sampler);
               d->sampler = sampler ? &sampler->state : nullptr;
            }
            continue;
         }
         if (write.descriptorType == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER ||
             write.descriptorType == VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER) {
            VK_FROM_HANDLE(terakan_buffer_view, view, write.pTexelBufferView[e]);
            if (!view || !view->buffer->memory) {
               d->bo = nullptr;
               d->texel_format = nullptr;
               continue;
            }
            d->bo = view->buffer->memory->bo;
            d->offset = view->buffer->offset + view->offset;
            d->range = view->range;
            d->texel_format = view->format;
            continue;
         }
         const VkDescriptorBufferInfo &info = write.pBufferInfo[e];
         VK_FROM_HANDLE(terakan_buffer, buffer, info.buffer);
         if (!buffer || !buffer->memory) {
            d->bo = nullptr;
            continue;
         }
         d->bo = buffer->memory->bo;
         d->offset = buffer->offset + info.offset;
         d->range = vk_buffer_range(&buffer->vk, info.offset, info.range);
      }
   }
   for (uint32_t c = 0; c < descriptorCopyCount; c++) {
      const VkCopyDescriptorSet &copy = pDescriptorCopies[c];
      VK_FROM_HANDLE(terakan_descriptor_set, src, copy.srcSet);
      VK_FROM_HANDLE(terakan_descriptor_set, dst, copy.dstSet);
      for (uint32_t e = 0; e < copy.descriptorCount; e++) {
         const terakan_descriptor *from = descriptor_at(src, copy.srcBinding, copy.srcArrayElement + e);
         terakan_descriptor *to = descriptor_at(dst, copy.dstBinding, copy.dstArrayElement + e);
         if (from && to)
            *to = *from;
      }
   }
}

/* Descriptor update templates (Vulkan 1.1, VK_KHR_descriptor_update_template): the runtime
 * keeps the template's entries; each element of an entry is one write through the path
 * above, read from the application's data at offset + element x stride. */
extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_UpdateDescriptorSetWithTemplate(VkDevice device, VkDescriptorSet descriptorSet,
                                        VkDescriptorUpdateTemplate descriptorUpdateTemplate, const void *pData)
{
   VK_FROM_HANDLE(vk_descriptor_update_template, update_template, descriptorUpdateTemplate);
   const uint8_t *data = static_cast<const uint8_t *>(pData);
   for (uint32_t i = 0; i < update_template->entry_count; i++) {
      const vk_descriptor_template_entry &entry = update_template->entries[i];
      for (uint32_t e = 0; e < entry.array_count; e++) {
         const void *element = data + entry.offset + e * entry.stride;
         VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
         write.dstSet = descriptorSet;
         write.dstBinding = entry.binding;
         write.dstArrayElement = entry.array_element + e;
         write.descriptorCount = 1;
         write.descriptorType = entry.type;
         switch (entry.type) {
         case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
         case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
            write.pTexelBufferView = static_cast<const VkBufferView *>(element);
            break;
         case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
         case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
         case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC:
         case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC:
            write.pBufferInfo = static_cast<const VkDescriptorBufferInfo *>(element);
            break;
         default: /* samplers and images */
            write.pImageInfo = static_cast<const VkDescriptorImageInfo *>(element);
            break;
         }
         terakan_UpdateDescriptorSets(device, 1, &write, 0, nullptr);
      }
   }
}

/* Sizes no fetch instruction returns, in the stage's driver constants (compiler.h,
 * resource_size_constants): for a texel buffer (textureSize, imageSize) range / texel size,
 * the view's range already rounded down to whole texels; for a cube array view (textureSize's z)
 * its layer count / 6. Nothing bound reads as 0. */
void terakan_write_resource_sizes(const terakan::compiler::ShaderBinary &binary,
                                  const std::vector<terakan_texture_source> &textures,
                                  const std::array<terakan_bound_set, 4> &sets, uint8_t *driver_constants)
{
   const std::vector<unsigned> &slots = binary.resource_size_slots;
   for (size_t i = 0; i < slots.size() && i < terakan::compiler::max_resource_sizes; i++) {
      uint32_t elements = 0;
      for (const terakan_texture_source &source : textures) {
         if (source.sampler || source.rat || source.slot != slots[i])
            continue;
         const terakan_bound_set &bound = sets[source.set];
         if (!bound.set || source.descriptor >= bound.set->descriptors.size())
            break;
         const terakan_descriptor &d = bound.set->descriptors[source.descriptor];
         if (d.bo && d.texel_format && d.texel_format->bytes)
            elements = uint32_t(std::min<uint64_t>(d.range / d.texel_format->bytes, UINT32_MAX));
         else if (d.image_view && d.image_view->vk.view_type == VK_IMAGE_VIEW_TYPE_CUBE_ARRAY)
            elements = d.image_view->vk.layer_count / 6;
         break;
      }
      std::memcpy(driver_constants + 4 * (terakan::compiler::resource_size_constants + i), &elements, 4);
   }
}
