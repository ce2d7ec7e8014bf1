#include "analyzers/report/workload_outcome.h"

#include <csignal>

#include <gtest/gtest.h>

namespace ampprof::analyzers {
namespace {

TEST(WorkloadOutcome, SaysHowTheProgramEndedAndWhatAShellReports) {
  const WorkloadOutcome exited{.exit_code = 3, .signal = 0};
  EXPECT_EQ(DescribeOutcome(exited), "exited with status 3");
  EXPECT_EQ(exited.ShellStatus(), 3);
  const WorkloadOutcome crashed{.exit_code = 0, .signal = SIGSEGV};
  EXPECT_EQ(DescribeOutcome(crashed), "killed by signal 11 (SIGSEGV)");
  EXPECT_EQ(crashed.ShellStatus(), 139);
  EXPECT_EQ(DescribeOutcome({.exit_code = 0, .signal = SIGABRT}), "killed by signal 6 (SIGABRT)");
}

TEST(WorkloadOutcome, NamesEverySignalOrSaysItsNumber) {
  EXPECT_EQ(SignalName(SIGKILL), "SIGKILL");
  EXPECT_EQ(SignalName(SIGINT), "SIGINT");
  EXPECT_EQ(SignalName(200), "signal 200");
}

}  // namespace
}  // namespace ampprof::analyzers
