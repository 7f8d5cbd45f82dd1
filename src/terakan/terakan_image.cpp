/* Images and image views.
 *
 * Layouts (src/hw/surface.h): VK_IMAGE_TILING_LINEAR is linear aligned; OPTIMAL is 2D tiled
 * thin1 with the board's pipes and banks (RADEON_INFO_TILING_CONFIG), its small levels 1D tiled
 * as the hardware expects; 1D tiled thin1 if the kernel's tiling configuration is unusable.
 * Copies into and out of tiled images are compute dispatches (terakan_meta_copy.cpp), others
 * CP DMA copies of the runs of texels that are contiguous on both sides. A view
 * becomes the texture resource words at creation; the command buffer only relocates their two
 * addresses.
 *
 * Depth/stencil formats: the depth levels first (1D tiled, non-displayable order), then the
 * 8-bit stencil plane laid out alike, at the next 256-byte boundary, as r600g places its
 * stencil surface after the depth. The DB addresses both planes with one pitch and height
 * (DB_DEPTH_SIZE, DB_DEPTH_SLICE), so every depth level takes the stencil level's pitch: a
 * multiple of 32 texels, which the kernel's 1D check of an 8-bit surface asks for
 * (evergreen_cs_track_validate_stencil; group size / (8 x bpe)) and which keeps every stencil
 * level and layer on a 256-byte boundary for DB_STENCIL_*_BASE.
 *
 * Multisampled images (2, 4 or 8 samples; one level, 2D, optimal tiling; attachment, transfer and
 * sampled usage, input attachments for colour: terakan_multisampled_usage). Their samples are stored as
 * the simulator's model says the CB and DB address them (docs/sim-semantics.md
 * "Multisampling", hw::LevelAddressing): a micro tile grows to 64 x bytes x samples, so a
 * layer takes pitch x aligned height x bytes x samples. Colour images are always 2D tiled, as
 * r600g makes every multisampled texture (Mesa r600_texture.c: "MSAA resources must be 2D
 * tiled"), padded up to one macro tile when smaller, and carry an FMASK after the colour
 * layers: 1 byte a pixel for 2 and 4 samples, 4 for 8, 2D tiled with the colour pitch and
 * tiling codes but bank height 4 (2, 4 samples) and its own height (r600g's
 * r600_texture_get_fmask_info), so that
 * CB_COLORn_INFO.COMPRESSION can be on and the texture unit finds each sample's fragment.
 * No CMASK: a fast clear would leave the clear colour in CB_COLORn_CLEAR_WORD0/1, which every
 * later draw into the image would have to program, and a draw recorded in another command
 * buffer cannot know it; clears store every sample instead. Depth and stencil are 1D tiled as
 * single-sample ones, in the DB's depth sample order (a pixel's samples side by side). */
#include "terakan_private.h"

#include <cstring>

namespace hw = terakan::hw;

/* Buffer objects start on pages; an image inside a memory allocation must sit on its layout's
 * alignment, which is also what BASE_ADDRESS and MIP_ADDRESS (256-byte units) need. */
static hw::SurfaceDescription surface_of(const terakan_device *device, const VkImageCreateInfo *info,
                                          const terakan_format *format)
{
   hw::SurfaceDescription surface;
   surface.width = info->extent.width;
   surface.height = info->extent.height;
   surface.depth = info->extent.depth;
   surface.layers = info->arrayLayers;
   surface.levels = info->mipLevels;
   surface.bytes_per_element = format->bytes;
   surface.block_dim = format->block;
   surface.is_3d = info->imageType == VK_IMAGE_TYPE_3D;
   surface.mode = hw::ArrayMode::LinearAligned;
   if (info->tiling == VK_IMAGE_TILING_OPTIMAL) {
      surface.tiling = hw::tiling_config_from_kernel(device->physical->pci->family,
                                                     device->radeon->info().tiling_config);
      surface.mode = surface.tiling.valid ? hw::ArrayMode::Tiled2DThin1 : hw::ArrayMode::Tiled1DThin1;
   }
   if (format->depth) {
      /* Depth buffers: 1D tiled in the DB's non-displayable micro-tile order (what the DB
       * addresses; copies address the same layout). 2D-tiled depth needs the DB's own tile
       * split choice, not made yet. */
      surface.mode = hw::ArrayMode::Tiled1DThin1;
      surface.non_displayable_order = true;
   }
   return surface;
}

