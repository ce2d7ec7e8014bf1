#include "analyzers/report/verdict.h"

#include <gtest/gtest.h>

namespace ampprof::analyzers {
namespace {

// A finding that would save `fraction` of the step.
Finding MakeFinding(std::string id, Severity severity, double fraction) {
  Finding finding;
  finding.id = std::move(id);
  finding.severity = severity;
  finding.saving = Saving::Exact(static_cast<base::DurationNs>(fraction * 1e6), fraction, "a what-if");
  return finding;
}

// A report of a trace with kernels and measured steps.
Report WithKernels() {
  Report report;
  report.summary.kernels = 100;
  report.summary.account_basis = "measured steps";
  return report;
}

TEST(JudgeReport, NoFindingSaysHowManyChecksRan) {
  Report report = WithKernels();
  report.checks_run = {"gpu.launch_bound", "layout.nchw_nhwc", "amp.cast_overhead"};
  const Verdict verdict = JudgeReport(report);
  EXPECT_FALSE(verdict.worst.has_value());
  EXPECT_EQ(verdict.text, "no finding from the 3 checks run");
  EXPECT_EQ(verdict.start_with, "");
  EXPECT_EQ(CountFindingsAtLeast(report, Severity::kInfo), 0u);
}

TEST(JudgeReport, CountsBySeverityAndNamesTheFindingToStartWith) {
  Report report = WithKernels();
  report.findings = {MakeFinding("gpu.launch_bound", Severity::kCritical, 0.291),
                     MakeFinding("layout.nchw_nhwc", Severity::kWarning, 0.026),
                     MakeFinding("amp.cast_overhead", Severity::kInfo, 0.035),
                     MakeFinding("gpu.sync_stall", Severity::kWarning, 0)};
  const Verdict verdict = JudgeReport(report);
  EXPECT_EQ(verdict.worst, Severity::kCritical);
  EXPECT_EQ(verdict.critical, 1u);
  EXPECT_EQ(verdict.warnings, 2u);
  EXPECT_EQ(verdict.infos, 1u);
  EXPECT_EQ(verdict.start_with, "gpu.launch_bound");
  EXPECT_EQ(verdict.text,
            "4 findings (1 critical, 2 warning, 1 info): start with gpu.launch_bound (saves 29.1% of the step)");
}

TEST(JudgeReport, ASavingRangeIsSaidAsARange) {
  Report report = WithKernels();
  Finding opportunity = MakeFinding("amp.opportunity", Severity::kWarning, 0.346);
  opportunity.saving = Saving::Range(100, 200, 0.198, 0.346, "a what-if");
  report.findings = {opportunity};
  EXPECT_EQ(JudgeReport(report).text,
            "1 finding (1 warning): start with amp.opportunity (saves 19.8% to 34.6% of the step)");
  report.summary.account_basis = "whole run";
  EXPECT_EQ(JudgeReport(report).text,
            "1 finding (1 warning): start with amp.opportunity (saves 19.8% to 34.6% of the analysed time)");
}

TEST(JudgeReport, NothingToDiagnoseIsNotACleanBill) {
  Report report;
  report.checks_run = {"gpu.launch_bound"};
  const Verdict verdict = JudgeReport(report);
  EXPECT_EQ(verdict.text, "nothing to diagnose: the trace holds no GPU kernels");
  EXPECT_EQ(verdict.nothing_to_diagnose, verdict.text);
  report = WithKernels();
  report.summary.account_basis = "all warm-up";
  EXPECT_EQ(JudgeReport(report).text,
            "nothing to diagnose: the trace holds only warm-up (autotuning), no training step");
}

TEST(JudgeReport, AnInfoAloneIsNotSomethingToStartWith) {
  Report report = WithKernels();
  report.findings = {MakeFinding("amp.cast_overhead", Severity::kInfo, 0)};
  EXPECT_EQ(JudgeReport(report).text, "1 finding (1 info)");
}

TEST(JudgeReport, LeadsWithTheSpeedUpWhenComparedWithFp32) {
  Report report = WithKernels();
  report.checks_run = {"amp.slower_than_fp32"};
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

TEST(JudgeReport, TwoFp32RunsGetNoSpeedUpHeadline) {
  Report report = WithKernels();
  report.checks_run = {"amp.slower_than_fp32"};
  report.comparison = Comparison{};
  report.comparison->pair = RunPair::kBothFp32;
  report.comparison->speedup = 1.37;
  report.comparison->baseline.time_ns = 137'000;
  report.comparison->candidate.time_ns = 100'000;
  EXPECT_EQ(JudgeReport(report).text,
            "both runs are FP32: no mixed-precision speed-up to state (137 us vs 100 us); no finding from the 1 "
            "checks run");
}

TEST(CountFindingsAtLeast, CountsFindingsAtOrAboveTheThreshold) {
  Report report = WithKernels();
  report.findings = {MakeFinding("gpu.launch_bound", Severity::kCritical, 0),
                     MakeFinding("layout.nchw_nhwc", Severity::kWarning, 0),
                     MakeFinding("amp.cast_overhead", Severity::kInfo, 0)};
  EXPECT_EQ(CountFindingsAtLeast(report, Severity::kInfo), 3u);
  EXPECT_EQ(CountFindingsAtLeast(report, Severity::kWarning), 2u);
  EXPECT_EQ(CountFindingsAtLeast(report, Severity::kCritical), 1u);
}

}  // namespace
}  // namespace ampprof::analyzers
