#include "reports/markdown/markdown_reporter.h"

#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "src/base/terminal_text.h"

namespace ampprof::reports {
namespace {

analyzers::Report SampleReport() {
  analyzers::Report report;
  report.label = "pid 77";
  report.inputs.push_back({"runs/amp|1.ampt", "ampprof trace, format 1.0"});
  report.summary.workload = "python train.py";
  analyzers::DeviceSummary device;
  device.name = "NVIDIA H100 80GB HBM3";
  device.kernels = 1234;
  device.span = base::Interval{0, 2'000'000};
  analyzers::AccountSummary account;
  account.basis = "measured steps";
  account.window = base::Interval{0, 2'000'000};
  account.busy_fraction = 0.5;
  device.account = account;
  report.summary.devices.push_back(device);
  report.summary.kernels = 1234;
  report.summary.account_basis = "measured steps";
  report.summary.steps = 40;
  report.summary.step_source = "ProfilerStep ranges";
  report.summary.median_step_ns = 818'000;
  analyzers::Finding finding;
  finding.id = "layout.nchw_nhwc";
  finding.severity = analyzers::Severity::kWarning;
  finding.verdict = analyzers::Statement("{kernels:NCHW<->NHWC conversion kernel} take {share} of the step",
                                         {analyzers::Count("kernels", 12), analyzers::Fraction("share", 0.026)});
  finding.evidence = {{"their time", analyzers::Statement("{time} per step", {analyzers::Duration("time", 277'000)})}};
  finding.examples = {"void cudnn::ops::nchwToNhwcKernel<__half>(int)"};
  finding.saving = analyzers::Saving::Exact(6'900, 0.026, "the conversion kernels' time");
  finding.fix = "Convert the model and its inputs to channels-last once, before training.";
  report.findings.push_back(finding);
  report.checks_run = {"layout.nchw_nhwc"};
  return report;
}

std::string Render(const std::vector<analyzers::Report>& reports) {
  std::ostringstream out;
  RenderMarkdown(reports, out);
  return out.str();
}

TEST(RenderMarkdown, HeadingVerdictContextAndAFindingsTableWithTheFix) {
  const std::string md = Render({SampleReport()});
  EXPECT_EQ(md.substr(0, md.find("<details>")),
            "### ampprof: pid 77\n"
            "\n"
            "**1 finding (1 warning): start with layout.nchw\\_nhwc (saves 2.6% of the step)**\n"
            "\n"
            "`runs/amp\\|1.ampt` (ampprof trace, format 1.0) · python train.py · GPU 0: NVIDIA H100 80GB HBM3, "
            "busy 50.0% · 40 steps from ProfilerStep ranges, median 818 us · data quality: no records lost or "
            "repaired\n"
            "\n"
            "| severity | finding | what ampprof measured | saves | fix |\n"
            "|---|---|---|---|---|\n"
            "| warning | `layout.nchw_nhwc` | 12 NCHW\\<-\\>NHWC conversion kernels take 2.6% of the step "
            "| 2.6% of the step, 6.90 us per step "
            "| Convert the model and its inputs to channels-last once, before training. |\n"
            "\n");
}

TEST(RenderMarkdown, OneLineSaysHowTheWorkloadEndedWhenARunMadeTheReport) {
  analyzers::Report report = SampleReport();
  EXPECT_EQ(Render({report}).find("The workload"), std::string::npos);
  report.workload_outcome = analyzers::WorkloadOutcome{.exit_code = 0, .signal = 9};
  const std::string md = Render({report});
  EXPECT_NE(md.find("data quality: no records lost or repaired\n\nThe workload was killed by signal 9 (SIGKILL).\n\n|"),
            std::string::npos)
      << md;
  report.workload_outcome = analyzers::WorkloadOutcome{.exit_code = 0, .signal = 0};
  EXPECT_NE(Render({report}).find("\nThe workload exited with status 0.\n"), std::string::npos);
}

TEST(RenderMarkdown, KernelNamesOfAnyLengthStayShort) {
  analyzers::Report report = SampleReport();
  const std::string long_name = "void deep_template<" + std::string(64 * 1024, 'x') + ">(int)";
  report.findings.front().examples = {long_name};
  const std::string md = Render({report});
  const size_t at = md.find("- e.g. `void deep_template<xxx");
  ASSERT_NE(at, std::string::npos) << md;
  const std::string line = md.substr(at, md.find('\n', at) - at);
  EXPECT_EQ(line.size(), std::string_view("- e.g. ``").size() + 240) << line;
  EXPECT_NE(line.find("xxx...xxx"), std::string::npos);
  EXPECT_EQ(line.substr(line.size() - 7), ">(int)`");
}

TEST(RenderMarkdown, EvidenceFoldedAway) {
  const std::string md = Render({SampleReport()});
  EXPECT_NE(md.find("<details><summary>Evidence</summary>\n\n"
                    "`layout.nchw_nhwc`\n\n"
                    "- their time: 277 us per step\n"
                    "- e.g. `void cudnn::ops::nchwToNhwcKernel<__half>(int)`\n"
                    "- the saving: the conversion kernels' time\n"
                    "- how to fix it: `ampprof explain layout.nchw_nhwc`\n\n"
                    "</details>\n"),
            std::string::npos)
      << md;
}

TEST(RenderMarkdown, NoFindingsNoTable) {
  analyzers::Report report = SampleReport();
  report.findings.clear();
  const std::string md = Render({report});
  EXPECT_NE(md.find("**no finding from the 1 checks run**"), std::string::npos) << md;
  EXPECT_EQ(md.find("| severity"), std::string::npos) << md;
  EXPECT_EQ(md.find("<details>"), std::string::npos) << md;
}

TEST(RenderMarkdown, ComparisonKeepsTheLargestRows) {
  analyzers::Report report = SampleReport();
  analyzers::Comparison c;
  c.speedup = 1.71;
  c.baseline.time_ns = 1'460'000;
  c.candidate.time_ns = 857'000;
  for (int i = 0; i < 8; ++i) c.rows.push_back({fmt::format("row {}", i), 1000 * (8 - i), 0, ""});
  c.rows[0].explained_by = "gpu.launch_bound";
  report.comparison = c;
  const std::string md = Render({report});
  EXPECT_NE(md.find("FP32 vs mixed precision: median step 1.46 ms (FP32) vs 857 us (AMP), speed-up **1.71x**.\n"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| row 0 | 8.00 us | - | -8.00 us | `gpu.launch_bound` |\n"), std::string::npos) << md;
  EXPECT_NE(md.find("| row 5 |"), std::string::npos) << md;
  EXPECT_EQ(md.find("| row 6 |"), std::string::npos) << md;
  EXPECT_NE(md.find("2 smaller rows left out."), std::string::npos) << md;
  EXPECT_NE(md.find("**mixed precision is 1.71x faster than FP32; 1 finding"), std::string::npos) << md;
}

// A summary appended to $GITHUB_STEP_SUMMARY is also printed on terminals (CI logs, `cat`, a
// pager): control characters from the trace are escaped visibly, in text and in code spans alike.
TEST(RenderMarkdown, EscapesControlCharactersFromTheTrace) {
  const std::string hostile = "\x1b]0;pwned\x07\x1b]52;c;aGk=\x07\x1b[2J\xc2\x9b\x9b\x7f\tx";
  analyzers::Report report = SampleReport();
  report.label = hostile;
  report.inputs[0].path = hostile;
  report.summary.workload = hostile;
  report.summary.devices[0].name = hostile;
  report.summary.step_source = hostile;
  report.findings[0].verdict = hostile;
  report.findings[0].evidence = {{hostile, hostile}};
  report.findings[0].examples = {hostile, std::string(300, 'k') + hostile};
  analyzers::Comparison c;
  c.notes = {hostile};
  c.rows = {{hostile, 1000, 2000, ""}};
  report.comparison = c;
  const std::string md = Render({report});
  // Nothing left to escape: no C0 but the reporter's newlines, no DEL, no C1, no byte that is not
  // UTF-8 (the reporter's own " · " is UTF-8).
  std::string without_newlines = md;
  std::erase(without_newlines, '\n');
  EXPECT_FALSE(base::NeedsEscaping(without_newlines)) << md;
  EXPECT_NE(md.find("### ampprof: \\\\x1b\\]0;pwned\\\\x07"), std::string::npos)
      << md;  // Markdown-escaped
  EXPECT_NE(
      md.find("- e.g. `\\x1b]0;pwned\\x07\\x1b]52;c;aGk=\\x07\\x1b[2J\\u009b\\x9b\\x7f\\x09x`"),
      std::string::npos)
      << md;
}

}  // namespace
}  // namespace ampprof::reports
