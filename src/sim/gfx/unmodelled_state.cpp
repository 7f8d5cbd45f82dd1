#include "unmodelled_state.h"

#include <cstdio>

#include "geometry_stage.h"

namespace terakan::sim {

namespace {

enum class Chips { Both, Evergreen, Cayman };

/* One register: the bits that matter to the picture and the value they must hold. Field
 * positions from Mesa's r600 evergreend.h (DB_RENDER_OVERRIDE, PA_SC_LINE_CNTL, VGT_GS_MODE,
 * SQ_PGM_RESOURCES_2_*); the modelled values are what r600g writes on every chip (seen in its
 * command streams on the simulator) and what the kernel's default state holds. */
struct UnmodelledRegister {
   uint32_t reg;
   const char *name;
   Chips chips;
   uint32_t mask;     /* the bits checked */
   uint32_t modelled; /* their only modelled value */
   const char *why;   /* what a different value would do */
};

constexpr UnmodelledRegister registers[] = {
   /* FORCE_SHADER_Z_ORDER [6], FORCE_COLOR_KILL [10], DISABLE_VIEWPORT_CLAMP [16],
    * IGNORE_SC_ZRANGE [17] and the bits without a name; the HiZ/HiS forcing, FAST_Z/STENCIL,
    * NOOP_CULL, FORCE_Z/STENCIL_READ, FULL_Z_RANGE, QC_SMASK and DISABLE_PIXEL_RATE_TILES bits
    * are performance switches (r600g sets HIS_ENABLE0/1 to FORCE_DISABLE, NOOP_CULL_DISABLE for
    * occlusion queries, DISABLE_PIXEL_RATE_TILES for some draws). */
   {0x2800C, "DB_RENDER_OVERRIDE", Chips::Both, 0xFBFF0440u, 0, "depth ordering, colour kill or the viewport depth clamp"},
   {0x28010, "DB_RENDER_OVERRIDE2", Chips::Both, 0xFFFFFFFFu, 0, "its fields are not documented for TeraScale"},
   {0x2820C, "PA_SC_CLIPRECT_RULE", Chips::Both, 0xFFFFu, 0xFFFFu, "cliprects would mask pixels"},
   {0x28230, "PA_SC_EDGERULE", Chips::Both, 0xFFFFFFFFu, 0xAAAAAAAAu, "another fill rule for edges on sample points"},
   {0x28234, "PA_SU_HARDWARE_SCREEN_OFFSET", Chips::Both, 0xFFFFFFFFu, 0, "positions would move"},
   {0x28400, "VGT_MAX_VTX_INDX", Chips::Both, 0xFFFFFFFFu, 0xFFFFFFFFu, "indices would be clamped"},
   {0x28404, "VGT_MIN_VTX_INDX", Chips::Both, 0xFFFFFFFFu, 0, "indices would be clamped"},
   {0x286DC, "SPI_FOG_CNTL", Chips::Both, 0xFFFFFFFFu, 0, "the SPI would pass fog to the pixel shader"},
   {0x286E4, "SPI_PS_IN_CONTROL_2", Chips::Both, 0xFFFFFFFFu, 0, "line stipple texture coordinates"},
   {0x28820, "PA_CL_NANINF_CNTL", Chips::Both, 0xFFFFFFFFu, 0, "another treatment of NaN and infinite positions"},
   {0x2882C, "PA_SU_PRIM_FILTER_CNTL", Chips::Both, 0xFFFFFFFFu, 0, "primitives would be filtered out"},
   /* SINGLE_ROUND [1:0], DOUBLE_ROUND [3:2]: 0 is round to nearest even, what the ALU model
    * does. The denormal bits are not checked: the model keeps denormals either way
    * (docs/sim-semantics.md). */
   {0x28848, "SQ_PGM_RESOURCES_2_PS", Chips::Both, 0xFu, 0, "another rounding mode"},
   {0x28864, "SQ_PGM_RESOURCES_2_VS", Chips::Both, 0xFu, 0, "another rounding mode"},
   {0x28A10, "VGT_OUTPUT_PATH_CNTL", Chips::Both, 0xFFFFFFFFu, 0, "another VGT output path"},
   {0x28A14, "VGT_HOS_CNTL", Chips::Both, 0xFFFFFFFFu, 0, "tessellation"},
   {0x28A24, "VGT_GROUP_PRIM_TYPE", Chips::Both, 0xFFFFFFFFu, 0, "the VGT's vertex grouping"},
   {0x28A28, "VGT_GROUP_FIRST_DECR", Chips::Both, 0xFFFFFFFFu, 0, "the VGT's vertex grouping"},
   {0x28A2C, "VGT_GROUP_DECR", Chips::Both, 0xFFFFFFFFu, 0, "the VGT's vertex grouping"},
   {0x28A30, "VGT_GROUP_VECT_0_CNTL", Chips::Both, 0xFFFFFFFFu, 0, "the VGT's vertex grouping"},
   {0x28A34, "VGT_GROUP_VECT_1_CNTL", Chips::Both, 0xFFFFFFFFu, 0, "the VGT's vertex grouping"},
   {0x28A38, "VGT_GROUP_VECT_0_FMT_CNTL", Chips::Both, 0xFFFFFFFFu, 0, "the VGT's vertex component conversion"},
   {0x28A3C, "VGT_GROUP_VECT_1_FMT_CNTL", Chips::Both, 0xFFFFFFFFu, 0, "the VGT's vertex component conversion"},
   /* MODE and ES_PASSTHRU [2:0], COMPUTE_MODE [14] (r600g sets it in the compute context only). */
   {0x28A40, "VGT_GS_MODE", Chips::Both, 0x4007u, 0, "a geometry shader, sprite or compute mode"},
   {0x28A84, "VGT_PRIMITIVEID_EN", Chips::Both, 0x1u, 0, "primitive ids the VGT would generate"},
   {0x28AA0, "VGT_INSTANCE_STEP_RATE_0", Chips::Both, 0xFFFFFFFFu, 1, "instance data fetched at another rate"},
   {0x28AA4, "VGT_INSTANCE_STEP_RATE_1", Chips::Both, 0xFFFFFFFFu, 1, "instance data fetched at another rate"},
   {0x28B54, "VGT_SHADER_STAGES_EN", Chips::Both, 0xFFFFFFFFu, 0, "stages other than the vertex shader"},
   /* Cayman's centroid order: sample n has priority n, the covered sample with the lowest
    * index is the centroid (the simulator's rule; r600g writes exactly this). */
   {0x28BD4, "PA_SC_CENTROID_PRIORITY_0", Chips::Cayman, 0xFFFFFFFFu, 0x76543210u, "another centroid order"},
   {0x28BD8, "PA_SC_CENTROID_PRIORITY_1", Chips::Cayman, 0xFFFFFFFFu, 0xFEDCBA98u, "another centroid order"},
   /* BRES_CNTL [7:0] and PERPENDICULAR_ENDCAP_ENA [11]; EXPAND_LINE_WIDTH [9], LAST_PIXEL [10]
    * and DX10_DIAMOND_TEST_ENA [12] only touch line ends, which the simulator's line rule does
    * not model either way (docs/sim-semantics.md, "Lines"). */
   {0x28BDC, "PA_SC_LINE_CNTL", Chips::Cayman, 0x8FFu, 0, "other line ends"},
   {0x28C00, "PA_SC_LINE_CNTL", Chips::Evergreen, 0x8FFu, 0, "other line ends"},
};

} // namespace

std::string check_unmodelled_state(const PipelineState &state)
{
   const bool cayman = state.isa == hw::IsaClass::Cayman;
   /* A geometry shader as r600g sets one up: gfx/geometry_stage.cpp reads VGT_GS_MODE and
    * VGT_SHADER_STAGES_EN then (VGT_PRIMITIVEID_EN stays refused: r600g leaves it 0 with a GS). */
   const bool geometry = geometry_shader_enabled(state);
   for (const UnmodelledRegister &r : registers) {
      if (r.chips != Chips::Both && (r.chips == Chips::Cayman) != cayman)
         continue;
      if (geometry && (r.reg == 0x28A40 || r.reg == 0x28B54))
         continue;
      const auto written = state.context->find(r.reg);
      if (written == state.context->end() || (written->second & r.mask) == r.modelled)
         continue;
      char text[192];
      std::snprintf(text, sizeof(text), "not simulated: %s = 0x%08x (%s; the simulator models 0x%08x in mask 0x%08x)",
                    r.name, written->second, r.why, r.modelled, r.mask);
      return text;
   }
   return {};
}

} // namespace terakan::sim
