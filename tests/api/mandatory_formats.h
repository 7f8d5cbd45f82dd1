/* The format features every Vulkan 1.0 implementation must offer: the specification's "Required
 * Format Support" tables (chapter Formats), written out here per format. Formats an
 * implementation may offer instead of one another (the X8_D24/D32 depth formats, the
 * depth/stencil pairs) and the optional block-compressed families are not listed: their rules
 * are checked by the test itself. */
#pragma once

#include <vulkan/vulkan.h>

namespace terakan::test {

struct MandatoryFormat {
   VkFormat format;
   VkFormatFeatureFlags optimal; /* optimalTilingFeatures */
   VkFormatFeatureFlags buffer;  /* bufferFeatures */
};

namespace mandatory {
constexpr VkFormatFeatureFlags sampled = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_BLIT_SRC_BIT;
constexpr VkFormatFeatureFlags filtered = sampled | VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
constexpr VkFormatFeatureFlags rendered = VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT | VK_FORMAT_FEATURE_BLIT_DST_BIT;
constexpr VkFormatFeatureFlags blended = rendered | VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT;
constexpr VkFormatFeatureFlags storage = VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT;
constexpr VkFormatFeatureFlags vertex = VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT;
constexpr VkFormatFeatureFlags texel = VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT;
constexpr VkFormatFeatureFlags stored_texel = VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT;
constexpr VkFormatFeatureFlags atomic = VK_FORMAT_FEATURE_STORAGE_IMAGE_ATOMIC_BIT;
constexpr VkFormatFeatureFlags atomic_texel = VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_ATOMIC_BIT;
} // namespace mandatory

inline constexpr MandatoryFormat mandatory_formats[] = {
   {VK_FORMAT_B4G4R4A4_UNORM_PACK16, mandatory::filtered, 0},
   {VK_FORMAT_R5G6B5_UNORM_PACK16, mandatory::filtered | mandatory::blended, 0},
   {VK_FORMAT_A1R5G5B5_UNORM_PACK16, mandatory::filtered | mandatory::blended, 0},
   {VK_FORMAT_R8_UNORM, mandatory::filtered | mandatory::blended, mandatory::vertex | mandatory::texel},
   {VK_FORMAT_R8_SNORM, mandatory::filtered, mandatory::vertex | mandatory::texel},
   {VK_FORMAT_R8_UINT, mandatory::sampled | mandatory::rendered, mandatory::vertex | mandatory::texel},
   {VK_FORMAT_R8_SINT, mandatory::sampled | mandatory::rendered, mandatory::vertex | mandatory::texel},
   {VK_FORMAT_R8G8_UNORM, mandatory::filtered | mandatory::blended, mandatory::vertex | mandatory::texel},
   {VK_FORMAT_R8G8_SNORM, mandatory::filtered, mandatory::vertex | mandatory::texel},
   {VK_FORMAT_R8G8_UINT, mandatory::sampled | mandatory::rendered, mandatory::vertex | mandatory::texel},
   {VK_FORMAT_R8G8_SINT, mandatory::sampled | mandatory::rendered, mandatory::vertex | mandatory::texel},
   {VK_FORMAT_R8G8B8A8_UNORM, mandatory::filtered | mandatory::storage | mandatory::blended,
    mandatory::vertex | mandatory::texel | mandatory::stored_texel},
   {VK_FORMAT_R8G8B8A8_SNORM, mandatory::filtered | mandatory::storage,
    mandatory::vertex | mandatory::texel | mandatory::stored_texel},
   {VK_FORMAT_R8G8B8A8_UINT, mandatory::sampled | mandatory::storage | mandatory::rendered,
    mandatory::vertex | mandatory::texel | mandatory::stored_texel},
   {VK_FORMAT_R8G8B8A8_SINT, mandatory::sampled | mandatory::storage | mandatory::rendered,
    mandatory::vertex | mandatory::texel | mandatory::stored_texel},
   {VK_FORMAT_R8G8B8A8_SRGB, mandatory::filtered | mandatory::blended, 0},
   {VK_FORMAT_B8G8R8A8_UNORM, mandatory::filtered | mandatory::blended, mandatory::vertex | mandatory::texel},
   {VK_FORMAT_B8G8R8A8_SRGB, mandatory::filtered | mandatory::blended, 0},
   {VK_FORMAT_A8B8G8R8_UNORM_PACK32, mandatory::filtered | mandatory::blended,
    mandatory::vertex | mandatory::texel | mandatory::stored_texel},
   {VK_FORMAT_A8B8G8R8_SNORM_PACK32, mandatory::filtered, mandatory::vertex | mandatory::texel | mandatory::stored_texel},
   {VK_FORMAT_A8B8G8R8_UINT_PACK32, mandatory::sampled | mandatory::rendered,
    mandatory::vertex | mandatory::texel | mandatory::stored_texel},
   {VK_FORMAT_A8B8G8R8_SINT_PACK32, mandatory::sampled | mandatory::rendered,
    mandatory::vertex | mandatory::texel | mandatory::stored_texel},
   {VK_FORMAT_A8B8G8R8_SRGB_PACK32, mandatory::filtered | mandatory::blended, 0},
   {VK_FORMAT_A2B10G10R10_UNORM_PACK32, mandatory::filtered | mandatory::blended, mandatory::vertex | mandatory::texel},
   {VK_FORMAT_A2B10G10R10_UINT_PACK32, mandatory::sampled | mandatory::rendered, mandatory::texel},
   {VK_FORMAT_R16_UNORM, 0, mandatory::vertex},
   {VK_FORMAT_R16_SNORM, 0, mandatory::vertex},
   {VK_FORMAT_R16_UINT, mandatory::sampled | mandatory::rendered, mandatory::vertex | mandatory::texel},
   {VK_FORMAT_R16_SINT, mandatory::sampled | mandatory::rendered, mandatory::vertex | mandatory::texel},
   {VK_FORMAT_R16_SFLOAT, mandatory::filtered | mandatory::blended, mandatory::vertex | mandatory::texel},
   {VK_FORMAT_R16G16_UNORM, 0, mandatory::vertex},
   {VK_FORMAT_R16G16_SNORM, 0, mandatory::vertex},
   {VK_FORMAT_R16G16_UINT, mandatory::sampled | mandatory::rendered, mandatory::vertex | mandatory::texel},
   {VK_FORMAT_R16G16_SINT, mandatory::sampled | mandatory::rendered, mandatory::vertex | mandatory::texel},
   {VK_FORMAT_R16G16_SFLOAT, mandatory::filtered | mandatory::blended, mandatory::vertex | mandatory::texel},
   {VK_FORMAT_R16G16B16A16_UNORM, 0, mandatory::vertex},
   {VK_FORMAT_R16G16B16A16_SNORM, 0, mandatory::vertex},
   {VK_FORMAT_R16G16B16A16_UINT, mandatory::sampled | mandatory::storage | mandatory::rendered,
    mandatory::vertex | mandatory::texel | mandatory::stored_texel},
   {VK_FORMAT_R16G16B16A16_SINT, mandatory::sampled | mandatory::storage | mandatory::rendered,
    mandatory::vertex | mandatory::texel | mandatory::stored_texel},
   {VK_FORMAT_R16G16B16A16_SFLOAT, mandatory::filtered | mandatory::storage | mandatory::blended,
    mandatory::vertex | mandatory::texel | mandatory::stored_texel},
   {VK_FORMAT_R32_UINT, mandatory::sampled | mandatory::storage | mandatory::atomic | mandatory::rendered,
    mandatory::vertex | mandatory::texel | mandatory::stored_texel | mandatory::atomic_texel},
   {VK_FORMAT_R32_SINT, mandatory::sampled | mandatory::storage | mandatory::atomic | mandatory::rendered,
    mandatory::vertex | mandatory::texel | mandatory::stored_texel | mandatory::atomic_texel},
   {VK_FORMAT_R32_SFLOAT, mandatory::sampled | mandatory::storage | mandatory::rendered,
    mandatory::vertex | mandatory::texel | mandatory::stored_texel},
   {VK_FORMAT_R32G32_UINT, mandatory::sampled | mandatory::storage | mandatory::rendered,
    mandatory::vertex | mandatory::texel | mandatory::stored_texel},
   {VK_FORMAT_R32G32_SINT, mandatory::sampled | mandatory::storage | mandatory::rendered,
    mandatory::vertex | mandatory::texel | mandatory::stored_texel},
   {VK_FORMAT_R32G32_SFLOAT, mandatory::sampled | mandatory::storage | mandatory::rendered,
    mandatory::vertex | mandatory::texel | mandatory::stored_texel},
   {VK_FORMAT_R32G32B32_UINT, 0, mandatory::vertex},
   {VK_FORMAT_R32G32B32_SINT, 0, mandatory::vertex},
   {VK_FORMAT_R32G32B32_SFLOAT, 0, mandatory::vertex},
   {VK_FORMAT_R32G32B32A32_UINT, mandatory::sampled | mandatory::storage | mandatory::rendered,
    mandatory::vertex | mandatory::texel | mandatory::stored_texel},
   {VK_FORMAT_R32G32B32A32_SINT, mandatory::sampled | mandatory::storage | mandatory::rendered,
    mandatory::vertex | mandatory::texel | mandatory::stored_texel},
   {VK_FORMAT_R32G32B32A32_SFLOAT, mandatory::sampled | mandatory::storage | mandatory::rendered,
    mandatory::vertex | mandatory::texel | mandatory::stored_texel},
   {VK_FORMAT_B10G11R11_UFLOAT_PACK32, mandatory::filtered, mandatory::texel},
   {VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, mandatory::filtered, 0},
   {VK_FORMAT_D16_UNORM, mandatory::sampled | VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT, 0},
};

} // namespace terakan::test
