// The Kineto importer on small traces the project wrote itself (tests/data/kineto) and on damaged
// variants of them.

#include "collectors/kineto/kineto_importer.h"

#include <zlib.h>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "collectors/kineto/json_event_stream.h"
#include "collectors/records/record_set.h"
#include "collectors/records/string_cap.h"
#include "src/model/model_builder.h"
#include "src/model/queries.h"
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

std::string Gzip(const TempDir& dir, const std::vector<uint8_t>& bytes, std::string_view name) {
  const std::string path = dir.File(name);
  gzFile file = gzopen(path.c_str(), "wb");
  gzwrite(file, bytes.data(), static_cast<unsigned>(bytes.size()));
  gzclose(file);
  return path;
}

std::string WriteText(const TempDir& dir, std::string_view name, std::string_view text) {
  const std::string path = dir.File(name);
  WriteFileBytes(path, std::vector<uint8_t>(text.begin(), text.end()));
  return path;
}

TEST(KinetoImporter, ReadsEveryEventKindOfTheCurrentSchema) {
  RecordSet records;
  ASSERT_TRUE(ImportKinetoTrace(DataFile("current_schema.json"), records).ok());
  EXPECT_EQ(records.kernels.size(), 2u);
  EXPECT_EQ(records.api_calls.size(), 5u);
  EXPECT_EQ(records.memcpys.size(), 1u);
  EXPECT_EQ(records.memsets.size(), 1u);
  EXPECT_EQ(records.syncs.size(), 1u);
  EXPECT_EQ(records.ranges.size(), 2u) << "cpu_op and user_annotation; not gpu_user_annotation";
  EXPECT_TRUE(records.stats().NonZero().empty());

  const records::KernelRecord& gemm = records.kernels[0];
  EXPECT_EQ(records.Text(gemm.name), "nvjet_hsh_192x192_64x3_2x1_v_bz_coopB_NTN");
  EXPECT_EQ(gemm.start, 1'000'100'500);  // 1000100.500 us, exactly
  EXPECT_EQ(gemm.end, 1'000'120'750);    // + 20.25 us
  EXPECT_EQ(gemm.pid, 4242u) << "GPU events take the traced process's pid, not the device index";
  EXPECT_EQ(gemm.device_id, 0u);
  EXPECT_EQ(gemm.stream_id, 7u);
  EXPECT_EQ(gemm.correlation_id, 11u);
  EXPECT_EQ(gemm.grid_x, 132u);
  EXPECT_EQ(gemm.block_x, 384u);
  EXPECT_EQ(gemm.registers_per_thread, 168u);
  EXPECT_EQ(gemm.static_shared_bytes, 213'504u);

  const records::MemcpyRecord& copy = records.memcpys[0];
  EXPECT_EQ(copy.kind, records::MemcpyKind::kDeviceToHost);
  EXPECT_EQ(copy.src_kind, records::MemoryKind::kDevice);
  EXPECT_EQ(copy.dst_kind, records::MemoryKind::kPinned);
  EXPECT_EQ(copy.bytes, 4u);
  EXPECT_EQ(records.memsets[0].memory_kind, records::MemoryKind::kDevice);
  EXPECT_EQ(records.syncs[0].kind, records::SyncKind::kStreamSynchronize);

  EXPECT_EQ(records.api_calls[1].domain, records::ApiDomain::kDriver);
  EXPECT_EQ(records.api_calls[1].callback_id, 652u);
  const records::RangeRecord& linear = records.ranges[1];
  EXPECT_EQ(records.Text(linear.name), "aten::linear");
  EXPECT_EQ(linear.category, records::RangeCategory::kCpuOp);
  EXPECT_EQ(records.Text(linear.args),
            R"({"Input Dims": [[20, 128], [128, 128], [128]], "Input type": ["c10::Half", "c10::Half", "c10::Half"]})");
  EXPECT_EQ(records.ranges[0].category, records::RangeCategory::kUserAnnotation);

  ASSERT_EQ(records.devices.size(), 1u);
  EXPECT_EQ(records.Text(records.devices[0].name), "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(records.devices[0].compute_major, 9u);
  EXPECT_EQ(records.devices[0].sm_count, 132u);
  ASSERT_EQ(records.processes.size(), 1u);
  EXPECT_EQ(records.processes[0].rank, 3);
  EXPECT_EQ(records.processes[0].world_size, 8);
  EXPECT_EQ(records.Text(records.processes[0].command), "python3.11");
  ASSERT_EQ(records.threads.size(), 1u) << "stream rows are not threads";
  EXPECT_EQ(records.Text(records.threads[0].name), "thread 4242 (python3.11)");
  EXPECT_EQ(records.metadata.at("kineto.baseTimeNanoseconds"), "1700000000000000000");
}

TEST(KinetoImporter, LinksKernelsToRuntimeAndDriverLaunchesInTheModel) {
  model::ModelBuilder builder;
  ASSERT_TRUE(ImportKinetoTrace(DataFile("current_schema.json"), builder).ok());
  const model::TraceModel model = std::move(builder).Build();
  ASSERT_EQ(model.kernels().size(), 2u);
  EXPECT_EQ(model.Text(model.api_calls().name[model::LaunchingCall(model, model::KernelRow(0))]),
            "cudaLaunchKernel");
  EXPECT_EQ(model.Text(model.api_calls().name[model::LaunchingCall(model, model::KernelRow(1))]),
            "cuLaunchKernelEx");
  ASSERT_EQ(model.syncs().size(), 1u);
  EXPECT_EQ(model.thread(model.syncs().thread[model::SyncRow(0)]).tid, 4242u);
  EXPECT_TRUE(model.stats().NonZero().empty());
}

TEST(KinetoImporter, Reads2021Schema) {
  RecordSet records;
  ASSERT_TRUE(ImportKinetoTrace(DataFile("schema_2021.json"), records).ok());
  ASSERT_EQ(records.kernels.size(), 1u);
  EXPECT_EQ(records.kernels[0].stream_id, 7u);
  EXPECT_EQ(records.kernels[0].pid, 25738u);
  EXPECT_EQ(records.api_calls.size(), 2u);
  EXPECT_EQ(records.api_calls[0].tid, 25738u) << "tid given as a string";
  ASSERT_EQ(records.ranges.size(), 1u);
  EXPECT_EQ(records.ranges[0].category, records::RangeCategory::kCpuOp);
  ASSERT_EQ(records.memcpys.size(), 1u);
  EXPECT_EQ(records.memcpys[0].kind, records::MemcpyKind::kHostToDevice);
  EXPECT_EQ(records.memcpys[0].src_kind, records::MemoryKind::kPageable);
  ASSERT_EQ(records.devices.size(), 1u);
  EXPECT_EQ(records.devices[0].compute_major, 7u);
  EXPECT_EQ(records.devices[0].sm_count, 80u);
}

TEST(KinetoImporter, ReadsTheBareArrayForm) {
  RecordSet records;
  ASSERT_TRUE(ImportKinetoTrace(DataFile("bare_array.json"), records).ok());
  EXPECT_EQ(records.kernels.size(), 1u);
  EXPECT_EQ(records.kernels[0].pid, 9u);
}

TEST(KinetoImporter, GzipGivesTheSameRecords) {
  TempDir dir;
  const std::string gz = Gzip(dir, ReadFileBytes(DataFile("current_schema.json")), "trace.json.gz");
  RecordSet plain, compressed;
  ASSERT_TRUE(ImportKinetoTrace(DataFile("current_schema.json"), plain).ok());
  ASSERT_TRUE(ImportKinetoTrace(gz, compressed).ok());
  EXPECT_EQ(plain.record_count(), compressed.record_count());
  EXPECT_EQ(plain.kernels[0].start, compressed.kernels[0].start);
}

// A cut file keeps the events before the cut and says so; a file cut before any event is an error.
TEST(KinetoImporter, TruncationAtEveryOffsetNeverCrashesAndKeepsAPrefix) {
  TempDir dir;
  const std::vector<uint8_t> full = ReadFileBytes(DataFile("current_schema.json"));
  size_t previous = 0;
  for (size_t size = 0; size < full.size(); size += 7) {
    const std::vector<uint8_t> cut(full.begin(), full.begin() + static_cast<ptrdiff_t>(size));
    for (bool gzip : {false, true}) {
      SCOPED_TRACE(std::to_string(size) + (gzip ? " bytes, gzip" : " bytes"));
      const std::string path = gzip ? Gzip(dir, cut, "cut.json.gz") : dir.File("cut.json");
      if (!gzip) WriteFileBytes(path, cut);
      RecordSet records;
      const base::Status status = ImportKinetoTrace(path, records);
      if (!status.ok()) {
        EXPECT_NE(status.message().find(path), std::string::npos) << status.message();
        continue;
      }
      EXPECT_EQ(records.stats().Get(base::Stat::kJsonTruncated), 1);
      if (!gzip) {
        EXPECT_GE(records.record_count(), previous);
        previous = records.record_count();
      }
    }
  }
}

TEST(KinetoImporter, ACutGzipStreamIsDataLossNotAnError) {
  TempDir dir;
  const std::string gz = Gzip(dir, ReadFileBytes(DataFile("current_schema.json")), "trace.json.gz");
  std::vector<uint8_t> bytes = ReadFileBytes(gz);
  bytes.resize(bytes.size() * 3 / 4);
  WriteFileBytes(gz, bytes);
  RecordSet records;
  const base::Status status = ImportKinetoTrace(gz, records);
  ASSERT_TRUE(status.ok()) << status.ToString();
  EXPECT_EQ(records.stats().Get(base::Stat::kJsonTruncated), 1);
  EXPECT_GT(records.kernels.size(), 0u);
}

TEST(KinetoImporter, CorruptGzipIsAnError) {
  TempDir dir;
  const std::string gz = Gzip(dir, ReadFileBytes(DataFile("current_schema.json")), "trace.json.gz");
  std::vector<uint8_t> bytes = ReadFileBytes(gz);
  for (size_t i = 20; i < 60; ++i) bytes[i] ^= 0x5a;
  WriteFileBytes(gz, bytes);
  RecordSet records;
  const base::Status status = ImportKinetoTrace(gz, records);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("corrupt gzip data"), std::string::npos) << status.message();
}

TEST(KinetoImporter, ReportsStructuralErrorsWithTheByteOffset) {
  TempDir dir;
  RecordSet records;
  const std::string broken = WriteText(dir, "broken.json", R"({"traceEvents": [{"ph": "X"} 42]})");
  EXPECT_EQ(ImportKinetoTrace(broken, records).message(),
            broken + ": byte 29: expected an event object in traceEvents, found '4'");
  const std::string not_json = WriteText(dir, "notes.json", "hello");
  EXPECT_NE(ImportKinetoTrace(not_json, records).message().find("byte 0: expected a JSON object or array"),
            std::string::npos);
  const std::string not_trace = WriteText(dir, "config.json", R"({"lr": 0.1, "layers": [1, 2]})");
  EXPECT_EQ(ImportKinetoTrace(not_trace, records).message(),
            not_trace + ": JSON, but not a PyTorch profiler trace (no traceEvents)");
  const std::string empty = WriteText(dir, "empty.json", "");
  EXPECT_NE(ImportKinetoTrace(empty, records).message().find("empty"), std::string::npos);
  const std::string trailing = WriteText(dir, "two.json", R"({"traceEvents": []} {})");
  EXPECT_NE(ImportKinetoTrace(trailing, records).message().find("nothing after the end"), std::string::npos);
}

TEST(KinetoImporter, SkipsAndCountsBadEvents) {
  TempDir dir;
  const std::string path = WriteText(dir, "bad.json", R"({"traceEvents": [
    {"ph": "X", "cat": "kernel", "name": "no timestamp", "pid": 0, "tid": 7, "args": {"stream": 7}},
    {"ph": "X", "cat": "kernel", "name": "ts is a string", "pid": 0, "tid": 7, "ts": "12", "dur": 1},
    {"ph": "X", "cat": "kernel", "name": "args not an object", "pid": 0, "tid": 7, "ts": 12, "dur": 1, "args": 5},
    {"ph": "X", "cat": "kernel", "name": "grid of strings", "pid": 0, "tid": 7, "ts": 12, "dur": 1, "args": {"grid": ["a"]}},
    {"ph": "X", "cat": "kernel", "name": "bad utf-8 \xff\xfe", "pid": 0, "tid": 7, "ts": 12, "dur": 1},
    {"ph": 5},
    {"ph": "X", "cat": "kernel", "name": "good", "pid": 0, "tid": 7, "ts": 12.5, "dur": 1, "args": {"stream": 7}}
  ]})");
  RecordSet records;
  ASSERT_TRUE(ImportKinetoTrace(path, records).ok());
  ASSERT_EQ(records.kernels.size(), 1u);
  EXPECT_EQ(records.Text(records.kernels[0].name), "good");
  EXPECT_EQ(records.stats().Get(base::Stat::kJsonInvalidEvents), 6);
}

TEST(KinetoImporter, AnEmptyTraceIsATrace) {
  TempDir dir;
  RecordSet records;
  ASSERT_TRUE(ImportKinetoTrace(WriteText(dir, "empty_events.json", R"({"traceEvents": []})"), records).ok());
  EXPECT_EQ(records.kernels.size(), 0u);
}

TEST(KinetoImporter, EscapedQuotesAndBracketsInsideStringsDoNotConfuseTheScanner) {
  TempDir dir;
  const std::string path = WriteText(dir, "escapes.json", R"({"meta": "a \"]}\" b", "traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "weird \"op\" [with] {braces} \\", "pid": 1, "tid": 1, "ts": 1, "dur": 1}
  ]})");
  RecordSet records;
  ASSERT_TRUE(ImportKinetoTrace(path, records).ok());
  ASSERT_EQ(records.ranges.size(), 1u);
  EXPECT_EQ(records.Text(records.ranges[0].name), "weird \"op\" [with] {braces} \\");
}

