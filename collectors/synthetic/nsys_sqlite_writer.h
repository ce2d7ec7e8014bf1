#ifndef AMPPROF_COLLECTORS_SYNTHETIC_NSYS_SQLITE_WRITER_H_
#define AMPPROF_COLLECTORS_SYNTHETIC_NSYS_SQLITE_WRITER_H_

// Writes records as an Nsight Systems SQLite export (`nsys export --type sqlite`), in the tables and
// columns of the 2024-2025 schema that the shared fixtures use: StringIds, TARGET_INFO_GPU, PROCESSES,
// ThreadNames, CUPTI_ACTIVITY_KIND_{KERNEL,RUNTIME,MEMCPY,MEMSET,SYNCHRONIZATION} and NVTX_EVENTS (push/pop
// ranges, 59, and their domains, 75). Threads and processes are packed into globalTid/globalPid as nsys
// packs them. For benchmarks: the same synthetic trace as the .ampt and Kineto ones (bench/run).
//
//   ASSIGN_OR_RETURN(auto writer, NsysSqliteWriter::Create("trace.sqlite"));
//   RETURN_IF_ERROR(GenerateSyntheticTrace(options, *writer));
//   RETURN_IF_ERROR(writer->Close());
//
// Memory and overhead records and metadata are left out. Driver calls go to the runtime table (the
// importer reads one API table).

#include <memory>
#include <string>
#include <unordered_map>

#include "collectors/records/record_sink.h"
#include "collectors/synthetic/mark_ranges.h"
#include "src/base/status.h"

struct sqlite3;
struct sqlite3_stmt;

namespace ampprof::synthetic {

class NsysSqliteWriter final : public records::RecordSink {
 public:
  static base::StatusOr<std::unique_ptr<NsysSqliteWriter>> Create(const std::string& path);
  ~NsysSqliteWriter() override;
  NsysSqliteWriter(const NsysSqliteWriter&) = delete;
  NsysSqliteWriter& operator=(const NsysSqliteWriter&) = delete;

  base::StringPool& strings() override { return strings_; }
  base::Stats& stats() override { return stats_; }
  void SetMetadata(std::string_view, std::string_view) override {}

  void Add(const records::DeviceRecord& record) override;
  void Add(const records::ProcessRecord& record) override;
  void Add(const records::ThreadRecord& record) override;
  void Add(const records::KernelRecord& record) override;
  void Add(const records::ApiCallRecord& record) override;
  void Add(const records::MemcpyRecord& record) override;
  void Add(const records::MemsetRecord& record) override;
  void Add(const records::SyncRecord& record) override;
  void Add(const records::RangeRecord& record) override;
  void Add(const records::MarkRecord& record) override;
  void Add(const records::MemoryRecord&) override {}
  void Add(const records::OverheadRecord&) override {}

  // Writes the string table, commits and closes; the first SQLite error, if any.
  base::Status Close();

 private:
  enum Statement : int {
    kDevice,
    kProcess,
    kThread,
    kKernel,
    kRuntime,
    kMemcpy,
    kMemset,
    kSync,
    kNvtx,
    kString,
    kStatementCount,
  };

  NsysSqliteWriter(sqlite3* db, std::string path);
  base::Status Prepare();
  // Binds `values` (integers; a negative one is NULL) to a statement and runs it.
  void Insert(Statement statement, std::initializer_list<int64_t> values);
  void Step(sqlite3_stmt* statement);  // runs a bound statement, then resets it for the next row
  void NoteError();
  int64_t DomainId(base::StringId domain);

  sqlite3* db_;
  std::string path_;
  sqlite3_stmt* statements_[kStatementCount] = {};
  base::Status status_;
  base::StringPool strings_;
  base::Stats stats_;
  MarkRangePairer marks_;
  std::unordered_map<uint32_t, int64_t> domain_ids_;  // StringId -> NVTX domainId
};

}  // namespace ampprof::synthetic

#endif  // AMPPROF_COLLECTORS_SYNTHETIC_NSYS_SQLITE_WRITER_H_
