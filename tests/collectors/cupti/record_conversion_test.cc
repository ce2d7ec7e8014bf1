#include "collectors/cupti/record_conversion.h"

#include <cstdlib>
#include <cstring>
#include <string>

#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>
#include <gtest/gtest.h>

#include "collectors/records/record_set.h"

// CUPTI records are fabricated here the way CUPTI fills them: a zeroed struct of the version this
// header defines, with the kind and the fields under test set. Each goes through ConvertRecord, the
// dispatcher the collector calls, so that the kind -> struct mapping is tested along with the
// fields.

namespace ampprof::cupti {
namespace {

using base::Stat;
using records::RecordSet;

constexpr uint32_t kPid = 4242;

template <typename Record>
Record Zeroed(CUpti_ActivityKind kind) {
  Record record;
  std::memset(&record, 0, sizeof(record));
  record.kind = kind;
  return record;
}

class RecordConversionTest : public ::testing::Test {
 protected:
  template <typename Record>
  void Convert(const Record& record) {
    ConvertRecord(reinterpret_cast<const CUpti_Activity*>(&record), context_, set_);
  }
  int64_t StatValue(Stat stat) const { return set_.stats().Get(stat); }
  std::string_view Text(base::StringId id) const { return set_.Text(id); }
  // Only the stats named are non-zero.
  void ExpectOnlyStats(std::initializer_list<std::pair<Stat, int64_t>> expected) const {
    base::Stats wanted;
    for (const auto& [stat, value] : expected) wanted.Set(stat, value);
    for (const base::StatEntry& entry : set_.stats().NonZero()) {
      EXPECT_EQ(entry.value, wanted.Get(entry.stat)) << entry.info->name;
    }
    for (const base::StatEntry& entry : wanted.NonZero()) {
      EXPECT_EQ(set_.stats().Get(entry.stat), entry.value) << entry.info->name;
    }
  }

