/* Draws with a vertex and a fragment SPIR-V module through the Vulkan loader on the first
 * device whose name holds a given text (lavapipe: "llvmpipe"), with the Khronos validation
 * layer when it is installed, and returns the colour (and depth and stencil) attachments' contents. The
 * compiler-graphics test draws the same job on the simulator and compares the two images:
 * lavapipe is the oracle (design rule 4).
 *
 * What the job fixes by default: one render pass, colour attachments cleared to given values,
 * an optional D32_SFLOAT depth attachment (compare ALWAYS, writes on: the test reads what the
 * shader put there), the viewport over the whole target with depth range [0, 1], no culling,
 * each vertex attribute in its own binding, a non-indexed vkCmdDraw. The optional fields below
 * change one of these at a time (the driver's API tests use them). */
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <vector>

#include "../vulkan_helpers.h"

namespace terakan::test {

struct DrawJob {
   std::vector<uint32_t> vertex_spirv, fragment_spirv;
   struct Attribute {
      unsigned location = 0;
      VkFormat format = VK_FORMAT_UNDEFINED;
      uint32_t stride = 0;
      VkVertexInputRate rate = VK_VERTEX_INPUT_RATE_VERTEX;
      std::vector<uint8_t> data;
      /* Instance rate: VK_EXT_vertex_attribute_divisor's divisor of the binding (0 too) when
       * not 1; the device must offer the extension. */
      uint32_t divisor = 1;
   };
   std::vector<Attribute> attributes;
   struct Target {
      VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
      VkClearColorValue clear{};
   };
   std::vector<Target> targets; /* colour attachment n = fragment output location n */
   bool depth = false;
   float depth_clear = 1.0f;
   uint32_t width = 16, height = 16;
   VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
   uint32_t vertex_count = 0, instance_count = 1, first_vertex = 0, first_instance = 0;

   /* Indexed: vkCmdDrawIndexed over all of `indices` (first_vertex is the vertex offset). */
   std::vector<uint32_t> indices;
   bool index_32bit = false, primitive_restart = false;
   VkFormat depth_format = VK_FORMAT_D32_SFLOAT;
   VkCompareOp depth_compare = VK_COMPARE_OP_ALWAYS;
   bool depth_write = true;
   bool depth_bias = false;
   bool depth_clamp = false; /* depthClampEnable (the device's depthClamp feature) */
   float line_width = 1.0f;  /* other than 1: the device's wideLines feature */
   VkPolygonMode polygon_mode = VK_POLYGON_MODE_FILL; /* LINE, POINT: fillModeNonSolid */
   bool alpha_to_coverage = false;                    /* alphaToCoverageEnable */
   float depth_bias_constant = 0, depth_bias_slope = 0;
   float depth_bias_clamp = 0; /* depthBiasClamp (the device's feature) */
   VkCullModeFlags cull_mode = VK_CULL_MODE_NONE;
   VkFrontFace front_face = VK_FRONT_FACE_COUNTER_CLOCKWISE;
   /* Applied to every colour attachment (blendEnable and the equation; the write mask too). */
   bool blend = false;
   VkPipelineColorBlendAttachmentState blend_state{};
   float blend_constants[4] = {0, 0, 0, 0};
   /* Per colour attachment instead (independentBlend), when not empty. */
   std::vector<VkPipelineColorBlendAttachmentState> blend_states;
   bool logic_op = false;
   VkLogicOp logic = VK_LOGIC_OP_COPY;
   /* Replace the whole-target viewport and scissor. */
   bool custom_viewport = false;
   VkViewport viewport{};
   bool custom_scissor = false;
   VkRect2D scissor{};
   /* Descriptors, set 0: binding 0 a uniform buffer holding `uniform_data` (when not empty),
    * binding 1 a combined image-sampler over `texture` (when it has texels); push constants
    * for both stages (when not empty). */
   std::vector<uint8_t> uniform_data;
   struct Texture {
      VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
      uint32_t width = 0, height = 0;
      std::vector<uint8_t> texels; /* rows packed */
      VkFilter filter = VK_FILTER_NEAREST;
      VkSamplerAddressMode address = VK_SAMPLER_ADDRESS_MODE_REPEAT;
      bool unnormalized = false; /* unnormalizedCoordinates (clamp to edge, no levels) */
   } texture;
   std::vector<uint8_t> push_constants;
   /* Texel buffers at set 0 bindings 2, 3, ...: a view of `format` at `offset` with `range`
    * (VK_WHOLE_SIZE too) into a zeroed buffer of `buffer_bytes`, uniform or storage
    * (`type`), visible to both stages. */
   struct TexelBuffer {
      VkDescriptorType type = VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
      VkFormat format = VK_FORMAT_R32_UINT;
      VkDeviceSize buffer_bytes = 0, offset = 0, range = VK_WHOLE_SIZE;
   };
   std::vector<TexelBuffer> texel_buffers;
   /* Cull mode, front face, topology, restart, depth test/write/compare and depth bias enable
    * as extended dynamic state (VK_EXT_extended_dynamic_state and _2), set by commands before
    * the draw; the pipeline's own values for them are then the opposite ones, which must not
    * show. */
   bool extended_dynamic_state = false;
   /* The draw's parameters from a buffer (vkCmdDrawIndirect / vkCmdDrawIndexedIndirect), at
    * this byte offset in it. */
   bool indirect = false;
   uint32_t indirect_offset = 0;
   /* Several indirect draws in one call (multiDrawIndirect): the vertices (or indices) split
    * into this many consecutive runs of whole triangles, one argument record each, 32 bytes
    * apart. */
   uint32_t indirect_draw_count = 1;
   /* With a count (vkCmdDraw(Indexed)IndirectCount, VK_KHR_draw_indirect_count): this value is
    * put in a buffer and read as the draw count, indirect_draw_count being maxDrawCount; the
    * count is stored at indirect_count_offset in its own buffer of indirect_count_offset + 4
    * bytes (the last dword, as an application may place it). */
   bool use_indirect_count = false;
   uint32_t indirect_count = 0;
   uint32_t indirect_count_offset = 0;
   /* After the draws: vkCmdClearAttachments of these rectangles, colour attachment 0 (when
    * clear_rect_colour) and depth (when clear_rect_depth). */
   std::vector<VkRect2D> clear_rects;
   bool clear_rect_colour = true, clear_rect_depth = false;
   VkClearColorValue clear_rect_value{};
   float clear_rect_depth_value = 0;
   /* A second draw with these vertex counts after the first, with the same pipeline. */
   uint32_t second_draw_vertex_count = 0, second_draw_first_vertex = 0;

