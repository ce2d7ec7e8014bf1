#include "collectors/records/ampt_writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include "collectors/records/ampt_codec.h"
#include "collectors/records/string_cap.h"
#include "collectors/records/trace_file_lock.h"
#include "src/base/crc32c.h"

namespace ampprof::records {
namespace {

constexpr size_t kRecordChunkPrefix = ampt::kChunkHeaderBytes + ampt::kRecordsPayloadHeaderBytes;
// A string table is cut at chunk_bytes, and never lets a string (at most kMaxStringBytes, string_cap.h)
// take it past the reader's limit.
constexpr size_t kMaxStringTableBytes = ampt::kMaxChunkPayloadBytes - kMaxStringBytes - 8;

void AppendU32(std::vector<uint8_t>& out, uint32_t value) {
  const size_t at = out.size();
  out.resize(at + 4);
  ampt::PutU32(out.data() + at, value);
}

void AppendString(std::vector<uint8_t>& out, std::string_view text) {
  AppendU32(out, static_cast<uint32_t>(text.size()));
  out.insert(out.end(), text.begin(), text.end());
}

// A new trace as an unnamed file in the directory of `path` (O_TMPFILE), given its name by
// PublishUnnamed once it is locked and has its header: so the name never shows a trace that is not
// locked, or one without a header. -1 where the file system cannot (then the file is created by
// name).
int OpenUnnamed(const std::string& path) {
  const size_t slash = path.rfind('/');
  const std::string directory = slash == std::string::npos ? "."
                                : slash == 0               ? "/"
                                                           : path.substr(0, slash);
  return ::open(directory.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
}

// Links the unnamed file `fd` as `path`: 0, EEXIST (like O_EXCL) or another errno (no /proc, a file
// system that cannot), after which the caller creates the file by name instead.
int PublishUnnamed(int fd, const std::string& path) {
  const std::string self = "/proc/self/fd/" + std::to_string(fd);
  return ::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, path.c_str(), AT_SYMLINK_FOLLOW) == 0 ? 0
                                                                                          : errno;
}

}  // namespace

base::StatusOr<std::unique_ptr<AmptWriter>> AmptWriter::Create(const std::string& path,
                                                               const Options& options) {
  uint8_t header[ampt::kFileHeaderBytes] = {};
  std::memcpy(header, ampt::kMagic.data(), ampt::kMagic.size());
  ampt::PutU16(header + 8, ampt::kMajorVersion);
  ampt::PutU16(header + 10, ampt::kMinorVersion);

  if (const int unnamed = options.overwrite ? -1 : OpenUnnamed(path); unnamed >= 0) {
    LockTraceForWriting(unnamed);
    std::unique_ptr<AmptWriter> writer(new AmptWriter(unnamed, path, options));
    if (!writer->WriteAll(header, sizeof(header))) return writer->status_;  // nothing to remove
    const int error = PublishUnnamed(unnamed, path);
    if (error == 0) {
      writer->bytes_written_ = sizeof(header);
      return writer;
    }
    if (error == EEXIST)
      return base::InvalidArgumentError("{}: file exists (refusing to overwrite it)", path);
  }

  const int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (options.overwrite ? O_TRUNC : O_EXCL);
  const int fd = ::open(path.c_str(), flags, 0644);
  if (fd < 0) {
    if (errno == EEXIST) {
      return base::InvalidArgumentError("{}: file exists (refusing to overwrite it)", path);
    }
    return base::IoError("{}: cannot create: {}", path, std::strerror(errno));
  }
  // Named before it is locked: a reader may see it unlocked for an instant (trace_file_lock.h).
  LockTraceForWriting(fd);
  std::unique_ptr<AmptWriter> writer(new AmptWriter(fd, path, options));
  if (!writer->WriteAll(header, sizeof(header))) {
    // A file without its header reads as "empty" or "truncated", not as a trace: remove the one
    // this call created (a disk already full). An existing file given with `overwrite` may be a
    // device (/dev/full) and stays.
    if (!options.overwrite) ::unlink(path.c_str());
    return writer->status_;
  }
  writer->bytes_written_ = sizeof(header);
  return writer;
}

AmptWriter::AmptWriter(int fd, std::string path, const Options& options)
    : fd_(fd), path_(std::move(path)), options_(options) {}

AmptWriter::~AmptWriter() { static_cast<void>(Close()); }

void AmptWriter::SetMetadata(std::string_view key, std::string_view value) {
  std::string key_storage, value_storage;
  if (key.size() > kMaxStringBytes || value.size() > kMaxStringBytes) {
    stats_.Increment(base::Stat::kStringsTruncated);
  }
  pending_metadata_.emplace_back(std::string(CapString(key, key_storage)),
                                 std::string(CapString(value, value_storage)));
}

template <typename Record>
void AmptWriter::Append(const Record& record) {
  if (!status_.ok() || closed_) {
    stats_.Increment(base::Stat::kCollectorWriteErrors);
    return;
  }
  constexpr auto kKind = RecordTraits<Record>::kKind;
  PendingChunk& chunk = pending_[static_cast<size_t>(kKind)];
  if (chunk.bytes.empty()) {
    chunk.record_size = static_cast<uint32_t>(ampt::EncodedRecordBytes<Record>());
    chunk.bytes.reserve(options_.chunk_bytes + kRecordChunkPrefix + chunk.record_size);
    chunk.bytes.resize(kRecordChunkPrefix);
  }
  const size_t at = chunk.bytes.size();
  chunk.bytes.resize(at + chunk.record_size);
  ampt::EncodeRecord(record, chunk.bytes.data() + at);
  ++chunk.record_count;
  if (chunk.bytes.size() - kRecordChunkPrefix >= options_.chunk_bytes) FlushRecords(kKind);
}

// The Add() overrides in the header call Append inline from other translation units (the collector calls
// them on an AmptWriter&, devirtualised), so every instantiation must exist here out of line: at -O3 the
// implicit ones were all inlined and the injection library failed to link.
template void AmptWriter::Append(const DeviceRecord&);
template void AmptWriter::Append(const ProcessRecord&);
template void AmptWriter::Append(const ThreadRecord&);
template void AmptWriter::Append(const KernelRecord&);
template void AmptWriter::Append(const ApiCallRecord&);
template void AmptWriter::Append(const MemcpyRecord&);
template void AmptWriter::Append(const MemsetRecord&);
template void AmptWriter::Append(const SyncRecord&);
template void AmptWriter::Append(const RangeRecord&);
template void AmptWriter::Append(const MarkRecord&);
template void AmptWriter::Append(const MemoryRecord&);
template void AmptWriter::Append(const OverheadRecord&);

void AmptWriter::FlushRecords(RecordKind kind) {
  PendingChunk& chunk = pending_[static_cast<size_t>(kind)];
  if (chunk.record_count == 0) return;
  FlushStrings();  // the records may name strings interned since the last string table
  uint8_t* payload_header = chunk.bytes.data() + ampt::kChunkHeaderBytes;
  ampt::PutU16(payload_header, static_cast<uint16_t>(kind));
  // Inside the payload, so the checksum covers it and it travels with the chunk it numbers.
  ampt::PutU16(payload_header + 2, static_cast<uint16_t>(records_chunks_written_));
  ampt::PutU32(payload_header + 4, chunk.record_size);
  ampt::PutU32(payload_header + 8, chunk.record_count);
  const uint32_t records = chunk.record_count;
  if (status_.ok()) {
    WriteChunk(ampt::ChunkKind::kRecords, chunk.bytes);
    if (status_.ok()) {
      ++records_chunks_written_;
    } else {
      DropPending(records);
    }
  } else {
    DropPending(records);
  }
  chunk.bytes.clear();
  chunk.record_count = 0;
}

// New strings go out in tables of about chunk_bytes each: a single table of everything interned since
// the last flush could pass the reader's kMaxChunkPayloadBytes (a thousand 64 KiB template names do).
void AmptWriter::FlushStrings() {
  while (strings_written_ < strings_.size() && status_.ok()) {
    std::vector<uint8_t> chunk(ampt::kChunkHeaderBytes);
    AppendU32(chunk, strings_written_);
    AppendU32(chunk, 0);  // the count, known when the table is full
    const size_t table_bytes = std::min(options_.chunk_bytes, kMaxStringTableBytes);
    uint32_t end = strings_written_;
    std::string cut;
    while (end < strings_.size() && chunk.size() < table_bytes) {
      const std::string_view text = strings_.Get(base::StringId{end});
      // Names the collector interned whole are cut here, once, as every importer cuts them.
      if (text.size() > kMaxStringBytes) stats_.Increment(base::Stat::kStringsTruncated);
      AppendString(chunk, CapString(text, cut));
      ++end;
    }
    ampt::PutU32(chunk.data() + ampt::kChunkHeaderBytes + 4, end - strings_written_);
    WriteChunk(ampt::ChunkKind::kStringTable, chunk);
    if (status_.ok()) strings_written_ = end;
  }
}

// Like string tables, metadata goes out in chunks of about chunk_bytes, each under the reader's limit.
void AmptWriter::FlushMetadata() {
  const size_t chunk_limit = std::min(options_.chunk_bytes, kMaxStringTableBytes - kMaxStringBytes);
  size_t next = 0;
  while (next < pending_metadata_.size() && status_.ok()) {
    std::vector<uint8_t> chunk(ampt::kChunkHeaderBytes);
    AppendU32(chunk, 0);  // the count, known when the chunk is full
    size_t end = next;
    while (end < pending_metadata_.size() && chunk.size() < chunk_limit) {
      AppendString(chunk, pending_metadata_[end].first);
      AppendString(chunk, pending_metadata_[end].second);
      ++end;
    }
    ampt::PutU32(chunk.data() + ampt::kChunkHeaderBytes, static_cast<uint32_t>(end - next));
    WriteChunk(ampt::ChunkKind::kMetadata, chunk);
    next = end;
  }
  pending_metadata_.clear();
}

void AmptWriter::FlushStats() {
  if (!status_.ok() || (stats_snapshot_written_ && stats_ == stats_written_)) return;
  if (!stats_snapshot_written_ && stats_.NonZero().empty()) return;
  std::vector<uint8_t> chunk = StatsChunk();
  WriteChunk(ampt::ChunkKind::kStats, chunk);
  stats_written_ = stats_;
  stats_snapshot_written_ = true;
}

std::vector<uint8_t> AmptWriter::StatsChunk() const {
  const std::vector<base::StatEntry> entries = stats_.NonZero();
  std::vector<uint8_t> chunk(ampt::kChunkHeaderBytes);
  AppendU32(chunk, static_cast<uint32_t>(entries.size()));
  for (const base::StatEntry& entry : entries) {
    AppendString(chunk, entry.info->name);
    const size_t at = chunk.size();
    chunk.resize(at + 8);
    ampt::PutI64(chunk.data() + at, entry.value);
  }
  return chunk;
}

// After a failed write nothing more is appended, but the file still says what it lost: a stats
// snapshot after the last whole chunk, written over itself at every Flush() while the count of
// dropped records grows, so that a process killed later leaves its last count. It takes a few hundred
// bytes, which removing the cut-short chunk has usually freed; when even they cannot be written, the
// file ends at its last whole chunk and the loss is not counted in it.
void AmptWriter::WriteLossReport() {
  if (!loss_report_possible_ || (loss_report_written_ && stats_ == stats_written_)) return;
  std::vector<uint8_t> chunk = StatsChunk();
  SealChunk(ampt::ChunkKind::kStats, chunk);
  ssize_t written;
  do {
    written = ::pwrite(fd_, chunk.data(), chunk.size(), static_cast<off_t>(bytes_written_));
  } while (written < 0 && errno == EINTR);
  if (written == static_cast<ssize_t>(chunk.size())) {
    stats_written_ = stats_;
    loss_report_written_ = true;
    return;
  }
  // Cut short, over the previous report too: remove it rather than leave a torn chunk, and stop.
  static_cast<void>(::ftruncate(fd_, static_cast<off_t>(bytes_written_)));
  loss_report_possible_ = false;
}

void AmptWriter::SealChunk(ampt::ChunkKind kind, std::vector<uint8_t>& chunk) {
  const size_t payload_bytes = chunk.size() - ampt::kChunkHeaderBytes;
  uint8_t* header = chunk.data();
  ampt::PutU32(header, static_cast<uint32_t>(kind));
  ampt::PutU32(header + 4, static_cast<uint32_t>(payload_bytes));
  ampt::PutU32(header + 8, base::Crc32c(chunk.data() + ampt::kChunkHeaderBytes, payload_bytes));
  ampt::PutU32(header + 12, base::Crc32c(header, 12));
}

void AmptWriter::WriteChunk(ampt::ChunkKind kind, std::vector<uint8_t>& chunk) {
  SealChunk(kind, chunk);
  if (WriteAll(chunk.data(), chunk.size())) {
    bytes_written_ += chunk.size();
    return;
  }
  // Part of the chunk may be on disk. Cut the file back to its last whole chunk, so that the loss
  // report can follow it (anything appended after a torn chunk would read as its payload); where the
  // file cannot be cut, it keeps the torn chunk, which the reader salvages as a truncated tail.
  loss_report_possible_ = ::ftruncate(fd_, static_cast<off_t>(bytes_written_)) == 0;
}

bool AmptWriter::WriteAll(const uint8_t* data, size_t size) {
  while (size > 0) {
    const ssize_t written = ::write(fd_, data, size);
    if (written < 0) {
      if (errno == EINTR) continue;
      status_ = base::IoError("{}: write failed: {}", path_, std::strerror(errno));
      return false;
    }
    data += written;
    size -= static_cast<size_t>(written);
  }
  return true;
}

void AmptWriter::DropPending(uint64_t records) {
  stats_.Increment(base::Stat::kCollectorWriteErrors, static_cast<int64_t>(records));
}

base::Status AmptWriter::Flush() {
  if (closed_) return status_;
  FlushMetadata();
  for (uint8_t kind = 1; kind <= kRecordKindMax; ++kind) FlushRecords(static_cast<RecordKind>(kind));
  FlushStrings();  // strings interned by records that were never added still belong in the file
  FlushStats();
  if (!status_.ok()) WriteLossReport();
  return status_;
}

base::Status AmptWriter::Close() {
  if (closed_) return status_;
  static_cast<void>(Flush());
  closed_ = true;
  if (::close(fd_) != 0 && status_.ok()) {
    status_ = base::IoError("{}: close failed: {}", path_, std::strerror(errno));
  }
  fd_ = -1;
  return status_;
}

}  // namespace ampprof::records
