#include "src/cli/open_traces.h"

#include <filesystem>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "collectors/records/trace_file_lock.h"
#include "src/base/terminal_text.h"
#include "src/cli/output_directory.h"

namespace ampprof::cli {
namespace {

constexpr std::chrono::milliseconds kPollPeriod{100};
constexpr size_t kMaxNamed = 5;

}  // namespace

std::vector<OpenTrace> OpenTracesAmong(const std::vector<std::string>& traces) {
  std::vector<OpenTrace> open;
  for (const std::string& trace : traces) {
    if (const std::optional<int64_t> writer = records::TraceWriterPid(trace)) open.push_back({trace, *writer});
  }
  return open;
}

std::vector<OpenTrace> WaitForOpenTraces(const std::string& dir, std::chrono::milliseconds limit,
                                         const std::function<void(const std::vector<OpenTrace>&)>& on_wait) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  bool waiting = false;
  for (;;) {
    const base::StatusOr<std::vector<std::string>> traces = AmptTracesIn(dir);
    if (!traces.ok()) return {};  // the caller lists the directory again and says why it cannot
    std::vector<OpenTrace> open = OpenTracesAmong(*traces);
    if (open.empty() || std::chrono::steady_clock::now() >= deadline) return open;
    if (!waiting && on_wait) on_wait(open);
    waiting = true;
    std::this_thread::sleep_for(kPollPeriod);
  }
}

std::string DescribeOpenTraces(const std::vector<OpenTrace>& traces) {
  std::string text;
  for (size_t i = 0; i < traces.size() && i < kMaxNamed; ++i) {
    if (i > 0) text += ", ";
    text += base::EscapeControlCharacters(std::filesystem::path(traces[i].path).filename().string());
    if (traces[i].writer_pid > 0) text += fmt::format(" (process {})", traces[i].writer_pid);
  }
  if (traces.size() > kMaxNamed) text += fmt::format(" and {} more", traces.size() - kMaxNamed);
  return text;
}

}  // namespace ampprof::cli
