/* Graphics pipelines: a vertex and a fragment stage through Terakan's compiler (the same
 * pipeline cache path as compute), and the pipeline's fixed-function state read by the
 * runtime (vk_graphics_pipeline_state_fill) into the structures the draw reads. Nothing here
 * is turned into registers yet: a draw emits the registers from the bound pipeline and the
 * command buffer's dynamic state together (terakan_cmd_draw.cpp), so a state the application
 * makes dynamic costs no recompilation.
 *
 * A pipeline without a fragment stage gets an empty pixel shader (depth-only drawing).
 *
 * What is refused, each with a message: stages other than vertex and fragment, polygon modes
 * other than fill, line and point, sample counts other than 1 and 4,
 * sample shading, alpha to one, storage buffers and
 * storage images written by the vertex stage, dual-source blending beside a fragment stage
 * that writes memory (the fragment stage's RATs follow the colour targets in CB_COLOR0-7:
 * terakan_storage_images.cpp), vertex attribute formats the fetch unit cannot read. */
#include "terakan_private.h"
#include "terakan_conservative_draw.h"
#include "terakan_meta.h"

#include <cstring>

#include "vk_format.h"
#include "vk_shader_module.h"

using terakan::compiler::CompileOptions;
using terakan::compiler::ShaderStage;

static const VkPipelineShaderStageCreateInfo *find_stage(const VkGraphicsPipelineCreateInfo *info,
                                                         VkShaderStageFlagBits stage)
{
   for (uint32_t i = 0; i < info->stageCount; i++)
      if (info->pStages[i].stage == stage)
         return &info->pStages[i];
   return nullptr;
}

void terakan_graphics_pipeline_destroy(terakan_graphics_pipeline *graphics)
{
   for (terakan_graphics_stage *stage : {&graphics->vertex, &graphics->fragment}) {
      delete stage->variants;
      terakan_destroy_code_store(stage->code_store);
      delete stage->code_bo;
   }
   terakan_conservative_destroy(graphics->conservative);
   delete graphics;
}

/* Compiles (or finds in the cache) one stage and resolves where its descriptors come from. */
static VkResult build_stage(terakan_device *device, struct vk_pipeline_cache *cache,
                            const VkGraphicsPipelineCreateInfo *info,
                            const VkPipelineShaderStageCreateInfo *stage_info, ShaderStage stage,
                            const struct vk_vertex_input_state *vertex_input, bool export_vertex_order,
                            unsigned colour_targets, terakan_graphics_stage &out, bool capture_outputs = false,
                            int conservative_edges = -1, bool dynamic_vertex_input = false,
                            bool export_distances = false)
{
   VK_FROM_HANDLE(vk_shader_module, module, stage_info->module);
   VK_FROM_HANDLE(vk_pipeline_layout, layout, info->layout);
   const char *name = stage == ShaderStage::Vertex ? "vertex" : "fragment";
   if (!module || module->nir)
      return terakan_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT,
                            "terakan: the %s stage needs a SPIR-V VkShaderModule", name);

   CompileOptions options;
   options.family = device->physical->pci->family;
   options.debug = terakan::compiler::debug_options_from_environment();
   options.buffer_bindings = terakan_buffer_bindings(layout);
   options.texture_bindings = terakan_texture_bindings(layout);
   options.sampler_forces_unnormalized =
      terakan::hw::sampler_has_force_unnormalized(device->physical->family->isa_class);
   options.robust_buffer_access = device->vk.enabled_features.robustBufferAccess;
   options.export_vertex_order = export_vertex_order;
   options.export_distances = export_distances;
   options.capture_outputs = capture_outputs;
   options.conservative_edges = conservative_edges;
   options.colour_targets = colour_targets;
   /* VK_DYNAMIC_STATE_VERTEX_INPUT_EXT: rates and divisors come with each draw, through the
    * vertex shader's driver constants (docs/compiler.md, "Dynamic vertex input"). */
   if (stage == ShaderStage::Vertex && dynamic_vertex_input)
      options.dynamic_vertex_input = true;
   else if (stage == ShaderStage::Vertex && vertex_input) {
      u_foreach_bit(location, vertex_input->attributes_valid) {
         const uint32_t binding = vertex_input->attributes[location].binding;
         /* VK_EXT_vertex_attribute_divisor: the divisor (0 included) goes into the program and
          * its cache key; the shader divides (docs/compiler.md, "Vertex inputs"). */
         if (vertex_input->bindings[binding].input_rate == VK_VERTEX_INPUT_RATE_INSTANCE)
            options.vertex_inputs.push_back({location, terakan::compiler::VertexInputRate::Instance,
                                             vertex_input->bindings[binding].divisor});
      }
   }
   VkResult result = terakan_read_specialization(device, stage_info->pSpecializationInfo, options);
   if (result != VK_SUCCESS)
      return result;
   result = terakan_obtain_binary(device, cache, module, stage_info->pName, stage, options, info->flags, out.binary);
   if (result != VK_SUCCESS)
      return result;

   /* Pixel shaders write memory through RATs placed after the colour targets (the compiler
    * numbers them; terakan_cmd_draw.cpp binds them). The vertex stage has no such place:
    * its RATs would share CB_COLOR0-7 with the same draw's colour targets and pixel-shader
    * RATs, and r600g never binds vertex-stage images or buffers to find out how. */
   if (stage == ShaderStage::Vertex && (!out.binary.rat_slots.empty() || !out.binary.image_rats.empty()))
      return terakan_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT,
                            "terakan: the vertex stage writes storage buffers, storage images or storage texel "
                            "buffers, which it cannot do (vertexPipelineStoresAndAtomics is off)");
   if (!terakan_resolve_slots(out.binary, options.buffer_bindings, layout, out.slots) ||
       !terakan_resolve_textures(out.binary, options.texture_bindings, layout, out.textures, out.unnormalized))
      return terakan_errorf(device, VK_ERROR_INITIALIZATION_FAILED,
                            "terakan: the %s stage uses a slot its pipeline layout does not provide "
                            "(a stale pipeline cache entry?)",
                            name);
   const VkResult uploaded = terakan_upload_code(device, out.binary.code, out.code_bo);
   if (uploaded != VK_SUCCESS)
      return uploaded;
   /* Unnormalized-coordinate variants (seed 004), chosen at draw time from the bound
    * samplers; none on chips whose sampler words carry the coordinate type. */
   if (!terakan_make_variants(device, out.binary, out.code_store, out.variants))
      return vk_error(device, VK_ERROR_OUT_OF_HOST_MEMORY);
   return VK_SUCCESS;
}

