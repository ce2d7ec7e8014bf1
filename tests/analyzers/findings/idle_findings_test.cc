// gpu.launch_bound, gpu.sync_stall and gpu.host_bound: the three findings that read the idle time of the
// step account by cause, on synthetic host/GPU timelines whose gaps are known.

#include <gtest/gtest.h>

#include "analyzers/facts/idle_gaps.h"
#include "analyzers/findings/host_bound_analyzer.h"
#include "analyzers/findings/launch_bound_analyzer.h"
#include "analyzers/findings/sync_stall_analyzer.h"
#include "src/model/model_builder.h"
#include "tests/analyzers/synthetic_run.h"
#include "tests/testing/record_builder.h"

namespace ampprof::analyzers {
namespace {

using records::RangeCategory;
using ampprof::testing::RecordBuilder;

constexpr const char* kRelu =
    "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::launch_clamp_scalar"
    "(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail::ClampLimits)::{lambda()#1}::"
    "operator()() const::{lambda()#8}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >"
    "(int, at::native::(anonymous namespace)::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, "
    "c10::Scalar, at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#8}::"
    "operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2>)";
constexpr const char* kGemm = "ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_nn";

using analyzers::testing::EvidenceText;
using analyzers::testing::Text;

struct Analyzed {
  model::TraceModel model;
  std::vector<Finding> findings;  // of the three analyzers
  std::unique_ptr<AnalysisInput> input;
};

Analyzed Analyze(model::ModelBuilder&& builder) {
  Analyzed result{std::move(builder).Build(), {}, nullptr};
  result.input = std::make_unique<AnalysisInput>(result.model);
  for (auto analyze : {&AnalyzeLaunchBound, &AnalyzeSyncStall, &AnalyzeHostBound}) {
    std::vector<Finding> found = analyze(*result.input);
    result.findings.insert(result.findings.end(), found.begin(), found.end());
  }
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

TEST(LaunchBound, FlagsALaunchBoundLoop) {
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  LaunchBoundLoop(b, 100);
  const Analyzed analyzed = Analyze(std::move(builder));
  ASSERT_EQ(analyzed.findings.size(), 1u);
  const Finding& finding = analyzed.findings[0];
  EXPECT_EQ(finding.id, "gpu.launch_bound");
  EXPECT_EQ(finding.severity, Severity::kCritical);
  // 99 gaps of 8 us in a window from the first kernel's start to the last one's end, 992 us.
  EXPECT_EQ(finding.saving.ns, 99 * 8'000) << "no steps: the saving is over the whole analysed window";
  EXPECT_NEAR(finding.saving.fraction, 792.0 / 992.0, 1e-9);
  EXPECT_EQ(Text(finding.verdict), "GPU 0 waits for the host to launch kernels 79.8% of the time (792 us of 992 us)");
  EXPECT_EQ(EvidenceText(finding, "examined"), "the whole trace (it marks no training steps): 992 us of GPU time");
  EXPECT_EQ(EvidenceText(finding, "median kernel vs launch call"),
            "2.00 us vs 8.00 us; 100 of 100 kernels ran for less time than their launch call");
  EXPECT_EQ(EvidenceText(finding, "without the launch waits"),
            "the run would take 200 us instead of 992 us, up to 4.96x faster");
}

TEST(LaunchBound, LocatesTheLongestLaunchWaitsBetweenTheKernels) {
  // As LaunchBoundLoop, but the host pauses longer before every tenth launch: those waits are longest.
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  base::TimeNs t = 0;
  for (int i = 0; i < 100; ++i) {
    if (i % 10 == 0 && i > 0) t += 5'000 * (i / 10);  // 5 us more before kernel 10, 10 us before 20, ...
    b.Launch(kRelu, {t, t + 8'000}, {t + 7'000, t + 9'000});
    t += 10'000;
  }
  const Analyzed analyzed = Analyze(std::move(builder));
  const Finding* finding = FindId(analyzed.findings, "gpu.launch_bound");
  ASSERT_NE(finding, nullptr);
  ASSERT_EQ(finding->locations.size(), kMaxLocations);
  EXPECT_EQ(finding->locations_left_out, 99 - kMaxLocations) << "99 gaps, all launch waits";
  const model::KernelTable& kernels = analyzed.model.kernels();
  // The nine lengthened waits first, longest first (kernel 90's: 8 + 45 us), then 8 us ones.
  EXPECT_EQ(finding->locations[0].interval,
            (base::Interval{kernels.end[model::KernelRow(89)], kernels.start[model::KernelRow(90)]}));
  EXPECT_EQ(finding->locations[0].interval.duration(), 53'000);
  for (size_t i = 0; i < finding->locations.size(); ++i) {
    const Location& location = finding->locations[i];
    EXPECT_EQ(location.kind, LocationKind::kLaunchWait);
    EXPECT_EQ(location.device_id, 0);
    EXPECT_EQ(location.stream_id, -1) << "a gap is the whole device's";
    EXPECT_EQ(location.interval.duration(), i < 9 ? 8'000 + 5'000 * static_cast<int64_t>(9 - i) : 8'000);
    // Each is exactly the time between one kernel's end and the next one's start.
    bool between_kernels = false;
    for (uint32_t k = 0; k + 1 < kernels.size(); ++k) {
      between_kernels |= kernels.end[model::KernelRow(k)] == location.interval.start &&
                         kernels.start[model::KernelRow(k + 1)] == location.interval.end;
    }
    EXPECT_TRUE(between_kernels) << "location " << i << " at " << location.interval.start;
  }
}

TEST(LaunchBound, QueuedKernelsAreNotLaunchBound) {
  // The host launched everything up front; the GPU runs kernels back to back with 1 us of latency.
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  for (int i = 0; i < 100; ++i) {
    b.Launch(kRelu, {i * 100, i * 100 + 50}, {100'000 + i * 3'000, 100'000 + i * 3'000 + 2'000});
  }
  const Analyzed analyzed = Analyze(std::move(builder));
  EXPECT_TRUE(analyzed.findings.empty());
}

TEST(LaunchBound, StaysQuietWithFewKernels) {
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  LaunchBoundLoop(b, 49);
  EXPECT_TRUE(Analyze(std::move(builder)).findings.empty());
}

TEST(HostBound, LongHostGapsAreTheHostsOtherWorkNotLaunchOverhead) {
  // Data loading between steps: 20 kernels queued back to back, then 5 ms of host work, five times.
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  base::TimeNs t = 0;
  for (int step = 0; step < 5; ++step) {
    for (int i = 0; i < 20; ++i) b.Launch(kGemm, {t + i * 100, t + i * 100 + 50}, {t + 5'000 + i * 50'000, t + 5'000 + i * 50'000 + 49'000});
    t += 20 * 50'000 + 5'000'000;
  }
  const Analyzed analyzed = Analyze(std::move(builder));
  const DeviceAccount& gpu = analyzed.input->account().devices.at(0);
  EXPECT_EQ(gpu.gaps[GapCause::kHostOther], 4u);
  EXPECT_EQ(gpu.gaps[GapCause::kQueued], 95u);
  EXPECT_EQ(gpu.gaps[GapCause::kHostLaunch], 0u);
  // 100 kernels: enough for a loop. Four gaps of 5.00 ms between the five bursts.
  ASSERT_EQ(analyzed.findings.size(), 1u);
  const Finding& finding = analyzed.findings[0];
  EXPECT_EQ(finding.id, "gpu.host_bound");
  EXPECT_EQ(finding.severity, Severity::kCritical);
  EXPECT_EQ(finding.saving.ns, gpu.total.idle[GapCause::kHostOther]);
  EXPECT_EQ(EvidenceText(finding, "host meanwhile: host code outside any recorded range"),
            "20.0 ms (100.0% of the host-busy time; in 4 gaps)")
      << "no range covers the host's time";
}

// Each step: the host loads a batch for 30 ms inside an enumerate(DataLoader) range while the GPU idles,
// then launches 20 kernels of 1 ms that run back to back.
void DataLoaderSteps(RecordBuilder& b, int steps, base::DurationNs loading_ns) {
  base::TimeNs t = 0;
  for (int step = 0; step < steps; ++step) {
    const base::TimeNs start = t;
    b.Range("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", t, t + loading_ns,
            RangeCategory::kUserAnnotation);
    t += loading_ns;
    const base::TimeNs gpu_start = t + 10'000;
    for (int i = 0; i < 20; ++i) {
      b.Launch(kGemm, {t + i * 1'000, t + i * 1'000 + 500}, {gpu_start + i * 1'000'000, gpu_start + (i + 1) * 1'000'000});
    }
    t = gpu_start + 20 * 1'000'000;  // loss.item() waits for the GPU
    b.Range("ProfilerStep#" + std::to_string(step), start, t, RangeCategory::kUserAnnotation);
  }
}

TEST(HostBound, NamesTheDataLoaderAndItsFix) {
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  DataLoaderSteps(b, 8, 30'000'000);
  const Analyzed analyzed = Analyze(std::move(builder));
  const Finding* finding = FindId(analyzed.findings, "gpu.host_bound");
  ASSERT_NE(finding, nullptr);
  EXPECT_EQ(finding->severity, Severity::kCritical);
  // Each step: 30 ms loading + 10 us until the first kernel + 20 ms of kernels; the loading and the
  // 10 us before the kernel are the host's gap.
  EXPECT_EQ(finding->saving.ns, 30'010'000);
  EXPECT_EQ(Text(finding->verdict),
            "GPU 0 is idle 60.0% of the step while the host does other work than launching (30.0 ms per step), "
            "mostly data loading (DataLoader)");
  EXPECT_EQ(EvidenceText(*finding, "host meanwhile: data loading (DataLoader)"),
            "240 ms (100.0% of the host-busy time; in 8 gaps)");
  EXPECT_NE(finding->fix_code.find("num_workers"), std::string::npos) << finding->fix_code;
  EXPECT_NE(finding->fix_code.find("pin_memory=True"), std::string::npos) << finding->fix_code;
  // Located at the loading gaps: from the step's start (the GPU idle since the last step) to its
  // first kernel, 30.01 ms each.
  ASSERT_EQ(finding->locations.size(), 8u);
  for (const Location& location : finding->locations) {
    EXPECT_EQ(location.kind, LocationKind::kIdleGap);
    EXPECT_EQ(location.interval.duration(), 30'010'000);
  }
}

TEST(HostBound, QuietWhenTheLoaderKeepsUp) {
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  DataLoaderSteps(b, 8, 1'500'000);  // 1.5 ms of 21.5: 7%
  const Analyzed analyzed = Analyze(std::move(builder));
  EXPECT_EQ(FindId(analyzed.findings, "gpu.host_bound"), nullptr);
}

// Each step: ten kernels queued, then loss.item(): a cudaMemcpyAsync into pageable memory that blocks
// until the GPU has drained; the next step's first launch comes 200 us after it returns.
void StepsWithItem(RecordBuilder& b, int steps, bool mark_steps = true) {
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
    if (mark_steps) {
      b.Range("ProfilerStep#" + std::to_string(step), step_start, drained + 200'000, RangeCategory::kUserAnnotation);
    }
    t = drained + 200'000;
  }
}

TEST(SyncStall, FlagsSyncsThatDrainTheQueue) {
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  StepsWithItem(b, 6);
  const Analyzed analyzed = Analyze(std::move(builder));
  const Finding* finding = FindId(analyzed.findings, "gpu.sync_stall");
  ASSERT_NE(finding, nullptr);
  EXPECT_EQ(FindId(analyzed.findings, "gpu.launch_bound"), nullptr);
  EXPECT_EQ(finding->severity, Severity::kWarning);
  ASSERT_EQ(finding->examples.size(), 1u);
  // The last step's drain ends the trace: no kernel follows it, so its gap has no cause to give.
  EXPECT_EQ(finding->examples[0], "cudaMemcpyAsync in aten::item: 5 times");
  EXPECT_EQ(EvidenceText(*finding, "draining syncs"), "5, 0.8 per step");
}

TEST(SyncStall, LocatesTheGapsAfterEachSync) {
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  StepsWithItem(b, 6);
  const Analyzed analyzed = Analyze(std::move(builder));
  const Finding* finding = FindId(analyzed.findings, "gpu.sync_stall");
  ASSERT_NE(finding, nullptr);
  // Step k drains at 1,001 us + k x 1,201 us (its last kernel's end, where the copy call returns); the
  // next step's first kernel starts 202 us later. The last drain ends the trace: no gap follows it.
  ASSERT_EQ(finding->locations.size(), 5u);
  EXPECT_EQ(finding->locations_left_out, 0u);
  for (size_t k = 0; k < finding->locations.size(); ++k) {
    const Location& location = finding->locations[k];  // all as long: in time order
    const base::TimeNs drained = 1'001'000 + static_cast<base::TimeNs>(k) * 1'201'000;
    EXPECT_EQ(location.interval, (base::Interval{drained, drained + 202'000})) << "sync " << k;
    EXPECT_EQ(location.kind, LocationKind::kHostSync);
    EXPECT_EQ(location.label, "after cudaMemcpyAsync in aten::item");
  }
}

TEST(SyncStall, LocatesOnlyTheGapsItCountsThoseADrainingCallLeft) {
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  StepsWithItem(b, 6);
  const Analyzed analyzed = Analyze(std::move(builder));
  // The account names the draining call of each sync gap it finds; one without a call (an account
  // doctored here) is no sync's gap: the finding neither counts it among the syncs nor points at it.
  DeviceAccount gpu = analyzed.input->account().devices.at(0);
  ASSERT_EQ(gpu.host_gaps.size(), 5u);
  AccountedGap unexplained;
  unexplained.interval = {100'000, 600'000};  // longer than the real ones: it would be kept first
  unexplained.cause = GapCause::kHostSync;
  gpu.host_gaps.insert(gpu.host_gaps.begin(), unexplained);
  DrainingSyncs counted = CountDrainingSyncs(*analyzed.input, gpu);
  EXPECT_EQ(counted.syncs, 5u);
  ASSERT_EQ(counted.by_origin.size(), 1u);
  EXPECT_EQ(counted.by_origin.begin()->second.count, 5u);
  Finding finding;
  std::move(counted.locations).MoveInto(finding);
  ASSERT_EQ(finding.locations.size(), 5u) << "one per sync counted";
  EXPECT_EQ(finding.locations_left_out, 0u);
  for (const Location& location : finding.locations) {
    EXPECT_EQ(location.label, "after cudaMemcpyAsync in aten::item");
    EXPECT_EQ(location.interval.duration(), 202'000);
  }
}

TEST(SyncStall, CountsSyncsOverTheWindowWhenTheTraceHasNoSteps) {
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  StepsWithItem(b, 2, /*mark_steps=*/false);
  const Analyzed analyzed = Analyze(std::move(builder));
  ASSERT_NE(analyzed.input->account().basis, AccountBasis::kMeasuredSteps) << "the test needs a trace without steps";
  const Finding* finding = FindId(analyzed.findings, "gpu.sync_stall");
  ASSERT_NE(finding, nullptr);
  EXPECT_EQ(EvidenceText(*finding, "draining syncs"), "1 over the analysed window") << "not '1, 1.0 per step'";
}

TEST(SyncStall, SyncOnAnIdleGpuDrainsNothing) {
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
