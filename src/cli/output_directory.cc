#include "src/cli/output_directory.h"

#include <unistd.h>

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

  std::vector<fs::path> earlier;
  for (const fs::directory_entry& entry : fs::directory_iterator(directory, error)) {
    if (entry.path().extension() == ".ampt") earlier.push_back(entry.path());
  }
  if (error)
    return base::IoError("{}: cannot list the output directory: {}", path, error.message());
  if (!earlier.empty() && !replace) {
    return base::InvalidArgumentError(
        "{}: holds {} trace(s) of an earlier run ({}...); pass --force to replace them, or -o "
        "another "
        "directory",
        path, earlier.size(), earlier.front().filename().string());
  }
  for (const fs::path& trace : earlier) {
    fs::remove(trace, error);
    if (error) return base::IoError("{}: cannot remove: {}", trace.string(), error.message());
  }
  return directory.lexically_normal().string();
}

}  // namespace ampprof::cli
