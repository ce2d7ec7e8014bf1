#ifndef AMPPROF_SRC_CLI_ANALYZE_COMMAND_H_
#define AMPPROF_SRC_CLI_ANALYZE_COMMAND_H_

#include <CLI/CLI.hpp>

#include "src/cli/command.h"

namespace ampprof::cli {

// `ampprof analyze TRACE... [--baseline FP32_TRACE] [-o FILE]`: read traces, build a model per trace,
// print the reports (with the comparison against the FP32 run when a baseline is given).
CommandAction AddAnalyzeCommand(CLI::App& app);

}  // namespace ampprof::cli

#endif  // AMPPROF_SRC_CLI_ANALYZE_COMMAND_H_
