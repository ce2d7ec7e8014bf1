#ifndef AMPPROF_SRC_CLI_LAUNCHER_H_
#define AMPPROF_SRC_CLI_LAUNCHER_H_

// The launcher of `ampprof run`/`compare`: starts the workload with extra environment variables, forwards
// the signals sent to ampprof to it, waits, and returns its exit status as a shell reports it, so that a
// wrapped training job behaves like the job itself in scripts and schedulers.
//
//   LaunchRequest request;
//   request.argv = {"python", "train.py"};
//   request.environment = {{"CUDA_INJECTION64_PATH", "/opt/ampprof/lib/libampprof_inject.so"}};
//   ASSIGN_OR_RETURN(const analyzers::WorkloadOutcome ended, RunWorkload(request));
//   return ended.ShellStatus();        // 0, the program's exit code, or 128 + the signal that killed it
//
// Signals: the child stays in ampprof's process group, so a Ctrl-C at the terminal reaches both directly;
// ampprof forwards only signals that another process sent to it (kill, a scheduler's SIGTERM), never the
// terminal's, so the workload does not get a second SIGINT while it handles the first. While the
// workload runs, those signals never end ampprof itself, however many come: it waits for the workload
// and reports on it. Once the workload has ended, they have their usual effect again (a Ctrl-C during
// the analysis stops ampprof; the traces are on disk for `ampprof analyze`). A signal that arrives
// while the child is being started is forwarded once it exists, and none is sent after it was reaped,
// when its pid may already belong to another process.

#include <string>
#include <utility>
#include <vector>

#include "analyzers/report/workload_outcome.h"
#include "src/base/status.h"

namespace ampprof::cli {

struct LaunchRequest {
  std::vector<std::string> argv;  // argv[0] is looked up in PATH
  std::vector<std::pair<std::string, std::string>> environment;  // set in the child, over the inherited ones
};

// The exit status a shell reports for a program that could not be found or executed.
inline constexpr int kExitCommandNotFound = 127;
inline constexpr int kExitCannotExecute = 126;

// Runs the workload to completion. Returns how it ended: its exit code, or the signal that killed it. A
// program that cannot be started is an error naming it and why: kNotFound when it does not exist (the
// CLI exits 127 for it, like a shell), kUnsupported when it cannot be executed (126).
base::StatusOr<analyzers::WorkloadOutcome> RunWorkload(const LaunchRequest& request);

}  // namespace ampprof::cli

#endif  // AMPPROF_SRC_CLI_LAUNCHER_H_
