#ifndef AMPPROF_SRC_PIPELINE_TRACE_LOADER_H_
#define AMPPROF_SRC_PIPELINE_TRACE_LOADER_H_

// The one place that picks an importer: it sniffs a file's format from its first bytes (never from its
// name) and hands the file to the matching reader, which delivers records to a RecordSink.
//
//   ASSIGN_OR_RETURN(TraceFormat format, LoadTrace("run.ampt", builder));
//
// Adding an importer = a TraceFormat value, a line in SniffTraceFormat and a case in LoadTrace.

#include <string>
#include <string_view>

#include "collectors/records/record_sink.h"
#include "src/base/status.h"

namespace ampprof::pipeline {

enum class TraceFormat {
  kAmpt,        // ampprof's own trace (collectors/records)
  kKinetoJson,  // PyTorch profiler Chrome-trace JSON, plain or gzip-compressed
  kNsysSqlite,  // Nsight Systems `nsys export --type sqlite`
  kUnknown,
};

std::string_view TraceFormatName(TraceFormat format);

// Reads the first bytes of `path`. Errors only when the file cannot be read or is empty.
base::StatusOr<TraceFormat> SniffTraceFormat(const std::string& path);

// Reads `path` into `sink`. Errors name the file; data-quality problems go to sink.stats().
base::StatusOr<TraceFormat> LoadTrace(const std::string& path, records::RecordSink& sink);

}  // namespace ampprof::pipeline

#endif  // AMPPROF_SRC_PIPELINE_TRACE_LOADER_H_
