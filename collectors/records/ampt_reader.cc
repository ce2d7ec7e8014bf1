#include "collectors/records/ampt_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <vector>

#include "collectors/records/ampt_codec.h"
#include "collectors/records/ampt_format.h"
#include "collectors/records/chunk_sequence.h"
#include "collectors/records/string_cap.h"
#include "src/base/crc32c.h"

namespace ampprof::records {
namespace {

using base::Status;

// What the strings of a string table that is missing from the file read as.
constexpr std::string_view kLostString = "<string lost with a missing chunk>";

// Owns the file descriptor; reads with pread so the pre-scan and the main pass do not share a cursor.
class File {
 public:
  explicit File(int fd) : fd_(fd) {}
  ~File() {
    if (fd_ >= 0) ::close(fd_);
  }
  File(const File&) = delete;
  File& operator=(const File&) = delete;

  // Reads up to `size` bytes at `offset`; returns how many were read (fewer only at end of file).
  base::StatusOr<size_t> ReadAt(uint64_t offset, uint8_t* out, size_t size) const {
    size_t done = 0;
    while (done < size) {
      const ssize_t got = ::pread(fd_, out + done, size - done, static_cast<off_t>(offset + done));
      if (got < 0) {
        if (errno == EINTR) continue;
        return base::IoError("read failed at byte {}: {}", offset + done, std::strerror(errno));
      }
      if (got == 0) break;
      done += static_cast<size_t>(got);
    }
    return done;
  }

 private:
  int fd_;
};

struct ChunkHeader {
  uint32_t kind = 0;
  uint32_t payload_bytes = 0;
  uint32_t payload_crc = 0;
  bool header_valid = false;
};

ChunkHeader ParseChunkHeader(const uint8_t* bytes) {
  ChunkHeader header;
  header.kind = ampt::GetU32(bytes);
  header.payload_bytes = ampt::GetU32(bytes + 4);
  header.payload_crc = ampt::GetU32(bytes + 8);
  header.header_valid = ampt::GetU32(bytes + 12) == base::Crc32c(bytes, 12);
  return header;
}

// Sequential cursor over a payload; every read is bounds-checked.
class PayloadReader {
 public:
  PayloadReader(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  bool ReadU32(uint32_t& value) {
    if (size_ - offset_ < 4) return false;
    value = ampt::GetU32(data_ + offset_);
    offset_ += 4;
    return true;
  }
  bool ReadI64(int64_t& value) {
    if (size_ - offset_ < 8) return false;
    value = ampt::GetI64(data_ + offset_);
    offset_ += 8;
    return true;
  }
  bool ReadString(std::string_view& text) {
    uint32_t length;
    if (!ReadU32(length) || size_ - offset_ < length) return false;
    text = std::string_view(reinterpret_cast<const char*>(data_ + offset_), length);
    offset_ += length;
    return true;
  }
  bool AtEnd() const { return offset_ == size_; }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t offset_ = 0;
};

class AmptFileReader {
 public:
  AmptFileReader(const File& file, uint64_t file_size, RecordSink& sink)
      : file_(file), file_size_(file_size), sink_(sink) {}

  Status Read() {
    RETURN_IF_ERROR(ReadFileHeader());
    ReserveFromChunkHeaders();
    uint64_t offset = ampt::kFileHeaderBytes;
    while (offset < file_size_) {
      std::array<uint8_t, ampt::kChunkHeaderBytes> header_bytes;
      ASSIGN_OR_RETURN(size_t got, file_.ReadAt(offset, header_bytes.data(), header_bytes.size()));
      if (got < header_bytes.size()) {  // the file ends inside a chunk header
        sink_.stats().Increment(base::Stat::kAmptTruncatedTail);
        break;
      }
      const ChunkHeader header = ParseChunkHeader(header_bytes.data());
      if (!header.header_valid) {
        return base::InvalidDataError("corrupt .ampt file: chunk header at byte {} fails its checksum",
                                      offset);
      }
      if (header.payload_bytes > ampt::kMaxChunkPayloadBytes) {
        return base::InvalidDataError(
            "corrupt .ampt file: chunk at byte {} claims {} bytes (the limit is {})", offset,
            header.payload_bytes, ampt::kMaxChunkPayloadBytes);
      }
      const uint64_t payload_offset = offset + ampt::kChunkHeaderBytes;
      payload_.resize(header.payload_bytes);
      ASSIGN_OR_RETURN(got, file_.ReadAt(payload_offset, payload_.data(), payload_.size()));
      if (got < header.payload_bytes) {  // the file ends inside this chunk's payload
        sink_.stats().Increment(base::Stat::kAmptTruncatedTail);
        if (header.kind == static_cast<uint32_t>(ampt::ChunkKind::kRecords)) {
          SalvageRecords(got, header.payload_crc);
        }
        break;
      }
      if (base::Crc32c(payload_.data(), payload_.size()) != header.payload_crc) {
        return base::InvalidDataError("corrupt .ampt file: chunk at byte {} fails its checksum",
                                      offset);
      }
      RETURN_IF_ERROR(DecodeChunk(header.kind, header.payload_crc).WithContext(
          fmt::format("corrupt .ampt file: chunk at byte {}", offset)));
      offset = payload_offset + header.payload_bytes;
    }
    ApplyStatsSnapshot();
    sink_.stats().Increment(base::Stat::kAmptChunksMissing, static_cast<int64_t>(sequence_.missing()));
    sink_.stats().Increment(base::Stat::kAmptChunksDuplicated,
                            static_cast<int64_t>(sequence_.duplicated()));
    return base::OkStatus();
  }

