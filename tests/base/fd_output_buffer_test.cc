// FdOutputBuffer keeps why a write failed and refuses everything after it, so that a lost report is
// an error naming the reason (std::ofstream on /dev/full only sets failbit, and stdout was never
// checked).

#include "src/base/fd_output_buffer.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <ostream>
#include <string>

#include "tests/testing/temp_dir.h"

namespace ampprof::base {
namespace {

TEST(FdOutputBuffer, WritesEverythingItIsGiven) {
  const testing::TempDir dir;
  const int fd = ::open(dir.File("out").c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  ASSERT_GE(fd, 0);
  {
    FdOutputBuffer buffer(fd);
    std::ostream out(&buffer);
    out << "small ";
    out << std::string(200 * 1024, 'x');  // larger than the buffer: written through
    out << " end";
    ASSERT_TRUE(buffer.Flush());
    EXPECT_EQ(buffer.error(), 0);
  }
  ::close(fd);
  EXPECT_EQ(testing::ReadFileBytes(dir.File("out")).size(), 6 + 200 * 1024 + 4);
}

TEST(FdOutputBuffer, AFullDeviceIsAnErrorWithItsReasonAndStopsTheStream) {
  const int fd = ::open("/dev/full", O_WRONLY | O_CLOEXEC);
  if (fd < 0) GTEST_SKIP() << "no /dev/full here";
  FdOutputBuffer buffer(fd);
  std::ostream out(&buffer);
  out << std::string(100 * 1024, 'x');
  EXPECT_FALSE(out.good());  // at once, not at the end: a writer that checks the stream can stop
  EXPECT_FALSE(buffer.Flush());
  EXPECT_EQ(buffer.error(), ENOSPC);
  ::close(fd);
}

TEST(FdOutputBuffer, AClosedPipeIsAnError) {
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  ::close(pipe_fds[0]);
  struct sigaction ignore {};
  struct sigaction previous {};
  ignore.sa_handler = SIG_IGN;
  ASSERT_EQ(::sigaction(SIGPIPE, &ignore, &previous),
            0);  // as a Python parent leaves it: EPIPE, no signal
  FdOutputBuffer buffer(pipe_fds[1]);
  std::ostream out(&buffer);
  out << "report\n";
  EXPECT_FALSE(buffer.Flush());
  EXPECT_EQ(buffer.error(), EPIPE);
  ::sigaction(SIGPIPE, &previous, nullptr);
  ::close(pipe_fds[1]);
}

}  // namespace
}  // namespace ampprof::base
