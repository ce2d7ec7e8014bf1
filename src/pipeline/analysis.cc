#include "src/pipeline/analysis.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <regex>

#include "analyzers/analyzer.h"
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

// The rank a file's name states ("sampled_rank-0.json.gz", "trace_rank3.ampt"), or -1.
int32_t RankFromFileName(const std::string& path) {
  static const std::regex kRank(R"(rank[-_]?([0-9]{1,6}))", std::regex::icase);
  const std::string name = std::filesystem::path(path).filename().string();
  std::smatch match;
  if (!std::regex_search(name, match, kRank)) return -1;
  return std::stoi(match[1].str());
}

// Who this trace is: the rank the trace records, else the rank its file name states, else its process.
void LabelReport(const model::TraceModel& model, const std::string& path, analyzers::Report& report) {
  for (const model::Process& process : model.processes()) {
    if (process.rank >= 0) {
      report.rank = process.rank;
      report.label = process.world_size > 0
                         ? fmt::format("rank {} of {}", process.rank, process.world_size)
                         : fmt::format("rank {}", process.rank);
      return;
    }
  }
  if (const int32_t rank = RankFromFileName(path); rank >= 0) {
    report.rank = rank;
    report.label = fmt::format("rank {} (from the file name)", rank);
    return;
  }
  for (const model::Process& process : model.processes()) {
    if (process.pid != 0) {
      report.label = fmt::format("pid {}", process.pid);
      return;
    }
  }
  report.label = std::filesystem::path(path).filename().string();
}

}  // namespace

base::StatusOr<std::vector<std::string>> ExpandTraceInputs(const std::vector<std::string>& paths) {
  std::vector<std::string> files;
  for (const std::string& path : paths) {
    std::error_code error;
    if (!std::filesystem::is_directory(path, error)) {
      files.push_back(path);
      continue;
    }
    std::vector<std::string> found;
    for (const auto& entry : std::filesystem::directory_iterator(path, error)) {
      if (!entry.is_regular_file(error)) continue;
      const auto format = SniffTraceFormat(entry.path().string());
      if (format.ok() && *format != TraceFormat::kUnknown) {
        found.push_back(entry.path().string());
      } else {
        base::LogInfo("skipping {}: not a trace", entry.path().string());
      }
    }
    if (error) return base::IoError("{}: cannot list the directory: {}", path, error.message());
    if (found.empty()) return base::InvalidDataError("{}: no trace files in this directory", path);
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

base::StatusOr<LoadedTrace> LoadAndBuild(const std::string& path) {
  model::ModelBuilder builder;
  const auto load_start = std::chrono::steady_clock::now();
  ASSIGN_OR_RETURN(const TraceFormat format, LoadTrace(path, builder));
  base::LogInfo("read {} ({}) in {:.3f} s", path, TraceFormatName(format), SecondsSince(load_start));
  std::string description(TraceFormatName(format));
  if (format == TraceFormat::kAmpt) {
    description = "ampprof trace, format " + std::string(builder.Metadata("ampt_version"));
  }
  const auto build_start = std::chrono::steady_clock::now();
  model::TraceModel model = std::move(builder).Build();
  base::LogInfo("built the model in {:.3f} s: {} kernels, {} API calls, {} ranges, {} of tables",
                SecondsSince(build_start), model.kernels().size(), model.api_calls().size(),
                model.ranges().size(), base::FormatBytes(model.MemoryBytes()));
  return LoadedTrace{std::move(model), {path, std::move(description)}};
}

analyzers::Report Analyze(const LoadedTrace& trace) {
  analyzers::Report report;
  report.inputs = {trace.input};
  report.summary = analyzers::Summarize(trace.model);
  report.findings = analyzers::RunAnalyzers(trace.model);
  for (const analyzers::AnalyzerEntry& analyzer : analyzers::AllAnalyzers()) {
    report.checks_run.emplace_back(analyzer.name);
  }
  report.stats = trace.model.stats();
  LabelReport(trace.model, trace.input.path, report);
  return report;
}

base::StatusOr<std::vector<analyzers::Report>> AnalyzeTraces(const std::vector<std::string>& paths) {
  ASSIGN_OR_RETURN(const std::vector<std::string> files, ExpandTraceInputs(paths));
  std::vector<analyzers::Report> reports;
  for (const std::string& file : files) {
    ASSIGN_OR_RETURN(const LoadedTrace trace, LoadAndBuild(file));  // one model in memory at a time
    reports.push_back(Analyze(trace));
  }
  // Ranks in order; traces without a rank after them, in the order given.
  std::stable_sort(reports.begin(), reports.end(), [](const analyzers::Report& a, const analyzers::Report& b) {
    return (a.rank < 0 ? INT32_MAX : a.rank) < (b.rank < 0 ? INT32_MAX : b.rank);
  });
  return reports;
}

}  // namespace ampprof::pipeline
