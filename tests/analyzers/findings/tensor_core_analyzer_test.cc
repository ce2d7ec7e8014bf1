#include "analyzers/findings/tensor_core_analyzer.h"

#include <gtest/gtest.h>

#include "tests/analyzers/synthetic_run.h"

#include "src/model/model_builder.h"
#include "tests/testing/record_builder.h"

namespace ampprof::analyzers {
namespace {

std::vector<Finding> Analyze(const char* gpu, uint32_t major, uint32_t minor, bool describe_device = true) {
  model::ModelBuilder builder;
  ampprof::testing::RecordBuilder b(builder);
  if (describe_device) b.Device(0, gpu, major, minor);
  b.Kernel("maxwell_sgemm_128x64_nn", 0, 300);
  b.Kernel("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
           "std::array<char*, 1ul> >(int, at::native::FillFunctor<float>, std::array<char*, 1ul>)",
           400, 500);
  const model::TraceModel model = std::move(builder).Build();
  return AnalyzeTensorCoreAvailability(AnalysisInput(model));
}

TEST(TensorCoreAvailability, FlagsGpusOlderThanVolta) {
  const std::vector<Finding> findings = Analyze("NVIDIA GeForce GTX 1080 Ti", 6, 1);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].id, "tensor_cores.unavailable");
  EXPECT_EQ(findings[0].severity, Severity::kInfo) << "an FP32 run: what the user should know before trying AMP";
  EXPECT_EQ(testing::Text(findings[0].verdict),
            "GPU 0 (NVIDIA GeForce GTX 1080 Ti) has no Tensor Cores: mixed precision can save memory here, not "
            "GEMM or convolution time");
  // 300 ns of sgemm, 100 ns idle, 100 ns of fill: the whole run is 500 ns.
  EXPECT_EQ(testing::EvidenceText(findings[0], "GEMM and convolution time"), "300 ns over the analysed window (60.0%)");
  EXPECT_TRUE(findings[0].saving.none()) << "no step time to save: the hardware decides";
}

TEST(TensorCoreAvailability, QuietOnVoltaAndNewer) {
  EXPECT_TRUE(Analyze("Tesla V100-SXM2-16GB", 7, 0).empty());
  EXPECT_TRUE(Analyze("NVIDIA H100 80GB HBM3", 9, 0).empty());
}

TEST(TensorCoreAvailability, DoesNotGuessWhenTheTraceDoesNotDescribeTheGpu) {
  EXPECT_TRUE(Analyze("", 0, 0, /*describe_device=*/false).empty());
}

}  // namespace
}  // namespace ampprof::analyzers
