/* Terakan's Vulkan objects, each built on the matching object of Mesa's Vulkan runtime. */
#pragma once

#include <algorithm>
#include <array>
#include <memory>
#include <atomic>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "vk_alloc.h"
#include "vk_buffer.h"
#include "vk_command_buffer.h"
#include "vk_command_pool.h"
#include "vk_descriptor_set_layout.h"
#include "vk_graphics_state.h"
#include "vk_device.h"
#include "vk_image.h"
#include "vk_pipeline_cache.h"
#include "vk_pipeline_layout.h"
#include "vk_sync.h"
#include "vk_sync_timeline.h"
#include "vk_instance.h"
#include "vk_log.h"
#include "vk_physical_device.h"
#include "vk_queue.h"

#include "vk_common_entrypoints.h"
#include "wsi_common_entrypoints.h"
#include "terakan_entrypoints.h"
#include "terakan_debug.h"

#include "hw/chips.h"
#include "hw/surface.h"
#include "hw/texture.h"
#include "hw/msaa.h"
#include "compiler/compiler.h"
#include "terakan_shader_variants.h"
#include "winsys/radeon_bo.h"
#include "winsys/radeon_cs.h"
#include "winsys/radeon_device.h"

/* The Vulkan version Terakan reports (TERAKAN_API_MINOR from src/terakan/meson.build, which
 * also writes it into the ICD manifest): 1.0. The formats and sample counts 1.0 requires are
 * offered, and subgroups (1.1's own requirement) are built, but dEQP's checks at 1.1 still fail
 * (docs/status.md lists them; some, such as full mip chains of sampled D24S8, are 1.0 rules
 * too), so 1.1 is not reported. */
#define TERAKAN_API_VERSION VK_MAKE_API_VERSION(0, 1, TERAKAN_API_MINOR, VK_HEADER_VERSION)

/* See the driver properties in terakan_physical_device.cpp. */
#define TERAKAN_UNREGISTERED_DRIVER_ID 0x7E7A0000

struct terakan_instance {
   struct vk_instance vk;
   uint64_t debug_flags;
};

VK_DEFINE_HANDLE_CASTS(terakan_instance, vk.base, VkInstance, VK_OBJECT_TYPE_INSTANCE)

struct terakan_physical_device {
   struct vk_physical_device vk;

   /* Owned; the render node stays open for the physical device's lifetime so that device
    * creation cannot race with the node disappearing. */
   terakan::winsys::RadeonDevice *radeon;
   char render_node_path[64];

   const terakan::hw::PciIdEntry *pci;
   const terakan::hw::FamilyInfo *family;
   char name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
   uint8_t pipeline_cache_uuid[VK_UUID_SIZE];
   uint8_t driver_uuid[VK_UUID_SIZE];
   uint8_t device_uuid[VK_UUID_SIZE];

   VkPhysicalDeviceMemoryProperties memory;
   /* Placement of each memory type (index = memory type). */
   terakan::winsys::BoPlacement memory_placement[VK_MAX_MEMORY_TYPES];

   /* The sync type (terakan_sync.cpp) and the runtime's timeline emulation over it. */
   struct vk_sync_timeline_type timeline_sync_type;
   const struct vk_sync_type *sync_types[3];
};

VK_DEFINE_HANDLE_CASTS(terakan_physical_device, vk.base, VkPhysicalDevice,
                       VK_OBJECT_TYPE_PHYSICAL_DEVICE)

/* The end of one queue submission as the kernel lets a program see it: a small buffer that
 * only the submission's last command stream names (its EVENT_WRITE_EOP writes the sequence
 * number there). The ring runs in order, so the buffer is idle once the whole submission is
 * done (terakan_sync.cpp). Shared by the syncs the submission signals; reference counted. */
struct terakan_submission_fence {
   terakan::winsys::RadeonBo *bo;
   uint64_t sequence;
   std::atomic<int> references{1};
   std::atomic<bool> known_idle{false};
};
terakan_submission_fence *terakan_submission_fence_create(terakan::winsys::RadeonBo *bo, uint64_t sequence);
terakan_submission_fence *terakan_submission_fence_ref(terakan_submission_fence *fence);
void terakan_submission_fence_unref(terakan_submission_fence *fence);

struct terakan_queue {
   struct vk_queue vk;
   /* Submissions so far, and the last one's fence (a reference; null before the first). */
   uint64_t submitted;
   terakan_submission_fence *last_fence;
};

struct terakan_device {
   struct vk_device vk;
   struct terakan_physical_device *physical;
   terakan::winsys::RadeonDevice *radeon; /* the physical device's; not owned */
   struct terakan_queue *queues;
   uint32_t queue_count;
   /* The kernel has one GFX ring: submissions from several queues or threads go one at a time
    * so that each one's wait covers exactly its own work. */
   std::mutex *submit_lock;
   /* Used when an application creates pipelines without a pipeline cache. */
   struct vk_pipeline_cache *internal_cache;
   /* Where shader code goes: CPU-visible VRAM if the board has it, else GTT. */
   terakan::winsys::BoPlacement code_placement;
   /* The driver's own shaders (clears), made on first use (terakan_meta_clear.cpp). */
   struct terakan_meta *meta;
   /* The query copy shader (terakan_query.cpp), made on first use. */
   struct terakan_query_meta *query_meta;
   /* Where returning RAT operations (storage-buffer atomics whose result is used) write the old
    * values: every RAT's CB_IMMEDn_BASE in a dispatch that has them. One per device suffices,
    * since a lane's place in it is (shader engine, hardware wave slot, lane), which no two waves
    * in flight share (compiler.h, rat_return_buffer_bytes). */
   terakan::winsys::RadeonBo *rat_return_bo;
   /* What a vkCmd* runs on a primary command buffer (the application's table records it
    * into a secondary's vk_cmd_queue instead; terakan_device.cpp). */
   struct vk_device_dispatch_table command_dispatch;
};

struct terakan_meta *terakan_meta_create();
void terakan_meta_destroy(struct terakan_meta *meta);

