#include "src/base/output_target.h"

#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <string_view>

namespace ampprof::base {
namespace {

constexpr int kMaxSymbolicLinks =
    40;  // as many as the kernel follows in one path (ELOOP after that)

Status CannotWrite(const std::string& name, int error) {
  return IoError("{}: cannot write: {}", name, std::strerror(error));
}

// The open descriptor a path names ("-", /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N), or
// -1.
int DescriptorNamed(std::string_view path) {
  if (path == "-" || path == "/dev/stdout") return STDOUT_FILENO;
  if (path == "/dev/stderr") return STDERR_FILENO;
  for (const std::string_view prefix :
       {std::string_view("/dev/fd/"), std::string_view("/proc/self/fd/")}) {
    if (!path.starts_with(prefix)) continue;
    const std::string_view digits = path.substr(prefix.size());
    int fd = -1;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), fd);
    if (error == std::errc() && end == digits.data() + digits.size() && fd >= 0) return fd;
  }
  return -1;
}

// Where a chain of symbolic links ends (the path itself when it is no link). The end may not exist:
// a link to a file not yet written is followed to that file.
StatusOr<std::string> FollowLinks(const std::string& path, const std::string& name) {
  std::string current = path;
  for (int links = 0;; ++links) {
    struct stat info;
    if (::lstat(current.c_str(), &info) != 0) {
      if (errno == ENOENT)
        return current;  // a new file, or a missing directory (checked by the caller)
      return CannotWrite(name, errno);
    }
    if (!S_ISLNK(info.st_mode)) return current;
    if (links == kMaxSymbolicLinks) return CannotWrite(name, ELOOP);
    std::string target(PATH_MAX, '\0');
    const ssize_t length = ::readlink(current.c_str(), target.data(), target.size());
    if (length < 0) return CannotWrite(name, errno);
    target.resize(static_cast<size_t>(length));
    current = target.starts_with('/')
                  ? target
                  : (std::filesystem::path(current).parent_path() / target).string();
  }
}

}  // namespace

StatusOr<OutputTarget> OutputTarget::Resolve(const std::string& path) {
  OutputTarget target;
  target.name_ = path == "-" ? "standard output" : path;
  if (path.empty()) return InvalidArgumentError("an output file name is empty");
  struct stat info;
  if (const int fd = DescriptorNamed(path); fd >= 0) {
    if (::fstat(fd, &info) != 0) return CannotWrite(target.name_, errno);
    target.kind_ = Kind::kDescriptor;
    target.descriptor_ = fd;
    target.identity_ = FileIdentity::Of(info);
    target.regular_ = S_ISREG(info.st_mode);
    return target;
  }
  ASSIGN_OR_RETURN(target.file_, FollowLinks(path, target.name_));
  if (::stat(target.file_.c_str(), &info) == 0) {
    if (S_ISDIR(info.st_mode)) return CannotWrite(target.name_, EISDIR);
    if (::access(target.file_.c_str(), W_OK) != 0) return CannotWrite(target.name_, errno);
    target.identity_ = FileIdentity::Of(info);
    if (!S_ISREG(info.st_mode)) {
      target.kind_ = Kind::kDevice;
      return target;
    }
    target.regular_ = true;
    target.mode_ = info.st_mode & 07777;
  } else if (errno != ENOENT) {  // ENAMETOOLONG, ENOTDIR, EACCES on the way
    return CannotWrite(target.name_, errno);
  }
  // A regular file or a new one: the replacement is created in its directory.
  const std::filesystem::path file(target.file_);
  target.leaf_ = file.filename().string();
  if (target.leaf_.empty()) return CannotWrite(target.name_, EISDIR);  // "out/"
  const std::string directory = file.has_parent_path() ? file.parent_path().string() : ".";
  struct stat directory_info;
  if (::stat(directory.c_str(), &directory_info) != 0) return CannotWrite(target.name_, errno);
  if (!S_ISDIR(directory_info.st_mode)) return CannotWrite(target.name_, ENOTDIR);
  if (::access(directory.c_str(), W_OK | X_OK) != 0) {
    return IoError("{}: cannot write into {}: {}", target.name_, directory, std::strerror(errno));
  }
  if (!target.identity_) target.directory_ = FileIdentity::Of(directory_info);
  target.kind_ = Kind::kFile;
  return target;
}

bool OutputTarget::SameFileAs(const OutputTarget& other) const {
  if (identity_ && other.identity_)
    return regular_ && other.regular_ && *identity_ == *other.identity_;
  if (directory_ && other.directory_)
    return *directory_ == *other.directory_ && leaf_ == other.leaf_;
  return false;
}

}  // namespace ampprof::base
