/* The instruction set as tables: every CF, ALU and fetch instruction of the Evergreen and
 * Cayman classes with its properties, and lookups by encoding and by name. The tables
 * themselves (*.inc) cite their sources. */
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "hw/chips.h"

namespace terakan::isa {

using hw::IsaClass;

inline constexpr unsigned class_index(IsaClass isa) { return isa == IsaClass::Cayman ? 1 : 0; }

/* ---- ALU ---- */

enum class AluEncoding : uint8_t {
   Op2, /* ALU_WORD1_OP2, 11-bit opcode */
   Op3, /* ALU_WORD1_OP3, 5-bit opcode */
   Lds, /* an LDS_OP inside LDS_IDX_OP (OP3 0x11) */
};

/* Where an instruction may go in an instruction group. */
enum class SlotRule : uint8_t {
   None,        /* the class does not have it */
   Vector,      /* x, y, z or w */
   Trans,       /* t only (Evergreen) */
   Any,         /* x, y, z, w or t */
   Four,        /* all of x, y, z, w with the same opcode (DOT4, CUBE, MAX4, INTERP_XY/ZW) */
   Pair,        /* x and y, or z and w (INTERP_X, INTERP_Z) */
   Replicated3, /* Cayman transcendental: identical copies in x, y, z (w optional) */
   Replicated4, /* Cayman MULLO/MULHI family: identical copies in x, y, z, w */
};

namespace AluFlag {
enum : uint32_t {
   Kill = 1u << 0,
   PredSet = 1u << 1,
   PredPush = 1u << 2,
   SetCompare = 1u << 3,
   CondMove = 1u << 4,
   IntDst = 1u << 5,
   UintDst = 1u << 6,
   Mova = 1u << 7,
   Interp = 1u << 8,
   Lds = 1u << 9,
   Reduction = 1u << 10,
   ReplicatedResult = 1u << 11,
   Ieee = 1u << 12,
   Dx10 = 1u << 13,
   Double = 1u << 14,
   Int24 = 1u << 15,
   Convert = 1u << 16,
   Commutative = 1u << 17,
   PrevNext = 1u << 18,
   PrevInterleave = 1u << 19,
   IntCompare = 1u << 20,
   UintCompare = 1u << 21,
};
}

struct AluOpInfo {
   std::string_view name;
   AluEncoding encoding;
   int16_t opcode[2]; /* per class_index(); -1 if absent */
   uint8_t sources;
   SlotRule slots[2];
   uint32_t flags;

   bool exists(IsaClass isa) const { return opcode[class_index(isa)] >= 0; }
   unsigned opcode_for(IsaClass isa) const { return unsigned(opcode[class_index(isa)]); }
   SlotRule slot_rule(IsaClass isa) const { return slots[class_index(isa)]; }
   bool has(uint32_t flag) const { return (flags & flag) != 0; }
};

std::span<const AluOpInfo> all_alu_ops();
const AluOpInfo *find_alu_op(IsaClass isa, AluEncoding encoding, unsigned opcode);
const AluOpInfo *find_alu_op(std::string_view name);

/* ---- CF ---- */

enum class CfFormat : uint8_t {
   Plain,       /* CF_WORD0/1 */
   Alu,         /* CF_ALU_WORD0/1 (and the _EXT pair of ALU_EXTENDED) */
   AllocExport, /* CF_ALLOC_EXPORT_WORD0(_RAT) + WORD1_BUF/_SWIZ */
};

namespace CfFlag {
enum : uint32_t {
   FetchClause = 1u << 0,   /* ADDR/COUNT name a TEX, VTX or GDS clause */
   AluClause = 1u << 1,     /* ADDR/COUNT name an ALU clause */
   AluExtension = 1u << 2,  /* ALU_EXTENDED: extra kcache sets for the next CF_ALU */
   TargetAddress = 1u << 3, /* ADDR is a CF instruction index */
   Branch = 1u << 4,
   Loop = 1u << 5,
   LoopStart = 1u << 6,
   Call = 1u << 7,
   Return = 1u << 8,
   EndsProgram = 1u << 9,   /* Cayman CF_END */
   Export = 1u << 10,
   Memory = 1u << 11,
   Rat = 1u << 12,
};
}

struct CfOpInfo {
   std::string_view name;
   CfFormat format;
   int16_t opcode[2];
   uint32_t flags;

   bool exists(IsaClass isa) const { return opcode[class_index(isa)] >= 0; }
   unsigned opcode_for(IsaClass isa) const { return unsigned(opcode[class_index(isa)]); }
   bool has(uint32_t flag) const { return (flags & flag) != 0; }
};

std::span<const CfOpInfo> all_cf_ops();
/* For the ALU format `opcode` is the 4-bit CF_ALU_WORD1.CF_INST, otherwise the 8-bit one. */
const CfOpInfo *find_cf_op(IsaClass isa, CfFormat format, unsigned opcode);
const CfOpInfo *find_cf_op(std::string_view name);

/* ---- fetch ---- */

enum class FetchFormat : uint8_t {
   Tex,     /* TEX_WORD0/1/2 */
   Vtx,     /* VTX_WORD0/1/2 */
   MemRead, /* MEM_RD_WORD0/1/2 */
   Gds,     /* MEM_GDS_WORD0/1/2 */
};

namespace FetchFlag {
enum : uint32_t {
   Sample = 1u << 0, /* reads through a sampler: COORD_TYPE and SAMPLER_ID matter */
};
}

struct FetchOpInfo {
   std::string_view name;
   FetchFormat format;
   uint8_t opcode;
   uint8_t modifier; /* TEX INST_MOD, or MEM_OP for opcode 2 */
   bool on_class[2];
   uint32_t flags;

   bool exists(IsaClass isa) const { return on_class[class_index(isa)]; }
};

std::span<const FetchOpInfo> all_fetch_ops();
const FetchOpInfo *find_fetch_op(IsaClass isa, unsigned opcode, unsigned modifier);
const FetchOpInfo *find_fetch_op(std::string_view name);

/* ---- RAT (MEM_RAT* CF_ALLOC_EXPORT_WORD0_RAT.RAT_INST) ---- */

struct RatOpInfo {
   std::string_view name;
   uint8_t opcode;
   bool returns; /* *_RTN: the old value comes back */
};

std::span<const RatOpInfo> all_rat_ops();
const RatOpInfo *find_rat_op(unsigned opcode);

} // namespace terakan::isa
