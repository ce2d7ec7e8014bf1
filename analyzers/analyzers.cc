#include <algorithm>
#include <unordered_map>

#include "analyzers/analyzer.h"
#include "analyzers/alignment_analyzer.h"
#include "analyzers/cast_analyzer.h"
#include "analyzers/fp32_math_analyzer.h"
#include "analyzers/grouped_conv_analyzer.h"
#include "analyzers/idle_gap_analyzer.h"
#include "analyzers/layout_analyzer.h"
#include "analyzers/optimizer_analyzer.h"
#include "analyzers/scaler_analyzer.h"
#include "analyzers/tensor_core_analyzer.h"
#include "analyzers/warmup_analyzer.h"

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

std::vector<KernelClass> ClassifySignatures(const model::TraceModel& model) {
  std::unordered_map<uint32_t, KernelClass> by_name;  // signatures of one kernel share its name
  std::vector<KernelClass> classes;
  classes.reserve(model.kernel_signatures().size());
  for (const model::KernelSignature& signature : model.kernel_signatures()) {
    auto [it, inserted] = by_name.try_emplace(signature.name.value);
    if (inserted) it->second = ClassifyKernel(model.Text(signature.name));
    classes.push_back(it->second);
  }
  return classes;
}

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
