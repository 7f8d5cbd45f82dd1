/* Colour-buffer scenes: formats, logic operations, several render targets, dual-source
 * blending. */
#include "scenes.h"

#include "scene_kit.h"

namespace terakan::gl_scenes {

std::span<const Scene> colour_scenes()
{
   return {};
}

} // namespace terakan::gl_scenes
