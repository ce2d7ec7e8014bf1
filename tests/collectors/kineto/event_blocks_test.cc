// The parallel Kineto import (event_blocks.h): blocks split at event boundaries, wrong guesses caught,
// and the same records, counts and errors as the one-thread import, on small windows that make even a
// small trace many windows of many blocks.

#include "collectors/kineto/event_blocks.h"

#include <zlib.h>

#include <functional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "collectors/kineto/decompressing_reader.h"
#include "collectors/kineto/json_event_stream.h"
#include "collectors/kineto/kineto_importer.h"
#include "collectors/records/record_set.h"
#include "tests/testing/temp_dir.h"

namespace ampprof::kineto {
namespace {

using records::RecordSet;
using testing::ReadFileBytes;
using testing::TempDir;
using testing::WriteFileBytes;

std::string DataFile(std::string_view name) {
  return std::string(AMPPROF_SOURCE_DIR) + "/tests/data/kineto/" + std::string(name);
}

// Windows of a few events, blocks of one or two: every split and window edge is exercised.
constexpr EventBlockOptions kTinyBlocks{.threads = 3, .window_bytes = 1024, .min_block_bytes = 64};

std::string Padded(std::string text) { return text + std::string(JsonEventStream::kPadding, '\0'); }

std::string Event(int i, std::string_view name = "k") {
  return fmt::format(R"({{"ph": "X", "cat": "kernel", "name": "{}", "pid": 0, "tid": 7, "ts": {}, "dur": 1, )"
                     R"("args": {{"device": 0, "stream": 7, "correlation": {}}}}})",
                     name, 100 + i, i);
}

TEST(EventBlocks, ABlockEndsWhereTheNextEventStartsAtItsLimit) {
  const std::string events = Event(0) + ",\n" + Event(1) + ", " + Event(2) + "]}";
  const std::string text = Padded(events);
  const std::string_view view(text.data(), events.size());
  const size_t second = FindLikelyEventStart(view, 1, view.size());
  ASSERT_EQ(second, Event(0).size() + 2);
  KinetoEventParser parser;
  EventBlock block;
  ParseEventBlock(view, 0, second, parser, block);
  EXPECT_TRUE(block.reached_limit);
  EXPECT_EQ(block.stop, second);
  EXPECT_EQ(block.scanned, 1u);
  ASSERT_EQ(block.events.size(), 1u);
  EXPECT_EQ(block.events[0].event.name, "k");
  // From there to the end: two events, then the ']' that is the stream's to read.
  ParseEventBlock(view, second, view.size(), parser, block);
  EXPECT_FALSE(block.reached_limit);
  EXPECT_EQ(view[block.stop], ']');
  EXPECT_EQ(block.scanned, 2u);
}

// A kernel name holding "}, {" fools the guess; the block before it, scanned from a true boundary,
// shows that the guess lies inside an event.
TEST(EventBlocks, AGuessInsideAStringIsCaught) {
  const std::string events = Event(0, R"(evil}, {\"ph\": \"X\"})") + ", " + Event(1) + "]}";
  const std::string text = Padded(events);
  const std::string_view view(text.data(), events.size());
  const size_t guess = FindLikelyEventStart(view, 1, view.size());
  ASSERT_LT(guess, Event(0, R"(evil}, {\"ph\": \"X\"})").size());  // inside the first event's name
  KinetoEventParser parser;
  EventBlock block;
  ParseEventBlock(view, 0, guess, parser, block);
  EXPECT_TRUE(block.reached_limit);
  EXPECT_NE(block.stop, guess);  // so the block that starts at the guess is dropped
  EXPECT_EQ(block.events.at(0).event.name, R"(evil}, {"ph": "X"})");
}

TEST(EventBlocks, AnEventCutByTheEndOfTheTextStopsTheBlockAtItsStart) {
  const std::string events = Event(0) + ", " + Event(1).substr(0, 30);
  const std::string text = Padded(events);
  const std::string_view view(text.data(), events.size());
  KinetoEventParser parser;
  EventBlock block;
  ParseEventBlock(view, 0, view.size(), parser, block);
  EXPECT_FALSE(block.reached_limit);
  EXPECT_EQ(block.stop, Event(0).size() + 2);
  EXPECT_EQ(block.scanned, 1u);
}

void ExpectSameRecords(const RecordSet& one, const RecordSet& many) {
  ASSERT_EQ(one.record_count(), many.record_count());
#define AMPPROF_EXPECT_SAME_STAT(enumerator, name, severity, description) \
  EXPECT_EQ(one.stats().Get(base::Stat::enumerator), many.stats().Get(base::Stat::enumerator)) << name;
  AMPPROF_STATS_CATALOG(AMPPROF_EXPECT_SAME_STAT)
#undef AMPPROF_EXPECT_SAME_STAT
  ASSERT_EQ(one.kernels.size(), many.kernels.size());
  for (size_t i = 0; i < one.kernels.size(); ++i) {
    EXPECT_EQ(one.kernels[i].start, many.kernels[i].start) << i;
    EXPECT_EQ(one.kernels[i].correlation_id, many.kernels[i].correlation_id) << i;
    EXPECT_EQ(one.kernels[i].pid, many.kernels[i].pid) << i;
    EXPECT_EQ(one.Text(one.kernels[i].name), many.Text(many.kernels[i].name)) << i;
  }
  ASSERT_EQ(one.ranges.size(), many.ranges.size());
  for (size_t i = 0; i < one.ranges.size(); ++i) {
    EXPECT_EQ(one.ranges[i].start, many.ranges[i].start) << i;
    EXPECT_EQ(one.Text(one.ranges[i].args), many.Text(many.ranges[i].args)) << i;
  }
  ASSERT_EQ(one.threads.size(), many.threads.size());
  for (size_t i = 0; i < one.threads.size(); ++i) {
    EXPECT_EQ(one.Text(one.threads[i].name), many.Text(many.threads[i].name)) << i;
  }
  ASSERT_EQ(one.processes.size(), many.processes.size());
  for (size_t i = 0; i < one.processes.size(); ++i) {
    EXPECT_EQ(one.processes[i].pid, many.processes[i].pid) << i;
    EXPECT_EQ(one.processes[i].rank, many.processes[i].rank) << i;
  }
}

// The arena keeps its chunks across Clear() (a window's strings reuse the last window's memory): every
// copy made since the last Clear() must still read back as it was, across chunk edges and long strings.
TEST(StringArena, CopiesReadBackAcrossChunksAndClears) {
  StringArena arena;
  for (int round = 0; round < 3; ++round) {
    SCOPED_TRACE(round);
    std::vector<std::string> originals;
    std::vector<std::string_view> copies;
    // Some 2 MiB of strings from 10 bytes to 40 KiB: many 64 KiB chunks, and long ones (over 16 KiB) of
    // their own.
    for (int i = 0; i < 120; ++i) {
      const size_t size = 10 + static_cast<size_t>(i * 337 * (round + 1)) % (40 << 10);
      originals.push_back(std::string(size, static_cast<char>('a' + (i + round) % 26)));
      copies.push_back(arena.Copy(originals.back()));
    }
    EXPECT_TRUE(arena.Copy("").empty());
    for (size_t i = 0; i < originals.size(); ++i) ASSERT_EQ(copies[i], originals[i]) << i;
    arena.Clear();
  }
}

TEST(EventBlocks, EveryFixtureGivesTheSameRecordsOnThreeThreads) {
  for (const char* name : {"current_schema.json", "schema_2021.json", "bare_array.json"}) {
    SCOPED_TRACE(name);
    RecordSet one, many;
    ASSERT_TRUE(ImportKinetoTrace(DataFile(name), one).ok());
    ASSERT_TRUE(ImportKinetoTrace(DataFile(name), many, kTinyBlocks).ok());
    ExpectSameRecords(one, many);
  }
}

// Flows, process names and GPU events before the first CPU event refer across blocks: they resolve
// after the blocks, in file order, as with one thread. A name that fools the split guess too.
TEST(EventBlocks, ManyEventsAcrossWindowsAndAFoolingNameGiveTheSameRecords) {
  std::string trace = R"({"traceEvents": [)";
  for (int i = 0; i < 300; ++i) {
    if (i > 0) trace += i % 3 == 0 ? ",\n  " : ",";
    trace += Event(i, i % 2 == 1 ? R"(evil}, {\"ph\": \"X\", \"cat\": \"kernel\"})" : "k");
    if (i == 150) {
      trace += R"(, {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 42, "tid": 42,)"
               R"( "ts": 90, "dur": 5, "args": {"correlation": 3}})";
      trace += R"(, {"ph": "M", "name": "process_name", "pid": 42, "args": {"name": "python"}})";
      trace += R"(, {"ph": "M", "name": "thread_name", "pid": 42, "tid": 42, "args": {"name": "main"}})";
      trace += R"(, {"ph": "X", "cat": "kernel", "broken": })";
    }
  }
  trace += R"(], "distributedInfo": {"rank": 3, "world_size": 8}})";
  TempDir dir;
  const std::string path = dir.File("many.json");
  WriteFileBytes(path, std::vector<uint8_t>(trace.begin(), trace.end()));
  RecordSet one, many;
  ASSERT_TRUE(ImportKinetoTrace(path, one).ok());
  ASSERT_TRUE(ImportKinetoTrace(path, many, kTinyBlocks).ok());
  EXPECT_EQ(one.kernels.size(), 300u);
  EXPECT_EQ(one.stats().Get(base::Stat::kJsonInvalidEvents), 1);
  ExpectSameRecords(one, many);
}

// More threads than cores and windows of a few events: threads wake late for a window the reading
// thread has already parsed alone, while the next one is being started. Such a thread must not take a
// block of the next window (the first version of the kept threads let one, which then parsed it out of
// the old window, or left it unparsed and the import waiting for ever).
TEST(EventBlocks, ThreadsThatWakeLateTakeNoBlockOfTheNextWindow) {
  std::string trace = R"({"traceEvents": [)";
  for (int i = 0; i < 2000; ++i) trace += (i > 0 ? ", " : "") + Event(i, i % 7 == 0 ? "a_longer_kernel_name" : "k");
  trace += "]}";
  TempDir dir;
  const std::string path = dir.File("windows.json");
  WriteFileBytes(path, std::vector<uint8_t>(trace.begin(), trace.end()));
  RecordSet one;
  ASSERT_TRUE(ImportKinetoTrace(path, one).ok());
  ASSERT_EQ(one.kernels.size(), 2000u);
  for (int repeat = 0; repeat < 10; ++repeat) {
    SCOPED_TRACE(repeat);
    RecordSet many;
    ASSERT_TRUE(ImportKinetoTrace(path, many, {.threads = 8, .window_bytes = 512, .min_block_bytes = 64}).ok());
    ExpectSameRecords(one, many);
  }
}

// Reads every event of the trace at `path` as the importer does (the blocks, and the stream for what
// they leave), handing the blocks' events to `handle`; the events the stream reads itself are counted.
uint64_t ReadWithBlocks(const std::string& path, ParallelEventParser& parallel,
                        const std::function<void(const ParsedEvent&)>& handle) {
  auto reader = DecompressingReader::Open(path);
  EXPECT_TRUE(reader.ok());
  if (!reader.ok()) return 0;
  JsonEventStream stream(**reader);
  uint64_t read_by_stream = 0;
  for (;;) {
    if (stream.between_events()) parallel.Parse(stream, handle);
    auto item = stream.Next();
    EXPECT_TRUE(item.ok());
    if (!item.ok() || item->kind == JsonEventStream::ItemKind::kEnd) break;
    read_by_stream += item->kind == JsonEventStream::ItemKind::kEvent;
  }
  return read_by_stream;  // the stream goes here, before the parser: no thread may read it any more
}

// handle() throwing while the other threads parse the next window out of the stream's buffer: Parse
// passes the exception on only once they are out of the window, so the stream may go at once (under
// the sanitizers a thread still in it reads freed memory), and the same parser reads the next trace
// whole.
TEST(EventBlocks, AHandlerThatThrowsLeavesNoThreadInTheWindow) {
  std::string trace = R"({"traceEvents": [)";
  for (int i = 0; i < 3000; ++i) trace += (i > 0 ? ", " : "") + Event(i);
  trace += "]}";
  TempDir dir;
  const std::string path = dir.File("throws.json");
  WriteFileBytes(path, std::vector<uint8_t>(trace.begin(), trace.end()));
  struct HandlerError {};
  ParallelEventParser parallel({.threads = 4, .window_bytes = 2048, .min_block_bytes = 64});
  for (const int throw_at : {0, 1000, 2998}) {  // the stream reads the first event itself
    SCOPED_TRACE(throw_at);
    int handled = 0;
    EXPECT_THROW(ReadWithBlocks(path, parallel,
                                [&](const ParsedEvent&) {
                                  if (handled == throw_at) throw HandlerError{};
                                  ++handled;
                                }),
                 HandlerError);
    EXPECT_EQ(handled, throw_at);
  }
  uint64_t handled = 0;
  const uint64_t read_by_stream = ReadWithBlocks(path, parallel, [&](const ParsedEvent&) { ++handled; });
  EXPECT_EQ(handled + read_by_stream, 3000u);
  EXPECT_GE(handled, 2999u);  // all but the first, which the stream reads before the array is entered
}

// An event over 256 KiB makes the parser drop its buffers after it (kineto_event.h), which its views
// point into: the block copies what it keeps first.
TEST(EventBlocks, AnEventLargeEnoughToReleaseTheParsersBuffersKeepsItsStrings) {
  const std::string long_name(300 << 10, 'n');
  std::string trace = R"({"traceEvents": [)" + Event(0) + ", " + Event(1, long_name) + ", " + Event(2);
  trace += R"(, {"ph": "M", "name": "thread_name", "pid": 0, "tid": 7, "args": {"name": ")" + long_name + R"("}}]})";
  TempDir dir;
  const std::string path = dir.File("large.json");
  WriteFileBytes(path, std::vector<uint8_t>(trace.begin(), trace.end()));
  RecordSet one, many;
  ASSERT_TRUE(ImportKinetoTrace(path, one).ok());
  ASSERT_TRUE(ImportKinetoTrace(path, many, {.threads = 2, .window_bytes = 1 << 20, .min_block_bytes = 64}).ok());
  ExpectSameRecords(one, many);
}

std::string Gzip(const TempDir& dir, const std::vector<uint8_t>& bytes, std::string_view name) {
  const std::string path = dir.File(name);
  gzFile file = gzopen(path.c_str(), "wb");
  gzwrite(file, bytes.data(), static_cast<unsigned>(bytes.size()));
  gzclose(file);
  return path;
}

// A cut or damaged file reads as far, with the same counts, or fails with the same message.
TEST(EventBlocks, CutAndDamagedFilesGiveTheSameRecordsOrTheSameError) {
  TempDir dir;
  const std::vector<uint8_t> full = ReadFileBytes(DataFile("current_schema.json"));
  for (size_t size = 0; size < full.size(); size += 5) {
    for (const bool damaged : {false, true}) {
      std::vector<uint8_t> bytes(full.begin(), full.begin() + static_cast<ptrdiff_t>(size));
      if (damaged && size > 0) bytes[size / 2] = '@';
      for (const bool gzip : {false, true}) {
        SCOPED_TRACE(fmt::format("{} bytes{}{}", size, damaged ? ", damaged" : "", gzip ? ", gzip" : ""));
        const std::string path = gzip ? Gzip(dir, bytes, "cut.json.gz") : dir.File("cut.json");
        if (!gzip) WriteFileBytes(path, bytes);
        RecordSet one, many;
        const base::Status one_status = ImportKinetoTrace(path, one);
        const base::Status many_status = ImportKinetoTrace(path, many, kTinyBlocks);
        ASSERT_EQ(one_status.message(), many_status.message());
        if (one_status.ok()) ExpectSameRecords(one, many);
      }
    }
  }
}

}  // namespace
}  // namespace ampprof::kineto
