#ifndef AMPPROF_COLLECTORS_RECORDS_RECORDS_H_
#define AMPPROF_COLLECTORS_RECORDS_RECORDS_H_

// The vendor-neutral records: the only contract between collection (CUPTI, Kineto JSON, Nsight Systems
// SQLite, the synthetic generator) and analysis. Nothing after this point sees a CUPTI, JSON or SQLite type.
//
// Conventions every producer follows:
//   - times are int64 nanoseconds in the trace's one clock domain, start <= end;
//   - strings are StringIds interned in the sink's StringPool (RecordSink::strings());
//   - pid/tid are operating-system ids; device_id is the CUDA ordinal as the process saw it;
//   - correlation_id links a GPU activity (kernel, copy, memset, sync) to the API call that caused it,
//     as CUPTI defines it; 0 means "none".
//
// Each struct lists its fields once, in Fields(), in the order they are stored in .ampt files. That
// order is the file format: new fields are only ever appended (a minor format version), so older files
// still decode (missing fields keep their defaults) and newer files decode in older readers (extra bytes
// are skipped). See docs/formats/ampt.md.
//
//   KernelRecord kernel;
//   kernel.start = 1'000; kernel.end = 9'000;
//   kernel.name = sink.strings().Intern("ampere_sgemm_128x64_nn");
//   kernel.correlation_id = 42;
//   sink.Add(kernel);

#include <cstdint>
#include <string_view>

#include "src/base/string_pool.h"
#include "src/base/time.h"

namespace ampprof::records {

using base::StringId;
using base::TimeNs;

enum class RecordKind : uint8_t {
  kDevice = 1,
  kProcess,
  kThread,
  kKernel,
  kApiCall,
  kMemcpy,
  kMemset,
  kSync,
  kRange,
  kMark,
  kMemory,
  kOverhead,
};
inline constexpr uint8_t kRecordKindMax = static_cast<uint8_t>(RecordKind::kOverhead);
std::string_view RecordKindName(RecordKind kind);

// ---- Enumerations. Values are stored in files: append only, never renumber. ----

enum class ApiDomain : uint8_t { kRuntime, kDriver, kOther };
enum class MemcpyKind : uint8_t {
  kUnknown,
  kHostToDevice,
  kDeviceToHost,
  kDeviceToDevice,
  kHostToHost,
  kPeerToPeer,
};
enum class MemoryKind : uint8_t { kUnknown, kPageable, kPinned, kDevice, kArray, kManaged };
enum class SyncKind : uint8_t {
  kUnknown,
  kEventSynchronize,
  kStreamWaitEvent,
  kStreamSynchronize,
  kContextSynchronize,
};
// Where a range or mark came from. kNvtx: NVTX (any domain, including ampprof's own); kCpuOp: a framework
// operator (PyTorch profiler cpu_op); kUserAnnotation: a profiler annotation such as record_function.
enum class RangeCategory : uint8_t { kNvtx, kCpuOp, kUserAnnotation };
// A mark is an instant, or one end of a range that was recorded as two events (NVTX push/pop and
// start/end as CUPTI reports them). The model pairs starts and ends by (pid, range_id), so a range that
// was open when the process died is still visible.
enum class MarkKind : uint8_t { kInstant, kRangeStart, kRangeEnd };
enum class MemoryOperation : uint8_t { kAllocate, kRelease };
// Which layer a memory record is from. kDriver: cudaMalloc/cuMemAlloc and their frees (CUPTI, Nsight
// Systems): for a framework with a caching allocator, the memory it reserves. kFrameworkAllocator: the
// framework's own allocator handing tensors out and taking them back (PyTorch profiler [memory] events).
enum class MemorySource : uint8_t { kDriver, kFrameworkAllocator };
enum class OverheadKind : uint8_t {
  kUnknown,
  kDriverCompiler,
  kBufferFlush,
  kInstrumentation,
  kResource,
  kModuleLoading,
  kLazyFunctionLoading,
  kCommandBufferFull,
  kActivityBufferRequest,
  kCollectorWrite,  // ampprof's own writer thread
};

// The largest valid value of each enum, for validating decoded bytes.
template <typename Enum>
inline constexpr uint8_t kEnumMax = 0;
template <> inline constexpr uint8_t kEnumMax<ApiDomain> = static_cast<uint8_t>(ApiDomain::kOther);
template <> inline constexpr uint8_t kEnumMax<MemcpyKind> = static_cast<uint8_t>(MemcpyKind::kPeerToPeer);
template <> inline constexpr uint8_t kEnumMax<MemoryKind> = static_cast<uint8_t>(MemoryKind::kManaged);
template <> inline constexpr uint8_t kEnumMax<SyncKind> =
    static_cast<uint8_t>(SyncKind::kContextSynchronize);
template <> inline constexpr uint8_t kEnumMax<RangeCategory> =
    static_cast<uint8_t>(RangeCategory::kUserAnnotation);
template <> inline constexpr uint8_t kEnumMax<MarkKind> = static_cast<uint8_t>(MarkKind::kRangeEnd);
template <> inline constexpr uint8_t kEnumMax<MemoryOperation> =
    static_cast<uint8_t>(MemoryOperation::kRelease);
template <> inline constexpr uint8_t kEnumMax<MemorySource> =
    static_cast<uint8_t>(MemorySource::kFrameworkAllocator);
template <> inline constexpr uint8_t kEnumMax<OverheadKind> =
    static_cast<uint8_t>(OverheadKind::kCollectorWrite);

std::string_view ApiDomainName(ApiDomain domain);
std::string_view MemcpyKindName(MemcpyKind kind);  // "HtoD", "DtoH", ...
std::string_view SyncKindName(SyncKind kind);

// ---- Records. ----

struct DeviceRecord {
  uint32_t pid = 0;  // the process that saw the device; 0 when the source does not say
  uint32_t device_id = 0;
  StringId name;  // "NVIDIA H100 80GB HBM3"
  StringId uuid;  // "GPU-4f3c...", empty when unknown
  uint32_t compute_major = 0;
  uint32_t compute_minor = 0;
  uint32_t sm_count = 0;
  uint64_t global_memory_bytes = 0;
  uint32_t core_clock_khz = 0;

