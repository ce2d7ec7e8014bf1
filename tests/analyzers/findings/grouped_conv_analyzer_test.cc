#include "analyzers/findings/grouped_conv_analyzer.h"

#include <gtest/gtest.h>

#include "tests/analyzers/synthetic_run.h"

namespace ampprof::analyzers {
namespace {

using namespace testing;  // NOLINT: the synthetic kernel names

std::vector<Finding> Analyze(std::initializer_list<Launches> launches,
                             std::initializer_list<Gpu> gpus = {kA100}) {
  return AnalyzeGroupedConvolutions(BuildRun(launches, gpus).input());
}

// An AMP CNN on an A100: dense FP16 convolutions, `grouped_ns` of cuDNN's direct grouped kernels
// out of 1,000 ns.
std::vector<Finding> MixedRun(base::DurationNs grouped_ns) {
  return Analyze(
      {{kFp16Convolution, 600}, {kGroupedDirectFp16, grouped_ns}, {kFill, 400 - grouped_ns}});
}

TEST(GroupedConvolutions, FlagsDirectAndDepthwiseKernelsInAMixedPrecisionRun) {
  const std::vector<Finding> findings = Analyze({{kFp16Convolution, 400},
                                                 {kGroupedDirectFp16, 100, 2},
                                                 {kGroupedWgradFp16, 50},
                                                 {kDepthwiseFp32, 50},
                                                 {kXmmaDepthwiseFp16, 30},
                                                 {kFill, 270}});
  ASSERT_EQ(findings.size(), 1u);
  const Finding& finding = findings[0];
  EXPECT_EQ(finding.id, "conv.grouped_fallback");
  EXPECT_EQ(finding.severity, Severity::kCritical) << "30% of kernel time";
  EXPECT_EQ(finding.verdict,
            "Grouped/depthwise convolutions on CUDA cores take 30.0% of GPU 0 kernel time "
            "(300 ns), 41.1% of its convolution time, in a mixed-precision run");
  ASSERT_EQ(finding.evidence.size(), 5u);
  EXPECT_EQ(finding.evidence[0].value, "4, 300 ns (30.0% of kernel time)");
  EXPECT_EQ(finding.evidence[1].value, "cuDNN FP16: 3, 250 ns; ATen FP32: 1, 50 ns");
  EXPECT_EQ(finding.evidence[2].value, "41.1% of 730 ns");
  EXPECT_EQ(finding.evidence[3].value, "1, 30 ns") << "xmma depthwise: mentioned, not counted";
  ASSERT_EQ(finding.examples.size(), 3u);
  EXPECT_EQ(finding.examples[0], kGroupedDirectFp16);
  EXPECT_EQ(finding.time_ns, 300);
}

TEST(GroupedConvolutions, SeverityBoundaries) {
  EXPECT_TRUE(MixedRun(29).empty()) << "under 3% of kernel time";
  ASSERT_EQ(MixedRun(30).size(), 1u);
  EXPECT_EQ(MixedRun(30)[0].severity, Severity::kWarning);
  EXPECT_EQ(MixedRun(249)[0].severity, Severity::kWarning);
  EXPECT_EQ(MixedRun(250)[0].severity, Severity::kCritical);
}

TEST(GroupedConvolutions, QuietInAnFp32Run) {
  EXPECT_TRUE(Analyze({{kFp32SimtConvolution, 500}, {kDepthwiseFp32, 500}}).empty());
}

TEST(GroupedConvolutions, QuietWhenOnlyTheNhwcDepthwiseKernelsRun) {
  EXPECT_TRUE(Analyze({{kFp16Convolution, 500}, {kXmmaDepthwiseFp16, 500}}).empty());
}

TEST(GroupedConvolutions, QuietWithoutTensorCores) {
  EXPECT_TRUE(Analyze({{kGroupedDirectFp16, 500}, {kScaleUpdate, 5}}, {kGp100}).empty());
  EXPECT_TRUE(Analyze({{kGroupedDirectFp16, 500}, {kScaleUpdate, 5}}, {}).empty())
      << "GPU unknown, no Tensor-Core kernel";
}

}  // namespace
}  // namespace ampprof::analyzers
