/* The compiler corpus through the whole driver: every corpus shader as a Vulkan compute
 * pipeline on Terakan (the simulated GPU of TERAKAN_SIM_CHIP, through the loader, with the
 * validation layer on), its buffers compared with lavapipe's for the same job. This covers
 * memory, buffers, descriptor sets (uniform and storage), pipeline layouts with push
 * constants, compute pipelines, command buffers, submission and waiting. */
#include <gtest/gtest.h>

#include <map>

#include "../compiler/corpus.h"
#include "../compiler/vulkan_compute_runner.h"

using namespace terakan::test;
using namespace terakan::test::corpus_files;

namespace {

VulkanComputeRunner &terakan_device()
{
   static VulkanComputeRunner runner("Terakan");
   return runner;
}

VulkanComputeRunner &lavapipe_device()
{
   static VulkanComputeRunner runner("llvmpipe");
   return runner;
}

ComputeJob job_for(const CorpusShader &shader)
{
   ComputeJob job;
   job.spirv = shader.spirv;
   job.buffers = initial_buffers();
   job.uniform = {false, false, false, true};
   job.push_constants = push_constants;
   job.groups = shader.groups;
   return job;
}

class DriverCorpus : public testing::TestWithParam<size_t> {};

TEST_P(DriverCorpus, MatchesLavapipe)
{
   const CorpusShader &shader = corpus()[GetParam()];
   ASSERT_TRUE(terakan_device().available()) << terakan_device().error();
   const unsigned messages_before = terakan_device().validation_messages();
   std::vector<std::vector<uint32_t>> got;
   std::string error;
   const bool ran = terakan_device().run(job_for(shader), got, error);
   if (!shader.refused.empty()) {
      /* Pipeline creation must fail, with a result rather than a crash. */
      EXPECT_FALSE(ran) << shader.name << " ran but its shader should have been refused";
      EXPECT_NE(error.find("vkCreateComputePipelines"), std::string::npos) << error;
      return;
   }
   ASSERT_TRUE(ran) << error;
   EXPECT_EQ(terakan_device().validation_messages(), messages_before);

   ASSERT_TRUE(lavapipe_device().available()) << lavapipe_device().error();
   std::vector<std::vector<uint32_t>> expected;
   ASSERT_TRUE(lavapipe_device().run(job_for(shader), expected, error)) << error;
   std::string report;
   EXPECT_EQ(compare(shader, expected, got, report), 0u) << report;
}

std::vector<size_t> indices()
{
   std::vector<size_t> list;
   for (size_t i = 0; i < corpus().size(); i++)
      list.push_back(i);
   return list;
}

INSTANTIATE_TEST_SUITE_P(Corpus, DriverCorpus, testing::ValuesIn(indices()),
                         [](const testing::TestParamInfo<size_t> &info) {
                            return corpus()[info.param].name;
                         });

TEST(DriverCorpusSetup, ValidationLayerIsOn)
{
   ASSERT_TRUE(terakan_device().available()) << terakan_device().error();
   EXPECT_TRUE(terakan_device().validation_enabled());
   EXPECT_GE(corpus().size(), 60u);
}

} // namespace
