#include "reports/text/markdown_text.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include "src/base/format.h"

namespace ampprof::reports {
namespace {

constexpr size_t kMinTextWidth = 20;
constexpr size_t kCodeIndent = 4;     // code sits this much further in than the prose around it
constexpr size_t kSectionIndent = 2;  // per heading level below 1
constexpr int kMaxHeadingLevel = 4;   // deeper headings are indented as this one
constexpr size_t kMaxListLead = 16;   // deeply nested list items go no further in

// The source is parsed into blocks first, then rendered: a block's indentation depends on the
// headings and list items around it, not only on its own lines.
enum class BlockKind { kHeading, kParagraph, kListItem, kCode, kQuote, kTable };

struct Block {
  BlockKind kind = BlockKind::kParagraph;
  bool blank_before = false;  // the source had a blank line before it
  int level = 0;              // headings: 1 for "#"
  // List items, and the paragraphs and code that continue one, in columns from the text's
  // indentation under its heading:
  size_t lead = 0;  // list items: where the marker goes (the hang of the enclosing item, if any)
  size_t hang = 0;  // where the item's text starts; 0 outside lists
  std::string_view marker;         // list items: "-", "1." (a view of a literal or of the source)
  std::string text;                // headings, paragraphs, list items, quotes: inline Markdown
  std::vector<std::string> lines;  // code and tables: the lines as written
};

struct Line {
  size_t indent = 0;  // in columns; a tab advances to the next multiple of 4
  std::string_view content;
};

Line SplitIndent(std::string_view line) {
  Line result;
  size_t at = 0;
  for (; at < line.size() && (line[at] == ' ' || line[at] == '\t'); ++at) {
    result.indent = line[at] == '\t' ? (result.indent / 4 + 1) * 4 : result.indent + 1;
  }
  result.content = line.substr(at);
  return result;
}

std::string_view TrimRight(std::string_view text) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

bool IsBlank(std::string_view line) { return TrimRight(line).empty(); }

std::vector<std::string_view> SplitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const size_t newline = text.find('\n');
    std::string_view line = text.substr(0, newline);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    if (newline == std::string_view::npos) break;
    text.remove_prefix(newline + 1);
  }
  return lines;
}

// "```python" opens a fence of three backticks; returns 0 when `content` is not a fence.
size_t FenceLength(std::string_view content, char* fence_char) {
  if (content.empty() || (content[0] != '`' && content[0] != '~')) return 0;
  const size_t run = std::min(content.find_first_not_of(content[0]), content.size());
  if (run < 3) return 0;
  *fence_char = content[0];
  return run;
}

bool ClosesFence(std::string_view content, char fence_char, size_t fence_length) {
  char c = 0;
  const size_t run = FenceLength(content, &c);
  return run >= fence_length && c == fence_char && IsBlank(content.substr(run));
}

bool ParseHeading(std::string_view content, int* level, std::string_view* text) {
  const size_t hashes = std::min(content.find_first_not_of('#'), content.size());
  if (hashes == 0 || hashes > 6 || (hashes < content.size() && content[hashes] != ' '))
    return false;
  std::string_view rest = TrimRight(content.substr(hashes));
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  // An optional closing sequence: "## Title ##".
  const size_t last = rest.find_last_not_of('#');
  if (last == std::string_view::npos) {
    rest = {};
  } else if (last + 1 < rest.size() && rest[last] == ' ') {
    rest = TrimRight(rest.substr(0, last));
  }
  *level = static_cast<int>(hashes);
  *text = rest;
  return true;
}

// "- text", "* text", "+ text", "12. text", "3) text".
struct ListMarker {
  std::string_view marker;  // as printed: "-" for every bullet, "12." or "3)" as written
  size_t width = 0;         // the marker's width in the source
  std::string_view text;
};

bool ParseListItem(std::string_view content, ListMarker* item) {
  size_t at = 0;
  if (!content.empty() && (content[0] == '-' || content[0] == '*' || content[0] == '+')) {
    item->marker = "-";
    at = 1;
  } else {
    while (at < content.size() && at < 9 && std::isdigit(static_cast<unsigned char>(content[at])))
      ++at;
    if (at == 0 || at >= content.size() || (content[at] != '.' && content[at] != ')')) return false;
    ++at;
    item->marker = content.substr(0, at);
  }
  if (at < content.size() && content[at] != ' ') return false;
  item->width = at;
  item->text = at < content.size() ? content.substr(at + 1) : std::string_view();
  while (!item->text.empty() && item->text.front() == ' ') item->text.remove_prefix(1);
  return true;
}