/* Every level's layers grow by the sample count (multisampled images have one level). */
static void scale_for_samples(hw::SurfaceLayout &layout, unsigned samples)
{
   if (samples <= 1)
      return;
   uint64_t end = 0;
   for (hw::SurfaceLevel &level : layout.levels) {
      level.slice_bytes *= samples;
      end = std::max(end, level.offset + level.slice_bytes * level.slices);
   }
   layout.size = end;
}

/* A multisampled colour image: 2D tiled whatever its size (one macro tile at least), then its
 * FMASK at the next macro-tile boundary; 1D tiled without FMASK when the board's tiling
 * configuration allows no 2D tiling. */
static bool lay_out_multisampled_colour(const terakan_device *device, terakan_image *image, std::string &error)
{
   const hw::SurfaceDescription &s = image->surface;
   const unsigned samples = image->vk.samples;
   hw::SurfaceLayout &layout = image->layout;
   if (s.mode != hw::ArrayMode::Tiled2DThin1) {
      if (!hw::compute_surface_layout(device->physical->pci->family, s, layout, error))
         return false;
      scale_for_samples(layout, samples);
      return true;
   }
   layout = {};
   layout.macro = hw::choose_macro_tiling(s.tiling, s.bytes_per_element);
   const hw::SurfaceAlignment align = hw::surface_alignment_2d(s.tiling, layout.macro, s.bytes_per_element);
   layout.macro_tile_width = align.pitch;
   layout.macro_tile_height = align.height;
   layout.macro_tile_bytes = align.base;
   /* The kernel checks a multisampled texture's base against a macro tile of micro tiles of 64 x
    * bytes x samples (evergreen_cs_track_validate_texture passes bpe x nsamples to
    * evergreen_surface_check_2d), twice or four times the single-sample one: an image bound at
    * a smaller multiple could not be read by texelFetch (found by dEQP's
    * resolve_image.*copy_before_resolving.*_bind_offset cases). */
   const hw::SurfaceAlignment sampled = hw::surface_alignment_2d(s.tiling, layout.macro, s.bytes_per_element * samples);
   layout.alignment = std::max<uint64_t>({256, align.base, sampled.base});
   hw::SurfaceLevel level{};
   level.offset = 0;
   level.pitch = unsigned(align64(s.width, align.pitch));
   level.aligned_height = unsigned(align64(s.height, align.height));
   level.width = s.width;
   level.height = s.height;
   level.depth = 1;
   level.slices = s.layers;
   level.mode = hw::ArrayMode::Tiled2DThin1;
   level.slice_bytes = uint64_t(level.pitch) * level.aligned_height * s.bytes_per_element * samples;
   layout.levels.push_back(level);
   layout.mip_offset = 0;
   /* FMASK as r600g allocates it (r600_texture_get_fmask_info): an ordinary 2D-tiled surface of
    * 1 byte a pixel (2 and 4 samples) or 4 (8 samples) with the colour's bank width, macro-tile
    * aspect and tile split, bank height hw::msaa::fmask_bank_height (4 up to 4 samples, the
    * colour's at 8): the colour's macro-tile width (so its pitch), its own macro-tile height and
    * base alignment. */
   hw::MacroTiling fmask_macro = layout.macro;
   fmask_macro.bank_height = hw::msaa::fmask_bank_height(samples, layout.macro.bank_height);
   image->fmask_bank_height = fmask_macro.bank_height;
   const unsigned fmask_bytes = hw::msaa::fmask_bytes_per_pixel(samples);
   const hw::SurfaceAlignment fmask_align = hw::surface_alignment_2d(s.tiling, fmask_macro, fmask_bytes);
   image->fmask_aligned_height = unsigned(align64(s.height, fmask_align.height));
   layout.alignment = std::max<uint64_t>(layout.alignment, fmask_align.base); /* the image's, so FMASK's too */
   image->fmask_offset = align64(level.slice_bytes * level.slices, layout.alignment);
   image->fmask_slice_bytes = uint64_t(level.pitch) * image->fmask_aligned_height * fmask_bytes;
   layout.size = image->fmask_offset + align64(image->fmask_slice_bytes * level.slices, 256);
   return true;
}

