/* The LLVM oracle: our decoder and encoder against LLVM 14's R600 backend, which we did not
 * write. For every corpus kernel and every CPU (cypress: Evergreen, barts: Northern Islands
 * VLIW5, cayman: VLIW4):
 *   1. llc's object code decodes, and re-encodes to identical bytes;
 *   2. the bytes llc prints per instruction (-show-mc-encoding) are the object's bytes;
 *   3. the fields we decode agree with the operands llc prints: opcode, destination and write
 *      mask, sources with negation, absolute value and relative addressing, the LAST bit, bank
 *      swizzle, literals, kcache locks, clause addresses and counts, fetch registers and
 *      resources.
 * It also reports coverage: which of our opcodes the corpus made LLVM emit, per class. */
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "compiler/isa/bundle_rules.h"
#include "compiler/isa/disassembler.h"
#include "compiler/isa/elf_program.h"
#include "compiler/isa/program.h"
#include "llvm_oracle.h"

using namespace terakan;
using namespace terakan::isa;
using terakan::test::AsmLine;

namespace {

std::string corpus_dir() { return std::getenv("TERAKAN_ISA_CORPUS") ? std::getenv("TERAKAN_ISA_CORPUS") : "."; }
std::string llc() { return std::getenv("TERAKAN_LLC") ? std::getenv("TERAKAN_LLC") : "llc-14"; }

std::vector<std::string> corpus_files(const std::string &cpu)
{
   std::vector<std::string> files;
   if (DIR *dir = opendir(corpus_dir().c_str())) {
      while (dirent *entry = readdir(dir)) {
         const std::string name = entry->d_name;
         if (name.size() < 3 || name.substr(name.size() - 3) != ".ll")
            continue;
         if (name.find("_cayman_only") != std::string::npos && cpu != "cayman")
            continue;
         if (name.find("_evergreen_only") != std::string::npos && cpu == "cayman")
            continue;
         files.push_back(corpus_dir() + "/" + name);
      }
      closedir(dir);
   }
   std::sort(files.begin(), files.end());
   return files;
}

/* LLVM prints some instructions under other names than the hardware documents (and our
 * tables) use. Facts from LLVM's R600Instructions.td / EvergreenInstructions.td. */
const std::map<std::string, std::string> llvm_alu_names = {
   {"ASHR", "ASHR_INT"},       {"LSHR", "LSHR_INT"},      {"LSHL", "LSHL_INT"},
   {"MULHI", "MULHI_UINT"},    {"MUL", "MUL"},            {"LDS_WRXCHG", "LDS_WRITE"},
   {"LDS_WRXCHG_RET", "LDS_XCHG_RET"}, {"LDS_CMPST", "LDS_CMP_XCHG_RET"},
   {"LDS_CMPST_RET", "LDS_CMP_XCHG_RET"},
};

struct Mismatch {
   std::string where;
   std::string what;
};

struct Counts {
   size_t functions = 0, bytes = 0, mismatched_bytes = 0, text_byte_mismatches = 0;
   size_t instructions_checked = 0;
   size_t unterminated = 0; /* LLVM programs without an end, refused as they should be */
   std::vector<Mismatch> mismatches;
   std::set<const AluOpInfo *> alu_seen;
   std::set<const CfOpInfo *> cf_seen;
   std::set<const FetchOpInfo *> fetch_seen;
   std::set<const RatOpInfo *> rat_seen;
   std::vector<std::string> rule_findings;
};

int channel_index(char c)
{
   switch (c) {
   case 'X': case 'x': return 0;
   case 'Y': case 'y': return 1;
   case 'Z': case 'z': return 2;
   case 'W': case 'w': return 3;
   default: return -1;
   }
}

std::vector<std::string> split_operands(const std::string &text)
{
   std::vector<std::string> out;
   std::string current;
   int depth = 0;
   for (char c : text) {
      if (c == '(')
         depth++;
      if (c == ')')
         depth--;
      if (c == ',' && depth == 0) {
         out.push_back(current);
         current.clear();
         continue;
      }
      current += c;
   }
   out.push_back(current);
   for (std::string &item : out) {
      const size_t first = item.find_first_not_of(' ');
      const size_t last = item.find_last_not_of(' ');
      item = first == std::string::npos ? "" : item.substr(first, last - first + 1);
   }
   while (!out.empty() && out.back().empty())
      out.pop_back();
   return out;
}

/* One LLVM ALU operand, as LLVM prints it, to (select, channel, neg, abs, rel). */
struct ParsedOperand {
   bool known = false;
   unsigned sel = 0;
   int chan = -1;
   bool neg = false, abs = false, rel = false;
};

ParsedOperand parse_operand(std::string text)
{
   ParsedOperand op;
   if (!text.empty() && text[0] == '-') {
      op.neg = true;
      text = text.substr(1);
   }
   if (text.size() > 2 && text.front() == '|' && text.back() == '|') {
      op.abs = true;
      text = text.substr(1, text.size() - 2);
   }
   std::smatch m;
   static const std::regex gpr(R"(T(\d+)\.([XYZW]))"), rel(R"(T\((\d+) \+ AR\.x\)\.([XYZW])\+)"),
      kc(R"(KC([01])\[(\d+)\]\.([XYZW]))"), pv(R"(PV\.([XYZW]))"), lit(R"(literal\.([xyzw]))");
   if (std::regex_match(text, m, gpr)) {
      op = {true, unsigned(std::stoi(m[1])), channel_index(m[2].str()[0]), op.neg, op.abs, false};
   } else if (std::regex_match(text, m, rel)) {
      op = {true, unsigned(std::stoi(m[1])), channel_index(m[2].str()[0]), op.neg, op.abs, true};
   } else if (std::regex_match(text, m, kc)) {
      op = {true, unsigned((m[1] == "0" ? 128 : 160) + std::stoi(m[2])),
            channel_index(m[3].str()[0]), op.neg, op.abs, false};
   } else if (std::regex_match(text, m, pv)) {
      op = {true, src_sel::pv, channel_index(m[1].str()[0]), op.neg, op.abs, false};
   } else if (std::regex_match(text, m, lit)) {
      op = {true, src_sel::literal, channel_index(m[1].str()[0]), op.neg, op.abs, false};
   } else if (text == "PS") {
      op = {true, src_sel::ps, -1, op.neg, op.abs, false};
   } else if (text == "0.0") {
      op = {true, src_sel::zero, -1, op.neg, op.abs, false};
   } else if (text == "1.0") {
      op = {true, src_sel::one, -1, op.neg, op.abs, false};
   } else if (text == "0.5") {
      op = {true, src_sel::half, -1, op.neg, op.abs, false};
   } else if (text == "OQAP") {
      op = {true, src_sel::lds_oq_a_pop, -1, op.neg, op.abs, false};
   }
   return op;
}

struct Locator {
   enum Kind { Cf, Alu, Literal, Fetch } kind;
   const CfInstruction *cf = nullptr;
   const AluInstruction *alu = nullptr;
   const AluGroup *group = nullptr;
   const FetchInstruction *fetch = nullptr;
   unsigned literal_pair = 0;
};

std::map<uint32_t, Locator> index_program(const Program &program)
{
   std::map<uint32_t, Locator> map;
   for (const CfInstruction &cf_instruction : program.cf)
      map[cf_instruction.index * 2] = {Locator::Cf, &cf_instruction};
   for (const AluClause &clause : program.alu_clauses) {
      for (const AluGroup &group : clause.groups) {
         uint32_t dword = group.index * 2;
         for (const AluInstruction &instruction : group.instructions) {
            map[dword] = {Locator::Alu, nullptr, &instruction, &group};
            dword += 2;
         }
         for (unsigned pair = 0; pair < group.literals.size() / 2; pair++) {
            Locator locator{Locator::Literal, nullptr, nullptr, &group};
            locator.literal_pair = pair;
            map[dword] = locator;
            dword += 2;
         }
      }
   }
   for (const FetchClause &clause : program.fetch_clauses) {
      uint32_t dword = clause.address * 2;
      for (const FetchInstruction &instruction : clause.instructions) {
         Locator locator{Locator::Fetch};
         locator.fetch = &instruction;
         map[dword] = locator;
         dword += 4;
      }
   }
   return map;
}

void compare_alu(const AsmLine &line, const AluInstruction &ours, const AluGroup &group,
                 IsaClass isa, const std::string &where, Counts &counts)
{
   auto fail = [&](const std::string &what) {
      counts.mismatches.push_back({where, what + "  [llc: " + line.text + "]  [ours: " +
                                             format_alu(ours, group.literals, isa) + "]"});
   };
   /* "NAME[ NON-IEEE][ *] operands..." */
   std::string text = line.text;
   std::string name = text.substr(0, text.find(' '));
   std::string rest = text.size() > name.size() ? text.substr(name.size() + 1) : "";
   if (rest.rfind("NON-IEEE", 0) == 0)
      rest = rest.substr(std::min(rest.size(), size_t(9)));
   bool last = rest.rfind("*", 0) == 0;
   if (last)
      rest = rest.substr(std::min(rest.size(), size_t(2)));
   if (!name.empty() && name.back() == '*') { /* "LDS_CMPST*": no space before the marker */
      name.pop_back();
      last = true;
   }
   if (llvm_alu_names.count(name))
      name = llvm_alu_names.at(name);
   if (name != ours.op->name)
      fail("opcode " + name + " vs " + std::string(ours.op->name));
   std::vector<std::string> operands = split_operands(rest);
   if (operands.empty() && ours.source_count() == 0) {
      /* GROUP_BARRIER and the like: llc prints only the name, not even the LAST marker. */
      counts.instructions_checked++;
      return;
   }
   if (last != bool(ours.get(alu::last)))
      fail("LAST bit");
   /* "ExecMask,PredicateBit (MASKED)" and "Pred,PredicateBit (MASKED)" are one destination. */
   if (operands.size() > 1 && (operands[0] == "ExecMask" || operands[0] == "Pred")) {
      operands[0] += "," + operands[1];
      operands.erase(operands.begin() + 1);
   }
   /* Trailing modifiers. */
   unsigned bank_swizzle = 0, pred_sel = 0;
   while (!operands.empty()) {
      const std::string &back = operands.back();
      if (back.rfind("BS:", 0) == 0) {
         static const char *names[] = {"VEC_012", "VEC_021", "VEC_120", "VEC_102", "VEC_201", "VEC_210"};
         for (unsigned i = 0; i < 6; i++)
            if (back.find(names[i]) != std::string::npos)
               bank_swizzle = i;
      } else if (back == "Pred_sel_zero") {
         pred_sel = 2;
      } else if (back == "Pred_sel_one") {
         pred_sel = 3;
      } else {
         break;
      }
      operands.pop_back();
   }
   if (bank_swizzle != ours.get(alu::bank_swizzle))
      fail("bank swizzle");
   if (pred_sel != ours.get(alu::pred_sel))
      fail("PRED_SEL");

   size_t first_source = 0;
   if (!ours.is_lds() || (!operands.empty() && operands[0] == "OQAP")) {
      if (operands.empty()) {
         fail("no destination printed");
         return;
      }
      std::string dst = operands[0];
      first_source = 1;
      const bool masked = dst.find("(MASKED)") != std::string::npos;
      if (ours.op->encoding == AluEncoding::Op2 && masked != !ours.get(alu::write_mask))
         fail("write mask");
      dst = dst.substr(0, dst.find(" (MASKED)"));
      if (!ours.is_lds()) {
         const ParsedOperand parsed = parse_operand(dst);
         if (parsed.known && parsed.sel < 128) {
            if (parsed.sel != ours.get(alu::dst_gpr) || parsed.chan != int(ours.get(alu::dst_chan)) ||
                parsed.rel != bool(ours.get(alu::dst_rel)))
               fail("destination");
         }
      }
   }
   const unsigned shown = unsigned(operands.size() - first_source);
   const unsigned sources = std::min(ours.source_count(), ours.is_op3() ? 3u : 2u);
   for (unsigned i = 0; i < std::min(shown, sources); i++) {
      const ParsedOperand parsed = parse_operand(operands[first_source + i]);
      if (!parsed.known)
         continue; /* forms we do not parse (Pred, ExecMask) are covered by the bytes */
      const AluSource source = alu_source(ours, i);
      const bool chan_ok = parsed.chan < 0 || unsigned(parsed.chan) == source.chan;
      if (parsed.sel != source.sel || !chan_ok || parsed.neg != source.neg ||
          parsed.abs != source.abs || parsed.rel != source.rel)
         fail("source " + std::to_string(i) + " (" + operands[first_source + i] + ")");
   }
   counts.instructions_checked++;
}

void compare_literals(const AsmLine &line, const AluGroup &group, unsigned pair,
                      const std::string &where, Counts &counts)
{
   /* "2(2.802597e-45), 0(0.000000e+00)" */
   std::vector<std::string> values = split_operands(line.text);
   for (unsigned i = 0; i < 2 && i < values.size(); i++) {
      char *end = nullptr;
      const std::string number = values[i].substr(0, values[i].find('('));
      const long long value = std::strtoll(number.c_str(), &end, 10);
      if (number.empty() || *end) {
         counts.mismatches.push_back({where, "expected literals, llc printed: " + line.text});
         return;
      }
      if (uint32_t(value) != group.literals[pair * 2 + i])
         counts.mismatches.push_back({where, "literal " + values[i]});
   }
   counts.instructions_checked++;
}

void compare_cf(const AsmLine &line, const CfInstruction &ours, IsaClass isa,
                const std::string &where, Counts &counts)
{
   auto fail = [&](const std::string &what) {
      counts.mismatches.push_back({where, what + "  [llc: " + line.text + "]  [ours: " +
                                             format_cf(ours, isa) + "]"});
   };
   const std::string text = line.text;
   std::string name = text.substr(0, text.find(' '));
   const std::string ours_name(ours.op->name);
   bool name_ok = name == ours_name;
   if (name == "CF_END")
      name_ok = isa == IsaClass::Cayman ? ours_name == "CF_END"
                                        : ours_name == "NOP" && ours.get(cf::end_of_program);
   else if (name == "PAD")
      name_ok = ours_name == "NOP" && ours.words[0] == 0 && ours.words[1] == 0;
   else if (name == "END_LOOP")
      name_ok = ours_name == "LOOP_END";
   else if (name == "CONTINUE")
      name_ok = ours_name == "LOOP_CONTINUE";
   else if (name == "EXPORT")
      name_ok = ours.op->has(CfFlag::Export) || ours_name.rfind("MEM_STREAM", 0) == 0;
   else if (name == "MEM_RAT_CACHELESS" || name == "MEM_RAT") {
      /* "MEM_RAT_CACHELESS STORE_RAW ..." and "MEM_RAT ATOMIC_ADD ...": LLVM's atomic names
       * are the returning forms' numbers (see opcodes.cpp). */
      std::string rat = text.substr(name.size() + 1);
      rat = rat.substr(0, rat.find(' '));
      if (rat == "ATOMIC_XCHG_INT")
         rat = "XCHG_RTN";
      else if (rat.rfind("ATOMIC_", 0) == 0)
         rat = rat.substr(7) + "_RTN";
      const RatOpInfo *op = find_rat_op(ours.get(cf_export::rat_inst));
      if (!op || op->name != rat)
         fail("RAT instruction " + rat);
      else
         counts.rat_seen.insert(op);
   }
   if (!name_ok)
      fail("CF instruction " + name + " vs " + ours_name);

   std::smatch m;
   static const std::regex at(R"(@(\d+))"), pop(R"(POP:(\d+))"),
      kcache(R"(KC([01])\[(CB(\d+):(\d+)-(\d+))?\])"), count(R"(^[A-Z_0-9]+ (\d+))");
   if (std::regex_search(text, m, at)) {
      const unsigned address = std::stoi(m[1]);
      const unsigned ours_address = ours.format == WordFormat::CfAlu ? ours.get(cf_alu::addr)
                                                                      : ours.get(cf::addr);
      /* LLVM prints clause indices (@0, @1, ...) for ALU and fetch clauses in text output
       * but addresses for branches; only compare where it prints addresses. */
      if (ours.op->has(CfFlag::TargetAddress) && address != ours_address)
         fail("address");
   }
   if (std::regex_search(text, m, pop) && unsigned(std::stoi(m[1])) != ours.get(cf::pop_count))
      fail("POP count");
   if (ours.format == WordFormat::CfAlu) {
      if (std::regex_search(text, m, count) && unsigned(std::stoi(m[1])) != ours.get(cf_alu::count))
         fail("ALU clause count");
      auto search_start = text.cbegin();
      while (std::regex_search(search_start, text.cend(), m, kcache)) {
         const unsigned set = std::stoi(m[1]);
         const unsigned mode = set ? ours.get(cf_alu::kcache_mode1) : ours.get(cf_alu::kcache_mode0);
         if (!m[2].matched) {
            if (mode != 0)
               fail("kcache set " + std::to_string(set) + " unlocked in llc");
         } else {
            const unsigned bank = set ? ours.get(cf_alu::kcache_bank1) : ours.get(cf_alu::kcache_bank0);
            const unsigned line = set ? ours.get(cf_alu::kcache_addr1) : ours.get(cf_alu::kcache_addr0);
            const unsigned first = std::stoi(m[4]), end = std::stoi(m[5]);
            if (bank != unsigned(std::stoi(m[3])) || line * 16 != first ||
                mode * 16 != end - first)
               fail("kcache set " + std::to_string(set));
         }
         search_start = m.suffix().first;
      }
   } else if (ours.op->has(CfFlag::FetchClause)) {
      if (std::regex_search(text, m, count) && unsigned(std::stoi(m[1])) != ours.get(cf::count))
         fail("fetch clause count");
   }
   counts.instructions_checked++;
}

void compare_fetch(const AsmLine &line, const FetchInstruction &ours, IsaClass isa,
                   const std::string &where, Counts &counts)
{
   auto fail = [&](const std::string &what) {
      counts.mismatches.push_back({where, what + "  [llc: " + line.text + "]  [ours: " +
                                             format_fetch(ours, isa) + "]"});
   };
   const std::string text = line.text;
   const std::string name = text.substr(0, text.find(' '));
   std::smatch m;
   if (name.rfind("TEX_", 0) == 0) {
      if (name.substr(4) != ours.op->name)
         fail("opcode");
      static const std::regex form(
         R"(T(\d+)\.([XYZW01_]{4}), T(\d+)\.([XYZW01_]{4}) RID:(\d+) SID:(\d+) CT:([NU]{4}))");
      if (std::regex_search(text, m, form)) {
         if (unsigned(std::stoi(m[1])) != ours.get(tex::dst_gpr) ||
             unsigned(std::stoi(m[3])) != ours.get(tex::src_gpr) ||
             unsigned(std::stoi(m[5])) != ours.get(tex::resource_id) ||
             unsigned(std::stoi(m[6])) != ours.get(tex::sampler_id))
            fail("registers or resource");
         const std::string ct = m[7];
         const Field coord[] = {tex::coord_type_x, tex::coord_type_y, tex::coord_type_z,
                                tex::coord_type_w};
         for (unsigned c = 0; c < 4; c++)
            if ((ct[c] == 'N') != bool(ours.get(coord[c])))
               fail("COORD_TYPE");
      } else {
         fail("unparsed TEX form");
      }
   } else if (name.rfind("VTX_READ", 0) == 0) {
      if (ours.op->name != "VFETCH")
         fail("opcode");
      static const std::regex form(R"(T(\d+)\.[XYZW]+, T(\d+)\.([XYZW]), (-?\d+), #(\d+))");
      if (std::regex_search(text, m, form)) {
         if (unsigned(std::stoi(m[1])) != ours.get(vtx::dst_gpr) ||
             unsigned(std::stoi(m[2])) != ours.get(vtx::src_gpr) ||
             channel_index(m[3].str()[0]) != int(ours.get(vtx::src_sel_x)) ||
             unsigned(std::stoi(m[4])) != ours.get(vtx::offset) ||
             unsigned(std::stoi(m[5])) != ours.get(vtx::buffer_id))
            fail("registers, offset or buffer");
      }
   } else {
      fail("unexpected fetch " + name);
   }
   counts.instructions_checked++;
}

void check_file(const std::string &path, const std::string &cpu, IsaClass isa, Counts &counts)
{
   const std::string object = ::testing::TempDir() + "terakan-oracle-" + cpu + ".o";
   std::string output;
   ASSERT_EQ(test::run_command(llc() + " -march=r600 -mcpu=" + cpu + " -filetype=obj '" + path +
                                  "' -o '" + object + "' 2>&1",
                               output),
             0)
      << output;
   std::ifstream file(object, std::ios::binary);
   const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(file)),
                                    std::istreambuf_iterator<char>());
   std::vector<ElfFunction> functions;
   std::string error;
   ASSERT_TRUE(read_elf_functions(bytes, functions, error)) << path << ": " << error;

   std::string assembly;
   ASSERT_EQ(test::run_command(llc() + " -march=r600 -mcpu=" + cpu + " -show-mc-encoding '" +
                                  path + "' -o - 2>/dev/null",
                               assembly),
             0);
   const auto text_functions = test::parse_llc_assembly(assembly);

   for (const ElfFunction &function : functions) {
      const std::string where_function = path.substr(path.rfind('/') + 1) + ":" + function.name;
      counts.functions++;
      counts.bytes += function.dwords.size() * 4;

      auto text_function = std::find_if(text_functions.begin(), text_functions.end(),
                                        [&](const auto &f) { return f.name == function.name; });
      if (text_function == text_functions.end()) {
         counts.mismatches.push_back({where_function, "function missing from llc's text"});
         continue;
      }
      /* LLVM 14 leaves some LDS-only kernels without CF_END (the clause then overlaps the CF
       * stream or runs off the end). Those programs would hang a card; our decoder must refuse
       * them, which makes them negative cases of the oracle. */
      const bool llvm_ended = std::any_of(
         text_function->lines.begin(), text_function->lines.end(),
         [](const AsmLine &line) { return line.text.rfind("CF_END", 0) == 0; });

      Program program;
      DecodeError decode_error;
      const bool decoded = decode_program(function.dwords, isa, program, decode_error);
      if (!llvm_ended) {
         counts.unterminated++;
         if (decoded)
            counts.mismatches.push_back({where_function, "accepted a program LLVM left without an end"});
         continue;
      }
      if (!decoded) {
         counts.mismatches.push_back({where_function, "decode failed at dword " +
                                                         std::to_string(decode_error.dword) + ": " +
                                                         decode_error.message});
         counts.mismatched_bytes += function.dwords.size() * 4;
         continue;
      }
      const std::vector<uint32_t> again = encode_program(program);
      for (size_t i = 0; i < function.dwords.size(); i++) {
         const uint32_t a = function.dwords[i], b = i < again.size() ? again[i] : 0;
         for (unsigned byte = 0; byte < 4; byte++)
            counts.mismatched_bytes += ((a >> (byte * 8)) & 0xff) != ((b >> (byte * 8)) & 0xff);
      }
      for (const std::string &finding : check_program(program))
         counts.rule_findings.push_back(where_function + ": " + finding);

      for (const CfInstruction &instruction : program.cf)
         counts.cf_seen.insert(instruction.op);
      for (const AluClause &clause : program.alu_clauses)
         for (const AluGroup &group : clause.groups)
            for (const AluInstruction &instruction : group.instructions)
               counts.alu_seen.insert(instruction.op);
      for (const FetchClause &clause : program.fetch_clauses)
         for (const FetchInstruction &instruction : clause.instructions)
            counts.fetch_seen.insert(instruction.op);

      /* The text: same bytes, and the same fields. */
      const auto locators = index_program(program);
      uint32_t byte_offset = 0;
      for (const AsmLine &line : text_function->lines) {
         const std::string where = where_function + "@" + std::to_string(byte_offset / 4);
         for (size_t i = 0; i < line.bytes.size(); i++) {
            const size_t at = byte_offset + i;
            const uint8_t object_byte =
               at / 4 < function.dwords.size() ? (function.dwords[at / 4] >> (at % 4 * 8)) & 0xff : 0;
            counts.text_byte_mismatches += object_byte != line.bytes[i];
         }
         const auto found = locators.find(byte_offset / 4);
         if (found == locators.end()) {
            counts.mismatches.push_back({where, "no decoded instruction at this offset: " + line.text});
         } else {
            const Locator &locator = found->second;
            switch (locator.kind) {
            case Locator::Cf: compare_cf(line, *locator.cf, isa, where, counts); break;
            case Locator::Alu: compare_alu(line, *locator.alu, *locator.group, isa, where, counts); break;
            case Locator::Literal:
               compare_literals(line, *locator.group, locator.literal_pair, where, counts);
               break;
            case Locator::Fetch: compare_fetch(line, *locator.fetch, isa, where, counts); break;
            }
         }
         byte_offset += uint32_t(line.bytes.size());
      }
   }
}

