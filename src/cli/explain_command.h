#ifndef AMPPROF_SRC_CLI_EXPLAIN_COMMAND_H_
#define AMPPROF_SRC_CLI_EXPLAIN_COMMAND_H_

#include <CLI/CLI.hpp>

#include "src/cli/command.h"

namespace ampprof::cli {

// `ampprof explain [FINDING_ID]`: the finding catalog; one entry in full, or the list of ids.
CommandAction AddExplainCommand(CLI::App& app);

}  // namespace ampprof::cli

#endif  // AMPPROF_SRC_CLI_EXPLAIN_COMMAND_H_
