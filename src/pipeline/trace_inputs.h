#ifndef AMPPROF_SRC_PIPELINE_TRACE_INPUTS_H_
#define AMPPROF_SRC_PIPELINE_TRACE_INPUTS_H_

// What the user named as traces, as the files to read.
//
//   ASSIGN_OR_RETURN(const TraceInputs inputs, ExpandTraceInputs({"traces/", "extra.ampt", "-"}));
//   RETURN_IF_ERROR(inputs.RefuseOutput(report_target));   // before anything is read or written
//   for (const TraceFile& file : inputs) {
//     auto trace = LoadAndBuild(file);
//     if (!trace.ok()) {
//       RETURN_IF_ERROR(inputs.Skip(file, trace.status()));   // an error for a file the user named
//       continue;
//     }
//     ...
//   }
//
// - A file the user named is read, or fails the whole command with its error (missing, unreadable,
// not
//   a trace). Only regular files are read: a named pipe, a device or a socket is refused in one
//   line, never opened for a blocking read (trace_loader.h).
// - A directory stands for the trace files directly in it, in name order. Every entry that is not
// used
//   is named in a warning on stderr ("ampprof: warning: skipping DIR/ENTRY: REASON") and the rest
//   go on: a subdirectory, a named pipe or a device, a broken symbolic link, a loop of symbolic
//   links, a file that cannot be opened or read (with the system's reason), an empty file, a file
//   of no known format; and, once the caller has tried it, a file that looks like a trace but fails
//   to load (with its error; Skip()). Each entry is judged on its own, so the order of the entries
//   changes nothing. A directory is an error only when no trace is left in it. What ampprof itself
//   writes beside the traces of `run` and `compare` (report.html, the library logs of
//   --library-logs) is passed over without a warning (said at --log-level info).
// - "-" is standard input, copied to a private temporary file (standard_input_copy.h) that lives as
// long
//   as the TraceInputs; it can be given once. Messages and reports call it "standard input".

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "src/base/file_identity.h"
#include "src/base/output_target.h"
#include "src/base/status.h"

namespace ampprof::pipeline {

class StandardInputCopy;

// One file to read as a trace.
struct TraceFile {
  TraceFile() = default;
  // A file the user named by this path (implicit, so that a path can be loaded as it is).
  TraceFile(std::string file_path) : path(file_path), name(std::move(file_path)) {}  // NOLINT

  std::string path;  // what to open
  std::string name;  // how messages and reports name it: the path, or "standard input"
  // The file it is (for standard input, the file redirected to it, if any): an output must not be
  // it.
  std::optional<base::FileIdentity> identity;
  // Where it was found: an index into its TraceInputs' directories, or -1 when the user named it.
  int directory = -1;
};

class TraceInputs {
 public:
  TraceInputs();
  ~TraceInputs();
  TraceInputs(TraceInputs&&) noexcept;
  TraceInputs& operator=(TraceInputs&&) noexcept;

  std::vector<TraceFile>::const_iterator begin() const { return files_.begin(); }
  std::vector<TraceFile>::const_iterator end() const { return files_.end(); }
  size_t size() const { return files_.size(); }
  bool empty() const { return files_.empty(); }

  // `file` could not be loaded. A file the user named: returns `error` as it is. A file found in a
  // directory: warns "skipping ERROR" on stderr and returns OK, or an error naming the directory
  // when no trace is left in it. Const, so that a const TraceInputs can be read with it; it only
  // counts.
  base::Status Skip(const TraceFile& file, const base::Status& error) const;

  // An error naming both when `output` is one of these files (through any link): writing it would
  // destroy an input.
  base::Status RefuseOutput(const base::OutputTarget& output) const;

 private:
  friend base::StatusOr<TraceInputs> ExpandTraceInputs(const std::vector<std::string>& paths);
  friend base::StatusOr<TraceInputs> ResolveTraceFile(const std::string& path);
  struct Directory {
    std::string path;
    size_t traces = 0;   // found in it and not skipped yet
    size_t skipped = 0;  // entries skipped, when listed or when loaded
  };

  base::Status Add(const std::string& path, bool directories_allowed);
  base::Status AddDirectory(const std::string& path, int fd);

  std::vector<TraceFile> files_;
  mutable std::vector<Directory> directories_;
  std::unique_ptr<StandardInputCopy> standard_input_;
};

// Files, directories and "-", in the order given (a directory's files in name order). Errors: a
// named file that cannot be used, a directory that cannot be listed or holds no trace, "-" twice.
base::StatusOr<TraceInputs> ExpandTraceInputs(const std::vector<std::string>& paths);

// One trace file or "-"; a directory is an error ("is a directory, not a trace file").
base::StatusOr<TraceInputs> ResolveTraceFile(const std::string& path);

}  // namespace ampprof::pipeline

#endif  // AMPPROF_SRC_PIPELINE_TRACE_INPUTS_H_
