#ifndef AMPPROF_ANALYZERS_FACTS_STEPS_H_
#define AMPPROF_ANALYZERS_FACTS_STEPS_H_

// Training steps: the iterations of the training loop, found in the trace so that analyzers can speak
// per step ("3 host syncs per step", "the first step took 9x the median") and leave warm-up out.
//
// Sources, in order of trust (the first that yields at least kMinSteps steps wins):
//   1. ampprof step ranges     NVTX ranges named "step" in the "ampprof" domain (the PyTorch shim's; in
//                              the default domain named "ampprof:step" when it had no NVTX library);
//   2. ProfilerStep#N          what torch.profiler records on each profiler.step();
//   3. user NVTX ranges        a range name that repeats, never overlaps itself and encloses most kernel
//                              launches (e.g. "train_step");
//   4. GradScaler updates      one amp_update_scale kernel ends each AMP step;
//   5. repeating kernels       a kernel that recurs with the same number of kernels between occurrences.
// Range-based steps are host time intervals; kernel-based ones are GPU time intervals.
//
//   const std::optional<Steps>& steps = input.steps();   // FindSteps, once per AnalysisInput
//   if (steps) fmt::print("{} steps from {}, median {}\n", steps->intervals.size(), steps->label,
//                         FormatDuration(steps->MedianDuration()));

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "src/base/time.h"
#include "src/model/trace_model.h"

namespace ampprof::analyzers {

class AnalysisInput;  // analysis_input.h, which holds the Steps of its trace

// Fewer repetitions than this are not a loop, and say nothing about warm-up or medians.
inline constexpr size_t kMinSteps = 3;

enum class StepSource : uint8_t { kAmpprofRange, kProfilerStep, kUserRange, kScalerUpdate, kRepeatingKernels };

std::string_view StepSourceName(StepSource source);

// Whether `label` is the ampprof range `name` ("step", "optimizer.step", "scaler.update"): named `name` in
// NVTX domain "ampprof", or "ampprof:<name>" in the default domain, which is how the PyTorch shim names
// them when it can reach no NVTX library with a domain API (collectors/pytorch/ampprof_shim/nvtx.py).
bool IsAmpprofRange(const model::TraceModel& model, const model::RangeLabel& label, std::string_view name);
// Any range of the ampprof domain, in either form.
bool IsAmpprofRange(const model::TraceModel& model, const model::RangeLabel& label);

struct Steps {
  StepSource source = StepSource::kProfilerStep;
  std::string label;                     // "ProfilerStep#N", the NVTX range's or the kernel's name
  bool host_time = true;                 // intervals are host (range) time, else GPU time
  std::vector<base::Interval> intervals;  // in time order, disjoint
  size_t warmup = 0;                     // leading steps that are warm-up outliers (see FindWarmup)

  std::span<const base::Interval> measured() const {
    return std::span<const base::Interval>(intervals).subspan(warmup);
  }
  // Median and 90th percentile step duration over the measured steps.
  base::DurationNs MedianDuration() const;
  base::DurationNs P90Duration() const;

  // The step `kernel` belongs to, or -1: by its launch call's start for host-time steps (a kernel belongs
  // to the step that launched it, even when it runs after the step's range ended), else by its start.
  int StepOf(const AnalysisInput& input, model::KernelRow kernel) const;
};

// The training steps of the trace, or nullopt when it marks no loop of at least kMinSteps iterations.
std::optional<Steps> FindSteps(const AnalysisInput& input);

// The GPU with the most kernels (the first of equals): kernel-based steps follow its timeline, and a
// comparison and a timeline look at it. nullopt when the trace has no kernels.
std::optional<model::DeviceRow> BusiestDevice(const model::TraceModel& model);

// How many leading steps are warm-up: each is counted while it takes more than kWarmupFactor times the
// median of the steps after the first. Needs at least kMinSteps steps; at most half of them are warm-up.
inline constexpr double kWarmupFactor = 1.5;
size_t FindWarmup(std::span<const base::Interval> steps);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FACTS_STEPS_H_
