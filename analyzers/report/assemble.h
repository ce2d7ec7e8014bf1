#ifndef AMPPROF_ANALYZERS_REPORT_ASSEMBLE_H_
#define AMPPROF_ANALYZERS_REPORT_ASSEMBLE_H_

// The Report of one trace, assembled from its AnalysisInput (built once: kernel classes, steps, the step
// account) by the summary, the findings, the timeline and, with an FP32 baseline, the comparison. Pure
// functions: the pipeline reads files and pairs traces; everything a report says is decided here.
//
//   const AnalysisInput input(model);
//   TraceAnalysis analysis = AnalyzeTrace(input, identity, {{path, "ampt 1.0"}});
//   Report report = WithComparison(std::move(analysis), baseline, "");   // or std::move(analysis.report)

#include <optional>
#include <string>
#include <vector>

#include "analyzers/facts/analysis_input.h"
#include "analyzers/report/compare.h"
#include "analyzers/report/report.h"
#include "analyzers/report/timeline.h"

namespace ampprof::analyzers {

// One trace analysed, before any comparison: its report and what a comparison needs of it.
struct TraceAnalysis {
  Report report;
  RunProfile profile;
};

TraceAnalysis AnalyzeTrace(const AnalysisInput& input, const RunIdentity& identity, std::vector<ReportInput> inputs);

// The FP32 run one trace is compared with: all the comparison keeps of its model.
struct BaselineRun {
  RunProfile profile;
  std::optional<Timeline> timeline;
};
BaselineRun ReduceBaseline(const AnalysisInput& input, const RunIdentity& identity);

// The candidate's report with the comparison: the comparison itself, its finding among the others (in
// order), the baseline's timeline. `pairing` is how the traces were paired when that needs saying.
Report WithComparison(TraceAnalysis candidate, const BaselineRun& baseline, const std::string& pairing);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_REPORT_ASSEMBLE_H_
