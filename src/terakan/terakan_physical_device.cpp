/* VkPhysicalDevice: finding radeon TeraScale 2/3 devices and describing them honestly.
 *
 * Everything reported here is either a fact about the board (from the kernel, or the cited
 * tables in src/hw) or a statement of what Terakan implements today. Features are all off and
 * limits sit at the Vulkan 1.0 required minimums until the capabilities behind them exist; each
 * issue that adds a capability raises its limits to the documented hardware values.
 */
#include "terakan_private.h"
#include "terakan_conservative_draw.h"

#include <cstdio>
#include <cstring>
#include <string>

#include <xf86drm.h>

#include "vk_alloc.h"
#include "vk_util.h"

#include "util/build_id.h"
#include "util/disk_cache.h"
#include "util/log.h"
#include "util/mesa-sha1.h"

using terakan::hw::FamilyInfo;

static const struct vk_device_extension_table terakan_device_extensions = {
   /* Bind several objects at once: terakan_Bind*Memory2 are the only bind commands. */
   .KHR_bind_memory2 = true,
   /* The driver's copy, blit and resolve commands are the "2" forms (terakan_cmd_buffer.cpp,
    * terakan_meta_blit.cpp, terakan_meta_clear.cpp); the 1.0 forms are the runtime's over them
    * (api-compute CopyCommands2). */
   .KHR_copy_commands2 = true,
   /* Render passes are the runtime's over dynamic rendering (vk_render_pass.c), which also
    * implements the "2" commands, imageless framebuffers (the views arrive at
    * vkCmdBeginRenderPass2) and separate depth and stencil layouts (layouts do not change a
    * TeraScale surface's contents, so the driver ignores them); api-renderpass2. */
   .KHR_create_renderpass2 = true,
   /* Every allocation is its own buffer object already, so a dedicated one is never needed
    * nor preferred (VkMemoryDedicatedRequirements says so); the allocate info is accepted. */
   .KHR_dedicated_allocation = true,
   /* Depth (SAMPLE_ZERO, AVERAGE, MIN, MAX) and stencil (SAMPLE_ZERO, MIN, MAX) resolves as
    * draws exporting FragDepth or the stencil reference (terakan_meta_depth_resolve.cpp). */
   .KHR_depth_stencil_resolve = true,
   /* vkUpdateDescriptorSetWithTemplate: each template element is a descriptor write
    * (terakan_descriptor.cpp); the runtime keeps the templates. */
   .KHR_descriptor_update_template = true,
   .KHR_device_group = true, /* one device per group; vkCmdDispatchBase is the reason */
   /* vkCmdDraw(Indexed)IndirectCount: every record up to maxDrawCount, each predicated on
    * a block a COND_WRITE fills from the count (terakan_cmd_draw.cpp, indirect_draws). */
   .KHR_draw_indirect_count = true,
   .KHR_driver_properties = true,
   /* vkCmdBeginRendering/EndRendering: the driver's rendering commands (render passes are the
    * runtime's over them); inheritance into secondaries through the replay. */
   .KHR_dynamic_rendering = true,
   .KHR_format_feature_flags2 = true, /* VkFormatProperties3 repeats the format features */
   /* BaryCoordKHR from the SPI's I/J pairs, PerVertexKHR from INTERP_LOAD_P0/P10/P20
    * (src/compiler/barycentric.h), in Vulkan's vertex order for triangle lists, strips and
    * fans; lines and points are refused at the draw (terakan_cmd_draw.cpp). */
   .KHR_fragment_shader_barycentric = true,
   .KHR_get_memory_requirements2 = true,
   /* The list of view formats of a MUTABLE_FORMAT image: accepted; every view of a format of
    * the same texel size reads the same layout here. */
   .KHR_image_format_list = true,
   .KHR_imageless_framebuffer = true,
   /* maintenance1: negative viewport heights (the viewport transform takes the sign:
    * `ScissorAndViewport`), vkTrimCommandPool (the runtime's), VK_ERROR_OUT_OF_POOL_MEMORY
    * from descriptor pools; 2D-array-compatible 3D images are not offered (image format
    * properties refuse the flag). maintenance2: point clipping (all planes), image view
    * usage and input attachment aspects (the runtime's); block-texel-view-compatible and
    * extended-usage images are refused the same way. maintenance3: the properties and
    * vkGetDescriptorSetLayoutSupport. */
   .KHR_maintenance1 = true,
   .KHR_maintenance2 = true,
   .KHR_maintenance3 = true,
   .KHR_maintenance4 = true, /* a 1.3 feature (terakan_core_1_3_features) */
   /* Multiview: each draw, clear and resolve of a multiview render pass instance is emitted
    * once per view, on the view's layer, with ViewIndex in the driver constants
    * (terakan_for_each_layer). */
   .KHR_multiview = true,
   /* Vulkan 1.1's block layout rules: the compiler validates SPIR-V in the Vulkan 1.2
    * environment, which already allows them, and every buffer access is per dword. */
   .KHR_relaxed_block_layout = true,
   /* MIRROR_CLAMP_TO_EDGE is the texture unit's MIRROR_ONCE_LAST_TEXEL (terakan_sampler.cpp;
    * `UnnormalizedSamplerBoundAndReboundBetweenDispatches` compares it with lavapipe). */
   .KHR_sampler_mirror_clamp_to_edge = true,
   .KHR_separate_depth_stencil_layouts = true,
   /* BaseVertex, BaseInstance and DrawIndex: the vertex shader's driver constants. */
   .KHR_shader_draw_parameters = true,
   /* SPIR-V 1.4 modules: the compiler validates in Vulkan 1.2's environment and Mesa's
    * translator reads them; float controls are offered with every property VK_FALSE (no
    * execution mode is promised: nothing is known of the ALU's denormals). */
   .KHR_shader_float_controls = true,
   /* Integer dot products: NIR lowers them to multiplies and adds (none is accelerated). */
   .KHR_shader_integer_dot_product = true,
   /* With 8-, 16- and 64-bit shader types all absent there is nothing to extend. */
   .KHR_shader_subgroup_extended_types = true,
   /* OpTerminateInvocation: KILL, and out of every loop with the rest of the program skipped
    * where a loop could follow (compiler terminate_lowering.h). A 1.3 feature. */
   .KHR_shader_terminate_invocation = true,
   .KHR_spirv_1_4 = true,
   /* The StorageBuffer storage class: spirv_to_nir treats it as a storage buffer. */
   .KHR_storage_buffer_storage_class = true,
   .KHR_swapchain = true, /* wsi_common's CPU presentation path (terakan_wsi.cpp) */
   /* The "2" barrier, event and timestamp commands are the driver's; vkQueueSubmit2 is the
    * runtime's (vk_queue.c). */
   .KHR_synchronization2 = true,
   .KHR_timeline_semaphore = true, /* the runtime's emulation over terakan_sync_type */
   /* std430 uniform buffers: the scalar layout (below) already allows them. */
   .KHR_uniform_buffer_standard_layout = true,
   /* Workgroup blocks with explicit layouts, aliasing from offset 0: LDS byte offsets read
    * and written a dword at a time (compiler nir_frontend.cpp; api-workgroup-layout). */
   .KHR_workgroup_memory_explicit_layout = true,
   /* Workgroup variables initialized with OpConstantNull: zeroed by the invocations first. */
   .KHR_zero_initialize_workgroup_memory = true,
   /* Cull mode, front face, topology, viewport and scissor counts, vertex strides, depth
    * test/write/compare, restart, rasterizer discard and depth bias enables: every draw reads
    * them from the command buffer's dynamic state (terakan_cmd_draw.cpp), so they change
    * without recompiling; so do the stencil test enable and operations. Depth bounds are
    * accepted and have nothing to act on (no depthBounds feature). */
   /* Draws, dispatches and vkCmdClearAttachments predicated with SET_PREDICATION ZPASS on a
    * block made from the condition's dword (terakan_conditional_rendering.cpp). */
   .EXT_conditional_rendering = true,
   .EXT_extended_dynamic_state = true,
   .EXT_extended_dynamic_state2 = true,
   /* vkResetQueryPool: query pools are coherent CPU-mapped memory (terakan_query.cpp). */
   .EXT_host_query_reset = true,
   /* vkCmdDrawMulti(Indexed)EXT: each record is its own draw with its DrawIndex
    * (terakan_cmd_draw.cpp). */
   .EXT_multi_draw = true,
   .EXT_pipeline_creation_cache_control = true, /* a 1.3 feature (terakan_core_1_3_features) */
   /* Private data slots: the runtime keeps them on every object (vk_object.c). */
   .EXT_private_data = true,
   /* Programmable sample locations: the scan converter takes each sample's offset from
    * PA_SC_AA_SAMPLE_LOCS (1/16 pixel, -8..7), per quad pixel; offered for 2, 4 and 8 samples
    * on a grid of one pixel (terakan_cmd_draw.cpp draw_sample_offsets; api-sample-shading,
    * api-msaa-2x8x). */
   .EXT_sample_locations = true,
   /* C-like buffer layouts: every buffer access is per dword at any 4-byte offset, and the
    * compiler's SPIR-V validation allows the scalar rules. */
   .EXT_scalar_block_layout = true,
   /* Demote is KILL (the lane runs on as a helper for its quad's derivatives, writing nothing);
    * OpIsHelperInvocationEXT and HelperInvocation a fetch clause with VALID_PIXEL_MODE that only
    * valid pixels run (compiler select_graphics.cpp). A 1.3 feature. */
   .EXT_shader_demote_to_helper_invocation = true,
   /* FragStencilRefEXT: PIXEL 61's y with DB_SHADER_CONTROL.STENCIL_REF_EXPORT_ENABLE
    * (compiler select_graphics.cpp; r600g's stencil_export GL scene on the simulator). */
   .EXT_shader_stencil_export = true,
   /* VkPipelineShaderStageRequiredSubgroupSizeCreateInfo and the stage flags for varying
    * and full subgroups: subgroups have one size, 1, so each request is met as it is. */
   .EXT_subgroup_size_control = true,
   /* Instance-rate divisors, 0 included: the vertex shader computes the element from
    * InstanceIndex and firstInstance (compiler vertex_divisors.h; api-vertex-divisor). */
   .EXT_vertex_attribute_divisor = true,
   /* vkCmdSetVertexInputEXT is the runtime's; formats, offsets and strides are fetch-resource
    * words written at each draw, rates and divisors driver constants the vertex shader reads
    * (compiler vertex_divisors.h; api-vertex-input-dynamic). */
   .EXT_vertex_input_dynamic_state = true,
};

