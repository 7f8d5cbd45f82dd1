/* Decoder robustness and exactness: malformed input is an error value, never a crash;
 * whatever decodes re-encodes to the same words; the disassembly of a known program reads as
 * expected. */
#include <gtest/gtest.h>

#include <random>

#include "alu_builder.h"
#include "compiler/isa/disassembler.h"

using namespace terakan;
using namespace terakan::isa;

namespace {

/* A small Evergreen program: ALU clause of one group with a literal, a RAT store, END. */
std::vector<uint32_t> small_program()
{
   return {
      0x80000004, 0xa0080000, /* 0: ALU @4 count:3 KC0[CB0:0-31] */
      0x0000a020, 0x95e01000, /* 1: MEM_RAT_CACHELESS STORE_RAW ..., END_OF_PROGRAM */
      0x00000000, 0x80200000, /* 2: NOP END_OF_PROGRAM (LLVM's CF_END) */
      0x00000000, 0x00000000, /* 3: padding */
      0x001fa482, 0x00000b10, /* 4: x: LSHR_INT R0.x, KC0[2].y, literal.x */
      0x811044fd, 0x00201a90, /* 5: t: SUB_INT R1.x, literal.y, KC0[2].z (LAST) */
      0x00000002, 0xfffe1dc7, /* 6: literals */
   };
}

TEST(Decoder, RoundTripsAKnownProgram)
{
   const auto words = small_program();
   Program program;
   DecodeError error;
   ASSERT_TRUE(decode_program(words, IsaClass::Evergreen, program, error)) << error.message;
   EXPECT_EQ(encode_program(program), words);
   ASSERT_EQ(program.alu_clauses.size(), 1u);
   ASSERT_EQ(program.alu_clauses[0].groups.size(), 1u);
   const AluGroup &group = program.alu_clauses[0].groups[0];
   ASSERT_EQ(group.instructions.size(), 2u);
   EXPECT_EQ(group.instructions[0].op->name, "LSHR_INT");
   EXPECT_EQ(group.instructions[0].slot, Slot::X);
   EXPECT_EQ(group.instructions[1].op->name, "SUB_INT");
   EXPECT_EQ(group.instructions[1].slot, Slot::T); /* channel x already taken */
   EXPECT_EQ(group.literals, (std::vector<uint32_t>{2, 0xfffe1dc7}));
   EXPECT_EQ(program.end_index, 1u);
}

TEST(Decoder, DisassemblyText)
{
   const auto words = small_program();
   Program program;
   DecodeError error;
   ASSERT_TRUE(decode_program(words, IsaClass::Evergreen, program, error));
   DisassemblyOptions options;
   options.show_words = false;
   const std::string text = disassemble(program, options);
   EXPECT_NE(text.find("0000  ALU @4 count:3 KC0[CB0:0-31]"), std::string::npos) << text;
   EXPECT_NE(text.find("MEM_RAT_CACHELESS STORE_RAW RAT0 R1.x___, R0"), std::string::npos) << text;
   EXPECT_NE(text.find("x: LSHR_INT         R0.x, KC0[2].y, literal.x(0x00000002"), std::string::npos)
      << text;
   EXPECT_NE(text.find("t: SUB_INT          R1.x, literal.y(0xfffe1dc7"), std::string::npos) << text;
}

TEST(Decoder, RejectsReservedBits)
{
   /* CF_WORD0 bits 31:27 are reserved. */
   auto bad = small_program();
   bad[2 * 2] |= 1u << 30;
   Program program;
   DecodeError error;
   EXPECT_FALSE(decode_program(bad, IsaClass::Evergreen, program, error));
   EXPECT_NE(error.message.find("reserved bits"), std::string::npos) << error.message;
   EXPECT_EQ(error.dword, 4u);
}

TEST(Decoder, RejectsUnknownOpcodes)
{
   auto bad = small_program();
   bad[4 * 2 + 1] = (bad[4 * 2 + 1] & ~(0x7ffu << 7)) | (0x7fu << 7); /* OP2 0x7f: none */
   Program program;
   DecodeError error;
   EXPECT_FALSE(decode_program(bad, IsaClass::Evergreen, program, error));
   EXPECT_NE(error.message.find("unknown ALU OP2"), std::string::npos) << error.message;
   /* CF_END (0x20) exists on Cayman only. */
   std::array<uint32_t, 2> cf_end = {0, 0x88000000};
   CfInstruction cf_instruction;
   std::string message;
   EXPECT_TRUE(decode_cf(cf_end, IsaClass::Cayman, cf_instruction, message));
   EXPECT_FALSE(decode_cf(cf_end, IsaClass::Evergreen, cf_instruction, message));
}

TEST(Decoder, RejectsClausesOutsideTheProgram)
{
   auto bad = small_program();
   bad[0] = 0x80000006; /* ALU @6 count:3 runs to slot 9 of 7 */
   Program program;
   DecodeError error;
   EXPECT_FALSE(decode_program(bad, IsaClass::Evergreen, program, error));
   EXPECT_NE(error.message.find("past the end"), std::string::npos) << error.message;

   auto inside = small_program();
   inside[0] = 0x80000001; /* ALU @1: inside the CF stream */
   EXPECT_FALSE(decode_program(inside, IsaClass::Evergreen, program, error));
}

TEST(Decoder, RejectsProgramsWithoutAnEnd)
{
   auto bad = small_program();
   bad[1 * 2 + 1] &= ~(1u << 21); /* drop END_OF_PROGRAM from the store */
   bad[2 * 2 + 1] &= ~(1u << 21); /* and from the NOP */
   Program program;
   DecodeError error;
   EXPECT_FALSE(decode_program(bad, IsaClass::Evergreen, program, error));
   EXPECT_NE(error.message.find("END_OF_PROGRAM"), std::string::npos) << error.message;
}

TEST(Decoder, FetchShaderEndsWithItsReturn)
{
   /* r600g's fetch shader on Cayman, as Mesa's R600_DEBUG=fs printed it: a fetch clause of two
    * VFETCHes at slot 2, then RETURN and no CF_END (a subroutine ends where it returns). */
   const std::vector<uint32_t> words = {
      0x00000002, 0x80400400, /* 0: TEX @2 count:2 */
      0x00000000, 0x85000000, /* 1: RETURN */
      0x00000000, 0x08cd1001, 0x00000000, 0x00000000, /* VFETCH R1.xyzw, R0.x */
      0x00000000, 0x08cd1002, 0x00000010, 0x00000000, /* VFETCH R2.xyzw, R0.x + 16 */
   };
   Program program;
   DecodeError error;
   ASSERT_TRUE(decode_program(words, IsaClass::Cayman, program, error)) << error.message;
   EXPECT_EQ(program.end_index, 1u);
   EXPECT_EQ(encode_program(program), words);
   /* The same with a NOP in place of the RETURN has no end. */
   std::vector<uint32_t> no_end = words;
   no_end[3] = 0x80000000;
   EXPECT_FALSE(decode_program(no_end, IsaClass::Cayman, program, error));
   EXPECT_NE(error.message.find("no CF_END"), std::string::npos) << error.message;
}

TEST(Decoder, RejectsStrayData)
{
   auto bad = small_program();
   bad.push_back(0x1234); /* a slot after the last clause that nothing names */
   bad.push_back(0);
   Program program;
   DecodeError error;
   EXPECT_FALSE(decode_program(bad, IsaClass::Evergreen, program, error));
   EXPECT_NE(error.message.find("no CF instruction refers to"), std::string::npos) << error.message;
   /* The same slot as zero padding is fine. */
   bad[bad.size() - 2] = 0;
   EXPECT_TRUE(decode_program(bad, IsaClass::Evergreen, program, error)) << error.message;
}

/* A million and more random words through every decoder: errors are values, and anything that
 * decodes re-encodes to exactly the input. */
TEST(Decoder, FuzzRandomWords)
{
   std::mt19937_64 random(20261201);
   size_t words_decoded = 0, programs_accepted = 0, instructions_accepted = 0;
   for (const IsaClass isa : {IsaClass::Evergreen, IsaClass::Cayman}) {
      /* Single instructions: 300k of each kind per class. */
      for (int i = 0; i < 300000; i++) {
         const uint64_t value = random();
         const std::array<uint32_t, 2> pair = {uint32_t(value), uint32_t(value >> 32)};
         std::string message;
         CfInstruction cf_instruction;
         if (decode_cf(pair, isa, cf_instruction, message)) {
            instructions_accepted++;
            EXPECT_EQ(cf_instruction.words, pair);
         }
         AluInstruction alu_instruction;
         if (decode_alu(pair, isa, alu_instruction, message)) {
            instructions_accepted++;
            EXPECT_EQ(alu_instruction.words, pair);
         }
         const uint64_t more = random();
         const std::array<uint32_t, 4> quad = {uint32_t(value), uint32_t(value >> 32),
                                               uint32_t(more), i % 2 ? 0u : uint32_t(more >> 32)};
         FetchInstruction fetch;
         if (decode_fetch(quad, isa, FetchClauseKind::Tex, fetch, message))
            instructions_accepted++;
         words_decoded += 8;
      }
      /* Whole programs of random words, and of valid programs with one word corrupted. */
      for (int i = 0; i < 20000; i++) {
         std::vector<uint32_t> words;
         if (i % 2) {
            words = small_program();
            words[random() % words.size()] ^= uint32_t(1) << (random() % 32);
         } else {
            words.resize(2 * (1 + random() % 24));
            for (uint32_t &word : words)
               word = uint32_t(random());
         }
         Program program;
         DecodeError error;
         if (decode_program(words, isa, program, error)) {
            programs_accepted++;
            EXPECT_EQ(encode_program(program), words);
            (void)check_program(program);
            (void)disassemble(program);
         } else {
            EXPECT_FALSE(error.message.empty());
            EXPECT_LE(error.dword, words.size());
         }
         words_decoded += words.size();
      }
   }
   EXPECT_GE(words_decoded, 1000000u);
   std::printf("fuzz: %zu words decoded, %zu single instructions and %zu programs accepted\n",
               words_decoded, instructions_accepted, programs_accepted);
}

} // namespace
