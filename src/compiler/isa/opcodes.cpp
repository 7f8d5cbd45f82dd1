#include "opcodes.h"

namespace terakan::isa {

namespace {

constexpr AluOpInfo alu_ops[] = {
#include "alu_opcodes.inc"
};

constexpr CfOpInfo cf_ops[] = {
#include "cf_opcodes.inc"
};

constexpr FetchOpInfo fetch_ops[] = {
#include "fetch_opcodes.inc"
};

/* RAT_INST values: Mesa 22.3.6 r600_sq.h (V_RAT_INST_*) and sfn/sfn_instr_mem.h (ERatOp);
 * LLVM's EvergreenInstructions.td agrees on the numbers (its RAT_ATOMIC<ret, noret> names are
 * the other way round from Mesa's; we use Mesa's: 7 = ADD, 39 = ADD_RTN). */
constexpr RatOpInfo rat_ops[] = {
   {"NOP", 0, false},           {"STORE_TYPED", 1, false},    {"STORE_RAW", 2, false},
   {"STORE_RAW_FDENORM", 3, false}, {"CMPXCHG_INT", 4, false}, {"CMPXCHG_FLT", 5, false},
   {"CMPXCHG_FDENORM", 6, false}, {"ADD", 7, false},          {"SUB", 8, false},
   {"RSUB", 9, false},          {"MIN_INT", 10, false},       {"MIN_UINT", 11, false},
   {"MAX_INT", 12, false},      {"MAX_UINT", 13, false},      {"AND", 14, false},
   {"OR", 15, false},           {"XOR", 16, false},           {"MSKOR", 17, false},
   {"INC_UINT", 18, false},     {"DEC_UINT", 19, false},      {"STORE_DWORD", 20, false},
   {"STORE_SHORT", 21, false},  {"STORE_BYTE", 22, false},    {"NOP_RTN", 32, true},
   {"XCHG_RTN", 34, true},      {"XCHG_FDENORM_RTN", 35, true}, {"CMPXCHG_INT_RTN", 36, true},
   {"CMPXCHG_FLT_RTN", 37, true}, {"CMPXCHG_FDENORM_RTN", 38, true}, {"ADD_RTN", 39, true},
   {"SUB_RTN", 40, true},       {"RSUB_RTN", 41, true},       {"MIN_INT_RTN", 42, true},
   {"MIN_UINT_RTN", 43, true},  {"MAX_INT_RTN", 44, true},    {"MAX_UINT_RTN", 45, true},
   {"AND_RTN", 46, true},       {"OR_RTN", 47, true},         {"XOR_RTN", 48, true},
   {"MSKOR_RTN", 49, true},     {"INC_UINT_RTN", 50, true},   {"DEC_UINT_RTN", 51, true},
};

} // namespace

std::span<const AluOpInfo> all_alu_ops() { return alu_ops; }
std::span<const CfOpInfo> all_cf_ops() { return cf_ops; }
std::span<const FetchOpInfo> all_fetch_ops() { return fetch_ops; }
std::span<const RatOpInfo> all_rat_ops() { return rat_ops; }

const AluOpInfo *find_alu_op(IsaClass isa, AluEncoding encoding, unsigned opcode)
{
   for (const AluOpInfo &op : alu_ops) {
      if (op.encoding == encoding && op.exists(isa) && op.opcode_for(isa) == opcode)
         return &op;
   }
   return nullptr;
}

const AluOpInfo *find_alu_op(std::string_view name)
{
   for (const AluOpInfo &op : alu_ops) {
      if (op.name == name)
         return &op;
   }
   return nullptr;
}

const CfOpInfo *find_cf_op(IsaClass isa, CfFormat format, unsigned opcode)
{
   for (const CfOpInfo &op : cf_ops) {
      const bool alu_format = op.format == CfFormat::Alu;
      if (alu_format == (format == CfFormat::Alu) && op.exists(isa) &&
          op.opcode_for(isa) == opcode)
         return &op;
   }
   return nullptr;
}

const CfOpInfo *find_cf_op(std::string_view name)
{
   for (const CfOpInfo &op : cf_ops) {
      if (op.name == name)
         return &op;
   }
   return nullptr;
}

const FetchOpInfo *find_fetch_op(IsaClass isa, unsigned opcode, unsigned modifier)
{
   for (const FetchOpInfo &op : fetch_ops) {
      if (op.opcode == opcode && op.modifier == modifier && op.exists(isa))
         return &op;
   }
   return nullptr;
}

const FetchOpInfo *find_fetch_op(std::string_view name)
{
   for (const FetchOpInfo &op : fetch_ops) {
      if (op.name == name)
         return &op;
   }
   return nullptr;
}

const RatOpInfo *find_rat_op(unsigned opcode)
{
   for (const RatOpInfo &op : rat_ops) {
      if (op.opcode == opcode)
         return &op;
   }
   return nullptr;
}

} // namespace terakan::isa
