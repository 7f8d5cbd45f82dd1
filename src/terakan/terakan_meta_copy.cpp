/* Image copies as compute dispatches (docs/architecture.md, "Copies").
 *
 * A copy between two images, or between a buffer and an image, where a tiled image takes part
 * is one dispatch per region and aspect: an invocation per element (texel, or 4x4 block of a
 * compressed format) reads its element through a texture or texel-buffer fetch and writes it
 * with a typed RAT store (STORE_TYPED, the storage-image path). Both sides are viewed with the unsigned
 * integer format of the element's size (R8, R16, R32, R32G32, R32G32B32A32 UINT), so bits are
 * copied, not values: sRGB, float, snorm, packed and block-compressed data arrive unchanged,
 * and a BC1 block can become an R32G32 texel. The per-element address arithmetic the CP DMA
 * path does on the CPU (thousands of tiny packets for a tiled image) is done by the texture
 * unit and the colour buffer instead.
 *
 * Each image side is one level, bound from the level's first byte as a one-level resource
 * (BASE at the level, as the storage images bind a level: terakan_storage_images.cpp): a
 * block-compressed image's levels do not minify like those of its element-sized view, so the
 * image's own mip chain cannot be reused. The resource's height is the level's aligned height
 * so that the texture unit steps from layer to layer as the layout does.
 *
 * Depth and stencil planes are copied alike: a depth plane as R16/R32 UINT, the stencil plane
 * as R8 UINT, both in the DB's non-displayable micro-tile order, which the texture resource
 * and CB_COLORn_ATTRIB both name.
 *
 * Not handled here: multisampled images (no multisampled typed RAT, and a copy must keep FMASK
 * right: terakan_meta_copy_msaa.cpp draws them); and, by the caller's CP DMA path, copies
 * where no side is tiled (linear rows are single DMA packets already) and buffers a RAT
 * cannot cover.
 *
 * Push constants (dwords): 0-4 the source's x, y, z, row length and slice length; 5-9 the
 * destination's; 10, 11 the region's width and height in elements. An image side uses x, y, z
 * (z: the layer relative to the bound first layer, or the 3D slice); a buffer side the element
 * index x + gx + gy * row + gz * slice. */
#include "terakan_meta_copy.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "terakan_meta.h"
#include "hw/pm4.h"
#include "hw/registers.h"
#include "hw/surface.h"
#include "hw/texture.h"

namespace hw = terakan::hw;
namespace pm4 = terakan::hw::pm4;
namespace reg = terakan::hw::reg;
using terakan::winsys::CommandStream;
using terakan::winsys::RadeonBo;

