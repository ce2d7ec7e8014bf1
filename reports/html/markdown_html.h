#ifndef AMPPROF_REPORTS_HTML_MARKDOWN_HTML_H_
#define AMPPROF_REPORTS_HTML_MARKDOWN_HTML_H_

// Renders the Markdown of the finding pages (docs/findings/<id>.md) as HTML for the report: the
// same light subset that markdown_text.h reads, so that the page on GitHub, `ampprof explain` and
// the HTML report show one text. Everything is escaped; nothing in the input becomes markup of its
// own.
//
//   out << RenderMarkdownAsHtml(FindingSection(FindingDoc(id), "How to fix it"), options);
//
// Blocks: "#" headings (shifted down by `heading_offset` levels, at most <h6>), paragraphs, bullet
// and numbered lists (one level), fenced code blocks as <pre><code> inside a <div class="code">
// with a "copy" button the page's script wires up, block quotes. Inline: `code`, *emphasis*,
// **strong**, and [text](target): a link to another finding's page (gpu.sync_stall.md) points at
// that finding in the report when `finding_anchor` names one, absolute URLs stay links, anything
// else is plain text.

#include <functional>
#include <string>
#include <string_view>

namespace ampprof::reports {

struct MarkdownHtmlOptions {
  int heading_offset = 2;
  // The in-page anchor ("finding-gpu.sync_stall") of a finding id, or "" when the report does not
  // show it.
  std::function<std::string(std::string_view id)> finding_anchor;
};

std::string RenderMarkdownAsHtml(std::string_view markdown, const MarkdownHtmlOptions& options);

// The body of the section of `markdown` under the level-2 heading `title` ("How to fix it"), up to
// the next level-1 or level-2 heading; empty when there is no such section.
std::string_view MarkdownSection(std::string_view markdown, std::string_view title);

}  // namespace ampprof::reports

#endif  // AMPPROF_REPORTS_HTML_MARKDOWN_HTML_H_
