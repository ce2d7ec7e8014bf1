#include "analyzers/report/verdict.h"

#include <gtest/gtest.h>

namespace ampprof::analyzers {
namespace {

Finding MakeFinding(std::string id, Severity severity, base::DurationNs time_ns) {
  Finding finding;
  finding.id = std::move(id);
  finding.severity = severity;
  finding.time_ns = time_ns;
  return finding;
}

TEST(JudgeReport, NoFindingSaysHowManyChecksRan) {
  Report report;
  report.checks_run = {"idle_gaps", "layout", "casts"};
  const Verdict verdict = JudgeReport(report);
  EXPECT_FALSE(verdict.worst.has_value());
  EXPECT_EQ(verdict.text, "no finding from the 3 checks run");
  EXPECT_EQ(verdict.start_with, "");
  EXPECT_EQ(CountFindingsAtLeast(report, Severity::kInfo), 0u);
}

TEST(JudgeReport, CountsBySeverityAndNamesTheFindingToStartWith) {
  Report report;
  report.findings = {MakeFinding("gpu.launch_bound", Severity::kCritical, 24'100'000),
                     MakeFinding("layout.nchw_nhwc", Severity::kWarning, 277'000),
                     MakeFinding("amp.cast_overhead", Severity::kInfo, 1'940'000),
                     MakeFinding("gpu.sync_stall", Severity::kWarning, 0)};
  const Verdict verdict = JudgeReport(report);
  EXPECT_EQ(verdict.worst, Severity::kCritical);
  EXPECT_EQ(verdict.critical, 1u);
  EXPECT_EQ(verdict.warnings, 2u);
  EXPECT_EQ(verdict.infos, 1u);
  EXPECT_EQ(verdict.start_with, "gpu.launch_bound");
  EXPECT_EQ(verdict.text, "4 findings (1 critical, 2 warning, 1 info): start with gpu.launch_bound (24.1 ms at stake)");
}

TEST(JudgeReport, AnInfoAloneIsNotSomethingToStartWith) {
  Report report;
  report.findings = {MakeFinding("amp.cast_overhead", Severity::kInfo, 0)};
  EXPECT_EQ(JudgeReport(report).text, "1 finding (1 info)");
}

TEST(JudgeReport, LeadsWithTheSpeedUpWhenComparedWithFp32) {
  Report report;
  report.checks_run = {"compare"};
  report.comparison = Comparison{};
  report.comparison->speedup = 1.71;
  EXPECT_EQ(JudgeReport(report).text, "mixed precision is 1.71x faster than FP32; no finding from the 1 checks run");
  report.comparison->speedup = 1.02;
  report.findings = {MakeFinding("amp.slower_than_fp32", Severity::kCritical, 0)};
  EXPECT_EQ(JudgeReport(report).text,
            "mixed precision brings no measurable speed-up over FP32 (1.02x); 1 finding (1 critical): start with "
            "amp.slower_than_fp32");
  report.comparison->speedup = 0.85;
  EXPECT_EQ(JudgeReport(report).text.substr(0, 43), "mixed precision is slower than FP32 (0.85x)");
}

TEST(CountFindingsAtLeast, CountsFindingsAtOrAboveTheThreshold) {
  Report report;
  report.findings = {MakeFinding("gpu.launch_bound", Severity::kCritical, 0),
                     MakeFinding("layout.nchw_nhwc", Severity::kWarning, 0),
                     MakeFinding("amp.cast_overhead", Severity::kInfo, 0)};
  EXPECT_EQ(CountFindingsAtLeast(report, Severity::kInfo), 3u);
  EXPECT_EQ(CountFindingsAtLeast(report, Severity::kWarning), 2u);
  EXPECT_EQ(CountFindingsAtLeast(report, Severity::kCritical), 1u);
}

}  // namespace
}  // namespace ampprof::analyzers
