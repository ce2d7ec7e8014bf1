#ifndef AMPPROF_SRC_PIPELINE_ANALYSIS_H_
#define AMPPROF_SRC_PIPELINE_ANALYSIS_H_

// load -> build -> analyze: from trace files to a Report.
//
//   ASSIGN_OR_RETURN(analyzers::Report report, AnalyzeTraces({"rank0.ampt", "rank1.ampt"}));
//   reports::RenderText(report, std::cout, {});
//
// All files go into one model: they are the processes of one run (ranks, or a launcher and its
// workers). A file that cannot be read fails the whole analysis with that file's error.

#include <string>
#include <vector>

#include "analyzers/report.h"
#include "src/base/status.h"
#include "src/model/trace_model.h"

namespace ampprof::pipeline {

struct LoadedTraces {
  model::TraceModel model;
  std::vector<analyzers::ReportInput> inputs;
};

base::StatusOr<LoadedTraces> LoadAndBuild(const std::vector<std::string>& paths);

analyzers::Report Analyze(const LoadedTraces& traces);

base::StatusOr<analyzers::Report> AnalyzeTraces(const std::vector<std::string>& paths);

}  // namespace ampprof::pipeline

#endif  // AMPPROF_SRC_PIPELINE_ANALYSIS_H_
