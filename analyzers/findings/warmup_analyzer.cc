#include "analyzers/findings/warmup_analyzer.h"

#include <algorithm>
#include <map>
#include <optional>
#include <unordered_set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analyzers/facts/steps.h"
#include "src/base/format.h"

namespace ampprof::analyzers {
namespace {

using base::DurationNs;
using base::FormatCount;
using base::FormatDuration;
using base::FormatPercent;

// Warm-up that adds less than a tenth to the window's time changes a naive mean step time by less than
// run-to-run noise; above it, a benchmark over the window is wrong by that much.
constexpr double kMinExcessShare = 0.10;
constexpr size_t kStepsShown = 3;
constexpr size_t kExamples = 3;

bool IsAllocation(std::string_view name) {
  return name == "cudaMalloc" || name == "cuMemAlloc_v2" || name == "cuMemAlloc" || name == "cuMemCreate" ||
         name == "cudaMallocHost" || name == "cuMemHostAlloc";
}

bool IsModuleLoad(std::string_view name) {
  return name.starts_with("cuModuleLoad") || name.starts_with("cuLibraryLoad") || name.starts_with("cudnnFind") ||
         name.starts_with("cudaGetFuncBySymbol");
}

struct CallCounts {
  uint64_t allocations = 0;
  uint64_t module_loads = 0;
};

CallCounts CountCalls(const model::TraceModel& model, base::Interval interval) {
  CallCounts counts;
  const model::ApiCallTable& calls = model.api_calls();
  for (uint32_t i = 0; i < calls.size(); ++i) {
    const model::ApiCallRow call(i);
    if (calls.start[call] < interval.start || calls.start[call] >= interval.end) continue;
    const std::string_view name = model.Text(calls.name[call]);
    if (IsAllocation(name)) ++counts.allocations;
    if (IsModuleLoad(name)) ++counts.module_loads;
  }
  return counts;
}

// Kernel names that run in the warm-up steps and never after: autotuning trials, one-time setup.
std::vector<std::pair<std::string_view, DurationNs>> WarmupOnlyKernels(const AnalysisInput& input, const Steps& steps) {
  const model::TraceModel& model = input.model;
  std::map<uint32_t, DurationNs> warmup_time;
  std::unordered_set<uint32_t> later;
  for (uint32_t i = 0; i < model.kernels().size(); ++i) {
    const model::KernelRow kernel(i);
    const int step = steps.StepOf(input, kernel);
    if (step < 0) continue;
    const uint32_t name = model.signature(model.kernels().signature[kernel]).name.value;
    if (static_cast<size_t>(step) < steps.warmup) {
      warmup_time[name] += model.kernels().duration(kernel);
    } else {
      later.insert(name);
    }
  }
  std::vector<std::pair<std::string_view, DurationNs>> only;
  for (const auto& [name, time] : warmup_time) {
    if (!later.contains(name)) only.emplace_back(model.Text(base::StringId{name}), time);
  }
  std::sort(only.begin(), only.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  return only;
}

}  // namespace

std::vector<Finding> AnalyzeWarmup(const AnalysisInput& input) {
  std::vector<Finding> findings;
  const std::optional<Steps>& steps = input.steps();
  if (!steps || steps->warmup == 0 || steps->measured().size() < kMinSteps) return findings;
  const DurationNs median = steps->MedianDuration();
  DurationNs window = 0;
  for (const base::Interval& step : steps->intervals) window += step.duration();
  DurationNs excess = 0;
  std::vector<std::string> warmup_times;
  for (size_t i = 0; i < steps->warmup; ++i) {
    excess += std::max<DurationNs>(0, steps->intervals[i].duration() - median);
    if (i < kStepsShown) warmup_times.push_back(FormatDuration(steps->intervals[i].duration()));
  }
  const double excess_share = window > 0 ? static_cast<double>(excess) / static_cast<double>(window) : 0.0;
  if (excess_share < kMinExcessShare) return findings;

  const double naive_mean = static_cast<double>(window) / static_cast<double>(steps->intervals.size());
  Finding finding;
  finding.id = "bench.warmup_in_window";
  finding.severity = FindFinding(finding.id)->default_severity;
  finding.verdict = fmt::format(
      "The first {} of {} steps are warm-up ({} vs a steady {}): a timing over the whole window says {} per "
      "step, {} more than the steady state",
      steps->warmup, steps->intervals.size(), fmt::join(warmup_times, ", "), FormatDuration(median),
      FormatDuration(static_cast<DurationNs>(naive_mean)),
      FormatPercent(naive_mean / static_cast<double>(median) - 1.0));
  finding.evidence = {
      {"steps", fmt::format("{} from {}; {} warm-up, {} steady (median {}, p90 {})", steps->intervals.size(),
                            StepSourceName(steps->source), steps->warmup, steps->measured().size(),
                            FormatDuration(median), FormatDuration(steps->P90Duration()))},
      {"warm-up excess", fmt::format("{} over the steady median, {} of the window", FormatDuration(excess),
                                     FormatPercent(excess_share))},
  };
  const base::Interval warmup_span{steps->intervals.front().start, steps->intervals[steps->warmup - 1].end};
  const base::Interval steady_span{steps->measured().front().start, steps->measured().back().end};
  const CallCounts warmup_calls = CountCalls(input.model, warmup_span);
  const CallCounts steady_calls = CountCalls(input.model, steady_span);
  if (warmup_calls.allocations + steady_calls.allocations > 0) {
    finding.evidence.push_back({"device allocations", fmt::format("{} in warm-up, {} in the {} steady steps",
                                                                  warmup_calls.allocations, steady_calls.allocations,
                                                                  steps->measured().size())});
  }
  if (warmup_calls.module_loads > 0) {
    finding.evidence.push_back({"module loads and cuDNN searches in warm-up", FormatCount(static_cast<int64_t>(warmup_calls.module_loads))});
  }
  const auto only = WarmupOnlyKernels(input, *steps);
  if (!only.empty()) {
    DurationNs only_ns = 0;
    for (const auto& [name, time] : only) only_ns += time;
    finding.evidence.push_back({"kernels only in warm-up (autotuning trials, one-time setup)",
                                fmt::format("{} distinct, {}", only.size(), FormatDuration(only_ns))});
    for (size_t i = 0; i < only.size() && i < kExamples; ++i) finding.examples.emplace_back(only[i].first);
  }
  finding.time_ns = excess;
  findings.push_back(std::move(finding));
  return findings;
}

}  // namespace ampprof::analyzers