struct ChipCase {
   const char *cpu;
   hw::Family family;
};

class LlvmOracle : public ::testing::TestWithParam<ChipCase> {};

std::string coverage_report(const char *cpu, IsaClass isa, const Counts &counts)
{
   std::ostringstream out;
   size_t alu_total = 0;
   std::vector<std::string> missing;
   for (const AluOpInfo &op : all_alu_ops()) {
      if (!op.exists(isa))
         continue;
      alu_total++;
      if (!counts.alu_seen.count(&op))
         missing.push_back(std::string(op.name));
   }
   size_t cf_total = 0, fetch_total = 0;
   std::vector<std::string> cf_missing, fetch_missing;
   for (const CfOpInfo &op : all_cf_ops())
      if (op.exists(isa) && ++cf_total && !counts.cf_seen.count(&op))
         cf_missing.push_back(std::string(op.name));
   for (const FetchOpInfo &op : all_fetch_ops())
      if (op.exists(isa) && ++fetch_total && !counts.fetch_seen.count(&op))
         fetch_missing.push_back(std::string(op.name));
   out << "## " << cpu << " (" << (isa == IsaClass::Cayman ? "Cayman" : "Evergreen")
       << " class)\n\n";
   out << "- ALU: " << counts.alu_seen.size() << " of " << alu_total << " opcodes emitted by LLVM\n";
   out << "- CF: " << counts.cf_seen.size() << " of " << cf_total << "\n";
   out << "- fetch: " << counts.fetch_seen.size() << " of " << fetch_total << "\n";
   out << "- RAT operations: " << counts.rat_seen.size() << " of " << all_rat_ops().size() << "\n\n";
   auto list = [&](const char *title, const std::vector<std::string> &names) {
      out << title << " (" << names.size() << "): ";
      for (size_t i = 0; i < names.size(); i++)
         out << (i ? ", " : "") << names[i];
      out << "\n\n";
   };
   list("ALU opcodes not exercised", missing);
   list("CF instructions not exercised", cf_missing);
   list("Fetch instructions not exercised", fetch_missing);
   return out.str();
}

