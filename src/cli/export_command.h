#ifndef AMPPROF_SRC_CLI_EXPORT_COMMAND_H_
#define AMPPROF_SRC_CLI_EXPORT_COMMAND_H_

// `ampprof export TRACE --format chrome|nvtxt -o FILE`. The exporters (reports/export) are not part of
// this version: the command validates its command line and the trace, then exits kExitUnavailable.

#include <CLI/CLI.hpp>

#include "src/cli/command.h"

namespace ampprof::cli {

CommandAction AddExportCommand(CLI::App& app);

}  // namespace ampprof::cli

#endif  // AMPPROF_SRC_CLI_EXPORT_COMMAND_H_
