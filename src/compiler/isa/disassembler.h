/* Text for TeraScale programs, close to Mesa r600's and LLVM's syntax: R0.x for GPRs,
 * KC0[2].z for locked constants, PV.x / PS for the previous group's results, x:/y:/z:/w:/t:
 * for VLIW slots. The text is stable: tests compare it. */
#pragma once

#include <string>

#include "program.h"

namespace terakan::isa {

struct DisassemblyOptions {
   bool show_words = true;  /* the raw dwords beside each instruction */
   bool show_fields = false; /* every named field of every word, one line each */
};

std::string disassemble(const Program &program, const DisassemblyOptions &options = {});

std::string format_cf(const CfInstruction &instruction, IsaClass isa);
std::string format_alu(const AluInstruction &instruction, std::span<const uint32_t> literals,
                       IsaClass isa);
std::string format_fetch(const FetchInstruction &instruction, IsaClass isa);
std::string format_fields(std::span<const uint32_t> words, WordFormat format, IsaClass isa);

} // namespace terakan::isa