// A 1 GB kernel name in a 1 MB gzip file was held whole, then parsed (3.1 GB), then classified (minutes).
// An event past JsonEventStream::kMaxValueBytes is scanned without being kept and counted.
TEST(KinetoImporter, EventsAndMembersPastTheSizeLimitAreSkippedWithoutBeingRead) {
  TempDir dir;
  const std::string huge(JsonEventStream::kMaxValueBytes + 1000, 'x');
  const std::string text = R"({"traceName": ")" + huge + R"(", "traceEvents": [
    {"ph": "X", "cat": "kernel", "name": ")" + huge + R"(", "pid": 0, "tid": 7, "ts": 10, "dur": 1},
    {"ph": "X", "cat": "kernel", "name": "after", "pid": 0, "tid": 7, "ts": 12, "dur": 1}
  ], "schemaVersion": 1})";
  for (const bool compressed : {false, true}) {
    SCOPED_TRACE(compressed ? "gzip" : "plain");
    const std::string path = compressed ? Gzip(dir, std::vector<uint8_t>(text.begin(), text.end()), "huge.json.gz")
                                        : WriteText(dir, "huge.json", text);
    RecordSet records;
    const base::Status status = ImportKinetoTrace(path, records);
    ASSERT_TRUE(status.ok()) << status.ToString();
    ASSERT_EQ(records.kernels.size(), 1u);
    EXPECT_EQ(records.Text(records.kernels[0].name), "after");
    EXPECT_EQ(records.metadata.at("kineto.schemaVersion"), "1") << "members after it are read";
    EXPECT_EQ(records.metadata.count("kineto.traceName"), 0u);
    EXPECT_EQ(records.stats().Get(base::Stat::kJsonOversizedValues), 2);
  }
}

