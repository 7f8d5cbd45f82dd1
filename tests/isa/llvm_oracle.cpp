#include "llvm_oracle.h"

#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace terakan::test {

int run_command(const std::string &command, std::string &output)
{
   output.clear();
   FILE *pipe = popen(command.c_str(), "r");
   if (!pipe)
      return -1;
   char buffer[65536];
   size_t got;
   while ((got = fread(buffer, 1, sizeof(buffer), pipe)) > 0)
      output.append(buffer, got);
   const int status = pclose(pipe);
   return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

static std::string trim(const std::string &text)
{
   const size_t first = text.find_first_not_of(" \t");
   if (first == std::string::npos)
      return {};
   const size_t last = text.find_last_not_of(" \t");
   return text.substr(first, last - first + 1);
}

std::vector<AsmFunction> parse_llc_assembly(const std::string &text)
{
   std::vector<AsmFunction> functions;
   std::istringstream stream(text);
   std::string line;
   std::string pending_text;
   while (std::getline(stream, line)) {
      /* Function labels: "name:" at column 0, not local (.L) and not the $local alias. */
      if (!line.empty() && line[0] != '\t' && line[0] != ' ' && line[0] != '.' &&
          line[0] != ';') {
         const size_t colon = line.find(':');
         if (colon != std::string::npos && line.find('$') == std::string::npos &&
             line.find(' ') > colon) {
            functions.push_back({line.substr(0, colon), {}});
            continue;
         }
      }
      const size_t marker = line.find("; encoding: [");
      if (marker == std::string::npos) {
         /* llc puts the encoding of an instruction whose text ends the line on the next line
          * in some cases ("RETURN" then "; encoding: []"); remember the text. */
         const std::string body = trim(line.substr(0, line.find(';')));
         if (!body.empty() && body[0] != '.')
            pending_text = body;
         continue;
      }
      if (functions.empty())
         continue;
      std::string body = trim(line.substr(0, marker));
      if (body.empty())
         body = pending_text;
      pending_text.clear();
      const size_t open = marker + std::string("; encoding: [").size();
      const size_t close = line.find(']', open);
      const std::string list = line.substr(open, close - open);
      AsmLine parsed;
      parsed.text = body;
      std::istringstream bytes(list);
      std::string token;
      while (std::getline(bytes, token, ','))
         parsed.bytes.push_back(static_cast<uint8_t>(std::strtoul(trim(token).c_str(), nullptr, 16)));
      if (!parsed.bytes.empty())
         functions.back().lines.push_back(std::move(parsed));
   }
   return functions;
}

} // namespace terakan::test
