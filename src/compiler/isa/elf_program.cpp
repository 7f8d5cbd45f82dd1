#include "elf_program.h"

#include <algorithm>
#include <cstring>
#include <elf.h>

namespace terakan::isa {

namespace {

template <typename T>
bool read_struct(std::span<const uint8_t> bytes, uint64_t offset, T &out)
{
   if (offset > bytes.size() || bytes.size() - offset < sizeof(T))
      return false;
   std::memcpy(&out, bytes.data() + offset, sizeof(T));
   return true;
}

bool in_bounds(std::span<const uint8_t> bytes, uint64_t offset, uint64_t size)
{
   return offset <= bytes.size() && size <= bytes.size() - offset;
}

} // namespace

bool looks_like_elf(std::span<const uint8_t> bytes)
{
   return bytes.size() >= SELFMAG && std::memcmp(bytes.data(), ELFMAG, SELFMAG) == 0;
}

bool read_elf_functions(std::span<const uint8_t> bytes, std::vector<ElfFunction> &functions,
                        std::string &error)
{
   /* The r600 target is 32-bit little-endian: ELFCLASS32, ELFDATA2LSB. */
   Elf32_Ehdr header;
   if (!looks_like_elf(bytes) || !read_struct(bytes, 0, header)) {
      error = "not an ELF file";
      return false;
   }
   if (header.e_ident[EI_CLASS] != ELFCLASS32 || header.e_ident[EI_DATA] != ELFDATA2LSB) {
      error = "not a 32-bit little-endian ELF file (llc -march=r600 makes those)";
      return false;
   }
   if (header.e_shentsize != sizeof(Elf32_Shdr) ||
       !in_bounds(bytes, header.e_shoff, uint64_t(header.e_shnum) * sizeof(Elf32_Shdr))) {
      error = "ELF section header table out of bounds";
      return false;
   }
   std::vector<Elf32_Shdr> sections(header.e_shnum);
   for (unsigned i = 0; i < header.e_shnum; i++)
      read_struct(bytes, header.e_shoff + i * sizeof(Elf32_Shdr), sections[i]);
   if (header.e_shstrndx >= sections.size()) {
      error = "ELF section name table missing";
      return false;
   }
   const Elf32_Shdr &names = sections[header.e_shstrndx];
   if (!in_bounds(bytes, names.sh_offset, names.sh_size)) {
      error = "ELF section name table out of bounds";
      return false;
   }
   auto string_at = [&](const Elf32_Shdr &table, uint32_t offset) -> std::string {
      if (offset >= table.sh_size)
         return {};
      const char *start = reinterpret_cast<const char *>(bytes.data() + table.sh_offset + offset);
      return std::string(start, strnlen(start, table.sh_size - offset));
   };

   int text_index = -1, symtab_index = -1, config_index = -1;
   for (unsigned i = 0; i < sections.size(); i++) {
      if (sections[i].sh_type == SHT_PROGBITS && string_at(names, sections[i].sh_name) == ".text")
         text_index = static_cast<int>(i);
      if (string_at(names, sections[i].sh_name) == ".AMDGPU.config")
         config_index = static_cast<int>(i);
      if (sections[i].sh_type == SHT_SYMTAB)
         symtab_index = static_cast<int>(i);
   }
   if (text_index < 0) {
      error = "no .text section";
      return false;
   }
   const Elf32_Shdr &text = sections[text_index];
   if (!in_bounds(bytes, text.sh_offset, text.sh_size) || text.sh_size % 4) {
      error = ".text out of bounds or not a whole number of dwords";
      return false;
   }

   struct Symbol {
      std::string name;
      uint32_t value, size;
   };
   std::vector<Symbol> symbols;
   if (symtab_index >= 0) {
      const Elf32_Shdr &symtab = sections[symtab_index];
      if (symtab.sh_link >= sections.size() || symtab.sh_entsize != sizeof(Elf32_Sym) ||
          !in_bounds(bytes, symtab.sh_offset, symtab.sh_size) ||
          !in_bounds(bytes, sections[symtab.sh_link].sh_offset, sections[symtab.sh_link].sh_size)) {
         error = "ELF symbol table out of bounds";
         return false;
      }
      for (uint32_t offset = 0; offset + sizeof(Elf32_Sym) <= symtab.sh_size;
           offset += sizeof(Elf32_Sym)) {
         Elf32_Sym symbol;
         read_struct(bytes, symtab.sh_offset + offset, symbol);
         if (ELF32_ST_TYPE(symbol.st_info) != STT_FUNC || symbol.st_shndx != text_index)
            continue;
         if (symbol.st_value > text.sh_size || symbol.st_size > text.sh_size - symbol.st_value ||
             symbol.st_value % 4 || symbol.st_size % 4) {
            error = "function symbol outside .text";
            return false;
         }
         symbols.push_back({string_at(sections[symtab.sh_link], symbol.st_name), symbol.st_value,
                            symbol.st_size});
      }
   }
   std::sort(symbols.begin(), symbols.end(),
             [](const Symbol &a, const Symbol &b) { return a.value < b.value; });
   if (symbols.empty())
      symbols.push_back({".text", 0, text.sh_size});

   /* .AMDGPU.config: equal shares of (register, value) pairs per function, in address order
    * (how Mesa's r600_elf_read locates them). */
   std::vector<std::pair<uint32_t, uint32_t>> pairs;
   if (config_index >= 0) {
      const Elf32_Shdr &config = sections[config_index];
      if (!in_bounds(bytes, config.sh_offset, config.sh_size)) {
         error = ".AMDGPU.config out of bounds";
         return false;
      }
      for (uint32_t at = 0; at + 8 <= config.sh_size; at += 8) {
         uint32_t pair[2];
         std::memcpy(pair, bytes.data() + config.sh_offset + at, 8);
         pairs.emplace_back(pair[0], pair[1]);
      }
   }
   const size_t per_function = symbols.empty() ? 0 : pairs.size() / symbols.size();

   functions.clear();
   for (const Symbol &symbol : symbols) {
      ElfFunction function;
      function.name = symbol.name;
      function.dwords.resize(symbol.size / 4);
      std::memcpy(function.dwords.data(), bytes.data() + text.sh_offset + symbol.value,
                  symbol.size);
      const size_t first = functions.size() * per_function;
      function.config.assign(pairs.begin() + std::min(first, pairs.size()),
                             pairs.begin() + std::min(first + per_function, pairs.size()));
      functions.push_back(std::move(function));
   }
   return true;
}

} // namespace terakan::isa
