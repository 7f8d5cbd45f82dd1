/* The rules a VLIW instruction group (and an ALU clause) must obey, checked on decoded or
 * freshly built instructions. The compiler runs this on everything it emits and the simulator
 * on every group it executes; a violation is a program a real card would run wrongly or hang on.
 *
 * Each rule has an id, a statement and its sources (rule_info()). Sources are AMD's R700 ISA
 * document (the Evergreen and Cayman documents keep its section 4.7 structure; we could not read
 * their text), Mesa 22.3.6's r600 backends (r600_asm.c, sb, sfn) and LLVM's R600 backend
 * (R600InstrInfo.cpp, R600Packetizer.cpp); docs/isa-rules.md tells which rules rest on which. */
#pragma once

#include <array>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "program.h"

namespace terakan::isa {

enum class Rule : uint8_t {
   SlotAssignment,     /* two instructions need the same slot; too many instructions */
   SlotLegality,       /* an opcode in a slot it may not use */
   FourSlotGroup,      /* DOT4/CUBE/MAX4/INTERP_XY/ZW (and Cayman MUL_64...) fill x,y,z,w */
   PairSlots,          /* INTERP_X in x,y; INTERP_Z in z,w */
   CaymanReplicated,   /* Cayman transcendentals: identical copies in x,y,z(,w) */
   GprReadPorts,       /* one GPR per channel per read cycle, given the bank swizzles */
   TransBankSwizzle,   /* t slot takes SCL_210/122/212/221 only */
   TransConstantCount, /* t slot reads at most two constants */
   TransConstantCycle, /* t slot GPR/PV/PS reads come after its constant reads */
   ConstantReadPorts,  /* at most two (constant, xy/zw half) pairs per group */
   KcacheLocked,       /* a kcache operand must fall in a line its clause locked */
   LiteralMissing,     /* a literal operand beyond the literals that follow the group */
   SourceSelect,       /* reserved or misplaced operand selects */
   PreviousResult,     /* PV/PS read with no producing instruction in the previous group */
   CaymanNoPs,         /* Cayman has no t slot and no PS */
   DestinationUnique,  /* two instructions write the same GPR channel */
   MovaOnce,           /* at most one MOVA* per group */
   MovaWithRelative,   /* a MOVA and an AR-relative access in one group */
   RelativeBeforeMova, /* AR-relative access in a clause before any MOVA in it */
   LdsPerGroup,        /* at most one LDS instruction, not with an LDS queue read */
   LdsQueueRead,       /* LDS queue reads: not in t, read in cycle 0 */
   LdsQueueBalance,    /* pops only after pushes, all pushed values popped in the clause */
   PredicateOnce,      /* at most one PRED_SET*, never with KILL */
   InterpSwizzle,      /* INTERP_* use bank swizzle VEC_210 */
   ClauseSize,         /* at most 128 slots per ALU clause */
};

struct RuleInfo {
   Rule rule;
   std::string_view id;
   std::string_view statement;
   std::string_view sources;
};

std::span<const RuleInfo> all_rules();
const RuleInfo &rule_info(Rule rule);

struct Violation {
   Rule rule;
   int instruction; /* index in the group, or -1 for the whole group/clause */
   std::string message;
};

/* What a group sees of its clause. */
struct KcacheLock {
   unsigned mode = 0; /* 0 none, 1 one line (16 constants), 2 two lines, 3 loop-indexed */
   unsigned bank = 0;
   unsigned line = 0;
};

/* Read cycle of src0, src1, src2 for each bank swizzle (AMD field names VEC_012..VEC_210 in
 * vector slots, SCL_210..SCL_221 in the t slot). In each cycle a group reads at most one GPR
 * per channel (rule GPR_READ_PORTS). */
inline constexpr unsigned bank_swizzle_vector_cycles[6][3] = {
   {0, 1, 2}, {0, 2, 1}, {1, 2, 0}, {1, 0, 2}, {2, 0, 1}, {2, 1, 0},
};
inline constexpr unsigned bank_swizzle_trans_cycles[4][3] = {
   {2, 1, 0}, {1, 2, 2}, {2, 1, 2}, {2, 2, 1},
};

struct GroupContext {
   std::array<KcacheLock, 4> kcache{};
   bool has_previous_group = false;
   std::array<bool, 5> previous_slots{}; /* which of x,y,z,w,t the previous group used */
   bool mova_in_clause = false;          /* a MOVA came before this group in the clause */
   int lds_queue_depth = 0;              /* values pushed to LDS_OQ_A and not popped yet */
};

/* Checks one group. `literals` are the dwords that follow it. The instructions must have their
 * slots assigned (assign_slots()). Updates nothing; see check_clause for the running context. */
std::vector<Violation> check_group(std::span<const AluInstruction> group,
                                   std::span<const uint32_t> literals, IsaClass isa,
                                   const GroupContext &context);

/* Checks every group of a clause with the kcache locks of its CF_ALU (and ALU_EXTENDED before
 * it, if any), plus the clause-wide rules. */
std::vector<Violation> check_clause(const AluClause &clause, const CfInstruction &cf_alu,
                                    const CfInstruction *alu_extended, IsaClass isa);

/* Every ALU clause of a program, with its CF instruction. Messages name the slot. */
std::vector<std::string> check_program(const Program &program);

} // namespace terakan::isa
