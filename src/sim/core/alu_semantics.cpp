/* Per-opcode arithmetic. Sources for the semantics are cited per family; where the documents
 * were not available the behaviour follows what Mesa's and LLVM's code generators rely on
 * (docs/sim-semantics.md lists which is which). */
#include "alu_semantics.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <string>

namespace terakan::sim {

float as_float(uint32_t bits) { return std::bit_cast<float>(bits); }
uint32_t as_bits(float value) { return std::bit_cast<uint32_t>(value); }

namespace {

using Fn = uint32_t (*)(uint32_t a, uint32_t b, uint32_t c);

uint32_t boolean(bool value) { return value ? 0xffffffffu : 0u; }
uint32_t float_boolean(bool value) { return value ? as_bits(1.0f) : as_bits(0.0f); }
int32_t s(uint32_t v) { return static_cast<int32_t>(v); }
float f(uint32_t v) { return as_float(v); }
uint32_t u(float v) { return as_bits(v); }

/* The DX9 ("legacy") multiply: 0 times anything, even infinity or NaN, is 0. */
float legacy_multiply(float x, float y)
{
   if (x == 0.0f || y == 0.0f)
      return 0.0f;
   return x * y;
}

/* Float to integer conversions truncate toward zero and saturate; NaN gives 0 (what LLVM's
 * fp_to_sint/fp_to_uint lowering to FLT_TO_INT/FLT_TO_UINT assumes). */
uint32_t float_to_int(float x)
{
   if (std::isnan(x))
      return 0;
   if (x >= 2147483647.0f)
      return 0x7fffffffu;
   if (x <= -2147483648.0f)
      return 0x80000000u;
   return static_cast<uint32_t>(static_cast<int32_t>(std::trunc(x)));
}

uint32_t float_to_uint(float x)
{
   if (std::isnan(x) || x <= 0.0f)
      return 0;
   if (x >= 4294967295.0f)
      return 0xffffffffu;
   return static_cast<uint32_t>(std::trunc(x));
}

uint32_t half_to_float(uint32_t h)
{
   const uint32_t sign = (h & 0x8000u) << 16;
   const uint32_t exponent = (h >> 10) & 0x1f;
   uint32_t mantissa = h & 0x3ff;
   if (exponent == 0) {
      if (mantissa == 0)
         return sign;
      int e = -1;
      do {
         e++;
         mantissa <<= 1;
      } while (!(mantissa & 0x400));
      return sign | uint32_t(127 - 15 - e) << 23 | (mantissa & 0x3ff) << 13;
   }
   if (exponent == 31)
      return sign | 0x7f800000u | mantissa << 13;
   return sign | (exponent + 127 - 15) << 23 | mantissa << 13;
}

uint32_t float_to_half(uint32_t bits)
{
   const uint32_t sign = (bits >> 16) & 0x8000u;
   const int exponent = int((bits >> 23) & 0xff) - 127 + 15;
   uint32_t mantissa = bits & 0x7fffff;
   if (((bits >> 23) & 0xff) == 0xff)
      return sign | 0x7c00u | (mantissa ? 0x200u : 0u);
   if (exponent >= 31)
      return sign | 0x7c00u;
   if (exponent <= 0) {
      if (exponent < -10)
         return sign;
      mantissa |= 0x800000;
      const unsigned shift = unsigned(14 - exponent);
      uint32_t half = mantissa >> shift;
      const uint32_t rest = mantissa & ((1u << shift) - 1), halfway = 1u << (shift - 1);
      if (rest > halfway || (rest == halfway && (half & 1)))
         half++;
      return sign | half;
   }
   uint32_t half = sign | uint32_t(exponent) << 10 | mantissa >> 13;
   const uint32_t rest = mantissa & 0x1fff;
   if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
      half++;
   return half;
}

uint32_t bitfield_extract(uint32_t value, uint32_t offset, uint32_t width, bool is_signed)
{
   offset &= 31;
   width &= 31;
   if (width == 0)
      return 0;
   if (offset + width < 32) {
      const uint32_t shifted = value << (32 - offset - width);
      return is_signed ? uint32_t(s(shifted) >> (32 - width)) : shifted >> (32 - width);
   }
   return is_signed ? uint32_t(s(value) >> offset) : value >> offset;
}

uint32_t find_msb(uint32_t value) { return value ? uint32_t(31 - std::countl_zero(value)) : ~0u; }

/* Each opcode is written once, as a function of one lane; the wave executor calls the lane-loop
 * form, which the compiler instantiates with the operation inlined (and vectorized where it
 * can), so an instruction costs one indirect call per wave rather than one per lane. A wave
 * of 64 lanes gets a loop of constant length, which -O2 vectorizes without a remainder loop. */
template <auto Operation>
void over_lanes(const uint32_t *__restrict a, const uint32_t *__restrict b, const uint32_t *__restrict c,
                uint32_t *__restrict out, unsigned lanes)
{
   if (lanes == 64) {
      for (unsigned lane = 0; lane < 64; lane++)
         out[lane] = Operation(a[lane], b[lane], c[lane]);
      return;
   }
   for (unsigned lane = 0; lane < lanes; lane++)
      out[lane] = Operation(a[lane], b[lane], c[lane]);
}

struct AluEntry {
   Fn scalar;
   AluLanesFunction lanes;
};

template <auto Operation>
AluEntry entry()
{
   return {+Operation, &over_lanes<Operation>};
}

const std::map<std::string_view, AluEntry> &table()
{
   static const std::map<std::string_view, AluEntry> functions = {
      /* float arithmetic */
      {"ADD", entry<([](uint32_t a, uint32_t b, uint32_t) { return u(f(a) + f(b)); })>()},
      {"MUL", entry<([](uint32_t a, uint32_t b, uint32_t) { return u(legacy_multiply(f(a), f(b))); })>()},
      {"MUL_IEEE", entry<([](uint32_t a, uint32_t b, uint32_t) { return u(f(a) * f(b)); })>()},
      {"MULADD", entry<([](uint32_t a, uint32_t b, uint32_t c) { return u(legacy_multiply(f(a), f(b)) + f(c)); })>()},
      {"MULADD_IEEE", entry<([](uint32_t a, uint32_t b, uint32_t c) { return u(f(a) * f(b) + f(c)); })>()},
      {"FMA", entry<([](uint32_t a, uint32_t b, uint32_t c) { return u(std::fma(f(a), f(b), f(c))); })>()},
      {"MAX", entry<([](uint32_t a, uint32_t b, uint32_t) { return f(a) >= f(b) ? a : b; })>()},
      {"MIN", entry<([](uint32_t a, uint32_t b, uint32_t) { return f(a) < f(b) ? a : b; })>()},
      {"MAX_DX10", entry<([](uint32_t a, uint32_t b, uint32_t) { return u(std::fmax(f(a), f(b))); })>()},
      {"MIN_DX10", entry<([](uint32_t a, uint32_t b, uint32_t) { return u(std::fmin(f(a), f(b))); })>()},
      {"SETE", entry<([](uint32_t a, uint32_t b, uint32_t) { return float_boolean(f(a) == f(b)); })>()},
      {"SETGT", entry<([](uint32_t a, uint32_t b, uint32_t) { return float_boolean(f(a) > f(b)); })>()},
      {"SETGE", entry<([](uint32_t a, uint32_t b, uint32_t) { return float_boolean(f(a) >= f(b)); })>()},
      {"SETNE", entry<([](uint32_t a, uint32_t b, uint32_t) { return float_boolean(f(a) != f(b)); })>()},
      {"SETE_DX10", entry<([](uint32_t a, uint32_t b, uint32_t) { return boolean(f(a) == f(b)); })>()},
      {"SETGT_DX10", entry<([](uint32_t a, uint32_t b, uint32_t) { return boolean(f(a) > f(b)); })>()},
      {"SETGE_DX10", entry<([](uint32_t a, uint32_t b, uint32_t) { return boolean(f(a) >= f(b)); })>()},
      {"SETNE_DX10", entry<([](uint32_t a, uint32_t b, uint32_t) { return boolean(f(a) != f(b)); })>()},
      {"FRACT", entry<([](uint32_t a, uint32_t, uint32_t) { return u(f(a) - std::floor(f(a))); })>()},
      {"TRUNC", entry<([](uint32_t a, uint32_t, uint32_t) { return u(std::trunc(f(a))); })>()},
      {"CEIL", entry<([](uint32_t a, uint32_t, uint32_t) { return u(std::ceil(f(a))); })>()},
      {"RNDNE", entry<([](uint32_t a, uint32_t, uint32_t) { return u(std::nearbyint(f(a))); })>()},
      {"FLOOR", entry<([](uint32_t a, uint32_t, uint32_t) { return u(std::floor(f(a))); })>()},
      {"MOV", entry<([](uint32_t a, uint32_t, uint32_t) { return a; })>()},
      {"NOP", entry<([](uint32_t, uint32_t, uint32_t) { return 0u; })>()},
      {"CNDE", entry<([](uint32_t a, uint32_t b, uint32_t c) { return f(a) == 0.0f ? b : c; })>()},
      {"CNDGT", entry<([](uint32_t a, uint32_t b, uint32_t c) { return f(a) > 0.0f ? b : c; })>()},
      {"CNDGE", entry<([](uint32_t a, uint32_t b, uint32_t c) { return f(a) >= 0.0f ? b : c; })>()},
      /* transcendentals (single-precision library results; the hardware's exact ULP behaviour
       * is not documented to us, so tests compare with a tolerance for these) */
      {"EXP_IEEE", entry<([](uint32_t a, uint32_t, uint32_t) { return u(std::exp2(f(a))); })>()},
      {"LOG_IEEE", entry<([](uint32_t a, uint32_t, uint32_t) { return u(std::log2(f(a))); })>()},
      {"LOG_CLAMPED", entry<([](uint32_t a, uint32_t, uint32_t) {
          const float r = std::log2(f(a));
          return u(std::isinf(r) && r < 0 ? -std::numeric_limits<float>::max() : r); })>()},
      {"RECIP_IEEE", entry<([](uint32_t a, uint32_t, uint32_t) { return u(1.0f / f(a)); })>()},
      {"RECIP_CLAMPED", entry<([](uint32_t a, uint32_t, uint32_t) {
          const float r = 1.0f / f(a);
          return u(std::isinf(r) ? std::copysign(std::numeric_limits<float>::max(), r) : r); })>()},
      {"RECIPSQRT_IEEE", entry<([](uint32_t a, uint32_t, uint32_t) { return u(1.0f / std::sqrt(f(a))); })>()},
      {"RECIPSQRT_CLAMPED", entry<([](uint32_t a, uint32_t, uint32_t) {
          const float r = 1.0f / std::sqrt(f(a));
          return u(std::isinf(r) ? std::copysign(std::numeric_limits<float>::max(), r) : r); })>()},
      {"SQRT_IEEE", entry<([](uint32_t a, uint32_t, uint32_t) { return u(std::sqrt(f(a))); })>()},
      /* SIN/COS take their angle in revolutions on Evergreen and Cayman: LLVM's
       * R600TargetLowering::LowerTrig and Mesa's tgsi_setup_trig scale by 1/(2*pi) first. */
      {"SIN", entry<([](uint32_t a, uint32_t, uint32_t) { return u(std::sin(f(a) * 6.28318530717958647692f)); })>()},
      {"COS", entry<([](uint32_t a, uint32_t, uint32_t) { return u(std::cos(f(a) * 6.28318530717958647692f)); })>()},
      /* conversions */
      {"FLT_TO_INT", entry<([](uint32_t a, uint32_t, uint32_t) { return float_to_int(f(a)); })>()},
      {"FLT_TO_INT_TRUNC", entry<([](uint32_t a, uint32_t, uint32_t) { return float_to_int(f(a)); })>()},
      {"FLT_TO_INT_FLOOR", entry<([](uint32_t a, uint32_t, uint32_t) { return float_to_int(std::floor(f(a))); })>()},
      {"FLT_TO_INT_RPI", entry<([](uint32_t a, uint32_t, uint32_t) { return float_to_int(std::floor(f(a) + 0.5f)); })>()},
      {"FLT_TO_UINT", entry<([](uint32_t a, uint32_t, uint32_t) { return float_to_uint(f(a)); })>()},
      {"INT_TO_FLT", entry<([](uint32_t a, uint32_t, uint32_t) { return u(static_cast<float>(s(a))); })>()},
      {"UINT_TO_FLT", entry<([](uint32_t a, uint32_t, uint32_t) { return u(static_cast<float>(a)); })>()},
      {"FLT32_TO_FLT16", entry<([](uint32_t a, uint32_t, uint32_t) { return float_to_half(a); })>()},
      {"FLT16_TO_FLT32", entry<([](uint32_t a, uint32_t, uint32_t) { return half_to_float(a & 0xffff); })>()},
      {"UBYTE0_FLT", entry<([](uint32_t a, uint32_t, uint32_t) { return u(float(a & 0xff)); })>()},
      {"UBYTE1_FLT", entry<([](uint32_t a, uint32_t, uint32_t) { return u(float((a >> 8) & 0xff)); })>()},
      {"UBYTE2_FLT", entry<([](uint32_t a, uint32_t, uint32_t) { return u(float((a >> 16) & 0xff)); })>()},
      {"UBYTE3_FLT", entry<([](uint32_t a, uint32_t, uint32_t) { return u(float(a >> 24)); })>()},
      /* integer */
      {"ADD_INT", entry<([](uint32_t a, uint32_t b, uint32_t) { return a + b; })>()},
      {"SUB_INT", entry<([](uint32_t a, uint32_t b, uint32_t) { return a - b; })>()},
      {"AND_INT", entry<([](uint32_t a, uint32_t b, uint32_t) { return a & b; })>()},
      {"OR_INT", entry<([](uint32_t a, uint32_t b, uint32_t) { return a | b; })>()},
      {"XOR_INT", entry<([](uint32_t a, uint32_t b, uint32_t) { return a ^ b; })>()},
      {"NOT_INT", entry<([](uint32_t a, uint32_t, uint32_t) { return ~a; })>()},
      {"MAX_INT", entry<([](uint32_t a, uint32_t b, uint32_t) { return s(a) > s(b) ? a : b; })>()},
      {"MIN_INT", entry<([](uint32_t a, uint32_t b, uint32_t) { return s(a) < s(b) ? a : b; })>()},
      {"MAX_UINT", entry<([](uint32_t a, uint32_t b, uint32_t) { return a > b ? a : b; })>()},
      {"MIN_UINT", entry<([](uint32_t a, uint32_t b, uint32_t) { return a < b ? a : b; })>()},
      {"SETE_INT", entry<([](uint32_t a, uint32_t b, uint32_t) { return boolean(a == b); })>()},
      {"SETGT_INT", entry<([](uint32_t a, uint32_t b, uint32_t) { return boolean(s(a) > s(b)); })>()},
      {"SETGE_INT", entry<([](uint32_t a, uint32_t b, uint32_t) { return boolean(s(a) >= s(b)); })>()},
      {"SETNE_INT", entry<([](uint32_t a, uint32_t b, uint32_t) { return boolean(a != b); })>()},
      {"SETGT_UINT", entry<([](uint32_t a, uint32_t b, uint32_t) { return boolean(a > b); })>()},
      {"SETGE_UINT", entry<([](uint32_t a, uint32_t b, uint32_t) { return boolean(a >= b); })>()},
      {"CNDE_INT", entry<([](uint32_t a, uint32_t b, uint32_t c) { return a == 0 ? b : c; })>()},
      {"CNDGT_INT", entry<([](uint32_t a, uint32_t b, uint32_t c) { return s(a) > 0 ? b : c; })>()},
      {"CNDGE_INT", entry<([](uint32_t a, uint32_t b, uint32_t c) { return s(a) >= 0 ? b : c; })>()},
      /* Shift amounts use the low five bits (LLVM relies on it for shl/srl/sra lowering). */
      {"LSHL_INT", entry<([](uint32_t a, uint32_t b, uint32_t) { return a << (b & 31); })>()},
      {"LSHR_INT", entry<([](uint32_t a, uint32_t b, uint32_t) { return a >> (b & 31); })>()},
      {"ASHR_INT", entry<([](uint32_t a, uint32_t b, uint32_t) { return uint32_t(s(a) >> (b & 31)); })>()},
      {"MULLO_INT", entry<([](uint32_t a, uint32_t b, uint32_t) { return a * b; })>()},
      {"MULLO_UINT", entry<([](uint32_t a, uint32_t b, uint32_t) { return a * b; })>()},
      {"MULHI_INT", entry<([](uint32_t a, uint32_t b, uint32_t) { return uint32_t((int64_t(s(a)) * s(b)) >> 32); })>()},
      {"MULHI_UINT", entry<([](uint32_t a, uint32_t b, uint32_t) { return uint32_t((uint64_t(a) * b) >> 32); })>()},
      {"MUL_UINT24", entry<([](uint32_t a, uint32_t b, uint32_t) { return (a & 0xffffff) * (b & 0xffffff); })>()},
      {"MULHI_UINT24", entry<([](uint32_t a, uint32_t b, uint32_t) {
          return uint32_t((uint64_t(a & 0xffffff) * (b & 0xffffff)) >> 32); })>()},
      {"MULADD_UINT24", entry<([](uint32_t a, uint32_t b, uint32_t c) { return (a & 0xffffff) * (b & 0xffffff) + c; })>()},
      /* The low 32 bits of the product of two 24-bit signed values: multiplied as unsigned, since
       * the 48-bit product overflows a signed int (undefined behaviour in C++). */
      {"MUL_INT24", entry<([](uint32_t a, uint32_t b, uint32_t) {
          return uint32_t(s(a << 8) >> 8) * uint32_t(s(b << 8) >> 8); })>()},
      {"MULHI_INT24", entry<([](uint32_t a, uint32_t b, uint32_t) {
          return uint32_t((int64_t(s(a << 8) >> 8) * (s(b << 8) >> 8)) >> 32); })>()},
      {"MULADD_INT24", entry<([](uint32_t a, uint32_t b, uint32_t c) {
          return uint32_t(s(a << 8) >> 8) * uint32_t(s(b << 8) >> 8) + c; })>()},
      /* Integer reciprocals (Evergreen only): 2^32 / x, saturated; LLVM's unsigned division
       * (AMDGPUISD::URECIP expansion) corrects the estimate by up to one step either way, so
       * any exact or nearly exact value yields correct quotients. x = 0 gives all ones. */
      {"RECIP_UINT", entry<([](uint32_t a, uint32_t, uint32_t) {
          return a ? uint32_t(std::min<uint64_t>((uint64_t(1) << 32) / a, 0xffffffffu)) : 0xffffffffu; })>()},
      {"RECIP_INT", entry<([](uint32_t a, uint32_t, uint32_t) {
          const int64_t x = int32_t(a);
          if (x == 0)
             return 0x7fffffffu;
          const int64_t q = (int64_t(1) << 32) / x;
          return uint32_t(std::clamp<int64_t>(q, INT32_MIN, INT32_MAX)); })>()},
      {"ADDC_UINT", entry<([](uint32_t a, uint32_t b, uint32_t) { return uint32_t(a + b < a); })>()},
      {"SUBB_UINT", entry<([](uint32_t a, uint32_t b, uint32_t) { return uint32_t(a < b); })>()},
      {"BFE_UINT", entry<([](uint32_t a, uint32_t b, uint32_t c) { return bitfield_extract(a, b, c, false); })>()},
      {"BFE_INT", entry<([](uint32_t a, uint32_t b, uint32_t c) { return bitfield_extract(a, b, c, true); })>()},
      {"BFI_INT", entry<([](uint32_t a, uint32_t b, uint32_t c) { return (a & b) | (~a & c); })>()},
      /* ((1 << width) - 1) << offset, both from their low five bits (Evergreen ISA, BFM_INT):
       * a width of 0 makes an empty mask. */
      {"BFM_INT", entry<([](uint32_t a, uint32_t b, uint32_t) {
          return ((1u << (a & 31)) - 1u) << (b & 31); })>()},
      {"BIT_ALIGN_INT", entry<([](uint32_t a, uint32_t b, uint32_t c) {
          return uint32_t(((uint64_t(a) << 32) | b) >> (c & 31)); })>()},
      {"BYTE_ALIGN_INT", entry<([](uint32_t a, uint32_t b, uint32_t c) {
          return uint32_t(((uint64_t(a) << 32) | b) >> ((c & 3) * 8)); })>()},
      {"BFREV_INT", entry<([](uint32_t a, uint32_t, uint32_t) {
          uint32_t r = 0;
          for (int i = 0; i < 32; i++)
             r |= ((a >> i) & 1u) << (31 - i);
          return r; })>()},
      {"BCNT_INT", entry<([](uint32_t a, uint32_t, uint32_t) { return uint32_t(std::popcount(a)); })>()},
      /* FFBH counts from the most significant bit; all three give -1 for no bit found. */
      {"FFBH_UINT", entry<([](uint32_t a, uint32_t, uint32_t) { return a ? uint32_t(std::countl_zero(a)) : ~0u; })>()},
      {"FFBL_INT", entry<([](uint32_t a, uint32_t, uint32_t) { return a ? uint32_t(std::countr_zero(a)) : ~0u; })>()},
      {"FFBH_INT", entry<([](uint32_t a, uint32_t, uint32_t) {
          const uint32_t v = s(a) < 0 ? ~a : a;
          return v ? uint32_t(std::countl_zero(v)) : ~0u; })>()},
   };
   return functions;
}

} // namespace

std::optional<uint32_t> evaluate_alu(const isa::AluOpInfo &op, isa::IsaClass isa, uint32_t a,
                                     uint32_t b, uint32_t c)
{
   const auto &functions = table();
   const auto found = functions.find(op.name);
   if (found == functions.end())
      return std::nullopt;
   (void)isa;
   (void)find_msb;
   return found->second.scalar(a, b, c);
}

AluFunction find_alu_function(const isa::AluOpInfo &op)
{
   const auto &functions = table();
   const auto found = functions.find(op.name);
   return found == functions.end() ? nullptr : found->second.scalar;
}

AluLanesFunction find_alu_lanes_function(const isa::AluOpInfo &op)
{
   const auto &functions = table();
   const auto found = functions.find(op.name);
   return found == functions.end() ? nullptr : found->second.lanes;
}

ConditionFunction find_condition_function(const isa::AluOpInfo &op)
{
   static const std::map<std::string_view, bool (*)(uint32_t, uint32_t)> conditions = {
      {"E", [](uint32_t x, uint32_t y) { return f(x) == f(y); }},
      {"GT", [](uint32_t x, uint32_t y) { return f(x) > f(y); }},
      {"GE", [](uint32_t x, uint32_t y) { return f(x) >= f(y); }},
      {"NE", [](uint32_t x, uint32_t y) { return f(x) != f(y); }},
      {"E_INT", [](uint32_t x, uint32_t y) { return x == y; }},
      {"GT_INT", [](uint32_t x, uint32_t y) { return s(x) > s(y); }},
      {"GE_INT", [](uint32_t x, uint32_t y) { return s(x) >= s(y); }},
      {"NE_INT", [](uint32_t x, uint32_t y) { return x != y; }},
      {"LT_INT", [](uint32_t x, uint32_t y) { return s(x) < s(y); }},
      {"LE_INT", [](uint32_t x, uint32_t y) { return s(x) <= s(y); }},
      {"GT_UINT", [](uint32_t x, uint32_t y) { return x > y; }},
      {"GE_UINT", [](uint32_t x, uint32_t y) { return x >= y; }},
   };
   /* PRED_SETxx, PRED_SETxx_PUSH, PRED_SETxx_INT, PRED_SETxx_PUSH_INT, KILLxx, KILLxx_INT */
   std::string name(op.name);
   std::string key;
   if (name.rfind("PRED_SET", 0) == 0)
      key = name.substr(8);
   else if (name.rfind("KILL", 0) == 0)
      key = name.substr(4);
   else
      return nullptr;
   const size_t push = key.find("_PUSH");
   if (push != std::string::npos)
      key.erase(push, 5);
   const auto found = conditions.find(key);
   return found == conditions.end() ? nullptr : found->second;
}

std::optional<bool> evaluate_condition(const isa::AluOpInfo &op, uint32_t a, uint32_t b)
{
   const ConditionFunction function = find_condition_function(op);
   if (!function)
      return std::nullopt;
   return function(a, b);
}

std::array<uint32_t, 4> evaluate_cube(uint32_t x_bits, uint32_t y_bits, uint32_t z_bits)
{
   /* Face selection and per-face signs: Mesa's constant folding of nir_op_cube_r600
    * (nir_opcodes.py), the opcode Mesa's r600 backend emits as this group; the same order of
    * tests as AMD's later ISA documents give for V_CUBEID/SC/TC/MA_F32 (z, then y, then x on
    * ties). Signs are the OpenGL/Vulkan cube face table, so no correction is needed after the
    * instruction. A sign test is "< 0", so -0.0 selects the positive face. */
   const float x = f(x_bits), y = f(y_bits), z = f(z_bits);
   const float ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
   float sc, tc, major, face;
   if (az >= ax && az >= ay) {
      major = z;
      face = z < 0.0f ? 5.0f : 4.0f;
      sc = z < 0.0f ? -x : x;
      tc = -y;
   } else if (ay >= ax) {
      major = y;
      face = y < 0.0f ? 3.0f : 2.0f;
      sc = x;
      tc = y < 0.0f ? -z : z;
   } else {
      major = x;
      face = x < 0.0f ? 1.0f : 0.0f;
      sc = x < 0.0f ? z : -z;
      tc = -y;
   }
   return {u(tc), u(sc), u(2.0f * major), u(face)};
}

uint32_t apply_output_modifiers(uint32_t value, unsigned omod, bool clamp)
{
   float x = as_float(value);
   switch (omod) {
   case 1: x *= 2.0f; break;
   case 2: x *= 4.0f; break;
   case 3: x *= 0.5f; break;
   default: break;
   }
   if (clamp)
      x = std::isnan(x) ? 0.0f : std::fmin(std::fmax(x, 0.0f), 1.0f);
   return omod || clamp ? as_bits(x) : value;
}

} // namespace terakan::sim
