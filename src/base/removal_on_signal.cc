#include "src/base/removal_on_signal.h"

#include <limits.h>
#include <signal.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cstring>
#include <mutex>

namespace ampprof::base {
namespace {

// A slot's path is written before `used` is set and read by the handler only while `used` is set; a
// signal handler may only touch lock-free atomics and plain memory, never a std::string.
struct Slot {
  std::atomic<bool> used{false};
  char path[PATH_MAX];
};

std::array<Slot, RemovalOnSignal::kMaxFiles> g_slots;
std::mutex g_slots_mutex;  // between threads registering; the handler takes no lock
constexpr std::array<int, 4> kSignals = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

void RemoveAndDie(int signal_number) {
  for (Slot& slot : g_slots) {
    if (slot.used.load(std::memory_order_acquire)) ::unlink(slot.path);
  }
  ::signal(signal_number, SIG_DFL);
  ::raise(signal_number);  // delivered with its default action once this handler returns
}

void InstallHandlers() {
  for (const int signal_number : kSignals) {
    struct sigaction current {};
    if (::sigaction(signal_number, nullptr, &current) != 0 || current.sa_handler != SIG_DFL)
      continue;
    struct sigaction action {};
    action.sa_handler = RemoveAndDie;
    sigemptyset(&action.sa_mask);
    ::sigaction(signal_number, &action, nullptr);
  }
}

}  // namespace

RemovalOnSignal::RemovalOnSignal(const std::string& path) {
  static std::once_flag installed;
  std::call_once(installed, InstallHandlers);
  if (path.size() >= PATH_MAX) return;
  const std::lock_guard<std::mutex> lock(g_slots_mutex);
  for (size_t i = 0; i < g_slots.size(); ++i) {
    if (g_slots[i].used.load(std::memory_order_relaxed)) continue;
    std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
    g_slots[i].used.store(true, std::memory_order_release);
    slot_ = static_cast<int>(i);
    return;
  }
}

RemovalOnSignal::~RemovalOnSignal() {
  if (slot_ < 0) return;
  const std::lock_guard<std::mutex> lock(g_slots_mutex);
  g_slots[static_cast<size_t>(slot_)].used.store(false, std::memory_order_release);
}

}  // namespace ampprof::base
