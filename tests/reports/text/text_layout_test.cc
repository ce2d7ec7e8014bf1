#include "reports/text/text_layout.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ampprof::reports {
namespace {

bool IsWholeUtf8(std::string_view text) {
  size_t pending = 0;  // continuation bytes still expected
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte & 0xC0) == 0x80) {
      if (pending == 0) return false;
      --pending;
    } else {
      if (pending != 0) return false;
      pending = byte >= 0xF0 ? 3 : byte >= 0xE0 ? 2 : byte >= 0xC0 ? 1 : 0;
    }
  }
  return pending == 0;
}

// Two traces whose paths differ only near the end: what was cut out of their middles told them apart.
TEST(ShortenPath, KeepsTheEndThatTellsTwoPathsApart) {
  const std::string a = "/home/researcher/experiments/2026-11/h100-autotuned-k400/ampprof-pid25738.ampt";
  const std::string b = "/home/researcher/experiments/2026-11/h100-untuned-k400/ampprof-pid25738.ampt";
  EXPECT_EQ(ShortenPath(a, 50), ".../h100-autotuned-k400/ampprof-pid25738.ampt");
  EXPECT_EQ(ShortenPath(b, 50), ".../h100-untuned-k400/ampprof-pid25738.ampt");
  EXPECT_NE(ShortenPath(a, 50), ShortenPath(b, 50));
  EXPECT_EQ(ShortenPath(a, 200), a) << "a path that fits is shown whole";
  EXPECT_LE(ShortenPath(a, 20).size(), 20u);
}

TEST(ShortenPath, NeverCutsInsideAUtf8Character) {
  const std::string path = "/données/épreuve/\xe8\xa8\x93\xe7\xb7\xb4\xe8\xa8\x93\xe7\xb7\xb4\xe8\xa8\x93\xe7\xb7\xb4.ampt";
  for (size_t width = 4; width < path.size(); ++width) {
    const std::string shown = ShortenPath(path, width);
    EXPECT_TRUE(IsWholeUtf8(shown)) << width << ": " << shown;
    EXPECT_LE(shown.size(), width) << shown;
  }
}

TEST(Shorten, NeverCutsInsideAUtf8Character) {
  const std::string text = "kernel_\xce\xb1\xce\xb2\xce\xb3\xce\xb4\xce\xb5_\xe2\x86\x92_end";
  for (size_t width = 1; width < text.size(); ++width) {
    EXPECT_TRUE(IsWholeUtf8(Shorten(text, width))) << width;
    EXPECT_LE(Shorten(text, width).size(), width);
  }
}

TEST(BreakLongWord, KeepsEveryCharacterAndBreaksAfterSeparators) {
  const std::string name = "cutlass_80_tensorop_f16_s16816gemm_relu_f16_256x128_32x3_nn_align8_autotuned_k400";
  const std::vector<std::string> lines = BreakLongWord(name, 40);
  std::string joined;
  for (const std::string& line : lines) {
    EXPECT_LE(line.size(), 40u) << line;
    joined += line;
  }
  EXPECT_EQ(joined, name) << "nothing is left out";
  EXPECT_EQ(lines.front(), "cutlass_80_tensorop_f16_s16816gemm_relu_");
}

TEST(BreakLongWord, NeverCutsInsideAUtf8Character) {
  std::string name;
  for (int i = 0; i < 30; ++i) name += "\xe8\xa8\x93";  // 3 bytes each, no separator
  for (size_t width = 8; width < 40; ++width) {
    std::string joined;
    for (const std::string& line : BreakLongWord(name, width)) {
      EXPECT_TRUE(IsWholeUtf8(line)) << width;
      joined += line;
    }
    EXPECT_EQ(joined, name);
  }
}

}  // namespace
}  // namespace ampprof::reports
