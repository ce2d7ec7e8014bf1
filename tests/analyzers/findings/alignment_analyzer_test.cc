#include "analyzers/findings/alignment_analyzer.h"

#include <cstdint>
#include <limits>

#include <gtest/gtest.h>

#include "analyzers/findings/op_evidence.h"
#include "tests/analyzers/synthetic_run.h"

namespace ampprof::analyzers {
namespace {

using namespace testing;  // NOLINT: the synthetic kernel names

std::vector<Finding> Analyze(std::initializer_list<Launches> launches) {
  return AnalyzeAlignment(BuildRun(launches, {kA100}).input());
}

TEST(Alignment, FlagsUnalignedHalfPrecisionVariants) {
  const std::vector<Finding> findings = Analyze(
      {{kBf16GemmAlign2, 50, 2}, {kBf16GemmAlign8, 300}, {kFp16TensorCoreGemm, 200}, {kFill, 400}});
  ASSERT_EQ(findings.size(), 1u);
  const Finding& finding = findings[0];
  EXPECT_EQ(finding.id, "tensor_cores.misaligned");
  EXPECT_EQ(finding.severity, Severity::kWarning);
  // 1,000 ns of kernels end to end: the whole run is the analysed window.
  EXPECT_EQ(Text(finding.verdict),
            "Unaligned Tensor-Core kernel variants (loads under 16 bytes) take 10.0% of GPU 0's time "
            "(100 ns over the analysed window), 16.7% of its Tensor-Core GEMM/convolution time");
  EXPECT_EQ(EvidenceText(finding, "unaligned Tensor-Core kernels"), "2, 100 ns over the analysed window");
  EXPECT_EQ(EvidenceText(finding, "BF16 align2"), "2 kernels, 100 ns");
  EXPECT_EQ(EvidenceText(finding, "Tensor-Core time whose kernel names give an alignment"),
            "400 ns of 600 ns over the analysed window")
      << "the untagged cuBLAS kernel says nothing";
  EXPECT_EQ(finding.examples, std::vector<std::string>{std::string(kBf16GemmAlign2)});
  // An estimate: aligned variants 1.25x to 2x faster on the 100 ns.
  EXPECT_EQ(finding.saving.low_ns, 20);
  EXPECT_EQ(finding.saving.ns, 50);
}

TEST(Alignment, Tf32NeedsFourElementsHalfTypesEight) {
  const std::vector<Finding> findings = Analyze({{kTf32GemmAlign1, 100},
                                                 {kTf32GemmAlign4, 300},
                                                 {kFp16GemmAlign2, 60},
                                                 {kFp16GemmAlign8, 540}});
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(EvidenceText(findings[0], "TF32 align1"), "1 kernel, 100 ns");
  EXPECT_EQ(EvidenceText(findings[0], "FP16 align2"), "1 kernel, 60 ns");
  EXPECT_EQ(findings[0].saving.ns, 80);
  ASSERT_EQ(findings[0].examples.size(), 2u);
  EXPECT_EQ(findings[0].examples[0], kTf32GemmAlign1);
}

TEST(Alignment, QuietUnderThreePercentOfTheWindow) {
  EXPECT_TRUE(Analyze({{kFp16GemmAlign2, 29}, {kFp16GemmAlign8, 971}}).empty());
  EXPECT_EQ(Analyze({{kFp16GemmAlign2, 30}, {kFp16GemmAlign8, 970}}).size(), 1u);
}

TEST(Alignment, QuietWhenAlignedUntaggedOrOnCudaCores) {
  EXPECT_TRUE(Analyze({{kFp16GemmAlign8, 500}, {kTf32GemmAlign4, 500}}).empty());
  EXPECT_TRUE(Analyze({{kFp16TensorCoreGemm, 500}, {kTf32Convolution, 500}}).empty())
      << "no alignN tag";
  EXPECT_TRUE(Analyze({{kFp32SimtGemmAlign1, 500}, {kFp32SimtGemm, 500}}).empty())
      << "align1 on CUDA cores is not a Tensor-Core variant";
}

// The dimension to pad to: a library log's m, n or k is read as written, so one near INT64_MAX must not
// overflow the rounding (UBSan stops the fuzz build there); it is left as it is.
TEST(RoundUpTo, PadsToTheMultipleAndLeavesADimensionTooLargeToRound) {
  EXPECT_EQ(RoundUpTo(3137, 8), 3144);
  EXPECT_EQ(RoundUpTo(8, 8), 8);
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(RoundUpTo(kMax, 8), kMax);
  EXPECT_EQ(RoundUpTo(kMax - 6, 8), kMax - 6);
}

}  // namespace
}  // namespace ampprof::analyzers
