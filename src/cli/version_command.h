#ifndef AMPPROF_SRC_CLI_VERSION_COMMAND_H_
#define AMPPROF_SRC_CLI_VERSION_COMMAND_H_

#include <CLI/CLI.hpp>

#include "src/cli/command.h"

namespace ampprof::cli {

// `ampprof version` (and `ampprof --version`): the version, the commit, and what this build can do.
CommandAction AddVersionCommand(CLI::App& app);
int PrintVersion();

}  // namespace ampprof::cli

#endif  // AMPPROF_SRC_CLI_VERSION_COMMAND_H_
