#include "shader_stats.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

#include <unistd.h>

#include "compiler/isa/program.h"

namespace terakan::tools {

using compiler::ShaderStage;

bool r600g_statistics(const compiler::ShaderBinary &binary, R600gStatistics &out, std::string &error)
{
   isa::Program program;
   isa::DecodeError decode_error;
   if (!isa::decode_program(binary.code, binary.isa, program, decode_error)) {
      error = "at dword " + std::to_string(decode_error.dword) + ": " + decode_error.message;
      return false;
   }
   out = {};
   out.dw = program.size_dwords;
   out.gprs = binary.gprs;
   out.stack = binary.stack_entries;
   for (size_t i = 0; i < program.cf.size(); i++) {
      const isa::CfInstruction &cf = program.cf[i];
      if (cf.format == isa::WordFormat::CfAluExtended)
         continue; /* the extension words of the ALU clause that follows: one CF with it */
      if (i > program.end_index && cf.words[0] == 0 && cf.words[1] == 0)
         continue; /* padding before a 128-bit aligned fetch clause, not an instruction */
      out.cf++;
      if (cf.op && cf.op->has(isa::CfFlag::LoopStart))
         out.loops++;
   }
   for (const isa::AluClause &clause : program.alu_clauses)
      out.alu_groups += unsigned(clause.groups.size());
   return true;
}

const char *stage_abbreviation(ShaderStage stage)
{
   switch (stage) {
   case ShaderStage::Vertex: return "VS";
   case ShaderStage::Fragment: return "FS";
   case ShaderStage::Compute: return "CS";
   }
   return "??";
}

std::string format_r600g_statistics(ShaderStage stage, const R600gStatistics &s)
{
   char text[160];
   std::snprintf(text, sizeof(text), "%s shader: %u dw, %u gprs, %u alu_groups, %u loops, %u cf, %u stack",
                 stage_abbreviation(stage), s.dw, s.gprs, s.alu_groups, s.loops, s.cf, s.stack);
   return text;
}

static bool ends_with(const std::string &text, const std::string &end)
{
   return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

std::optional<ShaderStage> stage_from_file_name(const std::string &path)
{
   std::string name = path;
   for (const char *wrapper : {".glsl", ".spv"})
      if (ends_with(name, wrapper))
         name.resize(name.size() - std::strlen(wrapper));
   if (ends_with(name, ".vert"))
      return ShaderStage::Vertex;
   if (ends_with(name, ".frag"))
      return ShaderStage::Fragment;
   if (ends_with(name, ".comp"))
      return ShaderStage::Compute;
   return std::nullopt;
}

std::optional<ShaderStage> stage_from_spirv(const std::vector<uint32_t> &words, const std::string &entry)
{
   /* Header of five words, then instructions: word count in the high half, opcode in the low. */
   for (size_t at = 5; at < words.size();) {
      const unsigned count = words[at] >> 16, opcode = words[at] & 0xffff;
      if (count == 0 || at + count > words.size())
         break;
      if (opcode == 15 /* OpEntryPoint */ && count >= 4) {
         const char *name = reinterpret_cast<const char *>(&words[at + 3]);
         const size_t limit = (count - 3) * 4;
         if (entry == std::string(name, strnlen(name, limit))) {
            switch (words[at + 1]) {
            case 0: return ShaderStage::Vertex;
            case 4: return ShaderStage::Fragment;
            case 5: return ShaderStage::Compute;
            default: return std::nullopt;
            }
         }
      }
      at += count;
   }
   return std::nullopt;
}

bool read_file(const std::string &path, std::vector<char> &bytes)
{
   std::ifstream file(path, std::ios::binary);
   if (!file)
      return false;
   bytes.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
   return true;
}

bool is_spirv(const std::vector<char> &bytes)
{
   return bytes.size() >= 4 && uint8_t(bytes[0]) == 0x03 && uint8_t(bytes[1]) == 0x02 &&
          uint8_t(bytes[2]) == 0x23 && uint8_t(bytes[3]) == 0x07;
}

static std::string shell_quote(const std::string &text)
{
   std::string quoted = "'";
   for (const char c : text)
      quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
   return quoted + "'";
}

bool compile_glsl(const std::string &path, ShaderStage stage, std::vector<uint32_t> &spirv, std::string &log)
{
   char output[] = "/tmp/terakan-glsl-XXXXXX";
   const int fd = mkstemp(output);
   if (fd < 0) {
      log = "cannot make a temporary file";
      return false;
   }
   close(fd);
   const char *stage_name = stage == ShaderStage::Vertex ? "vert" : stage == ShaderStage::Fragment ? "frag" : "comp";
   const std::string command = "glslangValidator -V --target-env vulkan1.1 -S " + std::string(stage_name) +
                               " -o " + shell_quote(output) + " " + shell_quote(path) + " 2>&1";
   log.clear();
   int status = -1;
   if (FILE *pipe = popen(command.c_str(), "r")) {
      char buffer[512];
      size_t n;
      while ((n = std::fread(buffer, 1, sizeof(buffer), pipe)) > 0)
         log.append(buffer, n);
      status = pclose(pipe);
   }
   std::vector<char> bytes;
   const bool ok = status == 0 && read_file(output, bytes) && is_spirv(bytes);
   unlink(output);
   if (ok) {
      spirv.resize(bytes.size() / 4);
      std::memcpy(spirv.data(), bytes.data(), spirv.size() * 4);
   }
   return ok;
}

bool compile_stage(const std::vector<uint32_t> &spirv, ShaderStage stage, const std::string &entry,
                   const compiler::CompileOptions &options, compiler::ShaderBinary &binary, std::string &error)
{
   if (stage == ShaderStage::Compute)
      return compiler::compile_compute(spirv, entry.c_str(), options, binary, error);
   return compiler::compile_graphics(spirv, stage, entry.c_str(), options, binary, error);
}

} // namespace terakan::tools
