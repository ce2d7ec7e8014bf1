#include "src/pipeline/standard_input_copy.h"

#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "src/base/unique_fd.h"

namespace ampprof::pipeline {
namespace {

constexpr size_t kBlockBytes = size_t{1} << 20;

std::string TemporaryDirectory() {
  const char* directory = std::getenv("TMPDIR");
  return directory != nullptr && *directory != '\0' ? directory : "/tmp";
}

// read(2) from standard input, waiting when someone left it non-blocking.
ssize_t ReadStandardInput(char* buffer, size_t size) {
  for (;;) {
    const ssize_t got = ::read(STDIN_FILENO, buffer, size);
    if (got >= 0) return got;
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) return -1;
    struct pollfd readable {
      STDIN_FILENO, POLLIN, 0
    };
    ::poll(&readable, 1, -1);
  }
}

bool WriteAll(int fd, const char* data, size_t size) {
  while (size > 0) {
    const ssize_t wrote = ::write(fd, data, size);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) {
      if (wrote == 0) errno = EIO;
      return false;
    }
    data += wrote;
    size -= static_cast<size_t>(wrote);
  }
  return true;
}

}  // namespace

base::StatusOr<std::unique_ptr<StandardInputCopy>> StandardInputCopy::Create() {
  const std::string directory = TemporaryDirectory();
  std::string path = directory + "/ampprof-stdin-XXXXXX";
  base::UniqueFd fd(::mkostemp(path.data(), O_CLOEXEC));
  if (!fd.valid()) {
    return base::IoError("{}: cannot make a temporary copy in {} (TMPDIR chooses where): {}", kName,
                         directory, std::strerror(errno));
  }
  std::unique_ptr<StandardInputCopy> copy(
      new StandardInputCopy(path));  // removes the file from here on
  struct stat info;
  if (::fstat(STDIN_FILENO, &info) == 0 && S_ISREG(info.st_mode))
    copy->source_ = base::FileIdentity::Of(info);
  std::vector<char> block(kBlockBytes);
  for (;;) {
    const ssize_t got = ReadStandardInput(block.data(), block.size());
    if (got < 0) return base::IoError("{}: cannot read: {}", kName, std::strerror(errno));
    if (got == 0) break;
    if (!WriteAll(fd.get(), block.data(), static_cast<size_t>(got))) {
      return base::IoError("{}: cannot copy it to {} (TMPDIR chooses where): {}", kName, path,
                           std::strerror(errno));
    }
  }
  if (!fd.Close()) {
    return base::IoError("{}: cannot copy it to {} (TMPDIR chooses where): {}", kName, path,
                         std::strerror(errno));
  }
  return copy;
}

StandardInputCopy::~StandardInputCopy() { ::unlink(path_.c_str()); }

}  // namespace ampprof::pipeline
