#include "analyzers/findings/idle_gap_analyzer.h"

#include <algorithm>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "analyzers/facts/idle_gaps.h"
#include "analyzers/facts/steps.h"
#include "src/base/format.h"
#include "src/model/queries.h"

namespace ampprof::analyzers {
namespace {

using base::DurationNs;
using base::FormatCount;
using base::FormatDuration;
using base::FormatPercent;

// Launch-bound: a quarter of the examined time lost to launches is the point where removing launch
// overhead (CUDA Graphs, a bigger batch) buys a 1.33x speed-up or more: worth a code change.
constexpr double kLaunchBoundShare = 0.25;
// From half, the host sets the pace of the step: AMP cannot make such a run faster.
constexpr double kLaunchBoundCriticalShare = 0.50;
// Fewer kernels than this are a probe or a test trace, not a training loop that could be launch-bound.
constexpr uint64_t kMinKernels = 50;
// Sync stall: a twentieth of the time spent refilling a drained queue is visible in step time.
constexpr double kSyncStallShare = 0.05;
constexpr double kSyncStallCriticalShare = 0.20;
constexpr size_t kExamples = 3;

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

KernelTiming MeasureKernels(const model::TraceModel& model, model::DeviceRow device, base::Interval window) {
  std::vector<DurationNs> kernel_durations;
  std::vector<DurationNs> launch_durations;
  KernelTiming timing;
  for (model::KernelRow kernel : model.device(device).kernels) {
    if (model.kernels().start[kernel] < window.start || model.kernels().start[kernel] >= window.end) continue;
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

// What the examined window is: the measured steps when the trace marks steps, else everything.
base::Interval Window(const std::optional<Steps>& steps) {
  if (!steps || steps->measured().empty()) return {0, base::kMaxTraceTime};
  return {steps->measured().front().start, steps->measured().back().end};
}

std::string PerStep(double value_per_window, const std::optional<Steps>& steps, auto format) {
  if (!steps || steps->measured().empty()) return "";
  return fmt::format(", {} per step", format(value_per_window / static_cast<double>(steps->measured().size())));
}

std::string IdleLine(const IdleBreakdown& idle, GapCause cause) {
  return fmt::format("{} in {} gaps ({} of the time)", FormatDuration(idle.idle[cause]),
                     FormatCount(static_cast<int64_t>(idle.gaps[cause])), FormatPercent(idle.Share(cause)));
}

std::string StepsLine(const std::optional<Steps>& steps) {
  if (!steps) return "the whole trace (it marks no training steps)";
  return fmt::format("{} measured steps from {}{}, median {}", steps->measured().size(),
                     StepSourceName(steps->source),
                     steps->warmup > 0 ? fmt::format(" ({} warm-up steps left out)", steps->warmup) : "",
                     FormatDuration(steps->MedianDuration()));
}

std::optional<Finding> LaunchBound(const AnalysisInput& input, const model::Device& device, model::DeviceRow row,
                                   const IdleBreakdown& idle, const std::optional<Steps>& steps) {
  const double share = idle.Share(GapCause::kHostLaunch);
  if (idle.kernels < kMinKernels || share < kLaunchBoundShare) return std::nullopt;
  const KernelTiming timing = MeasureKernels(input.model, row, idle.window);
  const DurationNs window = idle.window_ns();
  const DurationNs without_launch_waits = window - idle.idle[GapCause::kHostLaunch];
  const double speedup_bound =
      without_launch_waits > 0 ? static_cast<double>(window) / static_cast<double>(without_launch_waits) : 1.0;

  Finding finding;
  finding.id = "gpu.launch_bound";
  finding.severity = share >= kLaunchBoundCriticalShare ? Severity::kCritical : Severity::kWarning;
  finding.verdict = fmt::format(
      "GPU {} is idle {} of the time waiting for the host to launch kernels; without that wait the {} "
      "would be up to {:.2f}x faster",
      device.device_id, FormatPercent(share), steps ? "steps" : "run", speedup_bound);
  finding.evidence = {
      {"examined", StepsLine(steps)},
      {"GPU busy", fmt::format("{} of {}", FormatPercent(static_cast<double>(idle.busy) / static_cast<double>(window)),
                               FormatDuration(window))},
      {"idle, waiting for launches", IdleLine(idle, GapCause::kHostLaunch)},
      {"median kernel vs launch call",
       fmt::format("{} vs {}; {} of {} kernels ran for less time than their launch call took",
                   FormatDuration(timing.median_kernel), FormatDuration(timing.median_launch),
                   FormatCount(static_cast<int64_t>(timing.shorter_than_launch)),
                   FormatCount(static_cast<int64_t>(timing.with_launch)))},
      {"kernels", fmt::format("{}{}", FormatCount(static_cast<int64_t>(idle.kernels)),
                              PerStep(static_cast<double>(idle.kernels), steps,
                                      [](double v) { return FormatCount(static_cast<int64_t>(v + 0.5)); }))},
      {"speed-up bound", fmt::format("{:.2f}x if every launch wait disappeared (CUDA Graphs replay the whole "
                                     "step with one launch)",
                                     speedup_bound)},
  };
  for (GapCause other : {GapCause::kHostSync, GapCause::kHostOther, GapCause::kQueued, GapCause::kUnattributed}) {
    if (idle.gaps[other] > 0) finding.evidence.push_back({fmt::format("idle, {}", GapCauseName(other)), IdleLine(idle, other)});
  }
  finding.time_ns = idle.idle[GapCause::kHostLaunch];
  return finding;
}

std::optional<Finding> SyncStall(const AnalysisInput& input, const model::Device& device, const IdleBreakdown& idle,
                                 const std::optional<Steps>& steps) {
  const double share = idle.Share(GapCause::kHostSync);
  if (idle.draining_syncs.empty() || share < kSyncStallShare) return std::nullopt;
  const model::TraceModel& model = input.model;
  // Which calls drained the queue, and from which op (tensor.item() shows up as aten::item).
  std::map<std::string, std::pair<uint64_t, DurationNs>> by_origin;
  for (const auto& [call, gap] : idle.draining_syncs) {
    const model::ThreadRow thread = model.api_calls().thread[call];
    const model::RangeRow op = model::InnermostRangeAt(model, thread, model.api_calls().start[call]);
    std::string origin(model.Text(model.api_calls().name[call]));
    if (op.valid()) origin = fmt::format("{} in {}", origin, model.RangeName(op));
    auto& [count, total] = by_origin[origin];
    ++count;
    total += gap;
  }
  std::vector<std::pair<std::string, std::pair<uint64_t, DurationNs>>> origins(by_origin.begin(), by_origin.end());
  std::sort(origins.begin(), origins.end(), [](const auto& a, const auto& b) { return a.second.second > b.second.second; });

  const uint64_t syncs = idle.draining_syncs.size();
  Finding finding;
  finding.id = "gpu.sync_stall";
  finding.severity = share >= kSyncStallCriticalShare ? Severity::kCritical : Severity::kWarning;
  finding.verdict = fmt::format("{} host synchronisations drained GPU {}'s queue; refilling it left the GPU idle {} of the time",
                                FormatCount(static_cast<int64_t>(syncs)), device.device_id, FormatPercent(share));
  finding.evidence = {
      {"examined", StepsLine(steps)},
      {"draining syncs", fmt::format("{}{}", FormatCount(static_cast<int64_t>(syncs)),
                                     PerStep(static_cast<double>(syncs), steps,
                                             [](double v) { return fmt::format("{:.1f}", v); }))},
      {"idle after them", fmt::format("{}{}", IdleLine(idle, GapCause::kHostSync),
                                      PerStep(static_cast<double>(idle.idle[GapCause::kHostSync]), steps,
                                              [](double v) { return FormatDuration(static_cast<DurationNs>(v)); }))},
  };
  for (size_t i = 0; i < origins.size() && i < kExamples; ++i) {
    finding.examples.push_back(fmt::format("{}: {} times, {} idle after", origins[i].first,
                                           FormatCount(static_cast<int64_t>(origins[i].second.first)),
                                           FormatDuration(origins[i].second.second)));
  }
  finding.time_ns = idle.idle[GapCause::kHostSync];
  return finding;
}

}  // namespace

std::vector<Finding> AnalyzeIdleGaps(const AnalysisInput& input) {
  const std::optional<Steps>& steps = input.steps();
  const base::Interval window = Window(steps);
  std::vector<Finding> findings;
  for (uint32_t i = 0; i < input.model.devices().size(); ++i) {
    const model::DeviceRow row(i);
    const model::Device& device = input.model.device(row);
    if (device.kernels.empty()) continue;
    const IdleBreakdown idle = ClassifyIdleGaps(input, row, window);
    if (idle.window_ns() <= 0) continue;
    if (auto finding = LaunchBound(input, device, row, idle, steps)) findings.push_back(std::move(*finding));
    if (auto finding = SyncStall(input, device, idle, steps)) findings.push_back(std::move(*finding));
  }
  return findings;
}

}  // namespace ampprof::analyzers
