#include "analyzers/findings/alignment_analyzer.h"

#include <gtest/gtest.h>

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
  EXPECT_EQ(finding.verdict,
            "Unaligned Tensor-Core kernel variants (loads under 16 bytes) take 10.0% of GPU 0 "
            "kernel time (100 ns), 16.7% of its Tensor-Core GEMM/convolution time");
  ASSERT_EQ(finding.evidence.size(), 5u);
  EXPECT_EQ(finding.evidence[0].value, "2, 100 ns (10.0% of kernel time)");
  EXPECT_EQ(finding.evidence[1].value, "BF16 align2: 2, 100 ns");
  EXPECT_EQ(finding.evidence[2].value, "16.7% of 600 ns");
  EXPECT_EQ(finding.evidence[3].value, "400 ns of 600 ns")
      << "the untagged cuBLAS kernel says nothing";
  EXPECT_EQ(finding.examples, std::vector<std::string>{std::string(kBf16GemmAlign2)});
  EXPECT_EQ(finding.time_ns, 100);
}

TEST(Alignment, Tf32NeedsFourElementsHalfTypesEight) {
  const std::vector<Finding> findings = Analyze({{kTf32GemmAlign1, 100},
                                                 {kTf32GemmAlign4, 300},
                                                 {kFp16GemmAlign2, 60},
                                                 {kFp16GemmAlign8, 540}});
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].evidence[1].value, "TF32 align1: 1, 100 ns; FP16 align2: 1, 60 ns");
  EXPECT_EQ(findings[0].time_ns, 160);
  ASSERT_EQ(findings[0].examples.size(), 2u);
  EXPECT_EQ(findings[0].examples[0], kTf32GemmAlign1);
}

TEST(Alignment, QuietUnderThreePercent) {
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

}  // namespace
}  // namespace ampprof::analyzers
