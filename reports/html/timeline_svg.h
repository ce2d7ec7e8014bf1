#ifndef AMPPROF_REPORTS_HTML_TIMELINE_SVG_H_
#define AMPPROF_REPORTS_HTML_TIMELINE_SVG_H_

// One analyzers::Timeline as a block of the HTML report: a toolbar, the stream labels, an inline
// SVG with one rectangle per item (grouped by category, so the colour is set once per group) over
// the idle gaps shaded by cause, an axis, a legend with the idle time by cause, and a JSON block
// with the names the script shows on hover. x is microseconds from the window's start; the script
// zooms by changing the SVG's viewBox, so the page is readable without it.
//
//   RenderTimeline(timeline, {.id = "tl-0-amp", .title = "AMP", .width_percent = 100}, out);

#include <ostream>
#include <string>

#include "analyzers/report/timeline.h"

namespace ampprof::reports {

struct TimelineBlock {
  std::string id;              // unique in the page
  std::string title;           // "AMP", "FP32", or "" for a single timeline
  double width_percent = 100;  // of the row: timelines compared side by side share one time scale
};

void RenderTimeline(const analyzers::Timeline& timeline, const TimelineBlock& block,
                    std::ostream& out);

}  // namespace ampprof::reports

#endif  // AMPPROF_REPORTS_HTML_TIMELINE_SVG_H_