VK_DEFINE_HANDLE_CASTS(terakan_device, vk.base, VkDevice, VK_OBJECT_TYPE_DEVICE)

/* terakan_physical_device.cpp */
VkResult terakan_physical_device_try_create(struct vk_instance *instance,
                                            struct _drmDevice *drm_device,
                                            struct vk_physical_device **out);
void terakan_physical_device_destroy(struct vk_physical_device *physical_device);

/* Window-system integration (terakan_wsi.cpp). */
VkResult terakan_wsi_init(struct terakan_physical_device *pdev);
void terakan_wsi_finish(struct terakan_physical_device *pdev);
/* VK_EXT_headless_surface's platform in `wsi` (terakan_wsi_headless.cpp). */
void terakan_wsi_headless_init(struct wsi_device *wsi);

/* The one queue family Terakan exposes. */
void terakan_get_queue_family_properties(const struct terakan_physical_device *physical_device,
                                         VkQueueFamilyProperties *properties);

/* C++ objects in memory from Vulkan allocation callbacks: zeroed, then constructed. */
template <typename T>
T *terakan_object_new(const VkAllocationCallbacks *alloc, VkSystemAllocationScope scope)
{
   void *memory = vk_zalloc(alloc, sizeof(T), alignof(T), scope);
   return memory ? new (memory) T() : nullptr;
}

template <typename T> void terakan_object_delete(const VkAllocationCallbacks *alloc, T *object)
{
   if (!object)
      return;
   object->~T();
   vk_free(alloc, object);
}

/* terakan_sync.cpp: a sync object signalled by the CPU once the kernel reports the work done. */
extern const struct vk_sync_type terakan_sync_type;
/* A submission will signal `sync` when `fence` is idle (null: signalled now). */
void terakan_sync_signal_on_submission(struct vk_sync *sync, terakan_submission_fence *fence);
/* Whether `sync` is of Terakan's type and signalled, or pending on work already submitted
 * (which the in-order ring finishes before anything submitted later). */
bool terakan_sync_signal_is_submitted(struct vk_sync *sync);

/* ---- memory and buffers (terakan_memory.cpp) ---- */

struct terakan_device_memory {
   struct vk_object_base base;
   terakan::winsys::RadeonBo *bo;
   VkDeviceSize size;
   uint32_t type_index;
   void *map; /* while mapped: the whole buffer object's mapping */
};
VK_DEFINE_NONDISP_HANDLE_CASTS(terakan_device_memory, base, VkDeviceMemory,
                               VK_OBJECT_TYPE_DEVICE_MEMORY)

struct terakan_buffer {
   struct vk_buffer vk;
   struct terakan_device_memory *memory;
   VkDeviceSize offset; /* in the memory's buffer object */
};
VK_DEFINE_NONDISP_HANDLE_CASTS(terakan_buffer, vk.base, VkBuffer, VK_OBJECT_TYPE_BUFFER)

/* ---- formats (terakan_formats.cpp) ---- */

struct terakan_format {
   VkFormat vk;
   terakan::hw::TextureFormat hw;
   terakan::hw::NumFormat num_format;
   bool is_signed;
   bool srgb;
   std::array<terakan::hw::Select, 4> swizzle; /* texel components to x, y, z, w */
   unsigned bytes;                             /* per texel (per block when compressed) */
   bool filterable;
   bool depth = false; /* a depth format: an attachment and a copy source/destination only */
   bool stencil = false; /* with an 8-bit stencil plane after the depth (terakan_image.cpp) */
   unsigned block = 1;   /* block width and height in texels: 4 for the BC formats */
};

/* nullptr: the format cannot be used for images. */
const terakan_format *terakan_format_of(VkFormat format);
/* Whether vkCmdBlitImage handles this depth format (terakan_formats.cpp). */
bool terakan_format_blits_depth(const terakan_format *format);

/* ---- images, views and samplers (terakan_image.cpp, terakan_sampler.cpp) ---- */

struct terakan_image {
   struct vk_image vk;
   const terakan_format *format;
   terakan::hw::SurfaceDescription surface;
   terakan::hw::SurfaceLayout layout;
   /* Formats with stencil: the stencil plane, 8 bits per texel at the depth levels' pitches,
    * `stencil_offset` bytes from the image's base (terakan_image.cpp). */
   terakan::hw::SurfaceDescription stencil_surface;
   terakan::hw::SurfaceLayout stencil_layout;
   uint64_t stencil_offset = 0;
   /* Multisampled colour images (terakan_image.cpp): FMASK, each pixel's sample-to-fragment
    * map, `fmask_offset` bytes from the image's base (0: none), one slice per layer. */
   uint64_t fmask_offset = 0;
   uint64_t fmask_slice_bytes = 0;
   unsigned fmask_aligned_height = 0; /* rows of one FMASK slice (its own macro-tile height) */
   unsigned fmask_bank_height = 0;    /* hw::msaa::fmask_bank_height: 4, or the colour's at 8 samples */
   /* Sampled depth of a format with stencil whose mip levels the texture unit cannot find
    * where the DB puts them (terakan_depth_sampling_copy.cpp): levels 1.. of the depth plane
    * once more, in the natural layout `sampling_layout` the texture unit follows from
    * MIP_ADDRESS, `sampling_mips_offset` bytes from the image's base (0: none). */
   terakan::hw::SurfaceLayout sampling_layout;
   uint64_t sampling_mips_offset = 0;
   struct terakan_device_memory *memory;
   VkDeviceSize offset; /* in the memory's buffer object */
};
VK_DEFINE_NONDISP_HANDLE_CASTS(terakan_image, vk.base, VkImage, VK_OBJECT_TYPE_IMAGE)

uint64_t terakan_image_subresource_offset(const struct terakan_image *image, uint32_t level,
                                          uint32_t layer);
