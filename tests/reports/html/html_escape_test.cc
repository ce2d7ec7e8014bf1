#include "reports/html/html_escape.h"

#include <gtest/gtest.h>

namespace ampprof::reports {
namespace {

TEST(EscapeHtml, EscapesMarkupAndQuotes) {
  EXPECT_EQ(EscapeHtml("void cutlass::Kernel<T>(a && b, \"c\", 'd')"),
            "void cutlass::Kernel&lt;T&gt;(a &amp;&amp; b, &quot;c&quot;, &#39;d&#39;)");
  EXPECT_EQ(EscapeHtml("plain text"), "plain text");
}

TEST(JsonString, IsSafeInsideAScriptElement) {
  EXPECT_EQ(JsonString("</script><!-- x"), R"("\u003c/script>\u003c!-- x")");
  EXPECT_EQ(JsonString("a\"b\\c\nd\te\x01"), R"("a\"b\\c\nd\te\u0001")");
}

TEST(JsonString, KeepsUtf8AndReplacesInvalidBytes) {
  EXPECT_EQ(JsonString("\xc2\xb5s"), "\"\xc2\xb5s\"");  // "µs"
  EXPECT_EQ(JsonString("a\xff"
                       "b\xc2"),
            R"("a\ufffdb\ufffd")");
}

TEST(JsonString, ReplacesOverlongFormsAndSurrogates) {
  // An overlong "/" (E0 80 AF) and an encoded surrogate (ED A0 80) are not UTF-8: JSON.parse would
  // keep them as garbage, and a browser may read the overlong form as the character it hides.
  EXPECT_EQ(JsonString("\xe0\x80\xaf"), R"("\ufffd\ufffd\ufffd")");
  EXPECT_EQ(JsonString("\xed\xa0\x80"), R"("\ufffd\ufffd\ufffd")");
}

}  // namespace
}  // namespace ampprof::reports
