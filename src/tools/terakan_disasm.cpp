/* terakan-disasm: TeraScale microcode to text.
 *
 *   terakan-disasm [--chip NAME] [--fields] [--no-words] [--hex] FILE
 *
 * FILE is an ELF object from `llc -march=r600 -filetype=obj` (each function is shown), raw
 * little-endian dwords, or with --hex whitespace-separated hexadecimal dwords. --chip takes a
 * family name in any case (CYPRESS, barts, Cayman, ...); default CAYMAN. */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/isa/disassembler.h"
#include "compiler/isa/elf_program.h"
#include "hw/chips.h"

using namespace terakan;

static int usage(const char *message)
{
   if (message)
      std::fprintf(stderr, "terakan-disasm: %s\n", message);
   std::fprintf(stderr, "usage: terakan-disasm [--chip NAME] [--fields] [--no-words] [--hex] FILE\n"
                        "  FILE: an llc -march=r600 ELF object, raw dwords, or (--hex) hex text\n");
   return 2;
}

static bool disassemble_one(const std::string &name, const std::vector<uint32_t> &dwords,
                            hw::IsaClass isa, const isa::DisassemblyOptions &options)
{
   isa::Program program;
   isa::DecodeError error;
   if (!isa::decode_program(dwords, isa, program, error)) {
      std::fprintf(stderr, "terakan-disasm: %s: at dword %u: %s\n", name.c_str(), error.dword,
                   error.message.c_str());
      return false;
   }
   std::printf("%s:\n%s", name.c_str(), isa::disassemble(program, options).c_str());
   return true;
}

int main(int argc, char **argv)
{
   std::string chip = "CAYMAN", path;
   bool hex_text = false;
   isa::DisassemblyOptions options;
   for (int i = 1; i < argc; i++) {
      const std::string arg = argv[i];
      if (arg == "--chip" && i + 1 < argc)
         chip = argv[++i];
      else if (arg.rfind("--chip=", 0) == 0)
         chip = arg.substr(7);
      else if (arg == "--fields")
         options.show_fields = true;
      else if (arg == "--no-words")
         options.show_words = false;
      else if (arg == "--hex")
         hex_text = true;
      else if (arg == "--help" || arg == "-h")
         return usage(nullptr);
      else if (!arg.empty() && arg[0] == '-')
         return usage(("unknown option " + arg).c_str());
      else if (path.empty())
         path = arg;
      else
         return usage("more than one input file");
   }
   if (path.empty())
      return usage("no input file");
   const auto family = hw::family_from_name(chip);
   if (!family)
      return usage(("unknown chip " + chip + " (expected CEDAR ... ARUBA)").c_str());
   const hw::IsaClass isa_class = hw::family_info(*family).isa_class;

   std::ifstream file(path, std::ios::binary);
   if (!file)
      return usage(("cannot read " + path).c_str());
   const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(file)),
                                    std::istreambuf_iterator<char>());

   bool ok = true;
   if (!hex_text && isa::looks_like_elf(bytes)) {
      std::vector<isa::ElfFunction> functions;
      std::string error;
      if (!isa::read_elf_functions(bytes, functions, error)) {
         std::fprintf(stderr, "terakan-disasm: %s: %s\n", path.c_str(), error.c_str());
         return 1;
      }
      for (const isa::ElfFunction &function : functions)
         ok &= disassemble_one(function.name, function.dwords, isa_class, options);
      return ok ? 0 : 1;
   }

   std::vector<uint32_t> dwords;
   if (hex_text) {
      std::istringstream stream(std::string(bytes.begin(), bytes.end()));
      std::string token;
      while (stream >> token) {
         char *end = nullptr;
         const unsigned long value = std::strtoul(token.c_str(), &end, 16);
         if (*end || value > 0xffffffffu)
            return usage(("not a hexadecimal dword: " + token).c_str());
         dwords.push_back(static_cast<uint32_t>(value));
      }
   } else {
      if (bytes.size() % 4)
         return usage("raw input is not a whole number of dwords");
      dwords.resize(bytes.size() / 4);
      std::memcpy(dwords.data(), bytes.data(), bytes.size());
   }
   return disassemble_one(path, dwords, isa_class, options) ? 0 : 1;
}
