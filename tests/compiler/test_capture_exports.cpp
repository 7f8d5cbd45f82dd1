/* The capture variant of a vertex shader (CompileOptions::capture_outputs, issue 17): besides
 * its ordinary exports it writes the clip position and every varying, in parameter order, as
 * vec4s to streamout buffer 0. Checked on the decoded program for Cypress, Barts and Cayman:
 * one MEM_STREAM0_BUF0 per vec4 at dwords 0, 4, 8, ..., each writing all four channels of one
 * GPR, against the encoding LLVM's R600 backend gives the same export
 * (`llc-14 -march=r600 -mcpu=cypress|barts|cayman -show-mc-encoding` on a call of
 * llvm.r600.store.stream.output(<4 x float>, i32 4, i32 0, i32 15): words 0x00000004 and
 * 0x9000ffff: ARRAY_BASE 4, ARRAY_SIZE 0xfff, COMP_MASK 0xf, opcode 0x40, BARRIER; buffer 1
 * gives opcode 0x41). ELEM_SIZE is the one field where the two differ: LLVM leaves it 0, Mesa's
 * r600 (sfn, proven on cards) sets the components minus one, 3; the compiler follows r600.
 * The capture's parameters are the ordinary variant's, and the ordinary variant has no stream
 * exports. Transform feedback's exports (buffers 2 and 3, partial masks) are checked the same
 * way. */
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "compiler/compiler.h"
#include "compiler/isa/program.h"
#include "compiler/isa/words.h"
#include "compiler/nir_shaders.h"
#include "hw/chips.h"