namespace {

enum class SideKind : uint32_t { Array2D = 0, Volume = 1, Buffer = 2 };

constexpr unsigned group_width = 8, group_height = 8;
/* Set 0 binding 0 is the source (texture resource source_resource), binding 1 the destination
 * (RAT 0, CB_COLOR0). */
constexpr unsigned source_resource = terakan::compiler::default_first_texture_resource;
constexpr unsigned destination_resource = source_resource + 1;
constexpr unsigned destination_rat = 0;

enum PushDword : unsigned {
   src_x, src_y, src_z, src_row, src_slice,
   dst_x, dst_y, dst_z, dst_row, dst_slice,
   copy_width, copy_height,
   push_dword_count
};

/* The UINT format whose texel is `bytes` big; nullptr for sizes a typed view cannot hold. */
const terakan_format *element_format(unsigned bytes)
{
   return terakan_copy_element_format(bytes);
}

glsl_sampler_dim dim_of(SideKind kind)
{
   return kind == SideKind::Buffer ? GLSL_SAMPLER_DIM_BUF : kind == SideKind::Volume ? GLSL_SAMPLER_DIM_3D
                                                                                     : GLSL_SAMPLER_DIM_2D;
}

nir_ssa_def *push(nir_builder *b, PushDword which)
{
   return nir_load_push_constant(b, 1, 32, nir_imm_int(b, 0), int(4 * which), 4u * push_dword_count);
}

/* Where element (gx, gy, gz) of the region is on one side, as image coordinates. */
nir_ssa_def *side_coordinate(nir_builder *b, SideKind kind, PushDword first, nir_ssa_def *gx, nir_ssa_def *gy,
                             nir_ssa_def *gz)
{
   nir_ssa_def *x = nir_iadd(b, push(b, first), gx);
   nir_ssa_def *zero = nir_imm_int(b, 0);
   if (kind == SideKind::Buffer) {
      nir_ssa_def *index = nir_iadd(b, x, nir_iadd(b, nir_imul(b, gy, push(b, PushDword(first + 3))),
                                                   nir_imul(b, gz, push(b, PushDword(first + 4)))));
      return nir_vec4(b, index, zero, zero, zero);
   }
   return nir_vec4(b, x, nir_iadd(b, push(b, PushDword(first + 1)), gy), nir_iadd(b, push(b, PushDword(first + 2)), gz),
                   zero);
}

nir_deref_instr *image_variable(nir_builder *b, SideKind kind, unsigned binding, const char *name)
{
   const glsl_type *type = glsl_image_type(dim_of(kind), kind == SideKind::Array2D, GLSL_TYPE_UINT);
   nir_variable *variable = nir_variable_create(b->shader, nir_var_image, type, name);
   variable->data.descriptor_set = 0;
   variable->data.binding = binding;
   return nir_build_deref_var(b, variable);
}

/* One invocation per element of a width x height x (dispatched depth) region. */
nir_shader *copy_shader(SideKind from, SideKind to)
{
   nir_builder builder = terakan::compiler::begin_compute_nir("terakan copy", group_width, group_height, 1);
   nir_builder *b = &builder;
   nir_ssa_def *group = nir_load_workgroup_id(b, 32);
   nir_ssa_def *local = nir_load_local_invocation_id(b);
   nir_ssa_def *gx = nir_iadd(b, nir_imul_imm(b, nir_channel(b, group, 0), group_width), nir_channel(b, local, 0));
   nir_ssa_def *gy = nir_iadd(b, nir_imul_imm(b, nir_channel(b, group, 1), group_height), nir_channel(b, local, 1));
   nir_ssa_def *gz = nir_channel(b, group, 2);
   nir_deref_instr *source = image_variable(b, from, 0, "source");
   nir_deref_instr *destination = image_variable(b, to, 1, "destination");

   nir_push_if(b, nir_iand(b, nir_ult(b, gx, push(b, copy_width)), nir_ult(b, gy, push(b, copy_height))));
   nir_ssa_def *zero = nir_imm_int(b, 0);
   _nir_image_deref_load_indices load{};
   load.image_dim = dim_of(from);
   load.image_array = from == SideKind::Array2D;
   load.dest_type = nir_type_uint32;
   nir_ssa_def *texel = _nir_build_image_deref_load(b, 4, 32, &source->dest.ssa,
                                                    side_coordinate(b, from, src_x, gx, gy, gz), zero, zero, load);
   _nir_image_deref_store_indices store{};
   store.image_dim = dim_of(to);
   store.image_array = to == SideKind::Array2D;
   store.src_type = nir_type_uint32;
   _nir_build_image_deref_store(b, &destination->dest.ssa, side_coordinate(b, to, dst_x, gx, gy, gz), zero, texel,
                                zero, store);
   nir_pop_if(b, nullptr);
   return b->shader;
}

/* The compiled program for a (source kind, destination kind) pair, made on first use. */
const terakan_meta_compute *copy_program(terakan_device *device, SideKind from, SideKind to, VkResult &result)
{
   terakan_meta *meta = device->meta;
   const uint32_t key = uint32_t(from) * 3 + uint32_t(to);
   std::lock_guard<std::mutex> guard(meta->lock);
   auto found = meta->copies.find(key);
   if (found != meta->copies.end()) {
      result = found->second->result;
      return result == VK_SUCCESS ? found->second.get() : nullptr;
   }
   auto program = std::make_unique<terakan_meta_compute>();
   terakan::compiler::CompileOptions options;
   options.family = device->physical->pci->family;
   options.debug = terakan::compiler::debug_options_from_environment();
   terakan::compiler::TextureBinding src_binding, dst_binding;
   src_binding.binding = 0;
   src_binding.has_image = true;
   src_binding.first_resource = source_resource;
   dst_binding.binding = 1;
   dst_binding.has_image = true;
   dst_binding.first_resource = destination_resource;
   dst_binding.first_rat = int(destination_rat);
   options.texture_bindings = {src_binding, dst_binding};
   std::string error;
   if (!terakan::compiler::compile_compute_nir(copy_shader(from, to), options, program->binary, error))
      program->result = terakan_errorf(device, VK_ERROR_UNKNOWN, "terakan: the copy shader does not compile: %s",
                                       error.c_str());
   else
      program->result = terakan_upload_code(device, program->binary.code, program->code_bo);
   result = program->result;
   const terakan_meta_compute *out = program.get();
   meta->copies.emplace(key, std::move(program));
   return result == VK_SUCCESS ? out : nullptr;
}

/* One side of a copy, as the dispatch binds it. */
struct Side {
   SideKind kind = SideKind::Array2D;
   RadeonBo *bo = nullptr;
   const terakan_format *format = nullptr; /* the element-sized UINT view */
   /* Images: one level of one plane (the colour or depth levels, or the stencil plane). */
   const terakan_image *image = nullptr;
   const hw::SurfaceLayout *layout = nullptr;
   const hw::SurfaceDescription *surface = nullptr;
   uint64_t plane = 0; /* the plane's offset from the image's */
   unsigned block = 1; /* texels per element side */
   const hw::SurfaceLevel *level = nullptr;
   uint32_t first_layer = 0, layers = 1; /* bound layers (2D arrays) */
   /* Buffers: the first element's address in `bo`, the range's bytes from it. */
   uint64_t address = 0, bytes = 0;
   /* Push constants: x, y, z (images) or the first index, row and slice lengths (buffers). */
   uint32_t x = 0, y = 0, z = 0, row = 0, slice = 0;
};

unsigned blocks(unsigned texels, unsigned block)
{
   return (texels + block - 1) / block;
}

/* An image level of one aspect as a copy side; false if the shader path cannot take it. The
 * depth and stencil planes are written through the colour buffer in their non-displayable
 * micro-tile order, as r600g binds a depth texture as a colour surface (r600_texture.c: "Tiled
 * depth textures utilize the non-displayable tile order ... Applies to R600-Cayman";
 * evergreen_state.c evergreen_set_color_surface_common puts it in CB_COLORn_ATTRIB, which is
 * how its depth decompression writes flushed depth textures with the CB). */
bool image_side(const terakan_image *image, VkImageAspectFlags aspect, uint32_t level, uint32_t first_layer,
                uint32_t layers, Side &out)
{
   if (image->vk.samples > 1 || !image->memory)
      return false;
   const bool stencil = image->format->stencil && aspect == VK_IMAGE_ASPECT_STENCIL_BIT;
   const bool colour = !image->format->depth && aspect == VK_IMAGE_ASPECT_COLOR_BIT;
   const bool depth = image->format->depth && aspect == VK_IMAGE_ASPECT_DEPTH_BIT;
   if (!stencil && !colour && !depth)
      return false;
   out.format = element_format(stencil ? 1 : image->format->bytes);
   if (!out.format)
      return false;
   out.image = image;
   out.bo = image->memory->bo;
   out.layout = stencil ? &image->stencil_layout : &image->layout;
   out.surface = stencil ? &image->stencil_surface : &image->surface;
   out.plane = stencil ? image->stencil_offset : 0;
   out.block = stencil ? 1 : image->format->block;
   out.level = &out.layout->levels[level];
   out.kind = image->surface.is_3d ? SideKind::Volume : SideKind::Array2D;
   out.first_layer = image->surface.is_3d ? 0 : first_layer;
   out.layers = image->surface.is_3d ? out.level->depth : layers;
   return true;
}

bool is_linear(const hw::SurfaceLevel &level)
{
   return level.mode == hw::ArrayMode::LinearAligned || level.mode == hw::ArrayMode::LinearGeneral;
}

/* The texture resource words of an image side: its level as level 0 of a 2D array (the bound
 * layers) or 3D texture of the element format. */
std::array<uint32_t, 8> image_resource_words(const terakan_device *device, const Side &side)
{
   const hw::SurfaceLevel &level = *side.level;
   hw::TextureResource r;
   hw::fill_texture_resource_tiling(*side.layout, r);
   r.array_mode = level.mode;
   r.dim = side.kind == SideKind::Volume ? hw::TextureDim::Dim3D : hw::TextureDim::Dim2DArray;
   r.non_disp_tiling_order = side.surface->non_displayable_order;
   r.pitch = level.pitch;
   r.width = blocks(level.width, side.block);
   r.height = level.aligned_height;
   r.depth = side.kind == SideKind::Volume ? level.depth : side.surface->layers;
   r.base_address = r.mip_address = side.image->offset + side.plane + level.offset;
   r.format = side.format->hw;
   r.num_format = side.format->num_format;
   r.base_level = r.last_level = 0;
   r.base_array = side.kind == SideKind::Volume ? 0 : side.first_layer;
   r.last_array = side.kind == SideKind::Volume ? 0 : side.first_layer + side.layers - 1;
   for (unsigned c = 0; c < 4; c++)
      r.dst_sel[c] = hw::Select(c);
   return hw::encode_texture_resource(r, device->physical->family->isa_class);
}

void emit_source(terakan_cmd_buffer *cmd, CommandStream &cs, const Side &side)
{
   cs.packet(pm4::SET_RESOURCE, 9, true);
   cs.emit((hw::compute_texture_resource_base + source_resource) * 8);
   if (side.kind == SideKind::Buffer) {
      const terakan_format &f = *side.format;
      for (uint32_t word : reg::texel_buffer_fetch_resource(side.address, uint32_t(side.bytes), f.bytes, f.hw,
                                                            uint32_t(f.num_format), false, {0, 1, 2, 3}))
         cs.emit(word);
      cs.relocation(*side.bo);
      return;
   }
   for (uint32_t word : image_resource_words(cmd->device, side))
      cs.emit(word);
   cs.relocation(*side.bo); /* BASE_ADDRESS */
   cs.relocation(*side.bo); /* MIP_ADDRESS */
}

/* The pitch (elements) of a buffer RAT's one row: a linear-aligned colour surface's pitch is a
 * multiple of max(64, group bytes / element bytes) elements (the kernel's
 * evergreen_surface_check_linear_aligned), which the kernel checks against the buffer object. */
uint32_t buffer_rat_pitch(unsigned bytes)
{
   return std::max(64u, hw::surface_group_bytes / bytes);
}

/* CB_COLOR0 as the destination's RAT: the element format, BLEND_BYPASS, and for an image its
 * level's pitch, slice and tiling with the bound layers as SLICE_START..SLICE_MAX (the layer
 * coordinate counts from SLICE_START); for a buffer one row of elements from BASE (PITCH 64
 * elements and SLICE 0 as the kernel checks a buffer RAT, DIM the element count - 1), as the
 * storage images and texel buffers bind them (terakan_storage_images.cpp, whose facts and
 * sources these are). */
void emit_destination(CommandStream &cs, const Side &side)
{
   terakan_colour_target target;
   terakan_colour_target_format(side.format->vk, target);
   const uint32_t rat_info = reg::CB_COLOR_INFO_RAT | (1u << 20) /* BLEND_BYPASS */ |
                             (uint32_t(target.format) << 2) | (target.number_type << 12) | (target.comp_swap << 15);
   const uint32_t color0 = reg::CB_COLOR0_BASE + destination_rat * reg::CB_COLOR_STRIDE;
   if (side.kind == SideKind::Buffer) {
      const uint64_t base = side.address & ~uint64_t(255);
      const uint64_t elements = (side.address - base + side.bytes) / side.format->bytes;
      cs.context_registers(color0,
                           {uint32_t(base >> 8), buffer_rat_pitch(side.format->bytes) / 8 - 1, 0, 0,
                            rat_info | (uint32_t(hw::ArrayMode::LinearAligned) << 8) /* RESOURCE_TYPE BUFFER */,
                            reg::rat_buffer_color_attrib, uint32_t(elements - 1)},
                           true);
      cs.relocation(*side.bo);
      cs.relocation(*side.bo);
      return;
   }
   const hw::SurfaceLevel &level = *side.level;
   /* NON_DISP_TILING_ORDER (bit 4; Mesa evergreend.h S_028C74_NON_DISP_TILING_ORDER): the
    * depth and stencil planes' micro-tile order. */
   uint32_t attrib = side.surface->non_displayable_order ? 1u << 4 : 0;
   if (level.mode == hw::ArrayMode::Tiled2DThin1) {
      hw::TextureResource codes;
      hw::fill_texture_resource_tiling(*side.layout, codes);
      attrib |= (codes.tile_split << 5) | (codes.num_banks << 10) | (codes.bank_width << 13) |
                (codes.bank_height << 16) | (codes.macro_tile_aspect << 19);
   }
   /* RESOURCE_TYPE (29:27): TEXTURE2DARRAY 4, TEXTURE3D 5. */
   const uint32_t type = side.kind == SideKind::Volume ? 5 : 4;
   const uint32_t slice_tile_max = uint32_t(std::max<uint64_t>(uint64_t(level.pitch) * level.aligned_height / 64, 1) - 1);
   const uint32_t width = blocks(level.width, side.block);
   const uint32_t height = blocks(level.height, side.block);
   cs.context_registers(color0,
                        {uint32_t((side.image->offset + side.plane + level.offset) >> 8), level.pitch / 8 - 1,
                         slice_tile_max,
                         side.first_layer | ((side.first_layer + side.layers - 1) << 13),
                         rat_info | (uint32_t(level.mode) << 8) | (type << 27), attrib,
                         (width - 1) | ((height - 1) << 16)},
                        true);
   cs.relocation(*side.bo); /* BASE */
   cs.relocation(*side.bo); /* ATTRIB */
}

/* Records the dispatch over width x height x depth elements. */
bool dispatch_copy(terakan_cmd_buffer *cmd, const Side &from, const Side &to, uint32_t width, uint32_t height,
                   uint32_t depth)
{
   if (!width || !height || !depth)
      return true;
   VkResult result;
   const terakan_meta_compute *program = copy_program(cmd->device, from.kind, to.kind, result);
   if (!program) {
      vk_command_buffer_set_error(&cmd->vk, result);
      return true;
   }
   const terakan::compiler::ShaderBinary &binary = program->binary;
   RadeonBo *constants_bo;
   uint64_t constants_offset;
   uint8_t *constants = terakan_cmd_upload(cmd, 512, 256, constants_bo, constants_offset);
   if (!constants)
      return true;
   std::memset(constants, 0, 512);
   const uint32_t push_values[push_dword_count] = {from.x, from.y, from.z, from.row, from.slice,
                                                   to.x,   to.y,   to.z,   to.row,   to.slice,
                                                   width,  height};
   std::memcpy(constants, push_values, sizeof(push_values));
   const uint32_t groups[3] = {blocks(width, group_width), blocks(height, group_height), depth};
   std::memcpy(constants + 256, groups, sizeof(groups)); /* driver constants: the group counts */

   CommandStream &cs = terakan_cmd_stream(cmd);
   cs.config_registers(reg::VGT_COMPUTE_START_X, {0, 0, 0});
   emit_source(cmd, cs, from);
   emit_destination(cs, to);
   cs.context_registers(reg::CB_TARGET_MASK, {0xfu << (4 * destination_rat)});
   if (binary.push_constants_fetched)
      terakan_emit_compute_fetch_resource(cs, terakan::compiler::push_constant_fetch_resource, *constants_bo,
                                          constants_offset, 256);
   cs.context_registers(reg::SQ_ALU_CONST_BUFFER_SIZE_LS_0, {1, 1});
   cs.context_registers(reg::SQ_ALU_CONST_CACHE_LS_0,
                        {uint32_t(constants_offset >> 8), uint32_t((constants_offset + 256) >> 8)});
   cs.relocation(*constants_bo);
   cs.relocation(*constants_bo);
   cs.context_registers(reg::SQ_PGM_START_LS, {0, binary.gprs | (binary.stack_entries << 8), 0});
   cs.relocation(*program->code_bo);
   cs.context_registers(reg::SPI_COMPUTE_INPUT_CNTL, {7}); /* local ids in R0, group ids in R1 */
   cs.context_registers(reg::SPI_COMPUTE_NUM_THREAD_X, {group_width, group_height, 1});
   cs.context_registers(reg::SQ_LDS_ALLOC, {((group_width * group_height + 63) / 64) << 14});
   cs.packet(pm4::DISPATCH_DIRECT, 4, true);
   cs.emit(groups[0]);
   cs.emit(groups[1]);
   cs.emit(groups[2]);
   cs.emit(pm4::DISPATCH_INITIATOR_COMPUTE_SHADER_EN);
   if (terakan_debug(TERAKAN_DEBUG_COPIES))
      std::fprintf(stderr, "terakan: copy: shader, %ux%ux%u elements of %u bytes\n", width, height, depth,
                   from.format->bytes);
   return true;
}

/* The buffer side of a buffer <-> image copy of `bytes_per_element` elements; false if the
 * shader path cannot take it (a misaligned address, a buffer object too small for the kernel's
 * check of a buffer RAT, more elements than CB_COLOR_DIM holds). */
bool buffer_side(terakan_buffer *buffer, const VkBufferImageCopy2 &region, const Side &image, uint32_t width,
                 uint32_t height, uint32_t depth, bool destination, Side &out)
{
   const unsigned bytes = image.format->bytes;
   const unsigned block = image.block;
   out.kind = SideKind::Buffer;
   out.format = image.format;
   out.bo = buffer->memory->bo;
   out.row = blocks(region.bufferRowLength ? region.bufferRowLength : region.imageExtent.width, block);
   out.slice = out.row * blocks(region.bufferImageHeight ? region.bufferImageHeight : region.imageExtent.height, block);
   out.address = buffer->offset + region.bufferOffset;
   const uint64_t last = (uint64_t(depth - 1) * out.slice + uint64_t(height - 1) * out.row + width) * bytes;
   out.bytes = last;
   if (out.address % bytes || out.address + out.bytes > out.bo->size())
      return false;
   if (!destination)
      return out.bytes <= UINT32_MAX;
   const uint64_t base = out.address & ~uint64_t(255);
   out.x = uint32_t((out.address - base) / bytes);
   const uint64_t elements = out.x + last / bytes;
   return base + uint64_t(buffer_rat_pitch(bytes)) * bytes <= out.bo->size() && elements <= 0x1000000;
}

} // namespace

