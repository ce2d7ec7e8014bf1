#ifndef AMPPROF_SRC_BASE_FD_OUTPUT_BUFFER_H_
#define AMPPROF_SRC_BASE_FD_OUTPUT_BUFFER_H_

// A std::streambuf that writes to a file descriptor and remembers why a write failed.
//
//   FdOutputBuffer buffer(STDOUT_FILENO);
//   std::ostream out(&buffer);
//   out << report;
//   if (!buffer.Flush()) fmt::print(stderr, "cannot write: {}\n", std::strerror(buffer.error()));
//
// std::ofstream and std::cout say only that a write failed, not why (a full disk, a closed pipe, an
// I/O error), and keep accepting output after a failure. Here the first failed write(2) is kept as
// its errno, everything after it is refused (the stream goes bad at once, so a writer that checks
// the stream stops instead of producing the rest), and short writes and EINTR are retried. The
// descriptor is not closed.

#include <array>
#include <streambuf>

namespace ampprof::base {

class FdOutputBuffer final : public std::streambuf {
 public:
  explicit FdOutputBuffer(int fd);
  FdOutputBuffer(const FdOutputBuffer&) = delete;
  FdOutputBuffer& operator=(const FdOutputBuffer&) = delete;
  ~FdOutputBuffer() override = default;  // unflushed bytes are dropped: Flush() is the checked path

  // Writes what is buffered; false if this or any earlier write failed.
  bool Flush();
  // The errno of the first failed write, 0 while every write succeeded.
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* data, std::streamsize size) override;
  int sync() override;

 private:
  bool WriteAll(const char* data, size_t size);

  int fd_;
  int error_ = 0;
  std::array<char, 64 * 1024> buffer_;
};

}  // namespace ampprof::base

#endif  // AMPPROF_SRC_BASE_FD_OUTPUT_BUFFER_H_
