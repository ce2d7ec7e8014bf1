#include "reports/markdown/markdown_escape.h"

#include "src/base/terminal_text.h"

namespace ampprof::reports {

// Line breaks as spaces, then every other control character escaped (base/terminal_text.h): the
// summary is read on a terminal too (`>> $GITHUB_STEP_SUMMARY`, a pager).
std::string MarkdownPrintable(std::string_view text) {
  std::string flat(text);
  for (char& c : flat) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return base::EscapeControlCharacters(flat);
}

// Text from a trace (kernel names, paths, evidence) as literal Markdown: line breaks become spaces,
// control characters visible escapes, characters that would start markup are backslash-escaped, '|'
// so that it stays in its table cell.
std::string MarkdownEscape(std::string_view raw) {
  const std::string text = MarkdownPrintable(raw);
  std::string escaped;
  escaped.reserve(text.size());
  for (const char c : text) {
    if (std::string_view("\\`*_[]<>|#").find(c) != std::string_view::npos) escaped += '\\';
    escaped += c;
  }
  return escaped;
}

}  // namespace ampprof::reports
