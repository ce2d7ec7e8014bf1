#include "analyzers/findings/tensor_core_analyzer.h"

#include <gtest/gtest.h>

#include "src/model/model_builder.h"
#include "tests/testing/record_builder.h"

namespace ampprof::analyzers {
namespace {

std::vector<Finding> Analyze(const char* gpu, uint32_t major, uint32_t minor, bool describe_device = true) {
  model::ModelBuilder builder;
  testing::RecordBuilder b(builder);
  if (describe_device) b.Device(0, gpu, major, minor);
  b.Kernel("maxwell_sgemm_128x64_nn", 0, 300);
  b.Kernel("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
           "std::array<char*, 1ul> >(int, at::native::FillFunctor<float>, std::array<char*, 1ul>)",
           400, 500);
  const model::TraceModel model = std::move(builder).Build();
  const std::vector<KernelClass> classes = ClassifySignatures(model);
  return AnalyzeTensorCoreAvailability(AnalysisInput{model, classes});
}

TEST(TensorCoreAvailability, FlagsGpusOlderThanVolta) {
  const std::vector<Finding> findings = Analyze("NVIDIA GeForce GTX 1080 Ti", 6, 1);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].id, "tensor_cores.unavailable");
  EXPECT_EQ(findings[0].severity, Severity::kCritical);
  EXPECT_EQ(findings[0].verdict,
            "GPU 0 (NVIDIA GeForce GTX 1080 Ti, sm_61) has no Tensor Cores: mixed precision can save memory "
            "here, not GEMM or convolution time");
  EXPECT_EQ(findings[0].evidence[1].value, "300 ns (75.0% of kernel time)");
  EXPECT_EQ(findings[0].time_ns, 300);
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
