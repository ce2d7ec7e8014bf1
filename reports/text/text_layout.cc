#include "reports/text/text_layout.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "src/base/format.h"
#include "src/base/terminal_text.h"

namespace ampprof::reports {
namespace {

bool IsUtf8Continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// A cut never leaves half a UTF-8 character, whose lone bytes a terminal in an 8-bit mode may read
// as controls: the head ends before the character the cut falls in, the tail starts after it.
size_t HeadEnd(std::string_view text, size_t at) {
  while (at > 0 && at < text.size() && IsUtf8Continuation(text[at])) --at;
  return at;
}
size_t TailStart(std::string_view text, size_t at) {
  while (at < text.size() && IsUtf8Continuation(text[at])) ++at;
  return at;
}

}  // namespace

std::string Shorten(std::string_view text, size_t width) {
  const std::string printable = base::EscapeControlCharacters(text);
  if (printable.size() <= width) return printable;
  const std::string_view shown(printable);
  if (width <= 3) return std::string(shown.substr(0, HeadEnd(shown, width)));
  const size_t tail = (width - 3) / 3;
  const size_t head = width - 3 - tail;
  return fmt::format("{}...{}", shown.substr(0, HeadEnd(shown, head)),
                     shown.substr(TailStart(shown, shown.size() - tail)));
}

std::string ShortenPath(std::string_view path, size_t width) {
  const std::string printable = base::EscapeControlCharacters(path);
  if (printable.size() <= width) return printable;
  const std::string_view shown(printable);
  constexpr std::string_view kElided = ".../";
  const size_t name_start = shown.rfind('/') == std::string_view::npos ? 0 : shown.rfind('/') + 1;
  if (shown.size() - name_start + kElided.size() > width) return Shorten(shown.substr(name_start), width);
  // Add directories from the end while they fit.
  size_t keep_from = name_start;
  while (keep_from > 1) {
    const size_t previous = shown.rfind('/', keep_from - 2);
    const size_t start = previous == std::string_view::npos ? 0 : previous + 1;
    if (shown.size() - start + kElided.size() > width) break;
    keep_from = start;
  }
  return fmt::format("{}{}", kElided, shown.substr(keep_from));
}

std::vector<std::string> BreakLongWord(std::string_view word, size_t width) {
  std::vector<std::string> lines;
  width = std::max<size_t>(width, 8);
  while (word.size() > width) {
    size_t end = width;
    for (size_t at = width; at > width * 2 / 3; --at) {
      if (std::string_view("_, <(:").find(word[at - 1]) != std::string_view::npos) {
        end = at;
        break;
      }
    }
    end = HeadEnd(word, end);
    if (end == 0) end = TailStart(word, 1);  // a character wider than the line: never split it
    // A space the line breaks at is the break itself: neither a trailing nor a leading blank.
    const bool at_space = word[end - 1] == ' ';
    lines.emplace_back(word.substr(0, at_space ? end - 1 : end));
    word.remove_prefix(end);
  }
  if (!word.empty() || lines.empty()) lines.emplace_back(word);
  return lines;
}

std::vector<std::string> Wrap(std::string_view text, size_t width) {
  std::vector<std::string> lines = base::WrapText(base::EscapeControlCharacters(text), width);
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
