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
  EXPECT_EQ(finding.severity, Severity::kWarning) << "an estimated 6% to 15% of the step";
  EXPECT_EQ(Text(finding.verdict),
            "Grouped/depthwise convolutions on CUDA cores take 30.0% of GPU 0's time (300 ns over the analysed "
            "window), 41.1% of its convolution time, in a mixed-precision run");
  EXPECT_EQ(EvidenceText(finding, "grouped/depthwise kernels on CUDA cores"), "4, 300 ns over the analysed window");
  EXPECT_EQ(EvidenceText(finding, "cuDNN FP16"), "3 kernels, 250 ns");
  EXPECT_EQ(EvidenceText(finding, "ATen FP32"), "1 kernel, 50 ns");
  EXPECT_EQ(EvidenceText(finding, "other grouped/depthwise kernels (Tensor Cores or xmma depthwise), not counted"),
            "1, 30 ns");
  ASSERT_EQ(finding.examples.size(), 3u);
  EXPECT_EQ(finding.examples[0], kGroupedDirectFp16);
  EXPECT_EQ(finding.saving.low_ns, 60);
  EXPECT_EQ(finding.saving.ns, 150);
}

TEST(GroupedConvolutions, FiresFromThreePercentOfTheStep) {
  EXPECT_TRUE(MixedRun(29).empty()) << "under 3% of the step";
  ASSERT_EQ(MixedRun(30).size(), 1u);
  EXPECT_EQ(MixedRun(30)[0].severity, Severity::kWarning);
  EXPECT_EQ(MixedRun(399)[0].severity, Severity::kWarning) << "at most 20% of the step saved";
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
