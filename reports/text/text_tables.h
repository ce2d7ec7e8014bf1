#ifndef AMPPROF_REPORTS_TEXT_TEXT_TABLES_H_
#define AMPPROF_REPORTS_TEXT_TEXT_TABLES_H_

// The tables of the terminal report that `analyze --verbose` adds after the findings: each GPU in
// detail (idle time by cause, peak memory), the record counts, kernel time by category, the top
// kernels and the per-step times; and the data-quality list every report ends with when a counter is
// not zero. Each renders one part of the Report into `out`, at most `width` columns wide.

#include <ostream>

#include "analyzers/report/report.h"
#include "reports/text/text_style.h"

namespace ampprof::reports {

void RenderDeviceDetails(const analyzers::Report& report, std::ostream& out, const TextStyle& style, size_t width);
void RenderRecordCounts(const analyzers::Report& report, std::ostream& out);
// The step account of each GPU (docs/step-account.md): every bucket with time, its share of the
// analysed window, per step and in all.
void RenderAccount(const analyzers::Report& report, std::ostream& out, const TextStyle& style, size_t width);
void RenderTopKernels(const analyzers::Report& report, std::ostream& out, const TextStyle& style, size_t width);
// The op table (analyzers/report/op_table.h): GPU time by the framework op that launched it, with its
// shapes, input type and unit; nothing when the trace has no ops.
void RenderOpTable(const analyzers::Report& report, std::ostream& out, const TextStyle& style, size_t width);
// The first steps (summary.step_times) with their start, duration and a bar scaled to the longest.
void RenderStepTimes(const analyzers::Report& report, std::ostream& out, const TextStyle& style, size_t width);
// Non-zero data-quality counters with what each means; nothing when all are zero.
void RenderDataQuality(const analyzers::Report& report, std::ostream& out, const TextStyle& style, size_t width);

}  // namespace ampprof::reports

#endif  // AMPPROF_REPORTS_TEXT_TEXT_TABLES_H_
