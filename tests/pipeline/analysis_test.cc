// AnalyzeTraces tells its progress: two units per trace (read and build; analyse), baseline traces
// first, and Done at the end, also when a trace cannot be read (so that an error line never shares the
// terminal line with a bar).

#include <filesystem>
#include <string>
#include <vector>

#include <gmock/gmock.h>
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
  testing::WriteFileBytes(dir.File("empty.ampt"), {});  // there, so found before reading; unreadable
  RecordedProgress progress;
  const auto reports = AnalyzeTraces({dir.File("good.ampt"), dir.File("empty.ampt")}, {.baseline = "", .progress = &progress});
  EXPECT_FALSE(reports.ok());
  ASSERT_FALSE(progress.steps.empty());
  EXPECT_EQ(progress.steps.back().task, "reading empty.ampt");
  EXPECT_EQ(progress.done_calls, 1);
}

// One stray file in a directory (a config.json: JSON, so it looked like a trace) failed the whole
// analysis with exit status 2; now it is named on stderr with its error and the others are analysed.
TEST(AnalyzeTraces, ADirectoryGoesOnPastFilesThatFailToLoad) {
  testing::TempDir dir;
  std::filesystem::create_directory(dir.File("amp"));
  std::filesystem::create_directory(dir.File("fp32"));
  WriteSynthetic(dir.File("amp/rank0.ampt"), synthetic::SyntheticPrecision::kAmp);
  WriteSynthetic(dir.File("fp32/rank0.ampt"), synthetic::SyntheticPrecision::kFp32);
  for (const char* stray : {"amp/config.json", "fp32/config.json"}) {
    const std::string config = "{\"learning_rate\": 0.1}";
    testing::WriteFileBytes(dir.File(stray), std::vector<uint8_t>(config.begin(), config.end()));
  }
  const std::vector<uint8_t> header_only = {0x89, 'A', 'M', 'P', 'T', '\r', '\n', 0x1a, 1};  // cut in its header
  testing::WriteFileBytes(dir.File("amp/rank1.ampt"), header_only);
  ::testing::internal::CaptureStderr();
  const auto reports = AnalyzeTraces({dir.File("amp")}, {.baseline = dir.File("fp32")});
  const std::string said = ::testing::internal::GetCapturedStderr();
  ASSERT_TRUE(reports.ok()) << reports.status().ToString();
  ASSERT_EQ(reports->size(), 1u);
  EXPECT_EQ((*reports)[0].inputs[0].path, dir.File("amp/rank0.ampt"));
  EXPECT_TRUE((*reports)[0].comparison.has_value());
  EXPECT_THAT(said, ::testing::HasSubstr("warning: skipping " + dir.File("fp32/config.json") +
                                         ": JSON, but not a PyTorch profiler trace (no traceEvents)\n"));
  EXPECT_THAT(said, ::testing::HasSubstr("warning: skipping " + dir.File("amp/config.json") + ": JSON"));
  EXPECT_THAT(said, ::testing::HasSubstr("warning: skipping " + dir.File("amp/rank1.ampt") + ": truncated .ampt file"));

  // Named by the user, the same file is an error, as before.
  const auto named = AnalyzeTraces({dir.File("amp/config.json")});
  EXPECT_EQ(named.status().message(), dir.File("amp/config.json") + ": JSON, but not a PyTorch profiler trace (no traceEvents)");
}

// The CLI refuses an output that is an input there: after the directories are listed, before any read.
TEST(AnalyzeTraces, BeforeReadingSeesEveryInputAndCanStopTheAnalysis) {
  testing::TempDir dir;
  WriteSynthetic(dir.File("amp.ampt"), synthetic::SyntheticPrecision::kAmp);
  WriteSynthetic(dir.File("fp32.ampt"), synthetic::SyntheticPrecision::kFp32);
  RecordedProgress progress;
  std::vector<std::string> seen;
  const auto reports = AnalyzeTraces(
      {dir.File("amp.ampt")},
      {.baseline = dir.File("fp32.ampt"), .progress = &progress,
       .before_reading = [&](const TraceInputs& traces, const TraceInputs& baseline) {
         for (const TraceFile& file : traces) seen.push_back(file.name);
         for (const TraceFile& file : baseline) seen.push_back(file.name);
         return base::InvalidArgumentError("refused");
       }});
  EXPECT_EQ(reports.status().message(), "refused");
  EXPECT_EQ(seen, (std::vector<std::string>{dir.File("amp.ampt"), dir.File("fp32.ampt")}));
  EXPECT_TRUE(progress.steps.empty());  // nothing was read
}

}  // namespace
}  // namespace ampprof::pipeline
