#include "analyzers/report/assemble.h"

#include "analyzers/findings/registry.h"
#include "analyzers/report/summary.h"

namespace ampprof::analyzers {

TraceAnalysis AnalyzeTrace(const AnalysisInput& input, const RunIdentity& identity, std::vector<ReportInput> inputs) {
  TraceAnalysis analysis;
  Report& report = analysis.report;
  report.label = identity.label;
  report.rank = identity.rank;
  report.inputs = std::move(inputs);
  report.summary = Summarize(input);
  report.findings = RunAnalyzers(input);
  report.timeline = BuildTimeline(input);
  report.ops = BuildOpTable(input);
  for (const AnalyzerEntry& analyzer : AllAnalyzers()) {
    report.checks_run.insert(report.checks_run.end(), analyzer.ids.begin(), analyzer.ids.end());
  }
  report.stats = input.model.stats();
  analysis.profile = ProfileRun(input);
  analysis.profile.identity = identity;
  return analysis;
}

BaselineRun ReduceBaseline(const AnalysisInput& input, const RunIdentity& identity) {
  BaselineRun baseline{ProfileRun(input), BuildTimeline(input)};
  baseline.profile.identity = identity;
  return baseline;
}

Report WithComparison(TraceAnalysis candidate, const BaselineRun& baseline, const std::string& pairing) {
  Report report = std::move(candidate.report);
  ComparisonResult result = Compare(baseline.profile, candidate.profile, pairing);
  if (result.finding) {
    report.findings.push_back(std::move(*result.finding));
    FillFixes(report.findings, report.summary.run_kind);
    SortFindings(report.findings);
  }
  // After swapping, the report's own trace may be the FP32 one: the timelines follow the comparison.
  if (result.comparison.pair == RunPair::kSwapped) {
    report.baseline_timeline = report.timeline;
    report.timeline = baseline.timeline;
  } else {
    report.baseline_timeline = baseline.timeline;
  }
  report.comparison = std::move(result.comparison);
  report.checks_run.emplace_back("amp.slower_than_fp32");
  return report;
}

}  // namespace ampprof::analyzers
