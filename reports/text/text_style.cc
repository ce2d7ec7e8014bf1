#include "reports/text/text_style.h"

#include <fmt/format.h>

namespace ampprof::reports {

std::string TextStyle::Paint(std::string_view sgr, std::string_view text) const {
  if (!color_ || text.empty()) return std::string(text);
  return fmt::format("\x1b[{}m{}\x1b[0m", sgr, text);
}

std::string TextStyle::Severity(analyzers::Severity severity, std::string_view text) const {
  switch (severity) {
    case analyzers::Severity::kCritical: return Paint("1;31", text);
    case analyzers::Severity::kWarning: return Paint("33", text);
    case analyzers::Severity::kInfo: return Paint("36", text);
  }
  return std::string(text);
}

}  // namespace ampprof::reports