TEST_P(LlvmOracle, DecodesAndReencodesLlvmObjectsBitExactly)
{
   const ChipCase chip = GetParam();
   const IsaClass isa = hw::family_info(chip.family).isa_class;
   Counts counts;
   const auto files = corpus_files(chip.cpu);
   ASSERT_GE(files.size(), 20u) << "corpus not found in " << corpus_dir();
   for (const std::string &file : files)
      check_file(file, chip.cpu, isa, counts);

   for (size_t i = 0; i < counts.mismatches.size() && i < 40; i++)
      ADD_FAILURE() << counts.mismatches[i].where << ": " << counts.mismatches[i].what;
   EXPECT_EQ(counts.mismatched_bytes, 0u);
   EXPECT_EQ(counts.text_byte_mismatches, 0u);
   EXPECT_TRUE(counts.mismatches.empty()) << counts.mismatches.size() << " field mismatches";

   const std::string report = coverage_report(chip.cpu, isa, counts);
   std::printf("%s: %zu functions, %zu bytes, %zu mismatched bytes, %zu instructions compared "
               "field by field, %zu programs without an end refused\n%s",
               chip.cpu, counts.functions, counts.bytes, counts.mismatched_bytes,
               counts.instructions_checked, counts.unterminated, report.c_str());
   std::printf("bundle-rule findings on LLVM's code: %zu\n", counts.rule_findings.size());
   for (size_t i = 0; i < counts.rule_findings.size() && i < 20; i++)
      std::printf("  %s\n", counts.rule_findings[i].c_str());
   if (const char *dir = std::getenv("TERAKAN_ISA_COVERAGE_DIR")) {
      std::ofstream(std::string(dir) + "/coverage-" + chip.cpu + ".md") << report;
   }
}

INSTANTIATE_TEST_SUITE_P(Chips, LlvmOracle,
                         ::testing::Values(ChipCase{"cypress", hw::Family::Cypress},
                                           ChipCase{"barts", hw::Family::Barts},
                                           ChipCase{"cayman", hw::Family::Cayman}),
                         [](const auto &info) { return std::string(info.param.cpu); });

} // namespace
