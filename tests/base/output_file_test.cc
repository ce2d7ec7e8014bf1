// OutputFile: a regular file is written beside its target and renamed over it only once complete,
// so that a failure never leaves the target empty or half written (`export -o T.json T.json`
// truncated the trace before reading it); every write is checked and a failure names the file and
// the reason.

#include "src/base/output_file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/testing/temp_dir.h"

namespace ampprof::base {
namespace {

using ::testing::HasSubstr;

std::string Contents(const std::string& path) {
  const std::vector<uint8_t> bytes = testing::ReadFileBytes(path);
  return std::string(bytes.begin(), bytes.end());
}

std::vector<std::string> Names(const std::string& directory) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(directory))
    names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::unique_ptr<OutputFile> Open(const std::string& path) {
  auto target = OutputTarget::Resolve(path);
  EXPECT_TRUE(target.ok()) << target.status().ToString();
  auto file = OutputFile::Open(*target);
  EXPECT_TRUE(file.ok()) << file.status().ToString();
  return std::move(*file);
}

TEST(OutputFile, TheTargetIsReplacedOnlyWhenTheOutputIsComplete) {
  const testing::TempDir dir;
  std::ofstream(dir.File("report.txt")) << "the earlier report";
  std::unique_ptr<OutputFile> output = Open(dir.File("report.txt"));
  output->stream() << "the new report";
  EXPECT_EQ(Contents(dir.File("report.txt")), "the earlier report");  // untouched while writing
  ASSERT_TRUE(output->Commit().ok());
  EXPECT_EQ(Contents(dir.File("report.txt")), "the new report");
  EXPECT_EQ(Names(dir.path()), std::vector<std::string>{"report.txt"});  // no temporary file left
}

TEST(OutputFile, AnOutputNotCommittedLeavesTheTargetAsItWasAndNothingElse) {
  const testing::TempDir dir;
  std::ofstream(dir.File("trace.json")) << "the user's trace";
  {
    std::unique_ptr<OutputFile> output = Open(dir.File("trace.json"));
    output->stream() << "half an export";
  }  // an error on the way: dropped
  EXPECT_EQ(Contents(dir.File("trace.json")), "the user's trace");
  {
    std::unique_ptr<OutputFile> output = Open(dir.File("new.json"));
    output->stream() << "half an export";
  }
  EXPECT_EQ(Names(dir.path()), std::vector<std::string>{"trace.json"});
}

TEST(OutputFile, ASymbolicLinkKeepsPointingAtTheReplacedFile) {
  const testing::TempDir dir;
  std::ofstream(dir.File("real.txt")) << "old";
  std::filesystem::create_symlink("real.txt", dir.File("link.txt"));
  std::unique_ptr<OutputFile> output = Open(dir.File("link.txt"));
  output->stream() << "new";
  ASSERT_TRUE(output->Commit().ok());
  EXPECT_TRUE(std::filesystem::is_symlink(dir.File("link.txt")));
  EXPECT_EQ(Contents(dir.File("real.txt")), "new");
}

TEST(OutputFile, PermissionBitsAreKeptOrComeFromTheUmask) {
  const testing::TempDir dir;
  std::ofstream(dir.File("kept.txt")) << "old";
  ASSERT_EQ(::chmod(dir.File("kept.txt").c_str(), 0640), 0);
  const mode_t previous = ::umask(022);
  for (const char* name : {"kept.txt", "new.txt"}) {
    std::unique_ptr<OutputFile> output = Open(dir.File(name));
    output->stream() << "x";
    ASSERT_TRUE(output->Commit().ok());
  }
  ::umask(previous);
  struct stat info;
  ASSERT_EQ(::stat(dir.File("kept.txt").c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 07777, 0640u);
  ASSERT_EQ(::stat(dir.File("new.txt").c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 07777, 0644u);  // mkstemp's 0600 would hide a report from its readers
}

TEST(OutputFile, AFullDeviceIsAnErrorNamingTheOutputAndTheReason) {
  auto target = OutputTarget::Resolve("/dev/full");
  if (!target.ok()) GTEST_SKIP() << "no /dev/full here";
  auto output = OutputFile::Open(*target);
  ASSERT_TRUE(output.ok()) << output.status().ToString();
  (*output)->stream() << std::string(1 << 20, 'x');
  EXPECT_TRUE((*output)->failed());
  EXPECT_EQ((*output)->Commit().message(), "/dev/full: cannot write: No space left on device");
}

TEST(OutputFile, ADescriptorIsWrittenAsItIsAndLeftOpen) {
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  auto target = OutputTarget::Resolve("/dev/fd/" + std::to_string(pipe_fds[1]));
  ASSERT_TRUE(target.ok()) << target.status().ToString();
  auto output = OutputFile::Open(*target);
  ASSERT_TRUE(output.ok());
  (*output)->stream() << "to the pipe";
  ASSERT_TRUE((*output)->Commit().ok());
  EXPECT_EQ(::write(pipe_fds[1], "!", 1), 1);  // still open
  char read_back[16] = {};
  EXPECT_EQ(::read(pipe_fds[0], read_back, sizeof(read_back)), 12);
  EXPECT_STREQ(read_back, "to the pipe!");
  ::close(pipe_fds[0]);
  ::close(pipe_fds[1]);
}

// Ctrl-C while a report is being written leaves no temporary file behind (the child dies of the
// signal, as it would without the handler).
TEST(OutputFile, ASignalRemovesTheTemporaryFile) {
  const testing::TempDir dir;
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto target = OutputTarget::Resolve(dir.File("report.txt"));
    auto output = OutputFile::Open(*target);
    if (!output.ok()) ::_exit(3);
    (*output)->stream() << "partial";
    ::raise(SIGINT);
    ::_exit(4);  // not reached: SIGINT kills
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status)) << "exit status " << WEXITSTATUS(status);
  EXPECT_EQ(WTERMSIG(status), SIGINT);
  EXPECT_TRUE(Names(dir.path()).empty());
}

}  // namespace
}  // namespace ampprof::base
