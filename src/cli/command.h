#ifndef AMPPROF_SRC_CLI_COMMAND_H_
#define AMPPROF_SRC_CLI_COMMAND_H_

// A subcommand: Add<Name>Command() declares its flags on a CLI11 subcommand and returns the action to
// run once the command line has parsed. One file pair per subcommand; cli_app.cc lists them.
//
//   CommandAction AddExplainCommand(CLI::App& app) {
//     auto* command = app.add_subcommand("explain", "What a finding means and how to fix it");
//     auto options = std::make_shared<ExplainOptions>();
//     command->add_option("finding", options->id, "Finding id, e.g. gpu.launch_bound");
//     return {command, [options] { return Explain(*options); }};
//   }

#include <functional>

namespace CLI {
class App;
}  // namespace CLI

namespace ampprof::cli {

// `run` must own (capture) whatever the flags are parsed into: CLI11 keeps pointers to it and writes
// during parsing, after Add<Name>Command() has returned.
struct CommandAction {
  CLI::App* command = nullptr;
  std::function<int()> run;  // returns the process exit status
};

}  // namespace ampprof::cli

#endif  // AMPPROF_SRC_CLI_COMMAND_H_
