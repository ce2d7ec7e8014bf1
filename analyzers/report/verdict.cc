#include "analyzers/report/verdict.h"

#include <algorithm>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analyzers/report/compare.h"
#include "src/base/format.h"
#include "src/base/time.h"

namespace ampprof::analyzers {
namespace {

int Rank(Severity severity) {
  switch (severity) {
    case Severity::kInfo: return 0;
    case Severity::kWarning: return 1;
    case Severity::kCritical: return 2;
  }
  return 0;
}

std::string SpeedupClause(const Comparison& comparison) {
  if (comparison.speedup <= 0.0) return "the FP32 and mixed-precision runs cannot be compared";
  const std::string times = fmt::format("{} vs {}", base::FormatDuration(comparison.baseline.time_ns),
                                        base::FormatDuration(comparison.candidate.time_ns));
  switch (comparison.pair) {
    case RunPair::kBothFp32: return fmt::format("both runs are FP32: no mixed-precision speed-up to state ({})", times);
    case RunPair::kBothMixed:
      return fmt::format("both runs are mixed precision: no FP32 baseline to compare with ({})", times);
    default: break;
  }
  if (comparison.speedup >= kMinUsefulSpeedup) {
    return fmt::format("mixed precision is {:.2f}x faster than FP32", comparison.speedup);
  }
  if (comparison.speedup >= 1.0) {
    return fmt::format("mixed precision brings no measurable speed-up over FP32 ({:.2f}x)", comparison.speedup);
  }
  return fmt::format("mixed precision is slower than FP32 ({:.2f}x)", comparison.speedup);
}

// Why a report has nothing to diagnose, or "" when it has something.
std::string NothingToDiagnose(const Report& report) {
  if (report.summary.kernels == 0) return "nothing to diagnose: the trace holds no GPU kernels";
  if (report.summary.account_basis == "all warm-up") {
    return "nothing to diagnose: the trace holds only warm-up (autotuning), no training step";
  }
  return "";
}

std::string SavingClause(const Finding& finding, bool per_step) {
  if (finding.saving.none()) return "";
  const std::string per = per_step ? " of the step" : " of the analysed time";
  if (finding.saving.is_range()) {
    return fmt::format(" (saves {} to {}{})", base::FormatPercent(finding.saving.low_fraction),
                       base::FormatPercent(finding.saving.fraction), per);
  }
  return fmt::format(" (saves {}{})", base::FormatPercent(finding.saving.fraction), per);
}

std::string FindingsClause(const Report& report, const Verdict& verdict) {
  if (report.findings.empty()) {
    if (!verdict.nothing_to_diagnose.empty()) return verdict.nothing_to_diagnose;
    return report.checks_run.empty() ? "no checks ran"
                                     : fmt::format("no finding from the {} checks run", report.checks_run.size());
  }
  std::vector<std::string> counts;
  if (verdict.critical > 0) counts.push_back(fmt::format("{} critical", verdict.critical));
  if (verdict.warnings > 0) counts.push_back(fmt::format("{} warning", verdict.warnings));
  if (verdict.infos > 0) counts.push_back(fmt::format("{} info", verdict.infos));
  const size_t total = report.findings.size();
  std::string text = fmt::format("{} finding{} ({})", total, total == 1 ? "" : "s", fmt::join(counts, ", "));
  const Finding& first = report.findings.front();
  if (total > 1 || first.severity != Severity::kInfo) text += fmt::format(": start with {}", first.id);
  text += SavingClause(first, report.summary.account_basis == "measured steps");
  return text;
}

}  // namespace

Verdict JudgeReport(const Report& report) {
  Verdict verdict;
  for (const Finding& finding : report.findings) {
    switch (finding.severity) {
      case Severity::kCritical: ++verdict.critical; break;
      case Severity::kWarning: ++verdict.warnings; break;
      case Severity::kInfo: ++verdict.infos; break;
    }
    if (!verdict.worst || Rank(finding.severity) > Rank(*verdict.worst)) verdict.worst = finding.severity;
  }
  if (!report.findings.empty()) verdict.start_with = report.findings.front().id;
  verdict.nothing_to_diagnose = NothingToDiagnose(report);
  verdict.text = FindingsClause(report, verdict);
  if (report.comparison) verdict.text = SpeedupClause(*report.comparison) + "; " + verdict.text;
  return verdict;
}

size_t CountFindingsAtLeast(const Report& report, Severity threshold) {
  return static_cast<size_t>(std::count_if(report.findings.begin(), report.findings.end(), [&](const Finding& finding) {
    return Rank(finding.severity) >= Rank(threshold);
  }));
}

}  // namespace ampprof::analyzers
