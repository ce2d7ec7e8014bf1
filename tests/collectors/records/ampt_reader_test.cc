// How ReadAmptFile treats files it did not write itself: wrong, damaged, older and newer files.

#include <cstring>

#include <gtest/gtest.h>

#include "collectors/records/ampt_format.h"
#include "collectors/records/ampt_reader.h"
#include "collectors/records/ampt_writer.h"
#include "collectors/records/record_set.h"
#include "src/base/crc32c.h"
#include "tests/testing/record_builder.h"
#include "tests/testing/temp_dir.h"

namespace ampprof::records {
namespace {

using testing::ReadFileBytes;
using testing::TempDir;
using testing::WriteFileBytes;

std::vector<uint8_t> FileHeader(uint16_t major = ampt::kMajorVersion, uint16_t minor = 0) {
  std::vector<uint8_t> bytes(ampt::kMagic.begin(), ampt::kMagic.end());
  bytes.resize(16, 0);
  std::memcpy(bytes.data() + 8, &major, 2);
  std::memcpy(bytes.data() + 10, &minor, 2);
  return bytes;
}

void AppendU32(std::vector<uint8_t>& out, uint32_t value) {
  const auto* p = reinterpret_cast<const uint8_t*>(&value);
  out.insert(out.end(), p, p + 4);
}

// A well-formed chunk (valid checksums) around `payload`.
void AppendChunk(std::vector<uint8_t>& out, uint32_t kind, const std::vector<uint8_t>& payload) {
  std::vector<uint8_t> header;
  AppendU32(header, kind);
  AppendU32(header, static_cast<uint32_t>(payload.size()));
  AppendU32(header, base::Crc32c(payload.data(), payload.size()));
  AppendU32(header, base::Crc32c(header.data(), 12));
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), payload.begin(), payload.end());
}

std::vector<uint8_t> StringTable(uint32_t first_id, const std::vector<std::string>& strings) {
  std::vector<uint8_t> payload;
  AppendU32(payload, first_id);
  AppendU32(payload, static_cast<uint32_t>(strings.size()));
  for (const std::string& s : strings) {
    AppendU32(payload, static_cast<uint32_t>(s.size()));
    payload.insert(payload.end(), s.begin(), s.end());
  }
  return payload;
}

// A records payload of ThreadRecords {pid, tid, name} with `extra` trailing bytes per record, as a
// newer minor version that appended a field would write.
std::vector<uint8_t> ThreadRecords(const std::vector<std::array<uint32_t, 3>>& threads, uint32_t extra) {
  std::vector<uint8_t> payload = {static_cast<uint8_t>(RecordKind::kThread), 0, 0, 0};
  AppendU32(payload, 12 + extra);
  AppendU32(payload, static_cast<uint32_t>(threads.size()));
  for (const auto& thread : threads) {
    for (uint32_t field : thread) AppendU32(payload, field);
    payload.insert(payload.end(), extra, 0xAB);
  }
  return payload;
}

base::Status ReadBytes(const TempDir& dir, const std::vector<uint8_t>& bytes, RecordSet& out) {
  const std::string path = dir.File("input.ampt");
  WriteFileBytes(path, bytes);
  return ReadAmptFile(path, out);
}

std::string ReadError(const std::vector<uint8_t>& bytes) {
  TempDir dir;
  RecordSet ignored;
  const base::Status status = ReadBytes(dir, bytes, ignored);
  EXPECT_FALSE(status.ok());
  EXPECT_NE(status.message().find(dir.File("input.ampt")), std::string::npos) << status.message();
  return status.message();
}

TEST(AmptReader, RejectsEmptyFile) { EXPECT_NE(ReadError({}).find("file is empty"), std::string::npos); }

TEST(AmptReader, RejectsWrongMagic) {
  const std::string text = "{\"traceEvents\": []}";
  EXPECT_NE(ReadError(std::vector<uint8_t>(text.begin(), text.end())).find("wrong magic"),
            std::string::npos);
}

TEST(AmptReader, RejectsTruncatedHeader) {
  std::vector<uint8_t> bytes = FileHeader();
  bytes.resize(11);
  EXPECT_NE(ReadError(bytes).find("shorter than its 16-byte header"), std::string::npos);
}

TEST(AmptReader, RejectsUnknownMajorVersion) {
  const std::string message = ReadError(FileHeader(2, 3));
  EXPECT_NE(message.find("version 2.3 is not supported"), std::string::npos) << message;
}

TEST(AmptReader, AcceptsNewerMinorVersion) {
  TempDir dir;
  RecordSet out;
  EXPECT_TRUE(ReadBytes(dir, FileHeader(1, 9), out).ok());
  EXPECT_EQ(out.metadata.at("ampt_version"), "1.9");
}

