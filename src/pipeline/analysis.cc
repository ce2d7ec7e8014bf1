#include "src/pipeline/analysis.h"

#include <chrono>

#include "analyzers/summary.h"
#include "src/base/format.h"
#include "src/base/logging.h"
#include "src/model/model_builder.h"
#include "src/pipeline/trace_loader.h"

namespace ampprof::pipeline {

namespace {

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

base::StatusOr<LoadedTraces> LoadAndBuild(const std::vector<std::string>& paths) {
  model::ModelBuilder builder;
  std::vector<analyzers::ReportInput> inputs;
  for (const std::string& path : paths) {
    const auto load_start = std::chrono::steady_clock::now();
    ASSIGN_OR_RETURN(const TraceFormat format, LoadTrace(path, builder));
    base::LogInfo("read {} ({}) in {:.3f} s", path, TraceFormatName(format), SecondsSince(load_start));
    std::string description(TraceFormatName(format));
    if (format == TraceFormat::kAmpt) {
      description = "ampprof trace, format " + std::string(builder.Metadata("ampt_version"));
    }
    inputs.push_back({path, std::move(description)});
  }
  const auto build_start = std::chrono::steady_clock::now();
  model::TraceModel model = std::move(builder).Build();
  base::LogInfo("built the model in {:.3f} s: {} kernels, {} API calls, {} ranges, {} of tables",
                SecondsSince(build_start), model.kernels().size(), model.api_calls().size(),
                model.ranges().size(), base::FormatBytes(model.MemoryBytes()));
  return LoadedTraces{std::move(model), std::move(inputs)};
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