/* Where the stencil plane's texel (0, 0) of `layer` of `level` starts, from the image's base. */
uint64_t terakan_image_stencil_offset(const struct terakan_image *image, uint32_t level, uint32_t layer);
/* Bytes the image needs: the depth or colour levels, any stencil plane and any sampling copy
 * of the depth levels. */
uint64_t terakan_image_size(const struct terakan_image *image);
/* Gives a sampled depth/stencil image its sampling copy when the texture unit could not find its
 * depth levels (terakan_depth_sampling_copy.cpp); false with `error` set if it cannot. */
bool terakan_image_lay_out_sampling_copy(const struct terakan_device *device, struct terakan_image *image,
                                         std::string &error);
/* After the depth plane's `levels` and `layers` were written (rendering, clears, copies,
 * blits), brings the sampling copy of those levels up to date; nothing for images without one
 * or for level 0, which the texture unit reads in place. */
void terakan_cmd_refresh_sampling_copy(struct terakan_cmd_buffer *cmd, struct terakan_image *image,
                                       uint32_t base_level, uint32_t level_count, uint32_t base_layer,
                                       uint32_t layer_count);

struct terakan_image_view {
   struct vk_image_view vk;
   struct terakan_image *image;
   /* The texture resource words with addresses relative to the buffer object (the kernel's
    * relocations add its address to BASE_ADDRESS and MIP_ADDRESS). */
   std::array<uint32_t, 8> resource_words;
};
VK_DEFINE_NONDISP_HANDLE_CASTS(terakan_image_view, vk.base, VkImageView,
                               VK_OBJECT_TYPE_IMAGE_VIEW)
/* The texture resource words of `view` of `image` (its format, levels, layers, swizzle). */
std::array<uint32_t, 8> terakan_image_view_words(const struct terakan_image *image,
                                                 const struct terakan_image_view *view);

/* What a sampler descriptor needs; immutable samplers are copied into their set layout
 * (an application may destroy the VkSampler once the layout exists). */
struct terakan_sampler_state {
   bool unnormalized;
   /* SQ_TEX_SAMPLER_WORD0-2; on chips with FORCE_UNNORMALIZED it carries the coordinate type. */
   std::array<uint32_t, 3> words;
};

struct terakan_sampler {
   struct vk_object_base base;
   terakan_sampler_state state;
};
VK_DEFINE_NONDISP_HANDLE_CASTS(terakan_sampler, base, VkSampler, VK_OBJECT_TYPE_SAMPLER)

terakan_sampler_state terakan_sampler_state_of(const struct terakan_physical_device *pdev,
                                               const VkSamplerCreateInfo *info);

/* A uniform texel buffer view: a fetch resource with the view's format (terakan_memory.cpp). */
struct terakan_buffer_view {
   struct vk_object_base base;
   struct terakan_buffer *buffer;
   const terakan_format *format;
   VkDeviceSize offset; /* in the buffer */
   VkDeviceSize range;  /* bytes */
};
VK_DEFINE_NONDISP_HANDLE_CASTS(terakan_buffer_view, base, VkBufferView, VK_OBJECT_TYPE_BUFFER_VIEW)

/* Whether a format can be a uniform texel buffer: what the fetch unit converts. */
bool terakan_format_is_texel_buffer(const terakan_format *format);
/* A storage image and storage texel buffer format (terakan_formats.cpp). */
bool terakan_format_is_storage(const terakan_format *format);
/* The storage formats and A8B8G8R8's, for storage texel buffers only. */
bool terakan_format_is_storage_texel_buffer(const terakan_format *format);
VkImageUsageFlags terakan_supported_image_usage(const terakan_format *format, VkImageTiling tiling);
/* What a multisampled image may be used for (terakan_image.cpp): attachments and transfers
 * (clears, resolves), never storage; see terakan_multisampled_usage for reads. */
constexpr VkImageUsageFlags terakan_multisampled_image_usage =
   VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
   VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT;
/* The usage a 2-, 4- or 8-sample optimal 2D image of `format` may have: the attachment usage, and for
 * colour formats that are sampled and rendered also SAMPLED and INPUT_ATTACHMENT (texelFetch
 * through FMASK: terakan_image.cpp terakan_image_view_words); depth formats are SAMPLED too
 * (read in place in the DB's sample order, as r600g reads multisampled depth). */
VkImageUsageFlags terakan_multisampled_usage(const terakan_format *format);
/* The sample counts of images, attachments and rasterization: the CB and DB store 2, 4 and 8
 * samples (Cayman's 16 needs EQAA: 8 fragments, which the simulator refuses). */
constexpr VkSampleCountFlags terakan_supported_sample_counts =
   VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_2_BIT | VK_SAMPLE_COUNT_4_BIT | VK_SAMPLE_COUNT_8_BIT;
/* FMASK's bank height (hw::msaa::fmask_bank_height: 4 for 2 and 4 samples, so that a bank's
 * micro tiles of 1-byte FMASK elements fill a pipe interleave; the colour's for 8) is
 * terakan_image::fmask_bank_height; CB_COLORn_ATTRIB.FMASK_BANK_HEIGHT and the texture words
 * carry its log2. */

/* ---- attachment and vertex formats (terakan_attachment_formats.cpp) ---- */

/* A colour attachment format as the CB takes it (CB_COLORn_INFO fields). */
struct terakan_colour_target {
   terakan::hw::TextureFormat format;
   uint32_t number_type;
   uint32_t comp_swap;
   bool blendable, integer, normalized;
};
bool terakan_colour_target_format(VkFormat format, terakan_colour_target &out);
/* DB_Z_INFO.FORMAT of a depth format; 0 if it cannot be a depth attachment. */
uint32_t terakan_depth_z_format(VkFormat format);

/* A vertex attribute format as the fetch unit takes it (the fetch resource's fields). */
struct terakan_vertex_fetch_format {
   uint32_t data_format, num_format;
   bool is_signed;
   std::array<uint32_t, 4> dst_sel;
};
bool terakan_vertex_format(VkFormat format, terakan_vertex_fetch_format &out);

