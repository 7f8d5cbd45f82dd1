/* terakan-sim: runs one program on the simulated TeraScale card.
 *
 *   terakan-sim [--chip NAME] [--dump DIR] [--trace LEVEL] [--inherit] [--] PROGRAM [ARGS...]
 *   terakan-sim --print-shim
 *
 * It preloads the simulator's drm-shim backend (libterakan_sim.so) into PROGRAM, names the
 * board in TERAKAN_SIM_CHIP, and replaces itself with PROGRAM (exec), so PROGRAM's exit status
 * and signals are its own. It does not link the simulator: it only finds the library, in the
 * build tree (next to this program's build folder) or where `meson install` put it.
 *
 * By default only PROGRAM gets the simulator: the shim takes itself out of LD_PRELOAD when it
 * loads (TERAKAN_SIM_PRELOAD_ONCE names it), so the programs PROGRAM starts run on the real
 * machine. Each process that has the shim has a card of its own (nothing is shared between
 * processes), so a shell or a test runner whose children should all be simulated needs
 * --inherit. */
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "hw/chips.h"

namespace {

namespace fs = std::filesystem;

constexpr const char *shim_name = "libterakan_sim.so";

const char *usage_text =
   "usage: terakan-sim [--chip NAME] [--dump DIR] [--trace LEVEL] [--inherit] [--] PROGRAM [ARGS...]\n"
   "       terakan-sim --print-shim\n"
   "\n"
   "Runs PROGRAM on a simulated AMD TeraScale card: the simulator (libterakan_sim.so) is\n"
   "preloaded and presents a radeon render node, /dev/dri/renderD128.\n"
   "\n"
   "  --chip NAME     the board: a family name in any case (cayman, BARTS, cypress, ...) or a\n"
   "                  PCI device id (0x6718); default: TERAKAN_SIM_CHIP if set, else CAYMAN\n"
   "  --dump DIR      write PNGs of the colour buffers after every draw into DIR\n"
   "                  (TERAKAN_SIM_DUMP)\n"
   "  --trace LEVEL   draws (a line per draw), 1 (packets and registers), 2 (+ instructions),\n"
   "                  3 (+ lane values), on stderr (TERAKAN_SIM_TRACE)\n"
   "  --inherit       the programs PROGRAM starts are simulated too (each its own card);\n"
   "                  without it only PROGRAM is\n"
   "  --print-shim    print the simulator library this command would preload, and exit\n"
   "  --help          this text\n"
   "\n"
   "TERAKAN_SIM_SHIM=PATH overrides where the simulator library is looked for.\n"
   "Exit status: PROGRAM's; 2 for a usage error; 126 or 127 if PROGRAM cannot be run.\n";

int usage_error(const std::string &message)
{
   std::fprintf(stderr, "terakan-sim: %s\n%s", message.c_str(), usage_text);
   return 2;
}

/* What the simulator accepts in TERAKAN_SIM_CHIP (src/sim/sim_board.cpp): a family name, or a
 * PCI id in hexadecimal (ids outside TeraScale 2/3 are presented for identification only). */
bool chip_is_valid(const std::string &chip)
{
   if (terakan::hw::family_from_name(chip))
      return true;
   const char *text = chip.c_str();
   if (chip.starts_with("0x") || chip.starts_with("0X"))
      text += 2;
   char *end = nullptr;
   const unsigned long value = std::strtoul(text, &end, 16);
   return *text && *end == '\0' && value <= 0xffff;
}

std::string valid_chips()
{
   std::string names;
   for (const terakan::hw::FamilyInfo &family : terakan::hw::all_families()) {
      std::string name(family.name);
      for (char &c : name)
         c = char(std::tolower(static_cast<unsigned char>(c)));
      names += (names.empty() ? "" : ", ") + name;
   }
   return names;
}

/* Where this program lies, to find the library relative to it (build tree or an installed,
 * possibly moved, prefix). */
fs::path own_folder()
{
   std::error_code failed;
   const fs::path self = fs::read_symlink("/proc/self/exe", failed);
   return failed ? fs::path() : self.parent_path();
}

/* The places to look, best first. The build-time paths come from src/tools/meson.build. */
std::vector<fs::path> shim_candidates()
{
   std::vector<fs::path> candidates;
   if (const char *override_path = std::getenv("TERAKAN_SIM_SHIM"); override_path && *override_path) {
      candidates.emplace_back(override_path);
      return candidates;
   }
   const fs::path here = own_folder();
   if (!here.empty()) {
      /* Run from the build tree: the library's build folder, relative to this program's. */
      candidates.push_back(here / fs::path(TERAKAN_SIM_BUILD_SHIM).lexically_relative(TERAKAN_SIM_BUILD_TOOLS_DIR));
      /* Installed: the library folder relative to the program folder (bin/ -> lib/.../terakan). */
      candidates.push_back(here / fs::path(TERAKAN_SIM_INSTALL_SHIM_DIR).lexically_relative(TERAKAN_SIM_INSTALL_BINDIR) /
                           shim_name);
   }
   candidates.push_back(fs::path(TERAKAN_SIM_INSTALL_SHIM_DIR) / shim_name);
   return candidates;
}

bool find_shim(std::string &found, std::string &error)
{
   error = "cannot find the simulator library; looked at:";
   for (const fs::path &candidate : shim_candidates()) {
      std::error_code failed;
      if (fs::is_regular_file(candidate, failed)) {
         found = fs::absolute(candidate, failed).lexically_normal().string();
         return true;
      }
      error += "\n  " + candidate.lexically_normal().string();
   }
   error += "\n(build the libterakan_sim target, or set TERAKAN_SIM_SHIM to the library's path)";
   return false;
}

bool set(const char *name, const std::string &value)
{
   if (setenv(name, value.c_str(), 1) == 0)
      return true;
   std::fprintf(stderr, "terakan-sim: cannot set %s: %s\n", name, std::strerror(errno));
   return false;
}

} // namespace

