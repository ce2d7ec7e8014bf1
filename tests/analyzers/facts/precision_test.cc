#include "analyzers/facts/precision.h"
#include "analyzers/findings/finding_support.h"

#include <gtest/gtest.h>

#include "tests/analyzers/synthetic_run.h"

namespace ampprof::analyzers {
namespace {

using namespace testing;  // NOLINT: the synthetic kernel names

TEST(Precision, AnFp32RunHasNoMixedPrecisionEvidence) {
  const SyntheticRun run = BuildRun({{kFp32SimtGemm, 300},
                                     {kTf32Convolution, 200},
                                     {kFp32SimtConvolution, 100},
                                     {kCopyToInt64, 50},
                                     {kFill, 50}},
                                    {kA100});
  const PrecisionEvidence evidence = DescribePrecision(run.input());
  EXPECT_FALSE(evidence.MixedPrecision());
  EXPECT_EQ(Text(MixedPrecisionEvidence(evidence)), "");
  EXPECT_EQ(evidence.kernel_ns, 700);
  EXPECT_EQ(evidence.gemm.fp32_cuda_core_ns, 300);
  EXPECT_EQ(evidence.convolution.tf32_ns, 200);
  EXPECT_EQ(evidence.convolution.fp32_cuda_core_ns, 100);
  EXPECT_EQ(evidence.matrix().total_ns(), 600);
  EXPECT_EQ(evidence.tensor_core_kernels, 1u);
  EXPECT_EQ(evidence.low_precision_casts, 0u) << "a cast to INT64 is not autocast's";
}

TEST(Precision, EachSignOfMixedPrecisionIsEnoughOnItsOwn) {
  const PrecisionEvidence gemm = DescribePrecision(BuildRun({{kFp16TensorCoreGemm, 100}}).input());
  EXPECT_TRUE(gemm.MixedPrecision());
  EXPECT_EQ(gemm.gemm.low_precision_tensor_core_ns, 100);
  EXPECT_EQ(Text(MixedPrecisionEvidence(gemm)), "FP16/BF16/FP8 GEMM/convolution kernels 1 (100 ns)");

  // FP16 named, unit unknown: still FP16 work.
  const PrecisionEvidence depthwise =
      DescribePrecision(BuildRun({{kXmmaDepthwiseFp16, 100, 2}}).input());
  EXPECT_TRUE(depthwise.MixedPrecision());
  EXPECT_EQ(depthwise.convolution.unknown_unit_ns, 200);
  EXPECT_EQ(depthwise.convolution.low_precision_ns, 200);

  const PrecisionEvidence grouped =
      DescribePrecision(BuildRun({{kGroupedDirectFp16, 100}}).input());
  EXPECT_TRUE(grouped.MixedPrecision());
  EXPECT_EQ(grouped.convolution.low_precision_cuda_core_ns, 100);

  const PrecisionEvidence attention =
      DescribePrecision(BuildRun({{kFlashAttentionBf16, 100}}).input());
  EXPECT_TRUE(attention.MixedPrecision());
  EXPECT_EQ(Text(MixedPrecisionEvidence(attention)), "FP16/BF16 attention 100 ns");

  const PrecisionEvidence scaler =
      DescribePrecision(BuildRun({{kFp32SimtGemm, 100}, {kScaleUpdate, 2, 3}}).input());
  EXPECT_TRUE(scaler.MixedPrecision());
  EXPECT_EQ(Text(MixedPrecisionEvidence(scaler)), "GradScaler kernels 3");

  const PrecisionEvidence casts = DescribePrecision(
      BuildRun({{kFp32SimtGemm, 100}, {kCastToBf16, 5, 1'200}, {kCastBf16ToFp32, 5}}).input());
  EXPECT_TRUE(casts.MixedPrecision());
  EXPECT_EQ(Text(MixedPrecisionEvidence(casts)), "FP32<->FP16/BF16/FP8 casts 1,201");
}

TEST(Precision, ReasonsAreListedTogether) {
  const SyntheticRun run =
      BuildRun({{kFp16TensorCoreGemm, 1'000, 2'400}, {kScaleUpdate, 2, 40}, {kCastToFp16, 5, 7}});
  EXPECT_EQ(Text(MixedPrecisionEvidence(DescribePrecision(run.input()))),
            "FP16/BF16/FP8 GEMM/convolution kernels 2,400 (2.40 ms); GradScaler kernels 40; "
            "FP32<->FP16/BF16/FP8 casts 7");
}

TEST(Precision, SplitsByDevice) {
  const SyntheticRun run = BuildRun({{kFp16TensorCoreGemm, 100, 1, 0}, {kFp32SimtGemm, 300, 1, 1}});
  ASSERT_EQ(run.model.devices().size(), 2u);
  const PrecisionEvidence first = DescribePrecision(run.input(), run.model.devices()[0]);
  const PrecisionEvidence second = DescribePrecision(run.input(), run.model.devices()[1]);
  EXPECT_EQ(first.kernel_ns, 100);
  EXPECT_TRUE(first.MixedPrecision());
  EXPECT_EQ(second.kernel_ns, 300);
  EXPECT_FALSE(second.MixedPrecision());
  EXPECT_EQ(DescribePrecision(run.input()).kernel_ns, 400);
}

TEST(Precision, TensorCoresFromComputeCapabilityElseFromKernels) {
  const auto support = [](std::initializer_list<Launches> launches,
                          std::initializer_list<Gpu> gpus) {
    const SyntheticRun run = BuildRun(launches, gpus);
    const model::Device& device = run.model.devices().front();
    return TensorCoresOf(device, DescribePrecision(run.input(), device));
  };
  EXPECT_EQ(support({{kFp32SimtGemm, 100}}, {kGp100}), TensorCoreSupport::kNo);
  EXPECT_EQ(support({{kFp32SimtGemm, 100}}, {kV100}), TensorCoreSupport::kYes);
  EXPECT_EQ(support({{kFp32SimtGemm, 100}}, {}), TensorCoreSupport::kUnknown);
  EXPECT_EQ(support({{kFp32SimtGemm, 100}, {kTf32GemmAlign4, 100}}, {}), TensorCoreSupport::kYes);
}

}  // namespace
}  // namespace ampprof::analyzers
