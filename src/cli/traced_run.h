#ifndef AMPPROF_SRC_CLI_TRACED_RUN_H_
#define AMPPROF_SRC_CLI_TRACED_RUN_H_

// One traced run of a workload, as `run` does it once and `compare` does it per mode and repetition:
// the collector's environment (collector_setup.h) over the workload's own, the workload run to the end
// (launcher.h), and the trace files it left in its directory.
//
//   TracedRunFlags flags;                        // -o, --force, --capture-range, --delay, --duration
//   AddTracedRunFlags(command, flags);
//   ...
//   ASSIGN_OR_RETURN(TracedRunResult result, RunTraced(workload, "run"));
//   // result.outcome: how the workload ended; result.traces: what it wrote

#include <chrono>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "analyzers/report/report.h"
#include "src/base/status.h"
#include "src/cli/collector_setup.h"

namespace ampprof::cli {

struct TracedRunFlags {
  std::string output_dir = "ampprof-out";
  bool force = false;
  std::string capture_range = "none";
  std::optional<double> delay_seconds;
  std::optional<double> duration_seconds;
  bool torch_ops = false;
  bool library_logs = false;
  std::string api_calls = "analysed";  // --api-calls: analysed or all
  // How long to wait, once the workload's main process has ended, for traces its other processes
  // are still writing (open_traces.h): longer than any exit flush, shorter than a forgotten
  // background job.
  double trace_wait_seconds = 60.0;
  std::string kernel_rules;  // --kernel-rules FILE: for the analysis after the run
};

void AddTracedRunFlags(CLI::App* command, TracedRunFlags& flags);

// The flags' combinations that make no sense; an error for the user.
base::Status CheckTracedRunFlags(const TracedRunFlags& flags);

CaptureOptions CaptureOptionsFor(const TracedRunFlags& flags, const std::string& output_dir);

struct TracedWorkload {
  std::vector<std::string> argv;
  std::string output_dir;  // prepared (output_directory.h): exists, writable, no earlier traces
  CaptureOptions capture;
  // Set after the collector's variables: the precision a comparison asks for, the Python shim.
  std::vector<std::pair<std::string, std::string>> extra_environment;
  // The longest wait for traces still being written after the workload's main process ended.
  std::chrono::milliseconds trace_wait{0};
};

// The flags' --trace-wait as a duration.
std::chrono::milliseconds TraceWaitFor(const TracedRunFlags& flags);

struct TracedRunResult {
  analyzers::WorkloadOutcome outcome;   // ExitLikeWorkload(outcome): how ampprof ends
  bool recorded = true;                 // false when another tool owned CUDA/NVTX injection
  std::vector<std::string> traces;      // the .ampt files it wrote, sorted
};

// Runs the workload with the collector, then waits (up to workload.trace_wait) for traces that its
// other processes are still writing. Says on stderr (prefixed "ampprof <command>: ") when another
// tool keeps ampprof out, when the workload died of a signal, when it waits for traces and when it
// gives up waiting, naming them. An error only when the workload could not be started (kNotFound:
// 127, otherwise 126, as a shell).
base::StatusOr<TracedRunResult> RunTraced(const TracedWorkload& workload, const CollectorFiles& collector,
                                          std::string_view command);

// The likely reasons for a run that left no trace, printed to stderr.
void ExplainNoTrace(std::string_view command, const std::string& output_dir,
                    const CaptureOptions& capture);

// Every report made from a traced run carries how its workload ended, so that the report itself says
// when the program crashed or was interrupted.
void SetWorkloadOutcome(std::span<analyzers::Report> reports, const analyzers::WorkloadOutcome& outcome);

// The self-contained HTML page of `reports` (reports/html) written to `path`, said on stderr: where it
// is, or one line saying it could not be written (the text report has been printed either way).
void WriteHtmlReport(std::span<const analyzers::Report> reports, const std::string& path,
                     std::string_view command);

// The exit status a shell would report for a workload that could not be started.
int ExitStatusForLaunchError(const base::Status& error);

}  // namespace ampprof::cli

#endif  // AMPPROF_SRC_CLI_TRACED_RUN_H_
