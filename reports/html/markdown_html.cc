#include "reports/html/markdown_html.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <vector>

#include "reports/html/html_escape.h"

namespace ampprof::reports {
namespace {

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r'))
    text.remove_suffix(1);
  return text;
}

std::vector<std::string_view> Lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    lines.push_back(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

int HeadingLevel(std::string_view line) {
  size_t level = 0;
  while (level < line.size() && line[level] == '#') ++level;
  if (level == 0 || level > 6 || level >= line.size() || line[level] != ' ') return 0;
  return static_cast<int>(level);
}

bool IsFence(std::string_view line) {
  const std::string_view trimmed = Trim(line);
  return trimmed.starts_with("```") || trimmed.starts_with("~~~");
}

// "- item", "* item", "1. item": whether the line starts a list item, of which kind, and its text.
struct ListMarker {
  bool is_item = false;
  bool ordered = false;
  std::string_view text;
};

ListMarker ListItem(std::string_view line) {
  const std::string_view trimmed = Trim(line);
  if (trimmed.size() > 2 && (trimmed[0] == '-' || trimmed[0] == '*') && trimmed[1] == ' ') {
    return {true, false, Trim(trimmed.substr(2))};
  }
  size_t digits = 0;
  while (digits < trimmed.size() && trimmed[digits] >= '0' && trimmed[digits] <= '9') ++digits;
  if (digits > 0 && digits + 1 < trimmed.size() && trimmed[digits] == '.' &&
      trimmed[digits + 1] == ' ') {
    return {true, true, Trim(trimmed.substr(digits + 2))};
  }
  return {};
}

class InlineRenderer {
 public:
  explicit InlineRenderer(const MarkdownHtmlOptions& options) : options_(options) {}

  std::string Render(std::string_view text) const {
    std::string out;
    bool em = false;
    bool strong = false;
    for (size_t i = 0; i < text.size();) {
      const char c = text[i];
      if (c == '\\' && i + 1 < text.size()) {
        out += EscapeHtml(text.substr(i + 1, 1));
        i += 2;
      } else if (c == '`') {
        const size_t end = text.find('`', i + 1);
        if (end == std::string_view::npos) {
          out += "`";
          ++i;
          continue;
        }
        out += "<code>" + EscapeHtml(text.substr(i + 1, end - i - 1)) + "</code>";
        i = end + 1;
      } else if (c == '*' && i + 1 < text.size() && text[i + 1] == '*') {
        out += strong ? "</strong>" : "<strong>";
        strong = !strong;
        i += 2;
      } else if (c == '*' || c == '_') {
        // '_' inside a word (snake_case names) is not emphasis.
        const bool word_before = i > 0 && std::isalnum(static_cast<unsigned char>(text[i - 1]));
        const bool word_after =
            i + 1 < text.size() && std::isalnum(static_cast<unsigned char>(text[i + 1]));
        if (c == '_' && word_before && word_after) {
          out += c;
        } else {
          out += em ? "</em>" : "<em>";
          em = !em;
        }
        ++i;
      } else if (c == '[') {
        i = Link(text, i, out);
      } else {
        out += EscapeHtml(text.substr(i, 1));
        ++i;
      }
    }
    if (em) out += "</em>";
    if (strong) out += "</strong>";
    return out;
  }

 private:
  // [text](target) at text[i]: appends it and returns the index after it.
  size_t Link(std::string_view text, size_t i, std::string& out) const {
    const size_t close = text.find("](", i);
    const size_t end = close == std::string_view::npos ? close : text.find(')', close + 2);
    if (end == std::string_view::npos) {
      out += "[";
      return i + 1;
    }
    const std::string label = Render(text.substr(i + 1, close - i - 1));
    const std::string_view target = text.substr(close + 2, end - close - 2);
    std::string href;
    if (target.starts_with("https://") || target.starts_with("http://")) {
      href = std::string(target);
    } else if (target.ends_with(".md") && target.find('/') == std::string_view::npos &&
               options_.finding_anchor) {
      const std::string anchor = options_.finding_anchor(target.substr(0, target.size() - 3));
      if (!anchor.empty()) href = "#" + anchor;
    }
    out += href.empty() ? label : fmt::format("<a href=\"{}\">{}</a>", EscapeHtml(href), label);
    return end + 1;
  }

  const MarkdownHtmlOptions& options_;
};

}  // namespace

std::string_view MarkdownSection(std::string_view markdown, std::string_view title) {
  size_t offset = 0;
  size_t body = std::string_view::npos;
  bool in_fence = false;
  for (std::string_view line : Lines(markdown)) {
    const size_t line_start = offset;
    offset += line.size() + 1;
    if (IsFence(line)) in_fence = !in_fence;
    if (in_fence) continue;
    const int level = HeadingLevel(line);
    if (level == 0 || level > 2) continue;
    if (body != std::string_view::npos) return markdown.substr(body, line_start - body);
    if (level == 2 && Trim(line.substr(3)) == title) body = std::min(offset, markdown.size());
  }
  return body == std::string_view::npos ? std::string_view() : markdown.substr(body);
}

std::string RenderMarkdownAsHtml(std::string_view markdown, const MarkdownHtmlOptions& options) {
  const InlineRenderer inline_renderer(options);
  const std::vector<std::string_view> lines = Lines(markdown);
  std::string out;
  std::vector<std::string_view> paragraph;
  auto flush_paragraph = [&] {
    if (paragraph.empty()) return;
    std::string text;
    for (std::string_view line : paragraph)
      text += (text.empty() ? "" : " ") + std::string(Trim(line));
    out += "<p>" + inline_renderer.Render(text) + "</p>\n";
    paragraph.clear();
  };
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string_view line = lines[i];
    if (Trim(line).empty()) {
      flush_paragraph();
    } else if (IsFence(line)) {
      flush_paragraph();
      std::string code;
      for (++i; i < lines.size() && !IsFence(lines[i]); ++i) code += std::string(lines[i]) + "\n";
      out += "<div class=\"code\"><button type=\"button\" class=\"copy\">copy</button><pre><code>" +
             EscapeHtml(code) + "</code></pre></div>\n";
    } else if (const int level = HeadingLevel(line); level > 0) {
      flush_paragraph();
      const int shown = std::min(6, level + options.heading_offset);
      out += fmt::format("<h{0}>{1}</h{0}>\n", shown,
                         inline_renderer.Render(Trim(line.substr(static_cast<size_t>(level)))));
    } else if (const ListMarker first = ListItem(line); first.is_item && paragraph.empty()) {
      const char* tag = first.ordered ? "ol" : "ul";
      out += fmt::format("<{}>\n", tag);
      std::string item(first.text);
      for (++i; i < lines.size(); ++i) {
        const ListMarker next = ListItem(lines[i]);
        if (next.is_item) {
          out += "<li>" + inline_renderer.Render(item) + "</li>\n";
          item = std::string(next.text);
        } else if (!Trim(lines[i]).empty() &&
                   (lines[i].starts_with(" ") || lines[i].starts_with("\t"))) {
          item += " " + std::string(Trim(lines[i]));  // continuation of the item
        } else {
          break;
        }
      }
      --i;
      out += "<li>" + inline_renderer.Render(item) + "</li>\n";
      out += fmt::format("</{}>\n", tag);
    } else if (Trim(line).starts_with("> ")) {
      flush_paragraph();
      out += "<blockquote>" + inline_renderer.Render(Trim(line).substr(2)) + "</blockquote>\n";
    } else {
      paragraph.push_back(line);
    }
  }
  flush_paragraph();
  return out;
}

}  // namespace ampprof::reports
