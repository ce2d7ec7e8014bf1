#include "collectors/cupti/api_callbacks.h"

#include <set>
#include <string>

#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>
#include <gtest/gtest.h>

namespace ampprof::cupti {
namespace {

TEST(WithoutVersionSuffixTest, StripsOnlyATrailingVersion) {
  static_assert(WithoutVersionSuffix("cudaLaunchKernel_v7000") == "cudaLaunchKernel");
  EXPECT_EQ(WithoutVersionSuffix("cuMemAlloc_v2"), "cuMemAlloc");
  EXPECT_EQ(WithoutVersionSuffix("cudaLaunchKernel_ptsz_v7000"), "cudaLaunchKernel_ptsz");
  EXPECT_EQ(WithoutVersionSuffix("cuMemcpyHtoDAsync_v2_ptsz"), "cuMemcpyHtoDAsync_v2_ptsz");
  EXPECT_EQ(WithoutVersionSuffix("cuLaunchKernelEx"), "cuLaunchKernelEx");
  EXPECT_EQ(WithoutVersionSuffix("cuMemcpy_v"), "cuMemcpy_v");
  EXPECT_EQ(WithoutVersionSuffix("x_vector"), "x_vector");
}

void ExpectWellFormed(std::span<const ApiCallback> table, std::string_view prefix) {
  ASSERT_FALSE(table.empty());
  for (size_t i = 1; i < table.size(); ++i) EXPECT_LT(table[i - 1].cbid, table[i].cbid);
  for (const ApiCallback& entry : table) {
    // __cudaLaunchKernel (what CUDA 13 compiles <<<...>>> to) is the one name with a leading "__".
    const std::string_view name = entry.name.substr(entry.name.rfind("__", 0) == 0 ? 2 : 0);
    EXPECT_EQ(name.substr(0, prefix.size()), prefix) << entry.name;
    EXPECT_EQ(WithoutVersionSuffix(entry.name), entry.name) << entry.name;
  }
}

TEST(ApiCallbacksTest, TablesAreSortedAndNamedLikeNsightSystems) {
  ExpectWellFormed(RuntimeApiCallbacks(), "cuda");
  ExpectWellFormed(DriverApiCallbacks(), "cu");
}

TEST(ApiCallbacksTest, EveryLookupAgreesWithTheTable) {
  for (const ApiCallback& entry : RuntimeApiCallbacks())
    EXPECT_EQ(RuntimeApiName(entry.cbid), entry.name);
  for (const ApiCallback& entry : DriverApiCallbacks())
    EXPECT_EQ(DriverApiName(entry.cbid), entry.name);
  EXPECT_EQ(RuntimeApiName(0), std::nullopt);
  EXPECT_EQ(DriverApiName(0), std::nullopt);
  EXPECT_EQ(RuntimeApiName(CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020), std::nullopt);
  EXPECT_EQ(DriverApiName(CUPTI_DRIVER_TRACE_CBID_cuCtxGetCurrent), std::nullopt);
  EXPECT_EQ(DriverApiName(0xFFFFFFFF), std::nullopt);
}

// The calls the analyses depend on, with the cbids CUPTI-NOTES.md lists (read from the 13.0
// headers).
TEST(ApiCallbacksTest, RecordsTheCallsTheAnalysesNeed) {
  EXPECT_EQ(RuntimeApiName(211), "cudaLaunchKernel");
  EXPECT_EQ(RuntimeApiName(430), "cudaLaunchKernelExC");
  EXPECT_EQ(RuntimeApiName(311), "cudaGraphLaunch");
  EXPECT_EQ(RuntimeApiName(41), "cudaMemcpyAsync");
  EXPECT_EQ(RuntimeApiName(51), "cudaMemsetAsync");
  EXPECT_EQ(RuntimeApiName(131), "cudaStreamSynchronize");
  EXPECT_EQ(RuntimeApiName(137), "cudaEventSynchronize");
  EXPECT_EQ(RuntimeApiName(165), "cudaDeviceSynchronize");
  EXPECT_EQ(RuntimeApiName(147), "cudaStreamWaitEvent");
  EXPECT_EQ(RuntimeApiName(20), "cudaMalloc");
  EXPECT_EQ(RuntimeApiName(22), "cudaFree");
  EXPECT_EQ(RuntimeApiName(373), "cudaMallocAsync");
  EXPECT_EQ(RuntimeApiName(CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000),
            "__cudaLaunchKernel");
  EXPECT_EQ(DriverApiName(307), "cuLaunchKernel");
  EXPECT_EQ(DriverApiName(652), "cuLaunchKernelEx");
  EXPECT_EQ(DriverApiName(514), "cuGraphLaunch");
  EXPECT_EQ(DriverApiName(243), "cuMemAlloc");
  EXPECT_EQ(DriverApiName(549), "cuMemCreate");
  EXPECT_EQ(DriverApiName(551), "cuMemMap");
  EXPECT_EQ(DriverApiName(552), "cuMemUnmap");
  EXPECT_EQ(DriverApiName(550), "cuMemRelease");
  EXPECT_EQ(DriverApiName(598), "cuMemAllocAsync");
  EXPECT_EQ(DriverApiName(126), "cuStreamSynchronize");
  EXPECT_EQ(DriverApiName(279), "cuMemcpyDtoHAsync");
}

TEST(ApiCallbacksTest, CbidsAreInsideTheHeadersRange) {
  for (const ApiCallback& entry : RuntimeApiCallbacks()) {
    EXPECT_GT(entry.cbid, 0u);
    EXPECT_LT(entry.cbid, static_cast<uint32_t>(CUPTI_RUNTIME_TRACE_CBID_SIZE));
  }
  for (const ApiCallback& entry : DriverApiCallbacks()) {
    EXPECT_GT(entry.cbid, 0u);
    EXPECT_LT(entry.cbid, static_cast<uint32_t>(CUPTI_DRIVER_TRACE_CBID_SIZE));
  }
}

}  // namespace
}  // namespace ampprof::cupti
