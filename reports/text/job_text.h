#ifndef AMPPROF_REPORTS_TEXT_JOB_TEXT_H_
#define AMPPROF_REPORTS_TEXT_JOB_TEXT_H_

// The cross-rank report (analyzers/ranks/job_report.h) as text for the terminal: the headline, the
// notes on traces that may not belong together, the stragglers (or why none), the findings merged
// across ranks, the spread of each measure, and the ranks x measures table; `verbose` adds idle by
// cause per rank. The per-rank reports asked for follow, each as RenderText prints it.
//
//   RenderJobText(job, kept_reports, std::cout, {.color = false});

#include <ostream>
#include <span>

#include "analyzers/ranks/job_report.h"
#include "analyzers/report/report.h"
#include "reports/text/text_reporter.h"

namespace ampprof::reports {

void RenderJobText(const analyzers::JobReport& job, std::span<const analyzers::Report> reports, std::ostream& out,
                   const TextOptions& options);

}  // namespace ampprof::reports

#endif  // AMPPROF_REPORTS_TEXT_JOB_TEXT_H_
