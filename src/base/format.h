#ifndef AMPPROF_SRC_BASE_FORMAT_H_
#define AMPPROF_SRC_BASE_FORMAT_H_

// Number formatting shared by every report, so that the same quantity reads the same everywhere.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ampprof::base {

// 1234567 -> "1,234,567".
std::string FormatCount(int64_t count);

// Binary units with three significant digits: "512 B", "4.00 KiB", "1.50 GiB".
std::string FormatBytes(uint64_t bytes);

// 0.61234 -> "61.2%".
std::string FormatPercent(double fraction);

// Splits `text` into lines of at most `width` characters at spaces; a longer word gets a line of its own.
std::vector<std::string> WrapText(std::string_view text, size_t width);

}  // namespace ampprof::base

#endif  // AMPPROF_SRC_BASE_FORMAT_H_
