/* Vulkan formats as TeraScale texture formats, and what each can do.
 *
 * Sampling, copies, uniform texel buffers, colour attachments (the formats the CB writes:
 * terakan_attachment_formats.cpp), depth/stencil attachments (D16_UNORM, X8_D24_UNORM_PACK32,
 * D32_SFLOAT, D24_UNORM_S8_UINT, D32_SFLOAT_S8_UINT) and, for a list of formats, storage images
 * and storage texel buffers (terakan_format_is_storage) exist so far: no blits of depth. The hardware format,
 * number format and swizzle of each entry follow the FMT_* list of src/hw/texture.h; unlisted
 * formats report no features. */
#include "terakan_private.h"

#include "vk_format.h"
#include "util/u_math.h"

#include <algorithm>

using terakan::hw::NumFormat;
using terakan::hw::Select;
namespace hw = terakan::hw;

/* Missing components read as 0, alpha as 1 (Vulkan's rule for formats without them). */
static constexpr std::array<Select, 4> xyzw = {Select::X, Select::Y, Select::Z, Select::W};
static constexpr std::array<Select, 4> x001 = {Select::X, Select::Zero, Select::Zero, Select::One};
static constexpr std::array<Select, 4> xy01 = {Select::X, Select::Y, Select::Zero, Select::One};
static constexpr std::array<Select, 4> zyxw = {Select::Z, Select::Y, Select::X, Select::W};
static constexpr std::array<Select, 4> xyz1 = {Select::X, Select::Y, Select::Z, Select::One};
static constexpr std::array<Select, 4> zyx1 = {Select::Z, Select::Y, Select::X, Select::One};
static constexpr std::array<Select, 4> yzwx = {Select::Y, Select::Z, Select::W, Select::X};

