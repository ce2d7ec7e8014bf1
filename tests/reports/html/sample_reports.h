#ifndef AMPPROF_TESTS_REPORTS_HTML_SAMPLE_REPORTS_H_
#define AMPPROF_TESTS_REPORTS_HTML_SAMPLE_REPORTS_H_

// Reports for the HTML tests, made the way `ampprof analyze` makes them: synthetic AMP and FP32
// traces (collectors/synthetic) and the shared fixtures, through the pipeline.
//
//   const std::vector<analyzers::Report> reports = SyntheticComparison(dir, {.kernels = 3000});
//   const std::string html = RenderPage(reports);

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "collectors/records/ampt_writer.h"
#include "collectors/synthetic/synthetic_trace.h"
#include "reports/html/html_reporter.h"
#include "src/pipeline/analysis.h"
#include "tests/testing/temp_dir.h"

namespace ampprof::reports::testing {

inline void WriteSyntheticTrace(const std::string& path,
                                const synthetic::SyntheticTraceOptions& options) {
  auto writer = records::AmptWriter::Create(path, {});
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  ASSERT_TRUE(synthetic::GenerateSyntheticTrace(options, **writer).ok());
  ASSERT_TRUE((*writer)->Close().ok());
}

// `analyze amp.ampt --baseline fp32.ampt` of two synthetic runs made with `options`.
inline std::vector<analyzers::Report> SyntheticComparison(
    const ampprof::testing::TempDir& dir, synthetic::SyntheticTraceOptions options) {
  options.precision = synthetic::SyntheticPrecision::kAmp;
  WriteSyntheticTrace(dir.File("amp.ampt"), options);
  options.precision = synthetic::SyntheticPrecision::kFp32;
  WriteSyntheticTrace(dir.File("fp32.ampt"), options);
  auto reports =
      pipeline::AnalyzeTraces({dir.File("amp.ampt")}, {.baseline = dir.File("fp32.ampt")});
  EXPECT_TRUE(reports.ok()) << reports.status().ToString();
  return reports.ok() ? std::move(*reports) : std::vector<analyzers::Report>{};
}

inline std::string SharedFixture(std::string_view relative) {
  return std::string(AMPPROF_SHARED_FIXTURES_DIR) + "/" + std::string(relative);
}

// The launch-bound FP32 MLP of facebookresearch/param: real kernel names, thousands of idle gaps.
inline constexpr std::string_view kLinearFixture =
    "facebookresearch__param/et_replay/tests/inputs/linear_kineto.json.gz";

inline std::string RenderPage(const std::vector<analyzers::Report>& reports) {
  std::ostringstream out;
  RenderHtml(reports, out, {});
  return out.str();
}

}  // namespace ampprof::reports::testing

#endif  // AMPPROF_TESTS_REPORTS_HTML_SAMPLE_REPORTS_H_
