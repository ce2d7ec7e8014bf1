#include "src/base/terminal_text.h"

#include <string>
#include <string_view>

#include <gtest/gtest.h>

namespace ampprof::base {
namespace {

using namespace std::string_literals;

// Whether `text` holds anything but printable ASCII (what escaping makes of the hostile input
// below).
bool HasRawControl(std::string_view text) {
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte >= 0x7F) return true;
  }
  return false;
}

TEST(EscapeControlCharacters, LeavesPrintableTextAlone) {
  for (const std::string_view text :
       {"", "void at::native::vectorized_elementwise_kernel<4, f>(int)",
        "/runs/amp 1/ampprof-rank0-pid77.ampt", "a\\x1b stays as typed"}) {
    EXPECT_FALSE(NeedsEscaping(text)) << text;
    EXPECT_EQ(EscapeControlCharacters(text), text);
  }
}

// The sequences a hostile trace would use: the window title (OSC 0), the clipboard (OSC 52),
// clearing the screen (CSI 2 J), and a forged report line.
TEST(EscapeControlCharacters, MakesTerminalSequencesVisible) {
  EXPECT_EQ(EscapeControlCharacters("k\x1b]0;owned\x07"), "k\\x1b]0;owned\\x07");
  EXPECT_EQ(EscapeControlCharacters("\x1b]52;c;ZWNobyBvd25lZA==\x1b\\"),
            "\\x1b]52;c;ZWNobyBvd25lZA==\\x1b\\");
  EXPECT_EQ(EscapeControlCharacters("\x1b[2J\x1b[H"), "\\x1b[2J\\x1b[H");
  EXPECT_EQ(EscapeControlCharacters("name\nverdict   no findings\r\t"),
            "name\\x0averdict   no findings\\x0d\\x09");
  EXPECT_EQ(EscapeControlCharacters("nul\0del\x7f"s), "nul\\x00del\\x7f");
}

TEST(EscapeControlCharacters, EscapesC1ControlsInUtf8AndBytesThatAreNotUtf8) {
  EXPECT_EQ(EscapeControlCharacters("csi\xc2\x9b"
                                    "2J osc\xc2\x9d"),
            "csi\\u009b2J osc\\u009d");
  EXPECT_EQ(EscapeControlCharacters("raw\x9b"
                                    "2J"),
            "raw\\x9b2J");                                               // 8-bit CSI
  EXPECT_EQ(EscapeControlCharacters("cut \xe2\x82"), "cut \\xe2\\x82");  // a truncated sequence
  EXPECT_EQ(EscapeControlCharacters("\xc0\xaf \xed\xa0\x80"),
            "\\xc0\\xaf \\xed\\xa0\\x80");  // overlong, surrogate
}

TEST(EscapeControlCharacters, KeepsValidUtf8) {
  const std::string text =
      "caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x94\xa5 \xc2\xa0";  // é → 🔥 and U+00A0
  EXPECT_FALSE(NeedsEscaping(text));
  EXPECT_EQ(EscapeControlCharacters(text), text);
}

TEST(EscapeControlCharacters, IsIdempotentAndLeavesNoControlByte) {
  const std::string hostile = "\x1b]0;t\x07\x1b[2J\xc2\x9b\x9b\xff\x7f\n\0"s;
  const std::string once = EscapeControlCharacters(hostile);
  EXPECT_FALSE(HasRawControl(once)) << once;
  EXPECT_FALSE(NeedsEscaping(once));
  EXPECT_EQ(EscapeControlCharacters(once), once);
}

}  // namespace
}  // namespace ampprof::base
