#ifndef AMPPROF_REPORTS_MARKDOWN_MARKDOWN_ESCAPE_H_
#define AMPPROF_REPORTS_MARKDOWN_MARKDOWN_ESCAPE_H_

// Text from a trace made safe for the Markdown views (the per-trace summary and the cross-rank report).
//
//   out << "| " << MarkdownEscape(report.label) << " |";

#include <string>
#include <string_view>

namespace ampprof::reports {

// Line breaks as spaces, then every other control character escaped (base/terminal_text.h): the
// summary is read on a terminal too (`>> $GITHUB_STEP_SUMMARY`, a pager).
std::string MarkdownPrintable(std::string_view text);

// Text from a trace (kernel names, paths, evidence) as literal Markdown: line breaks become spaces,
// control characters visible escapes, characters that would start markup are backslash-escaped, '|'
// so that it stays in its table cell.
std::string MarkdownEscape(std::string_view raw);

}  // namespace ampprof::reports

#endif  // AMPPROF_REPORTS_MARKDOWN_MARKDOWN_ESCAPE_H_
