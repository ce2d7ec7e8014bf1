#ifndef AMPPROF_SRC_CLI_WORKLOAD_COMMANDS_H_
#define AMPPROF_SRC_CLI_WORKLOAD_COMMANDS_H_

// `ampprof run` and `ampprof compare`: trace a workload, once or in FP32 and mixed precision. Both need
// the CUPTI collector (libampprof_inject.so), which is not part of this version: the commands accept
// their documented command line and say so, exiting with kExitUnavailable, rather than run the workload
// untraced.

#include <CLI/CLI.hpp>

#include "src/cli/command.h"

namespace ampprof::cli {

CommandAction AddRunCommand(CLI::App& app);
CommandAction AddCompareCommand(CLI::App& app);

}  // namespace ampprof::cli

#endif  // AMPPROF_SRC_CLI_WORKLOAD_COMMANDS_H_
