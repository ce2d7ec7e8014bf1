#ifndef AMPPROF_SRC_BASE_UNIQUE_FD_H_
#define AMPPROF_SRC_BASE_UNIQUE_FD_H_

// Owns a file descriptor and closes it when it goes away.
//
//   UniqueFd fd(::open(path, O_RDONLY | O_CLOEXEC));
//   if (!fd.valid()) return IoError(...);
//   ::read(fd.get(), ...);

#include <unistd.h>

#include <utility>

namespace ampprof::base {

class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  UniqueFd(UniqueFd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept {
    if (this != &other) {
      Reset();
      fd_ = std::exchange(other.fd_, -1);
    }
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd() { Reset(); }

  bool valid() const { return fd_ >= 0; }
  int get() const { return fd_; }
  // Gives the descriptor up to a new owner (fdopendir).
  int Release() { return std::exchange(fd_, -1); }
  // Closes now and says whether close(2) succeeded (for a file written to, a failed close can be a
  // lost write).
  bool Close() {
    const int fd = std::exchange(fd_, -1);
    return fd < 0 || ::close(fd) == 0;
  }

 private:
  void Reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

  int fd_ = -1;
};

}  // namespace ampprof::base

#endif  // AMPPROF_SRC_BASE_UNIQUE_FD_H_
