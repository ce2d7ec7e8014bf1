#include "collectors/cupti/collector.h"

#include <cupti.h>
#include <dlfcn.h>
#include <fmt/format.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "collectors/cupti/api_call_recording.h"
#include "collectors/cupti/capture_window.h"
#include "collectors/cupti/collector_config.h"
#include "collectors/cupti/conversion_context.h"
#include "collectors/cupti/periodic_task.h"
#include "collectors/cupti/process_identity.h"
#include "collectors/cupti/record_conversion.h"
#include "collectors/cupti/writer_pipeline.h"
#include "collectors/records/ampt_writer.h"

namespace ampprof::cupti {

namespace {

// NVTX's injection calls (NoteNvtxInjection), which may come before the collector exists.
std::atomic<uint32_t> nvtx_injection_calls{0};
std::atomic<uint32_t> nvtx_injection_accepted{0};

// ---- Small helpers, none of which may throw. ----

std::optional<std::string> ProcessEnvironment(std::string_view name) {
  const char* value = std::getenv(std::string(name).c_str());
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

// One line on stderr in one write(2), so it is not interleaved with the workload's own output.
void Say(std::string_view message) noexcept {
  try {
    const std::string line = fmt::format("ampprof collector: {}\n", message);
    const ssize_t ignored = write(STDERR_FILENO, line.data(), line.size());
    static_cast<void>(ignored);
  } catch (...) {
  }
}

std::string CuptiErrorText(CUptiResult result) {
  const char* text = nullptr;
  if (cuptiGetResultString(result, &text) == CUPTI_SUCCESS && text != nullptr) return text;
  return fmt::format("CUPTI error {}", static_cast<int>(result));
}

// The one clock of the trace: CUPTI stamps API calls and NVTX markers with it and converts GPU
// timestamps into it. CLOCK_MONOTONIC never steps (REALTIME, CUPTI's default, can jump under NTP)
// and is read through the vDSO, so it costs a few tens of ns per record.
uint64_t CUPTIAPI MonotonicNs() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1'000'000'000u + static_cast<uint64_t>(now.tv_nsec);
}

int64_t RealtimeMinusMonotonicNs() {
  timespec realtime{};
  clock_gettime(CLOCK_REALTIME, &realtime);
  const int64_t monotonic = static_cast<int64_t>(MonotonicNs());
  return static_cast<int64_t>(realtime.tv_sec) * 1'000'000'000 + realtime.tv_nsec - monotonic;
}

// The file libcupti was loaded from: not necessarily /usr/local/cuda's, since a process that loaded
// another libcupti.so.13 first (PyTorch's wheel ships one) satisfies ours with it.
std::string LoadedCuptiPath() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&cuptiGetVersion), &info) != 0 && info.dli_fname != nullptr) {
    return info.dli_fname;
  }
  return "unknown";
}

// Activity kinds recorded during the capture window. Never CUPTI_ACTIVITY_KIND_KERNEL: it serialises
// kernels. Runtime and driver calls are not kinds here: api_call_recording.h enables them.
constexpr std::array kRecordedKinds = {
    CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
    CUPTI_ACTIVITY_KIND_MEMCPY,
    CUPTI_ACTIVITY_KIND_MEMCPY2,
    CUPTI_ACTIVITY_KIND_MEMSET,
    CUPTI_ACTIVITY_KIND_SYNCHRONIZATION,
    CUPTI_ACTIVITY_KIND_MEMORY2,
    CUPTI_ACTIVITY_KIND_MARKER,
    CUPTI_ACTIVITY_KIND_MARKER_DATA,
    CUPTI_ACTIVITY_KIND_NAME,
    CUPTI_ACTIVITY_KIND_OVERHEAD,
    CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION,
};
// Kinds whose existing objects CUPTI describes again when enabled (cuptiActivityEnableAndDump), so a
// window that opens after CUDA initialisation still learns the devices and the contexts' devices.
constexpr std::array kDumpedKinds = {CUPTI_ACTIVITY_KIND_DEVICE, CUPTI_ACTIVITY_KIND_CONTEXT};

