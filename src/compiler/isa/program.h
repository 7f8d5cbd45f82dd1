/* A TeraScale shader program, decoded: the CF stream, and the ALU and fetch clauses it names.
 *
 * Every instruction keeps its raw dwords (the single source of truth for encoding), with the
 * table entry and derived facts (slot, format) beside them. decode_program() and
 * encode_program() are exact inverses for every program decode accepts.
 */
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "formats.h"
#include "opcodes.h"
#include "words.h"

namespace terakan::isa {

struct CfInstruction {
   uint32_t index = 0; /* 64-bit slot in the program */
   std::array<uint32_t, 2> words{};
   const CfOpInfo *op = nullptr;
   WordFormat format = WordFormat::CfPlain;

   uint32_t get(Field field) const { return field.get(words); }
   void set(Field field, uint32_t value) { field.set(words, value); }
};

enum class Slot : uint8_t { X, Y, Z, W, T, Invalid };

char slot_name(Slot slot);

struct AluInstruction {
   std::array<uint32_t, 2> words{};
   const AluOpInfo *op = nullptr;
   WordFormat format = WordFormat::AluOp2;
   Slot slot = Slot::Invalid; /* assigned by the hardware's rule, see assign_slots() */

   uint32_t get(Field field) const { return field.get(words); }
   void set(Field field, uint32_t value) { field.set(words, value); }
   bool is_op3() const { return format != WordFormat::AluOp2; }
   bool is_lds() const { return format == WordFormat::AluLds; }
   unsigned source_count() const { return op ? op->sources : 0; }
   /* LDS_IDX_OP: the 6-bit offset scattered over six bits. */
   unsigned lds_offset() const;
};

/* One operand of an ALU instruction, read out of whichever word holds it. */
struct AluSource {
   unsigned sel = 0, chan = 0;
   bool rel = false, neg = false, abs = false;
};
AluSource alu_source(const AluInstruction &instruction, unsigned index);

struct AluGroup {
   uint32_t index = 0; /* slot of its first instruction */
   std::vector<AluInstruction> instructions;
   /* The literal dwords that follow the group, padding included (0, 2 or 4 dwords). */
   std::vector<uint32_t> literals;

   uint32_t slot_count() const { return uint32_t(instructions.size() + literals.size() / 2); }
};

struct AluClause {
   uint32_t address = 0;     /* first slot */
   uint32_t slot_count = 0;  /* instructions + literal slots */
   std::vector<AluGroup> groups;
};

struct FetchInstruction {
   std::array<uint32_t, 4> words{};
   const FetchOpInfo *op = nullptr;
   WordFormat format = WordFormat::Tex;

   uint32_t get(Field field) const { return field.get(words); }
   void set(Field field, uint32_t value) { field.set(words, value); }
};

enum class FetchClauseKind : uint8_t { Tex, Vtx, Gds };

struct FetchClause {
   uint32_t address = 0; /* first slot (128-bit aligned: even) */
   FetchClauseKind kind = FetchClauseKind::Tex;
   std::vector<FetchInstruction> instructions;
};

struct Program {
   IsaClass isa = IsaClass::Evergreen;
   /* Every 64-bit slot before the first clause, decoded as CF (unreachable ones included). */
   std::vector<CfInstruction> cf;
   /* Index of the first CF instruction that ends the threads executing it (END_OF_PROGRAM bit
    * on Evergreen, CF_END on Cayman). Later CF instructions can still be reached by branches. */
   uint32_t end_index = 0;
   std::vector<AluClause> alu_clauses;
   std::vector<FetchClause> fetch_clauses;
   uint32_t size_dwords = 0;
};

struct DecodeError {
   uint32_t dword = 0; /* offset of the offending word */
   std::string message;
};

/* Decodes a whole program. Never trusts the input: anything malformed (unknown opcode,
 * reserved bits set, a clause outside the program or overlapping another, a program without an
 * end, non-zero bytes nothing refers to) is returned as an error. */
bool decode_program(std::span<const uint32_t> dwords, IsaClass isa, Program &program,
                    DecodeError &error);

/* The same for a program that starts at dwords[0] but whose length is not known: the GPU
 * executes from a start address, and whatever follows the program in its buffer (other
 * shaders, data) is not its business. The program ends with its last clause, or at its first
 * end marker if no clause comes before it; size_dwords says where. */
bool decode_program_at(std::span<const uint32_t> dwords, IsaClass isa, Program &program,
                       DecodeError &error);

/* Lays the program out again: the exact inverse of decode_program. */
std::vector<uint32_t> encode_program(const Program &program);

/* Single-instruction decoding, for tools and tests. */
bool decode_cf(std::span<const uint32_t, 2> words, IsaClass isa, CfInstruction &out,
               std::string &error);
bool decode_alu(std::span<const uint32_t, 2> words, IsaClass isa, AluInstruction &out,
                std::string &error);
bool decode_fetch(std::span<const uint32_t, 4> words, IsaClass isa, FetchClauseKind clause,
                  FetchInstruction &out, std::string &error);

/* How many literal dwords a group reads (the highest literal channel referenced + 1). */
unsigned literals_referenced(std::span<const AluInstruction> group);

/* Gives each instruction of a group its slot, as the hardware assigns them: in order, a vector
 * instruction takes the slot of its destination channel; on Evergreen an instruction goes to t
 * when it is trans-only, or when it may run in t and its vector slot is taken. Returns false if
 * two instructions need the same slot (those get Slot::Invalid). Sources: Mesa sb's
 * shader::assign_slot(), r600_asm.c assign_alu_units(); LLVM R600Packetizer. */
bool assign_slots(std::span<AluInstruction> group, IsaClass isa);

} // namespace terakan::isa