const terakan_format *terakan_copy_element_format(unsigned bytes)
{
   switch (bytes) {
   case 1: return terakan_format_of(VK_FORMAT_R8_UINT);
   case 2: return terakan_format_of(VK_FORMAT_R16_UINT);
   case 4: return terakan_format_of(VK_FORMAT_R32_UINT);
   case 8: return terakan_format_of(VK_FORMAT_R32G32_UINT);
   case 16: return terakan_format_of(VK_FORMAT_R32G32B32A32_UINT);
   default: return nullptr;
   }
}

bool terakan_meta_copy_image(terakan_cmd_buffer *cmd, terakan_image *src, terakan_image *dst,
                             const VkImageCopy2 &region, VkImageAspectFlags src_aspect, VkImageAspectFlags dst_aspect)
{
   if (terakan_debug(TERAKAN_DEBUG_DMA_COPIES))
      return false;
   const VkImageSubresourceLayers &from = region.srcSubresource, &to = region.dstSubresource;
   const uint32_t layers = vk_image_subresource_layer_count(&src->vk, &from);
   const uint32_t depth = src->surface.is_3d ? region.extent.depth : layers;
   Side a, b;
   if (!image_side(src, src_aspect, from.mipLevel, from.baseArrayLayer, layers, a) ||
       !image_side(dst, dst_aspect, to.mipLevel, to.baseArrayLayer, depth, b) || a.format != b.format)
      return false;
   if (is_linear(*a.level) && is_linear(*b.level))
      return false;
   const unsigned block_a = a.block, block_b = b.block;
   a.x = uint32_t(region.srcOffset.x) / block_a;
   a.y = uint32_t(region.srcOffset.y) / block_a;
   a.z = src->surface.is_3d ? uint32_t(region.srcOffset.z) : 0;
   b.x = uint32_t(region.dstOffset.x) / block_b;
   b.y = uint32_t(region.dstOffset.y) / block_b;
   b.z = dst->surface.is_3d ? uint32_t(region.dstOffset.z) : 0;
   /* The region's size is in the source's texels (a compressed extent at the edge may be partial). */
   return dispatch_copy(cmd, a, b, blocks(region.extent.width, block_a), blocks(region.extent.height, block_a), depth);
}

