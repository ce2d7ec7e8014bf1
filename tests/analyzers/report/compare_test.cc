// FP32 vs mixed precision on synthetic pairs of training loops: AMP faster, AMP slower because the host
// cannot launch its extra kernels fast enough, GEMMs moved to Tensor Cores but paid for in casts, and the
// sanity checks (a trace against itself, an FP32 "AMP" run, different GPUs, no steps). Kernel names are
// real ones (kernel_classifier_test.cc and the shared fixtures).

#include "analyzers/report/compare.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "src/model/model_builder.h"
#include "tests/analyzers/synthetic_run.h"
#include "tests/testing/record_builder.h"

namespace ampprof::analyzers {
namespace {

using base::DurationNs;
using ampprof::testing::RecordBuilder;

using analyzers::testing::kForeachAdd;
using analyzers::testing::kScaleUpdate;
using analyzers::testing::kUnscale;

constexpr std::string_view kSgemm = analyzers::testing::kFp32SimtGemm;  // FP32 on CUDA cores
constexpr std::string_view kHgemm = "ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_nn";
constexpr std::string_view kCastToHalf = analyzers::testing::kCastToFp16;
constexpr std::string_view kReluFloat =
    "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::launch_clamp_scalar("
    "at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail::ClampLimits)::{lambda()#1}::operator()() "
    "const::{lambda()#7}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, "
    "at::native::(anonymous namespace)::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, "
    "at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() "
    "const::{lambda(float)#1}, at::detail::Array<char*, 2>)";
constexpr std::string_view kOptimizer = kForeachAdd;
constexpr std::string_view kUpdateScale = kScaleUpdate;

constexpr const char* kH100 = "NVIDIA H100 80GB HBM3";

struct Loop {
  int steps = 10;
  bool step_ranges = true;  // ProfilerStep#N around each step
  bool sync_per_step = true;  // loss.item() at the end of each step: the host waits for the GPU
  bool amp = false;         // casts before the GEMMs, GradScaler's unscale, found_inf.item() and update
  int layers = 8;
  DurationNs gemm_ns = 200'000;
  DurationNs cast_ns = 3'000;
  DurationNs elementwise_ns = 5'000;
  DurationNs host_per_launch_ns = 10'000;  // Python + dispatcher + the launch call, per kernel
  std::string device = kH100;
};

// One host thread launching into one stream (the queue model of amp_scenarios_test.cc): a kernel starts
// 3 us after its launch call or when the GPU is free, whichever is later.
class LoopBuilder {
 public:
  explicit LoopBuilder(RecordBuilder& b) : b_(b) {}

