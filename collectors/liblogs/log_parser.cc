#include "collectors/liblogs/log_parser.h"

#include <fstream>
#include <string>
#include <vector>

#include "collectors/liblogs/cublas_log.h"
#include "collectors/liblogs/cublaslt_log.h"
#include "collectors/liblogs/cudnn_log.h"

namespace ampprof::liblogs {
namespace {

// A file is recognised from this many lines at most: a log starts with its library's lines, but a file
// shared by processes may start with a torn line.
constexpr size_t kSniffLines = 64;

// Library log lines are well under a few KiB. A longer "line" (a damaged file, or one with no newline at
// all) is kept only up to this length and the rest skipped, so one line cannot take all memory.
constexpr size_t kMaxLineBytes = size_t{1} << 20;

// std::getline, but storing at most kMaxLineBytes of the line; false at the end of the input.
bool ReadBoundedLine(std::istream& in, std::string& line) {
  line.clear();
  std::streambuf* buffer = in.rdbuf();
  for (bool any = false;; any = true) {
    const int c = buffer->sbumpc();
    if (c == std::char_traits<char>::eof()) {
      if (!any) in.setstate(std::ios::eofbit);
      return any;
    }
    if (c == '\n') return true;
    if (line.size() < kMaxLineBytes) line.push_back(static_cast<char>(c));
  }
}

void StripNewline(std::string_view& line) {
  while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.remove_suffix(1);
}

}  // namespace

std::unique_ptr<LogParser> NewLogParser(Library library) {
  switch (library) {
    case Library::kCublasLt: return NewCublasLtLogParser();
    case Library::kCublas: return NewCublasLogParser();
    case Library::kCudnn: return NewCudnnLogParser();
  }
  return NewCublasLtLogParser();
}

std::optional<Library> LibraryOfLine(std::string_view line) {
  LibraryCall ignored;
  if (ParseCublasLtLine(line, ignored) != CublasLtLine::kUnknown) return Library::kCublasLt;
  if (line.size() > 3 && (line[0] == 'I' || line[0] == 'W' || line[0] == 'E') && line[1] == '!') {
    const std::string_view rest = line.substr(2);
    if (rest.find(" function ") == std::string_view::npos) return std::nullopt;
    if (rest.starts_with(" cuBLAS ")) return Library::kCublas;
    if (rest.starts_with(" CuDNN ") || rest.starts_with(" cuDNN ")) return Library::kCudnn;
  }
  return std::nullopt;
}

LibraryLog ParseLibraryLog(Library library, std::string_view text) {
  std::unique_ptr<LogParser> parser = NewLogParser(library);
  while (!text.empty()) {
    const size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    StripNewline(line);
    parser->Add(line);
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return parser->Finish();
}

base::StatusOr<LibraryLog> ParseLibraryLogFile(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return base::IoError("{}: cannot open the library log", path.string());
  // Recognise the library from the first lines, then replay them into its parser and stream the rest.
  std::vector<std::string> head;
  std::optional<Library> library;
  std::string line;
  while (!library && head.size() < kSniffLines && ReadBoundedLine(file, line)) {
    std::string_view view(line);
    StripNewline(view);
    library = LibraryOfLine(view);
    head.push_back(std::move(line));
  }
  if (file.bad()) return base::IoError("{}: read error", path.string());
  if (!library) {
    if (head.empty()) return base::InvalidDataError("{}: the library log is empty", path.string());
    return base::InvalidDataError("{}: not a cuBLASLt, cuBLAS or cuDNN API log (no line of theirs in the first {})",
                                  path.string(), kSniffLines);
  }
  std::unique_ptr<LogParser> parser = NewLogParser(*library);
  for (const std::string& kept : head) {
    std::string_view view(kept);
    StripNewline(view);
    parser->Add(view);
  }
  while (ReadBoundedLine(file, line)) {
    std::string_view view(line);
    StripNewline(view);
    parser->Add(view);
  }
  if (file.bad()) return base::IoError("{}: read error", path.string());
  return parser->Finish();
}

}  // namespace ampprof::liblogs
