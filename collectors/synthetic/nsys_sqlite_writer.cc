#include "collectors/synthetic/nsys_sqlite_writer.h"

#include <sqlite3.h>

#include <cstdio>

namespace ampprof::synthetic {
namespace {

constexpr int64_t kNvtxPushPopRange = 59;
constexpr int64_t kNvtxDomainCreate = 75;

void BindText(sqlite3_stmt* statement, int index, std::string_view text) {
  // An empty view may have a null data(), which SQLite would bind as NULL rather than "".
  sqlite3_bind_text(statement, index, text.empty() ? "" : text.data(), static_cast<int>(text.size()),
                    SQLITE_TRANSIENT);
}

int64_t GlobalPid(uint32_t pid) { return static_cast<int64_t>(pid) << 24; }
int64_t GlobalTid(uint32_t pid, uint32_t tid) { return GlobalPid(pid) + tid; }

// CUPTI's enum values, which nsys stores as they are.
int64_t CuptiMemcpyKind(records::MemcpyKind kind) {
  switch (kind) {
    case records::MemcpyKind::kHostToDevice: return 1;
    case records::MemcpyKind::kDeviceToHost: return 2;
    case records::MemcpyKind::kDeviceToDevice: return 8;
    case records::MemcpyKind::kHostToHost: return 9;
    case records::MemcpyKind::kPeerToPeer: return 10;
    case records::MemcpyKind::kUnknown: break;
  }
  return 0;
}

int64_t CuptiMemoryKind(records::MemoryKind kind) {
  switch (kind) {
    case records::MemoryKind::kPageable: return 1;
    case records::MemoryKind::kPinned: return 2;
    case records::MemoryKind::kDevice: return 3;
    case records::MemoryKind::kArray: return 4;
    case records::MemoryKind::kManaged: return 5;
    case records::MemoryKind::kUnknown: break;
  }
  return 0;
}

int64_t CuptiSyncType(records::SyncKind kind) {
  switch (kind) {
    case records::SyncKind::kEventSynchronize: return 1;
    case records::SyncKind::kStreamWaitEvent: return 2;
    case records::SyncKind::kStreamSynchronize: return 3;
    case records::SyncKind::kContextSynchronize: return 4;
    case records::SyncKind::kUnknown: break;
  }
  return 0;
}

constexpr const char* kSchema = R"sql(
PRAGMA journal_mode = OFF;
PRAGMA synchronous = OFF;
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE TARGET_INFO_GPU (vmId INTEGER, id INTEGER, name TEXT, totalMemory INTEGER, smCount INTEGER,
  computeMajor INTEGER, computeMinor INTEGER, uuid TEXT, clockRate INTEGER);
CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT);
CREATE TABLE ThreadNames (nameId INTEGER, priority INTEGER, globalTid INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER,
  streamId INTEGER, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER, shortName INTEGER,
  gridX INTEGER, gridY INTEGER, gridZ INTEGER, blockX INTEGER, blockY INTEGER, blockZ INTEGER,
  registersPerThread INTEGER, staticSharedMemory INTEGER, dynamicSharedMemory INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER, eventClass INTEGER, globalTid INTEGER,
  correlationId INTEGER, nameId INTEGER, returnValue INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER,
  streamId INTEGER, correlationId INTEGER, globalPid INTEGER, bytes INTEGER, copyKind INTEGER,
  srcKind INTEGER, dstKind INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER,
  streamId INTEGER, correlationId INTEGER, globalPid INTEGER, value INTEGER, bytes INTEGER, memKind INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start INTEGER, end INTEGER, deviceId INTEGER,
  contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER, syncType INTEGER,
  eventId INTEGER);
CREATE TABLE NVTX_EVENTS (start INTEGER, end INTEGER, eventType INTEGER, rangeId INTEGER, text TEXT,
  globalTid INTEGER, textId INTEGER, domainId INTEGER);
BEGIN;
)sql";

