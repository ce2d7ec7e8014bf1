#include "src/base/time.h"

#include <cmath>
#include <cstdlib>
#include <iterator>

#include <fmt/format.h>

namespace ampprof::base {

namespace {

// Decimals that give three significant digits for `value` in [1, 1000) *after* rounding, so that
// 9.999 prints as "10.0", not "10.00". Returns -1 when the value rounds up to 1000 (the next unit).
int SignificantDecimals(double value) {
  for (int decimals = 2; decimals >= 0; --decimals) {
    const double limit = decimals == 2 ? 10.0 : (decimals == 1 ? 100.0 : 1000.0);
    const double scale = decimals == 2 ? 100.0 : (decimals == 1 ? 10.0 : 1.0);
    if (std::round(value * scale) / scale < limit) return decimals;
  }
  return -1;
}

}  // namespace

std::string FormatDuration(DurationNs duration) {
  // Work on the unsigned magnitude so that INT64_MIN does not overflow.
  const bool negative = duration < 0;
  const uint64_t magnitude = negative ? 0 - static_cast<uint64_t>(duration) : static_cast<uint64_t>(duration);
  const char* sign = negative ? "-" : "";
  if (magnitude < static_cast<uint64_t>(kNsPerUs)) return fmt::format("{}{} ns", sign, magnitude);
  struct Unit {
    DurationNs scale;
    const char* name;
  };
  static constexpr Unit kUnits[] = {{kNsPerUs, "us"}, {kNsPerMs, "ms"}, {kNsPerS, "s"}};
  for (size_t i = 0; i < std::size(kUnits); ++i) {
    const double value = static_cast<double>(magnitude) / static_cast<double>(kUnits[i].scale);
    const bool last = i + 1 == std::size(kUnits);
    if (!last && value >= 1000.0) continue;
    int decimals = SignificantDecimals(value);
    if (decimals < 0 && !last) continue;  // rounds up to 1000: say it in the next unit
    // Seconds are the largest unit: past 1000 s keep one decimal rather than grow the unit.
    if (last && decimals <= 0) decimals = 1;
    return fmt::format("{}{:.{}f} {}", sign, value, decimals, kUnits[i].name);
  }
  return fmt::format("{}{} ns", sign, magnitude);  // unreachable: seconds always format
}

}  // namespace ampprof::base
