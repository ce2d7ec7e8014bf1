#include "reports/text/job_text.h"

#include <string>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "analyzers/ranks/job_statements.h"
#include "reports/common/statement_text.h"
#include "reports/text/text_layout.h"
#include "reports/text/text_style.h"

namespace ampprof::reports {
namespace {

using analyzers::JobReport;
using analyzers::Measure;
using analyzers::RankRow;

constexpr size_t kLabelColumn = 14;
constexpr size_t kValueColumn = 11;

std::string RowLabel(const RankRow& row) {
  std::string label = row.rank >= 0 ? fmt::format("{}", row.rank) : Shorten(row.label, kLabelColumn - 2);
  if (row.duplicate) label += " (dup)";
  return label;
}

void RenderStragglers(const JobReport& job, std::ostream& out, const TextStyle& style, size_t width) {
  out << "\n" << style.Heading("Stragglers") << "\n";
  const analyzers::StragglerVerdict& verdict = job.stragglers;
  for (const analyzers::Straggler& straggler : verdict.stragglers) {
    PrintWrapped(out, "  - ", "    ", RenderStatement(analyzers::DescribeStraggler(straggler)), width);
  }
  if (verdict.imbalance) PrintWrapped(out, "  - ", "    ", RenderStatement(analyzers::DescribeImbalance(*verdict.imbalance)), width);
  if (verdict.stragglers.empty() && !verdict.imbalance) {
    PrintWrapped(out, "  ", "  ", RenderStatement(analyzers::DescribeNoStraggler(verdict)), width);
  }
}

void RenderFindings(const JobReport& job, std::ostream& out, const TextStyle& style, size_t width) {
  out << "\n" << style.Heading("Findings across ranks") << "\n";
  if (job.findings.empty()) {
    out << "  No finding on any rank.\n";
    return;
  }
  for (const analyzers::MergedFinding& finding : job.findings) {
    const std::string tag = fmt::format("[{}]", analyzers::SeverityName(finding.severity));
    std::string line = fmt::format("{} on {}", finding.id, analyzers::DescribeRanks(finding, job));
    const std::string saving = DescribeSaving(analyzers::MergedSaving(finding), finding.per_step);
    if (!saving.empty()) line += ", saving " + saving;
    const std::vector<std::string> lines = Wrap(line, width - tag.size() - 3);
    for (size_t i = 0; i < lines.size(); ++i) {
      out << "  " << (i == 0 ? style.Severity(finding.severity, tag) : std::string(tag.size(), ' ')) << " " << lines[i]
          << "\n";
    }
    PrintWrapped(out, std::string(tag.size() + 3, ' '), std::string(tag.size() + 3, ' '),
                 fmt::format("{} ({})", RenderStatement(finding.verdict), finding.verdict_label), width);
  }
}

void RenderSpread(const JobReport& job, std::ostream& out, const TextStyle& style) {
  if (job.spread.empty()) return;
  out << "\n" << style.Heading(job.per_step ? "Spread across ranks (per step)" : "Spread across ranks") << "\n";
  out << fmt::format("  {:<26} {:>10} {:>10} {:>10}  {}\n", "", "least", "median", "most", "least / most on");
  for (const analyzers::MeasureSpread& spread : job.spread) {
    out << fmt::format("  {:<26} {:>10} {:>10} {:>10}  {} / {}\n", analyzers::MeasureLabel(spread.measure),
                       base::FormatDuration(spread.min_ns), base::FormatDuration(spread.median_ns),
                       base::FormatDuration(spread.max_ns), Shorten(spread.min_label, 20),
                       Shorten(spread.max_label, 20));
  }
}

void RenderRows(const JobReport& job, std::ostream& out, const TextStyle& style, size_t width, bool verbose) {
  out << "\n" << style.Heading(job.per_step ? "Ranks (per step)" : "Ranks") << "\n";
  std::string header = fmt::format("  {:<{}}", "rank", kLabelColumn);
  for (const char* name : {"step", "compute", "exp. comm", "collective", "host wait", "idle"}) {
    header += fmt::format("{:>{}}", name, kValueColumn);
  }
  out << header << "  top finding\n";
  const size_t used = 2 + kLabelColumn + 6 * kValueColumn + 2;
  for (const RankRow& row : job.rows) {
    std::string line = fmt::format("  {:<{}}", RowLabel(row), kLabelColumn);
    for (Measure measure : analyzers::kAllMeasures) {
      line += fmt::format("{:>{}}", base::FormatDuration(row.Of(measure)), kValueColumn);
    }
    const std::string top = row.top_finding ? row.top_finding->id : "-";
    out << line << "  " << Shorten(top, width > used ? width - used : 10) << "\n";
  }
  if (!verbose) return;
  out << "\n" << style.Heading("Idle by cause per rank (per step)") << "\n";
  std::string causes = fmt::format("  {:<{}}", "rank", kLabelColumn);
  for (analyzers::GapCause cause : analyzers::kAllGapCauses) {
    causes += fmt::format("{:>{}}", Shorten(analyzers::GapCauseKey(cause), kValueColumn - 1), kValueColumn + 2);
  }
  out << causes << "\n";
  for (const RankRow& row : job.rows) {
    std::string line = fmt::format("  {:<{}}", RowLabel(row), kLabelColumn);
    for (analyzers::GapCause cause : analyzers::kAllGapCauses) {
      line += fmt::format("{:>{}}", base::FormatDuration(row.idle[cause]), kValueColumn + 2);
    }
    out << line << "\n";
  }
}

}  // namespace

void RenderJobText(const JobReport& job, std::span<const analyzers::Report> reports, std::ostream& out,
                   const TextOptions& options) {
  const TextStyle style(options.color);
  const size_t width = options.width;
  out << style.Heading("Cross-rank report") << "\n";
  PrintWrapped(out, "  ", "  ", RenderStatement(analyzers::DescribeJob(job)), width);
  std::string facts = fmt::format("{} traces", job.traces);
  if (job.world_size > 0) facts += fmt::format(", world size {}", job.world_size);
  if (!job.backend.empty()) facts += fmt::format(", backend {}", job.backend);
  if (job.median_step_ns > 0) facts += fmt::format(", median step {}", base::FormatDuration(job.median_step_ns));
  PrintWrapped(out, "  ", "  ", facts, width);
  if (!job.notes.empty()) {
    out << "\n" << style.Heading("Traces that may not belong together") << "\n";
    for (const analyzers::Statement& note : job.notes) PrintWrapped(out, "  - ", "    ", RenderStatement(note), width);
  }
  RenderStragglers(job, out, style, width);
  RenderFindings(job, out, style, width);
  RenderSpread(job, out, style);
  RenderRows(job, out, style, width, options.verbose);
  if (reports.empty()) {
    PrintWrapped(out, "\n", "",
                 "Each rank's own report: --rank N for one, --per-rank for all (after this cross-rank report).",
                 width);
    return;
  }
  out << "\n";
  RenderText(reports, out, options);
}

}  // namespace ampprof::reports
