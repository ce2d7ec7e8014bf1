#include "src/pipeline/trace_inputs.h"

#include <algorithm>
#include <filesystem>

#include "src/base/logging.h"
#include "src/pipeline/trace_loader.h"

namespace ampprof::pipeline {

base::StatusOr<std::vector<std::string>> ExpandTraceInputs(const std::vector<std::string>& paths) {
  std::vector<std::string> files;
  for (const std::string& path : paths) {
    std::error_code error;
    if (!std::filesystem::is_directory(path, error)) {
      files.push_back(path);
      continue;
    }
    std::vector<std::string> found;
    for (const auto& entry : std::filesystem::directory_iterator(path, error)) {
      if (!entry.is_regular_file(error)) continue;
      const auto format = SniffTraceFormat(entry.path().string());
      if (format.ok() && *format != TraceFormat::kUnknown) {
        found.push_back(entry.path().string());
      } else {
        base::LogInfo("skipping {}: not a trace", entry.path().string());
      }
    }
    if (error) return base::IoError("{}: cannot list the directory: {}", path, error.message());
    if (found.empty()) return base::InvalidDataError("{}: no trace files in this directory", path);
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

}  // namespace ampprof::pipeline
