#ifndef AMPPROF_SRC_CLI_LAUNCHER_H_
#define AMPPROF_SRC_CLI_LAUNCHER_H_

// The launcher of `ampprof run`/`compare`: starts the workload with extra environment variables, forwards
// the signals sent to ampprof to it, waits, and returns its exit status as a shell reports it, so that a
// wrapped training job behaves like the job itself in scripts and schedulers.
//
//   LaunchRequest request;
//   request.argv = {"python", "train.py"};
//   request.environment = {{"CUDA_INJECTION64_PATH", "/opt/ampprof/lib/libampprof_inject.so"}};
//   ASSIGN_OR_RETURN(const int status, RunWorkload(request));   // 0, the program's code, or 128 + signal
//
// Signals: the child stays in ampprof's process group, so a Ctrl-C at the terminal reaches both directly;
// ampprof forwards only signals that another process sent to it (kill, a scheduler's SIGTERM), never the
// terminal's, so the workload does not get a second SIGINT while it handles the first.

#include <string>
#include <utility>
#include <vector>

#include "src/base/status.h"

namespace ampprof::cli {

struct LaunchRequest {
  std::vector<std::string> argv;  // argv[0] is looked up in PATH
  std::vector<std::pair<std::string, std::string>> environment;  // set in the child, over the inherited ones
};

// The exit status a shell reports for a program that could not be found or executed.
inline constexpr int kExitCommandNotFound = 127;
inline constexpr int kExitCannotExecute = 126;

// Runs the workload to completion. Returns its exit code, or 128 + the signal that killed it. A program
// that cannot be started is an error naming it and why: kNotFound when it does not exist (the CLI exits
// 127 for it, like a shell), kUnsupported when it cannot be executed (126).
base::StatusOr<int> RunWorkload(const LaunchRequest& request);

}  // namespace ampprof::cli

#endif  // AMPPROF_SRC_CLI_LAUNCHER_H_
