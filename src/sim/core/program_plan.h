/* A decoded program prepared for the shader core, once per program: every CF instruction
 * classified with its clause located, and every ALU instruction resolved to what runs (its
 * lane function or special kind, where each operand comes from, where the result goes). The
 * wave executor's loops then look at no names, maps or bit fields.
 *
 * Nothing here refuses anything: whatever depends on the state at run time (GPR allocation,
 * kcache locks, AR, PV, which lanes execute) is still checked when the instruction runs, and a
 * static problem (an opcode that is not simulated, a CF_ALU pointing at no clause) is recorded
 * and reported only if the instruction is reached, as before the plan existed. */
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "alu_semantics.h"
#include "compiler/isa/bundle_rules.h"
#include "compiler/isa/program.h"

namespace terakan::sim {

/* ---- ALU ---- */

enum class OperandKind : uint8_t {
   Gpr,         /* R(sel + AR if rel).chan, including the clause temporaries */
   Constant,    /* a kcache constant: sel names the set and the constant in its locked line */
   Value,       /* a literal or an inline constant: `value` */
   Previous,    /* PV.chan or PS: `previous_slot` */
   LdsQueue,    /* LDS output queue A, popped if `pop` */
   WaveId,      /* HW_WAVE_ID: the wave's hardware slot */
   SeId,        /* SE_ID: the shader engine running the wave */
   Unsimulated, /* an operand select the simulator does not model: refused when read */
};

struct PreparedOperand {
   OperandKind kind = OperandKind::Value;
   bool rel = false, pop = false;
   unsigned sel = 0, chan = 0; /* as encoded */
   uint32_t value = 0;
   size_t value_row = 0; /* Value: its row of `width` copies in PreparedProgram::value_rows */
   unsigned previous_slot = 0;
   /* ABS then NEG: operand = (raw & abs_mask) ^ neg_mask. */
   uint32_t abs_mask = ~0u, neg_mask = 0;

   bool modified() const { return abs_mask != ~0u || neg_mask != 0; }
};

enum class AluKind : uint8_t {
   Plain,     /* out = lanes(a, b, c) */
   Reduction, /* DOT4, DOT4_IEEE, MAX4: over the group's slots of the same opcode */
   Cube,      /* CUBE: over the four slots */
   Kill,      /* KILL*: removes pixel lanes */
   PredSet,   /* PRED_SET*: exec mask and predicate */
   Mova,      /* MOVA*: AR for the next group */
   Interp,    /* INTERP_*: the SPI's parameters */
   Lds,       /* LDS_IDX_OP */
   Barrier,   /* GROUP_BARRIER */
   LaneCount, /* MBCNT_32HI_INT, MBCNT_32LO_ACCUM_PREV_INT: set mask bits of the lanes below */
};

enum class ReductionKind : uint8_t { Dot4, Dot4Ieee, Max4 };

enum class LdsOp : uint8_t {
   Read, ReadSubword, Write, WriteSubword,
   Add, Sub, Rsub, Inc, Dec, MinInt, MaxInt, MinUint, MaxUint, And, Or, Xor, Xchg, CmpXchg,
   Unsimulated,
};

struct PreparedAlu {
   const isa::AluInstruction *instruction = nullptr;
   std::string_view name;
   AluKind kind = AluKind::Plain;
   isa::Slot slot = isa::Slot::Invalid;
   unsigned source_count = 0; /* operands read: min(opcode's sources, encoding's fields) */
   std::array<PreparedOperand, 3> sources{};
   unsigned pred_sel = 0;
   AluLanesFunction lanes = nullptr;     /* Plain; nullptr if not simulated */
   ConditionFunction condition = nullptr; /* Kill and PredSet; nullptr if not simulated */
   unsigned omod = 0;
   bool clamp = false, update_exec_mask = false, update_pred = false;
   /* The GPR write: OP3 always writes, OP2 by WRITE_MASK; MOVA writes AR instead. */
   bool writes_gpr = false, dst_rel = false;
   unsigned dst_gpr = 0, dst_chan = 0;
   /* Reduction and Cube: the group's instructions (indices) of the same opcode, in order,
    * excluding the t slot for reductions. */
   ReductionKind reduction = ReductionKind::Dot4;
   std::vector<unsigned> partners;
   /* Interp: which parameter and channel, the INTERP_LOAD term, the paired slot, and what to
    * refuse (after the checks that need the wave) if the group cannot be interpolated. */
   bool interp_has_parameter = false, interp_load = false, interp_even = false;
   unsigned interp_parameter = 0, interp_channel = 0, interp_term = 0, interp_partner = 0;
   std::string interp_problem;
   /* Lds */
   LdsOp lds_op = LdsOp::Unsimulated;
   bool lds_returns = false, lds_signed = false;
   unsigned lds_bytes = 4, lds_offset = 0;
};

struct PreparedGroup {
   const isa::AluGroup *group = nullptr;
   std::vector<PreparedAlu> instructions;
   bool has_mova = false;
};

struct PreparedAluClause {
   const isa::AluClause *clause = nullptr;
   std::vector<PreparedGroup> groups;
};

/* ---- CF ---- */

enum class CfKind : uint8_t {
   Alu, AluExtension, Fetch, Nop, Jump, Push, Else, Pop, LoopStart, LoopBreak, LoopContinue,
   LoopEnd, Rat, CallFs, Return, Export, StreamOut, Scratch, End, WaitAck, Ring, Emit, Unsimulated,
};

/* What an ALU clause's CF instruction does to the stack around the clause. */
enum class AluCfKind : uint8_t { Plain, PushBefore, PopAfter, Pop2After, UnsimulatedAfter };

struct CfStep {
   CfKind kind = CfKind::Unsimulated;
   AluCfKind alu_kind = AluCfKind::Plain;
   bool unsimulated_cond = false; /* COND other than ACTIVE on a plain CF other than NOP */
   bool ends_program = false;     /* END_OF_PROGRAM (Evergreen) or CF_END (Cayman) */
   /* Alu: the clause at ADDR (nullptr: none, refused when reached) and the kcache locks of
    * this CF_ALU and of an ALU_EXTENDED just before it. */
   const PreparedAluClause *alu = nullptr;
   std::array<isa::KcacheLock, 4> kcache{};
   /* Fetch: the clause at ADDR, nullptr if none. */
   const isa::FetchClause *fetch = nullptr;
};

struct PreparedProgram {
   const isa::Program *program = nullptr;
   std::vector<PreparedAluClause> alu_clauses;
   std::vector<CfStep> cf; /* one per program->cf */
   size_t widest_group = 0; /* instructions in the largest ALU group */
   /* Every Value operand as a row of wave-width copies, modifiers applied: read in place. */
   unsigned width = 64;
   std::vector<uint32_t> value_rows;
};

/* Prepares `program` (which must outlive `out`) for a chip of class `isa` running waves of
 * `width` lanes. */
void prepare_program(const isa::Program &program, isa::IsaClass isa, unsigned width, PreparedProgram &out);

} // namespace terakan::sim
