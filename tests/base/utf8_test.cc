#include "src/base/utf8.h"

#include <gtest/gtest.h>

namespace ampprof::base {
namespace {

TEST(Utf8Test, KeepsValidTextAndRepairsEachBadByte) {
  EXPECT_EQ(ValidUtf8("caf\xC3\xA9"), "caf\xC3\xA9");
  EXPECT_EQ(ValidUtf8("bad\xFF byte"), "bad\xEF\xBF\xBD byte");
  EXPECT_EQ(ValidUtf8("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");  // overlong '/'
  EXPECT_EQ(ValidUtf8("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a surrogate
  EXPECT_EQ(ValidUtf8("\xE2\x82"), "\xEF\xBF\xBD\xEF\xBF\xBD");  // cut short
  EXPECT_EQ(ValidUtf8(""), "");
}

TEST(Utf8Test, SequenceLengths) {
  EXPECT_EQ(Utf8SequenceLength("a"), 1u);
  EXPECT_EQ(Utf8SequenceLength("\xC3\xA9"), 2u);
  EXPECT_EQ(Utf8SequenceLength("\xE2\x82\xAC"), 3u);
  EXPECT_EQ(Utf8SequenceLength("\xF0\x9F\x98\x80"), 4u);
  EXPECT_EQ(Utf8SequenceLength("\xF4\x90\x80\x80"), 0u);  // past U+10FFFF
}

}  // namespace
}  // namespace ampprof::base
