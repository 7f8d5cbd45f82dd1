/* Shaders the driver builds itself with nir_builder (clears and other meta operations: the
 * meta rule of the design, no hand-assembled microcode), compiled by the same pipeline as
 * SPIR-V from the point where translation ends. */
#pragma once

#include <string>

#include <vulkan/vulkan_core.h>

#include "compiler.h"
#include "compiler/nir/nir.h"
#include "compiler/nir/nir_builder.h"

namespace terakan::compiler {

/* A builder over a new, empty vertex or fragment shader with the compiler's NIR options. The
 * shader holds a reference on Mesa's GLSL type singleton (for its variables' types) until
 * compile_graphics_nir releases it. Build it as spirv_to_nir would: inputs and outputs as
 * variables with locations, stores through derefs. */
nir_builder begin_graphics_nir(ShaderStage stage, const char *name);

/* Compiles and releases the shader. Same results and errors as compile_graphics. */
bool compile_graphics_nir(nir_shader *shader, ShaderStage stage, const CompileOptions &options,
                          ShaderBinary &binary, std::string &error);

/* The same for a compute shader with the given workgroup size (the driver's own dispatches,
 * such as vkCmdCopyQueryPoolResults). Buffers are named as spirv_to_nir names them after
 * lowering: vulkan_resource_index(set 0, binding b) is buffer slot b (the corpus ABI). */
nir_builder begin_compute_nir(const char *name, unsigned width, unsigned height, unsigned depth);
/* The storage buffer at binding `slot` of set 0, as a descriptor for load_ssbo/store_ssbo
 * (the (index, offset) pair spirv_to_nir makes). */
inline nir_ssa_def *storage_buffer_nir(nir_builder *b, unsigned slot)
{
   _nir_vulkan_resource_index_indices index{};
   index.desc_set = 0;
   index.binding = slot;
   index.desc_type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
   nir_ssa_def *resource = _nir_build_vulkan_resource_index(b, 2, 32, nir_imm_int(b, 0), index);
   _nir_load_vulkan_descriptor_indices descriptor{};
   descriptor.desc_type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
   return _nir_build_load_vulkan_descriptor(b, 2, 32, resource, descriptor);
}
bool compile_compute_nir(nir_shader *shader, const CompileOptions &options, ShaderBinary &binary,
                         std::string &error);

} // namespace terakan::compiler
