#include "collectors/cupti/periodic_task.h"

namespace ampprof::cupti {

bool PeriodicTask::Start(std::chrono::nanoseconds period, std::function<void()> task) noexcept {
  try {
    std::lock_guard lock(mutex_);
    if (shut_down_ || thread_.joinable() || !task || period <= std::chrono::nanoseconds::zero()) return false;
    period_ = period;
    task_ = std::move(task);
    thread_ = std::thread([this] { Loop(); });
    return true;
  } catch (...) {
    task_ = nullptr;
    return false;
  }
}

void PeriodicTask::Shutdown() noexcept {
  {
    std::lock_guard lock(mutex_);
    shut_down_ = true;
    wake_.notify_one();
  }
  if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

uint64_t PeriodicTask::runs() const {
  std::lock_guard lock(mutex_);
  return runs_;
}

void PeriodicTask::Loop() noexcept {
  std::unique_lock lock(mutex_);
  auto next = std::chrono::steady_clock::now() + period_;
  while (!shut_down_) {
    if (wake_.wait_until(lock, next, [this] { return shut_down_; })) break;
    lock.unlock();
    try {
      task_();  // task_ is set before the thread starts and never changed: read without the lock
    } catch (...) {
    }
    lock.lock();
    ++runs_;
    // From now, not from the missed deadline: a slow run (a large flush) is not followed by a burst.
    next = std::chrono::steady_clock::now() + period_;
  }
}

}  // namespace ampprof::cupti
