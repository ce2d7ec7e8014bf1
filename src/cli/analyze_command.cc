#include "src/cli/analyze_command.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
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

#include "analyzers/verdict.h"
#include "reports/html/html_reporter.h"
#include "src/cli/exit_codes.h"
#include "src/cli/kernel_rules_option.h"
#include "src/cli/progress_bar.h"
#include "src/cli/report_formats.h"
#include "src/pipeline/analysis.h"

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
};

// --html: the self-contained HTML page (reports/html), besides the report in --format.
bool WriteHtml(const std::vector<analyzers::Report>& reports, const std::string& path) {
  std::ofstream file(path, std::ios::out | std::ios::trunc | std::ios::binary);
  if (file) reports::RenderHtml(reports, file, {});
  if (!file || !file.flush()) {
    fmt::print(std::cerr, "ampprof analyze: {}: cannot write the HTML report\n", path);
    return false;
  }
  return true;
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
  for (const analyzers::Report& report : reports) failing += analyzers::CountFindingsAtLeast(report, threshold);
  if (failing == 0) return kExitOk;
  fmt::print(std::cerr, "ampprof analyze: {} finding{} at {} or above (--fail-on {})\n", failing,
             failing == 1 ? "" : "s", fail_on, fail_on);
  return kExitFindings;
}

int Analyze(const AnalyzeOptions& options) {
  const ReportFormat* format = FindReportFormat(options.format);
  if (format == nullptr) {  // CLI11 checked the choice; this is the list and the check disagreeing
    fmt::print(std::cerr, "ampprof analyze: unknown format '{}'\n", options.format);
    return kExitUsage;
  }
  const std::optional<analyzers::KernelClassifier> rules = LoadKernelRules(options.kernel_rules, "analyze");
  if (!options.kernel_rules.empty() && !rules) return kExitBadInput;
  const std::unique_ptr<ProgressBar> progress = MakeTerminalProgress();
  auto reports = pipeline::AnalyzeTraces(
      options.traces,
      {.baseline = options.baseline, .progress = progress.get(), .classifier = rules ? &*rules : nullptr});
  if (!reports.ok()) {
    fmt::print(std::cerr, "ampprof analyze: {}\n", reports.status().message());
    return kExitBadInput;
  }
  WarnAboutDataLoss(*reports);
  if (!options.html.empty() && !WriteHtml(*reports, options.html)) return kExitBadInput;
  if (options.output.empty()) {
    format->render(*reports, std::cout, {.color = ColorWanted(), .verbose = options.verbose});
    std::cout.flush();
  } else {
    std::ofstream file(options.output, std::ios::out | std::ios::trunc);
    if (file) format->render(*reports, file, {.color = false, .verbose = options.verbose});
    if (!file || !file.flush()) {
      fmt::print(std::cerr, "ampprof analyze: {}: cannot write the report\n", options.output);
      return kExitBadInput;
    }
  }
  return GateOnFindings(*reports, options.fail_on);
}

std::string FormatHelp() {
  std::vector<std::string> lines;
  for (const ReportFormat& format : ReportFormats()) lines.push_back(fmt::format("{}: {}", format.name, format.description));
  return fmt::format("The report's format; {}", fmt::join(lines, "; "));
}

}  // namespace

CommandAction AddAnalyzeCommand(CLI::App& app) {
  auto options = std::make_shared<AnalyzeOptions>();
  CLI::App* command = app.add_subcommand(
      "analyze", "Read traces and print the diagnosis; with --baseline, compare with the FP32 run");
  command->add_option("traces", options->traces,
                      "Trace files or directories of them: .ampt, PyTorch profiler JSON (.json, .json.gz), "
                      "Nsight Systems SQLite; each file is one process (rank) of the run")
      ->required()
      ->type_name("TRACE");
  command->add_option("--baseline", options->baseline,
                      "The FP32 run of the same workload (a trace file, or a directory of rank traces): "
                      "compare the mixed-precision TRACE with it step by step and explain the difference")
      ->type_name("FP32_TRACE");
  command->add_option("-o,--output", options->output, "Write the report to FILE instead of stdout")
      ->type_name("FILE");
  command->add_option("--html", options->html,
                      "Also write the report as one self-contained HTML page to FILE (the same as "
                      "--format html -o FILE, beside another format)")
      ->type_name("FILE");
  command->add_option("--format", options->format, FormatHelp())
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
      "Exit status: 0 report written, 1 bad usage, 2 a trace (or the baseline) could not be read or the "
      "report could not be written, 4 report written and --fail-on found a finding at its level.\n"
      "Colour: on when stdout is a terminal, unless NO_COLOR is set. A progress bar shows on stderr when it "
      "is a terminal and the analysis takes more than a second.\n"
      "A trace cut short (its process was killed) is analyzed as far as it goes; the report's \"Data "
      "quality\" section says what was lost.");
  AddKernelRulesOption(*command, options->kernel_rules);
  return {command, [options] { return Analyze(*options); }};
}

}  // namespace ampprof::cli