static const terakan_format formats[] = {
   /* vk format, hw format, number format, signed, sRGB, swizzle, bytes, filterable */
   {VK_FORMAT_R8_UNORM, hw::Fmt8, NumFormat::Norm, false, false, x001, 1, true},
   {VK_FORMAT_R8_SNORM, hw::Fmt8, NumFormat::Norm, true, false, x001, 1, true},
   {VK_FORMAT_R8_UINT, hw::Fmt8, NumFormat::Int, false, false, x001, 1, false},
   {VK_FORMAT_R8_SINT, hw::Fmt8, NumFormat::Int, true, false, x001, 1, false},
   {VK_FORMAT_R8G8_UNORM, hw::Fmt8_8, NumFormat::Norm, false, false, xy01, 2, true},
   {VK_FORMAT_R8G8_SNORM, hw::Fmt8_8, NumFormat::Norm, true, false, xy01, 2, true},
   {VK_FORMAT_R8G8_UINT, hw::Fmt8_8, NumFormat::Int, false, false, xy01, 2, false},
   {VK_FORMAT_R8G8_SINT, hw::Fmt8_8, NumFormat::Int, true, false, xy01, 2, false},
   {VK_FORMAT_R8G8B8A8_UNORM, hw::Fmt8_8_8_8, NumFormat::Norm, false, false, xyzw, 4, true},
   {VK_FORMAT_R8G8B8A8_SNORM, hw::Fmt8_8_8_8, NumFormat::Norm, true, false, xyzw, 4, true},
   {VK_FORMAT_R8G8B8A8_SRGB, hw::Fmt8_8_8_8, NumFormat::Norm, false, true, xyzw, 4, true},
   {VK_FORMAT_R8G8B8A8_UINT, hw::Fmt8_8_8_8, NumFormat::Int, false, false, xyzw, 4, false},
   {VK_FORMAT_R8G8B8A8_SINT, hw::Fmt8_8_8_8, NumFormat::Int, true, false, xyzw, 4, false},
   {VK_FORMAT_B8G8R8A8_UNORM, hw::Fmt8_8_8_8, NumFormat::Norm, false, false, zyxw, 4, true},
   {VK_FORMAT_B8G8R8A8_SRGB, hw::Fmt8_8_8_8, NumFormat::Norm, false, true, zyxw, 4, true},
   /* A8B8G8R8_*_PACK32: the same bytes as R8G8B8A8 (R in the lowest byte). */
   {VK_FORMAT_A8B8G8R8_UNORM_PACK32, hw::Fmt8_8_8_8, NumFormat::Norm, false, false, xyzw, 4, true},
   {VK_FORMAT_A8B8G8R8_SNORM_PACK32, hw::Fmt8_8_8_8, NumFormat::Norm, true, false, xyzw, 4, true},
   {VK_FORMAT_A8B8G8R8_SRGB_PACK32, hw::Fmt8_8_8_8, NumFormat::Norm, false, true, xyzw, 4, true},
   {VK_FORMAT_A8B8G8R8_UINT_PACK32, hw::Fmt8_8_8_8, NumFormat::Int, false, false, xyzw, 4, false},
   {VK_FORMAT_A8B8G8R8_SINT_PACK32, hw::Fmt8_8_8_8, NumFormat::Int, true, false, xyzw, 4, false},
   /* 16-bit packed: the FMT_* fields start at bit 0 with x (src/hw/texture.cpp's component
    * layouts), so R5G6B5 (blue lowest) reads z, y, x; A1R5G5B5 blue, green, red, alpha; and
    * B4G4R4A4 (alpha lowest) alpha, red, green, blue. */
   {VK_FORMAT_R5G6B5_UNORM_PACK16, hw::Fmt5_6_5, NumFormat::Norm, false, false, zyx1, 2, true},
   {VK_FORMAT_A1R5G5B5_UNORM_PACK16, hw::Fmt1_5_5_5, NumFormat::Norm, false, false, zyxw, 2, true},
   {VK_FORMAT_B4G4R4A4_UNORM_PACK16, hw::Fmt4_4_4_4, NumFormat::Norm, false, false, yzwx, 2, true},
   /* Packed: FMT_2_10_10_10 holds x in bits 0-9 (Vulkan's A2B10G10R10: R lowest), and
    * FMT_10_11_11_FLOAT x in bits 0-10 (B10G11R11: R lowest), as the kernel's and r600g's
    * format tables place them. */
   {VK_FORMAT_A2B10G10R10_UNORM_PACK32, hw::Fmt2_10_10_10, NumFormat::Norm, false, false, xyzw, 4, true},
   {VK_FORMAT_A2R10G10B10_UNORM_PACK32, hw::Fmt2_10_10_10, NumFormat::Norm, false, false, zyxw, 4, true},
   {VK_FORMAT_A2B10G10R10_UINT_PACK32, hw::Fmt2_10_10_10, NumFormat::Int, false, false, xyzw, 4, false},
   {VK_FORMAT_B10G11R11_UFLOAT_PACK32, hw::Fmt10_11_11Float, NumFormat::Norm, false, false, xyz1, 4, true},
   /* Shared exponent: r600g samples R9G9B9E5 as FMT_5_9_9_9_SHAREDEXP (red in bits 0-8). */
   {VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, hw::Fmt5_9_9_9SharedExp, NumFormat::Norm, false, false, xyz1, 4, true},
   {VK_FORMAT_R16_UNORM, hw::Fmt16, NumFormat::Norm, false, false, x001, 2, true},
   {VK_FORMAT_R16_SNORM, hw::Fmt16, NumFormat::Norm, true, false, x001, 2, true},
   {VK_FORMAT_R16G16_UNORM, hw::Fmt16_16, NumFormat::Norm, false, false, xy01, 4, true},
   {VK_FORMAT_R16G16_SNORM, hw::Fmt16_16, NumFormat::Norm, true, false, xy01, 4, true},
   {VK_FORMAT_R16_UINT, hw::Fmt16, NumFormat::Int, false, false, x001, 2, false},
   {VK_FORMAT_R16_SINT, hw::Fmt16, NumFormat::Int, true, false, x001, 2, false},
   {VK_FORMAT_R16G16_UINT, hw::Fmt16_16, NumFormat::Int, false, false, xy01, 4, false},
   {VK_FORMAT_R16G16_SINT, hw::Fmt16_16, NumFormat::Int, true, false, xy01, 4, false},
   {VK_FORMAT_R16_SFLOAT, hw::Fmt16Float, NumFormat::Norm, false, false, x001, 2, true},
   {VK_FORMAT_R16G16_SFLOAT, hw::Fmt16_16Float, NumFormat::Norm, false, false, xy01, 4, true},
   {VK_FORMAT_R16G16B16A16_UNORM, hw::Fmt16_16_16_16, NumFormat::Norm, false, false, xyzw, 8, true},
   {VK_FORMAT_R16G16B16A16_SNORM, hw::Fmt16_16_16_16, NumFormat::Norm, true, false, xyzw, 8, true},
   {VK_FORMAT_R16G16B16A16_SFLOAT, hw::Fmt16_16_16_16Float, NumFormat::Norm, false, false, xyzw, 8, true},
   {VK_FORMAT_R16G16B16A16_UINT, hw::Fmt16_16_16_16, NumFormat::Int, false, false, xyzw, 8, false},
   {VK_FORMAT_R16G16B16A16_SINT, hw::Fmt16_16_16_16, NumFormat::Int, true, false, xyzw, 8, false},
   /* 32-bit float formats: sampled, not filtered (Vulkan does not require it, and the
    * simulator has no source saying the hardware filters them). */
   {VK_FORMAT_R32_SFLOAT, hw::Fmt32Float, NumFormat::Norm, false, false, x001, 4, false},
   {VK_FORMAT_R32_UINT, hw::Fmt32, NumFormat::Int, false, false, x001, 4, false},
   {VK_FORMAT_R32_SINT, hw::Fmt32, NumFormat::Int, true, false, x001, 4, false},
   {VK_FORMAT_R32G32_SFLOAT, hw::Fmt32_32Float, NumFormat::Norm, false, false, xy01, 8, false},
   {VK_FORMAT_R32G32_UINT, hw::Fmt32_32, NumFormat::Int, false, false, xy01, 8, false},
   {VK_FORMAT_R32G32_SINT, hw::Fmt32_32, NumFormat::Int, true, false, xy01, 8, false},
   {VK_FORMAT_R32G32B32A32_SFLOAT, hw::Fmt32_32_32_32Float, NumFormat::Norm, false, false, xyzw, 16, false},
   {VK_FORMAT_R32G32B32A32_UINT, hw::Fmt32_32_32_32, NumFormat::Int, false, false, xyzw, 16, false},
   {VK_FORMAT_R32G32B32A32_SINT, hw::Fmt32_32_32_32, NumFormat::Int, true, false, xyzw, 16, false},
   /* Depth: attachments, copies and sampled images (the texture unit reads the DB's surface
    * as it is: terakan_image.cpp, terakan_image_view_words). Z_24 formats keep depth in the
    * low 24 bits of a dword (FMT_8_24 reads it as x); the formats with stencil have their 8-bit
    * stencil in a plane of its own after the depth (terakan_image.cpp), so `bytes` is the
    * depth plane's, and their stencil aspect is sampled as FMT_8 integers. Linear filtering as
    * for the colour formats of the same layout: unorm depth yes, 32-bit float not.
    * S8_UINT alone is not offered: r600g has no stencil-only DB format (r600_translate_dbformat
    * knows Z16, Z24 and Z32F depth only), so a DB with DB_Z_INFO.FORMAT invalid and a valid
    * stencil is a path no known driver drives. */
   {VK_FORMAT_D16_UNORM, hw::Fmt16, NumFormat::Norm, false, false, x001, 2, true, true},
   {VK_FORMAT_D32_SFLOAT, hw::Fmt32Float, NumFormat::Norm, false, false, x001, 4, false, true},
   {VK_FORMAT_X8_D24_UNORM_PACK32, hw::Fmt8_24, NumFormat::Norm, false, false, x001, 4, true, true},
   {VK_FORMAT_D24_UNORM_S8_UINT, hw::Fmt8_24, NumFormat::Norm, false, false, x001, 4, true, true, true},
   {VK_FORMAT_D32_SFLOAT_S8_UINT, hw::Fmt32Float, NumFormat::Norm, false, false, x001, 4, false, true, true},
   /* Block-compressed: the texture unit decodes 4x4 blocks of 8 (BC1, BC4) or 16 bytes; images
    * are laid out, copied and addressed in blocks. BC1 without alpha reads alpha as one. */
   {VK_FORMAT_BC1_RGB_UNORM_BLOCK, hw::FmtBC1, NumFormat::Norm, false, false, xyz1, 8, true, false, false, 4},
   {VK_FORMAT_BC1_RGB_SRGB_BLOCK, hw::FmtBC1, NumFormat::Norm, false, true, xyz1, 8, true, false, false, 4},
   {VK_FORMAT_BC1_RGBA_UNORM_BLOCK, hw::FmtBC1, NumFormat::Norm, false, false, xyzw, 8, true, false, false, 4},
   {VK_FORMAT_BC1_RGBA_SRGB_BLOCK, hw::FmtBC1, NumFormat::Norm, false, true, xyzw, 8, true, false, false, 4},
   {VK_FORMAT_BC2_UNORM_BLOCK, hw::FmtBC2, NumFormat::Norm, false, false, xyzw, 16, true, false, false, 4},
   {VK_FORMAT_BC2_SRGB_BLOCK, hw::FmtBC2, NumFormat::Norm, false, true, xyzw, 16, true, false, false, 4},
   {VK_FORMAT_BC3_UNORM_BLOCK, hw::FmtBC3, NumFormat::Norm, false, false, xyzw, 16, true, false, false, 4},
   {VK_FORMAT_BC3_SRGB_BLOCK, hw::FmtBC3, NumFormat::Norm, false, true, xyzw, 16, true, false, false, 4},
   {VK_FORMAT_BC4_UNORM_BLOCK, hw::FmtBC4, NumFormat::Norm, false, false, x001, 8, true, false, false, 4},
   {VK_FORMAT_BC4_SNORM_BLOCK, hw::FmtBC4, NumFormat::Norm, true, false, x001, 8, true, false, false, 4},
   {VK_FORMAT_BC5_UNORM_BLOCK, hw::FmtBC5, NumFormat::Norm, false, false, xy01, 16, true, false, false, 4},
   {VK_FORMAT_BC5_SNORM_BLOCK, hw::FmtBC5, NumFormat::Norm, true, false, xy01, 16, true, false, false, 4},
   {VK_FORMAT_BC6H_UFLOAT_BLOCK, hw::FmtBC6, NumFormat::Norm, false, false, xyz1, 16, true, false, false, 4},
   {VK_FORMAT_BC6H_SFLOAT_BLOCK, hw::FmtBC6, NumFormat::Norm, true, false, xyz1, 16, true, false, false, 4},
   {VK_FORMAT_BC7_UNORM_BLOCK, hw::FmtBC7, NumFormat::Norm, false, false, xyzw, 16, true, false, false, 4},
   {VK_FORMAT_BC7_SRGB_BLOCK, hw::FmtBC7, NumFormat::Norm, false, true, xyzw, 16, true, false, false, 4},
};