/* Fixed-function choices this driver cannot draw yet, refused when the pipeline fixes them. */
static VkResult check_state(terakan_device *device, const terakan_graphics_pipeline &g)
{
   const vk_graphics_pipeline_state &s = g.state;
   if (s.rs && !BITSET_TEST(s.dynamic, MESA_VK_DYNAMIC_RS_POLYGON_MODE) &&
       s.rs->polygon_mode != VK_POLYGON_MODE_FILL && s.rs->polygon_mode != VK_POLYGON_MODE_LINE &&
       s.rs->polygon_mode != VK_POLYGON_MODE_POINT)
      return terakan_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT,
                            "terakan: polygon mode %d is not supported (fill, line and point are)", s.rs->polygon_mode);
   if (s.ms && !BITSET_TEST(s.dynamic, MESA_VK_DYNAMIC_MS_RASTERIZATION_SAMPLES) &&
       !(s.ms->rasterization_samples & terakan_supported_sample_counts))
      return terakan_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT, "terakan: %u samples are not supported (1, 2, 4 and 8 are)",
                            unsigned(s.ms->rasterization_samples));
   if (s.ms && s.ms->alpha_to_one_enable)
      return terakan_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT,
                            "terakan: alpha to one is not supported (alphaToOne is off)");
   if (s.rs && s.rs->line.mode != VK_LINE_RASTERIZATION_MODE_DEFAULT_EXT)
      return terakan_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT,
                            "terakan: line rasterization modes are not supported");
   if (s.vi) {
      u_foreach_bit(location, s.vi->attributes_valid) {
         terakan_vertex_fetch_format format;
         if (!terakan_vertex_format(s.vi->attributes[location].format, format))
            return terakan_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT,
                                  "terakan: vertex attribute %u: format %d cannot be fetched", location,
                                  s.vi->attributes[location].format);
      }
   }
   if (s.rp) {
      for (uint32_t i = 0; i < s.rp->color_attachment_count; i++) {
         terakan_colour_target target;
         const VkFormat format = s.rp->color_attachment_formats[i];
         if (format != VK_FORMAT_UNDEFINED && !terakan_colour_target_format(format, target))
            return terakan_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT,
                                  "terakan: colour attachment %u: format %d cannot be rendered to", i, format);
      }
      /* A stencil format without a stencil aspect (dEQP's dynamic-rendering depth_clamp cases
       * give their depth-only format for both) has nothing to render: no stencil attachment. */
      const VkFormat stencil = s.rp->stencil_attachment_format;
      if (stencil != VK_FORMAT_UNDEFINED && vk_format_has_stencil(stencil) && stencil != VK_FORMAT_D24_UNORM_S8_UINT &&
          stencil != VK_FORMAT_D32_SFLOAT_S8_UINT)
         return terakan_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT,
                               "terakan: stencil attachment format %d cannot be rendered to", stencil);
   }
   return VK_SUCCESS;
}

