#ifndef AMPPROF_COLLECTORS_CUPTI_COLLECTOR_CONFIG_H_
#define AMPPROF_COLLECTORS_CUPTI_COLLECTOR_CONFIG_H_

// CollectorConfig: what the injected collector is asked to do, read from the environment the launcher
// (`ampprof run`) set for the workload. The environment is the only channel: the collector is loaded by
// the CUDA driver inside someone else's process and has no command line of its own.
//
//   variable               meaning                                              default
//   AMPPROF_OUTPUT_DIR     directory the trace file goes to (must exist)        the working directory
//   AMPPROF_CAPTURE_RANGE  "none": from CUDA initialisation to exit;            none
//                          "cudaProfilerApi": from cudaProfilerStart to
//                          cudaProfilerStop (torch.cuda.profiler.start/stop)
//   AMPPROF_DELAY_S        seconds after CUDA initialisation before recording   0
//   AMPPROF_DURATION_S     seconds of recording, then CUPTI is detached         until exit
//   AMPPROF_API_CALLS      "analysed": the CUDA calls the analyses use           analysed
//                          (api_callbacks.h); "all": every runtime and driver
//                          call, as Nsight Systems does (more records, more cost)
//
// A value that cannot be understood is an error: the collector then records nothing and says why on
// stderr, rather than guessing what the user meant.
//
//   ASSIGN_OR_RETURN(CollectorConfig config, ReadCollectorConfig(&getenv_wrapper));

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "src/base/status.h"

namespace ampprof::cupti {

// The environment, as a function: the real one in the collector, a map in tests.
using EnvironmentLookup = std::function<std::optional<std::string>(std::string_view name)>;

enum class CaptureRange : uint8_t {
  kWholeRun,         // from CUDA initialisation to exit
  kCudaProfilerApi,  // from the first cudaProfilerStart to the next cudaProfilerStop
};

std::string_view CaptureRangeName(
    CaptureRange range);  // "none", "cudaProfilerApi": as in the variable

enum class ApiCallSet : uint8_t {
  kAnalysed,  // the calls of api_callbacks.h, each enabled by its callback id
  kAll,       // CUPTI's whole RUNTIME and DRIVER kinds
};

std::string_view ApiCallSetName(ApiCallSet set);  // "analysed", "all": as in the variable

struct CollectorConfig {
  std::string output_dir = ".";
  CaptureRange capture_range = CaptureRange::kWholeRun;
  std::chrono::nanoseconds delay{0};
  std::optional<std::chrono::nanoseconds> duration;  // nullopt: until the window's end or exit
  ApiCallSet api_calls = ApiCallSet::kAnalysed;
};

inline constexpr std::string_view kOutputDirVariable = "AMPPROF_OUTPUT_DIR";
inline constexpr std::string_view kCaptureRangeVariable = "AMPPROF_CAPTURE_RANGE";
inline constexpr std::string_view kDelayVariable = "AMPPROF_DELAY_S";
inline constexpr std::string_view kDurationVariable = "AMPPROF_DURATION_S";
inline constexpr std::string_view kApiCallsVariable = "AMPPROF_API_CALLS";

base::StatusOr<CollectorConfig> ReadCollectorConfig(const EnvironmentLookup& environment);

// Seconds as the variables hold them ("2", "0.5"): finite, not negative, at most a year.
base::StatusOr<std::chrono::nanoseconds> ParseSeconds(std::string_view name, std::string_view text);

}  // namespace ampprof::cupti

#endif  // AMPPROF_COLLECTORS_CUPTI_COLLECTOR_CONFIG_H_
