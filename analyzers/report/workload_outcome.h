#ifndef AMPPROF_ANALYZERS_REPORT_WORKLOAD_OUTCOME_H_
#define AMPPROF_ANALYZERS_REPORT_WORKLOAD_OUTCOME_H_

// WorkloadOutcome: how the program `ampprof run`/`compare` started ended, as the launcher saw it. A
// report made from that run carries it, so a report of a crashed run says so itself rather than only
// on stderr; `ampprof analyze` of a file has none.
//
//   const WorkloadOutcome died{.exit_code = 0, .signal = SIGSEGV};
//   DescribeOutcome(died);     // "killed by signal 11 (SIGSEGV)"
//   died.ShellStatus();        // 139, what a shell reports, and what ampprof exits with

#include <string>

namespace ampprof::analyzers {

struct WorkloadOutcome {
  int exit_code = 0;  // when the program exited (signal == 0)
  int signal = 0;     // the signal that killed it; 0 when it exited

  // As a shell reports it: the exit code, or 128 + the signal.
  int ShellStatus() const { return signal != 0 ? 128 + signal : exit_code; }
  bool operator==(const WorkloadOutcome&) const = default;
};

// "SIGSEGV"; "signal N" for a number the C library has no name for.
std::string SignalName(int signal);

// "exited with status 0", "killed by signal 11 (SIGSEGV)".
std::string DescribeOutcome(const WorkloadOutcome& outcome);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_REPORT_WORKLOAD_OUTCOME_H_
