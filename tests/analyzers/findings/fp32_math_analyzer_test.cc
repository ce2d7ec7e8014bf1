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
  EXPECT_EQ(finding.verdict,
            "GEMMs and convolutions on CUDA cores take 10.0% of GPU 0 kernel time (100 ns) in a "
            "mixed-precision run");
  ASSERT_EQ(finding.evidence.size(), 4u);
  EXPECT_EQ(finding.evidence[0].label, "CUDA-core GEMMs");
  EXPECT_EQ(finding.evidence[0].value, "2, 80 ns (8.0% of kernel time)");
  EXPECT_EQ(finding.evidence[1].value, "1, 20 ns (2.0% of kernel time)");
  EXPECT_EQ(finding.evidence[2].value, "Tensor Cores FP16/BF16/FP8 700 ns, CUDA cores FP32 100 ns");
  EXPECT_EQ(finding.evidence[3].value, "FP16/BF16/FP8 GEMM/convolution kernels 1 (700 ns)");
  ASSERT_EQ(finding.examples.size(), 2u);
  EXPECT_EQ(finding.examples[0], kFp32SimtGemmH100) << "most time first";
  EXPECT_EQ(finding.time_ns, 100);
}

TEST(Fp32Math, SeverityBoundariesInAMixedPrecisionRun) {
  EXPECT_TRUE(MixedRun(29).empty()) << "under 3% of kernel time";
  ASSERT_EQ(MixedRun(30).size(), 1u);
  EXPECT_EQ(MixedRun(30)[0].severity, Severity::kWarning);
  EXPECT_EQ(MixedRun(249)[0].severity, Severity::kWarning);
  EXPECT_EQ(MixedRun(250)[0].severity, Severity::kCritical) << "a quarter of kernel time";
  EXPECT_TRUE(MixedRun(0).empty());
}

TEST(Fp32Math, GradScalerOrCastsAloneMakeTheRunMixedPrecision) {
  // Volta: FP16 Tensor Cores, no TF32. The AMP run's own GEMMs ran FP32 (outside autocast, say).
  const std::vector<Finding> scaler =
      Analyze({{kFp32SimtGemm, 500}, {kScaleUpdate, 5}, {kFill, 495}}, {kV100});
  ASSERT_EQ(scaler.size(), 1u);
  EXPECT_EQ(scaler[0].severity, Severity::kCritical);
  EXPECT_EQ(scaler[0].evidence.back().value, "GradScaler kernels 1");

  const std::vector<Finding> casts =
      Analyze({{kFp32SimtGemm, 100}, {kCastToFp16, 10}, {kFill, 890}}, {kV100});
  ASSERT_EQ(casts.size(), 1u);
  EXPECT_EQ(casts[0].severity, Severity::kWarning);
}

TEST(Fp32Math, Tf32OpportunityInAnFp32RunOnAmpere) {
  const std::vector<Finding> findings = Analyze({{kFp32SimtGemm, 300, 2}, {kFill, 400}}, {kA100});
  ASSERT_EQ(findings.size(), 1u);
  const Finding& finding = findings[0];
  EXPECT_EQ(finding.severity, Severity::kInfo);
  EXPECT_EQ(finding.verdict,
            "FP32 GEMMs on CUDA cores take 60.0% of GPU 0 kernel time (600 ns) in an FP32 run: "
            "TF32 would run them "
            "on Tensor Cores");
  ASSERT_EQ(finding.evidence.size(), 5u);
  EXPECT_EQ(finding.evidence[0].label, "FP32 CUDA-core GEMMs");
  EXPECT_EQ(finding.evidence[3].value, "NVIDIA A100-PG509-200 (sm_80): TF32 Tensor Cores");
  EXPECT_EQ(finding.evidence[4].value,
            "torch.set_float32_matmul_precision(\"high\") or torch.backends.cuda.matmul.allow_tf32 "
            "= True");
}

TEST(Fp32Math, Tf32OnlyForTheKindOfKernelThatRunsNoTf32) {
  // Convolutions already run TF32 (cuDNN's default), GEMMs do not: the GEMMs count, the SIMT
  // convolution not.
  const std::vector<Finding> gemms = Analyze(
      {{kFp32SimtGemm, 300}, {kTf32Convolution, 300}, {kFp32SimtConvolution, 400}}, {kA100});
  ASSERT_EQ(gemms.size(), 1u);
  EXPECT_EQ(gemms[0].time_ns, 300);
  EXPECT_EQ(gemms[0].examples, std::vector<std::string>{std::string(kFp32SimtGemm)});

  // TF32 GEMMs ran: matmul TF32 is on, and the SIMT GEMMs left are cuBLAS's choice for their
  // shapes.
  EXPECT_TRUE(Analyze({{kFp32SimtGemm, 300}, {kTf32GemmAlign4, 700}}, {kA100}).empty());
}

TEST(Fp32Math, QuietWhereTf32DoesNotExistOrTheGpuIsUnknown) {
  EXPECT_TRUE(Analyze({{kFp32SimtGemm, 300}}, {kV100}).empty()) << "Volta has no TF32";
  EXPECT_TRUE(Analyze({{kFp32SimtGemm, 300}}, {}).empty()) << "no device properties";
  EXPECT_TRUE(Analyze({{kFp32SimtGemm, 29}, {kFill, 971}}, {kA100}).empty())
      << "a few small sgemm kernels";
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
  EXPECT_EQ(both[0].time_ns, 200);
  EXPECT_EQ(both[0].evidence.back().value, "300 ns (see conv.grouped_fallback)");
}

}  // namespace
}  // namespace ampprof::analyzers
