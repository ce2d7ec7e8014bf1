#ifndef AMPPROF_ANALYZERS_FINDINGS_REGISTRY_H_
#define AMPPROF_ANALYZERS_FINDINGS_REGISTRY_H_

// The analyzers: pure functions from one trace's AnalysisInput to findings. No I/O, no printing. A new
// finding = its page in docs/findings/ (listed in analyzers/findings/CMakeLists.txt), a file pair with one
// such function, its test, and one line in registry.cc.
//
//   std::vector<Finding> AnalyzeLayout(const AnalysisInput& input);
//   const std::vector<Finding> findings = RunAnalyzers(input);   // ordered as reports list them

#include <span>
#include <string_view>
#include <vector>

#include "analyzers/facts/analysis_input.h"
#include "analyzers/findings/finding.h"

namespace ampprof::analyzers {

using AnalyzerFunction = std::vector<Finding> (*)(const AnalysisInput& input);

struct AnalyzerEntry {
  std::string_view name;  // the check's name, as reports list what ran
  std::span<const std::string_view> ids;  // the finding ids it can report (what `ampprof explain` takes)
  AnalyzerFunction run;
};

// Every analyzer, in the order they run (registry.cc).
std::span<const AnalyzerEntry> AllAnalyzers();

// Runs them all; findings ordered by SortFindings, each with its fix filled (FillFixes).
std::vector<Finding> RunAnalyzers(const AnalysisInput& input);

// Orders findings as reports list them: most severe first, then by the step time fixing each would save
// (the high end of a range), then by id (stable).
void SortFindings(std::vector<Finding>& findings);

// Gives each finding without a fix of its own the first sentence of its page's "How to fix it".
void FillFixes(std::vector<Finding>& findings, RunKind run = RunKind::kTraining);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FINDINGS_REGISTRY_H_
