#include "reports/export/json_text.h"

#include <string>

#include <gtest/gtest.h>
#include <simdjson.h>

#include "src/base/time.h"

namespace ampprof::reports {
namespace {

std::string JsonString(std::string_view text) {
  fmt::memory_buffer out;
  AppendJsonString(out, text);
  return fmt::to_string(out);
}

std::string Microseconds(int64_t ns) {
  fmt::memory_buffer out;
  AppendMicroseconds(out, ns);
  return fmt::to_string(out);
}

// What a strict parser reads back from the literal.
std::string ParsedBack(const std::string& literal) {
  simdjson::dom::parser parser;
  std::string_view value;
  const auto error = parser.parse(simdjson::padded_string(literal)).get_string().get(value);
  EXPECT_FALSE(error) << literal << ": " << simdjson::error_message(error);
  return std::string(value);
}

TEST(JsonText, EscapesWhatJsonRequires) {
  EXPECT_EQ(JsonString("void gemm<\"tn\">(float\\x)"), R"json("void gemm<\"tn\">(float\\x)")json");
  EXPECT_EQ(JsonString("a\nb\tc\rd"), R"("a\nb\tc\rd")");
  EXPECT_EQ(JsonString(std::string("\x01\x1f", 2)), R"("\u0001\u001f")");
  EXPECT_EQ(JsonString(""), R"("")");
}

TEST(JsonText, KeepsValidUtf8AndReplacesInvalidBytes) {
  EXPECT_EQ(JsonString("NCHW\u2192NHWC \U0001F680"), "\"NCHW\u2192NHWC \U0001F680\"");
  EXPECT_EQ(JsonString("bad \xff byte"), R"("bad \ufffd byte")");
  EXPECT_EQ(JsonString("cut \xe2\x86"), R"("cut \ufffd\ufffd")");    // a sequence cut short
  EXPECT_EQ(JsonString("\xc0\xaf"), R"("\ufffd\ufffd")");            // overlong '/'
  EXPECT_EQ(JsonString("\xed\xa0\x80"), R"("\ufffd\ufffd\ufffd")");  // a UTF-16 surrogate
  EXPECT_EQ(JsonString("\xf4\x90\x80\x80"), R"("\ufffd\ufffd\ufffd\ufffd")");  // above U+10FFFF
}

TEST(JsonText, EveryByteStringParsesBack) {
  std::string all_bytes;
  for (int byte = 1; byte < 256; ++byte) all_bytes.push_back(static_cast<char>(byte));
  const std::string back = ParsedBack(JsonString(all_bytes));
  // The ASCII part comes back unchanged; each of the 128 stray high bytes becomes U+FFFD.
  EXPECT_EQ(back.substr(0, 127), all_bytes.substr(0, 127));
  std::string replacements;
  for (int i = 0; i < 128; ++i) replacements += "\uFFFD";
  EXPECT_EQ(back.substr(127), replacements);
}

TEST(JsonText, MicrosecondsKeepEveryNanosecond) {
  EXPECT_EQ(Microseconds(0), "0.000");
  EXPECT_EQ(Microseconds(1), "0.001");
  EXPECT_EQ(Microseconds(999), "0.999");
  EXPECT_EQ(Microseconds(1'234'567), "1234.567");
  EXPECT_EQ(Microseconds(-1'500), "-1.500");
  // An epoch timestamp in nanoseconds (CUPTI's clock): 19 digits, more than a double holds exactly.
  EXPECT_EQ(Microseconds(1'733'878'431'540'588'993), "1733878431540588.993");
  for (const int64_t ns : {int64_t{0}, int64_t{7}, int64_t{1'000}, int64_t{784'431'748},
                           int64_t{1'733'878'431'540'588'993}, base::kMaxTraceTime - 1}) {
    EXPECT_EQ(base::ParseMicrosecondsToNs(Microseconds(ns)), ns) << ns;
  }
}

}  // namespace
}  // namespace ampprof::reports
