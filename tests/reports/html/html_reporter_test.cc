#include "reports/html/html_reporter.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <string>

#include "reports/html/html_assets.h"
#include "reports/html/html_escape.h"
#include "tests/reports/html/sample_reports.h"

namespace ampprof::reports {
namespace {

using testing::RenderPage;

size_t Occurrences(const std::string& text, std::string_view part) {
  size_t count = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size()))
    ++count;
  return count;
}

bool Has(const std::string& html, std::string_view part) {
  return html.find(part) != std::string::npos;
}

TEST(RenderHtml, RendersEverySectionOfAComparison) {
  ampprof::testing::TempDir dir;
  const std::vector<analyzers::Report> reports =
      testing::SyntheticComparison(dir, {.kernels = 3000});
  ASSERT_EQ(reports.size(), 1u);
  const std::string html = RenderPage(reports);
  EXPECT_TRUE(html.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"));
  EXPECT_TRUE(html.ends_with("</html>\n"));
  for (const char* id :
       {"r0-verdict", "r0-compare", "r0-timeline", "r0-timeline-fp32", "r0-timeline-amp",
        "r0-findings", "r0-kernels", "r0-top-kernels", "r0-quality"}) {
    EXPECT_TRUE(Has(html, fmt::format("id=\"{}\"", id))) << id;
  }
  // The verdict, the side-by-side runs and their stacked bars.
  // The verdict every view prints (analyzers/verdict.h), and the finding to start with.
  EXPECT_TRUE(std::regex_search(
      html,
      std::regex("<p class=\"headline sev-critical\">Mixed precision is 1\\.[0-9]{2}x faster than "
                 "FP32; [0-9]+ findings \\([^)]*\\): start with gpu\\.launch_bound \\(saves [0-9.]+% of "
                 "the step\\)\\.</p>")));
  EXPECT_TRUE(Has(html,
                  "<p class=\"lead\">Start with <a href=\"#r0-finding-gpu.launch_bound\"><code>"
                  "gpu.launch_bound</code></a>: GPU 0 waits for the host "));
  EXPECT_EQ(Occurrences(html, "<div class=\"run\">"), 2u);
  EXPECT_EQ(Occurrences(html, "<div class=\"bar-row\">"), 2u);
  EXPECT_TRUE(Has(html, "title=\"GEMM on CUDA cores: "));
  EXPECT_TRUE(Has(html, "title=\"GEMM on Tensor Cores: "));
  // Two timelines: kernels grouped by category over idle gaps shaded by cause.
  EXPECT_EQ(Occurrences(html, "<svg class=\"tl-svg\""), 2u);
  EXPECT_GT(Occurrences(html, "<rect "), 100u);
  EXPECT_TRUE(Has(html, "data-g=\"0\""));  // a gap waiting for a kernel launch
  // Findings with their evidence and the fix from their page, code ready to copy.
  EXPECT_TRUE(Has(html, "id=\"r0-finding-gpu.launch_bound\""));
  EXPECT_TRUE(Has(html, "<h4>How to fix it</h4>"));
  EXPECT_TRUE(
      Has(html,
          "<button type=\"button\" class=\"copy\">copy</button><pre><code>model = torch.compile("));
  EXPECT_TRUE(
      Has(html, "<a href=\"#r0-finding-gpu.launch_bound\"><code>gpu.launch_bound</code></a>"))
      << "the comparison's rows link to the finding that explains them";
  EXPECT_TRUE(Has(html, "<p>No records lost or repaired.</p>"));
}

TEST(RenderHtml, IsSelfContained) {
  ampprof::testing::TempDir dir;
  const std::string html = RenderPage(testing::SyntheticComparison(dir, {.kernels = 1000}));
  EXPECT_TRUE(Has(html, ReportStylesheet()));
  EXPECT_TRUE(Has(html, ReportScript()));
  EXPECT_FALSE(Has(html, " src="))
      << "nothing is loaded: no images, scripts or frames from elsewhere";
  EXPECT_FALSE(Has(html, "<link")) << "no external stylesheet";
  EXPECT_FALSE(Has(html, "url(")) << "no fonts or images from elsewhere";
  EXPECT_FALSE(Has(html, "@import"));
}

// Everything from traces is escaped: a label, a path, kernel names, evidence, timeline names.
TEST(RenderHtml, EscapesEverythingFromTheTrace) {
  const std::string evil = "<script>alert('x')</script> & \"q\"";
  analyzers::Report report;
  report.label = evil;
  report.inputs.push_back({evil + ".json", "Kineto JSON"});
  report.summary.workload = evil;
  report.summary.kernels = 1;
  report.summary.top_kernels.push_back({evil, evil, 1, 1'000, 1.0});
  analyzers::DeviceSummary device;
  device.kernels = 1;
  analyzers::AccountSummary account;
  account.window = {0, 1'000};
  account.rows.push_back({"compute", evil, 1'000, 1'000, 1.0, 1});
  device.account = account;
  report.summary.devices.push_back(device);
  analyzers::Finding finding;
  finding.id = "gpu.launch_bound";
  finding.verdict = analyzers::Statement(evil);
  finding.evidence.push_back({evil, analyzers::Statement(evil)});
  finding.fix = evil;
  finding.examples.push_back(evil);
  report.findings.push_back(finding);
  analyzers::Timeline timeline;
  timeline.window = {0, 1'000};
  timeline.window_label = analyzers::Statement(evil);
  timeline.device = evil;
  timeline.lanes.push_back({7, 1});
  timeline.names.push_back(evil);
  timeline.categories.push_back(evil);
  timeline.items.push_back({{0, 1'000}, 1'000, 1, 0, 0, 0});
  report.timeline = timeline;
  const std::string html = RenderPage({report});

  EXPECT_FALSE(Has(html, "<script>alert")) << "raw markup from the trace";
  EXPECT_FALSE(Has(html, "\"q\"")) << "raw quotes could end an attribute";
  EXPECT_GE(
      Occurrences(html, "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;"),
      10u);
  EXPECT_TRUE(Has(html, R"("\u003cscript>alert('x')\u003c/script> & \"q\"")"))
      << "the timeline's JSON";
  // Only the page's own script elements: its JSON blocks and the script at the end.
  EXPECT_EQ(Occurrences(html, "<script"), Occurrences(html, "</script>"));
  EXPECT_EQ(Occurrences(html, "</script>"), 2u);
}

TEST(RenderHtml, TheHeaderSaysHowTheWorkloadEndedWhenARunMadeTheReport) {
  analyzers::Report report;
  report.label = "pid 77";
  EXPECT_FALSE(Has(RenderPage({report}), "<dt>ended</dt>"));
  report.workload_outcome = analyzers::WorkloadOutcome{.exit_code = 0, .signal = 2};
  EXPECT_TRUE(Has(RenderPage({report}), "<dt>ended</dt><dd>killed by signal 2 (SIGINT)</dd>"));
}

// A trace of any size gives a page far below 5 MB: the timelines are bounded, the tables are.
TEST(RenderHtml, StaysUnderFiveMegabytesForAHugeTrace) {
  ampprof::testing::TempDir dir;
  // 400,000 kernels in steps of about 14,000 (2,000 layers), far more than a timeline shows.
  const std::vector<analyzers::Report> reports =
      testing::SyntheticComparison(dir, {.kernels = 400'000, .layers = 2'000});
  ASSERT_EQ(reports.size(), 1u);
  ASSERT_TRUE(reports[0].timeline);
  EXPECT_GT(reports[0].timeline->kernels, analyzers::kMaxTimelineItems) << "the step needs merging";
  const std::string html = RenderPage(reports);
  EXPECT_LT(html.size(), 5'000'000u);
  EXPECT_LE(Occurrences(html, "<rect "), HtmlOptions{}.max_timeline_items + 2 * 2 +
                                             reports[0].timeline->gaps.size() +
                                             reports[0].baseline_timeline->gaps.size());
  // Sixteen ranks of it share the page's timeline budget.
  const std::vector<analyzers::Report> ranks(16, reports[0]);
  EXPECT_LT(RenderPage(ranks).size(), 5'000'000u);
}

TEST(RenderHtml, RendersASharedFixture) {
  const std::string path = testing::SharedFixture(testing::kLinearFixture);
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is absent (a fresh clone)";
  const auto reports = pipeline::AnalyzeTraces({path});
  ASSERT_TRUE(reports.ok()) << reports.status().ToString();
  const std::string html = RenderPage(*reports);
  EXPECT_TRUE(Has(html, "id=\"r0-finding-gpu.launch_bound\""));
  EXPECT_EQ(Occurrences(html, "<svg class=\"tl-svg\""), 1u);
  EXPECT_FALSE(Has(html, "id=\"r0-compare\""));
  // Real kernel names hold '<' and '>': each top kernel appears escaped, never raw.
  size_t with_markup = 0;
  for (const analyzers::KernelTimeSummary& kernel : reports->front().summary.top_kernels) {
    if (kernel.name.find('<') == std::string::npos) continue;
    ++with_markup;
    // Names longer than kMaxNameLength are shortened in the middle: their start is shown.
    const std::string_view start = std::string_view(kernel.name).substr(0, kMaxNameLength / 2);
    EXPECT_TRUE(Has(html, EscapeHtml(start))) << kernel.name;
    EXPECT_FALSE(Has(html, start)) << kernel.name;
  }
  EXPECT_GT(with_markup, 0u);
}

}  // namespace
}  // namespace ampprof::reports
