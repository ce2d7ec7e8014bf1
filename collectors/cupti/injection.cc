// The entry point of libampprof_inject.so: the CUDA driver loads the library named by
// CUDA_INJECTION64_PATH during CUDA initialisation and calls InitializeInjection. The only symbol
// the library exports (inject_exports.map); everything else is hidden.

#include "collectors/cupti/collector.h"

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void);

int InitializeInjection(void) { return ampprof::cupti::InitializeCollector(); }

// For the PyTorch shim (collectors/pytorch/ampprof_shim/exit_flush.py), through ctypes: finishes the
// trace from a Python atexit function, which runs even when Python then dies of its own SIGINT after
// an uncaught KeyboardInterrupt (the C library's exit handlers do not). 1 when it finished the trace.
extern "C" __attribute__((visibility("default"))) int ampprof_collector_finish(void);

int ampprof_collector_finish(void) { return ampprof::cupti::FinishCollectorForExit() ? 1 : 0; }