const terakan_format *terakan_format_of(VkFormat format)
{
   for (const terakan_format &f : formats)
      if (f.vk == format)
         return &f;
   return nullptr;
}

bool terakan_format_is_texel_buffer(const terakan_format *format)
{
   /* The fetch unit has no sRGB decoding and reads no compressed blocks; every other listed
    * colour format it converts, the packed 10/11-bit ones included (r600g fetches vertices in
    * FMT_2_10_10_10 and FMT_10_11_11_FLOAT). The 16-bit packed and shared-exponent formats
    * are not offered for buffers: Vulkan does not ask for them and no test fetches them. */
   if (!format || format->srgb || format->depth || format->block != 1)
      return false;
   switch (format->hw) {
   case hw::Fmt5_6_5:
   case hw::Fmt1_5_5_5:
   case hw::Fmt4_4_4_4:
   case hw::Fmt5_9_9_9SharedExp:
      return false;
   default:
      return true;
   }
}

static VkFormatFeatureFlags image_features(const terakan_format *format, VkImageTiling tiling);

/* Storage texel buffers: the storage image formats and the A8B8G8R8 ones (R8G8B8A8's bytes;
 * Vulkan requires them for storage texel buffers only, and no SPIR-V image format names them,
 * so they are not offered as storage images). */
