#ifndef AMPPROF_SRC_CLI_COLLECTOR_SETUP_H_
#define AMPPROF_SRC_CLI_COLLECTOR_SETUP_H_

// What `ampprof run` adds to a workload's environment so that the CUDA driver loads the collector
// (collectors/cupti, libampprof_inject.so) in every process of the run, and where those files are.
//
//   variable                 value
//   CUDA_INJECTION64_PATH    libampprof_inject.so: the driver loads it at CUDA initialisation
//   NVTX_INJECTION64_PATH    the libcupti the collector links: NVTX calls become CUPTI records
//   AMPPROF_OUTPUT_DIR, AMPPROF_CAPTURE_RANGE, AMPPROF_DELAY_S, AMPPROF_DURATION_S
//                            the collector's settings (collectors/cupti/collector_config.h)
//   PYTHONPATH, AMPPROF_SHIM the PyTorch shim (collectors/pytorch) ahead of the inherited path;
//                            AMPPROF_TORCH_OPS=1 with --torch-ops (docs/pytorch-shim.md)
//   CUBLASLT_LOG_*, CUBLAS_LOG*, CUDNN_LOG*
//                            with --library-logs (collectors/liblogs/log_environment.h)
//
// Another tool already in the environment (Nsight Systems sets CUDA_INJECTION64_PATH or
// NVTX_INJECTION64_PATH for the processes it profiles) keeps its place: CUDA and NVTX each accept one
// tool per process. ampprof then sets neither and says that it records nothing itself; ranges that
// ampprof's Python shim emits still reach that tool.

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/base/status.h"

namespace ampprof::cli {

struct CollectorFiles {
  std::string injection_library;  // libampprof_inject.so
  std::string cupti_library;      // the libcupti.so.13 it was linked against
  // The PyTorch shim's directory (collectors/pytorch, staged beside the executable), prepended to
  // PYTHONPATH; empty when it is missing, and Python workloads then run without it.
  std::string python_shim_dir;
  std::string cupti_source;  // what provided cupti_library, in words (CuptiLocation::source)
};

// Where the nvidia-cuda-cupti wheel (CUDA 13) puts libcupti, relative to the ampprof executable of a
// wheel (<site-packages>/ampprof/_bin/ampprof): <site-packages>/nvidia/cu13/lib. The collector's
// RUNPATH has the same directory ($ORIGIN/../../nvidia/cu13/lib), so both find the same file.
inline constexpr std::string_view kCuptiWheelPath = "../../nvidia/cu13/lib/libcupti.so.13";

inline constexpr std::string_view kCuptiToolkitSource = "the CUDA toolkit";
inline constexpr std::string_view kCuptiWheelSource = "the nvidia-cuda-cupti wheel";

struct CuptiLocation {
  std::string path;
  std::string source;  // "the CUDA toolkit" or "the nvidia-cuda-cupti wheel"
};

// The first of toolkit_paths that is a file (where the build found libcupti, then where CUDA
// installations put it), else the nvidia-cuda-cupti wheel's copy beside a wheel's executable
// (kCuptiWheelPath from executable_dir); nullopt when none is there.
std::optional<CuptiLocation> FindCupti(std::span<const std::string_view> toolkit_paths,
                                       const std::filesystem::path& executable_dir);

// The collector of this build: $AMPPROF_INJECTION_LIBRARY, else libampprof_inject.so beside the
// ampprof executable (the build folder and an installation both put it there); libcupti:
// $AMPPROF_CUPTI_LIBRARY, else FindCupti (the CUDA toolkit, then the nvidia-cuda-cupti wheel). An error says what is missing: a build
// without the CUDA backend has no collector at all.
base::StatusOr<CollectorFiles> FindCollector();

// "libcupti from the CUDA toolkit: /usr/local/cuda/lib64/libcupti.so.13".
std::string CuptiDescription(const CollectorFiles& collector);

// What `ampprof run` and `compare` say before the workload starts: the libcupti from the
// nvidia-cuda-cupti wheel (a pip installation without the CUDA toolkit) on stderr, prefixed
// "ampprof COMMAND: "; the usual toolkit copy only at --log-level info, so that a run's stderr keeps
// the workload's and ampprof's outcome lines only. `ampprof version` always shows it.
void SayWhichCupti(const CollectorFiles& collector, std::string_view command);

enum class CaptureRangeOption { kNone, kCudaProfilerApi };

struct CaptureOptions {
  std::string output_dir;  // absolute: the workload may change its working directory
  CaptureRangeOption range = CaptureRangeOption::kNone;
  std::optional<double> delay_seconds;
  std::optional<double> duration_seconds;
  bool torch_ops = false;     // the shim makes every PyTorch op an NVTX range with its shapes
  bool library_logs = false;  // cuBLASLt/cuBLAS/cuDNN log their calls into output_dir
  bool all_api_calls = false;  // every CUDA runtime and driver call, not only those analysed
};

struct TracedEnvironment {
  std::vector<std::pair<std::string, std::string>> variables;  // to set in the workload
  // Set when another tool owns CUDA or NVTX injection: "CUDA_INJECTION64_PATH=/opt/nsys/..." .
  std::optional<std::string> other_tool;
};

using EnvironmentLookup = std::function<std::optional<std::string>(std::string_view name)>;

// The process's own environment, as an EnvironmentLookup.
std::optional<std::string> ProcessEnvironment(std::string_view name);

TracedEnvironment TracedRunEnvironment(const CaptureOptions& capture,
                                       const CollectorFiles& collector,
                                       const EnvironmentLookup& environment);

}  // namespace ampprof::cli

#endif  // AMPPROF_SRC_CLI_COLLECTOR_SETUP_H_
