#include "src/base/format.h"

#include <cmath>
#include <iterator>

#include <fmt/format.h>

namespace ampprof::base {

std::string FormatCount(int64_t count) {
  const bool negative = count < 0;
  // Work on the unsigned magnitude so that INT64_MIN does not overflow.
  uint64_t magnitude = negative ? 0 - static_cast<uint64_t>(count) : static_cast<uint64_t>(count);
  std::string digits = fmt::format("{}", magnitude);
  std::string out;
  out.reserve(digits.size() + digits.size() / 3 + 1);
  if (negative) out.push_back('-');
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return out;
}

std::string FormatBytes(uint64_t bytes) {
  static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  if (bytes < 1024) return fmt::format("{} B", bytes);
  double value = static_cast<double>(bytes);
  size_t unit = 0;
  while (value >= 1024.0 && unit + 1 < std::size(kUnits)) {
    value /= 1024.0;
    ++unit;
  }
  // Decide the decimals on the rounded value, so that 1023.99 KiB reads "1.00 MiB" and 9.999 KiB
  // reads "10.0 KiB" (three significant digits).
  if (std::round(value) >= 1024.0 && unit + 1 < std::size(kUnits)) {
    value /= 1024.0;
    ++unit;
  }
  int decimals = 2;
  if (std::round(value * 100.0) / 100.0 >= 10.0) decimals = 1;
  if (std::round(value * 10.0) / 10.0 >= 100.0) decimals = 0;
  return fmt::format("{:.{}f} {}", value, decimals, kUnits[unit]);
}

std::string FormatPercent(double fraction) { return fmt::format("{:.1f}%", fraction * 100.0); }

std::vector<std::string> WrapText(std::string_view text, size_t width) {
  std::vector<std::string> lines;
  std::string line;
  size_t at = 0;
  while (at < text.size()) {
    const size_t space = text.find(' ', at);
    const std::string_view word =
        text.substr(at, space == std::string_view::npos ? std::string_view::npos : space - at);
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      lines.push_back(std::move(line));
      line.clear();
    }
    if (!line.empty() && !word.empty()) line += ' ';
    line += word;
    if (space == std::string_view::npos) break;
    at = space + 1;
  }
  if (!line.empty()) lines.push_back(std::move(line));
  return lines;
}

}  // namespace ampprof::base
