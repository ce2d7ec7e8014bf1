#include "src/base/fd_output_buffer.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace ampprof::base {

FdOutputBuffer::FdOutputBuffer(int fd) : fd_(fd) {
  setp(buffer_.data(), buffer_.data() + buffer_.size());
}

bool FdOutputBuffer::WriteAll(const char* data, size_t size) {
  if (error_ != 0) return false;
  while (size > 0) {
    const ssize_t wrote = ::write(fd_, data, size);
    if (wrote < 0) {
      if (errno == EINTR) continue;
      error_ = errno;
      return false;
    }
    if (wrote ==
        0) {  // not an error write(2) reports, but no progress either: a device that takes nothing
      error_ = EIO;
      return false;
    }
    data += wrote;
    size -= static_cast<size_t>(wrote);
  }
  return true;
}

bool FdOutputBuffer::Flush() {
  const size_t pending = static_cast<size_t>(pptr() - pbase());
  setp(buffer_.data(), buffer_.data() + buffer_.size());
  return WriteAll(buffer_.data(), pending) && error_ == 0;
}

FdOutputBuffer::int_type FdOutputBuffer::overflow(int_type c) {
  if (!Flush()) return traits_type::eof();
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  *pptr() = traits_type::to_char_type(c);
  pbump(1);
  return c;
}

std::streamsize FdOutputBuffer::xsputn(const char* data, std::streamsize size) {
  if (error_ != 0) return 0;
  const auto room = static_cast<std::streamsize>(epptr() - pptr());
  if (size <= room) {
    std::memcpy(pptr(), data, static_cast<size_t>(size));
    pbump(static_cast<int>(size));
    return size;
  }
  // Larger than the room left: write the buffer, then the data itself without copying it.
  if (!Flush() || !WriteAll(data, static_cast<size_t>(size))) return 0;
  return size;
}

int FdOutputBuffer::sync() { return Flush() ? 0 : -1; }

}  // namespace ampprof::base
