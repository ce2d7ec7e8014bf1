#include "analyzers/report/workload_outcome.h"

#include <string.h>  // sigabbrev_np (glibc 2.32)

#include <fmt/format.h>

namespace ampprof::analyzers {

std::string SignalName(int signal) {
  const char* name = sigabbrev_np(signal);
  return name != nullptr ? fmt::format("SIG{}", name) : fmt::format("signal {}", signal);
}

std::string DescribeOutcome(const WorkloadOutcome& outcome) {
  if (outcome.signal == 0) return fmt::format("exited with status {}", outcome.exit_code);
  return fmt::format("killed by signal {} ({})", outcome.signal, SignalName(outcome.signal));
}

}  // namespace ampprof::analyzers
