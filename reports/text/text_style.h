#ifndef AMPPROF_REPORTS_TEXT_TEXT_STYLE_H_
#define AMPPROF_REPORTS_TEXT_TEXT_STYLE_H_

// Colour for the terminal report: ANSI SGR sequences when on, the text unchanged when off. Whether it
// is on is the caller's decision (a TTY, NO_COLOR unset); the reporter only asks. Styles are applied
// to text already laid out, so escape sequences never count towards a line's width.
//
//   const TextStyle style(/*color=*/true);
//   out << style.Heading("Findings") << "\n" << style.Severity(Severity::kCritical, "[critical]");

#include <string>
#include <string_view>

#include "analyzers/findings/finding_catalog.h"

namespace ampprof::reports {

class TextStyle {
 public:
  explicit TextStyle(bool color) : color_(color) {}

  std::string Heading(std::string_view text) const { return Paint("1", text); }
  std::string Dim(std::string_view text) const { return Paint("2", text); }
  // critical: bold red; warning: yellow; info: cyan.
  std::string Severity(analyzers::Severity severity, std::string_view text) const;

 private:
  std::string Paint(std::string_view sgr, std::string_view text) const;

  bool color_;
};

}  // namespace ampprof::reports

#endif  // AMPPROF_REPORTS_TEXT_TEXT_STYLE_H_
