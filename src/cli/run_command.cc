#include "src/cli/run_command.h"

#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "reports/text/text_reporter.h"
#include "src/cli/collector_setup.h"
#include "src/cli/exit_codes.h"
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
               reports.status().message());
    return;
  }
  SetWorkloadOutcome(*reports, outcome);
  for (const analyzers::Report& report : *reports) {
    if (!report.summary.collector_note.empty()) {
      fmt::print(std::cerr, "ampprof run: {}: {}\n", report.label, report.summary.collector_note);
    }
  }
  reports::RenderText(*reports, std::cout, {});
  std::cout.flush();
  WriteHtmlReport(*reports, output_dir + "/report.html", "run");
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
  base::StatusOr<std::string> output_dir =
      PrepareOutputDirectory(options.traced.output_dir, options.traced.force);
  if (!output_dir.ok()) {
    fmt::print(std::cerr, "ampprof run: {}\n", output_dir.status().message());
    return kExitBadInput;
  }

  TracedWorkload workload;
  workload.argv = options.command;
  workload.output_dir = *output_dir;
  workload.capture = CaptureOptionsFor(options.traced, *output_dir);
  base::StatusOr<TracedRunResult> result = RunTraced(workload, *collector, "run");
  if (!result.ok()) {
    fmt::print(std::cerr, "ampprof run: {}\n", result.status().message());
    return ExitStatusForLaunchError(result.status());
  }
  if (options.report && result->recorded) {
    if (result->traces.empty()) {
      ExplainNoTrace("run", *output_dir, workload.capture);
    } else {
      ReportOnTraces(result->traces, *output_dir, result->outcome);
    }
  }
  return result->outcome.ShellStatus();
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
      "Exit status: the workload's own (128 + N when signal N killed it); 127/126 when it cannot "
      "be started; 1 bad usage, 2 the output directory is unusable, 3 this build has no "
      "collector.");
  // The action owns the options: CLI11 writes into them while parsing, after this function returns.
  return {command, [options] { return Run(*options); }};
}

}  // namespace ampprof::cli
