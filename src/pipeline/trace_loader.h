#ifndef AMPPROF_SRC_PIPELINE_TRACE_LOADER_H_
#define AMPPROF_SRC_PIPELINE_TRACE_LOADER_H_

// The one place that picks an importer: it sniffs a file's format from its first bytes (never from
// its name) and hands the file to the matching reader, which delivers records to a RecordSink.
//
//   ASSIGN_OR_RETURN(TraceFormat format, LoadTrace("run.ampt", builder));
//
// Adding an importer = a TraceFormat value, a line in Classify (trace_loader.cc) and a case in
// LoadTrace.
//
// Only regular files are read. A named pipe, a device or a socket given as a trace is refused with
// one line, never opened for a blocking read: opening a FIFO with no writer waits forever, and the
// readers seek. The check is made on the open file itself (open with O_NONBLOCK, then fstat), and
// the importer is handed that same open file, so nothing can swap the path in between.

#include <sys/types.h>

#include <string>
#include <string_view>

#include "collectors/records/record_sink.h"
#include "src/base/status.h"
#include "src/base/unique_fd.h"

namespace ampprof::pipeline {

enum class TraceFormat {
  kAmpt,        // ampprof's own trace (collectors/records)
  kKinetoJson,  // PyTorch profiler Chrome-trace JSON, plain or gzip-compressed
  kNsysSqlite,  // Nsight Systems `nsys export --type sqlite`
  kUnknown,
};

std::string_view TraceFormatName(TraceFormat format);

// "a named pipe (FIFO)", "a character device", ...: what a file that is not a regular file is.
std::string_view FileTypeName(mode_t mode);

// "NAME: not a trace ampprof can read (expected ...)": bytes of no known format.
base::Status NotATraceError(std::string_view name);

// Opens `path` for reading without blocking and checks, on the open file, that it is a regular
// file. Errors name the file as `name`: no such file, cannot open (with the reason), a directory
// (InvalidArgument: "is a directory, not a trace file"), anything else that is not a regular file.
base::StatusOr<base::UniqueFd> OpenTraceFile(const std::string& path, std::string_view name);

// The format of an open trace file from its first bytes. A UTF-8 byte-order mark and blank space
// before a JSON document are skipped, however long, as the JSON reader skips them. Errors only when
// the file cannot be read or is empty; bytes of no known format are TraceFormat::kUnknown.
base::StatusOr<TraceFormat> SniffTraceFormat(int fd, std::string_view name);
base::StatusOr<TraceFormat> SniffTraceFormat(const std::string& path);

// Reads `path` into `sink`. Errors name the file as `name` (the path when empty): the user's name
// for it, e.g. "(standard input)" for the copy of a trace read from there. Data-quality problems go
// to sink.stats(). `threads` > 1 lets an importer that can split one file use that many threads (the
// Kineto JSON importer does; the others read on one); the records are the same either way.
base::StatusOr<TraceFormat> LoadTrace(const std::string& path, records::RecordSink& sink,
                                      std::string_view name = {}, unsigned threads = 1);

}  // namespace ampprof::pipeline

#endif  // AMPPROF_SRC_PIPELINE_TRACE_LOADER_H_