int main(int argc, char **argv)
{
   std::string chip, dump, trace;
   bool chip_given = false, inherit = false, print_shim = false;
   int next = 1;
   for (; next < argc; next++) {
      const std::string_view arg = argv[next];
      if (arg == "--") {
         next++;
         break;
      } else if (arg == "--help" || arg == "-h") {
         std::fputs(usage_text, stdout);
         return 0;
      } else if (arg == "--chip" || arg == "--dump" || arg == "--trace") {
         if (next + 1 >= argc)
            return usage_error(std::string(arg) + " needs a value");
         chip_given = chip_given || arg == "--chip";
         (arg == "--chip" ? chip : arg == "--dump" ? dump : trace) = argv[++next];
      } else if (arg == "--inherit") {
         inherit = true;
      } else if (arg == "--print-shim") {
         print_shim = true;
      } else if (arg.starts_with("-")) {
         return usage_error("unknown option " + std::string(arg));
      } else {
         break;
      }
   }

   if (!print_shim && next >= argc)
      return usage_error("no program to run");
   if (chip_given && !chip_is_valid(chip)) {
      std::fprintf(stderr,
                   "terakan-sim: unknown chip '%s'; expected a family name (%s) or a PCI device id "
                   "such as 0x6718\n",
                   chip.c_str(), valid_chips().c_str());
      return 2;
   }
   if (!trace.empty() && trace != "draws" && trace != "0" && trace != "1" && trace != "2" && trace != "3")
      return usage_error("--trace takes draws, 0, 1, 2 or 3, not '" + trace + "'");

   std::string shim, error;
   if (!find_shim(shim, error)) {
      std::fprintf(stderr, "terakan-sim: %s\n", error.c_str());
      return 1;
   }
   if (print_shim) {
      std::printf("%s\n", shim.c_str());
      return 0;
   }

   /* The shim goes after anything already preloaded: a sanitizer's runtime must stay first,
    * and the shim only needs to come before libc. */
   std::string preload = shim;
   if (const char *existing = std::getenv("LD_PRELOAD"); existing && *existing)
      preload = std::string(existing) + ":" + shim;
   bool ok = set("LD_PRELOAD", preload);
   if (inherit)
      ok = ok && unsetenv("TERAKAN_SIM_PRELOAD_ONCE") == 0;
   else
      ok = ok && set("TERAKAN_SIM_PRELOAD_ONCE", shim);
   if (chip_given)
      ok = ok && set("TERAKAN_SIM_CHIP", chip);
   if (!dump.empty())
      ok = ok && set("TERAKAN_SIM_DUMP", dump);
   if (!trace.empty())
      ok = ok && set("TERAKAN_SIM_TRACE", trace);
   if (!ok)
      return 1;

   execvp(argv[next], argv + next);
   const int error_number = errno;
   std::fprintf(stderr, "terakan-sim: cannot run %s: %s\n", argv[next], std::strerror(error_number));
   return error_number == ENOENT ? 127 : 126;
}
