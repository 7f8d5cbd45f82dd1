/* The simulator's board tables against the values Linux's radeon driver computes
 * (evergreen_gpu_init, cayman_gpu_init, r6xx_remap_render_backend). */
#include <gtest/gtest.h>

#include "sim_board.h"

using namespace terakan;
using sim::SimBoard;

static SimBoard board_of(const char *chip)
{
   std::string error;
   auto board = sim::board_from_chip_string(chip, error);
   EXPECT_TRUE(board.has_value()) << error;
   return board.value_or(SimBoard{});
}

TEST(SimBoard, DefaultIsCayman)
{
   std::string error;
   auto board = sim::board_from_chip_string(nullptr, error);
   ASSERT_TRUE(board.has_value());
   EXPECT_EQ(board->family, hw::Family::Cayman);
   EXPECT_EQ(board->pci_device_id, 0x6718);
}

TEST(SimBoard, ChipStringAcceptsNamesAndPciIds)
{
   EXPECT_EQ(board_of("juniper").family, hw::Family::Juniper);
   EXPECT_EQ(board_of("BARTS").pci_device_id, 0x6738);
   EXPECT_EQ(board_of("0x6779").family, hw::Family::Caicos);
   EXPECT_EQ(board_of("6779").pci_device_id, 0x6779);

   std::string error;
   EXPECT_FALSE(sim::board_from_chip_string("tahiti", error).has_value());
   EXPECT_NE(error.find("tahiti"), std::string::npos);
   /* A radeon chip outside TeraScale 2/3 (RV770) is presented for identification only. */
   auto rv770 = sim::board_from_chip_string("0x9440", error);
   ASSERT_TRUE(rv770.has_value());
   EXPECT_TRUE(rv770->identification_only);
   EXPECT_EQ(rv770->pci_device_id, 0x9440);
   EXPECT_FALSE(board_of("CAYMAN").identification_only);
   EXPECT_FALSE(sim::board_from_chip_string("0xzz", error).has_value());
   EXPECT_FALSE(sim::board_from_chip_string("0x1234567", error).has_value());
}

TEST(SimBoard, BackendMapMatchesKernelRemap)
{
   /* r6xx_remap_render_backend with no backend fused off. */
   EXPECT_EQ(board_of("CAYMAN").backend_map, 0x76543210u);
   EXPECT_EQ(board_of("CYPRESS").backend_map, 0x76543210u);
   EXPECT_EQ(board_of("BARTS").backend_map, 0x76543210u);
   EXPECT_EQ(board_of("JUNIPER").backend_map, 0x3210u);
   EXPECT_EQ(board_of("REDWOOD").backend_map, 0x1100u);
   EXPECT_EQ(board_of("TURKS").backend_map, 0x1100u);
   EXPECT_EQ(board_of("CEDAR").backend_map, 0x0u);
   EXPECT_EQ(board_of("0x9900").backend_map, 0x10u);      /* ARUBA, 2 backends */
   EXPECT_EQ(board_of("0x9919").backend_map, 0x11111111u); /* ARUBA, 1 backend */
   EXPECT_EQ(board_of("PALM").backend_map, 0x0u);
}

TEST(SimBoard, TilingConfigEncodesPipesBanksAndRowSize)
{
   /* bits 3:0 log2(pipes), 7:4 banks (1 = 8), 15:12 row size. */
   EXPECT_EQ(board_of("CAYMAN").tiling_config, 0x13u);
   EXPECT_EQ(board_of("JUNIPER").tiling_config, 0x12u);
   EXPECT_EQ(board_of("CEDAR").tiling_config, 0x11u);
   /* The IGP values the kernel computes: PALM 0x11, SUMO 0x12, ARUBA 0x1011. */
   EXPECT_EQ(board_of("PALM").tiling_config, 0x11u);
   EXPECT_EQ(board_of("SUMO").tiling_config, 0x12u);
   EXPECT_EQ(board_of("ARUBA").tiling_config, 0x1011u);
}

TEST(SimBoard, PciIdDependentSimdCounts)
{
   EXPECT_EQ(board_of("0x9648").simds_per_shader_engine, 3u); /* SUMO */
   EXPECT_EQ(board_of("0x9647").simds_per_shader_engine, 4u);
   EXPECT_EQ(board_of("0x9640").simds_per_shader_engine, 5u);
   EXPECT_EQ(board_of("0x9904").simds_per_shader_engine, 4u); /* ARUBA */
   EXPECT_EQ(board_of("0x9990").backends, 1u);
   EXPECT_EQ(board_of("0x99A2").simds_per_shader_engine, 2u);
}

TEST(SimBoard, UnitsOfTheInfoAnswers)
{
   const SimBoard cayman = board_of("CAYMAN");
   EXPECT_EQ(cayman.vram_size, 2048ull << 20);
   EXPECT_EQ(cayman.gtt_size, 1024ull << 20);
   EXPECT_EQ(cayman.max_engine_clock_khz, 880000u); /* kHz, as RADEON_INFO_MAX_SCLK */
   EXPECT_EQ(cayman.shader_engines * cayman.simds_per_shader_engine, 24u);
   EXPECT_EQ(cayman.backends, 8u);
   EXPECT_LE(cayman.vram_visible, cayman.vram_size);
}