// Steps through one completed buffer on the writer thread.
void ConvertBuffer(ConversionContext& context, const uint8_t* buffer, size_t valid_bytes,
                   records::RecordSink& sink) {
  CUpti_Activity* record = nullptr;
  // cuptiActivityGetNextRecord takes a non-const buffer but only reads it.
  uint8_t* bytes = const_cast<uint8_t*>(buffer);
  for (;;) {
    const CUptiResult result = cuptiActivityGetNextRecord(bytes, valid_bytes, &record);
    if (result == CUPTI_ERROR_MAX_LIMIT_REACHED) return;  // the end of the valid bytes
    if (result != CUPTI_SUCCESS) {
      // CUPTI cannot step further (a damaged buffer): the rest of it is lost.
      sink.stats().Increment(base::Stat::kCollectorInternalErrors);
      return;
    }
    ConvertRecord(record, context, sink);
  }
}

// A one-shot timer on its own thread, for --delay and --duration: the workload's threads never wait
// for it. Arm() replaces what was armed; Shutdown() joins the thread.
class WindowTimer {
 public:
  ~WindowTimer() { Shutdown(); }

  bool Arm(std::chrono::nanoseconds after, std::function<void()> fire) noexcept {
    try {
      std::lock_guard lock(mutex_);
      if (shut_down_) return false;
      deadline_ = std::chrono::steady_clock::now() + after;
      fire_ = std::move(fire);
      if (!thread_.joinable()) thread_ = std::thread([this] { Loop(); });
      wake_.notify_one();
      return true;
    } catch (...) {
      return false;  // no thread: the window keeps its other ends (the exit, cudaProfilerStop)
    }
  }

  void Shutdown() noexcept {
    {
      std::lock_guard lock(mutex_);
      shut_down_ = true;
      fire_ = nullptr;
      wake_.notify_one();
    }
    if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
  }

