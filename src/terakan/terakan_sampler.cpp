/* Samplers: VkSamplerCreateInfo as SQ_TEX_SAMPLER_WORD0-2 (src/hw/texture.h).
 *
 * Unnormalized coordinates: on Cayman and Aruba the sampler word carries them
 * (FORCE_UNNORMALIZED); elsewhere the bound sampler's `unnormalized` picks a program variant or
 * a branch (terakan_shader_variants.h). compareEnable sets DEPTH_COMPARE_FUNCTION. Border colours: the three fixed ones only; custom
 * colours (VK_EXT_custom_border_color) would need the TD_CS_SAMPLER border registers.
 * anisotropyEnable: MAX_ANISO_RATIO and the ANISO forms of both XY filters (anisotropy_ratio). */
#include "terakan_private.h"

#include <algorithm>

using terakan::hw::ClampMode;
using terakan::hw::MipFilter;
using terakan::hw::TexFilter;
namespace hw = terakan::hw;

static ClampMode clamp_mode(VkSamplerAddressMode mode)
{
   switch (mode) {
   case VK_SAMPLER_ADDRESS_MODE_REPEAT: return ClampMode::Wrap;
   case VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT: return ClampMode::Mirror;
   case VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE: return ClampMode::ClampLastTexel;
   case VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER: return ClampMode::ClampBorder;
   case VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE: return ClampMode::MirrorOnceLastTexel;
   default: return ClampMode::Wrap;
   }
}

static hw::BorderColor border_color(VkBorderColor color)
{
   switch (color) {
   case VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK:
   case VK_BORDER_COLOR_INT_OPAQUE_BLACK: return hw::BorderColor::OpaqueBlack;
   case VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE:
   case VK_BORDER_COLOR_INT_OPAQUE_WHITE: return hw::BorderColor::OpaqueWhite;
   default: return hw::BorderColor::TransparentBlack;
   }
}

/* SQ_TEX_SAMPLER_WORD0.MAX_ANISO_RATIO for a Vulkan maximum anisotropy: 0..4 for 1x, 2x, 4x, 8x
 * and 16x, the largest power of two not above the request (r600g's r600_tex_aniso_filter maps
 * GL's maximum the same way), so the ratio never exceeds what the application allowed. */
static unsigned anisotropy_ratio(float max_anisotropy)
{
   unsigned ratio = 0;
   while (ratio < 4 && max_anisotropy >= float(2u << ratio))
      ratio++;
   return ratio;
}

static TexFilter xy_filter(VkFilter filter, bool anisotropic)
{
   if (filter == VK_FILTER_LINEAR)
      return anisotropic ? TexFilter::AnisoBilinear : TexFilter::Bilinear;
   return anisotropic ? TexFilter::AnisoPoint : TexFilter::Point;
}

terakan_sampler_state terakan_sampler_state_of(const terakan_physical_device *pdev,
                                               const VkSamplerCreateInfo *info)
{
   hw::Sampler sampler;
   sampler.clamp[0] = clamp_mode(info->addressModeU);
   sampler.clamp[1] = clamp_mode(info->addressModeV);
   sampler.clamp[2] = clamp_mode(info->addressModeW);
   /* Anisotropy: both XY filters in their ANISO form with the ratio, as r600g programs a GL
    * maximum anisotropy above 1 (eg_tex_filter); a maximum of 1 (or below 2) stays isotropic.
    * The texture resource's own MAX_ANISO_RATIO (terakan_image.cpp) may lower it. */
   const unsigned ratio = info->anisotropyEnable ? anisotropy_ratio(info->maxAnisotropy) : 0;
   sampler.max_aniso_ratio = ratio;
   sampler.mag_filter = xy_filter(info->magFilter, ratio > 0);
   sampler.min_filter = xy_filter(info->minFilter, ratio > 0);
   sampler.mip_filter = info->mipmapMode == VK_SAMPLER_MIPMAP_MODE_LINEAR ? MipFilter::Linear : MipFilter::Point;
   /* Z_FILTER stays NONE: a 3D texture's z then follows the XY filter, as Vulkan's mag/min
    * filters cover all three axes (r600g never sets it either; docs/sim-semantics.md). */
   sampler.border = border_color(info->borderColor);
   sampler.min_lod = std::clamp(info->minLod, 0.0f, 15.0f);
   sampler.max_lod = std::clamp(info->maxLod, 0.0f, 15.0f);
   sampler.lod_bias = std::clamp(info->mipLodBias, -2.0f, 2.0f); /* maxSamplerLodBias */
   /* Depth comparison: VkCompareOp and SQ_TEX_DEPTH_COMPARE_* number NEVER..ALWAYS alike (Mesa
    * r600_state_common.c r600_tex_compare maps OpenGL's, which Vulkan's follow, one to one);
    * only the SAMPLE_C forms a shadow sampler compiles to read it. */
   if (info->compareEnable)
      sampler.depth_compare = unsigned(info->compareOp) & 7;
   const hw::IsaClass isa = pdev->family->isa_class;
   const bool forced = info->unnormalizedCoordinates && hw::sampler_has_force_unnormalized(isa);
   sampler.force_unnormalized = forced;
   terakan_sampler_state state;
   state.unnormalized = info->unnormalizedCoordinates;
   state.words = hw::encode_sampler(sampler, isa);
   return state;
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL
terakan_CreateSampler(VkDevice _device, const VkSamplerCreateInfo *pCreateInfo,
                      const VkAllocationCallbacks *pAllocator, VkSampler *pSampler)
{
   VK_FROM_HANDLE(terakan_device, device, _device);
   if (pCreateInfo->anisotropyEnable &&
       !(pCreateInfo->maxAnisotropy >= 1.0f && pCreateInfo->maxAnisotropy <= 16.0f))
      return terakan_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT,
                            "terakan: maxAnisotropy %g is outside 1..16 (maxSamplerAnisotropy)",
                            double(pCreateInfo->maxAnisotropy));
   auto *sampler = terakan_object_new<terakan_sampler>(pAllocator ? pAllocator : &device->vk.alloc,
                                                       VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!sampler)
      return vk_error(device, VK_ERROR_OUT_OF_HOST_MEMORY);
   vk_object_base_init(&device->vk, &sampler->base, VK_OBJECT_TYPE_SAMPLER);
   sampler->state = terakan_sampler_state_of(device->physical, pCreateInfo);
   *pSampler = terakan_sampler_to_handle(sampler);
   return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_DestroySampler(VkDevice _device, VkSampler _sampler, const VkAllocationCallbacks *pAllocator)
{
   VK_FROM_HANDLE(terakan_device, device, _device);
   VK_FROM_HANDLE(terakan_sampler, sampler, _sampler);
   if (!sampler)
      return;
   vk_object_base_finish(&sampler->base);
   terakan_object_delete(pAllocator ? pAllocator : &device->vk.alloc, sampler);
}
