/* Reads the programs out of an ELF object produced by LLVM's R600 backend (llc -march=r600
 * -filetype=obj): one program per function symbol in .text. Used by terakan-disasm and by the
 * LLVM oracle test. Malformed input is reported, never trusted. */
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace terakan::isa {

struct ElfFunction {
   std::string name;
   std::vector<uint32_t> dwords;
   /* This function's (register, value) pairs from .AMDGPU.config (LLVM writes three per kernel:
    * SQ_PGM_RESOURCES, DB_SHADER_CONTROL, SQ_LDS_ALLOC), if the object has that section. */
   std::vector<std::pair<uint32_t, uint32_t>> config;
};

/* True if `bytes` starts with the ELF magic. */
bool looks_like_elf(std::span<const uint8_t> bytes);

/* Fills `functions` (in address order) and returns true, or returns false with `error`. */
bool read_elf_functions(std::span<const uint8_t> bytes, std::vector<ElfFunction> &functions,
                        std::string &error);

} // namespace terakan::isa