 private:
  void Loop() noexcept {
    std::unique_lock lock(mutex_);
    while (!shut_down_) {
      if (!fire_) {
        wake_.wait(lock);
        continue;
      }
      if (wake_.wait_until(lock, deadline_) != std::cv_status::timeout) continue;
      if (std::chrono::steady_clock::now() < deadline_ || !fire_) continue;
      std::function<void()> fire = std::move(fire_);
      fire_ = nullptr;
      lock.unlock();
      try {
        fire();
      } catch (...) {
      }
      lock.lock();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::thread thread_;
  std::chrono::steady_clock::time_point deadline_;
  std::function<void()> fire_;
  bool shut_down_ = false;
};

class Collector {
 public:
  // Never destroyed: CUPTI's threads and the atexit handler may call in after static destructors
  // have started to run.
  static Collector& Instance() {
    static Collector* const collector = new Collector();
    return *collector;
  }

  void Initialize() noexcept {
    try {
      if (!Setup()) return;
    } catch (const std::exception& error) {
      Say(fmt::format("internal error while starting ({}); recording nothing", error.what()));
      return;
    } catch (...) {
      Say("internal error while starting; recording nothing");
      return;
    }
  }

 private:
  Collector() = default;

  // ---- Start-up, inside InitializeInjection: CUPTI calls only, never a CUDA call. ----

  bool Setup() {
    pid_ = getpid();
    pthread_atfork(nullptr, nullptr, &Collector::AtForkChild);

    base::StatusOr<CollectorConfig> config = ReadCollectorConfig(&ProcessEnvironment);
    if (!config.ok()) {
      Say(fmt::format("{}; recording nothing", config.status().message()));
      return false;
    }
    uint32_t version = 0;
    if (const CUptiResult result = cuptiGetVersion(&version); result != CUPTI_SUCCESS) {
      Say(fmt::format("cuptiGetVersion failed ({}); recording nothing", CuptiErrorText(result)));
      return false;
    }
    // The record structs read here are CUPTI 13's (record_conversion.h).
    if (version / 10000 != CUPTI_API_VERSION / 10000) {
      Say(
          fmt::format("{} has CUPTI API version {}, this collector was built for {}.x; recording "
                      "nothing",
                      LoadedCuptiPath(), version, CUPTI_API_VERSION / 10000));
      return false;
    }

    const ProcessIdentity identity =
        ReadProcessIdentity(static_cast<uint32_t>(pid_), &ProcessEnvironment);
    const std::string path = fmt::format("{}/{}", config->output_dir, TraceFileName(identity));
    base::StatusOr<std::unique_ptr<records::AmptWriter>> writer =
        records::AmptWriter::Create(path, {});
    if (!writer.ok()) {
      Say(fmt::format("{}; recording nothing", writer.status().message()));
      return false;
    }
    DescribeProcess(**writer, identity, *config, version);

    std::array<char, CUPTI_OLD_SUBSCRIBER_NAME_MIN_LEN> other_tool{};
    CUpti_SubscriberParams params{};
    params.structSize = CUpti_SubscriberParams_STRUCT_SIZE;
    params.subscriberName = "ampprof";
    params.oldSubscriberName = other_tool.data();
    params.oldSubscriberSize = other_tool.size();
    const CUptiResult subscribed = cuptiSubscribe_v2(
        &subscriber_, reinterpret_cast<CUpti_CallbackFunc>(&Collector::OnCallback), this, &params);
    if (subscribed != CUPTI_SUCCESS) {
      const std::string why =
          subscribed == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED
              ? fmt::format("another CUPTI tool is attached ({}), and CUPTI allows one",
                            other_tool[0] != '\0' ? std::string(other_tool.data())
                                                  : "it did not give its name")
              : fmt::format("cuptiSubscribe failed: {}", CuptiErrorText(subscribed));
      (*writer)->SetMetadata("collector_mode", fmt::format("off: {}", why));
      static_cast<void>((*writer)->Close());
      Say(fmt::format("{}; recording nothing{}", why,
                      subscribed == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED
                          ? " (NVTX ranges still reach that tool)"
                          : ""));
      return false;
    }

    // Before any kind is enabled, as CUPTI requires; without it CUPTI's own clock (REALTIME) stamps
    // everything, which is still one clock.
    const bool own_clock = cuptiActivityRegisterTimestampCallback(&MonotonicNs) == CUPTI_SUCCESS;
    (*writer)->SetMetadata("clock",
                           own_clock ? "CLOCK_MONOTONIC" : "CLOCK_REALTIME (CUPTI's default)");
    if (own_clock) {
      (*writer)->SetMetadata("clock_realtime_offset_ns",
                             fmt::format("{}", RealtimeMinusMonotonicNs()));
    }
    // The pool hands out zeroed buffers, so CUPTI need not zero them on the application's thread.
    uint8_t zeroed = 1;
    size_t zeroed_size = sizeof zeroed;
    static_cast<void>(cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER,
                                                &zeroed_size, &zeroed));

    api_calls_ = config->api_calls;
    auto context = std::make_shared<ConversionContext>(static_cast<uint32_t>(pid_));
    if (api_calls_ == ApiCallSet::kAll) context->SetApiNameLookup(&CuptiCallbackName);
    base::StatusOr<std::unique_ptr<WriterPipeline>> pipeline = WriterPipeline::Start(
        std::move(*writer),
        [context](const uint8_t* buffer, size_t valid_bytes, records::RecordSink& sink) {
          ConvertBuffer(*context, buffer, valid_bytes, sink);
        },
        {});
    if (!pipeline.ok()) {
      Say(fmt::format("{}; recording nothing", pipeline.status().message()));
      Detach();
      return false;
    }
    pipeline_ = std::move(*pipeline);

    if (const CUptiResult result = cuptiActivityRegisterCallbacks(&Collector::OnBufferRequested,
                                                                  &Collector::OnBufferCompleted);
        result != CUPTI_SUCCESS) {
      Say(fmt::format("cuptiActivityRegisterCallbacks failed ({}); recording nothing",
                      CuptiErrorText(result)));
      pipeline_->SetMetadata("collector_mode", "off: CUPTI refused the activity buffer callbacks");
      static_cast<void>(pipeline_->Stop());
      Detach();
      return false;
    }

    window_.emplace(*config);
    if (window_->needs_profiler_api_callbacks()) {
      for (const CUpti_CallbackId cbid :
           {CUPTI_DRIVER_TRACE_CBID_cuProfilerStart, CUPTI_DRIVER_TRACE_CBID_cuProfilerStop}) {
        if (const CUptiResult result =
                cuptiEnableCallback(1, subscriber_, CUPTI_CB_DOMAIN_DRIVER_API, cbid);
            result != CUPTI_SUCCESS) {
          Say(fmt::format("cannot watch cudaProfilerStart/Stop ({}); recording nothing",
                          CuptiErrorText(result)));
          pipeline_->SetMetadata("collector_mode",
                                 "off: CUPTI cannot watch cudaProfilerStart/Stop");
          static_cast<void>(pipeline_->Stop());
          Detach();
          return false;
        }
      }
    }
    static_cast<void>(cuptiActivityFlushPeriod(kFlushPeriodMs));
    // CUPTI's period hands over only full buffers; this hands over the partly filled ones too (their
    // complete records), so a process killed before its exit handler loses about one period at most.
    flusher_.Start(std::chrono::milliseconds(kFlushPeriodMs), [this] {
      if (InOwnProcess() && !detached_.load()) static_cast<void>(cuptiActivityFlushAll(0));
    });
    pipeline_->SetMetadata("collector_mode", "trace");
    active_.store(true);
    std::atexit(&Collector::AtExit);
    Perform(Advance(&CaptureWindow::OnInitialized), /*at_api_exit=*/false);
    return true;
  }

  static void DescribeProcess(records::AmptWriter& writer, const ProcessIdentity& identity,
                              const CollectorConfig& config, uint32_t cupti_version) {
    writer.SetMetadata("source", "ampprof CUPTI collector");
    writer.SetMetadata("workload", identity.command);
    writer.SetMetadata("cupti_api_version", fmt::format("{}", cupti_version));
    writer.SetMetadata("cupti_library", LoadedCuptiPath());
    writer.SetMetadata("nvtx_injection_library",
                       ProcessEnvironment("NVTX_INJECTION64_PATH").value_or(""));
    writer.SetMetadata("capture_range", CaptureRangeName(config.capture_range));
    writer.SetMetadata("api_calls", ApiCallSetName(config.api_calls));
    if (config.delay.count() > 0) {
      writer.SetMetadata("capture_delay_ns", fmt::format("{}", config.delay.count()));
    }
    records::ProcessRecord process;
    process.pid = identity.pid;
    process.command = writer.strings().Intern(identity.command);
    process.hostname = writer.strings().Intern(identity.hostname);
    process.rank = identity.rank;
    process.local_rank = identity.local_rank;
    process.world_size = identity.world_size;
    writer.Add(process);
  }

  // ---- The capture window's actions. ----

  void Perform(CaptureAction action, bool at_api_exit) noexcept {
    switch (action) {
      case CaptureAction::kNone:
        return;
      case CaptureAction::kScheduleStart:
        if (!timer_.Arm(window_->config().delay,
                        [this] { OnTimer(&CaptureWindow::OnDelayElapsed); })) {
          Say("cannot start the --delay timer; recording from now");
          OnTimer(&CaptureWindow::OnDelayElapsed);
        }
        return;
      case CaptureAction::kStartRecording:
        StartRecording();
        if (window_->config().duration) {
          static_cast<void>(timer_.Arm(*window_->config().duration,
                                       [this] { OnTimer(&CaptureWindow::OnDurationElapsed); }));
        }
        return;
      case CaptureAction::kStopRecording:
        StopRecording();
        // CUPTI asks for cuptiFinalize at a CUDA API exit: now, or at the next call that returns.
        if (at_api_exit) {
          Detach();
        } else {
          RequestDetach();
        }
        return;
    }
  }

  // Feeds one event to the capture window; the action it returns is performed by the caller, outside
  // the lock, since performing it calls into CUPTI, which may call back into the collector.
  CaptureAction Advance(CaptureAction (CaptureWindow::*event)()) {
    std::lock_guard lock(window_mutex_);
    return ((*window_).*event)();
  }

  void OnTimer(CaptureAction (CaptureWindow::*event)()) noexcept {
    if (!InOwnProcess()) return;
    Perform(Advance(event), /*at_api_exit=*/false);
  }

  void StartRecording() noexcept {
    std::string refused;
    const auto note = [&refused](std::string_view what, CUptiResult result) {
      refused +=
          fmt::format("{}{} ({})", refused.empty() ? "" : "; ", what, CuptiErrorText(result));
    };
    for (const CUpti_ActivityKind kind : kDumpedKinds) {
      if (const CUptiResult r = cuptiActivityEnableAndDump(kind); r != CUPTI_SUCCESS)
        note(fmt::format("kind {}", static_cast<int>(kind)), r);
    }
    for (const CUpti_ActivityKind kind : kRecordedKinds) {
      if (const CUptiResult r = cuptiActivityEnable(kind); r != CUPTI_SUCCESS)
        note(fmt::format("kind {}", static_cast<int>(kind)), r);
    }
    SetApiCallRecording(api_calls_, /*on=*/true, note);
    pipeline_->SetMetadata("capture_started_ns", fmt::format("{}", MonotonicNs()));
    if (!refused.empty()) {
      // Recording goes on with what CUPTI accepted; the trace says what is missing.
      pipeline_->SetMetadata("collector_not_recorded", refused);
      Say(fmt::format("CUPTI refused to record: {}", refused));
    }
  }

  void StopRecording() noexcept {
    flusher_.Shutdown();  // no default flush may race the forced one below, or the file's close
    for (const CUpti_ActivityKind kind : kRecordedKinds)
      static_cast<void>(cuptiActivityDisable(kind));
    for (const CUpti_ActivityKind kind : kDumpedKinds)
      static_cast<void>(cuptiActivityDisable(kind));
    SetApiCallRecording(api_calls_, /*on=*/false, {});
    pipeline_->SetMetadata("capture_stopped_ns", fmt::format("{}", MonotonicNs()));
    // Every buffer, even those holding records CUPTI has not completed (kept, flagged: see
    // record_conversion.h), then the file is complete and closed.
    static_cast<void>(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
    FinishTrace();
  }

  void FinishTrace() noexcept {
    uint32_t ignored_starts = 0;
    {
      std::lock_guard lock(window_mutex_);
      if (window_) ignored_starts = window_->ignored_starts();
    }
    if (ignored_starts > 0) {
      pipeline_->SetMetadata("capture_ignored_starts", fmt::format("{}", ignored_starts));
    }
    pipeline_->SetMetadata("nvtx_injection_calls", fmt::format("{}", nvtx_injection_calls.load()));
    pipeline_->SetMetadata("nvtx_injection_accepted",
                           fmt::format("{}", nvtx_injection_accepted.load()));
    if (const base::Status status = pipeline_->Stop(); !status.ok()) {
      Say(fmt::format("the trace was not written completely: {}", status.message()));
    }
  }

  // After the window: every later CUDA call runs without CUPTI. Only at an API exit.
  void Detach() noexcept {
    flusher_.Shutdown();  // never a CUPTI call from our thread after cuptiFinalize
    if (detached_.exchange(true)) return;
    if (subscriber_ != nullptr) static_cast<void>(cuptiUnsubscribe(subscriber_));
    static_cast<void>(cuptiFinalize());
  }

  void RequestDetach() noexcept {
    detach_requested_.store(true);
    // The next runtime or driver call that returns detaches; until then every call pays a callback.
    static_cast<void>(cuptiEnableDomain(1, subscriber_, CUPTI_CB_DOMAIN_DRIVER_API));
    static_cast<void>(cuptiEnableDomain(1, subscriber_, CUPTI_CB_DOMAIN_RUNTIME_API));
  }

  bool InOwnProcess() const { return active_.load(std::memory_order_acquire) && getpid() == pid_; }

  // ---- Entry points CUPTI and the C library call. ----

  static void CUPTIAPI OnBufferRequested(uint8_t** buffer, size_t* size,
                                         size_t* max_records) noexcept {
    Collector& self = Instance();
    *buffer = nullptr;
    *size = 0;
    *max_records = 0;                                                // as many as fit
    if (getpid() != self.pid_ || self.pipeline_ == nullptr) return;  // CUPTI drops and counts them
    *buffer = self.pipeline_->RequestBuffer();
    if (*buffer != nullptr) *size = self.pipeline_->buffer_bytes();
  }

  static void CUPTIAPI OnBufferCompleted(CUcontext context, uint32_t stream_id, uint8_t* buffer,
                                         size_t /*size*/, size_t valid_bytes) noexcept {
    Collector& self = Instance();
    if (getpid() != self.pid_ || self.pipeline_ == nullptr) return;
    self.pipeline_->CompleteBuffer(buffer, valid_bytes);
    size_t dropped = 0;
    if (cuptiActivityGetNumDroppedRecords(context, stream_id, &dropped) == CUPTI_SUCCESS &&
        dropped > 0) {
      self.pipeline_->AddDroppedRecords(dropped);
    }
  }

  static void CUPTIAPI OnCallback(void* userdata, CUpti_CallbackDomain domain,
                                  CUpti_CallbackId cbid, const void* data) noexcept {
    try {
      auto* self = static_cast<Collector*>(userdata);
      if (getpid() != self->pid_ || data == nullptr) return;
      if (domain != CUPTI_CB_DOMAIN_DRIVER_API && domain != CUPTI_CB_DOMAIN_RUNTIME_API) return;
      const auto* call = static_cast<const CUpti_CallbackData*>(data);
      if (call->callbackSite != CUPTI_API_EXIT) return;
      if (self->detach_requested_.load()) {
        self->Detach();
        return;
      }
      if (domain != CUPTI_CB_DOMAIN_DRIVER_API || !self->active_.load()) return;
      if (cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStart) {
        self->Perform(self->Advance(&CaptureWindow::OnProfilerStart), /*at_api_exit=*/true);
      } else if (cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStop) {
        self->Perform(self->Advance(&CaptureWindow::OnProfilerStop), /*at_api_exit=*/true);
      }
    } catch (...) {
    }
  }

  // Registered with atexit in Setup, so it runs before the destructors of the libraries loaded
  // before CUDA initialised (cudart, torch): CUPTI's worker thread is still alive for the flush.
  static void AtExit() noexcept { static_cast<void>(FinishForExit()); }

 public:
  // The exit handler's work, callable before the C library's exit handlers: the PyTorch shim calls it
  // from a Python atexit function (ampprof_collector_finish), because Python dying of an uncaught
  // KeyboardInterrupt kills itself with SIGINT before those run. True when this call finished the
  // trace; a second call, and the C handler after it, do nothing.
  static bool FinishForExit() noexcept {
    Collector& self = Instance();
    if (!self.InOwnProcess()) return false;
    self.timer_.Shutdown();
    self.flusher_.Shutdown();
    const CaptureAction action = self.Advance(&CaptureWindow::OnExit);
    self.active_.store(false);
    if (action == CaptureAction::kStopRecording) {
      self.StopRecording();  // no detach: the process is ending
    } else if (!self.detach_requested_.load() && !self.detached_.load()) {
      // The window never opened (no cudaProfilerStart; a --delay longer than the run).
      self.pipeline_->SetMetadata("capture_window", "never opened");
      self.FinishTrace();
    }
    return true;
  }

 private:

  static void AtForkChild() noexcept { Instance().active_.store(false); }

  pid_t pid_ = 0;
  ApiCallSet api_calls_ = ApiCallSet::kAnalysed;  // set once in Setup
  std::atomic<bool> active_{false};
  std::unique_ptr<WriterPipeline> pipeline_;
  CUpti_SubscriberHandle subscriber_ = nullptr;
  std::mutex window_mutex_;
  std::optional<CaptureWindow> window_;  // set once in Setup, then its state under window_mutex_
  std::atomic<bool> detach_requested_{false};
  std::atomic<bool> detached_{false};
  WindowTimer timer_;
  PeriodicTask flusher_;  // cuptiActivityFlushAll(0) every kFlushPeriodMs while recording
};

}  // namespace

void NoteNvtxInjection(bool accepted) noexcept {
  nvtx_injection_calls.fetch_add(1, std::memory_order_relaxed);
  if (accepted) nvtx_injection_accepted.fetch_add(1, std::memory_order_relaxed);
}

int InitializeCollector() noexcept {
  static std::once_flag once;
  try {
    std::call_once(once, [] { Collector::Instance().Initialize(); });
  } catch (...) {
  }
  return 1;
}

bool FinishCollectorForExit() noexcept { return Collector::FinishForExit(); }

}  // namespace ampprof::cupti
