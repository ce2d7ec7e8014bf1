#ifndef AMPPROF_COLLECTORS_CUPTI_CAPTURE_WINDOW_H_
#define AMPPROF_COLLECTORS_CUPTI_CAPTURE_WINDOW_H_

// CaptureWindow: when the collector records, as a state machine with no CUPTI in it, so that every
// path through it is tested without a GPU. The collector feeds it events and performs the action each
// returns.
//
//   kWaiting --(start event)--> kRecording --(stop event)--> kFinished
//
//   capture range     start event                           stop event
//   whole run         CUDA initialised (after --delay)      --duration elapsed, or exit
//   cudaProfilerApi   the first cudaProfilerStart           cudaProfilerStop, --duration elapsed,
//                                                           or exit
//
// One window per process, as Nsight Systems' default (--capture-range-end=stop): after the stop event
// the collector detaches CUPTI (cuptiFinalize) so the rest of the run pays nothing, and a later
// cudaProfilerStart is not recorded (counted in ignored_starts() so the trace can say so).
//
//   CaptureWindow window(config);
//   Apply(window.OnInitialized());        // kStartRecording, kScheduleStart or kNone
//   ... Apply(window.OnProfilerStart());  // from the cuProfilerStart callback

#include <cstdint>

#include "collectors/cupti/collector_config.h"

namespace ampprof::cupti {

enum class CaptureState : uint8_t { kWaiting, kRecording, kFinished };

enum class CaptureAction : uint8_t {
  kNone,
  kScheduleStart,  // arm a timer for config.delay; its expiry is OnDelayElapsed()
  kStartRecording,  // enable the activity kinds; with a duration, arm a timer for OnDurationElapsed()
  kStopRecording,  // disable, flush, detach CUPTI
};

class CaptureWindow {
 public:
  explicit CaptureWindow(const CollectorConfig& config) : config_(config) {}

  CaptureAction OnInitialized();
  CaptureAction OnDelayElapsed();
  CaptureAction OnProfilerStart();
  CaptureAction OnProfilerStop();
  CaptureAction OnDurationElapsed();
  CaptureAction OnExit();

  CaptureState state() const { return state_; }
  const CollectorConfig& config() const { return config_; }
  // Whether the collector must watch cudaProfilerStart/Stop at all.
  bool needs_profiler_api_callbacks() const {
    return config_.capture_range == CaptureRange::kCudaProfilerApi;
  }
  uint32_t ignored_starts() const { return ignored_starts_; }

 private:
  CaptureAction Start();
  CaptureAction Stop();

  CollectorConfig config_;
  CaptureState state_ = CaptureState::kWaiting;
  bool initialized_ = false;
  uint32_t ignored_starts_ = 0;
};

}  // namespace ampprof::cupti

#endif  // AMPPROF_COLLECTORS_CUPTI_CAPTURE_WINDOW_H_