/* The stencil plane of `image` (a format with stencil), and the depth levels moved to its
 * pitches. */
static bool lay_out_stencil(const terakan_device *device, terakan_image *image, std::string &error)
{
   image->stencil_surface = image->surface;
   image->stencil_surface.bytes_per_element = 1;
   if (!hw::compute_surface_layout(device->physical->pci->family, image->stencil_surface, image->stencil_layout,
                                   error))
      return false;
   const unsigned samples = image->vk.samples;
   scale_for_samples(image->stencil_layout, samples);
   hw::SurfaceLayout &depth = image->layout;
   uint64_t offset = 0;
   for (size_t i = 0; i < depth.levels.size(); i++) {
      hw::SurfaceLevel &level = depth.levels[i];
      const hw::SurfaceLevel &stencil = image->stencil_layout.levels[i];
      if (level.mode != hw::ArrayMode::Tiled1DThin1 || stencil.mode != level.mode || stencil.pitch < level.pitch ||
          stencil.aligned_height != level.aligned_height) {
         error = "the stencil plane does not fit the depth levels";
         return false;
      }
      level.pitch = stencil.pitch;
      level.slice_bytes = uint64_t(level.pitch) * level.aligned_height * image->surface.bytes_per_element * samples;
      level.offset = offset;
      offset += level.slice_bytes * level.slices;
      if (i == 0) {
         offset = align64(offset, depth.alignment);
         depth.mip_offset = depth.levels.size() > 1 ? offset : 0;
      }
   }
   depth.size = offset;
   image->stencil_offset = align64(depth.size, std::max<uint64_t>(256, image->stencil_layout.alignment));
   return true;
}

uint64_t terakan_image_size(const terakan_image *image)
{
   if (image->sampling_mips_offset)
      return image->sampling_mips_offset + image->sampling_layout.size - image->sampling_layout.mip_offset;
   return image->format->stencil ? image->stencil_offset + image->stencil_layout.size : image->layout.size;
}

uint64_t terakan_image_stencil_offset(const terakan_image *image, uint32_t level, uint32_t layer)
{
   if (image->vk.samples > 1) {
      const hw::SurfaceLevel &l = image->stencil_layout.levels[level];
      return image->stencil_offset + l.offset + uint64_t(layer) * l.slice_bytes;
   }
   return image->stencil_offset +
          hw::surface_texel_offset(image->stencil_layout, image->stencil_surface, level, 0, 0, layer);
}

/* Sampled depth and stencil. The texture unit reads the surfaces the DB writes as they are,
 * as Mesa's r600 driver does on Evergreen and Cayman when it can (r600_texture.c can_sample_z
 * and can_sample_s; no HTILE here, so nothing is compressed): the depth plane through the
 * format's depth texture format (FMT_16, FMT_8_24 reading x, FMT_32_FLOAT: r600g's
 * r600_translate_texformat for Z16, Z24X8 and the Z32F plane of Z32F_S8X24), the stencil plane
 * as FMT_8 with NUM_FORMAT_ALL INT (r600g's S8_UINT view of the separate stencil surface:
 * evergreen_fill_tex_resource_words). Both in the DB's non-displayable micro-tile order.
 * Levels 1.. of a format with stencil are read from a copy where the texture unit finds them
 * (terakan_depth_sampling_copy.cpp). */

