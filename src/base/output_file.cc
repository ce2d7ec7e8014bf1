#include "src/base/output_file.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace ampprof::base {
namespace {

// A temporary name stays within the 255 bytes of a file name whatever the target's length.
constexpr size_t kMaxLeafInTemporaryName = 200;

mode_t NewFileMode() {
  const mode_t mask = ::umask(0);  // reading the umask means setting it; put it back at once
  ::umask(mask);
  return 0666 & ~mask;
}

}  // namespace

StatusOr<std::unique_ptr<OutputFile>> OutputFile::Open(const OutputTarget& target) {
  const auto cannot_write = [&](int error) {
    return IoError("{}: cannot write: {}", target.name(), std::strerror(error));
  };
  switch (target.kind()) {
    case OutputTarget::Kind::kDescriptor:
      return std::unique_ptr<OutputFile>(new OutputFile(target, UniqueFd(), ""));
    case OutputTarget::Kind::kDevice: {
      UniqueFd fd(::open(target.file().c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY));
      if (!fd.valid()) return cannot_write(errno);
      return std::unique_ptr<OutputFile>(new OutputFile(target, std::move(fd), ""));
    }
    case OutputTarget::Kind::kFile: {
      const std::filesystem::path file(target.file());
      const std::string leaf = file.filename().string().substr(0, kMaxLeafInTemporaryName);
      std::string temporary = (file.parent_path() / ("." + leaf + ".ampprof-XXXXXX")).string();
      UniqueFd fd(::mkostemp(temporary.data(), O_CLOEXEC));
      if (!fd.valid()) return cannot_write(errno);
      if (::fchmod(fd.get(), target.mode().value_or(NewFileMode())) != 0) {
        const int error = errno;
        ::unlink(temporary.c_str());
        return cannot_write(error);
      }
      return std::unique_ptr<OutputFile>(
          new OutputFile(target, std::move(fd), std::move(temporary)));
    }
  }
  return InternalError("unknown output kind");
}

OutputFile::OutputFile(const OutputTarget& target, UniqueFd owned, std::string temporary)
    : target_(target),
      owned_(std::move(owned)),
      temporary_(std::move(temporary)),
      buffer_(owned_.valid() ? owned_.get() : target.descriptor()),
      stream_(&buffer_) {
  if (!temporary_.empty()) removal_.emplace(temporary_);
}

OutputFile::~OutputFile() {
  if (committed_) return;
  owned_.Close();
  if (!temporary_.empty()) ::unlink(temporary_.c_str());
}

Status OutputFile::Failure(int error) {
  owned_.Close();
  if (!temporary_.empty()) ::unlink(temporary_.c_str());
  return IoError("{}: cannot write: {}", target_.name(), std::strerror(error));
}

Status OutputFile::Commit() {
  AMPPROF_CHECK_MSG(!committed_, "an output is committed once");
  committed_ = true;
  if (!buffer_.Flush()) return Failure(buffer_.error());
  if (target_.kind() == OutputTarget::Kind::kFile && ::fsync(owned_.get()) != 0)
    return Failure(errno);
  if (!owned_.Close()) return Failure(errno);
  if (!temporary_.empty() && ::rename(temporary_.c_str(), target_.file().c_str()) != 0)
    return Failure(errno);
  return OkStatus();
}

}  // namespace ampprof::base
