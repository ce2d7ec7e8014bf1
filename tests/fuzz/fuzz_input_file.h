#ifndef AMPPROF_TESTS_FUZZ_FUZZ_INPUT_FILE_H_
#define AMPPROF_TESTS_FUZZ_FUZZ_INPUT_FILE_H_

// The importers read files by path, as users give them. A fuzz input becomes an in-memory file
// (memfd) reachable as /proc/self/fd/N, so fuzzing exercises the real entry points without disk I/O.

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <string>

namespace ampprof::fuzz {

class FuzzInputFile {
 public:
  FuzzInputFile(const uint8_t* data, size_t size) : fd_(memfd_create("ampprof-fuzz", MFD_CLOEXEC)) {
    if (fd_ < 0) std::abort();
    for (size_t done = 0; done < size;) {
      const ssize_t wrote = write(fd_, data + done, size - done);
      if (wrote <= 0) std::abort();
      done += static_cast<size_t>(wrote);
    }
  }
  ~FuzzInputFile() { close(fd_); }
  FuzzInputFile(const FuzzInputFile&) = delete;
  FuzzInputFile& operator=(const FuzzInputFile&) = delete;

  std::string path() const { return "/proc/self/fd/" + std::to_string(fd_); }

 private:
  int fd_;
};

}  // namespace ampprof::fuzz

#endif  // AMPPROF_TESTS_FUZZ_FUZZ_INPUT_FILE_H_