bool terakan_format_is_storage_texel_buffer(const terakan_format *format)
{
   if (!format)
      return false;
   switch (format->vk) {
   case VK_FORMAT_A8B8G8R8_UNORM_PACK32:
   case VK_FORMAT_A8B8G8R8_SNORM_PACK32:
   case VK_FORMAT_A8B8G8R8_UINT_PACK32:
   case VK_FORMAT_A8B8G8R8_SINT_PACK32:
      return true;
   default:
      return terakan_format_is_storage(format);
   }
}

/* Depth blits (terakan_meta_blit.cpp) sample the depth and export it from the pixel shader:
 * exact for 16-bit unorm and 32-bit float depth. Not for 24-bit depth (x / (2^24 - 1) does not
 * always come back to x through a 32-bit float) nor for formats with stencil (no stencil
 * export is built). */
bool terakan_format_blits_depth(const terakan_format *format)
{
   return format && (format->vk == VK_FORMAT_D16_UNORM || format->vk == VK_FORMAT_D32_SFLOAT);
}

/* Storage images and storage texel buffers (terakan_storage_images.cpp): stores are typed RAT
 * writes through the CB's conversion of the format, loads read the texture (or texel-buffer
 * fetch) resource. Offered for the formats Vulkan requires for storage images that the table,
 * the CB and the tests (api-storage-images-*) cover. */
