/* Device memory (one radeon buffer object per allocation) and buffers bound into it. */
#include "terakan_private.h"

#include <cerrno>

VkResult terakan_bo_error(struct terakan_device *device, int error_number,
                          const std::string &message)
{
   /* ENOMEM is the usual answer; anything else the kernel says about a buffer it will not
    * create leaves the application without the memory all the same. A lost device is
    * reported as such. */
   const VkResult result = error_number == EDEADLK ? VK_ERROR_DEVICE_LOST
                                                   : VK_ERROR_OUT_OF_DEVICE_MEMORY;
   return terakan_errorf(device, result, "terakan: %s", message.c_str());
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL
terakan_AllocateMemory(VkDevice _device, const VkMemoryAllocateInfo *pAllocateInfo,
                       const VkAllocationCallbacks *pAllocator, VkDeviceMemory *pMemory)
{
   VK_FROM_HANDLE(terakan_device, device, _device);
   const terakan_physical_device *pdev = device->physical;
   const uint32_t type = pAllocateInfo->memoryTypeIndex;
   if (type >= pdev->memory.memoryTypeCount)
      return terakan_errorf(device, VK_ERROR_OUT_OF_DEVICE_MEMORY,
                       "terakan: memory type %u does not exist", type);
   const VkMemoryHeap &heap = pdev->memory.memoryHeaps[pdev->memory.memoryTypes[type].heapIndex];
   if (pAllocateInfo->allocationSize > heap.size)
      return terakan_errorf(device, VK_ERROR_OUT_OF_DEVICE_MEMORY,
                       "terakan: %llu bytes asked of a heap of %llu",
                       (unsigned long long)pAllocateInfo->allocationSize,
                       (unsigned long long)heap.size);

   auto *memory = static_cast<terakan_device_memory *>(
      vk_object_zalloc(&device->vk, pAllocator, sizeof(terakan_device_memory),
                       VK_OBJECT_TYPE_DEVICE_MEMORY));
   if (!memory)
      return vk_error(device, VK_ERROR_OUT_OF_HOST_MEMORY);

   std::string error;
   int error_number = 0;
   /* Images ask for their macro tile's alignment (2D tiling) from the start of the buffer
    * object: every allocation is aligned to its largest power of two up to 1 MiB, which covers
    * any image it can hold (its size is at least one macro tile). */
   uint64_t alignment = 4096;
   while (alignment < (1u << 20) && alignment * 2 <= pAllocateInfo->allocationSize)
      alignment *= 2;
   memory->bo = terakan::winsys::RadeonBo::create(*device->radeon, pAllocateInfo->allocationSize,
                                                  alignment, pdev->memory_placement[type], error,
                                                  error_number);
   if (!memory->bo) {
      vk_object_free(&device->vk, pAllocator, memory);
      return terakan_bo_error(device, error_number, error);
   }
   memory->size = pAllocateInfo->allocationSize;
   memory->type_index = type;
   *pMemory = terakan_device_memory_to_handle(memory);
   return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_FreeMemory(VkDevice _device, VkDeviceMemory _memory, const VkAllocationCallbacks *pAllocator)
{
   VK_FROM_HANDLE(terakan_device, device, _device);
   VK_FROM_HANDLE(terakan_device_memory, memory, _memory);
   if (!memory)
      return;
   delete memory->bo;
   vk_object_free(&device->vk, pAllocator, memory);
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL
terakan_MapMemory(VkDevice _device, VkDeviceMemory _memory, VkDeviceSize offset,
                  VkDeviceSize size, VkMemoryMapFlags flags, void **ppData)
{
   VK_FROM_HANDLE(terakan_device, device, _device);
   VK_FROM_HANDLE(terakan_device_memory, memory, _memory);
   const VkMemoryPropertyFlags properties =
      device->physical->memory.memoryTypes[memory->type_index].propertyFlags;
   if (!(properties & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT))
      return terakan_errorf(device, VK_ERROR_MEMORY_MAP_FAILED,
                       "terakan: memory type %u is not host-visible", memory->type_index);
   void *map = memory->bo->map();
   if (!map)
      return terakan_errorf(device, VK_ERROR_MEMORY_MAP_FAILED, "terakan: DRM_RADEON_GEM_MMAP failed");
   memory->map = map;
   *ppData = static_cast<uint8_t *>(map) + offset;
   return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_UnmapMemory(VkDevice _device, VkDeviceMemory _memory)
{
   VK_FROM_HANDLE(terakan_device_memory, memory, _memory);
   memory->bo->unmap();
   memory->map = nullptr;
}

/* Every host-visible type Terakan offers is coherent: VRAM through the PCI aperture is mapped
 * uncached, and GTT pages are either snooped or write-combined. Nothing to flush. */
extern "C" VKAPI_ATTR VkResult VKAPI_CALL
terakan_FlushMappedMemoryRanges(VkDevice, uint32_t, const VkMappedMemoryRange *)
{
   return VK_SUCCESS;
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL
terakan_InvalidateMappedMemoryRanges(VkDevice, uint32_t, const VkMappedMemoryRange *)
{
   return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_GetDeviceMemoryCommitment(VkDevice, VkDeviceMemory, VkDeviceSize *pCommittedMemoryInBytes)
{
   *pCommittedMemoryInBytes = 0; /* no lazily allocated memory type */
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL
terakan_CreateBuffer(VkDevice _device, const VkBufferCreateInfo *pCreateInfo,
                     const VkAllocationCallbacks *pAllocator, VkBuffer *pBuffer)
{
   VK_FROM_HANDLE(terakan_device, device, _device);
   if (pCreateInfo->flags & (VK_BUFFER_CREATE_SPARSE_BINDING_BIT |
                             VK_BUFFER_CREATE_SPARSE_RESIDENCY_BIT |
                             VK_BUFFER_CREATE_SPARSE_ALIASED_BIT))
      return terakan_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT,
                       "terakan: sparse buffers are not supported");
   /* A buffer no heap could hold can never be bound; refusing it here also keeps the size
    * arithmetic of the memory requirements (rounded up to dwords) from wrapping around. */
   const VkPhysicalDeviceMemoryProperties &memory = device->physical->memory;
   VkDeviceSize largest_heap = 0;
   for (uint32_t i = 0; i < memory.memoryHeapCount; i++)
      largest_heap = MAX2(largest_heap, memory.memoryHeaps[i].size);
   if (pCreateInfo->size > largest_heap)
      return terakan_errorf(device, VK_ERROR_OUT_OF_DEVICE_MEMORY,
                       "terakan: a buffer of %llu bytes is larger than any memory heap (%llu)",
                       (unsigned long long)pCreateInfo->size, (unsigned long long)largest_heap);
   auto *buffer = static_cast<terakan_buffer *>(
      vk_buffer_create(&device->vk, pCreateInfo, pAllocator, sizeof(terakan_buffer)));
   if (!buffer)
      return vk_error(device, VK_ERROR_OUT_OF_HOST_MEMORY);
   *pBuffer = terakan_buffer_to_handle(buffer);
   return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_DestroyBuffer(VkDevice _device, VkBuffer _buffer, const VkAllocationCallbacks *pAllocator)
{
   VK_FROM_HANDLE(terakan_device, device, _device);
   VK_FROM_HANDLE(terakan_buffer, buffer, _buffer);
   if (buffer)
      vk_buffer_destroy(&device->vk, pAllocator, &buffer->vk);
}

/* Alignment: storage buffers are written through RATs whose base register counts 256-byte
 * units (CB_COLORn_BASE), so every buffer starts on a 256-byte boundary. */
static constexpr VkDeviceSize buffer_alignment = 256;

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_GetBufferMemoryRequirements2(VkDevice _device, const VkBufferMemoryRequirementsInfo2 *pInfo,
                                     VkMemoryRequirements2 *pMemoryRequirements)
{
   VK_FROM_HANDLE(terakan_device, device, _device);
   VK_FROM_HANDLE(terakan_buffer, buffer, pInfo->buffer);
   VkMemoryRequirements &requirements = pMemoryRequirements->memoryRequirements;
   requirements.size = align64(buffer->vk.size, 4);
   requirements.alignment = buffer_alignment;
   requirements.memoryTypeBits = (1u << device->physical->memory.memoryTypeCount) - 1;
   terakan_fill_dedicated_requirements(pMemoryRequirements);
}

/* maintenance4: a buffer's requirements follow from its size alone. */
extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_GetDeviceBufferMemoryRequirements(VkDevice _device, const VkDeviceBufferMemoryRequirements *pInfo,
                                          VkMemoryRequirements2 *pMemoryRequirements)
{
   VK_FROM_HANDLE(terakan_device, device, _device);
   VkMemoryRequirements &requirements = pMemoryRequirements->memoryRequirements;
   requirements.size = align64(pInfo->pCreateInfo->size, 4);
   requirements.alignment = buffer_alignment;
   requirements.memoryTypeBits = (1u << device->physical->memory.memoryTypeCount) - 1;
   terakan_fill_dedicated_requirements(pMemoryRequirements);
}

void terakan_fill_dedicated_requirements(VkMemoryRequirements2 *requirements)
{
   /* Each allocation is one buffer object of its own, so a dedicated one gains nothing. */
   vk_foreach_struct(ext, requirements->pNext) {
      if (ext->sType == VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS) {
         auto *dedicated = reinterpret_cast<VkMemoryDedicatedRequirements *>(ext);
         dedicated->prefersDedicatedAllocation = VK_FALSE;
         dedicated->requiresDedicatedAllocation = VK_FALSE;
      }
   }
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL
terakan_BindBufferMemory2(VkDevice, uint32_t bindInfoCount, const VkBindBufferMemoryInfo *pBindInfos)
{
   for (uint32_t i = 0; i < bindInfoCount; i++) {
      VK_FROM_HANDLE(terakan_buffer, buffer, pBindInfos[i].buffer);
      VK_FROM_HANDLE(terakan_device_memory, memory, pBindInfos[i].memory);
      buffer->memory = memory;
      buffer->offset = pBindInfos[i].memoryOffset;
   }
   return VK_SUCCESS;
}

/* ---- uniform texel buffer views ---- */

extern "C" VKAPI_ATTR VkResult VKAPI_CALL
terakan_CreateBufferView(VkDevice _device, const VkBufferViewCreateInfo *pCreateInfo,
                         const VkAllocationCallbacks *pAllocator, VkBufferView *pView)
{
   VK_FROM_HANDLE(terakan_device, device, _device);
   VK_FROM_HANDLE(terakan_buffer, buffer, pCreateInfo->buffer);
   const terakan_format *format = terakan_format_of(pCreateInfo->format);
   if (!terakan_format_is_texel_buffer(format))
      return terakan_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT,
                       "terakan: format %d cannot be a texel buffer", pCreateInfo->format);
   /* A storage texel buffer is also written through a typed RAT (terakan_storage_images.cpp):
    * only the storage formats (Vulkan requires STORAGE_TEXEL_BUFFER_BIT of the format). */
   if ((buffer->vk.usage & VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT) && !terakan_format_is_storage_texel_buffer(format))
      return terakan_errorf(device, VK_ERROR_FORMAT_NOT_SUPPORTED,
                       "terakan: format %d cannot be a storage texel buffer", pCreateInfo->format);
   auto *view = static_cast<terakan_buffer_view *>(
      vk_object_zalloc(&device->vk, pAllocator, sizeof(terakan_buffer_view), VK_OBJECT_TYPE_BUFFER_VIEW));
   if (!view)
      return vk_error(device, VK_ERROR_OUT_OF_HOST_MEMORY);
   view->buffer = buffer;
   view->format = format;
   view->offset = pCreateInfo->offset;
   view->range = vk_buffer_range(&buffer->vk, pCreateInfo->offset, pCreateInfo->range);
   view->range -= view->range % format->bytes;
   *pView = terakan_buffer_view_to_handle(view);
   return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_DestroyBufferView(VkDevice _device, VkBufferView bufferView, const VkAllocationCallbacks *pAllocator)
{
   VK_FROM_HANDLE(terakan_device, device, _device);
   VK_FROM_HANDLE(terakan_buffer_view, view, bufferView);
   if (view)
      vk_object_free(&device->vk, pAllocator, view);
}
