#include "collectors/nsys/nsys_importer.h"

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "collectors/nsys/nsys_strings.h"
#include "collectors/nsys/sqlite_database.h"
#include "collectors/records/string_cap.h"

namespace ampprof::nsys {
namespace {

using records::MemcpyKind;
using records::MemoryKind;

// Nsight Systems packs a process into globalPid and a thread into globalTid: the pid sits in bits
// 24-47, the tid in bits 0-23 (the high bits name the host/VM).
uint32_t PidOf(int64_t global_id) { return static_cast<uint32_t>((global_id >> 24) & 0xFFFFFF); }
uint32_t TidOf(int64_t global_id) { return static_cast<uint32_t>(global_id & 0xFFFFFF); }

uint32_t U32(int64_t value) {
  return value < 0 || value > UINT32_MAX ? 0 : static_cast<uint32_t>(value);
}

// ENUM_CUDA_MEMCPY_OPER: arrays and unified memory are folded into the host/device direction.
MemcpyKind CopyKindOf(int64_t kind) {
  switch (kind) {
    case 1: case 3: case 11: return MemcpyKind::kHostToDevice;  // HtoD, HtoA, UVM HtoD
    case 2: case 4: case 12: return MemcpyKind::kDeviceToHost;  // DtoH, AtoH, UVM DtoH
    case 5: case 6: case 7: case 8: case 13: return MemcpyKind::kDeviceToDevice;
    case 9: return MemcpyKind::kHostToHost;
    case 10: return MemcpyKind::kPeerToPeer;
    default: return MemcpyKind::kUnknown;
  }
}

// ENUM_CUDA_MEM_KIND.
MemoryKind MemoryKindOf(std::optional<int64_t> kind) {
  switch (kind.value_or(-1)) {
    case 0: return MemoryKind::kPageable;
    case 1: return MemoryKind::kPinned;
    case 2: case 5: return MemoryKind::kDevice;  // device, device static
    case 3: return MemoryKind::kArray;
    case 4: case 6: return MemoryKind::kManaged;
    default: return MemoryKind::kUnknown;
  }
}

// ENUM_CUPTI_SYNC_TYPE has CUPTI's numbering, which records::SyncKind follows.
records::SyncKind SyncKindOf(int64_t type) {
  return type >= 1 && type <= 4 ? static_cast<records::SyncKind>(type) : records::SyncKind::kUnknown;
}

// "cudaLaunchKernel_v7000" -> "cudaLaunchKernel": the suffix is the API version, not the function.
std::string_view WithoutVersionSuffix(std::string_view name) {
  const size_t at = name.rfind("_v");
  if (at == std::string_view::npos || at + 2 == name.size()) return name;
  for (size_t i = at + 2; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return name;
  }
  return name.substr(0, at);
}

// The first seven columns of every GPU activity query below, in this order; the records name them alike.
#define AMPPROF_GPU_ACTIVITY_COLUMNS                                                              \
  Required("start"), Required("end"), Required("deviceId"), Optional("contextId"), Required("streamId"), \
      Optional("correlationId"), Optional("globalPid")

template <typename Record>
void ReadGpuActivity(const SqliteRow& row, Record& record) {
  record.start = row.RequiredInt(0);
  record.end = row.RequiredInt(1);
  record.device_id = U32(row.RequiredInt(2));
  record.context_id = U32(row.Int(3));
  record.stream_id = U32(row.RequiredInt(4));
  record.correlation_id = U32(row.Int(5));
  record.pid = PidOf(row.Int(6));
}

constexpr ColumnType kText = ColumnType::kText;

// ENUM_NSYS_EVENT_TYPE values for NVTX.
constexpr int64_t kNvtxMark = 34;
constexpr int64_t kNvtxThreadName = 39;
constexpr int64_t kNvtxPushPopRange = 59;
constexpr int64_t kNvtxStartEndRange = 60;
constexpr int64_t kNvtxDomainCreate = 75;

class Importer {
 public:
  Importer(const SqliteDatabase& db, records::RecordSink& sink) : db_(db), sink_(sink) {}

