#include "src/cli/cli_app.h"

#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ostream.h>

#include "src/base/logging.h"
#include "src/cli/analyze_command.h"
#include "src/cli/classify_command.h"
#include "src/cli/compare_command.h"
#include "src/cli/exit_codes.h"
#include "src/cli/explain_command.h"
#include "src/cli/export_command.h"
#include "src/cli/run_command.h"
#include "src/cli/standard_output.h"
#include "src/cli/version_command.h"

namespace ampprof::cli {
namespace {

constexpr const char* kDescription =
    "ampprof: why is my mixed-precision (AMP) training not faster than FP32, and what do I change?\n"
    "Traces CUDA workloads, reads traces, and diagnoses launch-bound loops, layout conversions, GEMMs "
    "off the Tensor Cores, GradScaler overhead and benchmarking mistakes.";

constexpr const char* kFooter =
    "Run 'ampprof COMMAND --help' for a command's flags.\n"
    "Exit status: 0 ok, 1 bad usage, 2 unreadable input or unwritable output, 3 not available in this "
    "build, 4 analyze --fail-on found a finding at its level; run and compare exit with the workload's "
    "own status.";

std::string OneLine(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

}  // namespace

int RunCli(int argc, char** argv) {
  CLI::App app{kDescription, "ampprof"};
  app.footer(kFooter);
  // At most one command; "none" is reported after parsing, so that an unknown flag is named first.
  app.require_subcommand(0, 1);
  app.fallthrough();  // --log-level may come after the subcommand too
  std::string log_level = "warning";
  app.add_option("--log-level", log_level, "Diagnostics on stderr: trace, debug, info, warning, error, off")
      ->capture_default_str();

  const std::vector<CommandAction> actions = {
      AddRunCommand(app),     AddCompareCommand(app), AddAnalyzeCommand(app),
      AddExportCommand(app),  AddExplainCommand(app), AddClassifyCommand(app), AddVersionCommand(app),
  };

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    if (error.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) {
      return app.exit(error);  // --help: prints the help of the command it was given to
    }
    std::string hint = "ampprof --help";
    for (const CommandAction& action : actions) {
      if (action.command->parsed()) hint = fmt::format("ampprof {} --help", action.command->get_name());
    }
    fmt::print(std::cerr, "ampprof: {} (see '{}')\n", OneLine(error.what()), hint);
    return kExitUsage;
  }

  const auto level = base::ParseLogLevel(log_level);
  if (!level.ok()) {
    fmt::print(std::cerr, "ampprof: {}\n", level.status().message());
    return kExitUsage;
  }
  base::SetLogLevel(*level);

  for (const CommandAction& action : actions) {
    if (!action.command->parsed()) continue;
    // run and compare exit with their workload's status: a lost report is said, not folded into it.
    const std::string& name = action.command->get_name();
    return FinishStandardOutput(name, action.run(), name == "run" || name == "compare");
  }
  fmt::print(std::cerr, "ampprof: a command is required: run, compare, analyze, export, explain, "
                        "classify or version (see 'ampprof --help')\n");
  return kExitUsage;
}

}  // namespace ampprof::cli
