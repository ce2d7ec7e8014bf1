#include "analyzers/report/verdict.h"

#include <algorithm>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analyzers/report/compare.h"
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
  if (comparison.speedup >= kMinUsefulSpeedup) {
    return fmt::format("mixed precision is {:.2f}x faster than FP32", comparison.speedup);
  }
  if (comparison.speedup >= 1.0) {
    return fmt::format("mixed precision brings no measurable speed-up over FP32 ({:.2f}x)", comparison.speedup);
  }
  return fmt::format("mixed precision is slower than FP32 ({:.2f}x)", comparison.speedup);
}

std::string FindingsClause(const Report& report, const Verdict& verdict) {
  if (report.findings.empty()) {
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
  if (first.time_ns > 0) text += fmt::format(" ({} at stake)", base::FormatDuration(first.time_ns));
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