static void log_startup(const char *format, const char *path, const char *detail)
{
   if (terakan_debug(TERAKAN_DEBUG_STARTUP))
      mesa_logi(format, path, detail);
}

/* The build id of this library, so that caches and UUIDs change with every build. */
static const build_id_note *driver_build_id()
{
   return build_id_find_nhdr_for_addr(reinterpret_cast<const void *>(&driver_build_id));
}

static void compute_uuids(terakan_physical_device *pdev)
{
   const build_id_note *note = driver_build_id();
   const auto *family_name = pdev->family->name.data();
   const uint16_t device_id = pdev->pci->device_id;
   unsigned char sha1[20];

   /* Shader binaries depend on this build of the compiler and on the family it targets. */
   struct mesa_sha1 ctx;
   _mesa_sha1_init(&ctx);
   if (note)
      _mesa_sha1_update(&ctx, build_id_data(note), build_id_length(note));
   _mesa_sha1_update(&ctx, family_name, pdev->family->name.size());
   _mesa_sha1_final(&ctx, sha1);
   memcpy(pdev->pipeline_cache_uuid, sha1, VK_UUID_SIZE);

   _mesa_sha1_init(&ctx);
   _mesa_sha1_update(&ctx, "terakan-driver", strlen("terakan-driver"));
   if (note)
      _mesa_sha1_update(&ctx, build_id_data(note), build_id_length(note));
   _mesa_sha1_final(&ctx, sha1);
   memcpy(pdev->driver_uuid, sha1, VK_UUID_SIZE);

   _mesa_sha1_init(&ctx);
   _mesa_sha1_update(&ctx, "terakan-device", strlen("terakan-device"));
   _mesa_sha1_update(&ctx, &device_id, sizeof(device_id));
   _mesa_sha1_update(&ctx, pdev->render_node_path, strlen(pdev->render_node_path));
   _mesa_sha1_final(&ctx, sha1);
   memcpy(pdev->device_uuid, sha1, VK_UUID_SIZE);
}

/* Heaps: the CPU-invisible part of VRAM, the CPU-visible window of VRAM, and GTT (system
 * memory the GPU reaches through its GART), with sizes from DRM_RADEON_GEM_INFO. */
static void compute_memory_properties(terakan_physical_device *pdev)
{
   const auto &info = pdev->radeon->info();
   VkPhysicalDeviceMemoryProperties &memory = pdev->memory;
   memory = {};

   const uint64_t visible_vram = MIN2(info.vram_cpu_visible_size, info.vram_size);
   const uint64_t invisible_vram = info.vram_size - visible_vram;

   int invisible_heap = -1, visible_heap = -1, gtt_heap = -1;
   if (invisible_vram > 0) {
      invisible_heap = memory.memoryHeapCount++;
      memory.memoryHeaps[invisible_heap] = {invisible_vram, VK_MEMORY_HEAP_DEVICE_LOCAL_BIT};
   }
   if (visible_vram > 0) {
      visible_heap = memory.memoryHeapCount++;
      memory.memoryHeaps[visible_heap] = {visible_vram, VK_MEMORY_HEAP_DEVICE_LOCAL_BIT};
   }
   if (info.gtt_size > 0) {
      gtt_heap = memory.memoryHeapCount++;
      memory.memoryHeaps[gtt_heap] = {info.gtt_size, 0};
   }

   using terakan::winsys::BoPlacement;
   auto add_type = [&](VkMemoryPropertyFlags flags, int heap, BoPlacement placement) {
      if (heap < 0)
         return;
      pdev->memory_placement[memory.memoryTypeCount] = placement;
      memory.memoryTypes[memory.memoryTypeCount++] = {flags, static_cast<uint32_t>(heap)};
   };
   const VkMemoryPropertyFlags host_coherent =
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
   add_type(VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, invisible_heap >= 0 ? invisible_heap
                                                                      : visible_heap,
            invisible_heap >= 0 ? BoPlacement::VramHidden : BoPlacement::VramVisible);
   add_type(VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | host_coherent, visible_heap,
            BoPlacement::VramVisible);
   add_type(host_coherent, gtt_heap, BoPlacement::GttWriteCombined);
   add_type(host_coherent | VK_MEMORY_PROPERTY_HOST_CACHED_BIT, gtt_heap, BoPlacement::GttCached);
}

VkResult terakan_physical_device_try_create(struct vk_instance *vk_instance,
                                            struct _drmDevice *drm_device,
                                            struct vk_physical_device **out)
{
   auto *instance = container_of(vk_instance, terakan_instance, vk);

   if (!(drm_device->available_nodes & (1 << DRM_NODE_RENDER)) ||
       drm_device->bustype != DRM_BUS_PCI ||
       drm_device->deviceinfo.pci->vendor_id != terakan::hw::amd_pci_vendor_id)
      return VK_ERROR_INCOMPATIBLE_DRIVER;

   const char *path = drm_device->nodes[DRM_NODE_RENDER];
   std::string error;
   auto radeon = terakan::winsys::RadeonDevice::open(path, error);
   if (!radeon) {
      log_startup("terakan: skipping %s: %s", path, error.c_str());
      return VK_ERROR_INCOMPATIBLE_DRIVER;
   }

