/* VK_KHR_fragment_shader_barycentric in the front end (barycentric.cpp).
 *
 * Mesa 22.3's spirv_to_nir does not know SPV_KHR_fragment_shader_barycentric (it fails on the
 * FragmentBarycentricKHR capability and the BaryCoordKHR built-ins). So the module is first
 * rewritten, word for word in place, into forms the translator reads, and the NIR it makes is
 * then lowered to what select_graphics.cpp selects:
 *
 *   BaryCoordKHR / BaryCoordNoPerspKHR  -> an input at a reserved location -> the SPI's I/J pair
 *                                          (perspective or linear; center or centroid) as
 *                                          (1 - I - J, I, J)
 *   PerVertexKHR T v[3]                 -> ExplicitInterpAMD (INTERP_MODE_EXPLICIT) -> per access
 *                                          v[k]... an interp_deref_at_vertex, which nir_lower_io
 *                                          makes load_input_vertex (INTERP_LOAD_P0/P10/P20)
 *
 * Both are then rotated from the SPI's vertex order to Vulkan's, which starts at the provoking
 * vertex (found through the vertex-order inputs below).
 *
 * docs/compiler.md ("Fragment-shader barycentrics") has the vertex order and what is refused. */
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "compiler/nir/nir.h"

namespace terakan::compiler {

/* The vertex-order inputs lower_fragment_barycentrics reads: the vertex shader's vertex-order
 * parameter (CompileOptions::export_vertex_order) flat (the provoking vertex's) and per vertex
 * (P0, P1, P2). They sit at OpenGL-only varying slots that SPIR-V never reaches;
 * select_graphics.cpp gives them the SPI semantic vertex_order_semantic. */
constexpr gl_varying_slot vertex_order_provoking_slot = VARYING_SLOT_TEX6;
constexpr gl_varying_slot vertex_order_vertices_slot = VARYING_SLOT_TEX7;

/* Whether the module declares the FragmentBarycentricKHR capability. */
bool uses_fragment_barycentrics(std::span<const uint32_t> spirv);

/* Rewrites a (validated) module that uses the capability into `out` for Mesa 22.3's
 * translator. False with `error` for forms the rewrite does not take (the built-ins or
 * PerVertexKHR on block members). */
bool rewrite_barycentric_spirv(std::span<const uint32_t> spirv, std::vector<uint32_t> &out, std::string &error);

/* After the variables are lowered to SSA and before nir_lower_io: the rewritten built-ins
 * become barycentric loads, PerVertexKHR accesses interp_deref_at_vertex. False with `error`
 * for what is refused (sample-rate barycentrics, PerVertexKHR inputs that are not float). */
bool lower_fragment_barycentrics(nir_shader *shader, std::string &error);

} // namespace terakan::compiler
