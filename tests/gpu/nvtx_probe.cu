// A minimal CUPTI client that counts the NVTX marker records CUPTI produces, to find out on a GPU
// machine what CUPTI 13 needs for them (docs/validation). Built there by device_check.sh with nvcc:
//
//   nvcc -std=c++17 -o nvtx_probe nvtx_probe.cu -lcupti
//   NVTX_INJECTION64_PATH=<libcupti.so.13> ./nvtx_probe [nvtx-first] [subscribe] [nvtx-domain] [clock]
//
//   nvtx-first   the first NVTX call comes before CUPTI is set up (as in PyTorch, whose import names
//                threads and pushes ranges before CUDA starts)
//   subscribe    subscribe to the Callback API first, as ampprof's collector does
//   nvtx-domain  and enable its NVTX callback domain
//   clock        register a timestamp callback, as the collector does
//   ex-null      push ranges with nvtxDomainRangePushEx(nullptr, ...), as nvtx3::scoped_range does
//   domain       push ranges in a domain of their own (nvtxDomainCreateA), as ampprof's shim does
//   no-client    set up no CUPTI client at all: a plain NVTX workload (to run under `ampprof run`)
//
// Prints one line: the options, what cuptiActivityEnable(MARKER) returned, and the records counted.
#include <cuda_runtime.h>
#include <cupti.h>
#include <nvtx3/nvToolsExt.h>

#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {
size_t markers = 0, kernels = 0, others = 0;

void CUPTIAPI Requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *size = 1 << 20;
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, *size));
  *max_records = 0;
}

void CUPTIAPI Completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
    if (record->kind == CUPTI_ACTIVITY_KIND_MARKER) {
      ++markers;
    } else if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
      ++kernels;
    } else {
      ++others;
    }
  }
  std::free(buffer);
}

void CUPTIAPI OnCallback(void*, CUpti_CallbackDomain, CUpti_CallbackId, const void*) {}

uint64_t Monotonic() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1000000000ull + static_cast<uint64_t>(now.tv_nsec);
}

__global__ void Empty() {}

bool Has(int argc, char** argv, const char* option) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], option) == 0) return true;
  }
  return false;
}
}  // namespace

int main(int argc, char** argv) {
  std::string options;
  for (int i = 1; i < argc; ++i) options += std::string(argv[i]) + " ";
  if (Has(argc, argv, "nvtx-first")) {
    nvtxNameOsThreadA(0, "probe");
    nvtxRangePushA("before CUPTI");
    nvtxRangePop();
  }
  if (Has(argc, argv, "no-client")) {
    for (int i = 0; i < 10; ++i) {
      nvtxRangePushA("step");
      Empty<<<1, 1>>>();
      nvtxRangePop();
    }
    cudaDeviceSynchronize();
    std::printf("nvtx_probe [%s]: no CUPTI client, 10 ranges pushed\n", options.c_str());
    return 0;
  }
  CUpti_SubscriberHandle subscriber = nullptr;
  CUptiResult subscribed = CUPTI_SUCCESS, domain = CUPTI_SUCCESS;
  if (Has(argc, argv, "subscribe")) {
    subscribed = cuptiSubscribe(&subscriber, reinterpret_cast<CUpti_CallbackFunc>(&OnCallback), nullptr);
    if (Has(argc, argv, "nvtx-domain")) domain = cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_NVTX);
  }
  if (Has(argc, argv, "clock")) cuptiActivityRegisterTimestampCallback(&Monotonic);
  cuptiActivityRegisterCallbacks(&Requested, &Completed);
  const CUptiResult marker = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MARKER);
  cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  nvtxDomainHandle_t own_domain = Has(argc, argv, "domain") ? nvtxDomainCreateA("probe") : nullptr;
  const bool extended = Has(argc, argv, "ex-null") || own_domain != nullptr;
  for (int i = 0; i < 10; ++i) {
    if (extended) {
      nvtxEventAttributes_t attributes{};
      attributes.version = NVTX_VERSION;
      attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
      attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
      attributes.message.ascii = "step";
      nvtxDomainRangePushEx(own_domain, &attributes);
      Empty<<<1, 1>>>();
      nvtxDomainRangePop(own_domain);
    } else {
      nvtxRangePushA("step");
      Empty<<<1, 1>>>();
      nvtxRangePop();
      nvtxMarkA("mark");
    }
  }
  cudaDeviceSynchronize();
  cuptiActivityFlushAll(1);
  const char* injection = std::getenv("NVTX_INJECTION64_PATH");
  std::printf("nvtx_probe [%s] injection=%s subscribe=%d nvtx_domain=%d enable(MARKER)=%d: %zu marker "
              "records, %zu kernels, %zu others\n",
              options.c_str(), injection ? injection : "(none)", static_cast<int>(subscribed),
              static_cast<int>(domain), static_cast<int>(marker), markers, kernels, others);
  return 0;
}
