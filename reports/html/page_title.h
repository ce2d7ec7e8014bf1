#ifndef AMPPROF_REPORTS_HTML_PAGE_TITLE_H_
#define AMPPROF_REPORTS_HTML_PAGE_TITLE_H_

// The HTML page's <title>: what a browser tab and a bookmark show, so it names the workload and the
// rank rather than a process id ("ampprof: python train.py, rank 3"; "ampprof: python train.py, 8
// ranks"). Without a workload, the trace's file name; a long workload is cut at a word, never inside a
// UTF-8 character.

#include <span>
#include <string>

#include "analyzers/report/report.h"

namespace ampprof::reports {

std::string PageTitle(std::span<const analyzers::Report> reports);

// One report's heading on the page, by the same rule: what ran and its rank, then the process or rank
// label when it adds something ("python train.py, rank 3"; "python (pid 24248)").
std::string ReportHeading(const analyzers::Report& report);

}  // namespace ampprof::reports

#endif  // AMPPROF_REPORTS_HTML_PAGE_TITLE_H_
