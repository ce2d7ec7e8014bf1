#ifndef AMPPROF_ANALYZERS_REPORT_REPORT_H_
#define AMPPROF_ANALYZERS_REPORT_REPORT_H_

// Report: everything a view shows, computed once by the analyze stage and rendered by every reporter
// (text now; JSON, HTML and Markdown render the same struct), so the views never disagree. It holds
// values, not references into the model, so it outlives the model and can be serialised as it is.
//
//   Report report = ...;              // from pipeline::AnalyzeTraces
//   reports::RenderText(report, std::cout, {});

#include <optional>
#include <string>
#include <vector>

#include "analyzers/report/compare.h"
#include "analyzers/findings/finding.h"
#include "analyzers/report/op_table.h"
#include "analyzers/report/summary.h"
#include "analyzers/report/timeline.h"
#include "analyzers/report/workload_outcome.h"
#include "src/base/stats.h"

namespace ampprof::analyzers {

struct ReportInput {
  std::string path;
  std::string format;  // "ampt 1.0", ...; for a library log, what was attached from it
  bool library_log = false;  // a cuBLASLt/cuBLAS/cuDNN log of run --library-logs, not a trace
};

struct Report {
  std::string label;  // who this trace is: "rank 3 of 8", "pid 4242", or the file name
  int32_t rank = -1;  // -1 when the trace is not a rank of a distributed job
  std::vector<ReportInput> inputs;
  // How the traced program ended, when `ampprof run`/`compare` ran it and made this report.
  std::optional<WorkloadOutcome> workload_outcome;
  TraceSummary summary;
  std::vector<Finding> findings;         // most severe first, then by the step time a fix would save
  std::vector<std::string> checks_run;   // the finding ids that were checked, so that "no finding" is read right
  std::optional<Comparison> comparison;  // against an FP32 baseline trace (analyze --baseline), when given
  // A representative step of the busiest GPU (timeline.h); nullopt when the trace has no kernels. With
  // a comparison, the baseline's too, so that the views can show both runs' steps side by side.
  std::optional<Timeline> timeline;
  std::optional<Timeline> baseline_timeline;
  // GPU time by the framework op that launched it (op_table.h); nullopt when the trace has no ops.
  std::optional<OpTable> ops;
  base::Stats stats;  // data quality: every view prints the non-zero ones
};

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_REPORT_REPORT_H_