bool StartsBlock(const Line& line) {
  if (line.content.empty()) return false;
  char fence_char = 0;
  int level = 0;
  std::string_view text;
  ListMarker item;
  return FenceLength(line.content, &fence_char) > 0 || ParseHeading(line.content, &level, &text) ||
         ParseListItem(line.content, &item) || line.content[0] == '|' || line.content[0] == '>';
}

// Removes up to `columns` columns of leading spaces (code inside a list item is indented in the
// source by the item's marker).
std::string_view RemoveIndent(std::string_view line, size_t columns) {
  size_t at = 0;
  while (at < line.size() && at < columns && line[at] == ' ') ++at;
  return line.substr(at);
}

void AppendJoined(std::string* text, std::string_view line) {
  line = TrimRight(line);
  while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
  if (line.empty()) return;
  if (!text->empty()) *text += ' ';
  *text += line;
}

struct OpenItem {
  size_t content_column;  // where the item's text starts in the source
  size_t hang;            // where it starts in the output (Block::hang)
};

std::vector<Block> Parse(std::string_view markdown) {
  const std::vector<std::string_view> lines = SplitLines(markdown);
  std::vector<Block> blocks;
  std::vector<OpenItem> open_items;  // the list items the next line may continue
  bool blank = false;
  size_t i = 0;

  const auto add = [&](Block block) {
    block.blank_before = blank;
    blank = false;
    blocks.push_back(std::move(block));
  };
  const auto place_in_item = [&](Block* block) {
    if (!open_items.empty()) block->hang = open_items.back().hang;
  };
  // Lines that continue a paragraph: up to a blank line or a line that starts another block.
  const auto continue_paragraph = [&](std::string* text) {
    while (i < lines.size() && !IsBlank(lines[i]) && !StartsBlock(SplitIndent(lines[i]))) {
      AppendJoined(text, lines[i]);
      ++i;
    }
  };

  while (i < lines.size()) {
    if (IsBlank(lines[i])) {
      blank = true;
      ++i;
      continue;
    }
    const Line line = SplitIndent(lines[i]);
    while (!open_items.empty() && line.indent < open_items.back().content_column)
      open_items.pop_back();
    const size_t container = open_items.empty() ? 0 : open_items.back().content_column;

    char fence_char = 0;
    const size_t fence_length = FenceLength(line.content, &fence_char);
    if (fence_length > 0) {
      Block block;
      block.kind = BlockKind::kCode;
      place_in_item(&block);
      for (++i; i < lines.size(); ++i) {
        if (ClosesFence(SplitIndent(lines[i]).content, fence_char, fence_length)) {
          ++i;
          break;
        }
        block.lines.emplace_back(RemoveIndent(lines[i], line.indent));
      }
      add(std::move(block));
      continue;
    }

    // Indented code: four columns past the container, never continuing a paragraph.
    if (line.indent >= container + kCodeIndent &&
        (blank || blocks.empty() || blocks.back().kind == BlockKind::kHeading)) {
      Block block;
      block.kind = BlockKind::kCode;
      place_in_item(&block);
      while (i < lines.size() &&
             (IsBlank(lines[i]) || SplitIndent(lines[i]).indent >= container + kCodeIndent)) {
        block.lines.emplace_back(IsBlank(lines[i])
                                     ? std::string_view()
                                     : RemoveIndent(lines[i], container + kCodeIndent));
        ++i;
      }
      // Blank lines after the code belong between it and the next block.
      const bool blank_after = !block.lines.empty() && block.lines.back().empty();
      while (!block.lines.empty() && block.lines.back().empty()) block.lines.pop_back();
      add(std::move(block));
      blank = blank_after;
      continue;
    }

    int level = 0;
    std::string_view text;
    if (ParseHeading(line.content, &level, &text)) {
      open_items.clear();
      Block block;
      block.kind = BlockKind::kHeading;
      block.level = level;
      block.text = std::string(text);
      add(std::move(block));
      ++i;
      continue;
    }

    if (line.content[0] == '|' || line.content[0] == '>') {
      const char lead = line.content[0];
      Block block;
      block.kind = lead == '|' ? BlockKind::kTable : BlockKind::kQuote;
      place_in_item(&block);
      for (; i < lines.size(); ++i) {
        const Line row = SplitIndent(lines[i]);
        if (row.content.empty() || row.content[0] != lead) break;
        if (lead == '|') {
          block.lines.emplace_back(TrimRight(row.content));
        } else {
          std::string_view quoted = row.content.substr(1);
          if (!quoted.empty() && quoted[0] == ' ') quoted.remove_prefix(1);
          AppendJoined(&block.text, quoted);
        }
      }
      add(std::move(block));
      continue;
    }

    ListMarker item;
    if (ParseListItem(line.content, &item)) {
      Block block;
      block.kind = BlockKind::kListItem;
      block.lead = open_items.empty() ? 0 : std::min(open_items.back().hang, kMaxListLead);
      block.hang = block.lead + item.marker.size() + 1;
      block.marker = item.marker;
      block.text = std::string(item.text);
      open_items.push_back({line.indent + item.width + 1, block.hang});
      ++i;
      continue_paragraph(&block.text);
      add(std::move(block));
      continue;
    }

    Block block;
    block.kind = BlockKind::kParagraph;
    place_in_item(&block);
    continue_paragraph(&block.text);
    add(std::move(block));
  }
  return blocks;
}

