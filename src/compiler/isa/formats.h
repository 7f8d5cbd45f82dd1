/* Whole word formats as lists of named fields, per ISA class: what the decoder uses to find
 * reserved bits that are set, and what the disassembler prints in its field view. */
#pragma once

#include <span>

#include "fields.h"
#include "opcodes.h"

namespace terakan::isa {

enum class WordFormat : uint8_t {
   CfPlain,
   CfAlu,
   CfAluExtended,
   CfExportSwizzle, /* EXPORT, EXPORT_DONE */
   CfExportBuffer,  /* MEM_STREAM*, MEM_SCRATCH, MEM_RING*, MEM_EXPORT */
   CfRat,           /* MEM_RAT* */
   AluOp2,
   AluOp3,
   AluLds,
   Tex,
   Vtx,
   VtxSemantic,
   MemRead,
   Gds,
};

std::string_view word_format_name(WordFormat format);
std::span<const NamedField> word_format_fields(WordFormat format, IsaClass isa);

/* Dwords per instruction of the format: 2 for CF and ALU, 4 for fetch (the 4th is padding). */
constexpr unsigned word_format_dwords(WordFormat format)
{
   return format >= WordFormat::Tex ? 4 : 2;
}

} // namespace terakan::isa
