#ifndef AMPPROF_REPORTS_HTML_HTML_REPORTER_H_
#define AMPPROF_REPORTS_HTML_HTML_REPORTER_H_

// Renders Reports as one self-contained HTML page, a file to open in a browser or send to a
// colleague: its stylesheet and script are inline (html_assets.h), it loads nothing from the
// network, and everything taken from traces is escaped.
//
//   RenderHtml(reports, file, HtmlOptions{});
//
// Sections, per report (one per rank): the verdict; FP32 vs AMP side by side when there is a
// baseline (step time, peak memory, GPU time per step as stacked bars by category and idle cause,
// the table of differences); the GPU timeline of a representative step of each run
// (timeline_svg.h); the findings with their evidence and the fix from the finding's page
// (docs/findings/<id>.md), code ready to copy; kernel time by category and the top kernels,
// sortable and filterable; the data-quality counters.
//
// Size. The timelines are the only part that grows with the trace; together they are held to
// options.max_timeline_items (analyzers::CoarsenTimeline), so a page stays well under 5 MB whatever
// the trace size. Kernel names are shortened to kMaxNameLength in tables.

#include <ostream>
#include <span>

#include "analyzers/ranks/job_report.h"
#include "analyzers/report/report.h"

namespace ampprof::reports {

struct HtmlOptions {
  size_t max_timeline_items = 8000;  // over all timelines of the page
  // Several ranks of one job: the cross-rank report first (job_html.h), then the reports given.
  const analyzers::JobReport* job = nullptr;
};

inline constexpr size_t kMaxNameLength = 512;

void RenderHtml(std::span<const analyzers::Report> reports, std::ostream& out,
                const HtmlOptions& options);

}  // namespace ampprof::reports

#endif  // AMPPROF_REPORTS_HTML_HTML_REPORTER_H_
