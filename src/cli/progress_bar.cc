#include "src/cli/progress_bar.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <iostream>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "src/base/terminal_text.h"

namespace ampprof::cli {
namespace {

constexpr size_t kBarWidth = 24;
constexpr std::string_view kEraseLine = "\r\x1b[K";

}  // namespace

ProgressBar::ProgressBar(std::ostream& out, size_t width, Clock clock)
    : out_(out), width_(std::max<size_t>(width, 40)), clock_(std::move(clock)), start_(clock_()) {}

ProgressBar::~ProgressBar() { Done(); }

std::string ProgressBar::Line(std::chrono::steady_clock::time_point now) const {
  const double fraction = total_ == 0 ? 0.0 : static_cast<double>(std::min(done_, total_)) / static_cast<double>(total_);
  const auto filled = static_cast<size_t>(fraction * static_cast<double>(kBarWidth));
  const double seconds = std::chrono::duration<double>(now - start_).count();
  const std::string bar = std::string(filled, '#') + std::string(kBarWidth - filled, '-');
  const std::string head = fmt::format("[{}] {:>3.0f}%  ", bar, fraction * 100.0);
  const std::string tail = fmt::format("  {:.1f} s", seconds);
  // The task (a file name) gives way when the terminal is narrow: the line must not wrap.
  const size_t room = width_ - 1 > head.size() + tail.size() ? width_ - 1 - head.size() - tail.size() : 0;
  std::string task = task_;
  if (task.size() > room) {
    // Cut before a UTF-8 character, never inside one (a lone continuation byte may be a C1
    // control).
    size_t cut = room > 3 ? room - 3 : room;
    while (cut > 0 && (static_cast<unsigned char>(task[cut]) & 0xC0) == 0x80) --cut;
    task = task.substr(0, cut) + (room > 3 ? "..." : "");
  }
  return head + task + tail;
}

void ProgressBar::DrawIfDue(bool task_changed) {
  if (finished_) return;
  const auto now = clock_();
  if (now - start_ < kProgressDelay) return;
  if (drawn_ && !task_changed && now - last_draw_ < kProgressInterval) return;
  out_ << kEraseLine << Line(now) << std::flush;
  drawn_ = true;
  last_draw_ = now;
}

void ProgressBar::Update(std::string_view task, size_t done, size_t total) {
  const std::lock_guard lock(mutex_);
  task_ = base::EscapeControlCharacters(task);  // a file name: shown, not obeyed, by the terminal
  done_ = done;
  total_ = total;
  DrawIfDue(/*task_changed=*/true);
}

void ProgressBar::Tick() {
  const std::lock_guard lock(mutex_);
  DrawIfDue(/*task_changed=*/false);
}

void ProgressBar::Done() {
  {
    const std::lock_guard lock(mutex_);
    if (!finished_ && drawn_) out_ << kEraseLine << std::flush;
    finished_ = true;
  }
  StopTicker();
}

void ProgressBar::StartTicker() {
  ticker_ = std::thread([this] {
    std::unique_lock lock(mutex_);
    while (!finished_) {
      wake_.wait_for(lock, kProgressInterval);
      if (!finished_) DrawIfDue(/*task_changed=*/false);
    }
  });
}

void ProgressBar::StopTicker() {
  wake_.notify_all();
  if (ticker_.joinable() && ticker_.get_id() != std::this_thread::get_id()) ticker_.join();
}

std::unique_ptr<ProgressBar> MakeTerminalProgress() {
  if (isatty(STDERR_FILENO) != 1) return nullptr;
  winsize size{};
  const size_t width = ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0 ? size.ws_col : 80;
  auto bar = std::make_unique<ProgressBar>(std::cerr, width, [] { return std::chrono::steady_clock::now(); });
  bar->StartTicker();
  return bar;
}

}  // namespace ampprof::cli
