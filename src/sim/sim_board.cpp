#include "sim_board.h"

#include <cstdlib>
#include <cstring>

namespace terakan::sim {

using hw::Family;

namespace {

constexpr uint64_t MiB = 1024ull * 1024ull;

/* Per-family setup, from evergreen_gpu_init (Evergreen and BARTS/TURKS/CAICOS) and
 * cayman_gpu_init (CAYMAN, ARUBA) in Linux's radeon driver, and the *_GB_ADDR_CONFIG_GOLDEN
 * values of evergreend.h / nid.h. SUMO and ARUBA SIMD and backend counts depend on the PCI id
 * and are adjusted in board_for_pci_id(). */
struct FamilySetup {
   Family family;
   uint32_t shader_engines, pipes, tile_pipes, simds_per_se, backends;
   uint32_t gb_addr_config;
   bool igp;
};

constexpr FamilySetup family_setups[] = {
   {Family::Cedar, 1, 2, 2, 2, 1, 0x02010001, false},
   {Family::Redwood, 1, 4, 4, 5, 2, 0x02010002, false},
   {Family::Juniper, 1, 4, 4, 10, 4, 0x02010002, false},
   {Family::Cypress, 2, 4, 8, 10, 8, 0x02011003, false},
   {Family::Hemlock, 2, 4, 8, 10, 8, 0x02011003, false},
   {Family::Palm, 1, 2, 2, 2, 1, 0x02010001, true},
   {Family::Sumo, 1, 4, 4, 5, 2, 0x02010002, true},
   {Family::Sumo2, 1, 4, 4, 2, 1, 0x02010002, true},
   {Family::Barts, 2, 4, 8, 7, 8, 0x02011003, false},
   {Family::Turks, 1, 4, 4, 6, 2, 0x02010002, false},
   {Family::Caicos, 1, 2, 2, 2, 1, 0x02010001, false},
   {Family::Cayman, 2, 4, 8, 12, 8, 0x02011003, false},
   {Family::Aruba, 1, 4, 2, 6, 2, 0x12010001, true},
};

/* Board figures. VRAM and engine clocks of the HD 6970 (2 GiB, 880 MHz, memory 1375 MHz),
 * HD 5770 (1 GiB, 850 MHz, 1200 MHz) and HD 6870 (1 GiB, 900 MHz, 1050 MHz) are AMD's launch
 * specifications as reported by the press (two reviews disagree on the 6970's and the 5770's
 * clock; we take the majority). The other families' figures are the launch specifications of
 * the representative board in src/hw/chips.cpp and were not cross-checked. APU "VRAM" is the
 * stolen system memory carve-out most BIOSes default to (assumption). */
struct BoardFigures {
   Family family;
   uint32_t vram_mib;
   uint32_t engine_clock_mhz;
   uint32_t memory_clock_mhz;
};

constexpr BoardFigures board_figures[] = {
   {Family::Cedar, 512, 650, 800},    {Family::Redwood, 512, 775, 1000},
   {Family::Juniper, 1024, 850, 1200}, {Family::Cypress, 1024, 850, 1200},
   {Family::Hemlock, 1024, 725, 1000}, {Family::Palm, 256, 500, 533},
   {Family::Sumo, 512, 600, 800},     {Family::Sumo2, 512, 444, 800},
   {Family::Barts, 1024, 900, 1050},  {Family::Turks, 1024, 800, 1000},
   {Family::Caicos, 512, 625, 800},   {Family::Cayman, 2048, 880, 1375},
   {Family::Aruba, 512, 686, 800},
};

const FamilySetup &setup_of(Family family)
{
   for (const FamilySetup &setup : family_setups) {
      if (setup.family == family)
         return setup;
   }
   std::abort();
}

const BoardFigures &figures_of(Family family)
{
   for (const BoardFigures &figures : board_figures) {
      if (figures.family == family)
         return figures;
   }
   std::abort();
}

uint32_t log2_of(uint32_t value)
{
   uint32_t log = 0;
   while ((1u << log) < value)
      log++;
   return log;
}

/* RADEON_INFO_TILING_CONFIG: bits 3:0 log2(tile pipes), 7:4 banks (0: 4, 1: 8, 2: 16),
 * 11:8 pipe interleave (GB_ADDR_CONFIG[6:4]; Evergreen writes 0), 15:12 row size
 * (GB_ADDR_CONFIG[29:28]). IGPs always report 8 banks. */
uint32_t tiling_config_of(const SimBoard &board)
{
   const uint32_t banks = board.igp ? 8 : board.memory_banks;
   const uint32_t bank_field = banks == 4 ? 0 : banks == 8 ? 1 : 2;
   uint32_t config = log2_of(board.tile_pipes) | (bank_field << 4);
   if (hw::family_info(board.family).isa_class == hw::IsaClass::Cayman)
      config |= ((board.gb_addr_config >> 4) & 0x7) << 8;
   config |= ((board.gb_addr_config >> 28) & 0x3) << 12;
   return config;
}

/* RADEON_INFO_BACKEND_MAP as r6xx_remap_render_backend computes it with no backend fused off
 * (4 bits per pipe on Evergreen and later), and the single-backend IGP special cases of
 * evergreen_gpu_init / cayman_gpu_init. */
uint32_t backend_map_of(const SimBoard &board)
{
   if (board.igp && board.backends == 1)
      return hw::family_info(board.family).isa_class == hw::IsaClass::Cayman ? 0x11111111u : 0;
   const uint32_t pipes = 1u << (board.gb_addr_config & 0x7);
   /* Each pipe takes the next enabled backend; backends are spread evenly over pipes. */
   const uint32_t pipes_per_backend = pipes > board.backends ? pipes / board.backends : 1;
   uint32_t map = 0;
   for (uint32_t pipe = 0; pipe < pipes; pipe++)
      map |= ((pipe / pipes_per_backend) & 0xf) << (pipe * 4);
   return map;
}

bool parse_pci_id(const char *text, uint16_t &id)
{
   char *end = nullptr;
   const unsigned long value = std::strtoul(text, &end, 16);
   if (end == text || *end != '\0' || value > 0xffff)
      return false;
   id = static_cast<uint16_t>(value);
   return true;
}

} // namespace

SimBoard board_for_pci_id(uint16_t pci_device_id)
{
   const hw::PciIdEntry *entry = hw::lookup_pci_id(pci_device_id);
   const Family family = entry ? entry->family : Family::Cayman;
   const FamilySetup &setup = setup_of(family);
   const BoardFigures &figures = figures_of(family);

   SimBoard board = {};
   board.family = family;
   board.pci_device_id = pci_device_id;
   board.shader_engines = setup.shader_engines;
   board.pipes = setup.pipes;
   board.tile_pipes = setup.tile_pipes;
   board.simds_per_shader_engine = setup.simds_per_se;
   board.backends = setup.backends;
   board.gb_addr_config = setup.gb_addr_config;
   board.igp = setup.igp;
   /* Assumption: 8 banks, the usual GDDR5/DDR3 configuration; the kernel reads it from the
    * memory controller, so it is a board property no source pins down. */
   board.memory_banks = 8;

   /* PCI-id dependent SIMD/backend counts (evergreen_gpu_init, cayman_gpu_init). */
   if (family == Family::Sumo) {
      if (pci_device_id == 0x9648)
         board.simds_per_shader_engine = 3;
      else if (pci_device_id == 0x9647 || pci_device_id == 0x964a)
         board.simds_per_shader_engine = 4;
   } else if (family == Family::Aruba) {
      static constexpr uint16_t six_simds[] = {0x9900, 0x9901, 0x9905, 0x9906, 0x9907,
                                               0x9908, 0x9909, 0x990B, 0x990C, 0x990F,
                                               0x9910, 0x9917, 0x9999, 0x999C};
      static constexpr uint16_t four_simds[] = {0x9903, 0x9904, 0x990A, 0x990D,
                                                0x990E, 0x9913, 0x9918, 0x999D};
      static constexpr uint16_t three_simds[] = {0x9919, 0x9990, 0x9991, 0x9994,
                                                 0x9995, 0x9996, 0x999A, 0x99A0};
      auto contains = [&](const auto &list) {
         for (uint16_t id : list)
            if (id == pci_device_id)
               return true;
         return false;
      };
      if (contains(six_simds)) {
         board.simds_per_shader_engine = 6, board.backends = 2;
      } else if (contains(four_simds)) {
         board.simds_per_shader_engine = 4, board.backends = 2;
      } else if (contains(three_simds)) {
         board.simds_per_shader_engine = 3, board.backends = 1;
      } else {
         board.simds_per_shader_engine = 2, board.backends = 1;
      }
   }

   board.tiling_config = tiling_config_of(board);
   board.backend_map = backend_map_of(board);
   /* Assumption: a 27 MHz reference clock (AtomBIOS usCoreReferenceClock = 2700 in 10 kHz
    * units) passed straight through by rv770_get_xclk / r600_get_xclk; no public dump of these
    * boards' VBIOS confirms it. */
   board.crystal_clock_khz = 27000;
   board.max_engine_clock_khz = figures.engine_clock_mhz * 1000;
   board.memory_clock_mhz = figures.memory_clock_mhz;

   board.vram_size = uint64_t(figures.vram_mib) * MiB;
   /* Discrete boards expose a 256 MiB PCI BAR (assumption; the usual size). APUs map their
    * whole carve-out. */
   board.vram_visible = board.igp ? board.vram_size : 256 * MiB;
   /* radeon_gart_size_auto(): 1024 MiB for RV770 up to (not including) TAHITI. */
   board.gtt_size = 1024 * MiB;
   return board;
}

std::optional<SimBoard> board_from_chip_string(const char *value, std::string &error)
{
   if (!value || !*value)
      return board_for_pci_id(hw::representative_pci_id(Family::Cayman));

   if (auto family = hw::family_from_name(value))
      return board_for_pci_id(hw::representative_pci_id(*family));

   uint16_t id = 0;
   if (parse_pci_id(value, id)) {
      if (hw::lookup_pci_id(id))
         return board_for_pci_id(id);
      SimBoard foreign = {};
      foreign.pci_device_id = id;
      foreign.identification_only = true;
      return foreign;
   }
   error = std::string("TERAKAN_SIM_CHIP=") + value +
           ": expected a family name (CEDAR ... ARUBA) or a PCI device id such as 0x6718";
   return std::nullopt;
}

} // namespace terakan::sim
