#include "src/pipeline/trace_loader.h"

#include <filesystem>

#include <gtest/gtest.h>

#include "collectors/records/ampt_writer.h"
#include "collectors/records/record_set.h"
#include "src/pipeline/analysis.h"
#include "tests/testing/record_builder.h"
#include "tests/testing/temp_dir.h"

namespace ampprof::pipeline {
namespace {

using testing::TempDir;

std::string WriteText(const TempDir& dir, std::string_view name, std::string_view text) {
  const std::string path = dir.File(name);
  testing::WriteFileBytes(path, std::vector<uint8_t>(text.begin(), text.end()));
  return path;
}

TEST(SniffTraceFormat, RecognisesFormatsByContentNotName) {
  TempDir dir;
  EXPECT_EQ(*SniffTraceFormat(WriteText(dir, "a.ampt", "  \n{\"traceEvents\": []}")),
            TraceFormat::kKinetoJson);
  EXPECT_EQ(*SniffTraceFormat(WriteText(dir, "b.json", std::string("SQLite format 3\0xyz", 19))),
            TraceFormat::kNsysSqlite);
  EXPECT_EQ(*SniffTraceFormat(WriteText(dir, "c.sqlite", "\x1f\x8b\x08rest")), TraceFormat::kKinetoJson);
  EXPECT_EQ(*SniffTraceFormat(WriteText(dir, "d.json", "hello")), TraceFormat::kUnknown);
  {
    auto writer = records::AmptWriter::Create(dir.File("e.txt"), {});
    ASSERT_TRUE(writer.ok());
  }
  EXPECT_EQ(*SniffTraceFormat(dir.File("e.txt")), TraceFormat::kAmpt);
}

// The real traces in ../shared/fixtures (Kineto JSON, gzip-compressed or not, and Nsight Systems
// exports) are recognised by content: the names say .json.gz, .json and .sqlite, but sniffing never
// looks at them.
TEST(SniffTraceFormat, RecognisesTheSharedFixtures) {
  const std::filesystem::path fixtures = AMPPROF_SHARED_FIXTURES_DIR;
  if (!std::filesystem::is_directory(fixtures)) GTEST_SKIP() << fixtures << " is absent";
  int seen = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(fixtures)) {
    const std::string path = entry.path().string();
    TraceFormat expected;
    if (path.ends_with(".json") || path.ends_with(".json.gz")) {
      expected = TraceFormat::kKinetoJson;
    } else if (path.ends_with(".sqlite")) {
      expected = TraceFormat::kNsysSqlite;
    } else {
      continue;
    }
    const auto format = SniffTraceFormat(path);
    ASSERT_TRUE(format.ok()) << format.status().ToString();
    EXPECT_EQ(*format, expected) << path;
    ++seen;
  }
  EXPECT_EQ(seen, 12) << "the fixtures README lists twelve traces";
}

TEST(LoadTrace, GivesOneLineErrorsNamingTheFile) {
  TempDir dir;
  records::RecordSet sink;
  const std::string empty = WriteText(dir, "empty.ampt", "");
  EXPECT_EQ(LoadTrace(empty, sink).status().message(), empty + ": file is empty");
  const std::string text = WriteText(dir, "notes.txt", "not a trace");
  EXPECT_EQ(LoadTrace(text, sink).status().message(),
            text + ": not a trace ampprof can read (expected an .ampt trace, PyTorch profiler JSON or "
                   "an Nsight Systems SQLite export)");
  const std::string json = WriteText(dir, "config.json", "{\"learning_rate\": 0.1}");
  EXPECT_EQ(LoadTrace(json, sink).status().message(),
            json + ": JSON, but not a PyTorch profiler trace (no traceEvents)");
  const std::string sqlite = WriteText(dir, "x.sqlite", std::string("SQLite format 3\0rest", 20));
  EXPECT_EQ(LoadTrace(sqlite, sink).status().code(), base::StatusCode::kInvalidData);  // a damaged database
  EXPECT_EQ(LoadTrace(dir.File("missing.ampt"), sink).status().code(), base::StatusCode::kNotFound);
  EXPECT_EQ(LoadTrace(dir.path(), sink).status().code(), base::StatusCode::kInvalidArgument);
}

TEST(AnalyzeTraces, BuildsOneReportFromSeveralFiles) {
  TempDir dir;
  for (uint32_t rank = 0; rank < 2; ++rank) {
    auto writer = records::AmptWriter::Create(dir.File("rank" + std::to_string(rank) + ".ampt"), {});
    ASSERT_TRUE(writer.ok());
    testing::RecordBuilder b(**writer);
    b.pid = 1000 + rank;
    b.Launch("k", {0, 5}, {10, 20});
    ASSERT_TRUE((*writer)->Close().ok());
  }
  const auto report = AnalyzeTraces({dir.File("rank0.ampt"), dir.File("rank1.ampt")});
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->inputs.size(), 2u);
  EXPECT_EQ(report->inputs[0].format, "ampprof trace, format 1.0");
  EXPECT_EQ(report->summary.kernels, 2u);
  EXPECT_EQ(report->summary.processes, 2u);
  EXPECT_EQ(report->stats.Get(base::Stat::kKernelUnmatchedCorrelation), 0);
}

}  // namespace
}  // namespace ampprof::pipeline
