#ifndef AMPPROF_COLLECTORS_LIBLOGS_LOG_ENVIRONMENT_H_
#define AMPPROF_COLLECTORS_LIBLOGS_LOG_ENVIRONMENT_H_

// The environment that makes cuBLASLt, cuBLAS and cuDNN log the calls that launch kernels, one file per
// process, into a directory (`ampprof run --library-logs`). The launcher adds these to the workload's
// environment; ParseLibraryLogFile reads the files afterwards.
//
//   cuBLASLt  CUBLASLT_LOG_LEVEL=2 (trace: calls that launch kernels)  CUBLASLT_LOG_FILE=DIR/cublaslt.%i.log
//   cuBLAS    CUBLAS_LOGINFO_DBG=1                                      CUBLAS_LOGDEST_DBG=DIR/cublas.%i.log
//   cuDNN     CUDNN_LOGLEVEL_DBG=3 (info: every API call)               CUDNN_LOGDEST_DBG=DIR/cudnn.%i.log
//
// cuBLASLt documents "%i" in its file name as the process id. cuBLAS and cuDNN document no placeholder,
// so in Python processes the PyTorch shim replaces "%i" with the pid before torch loads the libraries
// (collectors/pytorch/ampprof_shim/library_logs.py); any other process writes the literal name, shared by
// such processes, which the parsers split again by the Process= field each block carries.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "collectors/liblogs/library_call.h"

namespace ampprof::liblogs {

struct EnvironmentVariable {
  std::string name;
  std::string value;
};

std::vector<EnvironmentVariable> LibraryLogEnvironment(const std::filesystem::path& directory);

// The library a file written under LibraryLogEnvironment belongs to, from its name ("cudnn.4242.log").
std::optional<Library> LibraryOfLogFileName(const std::filesystem::path& path);

}  // namespace ampprof::liblogs

#endif  // AMPPROF_COLLECTORS_LIBLOGS_LOG_ENVIRONMENT_H_
