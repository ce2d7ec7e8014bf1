#include "src/cli/cli_app.h"

#include <memory>
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ostream.h>

#include "src/base/logging.h"
#include "src/base/terminal_text.h"
#include "src/cli/analyze_command.h"
#include "src/cli/classify_command.h"
#include "src/cli/compare_command.h"
#include "src/cli/exit_codes.h"
#include "src/cli/explain_command.h"
#include "src/cli/help_formatter.h"
#include "src/cli/export_command.h"
#include "src/cli/run_command.h"
#include "src/cli/standard_output.h"
#include "src/cli/usage_errors.h"
#include "src/cli/version_command.h"

namespace ampprof::cli {
namespace {

constexpr const char* kDescription =
    "ampprof: why is my mixed-precision (AMP) training not faster than FP32, and what do I change?\n"
    "Traces CUDA workloads, reads traces, and diagnoses launch-bound loops, layout conversions, GEMMs "
    "off the Tensor Cores, GradScaler overhead and benchmarking mistakes.";

constexpr const char* kFooter =
    "Run 'ampprof help COMMAND' (or 'ampprof COMMAND --help') for a command's flags.\n"
    "Exit status: 0 ok, 1 bad usage, 2 unreadable input or unwritable output, 3 not available in this "
    "build, 4 analyze --fail-on found a finding at its level; run and compare exit with the workload's "
    "own status.";

}  // namespace

int RunCli(int argc, char** argv) {
  CLI::App app{kDescription, "ampprof"};
  auto formatter = std::make_shared<HelpFormatter>();
  formatter->label("Positionals", "Arguments");
  formatter->label("OPTIONS", "FLAGS");
  formatter->label("SUBCOMMAND", "COMMAND");
  app.formatter(formatter);  // before the commands: each inherits it
  // At most one command; "none" is reported after parsing, so that an unknown flag is named first.
  app.require_subcommand(0, 1);
  app.fallthrough();  // --log-level may come after the subcommand too
  std::string log_level = "warning";
  app.add_option("--log-level", log_level, "Diagnostics on stderr: trace, debug, info, warning, error, off")
      ->type_name("LEVEL")
      ->capture_default_str();
  bool show_version = false;
  app.add_flag("--version", show_version, "Print the version and what this build supports (as 'ampprof version')");

  const std::vector<CommandAction> actions = {
      AddRunCommand(app),     AddCompareCommand(app), AddAnalyzeCommand(app),
      AddExportCommand(app),  AddExplainCommand(app), AddClassifyCommand(app), AddVersionCommand(app),
  };
  // Set after the commands, which would inherit it: it describes ampprof, not one command.
  app.footer(kFooter);
  std::vector<std::string> command_names;
  for (const CommandAction& action : actions) {
    command_names.push_back(action.command->get_name());
    action.command->group("Commands");  // the help's heading over them
  }

  const base::StatusOr<std::vector<std::string>> arguments = RouteCommandLine(argc, argv, command_names);
  if (!arguments.ok()) {
    fmt::print(std::cerr, "ampprof: {} (see 'ampprof --help')\n",
               base::EscapeControlCharacters(arguments.status().message()));
    return kExitUsage;
  }
  try {
    app.parse(std::vector<std::string>(arguments->rbegin(), arguments->rend()));  // CLI11 pops from the back
  } catch (const CLI::ParseError& error) {
    if (error.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) {
      return app.exit(error);  // --help: prints the help of the command it was given to
    }
    const CLI::App* command = nullptr;
    for (const CommandAction& action : actions) {
      if (action.command->parsed()) command = action.command;
    }
    const std::string who = command == nullptr ? "ampprof" : "ampprof " + command->get_name();
    fmt::print(std::cerr, "{}: {} (see '{} --help')\n", who,
               base::EscapeControlCharacters(DescribeUsageError(error, app, command, *arguments)), who);
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
  if (show_version) return FinishStandardOutput("version", PrintVersion(), false);
  fmt::print(std::cerr, "ampprof: a command is required: run, compare, analyze, export, explain, "
                        "classify or version (see 'ampprof --help')\n");
  return kExitUsage;
}

}  // namespace ampprof::cli
