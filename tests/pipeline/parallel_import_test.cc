// Every PyTorch profiler (Kineto) JSON trace the project has (tests/data/kineto, the H100 samples and
// ../shared/fixtures, plain and gzip) gives the same model and the same report, byte for byte, whether
// its import runs on one thread or splits the event array into blocks on several (event_blocks.h).

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "analyzers/facts/analysis_input.h"
#include "analyzers/report/assemble.h"
#include "collectors/kineto/kineto_importer.h"
#include "reports/json/json_reporter.h"
#include "src/model/model_builder.h"
#include "src/pipeline/analysis.h"
#include "src/pipeline/trace_loader.h"

namespace ampprof::pipeline {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> KinetoTraces() {
  const fs::path source(AMPPROF_SOURCE_DIR);
  std::vector<std::string> traces;
  for (const fs::path& root : {source / "tests/data/kineto", source / "samples/traces", source / "../shared/fixtures"}) {
    if (!fs::is_directory(root)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
      const std::string name = entry.path().filename().string();
      if (!entry.is_regular_file() || !(name.ends_with(".json") || name.ends_with(".json.gz"))) continue;
      const auto format = SniffTraceFormat(entry.path().string());
      if (format.ok() && *format == TraceFormat::kKinetoJson) traces.push_back(entry.path().string());
    }
  }
  std::sort(traces.begin(), traces.end());
  return traces;
}

// The report JSON of `path` imported with `options`, or the import's error.
std::string ReportJson(const std::string& path, const kineto::EventBlockOptions& options) {
  model::ModelBuilder builder;
  const base::Status status = kineto::ImportKinetoTrace(path, builder, options);
  if (!status.ok()) return "error: " + status.message();
  LoadedTrace trace;
  trace.model = std::move(builder).Build();
  trace.input = {path, "PyTorch profiler (Kineto) JSON"};
  trace.format = TraceFormat::kKinetoJson;
  const analyzers::AnalysisInput input(trace.model);
  std::vector<analyzers::Report> reports;
  reports.push_back(analyzers::AnalyzeTrace(input, IdentifyRun(trace), {trace.input}).report);
  std::ostringstream json;
  reports::RenderJson(reports, json, {});
  return json.str();
}

TEST(ParallelImport, EveryKinetoTraceGivesTheSameReportOnSeveralThreads) {
  const std::vector<std::string> traces = KinetoTraces();
  ASSERT_GE(traces.size(), 5u);  // at least this project's own and the H100 samples
  size_t reports = 0;
  for (const std::string& path : traces) {
    SCOPED_TRACE(path);
    const std::string one = ReportJson(path, {.threads = 1});
    reports += one.starts_with("error: ") ? 0 : 1;
    // Windows of 64 KiB in blocks of 1 KiB or more: every trace here is many windows of several blocks.
    EXPECT_EQ(one, ReportJson(path, {.threads = 4, .window_bytes = 64 << 10, .min_block_bytes = 1 << 10}));
    EXPECT_EQ(one, ReportJson(path, {.threads = 2}));  // the defaults: one window for most of these
  }
  EXPECT_GE(reports, 5u);
}

}  // namespace
}  // namespace ampprof::pipeline
