#include "reports/markdown/markdown_reporter.h"

#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include "analyzers/report/verdict.h"
#include "analyzers/report/workload_outcome.h"
#include "reports/common/memory_text.h"
#include "reports/common/statement_text.h"
#include "reports/markdown/markdown_escape.h"
#include "src/base/format.h"
#include "src/base/terminal_text.h"
#include "src/base/time.h"

namespace ampprof::reports {
namespace {

using analyzers::Report;
using base::FormatDuration;

// A kernel name cut in the middle past a few lines' worth: template instantiations run to tens of KiB,
// and a pull-request comment is limited to 64 KiB in all.
std::string Abridged(std::string_view name) {
  constexpr size_t kMaxBytes = 240;
  if (name.size() <= kMaxBytes) return std::string(name);
  return fmt::format("{}...{}", name.substr(0, kMaxBytes - 60), name.substr(name.size() - 57));
}

// `code` for identifiers and paths; a backtick inside makes the fence longer, as CommonMark allows.
std::string Code(std::string_view text) {
  const std::string fence = text.find('`') == std::string_view::npos ? "`" : "`` ";
  const std::string close = fence == "`" ? "`" : " ``";
  const std::string flat = MarkdownPrintable(text);
  // In a table cell a '|' ends the cell even inside a code span (GFM): escape it there too.
  std::string cell;
  for (const char c : flat) {
    if (c == '|') cell += '\\';
    cell += c;
  }
  return fence + cell + close;
}

std::string Context(const Report& report) {
  std::vector<std::string> parts;
  for (const analyzers::ReportInput& input : report.inputs) {
    parts.push_back(fmt::format("{} ({})", Code(input.path), MarkdownEscape(input.format)));
  }
  if (!report.summary.workload.empty()) parts.push_back(MarkdownEscape(report.summary.workload));
  for (const analyzers::DeviceSummary& device : report.summary.devices) {
    if (device.kernels == 0) continue;
    std::string gpu = fmt::format("GPU {}", device.device_id);
    if (!device.name.empty()) gpu += fmt::format(": {}", MarkdownEscape(device.name));
    if (device.account) gpu += fmt::format(", busy {}", base::FormatPercent(device.account->busy_fraction));
    if (const std::string memory = DeviceMemoryText(device); !memory.empty()) gpu += ", memory " + MarkdownEscape(memory);
    parts.push_back(gpu);
  }
  const analyzers::TraceSummary& s = report.summary;
  if (s.steps > 0 && s.median_step_ns > 0) {
    parts.push_back(fmt::format("{} steps from {}, median {}", s.steps, MarkdownEscape(s.step_source),
                                FormatDuration(s.median_step_ns)));
  } else if (s.steps > 0) {
    parts.push_back(fmt::format("{} steps from {}: too few for a loop, the whole run analysed", s.steps,
                                MarkdownEscape(s.step_source)));
  }
  if (s.run_kind != analyzers::RunKind::kUnknown) {
    parts.push_back(fmt::format("{} run ({})", analyzers::RunKindId(s.run_kind), MarkdownEscape(s.run_kind_evidence)));
  }
  const auto stats = report.stats.NonZero();
  if (stats.empty()) {
    parts.push_back("data quality: no records lost or repaired");
  } else {
    std::vector<std::string> names;
    for (const base::StatEntry& entry : stats) {
      names.push_back(fmt::format("{} {}", base::FormatCount(entry.value), Code(entry.info->name)));
    }
    parts.push_back(fmt::format("data quality{}: {}", report.stats.HasDataLoss() ? " (**records lost**)" : "",
                                fmt::join(names, ", ")));
  }
  return fmt::format("{}", fmt::join(parts, " · "));
}

void RenderFindings(const Report& report, std::ostream& out) {
  if (report.findings.empty()) return;
  const bool per_step = report.summary.account_basis == "measured steps";
  fmt::print(out, "| severity | finding | what ampprof measured | saves | fix |\n|---|---|---|---|---|\n");
  for (const analyzers::Finding& finding : report.findings) {
    fmt::print(out, "| {} | {} | {} | {} | {} |\n", analyzers::SeverityName(finding.severity), Code(finding.id),
               MarkdownEscape(RenderStatement(finding.verdict)),
               finding.saving.none() ? "-" : MarkdownEscape(DescribeSaving(finding.saving, per_step)),
               finding.fix.empty() ? Code("ampprof explain " + finding.id) : MarkdownEscape(finding.fix));
  }
  fmt::print(out, "\n<details><summary>Evidence</summary>\n\n");
  for (const analyzers::Finding& finding : report.findings) {
    fmt::print(out, "{}\n\n", Code(finding.id));
    for (const analyzers::Evidence& evidence : finding.evidence) {
      fmt::print(out, "- {}: {}\n", MarkdownEscape(evidence.label), MarkdownEscape(RenderStatement(evidence.value)));
    }
    for (const std::string& example : finding.examples) fmt::print(out, "- e.g. {}\n", Code(Abridged(example)));
    if (!finding.saving.none()) fmt::print(out, "- the saving: {}\n", MarkdownEscape(finding.saving.basis));
    if (!finding.fix_code.empty()) fmt::print(out, "\n```python\n{}\n```\n\n", finding.fix_code);
    fmt::print(out, "- how to fix it: {}\n\n", Code("ampprof explain " + finding.id));
  }
  fmt::print(out, "</details>\n\n");
}

void RenderComparison(const Report& report, std::ostream& out) {
  if (!report.comparison) return;
  const analyzers::Comparison& c = *report.comparison;
  const bool per_step = c.basis == analyzers::CompareBasis::kMedianStep;
  if (per_step) {
    fmt::print(out, "FP32 vs mixed precision: median step {} (FP32) vs {} (AMP)", FormatDuration(c.baseline.time_ns),
               FormatDuration(c.candidate.time_ns));
  } else {
    fmt::print(out, "FP32 vs mixed precision, whole runs: {} (FP32) vs {} (AMP) analysed",
               FormatDuration(c.baseline.time_ns), FormatDuration(c.candidate.time_ns));
  }
  if (c.speedup > 0.0 && (c.pair == analyzers::RunPair::kBothFp32 || c.pair == analyzers::RunPair::kBothMixed)) {
    fmt::print(out, ", ratio {:.2f}x (both runs are {}: not a mixed-precision speed-up)", c.speedup,
               c.pair == analyzers::RunPair::kBothFp32 ? "FP32" : "mixed precision");
  } else if (c.speedup > 0.0) {
    fmt::print(out, ", speed-up **{:.2f}x**", c.speedup);
  }
  fmt::print(out, ".\n\n");
  for (const analyzers::Statement& warning : c.warnings) {
    fmt::print(out, "> **warning**: {}\n>\n", MarkdownEscape(RenderStatement(warning)));
  }
  if (c.baseline.peak_allocated_bytes || c.baseline.peak_reserved_bytes || c.candidate.peak_allocated_bytes ||
      c.candidate.peak_reserved_bytes) {
    fmt::print(out, "> peak device memory: {} (FP32), {} (AMP)\n>\n",
               PeakMemoryText(c.baseline.peak_allocated_bytes, c.baseline.peak_reserved_bytes),
               PeakMemoryText(c.candidate.peak_allocated_bytes, c.candidate.peak_reserved_bytes));
  }
  for (const analyzers::Statement& note : c.notes) fmt::print(out, "> {}\n>\n", MarkdownEscape(RenderStatement(note)));
  if (!c.notes.empty() || !c.warnings.empty()) fmt::print(out, "\n");
  if (c.rows.empty()) return;
  fmt::print(out, "| {} | FP32 | AMP | change | explained by |\n|---|---:|---:|---:|---|\n",
             per_step ? "per step" : "per run");
  auto value = [](base::DurationNs ns) { return ns == 0 ? std::string("-") : FormatDuration(ns); };
  const size_t rows = std::min(c.rows.size(), kMarkdownComparisonRows);
  for (size_t i = 0; i < rows; ++i) {
    const analyzers::ComparisonRow& row = c.rows[i];
    const base::DurationNs change = row.change_ns();
    fmt::print(out, "| {} | {} | {} | {}{} | {} |\n", MarkdownEscape(row.label), value(row.baseline_ns),
               value(row.candidate_ns), change > 0 ? "+" : "", FormatDuration(change),
               row.explained_by.empty() ? "" : Code(row.explained_by));
  }
  if (c.rows.size() > rows) fmt::print(out, "\n{} smaller rows left out.\n", c.rows.size() - rows);
  fmt::print(out, "\n");
}

void RenderReport(const Report& report, std::ostream& out) {
  fmt::print(out, "### ampprof: {}\n\n", MarkdownEscape(report.label));
  fmt::print(out, "**{}**\n\n", MarkdownEscape(analyzers::JudgeReport(report).text));
  fmt::print(out, "{}\n\n", Context(report));
  if (report.workload_outcome) {
    fmt::print(out, "The workload {}{}.\n\n", report.workload_outcome->signal != 0 ? "was " : "",
               analyzers::DescribeOutcome(*report.workload_outcome));
  }
  RenderFindings(report, out);
  RenderComparison(report, out);
}

}  // namespace

void RenderMarkdown(std::span<const Report> reports, std::ostream& out) {
  for (const Report& report : reports) RenderReport(report, out);
}

}  // namespace ampprof::reports
