#include "src/pipeline/trace_inputs.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string_view>

#include "collectors/liblogs/log_environment.h"
#include "src/base/logging.h"
#include "src/base/unique_fd.h"
#include "src/pipeline/standard_input_copy.h"
#include "src/pipeline/trace_loader.h"

namespace ampprof::pipeline {
namespace {

// The names in a directory, sorted, so that what is read and what is said comes in the same order
// whatever the file system's order.
base::StatusOr<std::vector<std::string>> ListDirectory(const std::string& path, DIR* directory) {
  std::vector<std::string> names;
  for (;;) {
    errno = 0;
    const dirent* entry = ::readdir(directory);
    if (entry == nullptr) {
      if (errno != 0)
        return base::IoError("{}: cannot list the directory: {}", path, std::strerror(errno));
      break;
    }
    const std::string_view name = entry->d_name;
    if (name != "." && name != "..") names.emplace_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

// What ampprof itself writes beside the traces of `run` and `compare` (docs/design.md): not traces,
// and there in every such directory, so they are passed over without a warning that would come
// every time.
std::optional<std::string_view> AmpprofCompanion(const std::string& name) {
  if (name == "report.html") return "the HTML report of ampprof run or compare";
  if (liblogs::LibraryOfLogFileName(name)) return "a library log of ampprof run --library-logs";
  return std::nullopt;
}

// An entry of a directory as a trace file, or the reason it is not one (an error naming the entry).
// fstatat follows symbolic links, so a link is judged by what it leads to; the entry is opened
// without blocking and checked again once open, in case it changed in between.
base::StatusOr<TraceFile> InspectEntry(int directory, const std::string& name,
                                       const std::string& entry) {
  struct stat info;
  if (::fstatat(directory, name.c_str(), &info, 0) != 0) {
    const int error = errno;
    struct stat link;
    if (error == ELOOP) return base::IoError("{}: a loop of symbolic links", entry);
    if (error == ENOENT && ::fstatat(directory, name.c_str(), &link, AT_SYMLINK_NOFOLLOW) == 0 &&
        S_ISLNK(link.st_mode)) {
      return base::IoError("{}: a broken symbolic link (what it points to does not exist)", entry);
    }
    return base::IoError("{}: {}", entry, std::strerror(error));
  }
  if (S_ISDIR(info.st_mode))
    return base::InvalidArgumentError("{}: a directory (not searched)", entry);
  if (!S_ISREG(info.st_mode)) {
    return base::InvalidArgumentError("{}: {}, not a trace file", entry,
                                      FileTypeName(info.st_mode));
  }
  const base::UniqueFd fd(
      ::openat(directory, name.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY));
  if (!fd.valid()) return base::IoError("{}: cannot open: {}", entry, std::strerror(errno));
  if (::fstat(fd.get(), &info) != 0 || !S_ISREG(info.st_mode)) {
    return base::InvalidArgumentError("{}: not a regular file", entry);
  }
  ASSIGN_OR_RETURN(const TraceFormat format, SniffTraceFormat(fd.get(), entry));
  if (format == TraceFormat::kUnknown) return NotATraceError(entry);
  TraceFile file(entry);
  file.identity = base::FileIdentity::Of(info);
  return file;
}

}  // namespace

TraceInputs::TraceInputs() = default;
TraceInputs::~TraceInputs() = default;
TraceInputs::TraceInputs(TraceInputs&&) noexcept = default;
TraceInputs& TraceInputs::operator=(TraceInputs&&) noexcept = default;

base::Status TraceInputs::Add(const std::string& path, bool directories_allowed) {
  if (path == "-") {
    if (standard_input_ != nullptr) {
      return base::InvalidArgumentError(
          "- (standard input) is given more than once; it can be read once");
    }
    ASSIGN_OR_RETURN(standard_input_, StandardInputCopy::Create());
    TraceFile file(standard_input_->path());
    file.name = StandardInputCopy::kName;
    file.identity = standard_input_->source();
    files_.push_back(std::move(file));
    return base::OkStatus();
  }
  // O_DIRECTORY fails (ENOTDIR) before anything else is opened, so a named pipe is not waited on
  // here.
  base::UniqueFd directory(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_DIRECTORY));
  if (directory.valid()) {
    if (!directories_allowed)
      return base::InvalidArgumentError("{}: is a directory, not a trace file", path);
    return AddDirectory(path, directory.Release());
  }
  ASSIGN_OR_RETURN(const base::UniqueFd fd,
                   OpenTraceFile(path, path));  // its errors, named by the user
  struct stat info;
  if (::fstat(fd.get(), &info) != 0)
    return base::IoError("{}: cannot stat: {}", path, std::strerror(errno));
  TraceFile file(path);
  file.identity = base::FileIdentity::Of(info);
  files_.push_back(std::move(file));
  return base::OkStatus();
}

base::Status TraceInputs::AddDirectory(const std::string& path, int fd) {
  std::unique_ptr<DIR, int (*)(DIR*)> directory(::fdopendir(fd), ::closedir);
  if (directory == nullptr) {
    const int error = errno;
    ::close(fd);
    return base::IoError("{}: cannot list the directory: {}", path, std::strerror(error));
  }
  ASSIGN_OR_RETURN(const std::vector<std::string> names, ListDirectory(path, directory.get()));
  Directory listed{path};
  const int index = static_cast<int>(directories_.size());
  for (const std::string& name : names) {
    if (const auto companion = AmpprofCompanion(name)) {
      base::LogInfo("passing over {}: {}", (std::filesystem::path(path) / name).string(),
                    *companion);
      continue;
    }
    auto file =
        InspectEntry(::dirfd(directory.get()), name, (std::filesystem::path(path) / name).string());
    if (!file.ok()) {
      base::LogWarning("skipping {}", file.status().message());
      ++listed.skipped;
      continue;
    }
    file->directory = index;
    files_.push_back(std::move(*file));
    ++listed.traces;
  }
  if (listed.traces == 0) {
    if (listed.skipped == 0)
      return base::InvalidDataError("{}: no trace files in this directory", path);
    return base::InvalidDataError(
        "{}: no trace files in this directory ({} {} skipped, as said above)", path, listed.skipped,
        listed.skipped == 1 ? "entry" : "entries");
  }
  directories_.push_back(std::move(listed));
  return base::OkStatus();
}

base::Status TraceInputs::Skip(const TraceFile& file, const base::Status& error) const {
  if (file.directory < 0) return error;
  Directory& directory = directories_.at(static_cast<size_t>(file.directory));
  base::LogWarning("skipping {}", error.message());
  ++directory.skipped;
  if (--directory.traces > 0) return base::OkStatus();
  return base::InvalidDataError(
      "{}: no trace in this directory could be read ({} {} skipped, as said above)", directory.path,
      directory.skipped, directory.skipped == 1 ? "entry" : "entries");
}

base::Status TraceInputs::RefuseOutput(const base::OutputTarget& output) const {
  if (!output.regular() || !output.identity()) return base::OkStatus();
  for (const TraceFile& file : files_) {
    if (file.identity == output.identity()) {
      return base::InvalidArgumentError(
          "{}: is also an input ({}); write the output to another file", output.name(), file.name);
    }
  }
  return base::OkStatus();
}

base::StatusOr<TraceInputs> ExpandTraceInputs(const std::vector<std::string>& paths) {
  TraceInputs inputs;
  for (const std::string& path : paths)
    RETURN_IF_ERROR(inputs.Add(path, /*directories_allowed=*/true));
  return inputs;
}

base::StatusOr<TraceInputs> ResolveTraceFile(const std::string& path) {
  TraceInputs inputs;
  RETURN_IF_ERROR(inputs.Add(path, /*directories_allowed=*/false));
  return inputs;
}

}  // namespace ampprof::pipeline