TEST(AmptReader, RejectsACorruptChunk) {
  std::vector<uint8_t> bytes = FileHeader();
  AppendChunk(bytes, static_cast<uint32_t>(ampt::ChunkKind::kStringTable), StringTable(0, {"", "a"}));
  bytes.back() ^= 0x01;  // flip a payload bit
  EXPECT_NE(ReadError(bytes).find("chunk at byte 16 fails its checksum"), std::string::npos);
}

TEST(AmptReader, RejectsACorruptChunkHeader) {
  std::vector<uint8_t> bytes = FileHeader();
  AppendChunk(bytes, static_cast<uint32_t>(ampt::ChunkKind::kStringTable), StringTable(0, {""}));
  bytes[16 + 4] ^= 0x40;  // the payload length
  EXPECT_NE(ReadError(bytes).find("chunk header at byte 16 fails its checksum"), std::string::npos);
}

TEST(AmptReader, RefusesAChunkLargerThanTheLimitWithoutAllocatingIt) {
  std::vector<uint8_t> bytes = FileHeader();
  std::vector<uint8_t> header;
  AppendU32(header, static_cast<uint32_t>(ampt::ChunkKind::kRecords));
  AppendU32(header, 0xFFFFFFF0u);  // claims ~4 GiB
  AppendU32(header, 0);
  AppendU32(header, base::Crc32c(header.data(), 12));
  bytes.insert(bytes.end(), header.begin(), header.end());
  EXPECT_NE(ReadError(bytes).find("claims 4294967280 bytes"), std::string::npos);
}

TEST(AmptReader, RejectsMalformedRecordsPayload) {
  std::vector<uint8_t> bytes = FileHeader();
  std::vector<uint8_t> payload = ThreadRecords({{1, 2, 0}}, 0);
  payload.push_back(0);  // one byte too many for 1 x 12-byte record
  AppendChunk(bytes, static_cast<uint32_t>(ampt::ChunkKind::kRecords), payload);
  EXPECT_NE(ReadError(bytes).find("do not fill"), std::string::npos);
}

TEST(AmptReader, SkipsUnknownChunkKindsAndRecordKinds) {
  TempDir dir;
  std::vector<uint8_t> bytes = FileHeader();
  AppendChunk(bytes, 99, {1, 2, 3});
  std::vector<uint8_t> future_records = {200, 0, 0, 0};  // record kind 200
  AppendU32(future_records, 4);
  AppendU32(future_records, 1);
  AppendU32(future_records, 0);
  AppendChunk(bytes, static_cast<uint32_t>(ampt::ChunkKind::kRecords), future_records);
  AppendChunk(bytes, static_cast<uint32_t>(ampt::ChunkKind::kStringTable), StringTable(0, {""}));
  AppendChunk(bytes, static_cast<uint32_t>(ampt::ChunkKind::kRecords), ThreadRecords({{1, 2, 0}}, 0));
  RecordSet out;
  ASSERT_TRUE(ReadBytes(dir, bytes, out).ok());
  EXPECT_EQ(out.threads.size(), 1u);
  EXPECT_EQ(out.stats().Get(base::Stat::kAmptUnknownChunks), 2);
}

TEST(AmptReader, ReadsRecordsWithFieldsItDoesNotKnow) {
  TempDir dir;
  std::vector<uint8_t> bytes = FileHeader(1, 1);
  AppendChunk(bytes, static_cast<uint32_t>(ampt::ChunkKind::kStringTable), StringTable(0, {"", "main"}));
  AppendChunk(bytes, static_cast<uint32_t>(ampt::ChunkKind::kRecords),
              ThreadRecords({{1, 2, 1}, {1, 3, 0}}, /*extra=*/6));
  RecordSet out;
  ASSERT_TRUE(ReadBytes(dir, bytes, out).ok());
  ASSERT_EQ(out.threads.size(), 2u);
  EXPECT_EQ(out.threads[0].tid, 2u);
  EXPECT_EQ(out.Text(out.threads[0].name), "main");
  EXPECT_EQ(out.threads[1].tid, 3u);
}

// Format 1.0 is the first: records shorter than its sizes are damage, and accepting them would let a
// small file claim millions of records (the fuzzer found that).
TEST(AmptReader, RejectsRecordsShorterThanFormat1_0) {
  std::vector<uint8_t> bytes = FileHeader();
  std::vector<uint8_t> payload = {static_cast<uint8_t>(RecordKind::kThread), 0, 0, 0};
  AppendU32(payload, 1);  // 1-byte thread records
  AppendU32(payload, 4);
  payload.insert(payload.end(), 4, 0);
  AppendChunk(bytes, static_cast<uint32_t>(ampt::ChunkKind::kRecords), payload);
  EXPECT_NE(ReadError(bytes).find("thread records of 1 bytes, shorter than format 1.0's 12 bytes"),
            std::string::npos);
}

