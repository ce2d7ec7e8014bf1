#include "src/base/terminal_text.h"

#include <iterator>

#include <fmt/format.h>

namespace ampprof::base {
namespace {

bool IsContinuation(unsigned char byte) { return (byte & 0xC0) == 0x80; }

// The length of the valid UTF-8 sequence at the start of `text` (RFC 3629: no overlong forms, no
// surrogates, nothing above U+10FFFF), or 0 when it does not start with one.
size_t Utf8SequenceLength(std::string_view text) {
  const auto at = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = at(0);
  if (lead < 0x80) return 1;
  size_t length = 0;
  unsigned char low = 0x80;   // the range of the second byte, which rules out overlong forms and
  unsigned char high = 0xBF;  // surrogates
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (text.size() < length || at(1) < low || at(1) > high) return 0;
  for (size_t i = 2; i < length; ++i) {
    if (!IsContinuation(at(i))) return 0;
  }
  return length;
}

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