std::string Spaces(size_t count) { return std::string(count, ' '); }

size_t TextWidth(size_t width, size_t indent) {
  return std::max(kMinTextWidth, width > indent ? width - indent : 0);
}

// Appends `text` wrapped to `width`, the first line after `first`, the others after `rest`.
void AppendWrapped(std::string* out, std::string_view text, size_t width, const std::string& first,
                   const std::string& rest) {
  const std::vector<std::string> lines = base::WrapText(text, TextWidth(width, first.size()));
  for (size_t n = 0; n < lines.size(); ++n) {
    *out += n == 0 ? first : rest;
    *out += lines[n];
    *out += '\n';
  }
}

std::string Render(const std::vector<Block>& blocks, size_t width) {
  std::string out;
  size_t base = 0;  // the indentation of text under the current heading
  const Block* previous = nullptr;
  for (const Block& block : blocks) {
    if (previous != nullptr) {
      const bool after_heading = previous->kind == BlockKind::kHeading;
      const bool after_title = after_heading && previous->level == 1;
      if (block.kind == BlockKind::kHeading || after_title ||
          (block.blank_before && !after_heading))
        out += '\n';
    }
    previous = &block;
    const size_t hang = base + block.hang;

    switch (block.kind) {
      case BlockKind::kHeading: {
        const std::string text = RenderMarkdownInline(block.text);
        if (block.level == 1) {
          const std::vector<std::string> lines = base::WrapText(text, TextWidth(width, 0));
          size_t longest = 0;
          for (const std::string& line : lines) {
            out += line;
            out += '\n';
            longest = std::max(longest, line.size());
          }
          out += std::string(longest, '=');
          out += '\n';
          base = 0;
        } else {
          const size_t level = static_cast<size_t>(std::min(block.level, kMaxHeadingLevel));
          const std::string indent = Spaces((level - 2) * kSectionIndent);
          AppendWrapped(&out, text, width, indent, indent);
          base = (level - 1) * kSectionIndent;
        }
        break;
      }
      case BlockKind::kParagraph: {
        const std::string indent = Spaces(hang);
        AppendWrapped(&out, RenderMarkdownInline(block.text), width, indent, indent);
        break;
      }
      case BlockKind::kListItem:
        AppendWrapped(&out, RenderMarkdownInline(block.text), width,
                      Spaces(base + block.lead).append(block.marker) + ' ', Spaces(hang));
        break;
      case BlockKind::kQuote: {
        const std::string prefix = Spaces(hang) + "> ";
        AppendWrapped(&out, RenderMarkdownInline(block.text), width, prefix, prefix);
        break;
      }
      case BlockKind::kCode:
      case BlockKind::kTable: {
        const std::string indent =
            Spaces(hang + (block.kind == BlockKind::kCode ? kCodeIndent : 0));
        for (const std::string& line : block.lines) {
          const std::string_view trimmed = TrimRight(line);
          if (!trimmed.empty()) {
            out += indent;
            out += trimmed;
          }
          out += '\n';
        }
        break;
      }
    }
  }
  return out;
}

