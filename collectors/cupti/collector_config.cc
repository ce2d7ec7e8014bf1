#include "collectors/cupti/collector_config.h"

#include <charconv>
#include <cmath>

namespace ampprof::cupti {
namespace {

// A longer delay or duration is a typo (milliseconds given as seconds, say), not a plan.
constexpr double kMaxSeconds = 365.0 * 24 * 3600;

}  // namespace

std::string_view CaptureRangeName(CaptureRange range) {
  switch (range) {
    case CaptureRange::kWholeRun:
      return "none";
    case CaptureRange::kCudaProfilerApi:
      return "cudaProfilerApi";
  }
  return "?";
}

std::string_view ApiCallSetName(ApiCallSet set) {
  switch (set) {
    case ApiCallSet::kAnalysed:
      return "analysed";
    case ApiCallSet::kAll:
      return "all";
  }
  return "?";
}

base::StatusOr<std::chrono::nanoseconds> ParseSeconds(std::string_view name,
                                                      std::string_view text) {
  double seconds = 0;
  const char* end = text.data() + text.size();
  const auto [parsed_to, error] = std::from_chars(text.data(), end, seconds);
  if (text.empty() || error != std::errc() || parsed_to != end || !std::isfinite(seconds) ||
      seconds < 0 || seconds > kMaxSeconds) {
    return base::InvalidArgumentError("{}={:?}: expected a number of seconds from 0 to {:.0f}",
                                      name, text, kMaxSeconds);
  }
  return std::chrono::nanoseconds(static_cast<int64_t>(std::llround(seconds * 1e9)));
}

base::StatusOr<CollectorConfig> ReadCollectorConfig(const EnvironmentLookup& environment) {
  CollectorConfig config;
  if (auto dir = environment(kOutputDirVariable); dir && !dir->empty()) config.output_dir = *dir;
  if (auto range = environment(kCaptureRangeVariable); range && !range->empty()) {
    if (*range == CaptureRangeName(CaptureRange::kWholeRun)) {
      config.capture_range = CaptureRange::kWholeRun;
    } else if (*range == CaptureRangeName(CaptureRange::kCudaProfilerApi)) {
      config.capture_range = CaptureRange::kCudaProfilerApi;
    } else {
      return base::InvalidArgumentError("{}={:?}: expected none or cudaProfilerApi",
                                        kCaptureRangeVariable, *range);
    }
  }
  if (auto delay = environment(kDelayVariable); delay && !delay->empty()) {
    ASSIGN_OR_RETURN(config.delay, ParseSeconds(kDelayVariable, *delay));
  }
  if (auto duration = environment(kDurationVariable); duration && !duration->empty()) {
    ASSIGN_OR_RETURN(const std::chrono::nanoseconds parsed,
                     ParseSeconds(kDurationVariable, *duration));
    if (parsed.count() == 0) {
      return base::InvalidArgumentError(
          "{}=0: a capture of no time records nothing; leave it unset to record until exit",
          kDurationVariable);
    }
    config.duration = parsed;
  }
  if (auto calls = environment(kApiCallsVariable); calls && !calls->empty()) {
    if (*calls == ApiCallSetName(ApiCallSet::kAnalysed)) {
      config.api_calls = ApiCallSet::kAnalysed;
    } else if (*calls == ApiCallSetName(ApiCallSet::kAll)) {
      config.api_calls = ApiCallSet::kAll;
    } else {
      return base::InvalidArgumentError("{}={:?}: expected analysed or all", kApiCallsVariable,
                                        *calls);
    }
  }
  return config;
}

}  // namespace ampprof::cupti
