#include "collectors/records/trace_file_lock.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "collectors/records/ampt_writer.h"
#include "tests/testing/temp_dir.h"

namespace ampprof::records {
namespace {

using testing::TempDir;

// A writer in a process of its own, as the traced workload is (a process never sees its own lock), told
// what to do through a pipe: 'c' close the trace; 'f' fork a child that lives until the pipe closes,
// then exit without closing the trace.
class WriterProcess {
 public:
  explicit WriterProcess(const std::string& path) {
    int commands[2];
    int replies[2];
    if (pipe(commands) != 0 || pipe(replies) != 0) return;
    std::fflush(nullptr);
    pid_ = fork();
    if (pid_ == 0) {
      close(commands[1]);
      close(replies[0]);
      Serve(path, commands[0], replies[1]);
    }
    close(commands[0]);
    close(replies[1]);
    commands_ = commands[1];
    replies_ = replies[0];
  }
  ~WriterProcess() {
    if (commands_ >= 0) close(commands_);
    if (replies_ >= 0) close(replies_);
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  WriterProcess(const WriterProcess&) = delete;
  WriterProcess& operator=(const WriterProcess&) = delete;

  pid_t pid() const { return pid_; }
  // The writer's answer once the trace is open ('o') or after a command ('d'); 0 when it is gone.
  char Reply() {
    char reply = 0;
    return read(replies_, &reply, 1) == 1 ? reply : 0;
  }
  void Send(char command) { ASSERT_EQ(write(commands_, &command, 1), 1); }
  // Waits for the writer process to end (after 'f').
  void Reap() {
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }
  // Ends the process now, the trace still open.
  void Kill() {
    kill(pid_, SIGKILL);
    Reap();
  }

 private:
  [[noreturn]] static void Serve(const std::string& path, int commands, int replies) {
    auto writer = AmptWriter::Create(path, {});
    if (!writer.ok()) _exit(2);
    const auto reply = [&](char c) { static_cast<void>(write(replies, &c, 1)); };
    reply('o');
    for (char command = 0; read(commands, &command, 1) == 1;) {
      if (command == 'c') {
        static_cast<void>((*writer)->Close());
        reply('d');
      } else if (command == 'f') {
        if (fork() == 0) {  // holds every descriptor of its parent, the trace's among them
          char ignored;
          static_cast<void>(read(commands, &ignored, 1));
          _exit(0);
        }
        _exit(0);
      }
    }
    _exit(0);
  }

  pid_t pid_ = -1;
  int commands_ = -1;
  int replies_ = -1;
};

TEST(TraceFileLock, AnOpenTraceNamesItsWriterAndAClosedOneNone) {
  TempDir dir;
  const std::string path = dir.File("ampprof-pid1.ampt");
  WriterProcess writer(path);
  ASSERT_EQ(writer.Reply(), 'o');
  EXPECT_EQ(TraceWriterPid(path), writer.pid()) << "open from the moment its name exists";
  writer.Send('c');
  ASSERT_EQ(writer.Reply(), 'd');
  EXPECT_EQ(TraceWriterPid(path), std::nullopt) << "closed";
}

TEST(TraceFileLock, TheLockDiesWithItsWriter) {
  TempDir dir;
  const std::string path = dir.File("ampprof-pid1.ampt");
  WriterProcess writer(path);
  ASSERT_EQ(writer.Reply(), 'o');
  ASSERT_TRUE(TraceWriterPid(path).has_value());
  writer.Kill();
  EXPECT_EQ(TraceWriterPid(path), std::nullopt);
}

// A DataLoader worker forked by the writer shares its open files; the lock is the process's, so a
// worker that outlives its crashed parent does not make the trace look open.
TEST(TraceFileLock, AChildForkedByTheWriterDoesNotHoldIt) {
  TempDir dir;
  const std::string path = dir.File("ampprof-pid1.ampt");
  WriterProcess writer(path);
  ASSERT_EQ(writer.Reply(), 'o');
  writer.Send('f');
  writer.Reap();  // the writer is gone; its child lives, with the trace's descriptor
  EXPECT_EQ(TraceWriterPid(path), std::nullopt);
}

TEST(TraceFileLock, NoFileNoWriter) {
  TempDir dir;
  EXPECT_EQ(TraceWriterPid(dir.File("missing.ampt")), std::nullopt);
}

}  // namespace
}  // namespace ampprof::records
