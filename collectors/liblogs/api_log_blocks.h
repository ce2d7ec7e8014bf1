#ifndef AMPPROF_COLLECTORS_LIBLOGS_API_LOG_BLOCKS_H_
#define AMPPROF_COLLECTORS_LIBLOGS_API_LOG_BLOCKS_H_

// The block format that cuBLAS's logger (CUBLAS_LOGINFO_DBG) and cuDNN's (CUDNN_LOGLEVEL_DBG) share:
// one block per API call, a header line, indented parameter lines, then when and where it was called.
//
//   I! CuDNN (v91200 46) function cudnnBackendSetAttribute() called:
//   i!     descriptor: type=CUDNN_BACKEND_TENSOR_DESCRIPTOR:          <- a parameter with members
//   i!         dimA: type=int; val=[1152,3,14,14];                    <- deeper indent: a member
//   i! Time: 2025-11-14T23:49:41.702901 (0d+0h+1m+39s since start)
//   i! Process=3600; Thread=10156; GPU=NULL; Handle=NULL; StreamId=NULL.
//
//   I! cuBLAS (v11.0) function cublasStatus_t cublasGemmEx(cublasHandle_t, ...) called:
//   i!  m: type=int; val=2
//   i!Process=14102; Thread=...; GPU=0; Handle=...; StreamId=...
//
// W!/w! and E!/e! mark warning and error blocks. cuDNN 9.0's documentation shows the trailer as
// "Process: 21264, Thread: ...", so both "=" and ":" are accepted. BlockReader only splits and
// tokenises; what a block means is up to cublas_log.cc and cudnn_log.cc.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "collectors/liblogs/log_parser.h"

namespace ampprof::liblogs {

struct BlockField {
  int indent = 0;      // spaces after the "i!" marker: members are indented deeper than their parent
  std::string name;    // "dimA"
  std::string type;    // "int"; for a parameter with members, the descriptor type
  std::string value;   // "[1152,3,14,14]", "CUDNN_DATA_HALF (2)", "POINTER (IN HEX:0x...)"
  std::string text;    // everything after "name: ", for fields that are not type=/val= pairs
  bool has_members = false;  // "descriptor: type=CUDNN_BACKEND_TENSOR_DESCRIPTOR:"
};

struct ApiBlock {
  char severity = 'I';      // I, W or E
  std::string library;      // "CuDNN", "cuBLAS"
  std::string function;     // "cudnnBackendFinalize", "cublasGemmEx"
  size_t line = 0;          // 1-based line of the header
  std::vector<BlockField> fields;
  uint32_t pid = 0;
  uint64_t tid = 0;
  std::optional<uint64_t> stream;  // trailer StreamId, when a number

  // Index of the first field named `name` among the members of `parent` (-1: top level), or -1.
  int Find(std::string_view name, int parent = -1) const;
  // The value of Find(name, parent), or "" when there is none.
  std::string_view Value(std::string_view name, int parent = -1) const;
};

// Reads a log line by line. Feed every line; a block is complete when the next header (or the end) comes.
class BlockReader {
 public:
  // Returns a block completed by this line (the previous one), if any.
  std::optional<ApiBlock> Add(std::string_view line);
  std::optional<ApiBlock> Finish();

  size_t lines() const { return lines_; }
  size_t unknown_lines() const { return unknown_lines_; }

 private:
  bool AddToBlock(std::string_view body);

  std::optional<ApiBlock> current_;
  size_t lines_ = 0;
  size_t unknown_lines_ = 0;
};

// A LogParser of a library whose log is made of such blocks (cuBLAS, cuDNN): the reading and the
// line counts are shared; each library says what a completed block contributes to its log.
class BlockLogParser : public LogParser {
 public:
  explicit BlockLogParser(Library library) { log_.library = library; }

  void Add(std::string_view line) final { TakeIfAny(reader_.Add(line)); }
  LibraryLog Finish() final {
    TakeIfAny(reader_.Finish());
    log_.lines = reader_.lines();
    log_.unknown_lines = reader_.unknown_lines();
    return std::move(log_);
  }

 protected:
  virtual void Take(const ApiBlock& block) = 0;

  LibraryLog log_;

 private:
  void TakeIfAny(const std::optional<ApiBlock>& block) {
    if (block) Take(*block);
  }

  BlockReader reader_;
};

// "[1,1152,27,27]" -> {1, 1152, 27, 27}; nullopt when it is not a list of integers.
std::optional<std::vector<int64_t>> ParseIntegerList(std::string_view text);
// "0x7f1f48d80000", "(nil)", "NULL", "12": a handle or id as a number (nil and NULL are 0).
std::optional<uint64_t> ParseHandle(std::string_view text);

}  // namespace ampprof::liblogs

#endif  // AMPPROF_COLLECTORS_LIBLOGS_API_LOG_BLOCKS_H_
