#include "src/base/logging.h"

#include <atomic>
#include <memory>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "src/base/terminal_text.h"

namespace ampprof::base {
namespace {

std::atomic<LogLevel> g_level{LogLevel::kWarning};

spdlog::level::level_enum ToSpdlog(LogLevel level) {
  switch (level) {
    case LogLevel::kTrace: return spdlog::level::trace;
    case LogLevel::kDebug: return spdlog::level::debug;
    case LogLevel::kInfo: return spdlog::level::info;
    case LogLevel::kWarning: return spdlog::level::warn;
    case LogLevel::kError: return spdlog::level::err;
    case LogLevel::kOff: return spdlog::level::off;
  }
  return spdlog::level::off;
}

// The logger is created on first use so that merely linking base has no static-initialisation cost.
spdlog::logger& Logger() {
  static const std::shared_ptr<spdlog::logger> logger = [] {
    auto created = spdlog::stderr_color_mt("ampprof");
    created->set_pattern("ampprof: %^%l%$: %v");
    created->set_level(spdlog::level::trace);  // filtering happens in ShouldLog()
    return created;
  }();
  return *logger;
}

}  // namespace

StatusOr<LogLevel> ParseLogLevel(std::string_view name) {
  if (name == "trace") return LogLevel::kTrace;
  if (name == "debug") return LogLevel::kDebug;
  if (name == "info") return LogLevel::kInfo;
  if (name == "warning" || name == "warn") return LogLevel::kWarning;
  if (name == "error") return LogLevel::kError;
  if (name == "off") return LogLevel::kOff;
  return InvalidArgumentError("unknown log level '{}' (expected trace, debug, info, warning, error or off)",
                              name);
}

void SetLogLevel(LogLevel level) { g_level.store(level, std::memory_order_relaxed); }
LogLevel GetLogLevel() { return g_level.load(std::memory_order_relaxed); }

bool ShouldLog(LogLevel level) {
  return level != LogLevel::kOff && static_cast<int>(level) >= static_cast<int>(GetLogLevel());
}

void LogMessage(LogLevel level, std::string_view message) {
  // Messages name files and kernels from traces: their control characters must not reach the
  // terminal.
  Logger().log(ToSpdlog(level), "{}", EscapeControlCharacters(message));
}

}  // namespace ampprof::base
