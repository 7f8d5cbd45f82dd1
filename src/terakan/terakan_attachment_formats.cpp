/* What the colour and depth blocks need to know about a Vulkan format, and the vertex fetch
 * format of each vertex attribute format.
 *
 * Colour targets: the CB's FORMAT field uses the texture unit's FMT_* numbers (Mesa's
 * evergreend.h V_028C70_COLOR_* and the kernel's one format table agree), NUMBER_TYPE and
 * COMP_SWAP (components in memory order: STD keeps R first, ALT puts B first for BGRA) come
 * from Mesa's evergreend.h. Pixel shaders export four 32-bit values per target
 * (SOURCE_FORMAT EXPORT_4C_32BPC), which the CB converts; integer targets bypass blending and
 * normalized ones clamp before it (BLEND_BYPASS, BLEND_CLAMP).
 *
 * Depth: DB_Z_INFO.FORMAT Z_16 (1), Z_24 (2) and Z_32_FLOAT (3) (Mesa evergreend.h
 * V_028040_*); the stencil of D24_UNORM_S8_UINT and D32_SFLOAT_S8_UINT is DB_STENCIL_INFO's
 * STENCIL_8 over a plane of its own (terakan_image.cpp). */
#include "terakan_private.h"

#include <utility>

#include "hw/graphics_registers.h"

namespace hw = terakan::hw;
using hw::gfx::NumberType;