/* ---- descriptors (terakan_descriptor.cpp) ---- */

struct terakan_descriptor_binding_layout {
   VkDescriptorType type;
   uint32_t binding;
   uint32_t count;
   uint32_t first_descriptor;  /* index in the set's descriptor array */
   int32_t first_dynamic;      /* index among the set's dynamic buffers, -1 if not dynamic */
   struct terakan_sampler_state *immutable_samplers; /* count entries, or nullptr */
};

struct terakan_descriptor_set_layout {
   struct vk_descriptor_set_layout vk;
   uint32_t binding_count;
   uint32_t descriptor_count;
   uint32_t dynamic_count;
   struct terakan_descriptor_binding_layout *bindings; /* sorted by binding number */
};
VK_DEFINE_NONDISP_HANDLE_CASTS(terakan_descriptor_set_layout, vk.base, VkDescriptorSetLayout,
                               VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT)

/* A descriptor: what the fetch resource, RAT, texture resource or sampler is built from at
 * dispatch. Buffers use bo/offset/range; images the view; samplers the sampler. */
struct terakan_descriptor {
   terakan::winsys::RadeonBo *bo; /* nullptr: no buffer written */
   VkDeviceSize offset;           /* in the buffer object */
   VkDeviceSize range;
   struct terakan_image_view *image_view;
   const struct terakan_sampler_state *sampler;
   const terakan_format *texel_format; /* a uniform texel buffer (bo/offset/range) */
};

struct terakan_descriptor_pool;

struct terakan_descriptor_set {
   struct vk_object_base base;
   struct terakan_descriptor_pool *pool;
   struct terakan_descriptor_set_layout *layout;
   std::vector<terakan_descriptor> descriptors;
};
VK_DEFINE_NONDISP_HANDLE_CASTS(terakan_descriptor_set, base, VkDescriptorSet,
                               VK_OBJECT_TYPE_DESCRIPTOR_SET)

const terakan_descriptor_binding_layout *
terakan_find_binding(const terakan_descriptor_set_layout *layout, uint32_t binding);

/* ---- pipelines (terakan_pipeline.cpp) ---- */

/* One hardware buffer slot the program uses and where its descriptor comes from. */
struct terakan_slot_source {
   uint32_t slot;        /* fetch resource id (and RAT id for storage buffers) */
   uint32_t set;
   uint32_t descriptor;  /* index in the set's descriptor array */
   int32_t dynamic;      /* index in the set's dynamic offsets, -1 if none */
   bool rat;             /* the program writes it through RAT `slot` */
   bool fetch;           /* the program reads it through fetch resource `slot` */
   int32_t kcache = -1;  /* >= 0: also read through the constant cache as constant buffer
                          * `kcache` (ShaderBinary::kcache_slots) */
};

/* A texture resource or sampler slot the program uses and its descriptor. */
struct terakan_texture_source {
   uint32_t slot;       /* texture resource id, or sampler id */
   uint32_t set;
   uint32_t descriptor; /* index in the set's descriptor array */
   bool sampler;        /* a sampler slot (else a texture resource) */
   /* A storage image or texel buffer written through RAT `slot` (typed stores;
    * terakan_storage_images.cpp), not a texture resource. */
   bool rat = false;
   /* The texture resource of a storage image (loads): cube views are bound as 2D arrays. */
   bool storage = false;
};

/* A sampler element whose coordinate type the bound sampler decides (a SamplerRecord). */
struct terakan_unnormalized_source {
   uint32_t set;
   uint32_t descriptor;
   uint32_t bit;
   bool dynamic; /* the bit goes to the program's mask constant, not to the variant key */
};

class terakan_code_store;

/* One stage of a graphics pipeline: its program, where its descriptors come from, and its
 * unnormalized-coordinate variants (as a compute pipeline's). */
struct terakan_graphics_stage {
   terakan::compiler::ShaderBinary binary;
   terakan::winsys::RadeonBo *code_bo = nullptr;
   std::vector<terakan_slot_source> slots;
   std::vector<terakan_texture_source> textures;
   std::vector<terakan_unnormalized_source> unnormalized;
   terakan_code_store *code_store = nullptr;
   terakan::ShaderVariants *variants = nullptr;
};

/* What a graphics pipeline adds (terakan_graphics_pipeline.cpp): both stages and the
 * pipeline's state, in the runtime's structures. `dynamic` holds the pipeline's static values
 * of every state it does not leave dynamic; binding the pipeline copies them into the command
 * buffer's dynamic state, so that a draw reads one place. */
struct terakan_conservative;
struct terakan_graphics_pipeline {
   terakan_graphics_stage vertex, fragment;
   /* VK_EXT_conservative_rasterization OVERESTIMATE: the capture variant of the vertex stage,
    * the construction and the pass-through vertex shader (terakan_conservative_draw.cpp);
    * nullptr for ordinary pipelines. */
   terakan_conservative *conservative = nullptr;
   struct vk_graphics_pipeline_all_state all;
   struct vk_graphics_pipeline_state state;
   struct vk_dynamic_graphics_state dynamic;
   struct vk_vertex_input_state vertex_input;
   struct vk_sample_locations_state sample_locations;
};

struct terakan_pipeline {
   struct vk_object_base base;
   VkPipelineBindPoint bind_point;
   terakan_graphics_pipeline *graphics; /* graphics pipelines only */
   terakan::compiler::ShaderBinary binary;
   terakan::winsys::RadeonBo *code_bo;
   std::vector<terakan_slot_source> slots;
   std::vector<terakan_texture_source> textures;
   std::vector<terakan_unnormalized_source> unnormalized;
   /* Variants with COORD_TYPE bits cleared; null when nothing is patched. */
   terakan_code_store *code_store;
   terakan::ShaderVariants *variants;
};
VK_DEFINE_NONDISP_HANDLE_CASTS(terakan_pipeline, base, VkPipeline, VK_OBJECT_TYPE_PIPELINE)

