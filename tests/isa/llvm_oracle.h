/* Running LLVM 14's R600 backend as an oracle: compile a corpus file with llc for a CPU, as an
 * ELF object and as assembly text with -show-mc-encoding, and parse the text into
 * per-instruction lines with their bytes. */
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace terakan::test {

struct AsmLine {
   std::string text;           /* the instruction text, comment removed */
   std::vector<uint8_t> bytes; /* its encoding */
};

struct AsmFunction {
   std::string name;
   std::vector<AsmLine> lines;
};

/* Runs a shell command; returns its exit status and fills `output` with its stdout. */
int run_command(const std::string &command, std::string &output);

/* Parses `llc -show-mc-encoding` output. */
std::vector<AsmFunction> parse_llc_assembly(const std::string &text);

} // namespace terakan::test
