#ifndef AMPPROF_SRC_CLI_OPEN_TRACES_H_
#define AMPPROF_SRC_CLI_OPEN_TRACES_H_

// Traces still being written when the workload's main process has ended. A program may end before its
// children (a shell script that starts training in the background, a launcher that does not wait for
// its workers); their traces are then still growing, and a report made from them at once would count a
// fraction of the kernels and say "no records lost". So `run` waits for them first, for a bounded
// time: a trace is being written while a live process holds its writer's lock
// (collectors/records/trace_file_lock.h), which the kernel drops when that process closes the trace
// or dies.
//
//   const std::vector<OpenTrace> open = WaitForOpenTraces(dir, std::chrono::seconds(60), say_waiting);
//   if (!open.empty()) ... "gave up waiting for " << DescribeOpenTraces(open) ...

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ampprof::cli {

struct OpenTrace {
  std::string path;
  int64_t writer_pid = 0;  // 0 when the writer is outside ampprof's PID namespace
};

// The traces among `traces` that a live process is still writing.
std::vector<OpenTrace> OpenTracesAmong(const std::vector<std::string>& traces);

// Waits until no trace in `dir` is being written (new ones included, as a late child creates its
// own), or until `limit` has passed, looking every 100 ms. `on_wait` is called once, with the open
// traces, when there is something to wait for. Returns the traces still open at the end: empty when
// every one was finished in time.
std::vector<OpenTrace> WaitForOpenTraces(const std::string& dir, std::chrono::milliseconds limit,
                                         const std::function<void(const std::vector<OpenTrace>&)>& on_wait);

// "ampprof-pid12.ampt (process 12), ampprof-pid13.ampt (process 13)": file names only, escaped for the
// terminal, at most 5 named.
std::string DescribeOpenTraces(const std::vector<OpenTrace>& traces);

}  // namespace ampprof::cli

#endif  // AMPPROF_SRC_CLI_OPEN_TRACES_H_