bool IsAsciiPunctuation(char c) { return std::ispunct(static_cast<unsigned char>(c)) != 0; }

// The length of the run of `c` starting at `at`.
size_t RunLength(std::string_view text, size_t at, char c) {
  const size_t end = text.find_first_not_of(c, at);
  return (end == std::string_view::npos ? text.size() : end) - at;
}

// Where the emphasis opened by `run` stars at `at` closes: the next run of exactly as many stars
// that follows a non-space, outside code spans; npos when it does not close.
size_t FindClosingStars(std::string_view text, size_t at, size_t run) {
  for (size_t j = at + run; j < text.size();) {
    if (text[j] == '`') {
      const size_t ticks = RunLength(text, j, '`');
      const size_t close = text.find(std::string(ticks, '`'), j + ticks);
      if (close == std::string_view::npos) return std::string_view::npos;
      j = close + ticks;
      continue;
    }
    if (text[j] == '*') {
      const size_t stars = RunLength(text, j, '*');
      if (stars == run && text[j - 1] != ' ') return j;
      j += stars;
      continue;
    }
    ++j;
  }
  return std::string_view::npos;
}

}  // namespace

std::string RenderMarkdownInline(std::string_view text) {
  std::string out;
  size_t at = 0;
  while (at < text.size()) {
    const char c = text[at];
    if (c == '\\' && at + 1 < text.size() && IsAsciiPunctuation(text[at + 1])) {
      out += text[at + 1];
      at += 2;
      continue;
    }
    if (c == '`') {
      // A code span runs to the next run of as many backticks; kept as written, backticks included.
      const size_t ticks = RunLength(text, at, '`');
      const size_t close = text.find(std::string(ticks, '`'), at + ticks);
      const size_t end = close == std::string_view::npos ? at + ticks : close + ticks;
      out += text.substr(at, end - at);
      at = end;
      continue;
    }
    if (c == '*') {
      const size_t run = RunLength(text, at, '*');
      const bool opens = run <= 3 && at + run < text.size() && text[at + run] != ' ';
      const size_t close = opens ? FindClosingStars(text, at, run) : std::string_view::npos;
      if (close == std::string_view::npos) {
        out.append(run, '*');
        at += run;
      } else {
        out += RenderMarkdownInline(text.substr(at + run, close - at - run));
        at = close + run;
      }
      continue;
    }
    if (c == '[') {
      const size_t label_end = text.find(']', at + 1);
      if (label_end != std::string_view::npos && label_end + 1 < text.size() &&
          text[label_end + 1] == '(') {
        const size_t url_end = text.find(')', label_end + 2);
        if (url_end != std::string_view::npos) {
          const std::string label = RenderMarkdownInline(text.substr(at + 1, label_end - at - 1));
          const std::string_view url = text.substr(label_end + 2, url_end - label_end - 2);
          out += label;
          // A relative link is a page of these docs: its label names it well enough in a terminal.
          if (url.find("://") != std::string_view::npos && url != label) {
            out += " (";
            out += url;
            out += ')';
          }
          at = url_end + 1;
          continue;
        }
      }
    }
    if (c == '<') {
      const size_t end = text.find('>', at + 1);
      if (end != std::string_view::npos) {
        const std::string_view inner = text.substr(at + 1, end - at - 1);
        if ((inner.starts_with("http://") || inner.starts_with("https://")) &&
            inner.find(' ') == std::string_view::npos) {
          out += inner;
          at = end + 1;
          continue;
        }
      }
    }
    out += c;
    ++at;
  }
  return out;
}

std::string RenderMarkdownAsText(std::string_view markdown, size_t width) {
  return Render(Parse(markdown), width);
}

}  // namespace ampprof::reports