  base::Status Run() {
    ASSIGN_OR_RETURN(strings_, NsysStrings::Open(db_, sink_));
    for (base::Status (Importer::*read)() :
         {&Importer::ReadDevices, &Importer::ReadKernels, &Importer::ReadApiCalls, &Importer::ReadCopies,
          &Importer::ReadMemsets, &Importer::ReadSyncs, &Importer::ReadNvtx, &Importer::ReadMemory,
          &Importer::ReadOverhead, &Importer::ReadProcessesAndThreads}) {
      RETURN_IF_ERROR((this->*read)());
      RETURN_IF_ERROR(strings_->status());
    }
    sink_.SetMetadata("source", "Nsight Systems SQLite export");
    return base::OkStatus();
  }

 private:
  base::StringId StringOf(std::optional<int64_t> id) { return strings_->Get(id); }
  base::StringId Text(std::string_view text) { return records::InternCapped(sink_, text); }

  // False, with the row counted, when a value had the wrong type or a required one was NULL.
  bool Accept(const SqliteRow& row) {
    if (row.valid()) return true;
    sink_.stats().Increment(base::Stat::kNsysInvalidRows);
    return false;
  }

  void NotePid(uint32_t pid) { pids_.insert(pid); }

  base::Status ReadDevices() {
    return db_.ForEachRow(
        "TARGET_INFO_GPU",
        {Required("id"), Optional("name", kText), Optional("totalMemory"), Optional("smCount"),
         Optional("computeMajor"), Optional("computeMinor"), Optional("uuid", kText), Optional("clockRate")},
        [&](const SqliteRow& row) {
          records::DeviceRecord device;
          device.device_id = U32(row.RequiredInt(0));
          const std::string_view name = row.Text(1);
          device.global_memory_bytes = static_cast<uint64_t>(std::max<int64_t>(row.Int(2), 0));
          device.sm_count = U32(row.Int(3));
          device.compute_major = U32(row.Int(4));
          device.compute_minor = U32(row.Int(5));
          const std::string_view uuid = row.Text(6);
          device.core_clock_khz = U32(row.Int(7) / 1000);  // clockRate is in Hz
          if (!Accept(row)) return;
          device.name = Text(name);
          device.uuid = Text(uuid);
          sink_.Add(device);  // pid 0: the device as every traced process saw it
        });
  }

  base::Status ReadKernels() {
    return db_.ForEachRow(
        "CUPTI_ACTIVITY_KIND_KERNEL",
        {AMPPROF_GPU_ACTIVITY_COLUMNS, Optional("demangledName"), Required("shortName"), Optional("gridX"),
         Optional("gridY"), Optional("gridZ"), Optional("blockX"), Optional("blockY"), Optional("blockZ"),
         Optional("registersPerThread"), Optional("staticSharedMemory"), Optional("dynamicSharedMemory"),
         Optional("graphNodeId")},
        [&](const SqliteRow& row) {
          records::KernelRecord kernel;
          ReadGpuActivity(row, kernel);
          std::optional<int64_t> name = row.MaybeInt(7);
          if (!name) name = row.RequiredInt(8);
          kernel.grid_x = U32(row.Int(9));
          kernel.grid_y = U32(row.Int(10));
          kernel.grid_z = U32(row.Int(11));
          kernel.block_x = U32(row.Int(12));
          kernel.block_y = U32(row.Int(13));
          kernel.block_z = U32(row.Int(14));
          kernel.registers_per_thread = U32(row.Int(15));
          kernel.static_shared_bytes = U32(row.Int(16));
          kernel.dynamic_shared_bytes = U32(row.Int(17));
          kernel.graph_node_id = static_cast<uint64_t>(std::max<int64_t>(row.Int(18), 0));
          if (!Accept(row)) return;
          kernel.name = StringOf(name);
          NotePid(kernel.pid);
          sink_.Add(kernel);
        });
  }

