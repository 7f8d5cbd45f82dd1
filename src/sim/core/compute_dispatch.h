/* One compute dispatch as the shader core sees it: the program, its resources (from
 * SQ_PGM_RESOURCES_LS and friends), the bound constant buffers, fetch resources and RATs, and
 * the grid. The command processor fills this from register state; tests may fill it directly. */
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "hw/chips.h"
#include "hw/registers.h"
#include "hw/surface.h"
#include "hw/texture.h"

namespace terakan::sim {

struct ConstantBuffer {
   bool bound = false;
   uint64_t address = 0; /* SQ_ALU_CONST_CACHE_LS_n << 8 */
   uint64_t size = 0;    /* bytes: SQ_ALU_CONST_BUFFER_SIZE_LS_n * 256 */
};

/* A buffer fetch resource (SET_RESOURCE, type VALID_BUFFER): SQ_VTX_CONSTANT_WORD0..7. */
struct FetchResource {
   uint64_t address = 0;
   uint32_t size = 0;   /* bytes - 1, as WORD1 holds it */
   uint32_t stride = 0;
   uint32_t data_format = 0, num_format = 0, format_comp = 0, srf_mode = 0;
   uint32_t endian_swap = 0;
   uint32_t dst_sel[4] = {0, 1, 2, 3};
   bool uncached = false; /* WORD3.UNCACHED: fetches bypass the vertex cache */
};

/* A buffer resource's fields from its words (SQ_VTX_CONSTANT_WORD0..3). */
inline FetchResource decode_fetch_resource(const uint32_t *words)
{
   FetchResource r;
   r.address = words[0] | (uint64_t(words[2] & 0xff) << 32);
   r.size = words[1];
   r.stride = (words[2] >> 8) & 0x7ff;
   r.data_format = (words[2] >> 20) & 0x3f;
   r.num_format = (words[2] >> 26) & 3;
   r.format_comp = (words[2] >> 28) & 1;
   r.srf_mode = (words[2] >> 29) & 1;
   r.endian_swap = (words[2] >> 30) & 3;
   for (unsigned c = 0; c < 4; c++)
      r.dst_sel[c] = hw::reg::buffer_resource_dst_sel(words[3], c);
   r.uncached = (words[3] & hw::reg::buffer_resource_uncached) != 0;
   return r;
}

struct TypedRat; /* gfx/typed_rat.h */

/* A RAT: a colour buffer programmed with CB_COLORn_INFO.RAT. */
struct RatBinding {
   uint64_t address = 0; /* CB_COLORn_BASE << 8 */
   uint32_t format = 0;  /* CB_COLORn_INFO.FORMAT; COLOR_32 (0xD) is what compute uses */
   uint64_t size_limit = 0; /* bytes the kernel validated (BO size from the base) */
   /* CB_IMMEDn_BASE << 8: where returning (*_RTN) operations write the old values, located in
    * memory when one runs. */
   uint64_t return_address = 0;
   /* The colour buffer decoded for STORE_TYPED, or why it cannot be (typed_error). */
   std::shared_ptr<const TypedRat> typed;
   std::string typed_error;
};

/* A texture resource (SET_RESOURCE, type VALID_TEXTURE), decoded from its 8 words. Its memory
 * is located when a TEX instruction first uses it. */
struct TextureBinding {
   std::array<uint32_t, 8> words{};
   hw::TextureResource resource;
};

/* A sampler (SET_SAMPLER), with the TD_CS border colour written for its index, if any. */
struct SamplerBinding {
   std::array<uint32_t, 3> words{};
   hw::Sampler sampler;
   std::array<float, 4> border{0, 0, 0, 0};
};

/* Which hardware stage a program runs as: compute (LS with the compute bits), vertex (VS, with
 * its fetch shader), pixel (PS), or with a geometry shader the export shader (ES, the vertex
 * shader writing the ESGS ring, with the fetch shader) and the geometry shader (GS). */
enum class ShaderStage : uint8_t { Compute, Vertex, Pixel, Export, Geometry };

/* The fetch shader's vertex buffers are kept in `fetch_resources` under this key + their id:
 * a VS program's own fetches and the fetch shader it calls address different resource ranges
 * (Mesa r600g: vertex buffers at resource 992 + n on Evergreen, VS resources at 176 + n). */
inline constexpr unsigned fetch_shader_resource_key = 1024;

/* A stage's scratch ring as shader engine 0 sees it (SQ_LSTMP_RING_BASE/SIZE/ITEMSIZE for
 * compute): where MEM_SCRATCH writes and READ_SCRATCH fetches go (docs/sim-semantics.md,
 * "Scratch"). */
struct ScratchRing {
   uint64_t address = 0;     /* BASE << 8; 0 when never written */
   uint64_t bytes = 0;       /* SIZE << 8 */
   unsigned item_dwords = 0; /* ITEMSIZE: dwords per lane */
};

struct ComputeDispatch {
   hw::IsaClass isa = hw::IsaClass::Cayman;
   ShaderStage stage = ShaderStage::Compute;
   /* Vertex stage: the fetch shader CALL_FS runs (SQ_PGM_START_FS), empty if none. */
   std::vector<uint32_t> fetch_shader;
   uint64_t fetch_shader_address = 0;
   /* The board's tiling parameters (RADEON_INFO_TILING_CONFIG decoded): 2D-tiled textures are
    * addressed with its pipe count and group size. */
   hw::TilingConfig tiling;
   unsigned wave_size = 64;
   std::vector<uint32_t> program; /* the microcode, from SQ_PGM_START_LS */
   uint64_t program_address = 0;
   unsigned num_gprs = 0;    /* SQ_PGM_RESOURCES_LS.NUM_GPRS */
   unsigned stack_size = 0;  /* SQ_PGM_RESOURCES_LS.STACK_SIZE, in entries */
   unsigned lds_dwords = 0;  /* SQ_LDS_ALLOC.SIZE */
   unsigned loop_count = 4095; /* loop constant 0 of the LS stage, COUNT field */
   std::array<unsigned, 3> group_size{1, 1, 1};  /* SPI_COMPUTE_NUM_THREAD_X/Y/Z */
   std::array<unsigned, 3> grid{1, 1, 1};        /* DISPATCH_DIRECT */
   std::array<unsigned, 3> start{0, 0, 0};       /* VGT_COMPUTE_START_X/Y/Z */
   bool load_thread_id = true, load_group_id = true; /* SPI_COMPUTE_INPUT_CNTL */
   std::array<ConstantBuffer, 16> constant_buffers{};
   std::map<unsigned, FetchResource> fetch_resources; /* by buffer id (slot - 816) */
   std::map<unsigned, RatBinding> rats;               /* by RAT id */
   /* Pixel shaders: why the draw's DB_SHADER_CONTROL forbids memory-writing RAT operations
    * (gfx/draw.cpp, decode_shader_order), empty if it allows them. */
   std::string rat_order_problem;
   std::map<unsigned, TextureBinding> textures;       /* by resource id (slot - 816) */
   std::map<unsigned, SamplerBinding> samplers;       /* by sampler id (slot - 90) */
   ScratchRing scratch;
};

struct DispatchStatistics {
   uint64_t wavefronts = 0;
   uint64_t alu_groups = 0;
   uint64_t alu_lane_operations = 0;
   uint64_t fetches = 0;
};

/* TERAKAN_SIM_TRACE levels. */
enum class TraceLevel { None = 0, Packets = 1, Instructions = 2, Lanes = 3 };

} // namespace terakan::sim