TEST(KinetoImporter, NamesLongerThanTheCapAreCutAndCounted) {
  TempDir dir;
  const std::string name = "cutlass_" + std::string(100'000, 'x');
  const std::string path = WriteText(dir, "long.json", R"({"traceEvents": [
    {"ph": "X", "cat": "kernel", "name": ")" + name + R"(", "pid": 0, "tid": 7, "ts": 10, "dur": 1}]})");
  RecordSet records;
  ASSERT_TRUE(ImportKinetoTrace(path, records).ok());
  ASSERT_EQ(records.kernels.size(), 1u);
  const std::string_view kept = records.Text(records.kernels[0].name);
  EXPECT_EQ(kept.size(), records::kMaxStringBytes);
  EXPECT_EQ(kept.substr(0, 9), "cutlass_x");
  EXPECT_EQ(kept.substr(kept.size() - records::kCutMarker.size()), records::kCutMarker);
  EXPECT_EQ(records.stats().Get(base::Stat::kStringsTruncated), 1);
}

// Two processes in one file (two ranks' traces merged), each with its CPU ops first and then, in
// Kineto's order, each kernel just before the launch that made it; or with its launches first and its
// kernels after some other calls, not beside their launches. Both processes used correlation ids 1, 2.
std::string TwoProcesses(uint32_t second_device, bool launches_beside_kernels = true) {
  const auto kernel = [](uint32_t device, int correlation, int64_t at) {
    return fmt::format(R"({{"ph": "X", "cat": "kernel", "name": "gemm_{0}", "pid": {1}, "tid": 7, "ts": {2},)"
                       R"( "dur": 5, "args": {{"device": {1}, "stream": 7, "correlation": {0}}}}},)",
                       correlation, device, at + 5);
  };
  const auto launch = [](uint32_t pid, int correlation, int64_t at) {
    return fmt::format(R"({{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": {0},)"
                       R"( "tid": {0}, "ts": {1}, "dur": 3, "args": {{"correlation": {2}}}}},)",
                       pid, at, correlation);
  };
  const auto block = [&](uint32_t pid, uint32_t device, int64_t base, bool beside) {
    std::string events = fmt::format(
        R"({{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": {0}, "tid": {0}, "ts": {1}, "dur": 50}},)",
        pid, base);
    if (beside) {
      for (int c = 1; c <= 2; ++c) events += kernel(device, c, base + 10 * c) + launch(pid, c, base + 10 * c);
      return events;
    }
    for (int c = 1; c <= 2; ++c) events += launch(pid, c, base + 10 * c);
    for (int c = 3; c <= 8; ++c) events += launch(pid, c, base + 10 * c);  // launches of other kernels
    for (int c = 1; c <= 2; ++c) events += kernel(device, c, base + 10 * c);
    return events;
  };
  // The second rank's events come later, so that the model's kernels sort the first rank's first.
  std::string events = block(100, 0, 1000, true) + block(200, second_device, 2000, launches_beside_kernels);
  events.pop_back();  // the last comma
  return R"({"traceEvents": [)" + events + "]}";
}

