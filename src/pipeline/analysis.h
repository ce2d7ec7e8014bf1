#ifndef AMPPROF_SRC_PIPELINE_ANALYSIS_H_
#define AMPPROF_SRC_PIPELINE_ANALYSIS_H_

// load -> build -> analyze: from trace files to Reports.
//
//   ASSIGN_OR_RETURN(std::vector<analyzers::Report> reports, AnalyzeTraces({"traces/"}));
//   reports::RenderText(reports, std::cout, {});
//
// Each trace file is one process of a run (one rank of a distributed job), so each becomes its own
// model and its own report; reports come in rank order. A directory stands for the trace files in it.
// One model at a time is in memory. A file that cannot be read fails the whole analysis with its error.

#include <string>
#include <vector>

#include "analyzers/report.h"
#include "src/base/status.h"
#include "src/model/trace_model.h"

namespace ampprof::pipeline {

struct LoadedTrace {
  model::TraceModel model;
  analyzers::ReportInput input;
};

// Directories become the trace files directly in them (sorted by name; files of no known format are
// skipped); files stay as they are. A directory with no trace in it is an error.
base::StatusOr<std::vector<std::string>> ExpandTraceInputs(const std::vector<std::string>& paths);

base::StatusOr<LoadedTrace> LoadAndBuild(const std::string& path);

analyzers::Report Analyze(const LoadedTrace& trace);

base::StatusOr<std::vector<analyzers::Report>> AnalyzeTraces(const std::vector<std::string>& paths);

}  // namespace ampprof::pipeline

#endif  // AMPPROF_SRC_PIPELINE_ANALYSIS_H_
