#include "collectors/liblogs/log_environment.h"

#include <array>
#include <string_view>

namespace ampprof::liblogs {
namespace {

struct LibraryLogSettings {
  Library library;
  std::string_view file_prefix;  // "<prefix>.%i.log"
  std::string_view level_variable;
  std::string_view level;
  std::string_view file_variable;
};

constexpr std::array<LibraryLogSettings, 3> kSettings = {{
    // Level 2, "Trace": "API calls that launch CUDA kernels will log their parameters" (one line each).
    {Library::kCublasLt, "cublaslt", "CUBLASLT_LOG_LEVEL", "2", "CUBLASLT_LOG_FILE"},
    {Library::kCublas, "cublas", "CUBLAS_LOGINFO_DBG", "1", "CUBLAS_LOGDEST_DBG"},
    // Level 3, "info": the level at which cuDNN logs API calls (2 is warnings and errors only).
    {Library::kCudnn, "cudnn", "CUDNN_LOGLEVEL_DBG", "3", "CUDNN_LOGDEST_DBG"},
}};

}  // namespace

std::vector<EnvironmentVariable> LibraryLogEnvironment(const std::filesystem::path& directory) {
  std::vector<EnvironmentVariable> variables;
  for (const LibraryLogSettings& settings : kSettings) {
    variables.push_back({std::string(settings.level_variable), std::string(settings.level)});
    const std::filesystem::path file = directory / (std::string(settings.file_prefix) + ".%i.log");
    variables.push_back({std::string(settings.file_variable), file.string()});
  }
  return variables;
}

std::optional<Library> LibraryOfLogFileName(const std::filesystem::path& path) {
  const std::string name = path.filename().string();
  for (const LibraryLogSettings& settings : kSettings) {
    if (name.starts_with(std::string(settings.file_prefix) + ".") && name.ends_with(".log")) return settings.library;
  }
  return std::nullopt;
}

}  // namespace ampprof::liblogs
