#include "src/cli/launcher.h"

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include <gtest/gtest.h>

namespace ampprof::cli {
namespace {

int Launch(std::vector<std::string> argv, std::vector<std::pair<std::string, std::string>> environment = {}) {
  const base::StatusOr<analyzers::WorkloadOutcome> ended = RunWorkload({std::move(argv), std::move(environment)});
  EXPECT_TRUE(ended.ok()) << ended.status().ToString();
  return ended.ok() ? ended->ShellStatus() : -1;
}

TEST(Launcher, ReturnsTheWorkloadsExitStatus) {
  EXPECT_EQ(Launch({"true"}), 0);
  EXPECT_EQ(Launch({"sh", "-c", "exit 7"}), 7);
}

TEST(Launcher, ReportsDeathBySignalLikeAShell) {
  EXPECT_EQ(Launch({"sh", "-c", "kill -KILL $$"}), 128 + SIGKILL);
}

// 130 from exit(130) and 130 from a death by SIGINT read the same to a shell, but not to a person
// reading why a run ended.
TEST(Launcher, TellsAnExitCodeFromADeathBySignal) {
  const auto exited = RunWorkload({{"sh", "-c", "exit 130"}, {}});
  ASSERT_TRUE(exited.ok());
  EXPECT_EQ(*exited, (analyzers::WorkloadOutcome{.exit_code = 130, .signal = 0}));
  const auto killed = RunWorkload({{"sh", "-c", "kill -TERM $$"}, {}});
  ASSERT_TRUE(killed.ok());
  EXPECT_EQ(*killed, (analyzers::WorkloadOutcome{.exit_code = 0, .signal = SIGTERM}));
  EXPECT_EQ(killed->ShellStatus(), 128 + SIGTERM);
}

TEST(Launcher, SetsTheRequestedEnvironmentOverTheInheritedOne) {
  setenv("AMPPROF_LAUNCHER_TEST", "inherited", 1);
  EXPECT_EQ(Launch({"sh", "-c", "test \"$AMPPROF_LAUNCHER_TEST\" = inherited"}), 0);
  EXPECT_EQ(Launch({"sh", "-c", "test \"$AMPPROF_LAUNCHER_TEST\" = set && test -n \"$PATH\""},
                {{"AMPPROF_LAUNCHER_TEST", "set"}}),
            0);
  unsetenv("AMPPROF_LAUNCHER_TEST");
}

TEST(Launcher, NamesAProgramThatCannotBeStarted) {
  const auto missing = RunWorkload({{"ampprof-no-such-program"}, {}});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), base::StatusCode::kNotFound);
  EXPECT_NE(missing.status().message().find("ampprof-no-such-program"), std::string::npos);
  const auto not_executable = RunWorkload({{"/tmp"}, {}});  // a directory
  ASSERT_FALSE(not_executable.ok());
  EXPECT_EQ(not_executable.status().code(), base::StatusCode::kUnsupported);
  EXPECT_FALSE(RunWorkload({{}, {}}).ok());
}

TEST(Launcher, ForwardsSignalsSentToAmpprof) {
  // The workload exits 42 on SIGTERM; a scheduler's SIGTERM goes to ampprof, not to it.
  std::thread scheduler([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    kill(getpid(), SIGTERM);
  });
  const int status = Launch({"sh", "-c", "trap 'exit 42' TERM; i=0; while [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done; exit 1"});
  scheduler.join();
  EXPECT_EQ(status, 42);
}

}  // namespace
}  // namespace ampprof::cli
