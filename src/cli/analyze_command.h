#ifndef AMPPROF_SRC_CLI_ANALYZE_COMMAND_H_
#define AMPPROF_SRC_CLI_ANALYZE_COMMAND_H_

#include <CLI/CLI.hpp>

#include "src/cli/command.h"

namespace ampprof::cli {

// `ampprof analyze TRACE... [-o FILE]`: read traces, build one model, print the report.
CommandAction AddAnalyzeCommand(CLI::App& app);

}  // namespace ampprof::cli

#endif  // AMPPROF_SRC_CLI_ANALYZE_COMMAND_H_
