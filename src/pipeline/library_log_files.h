#ifndef AMPPROF_SRC_PIPELINE_LIBRARY_LOG_FILES_H_
#define AMPPROF_SRC_PIPELINE_LIBRARY_LOG_FILES_H_

// The library logs of `ampprof run --library-logs` that belong to a trace: the cuBLASLt, cuBLAS and
// cuDNN API logs the run wrote into the trace's directory (collectors/liblogs/log_environment.h), read
// whenever that trace is analysed, by `run` itself or later by `analyze DIR`, `analyze DIR/TRACE` and
// `compare`. Nothing has to be named: the logs are found by their names.
//
//   cublaslt.<pid>.log, cublas.<pid>.log, cudnn.<pid>.log   read when <pid> is one of the trace's processes
//   cublas.%i.log, cudnn.%i.log                             (a non-Python process wrote the literal name,
//                                                            shared by processes): read, and its calls
//                                                            kept for the trace's processes
//
// In the order cuBLASLt, cuBLAS, cuDNN (a kernel both GEMM logs claim keeps cuBLASLt's call,
// analyzers/facts/library_calls.h). A log that cannot be read or is no library's log is skipped with a
// warning naming it and the reason (the trace is analysed without it); an empty one quietly (a library
// that was loaded and never called). A trace read from standard input has no directory: no logs.
//
//   const LibraryLogFiles logs = ReadLibraryLogsBeside(file, model);
//   const AnalysisInput input(model, logs.logs);

#include <string>
#include <vector>

#include "collectors/liblogs/library_call.h"
#include "src/model/trace_model.h"
#include "src/pipeline/trace_inputs.h"

namespace ampprof::pipeline {

struct LibraryLogFiles {
  std::vector<std::string> paths;          // as messages and reports name them
  std::vector<liblogs::LibraryLog> logs;   // parsed, one per path
};

LibraryLogFiles ReadLibraryLogsBeside(const TraceFile& trace, const model::TraceModel& model);

}  // namespace ampprof::pipeline

#endif  // AMPPROF_SRC_PIPELINE_LIBRARY_LOG_FILES_H_
