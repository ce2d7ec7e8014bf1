#ifndef AMPPROF_REPORTS_HTML_PALETTE_H_
#define AMPPROF_REPORTS_HTML_PALETTE_H_

// The colours of the HTML report, one per kernel category label (summary.h's CategoryLabel) and per
// idle cause, so that a category has the same colour in the timeline, the stacked bars and the
// tables. Tensor-Core math is green, FP32 math on CUDA cores red/orange (what AMP should have
// removed), TF32 in between; AMP's own overheads (casts, GradScaler, layout conversions) in purples
// and browns; idle time in warm shades by cause.

#include <string_view>

#include "analyzers/facts/idle_gaps.h"
#include "analyzers/report/summary.h"

namespace ampprof::reports {

// A CSS colour ("#2e9e4f"); grey for a label it does not know.
std::string_view CategoryColor(std::string_view category_label);
std::string_view IdleColor(analyzers::GapCause cause);

// The colour of a comparison row (compare.h): its category's, its idle cause's, or grey.
std::string_view ComparisonRowColor(std::string_view row_label);
// The colour of a row of the step account (summary.h): a compute row by its category, the others as
// comparison rows.
std::string_view AccountRowColor(const analyzers::AccountRow& row);

}  // namespace ampprof::reports

#endif  // AMPPROF_REPORTS_HTML_PALETTE_H_