/* Shared by compute and graphics pipelines (terakan_pipeline.cpp). */
std::vector<terakan::compiler::BufferBinding> terakan_buffer_bindings(const struct vk_pipeline_layout *layout);
std::vector<terakan::compiler::TextureBinding> terakan_texture_bindings(const struct vk_pipeline_layout *layout);
bool terakan_resolve_slots(const terakan::compiler::ShaderBinary &binary,
                           const std::vector<terakan::compiler::BufferBinding> &bindings,
                           const struct vk_pipeline_layout *layout, std::vector<terakan_slot_source> &slots);
bool terakan_resolve_textures(const terakan::compiler::ShaderBinary &binary,
                              const std::vector<terakan::compiler::TextureBinding> &bindings,
                              const struct vk_pipeline_layout *layout,
                              std::vector<terakan_texture_source> &textures,
                              std::vector<terakan_unnormalized_source> &unnormalized);
VkResult terakan_read_specialization(struct terakan_device *device, const VkSpecializationInfo *spec,
                                     terakan::compiler::CompileOptions &options);
VkResult terakan_obtain_binary(struct terakan_device *device, struct vk_pipeline_cache *cache,
                               const struct vk_shader_module *module, const char *entry,
                               terakan::compiler::ShaderStage stage,
                               const terakan::compiler::CompileOptions &options, VkPipelineCreateFlags flags,
                               terakan::compiler::ShaderBinary &binary);
VkResult terakan_upload_code(struct terakan_device *device, const std::vector<uint32_t> &code,
                             terakan::winsys::RadeonBo *&out);
void terakan_graphics_pipeline_destroy(terakan_graphics_pipeline *graphics);

/* vkCreate*Pipelines' loop: each pipeline made by `create` (out of host memory reported as
 * such), the first failure's result returned, and with EARLY_RETURN_ON_FAILURE the rest left
 * null. */
template <typename Info, typename Create>
VkResult terakan_create_pipelines(struct terakan_device *device, uint32_t count, const Info *infos,
                                  VkPipeline *pipelines, Create create)
{
   VkResult result = VK_SUCCESS;
   uint32_t i = 0;
   for (; i < count; i++) {
      pipelines[i] = VK_NULL_HANDLE;
      VkResult one;
      try {
         one = create(infos[i], pipelines[i]);
      } catch (const std::bad_alloc &) {
         one = vk_error(device, VK_ERROR_OUT_OF_HOST_MEMORY);
      }
      if (one != VK_SUCCESS) {
         result = one;
         if (infos[i].flags & VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT_EXT)
            break;
      }
   }
   for (i++; i < count; i++)
      pipelines[i] = VK_NULL_HANDLE;
   return result;
}
bool terakan_make_variants(struct terakan_device *device, const terakan::compiler::ShaderBinary &binary,
                           terakan_code_store *&store, terakan::ShaderVariants *&variants);
void terakan_destroy_code_store(terakan_code_store *store);
void terakan_destroy_pipeline(struct terakan_device *device, struct terakan_pipeline *pipeline,
                              const VkAllocationCallbacks *allocator);

/* ---- command buffers (terakan_cmd_buffer.cpp) ---- */

struct terakan_bound_set {
   struct terakan_descriptor_set *set;
   std::array<uint32_t, 32> dynamic_offsets;
};

/* The attachments of the render pass instance being recorded (vkCmdBeginRendering). */
struct terakan_rendering {
   bool active;
   VkRect2D area;
   uint32_t layer_count;
   uint32_t colour_count;
   std::array<struct terakan_image_view *, 8> colour;
   struct terakan_image_view *depth;
   struct terakan_image_view *stencil; /* the same image as `depth` when both are set */
   /* Colour attachment i's resolve attachment (VK_RESOLVE_MODE_AVERAGE), resolved over the
    * render area at vkCmdEndRendering; nullptr if none. */
   std::array<struct terakan_image_view *, 8> resolve;
   /* VK_KHR_depth_stencil_resolve: the depth and stencil aspects' resolve attachments and modes
    * (terakan_meta_depth_resolve.cpp), resolved at vkCmdEndRendering; nullptr if none. */
   struct terakan_image_view *depth_resolve, *stencil_resolve;
   VkResolveModeFlagBits depth_resolve_mode, stencil_resolve_mode;
   VkExtent2D extent; /* the smallest attachment: what the scissors keep drawing inside */
   /* Multiview (VK_KHR_multiview): the views, one layer of the attachments each. The
    * hardware has no layered rendering that a shader could steer, so every draw, clear and
    * resolve of the instance is emitted once per view (terakan_for_each_layer), with the CB
    * and DB bases moved to the view's layer and ViewIndex in the driver constants. */
   uint32_t view_mask;
   /* The layer of the attachments (after each view's base layer) the CB and DB are
    * programmed for now: the view index, or the layer a clear or resolve works on. */
   uint32_t layer;
};

struct terakan_vertex_binding {
   struct terakan_buffer *buffer;
   VkDeviceSize offset;
   VkDeviceSize size; /* bytes from offset */
};

/* A transform feedback buffer binding: the range's start in `bo` and its bytes. */
struct terakan_xfb_binding {
   terakan::winsys::RadeonBo *bo;
   uint64_t offset, size;
};

struct terakan_cmd_buffer {
   struct vk_command_buffer vk;
   struct terakan_device *device;
   /* One command stream per kernel submission: a long command buffer is split. */
   std::vector<terakan::winsys::CommandStream> streams;
   /* Buffers holding constants and inline data the recorded commands read. */
   std::vector<terakan::winsys::RadeonBo *> upload_bos;
   uint64_t upload_used;

   struct terakan_pipeline *pipeline;
   std::array<terakan_bound_set, 4> sets;
   std::array<uint8_t, 256> push_constants;
   /* VK_EXT_sample_locations: the storage the runtime's dynamic state points at. */
   struct vk_sample_locations_state sample_locations;
   /* The vertex input state (VK_EXT_vertex_input_dynamic_state sets it; binding a pipeline
    * with static vertex input copies the pipeline's): the runtime's dynamic state points here. */
   struct vk_vertex_input_state vertex_input;

