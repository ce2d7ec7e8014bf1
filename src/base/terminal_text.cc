#include "src/base/terminal_text.h"

#include <iterator>

#include <fmt/format.h>

#include "src/base/utf8.h"

namespace ampprof::base {
namespace {

// The character at the start of `text`: how many bytes it takes, and whether it is escaped.
struct Character {
  size_t bytes = 1;
  bool control = false;
};

Character Classify(std::string_view text) {
  const auto lead = static_cast<unsigned char>(text[0]);
  if (lead < 0x20 || lead == 0x7F) return {1, true};
  if (lead < 0x80) return {1, false};
  const size_t length = Utf8SequenceLength(text);
  if (length == 0) return {1, true};  // not UTF-8: escaped byte by byte
  // U+0080-U+009F, the C1 controls, are 0xC2 0x80-0x9F.
  if (length == 2 && lead == 0xC2 && static_cast<unsigned char>(text[1]) <= 0x9F) return {2, true};
  return {length, false};
}

}  // namespace

bool NeedsEscaping(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    const Character character = Classify(text.substr(i));
    if (character.control) return true;
    i += character.bytes;
  }
  return false;
}

std::string EscapeControlCharacters(std::string_view text) {
  if (!NeedsEscaping(text)) return std::string(text);
  std::string escaped;
  escaped.reserve(text.size() + 16);
  for (size_t i = 0; i < text.size();) {
    const Character character = Classify(text.substr(i));
    if (!character.control) {
      escaped.append(text.substr(i, character.bytes));
    } else if (character.bytes == 2) {
      fmt::format_to(std::back_inserter(escaped), "\\u00{:02x}",
                     static_cast<unsigned char>(text[i + 1]));
    } else {
      fmt::format_to(std::back_inserter(escaped), "\\x{:02x}", static_cast<unsigned char>(text[i]));
    }
    i += character.bytes;
  }
  return escaped;
}

}  // namespace ampprof::base
