/* Storage images and storage texel buffers as RATs, and every RAT of a draw's pixel shader
 * (fragmentStoresAndAtomics; terakan_emit_pixel_shader_rats below). At each dispatch, every element the
 * program stores to (ShaderBinary::image_rats, resolved to descriptors as terakan_texture_source
 * entries with `rat`) becomes CB_COLORn with CB_COLORn_INFO.RAT, its format, number type and
 * component swap as for a colour attachment (terakan_attachment_formats.cpp), so that the
 * hardware converts the typed store's data as it converts a pixel shader's export. Loads go
 * through the element's texture (or texel-buffer fetch) resource instead (terakan_cmd_buffer.cpp
 * emit_textures).
 *
 * Register fields: Mesa 22.3.6 evergreend.h (CB_COLOR0_INFO RAT 26, RESOURCE_TYPE 29:27 with
 * BUFFER 0, TEXTURE1D 1, TEXTURE1DARRAY 2, TEXTURE2D 3, TEXTURE2DARRAY 4, TEXTURE3D 5;
 * CB_COLOR0_VIEW SLICE_START 10:0, SLICE_MAX 23:13; CB_COLOR0_DIM WIDTH_MAX 15:0,
 * HEIGHT_MAX 31:16). Which registers r600g fills for an image and for a buffer:
 * evergreen_set_shader_images and evergreen_set_color_surface_buffer (evergreen_state.c). */
#include "terakan_private.h"

#include <algorithm>
#include <cstring>

#include "hw/graphics_registers.h"
#include "hw/pm4.h"
#include "hw/registers.h"
#include "hw/surface.h"
#include "hw/texture.h"

namespace hw = terakan::hw;
namespace reg = terakan::hw::reg;
using terakan::winsys::CommandStream;

