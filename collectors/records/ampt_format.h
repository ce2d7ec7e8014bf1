#ifndef AMPPROF_COLLECTORS_RECORDS_AMPT_FORMAT_H_
#define AMPPROF_COLLECTORS_RECORDS_AMPT_FORMAT_H_

// The .ampt trace file format, version 1.2: the layout shared by AmptWriter and the reader.
// docs/formats/ampt.md is the prose description; this file is the definition.
//
//   file    = file_header chunk*
//   header  = magic[8] "\x89AMPT\r\n\x1a" | u16 major | u16 minor | u32 flags (0)            16 bytes
//   chunk   = chunk_header payload
//   chunk_header = u32 kind | u32 payload_bytes | u32 payload_crc32 | u32 header_crc32        16 bytes
//
// All integers are little-endian. Checksums are CRC-32C (Castagnoli, src/base/crc32c.h). header_crc32
// covers the first 12 bytes of the chunk header, so a torn or misframed header is told apart from a
// truncated file. The magic's first byte is non-ASCII and it
// holds CR LF and ^Z, so text-mode transfers and `cat` of a text file are caught (as in PNG).
//
// Chunk payloads:
//   kStringTable  u32 first_id | u32 count | count x (u32 length | bytes)   ids are dense from 0, in order
//   kMetadata     u32 count | count x (string key | string value)          string = u32 length | bytes
//   kStats        u32 count | count x (string name | i64 value)            a snapshot: the last one wins
//   kRecords      u16 record_kind | u16 sequence | u32 record_size | u32 record_count | records
//
// sequence (1.1; 0 in 1.0 files, where the field was reserved): the number of records chunks written
// before this one, modulo 2^16. A reader finds a missing chunk as a gap in it, and a duplicated chunk
// as one whose number and payload checksum match a chunk already read. String tables need no number:
// their first_id already says where they belong.
//
// A record is its fields in RecordType::Fields() order, each at its natural width with no padding
// (StringId as u32, enums as u8). Readers take record_size from the chunk, so fields appended by a newer
// minor version are skipped and fields an older file lacks keep their defaults.

#include <array>
#include <cstdint>

namespace ampprof::records::ampt {

inline constexpr std::array<uint8_t, 8> kMagic = {0x89, 'A', 'M', 'P', 'T', '\r', '\n', 0x1a};
inline constexpr uint16_t kMajorVersion = 1;
// 1.1: records chunks carry a sequence number. 1.2: ranges carry a sequence number, memory records
// their source and the allocator's totals (fields appended).
inline constexpr uint16_t kMinorVersion = 2;
// The first minor version whose records chunks carry a sequence number.
inline constexpr uint16_t kFirstSequencedMinorVersion = 1;
inline constexpr uint32_t kChunkSequenceModulus = 1u << 16;

inline constexpr size_t kFileHeaderBytes = 16;
inline constexpr size_t kChunkHeaderBytes = 16;
inline constexpr size_t kRecordsPayloadHeaderBytes = 12;

// Readers refuse larger chunks as corrupt rather than allocate what a damaged length field claims.
// Writers stay far below it (AmptWriter::Options::chunk_bytes).
inline constexpr uint32_t kMaxChunkPayloadBytes = 64u << 20;

// Bytes of each record kind in format 1.0, indexed by RecordKind (0 unused). Minor versions only append
// fields, so no 1.x file has shorter records: a shorter record_size is corrupt. Frozen: never edit.
inline constexpr uint32_t kRecordBytesV1_0[] = {0, 40, 24, 12, 88, 41, 52, 50, 45, 37, 34, 38, 25};

enum class ChunkKind : uint32_t {
  kStringTable = 1,
  kMetadata = 2,
  kStats = 3,
  kRecords = 4,
};

}  // namespace ampprof::records::ampt

#endif  // AMPPROF_COLLECTORS_RECORDS_AMPT_FORMAT_H_
