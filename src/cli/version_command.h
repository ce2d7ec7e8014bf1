#ifndef AMPPROF_SRC_CLI_VERSION_COMMAND_H_
#define AMPPROF_SRC_CLI_VERSION_COMMAND_H_

#include <CLI/CLI.hpp>

#include "src/cli/command.h"

namespace ampprof::cli {

// `ampprof version`: the version, the commit, and what this build can do.
CommandAction AddVersionCommand(CLI::App& app);

}  // namespace ampprof::cli

#endif  // AMPPROF_SRC_CLI_VERSION_COMMAND_H_