   /* Stencil, for a depth_format with a stencil aspect (D24_UNORM_S8_UINT,
    * D32_SFLOAT_S8_UINT; `depth` must be set): the pass clears the stencil to stencil_clear and
    * stores it, and it is read back as bytes. The test runs when `stencil`, with these states
    * for front and back faces. */
   bool stencil = false;
   uint32_t stencil_clear = 0;
   struct StencilFace {
      VkStencilOp fail = VK_STENCIL_OP_KEEP, pass = VK_STENCIL_OP_KEEP, depth_fail = VK_STENCIL_OP_KEEP;
      VkCompareOp compare = VK_COMPARE_OP_ALWAYS;
      uint32_t compare_mask = 0xff, write_mask = 0xff, reference = 0;
   };
   StencilFace stencil_front, stencil_back;
   /* The stencil state as dynamic state set by commands: vkCmdSetStencilTestEnableEXT,
    * vkCmdSetStencilOpEXT (extended dynamic state) and Vulkan 1.0's reference, compare and
    * write masks, the pipeline holding the opposite enable and KEEP/NEVER ops; the first draw
    * then uses stencil_front/back and the second draw second_stencil_front/back. */
   bool dynamic_stencil = false;
   StencilFace second_stencil_front, second_stencil_back;
   /* The depth attachment cleared before the pass by vkCmdClearDepthStencilImage, one call per
    * aspect (the depth aspect to depth_clear, the stencil aspect to stencil_clear, each call's
    * other value a wrong one that must not land), and loaded by the pass (load ops LOAD). */
   bool depth_cleared_by_command = false;
   /* vkCmdClearAttachments of the stencil aspect over clear_rects. */
   bool clear_rect_stencil = false;
   uint32_t clear_rect_stencil_value = 0;

