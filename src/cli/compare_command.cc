#include "src/cli/workload_commands.h"

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "src/cli/exit_codes.h"

namespace ampprof::cli {
namespace {

struct WorkloadOptions {
  std::vector<std::string> command;
  std::string output_dir = "ampprof-out";
};

void AddWorkloadOptions(CLI::App* command, WorkloadOptions& options) {
  command->add_option("-d,--output-dir", options.output_dir, "Directory for traces and reports")
      ->type_name("DIR")
      ->capture_default_str();
  command->add_option("command", options.command, "The workload and its arguments, after --")
      ->required()
      ->type_name("-- CMD ARGS...");
}

int CollectorUnavailable(std::string_view name) {
  fmt::print(std::cerr,
             "ampprof {}: tracing a workload needs the CUPTI collector, which is not part of this "
             "version yet; analyze existing traces with 'ampprof analyze'\n",
             name);
  return kExitUnavailable;
}

}  // namespace

CommandAction AddRunCommand(CLI::App& app) {
  auto options = std::make_shared<WorkloadOptions>();
  CLI::App* command = app.add_subcommand("run", "Trace one run of a CUDA program and print the diagnosis");
  AddWorkloadOptions(command, *options);
  command->footer("Example: ampprof run -- python train.py --epochs 1\n"
                  "Exit status: the workload's own; 3 when this build cannot trace (no collector).");
  // The action owns the options: CLI11 writes into them while parsing, after this function returns.
  return {command, [options] { return CollectorUnavailable("run"); }};
}

CommandAction AddCompareCommand(CLI::App& app) {
  auto options = std::make_shared<WorkloadOptions>();
  CLI::App* command = app.add_subcommand(
      "compare", "Run a program in FP32 and in mixed precision, trace both and explain the difference");
  AddWorkloadOptions(command, *options);
  command->footer("Example: ampprof compare -- python train.py\n"
                  "Exit status: the workload's own; 3 when this build cannot trace (no collector).");
  return {command, [options] { return CollectorUnavailable("compare"); }};
}

}  // namespace ampprof::cli
