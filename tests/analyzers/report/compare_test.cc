// FP32 vs mixed precision on synthetic pairs of training loops: AMP faster, AMP slower because the host
// cannot launch its extra kernels fast enough, GEMMs moved to Tensor Cores but paid for in casts, and the
// sanity checks (a trace against itself, an FP32 "AMP" run, different GPUs, no steps). Kernel names are
// real ones (kernel_classifier_test.cc and the shared fixtures).

#include "analyzers/report/compare.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
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
  return ProfileRun(AnalysisInput(model));
}

ComparisonResult Compare(const RunProfile& baseline, const RunProfile& candidate) {
  return analyzers::Compare(baseline, candidate, "");
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

using analyzers::testing::Text;

bool HasNote(const Comparison& comparison, std::string_view text) {
  return std::any_of(comparison.notes.begin(), comparison.notes.end(),
                     [&](const Statement& note) { return Text(note).find(text) != std::string::npos; });
}

std::string Notes(const Comparison& comparison) {
  std::string all;
  for (const Statement& note : comparison.notes) all += Text(note) + "\n";
  return all;
}

const Evidence* FindEvidence(const Finding& finding, std::string_view label) {
  for (const Evidence& evidence : finding.evidence) {
    if (evidence.label == label) return &evidence;
  }
  return nullptr;
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
  // The ranges take 170 us (the launches); the GPU runs the steps back to back: 8 x (200 + 5) us + 30 us,
  // and each step's period starts when the GPU is free for it (step_account.h).
  EXPECT_EQ(baseline.median_step_ns, 1'670'000);
  const ComparisonResult result = Compare(baseline, Profile(Amp()));
  EXPECT_EQ(result.comparison.baseline.time_ns, 1'670'000);
  EXPECT_GT(result.comparison.speedup, 2.0);
  EXPECT_FALSE(result.finding.has_value());
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
    // The rows are the step account's buckets: they add up to the mean step (each rounded on its own).
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
  const std::string verdict = Text(finding.verdict);
  EXPECT_EQ(verdict.rfind("The mixed-precision run is slower than FP32: median step ", 0), 0u) << verdict;
  EXPECT_NE(verdict.find("most of the cost: idle: waiting for kernel launches +"), std::string::npos) << verdict;
  EXPECT_NE(verdict.find(" per step (gpu.launch_bound)"), std::string::npos) << verdict;
  // FP32: 8 x 2 + 1 kernels per step; AMP: 8 x 3 + 3.
  EXPECT_DOUBLE_EQ(c.baseline.kernels_per_unit, 17.0);
  EXPECT_DOUBLE_EQ(c.candidate.kernels_per_unit, 27.0);
  ASSERT_NE(FindEvidence(finding, "compared"), nullptr);
  const Evidence* gpu_time = FindEvidence(finding, "GPU time per step");
  ASSERT_NE(gpu_time, nullptr);
  EXPECT_NE(Text(gpu_time->value).find("17.0 kernels"), std::string::npos) << Text(gpu_time->value);
  const Evidence* cost = FindEvidence(finding, "costs more with AMP: idle: waiting for kernel launches");
  ASSERT_NE(cost, nullptr);
  EXPECT_EQ(Text(cost->value).rfind("+", 0), 0u) << Text(cost->value);
  // The saving: the step time AMP loses against FP32.
  EXPECT_EQ(finding.saving.ns, c.candidate.time_ns - c.baseline.time_ns);
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
  EXPECT_NE(Text(result.finding->verdict).find("most of the cost: cast +1.36 ms per step (amp.cast_overhead)"),
            std::string::npos)
      << Text(result.finding->verdict);
  const Evidence* savings = FindEvidence(*result.finding, "saves with AMP: GEMM on CUDA cores");
  ASSERT_NE(savings, nullptr);
  EXPECT_EQ(Text(savings->value), "-1.60 ms per step");
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
  EXPECT_EQ(Text(result.finding->verdict).rfind("Mixed precision brought no measurable speed-up: ", 0), 0u)
      << Text(result.finding->verdict);
  EXPECT_NE(Text(result.finding->verdict).find("(below 1.05x)"), std::string::npos) << Text(result.finding->verdict);
}

TEST(CompareTest, TwoMixedPrecisionRunsStateNoSpeedup) {
  const RunProfile amp = Profile(Amp());
  const ComparisonResult result = Compare(amp, amp);
  EXPECT_DOUBLE_EQ(result.comparison.speedup, 1.0);
  EXPECT_EQ(result.comparison.pair, RunPair::kBothMixed);
  EXPECT_FALSE(result.finding.has_value()) << "no FP32 run: nothing can be slower than FP32";
  EXPECT_TRUE(HasNote(result.comparison, "it is not an FP32 baseline")) << Notes(result.comparison);
  EXPECT_FALSE(HasNote(result.comparison, "wrong way round")) << Notes(result.comparison);
  for (const ComparisonRow& row : result.comparison.rows) EXPECT_EQ(row.change_ns(), 0) << row.label;
}

TEST(CompareTest, TwoFp32RunsStateNoSpeedup) {
  const RunProfile fp32 = Profile(Fp32());
  const ComparisonResult result = Compare(fp32, fp32);
  EXPECT_DOUBLE_EQ(result.comparison.speedup, 1.0);
  EXPECT_EQ(result.comparison.pair, RunPair::kBothFp32);
  EXPECT_FALSE(result.finding.has_value());
  EXPECT_TRUE(HasNote(result.comparison, "both runs are FP32")) << Notes(result.comparison);
}

TEST(CompareTest, TracesTheWrongWayRoundAreComparedTheRightWay) {
  const ComparisonResult result = Compare(Profile(Amp()), Profile(Fp32()));
  EXPECT_EQ(result.comparison.pair, RunPair::kSwapped);
  EXPECT_GT(result.comparison.speedup, 2.0) << "FP32 against AMP, as meant";
  EXPECT_FALSE(result.comparison.baseline.reduced_precision);
  EXPECT_TRUE(result.comparison.candidate.reduced_precision);
  EXPECT_FALSE(result.finding.has_value());
  EXPECT_TRUE(HasNote(result.comparison, "given the wrong way round")) << Notes(result.comparison);
}

TEST(CompareTest, AmpWithoutHalfGemmsDoesNotCoverThem) {
  // Something casts to FP16, but every GEMM still runs in FP32: autocast is on around the wrong code.
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  LoopBuilder(b).Build(Fp32());
  b.Launch(kCastToHalf, {500'000'000, 500'005'000}, {500'010'000, 500'013'000});
  const model::TraceModel model = std::move(builder).Build();
  const RunProfile candidate = ProfileRun(AnalysisInput(model));
  EXPECT_EQ(candidate.reduced_kernels, 1u);
  EXPECT_EQ(candidate.reduced_matrix_kernels, 0u);
  const ComparisonResult result = Compare(Profile(Fp32()), candidate);
  EXPECT_EQ(result.comparison.pair, RunPair::kBothFp32);
  EXPECT_FALSE(result.finding.has_value());
  EXPECT_TRUE(HasNote(result.comparison, "autocast does not cover them")) << Notes(result.comparison);
}

// Another GPU is another job: a warning, which every view prints as one, not a note.
TEST(CompareTest, DifferentGpusAreAWarning) {
  Loop fp32 = Fp32();
  fp32.device = "NVIDIA A100-SXM4-80GB";
  const Comparison c = Compare(Profile(fp32), Profile(Amp())).comparison;
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_EQ(Text(c.warnings[0]), "different GPUs: NVIDIA A100-SXM4-80GB (FP32) and NVIDIA H100 80GB HBM3 (mixed "
                                 "precision): the difference mixes hardware with precision");
  EXPECT_FALSE(HasNote(c, "different GPUs")) << Notes(c);
  EXPECT_TRUE(Compare(Profile(Fp32()), Profile(Amp())).comparison.warnings.empty()) << "the same GPU";
}

TEST(CompareTest, WithoutStepsTheWholeRunsAreComparedAndSaidSo) {
  Loop fp32 = Fp32();
  fp32.steps = 2;  // too few to be a loop
  fp32.step_ranges = false;
  const RunProfile baseline = Profile(fp32);
  ASSERT_FALSE(baseline.per_step);
  Loop amp = Amp();
  amp.steps = 3;  // a loop, but the FP32 trace has none to set it against
  const ComparisonResult result = Compare(baseline, Profile(amp));
  const Comparison& c = result.comparison;
  EXPECT_EQ(c.basis, CompareBasis::kWholeRun);
  EXPECT_EQ(c.baseline.steps, 0u);
  EXPECT_GT(c.speedup, 1.5);
  EXPECT_TRUE(HasNote(c, "the FP32 trace marks no training steps: compared each run's whole analysed window"))
      << Notes(c);
  // Per run: the FP32 run's two steps of eight 200 us GEMMs.
  EXPECT_EQ(FindRow(c, "GEMM on CUDA cores")->baseline_ns, 2 * 8 * 200'000);
}

TEST(CompareTest, NothingToCompareWithoutKernels) {
  model::ModelBuilder builder;
  const model::TraceModel empty = std::move(builder).Build();
  const ComparisonResult result = Compare(ProfileRun(AnalysisInput(empty)), Profile(Amp()));
  EXPECT_FALSE(result.finding.has_value());
  EXPECT_EQ(result.comparison.speedup, 0.0);
  EXPECT_TRUE(HasNote(result.comparison, "the FP32 trace has no GPU kernels")) << Notes(result.comparison);
}

TEST(CompareTest, FindingsExplainCostlierRows) {
  const RunProfile amp = Profile(Amp());
  std::map<std::string, std::string> finding_of;
  for (const ProfileBucket& bucket : amp.buckets) {
    finding_of[bucket.label] = bucket.finding;
    if (!bucket.finding.empty()) {
      EXPECT_NE(FindFinding(bucket.finding), nullptr) << bucket.finding;
    }
  }
  EXPECT_EQ(finding_of["cast"], "amp.cast_overhead");
  EXPECT_EQ(finding_of["GradScaler"], "amp.scaler_overhead");
  EXPECT_EQ(finding_of["GEMM on Tensor Cores"], "");
  EXPECT_EQ(finding_of["idle: waiting for kernel launches"], "gpu.launch_bound");
  EXPECT_EQ(finding_of["idle: refilling the queue after a host sync"], "gpu.sync_stall");
  EXPECT_EQ(finding_of["idle: host busy with other work (>= 1 ms)"], "gpu.host_bound");
  EXPECT_EQ(finding_of["exposed communication"], "comm.exposed");
  const RunProfile fp32 = Profile(Fp32());
  for (const ProfileBucket& bucket : fp32.buckets) {
    if (bucket.label == "GEMM on CUDA cores") {
      EXPECT_EQ(bucket.finding, "tensor_cores.fp32_math");
    }
  }
}

}  // namespace
}  // namespace ampprof::analyzers
