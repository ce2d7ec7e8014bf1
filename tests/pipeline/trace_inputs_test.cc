// ExpandTraceInputs: what the user named as traces, as the files to read. A directory used to drop
// the traces it could not read or sniff without a word at the default log level, a loop of symbolic
// links failed or passed with the order of the entries, and a FIFO hung the command.

#include "src/pipeline/trace_inputs.h"

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "collectors/records/ampt_writer.h"
#include "src/base/output_target.h"
#include "tests/testing/record_builder.h"
#include "tests/testing/temp_dir.h"

namespace ampprof::pipeline {
namespace {

using ::testing::HasSubstr;
using testing::TempDir;

void WriteTrace(const std::string& path) {
  auto writer = records::AmptWriter::Create(path, {});
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  testing::RecordBuilder b(**writer);
  b.Launch("k", {0, 5}, {10, 20});
  ASSERT_TRUE((*writer)->Close().ok());
}

void WriteText(const std::string& path, std::string_view text) {
  testing::WriteFileBytes(path, std::vector<uint8_t>(text.begin(), text.end()));
}

std::vector<std::string> Names(const TraceInputs& inputs) {
  std::vector<std::string> names;
  for (const TraceFile& file : inputs) names.push_back(file.name);
  return names;
}

// ExpandTraceInputs with what it said on stderr.
struct Expanded {
  base::StatusOr<TraceInputs> inputs;
  std::string stderr_text;
};

Expanded ExpandCapturingStderr(const std::vector<std::string>& paths) {
  ::testing::internal::CaptureStderr();
  auto inputs = ExpandTraceInputs(paths);
  return {std::move(inputs), ::testing::internal::GetCapturedStderr()};
}

TEST(ExpandTraceInputs, NamesEverySkippedEntryWithItsReasonAndKeepsTheTraces) {
  TempDir dir;
  const std::string traces = dir.File("traces");
  std::filesystem::create_directory(traces);
  WriteTrace(traces + "/rank0.ampt");
  WriteText(traces + "/rank1.json", "\xef\xbb\xbf{\"traceEvents\": []}");  // a byte-order mark
  WriteText(traces + "/rank2.json", std::string(4096, ' ') + "{\"traceEvents\": []}");
  WriteText(traces + "/README.txt", "not a trace");
  WriteText(traces + "/empty.ampt", "");
  std::filesystem::create_directory(traces + "/old");
  std::filesystem::create_symlink("nowhere.ampt", traces + "/broken.ampt");
  std::filesystem::create_symlink("loop-b", traces + "/loop-a");
  std::filesystem::create_symlink("loop-a", traces + "/loop-b");
  ASSERT_EQ(::mkfifo((traces + "/live.pipe").c_str(), 0600), 0);
  WriteText(traces + "/report.html",
            "<!DOCTYPE html>");  // ampprof run's own page: passed over quietly

  ::alarm(30);  // the FIFO must not be opened for a blocking read
  const Expanded expanded = ExpandCapturingStderr({traces});
  ::alarm(0);
  ASSERT_TRUE(expanded.inputs.ok()) << expanded.inputs.status().ToString();
  EXPECT_EQ(Names(*expanded.inputs),
            (std::vector<std::string>{traces + "/rank0.ampt", traces + "/rank1.json",
                                      traces + "/rank2.json"}));
  const std::string warning = "ampprof: warning: skipping " + traces;
  EXPECT_EQ(
      expanded.stderr_text,
      warning +
          "/README.txt: not a trace ampprof can read (expected an .ampt trace, PyTorch profiler "
          "JSON "
          "or an Nsight Systems SQLite export)\n" +
          warning + "/broken.ampt: a broken symbolic link (what it points to does not exist)\n" +
          warning + "/empty.ampt: file is empty\n" + warning +
          "/live.pipe: a named pipe (FIFO), not a trace file\n" + warning +
          "/loop-a: a loop of symbolic links\n" + warning + "/loop-b: a loop of symbolic links\n" +
          warning + "/old: a directory (not searched)\n");
}

// The loop used to fail the whole directory when its entry came last and pass when another entry
// came after it (the error code of one entry was overwritten by the next).
TEST(ExpandTraceInputs, ALoopOfSymbolicLinksIsSkippedWhereverItComesInTheDirectory) {
  for (const std::string loop : {"0-loop", "m-loop", "z-loop"}) {
    TempDir dir;
    WriteTrace(dir.File("m.ampt"));
    std::filesystem::create_symlink(loop, dir.File(loop));
    const Expanded expanded = ExpandCapturingStderr({dir.path()});
    ASSERT_TRUE(expanded.inputs.ok()) << loop << ": " << expanded.inputs.status().ToString();
    EXPECT_EQ(expanded.inputs->size(), 1u) << loop;
    EXPECT_THAT(expanded.stderr_text, HasSubstr(loop + ": a loop of symbolic links")) << loop;
  }
}

// As root, permission bits do not stop a read: the check runs in a child that has given root up.
TEST(ExpandTraceInputs, AnUnreadableTraceIsNamedWithTheReason) {
  TempDir dir;
  const std::string traces = dir.File("traces");
  std::filesystem::create_directory(traces);
  ASSERT_EQ(::chmod(dir.path().c_str(), 0755), 0);
  ASSERT_EQ(::chmod(traces.c_str(), 0755), 0);
  WriteTrace(traces + "/a.ampt");
  WriteTrace(traces + "/b.ampt");
  ASSERT_EQ(::chmod((traces + "/a.ampt").c_str(), 0644), 0);
  ASSERT_EQ(::chmod((traces + "/b.ampt").c_str(), 0000), 0);
  const std::string log = dir.File("stderr.txt");
  const int log_fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  ASSERT_GE(log_fd, 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    if (::dup2(log_fd, STDERR_FILENO) < 0) ::_exit(11);
    if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) ::_exit(10);
    const auto inputs = ExpandTraceInputs({traces});
    if (!inputs.ok()) ::_exit(12);
    ::_exit(inputs->size() == 1 && inputs->begin()->name == traces + "/a.ampt" ? 0 : 13);
  }
  ::close(log_fd);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 0);
  const std::vector<uint8_t> said = testing::ReadFileBytes(log);
  EXPECT_EQ(std::string(said.begin(), said.end()),
            "ampprof: warning: skipping " + traces + "/b.ampt: cannot open: Permission denied\n");
}

