#include "src/cli/open_traces.h"

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "collectors/records/ampt_writer.h"
#include "tests/testing/temp_dir.h"

namespace ampprof::cli {
namespace {

using testing::TempDir;

// A process of the workload still writing `path` after its main process ended: it opens the trace,
// says so, and closes it when told (or when the test ends).
class StillWriting {
 public:
  explicit StillWriting(const std::string& path) {
    int ready[2];
    int done[2];
    if (pipe(ready) != 0 || pipe(done) != 0) return;
    std::fflush(nullptr);
    pid_ = fork();
    if (pid_ == 0) {
      close(ready[0]);
      close(done[1]);
      auto trace = records::AmptWriter::Create(path, {});
      char byte = trace.ok() ? 'o' : 'e';
      static_cast<void>(write(ready[1], &byte, 1));
      static_cast<void>(read(done[0], &byte, 1));
      if (trace.ok()) static_cast<void>((*trace)->Close());
      byte = 'c';
      static_cast<void>(write(ready[1], &byte, 1));
      _exit(0);
    }
    close(ready[1]);
    close(done[0]);
    ready_ = ready[0];
    done_ = done[1];
    char byte = 0;
    opened_ = read(ready_, &byte, 1) == 1 && byte == 'o';
  }
  ~StillWriting() {
    Finish();
    close(ready_);
    waitpid(pid_, nullptr, 0);
  }
  StillWriting(const StillWriting&) = delete;
  StillWriting& operator=(const StillWriting&) = delete;

  bool opened() const { return opened_; }
  pid_t pid() const { return pid_; }
  // Closes the trace and waits until it is closed.
  void Finish() {
    if (done_ < 0) return;
    close(done_);
    done_ = -1;
    char byte = 0;
    static_cast<void>(read(ready_, &byte, 1));
  }

 private:
  pid_t pid_ = -1;
  int ready_ = -1;
  int done_ = -1;
  bool opened_ = false;
};

TEST(OpenTraces, NamesTheTracesStillBeingWrittenAndTheirProcesses) {
  TempDir dir;
  StillWriting writer(dir.File("ampprof-pid12.ampt"));
  ASSERT_TRUE(writer.opened());
  std::vector<std::vector<OpenTrace>> announced;
  const std::vector<OpenTrace> open = WaitForOpenTraces(
      dir.path(), std::chrono::milliseconds(0),
      [&](const std::vector<OpenTrace>& traces) { announced.push_back(traces); });
  ASSERT_EQ(open.size(), 1u);
  EXPECT_EQ(open[0].writer_pid, writer.pid());
  EXPECT_EQ(DescribeOpenTraces(open), fmt::format("ampprof-pid12.ampt (process {})", writer.pid()));
  EXPECT_TRUE(announced.empty()) << "no wait announced when there is no time to wait";
}

TEST(OpenTraces, WaitsUntilTheyAreClosed) {
  TempDir dir;
  StillWriting writer(dir.File("ampprof-pid12.ampt"));
  ASSERT_TRUE(writer.opened());
  std::vector<OpenTrace> announced;
  // The wait is announced before the first look-again, then the writer is told to finish from the
  // announcement, so the test does not depend on timing.
  const std::vector<OpenTrace> open =
      WaitForOpenTraces(dir.path(), std::chrono::minutes(5), [&](const std::vector<OpenTrace>& traces) {
        announced = traces;
        writer.Finish();
      });
  EXPECT_TRUE(open.empty());
  ASSERT_EQ(announced.size(), 1u);
  EXPECT_EQ(announced[0].path, dir.File("ampprof-pid12.ampt"));
}

TEST(OpenTraces, FinishedTracesAreNotWaitedFor) {
  TempDir dir;
  {
    auto trace = records::AmptWriter::Create(dir.File("ampprof-pid7.ampt"), {});
    ASSERT_TRUE(trace.ok());
    ASSERT_TRUE((*trace)->Close().ok());
  }
  bool announced = false;
  EXPECT_TRUE(WaitForOpenTraces(dir.path(), std::chrono::minutes(5),
                                [&](const std::vector<OpenTrace>&) { announced = true; })
                  .empty());
  EXPECT_FALSE(announced);
  EXPECT_EQ(DescribeOpenTraces(std::vector<OpenTrace>(7, {"/d/a.ampt", 3})),
            "a.ampt (process 3), a.ampt (process 3), a.ampt (process 3), a.ampt (process 3), a.ampt "
            "(process 3) and 2 more");
}

}  // namespace
}  // namespace ampprof::cli