bool terakan_format_is_storage(const terakan_format *format)
{
   if (!format)
      return false;
   terakan_colour_target target; /* the CB converts the stored data */
   if (!terakan_colour_target_format(format->vk, target))
      return false;
   switch (format->vk) {
   case VK_FORMAT_R8G8B8A8_UNORM:
   case VK_FORMAT_R8G8B8A8_SNORM:
   case VK_FORMAT_R8G8B8A8_UINT:
   case VK_FORMAT_R8G8B8A8_SINT:
   case VK_FORMAT_R16G16B16A16_UINT:
   case VK_FORMAT_R16G16B16A16_SINT:
   case VK_FORMAT_R16G16B16A16_SFLOAT:
   case VK_FORMAT_R32_SFLOAT:
   case VK_FORMAT_R32_UINT:
   case VK_FORMAT_R32_SINT:
   case VK_FORMAT_R32G32_SFLOAT:
   case VK_FORMAT_R32G32_UINT:
   case VK_FORMAT_R32G32_SINT:
   case VK_FORMAT_R32G32B32A32_SFLOAT:
   case VK_FORMAT_R32G32B32A32_UINT:
   case VK_FORMAT_R32G32B32A32_SINT:
   /* Vulkan's shaderStorageImageExtendedFormats (8- and 16-bit integer, normalized and float
    * formats of one and two channels, RGBA16 UNORM/SNORM and the 10/11-bit packed ones):
    * colour-buffer formats, which r600g binds as typed RATs as it binds any colour format
    * (evergreen_set_shader_images takes the CB format, number type and swap of the image's
    * format); stores convert as a colour export does, loads read the fetch or texture
    * resource (api-storage-formats). */
   case VK_FORMAT_R8_UNORM:
   case VK_FORMAT_R8_SNORM:
   case VK_FORMAT_R8G8_UNORM:
   case VK_FORMAT_R8G8_SNORM:
   case VK_FORMAT_R16_UNORM:
   case VK_FORMAT_R16_SNORM:
   case VK_FORMAT_R16G16_UNORM:
   case VK_FORMAT_R16G16_SNORM:
   case VK_FORMAT_R16G16B16A16_UNORM:
   case VK_FORMAT_R16G16B16A16_SNORM:
   case VK_FORMAT_A2B10G10R10_UNORM_PACK32:
   case VK_FORMAT_A2B10G10R10_UINT_PACK32:
   case VK_FORMAT_B10G11R11_UFLOAT_PACK32:
   case VK_FORMAT_R16_UINT:
   case VK_FORMAT_R16_SINT:
   case VK_FORMAT_R16_SFLOAT:
   case VK_FORMAT_R16G16_UINT:
   case VK_FORMAT_R16G16_SINT:
   case VK_FORMAT_R16G16_SFLOAT:
   case VK_FORMAT_R8_UINT:
   case VK_FORMAT_R8_SINT:
   case VK_FORMAT_R8G8_UINT:
   case VK_FORMAT_R8G8_SINT:
      return true;
   default:
      return false;
   }
}

/* The usages an image of `format` and `tiling` may have: what its features allow. */
VkImageUsageFlags terakan_supported_image_usage(const terakan_format *format, VkImageTiling tiling)
{
   const VkFormatFeatureFlags features = image_features(format, tiling);
   VkImageUsageFlags usage = 0;
   if (features & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT)
      usage |= VK_IMAGE_USAGE_SAMPLED_BIT;
   if (features & VK_FORMAT_FEATURE_TRANSFER_SRC_BIT)
      usage |= VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
   if (features & VK_FORMAT_FEATURE_TRANSFER_DST_BIT)
      usage |= VK_IMAGE_USAGE_TRANSFER_DST_BIT;
   if (features & VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT)
      usage |= VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
   /* Input attachments are attachments read by texelFetch (LD of the view's resource, the
    * depth aspect's for depth formats, as sampled depth is read). */
   if ((features & (VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT | VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT)) &&
       (features & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT))
      usage |= VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT;
   if (features & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT)
      usage |= VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT;
   if (features & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT)
      usage |= VK_IMAGE_USAGE_STORAGE_BIT;
   /* Transient attachments are ordinary memory here (no lazily allocated memory type): the
    * usage is only a hint, allowed wherever an attachment usage is. */
   if (usage & (VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT))
      usage |= VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT;
   return usage;
}

