#include "reports/markdown/job_markdown.h"

#include <string>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "analyzers/ranks/job_statements.h"
#include "reports/common/statement_text.h"
#include "reports/markdown/markdown_escape.h"
#include "reports/markdown/markdown_reporter.h"
#include "src/base/time.h"

namespace ampprof::reports {
namespace {

using analyzers::JobReport;
using analyzers::RankRow;

std::string RowLabel(const RankRow& row) {
  std::string label = row.rank >= 0 ? fmt::format("{}", row.rank) : MarkdownEscape(row.label);
  if (row.duplicate) label += " (duplicate)";
  return label;
}

void RenderStragglers(const JobReport& job, std::ostream& out) {
  const analyzers::StragglerVerdict& verdict = job.stragglers;
  for (const analyzers::Straggler& straggler : verdict.stragglers) {
    out << "- " << MarkdownEscape(RenderStatement(analyzers::DescribeStraggler(straggler))) << "\n";
  }
  if (verdict.imbalance) out << "- " << MarkdownEscape(RenderStatement(analyzers::DescribeImbalance(*verdict.imbalance))) << "\n";
  if (verdict.stragglers.empty() && !verdict.imbalance) {
    out << "- " << MarkdownEscape(RenderStatement(analyzers::DescribeNoStraggler(verdict))) << "\n";
  }
}

void RenderFindings(const JobReport& job, std::ostream& out) {
  if (job.findings.empty()) {
    out << "\nNo finding on any rank.\n";
    return;
  }
  out << "\n| severity | finding | ranks | saving | what was measured (the rank with the largest saving) |\n"
         "|---|---|---|---|---|\n";
  for (const analyzers::MergedFinding& finding : job.findings) {
    const std::string saving = DescribeSaving(analyzers::MergedSaving(finding), finding.per_step);
    out << fmt::format("| {} | `{}` | {} | {} | {} ({}) |\n", analyzers::SeverityName(finding.severity), finding.id,
                       MarkdownEscape(analyzers::DescribeRanks(finding, job)),
                       saving.empty() ? "-" : MarkdownEscape(saving), MarkdownEscape(RenderStatement(finding.verdict)),
                       MarkdownEscape(finding.verdict_label));
  }
}

void RenderRows(const JobReport& job, std::ostream& out) {
  out << fmt::format("\n**Ranks{}**\n\n", job.per_step ? " (per step)" : "");
  out << "| rank |";
  for (analyzers::Measure measure : analyzers::kAllMeasures) out << " " << analyzers::MeasureLabel(measure) << " |";
  out << " top finding |\n|---|";
  for (size_t i = 0; i < analyzers::kMeasures; ++i) out << "---:|";
  out << "---|\n";
  for (const RankRow& row : job.rows) {
    out << "| " << RowLabel(row) << " |";
    for (analyzers::Measure measure : analyzers::kAllMeasures) out << " " << base::FormatDuration(row.Of(measure)) << " |";
    out << " " << (row.top_finding ? fmt::format("`{}`", row.top_finding->id) : "-") << " |\n";
  }
  out << "\n<details><summary>Idle by cause per rank</summary>\n\n| rank |";
  for (analyzers::GapCause cause : analyzers::kAllGapCauses) out << " " << analyzers::GapCauseName(cause) << " |";
  out << "\n|---|";
  for (size_t i = 0; i < analyzers::kGapCauses; ++i) out << "---:|";
  out << "\n";
  for (const RankRow& row : job.rows) {
    out << "| " << RowLabel(row) << " |";
    for (analyzers::GapCause cause : analyzers::kAllGapCauses) out << " " << base::FormatDuration(row.idle[cause]) << " |";
    out << "\n";
  }
  out << "\n</details>\n";
}

}  // namespace

void RenderJobMarkdown(const JobReport& job, std::span<const analyzers::Report> reports, std::ostream& out) {
  out << "### ampprof: cross-rank report\n\n**" << MarkdownEscape(RenderStatement(analyzers::DescribeJob(job)))
      << "**\n";
  if (job.median_step_ns > 0) out << "\nMedian step across ranks: " << base::FormatDuration(job.median_step_ns) << "\n";
  if (!job.notes.empty()) {
    out << "\nTraces that may not belong together:\n\n";
    for (const analyzers::Statement& note : job.notes) out << "- " << MarkdownEscape(RenderStatement(note)) << "\n";
  }
  out << "\n**Stragglers**\n\n";
  RenderStragglers(job, out);
  RenderFindings(job, out);
  RenderRows(job, out);
  if (reports.empty()) return;
  out << "\n";
  RenderMarkdown(reports, out);
}

}  // namespace ampprof::reports
