#include "collectors/cupti/api_callbacks.h"

#include <algorithm>
#include <array>

#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>

namespace ampprof::cupti {
namespace {

// One entry per recorded call, named by the header enumerator's suffix. Grouped by what the
// analyses use them for; the order here does not matter (the table is sorted at compile time).
#define AMPPROF_RUNTIME(suffix) \
  ApiCallback { CUPTI_RUNTIME_TRACE_CBID_##suffix, WithoutVersionSuffix(#suffix) }
#define AMPPROF_DRIVER(suffix) \
  ApiCallback { CUPTI_DRIVER_TRACE_CBID_##suffix, WithoutVersionSuffix(#suffix) }

constexpr ApiCallback kRuntimeEntries[] = {
    // Kernel launches. __cudaLaunchKernel is what CUDA 13's <<<...>>> compiles to.
    AMPPROF_RUNTIME(cudaLaunchKernel_v7000),
    AMPPROF_RUNTIME(cudaLaunchKernel_ptsz_v7000),
    AMPPROF_RUNTIME(cudaLaunchKernelExC_v11060),
    AMPPROF_RUNTIME(cudaLaunchKernelExC_ptsz_v11060),
    AMPPROF_RUNTIME(cudaLaunchCooperativeKernel_v9000),
    AMPPROF_RUNTIME(cudaLaunchCooperativeKernel_ptsz_v9000),
    AMPPROF_RUNTIME(__cudaLaunchKernel_v13000),
    AMPPROF_RUNTIME(__cudaLaunchKernel_ptsz_v13000),
    // CUDA graphs: the kernels of a graph correlate to its launch.
    AMPPROF_RUNTIME(cudaGraphLaunch_v10000),
    AMPPROF_RUNTIME(cudaGraphLaunch_ptsz_v10000),
    // Copies (.item(), .cpu(), .to(device) are cudaMemcpyAsync).
    AMPPROF_RUNTIME(cudaMemcpy_v3020),
    AMPPROF_RUNTIME(cudaMemcpyAsync_v3020),
    AMPPROF_RUNTIME(cudaMemcpy2D_v3020),
    AMPPROF_RUNTIME(cudaMemcpy2DAsync_v3020),
    AMPPROF_RUNTIME(cudaMemcpy3D_v3020),
    AMPPROF_RUNTIME(cudaMemcpy3DAsync_v3020),
    AMPPROF_RUNTIME(cudaMemcpyToSymbol_v3020),
    AMPPROF_RUNTIME(cudaMemcpyFromSymbol_v3020),
    AMPPROF_RUNTIME(cudaMemcpyToSymbolAsync_v3020),
    AMPPROF_RUNTIME(cudaMemcpyFromSymbolAsync_v3020),
    AMPPROF_RUNTIME(cudaMemcpyPeer_v4000),
    AMPPROF_RUNTIME(cudaMemcpyPeerAsync_v4000),
    AMPPROF_RUNTIME(cudaMemcpy_ptds_v7000),
    AMPPROF_RUNTIME(cudaMemcpyAsync_ptsz_v7000),
    AMPPROF_RUNTIME(cudaMemcpyBatchAsync_v13000),
    AMPPROF_RUNTIME(cudaMemcpyBatchAsync_ptsz_v13000),
    // Memsets.
    AMPPROF_RUNTIME(cudaMemset_v3020),
    AMPPROF_RUNTIME(cudaMemsetAsync_v3020),
    AMPPROF_RUNTIME(cudaMemset2D_v3020),
    AMPPROF_RUNTIME(cudaMemset2DAsync_v3020),
    AMPPROF_RUNTIME(cudaMemset_ptds_v7000),
    AMPPROF_RUNTIME(cudaMemsetAsync_ptsz_v7000),
    // Host waits on the GPU.
    AMPPROF_RUNTIME(cudaDeviceSynchronize_v3020),
    AMPPROF_RUNTIME(cudaStreamSynchronize_v3020),
    AMPPROF_RUNTIME(cudaStreamSynchronize_ptsz_v7000),
    AMPPROF_RUNTIME(cudaEventSynchronize_v3020),
    AMPPROF_RUNTIME(cudaStreamWaitEvent_v3020),
    AMPPROF_RUNTIME(cudaStreamWaitEvent_ptsz_v7000),
    // Allocation: PyTorch's caching allocator calls cudaMalloc as it grows (or cudaMallocAsync).
    AMPPROF_RUNTIME(cudaMalloc_v3020),
    AMPPROF_RUNTIME(cudaFree_v3020),
    AMPPROF_RUNTIME(cudaMallocPitch_v3020),
    AMPPROF_RUNTIME(cudaMallocHost_v3020),
    AMPPROF_RUNTIME(cudaFreeHost_v3020),
    AMPPROF_RUNTIME(cudaHostAlloc_v3020),
    AMPPROF_RUNTIME(cudaMallocManaged_v6000),
    AMPPROF_RUNTIME(cudaMallocAsync_v11020),
    AMPPROF_RUNTIME(cudaMallocAsync_ptsz_v11020),
    AMPPROF_RUNTIME(cudaFreeAsync_v11020),
    AMPPROF_RUNTIME(cudaFreeAsync_ptsz_v11020),
    AMPPROF_RUNTIME(cudaMallocFromPoolAsync_v11020),
    AMPPROF_RUNTIME(cudaMallocFromPoolAsync_ptsz_v11020),
};

constexpr ApiCallback kDriverEntries[] = {
    // Kernel launches: Triton, cuBLASLt (nvjet) and others launch with cuLaunchKernel(Ex).
    AMPPROF_DRIVER(cuLaunchKernel),
    AMPPROF_DRIVER(cuLaunchKernel_ptsz),
    AMPPROF_DRIVER(cuLaunchKernelEx),
    AMPPROF_DRIVER(cuLaunchKernelEx_ptsz),
    AMPPROF_DRIVER(cuLaunchCooperativeKernel),
    AMPPROF_DRIVER(cuLaunchCooperativeKernel_ptsz),
    AMPPROF_DRIVER(cuGraphLaunch),
    AMPPROF_DRIVER(cuGraphLaunch_ptsz),
    // Copies.
    AMPPROF_DRIVER(cuMemcpy),
    AMPPROF_DRIVER(cuMemcpyAsync),
    AMPPROF_DRIVER(cuMemcpyAsync_ptsz),
    AMPPROF_DRIVER(cuMemcpyHtoD_v2),
    AMPPROF_DRIVER(cuMemcpyHtoDAsync_v2),
    AMPPROF_DRIVER(cuMemcpyHtoDAsync_v2_ptsz),
    AMPPROF_DRIVER(cuMemcpyDtoH_v2),
    AMPPROF_DRIVER(cuMemcpyDtoHAsync_v2),
    AMPPROF_DRIVER(cuMemcpyDtoHAsync_v2_ptsz),
    AMPPROF_DRIVER(cuMemcpyDtoD_v2),
    AMPPROF_DRIVER(cuMemcpyDtoDAsync_v2),
    AMPPROF_DRIVER(cuMemcpyDtoDAsync_v2_ptsz),
    AMPPROF_DRIVER(cuMemcpy2D_v2),
    AMPPROF_DRIVER(cuMemcpy2DAsync_v2),
    AMPPROF_DRIVER(cuMemcpy3D_v2),
    AMPPROF_DRIVER(cuMemcpy3DAsync_v2),
    AMPPROF_DRIVER(cuMemcpyPeer),
    AMPPROF_DRIVER(cuMemcpyPeerAsync),
    AMPPROF_DRIVER(cuMemcpyBatchAsync_v2),
    // Memsets.
    AMPPROF_DRIVER(cuMemsetD8_v2),
    AMPPROF_DRIVER(cuMemsetD16_v2),
    AMPPROF_DRIVER(cuMemsetD32_v2),
    AMPPROF_DRIVER(cuMemsetD8Async),
    AMPPROF_DRIVER(cuMemsetD16Async),
    AMPPROF_DRIVER(cuMemsetD32Async),
    AMPPROF_DRIVER(cuMemsetD8Async_ptsz),
    AMPPROF_DRIVER(cuMemsetD16Async_ptsz),
    AMPPROF_DRIVER(cuMemsetD32Async_ptsz),
    // Host waits on the GPU.
    AMPPROF_DRIVER(cuCtxSynchronize),
    AMPPROF_DRIVER(cuCtxSynchronize_v2),
    AMPPROF_DRIVER(cuStreamSynchronize),
    AMPPROF_DRIVER(cuStreamSynchronize_ptsz),
    AMPPROF_DRIVER(cuEventSynchronize),
    AMPPROF_DRIVER(cuStreamWaitEvent),
    AMPPROF_DRIVER(cuStreamWaitEvent_ptsz),
    // Allocation.
    AMPPROF_DRIVER(cuMemAlloc_v2),
    AMPPROF_DRIVER(cuMemFree_v2),
    AMPPROF_DRIVER(cuMemAllocPitch_v2),
    AMPPROF_DRIVER(cuMemAllocHost_v2),
    AMPPROF_DRIVER(cuMemFreeHost),
    AMPPROF_DRIVER(cuMemHostAlloc),
    AMPPROF_DRIVER(cuMemAllocManaged),
    AMPPROF_DRIVER(cuMemAllocAsync),
    AMPPROF_DRIVER(cuMemAllocAsync_ptsz),
    AMPPROF_DRIVER(cuMemFreeAsync),
    AMPPROF_DRIVER(cuMemFreeAsync_ptsz),
    AMPPROF_DRIVER(cuMemAllocFromPoolAsync),
    AMPPROF_DRIVER(cuMemAllocFromPoolAsync_ptsz),
    // Virtual memory management (PyTorch's expandable segments, other caching allocators).
    AMPPROF_DRIVER(cuMemAddressReserve),
    AMPPROF_DRIVER(cuMemAddressFree),
    AMPPROF_DRIVER(cuMemCreate),
    AMPPROF_DRIVER(cuMemRelease),
    AMPPROF_DRIVER(cuMemMap),
    AMPPROF_DRIVER(cuMemUnmap),
    AMPPROF_DRIVER(cuMemSetAccess),
    AMPPROF_DRIVER(cuMemExportToShareableHandle),
    AMPPROF_DRIVER(cuMemImportFromShareableHandle),
};

#undef AMPPROF_RUNTIME
#undef AMPPROF_DRIVER

template <size_t N>
consteval std::array<ApiCallback, N> SortedByCbid(const ApiCallback (&entries)[N]) {
  std::array<ApiCallback, N> sorted{};
  std::copy(std::begin(entries), std::end(entries), sorted.begin());
  std::sort(sorted.begin(), sorted.end(),
            [](const ApiCallback& a, const ApiCallback& b) { return a.cbid < b.cbid; });
  return sorted;
}

template <size_t N>
consteval bool CbidsUnique(const std::array<ApiCallback, N>& sorted) {
  for (size_t i = 1; i < N; ++i) {
    if (sorted[i - 1].cbid == sorted[i].cbid) return false;
  }
  return true;
}

constexpr auto kRuntime = SortedByCbid(kRuntimeEntries);
constexpr auto kDriver = SortedByCbid(kDriverEntries);
static_assert(CbidsUnique(kRuntime), "a runtime cbid is listed twice");
static_assert(CbidsUnique(kDriver), "a driver cbid is listed twice");

std::optional<std::string_view> Find(std::span<const ApiCallback> table, uint32_t cbid) {
  const auto it =
      std::lower_bound(table.begin(), table.end(), cbid,
                       [](const ApiCallback& entry, uint32_t id) { return entry.cbid < id; });
  if (it == table.end() || it->cbid != cbid) return std::nullopt;
  return it->name;
}

}  // namespace

std::span<const ApiCallback> RuntimeApiCallbacks() { return kRuntime; }
std::span<const ApiCallback> DriverApiCallbacks() { return kDriver; }

std::optional<std::string_view> RuntimeApiName(uint32_t cbid) { return Find(kRuntime, cbid); }
std::optional<std::string_view> DriverApiName(uint32_t cbid) { return Find(kDriver, cbid); }

}  // namespace ampprof::cupti
