/* The chip table in src/hw: every id known once, every family reachable, names as the
 * kernel and Mesa spell them. */
#include <gtest/gtest.h>

#include <set>

#include "hw/chips.h"

using namespace terakan::hw;

TEST(Chips, FamilyNamesAreCaseInsensitive)
{
   EXPECT_EQ(family_from_name("cayman"), Family::Cayman);
   EXPECT_EQ(family_from_name("CAYMAN"), Family::Cayman);
   EXPECT_EQ(family_from_name("Sumo2"), Family::Sumo2);
   EXPECT_EQ(family_from_name("juniper"), Family::Juniper);
   EXPECT_FALSE(family_from_name("tahiti").has_value());
   EXPECT_FALSE(family_from_name("").has_value());
   EXPECT_FALSE(family_from_name("caymanx").has_value());
}

TEST(Chips, IsaClassSplitsVliw5FromVliw4)
{
   for (const FamilyInfo &info : all_families()) {
      const bool vliw4 = info.family == Family::Cayman || info.family == Family::Aruba;
      EXPECT_EQ(info.isa_class, vliw4 ? IsaClass::Cayman : IsaClass::Evergreen) << info.name;
      EXPECT_EQ(&family_info(info.family), &info);
   }
   EXPECT_EQ(all_families().size(), 13u);
}

TEST(Chips, PciIdsAreUniqueAndCoverEveryFamily)
{
   std::set<uint16_t> ids;
   std::set<Family> families;
   for (const PciIdEntry &entry : all_pci_ids()) {
      EXPECT_TRUE(ids.insert(entry.device_id).second) << std::hex << entry.device_id;
      families.insert(entry.family);
   }
   EXPECT_EQ(families.size(), all_families().size());
   /* Linux's radeon_PCI_IDS lists 172 Evergreen/Northern Islands ids. */
   EXPECT_EQ(ids.size(), 172u);
}

TEST(Chips, KnownBoardsMapToTheirFamily)
{
   /* Spot checks against Linux's drm_pciids.h. */
   ASSERT_NE(lookup_pci_id(0x6718), nullptr);
   EXPECT_EQ(lookup_pci_id(0x6718)->family, Family::Cayman);
   EXPECT_EQ(lookup_pci_id(0x6718)->marketing_name, "Radeon HD 6970");
   EXPECT_EQ(lookup_pci_id(0x68B8)->family, Family::Juniper);
   EXPECT_EQ(lookup_pci_id(0x6738)->family, Family::Barts);
   EXPECT_EQ(lookup_pci_id(0x9642)->family, Family::Sumo2);
   EXPECT_EQ(lookup_pci_id(0x990B)->family, Family::Aruba);
   /* R700 (RV770), Southern Islands (Tahiti) and a non-GPU id are not ours. */
   EXPECT_EQ(lookup_pci_id(0x9440), nullptr);
   EXPECT_EQ(lookup_pci_id(0x6798), nullptr);
   EXPECT_EQ(lookup_pci_id(0x0000), nullptr);
}

TEST(Chips, RepresentativeBoardsBelongToTheirFamily)
{
   for (const FamilyInfo &info : all_families()) {
      const uint16_t id = representative_pci_id(info.family);
      const PciIdEntry *entry = lookup_pci_id(id);
      ASSERT_NE(entry, nullptr) << info.name;
      EXPECT_EQ(entry->family, info.family) << info.name;
   }
}
