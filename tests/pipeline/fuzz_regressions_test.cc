// Every input the fuzzers (tests/fuzz) found a problem with, kept in tests/data/fuzz/ (README.md there
// says what each one broke), goes through what `ampprof analyze` does: load, build, every analyzer, every
// report format. Under the sanitizer build in CI this also catches the undefined behaviour they caused.

#include <filesystem>
#include <ostream>
#include <span>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "reports/html/html_reporter.h"
#include "reports/json/json_reporter.h"
#include "reports/markdown/markdown_reporter.h"
#include "reports/text/text_reporter.h"
#include "src/pipeline/analysis.h"

namespace ampprof::pipeline {
namespace {

const std::filesystem::path kFuzzData = std::filesystem::path(AMPPROF_SOURCE_DIR) / "tests/data/fuzz";

// What analyze does with a readable trace, every format rendered; the text report returned.
std::string AnalyzeAndRenderAll(const LoadedTrace& trace) {
  const analyzers::Report report = Analyze(trace);
  const std::span<const analyzers::Report> reports(&report, 1);
  std::ostringstream text, other;
  reports::RenderText(reports, text, {.color = true, .verbose = true});
  reports::RenderJson(reports, other, {});
  reports::RenderMarkdown(reports, other);
  reports::RenderHtml(reports, other, {});
  EXPECT_FALSE(other.str().empty());
  return text.str();
}

TEST(FuzzRegressions, EveryFoundInputIsAnalysedOrRefusedWithAnError) {
  size_t inputs = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kFuzzData)) {
    if (entry.path().extension() == ".md") continue;
    ++inputs;
    SCOPED_TRACE(entry.path().filename().string());
    const base::StatusOr<LoadedTrace> trace = LoadAndBuild(entry.path().string());
    if (!trace.ok()) {
      EXPECT_NE(trace.status().message().find(entry.path().filename().string()), std::string::npos)
          << "an error names the file: " << trace.status().message();
      continue;
    }
    EXPECT_FALSE(AnalyzeAndRenderAll(*trace).empty());
  }
  EXPECT_GE(inputs, 3u);
}

// Boundary kernels of a "repeating kernel sequence" on several streams can end out of order; a step
// of negative duration followed, and the text report's step bar asked for 2^64 characters.
TEST(FuzzRegressions, StepsFromOverlappingBoundaryKernelsNeverRunBackwards) {
  const base::StatusOr<LoadedTrace> trace = LoadAndBuild((kFuzzData / "ampt-negative-step.ampt").string());
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  const analyzers::Report report = Analyze(*trace);
  ASSERT_FALSE(report.summary.step_times.empty()) << "the input still finds steps";
  for (const analyzers::StepTime& step : report.summary.step_times) {
    EXPECT_GT(step.interval.duration(), 0) << "step " << step.index;
  }
  EXPECT_NE(AnalyzeAndRenderAll(*trace).find("Steps: "), std::string::npos);
}

}  // namespace
}  // namespace ampprof::pipeline
