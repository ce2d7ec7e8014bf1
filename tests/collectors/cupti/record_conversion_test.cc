#include "collectors/cupti/record_conversion.h"

#include <cstdlib>
#include <cstring>
#include <string>

#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>
#include <gtest/gtest.h>

#include "tests/collectors/cupti/conversion_fixture.h"

// Conversion of the CUPTI records that time GPU and host work: kernels, API calls, copies and
// memsets (conversion_fixture.h says how records are fabricated). The other kinds:
// record_conversion_metadata_test.cc.

namespace ampprof::cupti {
namespace {

// ---- Kernels ----

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

// With AMPPROF_API_CALLS=all the collector names every other call through libcupti; the name loses
// its version suffix like the table's names, and a call the lookup cannot name keeps its cbid.
TEST_F(RecordConversionTest, ApiCallOutsideTheTableIsNamedByTheLookup) {
  context_.SetApiNameLookup(
      [](records::ApiDomain domain, uint32_t cbid) -> std::optional<std::string> {
        if (domain == records::ApiDomain::kRuntime && cbid == 138) return "cudaEventQuery_v3020";
        return std::nullopt;
      });
  Convert(SampleApiCall(CUPTI_ACTIVITY_KIND_RUNTIME, 138));  // cudaEventQuery: not in the table
  Convert(SampleApiCall(CUPTI_ACTIVITY_KIND_DRIVER, 100'000));
  ASSERT_EQ(set_.api_calls.size(), 2u);
  EXPECT_EQ(Text(set_.api_calls[0].name), "cudaEventQuery");
  EXPECT_EQ(Text(set_.api_calls[1].name), "driver API call (cbid 100000)");
  ExpectOnlyStats({{Stat::kCuptiUnknownValues, 1}});
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

}  // namespace
}  // namespace ampprof::cupti