  friend bool operator==(const DeviceRecord&, const DeviceRecord&) = default;

  template <typename Self, typename Visitor>
  static void Fields(Self& r, Visitor&& v) {
    v(r.pid), v(r.device_id), v(r.name), v(r.uuid), v(r.compute_major), v(r.compute_minor),
        v(r.sm_count), v(r.global_memory_bytes), v(r.core_clock_khz);
  }
};

struct ProcessRecord {
  uint32_t pid = 0;
  StringId command;   // the command line, or the process name when that is all the source has
  StringId hostname;
  int32_t rank = -1;  // RANK for distributed jobs; -1 when not distributed or unknown
  int32_t local_rank = -1;
  int32_t world_size = 0;

  friend bool operator==(const ProcessRecord&, const ProcessRecord&) = default;

  template <typename Self, typename Visitor>
  static void Fields(Self& r, Visitor&& v) {
    v(r.pid), v(r.command), v(r.hostname), v(r.rank), v(r.local_rank), v(r.world_size);
  }
};

struct ThreadRecord {
  uint32_t pid = 0;
  uint32_t tid = 0;
  StringId name;

  friend bool operator==(const ThreadRecord&, const ThreadRecord&) = default;

  template <typename Self, typename Visitor>
  static void Fields(Self& r, Visitor&& v) {
    v(r.pid), v(r.tid), v(r.name);
  }
};

struct KernelRecord {
  TimeNs start = 0;  // start == end == 0: the kernel had not completed when its buffer was flushed
  TimeNs end = 0;
  uint32_t pid = 0;
  uint32_t device_id = 0;
  uint32_t context_id = 0;
  uint32_t stream_id = 0;
  uint32_t correlation_id = 0;
  StringId name;  // mangled as CUPTI reports it, or demangled as the importer found it
  uint32_t grid_x = 0, grid_y = 0, grid_z = 0;
  uint32_t block_x = 0, block_y = 0, block_z = 0;
  uint32_t registers_per_thread = 0;
  uint32_t static_shared_bytes = 0;
  uint32_t dynamic_shared_bytes = 0;
  uint32_t graph_id = 0;  // non-zero for kernels launched as nodes of a CUDA graph
  uint64_t graph_node_id = 0;

  friend bool operator==(const KernelRecord&, const KernelRecord&) = default;

  template <typename Self, typename Visitor>
  static void Fields(Self& r, Visitor&& v) {
    v(r.start), v(r.end), v(r.pid), v(r.device_id), v(r.context_id), v(r.stream_id),
        v(r.correlation_id), v(r.name), v(r.grid_x), v(r.grid_y), v(r.grid_z), v(r.block_x),
        v(r.block_y), v(r.block_z), v(r.registers_per_thread), v(r.static_shared_bytes),
        v(r.dynamic_shared_bytes), v(r.graph_id), v(r.graph_node_id);
  }
};

// A CUDA runtime or driver API call on a host thread.
struct ApiCallRecord {
  TimeNs start = 0;
  TimeNs end = 0;
  uint32_t pid = 0;
  uint32_t tid = 0;
  uint32_t correlation_id = 0;
  ApiDomain domain = ApiDomain::kRuntime;
  uint32_t callback_id = 0;  // CUPTI cbid when known, else 0
  StringId name;             // "cudaLaunchKernel", "cuLaunchKernelEx", ...
  int32_t return_code = 0;

