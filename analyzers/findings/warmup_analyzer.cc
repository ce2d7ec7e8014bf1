#include "analyzers/findings/warmup_analyzer.h"

#include <algorithm>
#include <map>
#include <optional>
#include <unordered_set>

#include "analyzers/facts/steps.h"
#include "analyzers/facts/autotuning.h"
#include "analyzers/facts/step_account.h"
#include "analyzers/findings/finding_locations.h"
#include "analyzers/findings/finding_support.h"

namespace ampprof::analyzers {
namespace {

using base::DurationNs;

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

// Whether ampprof's collector began recording in the middle of the run: at the program's
// cudaProfilerStart, or after --delay (the metadata DescribeProcess writes). The first step of such a
// window pays CUPTI's enabling: on the H100, 227 us against a steady 102 us with the workload's own
// warm-up long over (docs/validation/h100.md). That is the tool's cost, not the workload's warm-up.
bool CollectorWindowOpenedMidRun(const model::TraceModel& model) {
  return model.Metadata("source") == "ampprof CUPTI collector" &&
         (model.Metadata("capture_range") == "cudaProfilerApi" ||
          !model.Metadata("capture_delay_ns").empty());
}

struct Autotuning {
  size_t bursts = 0;
  size_t inside_window = 0;   // bursts that start inside the account's window
  DurationNs span_ns = 0;     // first trial start to last trial end, summed over bursts
  DurationNs inside_span_ns = 0;  // the same, over the bursts inside the window
  // The bursts, wherever they are: the account leaves a leading burst out of its window, and a
  // finding about that burst points outside the window.
  LocationList locations = LocationList::Anywhere();
  // The bursts inside the window, each clipped to its GPU's window: where a verdict about those points.
  LocationList inside_locations = LocationList::Anywhere();
};

Autotuning CountAutotuning(const StepAccount& account, const AnalysisInput& input) {
  Autotuning autotuning;
  for (const DeviceAccount& gpu : account.devices) {
    for (const base::Interval& burst : gpu.autotuning) {
      const Location location{burst, LocationKind::kAutotuning, DeviceIdOf(input, gpu), -1, "cuDNN autotuning"};
      autotuning.locations.Add(location);
      ++autotuning.bursts;
      autotuning.span_ns += burst.duration();
      if (gpu.window().Contains(burst.start)) {
        ++autotuning.inside_window;
        autotuning.inside_span_ns += burst.duration();
        Location inside = location;
        inside.interval = ClippedTo(burst, gpu.window());
        autotuning.inside_locations.Add(std::move(inside));
      }
    }
  }
  if (account.devices.empty()) {  // all warm-up: the bursts are not in any account
    for (uint32_t i = 0; i < input.model.devices().size(); ++i) {
      for (const base::Interval& burst : FindAutotuning(input, model::DeviceRow(i))) {
        autotuning.locations.Add({burst, LocationKind::kAutotuning, input.model.device(model::DeviceRow(i)).device_id,
                                  -1, "cuDNN autotuning"});
        ++autotuning.bursts;
        autotuning.span_ns += burst.duration();
      }
    }
  }
  return autotuning;
}

Statement AutotuningStatement(const Autotuning& autotuning) {
  return Statement("{bursts:burst} of cuDNN algorithm trials, {time} (torch.backends.cudnn.benchmark = True)",
                   {Count("bursts", autotuning.bursts), Duration("time", autotuning.span_ns)});
}

// Without steps: the trace's autotuning, left out of the analysis (a leading burst) or inside it.
std::optional<Finding> AutotuningWithoutSteps(const AnalysisInput& input) {
  const StepAccount& account = input.account();
  Autotuning autotuning = CountAutotuning(account, input);
  if (autotuning.bursts == 0) return std::nullopt;
  Finding finding;
  finding.id = "bench.warmup_in_window";
  if (account.basis == AccountBasis::kAllWarmup) {
    finding.severity = Severity::kWarning;
    finding.verdict = Statement("The trace holds only warm-up: cuDNN autotuning ({time} of algorithm trials) and "
                                "too little after it to diagnose a training step",
                                {Duration("time", autotuning.span_ns)});
    finding.fix = "Profile later steps: start the capture after a few warm-up iterations (torch.profiler.schedule("
                  "wait=1, warmup=2, active=5), or nsys --capture-range=cudaProfilerApi).";
  } else if (autotuning.inside_window > 0) {
    finding.severity = Severity::kWarning;
    finding.verdict = Statement("cuDNN autotuning runs inside the analysed window ({bursts:burst}, {time}): new input "
                                "shapes keep triggering algorithm trials",
                                {Count("bursts", autotuning.inside_window), Duration("time", autotuning.inside_span_ns)});
    finding.fix = "Keep input shapes fixed (pad or bucket them), or set torch.backends.cudnn.benchmark = False when "
                  "shapes vary.";
  } else {
    finding.severity = Severity::kInfo;
    finding.verdict = Statement("The trace starts with cuDNN autotuning ({time} of algorithm trials); ampprof left it "
                                "out of the analysed window",
                                {Duration("time", autotuning.span_ns)});
  }
  finding.evidence.push_back({"autotuning", AutotuningStatement(autotuning)});
  finding.evidence.push_back(
      {"how it was recognised", Statement("convolution kernels of distinct algorithms, each followed by a host "
                                          "synchronisation and most never run again")});
  // A verdict about the bursts inside the window points at those; the others at every burst.
  const bool about_inside = account.basis != AccountBasis::kAllWarmup && autotuning.inside_window > 0;
  std::move(about_inside ? autotuning.inside_locations : autotuning.locations).MoveInto(finding);
  return finding;
}

}  // namespace

std::vector<Finding> AnalyzeWarmup(const AnalysisInput& input) {
  std::vector<Finding> findings;
  const std::optional<Steps>& steps = input.steps();
  if (input.account().basis != AccountBasis::kMeasuredSteps) {
    if (auto finding = AutotuningWithoutSteps(input)) findings.push_back(std::move(*finding));
    return findings;
  }
  Autotuning autotuning = CountAutotuning(input.account(), input);
  if (!steps || steps->warmup == 0 || steps->measured().size() < kMinSteps) {
    if (autotuning.inside_window > 0) {
      Finding finding;
      finding.id = "bench.warmup_in_window";
      finding.severity = Severity::kWarning;
      finding.verdict = Statement("cuDNN autotuning runs inside the measured steps ({bursts:burst}, {time}): new "
                                  "input shapes keep triggering algorithm trials",
                                  {Count("bursts", autotuning.inside_window), Duration("time", autotuning.inside_span_ns)});
      finding.evidence.push_back({"autotuning", AutotuningStatement(autotuning)});
      finding.fix = "Keep input shapes fixed (pad or bucket them), or set torch.backends.cudnn.benchmark = False when "
                    "shapes vary.";
      std::move(autotuning.inside_locations).MoveInto(finding);
      findings.push_back(std::move(finding));
    }
    return findings;
  }
  // Step times are the account's (periods of the busiest GPU), so the median here is the report's.
  const DeviceAccount* gpu = input.account().Primary();
  if (gpu == nullptr || gpu->warmup_periods.empty()) return findings;
  const DurationNs median = gpu->MedianStepNs();
  DurationNs window = gpu->window_ns();
  DurationNs excess = 0;
  std::vector<Quantity> warmup_times;
  std::string warmup_text;
  for (size_t i = 0; i < gpu->warmup_periods.size(); ++i) {
    window += gpu->warmup_periods[i].duration();
    excess += std::max<DurationNs>(0, gpu->warmup_periods[i].duration() - median);
    if (i < kStepsShown) {
      const std::string key = "warmup_" + std::to_string(i);
      warmup_text += (warmup_text.empty() ? "{" : ", {") + key + "}";
      warmup_times.push_back(Duration(key, gpu->warmup_periods[i].duration()));
    }
  }
  const size_t all_steps = gpu->warmup_periods.size() + gpu->steps();
  const double excess_share = base::ShareOf(excess, window);
  if (excess_share < kMinExcessShare || median <= 0) return findings;

  const double naive_mean = static_cast<double>(window) / static_cast<double>(all_steps);
  Finding finding;
  finding.id = "bench.warmup_in_window";
  finding.device_id = DeviceIdOf(input, *gpu);
  finding.severity = FindFinding(finding.id)->default_severity;
  std::vector<Quantity> values = {Count("warmup", gpu->warmup_periods.size()), Count("steps", all_steps)};
  values.insert(values.end(), warmup_times.begin(), warmup_times.end());
  values.push_back(Duration("median", median));
  values.push_back(Duration("naive", static_cast<DurationNs>(naive_mean)));
  values.push_back(Fraction("more", naive_mean / static_cast<double>(median) - 1.0));
  finding.verdict = Statement("The first {warmup} of {steps} steps are warm-up (" + warmup_text + " vs a steady "
                              "{median}): a timing over the whole window says {naive} per step, {more} more than the "
                              "steady state",
                              std::move(values));
  finding.evidence.push_back(
      {"steps", Statement("{steps} from " + std::string(StepSourceName(steps->source)) +
                              "; {warmup} warm-up, {steady} steady (median {median}, p90 {p90})",
                          {Count("steps", all_steps), Count("warmup", gpu->warmup_periods.size()),
                           Count("steady", gpu->steps()), Duration("median", median), Duration("p90", gpu->P90StepNs())})});
  finding.evidence.push_back({"warm-up excess", Statement("{excess} over the steady median, {share} of the window",
                                                          {Duration("excess", excess), Fraction("share", excess_share)})});
  const base::Interval warmup_span{steps->intervals.front().start, steps->intervals[steps->warmup - 1].end};
  const base::Interval steady_span{steps->measured().front().start, steps->measured().back().end};
  const CallCounts warmup_calls = CountCalls(input.model, warmup_span);
  const CallCounts steady_calls = CountCalls(input.model, steady_span);
  if (warmup_calls.allocations + steady_calls.allocations > 0) {
    finding.evidence.push_back({"device allocations", Statement("{warmup} in warm-up, {steady} in the {steps} steady steps",
                                                                {Count("warmup", warmup_calls.allocations),
                                                                 Count("steady", steady_calls.allocations),
                                                                 Count("steps", gpu->steps())})});
  }
  if (warmup_calls.module_loads > 0) {
    finding.evidence.push_back({"module loads and cuDNN searches in warm-up",
                                Statement("{calls}", {Count("calls", warmup_calls.module_loads)})});
  }
  if (autotuning.bursts > 0) finding.evidence.push_back({"autotuning", AutotuningStatement(autotuning)});
  const auto only = WarmupOnlyKernels(input, *steps);
  // One slow first step and none of warm-up's signs, in a window the collector opened mid-run: the
  // step paid for the recording's start.
  const bool signs_of_warmup = warmup_calls.allocations > 0 || warmup_calls.module_loads > 0 ||
                               autotuning.bursts > 0 || !only.empty();
  if (gpu->warmup_periods.size() == 1 && !signs_of_warmup && CollectorWindowOpenedMidRun(input.model)) {
    return findings;
  }
  if (!only.empty()) {
    DurationNs only_ns = 0;
    for (const auto& [name, time] : only) only_ns += time;
    finding.evidence.push_back({"kernels only in warm-up (autotuning trials, one-time setup)",
                                Statement("{kernels} distinct, {time}", {Count("kernels", only.size()),
                                                                         Duration("time", only_ns)})});
    for (size_t i = 0; i < only.size() && i < kExamples; ++i) finding.examples.emplace_back(only[i].first);
  }
  // The warm-up steps themselves: what a benchmark should leave out. They precede the account's
  // window; this finding's window is theirs and the measured steps' together.
  LocationList locations(base::Interval{gpu->warmup_periods.front().start, gpu->window().end});
  for (size_t i = 0; i < gpu->warmup_periods.size(); ++i) {
    locations.Add({gpu->warmup_periods[i], LocationKind::kStep, finding.device_id, -1,
                   "warm-up step " + std::to_string(i)});
  }
  std::move(locations).MoveInto(finding);
  findings.push_back(std::move(finding));
  return findings;
}

}  // namespace ampprof::analyzers