   /* The program variant and the dynamic unnormalized mask for the bound pipeline and sets;
    * recomputed at dispatch only after either changed. */
   bool variant_dirty;
   terakan::winsys::RadeonBo *variant_code;
   uint32_t dynamic_unnormalized_mask;

   /* Graphics (terakan_cmd_draw.cpp). */
   struct terakan_pipeline *graphics_pipeline;
   std::array<terakan_bound_set, 4> graphics_sets;
   terakan_rendering rendering;
   std::array<terakan_vertex_binding, 32> vertex_bindings;
   struct terakan_buffer *index_buffer;
   VkDeviceSize index_offset;
   VkIndexType index_type;

   /* Queries (terakan_query.cpp): occlusion queries begun and not yet ended. Application
    * draws count samples (DB_COUNT_CONTROL, emit_depth) while it is not zero. */
   uint32_t active_occlusion_queries;

   /* VK_EXT_conditional_rendering (terakan_conditional_rendering.cpp): while active, application
    * draws, dispatches and vkCmdClearAttachments are predicated (SET_PREDICATION ZPASS) on the
    * occlusion-shaped block at bo + offset that vkCmdBeginConditionalRenderingEXT fills. */
   struct {
      bool active;
      bool inverted;
      terakan::winsys::RadeonBo *bo;
      uint64_t offset;
   } condition;
   /* Set while vkCmdClearAttachments draws: its clear draws obey the condition. */
   bool meta_draws_conditional;
   /* Set for one draw of vkCmdDraw(Indexed)IndirectCount (terakan_cmd_draw.cpp): the draw is
    * predicated on this block instead, which already folds in any active condition. */
   struct {
      terakan::winsys::RadeonBo *bo;
      uint64_t offset;
   } draw_predicate;

   /* Conservative indirect draws (terakan_conservative_draw.cpp): the scratch every such draw
    * of the command buffer captures into and builds its fans in (one draw after another: each
    * pass ends with a full barrier), and per draw the word the GPU writes with the triangles
    * it captured, which the queue compares with the draw's capacity after the submission. */
   struct {
      terakan::winsys::RadeonBo *bo;
      uint64_t offset, bytes;
   } conservative_scratch;
   struct terakan_conservative_check {
      const uint32_t *captured;
      uint32_t capacity;
   };
   std::vector<terakan_conservative_check> conservative_checks;
   /* VK_EXT_transform_feedback (terakan_transform_feedback.cpp): the bound buffers, whether
    * transform feedback is active, and which buffers vkCmdBeginTransformFeedbackEXT began. */
   struct {
      std::array<terakan_xfb_binding, 4> bindings;
      bool active;
      uint32_t begun;
   } xfb;
   /* The compute, vertex and pixel stages' scratch rings for private arrays
    * (terakan_scratch.cpp): upload ranges of `engines` parts of bytes_per_engine each. */
   struct scratch_ring {
      terakan::winsys::RadeonBo *bo;
      uint64_t offset, bytes_per_engine;
      unsigned engines;
   } compute_scratch, vertex_scratch, pixel_scratch;
};
VK_DEFINE_HANDLE_CASTS(terakan_cmd_buffer, vk.base, VkCommandBuffer,
                       VK_OBJECT_TYPE_COMMAND_BUFFER)

extern const struct vk_command_buffer_ops terakan_cmd_buffer_ops;

/* Shared by the compute and draw recording (terakan_cmd_buffer.cpp). */
terakan::winsys::CommandStream &terakan_cmd_stream(terakan_cmd_buffer *cmd);
/* While transform feedback is active: the streamout registers of a draw whose vertex shader is
 * `vs` (an application draw), or streamout off (null: the driver's own draws). False when the
 * command buffer failed (terakan_transform_feedback.cpp). */
bool terakan_emit_xfb_draw_state(terakan_cmd_buffer *cmd, terakan::winsys::CommandStream &cs,
                                 const terakan::compiler::GraphicsInterface *vs, uint32_t primitive_type);
/* A direct draw of a triangle strip or fan while transform feedback is active, drawn as a
 * list in Vulkan's vertex order; false (nothing recorded) for anything else. */
bool terakan_xfb_direct_draw(terakan_cmd_buffer *cmd, uint32_t vertex_count, uint32_t instance_count,
                             uint32_t first_vertex, uint32_t first_instance, uint32_t draw_index);
/* The RATs of the storage images and texel buffers the compute pipeline stores to
 * (terakan_storage_images.cpp); returns their CB_TARGET_MASK bits. */
uint32_t terakan_emit_storage_image_rats(terakan_cmd_buffer *cmd, terakan::winsys::CommandStream &cs);
/* A draw's pixel-shader RATs (fragmentStoresAndAtomics): its storage buffers, storage images
 * and storage texel buffers as CB_COLOR(colour targets + slot), their sizes in the pixel
 * shader's driver constants; returns their CB_TARGET_MASK bits, or false (the command buffer
 * failed) when they cannot be bound (terakan_storage_images.cpp). */
bool terakan_emit_pixel_shader_rats(terakan_cmd_buffer *cmd, terakan::winsys::CommandStream &cs,
                                    const terakan_graphics_stage &stage, uint8_t *driver_constants,
                                    uint32_t &target_mask);
/* The element counts of the texel buffers whose textureSize/imageSize a stage reads, into its
 * driver constants (terakan_descriptor.cpp). */
void terakan_write_resource_sizes(const terakan::compiler::ShaderBinary &binary,
                                      const std::vector<terakan_texture_source> &textures,
                                      const std::array<terakan_bound_set, 4> &sets, uint8_t *driver_constants);
/* The texture resource words a storage image view is read through: the view's, with a cube
 * view's as the 2D array of its faces. */
