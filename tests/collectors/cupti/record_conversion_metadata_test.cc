// Conversion of the CUPTI records that describe rather than time GPU work: synchronisation, contexts,
// memory, NVTX, names, devices, overhead, external correlation, and the dispatcher's handling of kinds
// it does not convert. Kernels, API calls and copies: record_conversion_test.cc.

#include <cstdlib>
#include <cstring>
#include <string>

#include <gtest/gtest.h>

#include "tests/collectors/cupti/conversion_fixture.h"

namespace ampprof::cupti {
namespace {

// ---- Synchronisation, contexts, memory ----

CUpti_ActivitySynchronization2 SampleSync(CUpti_ActivitySynchronizationType type) {
  auto sync = Zeroed<CUpti_ActivitySynchronization2>(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION);
  sync.type = type;
  sync.start = 50'000;
  sync.end = 90'000;
  sync.correlationId = 600;
  sync.contextId = 3;
  sync.streamId = 7;
  sync.cudaEventId = CUPTI_SYNCHRONIZATION_INVALID_VALUE;
  sync.cudaEventSyncId = CUPTI_SYNCHRONIZATION_INVALID_VALUE;
  return sync;
}

CUpti_ActivityContext3 SampleContext(uint32_t context_id, uint32_t device_id) {
  auto context = Zeroed<CUpti_ActivityContext3>(CUPTI_ACTIVITY_KIND_CONTEXT);
  context.contextId = context_id;
  context.deviceId = device_id;
  context.nullStreamId = 7;
  return context;
}

TEST_F(RecordConversionTest, SynchronizationTakesItsDeviceFromTheContextRecord) {
  Convert(SampleContext(3, 1));
  EXPECT_EQ(set_.record_count(), 0u);  // a context is remembered, not recorded
  Convert(SampleSync(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE));
  ASSERT_EQ(set_.syncs.size(), 1u);
  const records::SyncRecord& sync = set_.syncs[0];
  EXPECT_EQ(sync.start, 50'000);
  EXPECT_EQ(sync.end, 90'000);
  EXPECT_EQ(sync.pid, kPid);
  EXPECT_EQ(sync.tid, 0u);  // the model takes it from the API call
  EXPECT_EQ(sync.device_id, 1u);
  EXPECT_EQ(sync.context_id, 3u);
  EXPECT_EQ(sync.stream_id, 7u);
  EXPECT_EQ(sync.correlation_id, 600u);
  EXPECT_EQ(sync.kind, records::SyncKind::kStreamSynchronize);
  EXPECT_EQ(sync.event_id, 0u);  // CUPTI's "not applicable"
  ExpectOnlyStats({});
}

TEST_F(RecordConversionTest, SynchronizationKinds) {
  Convert(SampleContext(3, 0));
  auto event_sync = SampleSync(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE);
  event_sync.streamId = CUPTI_SYNCHRONIZATION_INVALID_VALUE;
  event_sync.cudaEventId = 12;
  Convert(event_sync);
  Convert(SampleSync(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT));
  Convert(SampleSync(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE));
  Convert(SampleSync(static_cast<CUpti_ActivitySynchronizationType>(42)));
  ASSERT_EQ(set_.syncs.size(), 4u);
  EXPECT_EQ(set_.syncs[0].kind, records::SyncKind::kEventSynchronize);
  EXPECT_EQ(set_.syncs[0].stream_id, 0u);
  EXPECT_EQ(set_.syncs[0].event_id, 12u);
  EXPECT_EQ(set_.syncs[1].kind, records::SyncKind::kStreamWaitEvent);
  EXPECT_EQ(set_.syncs[2].kind, records::SyncKind::kContextSynchronize);
  EXPECT_EQ(set_.syncs[3].kind, records::SyncKind::kUnknown);
  ExpectOnlyStats({{Stat::kCuptiUnknownValues, 1}});
}

TEST_F(RecordConversionTest, SynchronizationInAnUnknownContextIsOnDeviceZero) {
  Convert(SampleSync(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE));
  ASSERT_EQ(set_.syncs.size(), 1u);
  EXPECT_EQ(set_.syncs[0].device_id, 0u);
  ExpectOnlyStats({{Stat::kCuptiUnknownValues, 1}});
}

CUpti_ActivityMemory4 SampleMemory(CUpti_ActivityMemoryOperationType operation) {
  auto memory = Zeroed<CUpti_ActivityMemory4>(CUPTI_ACTIVITY_KIND_MEMORY2);
  memory.memoryOperationType = operation;
  memory.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
  memory.correlationId = 31;
  memory.address = 0x7f00'0000'0000ULL;
  memory.bytes = 2u << 20;
  memory.timestamp = 60'000;
  memory.processId = kPid;
  memory.deviceId = 1;
  memory.contextId = 3;
  memory.streamId = 7;
  return memory;
}

TEST_F(RecordConversionTest, MemoryAllocationAndReleaseFieldByField) {
  Convert(SampleMemory(CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION));
  auto release = SampleMemory(CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE);
  release.timestamp = 70'000;
  release.processId = 0;
  Convert(release);
  ASSERT_EQ(set_.memory.size(), 2u);
  const records::MemoryRecord& allocation = set_.memory[0];
  EXPECT_EQ(allocation.timestamp, 60'000);
  EXPECT_EQ(allocation.pid, kPid);
  EXPECT_EQ(allocation.device_id, 1u);
  EXPECT_EQ(allocation.stream_id, 7u);
  EXPECT_EQ(allocation.operation, records::MemoryOperation::kAllocate);
  EXPECT_EQ(allocation.memory_kind, records::MemoryKind::kDevice);
  EXPECT_EQ(allocation.address, 0x7f00'0000'0000ULL);
  EXPECT_EQ(allocation.bytes, 2u << 20);
  EXPECT_EQ(set_.memory[1].operation, records::MemoryOperation::kRelease);
  EXPECT_EQ(set_.memory[1].timestamp, 70'000);
  EXPECT_EQ(set_.memory[1].pid, kPid);
  ExpectOnlyStats({});
}

TEST_F(RecordConversionTest, MemoryWithoutOperationOrTimestampIsDropped) {
  Convert(SampleMemory(CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_INVALID));
  auto untimed = SampleMemory(CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION);
  untimed.timestamp = 0;
  Convert(untimed);
  EXPECT_TRUE(set_.memory.empty());
  ExpectOnlyStats({{Stat::kCuptiUnknownValues, 1}, {Stat::kCuptiMissingTimestamps, 1}});
}

// ---- NVTX ----

CUpti_ActivityMarker2 SampleMarker(uint32_t flags, const char* name, const char* domain) {
  auto marker = Zeroed<CUpti_ActivityMarker2>(CUPTI_ACTIVITY_KIND_MARKER);
  marker.flags = static_cast<CUpti_ActivityFlag>(flags);
  marker.timestamp = 80'000;
  marker.id = 17;
  marker.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
  marker.objectId.pt.processId = kPid;
  marker.objectId.pt.threadId = 4300;
  marker.name = name;
  marker.domain = domain;
  return marker;
}

TEST_F(RecordConversionTest, NvtxRangeStartAndEnd) {
  Convert(SampleMarker(CUPTI_ACTIVITY_FLAG_MARKER_START, "aten::linear, seq = 12", nullptr));
  auto end = SampleMarker(CUPTI_ACTIVITY_FLAG_MARKER_END, nullptr, nullptr);
  end.timestamp = 85'000;
  Convert(end);
  ASSERT_EQ(set_.marks.size(), 2u);
  const records::MarkRecord& start = set_.marks[0];
  EXPECT_EQ(start.timestamp, 80'000);
  EXPECT_EQ(start.pid, kPid);
  EXPECT_EQ(start.tid, 4300u);
  EXPECT_EQ(start.kind, records::MarkKind::kRangeStart);
  EXPECT_EQ(start.category, records::RangeCategory::kNvtx);
  EXPECT_EQ(start.range_id, 17u);
  EXPECT_EQ(Text(start.domain), "");  // the default domain
  EXPECT_EQ(Text(start.name), "aten::linear, seq = 12");
  EXPECT_EQ(set_.marks[1].timestamp, 85'000);
  EXPECT_EQ(set_.marks[1].kind, records::MarkKind::kRangeEnd);
  EXPECT_EQ(set_.marks[1].range_id, 17u);
  EXPECT_EQ(set_.marks[1].name,
            base::kEmptyStringId);  // an end has no name: not counted as missing
  ExpectOnlyStats({});
}

TEST_F(RecordConversionTest, NvtxInstantMarkInADomain) {
  auto mark = SampleMarker(CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS, "step 3", "ampprof");
  mark.objectKind = CUPTI_ACTIVITY_OBJECT_PROCESS;
  mark.objectId.pt.threadId = 0;
  Convert(mark);
  ASSERT_EQ(set_.marks.size(), 1u);
  EXPECT_EQ(set_.marks[0].kind, records::MarkKind::kInstant);
  EXPECT_EQ(set_.marks[0].range_id, 0u);
  EXPECT_EQ(set_.marks[0].pid, kPid);
  EXPECT_EQ(set_.marks[0].tid, 0u);
  EXPECT_EQ(Text(set_.marks[0].domain), "ampprof");
  EXPECT_EQ(Text(set_.marks[0].name), "step 3");
}

TEST_F(RecordConversionTest, NvtxMarkersThatCannotBeStored) {
  Convert(SampleMarker(CUPTI_ACTIVITY_FLAG_MARKER_SYNC_ACQUIRE, "lock", nullptr));
  Convert(SampleMarker(0, "no flags", nullptr));
  Convert(
      SampleMarker(CUPTI_ACTIVITY_FLAG_MARKER_START, nullptr, nullptr));  // a start needs a name
  auto untimed = SampleMarker(CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS, "x", nullptr);
  untimed.timestamp = 0;
  Convert(untimed);
  ASSERT_EQ(set_.marks.size(), 1u);
  EXPECT_EQ(set_.marks[0].name, base::kEmptyStringId);
  ExpectOnlyStats({{Stat::kCuptiUnstoredRecords, 1},
                   {Stat::kCuptiUnknownValues, 1},
                   {Stat::kCuptiMissingNames, 1},
                   {Stat::kCuptiMissingTimestamps, 1}});
}

TEST_F(RecordConversionTest, NvtxMarkerDataIsCountedNotStored) {
  auto data = Zeroed<CUpti_ActivityMarkerData2>(CUPTI_ACTIVITY_KIND_MARKER_DATA);
  data.flags = CUPTI_ACTIVITY_FLAG_MARKER_COLOR_ARGB;
  data.id = 17;
  data.payloadKind = CUPTI_METRIC_VALUE_KIND_UINT64;
  data.payload.metricValueUint64 = 3;
  data.color = 0xFF00FF00;
  data.category = 2;
  Convert(data);
  EXPECT_EQ(set_.record_count(), 0u);
  ExpectOnlyStats({{Stat::kCuptiUnstoredRecords, 1}});
}

// ---- Names, devices, overhead, external correlation ----

CUpti_ActivityName SampleName(CUpti_ActivityObjectKind kind, const char* text) {
  auto name = Zeroed<CUpti_ActivityName>(CUPTI_ACTIVITY_KIND_NAME);
  name.objectKind = kind;
  name.objectId.pt.processId = kPid;
  name.objectId.pt.threadId = 4301;
  name.name = text;
  return name;
}

TEST_F(RecordConversionTest, ThreadNames) {
  Convert(SampleName(CUPTI_ACTIVITY_OBJECT_THREAD, "pt_autograd_0"));
  ASSERT_EQ(set_.threads.size(), 1u);
  EXPECT_EQ(set_.threads[0].pid, kPid);
  EXPECT_EQ(set_.threads[0].tid, 4301u);
  EXPECT_EQ(Text(set_.threads[0].name), "pt_autograd_0");
  ExpectOnlyStats({});
}

TEST_F(RecordConversionTest, OtherNamesAreCountedNotStored) {
  auto stream = SampleName(CUPTI_ACTIVITY_OBJECT_STREAM, "copy stream");
  stream.objectId.dcs = {0, 3, 13};
  Convert(stream);
  Convert(SampleName(CUPTI_ACTIVITY_OBJECT_DEVICE, "GPU A"));
  Convert(SampleName(CUPTI_ACTIVITY_OBJECT_THREAD, nullptr));
  EXPECT_EQ(set_.record_count(), 0u);
  ExpectOnlyStats({{Stat::kCuptiUnstoredRecords, 2}, {Stat::kCuptiMissingNames, 1}});
}

TEST_F(RecordConversionTest, DeviceFieldByField) {
  auto device = Zeroed<CUpti_ActivityDevice5>(CUPTI_ACTIVITY_KIND_DEVICE);
  device.globalMemorySize = 85'520'809'984ULL;
  device.coreClockRate = 1'980'000;
  device.numMultiprocessors = 132;
  device.computeCapabilityMajor = 9;
  device.computeCapabilityMinor = 0;
  device.id = 1;
  const unsigned char uuid[16] = {0x4f, 0x3c, 0x1d, 0x2e, 0x00, 0x11, 0x22, 0x33,
                                  0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xff};
  std::memcpy(device.uuid.bytes, uuid, sizeof(uuid));
  device.name = "NVIDIA H100 80GB HBM3";
  Convert(device);
  ASSERT_EQ(set_.devices.size(), 1u);
  const records::DeviceRecord& record = set_.devices[0];
  EXPECT_EQ(record.pid, kPid);
  EXPECT_EQ(record.device_id, 1u);
  EXPECT_EQ(Text(record.name), "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(Text(record.uuid), "GPU-4f3c1d2e-0011-2233-4455-66778899aaff");
  EXPECT_EQ(record.compute_major, 9u);
  EXPECT_EQ(record.compute_minor, 0u);
  EXPECT_EQ(record.sm_count, 132u);
  EXPECT_EQ(record.global_memory_bytes, 85'520'809'984ULL);
  EXPECT_EQ(record.core_clock_khz, 1'980'000u);
  ExpectOnlyStats({});
}

TEST_F(RecordConversionTest, OverheadFieldByFieldAndItsDataIsFreed) {
  auto overhead = Zeroed<CUpti_ActivityOverhead3>(CUPTI_ACTIVITY_KIND_OVERHEAD);
  overhead.overheadKind = CUPTI_ACTIVITY_OVERHEAD_COMMAND_BUFFER_FULL;
  overhead.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
  overhead.objectId.pt.processId = kPid;
  overhead.objectId.pt.threadId = 4300;
  overhead.start = 100'000;
  overhead.end = 100'500;
  overhead.correlationId = 42;
  // CUPTI mallocs these details for the client to free; the sanitizer build would report a leak.
  overhead.overheadData = std::calloc(1, sizeof(CUpti_ActivityOverheadCommandBufferFullData));
  Convert(overhead);
  ASSERT_EQ(set_.overheads.size(), 1u);
  const records::OverheadRecord& record = set_.overheads[0];
  EXPECT_EQ(record.start, 100'000);
  EXPECT_EQ(record.end, 100'500);
  EXPECT_EQ(record.pid, kPid);
  EXPECT_EQ(record.tid, 4300u);
  EXPECT_EQ(record.kind, records::OverheadKind::kCommandBufferFull);
  ExpectOnlyStats({});
}

TEST_F(RecordConversionTest, OverheadKinds) {
  const std::pair<CUpti_ActivityOverheadKind, records::OverheadKind> cases[] = {
      {CUPTI_ACTIVITY_OVERHEAD_DRIVER_COMPILER, records::OverheadKind::kDriverCompiler},
      {CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH, records::OverheadKind::kBufferFlush},
      {CUPTI_ACTIVITY_OVERHEAD_CUPTI_INSTRUMENTATION, records::OverheadKind::kInstrumentation},
      {CUPTI_ACTIVITY_OVERHEAD_CUPTI_RESOURCE, records::OverheadKind::kResource},
      {CUPTI_ACTIVITY_OVERHEAD_RUNTIME_TRIGGERED_MODULE_LOADING,
       records::OverheadKind::kModuleLoading},
      {CUPTI_ACTIVITY_OVERHEAD_LAZY_FUNCTION_LOADING, records::OverheadKind::kLazyFunctionLoading},
      {CUPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_REQUEST,
       records::OverheadKind::kActivityBufferRequest},
      {CUPTI_ACTIVITY_OVERHEAD_UVM_ACTIVITY_INIT, records::OverheadKind::kUnknown},
      {CUPTI_ACTIVITY_OVERHEAD_UNKNOWN, records::OverheadKind::kUnknown},
  };
  for (const auto& [cupti_kind, expected] : cases) {
    auto overhead = Zeroed<CUpti_ActivityOverhead3>(CUPTI_ACTIVITY_KIND_OVERHEAD);
    overhead.overheadKind = cupti_kind;
    overhead.start = 1;
    overhead.end = 2;
    Convert(overhead);
    ASSERT_FALSE(set_.overheads.empty());
    EXPECT_EQ(set_.overheads.back().kind, expected) << int{cupti_kind};
    EXPECT_EQ(set_.overheads.back().pid, kPid);  // no object: the traced process
  }
  auto odd = Zeroed<CUpti_ActivityOverhead3>(CUPTI_ACTIVITY_KIND_OVERHEAD);
  odd.overheadKind = static_cast<CUpti_ActivityOverheadKind>(99 << 16);
  odd.start = 1;
  odd.end = 2;
  Convert(odd);
  EXPECT_EQ(set_.overheads.back().kind, records::OverheadKind::kUnknown);
  ExpectOnlyStats({{Stat::kCuptiUnknownValues, 1}});
}

TEST_F(RecordConversionTest, ExternalCorrelationIsCountedNotStored) {
  auto correlation =
      Zeroed<CUpti_ActivityExternalCorrelation>(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION);
  correlation.externalKind = CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0;
  correlation.externalId = 123456;
  correlation.correlationId = 99;
  Convert(correlation);
  EXPECT_EQ(set_.record_count(), 0u);
  ExpectOnlyStats({{Stat::kCuptiUnstoredRecords, 1}});
}

// ---- The dispatcher ----

TEST_F(RecordConversionTest, UnknownKindsAreCountedNeverRead) {
  // Only `kind` is read: a record of a kind the collector does not know may be any size.
  CUpti_Activity pcie{CUPTI_ACTIVITY_KIND_PCIE};
  CUpti_Activity from_the_future{static_cast<CUpti_ActivityKind>(5000)};
  CUpti_Activity invalid{CUPTI_ACTIVITY_KIND_INVALID};
  ConvertRecord(&pcie, context_, set_);
  ConvertRecord(&from_the_future, context_, set_);
  ConvertRecord(&invalid, context_, set_);
  ConvertRecord(nullptr, context_, set_);
  EXPECT_EQ(set_.record_count(), 0u);
  ExpectOnlyStats({{Stat::kCuptiUnknownRecordKinds, 3}});
}

TEST_F(RecordConversionTest, ContextsServeOneSinkEach) {
  // The caches hold ids of one pool; given another sink, they start over instead of lending stale
  // ids.
  Convert(SampleKernel("_Z6kernelPf"));
  RecordSet other;
  other.strings().Intern("something else first");
  const auto kernel = SampleKernel("_Z6kernelPf");
  ConvertRecord(reinterpret_cast<const CUpti_Activity*>(&kernel), context_, other);
  ASSERT_EQ(other.kernels.size(), 1u);
  EXPECT_EQ(other.Text(other.kernels[0].name), "kernel(float*)");
}

}  // namespace
}  // namespace ampprof::cupti
