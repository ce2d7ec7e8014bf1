#include "src/cli/output_directory.h"

#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <vector>

namespace ampprof::cli {

namespace fs = std::filesystem;

base::StatusOr<std::string> PrepareOutputDirectory(const std::string& path, bool replace) {
  std::error_code error;
  const fs::path directory = fs::absolute(path, error);
  if (error) return base::IoError("{}: {}", path, error.message());
  if (fs::exists(directory, error) && !fs::is_directory(directory, error)) {
    return base::InvalidArgumentError("{}: exists and is not a directory", path);
  }
  fs::create_directories(directory, error);
  if (error)
    return base::IoError("{}: cannot create the output directory: {}", path, error.message());
  if (access(directory.c_str(), W_OK | X_OK) != 0) {
    return base::IoError("{}: the output directory is not writable", path);
  }
  // A disk that is already full would leave every process without a trace; one that fills during
  // the run is the writer's business (it counts what it could not write).
  struct statvfs space {};
  if (statvfs(directory.c_str(), &space) == 0 && space.f_bavail == 0) {
    return base::IoError("{}: no space left on the output directory's device", path);
  }

  ASSIGN_OR_RETURN(const std::vector<std::string> earlier, AmptTracesIn(directory.string()));
  if (!earlier.empty() && !replace) {
    return base::InvalidArgumentError(
        "{}: holds {} trace(s) of an earlier run ({}...); pass --force to replace them, or -o "
        "another directory",
        path, earlier.size(), fs::path(earlier.front()).filename().string());
  }
  for (const std::string& trace : earlier) {
    fs::remove(trace, error);
    if (error) return base::IoError("{}: cannot remove: {}", trace, error.message());
  }
  return directory.lexically_normal().string();
}

base::StatusOr<std::vector<std::string>> AmptTracesIn(const std::string& dir) {
  std::vector<std::string> traces;
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, error)) {
    if (entry.path().extension() == ".ampt") traces.push_back(entry.path().string());
  }
  if (error) return base::IoError("{}: cannot list the directory: {}", dir, error.message());
  std::sort(traces.begin(), traces.end());
  return traces;
}

}  // namespace ampprof::cli
