// AnalyzeTraces tells its progress: two units per trace (read and build; analyse), baseline traces
// first, and Done at the end, also when a trace cannot be read (so that an error line never shares the
// terminal line with a bar).

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "collectors/records/ampt_writer.h"
#include "collectors/synthetic/synthetic_trace.h"
#include "src/pipeline/analysis.h"
#include "tests/testing/temp_dir.h"

namespace ampprof::pipeline {
namespace {

struct RecordedProgress final : base::Progress {
  struct Step {
    std::string task;
    size_t done;
    size_t total;
  };
  void Update(std::string_view task, size_t done, size_t total) override {
    steps.push_back({std::string(task), done, total});
  }
  void Done() override { ++done_calls; }
  std::vector<Step> steps;
  int done_calls = 0;
};

void WriteSynthetic(const std::string& path, synthetic::SyntheticPrecision precision) {
  synthetic::SyntheticTraceOptions options;
  options.kernels = 500;
  options.precision = precision;
  auto writer = records::AmptWriter::Create(path, {});
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  ASSERT_TRUE(synthetic::GenerateSyntheticTrace(options, **writer).ok());
  ASSERT_TRUE((*writer)->Close().ok());
}

TEST(AnalyzeTraces, ReportsProgressTraceByTraceBaselineFirst) {
  testing::TempDir dir;
  WriteSynthetic(dir.File("rank0.ampt"), synthetic::SyntheticPrecision::kAmp);
  WriteSynthetic(dir.File("rank1.ampt"), synthetic::SyntheticPrecision::kAmp);
  WriteSynthetic(dir.File("fp32.ampt"), synthetic::SyntheticPrecision::kFp32);
  RecordedProgress progress;
  const auto reports = AnalyzeTraces({dir.File("rank0.ampt"), dir.File("rank1.ampt")},
                                     {.baseline = dir.File("fp32.ampt"), .progress = &progress});
  ASSERT_TRUE(reports.ok()) << reports.status().ToString();
  ASSERT_EQ(progress.steps.size(), 6u);
  const std::vector<std::string> tasks = {"reading the baseline fp32.ampt", "profiling the baseline fp32.ampt",
                                          "reading rank0.ampt", "analyzing rank0.ampt", "reading rank1.ampt",
                                          "analyzing rank1.ampt"};
  for (size_t i = 0; i < tasks.size(); ++i) {
    EXPECT_EQ(progress.steps[i].task, tasks[i]);
    EXPECT_EQ(progress.steps[i].done, i);
    EXPECT_EQ(progress.steps[i].total, 6u);
  }
  EXPECT_EQ(progress.done_calls, 1);
}

TEST(AnalyzeTraces, ProgressEndsWhenATraceCannotBeRead) {
  testing::TempDir dir;
  WriteSynthetic(dir.File("good.ampt"), synthetic::SyntheticPrecision::kAmp);
  RecordedProgress progress;
  const auto reports = AnalyzeTraces({dir.File("good.ampt"), dir.File("missing.ampt")}, {.baseline = "", .progress = &progress});
  EXPECT_FALSE(reports.ok());
  EXPECT_EQ(progress.steps.back().task, "reading missing.ampt");
  EXPECT_EQ(progress.done_calls, 1);
}

}  // namespace
}  // namespace ampprof::pipeline
