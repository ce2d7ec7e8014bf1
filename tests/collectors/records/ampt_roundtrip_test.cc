// Writing records with AmptWriter and reading them back with ReadAmptFile gives the same records,
// however the file is cut.

#include <sys/resource.h>
#include <unistd.h>

#include <csignal>

#include <gtest/gtest.h>

#include "collectors/records/ampt_codec.h"
#include "collectors/records/ampt_reader.h"
#include "collectors/records/ampt_writer.h"
#include "collectors/records/record_set.h"
#include "collectors/records/string_cap.h"
#include "tests/testing/record_builder.h"
#include "tests/testing/temp_dir.h"

namespace ampprof::records {
namespace {

using testing::ReadFileBytes;
using testing::TempDir;
using testing::WriteFileBytes;

// One record of every kind, every field set to a distinct non-default value.
void AddOneOfEach(RecordSink& sink) {
  auto s = [&](std::string_view text) { return sink.strings().Intern(text); };
  sink.Add(DeviceRecord{1, 0, s("NVIDIA H100 80GB HBM3"), s("GPU-1234"), 9, 0, 132, 85'520'809'984,
                        1'980'000});
  sink.Add(ProcessRecord{1, s("python train.py"), s("node-7"), 3, 1, 8});
  sink.Add(ThreadRecord{1, 2, s("pt_main_thread")});
  KernelRecord kernel;
  KernelRecord::Fields(kernel, [n = 1u](auto& field) mutable {
    using Field = std::decay_t<decltype(field)>;
    if constexpr (std::is_integral_v<Field>) field = static_cast<Field>(n++ * 1000 + 7);
  });
  kernel.name = s("ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_nn");
  sink.Add(kernel);
  sink.Add(ApiCallRecord{10, 20, 1, 2, 99, ApiDomain::kDriver, 652, s("cuLaunchKernelEx"), -3});
  sink.Add(MemcpyRecord{30, 40, 1, 0, 5, 7, 100, MemcpyKind::kDeviceToHost, MemoryKind::kDevice,
                        MemoryKind::kPinned, 1, 4, 2});
  sink.Add(MemsetRecord{50, 60, 1, 0, 5, 7, 101, MemoryKind::kDevice, 1, 1 << 20, 0xff});
  sink.Add(SyncRecord{70, 80, 1, 2, 0, 5, 7, 102, SyncKind::kStreamSynchronize, 9});
  sink.Add(RangeRecord{90, 95, 1, 2, RangeCategory::kCpuOp, s(""), s("aten::linear"),
                       s("sizes = [[20, 128], [128, 128]]")});
  sink.Add(MarkRecord{96, 1, 2, MarkKind::kRangeStart, RangeCategory::kNvtx, 77, s("ampprof"),
                      s("GradScaler.step")});
  sink.Add(MemoryRecord{97, 1, 0, 7, MemoryOperation::kRelease, MemoryKind::kDevice, 0x7f0000, 4096});
  sink.Add(OverheadRecord{98, 99, 1, 2, OverheadKind::kBufferFlush});
}

TEST(AmptRoundTrip, EveryRecordKindSurvivesWithEveryField) {
  TempDir dir;
  RecordSet expected;
  AddOneOfEach(expected);
  expected.stats().Increment(base::Stat::kCollectorDroppedRecords, 12);
  {
    auto writer = AmptWriter::Create(dir.File("t.ampt"), {});
    ASSERT_TRUE(writer.ok()) << writer.status().ToString();
    (*writer)->SetMetadata("command", "python train.py");
    expected.ReplayInto(**writer);
    ASSERT_TRUE((*writer)->Close().ok());
  }
  RecordSet actual;
  ASSERT_TRUE(ReadAmptFile(dir.File("t.ampt"), actual).ok());

  EXPECT_EQ(actual.record_count(), 12u);
  EXPECT_EQ(actual.metadata.at("command"), "python train.py");
  EXPECT_EQ(actual.metadata.at("ampt_version"), "1.2");
  EXPECT_EQ(actual.stats().Get(base::Stat::kCollectorDroppedRecords), 12);
  // Compare through a common pool: replay both into fresh sets and compare field by field.
  RecordSet a, b;
  expected.ReplayInto(a);
  actual.ReplayInto(b);
  EXPECT_EQ(a.devices, b.devices);
  EXPECT_EQ(a.processes, b.processes);
  EXPECT_EQ(a.threads, b.threads);
  EXPECT_EQ(a.kernels, b.kernels);
  EXPECT_EQ(a.api_calls, b.api_calls);
  EXPECT_EQ(a.memcpys, b.memcpys);
  EXPECT_EQ(a.memsets, b.memsets);
  EXPECT_EQ(a.syncs, b.syncs);
  EXPECT_EQ(a.ranges, b.ranges);
  EXPECT_EQ(a.marks, b.marks);
  EXPECT_EQ(a.memory, b.memory);
  EXPECT_EQ(a.overheads, b.overheads);
}

TEST(AmptRoundTrip, ManyChunksKeepOrderAndStrings) {
  TempDir dir;
  AmptWriter::Options options;
  options.chunk_bytes = 1024;  // force many chunks and many incremental string tables
  auto writer = AmptWriter::Create(dir.File("t.ampt"), options);
  ASSERT_TRUE(writer.ok());
  testing::RecordBuilder b(**writer);
  for (int i = 0; i < 5000; ++i) {
    b.Kernel("kernel_" + std::to_string(i % 300), i * 10, i * 10 + 5, static_cast<uint32_t>(i + 1));
  }
  ASSERT_TRUE((*writer)->Close().ok());

  RecordSet actual;
  ASSERT_TRUE(ReadAmptFile(dir.File("t.ampt"), actual).ok());
  ASSERT_EQ(actual.kernels.size(), 5000u);
  for (int i = 0; i < 5000; ++i) {
    ASSERT_EQ(actual.kernels[i].start, i * 10);
    ASSERT_EQ(actual.Text(actual.kernels[i].name), "kernel_" + std::to_string(i % 300));
  }
  EXPECT_TRUE(actual.stats().NonZero().empty());
}

// A process killed while writing leaves a prefix of the file. Every prefix that holds the header must
// read without error, give a prefix of the records, and say whether data was lost.
TEST(AmptRoundTrip, TruncationAtEveryByteOffset) {
  TempDir dir;
  AmptWriter::Options options;
  options.chunk_bytes = 256;
  {
    auto writer = AmptWriter::Create(dir.File("full.ampt"), options);
    ASSERT_TRUE(writer.ok());
    testing::RecordBuilder b(**writer);
    for (int i = 0; i < 40; ++i) b.Launch("k" + std::to_string(i % 5), {i * 100, i * 100 + 10}, {i * 100 + 20, i * 100 + 90});
    b.RangeStart(1, "step", 0);
    b.RangeEnd(1, 4000);
    ASSERT_TRUE((*writer)->Close().ok());
  }
  const std::vector<uint8_t> full = ReadFileBytes(dir.File("full.ampt"));
  RecordSet complete;
  ASSERT_TRUE(ReadAmptFile(dir.File("full.ampt"), complete).ok());
  ASSERT_EQ(complete.kernels.size(), 40u);

  size_t previous_count = 0;
  for (size_t size = 0; size < full.size(); ++size) {
    SCOPED_TRACE("prefix of " + std::to_string(size) + " bytes");
    const std::string path = dir.File("cut.ampt");
    WriteFileBytes(path, std::vector<uint8_t>(full.begin(), full.begin() + static_cast<ptrdiff_t>(size)));
    RecordSet cut;
    const base::Status status = ReadAmptFile(path, cut);
    if (size < 16) {
      ASSERT_FALSE(status.ok());
      EXPECT_NE(status.message().find(path), std::string::npos) << status.message();
      continue;
    }
    ASSERT_TRUE(status.ok()) << status.ToString();
    const size_t count = cut.record_count();
    EXPECT_GE(count, previous_count);  // more bytes never mean fewer records
    previous_count = count;
    for (size_t i = 0; i < cut.kernels.size(); ++i) {
      ASSERT_EQ(cut.kernels[i].start, complete.kernels[i].start);
      ASSERT_EQ(cut.Text(cut.kernels[i].name), complete.Text(complete.kernels[i].name));
    }
    // A cut inside a chunk is data loss; a cut at a chunk boundary is indistinguishable from a file
    // whose writer stopped there, so the count must simply be a prefix.
    if (cut.stats().Get(base::Stat::kAmptTruncatedTail) == 0) {
      EXPECT_LE(count, complete.record_count());
    } else {
      EXPECT_TRUE(cut.stats().HasDataLoss());
    }
  }
  // One byte short of the whole file loses at most the last record.
  EXPECT_GE(previous_count + 1, complete.record_count());
}

// The record sizes of format 1.2, as docs/formats/ampt.md lists them. A change here is a format change:
// append fields only, bump the minor version, and update the document. 1.2 appended the range's
// sequence number (8 bytes) and the memory record's source and totals (1 + 8 + 8 bytes).
TEST(AmptFormat, RecordSizesOfVersion1_2) {
  EXPECT_EQ(ampt::EncodedRecordBytes<DeviceRecord>(), 40u);
  EXPECT_EQ(ampt::EncodedRecordBytes<ProcessRecord>(), 24u);
  EXPECT_EQ(ampt::EncodedRecordBytes<ThreadRecord>(), 12u);
  EXPECT_EQ(ampt::EncodedRecordBytes<KernelRecord>(), 88u);
  EXPECT_EQ(ampt::EncodedRecordBytes<ApiCallRecord>(), 41u);
  EXPECT_EQ(ampt::EncodedRecordBytes<MemcpyRecord>(), 52u);
  EXPECT_EQ(ampt::EncodedRecordBytes<MemsetRecord>(), 50u);
  EXPECT_EQ(ampt::EncodedRecordBytes<SyncRecord>(), 45u);
  EXPECT_EQ(ampt::EncodedRecordBytes<RangeRecord>(), 45u);
  EXPECT_EQ(ampt::EncodedRecordBytes<MarkRecord>(), 34u);
  EXPECT_EQ(ampt::EncodedRecordBytes<MemoryRecord>(), 55u);
  EXPECT_EQ(ampt::EncodedRecordBytes<OverheadRecord>(), 25u);
  // The frozen minimums the reader enforces are the 1.0 sizes, which later versions only extend.
  uint8_t kind = 1;
  ForEachRecordType([&]<typename Record>() {
    EXPECT_LE(ampt::kRecordBytesV1_0[kind], ampt::EncodedRecordBytes<Record>()) << int{kind};
    ++kind;
  });
  EXPECT_EQ(ampt::kRecordBytesV1_0[static_cast<uint8_t>(RecordKind::kRange)], 37u);
  EXPECT_EQ(ampt::kRecordBytesV1_0[static_cast<uint8_t>(RecordKind::kMemory)], 38u);
}

// A 1.1 file's ranges and memory records end before the fields 1.2 appended: they read with the
// defaults that say "not recorded", not with zeros that would claim a sequence number 0 or an empty
// device.
TEST(AmptFormat, RecordsOfVersion1_1ReadWithTheDefaultsOfTheFieldsAppendedIn1_2) {
  const std::vector<StringId> strings = {StringId{0}, StringId{1}};
  RangeRecord range;
  range.start = 5;
  range.end = 9;
  range.name = StringId{1};
  range.sequence_number = 77;
  std::vector<uint8_t> bytes(ampt::EncodedRecordBytes<RangeRecord>());
  ampt::EncodeRecord(range, bytes.data());
  RangeRecord decoded;
  ASSERT_TRUE(ampt::DecodeRecord(bytes.data(), bytes.size(), strings, decoded));
  EXPECT_EQ(decoded.sequence_number, 77);
  ASSERT_TRUE(ampt::DecodeRecord(bytes.data(), 37, strings, decoded));  // the 1.1 size
  EXPECT_EQ(decoded.end, 9);
  EXPECT_EQ(decoded.sequence_number, -1);

  MemoryRecord memory;
  memory.bytes = 4096;
  memory.source = MemorySource::kFrameworkAllocator;
  memory.total_allocated = 1 << 20;
  memory.total_reserved = 2 << 20;
  bytes.assign(ampt::EncodedRecordBytes<MemoryRecord>(), 0);
  ampt::EncodeRecord(memory, bytes.data());
  MemoryRecord read;
  ASSERT_TRUE(ampt::DecodeRecord(bytes.data(), bytes.size(), strings, read));
  EXPECT_EQ(read, memory);
  ASSERT_TRUE(ampt::DecodeRecord(bytes.data(), 38, strings, read));
  EXPECT_EQ(read.bytes, 4096u);
  EXPECT_EQ(read.source, MemorySource::kDriver);
  EXPECT_EQ(read.total_allocated, MemoryRecord::kUnknownTotal);
  EXPECT_EQ(read.total_reserved, MemoryRecord::kUnknownTotal);
}

TEST(AmptWriter, RefusesToOverwriteUnlessAsked) {
  TempDir dir;
  ASSERT_TRUE(AmptWriter::Create(dir.File("t.ampt"), {}).ok());
  const auto again = AmptWriter::Create(dir.File("t.ampt"), {});
  ASSERT_FALSE(again.ok());
  EXPECT_NE(again.status().message().find("file exists"), std::string::npos);
  AmptWriter::Options overwrite;
  overwrite.overwrite = true;
  EXPECT_TRUE(AmptWriter::Create(dir.File("t.ampt"), overwrite).ok());
}

TEST(AmptWriter, ReportsAnUncreatableFile) {
  const auto writer = AmptWriter::Create("/nonexistent-dir/t.ampt", {});
  ASSERT_FALSE(writer.ok());
  EXPECT_EQ(writer.status().code(), base::StatusCode::kIoError);
  EXPECT_NE(writer.status().message().find("/nonexistent-dir/t.ampt"), std::string::npos);
}

// /dev/full accepts open() and fails every write with ENOSPC: a disk that is already full.
TEST(AmptWriter, ReportsAFullDiskAtCreation) {
  AmptWriter::Options options;
  options.overwrite = true;
  const auto writer = AmptWriter::Create("/dev/full", options);
  ASSERT_FALSE(writer.ok());
  EXPECT_EQ(writer.status().code(), base::StatusCode::kIoError);
  EXPECT_NE(writer.status().message().find("No space left"), std::string::npos)
      << writer.status().message();
}

// A disk that fills while the trace is written, simulated with a file-size limit (writes past it fail
// with EFBIG, as they would with ENOSPC) for as long as the object lives.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    getrlimit(RLIMIT_FSIZE, &saved_);
    previous_handler_ = std::signal(SIGXFSZ, SIG_IGN);  // EFBIG instead of a signal
    struct rlimit limited = saved_;
    limited.rlim_cur = bytes;
    ok_ = setrlimit(RLIMIT_FSIZE, &limited) == 0;
  }
  ~FileSizeLimit() {
    setrlimit(RLIMIT_FSIZE, &saved_);
    std::signal(SIGXFSZ, previous_handler_);
  }
  FileSizeLimit(const FileSizeLimit&) = delete;
  FileSizeLimit& operator=(const FileSizeLimit&) = delete;
  bool ok() const { return ok_; }

