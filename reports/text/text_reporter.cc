#include "reports/text/text_reporter.h"

#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include "analyzers/report/verdict.h"
#include "analyzers/report/workload_outcome.h"
#include "reports/common/memory_text.h"
#include "reports/common/statement_text.h"
#include "reports/text/text_layout.h"
#include "reports/text/text_style.h"
#include "reports/text/text_tables.h"
#include "src/base/format.h"
#include "src/base/terminal_text.h"
#include "src/base/time.h"

namespace ampprof::reports {
namespace {

using analyzers::DeviceSummary;
using analyzers::Report;
using base::FormatCount;
using base::FormatDuration;
using base::FormatPercent;

// "label     text": the header's fields and the comparison's, with the text wrapped under itself.
void RenderField(std::ostream& out, std::string_view label, std::string_view text, size_t width,
                 std::string_view indent = "  ") {
  const std::string first = fmt::format("{}{:<10}", indent, label);
  PrintWrapped(out, first, std::string(first.size(), ' '), text, width);
}

// "GPU 0: NVIDIA H100 80GB HBM3, sm_90", then what it ran.
std::string DeviceName(const DeviceSummary& device) {
  if (device.name.empty()) return fmt::format("GPU {}: properties not recorded", device.device_id);
  std::string name = fmt::format("GPU {}: {}", device.device_id, device.name);
  if (device.compute_major > 0) name += fmt::format(", sm_{}{}", device.compute_major, device.compute_minor);
  return name;
}

// "6,038 kernels on 2 streams, busy 64.6% of the analysed 78.1 ms": the busy fraction is the account's
// (docs/step-account.md), the one every view prints.
std::string DeviceActivity(const DeviceSummary& device) {
  std::string text = fmt::format("{} kernels on {} stream{}", FormatCount(static_cast<int64_t>(device.kernels)),
                                 device.streams_with_kernels, device.streams_with_kernels == 1 ? "" : "s");
  if (device.account) {
    text += fmt::format(", busy {} of the analysed {}", FormatPercent(device.account->busy_fraction),
                        FormatDuration(device.account->window.duration()));
  } else {
    text += ", none in the analysed window";
  }
  return text;
}

// What the account examined: the measured steps, or the whole run.
std::string AnalysedWindow(const analyzers::TraceSummary& summary) {
  if (summary.account_basis == "all warm-up") return "nothing: the trace holds only warm-up";
  const DeviceSummary& primary = summary.devices[summary.primary_device];
  if (!primary.account) return "nothing: no kernels";
  if (summary.account_basis == "measured steps") {
    return fmt::format("{} measured steps on GPU {}, {} from the first step's first kernel to the last one's end",
                       primary.account->steps, primary.device_id, FormatDuration(primary.account->window.duration()));
  }
  return fmt::format("the whole run on GPU {} (no training loop of 3 or more steps), {}", primary.device_id,
                     FormatDuration(primary.account->window.duration()));
}

// What the numbers rest on, in one field: "no records lost or repaired", or the counters that are not
// zero, data loss first (the Data quality section at the end says what each means).
std::string DataQualityLine(const base::Stats& stats) {
  const auto entries = stats.NonZero();
  if (entries.empty()) return "no records lost or repaired";
  std::vector<std::string> items;
  for (const base::StatEntry& entry : entries) {
    items.push_back(fmt::format("{} {} ({})", FormatCount(entry.value), entry.info->name,
                                base::SeverityName(entry.info->severity)));
  }
  return fmt::format("{}{}; see Data quality below", stats.HasDataLoss() ? "RECORDS LOST: " : "",
                     fmt::join(items, ", "));
}

// What was traced: the inputs, the workload, the rank, each GPU, the steps and the data quality.
void RenderHeader(const Report& report, std::ostream& out, size_t width) {
  for (const analyzers::ReportInput& input : report.inputs) {
    fmt::print(out, "{:<10}{}\n", input.library_log ? "log" : "trace", ShortenPath(input.path, width - 10));
    fmt::print(out, "{:<10}{}\n", input.library_log ? "" : "format", input.format);
  }
  const analyzers::TraceSummary& summary = report.summary;
  if (!summary.workload.empty()) fmt::print(out, "workload  {}\n", Shorten(summary.workload, width - 10));
  if (report.workload_outcome) fmt::print(out, "ended     {}\n", analyzers::DescribeOutcome(*report.workload_outcome));
  if (!summary.collector_note.empty()) {
    const std::vector<std::string> lines = Wrap(summary.collector_note, width - 10);
    for (size_t i = 0; i < lines.size(); ++i) {
      fmt::print(out, "{:<10}{}\n", i == 0 ? "collector" : "", lines[i]);
    }
  }
  for (const analyzers::ProcessSummary& process : summary.process_list) {
    if (process.rank < 0) continue;  // the rank is the only thing the lines above do not say
    fmt::print(out, "process   pid {}: rank {}{}\n", process.pid, process.rank,
               process.world_size > 0 ? fmt::format(" of {}", process.world_size) : std::string());
  }
  std::vector<std::string> idle;  // devices the trace describes but that ran nothing
  bool any_gpu = false;
  for (const DeviceSummary& device : summary.devices) {
    if (device.kernels == 0) {
      idle.push_back(fmt::format("{}", device.device_id));
      continue;
    }
    RenderField(out, any_gpu ? "" : "gpu", DeviceName(device), width, "");
    RenderField(out, "", DeviceActivity(device), width, "");
    any_gpu = true;
  }
  if (!any_gpu) RenderField(out, "gpu", "no GPU activity was recorded", width, "");
  if (!idle.empty()) {
    RenderField(out, "", fmt::format("no kernels on GPU{} {}", idle.size() == 1 ? "" : "s", fmt::join(idle, ", ")),
                width, "");
  }
  if (summary.gpu_span) fmt::print(out, "span      {} of GPU activity\n", FormatDuration(summary.gpu_span->duration()));
  if (summary.steps > 0 && summary.median_step_ns > 0) {
    RenderField(out, "steps",
                fmt::format("{} from {}{}; median {}, p90 {}", summary.steps, summary.step_source,
                            summary.warmup_steps > 0 ? fmt::format(" ({} warm-up left out)", summary.warmup_steps) : "",
                            FormatDuration(summary.median_step_ns), FormatDuration(summary.p90_step_ns)),
                width, "");
  } else if (summary.steps > 0) {
    RenderField(out, "steps", fmt::format("{} from {}: too few for a training loop", summary.steps, summary.step_source),
                width, "");
  }
  if (!summary.devices.empty()) RenderField(out, "analysed", AnalysedWindow(summary), width, "");
  if (summary.run_kind != analyzers::RunKind::kUnknown) {
    RenderField(out, "run", fmt::format("{}: {}", analyzers::RunKindId(summary.run_kind), summary.run_kind_evidence),
                width, "");
  }
  for (const DeviceSummary& device : summary.devices) {
    const std::string memory = DeviceMemoryText(device);
    if (!memory.empty()) RenderField(out, "memory", fmt::format("GPU {}: {}", device.device_id, memory), width, "");
  }
  RenderField(out, "data", DataQualityLine(report.stats), width, "");
}

void RenderVerdict(const Report& report, std::ostream& out, const TextStyle& style, size_t width) {
  const analyzers::Verdict verdict = analyzers::JudgeReport(report);
  std::ostringstream text;
  RenderField(text, "verdict", verdict.text, width, "");
  fmt::print(out, "\n");
  std::istringstream lines(text.str());
  for (std::string line; std::getline(lines, line);) {  // painted line by line: no colour across a newline
    fmt::print(out, "{}\n", verdict.worst ? style.Severity(*verdict.worst, line) : style.Heading(line));
  }
}

void RenderFindings(const Report& report, std::ostream& out, const TextStyle& style, size_t width) {
  if (report.findings.empty()) {
    if (!report.checks_run.empty()) {
      fmt::print(out, "\n");
      PrintWrapped(out, "checks    ", "          ", fmt::format("{}", fmt::join(report.checks_run, ", ")), width);
    }
    return;
  }
  const bool per_step = report.summary.account_basis == "measured steps";
  fmt::print(out, "\n{}\n", style.Heading("Findings"));
  for (const analyzers::Finding& finding : report.findings) {
    const std::string tag = fmt::format("[{}]", analyzers::SeverityName(finding.severity));
    std::ostringstream heading;
    PrintWrapped(heading, "  ", "    ", fmt::format("{} {}: {}", tag, finding.id, RenderStatement(finding.verdict)),
                 width);
    std::string text = heading.str();
    text.replace(2, tag.size(), style.Severity(finding.severity, tag));  // colour after the layout
    fmt::print(out, "{}", text);
    if (!finding.saving.none()) {
      PrintWrapped(out, "      saves: ", "             ",
                   fmt::format("{} ({})", DescribeSaving(finding.saving, per_step), finding.saving.basis), width);
    }
    for (const analyzers::Evidence& evidence : finding.evidence) {
      PrintWrapped(out, "      ", "        ", fmt::format("{}: {}", evidence.label, RenderStatement(evidence.value)),
                   width);
    }
    for (const std::string& example : finding.examples) {  // whole: its middle may be what tells it apart
      const std::vector<std::string> lines =
          BreakLongWord(base::EscapeControlCharacters(DisplayKernelName(example)), width - 11);
      for (size_t i = 0; i < lines.size(); ++i) fmt::print(out, "      {}{}\n", i == 0 ? "e.g. " : "     ", lines[i]);
    }
    PrintWrapped(out, "      fix: ", "           ",
                 finding.fix.empty() ? fmt::format("ampprof explain {}", finding.id)
                                     : fmt::format("{} (ampprof explain {})", finding.fix, finding.id),
                 width);
    if (!finding.fix_code.empty()) {
      std::istringstream code(finding.fix_code);
      for (std::string line; std::getline(code, line);) fmt::print(out, "           {}\n", line);
    }
  }
}

std::string SignedDuration(base::DurationNs change) {
  return change > 0 ? "+" + FormatDuration(change) : FormatDuration(change);
}

// One side of the comparison: the trace (and who it is) on one line, how its steps were timed on the next.
void RenderRun(std::ostream& out, std::string_view name, const analyzers::ComparedRun& run,
               analyzers::CompareBasis basis, size_t width) {
  std::string who = ShortenPath(run.trace, width - 12 - (run.label.empty() ? 0 : run.label.size() + 3));
  if (!run.label.empty()) who += fmt::format(" ({})", run.label);
  RenderField(out, name, who, width);
  std::string timing;
  if (basis == analyzers::CompareBasis::kMedianStep) {
    timing = fmt::format("median step {} over {} steps from {}", FormatDuration(run.time_ns), run.steps,
                         run.step_source);
    if (run.warmup_steps > 0) timing += fmt::format(", {} warm-up left out", run.warmup_steps);
  } else {
    timing = fmt::format("{} analysed (whole run)", FormatDuration(run.time_ns));
  }
  if (run.peak_allocated_bytes || run.peak_reserved_bytes) {
    timing += "; peak device memory " + PeakMemoryText(run.peak_allocated_bytes, run.peak_reserved_bytes);
  }
  RenderField(out, "", timing, width);
}

std::string SpeedupVerdict(const analyzers::Comparison& c) {
  const double speedup = c.speedup;
  if (speedup <= 0.0) return "cannot be computed";
  if (c.pair == analyzers::RunPair::kBothFp32) return fmt::format("{:.2f}x, but both runs are FP32", speedup);
  if (c.pair == analyzers::RunPair::kBothMixed) return fmt::format("{:.2f}x, but both runs are mixed precision", speedup);
  if (speedup >= analyzers::kMinUsefulSpeedup) return fmt::format("{:.2f}x: mixed precision is faster", speedup);
  if (speedup >= 1.0) {
    return fmt::format("{:.2f}x: no measurable speed-up (faster counts from {:.2f}x)", speedup,
                       analyzers::kMinUsefulSpeedup);
  }
  return fmt::format("{:.2f}x: mixed precision is slower", speedup);
}

// FP32 vs AMP: both runs, the speed-up, what qualifies it, and the difference by category.
void RenderComparison(const Report& report, std::ostream& out, const TextStyle& style, size_t width) {
  if (!report.comparison) return;
  const analyzers::Comparison& c = *report.comparison;
  const bool per_step = c.basis == analyzers::CompareBasis::kMedianStep;
  fmt::print(out, "{}\n", style.Heading("FP32 vs mixed precision"));
  RenderRun(out, "FP32", c.baseline, c.basis, width);
  RenderRun(out, "AMP", c.candidate, c.basis, width);
  RenderField(out, "speed-up", SpeedupVerdict(c), width);
  for (const analyzers::Statement& warning : c.warnings) RenderField(out, "warning", RenderStatement(warning), width);
  for (const analyzers::Statement& note : c.notes) RenderField(out, "note", RenderStatement(note), width);
  if (c.rows.empty()) {
    fmt::print(out, "\n");
    return;
  }
  // category | FP32 | AMP | change | explained by: the label column takes what the numbers leave.
  constexpr size_t kNumber = 10;
  size_t label_width = std::string_view("GPU time per step").size();
  for (const analyzers::ComparisonRow& row : c.rows) label_width = std::max(label_width, row.label.size());
  label_width = std::min(label_width, width - 2 - 3 * (kNumber + 2) - 2 - 25);
  const char* unit = per_step ? "per step" : "per run";
  fmt::print(out, "\n  {:<{}}  {:>{}}  {:>{}}  {:>{}}  {}\n", unit, label_width, "FP32", kNumber, "AMP", kNumber,
             "change", kNumber, "explained by");
  auto value = [](base::DurationNs ns) { return ns == 0 ? std::string("-") : FormatDuration(ns); };
  for (const analyzers::ComparisonRow& row : c.rows) {
    fmt::print(out, "  {:<{}}  {:>{}}  {:>{}}  {:>{}}{}\n", Shorten(row.label, label_width), label_width,
               value(row.baseline_ns), kNumber, value(row.candidate_ns), kNumber, SignedDuration(row.change_ns()),
               kNumber, row.explained_by.empty() ? "" : "  " + row.explained_by);
  }
  fmt::print(out, "  {:<{}}  {:>{}}  {:>{}}  {:>{}}\n\n", per_step ? "GPU time per step" : "GPU time", label_width,
             FormatDuration(c.baseline.gpu_time_ns), kNumber, FormatDuration(c.candidate.gpu_time_ns), kNumber,
             SignedDuration(c.candidate.gpu_time_ns - c.baseline.gpu_time_ns), kNumber);
}

}  // namespace

void RenderText(const Report& report, std::ostream& out, const TextOptions& options) {
  const size_t width = std::max<size_t>(options.width, 60);
  const TextStyle style(options.color);
  RenderHeader(report, out, width);
  RenderVerdict(report, out, style, width);
  RenderFindings(report, out, style, width);
  if (report.comparison) fmt::print(out, "\n");
  RenderComparison(report, out, style, width);
  if (options.verbose) {
    RenderDeviceDetails(report, out, style, width);
    RenderRecordCounts(report, out);
    RenderAccount(report, out, style, width);
    RenderTopKernels(report, out, style, width);
    RenderOpTable(report, out, style, width);
    RenderStepTimes(report, out, style, width);
  }
  RenderDataQuality(report, out, style, width);
  if (!options.verbose) {
    fmt::print(out, "\n{}\n",
               style.Dim(Shorten("(--verbose adds the step account: time by bucket and idle by cause; the top kernels "
                                 "and step times)",
                                 width)));
  }
}

void RenderText(std::span<const Report> reports, std::ostream& out, const TextOptions& options) {
  if (reports.size() == 1) return RenderText(reports.front(), out, options);
  const TextStyle style(options.color);
  for (size_t i = 0; i < reports.size(); ++i) {
    if (i > 0) fmt::print(out, "\n");
    const std::string heading =
        fmt::format("== {} ", Shorten(reports[i].label, std::max<size_t>(options.width, 60) - 4));
    fmt::print(out, "{}\n",
               style.Heading(heading + std::string(std::max<size_t>(options.width, 60) - heading.size(), '=')));
    RenderText(reports[i], out, options);
  }
}

}  // namespace ampprof::reports
