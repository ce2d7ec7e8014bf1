#include "src/pipeline/library_log_files.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <optional>
#include <system_error>

#include "collectors/liblogs/log_environment.h"
#include "collectors/liblogs/log_parser.h"
#include "src/base/logging.h"
#include "src/pipeline/standard_input_copy.h"

namespace ampprof::pipeline {
namespace {

// The pid a log's name states ("cudnn.4242.log"), or nullopt when the name holds none ("cudnn.%i.log").
std::optional<uint32_t> PidOfLogName(const std::string& name) {
  const size_t first = name.find('.');
  const size_t last = name.rfind('.');
  if (first == std::string::npos || last <= first + 1) return std::nullopt;
  uint32_t pid = 0;
  const char* begin = name.data() + first + 1;
  const char* end = name.data() + last;
  const auto [at, error] = std::from_chars(begin, end, pid);
  if (error != std::errc() || at != end) return std::nullopt;
  return pid;
}

int LibraryOrder(liblogs::Library library) {
  switch (library) {
    case liblogs::Library::kCublasLt: return 0;
    case liblogs::Library::kCublas: return 1;
    case liblogs::Library::kCudnn: return 2;
  }
  return 3;
}

}  // namespace

LibraryLogFiles ReadLibraryLogsBeside(const TraceFile& trace, const model::TraceModel& model) {
  LibraryLogFiles found;
  if (trace.name == StandardInputCopy::kName) return found;
  const std::filesystem::path directory = std::filesystem::path(trace.path).parent_path();
  std::error_code error;
  std::filesystem::directory_iterator entries(directory.empty() ? "." : directory, error);
  if (error) return found;  // the trace was read from there; a directory that cannot be listed has no logs for it
  struct Candidate {
    int order;
    std::string name;
    std::filesystem::path path;
  };
  std::vector<Candidate> candidates;
  // increment(error), not the range-for's ++, which throws when listing fails half-way.
  for (; !error && entries != std::filesystem::directory_iterator(); entries.increment(error)) {
    const std::filesystem::directory_entry& entry = *entries;
    const std::string name = entry.path().filename().string();
    const std::optional<liblogs::Library> library = liblogs::LibraryOfLogFileName(name);
    if (!library) continue;
    if (const std::optional<uint32_t> pid = PidOfLogName(name)) {
      const bool ours = std::any_of(model.processes().begin(), model.processes().end(),
                                    [&](const model::Process& process) { return process.pid == *pid; });
      if (!ours) continue;  // another process's log (another rank's, a child's)
    }
    // Only regular files: a named pipe with a log's name would block the read.
    std::error_code stat_error;  // a broken link: not read, and the listing goes on
    if (!entry.is_regular_file(stat_error)) {
      base::LogWarning("library log {}: not a regular file, not read", entry.path().string());
      continue;
    }
    candidates.push_back({LibraryOrder(*library), name, entry.path()});
  }
  std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
    return a.order != b.order ? a.order < b.order : a.name < b.name;
  });
  for (const Candidate& candidate : candidates) {
    std::error_code size_error;
    if (std::filesystem::is_empty(candidate.path, size_error) && !size_error) {
      base::LogInfo("library log {}: empty, not used", candidate.path.string());
      continue;
    }
    base::StatusOr<liblogs::LibraryLog> log = liblogs::ParseLibraryLogFile(candidate.path);
    if (!log.ok()) {
      base::LogWarning("library log not used: {}", log.status().message());
      continue;
    }
    found.paths.push_back(candidate.path.string());
    found.logs.push_back(std::move(*log));
  }
  return found;
}

}  // namespace ampprof::pipeline
