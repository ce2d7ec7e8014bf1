#include "analyzers/facts/steps.h"

#include <gtest/gtest.h>

#include "analyzers/findings/registry.h"

#include "src/model/model_builder.h"
#include "tests/testing/record_builder.h"

namespace ampprof::analyzers {
namespace {

using records::RangeCategory;
using testing::RecordBuilder;

constexpr const char* kGemm = "ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_nn";
constexpr const char* kUpdateScale =
    "void at::native::amp_update_scale_cuda_kernel(float*, int*, float const*, double, double, int)";

std::optional<Steps> Find(const model::TraceModel& model) {
  return AnalysisInput(model).steps();
}

TEST(FindSteps, PrefersAmpprofStepRangesToProfilerSteps) {
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  for (int i = 0; i < 4; ++i) {
    b.Range("ProfilerStep#" + std::to_string(i), i * 1000, i * 1000 + 900, RangeCategory::kUserAnnotation);
  }
  b.nvtx_domain = "ampprof";
  for (int i = 0; i < 3; ++i) b.Range("step", i * 1000 + 10, i * 1000 + 800);
  const model::TraceModel model = std::move(builder).Build();
  const std::optional<Steps> steps = Find(model);
  ASSERT_TRUE(steps.has_value());
  EXPECT_EQ(steps->source, StepSource::kAmpprofRange);
  EXPECT_TRUE(steps->host_time);
  ASSERT_EQ(steps->intervals.size(), 3u);
  EXPECT_EQ(steps->intervals[1], (base::Interval{1010, 1800}));
}

TEST(FindSteps, TakesTheShimsDefaultDomainStepRanges) {
  // Without an NVTX library the PyTorch shim names its ranges "ampprof:<name>" in the default domain.
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  for (int i = 0; i < 4; ++i) {
    b.Range("ProfilerStep#" + std::to_string(i), i * 1000, i * 1000 + 900, RangeCategory::kUserAnnotation);
  }
  for (int i = 0; i < 3; ++i) {
    b.RangeStart(static_cast<uint64_t>(i + 1), "ampprof:step", i * 1000 + 10);
    b.RangeEnd(static_cast<uint64_t>(i + 1), i * 1000 + 1010);
    b.Range("ampprof:optimizer.step", i * 1000 + 700, i * 1000 + 900);
  }
  b.Range("ampprof:stepping", 5000, 5100);  // not the shim's name: neither a step nor a prefix match
  const model::TraceModel model = std::move(builder).Build();
  const std::optional<Steps> steps = Find(model);
  ASSERT_TRUE(steps.has_value());
  EXPECT_EQ(steps->source, StepSource::kAmpprofRange);
  ASSERT_EQ(steps->intervals.size(), 3u);
  EXPECT_EQ(steps->intervals[1], (base::Interval{1010, 2010}));
}

TEST(FindSteps, TheShimsRangesAreNotUserLoops) {
  // Two "ampprof:step" ranges are too few for steps, and the shim's optimizer.step ranges that repeat
  // around every launch must not be taken for a user's training-step range either.
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  for (int i = 0; i < 4; ++i) {
    const base::TimeNs t = i * 1000;
    b.Range("ampprof:optimizer.step", t, t + 900);
    b.Launch(kGemm, {t + 20, t + 30}, {t + 40, t + 100});
  }
  const model::TraceModel model = std::move(builder).Build();
  const std::optional<Steps> steps = Find(model);
  EXPECT_FALSE(steps.has_value() && steps->source == StepSource::kUserRange);
}

TEST(FindSteps, ProfilerStepsNeedThreeDisjointRanges) {
  {
    model::ModelBuilder builder;
    RecordBuilder b(builder);
    b.Range("ProfilerStep#1", 0, 100, RangeCategory::kUserAnnotation);
    b.Range("ProfilerStep#2", 100, 200, RangeCategory::kUserAnnotation);
    const model::TraceModel model = std::move(builder).Build();
    EXPECT_FALSE(Find(model).has_value()) << "two steps are no loop";
  }
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  for (int i = 0; i < 3; ++i) b.Range("ProfilerStep#" + std::to_string(i), i * 100, i * 100 + 100, RangeCategory::kUserAnnotation);
  const model::TraceModel model = std::move(builder).Build();
  const std::optional<Steps> steps = Find(model);
  ASSERT_TRUE(steps.has_value());
  EXPECT_EQ(steps->source, StepSource::kProfilerStep);
  EXPECT_EQ(steps->intervals.size(), 3u);
}

// Three iterations of: forward range (two launches), backward range (two launches), inside "train_step".
model::TraceModel UserRangeTrace(bool with_train_step) {
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  for (int i = 0; i < 3; ++i) {
    const base::TimeNs t = i * 1000;
    if (with_train_step) b.Range("train_step", t, t + 900);
    b.Range("forward", t + 10, t + 400);
    b.Launch(kGemm, {t + 20, t + 30}, {t + 40, t + 100});
    b.Launch(kGemm, {t + 200, t + 210}, {t + 220, t + 300});
    b.Range("backward", t + 450, t + 850);
    b.Launch(kGemm, {t + 500, t + 510}, {t + 520, t + 600});
    b.Launch(kGemm, {t + 700, t + 710}, {t + 720, t + 800});
  }
  return std::move(builder).Build();
}

TEST(FindSteps, TakesTheUserRangeThatEnclosesMostLaunches) {
  const model::TraceModel model = UserRangeTrace(/*with_train_step=*/true);
  const std::optional<Steps> steps = Find(model);
  ASSERT_TRUE(steps.has_value());
  EXPECT_EQ(steps->source, StepSource::kUserRange);
  EXPECT_EQ(steps->label, "train_step");
  EXPECT_EQ(steps->intervals.size(), 3u);
}

TEST(FindSteps, PartsOfAStepAreNotSteps) {
  // forward and backward enclose half of the launches each: neither is the loop, and the four kernels
  // per iteration are too few to be a kernel-sequence loop.
  const model::TraceModel model = UserRangeTrace(/*with_train_step=*/false);
  EXPECT_FALSE(Find(model).has_value());
}

TEST(FindSteps, GradScalerUpdatesEndSteps) {
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  for (int i = 0; i < 5; ++i) {
    const base::TimeNs t = i * 1000;
    b.Kernel(kGemm, t, t + 500);
    b.Kernel(kUpdateScale, t + 600, t + 610);
  }
  const model::TraceModel model = std::move(builder).Build();
  const std::optional<Steps> steps = Find(model);
  ASSERT_TRUE(steps.has_value());
  EXPECT_EQ(steps->source, StepSource::kScalerUpdate);
  EXPECT_FALSE(steps->host_time);
  ASSERT_EQ(steps->intervals.size(), 4u) << "five updates bound four whole steps";
  EXPECT_EQ(steps->intervals[0], (base::Interval{610, 1610}));
}

TEST(FindSteps, FindsARepeatingKernelSequence) {
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  const char* body[] = {"void at::native::vectorized_elementwise_kernel<4, at::native::AUnaryFunctor>()", kGemm,
                        "volta_sgemm_128x64_nn", "void at::native::reduce_kernel<512, 1>()", "my_optimizer_kernel"};
  base::TimeNs t = 0;
  for (int step = 0; step < 6; ++step) {
    for (const char* name : body) {
      b.Kernel(name, t, t + 10);
      t += 20;
    }
  }
  const model::TraceModel model = std::move(builder).Build();
  const std::optional<Steps> steps = Find(model);
  ASSERT_TRUE(steps.has_value());
  EXPECT_EQ(steps->source, StepSource::kRepeatingKernels);
  EXPECT_EQ(steps->intervals.size(), 5u);
  EXPECT_EQ(steps->intervals[0].duration(), 100) << "one body of five kernels, 20 ns apart";
}

TEST(FindSteps, ALayersPeriodIsNotTheStep) {
  // The kernel sequence of the CUDA sample tiny_mlp in FP32 on an H100 (samples/traces/h100), one step of
  // 36 kernels: 5 x (GEMM, split-K reduce, bias + ReLU) forward, the loss and its gradient, 4 x (weight
  // GEMM, bias gradient, input GEMM, split-K reduce) and the first layer's weight GEMM and bias gradient
  // backward, one SGD launch. The backward layer's kernels recur every 4 kernels in 4 of every 5
  // periods, which passed for a loop of 5 steps per step: 5249 "steps" of 52 us where the sample's CUDA
  // events measured 0.42 ms. The sequence repeats at 36 kernels (99.9%), not at 4 (25% at a layer's 6).
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  base::TimeNs t = 0;
  auto kernel = [&](const char* name) {
    b.Kernel(name, t, t + 2000);
    t += 10000;
  };
  constexpr const char* kForwardGemm = "void cutlass::Kernel2<cutlass_80_simt_sgemm_128x128_8x4_tn_align1>()";
  constexpr const char* kSplitK = "void cublasLt::splitKreduce_kernel<32, 16, int, float, float>()";
  constexpr const char* kBiasRelu = "void ampsample::bias_activation_kernel<float>()";
  constexpr const char* kWeightGemm = "sm80_xmma_gemm_f32f32_f32f32_f32_nt_n_tilesize32x32x8_stage3_warpsize1x2x1_ffma";
  constexpr const char* kBiasGrad = "void ampsample::bias_grad_kernel<float>()";
  constexpr const char* kInputGemm = "void cutlass::Kernel2<cutlass_80_simt_sgemm_64x64_8x5_nn_align1>()";
  constexpr int kSteps = 20;
  for (int step = 0; step < kSteps; ++step) {
    for (int layer = 0; layer < 5; ++layer) {
      kernel(kForwardGemm);
      kernel(kSplitK);
      kernel(kBiasRelu);
    }
    kernel("void ampsample::mse_loss_kernel<float>()");
    kernel("void ampsample::mse_loss_backward_kernel<float>()");
    for (int layer = 0; layer < 4; ++layer) {
      kernel(kWeightGemm);
      kernel(kBiasGrad);
      kernel(kInputGemm);
      kernel(kSplitK);
    }
    kernel(kWeightGemm);
    kernel(kBiasGrad);
    kernel("void ampsample::multi_tensor_apply_kernel<ampsample::SgdFunctor>()");
  }
  const model::TraceModel model = std::move(builder).Build();
  const std::optional<Steps> steps = Find(model);
  ASSERT_TRUE(steps.has_value());
  EXPECT_EQ(steps->source, StepSource::kRepeatingKernels);
  EXPECT_EQ(steps->intervals.size(), static_cast<size_t>(kSteps - 1));
  EXPECT_EQ(steps->MedianDuration(), 36 * 10000) << "one step is 36 kernels, 10 us apart";
}

TEST(FindSteps, NoStepsWhenTheSequenceDoesNotRepeatAtTheMarkersPeriod) {
  // A kernel recurring every 5 kernels over the whole trace, but the kernels between its occurrences
  // never the same twice: no loop body repeats, so no step is guessed.
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  base::TimeNs t = 0;
  for (int i = 0; i < 40; ++i) {
    b.Kernel("marker_kernel", t, t + 10);
    t += 20;
    for (int k = 0; k < 4; ++k) {
      b.Kernel("kernel_" + std::to_string(i * 4 + k), t, t + 10);
      t += 20;
    }
  }
  const model::TraceModel model = std::move(builder).Build();
  EXPECT_FALSE(Find(model).has_value());
}

TEST(FindSteps, LayersOfOneForwardPassAreNotSteps) {
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  base::TimeNs t = 0;
  auto kernel = [&](const std::string& name) {
    b.Kernel(name, t, t + 10);
    t += 20;
  };
  for (int i = 0; i < 40; ++i) kernel("prologue_" + std::to_string(i));
  for (int layer = 0; layer < 4; ++layer) {
    for (int k = 0; k < 5; ++k) kernel("layer_kernel_" + std::to_string(k));
  }
  const model::TraceModel model = std::move(builder).Build();
  EXPECT_FALSE(Find(model).has_value()) << "the repetition covers a third of the trace";
}

TEST(FindSteps, ALoopThatUpdatesWeightsEveryPeriodMayFollowALongSearch) {
  // The CUDA sample grouped_conv in FP32 on an H100: cuDNN's algorithm search ran 18,513 kernels before
  // the loop's 110 iterations of 21 kernels, one SGD launch each (11% of the trace's kernels). Layers
  // never update weights, so an optimizer kernel in every period tells a loop from a model's layers.
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  base::TimeNs t = 0;
  auto kernel = [&](const std::string& name) {
    b.Kernel(name, t, t + 10);
    t += 20;
  };
  for (int i = 0; i < 200; ++i) kernel("search_trial_" + std::to_string(i % 50));
  for (int step = 0; step < 10; ++step) {
    kernel("void cudnn::cnn::conv2d_grouped_direct_kernel<float>()");
    kernel("void ampsample::relu_kernel<float>()");
    kernel("void ampsample::mse_loss_kernel<float>()");
    kernel("void cudnn::cnn::wgrad2d_grouped_direct_kernel<float>()");
    kernel("void ampsample::multi_tensor_apply_kernel<ampsample::SgdFunctor>()");
  }
  const model::TraceModel model = std::move(builder).Build();
  const std::optional<Steps> steps = Find(model);
  ASSERT_TRUE(steps.has_value());
  EXPECT_EQ(steps->intervals.size(), 9u);
  EXPECT_EQ(steps->MedianDuration(), 5 * 20);
}

TEST(FindWarmup, CountsLeadingOutliersUpToHalfTheSteps) {
  using I = base::Interval;
  EXPECT_EQ(FindWarmup(std::vector<I>{{0, 900}, {1000, 1100}, {1200, 1310}, {1400, 1505}}), 1u);
  EXPECT_EQ(FindWarmup(std::vector<I>{{0, 100}, {100, 200}, {200, 300}}), 0u);
  EXPECT_EQ(FindWarmup(std::vector<I>{{0, 900}, {1000, 1100}}), 0u) << "too few steps to tell";
  EXPECT_EQ(FindWarmup(std::vector<I>{{0, 900}, {1000, 1800}, {2000, 2100}, {2200, 2300}}), 2u);
  EXPECT_EQ(FindWarmup(std::vector<I>{{0, 1300}, {2000, 2800}, {3000, 3800}, {4000, 4100}}), 1u)
      << "median of the later steps is 800: only the first is slower than 1.5x that";
}

TEST(Steps, AssignsKernelsToTheStepThatLaunchedThem) {
  const model::TraceModel model = UserRangeTrace(/*with_train_step=*/true);
  const AnalysisInput input(model);
  const std::optional<Steps> steps = FindSteps(input);
  ASSERT_TRUE(steps.has_value());
  std::vector<int> step_of;
  for (uint32_t i = 0; i < model.kernels().size(); ++i) step_of.push_back(steps->StepOf(input, model::KernelRow(i)));
  EXPECT_EQ(step_of, (std::vector<int>{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2}));
}

}  // namespace
}  // namespace ampprof::analyzers
