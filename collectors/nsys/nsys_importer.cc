#include "collectors/nsys/nsys_importer.h"

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "collectors/nsys/sqlite_database.h"

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
#define AMPPROF_GPU_ACTIVITY_COLUMNS \
  "start", "end", "deviceId", "contextId", "streamId", "correlationId", "globalPid"

template <typename Record>
void ReadGpuActivity(const SqliteRow& row, Record& record) {
  record.start = row.Int(0);
  record.end = row.Int(1);
  record.device_id = U32(row.Int(2));
  record.context_id = U32(row.Int(3));
  record.stream_id = U32(row.Int(4));
  record.correlation_id = U32(row.Int(5));
  record.pid = PidOf(row.Int(6));
}

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
    RETURN_IF_ERROR(LoadStrings());
    RETURN_IF_ERROR(ReadDevices());
    RETURN_IF_ERROR(ReadKernels());
    RETURN_IF_ERROR(ReadApiCalls());
    RETURN_IF_ERROR(ReadCopies());
    RETURN_IF_ERROR(ReadMemsets());
    RETURN_IF_ERROR(ReadSyncs());
    RETURN_IF_ERROR(ReadNvtx());
    RETURN_IF_ERROR(ReadMemory());
    RETURN_IF_ERROR(ReadOverhead());
    RETURN_IF_ERROR(ReadProcessesAndThreads());
    sink_.SetMetadata("source", "Nsight Systems SQLite export");
    return base::OkStatus();
  }

 private:
  base::Status LoadStrings() {
    return db_.ForEachRow("StringIds", {"id", "value"}, [&](const SqliteRow& row) {
      const int64_t id = row.Int(0, -1);
      if (id < 0 || id > 100'000'000) return;  // ids are dense from 0; refuse absurd ones
      if (static_cast<size_t>(id) >= strings_.size()) strings_.resize(static_cast<size_t>(id) + 1);
      strings_[static_cast<size_t>(id)] = sink_.strings().Intern(row.Text(1));
    });
  }

  base::StringId StringOf(std::optional<int64_t> id) const {
    if (!id || *id < 0 || static_cast<size_t>(*id) >= strings_.size()) return base::kEmptyStringId;
    return strings_[static_cast<size_t>(*id)];
  }

  void NotePid(uint32_t pid) { pids_.insert(pid); }

  base::Status ReadDevices() {
    return db_.ForEachRow(
        "TARGET_INFO_GPU", {"id", "name", "totalMemory", "smCount", "computeMajor", "computeMinor", "uuid", "clockRate"},
        [&](const SqliteRow& row) {
          records::DeviceRecord device;
          device.device_id = U32(row.Int(0));
          device.name = sink_.strings().Intern(row.Text(1));
          device.global_memory_bytes = static_cast<uint64_t>(std::max<int64_t>(row.Int(2), 0));
          device.sm_count = U32(row.Int(3));
          device.compute_major = U32(row.Int(4));
          device.compute_minor = U32(row.Int(5));
          device.uuid = sink_.strings().Intern(row.Text(6));
          device.core_clock_khz = U32(row.Int(7) / 1000);  // clockRate is in Hz
          sink_.Add(device);  // pid 0: the device as every traced process saw it
        });
  }

  base::Status ReadKernels() {
    return db_.ForEachRow(
        "CUPTI_ACTIVITY_KIND_KERNEL",
        {AMPPROF_GPU_ACTIVITY_COLUMNS, "demangledName", "shortName", "gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ", "registersPerThread",
         "staticSharedMemory", "dynamicSharedMemory", "graphNodeId"},
        [&](const SqliteRow& row) {
          records::KernelRecord kernel;
          ReadGpuActivity(row, kernel);
          kernel.name = StringOf(row.MaybeInt(row.IsNull(7) ? 8 : 7));
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
          NotePid(kernel.pid);
          sink_.Add(kernel);
        });
  }

  base::Status ReadApiCalls() {
    std::unordered_map<uint32_t, base::StringId> clean_names;  // nameId -> name without "_v7000"
    return db_.ForEachRow(
        "CUPTI_ACTIVITY_KIND_RUNTIME", {"start", "end", "globalTid", "correlationId", "nameId", "returnValue"},
        [&](const SqliteRow& row) {
          records::ApiCallRecord call;
          call.start = row.Int(0);
          call.end = row.Int(1);
          call.pid = PidOf(row.Int(2));
          call.tid = TidOf(row.Int(2));
          call.correlation_id = U32(row.Int(3));
          const auto name_id = static_cast<uint32_t>(row.Int(4));
          auto [it, inserted] = clean_names.try_emplace(name_id, base::StringId());
          if (inserted) {
            it->second = sink_.strings().Intern(WithoutVersionSuffix(sink_.strings().Get(StringOf(name_id))));
          }
          call.name = it->second;
          // Nsight Systems writes driver calls (cuModuleGetLoadingMode, ...) into the same table.
          const std::string_view name = sink_.strings().Get(call.name);
          call.domain = name.rfind("cuda", 0) == 0 || name.rfind("cu", 0) != 0 ? records::ApiDomain::kRuntime
                                                                                  : records::ApiDomain::kDriver;
          call.return_code = static_cast<int32_t>(row.Int(5));
          NotePid(call.pid);
          sink_.Add(call);
        });
  }

  base::Status ReadCopies() {
    return db_.ForEachRow(
        "CUPTI_ACTIVITY_KIND_MEMCPY",
        {AMPPROF_GPU_ACTIVITY_COLUMNS, "bytes", "copyKind", "srcKind", "dstKind", "dstDeviceId"},
        [&](const SqliteRow& row) {
          records::MemcpyRecord copy;
          ReadGpuActivity(row, copy);
          copy.bytes = static_cast<uint64_t>(std::max<int64_t>(row.Int(7), 0));
          copy.kind = CopyKindOf(row.Int(8));
          copy.src_kind = MemoryKindOf(row.MaybeInt(9));
          copy.dst_kind = MemoryKindOf(row.MaybeInt(10));
          copy.peer_device_id = U32(row.Int(11));
          sink_.Add(copy);
        });
  }

  base::Status ReadMemsets() {
    return db_.ForEachRow(
        "CUPTI_ACTIVITY_KIND_MEMSET",
        {AMPPROF_GPU_ACTIVITY_COLUMNS, "value", "bytes", "memKind"},
        [&](const SqliteRow& row) {
          records::MemsetRecord memset;
          ReadGpuActivity(row, memset);
          memset.value = U32(row.Int(7));
          memset.bytes = static_cast<uint64_t>(std::max<int64_t>(row.Int(8), 0));
          memset.memory_kind = MemoryKindOf(row.MaybeInt(9));
          sink_.Add(memset);
        });
  }

  base::Status ReadSyncs() {
    return db_.ForEachRow(
        "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
        {AMPPROF_GPU_ACTIVITY_COLUMNS, "syncType", "eventId"},
        [&](const SqliteRow& row) {
          records::SyncRecord sync;
          ReadGpuActivity(row, sync);
          sync.kind = SyncKindOf(row.Int(7));
          sync.event_id = U32(row.Int(8));  // 0xFFFFFFFF means none; U32 keeps it, harmless
          sink_.Add(sync);
        });
  }

  base::Status ReadNvtx() {
    // Domain names first: ranges refer to their domain by id.
    std::unordered_map<int64_t, base::StringId> domains;
    RETURN_IF_ERROR(db_.ForEachRow(
        "NVTX_EVENTS", {"domainId", "text", "textId"},
        [&](const SqliteRow& row) {
          domains[row.Int(0)] = row.IsNull(1) ? StringOf(row.MaybeInt(2)) : sink_.strings().Intern(row.Text(1));
        },
        fmt::format("eventType = {}", kNvtxDomainCreate)));
    uint64_t next_open_range = 1;
    return db_.ForEachRow(
        "NVTX_EVENTS", {"start", "end", "eventType", "text", "textId", "globalTid", "domainId"},
        [&](const SqliteRow& row) {
          const int64_t type = row.Int(2);
          const base::StringId text = row.IsNull(3) ? StringOf(row.MaybeInt(4)) : sink_.strings().Intern(row.Text(3));
          const uint32_t pid = PidOf(row.Int(5));
          const uint32_t tid = TidOf(row.Int(5));
          const auto domain = domains.find(row.Int(6));
          const base::StringId domain_name = domain == domains.end() ? base::kEmptyStringId : domain->second;
          if (type == kNvtxThreadName) {
            sink_.Add(records::ThreadRecord{pid, tid, text});
          } else if (type == kNvtxMark) {
            records::MarkRecord mark;
            mark.timestamp = row.Int(0);
            mark.pid = pid;
            mark.tid = tid;
            mark.domain = domain_name;
            mark.name = text;
            sink_.Add(mark);
          } else if (type == kNvtxPushPopRange || type == kNvtxStartEndRange) {
            if (row.IsNull(1)) {
              // Still open when the capture stopped: a start without an end; the model closes it.
              records::MarkRecord start;
              start.kind = records::MarkKind::kRangeStart;
              start.timestamp = row.Int(0);
              start.pid = pid;
              start.tid = tid;
              start.range_id = (uint64_t{1} << 63) | next_open_range++;
              start.domain = domain_name;
              start.name = text;
              sink_.Add(start);
              return;
            }
            records::RangeRecord range;
            range.start = row.Int(0);
            range.end = row.Int(1);
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
        {"start", "globalPid", "deviceId", "address", "bytes", "memKind", "memoryOperationType"},
        [&](const SqliteRow& row) {
          records::MemoryRecord memory;
          memory.timestamp = row.Int(0);
          memory.pid = PidOf(row.Int(1));
          memory.device_id = U32(row.Int(2));
          memory.address = static_cast<uint64_t>(row.Int(3));
          memory.bytes = static_cast<uint64_t>(std::max<int64_t>(row.Int(4), 0));
          memory.memory_kind = MemoryKindOf(row.MaybeInt(5));
          memory.operation = row.Int(6) == 1 ? records::MemoryOperation::kRelease
                                             : records::MemoryOperation::kAllocate;
          sink_.Add(memory);
        });
  }

  base::Status ReadOverhead() {
    return db_.ForEachRow("PROFILER_OVERHEAD", {"start", "end", "globalTid"}, [&](const SqliteRow& row) {
      records::OverheadRecord overhead;
      overhead.start = row.Int(0);
      overhead.end = row.Int(1);
      overhead.pid = PidOf(row.Int(2));
      overhead.tid = TidOf(row.Int(2));
      sink_.Add(overhead);
    });
  }

  // Only the processes that did CUDA work: an export lists every process on the machine.
  base::Status ReadProcessesAndThreads() {
    RETURN_IF_ERROR(db_.ForEachRow("PROCESSES", {"globalPid", "pid", "name"}, [&](const SqliteRow& row) {
      const uint32_t pid = row.IsNull(1) ? PidOf(row.Int(0)) : U32(row.Int(1));
      if (!pids_.count(pid)) return;
      records::ProcessRecord process;
      process.pid = pid;
      process.command = sink_.strings().Intern(row.Text(2));
      sink_.Add(process);
    }));
    return db_.ForEachRow("ThreadNames", {"nameId", "globalTid"}, [&](const SqliteRow& row) {
      const uint32_t pid = PidOf(row.Int(1));
      if (!pids_.count(pid)) return;
      sink_.Add(records::ThreadRecord{pid, TidOf(row.Int(1)), StringOf(row.MaybeInt(0))});
    });
  }

  const SqliteDatabase& db_;
  records::RecordSink& sink_;
  std::vector<base::StringId> strings_;  // nsys string id -> sink string id
  std::unordered_set<uint32_t> pids_;    // processes with CUDA activity
};

#undef AMPPROF_GPU_ACTIVITY_COLUMNS

}  // namespace

base::Status ImportNsysSqlite(const std::string& path, records::RecordSink& sink) {
  ASSIGN_OR_RETURN(std::unique_ptr<SqliteDatabase> db, SqliteDatabase::Open(path));
  const bool has_activity = db->HasTable("StringIds") &&
                            (db->HasTable("CUPTI_ACTIVITY_KIND_KERNEL") || db->HasTable("CUPTI_ACTIVITY_KIND_RUNTIME") ||
                             db->HasTable("NVTX_EVENTS") || db->HasTable("TARGET_INFO_GPU"));
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
