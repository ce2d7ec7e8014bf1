#ifndef AMPPROF_SRC_PIPELINE_JOB_ANALYSIS_H_
#define AMPPROF_SRC_PIPELINE_JOB_ANALYSIS_H_

// The map of the cross-rank report: every input reduced to its rank summary (analyzers/ranks/
// rank_summary.h), on up to `jobs` threads, with the per-rank reports kept only where they are wanted.
//
//   ASSIGN_OR_RETURN(JobAnalysis analysis, AnalyzeJob({"traces/"}, {.jobs = 8}));
//   if (analyzers::IsJob(analysis.summaries)) {
//     const analyzers::JobReport job = analyzers::ReduceRanks(analysis.summaries);
//     ...
//   }
//
// An input is a trace (any format AnalyzeTraces reads) or a rank summary file (written by `ampprof
// analyze --summary-only`; reports/json/rank_summary_json.h), which holds one or more ranks already
// reduced: the reduce step of a map run elsewhere. Both kinds may be mixed.
//
// Memory: each thread holds one model at a time, so at most `jobs` models are in memory together;
// what stays is a summary per rank (a few KiB) and the reports kept (KeepReport). Errors are those of
// AnalyzeTraces: a file the user named that cannot be read fails the analysis (the first in input
// order, once every thread has stopped), a file found in a directory is skipped with a warning.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "analyzers/facts/kernel_classifier.h"
#include "analyzers/ranks/rank_summary.h"
#include "analyzers/report/report.h"
#include "src/base/progress.h"
#include "src/base/status.h"
#include "src/pipeline/trace_inputs.h"

namespace ampprof::pipeline {

struct JobAnalysisOptions {
  // Threads that read and analyse traces; each holds one model at a time. 0: the machine's cores.
  // Fewer traces than threads share the spare threads out to split their imports (LoadTrace).
  unsigned jobs = 1;
  // Which per-rank reports to keep. With neither, a report is kept only while fewer than two ranked
  // traces have been read: a single trace (or traces without ranks) keep their reports, a job keeps
  // none.
  bool all_reports = false;
  int32_t rank = -1;  // >= 0: also keep this rank's report
  base::Progress* progress = nullptr;
  std::function<base::Status(const TraceInputs& traces)> before_reading = nullptr;
  const analyzers::KernelClassifier* classifier = nullptr;
};

struct JobAnalysis {
  // One per rank read: from each trace, and each rank of each summary file; in input order.
  std::vector<analyzers::RankSummary> summaries;
  // The reports kept (JobAnalysisOptions), in rank order (traces without a rank last).
  std::vector<analyzers::Report> reports;
  // Summaries that came from summary files, not traces: they have no report to show.
  size_t from_summary_files = 0;
};

base::StatusOr<JobAnalysis> AnalyzeJob(const std::vector<std::string>& paths, const JobAnalysisOptions& options);

// The number of threads -j 0 means: the cores this process may run on, at least 1.
unsigned DefaultJobs();

}  // namespace ampprof::pipeline

#endif  // AMPPROF_SRC_PIPELINE_JOB_ANALYSIS_H_
