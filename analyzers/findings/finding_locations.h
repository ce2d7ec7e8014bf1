#ifndef AMPPROF_ANALYZERS_FINDINGS_FINDING_LOCATIONS_H_
#define AMPPROF_ANALYZERS_FINDINGS_FINDING_LOCATIONS_H_

// Where a finding shows in the trace: the gaps, syncs, kernels or steps it is about, so that a
// timeline (the Chrome export) draws it there. A finding keeps the kMaxLocations longest, since a
// trace has millions of kernels and gaps and a person looks at a handful; the rest are counted.
//
//   LocationList locations(gpu.window());   // the window the finding measured
//   for (KernelRow kernel : kernels_it_is_about) locations.AddKernel(input, kernel);
//   std::move(locations).MoveInto(finding);   // finding.locations, finding.locations_left_out
//
// Each analyzer offers the places it already found; none computes them anew for this. A place is
// clipped to the window the finding measured: a kernel that starts in the window may run past its
// end, and the finding counts (and a view should draw) only the part inside.

#include <cstdint>
#include <optional>
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

// One kernel as a location: its whole interval (LocationList::AddKernel clips it to the list's
// window), device and stream, and KernelLabel of its name.
Location KernelLocation(const AnalysisInput& input, model::KernelRow kernel);

// `interval` cut to `window`: empty (start == end) when they do not overlap.
base::Interval ClippedTo(base::Interval interval, base::Interval window);

// The longest locations offered, up to kMaxLocations, each clipped to the list's window.
class LocationList {
 public:
  // Places inside `window`, the stretch of the trace the finding measured (for most findings the
  // device account's window, DeviceAccount::window()).
  explicit LocationList(base::Interval window) : kept_(kMaxLocations), window_(window) {}
  // Places anywhere in the trace: only for places the analysed window leaves out by design (the
  // autotuning burst the account skips before its window), which a finding about them points at.
  static LocationList Anywhere() { return LocationList(std::nullopt); }

  // Clipped to the window, then ranked by the duration left: a longer gap or kernel costs more, and
  // is easier to find on a timeline. A place with no time inside the window (or none at all) is
  // dropped, not counted: it is not a place the finding measured, and a view has nothing to draw.
  void Add(Location location);
  // A kernel, clipped likewise; its label is made only when it is kept (analyzers offer every kernel
  // they count).
  void AddKernel(const AnalysisInput& input, model::KernelRow kernel);
  // Places a fact already left out (it keeps a bounded list too), to be counted with the finding's.
  void CountLeftOut(uint64_t count) { left_out_ += count; }

  // Sets finding.locations (longest first) and finding.locations_left_out.
  void MoveInto(Finding& finding) &&;

 private:
  explicit LocationList(std::optional<base::Interval> window) : kept_(kMaxLocations), window_(window) {}
  // The interval as the list keeps it: clipped to window_ (when there is one).
  base::Interval Clip(base::Interval interval) const;

  LongestKept<Location> kept_;
  std::optional<base::Interval> window_;  // nullopt: Anywhere()
  uint64_t left_out_ = 0;
};

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FINDINGS_FINDING_LOCATIONS_H_
