#include "reports/html/html_reporter.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "analyzers/findings/finding_catalog.h"
#include "analyzers/report/verdict.h"
#include "reports/common/memory_text.h"
#include "reports/common/statement_text.h"
#include "analyzers/report/workload_outcome.h"
#include "reports/html/html_assets.h"
#include "reports/html/html_escape.h"
#include "reports/html/job_html.h"
#include "reports/html/markdown_html.h"
#include "reports/html/page_title.h"
#include "reports/html/palette.h"
#include "reports/html/timeline_svg.h"
#include "src/base/format.h"

namespace ampprof::reports {
namespace {

using analyzers::Comparison;
using analyzers::Finding;
using analyzers::Report;
using base::FormatCount;
using base::FormatDuration;
using base::FormatPercent;

std::string Count(uint64_t n) { return FormatCount(static_cast<int64_t>(n)); }

std::string Signed(base::DurationNs change) {
  return change > 0 ? "+" + FormatDuration(change) : FormatDuration(change);
}

// Kernel names in tables: at most kMaxNameLength bytes, cut in the middle, never inside a UTF-8
// sequence.
std::string ShortName(std::string_view name) {
  if (name.size() <= kMaxNameLength) return std::string(name);
  size_t head = kMaxNameLength / 2;
  size_t tail = name.size() - kMaxNameLength / 2;
  auto continuation = [&](size_t i) {
    return (static_cast<unsigned char>(name[i]) & 0xC0) == 0x80;
  };
  while (head > 0 && continuation(head)) --head;
  while (tail < name.size() && continuation(tail)) ++tail;
  return std::string(name.substr(0, head)) + "..." + std::string(name.substr(tail));
}

std::string FindingAnchor(size_t report, std::string_view id) {
  return fmt::format("r{}-finding-{}", report, id);
}

// The page's sections of one report share this: which report, and the findings it shows.
struct Context {
  const Report& report;
  size_t index;
  size_t timeline_items;  // this report's share of the page's timeline budget, per timeline

