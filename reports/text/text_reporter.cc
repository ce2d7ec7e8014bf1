#include "reports/text/text_reporter.h"

#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include "src/base/format.h"
#include "src/base/time.h"

namespace ampprof::reports {
namespace {

using analyzers::DeviceSummary;
using analyzers::Report;
using base::FormatBytes;
using base::FormatCount;
using base::FormatDuration;
using base::FormatPercent;

// Keeps the head and the tail of `text` within `width` characters, joined by "...".
std::string Shorten(std::string_view text, size_t width) {
  if (text.size() <= width) return std::string(text);
  if (width <= 3) return std::string(text.substr(0, width));
  const size_t tail = (width - 3) / 3;
  const size_t head = width - 3 - tail;
  return fmt::format("{}...{}", text.substr(0, head), text.substr(text.size() - tail));
}

// A kernel name as people scan it: without the "void " return type and without the parameter list,
// which repeats the template arguments ("void f<4, Functor>(int, Functor, ...)" -> "f<4, Functor>").
std::string_view DisplayKernelName(std::string_view name) {
  if (name.substr(0, 5) == "void ") name.remove_prefix(5);
  if (!name.empty() && name.back() == ')') {
    int depth = 0;
    for (size_t i = name.size(); i-- > 0;) {
      if (name[i] == ')') ++depth;
      if (name[i] == '(' && --depth == 0) {
        if (i > 0) name = name.substr(0, i);
        break;
      }
    }
  }
  return name;
}

// Replaces template arguments nested inside other template arguments, and every parenthesised list,
// with "...": "k<4, f<float>(int)::{lambda(float)#1}, std::array<char*, 2ul> >" becomes
// "k<4, f<...>(...)::{lambda(...)#1}, std::array<...> >". Keeps what tells kernels apart (the kernel
// template and its functor) when the full name is too long to show.
std::string CollapseNestedArguments(std::string_view full_name) {
  // "(anonymous namespace)::" is a namespace, not an argument list, and says nothing to a reader.
  std::string name(full_name);
  for (size_t at; (at = name.find("(anonymous namespace)::")) != std::string::npos;) {
    name.erase(at, std::string_view("(anonymous namespace)::").size());
  }
  std::string out;
  int angle = 0;
  int paren = 0;
  for (char c : name) {
    const bool hidden_before = angle > 1 || paren > 0;
    if (c == '<') ++angle;
    if (c == '(') ++paren;
    if (c == '>' && angle > 0) --angle;
    if (c == ')' && paren > 0) --paren;
    const bool hidden_after = angle > 1 || paren > 0;
    if (!hidden_before && hidden_after) {
      out += c;
      out += "...";
    } else if (!hidden_before && !hidden_after) {
      out += c;
    } else if (hidden_before && !hidden_after) {
      out += c;
    }
  }
  return out;
}

std::string DeviceTitle(const DeviceSummary& device) {
  std::string title = fmt::format("GPU {}", device.device_id);
  if (device.pid != 0) title += fmt::format(" (pid {})", device.pid);
  if (device.name.empty()) return title + ": properties not recorded";
  title += fmt::format(": {}", device.name);
  if (device.compute_major > 0) {
    title += fmt::format(", sm_{}{}", device.compute_major, device.compute_minor);
  }
  if (device.sm_count > 0) title += fmt::format(", {} SMs", device.sm_count);
  if (device.global_memory_bytes > 0) {
    title += fmt::format(", {}", base::FormatBytes(device.global_memory_bytes));
  }
  return title;
}

void RenderInputs(const Report& report, std::ostream& out, size_t width) {
  for (const analyzers::ReportInput& input : report.inputs) {
    fmt::print(out, "trace     {}\n", Shorten(input.path, width - 10));
    fmt::print(out, "format    {}\n", input.format);
  }
  if (!report.summary.workload.empty()) {
    fmt::print(out, "workload  {}\n", Shorten(report.summary.workload, width - 10));
  }
  if (!report.summary.collector_note.empty()) {
    const std::vector<std::string> lines = base::WrapText(report.summary.collector_note, width - 10);
    for (size_t i = 0; i < lines.size(); ++i) fmt::print(out, "{:<10}{}\n", i == 0 ? "collector" : "", lines[i]);
  }
  for (const analyzers::ProcessSummary& process : report.summary.process_list) {
    if (process.rank < 0) continue;  // the rank is the only thing the lines above do not say
    fmt::print(out, "process   pid {}: rank {}{}\n", process.pid, process.rank,
               process.world_size > 0 ? fmt::format(" of {}", process.world_size) : std::string());
  }
}

void RenderFindings(const Report& report, std::ostream& out, size_t width) {
  if (report.checks_run.empty()) return;
  if (report.findings.empty()) {
    fmt::print(out, "\nFindings: none from the checks run so far ({})\n\n", fmt::join(report.checks_run, ", "));
    return;
  }
  fmt::print(out, "\nFindings\n");
  for (const analyzers::Finding& finding : report.findings) {
    const std::string heading =
        fmt::format("[{}] {}: {}", analyzers::SeverityName(finding.severity), finding.id, finding.verdict);
    const std::vector<std::string> lines = base::WrapText(heading, width - 2);
    for (size_t i = 0; i < lines.size(); ++i) fmt::print(out, "{}{}\n", i == 0 ? "  " : "    ", lines[i]);
    for (const analyzers::Evidence& evidence : finding.evidence) {
      fmt::print(out, "      {}: {}\n", evidence.label, evidence.value);
    }
    for (const std::string& example : finding.examples) {
      fmt::print(out, "      e.g. {}\n", Shorten(DisplayKernelName(example), width - 11));
    }
    fmt::print(out, "      how to fix it: ampprof explain {}\n", finding.id);
  }
  fmt::print(out, "\n");
}

std::string SignedDuration(base::DurationNs change) {
  return change > 0 ? "+" + FormatDuration(change) : FormatDuration(change);
}

// "label   text" with the text wrapped under itself.
void RenderField(std::ostream& out, std::string_view label, std::string_view text, size_t width) {
  const std::vector<std::string> lines = base::WrapText(text, width - 12);
  for (size_t i = 0; i < lines.size(); ++i) fmt::print(out, "  {:<10}{}\n", i == 0 ? label : "", lines[i]);
}

// One side of the comparison: the trace (and who it is) on one line, how its steps were timed on the next.
void RenderRun(std::ostream& out, std::string_view name, const analyzers::ComparedRun& run,
               analyzers::CompareBasis basis, size_t width) {
  std::string who = Shorten(run.trace, width - 12 - (run.label.empty() ? 0 : run.label.size() + 3));
  if (!run.label.empty()) who += fmt::format(" ({})", run.label);
  RenderField(out, name, who, width);
  std::string timing;
  if (basis == analyzers::CompareBasis::kMedianStep) {
    timing = fmt::format("median step {} over {} steps from {}", FormatDuration(run.time_ns), run.steps,
                         run.step_source);
    // Steps are timed on the GPU; say so where the ranges the summary times tell otherwise.
    if (run.range_step_ns > 0 && FormatDuration(run.range_step_ns) != FormatDuration(run.time_ns)) {
      timing += fmt::format(" (timed on the GPU; the ranges' median is {})", FormatDuration(run.range_step_ns));
    }
    if (run.warmup_steps > 0) timing += fmt::format(", {} warm-up left out", run.warmup_steps);
  } else {
    timing = fmt::format("{} of GPU time (whole run)", FormatDuration(run.time_ns));
  }
  if (run.peak_allocated_bytes) timing += fmt::format("; peak device memory {}", FormatBytes(*run.peak_allocated_bytes));
  RenderField(out, "", timing, width);
}

std::string SpeedupVerdict(double speedup) {
  if (speedup <= 0.0) return "cannot be computed";
  if (speedup >= analyzers::kMinUsefulSpeedup) return fmt::format("{:.2f}x: mixed precision is faster", speedup);
  if (speedup >= 1.0) {
    return fmt::format("{:.2f}x: no measurable speed-up (faster counts from {:.2f}x)", speedup,
                       analyzers::kMinUsefulSpeedup);
  }
  return fmt::format("{:.2f}x: mixed precision is slower", speedup);
}

// FP32 vs AMP: both runs, the speed-up, what qualifies it, and the difference by category.
void RenderComparison(const Report& report, std::ostream& out, size_t width) {
  if (!report.comparison) return;
  const analyzers::Comparison& c = *report.comparison;
  const bool per_step = c.basis == analyzers::CompareBasis::kMedianStep;
  fmt::print(out, "FP32 vs mixed precision\n");
  RenderRun(out, "FP32", c.baseline, c.basis, width);
  RenderRun(out, "AMP", c.candidate, c.basis, width);
  RenderField(out, "speed-up", SpeedupVerdict(c.speedup), width);
  for (const std::string& note : c.notes) RenderField(out, "note", note, width);
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

void RenderDevices(const Report& report, std::ostream& out, size_t width) {
  const analyzers::TraceSummary& summary = report.summary;
  if (summary.gpu_span) {
    fmt::print(out, "span      {} of GPU activity\n", FormatDuration(summary.gpu_span->duration()));
  }
  if (summary.steps > 0) {
    fmt::print(out, "steps     {} from {}{}; median {}, p90 {}\n", summary.steps, summary.step_source,
               summary.warmup_steps > 0 ? fmt::format(" ({} warm-up left out)", summary.warmup_steps) : "",
               FormatDuration(summary.median_step_ns), FormatDuration(summary.p90_step_ns));
  }
  if (summary.devices.empty()) {
    fmt::print(out, "\nNo GPU activity was recorded.\n");
    return;
  }
  std::vector<std::string> idle;  // devices the trace describes but that ran nothing
  for (const DeviceSummary& device : summary.devices) {
    if (device.kernels == 0) {
      idle.push_back(fmt::format("{}", device.device_id));
      continue;
    }
    fmt::print(out, "\n{}\n", Shorten(DeviceTitle(device), width));
    fmt::print(out, "  kernels   {} on {} stream{}\n", FormatCount(static_cast<int64_t>(device.kernels)),
               device.streams_with_kernels, device.streams_with_kernels == 1 ? "" : "s");
    fmt::print(out, "  busy      {} of {} ({} idle between kernels)\n",
               FormatPercent(device.busy_fraction), FormatDuration(device.span->duration()),
               FormatDuration(device.span->duration() - device.busy_ns));
    std::vector<std::string> causes;
    for (size_t c = 0; c < analyzers::kGapCauses; ++c) {
      const auto cause = static_cast<analyzers::GapCause>(c);
      if (device.idle_by_cause[cause] > 0) {
        causes.push_back(fmt::format("{} {}", FormatDuration(device.idle_by_cause[cause]), analyzers::GapCauseName(cause)));
      }
    }
    if (device.peak_allocated_bytes) {
      fmt::print(out, "  memory    peak {} allocated (counted from the start of the trace)\n",
                 FormatBytes(*device.peak_allocated_bytes));
    }
    if (!causes.empty()) {
      const std::vector<std::string> lines = base::WrapText(fmt::format("{}", fmt::join(causes, "; ")), width - 12);
      for (size_t i = 0; i < lines.size(); ++i) fmt::print(out, "  {:<10}{}\n", i == 0 ? "idle" : "", lines[i]);
    }
  }
  if (!idle.empty()) {
    fmt::print(out, "\n{}\n",
               Shorten(fmt::format("No kernels on GPU{} {}", idle.size() == 1 ? "" : "s",
                                   fmt::join(idle, ", ")),
                       width));
  }
}

void RenderCounts(const Report& report, std::ostream& out) {
  const analyzers::TraceSummary& s = report.summary;
  auto count = [](uint64_t n) { return FormatCount(static_cast<int64_t>(n)); };
  fmt::print(out, "\nrecords   {} kernels, {} API calls, {} memcpys, {} memsets, {} syncs\n",
             count(s.kernels), count(s.api_calls), count(s.memcpys), count(s.memsets), count(s.syncs));
  fmt::print(out, "          {} ranges, {} marks, {} memory events; {} process{}, {} thread{}\n",
             count(s.ranges), count(s.marks), count(s.memory_events), s.processes,
             s.processes == 1 ? "" : "es", s.threads, s.threads == 1 ? "" : "s");
  if (s.synchronize_calls + s.pageable_copies > 0) {
    fmt::print(out, "host      {} synchronise calls; {} copies to or from pageable memory ({})\n",
               count(s.synchronize_calls), count(s.pageable_copies), FormatBytes(s.pageable_copy_bytes));
  }
}

void RenderTopKernels(const Report& report, std::ostream& out, size_t width) {
  const analyzers::TraceSummary& s = report.summary;
  if (s.top_kernels.empty()) return;
  fmt::print(out, "\nTop kernels by GPU time ({} in all kernels)\n", FormatDuration(s.kernel_time_ns));
  fmt::print(out, "  {:>6}  {:>10}  {:>9}  {}\n", "share", "time", "launches", "kernel");
  const size_t name_width = width - 36;
  for (const analyzers::KernelTimeSummary& kernel : s.top_kernels) {
    const std::string_view name = DisplayKernelName(kernel.name);
    // A name that does not fit beside the numbers gets a line of its own, at full width: the part that
    // tells kernels apart is often in the middle (the functor of an elementwise kernel).
    const bool own_line = name.size() > name_width;
    fmt::print(out, "  {:>6}  {:>10}  {:>9}  {}\n", FormatPercent(kernel.share_of_kernel_time),
               FormatDuration(kernel.total_ns), FormatCount(static_cast<int64_t>(kernel.count)),
               own_line ? "" : std::string(name));
    if (own_line) {
      const std::string collapsed =
          name.size() > width - 4 ? CollapseNestedArguments(name) : std::string(name);
      fmt::print(out, "    {}\n", Shorten(collapsed, width - 4));
    }
    if (!kernel.kind.empty()) fmt::print(out, "    ({})\n", kernel.kind);
  }
}

void RenderCategories(const Report& report, std::ostream& out) {
  const analyzers::TraceSummary& s = report.summary;
  if (s.categories.empty()) return;
  fmt::print(out, "\nKernel time by category\n");
  for (const analyzers::CategoryTimeSummary& category : s.categories) {
    fmt::print(out, "  {:>6}  {:>10}  {:>9}  {}\n", FormatPercent(category.share_of_kernel_time),
               FormatDuration(category.total_ns), FormatCount(static_cast<int64_t>(category.kernels)),
               category.category);
  }
}

void RenderStats(const Report& report, std::ostream& out, size_t width) {
  const auto entries = report.stats.NonZero();
  if (entries.empty()) {
    fmt::print(out, "\nData quality: no records lost or repaired.\n");
    return;
  }
  fmt::print(out, "\nData quality\n");
  for (const base::StatEntry& entry : entries) {
    fmt::print(out, "  {:<9}  {:>12}  {}\n", base::SeverityName(entry.info->severity),
               FormatCount(entry.value), entry.info->name);
    for (const std::string& line : base::WrapText(entry.info->description, width - 27)) {
      fmt::print(out, "  {:<9}  {:>12}  {}\n", "", "", line);
    }
  }
}

}  // namespace

void RenderText(const Report& report, std::ostream& out, const TextOptions& options) {
  const size_t width = std::max<size_t>(options.width, 60);
  RenderInputs(report, out, width);
  RenderFindings(report, out, width);
  RenderComparison(report, out, width);
  RenderDevices(report, out, width);
  RenderCounts(report, out);
  RenderCategories(report, out);
  RenderTopKernels(report, out, width);
  RenderStats(report, out, width);
}

void RenderText(std::span<const Report> reports, std::ostream& out, const TextOptions& options) {
  if (reports.size() == 1) return RenderText(reports.front(), out, options);
  for (size_t i = 0; i < reports.size(); ++i) {
    if (i > 0) fmt::print(out, "\n");
    const std::string heading = fmt::format("== {} ", reports[i].label);
    fmt::print(out, "{}{}\n", heading, std::string(std::max<size_t>(options.width, 60) - heading.size(), '='));
    RenderText(reports[i], out, options);
  }
}

}  // namespace ampprof::reports
