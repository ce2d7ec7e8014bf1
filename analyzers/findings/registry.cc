#include "analyzers/findings/registry.h"

#include <algorithm>

#include "analyzers/findings/alignment_analyzer.h"
#include "analyzers/findings/amp_opportunity_analyzer.h"
#include "analyzers/findings/cast_analyzer.h"
#include "analyzers/findings/comm_exposed_analyzer.h"
#include "analyzers/findings/finding_fix.h"
#include "analyzers/findings/fp32_math_analyzer.h"
#include "analyzers/findings/grouped_conv_analyzer.h"
#include "analyzers/findings/host_bound_analyzer.h"
#include "analyzers/findings/launch_bound_analyzer.h"
#include "analyzers/findings/layout_analyzer.h"
#include "analyzers/findings/optimizer_analyzer.h"
#include "analyzers/findings/scaler_analyzer.h"
#include "analyzers/findings/sync_stall_analyzer.h"
#include "analyzers/findings/tensor_core_analyzer.h"
#include "analyzers/findings/warmup_analyzer.h"

namespace ampprof::analyzers {
namespace {

constexpr std::string_view kLaunchBound[] = {"gpu.launch_bound"};
constexpr std::string_view kHostBound[] = {"gpu.host_bound"};
constexpr std::string_view kSyncStall[] = {"gpu.sync_stall"};
constexpr std::string_view kCommunication[] = {"comm.exposed"};
constexpr std::string_view kUnavailable[] = {"tensor_cores.unavailable"};
constexpr std::string_view kOpportunity[] = {"amp.opportunity"};
constexpr std::string_view kFp32Math[] = {"tensor_cores.fp32_math"};
constexpr std::string_view kMisaligned[] = {"tensor_cores.misaligned"};
constexpr std::string_view kLayout[] = {"layout.nchw_nhwc"};
constexpr std::string_view kScaler[] = {"amp.scaler_overhead"};
constexpr std::string_view kWarmup[] = {"bench.warmup_in_window"};
constexpr std::string_view kOptimizer[] = {"amp.double_optimizer_step"};
constexpr std::string_view kGroupedConv[] = {"conv.grouped_fallback"};
constexpr std::string_view kCasts[] = {"amp.cast_overhead"};

// The list. Static self-registration is avoided on purpose: it disappears from static libraries.
constexpr AnalyzerEntry kAnalyzers[] = {
    {"launch_bound", kLaunchBound, &AnalyzeLaunchBound},
    {"host_bound", kHostBound, &AnalyzeHostBound},
    {"sync_stall", kSyncStall, &AnalyzeSyncStall},
    {"communication", kCommunication, &AnalyzeCommunication},
    {"tensor_cores", kUnavailable, &AnalyzeTensorCoreAvailability},
    {"amp_opportunity", kOpportunity, &AnalyzeAmpOpportunity},
    {"fp32_math", kFp32Math, &AnalyzeFp32Math},
    {"alignment", kMisaligned, &AnalyzeAlignment},
    {"layout", kLayout, &AnalyzeLayout},
    {"grad_scaler", kScaler, &AnalyzeGradScaler},
    {"warmup", kWarmup, &AnalyzeWarmup},
    {"optimizer_steps", kOptimizer, &AnalyzeOptimizerSteps},
    {"grouped_conv", kGroupedConv, &AnalyzeGroupedConvolutions},
    {"casts", kCasts, &AnalyzeCasts},
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

std::vector<Finding> RunAnalyzers(const AnalysisInput& input) {
  std::vector<Finding> findings;
  for (const AnalyzerEntry& analyzer : AllAnalyzers()) {
    std::vector<Finding> found = analyzer.run(input);
    findings.insert(findings.end(), std::make_move_iterator(found.begin()), std::make_move_iterator(found.end()));
  }
  FillFixes(findings, input.run_kind().kind);
  SortFindings(findings);
  return findings;
}

void SortFindings(std::vector<Finding>& findings) {
  std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
    if (Rank(a.severity) != Rank(b.severity)) return Rank(a.severity) < Rank(b.severity);
    // The low end first: what fixing it saves for certain ranks above what it might save at best.
    if (a.saving.low_ns != b.saving.low_ns) return a.saving.low_ns > b.saving.low_ns;
    if (a.saving.ns != b.saving.ns) return a.saving.ns > b.saving.ns;
    return a.id < b.id;
  });
}

void FillFixes(std::vector<Finding>& findings, RunKind run) {
  for (Finding& finding : findings) {
    if (finding.fix.empty()) finding.fix = FindingFix(finding.id, run);
  }
}

}  // namespace ampprof::analyzers
