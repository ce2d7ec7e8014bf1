#include "reports/export/json_text.h"

#include "src/base/utf8.h"

namespace ampprof::reports {
namespace {

constexpr bool NeedsCare(unsigned char c) { return c < 0x20 || c == '"' || c == '\\' || c >= 0x80; }

}  // namespace

void AppendJsonString(fmt::memory_buffer& out, std::string_view text) {
  out.push_back('"');
  size_t i = 0;
  while (i < text.size()) {
    // Names are nearly always plain ASCII: copy runs of it at once.
    size_t run = i;
    while (run < text.size() && !NeedsCare(static_cast<unsigned char>(text[run]))) ++run;
    out.append(text.substr(i, run - i));
    if (run == text.size()) break;
    i = run;
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      const size_t length = base::Utf8SequenceLength(text.substr(i));
      if (length == 0) {
        out.append(std::string_view("\\ufffd"));
        ++i;
      } else {
        out.append(text.substr(i, length));
        i += length;
      }
      continue;
    }
    switch (c) {
      case '"':
        out.append(std::string_view("\\\""));
        break;
      case '\\':
        out.append(std::string_view("\\\\"));
        break;
      case '\n':
        out.append(std::string_view("\\n"));
        break;
      case '\r':
        out.append(std::string_view("\\r"));
        break;
      case '\t':
        out.append(std::string_view("\\t"));
        break;
      default:
        if (c < 0x20) {
          fmt::format_to(std::back_inserter(out), "\\u{:04x}", c);
        } else {
          out.push_back(static_cast<char>(c));
        }
    }
    ++i;
  }
  out.push_back('"');
}

void AppendMicroseconds(fmt::memory_buffer& out, int64_t ns) {
  // The magnitude as unsigned, so that INT64_MIN has one too.
  const uint64_t magnitude = ns < 0 ? 0 - static_cast<uint64_t>(ns) : static_cast<uint64_t>(ns);
  fmt::format_to(std::back_inserter(out), "{}{}.{:03}", ns < 0 ? "-" : "", magnitude / 1000,
                 magnitude % 1000);
}

}  // namespace ampprof::reports