  ConversionContext context_{kPid};
  RecordSet set_;
};

// ---- Kernels ----

CUpti_ActivityKernel10 SampleKernel(const char* name) {
  auto kernel = Zeroed<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  kernel.start = 1'700'000'000'000'000'000;
  kernel.end = 1'700'000'000'000'012'345;
  kernel.deviceId = 1;
  kernel.contextId = 3;
  kernel.streamId = 7;
  kernel.correlationId = 99;
  kernel.name = name;
  kernel.gridX = 128;
  kernel.gridY = 2;
  kernel.gridZ = 1;
  kernel.blockX = 256;
  kernel.blockY = 1;
  kernel.blockZ = 1;
  kernel.registersPerThread = 40;
  kernel.staticSharedMemory = 1024;
  kernel.dynamicSharedMemory = 49152;
  kernel.graphId = 5;
  kernel.graphNodeId = 0x1234'5678'9abcULL;
  kernel.channelID = 3;  // no field in KernelRecord: not kept
  return kernel;
}

TEST_F(RecordConversionTest, KernelFieldByField) {
  Convert(
      SampleKernel("_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_"
                   "11FillFunctorIfEESt5arrayIPcLm1EEEEviT0_T1_"));
  ASSERT_EQ(set_.kernels.size(), 1u);
  const records::KernelRecord& kernel = set_.kernels[0];
  EXPECT_EQ(kernel.start, 1'700'000'000'000'000'000);
  EXPECT_EQ(kernel.end, 1'700'000'000'000'012'345);
  EXPECT_EQ(kernel.pid, kPid);
  EXPECT_EQ(kernel.device_id, 1u);
  EXPECT_EQ(kernel.context_id, 3u);
  EXPECT_EQ(kernel.stream_id, 7u);
  EXPECT_EQ(kernel.correlation_id, 99u);
  EXPECT_EQ(
      Text(kernel.name),  // libstdc++'s spelling, which the kernel classifier accepts
      "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
      "std::array<char*, 1ul> >(int, at::native::FillFunctor<float>, std::array<char*, 1ul>)");
  EXPECT_EQ(kernel.grid_x, 128u);
  EXPECT_EQ(kernel.grid_y, 2u);
  EXPECT_EQ(kernel.grid_z, 1u);
  EXPECT_EQ(kernel.block_x, 256u);
  EXPECT_EQ(kernel.block_y, 1u);
  EXPECT_EQ(kernel.block_z, 1u);
  EXPECT_EQ(kernel.registers_per_thread, 40u);
  EXPECT_EQ(kernel.static_shared_bytes, 1024u);
  EXPECT_EQ(kernel.dynamic_shared_bytes, 49152u);
  EXPECT_EQ(kernel.graph_id, 5u);
  EXPECT_EQ(kernel.graph_node_id, 0x1234'5678'9abcULL);
  ExpectOnlyStats({});
}

TEST_F(RecordConversionTest, SerialKernelKindUsesTheSameStruct) {
  auto kernel = SampleKernel("volta_sgemm_128x64_nn");
  kernel.kind = CUPTI_ACTIVITY_KIND_KERNEL;
  Convert(kernel);
  ASSERT_EQ(set_.kernels.size(), 1u);
  EXPECT_EQ(Text(set_.kernels[0].name), "volta_sgemm_128x64_nn");
}

TEST_F(RecordConversionTest, KernelWithoutTimestampsIsKeptForTheModelToCount) {
  auto kernel = SampleKernel("nvjet_hsh_192x192_64x3_2x1_v_bz_coopB_NTN");
  kernel.start = 0;
  kernel.end = 0;
  Convert(kernel);
  auto half = SampleKernel("nvjet_hsh_192x192_64x3_2x1_v_bz_coopB_NTN");
  half.end = 0;  // one timestamp missing is as good as both
  Convert(half);
  ASSERT_EQ(set_.kernels.size(), 2u);
  for (const auto& record : set_.kernels) {
    EXPECT_EQ(record.start, 0);
    EXPECT_EQ(record.end, 0);
    EXPECT_EQ(record.correlation_id, 99u);
  }
  ExpectOnlyStats({});  // kernel_missing_timestamps is the model's to count, once
}

TEST_F(RecordConversionTest, KernelEndBeforeStartIsRepairedAndCounted) {
  auto kernel = SampleKernel("k");
  kernel.start = 5'000;
  kernel.end = 4'000;
  Convert(kernel);
  ASSERT_EQ(set_.kernels.size(), 1u);
  EXPECT_EQ(set_.kernels[0].start, 5'000);
  EXPECT_EQ(set_.kernels[0].end, 5'000);
  ExpectOnlyStats({{Stat::kRecordNegativeDuration, 1}});
}

TEST_F(RecordConversionTest, KernelTimeOutOfRangeIsDropped) {
  auto kernel = SampleKernel("k");
  kernel.end = uint64_t{1} << 63;  // would be negative as int64
  Convert(kernel);
  EXPECT_TRUE(set_.kernels.empty());
  ExpectOnlyStats({{Stat::kRecordTimeOutOfRange, 1}});
}

TEST_F(RecordConversionTest, KernelNegativeShapeValuesBecomeZero) {
  auto kernel = SampleKernel("k");
  kernel.gridX = -1;
  kernel.dynamicSharedMemory = -5;
  Convert(kernel);
  ASSERT_EQ(set_.kernels.size(), 1u);
  EXPECT_EQ(set_.kernels[0].grid_x, 0u);
  EXPECT_EQ(set_.kernels[0].dynamic_shared_bytes, 0u);
}

TEST_F(RecordConversionTest, KernelWithoutNameIsKeptAndCounted) {
  Convert(SampleKernel(nullptr));
  ASSERT_EQ(set_.kernels.size(), 1u);
  EXPECT_EQ(set_.kernels[0].name, base::kEmptyStringId);
  ExpectOnlyStats({{Stat::kCuptiMissingNames, 1}});
}

TEST_F(RecordConversionTest, KernelNamesAreDemangledOncePerDistinctName) {
  const char* mangled = "_Z6kernelPf";
  const std::string same_text_elsewhere = mangled;  // the module was reloaded: a new pointer
  for (int i = 0; i < 3; ++i) Convert(SampleKernel(mangled));
  Convert(SampleKernel(same_text_elsewhere.c_str()));
  ASSERT_EQ(set_.kernels.size(), 4u);
  for (const auto& kernel : set_.kernels) EXPECT_EQ(Text(kernel.name), "kernel(float*)");
  EXPECT_EQ(context_.kernel_names().demangler_calls(), 1u);
}

TEST_F(RecordConversionTest, ReusedNameAddressIsNotTrusted) {
  // CUPTI freed a kernel name and a later name got the same address: the cache must see the new
  // bytes.
  char name[32] = "_Z5firstv";
  Convert(SampleKernel(name));
  std::strcpy(name, "_Z6secondv");
  Convert(SampleKernel(name));
  ASSERT_EQ(set_.kernels.size(), 2u);
  EXPECT_EQ(Text(set_.kernels[0].name), "first()");
  EXPECT_EQ(Text(set_.kernels[1].name), "second()");
}

// ---- API calls ----

CUpti_ActivityAPI SampleApiCall(CUpti_ActivityKind kind, uint32_t cbid) {
  auto call = Zeroed<CUpti_ActivityAPI>(kind);
  call.cbid = cbid;
  call.start = 1'000;
  call.end = 3'500;
  call.processId = kPid;
  call.threadId = 4300;
  call.correlationId = 99;
  call.returnValue = 0;
  return call;
}

TEST_F(RecordConversionTest, RuntimeApiCallFieldByField) {
  auto call =
      SampleApiCall(CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000);
  call.returnValue = 2;  // cudaErrorMemoryAllocation
  Convert(call);
  ASSERT_EQ(set_.api_calls.size(), 1u);
  const records::ApiCallRecord& record = set_.api_calls[0];
  EXPECT_EQ(record.start, 1'000);
  EXPECT_EQ(record.end, 3'500);
  EXPECT_EQ(record.pid, kPid);
  EXPECT_EQ(record.tid, 4300u);
  EXPECT_EQ(record.correlation_id, 99u);
  EXPECT_EQ(record.domain, records::ApiDomain::kRuntime);
  EXPECT_EQ(record.callback_id, 211u);
  EXPECT_EQ(Text(record.name), "cudaLaunchKernel");
  EXPECT_EQ(record.return_code, 2);
  ExpectOnlyStats({});
}

TEST_F(RecordConversionTest, DriverApiCalls) {
  Convert(SampleApiCall(CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx));
  Convert(SampleApiCall(CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2));
  Convert(SampleApiCall(CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch));
  ASSERT_EQ(set_.api_calls.size(), 3u);
  EXPECT_EQ(set_.api_calls[0].domain, records::ApiDomain::kDriver);
  EXPECT_EQ(Text(set_.api_calls[0].name), "cuLaunchKernelEx");
  EXPECT_EQ(Text(set_.api_calls[1].name), "cuMemAlloc");
  EXPECT_EQ(Text(set_.api_calls[2].name), "cuGraphLaunch");
  ExpectOnlyStats({});
}

TEST_F(RecordConversionTest, ApiCallOutsideTheTableKeepsItsCbid) {
  auto call =
      SampleApiCall(CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceCount_v3020);
  call.processId = 0;  // the process then comes from the context
  Convert(call);
  Convert(SampleApiCall(CUPTI_ACTIVITY_KIND_DRIVER, 100'000));  // a cbid from a newer CUPTI
  ASSERT_EQ(set_.api_calls.size(), 2u);
  EXPECT_EQ(Text(set_.api_calls[0].name), "runtime API call (cbid 3)");
  EXPECT_EQ(set_.api_calls[0].callback_id, 3u);
  EXPECT_EQ(set_.api_calls[0].pid, kPid);
  EXPECT_EQ(Text(set_.api_calls[1].name), "driver API call (cbid 100000)");
  ExpectOnlyStats({{Stat::kCuptiUnknownValues, 2}});
}

TEST_F(RecordConversionTest, ApiCallWithoutTimestampsIsDropped) {
  auto call =
      SampleApiCall(CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000);
  call.start = 0;
  Convert(call);
  EXPECT_TRUE(set_.api_calls.empty());
  ExpectOnlyStats({{Stat::kCuptiMissingTimestamps, 1}});
}

// ---- Copies and memsets ----

CUpti_ActivityMemcpy6 SampleMemcpy() {
  auto copy = Zeroed<CUpti_ActivityMemcpy6>(CUPTI_ACTIVITY_KIND_MEMCPY);
  copy.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_DTOH;
  copy.srcKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
  copy.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_PINNED;
  copy.flags = CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC;
  copy.bytes = 4;  // GradScaler's found_inf .item()
  copy.start = 10'000;
  copy.end = 12'000;
  copy.deviceId = 0;
  copy.contextId = 1;
  copy.streamId = 7;
  copy.correlationId = 500;
  copy.runtimeCorrelationId = 499;
  copy.copyCount = 1;
  return copy;
}

TEST_F(RecordConversionTest, MemcpyFieldByField) {
  Convert(SampleMemcpy());
  ASSERT_EQ(set_.memcpys.size(), 1u);
  const records::MemcpyRecord& copy = set_.memcpys[0];
  EXPECT_EQ(copy.start, 10'000);
  EXPECT_EQ(copy.end, 12'000);
  EXPECT_EQ(copy.pid, kPid);
  EXPECT_EQ(copy.device_id, 0u);
  EXPECT_EQ(copy.context_id, 1u);
  EXPECT_EQ(copy.stream_id, 7u);
  EXPECT_EQ(copy.correlation_id, 499u);  // the runtime call's
  EXPECT_EQ(copy.kind, records::MemcpyKind::kDeviceToHost);
  EXPECT_EQ(copy.src_kind, records::MemoryKind::kDevice);
  EXPECT_EQ(copy.dst_kind, records::MemoryKind::kPinned);
  EXPECT_EQ(copy.is_async, 1);
  EXPECT_EQ(copy.bytes, 4u);
  EXPECT_EQ(copy.peer_device_id, 0u);
  ExpectOnlyStats({});
}

TEST_F(RecordConversionTest, MemcpyKindsFoldLikeTheNsysImporter) {
  const std::pair<CUpti_ActivityMemcpyKind, records::MemcpyKind> cases[] = {
      {CUPTI_ACTIVITY_MEMCPY_KIND_HTOD, records::MemcpyKind::kHostToDevice},
      {CUPTI_ACTIVITY_MEMCPY_KIND_HTOA, records::MemcpyKind::kHostToDevice},
      {CUPTI_ACTIVITY_MEMCPY_KIND_ATOH, records::MemcpyKind::kDeviceToHost},
      {CUPTI_ACTIVITY_MEMCPY_KIND_DTOD, records::MemcpyKind::kDeviceToDevice},
      {CUPTI_ACTIVITY_MEMCPY_KIND_ATOD, records::MemcpyKind::kDeviceToDevice},
      {CUPTI_ACTIVITY_MEMCPY_KIND_HTOH, records::MemcpyKind::kHostToHost},
      {CUPTI_ACTIVITY_MEMCPY_KIND_PTOP, records::MemcpyKind::kPeerToPeer},
      {CUPTI_ACTIVITY_MEMCPY_KIND_UNKNOWN, records::MemcpyKind::kUnknown},
  };
  for (const auto& [cupti_kind, expected] : cases) {
    auto copy = SampleMemcpy();
    copy.copyKind = static_cast<uint8_t>(cupti_kind);
    copy.srcKind = CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC;
    copy.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_ARRAY;
    Convert(copy);
    ASSERT_FALSE(set_.memcpys.empty());
    EXPECT_EQ(set_.memcpys.back().kind, expected) << int{cupti_kind};
    EXPECT_EQ(set_.memcpys.back().src_kind, records::MemoryKind::kManaged);
    EXPECT_EQ(set_.memcpys.back().dst_kind, records::MemoryKind::kArray);
  }
  ExpectOnlyStats({});
}

TEST_F(RecordConversionTest, MemcpyFromTheDriverApiUsesTheDriverCorrelation) {
  auto copy = SampleMemcpy();
  copy.runtimeCorrelationId = 0;
  copy.flags = 0;
  Convert(copy);
  ASSERT_EQ(set_.memcpys.size(), 1u);
  EXPECT_EQ(set_.memcpys[0].correlation_id, 500u);
  EXPECT_EQ(set_.memcpys[0].is_async, 0);
}

TEST_F(RecordConversionTest, MemcpyUnknownEnumValuesAreCounted) {
  auto copy = SampleMemcpy();
  copy.copyKind = 200;
  copy.srcKind = 77;
  Convert(copy);
  ASSERT_EQ(set_.memcpys.size(), 1u);
  EXPECT_EQ(set_.memcpys[0].kind, records::MemcpyKind::kUnknown);
  EXPECT_EQ(set_.memcpys[0].src_kind, records::MemoryKind::kUnknown);
  EXPECT_EQ(set_.memcpys[0].dst_kind, records::MemoryKind::kPinned);
  ExpectOnlyStats({{Stat::kCuptiUnknownValues, 2}});
}

TEST_F(RecordConversionTest, MemcpyWithoutTimestampsIsDropped) {
  auto copy = SampleMemcpy();
  copy.start = 0;
  copy.end = 0;
  Convert(copy);
  EXPECT_TRUE(set_.memcpys.empty());
  ExpectOnlyStats({{Stat::kCuptiMissingTimestamps, 1}});
}

CUpti_ActivityMemcpyPtoP4 SamplePeerCopy() {
  auto copy = Zeroed<CUpti_ActivityMemcpyPtoP4>(CUPTI_ACTIVITY_KIND_MEMCPY2);
  copy.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_PTOP;
  copy.srcKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
  copy.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
  copy.flags = CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC;
  copy.bytes = 1 << 20;
  copy.start = 20'000;
  copy.end = 30'000;
  copy.deviceId = 0;
  copy.contextId = 1;
  copy.streamId = 13;
  copy.srcDeviceId = 0;
  copy.srcContextId = 1;
  copy.dstDeviceId = 1;
  copy.dstContextId = 2;
  copy.correlationId = 77;
  return copy;
}

TEST_F(RecordConversionTest, PeerMemcpyFieldByField) {
  Convert(SamplePeerCopy());
  auto pulled = SamplePeerCopy();  // runs on device 1, reads device 2's memory
  pulled.deviceId = 1;
  pulled.srcDeviceId = 2;
  pulled.dstDeviceId = 1;
  pulled.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_UNKNOWN;
  Convert(pulled);
  ASSERT_EQ(set_.memcpys.size(), 2u);
  const records::MemcpyRecord& copy = set_.memcpys[0];
  EXPECT_EQ(copy.start, 20'000);
  EXPECT_EQ(copy.end, 30'000);
  EXPECT_EQ(copy.pid, kPid);
  EXPECT_EQ(copy.device_id, 0u);
  EXPECT_EQ(copy.context_id, 1u);
  EXPECT_EQ(copy.stream_id, 13u);
  EXPECT_EQ(copy.correlation_id, 77u);
  EXPECT_EQ(copy.kind, records::MemcpyKind::kPeerToPeer);
  EXPECT_EQ(copy.src_kind, records::MemoryKind::kDevice);
  EXPECT_EQ(copy.dst_kind, records::MemoryKind::kDevice);
  EXPECT_EQ(copy.is_async, 1);
  EXPECT_EQ(copy.bytes, 1u << 20);
  EXPECT_EQ(copy.peer_device_id, 1u);
  EXPECT_EQ(set_.memcpys[1].device_id, 1u);
  EXPECT_EQ(set_.memcpys[1].peer_device_id, 2u);
  EXPECT_EQ(set_.memcpys[1].kind,
            records::MemcpyKind::kPeerToPeer);  // MEMCPY2 is peer by definition
  ExpectOnlyStats({});
}

TEST_F(RecordConversionTest, MemsetFieldByField) {
  auto memset = Zeroed<CUpti_ActivityMemset4>(CUPTI_ACTIVITY_KIND_MEMSET);
  memset.value = 0xAB;
  memset.bytes = 4096;
  memset.start = 40'000;
  memset.end = 41'000;
  memset.deviceId = 2;
  memset.contextId = 3;
  memset.streamId = 9;
  memset.correlationId = 1234;
  memset.flags = CUPTI_ACTIVITY_FLAG_MEMSET_ASYNC;
  memset.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
  Convert(memset);
  ASSERT_EQ(set_.memsets.size(), 1u);
  const records::MemsetRecord& record = set_.memsets[0];
  EXPECT_EQ(record.start, 40'000);
  EXPECT_EQ(record.end, 41'000);
  EXPECT_EQ(record.pid, kPid);
  EXPECT_EQ(record.device_id, 2u);
  EXPECT_EQ(record.context_id, 3u);
  EXPECT_EQ(record.stream_id, 9u);
  EXPECT_EQ(record.correlation_id, 1234u);
  EXPECT_EQ(record.memory_kind, records::MemoryKind::kDevice);
  EXPECT_EQ(record.is_async, 1);
  EXPECT_EQ(record.bytes, 4096u);
  EXPECT_EQ(record.value, 0xABu);
  ExpectOnlyStats({});
}

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
