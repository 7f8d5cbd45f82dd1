/* The scenes: each draws one small picture that exercises one GL feature, the same way on
 * every driver, so that a hardware driver's picture can be compared with llvmpipe's. */
#pragma once

#include <span>
#include <string_view>

namespace terakan::gl_scenes {

class SceneKit;

struct Scene {
   const char *name;
   const char *description;
   void (*draw)(SceneKit &kit);
   /* The depth/stencil renderbuffer's internal format (GL_DEPTH24_STENCIL8, GL_DEPTH_COMPONENT16,
    * ...), or 0 for none. The scene clears it itself. */
   unsigned depth_format = 0;
   /* Pixels a comparison may ignore, where GL lets implementations differ (a line's end
    * pixels, say), and why; x and y count from the bottom-left pixel as GL does. */
   bool (*masked)(int x, int y, int width, int height) = nullptr;
   const char *mask_reason = nullptr;
};

/* Every scene, in order: the core ones (scenes.cpp), then each group's. */
std::span<const Scene> all_scenes();
/* Colour-buffer scenes (scenes_colour.cpp): formats, logic operations, several targets,
 * dual-source blending. */
std::span<const Scene> colour_scenes();
/* Transform feedback scenes (scenes_streamout.cpp). */
std::span<const Scene> streamout_scenes();
/* Query scenes (scenes_queries.cpp): conditional rendering, timer queries. */
std::span<const Scene> queries_scenes();
/* Multisampling scenes (scenes_msaa.cpp): 4x framebuffers resolved with glBlitFramebuffer. */
std::span<const Scene> msaa_scenes();
/* Sample-shading scenes (scenes_sample_shading.cpp, desktop GL 4.5): per-sample built-ins and
 * interpolation in 4x framebuffers. */
std::span<const Scene> sample_shading_scenes();
/* Helper-invocation scenes (scenes_helpers.cpp, desktop GL 4.5): gl_HelperInvocation. */
std::span<const Scene> helper_scenes();
/* Anisotropic filtering scenes (scenes_anisotropy.cpp): an oblique plane at 1x and 16x. */
std::span<const Scene> anisotropy_scenes();
/* Primitive types GLES lacks (scenes_primitives.cpp, desktop GL 4.5): adjacency without a
 * geometry shader, quads, quad strips, polygons. */
std::span<const Scene> primitive_scenes();
/* Private arrays in scratch memory (scenes_scratch.cpp): r600g's TMP rings. */
std::span<const Scene> scratch_scenes();
/* Loops with divergent breaks and continues (scenes_loops.cpp). */
std::span<const Scene> loop_scenes();
/* textureGather scenes (scenes_gathers.cpp): r600g's GATHER4. */
std::span<const Scene> gather_scenes();
/* Image stores in the normalized, 10-bit and packed-float formats (scenes_storage_formats.cpp,
 * desktop GL 4.5): r600g's typed RAT conversions. */
std::span<const Scene> storage_format_scenes();
/* Geometry shader scenes (scenes_geometry.cpp, desktop GL 3.3 core): r600g's ES, GS and copy
 * shader. */
std::span<const Scene> geometry_scenes();
/* textureQueryLod scenes (scenes_lod_queries.cpp, desktop GL 4.5): r600g's GET_LOD. */
std::span<const Scene> lod_query_scenes();
/* nullptr if no scene has that name. */
const Scene *find_scene(std::string_view name);

} // namespace terakan::gl_scenes
