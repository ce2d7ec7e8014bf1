#include "reports/common/statement_text.h"

#include <limits>

#include <fmt/format.h>

#include "src/base/format.h"
#include "src/base/time.h"

namespace ampprof::reports {
namespace {

// A quantity's value as an integer type, clamped to its range (NaN as 0). The value is a double, and a
// trace can make it anything (found by the ampt fuzzer: a count of 1.8e19); converting a double outside
// the integer's range is undefined behaviour, so every conversion goes through here.
template <typename Integer>
Integer Clamped(double value) {
  if (!(value == value)) return 0;  // NaN
  constexpr auto kLowest = static_cast<double>(std::numeric_limits<Integer>::lowest());
  // The largest double below the type's maximum + 1: 2^63 or 2^64 exactly, which is out of range.
  constexpr double kPastMax = static_cast<double>(std::numeric_limits<Integer>::max() / 2 + 1) * 2.0;
  if (value <= kLowest) return std::numeric_limits<Integer>::lowest();
  if (value >= kPastMax) return std::numeric_limits<Integer>::max();
  return static_cast<Integer>(value);
}

}  // namespace

std::string FormatQuantity(const analyzers::Quantity& quantity) {
  switch (quantity.unit) {
    case analyzers::Unit::kDuration: return base::FormatDuration(Clamped<base::DurationNs>(quantity.value));
    case analyzers::Unit::kBytes: return base::FormatBytes(Clamped<uint64_t>(quantity.value));
    case analyzers::Unit::kCount: return base::FormatCount(Clamped<int64_t>(quantity.value));
    case analyzers::Unit::kFraction: return base::FormatPercent(quantity.value);
    case analyzers::Unit::kRatio: return fmt::format("{:.2f}x", quantity.value);
    case analyzers::Unit::kNumber: return fmt::format("{:.1f}", quantity.value);
  }
  return fmt::format("{}", quantity.value);
}

namespace {

// "{kernels:kernel}" and "{kernels:launch|launches}": the noun after a count, plural unless it is 1.
std::string Noun(std::string_view forms, double count) {
  const size_t bar = forms.find('|');
  const std::string_view singular = forms.substr(0, bar);
  if (count == 1.0) return std::string(singular);
  return bar == std::string_view::npos ? std::string(singular) + "s" : std::string(forms.substr(bar + 1));
}

}  // namespace

std::string RenderStatement(const analyzers::Statement& statement) {
  const std::string& text = statement.text;
  std::string out;
  out.reserve(text.size() + 16);
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if ((c == '{' || c == '}') && i + 1 < text.size() && text[i + 1] == c) {  // "{{" or "}}"
      out += c;
      ++i;
      continue;
    }
    if (c != '{') {
      out += c;
      continue;
    }
    const size_t close = text.find('}', i);
    if (close == std::string::npos) {
      out += text.substr(i);
      break;
    }
    const std::string_view placeholder(text.data() + i + 1, close - i - 1);
    const size_t colon = placeholder.find(':');
    const std::string_view key = placeholder.substr(0, colon);
    if (const analyzers::Quantity* value = statement.Find(key)) {
      out += FormatQuantity(*value);
      if (colon != std::string_view::npos) out += " " + Noun(placeholder.substr(colon + 1), value->value);
    } else {
      out.append(text, i, close - i + 1);
    }
    i = close;
  }
  return out;
}

std::string DescribeSaving(const analyzers::Saving& saving, bool per_step) {
  if (saving.none()) return "";
  const char* of = per_step ? "of the step" : "of the analysed time";
  const char* each = per_step ? " per step" : "";
  if (saving.is_range()) {
    return fmt::format("{} to {} {}, {} to {}{}", base::FormatPercent(saving.low_fraction),
                       base::FormatPercent(saving.fraction), of, base::FormatDuration(saving.low_ns),
                       base::FormatDuration(saving.ns), each);
  }
  return fmt::format("{} {}, {}{}", base::FormatPercent(saving.fraction), of, base::FormatDuration(saving.ns), each);
}

}  // namespace ampprof::reports
