/* Texture resources and samplers of Evergreen and Cayman: the SQ_TEX_RESOURCE_WORD0-7 and
 * SQ_TEX_SAMPLER_WORD0-2 layouts, encoded by the driver and decoded by the simulator from the
 * same table, so the two cannot drift apart.
 *
 * Field positions: Mesa 22.3.6 src/gallium/drivers/r600/evergreend.h (R_030000..R_03001C for the
 * resource words, R_03C000..R_03C008 for the sampler words) and, for the data format numbers,
 * r600_formats.h (the R700 ISA format list, shared by Evergreen and Cayman). FORCE_UNNORMALIZED
 * (sampler WORD0 bit 25, Cayman/Aruba) is known only from the Terakan fork's evergreend.h:
 * see docs/hardware-notes.md.
 */
#pragma once

#include <array>
#include <cstdint>

#include "chips.h"

namespace terakan::hw {

/* SQ_TEX_RESOURCE_WORD0.DIM (SQ_TEX_DIM_*). */
enum class TextureDim : uint8_t {
   Dim1D = 0,
   Dim2D = 1,
   Dim3D = 2,
   Cube = 3,
   Dim1DArray = 4,
   Dim2DArray = 5,
   Dim2DMsaa = 6,
   Dim2DArrayMsaa = 7,
};

/* SQ_TEX_RESOURCE_WORD1.ARRAY_MODE (the ARRAY_* values shared with CB_COLORn_INFO). Only these
 * four are accepted by the kernel's texture checker (evergreen_surface_check). */
enum class ArrayMode : uint8_t {
   LinearGeneral = 0,
   LinearAligned = 1,
   Tiled1DThin1 = 2,
   Tiled2DThin1 = 4,
};

/* SQ_TEX_RESOURCE_WORD7.DATA_FORMAT (FMT_* in Mesa's r600_formats.h). Component x is always in
 * the lowest bits; the name of a packed format lists the widths from the most significant bits
 * down (Mesa maps R10G10B10A2, whose x is bits 0-9, to FMT_2_10_10_10, and R11G11B10_FLOAT to
 * FMT_10_11_11_FLOAT: r600_state_common.c r600_translate_texformat). */
enum TextureFormat : uint8_t {
   FmtInvalid = 0x00,
   Fmt8 = 0x01,
   Fmt4_4 = 0x02,
   Fmt3_3_2 = 0x03,
   Fmt16 = 0x05,
   Fmt16Float = 0x06,
   Fmt8_8 = 0x07,
   Fmt5_6_5 = 0x08,
   Fmt6_5_5 = 0x09,
   Fmt1_5_5_5 = 0x0A,
   Fmt4_4_4_4 = 0x0B,
   Fmt5_5_5_1 = 0x0C,
   Fmt32 = 0x0D,
   Fmt32Float = 0x0E,
   Fmt16_16 = 0x0F,
   Fmt16_16Float = 0x10,
   Fmt8_24 = 0x11,
   Fmt8_24Float = 0x12,
   Fmt24_8 = 0x13,
   Fmt24_8Float = 0x14,
   Fmt10_11_11 = 0x15,
   Fmt10_11_11Float = 0x16,
   Fmt11_11_10 = 0x17,
   Fmt11_11_10Float = 0x18,
   Fmt2_10_10_10 = 0x19,
   Fmt8_8_8_8 = 0x1A,
   Fmt10_10_10_2 = 0x1B,
   FmtX24_8_32Float = 0x1C,
   Fmt32_32 = 0x1D,
   Fmt32_32Float = 0x1E,
   Fmt16_16_16_16 = 0x1F,
   Fmt16_16_16_16Float = 0x20,
   Fmt32_32_32_32 = 0x22,
   Fmt32_32_32_32Float = 0x23,
   Fmt1 = 0x25,
   FmtGB_GR = 0x27,
   FmtBG_RG = 0x28,
   Fmt32As8 = 0x29,
   Fmt32As8_8 = 0x2A,
   Fmt5_9_9_9SharedExp = 0x2B,
   Fmt8_8_8 = 0x2C,
   Fmt16_16_16 = 0x2D,
   Fmt16_16_16Float = 0x2E,
   Fmt32_32_32 = 0x2F,
   Fmt32_32_32Float = 0x30,
   FmtBC1 = 0x31,
   FmtBC2 = 0x32,
   FmtBC3 = 0x33,
   FmtBC4 = 0x34,
   FmtBC5 = 0x35,
   FmtBC6 = 0x36,
   FmtBC7 = 0x37,
   Fmt32As32_32_32_32 = 0x38,
};

/* SQ_TEX_RESOURCE_WORD4.NUM_FORMAT_ALL. */
enum class NumFormat : uint8_t { Norm = 0, Int = 1, Scaled = 2 };

/* SQ_TEX_RESOURCE_WORD4.DST_SEL_X..W (SQ_SEL_*). */
enum class Select : uint8_t { X = 0, Y = 1, Z = 2, W = 3, Zero = 4, One = 5 };

/* What SQ_TEX_RESOURCE_WORD0-7 say, decoded. Sizes are the real values (the words hold
 * value - 1); addresses are bytes (the words hold address >> 8, so both must be 256-byte
 * aligned; the kernel then adds the relocated buffer objects' addresses). */
struct TextureResource {
   TextureDim dim = TextureDim::Dim2D;
   ArrayMode array_mode = ArrayMode::LinearAligned;
   unsigned pitch = 8;        /* texels (elements for block formats); a multiple of 8 */
   unsigned width = 1, height = 1;
   unsigned depth = 1;        /* 3D: depth; 1D/2D arrays and cube: the number of layers */
   uint64_t base_address = 0; /* level 0 */
   uint64_t mip_address = 0;  /* level 1 (the kernel's mip relocation) */
   TextureFormat format = Fmt8_8_8_8;
   NumFormat num_format = NumFormat::Norm;
   bool format_signed[4] = {false, false, false, false}; /* FORMAT_COMP_X..W == SIGNED */
   bool srf_mode_no_zero = false; /* SRF_MODE_ALL: 1 = NO_ZERO (OpenGL-style SNORM) */
   bool force_degamma = false;    /* sRGB to linear on x, y, z */
   unsigned endian_swap = 0;
   Select dst_sel[4] = {Select::X, Select::Y, Select::Z, Select::W};
   unsigned base_level = 0, last_level = 0;
   unsigned base_array = 0, last_array = 0;
   /* 2D tiling parameters, as the words hold them (codes, not values). */
   unsigned tile_split = 0, bank_width = 0, bank_height = 0, macro_tile_aspect = 0, num_banks = 0;
   /* Fields kept so that decode(encode(x)) is lossless. WORD6 MAX_ANISO_RATIO (0..4: 1x..16x)
    * limits the sampler's anisotropy (docs/sim-semantics.md "Textures"). */
   bool non_disp_tiling_order = false;
   unsigned max_aniso_ratio = 0, perf_modulation = 0;
   bool interlaced = false;
   /* Multisampled resources (DIM 2D_MSAA, 2D_ARRAY_MSAA; Mesa evergreen_fill_tex_resource_words):
    * LAST_LEVEL holds log2 of the sample count, MIP_ADDRESS the FMASK (0: none) and WORD6's
    * low two bits (MAX_ANISO_RATIO's place) FMASK_BANK_HEIGHT. WORD4 LOG2_NUM_FRAGMENTS [15:14]
    * is Cayman's (evergreend.h "cayman only"); WORD7 DEPTH_SAMPLE_ORDER [15] marks surfaces the
    * DB wrote. */
   unsigned log2_fragments = 0;
   bool depth_sample_order = false;
};

inline bool texture_dim_is_msaa(TextureDim dim)
{
   return dim == TextureDim::Dim2DMsaa || dim == TextureDim::Dim2DArrayMsaa;
}

/* WORD7.TYPE of a texture: SQ_TEX_VTX_VALID_TEXTURE. */
constexpr uint32_t texture_resource_type_valid_texture = 2;

std::array<uint32_t, 8> encode_texture_resource(const TextureResource &);
TextureResource decode_texture_resource(const std::array<uint32_t, 8> &words);
/* The same for a chip class: Cayman's WORD0 has a two-bit field at 5:4 where the Evergreen
 * class has NON_DISP_TILING_ORDER at bit 5 (Mesa evergreend.h CM_S_030000_NON_DISP_TILING_ORDER;
 * r600g's evergreen_fill_tex_resource_words writes 1 there for depth surfaces and 128-bit
 * formats). On Cayman non_disp_tiling_order is that field's value 1; 2 and 3 have no known
 * meaning and decode as false. */
std::array<uint32_t, 8> encode_texture_resource(const TextureResource &, IsaClass);
TextureResource decode_texture_resource(const std::array<uint32_t, 8> &words, IsaClass);

/* SQ_TEX_SAMPLER_WORD0.CLAMP_X/Y/Z (SQ_TEX_*). */
enum class ClampMode : uint8_t {
   Wrap = 0,
   Mirror = 1,
   ClampLastTexel = 2,
   MirrorOnceLastTexel = 3,
   ClampHalfBorder = 4,
   MirrorOnceHalfBorder = 5,
   ClampBorder = 6,
   MirrorOnceBorder = 7,
};

/* SQ_TEX_SAMPLER_WORD0.XY_MAG_FILTER / XY_MIN_FILTER. The aniso values are Evergreen's
 * (r600_pipe_common.h SQ_TEX_XY_FILTER_ANISO_*), not R600's r600d.h ones. */
enum class TexFilter : uint8_t { Point = 0, Bilinear = 1, AnisoPoint = 2, AnisoBilinear = 3 };

/* SQ_TEX_SAMPLER_WORD0.MIP_FILTER and Z_FILTER (SQ_TEX_Z_FILTER_*). */
enum class MipFilter : uint8_t { None = 0, Point = 1, Linear = 2 };

/* SQ_TEX_SAMPLER_WORD0.BORDER_COLOR_TYPE. Register: the TD_<stage>_BORDER_COLOR_* registers. */
enum class BorderColor : uint8_t { TransparentBlack = 0, OpaqueBlack = 1, OpaqueWhite = 2, Register = 3 };

/* SQ_TEX_SAMPLER_WORD0-2 decoded. LODs are stored in fixed point (unsigned 4.8 for min/max,
 * signed 6.8 for the bias), so encode rounds them to 1/256. */
struct Sampler {
   ClampMode clamp[3] = {ClampMode::Wrap, ClampMode::Wrap, ClampMode::Wrap};
   TexFilter mag_filter = TexFilter::Point, min_filter = TexFilter::Point;
   MipFilter z_filter = MipFilter::None;
   MipFilter mip_filter = MipFilter::None;
   unsigned max_aniso_ratio = 0; /* 0..4: 1x..16x */
   BorderColor border = BorderColor::TransparentBlack;
   unsigned depth_compare = 0;   /* SQ_TEX_DEPTH_COMPARE_* (0 NEVER .. 7 ALWAYS) */
   float min_lod = 0.0f, max_lod = 15.0f, lod_bias = 0.0f;
   bool force_unnormalized = false; /* WORD0 bit 25, Cayman/Aruba only (docs/hardware-notes.md) */
   unsigned chroma_key = 0;         /* WORD0 bits 26:25, Evergreen class only */
   bool mc_coord_truncate = false;
   bool force_degamma = false;      /* WORD2 bit 21 */
   bool disable_cube_wrap = false;
   bool truncate_coord = false;
   bool type = true;                /* WORD2 bit 31; Mesa always sets it */
};

/* Asserts that force_unnormalized is off on the Evergreen class (bit 25 is CHROMA_KEY there)
 * and that chroma_key is 0 on Cayman (the field is gone). */
std::array<uint32_t, 3> encode_sampler(const Sampler &, IsaClass isa);
Sampler decode_sampler(const std::array<uint32_t, 3> &, IsaClass isa);

/* Whether SQ_TEX_SAMPLER_WORD0 has FORCE_UNNORMALIZED: Cayman and Aruba only. */
bool sampler_has_force_unnormalized(Family family);
bool sampler_has_force_unnormalized(IsaClass isa);

/* Compute-stage slots: samplers 90..107 in the SET_SAMPLER space (3 dwords each, dword offset
 * = id * 3; Mesa evergreen_emit_cs_sampler_states), texture resources in the same 816+ slot
 * range as compute buffers (8 dwords each, dword offset = slot * 8). */
constexpr unsigned compute_sampler_base = 90;
constexpr unsigned ps_sampler_base = 0, vs_sampler_base = 18; /* 18 samplers per stage */
constexpr unsigned compute_sampler_count = 18;
constexpr unsigned compute_texture_resource_base = 816; /* = reg::compute_fetch_resource_base */

/* TD_CS_SAMPLER0_BORDER_COLOR_INDEX/RED/GREEN/BLUE/ALPHA (config registers; Linux and Mesa
 * evergreend.h). INDEX is the sampler id within the stage (0..17), then 4 floats. */
constexpr uint32_t TD_CS_BORDER_COLOR_INDEX = 0xA464;
constexpr uint32_t TD_CS_BORDER_COLOR_RED = 0xA468;
constexpr uint32_t TD_CS_BORDER_COLOR_GREEN = 0xA46C;
constexpr uint32_t TD_CS_BORDER_COLOR_BLUE = 0xA470;
constexpr uint32_t TD_CS_BORDER_COLOR_ALPHA = 0xA474;

/* The same five registers per stage, with the stage's first sampler slot
 * (TD_PS_SAMPLER0_BORDER_INDEX 0xA400, TD_VS_SAMPLER0_BORDER_INDEX 0xA414 in Mesa's evergreend.h). */
struct BorderColourRegisters {
   uint32_t index;
   unsigned sampler_base;
};
constexpr BorderColourRegisters border_colour_registers[] = {
   {0xA400, ps_sampler_base}, {0xA414, vs_sampler_base}, {TD_CS_BORDER_COLOR_INDEX, compute_sampler_base}};

/* How an element of a format splits into components: their count and bit widths from the
 * lowest bits up (x first; FMT_* names list packed widths from the top), and how the bits are
 * read. The colour block's COLOR_* formats use the same numbers (Linux evergreen_cs.c checks
 * colour buffers and textures with one format table). */
/* SharedExponent (FMT_5_9_9_9_SHAREDEXP) is a texture-unit layout only: the colour block does
 * not write it (hw::format_component_layout does not return it). */
enum class ComponentKind { Int, Half, Float, R11G11B10Float, SharedExponent };
struct ComponentLayout {
   ComponentKind kind;
   unsigned count;
   std::array<unsigned, 4> widths;
};
/* False for the formats not decomposed here (depth/stencil, BC, shared exponent, ...). */
bool format_component_layout(TextureFormat, ComponentLayout &);

/* Bytes of one element (a texel, or a 4x4 block for BC formats); 0 for unknown formats. */
unsigned format_bytes_per_element(TextureFormat);
/* Block width/height in texels: 4 for BC formats, else 1. */
unsigned format_block_dimension(TextureFormat);
/* Whether the kernel accepts the format for a texture (evergreen_cs.c color_formats_table with
 * a texture flag: every listed format except FMT_INVALID and the unused numbers). */
bool format_is_valid_texture(TextureFormat, Family);

} // namespace terakan::hw
