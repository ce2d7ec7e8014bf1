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
//   ... report ...
//   return ExitLikeWorkload(ended);   // the program's exit code, or dies of the signal that killed it
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
  // Set in the child. The rest of its environment is ampprof's own, passed byte for byte in its
  // order (duplicates and entries without '=' included); a variable already there gets the new
  // value in place.
  std::vector<std::pair<std::string, std::string>> environment;
};

// The exit status a shell reports for a program that could not be found or executed.
inline constexpr int kExitCommandNotFound = 127;
inline constexpr int kExitCannotExecute = 126;

// Runs the workload to completion. Returns how it ended: its exit code, or the signal that killed it. A
// program that cannot be started is an error naming it and why: kNotFound when it does not exist (the
// CLI exits 127 for it, like a shell), kUnsupported when it cannot be executed (126).
base::StatusOr<analyzers::WorkloadOutcome> RunWorkload(const LaunchRequest& request);

// Ends ampprof the way the workload ended, once the report is written: returns the exit code to
// exit with, or, when a signal killed the workload, makes ampprof die of that same signal (its
// default action restored and the signal unblocked), so that the shell or scheduler above sees the
// death it would have seen without ampprof: bash stops a loop whose command died of SIGINT, not one
// whose command exited 130. stdout and stderr are flushed first. A signal that dumps core leaves no
// second core file (RLIMIT_CORE 0 and not dumpable, for this last moment only). Returns 128 + the
// signal in the one case where the signal does not end the process.
int ExitLikeWorkload(const analyzers::WorkloadOutcome& outcome);

}  // namespace ampprof::cli

#endif  // AMPPROF_SRC_CLI_LAUNCHER_H_
