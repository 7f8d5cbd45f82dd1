/* The boards the simulator can pretend to be: per-family configuration as the radeon kernel
 * driver sets it up, and the figures a real board of that family reports.
 *
 * Facts come from Linux's drivers/gpu/drm/radeon: evergreen.c (evergreen_gpu_init,
 * evergreen_mc_init), ni.c (cayman_gpu_init), evergreend.h and nid.h (GB_ADDR_CONFIG golden
 * values and fields), radeon_kms.c (radeon_info_ioctl), radeon_gem.c (radeon_gem_info_ioctl).
 * Values that vary per board and could not be checked in a public source are marked as
 * assumptions where they are set (sim_board.cpp).
 */
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "hw/chips.h"

namespace terakan::sim {

struct SimBoard {
   hw::Family family;
   uint16_t pci_device_id;

   /* A radeon chip outside TeraScale 2/3 (R600/R700, SI, CIK), presented only so that the
    * driver's refusal of it can be tested: the node answers who it is and nothing more. The
    * remaining fields are then meaningless. */
   bool identification_only;

   /* evergreen_gpu_init / cayman_gpu_init */
   uint32_t shader_engines;
   uint32_t pipes;               /* max_pipes (Evergreen) or max_pipes_per_simd (Cayman) */
   uint32_t tile_pipes;
   uint32_t simds_per_shader_engine;
   uint32_t backends;            /* total render backends */
   uint32_t gb_addr_config;
   uint32_t memory_banks;        /* 4, 8 or 16: MC_ARB_RAMCFG NOOFBANK on the real board */
   bool igp;

   /* radeon_info_ioctl answers */
   uint32_t tiling_config;
   uint32_t backend_map;
   uint32_t crystal_clock_khz;
   uint32_t max_engine_clock_khz;
   uint32_t memory_clock_mhz;

   /* radeon_gem_info_ioctl answers, bytes */
   uint64_t vram_size;
   uint64_t vram_visible;
   uint64_t gtt_size;
};

/* TERAKAN_SIM_CHIP: a family name (any case) or a PCI device id ("0x6718" or "6718"). Unset
 * means CAYMAN. A PCI id outside our table gives an identification-only board. Returns nullopt
 * and fills `error` for anything else. */
std::optional<SimBoard> board_from_chip_string(const char *value, std::string &error);

SimBoard board_for_pci_id(uint16_t pci_device_id);

} // namespace terakan::sim
