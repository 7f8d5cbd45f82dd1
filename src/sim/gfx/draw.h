/* The fixed-function pipeline of one draw: VGT (indices, primitives, instances), the vertex
 * shader and its fetch shader, primitive assembly, clipping and the viewport transform, scan
 * conversion, the SPI's pixel-shader inputs, the pixel shader, and the colour buffers. The
 * command processor hands it the register state; it reads and writes GPU memory. */
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/compute_dispatch.h"
#include "core/gpu_memory.h"
#include "hw/chips.h"
#include "hw/surface.h"

namespace terakan::sim {

struct StreamoutCounters; /* gfx/streamout.h */

/* Register state for callers that program it directly, without a command processor (tests,
 * benchmarks), in one place so that each need not declare it again. The windows hold the
 * vertex and pixel stages' slots: 1024 resources of 8 dwords, 64 samplers of 3, 64 loop
 * constants (the CP's, which also serve compute, are larger). */
struct RegisterMaps {
   std::map<uint32_t, uint32_t> config, context, ctl_consts;
   std::vector<uint32_t> resources = std::vector<uint32_t>(1024 * 8, 0);
   std::vector<uint32_t> samplers = std::vector<uint32_t>(64 * 3, 0);
   std::vector<uint32_t> loop_consts = std::vector<uint32_t>(64, 0);
};

/* Register state as the CP holds it. */
struct PipelineState {
   hw::IsaClass isa = hw::IsaClass::Cayman;
   unsigned wave_size = 64;
   hw::TilingConfig tiling;
   const std::map<uint32_t, uint32_t> *config = nullptr;
   const std::map<uint32_t, uint32_t> *context = nullptr;
   const std::map<uint32_t, uint32_t> *ctl_consts = nullptr;
   const std::vector<uint32_t> *resources = nullptr; /* the SET_RESOURCE window, dwords */
   const std::vector<uint32_t> *samplers = nullptr;  /* the SET_SAMPLER window, dwords */
   const std::vector<uint32_t> *loop_consts = nullptr;
   /* Border colours written through the TD_PS / TD_VS registers, by sampler slot. */
   const std::map<unsigned, std::array<float, 4>> *border_colours = nullptr;
   /* The VGT's streamout offsets and counters, which outlive the draw. */
   StreamoutCounters *streamout = nullptr;

   uint32_t get(uint32_t reg) const;

   /* Points the register fields at maps and windows that outlive the draw (the CP's own, or
    * a RegisterMaps); the ISA, wave size, tiling, border colours and streamout stay as they
    * are, since not every holder has them. */
   void point_at(const std::map<uint32_t, uint32_t> &config_registers,
                 const std::map<uint32_t, uint32_t> &context_registers,
                 const std::map<uint32_t, uint32_t> &ctl_const_registers, const std::vector<uint32_t> &resource_window,
                 const std::vector<uint32_t> &sampler_window, const std::vector<uint32_t> &loop_const_window)
   {
      config = &config_registers;
      context = &context_registers;
      ctl_consts = &ctl_const_registers;
      resources = &resource_window;
      samplers = &sampler_window;
      loop_consts = &loop_const_window;
   }
   void point_at(const RegisterMaps &registers)
   {
      point_at(registers.config, registers.context, registers.ctl_consts, registers.resources, registers.samplers,
               registers.loop_consts);
   }
};

/* One DRAW_* packet. */
struct DrawCall {
   uint32_t count = 0;      /* indices (or vertices for auto-index draws) */
   bool indexed = false;    /* indices from memory or the packet */
   uint64_t index_address = 0;
   uint64_t index_bytes_available = 0; /* for the bounds check */
   bool index_32bit = false;
   std::vector<uint32_t> immediate; /* DRAW_INDEX_IMMD: the packet's index dwords */
   bool immediate_indices = false;
   uint32_t instances = 1;
};

struct DrawStatistics {
   uint64_t vertices = 0, primitives = 0, pixels_shaded = 0, pixels_written = 0;
   /* Samples that passed the depth and stencil tests while DB_COUNT_CONTROL lets the ZPASS
    * counters count (what occlusion queries read through EVENT_WRITE ZPASS_DONE). */
   uint64_t samples_passed = 0;
   /* For the pipeline statistics counters (SAMPLE_PIPELINESTAT): indices that were not restart
    * indices, per instance; primitives that reached the clipper (not killed by
    * DX_RASTERIZATION_KILL) and the primitives it sent on (a clipped polygon of n vertices
    * counts n - 2 triangles). */
   uint64_t input_vertices = 0, clipper_invocations = 0, clipper_primitives = 0;
};

/* Fills the program, GPR count, stack, constant buffers, fetch resources, textures and
 * samplers of one stage from register state. Returns an error message, or empty. */
std::string setup_stage(const PipelineState &, ShaderStage stage, GpuMemory &memory, ComputeDispatch &out);

/* Runs the draw. Returns an error message (the GPU would hang or fault), or empty. */
std::string run_draw(const PipelineState &, const DrawCall &, GpuMemory &, TraceLevel, DispatchStatistics &,
                     DrawStatistics &);

} // namespace terakan::sim
