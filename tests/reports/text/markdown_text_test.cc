#include "reports/text/markdown_text.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "analyzers/findings/finding_catalog.h"

namespace ampprof::reports {
namespace {

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t at = 0;
  while (at < text.size()) {
    const size_t newline = text.find('\n', at);
    lines.push_back(text.substr(at, newline - at));
    if (newline == std::string::npos) break;
    at = newline + 1;
  }
  return lines;
}

// ---- Blocks ----

TEST(MarkdownTextTest, TitleIsUnderlined) {
  EXPECT_EQ(RenderMarkdownAsText("# A title\n", 80), "A title\n=======\n");
}

TEST(MarkdownTextTest, TextUnderASectionHeadingIsIndented) {
  EXPECT_EQ(RenderMarkdownAsText(
                "# Title\n\nIntro.\n\n## Section\n\nBody text.\n\n### Detail\n\nMore.\n", 80),
            "Title\n"
            "=====\n"
            "\n"
            "Intro.\n"
            "\n"
            "Section\n"
            "  Body text.\n"
            "\n"
            "  Detail\n"
            "    More.\n");
}

TEST(MarkdownTextTest, HeadingsLoseTheirClosingHashes) {
  EXPECT_EQ(RenderMarkdownAsText("## Section ##\n", 80), "Section\n");
  EXPECT_EQ(RenderMarkdownAsText("#hashtag is prose\n", 80), "#hashtag is prose\n");
}

TEST(MarkdownTextTest, ParagraphLinesAreJoinedAndWrappedToTheWidth) {
  const std::string text = RenderMarkdownAsText(
      "## S\n\none two three\nfour five six seven eight nine ten eleven twelve\n\nNext "
      "paragraph.\n",
      24);
  EXPECT_EQ(text,
            "S\n"
            "  one two three four\n"
            "  five six seven eight\n"
            "  nine ten eleven twelve\n"
            "\n"
            "  Next paragraph.\n");
  for (const std::string& line : Lines(text)) EXPECT_LE(line.size(), 24u) << line;
}

TEST(MarkdownTextTest, VeryNarrowWidthsStillWrapAtTwentyColumns) {
  const std::string text = RenderMarkdownAsText("aaaa bbbb cccc dddd eeee ffff\n", 5);
  EXPECT_EQ(text, "aaaa bbbb cccc dddd\neeee ffff\n");
}

TEST(MarkdownTextTest, FencedCodeIsKeptVerbatimAndIndented) {
  const std::string markdown =
      "## Fix\n"
      "\n"
      "Paste this:\n"
      "\n"
      "```python\n"
      "for x in loader:\n"
      "    with torch.autocast(\"cuda\"):  # a comment   with  spaces\n"
      "\n"
      "        loss = model(x)   \n"
      "```\n"
      "\n"
      "Done.\n";
  EXPECT_EQ(RenderMarkdownAsText(markdown, 30),
            "Fix\n"
            "  Paste this:\n"
            "\n"
            "      for x in loader:\n"
            "          with torch.autocast(\"cuda\"):  # a comment   with  spaces\n"
            "\n"
            "              loss = model(x)\n"
            "\n"
            "  Done.\n");
}

TEST(MarkdownTextTest, CodeIsNotReadAsMarkdown) {
  EXPECT_EQ(RenderMarkdownAsText("~~~\n# not a heading\n- not a list **x**\n~~~\n", 80),
            "    # not a heading\n    - not a list **x**\n");
  // A fence of four backticks is closed only by four or more.
  EXPECT_EQ(RenderMarkdownAsText("````\n```\n````\n", 80), "    ```\n");
}

TEST(MarkdownTextTest, AnUnclosedFenceRunsToTheEnd) {
  EXPECT_EQ(RenderMarkdownAsText("```\na = 1\nb = 2\n", 80), "    a = 1\n    b = 2\n");
}

TEST(MarkdownTextTest, IndentedCodeAfterABlankLine) {
  EXPECT_EQ(RenderMarkdownAsText("Text:\n\n    x = 1\n\n      y = 2\n\nAfter.\n", 80),
            "Text:\n\n    x = 1\n\n      y = 2\n\nAfter.\n");
  // Without the blank line it continues the paragraph.
  EXPECT_EQ(RenderMarkdownAsText("Text\n    more text\n", 80), "Text more text\n");
}

TEST(MarkdownTextTest, BulletListsHangUnderTheirText) {
  const std::string markdown =
      "## Evidence\n"
      "\n"
      "- GPU busy fraction per step;\n"
      "- idle time per step split by cause: waiting for launches,\n"
      "  synchronisation, copies, other;\n"
      "* another marker\n";
  EXPECT_EQ(RenderMarkdownAsText(markdown, 40),
            "Evidence\n"
            "  - GPU busy fraction per step;\n"
            "  - idle time per step split by cause:\n"
            "    waiting for launches,\n"
            "    synchronisation, copies, other;\n"
            "  - another marker\n");
}

TEST(MarkdownTextTest, NumberedAndNestedLists) {
  const std::string markdown =
      "1. Raise the batch size.\n"
      "2. Fuse small ops:\n"
      "   - with torch.compile;\n"
      "   - with CUDA Graphs.\n"
      "10. Tenth.\n";
  EXPECT_EQ(RenderMarkdownAsText(markdown, 80),
            "1. Raise the batch size.\n"
            "2. Fuse small ops:\n"
            "   - with torch.compile;\n"
            "   - with CUDA Graphs.\n"
            "10. Tenth.\n");
}

TEST(MarkdownTextTest, ListItemsCanHoldParagraphsAndCode) {
  const std::string markdown =
      "1. Use a fused optimizer:\n"
      "\n"
      "   ```python\n"
      "   opt = AdamW(params, fused=True)\n"
      "   ```\n"
      "\n"
      "   It runs one kernel.\n"
      "\n"
      "Back to prose.\n";
  EXPECT_EQ(RenderMarkdownAsText(markdown, 80),
            "1. Use a fused optimizer:\n"
            "\n"
            "       opt = AdamW(params, fused=True)\n"
            "\n"
            "   It runs one kernel.\n"
            "\n"
            "Back to prose.\n");
}

TEST(MarkdownTextTest, LooseListsKeepTheirBlankLines) {
  EXPECT_EQ(RenderMarkdownAsText("- one\n\n- two\n", 80), "- one\n\n- two\n");
}

TEST(MarkdownTextTest, QuotesAndTables) {
  EXPECT_EQ(RenderMarkdownAsText("> quoted\n> text\n", 80), "> quoted text\n");
  EXPECT_EQ(RenderMarkdownAsText("| a | b |\n|---|---|\n| 1 | 2 |\n", 80),
            "| a | b |\n|---|---|\n| 1 | 2 |\n");
}

TEST(MarkdownTextTest, NoLineEndsInASpaceAndWindowsLineEndsAreRead) {
  const std::string text =
      RenderMarkdownAsText("# T\r\n\r\n## S\r\n\r\nword  \r\n\r\n```\r\ncode  \r\n```\r\n", 80);
  EXPECT_EQ(text, "T\n=\n\nS\n  word\n\n      code\n");
}

TEST(MarkdownTextTest, EmptyInput) {
  EXPECT_EQ(RenderMarkdownAsText("", 80), "");
  EXPECT_EQ(RenderMarkdownAsText("\n\n  \n", 80), "");
}

// ---- Inline ----

TEST(MarkdownInlineTest, CodeSpansKeepTheirBackticksAndContent) {
  EXPECT_EQ(RenderMarkdownInline("call `loss.item()` rarely"), "call `loss.item()` rarely");
  EXPECT_EQ(RenderMarkdownInline("`**not bold**` and `a\\*b`"), "`**not bold**` and `a\\*b`");
  EXPECT_EQ(RenderMarkdownInline("``a ` b``"), "``a ` b``");
  EXPECT_EQ(RenderMarkdownInline("an ` unmatched backtick"), "an ` unmatched backtick");
}

TEST(MarkdownInlineTest, EmphasisMarkersAreDropped) {
  EXPECT_EQ(RenderMarkdownInline("default severity **critical**."), "default severity critical.");
  EXPECT_EQ(RenderMarkdownInline("*really* slow, ***very*** slow"), "really slow, very slow");
  EXPECT_EQ(RenderMarkdownInline("**bold with `code`**"), "bold with `code`");
  EXPECT_EQ(RenderMarkdownInline("5 * 3 and a * b"), "5 * 3 and a * b");
  EXPECT_EQ(RenderMarkdownInline("an *unclosed star"), "an *unclosed star");
}

TEST(MarkdownInlineTest, LinksShowTheirTextAndAbsoluteUrls) {
  EXPECT_EQ(RenderMarkdownInline("see [gpu.sync_stall](gpu.sync_stall.md)."),
            "see gpu.sync_stall.");
  EXPECT_EQ(RenderMarkdownInline("the [AMP recipe](https://pytorch.org/amp.html), then"),
            "the AMP recipe (https://pytorch.org/amp.html), then");
  EXPECT_EQ(RenderMarkdownInline("[https://x.org/a](https://x.org/a)"), "https://x.org/a");
  EXPECT_EQ(RenderMarkdownInline("<https://x.org/a> and a < b > c"),
            "https://x.org/a and a < b > c");
  EXPECT_EQ(RenderMarkdownInline("a [bracket] alone, [unclosed](x"),
            "a [bracket] alone, [unclosed](x");
}

TEST(MarkdownInlineTest, BackslashEscapes) {
  EXPECT_EQ(RenderMarkdownInline("2 \\* 3, \\[not a link\\], C:\\path"),
            "2 * 3, [not a link], C:\\path");
}

// ---- The finding pages, as `ampprof explain` prints them ----

TEST(MarkdownTextTest, EveryFindingPageRendersReadably) {
  for (const analyzers::FindingInfo& info : analyzers::FindingCatalog()) {
    for (const size_t width : {size_t{80}, size_t{100}}) {
      const std::string text = RenderMarkdownAsText(analyzers::FindingDoc(info.id), width);
      const std::vector<std::string> lines = Lines(text);
      ASSERT_GE(lines.size(), 4u) << info.id;
      if (info.title.size() <= width) {
        EXPECT_EQ(lines[0], info.title) << info.id;
        EXPECT_EQ(lines[1], std::string(info.title.size(), '=')) << info.id;
      }
      EXPECT_NE(text.find("\nHow to fix it\n"), std::string::npos) << info.id;
      EXPECT_NE(text.find("\nWhere it was seen\n"), std::string::npos) << info.id;
      EXPECT_NE(text.find("\n      "), std::string::npos) << info.id << ": no code block";
      EXPECT_EQ(text.find("**"), std::string::npos) << info.id;
      EXPECT_EQ(text.find("```"), std::string::npos) << info.id;
      EXPECT_EQ(text.find("\n\n\n"), std::string::npos) << info.id;
      for (const std::string& line : lines) {
        EXPECT_LE(line.size(), width) << info.id << ": " << line;
        EXPECT_FALSE(line.ends_with(" ")) << info.id << ": '" << line << "'";
      }
    }
  }
}

}  // namespace
}  // namespace ampprof::reports
