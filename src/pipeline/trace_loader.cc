#include "src/pipeline/trace_loader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>

#include "collectors/kineto/kineto_importer.h"
#include "collectors/nsys/nsys_importer.h"
#include "collectors/records/ampt_reader.h"

namespace ampprof::pipeline {
namespace {

constexpr std::string_view kSqliteMagic("SQLite format 3\0", 16);

bool StartsWith(std::span<const uint8_t> bytes, std::string_view prefix) {
  return bytes.size() >= prefix.size() && std::memcmp(bytes.data(), prefix.data(), prefix.size()) == 0;
}

TraceFormat Classify(std::span<const uint8_t> head) {
  if (records::LooksLikeAmpt(head)) return TraceFormat::kAmpt;
  if (StartsWith(head, kSqliteMagic)) return TraceFormat::kNsysSqlite;
  if (head.size() >= 2 && head[0] == 0x1f && head[1] == 0x8b) return TraceFormat::kKinetoJson;  // gzip
  for (uint8_t byte : head) {  // JSON: the first non-space byte opens an object or an array
    if (byte == ' ' || byte == '\n' || byte == '\r' || byte == '\t') continue;
    return byte == '{' || byte == '[' ? TraceFormat::kKinetoJson : TraceFormat::kUnknown;
  }
  return TraceFormat::kUnknown;
}

}  // namespace

std::string_view TraceFormatName(TraceFormat format) {
  switch (format) {
    case TraceFormat::kAmpt: return "ampprof trace";
    case TraceFormat::kKinetoJson: return "PyTorch profiler (Kineto) JSON";
    case TraceFormat::kNsysSqlite: return "Nsight Systems SQLite export";
    case TraceFormat::kUnknown: return "unknown format";
  }
  return "unknown format";
}

base::StatusOr<TraceFormat> SniffTraceFormat(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int error = errno;
    if (error == ENOENT) return base::NotFoundError("{}: no such file", path);
    return base::IoError("{}: cannot open: {}", path, std::strerror(error));
  }
  struct stat info;
  const bool is_directory = ::fstat(fd, &info) == 0 && S_ISDIR(info.st_mode);
  std::array<uint8_t, 64> head;
  ssize_t got = is_directory ? 0 : ::read(fd, head.data(), head.size());
  const int read_error = errno;
  ::close(fd);
  if (is_directory) return base::InvalidArgumentError("{}: is a directory, not a trace file", path);
  if (got < 0) return base::IoError("{}: cannot read: {}", path, std::strerror(read_error));
  if (got == 0) return base::InvalidDataError("{}: file is empty", path);
  return Classify(std::span<const uint8_t>(head.data(), static_cast<size_t>(got)));
}

base::StatusOr<TraceFormat> LoadTrace(const std::string& path, records::RecordSink& sink) {
  ASSIGN_OR_RETURN(const TraceFormat format, SniffTraceFormat(path));
  switch (format) {
    case TraceFormat::kAmpt:
      RETURN_IF_ERROR(records::ReadAmptFile(path, sink));
      return format;
    case TraceFormat::kKinetoJson:
      RETURN_IF_ERROR(kineto::ImportKinetoTrace(path, sink));
      return format;
    case TraceFormat::kNsysSqlite:
      RETURN_IF_ERROR(nsys::ImportNsysSqlite(path, sink));
      return format;
    case TraceFormat::kUnknown: break;
  }
  return base::InvalidDataError(
      "{}: not a trace ampprof can read (expected an .ampt trace, PyTorch profiler JSON or an Nsight "
      "Systems SQLite export)",
      path);
}

}  // namespace ampprof::pipeline
