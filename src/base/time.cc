#include "src/base/time.h"

#include <cstdlib>

#include <fmt/format.h>

namespace ampprof::base {

std::string FormatDuration(DurationNs duration) {
  if (duration < 0) return "-" + FormatDuration(-duration);
  if (duration < kNsPerUs) return fmt::format("{} ns", duration);
  struct Unit {
    DurationNs scale;
    const char* name;
  };
  static constexpr Unit kUnits[] = {{kNsPerS, "s"}, {kNsPerMs, "ms"}, {kNsPerUs, "us"}};
  for (const Unit& unit : kUnits) {
    if (duration < unit.scale) continue;
    const double value = static_cast<double>(duration) / static_cast<double>(unit.scale);
    // Three significant digits; seconds keep one decimal however large, as there is no larger unit.
    int decimals = value >= 100.0 ? 0 : (value >= 10.0 ? 1 : 2);
    if (unit.scale == kNsPerS && decimals == 0) decimals = 1;
    return fmt::format("{:.{}f} {}", value, decimals, unit.name);
  }
  return fmt::format("{} ns", duration);  // unreachable: duration >= kNsPerUs matched a unit
}

}  // namespace ampprof::base