TEST(AmptReader, SkipsRecordsNamingUndefinedStrings) {
  TempDir dir;
  std::vector<uint8_t> bytes = FileHeader();
  AppendChunk(bytes, static_cast<uint32_t>(ampt::ChunkKind::kStringTable), StringTable(0, {""}));
  AppendChunk(bytes, static_cast<uint32_t>(ampt::ChunkKind::kRecords),
              ThreadRecords({{1, 2, 0}, {1, 3, 42}}, 0));  // string 42 was never defined
  RecordSet out;
  ASSERT_TRUE(ReadBytes(dir, bytes, out).ok());
  EXPECT_EQ(out.threads.size(), 1u);
  EXPECT_EQ(out.stats().Get(base::Stat::kAmptInvalidRecords), 1);
}

// A string table further on than the last one read follows a missing one (ampt_chunk_sequence_test.cc),
// unless the file could not have held the strings in between: then it is damage, refused before
// mapping millions of ids.
TEST(AmptReader, RejectsAStringTableStartingBeyondWhatTheFileCouldHold) {
  std::vector<uint8_t> bytes = FileHeader();
  AppendChunk(bytes, static_cast<uint32_t>(ampt::ChunkKind::kStringTable), StringTable(5'000'000, {"x"}));
  EXPECT_NE(ReadError(bytes).find("starts at id 5000000, expected 0"), std::string::npos);
}

TEST(AmptReader, UsesTheLastStatsSnapshotAndCountsUnknownStats) {
  TempDir dir;
  std::vector<uint8_t> bytes = FileHeader();
  auto snapshot = [](int64_t dropped) {
    std::vector<uint8_t> payload;
    AppendU32(payload, 2);
    for (std::string name : {"collector_dropped_records", "stat_from_the_future"}) {
      AppendU32(payload, static_cast<uint32_t>(name.size()));
      payload.insert(payload.end(), name.begin(), name.end());
      const auto* p = reinterpret_cast<const uint8_t*>(&dropped);
      payload.insert(payload.end(), p, p + 8);
    }
    return payload;
  };
  AppendChunk(bytes, static_cast<uint32_t>(ampt::ChunkKind::kStats), snapshot(5));
  AppendChunk(bytes, static_cast<uint32_t>(ampt::ChunkKind::kStats), snapshot(8));
  RecordSet out;
  ASSERT_TRUE(ReadBytes(dir, bytes, out).ok());
  EXPECT_EQ(out.stats().Get(base::Stat::kCollectorDroppedRecords), 8);
  EXPECT_EQ(out.stats().Get(base::Stat::kAmptUnknownStats), 1);
}

TEST(AmptReader, NamesAMissingFile) {
  RecordSet out;
  const base::Status status = ReadAmptFile("/nonexistent/trace.ampt", out);
  EXPECT_EQ(status.code(), base::StatusCode::kNotFound);
  EXPECT_EQ(status.message(), "/nonexistent/trace.ampt: no such file");
}

TEST(AmptReader, RejectsADirectory) {
  TempDir dir;
  RecordSet out;
  EXPECT_NE(ReadAmptFile(dir.path(), out).message().find("is a directory"), std::string::npos);
}

// Regression inputs found by tests/fuzz (tests/data/fuzz): each must read without crashing and within
// bounded memory.
TEST(AmptReader, FuzzRegressionHugeReserve) {
  // A chunk header whose record count claimed ~7 GB of rows made the model reserve them up front.
  {
    RecordSet records;
    const base::Status status =
        ReadAmptFile(std::string(AMPPROF_SOURCE_DIR) + "/tests/data/fuzz/ampt-oom-huge-reserve.ampt", records);
    EXPECT_TRUE(status.ok() || status.code() == base::StatusCode::kInvalidData) << status.ToString();
    EXPECT_LT(records.record_count(), 10'000u);
  }
}

TEST(LooksLikeAmpt, ChecksTheMagic) {
  const std::vector<uint8_t> header = FileHeader();
  EXPECT_TRUE(LooksLikeAmpt(header));
  EXPECT_FALSE(LooksLikeAmpt(std::span<const uint8_t>(header.data(), 7)));
  EXPECT_FALSE(LooksLikeAmpt(std::vector<uint8_t>(16, 0)));
}

}  // namespace
}  // namespace ampprof::records