  base::Status ReadApiCalls() {
    struct CleanName {
      base::StringId name;  // without "_v7000"
      bool missing = false;
    };
    std::unordered_map<int64_t, CleanName> clean_names;  // by nameId
    return db_.ForEachRow(
        "CUPTI_ACTIVITY_KIND_RUNTIME",
        {Required("start"), Required("end"), Optional("globalTid"), Optional("correlationId"), Required("nameId"),
         Optional("returnValue")},
        [&](const SqliteRow& row) {
          records::ApiCallRecord call;
          call.start = row.RequiredInt(0);
          call.end = row.RequiredInt(1);
          const int64_t thread = row.Int(2);
          call.pid = PidOf(thread);
          call.tid = TidOf(thread);
          call.correlation_id = U32(row.Int(3));
          const int64_t name_id = row.RequiredInt(4);
          call.return_code = static_cast<int32_t>(row.Int(5));
          if (!Accept(row)) return;
          auto [it, inserted] = clean_names.try_emplace(name_id);
          if (inserted) {
            const base::StringId raw = StringOf(name_id);
            it->second = {sink_.strings().Intern(WithoutVersionSuffix(sink_.strings().Get(raw))),
                          strings_->last_missing()};
          } else if (it->second.missing) {
            sink_.stats().Increment(base::Stat::kNsysMissingStrings);  // counted at every reference
          }
          call.name = it->second.name;
          // Nsight Systems writes driver calls (cuModuleGetLoadingMode, ...) into the same table.
          const std::string_view name = sink_.strings().Get(call.name);
          call.domain = name.rfind("cuda", 0) == 0 || name.rfind("cu", 0) != 0 ? records::ApiDomain::kRuntime
                                                                                  : records::ApiDomain::kDriver;
          NotePid(call.pid);
          sink_.Add(call);
        });
  }

  base::Status ReadCopies() {
    return db_.ForEachRow(
        "CUPTI_ACTIVITY_KIND_MEMCPY",
        {AMPPROF_GPU_ACTIVITY_COLUMNS, Required("bytes"), Required("copyKind"), Optional("srcKind"),
         Optional("dstKind"), Optional("dstDeviceId")},
        [&](const SqliteRow& row) {
          records::MemcpyRecord copy;
          ReadGpuActivity(row, copy);
          copy.bytes = static_cast<uint64_t>(std::max<int64_t>(row.RequiredInt(7), 0));
          copy.kind = CopyKindOf(row.RequiredInt(8));
          copy.src_kind = MemoryKindOf(row.MaybeInt(9));
          copy.dst_kind = MemoryKindOf(row.MaybeInt(10));
          copy.peer_device_id = U32(row.Int(11));
          if (Accept(row)) sink_.Add(copy);
        });
  }

  base::Status ReadMemsets() {
    return db_.ForEachRow(
        "CUPTI_ACTIVITY_KIND_MEMSET",
        {AMPPROF_GPU_ACTIVITY_COLUMNS, Optional("value"), Required("bytes"), Optional("memKind")},
        [&](const SqliteRow& row) {
          records::MemsetRecord memset;
          ReadGpuActivity(row, memset);
          memset.value = U32(row.Int(7));
          memset.bytes = static_cast<uint64_t>(std::max<int64_t>(row.RequiredInt(8), 0));
          memset.memory_kind = MemoryKindOf(row.MaybeInt(9));
          if (Accept(row)) sink_.Add(memset);
        });
  }

