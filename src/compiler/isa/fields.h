/* Bit fields of TeraScale microcode words, and reading/writing them.
 *
 * A CF or ALU instruction is two dwords (a 64-bit slot); a fetch (TEX/VTX/MEM/GDS) instruction
 * is four (three used, the fourth zero). A Field names a run of bits inside one dword of such an
 * instruction, so every word format is plain data (see words.h).
 */
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace terakan::isa {

struct Field {
   uint8_t dword; /* which dword of the instruction */
   uint8_t lsb;   /* lowest bit inside that dword */
   uint8_t width; /* number of bits */

   constexpr uint32_t mask() const { return width >= 32 ? ~0u : ((1u << width) - 1) << lsb; }
   constexpr uint32_t max_value() const { return width >= 32 ? ~0u : (1u << width) - 1; }

   constexpr uint32_t get(std::span<const uint32_t> dwords) const
   {
      return (dwords[dword] & mask()) >> lsb;
   }
   /* The value must fit; encoders check with fits() first and report, never truncate. */
   constexpr void set(std::span<uint32_t> dwords, uint32_t value) const
   {
      dwords[dword] = (dwords[dword] & ~mask()) | ((value << lsb) & mask());
   }
   constexpr bool fits(uint32_t value) const { return value <= max_value(); }
};

/* A named field, for tables that describe a whole word format. */
struct NamedField {
   std::string_view name;
   Field field;
};

/* The bits of `dwords` that none of `fields` covers (per dword). */
inline uint32_t uncovered_bits(std::span<const NamedField> fields, unsigned dword,
                               uint32_t word_value)
{
   uint32_t covered = 0;
   for (const NamedField &named : fields) {
      if (named.field.dword == dword)
         covered |= named.field.mask();
   }
   return word_value & ~covered;
}

} // namespace terakan::isa