// The process of each kernel's launch, by the kernel's device.
std::vector<std::pair<uint32_t, uint32_t>> LaunchingProcesses(const std::string& path) {
  model::ModelBuilder builder;
  EXPECT_TRUE(ImportKinetoTrace(path, builder).ok());
  const model::TraceModel model = std::move(builder).Build();
  std::vector<std::pair<uint32_t, uint32_t>> launches;
  for (uint32_t row = 0; row < model.kernels().size(); ++row) {
    const model::KernelRow kernel(row);
    const model::ApiCallRow call = model::LaunchingCall(model, kernel);
    const uint32_t device = model.device(model.stream(model.kernels().stream[kernel]).device).device_id;
    launches.emplace_back(device, call.valid() ? model.thread(model.api_calls().thread[call]).pid : 0);
  }
  return launches;
}

// All GPU records went to the first process: the second rank's kernels were linked to the first rank's
// launches, without a word.
TEST(KinetoImporter, CorrelationIdsAreScopedToTheProcessThatLaunched) {
  TempDir dir;
  using Launches = std::vector<std::pair<uint32_t, uint32_t>>;
  for (const uint32_t device : {1u, 0u}) {
    SCOPED_TRACE(device == 1 ? "one device each" : "one device for both");
    const std::string path = WriteText(dir, "two.json", TwoProcesses(device));
    const Launches expected = {{0, 100}, {0, 100}, {device, 200}, {device, 200}};
    EXPECT_EQ(LaunchingProcesses(path), expected);
    RecordSet records;
    ASSERT_TRUE(ImportKinetoTrace(path, records).ok());
    EXPECT_EQ(records.stats().Get(base::Stat::kCorrelationAmbiguousProcess), 0);
  }
}

// Kernels of the second process on the first one's device, not beside their launches: nothing tells
// whose they are. They are counted, and go to the device's process.
TEST(KinetoImporter, CountsGpuRecordsWhoseProcessStaysAmbiguous) {
  TempDir dir;
  RecordSet records;
  const std::string path = WriteText(dir, "two.json", TwoProcesses(/*second_device=*/0, /*launches_beside_kernels=*/false));
  ASSERT_TRUE(ImportKinetoTrace(path, records).ok());
  EXPECT_EQ(records.kernels.size(), 4u);
  EXPECT_EQ(records.stats().Get(base::Stat::kCorrelationAmbiguousProcess), 2);
  // With a device of its own, the second process's kernels are still counted ambiguous.
  RecordSet own_device;
  ASSERT_TRUE(ImportKinetoTrace(WriteText(dir, "two_devices.json", TwoProcesses(1, false)), own_device).ok());
  EXPECT_EQ(own_device.stats().Get(base::Stat::kCorrelationAmbiguousProcess), 2);
}

}  // namespace
}  // namespace ampprof::kineto
