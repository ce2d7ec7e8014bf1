#include "src/pipeline/analysis.h"

#include "analyzers/summary.h"
#include "src/model/model_builder.h"
#include "src/pipeline/trace_loader.h"

namespace ampprof::pipeline {

base::StatusOr<LoadedTraces> LoadAndBuild(const std::vector<std::string>& paths) {
  model::ModelBuilder builder;
  std::vector<analyzers::ReportInput> inputs;
  for (const std::string& path : paths) {
    ASSIGN_OR_RETURN(const TraceFormat format, LoadTrace(path, builder));
    std::string description(TraceFormatName(format));
    if (format == TraceFormat::kAmpt) {
      description = "ampprof trace, format " + std::string(builder.Metadata("ampt_version"));
    }
    inputs.push_back({path, std::move(description)});
  }
  return LoadedTraces{std::move(builder).Build(), std::move(inputs)};
}

analyzers::Report Analyze(const LoadedTraces& traces) {
  analyzers::Report report;
  report.inputs = traces.inputs;
  report.summary = analyzers::Summarize(traces.model);
  report.stats = traces.model.stats();
  return report;
}

base::StatusOr<analyzers::Report> AnalyzeTraces(const std::vector<std::string>& paths) {
  ASSIGN_OR_RETURN(const LoadedTraces traces, LoadAndBuild(paths));
  return Analyze(traces);
}

}  // namespace ampprof::pipeline