TEST(ExpandTraceInputs, ADirectoryWithNothingReadableIsAnError) {
  TempDir dir;
  WriteText(dir.File("notes.txt"), "notes");
  const Expanded expanded = ExpandCapturingStderr({dir.path()});
  ASSERT_FALSE(expanded.inputs.ok());
  EXPECT_EQ(expanded.inputs.status().message(),
            dir.path() + ": no trace files in this directory (1 entry skipped, as said above)");
  EXPECT_THAT(expanded.stderr_text, HasSubstr("skipping " + dir.File("notes.txt")));
}

TEST(ExpandTraceInputs, NamedFilesFailWithTheirError) {
  TempDir dir;
  ASSERT_EQ(::mkfifo(dir.File("pipe").c_str(), 0600), 0);
  WriteText(dir.File("notes.txt"), "notes");  // named: read and refused by the loader, not here
  ::alarm(30);
  const auto fifo = ExpandTraceInputs({dir.File("pipe")});
  ::alarm(0);
  EXPECT_THAT(fifo.status().message(), HasSubstr("pipe: is a named pipe (FIFO), not a trace file"));
  EXPECT_EQ(ExpandTraceInputs({dir.File("missing.ampt")}).status().message(),
            dir.File("missing.ampt") + ": no such file");
  const auto notes = ExpandTraceInputs({dir.File("notes.txt")});
  ASSERT_TRUE(notes.ok());
  EXPECT_EQ(notes->begin()->directory, -1);
  EXPECT_EQ(ResolveTraceFile(dir.path()).status().message(),
            dir.path() + ": is a directory, not a trace file");
}

