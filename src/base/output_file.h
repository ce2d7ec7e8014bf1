#ifndef AMPPROF_SRC_BASE_OUTPUT_FILE_H_
#define AMPPROF_SRC_BASE_OUTPUT_FILE_H_

// A command's output (a report, an export), written so that a failure is never silent and never
// costs the user a file:
//
//   ASSIGN_OR_RETURN(const OutputTarget target, OutputTarget::Resolve(path));   // output_target.h
//   ASSIGN_OR_RETURN(std::unique_ptr<OutputFile> output, OutputFile::Open(target));
//   RenderText(reports, output->stream(), {});
//   RETURN_IF_ERROR(output->Commit());   // "report.txt: cannot write: No space left on device"
//
// A regular file (or a new one) is written to a temporary file beside it (".NAME.ampprof-XXXXXX",
// in the same directory so that the rename cannot cross file systems); Commit() checks every write,
// syncs the data to the disk and renames the temporary file over the target in one step. Until then
// the target is untouched; an OutputFile dropped without Commit() (an error, an exception) removes
// its temporary file, and so does a SIGINT, SIGTERM, SIGHUP or SIGQUIT (removal_on_signal.h). A
// replaced file keeps its permission bits; a new one gets 0666 less the umask, as a shell
// redirection would. The rename replaces the name: another hard link to the old file keeps the old
// content. Descriptors and devices are written in place. Every write is checked: the first failure
// is kept with its errno, the stream goes bad at once (a writer that checks it can stop instead of
// producing the rest) and Commit() returns the error naming the output and the reason.

#include <memory>
#include <optional>
#include <ostream>
#include <string>

#include "src/base/fd_output_buffer.h"
#include "src/base/output_target.h"
#include "src/base/removal_on_signal.h"
#include "src/base/status.h"
#include "src/base/unique_fd.h"

namespace ampprof::base {

class OutputFile {
 public:
  static StatusOr<std::unique_ptr<OutputFile>> Open(const OutputTarget& target);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  std::ostream& stream() { return stream_; }
  // Whether a write has failed already; the output is lost and Commit() will say why.
  bool failed() const { return buffer_.error() != 0; }
  // Writes what is buffered and checks it; for a file, syncs it and renames it into place. Once.
  Status Commit();

 private:
  OutputFile(const OutputTarget& target, UniqueFd owned, std::string temporary);
  Status Failure(int error);

  OutputTarget target_;
  UniqueFd owned_;  // kFile, kDevice: the file written; a target descriptor is not ours to close
  std::string temporary_;  // kFile: the file being written, renamed to target_.file() by Commit()
  std::optional<RemovalOnSignal> removal_;
  FdOutputBuffer buffer_;
  std::ostream stream_;
  bool committed_ = false;
};

}  // namespace ampprof::base

#endif  // AMPPROF_SRC_BASE_OUTPUT_FILE_H_