  base::Status ReadSyncs() {
    return db_.ForEachRow(
        "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
        {Required("start"), Required("end"), Optional("deviceId"), Optional("contextId"), Optional("streamId"),
         Optional("correlationId"), Optional("globalPid"), Required("syncType"), Optional("eventId")},
        [&](const SqliteRow& row) {
          records::SyncRecord sync;
          sync.start = row.RequiredInt(0);
          sync.end = row.RequiredInt(1);
          sync.device_id = U32(row.Int(2));
          sync.context_id = U32(row.Int(3));
          sync.stream_id = U32(row.Int(4));
          sync.correlation_id = U32(row.Int(5));
          sync.pid = PidOf(row.Int(6));
          sync.kind = SyncKindOf(row.RequiredInt(7));
          sync.event_id = U32(row.Int(8));  // 0xFFFFFFFF means none; U32 keeps it, harmless
          if (Accept(row)) sink_.Add(sync);
        });
  }

  base::Status ReadNvtx() {
    // Domain names first: ranges refer to their domain by id.
    std::unordered_map<int64_t, base::StringId> domains;
    RETURN_IF_ERROR(db_.ForEachRow(
        "NVTX_EVENTS", {Optional("domainId"), Optional("text", kText), Optional("textId")},
        [&](const SqliteRow& row) {
          const int64_t domain = row.Int(0);
          const std::string_view text = row.Text(1);
          const std::optional<int64_t> text_id = row.MaybeInt(2);
          if (!Accept(row)) return;
          domains[domain] = row.IsNull(1) ? StringOf(text_id) : Text(text);
        },
        fmt::format("eventType = {}", kNvtxDomainCreate)));
    uint64_t next_open_range = 1;
    return db_.ForEachRow(
        "NVTX_EVENTS",
        {Required("start"), Optional("end"), Required("eventType"), Optional("text", kText), Optional("textId"),
         Optional("globalTid"), Optional("domainId")},
        [&](const SqliteRow& row) {
          const int64_t start = row.RequiredInt(0);
          const std::optional<int64_t> end = row.MaybeInt(1);
          const int64_t type = row.RequiredInt(2);
          const std::string_view text_value = row.Text(3);
          const std::optional<int64_t> text_id = row.MaybeInt(4);
          const int64_t thread = row.Int(5);
          const int64_t domain_id = row.Int(6);
          if (!Accept(row)) return;
          if (type != kNvtxThreadName && type != kNvtxMark && type != kNvtxPushPopRange &&
              type != kNvtxStartEndRange) {
            return;
          }
          const base::StringId text = row.IsNull(3) ? StringOf(text_id) : Text(text_value);
          const uint32_t pid = PidOf(thread);
          const uint32_t tid = TidOf(thread);
          const auto domain = domains.find(domain_id);
          const base::StringId domain_name = domain == domains.end() ? base::kEmptyStringId : domain->second;
          if (type == kNvtxThreadName) {
            sink_.Add(records::ThreadRecord{pid, tid, text});
          } else if (type == kNvtxMark) {
            records::MarkRecord mark;
            mark.timestamp = start;
            mark.pid = pid;
            mark.tid = tid;
            mark.domain = domain_name;
            mark.name = text;
            sink_.Add(mark);
          } else if (!end) {
            // Still open when the capture stopped: a start without an end; the model closes it.
            records::MarkRecord open;
            open.kind = records::MarkKind::kRangeStart;
            open.timestamp = start;
            open.pid = pid;
            open.tid = tid;
            open.range_id = (uint64_t{1} << 63) | next_open_range++;
            open.domain = domain_name;
            open.name = text;
            sink_.Add(open);
          } else {
            records::RangeRecord range;
            range.start = start;
            range.end = *end;
            range.pid = pid;
            range.tid = tid;
            range.domain = domain_name;
            range.name = text;
            sink_.Add(range);
          }
        });
  }