 private:
  Status ReadFileHeader() {
    std::array<uint8_t, ampt::kFileHeaderBytes> header;
    ASSIGN_OR_RETURN(size_t got, file_.ReadAt(0, header.data(), header.size()));
    if (got == 0) return base::InvalidDataError("file is empty");
    const size_t magic_bytes = std::min(got, ampt::kMagic.size());
    if (!std::equal(header.begin(), header.begin() + static_cast<ptrdiff_t>(magic_bytes),
                    ampt::kMagic.begin())) {
      return base::InvalidDataError("not an .ampt trace (wrong magic bytes)");
    }
    if (got < header.size()) {
      return base::InvalidDataError("truncated .ampt file: {} bytes, shorter than its 16-byte header",
                                    got);
    }
    const uint16_t major = ampt::GetU16(header.data() + 8);
    const uint16_t minor = ampt::GetU16(header.data() + 10);
    if (major != ampt::kMajorVersion) {
      return base::UnsupportedError(
          ".ampt format version {}.{} is not supported (this ampprof reads version {}.x)", major, minor,
          ampt::kMajorVersion);
    }
    sink_.SetMetadata("ampt_version", fmt::format("{}.{}", major, minor));
    sequenced_ = minor >= ampt::kFirstSequencedMinorVersion;
    return base::OkStatus();
  }

  // Walks the chunk headers (not the payloads) to tell the sink how many records of each kind follow,
  // so that the model can size its columns once instead of growing them. Stops quietly at anything odd:
  // the main pass reports it.
  void ReserveFromChunkHeaders() {
    std::array<uint64_t, kRecordKindMax + 1> counts{};
    uint64_t offset = ampt::kFileHeaderBytes;
    std::array<uint8_t, ampt::kChunkHeaderBytes + ampt::kRecordsPayloadHeaderBytes> bytes;
    while (offset + ampt::kChunkHeaderBytes <= file_size_) {
      const auto got = file_.ReadAt(offset, bytes.data(), bytes.size());
      if (!got.ok() || *got < ampt::kChunkHeaderBytes) break;
      const ChunkHeader header = ParseChunkHeader(bytes.data());
      if (!header.header_valid || header.payload_bytes > ampt::kMaxChunkPayloadBytes) break;
      if (header.kind == static_cast<uint32_t>(ampt::ChunkKind::kRecords) && *got == bytes.size()) {
        const uint16_t kind = ampt::GetU16(bytes.data() + ampt::kChunkHeaderBytes);
        const uint32_t record_size = ampt::GetU32(bytes.data() + ampt::kChunkHeaderBytes + 4);
        const uint32_t record_count = ampt::GetU32(bytes.data() + ampt::kChunkHeaderBytes + 8);
        // Only counts the chunk's own size vouches for: a damaged count must not make the model
        // reserve memory the file could never fill (the main pass reports the damage).
        const bool known = kind >= 1 && kind <= kRecordKindMax;
        const bool consistent =
            known && record_size >= ampt::kRecordBytesV1_0[kind] &&
            header.payload_bytes >= ampt::kRecordsPayloadHeaderBytes &&
            uint64_t{record_size} * record_count == header.payload_bytes - ampt::kRecordsPayloadHeaderBytes;
        if (consistent) counts[kind] += record_count;
      }
      offset += ampt::kChunkHeaderBytes + header.payload_bytes;
    }
    for (uint8_t kind = 1; kind <= kRecordKindMax; ++kind) {
      if (counts[kind] > 0) sink_.Reserve(static_cast<RecordKind>(kind), counts[kind]);
    }
  }

