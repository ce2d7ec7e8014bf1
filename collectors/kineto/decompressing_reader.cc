#include "collectors/kineto/decompressing_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace ampprof::kineto {
namespace {

constexpr size_t kInputBlock = 1 << 20;

}  // namespace

base::StatusOr<std::unique_ptr<DecompressingReader>> DecompressingReader::Open(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int error = errno;
    if (error == ENOENT) return base::NotFoundError("{}: no such file", path);
    return base::IoError("{}: cannot open: {}", path, std::strerror(error));
  }
  std::unique_ptr<DecompressingReader> reader(new DecompressingReader(fd, path));
  // Sniff the gzip magic from the first block; it stays in input_ for whichever path reads it.
  reader->input_.resize(kInputBlock);
  ASSIGN_OR_RETURN(const size_t got, reader->ReadFile(reader->input_.data(), reader->input_.size()));
  reader->input_.resize(got);
  reader->compressed_ = got >= 2 && reader->input_[0] == 0x1f && reader->input_[1] == 0x8b;
  if (reader->compressed_) {
    // 15 + 32: a zlib or gzip stream with the largest window, header detected automatically.
    if (inflateInit2(&reader->zlib_, 15 + 32) != Z_OK) {
      return base::InternalError("{}: inflateInit2 failed", path);
    }
    reader->zlib_ready_ = true;
    reader->zlib_.next_in = reader->input_.data();
    reader->zlib_.avail_in = static_cast<uInt>(got);
  }
  return reader;
}

DecompressingReader::DecompressingReader(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}

DecompressingReader::~DecompressingReader() {
  if (zlib_ready_) inflateEnd(&zlib_);
  ::close(fd_);
}

base::StatusOr<size_t> DecompressingReader::ReadFile(uint8_t* out, size_t size) {
  size_t done = 0;
  while (done < size) {
    const ssize_t got = ::read(fd_, out + done, size - done);
    if (got < 0) {
      if (errno == EINTR) continue;
      return base::IoError("{}: read failed: {}", path_, std::strerror(errno));
    }
    if (got == 0) break;
    done += static_cast<size_t>(got);
  }
  file_bytes_read_ += done;
  return done;
}

base::StatusOr<size_t> DecompressingReader::Read(char* out, size_t size) {
  if (finished_ || size == 0) return size_t{0};
  if (!compressed_) {
    size_t done = 0;
    if (input_position_ < input_.size()) {  // the sniffed first block
      done = std::min(size, input_.size() - input_position_);
      std::memcpy(out, input_.data() + input_position_, done);
      input_position_ += done;
      if (done == size) return done;
    }
    ASSIGN_OR_RETURN(const size_t got, ReadFile(reinterpret_cast<uint8_t*>(out + done), size - done));
    if (done + got == 0) finished_ = true;
    return done + got;
  }
  return Inflate(out, size);
}

base::StatusOr<bool> DecompressingReader::RefillInput() {
  input_.resize(kInputBlock);
  ASSIGN_OR_RETURN(const size_t got, ReadFile(input_.data(), input_.size()));
  input_.resize(got);
  zlib_.next_in = input_.data();
  zlib_.avail_in = static_cast<uInt>(got);
  return got > 0;
}

base::StatusOr<size_t> DecompressingReader::Inflate(char* out, size_t size) {
  zlib_.next_out = reinterpret_cast<Bytef*>(out);
  zlib_.avail_out = static_cast<uInt>(std::min<size_t>(size, UINT32_MAX));
  while (zlib_.avail_out > 0) {
    if (zlib_.avail_in == 0) {
      ASSIGN_OR_RETURN(const bool more, RefillInput());
      if (!more) {
        // The file ended inside the gzip stream: the writer was killed or the copy was cut.
        truncated_ = true;
        finished_ = true;
        break;
      }
    }
    const int result = inflate(&zlib_, Z_NO_FLUSH);
    if (result == Z_STREAM_END) {
      // A file may hold several gzip members one after another (`cat a.gz b.gz`); read on.
      if (zlib_.avail_in == 0) {
        ASSIGN_OR_RETURN(const bool more, RefillInput());
        if (!more) {
          finished_ = true;
          break;
        }
      }
      inflateReset(&zlib_);
      continue;
    }
    if (result != Z_OK && result != Z_BUF_ERROR) {
      return base::InvalidDataError("{}: corrupt gzip data near compressed byte {} ({})", path_,
                                    file_bytes_read_ - zlib_.avail_in,
                                    zlib_.msg != nullptr ? zlib_.msg : "inflate failed");
    }
  }
  return size - zlib_.avail_out;
}

}  // namespace ampprof::kineto
