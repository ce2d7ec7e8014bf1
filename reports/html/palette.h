#ifndef AMPPROF_REPORTS_HTML_PALETTE_H_
#define AMPPROF_REPORTS_HTML_PALETTE_H_

// The colours of the HTML report, one per kernel category label (summary.h's CategoryLabel) and per
// idle cause, so that a category has the same colour in the timeline, the stacked bars and the
// tables. Tensor-Core GEMMs are green and GEMMs on CUDA cores red (what AMP should have removed);
// every two categories and idle causes stay apart also for colour-blind readers (palette_test.cc
// checks the CIEDE2000 distances in normal vision and with deuteranopia and protanopia simulated).

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