/* Dual-source blending beside a fragment stage that writes memory: r600g moves its RATs one
 * slot further then (its second colour aliases CB_COLOR1, evergreen_emit_image_state); the
 * RATs here start right after the attachments, which that would overlap. Refused, untested. */
static VkResult check_dual_source_with_memory_writes(terakan_device *device, const terakan_graphics_pipeline &g)
{
   const terakan::compiler::ShaderBinary &binary = g.fragment.binary;
   if ((binary.rat_slots.empty() && binary.image_rats.empty()) || !g.state.cb)
      return VK_SUCCESS;
   auto second_source = [](uint8_t factor) {
      return factor >= VK_BLEND_FACTOR_SRC1_COLOR && factor <= VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA;
   };
   for (uint32_t i = 0; i < g.state.cb->attachment_count; i++) {
      const vk_color_blend_attachment_state &a = g.state.cb->attachments[i];
      if (a.blend_enable && (second_source(a.src_color_blend_factor) || second_source(a.dst_color_blend_factor) ||
                             second_source(a.src_alpha_blend_factor) || second_source(a.dst_alpha_blend_factor)))
         return terakan_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT,
                               "terakan: dual-source blending with a fragment stage that writes storage buffers or "
                               "images is not supported");
   }
   return VK_SUCCESS;
}

