#ifndef AMPPROF_SRC_BASE_OUTPUT_TARGET_H_
#define AMPPROF_SRC_BASE_OUTPUT_TARGET_H_

// Where a command's output will go, worked out before anything is read or written, so that a report
// or an export that cannot be written fails at once (not after a long analysis), and so that the
// caller can refuse an output that is one of its inputs.
//
//   ASSIGN_OR_RETURN(const OutputTarget target, OutputTarget::Resolve("report.txt"));
//   if (target.SameFileAs(other_target)) return InvalidArgumentError(...);
//   ASSIGN_OR_RETURN(std::unique_ptr<OutputFile> file, OutputFile::Open(target));   //
//   output_file.h
//
// Three kinds of target:
//   - "-" and the names of open descriptors (/dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N):
//     that descriptor, written as it is (what the shell redirected it to: a pipe, a terminal, a
//     file opened for appending);
//   - an existing character device, named pipe or socket (/dev/null, /dev/full, a FIFO): opened and
//     written in place;
//   - a regular file, or a path that does not exist yet: written to a temporary file beside it and
//     renamed over it once complete (output_file.h), so that a failed write never leaves it half
//     written or empty. Symbolic links are followed to the file they name, which is the one
//     replaced.
// Errors are one line naming the path and the reason ("out/report.txt: cannot write: No such file
// or directory"): a missing directory, a directory, a name too long for its file system, an
// existing file or a directory that may not be written, a loop of symbolic links.

#include <sys/types.h>

#include <optional>
#include <string>

#include "src/base/file_identity.h"
#include "src/base/status.h"

namespace ampprof::base {

class OutputTarget {
 public:
  enum class Kind { kDescriptor, kDevice, kFile };

  static StatusOr<OutputTarget> Resolve(const std::string& path);

  Kind kind() const { return kind_; }
  // How messages name it: the path as given, "standard output" for "-".
  const std::string& name() const { return name_; }
  // kDescriptor: the open descriptor written to.
  int descriptor() const { return descriptor_; }
  // kDevice and kFile: the file written, after symbolic links.
  const std::string& file() const { return file_; }
  // The existing file it names (for a descriptor, the file open on it); nullopt for a new path.
  const std::optional<FileIdentity>& identity() const { return identity_; }
  // An existing regular file (for a descriptor, one open on a regular file).
  bool regular() const { return regular_; }
  // kFile: the permission bits a replacement keeps (those of the existing file), or nullopt for a
  // new file, which gets the usual 0666 less the umask.
  const std::optional<mode_t>& mode() const { return mode_; }

  // Whether writing both would leave one regular file holding only one of them: the same existing
  // regular file, or the same new path. A device or a pipe takes both, one after the other.
  bool SameFileAs(const OutputTarget& other) const;

 private:
  Kind kind_ = Kind::kFile;
  std::string name_;
  int descriptor_ = -1;
  std::string file_;
  std::optional<FileIdentity> identity_;
  bool regular_ = false;
  std::optional<mode_t> mode_;
  // A new path: the directory it will be created in and its name there, to tell two names of it
  // apart.
  std::optional<FileIdentity> directory_;
  std::string leaf_;
};

}  // namespace ampprof::base

#endif  // AMPPROF_SRC_BASE_OUTPUT_TARGET_H_
