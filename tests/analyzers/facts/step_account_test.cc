// The step account: every nanosecond of each measured step in exactly one bucket, on synthetic timelines
// whose answer is known, and the sums on every shared fixture.

#include "analyzers/facts/step_account.h"

#include <memory>

#include <gtest/gtest.h>

#include "analyzers/facts/analysis_input.h"
#include "analyzers/facts/autotuning.h"
#include "analyzers/findings/sync_stall_analyzer.h"
#include "analyzers/findings/warmup_analyzer.h"
#include "src/model/model_builder.h"
#include "tests/analyzers/synthetic_run.h"
#include "tests/testing/record_builder.h"

namespace ampprof::analyzers {
namespace {

using ampprof::testing::RecordBuilder;
using records::RangeCategory;

constexpr const char* kGemm = "ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_nn";
constexpr const char* kElementwise =
    "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, at::detail::Array<char*, 1> >"
    "(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)";
constexpr const char* kAllReduce = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
// cuDNN algorithms of one FP32 convolution, as cudnnFind tries them (names from the shared fixtures and
// kernel_classifier_test.cc).
constexpr const char* kTrials[] = {
    "implicit_convolve_sgemm<float, float, 1024, 6, 7, 3, 3, 5, 1, false, true, true>",
    "volta_scudnn_128x128_stridedB_splitK_small_nn_v1",
    "cudnn::cnn::wgrad_alg0_engine<float, 128, 6, 7, 3, 3, 5, false, 512>",
    "volta_scudnn_winograd_128x128_ldg1_ldg4_relu_tile148t_nt_v1",
};

struct Built {
  model::TraceModel model;
  std::unique_ptr<AnalysisInput> input;
  const StepAccount& account() const { return input->account(); }
};

Built Build(model::ModelBuilder&& builder) {
  Built built{std::move(builder).Build(), nullptr};
  built.input = std::make_unique<AnalysisInput>(built.model);
  return built;
}

// The invariant: the buckets of every period add up to the period, and the totals to the window.
void ExpectTheBucketsTile(const StepAccount& account) {
  for (const DeviceAccount& gpu : account.devices) {
    ASSERT_EQ(gpu.per_step.size(), gpu.periods.size());
    AccountTotals sum;
    for (size_t i = 0; i < gpu.periods.size(); ++i) {
      EXPECT_EQ(gpu.per_step[i].total_ns(), gpu.periods[i].duration()) << "period " << i;
      if (i > 0) {
        EXPECT_EQ(gpu.periods[i].start, gpu.periods[i - 1].end) << "periods tile the window";
      }
      sum += gpu.per_step[i];
    }
    EXPECT_EQ(gpu.total.total_ns(), gpu.window_ns());
    EXPECT_EQ(sum.total_ns(), gpu.window_ns());
    base::DurationNs compute = 0;
    for (const ComputeTime& bucket : gpu.compute) compute += bucket.charged_ns;
    EXPECT_EQ(compute, gpu.total.compute_ns) << "the compute buckets add up to compute";
    base::DurationNs exposed = 0;
    for (const CollectiveTime& collective : gpu.communication) exposed += collective.exposed_ns;
    EXPECT_EQ(exposed, gpu.total.exposed_communication_ns);
  }
}

TEST(StepAccount, ChargesEachInstantToOneBucket) {
  // One GPU, three streams, no steps (the window is the span, 0 to 1,000):
  //   stream 7   GEMM [0, 300)          elementwise [250, 400)
  //   stream 13  all-reduce [350, 600)
  //   copy       [650, 700)   then idle until the GEMM at [900, 1000)
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  b.Kernel(kGemm, 0, 300);
  b.Kernel(kElementwise, 250, 400);
  b.stream = 13;
  b.Kernel(kAllReduce, 350, 600);
  b.Memcpy(records::MemcpyKind::kHostToDevice, 1 << 20, 650, 700);
  b.stream = 7;
  b.Kernel(kGemm, 900, 1'000);
  const Built built = Build(std::move(builder));
  ASSERT_EQ(built.account().basis, AccountBasis::kWholeRun);
  ASSERT_EQ(built.account().devices.size(), 1u);
  const DeviceAccount& gpu = built.account().devices[0];
  EXPECT_EQ(gpu.window(), (base::Interval{0, 1'000}));
  // Compute: GEMM [0, 300) (it started first, so [250, 300) is its), elementwise [300, 400), GEMM [900, 1000).
  EXPECT_EQ(gpu.total.compute_ns, 500);
  EXPECT_EQ(gpu.total.overlapped_communication_ns, 50) << "[350, 400) under the elementwise kernel";
  EXPECT_EQ(gpu.total.exposed_communication_ns, 200) << "[400, 600)";
  EXPECT_EQ(gpu.total.copy_ns, 50);
  EXPECT_EQ(gpu.total.idle_ns(), 250) << "[600, 650) and [700, 900)";
  EXPECT_EQ(gpu.total.idle[GapCause::kUnattributed], 250) << "no launch calls recorded";
  ASSERT_FALSE(gpu.compute.empty());
  EXPECT_EQ(gpu.compute[0].key.category, KernelCategory::kGemm);
  EXPECT_EQ(gpu.compute[0].charged_ns, 400);
  EXPECT_EQ(gpu.compute[0].kernel_ns, 400);
  ASSERT_EQ(gpu.communication.size(), 1u);
  EXPECT_EQ(gpu.communication[0].collective, "AllReduce");
  // The exposed stretch, kept for comm.exposed to point at: one, with the all-reduce that ran in it.
  EXPECT_EQ(gpu.exposed_stretches, 1u);
  ASSERT_EQ(gpu.longest_exposed.size(), 1u);
  EXPECT_EQ(gpu.longest_exposed[0].interval, (base::Interval{400, 600}));
  EXPECT_EQ(built.model.KernelName(gpu.longest_exposed[0].kernel), kAllReduce);
  EXPECT_TRUE(gpu.longest_launch_waits.empty()) << "no launch calls: no launch waits";
  ExpectTheBucketsTile(built.account());
}

// A loop that waits for the GPU at the end of every step: each step loads a batch on the host for
// `loading_ns` (the GPU idles), then launches four 1 ms kernels.
void WaitingLoop(RecordBuilder& b, int steps, base::DurationNs loading_ns, base::TimeNs t = 0) {
  for (int step = 0; step < steps; ++step) {
    const base::TimeNs start = t;
    t += loading_ns;
    base::TimeNs gpu = t + 5'000;
    for (int i = 0; i < 4; ++i) {
      b.Launch(kGemm, {t, t + 5'000}, {gpu, gpu + 1'000'000});
      t += 6'000;
      gpu += 1'000'000;
    }
    t = gpu + 1'000;  // synchronised
    b.Range("ProfilerStep#" + std::to_string(step), start, t, RangeCategory::kUserAnnotation);
  }
}

TEST(StepAccount, AStepOfALoopThatWaitsStartsWhereItsRangeStarts) {
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  WaitingLoop(b, 6, 2'000'000);
  const Built built = Build(std::move(builder));
  ASSERT_EQ(built.account().basis, AccountBasis::kMeasuredSteps);
  const DeviceAccount& gpu = built.account().devices.at(0);
  ASSERT_EQ(gpu.steps(), 6u);
  // Every step: 2 ms loading + 5 us launch + 4 ms of kernels + 1 us: the range and the period are one.
  for (const base::Interval& period : gpu.periods) EXPECT_EQ(period.duration(), 6'006'000);
  EXPECT_EQ(gpu.MedianStepNs(), 6'006'000);
  EXPECT_EQ(gpu.total.compute_ns, 6 * 4'000'000);
  // The loading and the launch before the first kernel: host busy (over 1 ms), every step: 2.005 ms in
  // the first, 2.006 ms in the others (the 1 us after the step before).
  EXPECT_EQ(gpu.total.idle[GapCause::kHostOther], 2'005'000 + 5 * 2'006'000);
  EXPECT_EQ(gpu.gaps[GapCause::kHostOther], 6u);
  ExpectTheBucketsTile(built.account());
}

TEST(StepAccount, AStepOfAHostThatQueuesAheadIsTimedOnTheGpu) {
  // The host launches each step's four 1 ms kernels in 24 us and never waits: its ranges take 24 us, the
  // GPU's steps 4 ms.
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  base::TimeNs host = 0;
  base::TimeNs gpu = 10'000;
  for (int step = 0; step < 8; ++step) {
    const base::TimeNs start = host;
    for (int i = 0; i < 4; ++i) {
      b.Launch(kGemm, {host, host + 5'000}, {gpu, gpu + 1'000'000});
      host += 6'000;
      gpu += 1'000'000;
    }
    b.Range("ProfilerStep#" + std::to_string(step), start, host, RangeCategory::kUserAnnotation);
  }
  const Built built = Build(std::move(builder));
  const DeviceAccount& gpu_account = built.account().devices.at(0);
  EXPECT_EQ(gpu_account.MedianStepNs(), 4'000'000);
  EXPECT_EQ(gpu_account.total.idle_ns(), 10'000) << "only the 10 us before the first kernel";
  ExpectTheBucketsTile(built.account());
}

TEST(StepAccount, WarmupStepsAreLeftOutAndKeptForTheWarmupFinding) {
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  WaitingLoop(b, 1, 80'000'000);  // a first step with 80 ms of host work: lazy initialisation
  WaitingLoop(b, 7, 2'000'000, 84'006'000);
  const Built built = Build(std::move(builder));
  ASSERT_TRUE(built.input->steps().has_value());
  EXPECT_EQ(built.input->steps()->warmup, 1u);
  const DeviceAccount& gpu = built.account().devices.at(0);
  EXPECT_EQ(gpu.steps(), 7u);
  ASSERT_EQ(gpu.warmup_periods.size(), 1u);
  EXPECT_EQ(gpu.warmup_periods[0].duration(), 84'006'000);
  const std::vector<Finding> warmup = AnalyzeWarmup(*built.input);
  ASSERT_EQ(warmup.size(), 1u);
  EXPECT_EQ(testing::Text(warmup[0].verdict),
            "The first 1 of 8 steps are warm-up (84.0 ms vs a steady 6.01 ms): a timing over the whole window says "
            "15.8 ms per step, 162.3% more than the steady state");
  ExpectTheBucketsTile(built.account());
}

// cudnn.benchmark: the first forward of a convolution tries each algorithm once and synchronises after
// each; then `steady` steps run the chosen algorithm without syncs.
void AutotunedConvolution(RecordBuilder& b, int steady) {
  base::TimeNs t = 0;
  for (const char* trial : kTrials) {
    b.Launch(trial, {t, t + 5'000}, {t + 10'000, t + 210'000});
    b.ApiCall("cudaEventSynchronize", t + 6'000, t + 211'000, b.NextCorrelation());
    t += 400'000;  // cuDNN's own host work between trials: 189 us with the GPU idle
  }
  for (int i = 0; i < steady; ++i) {
    for (int k = 0; k < 5; ++k) {
      b.Launch(kTrials[0], {t, t + 5'000}, {t + 6'000, t + 206'000});
      b.Launch(kElementwise, {t + 6'000, t + 11'000}, {t + 206'000, t + 250'000});
      t += 250'000;
    }
  }
}

TEST(StepAccount, CudnnAutotuningIsWarmupNeverASyncStall) {
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  AutotunedConvolution(b, 0);  // the trace holds nothing else
  const Built built = Build(std::move(builder));
  EXPECT_EQ(built.account().basis, AccountBasis::kAllWarmup);
  EXPECT_TRUE(AnalyzeSyncStall(*built.input).empty());
  const std::vector<Finding> warmup = AnalyzeWarmup(*built.input);
  ASSERT_EQ(warmup.size(), 1u);
  EXPECT_EQ(testing::Text(warmup[0].verdict).substr(0, 34), "The trace holds only warm-up: cuDN");
}

TEST(StepAccount, AutotuningAtTheStartIsLeftOutOfTheWindow) {
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  AutotunedConvolution(b, 40);
  const Built built = Build(std::move(builder));
  ASSERT_EQ(built.account().basis, AccountBasis::kWholeRun);
  const DeviceAccount& gpu = built.account().devices.at(0);
  ASSERT_EQ(gpu.autotuning.size(), 1u);
  EXPECT_EQ(gpu.autotuning[0], (base::Interval{10'000, 1'410'000}));
  EXPECT_GE(gpu.window().start, gpu.autotuning[0].end);
  EXPECT_EQ(gpu.total.idle[GapCause::kHostSync], 0);
  EXPECT_TRUE(AnalyzeSyncStall(*built.input).empty());
  const std::vector<Finding> warmup = AnalyzeWarmup(*built.input);
  ASSERT_EQ(warmup.size(), 1u);
  EXPECT_EQ(warmup[0].severity, Severity::kInfo);
  ExpectTheBucketsTile(built.account());
}

TEST(StepAccount, ALoopThatSynchronisesEveryLayerIsNotAutotuning) {
  // The same convolution, synchronised after every launch, every step: its kernels recur.
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  base::TimeNs t = 0;
  for (int step = 0; step < 20; ++step) {
    for (const char* layer : kTrials) {
      b.Launch(layer, {t, t + 5'000}, {t + 10'000, t + 210'000});
      b.ApiCall("cudaDeviceSynchronize", t + 6'000, t + 211'000, b.NextCorrelation());
      t += 250'000;
    }
  }
  const Built built = Build(std::move(builder));
  EXPECT_TRUE(FindAutotuning(*built.input, model::DeviceRow(0)).empty());
  EXPECT_GT(built.account().devices.at(0).total.idle[GapCause::kHostSync], 0);
}

}  // namespace
}  // namespace ampprof::analyzers