static VkResult create_graphics_pipeline(terakan_device *device, struct vk_pipeline_cache *cache,
                                         const VkGraphicsPipelineCreateInfo *info,
                                         const VkAllocationCallbacks *allocator, VkPipeline *out)
{
   for (uint32_t i = 0; i < info->stageCount; i++) {
      const VkShaderStageFlagBits stage = info->pStages[i].stage;
      if (stage != VK_SHADER_STAGE_VERTEX_BIT && stage != VK_SHADER_STAGE_FRAGMENT_BIT)
         return terakan_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT,
                               "terakan: shader stage 0x%x is not supported (vertex and fragment only)", stage);
   }
   const VkPipelineShaderStageCreateInfo *vertex = find_stage(info, VK_SHADER_STAGE_VERTEX_BIT);
   const VkPipelineShaderStageCreateInfo *fragment = find_stage(info, VK_SHADER_STAGE_FRAGMENT_BIT);
   if (!vertex)
      return terakan_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT, "terakan: a graphics pipeline needs a vertex stage");

   auto *graphics = new (std::nothrow) terakan_graphics_pipeline();
   if (!graphics)
      return vk_error(device, VK_ERROR_OUT_OF_HOST_MEMORY);
   auto fail = [&](VkResult result) {
      terakan_graphics_pipeline_destroy(graphics);
      return result;
   };
   VkResult result = vk_graphics_pipeline_state_fill(&device->vk, &graphics->state, info, nullptr, &graphics->all,
                                                     nullptr, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, nullptr);
   if (result != VK_SUCCESS)
      return fail(result);
   result = check_state(device, *graphics);
   if (result == VK_SUCCESS)
      result = terakan_conservative_check_state(device, *graphics);
   if (result != VK_SUCCESS)
      return fail(result);
   vk_dynamic_graphics_state_init(&graphics->dynamic);
   graphics->dynamic.ms.sample_locations = &graphics->sample_locations;
   /* The static vertex input state too, since command buffers keep theirs in the dynamic
    * state (VK_EXT_vertex_input_dynamic_state needs the storage on both sides). */
   graphics->dynamic.vi = &graphics->vertex_input;
   vk_dynamic_graphics_state_fill(&graphics->dynamic, &graphics->state);
   const bool dynamic_vertex_input = BITSET_TEST(graphics->state.dynamic, MESA_VK_DYNAMIC_VI);

   /* The fragment stage first: a pixel shader that reads BaryCoordKHR or PerVertexKHR needs the
    * vertex shader to export the vertex-order parameter, one that reads ClipDistance or
    * CullDistance needs them exported as parameters too. Without a fragment stage (depth-only
    * drawing), the hardware still runs a pixel shader: an empty one, built like the driver's
    * own shaders, which exports nothing, so only depth and stencil are written (colour
    * attachments' contents are undefined then in Vulkan). */
   const unsigned colour_targets = graphics->state.rp ? graphics->state.rp->color_attachment_count : 0;
   result = fragment ? build_stage(device, cache, info, fragment, ShaderStage::Fragment, nullptr, false,
                                   colour_targets, graphics->fragment)
                     : terakan_meta_build_stage(device,
                                                terakan::compiler::begin_graphics_nir(ShaderStage::Fragment,
                                                                                      "terakan empty pixel shader")
                                                   .shader,
                                                ShaderStage::Fragment, graphics->fragment);
   if (result == VK_SUCCESS)
      result = check_dual_source_with_memory_writes(device, *graphics);
   if (result == VK_SUCCESS)
      result = build_stage(device, cache, info, vertex, ShaderStage::Vertex, graphics->state.vi,
                           graphics->fragment.binary.graphics.uses_vertex_order, 0, graphics->vertex, false, -1,
                           dynamic_vertex_input, graphics->fragment.binary.graphics.reads_distances);
   /* Conservative rasterization (terakan_conservative_draw.cpp): the vertex stage once more as
    * its capture variant, then the construction and the pass-through shader. */
   if (result == VK_SUCCESS && graphics->state.rs &&
       graphics->state.rs->conservative_mode == VK_CONSERVATIVE_RASTERIZATION_MODE_OVERESTIMATE_EXT) {
      graphics->conservative = new (std::nothrow) terakan_conservative();
      if (!graphics->conservative)
         return fail(vk_error(device, VK_ERROR_OUT_OF_HOST_MEMORY));
      result = build_stage(device, cache, info, vertex, ShaderStage::Vertex, graphics->state.vi, false, 0,
                           graphics->conservative->capture, true, -1, dynamic_vertex_input);
      /* Multisampled: the fragment stage again, with the discard of the pixels the whole-pixel
       * push-out adds (its edges at varying locations the vertex stage leaves free). The
       * pipeline only ever rasterizes the fans, so this program replaces the first. */
      if (result == VK_SUCCESS && fragment && graphics->state.ms &&
          graphics->state.ms->rasterization_samples != VK_SAMPLE_COUNT_1_BIT) {
         const int edges = terakan_conservative_edge_location(*graphics);
         if (edges < 0)
            return fail(terakan_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT,
                                       "terakan: multisampled conservative rasterization needs three varying "
                                       "locations the vertex shader leaves free"));
         graphics->conservative->edges = edges;
         terakan_graphics_stage &old = graphics->fragment;
         delete old.variants;
         terakan_destroy_code_store(old.code_store);
         delete old.code_bo;
         old = terakan_graphics_stage();
         result = build_stage(device, cache, info, fragment, ShaderStage::Fragment, nullptr, false, colour_targets,
                              graphics->fragment, false, edges);
      }
      if (result == VK_SUCCESS)
         result = terakan_conservative_finish(device, *graphics);
   }
   if (result != VK_SUCCESS)
      return fail(result);

   auto *pipeline = terakan_object_new<terakan_pipeline>(allocator ? allocator : &device->vk.alloc,
                                                         VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!pipeline)
      return fail(vk_error(device, VK_ERROR_OUT_OF_HOST_MEMORY));
   vk_object_base_init(&device->vk, &pipeline->base, VK_OBJECT_TYPE_PIPELINE);
   pipeline->bind_point = VK_PIPELINE_BIND_POINT_GRAPHICS;
   pipeline->graphics = graphics;
   *out = terakan_pipeline_to_handle(pipeline);
   return VK_SUCCESS;
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL
terakan_CreateGraphicsPipelines(VkDevice _device, VkPipelineCache pipelineCache, uint32_t count,
                                const VkGraphicsPipelineCreateInfo *pCreateInfos,
                                const VkAllocationCallbacks *pAllocator, VkPipeline *pPipelines)
{
   VK_FROM_HANDLE(terakan_device, device, _device);
   VK_FROM_HANDLE(vk_pipeline_cache, cache, pipelineCache);
   return terakan_create_pipelines(device, count, pCreateInfos, pPipelines,
                                   [&](const VkGraphicsPipelineCreateInfo &info, VkPipeline &out) {
                                      return create_graphics_pipeline(device, cache, &info, pAllocator, &out);
                                   });
}