constexpr const char* kInserts[] = {
    "INSERT INTO TARGET_INFO_GPU VALUES (0, ?, ?, ?, ?, ?, ?, ?, ?)",
    "INSERT INTO PROCESSES VALUES (?, ?, ?)",
    "INSERT INTO ThreadNames VALUES (?, ?, ?)",
    "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (?, ?, ?, ?, ?, ?, ?)",
    "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    ("INSERT INTO NVTX_EVENTS (start, end, eventType, rangeId, text, globalTid, textId, domainId) "
     "VALUES (?, ?, ?, NULL, NULL, ?, ?, ?)"),
    "INSERT INTO StringIds VALUES (?, ?)",
};
static_assert(std::size(kInserts) == 10);

}  // namespace

base::StatusOr<std::unique_ptr<NsysSqliteWriter>> NsysSqliteWriter::Create(const std::string& path) {
  std::remove(path.c_str());  // a fresh database, not rows added to an old one
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
    const std::string message = db != nullptr ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    return base::IoError("{}: cannot create: {}", path, message);
  }
  std::unique_ptr<NsysSqliteWriter> writer(new NsysSqliteWriter(db, path));
  RETURN_IF_ERROR(writer->Prepare());
  return writer;
}

NsysSqliteWriter::NsysSqliteWriter(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}

NsysSqliteWriter::~NsysSqliteWriter() {
  if (db_ != nullptr) static_cast<void>(Close());
}

base::Status NsysSqliteWriter::Prepare() {
  char* error = nullptr;
  if (sqlite3_exec(db_, kSchema, nullptr, nullptr, &error) != SQLITE_OK) {
    const std::string message = error != nullptr ? error : "unknown error";
    sqlite3_free(error);
    return base::IoError("{}: cannot create the tables: {}", path_, message);
  }
  for (int i = 0; i < kStatementCount; ++i) {
    if (sqlite3_prepare_v2(db_, kInserts[i], -1, &statements_[i], nullptr) != SQLITE_OK) {
      return base::InternalError("{}: {}", path_, sqlite3_errmsg(db_));
    }
  }
  return base::OkStatus();
}

void NsysSqliteWriter::NoteError() {
  if (status_.ok()) status_ = base::IoError("{}: {}", path_, sqlite3_errmsg(db_));
}

void NsysSqliteWriter::Insert(Statement statement, std::initializer_list<int64_t> values) {
  if (!status_.ok()) return;
  sqlite3_stmt* insert = statements_[statement];
  int index = 1;
  for (const int64_t value : values) {
    if (value < 0) {
      sqlite3_bind_null(insert, index++);
    } else {
      sqlite3_bind_int64(insert, index++, value);
    }
  }
  Step(insert);
}

void NsysSqliteWriter::Step(sqlite3_stmt* statement) {
  if (sqlite3_step(statement) != SQLITE_DONE) NoteError();
  sqlite3_reset(statement);
}

void NsysSqliteWriter::Add(const records::DeviceRecord& record) {
  if (!status_.ok()) return;
  sqlite3_stmt* insert = statements_[kDevice];
  sqlite3_bind_int64(insert, 1, record.device_id);
  BindText(insert, 2, strings_.Get(record.name));
  sqlite3_bind_int64(insert, 3, static_cast<int64_t>(record.global_memory_bytes));
  sqlite3_bind_int64(insert, 4, record.sm_count);
  sqlite3_bind_int64(insert, 5, record.compute_major);
  sqlite3_bind_int64(insert, 6, record.compute_minor);
  BindText(insert, 7, strings_.Get(record.uuid));
  sqlite3_bind_int64(insert, 8, static_cast<int64_t>(record.core_clock_khz) * 1000);
  Step(insert);
}

void NsysSqliteWriter::Add(const records::ProcessRecord& record) {
  if (!status_.ok()) return;
  sqlite3_stmt* insert = statements_[kProcess];
  sqlite3_bind_int64(insert, 1, GlobalPid(record.pid));
  sqlite3_bind_int64(insert, 2, record.pid);
  BindText(insert, 3, strings_.Get(record.command));
  Step(insert);
}

void NsysSqliteWriter::Add(const records::ThreadRecord& record) {
  Insert(kThread, {record.name.value, 10, GlobalTid(record.pid, record.tid)});
}

