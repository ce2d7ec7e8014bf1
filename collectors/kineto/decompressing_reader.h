#ifndef AMPPROF_COLLECTORS_KINETO_DECOMPRESSING_READER_H_
#define AMPPROF_COLLECTORS_KINETO_DECOMPRESSING_READER_H_

// Reads a file as a stream of bytes, inflating it on the fly when it is gzip-compressed (told by its
// magic bytes, not its name). Memory is bounded: one compressed and one caller-provided output block.
//
//   ASSIGN_OR_RETURN(auto reader, DecompressingReader::Open("trace.json.gz"));
//   while (true) {
//     ASSIGN_OR_RETURN(size_t got, reader->Read(buffer, sizeof(buffer)));
//     if (got == 0) break;   // end of the data; reader->truncated() says whether it ended early
//   }

#include <zlib.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "src/base/status.h"

namespace ampprof::kineto {

class DecompressingReader {
 public:
  static base::StatusOr<std::unique_ptr<DecompressingReader>> Open(const std::string& path);
  ~DecompressingReader();
  DecompressingReader(const DecompressingReader&) = delete;
  DecompressingReader& operator=(const DecompressingReader&) = delete;

  // Fills up to `size` bytes; returns 0 at the end. A gzip stream that is cut short ends the data
  // (truncated() becomes true) rather than failing: what came before it is still good. Corrupt
  // compressed data is an error.
  base::StatusOr<size_t> Read(char* out, size_t size);

  bool truncated() const { return truncated_; }

 private:
  DecompressingReader(int fd, std::string path);
  base::StatusOr<size_t> ReadFile(uint8_t* out, size_t size);
  base::StatusOr<size_t> Inflate(char* out, size_t size);
  // Reads the next compressed block into input_ and points zlib at it; false at the end of the file.
  base::StatusOr<bool> RefillInput();

  int fd_;
  std::string path_;
  bool compressed_ = false;
  bool truncated_ = false;
  bool finished_ = false;
  uint64_t file_bytes_read_ = 0;
  z_stream zlib_{};
  bool zlib_ready_ = false;
  std::vector<uint8_t> input_;  // the last block read from the file
  size_t input_position_ = 0;   // uncompressed files: how much of the first block was returned
};

}  // namespace ampprof::kineto

#endif  // AMPPROF_COLLECTORS_KINETO_DECOMPRESSING_READER_H_
