/* The shader compiler's public face: SPIR-V in, a TeraScale shader binary out.
 *
 * Compute ABI (what the driver binds and what the compiler assumes; docs/compiler.md):
 *  - buffers: CompileOptions::buffer_bindings maps (set, binding) to a slot; loads go through
 *    fetch buffer `slot` (byte addresses), storage-buffer stores through RAT `slot` (dword
 *    indices, slot < 8). Without a map, set 0 binding b is slot b;
 *  - push constants: constant buffer 0 (read through kcache); when indexed at run time, the same
 *    bytes through fetch resource 16 (push_constants_fetched);
 *  - driver constants (number of workgroups): constant buffer 1, dwords 0-2;
 *  - uniform buffers read at constant offsets: constant buffers 2-15 (kcache_slots);
 *  - local invocation id preloaded in R0.xyz, workgroup id in R1.xyz.
 *
 * Vertex and pixel shaders (compile_graphics; docs/compiler.md, "Graphics ABI"): vertex input
 * location l is fetched from VS buffer id vertex_input_first_resource + l, whose fetch
 * resource carries the attribute's format, stride and address; the registers the driver must
 * program for the SPI and friends come back in ShaderBinary::graphics.
 */
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "hw/chips.h"

namespace terakan::compiler {

/* Which debug output to print to stderr while compiling (TERAKAN_DEBUG flags). */
struct DebugOptions {
   bool dump_nir = false;     /* "nir": NIR after SPIR-V translation and after our pipeline */
   bool dump_shader = false;  /* "shaders": the final disassembly */
   bool dump_ir = false;      /* "ir": the backend IR after selection and after scheduling */
};

DebugOptions debug_options_from_environment();

/* Where the buffers of one descriptor binding live in the hardware: element i of the binding
 * is fetch resource (buffer id) first_slot + i, and for storage buffers also RAT
 * first_slot + i. The driver derives these from the pipeline layout. */
struct BufferBinding {
   unsigned set = 0, binding = 0, count = 1;
   unsigned first_slot = 0;
   bool storage = false;
};

/* Constant buffers 2-15 (after the push constants, 0, and the driver constants, 1) hold the
 * uniform buffers a program reads through the constant cache (ShaderBinary::kcache_slots). */
inline constexpr unsigned first_kcache_uniform_buffer = 2;
inline constexpr unsigned max_kcache_uniform_buffers = 14;
/* Fetch resource through which push constants indexed at run time are read. */
inline constexpr unsigned push_constant_fetch_resource = 16;

/* Hardware limits of the buffer slots the compiler may be given. */
inline constexpr unsigned max_storage_buffer_slots = 8; /* RATs 0-7 (CB_COLOR0-7) */
inline constexpr unsigned first_uniform_buffer_slot = 17; /* after the push-constant fetch (16) */
inline constexpr unsigned max_fetch_buffer_slots = 176;   /* compute buffer ids 0-175 */

/* RAT returns (storage-buffer atomics whose result is used): a returning MEM_RAT operation
 * writes the old value to the RAT's return buffer (CB_IMMEDn_BASE) at the dword index
 * (SE_ID * 256 + HW_WAVE_ID) * 64 + lane, which no two waves in flight share (r600g's
 * return address, sfn_shader.cpp; its buffer is max_se * 256 * 64 elements,
 * evergreen_setup_immed_buffer); the program reads it back through this fetch resource after
 * a WAIT_ACK. The driver points every RAT's CB_IMMEDn_BASE and this resource (UNCACHED) at one
 * buffer of rat_return_buffer_bytes: two shader engines, the most these chips have (Mesa's
 * radeon_drm_winsys.c: max_se 2 for Cypress, Hemlock, Barts and Cayman, 1 for the others). */
inline constexpr unsigned rat_return_fetch_resource = 175;
inline constexpr unsigned rat_return_buffer_bytes = 2 * 256 * 64 * 4;

/* A specialization constant's value (VkSpecializationInfo, already read by the driver). */
struct SpecializationConstant {
   uint32_t id = 0;
   uint64_t bits = 0;  /* the value's bytes, little-endian, zero-extended */
   unsigned bytes = 4; /* 1, 2, 4 or 8 */
};

/* How a sampler element's coordinates are chosen when the sampler is known at compile time
 * (an immutable sampler). */
enum class SamplerCoordinates : uint8_t { Unknown, Normalized, Unnormalized };

/* Where the images and samplers of one descriptor binding live: element i of the binding is
 * texture resource first_resource + i and/or sampler first_sampler + i. A combined
 * image-sampler has both; a sampled image only a resource; a sampler only a sampler. */
struct TextureBinding {
   unsigned set = 0, binding = 0, count = 1;
   bool has_image = false, has_sampler = false;
   unsigned first_resource = 0, first_sampler = 0;
   /* Storage images and storage texel buffers: element i is also written through RAT
    * first_rat + i (typed stores); -1 for every other kind. */
   int first_rat = -1;
   /* Per element; empty or Unknown: set at bind time. */
   std::vector<SamplerCoordinates> immutable;
};

/* Hardware limits of the texture slots: compute resources 0-175 are shared with buffers, and
 * a stage has 18 samplers. */
inline constexpr unsigned max_texture_resource_slots = 176;
inline constexpr unsigned max_sampler_slots = 18;
/* Without a map (the corpus ABI), set 0 binding b is texture resource
 * default_first_texture_resource + b and sampler b. */
inline constexpr unsigned default_first_texture_resource = 32;
/* The driver-constant dword (constant buffer 1) holding the mask of dynamically indexed
 * samplers that need unnormalized coordinates; one bit per SamplerRecord with `dynamic`. */
inline constexpr unsigned unnormalized_mask_constant = 3;
/* Driver-constant dwords 4-11: the byte size of the range bound to storage buffer slot 0-7
 * (OpArrayLength reads it: get_ssbo_size). */
inline constexpr unsigned storage_buffer_size_constants = 4;
/* Driver-constant dwords 12-19: the last dword index inside the range bound to storage buffer
 * slot 0-7 (range / 4 - 1, at least 0). With robust buffer access every RAT index is clamped
 * to it: Vulkan lets out-of-bounds writes land anywhere in the buffer's own memory, and the
 * simulator (like the documents) gives no bound the hardware would enforce. */
inline constexpr unsigned storage_buffer_last_dword_constants = 12;
inline constexpr unsigned max_sampler_records = 32;
/* Vertex shaders: driver-constant dwords 0-2 (what compute shaders read as the number of
 * workgroups) hold BaseVertex (vkCmdDraw's firstVertex, vkCmdDrawIndexed's vertexOffset),
 * BaseInstance (firstInstance) and DrawIndex (0, or the draw's index in a multi-draw). */
inline constexpr unsigned base_vertex_constant = 0;
inline constexpr unsigned base_instance_constant = 1;
inline constexpr unsigned draw_index_constant = 2;
/* Vertex and pixel shaders: driver-constant dword 20 holds ViewIndex. The driver draws a
 * multiview render pass once per view in its view mask (on a different layer each time), and
 * writes the view's index here before each of those draws. */
inline constexpr unsigned view_index_constant = 20;
/* Pixel shaders: driver-constant dword 21 is 0 when the draw shades per sample and ~0
 * otherwise: SampleMaskIn is the SPI's pixel coverage & ((1 << SampleId) | dword 21), the
 * invocation's own sample under per-sample shading and every covered sample otherwise. */
inline constexpr unsigned sample_mask_keep_constant = 21;
/* Pixel shaders: driver-constant dword 22 holds the mask of the draw's samples ((1 << samples)
 * - 1): a SampleMask output that keeps none of them discards the invocation. */
inline constexpr unsigned sample_count_mask_constant = 22;
/* Pixel shaders: driver-constant dwords 24-39 hold SamplePosition of samples 0-7 ((x, y) in
 * [0, 1), floats) for the draw's sample count, as the driver programs PA_SC_AA_SAMPLE_LOCS;
 * (0.5, 0.5) for sample 0 of a single-sample draw. */
inline constexpr unsigned sample_positions_constant = 24;
inline constexpr unsigned max_sample_positions = 8;
/* Vertex shaders compiled for dynamic vertex input (CompileOptions::dynamic_vertex_input;
 * VK_EXT_vertex_input_dynamic_state): driver-constant dword 21 holds the mask of locations
 * fetched per instance (bit l: location l), dword 23 the mask of those whose binding's divisor
 * is not 1, dwords 24-39 the divisor of location 0-15's binding (1 for per-vertex locations; 0
 * allowed). These dwords mean something else only in pixel shaders (above), whose driver
 * constants are a buffer of their own. */
inline constexpr unsigned vertex_input_instance_mask_constant = 21;
inline constexpr unsigned vertex_input_divided_mask_constant = 23;
inline constexpr unsigned vertex_input_divisor_constants = 24;
inline constexpr unsigned max_dynamic_vertex_inputs = 16;
/* Every stage: driver-constant dwords 40-63 hold a size of the texture resource bound at
 * ShaderBinary::resource_size_slots[i], in dword 40 + i, that no fetch instruction returns:
 *  - a texel buffer (uniform or storage): its element count, for textureSize and imageSize. The
 *    fetch resource holds the size, but no fetch instruction returns it for a buffer (r600g keeps
 *    buffer sizes in a constant buffer of its own for the same reason:
 *    R600_BUFFER_INFO_CONST_BUFFER). The driver writes range / texel size of the bound view.
 *  - a cube array view: its number of cubes (layer count / 6), textureSize's z. What
 *    GET_TEXTURE_RESINFO returns in z for a cube array is in no document we have, and r600g
 *    does not read it either: it takes the count from that same constant buffer. */
inline constexpr unsigned resource_size_constants = 40;
inline constexpr unsigned max_resource_sizes = 24;

/* The shader stages the compiler takes. */
enum class ShaderStage : uint8_t { Compute, Vertex, Fragment };

/* Vertex input: which index a location's fetch uses (VkVertexInputRate). Locations not listed
 * are per-vertex. A per-instance location reads element firstInstance + (InstanceIndex -
 * firstInstance) / divisor (VK_EXT_vertex_attribute_divisor; 0: always firstInstance), computed
 * in the shader (vertex_divisors.h). */
enum class VertexInputRate : uint8_t { Vertex, Instance };
struct VertexInputOption {
   unsigned location = 0;
   VertexInputRate rate = VertexInputRate::Vertex;
   uint32_t divisor = 1; /* per-instance locations only */
};

/* Vertex input location l is read through VS buffer id vertex_input_first_resource + l
 * (SET_RESOURCE slot 176 + that id): one fetch resource per attribute, holding the binding's
 * address plus the attribute's offset, the binding's stride, and the attribute's format and
 * swizzle (VFETCH with USE_CONST_FIELDS). So the program depends on neither format, offset,
 * stride nor binding (VK_EXT_vertex_input_dynamic_state, pipeline libraries). */
inline constexpr unsigned vertex_input_first_resource = 128;
inline constexpr unsigned max_vertex_inputs = 32;
/* Varyings (VS outputs / PS inputs) at locations 0-31; the SPI matches them by semantic. */
inline constexpr unsigned max_varyings = 32;
/* The SPI semantic of varying location l (SPI_VS_OUT_ID byte, SPI_PS_INPUT_CNTL.SEMANTIC).
 * Never 0: r600g keeps semantic 0 for inputs the SPI does not load. */
constexpr uint8_t varying_semantic(unsigned location) { return uint8_t(location + 1); }
/* The SPI semantic of the vertex-order parameter (CompileOptions::export_vertex_order): above
 * every varying's. */
constexpr uint8_t vertex_order_semantic = 0x40;
/* The SPI semantics of the clip and cull distances as parameters (CompileOptions::
 * export_distances): vector k of distance_parameter_vectors, 0-1 the clip distances 0-3 and 4-7, 2-3
 * the cull distances 0-3 and 4-7, each array in its own vectors so that a pixel shader finds
 * its elements whatever size the other stage gave the other array. */
inline constexpr unsigned distance_parameter_vectors = 4;
constexpr uint8_t distance_semantic(unsigned vector) { return uint8_t(0x41 + vector); }
/* The SPI semantics of the layer and the viewport index as parameters: a vertex shader writing
 * Layer or ViewportIndex exports it (an integer in x) besides the misc vector's z or w, for a
 * pixel shader reading it as a flat input; without one that input takes SPI_PS_INPUT_CNTL's
 * DEFAULT_VAL 0, Vulkan's value then. */
constexpr uint8_t layer_semantic = 0x45, viewport_index_semantic = 0x46;

struct CompileOptions {
   hw::Family family = hw::Family::Cypress;
   /* Vertex shaders: the input rate per location (empty: every location per-vertex). */
   std::vector<VertexInputOption> vertex_inputs;
   /* Vertex shaders: the input rates and divisors are command-buffer state, not known here
    * (VK_DYNAMIC_STATE_VERTEX_INPUT_EXT): every location's element is computed at run time
    * from driver constants (vertex_input_instance_mask_constant; vertex_divisors.h), and
    * vertex_inputs is ignored. */
   bool dynamic_vertex_input = false;
   std::vector<SpecializationConstant> specialization;
   DebugOptions debug{};
   /* Empty: the corpus ABI (set 0 only, binding b is slot b; docs/compiler.md). */
   std::vector<BufferBinding> buffer_bindings;
   std::vector<TextureBinding> texture_bindings;
   /* The chip's sampler words can force unnormalized coordinates: every sample is compiled
    * normalized and nothing is recorded or branched on. */
   bool sampler_forces_unnormalized = false;
   /* robustBufferAccess: storage-buffer writes and atomics stay inside the bound range. */
   bool robust_buffer_access = false;
   /* Vertex shaders: one more parameter, semantic vertex_order_semantic, holding
    * float(VertexIndex & 0xffffff), by which a pixel shader that reads BaryCoordKHR or
    * PerVertexKHR finds the provoking vertex among P0, P1, P2 (docs/compiler.md,
    * "Fragment-shader barycentrics"). The driver sets it when the fragment stage's
    * GraphicsInterface::uses_vertex_order is. */
   bool export_vertex_order = false;
   /* Vertex shaders: the clip and cull distances written also as parameters, semantics
    * distance_semantic(k), besides POS 61-63 for the clipper (r600g duplicates them as
    * parameters the same way). The driver sets it when the fragment stage's
    * GraphicsInterface::reads_distances is. */
   bool export_distances = false;
   /* Vertex shaders: also write the clip position and every varying parameter, in parameter
    * order (GraphicsInterface::param_locations without the dummy), as vec4s to streamout
    * buffer 0 (MEM_STREAM0_BUF0, dwords 4k..4k+3 of the vertex's record, the position first):
    * the capture variant of the conservative-rasterization draws (docs/architecture.md). */
   bool capture_outputs = false;
   /* Fragment shaders: >= 0 adds the conservative-rasterization multisample discard on three
    * flat edge inputs at varying locations conservative_edges..+2 (conservative_discard.h). */
   int conservative_edges = -1;
   /* Pixel shaders: the colour targets the pipeline renders to (CB_COLOR0..n-1), which the
    * shader's RATs follow, since both share CB_COLOR0-7 (r600g's rat_base, nr_cbufs). */
   unsigned colour_targets = 0;
};

/* One fetch instruction of the program, for the driver: where it sits and what it reads. */
struct FetchRecord {
   uint32_t dword_offset = 0; /* of its first word, from the start of the program */
   unsigned binding = 0;      /* buffer id or texture resource */
   int sampler = -1;          /* -1: a buffer fetch or a sampler-less texture fetch */
};

/* A sampler element (set, binding, element) whose coordinate type is chosen at bind time.
 * `dynamic`: reached through a run-time index; the program branches on bit `bit` of the
 * driver's unnormalized mask (constant buffer 1, dword unnormalized_mask_constant).
 * Otherwise the program was compiled normalized and `tex_dword_offsets` lists the TEX
 * instructions whose COORD_TYPE_X/Y bits a variant clears when the bound sampler uses
 * unnormalized coordinates; `bit` is the element's bit in the variant key. */
struct SamplerRecord {
   unsigned set = 0, binding = 0, element = 0;
   unsigned bit = 0;
   bool dynamic = false;
   std::vector<uint32_t> tex_dword_offsets;
};

/* In the style of Mesa's shader-db reports. */
struct ShaderStatistics {
   unsigned dwords = 0;
   unsigned gprs = 0;
   unsigned alu_groups = 0;
   unsigned alu_instructions = 0; /* slots filled (a Cayman replicated op counts each copy) */
   unsigned alu_slots = 0;        /* slots offered by the groups emitted (5 or 4 each) */
   unsigned literals = 0;         /* literal dwords emitted, padding included */
   unsigned cf = 0;
   unsigned alu_clauses = 0;
   unsigned tex_clauses = 0;
   unsigned vtx_clauses = 0;
   unsigned loops = 0;
   unsigned stack = 0;
   unsigned spilled_values = 0; /* values the allocator put in scratch (docs/compiler.md "Spilling") */
   unsigned scratch_bytes = 0;  /* per invocation: private arrays and spills */
   double compile_ms = 0;

