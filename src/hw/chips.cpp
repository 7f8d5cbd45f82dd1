#include "chips.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace terakan::hw {

namespace {

constexpr std::array family_table = {
   FamilyInfo{Family::Cedar, "CEDAR", IsaClass::Evergreen, false, false},
   FamilyInfo{Family::Redwood, "REDWOOD", IsaClass::Evergreen, false, false},
   FamilyInfo{Family::Juniper, "JUNIPER", IsaClass::Evergreen, false, false},
   FamilyInfo{Family::Cypress, "CYPRESS", IsaClass::Evergreen, false, false},
   FamilyInfo{Family::Hemlock, "HEMLOCK", IsaClass::Evergreen, false, false},
   FamilyInfo{Family::Palm, "PALM", IsaClass::Evergreen, true, false},
   FamilyInfo{Family::Sumo, "SUMO", IsaClass::Evergreen, true, false},
   FamilyInfo{Family::Sumo2, "SUMO2", IsaClass::Evergreen, true, false},
   FamilyInfo{Family::Barts, "BARTS", IsaClass::Evergreen, false, true},
   FamilyInfo{Family::Turks, "TURKS", IsaClass::Evergreen, false, true},
   FamilyInfo{Family::Caicos, "CAICOS", IsaClass::Evergreen, false, true},
   FamilyInfo{Family::Cayman, "CAYMAN", IsaClass::Cayman, false, true},
   FamilyInfo{Family::Aruba, "ARUBA", IsaClass::Cayman, true, true},
};

constexpr PciIdEntry pci_id_table[] = {
#include "chip_pci_ids.inc"
};

/* Representative boards (a PCI id of each family's best-known part, from the table above). */
constexpr std::pair<Family, uint16_t> representative_boards[] = {
   {Family::Cedar, 0x68F9},   /* Radeon HD 5450 class */
   {Family::Redwood, 0x68D8}, /* Radeon HD 5670 */
   {Family::Juniper, 0x68B8}, /* Radeon HD 5770 */
   {Family::Cypress, 0x6898}, /* Radeon HD 5870 */
   {Family::Hemlock, 0x689C}, /* Radeon HD 5970 */
   {Family::Palm, 0x9802},    /* Radeon HD 6310 */
   {Family::Sumo, 0x9640},    /* Radeon HD 6550D */
   {Family::Sumo2, 0x9642},   /* Radeon HD 6370D */
   {Family::Barts, 0x6738},   /* Radeon HD 6870 */
   {Family::Turks, 0x6758},   /* Radeon HD 6670 */
   {Family::Caicos, 0x6779},  /* Radeon HD 6450 */
   {Family::Cayman, 0x6718},  /* Radeon HD 6970 */
   {Family::Aruba, 0x9900},   /* Radeon HD 7660G */
};

bool equal_ignoring_case(std::string_view a, std::string_view b)
{
   return a.size() == b.size() &&
          std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
             return std::toupper(static_cast<unsigned char>(x)) ==
                    std::toupper(static_cast<unsigned char>(y));
          });
}

} // namespace

const FamilyInfo &family_info(Family family)
{
   return family_table[static_cast<size_t>(family)];
}

std::span<const FamilyInfo> all_families()
{
   return family_table;
}

std::optional<Family> family_from_name(std::string_view name)
{
   for (const FamilyInfo &info : family_table) {
      if (equal_ignoring_case(info.name, name))
         return info.family;
   }
   return std::nullopt;
}

const PciIdEntry *lookup_pci_id(uint16_t device_id)
{
   for (const PciIdEntry &entry : pci_id_table) {
      if (entry.device_id == device_id)
         return &entry;
   }
   return nullptr;
}

std::span<const PciIdEntry> all_pci_ids()
{
   return pci_id_table;
}

uint16_t representative_pci_id(Family family)
{
   for (const auto &[board_family, id] : representative_boards) {
      if (board_family == family)
         return id;
   }
   return 0;
}

} // namespace terakan::hw
