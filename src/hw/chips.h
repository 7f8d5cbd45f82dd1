/* The TeraScale 2 and 3 chips Terakan serves: families, their ISA class and their PCI ids.
 * Shared by the driver (to name a device the kernel reports) and the simulator (to pretend to
 * be one). Per-family hardware facts (shader engines, SIMDs, backends, ...) live beside this in
 * chip_config.h once something needs them.
 */
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace terakan::hw {

enum class Family : uint8_t {
   Cedar,
   Redwood,
   Juniper,
   Cypress,
   Hemlock,
   Palm,
   Sumo,
   Sumo2,
   Barts,
   Turks,
   Caicos,
   Cayman,
   Aruba,
};

/* Evergreen: VLIW5 (x, y, z, w and the transcendental t slot); covers R8xx, Palm/Sumo APUs and
 * the Northern Islands VLIW5 parts (Barts, Turks, Caicos). Cayman: VLIW4, no t slot (Cayman and
 * the Trinity/Richland Aruba APUs). Source: AMD's "Evergreen Family Instruction Set Architecture"
 * and "AMD Cayman Instruction Set Architecture" documents; Mesa's r600 driver uses the same split
 * (chip_class EVERGREEN vs CAYMAN). */
enum class IsaClass : uint8_t {
   Evergreen,
   Cayman,
};

struct FamilyInfo {
   Family family;
   std::string_view name;        /* upper case, as Mesa and Linux spell it: "CAYMAN" */
   IsaClass isa_class;
   bool is_apu;                  /* integrated (Palm, Sumo, Sumo2, Aruba) */
   bool northern_islands;        /* R9xx generation (Barts, Turks, Caicos, Cayman, Aruba) */
};

struct PciIdEntry {
   uint16_t device_id;
   Family family;
   std::string_view marketing_name; /* "Radeon HD 6970"; empty when no public name is known */
};

const FamilyInfo &family_info(Family family);
std::span<const FamilyInfo> all_families();

/* Case-insensitive family name ("cayman", "SUMO2"). */
std::optional<Family> family_from_name(std::string_view name);

/* The table entry for a PCI device id of vendor 0x1002, if it is a TeraScale 2/3 chip. */
const PciIdEntry *lookup_pci_id(uint16_t device_id);
std::span<const PciIdEntry> all_pci_ids();

/* The id of a representative desktop board of the family, for the simulator's default. */
uint16_t representative_pci_id(Family family);

constexpr uint16_t amd_pci_vendor_id = 0x1002;

/* The most LDS one compute workgroup may allocate (SQ_LDS_ALLOC, in dwords): 8192 on the
 * Evergreen class, 8160 on Cayman, whose SPI_LDS_MGMT.NUM_LS_LDS counts 255 blocks of 32
 * dwords (Mesa's r600 evergreen_compute.c asserts the same two limits). */
constexpr unsigned max_compute_lds_dwords(IsaClass isa)
{
   return isa == IsaClass::Cayman ? 8160u : 8192u;
}

} // namespace terakan::hw
