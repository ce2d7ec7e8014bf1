// Synthetic AMP training loops, one pathology at a time, for the analyzers no public trace exercises yet:
// GradScaler overhead, warm-up in the window and the double optimizer step. Kernel names are real ones
// (kernel_classifier_test.cc); timings follow a simple host/GPU queue model (LoopBuilder).

#include <string>

#include <gtest/gtest.h>

#include "analyzers/findings/finding_locations.h"
#include "analyzers/findings/optimizer_analyzer.h"
#include "analyzers/findings/scaler_analyzer.h"
#include "analyzers/findings/warmup_analyzer.h"
#include "src/model/model_builder.h"
#include "tests/analyzers/synthetic_run.h"
#include "tests/testing/record_builder.h"

namespace ampprof::analyzers {
namespace {

using records::RangeCategory;
using ampprof::testing::RecordBuilder;

using analyzers::testing::kFp16TensorCoreGemm;
using analyzers::testing::kForeachAdd;
using analyzers::testing::kForeachMul;
using analyzers::testing::kScaleUpdate;
using analyzers::testing::kUnscale;

struct LoopOptions {
  int steps = 10;
  base::DurationNs gemm_ns = 200'000;  // four per step
  bool scaler_sync = true;             // found_inf.item() after the unscale
  bool double_step = false;            // optimizer.step() after scaler.step(optimizer)
  bool optimizer_ranges = false;       // ranges around the optimizer's launches, named:
  std::string optimizer_range_name = "Optimizer.step#SGD.step";  // (the PyTorch profiler's name)
  base::DurationNs first_step_extra_ns = 0;  // host work in step 0 only (lazy init, autotuning)
  bool first_step_allocates = false;         // a cudaMalloc in step 0 (the caching allocator grows)
  std::string capture_range;                 // the collector's metadata: "cudaProfilerApi", or none
};

// One host thread launching into one stream. Each launch call takes 5 us and 5 us of Python follow it;
// the GPU runs kernels in launch order as soon as they are launched and it is free.
class LoopBuilder {
 public:
  explicit LoopBuilder(RecordBuilder& b) : b_(b) {}