 private:
  struct rlimit saved_ {};
  void (*previous_handler_)(int) = nullptr;
  bool ok_ = false;
};

// A disk already full when the trace is created: an error, and no headerless file left to read as a
// broken trace.
TEST(AmptWriter, LeavesNoFileWhenItsHeaderCannotBeWritten) {
  TempDir dir;
  FileSizeLimit limit(8);  // half the header
  ASSERT_TRUE(limit.ok());
  const auto writer = AmptWriter::Create(dir.File("t.ampt"), {});
  ASSERT_FALSE(writer.ok());
  EXPECT_NE(writer.status().message().find("write failed"), std::string::npos) << writer.status().message();
  EXPECT_NE(access(dir.File("t.ampt").c_str(), F_OK), 0) << "the headerless file was left behind";
}

// The writer keeps the first error, stops writing and counts what it dropped; the file is cut back to
// its last whole chunk and ends with the count, so the reader sees every record exactly once, either
// in the file or in collector_write_errors, and no torn chunk.
TEST(AmptWriter, CountsRecordsDroppedAfterTheDiskFillsInTheFile) {
  TempDir dir;
  base::Status status;
  int64_t dropped = 0;
  {
    FileSizeLimit limit(8192);
    ASSERT_TRUE(limit.ok());
    AmptWriter::Options options;
    options.chunk_bytes = 512;
    auto writer = AmptWriter::Create(dir.File("t.ampt"), options);
    ASSERT_TRUE(writer.ok());
    testing::RecordBuilder b(**writer);
    for (int i = 0; i < 2000; ++i) b.Kernel("k", i * 10, i * 10 + 5);
    status = (*writer)->Close();
    dropped = (*writer)->stats().Get(base::Stat::kCollectorWriteErrors);
  }
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("write failed"), std::string::npos) << status.message();
  EXPECT_GT(dropped, 0);

  RecordSet readable;
  ASSERT_TRUE(ReadAmptFile(dir.File("t.ampt"), readable).ok());
  EXPECT_GT(readable.kernels.size(), 0u);
  EXPECT_EQ(readable.kernels.size() + static_cast<size_t>(dropped), 2000u);
  EXPECT_EQ(readable.stats().Get(base::Stat::kCollectorWriteErrors), dropped);
  EXPECT_EQ(readable.stats().Get(base::Stat::kAmptTruncatedTail), 0);
}