namespace {

enum RatResourceType : uint32_t { Buffer = 0, Texture1D = 1, Texture1DArray = 2, Texture2D = 3, Texture2DArray = 4, Texture3D = 5 };

constexpr uint32_t info_rat(uint32_t resource_type)
{
   return reg::CB_COLOR_INFO_RAT | (resource_type << 27);
}

/* CB_COLORn_INFO's format fields for a storage format: as for a colour attachment, without
 * blending (BLEND_BYPASS: a RAT store writes its data). */
uint32_t format_info(const terakan_colour_target &target, hw::ArrayMode mode)
{
   return (uint32_t(target.format) << 2) | (uint32_t(mode) << 8) | (target.number_type << 12) |
          (target.comp_swap << 15) | (1u << 20) /* BLEND_BYPASS */;
}

/* A storage image view: the level the view names from its first layer (BASE), and the view's
 * layers as SLICE_START..SLICE_MAX (or a 3D level's slices), as r600g binds an image: a BASE
 * moved to a later layer would also move a 2D-tiled surface's bank and pipe swizzle, which
 * the base address selects. */
bool emit_image_rat(CommandStream &cs, unsigned n, const terakan_image_view *view, bool compute)
{
   const terakan_image *image = view->image;
   terakan_colour_target target;
   if (!image->memory || !terakan_colour_target_format(view->vk.format, target))
      return false;
   const hw::SurfaceLevel &level = image->layout.levels[view->vk.base_mip_level];
   uint32_t type = Texture2D, first = view->vk.base_array_layer, slices = view->vk.layer_count;
   switch (view->vk.view_type) {
   case VK_IMAGE_VIEW_TYPE_1D: type = Texture1D; break;
   case VK_IMAGE_VIEW_TYPE_1D_ARRAY: type = Texture1DArray; break;
   case VK_IMAGE_VIEW_TYPE_2D: type = Texture2D; break;
   case VK_IMAGE_VIEW_TYPE_2D_ARRAY:
   case VK_IMAGE_VIEW_TYPE_CUBE: /* faces are slices (r600g binds cubes as 2D arrays too) */
   case VK_IMAGE_VIEW_TYPE_CUBE_ARRAY: type = Texture2DArray; break;
   case VK_IMAGE_VIEW_TYPE_3D: type = Texture3D; first = 0; slices = level.depth; break;
   default: return false;
   }
   uint32_t attrib = 0;
   if (level.mode == hw::ArrayMode::Tiled2DThin1) {
      hw::TextureResource codes;
      hw::fill_texture_resource_tiling(image->layout, codes);
      attrib = (codes.tile_split << 5) | (codes.num_banks << 10) | (codes.bank_width << 13) |
               (codes.bank_height << 16) | (codes.macro_tile_aspect << 19);
   }
   const uint32_t slice_tile_max = uint32_t(std::max<uint64_t>(uint64_t(level.pitch) * level.aligned_height / 64, 1) - 1);
   cs.context_registers(reg::CB_COLOR0_BASE + n * reg::CB_COLOR_STRIDE,
                        {uint32_t((image->offset + level.offset) >> 8), level.pitch / 8 - 1, slice_tile_max,
                         first | ((first + slices - 1) << 13), format_info(target, level.mode) | info_rat(type), attrib,
                         (level.width - 1) | ((level.height - 1) << 16)},
                        compute);
   cs.relocation(*image->memory->bo); /* BASE */
   cs.relocation(*image->memory->bo); /* ATTRIB */
   return true;
}

/* A storage texel buffer view: one linear row of elements from BASE (the view's offset keeps
 * minTexelBufferOffsetAlignment, 256 bytes, BASE's unit). The PITCH and SLICE 0 are the one
 * layer the kernel checks: a linear-aligned pitch is a multiple of max(64, group bytes / element
 * bytes) elements (evergreen_surface_check_linear_aligned; 128 for 2-byte and 256 for 1-byte
 * elements), the pitch r600g gives a buffer RAT (evergreen_set_color_surface_buffer); DIM holds
 * the element count - 1, as r600g writes it. */
bool emit_buffer_rat(CommandStream &cs, unsigned n, const terakan_descriptor &d, bool compute)
{
   terakan_colour_target target;
   if (!d.bo || !d.texel_format || !terakan_colour_target_format(d.texel_format->vk, target))
      return false;
   const uint64_t elements = std::max<uint64_t>(d.range / d.texel_format->bytes, 1);
   const uint32_t pitch_elements = std::max(64u, hw::surface_group_bytes / d.texel_format->bytes);
   cs.context_registers(reg::CB_COLOR0_BASE + n * reg::CB_COLOR_STRIDE,
                        {uint32_t(d.offset >> 8), pitch_elements / 8 - 1, 0, 0,
                         format_info(target, hw::ArrayMode::LinearAligned) | info_rat(Buffer),
                         reg::rat_buffer_color_attrib, uint32_t(std::min<uint64_t>(elements - 1, 0xffffff))},
                        compute);
   cs.relocation(*d.bo); /* BASE */
   cs.relocation(*d.bo); /* ATTRIB */
   return true;
}

/* The image and texel-buffer RATs of `textures` as CB_COLOR(rat_base + slot); their
 * CB_TARGET_MASK bits. */
uint32_t emit_image_rats(CommandStream &cs, const std::vector<terakan_texture_source> &textures,
                         const std::array<terakan_bound_set, 4> &sets, unsigned rat_base, bool compute)
{
   uint32_t target_mask = 0;
   for (const terakan_texture_source &source : textures) {
      if (!source.rat)
         continue;
      const terakan_bound_set &bound = sets[source.set];
      if (!bound.set || source.descriptor >= bound.set->descriptors.size())
         continue;
      const terakan_descriptor &d = bound.set->descriptors[source.descriptor];
      const unsigned n = rat_base + source.slot;
      const bool bound_rat = d.texel_format ? emit_buffer_rat(cs, n, d, compute)
                             : d.image_view ? emit_image_rat(cs, n, d.image_view, compute)
                                            : false;
      if (bound_rat)
         target_mask |= 0xfu << (4 * n);
   }
   return target_mask;
}

/* The return buffer of a pixel shader's returning RAT operations: CB_IMMEDn_BASE of RATs
 * first..7 and the pixel shader's fetch resource rat_return_fetch_resource, UNCACHED, as a
 * dispatch binds them (terakan_cmd_buffer.cpp emit_rat_returns; r600g binds each fragment
 * RAT's CB_IMMED and its own return resource in the pixel shader's window,
 * evergreen_emit_image_state). */
void emit_pixel_rat_returns(terakan_cmd_buffer *cmd, CommandStream &cs, unsigned first)
{
   terakan::winsys::RadeonBo &returns = *cmd->device->rat_return_bo;
   for (unsigned id = first; id < terakan::compiler::max_storage_buffer_slots; id++) {
      cs.context_registers(reg::CB_IMMED0_BASE + 4 * id, {0}, false);
      cs.relocation(returns);
   }
   std::array<uint32_t, 8> words = reg::buffer_fetch_resource(0, uint32_t(returns.size()), 1);
   words[3] |= reg::buffer_resource_uncached;
   cs.packet(hw::pm4::SET_RESOURCE, 9);
   cs.emit((hw::gfx::ps_resource_base + terakan::compiler::rat_return_fetch_resource) * 8);
   for (uint32_t word : words)
      cs.emit(word);
   cs.relocation(returns);
}

} // namespace

