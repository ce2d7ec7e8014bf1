#include "src/cli/analyze_command.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include "analyzers/ranks/job_report.h"
#include "analyzers/report/verdict.h"
#include "reports/html/html_reporter.h"
#include "src/base/output_file.h"
#include "src/base/terminal_text.h"
#include "src/base/output_target.h"
#include "src/cli/exit_codes.h"
#include "src/cli/kernel_rules_option.h"
#include "src/cli/progress_bar.h"
#include "src/cli/report_formats.h"
#include "reports/json/rank_summary_json.h"
#include "src/pipeline/analysis.h"
#include "src/pipeline/job_analysis.h"

namespace ampprof::cli {
namespace {

struct AnalyzeOptions {
  std::vector<std::string> traces;
  std::string baseline;
  std::string output;
  std::string format = "text";
  bool verbose = false;
  std::string fail_on;  // "", "warning" or "critical"
  std::string html;     // also write the HTML page there
  std::string kernel_rules;
  // Several ranks of one job (docs/ranks.md).
  unsigned jobs = 0;        // -j: threads; 0: the machine's cores
  bool per_rank = false;    // every rank's own report after the cross-rank report
  int32_t rank = -1;        // that rank's own report after the cross-rank report
  bool summary_only = false;  // write the rank summaries (the map), not a report
};

// Where the report and the HTML page go, checked before any trace is read: an output that cannot be
// written fails at once, and two outputs that are one file are refused (one would replace the other).
struct Outputs {
  base::OutputTarget report;               // -o, else standard output
  std::optional<base::OutputTarget> html;  // --html
};

base::StatusOr<Outputs> ResolveOutputs(const AnalyzeOptions& options) {
  ASSIGN_OR_RETURN(base::OutputTarget report,
                   base::OutputTarget::Resolve(options.output.empty() ? "-" : options.output));
  Outputs outputs{std::move(report), std::nullopt};
  if (options.html.empty()) return outputs;
  ASSIGN_OR_RETURN(outputs.html, base::OutputTarget::Resolve(options.html));
  if (outputs.html->SameFileAs(outputs.report)) {
    return base::InvalidArgumentError("{}: --html and the report are the same file; give each its own",
                                      outputs.html->name());
  }
  return outputs;
}

// Run by the pipeline once the traces are known and before any is read: no output may be an input.
base::Status RefuseOutputsThatAreInputs(const Outputs& outputs, const pipeline::TraceInputs& traces,
                                        const pipeline::TraceInputs& baseline) {
  for (const pipeline::TraceInputs* inputs : {&traces, &baseline}) {
    RETURN_IF_ERROR(inputs->RefuseOutput(outputs.report));
    if (outputs.html) RETURN_IF_ERROR(inputs->RefuseOutput(*outputs.html));
  }
  return base::OkStatus();
}

// Renders into `target` and checks that all of it was written (the file and the reason otherwise).
bool WriteOutput(const base::OutputTarget& target, const std::function<void(std::ostream&)>& render) {
  auto output = base::OutputFile::Open(target);
  base::Status status = output.status();
  if (output.ok()) {
    render((*output)->stream());
    status = (*output)->Commit();
  }
  if (!status.ok()) fmt::print(std::cerr, "ampprof analyze: {}\n", base::EscapeControlCharacters(status.message()));
  return status.ok();
}

// Colour only for a person at a terminal: stdout is one, and neither NO_COLOR (https://no-color.org:
// set and not empty) nor TERM=dumb says otherwise.
bool ColorWanted() {
  if (isatty(STDOUT_FILENO) != 1) return false;
  if (const char* no_color = std::getenv("NO_COLOR"); no_color != nullptr && *no_color != '\0') return false;
  const char* term = std::getenv("TERM");
  return term == nullptr || std::string_view(term) != "dumb";
}

void WarnAboutDataLoss(const std::vector<analyzers::Report>& reports) {
  const bool data_loss = std::any_of(reports.begin(), reports.end(),
                                     [](const analyzers::Report& report) { return report.stats.HasDataLoss(); });
  if (data_loss) {
    fmt::print(std::cerr,
               "ampprof analyze: warning: records were lost before analysis; the report says which "
               "under \"Data quality\"\n");
  }
  const bool baseline_loss = std::any_of(reports.begin(), reports.end(), [](const analyzers::Report& report) {
    return report.comparison && report.comparison->baseline.data_loss;
  });
  if (baseline_loss) {
    fmt::print(std::cerr,
               "ampprof analyze: warning: the baseline trace lost records; the comparison's notes say so\n");
  }
}

// --fail-on: the exit status a CI job gates on, once the report is written.
int GateOnFindings(const std::vector<analyzers::Report>& reports, const std::string& fail_on) {
  if (fail_on.empty()) return kExitOk;
  const analyzers::Severity threshold =
      fail_on == "critical" ? analyzers::Severity::kCritical : analyzers::Severity::kWarning;
  size_t failing = 0;
  size_t empty = 0;  // reports with nothing to diagnose: not a pass, a CI job must not go green on them
  for (const analyzers::Report& report : reports) {
    failing += analyzers::CountFindingsAtLeast(report, threshold);
    if (!analyzers::JudgeReport(report).nothing_to_diagnose.empty()) ++empty;
  }
  if (failing == 0 && empty == 0) return kExitOk;
  if (failing > 0) {
    fmt::print(std::cerr, "ampprof analyze: {} finding{} at {} or above (--fail-on {})\n", failing,
               failing == 1 ? "" : "s", fail_on, fail_on);
  }
  if (empty > 0) {
    fmt::print(std::cerr, "ampprof analyze: {} of {} trace{} had nothing to diagnose (--fail-on {})\n", empty,
               reports.size(), reports.size() == 1 ? "" : "s", fail_on);
  }
  return kExitFindings;
}

#ifndef AMPPROF_VERSION
#define AMPPROF_VERSION "unknown"
#endif

// --fail-on for a job: every rank's findings count, as they would in its own report.
int GateOnJob(const std::vector<analyzers::RankSummary>& summaries, const std::string& fail_on) {
  if (fail_on.empty()) return kExitOk;
  const analyzers::Severity threshold =
      fail_on == "critical" ? analyzers::Severity::kCritical : analyzers::Severity::kWarning;
  size_t failing = 0;
  size_t empty = 0;
  for (const analyzers::RankSummary& summary : summaries) {
    for (const analyzers::RankFinding& finding : summary.findings) failing += finding.severity >= threshold ? 1 : 0;
    if (!summary.has_account()) ++empty;
  }
  if (failing == 0 && empty == 0) return kExitOk;
  if (failing > 0) {
    fmt::print(std::cerr, "ampprof analyze: {} finding{} at {} or above over the ranks (--fail-on {})\n", failing,
               failing == 1 ? "" : "s", fail_on, fail_on);
  }
  if (empty > 0) {
    fmt::print(std::cerr, "ampprof analyze: {} of {} ranks had nothing to diagnose (--fail-on {})\n", empty,
               summaries.size(), fail_on);
  }
  return kExitFindings;
}

// Several ranks, or rank summaries: the map (--summary-only), the cross-rank report, or, when the inputs
// are not several ranks of a job, the per-trace reports as before.
int AnalyzeRanks(const AnalyzeOptions& options, const ReportFormat& format, const Outputs& outputs,
                 const analyzers::KernelClassifier* classifier) {
  const std::unique_ptr<ProgressBar> progress = MakeTerminalProgress();
  const pipeline::TraceInputs no_baseline;
  auto analysis = pipeline::AnalyzeJob(
      options.traces, {.jobs = options.jobs,
                       .all_reports = options.per_rank,
                       .rank = options.rank,
                       .progress = progress.get(),
                       .before_reading = [&](const pipeline::TraceInputs& traces) {
                         return RefuseOutputsThatAreInputs(outputs, traces, no_baseline);
                       },
                       .classifier = classifier});
  if (!analysis.ok()) {
    fmt::print(std::cerr, "ampprof analyze: {}\n", base::EscapeControlCharacters(analysis.status().message()));
    return kExitBadInput;
  }
  const std::vector<analyzers::RankSummary>& summaries = analysis->summaries;
  if (options.summary_only) {
    const bool written = WriteOutput(outputs.report, [&](std::ostream& out) {
      reports::WriteRankSummaries(summaries, out, {.generator = fmt::format("ampprof {}", AMPPROF_VERSION)});
    });
    return written ? kExitOk : kExitBadInput;
  }
  if (!analyzers::IsJob(summaries)) {
    if (analysis->from_summary_files > 0) {
      fmt::print(std::cerr,
                 "ampprof analyze: rank summaries make a cross-rank report only together: give the summaries (or "
                 "traces) of two or more ranks of the job\n");
      return kExitBadInput;
    }
    std::vector<analyzers::Report>& reports = analysis->reports;
    WarnAboutDataLoss(reports);
    bool written = true;
    if (outputs.html) written = WriteOutput(*outputs.html, [&](std::ostream& out) { reports::RenderHtml(reports, out, {}); });
    const bool to_stdout = outputs.report.kind() == base::OutputTarget::Kind::kDescriptor &&
                           outputs.report.descriptor() == STDOUT_FILENO;
    const ViewOptions view{.color = to_stdout && ColorWanted(), .verbose = options.verbose};
    written &= WriteOutput(outputs.report, [&](std::ostream& out) { format.render(reports, out, view); });
    if (!written) return kExitBadInput;
    return GateOnFindings(reports, options.fail_on);
  }
  const analyzers::JobReport job = analyzers::ReduceRanks(summaries);
  std::vector<analyzers::Report> shown;  // the per-rank reports asked for
  for (analyzers::Report& report : analysis->reports) {
    if (options.per_rank || (options.rank >= 0 && report.rank == options.rank)) shown.push_back(std::move(report));
  }
  if (options.rank >= 0 && !options.per_rank && shown.empty()) {
    fmt::print(std::cerr, "ampprof analyze: --rank {}: no trace of that rank among the inputs{}\n", options.rank,
               analysis->from_summary_files > 0 ? " (a rank summary has no report to show)" : "");
    return kExitBadInput;
  }
  if (std::any_of(summaries.begin(), summaries.end(), [](const analyzers::RankSummary& s) { return s.data_loss; })) {
    fmt::print(std::cerr, "ampprof analyze: warning: records were lost before analysis on some ranks; their own "
                          "reports say which under \"Data quality\"\n");
  }
  bool written = true;
  if (outputs.html) {
    written = WriteOutput(*outputs.html, [&](std::ostream& out) { reports::RenderHtml(shown, out, {.job = &job}); });
  }
  const bool to_stdout = outputs.report.kind() == base::OutputTarget::Kind::kDescriptor &&
                         outputs.report.descriptor() == STDOUT_FILENO;
  const ViewOptions view{.color = to_stdout && ColorWanted(), .verbose = options.verbose};
  written &= WriteOutput(outputs.report, [&](std::ostream& out) { format.render_job(job, shown, out, view); });
  if (!written) return kExitBadInput;
  return GateOnJob(summaries, options.fail_on);
}

int Analyze(const AnalyzeOptions& options) {
  const ReportFormat* format = FindReportFormat(options.format);
  if (format == nullptr) {  // CLI11 checked the choice; this is the list and the check disagreeing
    fmt::print(std::cerr, "ampprof analyze: unknown format '{}'\n", options.format);
    return kExitUsage;
  }
  const auto outputs = ResolveOutputs(options);
  if (!outputs.ok()) {
    fmt::print(std::cerr, "ampprof analyze: {}\n", base::EscapeControlCharacters(outputs.status().message()));
    return kExitBadInput;
  }
  const std::optional<analyzers::KernelClassifier> rules = LoadKernelRules(options.kernel_rules, "analyze");
  if (!options.kernel_rules.empty() && !rules) return kExitBadInput;
  if (!options.baseline.empty() && (options.summary_only || options.per_rank || options.rank >= 0)) {
    fmt::print(std::cerr, "ampprof analyze: --baseline compares rank by rank; it cannot be combined with "
                          "--summary-only, --per-rank or --rank\n");
    return kExitUsage;
  }
  if (options.summary_only && outputs->html) {
    fmt::print(std::cerr, "ampprof analyze: --summary-only writes rank summaries, not a report: drop --html\n");
    return kExitUsage;
  }
  if (options.baseline.empty()) return AnalyzeRanks(options, *format, *outputs, rules ? &*rules : nullptr);
  const std::unique_ptr<ProgressBar> progress = MakeTerminalProgress();
  const auto refuse_inputs = [&](const pipeline::TraceInputs& traces, const pipeline::TraceInputs& baseline) {
    return RefuseOutputsThatAreInputs(*outputs, traces, baseline);
  };
  auto reports = pipeline::AnalyzeTraces(options.traces, {.baseline = options.baseline,
                                                          .progress = progress.get(),
                                                          .before_reading = refuse_inputs,
                                                          .classifier = rules ? &*rules : nullptr});
  if (!reports.ok()) {
    fmt::print(std::cerr, "ampprof analyze: {}\n", base::EscapeControlCharacters(reports.status().message()));
    return kExitBadInput;
  }
  WarnAboutDataLoss(*reports);
  // Both are written even when one fails; either failing is exit status 2.
  bool written = true;
  if (outputs->html) {
    written = WriteOutput(*outputs->html,
                          [&](std::ostream& out) { reports::RenderHtml(*reports, out, {}); });
  }
  const bool to_stdout = outputs->report.kind() == base::OutputTarget::Kind::kDescriptor &&
                         outputs->report.descriptor() == STDOUT_FILENO;
  const ViewOptions view{.color = to_stdout && ColorWanted(), .verbose = options.verbose};
  written &= WriteOutput(outputs->report, [&](std::ostream& out) { format->render(*reports, out, view); });
  if (!written) return kExitBadInput;
  return GateOnFindings(*reports, options.fail_on);
}

std::string FormatHelp() {
  std::vector<std::string> lines;
  for (const ReportFormat& format : ReportFormats()) lines.push_back(fmt::format("{}: {}", format.name, format.description));
  return fmt::format("The report's format: {}", fmt::join(lines, "; "));
}

}  // namespace

CommandAction AddAnalyzeCommand(CLI::App& app) {
  auto options = std::make_shared<AnalyzeOptions>();
  CLI::App* command = app.add_subcommand(
      "analyze", "Read traces and print the diagnosis; with --baseline, compare with the FP32 run");
  command->add_option("traces", options->traces,
                      "Trace files or directories of them: .ampt, PyTorch profiler JSON (.json, .json.gz), "
                      "Nsight Systems SQLite; each file is one process (rank) of the run; - reads one from "
                      "standard input")
      ->required()
      ->type_name("TRACE");
  command->add_option("--baseline", options->baseline,
                      "The FP32 run of the same workload (a trace file, or a directory of rank traces): "
                      "compare the mixed-precision TRACE with it step by step and explain the difference")
      ->type_name("FP32_TRACE");
  command->add_option("-o,--output", options->output,
                      "Write the report to FILE instead of stdout (replaced only once the report is complete)")
      ->type_name("FILE");
  command->add_option("--html", options->html,
                      "Also write the report as one self-contained HTML page to FILE (the same as "
                      "--format html -o FILE, beside another format)")
      ->type_name("FILE");
  command->add_option("--format", options->format, FormatHelp())
      ->type_name("FORMAT")
      ->capture_default_str()
      ->check(CLI::IsMember(ReportFormatNames()));
  command->add_flag("-v,--verbose", options->verbose,
                    "Text: add each GPU's idle time by cause, the record counts, kernel time by category, the "
                    "top kernels and the step times");
  command->add_option("--fail-on", options->fail_on,
                      "Exit with status 4 (after writing the report) when a finding is at LEVEL or above: "
                      "warning (warnings and critical findings) or critical")
      ->type_name("LEVEL")
      ->check(CLI::IsMember({"warning", "critical"}));
  command->footer(
      "Exit status: 0 report written, 1 bad usage, 2 a trace (or the baseline) could not be read, or an "
      "output could not be written (standard output included) or would replace an input, 4 report "
      "written and --fail-on found a finding at its level.\n"
      "A directory stands for the traces in it; an entry that is not one is skipped with a warning.\n"
      "Several ranks of one job (traces that state their rank, or rank summaries from --summary-only): one "
      "cross-rank report with the stragglers and the findings merged across ranks (docs/ranks.md).\n"
      "Colour: on when stdout is a terminal, unless NO_COLOR is set. A progress bar shows on stderr when it "
      "is a terminal and the analysis takes more than a second.\n"
      "A trace cut short (its process was killed) is analyzed as far as it goes; the report's \"Data "
      "quality\" section says what was lost.");
  command->add_option("-j,--jobs", options->jobs,
                      "Analyse up to N traces at a time, each on its own core with its own model in memory; "
                      "fewer traces than N split their PyTorch profiler JSON import over the spare cores "
                      "(0, the default: the machine's cores)")
      ->type_name("N");
  command->add_flag("--per-rank", options->per_rank,
                    "Several ranks of one job: every rank's own report after the cross-rank report");
  command->add_option("--rank", options->rank,
                      "Several ranks of one job: this rank's own report after the cross-rank report")
      ->type_name("N")
      ->check(CLI::NonNegativeNumber);
  command->add_flag("--summary-only", options->summary_only,
                    "Write each trace's rank summary (JSON, docs/formats/rank-summary.md) instead of a report: "
                    "the map step; `ampprof analyze SUMMARY...` reduces summaries to the cross-rank report");
  AddKernelRulesOption(*command, options->kernel_rules);
  return {command, [options] { return Analyze(*options); }};
}

}  // namespace ampprof::cli
