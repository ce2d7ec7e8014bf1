#include "reports/export/diagnosis_timeline.h"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "analyzers/findings/finding_catalog.h"
#include "reports/common/statement_text.h"

namespace ampprof::reports {
namespace {

std::optional<base::Interval> ApiCallSpan(const model::TraceModel& model) {
  const model::ApiCallTable& calls = model.api_calls();
  if (calls.size() == 0) return std::nullopt;
  const auto starts = calls.start.values();
  const auto ends = calls.end.values();
  return base::Interval{*std::min_element(starts.begin(), starts.end()),
                        *std::max_element(ends.begin(), ends.end())};
}

HostThread LoopThread(const model::TraceModel& model) {
  const std::vector<model::Thread>& threads = model.threads();
  if (threads.empty()) {
    const uint32_t pid = model.processes().empty() ? 0 : model.processes().front().pid;
    return {pid, pid};  // a process's main thread has the process's id
  }
  const auto busiest = std::max_element(
      threads.begin(), threads.end(),
      [](const auto& a, const auto& b) { return a.api_calls.size() < b.api_calls.size(); });
  return {busiest->pid, busiest->tid};
}

}  // namespace

DiagnosisTimeline PlanDiagnosis(const ExportInput& input) {
  DiagnosisTimeline timeline;
  if (input.steps) {
    const analyzers::Steps& steps = *input.steps;
    for (size_t i = 0; i < steps.intervals.size(); ++i) {
      timeline.steps.push_back({i, steps.intervals[i], i < steps.warmup});
    }
  }
  if (input.steps && !input.steps->measured().empty()) {
    const auto measured = input.steps->measured();
    timeline.window = {measured.front().start, measured.back().end};
    timeline.window_description = fmt::format("the {} measured steps", measured.size());
  } else if (const auto gpu = input.model.GpuSpan()) {
    timeline.window = *gpu;
    timeline.window_description = "the GPU activity";
  } else if (const auto calls = ApiCallSpan(input.model)) {
    timeline.window = *calls;
    timeline.window_description = "the CUDA API calls";
  } else {
    timeline.window_description = "nothing: the trace has no GPU activity or API calls";
  }
  timeline.loop_thread = LoopThread(input.model);
  return timeline;
}

std::string StepLabel(const StepRange& step) {
  return step.warmup ? fmt::format("step {} (warm-up)", step.number)
                     : fmt::format("step {}", step.number);
}

std::string LocationLabel(const analyzers::Finding& finding, const analyzers::Location& location) {
  return fmt::format("{}: {}", finding.id, location.label);
}

std::vector<const analyzers::Location*> LocationsInTimeOrder(const analyzers::Finding& finding) {
  std::vector<const analyzers::Location*> by_start;
  for (const analyzers::Location& location : finding.locations) by_start.push_back(&location);
  std::stable_sort(by_start.begin(), by_start.end(), [](const auto* a, const auto* b) {
    return a->interval.start != b->interval.start ? a->interval.start < b->interval.start
                                                  : a->interval.end < b->interval.end;
  });
  return by_start;
}

std::vector<std::vector<const analyzers::Location*>> LocationLanes(
    const analyzers::Finding& finding) {
  std::vector<std::vector<const analyzers::Location*>> lanes;
  for (const analyzers::Location* location : LocationsInTimeOrder(finding)) {
    auto lane = std::find_if(lanes.begin(), lanes.end(), [&](const auto& row) {
      return row.back()->interval.end <= location->interval.start;
    });
    if (lane == lanes.end()) {
      lanes.emplace_back();
      lane = std::prev(lanes.end());
    }
    lane->push_back(location);
  }
  return lanes;
}

std::string FindingLabel(const analyzers::Finding& finding) {
  return fmt::format("{} {}: {}", analyzers::SeverityName(finding.severity), finding.id,
                     RenderStatement(finding.verdict));
}

}  // namespace ampprof::reports