extern "C" VKAPI_ATTR VkResult VKAPI_CALL
terakan_CreateImage(VkDevice _device, const VkImageCreateInfo *pCreateInfo,
                    const VkAllocationCallbacks *pAllocator, VkImage *pImage)
{
   VK_FROM_HANDLE(terakan_device, device, _device);
   const terakan_format *format = terakan_format_of(pCreateInfo->format);
   if (!format)
      return terakan_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT,
                       "terakan: images of format %d are not supported", pCreateInfo->format);
   const VkImageUsageFlags supported_usage = terakan_supported_image_usage(format, pCreateInfo->tiling);
   /* A separate stencil usage (Vulkan 1.2) is checked with the rest: one surface serves both
    * aspects. */
   VkImageUsageFlags usage = pCreateInfo->usage;
   if (const auto *stencil = static_cast<const VkImageStencilUsageCreateInfo *>(
          vk_find_struct_const(pCreateInfo->pNext, IMAGE_STENCIL_USAGE_CREATE_INFO)))
      usage |= stencil->stencilUsage;
   if (usage & ~supported_usage)
      return terakan_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT,
                       "terakan: image usage 0x%x is not supported for format %d (supported: 0x%x)",
                       usage, pCreateInfo->format, supported_usage);
   /* ALIAS (VK_KHR_bind_memory2): two images made alike get the same layout here anyway.
    * SAMPLE_LOCATIONS_COMPATIBLE_DEPTH (VK_EXT_sample_locations): depth is stored per sample
    * without compression (no HTILE), so its contents do not depend on the locations. */
   if (pCreateInfo->flags & ~VkImageCreateFlags(VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT |
                                                VK_IMAGE_CREATE_ALIAS_BIT |
                                                VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT |
                                                VK_IMAGE_CREATE_SAMPLE_LOCATIONS_COMPATIBLE_DEPTH_BIT_EXT))
      return terakan_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT,
                       "terakan: image flags 0x%x are not supported (sparse, 2D array views of 3D images, ...)",
                       pCreateInfo->flags);
   if (pCreateInfo->samples != VK_SAMPLE_COUNT_1_BIT) {
      if (!(terakan_supported_sample_counts & pCreateInfo->samples))
         return terakan_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT,
                               "terakan: %u samples are not supported (1, 2, 4 and 8 are)",
                               unsigned(pCreateInfo->samples));
      if (pCreateInfo->imageType != VK_IMAGE_TYPE_2D || pCreateInfo->tiling != VK_IMAGE_TILING_OPTIMAL ||
          pCreateInfo->mipLevels != 1 || (pCreateInfo->flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT))
         return terakan_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT,
                               "terakan: multisampled images must be 2D, optimally tiled, with one level");
      if (usage & ~terakan_multisampled_usage(format))
         return terakan_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT,
                               "terakan: multisampled image usage 0x%x is not supported for format %d (supported: "
                               "0x%x; storage images and depth input attachments are not)",
                               usage, pCreateInfo->format, terakan_multisampled_usage(format));
   }
   auto *image = terakan_object_new<terakan_image>(pAllocator ? pAllocator : &device->vk.alloc,
                                                   VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!image)
      return vk_error(device, VK_ERROR_OUT_OF_HOST_MEMORY);
   vk_image_init(&device->vk, &image->vk, pCreateInfo);
   image->format = format;
   image->surface = surface_of(device, pCreateInfo, format);
   std::string error;
   bool laid_out = false;
   try {
      if (image->vk.samples > 1 && !format->depth) {
         laid_out = lay_out_multisampled_colour(device, image, error);
      } else {
         laid_out = hw::compute_surface_layout(device->physical->pci->family, image->surface, image->layout, error);
         if (laid_out && !format->stencil)
            scale_for_samples(image->layout, image->vk.samples);
      }
      if (laid_out && format->stencil)
         laid_out = lay_out_stencil(device, image, error);
   } catch (const std::bad_alloc &) {
      error = "out of host memory";
   }
   if (!laid_out) {
      vk_image_finish(&image->vk);
      terakan_object_delete(pAllocator ? pAllocator : &device->vk.alloc, image);
      return terakan_errorf(device, VK_ERROR_OUT_OF_DEVICE_MEMORY, "terakan: image layout: %s",
                       error.c_str());
   }
   /* Depth levels read by the texture unit (sampled, input attachments, blit sources). */
   if (format->stencil && image->vk.samples == 1 && image->surface.levels > 1 &&
       (pCreateInfo->usage & (VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT |
                              VK_IMAGE_USAGE_TRANSFER_SRC_BIT)) &&
       !terakan_image_lay_out_sampling_copy(device, image, error)) {
      vk_image_finish(&image->vk);
      terakan_object_delete(pAllocator ? pAllocator : &device->vk.alloc, image);
      return terakan_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT,
                            "terakan: this sampled depth/stencil image is not supported: %s", error.c_str());
   }
   /* A read multisampled colour image needs FMASK. */
   if (image->vk.samples > 1 && (pCreateInfo->usage & (VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT)) &&
       !image->fmask_offset && !format->depth) {
      vk_image_finish(&image->vk);
      terakan_object_delete(pAllocator ? pAllocator : &device->vk.alloc, image);
      return terakan_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT,
                            "terakan: a multisampled image without FMASK (the board's tiling configuration allows no "
                            "2D tiling) cannot be sampled: texelFetch reads FMASK first");
   }
   *pImage = terakan_image_to_handle(image);
   return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_DestroyImage(VkDevice _device, VkImage _image, const VkAllocationCallbacks *pAllocator)
{
   VK_FROM_HANDLE(terakan_device, device, _device);
   VK_FROM_HANDLE(terakan_image, image, _image);
   if (!image)
      return;
   vk_image_finish(&image->vk);
   terakan_object_delete(pAllocator ? pAllocator : &device->vk.alloc, image);
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_GetImageMemoryRequirements2(VkDevice _device, const VkImageMemoryRequirementsInfo2 *pInfo,
                                    VkMemoryRequirements2 *pMemoryRequirements)
{
   VK_FROM_HANDLE(terakan_device, device, _device);
   VK_FROM_HANDLE(terakan_image, image, pInfo->image);
   VkMemoryRequirements &requirements = pMemoryRequirements->memoryRequirements;
   requirements.size = align64(terakan_image_size(image), 256);
   requirements.alignment = std::max<uint64_t>(image->layout.alignment, 256);
   requirements.memoryTypeBits = (1u << device->physical->memory.memoryTypeCount) - 1;
   terakan_fill_dedicated_requirements(pMemoryRequirements);
}

/* maintenance4: the requirements of an image not made yet. The layout is the whole answer and
 * comes from the create info alone, so a short-lived image gives it; an image the driver
 * would refuse gives empty requirements (the application may not ask for one). */
extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_GetDeviceImageMemoryRequirements(VkDevice _device, const VkDeviceImageMemoryRequirements *pInfo,
                                         VkMemoryRequirements2 *pMemoryRequirements)
{
   pMemoryRequirements->memoryRequirements = {};
   VkImage image = VK_NULL_HANDLE;
   if (terakan_CreateImage(_device, pInfo->pCreateInfo, nullptr, &image) != VK_SUCCESS)
      return;
   VkImageMemoryRequirementsInfo2 info = {VK_STRUCTURE_TYPE_IMAGE_MEMORY_REQUIREMENTS_INFO_2};
   info.image = image;
   terakan_GetImageMemoryRequirements2(_device, &info, pMemoryRequirements);
   terakan_DestroyImage(_device, image, nullptr);
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_GetDeviceImageSparseMemoryRequirements(VkDevice, const VkDeviceImageMemoryRequirements *,
                                               uint32_t *pSparseMemoryRequirementCount,
                                               VkSparseImageMemoryRequirements2 *)
{
   *pSparseMemoryRequirementCount = 0; /* no sparse images */
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_GetImageSparseMemoryRequirements2(VkDevice, const VkImageSparseMemoryRequirementsInfo2 *,
                                          uint32_t *pSparseMemoryRequirementCount,
                                          VkSparseImageMemoryRequirements2 *)
{
   *pSparseMemoryRequirementCount = 0;
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL
terakan_BindImageMemory2(VkDevice, uint32_t bindInfoCount, const VkBindImageMemoryInfo *pBindInfos)
{
   for (uint32_t i = 0; i < bindInfoCount; i++) {
      VK_FROM_HANDLE(terakan_image, image, pBindInfos[i].image);
      VK_FROM_HANDLE(terakan_device_memory, memory, pBindInfos[i].memory);
      image->memory = memory;
      image->offset = pBindInfos[i].memoryOffset;
   }
   return VK_SUCCESS;
}

/* Where texel (0, 0) of `layer` (or z slice) of `level` starts, from the image's base. */
uint64_t terakan_image_subresource_offset(const terakan_image *image, uint32_t level, uint32_t layer)
{
   if (image->vk.samples > 1) {
      const hw::SurfaceLevel &l = image->layout.levels[level];
      return l.offset + uint64_t(layer) * l.slice_bytes;
   }
   return hw::surface_texel_offset(image->layout, image->surface, level, 0, 0, layer);
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_GetImageSubresourceLayout(VkDevice, VkImage _image, const VkImageSubresource *pSubresource,
                                  VkSubresourceLayout *pLayout)
{
   VK_FROM_HANDLE(terakan_image, image, _image);
   if (image->format->stencil && pSubresource->aspectMask == VK_IMAGE_ASPECT_STENCIL_BIT) {
      const hw::SurfaceLevel &level = image->stencil_layout.levels[pSubresource->mipLevel];
      pLayout->offset = terakan_image_stencil_offset(image, pSubresource->mipLevel, pSubresource->arrayLayer);
      pLayout->rowPitch = level.pitch;
      pLayout->arrayPitch = pLayout->depthPitch = pLayout->size = level.slice_bytes;
      return;
   }
   const hw::SurfaceLevel &level = image->layout.levels[pSubresource->mipLevel];
   pLayout->offset = terakan_image_subresource_offset(image, pSubresource->mipLevel,
                                                      pSubresource->arrayLayer);
   pLayout->rowPitch = uint64_t(level.pitch) * image->format->bytes;
   pLayout->arrayPitch = level.slice_bytes;
   pLayout->depthPitch = level.slice_bytes;
   pLayout->size = level.slice_bytes * (image->surface.is_3d ? level.depth : 1);
}

/* ---- views ---- */

static hw::TextureDim dimension_of(VkImageViewType type)
{
   switch (type) {
   case VK_IMAGE_VIEW_TYPE_1D: return hw::TextureDim::Dim1D;
   case VK_IMAGE_VIEW_TYPE_1D_ARRAY: return hw::TextureDim::Dim1DArray;
   case VK_IMAGE_VIEW_TYPE_3D: return hw::TextureDim::Dim3D;
   case VK_IMAGE_VIEW_TYPE_2D_ARRAY: return hw::TextureDim::Dim2DArray;
   case VK_IMAGE_VIEW_TYPE_CUBE:
   case VK_IMAGE_VIEW_TYPE_CUBE_ARRAY: return hw::TextureDim::Cube;
   default: return hw::TextureDim::Dim2D;
   }
}

static hw::Select compose(VkComponentSwizzle swizzle, hw::Select identity,
                          const std::array<hw::Select, 4> &format_swizzle)
{
   switch (swizzle) {
   case VK_COMPONENT_SWIZZLE_ZERO: return hw::Select::Zero;
   case VK_COMPONENT_SWIZZLE_ONE: return hw::Select::One;
   case VK_COMPONENT_SWIZZLE_R: return format_swizzle[0];
   case VK_COMPONENT_SWIZZLE_G: return format_swizzle[1];
   case VK_COMPONENT_SWIZZLE_B: return format_swizzle[2];
   case VK_COMPONENT_SWIZZLE_A: return format_swizzle[3];
   default: return identity;
   }
}

/* The words of a view: level 0 of the image at BASE_ADDRESS and level 1 at MIP_ADDRESS (both
 * offsets in the buffer object here; the relocations add its address), the view's levels and
 * layers in BASE_LEVEL/LAST_LEVEL and BASE_ARRAY/LAST_ARRAY. */
std::array<uint32_t, 8> terakan_image_view_words(const terakan_image *image, const terakan_image_view *view)
{
   const terakan_format *format = terakan_format_of(view->vk.view_format);
   if (!format)
      format = image->format;
   /* The stencil aspect of a depth/stencil image: its own plane, 8-bit unsigned integers read
    * as (S, 0, 0, 1). */
   static const terakan_format stencil_format = {
      VK_FORMAT_S8_UINT, hw::Fmt8, hw::NumFormat::Int, false, false,
      {hw::Select::X, hw::Select::Zero, hw::Select::Zero, hw::Select::One}, 1, false};
   const bool stencil = image->format->stencil && view->vk.aspects == VK_IMAGE_ASPECT_STENCIL_BIT;
   if (stencil)
      format = &stencil_format;
   const hw::SurfaceLayout &layout = stencil ? image->stencil_layout : image->layout;
   const uint64_t plane = stencil ? image->stencil_offset : 0;
   hw::TextureResource resource;
   resource.dim = dimension_of(view->vk.view_type);
   resource.array_mode = layout.levels[0].mode;
   resource.non_disp_tiling_order = image->surface.non_displayable_order;
   hw::fill_texture_resource_tiling(layout, resource);
   /* PITCH counts texels: the layout's pitch counts blocks of compressed formats. */
   resource.pitch = layout.levels[0].pitch * image->format->block;
   resource.width = image->surface.width;
   resource.height = resource.dim == hw::TextureDim::Dim1DArray ? 1 : image->surface.height;
   resource.depth = image->surface.is_3d ? image->surface.depth : image->surface.layers;
   /* A cube counts cubes in TEX_DEPTH; its faces are layers (BASE/LAST_ARRAY). */
   if (resource.dim == hw::TextureDim::Cube)
      resource.depth = std::max(image->surface.layers / 6, 1u);
   const uint64_t base = image->offset + plane;
   resource.base_address = base;
   resource.mip_address = image->surface.levels > 1 ? base + layout.mip_offset : base;
   /* Depth levels 1.. of a format with stencil, where the texture unit finds them. */
   if (!stencil && image->sampling_mips_offset)
      resource.mip_address = image->offset + image->sampling_mips_offset;
   resource.format = format->hw;
   resource.num_format = format->num_format;
   for (bool &s : resource.format_signed)
      s = format->is_signed;
   resource.force_degamma = format->srgb;
   const std::array<hw::Select, 4> identity = format->swizzle;
   const VkComponentMapping &m = view->vk.swizzle;
   resource.dst_sel[0] = compose(m.r, identity[0], identity);
   resource.dst_sel[1] = compose(m.g, identity[1], identity);
   resource.dst_sel[2] = compose(m.b, identity[2], identity);
   resource.dst_sel[3] = compose(m.a, identity[3], identity);
   resource.base_level = view->vk.base_mip_level;
   resource.last_level = view->vk.base_mip_level + view->vk.level_count - 1;
   /* WORD6 MAX_ANISO_RATIO: 16x for views with mip levels, 1x for a single level, as r600g
    * writes it (evergreen_fill_tex_resource_words); the sampler's ratio asks, this one limits
    * (docs/sim-semantics.md "Textures"). */
   resource.max_aniso_ratio = view->vk.level_count > 1 ? 4 : 0;
   resource.base_array = image->surface.is_3d ? 0 : view->vk.base_array_layer;
   resource.last_array = image->surface.is_3d ? 0 : view->vk.base_array_layer + view->vk.layer_count - 1;
   const auto *device = container_of(image->vk.base.device, const terakan_device, vk);
   const hw::IsaClass isa = device->physical->family->isa_class;
   if (image->vk.samples > 1 && (image->format->depth || image->fmask_offset)) {
      /* A multisampled view (Mesa evergreen_fill_tex_resource_words): DIM 2D_MSAA or
       * 2D_ARRAY_MSAA, LAST_LEVEL log2 of the sample count, and on Cayman LOG2_NUM_FRAGMENTS
       * equal to it (no EQAA). Colour: MIP_ADDRESS the FMASK, WORD6's low bits
       * FMASK_BANK_HEIGHT (image->fmask_bank_height, as lay_out_multisampled_colour lays FMASK
       * out). Depth and stencil are read where the DB wrote them, as r600g samples its
       * multisampled depth on Evergreen and Cayman: MIP_ADDRESS 0 ("disable FMASK", and no mip
       * relocation), DEPTH_SAMPLE_ORDER (a pixel's samples side by side). */
      const unsigned log_samples = unsigned(__builtin_ctz(image->vk.samples));
      resource.dim = resource.dim == hw::TextureDim::Dim2DArray ? hw::TextureDim::Dim2DArrayMsaa
                                                                : hw::TextureDim::Dim2DMsaa;
      resource.base_level = 0;
      resource.last_level = log_samples;
      if (isa == hw::IsaClass::Cayman)
         resource.log2_fragments = log_samples;
      if (image->format->depth) {
         resource.mip_address = 0;
         resource.depth_sample_order = true;
      } else {
         resource.mip_address = base + image->fmask_offset;
         resource.max_aniso_ratio = unsigned(__builtin_ctz(image->fmask_bank_height));
      }
   }
   return hw::encode_texture_resource(resource, isa);
}

bool terakan_resource_words_need_mip_relocation(const std::array<uint32_t, 8> &words)
{
   /* The kernel takes no MIP_ADDRESS relocation for a multisampled texture whose MIP_ADDRESS
    * (FMASK) is 0 (evergreen_cs.c; r600g skips it: skip_mip_address_reloc). */
   const hw::TextureResource r = hw::decode_texture_resource(words);
   return !(hw::texture_dim_is_msaa(r.dim) && r.mip_address == 0);
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL
terakan_CreateImageView(VkDevice _device, const VkImageViewCreateInfo *pCreateInfo,
                        const VkAllocationCallbacks *pAllocator, VkImageView *pView)
{
   VK_FROM_HANDLE(terakan_device, device, _device);
   VK_FROM_HANDLE(terakan_image, image, pCreateInfo->image);
   auto *view = terakan_object_new<terakan_image_view>(pAllocator ? pAllocator : &device->vk.alloc,
                                                       VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!view)
      return vk_error(device, VK_ERROR_OUT_OF_HOST_MEMORY);
   vk_image_view_init(&device->vk, &view->vk, false, pCreateInfo);
   view->image = image;
   view->resource_words = terakan_image_view_words(image, view);
   *pView = terakan_image_view_to_handle(view);
   return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_DestroyImageView(VkDevice _device, VkImageView _view, const VkAllocationCallbacks *pAllocator)
{
   VK_FROM_HANDLE(terakan_device, device, _device);
   VK_FROM_HANDLE(terakan_image_view, view, _view);
   if (!view)
      return;
   vk_image_view_finish(&view->vk);
   terakan_object_delete(pAllocator ? pAllocator : &device->vk.alloc, view);
}
