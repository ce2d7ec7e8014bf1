#ifndef AMPPROF_COLLECTORS_RECORDS_AMPT_WRITER_H_
#define AMPPROF_COLLECTORS_RECORDS_AMPT_WRITER_H_

// AmptWriter: an append-only .ampt writer that is itself a RecordSink.
//
// Records are encoded into a pending buffer per record kind as they arrive; a buffer that reaches
// Options::chunk_bytes is written as one chunk with one write(2). New strings are written (as a string
// table chunk) before the first chunk that refers to them. So at every moment the file on disk is a
// readable trace: a process killed between chunks loses only what was pending, and one killed inside a
// write leaves a truncated last chunk that the reader salvages record by record.
//
//   ASSIGN_OR_RETURN(auto writer, AmptWriter::Create("trace.ampt", {}));
//   writer->SetMetadata("source", "ampprof-synth");
//   KernelRecord kernel; kernel.name = writer->strings().Intern("volta_sgemm_128x64_nn"); ...
//   writer->Add(kernel);
//   RETURN_IF_ERROR(writer->Close());
//
// After the first write error (disk full, file removed under us) the writer stops writing, keeps the
// error in status(), and counts every record it could not write in Stat::kCollectorWriteErrors. The
// file is cut back to its last whole chunk and, at every later Flush() and at Close(), ends with a
// stats snapshot holding that count, so the trace says what it lost (when the few hundred bytes it
// takes can still be written).
// Not thread-safe: one thread writes (the collector's writer thread, the generator, a test).

#include <array>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "collectors/records/ampt_format.h"
#include "collectors/records/record_sink.h"
#include "src/base/status.h"

namespace ampprof::records {

class AmptWriter final : public RecordSink {
 public:
  struct Options {
    size_t chunk_bytes = 256 * 1024;  // pending bytes of one record kind that trigger a chunk
    bool overwrite = false;           // replace an existing file instead of failing
  };

  // Creates the file and writes its header; when the header cannot be written (a full disk), the
  // file it created is removed again.
  static base::StatusOr<std::unique_ptr<AmptWriter>> Create(const std::string& path,
                                                            const Options& options);
  ~AmptWriter() override;  // closes; call Close() first to see its errors
  AmptWriter(const AmptWriter&) = delete;
  AmptWriter& operator=(const AmptWriter&) = delete;

  base::StringPool& strings() override { return strings_; }
  base::Stats& stats() override { return stats_; }
  void SetMetadata(std::string_view key, std::string_view value) override;

  void Add(const DeviceRecord& record) override { Append(record); }
  void Add(const ProcessRecord& record) override { Append(record); }
  void Add(const ThreadRecord& record) override { Append(record); }
  void Add(const KernelRecord& record) override { Append(record); }
  void Add(const ApiCallRecord& record) override { Append(record); }
  void Add(const MemcpyRecord& record) override { Append(record); }
  void Add(const MemsetRecord& record) override { Append(record); }
  void Add(const SyncRecord& record) override { Append(record); }
  void Add(const RangeRecord& record) override { Append(record); }
  void Add(const MarkRecord& record) override { Append(record); }
  void Add(const MemoryRecord& record) override { Append(record); }
  void Add(const OverheadRecord& record) override { Append(record); }

  // Writes everything pending (strings, metadata, records, a stats snapshot if stats changed).
  base::Status Flush();
  // Flush() and close the file. Further calls do nothing and return the same status.
  base::Status Close();

  const base::Status& status() const { return status_; }
  uint64_t bytes_written() const { return bytes_written_; }
  const std::string& path() const { return path_; }

 private:
  // Pending records of one kind. `bytes` starts with room for the chunk header and the records payload
  // header, filled in just before the chunk is written, so a chunk goes out in one write(2).
  struct PendingChunk {
    std::vector<uint8_t> bytes;
    uint32_t record_size = 0;
    uint32_t record_count = 0;
  };

  AmptWriter(int fd, std::string path, const Options& options);

  template <typename Record>
  void Append(const Record& record);
  void FlushRecords(RecordKind kind);
  void FlushStrings();
  void FlushMetadata();
  void FlushStats();
  std::vector<uint8_t> StatsChunk() const;  // a stats snapshot, its header not yet filled in
  void WriteLossReport();
  // Fills the chunk header at the front of `chunk` (whose payload follows it).
  static void SealChunk(ampt::ChunkKind kind, std::vector<uint8_t>& chunk);
  // Seals and appends a chunk; on failure, cuts the file back to its last whole chunk.
  void WriteChunk(ampt::ChunkKind kind, std::vector<uint8_t>& chunk);
  // Appends `size` bytes; false (status_ set) when the write fails, part of them possibly written.
  bool WriteAll(const uint8_t* data, size_t size);
  void DropPending(uint64_t records);

  int fd_ = -1;
  std::string path_;
  Options options_;
  base::Status status_;
  bool closed_ = false;
  uint64_t bytes_written_ = 0;  // the file header and every whole chunk: where the next chunk goes
  bool loss_report_possible_ = true;
  bool loss_report_written_ = false;

  base::StringPool strings_;
  uint32_t strings_written_ = 0;
  uint64_t records_chunks_written_ = 0;  // numbers the next records chunk (its low 16 bits)
  base::Stats stats_;
  base::Stats stats_written_;
  bool stats_snapshot_written_ = false;
  std::vector<std::pair<std::string, std::string>> pending_metadata_;
  std::array<PendingChunk, kRecordKindMax + 1> pending_{};
};

}  // namespace ampprof::records

#endif  // AMPPROF_COLLECTORS_RECORDS_AMPT_WRITER_H_
