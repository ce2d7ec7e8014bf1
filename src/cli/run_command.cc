#include "src/cli/run_command.h"

#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "reports/text/text_reporter.h"
#include "src/base/terminal_text.h"
#include "src/cli/collector_setup.h"
#include "src/cli/exit_codes.h"
#include "src/cli/launcher.h"
#include "src/cli/kernel_rules_option.h"
#include "src/cli/output_directory.h"
#include "src/cli/traced_run.h"
#include "src/pipeline/analysis.h"

namespace ampprof::cli {
namespace {

struct RunOptions {
  std::vector<std::string> command;
  TracedRunFlags traced;
  bool report = true;
};

// Every trace the run wrote, analyzed and printed, with how the workload ended.
void ReportOnTraces(const std::vector<std::string>& traces, const std::string& output_dir,
                    const analyzers::WorkloadOutcome& outcome) {
  fmt::print(std::cerr, "ampprof run: {} trace(s) in {}\n", traces.size(), output_dir);
  auto reports = pipeline::AnalyzeTraces(traces);
  if (!reports.ok()) {
    fmt::print(std::cerr, "ampprof run: cannot analyze the traces: {}\n",
               base::EscapeControlCharacters(reports.status().message()));
    return;
  }
  SetWorkloadOutcome(*reports, outcome);
  for (const analyzers::Report& report : *reports) {
    if (!report.summary.collector_note.empty()) {
      fmt::print(std::cerr, "ampprof run: {}: {}\n", base::EscapeControlCharacters(report.label),
                 base::EscapeControlCharacters(report.summary.collector_note));
    }
  }
  reports::RenderText(*reports, std::cout, {});
  std::cout.flush();
  WriteHtmlReport(*reports, output_dir + "/report.html", "run");
}

// How the workload ended, when that was not a success: ampprof ends the same way (ExitLikeWorkload), and
// a script's user should not have to guess why. True when nothing more needs saying about missing
// traces (a crash explains them better than the list of likely reasons).
bool SayHowTheWorkloadEnded(const analyzers::WorkloadOutcome& outcome, size_t traces,
                            const std::string& output_dir) {
  if (outcome.ShellStatus() == 0) return false;
  const std::string ended = analyzers::DescribeOutcome(outcome);
  if (outcome.signal == 0) {
    fmt::print(std::cerr, "ampprof run: the workload {}; ampprof exits with the same status\n", ended);
    return false;
  }
  if (traces == 0) {
    fmt::print(std::cerr, "ampprof run: the workload was {} before any CUDA activity was recorded (no trace in {})\n",
               ended, base::EscapeControlCharacters(output_dir));
    return true;
  }
  fmt::print(std::cerr, "ampprof run: the workload was {}; its {} hold{} what was recorded before that\n", ended,
             traces == 1 ? "trace" : fmt::format("{} traces", traces), traces == 1 ? "s" : "");
  return false;
}

int Run(const RunOptions& options) {
  // The rules are read before the workload starts: a bad file fails now, not after the run.
  const std::optional<analyzers::KernelClassifier> rules = LoadKernelRules(options.traced.kernel_rules, "run");
  if (!options.traced.kernel_rules.empty() && !rules) return kExitBadInput;
  const analyzers::ScopedKernelClassifier active_rules(rules ? &*rules : nullptr);
  base::StatusOr<CollectorFiles> collector = FindCollector();
  if (!collector.ok()) {
    fmt::print(std::cerr, "ampprof run: {}\n", collector.status().message());
    return kExitUnavailable;
  }
  if (base::Status flags = CheckTracedRunFlags(options.traced); !flags.ok()) {
    fmt::print(std::cerr, "ampprof run: {}\n", flags.message());
    return kExitUsage;
  }
  // Held until ampprof exits: no other run writes into the directory meanwhile.
  base::StatusOr<PreparedOutputDirectory> prepared =
      PrepareOutputDirectory(options.traced.output_dir, options.traced.force);
  if (!prepared.ok()) {
    fmt::print(std::cerr, "ampprof run: {}\n", prepared.status().message());
    return kExitBadInput;
  }
  const std::string& output_dir = prepared->path;
  SayWhichCupti(*collector, "run");

  TracedWorkload workload;
  workload.argv = options.command;
  workload.output_dir = output_dir;
  workload.capture = CaptureOptionsFor(options.traced, output_dir);
  workload.trace_wait = TraceWaitFor(options.traced);
  base::StatusOr<TracedRunResult> result = RunTraced(workload, *collector, "run");
  if (!result.ok()) {
    fmt::print(std::cerr, "ampprof run: {}\n", result.status().message());
    return ExitStatusForLaunchError(result.status());
  }
  const bool crash_explains_missing_traces =
      SayHowTheWorkloadEnded(result->outcome, result->traces.size(), output_dir);
  if (options.report && result->recorded) {
    if (result->traces.empty()) {
      if (!crash_explains_missing_traces) ExplainNoTrace("run", output_dir, workload.capture);
    } else {
      ReportOnTraces(result->traces, output_dir, result->outcome);
    }
  }
  return ExitLikeWorkload(result->outcome);  // the report is out: now the workload's own end
}

}  // namespace

CommandAction AddRunCommand(CLI::App& app) {
  auto options = std::make_shared<RunOptions>();
  CLI::App* command =
      app.add_subcommand("run", "Trace one run of a CUDA program and print the diagnosis");
  AddTracedRunFlags(command, options->traced);
  command->add_flag("!--no-report", options->report,
                    "Only record: do not analyze the traces after the run");
  command->add_option("command", options->command, "The workload and its arguments, after --")
      ->required()
      ->type_name("-- CMD ARGS...");
  command->footer(
      "Example: ampprof run -o traces -- python train.py --epochs 1\n"
      "Exit status: the workload's own; when signal N killed it, ampprof dies of N after the "
      "report (a shell sees 128 + N); 127/126 when it cannot be started; 1 bad usage, 2 the output "
      "directory is unusable or in use by another run, 3 this build has no collector.");
  // The action owns the options: CLI11 writes into them while parsing, after this function returns.
  return {command, [options] { return Run(*options); }};
}

}  // namespace ampprof::cli
