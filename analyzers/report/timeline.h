#ifndef AMPPROF_ANALYZERS_REPORT_TIMELINE_H_
#define AMPPROF_ANALYZERS_REPORT_TIMELINE_H_

// The GPU timeline of one representative stretch of a run, for the views that draw one (the HTML
// report): the kernels of the busiest GPU, stream by stream, each with its category, and the idle
// gaps between them with their causes (idle_gaps.h), so that "launch-bound" can be seen as well as
// read.
//
//   const std::optional<Timeline> timeline = BuildTimeline(input);
//   for (const TimelineItem& item : timeline->items) {
//     ... item.interval, timeline->lanes[item.lane].stream_id, timeline->names[item.name] ...
//   }
//
// The window. With training steps (steps.h), the measured step whose period is the median
// (step_account.h): its buckets are the account's for that step. Without steps, the account's window
// when it holds at most kMaxTimelineItems kernels, else that many consecutive kernels from its middle.
//
// Bounded, whatever the trace: at most kMaxTimelineItems items plus one per lane. When the window
// holds more kernels than that, kernels of one stream that start within `resolution_ns` of an
// item's start are merged into it (the item spans them all and is named and coloured after the
// longest), which keeps item starts at least a resolution apart; gaps shorter than the resolution
// are left out (the idle totals by cause still count them). The resolution is the window's length
// divided by the items one lane may have, far below what a screen can show at the default zoom.
// Kernel names are shortened in the middle to kMaxTimelineNameLength bytes.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyzers/facts/analysis_input.h"
#include "analyzers/facts/idle_gaps.h"
#include "analyzers/findings/finding.h"
#include "src/base/time.h"

namespace ampprof::analyzers {

inline constexpr size_t kMaxTimelineItems = 4000;
inline constexpr size_t kMaxTimelineNameLength = 256;

// One kernel, or several adjacent ones of a stream merged.
struct TimelineItem {
  base::Interval interval;         // clipped to the window
  base::DurationNs kernel_ns = 0;  // the kernels' own time (less than the interval when merged)
  uint32_t kernels = 1;            // how many kernels the item stands for
  uint32_t lane = 0;               // index into Timeline::lanes
  uint32_t name = 0;               // index into Timeline::names: the (longest) kernel's name
  uint32_t category = 0;           // index into Timeline::categories: its CategoryLabel
};

// A stretch in which nothing ran on the GPU, and why (idle_gaps.h).
struct TimelineGap {
  base::Interval interval;
  GapCause cause = GapCause::kUnattributed;
};

struct TimelineLane {
  uint32_t stream_id = 0;
  uint64_t kernels = 0;  // in the window, before merging
};

struct Timeline {
  uint32_t device_id = 0;
  std::string device;        // the GPU's name; empty when the trace does not describe it
  Statement window_label;  // "measured step 41 of 97, the median step: 812 us", ...
  base::Interval window;
  std::vector<TimelineLane> lanes;  // streams with kernels in the window, by stream id
  std::vector<TimelineItem> items;  // by start
  std::vector<TimelineGap> gaps;    // the device's idle gaps in the window, by start (see above)
  std::vector<std::string> names;   // distinct kernel names of the items
  std::vector<std::string> categories;  // distinct categories of the items
  ByCause<base::DurationNs> idle;       // all idle time in the window, by cause
  uint64_t kernels = 0;                 // kernels in the window, before merging
  uint64_t all_gaps = 0;                // gaps in the window, before leaving short ones out
  base::DurationNs resolution_ns = 0;   // 0: nothing merged or left out
};

// The timeline of the busiest GPU (most kernels); nullopt when the trace has no kernels.
std::optional<Timeline> BuildTimeline(const AnalysisInput& input);

// The same timeline with at most `max_items` items plus one per lane, merged and thinned as above
// with a coarser resolution: for a view that shows several timelines on one page within one size
// budget. Unchanged when it has no more items than that.
Timeline CoarsenTimeline(const Timeline& timeline, size_t max_items);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_REPORT_TIMELINE_H_
