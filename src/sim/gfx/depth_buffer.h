/* The depth block (DB): the bound depth and stencil buffers decoded from DB_Z_INFO,
 * DB_STENCIL_INFO, DB_DEPTH_SIZE/SLICE/VIEW and their bases, and the depth, stencil and alpha
 * tests of one fragment with their buffer updates. */
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "core/gpu_memory.h"
#include "gfx/draw.h"
#include "hw/surface.h"

namespace terakan::sim {

struct StencilFace {
   uint32_t func = 7, fail = 0, depth_pass = 0, depth_fail = 0; /* DB_DEPTH_CONTROL codes */
   uint8_t reference = 0, mask = 0xff, write_mask = 0xff;      /* DB_STENCILREFMASK(_BF) */
};

struct DepthStencilTarget {
   /* Tests */
   bool depth_test = false, depth_write = false;
   uint32_t depth_func = 7;
   bool stencil_test = false;
   StencilFace front, back;
   bool depth_from_shader = false; /* DB_SHADER_CONTROL.Z_EXPORT_ENABLE */
   /* DB_SHADER_CONTROL.STENCIL_REF_EXPORT_ENABLE [1]: PIXEL 61's y (an integer, its low 8 bits)
    * is the stencil reference of both faces (Mesa r600_shader.c's export table). */
   bool stencil_from_shader = false;
   bool mask_from_shader = false;  /* DB_SHADER_CONTROL.MASK_EXPORT_ENABLE */
   float depth_min = 0.0f, depth_max = 1.0f; /* PA_SC_VPORT_ZMIN_0 / ZMAX_0 */
   bool alpha_test = false;
   uint32_t alpha_func = 7;
   float alpha_reference = 0.0f;

   /* Buffers */
   uint32_t depth_format = 0; /* DB_Z_INFO.FORMAT */
   uint8_t *depth_data = nullptr, *stencil_data = nullptr;
   hw::LevelAddressing depth_addressing, stencil_addressing;
   unsigned width = 0, height = 0;
   /* Samples per pixel (Cayman: DB_Z_INFO.NUM_SAMPLES; Evergreen: PA_SC_AA_CONFIG), each
    * tested and stored on its own, a pixel's samples side by side (hw/surface.h). */
   unsigned samples = 1;
   /* The slice tested and written: DB_DEPTH_VIEW.SLICE_START, moved per primitive by a render
    * target index from the vertex shader up to SLICE_MAX (draw.cpp); the buffers are held
    * from slice 0 to last_slice. */
   unsigned slice = 0, first_slice = 0, last_slice = 0;

   bool any_test() const { return depth_test || stencil_test; }
};

/* Decodes the DB and SX alpha-test state. Returns false with a message if the state is something
 * the simulator refuses (HTILE, copies through the CB, 2D tiling, ...). A draw without a depth
 * or stencil test gets a target whose any_test() is false. */
bool decode_depth_stencil(const PipelineState &, GpuMemory &, DepthStencilTarget &, std::string &error);

/* The alpha test on colour export 0's alpha (SX_ALPHA_TEST_CONTROL). True if the fragment
 * passes. */
bool alpha_test_passes(const DepthStencilTarget &, float alpha);

/* Runs the stencil and depth tests of sample `sample` of the fragment at (x, y) with depth `z` (already the
 * shader's export if it writes one), updates the buffers as the operations say, and returns
 * whether the fragment survives to the colour buffers. */
/* `exported_reference`: the pixel shader's stencil reference (STENCIL_REF_EXPORT_ENABLE), or
 * -1 for DB_STENCILREFMASK's. */
bool depth_stencil_test(DepthStencilTarget &, unsigned x, unsigned y, unsigned sample, float z, bool front_facing,
                        int exported_reference = -1);

/* Reads a depth value back as a float in [0, 1] (tests and dumps; sample 0). */
float read_depth(const DepthStencilTarget &, unsigned x, unsigned y);
uint8_t read_stencil(const DepthStencilTarget &, unsigned x, unsigned y);

} // namespace terakan::sim
