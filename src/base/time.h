#ifndef AMPPROF_SRC_BASE_TIME_H_
#define AMPPROF_SRC_BASE_TIME_H_

// Time in ampprof: every timestamp is an int64 count of nanoseconds in the trace's one clock domain
// (CUPTI's timestamp clock for .ampt traces, the profiler's clock for imports). Conversions from other
// units happen once, at the importer boundary, with integer arithmetic only.
//
//   Interval step{.start = 1'000, .end = 4'500};
//   FormatDuration(step.duration());   // "3.50 us"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace ampprof::base {

using TimeNs = int64_t;      // a point in the trace's clock domain
using DurationNs = int64_t;  // a difference of two TimeNs

inline constexpr DurationNs kNsPerUs = 1'000;
inline constexpr DurationNs kNsPerMs = 1'000'000;
inline constexpr DurationNs kNsPerS = 1'000'000'000;

// Timestamps ampprof accepts: [0, 2^62) ns, 146 years from the clock's origin, which every real clock
// (CUPTI's epoch nanoseconds, profilers' relative microseconds) stays within. Any difference or sum of
// a few of them then fits in int64; records outside are damaged input and are dropped with a stat.
inline constexpr TimeNs kMaxTraceTime = TimeNs{1} << 62;
inline constexpr bool IsValidTraceTime(TimeNs t) { return t >= 0 && t < kMaxTraceTime; }

// part / whole as a fraction (for FormatPercent), 0 when `whole` is not positive.
inline double ShareOf(DurationNs part, DurationNs whole) {
  return whole > 0 ? static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

// a + b, clamped to the int64 range instead of overflowing (for totals over many durations).
inline int64_t SaturatingAdd(int64_t a, int64_t b) {
  int64_t sum;
  if (!__builtin_add_overflow(a, b, &sum)) return sum;
  return b > 0 ? INT64_MAX : INT64_MIN;
}

// A half-open interval [start, end). end >= start is a precondition of the methods.
struct Interval {
  TimeNs start = 0;
  TimeNs end = 0;

  DurationNs duration() const { return end - start; }
  bool Contains(TimeNs t) const { return start <= t && t < end; }
  // Empty intervals overlap nothing: they hold no point.
  bool Overlaps(const Interval& other) const {
    return start < end && other.start < other.end && start < other.end && other.start < end;
  }
  friend bool operator==(const Interval&, const Interval&) = default;
};

// Converts a decimal number of microseconds, as JSON traces write it ("1419247332972.313", "12",
// "4.5e3"), to integer nanoseconds exactly: digits are shifted, never multiplied as floating point, so
// two timestamps that differ by a nanosecond in the text differ by a nanosecond here, and an end never
// rounds to before its start. Digits beyond nanoseconds are rounded half away from zero. Returns nullopt
// for text that is not a JSON number or whose value does not fit in int64 nanoseconds.
std::optional<TimeNs> ParseMicrosecondsToNs(std::string_view text);

// Three significant digits in the largest unit that keeps the value >= 1: "0 ns", "850 ns", "12.3 us",
// "4.56 ms", "1.23 s", "75.0 s", "1234.5 s". Negative durations keep their sign.
std::string FormatDuration(DurationNs duration);

}  // namespace ampprof::base

#endif  // AMPPROF_SRC_BASE_TIME_H_
