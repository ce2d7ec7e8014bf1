#ifndef AMPPROF_SRC_CLI_OUTPUT_DIRECTORY_H_
#define AMPPROF_SRC_CLI_OUTPUT_DIRECTORY_H_

// The directory a traced run writes its traces into, checked before the workload starts: a run that
// could not write its trace should fail in a second, not after an hour of training.
//
//   ASSIGN_OR_RETURN(PreparedOutputDirectory dir, PrepareOutputDirectory("ampprof-out",
//   /*replace=*/false));
//   ... run the workload with dir.path, analyze its traces, write dir.path + "/report.html" ...
//   // dir.lock is released when `dir` goes out of scope
//
// The directory is created when missing (with its parents), must be writable and its device must
// have space left. One run at a time: the run holds the directory's lock for as long as it lives,
// and a second run given the same directory while the first one runs is an error, so that neither
// analyses the other's traces nor overwrites its report.html. Traces of an earlier run (*.ampt) are
// never silently mixed with or overwritten by the new ones: that is an error, unless `replace`,
// which deletes them first (never one that a live process is still writing). Returns the absolute
// path (the workload may chdir).

#include <string>
#include <vector>

#include "src/base/status.h"

namespace ampprof::cli {

// An exclusive lock on an output directory: flock(2) on the directory itself, which the kernel
// drops when ampprof ends however it ends, and which leaves no file behind. Close-on-exec, so the
// workload and its children never hold it. Move-only; released when destroyed.
class OutputDirectoryLock {
 public:
  OutputDirectoryLock() = default;
  ~OutputDirectoryLock();
  OutputDirectoryLock(OutputDirectoryLock&& other) noexcept;
  OutputDirectoryLock& operator=(OutputDirectoryLock&& other) noexcept;
  OutputDirectoryLock(const OutputDirectoryLock&) = delete;
  OutputDirectoryLock& operator=(const OutputDirectoryLock&) = delete;

  // Locks the existing directory `directory`; `shown` names it in the error when another run holds
  // it. A file system that has no locks is not an error: the run goes on, unprotected.
  static base::StatusOr<OutputDirectoryLock> Acquire(const std::string& directory,
                                                     const std::string& shown);

 private:
  explicit OutputDirectoryLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

struct PreparedOutputDirectory {
  std::string path;  // absolute
  OutputDirectoryLock lock;
};

base::StatusOr<PreparedOutputDirectory> PrepareOutputDirectory(const std::string& path,
                                                               bool replace);

// `path` created if missing and locked, without the other checks: the directory above the runs of
// `compare`, which holds their directories and the report.
base::StatusOr<PreparedOutputDirectory> LockOutputDirectory(const std::string& path);

// The traces (*.ampt) directly in `dir`, sorted by name.
base::StatusOr<std::vector<std::string>> AmptTracesIn(const std::string& dir);

}  // namespace ampprof::cli

#endif  // AMPPROF_SRC_CLI_OUTPUT_DIRECTORY_H_
