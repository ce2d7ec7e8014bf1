#ifndef AMPPROF_REPORTS_TEXT_MARKDOWN_TEXT_H_
#define AMPPROF_REPORTS_TEXT_MARKDOWN_TEXT_H_

// Renders Markdown as plain text for a terminal: what `ampprof explain` prints of a finding's page
// (docs/findings/<id>.md). Light on purpose: the pages are ours, so it reads the Markdown they use
// and prints anything else as ordinary text, never failing.
//
//   std::cout << RenderMarkdownAsText("# Title\n\nSome *prose*.\n\n```python\nx = 1\n```\n", 80);
//
//   Title
//   =====
//
//   Some prose.
//
//       x = 1
//
// Blocks: "#" headings (level 1 underlined with '='; the text under a level-2 heading indented by
// two columns, under a level-3 heading by four), paragraphs wrapped to `width`, bullet and numbered
// list items with a hanging indent (nested by their indentation), fenced code blocks (``` or ~~~)
// and 4-space indented code printed as written, four columns further in, never wrapped; block
// quotes prefixed with "> "; tables kept as written. Inline: `code spans` kept with their backticks
// (they delimit code in prose); *emphasis* and **strong** markers dropped; [text](url) as its text,
// followed by the URL in parentheses when it is absolute; backslash escapes resolved. Blank lines
// between blocks follow the source, plus one before each heading. No line ends in a space.

#include <cstddef>
#include <string>
#include <string_view>

namespace ampprof::reports {

// `width` is the terminal's width in columns; prose narrower than 20 columns is wrapped at 20.
std::string RenderMarkdownAsText(std::string_view markdown, size_t width);

// One line of Markdown inline text as plain text (the inline rules above), without wrapping.
std::string RenderMarkdownInline(std::string_view text);

}  // namespace ampprof::reports

#endif  // AMPPROF_REPORTS_TEXT_MARKDOWN_TEXT_H_