namespace {

struct ColourRow {
   VkFormat vk;
   hw::TextureFormat format;
   NumberType number_type;
   uint32_t comp_swap; /* 0 STD, 1 ALT, 2 STD_REV, 3 ALT_REV */
   bool blendable;
};

/* Blending is offered where the simulated CB's blender is known to match Vulkan's
 * arithmetic through r600g's scenes and the API tests: unsigned normalized (sRGB too) and
 * 16-bit float targets, and the 8-bit SNORM ones (r600g offers every non-integer colour format
 * as blendable and sets BLEND_CLAMP for SNORM: its `format_snorm` GL scene blends R8, RG8 and
 * RGBA8 SNORM on the simulated CB as llvmpipe does; api-draws blends them against lavapipe,
 * which blends SNORM though it does not offer the feature). 16-bit SNORM targets are written,
 * not blended: no scene checks their blends. */
constexpr ColourRow colour_rows[] = {
   {VK_FORMAT_R8_UNORM, hw::Fmt8, NumberType::Unorm, 0, true},
   {VK_FORMAT_R8_SNORM, hw::Fmt8, NumberType::Snorm, 0, true},
   {VK_FORMAT_R8_UINT, hw::Fmt8, NumberType::Uint, 0, false},
   {VK_FORMAT_R8_SINT, hw::Fmt8, NumberType::Sint, 0, false},
   {VK_FORMAT_R8G8_UNORM, hw::Fmt8_8, NumberType::Unorm, 0, true},
   {VK_FORMAT_R8G8_SNORM, hw::Fmt8_8, NumberType::Snorm, 0, true},
   {VK_FORMAT_R8G8_UINT, hw::Fmt8_8, NumberType::Uint, 0, false},
   {VK_FORMAT_R8G8_SINT, hw::Fmt8_8, NumberType::Sint, 0, false},
   {VK_FORMAT_R8G8B8A8_UNORM, hw::Fmt8_8_8_8, NumberType::Unorm, 0, true},
   {VK_FORMAT_R8G8B8A8_SNORM, hw::Fmt8_8_8_8, NumberType::Snorm, 0, true},
   {VK_FORMAT_R8G8B8A8_UINT, hw::Fmt8_8_8_8, NumberType::Uint, 0, false},
   {VK_FORMAT_R8G8B8A8_SINT, hw::Fmt8_8_8_8, NumberType::Sint, 0, false},
   {VK_FORMAT_B8G8R8A8_UNORM, hw::Fmt8_8_8_8, NumberType::Unorm, 1, true},
   /* NUMBER_SRGB: the CB encodes the colour channels on write (alpha stays linear) and blends
    * in linear space; BLEND_CLAMP is set for it as r600g does (evergreen_init_color_surface
    * sets it for UNORM, SNORM and SRGB). */
   {VK_FORMAT_R8G8B8A8_SRGB, hw::Fmt8_8_8_8, NumberType::Srgb, 0, true},
   {VK_FORMAT_B8G8R8A8_SRGB, hw::Fmt8_8_8_8, NumberType::Srgb, 1, true},
   /* The A8B8G8R8 packed formats are R8G8B8A8's bytes. */
   {VK_FORMAT_A8B8G8R8_UNORM_PACK32, hw::Fmt8_8_8_8, NumberType::Unorm, 0, true},
   {VK_FORMAT_A8B8G8R8_SNORM_PACK32, hw::Fmt8_8_8_8, NumberType::Snorm, 0, true},
   {VK_FORMAT_A8B8G8R8_SRGB_PACK32, hw::Fmt8_8_8_8, NumberType::Srgb, 0, true},
   {VK_FORMAT_A8B8G8R8_UINT_PACK32, hw::Fmt8_8_8_8, NumberType::Uint, 0, false},
   {VK_FORMAT_A8B8G8R8_SINT_PACK32, hw::Fmt8_8_8_8, NumberType::Sint, 0, false},
   /* 16-bit packed: r600g's swaps for the same memory layouts (r600_translate_colorswap:
    * B5G6R5, blue lowest, STD_REV; B5G5R5A1 ALT). */
   {VK_FORMAT_R5G6B5_UNORM_PACK16, hw::Fmt5_6_5, NumberType::Unorm, 2, true},
   {VK_FORMAT_A1R5G5B5_UNORM_PACK16, hw::Fmt1_5_5_5, NumberType::Unorm, 1, true},
   /* Packed 10/11-bit targets (r600g's GL scenes format_rgb10_a2 and format_r11g11b10f draw
    * and blend them on the simulated CB). */
   {VK_FORMAT_A2B10G10R10_UNORM_PACK32, hw::Fmt2_10_10_10, NumberType::Unorm, 0, true},
   {VK_FORMAT_A2R10G10B10_UNORM_PACK32, hw::Fmt2_10_10_10, NumberType::Unorm, 1, true},
   {VK_FORMAT_A2B10G10R10_UINT_PACK32, hw::Fmt2_10_10_10, NumberType::Uint, 0, false},
   {VK_FORMAT_B10G11R11_UFLOAT_PACK32, hw::Fmt10_11_11Float, NumberType::Float, 0, true},
   {VK_FORMAT_R16_UNORM, hw::Fmt16, NumberType::Unorm, 0, true},
   {VK_FORMAT_R16_SNORM, hw::Fmt16, NumberType::Snorm, 0, false},
   {VK_FORMAT_R16_UINT, hw::Fmt16, NumberType::Uint, 0, false},
   {VK_FORMAT_R16_SINT, hw::Fmt16, NumberType::Sint, 0, false},
   {VK_FORMAT_R16_SFLOAT, hw::Fmt16Float, NumberType::Float, 0, true},
   {VK_FORMAT_R16G16_UINT, hw::Fmt16_16, NumberType::Uint, 0, false},
   {VK_FORMAT_R16G16_SINT, hw::Fmt16_16, NumberType::Sint, 0, false},
   {VK_FORMAT_R16G16_SFLOAT, hw::Fmt16_16Float, NumberType::Float, 0, true},
   {VK_FORMAT_R16G16_UNORM, hw::Fmt16_16, NumberType::Unorm, 0, true},
   {VK_FORMAT_R16G16_SNORM, hw::Fmt16_16, NumberType::Snorm, 0, false},
   {VK_FORMAT_R16G16B16A16_UNORM, hw::Fmt16_16_16_16, NumberType::Unorm, 0, true},
   {VK_FORMAT_R16G16B16A16_SNORM, hw::Fmt16_16_16_16, NumberType::Snorm, 0, false},
   {VK_FORMAT_R16G16B16A16_UINT, hw::Fmt16_16_16_16, NumberType::Uint, 0, false},
   {VK_FORMAT_R16G16B16A16_SINT, hw::Fmt16_16_16_16, NumberType::Sint, 0, false},
   {VK_FORMAT_R16G16B16A16_SFLOAT, hw::Fmt16_16_16_16Float, NumberType::Float, 0, true},
   {VK_FORMAT_R32_SFLOAT, hw::Fmt32Float, NumberType::Float, 0, false},
   {VK_FORMAT_R32_UINT, hw::Fmt32, NumberType::Uint, 0, false},
   {VK_FORMAT_R32_SINT, hw::Fmt32, NumberType::Sint, 0, false},
   {VK_FORMAT_R32G32_SFLOAT, hw::Fmt32_32Float, NumberType::Float, 0, false},
   {VK_FORMAT_R32G32_UINT, hw::Fmt32_32, NumberType::Uint, 0, false},
   {VK_FORMAT_R32G32_SINT, hw::Fmt32_32, NumberType::Sint, 0, false},
   {VK_FORMAT_R32G32B32A32_SFLOAT, hw::Fmt32_32_32_32Float, NumberType::Float, 0, false},
   {VK_FORMAT_R32G32B32A32_UINT, hw::Fmt32_32_32_32, NumberType::Uint, 0, false},
   {VK_FORMAT_R32G32B32A32_SINT, hw::Fmt32_32_32_32, NumberType::Sint, 0, false},
};

struct VertexRow {
   VkFormat vk;
   hw::TextureFormat format;
   hw::NumFormat num_format;
   bool is_signed;
   unsigned components;
   bool integer; /* read by the shader as integers (Vulkan: missing alpha is 1, not 1.0) */
   bool bgra = false; /* blue in the first byte: the fetch's DST_SEL swaps x and z */
};

/* The fetch unit's data formats for vertex attributes (the same FMT_* list; three-component
 * 32-bit formats exist for vertices). NumFormat Norm turns UNORM/SNORM data into [0, 1] and
 * [-1, 1], Int keeps the integers, Scaled converts them to floats. */
constexpr VertexRow vertex_rows[] = {
   {VK_FORMAT_R8_UNORM, hw::Fmt8, hw::NumFormat::Norm, false, 1, false},
   {VK_FORMAT_R8_SNORM, hw::Fmt8, hw::NumFormat::Norm, true, 1, false},
   {VK_FORMAT_R8_UINT, hw::Fmt8, hw::NumFormat::Int, false, 1, true},
   {VK_FORMAT_R8_SINT, hw::Fmt8, hw::NumFormat::Int, true, 1, true},
   {VK_FORMAT_R8G8_UNORM, hw::Fmt8_8, hw::NumFormat::Norm, false, 2, false},
   {VK_FORMAT_R8G8_SNORM, hw::Fmt8_8, hw::NumFormat::Norm, true, 2, false},
   {VK_FORMAT_R8G8_UINT, hw::Fmt8_8, hw::NumFormat::Int, false, 2, true},
   {VK_FORMAT_R8G8_SINT, hw::Fmt8_8, hw::NumFormat::Int, true, 2, true},
   {VK_FORMAT_R8G8B8A8_UNORM, hw::Fmt8_8_8_8, hw::NumFormat::Norm, false, 4, false},
   {VK_FORMAT_R8G8B8A8_SNORM, hw::Fmt8_8_8_8, hw::NumFormat::Norm, true, 4, false},
   {VK_FORMAT_B8G8R8A8_UNORM, hw::Fmt8_8_8_8, hw::NumFormat::Norm, false, 4, false, true},
   {VK_FORMAT_A8B8G8R8_UNORM_PACK32, hw::Fmt8_8_8_8, hw::NumFormat::Norm, false, 4, false},
   {VK_FORMAT_A8B8G8R8_SNORM_PACK32, hw::Fmt8_8_8_8, hw::NumFormat::Norm, true, 4, false},
   {VK_FORMAT_A8B8G8R8_UINT_PACK32, hw::Fmt8_8_8_8, hw::NumFormat::Int, false, 4, true},
   {VK_FORMAT_A8B8G8R8_SINT_PACK32, hw::Fmt8_8_8_8, hw::NumFormat::Int, true, 4, true},
   /* FMT_2_10_10_10: x in bits 0-9, as A2B10G10R10 keeps red. */
   {VK_FORMAT_A2B10G10R10_UNORM_PACK32, hw::Fmt2_10_10_10, hw::NumFormat::Norm, false, 4, false},
   /* 16-bit normalized and integer. */
   {VK_FORMAT_R16_UNORM, hw::Fmt16, hw::NumFormat::Norm, false, 1, false},
   {VK_FORMAT_R16_SNORM, hw::Fmt16, hw::NumFormat::Norm, true, 1, false},
   {VK_FORMAT_R16G16_UNORM, hw::Fmt16_16, hw::NumFormat::Norm, false, 2, false},
   {VK_FORMAT_R16G16_SNORM, hw::Fmt16_16, hw::NumFormat::Norm, true, 2, false},
   {VK_FORMAT_R16G16B16A16_UNORM, hw::Fmt16_16_16_16, hw::NumFormat::Norm, false, 4, false},
   {VK_FORMAT_R16G16B16A16_SNORM, hw::Fmt16_16_16_16, hw::NumFormat::Norm, true, 4, false},
   {VK_FORMAT_R16_UINT, hw::Fmt16, hw::NumFormat::Int, false, 1, true},
   {VK_FORMAT_R16_SINT, hw::Fmt16, hw::NumFormat::Int, true, 1, true},
   {VK_FORMAT_R16G16_UINT, hw::Fmt16_16, hw::NumFormat::Int, false, 2, true},
   {VK_FORMAT_R16G16_SINT, hw::Fmt16_16, hw::NumFormat::Int, true, 2, true},
   {VK_FORMAT_R16G16B16A16_UINT, hw::Fmt16_16_16_16, hw::NumFormat::Int, false, 4, true},
   {VK_FORMAT_R16G16B16A16_SINT, hw::Fmt16_16_16_16, hw::NumFormat::Int, true, 4, true},
   {VK_FORMAT_R8G8B8A8_UINT, hw::Fmt8_8_8_8, hw::NumFormat::Int, false, 4, true},
   {VK_FORMAT_R8G8B8A8_SINT, hw::Fmt8_8_8_8, hw::NumFormat::Int, true, 4, true},
   {VK_FORMAT_R16_SFLOAT, hw::Fmt16Float, hw::NumFormat::Scaled, false, 1, false},
   {VK_FORMAT_R16G16_SFLOAT, hw::Fmt16_16Float, hw::NumFormat::Scaled, false, 2, false},
   {VK_FORMAT_R16G16B16A16_SFLOAT, hw::Fmt16_16_16_16Float, hw::NumFormat::Scaled, false, 4, false},
   {VK_FORMAT_R32_SFLOAT, hw::Fmt32Float, hw::NumFormat::Scaled, false, 1, false},
   {VK_FORMAT_R32G32_SFLOAT, hw::Fmt32_32Float, hw::NumFormat::Scaled, false, 2, false},
   {VK_FORMAT_R32G32B32_SFLOAT, hw::Fmt32_32_32Float, hw::NumFormat::Scaled, false, 3, false},
   {VK_FORMAT_R32G32B32A32_SFLOAT, hw::Fmt32_32_32_32Float, hw::NumFormat::Scaled, false, 4, false},
   {VK_FORMAT_R32_UINT, hw::Fmt32, hw::NumFormat::Int, false, 1, true},
   {VK_FORMAT_R32_SINT, hw::Fmt32, hw::NumFormat::Int, true, 1, true},
   {VK_FORMAT_R32G32_UINT, hw::Fmt32_32, hw::NumFormat::Int, false, 2, true},
   {VK_FORMAT_R32G32_SINT, hw::Fmt32_32, hw::NumFormat::Int, true, 2, true},
   {VK_FORMAT_R32G32B32_UINT, hw::Fmt32_32_32, hw::NumFormat::Int, false, 3, true},
   {VK_FORMAT_R32G32B32_SINT, hw::Fmt32_32_32, hw::NumFormat::Int, true, 3, true},
   {VK_FORMAT_R32G32B32A32_UINT, hw::Fmt32_32_32_32, hw::NumFormat::Int, false, 4, true},
   {VK_FORMAT_R32G32B32A32_SINT, hw::Fmt32_32_32_32, hw::NumFormat::Int, true, 4, true},
};

} // namespace

