#include "analyzers/facts/steps.h"

#include "analyzers/facts/analysis_input.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "src/model/queries.h"

namespace ampprof::analyzers {
namespace {

using base::DurationNs;
using base::Interval;
using base::TimeNs;

// A user range is taken for the training step only when it encloses at least this share of all kernel
// launches: "forward" and "backward" ranges enclose about half each and are parts of a step.
constexpr double kMinUserRangeLaunchShare = 0.6;
// A kernel recurring with the same number of kernels between occurrences marks a loop iteration when
// at least this share of its periods have the modal length (the first iteration often differs: cuDNN
// autotuning, lazy module loading).
constexpr double kMinRegularPeriodShare = 0.8;
// A loop body shorter than this many kernels is a repeated op inside a step, not a training step.
constexpr size_t kMinKernelsPerPeriod = 4;
// Training steps are (nearly) all of a training trace; a repeating run that leaves much of the trace
// outside is the layers of one model (a transformer block repeated L times), not the loop. Unless every
// period updates the weights (an optimizer kernel in each): layers never do, and then what lies outside
// is setup, such as cuDNN's algorithm search before the loop (an H100 trace of the CUDA sample
// grouped_conv in FP32: 18,513 search kernels, then 110 steps of 21 kernels, 11% of the trace).
constexpr double kMinLoopCoverage = 0.7;
// The kernel sequence repeats at a step's length: at least this share of kernels equal the one a period
// later (an H100 trace of a 5-layer MLP: 99.9% at the step's 36 kernels, 25% at its layers' 6).
constexpr double kMinSequenceRepeatShare = 0.9;

DurationNs Percentile(std::span<const Interval> steps, double fraction) {
  if (steps.empty()) return 0;
  std::vector<DurationNs> durations;
  durations.reserve(steps.size());
  for (const Interval& step : steps) durations.push_back(step.duration());
  const size_t index = std::min(durations.size() - 1, static_cast<size_t>(fraction * static_cast<double>(durations.size())));
  std::nth_element(durations.begin(), durations.begin() + static_cast<std::ptrdiff_t>(index), durations.end());
  return durations[index];
}

// Ranges in start order, each starting at or after the previous one's end: a loop, not nested calls.
bool Disjoint(std::span<const Interval> intervals) {
  for (size_t i = 1; i < intervals.size(); ++i) {
    if (intervals[i].start < intervals[i - 1].end) return false;
  }
  return true;
}

Steps FromRanges(const model::TraceModel& model, std::span<const model::RangeRow> rows, StepSource source,
                 std::string label) {
  Steps steps;
  steps.source = source;
  steps.label = std::move(label);
  steps.host_time = true;
  for (model::RangeRow row : rows) steps.intervals.push_back({model.ranges().start[row], model.ranges().end[row]});
  std::sort(steps.intervals.begin(), steps.intervals.end(),
            [](const Interval& a, const Interval& b) { return a.start < b.start; });
  return steps;
}

std::optional<Steps> AmpprofStepRanges(const model::TraceModel& model) {
  std::vector<model::RangeRow> rows;
  for (uint32_t i = 0; i < model.ranges().size(); ++i) {
    const model::RangeRow row(i);
    const model::RangeLabel& label = model.label(row);
    if (IsAmpprofRange(model, label, "step")) rows.push_back(row);
  }
  if (rows.size() < kMinSteps) return std::nullopt;
  Steps steps = FromRanges(model, rows, StepSource::kAmpprofRange, "ampprof step");
  if (!Disjoint(steps.intervals)) return std::nullopt;
  return steps;
}

std::optional<Steps> ProfilerStepRanges(const model::TraceModel& model) {
  const std::vector<model::RangeRow> rows = model::StepRanges(model);
  if (rows.size() < kMinSteps) return std::nullopt;
  Steps steps = FromRanges(model, rows, StepSource::kProfilerStep, "ProfilerStep#N");
  if (!Disjoint(steps.intervals)) return std::nullopt;
  return steps;
}

// The start times of the calls that launched kernels, per thread, sorted.
std::unordered_map<uint32_t, std::vector<TimeNs>> LaunchStartsByThread(const model::TraceModel& model) {
  std::unordered_map<uint32_t, std::vector<TimeNs>> starts;
  for (uint32_t i = 0; i < model.kernels().size(); ++i) {
    const model::ApiCallRow launch = model.kernels().launch[model::KernelRow(i)];
    if (!launch.valid()) continue;
    starts[model.api_calls().thread[launch].value].push_back(model.api_calls().start[launch]);
  }
  for (auto& [thread, times] : starts) std::sort(times.begin(), times.end());
  return starts;
}

size_t CountInside(std::span<const TimeNs> sorted_times, std::span<const Interval> sorted_intervals) {
  size_t count = 0;
  for (const Interval& interval : sorted_intervals) {
    const auto first = std::lower_bound(sorted_times.begin(), sorted_times.end(), interval.start);
    const auto last = std::lower_bound(first, sorted_times.end(), interval.end);
    count += static_cast<size_t>(last - first);
  }
  return count;
}

std::optional<Steps> UserRanges(const model::TraceModel& model) {
  // Candidate loops: (label, thread) pairs of NVTX or record_function ranges.
  std::map<std::pair<uint32_t, uint32_t>, std::vector<model::RangeRow>> candidates;
  for (uint32_t i = 0; i < model.ranges().size(); ++i) {
    const model::RangeRow row(i);
    const model::RangeLabel& label = model.label(row);
    if (label.category == records::RangeCategory::kCpuOp) continue;
    const std::string_view name = model.Text(label.name);
    if (name.starts_with("ProfilerStep#") || IsAmpprofRange(model, label)) continue;
    candidates[{model.ranges().label[row].value, model.ranges().thread[row].value}].push_back(row);
  }
  const auto launches = LaunchStartsByThread(model);
  size_t all_launches = 0;
  for (const auto& [thread, times] : launches) all_launches += times.size();
  if (all_launches == 0) return std::nullopt;

  std::optional<Steps> best;
  size_t best_covered = 0;
  for (const auto& [key, rows] : candidates) {
    if (rows.size() < kMinSteps) continue;
    const auto thread_launches = launches.find(key.second);
    if (thread_launches == launches.end()) continue;
    Steps steps = FromRanges(model, rows, StepSource::kUserRange, std::string(model.RangeName(rows.front())));
    if (!Disjoint(steps.intervals)) continue;
    const size_t covered = CountInside(thread_launches->second, steps.intervals);
    if (static_cast<double>(covered) < kMinUserRangeLaunchShare * static_cast<double>(all_launches)) continue;
    if (covered > best_covered) {
      best_covered = covered;
      best = std::move(steps);
    }
  }
  return best;
}

// Steps that each end with one occurrence of `boundary` kernels: (end of one, end of the next].
Steps EndingWith(const model::TraceModel& model, std::span<const model::KernelRow> boundaries,
                 StepSource source, std::string label) {
  Steps steps;
  steps.source = source;
  steps.label = std::move(label);
  steps.host_time = false;
  // Boundaries come in start order, but on several streams one may end before the previous one does:
  // that occurrence closes no step (found by tests/fuzz: it made a step of negative duration).
  base::TimeNs last_end = 0;
  bool first = true;
  for (const model::KernelRow boundary : boundaries) {
    const base::TimeNs end = model.kernels().end[boundary];
    if (!first && end <= last_end) continue;
    if (!first) steps.intervals.push_back({last_end, end});
    last_end = end;
    first = false;
  }
  return steps;
}

std::optional<Steps> ScalerUpdates(const AnalysisInput& input, model::DeviceRow device) {
  const model::TraceModel& model = input.model;
  std::vector<model::KernelRow> updates;
  for (model::KernelRow kernel : model.device(device).kernels) {
    if (input.ClassOf(kernel).category == KernelCategory::kGradScaler &&
        model.KernelName(kernel).find("amp_update_scale") != std::string_view::npos) {
      updates.push_back(kernel);
    }
  }
  // n updates bound n - 1 whole steps.
  if (updates.size() < kMinSteps + 1) return std::nullopt;
  return EndingWith(model, updates, StepSource::kScalerUpdate, "amp_update_scale kernel");
}

// The share of positions in [first, last) whose kernel is the same as the one `period` positions later.
// A training step's kernel sequence repeats at its own length; a layer's kernels repeat at the layer's
// length only inside the run of layers, not across the loss, the optimizer or the other direction's
// layers. At most kMaxRepeatSamples positions are compared, evenly spread, so that a long trace costs
// the same as a short one.
constexpr size_t kMaxRepeatSamples = 20000;
double RepeatShare(std::span<const uint32_t> sequence, size_t first, size_t last, size_t period) {
  if (last > sequence.size() || last < first + period + 1) return 0.0;
  const size_t positions = last - period - first;
  const size_t stride = std::max<size_t>(1, positions / kMaxRepeatSamples);
  size_t compared = 0;
  size_t equal = 0;
  for (size_t i = first; i + period < last; i += stride) {
    ++compared;
    if (sequence[i] == sequence[i + period]) ++equal;
  }
  return compared == 0 ? 0.0 : static_cast<double>(equal) / static_cast<double>(compared);
}

std::optional<Steps> RepeatingKernels(const AnalysisInput& input, model::DeviceRow device) {
  const model::TraceModel& model = input.model;
  const model::RowRange<model::KernelRow> kernels = model.device(device).kernels;
  // The device's kernel sequence by name, the positions of each name in it, and how many optimizer
  // kernels come before each position.
  std::vector<uint32_t> sequence;
  sequence.reserve(kernels.size());
  std::unordered_map<uint32_t, std::vector<uint32_t>> positions;
  std::vector<uint32_t> optimizer_kernels_before{0};
  optimizer_kernels_before.reserve(kernels.size() + 1);
  for (model::KernelRow kernel : kernels) {
    const uint32_t name = model.signature(model.kernels().signature[kernel]).name.value;
    positions[name].push_back(static_cast<uint32_t>(sequence.size()));
    sequence.push_back(name);
    const bool optimizer = input.ClassOf(kernel).category == KernelCategory::kOptimizer;
    optimizer_kernels_before.push_back(optimizer_kernels_before.back() + (optimizer ? 1 : 0));
  }
  // The loop marker is a name that recurs at a regular period (the modal number of kernels between its
  // occurrences, kMinRegularPeriodShare of them) over most of the trace, and at whose period the kernel
  // sequence itself repeats. A name that runs once per layer is regular too, at the layer's period
  // (seen on an H100: a 5-layer MLP's 36-kernel step read as 5 steps of about 7 kernels, a step time 8x
  // too short), but the sequence does not repeat at that lag. Of the markers, the shortest period (a
  // name that runs every other step repeats at twice the step), then the earliest start, so that the
  // steps cover as much of the trace as possible. None: no step is guessed.
  const std::vector<uint32_t>* marker = nullptr;
  size_t marker_period = 0;
  for (const auto& [name, where] : positions) {
    if (where.size() < kMinSteps + 1) continue;
    std::map<uint32_t, size_t> period_counts;
    for (size_t i = 1; i < where.size(); ++i) ++period_counts[where[i] - where[i - 1]];
    const auto modal = std::max_element(period_counts.begin(), period_counts.end(),
                                        [](const auto& a, const auto& b) { return a.second < b.second; });
    const size_t period = modal->first;
    if (period < kMinKernelsPerPeriod) continue;
    if (marker != nullptr && (period > marker_period || (period == marker_period && where.front() >= marker->front()))) {
      continue;
    }
    const double regular = static_cast<double>(modal->second) / static_cast<double>(where.size() - 1);
    const double coverage = static_cast<double>(where.back() - where.front()) / static_cast<double>(kernels.size());
    const size_t periods = where.size() - 1;
    const bool updates_weights = optimizer_kernels_before[where.back()] - optimizer_kernels_before[where.front()] >= periods;
    if (regular < kMinRegularPeriodShare || (coverage < kMinLoopCoverage && !updates_weights)) continue;
    if (RepeatShare(sequence, where.front(), where.back(), period) < kMinSequenceRepeatShare) continue;
    marker = &where;
    marker_period = period;
  }
  if (marker == nullptr) return std::nullopt;
  std::vector<model::KernelRow> boundaries;
  for (uint32_t at : *marker) boundaries.push_back(model::KernelRow(kernels.begin_value + at));
  const std::string name(model.KernelName(boundaries.front()));
  return EndingWith(model, boundaries, StepSource::kRepeatingKernels, name);
}

// The default-domain form of the shim's ranges: "ampprof:<name>".
constexpr std::string_view kAmpprofDomain = "ampprof";
constexpr std::string_view kAmpprofPrefix = "ampprof:";

}  // namespace

std::optional<model::DeviceRow> BusiestDevice(const model::TraceModel& model) {
  std::optional<model::DeviceRow> busiest;
  size_t most = 0;
  for (uint32_t i = 0; i < model.devices().size(); ++i) {
    const size_t kernels = model.devices()[i].kernels.size();
    if (kernels > most) {
      most = kernels;
      busiest = model::DeviceRow(i);
    }
  }
  return busiest;
}

bool IsAmpprofRange(const model::TraceModel& model, const model::RangeLabel& label, std::string_view name) {
  const std::string_view text = model.Text(label.name);
  if (model.Text(label.domain) == kAmpprofDomain) return text == name;
  return text.size() == kAmpprofPrefix.size() + name.size() && text.starts_with(kAmpprofPrefix) &&
         text.ends_with(name);
}

bool IsAmpprofRange(const model::TraceModel& model, const model::RangeLabel& label) {
  return model.Text(label.domain) == kAmpprofDomain || model.Text(label.name).starts_with(kAmpprofPrefix);
}

std::string_view StepSourceName(StepSource source) {
  switch (source) {
    case StepSource::kAmpprofRange: return "ampprof step ranges";
    case StepSource::kProfilerStep: return "ProfilerStep ranges";
    case StepSource::kUserRange: return "a repeating user range";
    case StepSource::kScalerUpdate: return "GradScaler update kernels";
    case StepSource::kRepeatingKernels: return "a repeating kernel sequence";
  }
  return "unknown";
}

DurationNs Steps::MedianDuration() const { return Percentile(measured(), 0.5); }
DurationNs Steps::P90Duration() const { return Percentile(measured(), 0.9); }

int Steps::StepOf(const AnalysisInput& input, model::KernelRow kernel) const {
  const model::TraceModel& model = input.model;
  TimeNs at = model.kernels().start[kernel];
  if (host_time) {
    const model::ApiCallRow launch = model.kernels().launch[kernel];
    if (!launch.valid()) return -1;
    at = model.api_calls().start[launch];
  }
  // Kernel-based steps are (previous boundary end, boundary end]; range-based ones [start, end).
  const auto after = std::upper_bound(intervals.begin(), intervals.end(), at,
                                      [](TimeNs t, const Interval& step) { return t < step.start; });
  if (after == intervals.begin()) return -1;
  const Interval& step = *(after - 1);
  const bool inside = host_time ? at < step.end : at <= step.end;
  return inside ? static_cast<int>(after - intervals.begin() - 1) : -1;
}

size_t FindWarmup(std::span<const Interval> steps) {
  if (steps.size() < kMinSteps) return 0;
  const DurationNs median = Percentile(steps.subspan(1), 0.5);
  size_t warmup = 0;
  while (warmup < steps.size() / 2 &&
         static_cast<double>(steps[warmup].duration()) > kWarmupFactor * static_cast<double>(median)) {
    ++warmup;
  }
  return warmup;
}

std::optional<Steps> FindSteps(const AnalysisInput& input) {
  const model::TraceModel& model = input.model;
  std::optional<Steps> steps = AmpprofStepRanges(model);
  if (!steps) steps = ProfilerStepRanges(model);
  if (!steps) steps = UserRanges(model);
  if (const auto device = BusiestDevice(model); !steps && device) {
    steps = ScalerUpdates(input, *device);
    if (!steps) steps = RepeatingKernels(input, *device);
  }
  if (steps) steps->warmup = FindWarmup(steps->intervals);
  return steps;
}

}  // namespace ampprof::analyzers