  std::string Anchor(std::string_view section) const {
    return fmt::format("r{}-{}", index, section);
  }
  bool HasFinding(std::string_view id) const {
    return std::any_of(report.findings.begin(), report.findings.end(),
                       [&](const Finding& f) { return f.id == id; });
  }
  std::string FindingLink(std::string_view id) const {
    if (id.empty()) return "";
    if (!HasFinding(id)) return fmt::format("<code>{}</code>", EscapeHtml(id));
    return fmt::format("<a href=\"#{}\"><code>{}</code></a>", EscapeHtml(FindingAnchor(index, id)),
                       EscapeHtml(id));
  }
};

void Card(std::ostream& out, std::string_view label, std::string_view value,
          std::string_view detail = "") {
  fmt::print(out, "<div class=\"card\"><div class=\"label\">{}</div><div class=\"value\">{}</div>",
             EscapeHtml(label), EscapeHtml(value));
  if (!detail.empty()) fmt::print(out, "<div class=\"detail\">{}</div>", EscapeHtml(detail));
  out << "</div>";
}

// ---- Verdict ----

// The verdict line every view prints (analyzers/verdict.h), as a sentence.
std::string Sentence(std::string text) {
  if (!text.empty() && text[0] >= 'a' && text[0] <= 'z')
    text[0] = static_cast<char>(text[0] - 'a' + 'A');
  return text + ".";
}

void RenderVerdict(const Context& ctx, std::ostream& out) {
  const Report& report = ctx.report;
  const analyzers::TraceSummary& summary = report.summary;
  const analyzers::Verdict verdict = analyzers::JudgeReport(report);
  fmt::print(out, "<section class=\"verdict\" id=\"{}\">\n<h2>Verdict</h2>\n",
             ctx.Anchor("verdict"));
  const std::string_view severity = verdict.worst ? analyzers::SeverityName(*verdict.worst) : "ok";
  fmt::print(out, "<p class=\"headline sev-{}\">{}</p>\n", severity,
             EscapeHtml(Sentence(verdict.text)));
  if (!verdict.start_with.empty()) {
    fmt::print(out, "<p class=\"lead\">Start with {}: {}</p>\n",
               ctx.FindingLink(verdict.start_with), EscapeHtml(RenderStatement(report.findings.front().verdict)));
  }
  out << "<div class=\"cards\">";
  if (summary.median_step_ns > 0) {
    Card(out, "median step", FormatDuration(summary.median_step_ns),
         fmt::format("p90 {}; {} steps from {}", FormatDuration(summary.p90_step_ns), summary.steps,
                     summary.step_source));
  }
  for (const analyzers::DeviceSummary& device : summary.devices) {
    if (!device.account) continue;
    Card(out, fmt::format("GPU {} busy", device.device_id), FormatPercent(device.account->busy_fraction),
         fmt::format("of the analysed {}; {} kernels{}", FormatDuration(device.account->window.duration()),
                     Count(device.kernels), device.name.empty() ? "" : "; " + device.name));
    if (device.peak_allocated_bytes || device.peak_reserved_bytes) {
      Card(out, fmt::format("GPU {} peak memory", device.device_id),
           base::FormatBytes(device.peak_allocated_bytes ? *device.peak_allocated_bytes : *device.peak_reserved_bytes),
           DeviceMemoryText(device));
    }
  }
  Card(out, "kernels", Count(summary.kernels), fmt::format("{} in all kernels", FormatDuration(summary.kernel_time_ns)));
  out << "</div>\n</section>\n";
}

// ---- FP32 vs AMP ----

void RenderRunColumn(const analyzers::ComparedRun& run, std::string_view name, bool per_step,
                     std::ostream& out) {
  fmt::print(out, "<div class=\"run\"><h3>{}</h3><dl>", EscapeHtml(name));
  auto row = [&](std::string_view label, const std::string& value) {
    fmt::print(out, "<dt>{}</dt><dd>{}</dd>", EscapeHtml(label), EscapeHtml(value));
  };
  row("trace", fmt::format("{} ({})", run.trace, run.label));
  if (!run.device.empty()) row("GPU", run.device);
  row(per_step ? "median step" : "GPU span", FormatDuration(run.time_ns));
  if (per_step) {
    row("steps",
        fmt::format(
            "{} measured from {}{}", run.steps, run.step_source,
            run.warmup_steps > 0 ? fmt::format(", {} warm-up left out", run.warmup_steps) : ""));
  }
  row(per_step ? "GPU time per step" : "GPU time", FormatDuration(run.gpu_time_ns));
  row("GPU busy", FormatPercent(run.busy_fraction));
  row(per_step ? "kernels per step" : "kernels", fmt::format("{:.0f}", run.kernels_per_unit));
  row("peak memory", PeakMemoryText(run.peak_allocated_bytes, run.peak_reserved_bytes));
  out << "</dl></div>\n";
}

// GPU time per step of one run as a bar of the comparison's rows (the overlap row, negative, left
// out).
void RenderStackedBar(const Comparison& c, bool baseline, base::DurationNs scale,
                      std::ostream& out) {
  fmt::print(out, "<div class=\"bar-row\"><span class=\"bar-name\">{}</span><div class=\"bar\">",
             baseline ? "FP32" : "AMP");
  for (const analyzers::ComparisonRow& row : c.rows) {
    const base::DurationNs value = baseline ? row.baseline_ns : row.candidate_ns;
    if (value <= 0 || scale <= 0) continue;
    const double percent = 100.0 * static_cast<double>(value) / static_cast<double>(scale);
    fmt::print(out, "<span style=\"width:{:.3f}%;background:{}\" title=\"{}: {}\"></span>", percent,
               ComparisonRowColor(row.label), EscapeHtml(row.label), FormatDuration(value));
  }
  fmt::print(out, "</div><span class=\"bar-total\">{}</span></div>\n",
             FormatDuration(baseline ? c.baseline.gpu_time_ns : c.candidate.gpu_time_ns));
}

void RenderComparison(const Context& ctx, std::ostream& out) {
  const Comparison& c = *ctx.report.comparison;
  const bool per_step = c.basis == analyzers::CompareBasis::kMedianStep;
  fmt::print(out, "<section class=\"compare\" id=\"{}\">\n<h2>FP32 vs mixed precision</h2>\n",
             ctx.Anchor("compare"));
  if (c.speedup > 0 && (c.pair == analyzers::RunPair::kBothFp32 || c.pair == analyzers::RunPair::kBothMixed)) {
    fmt::print(out, "<p class=\"speedup\">ratio {:.2f}x ({} / {}): both runs are {}, so this is not a "
                    "mixed-precision speed-up</p>\n",
               c.speedup, FormatDuration(c.baseline.time_ns), FormatDuration(c.candidate.time_ns),
               c.pair == analyzers::RunPair::kBothFp32 ? "FP32" : "mixed precision");
  } else if (c.speedup > 0) {
    fmt::print(
        out, "<p class=\"speedup {}\">speed-up <strong>{:.2f}x</strong> ({} FP32 / {} AMP{})</p>\n",
        c.speedup >= analyzers::kMinUsefulSpeedup ? "faster" : "slower", c.speedup,
        FormatDuration(c.baseline.time_ns), FormatDuration(c.candidate.time_ns),
        per_step ? ", median step timed on the GPU" : ", whole GPU span");
  } else {
    out << "<p class=\"speedup\">No speed-up: a run has no GPU time to compare.</p>\n";
  }
  if (!c.warnings.empty()) {
    out << "<ul class=\"warnings sev-warning\">";
    for (const analyzers::Statement& warning : c.warnings) {
      fmt::print(out, "<li>warning: {}</li>", EscapeHtml(RenderStatement(warning)));
    }
    out << "</ul>\n";
  }
  out << "<div class=\"runs\">\n";
  RenderRunColumn(c.baseline, "FP32", per_step, out);
  RenderRunColumn(c.candidate, "AMP", per_step, out);
  out << "</div>\n";
  fmt::print(out, "<h3>GPU time {}</h3>\n<div class=\"bars\">\n",
             per_step ? "per step" : "per run");
  const base::DurationNs scale = std::max(c.baseline.gpu_time_ns, c.candidate.gpu_time_ns);
  RenderStackedBar(c, true, scale, out);
  RenderStackedBar(c, false, scale, out);
  out << "</div>\n<div class=\"legend\">";
  for (const analyzers::ComparisonRow& row : c.rows) {
    if (row.baseline_ns <= 0 && row.candidate_ns <= 0) continue;
    fmt::print(out, "<span><i style=\"background:{}\"></i>{}</span>", ComparisonRowColor(row.label),
               EscapeHtml(row.label));
  }
  out << "</div>\n";
  fmt::print(out,
             "<table class=\"sortable\"><thead><tr><th data-type=\"text\">{}</th><th "
             "data-type=\"num\">FP32</th>"
             "<th data-type=\"num\">AMP</th><th data-type=\"num\">change</th><th "
             "data-type=\"text\">explained by</th>"
             "</tr></thead><tbody>\n",
             per_step ? "per step" : "per run");
  auto row = [&](std::string_view label, base::DurationNs fp32, base::DurationNs amp,
                 std::string_view finding) {
    fmt::print(
        out,
        "<tr><td><i class=\"swatch\" style=\"background:{}\"></i>{}</td><td data-v=\"{}\">{}</td>"
        "<td data-v=\"{}\">{}</td><td data-v=\"{}\" class=\"{}\">{}</td><td>{}</td></tr>\n",
        ComparisonRowColor(label), EscapeHtml(label), fp32, fp32 ? FormatDuration(fp32) : "-", amp,
        amp ? FormatDuration(amp) : "-", amp - fp32, amp > fp32 ? "worse" : "better",
        Signed(amp - fp32), ctx.FindingLink(finding));
  };
  for (const analyzers::ComparisonRow& r : c.rows)
    row(r.label, r.baseline_ns, r.candidate_ns, r.explained_by);
  out << "</tbody><tfoot>";
  fmt::print(out, "<tr><td>GPU time {}</td><td>{}</td><td>{}</td><td>{}</td><td></td></tr>",
             per_step ? "per step" : "per run", FormatDuration(c.baseline.gpu_time_ns),
             FormatDuration(c.candidate.gpu_time_ns),
             Signed(c.candidate.gpu_time_ns - c.baseline.gpu_time_ns));
  out << "</tfoot></table>\n";
  if (!c.notes.empty()) {
    out << "<ul class=\"notes\">";
    for (const analyzers::Statement& note : c.notes) fmt::print(out, "<li>{}</li>", EscapeHtml(RenderStatement(note)));
    out << "</ul>\n";
  }
  out << "</section>\n";
}

// ---- Timelines ----

void RenderTimelines(const Context& ctx, std::ostream& out) {
  const Report& report = ctx.report;
  fmt::print(out, "<section class=\"timelines\" id=\"{}\">\n<h2>GPU timeline</h2>\n",
             ctx.Anchor("timeline"));
  out << "<p class=\"hint\">Kernels coloured by category, stream by stream; the shaded background "
         "is the time the "
         "GPU sat idle, coloured by why (<code>ampprof explain gpu.launch_bound</code>).</p>\n";
  const bool both = report.comparison && report.baseline_timeline && report.timeline;
  const base::DurationNs longest = both ? std::max(report.baseline_timeline->window.duration(),
                                                   report.timeline->window.duration())
                                        : 0;
  auto width = [&](const analyzers::Timeline& timeline) {
    if (!both || longest <= 0) return 100.0;
    // One time scale for both, so that the longer step looks longer; never too narrow to read.
    return std::max(25.0, 100.0 * static_cast<double>(timeline.window.duration()) /
                              static_cast<double>(longest));
  };
  if (report.comparison && report.baseline_timeline) {
    RenderTimeline(analyzers::CoarsenTimeline(*report.baseline_timeline, ctx.timeline_items),
                   {ctx.Anchor("timeline-fp32"), "FP32", width(*report.baseline_timeline)}, out);
  }
  if (report.timeline) {
    RenderTimeline(
        analyzers::CoarsenTimeline(*report.timeline, ctx.timeline_items),
        {ctx.Anchor("timeline-amp"), report.comparison ? "AMP" : "", width(*report.timeline)}, out);
  }
  out << "</section>\n";
}

// ---- Findings ----

void RenderFinding(const Context& ctx, const Finding& finding, std::ostream& out) {
  const analyzers::FindingInfo* info = analyzers::FindFinding(finding.id);
  const std::string_view severity = analyzers::SeverityName(finding.severity);
  fmt::print(out, "<article class=\"finding sev-{}\" id=\"{}\">\n", severity,
             EscapeHtml(FindingAnchor(ctx.index, finding.id)));
  fmt::print(out, "<h3><span class=\"badge\">{}</span> <code>{}</code>{}</h3>\n", severity,
             EscapeHtml(finding.id), info ? " " + EscapeHtml(info->title) : "");
  fmt::print(out, "<p class=\"finding-verdict\">{}</p>\n", EscapeHtml(RenderStatement(finding.verdict)));
  if (!finding.saving.none()) {
    fmt::print(out, "<p class=\"saving\">Saves {} <span class=\"basis\">({})</span></p>\n",
               EscapeHtml(DescribeSaving(finding.saving, ctx.report.summary.account_basis == "measured steps")),
               EscapeHtml(finding.saving.basis));
  }
  if (!finding.evidence.empty()) {
    out << "<dl class=\"evidence\">";
    for (const analyzers::Evidence& e : finding.evidence) {
      fmt::print(out, "<dt>{}</dt><dd>{}</dd>", EscapeHtml(e.label), EscapeHtml(RenderStatement(e.value)));
    }
    out << "</dl>\n";
  }
  if (!finding.examples.empty()) {
    out << "<details class=\"examples\"><summary>examples</summary><ul>";
    for (const std::string& example : finding.examples)
      fmt::print(out, "<li><code>{}</code></li>", EscapeHtml(ShortName(example)));
    out << "</ul></details>\n";
  }
  const std::string_view page = analyzers::FindingDoc(finding.id);
  const MarkdownHtmlOptions markdown{
      .heading_offset = 2, .finding_anchor = [&](std::string_view id) {
        return ctx.HasFinding(id) ? FindingAnchor(ctx.index, id) : std::string();
      }};
  out << "<div class=\"fix\"><h4>How to fix it</h4>\n";
  if (!finding.fix.empty()) fmt::print(out, "<p>{}</p>\n", EscapeHtml(finding.fix));
  if (!finding.fix_code.empty()) fmt::print(out, "<pre><code>{}</code></pre>\n", EscapeHtml(finding.fix_code));
  if (const std::string_view fix = MarkdownSection(page, "How to fix it"); !fix.empty()) {
    out << "<details class=\"more-fixes\"><summary>more from the page</summary>\n"
        << RenderMarkdownAsHtml(fix, markdown) << "</details>\n";
  }
  out << "</div>\n";
  if (!page.empty()) {
    fmt::print(out,
               "<details class=\"doc\"><summary>the whole page: <code>ampprof explain "
               "{}</code></summary>\n{}</details>\n",
               EscapeHtml(finding.id), RenderMarkdownAsHtml(page, markdown));
  }
  out << "</article>\n";
}

void RenderFindings(const Context& ctx, std::ostream& out) {
  const Report& report = ctx.report;
  fmt::print(out, "<section class=\"findings\" id=\"{}\">\n<h2>Findings</h2>\n",
             ctx.Anchor("findings"));
  if (report.findings.empty()) {
    out << "<p>No finding. These checks ran: ";
    for (size_t i = 0; i < report.checks_run.size(); ++i) {
      fmt::print(out, "{}<code>{}</code>", i ? ", " : "", EscapeHtml(report.checks_run[i]));
    }
    out << ".</p>\n";
  }
  for (const Finding& finding : report.findings) RenderFinding(ctx, finding, out);
  out << "</section>\n";
}

// ---- Kernels ----

// The op table (analyzers/report/op_table.h), like the TensorBoard plugin's operator view.
void RenderOps(const Context& ctx, const analyzers::OpTable& table, std::ostream& out) {
  const bool per_step = table.steps > 0;
  const std::string id = ctx.Anchor("ops");
  fmt::print(out,
             "<h3>Ops by GPU time, GPU {}</h3>\n<p>{} of {} kernels launched by a framework op.</p>\n"
             "<input type=\"search\" class=\"filter\" data-table=\"{}\" placeholder=\"filter by op or shape\" "
             "aria-label=\"filter the ops\">\n"
             "<table class=\"sortable\" id=\"{}\"><thead><tr><th data-type=\"text\">op</th>"
             "<th data-type=\"text\">input shapes</th><th data-type=\"text\">type</th>"
             "<th data-type=\"text\">unit</th><th data-type=\"num\">{}</th><th data-type=\"num\">share</th>"
             "<th data-type=\"num\">kernels</th></tr></thead><tbody>\n",
             table.device_id, Count(table.attributed_kernels), Count(table.kernels), id, id,
             per_step ? "per step" : "time");
  for (const analyzers::OpRow& row : table.rows) {
    const base::DurationNs time = per_step ? row.per_step_ns : row.kernel_ns;
    std::string name = row.name;
    if (!row.forward.empty()) name += " (backward of " + row.forward + ")";
    else if (row.backward) name += " (backward pass)";
    fmt::print(out,
               "<tr><td class=\"name\"><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td data-v=\"{}\">{}</td>"
               "<td data-v=\"{:.6f}\">{}</td><td data-v=\"{}\">{}</td></tr>\n",
               EscapeHtml(name), EscapeHtml(row.shapes), EscapeHtml(row.input_type), EscapeHtml(row.unit), time,
               FormatDuration(time), row.share, FormatPercent(row.share), row.kernels, Count(row.kernels));
  }
  out << "</tbody></table>\n";
}

void RenderKernels(const Context& ctx, std::ostream& out) {
  const analyzers::TraceSummary& summary = ctx.report.summary;
  fmt::print(out, "<section class=\"kernels\" id=\"{}\">\n<h2>Where kernel time went</h2>\n",
             ctx.Anchor("kernels"));
  fmt::print(out, "<p>{} kernels, {} of kernel time.</p>\n", Count(summary.kernels),
             FormatDuration(summary.kernel_time_ns));
  const analyzers::DeviceSummary* primary =
      summary.devices.empty() ? nullptr : &summary.devices[summary.primary_device];
  if (primary != nullptr && primary->account) {
    const analyzers::AccountSummary& account = *primary->account;
    const bool per_step = account.basis == "measured steps";
    fmt::print(out, "<h3>The step account, GPU {}: {}, {}</h3>\n", primary->device_id,
               per_step ? fmt::format("{} measured steps", account.steps) : std::string("the whole run"),
               FormatDuration(account.window.duration()));
    out << "<table class=\"sortable\"><thead><tr><th data-type=\"text\">bucket</th>"
           "<th data-type=\"num\">per step</th><th data-type=\"num\">share</th><th data-type=\"num\">in all</th>"
           "<th data-type=\"num\">kernels</th></tr></thead><tbody>\n";
    for (const analyzers::AccountRow& row : account.rows) {
      fmt::print(out,
                 "<tr><td><i class=\"swatch\" style=\"background:{}\"></i>{}</td><td data-v=\"{}\">{}</td>"
                 "<td data-v=\"{:.6f}\"><span class=\"share\" style=\"width:{:.1f}%\"></span>{}</td>"
                 "<td data-v=\"{}\">{}</td><td data-v=\"{}\">{}</td></tr>\n",
                 AccountRowColor(row), EscapeHtml(row.label), row.per_step_ns, FormatDuration(row.per_step_ns),
                 row.share, 100.0 * row.share, FormatPercent(row.share), row.total_ns, FormatDuration(row.total_ns),
                 row.kernels, row.kernels > 0 ? Count(row.kernels) : "");
    }
    out << "</tbody></table>\n";
  }
  const std::string table = ctx.Anchor("top-kernels");
  fmt::print(
      out,
      "<h3>Top kernels</h3>\n<input type=\"search\" class=\"filter\" data-table=\"{0}\" "
      "placeholder=\"filter by name or kind\" aria-label=\"filter the top kernels\">\n"
      "<table class=\"sortable\" id=\"{0}\"><thead><tr><th data-type=\"text\">kernel</th>"
      "<th data-type=\"text\">kind</th><th data-type=\"num\">time</th><th "
      "data-type=\"num\">share</th>"
      "<th data-type=\"num\">count</th><th data-type=\"num\">mean</th></tr></thead><tbody>\n",
      table);
  for (const analyzers::KernelTimeSummary& k : summary.top_kernels) {
    const base::DurationNs mean =
        k.count > 0 ? k.total_ns / static_cast<base::DurationNs>(k.count) : 0;
    fmt::print(out,
               "<tr><td class=\"name\"><code>{}</code></td><td>{}</td><td data-v=\"{}\">{}</td><td "
               "data-v=\"{:.6f}\">{}</td>"
               "<td data-v=\"{}\">{}</td><td data-v=\"{}\">{}</td></tr>\n",
               EscapeHtml(ShortName(k.name)), EscapeHtml(k.kind), k.total_ns,
               FormatDuration(k.total_ns), k.share_of_kernel_time,
               FormatPercent(k.share_of_kernel_time), k.count, Count(k.count), mean,
               FormatDuration(mean));
  }
  out << "</tbody></table>\n";
  if (ctx.report.ops) RenderOps(ctx, *ctx.report.ops, out);
  out << "</section>\n";
}

// ---- Data quality ----

void RenderDataQuality(const Context& ctx, std::ostream& out) {
  fmt::print(out, "<section class=\"quality\" id=\"{}\">\n<h2>Data quality</h2>\n",
             ctx.Anchor("quality"));
  const std::vector<base::StatEntry> stats = ctx.report.stats.NonZero();
  if (stats.empty()) {
    out << "<p>No records lost or repaired.</p>\n</section>\n";
    return;
  }
  if (ctx.report.stats.HasDataLoss()) {
    out << "<p class=\"sev-warning\">Records were lost before analysis: the numbers above cover "
           "what was recorded.</p>\n";
  }
  out << "<table><thead><tr><th>counter</th><th>value</th><th>severity</th><th>what it "
         "means</th></tr></thead><tbody>\n";
  for (const base::StatEntry& entry : stats) {
    fmt::print(out, "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
               EscapeHtml(entry.info->name), FormatCount(entry.value),
               EscapeHtml(base::SeverityName(entry.info->severity)),
               EscapeHtml(entry.info->description));
  }
  out << "</tbody></table>\n</section>\n";
}

// ---- Page ----

void RenderHeader(const Context& ctx, std::ostream& out) {
  const Report& report = ctx.report;
  fmt::print(out, "<header class=\"report-header\"><h1>{}</h1><dl>", EscapeHtml(ReportHeading(report)));
  for (const analyzers::ReportInput& input : report.inputs) {
    fmt::print(out, "<dt>{}</dt><dd><code>{}</code> ({})</dd>", input.library_log ? "log" : "trace",
               EscapeHtml(input.path), EscapeHtml(input.format));
  }
  if (!report.summary.workload.empty()) {
    fmt::print(out, "<dt>workload</dt><dd>{}</dd>", EscapeHtml(report.summary.workload));
  }
  if (report.summary.run_kind != analyzers::RunKind::kUnknown) {
    fmt::print(out, "<dt>run</dt><dd>{}: {}</dd>", analyzers::RunKindId(report.summary.run_kind),
               EscapeHtml(report.summary.run_kind_evidence));
  }
  if (report.workload_outcome) {
    fmt::print(out, "<dt>ended</dt><dd>{}</dd>", EscapeHtml(analyzers::DescribeOutcome(*report.workload_outcome)));
  }
  out << "</dl>\n<nav>";
  fmt::print(out, "<a href=\"#{}\">verdict</a>", ctx.Anchor("verdict"));
  if (report.comparison) fmt::print(out, "<a href=\"#{}\">FP32 vs AMP</a>", ctx.Anchor("compare"));
  if (report.timeline) fmt::print(out, "<a href=\"#{}\">timeline</a>", ctx.Anchor("timeline"));
  fmt::print(out,
             "<a href=\"#{}\">findings</a><a href=\"#{}\">kernels</a><a href=\"#{}\">data "
             "quality</a></nav></header>\n",
             ctx.Anchor("findings"), ctx.Anchor("kernels"), ctx.Anchor("quality"));
}

void RenderReport(const Context& ctx, std::ostream& out) {
  fmt::print(out, "<article class=\"report\" id=\"{}\">\n", ctx.Anchor("report"));
  RenderHeader(ctx, out);
  RenderVerdict(ctx, out);
  if (ctx.report.comparison) RenderComparison(ctx, out);
  if (ctx.report.timeline || ctx.report.baseline_timeline) RenderTimelines(ctx, out);
  RenderFindings(ctx, out);
  RenderKernels(ctx, out);
  RenderDataQuality(ctx, out);
  out << "</article>\n";
}

}  // namespace

void RenderHtml(std::span<const Report> reports, std::ostream& out, const HtmlOptions& options) {
  size_t timelines = 0;
  for (const Report& report : reports) {
    timelines +=
        (report.timeline ? 1 : 0) + (report.comparison && report.baseline_timeline ? 1 : 0);
  }
  const size_t per_timeline =
      std::max<size_t>(1, options.max_timeline_items / std::max<size_t>(1, timelines));

  // A job's page is about all its ranks, whichever of them are detailed below it.
  const std::string title =
      options.job != nullptr ? fmt::format("ampprof: {} ranks", options.job->ranks) : PageTitle(reports);
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<meta name=\"generator\" content=\"ampprof\">\n";
  fmt::print(out, "<title>{}</title>\n<style>\n{}</style>\n</head>\n<body>\n", EscapeHtml(title),
             ReportStylesheet());
  out << "<div class=\"page\">\n<p class=\"brand\">ampprof &middot; why is mixed precision not "
         "faster?</p>\n";
  if (reports.size() > 1) {
    out << "<nav class=\"ranks\">";
    for (size_t i = 0; i < reports.size(); ++i) {
      fmt::print(out, "<a href=\"#r{}-report\">{}</a>", i, EscapeHtml(reports[i].label));
    }
    out << "</nav>\n";
  }
  if (options.job != nullptr) RenderJobHtml(*options.job, out);
  for (size_t i = 0; i < reports.size(); ++i)
    RenderReport(Context{reports[i], i, per_timeline}, out);
  out << "<footer>Generated by ampprof. Self-contained: this file loads nothing from the "
         "network.</footer>\n</div>\n";
  fmt::print(out, "<div class=\"tooltip\" hidden></div>\n<script>\n{}</script>\n</body>\n</html>\n",
             ReportScript());
}

}  // namespace ampprof::reports
