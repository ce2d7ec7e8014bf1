#include "reports/common/statement_text.h"

#include <fmt/format.h>

#include "src/base/format.h"
#include "src/base/time.h"

namespace ampprof::reports {
std::string FormatQuantity(const analyzers::Quantity& quantity) {
  switch (quantity.unit) {
    case analyzers::Unit::kDuration: return base::FormatDuration(QuantityAs<base::DurationNs>(quantity.value));
    case analyzers::Unit::kBytes: return base::FormatBytes(QuantityAs<uint64_t>(quantity.value));
    case analyzers::Unit::kCount: return base::FormatCount(QuantityAs<int64_t>(quantity.value));
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
