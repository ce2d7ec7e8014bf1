#include "analyzers/findings/fp32_math_analyzer.h"

#include <gtest/gtest.h>

#include "tests/analyzers/synthetic_run.h"

namespace ampprof::analyzers {
namespace {

using namespace testing;  // NOLINT: the synthetic kernel names

std::vector<Finding> Analyze(std::initializer_list<Launches> launches,
                             std::initializer_list<Gpu> gpus) {
  return AnalyzeFp32Math(BuildRun(launches, gpus).input());
}

// An AMP run on an H100: FP16 GEMMs on Tensor Cores, and `fp32_ns` of FP32 SIMT GEMMs out of
// 1,000 ns.
std::vector<Finding> MixedRun(base::DurationNs fp32_ns) {
  return Analyze({{kFp16TensorCoreGemm, 1'000 - fp32_ns}, {kFp32SimtGemmH100, fp32_ns}}, {kH100});
}

TEST(Fp32Math, WarnsAboutCudaCoreGemmsInAMixedPrecisionRun) {
  const std::vector<Finding> findings = Analyze({{kFp16TensorCoreGemm, 700},
                                                 {kFp32SimtGemmH100, 40, 2},
                                                 {kFp32SimtConvolution, 20},
                                                 {kFill, 200}},
                                                {kH100});
  ASSERT_EQ(findings.size(), 1u);
  const Finding& finding = findings[0];
  EXPECT_EQ(finding.id, "tensor_cores.fp32_math");
  EXPECT_EQ(finding.severity, Severity::kWarning);
  // 100 ns on CUDA cores of 1,000: on an H100's Tensor Cores 2x (realistic) to 14.8x (the peak ratio)
  // faster, so 50 to 93 ns saved.
  EXPECT_EQ(Text(finding.verdict),
            "GEMMs and convolutions on CUDA cores take 10.0% of GPU 0's time in a mixed-precision run; on Tensor "
            "Cores they would save about 5.0% to 9.3% of the step");
  EXPECT_EQ(finding.saving.low_ns, 50);
  EXPECT_EQ(finding.saving.ns, 93);
  EXPECT_EQ(EvidenceText(finding, "CUDA-core GEMMs"), "2 kernels, 80 ns over the analysed window");
  EXPECT_EQ(EvidenceText(finding, "CUDA-core convolutions"), "1 kernel, 20 ns over the analysed window");
  EXPECT_EQ(EvidenceText(finding, "GEMMs and convolutions on Tensor Cores"), "700 ns over the analysed window");
  EXPECT_EQ(EvidenceText(finding, "mixed precision, from"), "FP16/BF16/FP8 GEMM/convolution kernels 1 (700 ns)");
  ASSERT_EQ(finding.examples.size(), 2u);
  EXPECT_EQ(finding.examples[0], kFp32SimtGemmH100) << "most time first";
  EXPECT_NE(finding.fix.find("autocast"), std::string::npos) << "the fix matches the title";
}

TEST(Fp32Math, SeverityFollowsTheRealisticSaving) {
  EXPECT_TRUE(MixedRun(58).empty()) << "the realistic saving (half) under 3% of the step";
  ASSERT_EQ(MixedRun(60).size(), 1u);
  EXPECT_EQ(MixedRun(60)[0].severity, Severity::kWarning);
  EXPECT_EQ(MixedRun(498)[0].severity, Severity::kWarning);
  EXPECT_EQ(MixedRun(500)[0].severity, Severity::kCritical) << "a quarter of the step saved at 2x";
  EXPECT_TRUE(MixedRun(0).empty());
}

TEST(Fp32Math, GradScalerAloneMakesTheRunMixedPrecisionButCastsDoNot) {
  // Volta: FP16 Tensor Cores, no TF32. The AMP run's own GEMMs ran FP32 (outside autocast, say).
  const std::vector<Finding> scaler =
      Analyze({{kFp32SimtGemm, 500}, {kScaleUpdate, 5}, {kFill, 495}}, {kV100});
  ASSERT_EQ(scaler.size(), 1u);
  EXPECT_EQ(scaler[0].severity, Severity::kCritical);
  EXPECT_EQ(Text(scaler[0].evidence.back().value), "GradScaler kernels 1");

  // Casts with no reduced-precision math: an FP32 run that casts something (inputs, an FP16 embedding
  // table); amp.opportunity prices those GEMMs, and two findings must not price the same kernels.
  EXPECT_TRUE(Analyze({{kFp32SimtGemm, 100}, {kCastToFp16, 10}, {kFill, 890}}, {kV100}).empty());
}

TEST(Fp32Math, QuietInAnFp32Run) {
  // What AMP would give an FP32 run is amp.opportunity's to say.
  EXPECT_TRUE(Analyze({{kFp32SimtGemm, 300, 2}, {kFill, 400}}, {kA100}).empty());
  EXPECT_TRUE(Analyze({{kFp32SimtGemm, 300}}, {kV100}).empty());
}

TEST(Fp32Math, QuietWithoutTensorCores) {
  EXPECT_TRUE(Analyze({{kFp32SimtGemm, 500}, {kScaleUpdate, 5}}, {kGp100}).empty())
      << "tensor_cores.unavailable covers Pascal";
  // A mixed-precision run on a GPU the trace does not describe: Tensor Cores only if some ran.
  EXPECT_TRUE(Analyze({{kFp32SimtGemm, 500}, {kScaleUpdate, 5}}, {}).empty());
  EXPECT_EQ(Analyze({{kFp32SimtGemm, 500}, {kFp16TensorCoreGemm, 500}}, {}).size(), 1u);
}

TEST(Fp32Math, NeverCountsUnknownUnitsOrGroupedConvolutions) {
  EXPECT_TRUE(Analyze({{kFp16TensorCoreGemm, 500}, {kTritonMm, 500}}, {kH100}).empty())
      << "unit unknown";
  // Grouped/depthwise kernels on CUDA cores are conv.grouped_fallback's; here they are only
  // mentioned.
  EXPECT_TRUE(Analyze({{kFp16Convolution, 500}, {kDepthwiseFp32, 500}}, {kA100}).empty());
  const std::vector<Finding> both = Analyze(
      {{kFp16Convolution, 500}, {kDepthwiseFp32, 300}, {kFp32SimtConvolution, 200}}, {kA100});
  ASSERT_EQ(both.size(), 1u);
  EXPECT_EQ(both[0].saving.low_ns, 100) << "the 200 ns SIMT convolution at 2x";
  EXPECT_EQ(Text(both[0].evidence.back().value), "300 ns over the analysed window (see conv.grouped_fallback)");
}

// cuBLAS's GEMV kernels (what it runs for a GEMM with one column, as in batch-1 decoding) are CUDA-core
// kernels whatever the precision: it is bound by reading the matrix, so Tensor Cores would not speed it up and it is no
// missed opportunity. Counting it made an FP16 decode step look like FP32 math left out of autocast.
TEST(Fp32Math, NeverCountsMatrixVectorProducts) {
  EXPECT_TRUE(Analyze({{kFp16TensorCoreGemm, 500}, {kFp16Gemv, 500}}, {kH100}).empty());
  const std::vector<Finding> both =
      Analyze({{kFp16TensorCoreGemm, 300}, {kFp16Gemv, 500}, {kFp32SimtGemmH100, 200}}, {kH100});
  ASSERT_EQ(both.size(), 1u);
  EXPECT_EQ(both[0].saving.low_ns, 100) << "the 200 ns SIMT GEMM at 2x";
  EXPECT_EQ(EvidenceText(both[0], "CUDA-core GEMMs"), "1 kernel, 200 ns over the analysed window");
  EXPECT_EQ(EvidenceText(both[0], "matrix-vector products on CUDA cores, not counted here"),
            "500 ns over the analysed window (bound by reading the matrix: Tensor Cores would not speed them up)");
}

}  // namespace
}  // namespace ampprof::analyzers