std::array<uint32_t, 8> terakan_storage_image_resource_words(const terakan_image_view *view)
{
   if (view->vk.view_type != VK_IMAGE_VIEW_TYPE_CUBE && view->vk.view_type != VK_IMAGE_VIEW_TYPE_CUBE_ARRAY)
      return view->resource_words;
   /* The faces stay BASE_ARRAY..LAST_ARRAY; TEX_DEPTH counts layers instead of cubes. */
   const auto *device = container_of(view->image->vk.base.device, const terakan_device, vk);
   const hw::IsaClass isa = device->physical->family->isa_class;
   hw::TextureResource resource = hw::decode_texture_resource(view->resource_words, isa);
   resource.dim = hw::TextureDim::Dim2DArray;
   resource.depth = view->image->surface.layers;
   return hw::encode_texture_resource(resource, isa);
}

uint32_t terakan_emit_storage_image_rats(terakan_cmd_buffer *cmd, CommandStream &cs)
{
   return emit_image_rats(cs, cmd->pipeline->textures, cmd->sets, 0, true);
}

/* A pixel shader's RATs follow the colour targets (the compiler numbered them from
 * CompileOptions::colour_targets, r600g's rat_base); the draw's colour count must be the one
 * the pipeline was made for, which Vulkan requires of compatible render passes too. They are
 * bound after the colour targets, whose loop clears CB_COLORn_INFO of the slots it does not
 * use. */
bool terakan_emit_pixel_shader_rats(terakan_cmd_buffer *cmd, CommandStream &cs, const terakan_graphics_stage &stage,
                                    uint8_t *driver_constants, uint32_t &target_mask)
{
   const terakan::compiler::ShaderBinary &binary = stage.binary;
   const bool writes_memory = !binary.rat_slots.empty() || !binary.image_rats.empty();
   const terakan_graphics_pipeline *g = cmd->graphics_pipeline ? cmd->graphics_pipeline->graphics : nullptr;
   const unsigned rat_base = g && g->state.rp ? g->state.rp->color_attachment_count : 0;
   if (writes_memory && cmd->rendering.colour_count > rat_base) {
      terakan_cmd_fail(cmd, VK_ERROR_UNKNOWN,
                       "the rendering has more colour attachments than the pipeline that writes memory from its "
                       "fragment shader was made for (its RATs follow the pipeline's colour attachments)");
      return false;
   }
   for (const terakan_slot_source &slot : stage.slots) {
      terakan_descriptor d;
      if (!terakan_slot_descriptor(cmd->graphics_sets, slot, d))
         continue;
      /* Sizes for OpArrayLength and the robust-access clamps, as a dispatch writes them. */
      if (slot.slot < terakan::compiler::max_storage_buffer_slots) {
         const uint32_t size = uint32_t(std::min<uint64_t>(d.range, UINT32_MAX));
         const uint32_t last_dword = size >= 4 ? size / 4 - 1 : 0;
         std::memcpy(driver_constants + 4 * (terakan::compiler::storage_buffer_size_constants + slot.slot), &size, 4);
         std::memcpy(driver_constants + 4 * (terakan::compiler::storage_buffer_last_dword_constants + slot.slot),
                     &last_dword, 4);
      }
      if (slot.rat) {
         terakan_emit_draw_buffer_rat(cs, rat_base + slot.slot, *d.bo, d.offset, d.range);
         target_mask |= 0xfu << (4 * (rat_base + slot.slot));
      }
   }
   target_mask |= emit_image_rats(cs, stage.textures, cmd->graphics_sets, rat_base, false);
   if (binary.rat_returns)
      emit_pixel_rat_returns(cmd, cs, rat_base);
   return true;
}
