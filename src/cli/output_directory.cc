#include "src/cli/output_directory.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>
#include <system_error>
#include <utility>
#include <vector>

#include "collectors/records/trace_file_lock.h"
#include "src/base/terminal_text.h"

namespace ampprof::cli {

namespace fs = std::filesystem;

OutputDirectoryLock::~OutputDirectoryLock() {
  if (fd_ >= 0) ::close(fd_);
}

OutputDirectoryLock::OutputDirectoryLock(OutputDirectoryLock&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)) {}

OutputDirectoryLock& OutputDirectoryLock::operator=(OutputDirectoryLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

base::StatusOr<OutputDirectoryLock> OutputDirectoryLock::Acquire(const std::string& directory,
                                                                 const std::string& shown) {
  const int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    return base::IoError("{}: cannot open the output directory: {}", shown, std::strerror(errno));
  int locked;
  do {
    locked = ::flock(fd, LOCK_EX | LOCK_NB);
  } while (locked != 0 && errno == EINTR);
  if (locked != 0 && errno == EWOULDBLOCK) {
    ::close(fd);
    return base::InvalidArgumentError(
        "{}: another ampprof run is using this directory; wait for it to end, or give this run "
        "another -o",
        shown);
  }
  return OutputDirectoryLock(fd);  // locked, or on a file system without locks (ENOLCK, EINVAL)
}

namespace {

// The directory `path`, absolute, created if missing, and locked by this run.
base::StatusOr<PreparedOutputDirectory> CreateAndLock(const std::string& path) {
  std::error_code error;
  const fs::path directory = fs::absolute(path, error);
  if (error) return base::IoError("{}: {}", path, error.message());
  if (fs::exists(directory, error) && !fs::is_directory(directory, error)) {
    return base::InvalidArgumentError("{}: exists and is not a directory", path);
  }
  fs::create_directories(directory, error);
  if (error)
    return base::IoError("{}: cannot create the output directory: {}", path, error.message());
  PreparedOutputDirectory prepared;
  prepared.path = directory.lexically_normal().string();
  ASSIGN_OR_RETURN(prepared.lock, OutputDirectoryLock::Acquire(prepared.path, path));
  return prepared;
}

}  // namespace

base::StatusOr<PreparedOutputDirectory> LockOutputDirectory(const std::string& path) {
  return CreateAndLock(path);
}

base::StatusOr<PreparedOutputDirectory> PrepareOutputDirectory(const std::string& path,
                                                               bool replace) {
  // Locked first: the traces in it may be another run's, still being written, and not ours to
  // judge.
  ASSIGN_OR_RETURN(PreparedOutputDirectory prepared, CreateAndLock(path));
  if (access(prepared.path.c_str(), W_OK | X_OK) != 0) {
    return base::IoError("{}: the output directory is not writable", path);
  }
  // A disk that is already full would leave every process without a trace; one that fills during
  // the run is the writer's business (it counts what it could not write).
  struct statvfs space {};
  if (statvfs(prepared.path.c_str(), &space) == 0 && space.f_bavail == 0) {
    return base::IoError("{}: no space left on the output directory's device", path);
  }

  ASSIGN_OR_RETURN(const std::vector<std::string> earlier, AmptTracesIn(prepared.path));
  if (!earlier.empty() && !replace) {
    return base::InvalidArgumentError(
        "{}: holds {} trace(s) of an earlier run ({}...); pass --force to replace them, or -o "
        "another directory",
        path, earlier.size(),
        base::EscapeControlCharacters(fs::path(earlier.front()).filename().string()));
  }
  for (const std::string& trace : earlier) {
    // A process of an earlier run that outlived its ampprof still writes there; deleting its trace
    // would not stop it, and its next run would find the directory in use again.
    if (const std::optional<int64_t> writer = records::TraceWriterPid(trace)) {
      return base::InvalidArgumentError(
          "{}: still being written by process {} (of an earlier run); end it, or give this run "
          "another -o",
          base::EscapeControlCharacters(trace), *writer);
    }
  }
  std::error_code error;
  for (const std::string& trace : earlier) {
    fs::remove(trace, error);
    if (error)
      return base::IoError("{}: cannot remove: {}", base::EscapeControlCharacters(trace),
                           error.message());
  }
  return prepared;
}

base::StatusOr<std::vector<std::string>> AmptTracesIn(const std::string& dir) {
  std::vector<std::string> traces;
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, error)) {
    if (entry.path().extension() == ".ampt") traces.push_back(entry.path().string());
  }
  if (error) return base::IoError("{}: cannot list the directory: {}", dir, error.message());
  std::sort(traces.begin(), traces.end());
  return traces;
}

}  // namespace ampprof::cli
