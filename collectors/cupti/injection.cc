// The entry points of libampprof_inject.so. The CUDA driver loads the library named by
// CUDA_INJECTION64_PATH during CUDA initialisation and calls InitializeInjection; NVTX loads the
// library named by NVTX_INJECTION64_PATH at the first NVTX call and calls InitializeInjectionNvtx2.
// These and ampprof_collector_finish are the only symbols the library exports
// (inject_exports.map); everything else is hidden.

#include <dlfcn.h>

#include <cstdint>

#include <cupti.h>

#include "collectors/cupti/collector.h"

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void);

int InitializeInjection(void) { return ampprof::cupti::InitializeCollector(); }

// NVTX's injection entry point, forwarded to the libcupti this library is linked against. Naming
// libcupti itself in NVTX_INJECTION64_PATH is what CUPTI documents, but a process may load a second
// copy that way: PyTorch's wheels bring their own libcupti.so.13, which the collector then uses (the
// soname is already loaded), while NVTX would dlopen the toolkit's by path. Two copies in one process
// make two CUPTI subscribers, and the second (the collector's) is refused: seen on an H100 with torch
// 2.11+cu130, docs/validation/h100.md. Forwarding through this library keeps one copy.
using NvtxGetExportTable = const void* (*)(uint32_t export_table_id);
extern "C" __attribute__((visibility("default"))) int InitializeInjectionNvtx2(
    NvtxGetExportTable get_export_table);

int InitializeInjectionNvtx2(NvtxGetExportTable get_export_table) {
  using Initialize = int (*)(NvtxGetExportTable);
  Dl_info info{};
  int accepted = 0;  // 0: NVTX leaves its calls as no-ops, as with no injection at all
  if (dladdr(reinterpret_cast<void*>(&cuptiGetVersion), &info) != 0 && info.dli_fname != nullptr) {
    if (void* cupti = dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD); cupti != nullptr) {
      auto initialize = reinterpret_cast<Initialize>(dlsym(cupti, "InitializeInjectionNvtx2"));
      // RTLD_NOLOAD took a reference; the library stays loaded as this one's dependency.
      dlclose(cupti);
      if (initialize != nullptr) accepted = initialize(get_export_table);
    }
  }
  ampprof::cupti::NoteNvtxInjection(accepted != 0);
  return accepted;
}

// For the PyTorch shim (collectors/pytorch/ampprof_shim/exit_flush.py), through ctypes: finishes the
// trace from a Python atexit function, which runs even when Python then dies of its own SIGINT after
// an uncaught KeyboardInterrupt (the C library's exit handlers do not). 1 when it finished the trace.
extern "C" __attribute__((visibility("default"))) int ampprof_collector_finish(void);

int ampprof_collector_finish(void) { return ampprof::cupti::FinishCollectorForExit() ? 1 : 0; }
