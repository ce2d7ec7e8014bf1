#ifndef AMPPROF_SRC_PIPELINE_ANALYSIS_H_
#define AMPPROF_SRC_PIPELINE_ANALYSIS_H_

// load -> build -> analyze: from trace files to Reports.
//
//   ASSIGN_OR_RETURN(std::vector<analyzers::Report> reports, AnalyzeTraces({"traces/"}));
//   reports::RenderText(reports, std::cout, {});
//
// Each trace file is one process of a run (one rank of a distributed job), so each becomes its own
// model and its own report; reports come in rank order. A directory stands for the trace files in it
// and "-" for standard input (trace_inputs.h). One model at a time is in memory. A file the user named
// that cannot be read fails the whole analysis with its error; a file found in a directory that cannot
// be read is skipped with a warning, and the directory fails only when none of its files can be read.
//
// With a baseline (the FP32 run of the same workload), each report also gets the comparison with it
// (analyzers/compare.h) and, when mixed precision is not faster, the amp.slower_than_fp32 finding. The
// baseline is read first, each of its files reduced to a small RunProfile, so two models are never in
// memory together. Ranks are compared rank by rank when both runs have the same ranks; otherwise the
// first trace of each is compared and the report says so.

#include <functional>
#include <string>
#include <vector>

#include "analyzers/facts/kernel_classifier.h"
#include "analyzers/report/report.h"
#include "src/base/progress.h"
#include "src/base/status.h"
#include "analyzers/facts/analysis_input.h"
#include "src/model/trace_model.h"
#include "src/pipeline/library_log_files.h"
#include "src/pipeline/trace_inputs.h"
#include "src/pipeline/trace_loader.h"

namespace ampprof::pipeline {

struct LoadedTrace {
  model::TraceModel model;
  analyzers::ReportInput input;
  TraceFormat format = TraceFormat::kUnknown;  // what the file was read as
  LibraryLogFiles library_logs;                // run --library-logs' logs beside it (library_log_files.h)
};

// Reads and builds one trace, and reads the library logs beside it; a path converts to a TraceFile (its
// name in messages and reports). `import_threads`: see LoadTrace.
base::StatusOr<LoadedTrace> LoadAndBuild(const TraceFile& file, unsigned import_threads = 1);

// What a report lists as its inputs: the trace, then each library log with what was attached from it
// ("cuBLAS API log: 14 of 16 calls attached to kernels").
std::vector<analyzers::ReportInput> ReportInputsOf(const LoadedTrace& trace, const analyzers::AnalysisInput& input);

// Who the trace is: the rank it records, else the rank its file name states, else its process.
analyzers::RunIdentity IdentifyRun(const LoadedTrace& trace);

analyzers::Report Analyze(const LoadedTrace& trace);

struct AnalyzeOptions {
  std::string baseline;  // FP32 trace file or directory of rank traces; empty: no comparison
  // Told as each trace is read and analysed (two units per trace, baseline traces included); may be null.
  base::Progress* progress = nullptr;
  // Called once the inputs are known (directories listed, standard input copied) and before any is read,
  // with the traces and the baseline's (empty without one); its error ends the analysis. The CLI refuses
  // there an output that is one of the inputs. May be empty.
  std::function<base::Status(const TraceInputs& traces, const TraceInputs& baseline)> before_reading = nullptr;
  // Classifies kernels for this analysis (--kernel-rules); null: the active one, by default the built-in.
  const analyzers::KernelClassifier* classifier = nullptr;
};

base::StatusOr<std::vector<analyzers::Report>> AnalyzeTraces(const std::vector<std::string>& paths,
                                                             const AnalyzeOptions& options = {});

}  // namespace ampprof::pipeline

#endif  // AMPPROF_SRC_PIPELINE_ANALYSIS_H_
