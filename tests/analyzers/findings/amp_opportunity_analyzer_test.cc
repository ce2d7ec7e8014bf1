#include "analyzers/findings/amp_opportunity_analyzer.h"

#include <string>

#include <gtest/gtest.h>

#include "analyzers/facts/throughput.h"
#include "src/model/model_builder.h"
#include "tests/analyzers/synthetic_run.h"
#include "tests/testing/record_builder.h"

namespace ampprof::analyzers {
namespace {

using namespace testing;  // NOLINT: the synthetic kernel names

std::vector<Finding> Analyze(std::initializer_list<Launches> launches, std::initializer_list<Gpu> gpus) {
  return AnalyzeAmpOpportunity(BuildRun(launches, gpus).input());
}

TEST(AmpOpportunity, PricesFp32GemmsOnAnAmpereGpu) {
  // 600 ns of FP32 SIMT GEMMs in 1,000: on an A100's FP16 Tensor Cores 2x (realistic) to 16x (312 / 19.5
  // TFLOPS) faster.
  const std::vector<Finding> findings = Analyze({{kFp32SimtGemm, 300, 2}, {kFill, 400}}, {kA100});
  ASSERT_EQ(findings.size(), 1u);
  const Finding& finding = findings[0];
  EXPECT_EQ(finding.id, "amp.opportunity");
  EXPECT_EQ(finding.severity, Severity::kCritical) << "the realistic end alone is 30% of the step";
  EXPECT_EQ(finding.saving.low_ns, 300);
  EXPECT_EQ(finding.saving.ns, 563);
  EXPECT_EQ(Text(finding.verdict),
            "An FP32 run: 60.0% of GPU 0's time is FP32/TF32 GEMMs and convolutions that autocast would move to "
            "FP16/BF16 Tensor Cores, saving about 30.0% to 56.3% of the step");
  EXPECT_EQ(EvidenceText(finding, "FP32 on CUDA cores"),
            "600 ns over the analysed window in 2 GEMM/convolution kernels (60.0%)");
  EXPECT_EQ(EvidenceText(finding, "speed-up of those kernels"),
            "from FP32 CUDA cores 2.00x (realistic) to 16.00x (peak); dense peaks of the A100 SXM4 "
            "(docs/throughput.md)");
  // Ampere: BF16 without a scaler, and TF32 as the one-line first step.
  EXPECT_NE(finding.fix_code.find("torch.bfloat16"), std::string::npos);
  EXPECT_NE(finding.fix_code.find("allow_tf32 = True"), std::string::npos);
  EXPECT_EQ(finding.fix_code.find("GradScaler"), std::string::npos);
}

TEST(AmpOpportunity, LocatesTheKernelsThatWouldMove) {
  // Laid end to end from 0: two FP32 GEMMs [0, 300) and [300, 600), then the fill.
  const SyntheticRun run = BuildRun({{kFp32SimtGemm, 300, 2}, {kFill, 400}}, {kA100});
  const std::vector<Finding> findings = AnalyzeAmpOpportunity(run.input());
  ASSERT_EQ(findings.size(), 1u);
  const std::vector<Location>& locations = findings[0].locations;
  ASSERT_EQ(locations.size(), 2u);
  EXPECT_EQ(locations[0].interval, (base::Interval{0, 300}));
  EXPECT_EQ(locations[1].interval, (base::Interval{300, 600}));
  EXPECT_EQ(locations[0].kind, LocationKind::kKernel);
  EXPECT_EQ(locations[0].label, std::string(kFp32SimtGemm));
  EXPECT_EQ(locations[0].stream_id, 7);
  EXPECT_EQ(findings[0].locations_left_out, 0u);
}

TEST(AmpOpportunity, LocatesAKernelThatRunsPastTheWindowOnlyInsideIt) {
  // Five ProfilerStep ranges 400 us apart, each launching an FP32 GEMM (100 us) and a fill; the last
  // step's fill runs until 2,000 us, after its range ended at 1,900 us, which ends the window. At
  // 1,910 us the host launches one more FP32 GEMM, on stream 13, outside any step: it starts at
  // 1,920 us, inside the window, and runs 1 ms past its end.
  model::ModelBuilder builder;
  ampprof::testing::RecordBuilder b(builder);
  b.Device(kA100.device_id, kA100.name, kA100.major, kA100.minor);
  for (int step = 0; step < 5; ++step) {
    const base::TimeNs t = step * 400'000;
    b.Range("ProfilerStep#" + std::to_string(step), t, t + 300'000, records::RangeCategory::kUserAnnotation);
    b.Launch(kFp32SimtGemm, {t + 1'000, t + 6'000}, {t + 10'000, t + 110'000});
    b.Launch(kFill, {t + 7'000, t + 12'000}, {t + 110'000, t + (step == 4 ? 400'000 : 210'000)});
  }
  b.stream = 13;
  b.Launch(kFp32SimtGemm, {1'910'000, 1'915'000}, {1'920'000, 2'920'000});
  const SyntheticRun run{std::move(builder).Build(), nullptr};
  ASSERT_EQ(run.input().account().Primary()->window(), (base::Interval{0, 2'000'000}));
  const std::vector<Finding> findings = AnalyzeAmpOpportunity(run.input());
  ASSERT_EQ(findings.size(), 1u);
  const std::vector<Location>& locations = findings[0].locations;
  ASSERT_EQ(locations.size(), 6u) << "the five GEMMs of the steps and the one after them";
  // 80 us of it lie inside the window: ranked after the steps' 100 us GEMMs, and drawn only there.
  EXPECT_EQ(locations.back().stream_id, 13);
  EXPECT_EQ(locations.back().interval, (base::Interval{1'920'000, 2'000'000}));
  for (const Location& location : locations) {
    EXPECT_GE(location.interval.start, 0);
    EXPECT_LE(location.interval.end, 2'000'000);
  }
}

TEST(AmpOpportunity, AVoltaRunGetsFp16WithAGradScaler) {
  const std::vector<Finding> findings = Analyze({{kFp32SimtConvolution, 500}, {kFill, 500}}, {kV100});
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kCritical);
  EXPECT_NE(findings[0].fix_code.find("torch.float16"), std::string::npos);
  EXPECT_NE(findings[0].fix_code.find("GradScaler"), std::string::npos);
  EXPECT_EQ(findings[0].fix_code.find("allow_tf32"), std::string::npos) << "Volta has no TF32";
}

TEST(AmpOpportunity, Tf32KernelsGainTheTf32Ratio) {
  // TF32 to FP16 on an A100: 2x at the peak, 1.5x realistic.
  const std::vector<Finding> findings = Analyze({{kTf32Convolution, 600}, {kFill, 400}}, {kA100});
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].saving.low_ns, 200);
  EXPECT_EQ(findings[0].saving.ns, 300);
  EXPECT_EQ(EvidenceText(findings[0], "TF32 on Tensor Cores"),
            "600 ns over the analysed window in 1 GEMM/convolution kernel (60.0%)");
}

TEST(AmpOpportunity, QuietWhenTheRunIsAlreadyMixedPrecisionOrTheGainIsSmall) {
  EXPECT_TRUE(Analyze({{kFp16TensorCoreGemm, 500}, {kFp32SimtGemm, 500}}, {kH100}).empty())
      << "a mixed-precision run: tensor_cores.fp32_math's";
  EXPECT_TRUE(Analyze({{kFp32SimtGemm, 500}, {kScaleUpdate, 5}, {kFill, 495}}, {kV100}).empty())
      << "GradScaler ran: AMP was tried";
  EXPECT_TRUE(Analyze({{kFp32SimtGemm, 98}, {kFill, 902}}, {kA100}).empty()) << "under 5% of the step at 2x";
  EXPECT_EQ(Analyze({{kFp32SimtGemm, 300}, {kCastToFp16, 10}, {kFill, 690}}, {kV100}).size(), 1u)
      << "casts alone do not make a run mixed precision: its GEMMs are still this finding's";
  EXPECT_EQ(Analyze({{kFp32SimtGemm, 100}, {kFill, 900}}, {kA100}).size(), 1u);
  // An FP32 matrix-vector product is bound by reading the matrix: FP16 Tensor Cores are not its speed-up.
  EXPECT_TRUE(Analyze({{kFp32Gemv, 900}, {kFill, 100}}, {kA100}).empty());
  const std::vector<Finding> gemm_and_gemv =
      Analyze({{kFp32SimtGemm, 300}, {kFp32Gemv, 600}, {kFill, 100}}, {kA100});
  ASSERT_EQ(gemm_and_gemv.size(), 1u);
  EXPECT_EQ(gemm_and_gemv[0].saving.low_ns, 150) << "the 300 ns GEMM at 2x, not the GEMV";
  EXPECT_EQ(EvidenceText(gemm_and_gemv[0], "matrix-vector products on CUDA cores, not counted here"),
            "600 ns over the analysed window (bound by reading the matrix: Tensor Cores would not speed them up)");
}

TEST(AmpOpportunity, QuietWithoutTensorCoresOrAnArchitecture) {
  EXPECT_TRUE(Analyze({{kFp32SimtGemm, 900}, {kFill, 100}}, {kGp100}).empty()) << "tensor_cores.unavailable's";
  EXPECT_TRUE(Analyze({{kFp32SimtGemm, 900}, {kFill, 100}}, {}).empty()) << "the GPU is not described";
}

TEST(Throughput, RatiosComeFromTheTable) {
  const std::optional<SpeedupRange> h100 = ExpectedSpeedup(9, 0, MatrixPath::kFp32CudaCores);
  ASSERT_TRUE(h100.has_value());
  EXPECT_NEAR(h100->peak, 989.5 / 67.0, 1e-9);
  EXPECT_EQ(h100->realistic, 2.0);
  EXPECT_FALSE(ExpectedSpeedup(7, 0, MatrixPath::kTf32TensorCores).has_value()) << "no TF32 on Volta";
  EXPECT_FALSE(ExpectedSpeedup(6, 1, MatrixPath::kFp32CudaCores).has_value()) << "no Tensor Cores on Pascal";
  // A GeForce part runs FP16 with FP32 accumulation at half the data-centre rate.
  EXPECT_TRUE(IsConsumerPart("NVIDIA GeForce RTX 2080 Ti"));
  EXPECT_FALSE(IsConsumerPart("Tesla T4"));
  const std::optional<SpeedupRange> geforce = ExpectedSpeedup(7, 5, MatrixPath::kFp32CudaCores, /*consumer=*/true);
  ASSERT_TRUE(geforce.has_value());
  EXPECT_NEAR(geforce->peak, 32.5 / 8.1, 1e-9);
  // A GPU the table lacks gets its lowest ratios: never a promise bigger than the table's smallest.
  const std::optional<SpeedupRange> unknown = ExpectedSpeedup(12, 0, MatrixPath::kFp32CudaCores);
  ASSERT_TRUE(unknown.has_value());
  EXPECT_FALSE(unknown->known_part);
  EXPECT_NEAR(unknown->peak, 121.0 / 30.3, 1e-9) << "L4";
}

}  // namespace
}  // namespace ampprof::analyzers
