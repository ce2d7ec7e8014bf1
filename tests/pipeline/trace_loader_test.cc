#include "src/pipeline/trace_loader.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include <gmock/gmock.h>
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

// The JSON reader skips a UTF-8 byte-order mark and any blank space before the document; sniffing
// stopped after 64 bytes and did not know the mark, so such a trace in a directory was skipped as "not a
// trace" (at --log-level info only).
TEST(SniffTraceFormat, SkipsAByteOrderMarkAndBlankSpaceAsTheJsonReaderDoes) {
  TempDir dir;
  const std::string json = "{\"traceEvents\": []}";
  EXPECT_EQ(*SniffTraceFormat(WriteText(dir, "bom.json", "\xef\xbb\xbf" + json)), TraceFormat::kKinetoJson);
  EXPECT_EQ(*SniffTraceFormat(WriteText(dir, "blank.json", std::string(10000, ' ') + "\n\t" + json)),
            TraceFormat::kKinetoJson);
  EXPECT_EQ(*SniffTraceFormat(WriteText(dir, "both.json", "\r\n\xef\xbb\xbf  [" + json + "]")),
            TraceFormat::kKinetoJson);
  EXPECT_EQ(*SniffTraceFormat(WriteText(dir, "blanks.txt", std::string(5000, ' '))), TraceFormat::kUnknown);
  EXPECT_EQ(*SniffTraceFormat(WriteText(dir, "text.txt", "\xef\xbb\xbfhello")), TraceFormat::kUnknown);
}

TEST(LoadTrace, ReadsATraceWithAByteOrderMark) {
  TempDir dir;
  const std::vector<uint8_t> fixture =
      testing::ReadFileBytes(std::string(AMPPROF_SOURCE_DIR) + "/tests/data/kineto/current_schema.json");
  std::vector<uint8_t> bytes(3 + fixture.size());
  bytes[0] = 0xef;
  bytes[1] = 0xbb;
  bytes[2] = 0xbf;
  std::copy(fixture.begin(), fixture.end(), bytes.begin() + 3);
  testing::WriteFileBytes(dir.File("bom.json"), bytes);
  records::RecordSet sink;
  const auto format = LoadTrace(dir.File("bom.json"), sink);
  ASSERT_TRUE(format.ok()) << format.status().ToString();
  EXPECT_EQ(*format, TraceFormat::kKinetoJson);
  EXPECT_FALSE(sink.kernels.empty());
}

// A FIFO given as a trace blocked forever in open(), before a byte was sniffed. The alarm turns a hang
// back into a failure of this test.
TEST(LoadTrace, ANamedPipeIsRefusedWithoutWaitingForAWriter) {
  TempDir dir;
  const std::string fifo = dir.File("trace.pipe");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  ::alarm(30);
  records::RecordSet sink;
  const auto loaded = LoadTrace(fifo, sink);
  const auto sniffed = SniffTraceFormat(fifo);
  ::alarm(0);
  EXPECT_EQ(loaded.status().code(), base::StatusCode::kInvalidArgument);
  EXPECT_EQ(loaded.status().message(),
            fifo + ": is a named pipe (FIFO), not a trace file; ampprof reads traces from regular files (give - "
                   "to read one from standard input)");
  EXPECT_FALSE(sniffed.ok());
  EXPECT_FALSE(LoadTrace("/dev/null", sink).ok());  // a character device: never read as an empty trace
}

// The importer reads the file checked by its descriptor; its messages name the file as the caller does.
TEST(LoadTrace, NamesTheFileAsAsked) {
  TempDir dir;
  records::RecordSet sink;
  const std::string json = WriteText(dir, "copy-XXXX", "{\"learning_rate\": 0.1}");
  EXPECT_EQ(LoadTrace(json, sink, "standard input").status().message(),
            "standard input: JSON, but not a PyTorch profiler trace (no traceEvents)");
  const std::string damaged = WriteText(dir, "x.sqlite", std::string("SQLite format 3\0rest", 20));
  EXPECT_THAT(LoadTrace(damaged, sink, "report.sqlite").status().message(),
              ::testing::StartsWith("report.sqlite: "));
  EXPECT_THAT(LoadTrace(damaged, sink).status().message(), ::testing::StartsWith(damaged + ": "));
}

TEST(AnalyzeTraces, GivesOneReportPerRankInRankOrder) {
  TempDir dir;
  // Written rank 1 first; ranks come from the traces, or from the file names when traces have none.
  for (const auto& [name, rank] : std::vector<std::pair<std::string, int32_t>>{{"b.ampt", 1}, {"a.ampt", 0}}) {
    auto writer = records::AmptWriter::Create(dir.File(name), {});
    ASSERT_TRUE(writer.ok());
    testing::RecordBuilder b(**writer);
    b.pid = static_cast<uint32_t>(1000 + rank);
    b.Launch("k", {0, 5}, {10, 20});
    records::ProcessRecord process;
    process.pid = b.pid;
    process.rank = rank;
    process.world_size = 2;
    (*writer)->Add(process);
    ASSERT_TRUE((*writer)->Close().ok());
  }
  {
    auto writer = records::AmptWriter::Create(dir.File("trace_rank-7.ampt"), {});
    ASSERT_TRUE(writer.ok());
    testing::RecordBuilder b(**writer);
    b.Launch("k", {0, 5}, {10, 20});
    ASSERT_TRUE((*writer)->Close().ok());
  }
  testing::WriteFileBytes(dir.File("notes.txt"), {'h', 'i'});  // not a trace: skipped in a directory

  const auto reports = AnalyzeTraces({dir.path()});
  ASSERT_TRUE(reports.ok()) << reports.status().ToString();
  ASSERT_EQ(reports->size(), 3u);
  EXPECT_EQ((*reports)[0].label, "rank 0 of 2");
  EXPECT_EQ((*reports)[1].label, "rank 1 of 2");
  EXPECT_EQ((*reports)[2].label, "rank 7 (from the file name)");
  EXPECT_EQ((*reports)[0].inputs[0].format, "ampprof trace, format 1.2");
  EXPECT_EQ((*reports)[0].summary.kernels, 1u);
}

TEST(AnalyzeTraces, AnEmptyDirectoryIsAnError) {
  TempDir dir;
  const auto reports = AnalyzeTraces({dir.path()});
  ASSERT_FALSE(reports.ok());
  EXPECT_EQ(reports.status().message(), dir.path() + ": no trace files in this directory");
}

}  // namespace
}  // namespace ampprof::pipeline
