// The sequence numbers of .ampt records chunks (format 1.1): a chunk found twice is read once, a
// chunk missing is counted as data loss, and files of format 1.0 still read and say they cannot tell.

#include <cstring>

#include <gtest/gtest.h>

#include "collectors/records/ampt_codec.h"
#include "collectors/records/ampt_format.h"
#include "collectors/records/ampt_reader.h"
#include "collectors/records/ampt_writer.h"
#include "collectors/records/chunk_sequence.h"
#include "collectors/records/record_set.h"
#include "src/base/crc32c.h"
#include "tests/testing/record_builder.h"
#include "tests/testing/temp_dir.h"

namespace ampprof::records {
namespace {

using testing::ReadFileBytes;
using testing::TempDir;
using testing::WriteFileBytes;

using Bytes = std::vector<uint8_t>;

// A file cut into its header and its chunks (each with its header), in file order.
struct Chunks {
  Bytes header;
  std::vector<Bytes> chunks;

  Bytes Join() const {
    Bytes out = header;
    for (const Bytes& chunk : chunks) out.insert(out.end(), chunk.begin(), chunk.end());
    return out;
  }
  uint32_t KindOf(size_t i) const { return ampt::GetU32(chunks[i].data()); }
  // The index of the `n`-th chunk of `kind`.
  size_t Nth(ampt::ChunkKind kind, size_t n) const {
    for (size_t i = 0; i < chunks.size(); ++i) {
      if (KindOf(i) == static_cast<uint32_t>(kind) && n-- == 0) return i;
    }
    ADD_FAILURE() << "no such chunk";
    return 0;
  }
};

Chunks Split(const Bytes& file) {
  Chunks split;
  split.header.assign(file.begin(), file.begin() + ampt::kFileHeaderBytes);
  for (size_t at = ampt::kFileHeaderBytes; at < file.size();) {
    const size_t size = ampt::kChunkHeaderBytes + ampt::GetU32(file.data() + at + 4);
    split.chunks.emplace_back(file.begin() + static_cast<ptrdiff_t>(at),
                              file.begin() + static_cast<ptrdiff_t>(at + size));
    at += size;
  }
  return split;
}

// A trace of 40 launches written in small chunks: several records chunks of kernels and API calls.
Bytes WriteTrace(const TempDir& dir) {
  AmptWriter::Options options;
  options.chunk_bytes = 512;
  {
    auto writer = AmptWriter::Create(dir.File("full.ampt"), options);
    EXPECT_TRUE(writer.ok());
    testing::RecordBuilder b(**writer);
    for (int i = 0; i < 40; ++i) {
      b.Launch("kernel_" + std::to_string(i), {i * 100, i * 100 + 10}, {i * 100 + 20, i * 100 + 90});
    }
    EXPECT_TRUE((*writer)->Close().ok());
  }
  return ReadFileBytes(dir.File("full.ampt"));
}

RecordSet Read(const TempDir& dir, const Bytes& bytes) {
  const std::string path = dir.File("input.ampt");
  WriteFileBytes(path, bytes);
  RecordSet records;
  const base::Status status = ReadAmptFile(path, records);
  EXPECT_TRUE(status.ok()) << status.ToString();
  return records;
}

TEST(AmptChunkSequence, TheWriterNumbersRecordsChunksFromZero) {
  TempDir dir;
  const Chunks file = Split(WriteTrace(dir));
  EXPECT_EQ(ampt::GetU16(file.header.data() + 10), 2) << "format 1.2";
  uint16_t expected = 0;
  for (size_t i = 0; i < file.chunks.size(); ++i) {
    if (file.KindOf(i) != static_cast<uint32_t>(ampt::ChunkKind::kRecords)) continue;
    EXPECT_EQ(ampt::GetU16(file.chunks[i].data() + ampt::kChunkHeaderBytes + 2), expected++);
  }
  EXPECT_GT(expected, 4) << "the test needs several records chunks";
}

TEST(AmptChunkSequence, AWholeFileHasNoSequenceStats) {
  TempDir dir;
  const RecordSet records = Read(dir, WriteTrace(dir));
  EXPECT_EQ(records.kernels.size(), 40u);
  EXPECT_TRUE(records.stats().NonZero().empty());
}

// Before format 1.1 a copied chunk was read twice: kernels counted twice, an optimizer step seen
// twice (a false amp.double_optimizer_step).
TEST(AmptChunkSequence, ADuplicatedRecordsChunkIsReadOnceAndCounted) {
  TempDir dir;
  const Bytes original = WriteTrace(dir);
  const RecordSet whole = Read(dir, original);
  for (const bool adjacent : {true, false}) {
    SCOPED_TRACE(adjacent ? "the copy right after it" : "the copy at the end of the file");
    Chunks file = Split(original);
    const size_t copied = file.Nth(ampt::ChunkKind::kRecords, 1);
    file.chunks.insert(adjacent ? file.chunks.begin() + static_cast<ptrdiff_t>(copied) + 1 : file.chunks.end(),
                       file.chunks[copied]);
    const RecordSet records = Read(dir, file.Join());
    EXPECT_EQ(records.kernels.size(), whole.kernels.size());
    EXPECT_EQ(records.api_calls.size(), whole.api_calls.size());
    EXPECT_EQ(records.stats().Get(base::Stat::kAmptChunksDuplicated), 1);
    EXPECT_EQ(records.stats().Get(base::Stat::kAmptChunksMissing), 0);
  }
}

// Before format 1.1 a dropped chunk left a file that read as whole: "no records lost".
TEST(AmptChunkSequence, AMissingRecordsChunkIsDataLoss) {
  TempDir dir;
  const Bytes original = WriteTrace(dir);
  const RecordSet whole = Read(dir, original);
  Chunks file = Split(original);
  file.chunks.erase(file.chunks.begin() + static_cast<ptrdiff_t>(file.Nth(ampt::ChunkKind::kRecords, 2)));
  const RecordSet records = Read(dir, file.Join());
  EXPECT_LT(records.record_count(), whole.record_count());
  EXPECT_EQ(records.stats().Get(base::Stat::kAmptChunksMissing), 1);
  EXPECT_TRUE(records.stats().HasDataLoss());
}

TEST(AmptChunkSequence, ADuplicatedStringTableIsSkipped) {
  TempDir dir;
  const Bytes original = WriteTrace(dir);
  const RecordSet whole = Read(dir, original);
  Chunks file = Split(original);
  const size_t table = file.Nth(ampt::ChunkKind::kStringTable, 1);
  file.chunks.insert(file.chunks.begin() + static_cast<ptrdiff_t>(table) + 1, file.chunks[table]);
  const RecordSet records = Read(dir, file.Join());
  ASSERT_EQ(records.kernels.size(), whole.kernels.size());
  for (size_t i = 0; i < records.kernels.size(); ++i) {
    EXPECT_EQ(records.Text(records.kernels[i].name), whole.Text(whole.kernels[i].name));
  }
  EXPECT_EQ(records.stats().Get(base::Stat::kAmptChunksDuplicated), 1);
}

// Was an error (the whole file refused): now the file reads, the table is counted missing, its ids
// read as lost strings in the records after the next table, and the records between the gap and the
// next table, which name strings not yet defined, are skipped and counted.
TEST(AmptChunkSequence, AMissingStringTableIsDataLossNotAnError) {
  TempDir dir;
  const Bytes original = WriteTrace(dir);
  const RecordSet whole = Read(dir, original);
  Chunks file = Split(original);
  file.chunks.erase(file.chunks.begin() + static_cast<ptrdiff_t>(file.Nth(ampt::ChunkKind::kStringTable, 1)));
  const RecordSet records = Read(dir, file.Join());
  EXPECT_GT(records.kernels.size(), 0u);
  EXPECT_LE(records.kernels.size(), whole.kernels.size());
  EXPECT_EQ(records.stats().Get(base::Stat::kAmptChunksMissing), 1);
  EXPECT_TRUE(records.stats().HasDataLoss());
  EXPECT_EQ(static_cast<int64_t>(records.record_count() + records.stats().Get(base::Stat::kAmptInvalidRecords)),
            static_cast<int64_t>(whole.record_count()));
}

// A file of format 1.0 (no sequence numbers, the field was reserved and 0) reads as before, and says
// that a duplicated or missing chunk could not be detected in it.
TEST(AmptChunkSequence, Format1_0FilesReadAndSayTheyCannotTell) {
  TempDir dir;
  Bytes bytes = WriteTrace(dir);
  const uint16_t minor = 0;
  std::memcpy(bytes.data() + 10, &minor, 2);
  Chunks file = Split(bytes);
  size_t records_chunks = 0;
  for (size_t i = 0; i < file.chunks.size(); ++i) {
    if (file.KindOf(i) != static_cast<uint32_t>(ampt::ChunkKind::kRecords)) continue;
    ++records_chunks;
    Bytes& chunk = file.chunks[i];
    std::memset(chunk.data() + ampt::kChunkHeaderBytes + 2, 0, 2);
    ampt::PutU32(chunk.data() + 8, base::Crc32c(chunk.data() + ampt::kChunkHeaderBytes,
                                                chunk.size() - ampt::kChunkHeaderBytes));
    ampt::PutU32(chunk.data() + 12, base::Crc32c(chunk.data(), 12));
  }
  const RecordSet records = Read(dir, file.Join());
  EXPECT_EQ(records.kernels.size(), 40u);
  EXPECT_EQ(records.metadata.at("ampt_version"), "1.0");
  EXPECT_EQ(records.stats().Get(base::Stat::kAmptChunksUnsequenced), static_cast<int64_t>(records_chunks));
  EXPECT_FALSE(records.stats().HasDataLoss());
}

TEST(ChunkSequence, CountsGapsAndCopiesAcrossTheWrapAround) {
  ChunkSequence sequence;
  // 3 x 2^16 chunks in order: the numbers wrap twice, nothing is missing.
  for (uint32_t i = 0; i < 3 * ampt::kChunkSequenceModulus; ++i) {
    ASSERT_EQ(sequence.Next(static_cast<uint16_t>(i), i * 7919), ChunkSequence::kNew) << i;
  }
  EXPECT_EQ(sequence.missing(), 0u);
  EXPECT_EQ(sequence.duplicated(), 0u);
  // A copy of the last chunk, then a gap of two.
  const uint32_t last = 3 * ampt::kChunkSequenceModulus - 1;
  EXPECT_EQ(sequence.Next(static_cast<uint16_t>(last), last * 7919), ChunkSequence::kDuplicate);
  EXPECT_EQ(sequence.Next(static_cast<uint16_t>(last + 3), 1), ChunkSequence::kNew);
  EXPECT_EQ(sequence.missing(), 2u);
  // One of the two arrives late: read, and no longer missing.
  EXPECT_EQ(sequence.Next(static_cast<uint16_t>(last + 1), 2), ChunkSequence::kNew);
  EXPECT_EQ(sequence.missing(), 1u);
  EXPECT_EQ(sequence.duplicated(), 1u);
}

TEST(ChunkSequence, AChunkWithAnEarlierNumberButOtherContentsIsNotACopy) {
  ChunkSequence sequence;
  EXPECT_EQ(sequence.Next(0, 100), ChunkSequence::kNew);
  EXPECT_EQ(sequence.Next(1, 101), ChunkSequence::kNew);
  EXPECT_EQ(sequence.Next(0, 555), ChunkSequence::kNew);
  EXPECT_EQ(sequence.duplicated(), 0u);
}

}  // namespace
}  // namespace ampprof::records
