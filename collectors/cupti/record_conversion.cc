#include "collectors/cupti/record_conversion.h"

#include <cstdlib>
#include <optional>

#include <cupti_version.h>

#include "collectors/cupti/cupti_enums.h"
#include "src/base/time.h"

// The structs below are CUPTI 13's; a CUPTI 12 or 14 header would have other versions (or names).
static_assert(CUPTI_API_VERSION >= 130000 && CUPTI_API_VERSION < 140000,
              "record_conversion reads the CUPTI 13 record structs");

namespace ampprof::cupti {
namespace {

using base::Stat;
using base::TimeNs;

// ---- Time: CUPTI's uint64 ns -> ampprof's int64 ns, checked (see the header). ----

std::optional<TimeNs> CheckedTime(uint64_t t, base::Stats& stats) {
  if (t >= static_cast<uint64_t>(base::kMaxTraceTime)) {
    stats.Increment(Stat::kRecordTimeOutOfRange);
    return std::nullopt;
  }
  return static_cast<TimeNs>(t);
}

// nullopt: the record is dropped (and counted).
std::optional<base::Interval> PlaceInterval(uint64_t start, uint64_t end, base::Stats& stats) {
  if (start == CUPTI_TIMESTAMP_UNKNOWN || end == CUPTI_TIMESTAMP_UNKNOWN) {
    stats.Increment(Stat::kCuptiMissingTimestamps);
    return std::nullopt;
  }
  if (start >= static_cast<uint64_t>(base::kMaxTraceTime) ||
      end >= static_cast<uint64_t>(base::kMaxTraceTime)) {
    stats.Increment(Stat::kRecordTimeOutOfRange);
    return std::nullopt;
  }
  base::Interval interval{static_cast<TimeNs>(start), static_cast<TimeNs>(end)};
  if (interval.end < interval.start) {
    stats.Increment(Stat::kRecordNegativeDuration);
    interval.end = interval.start;
  }
  return interval;
}

std::optional<TimeNs> PlaceInstant(uint64_t t, base::Stats& stats) {
  if (t == CUPTI_TIMESTAMP_UNKNOWN) {
    stats.Increment(Stat::kCuptiMissingTimestamps);
    return std::nullopt;
  }
  return CheckedTime(t, stats);
}

// ---- Fields ----

uint32_t NonNegative(int32_t value) { return value < 0 ? 0 : static_cast<uint32_t>(value); }

// An enum conversion's result; a value CUPTI 13.0 does not define is counted, made `fallback`.
template <typename Enum>
Enum Known(std::optional<Enum> value, Enum fallback, base::Stats& stats) {
  if (value) return *value;
  stats.Increment(Stat::kCuptiUnknownValues);
  return fallback;
}

records::MemoryKind MemoryKindChecked(uint32_t cupti_kind, base::Stats& stats) {
  return Known(MemoryKindOf(cupti_kind), records::MemoryKind::kUnknown, stats);
}

// Interns a name that should be there (kernels, instants, range starts, devices, threads).
base::StringId RequiredName(const char* name, NameCache& cache, records::RecordSink& sink) {
  if (name == nullptr) sink.stats().Increment(Stat::kCuptiMissingNames);
  return cache.Intern(name, sink.strings());
}

// CUPTI marks synchronisation fields that do not apply with 0xFFFFFFFF; records use 0 for "none".
uint32_t SyncField(uint32_t value) {
  return value == CUPTI_SYNCHRONIZATION_INVALID_VALUE ? 0 : value;
}

// The process and thread a host-side record (marker, overhead) belongs to, when it names them.
struct HostThread {
  uint32_t pid = 0;
  uint32_t tid = 0;
};
HostThread HostThreadOf(CUpti_ActivityObjectKind kind, const CUpti_ActivityObjectKindId& id,
                        const ConversionContext& context) {
  if (kind == CUPTI_ACTIVITY_OBJECT_THREAD) {
    return {id.pt.processId != 0 ? id.pt.processId : context.pid(), id.pt.threadId};
  }
  if (kind == CUPTI_ACTIVITY_OBJECT_PROCESS && id.pt.processId != 0) return {id.pt.processId, 0};
  return {context.pid(), 0};
}

template <typename Record>
const Record& As(const CUpti_Activity* record) {
  return *reinterpret_cast<const Record*>(record);
}

}  // namespace

// ---- GPU activity ----

void ConvertKernel(const CUpti_ActivityKernel10& kernel, ConversionContext& context,
                   records::RecordSink& sink) {
  records::KernelRecord record;
  if (kernel.start != CUPTI_TIMESTAMP_UNKNOWN && kernel.end != CUPTI_TIMESTAMP_UNKNOWN) {
    const std::optional<base::Interval> interval =
        PlaceInterval(kernel.start, kernel.end, sink.stats());
    if (!interval) return;
    record.start = interval->start;
    record.end = interval->end;
  }  // else start == end == 0: kept, so that kernel counts stay right (see the header)
  record.pid = context.pid();
  record.device_id = kernel.deviceId;
  record.context_id = kernel.contextId;
  record.stream_id = kernel.streamId;
  record.correlation_id = kernel.correlationId;
  record.name = RequiredName(kernel.name, context.kernel_names(), sink);
  record.grid_x = NonNegative(kernel.gridX);
  record.grid_y = NonNegative(kernel.gridY);
  record.grid_z = NonNegative(kernel.gridZ);
  record.block_x = NonNegative(kernel.blockX);
  record.block_y = NonNegative(kernel.blockY);
  record.block_z = NonNegative(kernel.blockZ);
  record.registers_per_thread = kernel.registersPerThread;
  record.static_shared_bytes = NonNegative(kernel.staticSharedMemory);
  record.dynamic_shared_bytes = NonNegative(kernel.dynamicSharedMemory);
  record.graph_id = kernel.graphId;
  record.graph_node_id = kernel.graphNodeId;
  sink.Add(record);
}

void ConvertMemcpy(const CUpti_ActivityMemcpy6& copy, ConversionContext& context,
                   records::RecordSink& sink) {
  const std::optional<base::Interval> interval = PlaceInterval(copy.start, copy.end, sink.stats());
  if (!interval) return;
  records::MemcpyRecord record;
  record.start = interval->start;
  record.end = interval->end;
  record.pid = context.pid();
  record.device_id = copy.deviceId;
  record.context_id = copy.contextId;
  record.stream_id = copy.streamId;
  // correlationId matches the driver API record, runtimeCorrelationId the runtime one. The
  // collector records runtime copies (cudaMemcpyAsync: .item(), .to()), so the runtime id links the
  // copy to the call the user's code made; copies issued through the driver API have no runtime id.
  record.correlation_id =
      copy.runtimeCorrelationId != 0 ? copy.runtimeCorrelationId : copy.correlationId;
  record.kind = Known(MemcpyKindOf(copy.copyKind), records::MemcpyKind::kUnknown, sink.stats());
  record.src_kind = MemoryKindChecked(copy.srcKind, sink.stats());
  record.dst_kind = MemoryKindChecked(copy.dstKind, sink.stats());
  record.is_async = (copy.flags & CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC) != 0 ? 1 : 0;
  record.bytes = copy.bytes;
  sink.Add(record);
}

void ConvertPeerMemcpy(const CUpti_ActivityMemcpyPtoP4& copy, ConversionContext& context,
                       records::RecordSink& sink) {
  const std::optional<base::Interval> interval = PlaceInterval(copy.start, copy.end, sink.stats());
  if (!interval) return;
  records::MemcpyRecord record;
  record.start = interval->start;
  record.end = interval->end;
  record.pid = context.pid();
  record.device_id = copy.deviceId;
  record.context_id = copy.contextId;
  record.stream_id = copy.streamId;
  record.correlation_id = copy.correlationId;  // the same id in the runtime and the driver record
  // A MEMCPY2 record is a peer copy whatever its copyKind says.
  const records::MemcpyKind kind =
      Known(MemcpyKindOf(copy.copyKind), records::MemcpyKind::kUnknown, sink.stats());
  record.kind = kind == records::MemcpyKind::kUnknown ? records::MemcpyKind::kPeerToPeer : kind;
  record.src_kind = MemoryKindChecked(copy.srcKind, sink.stats());
  record.dst_kind = MemoryKindChecked(copy.dstKind, sink.stats());
  record.is_async = (copy.flags & CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC) != 0 ? 1 : 0;
  record.bytes = copy.bytes;
  record.peer_device_id = copy.deviceId == copy.srcDeviceId ? copy.dstDeviceId : copy.srcDeviceId;
  sink.Add(record);
}

void ConvertMemset(const CUpti_ActivityMemset4& memset, ConversionContext& context,
                   records::RecordSink& sink) {
  const std::optional<base::Interval> interval =
      PlaceInterval(memset.start, memset.end, sink.stats());
  if (!interval) return;
  records::MemsetRecord record;
  record.start = interval->start;
  record.end = interval->end;
  record.pid = context.pid();
  record.device_id = memset.deviceId;
  record.context_id = memset.contextId;
  record.stream_id = memset.streamId;
  record.correlation_id = memset.correlationId;
  record.memory_kind = MemoryKindChecked(memset.memoryKind, sink.stats());
  record.is_async = (memset.flags & CUPTI_ACTIVITY_FLAG_MEMSET_ASYNC) != 0 ? 1 : 0;
  record.bytes = memset.bytes;
  record.value = memset.value;
  sink.Add(record);
}

void ConvertSynchronization(const CUpti_ActivitySynchronization2& sync, ConversionContext& context,
                            records::RecordSink& sink) {
  const std::optional<base::Interval> interval = PlaceInterval(sync.start, sync.end, sink.stats());
  if (!interval) return;
  records::SyncRecord record;
  record.start = interval->start;
  record.end = interval->end;
  record.pid = context.pid();
  // CUPTI does not say which thread waited; the model takes it from the API call (correlation_id).
  record.tid = 0;
  const std::optional<uint32_t> device = context.DeviceOfContext(sync.contextId);
  if (!device) sink.stats().Increment(Stat::kCuptiUnknownValues);
  record.device_id = device.value_or(0);
  record.context_id = sync.contextId;
  record.stream_id = SyncField(sync.streamId);
  record.correlation_id = sync.correlationId;
  record.kind = Known(SyncKindOf(sync.type), records::SyncKind::kUnknown, sink.stats());
  record.event_id = SyncField(sync.cudaEventId);
  sink.Add(record);
}

void ConvertMemory(const CUpti_ActivityMemory4& memory, ConversionContext& context,
                   records::RecordSink& sink) {
  const std::optional<records::MemoryOperation> operation =
      MemoryOperationOf(memory.memoryOperationType);
  if (!operation) {  // neither an allocation nor a free: nothing to add to a memory curve
    sink.stats().Increment(Stat::kCuptiUnknownValues);
    return;
  }
  const std::optional<TimeNs> timestamp = PlaceInstant(memory.timestamp, sink.stats());
  if (!timestamp) return;
  records::MemoryRecord record;
  record.timestamp = *timestamp;
  record.pid = memory.processId != 0 ? memory.processId : context.pid();
  record.device_id = memory.deviceId;
  record.stream_id = memory.streamId;
  record.operation = *operation;
  record.memory_kind = MemoryKindChecked(memory.memoryKind, sink.stats());
  record.address = memory.address;
  record.bytes = memory.bytes;
  sink.Add(record);
}

// ---- API calls ----

void ConvertApiCall(const CUpti_ActivityAPI& call, ConversionContext& context,
                    records::RecordSink& sink) {
  const std::optional<base::Interval> interval = PlaceInterval(call.start, call.end, sink.stats());
  if (!interval) return;
  records::ApiCallRecord record;
  record.start = interval->start;
  record.end = interval->end;
  record.pid = call.processId != 0 ? call.processId : context.pid();
  record.tid = call.threadId;
  record.correlation_id = call.correlationId;
  record.domain = call.kind == CUPTI_ACTIVITY_KIND_DRIVER ? records::ApiDomain::kDriver
                                                          : records::ApiDomain::kRuntime;
  record.callback_id = call.cbid;
  bool named = false;
  record.name = context.ApiCallName(record.domain, call.cbid, sink.strings(), named);
  if (!named) sink.stats().Increment(Stat::kCuptiUnknownValues);
  record.return_code = static_cast<int32_t>(call.returnValue);
  sink.Add(record);
}

// ---- Host side: NVTX, names, devices, contexts, overhead ----

void ConvertMarker(const CUpti_ActivityMarker2& marker, ConversionContext& context,
                   records::RecordSink& sink) {
  records::MarkRecord record;
  const uint32_t flags = marker.flags;
  if ((flags & CUPTI_ACTIVITY_FLAG_MARKER_START) != 0) {
    record.kind = records::MarkKind::kRangeStart;
  } else if ((flags & CUPTI_ACTIVITY_FLAG_MARKER_END) != 0) {
    record.kind = records::MarkKind::kRangeEnd;
  } else if ((flags & CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS) != 0) {
    record.kind = records::MarkKind::kInstant;
  } else {
    // nvtxDomainSyncUser acquire/release markers (or flags CUPTI 13.0 does not define).
    const uint32_t sync_flags =
        CUPTI_ACTIVITY_FLAG_MARKER_SYNC_ACQUIRE | CUPTI_ACTIVITY_FLAG_MARKER_SYNC_ACQUIRE_SUCCESS |
        CUPTI_ACTIVITY_FLAG_MARKER_SYNC_ACQUIRE_FAILED | CUPTI_ACTIVITY_FLAG_MARKER_SYNC_RELEASE;
    sink.stats().Increment((flags & sync_flags) != 0 ? Stat::kCuptiUnstoredRecords
                                                     : Stat::kCuptiUnknownValues);
    return;
  }
  const std::optional<TimeNs> timestamp = PlaceInstant(marker.timestamp, sink.stats());
  if (!timestamp) return;
  record.timestamp = *timestamp;
  const HostThread thread = HostThreadOf(marker.objectKind, marker.objectId, context);
  record.pid = thread.pid;
  record.tid = thread.tid;
  record.category = records::RangeCategory::kNvtx;
  // Starts and ends pair by CUPTI's marker id, unique within the process; instants pair with
  // nothing.
  record.range_id = record.kind == records::MarkKind::kInstant ? 0 : marker.id;
  // A null domain is the default domain: the empty string.
  record.domain = context.names().Intern(marker.domain, sink.strings());
  // An end carries no name (CUPTI gives null); the model takes the start's.
  record.name = record.kind == records::MarkKind::kRangeEnd
                    ? base::kEmptyStringId
                    : RequiredName(marker.name, context.names(), sink);
  sink.Add(record);
}

// Payload, colour and category of an NVTX event: records::MarkRecord has no fields for them.
void ConvertMarkerData(const CUpti_ActivityMarkerData2& data, ConversionContext& context,
                       records::RecordSink& sink) {
  static_cast<void>(data);
  static_cast<void>(context);
  sink.stats().Increment(Stat::kCuptiUnstoredRecords);
}

void ConvertName(const CUpti_ActivityName& name, ConversionContext& context,
                 records::RecordSink& sink) {
  if (name.objectKind != CUPTI_ACTIVITY_OBJECT_THREAD) {
    // Names of processes, devices, contexts and streams (nvtxNameCudaStream, ...): no record holds
    // them.
    sink.stats().Increment(Stat::kCuptiUnstoredRecords);
    return;
  }
  if (name.name == nullptr) {  // a thread record without a name says nothing
    sink.stats().Increment(Stat::kCuptiMissingNames);
    return;
  }
  records::ThreadRecord record;
  record.pid = name.objectId.pt.processId != 0 ? name.objectId.pt.processId : context.pid();
  record.tid = name.objectId.pt.threadId;
  record.name = context.names().Intern(name.name, sink.strings());
  sink.Add(record);
}

void ConvertDevice(const CUpti_ActivityDevice5& device, ConversionContext& context,
                   records::RecordSink& sink) {
  records::DeviceRecord record;
  record.pid = context.pid();
  record.device_id = device.id;
  record.name = RequiredName(device.name, context.names(), sink);
  record.uuid = sink.strings().Intern(FormatGpuUuid(device.uuid.bytes));
  record.compute_major = device.computeCapabilityMajor;
  record.compute_minor = device.computeCapabilityMinor;
  record.sm_count = device.numMultiprocessors;
  record.global_memory_bytes = device.globalMemorySize;
  record.core_clock_khz = device.coreClockRate;  // CUPTI reports kHz
  sink.Add(record);
}

void ConvertContext(const CUpti_ActivityContext3& cuda_context, ConversionContext& context,
                    records::RecordSink& sink) {
  static_cast<void>(sink);
  context.NoteContextDevice(cuda_context.contextId, cuda_context.deviceId);
}

void ConvertOverhead(const CUpti_ActivityOverhead3& overhead, ConversionContext& context,
                     records::RecordSink& sink) {
  const std::optional<base::Interval> interval =
      PlaceInterval(overhead.start, overhead.end, sink.stats());
  if (!interval) return;
  records::OverheadRecord record;
  record.start = interval->start;
  record.end = interval->end;
  const HostThread thread = HostThreadOf(overhead.objectKind, overhead.objectId, context);
  record.pid = thread.pid;
  record.tid = thread.tid;
  record.kind =
      Known(OverheadKindOf(overhead.overheadKind), records::OverheadKind::kUnknown, sink.stats());
  sink.Add(record);
}

// Ids pushed with cuptiActivityPushExternalCorrelationId (Kineto's op ids): no record holds them
// yet. The model attributes kernels to PyTorch ops by thread and time (NVTX ranges), which needs no
// id.
void ConvertExternalCorrelation(const CUpti_ActivityExternalCorrelation& correlation,
                                ConversionContext& context, records::RecordSink& sink) {
  static_cast<void>(correlation);
  static_cast<void>(context);
  sink.stats().Increment(Stat::kCuptiUnstoredRecords);
}

// ---- Dispatch ----

void ConvertRecord(const CUpti_Activity* record, ConversionContext& context,
                   records::RecordSink& sink) {
  if (record == nullptr) return;
  switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:  // never enabled (it serialises kernels), but the same struct
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
      return ConvertKernel(As<CUpti_ActivityKernel10>(record), context, sink);
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER:
      return ConvertApiCall(As<CUpti_ActivityAPI>(record), context, sink);
    case CUPTI_ACTIVITY_KIND_MEMCPY:
      return ConvertMemcpy(As<CUpti_ActivityMemcpy6>(record), context, sink);
    case CUPTI_ACTIVITY_KIND_MEMCPY2:
      return ConvertPeerMemcpy(As<CUpti_ActivityMemcpyPtoP4>(record), context, sink);
    case CUPTI_ACTIVITY_KIND_MEMSET:
      return ConvertMemset(As<CUpti_ActivityMemset4>(record), context, sink);
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
      return ConvertSynchronization(As<CUpti_ActivitySynchronization2>(record), context, sink);
    case CUPTI_ACTIVITY_KIND_MEMORY2:
      return ConvertMemory(As<CUpti_ActivityMemory4>(record), context, sink);
    case CUPTI_ACTIVITY_KIND_MARKER:
      return ConvertMarker(As<CUpti_ActivityMarker2>(record), context, sink);
    case CUPTI_ACTIVITY_KIND_MARKER_DATA:
      return ConvertMarkerData(As<CUpti_ActivityMarkerData2>(record), context, sink);
    case CUPTI_ACTIVITY_KIND_NAME:
      return ConvertName(As<CUpti_ActivityName>(record), context, sink);
    case CUPTI_ACTIVITY_KIND_DEVICE:
      return ConvertDevice(As<CUpti_ActivityDevice5>(record), context, sink);
    case CUPTI_ACTIVITY_KIND_CONTEXT:
      return ConvertContext(As<CUpti_ActivityContext3>(record), context, sink);
    case CUPTI_ACTIVITY_KIND_OVERHEAD: {
      const auto& overhead = As<CUpti_ActivityOverhead3>(record);
      // CUPTI allocates the details of some overheads (COMMAND_BUFFER_FULL) for the client to free.
      // Freed before converting, so that nothing can skip it.
      std::free(overhead.overheadData);
      return ConvertOverhead(overhead, context, sink);
    }
    case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION:
      return ConvertExternalCorrelation(As<CUpti_ActivityExternalCorrelation>(record), context,
                                        sink);
    default: sink.stats().Increment(Stat::kCuptiUnknownRecordKinds); return;
  }
}

}  // namespace ampprof::cupti
