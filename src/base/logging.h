#ifndef AMPPROF_SRC_BASE_LOGGING_H_
#define AMPPROF_SRC_BASE_LOGGING_H_

// Logging facade over spdlog. Quiet by default (warnings and errors only, on stderr); `--log-level`
// raises it. Formatting uses fmt syntax and is skipped entirely when the level is off.
//
//   LogInfo("read {} chunks from {}", chunks, path);
//   if (ShouldLog(LogLevel::kDebug)) { ...expensive diagnostics... }
//
// Only this file's .cc includes spdlog, so the rest of ampprof does not depend on it.

#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "src/base/status.h"

namespace ampprof::base {

enum class LogLevel : int { kTrace, kDebug, kInfo, kWarning, kError, kOff };

// Accepts trace, debug, info, warning (or warn), error, off.
StatusOr<LogLevel> ParseLogLevel(std::string_view name);
void SetLogLevel(LogLevel level);
LogLevel GetLogLevel();
bool ShouldLog(LogLevel level);
void LogMessage(LogLevel level, std::string_view message);

template <typename... Args>
void Log(LogLevel level, fmt::format_string<Args...> format, Args&&... args) {
  if (ShouldLog(level)) LogMessage(level, fmt::format(format, std::forward<Args>(args)...));
}
template <typename... Args>
void LogDebug(fmt::format_string<Args...> format, Args&&... args) {
  Log(LogLevel::kDebug, format, std::forward<Args>(args)...);
}
template <typename... Args>
void LogInfo(fmt::format_string<Args...> format, Args&&... args) {
  Log(LogLevel::kInfo, format, std::forward<Args>(args)...);
}
template <typename... Args>
void LogWarning(fmt::format_string<Args...> format, Args&&... args) {
  Log(LogLevel::kWarning, format, std::forward<Args>(args)...);
}
template <typename... Args>
void LogError(fmt::format_string<Args...> format, Args&&... args) {
  Log(LogLevel::kError, format, std::forward<Args>(args)...);
}

}  // namespace ampprof::base

#endif  // AMPPROF_SRC_BASE_LOGGING_H_
