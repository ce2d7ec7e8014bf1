#include "collectors/cupti/capture_window.h"

namespace ampprof::cupti {

CaptureAction CaptureWindow::Start() {
  if (state_ != CaptureState::kWaiting) return CaptureAction::kNone;
  state_ = CaptureState::kRecording;
  return CaptureAction::kStartRecording;
}

CaptureAction CaptureWindow::Stop() {
  if (state_ != CaptureState::kRecording) {
    // Nothing was recorded, and nothing will be: the window is over either way.
    state_ = CaptureState::kFinished;
    return CaptureAction::kNone;
  }
  state_ = CaptureState::kFinished;
  return CaptureAction::kStopRecording;
}

CaptureAction CaptureWindow::OnInitialized() {
  if (initialized_) return CaptureAction::kNone;
  initialized_ = true;
  if (config_.capture_range != CaptureRange::kWholeRun) return CaptureAction::kNone;
  if (config_.delay.count() > 0) return CaptureAction::kScheduleStart;
  return Start();
}

CaptureAction CaptureWindow::OnDelayElapsed() {
  if (config_.capture_range != CaptureRange::kWholeRun) return CaptureAction::kNone;
  return Start();
}

CaptureAction CaptureWindow::OnProfilerStart() {
  if (config_.capture_range != CaptureRange::kCudaProfilerApi) return CaptureAction::kNone;
  if (state_ != CaptureState::kWaiting) {
    if (state_ == CaptureState::kFinished) ++ignored_starts_;
    return CaptureAction::kNone;
  }
  return Start();
}

CaptureAction CaptureWindow::OnProfilerStop() {
  if (config_.capture_range != CaptureRange::kCudaProfilerApi) return CaptureAction::kNone;
  if (state_ != CaptureState::kRecording) return CaptureAction::kNone;  // a stop without a start
  return Stop();
}

CaptureAction CaptureWindow::OnDurationElapsed() {
  if (state_ != CaptureState::kRecording) return CaptureAction::kNone;
  return Stop();
}

CaptureAction CaptureWindow::OnExit() { return Stop(); }

}  // namespace ampprof::cupti