  base::Status ReadMemory() {
    return db_.ForEachRow(
        "CUDA_GPU_MEMORY_USAGE_EVENTS",
        {Required("start"), Optional("globalPid"), Optional("deviceId"), Optional("address"), Required("bytes"),
         Optional("memKind"), Required("memoryOperationType")},
        [&](const SqliteRow& row) {
          records::MemoryRecord memory;
          memory.timestamp = row.RequiredInt(0);
          memory.pid = PidOf(row.Int(1));
          memory.device_id = U32(row.Int(2));
          memory.address = static_cast<uint64_t>(row.Int(3));
          memory.bytes = static_cast<uint64_t>(std::max<int64_t>(row.RequiredInt(4), 0));
          memory.memory_kind = MemoryKindOf(row.MaybeInt(5));
          memory.operation = row.RequiredInt(6) == 1 ? records::MemoryOperation::kRelease
                                                     : records::MemoryOperation::kAllocate;
          if (Accept(row)) sink_.Add(memory);
        });
  }

  base::Status ReadOverhead() {
    return db_.ForEachRow(
        "PROFILER_OVERHEAD", {Required("start"), Required("end"), Optional("globalTid")}, [&](const SqliteRow& row) {
          records::OverheadRecord overhead;
          overhead.start = row.RequiredInt(0);
          overhead.end = row.RequiredInt(1);
          const int64_t thread = row.Int(2);
          overhead.pid = PidOf(thread);
          overhead.tid = TidOf(thread);
          if (Accept(row)) sink_.Add(overhead);
        });
  }

  // Only the processes that did CUDA work: an export lists every process on the machine.
  base::Status ReadProcessesAndThreads() {
    RETURN_IF_ERROR(db_.ForEachRow(
        "PROCESSES", {Optional("globalPid"), Optional("pid"), Optional("name", kText)}, [&](const SqliteRow& row) {
          const std::optional<int64_t> global_pid = row.MaybeInt(0);
          const std::optional<int64_t> os_pid = row.MaybeInt(1);
          const std::string_view name = row.Text(2);
          if (!global_pid && !os_pid) row.RequiredInt(0);  // neither: the row names no process
          if (!Accept(row)) return;
          const uint32_t pid = os_pid ? U32(*os_pid) : PidOf(*global_pid);
          if (!pids_.count(pid)) return;
          records::ProcessRecord process;
          process.pid = pid;
          process.command = Text(name);
          sink_.Add(process);
        }));
    return db_.ForEachRow("ThreadNames", {Required("nameId"), Required("globalTid")}, [&](const SqliteRow& row) {
      const int64_t name = row.RequiredInt(0);
      const int64_t thread = row.RequiredInt(1);
      if (!Accept(row)) return;
      const uint32_t pid = PidOf(thread);
      if (!pids_.count(pid)) return;
      sink_.Add(records::ThreadRecord{pid, TidOf(thread), StringOf(name)});
    });
  }

  const SqliteDatabase& db_;
  records::RecordSink& sink_;
  std::unique_ptr<NsysStrings> strings_;
  std::unordered_set<uint32_t> pids_;  // processes with CUDA activity
};

#undef AMPPROF_GPU_ACTIVITY_COLUMNS

}  // namespace

base::Status ImportNsysSqlite(const std::string& path, records::RecordSink& sink) {
  ASSIGN_OR_RETURN(std::unique_ptr<SqliteDatabase> db, SqliteDatabase::Open(path));
  // Views count here: one in place of a table is an error that names it, not "not an export".
  const bool has_activity = db->Has("StringIds") &&
                            (db->Has("CUPTI_ACTIVITY_KIND_KERNEL") || db->Has("CUPTI_ACTIVITY_KIND_RUNTIME") ||
                             db->Has("NVTX_EVENTS") || db->Has("TARGET_INFO_GPU"));
  if (!has_activity) {
    return base::InvalidDataError(
        "{}: an SQLite database, but not an Nsight Systems export (no StringIds and CUPTI_ACTIVITY_KIND_* "
        "tables)",
        path);
  }
  Importer importer(*db, sink);
  return importer.Run();
}

}  // namespace ampprof::nsys
