#include "src/cli/compare_command.h"

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

int CompareUnavailable() {
  fmt::print(std::cerr,
             "ampprof compare: running a workload in FP32 and in mixed precision is not part of this "
             "version yet; trace each run with 'ampprof run -o DIR' and compare them with 'ampprof "
             "analyze AMP_DIR --baseline FP32_DIR'\n");
  return kExitUnavailable;
}

}  // namespace

CommandAction AddCompareCommand(CLI::App& app) {
  auto options = std::make_shared<WorkloadOptions>();
  CLI::App* command = app.add_subcommand(
      "compare", "Run a program in FP32 and in mixed precision, trace both and explain the difference");
  AddWorkloadOptions(command, *options);
  command->footer("Example: ampprof compare -- python train.py\n"
                  "Exit status: the workload's own; 3 when this build cannot trace (no collector).");
  return {command, [options] { return CompareUnavailable(); }};
}

}  // namespace ampprof::cli