std::array<uint32_t, 8> terakan_storage_image_resource_words(const struct terakan_image_view *view);
uint8_t *terakan_cmd_upload(terakan_cmd_buffer *cmd, uint64_t size, uint64_t alignment,
                            terakan::winsys::RadeonBo *&bo, uint64_t &offset);
/* Programs the compute scratch ring (SQ_LSTMP_RING_*) for a dispatch of `binary` when it keeps
 * private arrays in scratch (terakan_scratch.cpp); false when the command buffer failed. */
bool terakan_emit_compute_scratch(terakan_cmd_buffer *cmd, terakan::winsys::CommandStream &cs,
                                  const terakan::compiler::ShaderBinary &binary);
/* The same for a draw: the VS and PS rings (SQ_VSTMP_RING_*, SQ_PSTMP_RING_*) for the stages
 * whose programs keep private arrays or spills in scratch. */
bool terakan_emit_graphics_scratch(terakan_cmd_buffer *cmd, terakan::winsys::CommandStream &cs,
                                   const terakan::compiler::ShaderBinary &vertex,
                                   const terakan::compiler::ShaderBinary &pixel);
void terakan_cmd_fill(terakan_cmd_buffer *cmd, terakan::winsys::RadeonBo &bo, uint64_t offset, uint64_t bytes,
                      uint32_t pattern);
/* The buffer descriptor of a slot with its dynamic offset; false if none was written. */
void terakan_emit_constant_buffer(terakan::winsys::CommandStream &cs, uint32_t cache_reg, uint32_t size_reg,
                                  unsigned index, terakan::winsys::RadeonBo &bo, uint64_t offset, uint64_t range,
                                  bool compute);
bool terakan_slot_descriptor(const std::array<terakan_bound_set, 4> &sets, const terakan_slot_source &slot,
                             terakan_descriptor &out);
void terakan_reset_graphics_state(terakan_cmd_buffer *cmd);
/* After a submission of `cmd` completed: false, with a message, when one of its conservative
 * indirect draws made more triangles than it could capture (terakan_conservative_draw.cpp);
 * the queue then reports the device lost rather than a wrong picture as a success. */
bool terakan_conservative_check_capacity(const terakan_cmd_buffer *cmd, std::string &message);
/* Records the error on the command buffer with a message (vkEndCommandBuffer returns it). */
void terakan_cmd_fail(terakan_cmd_buffer *cmd, VkResult result, const char *message);
/* Where a view's first layer starts in its buffer object (terakan_cmd_rendering.cpp), its
 * stencil plane's, and the view's level size. */
uint64_t terakan_view_offset(const struct terakan_image_view *view, uint32_t layer = 0);
/* Whether a texture resource's MIP_ADDRESS takes a relocation (all but multisampled depth,
 * whose FMASK address is 0: terakan_image.cpp). */
bool terakan_resource_words_need_mip_relocation(const std::array<uint32_t, 8> &words);
uint64_t terakan_stencil_view_offset(const struct terakan_image_view *view, uint32_t layer = 0);
VkExtent2D terakan_view_extent(const struct terakan_image_view *view);

/* What a draw is made of (terakan_cmd_draw.cpp). */
struct terakan_draw_setup {
   const terakan_graphics_pipeline *pipeline = nullptr;
   const struct vk_dynamic_graphics_state *dynamic = nullptr;
   const uint8_t *push_constants = nullptr; /* 256 bytes */
   uint32_t primitive_type = 0;             /* VGT_PRIMITIVE_TYPE; 0: from the dynamic state */
   /* Indirect draws: the arguments' buffer object and offset; the vertex shader's base vertex
    * and base instance constants are copied from there on the GPU. */
   terakan::winsys::RadeonBo *indirect_bo = nullptr;
   uint64_t indirect_offset = 0;
   uint32_t draw_index = 0;
   /* CB_COLOR_CONTROL.MODE RESOLVE: the CB averages CB_COLOR0's samples into CB_COLOR1 over the
    * pixels the draw covers (terakan_meta_resolve). */
   bool resolve = false;
   /* A meta draw's texture: pixel shader texture resource 0 and sampler 0 (blits). */
   const struct terakan_image_view *meta_texture = nullptr;
   const std::array<uint32_t, 3> *meta_sampler = nullptr;
   /* Conservative draws (terakan_conservative_draw.cpp): a vertex stage in place of the
    * pipeline's (the capture variant or the pass-through shader), and for the pass-through
    * shader the fan buffer its vertex inputs 0..fan_vec4s-1 read (vec4s of floats, one vertex
    * every 16 x fan_vec4s bytes). */
   const terakan_graphics_stage *vertex_stage = nullptr;
   terakan::winsys::RadeonBo *fan_bo = nullptr;
   uint64_t fan_offset = 0;
   uint32_t fan_vec4s = 0;
};
/* The sample count the rendering's attachments have (1 without any). */
uint32_t terakan_rendering_samples(const terakan_cmd_buffer *cmd);
/* Resolves `rect` of `source` (a multisampled colour view) into `destination` (a
 * single-sample view of the same format) by a RESOLVE draw (terakan_meta_clear.cpp); the
 * rendering the command buffer records, if any, is kept. */
/* Whether a depth (or stencil) resolve mode is drawn (terakan_meta_depth_resolve.cpp). */
bool terakan_depth_resolve_mode_supported(bool stencil, VkResolveModeFlagBits mode);
/* Resolves `layer` (after each view's base layer) of the depth or stencil aspect of `source`
 * into `destination` over `area` with `mode`, by a draw. */
bool terakan_meta_depth_stencil_resolve(terakan_cmd_buffer *cmd, struct terakan_image_view *source,
                                        struct terakan_image_view *destination, bool stencil,
                                        VkResolveModeFlagBits mode, const VkRect2D &area, uint32_t layer);
bool terakan_meta_resolve(terakan_cmd_buffer *cmd, struct terakan_image_view *source,
                          struct terakan_image_view *destination, const VkRect2D &rect, uint32_t layer = 0);
