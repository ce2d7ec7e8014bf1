#include "src/base/time.h"

#include <climits>
#include <cmath>
#include <cstdint>
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

// 128 bits hold any int64 nanosecond value times 10 with room to spare while digits are shifted.
__extension__ using Int128 = __int128;

std::optional<TimeNs> ParseMicrosecondsToNs(std::string_view text) {
  size_t at = 0;
  const bool negative = at < text.size() && text[at] == '-';
  if (negative) ++at;
  // The decimal digits, without the point, and how many of them follow the point.
  Int128 mantissa = 0;
  int digits = 0;
  int fraction_digits = 0;
  bool seen_point = false;
  int dropped = 0;             // digits beyond what int128 needs; only their rounding matters
  bool round_up = false;
  for (; at < text.size(); ++at) {
    const char c = text[at];
    if (c == '.' && !seen_point) {
      seen_point = true;
      continue;
    }
    if (c < '0' || c > '9') break;
    ++digits;
    if (mantissa < (Int128{1} << 100)) {
      mantissa = mantissa * 10 + (c - '0');
      if (seen_point) ++fraction_digits;
    } else {
      if (dropped == 0) round_up = c >= '5';
      ++dropped;
      if (!seen_point) --fraction_digits;  // an integer digit we did not keep still scales the value
    }
  }
  if (digits == 0) return std::nullopt;
  int exponent = 0;
  if (at < text.size() && (text[at] == 'e' || text[at] == 'E')) {
    ++at;
    bool exponent_negative = false;
    if (at < text.size() && (text[at] == '+' || text[at] == '-')) exponent_negative = text[at++] == '-';
    int exponent_digits = 0;
    for (; at < text.size() && text[at] >= '0' && text[at] <= '9'; ++at, ++exponent_digits) {
      if (exponent < 10'000) exponent = exponent * 10 + (text[at] - '0');
    }
    if (exponent_digits == 0) return std::nullopt;
    if (exponent_negative) exponent = -exponent;
  }
  if (at != text.size()) return std::nullopt;
  // value_ns = mantissa * 10^(exponent + 3 - fraction_digits)
  int shift = exponent + 3 - fraction_digits;
  Int128 value = mantissa;
  if (round_up && shift < 0) round_up = false;  // a dropped digit below a dropped scale is noise
  if (round_up) ++value;
  for (; shift > 0; --shift) {
    if (value > (Int128{1} << 100)) return std::nullopt;
    value *= 10;
  }
  if (shift < 0) {
    Int128 divisor = 1;
    for (; shift < 0 && divisor < (Int128{1} << 100); ++shift) divisor *= 10;
    if (shift < 0) {
      value = 0;  // far below a nanosecond
    } else {
      value = (value + divisor / 2) / divisor;
    }
  }
  if (value > INT64_MAX) return std::nullopt;
  return negative ? -static_cast<TimeNs>(value) : static_cast<TimeNs>(value);
}

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
