/* The texture unit: what a TEX clause instruction (SAMPLE, SAMPLE_L, SAMPLE_LB, SAMPLE_LZ, their
 * depth-comparing SAMPLE_C forms, LD, GET_TEXTURE_RESINFO; on multisampled resources LD,
 * LDFPTR and GET_NUMBER_OF_SAMPLES) returns for one lane, given the texture resource, the sampler and the
 * coordinates. Addressing goes through src/hw/surface, so the driver, the checker and this
 * agree on where every texel lives. docs/sim-semantics.md ("Textures") lists the rules, their
 * sources, and which are derived. */
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/gpu_memory.h"
#include "hw/chips.h"
#include "hw/surface.h"
#include "hw/texture.h"

namespace terakan::sim {

/* A texture resource with its levels located in memory. */
struct TextureView {
   hw::TextureResource resource;
   unsigned bytes_per_element = 0;
   unsigned block_dim = 1;
   struct Level {
      const uint8_t *data = nullptr; /* host bytes of the level */
      uint64_t size = 0;
      unsigned width = 1, height = 1, depth = 1; /* texels (depth: 3D only) */
      unsigned pitch = 0, aligned_height = 0;    /* elements */
      hw::ArrayMode mode = hw::ArrayMode::LinearAligned;
      /* 2D levels: the pipe/bank swizzle the level's address selects (see docs/sim-semantics.md). */
      hw::BankPipeSwizzle swizzle;
   };
   std::vector<Level> levels; /* absolute level numbers 0..LAST_LEVEL */
   unsigned layers = 1;       /* array slices in memory (LAST_ARRAY + 1), 1 for 1D/2D/3D */
   hw::TilingConfig tiling;   /* the board's */
   hw::MacroTiling macro;     /* from the resource's tiling fields (2D only) */
   /* Multisampled resources (DIM 2D_MSAA, 2D_ARRAY_MSAA): one level of `samples` fragments a
    * pixel, laid out as the colour block writes them, and the FMASK at MIP_ADDRESS (data null
    * when MIP_ADDRESS is 0). */
   unsigned samples = 1;
   hw::LevelAddressing colour_addressing;
   struct Fmask {
      const uint8_t *data = nullptr;
      uint64_t size = 0;
      hw::LevelAddressing addressing;
   } fmask;
};

/* Locates every level of `resource` (level 0 at BASE_ADDRESS, levels 1.. packed from
 * MIP_ADDRESS) and checks that each lies inside one buffer. 2D-tiled resources use the
 * board's `tiling` (pipes, group size) with the bank count and bank/aspect/split fields of the
 * words; levels smaller than one macro tile are found to be 1D tiled the way the layout
 * places them. */
bool prepare_texture_view(const hw::TextureResource &resource, const hw::TilingConfig &tiling, GpuMemory &memory,
                          TextureView &view, std::string &error);

/* LdFmask is LDFPTR (LD with INST_MOD 1), NumSamples GET_NUMBER_OF_SAMPLES, Gather GATHER4
 * (and GATHER4_C with `compare`), GetLod GET_LOD (textureQueryLod). */
enum class TexOp { Sample, SampleL, SampleLB, SampleLZ, Ld, ResInfo, LdFmask, NumSamples, Gather, GetLod };

struct TexRequest {
   TexOp op = TexOp::Sample;
   std::array<uint32_t, 4> source{}; /* the four selected source values (raw bits) */
   std::array<bool, 4> normalized{}; /* COORD_TYPE_X..W */
   std::array<int, 3> offset_halves{}; /* OFFSET_X/Y/Z: signed, in half texels */
   /* The SAMPLE_C forms (SAMPLE_C, _C_L, _C_LB, _C_LZ with op Sample, SampleL, SampleLB,
    * SampleLZ): every texel is compared with a reference by the sampler's
    * DEPTH_COMPARE_FUNCTION before filtering. The reference is source w, or source z for
    * SAMPLE_C_L and SAMPLE_C_LB, whose w holds the LOD or bias. */
   bool compare = false;
   /* Which of the four results the instruction's DST_SEL reads: a result with no defined value
    * (GET_TEXTURE_RESINFO's z on a cube) is refused only when it is read. */
   std::array<bool, 4> result_used{true, true, true, true};
   /* Pixel shaders: the coordinates' differences across the quad, d/dx then d/dy, for x, y, z
    * (in the coordinates' own units: the texture unit scales normalized ones by the base
    * level's size). SAMPLE and SAMPLE_LB take their level of detail from them; without them
    * (compute, vertex shaders) SAMPLE uses level of detail 0. */
   bool has_derivatives = false;
   bool explicit_gradients = false; /* SAMPLE_G: the derivatives came from SET_GRADIENTS_H/V */
   std::array<std::array<float, 3>, 2> derivatives{};
   /* With derivatives: the quad's top-left, top-right and bottom-left sources (raw bits), from
    * which a cube's differences are taken on this lane's face (see implicit_lod). */
   std::array<std::array<uint32_t, 4>, 3> quad{};
   /* GATHER4: the component of each texel returned (INST_MOD), and whether the four texels come
    * back in Cayman's order (Vulkan's) or in the Evergreen class's (see run_gather). */
   unsigned gather_component = 0;
   bool cayman_gather_order = true;
};

/* The four values after the resource's DST_SEL (raw bits: floats, or integers for
 * NUM_FORMAT_ALL = INT and for LD/RESINFO counts). Returns false with `error` for what is not
 * simulated or has no defined result. */
bool texture_execute(const TextureView &view, const hw::Sampler &sampler,
                     const std::array<float, 4> &register_border, const TexRequest &request,
                     std::array<uint32_t, 4> &result, std::string &error);

/* Anisotropic filtering (docs/sim-semantics.md "Textures"; derived: no public document gives
 * TeraScale's algorithm, so this is the one the Vulkan specification describes under "Texel
 * Anisotropic Filtering" and its level-of-detail rules). From the lengths ρx and ρy of the
 * coordinates' differences along x and y (in base-level texels) and the most probes the sampler
 * allows: N = min(ceil(ρmax / ρmin), max_probes) isotropic probes (max_probes when ρmin is 0
 * and ρmax is not; 1 when both are 0), spread along the screen axis of the longer difference,
 * with λ = log2(ρmax / N). */
struct AnisotropicFootprint {
   unsigned probes = 1;
   unsigned major = 0; /* 0: the probes follow d/dx (ρx > ρy), 1: d/dy (ρy >= ρx) */
   float lod = 0.0f;   /* before biases and clamps; -infinity when ρmax is 0 or NaN */
};
AnisotropicFootprint anisotropic_footprint(double rho_x, double rho_y, unsigned max_probes);
/* Probe i of N (0-based) sits at (i + 1) / (N + 1) - 1/2 of the major difference from the
 * lane's coordinates (Vulkan's x - 1/2 + i / (N + 1), i = 1..N). */
float anisotropic_probe_offset(unsigned i, unsigned probes);

/* Helpers the tests use to compute expectations independently of the filtering code. */
float srgb_to_linear(float c);
float half_to_float(uint16_t h);

/* Cube maps. A texel position on a face, in the face's texel indices; i and j may lie one
 * texel outside [0, size) (a bilinear footprint over an edge). */
struct CubeTexel {
   unsigned face = 0; /* 0 +X, 1 -X, 2 +Y, 3 -Y, 4 +Z, 5 -Z */
   int i = 0, j = 0;
};

/* The texel of the adjacent face that lies across the edge from a position exactly one texel
 * outside `size` in i or in j (not both): Vulkan's "Cube Map Edge Handling" table, computed
 * from the face orientation table rather than listed. */
CubeTexel cube_texel_across_edge(const CubeTexel &outside, int size);

} // namespace terakan::sim
