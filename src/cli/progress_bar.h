#ifndef AMPPROF_SRC_CLI_PROGRESS_BAR_H_
#define AMPPROF_SRC_CLI_PROGRESS_BAR_H_

// A progress bar on one terminal line (stderr), for jobs that take long enough to wonder about: it
// appears only once the job has run for kProgressDelay, redraws at most every kProgressInterval, and
// erases itself when the job is done, so a quick `analyze` prints nothing and a finished one leaves
// nothing behind. Between the pipeline's updates (a big trace can take seconds to read), a ticker
// thread keeps the elapsed time moving. Only for terminals: MakeTerminalProgress returns nullptr when
// stderr is not one, and the pipeline then reports to nobody.
//
//   std::unique_ptr<ProgressBar> bar = MakeTerminalProgress();   // nullptr unless stderr is a TTY
//   pipeline::AnalyzeTraces(paths, {.progress = bar.get()});
//
//   [##########--------------]  42%  analyzing worker3.pt.trace.json.gz  3.1 s
//
// Drawing is a function of the clock it is given, so tests drive it with a fake clock and a string
// stream, without the ticker.

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <string_view>
#include <thread>

#include "src/base/progress.h"

namespace ampprof::cli {

inline constexpr std::chrono::milliseconds kProgressDelay{1000};
inline constexpr std::chrono::milliseconds kProgressInterval{100};

class ProgressBar final : public base::Progress {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;

  // `width`: the terminal's columns; the line stays one column short of them so it never wraps.
  ProgressBar(std::ostream& out, size_t width, Clock clock);
  ~ProgressBar() override;
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  void Update(std::string_view task, size_t done, size_t total) override;
  void Done() override;
  // Redraws when due (the elapsed time moves on); what the ticker calls.
  void Tick();
  // Starts a thread that calls Tick() every kProgressInterval until Done() or destruction.
  void StartTicker();

 private:
  void DrawIfDue(bool task_changed);  // with mutex_ held
  std::string Line(std::chrono::steady_clock::time_point now) const;
  void StopTicker();

  std::ostream& out_;
  size_t width_;
  Clock clock_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_{};
  std::mutex mutex_;
  std::string task_;
  size_t done_ = 0;
  size_t total_ = 0;
  bool drawn_ = false;    // a line is on the screen
  bool finished_ = false;
  std::condition_variable wake_;
  std::thread ticker_;
};

// A bar on stderr when stderr is a terminal, else nullptr.
std::unique_ptr<ProgressBar> MakeTerminalProgress();

}  // namespace ampprof::cli

#endif  // AMPPROF_SRC_CLI_PROGRESS_BAR_H_