   const uint32_t device_id = radeon->info().pci_device_id;
   const terakan::hw::PciIdEntry *pci = terakan::hw::lookup_pci_id(device_id);
   if (!pci) {
      char detail[128];
      snprintf(detail, sizeof(detail),
               "radeon device 0x%04x is not a TeraScale 2/3 chip (R600/R700, SI and CIK are "
               "not supported)", device_id);
      log_startup("terakan: skipping %s: %s", path, detail);
      return VK_ERROR_INCOMPATIBLE_DRIVER;
   }
   if (!radeon->info().accel_working) {
      log_startup("terakan: skipping %s: %s", path,
                  "the kernel reports acceleration is not working");
      return VK_ERROR_INCOMPATIBLE_DRIVER;
   }

   auto *pdev = static_cast<terakan_physical_device *>(
      vk_zalloc(&vk_instance->alloc, sizeof(terakan_physical_device), 8,
                VK_SYSTEM_ALLOCATION_SCOPE_INSTANCE));
   if (!pdev)
      return vk_error(instance, VK_ERROR_OUT_OF_HOST_MEMORY);

   struct vk_physical_device_dispatch_table dispatch_table;
   vk_physical_device_dispatch_table_from_entrypoints(
      &dispatch_table, &terakan_physical_device_entrypoints, true);
   vk_physical_device_dispatch_table_from_entrypoints(
      &dispatch_table, &wsi_physical_device_entrypoints, false);
   vk_physical_device_dispatch_table_from_entrypoints(
      &dispatch_table, &vk_common_physical_device_entrypoints, false);
   vk_physical_device_dispatch_table_from_entrypoints(
      &dispatch_table, &terakan_unimplemented_physical_device_entrypoints, false);

   /* VK_EXT_conservative_rasterization: overestimation by drawing a bigger polygon, direct and
    * indirect draws (terakan_conservative_draw.h; what it refuses is in docs/status.md). */
   struct vk_device_extension_table extensions = terakan_device_extensions;
   extensions.EXT_conservative_rasterization = true;
   /* VK_EXT_transform_feedback: stream 0 through the VGT's streamout, four buffers
    * (terakan_transform_feedback.cpp). */
   extensions.EXT_transform_feedback = true;
   VkResult result = vk_physical_device_init(&pdev->vk, vk_instance, &extensions, &dispatch_table);
   if (result != VK_SUCCESS) {
      vk_free(&vk_instance->alloc, pdev);
      return result;
   }

   pdev->pci = pci;
   pdev->family = &terakan::hw::family_info(pci->family);
   snprintf(pdev->render_node_path, sizeof(pdev->render_node_path), "%s", path);
   const std::string_view marketing = pci->marketing_name;
   snprintf(pdev->name, sizeof(pdev->name), "AMD %.*s%s(%s) (Terakan)",
            static_cast<int>(marketing.size()), marketing.data(), marketing.empty() ? "" : " ",
            pdev->family->name.data());
   pdev->radeon = radeon.release();
   compute_uuids(pdev);
   compute_memory_properties(pdev);

   pdev->timeline_sync_type = vk_sync_timeline_get_type(&terakan_sync_type);
   pdev->sync_types[0] = &terakan_sync_type;
   pdev->sync_types[1] = &pdev->timeline_sync_type.sync;
   pdev->sync_types[2] = nullptr;
   pdev->vk.supported_sync_types = pdev->sync_types;

   /* The on-disk shader cache, keyed by this build and the family (MESA_SHADER_CACHE_*). */
   char cache_name[32], cache_id[2 * VK_UUID_SIZE + 1];
   snprintf(cache_name, sizeof(cache_name), "terakan_%s", pdev->family->name.data());
   disk_cache_format_hex_id(cache_id, pdev->pipeline_cache_uuid, 2 * VK_UUID_SIZE);
   pdev->vk.disk_cache = disk_cache_create(cache_name, cache_id, 0);

   result = terakan_wsi_init(pdev);
   if (result != VK_SUCCESS) {
      terakan_physical_device_destroy(&pdev->vk);
      return result;
   }

   log_startup("terakan: using %s: %s", path, pdev->name);
   *out = &pdev->vk;
   return VK_SUCCESS;
}

void terakan_physical_device_destroy(struct vk_physical_device *vk_pdev)
{
   auto *pdev = container_of(vk_pdev, terakan_physical_device, vk);
   terakan_wsi_finish(pdev);
   if (pdev->vk.disk_cache)
      disk_cache_destroy(pdev->vk.disk_cache);
   pdev->vk.disk_cache = nullptr;
   delete pdev->radeon;
   vk_physical_device_finish(&pdev->vk);
   vk_free(&pdev->vk.instance->alloc, pdev);
}

/* Vulkan 1.1's features: multiview and draw parameters; the rest is optional and absent. */
static VkPhysicalDeviceVulkan11Features terakan_core_1_1_features()
{
   VkPhysicalDeviceVulkan11Features f = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
   /* Multiview: each draw, clear and resolve replayed per view (terakan_for_each_layer); no
    * geometry or tessellation stages to combine it with. */
   f.multiview = VK_TRUE;
   /* BaseVertex, BaseInstance, DrawIndex: the vertex shader's driver constants. */
   f.shaderDrawParameters = VK_TRUE;
   return f;
}

/* Vulkan 1.2's features. Required by 1.2 and offered: imageless framebuffers, uniform buffer
 * standard layout, subgroup extended types, separate depth/stencil layouts, host query reset,
 * timeline semaphores, subgroupBroadcastDynamicId. The optional ones offered are those the
 * extension table lists; everything else (8/16-bit storage, Float16/Int8, 64-bit atomics,
 * descriptor indexing, filter min/max, buffer device address, the memory model, viewport and
 * layer outputs) is absent and says so (docs/status.md, the Physical device row). */
static VkPhysicalDeviceVulkan12Features terakan_core_1_2_features()
{
   VkPhysicalDeviceVulkan12Features f = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
   f.samplerMirrorClampToEdge = VK_TRUE; /* MIRROR_ONCE_LAST_TEXEL (terakan_sampler.cpp) */
   f.drawIndirectCount = VK_TRUE;        /* predicated records (terakan_cmd_draw.cpp) */
   f.scalarBlockLayout = VK_TRUE;        /* every buffer access is a dword at any 4-byte offset */
   f.imagelessFramebuffer = VK_TRUE;     /* the runtime's render passes take the views at begin */
   /* std430 in uniform buffers: a subset of the scalar layout above; constant-offset loads
    * through the constant cache pick the dword they need (api-vulkan12 StandardLayoutUniforms). */
   f.uniformBufferStandardLayout = VK_TRUE;
   /* Subgroup operations on 8-, 16- and 64-bit types: no such shader types are offered
    * (shaderInt8, shaderFloat16, shaderInt16, shaderInt64 are off), so nothing more to do. */
   f.shaderSubgroupExtendedTypes = VK_TRUE;
   f.separateDepthStencilLayouts = VK_TRUE; /* layouts do not change a TeraScale surface */
   f.hostQueryReset = VK_TRUE;              /* query pools are coherent CPU-mapped memory */
   f.timelineSemaphore = VK_TRUE;           /* the runtime's emulation over terakan_sync_type */
   /* A subgroup is one invocation (subgroups.h): a broadcast from any id in range reads the
    * invocation's own value, whether the id is constant or not. */
   f.subgroupBroadcastDynamicId = VK_TRUE;
   /* ViewportIndex from the vertex stage: the misc vector's w with
    * PA_CL_VS_OUT_CNTL.USE_VTX_VIEWPORT_INDX (api-viewports); Layer: its z with
    * USE_VTX_RENDER_TARGET_INDX, every layer of the instance bound (api-layers). */
   f.shaderOutputViewportIndex = VK_TRUE;
   f.shaderOutputLayer = VK_TRUE;
   return f;
}

/* Vulkan 1.3's features that Terakan has, answered to the extension structures of a 1.2
 * device (the device does not report 1.3: docs/status.md lists what stands in the way). */
