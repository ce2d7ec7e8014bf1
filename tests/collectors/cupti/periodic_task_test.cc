#include "collectors/cupti/periodic_task.h"

#include <atomic>
#include <chrono>
#include <thread>

#include <gtest/gtest.h>

namespace ampprof::cupti {
namespace {

using std::chrono::milliseconds;

// Waits (up to 10 s, so a loaded machine never fails it) until `condition` holds.
template <typename Condition>
bool Eventually(Condition condition) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(milliseconds(1));
  }
  return true;
}

TEST(PeriodicTask, RunsEveryPeriodUntilShutdown) {
  std::atomic<int> calls{0};
  PeriodicTask task;
  ASSERT_TRUE(task.Start(milliseconds(2), [&] { ++calls; }));
  EXPECT_TRUE(Eventually([&] { return calls.load() >= 3; }));
  task.Shutdown();
  const int after_shutdown = calls.load();
  std::this_thread::sleep_for(milliseconds(20));
  EXPECT_EQ(calls.load(), after_shutdown) << "no run after Shutdown returned";
  EXPECT_EQ(task.runs(), static_cast<uint64_t>(after_shutdown));
}

TEST(PeriodicTask, DoesNotRunBeforeThePeriodHasPassed) {
  std::atomic<int> calls{0};
  PeriodicTask task;
  ASSERT_TRUE(task.Start(std::chrono::hours(1), [&] { ++calls; }));
  std::this_thread::sleep_for(milliseconds(20));
  task.Shutdown();  // wakes the thread long before its hour: Shutdown never waits for a period
  EXPECT_EQ(calls.load(), 0);
}

TEST(PeriodicTask, ShutdownWaitsForARunInProgress) {
  std::atomic<bool> running{false};
  std::atomic<bool> finished{false};
  PeriodicTask task;
  ASSERT_TRUE(task.Start(milliseconds(1), [&] {
    if (finished) return;
    running = true;
    std::this_thread::sleep_for(milliseconds(50));
    finished = true;
  }));
  ASSERT_TRUE(Eventually([&] { return running.load(); }));
  task.Shutdown();
  EXPECT_TRUE(finished.load()) << "Shutdown returned while the task was still running";
}

TEST(PeriodicTask, StartsOnceAndNeverAfterShutdown) {
  PeriodicTask task;
  EXPECT_FALSE(task.Start(milliseconds(1), nullptr)) << "no task";
  EXPECT_FALSE(task.Start(milliseconds(0), [] {})) << "no period";
  EXPECT_TRUE(task.Start(milliseconds(50), [] {}));
  EXPECT_FALSE(task.Start(milliseconds(50), [] {})) << "already started";
  task.Shutdown();
  task.Shutdown();  // idempotent
  PeriodicTask stopped;
  stopped.Shutdown();
  EXPECT_FALSE(stopped.Start(milliseconds(1), [] {})) << "shut down before it started";
}

TEST(PeriodicTask, AThrowingTaskKeepsRunning) {
  std::atomic<int> calls{0};
  PeriodicTask task;
  ASSERT_TRUE(task.Start(milliseconds(1), [&] {
    ++calls;
    throw std::runtime_error("a bug in the task must not end the workload");
  }));
  EXPECT_TRUE(Eventually([&] { return calls.load() >= 2; }));
}

TEST(PeriodicTask, ShutdownFromTheTaskItselfDoesNotDeadlock) {
  PeriodicTask task;
  std::atomic<bool> done{false};
  ASSERT_TRUE(task.Start(milliseconds(1), [&] {
    task.Shutdown();
    done = true;
  }));
  EXPECT_TRUE(Eventually([&] { return done.load(); }));
  task.Shutdown();
  EXPECT_EQ(task.runs(), 1u);
}

}  // namespace
}  // namespace ampprof::cupti
