#include "analyzers/findings/launch_bound_analyzer.h"

#include <algorithm>

#include "analyzers/findings/finding_locations.h"
#include "analyzers/findings/finding_support.h"

namespace ampprof::analyzers {
namespace {

using base::DurationNs;

// 15% of the step lost to launch waits is where removing launch overhead (CUDA Graphs, a bigger batch)
// buys a 1.18x speed-up or more: worth a code change.
constexpr double kWarningShare = 0.15;
// Fewer kernels than this are a probe or a test trace, not a training loop that could be launch-bound.
constexpr uint64_t kMinKernels = 50;
// A step more than ten times faster without the waits is no longer a speed-up to quote: the GPU simply
// idles most of the time, and that is what the finding says.
constexpr double kLargestQuotedSpeedup = 10.0;

template <typename T>
T Median(std::vector<T> values) {
  if (values.empty()) return T{};
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}

struct KernelTiming {
  DurationNs median_kernel = 0;
  DurationNs median_launch = 0;
  uint64_t shorter_than_launch = 0;  // kernels that ran for less time than the call that launched them
  uint64_t with_launch = 0;
};

KernelTiming MeasureKernels(const AnalysisInput& input, const DeviceAccount& gpu) {
  const model::TraceModel& model = input.model;
  std::vector<DurationNs> kernel_durations;
  std::vector<DurationNs> launch_durations;
  KernelTiming timing;
  for (model::KernelRow kernel : KernelsInWindow(input, gpu)) {
    const DurationNs duration = model.kernels().duration(kernel);
    kernel_durations.push_back(duration);
    const model::ApiCallRow launch = model.kernels().launch[kernel];
    if (!launch.valid()) continue;
    const DurationNs launch_duration = model.api_calls().duration(launch);
    launch_durations.push_back(launch_duration);
    ++timing.with_launch;
    if (duration < launch_duration) ++timing.shorter_than_launch;
  }
  timing.median_kernel = Median(std::move(kernel_durations));
  timing.median_launch = Median(std::move(launch_durations));
  return timing;
}

}  // namespace

std::vector<Finding> AnalyzeLaunchBound(const AnalysisInput& input) {
  std::vector<Finding> findings;
  const StepAccount& account = input.account();
  for (const DeviceAccount& gpu : account.devices) {
    const DurationNs waits = gpu.total.idle[GapCause::kHostLaunch];
    const double share = gpu.Share(waits);
    if (gpu.kernels < kMinKernels || share < kWarningShare) continue;
    const KernelTiming timing = MeasureKernels(input, gpu);
    const bool per_step = account.basis == AccountBasis::kMeasuredSteps;

    Finding finding;
    finding.id = "gpu.launch_bound";
    finding.device_id = DeviceIdOf(input, gpu);
    finding.saving = SavingOf(gpu, waits, "the GPU's idle time waiting for launches, which CUDA Graphs or more work "
                                          "per launch remove");
    finding.severity = SeverityForSaving(finding.saving.fraction, kWarningShare, kCriticalSaving);
    finding.verdict = Statement(
        per_step ? "GPU {device} waits for the host to launch kernels {share} of the step ({waits} per step)"
                 : "GPU {device} waits for the host to launch kernels {share} of the time ({waits} of {window})",
        {Count("device", static_cast<uint64_t>(finding.device_id)), Fraction("share", share),
         Duration("waits", finding.saving.ns), Duration("window", gpu.window_ns())});
    finding.evidence.push_back({"examined", Examined(input, gpu)});
    finding.evidence.push_back({"GPU busy", Statement("{busy} of the time (a kernel running)",
                                                      {Fraction("busy", gpu.Share(gpu.total.busy_ns()))})});
    finding.evidence.push_back(
        {"idle, waiting for launches",
         Statement("{idle} in {gaps:gap}, {per_step} " + std::string(PerStepWords(account)),
                   {Duration("idle", waits), Count("gaps", gpu.gaps[GapCause::kHostLaunch]),
                    Duration("per_step", finding.saving.ns)})});
    finding.evidence.push_back(
        {"median kernel vs launch call",
         Statement("{kernel} vs {launch}; {shorter} of {kernels:kernel} ran for less time than their launch call",
                   {Duration("kernel", timing.median_kernel), Duration("launch", timing.median_launch),
                    Count("shorter", timing.shorter_than_launch), Count("kernels", timing.with_launch)})});
    if (per_step) {
      finding.evidence.push_back(
          {"kernels", Statement("{per_step} per step", {Number("per_step", static_cast<double>(gpu.kernels) /
                                                                               static_cast<double>(gpu.steps()))})});
    }
    const DurationNs without = gpu.window_ns() - waits;
    const double speedup = without > 0 ? static_cast<double>(gpu.window_ns()) / static_cast<double>(without) : 0.0;
    if (speedup > 0 && speedup <= kLargestQuotedSpeedup) {
      finding.evidence.push_back(
          {"without the launch waits",
           Statement(per_step ? "the steps would take {without} instead of {mean} on average, up to {speedup} faster"
                              : "the run would take {without} instead of {mean}, up to {speedup} faster",
                     {Duration("without", gpu.PerStep(without)), Duration("mean", gpu.PerStep(gpu.window_ns())),
                      Ratio("speedup", speedup)})});
    } else {
      finding.evidence.push_back(
          {"without the launch waits",
           Statement("the GPU is idle {share} of the time: the host, not the GPU, sets the pace of the run",
                     {Fraction("share", share)})});
    }
    for (GapCause other : {GapCause::kHostSync, GapCause::kHostOther, GapCause::kQueued, GapCause::kAutotuning,
                           GapCause::kUnattributed}) {
      if (gpu.gaps[other] == 0) continue;
      finding.evidence.push_back({"idle, " + std::string(GapCauseName(other)),
                                  Statement("{idle} in {gaps:gap} ({share})",
                                            {Duration("idle", gpu.total.idle[other]), Count("gaps", gpu.gaps[other]),
                                             Fraction("share", gpu.Share(gpu.total.idle[other]))})});
    }
    // The longest waits, which the account kept: where a timeline shows the GPU starved.
    LocationList locations(gpu.window());
    for (const base::Interval& wait : gpu.longest_launch_waits) {
      locations.Add({wait, LocationKind::kLaunchWait, finding.device_id, -1, "waiting for the host to launch"});
    }
    locations.CountLeftOut(gpu.gaps[GapCause::kHostLaunch] - gpu.longest_launch_waits.size());
    std::move(locations).MoveInto(finding);
    findings.push_back(std::move(finding));
  }
  return findings;
}

}  // namespace ampprof::analyzers