static VkPhysicalDeviceVulkan13Features terakan_core_1_3_features()
{
   VkPhysicalDeviceVulkan13Features f = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
   f.privateData = VK_TRUE;                         /* the runtime keeps the slots (vk_object.c) */
   f.shaderZeroInitializeWorkgroupMemory = VK_TRUE; /* zeroed by the invocations first */
   f.shaderIntegerDotProduct = VK_TRUE;             /* NIR's multiplies and adds */
   /* vkCmdBeginRendering/EndRendering are the driver's rendering commands (render passes are
    * the runtime's, over them), in primaries and in secondaries through the replay
    * (terakan_cmd_rendering.cpp, terakan_cmd_buffer.cpp). */
   f.dynamicRendering = VK_TRUE;
   /* The "2" barrier, event and timestamp commands are the driver's own (the 1.0 forms reach
    * them through the runtime), and the runtime's queue takes vkQueueSubmit2. */
   f.synchronization2 = VK_TRUE;
   /* VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT answers from the pipeline
    * cache alone (terakan_obtain_binary), EARLY_RETURN_ON_FAILURE stops a batch
    * (terakan_create_pipelines); an externally synchronized cache is the runtime's. */
   f.pipelineCreationCacheControl = VK_TRUE;
   /* Memory requirements without objects (terakan_GetDevice*MemoryRequirements: a buffer's
    * follow from its size, an image's from a short-lived image's layout), LocalSizeId (the
    * compiler's validation allows it; spirv_to_nir reads it), maxBufferSize; pipeline and
    * descriptor set layouts are reference-counted by the runtime, so objects made from them
    * outlive them. */
   f.maintenance4 = VK_TRUE;
   /* Subgroups are one invocation whatever the pipeline asks (subgroups.h): the only size
    * there is, 1, can be required, and every subgroup is full. */
   f.subgroupSizeControl = VK_TRUE;
   f.computeFullSubgroups = VK_TRUE;
   /* Demote is KILL, whose lane runs on as a helper; helper queries are VALID_PIXEL_MODE
    * fetches; terminate also leaves loops (compiler select_graphics.cpp, terminate_lowering.h). */
   f.shaderDemoteToHelperInvocation = VK_TRUE;
   f.shaderTerminateInvocation = VK_TRUE;
   return f;
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_GetPhysicalDeviceFeatures2(VkPhysicalDevice physicalDevice,
                                   VkPhysicalDeviceFeatures2 *pFeatures)
{
   /* Only what is implemented. Sampler and sampled-image arrays may be indexed at run time:
    * the compiler branches over the elements (texture_lowering.cpp). */
   pFeatures->features = {};
   /* Fetches outside the bound range read zeros, and with the feature enabled the compiler
    * clamps storage-buffer write and atomic indices into the range (compiler.h). */
   pFeatures->features.robustBufferAccess = VK_TRUE;
   pFeatures->features.shaderSampledImageArrayDynamicIndexing = VK_TRUE;
   /* Storage images read through a texture resource and written through a typed RAT, both
    * with the descriptor's format, so the shader's declared format is never needed
    * (terakan_storage_images.cpp, api-storage-images-*). */
   pFeatures->features.shaderStorageImageReadWithoutFormat = VK_TRUE;
   pFeatures->features.shaderStorageImageWriteWithoutFormat = VK_TRUE;
   /* Every format of Vulkan's extended storage list is a CB format the typed RAT converts to
    * (terakan_format_is_storage; api-storage-extended-* against lavapipe). */
   pFeatures->features.shaderStorageImageExtendedFormats = VK_TRUE;
   /* Pixel shaders write storage buffers, images and texel buffers through RATs placed after
    * the colour targets, helper and killed pixels left out (terakan_storage_images.cpp,
    * api-fragment-stores-*); atomics whose result is used stay compute-only (refused). The
    * vertex stage has no RATs of its own: vertexPipelineStoresAndAtomics stays off. */
   pFeatures->features.fragmentStoresAndAtomics = VK_TRUE;
   /* textureGatherOffset with offsets known at run time: the compiler moves the coordinates by
    * offset / size (gather_lowering.cpp; api-texture-functions GathersEqualTheCpuAndLavapipe). */
   pFeatures->features.shaderImageGatherExtended = VK_TRUE;
   /* Clip and cull distances: POS exports 61-62 and PA_CL_VS_OUT_CNTL (8 in all); point sizes
    * from the vertex shader up to PA_SU_POINT_MINMAX's limit. */
   pFeatures->features.shaderClipDistance = VK_TRUE;
   pFeatures->features.shaderCullDistance = VK_TRUE;
   pFeatures->features.largePoints = VK_TRUE;
   /* CB_BLENDn_CONTROL per target; CB_COLOR_CONTROL.ROP3 (api-draws LogicOps,
    * IndependentBlendingOfThreeTargets). */
   pFeatures->features.independentBlend = VK_TRUE;
   pFeatures->features.logicOp = VK_TRUE;
   /* Occlusion queries count every sample that passes (DB_COUNT_CONTROL.PERFECT_ZPASS_COUNTS);
    * no queries inherited by secondary command buffers. */
   pFeatures->features.occlusionQueryPrecise = VK_TRUE;
   /* Every BC format is sampled, filtered and a blit source (FMT_BC1-BC7; api-images
    * CompressedFormatsSampledAtEveryLevel, BlitsScaledMirroredFilteredAndFromCompressedImages). */
   pFeatures->features.textureCompressionBC = VK_TRUE;
   /* PA_CL_CLIP_CNTL.ZCLIP_NEAR/FAR_DISABLE with the DB's clamp to the viewport's depth range
    * (api-draws DepthClampKeepsWhatCrossesTheClipPlanes; the depth_clamp GL scene). */
   pFeatures->features.depthClamp = VK_TRUE;
   /* Several indirect draws per call are replayed one by one, each from its own record; the
    * CP takes firstInstance from the record (api-draws SeveralIndirectDrawsInOneCall,
    * IndirectDrawParameters). */
   pFeatures->features.multiDrawIndirect = VK_TRUE;
   /* The second colour is exported to PIXEL 1, which the CB's SRC1 factors read for target 0
    * (api-draws DualSourceBlending; r600g's dual_source_blend GL scene). */
   pFeatures->features.dualSrcBlend = VK_TRUE;
   /* PA_SC_MODE_CNTL_1.PS_ITER_SAMPLE (and Cayman's DB_EQAA.PS_ITER_SAMPLES) when the fragment
    * shader or minSampleShading asks for it; SampleId, SamplePosition, SampleMaskIn, the
    * Sample decoration and interpolateAt* in the compiler (api-sample-shading; r600g's
    * sample_builtins, sample_interpolation and min_sample_shading GL scenes). */
   pFeatures->features.sampleRateShading = VK_TRUE;
   /* PA_SU_POLY_OFFSET_CLAMP (api-draws DepthBiasOnFloatDepth, both signs). */
   pFeatures->features.depthBiasClamp = VK_TRUE;
   /* Cube arrays: z = face + 8 * cube for the texture unit (api-images CubeArraySampling). */
   pFeatures->features.imageCubeArray = VK_TRUE;
   /* PA_SU_LINE_CNTL from the dynamic line width (api-draws PointsAndLines; r600g's
    * wide_lines GL scene on the simulator). */
   pFeatures->features.wideLines = VK_TRUE;
   /* 16 viewports and scissors, one per primitive by the vertex shader's ViewportIndex
    * (terakan_cmd_draw.cpp emit_viewport_and_scissor; api-viewports). */
   pFeatures->features.multiViewport = VK_TRUE;
   pFeatures->features.drawIndirectFirstInstance = VK_TRUE;
   /* Every 32-bit index value (limits.maxDrawIndexedIndexValue; api-draws
    * IndicesBeyondTwentyFourBits). */
   pFeatures->features.fullDrawIndexUint32 = VK_TRUE;
   /* PA_SU_SC_MODE_CNTL POLY_MODE with POINT and LINE primitive types (api-polygon-modes;
    * r600g's polygon_mode GL scene on the simulator). */
   pFeatures->features.fillModeNonSolid = VK_TRUE;
   /* EVENT_WRITE SAMPLE_PIPELINESTAT's eleven counters (api-queries
    * PipelineStatisticsKnownByConstruction; terakan_query.cpp). */
   pFeatures->features.pipelineStatisticsQuery = VK_TRUE;
   /* SQ_TEX_SAMPLER_WORD0 MAX_ANISO_RATIO with the ANISO filters (terakan_sampler.cpp;
    * api-anisotropy). */
   pFeatures->features.samplerAnisotropy = VK_TRUE;
   /* The structures of Vulkan 1.1, 1.2 and 1.3 and the extension structures they absorbed
    * are answered from one record per version (the runtime copies the fields), so that the
    * core and the extension structures cannot disagree. */
   const VkPhysicalDeviceVulkan11Features core11 = terakan_core_1_1_features();
   const VkPhysicalDeviceVulkan12Features core12 = terakan_core_1_2_features();
   const VkPhysicalDeviceVulkan13Features core13 = terakan_core_1_3_features();
   vk_foreach_struct(ext, pFeatures->pNext) {
      if (vk_get_physical_device_core_1_1_feature_ext(ext, &core11) ||
          vk_get_physical_device_core_1_2_feature_ext(ext, &core12) ||
          vk_get_physical_device_core_1_3_feature_ext(ext, &core13))
         continue;
      switch (ext->sType) {
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_FEATURES_EXT:
         reinterpret_cast<VkPhysicalDeviceExtendedDynamicStateFeaturesEXT *>(ext)->extendedDynamicState = VK_TRUE;
         break;
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT: {
         /* Vertex streams other than 0 come from geometry shaders, which Terakan has not. */
         auto *features = reinterpret_cast<VkPhysicalDeviceTransformFeedbackFeaturesEXT *>(ext);
         features->transformFeedback = VK_TRUE;
         features->geometryStreams = VK_FALSE;
         break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CONDITIONAL_RENDERING_FEATURES_EXT: {
         /* Not inherited: a secondary replays its draws onto the primary (terakan_cmd_buffer.cpp)
          * and would obey the primary's condition, which is what inheritance means, but it
          * has no test yet. */
         auto *features = reinterpret_cast<VkPhysicalDeviceConditionalRenderingFeaturesEXT *>(ext);
         features->conditionalRendering = VK_TRUE;
         features->inheritedConditionalRendering = VK_FALSE;
         break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_2_FEATURES_EXT: {
         /* Neither the logic op as dynamic state (untested) nor patch control points (no
          * tessellation). */
         auto *eds2 = reinterpret_cast<VkPhysicalDeviceExtendedDynamicState2FeaturesEXT *>(ext);
         eds2->extendedDynamicState2 = VK_TRUE;
         eds2->extendedDynamicState2LogicOp = VK_FALSE;
         eds2->extendedDynamicState2PatchControlPoints = VK_FALSE;
         break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FRAGMENT_SHADER_BARYCENTRIC_FEATURES_KHR:
         reinterpret_cast<VkPhysicalDeviceFragmentShaderBarycentricFeaturesKHR *>(ext)
            ->fragmentShaderBarycentric = VK_TRUE;
         break;
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_FEATURES_KHR: {
         /* 32-bit members in any layout, the scalar one included; no 8- or 16-bit types. */
         auto *layout = reinterpret_cast<VkPhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR *>(ext);
         layout->workgroupMemoryExplicitLayout = VK_TRUE;
         layout->workgroupMemoryExplicitLayoutScalarBlockLayout = VK_TRUE;
         layout->workgroupMemoryExplicitLayout8BitAccess = VK_FALSE;
         layout->workgroupMemoryExplicitLayout16BitAccess = VK_FALSE;
         break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_FEATURES_EXT:
         reinterpret_cast<VkPhysicalDeviceMultiDrawFeaturesEXT *>(ext)->multiDraw = VK_TRUE;
         break;
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_FEATURES_EXT: {
         auto *divisor = reinterpret_cast<VkPhysicalDeviceVertexAttributeDivisorFeaturesEXT *>(ext);
         divisor->vertexAttributeInstanceRateDivisor = VK_TRUE;
         divisor->vertexAttributeInstanceRateZeroDivisor = VK_TRUE;
         break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_INPUT_DYNAMIC_STATE_FEATURES_EXT:
         reinterpret_cast<VkPhysicalDeviceVertexInputDynamicStateFeaturesEXT *>(ext)->vertexInputDynamicState = VK_TRUE;
         break;
      default:
         break;
      }
   }
}

/* The Vulkan 1.0 required limits (Vulkan specification, "Limit Requirements" table), with the
 * values that depend on features set for features that are off. */
static VkPhysicalDeviceLimits required_minimum_limits()
{
   VkPhysicalDeviceLimits limits = {};
   limits.maxImageDimension1D = 4096;
   limits.maxImageDimension2D = 4096;
   limits.maxImageDimension3D = 256;
   limits.maxImageDimensionCube = 4096;
   limits.maxImageArrayLayers = 256;
   limits.maxTexelBufferElements = 65536;
   limits.maxUniformBufferRange = 16384;
   limits.maxStorageBufferRange = 1u << 27;
   limits.maxPushConstantsSize = 128;
   limits.maxMemoryAllocationCount = 4096;
   limits.maxSamplerAllocationCount = 4000;
   limits.bufferImageGranularity = 131072;
   limits.sparseAddressSpaceSize = 0;
   limits.maxBoundDescriptorSets = 4;
   limits.maxPerStageDescriptorSamplers = 16;
   limits.maxPerStageDescriptorUniformBuffers = 12;
   limits.maxPerStageDescriptorStorageBuffers = 4;
   limits.maxPerStageDescriptorSampledImages = 16;
   limits.maxPerStageDescriptorStorageImages = 4;
   limits.maxPerStageDescriptorInputAttachments = 4;
   limits.maxPerStageResources = 128;
   limits.maxDescriptorSetSamplers = 96;
   limits.maxDescriptorSetUniformBuffers = 72;
   limits.maxDescriptorSetUniformBuffersDynamic = 8;
   limits.maxDescriptorSetStorageBuffers = 24;
   limits.maxDescriptorSetStorageBuffersDynamic = 4;
   limits.maxDescriptorSetSampledImages = 96;
   limits.maxDescriptorSetStorageImages = 24;
   limits.maxDescriptorSetInputAttachments = 4;
   limits.maxVertexInputAttributes = 16;
   limits.maxVertexInputBindings = 16;
   limits.maxVertexInputAttributeOffset = 2047;
   limits.maxVertexInputBindingStride = 2048;
   limits.maxVertexOutputComponents = 64;
   limits.maxFragmentInputComponents = 64;
   limits.maxFragmentOutputAttachments = 4;
   limits.maxFragmentDualSrcAttachments = 1; /* dualSrcBlend: target 0 only */
   limits.maxFragmentCombinedOutputResources = 4;
   limits.maxComputeSharedMemorySize = 16384;
   limits.maxComputeWorkGroupCount[0] = 65535;
   limits.maxComputeWorkGroupCount[1] = 65535;
   limits.maxComputeWorkGroupCount[2] = 65535;
   limits.maxComputeWorkGroupInvocations = 128;
   limits.maxComputeWorkGroupSize[0] = 128;
   limits.maxComputeWorkGroupSize[1] = 128;
   limits.maxComputeWorkGroupSize[2] = 64;
   /* Draws program PA_SU_VTX_CNTL.QUANT_MODE 5: vertices snap to 1/256 pixel. */
   limits.subPixelPrecisionBits = 8;
   limits.subTexelPrecisionBits = 4;
   limits.mipmapPrecisionBits = 4;
   /* fullDrawIndexUint32: VGT_MAX_VTX_INDX is ~0 (as r600g programs it, which gives GL's
    * MAX_ELEMENT_INDEX of 2^32 - 1) and VertexIndex is a 32-bit GPR. */
   limits.maxDrawIndexedIndexValue = UINT32_MAX;
   /* multiDrawIndirect: each draw is replayed with its own state (the minimum Vulkan asks for
    * with the feature; a long stream is split over several kernel submissions). */
   limits.maxDrawIndirectCount = 65535;
   limits.maxSamplerLodBias = 2.0f;
   limits.maxSamplerAnisotropy = 16.0f; /* MAX_ANISO_RATIO 4 */
   limits.maxViewports = 16; /* PA_CL_VPORT_*_0..15, PA_SC_VPORT_SCISSOR_0..15 */
   limits.maxViewportDimensions[0] = 4096;
   limits.maxViewportDimensions[1] = 4096;
   limits.viewportBoundsRange[0] = -8192.0f;
   limits.viewportBoundsRange[1] = 8191.0f;
   limits.minMemoryMapAlignment = 64;
   limits.minTexelBufferOffsetAlignment = 256;
   limits.minUniformBufferOffsetAlignment = 256;
   limits.minStorageBufferOffsetAlignment = 256;
   limits.minTexelOffset = -8;
   limits.maxTexelOffset = 7;
   /* Constant gather offsets go into GATHER4's 5-bit half-texel OFFSET fields as the other
    * samples' do (r600g offers -8..7 for both); run-time ones move the coordinates. */
   limits.minTexelGatherOffset = -8;
   limits.maxTexelGatherOffset = 7;
   /* interpolateAtOffset moves I/J along their screen gradients by the float offset
    * (select_graphics.cpp), so any offset in the pixel works exactly: the minimums Vulkan asks
    * for with sampleRateShading (-0.5, 0.5 - 2^-4, 4 fraction bits). */
   limits.minInterpolationOffset = -0.5f;
   limits.maxInterpolationOffset = 0.4375f;
   limits.subPixelInterpolationOffsetBits = 4;
   limits.maxFramebufferWidth = 4096;
   limits.maxFramebufferHeight = 4096;
   limits.maxFramebufferLayers = 256;
   limits.framebufferColorSampleCounts = terakan_supported_sample_counts;
   limits.framebufferDepthSampleCounts = terakan_supported_sample_counts;
   limits.framebufferStencilSampleCounts = terakan_supported_sample_counts;
   limits.framebufferNoAttachmentsSampleCounts = terakan_supported_sample_counts;
   limits.maxColorAttachments = 4;
   /* Multisampled rendering has 2, 4 or 8 samples (terakan_image.cpp, terakan_cmd_draw.cpp).
    * Such colour images, float and integer, are read by texelFetch through FMASK, depth and
    * stencil ones in place in the DB's sample order (terakan_multisampled_usage,
    * terakan_image_view_words). */
   limits.sampledImageColorSampleCounts = terakan_supported_sample_counts;
   limits.sampledImageIntegerSampleCounts = terakan_supported_sample_counts;
   limits.sampledImageDepthSampleCounts = terakan_supported_sample_counts;
   limits.sampledImageStencilSampleCounts = terakan_supported_sample_counts;
   limits.storageImageSampleCounts = VK_SAMPLE_COUNT_1_BIT;
   limits.maxSampleMaskWords = 1;
   limits.timestampComputeAndGraphics = VK_FALSE;
   limits.timestampPeriod = 1.0f;
   limits.discreteQueuePriorities = 2;
   /* PA_SU_POINT_MINMAX holds half sizes in 12.4 fixed point: up to 4095.9375, so sizes up
    * to 8191.875 in steps of 1/8 pixel. */
   limits.pointSizeRange[0] = 1.0f;
   limits.pointSizeRange[1] = 8191.875f;
   limits.pointSizeGranularity = 0.125f;
   /* Two vectors of distances after the position (CLIP_DIST_ENA_0-7, CULL_DIST_ENA_0-7 share
    * them): eight in all. */
   limits.maxClipDistances = 8;
   limits.maxCullDistances = 8;
   limits.maxCombinedClipAndCullDistances = 8;
   /* PA_SU_LINE_CNTL.WIDTH: half the width in 12.4 fixed point (as points' sizes). */
   limits.lineWidthRange[0] = 1.0f;
   limits.lineWidthRange[1] = 8191.875f;
   limits.lineWidthGranularity = 0.125f;
   limits.strictLines = VK_FALSE;
   /* Vulkan's standard 2x, 4x and 8x locations are what PA_SC_AA_SAMPLE_LOCS holds
    * (hw::msaa::standard_location, terakan_cmd_draw.cpp); on Evergreen-class chips that is not
    * r600g's 8x pattern, but the locations are registers. */
   limits.standardSampleLocations = VK_TRUE;
   limits.optimalBufferCopyOffsetAlignment = 256;
   limits.optimalBufferCopyRowPitchAlignment = 256;
   limits.nonCoherentAtomSize = 256;
   return limits;
}

/* What the compute path really provides, above the required minimums:
 * - shared memory: the 32 KiB of LDS a workgroup can allocate (SQ_LDS_ALLOC; the compiler's
 *   limit);
 * - workgroups up to 256 invocations (four 64-lane wavefronts; Mesa's r600 reports the same
 *   maximum block size for these chips);
 * - storage buffers per stage: the 8 RATs a compute program can write (CB_COLOR0-7);
 * - uniform buffers are read with vertex fetches from any byte range, push constants are the
 *   first 256 bytes of constant buffer 0 (one kcache lock).
 * Storage buffer offsets keep the 256-byte alignment of CB_COLORn_BASE. */
static void raise_compute_limits(VkPhysicalDeviceLimits &limits, terakan::hw::IsaClass isa)
{
   limits.maxComputeSharedMemorySize = 4 * terakan::hw::max_compute_lds_dwords(isa);
   limits.maxComputeWorkGroupInvocations = 256;
   limits.maxComputeWorkGroupSize[0] = 256;
   limits.maxComputeWorkGroupSize[1] = 256;
   limits.maxComputeWorkGroupSize[2] = 64;
   limits.maxPerStageDescriptorStorageBuffers = terakan::compiler::max_storage_buffer_slots;
   limits.maxUniformBufferRange = 65536;
   limits.maxPushConstantsSize = 256;
}

static VkPhysicalDeviceVulkan11Properties terakan_core_1_1_properties(const terakan_physical_device *pdev)
{
   VkPhysicalDeviceVulkan11Properties p = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES};
   memcpy(p.deviceUUID, pdev->device_uuid, VK_UUID_SIZE);
   memcpy(p.driverUUID, pdev->driver_uuid, VK_UUID_SIZE);
   p.deviceLUIDValid = VK_FALSE;
   /* Subgroups of one invocation (src/compiler/subgroups.h): the lanes of a wave have no
    * instruction to exchange values, so each invocation is its own subgroup, and every
    * operation below has its exact one-invocation answer. No quad operations (they need
    * four invocations). */
   p.subgroupSize = 1;
   p.subgroupSupportedStages = VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
   p.subgroupSupportedOperations = VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_VOTE_BIT |
                                   VK_SUBGROUP_FEATURE_ARITHMETIC_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT |
                                   VK_SUBGROUP_FEATURE_SHUFFLE_BIT | VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT;
   p.subgroupQuadOperationsInAllStages = VK_FALSE;
   /* A point is drawn only when its vertex is inside the clip volume and every enabled clip
    * distance keeps it, as the simulator's clipper does (src/sim/gfx/draw.cpp). */
   p.pointClippingBehavior = VK_POINT_CLIPPING_BEHAVIOR_ALL_CLIP_PLANES;
   /* Views are replays of the draw, so any view mask works: 32 views is all a mask holds.
    * Instances are not touched by the replay: NUM_INSTANCES is a 32-bit count. */
   p.maxMultiviewViewCount = 32;
   p.maxMultiviewInstanceIndex = UINT32_MAX;
   p.protectedNoFault = VK_FALSE;
   /* Descriptors are CPU records, so a set's size has no hardware bound: Vulkan's minimum is
    * reported as the guideline. An allocation is one buffer object in one heap, so the
    * largest heap bounds it (terakan_memory.cpp refuses larger ones). */
   p.maxPerSetDescriptors = 1024;
   for (uint32_t h = 0; h < pdev->memory.memoryHeapCount; h++)
      p.maxMemoryAllocationSize = std::max(p.maxMemoryAllocationSize, pdev->memory.memoryHeaps[h].size);
   return p;
}

static VkPhysicalDeviceVulkan12Properties terakan_core_1_2_properties(const VkPhysicalDeviceLimits &limits)
{
   VkPhysicalDeviceVulkan12Properties p = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES};
   /* Khronos has not registered a VkDriverId for Terakan. Claiming another driver's id would
    * trigger that driver's workarounds in applications (DXVK keys on it), so we report an id
    * outside the registered range until one is assigned (docs/status.md). */
   p.driverID = static_cast<VkDriverId>(TERAKAN_UNREGISTERED_DRIVER_ID);
   snprintf(p.driverName, VK_MAX_DRIVER_NAME_SIZE, "terakan");
   snprintf(p.driverInfo, VK_MAX_DRIVER_INFO_SIZE,
            "Terakan " TERAKAN_VERSION " (not conformant; Mesa " MESA_RUNTIME_VERSION " runtime)");
   p.conformanceVersion = {0, 0, 0, 0};
   /* Float controls: no execution mode is promised (every property VK_FALSE), since nothing
    * public says how the ALU treats denormals or which rounding its conversions use. With
    * 32-bit floats only, the independence answers claim nothing either. */
   p.denormBehaviorIndependence = VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_NONE;
   p.roundingModeIndependence = VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_NONE;
   /* Descriptor indexing is off, so no pool or set can be made for update after bind: no
    * descriptors in such pools, and the per-stage and per-set counts "with or without" the
    * flag are the ordinary limits. */
   p.maxUpdateAfterBindDescriptorsInAllPools = 0;
   p.maxPerStageDescriptorUpdateAfterBindSamplers = limits.maxPerStageDescriptorSamplers;
   p.maxPerStageDescriptorUpdateAfterBindUniformBuffers = limits.maxPerStageDescriptorUniformBuffers;
   p.maxPerStageDescriptorUpdateAfterBindStorageBuffers = limits.maxPerStageDescriptorStorageBuffers;
   p.maxPerStageDescriptorUpdateAfterBindSampledImages = limits.maxPerStageDescriptorSampledImages;
   p.maxPerStageDescriptorUpdateAfterBindStorageImages = limits.maxPerStageDescriptorStorageImages;
   p.maxPerStageDescriptorUpdateAfterBindInputAttachments = limits.maxPerStageDescriptorInputAttachments;
   p.maxPerStageUpdateAfterBindResources = limits.maxPerStageResources;
   p.maxDescriptorSetUpdateAfterBindSamplers = limits.maxDescriptorSetSamplers;
   p.maxDescriptorSetUpdateAfterBindUniformBuffers = limits.maxDescriptorSetUniformBuffers;
   p.maxDescriptorSetUpdateAfterBindUniformBuffersDynamic = limits.maxDescriptorSetUniformBuffersDynamic;
   p.maxDescriptorSetUpdateAfterBindStorageBuffers = limits.maxDescriptorSetStorageBuffers;
   p.maxDescriptorSetUpdateAfterBindStorageBuffersDynamic = limits.maxDescriptorSetStorageBuffersDynamic;
   p.maxDescriptorSetUpdateAfterBindSampledImages = limits.maxDescriptorSetSampledImages;
   p.maxDescriptorSetUpdateAfterBindStorageImages = limits.maxDescriptorSetStorageImages;
   p.maxDescriptorSetUpdateAfterBindInputAttachments = limits.maxDescriptorSetInputAttachments;
   /* Depth (SAMPLE_ZERO, AVERAGE, MIN, MAX) and stencil (SAMPLE_ZERO, MIN, MAX) resolves as
    * draws, one per aspect, each with its own mode or none (terakan_meta_depth_resolve.cpp). */
   p.supportedDepthResolveModes =
      VK_RESOLVE_MODE_SAMPLE_ZERO_BIT | VK_RESOLVE_MODE_AVERAGE_BIT | VK_RESOLVE_MODE_MIN_BIT | VK_RESOLVE_MODE_MAX_BIT;
   p.supportedStencilResolveModes = VK_RESOLVE_MODE_SAMPLE_ZERO_BIT | VK_RESOLVE_MODE_MIN_BIT | VK_RESOLVE_MODE_MAX_BIT;
   p.independentResolveNone = VK_TRUE;
   p.independentResolve = VK_TRUE;
   p.maxTimelineSemaphoreValueDifference = UINT64_MAX;
   /* Integer colour attachments take the same sample counts as the others (the image format
    * properties offer them for every attachment format: terakan_formats.cpp). */
   p.framebufferIntegerColorSampleCounts = terakan_supported_sample_counts;
   return p;
}

/* Vulkan 1.3's properties, for the extension structures of the 1.3 features offered as
 * extensions (integer dot products: none accelerated) and those of absent ones. */
static VkPhysicalDeviceVulkan13Properties terakan_core_1_3_properties(const VkPhysicalDeviceLimits &limits,
                                                                      const VkPhysicalDeviceVulkan11Properties &core11)
{
   VkPhysicalDeviceVulkan13Properties p = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES};
   p.minSubgroupSize = p.maxSubgroupSize = core11.subgroupSize;
   p.maxComputeWorkgroupSubgroups = limits.maxComputeWorkGroupInvocations;
   p.requiredSubgroupSizeStages = core11.subgroupSupportedStages;
   p.storageTexelBufferOffsetAlignmentBytes = limits.minTexelBufferOffsetAlignment;
   p.uniformTexelBufferOffsetAlignmentBytes = limits.minTexelBufferOffsetAlignment;
   p.maxBufferSize = core11.maxMemoryAllocationSize;
   return p;
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_GetPhysicalDeviceProperties2(VkPhysicalDevice physicalDevice,
                                     VkPhysicalDeviceProperties2 *pProperties)
{
   VK_FROM_HANDLE(terakan_physical_device, pdev, physicalDevice);

   VkPhysicalDeviceProperties &properties = pProperties->properties;
   properties = {};
   properties.apiVersion = TERAKAN_API_VERSION;
   properties.driverVersion = vk_get_driver_version();
   properties.vendorID = terakan::hw::amd_pci_vendor_id;
   properties.deviceID = pdev->pci->device_id;
   properties.deviceType = pdev->family->is_apu ? VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU
                                                : VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU;
   properties.limits = required_minimum_limits();
   raise_compute_limits(properties.limits, pdev->family->isa_class);
   /* Timestamps (terakan_query.cpp): EVENT_WRITE_EOP writes the GPU clock counter, which
    * runs at the reference clock (RADEON_INFO_CLOCK_CRYSTAL_FREQ, kHz): 1e6 / kHz ns a tick. */
   if (pdev->radeon->info().crystal_clock_khz) {
      properties.limits.timestampComputeAndGraphics = VK_TRUE;
      properties.limits.timestampPeriod = float(1e6 / double(pdev->radeon->info().crystal_clock_khz));
   }
   properties.sparseProperties = {};
   snprintf(properties.deviceName, sizeof(properties.deviceName), "%s", pdev->name);
   memcpy(properties.pipelineCacheUUID, pdev->pipeline_cache_uuid, VK_UUID_SIZE);

   const VkPhysicalDeviceVulkan11Properties core11 = terakan_core_1_1_properties(pdev);
   const VkPhysicalDeviceVulkan12Properties core12 = terakan_core_1_2_properties(properties.limits);
   const VkPhysicalDeviceVulkan13Properties core13 = terakan_core_1_3_properties(properties.limits, core11);
   vk_foreach_struct(ext, pProperties->pNext) {
      if (vk_get_physical_device_core_1_1_property_ext(ext, &core11) ||
          vk_get_physical_device_core_1_2_property_ext(ext, &core12) ||
          vk_get_physical_device_core_1_3_property_ext(ext, &core13))
         continue;
      switch (ext->sType) {
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CONSERVATIVE_RASTERIZATION_PROPERTIES_EXT: {
         /* The bigger polygon (terakan_conservative_draw.h): every pixel the triangle touches
          * (grown by the extra size), and pixels at most 1/64 pixel beyond. No underestimation,
          * points or lines; zero-area triangles are not drawn. */
         auto *p = reinterpret_cast<VkPhysicalDeviceConservativeRasterizationPropertiesEXT *>(ext);
         p->primitiveOverestimationSize = terakan_conservative_overestimation;
         p->maxExtraPrimitiveOverestimationSize = terakan_conservative_max_extra_size;
         p->extraPrimitiveOverestimationSizeGranularity = terakan_conservative_extra_granularity;
         p->primitiveUnderestimation = VK_FALSE;
         p->conservativePointAndLineRasterization = VK_FALSE;
         p->degenerateTrianglesRasterized = VK_FALSE;
         p->degenerateLinesRasterized = VK_FALSE;
         p->fullyCoveredFragmentShaderInputVariable = VK_FALSE;
         p->conservativeRasterizationPostDepthCoverage = VK_FALSE;
         break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_PROPERTIES_EXT: {
         /* Four buffers (VGT_STRMOUT_BUFFER_CONFIG's nibble), stream 0 only; a vertex's record
          * in one buffer is at most VTX_STRIDE's 10 bits of dwords (the limits are the
          * specification's minimums but the stride, 2048 bytes as RADV); offsets are 32-bit.
          * The counters are converted by a compute program (terakan_transform_feedback.cpp). */
         auto *p = reinterpret_cast<VkPhysicalDeviceTransformFeedbackPropertiesEXT *>(ext);
         p->maxTransformFeedbackStreams = 1;
         p->maxTransformFeedbackBuffers = 4;
         p->maxTransformFeedbackBufferSize = UINT32_MAX;
         p->maxTransformFeedbackStreamDataSize = 512;
         p->maxTransformFeedbackBufferDataSize = 512;
         p->maxTransformFeedbackBufferDataStride = 2048;
         p->transformFeedbackQueries = VK_TRUE;
         p->transformFeedbackStreamsLinesTriangles = VK_FALSE;
         p->transformFeedbackRasterizationStreamSelect = VK_FALSE;
         p->transformFeedbackDraw = VK_TRUE;
         break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SAMPLE_LOCATIONS_PROPERTIES_EXT: {
         /* Offsets are signed 4-bit sixteenths of a pixel from its centre: coordinates 0 to
          * 15/16 on a 1/16 grid. One pixel grid (the same locations in every pixel), for every
          * count the driver renders besides 1. */
         auto *p = reinterpret_cast<VkPhysicalDeviceSampleLocationsPropertiesEXT *>(ext);
         p->sampleLocationSampleCounts = terakan_supported_sample_counts & ~VK_SAMPLE_COUNT_1_BIT;
         p->maxSampleLocationGridSize = {1, 1};
         p->sampleLocationCoordinateRange[0] = 0.0f;
         p->sampleLocationCoordinateRange[1] = 0.9375f;
         p->sampleLocationSubPixelBits = 4;
         p->variableSampleLocations = VK_FALSE;
         break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_PROPERTIES_EXT:
         /* Any 32-bit divisor: the shader divides by it as an immediate (vertex_divisors.h). */
         reinterpret_cast<VkPhysicalDeviceVertexAttributeDivisorPropertiesEXT *>(ext)->maxVertexAttribDivisor =
            UINT32_MAX;
         break;
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_PROPERTIES_EXT:
         /* Records are replayed on the CPU, so any count works; the same bound as
          * maxDrawIndirectCount keeps one call's command stream within reason. */
         reinterpret_cast<VkPhysicalDeviceMultiDrawPropertiesEXT *>(ext)->maxMultiDrawCount =
            properties.limits.maxDrawIndirectCount;
         break;
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FRAGMENT_SHADER_BARYCENTRIC_PROPERTIES_KHR:
         /* Only matters in VK_EXT_provoking_vertex's last-vertex mode, which is not offered;
          * VK_FALSE claims nothing. */
         reinterpret_cast<VkPhysicalDeviceFragmentShaderBarycentricPropertiesKHR *>(ext)
            ->triStripVertexOrderIndependentOfProvokingVertex = VK_FALSE;
         break;
      default:
         break; /* structures of features we do not have are left as the caller set them */
      }
   }
}

void terakan_get_queue_family_properties(const terakan_physical_device *pdev,
                                         VkQueueFamilyProperties *properties)
{
   /* One family, one queue: the kernel's one GFX ring carries draws, dispatches and copies.
    * Timestamps: the 64-bit GPU clock counter EVENT_WRITE_EOP writes (terakan_query.cpp). */
   *properties = {};
   properties->queueFlags = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT;
   properties->queueCount = 1;
   properties->timestampValidBits = pdev->radeon->info().crystal_clock_khz ? 64 : 0;
   properties->minImageTransferGranularity = {1, 1, 1};
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_GetPhysicalDeviceQueueFamilyProperties2(VkPhysicalDevice physicalDevice,
                                                uint32_t *pQueueFamilyPropertyCount,
                                                VkQueueFamilyProperties2 *pQueueFamilyProperties)
{
   VK_FROM_HANDLE(terakan_physical_device, pdev, physicalDevice);
   VK_OUTARRAY_MAKE_TYPED(VkQueueFamilyProperties2, out, pQueueFamilyProperties,
                          pQueueFamilyPropertyCount);
   vk_outarray_append_typed(VkQueueFamilyProperties2, &out, family) {
      terakan_get_queue_family_properties(pdev, &family->queueFamilyProperties);
   }
}

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_GetPhysicalDeviceMemoryProperties2(VkPhysicalDevice physicalDevice,
                                           VkPhysicalDeviceMemoryProperties2 *pMemoryProperties)
{
   VK_FROM_HANDLE(terakan_physical_device, pdev, physicalDevice);
   pMemoryProperties->memoryProperties = pdev->memory;
}

/* Format and image-format queries: terakan_formats.cpp. */

extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_GetPhysicalDeviceSparseImageFormatProperties2(
   VkPhysicalDevice physicalDevice, const VkPhysicalDeviceSparseImageFormatInfo2 *pFormatInfo,
   uint32_t *pPropertyCount, VkSparseImageFormatProperties2 *pProperties)
{
   /* Sparse resources are not supported. */
   *pPropertyCount = 0;
}

/* VK_EXT_sample_locations: a grid of one pixel for the 2, 4 and 8 sample counts it offers,
 * none for the others. */
extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_GetPhysicalDeviceMultisamplePropertiesEXT(VkPhysicalDevice physicalDevice, VkSampleCountFlagBits samples,
                                                  VkMultisamplePropertiesEXT *pMultisampleProperties)
{
   (void)physicalDevice;
   pMultisampleProperties->maxSampleLocationGridSize =
      samples != VK_SAMPLE_COUNT_1_BIT && (samples & terakan_supported_sample_counts) ? VkExtent2D{1, 1}
                                                                                      : VkExtent2D{0, 0};
}

/* No external memory: no handle type can be exported or imported (fences and semaphores are
 * the runtime's, from the sync types, which export nothing either). */
extern "C" VKAPI_ATTR void VKAPI_CALL
terakan_GetPhysicalDeviceExternalBufferProperties(VkPhysicalDevice physicalDevice,
                                                  const VkPhysicalDeviceExternalBufferInfo *pExternalBufferInfo,
                                                  VkExternalBufferProperties *pExternalBufferProperties)
{
   (void)physicalDevice;
   (void)pExternalBufferInfo;
   pExternalBufferProperties->externalMemoryProperties = {};
}
