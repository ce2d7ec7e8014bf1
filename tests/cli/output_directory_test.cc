#include "src/cli/output_directory.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "collectors/records/ampt_writer.h"
#include "tests/testing/temp_dir.h"

namespace ampprof::cli {
namespace {

using testing::TempDir;
namespace fs = std::filesystem;

void Touch(const std::string& path) { std::ofstream(path) << "x"; }

TEST(OutputDirectoryTest, CreatesMissingDirectoriesAndReturnsAnAbsolutePath) {
  TempDir dir;
  const auto prepared = PrepareOutputDirectory(dir.File("a/b/c"), false);
  ASSERT_TRUE(prepared.ok()) << prepared.status().ToString();
  EXPECT_TRUE(fs::is_directory(prepared->path));
  EXPECT_TRUE(fs::path(prepared->path).is_absolute());
  EXPECT_EQ(prepared->path, dir.File("a/b/c"));
}

TEST(OutputDirectoryTest, TracesOfAnEarlierRunAreNeverSilentlyOverwritten) {
  TempDir dir;
  Touch(dir.File("ampprof-pid1.ampt"));
  Touch(dir.File("notes.txt"));
  const auto refused = PrepareOutputDirectory(dir.path(), false);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("--force"), std::string::npos)
      << refused.status().message();
  EXPECT_TRUE(fs::exists(dir.File("ampprof-pid1.ampt")));

  const auto replaced = PrepareOutputDirectory(dir.path(), true);
  ASSERT_TRUE(replaced.ok()) << replaced.status().ToString();
  EXPECT_FALSE(fs::exists(dir.File("ampprof-pid1.ampt")));
  EXPECT_TRUE(fs::exists(dir.File("notes.txt")));  // only traces are ours to remove
}

// Two runs given the same directory at once would read each other's traces and write one
// report.html: the second is refused while the first holds the directory, whatever --force says.
TEST(OutputDirectoryTest, OneRunAtATime) {
  TempDir dir;
  std::optional<base::StatusOr<PreparedOutputDirectory>> first =
      PrepareOutputDirectory(dir.File("out"), false);
  ASSERT_TRUE(first->ok()) << first->status().ToString();
  for (const bool replace : {false, true}) {
    const auto second = PrepareOutputDirectory(dir.File("out"), replace);
    ASSERT_FALSE(second.ok());
    EXPECT_EQ(second.status().message(),
              dir.File("out") +
                  ": another ampprof run is using this directory; wait for it to end, or give "
                  "this run another -o");
  }
  // compare's directory above its runs is held the same way, both ways round.
  EXPECT_FALSE(LockOutputDirectory(dir.File("out")).ok());
  first.reset();
  const auto compare = LockOutputDirectory(dir.File("out"));
  ASSERT_TRUE(compare.ok()) << compare.status().ToString();
  EXPECT_FALSE(PrepareOutputDirectory(dir.File("out"), false).ok());
}

TEST(OutputDirectoryTest, TheWorkloadDoesNotInheritTheLock) {
  TempDir dir;
  const auto prepared = PrepareOutputDirectory(dir.path(), false);
  ASSERT_TRUE(prepared.ok()) << prepared.status().ToString();
  // A program that outlives ampprof must not keep the next run out: the descriptor is
  // close-on-exec.
  bool found = false;
  for (const fs::directory_entry& fd : fs::directory_iterator("/proc/self/fd")) {
    std::error_code error;
    if (fs::read_symlink(fd.path(), error) != fs::path(dir.path())) continue;
    found = true;
    const int flags = fcntl(std::stoi(fd.path().filename().string()), F_GETFD);
    EXPECT_TRUE(flags & FD_CLOEXEC);
  }
  EXPECT_TRUE(found);
}

// --force never deletes a trace that a live process (left over from an earlier run) is still
// writing.
TEST(OutputDirectoryTest, ForceLeavesATraceThatIsStillBeingWritten) {
  TempDir dir;
  int ready[2];
  int done[2];
  ASSERT_EQ(pipe(ready), 0);
  ASSERT_EQ(pipe(done), 0);
  std::fflush(nullptr);
  const pid_t writer = fork();
  if (writer == 0) {
    close(done[1]);  // so that the parent closing its end is the end of the pipe
    auto trace = records::AmptWriter::Create(dir.File("ampprof-pid1.ampt"), {});
    char byte = trace.ok() ? 'o' : 'e';
    static_cast<void>(write(ready[1], &byte, 1));
    static_cast<void>(read(done[0], &byte, 1));
    _exit(0);
  }
  char byte = 0;
  ASSERT_EQ(read(ready[0], &byte, 1), 1);
  ASSERT_EQ(byte, 'o');
  const auto refused = PrepareOutputDirectory(dir.path(), true);
  close(done[1]);
  waitpid(writer, nullptr, 0);
  for (const int fd : {ready[0], ready[1], done[0]}) close(fd);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find(
                fmt::format("ampprof-pid1.ampt: still being written by process {}", writer)),
            std::string::npos)
      << refused.status().message();
  EXPECT_TRUE(fs::exists(dir.File("ampprof-pid1.ampt")));
  EXPECT_TRUE(PrepareOutputDirectory(dir.path(), true).ok())
      << "once its writer is gone, --force replaces it";
}

TEST(OutputDirectoryTest, AFileInTheWayIsAnError) {
  TempDir dir;
  Touch(dir.File("out"));
  const auto prepared = PrepareOutputDirectory(dir.File("out"), false);
  ASSERT_FALSE(prepared.ok());
  EXPECT_NE(prepared.status().message().find("not a directory"), std::string::npos);
}

TEST(OutputDirectoryTest, AnUnwritableDirectoryIsAnErrorBeforeTheRun) {
  if (geteuid() == 0) GTEST_SKIP() << "root writes into read-only directories";
  TempDir dir;
  const std::string locked = dir.File("locked");
  fs::create_directory(locked);
  chmod(locked.c_str(), 0555);
  const auto prepared = PrepareOutputDirectory(locked, false);
  chmod(locked.c_str(), 0755);
  ASSERT_FALSE(prepared.ok());
  EXPECT_NE(prepared.status().message().find("not writable"), std::string::npos);
}

TEST(OutputDirectoryTest, ADirectoryThatCannotBeCreatedIsAnErrorEvenForRoot) {
  const auto prepared = PrepareOutputDirectory("/proc/ampprof-cannot-exist/out", false);
  ASSERT_FALSE(prepared.ok());
  EXPECT_NE(prepared.status().message().find("cannot create the output directory"),
            std::string::npos)
      << prepared.status().message();
}

}  // namespace
}  // namespace ampprof::cli
