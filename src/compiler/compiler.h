/* The shader compiler's public face: SPIR-V in, a TeraScale shader binary out.
 *
 * Compute ABI (what the driver binds and what the compiler assumes; docs/compiler.md):
 *  - storage buffer at descriptor set 0, binding b: loads through fetch buffer b (byte
 *    addresses), stores through RAT b (dword indices); b < 8;
 *  - push constants: constant buffer 0 (read through kcache); when indexed at run time, the same
 *    bytes through fetch resource 16 (push_constants_fetched);
 *  - driver constants (number of workgroups): constant buffer 1, dwords 0-2;
 *  - local invocation id preloaded in R0.xyz, workgroup id in R1.xyz.
 */
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "hw/chips.h"

namespace terakan::compiler {

/* Which debug output to print to stderr while compiling (TERAKAN_DEBUG flags). */
struct DebugOptions {
   bool dump_nir = false;     /* "nir": NIR after SPIR-V translation and after our pipeline */
   bool dump_shader = false;  /* "shaders": the final disassembly */
   bool dump_ir = false;      /* "ir": the backend IR after selection and after scheduling */
};

DebugOptions debug_options_from_environment();

struct CompileOptions {
   hw::Family family = hw::Family::Cypress;
   DebugOptions debug{};
};

/* One fetch instruction of the program, for the driver: where it sits and what it reads. */
struct FetchRecord {
   uint32_t dword_offset = 0; /* of its first word, from the start of the program */
   unsigned binding = 0;
   int sampler = -1;          /* -1: a buffer fetch, no sampler */
};

/* In the style of Mesa's shader-db reports. */
struct ShaderStatistics {
   unsigned dwords = 0;
   unsigned gprs = 0;
   unsigned alu_groups = 0;
   unsigned alu_instructions = 0; /* slots filled (a Cayman replicated op counts each copy) */
   unsigned alu_slots = 0;        /* slots offered by the groups emitted (5 or 4 each) */
   unsigned literals = 0;         /* literal dwords emitted, padding included */
   unsigned cf = 0;
   unsigned alu_clauses = 0;
   unsigned tex_clauses = 0;
   unsigned vtx_clauses = 0;
   unsigned loops = 0;
   unsigned stack = 0;
   double compile_ms = 0;

   double occupancy() const { return alu_slots ? double(alu_instructions) / alu_slots : 0; }
};

struct ShaderBinary {
   hw::IsaClass isa = hw::IsaClass::Evergreen;
   std::vector<uint32_t> code;
   unsigned gprs = 0;
   unsigned stack_entries = 0;
   unsigned lds_bytes = 0;
   std::array<unsigned, 3> workgroup_size{1, 1, 1};
   unsigned push_constant_bytes = 0;
   bool uses_driver_constants = false;  /* constant buffer 1 must be bound */
   bool push_constants_fetched = false; /* fetch resource 16 must point at the push constants */
   std::vector<unsigned> storage_buffers; /* bindings the program reads or writes */
   std::vector<FetchRecord> fetches;
   ShaderStatistics statistics;
};

/* Compiles the compute entry point `entry` of a SPIR-V module. On failure returns false and
 * says why in `error` (invalid SPIR-V, or a construct this compiler does not handle yet). */
bool compile_compute(std::span<const uint32_t> spirv, const char *entry,
                     const CompileOptions &options, ShaderBinary &binary, std::string &error);

/* The program as text (the instruction-set library's disassembler). */
std::string disassemble_binary(const ShaderBinary &binary);

/* The statistics as one shader-db-like line. */
std::string format_statistics(const ShaderStatistics &statistics);

} // namespace terakan::compiler