// A process killed after the disk filled leaves the count of its last Flush(): the loss report is
// rewritten in place as the count grows.
TEST(AmptWriter, TheLossCountInTheFileGrowsAtEveryFlush) {
  TempDir dir;
  FileSizeLimit limit(4096);
  ASSERT_TRUE(limit.ok());
  AmptWriter::Options options;
  options.chunk_bytes = 512;
  auto writer = AmptWriter::Create(dir.File("t.ampt"), options);
  ASSERT_TRUE(writer.ok());
  testing::RecordBuilder b(**writer);
  int added = 0;
  auto add_kernel = [&] {
    b.Kernel("k", added * 10, added * 10 + 5);
    ++added;
  };
  while ((*writer)->status().ok()) add_kernel();
  std::vector<int64_t> counts;
  for (int flush = 0; flush < 3; ++flush) {
    for (int i = 0; i < 100; ++i) add_kernel();
    static_cast<void>((*writer)->Flush());
    RecordSet readable;
    ASSERT_TRUE(ReadAmptFile(dir.File("t.ampt"), readable).ok());
    EXPECT_EQ(readable.kernels.size() + static_cast<size_t>(readable.stats().Get(base::Stat::kCollectorWriteErrors)),
              static_cast<size_t>(added));
    counts.push_back(readable.stats().Get(base::Stat::kCollectorWriteErrors));
  }
  EXPECT_EQ(counts[1], counts[0] + 100);
  EXPECT_EQ(counts[2], counts[1] + 100);
}