namespace {

namespace compiler = terakan::compiler;
namespace isa = terakan::isa;
namespace hw = terakan::hw;

/* A vertex shader writing the position and varyings at locations 0, 3 and 5 from its inputs. */
nir_shader *vertex_shader()
{
   nir_builder b = compiler::begin_graphics_nir(compiler::ShaderStage::Vertex, "capture test");
   const int outputs[] = {VARYING_SLOT_POS, VARYING_SLOT_VAR0, VARYING_SLOT_VAR0 + 3, VARYING_SLOT_VAR0 + 5};
   for (unsigned i = 0; i < 4; i++) {
      nir_variable *in = nir_variable_create(b.shader, nir_var_shader_in, glsl_vec4_type(), "in");
      in->data.location = VERT_ATTRIB_GENERIC0 + i;
      nir_variable *out = nir_variable_create(b.shader, nir_var_shader_out, glsl_vec4_type(), "out");
      out->data.location = outputs[i];
      nir_ssa_def *value = nir_load_var(&b, in);
      if (i == 2) /* a component written as a constant (an export select in the ordinary variant) */
         value = nir_vector_insert_imm(&b, value, nir_imm_float(&b, 1.0f), 3);
      nir_store_var(&b, out, value, 0xf);
   }
   return b.shader;
}

struct Compiled {
   compiler::ShaderBinary binary;
   isa::Program program;
   std::vector<const isa::CfInstruction *> streams;
};

void compile(hw::Family family, bool capture, Compiled &out)
{
   compiler::CompileOptions options;
   options.family = family;
   options.capture_outputs = capture;
   std::string error;
   ASSERT_TRUE(compiler::compile_graphics_nir(vertex_shader(), compiler::ShaderStage::Vertex, options, out.binary, error))
      << error;
   isa::DecodeError decode_error;
   ASSERT_TRUE(isa::decode_program(out.binary.code, out.binary.isa, out.program, decode_error)) << decode_error.message;
   for (const isa::CfInstruction &cf : out.program.cf)
      if (cf.op && cf.op->name.starts_with("MEM_STREAM"))
         out.streams.push_back(&cf);
}

class CaptureExports : public ::testing::TestWithParam<hw::Family> {};

TEST_P(CaptureExports, EveryOutputIsWrittenToStreamoutBufferZero)
{
   Compiled capture, ordinary;
   compile(GetParam(), true, capture);
   compile(GetParam(), false, ordinary);
   EXPECT_TRUE(ordinary.streams.empty());
   ASSERT_EQ(capture.streams.size(), 4u);
   EXPECT_EQ(capture.binary.graphics.param_semantics, ordinary.binary.graphics.param_semantics);
   EXPECT_EQ(capture.binary.graphics.param_locations, ordinary.binary.graphics.param_locations);
   for (unsigned k = 0; k < 4; k++) {
      const isa::CfInstruction &cf = *capture.streams[k];
      SCOPED_TRACE(k);
      EXPECT_EQ(cf.op->name, "MEM_STREAM0_BUF0");
      EXPECT_EQ(cf.get(isa::cf_export::inst), 0x40u);
      EXPECT_EQ(cf.get(isa::cf_export::type), 0u);
      EXPECT_EQ(cf.get(isa::cf_export::array_base), 4 * k);
      EXPECT_EQ(cf.get(isa::cf_export::array_size), 0xfffu);
      EXPECT_EQ(cf.get(isa::cf_export::comp_mask), 0xfu);
      EXPECT_EQ(cf.get(isa::cf_export::elem_size), 3u);
      EXPECT_EQ(cf.get(isa::cf_export::burst_count), 0u);
      EXPECT_EQ(cf.get(isa::cf_export::rw_rel), 0u);
      EXPECT_EQ(cf.get(isa::cf_export::barrier), 1u);
      EXPECT_EQ(cf.get(isa::cf_export::mark), 0u);
      EXPECT_LT(cf.get(isa::cf_export::rw_gpr), capture.binary.gprs);
      /* LLVM's words for ARRAY_BASE 4 (ELEM_SIZE aside). */
      if (k == 1) {
         EXPECT_EQ(cf.words[0] & ~(3u << 30) & ~(0x7fu << 15), 0x00000004u);
         EXPECT_EQ(cf.words[1], 0x9000ffffu);
      }
   }
}

/* Transform feedback (VK_EXT_transform_feedback): a vec2 varying to buffer 2 at byte 24 and
 * the z of a varying (location_frac 2) to buffer 3 at byte 4, as the decorations gathered from
 * the variables say. Against LLVM's encoding of llvm.r600.store.stream.output(<4 x float>,
 * i32 6, i32 2, i32 3) and (..., i32 1, i32 3, i32 1) (`llc-14 -march=r600 -mcpu=cypress|cayman
 * -show-mc-encoding`, words 0x00000006 0x90803fff and 0x00000001 0x90c01fff: opcodes 0x42 and
 * 0x43, COMP_MASK 3 and 1), ELEM_SIZE and the GPR aside. */
nir_shader *xfb_vertex_shader()
{
   nir_builder b = compiler::begin_graphics_nir(compiler::ShaderStage::Vertex, "xfb test");
   nir_variable *in = nir_variable_create(b.shader, nir_var_shader_in, glsl_vec4_type(), "in");
   in->data.location = VERT_ATTRIB_GENERIC0;
   nir_ssa_def *value = nir_load_var(&b, in);
   nir_variable *position = nir_variable_create(b.shader, nir_var_shader_out, glsl_vec4_type(), "position");
   position->data.location = VARYING_SLOT_POS;
   nir_store_var(&b, position, value, 0xf);
   auto captured = [&](const glsl_type *type, int location, unsigned frac, unsigned buffer, unsigned offset,
                       unsigned stride) {
      nir_variable *out = nir_variable_create(b.shader, nir_var_shader_out, type, "captured");
      out->data.location = location;
      out->data.location_frac = frac;
      out->data.explicit_xfb_buffer = true;
      out->data.explicit_xfb_stride = true;
      out->data.explicit_offset = true;
      out->data.xfb.buffer = uint16_t(buffer);
      out->data.xfb.stride = uint16_t(stride);
      out->data.offset = offset;
      return out;
   };
   nir_store_var(&b, captured(glsl_vec_type(2), VARYING_SLOT_VAR0 + 1, 0, 2, 24, 32), nir_channels(&b, value, 3), 3);
   nir_store_var(&b, captured(glsl_float_type(), VARYING_SLOT_VAR0 + 2, 2, 3, 4, 8), nir_channel(&b, value, 1), 1);
   return b.shader;
}

TEST_P(CaptureExports, TransformFeedbackOutputsGoToTheirBuffersAndOffsets)
{
   compiler::CompileOptions options;
   options.family = GetParam();
   Compiled out;
   std::string error;
   ASSERT_TRUE(compiler::compile_graphics_nir(xfb_vertex_shader(), compiler::ShaderStage::Vertex, options, out.binary,
                                              error))
      << error;
   isa::DecodeError decode_error;
   ASSERT_TRUE(isa::decode_program(out.binary.code, out.binary.isa, out.program, decode_error)) << decode_error.message;
   for (const isa::CfInstruction &cf : out.program.cf)
      if (cf.op && cf.op->name.starts_with("MEM_STREAM"))
         out.streams.push_back(&cf);
   ASSERT_EQ(out.streams.size(), 2u);
   const std::array<uint32_t, 4> strides{0, 0, 32, 8};
   EXPECT_EQ(out.binary.graphics.xfb_strides, strides);
   const char *names[2] = {"MEM_STREAM0_BUF2", "MEM_STREAM0_BUF3"};
   const uint32_t word0[2] = {0x00000006u, 0x00000001u}, word1[2] = {0x90803fffu, 0x90c01fffu};
   /* nir_gather_xfb_info orders the outputs by offset: buffer 3's (byte 4) comes first. */
   for (unsigned k = 0; k < 2; k++) {
      const isa::CfInstruction &cf = *out.streams[1 - k];
      SCOPED_TRACE(k);
      EXPECT_EQ(cf.op->name, names[k]);
      EXPECT_EQ(cf.get(isa::cf_export::elem_size), 3u);
      EXPECT_EQ(cf.words[0] & ~(3u << 30) & ~(0x7fu << 15), word0[k]);
      EXPECT_EQ(cf.words[1], word1[k]);
   }
}

INSTANTIATE_TEST_SUITE_P(Chips, CaptureExports,
                         ::testing::Values(hw::Family::Cypress, hw::Family::Barts, hw::Family::Cayman),
                         [](const ::testing::TestParamInfo<hw::Family> &info) {
                            return std::string(hw::family_info(info.param).name);
                         });

} // namespace
