#ifndef AMPPROF_ANALYZERS_REPORT_VERDICT_H_
#define AMPPROF_ANALYZERS_REPORT_VERDICT_H_

// The verdict: what a report says before any detail, in one line, and the worst severity it found,
// which is what `analyze --fail-on` and scripts reading the JSON gate on. A pure function of the
// Report, so every view prints the same verdict and none of them recomputes the analysis.
//
//   const Verdict verdict = JudgeReport(report);
//   if (verdict.worst && *verdict.worst == Severity::kCritical) ...
//   fmt::print("{}\n", verdict.text);
//   // "mixed precision is slower than FP32 (0.85x); 3 findings (1 critical, 2 warning): start with
//   //  gpu.launch_bound (saves 29.1% of the step)"

#include <optional>
#include <string>

#include "analyzers/findings/finding_catalog.h"
#include "analyzers/report/report.h"

namespace ampprof::analyzers {

struct Verdict {
  std::optional<Severity> worst;  // nullopt when there is no finding
  size_t critical = 0;
  size_t warnings = 0;
  size_t infos = 0;
  std::string start_with;  // the id of the finding to fix first (the report's first); "" without one
  // Why the trace has nothing to diagnose (no kernels, only warm-up), or "": not a clean bill of health,
  // so --fail-on fails on it.
  std::string nothing_to_diagnose;
  std::string text;        // one line, no trailing period
};

Verdict JudgeReport(const Report& report);

// How many of the report's findings are at least as severe as `threshold` (what --fail-on counts).
size_t CountFindingsAtLeast(const Report& report, Severity threshold);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_REPORT_VERDICT_H_
