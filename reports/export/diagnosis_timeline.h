#ifndef AMPPROF_REPORTS_EXPORT_DIAGNOSIS_TIMELINE_H_
#define AMPPROF_REPORTS_EXPORT_DIAGNOSIS_TIMELINE_H_

// Where ampprof's diagnosis goes on a timeline: each training step as a range (warm-up steps
// marked), and each finding at its locations (the gaps, syncs, kernels or steps it is about,
// analyzers/findings/finding_locations.h), or, for a finding about the run as a whole, as a range
// over the window the analysis measured: without a place of its own, the window is its honest place
// in time.
//
//   const DiagnosisTimeline timeline = PlanDiagnosis(input);
//   for (const StepRange& step : timeline.steps) Draw(step.interval, StepLabel(step));
//   for (const analyzers::Finding& finding : input.findings) {
//     if (finding.locations.empty()) Draw(timeline.window, FindingLabel(finding));
//     for (const auto& lane : LocationLanes(finding))
//       for (const analyzers::Location* at : lane) Draw(at->interval, LocationLabel(finding, *at));
//   }

#include <cstdint>
#include <string>
#include <vector>

#include "analyzers/findings/finding.h"
#include "reports/export/export_input.h"
#include "src/base/time.h"

namespace ampprof::reports {

struct StepRange {
  size_t number = 0;  // the step's position among all steps found, from 0
  base::Interval interval;
  bool warmup = false;  // a leading step that the analysis left out of its medians
};

// A CPU thread, by the ids the trace recorded (the OS's, for CUPTI, Kineto and nsys traces).
struct HostThread {
  uint32_t pid = 0;
  uint32_t tid = 0;
};

struct DiagnosisTimeline {
  std::vector<StepRange> steps;  // in time order
  // The analysed window: from the first measured step's start to the last step's end; without
  // steps, the GPU activity; without GPU activity, the API calls; else empty at 0.
  base::Interval window;
  std::string window_description;  // "the 97 measured steps", "the GPU activity", ...
  // The thread that launched the most GPU work (the training loop's), for formats whose ranges must
  // sit on a thread (NVTXT); the first thread, or the first process's pid as its main thread,
  // without calls.
  HostThread loop_thread;
};

DiagnosisTimeline PlanDiagnosis(const ExportInput& input);

// "step 3", "step 0 (warm-up)".
std::string StepLabel(const StepRange& step);

// "warning gpu.launch_bound: GPU 0 is idle 29.1% of the time ...": severity, id and verdict.
std::string FindingLabel(const analyzers::Finding& finding);

// "gpu.sync_stall: after cudaStreamSynchronize in aten::item": the finding's id and the
// location's label.
std::string LocationLabel(const analyzers::Finding& finding, const analyzers::Location& location);

// The finding's locations by start (then end): they are kept longest first, a timeline reads forward.
std::vector<const analyzers::Location*> LocationsInTimeOrder(const analyzers::Finding& finding);

// The finding's locations in rows whose ranges never overlap, each row in time order: a timeline
// draws a row as one track, and the Trace Event Format's slices on one track must nest (kernels of
// one finding on concurrent streams overlap). Greedy by start time, so the first row takes most.
std::vector<std::vector<const analyzers::Location*>> LocationLanes(
    const analyzers::Finding& finding);

}  // namespace ampprof::reports

#endif  // AMPPROF_REPORTS_EXPORT_DIAGNOSIS_TIMELINE_H_