   double occupancy() const { return alu_slots ? double(alu_instructions) / alu_slots : 0; }
};

/* What the driver programs around a vertex or pixel shader (register values computed by the
 * compiler from what the program reads and exports; field positions from Mesa's evergreend.h). */
struct GraphicsInterface {
   ShaderStage stage = ShaderStage::Compute;
   /* Vertex shaders. */
   std::vector<unsigned> vertex_inputs;   /* locations fetched (buffer id 128 + location) */
   uint32_t instance_rate_inputs = 0;     /* bit l: location l is fetched by instance index */
   std::vector<uint8_t> param_semantics;  /* PARAM export n carries SPI_VS_OUT_ID byte n */
   std::vector<unsigned> param_locations; /* ... and is output location n (~0u: the dummy) */
   bool writes_point_size = false;        /* EXPORT POS 61 .x */
   uint32_t spi_vs_out_config = 0;        /* VS_EXPORT_COUNT = parameters - 1 */
   /* USE_VTX_POINT_SIZE, VS_OUT_MISC_VEC_ENA; CLIP_DIST_ENA_n / CULL_DIST_ENA_n with
    * VS_OUT_CCDIST0/1_VEC_ENA (clip distances first, then cull distances, in POS 61-63). */
   uint32_t pa_cl_vs_out_cntl = 0;
   /* Pixel shaders. */
   std::vector<uint32_t> spi_ps_input_cntl; /* SPI_PS_INPUT_CNTL_0..n-1 */
   std::vector<unsigned> input_locations;   /* PS input n is varying location ... */
   uint32_t spi_ps_in_control_0 = 0, spi_ps_in_control_1 = 0, spi_baryc_cntl = 0;
   uint32_t spi_input_z = 0, sq_pgm_exports_ps = 0, db_shader_control = 0, cb_shader_mask = 0;
   /* PNT_SPRITE_ENA and the overrides that make the PT_SPRITE_TEX input gl_PointCoord. */
   uint32_t spi_interp_control_0 = 0;
   uint32_t colour_exports = 0; /* bit n: exports PIXEL n (colour attachment n) */
   bool uses_kill = false;
   /* Reads BaryCoordKHR weights or PerVertexKHR inputs, which depend on which vertex the SPI
    * calls P0: the driver has the vertex shader export the vertex-order parameter
    * (CompileOptions::export_vertex_order) and refuses lines and points (docs/compiler.md). */
   bool uses_vertex_order = false;
   /* Reads SampleId or SamplePosition or has a Sample-decorated input: Vulkan then runs the
    * shader once per sample (the driver sets PA_SC_MODE_CNTL_1.PS_ITER_SAMPLE). */
   bool sample_shading = false;
   /* Reads ClipDistance or CullDistance (inputs with distance_semantic(k)): the driver has the
    * vertex shader export them as parameters (CompileOptions::export_distances). */
   bool reads_distances = false;
   /* Pixel shaders: bit l: varying location l is interpolated without perspective
    * (NoPerspective; conservative rasterization's construction extrapolates it screen-linearly). */
   uint32_t noperspective_inputs = 0;
   /* Vertex shaders: XfbStride in bytes of transform feedback buffers 0-3 (0: not written;
    * the driver's VGT_STRMOUT_VTX_STRIDE_n and VGT_STRMOUT_BUFFER_CONFIG). */
   std::array<uint32_t, 4> xfb_strides{};
};

struct ShaderBinary {
   hw::IsaClass isa = hw::IsaClass::Evergreen;
   GraphicsInterface graphics;
   std::vector<uint32_t> code;
   unsigned gprs = 0;
   unsigned stack_entries = 0;
   unsigned lds_bytes = 0;
   /* Dwords of scratch each invocation uses (private arrays in the scratch ring: four per
    * element, docs/compiler.md "Scratch"): the stage's SQ_xSTMP_RING_ITEMSIZE; 0: none. */
   unsigned scratch_dwords = 0;
   std::array<unsigned, 3> workgroup_size{1, 1, 1};
   unsigned push_constant_bytes = 0;
   bool uses_driver_constants = false;  /* constant buffer 1 must be bound */
   bool push_constants_fetched = false; /* fetch resource 16 must point at the push constants */
   std::vector<unsigned> rat_slots; /* buffer slots the program writes through RATs */
   /* Storage buffer slots whose range size it reads from the driver constants
    * (storage_buffer_size_constants + slot). */
   std::vector<unsigned> sized_slots;
   /* Texture resources (texel buffers, cube arrays) whose size it reads from the driver
    * constants: dword resource_size_constants + i holds that of entry i. */
   std::vector<unsigned> resource_size_slots;
   /* RATs the program writes with typed stores (storage images and texel buffers, through
    * TextureBinding::first_rat): the driver binds each as the element's colour surface. */
   std::vector<unsigned> image_rats;
   /* Returning RAT operations: the RATs' CB_IMMEDn_BASE and fetch resource
    * rat_return_fetch_resource must hold the return buffer. */
   bool rat_returns = false;
   /* Uniform buffers read through the constant cache (loads at constant offsets): constant
    * buffer first_kcache_uniform_buffer + k (SQ_ALU_CONST_CACHE_{PS,VS,LS}_n, with
    * SQ_ALU_CONST_BUFFER_SIZE) must hold the buffer bound at fetch slot kcache_slots[k]. */
   std::vector<unsigned> kcache_slots;
   std::vector<FetchRecord> fetches;
   std::vector<SamplerRecord> sampler_records;
   std::vector<unsigned> texture_resources; /* texture resource slots the program reads */
   std::vector<unsigned> samplers;          /* sampler slots the program uses */
   ShaderStatistics statistics;
};

/* Compiles the compute entry point `entry` of a SPIR-V module. On failure returns false and
 * says why in `error` (invalid SPIR-V, or a construct this compiler does not handle yet). */
bool compile_compute(std::span<const uint32_t> spirv, const char *entry,
                     const CompileOptions &options, ShaderBinary &binary, std::string &error);

/* Compiles the vertex or fragment entry point `entry`. Geometry, tessellation and other
 * stages are refused with a message naming them. */
bool compile_graphics(std::span<const uint32_t> spirv, ShaderStage stage, const char *entry,
                      const CompileOptions &options, ShaderBinary &binary, std::string &error);

/* The binary as bytes and back, for pipeline caches. `deserialize_binary` refuses data that
 * is truncated or was written by another layout version. */
std::vector<uint8_t> serialize_binary(const ShaderBinary &binary);
bool deserialize_binary(std::span<const uint8_t> data, ShaderBinary &binary);

/* The program as text (the instruction-set library's disassembler). */
std::string disassemble_binary(const ShaderBinary &binary);

/* The statistics as one shader-db-like line. */
std::string format_statistics(const ShaderStatistics &statistics);

} // namespace terakan::compiler