  friend bool operator==(const ApiCallRecord&, const ApiCallRecord&) = default;

  template <typename Self, typename Visitor>
  static void Fields(Self& r, Visitor&& v) {
    v(r.start), v(r.end), v(r.pid), v(r.tid), v(r.correlation_id), v(r.domain), v(r.callback_id),
        v(r.name), v(r.return_code);
  }
};

struct MemcpyRecord {
  TimeNs start = 0;
  TimeNs end = 0;
  uint32_t pid = 0;
  uint32_t device_id = 0;
  uint32_t context_id = 0;
  uint32_t stream_id = 0;
  uint32_t correlation_id = 0;
  MemcpyKind kind = MemcpyKind::kUnknown;
  MemoryKind src_kind = MemoryKind::kUnknown;
  MemoryKind dst_kind = MemoryKind::kUnknown;
  uint8_t is_async = 0;
  uint64_t bytes = 0;
  uint32_t peer_device_id = 0;  // the other device of a peer-to-peer copy

  friend bool operator==(const MemcpyRecord&, const MemcpyRecord&) = default;

  template <typename Self, typename Visitor>
  static void Fields(Self& r, Visitor&& v) {
    v(r.start), v(r.end), v(r.pid), v(r.device_id), v(r.context_id), v(r.stream_id),
        v(r.correlation_id), v(r.kind), v(r.src_kind), v(r.dst_kind), v(r.is_async), v(r.bytes),
        v(r.peer_device_id);
  }
};

struct MemsetRecord {
  TimeNs start = 0;
  TimeNs end = 0;
  uint32_t pid = 0;
  uint32_t device_id = 0;
  uint32_t context_id = 0;
  uint32_t stream_id = 0;
  uint32_t correlation_id = 0;
  MemoryKind memory_kind = MemoryKind::kUnknown;
  uint8_t is_async = 0;
  uint64_t bytes = 0;
  uint32_t value = 0;

  friend bool operator==(const MemsetRecord&, const MemsetRecord&) = default;

  template <typename Self, typename Visitor>
  static void Fields(Self& r, Visitor&& v) {
    v(r.start), v(r.end), v(r.pid), v(r.device_id), v(r.context_id), v(r.stream_id),
        v(r.correlation_id), v(r.memory_kind), v(r.is_async), v(r.bytes), v(r.value);
  }
};

// A host-side wait on the GPU: stream/event/context synchronisation or a cross-stream event wait.
struct SyncRecord {
  TimeNs start = 0;
  TimeNs end = 0;
  uint32_t pid = 0;
  uint32_t tid = 0;  // 0 when the source does not say (CUPTI); the model takes it from the API call
  uint32_t device_id = 0;
  uint32_t context_id = 0;
  uint32_t stream_id = 0;
  uint32_t correlation_id = 0;
  SyncKind kind = SyncKind::kUnknown;
  uint32_t event_id = 0;

  friend bool operator==(const SyncRecord&, const SyncRecord&) = default;

  template <typename Self, typename Visitor>
  static void Fields(Self& r, Visitor&& v) {
    v(r.start), v(r.end), v(r.pid), v(r.tid), v(r.device_id), v(r.context_id), v(r.stream_id),
        v(r.correlation_id), v(r.kind), v(r.event_id);
  }
};

// A complete host range: an NVTX range whose two ends were already paired, a framework op, an annotation.
struct RangeRecord {
  TimeNs start = 0;
  TimeNs end = 0;
  uint32_t pid = 0;
  uint32_t tid = 0;
  RangeCategory category = RangeCategory::kNvtx;
  StringId domain;  // NVTX domain ("" for the default domain, "ampprof" for ampprof's own)
  StringId name;
  StringId args;    // free text the source attached (e.g. "sizes = [[20, 128], [128]]"), may be empty
  // (1.2) The framework's sequence number of an op (PyTorch's autograd "Sequence number"): a forward op
  // and the backward op autograd runs for it share it. -1 when the source gives none. Kept apart from
  // `args`, which would otherwise be distinct for every op call.
  int64_t sequence_number = -1;

  friend bool operator==(const RangeRecord&, const RangeRecord&) = default;

  template <typename Self, typename Visitor>
  static void Fields(Self& r, Visitor&& v) {
    v(r.start), v(r.end), v(r.pid), v(r.tid), v(r.category), v(r.domain), v(r.name), v(r.args),
        v(r.sequence_number);
  }
};

// An instant, or one end of a range recorded as two events (see MarkKind).
struct MarkRecord {
  TimeNs timestamp = 0;
  uint32_t pid = 0;
  uint32_t tid = 0;
  MarkKind kind = MarkKind::kInstant;
  RangeCategory category = RangeCategory::kNvtx;
  uint64_t range_id = 0;  // pairs kRangeStart with kRangeEnd within a process
  StringId domain;
  StringId name;          // empty on kRangeEnd: the name travels with the start

