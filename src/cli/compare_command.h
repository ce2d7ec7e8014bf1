#ifndef AMPPROF_SRC_CLI_COMPARE_COMMAND_H_
#define AMPPROF_SRC_CLI_COMPARE_COMMAND_H_

// `ampprof compare [options] -- CMD ARGS...`: run a program in FP32 and in mixed precision, trace both
// and explain the difference.

#include <CLI/CLI.hpp>

#include "src/cli/command.h"

namespace ampprof::cli {

CommandAction AddCompareCommand(CLI::App& app);

}  // namespace ampprof::cli

#endif  // AMPPROF_SRC_CLI_COMPARE_COMMAND_H_