void NsysSqliteWriter::Add(const records::KernelRecord& record) {
  Insert(kKernel, {record.start, record.end, record.device_id, record.context_id, record.stream_id,
                   record.correlation_id, GlobalPid(record.pid), record.name.value, record.name.value,
                   record.grid_x, record.grid_y, record.grid_z, record.block_x, record.block_y, record.block_z,
                   record.registers_per_thread, record.static_shared_bytes, record.dynamic_shared_bytes});
}

void NsysSqliteWriter::Add(const records::ApiCallRecord& record) {
  Insert(kRuntime, {record.start, record.end, 0, GlobalTid(record.pid, record.tid), record.correlation_id,
                    record.name.value, record.return_code < 0 ? 0 : record.return_code});
}

void NsysSqliteWriter::Add(const records::MemcpyRecord& record) {
  Insert(kMemcpy, {record.start, record.end, record.device_id, record.context_id, record.stream_id,
                   record.correlation_id, GlobalPid(record.pid), static_cast<int64_t>(record.bytes),
                   CuptiMemcpyKind(record.kind), CuptiMemoryKind(record.src_kind),
                   CuptiMemoryKind(record.dst_kind)});
}

void NsysSqliteWriter::Add(const records::MemsetRecord& record) {
  Insert(kMemset, {record.start, record.end, record.device_id, record.context_id, record.stream_id,
                   record.correlation_id, GlobalPid(record.pid), record.value, static_cast<int64_t>(record.bytes),
                   CuptiMemoryKind(record.memory_kind)});
}

void NsysSqliteWriter::Add(const records::SyncRecord& record) {
  Insert(kSync, {record.start, record.end, record.device_id, record.context_id, record.stream_id,
                 record.correlation_id, GlobalPid(record.pid), CuptiSyncType(record.kind), record.event_id});
}

// nsys records a domain once (eventType 75, its name in `text`) and then refers to it by domainId.
int64_t NsysSqliteWriter::DomainId(base::StringId domain) {
  if (strings_.Get(domain).empty()) return 0;
  const auto [it, inserted] = domain_ids_.try_emplace(domain.value, static_cast<int64_t>(domain_ids_.size()) + 1);
  if (inserted && status_.ok()) {
    const std::string sql = "INSERT INTO NVTX_EVENTS (start, eventType, text, domainId) VALUES (0, 75, ?, ?)";
    static_assert(kNvtxDomainCreate == 75);
    sqlite3_stmt* insert = nullptr;
    const std::string_view name = strings_.Get(domain);
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &insert, nullptr) != SQLITE_OK) {
      NoteError();
    } else {
      sqlite3_bind_text(insert, 1, name.data(), static_cast<int>(name.size()), SQLITE_TRANSIENT);
      sqlite3_bind_int64(insert, 2, it->second);
      if (sqlite3_step(insert) != SQLITE_DONE) NoteError();
    }
    sqlite3_finalize(insert);
  }
  return it->second;
}

void NsysSqliteWriter::Add(const records::RangeRecord& record) {
  Insert(kNvtx, {record.start, record.end, kNvtxPushPopRange, GlobalTid(record.pid, record.tid),
                 record.name.value, DomainId(record.domain)});
}

void NsysSqliteWriter::Add(const records::MarkRecord& record) {
  if (const std::optional<records::RangeRecord> range = marks_.Add(record)) Add(*range);
}

base::Status NsysSqliteWriter::Close() {
  if (db_ == nullptr) return status_;
  // Every string the records named, by the ids they were given.
  sqlite3_stmt* insert = statements_[kString];
  for (uint32_t id = 0; id < strings_.size() && status_.ok(); ++id) {
    sqlite3_bind_int64(insert, 1, id);
    BindText(insert, 2, strings_.Get(base::StringId{id}));
    Step(insert);
  }
  for (sqlite3_stmt*& statement : statements_) {
    sqlite3_finalize(statement);
    statement = nullptr;
  }
  if (status_.ok() && sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr) != SQLITE_OK) NoteError();
  if (sqlite3_close(db_) != SQLITE_OK && status_.ok()) status_ = base::IoError("{}: cannot close", path_);
  db_ = nullptr;
  return status_;
}

}  // namespace ampprof::synthetic
