#ifndef AMPPROF_REPORTS_MARKDOWN_MARKDOWN_REPORTER_H_
#define AMPPROF_REPORTS_MARKDOWN_MARKDOWN_REPORTER_H_

// Renders Reports as a short Markdown summary for a pull-request comment or a CI job page
// (`ampprof analyze --format md`, e.g. appended to $GITHUB_STEP_SUMMARY). GitHub-flavoured: a heading
// per trace with the verdict, one line of context (trace, GPU, steps, data quality), a table of the
// findings with the fix of each, their evidence folded in <details>, and the FP32 comparison's
// speed-up with its largest rows. The full picture is the text, JSON or HTML report; this is what fits
// in a comment.
//
//   RenderMarkdown(reports, std::cout);
//
//   ### ampprof: pid 4242
//
//   **1 finding (1 critical): start with gpu.launch_bound (saves 29.1% of the step)**
//   ...
//   | severity | finding | what was measured | fix |

#include <ostream>
#include <span>

#include "analyzers/report/report.h"

namespace ampprof::reports {

// At most this many comparison rows: the largest changes; the rest are in the other views.
inline constexpr size_t kMarkdownComparisonRows = 6;

void RenderMarkdown(std::span<const analyzers::Report> reports, std::ostream& out);

}  // namespace ampprof::reports

#endif  // AMPPROF_REPORTS_MARKDOWN_MARKDOWN_REPORTER_H_