   /* Multisampling: the colour attachments (and the depth attachment) get `samples` samples,
    * and each colour attachment is resolved by the render pass (a subpass resolve attachment)
    * into a single-sample image, which is what `targets` returns. A multisampled depth
    * attachment cannot be copied to a buffer: `depth`, `depth24` and `stencil` stay empty.
    * `sample_mask` is the pipeline's pSampleMask word. With resolve_by_command the colour
    * attachments are stored instead and resolved after the pass by vkCmdResolveImage. */
   VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
   uint32_t sample_mask = 0xffffffffu;
   bool resolve_by_command = false;
   /* sampleShadingEnable and minSampleShading (the device's sampleRateShading feature). */
   bool sample_shading = false;
   float min_sample_shading = 0.0f;
   /* VK_EXT_sample_locations (where offered): the pipeline's locations for the `samples` of
    * one pixel (a 1x1 grid), when not empty. */
   std::vector<VkSampleLocationEXT> sample_locations;
   /* VK_EXT_conservative_rasterization (where offered): the pipeline's mode (OVERESTIMATE or
    * UNDERESTIMATE) and extraPrimitiveOverestimationSize, when not DISABLED. */
   VkConservativeRasterizationModeEXT conservative = VK_CONSERVATIVE_RASTERIZATION_MODE_DISABLED_EXT;
   float extra_overestimation = 0.0f;
   /* VK_EXT_vertex_input_dynamic_state (the device must offer it): the pipeline leaves
    * VK_DYNAMIC_STATE_VERTEX_INPUT_EXT dynamic (and gets no vertex input state), and instead of
    * the job's one draw each of vertex_input_draws sets its state by vkCmdSetVertexInputEXT and
    * draws (vkCmdDraw). `attributes` then only fill buffers: buffer a is bound at binding a
    * (offset 0), whatever the draws' descriptions say. With vertex_input_in_secondary the
    * pass's draws are recorded into a secondary command buffer (which binds the pipeline and
    * buffers itself) that the primary executes. */
   bool dynamic_vertex_input = false;
   struct VertexInputDraw {
      std::vector<VkVertexInputBindingDescription2EXT> bindings;
      std::vector<VkVertexInputAttributeDescription2EXT> attributes;
      uint32_t vertex_count = 0, instance_count = 1, first_vertex = 0, first_instance = 0;
   };
   std::vector<VertexInputDraw> vertex_input_draws;
   bool vertex_input_in_secondary = false;
};

struct DrawImages {
   std::vector<std::vector<uint8_t>> targets; /* rows packed, texel size of the format */
   std::vector<float> depth;                  /* width x height, when the job has depth */
   /* 24-bit depth formats: the stored values, uint32 & 0xffffff (depth holds them / (2^24 - 1)). */
   std::vector<uint32_t> depth24;
   std::vector<uint8_t> stencil; /* width x height, when the depth format has stencil */
};

/* Whether the runner's depth format has a stencil aspect. */
bool has_stencil(VkFormat format);

class VulkanDrawRunner {
public:
   explicit VulkanDrawRunner(const char *device_name);
   ~VulkanDrawRunner();
   VulkanDrawRunner(const VulkanDrawRunner &) = delete;
   VulkanDrawRunner &operator=(const VulkanDrawRunner &) = delete;

   bool available() const { return device_ != VK_NULL_HANDLE; }
   bool has_extended_dynamic_state() const { return extended_dynamic_state_; }
   const std::string &error() const { return error_; }
   unsigned validation_messages() const { return validation_messages_; }

   bool run(const DrawJob &job, DrawImages &images, std::string &error);

   /* Called by the validation layer's messenger. */
   void count_validation_message() { validation_messages_++; }

private:
   struct Buffer {
      VkBuffer buffer = VK_NULL_HANDLE;
      VkDeviceMemory memory = VK_NULL_HANDLE;
      void *map = nullptr;
   };
   using Image = Image2D;
   bool make_buffer(VkDeviceSize size, VkBufferUsageFlags usage, Buffer &buffer);
   bool make_image(VkFormat format, VkImageUsageFlags usage, VkImageAspectFlags aspect, uint32_t width,
                   uint32_t height, Image &image, VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT);
   void destroy(Buffer &buffer);
   void destroy(Image &image);

   VkInstance instance_ = VK_NULL_HANDLE;
   VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
   VkPhysicalDevice physical_ = VK_NULL_HANDLE;
   VkDevice device_ = VK_NULL_HANDLE;
   VkQueue queue_ = VK_NULL_HANDLE;
   VkCommandPool pool_ = VK_NULL_HANDLE;
   bool extended_dynamic_state_ = false; /* both extensions enabled */
   bool sample_locations_ = false;       /* VK_EXT_sample_locations enabled */
   bool conservative_ = false;           /* VK_EXT_conservative_rasterization enabled */
   /* VK_EXT_vertex_input_dynamic_state enabled: its command. */
   PFN_vkCmdSetVertexInputEXT set_vertex_input_ = nullptr;
   /* VK_KHR_draw_indirect_count enabled: its commands. */
   PFN_vkCmdDrawIndirectCountKHR draw_indirect_count_ = nullptr;
   PFN_vkCmdDrawIndexedIndirectCountKHR draw_indexed_indirect_count_ = nullptr;
   std::string error_;
   unsigned validation_messages_ = 0;
};

/* Bytes per texel of the colour formats the runner reads back. */
unsigned texel_bytes(VkFormat format);

} // namespace terakan::test