TEST(TraceInputs, SkipGoesOnInADirectoryUntilNothingIsLeft) {
  TempDir dir;
  WriteTrace(dir.File("a.ampt"));
  WriteTrace(dir.File("b.ampt"));
  WriteTrace(dir.File("named.ampt"));
  const auto inputs = ExpandTraceInputs({dir.File("named.ampt"), dir.path()});
  ASSERT_TRUE(inputs.ok());
  ASSERT_EQ(inputs->size(), 4u);  // named.ampt, then the directory's a, b and named
  const std::vector<TraceFile> files(inputs->begin(), inputs->end());
  const base::Status error = base::InvalidDataError("{}: cut short", files[0].name);
  EXPECT_EQ(inputs->Skip(files[0], error), error);  // named by the user: its error stands
  ::testing::internal::CaptureStderr();
  EXPECT_TRUE(inputs->Skip(files[1], base::InvalidDataError("{}: cut short", files[1].name)).ok());
  EXPECT_TRUE(inputs->Skip(files[2], base::InvalidDataError("{}: cut short", files[2].name)).ok());
  const base::Status last =
      inputs->Skip(files[3], base::InvalidDataError("{}: cut short", files[3].name));
  EXPECT_EQ(::testing::internal::GetCapturedStderr(),
            "ampprof: warning: skipping " + dir.File("a.ampt") +
                ": cut short\nampprof: warning: skipping " + dir.File("b.ampt") +
                ": cut short\nampprof: warning: skipping " + dir.File("named.ampt") +
                ": cut short\n");
  EXPECT_EQ(
      last.message(),
      dir.path() + ": no trace in this directory could be read (3 entries skipped, as said above)");
}

TEST(TraceInputs, AnOutputThatIsAnInputIsRefusedThroughAnyLink) {
  TempDir dir;
  std::filesystem::create_directory(dir.File("traces"));
  WriteTrace(dir.File("traces/rank0.ampt"));
  WriteTrace(dir.File("named.ampt"));
  WriteText(dir.File("traces/notes.txt"), "not a trace, not an input");
  std::filesystem::create_symlink("traces/rank0.ampt", dir.File("link.ampt"));
  std::filesystem::create_hard_link(dir.File("named.ampt"), dir.File("hard.ampt"));
  ::testing::internal::CaptureStderr();
  const auto inputs = ExpandTraceInputs({dir.File("named.ampt"), dir.File("traces")});
  ::testing::internal::GetCapturedStderr();
  ASSERT_TRUE(inputs.ok());
  const auto refused = [&](const std::string& path) {
    const auto target = base::OutputTarget::Resolve(path);
    EXPECT_TRUE(target.ok()) << target.status().ToString();
    return inputs->RefuseOutput(*target);
  };
  EXPECT_EQ(refused(dir.File("link.ampt")).message(),
            dir.File("link.ampt") + ": is also an input (" + dir.File("traces/rank0.ampt") +
                "); write the output to another file");
  EXPECT_FALSE(refused(dir.File("hard.ampt")).ok());
  EXPECT_FALSE(refused(dir.File("named.ampt")).ok());
  EXPECT_TRUE(refused(dir.File("traces/notes.txt")).ok());  // skipped, so not read
  EXPECT_TRUE(refused(dir.File("report.txt")).ok());
  EXPECT_TRUE(refused("/dev/null").ok());
}

// Standard input is copied into a private temporary file (the SQLite reader needs a file), removed
// with the TraceInputs; a pipe is fine.
TEST(ExpandTraceInputs, DashIsStandardInputCopiedToATemporaryFile) {
  TempDir dir;
  WriteTrace(dir.File("trace.ampt"));
  const std::vector<uint8_t> trace = testing::ReadFileBytes(dir.File("trace.ampt"));
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  ASSERT_LT(trace.size(), 60000u);  // fits in the pipe, so it can be written before it is read
  ASSERT_EQ(::write(pipe_fds[1], trace.data(), trace.size()), static_cast<ssize_t>(trace.size()));
  ::close(pipe_fds[1]);
  const int saved_stdin = ::dup(STDIN_FILENO);
  ASSERT_EQ(::dup2(pipe_fds[0], STDIN_FILENO), STDIN_FILENO);
  ::close(pipe_fds[0]);
  std::string copy;
  {
    const auto inputs = ExpandTraceInputs({"-"});
    ::dup2(saved_stdin, STDIN_FILENO);
    ::close(saved_stdin);
    ASSERT_TRUE(inputs.ok()) << inputs.status().ToString();
    ASSERT_EQ(inputs->size(), 1u);
    EXPECT_EQ(inputs->begin()->name, "standard input");
    copy = inputs->begin()->path;
    EXPECT_EQ(testing::ReadFileBytes(copy), trace);
    struct stat info;
    ASSERT_EQ(::stat(copy.c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 0077, 0u);  // private
  }
  EXPECT_FALSE(std::filesystem::exists(copy));
  EXPECT_THAT(ExpandTraceInputs({"-", "-"}).status().message(), HasSubstr("more than once"));
}

}  // namespace
}  // namespace ampprof::pipeline