// New strings go out in tables that stay under the reader's chunk limit, however many and however
// long: a thousand 64 KiB template names would make one 70 MB table.
TEST(AmptWriter, SplitsStringTablesThatWouldPassTheReadersChunkLimit) {
  TempDir dir;
  auto writer = AmptWriter::Create(dir.File("t.ampt"), {});
  ASSERT_TRUE(writer.ok());
  testing::RecordBuilder b(**writer);
  const std::string padding(kMaxStringBytes - 8, 'x');  // the longest names that are not cut
  for (int i = 0; i < 1100; ++i) b.Kernel(std::to_string(i) + padding, i * 10, i * 10 + 5);
  ASSERT_TRUE((*writer)->Close().ok());

  RecordSet actual;
  const base::Status read = ReadAmptFile(dir.File("t.ampt"), actual);
  ASSERT_TRUE(read.ok()) << read.ToString();
  ASSERT_EQ(actual.kernels.size(), 1100u);
  for (int i = 0; i < 1100; i += 99) EXPECT_EQ(actual.Text(actual.kernels[i].name), std::to_string(i) + padding);
}

// Names were cut at 1 MiB without a word; now at kMaxStringBytes, as every importer cuts them, and the
// file counts each cut.
TEST(AmptWriter, CutsLongStringsAndCountsTheCutsInTheFile) {
  TempDir dir;
  {
    auto writer = AmptWriter::Create(dir.File("t.ampt"), {});
    ASSERT_TRUE(writer.ok());
    testing::RecordBuilder b(**writer);
    b.Kernel("cutlass_" + std::string(3 * kMaxStringBytes, 'x'), 10, 20);
    (*writer)->SetMetadata("command", std::string(2 * kMaxStringBytes, 'c'));
    ASSERT_TRUE((*writer)->Close().ok());
  }
  RecordSet actual;
  ASSERT_TRUE(ReadAmptFile(dir.File("t.ampt"), actual).ok());
  ASSERT_EQ(actual.kernels.size(), 1u);
  const std::string_view name = actual.Text(actual.kernels[0].name);
  EXPECT_EQ(name.size(), kMaxStringBytes);
  EXPECT_EQ(name.substr(name.size() - kCutMarker.size()), kCutMarker);
  EXPECT_EQ(actual.metadata.at("command").size(), kMaxStringBytes);
  EXPECT_EQ(actual.stats().Get(base::Stat::kStringsTruncated), 2);
}

}  // namespace
}  // namespace ampprof::records