  Status DecodeChunk(uint32_t kind, uint32_t payload_crc) {
    switch (static_cast<ampt::ChunkKind>(kind)) {
      case ampt::ChunkKind::kStringTable: return DecodeStringTable();
      case ampt::ChunkKind::kMetadata: return DecodeMetadata();
      case ampt::ChunkKind::kStats: return DecodeStats();
      case ampt::ChunkKind::kRecords: return DecodeRecords(payload_.size(), payload_crc, /*salvage=*/false);
    }
    sink_.stats().Increment(base::Stat::kAmptUnknownChunks);
    return base::OkStatus();
  }

  Status DecodeStringTable() {
    PayloadReader reader(payload_.data(), payload_.size());
    uint32_t first_id, count;
    if (!reader.ReadU32(first_id) || !reader.ReadU32(count)) {
      return base::InvalidDataError("string table header is cut short");
    }
    // first_id numbers string tables: a table already read is a copy, one that starts further on
    // follows a table that is missing. Either way the file was damaged, not written so.
    const uint64_t expected = string_map_.size();
    if (first_id < expected) {
      if (uint64_t{first_id} + count > expected) {
        return base::InvalidDataError("string table of ids {} to {} overlaps the ids {} to {} already read",
                                      first_id, uint64_t{first_id} + count - 1, 0, expected - 1);
      }
      sink_.stats().Increment(base::Stat::kAmptChunksDuplicated);
      return base::OkStatus();
    }
    if (first_id > expected) {
      // Strings the file cannot hold are damage, not loss: refuse rather than map billions of ids.
      // (A string takes at least its 4-byte length in a table.)
      if (first_id - expected > file_size_ / 4) {
        return base::InvalidDataError("string table starts at id {}, expected {}", first_id, expected);
      }
      sink_.stats().Increment(base::Stat::kAmptChunksMissing);
      string_map_.resize(first_id, sink_.strings().Intern(kLostString));
    }
    for (uint32_t i = 0; i < count; ++i) {
      std::string_view text;
      if (!reader.ReadString(text)) {
        return base::InvalidDataError("string {} of {} is cut short", i, count);
      }
      string_map_.push_back(InternCapped(sink_, text));
    }
    if (!reader.AtEnd()) return base::InvalidDataError("string table has trailing bytes");
    return base::OkStatus();
  }

  Status DecodeMetadata() {
    PayloadReader reader(payload_.data(), payload_.size());
    uint32_t count;
    if (!reader.ReadU32(count)) return base::InvalidDataError("metadata header is cut short");
    for (uint32_t i = 0; i < count; ++i) {
      std::string_view key, value;
      if (!reader.ReadString(key) || !reader.ReadString(value)) {
        return base::InvalidDataError("metadata entry {} of {} is cut short", i, count);
      }
      SetMetadataCapped(sink_, key, value);
    }
    return base::OkStatus();
  }

  // Stats chunks are cumulative snapshots written by the producer; only the last one counts.
  Status DecodeStats() {
    PayloadReader reader(payload_.data(), payload_.size());
    uint32_t count;
    if (!reader.ReadU32(count)) return base::InvalidDataError("stats header is cut short");
    std::vector<std::pair<std::string, int64_t>> snapshot;
    for (uint32_t i = 0; i < count; ++i) {
      std::string_view name;
      int64_t value;
      if (!reader.ReadString(name) || !reader.ReadI64(value)) {
        return base::InvalidDataError("stats entry {} of {} is cut short", i, count);
      }
      snapshot.emplace_back(std::string(name), value);
    }
    stats_snapshot_ = std::move(snapshot);
    return base::OkStatus();
  }

  void ApplyStatsSnapshot() {
    for (const auto& [name, value] : stats_snapshot_) {
      if (const auto stat = base::FindStat(name)) {
        sink_.stats().Increment(*stat, value);
      } else {
        sink_.stats().Increment(base::Stat::kAmptUnknownStats);
      }
    }
  }

