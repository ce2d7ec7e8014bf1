#ifndef AMPPROF_COLLECTORS_CUPTI_API_CALLBACKS_H_
#define AMPPROF_COLLECTORS_CUPTI_API_CALLBACKS_H_

// The CUDA runtime and driver API calls the collector records, by CUPTI callback id (cbid).
//
// This table IS the filter: the injection enables activity records for exactly these cbids
// (cuptiActivityEnableRuntimeApi / cuptiActivityEnableDriverApi, without enabling the whole RUNTIME
// or DRIVER kind), so the trace holds the calls the analyses need and nothing else: kernel launches
// (also cuLaunchKernelEx, which Triton and cuBLASLt's nvjet kernels use, and graph launches),
// copies, memsets, synchronisations, allocations and frees, and the virtual memory management calls
// of caching allocators. Every other API call (cudaGetDevice, cuCtxGetCurrent, ...) costs CUPTI a
// record each and tells us nothing.
//
// Names come from the cbid headers (cupti_runtime_cbid.h, cupti_driver_cbid.h) at compile time:
// each entry names the header's enumerator, so a cbid CUPTI renames or removes fails the build, and
// the name is the enumerator's with its trailing "_v<digits>" version suffix removed, as Nsight
// Systems shows them ("cudaLaunchKernel_v7000" -> "cudaLaunchKernel", "cuMemAlloc_v2" ->
// "cuMemAlloc"). cuptiGetCallbackName would give the same names, but it is a call into libcupti,
// which the converter and its tests do not link.
//
//   for (const ApiCallback& call : RuntimeApiCallbacks()) {
//     cuptiActivityEnableRuntimeApi(call.cbid, 1);
//   }
//   RuntimeApiName(211);   // "cudaLaunchKernel"
//   RuntimeApiName(3);     // nullopt: cudaGetDeviceCount is not recorded

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace ampprof::cupti {

struct ApiCallback {
  uint32_t cbid = 0;
  std::string_view name;
};

// The recorded calls of each domain, in ascending cbid order.
std::span<const ApiCallback> RuntimeApiCallbacks();
std::span<const ApiCallback> DriverApiCallbacks();

// The name of a recorded call; nullopt for a cbid outside the table.
std::optional<std::string_view> RuntimeApiName(uint32_t cbid);
std::optional<std::string_view> DriverApiName(uint32_t cbid);

// "cudaLaunchKernel_v7000" -> "cudaLaunchKernel"; without a trailing _v<digits>, the name as is.
constexpr std::string_view WithoutVersionSuffix(std::string_view name) {
  const size_t at = name.rfind("_v");
  if (at == std::string_view::npos || at + 2 == name.size()) return name;
  for (size_t i = at + 2; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return name;
  }
  return name.substr(0, at);
}

}  // namespace ampprof::cupti

#endif  // AMPPROF_COLLECTORS_CUPTI_API_CALLBACKS_H_