static VkFormatFeatureFlags image_features(const terakan_format *format, VkImageTiling tiling)
{
   if (!format)
      return 0;
   if (format->depth) { /* depth buffers are 1D tiled: optimal images only */
      if (tiling != VK_IMAGE_TILING_OPTIMAL)
         return 0;
      VkFormatFeatureFlags features = VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT |
                                      VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT |
                                      VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT;
      if (terakan_format_blits_depth(format))
         features |= VK_FORMAT_FEATURE_BLIT_SRC_BIT | VK_FORMAT_FEATURE_BLIT_DST_BIT;
      if (format->filterable)
         features |= VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
      return features;
   }
   /* Blits are draws sampling the source (terakan_meta_blit.cpp): every sampled colour format
    * is a blit source, every colour attachment format a blit destination. */
   VkFormatFeatureFlags features = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_BLIT_SRC_BIT |
                                   VK_FORMAT_FEATURE_TRANSFER_SRC_BIT |
                                   VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
   if (format->filterable)
      features |= VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
   terakan_colour_target target;
   if (terakan_colour_target_format(format->vk, target)) {
      features |= VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT | VK_FORMAT_FEATURE_BLIT_DST_BIT;
      if (target.blendable)
         features |= VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT;
   }
   if (terakan_format_is_storage(format))
      features |= VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT;
   /* RAT atomics work on 32-bit integers (COLOR_32). */
   if (terakan_format_is_storage(format) && format->hw == hw::Fmt32 && format->num_format == NumFormat::Int)
      features |= VK_FORMAT_FEATURE_STORAGE_IMAGE_ATOMIC_BIT;
   return features;
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_GetPhysicalDeviceFormatProperties2(VkPhysicalDevice, VkFormat format,
                                           VkFormatProperties2 *pFormatProperties)
{
   /* Linear and optimal images share one layout, so they can do the same things. Buffers:
    * uniform texel buffers, and storage texel buffers for the storage formats. */
   const terakan_format *f = terakan_format_of(format);
   const VkFormatFeatureFlags linear = image_features(f, VK_IMAGE_TILING_LINEAR);
   const VkFormatFeatureFlags features = image_features(f, VK_IMAGE_TILING_OPTIMAL);
   VkFormatFeatureFlags buffer = terakan_format_is_texel_buffer(f) ? VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT : 0;
   if ((buffer & VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT) && terakan_format_is_storage_texel_buffer(f))
      buffer |= VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT;
   if ((buffer & VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT) && f->hw == hw::Fmt32 && f->num_format == NumFormat::Int)
      buffer |= VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_ATOMIC_BIT;
   terakan_vertex_fetch_format vertex;
   if (terakan_vertex_format(format, vertex))
      buffer |= VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT;
   pFormatProperties->formatProperties = {linear, features, buffer};
   /* VK_KHR_format_feature_flags2: the same features, and storage access without a format
    * wherever storage is offered (the descriptor's format is the one used: image_lowering.h);
    * depth comparison (the SAMPLE_C forms) on every sampled depth format. */
   const VkFormatFeatureFlags2 without_format =
      VK_FORMAT_FEATURE_2_STORAGE_READ_WITHOUT_FORMAT_BIT | VK_FORMAT_FEATURE_2_STORAGE_WRITE_WITHOUT_FORMAT_BIT;
   auto with_formatless = [&](VkFormatFeatureFlags flags) {
      const bool storage = flags & (VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT | VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT);
      return VkFormatFeatureFlags2(flags) | (storage ? without_format : 0);
   };
   vk_foreach_struct(ext, pFormatProperties->pNext) {
      if (ext->sType == VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3) {
         auto *properties = reinterpret_cast<VkFormatProperties3 *>(ext);
         properties->linearTilingFeatures = with_formatless(linear);
         properties->optimalTilingFeatures = with_formatless(features);
         if (f && f->depth && (features & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT))
            properties->optimalTilingFeatures |= VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_DEPTH_COMPARISON_BIT;
         properties->bufferFeatures = with_formatless(buffer);
      }
   }
}

VkImageUsageFlags terakan_multisampled_usage(const terakan_format *format)
{
   const VkImageUsageFlags single = terakan_supported_image_usage(format, VK_IMAGE_TILING_OPTIMAL);
   VkImageUsageFlags usage = terakan_multisampled_image_usage;
   if (format && !format->depth && (single & VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT))
      usage |= single & (VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT);
   if (format && format->depth)
      usage |= single & VK_IMAGE_USAGE_SAMPLED_BIT; /* read in place, in the DB's sample order */
   return usage;
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL
terakan_GetPhysicalDeviceImageFormatProperties2(
   VkPhysicalDevice, const VkPhysicalDeviceImageFormatInfo2 *info,
   VkImageFormatProperties2 *pImageFormatProperties)
{
   VkImageFormatProperties &out = pImageFormatProperties->imageFormatProperties;
   out = {};
   const terakan_format *format = terakan_format_of(info->format);
   const VkImageUsageFlags supported_usage = terakan_supported_image_usage(format, info->tiling);
   const VkImageCreateFlags supported_flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT |
                                              VK_IMAGE_CREATE_ALIAS_BIT |
                                              VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT |
                                              VK_IMAGE_CREATE_SAMPLE_LOCATIONS_COMPATIBLE_DEPTH_BIT_EXT;
   /* Vulkan 1.2 (separate stencil usage): a stencil aspect's own usage must be supported as
    * well; one surface serves both aspects, so the union is what the image must allow. */
   VkImageUsageFlags usage = info->usage;
   for (const VkBaseInStructure *next = static_cast<const VkBaseInStructure *>(info->pNext); next;
        next = next->pNext) {
      if (next->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_IMAGE_FORMAT_INFO)
         return VK_ERROR_FORMAT_NOT_SUPPORTED;
      if (next->sType == VK_STRUCTURE_TYPE_IMAGE_STENCIL_USAGE_CREATE_INFO)
         usage |= reinterpret_cast<const VkImageStencilUsageCreateInfo *>(next)->stencilUsage;
   }
   if (!format || !supported_usage || (usage & ~supported_usage) || (info->flags & ~supported_flags) ||
       (info->tiling != VK_IMAGE_TILING_LINEAR && info->tiling != VK_IMAGE_TILING_OPTIMAL))
      return VK_ERROR_FORMAT_NOT_SUPPORTED;
   switch (info->type) {
   case VK_IMAGE_TYPE_1D:
      out.maxExtent = {4096, 1, 1};
      out.maxArrayLayers = 256;
      break;
   case VK_IMAGE_TYPE_2D:
      out.maxExtent = {4096, 4096, 1};
      out.maxArrayLayers = 256;
      break;
   case VK_IMAGE_TYPE_3D:
      out.maxExtent = {256, 256, 256};
      out.maxArrayLayers = 1;
      break;
   default:
      return VK_ERROR_FORMAT_NOT_SUPPORTED;
   }
   /* The complete chain for the largest extent, as Vulkan requires (13 for 4096, 9 for 3D's
    * 256). */
   out.maxMipLevels =
      1 + unsigned(util_logbase2(std::max({out.maxExtent.width, out.maxExtent.height, out.maxExtent.depth})));
   /* Sampled depth formats with stencil too: their levels 1.. are sampled from a copy
    * (terakan_depth_sampling_copy.cpp). */
   out.sampleCounts = VK_SAMPLE_COUNT_1_BIT;
   /* 2, 4 and 8 samples for 2D images of formats that are attachments (terakan_image.cpp:
    * terakan_supported_sample_counts); they may also be sampled (and colour ones read as input
    * attachments), none stored to. Vulkan asks for the limits'
    * counts whatever the usage once the format is an attachment format ("sampleCounts"). */
   if (info->type == VK_IMAGE_TYPE_2D && info->tiling == VK_IMAGE_TILING_OPTIMAL &&
       !(info->flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT) &&
       (supported_usage & (VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT)) &&
       !(usage & ~terakan_multisampled_usage(format)))
      out.sampleCounts = terakan_supported_sample_counts;
   out.maxResourceSize = 1ull << 31;
   return VK_SUCCESS;
}
