#ifndef AMPPROF_COLLECTORS_LIBLOGS_LOG_PARSER_H_
#define AMPPROF_COLLECTORS_LIBLOGS_LOG_PARSER_H_

// Reading a library's API log line by line: logs at the levels that show every call grow to gigabytes,
// so they are streamed, never held whole.
//
//   std::unique_ptr<LogParser> parser = NewLogParser(Library::kCudnn);
//   while (std::getline(file, line)) parser->Add(line);
//   LibraryLog log = parser->Finish();
//
// ParseLibraryLog / ParseLibraryLogFile do this for text and for files, recognising the library from the
// content.

#include <filesystem>
#include <memory>
#include <optional>
#include <string_view>

#include "collectors/liblogs/library_call.h"
#include "src/base/status.h"

namespace ampprof::liblogs {

class LogParser {
 public:
  virtual ~LogParser() = default;
  virtual void Add(std::string_view line) = 0;  // one line, without its newline
  virtual LibraryLog Finish() = 0;              // once, after the last line
};

std::unique_ptr<LogParser> NewLogParser(Library library);

// Which library wrote `line`, if the line says so (a cuBLASLt line, a cuBLAS or cuDNN block header).
std::optional<Library> LibraryOfLine(std::string_view line);

// Parses log text of the given library (lines split at LF or CRLF).
LibraryLog ParseLibraryLog(Library library, std::string_view text);

// Parses a log file, recognising the library from its first recognisable line. A file that cannot be
// read, is empty or is no library's log is an error naming the file.
base::StatusOr<LibraryLog> ParseLibraryLogFile(const std::filesystem::path& path);

}  // namespace ampprof::liblogs

#endif  // AMPPROF_COLLECTORS_LIBLOGS_LOG_PARSER_H_
