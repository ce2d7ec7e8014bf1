#ifndef AMPPROF_COLLECTORS_CUPTI_PERIODIC_TASK_H_
#define AMPPROF_COLLECTORS_CUPTI_PERIODIC_TASK_H_

// Runs a function every period on a thread of its own, until Shutdown(). The collector's periodic
// flush: CUPTI's own flush period hands over only full buffers, while cuptiActivityFlushAll(0) from a
// thread of ours also hands over the partly filled ones whose records are complete ("Default flush
// can be done at a regular interval in a separate thread", cupti_activity.h), which bounds what a
// killed process loses to about one period, as Kineto does.
//
//   PeriodicTask flush;
//   flush.Start(std::chrono::milliseconds(1000), [] { cuptiActivityFlushAll(0); });
//   ...
//   flush.Shutdown();  // joins; the function is not running when it returns
//
// The workload's threads never wait for it. It owns no CUPTI state and is tested without a GPU.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>

namespace ampprof::cupti {

class PeriodicTask {
 public:
  PeriodicTask() = default;
  ~PeriodicTask() { Shutdown(); }
  PeriodicTask(const PeriodicTask&) = delete;
  PeriodicTask& operator=(const PeriodicTask&) = delete;

  // False when already started or shut down, or when no thread can be started (the task then never
  // runs; nothing else changes).
  bool Start(std::chrono::nanoseconds period, std::function<void()> task) noexcept;

  // Stops the thread and waits for a run in progress to end; from the task itself it only stops it.
  // Idempotent; a PeriodicTask never starts again.
  void Shutdown() noexcept;

  uint64_t runs() const;  // how often the task has run, for tests

 private:
  void Loop() noexcept;

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::thread thread_;
  std::chrono::nanoseconds period_{0};
  std::function<void()> task_;
  uint64_t runs_ = 0;
  bool shut_down_ = false;
};

}  // namespace ampprof::cupti

#endif  // AMPPROF_COLLECTORS_CUPTI_PERIODIC_TASK_H_
