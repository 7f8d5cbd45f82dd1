/* Typed RAT stores (MEM_RAT STORE_TYPED): a colour buffer bound with CB_COLORn_INFO.RAT and a
 * RESOURCE_TYPE, written element by element at the coordinates of the instruction's index GPR,
 * with the data converted as the colour block converts a pixel shader's export
 * (gfx/colour_buffer.cpp). docs/sim-semantics.md, "Typed RAT stores". */
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>

#include "core/gpu_memory.h"
#include "gfx/colour_buffer.h"
#include "hw/surface.h"

namespace terakan::sim {

/* CB_COLORn_INFO.RESOURCE_TYPE (Mesa evergreend.h V_028C70_BUFFER .. TEXTURE3D). */
enum class RatResourceType : uint8_t { Buffer = 0, Texture1D, Texture1DArray, Texture2D, Texture2DArray, Texture3D };

struct TypedRat {
   ColourTarget target;
   RatResourceType type = RatResourceType::Buffer;
   /* Largest coordinate each axis takes: CB_COLORn_DIM WIDTH_MAX/HEIGHT_MAX (a buffer's DIM is
    * its element count - 1), and the slices SLICE_START..SLICE_MAX of CB_COLORn_VIEW. */
   uint32_t width_max = 0, height_max = 0;
   unsigned slice_start = 0, slice_max = 0;
};

/* Decodes CB_COLORn_* of `context` as a typed RAT. False with a message for what is not
 * simulated (multisampled RATs, undefined resource types, formats the CB cannot write). */
bool decode_typed_rat(const std::map<uint32_t, uint32_t> &context, unsigned n, const hw::TilingConfig &tiling,
                      GpuMemory &memory, TypedRat &rat, std::string &error);

/* Writes one element: index holds the index GPR's x, y, z (coordinates as integers; the slice,
 * from SLICE_START, in z for every array and 3D type), data the four channels, of which the
 * instruction's COMP_MASK writes those it names (r600g stores shader-buffer dwords with
 * COMP_MASK 0x1 on an R32 buffer RAT). False with a message for coordinates past DIM or VIEW
 * (what the hardware does with them is not known). */
bool store_typed(const TypedRat &rat, const std::array<uint32_t, 4> &index, const std::array<uint32_t, 4> &data,
                 unsigned comp_mask, std::string &error);

/* The element the index GPR's coordinates name, for RAT atomics on an image (r600g's image
 * atomics address R32 images with the coordinates as STORE_TYPED does); null with a message
 * past DIM or VIEW. */
uint8_t *typed_rat_element(const TypedRat &rat, const std::array<uint32_t, 4> &index, std::string &error);

} // namespace terakan::sim