  void Launch(std::string_view name, DurationNs gpu_ns) {
    const base::TimeNs start = std::max(host_ + 3'000, gpu_free_);
    b_.Launch(name, {host_, host_ + 5'000}, {start, start + gpu_ns});
    gpu_free_ = start + gpu_ns;
    host_ += loop_.host_per_launch_ns;
  }
  void ReadFoundInf() {
    const uint32_t correlation = b_.NextCorrelation();
    b_.ApiCall("cudaMemcpyAsync", host_, host_ + 4'000, correlation);
    const base::TimeNs copy_start = std::max(host_ + 2'000, gpu_free_);
    b_.Memcpy(records::MemcpyKind::kDeviceToHost, 4, copy_start, copy_start + 2'000, correlation);
    gpu_free_ = copy_start + 2'000;
    const base::TimeNs sync_start = host_ + 5'000;
    const base::TimeNs sync_end = std::max(sync_start, gpu_free_) + 3'000;
    b_.ApiCall("cudaStreamSynchronize", sync_start, sync_end, b_.NextCorrelation());
    host_ = sync_end + 30'000;
  }
  void Build(const Loop& loop) {
    loop_ = loop;
    b_.Device(0, loop.device, 9, 0);
    for (int step = 0; step < loop.steps; ++step) {
      const base::TimeNs start = host_;
      for (int layer = 0; layer < loop.layers; ++layer) {
        if (loop.amp) Launch(kCastToHalf, loop.cast_ns);
        Launch(loop.amp ? kHgemm : kSgemm, loop.gemm_ns);
        Launch(kReluFloat, loop.elementwise_ns);
      }
      if (loop.amp) {
        Launch(kUnscale, 20'000);
        ReadFoundInf();
      }
      Launch(kOptimizer, 30'000);
      if (loop.amp) Launch(kUpdateScale, 3'000);
      if (loop.sync_per_step) host_ = std::max(host_, gpu_free_);  // loss.item() ends the step
      if (loop.step_ranges) {
        b_.Range("ProfilerStep#" + std::to_string(step), start, host_, records::RangeCategory::kUserAnnotation);
      }
      host_ += 20'000;  // the data loader between steps
    }
  }

 private:
  RecordBuilder& b_;
  Loop loop_;
  base::TimeNs host_ = 1'000'000;
  base::TimeNs gpu_free_ = 0;
};

RunProfile Profile(const Loop& loop) {
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  LoopBuilder(b).Build(loop);
  const model::TraceModel model = std::move(builder).Build();
  const std::vector<KernelClass> classes = ClassifySignatures(model);
  return ProfileRun(AnalysisInput{model, classes});
}

Loop Fp32() { return Loop{}; }
Loop Amp() {
  Loop loop;
  loop.amp = true;
  loop.gemm_ns = 50'000;  // 4x faster on Tensor Cores
  return loop;
}

const ComparisonRow* FindRow(const Comparison& comparison, std::string_view label) {
  for (const ComparisonRow& row : comparison.rows) {
    if (row.label == label) return &row;
  }
  return nullptr;
}

bool HasNote(const Comparison& comparison, std::string_view text) {
  return std::any_of(comparison.notes.begin(), comparison.notes.end(),
                     [&](const std::string& note) { return note.find(text) != std::string::npos; });
}

std::string Notes(const Comparison& comparison) {
  std::string all;
  for (const std::string& note : comparison.notes) all += note + "\n";
  return all;
}

TEST(CompareTest, AmpFasterGivesTheSpeedupAndNoFinding) {
  const ComparisonResult result = Compare(Profile(Fp32()), Profile(Amp()));
  const Comparison& c = result.comparison;
  EXPECT_FALSE(result.finding.has_value());
  EXPECT_EQ(c.basis, CompareBasis::kMedianStep);
  EXPECT_EQ(c.baseline.steps, 10u);
  EXPECT_EQ(c.candidate.steps, 10u);
  EXPECT_EQ(c.baseline.step_source, "ProfilerStep ranges");
  // FP32: 8 x 200 us of GEMMs + 8 x 5 us + 30 us of optimizer on a saturated GPU.
  EXPECT_GT(c.speedup, 2.0);
  EXPECT_LT(c.speedup, 3.5);
  ASSERT_FALSE(c.rows.empty());
  // The biggest change: FP32 GEMMs on CUDA cores are gone; a saving names no finding.
  EXPECT_EQ(c.rows[0].label, "GEMM on CUDA cores");
  EXPECT_EQ(c.rows[0].baseline_ns, 8 * 200'000);
  EXPECT_EQ(c.rows[0].candidate_ns, 0);
  EXPECT_EQ(c.rows[0].explained_by, "");
  const ComparisonRow* tensor_cores = FindRow(c, "GEMM on Tensor Cores");
  ASSERT_NE(tensor_cores, nullptr);
  EXPECT_EQ(tensor_cores->candidate_ns, 8 * 50'000);
  EXPECT_EQ(tensor_cores->explained_by, "");  // the GEMMs AMP is for
  const ComparisonRow* cast = FindRow(c, "cast");
  ASSERT_NE(cast, nullptr);
  EXPECT_EQ(cast->baseline_ns, 0);
  EXPECT_EQ(cast->candidate_ns, 8 * 3'000);
  EXPECT_EQ(cast->explained_by, "amp.cast_overhead");
  EXPECT_EQ(FindRow(c, "GradScaler")->explained_by, "amp.scaler_overhead");
  EXPECT_TRUE(c.baseline.device == c.candidate.device);
  EXPECT_TRUE(c.notes.empty()) << Notes(c);
  EXPECT_FALSE(c.baseline.reduced_precision);
  EXPECT_TRUE(c.candidate.reduced_precision);
}

TEST(CompareTest, StepsAreTimedOnTheGpuWhenTheHostRunsAhead) {
  // Without a per-step sync, a GPU-bound FP32 loop's ProfilerStep ranges only time the launches.
  Loop fp32 = Fp32();
  fp32.sync_per_step = false;
  const RunProfile baseline = Profile(fp32);
  EXPECT_EQ(baseline.range_median_step_ns, 17 * 10'000);
  // The GPU runs the steps back to back: 8 x (200 + 5) us + 30 us.
  EXPECT_EQ(baseline.median_step_ns, 1'670'000);
  const ComparisonResult result = Compare(baseline, Profile(Amp()));
  EXPECT_EQ(result.comparison.baseline.time_ns, 1'670'000);
  EXPECT_GT(result.comparison.speedup, 2.0);
  EXPECT_FALSE(result.finding.has_value());
  EXPECT_TRUE(HasNote(result.comparison, "the FP32 trace's step ranges take 170 us (median) but its GPU needs 1.67 ms "
                                         "per step: the host queues work ahead of the GPU"))
      << Notes(result.comparison);
}

TEST(CompareTest, RowsAreRankedByAbsoluteChangeAndAddUpToTheGpuTimePerStep) {
  for (const auto& [baseline, candidate] : {std::pair{Fp32(), Amp()}, std::pair{Amp(), Fp32()}}) {
    const Comparison c = Compare(Profile(baseline), Profile(candidate)).comparison;
    for (size_t i = 1; i < c.rows.size(); ++i) {
      EXPECT_GE(std::abs(c.rows[i - 1].change_ns()), std::abs(c.rows[i].change_ns())) << c.rows[i].label;
    }
    DurationNs baseline_sum = 0;
    DurationNs candidate_sum = 0;
    for (const ComparisonRow& row : c.rows) {
      baseline_sum += row.baseline_ns;
      candidate_sum += row.candidate_ns;
    }
    // Each row is rounded to the nanosecond on its own.
    const auto tolerance = static_cast<DurationNs>(c.rows.size());
    EXPECT_NEAR(baseline_sum, c.baseline.gpu_time_ns, tolerance);
    EXPECT_NEAR(candidate_sum, c.candidate.gpu_time_ns, tolerance);
  }
}

TEST(CompareTest, LaunchBoundAmpWithMoreKernelsIsSlowerAndIdleTopsTheRows) {
  // A small model (the forum's "autocast is slower with a small batch"): GEMMs of 12 us in FP32 and
  // 4 us in FP16, but every kernel costs the host 10 us to launch, and AMP launches more of them.
  Loop fp32 = Fp32();
  fp32.gemm_ns = 12'000;
  fp32.elementwise_ns = 3'000;
  Loop amp = Amp();
  amp.gemm_ns = 4'000;
  amp.elementwise_ns = 2'000;
  amp.cast_ns = 2'000;
  const ComparisonResult result = Compare(Profile(fp32), Profile(amp));
  const Comparison& c = result.comparison;
  EXPECT_LT(c.speedup, 1.0);
  ASSERT_TRUE(result.finding.has_value());
  const Finding& finding = *result.finding;
  EXPECT_EQ(finding.id, "amp.slower_than_fp32");
  EXPECT_EQ(finding.severity, Severity::kCritical);
  ASSERT_FALSE(c.rows.empty());
  EXPECT_EQ(c.rows[0].label, "idle: waiting for kernel launches");
  EXPECT_GT(c.rows[0].change_ns(), 0);
  EXPECT_EQ(c.rows[0].explained_by, "gpu.launch_bound");
  EXPECT_EQ(finding.verdict.rfind("The mixed-precision run is slower than FP32: median step ", 0), 0u)
      << finding.verdict;
  EXPECT_NE(finding.verdict.find("most of the cost: idle: waiting for kernel launches +"), std::string::npos)
      << finding.verdict;
  EXPECT_NE(finding.verdict.find("(gpu.launch_bound) per step"), std::string::npos) << finding.verdict;
  // FP32: 8 x 2 + 1 kernels per step; AMP: 8 x 3 + 3.
  EXPECT_DOUBLE_EQ(c.baseline.kernels_per_unit, 17.0);
  EXPECT_DOUBLE_EQ(c.candidate.kernels_per_unit, 27.0);
  ASSERT_GE(finding.evidence.size(), 4u);
  EXPECT_EQ(finding.evidence[0].label, "compared");
  EXPECT_EQ(finding.evidence[1].label, "step time");
  EXPECT_EQ(finding.evidence[2].label, "GPU time per step");
  EXPECT_NE(finding.evidence[2].value.find("17 kernels"), std::string::npos) << finding.evidence[2].value;
  EXPECT_EQ(finding.evidence[3].label, "costs more with AMP per step");
  EXPECT_EQ(finding.evidence[3].value.rfind("idle: waiting for kernel launches +", 0), 0u) << finding.evidence[3].value;
  // What is at stake: the step time lost, over the AMP run's measured steps.
  EXPECT_EQ(finding.time_ns,
            (c.candidate.time_ns - c.baseline.time_ns) * static_cast<DurationNs>(c.candidate.steps));
}

TEST(CompareTest, GemmsOnTensorCoresPaidForInCasts) {
  // GPU-bound: the GEMMs get 4x faster, but casting large activations costs as much as they save.
  Loop fp32 = Fp32();
  Loop amp = Amp();
  amp.cast_ns = 170'000;
  const ComparisonResult result = Compare(Profile(fp32), Profile(amp));
  const Comparison& c = result.comparison;
  EXPECT_LT(c.speedup, kMinUsefulSpeedup);
  ASSERT_TRUE(result.finding.has_value());
  ASSERT_GE(c.rows.size(), 3u);
  EXPECT_EQ(c.rows[0].label, "GEMM on CUDA cores");
  EXPECT_EQ(c.rows[0].change_ns(), -8 * 200'000);
  EXPECT_EQ(c.rows[1].label, "cast");
  EXPECT_EQ(c.rows[1].change_ns(), 8 * 170'000);
  EXPECT_EQ(c.rows[1].explained_by, "amp.cast_overhead");
  EXPECT_EQ(c.rows[2].label, "GEMM on Tensor Cores");
  EXPECT_EQ(c.rows[2].explained_by, "");
  EXPECT_NE(result.finding->verdict.find("most of the cost: cast +1.36 ms (amp.cast_overhead) per step"),
            std::string::npos)
      << result.finding->verdict;
  bool savings = false;
  for (const Evidence& evidence : result.finding->evidence) {
    if (evidence.label == "saves with AMP per step") {
      savings = true;
      EXPECT_EQ(evidence.value.rfind("GEMM on CUDA cores -1.60 ms", 0), 0u) << evidence.value;
    }
  }
  EXPECT_TRUE(savings);
}

TEST(CompareTest, WithinNoiseIsNoSpeedup) {
  // AMP a little faster, by less than kMinUsefulSpeedup: the finding fires as "no measurable speed-up".
  Loop fp32 = Fp32();
  Loop amp = Amp();
  amp.gemm_ns = 150'000;
  amp.cast_ns = 35'000;
  const ComparisonResult result = Compare(Profile(fp32), Profile(amp));
  EXPECT_GE(result.comparison.speedup, 1.0);
  EXPECT_LT(result.comparison.speedup, kMinUsefulSpeedup);
  ASSERT_TRUE(result.finding.has_value());
  EXPECT_EQ(result.finding->verdict.rfind("Mixed precision brought no measurable speed-up: ", 0), 0u)
      << result.finding->verdict;
  EXPECT_NE(result.finding->verdict.find("(below 1.05x)"), std::string::npos) << result.finding->verdict;
}

TEST(CompareTest, AnAmpTraceAgainstItselfIsNoSpeedupAndNoFp32Baseline) {
  const RunProfile amp = Profile(Amp());
  const ComparisonResult result = Compare(amp, amp);
  EXPECT_DOUBLE_EQ(result.comparison.speedup, 1.0);
  ASSERT_TRUE(result.finding.has_value());
  EXPECT_EQ(result.finding->verdict.rfind("Mixed precision brought no measurable speed-up: median step", 0), 0u)
      << result.finding->verdict;
  EXPECT_TRUE(HasNote(result.comparison, "it is not an FP32 baseline")) << Notes(result.comparison);
  EXPECT_FALSE(HasNote(result.comparison, "wrong way round")) << Notes(result.comparison);
  for (const ComparisonRow& row : result.comparison.rows) EXPECT_EQ(row.change_ns(), 0) << row.label;
  EXPECT_EQ(result.finding->time_ns, 0);
}

TEST(CompareTest, AnFp32TraceAgainstItselfSaysAutocastIsNotActive) {
  const RunProfile fp32 = Profile(Fp32());
  const ComparisonResult result = Compare(fp32, fp32);
  EXPECT_DOUBLE_EQ(result.comparison.speedup, 1.0);
  ASSERT_TRUE(result.finding.has_value());
  EXPECT_EQ(result.finding->verdict.rfind("The AMP run shows no FP16/BF16 kernels: autocast is not active (", 0), 0u)
      << result.finding->verdict;
  EXPECT_TRUE(HasNote(result.comparison, "the AMP run shows no FP16/BF16 kernels: autocast is not active"))
      << Notes(result.comparison);
}

TEST(CompareTest, TracesTheWrongWayRound) {
  const ComparisonResult result = Compare(Profile(Amp()), Profile(Fp32()));
  EXPECT_LT(result.comparison.speedup, 1.0);
  ASSERT_TRUE(result.finding.has_value());
  EXPECT_EQ(result.finding->verdict.rfind("The AMP run shows no FP16/BF16 kernels", 0), 0u) << result.finding->verdict;
  EXPECT_TRUE(HasNote(result.comparison, "were the traces given the wrong way round?")) << Notes(result.comparison);
  // The notes travel with the finding.
  EXPECT_TRUE(std::any_of(result.finding->evidence.begin(), result.finding->evidence.end(),
                          [](const Evidence& e) { return e.label == "note"; }));
}

TEST(CompareTest, AmpWithoutHalfGemmsDoesNotCoverThem) {
  // Something casts to FP16, but every GEMM still runs in FP32: autocast is on around the wrong code.
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  LoopBuilder(b).Build(Fp32());
  b.Launch(kCastToHalf, {500'000'000, 500'005'000}, {500'010'000, 500'013'000});
  const model::TraceModel model = std::move(builder).Build();
  const std::vector<KernelClass> classes = ClassifySignatures(model);
  const RunProfile candidate = ProfileRun(AnalysisInput{model, classes});
  EXPECT_EQ(candidate.reduced_kernels, 1u);
  EXPECT_EQ(candidate.reduced_matrix_kernels, 0u);
  const ComparisonResult result = Compare(Profile(Fp32()), candidate);
  ASSERT_TRUE(result.finding.has_value());
  EXPECT_EQ(result.finding->verdict.rfind("The AMP run's GEMMs and convolutions are not in FP16/BF16", 0), 0u)
      << result.finding->verdict;
  EXPECT_TRUE(HasNote(result.comparison, "autocast does not cover them")) << Notes(result.comparison);
}

TEST(CompareTest, DifferentGpusAreNoted) {
  Loop fp32 = Fp32();
  fp32.device = "NVIDIA A100-SXM4-80GB";
  const Comparison c = Compare(Profile(fp32), Profile(Amp())).comparison;
  EXPECT_TRUE(HasNote(c, "different GPUs: FP32 on NVIDIA A100-SXM4-80GB, AMP on NVIDIA H100 80GB HBM3")) << Notes(c);
}

TEST(CompareTest, WithoutStepsTheWholeRunsAreComparedAndSaidSo) {
  Loop fp32 = Fp32();
  fp32.steps = 2;  // too few to be a loop
  fp32.step_ranges = false;
  const RunProfile baseline = Profile(fp32);
  ASSERT_FALSE(baseline.per_step.has_value());
  Loop amp = Amp();
  amp.steps = 3;  // a loop, but the FP32 trace has none to set it against
  const ComparisonResult result = Compare(baseline, Profile(amp));
  const Comparison& c = result.comparison;
  EXPECT_EQ(c.basis, CompareBasis::kWholeRun);
  EXPECT_EQ(c.baseline.steps, 0u);
  EXPECT_GT(c.speedup, 1.5);
  EXPECT_TRUE(HasNote(c, "the FP32 trace marks no training steps: compared each run's whole GPU span")) << Notes(c);
  // Per run: the FP32 run's two steps of eight 200 us GEMMs.
  EXPECT_EQ(FindRow(c, "GEMM on CUDA cores")->baseline_ns, 2 * 8 * 200'000);
}

TEST(CompareTest, NothingToCompareWithoutKernels) {
  model::ModelBuilder builder;
  const model::TraceModel empty = std::move(builder).Build();
  const std::vector<KernelClass> classes = ClassifySignatures(empty);
  const ComparisonResult result = Compare(ProfileRun(AnalysisInput{empty, classes}), Profile(Amp()));
  EXPECT_FALSE(result.finding.has_value());
  EXPECT_EQ(result.comparison.speedup, 0.0);
  EXPECT_TRUE(HasNote(result.comparison, "the FP32 trace has no GPU kernels")) << Notes(result.comparison);
}

TEST(CompareTest, FindingsExplainCostlierRows) {
  EXPECT_EQ(FindingForCategory(KernelCategory::kCast, MathUnit::kNotApplicable), "amp.cast_overhead");
  EXPECT_EQ(FindingForCategory(KernelCategory::kGradScaler, MathUnit::kNotApplicable), "amp.scaler_overhead");
  EXPECT_EQ(FindingForCategory(KernelCategory::kLayoutTransform, MathUnit::kNotApplicable), "layout.nchw_nhwc");
  EXPECT_EQ(FindingForCategory(KernelCategory::kGemm, MathUnit::kCudaCore), "tensor_cores.fp32_math");
  EXPECT_EQ(FindingForCategory(KernelCategory::kConvolution, MathUnit::kTensorCoreTf32), "tensor_cores.fp32_math");
  EXPECT_EQ(FindingForCategory(KernelCategory::kGemm, MathUnit::kTensorCore), "");
  EXPECT_EQ(FindingForIdle(GapCause::kHostLaunch), "gpu.launch_bound");
  EXPECT_EQ(FindingForIdle(GapCause::kHostSync), "gpu.sync_stall");
  EXPECT_EQ(FindingForIdle(GapCause::kQueued), "");
  for (const std::string_view id : {"amp.cast_overhead", "amp.scaler_overhead", "layout.nchw_nhwc",
                                    "tensor_cores.fp32_math", "gpu.launch_bound", "gpu.sync_stall",
                                    "amp.double_optimizer_step", "amp.slower_than_fp32"}) {
    EXPECT_NE(FindFinding(id), nullptr) << id;
  }
}

}  // namespace
}  // namespace ampprof::analyzers
