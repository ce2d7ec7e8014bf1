#include "src/cli/launcher.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "tests/testing/temp_dir.h"

extern char** environ;

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

// The workload's environment is ampprof's own, as the kernel hands it over (/proc/self/environ of
// the program itself): in its order, duplicates and entries without '=' kept, ampprof's variables
// set in place of the entries of that name or appended.
TEST(Launcher, PassesTheEnvironmentThroughByteForByte) {
  using namespace std::string_literals;
  char zebra[] = "ZEBRA=1";
  char apple[] = "APPLE=2";
  char no_equals[] = "JUST_A_WORD";
  char duplicate_first[] = "DUP=first";
  char set_here[] = "AMPPROF_TEST_SET=old";
  char duplicate_second[] = "DUP=second";
  char set_again[] = "AMPPROF_TEST_SET=older";
  char empty[] = "EMPTY=";
  char* custom[] = {zebra,     apple, no_equals, duplicate_first, set_here, duplicate_second,
                    set_again, empty, nullptr};
  const ampprof::testing::TempDir dir;
  const std::string copy = dir.File("environ");
  char** const saved = environ;
  environ = custom;
  const auto ended = RunWorkload({{"/bin/cp", "/proc/self/environ", copy},
                                  {{"AMPPROF_TEST_SET", "new"}, {"AMPPROF_TEST_ADDED", "x=y"}}});
  environ = saved;
  ASSERT_TRUE(ended.ok()) << ended.status().ToString();
  ASSERT_EQ(ended->ShellStatus(), 0);
  const std::vector<uint8_t> bytes = ampprof::testing::ReadFileBytes(copy);
  EXPECT_EQ(std::string(bytes.begin(), bytes.end()),
            "ZEBRA=1\0APPLE=2\0JUST_A_WORD\0DUP=first\0AMPPROF_TEST_SET=new\0DUP=second\0"
            "AMPPROF_TEST_SET=new\0EMPTY=\0AMPPROF_TEST_ADDED=x=y\0"s);
}

// How a process that calls ExitLikeWorkload(outcome) ends, as its parent (a shell) sees it. The
// signal starts blocked and ignored, as it may be in ampprof after a run.
int EndingOfExitLikeWorkload(const analyzers::WorkloadOutcome& outcome) {
  std::fflush(
      nullptr);  // the child flushes its streams: nothing of the test's may be in them twice
  const pid_t child = fork();
  if (child == 0) {
    signal(SIGINT, SIG_IGN);
    sigset_t blocked;
    sigfillset(&blocked);
    sigprocmask(SIG_BLOCK, &blocked, nullptr);
    const int status = ExitLikeWorkload(outcome);
    _exit(outcome.signal == 0 ? status : 98);  // 98: still alive after the signal
  }
  int status = 0;
  waitpid(child, &status, 0);
  return status;
}

// Ctrl-C stops a shell loop of `ampprof run` commands as it stops the bare loop: ampprof dies of
// the workload's signal rather than exiting with 130 (bash continues a loop after a command that
// exited).
TEST(Launcher, EndsAsTheWorkloadEnded) {
  int status = EndingOfExitLikeWorkload({.exit_code = 7, .signal = 0});
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 7) << status;
  status = EndingOfExitLikeWorkload({.exit_code = 0, .signal = SIGINT});
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) << status;
  status = EndingOfExitLikeWorkload({.exit_code = 0, .signal = SIGKILL});
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << status;
  // The workload wrote its core file, if any; ampprof writes none of its own.
  status = EndingOfExitLikeWorkload({.exit_code = 0, .signal = SIGSEGV});
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV) << status;
  EXPECT_FALSE(WCOREDUMP(status)) << status;
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
