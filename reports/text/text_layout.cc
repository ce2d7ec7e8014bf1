#include "reports/text/text_layout.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "src/base/format.h"

namespace ampprof::reports {

std::string Shorten(std::string_view text, size_t width) {
  if (text.size() <= width) return std::string(text);
  if (width <= 3) return std::string(text.substr(0, width));
  const size_t tail = (width - 3) / 3;
  const size_t head = width - 3 - tail;
  return fmt::format("{}...{}", text.substr(0, head), text.substr(text.size() - tail));
}

std::vector<std::string> Wrap(std::string_view text, size_t width) {
  std::vector<std::string> lines = base::WrapText(text, width);
  for (std::string& line : lines) {
    if (line.size() > width) line = Shorten(line, width);
  }
  return lines;
}

void PrintWrapped(std::ostream& out, std::string_view first, std::string_view rest, std::string_view text,
                  size_t width) {
  const size_t indent = std::max(first.size(), rest.size());
  const size_t text_width = width > indent + 20 ? width - indent : 20;
  const std::vector<std::string> lines = Wrap(text, text_width);
  for (size_t i = 0; i < lines.size(); ++i) fmt::print(out, "{}{}\n", i == 0 ? first : rest, lines[i]);
}

std::string_view DisplayKernelName(std::string_view name) {
  if (name.substr(0, 5) == "void ") name.remove_prefix(5);
  if (!name.empty() && name.back() == ')') {
    int depth = 0;
    for (size_t i = name.size(); i-- > 0;) {
      if (name[i] == ')') ++depth;
      if (name[i] == '(' && --depth == 0) {
        if (i > 0) name = name.substr(0, i);
        break;
      }
    }
  }
  return name;
}

std::string CollapseNestedArguments(std::string_view full_name) {
  // "(anonymous namespace)::" is a namespace, not an argument list, and says nothing to a reader.
  std::string name(full_name);
  for (size_t at; (at = name.find("(anonymous namespace)::")) != std::string::npos;) {
    name.erase(at, std::string_view("(anonymous namespace)::").size());
  }
  std::string out;
  int angle = 0;
  int paren = 0;
  for (char c : name) {
    const bool hidden_before = angle > 1 || paren > 0;
    if (c == '<') ++angle;
    if (c == '(') ++paren;
    if (c == '>' && angle > 0) --angle;
    if (c == ')' && paren > 0) --paren;
    const bool hidden_after = angle > 1 || paren > 0;
    if (!hidden_before && hidden_after) {
      out += c;
      out += "...";
    } else if (!hidden_before && !hidden_after) {
      out += c;
    } else if (hidden_before && !hidden_after) {
      out += c;
    }
  }
  return out;
}

}  // namespace ampprof::reports
