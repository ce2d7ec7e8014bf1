#ifndef AMPPROF_REPORTS_MARKDOWN_JOB_MARKDOWN_H_
#define AMPPROF_REPORTS_MARKDOWN_JOB_MARKDOWN_H_

// The cross-rank report (analyzers/ranks/job_report.h) as Markdown for a pull request or a CI job page:
// the headline, the notes, the stragglers, a table of the findings merged across ranks, a ranks x
// measures table and idle by cause per rank; the per-rank summaries asked for follow (RenderMarkdown).
//
//   RenderJobMarkdown(job, kept_reports, std::cout);

#include <ostream>
#include <span>

#include "analyzers/ranks/job_report.h"
#include "analyzers/report/report.h"

namespace ampprof::reports {

void RenderJobMarkdown(const analyzers::JobReport& job, std::span<const analyzers::Report> reports,
                       std::ostream& out);

}  // namespace ampprof::reports

#endif  // AMPPROF_REPORTS_MARKDOWN_JOB_MARKDOWN_H_
