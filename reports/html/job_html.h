#ifndef AMPPROF_REPORTS_HTML_JOB_HTML_H_
#define AMPPROF_REPORTS_HTML_JOB_HTML_H_

// The cross-rank report (analyzers/ranks/job_report.h) as a section of the HTML page, before the
// per-rank reports asked for: the headline, the notes, the stragglers, the findings merged across
// ranks, and the ranks x measures table as a heat map (each cell shaded by its value against the
// column's largest, so a straggler's row and its peers' waits stand out), then idle by cause per rank.
//
//   RenderJobHtml(job, out);   // inside the page's <div class="page">

#include <ostream>

#include "analyzers/ranks/job_report.h"

namespace ampprof::reports {

void RenderJobHtml(const analyzers::JobReport& job, std::ostream& out);

}  // namespace ampprof::reports

#endif  // AMPPROF_REPORTS_HTML_JOB_HTML_H_
