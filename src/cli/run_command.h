#ifndef AMPPROF_SRC_CLI_RUN_COMMAND_H_
#define AMPPROF_SRC_CLI_RUN_COMMAND_H_

// `ampprof run [options] -- CMD ARGS...`: trace one run of a program with the CUPTI collector, then
// print the diagnosis of every trace the run wrote (one per process that used CUDA). Exits with the
// workload's own status.

#include <CLI/CLI.hpp>

#include "src/cli/command.h"

namespace ampprof::cli {

CommandAction AddRunCommand(CLI::App& app);

}  // namespace ampprof::cli

#endif  // AMPPROF_SRC_CLI_RUN_COMMAND_H_
