#include "collectors/cupti/capture_window.h"

#include <gtest/gtest.h>

#include <chrono>

namespace ampprof::cupti {
namespace {

using std::chrono::seconds;

CollectorConfig WholeRun() { return {}; }

CollectorConfig ProfilerApi() {
  CollectorConfig config;
  config.capture_range = CaptureRange::kCudaProfilerApi;
  return config;
}

TEST(CaptureWindowTest, WholeRunRecordsFromInitialisationToExit) {
  CaptureWindow window(WholeRun());
  EXPECT_FALSE(window.needs_profiler_api_callbacks());
  EXPECT_EQ(window.OnInitialized(), CaptureAction::kStartRecording);
  EXPECT_EQ(window.state(), CaptureState::kRecording);
  EXPECT_EQ(window.OnInitialized(), CaptureAction::kNone);  // once
  // cudaProfilerStart/Stop mean nothing to a whole-run capture.
  EXPECT_EQ(window.OnProfilerStop(), CaptureAction::kNone);
  EXPECT_EQ(window.OnProfilerStart(), CaptureAction::kNone);
  EXPECT_EQ(window.OnExit(), CaptureAction::kStopRecording);
  EXPECT_EQ(window.state(), CaptureState::kFinished);
  EXPECT_EQ(window.OnExit(), CaptureAction::kNone);
}

TEST(CaptureWindowTest, DelayStartsWhenTheTimerFires) {
  CollectorConfig config = WholeRun();
  config.delay = seconds(2);
  CaptureWindow window(config);
  EXPECT_EQ(window.OnInitialized(), CaptureAction::kScheduleStart);
  EXPECT_EQ(window.state(), CaptureState::kWaiting);
  EXPECT_EQ(window.OnDelayElapsed(), CaptureAction::kStartRecording);
  EXPECT_EQ(window.OnDelayElapsed(), CaptureAction::kNone);
}

TEST(CaptureWindowTest, ExitBeforeTheDelayRecordsNothing) {
  CollectorConfig config = WholeRun();
  config.delay = seconds(60);
  CaptureWindow window(config);
  EXPECT_EQ(window.OnInitialized(), CaptureAction::kScheduleStart);
  EXPECT_EQ(window.OnExit(), CaptureAction::kNone);
  EXPECT_EQ(window.state(), CaptureState::kFinished);
  EXPECT_EQ(window.OnDelayElapsed(), CaptureAction::kNone);  // a timer firing late changes nothing
}

TEST(CaptureWindowTest, DurationStopsTheRecordingOnce) {
  CollectorConfig config = WholeRun();
  config.duration = seconds(5);
  CaptureWindow window(config);
  EXPECT_EQ(window.OnInitialized(), CaptureAction::kStartRecording);
  EXPECT_EQ(window.OnDurationElapsed(), CaptureAction::kStopRecording);
  EXPECT_EQ(window.OnDurationElapsed(), CaptureAction::kNone);
  EXPECT_EQ(window.OnExit(), CaptureAction::kNone);  // already stopped and detached
}

TEST(CaptureWindowTest, ProfilerApiWindowIsTheFirstStartToItsStop) {
  CaptureWindow window(ProfilerApi());
  EXPECT_TRUE(window.needs_profiler_api_callbacks());
  EXPECT_EQ(window.OnInitialized(), CaptureAction::kNone);
  EXPECT_EQ(window.OnProfilerStop(), CaptureAction::kNone);  // a stop without a start
  EXPECT_EQ(window.state(), CaptureState::kWaiting);
  EXPECT_EQ(window.OnProfilerStart(), CaptureAction::kStartRecording);
  EXPECT_EQ(window.OnProfilerStart(), CaptureAction::kNone);  // nested start: still recording
  EXPECT_EQ(window.OnProfilerStop(), CaptureAction::kStopRecording);
  EXPECT_EQ(window.state(), CaptureState::kFinished);
  EXPECT_EQ(window.ignored_starts(), 0u);
  // A second window is not recorded (CUPTI is detached), and the trace says how many were missed.
  EXPECT_EQ(window.OnProfilerStart(), CaptureAction::kNone);
  EXPECT_EQ(window.OnProfilerStart(), CaptureAction::kNone);
  EXPECT_EQ(window.ignored_starts(), 2u);
  EXPECT_EQ(window.OnExit(), CaptureAction::kNone);
}

TEST(CaptureWindowTest, ProfilerApiWindowLeftOpenEndsAtExit) {
  CaptureWindow window(ProfilerApi());
  window.OnInitialized();
  EXPECT_EQ(window.OnProfilerStart(), CaptureAction::kStartRecording);
  EXPECT_EQ(window.OnExit(), CaptureAction::kStopRecording);
}

TEST(CaptureWindowTest, ProfilerApiWithDurationStopsAtWhicheverComesFirst) {
  CollectorConfig config = ProfilerApi();
  config.duration = seconds(1);
  CaptureWindow window(config);
  window.OnInitialized();
  EXPECT_EQ(window.OnDurationElapsed(), CaptureAction::kNone);  // not recording yet
  EXPECT_EQ(window.OnProfilerStart(), CaptureAction::kStartRecording);
  EXPECT_EQ(window.OnDurationElapsed(), CaptureAction::kStopRecording);
  EXPECT_EQ(window.OnProfilerStop(), CaptureAction::kNone);
}

TEST(CaptureWindowTest, ProfilerApiWindowNeverOpenedRecordsNothing) {
  CaptureWindow window(ProfilerApi());
  window.OnInitialized();
  EXPECT_EQ(window.OnExit(), CaptureAction::kNone);
  EXPECT_EQ(window.state(), CaptureState::kFinished);
}

}  // namespace
}  // namespace ampprof::cupti
