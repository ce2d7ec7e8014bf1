#ifndef AMPPROF_REPORTS_TEXT_TEXT_REPORTER_H_
#define AMPPROF_REPORTS_TEXT_TEXT_REPORTER_H_

// Renders a Report as plain text for the terminal, at most 100 columns wide.
//
//   RenderText(report, std::cout, TextOptions{});
//
// Layout: the inputs and workload, then one block per GPU (kernels, streams, span, busy fraction), the
// record counts, the top kernels by time, and the data-quality stats that are not zero. Long kernel
// names are shortened in the middle so both the namespace and the tile configuration stay visible.

#include <ostream>
#include <span>

#include "analyzers/report.h"

namespace ampprof::reports {

struct TextOptions {
  size_t width = 100;
};

void RenderText(const analyzers::Report& report, std::ostream& out, const TextOptions& options);

// Several traces of one run (ranks): each report under a heading with its label.
void RenderText(std::span<const analyzers::Report> reports, std::ostream& out, const TextOptions& options);

}  // namespace ampprof::reports

#endif  // AMPPROF_REPORTS_TEXT_TEXT_REPORTER_H_
