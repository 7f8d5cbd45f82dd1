/* Storage images and storage texel buffers as the backend wants them (docs/compiler.md,
 * "Storage images"):
 *
 *  - imageLoad becomes a texelFetch (LD, or a VFETCH for a texel buffer) of the element's
 *    texture resource, which texture_lowering.cpp then names like any other;
 *  - imageSize becomes a textureSize (GET_TEXTURE_RESINFO) of the same resource;
 *  - imageStore becomes nir_intrinsic_image_store with the element's RAT
 *    (TextureBinding::first_rat) as a constant index, selected as MEM_RAT STORE_TYPED;
 *  - the integer image atomics become nir_intrinsic_image_atomic_* on that RAT, selected as
 *    RAT atomics addressed by coordinates (returning forms through the RAT return buffer).
 *
 * The format both paths convert through is the descriptor's (the view's), not the shader's
 * declared one: reads and writes without a format work alike. What is not supported (float
 * and wrapping image atomics, multisampled storage images, run-time indexed store arrays,
 * texel-buffer sizes) is refused with a message. Cube views are read and written as 2D arrays
 * of faces (the driver binds them so). */
#pragma once

#include <string>

#include "compiler/compiler.h"
#include "compiler/nir/nir.h"

namespace terakan::compiler {

bool lower_images(nir_shader *shader, const CompileOptions &options, std::string &error);

} // namespace terakan::compiler
