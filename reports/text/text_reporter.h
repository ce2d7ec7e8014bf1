#ifndef AMPPROF_REPORTS_TEXT_TEXT_REPORTER_H_
#define AMPPROF_REPORTS_TEXT_TEXT_REPORTER_H_

// Renders a Report as text for the terminal, at most `width` (100) columns wide, in colour when asked.
//
//   RenderText(report, std::cout, {.color = isatty(1) && !getenv("NO_COLOR"), .verbose = false});
//
// Layout, most important first: the header (trace, format, workload, rank, each GPU with its kernels
// and busy fraction, span, steps, data quality), the verdict (analyzers/verdict.h), the findings in
// the Report's order (most severe first, then by the step time their fix saves) each with its evidence and its fix
// (analyzers/finding_fix.h), and the FP32 comparison when there is one. `verbose` adds the tables:
// each GPU's idle time by cause and peak memory, the record counts, kernel time by category, the top
// kernels and the first steps' times (text_tables.h). The data-quality counters that are not zero
// close every report, with what each means. Long kernel names are shortened in the middle so both the
// namespace and the tile configuration stay visible. Colour only ever wraps text already laid out.

#include <ostream>
#include <span>

#include "analyzers/report/report.h"

namespace ampprof::reports {

struct TextOptions {
  size_t width = 100;
  bool color = false;    // ANSI colours (severities, headings); the caller checks for a TTY and NO_COLOR
  bool verbose = false;  // add the tables after the findings
};

void RenderText(const analyzers::Report& report, std::ostream& out, const TextOptions& options);

// Several traces of one run (ranks): each report under a heading with its label.
void RenderText(std::span<const analyzers::Report> reports, std::ostream& out, const TextOptions& options);

}  // namespace ampprof::reports

#endif  // AMPPROF_REPORTS_TEXT_TEXT_REPORTER_H_
