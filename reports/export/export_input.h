#ifndef AMPPROF_REPORTS_EXPORT_EXPORT_INPUT_H_
#define AMPPROF_REPORTS_EXPORT_EXPORT_INPUT_H_

// What an exporter reads: the model of one trace and what the analysis found in it. Unlike the
// reporters, which render a Report, the exports redraw the trace itself (every kernel, call and
// range), so they read the model; the diagnosis (steps, findings) comes from the analyzers, never
// recomputed.
//
//   const std::optional<analyzers::Steps>& steps = analysis_input.steps();
//   const std::vector<analyzers::Finding> findings = analyzers::RunAnalyzers(analysis_input);
//   RETURN_IF_ERROR(WriteChromeTrace({model, steps, findings, "run.ampt"}, file));

#include <optional>
#include <span>
#include <string_view>

#include "analyzers/findings/finding.h"
#include "analyzers/facts/steps.h"
#include "src/model/trace_model.h"

namespace ampprof::reports {

struct ExportInput {
  const model::TraceModel& model;
  const std::optional<analyzers::Steps>& steps;  // nullopt when the trace marks no training loop
  std::span<const analyzers::Finding> findings;  // in report order (most severe first)
  std::string_view trace_path;                   // named in the exported file, for whoever opens it
};

}  // namespace ampprof::reports

#endif  // AMPPROF_REPORTS_EXPORT_EXPORT_INPUT_H_
