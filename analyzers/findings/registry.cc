#include <algorithm>
#include <unordered_map>

#include "analyzers/findings/registry.h"

#include "analyzers/findings/alignment_analyzer.h"
#include "analyzers/findings/cast_analyzer.h"
#include "analyzers/findings/fp32_math_analyzer.h"
#include "analyzers/findings/grouped_conv_analyzer.h"
#include "analyzers/findings/idle_gap_analyzer.h"
#include "analyzers/findings/layout_analyzer.h"
#include "analyzers/findings/optimizer_analyzer.h"
#include "analyzers/findings/scaler_analyzer.h"
#include "analyzers/findings/tensor_core_analyzer.h"
#include "analyzers/findings/warmup_analyzer.h"

namespace ampprof::analyzers {
namespace {

// The list. Static self-registration is avoided on purpose: it disappears from static libraries.
constexpr AnalyzerEntry kAnalyzers[] = {
    {"tensor_cores", &AnalyzeTensorCoreAvailability},
    {"fp32_math", &AnalyzeFp32Math},
    {"alignment", &AnalyzeAlignment},
    {"layout", &AnalyzeLayout},
    {"idle_gaps", &AnalyzeIdleGaps},
    {"grad_scaler", &AnalyzeGradScaler},
    {"warmup", &AnalyzeWarmup},
    {"optimizer_steps", &AnalyzeOptimizerSteps},
    {"grouped_conv", &AnalyzeGroupedConvolutions},
    {"casts", &AnalyzeCasts},
};

int Rank(Severity severity) {
  switch (severity) {
    case Severity::kCritical: return 0;
    case Severity::kWarning: return 1;
    case Severity::kInfo: return 2;
  }
  return 3;
}

}  // namespace

std::span<const AnalyzerEntry> AllAnalyzers() { return kAnalyzers; }

std::vector<Finding> RunAnalyzers(const model::TraceModel& model) {
  const std::vector<KernelClass> classes = ClassifySignatures(model);
  return RunAnalyzers(AnalysisInput{model, classes});
}

std::vector<Finding> RunAnalyzers(const AnalysisInput& input) {
  std::vector<Finding> findings;
  for (const AnalyzerEntry& analyzer : AllAnalyzers()) {
    std::vector<Finding> found = analyzer.run(input);
    findings.insert(findings.end(), std::make_move_iterator(found.begin()), std::make_move_iterator(found.end()));
  }
  SortFindings(findings);
  return findings;
}

void SortFindings(std::vector<Finding>& findings) {
  std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
    if (Rank(a.severity) != Rank(b.severity)) return Rank(a.severity) < Rank(b.severity);
    return a.time_ns > b.time_ns;
  });
}

}  // namespace ampprof::analyzers
