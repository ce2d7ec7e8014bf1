#include "analyzers/findings/cast_analyzer.h"

#include <gtest/gtest.h>

#include "tests/analyzers/synthetic_run.h"

namespace ampprof::analyzers {
namespace {

using namespace testing;  // NOLINT: the synthetic kernel names

std::vector<Finding> Analyze(std::initializer_list<Launches> launches) {
  return AnalyzeCasts(BuildRun(launches, {kH100}).input());
}

// `cast_ns` of casts to FP16 (10 launches) out of 1,000 ns, next to FP16 GEMMs.
std::vector<Finding> CastRun(base::DurationNs cast_ns) {
  return Analyze({{kFp16TensorCoreGemm, 1'000 - cast_ns}, {kCastToFp16, cast_ns / 10, 10}});
}

TEST(Casts, CountsCastsBetweenFp32AndLowPrecision) {
  const std::vector<Finding> findings = Analyze({{kFp16TensorCoreGemm, 500},
                                                 {kCastToBf16, 4, 10},
                                                 {kCastBf16ToFp32, 5, 4},
                                                 {kCastToFp16, 10},
                                                 {kCopyToInt64, 100},
                                                 {kFill, 330}});
  ASSERT_EQ(findings.size(), 1u);
  const Finding& finding = findings[0];
  EXPECT_EQ(finding.id, "amp.cast_overhead");
  EXPECT_EQ(finding.severity, Severity::kInfo);
  EXPECT_EQ(Text(finding.verdict),
            "Cast kernels between FP32 and FP16/BF16/FP8 take 7.0% of GPU 0's time (70 ns over the analysed "
            "window in 15 launches)");
  EXPECT_EQ(EvidenceText(finding, "cast kernels"), "15, 70 ns over the analysed window");
  EXPECT_EQ(EvidenceText(finding, "FP32<->FP16"), "1 kernel, 10 ns");
  EXPECT_EQ(EvidenceText(finding, "FP32<->BF16"), "14 kernels, 60 ns");
  EXPECT_EQ(EvidenceText(finding, "relative to GEMM/convolution time"), "14.0% of 500 ns over the analysed window");
  EXPECT_EQ(EvidenceText(finding, "other dtype conversions, not counted"), "1, 100 ns");
  EXPECT_EQ(EvidenceText(finding, "bytes cast"), "not in the trace (kernel records carry no tensor sizes)");
  ASSERT_EQ(finding.examples.size(), 3u);
  EXPECT_EQ(finding.examples[0], kCastToBf16);
  // An estimate: half to all of the cast time.
  EXPECT_EQ(finding.saving.low_ns, 35);
  EXPECT_EQ(finding.saving.ns, 70);
}

TEST(Casts, SeverityBoundaries) {
  EXPECT_TRUE(Analyze({{kFp16TensorCoreGemm, 981}, {kCastToFp16, 19}}).empty())
      << "under 2% of kernel time";
  ASSERT_EQ(CastRun(20).size(), 1u);
  EXPECT_EQ(CastRun(20)[0].severity, Severity::kInfo);
  EXPECT_EQ(CastRun(90)[0].severity, Severity::kInfo);
  EXPECT_EQ(CastRun(100)[0].severity, Severity::kWarning) << "a tenth of kernel time";
  EXPECT_EQ(Text(CastRun(100)[0].verdict),
            "Cast kernels between FP32 and FP16/BF16/FP8 take 10.0% of GPU 0's time (100 ns over the analysed "
            "window in 10 launches)");
}

TEST(Casts, QuietWithoutLowPrecisionCasts) {
  EXPECT_TRUE(Analyze({{kFp32SimtGemm, 500}, {kCopyToInt64, 500}}).empty())
      << "a copy to INT64 is not autocast's";
  EXPECT_TRUE(Analyze({{kFp16TensorCoreGemm, 1'000}}).empty());
}

}  // namespace
}  // namespace ampprof::analyzers
