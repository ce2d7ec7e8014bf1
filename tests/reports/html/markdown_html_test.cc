#include "reports/html/markdown_html.h"

#include <gtest/gtest.h>

#include "analyzers/findings/finding_catalog.h"

namespace ampprof::reports {
namespace {

TEST(RenderMarkdownAsHtml, RendersTheBlocksTheFindingPagesUse) {
  const std::string html = RenderMarkdownAsHtml(
      "## How to fix it\n\nUse *fused* `Adam`, **now**:\n\n```python\nx = a < b and c > d\n```\n\n"
      "- one\n- two\n  continued\n\n1. first\n",
      {});
  EXPECT_EQ(html,
            "<h4>How to fix it</h4>\n"
            "<p>Use <em>fused</em> <code>Adam</code>, <strong>now</strong>:</p>\n"
            "<div class=\"code\"><button type=\"button\" class=\"copy\">copy</button><pre><code>"
            "x = a &lt; b and c &gt; d\n</code></pre></div>\n"
            "<ul>\n<li>one</li>\n<li>two continued</li>\n</ul>\n"
            "<ol>\n<li>first</li>\n</ol>\n");
}

TEST(RenderMarkdownAsHtml, LinksFindingPagesToTheReportAndEscapesEverything) {
  MarkdownHtmlOptions options;
  options.finding_anchor = [](std::string_view id) {
    return id == "gpu.sync_stall" ? "r0-finding-gpu.sync_stall" : "";
  };
  EXPECT_EQ(
      RenderMarkdownAsHtml("see [gpu.sync_stall](gpu.sync_stall.md), [other](layout.nchw_nhwc.md), "
                           "[docs](https://pytorch.org/docs) and <b>snake_case_name</b>",
                           options),
      "<p>see <a href=\"#r0-finding-gpu.sync_stall\">gpu.sync_stall</a>, other, "
      "<a href=\"https://pytorch.org/docs\">docs</a> and &lt;b&gt;snake_case_name&lt;/b&gt;</p>\n");
}

TEST(MarkdownSection, FindsTheFixOfEveryFindingPage) {
  for (const analyzers::FindingInfo& info : analyzers::FindingCatalog()) {
    const std::string_view fix = MarkdownSection(analyzers::FindingDoc(info.id), "How to fix it");
    EXPECT_FALSE(fix.empty()) << info.id;
    EXPECT_EQ(fix.find("\n## "), std::string_view::npos)
        << info.id << ": the section ends at the next heading";
  }
  EXPECT_EQ(MarkdownSection("# T\n\n## A\n\na\n\n## B\n\nb\n", "A"), "\na\n\n");
  EXPECT_EQ(MarkdownSection("# T\n\n## A\n\n```\n## not a heading\n```\n", "A"),
            "\n```\n## not a heading\n```\n");
  EXPECT_EQ(MarkdownSection("# T\n", "A"), "");
}

}  // namespace
}  // namespace ampprof::reports
