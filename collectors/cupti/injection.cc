// The entry point of libampprof_inject.so: the CUDA driver loads the library named by
// CUDA_INJECTION64_PATH during CUDA initialisation and calls InitializeInjection. The only symbol
// the library exports (inject_exports.map); everything else is hidden.

#include "collectors/cupti/collector.h"

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void);

int InitializeInjection(void) { return ampprof::cupti::InitializeCollector(); }