bool terakan_meta_copy_buffer_image(terakan_cmd_buffer *cmd, terakan_buffer *buffer, terakan_image *image,
                                    const VkBufferImageCopy2 &region, bool to_image)
{
   if (terakan_debug(TERAKAN_DEBUG_DMA_COPIES) || !buffer->memory)
      return false;
   const VkImageSubresourceLayers &sub = region.imageSubresource;
   const uint32_t layers = vk_image_subresource_layer_count(&image->vk, &sub);
   const uint32_t depth = image->surface.is_3d ? region.imageExtent.depth : layers;
   Side side;
   if (!image_side(image, sub.aspectMask, sub.mipLevel, sub.baseArrayLayer, layers, side) || is_linear(*side.level))
      return false;
   const unsigned block = side.block;
   side.x = uint32_t(region.imageOffset.x) / block;
   side.y = uint32_t(region.imageOffset.y) / block;
   side.z = image->surface.is_3d ? uint32_t(region.imageOffset.z) : 0;
   const uint32_t width = blocks(region.imageExtent.width, block), height = blocks(region.imageExtent.height, block);
   if (!width || !height || !depth)
      return true;
   Side memory;
   if (!buffer_side(buffer, region, side, width, height, depth, !to_image, memory))
      return false;
   return to_image ? dispatch_copy(cmd, memory, side, width, height, depth)
                   : dispatch_copy(cmd, side, memory, width, height, depth);
}