  void Launch(std::string_view name, base::DurationNs gpu_ns) {
    const base::TimeNs start = std::max(host_ + 3'000, gpu_free_);
    b_.Launch(name, {host_, host_ + 5'000}, {start, start + gpu_ns});
    gpu_free_ = start + gpu_ns;
    host_ += 10'000;
  }
  // found_inf.item(): a 4-byte device-to-host copy, then a stream synchronise until the GPU drains.
  void ReadFoundInf() {
    const uint32_t correlation = b_.NextCorrelation();
    b_.ApiCall("cudaMemcpyAsync", host_, host_ + 4'000, correlation);
    const base::TimeNs copy_start = std::max(host_ + 2'000, gpu_free_);
    b_.Memcpy(records::MemcpyKind::kDeviceToHost, 4, copy_start, copy_start + 2'000, correlation);
    gpu_free_ = copy_start + 2'000;
    const base::TimeNs sync_start = host_ + 5'000;
    const base::TimeNs sync_end = std::max(sync_start, gpu_free_) + 3'000;
    b_.ApiCall("cudaStreamSynchronize", sync_start, sync_end, b_.NextCorrelation());
    host_ = sync_end + 30'000;  // Python until the next launch
  }
  void Optimizer(const LoopOptions& options) {
    const base::TimeNs start = host_;
    Launch(kForeachMul, 15'000);
    Launch(kForeachAdd, 15'000);
    if (options.optimizer_ranges) {
      b_.Range(options.optimizer_range_name, start, host_, RangeCategory::kUserAnnotation);
    }
  }
  void Step(int index, const LoopOptions& options) {
    const base::TimeNs start = host_;
    if (index == 0) host_ += options.first_step_extra_ns;
    if (index == 0 && options.first_step_allocates) {
      b_.ApiCall("cudaMalloc", host_, host_ + 20'000, b_.NextCorrelation());
      host_ += 20'000;
    }
    for (int i = 0; i < 4; ++i) Launch(kFp16TensorCoreGemm, options.gemm_ns);
    Launch(kUnscale, 20'000);
    if (options.scaler_sync) ReadFoundInf();
    Optimizer(options);
    if (options.double_step) Optimizer(options);
    Launch(kScaleUpdate, 3'000);
    host_ = std::max(host_, gpu_free_);  // loss.item() at the end of the step keeps steps apart
    b_.Range("ProfilerStep#" + std::to_string(index), start, host_, RangeCategory::kUserAnnotation);
  }

 private:
  RecordBuilder& b_;
  base::TimeNs host_ = 0;
  base::TimeNs gpu_free_ = 0;
};

using Analyzed = testing::SyntheticRun;
using testing::EvidenceText;
using testing::Text;

Analyzed BuildLoop(const LoopOptions& options) {
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  LoopBuilder loop(b);
  if (!options.capture_range.empty()) {
    builder.SetMetadata("source", "ampprof CUPTI collector");
    builder.SetMetadata("capture_range", options.capture_range);
  }
  for (int i = 0; i < options.steps; ++i) loop.Step(i, options);
  return Analyzed{std::move(builder).Build(), nullptr};
}

TEST(GradScalerAnalyzer, ChargesKernelsAndTheFoundInfSyncToTheStep) {
  LoopOptions options;
  options.gemm_ns = 20'000;  // a small model: the scaler's sync and kernels are a large share
  const Analyzed loop = BuildLoop(options);
  const std::vector<Finding> findings = AnalyzeGradScaler(loop.input());
  ASSERT_EQ(findings.size(), 1u);
  const Finding& finding = findings[0];
  EXPECT_EQ(finding.id, "amp.scaler_overhead");
  EXPECT_EQ(finding.severity, Severity::kCritical);
  EXPECT_EQ(EvidenceText(finding, "unscale and inf-check kernels"), "10 launches, 20.0 us per step");
  EXPECT_EQ(EvidenceText(finding, "scale update kernels"), "10 launches, 3.00 us per step");
  const std::string syncs = EvidenceText(finding, "found_inf.item() syncs");
  EXPECT_EQ(syncs.substr(0, 18), "10 (1.0 per step):") << syncs;
  // After the 2 us copy (the copies bucket, not idle), nothing runs: 3 us for the sync to return, 30 us
  // of Python, 3 us until the optimizer's kernel starts.
  EXPECT_NE(syncs.find("GPU idle 36.0 us per step"), std::string::npos) << syncs;
  // The saving is the scaler's kernels and the idle after its sync, per step.
  EXPECT_EQ(finding.saving.ns, 23'000 + 36'000);
  // Located at the longest of those: the ten 36 us gaps after the syncs, then six of the 20 us unscale
  // kernels; the other four and the ten 3 us updates are counted.
  ASSERT_EQ(finding.locations.size(), kMaxLocations);
  EXPECT_EQ(finding.locations_left_out, 14u);
  for (size_t i = 0; i < finding.locations.size(); ++i) {
    const Location& location = finding.locations[i];
    if (i < 10) {
      EXPECT_EQ(location.kind, LocationKind::kHostSync) << i;
      EXPECT_EQ(location.label, "after the found_inf read");
      EXPECT_EQ(location.interval.duration(), 36'000);
    } else {
      EXPECT_EQ(location.kind, LocationKind::kKernel) << i;
      EXPECT_EQ(location.label, KernelLabel(kUnscale));
      EXPECT_EQ(location.interval.duration(), 20'000);
    }
  }
}

TEST(GradScalerAnalyzer, QuietWhenTheScalerIsCheapAgainstTheStep) {
  LoopOptions options;
  options.gemm_ns = 5'000'000;  // 20 ms of GEMMs per step
  const Analyzed loop = BuildLoop(options);
  EXPECT_TRUE(AnalyzeGradScaler(loop.input()).empty());
}

TEST(GradScalerAnalyzer, WithoutTheSyncOnlyKernelsCount) {
  LoopOptions options;
  options.gemm_ns = 20'000;
  options.scaler_sync = false;
  const Analyzed loop = BuildLoop(options);
  const std::vector<Finding> findings = AnalyzeGradScaler(loop.input());
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(EvidenceText(findings[0], "found_inf.item() syncs"),
            "none recorded (no device-to-host copies of 8 bytes or less after the unscale)");
  EXPECT_EQ(findings[0].saving.ns, 23'000);
}

TEST(OptimizerAnalyzer, FlagsTheDoubleStepFromKernels) {
  LoopOptions options;
  options.double_step = true;
  const Analyzed loop = BuildLoop(options);
  const std::vector<Finding> findings = AnalyzeOptimizerSteps(loop.input());
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].id, "amp.double_optimizer_step");
  EXPECT_EQ(findings[0].severity, Severity::kCritical);
  EXPECT_EQ(EvidenceText(findings[0], "seen in"), "optimizer kernels per step");
  EXPECT_EQ(EvidenceText(findings[0], "steps with two identical optimizer passes"), "10 of 10 measured");
  EXPECT_EQ(findings[0].saving.ns, 30'000);
  // Located at the steps that ran it twice: all ten. The finding is about the run, not one GPU, and so
  // are its steps: no device on either, though the trace has one GPU.
  const Steps& steps = *loop.input().steps();
  EXPECT_EQ(findings[0].device_id, -1);
  ASSERT_EQ(findings[0].locations.size(), 10u);
  for (const Location& location : findings[0].locations) {
    EXPECT_EQ(location.kind, LocationKind::kStep);
    EXPECT_EQ(location.device_id, findings[0].device_id);
    EXPECT_EQ(location.stream_id, -1);
    const size_t step = std::stoul(location.label.substr(5));  // "step N: the optimizer ran twice"
    EXPECT_EQ(location.label, "step " + std::to_string(step) + ": the optimizer ran twice");
    EXPECT_EQ(location.interval, steps.intervals.at(step));
  }
}

TEST(OptimizerAnalyzer, FlagsTheDoubleStepFromRanges) {
  LoopOptions options;
  options.double_step = true;
  options.optimizer_ranges = true;
  const Analyzed loop = BuildLoop(options);
  const std::vector<Finding> findings = AnalyzeOptimizerSteps(loop.input());
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(EvidenceText(findings[0], "seen in"), "Optimizer.step ranges");
  ASSERT_EQ(findings[0].examples.size(), 1u);
  EXPECT_EQ(findings[0].examples[0], "Optimizer.step#SGD.step");
}

TEST(OptimizerAnalyzer, FlagsTheDoubleStepFromThePyTorchShimsRanges) {
  LoopOptions options;
  options.double_step = true;
  options.optimizer_ranges = true;
  options.optimizer_range_name = "ampprof:optimizer.step";  // the shim without an NVTX library
  const Analyzed loop = BuildLoop(options);
  const std::vector<Finding> findings = AnalyzeOptimizerSteps(loop.input());
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(EvidenceText(findings[0], "seen in"), "Optimizer.step ranges");
  ASSERT_EQ(findings[0].examples.size(), 1u);
  EXPECT_EQ(findings[0].examples[0], "ampprof:optimizer.step");
}

TEST(OptimizerAnalyzer, QuietOnASingleStep) {
  for (bool ranges : {false, true}) {
    LoopOptions options;
    options.optimizer_ranges = ranges;
    const Analyzed loop = BuildLoop(options);
    EXPECT_TRUE(AnalyzeOptimizerSteps(loop.input()).empty()) << "ranges: " << ranges;
  }
}

TEST(WarmupAnalyzer, FlagsASlowFirstStepInTheWindow) {
  LoopOptions options;
  options.first_step_extra_ns = 50'000'000;  // 50 ms of lazy initialisation in step 0
  const Analyzed loop = BuildLoop(options);
  const std::vector<Finding> findings = AnalyzeWarmup(loop.input());
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].id, "bench.warmup_in_window");
  EXPECT_EQ(Text(findings[0].verdict).substr(0, 35), "The first 1 of 10 steps are warm-up")
      << Text(findings[0].verdict);
  EXPECT_TRUE(findings[0].saving.none()) << "warm-up distorts a measurement; it costs no step time";
  // Located at the warm-up step, as the account timed it.
  ASSERT_EQ(findings[0].locations.size(), 1u);
  EXPECT_EQ(findings[0].locations[0].kind, LocationKind::kStep);
  EXPECT_EQ(findings[0].locations[0].label, "warm-up step 0");
  EXPECT_EQ(findings[0].locations[0].interval, loop.input().account().Primary()->warmup_periods.at(0));
  EXPECT_GE(findings[0].locations[0].interval.duration(), 50'000'000);
}

// The first step of a window opened at cudaProfilerStart pays CUPTI's enabling (docs/validation/h100.md):
// without any sign of warm-up in it, that is the tool's cost, and the user who started the capture
// after warming up did the right thing.
TEST(WarmupAnalyzer, QuietOnTheFirstStepOfAWindowTheCollectorOpenedMidRun) {
  LoopOptions options;
  options.first_step_extra_ns = 50'000'000;
  options.capture_range = "cudaProfilerApi";
  EXPECT_TRUE(AnalyzeWarmup(BuildLoop(options).input()).empty());
  // The same window with an allocation in the slow step: real warm-up, reported.
  options.first_step_allocates = true;
  const std::vector<Finding> findings = AnalyzeWarmup(BuildLoop(options).input());
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(EvidenceText(findings[0], "device allocations"), "1 in warm-up, 0 in the 9 steady steps");
}

TEST(WarmupAnalyzer, QuietOnASteadyLoop) {
  const Analyzed loop = BuildLoop(LoopOptions{});
  EXPECT_TRUE(AnalyzeWarmup(loop.input()).empty());
}

}  // namespace
}  // namespace ampprof::analyzers
