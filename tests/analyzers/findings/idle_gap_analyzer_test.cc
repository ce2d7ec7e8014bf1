#include "analyzers/findings/idle_gap_analyzer.h"

#include <gtest/gtest.h>

#include "analyzers/facts/idle_gaps.h"
#include "src/model/model_builder.h"
#include "tests/testing/record_builder.h"

namespace ampprof::analyzers {
namespace {

using records::RangeCategory;
using testing::RecordBuilder;

constexpr const char* kRelu =
    "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::launch_clamp_scalar"
    "(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail::ClampLimits)::{lambda()#1}::"
    "operator()() const::{lambda()#8}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >"
    "(int, at::native::(anonymous namespace)::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, "
    "c10::Scalar, at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#8}::"
    "operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2>)";
constexpr const char* kGemm = "ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_nn";

struct Analyzed {
  model::TraceModel model;
  std::vector<Finding> findings;
};

Analyzed Analyze(model::ModelBuilder&& builder) {
  Analyzed result{std::move(builder).Build(), {}};
  const std::vector<KernelClass> classes = ClassifySignatures(result.model);
  result.findings = AnalyzeIdleGaps(AnalysisInput{result.model, classes});
  return result;
}

const Finding* FindId(const std::vector<Finding>& findings, std::string_view id) {
  for (const Finding& finding : findings) {
    if (finding.id == id) return &finding;
  }
  return nullptr;
}

// A Python loop launching short kernels: each launch call takes 8 us, each kernel runs 2 us as soon as
// it is launched, so the GPU waits 6 us (plus 2 us of Python) for every next kernel.
void LaunchBoundLoop(RecordBuilder& b, int kernels, base::TimeNs t0 = 0) {
  base::TimeNs t = t0;
  for (int i = 0; i < kernels; ++i) {
    b.Launch(kRelu, {t, t + 8'000}, {t + 7'000, t + 9'000});
    t += 10'000;
  }
}

TEST(IdleGapAnalyzer, FlagsALaunchBoundLoop) {
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  LaunchBoundLoop(b, 100);
  const Analyzed analyzed = Analyze(std::move(builder));
  ASSERT_EQ(analyzed.findings.size(), 1u);
  const Finding& finding = analyzed.findings[0];
  EXPECT_EQ(finding.id, "gpu.launch_bound");
  EXPECT_EQ(finding.severity, Severity::kCritical);
  // 99 gaps of 8 us in a window from the first kernel's start to the last one's end, 992 us.
  EXPECT_EQ(finding.time_ns, 99 * 8'000);
  EXPECT_EQ(finding.verdict,
            "GPU 0 is idle 79.8% of the time waiting for the host to launch kernels; without that wait the run "
            "would be up to 4.96x faster");
  ASSERT_GE(finding.evidence.size(), 6u);
  EXPECT_EQ(finding.evidence[0].value, "the whole trace (it marks no training steps)");
  EXPECT_EQ(finding.evidence[3].value, "2.00 us vs 8.00 us; 100 of 100 kernels ran for less time than their launch call took");
}

TEST(IdleGapAnalyzer, QueuedKernelsAreNotLaunchBound) {
  // The host launched everything up front; the GPU runs kernels back to back with 1 us of latency.
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  for (int i = 0; i < 100; ++i) {
    b.Launch(kRelu, {i * 100, i * 100 + 50}, {100'000 + i * 3'000, 100'000 + i * 3'000 + 2'000});
  }
  const Analyzed analyzed = Analyze(std::move(builder));
  EXPECT_TRUE(analyzed.findings.empty());
}

TEST(IdleGapAnalyzer, StaysQuietWithFewKernels) {
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  LaunchBoundLoop(b, 49);
  EXPECT_TRUE(Analyze(std::move(builder)).findings.empty());
}

TEST(IdleGapAnalyzer, LongHostGapsAreNotLaunchOverhead) {
  // Data loading between steps: 20 kernels queued back to back, then 5 ms of host work, five times.
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  base::TimeNs t = 0;
  for (int step = 0; step < 5; ++step) {
    for (int i = 0; i < 20; ++i) b.Launch(kGemm, {t + i * 100, t + i * 100 + 50}, {t + 5'000 + i * 50'000, t + 5'000 + i * 50'000 + 49'000});
    t += 20 * 50'000 + 5'000'000;
  }
  const Analyzed analyzed = Analyze(std::move(builder));
  EXPECT_TRUE(analyzed.findings.empty());

  const std::vector<KernelClass> classes = ClassifySignatures(analyzed.model);
  const IdleBreakdown idle =
      ClassifyIdleGaps(AnalysisInput{analyzed.model, classes}, model::DeviceRow(0), {0, base::kMaxTraceTime});
  EXPECT_EQ(idle.gaps[GapCause::kHostOther], 4u);
  EXPECT_EQ(idle.gaps[GapCause::kQueued], 95u);
  EXPECT_EQ(idle.gaps[GapCause::kHostLaunch], 0u);
}

// Each step: ten kernels queued, then loss.item(): a cudaMemcpyAsync into pageable memory that blocks
// until the GPU has drained; the next step's first launch comes 200 us after it returns.
void StepsWithItem(RecordBuilder& b, int steps) {
  base::TimeNs t = 0;
  for (int step = 0; step < steps; ++step) {
    const base::TimeNs step_start = t;
    const base::TimeNs gpu_start = t + 2'000;
    for (int i = 0; i < 10; ++i) {
      b.Launch(kGemm, {t + i * 1'000, t + i * 1'000 + 500}, {gpu_start + i * 100'000, gpu_start + i * 100'000 + 99'000});
    }
    const base::TimeNs drained = gpu_start + 10 * 100'000 - 1'000;
    b.Range("aten::item", t + 10'000, drained + 2'000, RangeCategory::kCpuOp);
    b.ApiCall("cudaMemcpyAsync", t + 11'000, drained + 1'000, b.NextCorrelation());
    b.Range("ProfilerStep#" + std::to_string(step), step_start, drained + 200'000, RangeCategory::kUserAnnotation);
    t = drained + 200'000;
  }
}

TEST(IdleGapAnalyzer, FlagsSyncsThatDrainTheQueue) {
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  StepsWithItem(b, 6);
  const Analyzed analyzed = Analyze(std::move(builder));
  const Finding* finding = FindId(analyzed.findings, "gpu.sync_stall");
  ASSERT_NE(finding, nullptr);
  EXPECT_EQ(FindId(analyzed.findings, "gpu.launch_bound"), nullptr);
  EXPECT_EQ(finding->severity, Severity::kWarning);
  ASSERT_EQ(finding->examples.size(), 1u);
  EXPECT_EQ(finding->examples[0], "cudaMemcpyAsync in aten::item: 5 times, 1.01 ms idle after");
  EXPECT_EQ(finding->evidence[1].value, "5, 0.8 per step");
}

TEST(IdleGapAnalyzer, SyncOnAnIdleGpuDrainsNothing) {
  // The same syncs, but issued after the GPU had already finished: they cost the host, not the GPU.
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  base::TimeNs t = 0;
  for (int step = 0; step < 60; ++step) {
    b.Launch(kGemm, {t, t + 500}, {t + 1'000, t + 2'000});
    b.ApiCall("cudaStreamSynchronize", t + 3'000, t + 3'500, b.NextCorrelation());
    t += 4'000;
  }
  const Analyzed analyzed = Analyze(std::move(builder));
  EXPECT_EQ(FindId(analyzed.findings, "gpu.sync_stall"), nullptr);
}

TEST(IdleGaps, NamesTheCallsThatCanBlock) {
  EXPECT_TRUE(IsBlockingCallName("cudaStreamSynchronize"));
  EXPECT_TRUE(IsBlockingCallName("cuCtxSynchronize"));
  EXPECT_TRUE(IsBlockingCallName("cudaMemcpyAsync"));
  EXPECT_TRUE(IsBlockingCallName("cudaFree"));
  EXPECT_FALSE(IsBlockingCallName("cudaFreeAsync"));
  EXPECT_FALSE(IsBlockingCallName("cudaLaunchKernel"));
  EXPECT_FALSE(IsBlockingCallName("cudaStreamWaitEvent")) << "waits on the GPU, not on the host";
}

}  // namespace
}  // namespace ampprof::analyzers
