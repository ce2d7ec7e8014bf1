#include "collectors/records/trace_file_lock.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

namespace ampprof::records {
namespace {

// The whole file, however long it grows (l_len 0).
struct flock WholeFile(short type) {
  struct flock lock {};
  lock.l_type = type;
  lock.l_whence = SEEK_SET;
  lock.l_start = 0;
  lock.l_len = 0;
  return lock;
}

}  // namespace

bool LockTraceForWriting(int fd) {
  struct flock lock = WholeFile(F_WRLCK);
  int result;
  do {
    result = ::fcntl(fd, F_SETLK, &lock);
  } while (result != 0 && errno == EINTR);
  return result == 0;
}

std::optional<int64_t> TraceWriterPid(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  // F_GETLK says who would stop this process from taking a read lock: only a writer's lock does.
  struct flock probe = WholeFile(F_RDLCK);
  const bool asked = ::fcntl(fd, F_GETLK, &probe) == 0;
  ::close(fd);
  if (!asked || probe.l_type == F_UNLCK) return std::nullopt;
  return static_cast<int64_t>(probe.l_pid);
}

}  // namespace ampprof::records
