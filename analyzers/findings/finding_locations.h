#ifndef AMPPROF_ANALYZERS_FINDINGS_FINDING_LOCATIONS_H_
#define AMPPROF_ANALYZERS_FINDINGS_FINDING_LOCATIONS_H_

// Where a finding shows in the trace: the gaps, syncs, kernels or steps it is about, so that a
// timeline (the Chrome export) draws it there. A finding keeps the kMaxLocations longest, since a
// trace has millions of kernels and gaps and a person looks at a handful; the rest are counted.
//
//   LocationList locations;
//   for (KernelRow kernel : kernels_it_is_about) locations.AddKernel(input, kernel);
//   std::move(locations).MoveInto(finding);   // finding.locations, finding.locations_left_out
//
// Each analyzer offers the places it already found; none computes them anew for this.

#include <cstdint>
#include <string>
#include <string_view>

#include "analyzers/facts/analysis_input.h"
#include "analyzers/facts/longest_kept.h"
#include "analyzers/findings/finding.h"

namespace ampprof::analyzers {

// A stable identifier for scripts and the JSON report: "idle_gap", "launch_wait", "host_sync",
// "kernel", "communication", "step", "autotuning".
std::string_view LocationKindKey(LocationKind kind);

// A kernel name short enough for a label: demangled, its own name (no return type, no parameter
// list), cut to kMaxLabelLength characters with "..." (never inside a UTF-8 sequence).
inline constexpr size_t kMaxLabelLength = 80;
std::string KernelLabel(std::string_view name);

// One kernel as a location: its start and end, device and stream, and KernelLabel of its name.
Location KernelLocation(const AnalysisInput& input, model::KernelRow kernel);

// The longest locations offered, up to kMaxLocations.
class LocationList {
 public:
  LocationList() : kept_(kMaxLocations) {}

  // Ranked by duration: a longer gap or kernel costs more, and is easier to find on a timeline.
  void Add(Location location);
  // A kernel; its label is made only when it is kept (analyzers offer every kernel they count).
  void AddKernel(const AnalysisInput& input, model::KernelRow kernel);
  // Places a fact already left out (it keeps a bounded list too), to be counted with the finding's.
  void CountLeftOut(uint64_t count) { left_out_ += count; }

  // Sets finding.locations (longest first) and finding.locations_left_out.
  void MoveInto(Finding& finding) &&;

 private:
  LongestKept<Location> kept_;
  uint64_t left_out_ = 0;
};

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FINDINGS_FINDING_LOCATIONS_H_