/* Runs `emit` (which returns false to stop) once per layer the render pass instance's work
 * goes to, with cmd->rendering.layer set: each view of the view mask under multiview; else
 * layer 0 for draws (nothing selects another layer) and every layer of the instance's
 * layerCount for clears and resolves (`all_layers`). */
template <typename Emit>
bool terakan_for_each_layer(terakan_cmd_buffer *cmd, bool all_layers, Emit emit)
{
   terakan_rendering &r = cmd->rendering;
   const uint32_t saved = r.layer;
   bool ok = true;
   if (r.view_mask) {
      for (uint32_t mask = r.view_mask; mask && ok; mask &= mask - 1) {
         r.layer = uint32_t(__builtin_ctz(mask));
         ok = emit();
      }
   } else {
      const uint32_t layers = all_layers ? std::max(r.layer_count, 1u) : 1;
      for (uint32_t layer = 0; layer < layers && ok; layer++) {
         r.layer = layer;
         ok = emit();
      }
   }
   r.layer = saved;
   return ok;
}
bool terakan_emit_draw_state(terakan_cmd_buffer *cmd, terakan::winsys::CommandStream &cs,
                             const terakan_draw_setup &setup, uint32_t first_vertex_or_offset,
                             uint32_t first_instance, bool indexed);
/* The clear value as `format` stores it, when it is one 32-bit value repeated (`depth`: the
 * depth plane of a depth format). */
bool terakan_clear_pattern(VkFormat format, const VkClearValue &value, bool depth, uint32_t &pattern);
/* Clears `rect` of the rendering's colour attachments in `colour_mask` (to values[i]), of its
 * depth attachment and of its stencil attachment, with a draw (terakan_meta_clear.cpp). */
bool terakan_meta_clear(terakan_cmd_buffer *cmd, const VkRect2D &rect, uint32_t colour_mask,
                        const VkClearColorValue *values, bool clear_depth, float depth, bool clear_stencil = false,
                        uint32_t stencil = 0);
void terakan_emit_full_barrier(terakan::winsys::CommandStream &cs);
/* A draw or dispatch packet header, predicated on the active condition of
 * VK_EXT_conditional_rendering (a SET_PREDICATION before it) when `conditional` and one is
 * active (terakan_conditional_rendering.cpp). */
/* The bytes of an occlusion-shaped predicate block (eight render backends' begin and end
 * counts) and its contents for "not visible": every count zero, marked written. */
constexpr uint64_t terakan_predicate_block_bytes = 128;
void terakan_fill_predicate_block(uint8_t *block);
void terakan_draw_packet(terakan_cmd_buffer *cmd, terakan::winsys::CommandStream &cs, uint32_t opcode,
                         uint32_t body_dwords, bool compute, bool conditional = true);
/* A CP DMA copy of `bytes` (sync: later packets wait for it). */
void terakan_emit_cp_dma_copy(terakan::winsys::CommandStream &cs, terakan::winsys::RadeonBo &src,
                              uint64_t src_offset, terakan::winsys::RadeonBo &dst, uint64_t dst_offset,
                              uint32_t bytes, bool sync);

/* Compute slots bound the way a dispatch binds them (terakan_cmd_buffer.cpp): fetch resource
 * `id` over the buffer range, and RAT `id` from a 256-byte aligned `offset`. */
void terakan_emit_compute_fetch_resource(terakan::winsys::CommandStream &cs, unsigned id,
                                         terakan::winsys::RadeonBo &bo, uint64_t offset, uint64_t range);
void terakan_emit_compute_rat(terakan::winsys::CommandStream &cs, unsigned id, terakan::winsys::RadeonBo &bo,
                              uint64_t offset, uint64_t range);
/* The same RAT (a storage buffer as COLOR_32) for a draw's pixel shader. */
void terakan_emit_draw_buffer_rat(terakan::winsys::CommandStream &cs, unsigned id, terakan::winsys::RadeonBo &bo,
                                  uint64_t offset, uint64_t range);

/* ---- queries (terakan_query.cpp) ---- */

/* A query pool: one buffer object in snooped GTT that the CP and DB write and the CPU reads.
 * Occlusion: per query, one 16-byte {begin, end} pair of 64-bit sample counts per render
 * backend (8 pairs), each with bit 63 as its written flag (EVENT_WRITE ZPASS_DONE).
 * Timestamps: per query, the 64-bit counter, then a dword that is 1 once it is written. */
struct terakan_query_pool {
   struct vk_object_base base;
   VkQueryType type;
   uint32_t count;
   uint32_t stride;       /* bytes per query */
   uint32_t backend_mask; /* occlusion: the render backends whose pairs ZPASS_DONE writes */
   VkQueryPipelineStatisticFlags statistics; /* pipeline statistics: the counters asked for */
   terakan::winsys::RadeonBo *bo;
};
VK_DEFINE_NONDISP_HANDLE_CASTS(terakan_query_pool, base, VkQueryPool, VK_OBJECT_TYPE_QUERY_POOL)

struct terakan_query_meta *terakan_query_meta_create();
void terakan_query_meta_destroy(struct terakan_query_meta *meta);
/* DB_COUNT_CONTROL for a draw: counting while an occlusion query is active and the draw is the
 * application's (the driver's own clears do not count). */
uint32_t terakan_db_count_control(const terakan_cmd_buffer *cmd, bool application_draw, uint32_t samples);

/* ---- events (terakan_event.cpp) ---- */

struct terakan_event {
   struct vk_object_base base;
   terakan::winsys::RadeonBo *bo; /* dword 0: 1 set, 0 reset */
};
VK_DEFINE_NONDISP_HANDLE_CASTS(terakan_event, base, VkEvent, VK_OBJECT_TYPE_EVENT)

/* Maps a kernel errno from buffer creation to the Vulkan result. */
VkResult terakan_bo_error(struct terakan_device *device, int error_number, const std::string &message);
/* VkMemoryDedicatedRequirements in a requirements chain: never required nor preferred. */
void terakan_fill_dedicated_requirements(VkMemoryRequirements2 *requirements);