bool terakan_colour_target_format(VkFormat format, terakan_colour_target &out)
{
   for (const ColourRow &row : colour_rows) {
      if (row.vk != format)
         continue;
      out.format = row.format;
      out.number_type = uint32_t(row.number_type);
      out.comp_swap = row.comp_swap;
      out.blendable = row.blendable;
      out.integer = row.number_type == NumberType::Uint || row.number_type == NumberType::Sint;
      /* Fixed point: sources clamped before blending (BLEND_CLAMP), sRGB included as r600g sets it. */
      out.normalized = row.number_type == NumberType::Unorm || row.number_type == NumberType::Snorm ||
                       row.number_type == NumberType::Srgb;
      return true;
   }
   return false;
}

uint32_t terakan_depth_z_format(VkFormat format)
{
   switch (format) {
   case VK_FORMAT_D16_UNORM: return hw::gfx::Depth16;
   case VK_FORMAT_X8_D24_UNORM_PACK32:
   case VK_FORMAT_D24_UNORM_S8_UINT: return hw::gfx::Depth24;
   case VK_FORMAT_D32_SFLOAT:
   case VK_FORMAT_D32_SFLOAT_S8_UINT: return hw::gfx::Depth32Float;
   default: return hw::gfx::DepthInvalid;
   }
}

bool terakan_vertex_format(VkFormat format, terakan_vertex_fetch_format &out)
{
   for (const VertexRow &row : vertex_rows) {
      if (row.vk != format)
         continue;
      out.data_format = row.format;
      out.num_format = uint32_t(row.num_format);
      out.is_signed = row.is_signed;
      /* SQ_SEL X, Y, Z, W, then 4 (0) for missing components and 5 (1) for a missing
       * alpha: Vulkan's (0, 0, 1) rule. The fetch unit's 1 is an integer 1 under NUM_FORMAT
       * Int and 1.0 otherwise, which is what integer and float attributes need. */
      for (unsigned c = 0; c < 4; c++)
         out.dst_sel[c] = uint32_t(c < row.components ? hw::Select(c) : c == 3 ? hw::Select::One : hw::Select::Zero);
      if (row.bgra)
         std::swap(out.dst_sel[0], out.dst_sel[2]);
      return true;
   }
   return false;
}