  friend bool operator==(const MarkRecord&, const MarkRecord&) = default;

  template <typename Self, typename Visitor>
  static void Fields(Self& r, Visitor&& v) {
    v(r.timestamp), v(r.pid), v(r.tid), v(r.kind), v(r.category), v(r.range_id), v(r.domain),
        v(r.name);
  }
};

// A device memory allocation or release.
struct MemoryRecord {
  // The totals the source did not record.
  static constexpr uint64_t kUnknownTotal = UINT64_MAX;

  TimeNs timestamp = 0;
  uint32_t pid = 0;
  uint32_t device_id = 0;
  uint32_t stream_id = 0;  // for stream-ordered allocations; else 0
  MemoryOperation operation = MemoryOperation::kAllocate;
  MemoryKind memory_kind = MemoryKind::kUnknown;
  uint64_t address = 0;
  uint64_t bytes = 0;
  // (1.2) Which allocator this is, and what the framework's allocator said it held on the device just
  // after this event (PyTorch's "Total Allocated" and "Total Reserved"), or kUnknownTotal.
  MemorySource source = MemorySource::kDriver;
  uint64_t total_allocated = kUnknownTotal;
  uint64_t total_reserved = kUnknownTotal;

  friend bool operator==(const MemoryRecord&, const MemoryRecord&) = default;

  template <typename Self, typename Visitor>
  static void Fields(Self& r, Visitor&& v) {
    v(r.timestamp), v(r.pid), v(r.device_id), v(r.stream_id), v(r.operation), v(r.memory_kind),
        v(r.address), v(r.bytes), v(r.source), v(r.total_allocated), v(r.total_reserved);
  }
};

// Time the profiler itself took (CUPTI buffer flushes, instrumentation, ampprof's writer).
struct OverheadRecord {
  TimeNs start = 0;
  TimeNs end = 0;
  uint32_t pid = 0;
  uint32_t tid = 0;
  OverheadKind kind = OverheadKind::kUnknown;

  friend bool operator==(const OverheadRecord&, const OverheadRecord&) = default;

  template <typename Self, typename Visitor>
  static void Fields(Self& r, Visitor&& v) {
    v(r.start), v(r.end), v(r.pid), v(r.tid), v(r.kind);
  }
};

// Maps each record type to its kind, for code that is generic over record types.
template <typename Record>
struct RecordTraits;
#define AMPPROF_RECORD_TRAITS(Type, Kind) \
  template <>                             \
  struct RecordTraits<Type> {             \
    static constexpr RecordKind kKind = RecordKind::Kind; \
  };
AMPPROF_RECORD_TRAITS(DeviceRecord, kDevice)
AMPPROF_RECORD_TRAITS(ProcessRecord, kProcess)
AMPPROF_RECORD_TRAITS(ThreadRecord, kThread)
AMPPROF_RECORD_TRAITS(KernelRecord, kKernel)
AMPPROF_RECORD_TRAITS(ApiCallRecord, kApiCall)
AMPPROF_RECORD_TRAITS(MemcpyRecord, kMemcpy)
AMPPROF_RECORD_TRAITS(MemsetRecord, kMemset)
AMPPROF_RECORD_TRAITS(SyncRecord, kSync)
AMPPROF_RECORD_TRAITS(RangeRecord, kRange)
AMPPROF_RECORD_TRAITS(MarkRecord, kMark)
AMPPROF_RECORD_TRAITS(MemoryRecord, kMemory)
AMPPROF_RECORD_TRAITS(OverheadRecord, kOverhead)
#undef AMPPROF_RECORD_TRAITS

// Calls `f.template operator()<Record>()` for every record type, in RecordKind order.
template <typename F>
void ForEachRecordType(F&& f) {
  f.template operator()<DeviceRecord>();
  f.template operator()<ProcessRecord>();
  f.template operator()<ThreadRecord>();
  f.template operator()<KernelRecord>();
  f.template operator()<ApiCallRecord>();
  f.template operator()<MemcpyRecord>();
  f.template operator()<MemsetRecord>();
  f.template operator()<SyncRecord>();
  f.template operator()<RangeRecord>();
  f.template operator()<MarkRecord>();
  f.template operator()<MemoryRecord>();
  f.template operator()<OverheadRecord>();
}

}  // namespace ampprof::records

#endif  // AMPPROF_COLLECTORS_RECORDS_RECORDS_H_
