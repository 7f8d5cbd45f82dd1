/* The driver's own draws (clears, resolves, blits): what they share. Their shaders are built
 * with nir_builder and compiled by Terakan's compiler (the design's meta rule). */
#pragma once

#include <map>
#include <memory>
#include <mutex>

#include "terakan_private.h"
#include "compiler/nir_shaders.h"

/* A compute program of the driver's own (the copies: terakan_meta_copy.cpp), or why it could
 * not be made. */
struct terakan_meta_compute {
   VkResult result = VK_SUCCESS;
   terakan::compiler::ShaderBinary binary;
   terakan::winsys::RadeonBo *code_bo = nullptr;
   ~terakan_meta_compute() { delete code_bo; }
};

/* Program pairs made on first use and kept for the device's lifetime. */
struct terakan_meta {
   std::mutex lock;
   std::map<uint32_t, terakan_graphics_pipeline *> clears; /* by the 2-bit kinds of targets 0-7 */
   std::map<uint32_t, terakan_graphics_pipeline *> blits;  /* by terakan_meta_blit.cpp's key */
   /* by terakan_meta_depth_resolve.cpp's key (aspect, mode, samples) */
   std::map<uint32_t, terakan_graphics_pipeline *> depth_resolves;
   /* by terakan_meta_copy_msaa.cpp's key (colour, depth or stencil) */
   std::map<uint32_t, terakan_graphics_pipeline *> msaa_copies;
   /* by terakan_meta_copy.cpp's key (source and destination kinds) */
   std::map<uint32_t, std::unique_ptr<terakan_meta_compute>> copies;
   /* terakan_transform_feedback.cpp's counter conversion */
   std::unique_ptr<terakan_meta_compute> xfb_counters;
};

/* Where the meta vertex shader finds its three RECTLIST corners in the push constants. */
inline constexpr unsigned terakan_meta_corner_bytes = 128;

/* The vertex shader of every meta draw: corner gl_VertexIndex from the push constants. */
nir_shader *terakan_meta_vertex_shader();
/* Compiles a meta shader for `stage` and uploads its code; `textures` places its samplers
 * (empty: none). */
VkResult terakan_meta_build_stage(terakan_device *device, nir_shader *shader, terakan::compiler::ShaderStage stage,
                                  terakan_graphics_stage &out,
                                  const std::vector<terakan::compiler::TextureBinding> &textures = {});
/* A meta draw's RECTLIST over `rect` (the corners at depth `depth`, into `push`) and the
 * dynamic state every meta draw starts from: one viewport over the whole rendering area, the
 * scissor on `rect`, no culling. */
void terakan_meta_rectangle(const terakan_rendering &r, const VkRect2D &rect, float depth, uint8_t *push,
                            struct vk_dynamic_graphics_state &dynamic);
/* Emits `setup`'s state and the RECTLIST's draw. */
bool terakan_meta_draw_rectangle(terakan_cmd_buffer *cmd, const terakan_draw_setup &setup);
/* The dynamic state of a meta draw that writes depth (tested ALWAYS) or, with `stencil`, the
 * stencil reference its pixel shader exports (REPLACE, tested ALWAYS): depth resolves and
 * multisampled copies. */
void terakan_meta_write_depth_or_stencil(struct vk_dynamic_graphics_state &dynamic, bool stencil);
/* Draws `pipeline`'s RECTLIST with `dynamic` and `push`, its pixel shader reading `texture`
 * through a default sampler (texelFetch needs none, the texture unit a sampler word). */
bool terakan_meta_draw_reading(terakan_cmd_buffer *cmd, const terakan_graphics_pipeline *pipeline,
                               const struct vk_dynamic_graphics_state &dynamic, const uint8_t *push,
                               const terakan_image_view &texture);
/* The program pair cached in `programs` under `key`, made on first use (the meta vertex shader
 * and `make_pixel_shader()`, whose samplers `textures` places) and kept for the device's
 * lifetime; nullptr with `result` set if it cannot be made. */
terakan_graphics_pipeline *terakan_meta_program_pair(terakan_device *device,
                                                     std::map<uint32_t, terakan_graphics_pipeline *> &programs,
                                                     uint32_t key, nir_shader *(*make_pixel_shader)(uint32_t),
                                                     const std::vector<terakan::compiler::TextureBinding> &textures,
                                                     VkResult &result);

/* A 2D view of one level and layer of `image` for the driver's own draws, with its texture
 * resource words. */
terakan_image_view terakan_meta_subresource_view(terakan_image *image, uint32_t level, uint32_t layer);
