#ifndef AMPPROF_ANALYZERS_FINDINGS_REGISTRY_H_
#define AMPPROF_ANALYZERS_FINDINGS_REGISTRY_H_

// The analyzer interface: a pure function from a model (and what every analyzer needs of it, computed
// once) to findings. No I/O, no printing. New analyzer = a file pair with one such function, its test,
// its catalog entry, and one line in analyzers.cc.
//
//   std::vector<Finding> AnalyzeLayout(const AnalysisInput& input);

#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "analyzers/findings/finding.h"
#include "analyzers/facts/analysis_input.h"

namespace ampprof::analyzers {

using AnalyzerFunction = std::vector<Finding> (*)(const AnalysisInput& input);

struct AnalyzerEntry {
  std::string_view name;
  AnalyzerFunction run;
};

// Every analyzer, in the order they run (analyzers.cc).
std::span<const AnalyzerEntry> AllAnalyzers();

// Runs them all; findings ordered by severity, then by the time at stake.
std::vector<Finding> RunAnalyzers(const model::TraceModel& model);
// The same on an input the caller holds, e.g. to read its steps() too without finding them twice.
std::vector<Finding> RunAnalyzers(const AnalysisInput& input);

// Orders findings as reports list them: most severe first, then by the time at stake (stable).
void SortFindings(std::vector<Finding>& findings);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FINDINGS_REGISTRY_H_