  // Decodes the records in the first `available` bytes of payload_. With `salvage`, the payload was cut
  // short by the end of the file: keep the complete records, report nothing as corrupt.
  Status DecodeRecords(size_t available, uint32_t payload_crc, bool salvage) {
    if (available < ampt::kRecordsPayloadHeaderBytes) {
      return salvage ? base::OkStatus() : base::InvalidDataError("records header is cut short");
    }
    const uint16_t kind = ampt::GetU16(payload_.data());
    if (!sequenced_) {
      sink_.stats().Increment(base::Stat::kAmptChunksUnsequenced);
    } else if (sequence_.Next(ampt::GetU16(payload_.data() + 2), payload_crc) == ChunkSequence::kDuplicate) {
      return base::OkStatus();  // a copy of a chunk already read: its records are in already
    }
    const uint32_t record_size = ampt::GetU32(payload_.data() + 4);
    const uint32_t record_count = ampt::GetU32(payload_.data() + 8);
    const size_t body = available - ampt::kRecordsPayloadHeaderBytes;
    if (record_size == 0) return base::InvalidDataError("records of size 0");
    if (!salvage && static_cast<uint64_t>(record_size) * record_count != body) {
      return base::InvalidDataError("{} records of {} bytes do not fill {} bytes", record_count,
                                    record_size, body);
    }
    if (kind < 1 || kind > kRecordKindMax) {
      sink_.stats().Increment(base::Stat::kAmptUnknownChunks);
      return base::OkStatus();
    }
    // Also bounds memory: records can never be smaller than format 1.0 made them.
    if (record_size < ampt::kRecordBytesV1_0[kind]) {
      if (salvage) return base::OkStatus();
      return base::InvalidDataError("{} records of {} bytes, shorter than format 1.0's {} bytes",
                                    RecordKindName(static_cast<RecordKind>(kind)), record_size,
                                    ampt::kRecordBytesV1_0[kind]);
    }
    const size_t complete = std::min<size_t>(record_count, body / record_size);
    const uint8_t* records = payload_.data() + ampt::kRecordsPayloadHeaderBytes;
    switch (static_cast<RecordKind>(kind)) {
      case RecordKind::kDevice: return Emit<DeviceRecord>(records, record_size, complete, salvage);
      case RecordKind::kProcess: return Emit<ProcessRecord>(records, record_size, complete, salvage);
      case RecordKind::kThread: return Emit<ThreadRecord>(records, record_size, complete, salvage);
      case RecordKind::kKernel: return Emit<KernelRecord>(records, record_size, complete, salvage);
      case RecordKind::kApiCall: return Emit<ApiCallRecord>(records, record_size, complete, salvage);
      case RecordKind::kMemcpy: return Emit<MemcpyRecord>(records, record_size, complete, salvage);
      case RecordKind::kMemset: return Emit<MemsetRecord>(records, record_size, complete, salvage);
      case RecordKind::kSync: return Emit<SyncRecord>(records, record_size, complete, salvage);
      case RecordKind::kRange: return Emit<RangeRecord>(records, record_size, complete, salvage);
      case RecordKind::kMark: return Emit<MarkRecord>(records, record_size, complete, salvage);
      case RecordKind::kMemory: return Emit<MemoryRecord>(records, record_size, complete, salvage);
      case RecordKind::kOverhead: return Emit<OverheadRecord>(records, record_size, complete, salvage);
    }
    return base::OkStatus();
  }

  template <typename Record>
  Status Emit(const uint8_t* records, uint32_t record_size, size_t count, bool salvage) {
    Record record;
    for (size_t i = 0; i < count; ++i) {
      if (ampt::DecodeRecord(records + i * record_size, record_size, string_map_, record)) {
        sink_.Add(record);
      } else {
        sink_.stats().Increment(base::Stat::kAmptInvalidRecords);
      }
    }
    if (salvage) sink_.stats().Increment(base::Stat::kAmptSalvagedRecords, static_cast<int64_t>(count));
    return base::OkStatus();
  }

  void SalvageRecords(size_t available, uint32_t payload_crc) {
    static_cast<void>(DecodeRecords(available, payload_crc, /*salvage=*/true));
  }

  const File& file_;
  const uint64_t file_size_;
  RecordSink& sink_;
  std::vector<uint8_t> payload_;
  std::vector<StringId> string_map_;  // file string id -> sink string id
  std::vector<std::pair<std::string, int64_t>> stats_snapshot_;
  bool sequenced_ = false;  // format 1.1 or later: records chunks carry sequence numbers
  ChunkSequence sequence_;
};

}  // namespace

bool LooksLikeAmpt(std::span<const uint8_t> prefix) {
  return prefix.size() >= ampt::kMagic.size() &&
         std::equal(ampt::kMagic.begin(), ampt::kMagic.end(), prefix.begin());
}

Status ReadAmptFile(const std::string& path, RecordSink& sink) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int error = errno;
    if (error == ENOENT) return base::NotFoundError("{}: no such file", path);
    return base::IoError("{}: cannot open: {}", path, std::strerror(error));
  }
  File file(fd);
  struct stat info;
  if (::fstat(fd, &info) != 0) return base::IoError("{}: cannot stat: {}", path, std::strerror(errno));
  if (S_ISDIR(info.st_mode)) return base::InvalidArgumentError("{}: is a directory", path);
  AmptFileReader reader(file, static_cast<uint64_t>(info.st_size), sink);
  return reader.Read().WithContext(path);
}

}  // namespace ampprof::records
