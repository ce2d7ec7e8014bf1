#ifndef AMPPROF_SRC_CLI_EXPLAIN_COMMAND_H_
#define AMPPROF_SRC_CLI_EXPLAIN_COMMAND_H_

#include <CLI/CLI.hpp>

#include "src/cli/command.h"

namespace ampprof::cli {

// `ampprof explain [FINDING_ID] [--format text|md]`: a finding's reference page
// (docs/findings/ID.md, built into the binary) rendered for the terminal or as its Markdown, or the
// list of ids. An unknown id is a usage error (exit status 1) with a "did you mean" hint.
CommandAction AddExplainCommand(CLI::App& app);

}  // namespace ampprof::cli

#endif  // AMPPROF_SRC_CLI_EXPLAIN_COMMAND_H_
