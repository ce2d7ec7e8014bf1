#include "reports/html/job_html.h"

#include <algorithm>
#include <array>
#include <string>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "analyzers/ranks/job_statements.h"
#include "reports/common/statement_text.h"
#include "reports/html/html_escape.h"
#include "src/base/time.h"

namespace ampprof::reports {
namespace {

using analyzers::JobReport;
using analyzers::RankRow;

std::string RowLabel(const RankRow& row) {
  std::string label = row.rank >= 0 ? fmt::format("{}", row.rank) : EscapeHtml(row.label);
  if (row.duplicate) label += " (duplicate)";
  return label;
}

// A cell shaded by `value` against `largest`: the heat map's one encoding, readable without colour
// too (the value is printed).
std::string Cell(base::DurationNs value, base::DurationNs largest) {
  const double share = largest > 0 ? static_cast<double>(value) / static_cast<double>(largest) : 0.0;
  return fmt::format("<td class=\"num\" style=\"background: rgba(214, 96, 77, {:.2f})\">{}</td>", 0.6 * share,
                     EscapeHtml(base::FormatDuration(value)));
}

void RenderFindings(const JobReport& job, std::ostream& out) {
  out << "<h3>Findings across ranks</h3>\n";
  if (job.findings.empty()) {
    out << "<p>No finding on any rank.</p>\n";
    return;
  }
  out << "<table class=\"job-findings\"><thead><tr><th>severity</th><th>finding</th><th>ranks</th><th>saving</th>"
         "<th>what was measured (the rank with the largest saving)</th></tr></thead><tbody>\n";
  for (const analyzers::MergedFinding& finding : job.findings) {
    const std::string saving = DescribeSaving(analyzers::MergedSaving(finding), finding.per_step);
    fmt::print(out, "<tr><td class=\"sev-{0}\">{0}</td><td><code>{1}</code></td><td>{2}</td><td>{3}</td><td>{4} ({5})</td></tr>\n",
               analyzers::SeverityName(finding.severity), EscapeHtml(finding.id),
               EscapeHtml(analyzers::DescribeRanks(finding, job)), saving.empty() ? "-" : EscapeHtml(saving),
               EscapeHtml(RenderStatement(finding.verdict)), EscapeHtml(finding.verdict_label));
  }
  out << "</tbody></table>\n";
}

void RenderRows(const JobReport& job, std::ostream& out) {
  std::array<base::DurationNs, analyzers::kMeasures> largest{};
  analyzers::ByCause<base::DurationNs> largest_idle;
  for (const RankRow& row : job.rows) {
    for (size_t m = 0; m < analyzers::kMeasures; ++m) largest[m] = std::max(largest[m], row.per_step[m]);
    for (analyzers::GapCause cause : analyzers::kAllGapCauses) {
      largest_idle[cause] = std::max(largest_idle[cause], row.idle[cause]);
    }
  }
  fmt::print(out, "<h3>Ranks{}</h3>\n<table class=\"job-ranks\"><thead><tr><th>rank</th>",
             job.per_step ? " (per step)" : "");
  for (analyzers::Measure measure : analyzers::kAllMeasures) {
    fmt::print(out, "<th>{}</th>", EscapeHtml(analyzers::MeasureLabel(measure)));
  }
  out << "<th>top finding</th></tr></thead><tbody>\n";
  for (const RankRow& row : job.rows) {
    fmt::print(out, "<tr><th>{}</th>", RowLabel(row));
    for (size_t m = 0; m < analyzers::kMeasures; ++m) out << Cell(row.per_step[m], largest[m]);
    fmt::print(out, "<td>{}</td></tr>\n",
               row.top_finding ? fmt::format("<code>{}</code>", EscapeHtml(row.top_finding->id)) : "-");
  }
  out << "</tbody></table>\n<h3>Idle by cause per rank</h3>\n<table class=\"job-idle\"><thead><tr><th>rank</th>";
  for (analyzers::GapCause cause : analyzers::kAllGapCauses) {
    // The short key keeps the table within the page; the full term is the header's tooltip.
    fmt::print(out, "<th title=\"{}\">{}</th>", EscapeHtml(analyzers::GapCauseName(cause)),
               EscapeHtml(analyzers::GapCauseKey(cause)));
  }
  out << "</tr></thead><tbody>\n";
  for (const RankRow& row : job.rows) {
    fmt::print(out, "<tr><th>{}</th>", RowLabel(row));
    for (analyzers::GapCause cause : analyzers::kAllGapCauses) out << Cell(row.idle[cause], largest_idle[cause]);
    out << "</tr>\n";
  }
  out << "</tbody></table>\n";
}

}  // namespace

void RenderJobHtml(const JobReport& job, std::ostream& out) {
  out << "<article class=\"report job\" id=\"job\">\n<h2>Cross-rank report</h2>\n";
  fmt::print(out, "<p class=\"verdict\">{}</p>\n", EscapeHtml(RenderStatement(analyzers::DescribeJob(job))));
  if (job.median_step_ns > 0) {
    fmt::print(out, "<p>Median step across ranks: {}</p>\n", EscapeHtml(base::FormatDuration(job.median_step_ns)));
  }
  if (!job.notes.empty()) {
    out << "<h3>Traces that may not belong together</h3>\n<ul>\n";
    for (const analyzers::Statement& note : job.notes) fmt::print(out, "<li>{}</li>\n", EscapeHtml(RenderStatement(note)));
    out << "</ul>\n";
  }
  out << "<h3>Stragglers</h3>\n<ul>\n";
  const analyzers::StragglerVerdict& verdict = job.stragglers;
  for (const analyzers::Straggler& straggler : verdict.stragglers) {
    fmt::print(out, "<li>{}</li>\n", EscapeHtml(RenderStatement(analyzers::DescribeStraggler(straggler))));
  }
  if (verdict.imbalance) {
    fmt::print(out, "<li>{}</li>\n", EscapeHtml(RenderStatement(analyzers::DescribeImbalance(*verdict.imbalance))));
  }
  if (verdict.stragglers.empty() && !verdict.imbalance) {
    fmt::print(out, "<li>{}</li>\n", EscapeHtml(RenderStatement(analyzers::DescribeNoStraggler(verdict))));
  }
  out << "</ul>\n";
  RenderFindings(job, out);
  RenderRows(job, out);
  out << "</article>\n";
}

}  // namespace ampprof::reports
