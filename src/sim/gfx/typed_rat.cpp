/* Typed RAT stores (typed_rat.h). Register fields: Mesa 22.3.6 evergreend.h (CB_COLOR0_VIEW
 * SLICE_START 10:0, SLICE_MAX 23:13; CB_COLOR0_INFO RAT 26, RESOURCE_TYPE 29:27; CB_COLOR0_DIM
 * WIDTH_MAX 15:0, HEIGHT_MAX 31:16). How r600g fills them for images and buffers:
 * evergreen_set_shader_images (evergreen_state.c); the coordinate layout of the index GPR:
 * sfn_instr_mem.cpp emit_image_store (1D arrays move the layer from y to z). */
#include "typed_rat.h"

#include <cstdio>

#include "gfx/draw.h"
#include "hw/registers.h"

namespace terakan::sim {

bool decode_typed_rat(const std::map<uint32_t, uint32_t> &context, unsigned n, const hw::TilingConfig &tiling,
                      GpuMemory &memory, TypedRat &rat, std::string &error)
{
   const std::map<uint32_t, uint32_t> empty;
   const std::vector<uint32_t> no_window;
   PipelineState state;
   state.tiling = tiling;
   state.point_at(empty, context, empty, no_window, no_window, no_window);
   const uint32_t base_reg = hw::reg::CB_COLOR0_BASE + n * hw::reg::CB_COLOR_STRIDE;
   const uint32_t info = state.get(base_reg + hw::reg::Info);
   const uint32_t view = state.get(base_reg + hw::reg::View);
   const uint32_t dim = state.get(base_reg + hw::reg::Dim);
   const unsigned type = (info >> 27) & 7;
   if (type > unsigned(RatResourceType::Texture3D)) {
      error = "CB_COLOR" + std::to_string(n) + ": undefined RESOURCE_TYPE " + std::to_string(type);
      return false;
   }
   rat.type = RatResourceType(type);
   rat.slice_start = view & 0x7ff;
   rat.slice_max = (view >> 13) & 0x7ff;
   if (rat.slice_start > rat.slice_max) {
      error = "CB_COLOR" + std::to_string(n) + ": SLICE_START past SLICE_MAX in CB_COLOR_VIEW";
      return false;
   }
   uint64_t buffer_elements = 0;
   if (rat.type == RatResourceType::Buffer) {
      /* r600g writes a buffer's element count - 1 unmasked into DIM (evergreen_set_color_
       * surface_buffer); the whole register is taken as that count (derived: no document says
       * whether HEIGHT_MAX extends WIDTH_MAX for buffers). */
      rat.width_max = dim;
      rat.height_max = 0;
      buffer_elements = uint64_t(dim) + 1;
   } else {
      rat.width_max = dim & 0xffff;
      rat.height_max = dim >> 16;
   }
   if (!decode_rat_colour_target(state, n, memory, rat.target, error, rat.slice_max + 1, buffer_elements))
      return false;
   if (rat.target.msaa.fragments > 1) {
      error = "CB_COLOR" + std::to_string(n) + ": a multisampled typed RAT is not simulated";
      return false;
   }
   if (rat.type != RatResourceType::Buffer &&
       (rat.width_max >= rat.target.width || rat.height_max >= rat.target.height)) {
      error = "CB_COLOR" + std::to_string(n) + ": CB_COLOR_DIM is larger than PITCH and SLICE describe";
      return false;
   }
   return true;
}

uint8_t *typed_rat_element(const TypedRat &rat, const std::array<uint32_t, 4> &index, std::string &error)
{
   uint32_t x = index[0], y = 0, slice = 0;
   switch (rat.type) {
   case RatResourceType::Buffer:
   case RatResourceType::Texture1D: break;
   case RatResourceType::Texture1DArray: slice = index[2]; break;
   case RatResourceType::Texture2D: y = index[1]; break;
   case RatResourceType::Texture2DArray:
   case RatResourceType::Texture3D: y = index[1]; slice = index[2]; break;
   }
   if ((rat.type == RatResourceType::Buffer && x >= rat.target.width) || x > rat.width_max || y > rat.height_max || uint64_t(slice) + rat.slice_start > rat.slice_max) {
      char text[160];
      std::snprintf(text, sizeof(text),
                    "STORE_TYPED at (%u, %u, slice %u) outside the RAT (DIM %u x %u, slices %u..%u): what the "
                    "hardware does then is not known",
                    x, y, slice, rat.width_max + 1, rat.height_max + 1, rat.slice_start, rat.slice_max);
      error = text;
      return nullptr;
   }
   const uint64_t offset =
      hw::surface_level_texel_offset(rat.target.addressing, x, y, slice + rat.slice_start);
   if (offset + rat.target.element_bytes > rat.target.size) {
      error = "STORE_TYPED: element beyond the RAT's memory";
      return nullptr;
   }
   return rat.target.data + offset;
}

bool store_typed(const TypedRat &rat, const std::array<uint32_t, 4> &index, const std::array<uint32_t, 4> &data,
                 unsigned comp_mask, std::string &error)
{
   uint8_t *element = typed_rat_element(rat, index, error);
   if (!element)
      return false;
   if (comp_mask == 0xf) {
      write_element(rat.target, element, data, nullptr);
   } else {
      ColourTarget masked = rat.target;
      masked.write_mask = comp_mask;
      write_element(masked, element, data, nullptr);
   }
   return true;
}

} // namespace terakan::sim
