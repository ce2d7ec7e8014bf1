#ifndef AMPPROF_REPORTS_COMMON_STATEMENT_TEXT_H_
#define AMPPROF_REPORTS_COMMON_STATEMENT_TEXT_H_

// The one formatting of a finding's typed numbers, shared by the text, Markdown, HTML and Chrome-trace
// views (JSON writes the numbers themselves beside this text):
//
//   FormatQuantity(Duration("idle", 24'100'000))   // "24.1 ms"
//   FormatQuantity(Fraction("share", 0.291))        // "29.1%"
//   RenderStatement({"{idle} in {gaps} gaps", {Duration("idle", 24'100'000), Count("gaps", 2617)}})
//                                                  // "24.1 ms in 2,617 gaps"
//   DescribeSaving(finding.saving, true)            // "29.1% of the step, 24.1 ms per step"

#include <limits>
#include <string>

#include "analyzers/findings/finding.h"

namespace ampprof::reports {

// A quantity's value as an integer type, clamped to its range (NaN as 0). The value is a double, and a
// trace can make it anything (found by the ampt fuzzer: a count of 1.8e19); converting a double outside
// the integer's range is undefined behaviour, so every view that prints an integer goes through here.
template <typename Integer>
Integer QuantityAs(double value) {
  if (!(value == value)) return 0;  // NaN
  constexpr auto kLowest = static_cast<double>(std::numeric_limits<Integer>::lowest());
  // The type's maximum + 1 (2^63 or 2^64), exactly representable, and the first value out of range.
  constexpr double kPastMax = static_cast<double>(std::numeric_limits<Integer>::max() / 2 + 1) * 2.0;
  if (value <= kLowest) return std::numeric_limits<Integer>::lowest();
  if (value >= kPastMax) return std::numeric_limits<Integer>::max();
  return static_cast<Integer>(value);
}

std::string FormatQuantity(const analyzers::Quantity& quantity);

// The statement's text with each {key} replaced by its formatted value ("{{" and "}}" are braces).
// "{key:noun}" adds the noun after the value, with an "s" unless the value is 1, and "{key:one|many}"
// names both forms. A key without a value stays as written, braces included, so that a mistake shows
// rather than vanishes.
std::string RenderStatement(const analyzers::Statement& statement);

// "29.1% of the step, 24.1 ms per step" (per_step) or "29.1% of the analysed time, 24.1 ms"; a range:
// "18.0% to 31.0% of the step, 45.0 ms to 77.5 ms per step". Empty when there is no saving.
std::string DescribeSaving(const analyzers::Saving& saving, bool per_step);

}  // namespace ampprof::reports

#endif  // AMPPROF_REPORTS_COMMON_STATEMENT_TEXT_H_
