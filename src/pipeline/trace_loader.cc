#include "src/pipeline/trace_loader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <span>

#include "collectors/kineto/kineto_importer.h"
#include "collectors/nsys/nsys_importer.h"
#include "collectors/records/ampt_reader.h"

namespace ampprof::pipeline {
namespace {

constexpr std::string_view kSqliteMagic("SQLite format 3\0", 16);

bool StartsWith(std::span<const uint8_t> bytes, std::string_view prefix) {
  return bytes.size() >= prefix.size() &&
         std::memcmp(bytes.data(), prefix.data(), prefix.size()) == 0;
}

bool IsJsonBlank(uint8_t byte) {
  return byte == ' ' || byte == '\n' || byte == '\r' || byte == '\t';
}

// The formats with magic bytes, told from the start of the file.
TraceFormat ClassifyMagic(std::span<const uint8_t> head) {
  if (records::LooksLikeAmpt(head)) return TraceFormat::kAmpt;
  if (StartsWith(head, kSqliteMagic)) return TraceFormat::kNsysSqlite;
  if (head.size() >= 2 && head[0] == 0x1f && head[1] == 0x8b)
    return TraceFormat::kKinetoJson;  // gzip
  return TraceFormat::kUnknown;
}

base::Status Renamed(const base::Status& status, const std::string& from, std::string_view to) {
  if (status.ok() || from == to) return status;
  std::string message = status.message();
  for (size_t at = message.find(from); at != std::string::npos;
       at = message.find(from, at + to.size())) {
    message.replace(at, from.size(), to);
  }
  return base::Status(status.code(), std::move(message));
}

base::Status Import(TraceFormat format, const std::string& path, records::RecordSink& sink, unsigned threads) {
  switch (format) {
    case TraceFormat::kAmpt:
      return records::ReadAmptFile(path, sink);
    case TraceFormat::kKinetoJson:
      return kineto::ImportKinetoTrace(path, sink, {.threads = threads});
    case TraceFormat::kNsysSqlite:
      return nsys::ImportNsysSqlite(path, sink);
    case TraceFormat::kUnknown:
      break;
  }
  return NotATraceError(path);
}

}  // namespace

base::Status NotATraceError(std::string_view name) {
  return base::InvalidDataError(
      "{}: not a trace ampprof can read (expected an .ampt trace, PyTorch profiler JSON or an "
      "Nsight "
      "Systems SQLite export)",
      name);
}

std::string_view TraceFormatName(TraceFormat format) {
  switch (format) {
    case TraceFormat::kAmpt:
      return "ampprof trace";
    case TraceFormat::kKinetoJson:
      return "PyTorch profiler (Kineto) JSON";
    case TraceFormat::kNsysSqlite:
      return "Nsight Systems SQLite export";
    case TraceFormat::kUnknown:
      return "unknown format";
  }
  return "unknown format";
}

std::string_view FileTypeName(mode_t mode) {
  if (S_ISFIFO(mode)) return "a named pipe (FIFO)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISREG(mode)) return "a regular file";
  return "not a regular file";
}

base::StatusOr<base::UniqueFd> OpenTraceFile(const std::string& path, std::string_view name) {
  base::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY));
  if (!fd.valid()) {
    const int error = errno;
    if (error == ENOENT) return base::NotFoundError("{}: no such file", name);
    return base::IoError("{}: cannot open: {}", name, std::strerror(error));
  }
  struct stat info;
  if (::fstat(fd.get(), &info) != 0)
    return base::IoError("{}: cannot stat: {}", name, std::strerror(errno));
  if (S_ISDIR(info.st_mode))
    return base::InvalidArgumentError("{}: is a directory, not a trace file", name);
  if (!S_ISREG(info.st_mode)) {
    return base::InvalidArgumentError(
        "{}: is {}, not a trace file; ampprof reads traces from regular files (give - to read one "
        "from "
        "standard input)",
        name, FileTypeName(info.st_mode));
  }
  return fd;
}

base::StatusOr<TraceFormat> SniffTraceFormat(int fd, std::string_view name) {
  std::array<uint8_t, 4096> block;
  bool saw_byte_order_mark = false;
  for (off_t offset = 0;;) {
    const ssize_t got = ::pread(fd, block.data(), block.size(), offset);
    if (got < 0) {
      if (errno == EINTR) continue;
      return base::IoError("{}: cannot read: {}", name, std::strerror(errno));
    }
    if (got == 0) {
      if (offset == 0) return base::InvalidDataError("{}: file is empty", name);
      return TraceFormat::kUnknown;  // nothing but blank space
    }
    const std::span<const uint8_t> bytes(block.data(), static_cast<size_t>(got));
    if (offset == 0) {
      if (const TraceFormat format = ClassifyMagic(bytes); format != TraceFormat::kUnknown)
        return format;
    }
    // JSON: the first byte after blank space and a byte-order mark (EF BB BF) opens an object or an
    // array.
    for (const uint8_t byte : bytes) {
      if (IsJsonBlank(byte)) continue;
      if (byte == 0xef && !saw_byte_order_mark) {
        saw_byte_order_mark = true;
        continue;
      }
      if (saw_byte_order_mark && (byte == 0xbb || byte == 0xbf)) continue;
      return byte == '{' || byte == '[' ? TraceFormat::kKinetoJson : TraceFormat::kUnknown;
    }
    offset += got;
  }
}

base::StatusOr<TraceFormat> SniffTraceFormat(const std::string& path) {
  ASSIGN_OR_RETURN(const base::UniqueFd fd, OpenTraceFile(path, path));
  return SniffTraceFormat(fd.get(), path);
}

base::StatusOr<TraceFormat> LoadTrace(const std::string& path, records::RecordSink& sink,
                                      std::string_view name, unsigned threads) {
  const std::string shown(name.empty() ? std::string_view(path) : name);
  ASSIGN_OR_RETURN(const base::UniqueFd fd, OpenTraceFile(path, shown));
  ASSIGN_OR_RETURN(const TraceFormat format, SniffTraceFormat(fd.get(), shown));
  // The importers open files by name. They are given the file checked above through its
  // descriptor's name in /proc (reopening it opens this very file, whatever the path names by now),
  // and their messages get the user's name for it back. SQLite resolves that link to the file's
  // current name before it opens it. Without /proc, the path itself.
  std::string opened = "/proc/self/fd/" + std::to_string(fd.get());
  if (::access(opened.c_str(), R_OK) != 0) opened = path;
  RETURN_IF_ERROR(Renamed(Import(format, opened, sink, threads), opened, shown));
  return format;
}

}  // namespace ampprof::pipeline
