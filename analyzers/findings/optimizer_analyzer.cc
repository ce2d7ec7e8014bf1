#include "analyzers/findings/optimizer_analyzer.h"

#include <algorithm>
#include <map>
#include <optional>

#include "analyzers/facts/precision.h"
#include "analyzers/facts/steps.h"
#include "analyzers/findings/finding_locations.h"
#include "analyzers/findings/finding_support.h"

namespace ampprof::analyzers {
namespace {

using base::DurationNs;
using base::TimeNs;

// One doubled step could be a retry or a gradient-accumulation boundary; the bug repeats on every step,
// so it must show in at least half of the measured steps (and in two or more).
constexpr double kMinShareOfSteps = 0.5;
constexpr size_t kMinDoubledSteps = 2;

using Sequence = std::vector<model::KernelSignatureRow>;

using Launches = std::vector<std::pair<TimeNs, model::KernelRow>>;  // one thread's, by launch-call start

// The launches in [from, to).
std::pair<Launches::const_iterator, Launches::const_iterator> LaunchedBetween(const Launches& launches, TimeNs from,
                                                                             TimeNs to) {
  const auto by_time = [](const std::pair<TimeNs, model::KernelRow>& launch, TimeNs t) { return launch.first < t; };
  const auto first = std::lower_bound(launches.begin(), launches.end(), from, by_time);
  return {first, std::lower_bound(first, launches.end(), to, by_time)};
}

Sequence SignaturesOf(const model::TraceModel& model, std::pair<Launches::const_iterator, Launches::const_iterator> range) {
  Sequence sequence;
  for (auto it = range.first; it != range.second; ++it) sequence.push_back(model.kernels().signature[it->second]);
  return sequence;
}

struct Doubled {
  size_t steps_doubled = 0;
  size_t steps_examined = 0;
  DurationNs repeated_ns = 0;  // GPU time of the second runs
  std::string how;             // what was seen, for the evidence
  std::string example;
  std::vector<size_t> doubled_steps;  // the steps (indices into Steps::intervals) with two passes
};

// Optimizer.step ranges (torch's Optimizer.step#<class>.step or the shim's optimizer.step): two of one label
// in a step that launch the same kernels.
std::optional<Doubled> FromRanges(const AnalysisInput& input, const Steps& steps) {
  const model::TraceModel& model = input.model;
  std::vector<model::RangeRow> optimizer_steps;
  for (uint32_t i = 0; i < model.ranges().size(); ++i) {
    const model::RangeRow row(i);
    // The PyTorch profiler's (and emit_nvtx's) record_function ranges, or the ampprof shim's.
    if (model.RangeName(row).starts_with("Optimizer.step#") ||
        IsAmpprofRange(model, model.label(row), "optimizer.step")) {
      optimizer_steps.push_back(row);
    }
  }
  if (optimizer_steps.empty()) return std::nullopt;
  // Kernel launches per thread, by launch-call start.
  std::map<uint32_t, Launches> launches;
  for (uint32_t i = 0; i < model.kernels().size(); ++i) {
    const model::KernelRow kernel(i);
    const model::ApiCallRow call = model.kernels().launch[kernel];
    if (call.valid()) launches[model.api_calls().thread[call].value].emplace_back(model.api_calls().start[call], kernel);
  }
  for (auto& [thread, list] : launches) std::sort(list.begin(), list.end());

  Doubled doubled;
  doubled.how = "Optimizer.step ranges";
  std::map<size_t, std::vector<model::RangeRow>> by_step;
  for (model::RangeRow range : optimizer_steps) {
    const TimeNs at = model.ranges().start[range];
    const auto step = std::upper_bound(steps.intervals.begin(), steps.intervals.end(), at,
                                       [](TimeNs t, const base::Interval& s) { return t < s.start; });
    if (step == steps.intervals.begin()) continue;
    const size_t index = static_cast<size_t>(step - steps.intervals.begin() - 1);
    if (index < steps.warmup || at >= steps.intervals[index].end) continue;
    by_step[index].push_back(range);
  }
  doubled.steps_examined = steps.measured().size();
  for (const auto& [index, ranges] : by_step) {
    bool found = false;
    for (size_t a = 0; a < ranges.size() && !found; ++a) {
      for (size_t b = a + 1; b < ranges.size() && !found; ++b) {
        if (model.ranges().label[ranges[a]] != model.ranges().label[ranges[b]]) continue;
        const auto list = launches.find(model.ranges().thread[ranges[a]].value);
        if (list == launches.end()) continue;
        const auto first = LaunchedBetween(list->second, model.ranges().start[ranges[a]], model.ranges().end[ranges[a]]);
        const auto second = LaunchedBetween(list->second, model.ranges().start[ranges[b]], model.ranges().end[ranges[b]]);
        const Sequence first_signatures = SignaturesOf(model, first);
        if (first_signatures.empty() || first_signatures != SignaturesOf(model, second)) continue;
        found = true;
        doubled.example = std::string(model.RangeName(ranges[b]));
        for (auto it = second.first; it != second.second; ++it) doubled.repeated_ns += model.kernels().duration(it->second);
      }
    }
    if (found) {
      ++doubled.steps_doubled;
      doubled.doubled_steps.push_back(index);
    }
  }
  return doubled;
}

// Without ranges: each step's optimizer kernels, in order, are one sequence twice over.
Doubled FromKernels(const AnalysisInput& input, const Steps& steps) {
  const model::TraceModel& model = input.model;
  std::vector<Sequence> per_step(steps.intervals.size());
  std::vector<std::vector<model::KernelRow>> kernels_per_step(steps.intervals.size());
  for (uint32_t i = 0; i < model.kernels().size(); ++i) {
    const model::KernelRow kernel(i);
    if (input.ClassOf(kernel).category != KernelCategory::kOptimizer) continue;
    const int step = steps.StepOf(input, kernel);
    if (step < 0 || static_cast<size_t>(step) < steps.warmup) continue;
    per_step[static_cast<size_t>(step)].push_back(model.kernels().signature[kernel]);
    kernels_per_step[static_cast<size_t>(step)].push_back(kernel);
  }
  Doubled doubled;
  doubled.how = "optimizer kernels per step";
  doubled.steps_examined = steps.measured().size();
  for (size_t step = steps.warmup; step < per_step.size(); ++step) {
    const Sequence& sequence = per_step[step];
    const size_t half = sequence.size() / 2;
    if (half == 0 || sequence.size() % 2 != 0 ||
        !std::equal(sequence.begin(), sequence.begin() + static_cast<std::ptrdiff_t>(half),
                    sequence.begin() + static_cast<std::ptrdiff_t>(half))) {
      continue;
    }
    ++doubled.steps_doubled;
    doubled.doubled_steps.push_back(step);
    for (size_t k = half; k < kernels_per_step[step].size(); ++k) {
      doubled.repeated_ns += model.kernels().duration(kernels_per_step[step][k]);
    }
    if (doubled.example.empty()) doubled.example = std::string(model.KernelName(kernels_per_step[step][half]));
  }
  return doubled;
}

}  // namespace

std::vector<Finding> AnalyzeOptimizerSteps(const AnalysisInput& input) {
  std::vector<Finding> findings;
  const std::optional<Steps>& steps = input.steps();
  if (!steps || steps->measured().empty()) return findings;
  std::optional<Doubled> doubled = FromRanges(input, *steps);
  if (!doubled) doubled = FromKernels(input, *steps);
  if (doubled->steps_doubled < kMinDoubledSteps ||
      static_cast<double>(doubled->steps_doubled) < kMinShareOfSteps * static_cast<double>(doubled->steps_examined)) {
    return findings;
  }
  Finding finding;
  finding.id = "amp.double_optimizer_step";
  finding.severity = FindFinding(finding.id)->default_severity;
  if (const DeviceAccount* gpu = input.account().Primary(); gpu != nullptr) {
    finding.saving = SavingOf(*gpu, doubled->repeated_ns, "the GPU time of the second optimizer passes");
  }
  // The usual cause is an optimizer.step() after scaler.step(optimizer); a run without GradScaler (the CUDA
  // sample double_step in FP32) calls the optimizer twice some other way, and the hint would mislead.
  const bool with_scaler = DescribePrecision(input).scaler_kernels > 0;
  finding.verdict = Statement(std::string("The optimizer runs twice in {doubled} of {steps:step}: the weights are "
                                          "updated twice per step (") +
                                  (with_scaler ? "optimizer.step() after scaler.step(optimizer)?)"
                                               : "optimizer.step() called twice per iteration?)"),
                              {Count("doubled", doubled->steps_doubled), Count("steps", doubled->steps_examined)});
  finding.evidence.push_back({"seen in", Statement(doubled->how)});
  finding.evidence.push_back({"steps with two identical optimizer passes",
                              Statement("{doubled} of {steps} measured", {Count("doubled", doubled->steps_doubled),
                                                                           Count("steps", doubled->steps_examined)})});
  finding.evidence.push_back({"GPU time of the second passes", Statement("{time}", {Duration("time", doubled->repeated_ns)})});
  if (!doubled->example.empty()) finding.examples.push_back(doubled->example);
  // The steps that ran the optimizer twice, inside the measured steps it examined.
  LocationList locations(base::Interval{steps->measured().front().start, steps->measured().back().end});
  // The steps carry the finding's device, which is none: they are the trace's steps (host ranges, or
  // the busiest GPU's kernels standing for every GPU), and the passes were counted over the kernels of
  // every GPU, so neither the finding nor a step is one GPU's. (The Primary GPU only prices the
  // saving.) A device on the step would have the exports name a GPU ("device" on the Chrome slice, in
  // the JSON location) that the finding does not; a location names a GPU only where the place is on
  // one, as a kernel, a gap or an autotuning burst is.
  for (const size_t step : doubled->doubled_steps) {
    locations.Add({steps->intervals[step], LocationKind::kStep, finding.device_id, -1,
                   "step " + std::to_string(step) + ": the optimizer ran twice"});
  }
  std::move(locations).MoveInto(finding);
  findings.push_back(std::move(finding));
  return findings;
}

}  // namespace ampprof::analyzers
