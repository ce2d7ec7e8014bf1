#ifndef AMPPROF_TESTS_FUZZ_FUZZ_INPUT_FILE_H_
#define AMPPROF_TESTS_FUZZ_FUZZ_INPUT_FILE_H_

// The importers read files by path, as users give them. A fuzz input becomes a file the real entry
// points open by path, without disk I/O:
//   - kMemfd: an in-memory file (memfd) reachable as /proc/self/fd/N; the cheapest.
//   - kShmFile: a regular file in /dev/shm (tmpfs). SQLite needs one: it resolves symbolic links before
//     opening, and /proc/self/fd/N of a memfd resolves to "/memfd:... (deleted)", which does not exist,
//     so every input would be rejected at open and the nsys importer would never be fuzzed.

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <string>

namespace ampprof::fuzz {

class FuzzInputFile {
 public:
  enum class Backing { kMemfd, kShmFile };

  FuzzInputFile(const uint8_t* data, size_t size, Backing backing = Backing::kMemfd) {
    if (backing == Backing::kMemfd) {
      fd_ = memfd_create("ampprof-fuzz", MFD_CLOEXEC);
      if (fd_ < 0) std::abort();
      path_ = "/proc/self/fd/" + std::to_string(fd_);
    } else {
      std::string name = "/dev/shm/ampprof-fuzz-XXXXXX";
      fd_ = mkstemp(name.data());
      if (fd_ < 0) std::abort();
      path_ = name;
      unlink_ = true;
    }
    for (size_t done = 0; done < size;) {
      const ssize_t wrote = write(fd_, data + done, size - done);
      if (wrote <= 0) std::abort();
      done += static_cast<size_t>(wrote);
    }
  }
  ~FuzzInputFile() {
    close(fd_);
    if (unlink_) unlink(path_.c_str());
  }
  FuzzInputFile(const FuzzInputFile&) = delete;
  FuzzInputFile& operator=(const FuzzInputFile&) = delete;

  const std::string& path() const { return path_; }

 private:
  int fd_ = -1;
  std::string path_;
  bool unlink_ = false;
};

}  // namespace ampprof::fuzz

#endif  // AMPPROF_TESTS_FUZZ_FUZZ_INPUT_FILE_H_
